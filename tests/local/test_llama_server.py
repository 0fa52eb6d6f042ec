"""Constrained replies on the real server with the real model, over real HTTP."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest

from letta_tool_emulation.core.envelope import EnvelopeParser, envelope_instruction, envelope_schema
from letta_tool_emulation.endpoints import (
    CONTEXT_ENV,
    context_from_error,
    context_override,
    parse_context_overrides,
    probe_server,
    schema_rejected,
    schema_request_fields,
)
from letta_tool_emulation.runtime.llama import LlamaServer

from ..core.corpus import load_tools

TOOLS = load_tools()
MEMORY_TOOLS = [t for t in TOOLS if t.get("function", t)["name"] in ("memory_insert", "memory_replace")]
PERSONA = (
    "You are Sam, a helpful assistant with a long-term memory.\n"
    "<memory_blocks>\n<human>\n(nothing known yet)\n</human>\n<persona>\nI am Sam.\n</persona>\n</memory_blocks>\n"
    "When the user tells you something about themselves, save it to the human block with memory_insert.\n\n"
)
# An unsupported pattern keyword: the converter refuses it (the server would then drop the
# schema without a word), so the envelope must leave it out.
PATTERN_TOOL = {
    "name": "set_code",
    "parameters": {
        "type": "object",
        "properties": {"code": {"type": "string", "pattern": "(?<=x)[0-9]+"}},
        "required": ["code"],
    },
}

GRAMMAR_CHECK = """
import json, sys
import llama_cpp
from llama_cpp import llama_grammar
llm = llama_cpp.Llama(model_path=sys.argv[1], vocab_only=True, verbose=False)
results = []
for schema in json.load(sys.stdin):
    try:
        gbnf = llama_grammar.json_schema_to_gbnf(json.dumps(schema))
    except Exception as exc:
        results.append("conversion failed: " + type(exc).__name__)
        continue
    sampler = llama_cpp.llama_sampler_init_grammar(llm._model.vocab, gbnf.encode(), b"root")
    results.append("ok" if sampler else "grammar rejected")
    if sampler:
        llama_cpp.llama_sampler_free(sampler)
print(json.dumps(results))
"""


def grammar_results(python: Path, model: Path, schemas: list[dict[str, Any]]) -> list[str]:
    done = subprocess.run(
        [str(python), "-c", GRAMMAR_CHECK, str(model)],
        input=json.dumps(schemas),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def chat(
    server: LlamaServer, tools: list[dict[str, Any]], said: str, *, required: bool, **extra: Any
) -> dict[str, Any]:
    schema = envelope_schema(tools, required=required)
    choice = "required" if required else None
    return {
        "model": server.alias,
        "messages": [
            {"role": "system", "content": PERSONA + envelope_instruction(tools, tool_choice=choice)},
            {"role": "user", "content": said},
        ],
        "temperature": 0.0,
        "max_tokens": 160,
        **schema_request_fields("llama-cpp-python", schema),
        **extra,
    }


def parse_whole(text: str, tools: list[dict[str, Any]], finish: str | None, required: bool):  # type: ignore[no-untyped-def]
    parser = EnvelopeParser(tools, required=required)
    parser.feed(text)
    parser.close(finish)
    return parser.result


def stream_text(server: LlamaServer, body: dict[str, Any]) -> tuple[list[str], str | None]:
    pieces: list[str] = []
    finish = None
    with httpx.stream("POST", f"{server.url}/chat/completions", json={**body, "stream": True}, timeout=300) as r:
        assert r.status_code == 200, r.read()
        for line in r.iter_lines():
            if not line.startswith("data: ") or line == "data: [DONE]":
                continue
            choice = json.loads(line[6:])["choices"][0]
            pieces.append(choice["delta"].get("content") or "")
            finish = choice.get("finish_reason") or finish
    return pieces, finish


def test_envelope_schemas_compile_to_a_grammar_with_nothing_dropped(llama_python: Path, model_path: Path) -> None:
    schemas = [
        envelope_schema(TOOLS, required=False),
        envelope_schema(TOOLS, required=True),
        envelope_schema(MEMORY_TOOLS, required=True),
        envelope_schema([], required=False),
        envelope_schema([PATTERN_TOOL], required=True),
    ]
    assert grammar_results(llama_python, model_path, schemas) == ["ok"] * len(schemas)
    # The check can fail: the raw pattern is refused by the converter.
    raw = {"type": "object", "properties": {"code": PATTERN_TOOL["parameters"]["properties"]["code"]}}
    assert grammar_results(llama_python, model_path, [raw]) == ["conversion failed: AssertionError"]


def check_envelope(text: str, finish: str | None, result: Any, tools: list[dict[str, Any]], required: bool) -> None:
    """The reply is the envelope the schema describes, or its beginning when the limit cut it."""
    if finish == "length":
        assert [p.kind for p in result.problems if p.rejected] in ([], ["truncated"])
        return
    # strict=False: its grammar lets raw newlines into strings, which the parser takes as text.
    envelope = json.loads(text, strict=False)  # the server kept to the schema: the reply is the envelope
    jsonschema.validate(envelope, envelope_schema(tools, required=required))
    # Every call is either run or rejected by the validator for what the schema cannot carry
    # (a pattern, say: grammars do not take every keyword, the validator checks them all).
    rejected = [p for p in result.problems if p.rejected]
    assert all(p.kind == "invalid_arguments" for p in rejected), rejected
    accounted = sorted([c.name for c in result.tool_calls] + [str(p.tool_name) for p in rejected])
    assert accounted == sorted(c["function"] for c in envelope.get("calls", []))
    assert result.content == envelope.get("reply", "").strip()


def test_remember_becomes_a_schema_valid_memory_call(llama_server: LlamaServer) -> None:
    body = chat(llama_server, MEMORY_TOOLS, "Remember that I like pizza.", required=True)
    r = httpx.post(f"{llama_server.url}/chat/completions", json=body, timeout=300)
    assert r.status_code == 200, r.text
    choice = r.json()["choices"][0]
    text = choice["message"]["content"]
    result = parse_whole(text, MEMORY_TOOLS, choice["finish_reason"], required=True)
    check_envelope(text, choice["finish_reason"], result, MEMORY_TOOLS, required=True)
    assert result.tool_calls, (text, result.problems)
    assert result.tool_calls[0].name in ("memory_insert", "memory_replace")
    assert [p for p in result.problems if p.rejected and p.kind != "truncated"] == []
    schemas = {t["name"]: t["parameters"] for t in MEMORY_TOOLS}
    for call in result.tool_calls:
        jsonschema.validate(call.arguments, schemas[call.name])


def test_unforced_reply_is_always_the_envelope(llama_server: LlamaServer) -> None:
    tools = [*MEMORY_TOOLS, PATTERN_TOOL]
    for said in ("Remember that my sister is called Anna.", "Hello, how are you?"):
        body = chat(llama_server, tools, said, required=False)
        r = httpx.post(f"{llama_server.url}/chat/completions", json=body, timeout=300)
        assert r.status_code == 200, r.text
        choice = r.json()["choices"][0]
        text = choice["message"]["content"]
        result = parse_whole(text, tools, choice["finish_reason"], required=False)
        check_envelope(text, choice["finish_reason"], result, tools, required=False)


def test_streaming_in_small_chunks_gives_the_same_result(llama_server: LlamaServer) -> None:
    body = chat(llama_server, MEMORY_TOOLS, "Remember that I live in Lyon.", required=True)
    pieces, finish = stream_text(llama_server, body)
    text = "".join(pieces)
    parser = EnvelopeParser(MEMORY_TOOLS, required=True)
    events = []
    for piece in pieces:  # each delta, cut again into pieces of up to 3 characters
        for i in range(0, len(piece), 3):
            events += parser.feed(piece[i : i + 3])
    events += parser.close(finish)
    result = parser.result
    assert result == parse_whole(text, MEMORY_TOOLS, finish, required=True)
    check_envelope(text, finish, result, MEMORY_TOOLS, required=True)
    assert result.tool_calls and result.tool_calls[0].name in ("memory_insert", "memory_replace")
    assert "".join(e.text for e in events).strip() == result.content, "only the reply's text is streamed"
    assert [e.call for e in events if e.call] == result.tool_calls


def test_a_refused_schema_request_is_recognised(llama_server: LlamaServer) -> None:
    # OpenAI's own form: llama-cpp-python's request model accepts only "text" and "json_object".
    body = chat(llama_server, MEMORY_TOOLS, "Remember that I like tea.", required=True)
    body.update(schema_request_fields("vllm", envelope_schema(MEMORY_TOOLS, required=True)))
    r = httpx.post(f"{llama_server.url}/chat/completions", json=body, timeout=60)
    assert r.status_code == 500
    assert "response_format" in r.text
    assert schema_rejected(r.status_code, r.text)


def test_an_overflow_names_the_real_context_and_is_not_a_refused_schema(llama_server: LlamaServer) -> None:
    body = chat(llama_server, MEMORY_TOOLS, "word " * 9000, required=True)
    r = httpx.post(f"{llama_server.url}/chat/completions", json=body, timeout=120)
    assert r.status_code == 400
    assert context_from_error(r.text) == 8192  # the only place this server states its context
    assert not schema_rejected(r.status_code, r.text)


async def test_probe_recognises_the_server_and_the_override_supplies_its_context(llama_server: LlamaServer) -> None:
    info = await probe_server(llama_server.url)
    assert info.kind == "llama-cpp-python"
    assert set(info.models) == {llama_server.alias}
    # This server reports no context size anywhere, so none is made up ...
    assert info.models[llama_server.alias].context_window is None
    assert any(CONTEXT_ENV in note for note in info.notes)
    # ... and the setting the note names gives the one it runs with.
    rules, errors = parse_context_overrides(f"openai-proxy/{llama_server.alias}*=8192")
    assert errors == []
    assert context_override(f"openai-proxy/{llama_server.alias}", rules) == llama_server.n_ctx == 8192


@pytest.mark.parametrize("base", ["", "/v1", "/v1/"])
async def test_probe_accepts_the_url_with_or_without_v1(llama_server: LlamaServer, base: str) -> None:
    root = llama_server.url[: -len("/v1")]
    assert (await probe_server(root + base)).kind == "llama-cpp-python"


def test_a_greedy_reply_depends_on_its_prompt_alone(llama_server: LlamaServer) -> None:
    # The session's server evaluates every prompt whole. Reusing the evaluated prefix instead,
    # these prompts got another reply the second time running (the last token evaluated on
    # its own), and the tests' counts depended on which test had run before.
    base = "You are Sam, a helpful agent. " * 40 + "<memory_metadata>\n- AGENT_ID: agent-{}\n</memory_metadata>\n"
    first = base.format(1234) + "User: Remember that I like pizza.\nAssistant:"
    second = base.format(9876) + "User: Remember that I live in Lyon.\nAssistant:"

    def reply(prompt: str) -> str:
        body = {"model": llama_server.alias, "prompt": prompt, "max_tokens": 60, "temperature": 0.0, "top_k": 1}
        r = httpx.post(f"{llama_server.url}/completions", json=body, timeout=300)
        assert r.status_code == 200, r.text
        return str(r.json()["choices"][0]["text"])

    alone = reply(second)
    assert alone.strip()
    assert reply(second) == alone  # the same prompt again
    reply(first)
    assert reply(second) == alone  # after a prompt that shares its beginning
