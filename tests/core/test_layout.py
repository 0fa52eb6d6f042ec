"""The parser's classes stay small enough to read: no class in the core holds more than about
twenty attributes."""

from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "letta_tool_emulation" / "core"
LIMIT = 20


def _attributes(cls: ast.ClassDef) -> set[str]:
    """Names in __slots__, and every self.<name> assigned in the class's methods."""
    names: set[str] = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets):
            names |= {e.value for e in ast.walk(node.value) if isinstance(e, ast.Constant) and isinstance(e.value, str)}
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        for t in targets:
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                names.add(t.attr)
    return names


def test_no_class_in_the_core_holds_more_than_about_twenty_attributes() -> None:
    big = {}
    for path in sorted(CORE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                count = len(_attributes(node))
                if count > LIMIT:
                    big[f"{path.relative_to(CORE)}:{node.name}"] = count
    assert not big, big
