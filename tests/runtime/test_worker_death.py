"""A uvicorn worker that dies while Letta starts is seen at once (uvicorn 0.29 does not replace
it), so the launcher can start Letta again instead of waiting out its start-up timeout."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

from letta_tool_emulation.runtime.server import _dead_children

# A parent that starts two children, one of which exits at once, and reaps neither.
PARENT = """
import subprocess, sys, time
quick = subprocess.Popen([sys.executable, "-c", "pass"])
slow = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
print(quick.pid, slow.pid, flush=True)
time.sleep(60)
"""


def test_a_child_that_exited_is_found_and_a_running_one_is_not() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        quick, slow = map(int, parent.stdout.readline().split())
        deadline = time.monotonic() + 60
        while quick not in _dead_children(parent.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _dead_children(parent.pid) == [quick]
        assert slow not in _dead_children(parent.pid)
    finally:
        parent.kill()
        parent.wait()
        with contextlib.suppress(NameError, ProcessLookupError):
            os.kill(slow, signal.SIGKILL)


def test_no_process_means_no_dead_children() -> None:
    assert _dead_children(2**22 + 12345) == []
