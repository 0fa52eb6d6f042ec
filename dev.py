#!/usr/bin/env python3
"""Developer commands. Needs only Python 3.11+; sets up ``.venv`` on first use.

    python3 dev.py server [ARGS]   start a Letta server with the plugin (embedded PostgreSQL)
    python3 dev.py test [ARGS]     lint, the whole test suite, then `compat --ends` (ARGS go to pytest, and
                                   then only pytest runs)
    python3 dev.py lint            ruff check and format check
    python3 dev.py bench [NAME]    run the benchmarks in benchmarks/ (all, or one by name)
    python3 dev.py record [SOURCE] re-record cassettes: stand-in (default) or venice (needs VENICE_API_KEY)
    python3 dev.py compat [VERSIONS] the letta version matrix (compat/): every release, or those named;
                                   --ends: the oldest and newest supported (as `test` does)
    python3 dev.py setup           only create or update .venv

Installation uses ``constraints.txt`` (the versions letta 0.16.8 was tested with) and is
repeated only when pyproject.toml or constraints.txt change.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".install-stamp"


def run(*cmd: str | Path, **kw: object) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.call([str(c) for c in cmd], cwd=ROOT, **kw)  # type: ignore[arg-type]


def check(*cmd: str | Path) -> None:
    code = run(*cmd)
    if code:
        sys.exit(code)


def setup() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py runs on whatever python3 the machine has
        sys.exit(f"Python 3.11 or newer is needed (this is {sys.version.split()[0]}).")
    wanted = hashlib.sha256(
        (ROOT / "pyproject.toml").read_bytes() + (ROOT / "constraints.txt").read_bytes()
    ).hexdigest()
    if PY.exists() and STAMP.exists() and STAMP.read_text().strip() == wanted:
        return
    if not PY.exists():
        check(sys.executable, "-m", "venv", VENV)
    os.environ.setdefault("PIP_NO_INPUT", "1")
    os.environ.setdefault("PIP_DISABLE_PIP_VERSION_CHECK", "1")
    # pip 23.x crashes while resolving letta's dependency tree; any recent pip works.
    check(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip>=24.2")
    check(PY, "-m", "pip", "install", "--quiet", "-c", "constraints.txt", "-e", ".[test]")
    STAMP.write_text(wanted)


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__)
        return 0
    command, args = argv[0], argv[1:]
    setup()
    if command == "setup":
        return 0
    if command == "lint":
        return run(PY, "-m", "ruff", "check", ".") or run(PY, "-m", "ruff", "format", "--check", ".")
    if command == "test":
        code = run(PY, "-m", "ruff", "check", ".")
        if code:
            return code
        code = run(PY, "-m", "pytest", *args)
        if code or args:  # a chosen subset of the tests: no version matrix
            return code
        # The whole suite ends with the version matrix at its two ends: the oldest and the
        # newest supported letta, each in its own environment (`compat` runs every release).
        return run(sys.executable, ROOT / "compat" / "matrix.py", "--ends")
    if command == "compat":
        return run(sys.executable, ROOT / "compat" / "matrix.py", *args)
    if command == "server":
        return run(BIN / "letta-tool-emulation", "server", *args)
    if command == "bench":
        names = args or sorted(p.stem for p in (ROOT / "benchmarks").glob("*.py") if not p.stem.startswith("_"))
        return max((run(PY, ROOT / "benchmarks" / f"{n}.py") for n in names), default=0)
    if command == "record":
        source = args[0] if args else "stand-in"
        if source not in ("stand-in", "venice"):
            print("usage: python3 dev.py record [stand-in|venice]", file=sys.stderr)
            return 2
        if source == "venice" and not os.environ.get("VENICE_API_KEY"):
            print("recording against Venice needs VENICE_API_KEY", file=sys.stderr)
            return 2
        os.environ["LETTA_TOOL_EMULATION_RECORD"] = source
        # Real Venice answers are not scripted: only the turn scenarios make sense there.
        target = "tests/adapter" if source == "stand-in" else "tests/adapter/test_turns.py"
        return run(PY, "-m", "pytest", target)
    print(f"unknown command {command!r}\n{__doc__}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
