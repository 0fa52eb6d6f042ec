"""End-to-end fixtures: the real server command, on the embedded PostgreSQL, talking to the
stand-in model, driven through letta-client. Outcomes are read back from the server.

Every server runs at DEBUG log level with a recognisable fake Venice key, and after every test
the key must appear in no log line, no file under the server's directories (its database
included, read back with pg_dump as well, since PostgreSQL compresses long values), no
response body and no cassette: the user put it in the environment and nowhere else.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest

from letta_tool_emulation.runtime.stack import COMMAND, ServerProcess, free_port
from letta_tool_emulation.runtime.standin import StandIn

__all__ = ["COMMAND", "FAKE_KEY", "Server", "free_port"]

# The part of the key no redaction that keeps a few characters at either end would show.
KEY_CORE = "7c1e9a04d2b65f38"
FAKE_KEY = f"lte-fake-venice-key-{KEY_CORE}-never-logged"
CASSETTES = Path(__file__).resolve().parents[2] / "cassettes"


class Server(ServerProcess):
    """The server command as the tests run it: the stand-in as Venice with the fake key, a 10 s
    LLM timeout, Letta's DEBUG logging; it keeps watch for the key wherever it could leak."""

    started: ClassVar[list[Server]] = []

    def __init__(
        self, root: Path, standin_url: str, port: int | None = None, data_dir: Path | None = None, **env: str
    ) -> None:
        settings = {
            "VENICE_API_KEY": FAKE_KEY,
            "VENICE_BASE_URL": standin_url,
            "LETTA_LLM_REQUEST_TIMEOUT_SECONDS": "10",
            "LETTA_DEBUG": "true",
        }
        super().__init__(root, port, data_dir=data_dir, **{**settings, **env})
        self.leaks: list[str] = []
        self._scanned: dict[Path, tuple[int, int]] = {}
        Server.started.append(self)

    def client(self, **options: Any) -> Any:
        options.setdefault("http_client", httpx.Client(event_hooks={"response": [self._check_response]}))
        return super().client(**options)

    def _check_response(self, response: httpx.Response) -> None:
        streaming = response.headers.get("content-type", "").startswith("text/event-stream")
        if streaming and response.status_code < 400:
            return  # read by the test as it arrives; what it leaves behind is in the database dump
        response.read()
        if KEY_CORE in response.text:
            self.leaks.append(f"response {response.status_code} to {response.request.method} {response.request.url}")

    def find_key(self) -> list[str]:
        """Where the key turned up since the last look: responses, then changed files."""
        found, self.leaks = self.leaks, []
        roots = {self.root, self.data_dir.parent}
        for path in (p for root in roots if root.exists() for p in root.rglob("*")):
            try:
                st = path.lstat()
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode) or self._scanned.get(path) == (st.st_size, st.st_mtime_ns):
                continue
            self._scanned[path] = (st.st_size, st.st_mtime_ns)
            try:
                data = path.read_bytes()
            except OSError:
                continue
            if KEY_CORE.encode() in data:
                lines = [ln for ln in data.decode(errors="replace").splitlines() if KEY_CORE in ln]
                found.append(f"{path}: {lines[0][:300] if lines else '(binary)'}")
        return found

    def socket_dir(self) -> str | None:
        found = re.findall(r"socket in (/\S+)\)", self.log())
        return found[-1] if found else None

    def dump_database(self) -> str:
        """The whole letta database as SQL, through the socket, as an operator would back it up."""
        from pgserver._commands import POSTGRES_BIN_PATH

        sock = self.socket_dir()
        assert sock, "the launcher did not say where its socket is"
        return subprocess.run(
            [str(POSTGRES_BIN_PATH / "pg_dump"), "-h", sock, "-U", "postgres", "--no-owner", "letta"],
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout

    def stop(self, *args: Any, **kwargs: Any) -> int:
        running = self.proc is not None and self.proc.poll() is None and self.socket_dir()
        if running and KEY_CORE in self.dump_database():
            self.leaks.append(f"the database of {self.root}")
        return super().stop(*args, **kwargs)


@pytest.fixture(autouse=True)
def key_never_leaks() -> Iterator[None]:
    yield
    found = [leak for server in Server.started for leak in server.find_key()]
    if CASSETTES.exists():
        found += [str(p) for p in CASSETTES.rglob("*") if p.is_file() and KEY_CORE.encode() in p.read_bytes()]
    assert found == [], f"the fake Venice key turned up in {found}"


def leftover_processes(marker: str) -> list[str]:
    """Processes whose command line mentions ``marker`` (a data directory) or that run inside it
    (PostgreSQL is given its directory as a descriptor), besides zombies."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().split(") ", 1)[1][0]
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue
        inside = cwd == marker or cwd.startswith(marker.rstrip("/") + "/")
        if (marker in cmdline or inside) and state != "Z":
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
    assert srv.find_key() == []


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
