"""Every way an end-to-end encrypted exchange can fail, as a few exception types.

Each error carries ``check``, a stable name for what failed (an attestation check such as
``"debug"`` or ``"report_data_nonce"``, or a failure such as ``"gcm"``), a ``message`` that
says what happened and what to do, and ``reattest``: True when the session that was used must
not be used again, so that the next request fetches and verifies a fresh attestation (with a
new client key pair). Messages never contain private keys, symmetric keys, envelopes or
plaintext; at most public identifiers (model ids, public keys, addresses, nonces, lengths).

Which failures call for a new attestation (``reattest``):

- every ``AttestationError`` (nothing is cached after a failed attestation anyway);
- ``ResponseError`` with check ``gcm``, ``envelope``, ``utf8`` or ``plaintext``: the reply was
  not encrypted to our key the way the attested enclave would, so the session is suspect;
- ``RejectedError`` with check ``server_decryption``, ``model_key_mismatch``, ``public_key``
  or ``headers``: the enclave could not use the keys we sent (another instance, a rotated key);
- ``StreamErrorObject`` when the error names a key or decryption problem.

The others (a request that cannot be encrypted, streaming required, an overloaded model)
leave the session as it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any


class E2EEError(Exception):
    """Base of every end-to-end encryption failure."""

    def __init__(self, check: str, message: str, *, reattest: bool = False, status: int | None = None) -> None:
        super().__init__(message)
        self.check = check
        self.message = message
        self.reattest = reattest
        self.status = status

    def __repr__(self) -> str:
        return f"{type(self).__name__}(check={self.check!r}, message={self.message!r})"


class AttestationError(E2EEError):
    """The model's attestation could not be fetched or failed a check: no chat request may be
    sent to that model with it."""

    def __init__(self, check: str, message: str, *, status: int | None = None) -> None:
        super().__init__(check, message, reattest=True, status=status)


class RequestError(E2EEError):
    """The chat request cannot be sent end-to-end encrypted as it is (nothing was sent)."""


class RejectedError(E2EEError):
    """The server refused an encrypted chat request (an HTTP error answer)."""


class ResponseError(E2EEError):
    """The streamed reply failed closed: a field did not decrypt, or came back in plaintext."""


class StreamErrorObject(E2EEError):
    """The server sent ``{"error": ...}`` in the middle of an encrypted stream."""


# -- classifying server answers ----------------------------------------------------------------

_MAX_SAID = 200
# Long hex runs in a server's message are envelopes or keys: never repeat them.
_HEX_RUN = re.compile(r"(?:0x)?[0-9a-fA-F]{40,}")


def error_text(body: Any) -> str:
    """The message of an error body, in either of Venice's shapes: ``{"error": "..."}`` or
    ``{"error": {"message", "type", "code"}}``; shortened, with long hex runs elided."""
    text = ""
    if isinstance(body, Mapping):
        err = body.get("error", body.get("message"))
        if isinstance(err, Mapping):
            parts = [err.get("message"), err.get("code"), err.get("type")]
            text = " ".join(str(p) for p in parts if isinstance(p, str | int) and str(p))
        elif err is not None:
            text = str(err)
    elif isinstance(body, str | bytes):
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    text = _HEX_RUN.sub("<hex>", " ".join(text.split()))
    return text if len(text) <= _MAX_SAID else text[: _MAX_SAID - 3] + "..."


# (substring of the server's text, lower-cased) -> (check, what it means and what to do, reattest)
_CHAT_REJECTIONS: tuple[tuple[tuple[str, ...], str, str, bool], ...] = (
    (
        ("not valid hex", "must be hex"),
        "plaintext_field",
        "The enclave received a message field that was not encrypted, and refused the request. Nothing was "
        "answered. This is a bug in the client's encryption; report it.",
        False,
    ),
    (
        ("model_key_mismatch", "does not match this proxy", "model pub key does not match", "model public key"),
        "model_key_mismatch",
        "The model's enclave has a different key than the attested one (another instance, or a rotated key). "
        "The next request verifies a fresh attestation; send the message again.",
        True,
    ),
    (
        ("decryption failed", "failed to decrypt", "e2ee_decryption_failed", "aes-gcm"),
        "server_decryption",
        "The model's enclave could not decrypt the request: its key has probably changed since it was attested. "
        "The next request verifies a fresh attestation; send the message again.",
        True,
    ),
    (
        ("not valid utf-8",),
        "utf8",
        "The enclave decrypted a message that was not valid UTF-8 and refused the request. This is a bug in "
        "the client's encryption; report it.",
        False,
    ),
    (
        ("requires streaming",),
        "streaming",
        "The server refused an encrypted request that was not streamed. Encrypted requests must be sent with "
        "stream: true; this is a bug in the client.",
        False,
    ),
    (
        ("invalid public key", "public key must be", "invalid_public_key"),
        "public_key",
        "The server refused the public key sent with the request. The next request uses a new key pair and a "
        "fresh attestation; send the message again.",
        True,
    ),
    (
        ("unsupported signing algorithm",),
        "signing_algo",
        "The server refused the signing algorithm of the request (only 'ecdsa' is known). Nothing was answered; "
        "the server's end-to-end encryption protocol may have changed: update the plugin.",
        False,
    ),
    (
        ("invalid e2ee headers",),
        "headers",
        "The server refused the request's end-to-end encryption headers. The next request uses a fresh "
        "attestation; if this persists, the server's protocol may have changed: update the plugin.",
        True,
    ),
    (
        ("does not support e2ee", "does not support end-to-end", "e2ee is not supported", "e2ee is only supported"),
        "unsupported",
        "The server says this model or endpoint does not support end-to-end encryption. Choose an e2ee-* model, "
        "or use TEE-only plaintext mode for this model on purpose.",
        False,
    ),
)


def rejection_error(status: int, body: Any) -> RejectedError | None:
    """The ``RejectedError`` for an HTTP error answer to an encrypted chat request, or None when
    the answer is not about end-to-end encryption (rate limits, credits, overloads: handle those
    like any other request's errors)."""
    said = error_text(body)
    low = said.lower()
    for needles, check, meaning, reattest in _CHAT_REJECTIONS:
        if any(n in low for n in needles):
            suffix = f" (HTTP {status}; the server said: {said})" if said else f" (HTTP {status})"
            return RejectedError(check, meaning + suffix, reattest=reattest, status=status)
    return None


def stream_error(obj: Any) -> StreamErrorObject:
    """The error for a ``{"error": ...}`` object found in an encrypted stream."""
    said = error_text(obj)
    low = said.lower()
    keyish = any(n in low for n in ("decrypt", "key", "e2ee", "encrypt"))
    what = f" The server said: {said}" if said else ""
    if keyish:
        message = (
            "The encrypted reply stopped with an error about its keys or encryption; nothing from it is used."
            f"{what} The next request verifies a fresh attestation; send the message again."
        )
    else:
        message = (
            "The encrypted reply stopped with an error from the server; nothing from it is used."
            f"{what} Send the message again; if the model is overloaded, wait a little first."
        )
    return StreamErrorObject("stream_error", message, reattest=keyish)
