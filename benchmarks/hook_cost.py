"""What the plugin's start-up hook costs a Python process that never imports letta.

The .pth file imports a small module that installs an import finder; nothing else runs
until letta itself is imported. Measured three ways, in one run:
  - the hook module's own import time (python -X importtime), median of 15 starts, in this
    development environment (an editable install, where the package is found outside
    site-packages) and from the wheel installed into a fresh virtual environment, as users
    get it;
  - `python -c pass` wall time with the hook, and with it skipped (python -S, which skips
    all site hooks: that difference also includes the rest of site's work);
  - the finder's cost per later import, in a process that imports 200 modules.

Target: < 5 ms for an unrelated `python -c pass`.

    python3 dev.py bench hook_cost
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def import_time_us(python: str = sys.executable) -> float:
    samples = []
    for _ in range(15):
        out = subprocess.run(
            [python, "-X", "importtime", "-c", "pass"], capture_output=True, text=True, check=True
        ).stderr
        for line in out.splitlines():
            if line.rstrip().endswith("letta_tool_emulation._hook"):
                samples.append(int(line.split("|")[1]))  # cumulative microseconds
    return statistics.median(samples)


def wall_ms(*args: str) -> float:
    samples = []
    for _ in range(25):
        started = time.perf_counter()
        subprocess.run([sys.executable, *args, "-c", "pass"], check=True)
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def finder_ns_per_import() -> float:
    code = (
        "import sys, time, importlib\n"
        "names = sorted(n for n in sys.stdlib_module_names if not n.startswith('_'))[:200]\n"
        "f = next(f for f in sys.meta_path if type(f).__name__ == 'LettaToolEmulationFinder')\n"
        "t = time.perf_counter_ns()\n"
        "for _ in range(20):\n"
        "    for n in names: f.find_spec(n)\n"
        "print((time.perf_counter_ns() - t) / (20 * len(names)))\n"
    )
    return float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)


def installed_wheel_import_us() -> float:
    """The hook's import time from the built wheel, in a fresh virtual environment."""
    with tempfile.TemporaryDirectory() as tmp:
        quiet = {"capture_output": True, "check": True}
        subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp, str(ROOT)], **quiet)  # type: ignore[call-overload]
        venv = Path(tmp) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], **quiet)  # type: ignore[call-overload]
        python = str(venv / "bin" / "python")
        wheel = next(Path(tmp).glob("*.whl"))
        subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", str(wheel)], **quiet)  # type: ignore[call-overload]
        subprocess.run([python, "-c", "pass"], **quiet)  # type: ignore[call-overload]  # write the .pyc files first
        return import_time_us(python)


def main() -> None:
    hook = import_time_us()
    installed = installed_wheel_import_us()
    with_site, without_site = wall_ms(), wall_ms("-S")
    print(f"hook module import, installed wheel: {installed / 1000:.2f} ms (median of 15 starts)   (target < 5 ms)")
    print(f"hook module import, this editable development install: {hook / 1000:.2f} ms")
    print(f"python -c pass: {with_site:.1f} ms with site hooks, {without_site:.1f} ms with none (python -S)")
    print(f"finder cost per later import of an unrelated module: {finder_ns_per_import():.0f} ns")


if __name__ == "__main__":
    main()
