"""The held-out accuracy corpus itself (benchmarks/parser_accuracy.py, tests/data/accuracy/), not the
parser's score on it: every label is a call to an offered tool with schema-valid arguments that the
reply really writes, every class of issue 17 is there, the performed side is at least as large as the
shown side, the languages models write are there, and the scoring and threshold check can both pass
and fail. The parser's figures are printed by ``python3 dev.py bench parser_accuracy``."""

from __future__ import annotations

import ast
import contextlib
import json
import re
from collections import Counter
from typing import Any

import jsonschema
import pytest

from benchmarks.parser_accuracy import (
    CHUNKS,
    FORMATS,
    HELDOUT,
    HELDOUT2,
    HELDOUT3,
    HELDOUT4,
    HELDOUT5,
    HELDOUT6,
    HELDOUT7,
    HELDOUT8,
    HELDOUT9,
    HELDOUT10,
    HELDOUT11,
    HELDOUT12,
    HELDOUT13,
    HELDOUT14,
    HELDOUT15,
    HELDOUT16,
    HELDOUT17,
    HELDOUT18,
    HELDOUT19,
    HELDOUT20,
    HELDOUT21,
    HELDOUT22,
    HELDOUT23,
    HELDOUT24,
    HELDOUT25,
    HELDOUT26,
    HELDOUT27,
    HELDOUT28,
    HELDOUT29,
    HELDOUT30,
    HELDOUT31,
    HELDOUT32,
    HELDOUT33,
    HELDOUT34,
    HELDOUT35,
    HELDOUT36,
    HELDOUT37,
    HELDOUT38,
    HELDOUT39,
    HELDOUT40,
    HELDOUT41,
    HELDOUT42,
    HELDOUT43,
    HELDOUT44,
    HELDOUT45,
    HELDOUT46,
    HELDOUT47,
    HELDOUT48,
    LANGUAGES,
    PERFORMED,
    SHOWN,
    Case,
    Measurement,
    load_cases,
    load_tools,
    long_reply,
    measure,
    score,
    threshold_failures,
)

CASES = load_cases()
HELDOUT_CASES = load_cases(HELDOUT)
HELDOUT2_CASES = load_cases(HELDOUT2)
HELDOUT3_CASES = load_cases(HELDOUT3)
HELDOUT4_CASES = load_cases(HELDOUT4)
HELDOUT5_CASES = load_cases(HELDOUT5)
HELDOUT6_CASES = load_cases(HELDOUT6)
HELDOUT7_CASES = load_cases(HELDOUT7)
HELDOUT8_CASES = load_cases(HELDOUT8)
HELDOUT9_CASES = load_cases(HELDOUT9)
HELDOUT10_CASES = load_cases(HELDOUT10)
HELDOUT11_CASES = load_cases(HELDOUT11)
HELDOUT12_CASES = load_cases(HELDOUT12)
HELDOUT13_CASES = load_cases(HELDOUT13)
HELDOUT14_CASES = load_cases(HELDOUT14)
HELDOUT15_CASES = load_cases(HELDOUT15)
HELDOUT16_CASES = load_cases(HELDOUT16)
HELDOUT17_CASES = load_cases(HELDOUT17)
HELDOUT18_CASES = load_cases(HELDOUT18)
HELDOUT19_CASES = load_cases(HELDOUT19)
HELDOUT20_CASES = load_cases(HELDOUT20)
HELDOUT21_CASES = load_cases(HELDOUT21)
HELDOUT22_CASES = load_cases(HELDOUT22)
HELDOUT23_CASES = load_cases(HELDOUT23)
HELDOUT24_CASES = load_cases(HELDOUT24)
HELDOUT25_CASES = load_cases(HELDOUT25)
HELDOUT26_CASES = load_cases(HELDOUT26)
HELDOUT27_CASES = load_cases(HELDOUT27)
HELDOUT28_CASES = load_cases(HELDOUT28)
HELDOUT29_CASES = load_cases(HELDOUT29)
HELDOUT30_CASES = load_cases(HELDOUT30)
HELDOUT31_CASES = load_cases(HELDOUT31)
HELDOUT32_CASES = load_cases(HELDOUT32)
HELDOUT33_CASES = load_cases(HELDOUT33)
HELDOUT34_CASES = load_cases(HELDOUT34)
HELDOUT35_CASES = load_cases(HELDOUT35)
HELDOUT36_CASES = load_cases(HELDOUT36)
HELDOUT37_CASES = load_cases(HELDOUT37)
HELDOUT38_CASES = load_cases(HELDOUT38)
HELDOUT39_CASES = load_cases(HELDOUT39)
HELDOUT40_CASES = load_cases(HELDOUT40)
HELDOUT41_CASES = load_cases(HELDOUT41)
HELDOUT42_CASES = load_cases(HELDOUT42)
HELDOUT43_CASES = load_cases(HELDOUT43)
HELDOUT44_CASES = load_cases(HELDOUT44)
HELDOUT45_CASES = load_cases(HELDOUT45)
HELDOUT46_CASES = load_cases(HELDOUT46)
HELDOUT47_CASES = load_cases(HELDOUT47)
HELDOUT48_CASES = load_cases(HELDOUT48)
# Every held-out set, in the order written: the first is "heldout", the n-th "heldout<n>".
HELDOUT_SETS = [
    HELDOUT_CASES,
    HELDOUT2_CASES,
    HELDOUT3_CASES,
    HELDOUT4_CASES,
    HELDOUT5_CASES,
    HELDOUT6_CASES,
    HELDOUT7_CASES,
    HELDOUT8_CASES,
    HELDOUT9_CASES,
    HELDOUT10_CASES,
    HELDOUT11_CASES,
    HELDOUT12_CASES,
    HELDOUT13_CASES,
    HELDOUT14_CASES,
    HELDOUT15_CASES,
    HELDOUT16_CASES,
    HELDOUT17_CASES,
    HELDOUT18_CASES,
    HELDOUT19_CASES,
    HELDOUT20_CASES,
    HELDOUT21_CASES,
    HELDOUT22_CASES,
    HELDOUT23_CASES,
    HELDOUT24_CASES,
    HELDOUT25_CASES,
    HELDOUT26_CASES,
    HELDOUT27_CASES,
    HELDOUT28_CASES,
    HELDOUT29_CASES,
    HELDOUT30_CASES,
    HELDOUT31_CASES,
    HELDOUT32_CASES,
    HELDOUT33_CASES,
    HELDOUT34_CASES,
    HELDOUT35_CASES,
    HELDOUT36_CASES,
    HELDOUT37_CASES,
    HELDOUT38_CASES,
    HELDOUT39_CASES,
    HELDOUT40_CASES,
    HELDOUT41_CASES,
    HELDOUT42_CASES,
    HELDOUT43_CASES,
    HELDOUT44_CASES,
    HELDOUT45_CASES,
    HELDOUT46_CASES,
    HELDOUT47_CASES,
    HELDOUT48_CASES,
]
HELDOUT_NAMES = ["heldout"] + [f"heldout{n}" for n in range(2, len(HELDOUT_SETS) + 1)]
TOOLS = {t["name"]: t for t in load_tools()}
MAIN_LANGUAGES = ("en", "es", "fr", "de", "pt", "it", "ru", "zh", "ja")
# The formats the parser reads (README, "What is recognised").
READ_FORMATS = ("canonical", "hermes", "xml", "mistral", "tool-fence", "json-fence", "json-line", "react")
MARKERS = ("TOOL_CALL_START", "<tool_call", "[TOOL_CALLS]", "Action Input:", "```tool_call")


def _strict(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "additionalProperties": False}


def _values(text: str) -> list[Any]:
    """Every JSON (or Python literal) object or array written in the text, nested ones included,
    and the objects given as JSON strings inside them: what a label can be checked against
    without any parser's judgement of whether it was performed."""
    found: list[Any] = []
    decoder = json.JSONDecoder()
    for m in re.finditer(r"[{\[]", text):
        try:
            value, _ = decoder.raw_decode(text, m.start())
        except ValueError:
            end = _balanced_end(text, m.start())
            try:
                value = ast.literal_eval(text[m.start() : end]) if end else None
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                value = None
        if value is not None:
            found.append(value)
    # attribute values of the XML-like form: params='{...}'
    for m in re.finditer(r"params='([^']*)'", text):
        with contextlib.suppress(ValueError):
            found.append(json.loads(m.group(1)))
    out: list[Any] = []
    stack = list(found)
    while stack:
        v = stack.pop()
        out.append(v)
        if isinstance(v, dict):
            stack.extend(x for x in v.values() if isinstance(x, dict | list))
            for x in v.values():
                if isinstance(x, str) and x.strip().startswith("{"):
                    with contextlib.suppress(ValueError):
                        stack.append(json.loads(x))
        elif isinstance(v, list):
            stack.extend(x for x in v if isinstance(x, dict | list))
    return out


def _balanced_end(text: str, start: int) -> int | None:
    depth = 0
    quote = ""
    for i in range(start, min(len(text), start + 20_000)):
        ch = text[i]
        if quote:
            if ch == "\\":
                continue
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _written(call: dict[str, Any], values: list[Any], text: str) -> bool:
    """The reply writes this call: its arguments appear as an object in the text, and its name
    appears next to them (in the object, or as ReAct's or the XML form's name)."""
    name, args = call["name"], call["arguments"]
    for v in values:
        if not isinstance(v, dict):
            continue
        keys_name = [v.get(k) for k in ("function", "name", "tool")]
        inner = next((v[k] for k in ("params", "arguments", "parameters", "tool_input") if k in v), None)
        if isinstance(inner, str):
            try:
                inner = json.loads(inner)
            except ValueError:
                inner = None
        if name in keys_name and (inner == args or (inner is None and args == {})):
            return True
        if v == args and args and (f"Action: {name}" in text or f'name="{name}"' in text):
            return True
    # An empty object is written everywhere; a call without arguments counts only as a whole form.
    empty = (
        rf"Action:\s*{re.escape(name)}\s*\n\s*Action Input:\s*\{{\s*\}}|name=\"{re.escape(name)}\"\s+params='\{{\s*\}}'"
    )
    return args == {} and re.search(empty, text) is not None


def test_cases_are_well_formed() -> None:
    assert len(CASES) >= 400, "several hundred cases"
    ids = [c.id for c in CASES]
    assert len(set(ids)) == len(ids), [i for i, n in Counter(ids).items() if n > 1]
    for c in CASES:
        assert c.lang in LANGUAGES, f"{c.where}: unknown language {c.lang}"
        assert c.cls in PERFORMED or c.cls in SHOWN, f"{c.where}: unknown class {c.cls}"
        assert c.formats and all(f in FORMATS for f in c.formats), f"{c.where}: unknown format {c.formats}"
        assert c.text.strip(), f"{c.where}: empty reply"
        assert "\n@@@" not in c.text
        if c.side == "performed":
            assert c.calls and c.shown == 0, f"{c.where}: a performed case makes calls and shows none"
        else:
            assert c.shown >= 1, f"{c.where}: a shown case shows at least one block"


@pytest.mark.parametrize(
    "case",
    CASES + [c for held in HELDOUT_SETS for c in held],
    ids=lambda c: c.id,
)
def test_labels_are_schema_valid_calls_the_reply_writes(case: Case) -> None:
    values = _values(case.text)
    for call in case.calls:
        assert set(call) == {"name", "arguments"}, case.where
        assert call["name"] in TOOLS, f"{case.where}: {call['name']} is not in tools.json"
        jsonschema.validate(call["arguments"], _strict(TOOLS[call["name"]]["parameters"]))
        assert _written(call, values, case.text), f"{case.where}: the reply does not write {call}"
    if case.side == "shown":
        named = any(
            isinstance(v, dict) and any(v.get(k) in TOOLS for k in ("function", "name", "tool")) for v in values
        )
        assert named or any(m in case.text for m in MARKERS) or any(t in case.text for t in TOOLS), (
            f"{case.where}: a shown case must hold something call-shaped"
        )


@pytest.mark.parametrize("held", HELDOUT_SETS, ids=HELDOUT_NAMES)
def test_heldout_set_is_well_formed_and_apart(held: list[Case]) -> None:
    """A held-out set: the same format and rules, its own ids, both sides about equal, and
    languages beyond the nine the main corpus began with."""
    assert len(held) >= 150
    ids = [c.id for c in held]
    assert len(set(ids)) == len(ids), [i for i, n in Counter(ids).items() if n > 1]
    assert not set(ids) & {c.id for c in CASES}, "held-out ids are distinct from the corpus's"
    for c in held:
        assert c.lang in LANGUAGES and (c.cls in PERFORMED or c.cls in SHOWN), c.where
        assert c.formats and all(f in FORMATS for f in c.formats), c.where
        assert c.text.strip() and "\n@@@" not in c.text, c.where
        if c.side == "performed":
            assert c.calls and c.shown == 0, c.where
        else:
            assert c.shown >= 1, c.where
    sides = Counter(c.side for c in held)
    assert abs(sides["performed"] - sides["shown"]) <= len(held) // 10
    # Languages beyond the nine the corpus began with (the corpus has since gained rows in them).
    new = {c.lang for c in held} - set(MAIN_LANGUAGES)
    assert len(new) >= 6, new
    for lang in new:
        assert {c.side for c in held if c.lang == lang} == {"performed", "shown"}, lang
    performed = {f for c in held if c.side == "performed" for f in c.formats}
    assert set(READ_FORMATS) <= performed
    assert set(SHOWN) <= {c.cls for c in held}


def test_second_heldout_set_is_apart_from_the_first_and_wide() -> None:
    """The second held-out set shares no id with the first, has every performed class too, and
    covers the main languages and at least fourteen more, each on both sides."""
    assert not {c.id for c in HELDOUT2_CASES} & {c.id for c in HELDOUT_CASES}
    assert set(PERFORMED) <= {c.cls for c in HELDOUT2_CASES}
    langs = {c.lang for c in HELDOUT2_CASES}
    assert set(MAIN_LANGUAGES) <= langs
    assert len(langs - set(MAIN_LANGUAGES)) >= 14
    for lang in langs:
        assert {c.side for c in HELDOUT2_CASES if c.lang == lang} == {"performed", "shown"}, lang
    assert len({c.text for c in HELDOUT2_CASES}) == len(HELDOUT2_CASES), "no reply written twice"


# The shown classes judged by words next to the block (the rest are judged by structure): the
# later held-out sets lean on them, where the judgement is weakest.
WORDED = frozenset(
    {
        "permission-after",
        "draft",
        "disclaimer-after",
        "retraction",
        "conditional-second",
        "intro-example",
        "intro-other-language",
        "alternatives",
        "recited-transcript",
        "recited-prompt",
        "you-sent-me",
    }
)


def test_third_heldout_set_is_apart_wide_and_weighted() -> None:
    """The third held-out set shares no id with the first two, has every performed class, covers
    the main languages and at least sixteen more, each on both sides, and leans its shown side
    toward the classes judged by the words right next to a block."""
    assert not {c.id for c in HELDOUT3_CASES} & {c.id for c in HELDOUT_CASES + HELDOUT2_CASES}
    assert len(HELDOUT3_CASES) >= 250
    assert set(PERFORMED) <= {c.cls for c in HELDOUT3_CASES}
    langs = {c.lang for c in HELDOUT3_CASES}
    assert set(MAIN_LANGUAGES) <= langs
    assert len(langs - set(MAIN_LANGUAGES)) >= 16
    for lang in langs:
        assert {c.side for c in HELDOUT3_CASES if c.lang == lang} == {"performed", "shown"}, lang
    assert len({c.text for c in HELDOUT3_CASES}) == len(HELDOUT3_CASES), "no reply written twice"
    shown = [c for c in HELDOUT3_CASES if c.side == "shown"]
    assert sum(c.cls in WORDED for c in shown) >= len(shown) * 2 // 3


@pytest.mark.parametrize("number", range(4, len(HELDOUT_SETS) + 1))
def test_each_later_heldout_set_is_apart_wide_and_weighted(number: int) -> None:
    """The fourth held-out set and each after it shares no id or reply with the sets before it
    (nor with the corpus), is about 300 replies with both sides equal, has every class of both
    sides, covers the main languages and at least sixteen more, each on both sides, and leans
    its shown side toward the word-judged classes."""
    cases = HELDOUT_SETS[number - 1]
    earlier = [c for s in HELDOUT_SETS[: number - 1] for c in s]
    assert not {c.id for c in cases} & {c.id for c in earlier}
    assert len(cases) >= 300
    assert set(PERFORMED) <= {c.cls for c in cases}
    assert set(SHOWN) <= {c.cls for c in cases}
    langs = {c.lang for c in cases}
    assert set(MAIN_LANGUAGES) <= langs
    assert len(langs - set(MAIN_LANGUAGES)) >= 16
    for lang in langs:
        assert {c.side for c in cases if c.lang == lang} == {"performed", "shown"}, lang
    assert len({c.text for c in cases}) == len(cases), "no reply written twice"
    earlier_texts = {c.text for c in CASES + earlier}
    assert not {c.text for c in cases} & earlier_texts, "no reply taken from an earlier set"
    shown = [c for c in cases if c.side == "shown"]
    assert sum(c.cls in WORDED for c in shown) >= len(shown) * 2 // 3


def test_every_class_is_present() -> None:
    counts = Counter(c.cls for c in CASES)
    assert [cls for cls in SHOWN if counts[cls] < 3] == [], "every shown class of issue 17, three cases at least"
    assert [cls for cls in PERFORMED if counts[cls] < 3] == [], "every performed class, three cases at least"


def test_performed_side_at_least_as_large_as_shown_side() -> None:
    sides = Counter(c.side for c in CASES)
    assert sides["performed"] >= sides["shown"] > 0
    performed_calls = sum(len(c.calls) for c in CASES if c.side == "performed")
    shown_blocks = sum(c.shown for c in CASES if c.side == "shown")
    assert performed_calls >= shown_blocks


def test_languages_on_both_sides() -> None:
    performed = Counter(c.lang for c in CASES if c.side == "performed")
    shown = Counter(c.lang for c in CASES if c.side == "shown")
    assert [lang for lang in MAIN_LANGUAGES if performed[lang] < 8] == []
    assert [lang for lang in MAIN_LANGUAGES if shown[lang] < 4] == []
    other = {c.lang for c in CASES if c.cls == "intro-other-language"}
    assert set(MAIN_LANGUAGES) - {"en"} <= other, "examples introduced in every language but English"


def test_formats_in_proportion() -> None:
    performed = Counter(f for c in CASES if c.side == "performed" for f in c.formats)
    assert [f for f in READ_FORMATS if performed[f] < 2] == [], "every format the parser reads is performed"
    assert performed.most_common(1)[0][0] == "canonical"
    assert performed["canonical"] >= sum(performed.values()) / 2, "canonical is what the prompt asks for"
    shown = Counter(f for c in CASES if c.side == "shown" for f in c.formats)
    assert [f for f in ("canonical", "hermes", "json-fence", "json-line", "react") if shown[f] < 2] == []


def test_reasoning_tag_styles() -> None:
    shown = " ".join(c.text for c in CASES if c.side == "shown")
    for tag in ("<think>", "<thinking>", "[THINK]", "<reasoning>"):
        assert tag in shown
    lone = [c for c in CASES if c.cls == "reasoning-lone-close"]
    assert lone and all("</think>" in c.text and "<think>" not in c.text for c in lone)


def test_long_reply() -> None:
    text, calls = long_reply()
    assert (text, calls) == long_reply(), "deterministic"
    assert 0.9e6 <= len(text.encode()) <= 1.2e6
    assert len(calls) == 200
    values = _values(text)
    for call in calls:
        jsonschema.validate(call["arguments"], _strict(TOOLS[call["name"]]["parameters"]))
    assert all(_written(call, values, text) for call in calls[:20])
    assert len({json.dumps(c, sort_keys=True) for c in calls}) == 200, "every call is distinct"
    assert text.count("TOOL_CALL_START") >= 150
    assert re.search(r"https://\S+", text) and "**" in text and re.search(r"(?m)^(- |\* |\d+\. )", text)
    assert text.count("?") >= 200, "questions in the prose"
    paragraphs_between = [len(part.split("\n\n")) for part in text.split("TOOL_CALL_END")[1:-1]]
    assert min(paragraphs_between) >= 3, "every call comes after paragraphs of prose"


def test_score_counts_wrong_arguments_apart() -> None:
    a = {"name": "memory_insert", "arguments": {"label": "human", "new_string": "x"}}
    b = {"name": "memory_insert", "arguments": {"label": "human", "new_string": "y"}}
    c = {"name": "roll_dice", "arguments": {"sides": 6}}
    assert score([a], [a]) == (1, 0, 0, 0)
    assert score([a], []) == (0, 1, 0, 0)
    assert score([], [c]) == (0, 0, 1, 0)
    assert score([a], [b]) == (0, 0, 0, 1)
    assert score([a, b], [b, c]) == (1, 1, 1, 0)


def _perfect() -> Measurement:
    runs = {
        mode: {c.id: [dict(x) for x in c.calls] for c in CASES}
        for mode in ["one-shot", *(f"stream-{n}" for n in CHUNKS)]
    }
    return Measurement(runs=runs, cases=CASES)


def test_threshold_check_passes_a_perfect_parse_and_fails_each_kind_of_error() -> None:
    assert threshold_failures(_perfect()) == []

    shown_case = next(c for c in CASES if c.cls == "table-cell")
    m = _perfect()
    m.runs["stream-3"][shown_case.id] = [{"name": "roll_dice", "arguments": {"sides": 6}}]
    failures = threshold_failures(m)
    assert any("stream-3" in f and "table-cell" in f for f in failures)
    assert any("differ" in f or "other calls than one-shot" in f for f in failures)

    m = _perfect()
    performed = [c for c in CASES if c.side == "performed"]
    for c in performed[: len(performed) // 100 + 2]:
        m.runs["one-shot"][c.id] = []
    assert any("one-shot: recall on performed" in f for f in threshold_failures(m))

    m = _perfect()
    c = next(c for c in performed if c.calls[0]["name"] == "memory_insert")
    m.runs["one-shot"][c.id] = [{"name": "memory_insert", "arguments": {"label": "human", "new_string": "other"}}]
    assert any("arguments other than those written" in f for f in threshold_failures(m))

    m = _perfect()
    m.runs["stream-1"][next(c.id for c in CASES if c.cls == "retraction")] = None
    m.errors.append("stream-1: raised")
    assert any("raised" in f for f in threshold_failures(m))


def test_the_parser_meets_the_targets_of_issue_17() -> None:
    """The figures the benchmark prints, held: recall >= 99.5 % on performed replies one-shot and
    streamed, no shown block run in any class, no wrong argument, streaming equal to one-shot,
    and every call of the long reply. (Raise, never lower: RECALL_TARGET is the target itself.)"""
    m = measure(chunks=(3, 16), long_chunks=(16,))
    assert threshold_failures(m) == []
    for mode in m.runs:
        performed = m.total(mode, "performed")
        assert performed.recall == 1.0 and performed.false_pos == 0, mode
        assert m.total(mode, "shown").false_pos == 0, mode
