"""The call blocks' grammar (core/grammar.py), checked by llama.cpp's own grammar engine.

Every tool list the repository holds (Letta's base tools and the tests' custom tools, the
proxy tests' memory tools, each calibration question's BFCL tools) gives a grammar that
libllama loads, as llama-server loads a request's ``grammar``. For each, random valid calls
(arguments drawn from the tool's own schema, seeded), written as canonical blocks with prose
around them, are accepted to the end of generation; calls no tool allows, and a marker with no
call after it, are refused; prose alone always passes.
"""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from letta_tool_emulation.core.grammar import call_block_grammar
from letta_tool_emulation.core.tools import ToolSpec, normalize_tools
from tests.local.conftest import llama_python, model_path  # noqa: F401 - the real model's fixtures
from tests.proxy.conftest import MEMORY_TOOLS
from tests.schema_values import WORDS as SHARED_WORDS
from tests.schema_values import block, value

ROOT = Path(__file__).resolve().parents[2]
CHECK = Path(__file__).with_name("gbnf_check.py")
EXAMPLES = 12  # random valid calls per tool list


def tool_lists() -> dict[str, list[ToolSpec]]:
    lists = {
        "letta base tools and test tools": json.loads((ROOT / "tests/data/tools.json").read_text())["tools"],
        "proxy memory tools": MEMORY_TOOLS,
    }
    questions = json.loads((ROOT / "letta_tool_emulation/data/calibration_questions.json").read_text())["questions"]
    for q in questions:
        lists[f"calibration {q['id']}"] = q["tools"]
    return {name: list(normalize_tools(tools).values()) for name, tools in lists.items()}


def check(python: Path, model: Path, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    done = subprocess.run(
        [str(python), str(CHECK)],
        input=json.dumps({"model": str(model), "cases": cases}),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


# Beside the shared strings, DEL: JSON allows it unescaped, and the grammar must too.
WORDS = (*SHARED_WORDS, "x\x7f")


def valid_reply(specs: list[ToolSpec], rng: random.Random) -> str:
    calls = [rng.choice(specs) for _ in range(rng.randint(1, 3))]
    # A block starts a line, first in the reply or after prose that ends one.
    prose = ["", "Sure.\n", "Let me check that TOOL_CALL_END for you:\n", "TOOL_CALL_STAR is not a marker.\n"]
    parts = [rng.choice(prose) + block(s.name, value(s.parameters, rng, WORDS)) for s in calls]
    return "\n".join(parts) + rng.choice(["", "\nDone.", " TOOL_"])


def invalid_replies(specs: list[ToolSpec], rng: random.Random) -> list[str]:
    spec = specs[0]
    args = value(spec.parameters, rng, WORDS)
    bad = [
        block("no_such_tool_anywhere", args),  # a function no tool has
        "I will call it now:\nTOOL_CALL_START\nlet me think",  # the marker, then no call
        "I will save it by using " + block(spec.name, args),  # a sentence that runs into a block
        block(spec.name, args) + block(spec.name, args),  # a block that does not start a line
        block(spec.name, args).removesuffix("\nTOOL_CALL_END"),  # a block that never ends
    ]
    for pname in spec.required:  # a required argument left out
        bad.append(block(spec.name, {k: v for k, v in args.items() if k != pname}))
        break
    for pname, pschema in spec.properties.items():  # a value outside the enum
        if isinstance(pschema, Mapping) and isinstance(pschema.get("enum"), list) and pname in args:
            bad.append(block(spec.name, {**args, pname: "certainly-not-one-of-them"}))
            break
    return bad


@pytest.mark.parametrize("several", [True, False])
def test_every_tool_list_gives_a_grammar_that_llama_cpp_loads_and_that_holds_calls_to_the_schemas(
    llama_python: Path,  # noqa: F811
    model_path: Path,  # noqa: F811
    several: bool,
) -> None:
    rng = random.Random(20)
    lists = tool_lists()
    cases, expected = [], []
    for specs in lists.values():
        grammar = call_block_grammar(specs, several=several)
        assert grammar is not None
        texts, wanted = ["Just prose: no tool is needed. TOOL_CALL_END, TOOL_CALL_STAR and T."], [True]
        for _ in range(EXAMPLES):
            text = valid_reply(specs, rng)
            texts.append(text)
            wanted.append(several or text.count("TOOL_CALL_START") == 1)
        bad = invalid_replies(specs, rng)
        texts += bad
        wanted += [False] * len(bad)
        cases.append({"grammar": grammar.grammar, "texts": texts})
        expected.append(wanted)
    results = check(llama_python, model_path, cases)
    for name, result, case, wanted in zip(lists, results, cases, expected, strict=True):
        assert result["loaded"], f"{name}: llama.cpp could not load the grammar"
        wrong = [t for t, got, want in zip(case["texts"], result["accepted"], wanted, strict=True) if got != want]
        assert not wrong, f"{name}: {len(wrong)} replies judged wrongly, the first: {wrong[0]!r}"


def test_a_required_call_refuses_prose_alone_and_a_forced_tool_is_the_only_one(
    llama_python: Path,  # noqa: F811
    model_path: Path,  # noqa: F811
) -> None:
    specs = list(normalize_tools(MEMORY_TOOLS).values())
    required = call_block_grammar(specs, required=True)
    forced = call_block_grammar(specs[:1], required=True)
    assert required is not None and forced is not None
    first, second = specs[0], specs[1]
    rng = random.Random(3)
    call_first, call_second = (
        block(first.name, value(first.parameters, rng, WORDS)),
        block(second.name, value(second.parameters, rng, WORDS)),
    )
    results = check(
        llama_python,
        model_path,
        [
            {"grammar": required.grammar, "texts": ["No call here.", "Ok.\n" + call_second]},
            {"grammar": forced.grammar, "texts": [call_first, call_second]},
        ],
    )
    assert [r["accepted"] for r in results] == [[False, True], [True, False]]
