"""A cheap test that lets a word pattern run only where it can match.

The word tables of ``context.py`` hold one case-insensitive pattern per language and kind, each
an alternation of many phrases; searching a line with all of them costs far more than reading
it. Every phrase holds some literal text: "for example" cannot match a line that holds neither
"for" nor "example". :class:`Words` splits each pattern into its top-level alternatives and
derives, from the parsed pattern itself, a set of literal strings one of which every match of
an alternative contains. An alternative is searched only on a line that holds one of its
literals, so the answer is exactly that of searching the whole pattern, at the cost of a few
substring tests on a line with none of the table's words.

The literals are compared case-folded (:func:`fold`), which maps every pair of characters that
the regex engine's case-insensitive matching treats as equal to the same text.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar

try:  # the standard library's own parser (private, without stubs): on a Python without it,
    # every pattern is simply searched whole (``requirements`` claims nothing).
    import re._constants as sre  # type: ignore[import-not-found]
    import re._parser as sre_parse  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - present on every Python the project supports
    sre = sre_parse = None

import regex

_CAP = 64  # most strings a literal alternative set may hold before it is cut into parts
_CLASS_CHARS = 8  # most characters of a class read as alternatives of one character
_FOLD = {0x0307: None, 0x0131: "i"}  # "İ" folds to "i" plus a dot; the dotless "ı" to itself


def fold(text: str) -> str:
    """``text`` case-folded, so that literals can be found in it with ``in``."""
    folded = text.casefold()
    return folded if folded.isascii() else folded.translate(_FOLD)


Strings = frozenset[str]


def _class(items: list[tuple[Any, Any]]) -> Strings | None:
    chars = set()
    for op, av in items:
        if op is not sre.LITERAL:
            return None
        chars.add(chr(av))
    return frozenset(chars) if len(chars) <= _CLASS_CHARS else None


def _node(op: Any, av: Any) -> tuple[Strings | None, Strings | None]:
    """(every string the node can match, if few; strings one of which each match contains)."""
    if op is sre.LITERAL:
        one = frozenset([chr(av)])
        return one, one
    if op is sre.IN:
        chars = _class(av)
        return chars, chars
    if op is sre.AT:
        return frozenset([""]), None
    if op is sre.SUBPATTERN:
        if av[1] or av[2]:  # flags changed inside the group: claim nothing
            return None, None
        return _sequence(av[-1])
    if op is sre.BRANCH:
        parts = [_sequence(alt) for alt in av[1]]
        exact: Strings | None = None
        if all(p[0] is not None for p in parts):
            exact = frozenset().union(*(p[0] for p in parts if p[0] is not None))
            if len(exact) > _CAP:
                exact = None
        needs: Strings | None = None
        if all(p[1] is not None for p in parts):
            needs = frozenset().union(*(p[1] for p in parts if p[1] is not None))
        return exact, needs
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        lo, hi, item = av
        exact, needs = _sequence(item)
        if lo == hi == 1:
            return exact, needs
        if lo == 0 and hi == 1 and exact is not None:
            return exact | {""}, None
        return None, needs if lo >= 1 else None
    return None, None


def _better(a: Strings) -> tuple[int, int, list[str]]:
    # Longer literals are rarer in prose; fewer of them are fewer tests. The literals themselves
    # break a tie, so that the order (and the work done per line) does not follow the hash seed.
    return min(map(len, a)), -len(a), sorted(a)


def _sequence(items: Iterable[tuple[Any, Any]]) -> tuple[Strings | None, Strings | None]:
    exact, found = _parts(items)
    return exact, (max(found, key=_better) if found else None)


def _parts(items: Iterable[tuple[Any, Any]]) -> tuple[Strings | None, list[Strings]]:
    """(every string the sequence can match, if few; the sets each of which every match must
    contain one of)."""
    found: list[Strings] = []
    run: Strings = frozenset([""])  # the strings the literal run so far can match
    whole = True
    for op, av in items:
        exact, needs = _node(op, av)
        if needs is not None and "" not in needs:
            found.append(needs)
        if exact is not None:
            joined = frozenset(a + b for a in run for b in exact)
            if len(joined) <= _CAP:
                run = joined
                continue
            whole = False
            if "" not in run:
                found.append(run)
            run = exact
            continue
        whole = False
        if "" not in run:
            found.append(run)
        run = frozenset([""])
    if "" not in run:
        found.append(run)
    return (run if whole else None), found


def _folded(needs: Strings) -> Strings:
    folded = {fold(s) for s in needs}
    # A literal that contains another is implied by it.
    return frozenset(s for s in folded if not any(t != s and t in s for t in folded))


def requirements(pattern: str, flags: int = 0) -> list[Strings]:
    """Sets of case-folded literals, every match of ``pattern`` containing one of each set, the
    likeliest to rule a line out first; empty when none can be told (the pattern must always
    be searched)."""
    try:
        _, found = _parts(sre_parse.parse(pattern, flags))
    except Exception:  # noqa: BLE001 - a pattern only the regex module reads: claim nothing
        return []
    sets = sorted({_folded(needs) for needs in found if "" not in needs}, key=_better, reverse=True)
    return sets


def required(pattern: str, flags: int = 0) -> Strings | None:
    """Case-folded literals one of which every match of ``pattern`` contains; None when no such
    set can be told."""
    sets = requirements(pattern, flags)
    return sets[0] if sets else None


def alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of ``pattern`` (split at each ``|`` outside groups and classes)."""
    parts: list[str] = []
    depth = 0
    start = i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i += 1
            if i < n and pattern[i] == "^":
                i += 1
            if i < n and pattern[i] == "]":
                i += 1
            while i < n and pattern[i] != "]":
                i += 2 if pattern[i] == "\\" else 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
        i += 1
    parts.append(pattern[start:])
    return parts


K = TypeVar("K")


class _Finder:
    """Finds every literal of a set in a folded line in one pass: a search finds the longest
    literal beginning at the first place where one does (every other literal beginning there is
    a prefix of it), and the next search starts one character later.

    The engine tries every branch of a trie's root at each position whose character begins a
    literal, so a trie is read faster the fewer characters begin its literals: an ASCII line is
    read with the trie of the ASCII literals alone, and any other line with two, one of the
    literals that begin with an ASCII character and one of those that do not, whose positions
    the engine skips without trying a branch wherever the line holds ASCII."""

    __slots__ = ("_finds", "_finds_ascii", "_prefixes")

    def __init__(self, literals: Collection[str]) -> None:
        def tries(strings: list[str]) -> tuple[re.Pattern[str], ...]:
            return (re.compile(any_of(strings)),) if strings else ()

        self._finds_ascii = tries([s for s in literals if s.isascii()])
        self._finds = tries([s for s in literals if s[0].isascii()]) + tries(
            [s for s in literals if not s[0].isascii()]
        )
        present = set(literals)
        self._prefixes = {s: tuple(s[:i] for i in range(1, len(s) + 1) if s[:i] in present) for s in present}

    def found(self, text: str) -> set[str]:
        """The literals that occur in ``text``."""
        hits: set[str] = set()
        for find in self._finds_ascii if text.isascii() else self._finds:
            m = find.search(text)
            while m is not None:
                hits.add(m.group())
                m = find.search(text, m.start() + 1)
        prefixes = self._prefixes
        return {literal for hit in hits for literal in prefixes[hit]}


class Table(Generic[K]):
    """Kinds of words (each a :class:`Words`), asked in order for the first one a line holds.

    The answer is what asking each kind's :meth:`Words.search` in turn would give, but the line
    is read once for the literals of every kind (or of the kinds ``among`` allows) instead of
    once per kind, so the cost of a line without the tables' words stays flat as kinds and
    languages are added; only the alternatives whose literals it holds are searched."""

    __slots__ = ("_by_literal", "_entries", "_finder", "kinds")

    def __init__(self, kinds: Sequence[tuple[K, Words]]) -> None:
        self.kinds = [kind for kind, _ in kinds]
        # Every alternative of every kind, in the kinds' order, with the literal sets beyond the
        # one it is indexed by; those with no literal are candidates on every line.
        # An alternative that begins with "^" can match only where a line begins (the engine
        # knows no line separator but "\n", even in multiline mode), so on a text of one line it
        # is tried at the start alone, not searched for at every position.
        self._entries: list[tuple[int, regex.Pattern[str], list[Strings], bool]] = []
        self._by_literal: dict[str | None, list[int]] = {None: []}
        for k, (_, words) in enumerate(kinds):
            for pattern, needs in words.patterns:
                i = len(self._entries)
                self._entries.append((k, pattern, needs[1:], pattern.pattern.startswith("^")))
                for literal in needs[0] if needs else (None,):
                    self._by_literal.setdefault(literal, []).append(i)
        self._finder = _Finder([s for s in self._by_literal if s is not None])

    def first(self, line: str, folded: str | None = None, among: Collection[K] | None = None) -> K | None:
        """The first kind (of those in ``among``, if given) of which a pattern matches in
        ``line``; ``folded``: :func:`fold` of it, if known."""
        if folded is None:
            folded = fold(line)
        by_literal = self._by_literal
        candidates = set(by_literal[None])
        for literal in self._finder.found(folded):
            candidates.update(by_literal[literal])
        entries = self._entries
        kinds = self.kinds
        one_line = "\n" not in line
        # The entries are in the kinds' order: the first that matches belongs to the first kind
        # that holds the line.
        for i in sorted(candidates):
            k, pattern, needs, anchored = entries[i]
            if (
                (among is None or kinds[k] in among)
                and all(any(s in folded for s in other) for other in needs)
                and (pattern.match(line) if anchored and one_line else pattern.search(line)) is not None
            ):
                return kinds[k]
        return None


class Gates(Generic[K]):
    """Groups of literal strings, and which groups a text holds one of, read in one pass."""

    __slots__ = ("_finder", "_groups")

    def __init__(self, groups: Mapping[K, Iterable[str]]) -> None:
        self._groups: dict[str, frozenset[K]] = {}
        for group, strings in groups.items():
            for s in strings:
                self._groups[s] = self._groups.get(s, frozenset()) | {group}
        self._finder = _Finder(list(self._groups))

    def held(self, text: str) -> frozenset[K]:
        """The groups of which ``text`` holds a string (compared as they are, not folded)."""
        groups = self._groups
        return frozenset(group for s in self._finder.found(text) for group in groups[s])


class Words:
    """Patterns of which a line holds any (searched as their alternation would be), each split
    into alternatives that are searched only where one of their literals occurs."""

    __slots__ = ("_table", "patterns")

    def __init__(self, patterns: Iterable[str], flags: int) -> None:
        # Each alternative with the sets of literals it needs: the first indexes it, the others
        # are tested before it is searched.
        self.patterns: list[tuple[regex.Pattern[str], list[Strings]]] = []
        for pattern in patterns:
            for part in alternatives(pattern):
                self.patterns.append((regex.compile(part, flags), requirements(part, flags & (re.I | re.M))))
        self._table: Table[bool] | None = None

    def search(self, line: str, folded: str | None = None) -> bool:
        """Whether any pattern matches in ``line`` (``folded``: :func:`fold` of it, if known)."""
        if self._table is None:
            self._table = Table([(True, self)])
        return self._table.first(line, folded) is not None


def any_of(strings: Iterable[str]) -> str:
    """A pattern that matches any of ``strings``, the longest one where several begin: their
    trie, which the standard library's engine searches several times faster than their plain
    alternation (it tries one branch per next character, not one per string)."""
    trie: dict[str, Any] = {}
    for s in strings:
        node = trie
        for ch in s:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        branches = [re.escape(ch) + emit(sub) for ch, sub in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return emit(trie)
