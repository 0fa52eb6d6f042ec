"""Loading tests/data: the tool list and the corpus of replies."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "data"


def load_tools() -> list[dict[str, Any]]:
    return json.loads((DATA / "tools.json").read_text(encoding="utf-8"))["tools"]


@dataclass
class Entry:
    id: str
    text: str
    calls: list[dict[str, Any]]
    finish: str | None = None
    content: str | None = None
    contains: list[str] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    rejected: bool | None = None
    reasoning: str | None = None


def load_corpus() -> list[Entry]:
    entries: list[Entry] = []
    raw = (DATA / "replies.txt").read_text(encoding="utf-8")
    blocks = raw.split("\n@@@ ")[1:]
    for block in blocks:
        head, _, text = block.partition("\n---\n")
        if not _:  # an entry whose reply is empty ends right after the separator
            head, _, text = block.partition("\n---")
        lines = head.split("\n")
        entry = Entry(id=lines[0].strip(), text=text, calls=[])
        seen_calls = False
        for line in lines[1:]:
            key, _, value = line.partition(":")
            value = value.strip()
            if key == "calls":
                entry.calls = json.loads(value)
                seen_calls = True
            elif key == "finish":
                entry.finish = value
            elif key in ("content", "reasoning"):
                setattr(entry, key, json.loads(value))
            elif key in ("contains", "absent"):
                getattr(entry, key).append(json.loads(value))
            elif key == "problems":
                entry.problems = json.loads(value)
            elif key == "rejected":
                entry.rejected = value == "true"
            else:
                raise ValueError(f"{entry.id}: unknown header {line!r}")
        if not seen_calls:
            raise ValueError(f"{entry.id}: every entry states its calls")
        if entry.id.startswith("crlf-"):
            entry.text = entry.text.replace("\n", "\r\n")
        entries.append(entry)
    return entries
