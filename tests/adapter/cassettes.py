"""Recorded HTTP for the client tests (vcrpy).

By default every test replays its cassette with the network blocked: no socket can be
opened, so a request that is not in the cassette fails loudly.

Recording (`python3 dev.py record [stand-in|venice]`, which sets LETTA_TOOL_EMULATION_RECORD):
  stand-in: starts the local stand-in model and records into cassettes/stand-in/
  venice:   records against real Venice (VENICE_API_KEY) into cassettes/venice/

Cassettes are scrubbed before they are written: no Authorization header, no balance or
cookie headers.
"""

from __future__ import annotations

import os
import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import vcr

ROOT = Path(__file__).resolve().parents[2] / "cassettes"
RECORD = os.environ.get("LETTA_TOOL_EMULATION_RECORD", "").strip().lower() or None
SOURCES = ("stand-in", "venice")
# Where replays pretend to send: nothing listens there, so a request that escaped the
# cassette would fail instead of reaching anything.
REPLAY_BASE_URL = "http://127.0.0.1:9/v1"

_SCRUB_RESPONSE_HEADERS = {
    "set-cookie",
    "x-venice-balance-usd",
    "x-venice-balance-diem",
    "x-venice-balance-vcu",
    "cf-ray",
    "x-request-id",
}


def _scrub_request(request: Any) -> Any:
    for header in list(request.headers):
        if header.lower() in ("authorization", "cookie", "x-api-key"):
            del request.headers[header]
    return request


def _scrub_response(response: dict[str, Any]) -> dict[str, Any]:
    headers = response.get("headers") or {}
    for header in list(headers):
        if header.lower() in _SCRUB_RESPONSE_HEADERS or header.lower().startswith("x-venice-balance"):
            del headers[header]
    return response


_CALL_ID = re.compile(r"call_[0-9a-f]{24}")


def _same_body(r1: Any, r2: Any) -> None:
    """The request sent now is the one recorded (call ids aside, they are random): a change
    to what the client sends makes the replay fail until the cassettes are recorded again,
    so the checks on recorded requests are always checks on the current client."""

    def normal(body: Any) -> str:
        text = body.decode() if isinstance(body, bytes) else str(body or "")
        return _CALL_ID.sub("call_ID", text)

    assert normal(r1.body) == normal(r2.body), "the request differs from the recording: run `python3 dev.py record`"


def recorder(source: str) -> vcr.VCR:
    v = vcr.VCR(
        cassette_library_dir=str(ROOT / source),
        record_mode="all" if source == RECORD else "none",
        # Host and port differ between the stand-in, Venice and replays; the body must not.
        match_on=["method", "path", "query", "same_body"],
        filter_headers=["authorization"],
        before_record_request=_scrub_request,
        before_record_response=_scrub_response,
        decode_compressed_response=True,
    )
    v.register_matcher("same_body", _same_body)
    return v


def requests_made(cass: Any) -> int:
    """Requests the test has sent so far: recorded ones when recording, replayed ones else."""
    return len(cass.requests) if cass.record_mode == "all" else cass.play_count


@contextmanager
def network_blocked() -> Iterator[None]:
    real = socket.socket.connect

    def refuse(self: socket.socket, address: Any) -> None:
        raise ConnectionRefusedError(f"network is blocked during cassette replay (tried {address})")

    socket.socket.connect = refuse  # type: ignore[method-assign]
    try:
        yield
    finally:
        socket.socket.connect = real  # type: ignore[method-assign]


@contextmanager
def cassette(source: str, name: str) -> Iterator[Any]:
    if source == RECORD:  # a fresh recording, not appended to an old one
        (ROOT / source / f"{name}.yaml").unlink(missing_ok=True)
    with recorder(source).use_cassette(f"{name}.yaml") as cass:
        if source == RECORD:
            yield cass
        else:
            with network_blocked():
                yield cass
        if source != RECORD:
            assert cass.all_played, f"cassette {source}/{name} has interactions that were not replayed"
