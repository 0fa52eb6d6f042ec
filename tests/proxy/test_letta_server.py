"""A stock Letta server, the plugin switched off (LETTA_TOOL_EMULATION_DISABLE=1), with the proxy
as a BYOK OpenAI-compatible provider: Letta sends native tool calls to what it takes for an
ordinary OpenAI-compatible model, and the proxy emulates them on the stand-in's model without
function calling. Outcomes are read back from the server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from letta_tool_emulation.proxy import ProxyServer
from letta_tool_emulation.runtime.stack import ServerProcess
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, StandIn

from .conftest import proxy_settings

pytestmark = pytest.mark.e2e

PROVIDER = "viaproxy"


@pytest.fixture(scope="module")
def proxy_for_letta(standin: StandIn) -> Iterator[ProxyServer]:
    # No client key: stock Letta sends OPENAI_API_KEY, not the provider's key, with the embedding
    # requests of a BYOK provider (the plugin corrects that; here it is switched off).
    with ProxyServer(proxy_settings(standin.url)) as p:
        yield p


@pytest.fixture(scope="module")
def letta_server(tmp_path_factory: pytest.TempPathFactory, proxy_for_letta: ProxyServer) -> Iterator[ServerProcess]:
    srv = ServerProcess(
        tmp_path_factory.mktemp("stock-letta"),
        LETTA_TOOL_EMULATION_DISABLE="1",
        LETTA_LLM_REQUEST_TIMEOUT_SECONDS="30",
    ).start()
    try:
        client = srv.client()
        body = {"name": PROVIDER, "provider_type": "openai", "api_key": "unused", "base_url": proxy_for_letta.url}
        client.post("/v1/providers/", cast_to=object, body=body)
        yield srv
    finally:
        assert srv.stop() == 0, srv.tail()
    assert "letta_tool_emulation: emulating" not in srv.log()  # the plugin stayed off


@pytest.fixture
def letta(letta_server: ServerProcess, standin: StandIn) -> Any:
    standin.reset(sloppy=False, seed=0)
    return letta_server.client()


def handles(letta: Any) -> tuple[str, str]:
    model = next(m.handle for m in letta.models.list() if m.provider_name == PROVIDER and m.model == EMULATED_MODEL)
    embedding = next(e.handle for e in letta.models.embeddings.list() if e.handle.startswith(f"{PROVIDER}/"))
    return model, embedding


def new_agent(letta: Any, **kwargs: Any) -> Any:
    model, embedding = handles(letta)
    return letta.agents.create(
        model=model,
        embedding=embedding,
        agent_type="letta_v1_agent",
        memory_blocks=[{"label": "human", "value": "Name: Ana"}, {"label": "persona", "value": "I am Sam."}],
        **kwargs,
    )


def say(letta: Any, agent: Any, text: str) -> Any:
    return letta.agents.messages.create(agent_id=agent.id, messages=[{"role": "user", "content": text}])


def of_type(messages: list[Any], kind: str) -> list[Any]:
    return [m for m in messages if getattr(m, "message_type", None) == kind]


def block(letta: Any, agent: Any, label: str = "human") -> str:
    return str(letta.agents.blocks.retrieve(label, agent_id=agent.id).value)


def upstream_saw_native_tools(standin: StandIn) -> None:
    """The model without function calling got text only: no tools, no tool messages."""
    chats = [r for r in standin.requests if r.get("model") == EMULATED_MODEL]
    assert chats
    assert all("tools" not in r and all(m["role"] != "tool" for m in r["messages"]) for r in chats)


def test_an_agent_edits_its_memory_blocks(letta: Any, standin: StandIn) -> None:
    agent = new_agent(letta)
    r = say(letta, agent, "Remember that I like pears")
    assert [m.tool_call.name for m in of_type(r.messages, "tool_call_message")] == ["memory_insert"]
    assert block(letta, agent) == "Name: Ana\nI like pears"
    say(letta, agent, "Please replace 'I like pears' with 'I like quinces'")
    assert block(letta, agent) == "Name: Ana\nI like quinces"
    upstream_saw_native_tools(standin)


def test_archival_memory_insert_and_search(letta: Any, standin: StandIn) -> None:
    agent = new_agent(letta, tools=["archival_memory_insert", "archival_memory_search"])
    say(letta, agent, "Archive that the launch is on March 3rd in Lisbon")
    assert [p.text for p in letta.agents.passages.list(agent_id=agent.id)] == ["the launch is on March 3rd in Lisbon"]
    r = say(letta, agent, "Search the archive for March 3rd in Lisbon")
    returns = [m.tool_return for m in of_type(r.messages, "tool_return_message") if m.name == "archival_memory_search"]
    assert len(returns) == 1 and "the launch is on March 3rd in Lisbon" in returns[0]
    # Embeddings went through the proxy too, to the upstream, with the upstream's key.
    assert any(path == "/v1/embeddings" for path, _ in standin.state.keys.seen)


def test_a_custom_tool_runs(letta: Any, standin: StandIn) -> None:
    source = '''
def roll_dice(sides: int, count: int = 1) -> str:
    """Roll dice and report the total.

    Args:
        sides: Number of sides of each die.
        count: How many dice to roll.
    """
    return f"rolled {count}d{sides}: total {count * sides}"
'''
    tool = letta.tools.upsert(source_code=source)
    agent = new_agent(letta, tool_ids=[tool.id])
    r = say(letta, agent, f"call roll_dice with {json.dumps({'sides': 20, 'count': 2})}")
    assert [m.tool_return for m in of_type(r.messages, "tool_return_message")] == ["rolled 2d20: total 40"]
    assert of_type(r.messages, "assistant_message")[-1].content == "Done."
    upstream_saw_native_tools(standin)
