"""The load benchmark's short version: several agents at once on two server workers, the
stand-in in sloppy mode, every edit checked (``python3 dev.py bench load`` is the full one)."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import Any

from letta_tool_emulation import shared_state
from letta_tool_emulation.runtime.standin import EMULATED_MODEL

from .conftest import Server, wait_gone

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchmarks.load import plugin_connections, postgres_connections, run_load, server_rss_mb


def emulating_workers(server: Server) -> set[str]:
    return set(re.findall(r"emulating tool calls for venice/venice-uncensored .*\[pid (\d+)\]", server.log()))


def test_agents_at_once_on_two_workers_lose_nothing(tmp_path: Path, standin: Any) -> None:
    server = Server(tmp_path, standin.url, LETTA_UVICORN_WORKERS="2", LETTA_TOOL_EMULATION_READY_TIMEOUT="900").start()
    try:
        standin.reset(sloppy=True, seed=11)
        standin.state.latency = 0.3  # requests overlap, so both workers take some
        model = f"venice/{EMULATED_MODEL}"
        warm = run_load(server, standin, model, agents=2, turns=5, run=0, label="warm-up")
        rss = server_rss_mb(server)
        report = run_load(server, standin, model, agents=6, turns=5, run=1, label="load")
        for r in (warm, report):
            assert r.errors == [], r.errors
            assert (r.lost, r.duplicated, r.misplaced) == (0, 0, 0), r.line()
            assert r.checked >= 8
        assert server_rss_mb(server) < rss * 1.5  # bounded growth; the full soak prints the figure
        deadline = time.monotonic() + 30
        while postgres_connections(server) > 0 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert postgres_connections(server) == 0, "connections left open after the load"
        # The plugin's own, for the shared state: per worker one listening, a few kept for the budget.
        assert 0 < plugin_connections(server) <= 2 * (shared_state.POOL_IDLE + 1)
        # Which worker accepts a connection is the kernel's choice, and the one that took the
        # last tends to take the next, so one worker can take every agent's connection. Keep
        # the load on, a new connection per request, until both have served emulated turns.
        for round_ in range(2, 8):
            if len(emulating_workers(server)) == 2:
                break
            extra = run_load(server, standin, model, agents=6, turns=1, run=round_, label="more", keep_alive=False)
            assert extra.errors == [] and (extra.lost, extra.duplicated, extra.misplaced) == (0, 0, 0)
        assert len(emulating_workers(server)) == 2, server.tail()
    finally:
        standin.state.latency = 0.0
        standin.reset(sloppy=False, seed=0)
        assert server.stop() == 0
    assert wait_gone(str(server.data_dir)) == []
