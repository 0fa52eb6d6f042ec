"""Letta's own message tests, from the source distribution of the installed letta: fetching
them, the one patch they need, running them against a server, and reading the outcome of each.

The tests come from PyPI (``pip download --no-binary :all: letta==<installed version>``), into
``.conformance/`` at the repository root (ignored by git), once per version. Nothing else is
fetched: they run against the server they are pointed at (``LETTA_SERVER_URL``).

The patch: the fixtures that create the tests' agents name cloud models (``openai/gpt-4o``,
``anthropic/claude-sonnet-4-5-...``) and an OpenAI embedding model. :data:`FIXTURE_PATCHES`
replaces exactly those arguments, inside exactly those fixtures, by the handles in
``LETTA_CONFORMANCE_MODEL`` and ``LETTA_CONFORMANCE_EMBEDDING``; if any of them is not found
once where expected, the patch fails instead of running something else. Test bodies are not
touched: handles hard-coded there fail for every model alike.

Which model each file tests is Letta's own switch, ``LLM_CONFIG_FILE``, read when a file is
imported; the files read it in two formats (model settings, or an LLMConfig), so a small
pytest plugin sets it per file just before each is imported (:data:`PLUGIN`). All four files
then run in one pytest process per model, which saves importing letta for each file.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".conformance"
FILES = (
    "integration_test_send_message.py",
    "integration_test_send_message_v2.py",
    "integration_test_human_in_the_loop.py",
    "integration_test_cancellation.py",
)
MODEL_ENV = "LETTA_CONFORMANCE_MODEL"
EMBEDDING_ENV = "LETTA_CONFORMANCE_EMBEDDING"
CONFIGS_ENV = "LETTA_CONFORMANCE_CONFIGS"
_MODEL = f'__import__("os").environ["{MODEL_ENV}"]'
_EMBEDDING = f'__import__("os").environ["{EMBEDDING_ENV}"]'

# file -> [(fixture, what it says, what it says instead)]
FIXTURE_PATCHES: dict[str, list[tuple[str, str, str]]] = {
    "integration_test_send_message.py": [
        ("agent_state", 'model="openai/gpt-4o"', f"model={_MODEL}"),
        ("agent_state", 'embedding="openai/text-embedding-3-small"', f"embedding={_EMBEDDING}"),
    ],
    "integration_test_human_in_the_loop.py": [
        ("agent", 'model="anthropic/claude-sonnet-4-5-20250929"', f"model={_MODEL}"),
        ("agent", 'embedding="openai/text-embedding-3-small"', f"embedding={_EMBEDDING}"),
    ],
    "integration_test_cancellation.py": [
        ("agent_state", 'model="openai/gpt-4o"', f"model={_MODEL}"),
        ("agent_state", 'embedding="openai/text-embedding-3-small"', f"embedding={_EMBEDDING}"),
    ],
}

# Sets LLM_CONFIG_FILE for each test file just before pytest imports it.
PLUGIN = """
import json, os
import pytest

_CONFIGS = json.loads(os.environ["LETTA_CONFORMANCE_CONFIGS"])


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    if isinstance(collector, pytest.Module) and collector.path.name in _CONFIGS:
        os.environ["LLM_CONFIG_FILE"] = _CONFIGS[collector.path.name]  # read as the file is imported
    yield
"""


class SuiteError(RuntimeError):
    """The suite could not be fetched, patched or run (not a test failing)."""


def letta_version() -> str:
    return version("letta")


def fetch(cache: Path = CACHE, letta: str | None = None) -> Path:
    """The tests/ directory of letta's sdist for ``letta`` (default: the installed one),
    downloaded once, patched, and kept in ``cache`` (with the patched files as they were, in
    ``original/`` beside it)."""
    letta = letta or letta_version()
    home = cache / f"letta-{letta}"
    tests = home / "tests"
    if (tests / ".patched").exists():
        return tests
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        download = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                    "--no-build-isolation", f"letta=={letta}", "-d", tmp]  # fmt: skip
        done = subprocess.run(download, capture_output=True, text=True, timeout=900, env=_pip_env())
        archives = list(Path(tmp).glob("letta-*.tar.gz"))
        if done.returncode != 0 or not archives:
            raise SuiteError(f"could not download letta {letta}'s source distribution:\n{done.stderr[-2000:]}")
        staging = Path(tmp) / "unpacked"
        with tarfile.open(archives[0]) as tar:
            prefix = f"letta-{letta}/tests/"
            members = [m for m in tar.getmembers() if m.name.startswith(prefix) and (m.isfile() or m.isdir())]
            tar.extractall(staging, members=members, filter="data")
        source = staging / f"letta-{letta}" / "tests"
        for name in FILES:
            if not (source / name).exists():
                raise SuiteError(f"letta {letta}'s source distribution has no tests/{name}")
        original = staging / "original"
        original.mkdir()
        for name in FIXTURE_PATCHES:
            shutil.copy2(source / name, original / name)
        patch(source)
        if home.exists():
            shutil.rmtree(home)
        home.mkdir(parents=True)
        original.rename(home / "original")
        source.rename(tests)
    return tests


def _pip_env() -> dict[str, str]:
    return {**os.environ, "PIP_NO_INPUT": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def patch(tests: Path) -> None:
    """Apply :data:`FIXTURE_PATCHES` to the files in ``tests``; each replacement must match
    exactly once, inside its fixture."""
    for name, changes in FIXTURE_PATCHES.items():
        path = tests / name
        source = path.read_text()
        lines = source.splitlines(keepends=True)
        functions = {
            node.name: node
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        for fixture, old, new in changes:
            node = functions.get(fixture)
            if node is None or node.end_lineno is None:
                raise SuiteError(f"{name}: no fixture {fixture}() to patch")
            start, end = node.lineno - 1, node.end_lineno
            body = "".join(lines[start:end])
            if body.count(old) != 1:
                raise SuiteError(f"{name}: {fixture}() says {old!r} {body.count(old)} times, not once")
            lines[start:end] = body.replace(old, new).splitlines(keepends=True)
        path.write_text("".join(lines))
    (tests / ".patched").write_text(json.dumps(FIXTURE_PATCHES, indent=1))


@dataclass(frozen=True)
class Outcome:
    status: str  # passed, failed, error, skipped
    message: str = ""  # the first line of why, for anything but passed


def run(
    tests: Path,
    *,
    server_url: str,
    model: str,
    embedding: str,
    configs: dict[str, str],
    workdir: Path,
    env: dict[str, str] | None = None,
    timeout: float = 1800,
) -> dict[str, Outcome]:
    """Run the four files against ``server_url`` for ``model``; the outcome of every test,
    by ``file::test`` id. ``configs`` maps a file name to its LLM_CONFIG_FILE."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "conformance_plugin.py").write_text(PLUGIN)
    report = workdir / "report.xml"
    run_env = {
        **os.environ,
        **(env or {}),
        "LETTA_SERVER_URL": server_url,
        MODEL_ENV: model,
        EMBEDDING_ENV: embedding,
        "EMBEDDING_HANDLE": embedding,  # send_message_v2's own switch for its fixture
        CONFIGS_ENV: json.dumps(configs),
        "PYTHONPATH": os.pathsep.join([str(workdir), os.environ.get("PYTHONPATH", "")]),
    }
    command = [
        sys.executable, "-m", "pytest", "-p", "conformance_plugin", "-p", "no:cacheprovider",
        "-c", str(tests / "pytest.ini"), "--rootdir", str(tests.parent), f"--junitxml={report}",
        "-q", "-rN", *(str(tests / name) for name in FILES),
    ]  # fmt: skip
    with open(workdir / "pytest.log", "w") as log:
        try:
            subprocess.run(
                command, cwd=tests.parent, env=run_env, stdout=log, stderr=subprocess.STDOUT, timeout=timeout
            )
        except subprocess.TimeoutExpired as exc:
            raise SuiteError(
                f"Letta's tests did not finish within {timeout:.0f} s; see {workdir / 'pytest.log'}"
            ) from exc
    if not report.exists():
        raise SuiteError(f"pytest wrote no report; see {workdir / 'pytest.log'}")
    return read_report(report)


def read_report(report: Path) -> dict[str, Outcome]:
    outcomes: dict[str, Outcome] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        module = (case.get("classname") or "").rsplit(".", 1)[-1]
        test_id = f"{module}.py::{case.get('name')}"
        status, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                status = {"failure": "failed"}.get(child.tag, child.tag)
                message = (child.get("message") or child.text or "").strip().splitlines()[0][:300] if (
                    child.get("message") or child.text) else ""  # fmt: skip
                break
        outcomes[test_id] = Outcome(status, message)
    return outcomes


def counts(outcomes: dict[str, Outcome]) -> dict[str, tuple[int, int]]:
    """Per file: (passed, run), skipped tests left out of both."""
    out: dict[str, tuple[int, int]] = {}
    for test_id, o in outcomes.items():
        name = test_id.split("::", 1)[0]
        passed, ran = out.get(name, (0, 0))
        if o.status != "skipped":
            out[name] = (passed + (o.status == "passed"), ran + 1)
        else:
            out.setdefault(name, (passed, ran))
    return out


def model_settings_file(path: Path, handle: str) -> str:
    """A model settings file in Letta's tests' format, for ``handle``."""
    path.write_text(json.dumps({"handle": handle, "model_settings": {
        "provider_type": "openai", "temperature": 1.0, "max_output_tokens": 4096, "parallel_tool_calls": False,
    }}))  # fmt: skip
    return str(path)


def llm_config_file(path: Path, handle: str, endpoint: str, context_window: int) -> str:
    """An LLMConfig file in Letta's tests' format (the cancellation test's), for ``handle``."""
    provider, model = handle.split("/", 1)
    config: dict[str, Any] = {
        "context_window": context_window, "max_tokens": 4096, "model": model, "model_endpoint_type": "openai",
        "model_endpoint": endpoint, "model_wrapper": None, "handle": handle, "provider_name": provider,
        "provider_category": "base",
    }  # fmt: skip
    path.write_text(json.dumps(config))
    return str(path)
