"""Free-text requests to vLLM (and SGLang, which is probed as vLLM): the call blocks' structural
tag as ``response_format``, shaped by the tools the request offers, and the fallback when the
server refuses it."""

from __future__ import annotations

import json
import logging
from typing import Any

from letta_tool_emulation import calibrate, endpoints, engine, selection
from letta_tool_emulation.server_dialect import (
    STRUCTURAL_TAG_KINDS,
    TRIGGER_KINDS,
    ServerInfo,
    grammar_request_fields,
    schema_rejected,
    structural_tag_fields,
)
from letta_tool_emulation.step import Decision

from .test_call_grammar_requests import FIELDS, SEARCH, asked_again_unheld
from .test_engine import MEMORY_SYSTEM, TOOLS

LOG = logging.getLogger("letta_tool_emulation")
URL = "http://127.0.0.1:9/v1"
TAGGED = Decision(True, "test", grammar_kind="vllm")


def prepare(decision: Decision = TAGGED, **kw: Any) -> Any:
    data = {
        "model": "m",
        "messages": [{"role": "system", "content": MEMORY_SYSTEM}, {"role": "user", "content": "Hi"}],
        "tools": [*TOOLS, SEARCH],
        "tool_choice": "auto",
        **kw,
    }
    return engine.prepare(data, decision=decision, endpoint=URL, log=LOG)


def structures(req: Any) -> dict[str, dict[str, Any]]:
    """The tag's structures by the function their begin names."""
    found = {}
    for s in req["response_format"]["structures"]:
        name = json.loads(s["begin"].removeprefix("TOOL_CALL_START\n") + "{}}")["function"]
        found[name] = s
    return found


def test_vllm_is_a_trigger_kind_that_reads_a_structural_tag_and_no_gbnf() -> None:
    assert "vllm" in TRIGGER_KINDS and STRUCTURAL_TAG_KINDS == ("vllm",)
    assert grammar_request_fields("vllm", 'root ::= "x"', "TOOL_CALL_START") == {}
    assert structural_tag_fields("llama.cpp", {"type": "structural_tag"}) == {}
    tag = {"type": "structural_tag", "structures": [], "triggers": ["TOOL_CALL_START"]}
    assert structural_tag_fields("vllm", tag) == {"response_format": tag}


def test_a_free_text_request_carries_the_structural_tag_and_stays_free_text() -> None:
    req = prepare()
    plain = prepare(Decision(True, "test"))
    rf = req["response_format"]
    assert rf["type"] == "structural_tag" and rf["triggers"] == ["TOOL_CALL_START"]
    assert set(structures(req)) == {"memory_insert", "archival_memory_search"}
    # The messages, the stop sequences and everything else are the free-text request's.
    assert {k: v for k, v in req.items() if k != "response_format"} == dict(plain)
    assert not set(FIELDS) & set(req) and "response_format" not in plain
    assert req.step.schema_shape is None and req.step.grammar_kind == "vllm"
    assert req.fallback == dict(plain)  # asked again without it, if refused


def test_the_agents_block_labels_and_a_forced_tool_reach_the_tag() -> None:
    insert = structures(prepare())["memory_insert"]["schema"]
    assert insert["properties"]["label"]["enum"] == ["persona", "human"]
    forced = prepare(tool_choice={"type": "function", "function": {"name": "archival_memory_search"}})
    assert set(structures(forced)) == {"archival_memory_search"}
    none = prepare(tool_choice="none")
    assert "response_format" not in none and none.step.grammar_kind is None and none.fallback is None


def test_a_refused_tag_is_asked_again_without_it_and_remembered() -> None:
    endpoints.KNOWN.clear()
    endpoints.KNOWN.store(ServerInfo(kind="vllm", base_url=URL))
    config = type("Config", (), {"model": "m", "model_endpoint": URL, "model_wrapper": "free-text"})()
    assert selection.grammar_kind(config) == "vllm"
    assert calibrate.no_grammar_because(type("U", (), {"base_url": URL})(), Decision(True, "test"), "m") is None
    req = prepare()
    flow = engine.run(req)
    first = next(flow)
    assert first.constrained and first.body["response_format"]["type"] == "structural_tag"
    # vLLM's answer where xgrammar cannot compile the tag (backend_xgrammar.validate_xgrammar_grammar).
    said = '{"error":{"message":"Invalid structural tag specification.","type":"BadRequestError","code":400}}'
    assert schema_rejected(400, said)
    asked_again_unheld(req, flow, first, said, "response_format", config)


def test_an_error_about_something_else_is_no_refusal_of_the_tag() -> None:
    req = prepare()
    flow = engine.run(req)
    first = next(flow)
    assert first.refused(500, '{"error": "model runner has unexpectedly stopped"}') is None
