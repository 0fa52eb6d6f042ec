"""End-to-end encrypted models (Venice's ``e2ee-*``) through the proxy: the client speaks plain
OpenAI to the proxy on its own machine; the proxy attests the enclave, encrypts every message
to it and decrypts the reply, so no plaintext reaches the upstream."""

from __future__ import annotations

import json

import pytest
from openai import OpenAI

from letta_tool_emulation.runtime.standin import StandIn
from letta_tool_emulation.runtime.standin.catalog import E2EE_CONTEXT_TOKENS, E2EE_MODEL, E2EE_NATIVE_MODEL

from .conftest import MEMORY_TOOLS

SECRET = "locker-code-90210-walrus"


def only_envelopes(upstream: StandIn, model: str = E2EE_MODEL) -> None:
    records = [r for r in upstream.state.e2ee.records if r.model == model]
    assert records, "the model was asked"
    assert all(r.mode == "e2ee" and r.envelopes_only for r in records), records
    assert all(SECRET not in json.dumps(body) for body in upstream.requests)


@pytest.mark.parametrize("streamed", [False, True])
def test_an_e2ee_model_calls_tools_and_nothing_reaches_the_upstream_in_plaintext(
    sdk: OpenAI, upstream: StandIn, streamed: bool
) -> None:
    messages = [{"role": "user", "content": f"Remember that my locker code is {SECRET}"}]
    if streamed:
        with sdk.chat.completions.stream(model=E2EE_MODEL, messages=messages, tools=MEMORY_TOOLS) as stream:  # type: ignore[arg-type]
            final = stream.get_final_completion()
    else:
        final = sdk.chat.completions.create(model=E2EE_MODEL, messages=messages, tools=MEMORY_TOOLS)  # type: ignore[arg-type]
    (call,) = final.choices[0].message.tool_calls or []
    assert call.function.name == "memory_insert"
    assert json.loads(call.function.arguments) == {"label": "human", "new_string": f"my locker code is {SECRET}"}
    only_envelopes(upstream)


def test_without_tools_an_e2ee_request_is_still_encrypted(sdk: OpenAI, upstream: StandIn) -> None:
    r = sdk.chat.completions.create(model=E2EE_MODEL, messages=[{"role": "user", "content": f"Hello {SECRET}"}])
    assert r.choices[0].message.content == f"You said: Hello {SECRET}"
    only_envelopes(upstream)


def test_a_tee_model_with_native_tools_is_encrypted_and_emulated(sdk: OpenAI, upstream: StandIn) -> None:
    # Venice drops tools in end-to-end encrypted mode: the proxy emulates them there too.
    messages = [{"role": "user", "content": f"Remember that {SECRET}"}]
    r = sdk.chat.completions.create(model=E2EE_NATIVE_MODEL, messages=messages, tools=MEMORY_TOOLS)  # type: ignore[arg-type]
    assert [c.function.name for c in r.choices[0].message.tool_calls or []] == ["memory_insert"]
    only_envelopes(upstream, E2EE_NATIVE_MODEL)


def test_the_e2ee_models_are_listed_with_their_limits(sdk: OpenAI) -> None:
    models = {m.id: m.model_dump() for m in sdk.models.list()}
    assert models[E2EE_MODEL]["context_length"] == E2EE_CONTEXT_TOKENS
