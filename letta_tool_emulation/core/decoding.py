"""What the JSON of a call says, exactly, or why it cannot be read.

The documented decoding, tried in order:

1. JSON as written;
2. JSON whose strings hold raw control characters (a raw newline is a newline);
3. a Python literal (single quotes, ``True``/``False``/``None``, trailing commas);
4. ``json_repair``, on bounded text only, and its result is kept only if it is the same text
   with nothing cut or dropped: every string exactly as written (escapes decoded), only
   quoting, commas, comments, literal spellings and closing brackets or quotes missing at
   the end may differ.

Sizes are bounded before anything is decoded: nesting depth, digits in a number, and how much
text may go through ``json_repair`` in one reply (it is far slower than the rest).
"""

from __future__ import annotations

import ast
import json
import math
import re
import warnings
from dataclasses import dataclass, field
from typing import Any

MAX_DEPTH = 64  # brackets nested deeper than this are rejected before decoding
MAX_DIGITS = 300  # digits in one number
REPAIR_LIMIT = 4_000  # characters of one region json_repair may see
REPAIR_BUDGET = 8_000  # characters json_repair may see in one reply
# Blocks of one reply that may take the slow path (a Python literal, then json_repair). No more
# calls than the engine's per-reply cap can run, so repairing further ones only costs time.
MAX_REPAIRS = 16


class Unreadable(Exception):
    """JSON whose value cannot be taken as written: a number too long or not finite, a key
    given twice. The message says which, for the model."""


_UNREADABLE_NUMBER = (
    f"The call holds a number longer than {MAX_DIGITS} digits or not finite, so nothing was called. "
    "Pass such values as strings."
)


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-+")) > MAX_DIGITS:
        raise Unreadable(_UNREADABLE_NUMBER)
    return int(text)


def _finite_float(text: str) -> float:
    if len(text) > MAX_DIGITS + 20:
        raise Unreadable(_UNREADABLE_NUMBER)
    value = float(text)
    if not math.isfinite(value):
        raise Unreadable(_UNREADABLE_NUMBER)
    return value


def _no_constant(text: str) -> Any:
    raise Unreadable(_UNREADABLE_NUMBER)  # NaN, Infinity: not values a tool can take


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # With a key given twice, which value was meant is a guess: JSON keeps the last silently.
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        twice = ""
        for key, _ in pairs:
            if key in seen:
                twice = key
                break
            seen.add(key)
        raise Unreadable(f"The call's JSON gives the key {json.dumps(twice)} twice, so nothing was called.")
    return obj


_HOOKS: dict[str, Any] = {
    "parse_int": _bounded_int,
    "parse_float": _finite_float,
    "parse_constant": _no_constant,
    "object_pairs_hook": _unique_keys,
}
STRICT = json.JSONDecoder(**_HOOKS)
_LENIENT = json.JSONDecoder(**_HOOKS, strict=False)
_CONTROL = re.compile(r"[\x00-\x1f]")  # what only the lenient decoder accepts in a string


@dataclass(slots=True)
class RepairBudget:
    """How much text json_repair may still see in this reply, and how many blocks may still
    take the slow path."""

    left: int = REPAIR_BUDGET
    repairs: int = MAX_REPAIRS


@dataclass(slots=True)
class Decoded:
    value: Any
    notes: list[str] = field(default_factory=list)
    penalties: list[str] = field(default_factory=list)


def decode(text: str, budget: RepairBudget) -> Decoded | str:
    """The value ``text`` holds, or a message saying why it cannot be read. Never raises."""
    try:
        return _decode(text, budget)
    except (RecursionError, MemoryError):
        return "The call's JSON is nested too deeply to be read, so nothing was called."


def decode_exact(text: str) -> Decoded | str | None:
    """Steps 1 and 2 only: the value, a message saying why it cannot be taken as written, or
    None when the text is not JSON. Never raises. For replies whose syntax the endpoint
    already enforced (constrained replies), where repairing would only guess."""
    try:
        return _decode_exact(text)
    except (RecursionError, MemoryError):
        return _TOO_DEEP


def _decode_exact(text: str) -> Decoded | str | None:
    for decoder, note in ((STRICT, None), (_LENIENT, "raw control characters in strings")):
        if decoder is _LENIENT and _CONTROL.search(text) is None:
            return None  # the two read text without control characters alike: it failed once
        try:
            value = decoder.decode(text)
        except ValueError:
            continue
        except Unreadable as exc:
            return str(exc)
        if too_deep_value(value):
            return _TOO_DEEP
        return Decoded(value, [note] if note else [])
    return None


def _decode(text: str, budget: RepairBudget) -> Decoded | str:
    exact = _decode_exact(text)
    if exact is not None:
        return exact
    if "/" in text or "#" in text:
        # JSON whose only fault is comments: read as written without them (they hold no data).
        bare = without_comments(text)
        if bare is not None:
            exact = _decode_exact(bare)
            if isinstance(exact, Decoded):
                exact.notes.append("comments removed")
                return exact
    if budget.repairs <= 0:
        return (
            f"The reply held more than {MAX_REPAIRS} calls whose JSON needed repair, so this call was not run. "
            "Write it again as valid JSON: double quotes, no trailing commas, newlines inside strings as \\n; "
            "one call per block."
        )
    budget.repairs -= 1
    value = _python_literal(text)  # Python's parser bounds nesting itself
    if value is not _NOTHING:
        if value is _UNREADABLE:
            return _UNREADABLE_NUMBER
        return Decoded(value, ["Python-style literal"], ["repaired_json"])
    if len(text) > REPAIR_LIMIT:
        return (
            "The call's JSON is not valid and too long to repair safely, so nothing was called. "
            "Write it again as valid JSON: double quotes, no trailing commas, newlines inside strings as \\n."
        )
    if len(text) > budget.left:
        return (
            "The reply held more broken JSON than is repaired in one reply, so this call was not run. "
            "Write it again as valid JSON: double quotes, no trailing commas, newlines inside strings as \\n."
        )
    if too_deep(text):  # json_repair is only given bounded nesting
        return _TOO_DEEP
    if not _worth_repairing(text):
        return _UNREPAIRABLE
    budget.left -= len(text)
    try:
        import json_repair

        value = json_repair.loads(text, skip_json_loads=True)
    except Exception:  # noqa: BLE001 - json_repair is not guaranteed never to raise
        return _UNREPAIRABLE
    if not isinstance(value, (dict, list)) or not value or not faithful(text, value):
        return _UNREPAIRABLE
    return Decoded(value, ["repaired JSON"], ["repaired_json"])


# Strings (either quote, escapes and raw newlines included), comments (//, /* */, and the
# shell's and YAML's #, which no JSON token outside a string begins with), and everything else.
_COMMENT_TOKENS = re.compile(
    r""""(?:[^"\\]|\\[\s\S])*"|'(?:[^'\\\n]|\\[\s\S])*'|//[^\n]*|#[^\n]*|/\*[\s\S]*?\*/|[^"'/#]+|[\s\S]"""
)


def without_comments(text: str) -> str | None:
    """``text`` without the //, # and /* */ comments that stand outside its strings, or None
    when it has none. One pass over the text."""
    out: list[str] = []
    found = False
    for m in _COMMENT_TOKENS.finditer(text):
        token = m.group()
        if token.startswith(("//", "#")):
            found = True
        elif token.startswith("/*") and len(token) >= 4 and token.endswith("*/"):
            found = True
            out.append(" ")
        else:
            out.append(token)
    return "".join(out) if found else None


_TOO_DEEP = f"The call's JSON is nested more than {MAX_DEPTH} levels deep, so nothing was called."
_UNREPAIRABLE = (
    "The call's JSON was broken in a way that could not be repaired without changing or losing text "
    '(often an unescaped " inside a string), so nothing was called. Write it again as valid JSON, '
    'escaping quotes inside strings as \\".'
)

# -- lone surrogates ------------------------------------------------------------------------

_SURROGATE = re.compile(r"[\ud800-\udfff]")
# Text that can decode to a lone surrogate: an escape for one, or one written raw.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE_ESCAPE_BYTES = re.compile(_SURROGATE_ESCAPE.pattern.encode())


def may_hold_surrogates(text: str) -> bool:
    """Whether decoding ``text`` can give a lone surrogate (cheap; false positives are fine)."""
    if text.isascii():  # known without reading it (the string records it): no raw surrogate
        return "\\u" in text and _SURROGATE_ESCAPE.search(text) is not None
    try:
        raw = text.encode("utf-8")  # fails on a lone surrogate written raw, faster than searching for one
    except UnicodeEncodeError:
        return True
    # The escape is ASCII, which UTF-8 keeps as it is, and its bytes are searched far faster than
    # a string that holds characters beyond the first 65,536 (stored four bytes each).
    return b"\\u" in raw and _SURROGATE_ESCAPE_BYTES.search(raw) is not None


def holds_surrogates(value: Any) -> bool:
    """Whether a decoded value holds a lone surrogate in any string, key or value: exact, and
    quicker than :func:`may_hold_surrogates` on the text, whose escapes are searched two
    characters at a time."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")  # fails on a lone surrogate, faster than searching for one
                except UnicodeEncodeError:
                    return True
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def clean_surrogates(value: Any) -> Any:
    """Replace lone surrogates (from escapes like \\ud83d) that no UTF-8 store accepts."""
    if isinstance(value, str):
        if _SURROGATE.search(value):
            return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        return value
    if isinstance(value, list):
        return [clean_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {clean_surrogates(k): clean_surrogates(v) for k, v in value.items()}
    return value


# -- sizes ----------------------------------------------------------------------------------

_BRACKETS_OR_STRINGS = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|[\[\]{}]", re.DOTALL)


def too_deep_value(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether a decoded value nests more than ``limit`` levels deep."""
    level = [value]
    for _ in range(limit + 1):
        level = [
            v
            for item in level
            if isinstance(item, (dict, list))
            for v in (item.values() if isinstance(item, dict) else item)
            if isinstance(v, (dict, list))
        ]
        if not level:
            return False
    return True


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether brackets nest more than ``limit`` levels deep outside strings."""
    if text.count("[") + text.count("{") <= limit:
        return False  # cannot nest deeper than there are brackets
    depth = 0
    for m in _BRACKETS_OR_STRINGS.finditer(text):
        c = m.group()
        if c == "[" or c == "{":
            depth += 1
            if depth > limit:
                return True
        elif c == "]" or c == "}":
            depth = max(depth - 1, 0)
    return False


# -- Python literals ------------------------------------------------------------------------

_NOTHING = object()
_UNREADABLE = object()


def _python_literal(text: str) -> Any:
    if "'" not in text and "True" not in text and "False" not in text and "None" not in text and "," not in text:
        return _NOTHING  # nothing a Python literal would read differently from JSON
    value = _single_quoted_json(text)
    if value is _NOTHING:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # invalid escapes stay as written, without a warning
                value = ast.literal_eval(text)
        except ValueError as exc:
            return _UNREADABLE if "digits" in str(exc) else _NOTHING
        except (SyntaxError, TypeError, MemoryError, RecursionError):
            return _NOTHING
    # Python reads some things differently from what they look like ('a' 'b' is "ab", 0x10
    # is 16): the value must read back from the text exactly, like a repair.
    return value if _json_shaped(value, 0) and faithful(text, value) else _NOTHING


_PLAIN_JSON = json.JSONDecoder()


def _single_quoted_json(text: str) -> Any:
    """The value of JSON written with single quotes for double ones, the usual Python literal,
    or _NOTHING when the text may be anything else. Python's parser costs more than the rest of
    a call's reading put together; the C decoder reads such text, its quotes swapped, to the
    same value, provided nothing in it means something else to Python: no backslash (the two
    know different escapes), no double quote (it would be swapped too), no true, false or null
    (names to Python), no lone surrogate (which Python's parser refuses), and brackets around
    the whole (inside them Python ignores line breaks and indentation; outside, it does not).
    Whatever else differs is refused by the checks both readings then go through: nesting
    beyond Python's limit is beyond MAX_DEPTH, and NaN or an infinite number is not JSON-shaped."""
    if text[:1] not in ("{", "[") or text[-1:] not in ("}", "]"):
        return _NOTHING
    if "'" not in text or '"' in text or "\\" in text:
        return _NOTHING  # (without a single quote, the JSON decoder has already refused it)
    try:
        value = _PLAIN_JSON.decode(text.replace("'", '"'))
    except (ValueError, RecursionError, MemoryError):
        return _NOTHING
    # Looked for only once the text has read as JSON: most text that is not fails sooner.
    if "true" in text or "false" in text or "null" in text or may_hold_surrogates(text):
        return _NOTHING
    return value


_INT_BOUND = 10**MAX_DIGITS  # the least int of MAX_DIGITS + 1 digits


def _json_shaped(value: Any, depth: int) -> bool:
    if depth > MAX_DEPTH:
        return False
    if value is None or isinstance(value, (bool, str)):
        return True
    if isinstance(value, int):
        # Compared, not written out: Python refuses to write an int of over 4,300 digits, and
        # a hex literal of 3,600 digits is one.
        return -_INT_BOUND < value < _INT_BOUND
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_json_shaped(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_shaped(v, depth + 1) for k, v in value.items())
    return False  # tuples, sets, bytes, complex numbers: not JSON


# -- what json_repair may do ----------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+")
_STRINGS = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'")
_LITERAL_WORDS = frozenset({"true", "false", "null", "True", "False", "None"})


def _worth_repairing(text: str) -> bool:
    """Whether json_repair could produce something :func:`faithful` accepts. Text mostly made
    of unquoted words cannot (strings must be quoted), and is where json_repair is slowest."""
    outside = _STRINGS.sub(" ", text)
    bare = sum(len(w) for w in _WORD.findall(outside) if w not in _LITERAL_WORDS)
    total = sum(len(w) for w in _WORD.findall(text))
    return bare * 2 <= total


_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "'": "'"}
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_LITERALS = {"true": True, "True": True, "false": False, "False": False, "null": None, "None": None}
_LITERAL = re.compile(r"true|True|false|False|null|None")


class _Mismatch(Exception):
    pass


def faithful(source: str, value: Any) -> bool:
    """Whether ``value`` is exactly what ``source`` says, allowing only the repairs that lose
    nothing: quoting, commas, comments, literal spellings, and closers missing at the end."""
    reader = _Reader(source)
    try:
        reader.value(value)
        reader.finish()
    except _Mismatch:
        return False
    except (IndexError, RecursionError):
        return False
    return True


class _Reader:
    __slots__ = ("i", "n", "s")

    def __init__(self, source: str) -> None:
        self.s = source
        self.i = 0
        self.n = len(source)

    def skip(self) -> None:
        """Whitespace and comments between tokens. A comment must end (a newline, or */):
        one that runs to the end of the text may have swallowed text the model wrote."""
        s, n = self.s, self.n
        i = self.i
        while i < n:
            c = s[i]
            if c in " \t\r\n":
                i += 1
            elif (c == "/" and s.startswith("//", i)) or c == "#":
                j = s.find("\n", i)
                if j < 0:
                    break
                i = j + 1
            elif c == "/" and s.startswith("/*", i):
                j = s.find("*/", i + 2)
                if j < 0:
                    break
                i = j + 2
            else:
                break
        self.i = i

    def at_end(self) -> bool:
        self.skip()
        return self.i >= self.n

    def expect(self, char: str) -> None:
        """A structural character; a closer may be missing at the very end."""
        if self.at_end():
            if char in "}]":
                return
            raise _Mismatch
        if self.s[self.i] != char:
            raise _Mismatch
        self.i += 1

    def comma(self) -> None:
        if not self.at_end() and self.s[self.i] == ",":
            self.i += 1

    def value(self, v: Any) -> None:
        if isinstance(v, dict):
            self.expect("{")
            for k, item in v.items():
                self.string(k)
                if self.at_end() or self.s[self.i] != ":":
                    raise _Mismatch
                self.i += 1
                self.value(item)
                self.comma()
            self.expect("}")
        elif isinstance(v, list):
            self.expect("[")
            for item in v:
                self.value(item)
                self.comma()
            self.expect("]")
        elif isinstance(v, str):
            self.string(v)
        elif v is None or isinstance(v, bool):
            self.skip()
            m = _LITERAL.match(self.s, self.i)
            if m is None or _LITERALS[m.group()] is not v:
                raise _Mismatch
            self.i = m.end()
        elif isinstance(v, (int, float)):
            self.skip()
            m = _NUMBER.match(self.s, self.i)
            if m is None or len(m.group()) > MAX_DIGITS + 20:
                raise _Mismatch
            written = float(m.group())
            if written != v or (isinstance(v, int) and not re.fullmatch(r"[-+]?\d+", m.group())):
                raise _Mismatch
            self.i = m.end()
        else:
            raise _Mismatch

    def string(self, text: str) -> None:
        """A quoted string whose content, escapes decoded, is exactly ``text``; its closing
        quote may be missing at the very end."""
        if self.at_end():
            raise _Mismatch
        s, n = self.s, self.n
        quote = s[self.i]
        if quote not in "\"'":
            raise _Mismatch
        i = self.i + 1
        t = 0
        m = len(text)
        while t < m:
            if i >= n:
                raise _Mismatch
            if s[i] == "\\":
                decoded, step = _escape(s, i)
                if decoded is not None:  # an escape: it must stand for exactly the next character
                    if not text.startswith(decoded, t):
                        raise _Mismatch
                    i += step
                    t += len(decoded)
                    continue
                raise _Mismatch  # an escape JSON does not know: what it stands for is a guess
            # A run of ordinary characters, compared at once.
            k = s.find("\\", i, i + (m - t))
            j = k if k >= 0 else min(n, i + (m - t))
            if s[i:j] != text[t : t + (j - i)] or _closes_early(s, quote, i, j):
                raise _Mismatch
            t += j - i
            i = j
        if i < n:
            if s[i] != quote:
                raise _Mismatch
            i += 1
        self.i = i

    def finish(self) -> None:
        """Only closers and commas may follow: nothing the model wrote was left out."""
        while not self.at_end():
            if self.s[self.i] not in "}],":
                raise _Mismatch
            self.i += 1


_AFTER_CLOSE = {q: re.compile(re.escape(q) + r"[ \t\r\n]*[:,}\]]") for q in "\"'"}


def _closes_early(s: str, quote: str, i: int, j: int) -> bool:
    """Whether an unescaped ``quote`` in ``s[i:j]``, kept inside a repaired string, stands where
    JSON would end the string (before a colon, a comma or a closer): the repair read past the
    string's end, and what follows (often the next key) would move into the value."""
    k = s.find(quote, i, j)
    while k >= 0:
        if _AFTER_CLOSE[quote].match(s, k):
            return True
        k = s.find(quote, k + 1, j)
    return False


_HEX4 = re.compile(r"[0-9a-fA-F]{4}")


def _escape(s: str, i: int) -> tuple[str | None, int]:
    """The character(s) the escape at ``s[i]`` stands for and its length, or (None, 0)."""
    e = s[i + 1 : i + 2]
    if e in _ESCAPES:
        return _ESCAPES[e], 2
    if e == "u" and _HEX4.fullmatch(s, i + 2, i + 6):
        code = int(s[i + 2 : i + 6], 16)
        if 0xD800 <= code < 0xDC00 and s.startswith("\\u", i + 6) and _HEX4.fullmatch(s, i + 8, i + 12):
            low = int(s[i + 8 : i + 12], 16)
            if 0xDC00 <= low < 0xE000:
                return chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)), 12
        return chr(code), 6
    return None, 0
