"""``letta-tool-emulation calibrate`` end to end against the stand-in posing as llama.cpp (a
server that enforces reply schemas): both modes are asked over real HTTP, the table is printed,
the best mode is recorded, and the proxy then asks that model in the recorded mode unless a
request chooses its own."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from openai import OpenAI

from letta_tool_emulation import calibration
from letta_tool_emulation.calibrate import load_questions
from letta_tool_emulation.cli import main
from letta_tool_emulation.proxy import ProxyServer, Settings
from letta_tool_emulation.runtime.stack import free_port
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, StandIn
from letta_tool_emulation.runtime.standin.constrained import LocalServer

from .conftest import MEMORY_TOOLS


@pytest.fixture
def local(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[StandIn]:
    monkeypatch.setenv(calibration.PATH_ENV, str(tmp_path / "calibration.json"))
    monkeypatch.delenv("LETTA_TOOL_EMULATION_MODELS", raising=False)
    with StandIn(port=free_port(), local=LocalServer("llama.cpp", context=8192)) as upstream:
        yield upstream


def free_text_answers() -> list[str]:
    """What a model that answers every question right writes in free text: each expected call
    with the first value BFCL lists for each argument, and a plain answer where no tool fits."""
    replies = []
    for q in load_questions(4).questions:
        blocks = [
            "TOOL_CALL_START\n"
            + json.dumps(
                {"function": e["name"], "params": {p: vs[0] for p, vs in e["arguments"].items() if vs[0] != ""}}
            )
            + "\nTOOL_CALL_END"
            for e in q.expected
        ]
        replies.append("\n".join(blocks) if blocks else "None of my tools answers that; I do not know.")
    return replies


def remember_figs(client: OpenAI, mode: str | None) -> None:
    """One request through the proxy, in the mode a request header chooses (None: the proxy's)."""
    r = client.chat.completions.create(
        model=EMULATED_MODEL,
        messages=[{"role": "user", "content": "Remember that I like figs"}],
        tools=MEMORY_TOOLS,  # type: ignore[arg-type]
        extra_headers={"X-Tool-Emulation-Mode": mode} if mode else None,
    )
    assert [c.function.name for c in r.choices[0].message.tool_calls or []] == ["memory_insert"]


def test_calibrate_records_the_better_mode_and_selection_uses_it(
    local: StandIn, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Plain free text answers all four questions right (scripted), free text under the grammar none
    # that wants a call; constrained replies come from the stand-in's own rules, which know no BFCL
    # tool: right only where no call is wanted.
    local.script(*({"text": t} for t in free_text_answers()), *([{"text": "I cannot help with that."}] * 4))
    assert (
        main(["calibrate", "--base-url", local.url.removesuffix("/v1"), "--model", EMULATED_MODEL, "--questions", "4"])
        == 0
    )
    out, err = capsys.readouterr()
    asked = [b for b in local.requests if b.get("model") == EMULATED_MODEL]
    assert ["response_format" in b for b in asked] == [False] * 8 + [True] * 8
    # llama.cpp: free text without the grammar, then under it (with its trigger), then constrained, with
    # any number of calls and with one.
    assert ["grammar" in b for b in asked] == [False] * 4 + [True] * 4 + [False] * 8
    assert ['"maxItems": 1' in json.dumps(b["response_format"]) for b in asked[8:]] == [False] * 4 + [True] * 4
    assert all(b.get("grammar_lazy") is True for b in asked[4:8])
    assert all(b["temperature"] == 0 and b["seed"] == 7 for b in asked)
    assert "| free | 100 % | 100 % | 100 % | 100 % | 100 % | 0 % |" in out
    assert "| free + grammar | 0 % | 0 % | 0 % | 100 % | 25 % | 100 % |" in out
    assert "| constrained (llama.cpp) | 0 % | 0 % | 0 % | 100 % | 25 % | 100 % |" in out
    assert "| constrained to one call (llama.cpp) | 0 % | 0 % | 0 % | 100 % | 25 % | 100 % |" in out
    assert "Best: free (over free + grammar, constrained, constrained to one call)" in out
    assert "free, free + grammar, constrained and constrained to one call" in err
    assert err.count("wrong: no call") == 9 and "[16/16]" in err  # progress, one line per question

    recorded = json.loads(Path(os.environ[calibration.PATH_ENV]).read_text())
    entry = recorded["endpoints"][local.url][EMULATED_MODEL]
    assert entry["mode"] == "free" and entry["grammar"] is False and entry["questions"] == 4
    modes = entry["modes"]
    assert modes["free"]["accuracy"] == 1.0 and modes["free+grammar"]["accuracy"] == 0.25
    assert modes["constrained"]["accuracy"] == modes["constrained+one-call"]["accuracy"] == 0.25
    assert "one_call" not in entry
    assert "key" not in json.dumps(recorded).lower()

    # The proxy in its default mode now asks this model in free text without the grammar, although the
    # server enforces schemas and takes grammars; a request that chooses its mode gets what the plugin
    # does without calibration (free text: under the grammar), and so does LETTA_TOOL_EMULATION_GRAMMAR.
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MODELS", "proxy/*")
    with ProxyServer(Settings("127.0.0.1", free_port(), local.url, None, "proxy", None, 60.0)) as proxy:
        client = OpenAI(base_url=proxy.url, api_key="none", max_retries=0, timeout=60)

        def ask(mode: str | None) -> None:
            remember_figs(client, mode)

        for mode in (None, "constrained", "free"):
            ask(mode)
        monkeypatch.setenv("LETTA_TOOL_EMULATION_GRAMMAR", "on")
        ask(None)
    last = [b for b in local.requests if b.get("model") == EMULATED_MODEL][-4:]
    assert ["response_format" in b for b in last] == [False, True, False, False]
    assert ["grammar" in b for b in last] == [False, False, True, True]


def test_free_text_under_the_grammar_is_recorded_where_it_wins(
    local: StandIn, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    local.script({"text": "I cannot help with that."}, {"text": free_text_answers()[0]})
    assert main(["calibrate", "--base-url", local.url, "--model", EMULATED_MODEL, "--questions", "1"]) == 0
    out, _ = capsys.readouterr()
    assert "| free | 0 % |" in out and "| free + grammar | 100 % |" in out
    assert "Best: free + grammar (over free, constrained, constrained to one call)" in out
    entry = json.loads(Path(os.environ[calibration.PATH_ENV]).read_text())["endpoints"][local.url][EMULATED_MODEL]
    assert entry["mode"] == "free" and entry["grammar"] is True
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MODELS", "proxy/*")
    monkeypatch.setenv("LETTA_TOOL_EMULATION_GRAMMAR", "off")  # the variable wins over the record
    with ProxyServer(Settings("127.0.0.1", free_port(), local.url, None, "proxy", None, 60.0)) as proxy:
        client = OpenAI(base_url=proxy.url, api_key="none", max_retries=0, timeout=60)
        for grammar in ("off", "on"):
            monkeypatch.setenv("LETTA_TOOL_EMULATION_GRAMMAR", grammar)
            client.chat.completions.create(
                model=EMULATED_MODEL,
                messages=[{"role": "user", "content": "Remember that I like figs"}],
                tools=MEMORY_TOOLS,  # type: ignore[arg-type]
            )
    last = [b for b in local.requests if b.get("model") == EMULATED_MODEL][-2:]
    assert ["response_format" in b for b in last] == [False, False]
    assert ["grammar" in b for b in last] == [False, True]


def test_the_grammar_is_recorded_beside_a_constrained_choice(
    local: StandIn, capsys: pytest.CaptureFixture[str]
) -> None:
    # Unscripted, the stand-in answers alike in every mode (it holds no reply to a grammar): a tie,
    # which keeps the defaults, the constrained mode and, for free text, the grammar.
    assert main(["calibrate", "--base-url", local.url, "--model", EMULATED_MODEL, "--questions", "1"]) == 0
    out, _ = capsys.readouterr()
    assert "Best: constrained (over free, free + grammar, constrained to one call)" in out
    assert "Free text did as well with the grammar as without it: with it is recorded" in out
    entry = json.loads(Path(os.environ[calibration.PATH_ENV]).read_text())["endpoints"][local.url][EMULATED_MODEL]
    assert entry["mode"] == "constrained" and entry["grammar"] is True


def test_calibrate_says_what_is_wrong_with_its_arguments(
    local: StandIn, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_SUCH_KEY_VARIABLE", raising=False)
    args = ["calibrate", "--base-url", local.url, "--model", EMULATED_MODEL]
    assert main([*args, "--api-key-env", "NO_SUCH_KEY_VARIABLE"]) == 2
    assert "--api-key-env names NO_SUCH_KEY_VARIABLE, which is not set" in capsys.readouterr().err
    assert main(["calibrate", "--base-url", "localhost:8080", "--model", EMULATED_MODEL]) == 2
    assert "--base-url must be an http(s) URL" in capsys.readouterr().err
    assert main([*args, "--questions", "0"]) == 2
    assert "must be positive" in capsys.readouterr().err
    assert not Path(os.environ[calibration.PATH_ENV]).exists()


def test_nothing_is_recorded_when_the_endpoint_cannot_be_reached(
    local: StandIn, capsys: pytest.CaptureFixture[str]
) -> None:
    closed = f"http://127.0.0.1:{free_port()}/v1"
    assert main(["calibrate", "--base-url", closed, "--model", EMULATED_MODEL, "--questions", "1"]) == 1
    out, err = capsys.readouterr()
    assert "nothing recorded" in out and "Could not reach the upstream" in out and "--base-url" in out
    assert "| free | 0 % |" in out and "[1/1]" in err
    assert not Path(os.environ[calibration.PATH_ENV]).exists()


def test_a_refused_schema_is_no_measurement_of_the_constrained_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(calibration.PATH_ENV, str(tmp_path / "calibration.json"))
    refusing = LocalServer("llama.cpp", context=8192, unsupported=frozenset({"*"}))
    with StandIn(port=free_port(), local=refusing) as upstream:
        # Free text answers wrong, with and without the grammar; the constrained mode's question, asked
        # again in free text after the refusal (which comes before the script is read), right: better,
        # but no measurement of a schema.
        wrong = {"text": "I cannot help with that."}
        upstream.script(wrong, wrong, {"text": free_text_answers()[0]})
        assert main(["calibrate", "--base-url", upstream.url, "--model", EMULATED_MODEL, "--questions", "1"]) == 0
    out, _ = capsys.readouterr()
    assert "| free | 0 % |" in out and "| constrained (llama.cpp) [schema refused] | 100 % |" in out
    # Refused again, one call per reply would measure free text a second time: not asked.
    assert "| constrained to one call (llama.cpp): not asked, the server refused the reply schema |" in out
    assert "Best: free + grammar" in out  # a tie with plain free text keeps the grammar, the default
    entry = json.loads((tmp_path / "calibration.json").read_text())["endpoints"][upstream.url][EMULATED_MODEL]
    assert entry["mode"] == "free" and entry["modes"]["constrained"]["schema_refused"] == "HTTP 400"
    assert "constrained+one-call" not in entry["modes"]
    assert entry["grammar"] is True


def test_a_refused_grammar_is_no_candidate_and_not_asked_further(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(calibration.PATH_ENV, str(tmp_path / "calibration.json"))
    no_grammar = LocalServer("llama.cpp", context=8192, unsupported=frozenset({"grammar"}))
    with StandIn(port=free_port(), local=no_grammar) as upstream:
        # Plain free text answers wrong; under the grammar, the question asked again without it (after the
        # refusal, which comes before the script is read) right: better, but no measurement of the grammar.
        wrong = {"text": "I cannot help with that."}
        upstream.script(wrong, wrong, *({"text": t} for t in free_text_answers()[:2]))
        assert main(["calibrate", "--base-url", upstream.url, "--model", EMULATED_MODEL, "--questions", "2"]) == 0
        free = [b for b in upstream.requests if b.get("model") == EMULATED_MODEL and "response_format" not in b]
    # Plain free text twice; then the first question under the grammar: refused, asked again without it,
    # and no second question, which would have measured plain free text again.
    assert ["grammar" in b for b in free] == [False, False, True, False]
    out, err = capsys.readouterr()
    assert "| free | 0 % |" in out and "| free + grammar [grammar refused] | 100 % |" in out
    assert "The server refused the grammar (HTTP 400)" in err
    # free 0 %, constrained 0 % with any number of calls and with one: a tie keeps the default
    assert "Best: constrained (over free, constrained to one call)" in out
    entry = json.loads((tmp_path / "calibration.json").read_text())["endpoints"][upstream.url][EMULATED_MODEL]
    assert "grammar" not in entry and entry["modes"]["free+grammar"]["grammar_refused"] == "HTTP 400"


def test_a_server_that_takes_no_lazy_grammar_has_no_grammar_candidate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(calibration.PATH_ENV, str(tmp_path / "calibration.json"))
    with StandIn(port=free_port(), local=LocalServer("llama-cpp-python", context=8192)) as upstream:
        upstream.script({"text": free_text_answers()[0]})
        assert main(["calibrate", "--base-url", upstream.url, "--model", EMULATED_MODEL, "--questions", "1"]) == 0
        asked = [b for b in upstream.requests if b.get("model") == EMULATED_MODEL]
    # Free text, then constrained, with any number of calls and with one.
    assert not any("grammar" in b for b in asked) and len(asked) == 3
    out, err = capsys.readouterr()
    assert "| free + grammar: not asked, llama-cpp-python takes no lazy grammar" in out
    assert "Best: free (over constrained, constrained to one call)" in out and "not asked: llama-cpp-python" in err
    entry = json.loads((tmp_path / "calibration.json").read_text())["endpoints"][upstream.url][EMULATED_MODEL]
    assert "grammar" not in entry and set(entry["modes"]) == {"free", "constrained", "constrained+one-call"}


def test_one_call_per_reply_is_recorded_where_it_wins_and_selection_then_holds_replies_to_it(
    local: StandIn, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # What a small model does under an envelope that allows several calls: the right call, twice
    # (a wrong answer by its count); held to one call (as a server enforcing maxItems holds it), once.
    expected = load_questions(1).questions[0].expected[0]
    call = {
        "function": expected["name"],
        "params": {p: vs[0] for p, vs in expected["arguments"].items() if vs[0] != ""},
    }
    wrong = {"text": "I cannot help with that."}
    local.script(wrong, wrong, {"text": json.dumps({"calls": [call, call]})}, {"text": json.dumps({"calls": [call]})})
    assert main(["calibrate", "--base-url", local.url, "--model", EMULATED_MODEL, "--questions", "1"]) == 0
    out, err = capsys.readouterr()
    assert "| constrained (llama.cpp) | 0 % |" in out and "| constrained to one call (llama.cpp) | 100 % |" in out
    assert "wrong: 2 call(s), expected 1" in err
    assert "Best: constrained to one call (over free, free + grammar, constrained)" in out
    assert "Replies are held to one call each for this model" in out
    entry = json.loads(Path(os.environ[calibration.PATH_ENV]).read_text())["endpoints"][local.url][EMULATED_MODEL]
    assert entry["mode"] == "constrained" and entry["one_call"] is True

    # The proxy in its default mode now holds this model's reply schema to one call; a request that
    # chooses its mode, or LETTA_TOOL_EMULATION_MAX_CALLS, gets what the plugin does without calibration.
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MODELS", "proxy/*")
    monkeypatch.delenv("LETTA_TOOL_EMULATION_MAX_CALLS", raising=False)
    with ProxyServer(Settings("127.0.0.1", free_port(), local.url, None, "proxy", None, 60.0)) as proxy:
        client = OpenAI(base_url=proxy.url, api_key="none", max_retries=0, timeout=60)

        def ask(mode: str | None) -> None:
            remember_figs(client, mode)

        ask(None)
        ask("constrained")
        monkeypatch.setenv("LETTA_TOOL_EMULATION_MAX_CALLS", "4")
        ask(None)
    last = [b for b in local.requests if b.get("model") == EMULATED_MODEL][-3:]
    assert all("response_format" in b for b in last)
    assert ['"maxItems": 1' in json.dumps(b["response_format"]) for b in last] == [True, False, False]
