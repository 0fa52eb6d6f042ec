"""The gates judge the same way everywhere: the pre-commit hooks run dev.py's own checks on the
project's virtualenv, fetching nothing, and every tool that judges is pinned."""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def dev() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dev_commands", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def hooks() -> list[dict[str, Any]]:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    assert [repo["repo"] for repo in config["repos"]] == ["local"]  # no hook repository is fetched
    return [hook for repo in config["repos"] for hook in repo["hooks"]]


def test_every_check_of_the_test_command_is_a_pre_commit_hook_on_the_venv() -> None:
    entries = [hook["entry"].split() for hook in hooks()]
    assert all(entry[:3] == [".venv/bin/python", "-m", entry[2]] for entry in entries)
    assert all(hook["language"] == "system" for hook in hooks())
    for check in dev().CHECKS:
        # dev.py names the tree ("."); a hook is given the files instead.
        wanted = [a for a in check if a != "."]
        assert any(entry[2 : 2 + len(wanted)] == wanted for entry in entries), f"no hook runs {check}"


def test_mypy_runs_as_configured() -> None:
    (mypy,) = [hook for hook in hooks() if hook["id"] == "mypy"]
    assert mypy["entry"].split() == [".venv/bin/python", "-m", "mypy"] and mypy["pass_filenames"] is False
    assert "letta_tool_emulation" in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["packages"]
    assert ("mypy",) in dev().CHECKS  # a gate of `lint` and `test`, not only of the hook


def test_every_tool_of_the_test_extra_is_pinned() -> None:
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        match = re.fullmatch(r"([A-Za-z0-9._-]+)==(\S+)", line.strip())
        if match:
            pins[re.sub(r"[-_.]+", "-", match[1]).lower()] = match[2]
    for requirement in map(Requirement, extra):
        name = re.sub(r"[-_.]+", "-", requirement.name).lower()
        assert name in pins, f"{requirement.name} is not pinned in constraints.txt"
        assert requirement.specifier.contains(pins[name]), f"{requirement} does not admit the pinned {pins[name]}"
