"""The schema upgrade on its own, on a real PostgreSQL (the embedded one), with small models of
its own in place of letta's: what it adds, what it refuses, and that a refusal changes nothing.
(``python3 dev.py compat --ends`` runs it on letta's real models, from 0.16.1 data to 0.16.8.)"""

from __future__ import annotations

import enum
import threading
from collections.abc import Iterator
from pathlib import Path

import psycopg2
import pytest
import sqlalchemy as sa

from letta_tool_emulation.runtime.database import DATABASE, DatabaseError, EmbeddedPostgres
from letta_tool_emulation.runtime.schema import _VERSIONS, VERSIONS_TABLE, _upgrade, create_extension, sync_url


class Kind(enum.Enum):
    NATIVE = "native"
    TPUF = "tpuf"
    PINECONE = "pinecone"


def models(version: int, without: str = "") -> sa.MetaData:
    """What "letta" declares in each version: 2 adds a table, a column, an index, an enum value,
    and drops a NOT NULL."""
    md = sa.MetaData()
    kinds = list(Kind)[: 2 if version == 1 else 3]
    columns = [
        sa.Column("id", sa.String, primary_key=True),
        sa.Column("name", sa.String, nullable=version > 1),
        sa.Column("kind", sa.Enum(*[k.name for k in kinds], name="sourcekind"), nullable=True),
    ]
    if version > 1 and without != "note":
        columns.append(sa.Column("note", sa.Text, nullable=True))
    index = [sa.Index("ix_sources_note", "note")] if version > 1 and without != "note" else []
    sa.Table("sources", md, *columns, *index)
    if version > 1:
        sa.Table("tags", md, sa.Column("source_id", sa.String, sa.ForeignKey("sources.id"), primary_key=True))
    return md


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedPostgres]:
    with EmbeddedPostgres(tmp_path_factory.mktemp("schema") / "pgdata", log=lambda _: None) as database:
        yield database


@pytest.fixture
def engine(db: EmbeddedPostgres) -> Iterator[sa.Engine]:
    with psycopg2.connect(db.uri) as conn, conn.cursor() as cur:
        cur.execute(f"DROP TABLE IF EXISTS tags, sources, other_program, {VERSIONS_TABLE}")
        cur.execute("DROP TYPE IF EXISTS sourcekind")
    eng = sa.create_engine(sync_url(db.uri))
    yield eng
    eng.dispose()


def start(engine: sa.Engine, uri: str, md: sa.MetaData, letta: str, backups: Path) -> list[str]:
    """What the server command does at start; what it said."""
    said: list[str] = []
    with engine.begin() as conn:
        _VERSIONS.create(conn, checkfirst=True)
        _upgrade(conn, md, uri, letta, backups, said.append)
    return said


def columns(engine: sa.Engine, table: str) -> dict[str, bool]:
    return {c["name"]: c["nullable"] for c in sa.inspect(engine).get_columns(table)}


def test_an_older_schema_gains_what_the_newer_letta_has_and_keeps_its_data(
    engine: sa.Engine, db: EmbeddedPostgres, tmp_path: Path
) -> None:
    assert start(engine, db.uri, models(1), "0.16.1", tmp_path) == []
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO sources (id, name, kind) VALUES ('s1', 'Ana', 'TPUF')"))
        conn.execute(sa.text("CREATE TABLE other_program (x int)"))  # not letta's: left alone
    said = start(engine, db.uri, models(2), "0.16.8", tmp_path)
    assert said[0].startswith("Upgrading Letta's schema from letta 0.16.1 to letta 0.16.8: adding ")
    for part in ("1 columns", "1 enum values", "1 indexes", "1 tables", "1 NOT NULL changes"):
        assert part in said[0], said[0]
    backups = list(tmp_path.glob("letta-*-before-letta-0.16.8.dump"))
    assert len(backups) == 1 and backups[0].stat().st_size > 0 and backups[0].stat().st_mode & 0o777 == 0o600
    assert columns(engine, "sources") == {"id": False, "name": True, "kind": True, "note": True}
    inspector = sa.inspect(engine)
    assert "ix_sources_note" in {i["name"] for i in inspector.get_indexes("sources")}
    assert {"tags", "other_program"} <= set(inspector.get_table_names())
    with engine.begin() as conn:
        assert conn.execute(sa.text("SELECT id, name, kind FROM sources")).all() == [("s1", "Ana", "TPUF")]
        conn.execute(sa.text("INSERT INTO sources (id, kind) VALUES ('s2', 'PINECONE')"))  # the new value
        written = conn.execute(sa.select(_VERSIONS.c.letta_version).order_by(_VERSIONS.c.id)).scalars().all()
    assert written == ["0.16.1", "0.16.8"]
    assert start(engine, db.uri, models(2), "0.16.8", tmp_path) == []  # nothing left to do, no backup
    assert len(list(tmp_path.glob("*.dump"))) == 1


def test_a_newer_letta_s_database_is_refused(engine: sa.Engine, db: EmbeddedPostgres, tmp_path: Path) -> None:
    start(engine, db.uri, models(2), "0.16.8", tmp_path)
    with pytest.raises(DatabaseError, match=r"last written by letta 0\.16\.8, which is newer than the installed"):
        start(engine, db.uri, models(1), "0.16.1", tmp_path)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ("dropped", "column sources.note is in the database but not in letta's models"),
        ("retyped", "column sources.name is VARCHAR in the database and INTEGER in letta's models"),
        ("tightened", "column sources.note must not be NULL in letta's models, but it is NULL in 1 row(s)"),
        ("required", "column sources.extra is required and has no default, but the table has rows"),
    ],
)
def test_a_change_that_would_lose_data_stops_and_changes_nothing(
    engine: sa.Engine, db: EmbeddedPostgres, tmp_path: Path, change: str, why: str
) -> None:
    start(engine, db.uri, models(2), "0.16.4", tmp_path)
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO sources (id, name) VALUES ('s1', 'Ana')"))
    md = models(2, without="note" if change == "dropped" else "")
    table = md.tables["sources"]
    if change == "retyped":
        table.c.name.type = sa.Integer()
    elif change == "tightened":
        table.c.note.nullable = False
    else:
        table.append_column(sa.Column("extra", sa.String, nullable=False))
    before = columns(engine, "sources")
    with pytest.raises(DatabaseError) as refused:
        start(engine, db.uri, md, "0.16.8", tmp_path)
    assert why in str(refused.value) and "Nothing was changed" in str(refused.value)
    assert "pip install 'letta==0.16.4'" in str(refused.value)
    assert columns(engine, "sources") == before
    assert list(tmp_path.glob("*.dump")) == []  # refused before the backup


def test_servers_starting_together_on_a_new_database_all_get_pgvector(db: EmbeddedPostgres) -> None:
    """Two servers started at once on one new database both create the extension; without the
    schema lock the later one failed on PostgreSQL's catalogue index and stopped while starting."""
    rounds, sessions = 6, 4
    failures: list[BaseException] = []
    admin = psycopg2.connect(db.uri.replace(f"/{DATABASE}?", "/postgres?"))
    admin.autocommit = True  # CREATE DATABASE cannot run inside a transaction
    try:
        for n in range(rounds):
            name = f"race_{n}"
            with admin.cursor() as cur:
                cur.execute(f"DROP DATABASE IF EXISTS {name}")
                cur.execute(f"CREATE DATABASE {name}")
            engines = [
                sa.create_engine(sync_url(db.uri.replace(f"/{DATABASE}?", f"/{name}?"))) for _ in range(sessions)
            ]
            for eng in engines:  # connected beforehand, so the creates meet at the barrier
                eng.connect().close()
            barrier = threading.Barrier(sessions)

            def create(eng: sa.Engine, barrier: threading.Barrier = barrier) -> None:
                barrier.wait()
                try:
                    create_extension(eng)
                except BaseException as exc:  # noqa: BLE001 - every failure is the finding
                    failures.append(exc)

            threads = [threading.Thread(target=create, args=(eng,)) for eng in engines]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            with engines[0].connect() as conn:
                assert conn.execute(sa.text("SELECT count(*) FROM pg_extension WHERE extname = 'vector'")).scalar() == 1
            for eng in engines:
                eng.dispose()
            with admin.cursor() as cur:
                cur.execute(f"DROP DATABASE {name}")
    finally:
        admin.close()
    assert failures == []
