"""The core is usable without letta, and does no I/O: nothing in it imports letta, a network,
process or thread library, and importing it imports no letta."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "letta_tool_emulation" / "core"
# Modules the core must never import (nor any of their submodules).
BANNED = (
    "letta",
    "httpx",
    "openai",
    "requests",
    "urllib",
    "http",
    "socket",
    "ssl",
    "asyncio",
    "threading",
    "multiprocessing",
    "subprocess",
    "os",
)


def test_core_modules_import_neither_letta_nor_io() -> None:
    for path in CORE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for name in names:
                assert name.split(".")[0] not in BANNED, f"{path.relative_to(CORE)} imports {name}"


def test_importing_the_package_does_not_import_letta() -> None:
    code = (
        "import sys, letta_tool_emulation as m; "
        'm.parse_tool_calls(\'TOOL_CALL_START {"function": "f"} TOOL_CALL_END\', []); '
        "print(sorted(k for k in sys.modules if k == 'letta' or k.startswith('letta.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
