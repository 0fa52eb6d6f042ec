"""Encrypting an OpenAI chat request: what is encrypted, what is dropped, what is refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from letta_tool_emulation.e2ee import EMPTY_CONTENT, KeyPair, RequestError, encrypt_request, is_envelope
from letta_tool_emulation.runtime.standin.catalog import E2EE_MODEL
from letta_tool_emulation.runtime.standin.e2ee import MODEL_SECRET

from .conftest import offline_session

SERVER = KeyPair.from_secret(MODEL_SECRET)
SESSION = offline_session(E2EE_MODEL)


def body(**extra: Any) -> dict[str, Any]:
    return {
        "model": E2EE_MODEL,
        "messages": [
            {"role": "system", "content": "You are Sam.\n# Tools\n- memory_insert(label, new_string)"},
            {"role": "user", "content": "Remember that I like pizza"},
            {"role": "assistant", "content": 'TOOL_CALL_START\n{"function": "memory_insert"}\nTOOL_CALL_END'},
            {"role": "user", "content": "TOOL_RESULT memory_insert status: OK\nTOOL_RESULT_END"},
        ],
        **extra,
    }


def opened(wire: dict[str, Any]) -> list[str]:
    return [SERVER.decrypt_text(m["content"]) for m in wire["messages"]]


def test_every_role_is_encrypted_to_the_model_key() -> None:
    original = body()
    wire, headers = encrypt_request(original, SESSION)
    assert [m["role"] for m in wire["messages"]] == ["system", "user", "assistant", "user"]
    assert all(is_envelope(m["content"]) for m in wire["messages"])
    assert opened(wire) == [m["content"] for m in original["messages"]]
    # Each message has its own ephemeral key.
    assert len({m["content"][:130] for m in wire["messages"]}) == 4
    # No plaintext anywhere in what is sent.
    sent = json.dumps(wire) + json.dumps(headers)
    assert "pizza" not in sent and "Sam" not in sent and "memory_insert" not in sent
    assert original == body()  # the caller's body is not changed


def test_headers_stream_and_venice_parameters() -> None:
    wire, headers = encrypt_request(body(stream=False), SESSION)
    assert headers == {
        "X-Venice-TEE-Client-Pub-Key": SESSION.keys.public_hex,
        "X-Venice-TEE-Model-Pub-Key": SERVER.public_hex,
        "X-Venice-TEE-Signing-Algo": "ecdsa",
    }
    assert wire["stream"] is True
    assert wire["venice_parameters"] == {"enable_e2ee": True, "include_venice_system_prompt": False}


def test_forbidden_options_are_dropped_and_sampling_kept() -> None:
    forbidden = {
        "tools": [{"type": "function", "function": {"name": "memory_insert", "parameters": {}}}],
        "tool_choice": "auto",
        "parallel_tool_calls": False,
        "response_format": {"type": "json_object"},
        "reasoning_effort": "low",
        "reasoning": {"effort": "low"},
        "prompt_cache_key": "agent-1",
        "prompt_cache_retention": "24h",
        "logprobs": True,
        "top_logprobs": 3,
        "user": "ana",
        "metadata": {"who": "ana"},
        "store": True,
        "venice_parameters": {
            "enable_web_search": "on",
            "enable_web_scraping": True,
            "enable_web_citations": True,
            "character_slug": "alan-watts",
            "include_venice_system_prompt": True,
            "strip_thinking_response": True,
        },
    }
    kept = {"temperature": 0.2, "top_p": 0.9, "max_completion_tokens": 512, "stop": ["END"], "seed": 7}
    wire, _ = encrypt_request(body(**forbidden, **kept, stream_options={"include_usage": True, "x": 1}), SESSION)
    assert set(wire) == {"model", "messages", "stream", "stream_options", "venice_parameters", *kept}
    assert {k: wire[k] for k in kept} == kept
    assert wire["stream_options"] == {"include_usage": True}
    assert wire["venice_parameters"] == {"enable_e2ee": True, "include_venice_system_prompt": False}


def test_history_fields_that_would_leak_are_removed() -> None:
    messages = [
        {"role": "user", "content": "hi", "name": "ana"},
        {
            "role": "assistant",
            "content": "hello",
            "reasoning_content": "private thought",
            "reasoning": "private thought",
            "reasoning_details": [{"text": "private thought"}],
            "tool_calls": [],
        },
        {"role": "tool", "content": "result", "tool_call_id": "call_1", "name": "memory_insert"},
        {"role": "developer", "content": "be brief"},
    ]
    wire, _ = encrypt_request({"model": E2EE_MODEL, "messages": messages}, SESSION)
    assert [set(m) for m in wire["messages"]] == [
        {"role", "content"},
        {"role", "content"},
        {"role", "content", "tool_call_id"},
        {"role", "content"},
    ]
    assert wire["messages"][3]["role"] == "system"  # Venice knows no developer role
    assert "private thought" not in json.dumps(wire) and "ana" not in json.dumps(wire)
    assert opened(wire) == ["hi", "hello", "result", "be brief"]


def test_text_parts_are_flattened() -> None:
    parts = [{"type": "text", "text": "first"}, {"type": "text", "text": "second"}, "third"]
    wire, _ = encrypt_request({"model": E2EE_MODEL, "messages": [{"role": "user", "content": parts}]}, SESSION)
    assert isinstance(wire["messages"][0]["content"], str)
    assert opened(wire) == ["first\nsecond\nthird"]


@pytest.mark.parametrize("content", ["", None, []])
def test_empty_content_is_never_sent_empty(content: Any) -> None:
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": content}]
    wire, _ = encrypt_request({"model": E2EE_MODEL, "messages": messages}, SESSION)
    assert opened(wire) == ["hi", EMPTY_CONTENT] and EMPTY_CONTENT.strip() == ""


@pytest.mark.parametrize(
    ("messages", "check"),
    [
        ([{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:,"}}]}], "content_part"),
        ([{"role": "user", "content": [{"type": "file", "file": {}}]}], "content_part"),
        ([{"role": "user", "content": [{"type": "input_audio"}]}], "content_part"),
        ([{"role": "user", "content": "hi", "audio": {"id": "a"}}], "content_part"),
        ([{"role": "user", "content": {"text": "hi"}}], "content"),
        (
            [
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": "{}"}}],
                }
            ],
            "tool_calls",
        ),
        ([{"role": "assistant", "content": "", "function_call": {"name": "f", "arguments": "{}"}}], "tool_calls"),
        ([{"role": "wizard", "content": "hi"}], "role"),
        (["hi"], "message"),
        ([], "messages"),
        (None, "messages"),
    ],
)
def test_requests_that_cannot_be_encrypted_are_refused(messages: Any, check: str) -> None:
    with pytest.raises(RequestError) as err:
        encrypt_request({"model": E2EE_MODEL, "messages": messages}, SESSION)
    assert err.value.check == check and "Nothing was sent" in err.value.message
    assert "hi" not in err.value.message.split()


def test_refusal_names_the_part_and_what_to_do() -> None:
    with pytest.raises(RequestError) as err:
        encrypt_request(
            {"model": E2EE_MODEL, "messages": [{"role": "user", "content": [{"type": "image_url"}]}]}, SESSION
        )
    assert "image_url" in err.value.message and "text only" in err.value.message


def test_a_session_for_another_model_is_refused() -> None:
    with pytest.raises(RequestError) as err:
        encrypt_request(body(model="e2ee-glm-5-2-p"), SESSION)
    assert err.value.check == "model"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@given(st.dictionaries(st.sampled_from(["model", "messages", "tools", "stream", "temperature"]), json_values))
def test_any_body_is_encrypted_or_refused(data: dict[str, Any]) -> None:
    data = {"model": E2EE_MODEL, **data}
    try:
        wire, _ = encrypt_request(data, SESSION)
    except RequestError:
        return
    assert all(is_envelope(m["content"]) for m in wire["messages"])
