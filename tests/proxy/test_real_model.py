"""The proxy in front of a real small model: llama-cpp-python's server with SmolLM2-135M (built
by ``python3 dev.py llama``), driven by the OpenAI SDK. The server kind's probe finds
llama-cpp-python, so replies are constrained to the envelope schema; a required call therefore
always comes back, native-shaped, streamed and not."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from openai import OpenAI

from letta_tool_emulation.proxy import ProxyServer, Settings
from letta_tool_emulation.runtime.llama import LlamaServer
from letta_tool_emulation.runtime.stack import free_port
from tests.local.conftest import llama_python, llama_server, model_path  # noqa: F401 - the real model's fixtures

from .conftest import MEMORY_TOOLS
from .contract import check_stream


@pytest.fixture(scope="module")
def real_proxy(llama_server: LlamaServer) -> Iterator[ProxyServer]:  # noqa: F811
    mp = pytest.MonkeyPatch()
    mp.setenv("LETTA_TOOL_EMULATION_MODELS", "proxy/*")
    try:
        with ProxyServer(Settings("127.0.0.1", free_port(), llama_server.url, None, "proxy", None, 600.0)) as p:
            yield p
    finally:
        mp.undo()


FORCED = {"type": "function", "function": {"name": "memory_insert"}}
ASK = [{"role": "user", "content": "Remember that I like pears."}]


def test_a_required_call_comes_back_native_shaped(real_proxy: ProxyServer, llama_server: LlamaServer) -> None:  # noqa: F811
    client = OpenAI(base_url=real_proxy.url, api_key="none", max_retries=0, timeout=600)
    r = client.chat.completions.create(
        model=llama_server.alias,
        messages=ASK,
        tools=MEMORY_TOOLS,
        tool_choice=FORCED,
        max_tokens=200,  # type: ignore[arg-type]
    )
    assert r.choices[0].finish_reason == "tool_calls"
    (call,) = (r.choices[0].message.tool_calls or [])[:1]
    assert call.function.name == "memory_insert" and call.id
    arguments = json.loads(call.function.arguments)
    assert set(arguments) >= {"label", "new_string"} and all(isinstance(v, str) for v in arguments.values())


def test_the_streamed_contract_holds_on_a_real_model(real_proxy: ProxyServer, llama_server: LlamaServer) -> None:  # noqa: F811
    body = {"model": llama_server.alias, "messages": ASK, "tools": MEMORY_TOOLS, "tool_choice": "required",
            "max_tokens": 200, "stream": True, "stream_options": {"include_usage": True}}  # fmt: skip
    events = []
    with (
        httpx.Client(timeout=600) as client,
        client.stream("POST", f"{real_proxy.url}/chat/completions", json=body) as r,
    ):
        assert r.status_code == 200
        for line in r.iter_lines():
            if line.startswith("data: "):
                events.append(line[6:] if line[6:] == "[DONE]" else json.loads(line[6:]))
    reply = check_stream(events, include_usage=True)
    assert reply.calls and reply.finish_reason == "tool_calls"
    assert {c["name"] for c in reply.calls} <= {"memory_insert", "archival_memory_search"}
