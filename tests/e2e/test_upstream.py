"""What crosses to the model endpoints: each key only to its own host, and never so many
failing requests that the provider locks the key. Two stand-ins record every key they see."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from letta_client import APIStatusError

from letta_tool_emulation.runtime.standin import Scripted, StandIn

from .conftest import Server, block, new_agent, of_type, say, stream, wait_gone
from .faults import Fault, FaultProxy

VENICE_KEY = "venice-key-for-a-only"
BYOK_KEY = "byok-key-for-b-only"
OPENAI_KEY = "openai-key-for-nobody-here"


@pytest.fixture(scope="module")
def venice_side() -> Iterator[StandIn]:
    with StandIn() as s:
        yield s


@pytest.fixture(scope="module")
def elsewhere() -> Iterator[StandIn]:
    with StandIn() as s:
        yield s


@pytest.fixture(scope="module")
def proxy(venice_side: StandIn) -> Iterator[FaultProxy]:
    p = FaultProxy(venice_side.port)
    yield p
    p.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, proxy: FaultProxy) -> Iterator[Server]:
    srv = Server(
        tmp_path_factory.mktemp("upstream"),
        proxy.url,  # the stand-in, behind a proxy that can break connections
        VENICE_API_KEY=VENICE_KEY,
        OPENAI_API_KEY=OPENAI_KEY,  # Letta's base providers' key: it must reach neither stand-in
    ).start()
    yield srv
    assert srv.stop() == 0, srv.tail()
    assert wait_gone(str(srv.data_dir)) == []


def keys(standin: StandIn) -> dict[str, set[str]]:
    seen: dict[str, set[str]] = {}
    for path, key in standin.state.keys.seen:
        seen.setdefault(path, set()).add(key)
    return seen


def test_keys_follow_hosts(server: Server, venice_side: StandIn, elsewhere: StandIn) -> None:
    client = server.client()
    body = {"name": "elsewhere", "provider_type": "openai", "api_key": BYOK_KEY, "base_url": elsewhere.url}
    client.post("/v1/providers/", cast_to=object, body=body)
    handles = {m.handle for m in client.models.list()}
    embeddings = {m.handle for m in client.models.embeddings.list()}
    assert {"venice/venice-uncensored", "elsewhere/venice-uncensored"} <= handles
    assert {"venice/text-embedding-bge-m3", "elsewhere/text-embedding-bge-m3"} <= embeddings
    archival = ["archival_memory_insert", "archival_memory_search"]
    for provider, model in (("venice", "venice-uncensored"), ("venice", "stand-in-native"),
                            ("elsewhere", "venice-uncensored")):  # fmt: skip
        agent = new_agent(
            client, model=f"{provider}/{model}", tools=archival, embedding=f"{provider}/text-embedding-bge-m3"
        )
        say(client, agent, "Archive that the launch is on March 3rd in Lisbon")
        r = say(client, agent, "Search the archive for March 3rd in Lisbon")
        found = [
            m.tool_return for m in of_type(r.messages, "tool_return_message") if m.name == "archival_memory_search"
        ]
        assert len(found) == 1 and "Lisbon" in found[0], provider
    a, b = keys(venice_side), keys(elsewhere)
    for path in ("/v1/chat/completions", "/v1/embeddings", "/v1/models"):
        assert a.get(path) == {VENICE_KEY}, (path, a)
        assert b.get(path) == {BYOK_KEY}, (path, b)
    assert OPENAI_KEY not in server.log()


# -- connections that break ------------------------------------------------------------------------

PROSE = "Let me think about where this belongs. " * 80  # about 3 KB before the call
LONG = "a fact worth keeping " * 150  # about 3 KB inside the call


def reply() -> Scripted:
    return Scripted(
        text=PROSE + "\nTOOL_CALL_START\n"
        + json.dumps({"function": "memory_insert", "params": {"label": "human", "new_string": LONG.strip()}})
        + "\nTOOL_CALL_END"
    )  # fmt: skip


# Where the response is cut, in bytes: a streamed reply is ~200 bytes per 7 characters of text,
# a blocking one is the JSON once (the headers take ~150 bytes).
CUTS = {
    ("streamed", "prose"): 20_000,
    ("streamed", "call"): 130_000,
    ("blocking", "prose"): 400,
    ("blocking", "call"): 5_000,
}


def turn(client: Any, agent: Any, mode: str, text: str) -> None:
    if mode == "streamed":
        stream(client, agent, text)
    else:
        say(client, agent, text)


@pytest.mark.parametrize("mode", ["blocking", "streamed"])
def test_reset_before_any_response_is_retried_and_the_turn_completes(
    server: Server, venice_side: StandIn, proxy: FaultProxy, mode: str
) -> None:
    client = server.client()
    agent = new_agent(client)
    venice_side.reset()
    venice_side.script(reply(), Scripted(text="Saved."))
    proxy.next_chat(Fault("reset", after=0))
    turn(client, agent, mode, "Remember this")
    assert proxy.applied[-1] == "reset:0"
    assert block(client, agent) == "Name: Ana\n" + LONG.strip()  # applied exactly once


@pytest.mark.parametrize("where", ["prose", "call"])
@pytest.mark.parametrize("mode", ["blocking", "streamed"])
def test_reset_mid_reply_completes_or_fails_clearly_never_half_applied(
    server: Server, venice_side: StandIn, proxy: FaultProxy, mode: str, where: str
) -> None:
    client = server.client()
    agent = new_agent(client)
    venice_side.reset()
    venice_side.script(reply(), reply(), Scripted(text="Saved."))
    proxy.next_chat(Fault("reset", after=CUTS[(mode, where)]))
    if mode == "blocking":  # nothing reached the user yet: the request is retried whole
        turn(client, agent, mode, "Remember this")
        assert block(client, agent) == "Name: Ana\n" + LONG.strip()
    else:  # part of the reply was streamed already: it cannot be taken back, so the turn fails
        with pytest.raises(APIStatusError) as raised:
            turn(client, agent, mode, "Remember this")
        assert "broke off" in json.dumps(raised.value.body) and "nothing from it was executed" in json.dumps(
            raised.value.body
        )
        assert block(client, agent) == "Name: Ana"
        venice_side.script(Scripted(text="Saved."))
        turn(client, agent, mode, "Remember this")  # the next turn works
        assert block(client, agent) == "Name: Ana\n" + LONG.strip()
    assert proxy.applied[-1].startswith("reset:")


@pytest.mark.parametrize("mode", ["blocking", "streamed"])
def test_a_stalled_upstream_ends_the_turn_with_a_clear_error(
    server: Server, venice_side: StandIn, proxy: FaultProxy, mode: str
) -> None:
    client = server.client()
    agent = new_agent(client)
    venice_side.reset()
    venice_side.script(reply(), reply(), Scripted(text="Saved."))
    # Silent for longer than LETTA_LLM_REQUEST_TIMEOUT_SECONDS (10 s in these tests).
    proxy.next_chat(Fault("stall", after=CUTS[(mode, "prose")], seconds=25))
    with pytest.raises(APIStatusError) as raised:
        turn(client, agent, mode, "Remember this")
    detail = json.dumps(raised.value.body)
    assert "did not answer in time" in detail or "LETTA_LLM_REQUEST_TIMEOUT_SECONDS" in detail, detail
    assert block(client, agent) == "Name: Ana"
    venice_side.reset()
    venice_side.script(reply(), Scripted(text="Saved."))
    turn(client, agent, mode, "Remember this")
    assert block(client, agent) == "Name: Ana\n" + LONG.strip()


# Last in this module: it spends the key's failure budget for the next 30 s.
def test_fifty_failing_turns_at_once_never_get_the_key_locked(server: Server, venice_side: StandIn) -> None:
    client = server.client()
    agents: list[Any] = [None] * 50

    def create(i: int) -> None:
        agents[i] = new_agent(client)

    for group in range(0, 50, 10):
        threads = [threading.Thread(target=create, args=(i,)) for i in range(group, group + 10)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    venice_side.reset()
    venice_side.script(*[Scripted(status=500, error="Inference failed", delay=0.2)] * 400)
    errors: list[str] = []
    unexpected: list[BaseException] = []

    def turn(agent: Any) -> None:
        try:
            say(client, agent, "Remember that the sky is green")
            unexpected.append(AssertionError("a turn succeeded against a failing upstream"))
        except APIStatusError as exc:
            errors.append(json.dumps(exc.body))
        except BaseException as exc:  # noqa: BLE001 - reported below
            unexpected.append(exc)

    threads = [threading.Thread(target=turn, args=(a,)) for a in agents]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert unexpected == []
    assert len(errors) == 50
    assert venice_side.state.keys.blocked == [], "the key was locked out"
    assert venice_side.state.keys.max_failures_in_window() <= 20
    chats = [k for path, k in venice_side.state.keys.seen if path == "/v1/chat/completions"]
    assert 0 < len(chats) <= 20  # at most the budget in the window; the rest failed fast
    assert any("rather than risk the provider blocking the key" in e for e in errors)
    assert any("failed while answering" in e for e in errors)  # the provider's own failures, mapped
    venice_side.reset()
