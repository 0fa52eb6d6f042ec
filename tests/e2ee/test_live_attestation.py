"""Attestation against the live stand-in over HTTP: every fault it can produce is caught, by
name, before any chat request; every valid shape verifies."""

from __future__ import annotations

import httpx
import pytest

from letta_tool_emulation.e2ee import AttestationError, fetch_attestation
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, StandIn
from letta_tool_emulation.runtime.standin.catalog import E2EE_MODEL, E2EE_NATIVE_MODEL

from .conftest import KEY, cache_for, control, post_encrypted, records

FAULT_CHECKS = {
    "debug": "debug",
    "wrong_nonce": "report_data_nonce",
    "wrong_address": "signing_address",
    "wrong_report_address": "report_data_address",
    "missing_key": "signing_key",
    "unverified": "verified",
}


async def test_the_stand_in_attests_its_e2ee_models(live: StandIn) -> None:
    for model in (E2EE_MODEL, E2EE_NATIVE_MODEL):
        att = await fetch_attestation(live.url, model, api_key=KEY)
        assert att.model == model and att.model_public_key == control(live)["model_public_key"]
    assert control(live)["attestations"] == [E2EE_MODEL, E2EE_NATIVE_MODEL]


@pytest.mark.parametrize(
    "formats",
    [
        {"quote_location": "evidence"},
        {"quote_encoding": "base64", "nonce_binding": "sha256"},
        {"key_form": "raw", "address_case": "checksum"},
        {"key_form": "0x", "quote_location": "evidence", "quote_encoding": "base64"},
    ],
)
async def test_every_answer_shape_verifies(live: StandIn, formats: dict[str, str]) -> None:
    control(live, formats=formats)
    att = await fetch_attestation(live.url, E2EE_MODEL, api_key=KEY)
    assert att.nonce_binding == formats.get("nonce_binding", "raw")


@pytest.mark.parametrize("fault", sorted(FAULT_CHECKS))
async def test_each_attestation_fault_stops_before_any_chat_request(live: StandIn, fault: str) -> None:
    control(live, faults=[fault])
    cache = cache_for(live)
    with pytest.raises(AttestationError) as err:
        session = await cache.get(E2EE_MODEL)
        await post_encrypted(live, {"model": E2EE_MODEL, "messages": [{"role": "user", "content": "hi"}]}, session)
    assert err.value.check == FAULT_CHECKS[fault]
    assert f"'{FAULT_CHECKS[fault]}' check" in err.value.message and E2EE_MODEL in err.value.message
    assert control(live)["attestations"] == [E2EE_MODEL]
    assert records(live, E2EE_MODEL) == [] and not [r for r in live.requests if r.get("model") == E2EE_MODEL]
    assert cache.peek(E2EE_MODEL) is None  # nothing cached: the next request attests again
    control(live, faults=[])
    assert (await cache.get(E2EE_MODEL)).model == E2EE_MODEL


async def test_a_model_without_a_tee_is_refused(live: StandIn) -> None:
    with pytest.raises(AttestationError) as err:
        await fetch_attestation(live.url, EMULATED_MODEL, api_key=KEY)
    assert err.value.check == "unsupported_model" and err.value.status == 400
    assert "choose an e2ee-* model" in err.value.message


async def test_bad_nonces_are_refused_by_the_server(live: StandIn) -> None:
    url = live.url + "/tee/attestation"
    async with httpx.AsyncClient() as client:
        for nonce in ("ab" * 16, "zz" * 32, "ab" * 33):
            r = await client.get(url, params={"model": E2EE_MODEL, "nonce": nonce})
            assert r.status_code == 400 and "32 bytes" in r.json()["error"]
        r = await client.get(url, params={"model": E2EE_MODEL})
        assert r.status_code == 200 and r.json()["nonce_source"] == "server"


async def test_an_unreachable_server_is_a_transport_failure() -> None:
    with pytest.raises(AttestationError) as err:
        await fetch_attestation("http://127.0.0.1:9/v1", E2EE_MODEL, timeout=2)
    assert err.value.check == "transport" and "Check the network" in err.value.message


async def test_server_errors_are_named(live: StandIn) -> None:
    # An answer that is not an attestation at all: the models listing, through a wrong base URL.
    with pytest.raises(AttestationError) as err:
        await fetch_attestation(live.url + "/models", E2EE_MODEL, api_key=KEY)
    assert err.value.check in ("http_status", "response")
