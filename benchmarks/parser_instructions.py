"""Parser work counted in machine instructions: a figure that does not move with the machine's load.

``parser_speed`` times the parser in CPU seconds, which a shared machine bends by tens of per
cent from one hour to the next, and more from one day to the next. This benchmark counts the
instructions the CPU executes for one parse, with valgrind's callgrind: the same code on the
same input gives the same count (to a few parts in ten thousand, with ``PYTHONHASHSEED`` fixed)
whatever else the machine is doing. A ratio of two counts is what "as fast as before, or faster"
asks, measured exactly; an instruction count is no time, though (memory stalls and branch
misses are not in it), so ``parser_speed`` stays the measure of speed itself.

Each count is one worker process run under callgrind with instrumentation off while Python
starts, imports the package and builds the input (the slow part, some 20 seconds); the worker
parses once uncounted (patterns compiled, caches warm, as in ``parser_speed``'s best of several
runs), then the controller turns counting on, the worker parses once more, and the count of
that parse alone is read from callgrind's dump.
The inputs are ``parser_speed``'s two 1 MB replies of 200 calls, one-shot and in 16-character
chunks.

    python3 dev.py bench parser_instructions
    COMPARE_WITH=DIR python3 dev.py bench parser_instructions
                    (this checkout against the ``letta_tool_emulation`` in DIR: both counts
                    and their ratio, per case)

Needs ``valgrind`` (Debian's package of that name); without it, says so and measures nothing.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKER = "--instructions-worker"
CASES = ("synthetic, one-shot", "everyday, one-shot", "synthetic, 16 chars", "everyday, 16 chars")
_TOTALS = re.compile(r"^(?:summary|totals):\s*(\d+)", re.MULTILINE)


def _wait_for(line: str) -> None:
    """Poll stdin for ``line``: a process blocked in a read would not see callgrind's commands."""
    while True:
        ready, _, _ = select.select([sys.stdin], [], [], 0.05)
        if ready and sys.stdin.readline().strip() == line:
            return


def worker(case: str) -> None:
    """Build the input, then parse it once between the controller's two commands."""
    from parser_speed import cases

    runs, _ = cases()
    run = runs[case]
    run()  # once before, as parser_speed's best of several runs: patterns compiled, caches warm
    print("ready", os.getpid(), flush=True)
    _wait_for("go")
    run()
    print("done", flush=True)
    _wait_for("exit")


def count(package_dir: str, case: str) -> int:
    """Instructions of one parse of ``case`` by the package in ``package_dir``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = dict(os.environ, PYTHONHASHSEED="0")
        env.pop("COMPARE_WITH", None)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_dir, env.get("PYTHONPATH")) if p)
        proc = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
             sys.executable, __file__, WORKER, case],
            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
        )  # fmt: skip
        assert proc.stdin is not None and proc.stdout is not None

        def control(*args: str) -> None:
            subprocess.run(["callgrind_control", *args, str(proc.pid)], check=True, capture_output=True)

        def say(line: str) -> None:
            assert proc.stdin is not None
            proc.stdin.write(line + "\n")
            proc.stdin.flush()

        try:
            if not proc.stdout.readline().startswith("ready"):
                raise SystemExit(f"the worker for {case!r} did not start (status {proc.wait()})")
            control("--instr=on")
            control("--zero")
            say("go")
            if proc.stdout.readline().strip() != "done":
                raise SystemExit(f"the worker for {case!r} failed (status {proc.wait()})")
            control("--dump")
            control("--instr=off")
            say("exit")
            proc.wait(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
        dumps = sorted(Path(tmp).glob("callgrind.out.*"))
        found = _TOTALS.search(dumps[0].read_text()) if dumps else None
        if found is None:
            raise SystemExit(f"callgrind wrote no count for {case!r}")
        return int(found.group(1))


def main() -> None:
    if WORKER in sys.argv:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        worker(sys.argv[sys.argv.index(WORKER) + 1])
        return
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        print("parser_instructions: valgrind is not installed (Debian: apt install valgrind); nothing measured")
        return
    other = os.environ.get("COMPARE_WITH")
    if other and not (Path(other) / "letta_tool_emulation" / "__init__.py").is_file():
        raise SystemExit(f"COMPARE_WITH={other} holds no letta_tool_emulation package")
    print("millions of instructions per parse of a 1 MB reply of 200 calls (callgrind, PYTHONHASHSEED=0)")
    print(f"{'case':22} {'this':>9}" + (f" {'other':>9} {'this/other':>11}" if other else ""))
    for case in CASES:
        start = time.monotonic()
        mine = count(str(ROOT), case)
        row = f"{case:22} {mine / 1e6:9.1f}"
        if other:
            theirs = count(other, case)
            row += f" {theirs / 1e6:9.1f} {mine / theirs:11.2f}"
        print(row + f"   ({time.monotonic() - start:.0f} s)", flush=True)
    if other:
        print(f"other: {other}")


if __name__ == "__main__":
    main()
