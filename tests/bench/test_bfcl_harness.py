"""The BFCL harness on real BFCL questions, scored by BFCL's real checker, with the stand-in model
scripted to give right and wrong answers over real HTTP: question loading, BFCL's types turned
into JSON Schema, what each entry sends, the multi-turn replay against BFCL's simulated APIs, the
scoring glue, the table and the JSON report. No model is needed."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from letta_tool_emulation.runtime.standin import NATIVE_MODEL, StandIn

from .harness import BENCHMARKS, harness, questions, read_lines

sys.path.insert(0, str(BENCHMARKS))
from bfcl_harness.table import CATEGORIES, ENTRIES, json_report, render, summarize

HINT = " Note that the provided function is in Python 3 syntax."
BFCL_TYPES = {"dict": "object", "float": "number", "tuple": "array", "any": "string"}
OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


# Chosen for what they contain: a dotted function name (live_simple_2-2-0), parallel calls, a
# question no function fits, and a multi-turn question whose answers name every argument.
NAMED = {
    "simple_python_1": "simple_python",
    "parallel_0": "parallel",
    "live_simple_2-2-0": "live_simple",
    "irrelevance_0": "irrelevance",
    "multi_turn_base_1": "multi_turn_base",
}


@pytest.fixture(scope="module")
def named(bfcl_python: Path) -> dict[str, dict[str, Any]]:
    categories = ",".join(dict.fromkeys(NAMED.values()))
    return {q["id"]: q for q in questions(bfcl_python, categories, 1, ids=",".join(NAMED))}


def raw(data: Path, category: str, answers: bool = False) -> list[dict[str, Any]]:
    folder = data / "possible_answer" if answers else data
    return [json.loads(line) for line in (folder / f"BFCL_v4_{category}.json").read_text().splitlines()]


# -- questions ------------------------------------------------------------------------------


def test_samples_are_bfcl_questions_chosen_deterministically(bfcl_python: Path, bfcl_data: Path) -> None:
    categories = "simple_python,irrelevance,live_simple,multi_turn_base"
    first = questions(bfcl_python, categories, 3, seed=7)
    again = questions(bfcl_python, categories, 3, seed=7)
    other = questions(bfcl_python, categories, 3, seed=8)
    assert [q["id"] for q in first] == [q["id"] for q in again]
    assert [q["id"] for q in first] != [q["id"] for q in other]
    assert [q["category"] for q in first] == [c for c in categories.split(",") for _ in range(3)]
    for q in first:
        entries = raw(bfcl_data, q["category"])
        index = next(i for i, e in enumerate(entries) if e["id"] == q["id"])
        assert q["messages"] == entries[index]["question"]
        if q["category"] == "irrelevance":
            assert q["answer"] is None
        else:
            # Aligned by position, as BFCL's evaluation runner aligns them.
            assert q["answer"] == raw(bfcl_data, q["category"], answers=True)[index]["ground_truth"]
        if q["category"] == "multi_turn_base":
            # Multi-turn questions get the function docs of the classes they involve.
            involved = entries[index]["involved_classes"]
            assert q["functions"] and len(involved) >= 1
        else:
            # As BFCL's generation step asks them: each description ends with the language hint.
            assert [f["description"] for f in q["functions"]] == [
                f["description"] + HINT for f in entries[index]["function"]
            ]


def _bfcl_types(schema: Any, path: str = "") -> dict[str, str]:
    found: dict[str, str] = {}
    if isinstance(schema, dict):
        if isinstance(schema.get("type"), str):
            found[path] = schema["type"]
        for key in ("properties",):
            for name, sub in (schema.get(key) or {}).items():
                found.update(_bfcl_types(sub, f"{path}/{name}"))
        if isinstance(schema.get("items"), dict):
            found.update(_bfcl_types(schema["items"], f"{path}[]"))
    return found


def test_bfcl_functions_become_openai_tools_with_json_schema(bfcl_python: Path) -> None:
    # Every question of two categories: BFCL's rarer types (tuple: one question) come up too.
    sample = questions(bfcl_python, "simple_python,live_simple", 10_000)
    seen_types: set[str] = set()
    dotted = 0
    for q in sample:
        assert len(q["tools"]) == len(q["functions"])
        for function, tool in zip(q["functions"], q["tools"], strict=True):
            assert tool["type"] == "function"
            spec = tool["function"]
            # OpenAI names allow no dots: BFCL turns them into underscores, its checker turns them back.
            assert OPENAI_NAME.match(spec["name"]), spec["name"]
            assert spec["name"] == function["name"].replace(".", "_")
            dotted += "." in function["name"]
            parameters = spec["parameters"]
            jsonschema.Draft202012Validator.check_schema(parameters)
            assert parameters["type"] == "object"
            assert parameters.get("required", []) == function["parameters"].get("required", [])
            before, after = _bfcl_types(function["parameters"]), _bfcl_types(parameters)
            for path, kind in before.items():
                if path == "":
                    continue
                seen_types.add(kind)
                assert after[path] == BFCL_TYPES.get(kind, kind), (q["id"], path, kind, after[path])
            assert not set(after.values()) & set(BFCL_TYPES), q["id"]
    # The sample really exercised the conversions it checks.
    assert dotted > 0
    assert {"dict", "float", "tuple", "any"} <= seen_types


def test_bfcl_prompting_uses_bfcl_system_prompt(named: dict[str, dict[str, Any]]) -> None:
    for q in named.values():
        prompt = q["system_prompt"]
        assert prompt.startswith("You are an expert in composing functions.")
        assert "[func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)]" in prompt
        for function in q["functions"]:
            assert json.dumps(function["name"]) in prompt  # the functions as JSON, dotted names as they are


# -- asking and scoring, against the stand-in -----------------------------------------------


def right_calls(answer: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """One acceptable call per ground-truth call: the first acceptable value of each parameter,
    and parameters whose acceptable values include "" (may be left out) left out."""
    calls = []
    for call in answer:
        (name, params), *_ = call.items()
        calls.append((name, {k: v[0] for k, v in params.items() if "" not in v}))
    return calls


def as_tool_calls(calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    return {"tool_calls": [{"name": n.replace(".", "_"), "arguments": a} for n, a in calls]}


def as_python(calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    return {"text": "[" + ", ".join(f"{n}({', '.join(f'{k}={v!r}' for k, v in a.items())})" for n, a in calls) + "]"}


def run_harness(
    python: Path, tmp_path: Path, server: StandIn, entries: list[tuple[str, bool]], ids: list[str], categories: str
) -> list[dict[str, Any]]:
    spec = {
        "model": NATIVE_MODEL,
        "endpoints": [{"entry": e, "base_url": server.url, "function_calling": fc} for e, fc in entries],
        "categories": categories.split(","),
        "per_category": 1,
        "ids": ids,
        "seed": 11,
        "max_tokens": 99,
        "timeout": 60,
        "max_steps": 20,
    }
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    out = tmp_path / "results.jsonl"
    harness(python, "run", "--spec", str(tmp_path / "spec.json"), "--out", str(out))
    return read_lines(out)


def test_single_turn_entries_send_bfcl_requests_and_are_scored_by_bfcl(
    bfcl_python: Path, tmp_path: Path, named: dict[str, dict[str, Any]]
) -> None:
    ids = ["simple_python_1", "parallel_0", "live_simple_2-2-0", "irrelevance_0"]
    categories = "simple_python,parallel,live_simple,irrelevance"
    asked = {i: named[i] for i in ids}
    entries = [("fc-right", True), ("fc-wrong", True), ("prompt-right", False)]
    with StandIn() as server:
        script: list[dict[str, Any]] = []
        for q in sorted(asked.values(), key=lambda q: categories.split(",").index(q["category"])):
            if q["answer"] is None:  # irrelevance: no call is right
                first = q["functions"][0]["name"]
                script += [{"text": "None of these functions fits."}, as_tool_calls([(first, {})])]
                script += [{"text": "I cannot answer that with the functions given."}]
            else:
                calls = right_calls(q["answer"])
                # Wrong: every call without its arguments, so that required ones are missing.
                script += [as_tool_calls(calls), as_tool_calls([(n, {}) for n, _ in calls]), as_python(calls)]
        server.script(*script)
        records = run_harness(bfcl_python, tmp_path, server, entries, ids, categories)
        requests = server.requests
    assert len(records) == len(ids) * len(entries) == len(requests)
    verdicts = {(r["entry"], r["id"]): r for r in records}
    for qid in ids:
        assert verdicts["fc-right", qid]["valid"], verdicts["fc-right", qid]
        assert verdicts["prompt-right", qid]["valid"], verdicts["prompt-right", qid]
        wrong = verdicts["fc-wrong", qid]
        assert not wrong["valid"] and wrong["error_type"] and wrong["error_type"] != "inference_error", wrong
    assert verdicts["fc-wrong", "irrelevance_0"]["error_type"] == "irrelevance_error:decoder_success"
    # What each entry sent: BFCL's messages, tools the OpenAI way, the local server's settings.
    for number, record in enumerate(records):
        body, q = requests[number], asked[record["id"]]
        assert body["model"] == NATIVE_MODEL and body["max_tokens"] == 99 and body["seed"] == 11
        # None of these questions has a system message: every entry gets the same one.
        assert q["messages"][0][0]["role"] != "system"
        if record["entry"].startswith("fc-"):
            assert body["messages"] == [{"role": "system", "content": q["system_message"]}, *q["messages"][0]]
            assert body["tools"] == q["tools"] and body["tool_choice"] == "auto"
        else:
            assert "tools" not in body and "tool_choice" not in body
            # BFCL's prompting format puts its own prompt before it.
            assert q["system_prompt"].endswith("\n\n" + q["system_message"])
            assert body["messages"] == [{"role": "system", "content": q["system_prompt"]}, *q["messages"][0]]
        assert record["input_tokens"] > 0 and record["output_tokens"] > 0 and len(record["latencies"]) == 1


def ground_truth_calls(turn: list[str]) -> list[tuple[str, dict[str, Any]]]:
    calls = []
    for text in turn:
        call = ast.parse(text, mode="eval").body
        assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and not call.args
        calls.append((call.func.id, {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg}))
    return calls


def test_multi_turn_is_replayed_against_bfcl_simulated_apis(
    bfcl_python: Path, tmp_path: Path, named: dict[str, dict[str, Any]]
) -> None:
    q = named["multi_turn_base_1"]
    turns = [ground_truth_calls(t) for t in q["answer"]]
    assert len(turns) == len(q["messages"]) == 4
    done = {"text": "Done."}  # no call: BFCL moves on to the next turn
    script: list[dict[str, Any]] = []
    for calls in turns:  # right, calling the tools the OpenAI way
        script += [as_tool_calls(calls), done]
    for number, calls in enumerate(turns):  # skips the second turn's calls
        script += [done] if number == 1 else [as_tool_calls(calls), done]
    for calls in turns:  # right, in BFCL's prompting format
        script += [as_python(calls), done]
    entries = [("fc-right", True), ("fc-skips", True), ("prompt-right", False)]
    with StandIn() as server:
        server.script(*script)
        records = run_harness(bfcl_python, tmp_path, server, entries, ["multi_turn_base_1"], "multi_turn_base")
        requests = server.requests
    verdicts = {r["entry"]: r for r in records}
    assert verdicts["fc-right"]["valid"], verdicts["fc-right"]
    assert verdicts["prompt-right"]["valid"], verdicts["prompt-right"]
    assert not verdicts["fc-skips"]["valid"]
    assert verdicts["fc-skips"]["error_type"].startswith("multi_turn:"), verdicts["fc-skips"]
    assert len(requests) == len(script)
    assert [len(verdicts[e]["latencies"]) for e, _ in entries] == [8, 7, 8]
    # The first turn's call (ls) ran on BFCL's simulated file system, and its result went back:
    # as a tool message answering the call's id, or in BFCL's prompting format as a user message.
    call_message = requests[1]["messages"][-2]
    first_reply_calls = call_message["tool_calls"]
    # Sent back with empty content, never null (llama-cpp-python's server answers 500 to null).
    assert call_message["role"] == "assistant" and call_message["content"] == ""
    tool_message = requests[1]["messages"][-1]
    assert tool_message["role"] == "tool" and tool_message["tool_call_id"] == first_reply_calls[0]["id"]
    assert "current_directory_content" in json.loads(tool_message["content"])
    prompted = requests[15 + 1]["messages"]
    assert prompted[0]["role"] == "system" and prompted[-1]["role"] == "user"
    assert "current_directory_content" in prompted[-1]["content"] and "'role': 'tool'" in prompted[-1]["content"]
    # Each later turn starts with that turn's user message after the whole history.
    second_turn = requests[2]["messages"]
    assert second_turn[-1] == q["messages"][1][0] and second_turn[1] == q["messages"][0][0]
    assert second_turn[0] == {"role": "system", "content": q["system_message"]}


def test_a_failing_server_is_a_wrong_answer_not_a_crash(bfcl_python: Path, tmp_path: Path) -> None:
    with StandIn() as server:
        server.script({"status": 500, "error": "model crashed"}, {"text": "[]"})
        records = run_harness(
            bfcl_python, tmp_path, server, [("fc", True), ("prompt", False)], ["simple_python_1"], "simple_python"
        )
    by_entry = {r["entry"]: r for r in records}
    assert not by_entry["fc"]["valid"] and by_entry["fc"]["error_type"] == "inference_error"
    assert "model crashed" in by_entry["fc"]["error"]
    # An empty call list is a decoded reply with no call: wrong, but not an error of the run.
    assert not by_entry["prompt"]["valid"] and by_entry["prompt"]["error_type"] != "inference_error"


# -- the table, the JSON report, the chart ----------------------------------------------------


def record(entry: str, category: str, valid: bool, tokens: int, latencies: list[float], error: bool = False) -> dict:
    return {
        "entry": entry,
        "category": category,
        "id": f"{category}_x",
        "valid": valid,
        "error_type": "inference_error" if error else None,
        "input_tokens": tokens,
        "output_tokens": 1,
        "latencies": latencies,
    }


def test_summary_and_json_report_shape() -> None:
    records = [
        record("bfcl-prompting", "simple_python", True, 99, [1.0]),
        record("bfcl-prompting", "simple_python", False, 199, [3.0], error=True),
        record("bfcl-prompting", "irrelevance", True, 49, [2.0]),
        record("bfcl-prompting", "live_irrelevance", False, 49, [5.0, 4.0]),
        record("native-chatml-function-calling", "simple_python", True, 9, [0.5]),
    ]
    summary = summarize(records, ENTRIES, CATEGORIES)
    prompting = summary["bfcl-prompting"]
    assert prompting["accuracy"]["simple_python"] == 0.5
    assert prompting["accuracy"]["irrelevance"] == 1.0 and prompting["accuracy"]["live_irrelevance"] == 0.0
    assert prompting["accuracy"]["multi_turn_base"] is None
    assert prompting["irrelevance"] == 0.5
    assert prompting["mean"] == pytest.approx(0.5)
    assert prompting["tokens_per_question"] == pytest.approx((100 + 200 + 50 + 50) / 4)
    assert prompting["median_latency"] == 3.0
    assert prompting["errors"] == 1 and prompting["questions"] == 4
    assert summary["emulated-free"]["questions"] == 0 and summary["emulated-free"]["median_latency"] is None
    unavailable = {"emulated-free": "proxy not available", "emulated-constrained": "proxy not available"}
    report = json_report(summary, model="smollm2", per_category=2, unavailable=unavailable)
    assert set(report) == {"entries", "model", "per_category", "unavailable"}
    assert list(report["entries"]) == list(ENTRIES)
    assert all(list(scores) == list(CATEGORIES) for scores in report["entries"].values())
    assert set(report["entries"]["emulated-free"].values()) == {None}
    assert report["entries"]["native-chatml-function-calling"]["simple_python"] == 1.0
    json.dumps(report)  # serialisable as it is
    table = render(summary, unavailable)
    rows = {line.split("|")[1].strip(): line for line in table.splitlines() if line.startswith("|")}
    assert set(CATEGORIES) <= set(rows)
    assert rows["simple_python"].split("|")[1 + ENTRIES.index("emulated-free") + 1].strip() == "n/a"
    assert rows["simple_python"].split("|")[1 + ENTRIES.index("bfcl-prompting") + 1].strip() == "50 %"
    assert "emulated-free: proxy not available" in table


def test_chart_is_drawn(bfcl_python: Path, tmp_path: Path) -> None:
    records = [
        record(e, c, (i + n) % 3 == 0, 10, [1.0]) for n, e in enumerate(ENTRIES) for i, c in enumerate(CATEGORIES)
    ]
    unavailable = {"emulated-free": "proxy not available"}  # drawn as an empty slot, named in the legend
    records = [r for r in records if r["entry"] not in unavailable]
    summary = summarize(records, ENTRIES, CATEGORIES)
    report = json_report(summary, model="smollm2", per_category=1, unavailable=unavailable)
    (tmp_path / "report.json").write_text(json.dumps(report))
    harness(bfcl_python, "chart", "--report", str(tmp_path / "report.json"), "--out", str(tmp_path / "chart.png"))
    png = (tmp_path / "chart.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert width > 600 and height > 300


def test_the_command_refuses_unknown_entries_and_categories() -> None:
    for option, value, word in (
        ("--entries", "native,bfcl-prompting", "entry"),
        ("--categories", "simple_java", "category"),
    ):
        done = subprocess.run(
            [sys.executable, str(BENCHMARKS / "bfcl.py"), option, value], capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 2
        assert f"unknown {word} {value.split(',')[0]!r}" in done.stderr
