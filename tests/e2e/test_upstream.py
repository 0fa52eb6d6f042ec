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

from .conftest import Server, new_agent, of_type, say, wait_gone

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
def server(tmp_path_factory: pytest.TempPathFactory, venice_side: StandIn) -> Iterator[Server]:
    srv = Server(
        tmp_path_factory.mktemp("upstream"),
        venice_side.url,
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
