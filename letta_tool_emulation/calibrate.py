"""``letta-tool-emulation calibrate``: a short, deterministic probe of one model behind one
endpoint, in every mode of emulated replies the endpoint supports, which records the best.

The questions are a small sample of the Berkeley Function Calling Leaderboard's public data
(``data/calibration_questions.json``, Apache-2.0; ``benchmarks/calibration_questions.py`` chose
them): one call to one tool (single), one call out of several tools (multiple), several calls
in one reply (parallel), and no call where no tool fits (irrelevance). Each question is asked
once per mode, at temperature 0 with a fixed seed, through the proxy's own upstream and driver
(the turn engine exactly as ``letta-tool-emulation proxy`` runs it), and the calls that come
back are scored by :func:`check`, a small exact checker with BFCL's rules: the tool's name, no
unknown or missing argument, each value one of the answer's values (strings compared without
case, spaces and ``,./-_*^``, as BFCL compares them), and for parallel questions every expected
call matched once, in any order.

Candidates: free text always; free text under the call blocks' lazy grammar where the server
kind takes one (llama.cpp's ``llama-server``, and vLLM and SGLang as a structural tag:
``server_dialect.TRIGGER_KINDS``), asked no further once the server refuses it; constrained to
the JSON envelope where the endpoint enforces reply schemas (a local server whose kind the
plugin knows, a Venice model with ``supportsResponseSchema``; never an end-to-end encrypted
one), and there also held to one call per reply (a small model under an envelope that allows
several repeats its call, which is a wrong answer). The best (:func:`best`) is recorded in the
calibration file (:mod:`.calibration`), with whether free text did better with the grammar or
without it; selection uses both unless the user chose a mode (or, for the grammar,
``LETTA_TOOL_EMULATION_GRAMMAR``; for one call per reply, ``LETTA_TOOL_EMULATION_MAX_CALLS``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sys
import time
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from importlib import resources
from types import SimpleNamespace
from typing import Any, TextIO

from . import calibration, endpoints, selection, venice
from .server_dialect import GRAMMAR_SHAPE, LOCAL_KINDS, TRIGGER_KINDS
from .step import Decision

KINDS = ("single", "multiple", "parallel", "irrelevance")
SEED = 7
DEFAULT_MAX_TOKENS = 256
DEFAULT_TIMEOUT = 120.0
UPSTREAM_KEY_ENV = "LETTA_TOOL_EMULATION_UPSTREAM_KEY"


# -- the questions ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    id: str
    kind: str
    text: str
    tools: list[dict[str, Any]]
    # Each expected call: {"name": ..., "arguments": {param: [any of these values]}}; "" among
    # a parameter's values means it may be left out. Empty for irrelevance questions.
    expected: list[dict[str, Any]]


@dataclass(frozen=True)
class QuestionSet:
    source: str
    system_message: str
    questions: list[Question]


def load_questions(limit: int | None = None) -> QuestionSet:
    """The shipped questions; with ``limit``, that many, taken in turn from each kind (12: three
    of each), so that every kind is asked."""
    raw = json.loads(resources.files(__package__).joinpath("data/calibration_questions.json").read_text("utf-8"))
    by_kind: dict[str, list[Question]] = {k: [] for k in KINDS}
    for q in raw["questions"]:
        by_kind[q["kind"]].append(Question(q["id"], q["kind"], q["question"], q["tools"], q["expected"]))
    ordered: list[Question] = []
    for i in range(max(len(v) for v in by_kind.values())):
        ordered += [by_kind[k][i] for k in KINDS if i < len(by_kind[k])]
    if limit is not None:
        ordered = ordered[: max(1, limit)]
    chosen = {q.id for q in ordered}
    # Asked kind by kind, in the file's order: the table reads the same for any limit.
    questions = [q for k in KINDS for q in by_kind[k] if q.id in chosen]
    return QuestionSet(raw["source"], raw["system_message"], questions)


# -- the checker ------------------------------------------------------------------------------------

_IGNORED = re.compile(r"[ ,./\-_*^]")


def _standard(value: Any) -> Any:
    """Strings as BFCL compares them (so "April 1, 2024" matches "April 1,2024")."""
    if isinstance(value, str):
        return _IGNORED.sub("", value).lower().replace("'", '"')
    if isinstance(value, list):
        return [_standard(v) for v in value]
    return value


def _typed(value: Any, kind: Any) -> bool:
    if kind == "integer":
        return type(value) is int
    if kind == "number":
        return type(value) in (int, float)
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "array":
        return isinstance(value, list)
    return True


def _same(value: Any, allowed: Any) -> bool:
    if isinstance(value, bool) or isinstance(allowed, bool):
        return type(value) is type(allowed) and value == allowed
    if isinstance(value, int | float) and isinstance(allowed, int | float):
        return float(value) == float(allowed)
    if isinstance(value, list) and isinstance(allowed, list):
        return len(value) == len(allowed) and all(_same(v, a) for v, a in zip(value, allowed, strict=True))
    if isinstance(value, str) and isinstance(allowed, str):
        return bool(_standard(value) == _standard(allowed))
    return False


def check_call(call: dict[str, Any], expected: dict[str, Any], tools: list[dict[str, Any]]) -> str | None:
    """Why ``call`` ({"name", "arguments"}) is not ``expected``, or None when it is."""
    if call.get("name") != expected["name"]:
        return f"called {call.get('name')!r}, expected {expected['name']!r}"
    arguments = call.get("arguments")
    if not isinstance(arguments, dict):
        return "arguments are not an object"
    schema: dict[str, Any] = next(
        (t["function"]["parameters"] for t in tools if t["function"]["name"] == expected["name"]), {}
    )
    properties = schema.get("properties") or {}
    for param in schema.get("required") or []:
        if param not in arguments:
            return f"missing required argument {param!r}"
    allowed: dict[str, list[Any]] = expected["arguments"]
    for param, value in arguments.items():
        if param not in properties or param not in allowed:
            return f"unexpected argument {param!r}"
        kind = properties[param].get("type")
        if not _typed(value, kind):
            return f"{param}={value!r} is not of type {kind}"
        if not any(_same(value, a) for a in allowed[param]):
            return f"{param}={value!r}, expected one of {allowed[param]!r}"
    for param, values in allowed.items():
        if param not in arguments and "" not in values:
            return f"missing argument {param!r}"
    return None


def check(question: Question, calls: list[dict[str, Any]]) -> str | None:
    """Why the calls made for ``question`` are wrong, or None when they are right."""
    if question.kind == "irrelevance":
        return f"called {calls[0].get('name')!r} where no tool fits" if calls else None
    if not calls:
        return "no call"
    if len(calls) != len(question.expected):
        return f"{len(calls)} call(s), expected {len(question.expected)}"
    unmatched = list(range(len(calls)))
    for expected in question.expected:  # as BFCL matches parallel calls: each answer to a call, in any order
        reasons = {i: check_call(calls[i], expected, question.tools) for i in unmatched}
        hit = next((i for i, reason in reasons.items() if reason is None), None)
        if hit is None:
            return next(iter(reasons.values())) if len(question.expected) == 1 else f"no call matches {expected}"
        unmatched.remove(hit)
    return None


def calls_of(completion: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool calls of a ``chat.completion`` as {"name", "arguments"}; unreadable arguments
    stay a string (which the checker fails)."""
    message = (completion.get("choices") or [{}])[0].get("message") or {}
    out = []
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        try:
            arguments = json.loads(function.get("arguments") or "{}")
        except ValueError:
            arguments = function.get("arguments")
        out.append({"name": function.get("name"), "arguments": arguments})
    return out


# -- the table ----------------------------------------------------------------------------------------


@dataclass
class Answer:
    question: Question
    wrong: str | None  # why it was wrong; None: right
    called: bool
    seconds: float
    error: str | None = None


@dataclass
class ModeRun:
    """One candidate: a mode, the request shape of a constrained one and whether it was held to
    one call per reply, and for free text whether its call blocks were held to the server's lazy
    grammar."""

    mode: calibration.Mode
    shape: str | None
    answers: list[Answer] = field(default_factory=list)
    # The endpoint refused the reply schema (the mode fell back to free text), or the grammar.
    refused: str | None = None
    grammar: bool = False
    skipped: str | None = None  # why the candidate was not asked at all
    one_call: bool = False

    @property
    def name(self) -> str:
        """As the calibration file and the progress lines name it."""
        return "free+grammar" if self.grammar else "constrained+one-call" if self.one_call else self.mode

    def accuracy(self, kind: str | None = None) -> float | None:
        mine = [a for a in self.answers if kind is None or a.question.kind == kind]
        return sum(a.wrong is None for a in mine) / len(mine) if mine else None

    def right_calls(self) -> int:
        """Questions where a call fits that were answered right."""
        return sum(a.wrong is None for a in self.answers if a.question.kind != "irrelevance")

    def no_call_rate(self) -> float | None:
        """Questions where a call was expected but none was made: a mode that rarely calls
        scores well on irrelevance for that reason alone."""
        mine = [a for a in self.answers if a.question.kind != "irrelevance"]
        return sum(not a.called for a in mine) / len(mine) if mine else None

    def mean_seconds(self) -> float | None:
        return sum(a.seconds for a in self.answers) / len(self.answers) if self.answers else None

    def summary(self) -> dict[str, Any]:
        return {
            "accuracy": self.accuracy(),
            "per_kind": {k: self.accuracy(k) for k in KINDS if self.accuracy(k) is not None},
            "mean_latency_s": None if self.mean_seconds() is None else round(self.mean_seconds() or 0.0, 3),
            "errors": sum(a.error is not None for a in self.answers),
            **({("grammar_refused" if self.grammar else "schema_refused"): self.refused} if self.refused else {}),
        }


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f} %"


def _short(text: str, limit: int = 160) -> str:
    """One progress line stays one line: BFCL lists up to dozens of right values for an argument."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.1f} s"


def _label(run: ModeRun) -> str:
    return "free + grammar" if run.grammar else "constrained to one call" if run.one_call else run.mode


def render(runs: list[ModeRun]) -> str:
    """A Markdown table: a row per mode."""
    kinds = [k for k in KINDS if any(r.accuracy(k) is not None for r in runs)]
    head = ["mode", *kinds, "overall", "no call where one fits", "errors", "mean latency"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for run in runs:
        label = _label(run) + (f" ({run.shape})" if run.shape else "")
        if run.refused:
            label += f" [{'grammar' if run.grammar else 'schema'} refused]"
        if run.skipped:
            label += f": not asked, {run.skipped}"
        mean = run.mean_seconds()
        cells = [
            label,
            *(_percent(run.accuracy(k)) for k in kinds),
            _percent(run.accuracy()),
            _percent(run.no_call_rate()),
            "-" if run.skipped else str(sum(a.error is not None for a in run.answers)),
            _seconds(mean),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def best(runs: list[ModeRun], preferred: str) -> ModeRun | None:
    """Of the candidates whose schema or grammar was not refused and that answered at least one
    question without an error: one that got a call right where a call fits, before one that never
    did; then the most accurate; a tie keeps ``preferred`` (the :attr:`ModeRun.name` of what the
    plugin would choose without calibration), so that calibrating changes nothing it need not. A
    mode that never calls scores every irrelevance question, a quarter of the probe, for that
    alone; recording it would leave the agent unable to use its tools."""
    usable = [r for r in runs if not r.refused and any(a.error is None for a in r.answers)]
    if not usable:
        return None
    # Then free text under the grammar before plain free text: the plugin's default for free text.
    return max(usable, key=lambda r: (r.right_calls() > 0, r.accuracy() or 0.0, r.name == preferred, r.grammar))


def grammar_choice(runs: list[ModeRun]) -> bool | None:
    """Whether free text did better with the grammar than without it (a tie keeps the grammar,
    the plugin's default); None where the grammar was not measured."""
    free = [r for r in runs if r.mode == "free"]
    if not any(r.grammar and not r.skipped and not r.refused for r in free):
        return None
    winner = best(free, "free+grammar")
    return None if winner is None else winner.grammar


# -- asking -------------------------------------------------------------------------------------------


def _decision(upstream: Any, model: str, mode: calibration.Mode) -> Decision:
    """The decision the proxy makes for ``mode``, with emulation forced on: a model the settings
    would leave to native tools is measured too."""
    switch = selection.WRAPPER_FREE_TEXT if mode == "free" else selection.WRAPPER_CONSTRAINED
    return selection.decide(
        SimpleNamespace(
            model=model,
            model_endpoint=upstream.base_url,
            provider_name=upstream.provider,
            handle=upstream.handle(model),
            model_wrapper=f"{selection.WRAPPER_ON},{switch}",
        )
    )


def no_grammar_because(upstream: Any, decision: Decision, model: str) -> str | None:
    """Why free text under the call blocks' lazy grammar is no candidate at this endpoint, or
    None when it is one."""
    server = endpoints.KNOWN.server(upstream.base_url)
    kind = server.kind if server is not None else None
    if decision.e2ee or decision.venice_dialect or kind not in TRIGGER_KINDS:
        what = "Venice" if decision.venice_dialect else (kind or "a server of no recognised kind")
        return f"{what} takes no lazy grammar (llama.cpp's llama-server, vLLM and SGLang do)"
    if endpoints.KNOWN.refused_schema(upstream.base_url, model, GRAMMAR_SHAPE):
        return "the server refused the grammar before"
    return None


def enforces_schemas(upstream: Any, decision: Decision) -> bool:
    """Whether the endpoint enforces reply schemas for the model: the rule selection applies
    when nothing chose a mode (read here without the calibration a previous run recorded)."""
    if decision.e2ee:
        return False  # Venice takes no response_format in end-to-end encrypted mode
    if decision.venice_dialect:
        return decision.model is not None and bool(decision.model.supports_response_schema)
    server = endpoints.KNOWN.server(upstream.base_url)
    return server is not None and server.kind in LOCAL_KINDS


async def _ask(
    upstream: Any, model: str, decision: Decision, question: Question, system: str, max_tokens: int
) -> tuple[list[dict[str, Any]], float, str | None, int | None]:
    """(calls, seconds, error, refused status) of one question through the proxy's driver."""
    from .proxy.app import prepare_request
    from .proxy.driver import Emulated, transport_for
    from .proxy.errors import failure_of

    body = {
        "model": model,
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": question.text}],
        "tools": question.tools,
        "temperature": 0,
        "seed": SEED,
        "max_tokens": max_tokens,
    }
    started = time.perf_counter()
    try:
        driver = Emulated(prepare_request(upstream, body, decision), transport_for(upstream, decision, model), model)
        completion = await driver.complete()
    except Exception as exc:  # noqa: BLE001 - a failed question is a wrong answer, with its reason
        # The proxy's words, for this command's option.
        message = failure_of(exc, model).message.replace("--upstream", "--base-url")
        return [], time.perf_counter() - started, message, None
    refused = driver.outcome.refused_schema_status if driver.outcome is not None else None
    return calls_of(completion), time.perf_counter() - started, None, refused


@dataclass
class Report:
    runs: list[ModeRun]
    chosen: ModeRun | None
    preferred: str
    path: str | None
    emulated_by_settings: bool
    grammar: bool | None = None  # what was recorded for free text's grammar (None: not measured)


async def calibrate(
    base_url: str,
    model: str,
    api_key: str | None,
    *,
    limit: int | None = None,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    timeout: float = DEFAULT_TIMEOUT,
    progress: TextIO | None = None,
) -> Report:
    """Asks the questions in every supported mode, records the best and returns what it found."""
    from .proxy.upstream import Upstream, shared_client

    provider = venice.PROVIDER_NAME if venice.looks_like_venice(base_url) else "proxy"
    upstream = Upstream(base_url, api_key, provider, timeout, shared_client(timeout))
    try:
        await upstream.refresh()
        emulated = upstream.decide(model).emulate
        free = _decision(upstream, model, "free")
        unasked = no_grammar_because(upstream, free, model)
        runs = [ModeRun("free", None), ModeRun("free", None, grammar=True, skipped=unasked)]
        if enforces_schemas(upstream, free):
            constrained = _decision(upstream, model, "constrained")
            runs.append(ModeRun("constrained", constrained.schema_shape))
            runs.append(ModeRun("constrained", constrained.schema_shape, one_call=True))
        # What the plugin would choose without calibration: a tie keeps it.
        preferred = "constrained" if runs[-1].mode == "constrained" else "free" if unasked else "free+grammar"
        asked = load_questions(limit)
        measured = [r for r in runs if not r.skipped]
        server = endpoints.KNOWN.server(upstream.base_url)
        kind = server.kind if server is not None else None
        if progress is not None:
            what = "Venice" if free.venice_dialect else kind
            names = [_label(r) for r in measured]
            listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
            print(
                f"Calibrating {model} at {base_url} ({what or 'server kind not recognised'}): "
                f"{len(asked.questions)} questions in {listed}",
                file=progress,
                flush=True,
            )
            if unasked:
                print(f"Free text under the call blocks' grammar is not asked: {unasked}.", file=progress, flush=True)
        total = len(asked.questions) * len(measured)
        done = 0
        for run in measured:
            if run.one_call and any(r.refused for r in runs if r.mode == "constrained" and not r.one_call):
                # Refused again, it would measure free text a second time.
                run.skipped = "the server refused the reply schema"
                done += len(asked.questions)
                continue
            for question in asked.questions:
                if run.mode == "constrained":
                    # A refused schema is what this run measures: its decision stays.
                    decision = replace(constrained, one_call=run.one_call)
                elif run.grammar:
                    if endpoints.KNOWN.refused_schema(upstream.base_url, model, GRAMMAR_SHAPE):
                        # Asked without it from now on, this run would measure plain free text again.
                        done += len(asked.questions) - len(run.answers)
                        if progress is not None:
                            print(
                                f"The server refused the grammar ({run.refused}): free + grammar is not asked further.",
                                file=progress,
                                flush=True,
                            )
                        break
                    decision = replace(free, grammar_kind=kind)
                else:
                    decision = replace(free, grammar_kind=None)
                calls, seconds, error, refused = await _ask(
                    upstream, model, decision, question, asked.system_message, max_tokens
                )
                if refused is not None and (run.mode == "constrained" or run.grammar):
                    run.refused = f"HTTP {refused}"
                wrong = error or check(question, calls)
                run.answers.append(Answer(question, wrong, bool(calls), seconds, error))
                done += 1
                if progress is not None:
                    verdict = "right" if wrong is None else f"wrong: {_short(wrong)}"
                    counter = f"[{done}/{total}]"
                    print(
                        f"{counter:<9} {run.name:<20} {question.kind:<11} {question.id:<18} {_seconds(seconds):>7}  "
                        f"{verdict}",
                        file=progress,
                        flush=True,
                    )
    finally:
        await upstream.close()
    chosen = best(runs, preferred)
    grammar = grammar_choice(runs)
    where = None
    if chosen is not None:
        figures = {
            "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "questions": len(asked.questions),
            "modes": {r.name: r.summary() for r in runs if not r.skipped},
        }
        choice = calibration.Choice(chosen.mode, chosen.shape, grammar, chosen.one_call)
        where = str(calibration.record(base_url, model, choice, figures))
    return Report(runs, chosen, preferred, where, emulated, grammar)


def base_url_of(url: str) -> str:
    """As the proxy reads ``--upstream``: ``/v1`` added to a bare host."""
    from .proxy.server import SettingsError, settings_from

    try:
        return settings_from(upstream=url, mode="auto").base_url
    except SettingsError as exc:
        raise ValueError(str(exc).replace("--upstream", "--base-url")) from None


def main(
    base_url: str,
    model: str,
    api_key_env: str | None,
    questions: int | None,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    timeout: float = DEFAULT_TIMEOUT,
) -> int:
    try:
        url = base_url_of(base_url)
    except ValueError as exc:
        print(f"letta-tool-emulation calibrate: {exc}", file=sys.stderr)
        return 2
    if (questions is not None and questions < 1) or max_tokens < 1 or timeout <= 0:
        print(
            "letta-tool-emulation calibrate: --questions, --max-tokens and --timeout must be positive.", file=sys.stderr
        )
        return 2
    if api_key_env:
        api_key = os.environ.get(api_key_env) or None
        if api_key is None:
            print(
                f"letta-tool-emulation calibrate: --api-key-env names {api_key_env}, which is not set.", file=sys.stderr
            )
            return 2
    elif venice.looks_like_venice(url):
        api_key = venice.api_key()
    else:
        api_key = os.environ.get(UPSTREAM_KEY_ENV) or None
    # The engine's notes on each reply (set-aside blocks, re-asks) would drown the progress lines.
    logging.getLogger("letta_tool_emulation").setLevel(logging.WARNING)
    report = asyncio.run(
        calibrate(url, model, api_key, limit=questions, max_tokens=max_tokens, timeout=timeout, progress=sys.stderr)
    )
    print(render(report.runs))
    print()
    if report.chosen is None:
        first = next((a.error for r in report.runs for a in r.answers if a.error), None)
        print(
            "No mode could be measured (every question failed with an error, or the schema was refused); "
            "nothing recorded." + (f" The first error: {first}" if first else "")
        )
        return 1
    others = ", ".join(_label(r) for r in report.runs if r is not report.chosen and not (r.skipped or r.refused))
    print(f"Best: {_label(report.chosen)}" + (f" (over {others})" if others else " (the only mode measured)"))
    if report.grammar is not None and report.chosen.mode != "free":
        free = {r.grammar: r.accuracy() for r in report.runs if r.mode == "free"}
        how = "as well with the grammar as without it" if free[True] == free[False] else (
            f"better {'with' if report.grammar else 'without'} the grammar")  # fmt: skip
        print(f"Free text did {how}: {'with' if report.grammar else 'without'} it is recorded for when free "
              "text is used.")  # fmt: skip
    print(f"Recorded in {report.path}: used for {model} at {url} unless an agent switch, "
          "LETTA_TOOL_EMULATION_CONSTRAINED or the proxy's --mode / X-Tool-Emulation-Mode chooses "
          "(and for the grammar, LETTA_TOOL_EMULATION_GRAMMAR).")  # fmt: skip
    if report.chosen.one_call:
        print("Replies are held to one call each for this model (LETTA_TOOL_EMULATION_MAX_CALLS sets otherwise).")
    if not report.emulated_by_settings:
        print(f"Note: your settings do not emulate {model} (it was measured with emulation forced on); "
              "LETTA_TOOL_EMULATION_MODELS or the agent switch tool-emulation turns it on.")  # fmt: skip
    return 0
