"""Whether a call-shaped block was performed or only shown: one rule for every format.

A block counts as a call only where the reply performs it. It is shown, and never executed,
when it sits in reasoning, in a quote (a blockquote, "earlier I ran", recited instructions),
under an example or format introduction (the paragraph before it, or the section heading),
in a list item, inside a sentence (prose right before it on its line, or after it), or
when the reply proposes it and asks for permission. The scanner records what surrounds each
block; this module decides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import regex

from .results import ProblemKind


def _lowercase(pattern: str) -> regex.Pattern[str]:
    """A pattern matched against lowercased text (faster than IGNORECASE)."""
    return regex.compile(pattern.lower())


# Words that present what follows as an illustration (all matched against lowercased text).
EXAMPLE = _lowercase(
    r"\b(?:for\s+(?:example|instance)|e\.g|examples?|such\s+as|like\s+(?:this|that|so)|looks?\s+like|"
    r"would\s+look|how\s+(?:\w+\s+){0,4}looks?|(?:the|this|my|our|call|tool)\s+format|format\s+(?:is|looks|would)|"
    r"format\s*:|syntax|samples?|"
    r"templates?|schemas?|placeholders?|illustrat\w*|how\s+to\s+(?:call|write|use)|"
    r"you\s+(?:can|could|would|should|may)\s+write)\b",
)
# A heading that opens a section of examples.
HEADING_EXAMPLE = regex.compile(
    r"\b(?:examples?|formats?|syntax|samples?|usage|illustrat\w*|demo\w*|templates?|reference)\b", regex.IGNORECASE
)
# Words that present what follows as a quotation of something said or done before.
QUOTED = _lowercase(
    r"\b(?:earlier|previously|last\s+time)\b[^.!?\n]{0,60}\b(?:ran|called|executed|sent|made\s+(?:this|that|the))\b|"
    r"\b(?:I|we)\s+(?:have\s+|had\s+|already\s+|previously\s+|just\s+)?(?:ran|called|executed|invoked|issued)\b|"
    r"\b(?:earlier|previous|last)\s+(?:call|request)\b|"
    r"\bwhat\s+(?:I|you)\s+(?:sent|wrote|ran|called|pasted)\b|\byou\s+(?:pasted|quoted)\b|"
    r"\b(?:my|the|your)\s+(?:instructions|system\s+prompt|prompt)\s+(?:say|said|are|were|read|is|was)\b|"
    r"\bhere\s+(?:are|is)\s+(?:my|the)\s+(?:instructions|system\s+prompt|prompt)\b|"
    r"\b(?:quoting|verbatim|recit(?:e|ed|ing|ation))\b|\b(?:to|I['’]ll|let\s+me)\s+quote\b|"
    r"\bquoted\s+(?:below|here|above)\b",
)
# Words that present what follows as a call not yet made.
PROPOSED = _lowercase(
    r"\b(?:I|we)\s+(?:would|could|might)\s+(?:\w+\s+){0,2}?(?:make|run|call|use|send|issue|execute)\b|"
    r"\b(?:I|we)['’]d\s+(?:\w+\s+){0,2}?(?:make|run|call|use|send|issue|execute)\b|"
    r"\bthe\s+call\s+would\s+be\b|\b(?:shall|should)\s+I\b|\b(?:want|like)\s+me\s+to\b|\bpropos(?:e|ed|al)\b|"
    r"\bif\s+you\s+(?:want|like|agree|confirm|approve)\b|\bonce\s+you\s+(?:confirm|approve|agree)\b|"
    r"\bwith\s+your\s+(?:permission|approval|ok)\b",
)
# Words that present what follows as a list of the tools rather than calls to them.
LISTING = _lowercase(
    r"\b(?:available|following)\s+(?:\w+\s+)?tools\b|\btools\s+(?:I\s+(?:have|can\s+use)|available|at\s+my\s+disposal)\b|"
    r"\ball\s+(?:of\s+)?(?:my|the)\s+tools\b|\b(?:here|these)\s+are\s+(?:my|the)\s+(?:\w+\s+)?tools\b|"
    r"\blist\s+of\s+(?:\w+\s+)?tools\b|\btypical\s+arguments\b|\beach\s+tool\b",
)
# The line after a call asking whether to go ahead with it.
PERMISSION = regex.compile(
    r"\b(?:go\s+ahead|proceed)\b|"
    r"\b(?:shall|should|may|can)\s+I\s*\?|"
    r"\b(?:shall|should|may|can)\s+I\s+(?:run|do|make|send|execute|save|store|call|submit|apply)\s+"
    r"(?:it|this|that|these|them|the\s+(?:call|update|change)s?)\b|"
    r"\b(?:want|like)\s+me\s+to\s+(?:run|do|make|send|execute|save|store|call|submit|apply)\s+"
    r"(?:it|this|that|these|them|the\s+(?:call|update|change)s?)\b|"
    r"\bok(?:ay)?\s+to\s+(?:proceed|run|send|save)\b",
    regex.IGNORECASE,
)
LIST_ITEM = regex.compile(r"[ \t]{0,3}(?:[-*+•]|\d{1,3}[.)])[ \t]+")
BLOCKQUOTE = regex.compile(r"[ \t]{0,3}>")
HEADING = regex.compile(r"[ \t]{0,3}#{1,6}(?:[ \t]|$)")
_PARAGRAPH_BREAK = regex.compile(r"\n[ \t\r]*\n")
# Prose that runs straight into an opener: the opener is a word in that sentence.
_SENTENCE_CHARS = frozenset(",;'\"‘“(-–—/&=+")

PARAGRAPH_CHARS = 240
PERMISSION_CHARS = 240


@dataclass(frozen=True, slots=True)
class Context:
    """What surrounds the opener of a call-shaped block, in the prose released before it."""

    line_head: str = ""  # the prose before the opener on its line (its first characters)
    line_last: str = ""  # the last non-blank character of that prose, "" if none
    region_on_line: bool = False  # another block already stands on this line before it
    paragraph: str = ""  # the end of the paragraph the opener belongs to, or of the one before
    section_example: bool = False  # the nearest heading above presents examples


# (problem kind, why) for each way a block can be shown rather than performed.
Shown = tuple[ProblemKind, str]


# For each kind of phrase above, words one of which it contains: a paragraph without any of a
# kind's words needs no closer look for that kind (splitting into words is much faster than
# any of the patterns).
def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_KEYWORDS = {
    "quoted": _word_set(
        "earlier previously last ran called executed invoked issued previous what pasted quoted instructions "
        "prompt quoting quote verbatim recite recited reciting recitation"
    ),
    "proposed": _word_set(
        "would could might i'd we'd i’d we’d shall should want like propose proposed proposal if once with"
    ),
    "listing": _word_set("available following tools typical each all list"),
    "example": _word_set(
        "example examples instance e such like looks look format syntax sample samples template templates schema "
        "schemas placeholder placeholders write illustrate illustrates illustrated illustrating illustration "
        "illustrative how"
    ),
}
_WORDS = re.compile(r"[a-z]+(?:['’][a-z]+)?")  # the keywords are all ASCII


def shown_before(ctx: Context, *, json_only: bool = False) -> Shown | None:
    """Why what precedes the opener makes the block something shown, or None. JSON with no
    marker around it (``json_only``) also counts as part of a list item or a broken code
    block when the line before it in its paragraph is one."""
    if json_only and ctx.paragraph and not ctx.line_head.strip():
        previous = ctx.paragraph.rsplit("\n", 1)[-1]
        if LIST_ITEM.match(previous) or "```" in previous or "~~~" in previous:
            return ("example", "it continues a list item or a code block")
    if BLOCKQUOTE.match(ctx.line_head):
        return ("quoted", "it is in a blockquote")
    if LIST_ITEM.match(ctx.line_head):
        return ("example", "it is a list item")
    if not ctx.region_on_line and ctx.line_last and (ctx.line_last.isalnum() or ctx.line_last in _SENTENCE_CHARS):
        return ("in_sentence", "it is part of a sentence")
    if ctx.section_example:
        return ("example", "it is under an example heading")
    text = ctx.paragraph
    if not text:
        return None
    text = text.lower()
    words = set(_WORDS.findall(text))
    if not words.isdisjoint(_KEYWORDS["quoted"]) and QUOTED.search(text):
        return ("quoted", "the text before it quotes something earlier")
    if not words.isdisjoint(_KEYWORDS["proposed"]) and PROPOSED.search(text):
        return ("proposed", "the text before it proposes the call instead of making it")
    if not words.isdisjoint(_KEYWORDS["listing"]) and LISTING.search(text):
        return ("example", "the text before it lists the tools")
    if not words.isdisjoint(_KEYWORDS["example"]) and EXAMPLE.search(text):
        return ("example", "the text before it introduces an example")
    return None


_FIRST_LINE = re.compile(r"\s*([^\n]{0," + str(PERMISSION_CHARS) + "})")


def first_line(prose: str, at: int) -> str:
    """The first non-blank line of ``prose`` from ``at`` (its first characters)."""
    m = _FIRST_LINE.match(prose, at)
    return m.group(1) if m else ""


def asks_permission(line: str) -> bool:
    """Whether the first line written after a call asks whether to go ahead with it."""
    return "?" in line and PERMISSION.search(line) is not None


def last_paragraph(recent: str) -> str:
    """The paragraph that ``recent`` ends in, or the one before if it ends with a blank line."""
    text = recent[-3 * PARAGRAPH_CHARS :].rstrip()
    start = 0
    for m in _PARAGRAPH_BREAK.finditer(text, max(0, len(text) - 2 * PARAGRAPH_CHARS)):
        start = m.end()
    return text[max(start, len(text) - PARAGRAPH_CHARS) :]


def heading_is_example(line: str) -> bool | None:
    """For a heading line, whether it introduces examples; None when the line is no heading."""
    if not HEADING.match(line):
        return None
    return HEADING_EXAMPLE.search(line) is not None
