"""Creating or upgrading Letta's schema on a PostgreSQL database, idempotently.

The letta wheel ships no migrations. Its ORM metadata creates every table; the only thing it
leaves to a migration is the sequence behind ``messages.sequence_id``. ``create_all`` adds
missing tables and leaves existing ones alone, so this is safe on every start.

LETTA_PG_URI must be set before letta is first imported in the process: letta picks its
column types (pgvector or not) at import time.
"""

from __future__ import annotations

import os
import sys

from .database import DatabaseError

_SEQUENCE = [
    "CREATE SEQUENCE IF NOT EXISTS message_seq_id START 1",
    "ALTER TABLE messages ALTER COLUMN sequence_id SET DEFAULT nextval('message_seq_id'::regclass)",
]


def sync_url(uri: str) -> str:
    for prefix in ("postgresql+asyncpg://", "postgresql+pg8000://", "postgres://", "postgresql://"):
        if uri.startswith(prefix):
            return "postgresql+psycopg2://" + uri[len(prefix) :]
    raise DatabaseError(f"LETTA_PG_URI must be a postgresql:// URI (got one starting {uri.split(':', 1)[0]!r})")


def ensure_schema(uri: str | None = None) -> None:
    uri = uri or os.environ.get("LETTA_PG_URI")
    if not uri:
        raise DatabaseError("LETTA_PG_URI is not set")
    if "letta.orm" in sys.modules and os.environ.get("LETTA_PG_URI") != uri:
        raise DatabaseError("letta was imported before LETTA_PG_URI was set; create the schema in a fresh process")
    os.environ["LETTA_PG_URI"] = uri
    import sqlalchemy as sa
    from sqlalchemy.exc import OperationalError, ProgrammingError

    engine = sa.create_engine(sync_url(uri))
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("CREATE EXTENSION IF NOT EXISTS vector"))
    except OperationalError as exc:
        raise DatabaseError(f"cannot reach the database at LETTA_PG_URI: {_first_line(exc)}") from exc
    except ProgrammingError as exc:
        raise DatabaseError(
            f"the database has no pgvector extension and it could not be created ({_first_line(exc)}). "
            "Install pgvector on that server, or unset LETTA_PG_URI to use the embedded database."
        ) from exc
    from letta.orm import Base

    Base.metadata.create_all(engine)
    with engine.begin() as conn:
        for statement in _SEQUENCE:
            conn.execute(sa.text(statement))
    engine.dispose()


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", exc)).strip()
    return text.splitlines()[0] if text else type(exc).__name__
