"""Retries for emulated models, decided in one place, within a budget the upstream can bear.

Venice blocks a key for 30 s after more than 20 failed requests in 30 s, and Letta's own
clients would multiply retries (the OpenAI SDK retries inside Letta, letta-client retries
the whole turn). So for emulated models the SDK does not retry; this module does:

- A :class:`Budget` per API key and host, shared by every agent and every server worker on
  the machine through a small locked file: at most ``limit`` requests may be in flight or
  have failed within ``window`` seconds. While the upstream is healthy that is only a cap
  on concurrent requests per key; once requests fail, it is what stops a burst of failures
  from earning a lockout. When failures alone fill it, new requests fail at once with the
  time the budget frees up (:class:`BudgetSpent`), without reaching the upstream.
- :func:`retry_wait` reads when to try again: ``retry-after`` (seconds or an HTTP date),
  ``x-ratelimit-reset-requests`` (a Unix time at Venice) and ``x-ratelimit-reset-tokens``
  (seconds). A 429, a 5xx or a refused connection is retried (``max_retries`` times) when
  the wait is short; a longer wait fails at once with the reset time.

With a shared database (``LETTA_PG_URI``, which the server command always sets, for its
embedded database too) the budget lives there instead (:class:`DatabaseBudget`,
``shared_state``), so that every server on that database, on any machine, keeps one budget.

The budget file holds only timestamps and random ids, under a directory only this user can
read (``LETTA_TOOL_EMULATION_STATE_DIR``, else ``$XDG_RUNTIME_DIR`` or the temp directory);
its name is a hash of the key and host, never the key. The database holds the same hash.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import fcntl
import functools
import hashlib
import itertools
import logging
import os
import secrets
import stat
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from . import shared_state

log = logging.getLogger("letta_tool_emulation")

T = TypeVar("T")
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        log.warning("letta_tool_emulation: %s is not a number; using %s", name, default)
        return default


@dataclass(frozen=True, slots=True)
class RetrySettings:
    limit: int = 15  # requests in flight or failed per window and key: under Venice's 20
    window: float = 30.0
    max_retries: int = 2
    max_wait: float = 20.0  # a longer wait fails at once, with the reset time
    backoff: float = 1.0  # first wait when the upstream says nothing, doubled each time
    queue_timeout: float = 120.0  # how long a request waits for a free slot while others are in flight

    @classmethod
    def from_env(cls) -> RetrySettings:
        return cls(
            limit=max(1, int(_env_float("LETTA_TOOL_EMULATION_RETRY_BUDGET", 15))),
            window=max(1.0, _env_float("LETTA_TOOL_EMULATION_RETRY_WINDOW", 30.0)),
            max_retries=max(0, int(_env_float("LETTA_TOOL_EMULATION_UPSTREAM_RETRIES", 2))),
            max_wait=max(0.0, _env_float("LETTA_TOOL_EMULATION_RETRY_MAX_WAIT", 20.0)),
        )


class BudgetSpent(Exception):
    """Too many recent failures for this key: the request was not sent."""

    def __init__(self, host: str, failures: int, window: float, reset_at: float) -> None:
        self.host, self.failures, self.window, self.reset_at = host, failures, window, reset_at
        wait = max(0, round(reset_at - time.time()))
        when = time.strftime("%H:%M:%S UTC", time.gmtime(reset_at))
        super().__init__(
            f"{failures} requests to {host} failed in the last {window:.0f} s, so new ones wait until {when} "
            f"(in {wait} s) rather than risk the provider blocking the key. Send the message again then."
        )


class BudgetBusy(Exception):
    """Every slot of the budget stayed taken by requests in flight for too long."""

    def __init__(self, host: str, limit: int, waited: float) -> None:
        super().__init__(
            f"{limit} requests to {host} were already in flight and none finished within {waited:.0f} s. "
            "The provider is slow or stalled; send the message again later."
        )


class BudgetUnavailable(BudgetBusy):
    """The budget lives in the shared database, which could not be reached: the request was not
    sent, so that the servers sharing the key cannot exceed its budget together."""

    def __init__(self, host: str, why: str) -> None:
        Exception.__init__(
            self,
            f"the retry budget for {host}, kept in the server's PostgreSQL for every server that shares it, could "
            f"not be reached ({why}), so the request was not sent. Send the message again once the database is back.",
        )


class UpstreamWait(Exception):
    """The upstream asked for a longer wait than retrying within this request allows."""

    def __init__(self, cause: Exception, wait: float) -> None:
        self.cause, self.wait = cause, wait
        super().__init__(f"the provider asked to wait {wait:.0f} s")


# -- the shared budget ----------------------------------------------------------------------------


def state_dir() -> Path | None:
    """A directory only this user can use, or None when none can be had safely."""
    configured = os.environ.get("LETTA_TOOL_EMULATION_STATE_DIR")
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if configured:
        path = Path(configured)
    elif runtime:
        path = Path(runtime) / "letta-tool-emulation"
    else:
        path = Path(tempfile.gettempdir()) / f"letta-tool-emulation-{os.getuid()}"
    with contextlib.suppress(FileExistsError):
        path.mkdir(mode=0o700, parents=bool(configured))
    try:
        info = os.lstat(path)
    except OSError:
        return None
    # Somebody else's directory, a symlink, or one others can write: not ours to trust.
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        log.warning("letta_tool_emulation: %s is not a private directory; the retry budget is per process", path)
        return None
    return path


_FILE_SLOT = "file-"  # slots of the file budget; the database's are hex digests
_LEDGER_READ = 8192  # bytes read at a time: a ledger of a few entries and its padding fit in one
_LEDGER_PAD = 4096  # blanks a shorter ledger may leave at its end rather than be cut to length


class Budget:
    """See the module docstring. ``path`` None keeps the ledger in this process only."""

    def __init__(self, key_id: str, host: str, settings: RetrySettings, path: Path | None) -> None:
        self.key_id, self.host, self.settings = key_id, host, settings
        self._path = path
        self._lock = threading.Lock()
        self._memory: list[str] = []
        self._fd = -1  # the ledger file, open while this process uses it
        self._fd_pid = 0  # the process that opened it: a forked child opens its own

    def _open(self, path: Path) -> int:
        """The ledger's file, opened once per process and kept open: opening and closing it for
        each look cost more than the rest of the proxy's work on a request. Opened again once the
        path no longer names it (removed by a cleaner of temporary files, or replaced), so that
        every process keeps counting in the one file the path names."""
        if self._fd >= 0:
            # Inherited through fork, it is not this process's own: a lock taken on it would be
            # the parent's lock too.
            if self._fd_pid == os.getpid() and os.fstat(self._fd).st_nlink > 0:
                return self._fd
            os.close(self._fd)
            self._fd = -1
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0), 0o600)
        self._fd, self._fd_pid = fd, os.getpid()
        return fd

    def _ledger(self, edit: Callable[[list[str]], T]) -> T:
        """``edit`` applied to the ledger's lines, locked for this process and, through the
        file, for others; what it returns. (A call rather than a context manager: one generator
        and its machinery less on each of the two looks every request takes.)"""
        with self._lock:
            if self._path is None:
                return edit(self._memory)
            fd = self._open(self._path)
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                held = os.pread(fd, _LEDGER_READ, 0)
                while len(held) % _LEDGER_READ == 0 and held:  # more than one read holds
                    more = os.pread(fd, _LEDGER_READ, len(held))
                    if not more:
                        break
                    held += more
                lines = held.decode("ascii", "replace").split()
                before = list(lines)
                result = edit(lines)
                if lines != before:
                    # Written over in place. A shorter ledger is padded with blanks (which
                    # readers skip) rather than cut to length, a system call less per change,
                    # until the padding would cost more to read than the cut costs.
                    data = "\n".join(lines).encode("ascii")
                    if len(data) < len(held) <= len(data) + _LEDGER_PAD:
                        data += b" " * (len(held) - len(data))
                    os.pwrite(fd, data, 0)
                    if len(data) < len(held):
                        os.ftruncate(fd, len(data))
                return result
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)

    def _prune(self, lines: list[str], now: float) -> tuple[list[float], int]:
        cutoff = now - self.settings.window
        kept = [e for e in lines if _when(e) >= cutoff]
        lines[:] = kept[-1000:]
        failures = sorted(_when(e) for e in lines if e.startswith("F"))
        return failures, sum(1 for e in lines if e.startswith("R"))

    def try_acquire(self) -> str:
        """A slot id; "" when none is free right now. Raises BudgetSpent when failures alone
        fill the budget."""
        now = time.time()

        def take(lines: list[str]) -> str:
            failures, in_flight = self._prune(lines, now)
            if len(failures) >= self.settings.limit:
                raise BudgetSpent(self.host, len(failures), self.settings.window, failures[0] + self.settings.window)
            if len(failures) + in_flight >= self.settings.limit:
                return ""
            slot = _FILE_SLOT + _slot_id()
            lines.append(f"R{now:.3f}:{slot}")
            return slot

        return self._ledger(take)

    def release(self, slot: str, failed: bool) -> None:
        now = time.time()
        end = ":" + slot

        def give_back(lines: list[str]) -> None:
            lines[:] = [e for e in lines if not e.endswith(end)]
            if failed:
                lines.append(f"F{now:.3f}:{_slot_id()}")

        self._ledger(give_back)

    def _waits(self) -> Any:
        """Delays between tries for a slot, until the queue timeout."""
        deadline = time.monotonic() + self.settings.queue_timeout
        delay = 0.02
        while time.monotonic() <= deadline:
            yield delay
            delay = min(delay * 2, 0.5)
        raise BudgetBusy(self.host, self.settings.limit, self.settings.queue_timeout)

    async def acquire(self) -> str:
        for delay in self._waits():
            if slot := self.try_acquire():
                return slot
            await asyncio.sleep(delay)
        raise AssertionError("unreachable")

    def acquire_sync(self) -> str:
        for delay in self._waits():
            if slot := self.try_acquire():
                return slot
            time.sleep(delay)
        raise AssertionError("unreachable")


class DatabaseBudget(Budget):
    """The budget of a key at a host in the shared database (``shared_state``), for every server
    on that database. Until the database has been reached once, ``fallback`` (the file) keeps
    the budget; after that, losing the database fails safe: requests are not sent
    (:class:`BudgetUnavailable`) rather than sent uncounted."""

    def __init__(self, key_id: str, host: str, settings: RetrySettings, store: Any, fallback: Budget) -> None:
        super().__init__(key_id, host, settings, None)
        self._store = store
        self._fallback = fallback

    def _decide(self, taken: shared_state.Taken) -> str | float:
        """The slot, or how long to wait for one."""
        slot, failures, reset_in, wake_in = taken
        if slot:
            return slot
        if reset_in is not None:
            raise BudgetSpent(self.host, failures, self.settings.window, time.time() + max(0.0, reset_in))
        wait = max(0.0, wake_in or 0.0)
        # Slots given back are announced; without the announcement, look again now and then.
        return wait if self._store.listening else min(wait, 0.5)

    def _give_back_when_done(self, future: Any) -> None:
        """A slot taken for a caller that stopped waiting goes back at once."""

        def done(f: Any) -> None:
            if not f.cancelled() and f.exception() is None and f.result()[0]:
                self._store.release(self.key_id, f.result()[0], False)

        future.add_done_callback(done)

    def _take_sync(self) -> shared_state.Taken:
        future = self._store.take(self.key_id, self.settings.limit, self.settings.window)
        try:
            taken: shared_state.Taken = future.result(timeout=shared_state.CALL_TIMEOUT)
        except TimeoutError:
            self._give_back_when_done(future)
            raise shared_state.Unavailable(
                f"the database did not answer within {shared_state.CALL_TIMEOUT:.0f} s"
            ) from None
        return taken

    async def _take(self) -> shared_state.Taken:
        future = self._store.take(self.key_id, self.settings.limit, self.settings.window)
        try:
            taken: shared_state.Taken = await asyncio.wait_for(
                asyncio.shield(asyncio.wrap_future(future)), shared_state.CALL_TIMEOUT
            )
        except TimeoutError:
            self._give_back_when_done(future)
            raise shared_state.Unavailable(
                f"the database did not answer within {shared_state.CALL_TIMEOUT:.0f} s"
            ) from None
        except asyncio.CancelledError:
            self._give_back_when_done(future)
            raise
        return taken

    def try_acquire(self) -> str:
        try:
            decided = self._decide(self._take_sync())
        except shared_state.NeverReached:
            return self._fallback.try_acquire()
        except shared_state.Unavailable as exc:
            raise BudgetUnavailable(self.host, str(exc)) from None
        return decided if isinstance(decided, str) else ""

    async def acquire(self) -> str:
        deadline = time.monotonic() + self.settings.queue_timeout
        while True:
            loop = asyncio.get_running_loop()
            freed = asyncio.Event()
            stop_waiting = self._store.waiter(self.key_id, functools.partial(loop.call_soon_threadsafe, freed.set))
            try:
                try:
                    decided = self._decide(await self._take())
                except shared_state.NeverReached:
                    return await self._fallback.acquire()
                except shared_state.Unavailable as exc:
                    raise BudgetUnavailable(self.host, str(exc)) from None
                if isinstance(decided, str):
                    return decided
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BudgetBusy(self.host, self.settings.limit, self.settings.queue_timeout)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(freed.wait(), min(decided, left) + 0.01)
            finally:
                stop_waiting()

    def acquire_sync(self) -> str:
        deadline = time.monotonic() + self.settings.queue_timeout
        while True:
            freed = threading.Event()
            stop_waiting = self._store.waiter(self.key_id, freed.set)
            try:
                try:
                    decided = self._decide(self._take_sync())
                except shared_state.NeverReached:
                    return self._fallback.acquire_sync()
                except shared_state.Unavailable as exc:
                    raise BudgetUnavailable(self.host, str(exc)) from None
                if isinstance(decided, str):
                    return decided
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BudgetBusy(self.host, self.settings.limit, self.settings.queue_timeout)
                freed.wait(min(decided, left) + 0.01)
            finally:
                stop_waiting()

    def release(self, slot: str, failed: bool) -> None:
        if slot.startswith(_FILE_SLOT):
            self._fallback.release(slot, failed)
        else:
            self._store.release(self.key_id, slot, failed)


def _slot_id() -> str:
    """An id no other slot in any ledger has: this process's random prefix, drawn again in a
    forked child, and a count (a random draw per slot would cost a system call each)."""
    pid = os.getpid()
    if _SLOT_PREFIX[0] != pid:
        _SLOT_PREFIX[:] = [pid, secrets.token_hex(6)]
    return f"{_SLOT_PREFIX[1]}{next(_SLOT_COUNT):x}"


_SLOT_PREFIX: list[Any] = [0, ""]
_SLOT_COUNT = itertools.count()


def _when(entry: str) -> float:
    try:
        return float(entry[1:].split(":", 1)[0])
    except ValueError:
        return 0.0


_BUDGETS: dict[str, Budget] = {}
_BUDGETS_LOCK = threading.Lock()


@functools.lru_cache(maxsize=64)
def _identity(api_key: str | None, base_url: str) -> tuple[str, str]:
    """The budget's id (a hash of the key and host, never the key) and the host: worked out once,
    since every request asks."""
    from urllib.parse import urlsplit

    host = urlsplit(base_url or "").netloc or "the model endpoint"
    return hashlib.sha256(f"{api_key or ''}\n{host}".encode()).hexdigest()[:24], host


def budget_for(api_key: str | None, base_url: str, settings: RetrySettings | None = None) -> Budget:
    """The budget of one key at one host, shared with every process that uses them: through the
    server's database when it has one (``shared_state``), else through a file."""
    key_id, host = _identity(api_key, base_url)
    with _BUDGETS_LOCK:
        budget = _BUDGETS.get(key_id)
        if budget is None:
            directory = state_dir()
            settings = settings or RetrySettings.from_env()
            path = directory / f"budget-{key_id}" if directory is not None else None
            budget = Budget(key_id, host, settings, path)
            shared = shared_state.store()
            if shared is not None:
                budget = DatabaseBudget(key_id, host, settings, shared, budget)
            _BUDGETS[key_id] = budget
        return budget


# -- deciding to retry ------------------------------------------------------------------------------


def retry_wait(headers: Mapping[str, str] | None, now: float | None = None) -> float | None:
    """Seconds the upstream asks to wait before the next request, or None if it does not say."""
    if not headers:
        return None
    now = time.time() if now is None else now
    waits = []
    after = headers.get("retry-after")
    if after:
        try:
            waits.append(float(after))
        except ValueError:
            with contextlib.suppress(TypeError, ValueError):
                waits.append(email.utils.parsedate_to_datetime(after).timestamp() - now)
    for name in ("x-ratelimit-reset-requests", "x-ratelimit-reset-tokens"):
        value = headers.get(name)
        try:
            number = float(value) if value else None
        except ValueError:
            continue
        if number is None:
            continue
        # Venice sends a Unix time for requests and seconds for tokens; tell them apart by size.
        waits.append(number - now if number > 1e9 else number)
    return max(0.0, max(waits)) if waits else None


def is_retryable(exc: BaseException) -> bool:
    import openai

    if isinstance(exc, openai.APIStatusError):
        return exc.status_code in RETRY_STATUSES
    # A connection refused or reset before the request was taken; not a read timeout (a stalled
    # model would make the user wait twice).
    return isinstance(exc, openai.APIConnectionError) and not isinstance(exc, openai.APITimeoutError)


def _headers(exc: BaseException) -> Mapping[str, str] | None:
    response = getattr(exc, "response", None)
    return getattr(response, "headers", None)


def _after_failure(budget: Budget, slot: str, exc: Exception, attempt: int) -> float:
    """Release the slot; the seconds to wait before retrying, or re-raise."""
    failed = is_retryable(exc)
    budget.release(slot, failed)
    if not failed or attempt >= budget.settings.max_retries:
        raise exc
    wait = retry_wait(_headers(exc))
    wait = budget.settings.backoff * 2**attempt if wait is None else wait
    if wait > budget.settings.max_wait:
        raise UpstreamWait(exc, wait) from exc
    log.info("letta_tool_emulation: %s failed (%s); retry %d in %.1f s", budget.host, _what(exc), attempt + 1, wait)
    return wait


async def call(budget: Budget, send: Callable[[], Awaitable[T]]) -> T:
    """``send()`` within the budget, retried as the module docstring says. When the budget
    runs out between retries, the upstream's own last answer is what the caller gets."""
    attempt = 0
    last: Exception | None = None
    while True:
        try:
            slot = await budget.acquire()
        except (BudgetSpent, BudgetBusy):
            if last is not None:
                raise last from None
            raise
        try:
            result = await send()
        except Exception as exc:  # noqa: BLE001 - decided and re-raised in _after_failure
            await asyncio.sleep(_after_failure(budget, slot, exc, attempt))
            attempt, last = attempt + 1, exc
            continue
        except BaseException:  # cancelled: the request did not fail upstream
            budget.release(slot, False)
            raise
        budget.release(slot, False)
        return result


def call_sync(budget: Budget, send: Callable[[], T]) -> T:
    """:func:`call` for synchronous callers."""
    attempt = 0
    last: Exception | None = None
    while True:
        try:
            slot = budget.acquire_sync()
        except (BudgetSpent, BudgetBusy):
            if last is not None:
                raise last from None
            raise
        try:
            result = send()
        except Exception as exc:  # noqa: BLE001 - decided and re-raised in _after_failure
            time.sleep(_after_failure(budget, slot, exc, attempt))
            attempt, last = attempt + 1, exc
            continue
        except BaseException:
            budget.release(slot, False)
            raise
        budget.release(slot, False)
        return result


def _what(exc: BaseException) -> str:
    status = getattr(exc, "status_code", None)
    return f"HTTP {status}" if status else type(exc).__name__
