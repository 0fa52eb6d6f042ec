"""Load and soak: many agents at once on the real server command with two uvicorn workers,
the stand-in model in sloppy mode with a realistic delay, emulated against native.

Each agent runs its turns in order (Letta serialises nothing per agent, and two messages at
once to one agent race in Letta itself), all agents at once. Turns cycle through a memory
edit, two edits in one reply, an archival insert, an archival search (streamed) and a
streamed memory edit. Afterwards every memory block and every archive is checked against
the edits that agent's turns asked for: lost, duplicated, or another agent's.

Both models' agents run it twice: with parallel tool calls on (the agents' own setting, so
Letta runs several calls of one reply in one step: both models then perform both edits of a
"remember two" turn), and with Letta's default (off: the native model's second call is cut,
the plugin hands it out in a step of its own).

Printed, for each: throughput and p50/p95 turn latency for each model, and their ratios
(target p95 ratio <= 1.3); lost, duplicated and misplaced edits (target 0); server errors; the
server's RSS after warm-up and after the soak; PostgreSQL connections after the soak and after
idling.

    python3 dev.py bench load          (AGENTS=20 TURNS=10 LATENCY=0.3 by default;
                                        PARALLEL=on or off runs only that one)
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from letta_tool_emulation.runtime.stack import ServerProcess, scratch_dir  # noqa: E402
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, NATIVE_MODEL, StandIn  # noqa: E402

ARCHIVAL = ["archival_memory_insert", "archival_memory_search"]
KINDS = ("remember", "remember two", "archive", "search (streamed)", "remember (streamed)")
TOKEN = re.compile(r"\bq(\d+)a(\d+)t(\d+)[a-z]\b")


@dataclass
class Report:
    label: str
    latencies: list[float] = field(default_factory=list)
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    lost: int = 0
    duplicated: int = 0
    misplaced: int = 0
    checked: int = 0
    seconds: float = 0.0

    def p(self, q: float) -> float:
        values = sorted(self.latencies)
        return values[min(len(values) - 1, round(q * (len(values) - 1)))] * 1000 if values else 0.0

    @property
    def throughput(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def line(self) -> str:
        return (
            f"{self.label}: {len(self.latencies)} turns in {self.seconds:.1f} s ({self.throughput:.2f} turns/s), "
            f"p50 {self.p(0.5):.0f} ms, p95 {self.p(0.95):.0f} ms; edits checked {self.checked}: "
            f"lost {self.lost}, duplicated {self.duplicated}, misplaced {self.misplaced}; errors {len(self.errors)}"
        )


def fact(run: int, agent: int, turn: int, part: str = "x") -> str:
    return f"q{run}a{agent}t{turn}{part}"


def _say(client: Any, agent: Any, text: str, streamed: bool) -> list[Any]:
    messages = [{"role": "user", "content": text}]
    if streamed:
        return list(
            client.agents.messages.create(agent_id=agent.id, messages=messages, streaming=True, stream_tokens=True)
        )
    return list(client.agents.messages.create(agent_id=agent.id, messages=messages).messages)


def _agent_turns(client: Any, agent: Any, run: int, index: int, turns: int, report: Report, lock: Any) -> None:
    for t in range(turns):
        kind = t % 5
        if kind == 0:
            text, streamed = f"Remember that {fact(run, index, t)}", False
        elif kind == 1:
            text = f"Remember that {fact(run, index, t)} and also remember that {fact(run, index, t, 'y')}"
            streamed = False
        elif kind == 2:
            text, streamed = f"Archive that {fact(run, index, t)}", False
        elif kind == 3:
            text, streamed = f"Search the archive for {fact(run, index, t - 1)}", True
        else:
            text, streamed = f"Remember that {fact(run, index, t)}", True
        started = time.perf_counter()
        try:
            events = _say(client, agent, text, streamed)
        except Exception as exc:  # noqa: BLE001 - counted and reported
            with lock:
                report.errors.append(f"agent {index} turn {t}: {type(exc).__name__}: {str(exc)[:200]}")
            continue
        elapsed = time.perf_counter() - started
        with lock:
            report.latencies.append(elapsed)
            report.by_kind.setdefault(KINDS[kind], []).append(elapsed)
        if kind == 3:  # the search must find this agent's note and nobody else's
            returns = " ".join(
                str(getattr(e, "tool_return", ""))
                for e in events
                if getattr(e, "message_type", "") == "tool_return_message"
            )
            found = {m.group(0) for m in TOKEN.finditer(returns)}
            with lock:
                report.checked += 1
                if fact(run, index, t - 1) not in found:
                    report.lost += 1
                report.misplaced += len({f for f in found if not f.startswith(f"q{run}a{index}t")})


def _check(client: Any, agent: Any, run: int, index: int, turns: int, report: Report) -> None:
    memory = client.agents.blocks.retrieve("human", agent_id=agent.id).value
    notes = " ".join(p.text for p in client.agents.passages.list(agent_id=agent.id))
    wanted_memory = [fact(run, index, t) for t in range(turns) if t % 5 in (0, 1, 4)]
    wanted_memory += [fact(run, index, t, "y") for t in range(turns) if t % 5 == 1]
    wanted_notes = [fact(run, index, t) for t in range(turns) if t % 5 == 2]
    for where, text, wanted in (("memory", memory, wanted_memory), ("archive", notes, wanted_notes)):
        found = [m.group(0) for m in TOKEN.finditer(text)]
        for f in wanted:
            report.checked += 1
            n = found.count(f)
            report.lost += n == 0
            report.duplicated += max(0, n - 1)
        report.misplaced += sum(1 for f in found if not f.startswith(f"q{run}a{index}t"))
        del where


def _connections(keep_alive: bool) -> dict[str, Any]:
    if keep_alive:
        return {}
    return {"http_client": httpx.Client(timeout=300, limits=httpx.Limits(max_keepalive_connections=0))}


def run_load(
    server: ServerProcess,
    standin: StandIn,
    model: str,
    *,
    agents: int,
    turns: int,
    run: int,
    label: str,
    keep_alive: bool = True,
    parallel: bool = False,
) -> Report:
    """``agents`` agents, each running ``turns`` turns in order, all at once. Without
    ``keep_alive`` every request opens its own connection, so the workers' share of the
    requests is decided per request instead of once per agent. ``parallel``: the agents allow
    parallel tool calls."""
    client = server.client(timeout=300)
    blocks = [{"label": "human", "value": "Name: Ana"}, {"label": "persona", "value": "I am Sam."}]
    created = [
        client.agents.create(model=model, memory_blocks=blocks, tools=ARCHIVAL, parallel_tool_calls=parallel)
        for _ in range(agents)
    ]
    report = Report(label)
    lock = threading.Lock()
    started = time.perf_counter()
    # One client (so one connection) per agent, connecting a moment apart, as separate users
    # would: a worker accepts every connection already waiting when it wakes, so connections
    # opened all at once tend to land on one worker.
    clients = [server.client(timeout=300, **_connections(keep_alive)) for _ in created]
    threads = [
        threading.Thread(target=_agent_turns, args=(c, a, run, i, turns, report, lock))
        for i, (c, a) in enumerate(zip(clients, created, strict=True))
    ]
    for t in threads:
        t.start()
        time.sleep(0.05)
    _wait_showing_progress(threads, report, lock, agents * turns, started)
    report.seconds = time.perf_counter() - started
    for c in clients:
        c.close()
    for i, a in enumerate(created):
        _check(client, a, run, i, turns, report)
    client.close()
    return report


def _wait_showing_progress(
    threads: list[threading.Thread], report: Report, lock: Any, total: int, started: float, every: float = 30.0
) -> None:
    """Join the agents' threads, printing to stderr how many turns are done every ``every``
    seconds: a run takes many minutes on a busy machine."""
    deadline = time.monotonic() + 1800
    for t in threads:
        while t.is_alive() and time.monotonic() < deadline:
            t.join(min(every, max(0.0, deadline - time.monotonic())))
            if t.is_alive():
                with lock:
                    done, failed = len(report.latencies), len(report.errors)
                elapsed = time.perf_counter() - started
                print(
                    f"  [{elapsed:5.0f} s] {report.label}: {done + failed} of {total} turns done"
                    f"{f' ({failed} failed)' if failed else ''}",
                    file=sys.stderr,
                    flush=True,
                )


# -- the server's processes --------------------------------------------------------------------------


def _processes() -> list[tuple[int, int, str]]:
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        out.append((int(entry.name), int(fields[3]), cmdline))  # pid, session id, command line
    return out


def server_rss_mb(server: ServerProcess) -> float:
    """Resident memory of the launcher and Letta's processes (not PostgreSQL's)."""
    assert server.proc is not None
    total = 0
    for pid, sid, cmdline in _processes():
        if sid == server.proc.pid and "python" in cmdline:
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            total += int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS")))
    return total / 1024


PLUGIN = "letta-tool-emulation"  # the application_name of the plugin's own connections (shared state)


def _pg_connections(server: ServerProcess) -> dict[str, int]:
    """Client connections to the server's embedded PostgreSQL, Letta's and the plugin's, as the
    database counts them (the socket is the one the launcher printed)."""
    import psycopg2

    found = re.findall(r"socket in (/\S+)\)", server.log())
    if not found:
        return {"letta": -1, "plugin": -1}
    with psycopg2.connect(host=found[-1], user="postgres", dbname="letta") as conn, conn.cursor() as cur:
        cur.execute(
            "SELECT application_name = %s, count(*) FROM pg_stat_activity "
            "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() GROUP BY 1",
            (PLUGIN,),
        )
        counts = dict(cur.fetchall())
    conn.close()
    return {"letta": counts.get(False, 0), "plugin": counts.get(True, 0)}


def postgres_connections(server: ServerProcess) -> int:
    """Letta's connections: it opens one per use, so none should stay open when idle."""
    return _pg_connections(server)["letta"]


def plugin_connections(server: ServerProcess) -> int:
    """The plugin's: per worker one that listens, and a few kept for the retry budget."""
    return _pg_connections(server)["plugin"]


def main() -> None:
    agents = int(os.environ.get("AGENTS", "20"))
    turns = int(os.environ.get("TURNS", "10"))
    latency = float(os.environ.get("LATENCY", "0.3"))
    standin = StandIn(sloppy=True, seed=7, latency=latency).start()
    server = ServerProcess(
        scratch_dir("bench-load-"),
        VENICE_API_KEY="stand-in",
        VENICE_BASE_URL=standin.url,
        LETTA_UVICORN_WORKERS="2",
        # Two workers start at once, each as slow as one alone on a busy 2-core machine.
        LETTA_TOOL_EMULATION_READY_TIMEOUT="900",
    )
    server.start()
    try:
        warm = run_load(server, standin, f"venice/{EMULATED_MODEL}", agents=4, turns=5, run=0, label="warm-up")
        rss_warm, conns_warm = server_rss_mb(server), postgres_connections(server)
        peak = {"connections": 0}
        sampling = threading.Event()

        def sample() -> None:
            while not sampling.wait(0.5):
                peak["connections"] = max(peak["connections"], postgres_connections(server))

        threading.Thread(target=sample, daemon=True).start()
        wanted = os.environ.get("PARALLEL", "both")
        modes = [m for m in (True, False) if wanted == "both" or (wanted == "on") == m]
        results = []
        for n, parallel in enumerate(modes):
            emulated = run_load(server, standin, f"venice/{EMULATED_MODEL}", agents=agents, turns=turns,
                                run=1 + 2 * n, label="emulated", parallel=parallel)  # fmt: skip
            native = run_load(server, standin, f"venice/{NATIVE_MODEL}", agents=agents, turns=turns,
                              run=2 + 2 * n, label="native", parallel=parallel)  # fmt: skip
            results.append((parallel, emulated, native))
        sampling.set()
        rss_after, conns_after = server_rss_mb(server), postgres_connections(server)
        time.sleep(10)
        conns_idle = postgres_connections(server)
        print(f"{agents} agents x {turns} turns at once, 2 workers, stand-in sloppy with {latency:.1f} s per request")
        print("  " + warm.line())
        for parallel, emulated, native in results:
            print(
                "agents with parallel tool calls on (several calls of one reply in one Letta step):"
                if parallel
                else "agents with Letta's default, parallel tool calls off (one call per step):"
            )
            for r in (emulated, native):
                print("  " + r.line())
            print(
                f"  ratios emulated/native: p50 {emulated.p(0.5) / native.p(0.5):.2f}, "
                f"p95 {emulated.p(0.95) / native.p(0.95):.2f} (target <= 1.3), "
                f"throughput {emulated.throughput / native.throughput:.2f}"
            )
            for kind in KINDS:
                e, n = emulated.by_kind.get(kind, []), native.by_kind.get(kind, [])
                if e and n:
                    print(f"    {kind}: median emulated {statistics.median(e) * 1000:.0f} ms, "
                          f"native {statistics.median(n) * 1000:.0f} ms")  # fmt: skip
        print(f"server RSS: {rss_warm:.0f} MB after warm-up, {rss_after:.0f} MB after the soak "
              f"({100 * (rss_after / rss_warm - 1):+.0f} %)")  # fmt: skip
        print(
            f"PostgreSQL connections: {conns_warm} after warm-up, at most {peak['connections']} during the soak, "
            f"{conns_after} after it, {conns_idle} after 10 s idle; the plugin's own: {plugin_connections(server)} "
            "(shared state: one listening and a few pooled per worker)"
        )
        for r in [warm, *(r for _, e, n in results for r in (e, n))]:
            for e in r.errors[:5]:
                print("  error:", e)
    finally:
        server.stop()
        standin.stop()


if __name__ == "__main__":
    main()
