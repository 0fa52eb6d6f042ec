"""How reliably memory edits land when the model writes calls sloppily, or inside everyday prose.

Starts a Letta server with the plugin and the stand-in model, and runs the same workload once per
mode of the stand-in, each seeded for repeatability:

- "sloppy": calls written the way real models drift (fences, single quotes, missing end
  markers, trailing commas, Hermes tags, arguments as strings, and now and then a broken call
  that must be rejected and retried);
- "natural": canonical calls inside the prose real models write around them (preambles such as
  "Great, I'll note the cuisines you enjoy, such as Thai and Ethiopian.", asides with URLs,
  reasoning, sign-offs, in several languages); every one of them is meant to run.

For each mode four fresh agents (two letta_v1_agent, two memgpt_agent) get TURNS turns in all:
one fact to remember, two at once, or a replacement of an earlier fact. After every turn the
memory block is read back from the server and compared with what was asked.

Targets: >= 95 % of intended memory changes applied, 0 unintended ones, in every mode.

    python3 dev.py bench memory_success     (TURNS=200 SEED=7 MODES=sloppy,natural by default)
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from letta_tool_emulation.core.feedback import FEEDBACK_OPENINGS
from letta_tool_emulation.runtime.stack import ServerProcess, scratch_dir
from letta_tool_emulation.runtime.standin import StandIn

TURNS = int(os.environ.get("TURNS", "200"))
SEED = int(os.environ.get("SEED", "7"))
MODES = [m.strip() for m in os.environ.get("MODES", "sloppy,natural").split(",") if m.strip()]
WORDS = ["amber", "basil", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper", "kelp", "lotus"]
MARKUP = ("TOOL_CALL_START", "TOOL_CALL_END", "<tool_call", "[TOOL_CALLS]")


@dataclass
class Outcome:
    mode: str
    turns: int = 0
    intended: int = 0
    applied: int = 0
    unintended: int = 0
    errors: int = 0
    reasks: int = 0
    markup_shown: int = 0  # turns whose answer to the user showed raw call markup
    requests: int = 0
    seconds: float = 0.0


def run_mode(server: ServerProcess, standin: StandIn, mode: str) -> Outcome:
    if mode not in ("sloppy", "natural"):
        raise SystemExit(f"unknown mode {mode!r}: MODES takes sloppy and natural")
    standin.reset(sloppy=mode == "sloppy", natural=mode == "natural", seed=SEED)
    rng = random.Random(SEED)
    client = server.client()
    agents: list[dict[str, Any]] = []
    for kind in ("letta_v1_agent", "memgpt_agent", "letta_v1_agent", "memgpt_agent"):
        agent = client.agents.create(
            model="venice/venice-uncensored",
            agent_type=kind,
            memory_blocks=[{"label": "human", "value": "Name: Ana"}, {"label": "persona", "value": "I am Sam."}],
        )
        agents.append({"agent": agent, "kind": kind, "expected": ["Name: Ana"]})

    out = Outcome(mode=mode, turns=TURNS)
    counter = 0
    t0 = time.monotonic()
    for turn in range(TURNS):
        slot = agents[turn % len(agents)]
        expected: list[str] = slot["expected"]
        facts = [line for line in expected if line.startswith("fact-")]
        roll = rng.random()
        changes: list[tuple[str, str | None, str]]
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
            r = client.agents.messages.create(
                agent_id=slot["agent"].id, messages=[{"role": "user", "content": message}]
            )
            shown = " ".join(
                str(getattr(m, "content", "") or "") for m in r.messages if m.message_type == "assistant_message"
            )
            if any(marker in shown for marker in MARKUP):
                out.markup_shown += 1
        except Exception as exc:  # noqa: BLE001 - counted, the benchmark goes on
            out.errors += 1
            print(f"  [{mode}] turn {turn}: error {type(exc).__name__}: {str(exc)[:120]}")
        lines = client.agents.blocks.retrieve("human", agent_id=slot["agent"].id).value.split("\n")
        lost_now = []
        for change, before, after in changes:
            out.intended += 1
            if change == "add" and lines.count(after) == 1:
                out.applied += 1
                expected.append(after)
            elif change == "replace" and before and lines.count(after) == 1 and before not in lines:
                out.applied += 1
                expected[expected.index(before)] = after
            else:
                lost_now.append(after)
        if lost_now:
            print(f"  [{mode}] turn {turn}: {message!r}: not applied {lost_now}")
        # Anything in the block that was not asked for, or is there twice, is unintended.
        extra = list((Counter(lines) - Counter(expected)).elements())
        missing = list((Counter(expected) - Counter(lines)).elements())
        if extra or missing:
            out.unintended += len(extra)
            print(f"  [{mode}] turn {turn}: {message!r}: unintended {extra}, lost {missing}")
            slot["expected"] = lines  # from now on, compare with what is there (count once)
    out.seconds = time.monotonic() - t0
    requests = standin.requests
    out.requests = len(requests)
    out.reasks = sum(
        1 for r in requests if any(f in (r["messages"][-1].get("content") or "") for f in FEEDBACK_OPENINGS)
    )
    return out


def main() -> None:
    standin = StandIn(seed=SEED).start()
    root = scratch_dir("bench-memory-")
    server = ServerProcess(root, VENICE_API_KEY="stand-in", VENICE_BASE_URL=standin.url)
    started = time.monotonic()
    server.start()
    print(f"server ready in {time.monotonic() - started:.0f} s; {TURNS} turns per mode, seed {SEED}, modes {MODES}")
    outcomes = []
    try:
        for mode in MODES:
            outcomes.append(run_mode(server, standin, mode))
            o = outcomes[-1]
            print(f"  [{mode}] done: {o.applied}/{o.intended} applied, {o.unintended} unintended, {o.seconds:.0f} s")
    finally:
        server.stop()
        standin.stop()
    print()
    print(
        f"{'mode':8} {'intended':>8} {'applied':>8} {'applied %':>9} {'unintended':>10} "
        f"{'re-asks':>7} {'markup shown':>12} {'errors':>6} {'requests':>8} {'s/turn':>6}"
    )
    for o in outcomes:
        print(
            f"{o.mode:8} {o.intended:8} {o.applied:8} {100 * o.applied / max(1, o.intended):8.1f}% {o.unintended:10} "
            f"{o.reasks:7} {o.markup_shown:12} {o.errors:6} {o.requests:8} {o.seconds / max(1, o.turns):6.2f}"
        )
    print("targets: applied >= 95 %, unintended 0, in every mode")
    print(
        "re-asks: requests carrying the plugin's feedback about a rejected call; markup shown: turns whose answer "
        "to the user held raw call markup (a call set aside without telling the model)"
    )


if __name__ == "__main__":
    main()
