"""Running the BFCL harness (``benchmarks/bfcl_harness``) in ``.venv-bfcl``, as ``dev.py bench bfcl`` does."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"


def harness(python: Path, *args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(python), "-m", "bfcl_harness", *args], cwd=BENCHMARKS, capture_output=True, text=True, timeout=timeout
    )
    if done.returncode != 0:
        pytest.fail(f"bfcl_harness {args[0]} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}")
    return done


def questions(python: Path, categories: str, per_category: int, seed: int = 0, ids: str = "") -> list[dict[str, Any]]:
    args = ["questions", "--categories", categories, "--per-category", str(per_category), "--seed", str(seed)]
    if ids:
        args += ["--ids", ids]
    return list(json.loads(harness(python, *args).stdout))


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
