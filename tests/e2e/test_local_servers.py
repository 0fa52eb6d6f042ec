"""Local inference servers as Letta users add them, each imitated by a stand-in in that server's
documented shapes: the picker shows each model's real context window, and replies are
constrained to the envelope schema in each server's own request shape."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from letta_tool_emulation.runtime.standin import EMULATED_MODEL, NATIVE_MODEL, Scripted, StandIn
from letta_tool_emulation.runtime.standin.constrained import LocalServer, _call_variants, _forms

from .conftest import Server, block, new_agent, of_type, say, stream, wait_gone

KINDS = {  # kind -> the context each stand-in runs with
    "llama.cpp": 8192,
    "lmstudio": 5000,
    "vllm": 7000,
    "llama-cpp-python": 6000,  # says nothing about it: LETTA_TOOL_EMULATION_CONTEXT tells
}


@pytest.fixture(scope="module")
def locals_() -> Iterator[dict[str, StandIn]]:
    servers = {kind: StandIn(local=LocalServer(kind, context=ctx)) for kind, ctx in KINDS.items()}  # type: ignore[arg-type]
    servers["ollama"] = StandIn(local=LocalServer("ollama", context=6144))
    servers["refusing"] = StandIn(local=LocalServer("llama.cpp", context=4096, unsupported=frozenset({"*"})))
    for s in servers.values():
        s.start()
    yield servers
    for s in servers.values():
        s.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, standin: StandIn, locals_: dict[str, StandIn]) -> Iterator[Server]:
    srv = Server(
        tmp_path_factory.mktemp("local"),
        standin.url,
        OPENAI_API_KEY="unused",
        OPENAI_API_BASE=locals_["llama.cpp"].url,
        OLLAMA_BASE_URL=locals_["ollama"].url.removesuffix("/v1"),
        LETTA_TOOL_EMULATION_MODELS=f"*/{EMULATED_MODEL}",
        LETTA_TOOL_EMULATION_CONTEXT=f"llama-cpp-python/*={KINDS['llama-cpp-python']}",
    ).start()
    client = srv.client()
    for kind in ("lmstudio", "vllm", "llama-cpp-python", "refusing"):
        body = {"name": kind.replace(".", ""), "provider_type": "openai", "api_key": "unused",
                "base_url": locals_[kind].url}  # fmt: skip
        client.post("/v1/providers/", cast_to=object, body=body)
    yield srv
    assert srv.stop() == 0, srv.tail()
    assert wait_gone(str(srv.data_dir)) == []


def test_the_picker_shows_each_servers_real_context_window(server: Server) -> None:
    models = {m.handle: m for m in server.client().models.list()}
    assert models[f"openai-proxy/{EMULATED_MODEL}"].context_window == KINDS["llama.cpp"]  # from /props
    assert models[f"lmstudio/{EMULATED_MODEL}"].context_window == KINDS["lmstudio"]  # /api/v0/models
    assert models[f"vllm/{EMULATED_MODEL}"].context_window == KINDS["vllm"]  # max_model_len
    assert models[f"llama-cpp-python/{EMULATED_MODEL}"].context_window == KINDS["llama-cpp-python"]  # the setting
    # Letta's Ollama provider lists only models with the "tools" capability; the others join,
    # with the context they are loaded with (/api/ps).
    assert models[f"ollama/{NATIVE_MODEL}"].context_window == 6144
    assert models[f"ollama/{EMULATED_MODEL}"].context_window == 6144


@pytest.mark.parametrize(
    ("handle", "kind", "shape"),
    [
        (f"openai-proxy/{EMULATED_MODEL}", "llama.cpp", "json_schema"),
        (f"llama-cpp-python/{EMULATED_MODEL}", "llama-cpp-python", "json_object"),
        (f"ollama/{EMULATED_MODEL}", "ollama", "json_schema"),
        (f"lmstudio/{EMULATED_MODEL}", "lmstudio", "json_schema"),
    ],
)
@pytest.mark.parametrize("streamed", [False, True], ids=["blocking", "streamed"])
def test_constrained_memory_edit_on_each_server_kind(
    server: Server, locals_: dict[str, StandIn], handle: str, kind: str, shape: str, streamed: bool
) -> None:
    client = server.client()
    local = locals_[kind]
    local.reset()
    agent = new_agent(client, model=handle)
    events = (
        stream(client, agent, "Remember that I like pears")
        if streamed
        else say(client, agent, "Remember that I like pears").messages
    )
    assert [m.tool_call.name for m in of_type(events, "tool_call_message") if m.tool_call.name] == ["memory_insert"]
    assert block(client, agent) == "Name: Ana\nI like pears"
    bodies = [r for r in local.requests if r.get("model") == EMULATED_MODEL]
    assert bodies and all(r["response_format"]["type"] == shape for r in bodies)
    shown = json.dumps([getattr(e, "content", "") for e in of_type(events, "assistant_message")])
    assert '"calls"' not in shown and "{" not in shown  # no JSON syntax reaches the user


def test_a_server_that_refuses_the_schema_gets_free_text(server: Server, locals_: dict[str, StandIn]) -> None:
    client = server.client()
    refusing = locals_["refusing"]
    refusing.reset()
    agent = new_agent(client, model=f"refusing/{EMULATED_MODEL}")
    say(client, agent, "Remember that I like figs")
    say(client, agent, "Remember that I like dates")
    assert block(client, agent) == "Name: Ana\nI like figs\nI like dates"
    bodies = [r for r in refusing.requests if r.get("model") == EMULATED_MODEL]
    assert "response_format" in bodies[0]  # tried once ...
    assert all("response_format" not in r for r in bodies[1:])  # ... then free text, remembered
    assert server.log().count("refused the reply schema") == 1


def offered(body: dict[str, object]) -> tuple[set[str], bool]:
    """The tools a constrained request's reply schema lets the model call, and whether it must."""
    rf = body["response_format"]
    assert isinstance(rf, dict)
    schema = rf["json_schema"]["schema"]
    return set(_call_variants(schema)), _forms(schema)[0]


def test_letta_s_tool_rules_shape_the_reply_schema_at_each_step(server: Server, locals_: dict[str, StandIn]) -> None:
    """Letta works out which tools its rules allow before each step and hands only those over,
    with tool_choice forcing one where a rule requires it; the reply schema follows, so the
    model can only write a call the rules allow: search first, then the insert, which ends the
    turn."""
    client = server.client()
    local = locals_["llama.cpp"]
    local.reset()
    agent = new_agent(
        client,
        model=f"openai-proxy/{EMULATED_MODEL}",
        tools=["archival_memory_search"],
        tool_rules=[
            {"type": "run_first", "tool_name": "archival_memory_search"},
            {"type": "constrain_child_tools", "tool_name": "archival_memory_search", "children": ["memory_insert"]},
            {"type": "exit_loop", "tool_name": "memory_insert"},
        ],
    )
    search = {"calls": [{"function": "archival_memory_search", "params": {"query": "pears"}}]}
    insert = {"calls": [{"function": "memory_insert", "params": {"label": "human", "new_string": "I like pears"}}]}
    local.script(Scripted(text=json.dumps(search)), Scripted(text=json.dumps(insert)))
    events = say(client, agent, "Remember that I like pears").messages
    ran = [m.tool_call.name for m in of_type(events, "tool_call_message")]
    assert ran == ["archival_memory_search", "memory_insert"]
    assert block(client, agent) == "Name: Ana\nI like pears"
    bodies = [r for r in local.requests if r.get("model") == EMULATED_MODEL]
    assert len(bodies) == 2  # the insert ended the turn, as its rule says
    assert offered(bodies[0]) == ({"archival_memory_search"}, True)
    assert offered(bodies[1]) == ({"memory_insert"}, True)
