"""Creating Letta's schema, or bringing an existing one up to the installed letta without
losing anything.

The letta wheel ships no migrations, and ``create_all`` adds no column to a table that
exists: a database made under letta 0.16.1 and opened by 0.16.8 would miss what the newer
version expects. So on every start, under an advisory lock (servers that start together on
one database take turns):

1. The letta version that last wrote the schema (recorded in ``lte_schema_versions``) must not
   be newer than the installed one; a newer one is refused before anything is read or written.
2. An empty database gets letta's schema from ``create_all``.
3. Otherwise Alembic compares letta's ORM metadata with the database
   (``alembic.autogenerate``). What is missing (tables, columns, indexes, unique and foreign
   key constraints, enum values) is added with Alembic's operations, in one transaction,
   after a backup (``pg_dump``); a NOT NULL that letta dropped is relaxed too.
4. What cannot be done without losing or inventing data (a column letta no longer has, a
   column whose type changed, NOT NULL over rows that hold NULL, a required column without a
   default on a table that has rows) stops start-up, with nothing changed, and says what to do.
   What the database has beyond letta's models (an index an older letta made, other
   programs' tables) is left as it is.

LETTA_PG_URI must be set before letta is first imported in the process: letta picks its
column types (pgvector or not) at import time.
"""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from .database import DatabaseError

VERSIONS_TABLE = "lte_schema_versions"
# pg_advisory_xact_lock key for schema work: "LTE schema" folded into a bigint.
SCHEMA_LOCK = 0x4C54455343484D41
SKIP_BACKUP_ENV = "LETTA_TOOL_EMULATION_UPGRADE_WITHOUT_BACKUP"

_SEQUENCE = [
    "CREATE SEQUENCE IF NOT EXISTS message_seq_id START 1",
    "ALTER TABLE messages ALTER COLUMN sequence_id SET DEFAULT nextval('message_seq_id'::regclass)",
]

_VERSIONS = sa.Table(
    VERSIONS_TABLE,
    sa.MetaData(),
    sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
    sa.Column("letta_version", sa.String, nullable=False),
    sa.Column("plugin_version", sa.String, nullable=False),
    sa.Column("written_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    sa.Column("changes", sa.Text, nullable=False, server_default=""),
)


def sync_url(uri: str) -> str:
    for prefix in ("postgresql+asyncpg://", "postgresql+pg8000://", "postgres://", "postgresql://"):
        if uri.startswith(prefix):
            return "postgresql+psycopg2://" + uri[len(prefix) :]
    raise DatabaseError(f"LETTA_PG_URI must be a postgresql:// URI (got one starting {uri.split(':', 1)[0]!r})")


def libpq_url(uri: str) -> str:
    """The URI as libpq programs (pg_dump) read it: no SQLAlchemy driver name."""
    return "postgresql://" + sync_url(uri)[len("postgresql+psycopg2://") :]


def installed_version(name: str) -> str:
    from importlib.metadata import version

    return version(name)


def _parse(version: str) -> Any:
    from packaging.version import InvalidVersion, Version

    try:
        return Version(version)
    except InvalidVersion:
        return Version("0")


# -- what to do ------------------------------------------------------------------------------------


@dataclass
class Plan:
    """The difference between letta's models and the database, sorted by what may be done."""

    operations: list[Any] = field(default_factory=list)  # Alembic operations to run, in order
    enum_types: list[sa.Enum] = field(default_factory=list)  # native enum types a new column needs
    enum_values: list[tuple[sa.Enum, str]] = field(default_factory=list)
    unsafe: list[str] = field(default_factory=list)  # why it cannot be done without losing data
    kept: list[str] = field(default_factory=list)  # in the database, not in letta's models: left alone
    counts: Counter[str] = field(default_factory=Counter)

    @property
    def empty(self) -> bool:
        return not (self.operations or self.enum_types or self.enum_values)

    def summary(self) -> str:
        return ", ".join(f"{n} {what}" for what, n in sorted(self.counts.items())) or "nothing"


def _letta_objects(metadata: sa.MetaData) -> Callable[..., bool]:
    """Alembic's filter: compare only letta's own tables; anything else in the database stays."""

    def include(obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
        if type_ == "table":
            return name in metadata.tables
        return True

    return include


def plan_upgrade(conn: sa.Connection, metadata: sa.MetaData) -> Plan:
    from alembic.autogenerate import produce_migrations
    from alembic.migration import MigrationContext
    from alembic.operations import ops

    context = MigrationContext.configure(conn, opts={"compare_type": True, "include_object": _letta_objects(metadata)})
    script = produce_migrations(context, metadata)
    plan = Plan()
    inspector = sa.inspect(conn)
    for op in _flatten(script.upgrade_ops):
        if isinstance(op, ops.CreateTableOp):
            plan.operations.append(op)
            plan.counts["tables"] += 1
        elif isinstance(op, ops.AddColumnOp):
            column = op.column
            if not column.nullable and column.server_default is None and _has_rows(conn, op.table_name):
                plan.unsafe.append(
                    f"column {op.table_name}.{column.name} is required and has no default, but the table has rows"
                )
                continue
            # The column alone: autogenerate reports its index, foreign key and unique constraint
            # as operations of their own, which would otherwise run twice.
            bare = sa.Column(column.name, column.type, nullable=column.nullable, server_default=column.server_default)
            plan.operations.append(ops.AddColumnOp(op.table_name, bare, schema=op.schema))
            plan.counts["columns"] += 1
            if isinstance(column.type, sa.Enum) and column.type.native_enum:
                plan.enum_types.append(column.type)
        elif isinstance(op, ops.CreateIndexOp):
            plan.operations.append(op)
            plan.counts["indexes"] += 1
        elif isinstance(op, ops.CreateUniqueConstraintOp):
            if _primary_key_covers(inspector, op.table_name, list(op.columns)):
                continue  # the primary key enforces it already (create_all names it so)
            plan.operations.append(op)
            plan.counts["unique constraints"] += 1
        elif isinstance(op, ops.CreateForeignKeyOp):
            plan.operations.append(op)
            plan.counts["foreign keys"] += 1
        elif isinstance(op, ops.AlterColumnOp):
            _alter(conn, op, plan)
        elif isinstance(op, ops.DropColumnOp):
            plan.unsafe.append(
                f"column {op.table_name}.{op.column_name} is in the database but not in letta's models "
                "(dropping it would lose its data)"
            )
        else:  # an index or constraint letta no longer declares: harmless, and kept
            plan.kept.append(repr(op.to_diff_tuple())[:200])
    _enum_values(conn, metadata, plan)
    return plan


def _flatten(container: Any) -> Iterator[Any]:
    for op in container.ops:
        if hasattr(op, "ops"):
            yield from _flatten(op)
        else:
            yield op


def _has_rows(conn: sa.Connection, table: str) -> bool:
    return conn.execute(sa.select(sa.literal(1)).select_from(sa.table(table)).limit(1)).first() is not None


def _primary_key_covers(inspector: Any, table: str, columns: list[str]) -> bool:
    try:
        key = inspector.get_pk_constraint(table).get("constrained_columns") or []
    except sa.exc.NoSuchTableError:
        return False
    return set(key) == set(columns)


def _alter(conn: sa.Connection, op: Any, plan: Plan) -> None:
    where = f"{op.table_name}.{op.column_name}"
    if op.modify_type is not None:
        plan.unsafe.append(
            f"column {where} is {op.existing_type} in the database and {op.modify_type} in letta's models "
            "(converting it could change or lose values)"
        )
        return
    if op.modify_nullable is None:
        return  # comments and defaults are not compared
    if op.modify_nullable is False:
        column: sa.ColumnClause[Any] = sa.column(op.column_name)
        nulls = conn.execute(
            sa.select(sa.func.count()).select_from(sa.table(op.table_name, column)).where(column.is_(None))
        ).scalar_one()
        if nulls:
            plan.unsafe.append(f"column {where} must not be NULL in letta's models, but it is NULL in {nulls} row(s)")
            return
    plan.operations.append(op)
    plan.counts["NOT NULL changes"] += 1


def _enum_values(conn: sa.Connection, metadata: sa.MetaData, plan: Plan) -> None:
    """Values letta's native enum types gained (Alembic does not compare those)."""
    seen: set[str] = set()
    for table in metadata.tables.values():
        for column in table.columns:
            kind = column.type
            if not isinstance(kind, sa.Enum) or not kind.native_enum or not kind.name or kind.name in seen:
                continue
            seen.add(kind.name)
            rows = conn.execute(
                sa.text(
                    "SELECT e.enumlabel FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid WHERE t.typname = :name"
                ),
                {"name": kind.name},
            ).all()
            if not rows:
                continue  # a new type: created with its table or column
            have = {r[0] for r in rows}
            for value in kind.enums:
                if value not in have:
                    plan.enum_values.append((kind, value))
                    plan.counts["enum values"] += 1


# -- doing it --------------------------------------------------------------------------------------


def _apply(conn: sa.Connection, plan: Plan) -> None:
    from alembic.migration import MigrationContext
    from alembic.operations import Operations

    operations = Operations(MigrationContext.configure(conn))
    preparer: Any = conn.dialect.identifier_preparer  # PostgreSQL's, which formats type names
    for kind, value in plan.enum_values:
        # Alembic has no operation for this; the statement is built from the type letta declares.
        literal = sa.literal(value).compile(dialect=conn.dialect, compile_kwargs={"literal_binds": True})
        operations.execute(f"ALTER TYPE {preparer.format_type(kind)} ADD VALUE IF NOT EXISTS {literal}")
    for kind in plan.enum_types:
        kind.create(conn, checkfirst=True)
    for op in plan.operations:
        operations.invoke(op)


def backup(uri: str, directory: Path, label: str, log: Callable[[str], None]) -> Path:
    """A pg_dump of the whole database (custom format, restorable with pg_restore) into
    ``directory``, private to this user."""
    from pgserver._commands import POSTGRES_BIN_PATH

    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S")
    path = directory / f"letta-{stamp}-before-{label}.dump"
    log(f"Backing up the database before changing its schema, to {path} ...")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.close(fd)
    done = subprocess.run(
        [str(POSTGRES_BIN_PATH / "pg_dump"), "--format=custom", f"--file={path}", libpq_url(uri)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        path.unlink(missing_ok=True)
        raise DatabaseError(
            f"the backup before the schema upgrade failed ({done.stderr.strip().splitlines()[-1:] or done.returncode}); "
            f"nothing was changed. Back the database up yourself, then start again with {SKIP_BACKUP_ENV}=1."
        )
    return path


def _record(conn: sa.Connection, letta: str, changes: str) -> None:
    conn.execute(
        _VERSIONS.insert().values(
            letta_version=letta, plugin_version=installed_version("letta-tool-emulation"), changes=changes
        )
    )


def last_writer(conn: sa.Connection) -> str | None:
    """The letta version that last wrote the schema, or None if none was recorded."""
    if not sa.inspect(conn).has_table(VERSIONS_TABLE):
        return None
    row = conn.execute(sa.select(_VERSIONS.c.letta_version).order_by(_VERSIONS.c.id.desc()).limit(1)).first()
    return row[0] if row is not None else None


def create_extension(engine: sa.Engine) -> None:
    """pgvector, created under the schema lock: PostgreSQL's IF NOT EXISTS does not make two
    sessions creating it at once safe, and the one that loses fails on the catalogue's unique
    index, which stopped the second of two servers started together on a new database."""
    with engine.begin() as conn:
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(SCHEMA_LOCK)))
        conn.execute(sa.text("CREATE EXTENSION IF NOT EXISTS vector"))


def ensure_schema(
    uri: str | None = None, *, backup_dir: Path | None = None, log: Callable[[str], None] = print
) -> None:
    uri = uri or os.environ.get("LETTA_PG_URI")
    if not uri:
        raise DatabaseError("LETTA_PG_URI is not set")
    if "letta.orm" in sys.modules and os.environ.get("LETTA_PG_URI") != uri:
        raise DatabaseError("letta was imported before LETTA_PG_URI was set; create the schema in a fresh process")
    os.environ["LETTA_PG_URI"] = uri
    from sqlalchemy.exc import OperationalError, ProgrammingError

    engine = sa.create_engine(sync_url(uri))
    try:
        create_extension(engine)
    except OperationalError as exc:
        raise DatabaseError(f"cannot reach the database at LETTA_PG_URI: {_first_line(exc)}") from exc
    except ProgrammingError as exc:
        raise DatabaseError(
            "the database has no pgvector extension and it could not be created "
            f"({_first_line(exc)}). Install pgvector on that server, or unset LETTA_PG_URI to use the embedded database."
        ) from exc
    from letta.orm import Base

    letta = installed_version("letta")
    try:
        with engine.begin() as conn:
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(SCHEMA_LOCK)))
            _VERSIONS.create(conn, checkfirst=True)
            _upgrade(conn, Base.metadata, uri, letta, backup_dir, log)
            from .. import shared_state

            shared_state.create_tables(conn)
    finally:
        engine.dispose()


def _upgrade(
    conn: sa.Connection,
    metadata: sa.MetaData,
    uri: str,
    letta: str,
    backup_dir: Path | None,
    log: Callable[[str], None],
) -> None:
    written = last_writer(conn)
    if written is not None and _parse(written) > _parse(letta):
        raise DatabaseError(
            f"this database was last written by letta {written}, which is newer than the installed letta {letta}; "
            f"an older letta could misread what the newer one stored. Install letta {written} or newer "
            f"(pip install 'letta=={written}'), or start on a backup made before the upgrade."
        )
    present = set(sa.inspect(conn).get_table_names())
    sequence = _SEQUENCE if "messages" in metadata.tables else []
    if not present & set(metadata.tables):
        metadata.create_all(conn)
        for statement in sequence:
            conn.execute(sa.text(statement))
        _record(conn, letta, "created")
        return
    plan = plan_upgrade(conn, metadata)
    since = f"letta {written}" if written else "an earlier letta"
    if plan.unsafe:
        raise DatabaseError(
            f"the schema written by {since} cannot be brought to letta {letta} without losing data: "
            + "; ".join(plan.unsafe)
            + ". Nothing was changed. "
            + (
                f"Run letta {written} on it (pip install 'letta=={written}')"
                if written
                else "Run the letta that wrote it"
            )
            + ", or move that data yourself after a backup (see 'Running it for real' in the README)."
        )
    if not plan.empty:
        log(f"Upgrading Letta's schema from {since} to letta {letta}: adding {plan.summary()}.")
        if os.environ.get(SKIP_BACKUP_ENV, "").strip() not in ("1", "true", "yes"):
            path = backup(uri, backup_dir or Path.home() / ".letta-tool-emulation" / "backups", f"letta-{letta}", log)
            log(f"  backup written: {path} (pg_restore restores it)")
        _apply(conn, plan)
    for statement in sequence:
        conn.execute(sa.text(statement))
    if not plan.empty or written != letta:
        _record(conn, letta, plan.summary() if not plan.empty else "no change")


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", exc)).strip()
    return text.splitlines()[0] if text else type(exc).__name__
