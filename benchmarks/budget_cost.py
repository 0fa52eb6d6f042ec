"""What the retry budget adds to each model request: kept in the shared database (every server
on it shares one budget) against the file (one machine) and no budget at all.

The upstream request is a coroutine that returns at once, so what is timed is the budget alone:
taking a slot before the request (one database call: a round trip to PostgreSQL through the
plugin's own threads) and giving it back after (not waited for). Requests run one after another,
then 8 at a time, on the embedded PostgreSQL over its unix socket.

Printed: p50 / p95 of the added time per request, in ms (target: database budget p50 < 2 ms).

    python3 dev.py bench budget_cost         (REQUESTS=2000 by default)
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from letta_tool_emulation import retry, shared_state  # noqa: E402
from letta_tool_emulation.runtime.database import EmbeddedPostgres  # noqa: E402
from letta_tool_emulation.runtime.stack import scratch_dir  # noqa: E402


async def upstream() -> str:
    return "ok"


async def timed(call: Callable[[], Awaitable[str]], requests: int, concurrency: int) -> list[float]:
    """Milliseconds per request, ``concurrency`` requests at a time."""
    out: list[float] = []

    async def one() -> None:
        started = time.perf_counter()
        await call()
        out.append((time.perf_counter() - started) * 1000)

    for _ in range(requests // concurrency):
        await asyncio.gather(*(one() for _ in range(concurrency)))
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def measure(budget: retry.Budget | None, requests: int, concurrency: int) -> list[float]:
    if budget is None:
        return await timed(upstream, requests, concurrency)
    return await timed(lambda: retry.call(budget, upstream), requests, concurrency)


def main() -> None:
    requests = int(os.environ.get("REQUESTS", "2000"))
    home = scratch_dir("bench-budget-")
    os.environ["LETTA_TOOL_EMULATION_STATE_DIR"] = str(home / "state")
    # Plenty of room: this measures the cost of the bookkeeping, not of waiting for a slot.
    settings = retry.RetrySettings(limit=100_000, window=30.0)
    with EmbeddedPostgres(home / "pgdata", log=lambda _: None) as db:
        file_budget = retry.Budget("bench-file", "upstream", settings, home / "state" / "budget-bench")
        (home / "state").mkdir(mode=0o700, exist_ok=True)
        store = shared_state.Store(db.uri)
        db_budget = retry.DatabaseBudget("bench-db", "upstream", settings, store, file_budget)

        async def run() -> dict[tuple[str, int], list[float]]:
            await measure(db_budget, 200, 1)  # connections opened, tables made, code warm
            await measure(file_budget, 200, 1)
            results = {}
            for concurrency in (1, 8):
                for name, budget in (("none", None), ("file", file_budget), ("database", db_budget)):
                    results[(name, concurrency)] = await measure(budget, requests, concurrency)
            return results

        results = asyncio.run(run())
        store.close()
    print(f"retry budget cost per request, {requests} requests, embedded PostgreSQL over its unix socket")
    for concurrency in (1, 8):
        base = statistics.median(results[("none", concurrency)])
        print(f"  {concurrency} at a time (a request without a budget: {base:.3f} ms at p50)")
        for name in ("file", "database"):
            values = [v - base for v in results[(name, concurrency)]]
            print(f"    {name:8} budget adds p50 {pct(values, 0.5):.2f} ms, p95 {pct(values, 0.95):.2f} ms")
    added = statistics.median(results[("database", 1)]) - statistics.median(results[("none", 1)])
    print(f"database budget, one request at a time: {added:.2f} ms at p50 (target < 2 ms)")


if __name__ == "__main__":
    main()
