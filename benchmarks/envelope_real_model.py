"""Free text against constrained replies, on the real server with the real model, without Letta.

Starts llama-cpp-python's server (its environment: ``python3 dev.py llama``) serving
SmolLM2-135M-Instruct with an 8,192-token context, and sends N "Remember that ..." turns in
each mode with the same system prompt around the tool section:

- free text: the tool prompt (``render_tool_prompt``), the reply parsed by the free-text parser;
- constrained: the envelope section (``envelope_instruction``) and the envelope schema in
  llama-cpp-python's ``response_format``, the reply parsed by ``EnvelopeParser``.

Per mode it prints: % of turns with a schema-valid memory call (memory_insert/memory_replace with
arguments that pass the tool's JSON schema), % with a rejected attempt (what the adapter would
re-ask), % of constrained replies that are not the envelope (server ignored the schema), % cut by
the output limit, median and p90 latency. The full Letta turn benchmark builds on the engine.

    python3 dev.py bench envelope_real_model        (TURNS=20 MAX_TOKENS=160 TEMPERATURE=0.7 SEED=7)
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import jsonschema

from letta_tool_emulation.core import StreamingToolCallParser, render_tool_prompt
from letta_tool_emulation.core.envelope import EnvelopeParser, envelope_instruction, envelope_schema
from letta_tool_emulation.endpoints import schema_request_fields
from letta_tool_emulation.runtime.llama import LlamaServer, find_model

ROOT = Path(__file__).resolve().parent.parent
TURNS = int(os.environ.get("TURNS", "20"))
MAX_TOKENS = int(os.environ.get("MAX_TOKENS", "160"))
TEMPERATURE = float(os.environ.get("TEMPERATURE", "0.7"))
SEED = int(os.environ.get("SEED", "7"))
MEMORY = ("memory_insert", "memory_replace")
OFFERED = (*MEMORY, "conversation_search", "archival_memory_insert", "archival_memory_search")
FACTS = [
    "I like pizza", "my sister is called Anna", "I live in Lyon", "my favourite colour is green",
    "I work as a nurse", "I have two cats", "my birthday is on May 3", "I am allergic to peanuts",
    "I play the violin", "I drive a red car", "I was born in Canada", "my dog is named Rex",
]  # fmt: skip
PERSONA = (
    "You are Sam, a helpful assistant with a long-term memory.\n"
    "<memory_blocks>\n<human>\n(nothing known yet)\n</human>\n<persona>\nI am Sam, friendly and concise.\n"
    "</persona>\n</memory_blocks>\n"
    "When the user tells you something about themselves, save it to the human block with memory_insert.\n\n"
)


def llama_python() -> Path:
    done = subprocess.run([sys.executable, str(ROOT / "dev.py"), "llama"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"python3 dev.py llama failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return Path(done.stdout.strip().splitlines()[-1])


def turn(server: LlamaServer, tools: list[dict[str, Any]], fact: str, constrained: bool, seed: int) -> dict[str, Any]:
    section = envelope_instruction(tools) if constrained else render_tool_prompt(tools)
    body: dict[str, Any] = {
        "model": server.alias,
        "messages": [
            {"role": "system", "content": PERSONA + section},
            {"role": "user", "content": f"Remember that {fact}."},
        ],
        "max_tokens": MAX_TOKENS,
        "temperature": TEMPERATURE,
        "seed": seed,
    }
    if constrained:
        body.update(schema_request_fields("llama-cpp-python", envelope_schema(tools, required=False)))
    started = time.monotonic()
    r = httpx.post(f"{server.url}/chat/completions", json=body, timeout=600)
    elapsed = time.monotonic() - started
    r.raise_for_status()
    choice = r.json()["choices"][0]
    text, finish = choice["message"]["content"] or "", choice["finish_reason"]
    parser = EnvelopeParser(tools) if constrained else StreamingToolCallParser(tools)
    parser.feed(text)
    parser.close(finish)
    result = parser.result
    schemas = {t["name"]: t["parameters"] for t in tools}
    valid = []
    for call in result.tool_calls:
        if call.name in MEMORY:
            try:
                jsonschema.validate(call.arguments, schemas[call.name])
                valid.append(call)
            except jsonschema.ValidationError:
                pass
    envelope = True
    if constrained:
        try:
            envelope = isinstance(json.loads(text, strict=False), dict)
        except ValueError:
            envelope = False
    return {
        "memory": bool(valid),
        "rejected": bool(result.rejected),
        "cut": finish == "length",
        "not_envelope": constrained and not envelope and finish != "length",
        "seconds": elapsed,
    }


def report(mode: str, rows: list[dict[str, Any]]) -> None:
    n = len(rows)

    def pct(key: str) -> str:
        return f"{100 * sum(r[key] for r in rows) / n:5.1f} %"

    seconds = sorted(r["seconds"] for r in rows)
    p90 = seconds[min(n - 1, int(0.9 * n))]
    print(
        f"{mode:12} turns {n:3}  memory call {pct('memory')}  rejected {pct('rejected')}  "
        f"cut by limit {pct('cut')}  not the envelope {pct('not_envelope')}  "
        f"median {statistics.median(seconds):5.1f} s  p90 {p90:5.1f} s"
    )


def main() -> None:
    python = llama_python()
    all_tools = json.loads((ROOT / "tests" / "data" / "tools.json").read_text())["tools"]
    tools = [t for t in all_tools if t["name"] in OFFERED]
    rng = random.Random(SEED)
    facts = [rng.choice(FACTS) for _ in range(TURNS)]
    print(f"{TURNS} turns per mode, max_tokens {MAX_TOKENS}, temperature {TEMPERATURE}, seed {SEED}")
    with LlamaServer(python, find_model(python), n_ctx=8192, seed=SEED) as server:
        for mode, constrained in (("free text", False), ("constrained", True)):
            rows = [turn(server, tools, fact, constrained, SEED + i) for i, fact in enumerate(facts)]
            report(mode, rows)


if __name__ == "__main__":
    main()
