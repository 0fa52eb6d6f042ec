"""Decrypting the chunks of an end-to-end encrypted streamed reply, failing closed.

Each chunk is the JSON of one SSE ``data:`` event. ``choices[i].delta`` carries
``content``, ``reasoning_content`` and ``reasoning`` as envelopes encrypted to the client's
key, each with the server's ephemeral key in front (one per reply or one per chunk: read it
every time). Ids, roles, ``finish_reason`` and usage are plaintext and stay as they are.
A non-empty field that is not an envelope, an envelope that does not decrypt, native tool
calls (their arguments could not be encrypted) or an ``{"error": ...}`` object stop the reply.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .crypto import KeyPair, is_envelope
from .errors import ResponseError, stream_error
from .session import Session

ENCRYPTED_FIELDS = ("content", "reasoning_content", "reasoning")


def _plaintext(field: str) -> ResponseError:
    return ResponseError(
        "plaintext",
        f"The encrypted reply carried an unencrypted '{field}' field, so the server did not apply end-to-end "
        "encryption; nothing from this reply is used. The next request verifies a fresh attestation; send the "
        "message again, and if this persists, do not use the model end-to-end encrypted.",
        reattest=True,
    )


def _decrypt_delta(delta: Mapping[str, Any], keys: KeyPair) -> dict[str, Any]:
    out = dict(delta)
    for name in ENCRYPTED_FIELDS:
        value = delta.get(name)
        if value is None or value == "":
            continue
        if not is_envelope(value):
            raise _plaintext(f"delta.{name}")
        out[name] = keys.decrypt_text(value)
    if delta.get("tool_calls") or delta.get("function_call"):
        raise _plaintext("delta.tool_calls")
    if delta.get("refusal"):
        raise _plaintext("delta.refusal")
    return out


def decrypt_chunk(chunk: Mapping[str, Any], session: Session | KeyPair) -> dict[str, Any]:
    """The chunk with its encrypted fields decrypted (a new dict; the input is not changed).
    StreamErrorObject for a chunk that is an error object, ResponseError when it must not be
    trusted."""
    keys = session.keys if isinstance(session, Session) else session
    if not isinstance(chunk, Mapping):
        raise ResponseError(
            "chunk", "A chunk of the encrypted reply is not a JSON object; nothing from this reply is used."
        )
    if chunk.get("error") is not None:
        raise stream_error(chunk)
    out = dict(chunk)
    choices = chunk.get("choices")
    if choices is None:
        return out
    if not isinstance(choices, list):
        raise ResponseError(
            "chunk", "A chunk of the encrypted reply has malformed choices; nothing from this reply is used."
        )
    decrypted = []
    for choice in choices:
        if not isinstance(choice, Mapping):
            raise ResponseError(
                "chunk", "A chunk of the encrypted reply has a malformed choice; nothing from this reply is used."
            )
        choice = dict(choice)
        delta = choice.get("delta")
        if isinstance(delta, Mapping):
            choice["delta"] = _decrypt_delta(delta, keys)
        elif delta is not None:
            raise ResponseError(
                "chunk", "A chunk of the encrypted reply has a malformed delta; nothing from this reply is used."
            )
        if isinstance(choice.get("message"), Mapping):  # a complete message where a delta was expected
            choice["message"] = _decrypt_delta(choice["message"], keys)
        decrypted.append(choice)
    out["choices"] = decrypted
    return out


def decrypt_event(data: str, session: Session | KeyPair) -> dict[str, Any] | None:
    """``decrypt_chunk`` on the text of one SSE ``data:`` event; None for the final ``[DONE]``."""
    text = data.strip()
    if text == "[DONE]":
        return None
    try:
        chunk = json.loads(text)
    except ValueError:
        raise ResponseError(
            "chunk", "An event of the encrypted reply is not JSON; nothing from this reply is used."
        ) from None
    return decrypt_chunk(chunk, session)
