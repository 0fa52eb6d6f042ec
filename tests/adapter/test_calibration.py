"""``letta-tool-emulation calibrate``'s checker and the recorded choice that selection reads."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from letta_tool_emulation import calibration, endpoints, venice
from letta_tool_emulation.calibrate import (
    KINDS,
    Answer,
    ModeRun,
    Question,
    best,
    check,
    check_call,
    grammar_choice,
    load_questions,
    render,
)
from letta_tool_emulation.selection import decide

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_rate",
            "parameters": {
                "type": "object",
                "properties": {
                    "currency": {"type": "string"},
                    "days": {"type": "integer"},
                    "rate": {"type": "number"},
                    "exact": {"type": "boolean"},
                    "fields": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["currency", "days"],
            },
        },
    },
    {
        "type": "function",
        "function": {"name": "other", "parameters": {"type": "object", "properties": {}, "required": []}},
    },
]
EXPECTED = {
    "name": "get_rate",
    "arguments": {
        "currency": ["EUR", "Euro"],
        "days": [60],
        "rate": [0.5, ""],
        "exact": ["", True],
        "fields": [["points per game", "assists"]],
    },
}


def call(**arguments: Any) -> dict[str, Any]:
    return {
        "name": "get_rate",
        "arguments": {"currency": "EUR", "days": 60, "fields": ["points per game", "assists"], **arguments},
    }


def test_a_call_is_right_with_any_listed_value_and_without_the_optional_arguments() -> None:
    assert check_call(call(), EXPECTED, TOOLS) is None
    assert check_call(call(currency="euro", rate=0.5, exact=True), EXPECTED, TOOLS) is None
    # Strings compare as BFCL compares them: no case, spaces or ",./-_*^".
    assert check_call(call(fields=["Points_Per-Game", "assists"]), EXPECTED, TOOLS) is None
    assert check_call(call(rate=0.5), EXPECTED, TOOLS) is None


def test_a_call_is_wrong_for_each_way_bfcl_finds_it_wrong() -> None:
    assert "called 'other'" in (check_call({"name": "other", "arguments": {}}, EXPECTED, TOOLS) or "")
    assert "missing required argument 'days'" in (
        check_call({"name": "get_rate", "arguments": {"currency": "EUR"}}, EXPECTED, TOOLS) or ""
    )
    assert "unexpected argument 'limit'" in (check_call(call(limit=3), EXPECTED, TOOLS) or "")
    assert "expected one of" in (check_call(call(currency="USD"), EXPECTED, TOOLS) or "")
    assert "expected one of" in (check_call(call(rate=0.25), EXPECTED, TOOLS) or "")
    # Types as BFCL checks them: an integer is no float's stand-in the other way round, a string no number.
    assert "not of type integer" in (check_call(call(days=60.0), EXPECTED, TOOLS) or "")
    assert "not of type integer" in (check_call(call(days="60"), EXPECTED, TOOLS) or "")
    assert "not of type boolean" in (check_call(call(exact=1), EXPECTED, TOOLS) or "")
    assert "expected one of" in (check_call(call(fields=["assists", "points per game"]), EXPECTED, TOOLS) or "")
    assert check_call({"name": "get_rate", "arguments": "{broken"}, EXPECTED, TOOLS) is not None
    needed = {**EXPECTED, "arguments": {**EXPECTED["arguments"], "rate": [0.5]}}
    assert "missing argument 'rate'" in (check_call(call(), needed, TOOLS) or "")


def test_an_integer_is_right_where_a_number_is_expected() -> None:
    assert check_call(call(rate=1), {**EXPECTED, "arguments": {**EXPECTED["arguments"], "rate": [1.0]}}, TOOLS) is None


def question(kind: str, expected: list[dict[str, Any]]) -> Question:
    return Question(f"{kind}_0", kind, "?", TOOLS, expected)


def test_questions_are_right_by_kind() -> None:
    single = question("single", [EXPECTED])
    assert check(single, [call()]) is None
    assert check(single, []) == "no call"
    assert check(single, [call(), call()]) == "2 call(s), expected 1"
    irrelevant = question("irrelevance", [])
    assert check(irrelevant, []) is None
    assert "where no tool fits" in (check(irrelevant, [call()]) or "")
    second = {**EXPECTED, "arguments": {**EXPECTED["arguments"], "days": [30]}}
    parallel = question("parallel", [EXPECTED, second])
    assert check(parallel, [call(days=30), call()]) is None  # in any order
    assert check(parallel, [call(), call()]) is not None  # each expected call matched once
    assert check(parallel, [call()]) == "1 call(s), expected 2"


def test_the_shipped_answers_pass_the_checker_and_every_kind_is_asked() -> None:
    asked = load_questions()
    assert len(asked.questions) == 32 and "Apache" in asked.source
    assert {q.kind for q in asked.questions} == set(KINDS)
    for q in asked.questions:
        # BFCL's first listed value of each argument (leaving out those that may be left out) is a right answer.
        calls = [
            {"name": e["name"], "arguments": {p: vs[0] for p, vs in e["arguments"].items() if vs[0] != ""}}
            for e in q.expected
        ]
        assert check(q, calls) is None, q.id
    few = load_questions(12)
    assert [sum(q.kind == k for q in few.questions) for k in KINDS] == [3, 3, 3, 3]


def run(mode: calibration.Mode, right: int, of: int = 4, refused: str | None = None, grammar: bool = False) -> ModeRun:
    r = ModeRun(mode, None, refused=refused, grammar=grammar)
    r.answers = [Answer(question("single", [EXPECTED]), None if i < right else "no call", True, 0.1) for i in range(of)]
    return r


def test_the_best_mode_is_the_most_accurate_and_a_tie_keeps_the_default() -> None:
    assert best([run("free", 3), run("constrained", 2)], "constrained").mode == "free"  # type: ignore[union-attr]
    assert best([run("free", 2), run("constrained", 2)], "constrained").mode == "constrained"  # type: ignore[union-attr]
    assert best([run("free", 2), run("constrained", 2)], "free").mode == "free"  # type: ignore[union-attr]
    # A mode whose every question failed with an error (a wrong model id, a server down) measured nothing.
    failed = run("constrained", 0)
    failed.answers = [Answer(a.question, "HTTP 404", False, 0.1, error="HTTP 404") for a in failed.answers]
    assert best([run("free", 0), failed], "constrained").mode == "free"  # type: ignore[union-attr]
    assert best([failed], "constrained") is None
    # A refused schema ran in free text: it is no measurement of the constrained mode.
    assert best([run("free", 1), run("constrained", 4, refused="HTTP 400")], "constrained").mode == "free"  # type: ignore[union-attr]


def test_free_text_with_and_without_the_grammar_are_two_candidates() -> None:
    plain, held = run("free", 2), run("free", 3, grammar=True)
    assert (plain.name, held.name) == ("free", "free+grammar")
    assert best([plain, held, run("constrained", 1)], "constrained") is held
    assert grammar_choice([plain, held, run("constrained", 1)]) is True
    # Better without it: recorded, also where the constrained mode wins overall.
    runs = [run("free", 3), run("free", 2, grammar=True), run("constrained", 4)]
    assert best(runs, "constrained").name == "constrained"  # type: ignore[union-attr]
    assert grammar_choice(runs) is False
    # A tie keeps the grammar (the plugin's default for free text), whichever mode is preferred.
    tie = [run("free", 2), run("free", 2, grammar=True), run("constrained", 1)]
    assert best(tie, "constrained").name == "free+grammar" and grammar_choice(tie) is True  # type: ignore[union-attr]
    # Refused, or not asked: no measurement of the grammar, and nothing recorded for it.
    refused = [run("free", 1), run("free", 4, grammar=True, refused="HTTP 400")]
    assert best(refused, "free+grammar").name == "free" and grammar_choice(refused) is None  # type: ignore[union-attr]
    unasked = ModeRun("free", None, grammar=True, skipped="llama-cpp-python takes no lazy grammar")
    assert grammar_choice([run("free", 1), unasked]) is None
    assert best([run("free", 1), unasked], "free").name == "free"  # type: ignore[union-attr]
    table = render([run("free", 1), unasked])
    assert table.endswith("| free + grammar: not asked, llama-cpp-python takes no lazy grammar | - | - | - | - | - |")


def test_a_mode_that_never_calls_is_not_chosen_for_its_irrelevance_score() -> None:
    # What SmolLM2-135M does: never a call in free text (every irrelevance question right),
    # a call nearly always when constrained (a few right, every irrelevance question wrong).
    silent, eager = ModeRun("free", None), ModeRun("constrained", None)
    silent.answers = [Answer(question("single", [EXPECTED]), "no call", False, 0.1) for _ in range(3)]
    silent.answers += [Answer(question("irrelevance", []), None, False, 0.1) for _ in range(3)]
    eager.answers = [
        Answer(question("single", [EXPECTED]), None if i == 0 else "wrong value", True, 0.1) for i in range(3)
    ]
    eager.answers += [Answer(question("irrelevance", []), "called a tool", True, 0.1) for _ in range(3)]
    assert (silent.accuracy() or 0) > (eager.accuracy() or 0)
    assert best([silent, eager], "free").mode == "constrained"  # type: ignore[union-attr]
    # Where neither gets a call right, accuracy decides as before.
    eager.answers[0] = Answer(question("single", [EXPECTED]), "wrong value", True, 0.1)
    assert best([silent, eager], "constrained").mode == "free"  # type: ignore[union-attr]


# -- the recorded choice --------------------------------------------------------------------------


@pytest.fixture
def recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    where = tmp_path / "calibration.json"
    monkeypatch.setenv(calibration.PATH_ENV, str(where))
    monkeypatch.delenv("LETTA_TOOL_EMULATION_MODELS", raising=False)
    monkeypatch.delenv("LETTA_TOOL_EMULATION_CONSTRAINED", raising=False)
    endpoints.KNOWN.clear()
    venice.CAPABILITIES.clear()
    yield where
    endpoints.KNOWN.clear()


def test_a_recorded_choice_is_found_for_its_endpoint_and_model_only(recorded: Path) -> None:
    assert calibration.lookup("http://127.0.0.1:8080/v1", "m") is None  # no file yet
    calibration.record("http://user:secret@127.0.0.1:8080/v1/?key=k", "m", calibration.Choice("free"), {"questions": 4})
    text = recorded.read_text()
    assert "secret" not in text and "key=k" not in text
    assert calibration.lookup("http://127.0.0.1:8080/v1", "m") == calibration.Choice("free")
    assert calibration.lookup("HTTP://127.0.0.1:8080", "m") == calibration.Choice("free")  # a bare host means /v1
    assert calibration.lookup("http://127.0.0.1:8080/v1", "other") is None
    assert calibration.lookup("http://127.0.0.1:8081/v1", "m") is None
    calibration.record("http://127.0.0.1:8080/v1", "other", calibration.Choice("constrained", "llama.cpp"), {})
    assert calibration.lookup("http://127.0.0.1:8080/v1", "other") == calibration.Choice("constrained", "llama.cpp")
    assert calibration.lookup("http://127.0.0.1:8080/v1", "m") == calibration.Choice("free")  # kept beside it
    assert json.loads(recorded.read_text())["endpoints"]["http://127.0.0.1:8080/v1"]["m"]["questions"] == 4


def test_a_broken_file_counts_as_no_calibration(recorded: Path) -> None:
    recorded.write_text("{not json")
    assert calibration.lookup("http://127.0.0.1:8080/v1", "m") is None
    recorded.write_text(json.dumps({"endpoints": {"http://127.0.0.1:8080/v1": {"m": {"mode": "grammar"}}}}))
    assert calibration.lookup("http://127.0.0.1:8080/v1", "m") is None
    calibration.record("http://127.0.0.1:8080/v1", "m", calibration.Choice("free"), {})  # replaces what it cannot read
    assert calibration.lookup("http://127.0.0.1:8080/v1", "m") == calibration.Choice("free")


def test_the_file_lives_in_the_users_configuration_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(calibration.PATH_ENV, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert calibration.path() == tmp_path / "letta-tool-emulation" / "calibration.json"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert calibration.path() == Path(os.path.expanduser("~")) / ".config" / "letta-tool-emulation" / "calibration.json"


def config(**kw: Any) -> SimpleNamespace:
    base = {
        "model": "m",
        "model_endpoint": "http://127.0.0.1:8080/v1",
        "provider_name": "openai",
        "handle": "openai-proxy/m",
        "model_wrapper": None,
    }
    return SimpleNamespace(**{**base, **kw})


def test_selection_uses_the_recorded_choice_unless_the_user_chose(
    recorded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MODELS", "openai-proxy/*")
    url = "http://127.0.0.1:8080/v1"
    endpoints.KNOWN.store(endpoints.ServerInfo("llama.cpp", url, {"m": endpoints.ModelLimits("m", 8192)}))
    assert decide(config()).schema_shape == "llama.cpp"  # uncalibrated: a server that enforces schemas is used so
    calibration.record(url, "m", calibration.Choice("free"), {})
    assert decide(config()).emulate and decide(config()).schema_shape is None
    assert decide(config(model_wrapper="constrained")).schema_shape == "llama.cpp"  # the agent's switch wins
    monkeypatch.setenv("LETTA_TOOL_EMULATION_CONSTRAINED", "openai-proxy/m")
    assert decide(config()).schema_shape == "llama.cpp"  # so does the setting
    monkeypatch.delenv("LETTA_TOOL_EMULATION_CONSTRAINED")
    # Constrained where nothing is known about the server: in the shape it was measured with.
    other = "http://127.0.0.1:9090/v1"
    calibration.record(other, "m", calibration.Choice("constrained", "llama-cpp-python"), {})
    assert decide(config(model_endpoint=other)).schema_shape == "llama-cpp-python"
    assert decide(config(model_endpoint=other, model_wrapper="free-text")).schema_shape is None
    # The calibration chooses the mode only: whether a model is emulated is decided as before.
    monkeypatch.delenv("LETTA_TOOL_EMULATION_MODELS")
    assert not decide(config(model_endpoint=other)).emulate


def emulated_on_llama_cpp(monkeypatch: pytest.MonkeyPatch, unset: str) -> str:
    """Model "m" emulated, at a llama.cpp server the plugin knows, with the setting ``unset``
    left out; returns the server's URL."""
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MODELS", "openai-proxy/*")
    monkeypatch.delenv(unset, raising=False)
    url = "http://127.0.0.1:8080/v1"
    endpoints.KNOWN.store(endpoints.ServerInfo("llama.cpp", url, {"m": endpoints.ModelLimits("m", 8192)}))
    return url


def test_selection_uses_the_recorded_grammar_unless_the_user_chose(
    recorded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = emulated_on_llama_cpp(monkeypatch, "LETTA_TOOL_EMULATION_GRAMMAR")
    assert decide(config(model_wrapper="free-text")).grammar_kind == "llama.cpp"  # uncalibrated: the grammar
    calibration.record(url, "m", calibration.Choice("free", None, grammar=False), {})
    assert calibration.lookup(url, "m") == calibration.Choice("free", None, False)
    chosen = decide(config())
    assert chosen.emulate and chosen.schema_shape is None and chosen.grammar_kind is None
    # A mode the user chose is asked as without calibration: free text under the grammar.
    assert decide(config(model_wrapper="free-text")).grammar_kind == "llama.cpp"
    # LETTA_TOOL_EMULATION_GRAMMAR, either way, wins over the record.
    monkeypatch.setenv("LETTA_TOOL_EMULATION_GRAMMAR", "on")
    assert decide(config()).grammar_kind == "llama.cpp"
    monkeypatch.setenv("LETTA_TOOL_EMULATION_GRAMMAR", "off")
    calibration.record(url, "m", calibration.Choice("free", None, grammar=True), {})
    assert decide(config()).grammar_kind is None
    monkeypatch.delenv("LETTA_TOOL_EMULATION_GRAMMAR")
    assert decide(config()).grammar_kind == "llama.cpp"
    # Constrained recorded, free text better without the grammar: used where the schema was refused.
    calibration.record(url, "m", calibration.Choice("constrained", "llama.cpp", grammar=False), {})
    assert decide(config()).schema_shape == "llama.cpp"
    endpoints.KNOWN.refuse_schema(url, "m", "llama.cpp")
    refused = decide(config())
    assert refused.schema_shape is None and refused.grammar_kind is None
    # A record without the grammar's figure (the server kind took none) leaves the default.
    calibration.record(url, "m", calibration.Choice("free"), {})
    assert decide(config()).grammar_kind == "llama.cpp"


def test_one_call_per_reply_is_a_candidate_that_wins_only_by_doing_better() -> None:
    plain = run("constrained", 2)
    held = ModeRun("constrained", "llama.cpp", one_call=True)
    held.answers = run("constrained", 2).answers
    assert held.name == "constrained+one-call" and "| constrained to one call (llama.cpp) |" in render([held])
    assert best([run("free", 1), plain, held], "constrained") is plain  # a tie keeps what the plugin does
    held.answers = run("constrained", 3).answers
    assert best([run("free", 1), plain, held], "constrained") is held


def test_selection_holds_replies_to_one_call_where_calibration_found_it_better(
    recorded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = emulated_on_llama_cpp(monkeypatch, "LETTA_TOOL_EMULATION_MAX_CALLS")
    assert not decide(config()).one_call  # uncalibrated: as many calls as the settings allow
    calibration.record(url, "m", calibration.Choice("constrained", "llama.cpp", one_call=True), {})
    assert calibration.lookup(url, "m") == calibration.Choice("constrained", "llama.cpp", None, True)
    assert json.loads(recorded.read_text())["endpoints"][url]["m"]["one_call"] is True
    chosen = decide(config())
    assert chosen.schema_shape == "llama.cpp" and chosen.one_call
    # The user's mode or number of calls wins over the record.
    assert not decide(config(model_wrapper="constrained")).one_call
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MAX_CALLS", "4")
    assert not decide(config()).one_call
    monkeypatch.delenv("LETTA_TOOL_EMULATION_MAX_CALLS")
    # Free text recorded: the flag means nothing there, and a hand-edited one is not read.
    recorded.write_text(json.dumps({"endpoints": {url: {"m": {"mode": "free", "one_call": True}}}}))
    assert calibration.lookup(url, "m") == calibration.Choice("free") and not decide(config()).one_call


def test_one_decision_reads_the_calibration_record_once(recorded: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The shape and the number of calls come from one record: a file rewritten between two
    # reads could otherwise give a constrained shape with a free-text record's call count.
    url = emulated_on_llama_cpp(monkeypatch, "LETTA_TOOL_EMULATION_MAX_CALLS")
    calibration.record(url, "m", calibration.Choice("constrained", "llama.cpp", one_call=True), {})
    reads: list[str] = []
    real = calibration.lookup

    def counted(endpoint: str | None, model: str) -> calibration.Choice | None:
        reads.append(model)
        return real(endpoint, model)

    monkeypatch.setattr(calibration, "lookup", counted)
    chosen = decide(config())
    assert chosen.schema_shape == "llama.cpp" and chosen.one_call
    assert reads == ["m"]
