"""What the proxy costs, on the stand-in model, in one run:

- its own work per request: the CPU time the proxy process spends per request (reading the
  client's request, deciding, the engine's prompt and parsing, the upstream request, writing the
  answer), over sequential requests, for emulated requests (whole and streamed) and for the
  pass-through; the turn engine's share is timed on its own, in this process;
- time to first token through the proxy (an emulated request with tools, answered in text) against
  the same model asked directly (the same prompt without tools, which is all it can take), with
  the stand-in taking STANDIN_LATENCY seconds before its first token as a model does;
- 100 concurrent streamed requests through the proxy, each answered with a tool call: completed,
  errors, p50 and p95 of the time to the end of the stream.

Targets: own work < 2 ms per request, first-token ratio <= 1.1, 100/100 completed.

    python3 dev.py bench proxy_cost      (REQUESTS=200, STANDIN_LATENCY=0.3, CONCURRENT=100)

COMPARE_WITH=DIR (a directory holding another version's ``letta_tool_emulation`` package, such as
``git archive main letta_tool_emulation | tar -x -C DIR``) adds the own work of both versions side by
side, in COMPARE_ROUNDS interleaved rounds (medians): on a machine shared with other work, runs of
one version minutes apart differ by more than most changes do.
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
from pathlib import Path
from typing import Any

import httpx

from letta_tool_emulation import engine
from letta_tool_emulation.runtime.stack import COMMAND, free_port
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, Scripted, StandIn
from letta_tool_emulation.selection import Decision

REQUESTS = int(os.environ.get("REQUESTS", "200"))
LATENCY = float(os.environ.get("STANDIN_LATENCY", "0.3"))
CONCURRENT = int(os.environ.get("CONCURRENT", "100"))
TTFT_ROUNDS = int(os.environ.get("TTFT_ROUNDS", "30"))
COMPARE_WITH = os.environ.get("COMPARE_WITH")
COMPARE_ROUNDS = int(os.environ.get("COMPARE_ROUNDS", "6"))

TOOLS = [{"type": "function", "function": {
    "name": "memory_insert", "description": "Insert text into a memory block.",
    "parameters": {"type": "object", "properties": {"label": {"type": "string"}, "new_string": {"type": "string"}},
                   "required": ["label", "new_string"]}}}]  # fmt: skip
CALL = [{"role": "user", "content": "Remember that I like pears"}]
TEXT = [{"role": "user", "content": "Tell me something about pears, please."}]
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds of the process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICKS, int(fields[12]) / TICKS


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


def own_work(client: httpx.Client, url: str, pid: int) -> dict[str, tuple[float, float]]:
    """Per case: (user, system) CPU milliseconds of the proxy process per request."""
    cases = {
        "emulated, whole": (body(CALL, tools=True, stream=False), False),
        "emulated, streamed": (body(CALL, tools=True, stream=True), True),
        "pass-through, streamed": (body(TEXT, tools=False, stream=True), True),
    }
    out = {}
    for name, (payload, is_stream) in cases.items():
        for _ in range(10):  # warm up: connections, caches
            _one(client, url, payload, is_stream)
        user, system = cpu_seconds(pid)
        for _ in range(REQUESTS):
            _one(client, url, payload, is_stream)
        user_after, system_after = cpu_seconds(pid)
        out[name] = ((user_after - user) / REQUESTS * 1000, (system_after - system) / REQUESTS * 1000)
    return out


def _one(client: httpx.Client, url: str, payload: dict[str, Any], is_stream: bool) -> None:
    if is_stream:
        streamed(client, url, payload)
    else:
        client.post(f"{url}/chat/completions", json=payload).raise_for_status()


def engine_share(streamed: bool) -> float:
    """The turn engine alone, per emulated request, in CPU milliseconds of this thread (the unit
    the proxy's figure is in: wall time would count every moment a loaded machine gives to
    other processes): the prompt, then parsing a reply with a call, fed as the proxy feeds it,
    whole or in the stand-in's streamed pieces."""
    reply = 'Sure.\nTOOL_CALL_START\n{"function": "memory_insert", "params": {"label": "human", "new_string": "x"}}\nTOOL_CALL_END'
    decision = Decision(True, "benchmark", venice_dialect=True)
    piece = Scripted().chunk

    def one() -> None:
        request = engine.prepare(body(CALL, tools=True, stream=streamed), decision=decision, parallel=True)
        flow = engine.run(request)
        attempt = next(flow)
        if streamed:
            for i in range(0, len(reply), piece):
                attempt.streamed(reply[i : i + piece], "", None, None)
            attempt.streamed("", "", "stop", None)
            attempt.stream_ended()
        else:
            attempt.content(reply)
            attempt.end("stop")
        with contextlib.suppress(StopIteration):
            flow.send(None)

    for _ in range(10):  # warm up, as the proxy is
        one()
    started = time.thread_time()
    for _ in range(REQUESTS):
        one()
    return (time.thread_time() - started) / REQUESTS * 1000


def first_tokens(client: httpx.Client, proxy: str, direct: str) -> tuple[list[float], list[float]]:
    via, straight = [], []
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


def compared(client: httpx.Client, upstream: str, proxy: str, pid: int) -> None:
    """The own work of this version and of the one in COMPARE_WITH, in alternating rounds."""
    other, other_url = start_proxy(upstream, COMPARE_WITH)
    try:
        runs: dict[tuple[str, str], list[float]] = {}
        for n in range(COMPARE_ROUNDS):
            pair = [("this", proxy, pid), ("other", other_url, other.pid)]
            for label, url, process in pair if n % 2 == 0 else pair[::-1]:
                for case, (user, _) in own_work(client, url, process).items():
                    runs.setdefault((label, case), []).append(user)
    finally:
        other.terminate()
        other.wait(30)
    print(f"\nown work, this checkout against {COMPARE_WITH} ({COMPARE_ROUNDS} interleaved rounds of {REQUESTS} "
          "requests; medians of the user CPU per request):")  # fmt: skip
    for case in ("emulated, whole", "emulated, streamed", "pass-through, streamed"):
        this, that = statistics.median(runs[("this", case)]), statistics.median(runs[("other", case)])
        print(f"  {case:<24} this {this:5.2f} ms   other {that:5.2f} ms   ratio {this / that:.2f}")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    standin = StandIn(port=free_port()).start()
    proc, proxy = start_proxy(standin.url)
    try:
        with httpx.Client(timeout=120) as client:
            print(f"proxy_cost: stand-in at {standin.url}, proxy at {proxy} (its own process)")
            print(f"\nown work per request (CPU time of the proxy process, {REQUESTS} sequential requests each):")
            work = own_work(client, proxy, proc.pid)
            shares = {name: engine_share(streamed="streamed" in name) for name in work if name.startswith("emulated")}
            for name, (user, system) in work.items():
                own = user - shares.get(name, 0.0)
                print(f"  {name:<24} user {user:5.2f} ms (the proxy's own work {own:5.2f} ms; target < 2 ms), "
                      f"kernel {system:5.2f} ms")  # fmt: skip
            print(
                f"  the turn engine's share  whole {shares['emulated, whole']:.2f} ms, streamed "
                f"{shares['emulated, streamed']:.2f} ms (prompt and parsing, CPU time alone in this process;"
            )
            print("                           the plugin spends the same on every emulated step)")
            if COMPARE_WITH:
                compared(client, standin.url, proxy, proc.pid)

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
