"""The compatibility smoke: one environment's letta with the plugin, from the outside.

Run by ``python3 dev.py compat`` with the Python of one version's environment. It starts the
stand-in model, then the real ``letta-tool-emulation server`` command (embedded PostgreSQL),
and drives it through letta-client only, the way a user would:

- models:  the ``venice`` provider lists the stand-in's models (only the plugin adds it);
- memory:  an emulated model is told "Remember that ..."; the memory block must then hold it;
- native:  the same on the stand-in's model WITH function calling (``venice/stand-in-native``);
- stream:  an emulated memory edit with token streaming, and no call markup in the stream;
- openai-native: the native model through letta's own ``openai`` provider (OPENAI_API_BASE at
  the stand-in), which must work whether the plugin is active or not.

The model's replies are scripted on the stand-in: a memory_insert call with the arguments the
agent's own tool schema asks for (letta renamed them in 0.16.5), written as the README's call
block for the emulated model and as a native tool call for the other. Beyond the stand-in it
relies on nothing inside the plugin, so it stays valid while the plugin's activation changes. It prints one JSON object (see ``Result``) as its last line.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

READY_TIMEOUT = 300.0
STOP_TIMEOUT = 90.0
REQUEST_TIMEOUT = 180.0
# Settings from the caller's environment that would change what the server sees.
SCRUBBED_PREFIXES = ("OPENAI_", "LETTA_", "VENICE_", "ANTHROPIC_")
# Text that must never reach a client: the canonical call markers.
MARKUP = ("TOOL_CALL_START", "TOOL_CALL_END", "TOOL_RESULT")
# The last line of a traceback, or a logged error: what the report quotes.
_ERROR_LINE = re.compile(r"^(?:[\w.]+(?:Error|Exception|Exit)\b.*|.*\b(?:ERROR|CRITICAL)\b.*)$")
_PLUGIN = re.compile(r"letta[_-]tool[_-]emulation", re.IGNORECASE)
_WARNING = re.compile(r"\b(?:WARNING|WARN|ERROR)\b|not active|could not|failed", re.IGNORECASE)


@dataclass
class Check:
    name: str
    ok: bool = False
    seconds: float = 0.0
    detail: str = ""
    server_errors: list[str] = field(default_factory=list)


@dataclass
class Result:
    letta: str = ""
    letta_client: str = ""
    started: bool = False
    active: bool = False
    checks: list[Check] = field(default_factory=list)
    plugin_log: list[str] = field(default_factory=list)  # warnings the plugin or the launcher logged
    stop_code: int | None = None
    seconds: float = 0.0
    error: str = ""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def distribution_version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return ""


class Server:
    """``letta-tool-emulation server`` in its own session, data directory and HOME."""

    def __init__(self, root: Path, env: dict[str, str]) -> None:
        self.root = root
        self.port = free_port()
        self.log_path = root / "server.log"
        (root / "home").mkdir(parents=True, exist_ok=True)
        base = {k: v for k, v in os.environ.items() if not k.startswith(SCRUBBED_PREFIXES)}
        self.env = {**base, "HOME": str(root / "home"), "PYTHONUNBUFFERED": "1", **env}
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = Path(sys.executable).parent / "letta-tool-emulation"
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [str(command), "server", "--port", str(self.port), "--data-dir", str(self.root / "pgdata")],
                env=self.env,
                cwd=self.root,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + READY_TIMEOUT
        while not self._healthy():
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server command exited with code {self.proc.returncode} while starting")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server was not ready within {READY_TIMEOUT:.0f} s")
            time.sleep(0.5)
        deadline = time.monotonic() + 60  # the launcher prints its summary right after
        while "Press Ctrl-C to stop." not in self.log() and time.monotonic() < deadline:
            time.sleep(0.2)

    def _healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/v1/health/", timeout=2) as r:
                return bool(r.status == 200)
        except OSError:
            return False

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> int | None:
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else None
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            return None
        finally:
            self.kill()

    def kill(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):  # the group may be gone already
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def error_lines(text: str, limit: int = 6) -> list[str]:
    """Distinct error lines of a stretch of server log, in order."""
    seen: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if line and _ERROR_LINE.match(line) and line not in seen:
            seen.append(line[:400])
    return seen[:limit]


def plugin_warnings(text: str) -> list[str]:
    """What the plugin (or its launcher) logged at warning level or worse."""
    out: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if _PLUGIN.search(line) and _WARNING.search(line) and line not in out:
            out.append(line[:400])
    return out


def describe(exc: BaseException) -> str:
    status = getattr(exc, "status_code", None)
    body = getattr(exc, "body", None)
    if status is not None:
        return f"HTTP {status}: {json.dumps(body)[:300] if body is not None else exc}"
    return f"{type(exc).__name__}: {str(exc)[:300]}"


def run_check(result: Result, server: Server, name: str, fn: Callable[[], str]) -> Check:
    check = Check(name)
    offset = len(server.log())
    start = time.monotonic()
    try:
        check.detail = fn()
        check.ok = True
    except AssertionError as exc:
        check.detail = str(exc)[:400]
    except Exception as exc:  # noqa: BLE001 - every failure is a result to report
        check.detail = describe(exc)
    check.seconds = round(time.monotonic() - start, 1)
    if not check.ok:
        check.server_errors = error_lines(server.log()[offset:])
    result.checks.append(check)
    return check


# -- the checks --------------------------------------------------------------------------------


def new_agent(client: Any, model: str, **options: Any) -> Any:
    return client.agents.create(
        model=model,
        **options,
        agent_type="letta_v1_agent",
        memory_blocks=[
            {"label": "human", "value": "Name: Ana"},
            {"label": "persona", "value": "I am Sam, a helpful agent."},
        ],
    )


def embedding_for(model: str, embeddings: list[str]) -> dict[str, str]:
    """An embedding model for a new agent on ``model``, preferably from the same provider: letta
    up to 0.16.1 refuses to create an agent without one; later releases do not need it."""
    provider = model.split("/", 1)[0]
    same = [e for e in embeddings if e.split("/", 1)[0] == provider]
    chosen = same or embeddings
    return {"embedding": chosen[0]} if chosen else {}


def human_block(client: Any, agent: Any) -> str:
    return str(client.agents.blocks.retrieve("human", agent_id=agent.id).value)


def insert_arguments(agent: Any, fact: str) -> dict[str, str]:
    """memory_insert's arguments in this letta's own terms, read from the agent's tool schema, as
    a model would: its text parameter is ``new_str`` up to letta 0.16.4, ``new_string`` since."""
    tool = next((t for t in agent.tools if t.name == "memory_insert"), None)
    assert tool is not None, f"the agent has no memory_insert tool: {[t.name for t in agent.tools]}"
    params = tool.json_schema["parameters"]
    texts = [p for p in params.get("required", []) if p != "label" and params["properties"][p].get("type") == "string"]
    assert len(texts) == 1, f"memory_insert's parameters are not as expected: {params}"
    return {"label": "human", texts[0]: fact}


def remembers(client: Any, standin: Any, model: str, fact: str, native: bool, stream: bool, **options: Any) -> str:
    """An agent on ``model`` is told a fact; the model (scripted) stores it with memory_insert,
    written as the plugin's documented call block or as a native tool call; letta runs it."""
    from letta_tool_emulation.runtime.standin import Scripted

    agent = new_agent(client, model, **options)
    arguments = insert_arguments(agent, fact)
    if native:
        standin.script(Scripted(tool_calls=[{"name": "memory_insert", "arguments": arguments}]))
    else:
        block = json.dumps({"function": "memory_insert", "params": arguments})
        standin.script(Scripted(text=f"Noted.\nTOOL_CALL_START\n{block}\nTOOL_CALL_END", chunk=5))
    # After the tool's result the stand-in answers by its own rule ("Done.").
    words = [{"role": "user", "content": f"Remember that {fact}."}]
    if stream:
        events = list(
            client.agents.messages.create(agent_id=agent.id, messages=words, streaming=True, stream_tokens=True)
        )
    else:
        events = list(client.agents.messages.create(agent_id=agent.id, messages=words).messages)
    kinds = [getattr(e, "message_type", None) for e in events]
    errors = [e for e in events if getattr(e, "message_type", None) in ("error_message", "error")]
    assert not errors, f"the turn reported an error: {errors[0]}"
    text = "".join(
        str(getattr(e, "content", "") or "") for e in events if getattr(e, "message_type", None) == "assistant_message"
    )
    leaked = [m for m in MARKUP if m in text]
    assert not leaked, f"call markup reached the client: {leaked}"
    returns = [e for e in events if getattr(e, "message_type", None) == "tool_return_message"]
    assert returns, f"no tool ran in the turn (events: {kinds})"
    assert all(getattr(r, "status", "success") == "success" for r in returns), (
        f"the tool failed: {[str(getattr(r, 'tool_return', ''))[:200] for r in returns]}"
    )
    value = human_block(client, agent)
    assert fact in value, f"the memory block does not hold the fact; it reads {value!r}"
    return f"block holds the fact ({len(events)} events)"


def smoke(result: Result, workdir: Path) -> None:
    from letta_client import Letta

    from letta_tool_emulation.runtime.standin import EMULATED_MODEL, MAX_COMPLETION_TOKENS, NATIVE_MODEL, StandIn

    with StandIn(port=free_port()) as standin:
        server = Server(
            workdir,
            {
                "VENICE_API_KEY": "stand-in",
                "VENICE_BASE_URL": standin.url,
                "LETTA_LLM_REQUEST_TIMEOUT_SECONDS": "30",
                # Letta's own OpenAI-compatible provider, at the same stand-in.
                "OPENAI_API_KEY": "stand-in",
                "OPENAI_API_BASE": standin.url,
            },
        )
        try:
            try:
                server.start()
                result.started = True
            except RuntimeError as exc:
                result.error = f"{exc}; " + " | ".join(error_lines(server.log()))
                return
            client = Letta(base_url=server.url, timeout=REQUEST_TIMEOUT, max_retries=0)

            listed: list[Any] = []
            embeddings: list[str] = []

            def models() -> str:
                listed.extend(m for m in client.models.list() if m.handle)
                embeddings.extend(sorted(e.handle for e in client.models.embeddings.list() if e.handle))
                handles = sorted(m.handle for m in listed)
                result.active = f"venice/{EMULATED_MODEL}" in handles
                assert result.active, f"no venice/{EMULATED_MODEL} among the models: {handles}"
                return ", ".join(handles)

            def turn(model: str, fact: str, native: bool, stream: bool = False, **options: Any) -> str:
                options.update(embedding_for(model, embeddings))
                return remembers(client, standin, model, fact, native=native, stream=stream, **options)

            def openai_native() -> str:
                handle = next(
                    (m.handle for m in listed if m.model == NATIVE_MODEL and m.provider_name != "venice"), None
                )
                assert handle, f"letta's openai provider lists no {NATIVE_MODEL}: {[m.handle for m in listed]}"
                # Letta asks for 16384 output tokens unless told; the stand-in, like Venice, refuses more
                # than the model's limit. The plugin clamps that for its own provider, letta does not.
                fact = "my favourite river is the Tagus"
                return f"{handle}: " + turn(handle, fact, native=True, max_tokens=MAX_COMPLETION_TOKENS)

            emulated, native = f"venice/{EMULATED_MODEL}", f"venice/{NATIVE_MODEL}"
            run_check(result, server, "models", models)
            run_check(result, server, "openai-native", openai_native)
            run_check(result, server, "memory", lambda: turn(emulated, "my favourite colour is teal", native=False))
            run_check(result, server, "native", lambda: turn(native, "my favourite city is Lisbon", native=True))
            run_check(
                result,
                server,
                "stream",
                lambda: turn(emulated, "my favourite tree is the oak", native=False, stream=True),
            )
        finally:
            result.stop_code = server.stop()
            result.plugin_log = plugin_warnings(server.log())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", help="where the server's data and log go (default: a temporary directory)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    result = Result(letta=distribution_version("letta"), letta_client=distribution_version("letta-client"))
    workdir = Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="letta-compat-"))
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        smoke(result, workdir)
    except Exception:  # noqa: BLE001 - reported, not raised: the harness reads the JSON
        result.error = traceback.format_exc(limit=3)[-600:]
    result.seconds = round(time.monotonic() - started, 1)
    print(json.dumps(asdict(result)), flush=True)
    passed = result.started and all(c.ok for c in result.checks) and len(result.checks) == 5
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
