"""The call blocks' grammar on llama.cpp's own llama-server, end to end: the proxy in free-text
mode in front of ``llama-server`` (built by ``python3 dev.py llama-server`` from the llama.cpp
source of the pinned llama-cpp-python) serving SmolLM2-135M-Instruct, greedy, seeded.

Between the proxy and the server sits a recorder that forwards every request as it is and keeps
the bodies, so what the upstream really received is read off the wire, not from our own code.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from openai import OpenAI

from letta_tool_emulation.core.tools import normalize_tools
from letta_tool_emulation.core.validate import validate_arguments
from letta_tool_emulation.proxy import ProxyServer, Settings
from letta_tool_emulation.runtime.llama import DEFAULT_CONTEXT, NativeLlamaServer
from letta_tool_emulation.runtime.stack import free_port
from tests.local.conftest import llama_python, model_path  # noqa: F401 - the real model's fixtures

ROOT = Path(__file__).resolve().parents[2]

WEATHER = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the current weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "description": "The city, e.g. Paris"},
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    "days": {"type": "integer", "description": "How many days to forecast"},
                },
                "required": ["city", "unit"],
            },
        },
    }
]


@pytest.fixture(scope="module")
def llama_server_binary() -> Path:
    """llama-server, built (or found built) by dev.py."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "dev.py"), "llama-server"], cwd=ROOT, capture_output=True, text=True, timeout=5400
    )
    if done.returncode != 0:
        pytest.fail(f"python3 dev.py llama-server failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return Path(done.stdout.strip().splitlines()[-1])


class Recorder:
    """A forwarding HTTP server that keeps the JSON body of every POST it forwards."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")  # the server's root, without /v1
        self.bodies: list[dict[str, Any]] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def _forward(self, method: str) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                if method == "POST" and raw:
                    recorder.bodies.append(json.loads(raw))
                with httpx.Client(timeout=900) as client:
                    r = client.request(
                        method, recorder.upstream + self.path, content=raw or None,
                        headers={"content-type": self.headers.get("content-type", "application/json")},
                    )  # fmt: skip
                self.send_response(r.status_code)
                self.send_header("content-type", r.headers.get("content-type", "application/json"))
                self.send_header("content-length", str(len(r.content)))
                self.end_headers()
                self.wfile.write(r.content)

            def do_GET(self) -> None:
                self._forward("GET")

            def do_POST(self) -> None:
                self._forward("POST")

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def chat_bodies(self) -> list[dict[str, Any]]:
        return [b for b in self.bodies if "messages" in b]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def native(llama_server_binary: Path, model_path: Path) -> Iterator[NativeLlamaServer]:  # noqa: F811
    with NativeLlamaServer(
        llama_server_binary, model_path, n_ctx=DEFAULT_CONTEXT, seed=7, n_threads=1, reuse_prompt=False
    ) as server:
        yield server


@pytest.fixture(scope="module")
def recorder(native: NativeLlamaServer) -> Iterator[Recorder]:
    r = Recorder(native.url.removesuffix("/v1"))
    yield r
    r.close()


@pytest.fixture(scope="module")
def free_proxy(recorder: Recorder) -> Iterator[ProxyServer]:
    mp = pytest.MonkeyPatch()
    mp.setenv("LETTA_TOOL_EMULATION_MODELS", "proxy/*")
    mp.delenv("LETTA_TOOL_EMULATION_GRAMMAR", raising=False)
    try:
        settings = Settings("127.0.0.1", free_port(), recorder.url, None, "proxy", None, 900.0, mode="free")
        with ProxyServer(settings) as p:
            yield p
    finally:
        mp.undo()


# An earlier turn in which the model called the tool: rendered as a call block in the
# transcript, it shows the small model the format.
EARLIER = [
    {"role": "user", "content": "What is the weather in London, in celsius?"},
    {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
        "name": "get_weather", "arguments": json.dumps({"city": "London", "unit": "celsius"})}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "12 degrees, cloudy"},
    {"role": "assistant", "content": "It is 12 degrees and cloudy in London."},
]  # fmt: skip


def ask(proxy: ProxyServer, alias: str, content: str, history: list[Any] | None = None, **kw: Any) -> Any:
    client = OpenAI(base_url=proxy.url, api_key="none", max_retries=0, timeout=900)
    return client.chat.completions.create(
        model=alias,
        messages=[*(history or []), {"role": "user", "content": content}],
        tools=WEATHER,  # type: ignore[arg-type]
        temperature=0,
        seed=7,
        max_tokens=120,
        **kw,
    )


def test_a_call_the_model_writes_is_held_to_the_tools_schema_and_the_upstream_got_the_lazy_grammar(
    free_proxy: ProxyServer, native: NativeLlamaServer, recorder: Recorder
) -> None:
    before = len(recorder.chat_bodies())
    # Asked for a call (SmolLM2 writes one only when told to; the grammar is what makes it valid).
    r = ask(free_proxy, native.alias, "And in Paris, in celsius?", EARLIER)
    sent = recorder.chat_bodies()[before:]
    assert sent, "the proxy sent nothing upstream"
    first = sent[0]
    # On the wire: free text (the prompt's call blocks, no response_format), plus the grammar,
    # lazy, triggered by the call marker.
    assert "response_format" not in first and "tools" not in first
    assert first["grammar_lazy"] is True
    assert first["grammar_triggers"] == [{"type": 1, "value": "TOOL_CALL_START"}]
    assert '"\\"get_weather\\""' in first["grammar"] and '("\\"celsius\\"" | "\\"fahrenheit\\"")' in first["grammar"]
    assert "TOOL_CALL_START" in json.dumps(first["messages"])
    calls = r.choices[0].message.tool_calls or []
    assert r.choices[0].finish_reason == "tool_calls" and calls, r.choices[0].message.content
    spec = normalize_tools(WEATHER)["get_weather"]
    for call in calls:
        arguments = json.loads(call.function.arguments)
        assert call.function.name == "get_weather"
        assert validate_arguments(spec, arguments).errors == [], arguments  # schema-valid, as the grammar held it
        assert arguments["unit"] in ("celsius", "fahrenheit") and isinstance(arguments["city"], str)


def test_a_request_that_needs_no_tool_gets_prose(free_proxy: ProxyServer, native: NativeLlamaServer) -> None:
    r = ask(free_proxy, native.alias, "Say hello to me in one short friendly sentence.", tool_choice="none")
    assert not r.choices[0].message.tool_calls and r.choices[0].finish_reason in ("stop", "length")
    assert (r.choices[0].message.content or "").strip()


def test_prose_stays_free_with_the_grammar_on(
    free_proxy: ProxyServer, native: NativeLlamaServer, recorder: Recorder
) -> None:
    before = len(recorder.chat_bodies())
    r = ask(free_proxy, native.alias, "Write one short sentence about the sea. Do not call any tool.")
    sent = recorder.chat_bodies()[before:]
    assert sent and all("grammar" in b for b in sent)  # the grammar was on for this request
    text = r.choices[0].message.content or ""
    assert not r.choices[0].message.tool_calls, text
    # Prose the grammar left free: words, not a call block.
    assert len(text.split()) >= 3 and "TOOL_CALL_START" not in text


def test_llama_server_accepts_the_grammar_of_every_calibration_question(
    native: NativeLlamaServer,
) -> None:
    from letta_tool_emulation.core.grammar import call_block_grammar
    from letta_tool_emulation.server_dialect import grammar_request_fields

    questions = json.loads((ROOT / "letta_tool_emulation/data/calibration_questions.json").read_text())["questions"]
    refused = []
    with httpx.Client(timeout=900) as client:
        for q in questions:
            grammar = call_block_grammar(normalize_tools(q["tools"]).values())
            assert grammar is not None
            body = {
                "model": native.alias,
                "messages": [{"role": "user", "content": "Hi"}],
                "max_tokens": 1,
                **grammar_request_fields("llama.cpp", grammar.grammar, grammar.trigger),
            }
            r = client.post(f"{native.url}/chat/completions", json=body)
            if r.status_code != 200:
                refused.append((q["id"], r.status_code, r.text[:300]))
    assert not refused
