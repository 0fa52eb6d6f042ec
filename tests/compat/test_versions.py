"""compat/versions.toml is the one list of letta releases the project claims: pyproject.toml's
letta requirement and the README's must admit exactly its supported releases, and the matrix
(``python3 dev.py compat``) must tell its install failures apart."""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from pathlib import Path
from types import ModuleType

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"compat_{name}", ROOT / "compat" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


matrix = load("matrix")
smoke = load("smoke")
VERSIONS = matrix.load_versions()


def pyproject_letta() -> SpecifierSet:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    letta = [Requirement(d) for d in project["dependencies"] if Requirement(d).name == "letta"]
    assert len(letta) == 1, project["dependencies"]
    return letta[0].specifier


def admitted(spec: SpecifierSet) -> list[str]:
    return [v for v in VERSIONS.releases if v not in VERSIONS.unpublished and Version(v) in spec]


def test_the_versions_file_is_consistent() -> None:
    releases = [Version(v) for v in VERSIONS.releases]
    assert releases == sorted(set(releases))
    assert VERSIONS.supported, "at least one release must be supported"
    assert [v for v in VERSIONS.releases if v in VERSIONS.supported] == VERSIONS.supported
    assert set(VERSIONS.unpublished) <= set(VERSIONS.releases)
    assert not set(VERSIONS.unpublished) & set(VERSIONS.supported)


def test_pyproject_claims_exactly_the_supported_releases() -> None:
    assert admitted(pyproject_letta()) == VERSIONS.supported


def test_the_readme_states_the_same_requirement() -> None:
    stated = re.findall(r"`letta((?:[<>=!~]=?[\d.]+,?)+)`", (ROOT / "README.md").read_text())
    assert stated, "the README must state the letta requirement as `letta>=X,<Y`"
    for spec in stated:
        assert SpecifierSet(spec) == pyproject_letta(), spec


def test_the_matrix_tells_install_failures_apart() -> None:
    # pip's own words, as it printed them for these releases.
    missing = (
        "ERROR: Could not find a version that satisfies the requirement letta==0.16.3 (from versions: 0.1.1, "
        "0.16.2, 0.16.4)\nERROR: No matching distribution found for letta==0.16.3\n"
    )
    refused = (
        "ERROR: Cannot install letta-tool-emulation==0.1.0 and letta==0.16.0 because these package versions have "
        "conflicting dependencies.\nERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/"
    )
    broken = "ERROR: No matching distribution found for ddtrace==4.2.1\n"
    assert matrix.classify_install_failure("0.16.3", missing) == matrix.NOT_ON_INDEX
    assert matrix.classify_install_failure("0.16.0", refused) == matrix.REFUSED
    assert matrix.classify_install_failure("0.16.4", broken) == matrix.FAILED
    assert matrix.classify_install_failure("0.16.4", missing) == matrix.FAILED  # another version's absence


def test_the_smoke_reports_the_plugins_warnings_only() -> None:
    log = "\n".join(
        [
            "letta_tool_emulation - INFO - letta_tool_emulation: added the venice provider (http://127.0.0.1:1/v1)",
            "Letta.letta.schemas.secret - WARNING - No encryption key configured.",
            "letta_tool_emulation - WARNING - letta_tool_emulation is NOT active: letta.x is not what it expects",
            "letta-tool-emulation: the plugin is not active in this server (see the warning above).",
        ]
    )
    assert smoke.plugin_warnings(log) == log.splitlines()[2:]


def test_the_smoke_quotes_the_servers_errors() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "x.py", line 1, in <module>\n'
        "ImportError: cannot import name 'LLMInsufficientCreditsError' from 'letta.errors'\n"
        "Letta.letta.server.rest_api.app - ERROR - Unhandled error: boom\n"
        "INFO:     127.0.0.1 - POST /v1/agents/ 200\n"
    )
    assert smoke.error_lines(log) == [
        "ImportError: cannot import name 'LLMInsufficientCreditsError' from 'letta.errors'",
        "Letta.letta.server.rest_api.app - ERROR - Unhandled error: boom",
    ]
