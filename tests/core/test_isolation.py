"""The core is usable without letta: importing it must not import letta."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "letta_tool_emulation" / "core"


def test_core_modules_do_not_import_letta() -> None:
    for path in CORE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            assert not any(n == "letta" or n.startswith("letta.") for n in names), f"{path.name} imports {names}"


def test_importing_the_package_does_not_import_letta() -> None:
    code = (
        "import sys, letta_tool_emulation as m; "
        'm.parse_tool_calls(\'TOOL_CALL_START {"function": "f"} TOOL_CALL_END\', []); '
        "print(sorted(k for k in sys.modules if k == 'letta' or k.startswith('letta.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
