"""Writes the questions ``letta-tool-emulation calibrate`` asks: a small, seeded sample of the
Berkeley Function Calling Leaderboard's public data (bfcl-eval, Apache-2.0), with BFCL's answers,
as one JSON file shipped in the package. The product never imports bfcl-eval; this script runs in
``.venv-bfcl`` (``python3 dev.py bfcl``) and is only needed to choose the questions again:

    .venv-bfcl/bin/python benchmarks/calibration_questions.py [--per-kind 8] [--seed 7] [--output PATH]
    .venv-bfcl/bin/python benchmarks/calibration_questions.py --score CASES.json

With ``--score`` it reads ``[{"id": question id, "calls": [{"name", "arguments"}]}]`` and prints, for
each, whether BFCL's own ``ast_checker`` finds the calls right (the tests compare that with the
product's checker).

The questions are loaded as ``bfcl_harness`` loads them (BFCL's own loader), the functions turned
into OpenAI tools by BFCL's own ``convert_to_tool`` (dots in names become underscores, BFCL's types
become JSON Schema's), and only questions whose answers the product's small checker reads exactly
are kept: arguments of scalar types or lists of scalars, a single user turn.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bfcl_harness._bfcl import (  # noqa: E402
    GORILLA_TO_OPENAPI,
    ModelStyle,
    convert_to_tool,
    load_dataset_entry,
    load_ground_truth_entry,
)
from bfcl_harness.inference import SYSTEM_MESSAGE  # noqa: E402

TARGET = ROOT / "letta_tool_emulation" / "data" / "calibration_questions.json"
# The probe's kinds of question, and the BFCL category each is drawn from.
KINDS = {"single": "simple_python", "multiple": "multiple", "parallel": "parallel", "irrelevance": "irrelevance"}
SCALARS = {"string", "integer", "float", "boolean"}


def _simple_function(function: dict[str, Any]) -> bool:
    for spec in function["parameters"].get("properties", {}).values():
        kind = spec.get("type")
        if kind in SCALARS:
            continue
        if kind in ("array", "list") and (spec.get("items") or {}).get("type") in SCALARS:
            continue
        return False
    return True


def _simple_value(value: Any) -> bool:
    if isinstance(value, list):
        return all(isinstance(v, str | int | float | bool) for v in value)
    return isinstance(value, str | int | float | bool)


def _underscored(name: str) -> str:
    return re.sub(r"\.", "_", name)


def pick(kind: str, per_kind: int, seed: int) -> list[dict[str, Any]]:
    category = KINDS[kind]
    entries = load_dataset_entry(category)
    answers = None if kind == "irrelevance" else load_ground_truth_entry(category)
    usable = []
    for index, entry in enumerate(entries):
        turns = entry["question"]
        if len(turns) != 1 or len(turns[0]) != 1 or turns[0][0]["role"] != "user":
            continue
        if not all(_simple_function(f) for f in entry["function"]):
            continue
        expected: list[dict[str, Any]] = []
        if answers is not None:
            truth = answers[index]
            if truth["id"] != entry["id"]:
                raise ValueError(f"BFCL's {category} data and answers are not in the same order: {entry['id']}")
            calls = truth["ground_truth"]
            if not all(
                _simple_value(v) for call in calls for args in call.values() for vs in args.values() for v in vs
            ):
                continue
            expected = [
                {"name": _underscored(name), "arguments": args} for call in calls for name, args in call.items()
            ]
        usable.append((entry, expected))
    chosen = sorted(random.Random(f"{seed}/{kind}").sample(range(len(usable)), per_kind))
    out = []
    for i in chosen:
        entry, expected = usable[i]
        tools = convert_to_tool(entry["function"], GORILLA_TO_OPENAPI, ModelStyle.OPENAI_COMPLETIONS)
        out.append(
            {
                "id": entry["id"],
                "kind": kind,
                "question": entry["question"][0][0]["content"],
                "tools": tools,  # OpenAI tools already: {"type": "function", "function": {...}}
                "expected": expected,
            }
        )
    return out


def score(cases_path: Path) -> list[bool]:
    """BFCL's verdict on each case, from its own checker, as its evaluation runner calls it for a
    function-calling model (tool names with underscores for dots)."""
    import copy

    from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker
    from bfcl_harness._bfcl import MODEL_CONFIG_MAPPING, Language

    model = next(name for name, config in MODEL_CONFIG_MAPPING.items() if config.underscore_to_dot)
    data: dict[str, tuple[str, Any, Any]] = {}
    for kind, category in KINDS.items():
        if kind == "irrelevance":
            continue
        entries = load_dataset_entry(category, include_prereq=False, include_language_specific_hint=False)
        for entry, truth in zip(entries, load_ground_truth_entry(category), strict=True):
            data[entry["id"]] = (category, entry["function"], truth["ground_truth"])
    verdicts = []
    for case in json.loads(cases_path.read_text()):
        if case["id"].startswith("irrelevance"):
            verdicts.append(not case["calls"])  # BFCL's rule: right when the reply decodes to no call
            continue
        category, functions, truth = data[case["id"]]
        output = [{call["name"]: call["arguments"]} for call in case["calls"]]
        checked = ast_checker(
            copy.deepcopy(functions), output, copy.deepcopy(truth), Language.PYTHON, category, model.replace("/", "_")
        )
        verdicts.append(bool(checked["valid"]))
    return verdicts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", type=int, default=8)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--output", type=Path, default=TARGET)
    parser.add_argument("--score", type=Path, metavar="CASES", help="print BFCL's verdicts on these calls")
    args = parser.parse_args()
    if args.score is not None:
        print(json.dumps(score(args.score)))
        return 0
    from importlib.metadata import version

    questions = [q for kind in KINDS for q in pick(kind, args.per_kind, args.seed)]
    data = {
        "source": (
            f"Berkeley Function Calling Leaderboard, bfcl-eval {version('bfcl-eval')} "
            "(https://github.com/ShishirPatil/gorilla), Apache License 2.0. "
            f"A seeded sample ({args.per_kind} per kind, seed {args.seed}) of the categories "
            + ", ".join(f"{c} ({k})" for k, c in KINDS.items())
            + ", written by benchmarks/calibration_questions.py: functions as OpenAI tools (BFCL's convert_to_tool), "
            "answers as BFCL's possible answers (any listed value is right; an empty string: the argument may be left out)."
        ),
        "system_message": SYSTEM_MESSAGE,
        "questions": questions,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(questions)} questions written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
