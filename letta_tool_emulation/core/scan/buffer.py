"""The undecided text of the reply, and the construct being held back.

The scanner reads the reply from ``text``, which holds only what is not decided yet; ``pos`` is
where reading stands in it, ``base`` how many characters of the reply precede it. A construct
that may still turn out to be a call is held: its text from earlier chunks in a list, the rest
still in ``text`` from the hold's start.

Only this class holds indices into ``text``. Compaction (after every feed) drops what was
decided and moves every index it holds; anything else that must remember a place across feeds
remembers an offset in the reply (``base + index``), which compaction leaves valid.
"""

from __future__ import annotations


class Buffer:
    __slots__ = ("_acc", "_acc_len", "_from", "base", "pos", "text")

    def __init__(self) -> None:
        self.text = ""
        self.pos = 0
        self.base = 0
        self._acc: list[str] = []  # the held construct's text from earlier feeds
        self._acc_len = 0
        self._from = -1  # where the held construct goes on in ``text``; -1: nothing held

    def hold_from(self, i: int) -> None:
        """Hold the construct that begins at index ``i``."""
        self._acc = []
        self._acc_len = 0
        self._from = i

    def held(self, upto: int) -> str:
        """The held construct's text up to index ``upto``."""
        return "".join(self._acc) + self.text[self._from : upto]

    def held_len(self, upto: int) -> int:
        return self._acc_len + upto - self._from

    def release(self) -> None:
        """The held construct is decided."""
        self._acc = []
        self._acc_len = 0
        self._from = -1

    def hold_whole(self, chunk: str) -> None:
        """A whole chunk read as part of the held construct, without being buffered."""
        self._acc.append(chunk)
        self._acc_len += len(chunk)
        self.base += len(chunk)

    def read_again(self, skip: int) -> None:
        """Give the held construct back to be read again, but for its first ``skip`` characters
        (each character is read again at most once)."""
        if not self._acc:  # all of it is still in the buffer: just go back
            self.pos = self._from + skip
        else:
            rest = self.held(self.pos)[skip:]
            self.base += self.pos - len(rest)
            self.text = rest + self.text[self.pos :]
            self.pos = 0
        self.release()

    def compact(self) -> None:
        """Drop what is decided: keep only the text from ``pos`` on."""
        pos = self.pos
        if pos > 0:
            if self._from >= 0:
                piece = self.text[self._from : pos]
                if piece:
                    self._acc.append(piece)
                    self._acc_len += len(piece)
                self._from = 0
            self.base += pos
            self.text = self.text[pos:]
            self.pos = 0
