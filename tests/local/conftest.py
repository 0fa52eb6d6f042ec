"""The real server with a real model: llama-cpp-python's OpenAI-compatible server serving
SmolLM2-135M-Instruct, from its own environment (``python3 dev.py llama`` builds it on first use)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from letta_tool_emulation.runtime.llama import DEFAULT_CONTEXT, LlamaServer, find_model

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def llama_python() -> Path:
    """The Python of the llama-cpp-python environment, created or updated as needed."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "dev.py"), "llama"], cwd=ROOT, capture_output=True, text=True, timeout=3600
    )
    if done.returncode != 0:
        pytest.fail(f"python3 dev.py llama failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return Path(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="session")
def model_path(llama_python: Path) -> Path:
    return find_model(llama_python)


@pytest.fixture(scope="session")
def llama_server(llama_python: Path, model_path: Path) -> Iterator[LlamaServer]:
    # One thread, and every prompt evaluated whole: a greedy reply then depends on its prompt
    # alone, not on the machine nor on what the server evaluated for an earlier test.
    with LlamaServer(
        llama_python, model_path, n_ctx=DEFAULT_CONTEXT, seed=7, n_threads=1, reuse_prompt=False
    ) as server:
        yield server
