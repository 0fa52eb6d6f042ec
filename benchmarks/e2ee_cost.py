"""What end-to-end encryption adds to an agent step, against the same turn in TEE-only
plaintext mode, on the same model of the same stand-in, through the real server command.

Two agents on the stand-in's e2ee model: one end-to-end encrypted (the default), one with
the switch ``tee-only`` (plaintext, emulated the same way). Turns alternate between them
against drift; each turn is a memory edit and the answer (two model requests). Printed:

- median turn time for each, and the ratio (E2EE / plaintext);
- the attestations the E2EE agent needed, and the attestation time amortised per step at the
  default 30-minute lifetime (one attestation per model per 30 minutes);
- the stand-in's own E2EE work is included in the turn times (it decrypts and encrypts too),
  so the ratio is an upper bound for what the client adds.

    python3 dev.py bench e2ee_cost          (TURNS=20 by default)
"""

from __future__ import annotations

import os
import statistics
import time

from letta_tool_emulation.runtime.stack import ServerProcess, scratch_dir
from letta_tool_emulation.runtime.standin import StandIn
from letta_tool_emulation.runtime.standin.catalog import E2EE_MODEL

TURNS = int(os.environ.get("TURNS", "20"))


def main() -> None:
    standin = StandIn().start()
    server = ServerProcess(scratch_dir("bench-e2ee-"), VENICE_API_KEY="stand-in", VENICE_BASE_URL=standin.url)
    server.start()
    try:
        client = server.client()
        blocks = [{"label": "human", "value": "Name: Ana"}, {"label": "persona", "value": "I am Sam."}]
        agents = {"e2ee": client.agents.create(model=f"venice/{E2EE_MODEL}", memory_blocks=blocks)}
        plain = client.agents.create(model=f"venice/{E2EE_MODEL}", memory_blocks=blocks)
        config = {**plain.llm_config.model_dump(), "model_wrapper": "tee-only"}
        agents["plaintext"] = client.agents.update(plain.id, llm_config=config)
        seconds: dict[str, list[float]] = {"e2ee": [], "plaintext": []}
        attest_started = time.perf_counter()
        for i in range(TURNS + 2):
            for label in ("e2ee", "plaintext") if i % 2 == 0 else ("plaintext", "e2ee"):
                started = time.perf_counter()
                r = client.agents.messages.create(
                    agent_id=agents[label].id,
                    messages=[{"role": "user", "content": f"Remember that item {i} is on shelf {i % 7}"}],
                )
                elapsed = time.perf_counter() - started
                assert any(m.message_type == "tool_call_message" for m in r.messages), f"{label} turn {i}"
                if i >= 2:  # the first turns warm caches up (and attest)
                    seconds[label].append(elapsed)
        total = time.perf_counter() - attest_started
        records = standin.state.e2ee.records
        modes = {mode: sum(1 for r in records if r.mode == mode) for mode in ("e2ee", "tee")}
        assert all(r.envelopes_only for r in records if r.mode == "e2ee")
        med = {k: statistics.median(v) * 1000 for k, v in seconds.items()}
        print(
            f"median turn over {TURNS} turns (memory edit + answer): e2ee {med['e2ee']:.0f} ms, "
            f"TEE-only plaintext {med['plaintext']:.0f} ms, ratio {med['e2ee'] / med['plaintext']:.2f}"
        )
        attestations = len(standin.state.e2ee.attestations)
        print(
            f"model requests: {modes['e2ee']} end-to-end encrypted, {modes['tee']} plaintext; "
            f"attestations: {attestations} in {total:.0f} s"
        )
        per_attest_ms = _attest_ms(standin)
        steps_per_lifetime = 1800 / max(1e-9, (med["e2ee"] / 1000) / 2)
        print(
            f"one attestation (fetch + verify, new key pair): {per_attest_ms:.1f} ms; amortised over the steps of "
            f"a 30-minute lifetime at this pace ({steps_per_lifetime:.0f} steps): "
            f"{per_attest_ms / steps_per_lifetime * 1000:.2f} us per step"
        )
    finally:
        server.stop()
        standin.stop()


def _attest_ms(standin: StandIn, rounds: int = 20) -> float:
    import asyncio

    from letta_tool_emulation.e2ee import SessionCache, fetch_attestation

    async def once() -> float:
        cache = SessionCache(lambda model: fetch_attestation(standin.url, model, api_key="stand-in"))
        started = time.perf_counter()
        await cache.get(E2EE_MODEL)
        return (time.perf_counter() - started) * 1000

    return statistics.median(asyncio.run(once()) for _ in range(rounds))


if __name__ == "__main__":
    main()
