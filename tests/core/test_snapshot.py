"""The parser does exactly what the record says it did (see snapshot.py)."""

from __future__ import annotations

import json

from .snapshot import RECORD, behaviour, digest, inputs


def test_every_recorded_reply_parses_as_recorded() -> None:
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    checked, changed = 0, []
    for text, finish in inputs():
        key = digest([text, finish])
        if key not in recorded:
            continue  # a corpus entry added after the record was written
        checked += 1
        if digest(behaviour(text, finish)) != recorded[key]:
            changed.append((text, finish))
    assert checked >= 1000, "the record covers the corpus, its variants and the generated replies"
    assert not changed, f"{len(changed)} replies parse differently, e.g. {changed[0]!r}"
