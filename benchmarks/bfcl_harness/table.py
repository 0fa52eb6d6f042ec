"""The benchmark's table, from per-question results. Pure Python: ``benchmarks/bfcl.py`` imports it
from the product's environment, where bfcl-eval is not installed."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from typing import Any

CATEGORIES = (
    "simple_python",
    "multiple",
    "parallel",
    "parallel_multiple",
    "irrelevance",
    "live_simple",
    "live_multiple",
    "live_irrelevance",
    "multi_turn_base",
)
IRRELEVANCE = ("irrelevance", "live_irrelevance")
ENTRIES = ("emulated-free", "emulated-constrained", "native-chatml-function-calling", "bfcl-prompting")


def accuracy(records: Iterable[Mapping[str, Any]]) -> float | None:
    valid = [bool(r["valid"]) for r in records]
    return sum(valid) / len(valid) if valid else None


def summarize(
    records: list[Mapping[str, Any]], entries: Iterable[str], categories: Iterable[str]
) -> dict[str, dict[str, Any]]:
    """Per entry: accuracy per category, the share of irrelevant questions answered without a
    call, mean tokens (prompt and completion, all requests) per question, the median request
    latency, and how many questions ended in an error (counted as wrong, as BFCL does)."""
    categories = list(categories)
    summary: dict[str, dict[str, Any]] = {}
    for entry in entries:
        mine = [r for r in records if r["entry"] == entry]
        latencies = [t for r in mine for t in r["latencies"]]
        scored = [accuracy([r for r in mine if r["category"] == c]) for c in categories]
        present = [a for a in scored if a is not None]
        summary[entry] = {
            "accuracy": dict(zip(categories, scored, strict=True)),
            "mean": sum(present) / len(present) if present else None,
            "irrelevance": accuracy([r for r in mine if r["category"] in IRRELEVANCE]),
            "tokens_per_question": statistics.fmean(r["input_tokens"] + r["output_tokens"] for r in mine)
            if mine
            else None,
            "median_latency": statistics.median(latencies) if latencies else None,
            "errors": sum(1 for r in mine if r.get("error_type") == "inference_error"),
            "questions": len(mine),
        }
    return summary


def json_report(
    summary: Mapping[str, Mapping[str, Any]],
    *,
    model: str,
    per_category: int,
    unavailable: Mapping[str, str],
    details: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """``{"entries": {entry: {category: accuracy}}, "model": ..., "per_category": N}``; an entry that
    could not run has null accuracies and its reason under ``unavailable``."""
    report: dict[str, Any] = {
        "entries": {entry: dict(row["accuracy"]) for entry, row in summary.items()},
        "model": model,
        "per_category": per_category,
    }
    if unavailable:
        report["unavailable"] = dict(unavailable)
    if details is not None:
        report["details"] = details
    return report


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f} %"


def render(summary: Mapping[str, Mapping[str, Any]], unavailable: Mapping[str, str]) -> str:
    """A Markdown table: a column per entry, a row per category, then the summary rows."""
    entries = list(summary)
    categories = list(next(iter(summary.values()))["accuracy"]) if summary else []

    def cells(values: Iterable[str]) -> str:
        return "| " + " | ".join(values) + " |"

    def row(label: str, fmt: Any) -> str:
        return cells([label, *("n/a" if e in unavailable else fmt(summary[e]) for e in entries)])

    lines = [cells(["category", *entries]), cells(["---"] * (len(entries) + 1))]
    for category in categories:
        lines.append(row(category, lambda s, c=category: _percent(s["accuracy"][c])))
    lines.append(row("**mean of categories**", lambda s: _percent(s["mean"])))
    lines.append(row("no call where none fits", lambda s: _percent(s["irrelevance"])))
    lines.append(
        row(
            "tokens per question",
            lambda s: "-" if s["tokens_per_question"] is None else f"{s['tokens_per_question']:,.0f}",
        )
    )
    lines.append(
        row(
            "median request",
            lambda s: "-" if s["median_latency"] is None else f"{s['median_latency']:.1f} s",
        )
    )
    lines.append(row("questions that failed with an error", lambda s: str(s["errors"])))
    notes = [f"{entry}: {reason}" for entry, reason in unavailable.items()]
    return "\n".join([*lines, "", *notes] if notes else lines)
