"""The stand-in's TEE side: attestation, end-to-end encrypted chat, TEE-only plaintext mode.

It behaves like Venice in front of a Phala/NEAR enclave proxy (see the protocol notes):

- ``GET /v1/tee/attestation?model=&nonce=``: 400 for models without a TEE and for nonces
  that are not 32 bytes; else a verified attestation whose synthetic TDX v4 quote binds the
  model key's address and the nonce in ``report_data`` (its signature would not verify
  online: none is made);
- chat with all three ``X-Venice-TEE-*`` headers on an e2ee model: algorithm, client key and
  model key checked, ``stream: true`` required, every message content must be an envelope
  that decrypts to this model's key, ``tools`` dropped silently; the reply (from the same
  script and rules as plaintext replies) streams back with every content field encrypted to
  the client's key, one ephemeral key per reply and one per chunk in alternate replies;
- without the headers (or with ``enable_e2ee: false``): TEE-only plaintext mode, with native
  tools for models that support them; with only the client-key header: plaintext too, as
  Venice was seen to do.

Every chat request to a TEE model is recorded with whether all its content fields were
envelopes. Faults and answer formats are switched through ``POST /_control/e2ee``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import struct
import threading
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...e2ee.crypto import CURVE, KeyPair, address_of, is_envelope, keccak256, load_public_key, normalize_public_hex
from ...e2ee.crypto import seal as seal_envelope
from ...e2ee.errors import E2EEError
from .catalog import EMULATED_MODEL, NATIVE_MODEL, model_catalog, tee_models
from .validation import Invalid, validate

MODEL_SECRET = int("11" * 32, 16)  # the enclave's fixed key: its address is a well-known test vector
OTHER_SECRET = int("12" * 32, 16)  # someone else's key, for the address faults
QUOTE_BYTES = 5006  # the size of a real quote
TEE_HEADERS = {"x-venice-tee": "true", "x-venice-tee-provider": "phala"}

ATTESTATION_FAULTS = frozenset(
    {"debug", "wrong_nonce", "wrong_address", "wrong_report_address", "missing_key", "unverified"}
)
STREAM_FAULTS = frozenset({"plaintext_chunk", "tampered_tag", "midstream_error"})
FAULTS = ATTESTATION_FAULTS | STREAM_FAULTS
# How an attestation answer is written, all valid: where the quote is, how it is encoded, how the
# nonce is bound, how the key and the address are spelled.
FORMATS: dict[str, tuple[str, ...]] = {
    "quote_location": ("root", "evidence"),
    "quote_encoding": ("hex", "base64"),
    "nonce_binding": ("raw", "sha256"),
    "key_form": ("04", "raw", "0x"),
    "address_case": ("lower", "checksum"),
}
ENCRYPTED_FIELDS = ("content", "reasoning_content", "reasoning")
_NONCE = re.compile(r"[0-9a-fA-F]{64}")
_HEX = re.compile(r"[0-9a-fA-F]*")


@dataclass
class Record:
    """One chat request to a TEE model, as received."""

    model: str
    mode: str  # "e2ee", "tee" (plaintext, no headers) or "client-key-only" (plaintext)
    envelopes: int  # content fields that were envelopes
    plaintext: int  # content fields (or native tool calls) that were not
    status: int = 200
    ephemeral: str = ""  # "reply" or "chunk": how the encrypted reply was keyed

    @property
    def envelopes_only(self) -> bool:
        return self.plaintext == 0 and self.envelopes > 0


@dataclass
class E2EEState:
    keys: KeyPair = field(default_factory=lambda: KeyPair.from_secret(MODEL_SECRET))
    faults: set[str] = field(default_factory=set)
    formats: dict[str, str] = field(default_factory=lambda: {k: v[0] for k, v in FORMATS.items()})
    records: list[Record] = field(default_factory=list)
    attestations: list[str] = field(default_factory=list)  # the models attested, in order
    replies: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def reset(self) -> None:
        with self.lock:
            self.keys = KeyPair.from_secret(MODEL_SECRET)
            self.faults.clear()
            self.formats = {k: v[0] for k, v in FORMATS.items()}
            self.records.clear()
            self.attestations.clear()
            self.replies = 0

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            return {
                "model_public_key": self.keys.public_hex,
                "faults": sorted(self.faults),
                "formats": dict(self.formats),
                "attestations": list(self.attestations),
                "records": [{**asdict(r), "envelopes_only": r.envelopes_only} for r in self.records],
            }


# -- attestation ---------------------------------------------------------------------------------


def _checksum_address(address: str) -> str:
    """EIP-55 mixed case, as some servers write addresses."""
    digits = address[2:].lower()
    digest = keccak256(digits.encode()).hex()
    return "0x" + "".join(c.upper() if int(h, 16) >= 8 else c for c, h in zip(digits, digest[:40], strict=True))


def synthetic_quote(report_data: bytes, *, debug: bool = False) -> bytes:
    """A TDX v4 quote with the given report_data; filler where a real one has its signature."""
    quote = bytearray(QUOTE_BYTES)
    struct.pack_into("<HHI", quote, 0, 4, 2, 0x81)
    quote[168:176] = bytes.fromhex("0000001000000000")  # SEPT_VE_DISABLE, as in a real capture; debug bit 0
    if debug:
        quote[168] |= 0x01
    quote[184:232] = hashlib.sha384(b"stand-in TD measurement").digest()
    quote[568:632] = report_data
    filler = hashlib.sha256(b"stand-in quote signature").digest()
    quote[632:] = (filler * (len(quote) // 32 + 1))[: len(quote) - 632]
    return bytes(quote)


def attestation_payload(
    model: str, nonce: str, keys: KeyPair, faults: frozenset[str] | set[str] = frozenset(), **formats: str
) -> dict[str, Any]:
    """The answer to ``GET /tee/attestation`` for ``model`` and ``nonce`` (64 hex)."""
    fmt = {k: v[0] for k, v in FORMATS.items()} | formats
    key = bytes.fromhex(keys.public_hex)
    address = address_of(key)
    other = address_of(bytes.fromhex(KeyPair.from_secret(OTHER_SECRET).public_hex))
    raw_nonce = bytes.fromhex(nonce)
    bound = hashlib.sha256(raw_nonce).digest() if fmt["nonce_binding"] == "sha256" else raw_nonce
    if "wrong_nonce" in faults:
        bound = hashlib.sha256(b"another nonce" + raw_nonce).digest()
    report_address = other if "wrong_report_address" in faults else address
    report_data = bytes.fromhex(report_address[2:]) + bytes(12) + bound
    quote = synthetic_quote(report_data, debug="debug" in faults)
    quote_text = base64.b64encode(quote).decode() if fmt["quote_encoding"] == "base64" else quote.hex()
    key_text = {"04": key.hex(), "raw": key[1:].hex(), "0x": "0x" + key.hex()}[fmt["key_form"]]
    shown = other if "wrong_address" in faults else address
    payload: dict[str, Any] = {
        "verified": "unverified" not in faults,
        "nonce": nonce,
        "request_nonce": nonce,
        "nonce_source": "client",
        "model": model,
        "upstream_model": f"phala/{model.removeprefix('e2ee-')}",
        "tee_provider": "phala",
        "tee_hardware": "intel-tdx",
        "signing_algo": "ecdsa",
        "signing_address": _checksum_address(shown) if fmt["address_case"] == "checksum" else shown,
        "nvidia_payload": json.dumps({"nonce": nonce, "evidence_list": [], "arch": "HOPPER"}),
        "server_verification": {
            "tdx": {"valid": True, "reportData": report_data.hex()},
            "signingAddressBinding": {"bound": True, "reportDataAddress": report_address},
            "nonceBinding": {"bound": True, "method": fmt["nonce_binding"]},
            "verifiedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        },
    }
    if "missing_key" not in faults:
        payload["signing_key"] = payload["signing_public_key"] = key_text
    if fmt["quote_location"] == "evidence":
        payload["api_version"] = "aci/1"
        payload["debug"] = "debug" in faults
        payload["attestation"] = {
            "tee_type": "tdx",
            "evidence": {"quote": quote_text, "quote_report_data": report_data.hex()},
        }
    else:
        payload["intel_quote"] = payload["quote"] = quote_text
    return payload


# -- chat ----------------------------------------------------------------------------------------


def _bad(message: str) -> Invalid:
    return Invalid(400, message)


def _open_field(value: Any, keys: KeyPair) -> str:
    """The plaintext of one encrypted field, or the 400 the enclave proxies answer."""
    if not isinstance(value, str) or not value or len(value) % 2 or not _HEX.fullmatch(value):
        raise _bad("Encrypted field is not valid hex")
    try:
        return keys.open(bytes.fromhex(value)).decode("utf-8")
    except E2EEError:
        raise _bad("Decryption failed") from None
    except UnicodeDecodeError:
        raise _bad("Decrypted content is not valid UTF-8") from None


def _count(body: Any) -> tuple[int, int]:
    """(envelopes, plaintext fields) among the message contents of a request, as received."""
    envelopes = plaintext = 0
    messages = body.get("messages") if isinstance(body, Mapping) else None
    for m in messages if isinstance(messages, list) else []:
        if not isinstance(m, Mapping):
            continue
        content = m.get("content")
        parts = content if isinstance(content, list) else [content]
        values = [p.get("text") if isinstance(p, Mapping) else p for p in parts]
        values += [m.get(name) for name in ENCRYPTED_FIELDS[1:]]
        for v in values:
            if isinstance(v, str) and v:
                envelopes, plaintext = (envelopes + 1, plaintext) if is_envelope(v) else (envelopes, plaintext + 1)
        if m.get("tool_calls"):
            plaintext += 1
    return envelopes, plaintext


def _decrypt_messages(messages: Any, keys: KeyPair) -> list[Any]:
    if not isinstance(messages, list) or not messages:
        raise _bad("Invalid request: messages must be a non-empty array")
    out = []
    for i, m in enumerate(messages):
        if not isinstance(m, Mapping):
            raise _bad(f"Invalid request: messages[{i}] must be an object")
        m = dict(m)
        content = m.get("content")
        if isinstance(content, list):  # decrypted part by part, like the enclave proxy does
            texts = []
            for j, part in enumerate(content):
                if not isinstance(part, Mapping) or part.get("type") != "text":
                    raise _bad(f"Invalid request: messages[{i}].content[{j}]: only text parts can be encrypted")
                texts.append(_open_field(part.get("text"), keys))
            m["content"] = "\n".join(texts)  # what the model reads (the rules read strings)
        elif content is not None:
            m["content"] = _open_field(content, keys)
        for name in ENCRYPTED_FIELDS[1:]:
            if m.get(name):
                m[name] = _open_field(m[name], keys)
        out.append(m)
    return out


def _validated(body: dict[str, Any], model_caps: Mapping[str, Any], limit: int) -> None:
    """Venice's usual validation of the plaintext request, for a TEE model."""
    requested = body.get("max_completion_tokens", body.get("max_tokens"))
    if isinstance(requested, int) and requested > limit:
        raise _bad(f"Invalid request: max_completion_tokens {requested} exceeds the model's maximum of {limit}")
    view = dict(body)
    # The validator knows the stand-in's plaintext models: check as the one with the same abilities.
    view["model"] = NATIVE_MODEL if model_caps.get("supportsFunctionCalling") else EMULATED_MODEL
    params = {k: v for k, v in (body.get("venice_parameters") or {}).items() if k != "enable_e2ee"}
    if params:
        view["venice_parameters"] = params
    else:
        view.pop("venice_parameters", None)
    validate(view)


@dataclass
class Admitted:
    """A chat request to a TEE model that passed: its plaintext body and how to answer."""

    body: dict[str, Any]
    native: bool  # whether native tool calls may be answered
    headers: dict[str, str]
    client_key: ec.EllipticCurvePublicKey | None = None  # end-to-end: encrypt the reply to it
    per_chunk: bool = False  # one ephemeral key per chunk (else one per reply)
    faults: frozenset[str] = frozenset()

    async def seal(self, events: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
        """The SSE events of the reply, with every content field encrypted (E2EE mode)."""
        if self.client_key is None:
            async for event in events:
                yield event
            return
        ephemeral = None if self.per_chunk else ec.generate_private_key(CURVE)
        sealed = 0
        async for event in events:
            text = event.decode()
            if not text.startswith("data: ") or text.strip() == "data: [DONE]":
                yield event
                continue
            chunk = json.loads(text[len("data: ") :])
            for choice in chunk.get("choices") or []:
                delta = choice.get("delta") or {}
                for name in ENCRYPTED_FIELDS:
                    value = delta.get(name)
                    if value == "":
                        del delta[name]  # the proxies delete empty fields rather than encrypt them
                    elif isinstance(value, str):
                        sealed += 1
                        if sealed == 1 and "plaintext_chunk" in self.faults:
                            continue
                        envelope = bytearray(seal_envelope(value.encode(), self.client_key, ephemeral))
                        if sealed == 1 and "tampered_tag" in self.faults:
                            envelope[-1] ^= 0x01
                        delta[name] = envelope.hex()
            yield f"data: {json.dumps(chunk)}\n\n".encode()
            if sealed and "midstream_error" in self.faults:
                error = {"message": "Model is overloaded, please retry", "type": "upstream_error"}
                yield f"data: {json.dumps({'error': {**error, 'code': 'model_overloaded'}})}\n\n".encode()
                yield b"data: [DONE]\n\n"
                return


def _header(headers: Mapping[str, str], name: str) -> str | None:
    value = headers.get(name)
    return value.strip() if isinstance(value, str) else None


def admit(state: E2EEState, headers: Mapping[str, str], body: Any) -> Admitted | None:
    """None for requests that are not for a TEE model (the usual path answers them); else the
    admitted request, or Invalid with the status and message the real service answers. Every
    request to a TEE model is recorded."""
    model = body.get("model") if isinstance(body, Mapping) else None
    client = _header(headers, "x-venice-tee-client-pub-key")
    model_key = _header(headers, "x-venice-tee-model-pub-key")
    algo = _header(headers, "x-venice-tee-signing-algo")
    params = body.get("venice_parameters") if isinstance(body, Mapping) else None
    enabled = not (isinstance(params, Mapping) and params.get("enable_e2ee") is False)
    present = [h for h in (client, model_key, algo) if h is not None]
    caps = tee_models().get(model) if isinstance(model, str) else None
    if caps is None:
        if present and enabled and isinstance(model, str):
            raise _bad(f"Model {model!r} does not support end-to-end encryption (E2EE)")
        return None
    assert isinstance(body, Mapping) and isinstance(model, str)
    if not enabled or not present:
        mode = "tee"
    elif len(present) == 1 and client is not None:
        mode = "client-key-only"
    else:
        mode = "e2ee"
    envelopes, plaintext = _count(body)
    with state.lock:
        record = Record(model=model, mode=mode, envelopes=envelopes, plaintext=plaintext, status=400)
        state.records.append(record)
        keys, faults = state.keys, frozenset(state.faults)
    limit = next(m["model_spec"]["maxCompletionTokens"] for m in model_catalog() if m["id"] == model)
    plain = dict(body)
    if mode == "e2ee":
        if client is None or model_key is None or algo is None:
            names = (("Client-Pub-Key", client), ("Model-Pub-Key", model_key), ("Signing-Algo", algo))
            missing = ", ".join(f"X-Venice-TEE-{n}" for n, v in names if v is None)
            raise _bad(f"Invalid E2EE headers: missing {missing}")
        if algo != "ecdsa":
            raise _bad("Unsupported signing algorithm")
        if not caps.get("supportsE2EE"):
            raise _bad(f"Model {model!r} does not support end-to-end encryption (E2EE)")
        try:
            client_key = load_public_key(bytes.fromhex(normalize_public_hex(client)))
        except ValueError:
            raise _bad("Invalid public key: X-Venice-TEE-Client-Pub-Key must be a secp256k1 key, 130 hex") from None
        try:
            same = normalize_public_hex(model_key) == keys.public_hex
        except ValueError:
            same = False
        if not same:
            raise _bad("e2ee_model_key_mismatch: X-Venice-TEE-Model-Pub-Key does not match this enclave's key")
        if body.get("stream") is not True:
            raise _bad("E2EE requires streaming")
        plain["messages"] = _decrypt_messages(body.get("messages"), keys)
        for name in ("tools", "tool_choice", "parallel_tool_calls"):  # dropped in E2EE, silently
            plain.pop(name, None)
    _validated(plain, caps, limit)
    with state.lock:
        record.status = 200
        if mode == "e2ee":
            record.ephemeral = "chunk" if state.replies % 2 else "reply"
            state.replies += 1
    if mode != "e2ee":
        return Admitted(body=plain, native=bool(caps.get("supportsFunctionCalling")), headers=dict(TEE_HEADERS))
    return Admitted(
        body=plain,
        native=False,
        headers={**TEE_HEADERS, "x-e2ee-applied": "true"},
        client_key=client_key,
        per_chunk=record.ephemeral == "chunk",
        faults=faults,
    )


# -- routes --------------------------------------------------------------------------------------


def routes(state: E2EEState) -> list[Route]:
    async def attestation(request: Request) -> Response:
        model = request.query_params.get("model")
        nonce = request.query_params.get("nonce")
        if model not in tee_models():
            return JSONResponse({"error": "model does not support TEE attestation"}, status_code=400)
        if nonce is None:
            nonce, source = hashlib.sha256(str(time.time_ns()).encode()).hexdigest(), "server"
        elif _NONCE.fullmatch(nonce):
            source = "client"
        else:
            return JSONResponse({"error": "Nonce must be exactly 32 bytes (64 hex characters)"}, status_code=400)
        with state.lock:
            state.attestations.append(model)
            keys, faults, formats = state.keys, set(state.faults), dict(state.formats)
        payload = attestation_payload(model, nonce.lower(), keys, faults, **formats)
        payload["nonce_source"] = source
        return JSONResponse(payload)

    async def control(request: Request) -> Response:
        if request.method == "POST":
            data = await request.json() if await request.body() else {}
            faults = set(data.get("faults") or [])
            formats = data.get("formats") or {}
            unknown = sorted(faults - FAULTS) + sorted(
                f"{k}={v}" for k, v in formats.items() if v not in FORMATS.get(k, ())
            )
            if unknown:
                return JSONResponse({"error": f"unknown faults or formats: {unknown}"}, status_code=400)
            with state.lock:
                state.faults = faults
                state.formats.update(formats)
                if data.get("rotate_key"):
                    state.keys = KeyPair.generate()
        return JSONResponse(state.snapshot())

    return [
        Route("/v1/tee/attestation", attestation),
        Route("/_control/e2ee", control, methods=["GET", "POST"]),
    ]
