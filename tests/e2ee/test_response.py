"""Decrypting streamed chunks, and failing closed on everything an honest enclave never sends."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from letta_tool_emulation.e2ee import (
    E2EEError,
    ResponseError,
    StreamErrorObject,
    decrypt_chunk,
    decrypt_event,
    is_envelope,
)
from letta_tool_emulation.e2ee.crypto import encrypt_text, seal
from letta_tool_emulation.runtime.standin.catalog import E2EE_MODEL

from .conftest import offline_session

SESSION = offline_session(E2EE_MODEL)
TO_CLIENT = SESSION.keys.public_key


def chunk(delta: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": E2EE_MODEL,
        "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
        **extra,
    }


def test_the_three_fields_are_decrypted_and_the_rest_kept() -> None:
    delta = {
        "role": "assistant",
        "content": encrypt_text("Hello", TO_CLIENT),
        "reasoning_content": encrypt_text("thinking", TO_CLIENT),
        "reasoning": encrypt_text("more thinking", TO_CLIENT),
    }
    received = chunk(delta)
    before = copy.deepcopy(received)
    out = decrypt_chunk(received, SESSION)
    assert out["choices"][0]["delta"] == {
        "role": "assistant",
        "content": "Hello",
        "reasoning_content": "thinking",
        "reasoning": "more thinking",
    }
    assert {k: out[k] for k in ("id", "object", "created", "model")} == {
        k: before[k] for k in ("id", "object", "created", "model")
    }
    assert out["choices"][0]["finish_reason"] is None and out["choices"][0]["index"] == 0
    assert received == before  # the input is not changed


def test_the_server_key_is_read_from_every_envelope() -> None:
    # One ephemeral key per reply, then one per chunk: both decrypt.
    from cryptography.hazmat.primitives.asymmetric import ec

    from letta_tool_emulation.e2ee.crypto import CURVE

    shared = ec.generate_private_key(CURVE)
    pieces = ["The ", "answer ", "is ", "42."]
    per_reply = [seal(p.encode(), TO_CLIENT, shared).hex() for p in pieces]
    per_chunk = [seal(p.encode(), TO_CLIENT).hex() for p in pieces]
    assert len({e[:130] for e in per_reply}) == 1 and len({e[:130] for e in per_chunk}) == 4
    for envelopes in (per_reply, per_chunk, per_chunk[:2] + per_reply[2:]):
        text = "".join(
            decrypt_chunk(chunk({"content": e}), SESSION)["choices"][0]["delta"]["content"] for e in envelopes
        )
        assert text == "The answer is 42."


def test_plaintext_stays_out_of_chunks_without_content() -> None:
    usage = {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}
    assert decrypt_chunk({"id": "x", "choices": [], "usage": usage}, SESSION)["usage"] == usage
    final = chunk({}, usage=None)
    final["choices"][0]["finish_reason"] = "stop"
    assert decrypt_chunk(final, SESSION)["choices"][0] == {"index": 0, "delta": {}, "finish_reason": "stop"}
    assert decrypt_chunk(chunk({"role": "assistant", "content": ""}), SESSION)["choices"][0]["delta"]["content"] == ""
    assert decrypt_chunk(chunk({"content": None}), SESSION)["choices"][0]["delta"]["content"] is None


@pytest.mark.parametrize(
    "delta",
    [
        {"content": "Hello"},
        {"content": " "},
        {"reasoning_content": "I think"},
        {"reasoning": "I think"},
        {"content": "04" + "ab" * 40},  # looks hex, too short to be an envelope
        {"tool_calls": [{"index": 0, "function": {"name": "f", "arguments": '{"a": 1}'}}]},
        {"refusal": "I will not help with that"},
    ],
)
def test_plaintext_in_an_encrypted_stream_fails_closed(delta: dict[str, Any]) -> None:
    with pytest.raises(ResponseError) as err:
        decrypt_chunk(chunk(delta), SESSION)
    assert err.value.check == "plaintext" and err.value.reattest
    for value in delta.values():
        if isinstance(value, str) and value.strip():
            assert value not in err.value.message


def test_tampered_tag_fails_closed() -> None:
    raw = bytearray(seal(b"private reply", TO_CLIENT))
    raw[-1] ^= 0x80
    with pytest.raises(ResponseError) as err:
        decrypt_chunk(chunk({"content": raw.hex()}), SESSION)
    assert err.value.check == "gcm" and err.value.reattest


def test_an_envelope_for_someone_else_fails_closed() -> None:
    other = offline_session(E2EE_MODEL)
    with pytest.raises(ResponseError) as err:
        decrypt_chunk(chunk({"content": encrypt_text("not yours", other.keys.public_key)}), SESSION)
    assert err.value.check == "gcm"


@pytest.mark.parametrize(
    ("error", "reattest"),
    [
        ({"message": "Model is overloaded, please retry", "type": "upstream_error", "code": "model_overloaded"}, False),
        ("upstream_error", False),
        ({"message": "Decryption failed"}, True),
    ],
)
def test_a_mid_stream_error_object_fails_closed(error: Any, reattest: bool) -> None:
    with pytest.raises(StreamErrorObject) as err:
        decrypt_chunk({"error": error}, SESSION)
    assert err.value.check == "stream_error" and err.value.reattest is reattest
    assert "nothing from it is used" in err.value.message


def test_events() -> None:
    assert decrypt_event("[DONE]", SESSION) is None
    assert decrypt_event(" [DONE] ", SESSION) is None
    data = json.dumps(chunk({"content": encrypt_text("hi", TO_CLIENT)}))
    out = decrypt_event(data, SESSION)
    assert out is not None and out["choices"][0]["delta"]["content"] == "hi"
    for bad in (
        "{not json",
        "",
        "[1, 2]",
        '"text"',
        '{"choices": "x"}',
        '{"choices": [1]}',
        '{"choices": [{"delta": 3}]}',
    ):
        with pytest.raises(ResponseError):
            decrypt_event(bad, SESSION)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=300),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=25,
)
deltas = st.dictionaries(
    st.sampled_from(["content", "reasoning_content", "reasoning", "role", "tool_calls"]), json_values, max_size=4
)


@given(st.one_of(json_values, st.builds(chunk, deltas)))
def test_any_chunk_decrypts_or_fails_closed(data: Any) -> None:
    try:
        out = decrypt_chunk(data, SESSION)
    except E2EEError:
        return
    # Only None, "" or an envelope may pass in an encrypted field.
    for i, choice in enumerate(out.get("choices") or []):
        before = data["choices"][i].get("delta") or {}
        for name in ("content", "reasoning_content", "reasoning"):
            value = before.get(name)
            assert value in (None, "") or is_envelope(value)
            assert choice.get("delta") is None or (choice["delta"].get(name) == value) == (value in (None, ""))


def test_huge_fields_fail_closed() -> None:
    for value in ("04" + "ff" * 1_000_000, "x" * 2_000_000, "04" + "ab" * 1_000_001 + "a"):
        with pytest.raises(ResponseError):
            decrypt_chunk(chunk({"content": value}), SESSION)
