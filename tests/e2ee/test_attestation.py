"""Each offline attestation check, on answers the stand-in's builder writes and then breaks."""

from __future__ import annotations

import base64
import copy
import hashlib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from letta_tool_emulation.e2ee import AttestationError, KeyPair, new_nonce, verify_attestation
from letta_tool_emulation.runtime.standin.e2ee import FORMATS, MODEL_SECRET, attestation_payload, synthetic_quote

MODEL = "e2ee-qwen3-6-35b-a3b-uncensored-p"
KEYS = KeyPair.from_secret(MODEL_SECRET)
NONCE = new_nonce()


def payload(**formats: str) -> dict[str, Any]:
    return attestation_payload(MODEL, NONCE, KEYS, **formats)


def check_of(data: Any, nonce: str = NONCE, model: str = MODEL, status: int = 200) -> str:
    with pytest.raises(AttestationError) as err:
        verify_attestation(data, model=model, nonce=nonce, status=status)
    # Never key material beyond public identifiers, whatever failed.
    assert err.value.check in err.value.message
    assert "No chat request was sent" in err.value.message
    assert err.value.reattest
    return err.value.check


@pytest.mark.parametrize(
    "formats",
    [
        {},
        {"quote_location": "evidence"},
        {"quote_encoding": "base64"},
        {"quote_location": "evidence", "quote_encoding": "base64"},
        {"nonce_binding": "sha256"},
        {"key_form": "raw"},
        {"key_form": "0x"},
        {"address_case": "checksum"},
    ],
)
def test_valid_answers_in_every_shape_verify(formats: dict[str, str]) -> None:
    att = verify_attestation(payload(**formats), model=MODEL, nonce=NONCE)
    assert att.model == MODEL and att.nonce == NONCE
    assert att.model_public_key == KEYS.public_hex
    assert att.signing_address == "0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a"
    assert att.nonce_binding == formats.get("nonce_binding", "raw")
    assert att.tee_provider == "phala"


def test_every_format_option_is_covered() -> None:
    assert FORMATS.keys() == {"quote_location", "quote_encoding", "nonce_binding", "key_form", "address_case"}


def with_quote(data: dict[str, Any], change: Callable[[bytearray], None]) -> dict[str, Any]:
    quote = bytearray(bytes.fromhex(data["intel_quote"]))
    change(quote)
    data["intel_quote"] = data["quote"] = quote.hex()
    return data


def set_byte(offset: int, value: int) -> Callable[[bytearray], None]:
    def change(q: bytearray) -> None:
        q[offset] = value

    return change


def mutate(fn: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    data = copy.deepcopy(payload())
    result = fn(data)
    return result if isinstance(result, dict) else data


CASES: list[tuple[str, Callable[[dict[str, Any]], Any]]] = [
    ("verified", lambda d: d.update(verified=False)),
    ("verified", lambda d: d.update(verified="true")),
    ("verified", lambda d: d.pop("verified")),
    ("nonce", lambda d: d.update(nonce="00" * 32)),
    ("nonce", lambda d: d.update(request_nonce="00" * 32)),
    ("nonce", lambda d: [d.pop("nonce"), d.pop("request_nonce")]),
    ("nonce", lambda d: d.update(nonce=17)),
    ("model", lambda d: d.update(model="e2ee-glm-5-2-p")),
    ("model", lambda d: d.pop("model")),
    ("signing_algo", lambda d: d.update(signing_algo="ed25519")),
    ("signing_key", lambda d: [d.pop("signing_key"), d.pop("signing_public_key")]),
    ("signing_key", lambda d: d.update(signing_key=KeyPair.from_secret(5).public_hex)),
    ("key_format", lambda d: d.update(signing_key="04abc", signing_public_key="04abc")),
    ("key_format", lambda d: d.update(signing_key="zz" * 65, signing_public_key="zz" * 65)),
    ("key_format", lambda d: d.update(signing_key=["04"], signing_public_key=None)),
    ("key_format", lambda d: d.update(signing_key="05" + "00" * 64, signing_public_key="05" + "00" * 64)),
    ("key_on_curve", lambda d: d.update(signing_key="04" + "01" * 64, signing_public_key="04" + "01" * 64)),
    ("signing_address", lambda d: d.update(signing_address="0x" + "ab" * 20)),
    ("signing_address", lambda d: d.update(signing_address=12)),
    ("quote", lambda d: [d.pop("intel_quote"), d.pop("quote")]),
    ("quote", lambda d: d.update(intel_quote="not a quote!", quote="not a quote!")),
    ("quote", lambda d: d.update(quote=synthetic_quote(bytes(64)).hex())),
    ("quote", lambda d: d.update(intel_quote=123, quote=123)),
    ("quote_length", lambda d: d.update(intel_quote=d["intel_quote"][:1262], quote=d["intel_quote"][:1262])),
    ("quote_version", lambda d: with_quote(d, set_byte(0, 5))),
    ("quote_key_type", lambda d: with_quote(d, set_byte(2, 3))),
    ("quote_tee_type", lambda d: with_quote(d, set_byte(4, 0x00))),
    ("debug", lambda d: with_quote(d, set_byte(168, 0x01))),
    ("debug", lambda d: d.update(debug=True)),
    ("report_data_address", lambda d: with_quote(d, set_byte(568, 0xFF))),
    ("report_data_address", lambda d: with_quote(d, set_byte(590, 0x01))),  # the zero padding
    ("report_data_nonce", lambda d: with_quote(d, set_byte(631, 0x00 if NONCE[-2:] != "00" else 0x01))),
]


@pytest.mark.parametrize(("check", "change"), CASES, ids=[f"{c}-{i}" for i, (c, _) in enumerate(CASES)])
def test_each_check_fails_closed(check: str, change: Callable[[dict[str, Any]], Any]) -> None:
    assert check_of(mutate(change)) == check


def test_status_and_shape() -> None:
    assert check_of(payload(), status=500) == "http_status"
    assert check_of(["not", "an", "object"]) == "response"
    assert check_of(None) == "response"


def test_a_bad_nonce_argument_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        verify_attestation(payload(), model=MODEL, nonce="abc")


def test_debug_bit_is_only_bit_zero() -> None:
    # td_attributes carry other bits in real quotes (SEPT_VE_DISABLE at bit 28): not debug.
    data = with_quote(copy.deepcopy(payload()), set_byte(171, 0xFF))
    assert verify_attestation(data, model=MODEL, nonce=NONCE).model == MODEL


def test_quote_encodings_and_locations() -> None:
    quote = bytes.fromhex(payload()["intel_quote"])
    for text in (quote.hex(), "0x" + quote.hex(), quote.hex().upper(), base64.b64encode(quote).decode()):
        data = payload()
        data["intel_quote"] = data["quote"] = text
        assert verify_attestation(data, model=MODEL, nonce=NONCE).nonce == NONCE
    urlsafe = base64.urlsafe_b64encode(quote).decode().rstrip("=")
    data = payload()
    del data["intel_quote"], data["quote"]
    data["attestation"] = {"evidence": {"quote": urlsafe}}
    assert verify_attestation(data, model=MODEL, nonce=NONCE).nonce == NONCE


def test_sha256_nonce_binding_is_reported() -> None:
    att = verify_attestation(payload(nonce_binding="sha256"), model=MODEL, nonce=NONCE)
    assert att.nonce_binding == "sha256"
    assert hashlib.sha256(bytes.fromhex(NONCE)).digest() != bytes.fromhex(NONCE)


def test_messages_say_what_to_do_and_hold_no_quote() -> None:
    data = mutate(lambda d: with_quote(d, set_byte(168, 0x01)))
    with pytest.raises(AttestationError) as err:
        verify_attestation(data, model=MODEL, nonce=NONCE)
    message = err.value.message
    assert "debug" in message and MODEL in message and "Choose another model" in message
    assert data["intel_quote"][:64] not in message


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=15,
)
VALID = payload()
FIELDS = ["verified", "nonce", "request_nonce", "model", "signing_algo", "signing_key", "signing_public_key",
          "signing_address", "intel_quote", "quote", "attestation", "debug"]  # fmt: skip


@given(st.dictionaries(st.sampled_from(FIELDS), json_values))
def test_any_change_to_a_valid_answer_verifies_or_fails_by_name(changes: dict[str, Any]) -> None:
    data = {**VALID, **changes}
    try:
        att = verify_attestation(data, model=MODEL, nonce=NONCE)
    except AttestationError as exc:
        assert exc.check and exc.message
    else:  # only changes that keep every binding intact can pass
        assert att.model_public_key == KEYS.public_hex and att.nonce == NONCE


@given(json_values)
def test_any_json_fails_by_name(data: Any) -> None:
    with pytest.raises(AttestationError):
        verify_attestation(data, model=MODEL, nonce=NONCE)
