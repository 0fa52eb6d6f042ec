"""Command line: ``letta-tool-emulation``."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print("letta-tool-emulation: the server command is not available yet.", file=sys.stderr)
    return 2
