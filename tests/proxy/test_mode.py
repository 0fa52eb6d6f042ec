"""The proxy's mode for emulated replies: ``--mode`` (or ``LETTA_TOOL_EMULATION_MODE``), and a
request's own ``X-Tool-Emulation-Mode`` header, in front of a local server that enforces schemas
(the stand-in, posing as llama.cpp)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace

import httpx
import pytest
from openai import OpenAI

from letta_tool_emulation.proxy import ProxyServer, Settings
from letta_tool_emulation.proxy.server import SettingsError, settings_from
from letta_tool_emulation.runtime.stack import free_port
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, StandIn
from letta_tool_emulation.runtime.standin.constrained import LocalServer

from .conftest import MEMORY_TOOLS


@pytest.fixture(scope="module")
def local() -> Iterator[StandIn]:
    mp = pytest.MonkeyPatch()
    mp.setenv("LETTA_TOOL_EMULATION_MODELS", "proxy/*")
    try:
        with StandIn(port=free_port(), local=LocalServer("llama.cpp", context=4096)) as upstream:
            yield upstream
    finally:
        mp.undo()


def ask(proxy: ProxyServer, mode: str | None = None) -> tuple[str, dict[str, object]]:
    client = OpenAI(base_url=proxy.url, api_key="none", max_retries=0, timeout=60)
    headers = {"X-Tool-Emulation-Mode": mode} if mode else None
    r = client.chat.completions.create(
        model=EMULATED_MODEL,
        messages=[{"role": "user", "content": "Remember that I like figs"}],
        tools=MEMORY_TOOLS,  # type: ignore[arg-type]
        extra_headers=headers,
    )
    (call,) = r.choices[0].message.tool_calls or []
    return call.function.name, json.loads(call.function.arguments)


def sent(upstream: StandIn, count: int) -> list[bool]:
    """Whether each of the last ``count`` requests to the model asked for a schema."""
    bodies = [b for b in upstream.requests if b.get("model") == EMULATED_MODEL]
    return ["response_format" in b for b in bodies[-count:]]


def test_modes_choose_free_text_or_the_envelope_and_a_request_may_choose_its_own(local: StandIn) -> None:
    base = Settings("127.0.0.1", free_port(), local.url, None, "proxy", None, 60.0)
    with ProxyServer(base) as auto:
        assert ask(auto)[0] == "memory_insert"
        assert ask(auto, "free")[0] == "memory_insert"
    assert sent(local, 2) == [True, False]  # auto constrains a server that enforces schemas
    with ProxyServer(replace(base, port=free_port(), mode="free")) as free:
        name, args = ask(free)
        assert name == "memory_insert" and "figs" in str(args["new_string"])
        assert ask(free, "constrained")[0] == "memory_insert"
    assert sent(local, 2) == [False, True]


def test_an_unknown_mode_is_refused_with_what_to_send(local: StandIn) -> None:
    with ProxyServer(Settings("127.0.0.1", free_port(), local.url, None, "proxy", None, 60.0)) as proxy:
        r = httpx.post(
            f"{proxy.url}/chat/completions",
            headers={"X-Tool-Emulation-Mode": "grammar"},
            json={"model": EMULATED_MODEL, "messages": [{"role": "user", "content": "hi"}], "tools": MEMORY_TOOLS},
            timeout=60,
        )
    assert r.status_code == 400
    assert "auto, free, constrained" in r.json()["error"]["message"]


def test_the_mode_setting_comes_from_the_option_or_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    upstream = "http://127.0.0.1:11434"
    monkeypatch.delenv("LETTA_TOOL_EMULATION_MODE", raising=False)
    assert settings_from(upstream=upstream).mode == "auto"
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MODE", "Free")
    assert settings_from(upstream=upstream).mode == "free"
    assert settings_from(upstream=upstream, mode="constrained").mode == "constrained"
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MODE", "lazy")
    with pytest.raises(SettingsError, match="LETTA_TOOL_EMULATION_MODE must be one of auto, free, constrained"):
        settings_from(upstream=upstream)


TWO = [{"role": "user", "content": "Remember that I like pears and also remember that I like figs"}]


@pytest.mark.parametrize("streamed", [False, True])
def test_constrained_replies_carry_parallel_calls_unless_the_client_takes_one(local: StandIn, streamed: bool) -> None:
    settings = Settings("127.0.0.1", free_port(), local.url, None, "proxy", None, 60.0, "constrained")
    with ProxyServer(settings) as proxy:
        client = OpenAI(base_url=proxy.url, api_key="none", max_retries=0, timeout=60)
        found = []
        for parallel in (True, False):
            if streamed:
                with client.chat.completions.stream(
                    model=EMULATED_MODEL, messages=TWO, tools=MEMORY_TOOLS, parallel_tool_calls=parallel
                ) as stream:
                    calls = stream.get_final_completion().choices[0].message.tool_calls or []
            else:
                r = client.chat.completions.create(
                    model=EMULATED_MODEL, messages=TWO, tools=MEMORY_TOOLS, parallel_tool_calls=parallel
                )
                calls = r.choices[0].message.tool_calls or []
            found.append([json.loads(c.function.arguments)["new_string"] for c in calls])
    assert found == [["I like pears", "I like figs"], ["I like pears"]]
    schemas = [b.get("response_format") for b in local.requests if b.get("model") == EMULATED_MODEL][-2:]
    # The grammar allows an array of calls, and one call only where the client takes no more.
    assert '"maxItems"' not in json.dumps(schemas[0]) and '"maxItems": 1' in json.dumps(schemas[1])
