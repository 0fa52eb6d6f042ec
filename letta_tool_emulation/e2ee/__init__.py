"""End-to-end encryption for Venice's TEE models (``e2ee-*``), independent of any framework.

    cache = SessionCache(lambda model: fetch_attestation(base_url, model, api_key=key))
    session = await cache.get(model)                      # attests (fresh nonce) when needed
    body, headers = encrypt_request(openai_body, session)  # POST {base_url}/chat/completions
    for each SSE data event:  chunk = decrypt_event(data, session)   # None at [DONE]

Every failure is an ``E2EEError`` (see ``errors``) naming what failed; after one whose
``reattest`` is true, call ``cache.invalidate(model, session)``.
"""

from __future__ import annotations

from .attestation import Attestation, fetch_attestation, new_nonce, verify_attestation
from .crypto import KeyPair, address_of, is_envelope, keccak256
from .errors import (
    AttestationError,
    E2EEError,
    RejectedError,
    RequestError,
    ResponseError,
    StreamErrorObject,
    error_text,
    rejection_error,
    stream_error,
)
from .request import EMPTY_CONTENT, encrypt_request, flatten_content
from .response import decrypt_chunk, decrypt_event
from .session import DEFAULT_LIFETIME, MAX_LIFETIME, Session, SessionCache, new_session

__all__ = [
    "DEFAULT_LIFETIME",
    "EMPTY_CONTENT",
    "MAX_LIFETIME",
    "Attestation",
    "AttestationError",
    "E2EEError",
    "KeyPair",
    "RejectedError",
    "RequestError",
    "ResponseError",
    "Session",
    "SessionCache",
    "StreamErrorObject",
    "address_of",
    "decrypt_chunk",
    "decrypt_event",
    "encrypt_request",
    "error_text",
    "fetch_attestation",
    "flatten_content",
    "is_envelope",
    "keccak256",
    "new_nonce",
    "new_session",
    "rejection_error",
    "stream_error",
    "verify_attestation",
]
