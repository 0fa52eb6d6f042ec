"""The call blocks' structural tag (core/structural_tag.py), checked by xgrammar, the engine vLLM
and SGLang compile it with. Runs in .venv-xgrammar (``python3 dev.py test --xgrammar``).

The tag is built as the engine builds it for a request to vLLM (Letta's base tools and the
tests' custom tools, the agent's block labels narrowed to an enum), and for each calibration
question's BFCL tools. It is compiled exactly as vLLM's xgrammar backend does (the request's
``response_format`` serialised, then ``StructuralTagItem``s and ``compile_structural_tag`` with
its triggers; ``Grammar.from_structural_tag`` is vLLM's validation of it). A matcher then reads
whole replies, to the end of generation: prose alone passes; prose with valid calls (arguments
drawn from each tool's own schema, seeded) passes, and the parser performs exactly those calls;
a label outside the enum, a required argument left out, an unknown argument, an unknown function,
a marker with no call after it and a block that never ends are refused.

What is not checked here: a vLLM or SGLang server itself (their request models, sampling under
the tag); the tag is what their source hands to xgrammar.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from letta_tool_emulation import engine
from letta_tool_emulation.core import CALL_START, parse_tool_calls
from letta_tool_emulation.core.structural_tag import call_structural_tag
from letta_tool_emulation.core.tools import ToolSpec, normalize_tools
from letta_tool_emulation.step import Decision
from tests.schema_values import block, value


@functools.cache
def xgr() -> Any:
    """xgrammar, imported when a test first needs it rather than when the module is collected:
    the whole suite collects this module in .venv, which has no xgrammar, and deselects the tier
    there (it runs in .venv-xgrammar after)."""
    if os.environ.get("XGRAMMAR_TIER"):  # dev.py runs the tier: an environment without xgrammar is a failure
        import xgrammar

        return xgrammar
    return pytest.importorskip(
        "xgrammar", reason="the xgrammar tier runs in .venv-xgrammar: python3 dev.py test --xgrammar"
    )


ROOT = Path(__file__).resolve().parents[2]
TOOLS = json.loads((ROOT / "tests/data/tools.json").read_text(encoding="utf-8"))["tools"]
QUESTIONS = json.loads((ROOT / "letta_tool_emulation/data/calibration_questions.json").read_text())["questions"]
# The agent's memory blocks, as Letta writes them into the system message.
SYSTEM = (
    "You are Sam.\n<memory_blocks>\n"
    "<persona>\n<description>\nWho you are.\n</description>\n<metadata>\n- chars_current=12\n- chars_limit=5000\n"
    "</metadata>\n<value>\nI am Sam.\n</value>\n</persona>\n"
    "<human>\n<description>\nThe user.\n</description>\n<metadata>\n- chars_current=20\n- chars_limit=5000\n"
    "</metadata>\n<value>\nThe user is Chad.\n</value>\n</human>\n</memory_blocks>"
)
EXAMPLES = 16  # random valid replies per tool list
# A vocabulary of single characters: the matcher reads the text itself, so any vocabulary that
# can spell it does; the last token ends generation.
VOCAB = [chr(i) for i in range(32, 127)] + ["\n", "\t", "</s>"]
STOP = len(VOCAB) - 1


@pytest.fixture(scope="module")
def compiler() -> Any:
    info = xgr().TokenizerInfo(VOCAB, vocab_type=xgr().VocabType.RAW, stop_token_ids=[STOP])
    return xgr().GrammarCompiler(info, max_threads=1)


def compile_as_vllm(compiler: Any, response_format: Mapping[str, Any]) -> Any:
    """vLLM's xgrammar backend on a legacy structural tag (backend_xgrammar.py: the request's
    ``response_format`` reaches it as a JSON string)."""
    s_tag = json.loads(json.dumps(response_format))
    tags = [
        xgr().StructuralTagItem(begin=s["begin"], schema=json.dumps(s["schema"]), end=s["end"])
        for s in s_tag["structures"]
    ]
    xgr().Grammar.from_structural_tag(tags, s_tag["triggers"])  # validate_xgrammar_grammar
    return compiler.compile_structural_tag(tags, s_tag["triggers"])


def accepts(compiled: Any, text: str) -> bool:
    """Whether ``text`` is a whole reply the tag allows, generation ended after it."""
    matcher = xgr().GrammarMatcher(compiled)
    return bool(matcher.accept_string(text) and matcher.accept_token(STOP) and matcher.is_terminated())


def engine_tag(tools: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``response_format`` the engine sends vLLM with a free-text request."""
    data = {"model": "m", "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Hi"}],
            "tools": tools, "tool_choice": "auto"}  # fmt: skip
    req = engine.prepare(data, decision=Decision(True, "test", grammar_kind="vllm"), log=logging.getLogger("test"))
    assert req.step.grammar_kind == "vllm"
    return dict(req["response_format"])


def held_specs(tag: Mapping[str, Any]) -> list[ToolSpec]:
    """The tools as the tag holds them: each structure's function and schema."""
    found = []
    for s in tag["structures"]:
        name = json.loads(s["begin"].removeprefix(f"{CALL_START}\n") + "{}}")["function"]
        found.append(ToolSpec(name, "", s["schema"]))
    return found


def tool_lists() -> dict[str, dict[str, Any]]:
    lists = {"letta base tools and test tools (as the engine sends them)": engine_tag(TOOLS)}
    for q in QUESTIONS:
        tag = call_structural_tag(normalize_tools(q["tools"]).values())
        assert tag is not None
        lists[f"calibration {q['id']}"] = tag
    return lists


def test_the_tag_compiles_and_holds_every_call_block_to_its_tool(compiler: Any) -> None:
    rng = random.Random(20)
    for name, tag in tool_lists().items():
        compiled = compile_as_vllm(compiler, tag)
        specs = held_specs(tag)
        prose = "Just prose: no tool is needed. TOOL_CALL_END, TOOL_CALL_STAR and T."
        assert accepts(compiled, prose), name
        for _ in range(EXAMPLES):
            calls = [(s.name, value(s.parameters, rng)) for s in rng.choices(specs, k=rng.randint(1, 3))]
            before = rng.choice(["", "Sure.\n", "Let me check that TOOL_CALL_END for you:\n"])
            text = before + "\n".join(block(n, p) for n, p in calls) + rng.choice(["", "\nDone.", "\nTOOL_"])
            assert accepts(compiled, text), f"{name}: refused {text!r}"
            # What the tag lets through, the parser performs, exactly.
            result = parse_tool_calls(text, specs)
            assert [(c.name, c.arguments) for c in result.tool_calls] == calls, f"{name}: {text!r}"
        spec = specs[0]
        args = value(spec.parameters, rng)
        refused = [
            block("no_such_tool_anywhere", args),  # a function no tool has
            "I will call it now:\nTOOL_CALL_START\nlet me think",  # the marker, then no call
            block(spec.name, args).removesuffix("\nTOOL_CALL_END"),  # a block that never ends
            block(spec.name, {**args, "no_such_argument": 1}),  # an argument the tool does not take
        ]
        refused += [block(spec.name, {k: v for k, v in args.items() if k != p}) for p in spec.required[:1]]
        for text in refused:
            assert not accepts(compiled, text), f"{name}: accepted {text!r}"


def test_the_agents_block_labels_hold_the_memory_tools(compiler: Any) -> None:
    tag = engine_tag(TOOLS)
    compiled = compile_as_vllm(compiler, tag)
    good = {"label": "human", "content": "The user likes figs."}
    assert accepts(compiled, "Noted.\n" + block("core_memory_append", good))
    # Letta would refuse a block that does not exist; the tag never lets one be written.
    assert not accepts(compiled, block("core_memory_append", {**good, "label": "Mochi"}))
    assert not accepts(compiled, block("core_memory_append", {"label": "human"}))  # content is required
    # The replace tools' old text is a line of the block their label names.
    replace = {"label": "human", "old_string": "The user is Chad.", "new_string": "The user is Ana."}
    assert accepts(compiled, block("memory_replace", replace))
    assert not accepts(compiled, block("memory_replace", {**replace, "old_string": "The user is Bob."}))
    assert not accepts(compiled, block("memory_replace", {**replace, "old_string": "I am Sam."}))  # the persona's
    forced = compile_as_vllm(compiler, engine_tag([t for t in TOOLS if t["name"] == "send_message"]))
    assert not accepts(forced, block("core_memory_append", good))


def test_a_block_is_held_from_the_marker_on_wherever_it_is_written(compiler: Any) -> None:
    # A structural tag cannot say that a block starts a line: a marker a sentence runs into is
    # held to a whole block too, and the parser reads that block as shown, as it would unheld.
    compiled = compile_as_vllm(compiler, engine_tag(TOOLS))
    inline = "I would write " + block("send_message", {"message": "hi"})
    assert accepts(compiled, inline)
    assert not accepts(compiled, "I would write TOOL_CALL_START and so on.")
    assert parse_tool_calls(inline, normalize_tools(TOOLS).values()).tool_calls == []
