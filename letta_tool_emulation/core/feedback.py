"""Telling the model what went wrong with the calls it tried to make."""

from __future__ import annotations

from collections.abc import Iterable

from .markers import CALL_END, CALL_START, neutralise
from .results import Problem

NOTHING_RAN = "Your last reply tried to call a tool, but nothing was executed:"
SOME_RAN = "Not every call in your last reply was executed"
NONE_CALLED = "Your last reply called no tool, but one is required"
EMPTY = "Your last reply was empty"
SET_ASIDE = "Note on your last reply"
# How every message to the model about its calls begins, so that a reader of a transcript (the
# stand-in model, for one) can tell the plugin's feedback from the user's own words.
FEEDBACK_OPENINGS = (NOTHING_RAN.split(",")[0], SOME_RAN, NONE_CALLED, EMPTY, SET_ASIDE)


def report_lines(problems: Iterable[Problem], *, executed: int = 0) -> list[str]:
    """What was rejected, one line each, under its opening; [] when nothing was. Only problems
    marked ``rejected`` (an attempted call that did not run) are included; repairs and
    deliberately ignored examples are not the model's concern."""
    rejected = [p for p in problems if p.rejected]
    if not rejected:
        return []
    lines = [f"{SOME_RAN}: {executed} ran (see their results), {len(rejected)} did not:" if executed else NOTHING_RAN]
    for p in rejected:
        line = f"- {p.message}"
        if p.excerpt:
            # Neutralised: this goes back to the model, which must not take its own
            # quoted attempt for a new call if it repeats it.
            line += f"\n  You wrote: {neutralise(p.excerpt)}"
        lines.append(line)
    return lines


_TREATED_AS = {
    "example": "an illustration",
    "quoted": "a quotation",
    "proposed": "a proposal",
    "retracted": "retracted",
}


def render_notes(problems: Iterable[Problem], tools: Iterable[str] = ()) -> str:
    """A neutral note for the model about blocks to a real tool that were set aside because of
    the words next to them (not their place in the reply), or "" when there were none. It
    neither asks the model to run them nor lets it believe anything was saved."""
    known = frozenset(tools)
    lines = []
    for p in problems:
        if p.rejected or not p.words or p.tool_name is None or (known and p.tool_name not in known):
            continue
        lines.append(
            f"- the {p.tool_name} block next to {p.words!r} was treated as {_TREATED_AS.get(p.kind, 'an illustration')} "
            "and was not run; nothing in it was executed or saved."
        )
    if not lines:
        return ""
    return f"{SET_ASIDE}:\n" + "\n".join(lines)


def render_feedback(problems: Iterable[Problem], *, executed: int = 0) -> str:
    """A message for the model about its rejected calls, or "" when there are none.
    ``executed`` is how many other calls of the same reply did run: the model must not repeat
    those."""
    lines = report_lines(problems, executed=executed)
    if not lines:
        return ""
    if executed:
        lines.append(
            f"Write only the calls that did not run, corrected, each as {CALL_START}, a JSON object, then "
            f"{CALL_END}; do not repeat the calls that ran."
        )
    else:
        lines.append(
            f"Write the corrected call now as {CALL_START}, a JSON object on the next line, then {CALL_END}; "
            "or answer in plain text if no tool is needed."
        )
    return "\n".join(lines)


def render_required_call(name: str | None, *, how: str = f"in a {CALL_START} block") -> str:
    """The message for a reply that called nothing when a tool call was required."""
    which = f"the tool {name}" if name else "a tool"
    return f"{NONE_CALLED}: call {which} now, {how}. Write the call in your next reply."


def render_empty_reply(*, how: str = f"in a {CALL_START} block") -> str:
    """The message for a reply with neither text nor a call (which a framework cannot use)."""
    return f"{EMPTY}: answer the user, or call a tool {how}."
