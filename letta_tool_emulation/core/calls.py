"""The semantic half of the parser: what a region found by the scanner means.

A region becomes zero or more calls. JSON is decoded only here, inside a region the scanner
delimited, never on free prose (see decoding.py for exactly how); truncated JSON is recognised
before any repair so that it is reported instead of being "completed" into a call the model
never finished. Whether a call-shaped region was performed at all is the context rule's
business (context.py), not this module's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import regex

from . import markers as M
from .decoding import Budget, Decoded, clean_surrogates, decode, may_hold_surrogates
from .formats import BASE_CONFIDENCE, CALL_FENCE_INFOS, NAME_KEYS
from .region import NOT_DECODED, Reading, Region, excerpt
from .results import Format, Problem, StreamEvent, ToolCall
from .tools import ToolSpec
from .validate import DEFAULT_IGNORED_PARAMS, validate_arguments

# Multiplied in for each thing that had to be mended or guessed.
PENALTY: dict[str, float] = {
    "repaired_json": 0.85,
    "closed_brackets": 0.93,
    "missing_end_marker": 0.9,
    "key_variant": 0.97,
    "arguments_as_string": 0.97,
    "top_level_arguments": 0.9,
    "coerced": 0.95,
}
DEFAULT_THRESHOLD = 0.5

ARGUMENT_KEYS = ("params", "parameters", "arguments", "args", "tool_input", "input", "kwargs", "action_input")
# Keys that travel with calls in various formats and carry nothing to execute.
PASSIVE_KEYS = frozenset(
    {"id", "type", "index", "call_id", "tool_call_id", "thought", "thoughts", "reasoning", "explanation"}
)
_LAST_SIGNIFICANT = regex.compile(r"\S(?=\s*\Z)")


@dataclass(frozen=True, slots=True)
class Options:
    threshold: float = DEFAULT_THRESHOLD
    ignored_params: frozenset[str] = DEFAULT_IGNORED_PARAMS


class Interpreter:
    """Turns regions into call and problem events for one tool list and one reply."""

    def __init__(self, tools: Mapping[str, ToolSpec], options: Options) -> None:
        self.tools = tools
        self.options = options
        self.budget = Budget()  # json_repair is slow: it sees a bounded amount per reply

    def __call__(self, region: Region) -> Reading:
        try:
            if region.spec.family == "fence":
                return self._fence(region)
            return self._json_region(region)
        except Exception as exc:  # noqa: BLE001 - one region's failure must not reach the others
            return Reading(
                events=[
                    _event(
                        _problem(
                            "invalid_json",
                            f"The call could not be read ({type(exc).__name__}); nothing was called.",
                            region,
                            rejected=True,
                        )
                    )
                ]
            )

    # -- formats ------------------------------------------------------------------------------

    def _json_region(self, region: Region) -> Reading:
        fmt = region.format
        bare = region.spec.json_only
        if bare and not self._looks_like_call(region.text):
            return Reading(call_attempt=False)
        decoded = self._decode(region)
        if isinstance(decoded, Problem):
            return Reading(events=[_event(decoded)])
        if region.end_marker is False:
            decoded.penalties.append("missing_end_marker")
            decoded.notes.append("end marker missing")
        if region.name is not None:  # the tool named outside the JSON: the JSON is its arguments
            value = decoded.value
            if not isinstance(value, dict):
                return Reading(
                    events=[
                        _event(
                            _problem(
                                "invalid_arguments",
                                f"The arguments for '{region.name}' must be a JSON object.",
                                region,
                                rejected=True,
                                tool=region.name,
                            )
                        )
                    ]
                )
            items: list[Any] = [{"function": region.name, "params": value}]
        else:
            items = _call_items(decoded.value)
        reads = [_read_call(item, self.budget) for item in items]
        if bare:
            judged = self._judge_json_only(reads)
            if judged is not None:
                return judged
        return Reading(events=self._calls(reads, fmt, BASE_CONFIDENCE[fmt], decoded, region))

    def _fence(self, region: Region) -> Reading:
        info = region.fence_info or ""
        body = region.text
        tool_fence = info in CALL_FENCE_INFOS
        if M.CALL_START in body:
            if not tool_fence:
                return Reading(shown=("in_code_block", "it is inside a code block (calls are written outside them)"))
            start = body.index(M.CALL_START) + len(M.CALL_START)
            end = body.find(M.CALL_END, start)
            body = body[start:] if end < 0 else body[start:end]
        elif not tool_fence and not self._looks_like_call(body):
            return Reading(call_attempt=False)
        inner = Region(
            spec=region.spec,
            format=region.format,
            text=body.strip(),
            raw=region.raw,
            end_marker=region.end_marker,
            finish_reason=region.finish_reason,
        )
        decoded = self._decode(inner)
        if isinstance(decoded, Problem):
            # A ```tool_call block was an attempt; a ```json block that is not JSON is code.
            return Reading(events=[_event(decoded)]) if tool_fence else Reading(call_attempt=False)
        reads = [_read_call(item, self.budget) for item in _call_items(decoded.value)]
        if not tool_fence:
            judged = self._judge_json_only(reads)
            if judged is not None:
                return judged
        if region.end_marker is False:
            decoded.penalties.append("missing_end_marker")
            decoded.notes.append("closing fence missing")
        base = BASE_CONFIDENCE["tool_fence" if tool_fence else "data_fence"]
        return Reading(events=self._calls(reads, "fence", base, decoded, region))

    # -- pieces -------------------------------------------------------------------------------

    def _looks_like_call(self, text: str) -> bool:
        """JSON alone is a call only when it names an offered tool under a quoted name key."""
        return M.QUOTED_NAME_KEY.search(text) is not None and any(
            f'"{name}"' in text or f"'{name}'" in text for name in self.tools
        )

    def _judge_json_only(self, reads: list[_Read | str]) -> Reading | None:
        """JSON with no marker around it: calls only if every entry calls an offered tool, and
        not a list of different tools (that describes the tools)."""
        if not reads or any(isinstance(r, str) or r[0] not in self.tools for r in reads):
            return Reading(call_attempt=False)
        if len({r[0] for r in reads if not isinstance(r, str)}) > 1:
            return Reading(shown=("example", "it lists several different tools"))
        return None

    def _decode(self, region: Region) -> Decoded | Problem:
        text = region.text.strip()
        notes: list[str] = []
        penalties: list[str] = []
        if region.too_deep:
            return _problem(
                "invalid_json",
                "The call's JSON is nested too deeply to be read, so nothing was called.",
                region,
                rejected=True,
            )
        if not region.complete:
            if region.finish_reason == "length" or not text or (region.in_string and not region.end_marker):
                return _truncated(region)
            if region.cut:
                return _problem(
                    "invalid_json",
                    "The call's JSON was not finished when the next call began, so nothing was called. "
                    "Write each call complete, between its own TOOL_CALL_START and TOOL_CALL_END.",
                    region,
                    rejected=True,
                )
            if region.in_string:
                # An end marker came while a string was open: either the string was never
                # closed, or it holds the marker on a line of its own. Either way, guessing
                # where it ends could change it.
                return _problem(
                    "invalid_json",
                    "A string in the call was still open where its end marker stood (a quote missing, or the "
                    "marker alone on a line inside the text), so nothing was called. Close every string, and "
                    "write line breaks inside strings as \\n.",
                    region,
                    rejected=True,
                )
            if not region.in_string:
                last = _LAST_SIGNIFICANT.search(text)
                if last is None or last.group() in ",:{[":
                    return _truncated(region)
                if region.open_brackets:
                    text += "".join("}" if b == "{" else "]" for b in reversed(region.open_brackets))
                    notes.append(f"closed {len(region.open_brackets)} bracket(s) left open at the end")
                    penalties.append("closed_brackets")
        if region.value is not NOT_DECODED and region.complete:
            result: Decoded | str = Decoded(region.value)
        else:
            result = decode(text, self.budget)
        if isinstance(result, str):
            return _problem("invalid_json", result, region, rejected=True)
        result.notes[:0] = notes
        result.penalties[:0] = penalties
        if may_hold_surrogates(text):
            result.value = clean_surrogates(result.value)
        return result

    def _calls(
        self, reads: list[_Read | str], fmt: Format, base: float, decoded: Decoded, region: Region
    ) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        if not reads:
            return [
                _event(
                    _problem("malformed_call", "The call block was empty; nothing was called.", region, rejected=True)
                )
            ]
        for read in reads:
            if isinstance(read, str):
                events.append(_event(_problem("malformed_call", read, region, rejected=True)))
                continue
            name, arguments, read_notes, read_penalties = read
            notes = decoded.notes + read_notes
            penalties = decoded.penalties + read_penalties
            spec = self.tools.get(name)
            if spec is None:
                # Never guess another tool: keep the exact name so the agent framework can
                # answer with the list of valid tools.
                events.append(
                    _event(
                        _problem(
                            "unknown_tool",
                            f"'{name}' is not an available tool. Available tools: {', '.join(self.tools) or 'none'}.",
                            region,
                            tool=name,
                        )
                    )
                )
            else:
                checked = validate_arguments(spec, arguments, self.options.ignored_params)
                if checked.errors:
                    events.append(
                        _event(
                            _problem(
                                "invalid_arguments",
                                f"The call to '{name}' was not executed: " + "; ".join(checked.errors) + ".",
                                region,
                                rejected=True,
                                tool=name,
                            )
                        )
                    )
                    continue
                arguments = checked.arguments
                notes += checked.notes
                if any("->" in n for n in checked.notes):
                    penalties.append("coerced")
            confidence = base
            for p in penalties:
                confidence *= PENALTY[p]
            confidence = round(confidence, 3)
            if confidence < self.options.threshold:
                events.append(
                    _event(
                        _problem(
                            "low_confidence",
                            f"A call to '{name}' was found but not executed because it needed too much guessing "
                            f"({', '.join(notes) or fmt}). Write it again exactly as: TOOL_CALL_START, then "
                            '{"function": "' + name + '", "params": {...}}, then TOOL_CALL_END.',
                            region,
                            rejected=True,
                            tool=name,
                        )
                    )
                )
                continue
            if notes:
                events.append(
                    _event(
                        _problem(
                            "repaired",
                            f"The call to '{name}' was accepted after: {', '.join(notes)}.",
                            region,
                            tool=name,
                        )
                    )
                )
            events.append(StreamEvent(call=ToolCall(name, arguments, confidence, fmt, tuple(notes))))
        return events


def _call_items(value: Any) -> list[Any]:
    if isinstance(value, list):
        return value
    if isinstance(value, dict) and isinstance(value.get("tool_calls"), list):
        return list(value["tool_calls"])
    return [value]


_Read = tuple[str, dict[str, Any], list[str], list[str]]


def _read_call(item: Any, budget: Budget) -> _Read | str:
    """(name, arguments, notes, penalties) from one call object, or why it is not one."""
    if not isinstance(item, dict):
        return "A call must be a JSON object with the tool's name and its parameters."
    notes: list[str] = []
    penalties: list[str] = []
    inner = item.get("function")
    if isinstance(inner, dict):  # OpenAI style: {"type": "function", "function": {...}}
        merged = {k: v for k, v in item.items() if k != "function"}
        merged.update(inner)
        item = merged
        notes.append("OpenAI-style call object")
    name_key = next((k for k in NAME_KEYS if isinstance(item.get(k), str) and item[k].strip()), None)
    if name_key is None:
        return 'A call object needs the tool name under "function", e.g. {"function": "<tool name>", "params": {...}}.'
    name = item[name_key].strip()
    arg_key = next((k for k in ARGUMENT_KEYS if k in item), None)
    if name_key != "function" or arg_key not in (None, "params"):
        penalties.append("key_variant")
    if arg_key is None:
        rest = {k: v for k, v in item.items() if k != name_key and k not in PASSIVE_KEYS and k not in NAME_KEYS}
        arguments: Any = rest
        if rest:
            notes.append("parameters given beside the tool name")
            penalties.append("top_level_arguments")
    else:
        arguments = item[arg_key]
    if isinstance(arguments, str):
        text = arguments.strip()
        if not text:
            arguments = {}
        else:
            decoded = decode(text, budget)
            if isinstance(decoded, str):
                return f"The parameters of '{name}' were given as a JSON string that could not be read: {decoded}"
            arguments = decoded.value
            notes += decoded.notes
            penalties += decoded.penalties
            notes.append("arguments given as a JSON string")
            penalties.append("arguments_as_string")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        return f"The parameters of '{name}' must be a JSON object of named values."
    return name, arguments, notes, penalties


def _truncated(region: Region) -> Problem:
    why = " (the reply hit its length limit)" if region.finish_reason == "length" else ""
    return _problem(
        "truncated",
        f"The call was cut off before its JSON was complete{why}, so nothing was called. "
        "Write the whole call again; keep long texts shorter if needed.",
        region,
        rejected=True,
    )


def _problem(kind: Any, message: str, region: Region, *, rejected: bool = False, tool: str | None = None) -> Problem:
    return Problem(kind, message, rejected=rejected, tool_name=tool, excerpt=excerpt(region.raw))


def _event(problem: Problem) -> StreamEvent:
    return StreamEvent(problem=problem)
