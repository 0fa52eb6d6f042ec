"""Envelopes: round trips, shape detection, and hostile input that must fail closed."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from letta_tool_emulation.e2ee import KeyPair, ResponseError, is_envelope
from letta_tool_emulation.e2ee.crypto import MIN_ENVELOPE_HEX, encrypt_text, normalize_public_hex

CLIENT = KeyPair.generate()
OTHER = KeyPair.generate()


@given(st.text(max_size=400))
def test_round_trip(text: str) -> None:
    envelope = encrypt_text(text, CLIENT.public_key)
    assert is_envelope(envelope) and envelope == envelope.lower()
    assert len(envelope) == 2 * (65 + 12 + len(text.encode()) + 16)
    assert CLIENT.decrypt_text(envelope) == text


def test_fresh_ephemeral_and_nonce_each_time() -> None:
    a, b = encrypt_text("same", CLIENT.public_key), encrypt_text("same", CLIENT.public_key)
    assert a[:130] != b[:130] and a[130:154] != b[130:154]


def test_wrong_key_fails_authentication() -> None:
    with pytest.raises(ResponseError) as err:
        OTHER.decrypt_text(encrypt_text("secret words", CLIENT.public_key))
    assert err.value.check == "gcm" and err.value.reattest
    assert "secret words" not in err.value.message


@pytest.mark.parametrize("position", [1, 64, 70, 80, -1])  # ephemeral key (x, y), nonce, ciphertext, tag
def test_any_flipped_bit_fails_closed(position: int) -> None:
    raw = bytearray(bytes.fromhex(encrypt_text("attack at dawn", CLIENT.public_key)))
    raw[position] ^= 0x01
    with pytest.raises(ResponseError) as err:
        CLIENT.decrypt_text(raw.hex())
    assert err.value.check in ("gcm", "envelope")


def test_truncations_fail_closed() -> None:
    envelope = encrypt_text("hello there", CLIENT.public_key)
    for cut in (0, 2, 130, 154, MIN_ENVELOPE_HEX - 2, MIN_ENVELOPE_HEX, len(envelope) - 2):
        with pytest.raises(ResponseError):
            CLIENT.decrypt_text(envelope[:cut])


def test_non_utf8_plaintext_fails_closed() -> None:
    from letta_tool_emulation.e2ee.crypto import seal

    with pytest.raises(ResponseError) as err:
        CLIENT.decrypt_text(seal(b"\xff\xfe", CLIENT.public_key).hex())
    assert err.value.check == "utf8"


@given(st.text(max_size=600))
def test_any_text_fails_closed(text: str) -> None:
    try:
        CLIENT.decrypt_text(text)
    except ResponseError as exc:
        assert exc.check in ("envelope", "gcm", "utf8")
    else:  # only a real envelope to this key can decrypt; random text never is one
        raise AssertionError("random text decrypted")


@given(st.binary(min_size=0, max_size=300))
def test_any_bytes_fail_closed(raw: bytes) -> None:
    with pytest.raises(ResponseError):
        CLIENT.decrypt_text(("04" + raw.hex()) if raw else "")


def test_huge_field_fails_closed_in_linear_time() -> None:
    huge = "04" + "ab" * 2_000_000  # 4 MB of hex that is not an envelope to this key
    with pytest.raises(ResponseError):
        CLIENT.decrypt_text(huge)
    assert not is_envelope("04" + "zz" * 2_000_000)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("04" + "a" * 184, True),
        ("04" + "A" * 184, True),
        ("04" + "a" * 182, False),  # too short
        ("04" + "a" * 185, False),  # odd
        ("03" + "a" * 184, False),  # not an uncompressed key
        ("04" + "g" * 184, False),
        ("", False),
        (None, False),
        (123, False),
        (b"04" + b"a" * 184, False),
    ],
)
def test_is_envelope(value: object, expected: bool) -> None:
    assert is_envelope(value) is expected


def test_private_keys_stay_in_memory() -> None:
    keys = KeyPair.generate()
    assert keys.public_hex[:10] in repr(keys) and len(repr(keys)) < 40
    with pytest.raises(TypeError):
        pickle.dumps(keys)
    with pytest.raises(TypeError):
        copy.deepcopy(keys)


def test_public_key_forms() -> None:
    key = CLIENT.public_hex
    assert normalize_public_hex(key) == key
    assert normalize_public_hex("0x" + key.upper()) == key
    assert normalize_public_hex(key[2:]) == key
    for bad in ("", "0x", "04", key[:-4], key + "00", "05" + key[2:], "zz" + key[2:]):
        with pytest.raises(ValueError):
            normalize_public_hex(bad)
