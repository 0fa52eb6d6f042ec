"""End-to-end encrypted chat through the live stand-in over HTTP, with only the e2ee package
on the client side: encrypt, stream, decrypt chunk by chunk; and every way it must fail."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from letta_tool_emulation.e2ee import (
    KeyPair,
    ResponseError,
    StreamErrorObject,
    encrypt_request,
    is_envelope,
)
from letta_tool_emulation.e2ee.crypto import encrypt_text
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, Scripted, StandIn
from letta_tool_emulation.runtime.standin.catalog import E2EE_MAX_COMPLETION_TOKENS, E2EE_MODEL, E2EE_NATIVE_MODEL

from .conftest import KEY, cache_for, control, post_encrypted, post_raw, records, rejection

SYSTEM = (
    "You are Sam, a helpful agent with memory.\n\n# Tools\n"
    "- memory_insert(label: str, new_string: str): add to a memory block\n"
    "- archival_memory_search(query: str): search the archive\n"
)
MEMORY_TOOL = {
    "type": "function",
    "function": {
        "name": "memory_insert",
        "parameters": {"type": "object", "properties": {"label": {"type": "string"}, "new_string": {"type": "string"}}},
    },
}


def chat(*user: str, model: str = E2EE_MODEL, **extra: Any) -> dict[str, Any]:
    messages = [{"role": "system", "content": SYSTEM}] + [{"role": "user", "content": u} for u in user]
    return {"model": model, "messages": messages, "stream_options": {"include_usage": True}, **extra}


async def test_a_tool_using_reply_round_trips(live: StandIn) -> None:
    session = await cache_for(live).get(E2EE_MODEL)
    reply = await post_encrypted(live, chat("Remember that I like pizza"), session)
    assert reply.status == 200, reply.error
    assert (
        'TOOL_CALL_START\n{"function": "memory_insert", "params": {"label": "human", "new_string": "I like pizza"}}'
        in (reply.text)
    )
    # What travelled: every content field an envelope; roles, ids, finish_reason, usage in the clear.
    contents = [c["delta"]["content"] for chunk in reply.raw for c in chunk["choices"] if "content" in c["delta"]]
    assert len(contents) > 3 and all(is_envelope(c) for c in contents)
    assert "pizza" not in json.dumps(reply.raw)
    assert reply.raw[0]["choices"][0]["delta"] == {"role": "assistant"}
    assert reply.chunks[-2]["choices"][0]["finish_reason"] == "stop"
    assert reply.usage is not None and reply.usage["completion_tokens"] > 0 and reply.raw[-1]["choices"] == []
    assert len({c["id"] for c in reply.chunks}) == 1
    assert reply.headers["x-venice-tee"] == "true" and reply.headers["x-venice-tee-provider"] == "phala"
    # What the stand-in received: only envelopes, and it understood them.
    [record] = records(live, E2EE_MODEL)
    assert record["mode"] == "e2ee" and record["envelopes_only"] and record["envelopes"] == 2
    sent = live.requests[-1]
    assert all(is_envelope(m["content"]) for m in sent["messages"]) and "pizza" not in json.dumps(sent)


async def test_scripted_replies_and_both_ephemeral_key_schemes(live: StandIn) -> None:
    session = await cache_for(live).get(E2EE_MODEL)
    text = "A scripted answer, long enough to take several chunks: <think>private</think> done."
    prefixes = []
    for _ in range(2):
        live.script(Scripted(text=text, chunk=6))
        reply = await post_encrypted(live, chat("hello"), session)
        assert reply.text == text
        prefixes.append([c["choices"][0]["delta"]["content"][:130] for c in reply.raw[1:-2]])
    assert [r["ephemeral"] for r in records(live, E2EE_MODEL)] == ["reply", "chunk"]
    per_reply, per_chunk = prefixes
    assert len(per_reply) == len(per_chunk) == len(text) // 6 + 1
    assert len(set(per_reply)) == 1 and len(set(per_chunk)) == len(per_chunk)


async def test_rules_answer_a_tool_result_and_searches(live: StandIn) -> None:
    session = await cache_for(live).get(E2EE_MODEL)
    reply = await post_encrypted(live, chat("Search the archive for pizza"), session)
    assert '"function": "archival_memory_search", "params": {"query": "pizza"}' in reply.text
    body = chat("Remember that I like pizza")
    body["messages"] += [
        {"role": "assistant", "content": reply.text},
        {"role": "user", "content": "TOOL_RESULT memory_insert status: OK\nsaved\nTOOL_RESULT_END"},
    ]
    assert (await post_encrypted(live, body, session)).text == "Done."


async def test_tools_are_dropped_silently(live: StandIn) -> None:
    session = await cache_for(live).get(E2EE_NATIVE_MODEL)
    wire, headers = encrypt_request(chat("Remember that I like pizza", model=E2EE_NATIVE_MODEL), session)
    wire["tools"], wire["tool_choice"] = [MEMORY_TOOL], "auto"
    reply = await post_raw(live, wire, headers, session)
    assert reply.status == 200 and "TOOL_CALL_START" in reply.text  # answered as text: no native calls in E2EE
    assert not any(c["delta"].get("tool_calls") for chunk in reply.raw for c in chunk["choices"])


async def test_a_non_streamed_request_is_refused(live: StandIn) -> None:
    session = await cache_for(live).get(E2EE_MODEL)
    wire, headers = encrypt_request(chat("hi"), session)
    reply = await post_raw(live, {**wire, "stream": False}, headers, session)
    assert reply.status == 400 and reply.error == {"error": "E2EE requires streaming"}
    error = rejection(reply)
    assert error.check == "streaming" and not error.reattest


async def test_plaintext_content_is_refused_and_recorded(live: StandIn) -> None:
    session = await cache_for(live).get(E2EE_MODEL)
    wire, headers = encrypt_request(chat("hi"), session)
    wire["messages"].append({"role": "user", "content": "a plaintext secret"})
    reply = await post_raw(live, wire, headers, session)
    assert reply.error == {"error": "Encrypted field is not valid hex"}
    assert rejection(reply).check == "plaintext_field"
    [record] = records(live, E2EE_MODEL)
    assert record["plaintext"] == 1 and record["envelopes"] == 2 and not record["envelopes_only"]
    assert record["status"] == 400


async def test_content_for_another_key_is_refused(live: StandIn) -> None:
    session = await cache_for(live).get(E2EE_MODEL)
    wire, headers = encrypt_request(chat("hi"), session)
    wire["messages"][1]["content"] = encrypt_text("hi", KeyPair.generate().public_key)
    reply = await post_raw(live, wire, headers, session)
    assert reply.error == {"error": "Decryption failed"}
    error = rejection(reply)
    assert error.check == "server_decryption" and error.reattest


async def test_a_rotated_enclave_key_is_caught_and_recovered_by_attesting_again(live: StandIn) -> None:
    cache = cache_for(live)
    session = await cache.get(E2EE_MODEL)
    control(live, rotate_key=True)
    reply = await post_encrypted(live, chat("hi"), session)
    error = rejection(reply)
    assert reply.status == 400 and error.check == "model_key_mismatch" and error.reattest
    cache.invalidate(E2EE_MODEL, session)
    fresh = await cache.get(E2EE_MODEL)
    assert (
        fresh.attestation.model_public_key == control(live)["model_public_key"] != session.attestation.model_public_key
    )
    assert (await post_encrypted(live, chat("hi"), fresh)).text == "You said: hi"


@pytest.mark.parametrize(
    ("change", "said", "check"),
    [
        ({"X-Venice-TEE-Signing-Algo": "ed25519"}, "Unsupported signing algorithm", "signing_algo"),
        ({"X-Venice-TEE-Client-Pub-Key": "04abcd"}, "Invalid public key", "public_key"),
        ({"X-Venice-TEE-Client-Pub-Key": "04" + "01" * 64}, "Invalid public key", "public_key"),
        ({"X-Venice-TEE-Model-Pub-Key": None}, "Invalid E2EE headers: missing X-Venice-TEE-Model-Pub-Key", "headers"),
    ],
)
async def test_bad_headers_are_refused(live: StandIn, change: dict[str, Any], said: str, check: str) -> None:
    session = await cache_for(live).get(E2EE_MODEL)
    wire, headers = encrypt_request(chat("hi"), session)
    headers = {k: v for k, v in {**headers, **change}.items() if v is not None}
    reply = await post_raw(live, wire, headers, session)
    assert reply.status == 400 and said in reply.error["error"]
    assert rejection(reply).check == check


@pytest.mark.parametrize(
    ("fault", "error", "check"),
    [
        ("plaintext_chunk", ResponseError, "plaintext"),
        ("tampered_tag", ResponseError, "gcm"),
        ("midstream_error", StreamErrorObject, "stream_error"),
    ],
)
async def test_stream_faults_fail_closed(live: StandIn, fault: str, error: type, check: str) -> None:
    session = await cache_for(live).get(E2EE_MODEL)
    control(live, faults=[fault])
    for ephemeral in ("reply", "chunk"):
        live.script(Scripted(text="Sure. TOOL_CALL_START something TOOL_CALL_END", chunk=8))
        with pytest.raises(error) as err:
            await post_encrypted(live, chat("hi"), session)
        assert err.value.check == check
        assert "Sure" not in err.value.message and "nothing from" in err.value.message
        assert records(live, E2EE_MODEL)[-1]["ephemeral"] == ephemeral


async def test_tee_only_plaintext_mode(live: StandIn) -> None:
    async with httpx.AsyncClient(base_url=live.url, headers={"Authorization": f"Bearer {KEY}"}) as client:
        # Function calling without the E2EE headers, on the model that supports it.
        r = await client.post(
            "/chat/completions", json=chat("Remember that I like tea", model=E2EE_NATIVE_MODEL, tools=[MEMORY_TOOL])
        )
        assert r.status_code == 200, r.text
        [call] = r.json()["choices"][0]["message"]["tool_calls"]
        assert json.loads(call["function"]["arguments"])["new_string"] == "I like tea"
        # The model without function calling refuses tools, as Venice does.
        r = await client.post("/chat/completions", json=chat("hi", tools=[MEMORY_TOOL]))
        assert r.status_code == 400 and "function calling" in r.json()["error"]
        # enable_e2ee: false with the headers is plaintext too; only the client key: plaintext (Venice's quirk).
        session = await cache_for(live).get(E2EE_MODEL)
        _, headers = encrypt_request(chat("hi"), session)
        off = chat("hi", venice_parameters={"enable_e2ee": False})
        assert (await client.post("/chat/completions", json=off, headers=headers)).status_code == 200
        quirk = {"X-Venice-TEE-Client-Pub-Key": headers["X-Venice-TEE-Client-Pub-Key"]}
        assert (await client.post("/chat/completions", json=chat("hi"), headers=quirk)).status_code == 200
        # E2EE headers on a model without a TEE are refused.
        r = await client.post("/chat/completions", json=chat("hi", model=EMULATED_MODEL), headers=headers)
        assert r.status_code == 400 and "end-to-end" in r.json()["error"]
        # The e2ee models' own output limit.
        too_long = chat("hi", max_completion_tokens=E2EE_MAX_COMPLETION_TOKENS + 1)
        assert (await client.post("/chat/completions", json=too_long)).status_code == 400
    modes = [(r["mode"], r["envelopes_only"]) for r in records(live)]
    assert modes == [("tee", False), ("tee", False), ("tee", False), ("client-key-only", False), ("tee", False)]


def hostile_bodies(wire: dict[str, Any]) -> list[tuple[str, Any]]:
    good = wire["messages"][1]["content"]

    def with_content(value: Any) -> dict[str, Any]:
        messages = [dict(m) for m in wire["messages"]]
        messages[1]["content"] = value
        return {**wire, "messages": messages}

    return [
        ("shorter than an envelope", with_content(good[:150])),
        ("cut in the tag", with_content(good[:-2])),
        ("odd length", with_content(good + "a")),
        ("not hex", with_content("zz" + good[2:])),
        ("empty", with_content("")),
        ("no ephemeral key", with_content("00" * 120)),
        ("huge", with_content("04" + "ab" * 2_000_000)),
        ("a number", with_content(12345)),
        ("an object", with_content({"text": good})),
        ("an image part", with_content([{"type": "image_url", "image_url": {"url": "x"}}])),
        (
            "bad reasoning",
            {
                **wire,
                "messages": [*wire["messages"], {"role": "assistant", "content": good, "reasoning_content": "plain"}],
            },
        ),
        ("messages not a list", {**wire, "messages": "hi"}),
        ("no messages", {**wire, "messages": []}),
        ("a string message", {**wire, "messages": ["hi"]}),
    ]


async def test_hostile_requests_fail_only_that_request(live: StandIn) -> None:
    session = await cache_for(live).get(E2EE_MODEL)
    wire, headers = encrypt_request(chat("hi"), session)
    for name, body in hostile_bodies(wire):
        reply = await post_raw(live, body, headers, session)
        assert reply.status == 400, name
        assert "error" in reply.error, name
    async with httpx.AsyncClient() as client:
        r = await client.post(live.url + "/chat/completions", content=b"{not json", headers=headers)
        assert r.status_code == 400
    assert all(r["status"] == 400 for r in records(live))
    # The server still serves, and the client's session still works.
    assert (await post_encrypted(live, chat("hi"), session)).text == "You said: hi"


async def test_text_parts_sent_by_other_clients_are_decrypted_part_by_part(live: StandIn) -> None:
    session = await cache_for(live).get(E2EE_MODEL)
    wire, headers = encrypt_request(chat("hi"), session)
    model_key = session.model_key
    wire["messages"][1]["content"] = [
        {"type": "text", "text": encrypt_text("Remember that ", model_key)},
        {"type": "text", "text": encrypt_text("I like jazz", model_key)},
    ]
    reply = await post_raw(live, wire, headers, session)
    assert reply.status == 200 and records(live, E2EE_MODEL)[-1]["envelopes_only"]
    assert '"new_string": "I like jazz"' in reply.text
