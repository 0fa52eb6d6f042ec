"""What end-to-end encryption costs on the client, per step.

Prints figures; asserts nothing (machines are shared and noisy):

- encrypting a typical agent request (about 10 KB of messages: a system prompt with memory and
  the tool prompt, and a short history), as a whole and per message;
- decrypting a typical streamed reply (200 chunks), with one server ephemeral key per reply
  (the derived key is reused) and with one per chunk (an ECDH for every chunk);
- verifying an attestation offline (key, Keccak address, quote header, report_data), and a
  whole attestation with a new session over HTTP against the local stand-in.

    python3 dev.py bench e2ee_crypto          (ROUNDS=200 by default)
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import time
from collections.abc import Callable

from cryptography.hazmat.primitives.asymmetric import ec

from letta_tool_emulation.e2ee import (
    KeyPair,
    SessionCache,
    decrypt_chunk,
    encrypt_request,
    fetch_attestation,
    new_nonce,
    new_session,
    verify_attestation,
)
from letta_tool_emulation.e2ee.crypto import CURVE, seal
from letta_tool_emulation.runtime.standin import StandIn
from letta_tool_emulation.runtime.standin.catalog import E2EE_MODEL
from letta_tool_emulation.runtime.standin.e2ee import MODEL_SECRET, attestation_payload

ROUNDS = int(os.environ.get("ROUNDS", "200"))
SERVER = KeyPair.from_secret(MODEL_SECRET)


def median_ms(fn: Callable[[], object], rounds: int = ROUNDS) -> float:
    fn()  # warm up
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return 1000 * statistics.median(times)


def agent_request() -> dict[str, object]:
    """About 10 KB of messages, shaped like a Letta agent's request with the tool prompt."""
    system = (
        "You are Sam, a helpful assistant with long-term memory.\n\n<memory_blocks>\n"
        + "<human>Name: Ana. Likes pizza, jazz and long walks in Lisbon.</human>\n" * 60
        + "</memory_blocks>\n\n# Tools\n"
        + "".join(
            f"- tool_{i}(label: str, new_string: str, insert_line: int = -1): edit a memory block\n" for i in range(30)
        )
    )
    history: list[dict[str, str]] = []
    for i in range(10):
        history.append({"role": "user", "content": f"Remember that item {i} is on shelf {i % 7}. " * 3})
        history.append(
            {
                "role": "assistant",
                "content": 'TOOL_CALL_START\n{"function": "memory_insert", "params": {"label": "human", '
                f'"new_string": "item {i} is on shelf {i % 7}"}}}}\nTOOL_CALL_END',
            }
        )
    return {"model": E2EE_MODEL, "messages": [{"role": "system", "content": system}, *history], "temperature": 0.7}


def reply_events(session_keys: KeyPair, per_chunk: bool, chunks: int = 200) -> list[dict[str, object]]:
    ephemeral = None if per_chunk else ec.generate_private_key(CURVE)
    words = "The item you asked about is on shelf three, next to the jazz records. "
    out = []
    for i in range(chunks):
        piece = words[(i * 5) % 60 : (i * 5) % 60 + 5]
        envelope = seal(piece.encode(), session_keys.public_key, ephemeral).hex()
        out.append({"id": "chatcmpl-1", "choices": [{"index": 0, "delta": {"content": envelope}}]})
    return out


def main() -> None:
    nonce = new_nonce()
    payload = attestation_payload(E2EE_MODEL, nonce, SERVER)
    session = new_session(verify_attestation(payload, model=E2EE_MODEL, nonce=nonce), created=time.monotonic())
    body = agent_request()
    size = sum(len(json.dumps(m)) for m in body["messages"])  # type: ignore[union-attr]
    count = len(body["messages"])  # type: ignore[arg-type]

    encrypt = median_ms(lambda: encrypt_request(body, session))
    print(
        f"encrypt a request: {size / 1000:.1f} KB in {count} messages: {encrypt:.2f} ms "
        f"({1000 * encrypt / count:.0f} us per message)"
    )

    for label, per_chunk in (("one server key per reply", False), ("one server key per chunk", True)):
        fresh = KeyPair.generate()  # no derived keys cached from an earlier round
        events = reply_events(fresh, per_chunk)

        def decrypt_all(keys: KeyPair = fresh, events: list[dict[str, object]] = events) -> None:
            for event in events:
                decrypt_chunk(event, keys)

        rounds = max(10, ROUNDS // 10)
        total = median_ms(decrypt_all, rounds)
        print(
            f"decrypt a reply of {len(events)} chunks, {label}: {total:.1f} ms "
            f"({1000 * total / len(events):.0f} us per chunk)"
        )

    verify = median_ms(lambda: verify_attestation(payload, model=E2EE_MODEL, nonce=nonce))
    keys = median_ms(KeyPair.generate)
    print(f"verify an attestation offline: {verify:.2f} ms; a new client key pair: {keys:.2f} ms")

    with StandIn() as standin:

        async def attest_over_http(n: int) -> list[float]:
            times = []
            for _ in range(n):
                cache = SessionCache(lambda model: fetch_attestation(standin.url, model, api_key="bench"))
                started = time.perf_counter()
                await cache.get(E2EE_MODEL)
                times.append(time.perf_counter() - started)
            return times

        times = asyncio.run(attest_over_http(max(10, ROUNDS // 10)))
        http = 1000 * statistics.median(times[1:])
        print(
            f"attest over HTTP on the local stand-in (fetch, verify, new key pair): {http:.1f} ms, "
            "once per model per session (30 minutes at most) and after a key failure"
        )


if __name__ == "__main__":
    main()
