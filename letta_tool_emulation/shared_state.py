"""What every server on one database shares: the retry budget of each key and host, the
endpoints that refused the reply schema, and what is known about models' capabilities.

Letta keeps everything in PostgreSQL (``LETTA_PG_URI``, the embedded database included), and
servers that share a database are one deployment, on one machine or several. So the plugin
keeps these in tables of its own in that database (``lte_*``):

- ``lte_budget``: one row per request in flight or failed, per hash of key and host (never the
  key). Taking a slot and giving one back commit without waiting for the disk; recording a
  failure waits, so that a crash of PostgreSQL loses no failure (an UNLOGGED table would lose
  them all, and with them what keeps the key clear of the provider's block); a lost entry of
  a request in flight only counts for longer. Taking a slot is one call of ``lte_budget_acquire``, which serialises per key with an
  advisory transaction lock and reads the time from the database's clock, so that servers
  whose clocks differ still share one window. Giving one back does not wait for the database;
  it is announced with NOTIFY, and a request waiting for a slot sleeps until then (or until
  the oldest entry expires), never polling.
- ``lte_refused_shapes`` and ``lte_capabilities`` (which also holds, per endpoint and model,
  whether its chat template opens reasoning, as the latest worker to find out saw it): written
  when a worker learns something
  (through the observers of ``endpoints.KNOWN`` and ``venice.CAPABILITIES``), read by every
  worker when it starts and again whenever a NOTIFY says they changed. Requests still read only
  the in-process caches: nothing on a request's path waits for these.

The database is reached with psycopg2 from a few threads of this module's own (at most
:data:`POOL_SIZE` connections at once per process, :data:`POOL_IDLE` of them kept open, plus one
that LISTENs; all named ``letta-tool-emulation`` in ``pg_stat_activity``), apart from Letta's
connections: Letta's event loop never waits on them except for the budget call a
model request needs anyway, and that is bounded by :data:`CALL_TIMEOUT`.

When the database cannot be reached the first time it is needed, :mod:`retry` keeps using its
file-based budget. Once it has been reached, losing it fails safe: a request that cannot take a
slot is not sent (the budget could not be kept otherwise), a failure that cannot be recorded is
recorded when the database is back, and nothing waits longer than the timeouts here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import logging
import os
import select
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from . import endpoints, venice
from .step import env_switch

log = logging.getLogger("letta_tool_emulation")
T = TypeVar("T")
# A slot (None when none was free), failures in the window, seconds until failures alone no longer
# fill the budget, seconds until the oldest entry expires.
Taken = tuple[str | None, int, float | None, float | None]

URI_ENV = "LETTA_PG_URI"
SWITCH_ENV = "LETTA_TOOL_EMULATION_SHARED_STATE"  # "off": per machine (file budget, per-worker caches)
BUDGET_CHANNEL = "lte_budget"
STATE_CHANNEL = "lte_state"
POOL_SIZE = 4  # threads, so connections in use at once
POOL_IDLE = 2  # connections kept open between calls
CONNECT_TIMEOUT = 3  # seconds
STATEMENT_TIMEOUT_MS = 5000
CALL_TIMEOUT = 8.0  # seconds a caller waits for one call, whatever the network does
RETRY_UNREACHABLE = 30.0  # seconds before a database never reached is tried again
LISTEN_TICK = 5.0  # seconds between checks of the listening connection while nothing arrives
# The functions' names carry a version, so that servers of different plugin versions on one
# database each find the function they were written for.
ACQUIRE = "lte_budget_take_v1"
RELEASE = "lte_budget_give_v2"
# pg_advisory_xact_lock key while creating the tables (shared with the schema upgrade).
SCHEMA_LOCK = 0x4C54455343484D41

DDL = f"""
CREATE TABLE IF NOT EXISTS lte_budget (
    key_hash text NOT NULL,
    slot text NOT NULL,
    failed boolean NOT NULL DEFAULT false,
    at timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (key_hash, slot)
);
-- Earlier versions kept refusals by endpoint and model alone; they are only a cache of what
-- one request finds out again, so the old table goes rather than being carried over.
DROP TABLE IF EXISTS lte_schema_refusals;
CREATE TABLE IF NOT EXISTS lte_refused_shapes (
    endpoint text NOT NULL,
    model text NOT NULL,
    shape text NOT NULL,
    refused_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (endpoint, model, shape)
);
CREATE TABLE IF NOT EXISTS lte_capabilities (
    endpoint text NOT NULL,
    kind text NOT NULL,
    data jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (endpoint, kind)
);
CREATE OR REPLACE FUNCTION {ACQUIRE}(k text, lim integer, win double precision, wanted integer)
RETURNS TABLE (slots text[], failures integer, reset_in double precision, wake_in double precision)
LANGUAGE plpgsql AS $$
DECLARE
    t timestamptz := clock_timestamp();
    span interval := make_interval(secs => win);
    f integer;
    r integer;
    oldest_failure timestamptz;
    oldest timestamptz;
    given text[];
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(k, 0));
    DELETE FROM lte_budget b WHERE b.key_hash = k AND b.at < t - span;
    SELECT count(*) FILTER (WHERE b.failed), count(*) FILTER (WHERE NOT b.failed),
           min(b.at) FILTER (WHERE b.failed), min(b.at)
      INTO f, r, oldest_failure, oldest
      FROM lte_budget b WHERE b.key_hash = k;
    IF f >= lim THEN
        RETURN QUERY SELECT ARRAY[]::text[], f, extract(epoch FROM oldest_failure + span - t)::float8, NULL::float8;
        RETURN;
    END IF;
    SELECT coalesce(array_agg(md5(random()::text || clock_timestamp()::text || pg_backend_pid()::text || i)), ARRAY[]::text[])
      INTO given FROM generate_series(1, least(wanted, lim - f - r)) AS i;
    INSERT INTO lte_budget (key_hash, slot, failed, at) SELECT k, s, false, t FROM unnest(given) AS s;
    RETURN QUERY SELECT given, f,
        NULL::float8,
        CASE WHEN cardinality(given) < wanted THEN extract(epoch FROM coalesce(oldest, t) + span - t)::float8 END;
END $$;
CREATE OR REPLACE FUNCTION {RELEASE}(ks text[], ss text[], fs boolean[], agos double precision[])
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF true = ANY(fs) THEN
        -- A failure is what keeps the key clear of the provider's block: on disk before the
        -- call returns, even if PostgreSQL crashes right after (the rest may commit lazily).
        PERFORM set_config('synchronous_commit', 'on', true);
    END IF;
    DELETE FROM lte_budget b USING unnest(ks, ss, fs) AS g(k, s, f)
     WHERE b.key_hash = g.k AND b.slot = g.s AND NOT g.f;
    INSERT INTO lte_budget (key_hash, slot, failed, at)
    SELECT g.k, g.s, true, clock_timestamp() - make_interval(secs => g.ago)
      FROM unnest(ks, ss, fs, agos) AS g(k, s, f, ago) WHERE g.f
    ON CONFLICT (key_hash, slot) DO UPDATE SET failed = true, at = EXCLUDED.at;
    -- Either way requests waiting for a slot have news: a free one, or failures that fill the budget.
    PERFORM pg_notify('{BUDGET_CHANNEL}', d.k) FROM (SELECT DISTINCT unnest(ks) AS k) d;
END $$;
"""
# lte_capabilities kind of a model's "its chat template opens reasoning" (true, or false once a
# reply showed otherwise); the model id follows.
_REASONING = "reasoning\n"
_OBJECTS = ("lte_budget", "lte_refused_shapes", "lte_capabilities")


def create_tables(conn: Any) -> None:
    """The plugin's tables and functions, on a SQLAlchemy connection inside a transaction (the
    schema upgrade's), unless they are there already."""
    if not _missing(lambda sql: conn.exec_driver_sql(sql).first()):
        return
    conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")
    conn.exec_driver_sql(DDL)


def _missing(first_row: Callable[[str], Any]) -> bool:
    checks = ", ".join(
        [*(f"to_regclass('{t}')" for t in _OBJECTS), f"to_regproc('{ACQUIRE}')", f"to_regproc('{RELEASE}')"]
    )
    return any(v is None for v in first_row(f"SELECT {checks}"))


class Unavailable(Exception):
    """The shared database could not be reached, or did not answer in time."""


class NeverReached(Unavailable):
    """The shared database has not been reached in this process yet (and is not now)."""


def configured() -> bool:
    return bool(os.environ.get(URI_ENV)) and env_switch(SWITCH_ENV)


class Store:
    """One process's connections to the shared state; see the module docstring."""

    def __init__(self, uri: str) -> None:
        self.dsn = libpq_url(uri)
        self.pid = os.getpid()
        self._lock = threading.Lock()
        self._idle: list[Any] = []
        self._executor = ThreadPoolExecutor(POOL_SIZE, thread_name_prefix="lte-shared")
        self._reached = False
        self._unreachable_since: float | None = None
        self._waiters: dict[str, list[Callable[[], None]]] = {}
        self._listening = threading.Event()
        self._stopping = threading.Event()
        self._listener: threading.Thread | None = None
        self._shared: dict[tuple[str, str], str] = {}  # what the database holds, as last read or written
        self._asks: dict[str, list[Future[Taken]]] = {}  # slots asked for, by key
        self._taking: set[str] = set()  # keys with a call under way
        self._gives: list[tuple[str, str, bool, float]] = []  # key, slot, failed, monotonic time
        self._giving = False
        self._unsent: list[tuple[str, str, bool, float]] = []  # failures the database did not get yet
        self._warned = False

    # -- connections --------------------------------------------------------------------------

    def _connect(self) -> Any:
        import psycopg2

        conn = psycopg2.connect(
            self.dsn,
            connect_timeout=CONNECT_TIMEOUT,
            application_name="letta-tool-emulation",
            options=(
                f"-c statement_timeout={STATEMENT_TIMEOUT_MS} -c lock_timeout={STATEMENT_TIMEOUT_MS} "
                "-c synchronous_commit=off"
            ),
            keepalives=1,
            keepalives_idle=5,
            keepalives_interval=2,
            keepalives_count=2,
            tcp_user_timeout=STATEMENT_TIMEOUT_MS,
        )
        conn.autocommit = True
        return conn

    def _take(self, fresh: bool = False) -> Any:
        with self._lock:
            if fresh:  # the kept ones failed: the server restarted, or the network broke
                stale, self._idle = self._idle, []
                for conn in stale:
                    with contextlib.suppress(Exception):
                        conn.close()
            elif self._idle:
                return self._idle.pop()
            recently = (
                self._unreachable_since is not None and time.monotonic() - self._unreachable_since < RETRY_UNREACHABLE
            )
            if not self._reached and recently:
                raise NeverReached("the database was unreachable moments ago")
        try:
            conn = self._connect()
            if not self._reached:
                self._prepare(conn)
        except Exception as exc:
            if not self._reached:
                self._unreachable_since = time.monotonic()
                raise NeverReached(_why(exc)) from exc
            raise Unavailable(_why(exc)) from exc
        if not self._reached:
            self._reached = True
            self.start_listening()
        return conn

    def _prepare(self, conn: Any) -> None:
        with conn.cursor() as cur:

            def first(sql: str) -> Any:
                cur.execute(sql)
                return cur.fetchone()

            if _missing(first):
                conn.autocommit = False
                try:
                    # Durable before anything relies on it (these sessions commit asynchronously).
                    cur.execute("SET LOCAL synchronous_commit = on")
                    cur.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                    cur.execute(DDL)
                    conn.commit()
                finally:
                    conn.autocommit = True

    def _give(self, conn: Any) -> None:
        with self._lock:
            if len(self._idle) < POOL_IDLE and not conn.closed:
                self._idle.append(conn)
                return
        conn.close()

    def run(self, fn: Callable[[Any], T]) -> T:
        """``fn(cursor)`` on a pooled connection, in this thread. Unavailable (or NeverReached)
        when the database cannot be reached; the connection is dropped after any error."""
        import psycopg2
        import psycopg2.errors

        for fresh in (False, True):
            with self._lock:
                kept = bool(self._idle) and not fresh
            conn = self._take(fresh)
            try:
                with conn.cursor() as cur:
                    try:
                        result = fn(cur)
                    except (psycopg2.errors.UndefinedTable, psycopg2.errors.UndefinedFunction):
                        # Dropped, or lost with a restored backup: made again, and tried once more.
                        self._prepare(conn)
                        result = fn(cur)
            except (psycopg2.OperationalError, psycopg2.InterfaceError) as exc:
                with contextlib.suppress(Exception):
                    conn.close()
                if kept:  # a connection kept from before may have died meanwhile: once more, anew
                    continue
                raise Unavailable(_why(exc)) from exc
            except psycopg2.Error as exc:
                with contextlib.suppress(Exception):
                    conn.close()
                raise Unavailable(_why(exc)) from exc
            except BaseException:
                with contextlib.suppress(Exception):
                    conn.close()
                raise
            self._give(conn)
            return result
        raise AssertionError("unreachable")

    def submit(self, fn: Callable[[Any], Any]) -> Future[Any]:
        """:meth:`run` in the background; the caller does not wait."""
        return self._executor.submit(self.run, fn)

    @property
    def reached(self) -> bool:
        return self._reached

    # -- the budget ----------------------------------------------------------------------------
    #
    # Requests for slots of one key that arrive while one call is under way wait for it and then
    # go together, in one call; slots given back go together too. Under load that keeps it near
    # one call per burst instead of two per request, each in the queue behind the others.

    def take(self, key: str, limit: int, window: float) -> Future[Taken]:
        """A slot of ``key``, from a call on this module's threads: (slot or None, failures,
        seconds until failures alone no longer fill the budget, seconds until the oldest entry
        expires)."""
        future: Future[Taken] = Future()
        with self._lock:
            self._asks.setdefault(key, []).append(future)
            start = key not in self._taking
            self._taking.add(key)
        if start:
            self._executor.submit(self._take_for, key, limit, window)
        return future

    def _take_for(self, key: str, limit: int, window: float) -> None:
        while True:
            with self._lock:
                asks = [f for f in self._asks.pop(key, []) if f.set_running_or_notify_cancel()]
                if not asks and not self._asks.get(key):
                    self._taking.discard(key)
                    return
            if not asks:
                continue
            try:
                wanted = len(asks)
                slots, failures, reset_in, wake_in = self.run(
                    functools.partial(self._take_call, key=key, limit=limit, window=window, wanted=wanted)
                )
            except BaseException as exc:  # noqa: BLE001 - every caller hears of it
                for f in asks:
                    f.set_exception(exc)
                continue
            for i, f in enumerate(asks):
                f.set_result((slots[i] if i < len(slots) else None, failures, reset_in, wake_in))

    def _take_call(self, cur: Any, key: str, limit: int, window: float, wanted: int) -> tuple[list[str], int, Any, Any]:
        self._give_unsent(cur)
        cur.execute(f"SELECT * FROM {ACQUIRE}(%s, %s::integer, %s::float8, %s::integer)", (key, limit, window, wanted))
        slots, failures, reset_in, wake_in = cur.fetchone()
        return list(slots), int(failures), reset_in, wake_in

    def release(self, key: str, slot: str, failed: bool) -> None:
        """Give a slot back, without waiting; a failure that cannot be recorded now is recorded
        with its time when the database answers again."""
        with self._lock:
            self._gives.append((key, slot, failed, time.monotonic()))
            start = not self._giving
            self._giving = True
        if start:
            self._executor.submit(self._give_all)

    def _give_all(self) -> None:
        while True:
            with self._lock:
                gives, self._gives = self._gives, []
                if not gives:
                    self._giving = False
                    return
            try:
                self.run(functools.partial(self._give_call, gives=gives))
            except Exception:  # noqa: BLE001 - kept for later, see release()
                # A slot given back unrecorded stays counted until it expires: never too few.
                with self._lock:
                    self._unsent.extend(g for g in gives if g[2])

    def _give_call(self, cur: Any, gives: list[tuple[str, str, bool, float]]) -> None:
        now = time.monotonic()
        cur.execute(
            f"SELECT {RELEASE}(%s::text[], %s::text[], %s::boolean[], %s::float8[])",
            ([g[0] for g in gives], [g[1] for g in gives], [g[2] for g in gives], [now - g[3] for g in gives]),
        )

    def _give_unsent(self, cur: Any) -> None:
        """Failures recorded late, before the next slot is taken. With the database unreachable
        the slot is not taken either; any other error leaves them for the next time and lets
        the budget go on."""
        import psycopg2

        with self._lock:
            unsent, self._unsent = self._unsent, []
        if not unsent:
            return
        try:
            self._give_call(cur, unsent)
        except psycopg2.Error as exc:
            with self._lock:
                self._unsent[:0] = unsent
            if isinstance(exc, psycopg2.OperationalError | psycopg2.InterfaceError):
                raise
            if not self._warned:
                self._warned = True
                log.warning("letta_tool_emulation: could not record %d failed requests (%s)", len(unsent), _why(exc))

    def waiter(self, key: str, wake: Callable[[], None]) -> Callable[[], None]:
        """Call ``wake`` (from another thread) when a slot of ``key`` is given back; returns
        what removes it again."""
        with self._lock:
            self._waiters.setdefault(key, []).append(wake)

        def remove() -> None:
            with self._lock:
                waiting = self._waiters.get(key, [])
                if wake in waiting:
                    waiting.remove(wake)

        return remove

    @property
    def listening(self) -> bool:
        """Whether freed slots are announced to this process (else waiters look again now and then)."""
        return self._listening.is_set()

    def _wake(self, key: str | None) -> None:
        with self._lock:
            woken = [w for k, ws in self._waiters.items() if key is None or k == key for w in ws]
        for wake in woken:
            with contextlib.suppress(Exception):
                wake()

    # -- listening, and what the workers learn -------------------------------------------------

    def start_listening(self) -> None:
        with self._lock:
            if self._listener is not None:
                return
            self._listener = threading.Thread(target=self._listen, name="lte-shared-listen", daemon=True)
        self._listener.start()

    def _listen(self) -> None:
        pause = 1.0
        while not self._stopping.is_set():
            conn = None
            try:
                conn = self._connect()
                with conn.cursor() as cur:
                    cur.execute(f"LISTEN {BUDGET_CHANNEL}; LISTEN {STATE_CHANNEL}")
                    self._load(cur)
                self._listening.set()
                pause = 1.0
                self._wake(None)  # whatever was freed while nobody listened
                while not self._stopping.is_set():
                    # Any statement can bring notifications with it: handle them before sleeping.
                    changed = False
                    while conn.notifies:
                        note = conn.notifies.pop(0)
                        if note.channel == BUDGET_CHANNEL:
                            self._wake(note.payload)
                        else:
                            changed = True
                    if changed:
                        with conn.cursor() as cur:
                            self._load(cur)
                        continue
                    if select.select([conn], [], [], LISTEN_TICK) == ([], [], []):
                        with conn.cursor() as cur:
                            cur.execute("SELECT 1")  # a dead connection shows here, not in select
                    else:
                        conn.poll()
            except Exception as exc:  # noqa: BLE001 - the listener outlives any database trouble
                if not self._stopping.is_set():
                    log.debug(
                        "letta_tool_emulation: shared state: listening failed (%s); again in %.0f s", _why(exc), pause
                    )
            finally:
                self._listening.clear()
                if conn is not None:
                    with contextlib.suppress(Exception):
                        conn.close()
            self._wake(None)  # waiters fall back to looking now and then
            self._stopping.wait(pause)
            pause = min(pause * 2, 30.0)

    def _load(self, cur: Any) -> None:
        """Everything shared so far, into this process's caches."""
        cur.execute("SELECT endpoint, model, shape FROM lte_refused_shapes")
        refusals = cur.fetchall()
        cur.execute("SELECT endpoint, kind, data FROM lte_capabilities")
        capabilities = cur.fetchall()
        for endpoint, model, shape in refusals:
            self._shared[("refusal", f"{endpoint}\n{model}\n{shape}")] = ""
            endpoints.KNOWN.refuse_schema(endpoint, model, shape)
        for endpoint, kind, data in capabilities:
            text = json.dumps(data, sort_keys=True)
            if self._shared.get((kind, endpoint)) == text:
                continue
            self._shared[(kind, endpoint)] = text
            with contextlib.suppress(TypeError, ValueError, KeyError):
                if kind == "venice":
                    venice.CAPABILITIES.store(endpoint, [_model_info(m) for m in data])
                elif kind == "server":
                    endpoints.KNOWN.store(_server_info(data))
                elif kind.startswith(_REASONING):
                    model = kind[len(_REASONING) :]
                    if data is True:
                        endpoints.KNOWN.note_template_reasoning(endpoint, model)
                    else:
                        endpoints.KNOWN.forget_template_reasoning(endpoint, model)

    def publish_refusal(self, url: str | None, model: str, shape: str) -> None:
        endpoint = _endpoint(url)
        if endpoint is None or ("refusal", f"{endpoint}\n{model}\n{shape}") in self._shared:
            return
        self._shared[("refusal", f"{endpoint}\n{model}\n{shape}")] = ""

        def write(cur: Any) -> None:
            cur.execute(
                "INSERT INTO lte_refused_shapes (endpoint, model, shape) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                (endpoint, model, shape),
            )
            cur.execute("SELECT pg_notify(%s, 'refusals')", (STATE_CHANNEL,))

        self._write(write)

    def publish_capabilities(self, url: str, models: Mapping[str, venice.ModelInfo] | None) -> None:
        if models is not None:
            self._publish("venice", url, [dataclasses.asdict(m) for m in models.values()])

    def publish_server(self, info: endpoints.ServerInfo) -> None:
        if info.kind is not None:
            self._publish("server", info.base_url, _server_dict(info))

    def publish_reasoning(self, url: str | None, model: str, opens: bool) -> None:
        # One row per model, overwritten: what the latest worker saw wins, a forget included.
        if url is not None:
            self._publish(_REASONING + model, url, opens)

    def _publish(self, kind: str, url: str, data: Any) -> None:
        endpoint = _endpoint(url)
        text = json.dumps(data, sort_keys=True)
        if endpoint is None or self._shared.get((kind, endpoint)) == text:
            return
        self._shared[(kind, endpoint)] = text

        def write(cur: Any) -> None:
            cur.execute(
                "INSERT INTO lte_capabilities (endpoint, kind, data) VALUES (%s, %s, %s::jsonb) "
                "ON CONFLICT (endpoint, kind) DO UPDATE SET data = EXCLUDED.data, updated_at = now()",
                (endpoint, kind, text),
            )
            cur.execute("SELECT pg_notify(%s, 'capabilities')", (STATE_CHANNEL,))

        self._write(write)

    def _write(self, write: Callable[[Any], None]) -> None:
        def done(future: Future[Any]) -> None:
            exc = None if future.cancelled() else future.exception()
            if exc is not None and not self._warned:
                self._warned = True
                log.warning("letta_tool_emulation: could not share what this worker learned (%s)", _why(exc))

        self.submit(write).add_done_callback(done)

    def close(self) -> None:
        self._stopping.set()
        self._executor.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            with contextlib.suppress(Exception):
                conn.close()


def libpq_url(uri: str) -> str:
    """LETTA_PG_URI as libpq reads it: without a SQLAlchemy driver name (``+asyncpg``)."""
    scheme, sep, rest = uri.partition("://")
    return f"postgresql://{rest}" if sep and scheme.split("+")[0] in ("postgresql", "postgres") else uri


def _why(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _endpoint(url: str | None) -> str | None:
    """How an endpoint is named in the tables: its URL without a trailing slash; one that
    carries credentials is not shared at all."""
    from urllib.parse import urlsplit

    url = venice.normalize_url(url)
    parts = urlsplit(url)
    if not url or parts.username or parts.password:
        return None
    return url


def _model_info(data: Mapping[str, Any]) -> venice.ModelInfo:
    names = {f.name for f in dataclasses.fields(venice.ModelInfo)}
    return venice.ModelInfo(**{k: v for k, v in data.items() if k in names})


def _server_dict(info: endpoints.ServerInfo) -> dict[str, Any]:
    return {
        "kind": info.kind,
        "base_url": info.base_url,
        "models": {k: dataclasses.asdict(v) for k, v in info.models.items()},
        "notes": list(info.notes),
    }


def _server_info(data: Mapping[str, Any]) -> endpoints.ServerInfo:
    names = {f.name for f in dataclasses.fields(endpoints.ModelLimits)}
    models = {}
    for key, raw in (data.get("models") or {}).items():
        limits = {k: v for k, v in raw.items() if k in names}
        limits["capabilities"] = tuple(limits.get("capabilities") or ())
        models[key] = endpoints.ModelLimits(**limits)
    return endpoints.ServerInfo(data.get("kind"), data["base_url"], models, tuple(data.get("notes") or ()))


# -- the process's store ---------------------------------------------------------------------------

_STORE: Store | None = None
_STORE_LOCK = threading.Lock()


def store() -> Store | None:
    """This process's store, started on first use; None when there is no shared database."""
    global _STORE
    if not configured():
        return None
    with _STORE_LOCK:
        if _STORE is None or _STORE.pid != os.getpid():
            _STORE = Store(os.environ[URI_ENV])
            _observe(_STORE)
        return _STORE


def start() -> Store | None:
    """Connect now, in the background (a server worker starting): what other workers learned is
    then known before the first request."""
    current = store()
    if current is not None:
        current.submit(lambda cur: None)
    return current


def _observe(current: Store) -> None:
    """What this worker learns from now on goes to the database too."""
    venice.CAPABILITIES.observers.append(current.publish_capabilities)
    endpoints.KNOWN.observers.append(_KnownObserver(current))


class _KnownObserver:
    def __init__(self, current: Store) -> None:
        self.store = current

    def stored(self, info: endpoints.ServerInfo) -> None:
        self.store.publish_server(info)

    def refused(self, url: str | None, model: str, shape: str) -> None:
        self.store.publish_refusal(url, model, shape)

    def reasoning(self, url: str | None, model: str, opens: bool) -> None:
        self.store.publish_reasoning(url, model, opens)


def reset_for_tests() -> None:
    global _STORE
    with _STORE_LOCK:
        if _STORE is not None:
            _STORE.close()
            with contextlib.suppress(ValueError):
                venice.CAPABILITIES.observers.remove(_STORE.publish_capabilities)
            endpoints.KNOWN.observers[:] = [
                o for o in endpoints.KNOWN.observers if getattr(o, "store", None) is not _STORE
            ]
        _STORE = None


__all__ = [
    "NeverReached",
    "Store",
    "Unavailable",
    "configured",
    "create_tables",
    "start",
    "store",
]
