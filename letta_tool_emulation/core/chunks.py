"""What both reply parsers share at their surface: chunks read as text, and what they report
when they fail inside."""

from __future__ import annotations

import codecs

from .results import Problem


class ChunkReader:
    """Chunks of a reply as text: ``str`` (a subclass becomes a plain ``str``), UTF-8
    ``bytes`` split anywhere (even inside a character), None (nothing)."""

    __slots__ = ("_decoder", "decoding")

    def __init__(self) -> None:
        self._decoder: codecs.IncrementalDecoder | None = None
        self.decoding = False  # bytes were read: a str must first flush what they left

    def text(self, chunk: object) -> str:
        if isinstance(chunk, str):
            # Bytes still held from an earlier chunk come first.
            return self.flush() + str.__str__(chunk) if self.decoding else str.__str__(chunk)
        if isinstance(chunk, (bytes, bytearray, memoryview)):
            if self._decoder is None:
                self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
                self.decoding = True
            return self._decoder.decode(bytes(chunk))
        if chunk is None:
            return ""
        return str(chunk)

    def flush(self) -> str:
        """Whatever incomplete character the bytes so far ended in, as a replacement character."""
        if self._decoder is None:
            return ""
        text = self._decoder.decode(b"", final=True)
        self._decoder.reset()
        return text


def internal_error(exc: BaseException, *, calls_released: bool) -> Problem:
    """The problem a parser reports when a bug stops it: the rest of the reply is not read.
    Where calls are released only at the reply's end (``calls_released`` false), none ran, and
    the model is asked to write it again; otherwise some may have, and nothing is rejected."""
    if calls_released:
        return Problem(
            "invalid_json", f"Internal parser error ({type(exc).__name__}); the rest of the reply was not read."
        )
    return Problem(
        "invalid_json",
        f"Internal parser error ({type(exc).__name__}); the rest of the reply was not read and nothing in it was "
        "executed. Write the call again.",
        rejected=True,
    )
