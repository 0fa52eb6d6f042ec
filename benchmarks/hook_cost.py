"""What the plugin's start-up hook costs a Python process that never imports letta.

The .pth file imports a small module that installs an import finder; nothing else runs
until letta itself is imported. Measured three ways, in one run:
  - the hook module's own import time (python -X importtime), median of 15 starts;
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
import time


def import_time_us() -> float:
    samples = []
    for _ in range(15):
        out = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "pass"], capture_output=True, text=True, check=True
        ).stderr
        for line in out.splitlines():
            if line.rstrip().endswith("_letta_tool_emulation_hook"):
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


def main() -> None:
    hook = import_time_us()
    with_site, without_site = wall_ms(), wall_ms("-S")
    print(f"hook module import: {hook / 1000:.2f} ms (median of 15 starts)   (target < 5 ms)")
    print(f"python -c pass: {with_site:.1f} ms with site hooks, {without_site:.1f} ms with none (python -S)")
    print(f"finder cost per later import of an unrelated module: {finder_ns_per_import():.0f} ns")


if __name__ == "__main__":
    main()
