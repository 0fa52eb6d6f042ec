"""What the proxy costs, on the stand-in model, in one run:

- its own work per request: the on-CPU time of the proxy process per request (reading the
  client's request, deciding, the upstream request, writing the answer; user mode and kernel, as
  the scheduler accounts it in ``/proc/PID/task/*/schedstat``), for emulated requests (whole and
  streamed) and for the pass-through, less the turn engine's prompt and parsing, which are timed
  alone in this process (the engine is the plugin's too, and costs the same in every driver): once
  after each of the proxy's requests, so that it runs, as in the proxy, with the caches that a
  request's other work left, not warm from a loop of engine runs (which takes about 0.6 of the
  time the engine takes in the proxy, and would put the rest into the proxy's own work);
- time to first token through the proxy (an emulated request with tools, answered in text) against
  the same model asked directly (the same prompt without tools, which is all it can take), with
  the stand-in taking STANDIN_LATENCY seconds before its first token as a model does;
- 100 concurrent streamed requests through the proxy, each answered with a tool call: completed,
  errors, p50 and p95 of the time to the end of the stream.

Targets: own work < 2 ms per request, first-token ratio <= 1.1, 100/100 completed.

    python3 dev.py bench proxy_cost      (ROUNDS=40, ROUND_REQUESTS=10, STANDIN_LATENCY=0.3, CONCURRENT=100)

The own work is measured in ROUNDS short rounds of ROUND_REQUESTS sequential requests per case,
the cases taking turns, and reported as the median over the rounds with the quartiles and
extremes beside it. On a machine shared with other work, the CPU time a process needs for the
same work moves with the load (caches, the other hardware thread of a core): one long run per
case puts all of a load's change into one case's figure, where many short alternating rounds
spread it over all of them, and the median leaves out the rounds a burst of load fell into.

COMPARE_WITH=DIR (a directory holding another version's ``letta_tool_emulation`` package, such as
``git archive main letta_tool_emulation | tar -x -C DIR``) runs that version's proxy beside this one
and alternates the two within every round, case by case: it prints both versions' CPU per request
and the median of the rounds' ratios, which is what to read a change by.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from letta_tool_emulation import engine
from letta_tool_emulation.proxy.transport import deltas
from letta_tool_emulation.runtime.stack import COMMAND, free_port
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, StandIn
from letta_tool_emulation.selection import Decision
from letta_tool_emulation.transport import Delta

ROUNDS = max(2, int(os.environ.get("ROUNDS", "40")))  # quartiles need two rounds at least
ROUND_REQUESTS = int(os.environ.get("ROUND_REQUESTS", "10"))
LATENCY = float(os.environ.get("STANDIN_LATENCY", "0.3"))
CONCURRENT = int(os.environ.get("CONCURRENT", "100"))
TTFT_ROUNDS = int(os.environ.get("TTFT_ROUNDS", "30"))
COMPARE_WITH = os.environ.get("COMPARE_WITH")

TOOLS = [{"type": "function", "function": {
    "name": "memory_insert", "description": "Insert text into a memory block.",
    "parameters": {"type": "object", "properties": {"label": {"type": "string"}, "new_string": {"type": "string"}},
                   "required": ["label", "new_string"]}}}]  # fmt: skip
CALL = [{"role": "user", "content": "Remember that I like pears"}]
TEXT = [{"role": "user", "content": "Tell me something about pears, please."}]
DECISION = Decision(True, "benchmark", venice_dialect=True)  # as the proxy decides for the stand-in's model


def cpu_ns(pid: int) -> int:
    """Nanoseconds the process's threads have run on a CPU so far, in user mode and in the kernel
    (the scheduler's own account, in ``/proc/PID/task/*/schedstat``: exact, where the clock ticks
    of ``/proc/PID/stat`` are a 10 ms sample)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread that ended since the listing
            total += int((task / "schedstat").read_text().split()[0])
    return total


def cpu_ticks(pid: int) -> tuple[int, int]:
    """(user, kernel) clock ticks of the process so far: only their proportion is used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]), int(fields[12])


def start_proxy(upstream: str, package_dir: str | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """The proxy command in its own process; ``package_dir``: run the package found there instead."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VENICE_", "LETTA_", "OPENAI_"))}
    env.update(VENICE_API_KEY="stand-in", VENICE_BASE_URL=upstream)
    if package_dir:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_dir, env.get("PYTHONPATH")) if p)
    proc = subprocess.Popen([COMMAND, "proxy", "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=2):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the proxy did not start") from None
            time.sleep(0.2)
    return proc, url + "/v1"


def body(messages: list[dict[str, Any]], *, tools: bool, stream: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"model": EMULATED_MODEL, "messages": messages, "stream": stream}
    if tools:
        out["tools"] = TOOLS
    return out


def streamed(client: httpx.Client, url: str, payload: dict[str, Any]) -> tuple[float, float, str]:
    """(seconds to the first content or call, seconds to the end, what it was)."""
    started = time.perf_counter()
    first = 0.0
    kind = ""
    with client.stream("POST", f"{url}/chat/completions", json=payload) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if not line.startswith("data: {") or first:
                continue
            delta = (json.loads(line[6:])["choices"] or [{}])[0].get("delta", {})
            if delta.get("content") or delta.get("tool_calls"):
                first, kind = time.perf_counter() - started, "call" if delta.get("tool_calls") else "text"
    return first, time.perf_counter() - started, kind


CASES = {
    "emulated, whole": (body(CALL, tools=True, stream=False), False),
    "emulated, streamed": (body(CALL, tools=True, stream=True), True),
    "pass-through, streamed": (body(TEXT, tools=False, stream=True), True),
}


@dataclass
class Target:
    """A proxy being measured: its label, URL and process."""

    label: str
    url: str
    pid: int


@dataclass
class Rounds:
    """Per-request figures in milliseconds, one value per round: the proxy's CPU by (target, case),
    the turn engine's alone by case (once after each request, and in a loop of its own runs for
    comparison), and the proxy's user and kernel clock ticks over all rounds."""

    cpu: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    engine: dict[str, list[float]] = field(default_factory=dict)
    engine_looped: dict[str, list[float]] = field(default_factory=dict)
    ticks: dict[str, list[int]] = field(default_factory=dict)
    load: list[float] = field(default_factory=list)  # the 1-minute load average as the rounds began and ended


def rounds(client: httpx.Client, upstream: str, targets: list[Target]) -> Rounds:
    """ROUNDS short rounds; in each, every case on every target for ROUND_REQUESTS requests, the
    cases and targets in an order that turns each round (so that neither a case nor a version is
    always the one running after the other, or always first when the machine's load changes), and
    the turn engine alone once after each emulated request of the round's first target (while the
    proxy waits: its CPU time is not touched), then for as many runs in a loop."""
    out = Rounds()
    for target in targets:
        for payload, is_stream in CASES.values():
            for _ in range(10):  # warm up: connections, caches
                _one(client, target.url, payload, is_stream)
    replies = {is_stream: recorded_reply(client, upstream, is_stream) for is_stream in (False, True)}
    for is_stream, reply in replies.items():
        engine_share(reply, is_stream, 10)
    before = {target.label: cpu_ticks(target.pid) for target in targets}
    out.load.append(os.getloadavg()[0])
    names = list(CASES)
    for n in range(ROUNDS):
        for name in names[n % len(names) :] + names[: n % len(names)]:
            payload, is_stream = CASES[name]
            emulated = name.startswith("emulated")
            order = targets if n % 2 == 0 else targets[::-1]
            engine_ms = 0.0
            for target in order:
                timed = emulated and target is order[0]
                started = cpu_ns(target.pid)
                for _ in range(ROUND_REQUESTS):
                    _one(client, target.url, payload, is_stream)
                    if timed:  # the proxy is idle now: its account does not move
                        engine_ms += engine_share(replies[is_stream], is_stream, 1)
                spent = cpu_ns(target.pid) - started
                out.cpu.setdefault((target.label, name), []).append(spent / ROUND_REQUESTS / 1e6)
            if emulated:
                out.engine.setdefault(name, []).append(engine_ms / ROUND_REQUESTS)
                looped = engine_share(replies[is_stream], is_stream, ROUND_REQUESTS)
                out.engine_looped.setdefault(name, []).append(looped)
    out.load.append(os.getloadavg()[0])
    for target in targets:
        after = cpu_ticks(target.pid)
        out.ticks[target.label] = [a - b for a, b in zip(after, before[target.label], strict=True)]
    return out


def spread(values: list[float]) -> str:
    """The median, with the quartiles and the extremes beside it."""
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return f"{median:5.2f} ms (IQR {q1:.2f}-{q3:.2f}, range {min(values):.2f}-{max(values):.2f})"


def _one(client: httpx.Client, url: str, payload: dict[str, Any], is_stream: bool) -> None:
    if is_stream:
        streamed(client, url, payload)
    else:
        client.post(f"{url}/chat/completions", json=payload).raise_for_status()


def recorded_reply(client: httpx.Client, upstream: str, streamed: bool) -> list[Delta]:
    """What the stand-in answers the emulated request the proxy sends it, as the proxy reads it:
    the deltas of the stream, or the whole reply as one (its text, reasoning, finish reason and
    usage). The engine's share is timed on this reply, so that it parses what it parses inside the
    proxy."""
    request = engine.prepare(body(CALL, tools=True, stream=streamed), decision=DECISION, parallel=True)
    attempt = next(engine.run(request))
    payload = {**attempt.body, "stream": streamed}
    if not streamed:
        reply = client.post(f"{upstream}/chat/completions", json=payload).raise_for_status().json()
        message = reply["choices"][0]["message"]
        return [Delta(message.get("content") or "", message.get("reasoning_content") or "",
                      reply["choices"][0]["finish_reason"], reply.get("usage"))]  # fmt: skip
    payload["stream_options"] = {"include_usage": True}
    out: list[Delta] = []
    with client.stream("POST", f"{upstream}/chat/completions", json=payload) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if line.startswith("data: {"):
                out += deltas(json.loads(line[6:]))
    return out


def engine_share(reply: list[Delta], streamed: bool, count: int) -> float:
    """The turn engine alone, per emulated request, in CPU milliseconds of this thread (the unit
    the proxy's figure is in: wall time would count every moment a loaded machine gives to
    other processes): the prompt, then parsing ``reply``, fed as the proxy feeds it, whole or
    delta by delta."""
    payload = body(CALL, tools=True, stream=streamed)
    started = time.thread_time_ns()
    for _ in range(count):
        flow = engine.run(engine.prepare(payload, decision=DECISION, parallel=True))
        attempt = next(flow)
        if streamed:
            for delta in reply:
                attempt.streamed(delta.content, delta.reasoning, delta.finish_reason, delta.usage)
            attempt.stream_ended()
        else:
            whole = reply[0]
            attempt.reasoning(whole.reasoning)
            attempt.content(whole.content)
            attempt.end(whole.finish_reason, whole.usage)
        with contextlib.suppress(StopIteration):
            flow.send(None)
    return (time.thread_time_ns() - started) / count / 1e6


def first_tokens(client: httpx.Client, proxy: str, direct: str) -> tuple[list[float], list[float]]:
    via: list[float] = []
    straight: list[float] = []
    for i in range(TTFT_ROUNDS + 2):
        pair = [
            ("proxy", proxy, body(TEXT, tools=True, stream=True)),
            ("direct", direct, body(TEXT, tools=False, stream=True)),
        ]
        for label, url, payload in pair if i % 2 == 0 else pair[::-1]:
            first, _, kind = streamed(client, url, payload)
            assert kind == "text", (label, kind)
            if i >= 2:
                (via if label == "proxy" else straight).append(first)
    return via, straight


async def concurrent(url: str) -> tuple[int, list[str], list[float]]:
    async def one(client: httpx.AsyncClient, n: int) -> float:
        payload = body([{"role": "user", "content": f"Remember that item {n} is on shelf {n % 7}"}], tools=True,
                       stream=True)  # fmt: skip
        started = time.perf_counter()
        calls, finished, done = 0, False, False
        async with client.stream("POST", f"{url}/chat/completions", json=payload) as response:
            response.raise_for_status()
            async for line in response.aiter_lines():
                if line == "data: [DONE]":
                    done = True
                elif line.startswith("data: {"):
                    chunk = json.loads(line[6:])
                    if "error" in chunk:
                        raise RuntimeError(chunk["error"]["message"])
                    for choice in chunk["choices"]:
                        calls += sum(1 for c in choice["delta"].get("tool_calls") or [] if "id" in c)
                        finished = finished or choice.get("finish_reason") == "tool_calls"
        if not (calls == 1 and finished and done):
            raise RuntimeError(f"incomplete stream: calls={calls} finished={finished} done={done}")
        return time.perf_counter() - started

    limits = httpx.Limits(max_connections=CONCURRENT, max_keepalive_connections=CONCURRENT)
    async with httpx.AsyncClient(timeout=300, limits=limits) as client:
        results = await asyncio.gather(*(one(client, n) for n in range(CONCURRENT)), return_exceptions=True)
    times = [r for r in results if isinstance(r, float)]
    errors = [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
    return len(times), errors, times


def report(measured: Rounds, targets: list[Target]) -> None:
    per_round = f"{ROUNDS} rounds of {ROUND_REQUESTS} requests per case"
    print(f"\nown work per request: on-CPU time of the proxy process (user and kernel, from the scheduler's "
          f"account), median over {per_round}")  # fmt: skip
    print("with the quartiles and extremes of the rounds; the turn engine's share is timed alone in this process,")
    print("once after each request (as in the proxy, between other work), and taken off round by round:")
    for name in CASES:
        cpu = measured.cpu[("this", name)]
        engine_ms = measured.engine.get(name)
        if engine_ms is None:
            print(f"  {name:<24} own work {spread(cpu)}")
            continue
        own = [c - e for c, e in zip(cpu, engine_ms, strict=True)]
        print(f"  {name:<24} own work {spread(own)}")
        looped = statistics.median(measured.engine_looped[name])
        print(f"  {'':<24} proxy CPU {spread(cpu)}, of which the engine alone {statistics.median(engine_ms):.2f}")
        print(f"  {'':<24} (the engine in a loop of its own runs, its caches warm: {looped:.2f})")
    print("  target: own work < 2 ms per request")
    print(f"  (load average {measured.load[0]:.1f} as the rounds began, {measured.load[1]:.1f} as they ended, on "
          f"{os.cpu_count()} CPUs: the same work takes more CPU time on a busier machine)")  # fmt: skip
    for target in targets:
        user, kernel = measured.ticks[target.label]
        if user + kernel:
            print(f"  ({target.label}: {kernel / (user + kernel):.0%} of its CPU time in the kernel, by clock ticks "
                  "over all rounds)")  # fmt: skip
    if len(targets) == 1:
        return
    print(f"\nthe proxy's CPU per request (the engine's share included), this checkout against {COMPARE_WITH},")
    print("alternated within each round: the median of the rounds' ratios (this / other) with its quartiles, then")
    print("each version's median with its spread:")
    for name in CASES:
        this, other = measured.cpu[("this", name)], measured.cpu[("other", name)]
        ratios = [a / b for a, b in zip(this, other, strict=True)]
        q1, median, q3 = statistics.quantiles(ratios, n=4, method="inclusive")
        print(f"  {name:<24} ratio {median:.2f} (IQR {q1:.2f}-{q3:.2f})")
        print(f"  {'':<24} this  {spread(this)}")
        print(f"  {'':<24} other {spread(other)}")
        if name in measured.engine:  # each version's own work, less the same rounds' engine share
            engine_ms = measured.engine[name]
            for label, cpu in (("this", this), ("other", other)):
                own = [c - e for c, e in zip(cpu, engine_ms, strict=True)]
                print(f"  {'':<24} {label:<5} own work {spread(own)}")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    standin = StandIn(port=free_port()).start()
    proc, proxy = start_proxy(standin.url)
    other: subprocess.Popen[bytes] | None = None
    try:
        with httpx.Client(timeout=120) as client:
            print(f"proxy_cost: stand-in at {standin.url}, proxy at {proxy} (its own process)")
            targets = [Target("this", proxy, proc.pid)]
            if COMPARE_WITH:
                other, other_url = start_proxy(standin.url, COMPARE_WITH)
                targets.append(Target("other", other_url, other.pid))
            try:
                measured = rounds(client, standin.url, targets)
            finally:
                if other is not None:
                    other.terminate()
                    other.wait(30)
            report(measured, targets)

            standin.state.latency = LATENCY
            via, straight = first_tokens(client, proxy, standin.url)
        p, d = statistics.median(via), statistics.median(straight)
        print(f"\ntime to first token, stand-in taking {LATENCY:.2f} s to its first token ({TTFT_ROUNDS} rounds):")
        print(f"  through the proxy  median {p * 1000:7.1f} ms")
        print(f"  direct             median {d * 1000:7.1f} ms")
        print(f"  ratio              {p / d:.3f}   (target <= 1.1); added {(p - d) * 1000:.1f} ms")

        completed, errors, times = asyncio.run(concurrent(proxy))
        print(f"\n{CONCURRENT} concurrent streamed requests through the proxy (each a tool call), stand-in latency "
              f"{LATENCY:.2f} s:")  # fmt: skip
        print(f"  completed {completed}/{CONCURRENT}   errors {len(errors)}   (target {CONCURRENT}/{CONCURRENT})")
        if times:
            print(
                f"  p50 {percentile(times, 0.5):.2f} s   p95 {percentile(times, 0.95):.2f} s   max {max(times):.2f} s"
            )
        print("  (the upstream key's retry budget keeps at most LETTA_TOOL_EMULATION_RETRY_BUDGET requests in flight, "
              "15 by default; the rest wait their turn)")  # fmt: skip
        for error in errors[:5]:
            print(f"  error: {error}")
    finally:
        proc.terminate()
        proc.wait(30)
        standin.stop()


if __name__ == "__main__":
    main()
