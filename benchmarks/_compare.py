"""This checkout's parser against another version's, in alternating rounds of CPU time.

On a machine shared with other work, two runs of one version minutes apart differ by more than
most changes do, and a single run of each cannot resolve a change of 10 or 20 %. Here each
version runs in a worker process of its own (the same benchmark script, importing the package
from its own directory), both build the same inputs once, and then every case is timed once per
round in each (the best of ``COMPARE_REPEAT`` alternating runs, since a busy machine only ever
adds time), the order of the two switching every round, so that whatever else loads the
machine falls on both alike. Printed per case: the median CPU time of each, and the median of
the per-round ratios with its spread (the middle half of the rounds, and the extremes).

A benchmark opts in with ``COMPARE_WITH=DIR``, DIR holding another version's
``letta_tool_emulation`` package, such as ``git archive main letta_tool_emulation | tar -x -C DIR``;
``COMPARE_ROUNDS`` sets the number of rounds (15) and ``COMPARE_REPEAT`` the runs of each
version per round (3).
"""

from __future__ import annotations

import gc
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKER = "--compare-worker"


def wanted() -> tuple[str, int, int] | None:
    """(the other version's directory, rounds, runs per round) when a comparison was asked for."""
    other = os.environ.get("COMPARE_WITH")
    if not other:
        return None
    if not (Path(other) / "letta_tool_emulation" / "__init__.py").is_file():
        raise SystemExit(f"COMPARE_WITH={other} holds no letta_tool_emulation package")
    return other, int(os.environ.get("COMPARE_ROUNDS", "15")), int(os.environ.get("COMPARE_REPEAT", "3"))


def serve(cases: dict[str, Callable[[], object]]) -> None:
    """The worker's side: run the case named on each line of stdin once, answer its CPU seconds."""
    import letta_tool_emulation

    print(letta_tool_emulation.__file__, flush=True)
    for line in sys.stdin:
        fn = cases[line.strip()]
        gc.collect()
        start = time.process_time()
        fn()
        print(time.process_time() - start, flush=True)


class _Worker:
    def __init__(self, script: Path, package_dir: Path, args: list[str]) -> None:
        env = dict(os.environ)
        env.pop("COMPARE_WITH", None)
        # The directory put first on the path decides which package the worker imports, ahead
        # of any installed one (an editable install resolves to a checkout of its own).
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(package_dir), env.get("PYTHONPATH")) if p)
        self.proc = subprocess.Popen(
            [sys.executable, str(script), WORKER, *args],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        self.package = self._read()

    def _read(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the benchmark worker exited (status {self.proc.wait()})")
        return line.strip()

    def run(self, case: str) -> float:
        assert self.proc.stdin is not None
        self.proc.stdin.write(case + "\n")
        self.proc.stdin.flush()
        return float(self._read())

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(60)


def compare(
    script: str,
    cases: list[str],
    other: str,
    rounds: int,
    repeat: int = 1,
    size: Callable[[str], float] | None = None,
    args: list[str] | None = None,
) -> dict[str, tuple[float, float]]:
    """Time ``cases`` of ``script`` (a benchmark that calls :func:`serve` when run with
    ``--compare-worker``) in this checkout and in ``other``; print a table and return each case's
    median seconds (this, other). ``size(case)``: the case's input in MB, to print MB/s."""
    here = _Worker(Path(script), ROOT, args or [])
    there = _Worker(Path(script), Path(other), args or [])
    print(f"this:  {here.package}\nother: {there.package}")
    times: dict[str, tuple[list[float], list[float]]] = {case: ([], []) for case in cases}
    try:
        for n in range(rounds):
            for case in cases:
                pair = (here, there) if n % 2 == 0 else (there, here)
                best = {here: float("inf"), there: float("inf")}
                for _ in range(repeat):
                    for worker in pair:
                        best[worker] = min(best[worker], worker.run(case))
                times[case][0].append(best[here])
                times[case][1].append(best[there])
    finally:
        here.close()
        there.close()
    print(
        f"\n{rounds} alternating rounds (best of {repeat} runs each), CPU time; ratio = this / other per round "
        "(median [middle half] {extremes}; below 1 is faster)"
    )
    width = max(len(c) for c in cases)
    result: dict[str, tuple[float, float]] = {}
    for case in cases:
        mine, theirs = times[case]
        a, b = statistics.median(mine), statistics.median(theirs)
        result[case] = (a, b)
        ratios = sorted(x / y for x, y in zip(mine, theirs, strict=True))
        q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
        if size is not None:
            mb = size(case)
            figures = f"this {mb / a:7.1f} MB/s  other {mb / b:7.1f} MB/s"
        else:
            figures = f"this {a * 1e3:8.2f} ms  other {b * 1e3:8.2f} ms"
        print(
            f"{case:{width}s}  {figures}  ratio {statistics.median(ratios):.2f} "
            f"[{q[0]:.2f}-{q[2]:.2f}] {{{ratios[0]:.2f}-{ratios[-1]:.2f}}}"
        )
    return result
