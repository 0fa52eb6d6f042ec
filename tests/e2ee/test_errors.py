"""Every E2EE failure of the protocol's error table maps to one named error that says what
happened and what to do, and whether the next request must attest again."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from letta_tool_emulation.e2ee import AttestationError, error_text, fetch_attestation, rejection_error
from letta_tool_emulation.runtime.standin.catalog import E2EE_MODEL

# (status, body as servers send it) -> (check, reattest)
CHAT_ERRORS: list[tuple[int, Any, str, bool]] = [
    (400, {"error": "Encrypted field is not valid hex"}, "plaintext_field", False),
    (400, {"error": "Decryption failed"}, "server_decryption", True),
    (400, {"error": "Failed to decrypt field"}, "server_decryption", True),
    (
        400,
        {"error": {"message": "AES-GCM decryption failed for field", "type": "e2ee_decryption_failed", "code": None}},
        "server_decryption",
        True,
    ),
    (400, {"error": "Decrypted content is not valid UTF-8"}, "utf8", False),
    (400, {"error": "E2EE requires streaming"}, "streaming", False),
    (400, {"error": "Invalid public key"}, "public_key", True),
    (400, {"error": "ECDSA client public key must be 64 or 65 bytes, got 12"}, "public_key", True),
    (400, {"error": {"message": "bad key", "type": "e2ee_invalid_public_key"}}, "public_key", True),
    (400, {"error": "Unsupported signing algorithm"}, "signing_algo", False),
    (
        400,
        {"error": {"message": "Invalid E2EE headers: X-Venice-TEE-Client-Pub-Key", "type": "invalid_request_error"}},
        "headers",
        True,
    ),
    (
        400,
        {"error": {"message": "X-Model-Pub-Key does not match this proxy instance", "code": "e2ee_model_key_mismatch"}},
        "model_key_mismatch",
        True,
    ),
    (400, {"error": "E2EE is only supported on /v1/chat/completions"}, "unsupported", False),
]


@pytest.mark.parametrize(("status", "body", "check", "reattest"), CHAT_ERRORS)
def test_chat_rejections(status: int, body: Any, check: str, reattest: bool) -> None:
    error = rejection_error(status, body)
    assert error is not None and error.check == check and error.reattest is reattest and error.status == status
    assert f"HTTP {status}" in error.message and "the server said" in error.message


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (429, {"error": "Rate limit exceeded"}),
        (402, {"error": "Insufficient USD or Diem balance"}),
        (503, {"error": "The model is at capacity"}),
        (400, {"error": "Invalid request: max_completion_tokens 9000 exceeds the model's maximum of 3072"}),
        (500, "Internal Server Error"),
        (500, None),
    ],
)
def test_other_errors_are_left_to_the_usual_mapping(status: int, body: Any) -> None:
    assert rejection_error(status, body) is None


def test_error_text_never_repeats_keys_or_envelopes() -> None:
    envelope = "04" + "ab" * 120
    text = error_text({"error": f"Encrypted field is not valid hex: {envelope}"})
    assert envelope not in text and "<hex>" in text
    assert len(error_text({"error": "x" * 5000})) <= 200
    assert error_text({"error": {"message": "m", "code": "c"}}) == "m c"
    assert error_text(b"plain") == "plain" and error_text(None) == ""


def mock(status: int, body: Any, seen: list[httpx.Request]) -> httpx.AsyncClient:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if isinstance(body, str):
            return httpx.Response(status, text=body)
        return httpx.Response(status, json=body)

    return httpx.AsyncClient(transport=httpx.MockTransport(handler))


@pytest.mark.parametrize(
    ("status", "body", "check"),
    [
        (
            502,
            {
                "error": "TEE attestation request failed. The Trusted Execution Environment provider may be temporarily "
                "unavailable.",
                "code": "TEE_ATTESTATION_FAILED",
            },
            "unavailable",
        ),
        (502, {"error": "Nonce must be exactly 32 bytes"}, "nonce_format"),
        (400, {"error": "model does not support TEE attestation"}, "unsupported_model"),
        (401, {"error": "Authentication failed"}, "http_status"),
        (429, {"error": "Too many requests"}, "http_status"),
        (500, "<html>oops</html>", "http_status"),
        (200, "<html>not json</html>", "response"),
    ],
)
async def test_attestation_answers(status: int, body: Any, check: str) -> None:
    seen: list[httpx.Request] = []
    async with mock(status, body, seen) as client:
        with pytest.raises(AttestationError) as err:
            await fetch_attestation("https://venice.example/api/v1", E2EE_MODEL, api_key="sk-secret", client=client)
    assert err.value.check == check and "No chat request was sent" in err.value.message
    assert "sk-secret" not in err.value.message


async def test_attestation_request_shape() -> None:
    seen: list[httpx.Request] = []
    async with mock(200, {"verified": False}, seen) as client:
        for _ in range(2):
            with pytest.raises(AttestationError):
                await fetch_attestation("https://venice.example/api/v1/", E2EE_MODEL, api_key="sk-1", client=client)
    nonces = [r.url.params["nonce"] for r in seen]
    assert all(re.fullmatch(r"[0-9a-f]{64}", n) for n in nonces) and nonces[0] != nonces[1]
    assert seen[0].url.path == "/api/v1/tee/attestation" and seen[0].url.params["model"] == E2EE_MODEL
    assert seen[0].headers["authorization"] == "Bearer sk-1" and seen[0].method == "GET"
