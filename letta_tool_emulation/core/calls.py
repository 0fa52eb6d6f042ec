"""The semantic half of the parser: what a region found by the scanner means.

A region becomes zero or more calls. JSON is repaired only here, inside a region the scanner
delimited, never on free prose; truncated JSON is recognised before any repair so that it is
reported instead of being "completed" into a call the model never finished.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import json_repair
import regex

from . import markers as M
from .results import Format, Problem, StreamEvent, ToolCall
from .scanner import NOT_DECODED, Outcome, Region, excerpt
from .tools import ToolSpec
from .validate import DEFAULT_IGNORED_PARAMS, validate_arguments

# How sure we are that a well-formed region of each format was meant as a call.
BASE_CONFIDENCE: dict[str, float] = {
    "canonical": 1.0,
    "hermes": 0.95,
    "xml": 0.9,
    "mistral": 0.9,
    "tool_fence": 0.85,
    "react": 0.8,
    "data_fence": 0.7,
    "bare": 0.6,
}
# Multiplied in for each thing that had to be mended or guessed.
PENALTY: dict[str, float] = {
    "repaired_json": 0.85,
    "closed_brackets": 0.85,
    "missing_end_marker": 0.9,
    "key_variant": 0.97,
    "arguments_as_string": 0.97,
    "top_level_arguments": 0.9,
    "coerced": 0.95,
}
DEFAULT_THRESHOLD = 0.5

NAME_KEYS = ("function", "name", "tool", "tool_name", "function_name", "recipient_name")
ARGUMENT_KEYS = ("params", "parameters", "arguments", "args", "tool_input", "input", "kwargs", "action_input")
# Keys that travel with calls in various formats and carry nothing to execute.
PASSIVE_KEYS = frozenset(
    {"id", "type", "index", "call_id", "tool_call_id", "thought", "thoughts", "reasoning", "explanation"}
)
_LAST_SIGNIFICANT = regex.compile(r"\S(?=\s*\Z)")
_SURROGATE = regex.compile(r"[\ud800-\udfff]")
# Text that can decode to a lone surrogate: an escape for one, or one written raw.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_RAW_SURROGATE = re.compile("[\ud800-\udfff]")


def _may_hold_surrogates(text: str) -> bool:
    return ("\\u" in text and _SURROGATE_ESCAPE.search(text) is not None) or _RAW_SURROGATE.search(text) is not None


_WORD = regex.compile(r"\w")
_COMMENT = regex.compile(r"//[^\n]*|/\*.*?\*/|#[^\n]*", regex.DOTALL)


def _words(text: str) -> int:
    return len(_WORD.findall(text))


@dataclass(frozen=True, slots=True)
class Options:
    threshold: float = DEFAULT_THRESHOLD
    ignored_params: frozenset[str] = DEFAULT_IGNORED_PARAMS


@dataclass(slots=True)
class _Decoded:
    value: Any
    notes: list[str]
    penalties: list[str]


class Interpreter:
    """Turns regions into call and problem events for one tool list."""

    def __init__(self, tools: Mapping[str, ToolSpec], options: Options) -> None:
        self.tools = tools
        self.options = options

    def __call__(self, region: Region) -> Outcome:
        try:
            if region.format == "fence":
                return self._fence(region)
            return self._json_region(region)
        except Exception as exc:  # noqa: BLE001 - the parser must never raise on model output
            return Outcome(
                events=[
                    _problem(
                        "invalid_json",
                        f"The call could not be read ({type(exc).__name__}); nothing was called.",
                        region,
                        rejected=True,
                    )
                ]
            )

    # -- formats ------------------------------------------------------------------------------

    def _json_region(self, region: Region) -> Outcome:
        fmt = region.format
        bare = fmt == "bare"
        decoded = self._decode(region)
        if isinstance(decoded, Problem):
            if bare and not self._names_known_tool(region.text):
                return Outcome(release=True, call_attempt=False)
            return Outcome(events=[_event(decoded)])
        if region.end_marker is False:
            decoded.penalties.append("missing_end_marker")
            decoded.notes.append("end marker missing")
        if fmt in ("xml", "react"):
            value = decoded.value
            if not isinstance(value, dict):
                return Outcome(
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
        base = BASE_CONFIDENCE[fmt]
        if bare:
            # A bare JSON reply is a call only when every entry names a known tool.
            reads = [_read_call(item) for item in items]
            if not items or any(isinstance(r, str) or r[0] not in self.tools for r in reads):
                return Outcome(release=True, call_attempt=False)
        return Outcome(events=self._calls(items, fmt, base, decoded, region))

    def _fence(self, region: Region) -> Outcome:
        info = region.fence_info or ""
        body = region.text
        tool_fence = info in M.CALL_FENCE_INFOS
        if region.example_context:
            if tool_fence or M.CALL_START in body or self._names_known_tool(body):
                return Outcome(
                    events=[
                        _event(
                            _problem(
                                "example",
                                "A call-shaped code block introduced as an example was not executed.",
                                region,
                            )
                        )
                    ],
                    release=True,
                    call_attempt=False,
                )
            return Outcome(release=True, call_attempt=False)
        if M.CALL_START in body:
            if not tool_fence:
                return Outcome(
                    events=[
                        _event(
                            _problem(
                                "in_code_block",
                                "A TOOL_CALL_START block inside a code block was shown, not executed "
                                "(calls are written outside code blocks).",
                                region,
                            )
                        )
                    ],
                    release=True,
                    call_attempt=False,
                )
            start = body.index(M.CALL_START) + len(M.CALL_START)
            end = body.find(M.CALL_END, start)
            body = body[start:] if end < 0 else body[start:end]
        inner = Region(
            format="fence",
            text=body.strip(),
            raw=region.raw,
            end_marker=region.end_marker,
            finish_reason=region.finish_reason,
        )
        decoded = self._decode(inner)
        if isinstance(decoded, Problem):
            if tool_fence:
                return Outcome(events=[_event(decoded)])
            return Outcome(release=True, call_attempt=False)
        items = _call_items(decoded.value)
        if not tool_fence:
            reads = [_read_call(item) for item in items]
            if not items or any(isinstance(r, str) or r[0] not in self.tools for r in reads):
                return Outcome(release=True, call_attempt=False)
        if region.end_marker is False:
            decoded.penalties.append("missing_end_marker")
            decoded.notes.append("closing fence missing")
        base = BASE_CONFIDENCE["tool_fence" if tool_fence else "data_fence"]
        return Outcome(events=self._calls(items, "fence", base, decoded, region))

    # -- pieces -------------------------------------------------------------------------------

    def _names_known_tool(self, text: str) -> bool:
        return any(f'"{name}"' in text or f"'{name}'" in text for name in self.tools)

    def _decode(self, region: Region) -> _Decoded | Problem:
        text = region.text.strip()
        notes: list[str] = []
        penalties: list[str] = []
        if not region.complete:
            if region.finish_reason == "length" or region.in_string or not text:
                return _truncated(region)
            last = _LAST_SIGNIFICANT.search(text)
            if last is None or last.group() in ",:{[":
                return _truncated(region)
            if region.open_brackets:
                text += "".join("}" if b == "{" else "]" for b in reversed(region.open_brackets))
                notes.append(f"closed {len(region.open_brackets)} bracket(s) left open at the end")
                penalties.append("closed_brackets")
        try:
            value = region.value if region.value is not NOT_DECODED and region.complete else json.loads(text)
        except ValueError:
            try:
                value = json_repair.loads(text, skip_json_loads=True)
            except Exception:  # noqa: BLE001 - json_repair is not guaranteed never to raise
                value = None
            if not isinstance(value, (dict, list)) or not value:
                return _problem(
                    "invalid_json",
                    "The call's JSON could not be read even after repair, so nothing was called. "
                    "Write valid JSON: double quotes, no trailing commas, newlines inside strings as \\n.",
                    region,
                    rejected=True,
                )
            if _words(json.dumps(value, ensure_ascii=False)) < _words(_COMMENT.sub("", text)):
                # json_repair guessed, and its guess dropped text the model wrote (stray
                # quotes are the usual cause). Executing that would lose data silently.
                return _problem(
                    "invalid_json",
                    "The call's JSON was broken in a way that could not be repaired without losing text "
                    '(often an unescaped " inside a string), so nothing was called. Write it again as valid '
                    'JSON, escaping quotes inside strings as \\".',
                    region,
                    rejected=True,
                )
            notes.append("repaired JSON")
            penalties.append("repaired_json")
        if _may_hold_surrogates(text):
            value = _clean_surrogates(value)
        return _Decoded(value, notes, penalties)

    def _calls(
        self, items: list[Any], fmt: Format, base: float, decoded: _Decoded, region: Region
    ) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        if not items:
            return [
                _event(
                    _problem("malformed_call", "The call block was empty; nothing was called.", region, rejected=True)
                )
            ]
        for item in items:
            read = _read_call(item)
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


def _read_call(item: Any) -> tuple[str, dict[str, Any], list[str], list[str]] | str:
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
            try:
                arguments = json.loads(text)
            except ValueError:
                try:
                    arguments = json_repair.loads(text, skip_json_loads=True)
                except Exception:  # noqa: BLE001
                    arguments = None
                notes.append("repaired JSON in the arguments string")
                penalties.append("repaired_json")
            notes.append("arguments given as a JSON string")
            penalties.append("arguments_as_string")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        return f"The parameters of '{name}' must be a JSON object of named values."
    return name, arguments, notes, penalties


def _clean_surrogates(value: Any) -> Any:
    """Replace lone surrogates (from escapes like \\ud83d) that no UTF-8 store accepts."""
    if isinstance(value, str):
        if _SURROGATE.search(value):
            return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        return value
    if isinstance(value, list):
        return [_clean_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {_clean_surrogates(k): _clean_surrogates(v) for k, v in value.items()}
    return value


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
