"""The envelope cryptography of Venice's end-to-end encryption (ECIES on secp256k1).

One string field travels as ``hex(ephemeral_pub(65) || nonce(12) || ciphertext || tag(16))``,
lowercase. The AES-256-GCM key is HKDF-SHA256 (no salt, info ``ecdsa_encryption``) of the
ECDH shared x-coordinate between the sender's ephemeral key and the recipient's key; no
associated data. Requests are encrypted to the model's attested key, replies to the client's
key. Keccak-256 (Ethereum's, not SHA3-256) gives the address a key is attested under.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict

from Crypto.Hash import keccak
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from .errors import ResponseError

CURVE = ec.SECP256K1()
HKDF_INFO = b"ecdsa_encryption"
PUBLIC_KEY_BYTES = 65  # uncompressed SEC1: 04 || X || Y
NONCE_BYTES = 12
TAG_BYTES = 16
MIN_ENVELOPE_BYTES = PUBLIC_KEY_BYTES + NONCE_BYTES + TAG_BYTES  # an empty plaintext
MIN_ENVELOPE_HEX = 2 * MIN_ENVELOPE_BYTES  # 186
_HEX = frozenset("0123456789abcdefABCDEF")


def public_bytes(key: ec.EllipticCurvePublicKey) -> bytes:
    return key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)


def load_public_key(raw: bytes) -> ec.EllipticCurvePublicKey:
    """A secp256k1 public key from 65 uncompressed bytes; ValueError unless it is a point on
    the curve."""
    if len(raw) != PUBLIC_KEY_BYTES or raw[0] != 0x04:
        raise ValueError(f"a public key must be 65 bytes starting with 04, got {len(raw)} bytes")
    return ec.EllipticCurvePublicKey.from_encoded_point(CURVE, raw)


def normalize_public_hex(value: str) -> str:
    """A public key as 130 lowercase hex characters ``04...``: accepts an optional ``0x`` and the
    128-character form without the leading ``04``. ValueError for anything else (not checked
    against the curve here)."""
    text = value.strip()
    if text[:2] in ("0x", "0X"):
        text = text[2:]
    if not text or not set(text) <= _HEX:
        raise ValueError("the public key is not hexadecimal")
    if len(text) == 128:
        text = "04" + text
    if len(text) != 130 or not text.startswith("04"):
        raise ValueError(f"a public key must be 128 or 130 hex characters (04...), got {len(text)}")
    return text.lower()


def keccak256(data: bytes) -> bytes:
    return keccak.new(digest_bits=256, data=data).digest()


def address_of(public_key: bytes) -> str:
    """The Ethereum address of an uncompressed public key: ``0x`` + the last 20 bytes of the
    Keccak-256 of X || Y, lowercase."""
    if len(public_key) != PUBLIC_KEY_BYTES:
        raise ValueError("an address is derived from a 65-byte uncompressed public key")
    return "0x" + keccak256(public_key[1:])[12:].hex()


def derive_key(private: ec.EllipticCurvePrivateKey, peer: ec.EllipticCurvePublicKey) -> bytes:
    """The AES-256 key both sides derive: HKDF-SHA256 of the shared x-coordinate."""
    shared = private.exchange(ec.ECDH(), peer)
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=HKDF_INFO).derive(shared)


def seal(
    plaintext: bytes,
    recipient: ec.EllipticCurvePublicKey,
    ephemeral: ec.EllipticCurvePrivateKey | None = None,
    nonce: bytes | None = None,
) -> bytes:
    """One envelope (raw bytes). A fresh ephemeral key and nonce unless given (given only to
    reproduce test vectors: reusing a nonce with the same key breaks GCM)."""
    ephemeral = ephemeral or ec.generate_private_key(CURVE)
    nonce = nonce if nonce is not None else os.urandom(NONCE_BYTES)
    if len(nonce) != NONCE_BYTES:
        raise ValueError("the nonce must be 12 bytes")
    key = derive_key(ephemeral, recipient)
    return public_bytes(ephemeral.public_key()) + nonce + AESGCM(key).encrypt(nonce, plaintext, None)


def encrypt_text(text: str, recipient: ec.EllipticCurvePublicKey) -> str:
    """One string field, encrypted to ``recipient`` as a lowercase hex envelope."""
    return seal(text.encode("utf-8"), recipient).hex()


def is_envelope(value: object) -> bool:
    """Whether ``value`` has an envelope's shape: a string of at least 186 hex characters, even
    length, starting with ``04`` (an uncompressed ephemeral key). Decryption decides the rest."""
    return (
        isinstance(value, str)
        and len(value) >= MIN_ENVELOPE_HEX
        and len(value) % 2 == 0
        and value[:2] == "04"
        and set(value) <= _HEX
    )


class _KeyCache:
    """Derived AES keys by sender ephemeral key, for one private key. Servers that reuse one
    ephemeral key for a whole reply would otherwise cost an ECDH per chunk; the cache is keyed
    by the exact ephemeral bytes, so a server that changes keys per chunk is handled the same."""

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._keys: OrderedDict[bytes, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, ephemeral: bytes) -> bytes | None:
        with self._lock:
            key = self._keys.get(ephemeral)
            if key is not None:
                self._keys.move_to_end(ephemeral)
            return key

    def put(self, ephemeral: bytes, key: bytes) -> None:
        with self._lock:
            self._keys[ephemeral] = key
            if len(self._keys) > self._size:
                self._keys.popitem(last=False)


class KeyPair:
    """A secp256k1 key pair whose private half lives only in this object's memory: it is never
    serialized, printed or pickled."""

    __slots__ = ("_cache", "_private", "public_hex", "public_key")

    def __init__(self, private: ec.EllipticCurvePrivateKey) -> None:
        if not isinstance(private.curve, ec.SECP256K1):
            raise ValueError("the key must be on secp256k1")
        self._private = private
        self.public_key = private.public_key()
        self.public_hex = public_bytes(self.public_key).hex()
        self._cache = _KeyCache()

    @classmethod
    def generate(cls) -> KeyPair:
        return cls(ec.generate_private_key(CURVE))

    @classmethod
    def from_secret(cls, secret: int) -> KeyPair:
        """From a known private scalar (test vectors, a server's fixed key)."""
        return cls(ec.derive_private_key(secret, CURVE))

    def __repr__(self) -> str:
        return f"KeyPair(public={self.public_hex[:10]}...)"

    def __reduce__(self) -> tuple[object, ...]:
        raise TypeError("a key pair holds a private key and is never serialized")

    def shared_key(self, ephemeral: bytes) -> bytes:
        """The AES key for envelopes a sender made with ``ephemeral`` (65 bytes)."""
        key = self._cache.get(ephemeral)
        if key is None:
            key = derive_key(self._private, load_public_key(ephemeral))
            self._cache.put(ephemeral, key)
        return key

    def open(self, envelope: bytes) -> bytes:
        """The plaintext of one raw envelope; ResponseError (check ``envelope`` or ``gcm``)
        when it is malformed or does not authenticate."""
        if len(envelope) < MIN_ENVELOPE_BYTES:
            raise ResponseError(
                "envelope",
                f"An encrypted field is too short to be an envelope ({len(envelope)} bytes, at least "
                f"{MIN_ENVELOPE_BYTES} needed); nothing from this reply is used. Send the message again.",
                reattest=True,
            )
        ephemeral = envelope[:PUBLIC_KEY_BYTES]
        nonce = envelope[PUBLIC_KEY_BYTES : PUBLIC_KEY_BYTES + NONCE_BYTES]
        try:
            key = self.shared_key(ephemeral)
        except ValueError:
            raise ResponseError(
                "envelope",
                "An encrypted field does not start with a valid secp256k1 public key; nothing from this reply is "
                "used. The next request verifies a fresh attestation; send the message again.",
                reattest=True,
            ) from None
        try:
            return AESGCM(key).decrypt(nonce, envelope[PUBLIC_KEY_BYTES + NONCE_BYTES :], None)
        except InvalidTag:
            raise ResponseError(
                "gcm",
                "An encrypted field of the reply failed authentication (AES-GCM): it was altered, or encrypted to "
                "another key; nothing from this reply is used. The next request verifies a fresh attestation; send "
                "the message again.",
                reattest=True,
            ) from None

    def decrypt_text(self, field: str) -> str:
        """The plaintext of one hex envelope field."""
        if not is_envelope(field):
            raise ResponseError(
                "envelope",
                "A field of the reply is not an envelope (hex, at least 186 characters, starting with 04); nothing "
                "from this reply is used. The next request verifies a fresh attestation; send the message again.",
                reattest=True,
            )
        try:
            return self.open(bytes.fromhex(field)).decode("utf-8")
        except UnicodeDecodeError:
            raise ResponseError(
                "utf8",
                "A field of the reply decrypted to bytes that are not UTF-8 text; nothing from this reply is used. "
                "Send the message again.",
                reattest=True,
            ) from None
