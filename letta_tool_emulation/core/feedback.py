"""Telling the model what went wrong with the calls it tried to make."""

from __future__ import annotations

from collections.abc import Iterable

from .markers import CALL_END, CALL_START, neutralise
from .results import Problem


def render_feedback(problems: Iterable[Problem], *, executed: int = 0) -> str:
    """A message for the model about its rejected calls, or "" when there are none.

    Only problems marked ``rejected`` (an attempted call that did not run) are included;
    repairs and deliberately ignored examples are not the model's concern. ``executed`` is
    how many other calls of the same reply did run: the model must not repeat those.
    """
    rejected = [p for p in problems if p.rejected]
    if not rejected:
        return ""
    if executed:
        lines = [
            f"Not every call in your last reply was executed: {executed} ran (see their results), "
            f"{len(rejected)} did not:"
        ]
    else:
        lines = ["Your last reply tried to call a tool, but nothing was executed:"]
    for p in rejected:
        line = f"- {p.message}"
        if p.excerpt:
            # Neutralised: this goes back to the model, which must not take its own
            # quoted attempt for a new call if it repeats it.
            line += f"\n  You wrote: {neutralise(p.excerpt)}"
        lines.append(line)
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
