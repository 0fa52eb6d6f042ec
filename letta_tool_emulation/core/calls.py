"""The semantic half of the parser: what a region found by the scanner means.

A region becomes zero or more calls. JSON is decoded only here, inside a region the scanner
delimited, never on free prose (see decoding.py for exactly how); truncated JSON is recognised
before any repair so that it is reported instead of being "completed" into a call the model
never finished. Whether a call-shaped region was performed at all is the context rule's
business (context.py), not this module's.
"""

from __future__ import annotations

from typing import Any

import regex

from . import markers as M
from .accept import DEFAULT_THRESHOLD, FREE_TEXT, Acceptor, Read
from .context import Shown
from .decoding import Decoded, clean_surrogates, decode, decode_exact, holds_surrogates, may_hold_surrogates
from .formats import BASE_CONFIDENCE, CALL_FENCE_INFOS
from .region import NOT_DECODED, Reading, Region, cut_why, excerpt, is_cut
from .results import Format, Problem, ProblemKind, StreamEvent

__all__ = ["DEFAULT_THRESHOLD", "Interpreter"]  # the threshold's old home, still imported from here

_LAST_SIGNIFICANT = regex.compile(r"\S(?=\s*\Z)")
# A bare fence's body that is comment lines, then one call block, then nothing
_COMMENTED_BLOCK = regex.compile(
    r"(?:[ \t]*\r?\n)*(?:[ \t]*#[^\n]*\n(?:[ \t]*\r?\n)*)+[ \t]*"
    + M.CALL_START
    + r"(?:(?!"
    + M.CALL_START
    + r"|"
    + M.CALL_END
    + r").)*+"
    + M.CALL_END
    + r"\s*",
    regex.DOTALL,
)


class Interpreter:
    """Turns regions into call and problem events for one tool list and one reply."""

    __slots__ = ("accept",)

    def __init__(self, accept: Acceptor) -> None:
        self.accept = accept

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
        reads = [self.accept.read(item, FREE_TEXT) for item in items]
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
            # A bare fence of the model's own block under its comment lines ("# saving the new
            # address"), and nothing else, wraps a call as ```tool_call does; the context judges it
            wrapped = not info and _COMMENTED_BLOCK.fullmatch(body) is not None
            if not (tool_fence or wrapped):
                return Reading(
                    shown=Shown("in_code_block", "it is inside a code block (calls are written outside them)")
                )
            start = body.index(M.CALL_START) + len(M.CALL_START)
            end = body.find(M.CALL_END, start)
            body = body[start:] if end < 0 else body[start:end]
        elif not tool_fence and not self._looks_like_call(body):
            return Reading(call_attempt=False)
        # A fence the reply's cut left open holds a call only if its JSON is whole as written:
        # mending it would run what the model never finished.
        cut_open = region.end_marker is False and is_cut(region.finish_reason)
        inner = Region(
            spec=region.spec,
            format=region.format,
            text=body.strip(),
            raw=region.raw,
            end_marker=region.end_marker,
            finish_reason=region.finish_reason,
            complete=not cut_open or isinstance(decode_exact(body.strip()), Decoded),
        )
        decoded = self._decode(inner)
        if isinstance(decoded, Problem):
            # A ```tool_call block was an attempt; a ```json block that is not JSON is code.
            return Reading(events=[_event(decoded)]) if tool_fence else Reading(call_attempt=False)
        reads = [self.accept.read(item, FREE_TEXT) for item in _call_items(decoded.value)]
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
            f'"{name}"' in text or f"'{name}'" in text for name in self.accept.tools
        )

    def _judge_json_only(self, reads: list[Read | str]) -> Reading | None:
        """JSON with no marker around it: calls only if every entry calls an offered tool, and
        not a list of different tools (that describes the tools)."""
        if not reads or any(isinstance(r, str) or r[0] not in self.accept.tools for r in reads):
            return Reading(call_attempt=False)
        if len({r[0] for r in reads if not isinstance(r, str)}) > 1:
            return Reading(shown=Shown("example", "it lists several different tools"))
        return None

    def _decode(self, region: Region) -> Decoded | Problem:
        if region.too_deep:
            return _problem(
                "invalid_json",
                "The call's JSON is nested too deeply to be read, so nothing was called.",
                region,
                rejected=True,
            )
        if region.value is not NOT_DECODED and region.complete:
            # JSON the scanner already decoded: its value is looked at for lone surrogates, more
            # quickly than its text, which is not even copied to strip it (it may run to many KB).
            value = region.value
            return Decoded(clean_surrogates(value) if holds_surrogates(value) else value)
        text = region.text.strip()
        notes: list[str] = []
        penalties: list[str] = []
        if not region.complete:
            if is_cut(region.finish_reason) or not text or (region.in_string and not region.end_marker):
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
        result = decode(text, self.accept.budget)
        if isinstance(result, str):
            return _problem("invalid_json", result, region, rejected=True)
        result.notes[:0] = notes
        result.penalties[:0] = penalties
        if may_hold_surrogates(text):
            result.value = clean_surrogates(result.value)
        return result

    def _calls(
        self, reads: list[Read | str], fmt: Format, base: float, decoded: Decoded, region: Region
    ) -> list[StreamEvent]:
        if not reads:
            return [
                _event(
                    _problem("malformed_call", "The call block was empty; nothing was called.", region, rejected=True)
                )
            ]
        events: list[StreamEvent] = []
        for read in reads:
            if isinstance(read, str):
                events.append(_event(_problem("malformed_call", read, region, rejected=True)))
            else:
                events += self.accept.accept(
                    read,
                    fmt=fmt,
                    base=base,
                    dialect=FREE_TEXT,
                    raw=region.raw,
                    notes=decoded.notes,
                    penalties=decoded.penalties,
                )
        return events


def _call_items(value: Any) -> list[Any]:
    if isinstance(value, list):
        return value
    if isinstance(value, dict) and isinstance(value.get("tool_calls"), list):
        return list(value["tool_calls"])
    return [value]


def _truncated(region: Region) -> Problem:
    why = cut_why(region.finish_reason)
    return _problem(
        "truncated",
        f"The call was cut off before its JSON was complete{why}, so nothing was called. "
        "Write the whole call again; keep long texts shorter if needed.",
        region,
        rejected=True,
    )


def _problem(
    kind: ProblemKind, message: str, region: Region, *, rejected: bool = False, tool: str | None = None
) -> Problem:
    return Problem(kind, message, rejected=rejected, tool_name=tool, excerpt=excerpt(region.raw))


def _event(problem: Problem) -> StreamEvent:
    return StreamEvent(problem=problem)
