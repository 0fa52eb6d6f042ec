"""The BFCL benchmark's harness runs in its own environment, ``.venv-bfcl`` (``python3 dev.py bfcl``
builds it on first use); these tests drive it as ``dev.py bench bfcl`` does, in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def bfcl_python() -> Path:
    done = subprocess.run(
        [sys.executable, str(ROOT / "dev.py"), "bfcl"], cwd=ROOT, capture_output=True, text=True, timeout=3600
    )
    if done.returncode != 0:
        pytest.fail(f"python3 dev.py bfcl failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return Path(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="session")
def bfcl_data(bfcl_python: Path) -> Path:
    """BFCL's own data directory, inside the installed package (found without importing it)."""
    script = "import importlib.util; print(importlib.util.find_spec('bfcl_eval').submodule_search_locations[0])"
    done = subprocess.run([str(bfcl_python), "-c", script], capture_output=True, text=True, timeout=120, check=True)
    return Path(done.stdout.strip()) / "data"
