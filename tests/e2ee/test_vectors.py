"""The protocol's published test vectors and the binding of a real captured attestation."""

from __future__ import annotations

import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from letta_tool_emulation.e2ee import AttestationError, KeyPair, address_of, keccak256, verify_attestation
from letta_tool_emulation.e2ee.crypto import CURVE, derive_key, seal
from letta_tool_emulation.runtime.standin.e2ee import synthetic_quote

# Third-party request envelope (a deterministic fixture with fixed ephemeral key and nonce).
RECIPIENT_PUB = (
    "044f355bdcb7cc0af728ef3cceb9615d90684bb5b2ca5f859ab0f0b704075871aa"
    "385b6b1b8ead809ca67454d9683fcf2ba03456d6fe2c4abe2b07f0fbdbb2f1c1"
)
REQUEST_AES_KEY = "41d8f5155ed5844867b9244accfb74b0dd6baa897e300a70e94a823032f9131f"
REQUEST_ENVELOPE = (
    "04466d7fcae563e5cb09a0d1870bb580344804617879a14949cf22285f1bae3f276728176c3c6431f8eeda4538dc37c865e2784f3a9e77"
    "d044f33e407797e1278aa0a1a2a3a4a5a6a7a8a9aaab3b364a6560dc6246955e1379bac6c7a0f453c5b2d9be6eabb00cad9955278b4c401f"
    "6793813d7f98ba8f163a5c51b87686"
)
# Response envelope: client key 33..33, server ephemeral 44..44.
CLIENT_PUB = (
    "043c72addb4fdf09af94f0c94d7fe92a386a7e70cf8a1d85916386bb2535c7b1b1"
    "3b306b0fe085665d8fc1b28ae1676cd3ad6e08eaeda225fe38d0da4de55703e0"
)
RESPONSE_ENVELOPE = (
    "042c0b7cf95324a07d05398b240174dc0c2be444d96b159aa6c7f7b1e668680991ae31a9c671a36543f46cea8fce6984608aa316aa0472"
    "a7eed08847440218cb2fb0b1b2b3b4b5b6b7b8b9babb372a8842b41f65ab75064c4a2daa334fdbeee23583537bdffbeda1946159be1d5352"
)
# A real attestation (model e2ee-venice-uncensored-24b-p, April 2026).
CAPTURED_KEY = (
    "04fe5d7b2035c5d93d987de113f68b439badf236acdaf18748052001d61534c256"
    "1477d72a4392533837c0e85fccfddaddcf779f294bae28c2ae68cb23b4334464"
)
CAPTURED_ADDRESS = "0x360284A13A148c37239211F36bb627B38abe2f67"
CAPTURED_NONCE = "d53d7c4fade378a6bcf9f815f0da9193da808656f5f5b26965922a170b5cbb97"
CAPTURED_REPORT_DATA = "360284a13a148c37239211f36bb627b38abe2f67" + "00" * 12 + CAPTURED_NONCE
CAPTURED_MODEL = "e2ee-venice-uncensored-24b-p"


def secret(byte: str) -> int:
    return int(byte * 32, 16)


def test_request_envelope_vector() -> None:
    recipient = KeyPair.from_secret(secret("11"))
    assert recipient.public_hex == RECIPIENT_PUB
    ephemeral = ec.derive_private_key(secret("22"), CURVE)
    assert derive_key(ephemeral, recipient.public_key).hex() == REQUEST_AES_KEY
    envelope = seal(
        b"deterministic Venice E2EE fixture", recipient.public_key, ephemeral, bytes.fromhex("a0a1a2a3a4a5a6a7a8a9aaab")
    )
    assert envelope.hex() == REQUEST_ENVELOPE
    assert recipient.decrypt_text(REQUEST_ENVELOPE) == "deterministic Venice E2EE fixture"


def test_response_envelope_vector() -> None:
    client = KeyPair.from_secret(secret("33"))
    assert client.public_hex == CLIENT_PUB
    assert len(RESPONSE_ENVELOPE) == 222
    assert client.decrypt_text(RESPONSE_ENVELOPE) == "Hello from the TEE"
    server_ephemeral = ec.derive_private_key(secret("44"), CURVE)
    remade = seal(b"Hello from the TEE", client.public_key, server_ephemeral, bytes.fromhex("b0b1b2b3b4b5b6b7b8b9babb"))
    assert remade.hex() == RESPONSE_ENVELOPE


def test_keccak_address_vector() -> None:
    assert address_of(bytes.fromhex(RECIPIENT_PUB)) == "0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a"
    # Keccak-256 is not SHA3-256 (different padding): the empty-input digests tell them apart.
    assert keccak256(b"").hex() == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
    assert keccak256(b"") != hashlib.sha3_256(b"").digest()


def test_captured_key_gives_the_captured_address() -> None:
    assert address_of(bytes.fromhex(CAPTURED_KEY)) == CAPTURED_ADDRESS.lower()


def captured_payload(report_data: str = CAPTURED_REPORT_DATA, **changes: object) -> dict[str, object]:
    quote = bytearray(synthetic_quote(bytes.fromhex(report_data)))
    payload: dict[str, object] = {
        "verified": True,
        "nonce": CAPTURED_NONCE,
        "request_nonce": CAPTURED_NONCE,
        "model": CAPTURED_MODEL,
        "signing_algo": "ecdsa",
        "signing_public_key": CAPTURED_KEY,
        "signing_address": CAPTURED_ADDRESS,
        "intel_quote": bytes(quote).hex(),
    }
    payload.update(changes)
    return payload


def test_captured_attestation_binding_verifies() -> None:
    # The capture's quote header (04000200 81000000) and td_attributes (0000001000000000),
    # with its report_data: the real key's address, 12 zero bytes, the nonce sent.
    payload = captured_payload()
    quote = bytes.fromhex(str(payload["intel_quote"]))
    assert quote[:8].hex() == "0400020081000000" and quote[168:176].hex() == "0000001000000000"
    attestation = verify_attestation(payload, model=CAPTURED_MODEL, nonce=CAPTURED_NONCE)
    assert attestation.model_public_key == CAPTURED_KEY
    assert attestation.signing_address == CAPTURED_ADDRESS.lower()
    assert attestation.nonce_binding == "raw"


def test_captured_binding_rejects_another_nonce() -> None:
    other = "00" * 32
    with pytest.raises(AttestationError) as err:
        verify_attestation(captured_payload(nonce=other, request_nonce=other), model=CAPTURED_MODEL, nonce=other)
    assert err.value.check == "report_data_nonce"


def test_captured_binding_rejects_another_key() -> None:
    payload = captured_payload(signing_public_key=RECIPIENT_PUB, signing_address=None)
    with pytest.raises(AttestationError) as err:
        verify_attestation(payload, model=CAPTURED_MODEL, nonce=CAPTURED_NONCE)
    assert err.value.check == "report_data_address"
