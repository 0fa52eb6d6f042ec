"""Free-text requests to a server kind that holds call blocks to a grammar (llama.cpp's
llama-server): what they carry, what every other kind gets, and a refused grammar. vLLM's
structural tag: test_structural_tag_requests.py."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from letta_tool_emulation import endpoints, engine, selection
from letta_tool_emulation.server_dialect import (
    GRAMMAR_SHAPE,
    SCHEMA_SHAPES,
    TRIGGER_KINDS,
    ServerInfo,
    grammar_request_fields,
    structural_tag_fields,
)
from letta_tool_emulation.step import Decision, Settings

from .test_engine import MEMORY_SYSTEM, PIZZA, TOOLS, block

LOG = logging.getLogger("letta_tool_emulation")
URL = "http://127.0.0.1:9/v1"
GRAMMAR = Decision(True, "test", grammar_kind="llama.cpp")
FIELDS = ("grammar", "grammar_lazy", "grammar_triggers", "preserved_tokens")
SEARCH = {"type": "function", "function": {"name": "archival_memory_search",
          "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}}  # fmt: skip


def prepare(decision: Decision = GRAMMAR, **kw: Any) -> Any:
    data = {
        "model": "m",
        "messages": [{"role": "system", "content": "You are Sam."}, {"role": "user", "content": "Hi"}],
        "tools": [*TOOLS, SEARCH],
        "tool_choice": "auto",
        **kw,
    }
    return engine.prepare(data, decision=decision, endpoint=URL, log=LOG)


def test_a_free_text_request_carries_the_lazy_grammar_and_stays_free_text() -> None:
    req = prepare()
    plain = prepare(Decision(True, "test"))
    assert req["grammar_lazy"] is True and req["grammar_triggers"] == [{"type": 1, "value": "TOOL_CALL_START"}]
    assert '"\\"memory_insert\\""' in req["grammar"] and '"\\"archival_memory_search\\""' in req["grammar"]
    # The messages, the stop sequences and everything else are the free-text request's.
    assert {k: v for k, v in req.items() if k not in FIELDS} == dict(plain)
    assert "response_format" not in req and req.step.schema_shape is None and req.step.grammar_kind == "llama.cpp"
    assert req.fallback == dict(plain)  # asked again without it, if refused


def test_tool_choice_and_parallel_calls_shape_the_grammar() -> None:
    data = {"model": "m", "messages": [{"role": "user", "content": "Hi"}], "tools": [*TOOLS, SEARCH]}

    def root(tool_choice: Any, **kw: Any) -> str:
        return str(engine.prepare({**data, "tool_choice": tool_choice}, decision=GRAMMAR, **kw)["grammar"]).split("\n")[
            0
        ]

    # `calls` is one block or more, `first-block` one; each starts a line.
    assert root("auto") == "root ::= (calls)? prose-0"  # several calls, one block each
    assert root("auto", parallel=True, single_call=True) == "root ::= (calls)? prose-0"
    assert root("auto", single_call=True) == "root ::= (first-block)? prose-0"  # a caller that takes one call
    assert root("required") == "root ::= calls prose-0"
    forced = engine.prepare(
        {**data, "tool_choice": {"type": "function", "function": {"name": "archival_memory_search"}}}, decision=GRAMMAR
    )
    assert "memory_insert" not in forced["grammar"] and "archival_memory_search" in forced["grammar"]
    none = engine.prepare({**data, "tool_choice": "none"}, decision=GRAMMAR)
    assert not set(FIELDS) & set(none) and none.step.grammar_kind is None


def test_the_agents_block_labels_reach_the_grammar() -> None:
    data = {"model": "m", "messages": [{"role": "system", "content": MEMORY_SYSTEM}, {"role": "user", "content": "Hi"}],
            "tools": TOOLS, "tool_choice": "auto"}  # fmt: skip
    grammar = engine.prepare(data, decision=GRAMMAR)["grammar"]
    assert '("\\"persona\\"" | "\\"human\\"") ws' in grammar


def test_a_literals_values_given_as_a_tuple_reach_the_grammar() -> None:
    # As Letta's schema generator writes `List[Literal[...]]` into a request built in-process.
    roles = {"type": "array", "items": {"type": "string", "enum": ("assistant", "user", "tool")}}
    search = {"type": "function", "function": {"name": "conversation_search",
              "parameters": {"type": "object", "properties": {"roles": roles}, "required": []}}}  # fmt: skip
    grammar = prepare(tools=[search])["grammar"]
    assert all(f'"\\"{role}\\""' in grammar for role in ("assistant", "user", "tool"))
    assert grammar == prepare(tools=[json.loads(json.dumps(search))])["grammar"]


@pytest.mark.parametrize("kind", [k for k in SCHEMA_SHAPES if k not in TRIGGER_KINDS])
def test_every_other_server_kind_gets_the_free_text_request_unchanged(kind: Any) -> None:
    assert grammar_request_fields(kind, 'root ::= "x"', "TOOL_CALL_START") == {}
    assert structural_tag_fields(kind, {"type": "structural_tag", "structures": [], "triggers": []}) == {}
    req = prepare(Decision(True, "test", grammar_kind=kind))
    assert not set(FIELDS) & set(req) and req.fallback is None and dict(req) == dict(prepare(Decision(True, "test")))


def test_a_refused_grammar_is_asked_again_without_it_and_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    endpoints.KNOWN.clear()
    endpoints.KNOWN.store(ServerInfo(kind="llama.cpp", base_url=URL))
    config = type("Config", (), {"model": "m", "model_endpoint": URL, "model_wrapper": "free-text"})()
    assert selection.grammar_kind(config) == "llama.cpp"
    req = prepare()
    flow = engine.run(req)
    first = next(flow)
    assert first.constrained and "grammar" in first.body
    asked_again_unheld(req, flow, first, 'Failed to parse grammar: "grammar" is not valid', "grammar", config)


def asked_again_unheld(req: Any, flow: Any, first: Any, said: str, field: str, config: Any) -> None:
    """The server refuses the request's hold on the call blocks (``field``) with ``said``: the
    same turn is asked again as plain free text, its call runs, and the refusal is remembered,
    so that the model never gets the hold again."""
    refusal = first.refused(400, said)
    assert isinstance(refusal, engine.SchemaRefused)
    second = flow.throw(refusal)
    assert not second.constrained and field not in second.body and second.number == 1
    second.content(block(PIZZA))
    second.end("stop")
    with pytest.raises(StopIteration) as done:
        flow.send(None)
    outcome = done.value.value
    assert [json.loads(c["function"]["arguments"]) for c in outcome.calls] == [PIZZA]
    assert outcome.refused_schema_status == 400
    endpoints.remember(req, outcome, LOG)
    assert endpoints.KNOWN.refused_schema(URL, "m", GRAMMAR_SHAPE)
    assert selection.grammar_kind(config) is None  # never sent to this model again
    endpoints.KNOWN.clear()


def test_the_setting_turns_it_off_and_other_kinds_never_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    endpoints.KNOWN.clear()
    config = type("Config", (), {"model": "m", "model_endpoint": URL, "model_wrapper": "free-text"})()
    endpoints.KNOWN.store(ServerInfo(kind="llama.cpp", base_url=URL))
    monkeypatch.setenv(selection.GRAMMAR_ENV, "off")
    assert selection.grammar_kind(config) is None
    monkeypatch.delenv(selection.GRAMMAR_ENV)
    for kind in ("ollama", "llama-cpp-python", "lmstudio"):
        endpoints.KNOWN.store(ServerInfo(kind=kind, base_url=URL))
        assert selection.grammar_kind(config) is None
    endpoints.KNOWN.clear()


def test_a_limit_of_one_call_per_reply_holds_the_grammar_and_the_reply_schema_to_one_call() -> None:
    data = {"model": "m", "messages": [{"role": "user", "content": "Hi"}], "tools": [*TOOLS, SEARCH],
            "tool_choice": "auto"}  # fmt: skip
    one, default = Settings(max_calls_per_reply=1), Settings()

    def root(settings: Settings) -> str:
        prepared = engine.prepare(data, decision=GRAMMAR, parallel=True, settings=settings)
        return str(prepared["grammar"]).split("\n")[0]

    def reply_schema(settings: Settings) -> str:
        constrained = Decision(True, "test", schema_shape="llama.cpp")
        prepared = engine.prepare(data, decision=constrained, parallel=True, settings=settings)
        return json.dumps(prepared["response_format"])

    # More calls than would run are not even written: one call, however parallel the caller is.
    assert root(one) == "root ::= (first-block)? prose-0" and root(default) == "root ::= (calls)? prose-0"
    assert '"maxItems": 1' in reply_schema(one) and '"maxItems"' not in reply_schema(default)
