"""The live stand-in over real HTTP, and a minimal end-to-end encrypted client built only on
the e2ee package: attest, encrypt, stream, decrypt chunk by chunk."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from letta_tool_emulation.e2ee import (
    Session,
    SessionCache,
    decrypt_event,
    encrypt_request,
    fetch_attestation,
    rejection_error,
)
from letta_tool_emulation.runtime.standin import StandIn

KEY = "stand-in-key"


@pytest.fixture(scope="session")
def standin() -> Iterator[StandIn]:
    with StandIn() as s:
        yield s


@pytest.fixture
def live(standin: StandIn) -> Iterator[StandIn]:
    """The stand-in, reset before and after the test (no faults, default formats)."""
    standin.reset()
    yield standin
    standin.reset()


def control(standin: StandIn, **settings: Any) -> dict[str, Any]:
    """Set faults/formats (or read the E2EE state with no settings) through the control API."""
    url = standin.url.removesuffix("/v1") + "/_control/e2ee"
    r = httpx.post(url, json=settings) if settings else httpx.get(url)
    r.raise_for_status()
    return r.json()


def records(standin: StandIn, model: str | None = None) -> list[dict[str, Any]]:
    return [r for r in control(standin)["records"] if model is None or r["model"] == model]


def cache_for(standin: StandIn, **options: Any) -> SessionCache:
    return SessionCache(lambda model: fetch_attestation(standin.url, model, api_key=KEY), **options)


@dataclass
class Reply:
    status: int
    chunks: list[dict[str, Any]] = field(default_factory=list)  # decrypted, in order
    raw: list[dict[str, Any]] = field(default_factory=list)  # as received
    headers: dict[str, str] = field(default_factory=dict)
    error: Any = None  # the JSON of an HTTP error answer

    @property
    def text(self) -> str:
        return "".join(
            (c["delta"].get("content") or "") for chunk in self.chunks for c in chunk.get("choices", []) if "delta" in c
        )

    @property
    def usage(self) -> dict[str, int] | None:
        return next((c["usage"] for c in self.chunks if c.get("usage")), None)


async def post_encrypted(
    standin: StandIn, body: dict[str, Any], session: Session, *, headers: dict[str, str] | None = None
) -> Reply:
    """Encrypt ``body``, send it, and decrypt the stream one SSE event at a time (raising the
    first E2EEError a chunk causes, as a client must)."""
    wire, tee_headers = encrypt_request(body, session)
    return await post_raw(standin, wire, {**tee_headers, **(headers or {})}, session)


async def post_raw(standin: StandIn, wire: dict[str, Any], headers: dict[str, str], session: Session | None) -> Reply:
    async with (
        httpx.AsyncClient(timeout=30) as client,
        client.stream(
            "POST",
            standin.url + "/chat/completions",
            json=wire,
            headers={"Authorization": f"Bearer {KEY}", **headers},
        ) as response,
    ):
        reply = Reply(status=response.status_code, headers=dict(response.headers))
        if response.status_code != 200:
            await response.aread()
            reply.error = response.json()
            return reply
        async for line in response.aiter_lines():
            if not line.startswith("data: "):
                continue
            data = line[len("data: ") :]
            if data.strip() != "[DONE]":
                reply.raw.append(json.loads(data))
            if session is not None:
                chunk = decrypt_event(data, session)
                if chunk is not None:
                    reply.chunks.append(chunk)
        return reply


def rejection(reply: Reply) -> Any:
    return rejection_error(reply.status, reply.error)


def offline_session(model: str, server: Any = None) -> Session:
    """A session on a verified attestation of the stand-in's enclave key, without HTTP."""
    from letta_tool_emulation.e2ee import KeyPair, new_nonce, new_session, verify_attestation
    from letta_tool_emulation.runtime.standin.e2ee import MODEL_SECRET, attestation_payload

    keys = server or KeyPair.from_secret(MODEL_SECRET)
    nonce = new_nonce()
    attestation = verify_attestation(attestation_payload(model, nonce, keys), model=model, nonce=nonce)
    return new_session(attestation, created=0.0)
