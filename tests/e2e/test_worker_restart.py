"""A uvicorn worker that dies while Letta starts: the server command starts Letta again rather
than waiting out its start-up timeout with a worker short (uvicorn 0.29, which letta pins,
never replaces a dead worker)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from .conftest import Server

# Run at interpreter start in every process that has this directory on its path: the first
# uvicorn worker to start (a multiprocessing child) exits at once, as a crashing one would.
SITECUSTOMIZE = """
import os, sys
if "--multiprocessing-fork" in sys.argv:
    try:
        fd = os.open({marker!r}, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        pass
    else:
        os.close(fd)
        os._exit(3)
"""


def test_a_worker_that_dies_while_starting_is_started_again(tmp_path: Path, standin: Any) -> None:
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    marker = tmp_path / "one-worker-died"
    (hooks / "sitecustomize.py").write_text(SITECUSTOMIZE.format(marker=str(marker)))
    (tmp_path / "server").mkdir()
    server = Server(
        tmp_path / "server", standin.url, LETTA_UVICORN_WORKERS="2", LETTA_TOOL_EMULATION_READY_TIMEOUT="900",
        PYTHONPATH=str(hooks),
    ).start()  # fmt: skip
    try:
        assert marker.exists()  # a worker did die
        log = server.log()
        assert "exited while starting" in log and "starting Letta again" in log
        assert "is ready at" in log
        assert httpx.get(f"{server.url}/v1/health/", timeout=30).json()["status"] == "ok"
    finally:
        server.stop()
