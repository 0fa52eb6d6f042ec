"""The proxy in front of vLLM (the stand-in, posing as vLLM): free-text requests carry the call
blocks' structural tag, a server that refuses it is asked again without it, and from then on, and
``calibrate`` measures free text under it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from openai import OpenAI

from letta_tool_emulation import calibration, endpoints
from letta_tool_emulation.cli import main
from letta_tool_emulation.proxy import ProxyServer, Settings
from letta_tool_emulation.runtime.stack import free_port
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, StandIn
from letta_tool_emulation.runtime.standin.constrained import LocalServer

from .conftest import MEMORY_TOOLS
from .test_calibrate import free_text_answers


@pytest.fixture(autouse=True)
def emulated(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MODELS", "proxy/*")
    endpoints.KNOWN.clear()
    yield
    endpoints.KNOWN.clear()


def ask(proxy: ProxyServer) -> tuple[str, dict[str, object]]:
    client = OpenAI(base_url=proxy.url, api_key="none", max_retries=0, timeout=60)
    r = client.chat.completions.create(
        model=EMULATED_MODEL,
        messages=[{"role": "user", "content": "Remember that I like figs"}],
        tools=MEMORY_TOOLS,  # type: ignore[arg-type]
    )
    (call,) = r.choices[0].message.tool_calls or []
    return call.function.name, json.loads(call.function.arguments)


def formats(upstream: StandIn) -> list[object]:
    """Each request's response_format, in order."""
    return [b.get("response_format") for b in upstream.requests if b.get("model") == EMULATED_MODEL]


def test_free_text_requests_to_vllm_carry_the_structural_tag() -> None:
    with StandIn(port=free_port(), local=LocalServer("vllm", context=4096)) as upstream:
        settings = Settings("127.0.0.1", free_port(), upstream.url, None, "proxy", None, 60.0, "free")
        with ProxyServer(settings) as proxy:
            name, args = ask(proxy)
        (sent,) = formats(upstream)
    assert name == "memory_insert" and "figs" in str(args["new_string"])
    assert isinstance(sent, dict) and sent["type"] == "structural_tag" and sent["triggers"] == ["TOOL_CALL_START"]
    begins = [s["begin"] for s in sent["structures"]]
    assert begins == [f'TOOL_CALL_START\n{{"function": "{t["function"]["name"]}", "params": ' for t in MEMORY_TOOLS]
    # Free text: the tool prompt, not the envelope's instruction.
    body = next(b for b in upstream.requests if b.get("model") == EMULATED_MODEL)
    assert "TOOL_CALL_START" in json.dumps(body["messages"])


def test_a_vllm_that_refuses_the_tag_is_asked_again_without_it_and_not_sent_it_again() -> None:
    # A backend without structural tags: vLLM's 400, "Invalid structural tag specification."
    local = LocalServer("vllm", context=4096, unsupported=frozenset({"grammar"}))
    with StandIn(port=free_port(), local=local) as upstream:
        settings = Settings("127.0.0.1", free_port(), upstream.url, None, "proxy", None, 60.0, "free")
        with ProxyServer(settings) as proxy:
            first = ask(proxy)
            second = ask(proxy)
        sent = formats(upstream)
    assert first[0] == second[0] == "memory_insert"
    # The first turn: refused, then asked in free text alone; the second turn: free text at once.
    assert [f["type"] if isinstance(f, dict) else f for f in sent] == ["structural_tag", None, None]


def test_calibrate_asks_free_text_under_the_tag_of_vllm(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(calibration.PATH_ENV, str(tmp_path / "calibration.json"))
    monkeypatch.delenv("LETTA_TOOL_EMULATION_MODELS", raising=False)
    with StandIn(port=free_port(), local=LocalServer("vllm", context=8192)) as upstream:
        upstream.script({"text": "I cannot help with that."}, {"text": free_text_answers()[0]})
        assert main(["calibrate", "--base-url", upstream.url, "--model", EMULATED_MODEL, "--questions", "1"]) == 0
        sent = formats(upstream)
    out, _ = capsys.readouterr()
    # Free text, then free text under the structural tag, then constrained (any number of calls, one).
    kinds = [f["type"] if isinstance(f, dict) else f for f in sent]
    assert kinds == [None, "structural_tag", "json_schema", "json_schema"]
    assert "| free | 0 % |" in out and "| free + grammar | 100 % |" in out
    assert "Best: free + grammar" in out
