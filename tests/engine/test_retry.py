"""The retry budget on its own: what the upstream's headers mean, and a budget shared by
processes through its file."""

from __future__ import annotations

import asyncio
import email.utils
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

from letta_tool_emulation import retry

NOW = 1_800_000_000.0


def test_retry_after_in_seconds_and_as_a_date() -> None:
    assert retry.retry_wait({"retry-after": "7"}, NOW) == 7
    date = email.utils.formatdate(NOW + 12, usegmt=True)
    assert retry.retry_wait({"retry-after": date}, NOW) == pytest.approx(12, abs=1)


def test_venice_reset_headers_one_a_timestamp_one_in_seconds() -> None:
    assert retry.retry_wait({"x-ratelimit-reset-requests": str(NOW + 25)}, NOW) == pytest.approx(25)
    assert retry.retry_wait({"x-ratelimit-reset-tokens": "3.5"}, NOW) == 3.5
    both = {"x-ratelimit-reset-requests": str(NOW + 4), "x-ratelimit-reset-tokens": "9", "retry-after": "1"}
    assert retry.retry_wait(both, NOW) == pytest.approx(9)  # the longest wait wins
    assert retry.retry_wait({"x-ratelimit-reset-requests": str(NOW - 5)}, NOW) == 0  # already reset
    assert retry.retry_wait({"retry-after": "soon"}, NOW) is None
    assert retry.retry_wait({}, NOW) is None


def settings(**kw: float) -> retry.RetrySettings:
    base = {"limit": 3, "window": 30.0, "max_retries": 2, "max_wait": 5.0, "backoff": 0.01, "queue_timeout": 0.3}
    return retry.RetrySettings(**{**base, **kw})  # type: ignore[arg-type]


def status_error(status: int, headers: dict[str, str] | None = None) -> openai.APIStatusError:
    request = httpx.Request("POST", "http://upstream/v1/chat/completions")
    response = httpx.Response(status, headers=headers or {}, request=request, json={"error": "no"})
    return openai.APIStatusError("no", response=response, body={"error": "no"})


def test_failures_fill_the_budget_and_then_nothing_is_sent(tmp_path: Path) -> None:
    budget = retry.Budget("k", "upstream", settings(max_retries=0), tmp_path / "b")
    sent = []

    async def fail() -> None:
        sent.append(1)
        raise status_error(503)

    async def run() -> list[BaseException]:
        return await asyncio.gather(*(retry.call(budget, fail) for _ in range(10)), return_exceptions=True)

    outcomes = asyncio.run(run())
    assert len(sent) == 3  # never more than the budget, whatever the concurrency
    spent = [o for o in outcomes if isinstance(o, retry.BudgetSpent)]
    assert len(spent) + len([o for o in outcomes if isinstance(o, openai.APIStatusError)]) == 10
    message = str(spent[0])
    assert "3 requests to upstream failed in the last 30 s" in message and "UTC (in" in message


def test_retries_follow_the_upstream_and_succeed(tmp_path: Path) -> None:
    budget = retry.Budget("k", "upstream", settings(limit=10), tmp_path / "b")
    answers: list[object] = [status_error(429, {"retry-after": "0.05"}), status_error(502), "ok"]

    async def send() -> object:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    assert asyncio.run(retry.call(budget, send)) == "ok"
    assert budget.try_acquire()  # the successes freed their slots


def test_a_budget_spent_between_retries_gives_the_upstreams_answer(tmp_path: Path) -> None:
    budget = retry.Budget("k", "upstream", settings(limit=1, max_retries=2), tmp_path / "b")

    async def send() -> None:
        raise status_error(503)

    with pytest.raises(openai.APIStatusError) as info:
        asyncio.run(retry.call(budget, send))
    assert info.value.status_code == 503  # not BudgetSpent: the one request sent failed with this


def test_a_long_wait_fails_at_once_with_the_providers_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    budget = retry.Budget("k", "upstream", settings(limit=10), tmp_path / "b")
    sent, waited = [], []

    async def send() -> None:
        sent.append(1)
        raise status_error(429, {"retry-after": "600"})

    real_sleep, here = asyncio.sleep, threading.current_thread()

    async def sleep(seconds: float, *args: Any, **kwargs: Any) -> Any:
        # asyncio.sleep is patched for the whole process: a server that an earlier test left
        # running in a thread of its own (the stand-in) must still really sleep, or it spins.
        if threading.current_thread() is not here:
            return await real_sleep(seconds, *args, **kwargs)
        waited.append(seconds)

    monkeypatch.setattr(retry.asyncio, "sleep", sleep)
    with pytest.raises(retry.UpstreamWait) as info:
        asyncio.run(retry.call(budget, send))
    assert (len(sent), waited, info.value.wait) == (1, [], 600)  # at once: one request, no wait
    assert isinstance(info.value.cause, openai.APIStatusError)


def test_client_errors_are_not_retried(tmp_path: Path) -> None:
    budget = retry.Budget("k", "upstream", settings(limit=10), tmp_path / "b")
    calls = []

    async def send() -> None:
        calls.append(1)
        raise status_error(400)

    with pytest.raises(openai.APIStatusError):
        asyncio.run(retry.call(budget, send))
    assert calls == [1]


CHILD = """
import sys
import threading
from pathlib import Path
from typing import Any
from letta_tool_emulation import retry
budget = retry.Budget("k", "upstream", retry.RetrySettings(limit=5, window=30), Path(sys.argv[1]))
for _ in range(int(sys.argv[2])):
    budget.release(budget.try_acquire(), failed=True)
"""


def test_the_budget_is_shared_between_processes(tmp_path: Path) -> None:
    """Two server workers share a key: failures in one count in the other."""
    path = tmp_path / "budget"
    subprocess.run([sys.executable, "-c", CHILD, str(path), "4"], check=True)
    budget = retry.Budget("k", "upstream", retry.RetrySettings(limit=5, window=30), path)
    slot = budget.try_acquire()
    assert slot  # the fifth
    budget.release(slot, failed=True)
    with pytest.raises(retry.BudgetSpent):
        budget.try_acquire()
    assert "F" in path.read_text() and oct(path.stat().st_mode & 0o777) == "0o600"


def test_state_dir_must_be_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mine = tmp_path / "state"
    monkeypatch.setenv("LETTA_TOOL_EMULATION_STATE_DIR", str(mine))
    assert retry.state_dir() == mine and oct(mine.stat().st_mode & 0o777) == "0o700"
    mine.chmod(0o755)  # others could read or plant files: not trusted
    assert retry.state_dir() is None
    link = tmp_path / "link"
    os.symlink(tmp_path / "elsewhere", link)
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    monkeypatch.setenv("LETTA_TOOL_EMULATION_STATE_DIR", str(link))
    assert retry.state_dir() is None


def test_the_budget_file_is_never_followed_through_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "victim"
    target.write_text("keep me")
    os.symlink(target, tmp_path / "budget")
    budget = retry.Budget("k", "upstream", settings(), tmp_path / "budget")
    with pytest.raises(OSError):
        budget.try_acquire()
    assert target.read_text() == "keep me"


def test_a_removed_budget_file_is_opened_afresh_and_padding_is_read_as_nothing(tmp_path: Path) -> None:
    """The file stays open between looks; a cleaner removing it must not split the budget
    between this process and those that open the path anew."""
    path = tmp_path / "budget"
    budget = retry.Budget("k", "upstream", retry.RetrySettings(limit=2, window=30), path)
    budget.release(budget.try_acquire(), failed=True)
    path.unlink()
    other = retry.Budget("k", "upstream", retry.RetrySettings(limit=2, window=30), path)
    other.release(other.try_acquire(), failed=True)
    slot = budget.try_acquire()  # the removed file's failure is gone; the new file holds one
    assert slot and path.read_text().count("F") == 1
    budget.release(slot, failed=False)  # shorter now: padded with blanks, not cut
    raw = path.read_text()
    assert raw != raw.rstrip(" ") and [line[0] for line in raw.split()] == ["F"]
    other.release(other.try_acquire(), failed=True)
    with pytest.raises(retry.BudgetSpent):
        budget.try_acquire()


def test_a_forked_process_takes_the_lock_on_its_own_file(tmp_path: Path) -> None:
    """A lock on a descriptor inherited through fork would be the parent's lock too."""
    path = tmp_path / "budget"
    budget = retry.Budget("k", "upstream", retry.RetrySettings(limit=5, window=30), path)
    budget.release(budget.try_acquire(), failed=False)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its look must not use the parent's descriptor
        try:
            budget.release(budget.try_acquire(), failed=True)
            os.write(write, b"ok" if budget._fd_pid == os.getpid() else b"inherited")
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    assert os.read(read, 10) == b"ok"
    assert path.read_text().count("F") == 1
