"""``python -m bfcl_harness COMMAND`` (from ``benchmarks/``, in ``.venv-bfcl``).

run --spec SPEC.json --out RESULTS.jsonl
    asks every sampled question of every endpoint in SPEC and scores it; one JSON line per
    question and entry in RESULTS, progress on standard output
questions --categories A,B --per-category N [--seed S] [--ids ID,...]
    the sampled (or named) questions as each entry would be asked them, with their answers
    (JSON on standard output)
chart --report REPORT.json --out CHART.png
    draws the benchmark's table
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any


def _short(value: Any, limit: int = 2000) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= limit else text[:limit] + "..."


def _run(spec: dict[str, Any], out: Path) -> int:
    from .inference import BenchHandler, Endpoint, ask, forget_state, register
    from .questions import load_questions
    from .scoring import score

    endpoints = [Endpoint(e["entry"], e["base_url"], spec["model"], e["function_calling"]) for e in spec["endpoints"]]
    handlers = []
    for endpoint in endpoints:
        register(endpoint)
        handlers.append(
            BenchHandler(endpoint, max_tokens=spec["max_tokens"], seed=spec["seed"], timeout=spec["timeout"])
        )
    questions = load_questions(spec["categories"], spec["per_category"], spec["seed"], spec.get("ids"))
    print(f"{len(questions)} questions x {len(handlers)} entries", flush=True)
    with out.open("a", encoding="utf-8") as sink:
        # Question by question, every entry in turn: a drift in the machine's load over the run
        # then touches every entry alike.
        for number, question in enumerate(questions, 1):
            verdicts = []
            for handler in handlers:
                started = time.monotonic()
                asked = ask(handler, question, spec["max_steps"])
                verdict = score(handler, question, asked.result)
                record = {
                    "entry": handler._endpoint.entry,
                    "category": question.category,
                    "id": question.id,
                    "valid": verdict.valid,
                    "error_type": "inference_error" if asked.error else verdict.error_type,
                    "error": asked.error or verdict.error,
                    "input_tokens": asked.input_tokens,
                    "output_tokens": asked.output_tokens,
                    "latencies": asked.latencies,
                    "seconds": time.monotonic() - started,
                    # What the entry answered, as BFCL's handler returned it (for reading, cut short).
                    "reply": _short(asked.result),
                }
                sink.write(json.dumps(record) + "\n")
                sink.flush()
                mark = "ok" if verdict.valid else ("ERROR" if asked.error else "wrong")
                verdicts.append(f"{handler._endpoint.entry} {mark} {record['seconds']:.0f}s")
            forget_state(question)
            print(f"[{number}/{len(questions)}] {question.id}: " + ", ".join(verdicts), flush=True)
    return 0


def _questions(categories: list[str], per_category: int, seed: int, ids: list[str] | None) -> int:
    from ._bfcl import GORILLA_TO_OPENAPI, ModelStyle, convert_to_tool, system_prompt_pre_processing_chat_model
    from .inference import SYSTEM_MESSAGE, with_system_message
    from .questions import load_questions

    shown = []
    for question in load_questions(categories, per_category, seed, ids):
        entry = with_system_message(question.fresh_entry())
        prompted = system_prompt_pre_processing_chat_model(entry["question"][0], entry["function"], entry["id"])
        shown.append(
            {
                "id": question.id,
                "category": question.category,
                "messages": question.entry["question"],
                "functions": question.entry["function"],
                "tools": convert_to_tool(question.entry["function"], GORILLA_TO_OPENAPI, ModelStyle.OPENAI_COMPLETIONS),
                "system_prompt": prompted[0]["content"],  # BFCL's prompting format, as sent
                "system_message": SYSTEM_MESSAGE,  # what every entry gets when a question has none
                "answer": question.answer,
            }
        )
    json.dump(shown, sys.stdout)
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bfcl_harness", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run")
    run.add_argument("--spec", type=Path, required=True)
    run.add_argument("--out", type=Path, required=True)
    questions = commands.add_parser("questions")
    questions.add_argument("--categories", required=True)
    questions.add_argument("--per-category", type=int, required=True)
    questions.add_argument("--seed", type=int, default=0)
    questions.add_argument("--ids", help="comma-separated question ids instead of a sample")
    chart = commands.add_parser("chart")
    chart.add_argument("--report", type=Path, required=True)
    chart.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "run":
        return _run(json.loads(args.spec.read_text()), args.out)
    if args.command == "questions":
        ids = args.ids.split(",") if args.ids else None
        return _questions(args.categories.split(","), args.per_category, args.seed, ids)
    from .chart import draw

    draw(json.loads(args.report.read_text()), args.out)
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
