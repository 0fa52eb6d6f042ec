"""Every marker the parser reacts to, in one table.

The scanner builds its patterns from this table, the prompt names its markers from it, and
:func:`neutralise` breaks every spelling the scanner accepts. Because both are derived from
the same entries, a marker the scanner learns is neutralised in echoed text at the same time.
"""

from __future__ import annotations

import re

import regex

CALL_START = "TOOL_CALL_START"
CALL_END = "TOOL_CALL_END"
RESULT_LABEL = "TOOL_RESULT"
RESULT_END = "TOOL_RESULT_END"  # closes a result, so where it stops is never in doubt
MISTRAL_MARKER = "[TOOL_CALLS]"

# Fence info strings (compared lowercased). A ```tool_call fence states its intent; ```json
# and bare fences hold a call only when their JSON names a known tool.
CALL_FENCE_INFOS = frozenset({"tool_call", "tool_calls", "tool_code", "tool", "function_call"})
DATA_FENCE_INFOS = frozenset({"", "json", "jsonc", "json5"})

# Keys that name the tool inside a call object. Formats made of JSON alone (a standalone JSON
# line, a JSON fence) count only when one of these is written as a quoted key, which is also
# what the neutraliser breaks.
NAME_KEYS = ("function", "name", "tool", "tool_name", "function_name", "recipient_name")

# -- the table ------------------------------------------------------------------------------
#
# (pattern, case-insensitive?) for everything that can open a call, or that the scanner
# otherwise obeys. The scanner's triggers below use these exact spellings, and NEUTRALISE
# is their union.
_CANONICAL = (r"TOOL_CALL_START|TOOL_CALL_END|TOOL_RESULT", False)  # TOOL_RESULT covers _END
_MISTRAL = (r"\[TOOL_CALLS\]", False)
_TAG = (r"</?tool_call", False)
_RESULT_TAGS = (r"<tool_response>|<tool_result>", False)
_THINK_TAGS = (r"</?(?:think|thinking)>", True)
_REACT_INPUT = (r"Action[ _]Input:", False)
_CALL_FENCE = (r"(?m:^)[ \t]{0,3}(?:`{3,}|~{3,})[ \t]*(?:tool|function_call)", True)
_NAME_KEY = (r"""(["'])(?:""" + "|".join(NAME_KEYS) + r""")\1(?=\s*:)""", False)

TABLE = (_CANONICAL, _MISTRAL, _TAG, _RESULT_TAGS, _THINK_TAGS, _REACT_INPUT, _CALL_FENCE, _NAME_KEY)


def _alt(entry: tuple[str, bool]) -> str:
    pattern, fold = entry
    return f"(?i:{pattern})" if fold else f"(?:{pattern})"


# -- the scanner's patterns, from the table ---------------------------------------------------

# Where the text state must look more closely: the shortest prefixes that tell a trigger
# apart from ordinary prose, every backtick (inline code), and a newline when the next line
# may begin with a line-anchored construct (LINE_TRIGGER, a fence).
CANDIDATE = regex.compile(r"TOOL_C|<(?:[tT!]|/[tT])|\[T|`|\n(?=[ \t\r]{0,40}(?:[`~<{\[]|Ac|Ob|TOOL_R))")
# Characters that can begin a candidate: prose without them needs no closer look.
PLAIN = regex.compile(r"[^T<\[`\n]+")

# Triggers anywhere in a line, tried at a candidate. Every alternative has a bounded length,
# so a partial match at the end of the text holds back a few characters at most.
TRIGGER = regex.compile(
    r"(?P<start>TOOL_CALL_START)"
    r"|(?P<tag><tool_call(?=[\s>/]))"
    r"|(?P<mistral>\[TOOL_CALLS\])"
    r"|(?P<unthink>" + _alt(("</(?:think|thinking)>", True)) + ")"
    r"|(?P<comment><!--)"
    r"|(?P<end>TOOL_CALL_END|</tool_call>)"
)
# Triggers at the first non-blank character of a line (the indentation is already consumed).
LINE_TRIGGER = regex.compile(
    r"(?P<think>" + _alt(("<(?:think|thinking)>", True)) + ")"
    r"|(?P<result>TOOL_RESULT|<tool_response>|<tool_result>|Observation:)"
    r"|(?P<react>Action:[ \t]{0,40}(?P<react_name>[A-Za-z_][\w.\-]{0,80})[ \t]{0,40}\r?\n"
    r"[ \t]{0,40}Action[ _]Input:[ \t\r\n]{0,40}[{\[])"
    r"|(?P<json>\{[ \t\r\n]{0,40}[\"']|\[[ \t\r\n]{0,40}\{[ \t\r\n]{0,40}[\"'])"
)
THINK_END = regex.compile(_alt(("</(?:think|thinking)>", True)))
COMMENT_END = regex.compile(r"-->")
QUOTED_NAME_KEY = regex.compile(_NAME_KEY[0])

# What may sit between an opener and its JSON (some models wrap the JSON in a fence).
BODY_START = regex.compile(r"[ \t\r\n]{0,40}(?:(?:```|~~~)[ \t]{0,8}[\w-]{0,20}[ \t]{0,8}\r?\n[ \t\r\n]{0,40})?[{\[]")
AFTER_MISTRAL = regex.compile(r"[ \t\r\n]{0,40}[{\[]")
EMPTY_TAG_BODY = regex.compile(r"[ \t\r\n]{0,40}</tool_call>")
# One step through the attributes of an opening <tool_call ...> tag: its end, or the start of
# a quoted attribute value (the value itself is skipped by looking for its closing quote).
TAG_STEP = regex.compile(
    r"[ \t\r\n]{0,40}(?:(?P<end>/?>)|(?P<attr>[\w:.-]{1,40})[ \t\r\n]{0,40}=[ \t\r\n]{0,40}(?P<quote>[\"']))"
)
TAG_ATTR = regex.compile(r"""([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
# The end of a canonical or tag block; the model may close a fence it opened after the opener.
CANONICAL_END = regex.compile(r"[ \t\r\n]{0,40}(?:(?:```|~~~)[ \t]{0,8}\r?\n?[ \t\r\n]{0,40})?TOOL_CALL_END")
TAG_END = regex.compile(r"[ \t\r\n]{0,40}(?:(?:```|~~~)[ \t]{0,8}\r?\n?[ \t\r\n]{0,40})?</tool_call>")
# After an opener that holds no JSON: where the broken attempt stops.
MALFORMED_END = {
    "canonical": regex.compile(r"TOOL_CALL_END|TOOL_CALL_START"),
    "tag": regex.compile(r"</tool_call>|<tool_call(?=[\s>/])"),
}
BLANKS = re.compile(r"[ \t\r]*")

# Inside a call region, outside strings: structural characters and the markers that can
# interrupt a region (an end marker, or a new opener when the model forgot the end). A
# marker that starts with a structural character comes first, or the character would win.
STRUCT = {
    "canonical": regex.compile(r"""["'{}\[\]]|TOOL_CALL_END|TOOL_CALL_START"""),
    "tag": regex.compile(r"""["'{}\[\]]|</tool_call>|<tool_call(?=[\s>/])"""),
    "mistral": regex.compile(r"""\[TOOL_CALLS\]|["'{}\[\]]"""),
    # A standalone JSON line ends at a blank line or at any opener: it is never held long.
    "bare": regex.compile(r"""\[TOOL_CALLS\]|["'{}\[\]]|\n[ \t\r]{0,40}\n|TOOL_CALL_START|<tool_call(?=[\s>/])"""),
    "react": regex.compile(r"""["'{}\[\]]|\n[ \t\r]{0,40}\n"""),
}
# An end or start marker alone on its line inside a string: the string was never closed and
# the block ends there (a marker in the middle of a line is the string's own text).
_OWN_LINE = {
    "canonical": r"\n[ \t\r]{0,40}(?:TOOL_CALL_END[ \t\r]{0,40}(?:\n|@EOF)|TOOL_CALL_START[ \t\r]{0,40}(?:[\n{\[]|@EOF))",
    "tag": r"\n[ \t\r]{0,40}(?:</tool_call>[ \t\r]{0,40}(?:\n|@EOF)|<tool_call(?:[ \t\r]{0,40}[>\n{\[]|[ \t]+\w|@EOF))",
}
# (while more text may come, at the end of the reply): \Z is only tried once the reply ended,
# since partial matching must not take the end of the text so far for the end of the reply.
OWN_LINE_MARKER = {
    kind: (regex.compile(p.replace("|@EOF", "")), regex.compile(p.replace("@EOF", r"\Z")))
    for kind, p in _OWN_LINE.items()
}
# The body of a string up to its closing quote, a raw newline, or a backslash at the very
# end. No partial matching is needed here, and the standard library's engine is faster on it.
STRING_BODY = {
    '"': re.compile(r'[^"\\\n]*(?:\\[\s\S][^"\\\n]*)*'),
    "'": re.compile(r"[^'\\\n]*(?:\\[\s\S][^'\\\n]*)*"),
}


def _string_body(quote: str, stop: str | None) -> re.Pattern[str]:
    """A string's body up to its closing quote or a backslash at the very end, through raw
    newlines, except one that may begin ``stop`` alone on its line (None: through all)."""
    q = re.escape(quote)
    newline = r"\n" if stop is None else rf"\n(?![ \t\r]{{0,40}}(?:{stop}))"
    return re.compile(rf"[^{q}\\\n]*(?:(?:\\[\s\S]|{newline})[^{q}\\\n]*)*")


# By format family: where a raw newline may end the block, and where it is just text.
STRING_BODY_BY_KIND = {
    kind: {quote: _string_body(quote, stop) for quote in "\"'"}
    for kind, stop in (
        ("canonical", "TOOL_CALL_END|TOOL_CALL_START"),
        ("tag", "</tool_call>|<tool_call"),
        ("mistral", None),
        ("react", None),
    )
}
STRING_BODY_BY_KIND["bare"] = STRING_BODY  # a standalone JSON line holds no raw newline

# -- neutralising ---------------------------------------------------------------------------
#
# Text that did not come from this turn's model is rewritten so that an echo of it cannot
# trigger a call: a WORD JOINER (U+2060, invisible, no width) goes after the first letter of
# each marker. The scanner only matches the exact spellings above, so the echo stays text.
WORD_JOINER = "\u2060"
NEUTRALISE = regex.compile("|".join(_alt(entry) for entry in TABLE))


def neutralise(text: str) -> str:
    """Make every call marker in ``text`` inert while keeping it readable."""
    if not text:
        return text
    return NEUTRALISE.sub(_break_marker, text)


def _break_marker(m: regex.Match[str]) -> str:
    s = m.group(0)
    i = next((k for k, ch in enumerate(s) if ch.isalpha()), 0)
    return s[: i + 1] + WORD_JOINER + s[i + 1 :]
