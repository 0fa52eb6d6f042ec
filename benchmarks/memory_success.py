"""How reliably memory edits land when the model writes calls sloppily.

Starts the stand-in model in "sloppy" mode (fences, single quotes, missing end markers,
trailing commas, Hermes tags, arguments as strings, and now and then a broken call that
must be rejected and retried), seeded for repeatability, and a Letta server with the plugin.
Four agents (two letta_v1_agent, two memgpt_agent) get 200 turns in all: one fact to
remember, two at once, or a replacement of an earlier fact. After every turn the memory
block is read back from the server and compared with what was asked.

Targets: >= 95 % of intended memory changes applied, 0 unintended ones.

    python3 dev.py bench memory_success            (TURNS=200 SEED=7 by default)
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from collections import Counter
from pathlib import Path

from letta_tool_emulation.runtime.stack import ServerProcess
from letta_tool_emulation.runtime.standin import StandIn

TURNS = int(os.environ.get("TURNS", "200"))
SEED = int(os.environ.get("SEED", "7"))
WORDS = ["amber", "basil", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper", "kelp", "lotus"]


def main() -> None:
    rng = random.Random(SEED)
    standin = StandIn(sloppy=True, seed=SEED).start()
    root = Path(tempfile.mkdtemp(prefix="bench-memory-"))
    server = ServerProcess(root, VENICE_API_KEY="stand-in", VENICE_BASE_URL=standin.url)
    started = time.monotonic()
    server.start()
    print(f"server ready in {time.monotonic() - started:.0f} s; {TURNS} turns, seed {SEED}")
    client = server.client()
    agents = []
    for kind in ("letta_v1_agent", "memgpt_agent", "letta_v1_agent", "memgpt_agent"):
        agent = client.agents.create(
            model="venice/venice-uncensored",
            agent_type=kind,
            memory_blocks=[{"label": "human", "value": "Name: Ana"}, {"label": "persona", "value": "I am Sam."}],
        )
        agents.append({"agent": agent, "kind": kind, "expected": ["Name: Ana"]})

    intended = applied = unintended = errors = 0
    counter = 0
    t0 = time.monotonic()
    for turn in range(TURNS):
        slot = agents[turn % len(agents)]
        expected: list[str] = slot["expected"]
        facts = [line for line in expected if line.startswith("fact-")]
        roll = rng.random()
        if roll < 0.15 and facts:
            old = rng.choice(facts)
            new = f"{old.split(' is ')[0]} is {rng.choice(WORDS)}-{turn}"
            message = f"Please replace '{old}' with '{new}'"
            changes = [("replace", old, new)]
        else:
            count = 2 if roll < 0.45 else 1
            new_facts = []
            for _ in range(count):
                counter += 1
                new_facts.append(f"fact-{counter} is {rng.choice(WORDS)}")
            message = " and also ".join(f"remember that {f}" for f in new_facts)
            message = message[0].upper() + message[1:]
            changes = [("add", None, f) for f in new_facts]
        try:
            client.agents.messages.create(agent_id=slot["agent"].id, messages=[{"role": "user", "content": message}])
        except Exception as exc:  # noqa: BLE001 - counted, the benchmark goes on
            errors += 1
            print(f"  turn {turn}: error {type(exc).__name__}: {str(exc)[:120]}")
        lines = client.agents.blocks.retrieve("human", agent_id=slot["agent"].id).value.split("\n")
        for kind, old, new in changes:
            intended += 1
            if kind == "add" and lines.count(new) == 1:
                applied += 1
                expected.append(new)
            elif kind == "replace" and lines.count(new) == 1 and old not in lines:
                applied += 1
                expected[expected.index(old)] = new
        # Anything in the block that was not asked for, or is there twice, is unintended.
        extra = list((Counter(lines) - Counter(expected)).elements())
        missing = list((Counter(expected) - Counter(lines)).elements())
        if extra or missing:
            unintended += len(extra)
            print(f"  turn {turn}: {message!r}: unintended {extra}, lost {missing}")
            slot["expected"] = lines  # from now on, compare with what is there (count once)
    elapsed = time.monotonic() - t0
    reasks = sum(
        1
        for r in standin.requests
        if "Your last reply tried to call a tool" in (r["messages"][-1].get("content") or "")
    )
    print(
        f"turns: {TURNS} in {elapsed:.0f} s ({elapsed / TURNS:.2f} s per turn), model requests: {len(standin.requests)}"
    )
    print(
        f"intended memory changes: {intended}, applied: {applied} ({100 * applied / intended:.1f} %)   (target >= 95 %)"
    )
    print(f"unintended changes: {unintended}   (target 0)")
    print(f"re-asks after a rejected call: {reasks}; turns that failed with an error: {errors}")
    server.stop()
    standin.stop()


if __name__ == "__main__":
    main()
