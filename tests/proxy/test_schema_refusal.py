"""A local server that refuses the reply schema, behind the proxy: the step it refused is asked
again in free text, and the model in free text from then on, as the plugin does."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest
from openai import OpenAI

from letta_tool_emulation.proxy import ProxyServer, Settings
from letta_tool_emulation.runtime.stack import free_port
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, StandIn
from letta_tool_emulation.runtime.standin.constrained import LocalServer

from .conftest import MEMORY_TOOLS


@pytest.fixture(scope="module")
def refusing() -> Iterator[tuple[StandIn, ProxyServer]]:
    mp = pytest.MonkeyPatch()
    mp.setenv("LETTA_TOOL_EMULATION_MODELS", "proxy/*")
    local = LocalServer("llama.cpp", context=4096, unsupported=frozenset({"*"}))
    try:
        with (
            StandIn(port=free_port(), local=local) as upstream,
            ProxyServer(Settings("127.0.0.1", free_port(), upstream.url, None, "proxy", None, 60.0)) as proxy,
        ):
            yield upstream, proxy
    finally:
        mp.undo()


def test_a_refused_schema_is_asked_again_in_free_text_and_remembered(
    refusing: tuple[StandIn, ProxyServer], caplog: pytest.LogCaptureFixture
) -> None:
    upstream, proxy = refusing
    client = OpenAI(base_url=proxy.url, api_key="none", max_retries=0, timeout=60)
    with caplog.at_level(logging.WARNING, logger="letta_tool_emulation"):
        for fact in ("figs", "dates"):
            r = client.chat.completions.create(
                model=EMULATED_MODEL,
                messages=[{"role": "user", "content": f"Remember that I like {fact}"}],
                tools=MEMORY_TOOLS,  # type: ignore[arg-type]
            )
            (call,) = r.choices[0].message.tool_calls or []
            assert call.function.name == "memory_insert" and fact in json.loads(call.function.arguments)["new_string"]
    bodies = [b for b in upstream.state.requests if b.get("model") == EMULATED_MODEL]
    assert "response_format" in bodies[0]  # tried once ...
    assert len(bodies) == 3 and all("response_format" not in b for b in bodies[1:])  # ... then free text, remembered
    assert caplog.text.count("refused the reply schema") == 1
