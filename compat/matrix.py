"""The version matrix: each letta release in its own environment, with the plugin from the
working tree, through the smoke in ``smoke.py``.

    python3 dev.py compat [VERSIONS...]      every release in versions.toml, or the ones named
    python3 dev.py compat --ends             the oldest and the newest supported release, and the release
                                             below the floor (which pip must refuse)

With both ends in the run, ``upgrade.py`` then opens data made under the oldest with the newest,
and checks that the oldest refuses it afterwards.

Each version gets ``.venv-compat/<version>``, installed with ``constraints.txt`` (which pins
everything but letta) and ``letta[server,postgres]==<version>``, and kept for the next run;
the plugin's wheel is built afresh and reinstalled every run. Needs only the standard library
(it is run by the machine's python3); the wheel is built with the project's ``.venv``.
Prints a table, and exits non-zero if a release that versions.toml lists as supported fails.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VERSIONS_FILE = ROOT / "compat" / "versions.toml"
HOME = ROOT / ".venv-compat"
BIN = "Scripts" if os.name == "nt" else "bin"
STAMP = ".compat-stamp"
INSTALL_TIMEOUT = 1800.0
SMOKE_TIMEOUT = 900.0
CHECKS = ("models", "openai-native", "memory", "native", "stream")
COLUMNS = CHECKS[1:]  # "models" is the "active" column

# What an install step can end in, besides success.
NOT_ON_INDEX = "not on the index"
REFUSED = "refused by pip"
FAILED = "install failed"


@dataclass
class Versions:
    releases: list[str]
    unpublished: list[str]
    supported: list[str]

    @property
    def floor(self) -> str:
        return self.supported[0]

    @property
    def newest(self) -> str:
        return self.supported[-1]

    @property
    def below_floor(self) -> str | None:
        """The published release just below the floor, which pip must refuse with the plugin."""
        older = [v for v in self.releases[: self.releases.index(self.floor)] if v not in self.unpublished]
        return older[-1] if older else None


def load_versions(path: Path = VERSIONS_FILE) -> Versions:
    data = tomllib.loads(path.read_text())
    return Versions(list(data["releases"]), list(data.get("unpublished", [])), list(data["supported"]))


@dataclass
class Row:
    version: str
    install: str = ""  # "installed", "reused", or one of the failures above
    install_seconds: float = 0.0
    smoke: dict[str, Any] = field(default_factory=dict)
    note: str = ""

    @property
    def installed(self) -> bool:
        return self.install in ("installed", "reused")

    def check(self, name: str) -> dict[str, Any] | None:
        return next((c for c in self.smoke.get("checks", []) if c["name"] == name), None)

    @property
    def passed(self) -> bool:
        return (
            self.installed
            and bool(self.smoke.get("started"))
            and all((c := self.check(n)) is not None and c["ok"] for n in CHECKS)
        )


# -- installing ----------------------------------------------------------------------------------


def classify_install_failure(version: str, output: str) -> str:
    """Why pip could not install letta==<version>: not published there, refused, or broken."""
    text = output.lower()
    wanted = f"letta=={version}".lower()
    if (f"no matching distribution found for {wanted}" in text) or (
        f"could not find a version that satisfies the requirement {wanted}" in text
    ):
        return NOT_ON_INDEX
    if "resolutionimpossible" in text or "conflicting dependencies" in text:
        return REFUSED
    return FAILED


def fingerprint(version: str) -> str:
    """What an environment was built from: a change to any of it means building it again."""
    h = hashlib.sha256(version.encode())
    for name in ("pyproject.toml", "constraints.txt"):
        h.update((ROOT / name).read_bytes())
    return h.hexdigest()


def call(cmd: list[str | Path], log: Path, timeout: float, cwd: Path | None = None) -> tuple[int, str]:
    with open(log, "a") as out:
        out.write("+ " + " ".join(str(c) for c in cmd) + "\n")
        out.flush()
        try:
            proc = subprocess.run(
                [str(c) for c in cmd],
                cwd=cwd or ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                timeout=timeout,
                env={**os.environ, "PIP_NO_INPUT": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
            )
        except subprocess.TimeoutExpired as exc:
            output = exc.output if isinstance(exc.output, str) else ""
            out.write(output + f"\n(timed out after {timeout:.0f} s)\n")
            return 124, output
        out.write(proc.stdout)
    return proc.returncode, proc.stdout


def build_wheel(builder: Path, dest: Path, log: Path) -> Path:
    code, output = call([builder, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", dest, ROOT], log, 600)
    wheels = sorted(dest.glob("letta_tool_emulation-*.whl"))
    if code or not wheels:
        raise SystemExit(f"could not build the plugin's wheel (see {log}):\n{output[-2000:]}")
    return wheels[-1]


def install(version: str, wheel: Path, log: Path) -> tuple[str, float]:
    """Make .venv-compat/<version> hold letta==<version> and this wheel of the plugin."""
    started = time.monotonic()
    venv = HOME / version
    py = venv / BIN / "python"
    stamp = venv / STAMP
    wanted = fingerprint(version)
    if py.exists() and stamp.exists() and stamp.read_text().strip() == wanted:
        code, output = call([py, "-m", "pip", "install", "--no-deps", "--force-reinstall", "--quiet", wheel], log, 600)
        return ("reused" if code == 0 else FAILED), time.monotonic() - started
    if venv.exists():
        shutil.rmtree(venv)
    steps: list[list[str | Path]] = [
        [sys.executable, "-m", "venv", venv],
        # pip 23.x crashes while resolving letta's dependency tree; any recent pip works.
        [py, "-m", "pip", "install", "--quiet", "--upgrade", "pip>=24.2"],
        [
            py,
            "-m",
            "pip",
            "install",
            "--quiet",
            "-c",
            ROOT / "constraints.txt",
            f"letta[server,postgres]=={version}",
            wheel,
        ],
    ]
    for step in steps:
        code, output = call(step, log, INSTALL_TIMEOUT)
        if code:
            shutil.rmtree(venv, ignore_errors=True)
            return classify_install_failure(version, output), time.monotonic() - started
    stamp.write_text(wanted)
    return "installed", time.monotonic() - started


# -- running -------------------------------------------------------------------------------------


def smoke(version: str, log: Path) -> dict[str, Any]:
    workdir = HOME / "runs" / version
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    py = HOME / version / BIN / "python"
    # Run from the work directory: the plugin must come from the environment, not the working tree.
    code, output = call([py, ROOT / "compat" / "smoke.py", "--workdir", workdir], log, SMOKE_TIMEOUT + 60, cwd=workdir)
    shutil.rmtree(workdir / "pgdata", ignore_errors=True)  # keep the server log, not the database
    for line in reversed(output.strip().splitlines()):
        if line.startswith("{"):
            try:
                return dict(json.loads(line))
            except ValueError:
                break
    return {"error": f"the smoke printed no result (exit code {code}); see {log}"}


def run_version(version: str, wheel: Path) -> Row:
    row = Row(version)
    log = HOME / "logs" / f"{version}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("")
    print(f"letta {version}: installing ...", flush=True)
    row.install, row.install_seconds = install(version, wheel, log)
    if not row.installed:
        print(f"letta {version}: {row.install}", flush=True)
        if row.install == FAILED:
            row.note = f"see {log.relative_to(ROOT)}"
        return row
    print(f"letta {version}: {row.install} in {row.install_seconds:.0f} s; running the smoke ...", flush=True)
    row.smoke = smoke(version, log)
    print(f"letta {version}: {'pass' if row.passed else 'FAIL'} ({row.smoke.get('seconds', 0):.0f} s)", flush=True)
    return row


def upgrade(older: str, newer: str) -> list[dict[str, Any]]:
    """``upgrade.py``'s phases: data made under ``older``, opened by ``newer``, then refused by
    ``older``; in the environments the smoke used."""
    name = f"upgrade-{older}-{newer}"
    workdir = HOME / "runs" / name
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    log = HOME / "logs" / f"{name}.log"
    log.write_text("")
    results: list[dict[str, Any]] = []
    for phase, version in (("create", older), ("verify", newer), ("refuse", older)):
        print(f"upgrade {older} -> {newer}: {phase} (letta {version}) ...", flush=True)
        py = HOME / version / BIN / "python"
        command: list[str | Path] = [py, ROOT / "compat" / "upgrade.py", phase, "--workdir", workdir]
        code, output = call(command, log, SMOKE_TIMEOUT, cwd=workdir)
        result = next(
            (json.loads(line) for line in reversed(output.strip().splitlines()) if line.startswith("{")),
            {"phase": phase, "ok": False, "detail": f"no result (exit code {code}); see {log}"},
        )
        results.append(result)
        if not result["ok"]:
            break
    shutil.rmtree(workdir / "pgdata", ignore_errors=True)  # keep the logs, not the database
    return results


def upgrade_report(older: str, newer: str, results: list[dict[str, Any]]) -> str:
    lines = [f"upgrade {older} -> {newer}:"]
    for r in results:
        lines.append(f"  {r['phase']}: {'pass' if r['ok'] else 'FAIL'} ({r.get('seconds', 0):.0f} s) {r['detail']}")
        lines.extend(f"    server: {line}" for line in r.get("log", []))
    return "\n".join(lines)


# -- reporting -----------------------------------------------------------------------------------


def cell(row: Row, name: str) -> str:
    if not row.installed:
        return "-"
    c = row.check(name)
    if c is None:
        return "not run"
    return "pass" if c["ok"] else "FAIL"


def table(rows: list[Row], versions: Versions) -> str:
    head = ["letta", "claimed", "install", "letta-client", "active", *COLUMNS, "plugin warnings", "seconds"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        s = r.smoke
        active = ("yes" if s.get("active") else "no") if r.installed and s.get("started") else "-"
        seconds = r.install_seconds + float(s.get("seconds", 0.0))
        cells = [
            r.version,
            "yes" if r.version in versions.supported else "no",
            r.install,
            s.get("letta_client", "") or "-",
            active,
            *(cell(r, n) for n in COLUMNS),
            str(len(s.get("plugin_log", []))) if r.installed else "-",
            f"{seconds:.0f}" if r.install in ("installed", "reused", FAILED) else "-",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def details(rows: list[Row]) -> str:
    out: list[str] = []
    for r in rows:
        s = r.smoke
        notes: list[str] = []
        if r.note:
            notes.append(r.note)
        if s.get("error"):
            notes.append(f"error: {s['error'].strip()}")
        for c in s.get("checks", []):
            if not c["ok"]:
                notes.append(f"{c['name']}: {c['detail']}")
                notes.extend(f"    server: {line}" for line in c.get("server_errors", []))
        notes.extend(f"plugin: {line}" for line in s.get("plugin_log", []))
        if s and s.get("stop_code") not in (0, None):
            notes.append(f"the server command exited with code {s['stop_code']} on SIGTERM")
        if notes:
            out.append(f"letta {r.version}:")
            out.extend(f"  {n}" for n in notes)
    return "\n".join(out)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="dev.py compat", description="the letta version matrix")
    parser.add_argument("versions", nargs="*", help="letta versions (default: every release in versions.toml)")
    parser.add_argument(
        "--ends", action="store_true", help="the oldest and the newest supported release, and the one below the floor"
    )
    parser.add_argument("--builder", default=str(ROOT / ".venv" / BIN / "python"), help="Python that builds the wheel")
    args = parser.parse_args(argv)
    versions = load_versions()
    ends = [v for v in (versions.below_floor, versions.floor, versions.newest) if v]
    wanted = args.versions or (ends if args.ends else versions.releases)
    started = time.monotonic()
    (HOME / "logs").mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="compat-wheel-") as tmp:
        wheel = build_wheel(Path(args.builder), Path(tmp), HOME / "logs" / "wheel.log")
        rows = [run_version(v, wheel) for v in wanted]
    print()
    print(table(rows, versions))
    notes = details(rows)
    if notes:
        print("\n" + notes)
    failed = [r.version for r in rows if r.version in versions.supported and not r.passed]
    # Data made under the oldest supported letta must survive the newest, and not the reverse.
    upgrade_failed = False
    if {r.version for r in rows if r.passed} >= {versions.floor, versions.newest}:
        results = upgrade(versions.floor, versions.newest)
        print("\n" + upgrade_report(versions.floor, versions.newest, results))
        upgrade_failed = len(results) < 3 or not all(r["ok"] for r in results)
    # Below the floor, pip must refuse the plugin (else the claimed range would be untrue).
    failed += [r.version for r in rows if r.version == versions.below_floor and r.install != REFUSED]
    took = time.monotonic() - started
    (HOME / "last-run.json").write_text(
        json.dumps([{**r.__dict__, "passed": r.passed} for r in rows], indent=1, default=str)
    )
    print(f"\n{len(rows)} version(s) in {took:.0f} s; logs in {(HOME / 'logs').relative_to(ROOT)}/")
    if failed:
        print(
            f"FAILED: {', '.join(failed)}: a supported release that did not pass, or one below the floor that pip accepted.",
            flush=True,
        )
    if upgrade_failed:
        print(f"FAILED: the upgrade from letta {versions.floor} to {versions.newest} (see above).", flush=True)
    passed = sum(r.passed for r in rows)
    # Releases not claimed that did not pass (not on the index, refused, or failing) are "skipped".
    print(f"compat: {passed} passed, {len(failed)} failed, {len(rows) - passed - len(failed)} skipped")
    return 1 if failed or upgrade_failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
