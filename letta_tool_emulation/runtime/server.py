"""``letta-tool-emulation server``: a Letta server with the plugin, on an embedded PostgreSQL.

The launcher owns the database and runs Letta as a child process. It stops both on Ctrl-C,
SIGTERM or SIGHUP (uvicorn re-raises SIGTERM after its own shutdown, so a single process
could never stop its database cleanly); Letta finishes the requests in progress first. Both
children also get a parent-death signal, so even ``kill -9`` of the launcher leaves no server
or database behind. If PostgreSQL stops on its own, the launcher starts it again (its crash
recovery keeps every committed change); after repeated failures it stops Letta and exits.

Everything runs with umask 077: what the server and Letta create is private to their user.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from .. import venice
from .app import READY_DIR_ENV
from .database import DatabaseError, EmbeddedPostgres, default_data_dir, default_home, parent_death_signal
from .embedded_redis import EXTERNAL_ENV, SOCKET_ENV, EmbeddedRedis, RedisError
from .letta_process import EXIT_SETUP_FAILED
from .private_dirs import UnsafePath, open_dir, tighten
from .processes import stop_process

READY_TIMEOUT = float(os.environ.get("LETTA_TOOL_EMULATION_READY_TIMEOUT", "240"))
STOP_TIMEOUT = 30.0
EXIT_DATABASE_LOST = 4
# PostgreSQL is restarted after a crash, but not endlessly: this many within the window.
DB_RESTARTS, DB_RESTART_WINDOW = 3, 300.0


class ServerError(RuntimeError):
    """Something the user can act on; the message says what."""


class WorkerDied(ServerError):
    """A uvicorn worker exited before it finished starting."""


# Starts of Letta made again after a worker died while starting (uvicorn 0.29, which letta
# pins, does not replace a worker that dies, so the server would run one short for good).
WORKER_RESTARTS = 2


def check_port(host: str, port: int) -> None:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ServerError(
                    f"port {port} on {host} is already in use (another Letta server?). Stop it, or pass --port."
                ) from exc
            raise ServerError(f"cannot listen on {host}:{port}: {exc.strerror}") from exc


def get_json(url: str, timeout: float = 5.0, headers: dict[str, str] | None = None) -> Any:
    req = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read().decode())


def wait_ready(
    base: str,
    child: subprocess.Popen[bytes],
    log: Callable[[str], None],
    timeout: float = READY_TIMEOUT,
    workers_ready: Callable[[], bool] = lambda: True,
) -> float:
    start = time.monotonic()
    next_note = start + 10
    while True:
        if child.poll() is not None:
            raise ServerError(
                f"the Letta server stopped while starting (exit code {child.returncode}); see its output above"
            )
        try:
            if workers_ready() and get_json(f"{base}/v1/health/", timeout=2).get("status") == "ok":
                return time.monotonic() - start
        except (urllib.error.URLError, OSError, ValueError):
            pass
        now = time.monotonic()
        if now - start > timeout:
            raise ServerError(f"the Letta server did not answer within {timeout:.0f} s")
        if now >= next_note:
            log(f"  ... still starting ({now - start:.0f} s; importing Letta takes a while)")
            next_note = now + 10
        time.sleep(0.5)


def describe(base: str, log: Callable[[str], None]) -> None:
    """What the server found: providers, models (emulated ones marked), what is missing."""
    try:
        models = get_json(f"{base}/v1/models/", timeout=30)
        embeddings = get_json(f"{base}/v1/models/embedding", timeout=30)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        log(f"  (could not list models: {exc})")
        return
    from ..selection import decide

    usable = [m for m in models if m.get("provider_name") != "letta"]
    # The server process knows each endpoint's capabilities; this one asks for itself.
    for url in {m.get("model_endpoint") for m in usable if venice.looks_like_venice(m.get("model_endpoint"))}:
        key = venice.api_key() if venice.is_key_host(url) else None
        venice.CAPABILITIES.store(url, venice.fetch_models(url, key))
    providers = sorted({m.get("provider_name") or "?" for m in usable})
    log(f"  providers: {', '.join(providers) or 'none besides letta'}")
    for m in usable:
        d = decide(
            SimpleNamespace(
                **{k: m.get(k) for k in ("model", "handle", "provider_name", "model_endpoint", "model_wrapper")}
            )
        )
        mark = "end-to-end encrypted, tool emulation" if d.e2ee else "tool emulation" if d.emulate else "native tools"
        log(f"    {m.get('handle')}  context {m.get('context_window')}  ({mark})")
    embedding_handles = [e.get("handle") for e in embeddings if e.get("handle")]
    if embedding_handles:
        log(f"  embedding models: {', '.join(embedding_handles)}")
    if not usable:
        log(
            "  No model provider found. Set VENICE_API_KEY to use Venice, or OPENAI_API_KEY and OPENAI_API_BASE "
            "for any OpenAI-compatible endpoint (and LETTA_TOOL_EMULATION_MODELS=<pattern> for models without "
            "function calling), then restart."
        )


def check_venice_key(log: Callable[[str], None]) -> None:
    key = venice.api_key()
    if not key:
        log("  VENICE_API_KEY is not set: Venice models are not offered.")
        return
    url = f"{venice.base_url()}/api_keys/rate_limits"
    try:
        get_json(url, timeout=10, headers={"Authorization": f"Bearer {key}"})
        log(f"  Venice: key accepted ({venice.base_url()})")
    except urllib.error.HTTPError as exc:
        if exc.code in (401, 403):
            log(f"  Venice: the key in VENICE_API_KEY was rejected ({exc.code}). Check it at venice.ai/settings/api.")
        else:
            log(f"  Venice: could not check the key ({exc.code}).")
    except (urllib.error.URLError, OSError, ValueError) as exc:
        log(
            f"  Venice: {venice.base_url()} is unreachable ({getattr(exc, 'reason', exc)}); its models will fail until it is."
        )


def run_server(
    host: str, port: int, data_dir: Path | None, log: Callable[[str], None] = print, database_only: bool = False
) -> int:
    os.umask(0o077)
    if database_only and os.environ.get("LETTA_PG_URI"):
        raise ServerError("--database-only starts the embedded database, but LETTA_PG_URI names another one; unset it")
    if not database_only:
        check_port(host, port)
    db: EmbeddedPostgres | None = None
    uri = os.environ.get("LETTA_PG_URI")
    if uri:
        log("Using the PostgreSQL database in LETTA_PG_URI")
    else:
        db = EmbeddedPostgres(data_dir or default_data_dir(), log=log)
        t = time.monotonic()
        db.start()
        uri = db.uri
        log(
            f"Embedded PostgreSQL ready in {time.monotonic() - t:.1f} s "
            f"(data in {db.data_dir}, socket in {db.socket_dir})"
        )
    redis: EmbeddedRedis | None = None
    try:
        if db is not None and database_only:
            return _run_database_only(db, log)
        redis = _start_redis(db.home if db is not None else default_home(), log)
        return _run_letta(host, port, uri, db, log, redis)
    finally:
        if redis is not None:
            redis.stop()
            log("Redis stopped.")
        if db is not None:
            db.stop()
            log("Database stopped.")


def _start_redis(home: Path, log: Callable[[str], None]) -> EmbeddedRedis | None:
    """The embedded Redis for background streams, unless LETTA_REDIS_HOST names one. Letta runs
    without it (background streaming answers 503), so a Redis that cannot start is a warning."""
    if os.environ.get(EXTERNAL_ENV):
        log(
            f"Using the Redis at {os.environ[EXTERNAL_ENV]}:{os.environ.get('LETTA_REDIS_PORT', '6379')} (LETTA_REDIS_HOST)"
        )
        return None
    redis = EmbeddedRedis(home, log=log)
    t = time.monotonic()
    try:
        redis.start()
    except (RedisError, DatabaseError, OSError) as exc:
        log(f"letta-tool-emulation: warning: Redis could not start ({exc}); background streaming is unavailable.")
        return None
    log(f"Embedded Redis ready in {time.monotonic() - t:.1f} s (socket {redis.socket_path})")
    return redis


def _run_database_only(db: EmbeddedPostgres, log: Callable[[str], None]) -> int:
    """PostgreSQL alone, for restores and maintenance, until Ctrl-C or SIGTERM."""
    stopping: list[int] = []
    previous = {s: signal.signal(s, lambda sig, _: stopping.append(sig)) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        log(
            f"PostgreSQL is running without Letta. Connect as this OS user with psql, pg_dump or pg_restore: "
            f"-h {db.socket_dir} -U postgres letta. Press Ctrl-C to stop."
        )
        while not stopping:
            status = db.crashed()
            if status is not None:
                log(f"letta-tool-emulation: PostgreSQL stopped unexpectedly (exit code {status}); see {db.log_path}")
                return EXIT_DATABASE_LOST
            time.sleep(0.2)
        return 0
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _workdir(db: EmbeddedPostgres | None) -> Path:
    """Letta's working directory (it reads .env and conf.yaml from there), private, with an
    empty ``workers`` directory in which each worker reports that it has started."""
    run = (db.home if db else default_home()) / "run"
    try:
        fd = open_dir(run, create=True)
        tighten(fd, 0o700)  # the launcher's own
        os.close(fd)
        workers = open_dir(run / "workers", create=True)
    except UnsafePath as exc:
        raise ServerError(str(exc)) from exc
    try:
        tighten(workers, 0o700)
        for name in os.listdir(workers):
            os.unlink(name, dir_fd=workers)
    finally:
        os.close(workers)
    return run


def _worker_count() -> int:
    try:
        return max(1, int(os.environ.get("LETTA_UVICORN_WORKERS", "1")))
    except ValueError:
        return 1


def _run_letta(
    host: str,
    port: int,
    uri: str,
    db: EmbeddedPostgres | None,
    log: Callable[[str], None],
    redis: EmbeddedRedis | None = None,
) -> int:
    workdir = _workdir(db)
    env = {**os.environ, "LETTA_PG_URI": uri, READY_DIR_ENV: str(workdir / "workers")}
    if redis is not None:
        env[SOCKET_ENV] = str(redis.socket_path)
    command = [sys.executable, "-m", "letta_tool_emulation.runtime.letta_process", "--host", host, "--port", str(port)]
    command += ["--backup-dir", str((db.home if db else default_home()) / "backups")]
    if db is not None:
        command += ["--data-dir", str(db.data_dir)]
    ready_dir = workdir / "workers"

    def start() -> subprocess.Popen[bytes]:
        for name in os.listdir(ready_dir):  # a worker of an earlier start must not count
            (ready_dir / name).unlink(missing_ok=True)
        return subprocess.Popen(command, env=env, cwd=workdir, preexec_fn=parent_death_signal(signal.SIGTERM))

    child = start()
    workers = _worker_count()

    def workers_ready() -> bool:
        dead = _dead_children(child.pid) if workers > 1 else []
        if dead:
            raise WorkerDied(f"a Letta worker (pid {dead[0]}) exited while starting")
        return len(os.listdir(ready_dir)) >= workers

    stopping: dict[str, int | None] = {"sig": None}

    def on_signal(sig: int, frame: object) -> None:
        if stopping["sig"] is None:
            stopping["sig"] = sig
            log("Stopping the Letta server (requests in progress finish first) ...")
            with contextlib.suppress(ProcessLookupError):
                child.send_signal(signal.SIGTERM)

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
    base = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}"
    code = 0
    crashes: list[float] = []
    redis_crashes: list[float] = []
    try:
        log("Starting Letta with tool emulation ...")
        restarts = 0
        took: float | None = None
        failure: ServerError | None = None
        while took is None and failure is None:
            try:
                took = wait_ready(base, child, log, workers_ready=workers_ready)
            except WorkerDied as exc:
                if restarts < WORKER_RESTARTS and stopping["sig"] is None:
                    restarts += 1
                    log(f"letta-tool-emulation: {exc} (see its output above); starting Letta again ...")
                    stop_process(child, signal.SIGTERM, STOP_TIMEOUT)
                    child = start()
                else:
                    failure = exc
            except ServerError as exc:
                failure = exc
        if failure is not None:
            if stopping["sig"] is None:
                log(f"letta-tool-emulation: {failure}")
                code = child.returncode if child.returncode == EXIT_SETUP_FAILED else 1
        else:
            log(f"Letta server with tool emulation is ready at {base} (started in {took:.0f} s)")
            check_venice_key(log)
            describe(base, log)
            log("Press Ctrl-C to stop.")
        deadline: float | None = None
        while child.poll() is None:
            if db is not None and stopping["sig"] is None and not code and db.crashed() is not None:
                code = _recover_database(db, crashes, log)
            if redis is not None and stopping["sig"] is None and redis.crashed() is not None:
                redis = _recover_redis(redis, redis_crashes, log)
            if stopping["sig"] is not None or code:
                if deadline is None:
                    child.send_signal(signal.SIGTERM)
                    deadline = time.monotonic() + STOP_TIMEOUT
                elif time.monotonic() > deadline:
                    log("The Letta server did not stop in time; killing it.")
                    child.kill()
            time.sleep(0.2)
        if stopping["sig"] is None and not code:
            code = child.returncode or 1
            log(f"The Letta server exited unexpectedly (code {child.returncode}).")
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        for s, handler in previous.items():
            signal.signal(s, handler)
    return code


def _dead_children(pid: int) -> list[int]:
    """The child processes of ``pid`` that have exited and wait to be reaped (uvicorn's workers
    under its supervisor); [] where /proc cannot tell."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    dead = []
    for found in children:
        try:
            stat = Path(f"/proc/{found}/stat").read_text()
        except OSError:
            continue
        if stat.rsplit(")", 1)[-1].split()[:1] == ["Z"]:
            dead.append(int(found))
    return dead


def _recover_database(db: EmbeddedPostgres, crashes: list[float], log: Callable[[str], None]) -> int:
    """Start PostgreSQL again after it stopped on its own; the exit code for the launcher when
    it cannot be (0 while all is well)."""
    status = db.crashed()
    how = f"killed by signal {-status}" if status is not None and status < 0 else f"exit code {status}"
    now = time.monotonic()
    crashes[:] = [t for t in crashes if now - t < DB_RESTART_WINDOW] + [now]
    if len(crashes) > DB_RESTARTS:
        log(
            f"letta-tool-emulation: PostgreSQL stopped unexpectedly ({how}) for the {len(crashes)}th time in "
            f"{DB_RESTART_WINDOW / 60:.0f} minutes; stopping the Letta server. See {db.log_path} for why, then "
            "start the server again: every committed change is kept."
        )
        return EXIT_DATABASE_LOST
    log(f"PostgreSQL stopped unexpectedly ({how}); starting it again (see {db.log_path}) ...")
    try:
        db.restart()
    except DatabaseError as exc:
        log(f"letta-tool-emulation: PostgreSQL could not be started again: {exc}. Stopping the Letta server.")
        return EXIT_DATABASE_LOST
    log("PostgreSQL is running again; every committed change is kept (a turn in progress may have failed).")
    return 0


def _recover_redis(redis: EmbeddedRedis, crashes: list[float], log: Callable[[str], None]) -> EmbeddedRedis | None:
    """Start Redis again after it stopped on its own; after repeated failures, go on without it
    (only background streaming needs it)."""
    status = redis.crashed()
    now = time.monotonic()
    crashes[:] = [t for t in crashes if now - t < DB_RESTART_WINDOW] + [now]
    if len(crashes) <= DB_RESTARTS:
        log(f"Redis stopped unexpectedly (exit code {status}); starting it again (see {redis.log_path}) ...")
        try:
            redis.restart()
            return redis
        except RedisError as exc:
            log(f"letta-tool-emulation: Redis could not be started again: {exc}")
    log(
        f"letta-tool-emulation: warning: Redis stopped unexpectedly {len(crashes)} times; background streaming is "
        f"unavailable until the server is restarted (see {redis.log_path})."
    )
    redis.stop()
    return None


def main(host: str, port: int, data_dir: str | None, database_only: bool = False) -> int:
    try:
        return run_server(host, port, Path(data_dir) if data_dir else None, database_only=database_only)
    except (ServerError, DatabaseError) as exc:
        print(f"letta-tool-emulation: {exc}", file=sys.stderr)
        return 2
