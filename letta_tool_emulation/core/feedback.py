"""Telling the model what went wrong with the calls it tried to make."""

from __future__ import annotations

from collections.abc import Iterable

from .markers import CALL_END, CALL_START, neutralise
from .results import Problem


def render_feedback(problems: Iterable[Problem]) -> str:
    """A message for the model about its rejected calls, or "" when there are none.

    Only problems marked ``rejected`` (an attempted call that did not run) are included;
    repairs and deliberately ignored examples are not the model's concern.
    """
    rejected = [p for p in problems if p.rejected]
    if not rejected:
        return ""
    lines = ["Your last reply tried to call a tool, but nothing was executed:"]
    for p in rejected:
        line = f"- {p.message}"
        if p.excerpt:
            # Neutralised: this goes back to the model, which must not take its own
            # quoted attempt for a new call if it repeats it.
            line += f"\n  You wrote: {neutralise(p.excerpt)}"
        lines.append(line)
    lines.append(
        f"Write the corrected call now as {CALL_START}, a JSON object on the next line, then {CALL_END}; "
        "or answer in plain text if no tool is needed."
    )
    return "\n".join(lines)
