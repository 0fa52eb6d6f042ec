"""The stand-in imitating each local server kind: its schema parameter, its refusals, its listing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import jsonschema
import pytest

from letta_tool_emulation.core import normalize_tools, parse_tool_calls, render_tool_prompt
from letta_tool_emulation.core.envelope import EnvelopeParser, envelope_instruction, envelope_schema
from letta_tool_emulation.core.structural_tag import call_structural_tag
from letta_tool_emulation.endpoints import LOCAL_KINDS, probe_server, schema_rejected, schema_request_fields
from letta_tool_emulation.runtime.stack import free_port
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, StandIn
from letta_tool_emulation.runtime.standin.constrained import LocalServer

from ..core.corpus import load_tools

TOOLS = load_tools()
MEMORY = [t for t in TOOLS if t["name"] in ("memory_insert", "memory_replace", "conversation_search", "list_files")]


@pytest.fixture(scope="module", params=LOCAL_KINDS)
def server(request: pytest.FixtureRequest) -> Iterator[StandIn]:
    with StandIn(port=free_port(), local=LocalServer(kind=request.param, context=8192)) as s:
        yield s


def body(kind: Any, said: str, *, required: bool = False, tools: list[dict[str, Any]] = MEMORY, **extra: Any) -> dict:
    return {
        "model": EMULATED_MODEL,
        "messages": [
            {"role": "system", "content": "You are Sam.\n\n" + envelope_instruction(tools)},
            {"role": "user", "content": said},
        ],
        **schema_request_fields(kind, envelope_schema(tools, required=required)),
        **extra,
    }


def parse(text: str, finish: str | None, tools: list[dict[str, Any]] = MEMORY):  # type: ignore[no-untyped-def]
    p = EnvelopeParser(tools)
    p.feed(text)
    p.close(finish)
    return p.result


def test_each_kind_honours_its_schema_parameter(server: StandIn) -> None:
    kind = server.state.local.kind  # type: ignore[union-attr]
    r = httpx.post(f"{server.url}/chat/completions", json=body(kind, "Remember that I like pizza."), timeout=10)
    assert r.status_code == 200, r.text
    choice = r.json()["choices"][0]
    text = choice["message"]["content"]
    jsonschema.validate(json.loads(text), envelope_schema(MEMORY, required=False))
    result = parse(text, choice["finish_reason"])
    assert [(c.name, c.arguments) for c in result.tool_calls] == [
        ("memory_insert", {"label": "human", "new_string": "I like pizza"})
    ]
    r = httpx.post(f"{server.url}/chat/completions", json=body(kind, "Hello there"), timeout=10)
    assert parse(r.json()["choices"][0]["message"]["content"], "stop").content == "You said: Hello there"


def test_each_kind_streams_the_envelope(server: StandIn) -> None:
    kind = server.state.local.kind  # type: ignore[union-attr]
    parser = EnvelopeParser(MEMORY)
    events, finish = [], None
    payload = {**body(kind, "Remember that I live in Lyon."), "stream": True}
    with httpx.stream("POST", f"{server.url}/chat/completions", json=payload, timeout=10) as r:
        assert r.status_code == 200
        for line in r.iter_lines():
            if line.startswith("data: {"):
                choice = json.loads(line[6:])["choices"][0]
                events += parser.feed(choice["delta"].get("content") or "")
                finish = choice["finish_reason"] or finish
    events += parser.close(finish)
    assert [(e.call.name, e.call.arguments) for e in events if e.call] == [
        ("memory_insert", {"label": "human", "new_string": "I live in Lyon"})
    ]
    assert "".join(e.text for e in events) == "Sure, one moment."


async def test_each_kind_serves_its_listing(server: StandIn) -> None:
    kind = server.state.local.kind  # type: ignore[union-attr]
    info = await probe_server(server.url)
    assert info.kind == kind
    expected = None if kind == "llama-cpp-python" else 8192  # it reports none, like the real one
    assert info.models[EMULATED_MODEL].context_window == expected


def test_forced_call_and_truncation(server: StandIn) -> None:
    kind = server.state.local.kind  # type: ignore[union-attr]
    r = httpx.post(f"{server.url}/chat/completions", json=body(kind, "Hello", required=True), timeout=10)
    result = parse(r.json()["choices"][0]["message"]["content"], "stop")
    # A forced call the rules have nothing for: the first tool that needs no argument.
    assert [c.name for c in result.tool_calls] == [
        next(t["name"] for t in MEMORY if not t["parameters"].get("required"))
    ]
    assert [c.arguments for c in result.tool_calls] == [{}]
    long = body(kind, "Remember that " + "very " * 100 + "long fact.", max_tokens=20)
    r = httpx.post(f"{server.url}/chat/completions", json=long, timeout=10)
    choice = r.json()["choices"][0]
    assert choice["finish_reason"] == "length"
    result = parse(choice["message"]["content"], "length")
    assert result.tool_calls == [] and [(p.kind, p.rejected) for p in result.problems] == [("truncated", True)]


@pytest.mark.parametrize(
    ("kind", "fields", "status"),
    [
        # OpenAI's form, which llama-cpp-python's request model refuses with a 500
        ("llama-cpp-python", schema_request_fields("vllm", {"type": "object"}), 500),
        ("lmstudio", {"response_format": {"type": "json_object"}}, 400),
        ("vllm", {"response_format": {"type": "json_schema", "json_schema": {"schema": {}}}}, 400),
        ("llama.cpp", {"response_format": {"type": "grammar"}}, 400),
    ],
)
def test_refused_forms(kind: Any, fields: dict[str, Any], status: int) -> None:
    with StandIn(port=free_port(), local=LocalServer(kind=kind)) as s:
        request = {**body(kind, "Remember that x."), **fields}
        r = httpx.post(f"{s.url}/chat/completions", json=request, timeout=10)
        assert r.status_code == status
        assert schema_rejected(r.status_code, r.text)


@pytest.mark.parametrize(("unsupported", "named"), [({"anyOf"}, "'anyOf'"), ({"*"}, "JSON schemas")])
def test_the_switch_refuses_schemas(unsupported: set[str], named: str) -> None:
    with StandIn(port=free_port(), local=LocalServer(kind="vllm", unsupported=frozenset(unsupported))) as s:
        r = httpx.post(f"{s.url}/chat/completions", json=body("vllm", "Remember that x."), timeout=10)
        assert r.status_code == 400 and named in r.text
        assert schema_rejected(r.status_code, r.text)
        plain = body("vllm", "Remember that x.")
        del plain["response_format"]
        r = httpx.post(f"{s.url}/chat/completions", json=plain, timeout=10)
        assert r.status_code == 200 and "TOOL_CALL_START" not in r.json()["choices"][0]["message"]["content"]
        # without a schema the stand-in answers as before: the free-text rules (no tool prompt here)


def tagged(tag: Any) -> dict[str, Any]:
    """A free-text request (the tool prompt) with ``tag`` as its response_format."""
    plain = {k: v for k, v in body("vllm", "Remember that I like pizza.").items() if k != "response_format"}
    plain["messages"] = [
        {"role": "system", "content": "You are Sam.\n\n" + render_tool_prompt(MEMORY)},
        plain["messages"][-1],
    ]
    return {**plain, "response_format": tag}


def test_vllm_takes_a_structural_tag_with_a_free_text_reply() -> None:
    tag = call_structural_tag(normalize_tools(MEMORY).values())
    with StandIn(port=free_port(), local=LocalServer(kind="vllm")) as s:
        for rf in (tag, {"type": "structural_tag", "format": {"type": "any_text"}}):
            r = httpx.post(f"{s.url}/chat/completions", json=tagged(rf), timeout=10)
            assert r.status_code == 200, r.text
            result = parse_tool_calls(r.json()["choices"][0]["message"]["content"], MEMORY)
            assert [c.name for c in result.tool_calls] == ["memory_insert"]
    # Any other kind reads no structural tag: llama.cpp refuses the type, as its server does.
    with StandIn(port=free_port(), local=LocalServer(kind="llama.cpp")) as s:
        r = httpx.post(f"{s.url}/chat/completions", json=tagged(tag), timeout=10)
        assert r.status_code == 400 and schema_rejected(r.status_code, r.text)


STRUCTURE = {"begin": "TOOL_CALL_START\n{", "schema": {"type": "object"}, "end": "}\nTOOL_CALL_END"}


@pytest.mark.parametrize(
    ("tag", "said"),
    [
        ({"type": "structural_tag", "triggers": ["TOOL_CALL_START"]}, "'structures'"),  # a field missing
        ({"type": "structural_tag", "structures": [STRUCTURE], "triggers": "TOOL_CALL_START"}, "'triggers'"),
        ({"type": "structural_tag", "structures": [{**STRUCTURE, "end": 5}], "triggers": ["T"]}, "'end'"),
        ({"type": "structural_tag", "format": "any"}, "'format'"),
        # What xgrammar cannot compile: no structures, no trigger, a structure no trigger begins.
        ({"type": "structural_tag", "structures": [], "triggers": ["TOOL_CALL_START"]}, "Invalid structural tag"),
        ({"type": "structural_tag", "structures": [STRUCTURE], "triggers": []}, "Invalid structural tag"),
        ({"type": "structural_tag", "structures": [STRUCTURE], "triggers": ["<call>"]}, "Invalid structural tag"),
    ],
)
def test_vllm_refuses_a_malformed_structural_tag(tag: dict[str, Any], said: str) -> None:
    with StandIn(port=free_port(), local=LocalServer(kind="vllm")) as s:
        r = httpx.post(f"{s.url}/chat/completions", json=tagged(tag), timeout=10)
        assert r.status_code == 400 and said in r.text
        assert schema_rejected(r.status_code, r.text)


def test_without_a_local_kind_nothing_changes() -> None:
    with StandIn(port=free_port()) as s:
        r = httpx.get(f"{s.url}/models")
        assert "model_spec" in r.json()["data"][0], "Venice's listing"
        assert httpx.get(f"{s.url[:-3]}/props").status_code == 404
