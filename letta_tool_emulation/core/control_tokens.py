"""A chat template's control tokens that a server left in a reply's text.

A server that runs a model with the wrong chat template, or without the template's stop tokens,
passes on as text the tokens that end a turn: ``<|im_end|>``, ``<|eot_id|>``, harmony's
``<|call|>`` and ``<|return|>``, ``</s>``, Gemma's ``<end_of_turn>``. They are the template's,
not the model's words:

- after a block on its line they tell nothing about it (:data:`TOKENS`, :data:`CUT`, read by
  the settling of blocks);
- where they end the reply, the user is not shown them (:class:`TrailingTokens`).

Anywhere else (in a sentence, in code, in the middle of a reply) they stay as written, as text
that names them does.
"""

from __future__ import annotations

import re

import regex

WORDS = ("</s>", "<eos>", "<end_of_turn>")  # (besides every <|name|>)
# One complete token (the turn markers of core/formats.py begin with a run of them)
TOKEN = r"(?:<\|[A-Za-z_]{1,24}\|>|" + "|".join(map(regex.escape, WORDS)) + ")"
# The beginning of a token that the end of the text so far may have cut
_CUT_TOKEN = (
    r"(?:<\|[A-Za-z_]{0,24}\|?|"
    + "|".join(map(regex.escape, dict.fromkeys(w[:n] for w in WORDS for n in range(len(w) - 1, 0, -1))))
    + ")"
)
# Tokens right after a block on its line, and the beginning of one there
TOKENS = regex.compile(r"(?:[ \t]{0,8}" + TOKEN + ")+")
CUT = regex.compile(r"[ \t]{0,8}" + _CUT_TOKEN + r"?\Z")

_SPACE = " \t\r\n"
# What may follow the beginning of a token in it
_GOES_ON = frozenset("|>/_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
# From a run's start: complete tokens one after another (with the space before each), then space
# and the beginning of one more, up to the end of the text. (The standard library's engine:
# these are tried on every piece of text that holds a "<", and it is quicker to call.)
_RUN = re.compile(r"(?:[ \t\r\n]*+" + TOKEN + r")*+")
_CONTINUES = re.compile("(" + _RUN.pattern + r")[ \t\r\n]*+" + _CUT_TOKEN + r"?\Z")
# From the last "<" of a text: a complete token and space, or the beginning of one, up to its end
_LAST = re.compile(r"(" + TOKEN + r")[ \t\r\n]*+\Z|" + _CUT_TOKEN + r"\Z")
_ONE = re.compile(TOKEN)


def _trailing_run(text: str) -> tuple[int, int]:
    """Where the run of control tokens that ends ``text`` begins, and where its complete tokens
    end (what follows them is space, and the beginning of one more); ``(len(text), len(text))``
    when no run ends it. Read back from the end, so it costs what the run holds, not what stands
    before it."""
    n = len(text)
    last_at = text.rfind("<")
    if last_at < 0:
        return n, n
    if last_at == n - 1:
        tokens_end = -1  # (a "<" that ends the text begins one: no need to read it)
    else:
        last = _LAST.match(text, last_at)
        if last is None:
            return n, n
        tokens_end = last.end(1) if last.group(1) else -1
    start = last_at
    while True:  # back over the complete tokens before it, one at a time
        end = start
        while end and text[end - 1] in _SPACE:
            end -= 1
        if not end or text[end - 1] != ">":
            break
        begin = text.rfind("<", 0, end)
        if begin < 0 or _ONE.fullmatch(text, begin, end) is None:
            break
        if tokens_end < 0:
            tokens_end = end
        start = begin
    return start, start if tokens_end < 0 else tokens_end


class TrailingTokens:
    """Text as it streams, less a run of control tokens at its end (held until more text shows
    it was not the end). At the end of the reply the complete tokens and the space between them
    are dropped; a token that was never finished is text, and is handed out as written. A
    stream's chunks add up to what the whole text gives, however they cut it."""

    __slots__ = ("dropped", "open", "run")

    def __init__(self) -> None:
        self.run: list[str] = []  # complete tokens (with the space before each) that end the text so far
        self.open = ""  # what follows them: space, and the beginning of one more token
        self.dropped: tuple[int, int] | None = None  # at the end: the tokens dropped, and what followed them

    def text(self, s: str) -> str:
        """What of ``s``, the text that follows what came so far, can be shown now."""
        if not (self.run or self.open):
            if "<" not in s:
                return s  # (most text, at the cost of one search)
            shown = ""
        else:
            if not s:
                return ""
            if self.open[-1:] not in _SPACE and s[0] not in _GOES_ON:
                # (the cut token does not go on: all that was held is shown, without reading the
                # two together)
                shown = "".join(self.run) + self.open
            else:
                t = self.open + s
                if (more := _CONTINUES.match(t)) is not None:
                    end = more.end(1)
                    if end:
                        self.run.append(t[:end])
                    self.open = t[end:]
                    return ""
                # Text that is no token: the run was not the reply's end. A new one can begin only
                # past where this one broke (a token before that point runs into the same text),
                # which reading back from the end never passes.
                shown = "".join(self.run)
                s = t
            self.run, self.open = [], ""
        start, tokens_end = _trailing_run(s)
        if start < len(s):
            if tokens_end > start:
                self.run.append(s[start:tokens_end])
            self.open = s[tokens_end:]
        return shown + s[:start]

    def close(self) -> str:
        """What is left to show at the end of the reply: what follows the last complete token
        (space, or a token that was never finished)."""
        rest = self.open
        self.dropped = (sum(map(len, self.run)), len(rest))
        self.run, self.open = [], ""
        return rest

    def shown(self, text: str) -> str:
        """What of ``text``, all the text this was given so far, is shown: less what is held, or,
        at the end, less the tokens dropped."""
        n = len(text)
        if self.dropped is not None:
            tokens, rest = self.dropped
            return text[: n - rest - tokens] + text[n - rest :] if tokens else text
        held = sum(map(len, self.run)) + len(self.open)
        return text[: n - held] if held else text
