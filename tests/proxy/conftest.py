"""The proxy in this process, in front of the stand-in model over real HTTP, driven by the
OpenAI SDK and by plain HTTP where the bytes on the wire are what is tested."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from openai import OpenAI

from letta_tool_emulation.proxy import ProxyServer, Settings
from letta_tool_emulation.runtime.stack import free_port
from letta_tool_emulation.runtime.standin import StandIn

UPSTREAM_KEY = "lte-proxy-upstream-key-5d1f0c77a9e2"
CLIENT_KEY = "lte-proxy-client-key-8a41b2c3d4e5"

MEMORY_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "memory_insert",
            "description": "Insert text into a memory block.",
            "parameters": {
                "type": "object",
                "properties": {"label": {"type": "string"}, "new_string": {"type": "string"}},
                "required": ["label", "new_string"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "archival_memory_search",
            "description": "Search archival memory.",
            "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
        },
    },
]


def proxy_settings(upstream: str, *, client_key: str | None = None, timeout: float = 30.0) -> Settings:
    return Settings("127.0.0.1", free_port(), upstream, UPSTREAM_KEY, "venice", client_key, timeout)


@pytest.fixture(scope="session")
def standin() -> Iterator[StandIn]:
    with StandIn(port=free_port()) as s:
        yield s


@pytest.fixture(scope="session")
def proxy(standin: StandIn) -> Iterator[ProxyServer]:
    with ProxyServer(proxy_settings(standin.url)) as p:
        yield p


@pytest.fixture
def upstream(standin: StandIn) -> StandIn:
    standin.reset(sloppy=False, seed=0)
    return standin


@pytest.fixture
def sdk(proxy: ProxyServer, upstream: StandIn) -> OpenAI:
    return OpenAI(base_url=proxy.url, api_key="anything", max_retries=0, timeout=60)


def sse_events(response: httpx.Response) -> list[Any]:
    """Every `data:` event of a streamed answer, in order: parsed JSON, or the string "[DONE]"."""
    events: list[Any] = []
    for line in response.iter_lines():
        if not line:
            continue
        assert line.startswith("data: "), f"not a data line: {line!r}"
        payload = line[len("data: ") :]
        events.append(payload if payload == "[DONE]" else json.loads(payload))
    return events


def post_stream(url: str, body: dict[str, Any], **headers: str) -> tuple[httpx.Response, list[Any]]:
    with (
        httpx.Client(timeout=60) as client,
        client.stream("POST", f"{url}/chat/completions", json={**body, "stream": True}, headers=headers) as response,
    ):
        if response.status_code != 200:
            response.read()
            return response, []
        return response, sse_events(response)
