"""Every pattern the parser matches, built from the format table, and the neutraliser.

Nothing here spells a format out: the scanner's triggers, the patterns that delimit a block,
and :func:`neutralise` are all derived from :data:`formats.FORMATS` and
:data:`formats.MARKERS`. Because they come from the same entries, a format the scanner learns
is neutralised in echoed text at the same time.
"""

from __future__ import annotations

import ast
import contextlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import regex

from .formats import (
    CALL_FENCE_INFOS,
    FORMATS,
    KEY_COLON,
    MARKERS,
    NAME_KEYS,
    TURN_TOKENS,
    FormatSpec,
    fence_info,
)

CALL_START = "TOOL_CALL_START"
CALL_END = "TOOL_CALL_END"
RESULT_LABEL = "TOOL_RESULT"
RESULT_END = "TOOL_RESULT_END"  # closes a result, so where it stops is never in doubt

_INLINE = tuple(spec for spec in FORMATS if spec.anchor == "inline")
_LINE = tuple(spec for spec in FORMATS if spec.anchor == "line")
# End markers the scanner looks for outside a block: one alone on its line after a call says
# that call's JSON ended early.
_WATCHED_ENDS = tuple(end for spec in FORMATS if spec.end_required for end in spec.end)


def _alt(pattern: str, fold: bool) -> str:
    return f"(?i:{pattern})" if fold else f"(?:{pattern})"


# A trie of literals: each character leads to the rest; "" marks where a literal ends.
_Trie = dict[str, "_Trie"]


def _one_of(literals: Iterable[str]) -> str:
    """A pattern for any of ``literals``, shared beginnings factored out (a trie), so that a
    search tests each character against one set. A literal that extends another is dropped:
    finding the shorter one is enough."""
    trie: _Trie = {}
    for literal in literals:
        node = trie
        for ch in literal:
            if node.get("") is not None:
                break  # a shorter literal ends here
            node = node.setdefault(ch, {})
        else:
            node.clear()
            node[""] = {}
    return _render(trie)


def _render(node: _Trie) -> str:
    return "|".join(_alternatives(node))


def _alternatives(node: _Trie) -> list[str]:
    leaves = [ch for ch, child in node.items() if ch and set(child) == {""}]
    found = []
    if leaves:
        found.append(re.escape(leaves[0]) if len(leaves) == 1 else "[" + "".join(map(_in_set, leaves)) + "]")
    for ch, child in node.items():
        if ch and set(child) != {""}:
            inner = _alternatives(child)
            found.append(re.escape(ch) + (inner[0] if len(inner) == 1 else "(?:" + "|".join(inner) + ")"))
    return found


def _in_set(ch: str) -> str:
    return "\\" + ch if ch in "\\]^-[" else ch


# -- where the text scanner looks closer --------------------------------------------------------

_INLINE_PREFIXES = (
    *(p for spec in _INLINE for p in spec.prefixes),
    *_WATCHED_ENDS,
    *(p for marker in MARKERS for p in marker.prefixes),
)
_LINE_PREFIXES = (
    *(p for spec in FORMATS if spec.anchor != "inline" for p in spec.prefixes),
    *(p for marker in MARKERS for p in marker.line_prefixes),
)
# Text that may hold something the parser reads: the shortest prefixes that tell a trigger
# apart from ordinary prose, every backtick, and a newline when the next line may begin with a
# line-anchored construct. (The text state searches for CANDIDATE, below, which is stricter.)
LOOK_CLOSER = regex.compile(_one_of(_INLINE_PREFIXES) + r"|\n(?=[ \t\r]{0,40}(?:" + _one_of(_LINE_PREFIXES) + "))")


def _plain_pattern(lines: bool = False) -> str:
    """``lines``: a newline is let through where the next line's first character is already
    there and can begin no line-anchored construct (nor a blank that may precede one)."""
    firsts = dict.fromkeys(p[0] for p in _INLINE_PREFIXES)
    run = "[^" + "".join(map(_in_set, firsts)) + r"\n]*"
    ruled_out = []
    for first in firsts:
        prefixes = [p for p in _INLINE_PREFIXES if p[0] == first]
        if all(len(p) > 1 for p in prefixes):
            seconds = dict.fromkeys(p[1] for p in prefixes)
            ruled_out.append(re.escape(first) + "(?=[^" + "".join(map(_in_set, seconds)) + r"\n])")
    if lines:
        line_firsts = dict.fromkeys(p[0] for p in _LINE_PREFIXES)
        ruled_out.append(r"\n(?=[^ \t\r" + "".join(map(_in_set, line_firsts)) + "])")
    # Unrolled (a run, then any number of ruled-out characters each followed by a run): the
    # engine goes through the runs in one step. It also matches "", which no chunk is.
    return run + "(?:(?:" + "|".join(ruled_out) + ")" + run + ")*"


# Prose that needs no closer look: no newline, and no character that can begin a candidate
# unless the next character already rules it out ("The", "a < b", "[1]"); a chunk that ends on
# such a character may be cut inside a trigger. (stdlib re: it is tried on every streamed
# chunk, and is several times quicker on short ones.)
PLAIN = re.compile(_plain_pattern())
# The same through line ends that begin no line-anchored construct ("...today.\n\nWe could"):
# prose in which the text state would find no candidate, and none cut by the end of the text.
# (Asked of a streamed chunk that holds a newline before the candidate search, which costs
# several times as much.)
PLAIN_LINES = re.compile(_plain_pattern(lines=True))
# The first character that is not a blank (space, tab, line end). (stdlib re: asked of streamed
# chunks at a line start.)
NOT_BLANK = re.compile(r"[^ \t\r\n]")
# First characters of a line that can begin a line-anchored construct.
LINE_START_CHARS = frozenset(p[0] for p in _LINE_PREFIXES)
# Inside inline code: the end of its line, a backtick run, or where an opener may begin.
SPAN_STOP = regex.compile(
    r"[`\n]|"
    + _one_of(
        (
            *(p for spec in _INLINE for p in spec.prefixes),
            *_WATCHED_ENDS,
            *(p for marker in MARKERS if marker.in_code for p in marker.prefixes),
        )
    )
)

_MARKER = {marker.name: marker for marker in MARKERS}

# Triggers anywhere in a line, tried at a candidate: each inline format's opener (its group
# named after the format), a lone closing reasoning tag, a comment, and an end marker with no
# block open. Every alternative has a bounded length, so a partial match at the end of the
# text holds back a few characters at most.
TRIGGER = regex.compile(
    "|".join(
        [
            *(f"(?P<{spec.name}>{spec.opener})" for spec in _INLINE),
            *(f"(?P<{m.name}>{_alt(m.pattern, m.fold)})" for m in MARKERS if m.anchor == "inline" and m.pattern),
            "(?P<end>" + "|".join(map(re.escape, _WATCHED_ENDS)) + ")",
        ]
    )
)
# Triggers at the first non-blank character of a line (the indentation is already consumed).
LINE_TRIGGER = regex.compile(
    "|".join(
        [
            *(f"(?P<{m.name}>{_alt(m.pattern, m.fold)})" for m in MARKERS if m.anchor == "line"),
            *(f"(?P<{spec.name}>{spec.opener})" for spec in _LINE),
        ]
    )
)


def _plain_alt(pattern: str, fold: bool) -> str:
    """``pattern`` for the standard library's engine, which skips ahead fastest when every
    alternative begins with a literal character: the leading characters that have no case are
    kept outside a case-folding group."""
    if not fold:
        return f"(?:{pattern})"
    lead = len(pattern) - len(pattern.lstrip("<>/!|[]"))
    return f"(?:{pattern[:lead]}(?i:{pattern[lead:]}))"


_UNNAMED = re.compile(r"\(\?P<\w+>")


def _candidate_pattern(plain: bool, skip: str = "") -> str:
    alt = _plain_alt if plain else _alt
    inline = [
        *(spec.opener for spec in _INLINE),
        *(alt(m.pattern, m.fold) for m in MARKERS if m.anchor == "inline" and m.pattern and m.name != skip),
        *map(re.escape, _WATCHED_ENDS),
    ]
    line = [
        "`",
        "~~~",
        *(alt(m.pattern, m.fold) for m in MARKERS if m.anchor == "line"),
        *(spec.opener for spec in _LINE),
    ]
    pattern = "|".join(["`", *inline, r"\n(?=[ \t\r]{0,40}(?:" + "|".join(line) + "))"])
    return _UNNAMED.sub("(?:", pattern)


# Where the text state must look more closely: a whole trigger (one search finds it, however
# much text that only begins like one comes first), every backtick (inline code), and a
# newline whose next line begins with a whole line-anchored construct or a fence. Every
# alternative is bounded (CANDIDATE_SPAN), so only a match that begins that close to the end
# of the text can be cut by it: the standard library's engine finds whole matches, and the
# regex module's partial matching is asked only about the end.
CANDIDATE = regex.compile(_candidate_pattern(plain=False))
_CANDIDATE_WHOLE = re.compile(_candidate_pattern(plain=True))
# The same once reasoning is settled, when a closing reasoning tag is only text: a reply of
# many stray </think> tags is read without stopping at each. No other candidate can begin
# where such a tag begins or inside it, so the next candidate found is the one the text state
# would reach by passing over each tag.
_CANDIDATE_WHOLE_SETTLED = re.compile(_candidate_pattern(plain=True, skip="unthink"))
_WHOLE, _WHOLE_SETTLED = _CANDIDATE_WHOLE.search, _CANDIDATE_WHOLE_SETTLED.search
CANDIDATE_SPAN = 512


def find_candidate(text: str, pos: int, eof: bool, settled: bool = False) -> tuple[int, bool] | None:
    """Where the next candidate begins at or after ``pos``, and whether the end of the text
    cut it (it may still turn out to be one); None if there is none. ``settled``: reasoning
    is settled, and a closing reasoning tag need not be looked at."""
    # Asked of nearly every streamed chunk that holds a newline: the searches are bound once,
    # and nothing is called that a comparison does.
    m = (_WHOLE_SETTLED if settled else _WHOLE)(text, pos)
    if eof:
        return None if m is None else (m.start(), False)
    tail = len(text) - CANDIDATE_SPAN
    if tail < pos:
        tail = pos
    if m is not None and m.start() < tail:
        return m.start(), False
    may = _MAY_BE_CUT_SEARCH(text, tail)
    if may is None:  # nothing near the end can begin a candidate: no need to ask (costly)
        return None if m is None else (m.start(), False)
    start = min(may.start(), m.start()) if m is not None else may.start()
    if len(text) - start > _CUT_KEY:
        cut = CANDIDATE.search(text, start, partial=True)
        return None if cut is None else (cut.start(), bool(cut.partial))
    # The pattern looks at nothing before where it starts, so the answer depends only on the
    # text from there on: a streamed reply asks the same question about the same few
    # characters (a line's end, "\n[") chunk after chunk, and a partial search is costly.
    key = text[start:]
    found = _CUTS.get(key, _UNKNOWN)
    if found is _UNKNOWN:
        cut = CANDIDATE.search(key, partial=True)
        found = None if cut is None else (cut.start(), bool(cut.partial))
        if len(_CUTS) >= _CUTS_KEPT:
            _CUTS.clear()
        _CUTS[key] = found
    return None if found is None else (start + found[0], found[1])


_CUT_KEY = 64  # longest text end whose answer is kept
_CUTS_KEPT = 4096
_UNKNOWN = (-1, False)
_CUTS: dict[str, tuple[int, bool] | None] = {}


# Where a candidate cut by the end of the text may begin (more places than can, never fewer):
# an inline trigger's first characters (every one but a turn's is at most 15 characters long
# and begins with "<", "[" or "TOOL_"; a turn's tokens are at most 28 each, and space and a
# header of at most 60 follow them), or a newline whose next line so far is blank or begins like
# a line-anchored construct.
_MAY_BE_CUT = re.compile(
    r"<[^\n]{0,28}\Z|\[[^\n]{0,12}\Z|T[A-Z_]{0,14}\Z|\n[ \t\r]{0,40}(?:[`~<TOA{\[][\s\S]*)?\Z|"
    + TURN_TOKENS
    + r"[ \t\r\n]{0,8}(?:[<\[][^\n]{0,60})?\Z"
)
_MAY_BE_CUT_SEARCH = _MAY_BE_CUT.search
THINK_END = regex.compile(_alt(_MARKER["unthink"].pattern, fold=True))
# Where a harmony analysis message ends: its end token, with the header of the final message
# that may follow it (consumed with it, so that the visible reply starts on a line of its own),
# or that header alone, or the end of the whole reply.
HARMONY_END = regex.compile(
    r"<\|end\|>(?:<\|start\|>assistant)?(?:<\|channel\|>final<\|message\|>)?"
    r"|(?:<\|start\|>assistant)?<\|channel\|>final<\|message\|>|<\|return\|>",
    regex.IGNORECASE,
)
HARMONY_HEADER_CHARS = len("<|start|>assistant<|channel|>final<|message|>")
# The same opener at the very start of a reply that began inside reasoning (a model may write
# the tag its chat template already wrote); bounded, so waiting for it holds back little.
THINK_AT_START = regex.compile(r"[ \t\r\n]{0,40}" + _alt(_MARKER["think"].pattern, fold=True))
COMMENT_END = regex.compile(r"-->")
QUOTED_NAME_KEY = regex.compile(next(spec.neutralise for spec in FORMATS if spec.json_only))
BLANKS = re.compile(r"[ \t\r]*")


def run_end(pattern: re.Pattern[str] | regex.Pattern[str], text: str, pos: int, endpos: int | None = None) -> int:
    """Where the run that ``pattern`` matches at ``pos`` ends (a pattern that may match nothing)."""
    m = pattern.match(text, pos) if endpos is None else pattern.match(text, pos, endpos)
    return pos if m is None else m.end()


# One step through the attributes of an opening tag: its end, or the start of a quoted
# attribute value (the value itself is skipped by looking for its closing quote).
TAG_STEP = regex.compile(
    r"[ \t\r\n]{0,40}(?:(?P<end>/?>)|(?P<attr>[\w:.-]{1,40})[ \t\r\n]{0,40}=[ \t\r\n]{0,40}(?P<quote>[\"']))"
)
TAG_ATTR = regex.compile(r"""([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")

# -- inside a block -----------------------------------------------------------------------------

# What may sit between an opener and its JSON (some models wrap the JSON in a fence), and
# before its end marker (the fence closed again).
# A line or two of comment may stand before the JSON, as in a fence ("# new address"): each on
# a line of its own, with no bracket of any kind (no JSON is ever skipped as a comment), and not
# one that calls what follows an example.
_NOTE = (
    r"(?:(?<=\n[ \t]{0,8})(?:#|//)(?![^\n]{0,120}?(?i:example|e\.g\.|beispiel|ejemplo|exemple|esempio|exemplo|"
    r"пример|例))[^\n{}\[\]]{0,120}\n[ \t\r\n]{0,40}){0,2}"
)
_FENCED_BODY = r"[ \t\r\n]{0,40}(?:(?:```|~~~)[ \t]{0,8}[\w-]{0,20}[ \t]{0,8}\r?\n[ \t\r\n]{0,40})?" + _NOTE + r"[{\[]"
_FENCED_END = r"[ \t\r\n]{0,40}(?:(?:```|~~~)[ \t]{0,8}\r?\n?[ \t\r\n]{0,40})?"
_BODY = r"[ \t\r\n]{0,40}" + _NOTE + r"[{\[]"
_STRUCTURAL = "\"'{}[]"
# A blank line ends JSON that has no end marker, unless the JSON evidently goes on after it
# (pretty-printed JSON may hold blank lines): the next line's first character must be one no
# JSON token begins with. It is judged on that character, so one-shot and streamed agree.
_BLANK_LINE = r"\n[ \t\r]{0,40}\n[ \t\r\n]{0,40}[^ \t\r\n\"'{}\[\],:0-9.+\-tfn]"
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


@dataclass(frozen=True, slots=True)
class BlockPatterns:
    """What delimits the JSON of one format's blocks, built from its spec."""

    # Outside strings: structural characters and the markers that interrupt the JSON.
    struct: regex.Pattern[str]
    # An end marker or opener alone on its line inside a string, which ends the block (while
    # more text may come, and at the end of the reply); None where strings run on.
    own_line: tuple[regex.Pattern[str], regex.Pattern[str]] | None
    bodies: Mapping[str, re.Pattern[str]]  # a string's body, by its quote
    opener_first: str  # an interrupting marker that begins with "[" ("" if none)
    body_start: regex.Pattern[str] | None  # from the opener to the JSON's first bracket
    end: regex.Pattern[str] | None  # the end marker right after the JSON
    empty: regex.Pattern[str] | None  # an end marker right after the opener (an empty call)
    malformed_end: regex.Pattern[str] | None  # where a block with no JSON after its opener stops
    # ``struct`` for the standard library's engine, which finds whole matches faster, and how
    # near the end of the text a match must begin for the end to matter: no alternative is
    # longer, so before that a partial match cannot begin, and a whole one is the same.
    struct_whole: re.Pattern[str]
    struct_span: int


def _span(pattern: str) -> int:
    """How far from the end of the text a match of ``pattern`` (bounded, with lookaheads of a
    few characters at most) can still be cut by it; beyond any text when it is unbounded."""
    widest = re._parser.parse(pattern).getwidth()[1]
    return widest + 64 if widest < 1 << 20 else 1 << 62


def _block_patterns(spec: FormatSpec) -> BlockPatterns:
    ends = "|".join(map(re.escape, spec.end))
    end_alt = ends if len(spec.end) <= 1 else f"(?:{ends})"
    if spec.family == "marked":
        interrupters = [*map(re.escape, spec.end), spec.opener]
    elif spec.family == "open":
        interrupters = [spec.opener]
    elif spec.family == "line":
        interrupters = [_BLANK_LINE, *(s.opener for s in _INLINE)]
    else:
        interrupters = [_BLANK_LINE]
    literal = {spec.opener: spec.literal for spec in _INLINE}
    # A marker that starts with a structural character comes first, or the character would win.
    first = [p for p in interrupters if literal.get(p, "x")[0] in _STRUCTURAL]
    rest = [p for p in interrupters if p not in first]
    # Comments outside strings (// to the line's end, /* to */) hold no data: the matcher skips them.
    struct = regex.compile("|".join([*first, "[" + re.escape(_STRUCTURAL) + "]", "/[/*]", *rest]))
    own_line = None
    bodies: Mapping[str, re.Pattern[str]] = {quote: _string_body(quote, None) for quote in "\"'"}
    if spec.family == "marked":
        opener = re.escape(spec.literal)
        if spec.attributes is not None:
            on_line = rf"{opener}(?:[ \t\r]{{0,40}}[>\n{{\[]|[ \t]+\w|@EOF)"
        else:
            on_line = rf"{opener}[ \t\r]{{0,40}}(?:[\n{{\[]|@EOF)"
        pattern = rf"\n[ \t\r]{{0,40}}(?:{end_alt}[ \t\r]{{0,40}}(?:\n|@EOF)|{on_line})"
        own_line = (regex.compile(pattern.replace("|@EOF", "")), regex.compile(pattern.replace("@EOF", r"\Z")))
        bodies = {quote: _string_body(quote, f"{ends}|{opener}") for quote in "\"'"}
    elif spec.family == "line":
        bodies = STRING_BODY  # JSON standing alone holds no raw newline
    opener_first = next((literal[p] for p in first if p in literal), "")
    return BlockPatterns(
        struct=struct,
        own_line=own_line,
        bodies=bodies,
        opener_first=opener_first,
        body_start=regex.compile(_FENCED_BODY if spec.wraps_fence else _BODY) if spec.anchor == "inline" else None,
        end=regex.compile((_FENCED_END if spec.wraps_fence else r"[ \t\r\n]{0,40}") + end_alt) if ends else None,
        empty=regex.compile(r"[ \t\r\n]{0,40}" + end_alt) if ends and spec.attributes is not None else None,
        malformed_end=regex.compile(f"{ends}|{spec.opener}") if spec.malformed else None,
        struct_whole=re.compile(struct.pattern),
        struct_span=_span(struct.pattern),
    )


BLOCK: Mapping[str, BlockPatterns] = {spec.name: _block_patterns(spec) for spec in FORMATS if spec.family != "fence"}

# -- neutralising -------------------------------------------------------------------------------
#
# Text that did not come from this turn's model is rewritten so that an echo of it cannot
# trigger a call: a WORD JOINER (U+2060, invisible, no width) goes after the first letter of
# each marker. The scanner only matches the exact spellings above, so the echo stays text.
WORD_JOINER = "\u2060"
# A quoted key spelled so that it only reads as a name key once decoded: escapes (JSON's
# \u0066, Python's \x66, \146, \N{...}), or a string written in pieces ('func' 'tion').
# The neutraliser decodes it the way the decoders do and breaks it if it names the tool.
_SPELLED_KEY = r"""(?P<skey>["'])(?P<skey_body>(?:[^"'\\\n]|\\[^\n]){1,512}?)(?P=skey)""" + KEY_COLON
NEUTRALISE = regex.compile(
    "|".join(
        [
            *(_alt(spec.neutralise, spec.fold) for spec in FORMATS),
            *(_alt(m.neutralise, m.fold) for m in MARKERS if m.neutralise),
            _SPELLED_KEY,
        ]
    )
)
_PIECE_BEFORE = regex.compile(r"""["'][ \t\r\n]*$""")


def neutralise(text: str) -> str:
    """Make every call marker in ``text`` inert while keeping it readable."""
    if not text:
        return text
    return NEUTRALISE.sub(_break_marker, text)


def _break_marker(m: regex.Match[str]) -> str:
    s = m.group(0)
    info = m.group("fence_info")
    if info is not None:
        # A fence opener: broken only where the scanner reads it as a call fence.
        run = len(s) - len(info)
        if fence_info(info) not in CALL_FENCE_INFOS:
            # Not a call fence, but its info string is still text the scanner reads on: a marker
            # there ("```<tool_call>...") is broken like any other.
            return s[:run] + neutralise(info)
        i = next((k for k, ch in enumerate(info) if ch.isalpha()), 0)
        return s[: run + i + 1] + WORD_JOINER + s[run + i + 1 :]
    quote = m.group("skey")
    if quote is not None:
        body = m.group("skey_body")
        if _names_a_tool(quote, body) or _PIECE_BEFORE.search(m.string, max(0, m.start() - 40), m.start()):
            return quote + WORD_JOINER + body + quote
        return quote + neutralise(body) + quote  # what else the key holds is text like any other
    i = next((k for k, ch in enumerate(s) if ch.isalpha()), 0)
    return s[: i + 1] + WORD_JOINER + s[i + 1 :]


def _names_a_tool(quote: str, body: str) -> bool:
    """Whether a quoted key decodes, as JSON or as a Python literal, to a key naming the tool."""
    if "\\" not in body:
        return body in NAME_KEYS
    decoded: list[object] = []
    if quote == '"':
        with contextlib.suppress(ValueError):
            decoded.append(json.loads(quote + body + quote))
    with contextlib.suppress(ValueError, SyntaxError, MemoryError, RecursionError):
        decoded.append(ast.literal_eval(quote + body + quote))
    return any(isinstance(d, str) and d in NAME_KEYS for d in decoded)
