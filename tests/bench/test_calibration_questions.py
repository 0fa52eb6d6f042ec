"""The questions ``letta-tool-emulation calibrate`` ships are BFCL's, as
``benchmarks/calibration_questions.py`` writes them from BFCL's package, and the product's small
checker gives BFCL's own checker's verdict on right answers and on many ways of getting them wrong."""

from __future__ import annotations

import copy
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from letta_tool_emulation.calibrate import Question, check, load_questions

from .harness import BENCHMARKS

SHIPPED = BENCHMARKS.parent / "letta_tool_emulation" / "data" / "calibration_questions.json"
SCRIPT = BENCHMARKS / "calibration_questions.py"


def test_the_shipped_questions_are_what_the_script_writes_from_bfcl(bfcl_python: Path, tmp_path: Path) -> None:
    written = tmp_path / "questions.json"
    subprocess.run([str(bfcl_python), str(SCRIPT), "--output", str(written)], check=True, timeout=600)
    assert json.loads(written.read_text()) == json.loads(SHIPPED.read_text())


def _mutations(value: Any) -> Iterator[Any]:
    yield str(value)
    yield [value]
    if isinstance(value, str):
        yield value.upper()
        yield value + " and more"
    if type(value) is int:
        yield float(value)
        yield value + 1
    if type(value) is float:
        yield value * 2
        if value.is_integer():
            yield int(value)
    if isinstance(value, list):
        yield value[::-1]
        yield value[:1]


def _variants(q: Question) -> Iterator[list[dict[str, Any]]]:
    """A right answer (each argument's first listed value), then answers changed one way at a time."""
    right = [
        {"name": e["name"], "arguments": {p: vs[0] for p, vs in e["arguments"].items() if vs[0] != ""}}
        for e in q.expected
    ]
    yield right
    yield right[::-1]
    yield []
    yield right[:1]
    yield [*right, right[0]]
    for i, expected in enumerate(q.expected):
        for param, values in expected["arguments"].items():
            for value in values:  # every listed value, "" meaning left out
                calls = copy.deepcopy(right)
                if value == "":
                    calls[i]["arguments"].pop(param, None)
                else:
                    calls[i]["arguments"][param] = value
                yield calls
            calls = copy.deepcopy(right)
            calls[i]["arguments"].pop(param, None)
            yield calls
            first = next((v for v in values if v != ""), None)
            for changed in _mutations(first):
                calls = copy.deepcopy(right)
                calls[i]["arguments"][param] = changed
                yield calls
        calls = copy.deepcopy(right)
        calls[i]["arguments"]["unasked_for"] = 1
        yield calls
        calls = copy.deepcopy(right)
        calls[i]["name"] = "another_tool"
        yield calls


def test_the_checker_agrees_with_bfcls_own(bfcl_python: Path, tmp_path: Path) -> None:
    cases, mine = [], []
    for q in load_questions().questions:
        tool = q.tools[0]["function"]["name"]
        for calls in [[], [{"name": tool, "arguments": {}}]] if q.kind == "irrelevance" else _variants(q):
            cases.append({"id": q.id, "calls": calls})
            mine.append(check(q, calls) is None)
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases))
    done = subprocess.run(
        [str(bfcl_python), str(SCRIPT), "--score", str(path)], capture_output=True, text=True, timeout=600, check=True
    )
    theirs = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(theirs) == len(cases) > 500
    assert 0.1 < sum(mine) / len(mine) < 0.9  # both kinds of verdict are exercised
    differ = [(c, m) for c, m, t in zip(cases, mine, theirs, strict=True) if m != t]
    assert not differ, differ[:5]
