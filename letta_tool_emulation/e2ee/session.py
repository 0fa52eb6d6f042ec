"""Sessions: a verified attestation and a client key pair, per model, for a bounded time.

A session is made by attesting the model (fresh nonce) and generating a new client key pair;
it is used until it expires (30 minutes at most) or until a failure says its keys cannot be
trusted any more (``invalidate``). The cache serves concurrent callers, across threads and
event loops: while one attestation of a model is in flight, the others wait for it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from cryptography.hazmat.primitives.asymmetric import ec

from .attestation import Attestation
from .crypto import KeyPair, load_public_key

MAX_LIFETIME = 30 * 60.0  # seconds; a session is never used longer
DEFAULT_LIFETIME = MAX_LIFETIME

Attester = Callable[[str], Awaitable[Attestation]]


@dataclass(frozen=True, slots=True)
class Session:
    """What one model's encrypted requests use: the attested enclave key and our key pair."""

    attestation: Attestation
    keys: KeyPair = field(repr=False)
    model_key: ec.EllipticCurvePublicKey = field(repr=False)
    created: float  # clock time when the attestation was requested
    expires: float

    @property
    def model(self) -> str:
        return self.attestation.model

    def expired(self, now: float) -> bool:
        return now >= self.expires


def check_lifetime(lifetime: float) -> float:
    if not 0 < lifetime <= MAX_LIFETIME:
        raise ValueError(f"a session lifetime must be more than 0 and at most {MAX_LIFETIME:.0f} seconds")
    return float(lifetime)


def new_session(
    attestation: Attestation, *, created: float, lifetime: float = DEFAULT_LIFETIME, keys: KeyPair | None = None
) -> Session:
    """A session on a verified attestation, with a new client key pair unless one is given."""
    return Session(
        attestation=attestation,
        keys=keys or KeyPair.generate(),
        model_key=load_public_key(bytes.fromhex(attestation.model_public_key)),
        created=created,
        expires=created + check_lifetime(lifetime),
    )


class _Abandoned(Exception):
    """The caller attesting for everyone was cancelled: the waiters try again themselves."""


class SessionCache:
    """Sessions per model. ``attest(model)`` fetches and verifies an attestation (normally
    ``fetch_attestation`` with the endpoint bound); its AttestationError reaches every caller
    waiting for it, and nothing is cached after a failure."""

    def __init__(
        self, attest: Attester, *, lifetime: float = DEFAULT_LIFETIME, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._attest = attest
        self.lifetime = check_lifetime(lifetime)
        self._clock = clock
        self._lock = threading.Lock()
        self._sessions: dict[str, Session] = {}
        self._inflight: dict[str, concurrent.futures.Future[Session]] = {}

    def peek(self, model: str) -> Session | None:
        """The cached session of ``model`` if it is still valid; never attests."""
        with self._lock:
            session = self._sessions.get(model)
            return session if session is not None and not session.expired(self._clock()) else None

    async def get(self, model: str) -> Session:
        """A valid session for ``model``: the cached one, or a new one after a successful
        attestation. Raises the AttestationError of a failed attestation."""
        while True:
            with self._lock:
                session = self._sessions.get(model)
                if session is not None and not session.expired(self._clock()):
                    return session
                pending = self._inflight.get(model)
                if pending is None:
                    pending = concurrent.futures.Future()
                    self._inflight[model] = pending
                    owner = True
                else:
                    owner = False
            if not owner:
                try:
                    # shield: a waiter that is cancelled must not cancel everyone else's attestation
                    return await asyncio.shield(asyncio.wrap_future(pending))
                except _Abandoned:
                    continue
            return await self._attest_for_all(model, pending)

    async def _attest_for_all(self, model: str, pending: concurrent.futures.Future[Session]) -> Session:
        created = self._clock()
        try:
            session = new_session(await self._attest(model), created=created, lifetime=self.lifetime)
        except BaseException as exc:
            with self._lock:
                self._inflight.pop(model, None)
            if not pending.done():
                pending.set_exception(exc if isinstance(exc, Exception) else _Abandoned())
            raise
        with self._lock:
            self._inflight.pop(model, None)
            self._sessions[model] = session
        if not pending.done():
            pending.set_result(session)
        return session

    def invalidate(self, model: str, session: Session | None = None) -> None:
        """Forget ``model``'s session, so that the next request attests again; with ``session``,
        only if that is still the cached one (a late failure must not discard a newer session)."""
        with self._lock:
            cached = self._sessions.get(model)
            if cached is not None and (session is None or cached is session):
                del self._sessions[model]

    def clear(self) -> None:
        with self._lock:
            self._sessions.clear()
