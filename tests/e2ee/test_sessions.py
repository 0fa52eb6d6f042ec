"""The session cache: lifetime, one attestation in flight per model, failures, invalidation."""

from __future__ import annotations

import asyncio
import threading

import pytest

from letta_tool_emulation.e2ee import MAX_LIFETIME, Attestation, AttestationError, SessionCache, new_session
from letta_tool_emulation.runtime.standin.catalog import E2EE_MODEL, E2EE_NATIVE_MODEL

from .conftest import offline_session


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Attester:
    """Counts attestations; each takes a little while, like a real one."""

    def __init__(self, delay: float = 0.02, fail: AttestationError | None = None) -> None:
        self.calls: list[str] = []
        self.delay = delay
        self.fail = fail
        self.lock = threading.Lock()

    async def __call__(self, model: str) -> Attestation:
        with self.lock:
            self.calls.append(model)
        await asyncio.sleep(self.delay)
        if self.fail is not None:
            raise self.fail
        return offline_session(model).attestation


@pytest.mark.parametrize("lifetime", [0, -1, MAX_LIFETIME + 1, 4 * 3600])
def test_lifetime_is_bounded(lifetime: float) -> None:
    with pytest.raises(ValueError):
        SessionCache(Attester(), lifetime=lifetime)
    with pytest.raises(ValueError):
        new_session(offline_session(E2EE_MODEL).attestation, created=0, lifetime=lifetime)


async def test_sessions_are_reused_until_they_expire() -> None:
    clock, attest = Clock(), Attester()
    cache = SessionCache(attest, lifetime=600, clock=clock)
    first = await cache.get(E2EE_MODEL)
    assert first.model == E2EE_MODEL and first.expires == first.created + 600
    clock.now += 599
    assert await cache.get(E2EE_MODEL) is first and cache.peek(E2EE_MODEL) is first
    clock.now += 1
    assert cache.peek(E2EE_MODEL) is None
    second = await cache.get(E2EE_MODEL)
    assert second is not first and attest.calls == [E2EE_MODEL, E2EE_MODEL]
    # A new session has a new client key pair, and its own fresh nonce.
    assert second.keys.public_hex != first.keys.public_hex
    assert second.attestation.nonce != first.attestation.nonce


async def test_default_lifetime_is_thirty_minutes() -> None:
    clock = Clock()
    cache = SessionCache(Attester(delay=0), clock=clock)
    session = await cache.get(E2EE_MODEL)
    assert cache.lifetime == MAX_LIFETIME == 1800 and session.expires - session.created == 1800


async def test_one_attestation_in_flight_per_model() -> None:
    attest = Attester(delay=0.05)
    cache = SessionCache(attest)
    sessions = await asyncio.gather(*[cache.get(E2EE_MODEL) for _ in range(20)], cache.get(E2EE_NATIVE_MODEL))
    assert sorted(attest.calls) == sorted([E2EE_MODEL, E2EE_NATIVE_MODEL])
    assert len({id(s) for s in sessions[:20]}) == 1 and sessions[20].model == E2EE_NATIVE_MODEL


def test_one_attestation_in_flight_across_threads_and_loops() -> None:
    attest = Attester(delay=0.1)
    cache = SessionCache(attest)
    results: list[object] = []

    def worker() -> None:
        results.append(asyncio.run(cache.get(E2EE_MODEL)))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert attest.calls == [E2EE_MODEL] and len(results) == 8 and len({id(r) for r in results}) == 1


async def test_a_failure_reaches_every_waiter_and_is_not_cached() -> None:
    failure = AttestationError("debug", "The attestation failed the 'debug' check.")
    attest = Attester(delay=0.05, fail=failure)
    cache = SessionCache(attest)
    outcomes = await asyncio.gather(*[cache.get(E2EE_MODEL) for _ in range(5)], return_exceptions=True)
    assert all(isinstance(o, AttestationError) and o.check == "debug" for o in outcomes)
    assert attest.calls == [E2EE_MODEL]
    attest.fail = None
    assert (await cache.get(E2EE_MODEL)).model == E2EE_MODEL and len(attest.calls) == 2


async def test_a_cancelled_attester_does_not_strand_the_others() -> None:
    attest = Attester(delay=0.2)
    cache = SessionCache(attest)
    owner = asyncio.create_task(cache.get(E2EE_MODEL))
    await asyncio.sleep(0.01)
    waiter = asyncio.create_task(cache.get(E2EE_MODEL))
    await asyncio.sleep(0.01)
    owner.cancel()
    session = await asyncio.wait_for(waiter, timeout=5)
    assert session.model == E2EE_MODEL and attest.calls == [E2EE_MODEL, E2EE_MODEL]
    with pytest.raises(asyncio.CancelledError):
        await owner


async def test_a_cancelled_waiter_does_not_cancel_the_attestation() -> None:
    attest = Attester(delay=0.1)
    cache = SessionCache(attest)
    owner = asyncio.create_task(cache.get(E2EE_MODEL))
    await asyncio.sleep(0.01)
    waiter = asyncio.create_task(cache.get(E2EE_MODEL))
    await asyncio.sleep(0.01)
    waiter.cancel()
    assert (await owner).model == E2EE_MODEL and attest.calls == [E2EE_MODEL]


async def test_invalidate_makes_the_next_request_attest_again() -> None:
    attest = Attester(delay=0)
    cache = SessionCache(attest)
    old = await cache.get(E2EE_MODEL)
    cache.invalidate(E2EE_MODEL, old)
    new = await cache.get(E2EE_MODEL)
    assert new is not old and len(attest.calls) == 2
    cache.invalidate(E2EE_MODEL, old)  # a late failure of the old session keeps the new one
    assert await cache.get(E2EE_MODEL) is new
    cache.invalidate(E2EE_MODEL)
    assert cache.peek(E2EE_MODEL) is None
    cache.invalidate("never-seen")


def test_session_repr_holds_no_private_key() -> None:
    session = offline_session(E2EE_MODEL)
    assert "keys" not in repr(session) and "model_key" not in repr(session)
