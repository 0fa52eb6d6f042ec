"""Fetching a model's TEE attestation and verifying everything that can be checked offline.

``GET {base}/tee/attestation?model=<id>&nonce=<64 hex>`` answers with the model's public key
and an Intel TDX quote whose ``report_data`` binds that key's address and our fresh nonce.
Checked here, in order, each failure an ``AttestationError`` naming its check:

``http_status``, ``response``, ``verified``, ``nonce`` (echo), ``model``, ``signing_algo``,
``signing_key`` (present, consistent), ``key_format``, ``key_on_curve``, ``signing_address``
(Keccak-256 address of the key), ``quote`` (present, hex or base64, at the root or in
``attestation.evidence``), ``quote_length``, ``quote_version``, ``quote_key_type``,
``quote_tee_type``, ``debug``, ``report_data_address``, ``report_data_nonce``.

Not checked (needs online collateral): the quote's signature and Intel's certificate chain,
and the NVIDIA GPU evidence. Venice's own ``verified`` flag and ``server_verification`` say
Venice checked them; that is trusting Venice, which is why the offline checks come first.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from .crypto import address_of, load_public_key, normalize_public_hex
from .errors import AttestationError, error_text
from .tdx import ATTESTATION_KEY_ECDSA_P256, QUOTE_VERSION, TEE_TYPE_TDX, decode_quote, parse_quote

NONCE_BYTES = 32
DEFAULT_TIMEOUT = 30.0


@dataclass(frozen=True, slots=True)
class Attestation:
    """A verified attestation: the model's enclave key and what it was bound to."""

    model: str
    model_public_key: str  # 130 lowercase hex, 04...
    signing_address: str  # 0x + 40 lowercase hex, derived from the key
    nonce: str  # the 64 hex characters sent
    nonce_binding: str  # "raw" or "sha256": how report_data carries the nonce
    mrtd: str  # the TD's measurement (hex), for audit logs
    tee_provider: str | None = None


def new_nonce() -> str:
    """32 fresh random bytes as 64 hex characters."""
    return secrets.token_hex(NONCE_BYTES)


def _fail(check: str, model: str, what: str, todo: str, status: int | None = None) -> AttestationError:
    return AttestationError(
        check,
        f"The attestation of {model} failed the '{check}' check: {what} No chat request was sent to it. {todo}",
        status=status,
    )


_RETRY = "Try again later; if it keeps failing, choose another model."
_DONT_TRUST = (
    "Do not use this model end-to-end encrypted until its attestation verifies; try again later or choose another "
    "model."
)


def _shown(value: Any, limit: int = 80) -> str:
    """A value from the answer, for a message: quoted and short (the server chooses it)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _hex_text(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    text = value.strip().lower()
    return text[2:] if text.startswith("0x") else text


def _quotes(payload: Mapping[str, Any]) -> list[Any]:
    found = [payload.get("intel_quote"), payload.get("quote")]
    wrapper = payload.get("attestation")
    evidence = wrapper.get("evidence") if isinstance(wrapper, Mapping) else None
    if isinstance(evidence, Mapping):
        found.append(evidence.get("quote"))
    return [q for q in found if q is not None]


def verify_attestation(payload: Any, *, model: str, nonce: str, status: int = 200) -> Attestation:
    """The verified attestation in ``payload`` (the JSON of the answer), for ``model`` and the
    ``nonce`` (64 hex) sent; AttestationError naming the first check that failed."""
    sent = _hex_text(nonce)
    if sent is None or len(sent) != 2 * NONCE_BYTES or not all(c in "0123456789abcdef" for c in sent):
        raise ValueError("the nonce must be 32 bytes as 64 hex characters")
    if status != 200:
        raise _fail("http_status", model, f"the server answered HTTP {status}, not 200.", _RETRY, status)
    if not isinstance(payload, Mapping):
        raise _fail("response", model, "the answer is not a JSON object.", _RETRY)
    if payload.get("verified") is not True:
        raise _fail("verified", model, "the server does not report the attestation as verified.", _DONT_TRUST)

    echoes = [payload[k] for k in ("nonce", "request_nonce") if k in payload]
    if not echoes or any(_hex_text(e) != sent for e in echoes):
        raise _fail(
            "nonce",
            model,
            f"the answer does not echo the nonce sent ({sent}), so it may be a replayed attestation.",
            _DONT_TRUST,
        )
    if payload.get("model") != model:
        said = payload.get("model")
        raise _fail(
            "model",
            model,
            f"the answer attests {_shown(said)}, not {model!r}."
            if isinstance(said, str)
            else "the answer names no model.",
            _DONT_TRUST,
        )
    algo = payload.get("signing_algo")
    if algo is not None and algo != "ecdsa":
        raise _fail(
            "signing_algo",
            model,
            f"the enclave's key uses {_shown(algo)}; only 'ecdsa' (secp256k1) is supported.",
            "Update the plugin, or choose another model.",
        )

    keys = [payload[k] for k in ("signing_key", "signing_public_key") if payload.get(k) not in (None, "")]
    if not keys:
        raise _fail(
            "signing_key",
            model,
            "the answer has no signing key, so requests cannot be encrypted to this model's enclave.",
            "This model cannot be used end-to-end encrypted now; choose another model or try again later.",
        )
    try:
        normalized = {normalize_public_hex(k) if isinstance(k, str) else "" for k in keys}
        if "" in normalized:
            raise ValueError("the key is not a string")
    except ValueError as exc:
        raise _fail("key_format", model, f"the signing key is malformed ({exc}).", _DONT_TRUST) from None
    if len(normalized) != 1:
        raise _fail("signing_key", model, "signing_key and signing_public_key name different keys.", _DONT_TRUST)
    key_hex = normalized.pop()
    try:
        load_public_key(bytes.fromhex(key_hex))
    except ValueError:
        raise _fail(
            "key_on_curve", model, f"the signing key {key_hex} is not a point on secp256k1.", _DONT_TRUST
        ) from None
    address = address_of(bytes.fromhex(key_hex))
    claimed = payload.get("signing_address")
    if claimed is not None and (not isinstance(claimed, str) or _hex_text(claimed) != address[2:]):
        raise _fail(
            "signing_address",
            model,
            f"the signing address {_shown(claimed)} is not the Keccak-256 address of the signing key ({address}).",
            _DONT_TRUST,
        )

    quotes = _quotes(payload)
    if not quotes:
        raise _fail("quote", model, "the answer carries no TDX quote.", _DONT_TRUST)
    decoded = {decode_quote(q) if isinstance(q, str) else None for q in quotes}
    if None in decoded:
        raise _fail("quote", model, "the TDX quote is neither hex nor base64.", _DONT_TRUST)
    if len(decoded) != 1:
        raise _fail("quote", model, "the answer carries two different TDX quotes.", _DONT_TRUST)
    raw = decoded.pop()
    assert raw is not None
    try:
        quote = parse_quote(raw)
    except ValueError as exc:
        raise _fail("quote_length", model, f"the TDX quote is truncated ({exc}).", _DONT_TRUST) from None
    if quote.version != QUOTE_VERSION:
        raise _fail(
            "quote_version",
            model,
            f"the quote has version {quote.version}; only version {QUOTE_VERSION} is understood.",
            "Update the plugin, or choose another model.",
        )
    if quote.key_type != ATTESTATION_KEY_ECDSA_P256:
        raise _fail(
            "quote_key_type", model, f"the quote's attestation key type is {quote.key_type}, not 2.", _DONT_TRUST
        )
    if quote.tee_type != TEE_TYPE_TDX:
        raise _fail(
            "quote_tee_type", model, f"the quote's TEE type is {quote.tee_type:#x}, not 0x81 (TDX).", _DONT_TRUST
        )
    if quote.debug or payload.get("debug") is True:
        raise _fail(
            "debug",
            model,
            "the enclave runs in debug mode, so its host can read its memory and the encryption protects nothing.",
            "Choose another model, or try again later.",
        )

    report = quote.report_data
    if report[:20] != bytes.fromhex(address[2:]) or any(report[20:32]):
        raise _fail(
            "report_data_address",
            model,
            "the quote's report_data does not bind the signing key's address (expected the address and 12 zero "
            "bytes; a TLS-bound report_data is not supported), so the key may not belong to the enclave.",
            _DONT_TRUST,
        )
    raw_nonce = bytes.fromhex(sent)
    if report[32:] == raw_nonce:
        binding = "raw"
    elif report[32:] == hashlib.sha256(raw_nonce).digest():
        binding = "sha256"
    else:
        raise _fail(
            "report_data_nonce",
            model,
            "the quote's report_data does not contain the nonce sent (nor its SHA-256), so the quote may be replayed.",
            _DONT_TRUST,
        )
    provider = payload.get("tee_provider")
    return Attestation(
        model=model,
        model_public_key=key_hex,
        signing_address=address,
        nonce=sent,
        nonce_binding=binding,
        mrtd=quote.mrtd.hex(),
        tee_provider=provider if isinstance(provider, str) else None,
    )


async def fetch_attestation(
    base_url: str,
    model: str,
    *,
    api_key: str | None = None,
    client: httpx.AsyncClient | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> Attestation:
    """Fetch ``{base_url}/tee/attestation`` for ``model`` with a fresh nonce and verify it.
    AttestationError for every failure: the network, the HTTP status, each check."""
    nonce = new_nonce()
    url = base_url.rstrip("/") + "/tee/attestation"
    headers = {"Accept": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    try:
        if client is None:
            async with httpx.AsyncClient(timeout=timeout) as own:
                response = await own.get(url, params={"model": model, "nonce": nonce}, headers=headers)
        else:
            response = await client.get(url, params={"model": model, "nonce": nonce}, headers=headers, timeout=timeout)
    except httpx.HTTPError as exc:
        raise _fail(
            "transport",
            model,
            f"the attestation could not be fetched ({type(exc).__name__}).",
            "Check the network and the provider's base URL, then send the message again.",
        ) from None
    try:
        payload = response.json()
    except ValueError:
        payload = None
    if response.status_code != 200:
        raise _status_failure(model, response.status_code, payload if payload is not None else response.text)
    if payload is None:
        raise _fail("response", model, "the answer is not JSON.", _RETRY)
    return verify_attestation(payload, model=model, nonce=nonce)


def _status_failure(model: str, status: int, body: Any) -> AttestationError:
    said = error_text(body)
    low = said.lower()
    what = f"the server answered HTTP {status}" + (f" ({said})." if said else ".")
    if "does not support tee" in low or "not support attestation" in low:
        return _fail(
            "unsupported_model",
            model,
            what,
            "This model has no TEE: choose an e2ee-* model, or turn end-to-end encryption off for this agent.",
            status,
        )
    if "nonce" in low and status in (400, 502):
        return _fail("nonce_format", model, what, "This is a bug in the client; report it.", status)
    if status in (401, 403):
        return _fail("http_status", model, what, "Check the API key (VENICE_API_KEY).", status)
    if status == 429:
        return _fail("http_status", model, what, "Too many attestation requests: wait a minute and try again.", status)
    if "tee_attestation_failed" in low or status in (502, 503, 504):
        return _fail(
            "unavailable",
            model,
            what + " The TEE provider may be temporarily unavailable.",
            "Send the message again in a little while.",
            status,
        )
    return _fail("http_status", model, what, _RETRY, status)
