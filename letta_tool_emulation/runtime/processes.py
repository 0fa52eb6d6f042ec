"""Stopping the processes the launcher starts (Letta, PostgreSQL, Redis) the same way."""

from __future__ import annotations

import contextlib
import subprocess


def stop_process(proc: subprocess.Popen[bytes], sig: int, timeout: float) -> None:
    """Ask ``proc`` to stop with ``sig``; kill it if it has not stopped within ``timeout``
    seconds, and reap it either way."""
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(sig)
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
