"""End-to-end fixtures: the real server command, on the embedded PostgreSQL, talking to the
stand-in model, driven through letta-client. Outcomes are read back from the server."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from letta_tool_emulation.runtime.standin import StandIn

COMMAND = str(Path(sys.executable).parent / "letta-tool-emulation")
READY_TIMEOUT = 300.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One `letta-tool-emulation server` process (launcher, Letta, PostgreSQL)."""

    def __init__(self, root: Path, standin_url: str, port: int | None = None, **env: str) -> None:
        self.root = root
        self.data_dir = root / "pgdata"
        self.port = port or free_port()
        self.log_path = root / "server.log"
        self.env = {
            k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "LETTA_", "VENICE_", "ANTHROPIC_"))
        }
        (root / "home").mkdir(parents=True, exist_ok=True)
        self.env.update(
            {
                "HOME": str(root / "home"),
                "VENICE_API_KEY": "test-key",
                "VENICE_BASE_URL": standin_url,
                "LETTA_LLM_REQUEST_TIMEOUT_SECONDS": "10",
                "PYTHONUNBUFFERED": "1",
            }
        )
        self.env.update(env)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        log = open(self.log_path, "ab")  # noqa: SIM115 - the child writes to it
        self.proc = subprocess.Popen(
            [COMMAND, "server", "--port", str(self.port), "--data-dir", str(self.data_dir)],
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + READY_TIMEOUT
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/v1/health/", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"server not ready in {READY_TIMEOUT} s:\n{self.tail()}")
            time.sleep(0.5)
        # The launcher prints its summary right after the server answers.
        deadline = time.monotonic() + 60
        while "Press Ctrl-C to stop." not in self.log() and time.monotonic() < deadline:
            time.sleep(0.2)
        return self

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def tail(self, n: int = 60) -> str:
        return "\n".join(self.log().splitlines()[-n:])

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 90) -> int:
        assert self.proc is not None
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def client(self) -> Any:
        from letta_client import Letta

        # No retries by the SDK: a retried request could hide the very failure a test looks at.
        return Letta(base_url=self.url, timeout=180, max_retries=0)


def leftover_processes(marker: str) -> list[str]:
    """Processes whose command line mentions ``marker`` (a data directory), besides zombies."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().split(") ", 1)[1][0]
        except OSError:
            continue
        if marker in cmdline and state != "Z":
            found.append(f"{entry.name}: {cmdline.strip()}")
    return found


def wait_gone(marker: str, timeout: float = 20) -> list[str]:
    deadline = time.monotonic() + timeout
    while (left := leftover_processes(marker)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


@pytest.fixture(scope="session")
def standin() -> Iterator[StandIn]:
    with StandIn(port=free_port()) as s:
        yield s


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, standin: StandIn) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("server"), standin.url).start()
    yield srv
    code = srv.stop()
    assert code == 0, srv.tail()
    assert wait_gone(str(srv.data_dir)) == []


@pytest.fixture
def letta(server: Server, standin: StandIn) -> Any:
    standin.reset(sloppy=False, seed=0)
    return server.client()


MODEL = "venice/venice-uncensored"
NATIVE = "venice/stand-in-native"


def new_agent(client: Any, kind: str = "letta_v1_agent", **kwargs: Any) -> Any:
    return client.agents.create(
        model=kwargs.pop("model", MODEL),
        agent_type=kind,
        memory_blocks=[
            {"label": "human", "value": "Name: Ana"},
            {"label": "persona", "value": "I am Sam, a helpful agent."},
        ],
        **kwargs,
    )


def block(client: Any, agent: Any, label: str = "human") -> str:
    return client.agents.blocks.retrieve(label, agent_id=agent.id).value


def say(client: Any, agent: Any, text: str) -> Any:
    return client.agents.messages.create(agent_id=agent.id, messages=[{"role": "user", "content": text}])


def stream(client: Any, agent: Any, text: str) -> list[Any]:
    return list(
        client.agents.messages.create(
            agent_id=agent.id, messages=[{"role": "user", "content": text}], streaming=True, stream_tokens=True
        )
    )


def of_type(messages: list[Any], kind: str) -> list[Any]:
    return [m for m in messages if getattr(m, "message_type", None) == kind]
