"""Every marker the parser reacts to, in one place.

The scanner, the prompt and the transcript renderer all read these, so a marker added here
is recognised, documented to the model and neutralised in echoed text at the same time.
"""

from __future__ import annotations

import re

import regex

CALL_START = "TOOL_CALL_START"
CALL_END = "TOOL_CALL_END"
RESULT_LABEL = "TOOL_RESULT"
RESULT_END = "TOOL_RESULT_END"  # closes a result, so where it stops is never in doubt

# Fence info strings. A ```tool_call fence states its intent; ```json and bare fences hold a
# call only when the JSON names a known tool and nothing around it says "example".
CALL_FENCE_INFOS = frozenset({"tool_call", "tool_calls", "tool_code", "tool", "function_call"})
DATA_FENCE_INFOS = frozenset({"", "json", "jsonc", "json5"})

# Words that, just before a fence, mark its content as an illustration rather than a call.
EXAMPLE_CONTEXT = regex.compile(
    r"\b(?:for\s+example|for\s+instance|e\.g\.|example|such\s+as|like\s+this|looks?\s+like|"
    r"would\s+look|would\s+be|format|syntax|sample|template|schema|illustrat\w*|"
    r"how\s+to\s+call|you\s+(?:can|could|would)\s+write)\b",
    regex.IGNORECASE,
)

# Where the text state must look more closely: the shortest prefixes that tell a trigger
# apart from ordinary prose. Line-anchored triggers (fences, ReAct, Observation) may be
# indented, hence the second branch. Every backtick counts, to track inline code.
CANDIDATE = regex.compile(r"TOOL_|<t|\[T|`|(?m:^[ \t]*(?:Act|Obs|[`~]))")
# Characters that can begin a candidate anywhere but at a line start.
CANDIDATE_CHARS = frozenset("T<[`")

# Triggers tried at a candidate position. The alternatives are mutually exclusive (no text
# fully matches two of them at the same position), so the regex engine's choice between a
# partial and a full alternative never matters.
TRIGGER = regex.compile(
    r"""
    (?P<think><think>)
  | (?P<start>TOOL_CALL_START)
  | (?P<result>TOOL_RESULT|<tool_response>|<tool_result>|(?m:^)[ \t]*Observation:)
  | (?P<tag><tool_call(?=[\s>/]))
  | (?P<mistral>\[TOOL_CALLS\])
  | (?P<fence>(?m:^)[ \t]{0,3}(?P<fence_mark>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]{0,60}?)[ \t]*\r?\n)
  | (?P<react>(?m:^)[ \t]*Action:[ \t]*(?P<react_name>[A-Za-z_][\w.\-]{0,80})[ \t]*\r?\n
               [ \t]*Action[ _]Input:[ \t\r\n]{0,40}[{\[])
  | (?P<inline>(?<!`)`{1,2}(?=[^`]))
    """,
    regex.VERBOSE,
)

# What may sit between TOOL_CALL_START and the JSON (some models wrap the JSON in a fence).
AFTER_START = regex.compile(r"[ \t\r\n]{0,40}(?:```[ \t]*[\w-]{0,20}[ \t]*\r?\n[ \t\r\n]{0,40})?[{\[]")
AFTER_MISTRAL = regex.compile(r"[ \t\r\n]{0,40}[{\[]")
AFTER_TAG = regex.compile(r"[ \t\r\n]{0,40}(?:```[ \t]*[\w-]{0,20}[ \t]*\r?\n[ \t\r\n]{0,40})?[{\[]")
EMPTY_TAG_BODY = regex.compile(r"[ \t\r\n]{0,40}</tool_call>")
# The end of a canonical block; the model may close a fence it opened after the start marker.
CANONICAL_END = regex.compile(r"[ \t\r\n]{0,40}(?:```[ \t]*\r?\n?[ \t\r\n]{0,40})?TOOL_CALL_END")
TAG_END = regex.compile(r"[ \t\r\n]{0,40}(?:```[ \t]*\r?\n?[ \t\r\n]{0,40})?</tool_call>")
# The rest of an opening <tool_call ...> tag, quoted attribute values may hold '>'.
TAG_REST = regex.compile(r"""(?:[^>"']|"[^"]*"|'[^']*')*>""")
TAG_ATTR = regex.compile(r"""([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
THINK_END = regex.compile(r"</think>")
LEADING_SPACE = regex.compile(r"[ \t\r\n]*")
BLANK_TO_END = regex.compile(r"[ \t\r\n]*\Z")

# Inside a call region, outside strings: structural characters and the markers that can
# interrupt a region (an end marker, or a new start when the model forgot the end).
STRUCT_CANONICAL = regex.compile(r"""["'{}\[\]]|TOOL_CALL_END|TOOL_CALL_START""")
STRUCT_TAG = regex.compile(r"""["'{}\[\]]|</tool_call>|<tool_call(?=[\s>/])""")
STRUCT_PLAIN = regex.compile(r"""["'{}\[\]]""")
# The body of a string up to its closing quote or a backslash at the very end. No partial
# matching is needed here, and the standard library's engine is twice as fast on it.
STRING_BODY = {
    '"': re.compile(r'[^"\\]*(?:\\[\s\S][^"\\]*)*'),
    "'": re.compile(r"[^'\\]*(?:\\[\s\S][^'\\]*)*"),
}

# Text from users and tool results is rewritten so that an echo of it cannot trigger a call:
# a WORD JOINER (U+2060, invisible, no width) goes inside each marker. The parser only
# matches the exact ASCII spellings, so the echoed text stays text.
WORD_JOINER = "\u2060"
NEUTRALISE = regex.compile(
    r"TOOL_CALL_START|TOOL_CALL_END|TOOL_RESULT|\[TOOL_CALLS\]|</?tool_call\b|</?think>|"
    r"<tool_response>|<tool_result>|(?m:^[ \t]*Action[ _]Input:)|```[ \t]*(?:tool_call|tool_code|tool_calls|tool|function_call)\b"
)


def neutralise(text: str) -> str:
    """Make call markers in ``text`` inert while keeping it readable."""
    if not text:
        return text
    return NEUTRALISE.sub(_break_marker, text)


def _break_marker(m: regex.Match[str]) -> str:
    s = m.group(0)
    # Insert after the first letter so that every recognised spelling is broken.
    i = next((k for k, ch in enumerate(s) if ch.isalpha()), 0)
    return s[: i + 1] + WORD_JOINER + s[i + 1 :]
