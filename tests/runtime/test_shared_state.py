"""The state every server on one database shares, on a real PostgreSQL (the embedded one):
the retry budget across processes, what happens when the database goes away, and what one
process learns reaching the others."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import psycopg2
import pytest

from letta_tool_emulation import endpoints, retry, shared_state, venice
from letta_tool_emulation.runtime.database import EmbeddedPostgres


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedPostgres]:
    with EmbeddedPostgres(tmp_path_factory.mktemp("shared") / "pgdata", log=lambda _: None) as database:
        yield database


@pytest.fixture
def uri(db: EmbeddedPostgres, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[str]:
    monkeypatch.setenv("LETTA_PG_URI", db.uri)
    monkeypatch.setenv("LETTA_TOOL_EMULATION_STATE_DIR", str(tmp_path / "state"))
    shared_state.reset_for_tests()
    retry._BUDGETS.clear()
    with psycopg2.connect(db.uri) as conn, conn.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS lte_budget, lte_refused_shapes, lte_schema_refusals, lte_capabilities")
    yield db.uri
    shared_state.reset_for_tests()
    retry._BUDGETS.clear()


def settings(**kw: Any) -> retry.RetrySettings:
    base = {"limit": 4, "window": 30.0, "max_retries": 0, "max_wait": 5.0, "backoff": 0.01, "queue_timeout": 20.0}
    return retry.RetrySettings(**{**base, **kw})


def rows(database_uri: str, sql: str) -> list[tuple[Any, ...]]:
    with psycopg2.connect(database_uri) as conn, conn.cursor() as cur:
        cur.execute(sql)
        return list(cur.fetchall())


WORKER = textwrap.dedent(
    """
    import asyncio, json, os, sys
    import httpx, openai
    from letta_tool_emulation import retry

    budget = retry.budget_for("the-key", "http://upstream.example/v1", retry.RetrySettings(**json.loads(sys.argv[1])))
    sent = open(sys.argv[2], "a")

    async def fail():
        sent.write(f"{os.getpid()}\\n")
        sent.flush()
        request = httpx.Request("POST", "http://upstream.example/v1/chat/completions")
        raise openai.APIStatusError("no", response=httpx.Response(500, request=request), body=None)

    async def main():
        results = await asyncio.gather(*(retry.call(budget, fail) for _ in range(15)), return_exceptions=True)
        print(json.dumps(sorted({type(r).__name__ for r in results})), type(budget).__name__)

    asyncio.run(main())
    """
)


def test_processes_with_their_own_state_directories_share_one_budget(uri: str, tmp_path: Path) -> None:
    sent = tmp_path / "sent"
    procs = []
    for i in range(3):  # three "hosts": no file in common
        env = {**os.environ, "LETTA_TOOL_EMULATION_STATE_DIR": str(tmp_path / f"host{i}")}
        procs.append(
            subprocess.Popen(
                [sys.executable, "-c", WORKER, json.dumps(dataclasses.asdict(settings(limit=5))), str(sent)],
                env=env,
                stdout=subprocess.PIPE,
                text=True,
            )
        )
    outputs = [p.communicate(timeout=120)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs), outputs
    assert all(o.strip().endswith("DatabaseBudget") for o in outputs), outputs
    assert len(sent.read_text().split()) == 5  # 45 attempts, 5 sent: the budget, whoever sent them
    assert any("BudgetSpent" in o for o in outputs), outputs
    key = hashlib.sha256(b"the-key\nupstream.example").hexdigest()[:24]
    stored = rows(uri, "SELECT key_hash, slot, failed FROM lte_budget")
    assert {r[0] for r in stored} == {key} and all(r[2] for r in stored) and len(stored) == 5
    assert "the-key" not in json.dumps(rows(uri, "SELECT * FROM lte_budget"), default=str)  # only its hash


def test_a_waiting_request_sleeps_until_a_slot_is_given_back(uri: str) -> None:
    budget = retry.budget_for("waits", "http://upstream.example/v1", settings(limit=1))
    assert isinstance(budget, retry.DatabaseBudget)
    store = shared_state.store()
    assert store is not None
    calls: list[float] = []
    take = store._take_call

    def counting(cur: Any, **kw: Any) -> Any:
        calls.append(time.monotonic())
        return take(cur, **kw)

    async def scenario() -> str:
        first = await budget.acquire()
        while not store.listening:
            await asyncio.sleep(0.05)
        store._take_call = counting  # type: ignore[method-assign]
        waiter = asyncio.create_task(budget.acquire())
        await asyncio.sleep(2.0)
        looks_while_full = len(calls)
        budget.release(first, failed=False)
        second = await waiter
        budget.release(second, failed=False)
        return f"{looks_while_full} {len(calls)}"

    looks_while_full, looks = map(int, asyncio.run(scenario()).split())
    # One look found the budget full; then it slept (the oldest slot expires in 30 s) until
    # the NOTIFY of the freed slot woke it for the look that took it.
    assert looks_while_full == 1
    assert looks == 2


def test_the_database_lost_mid_request_fails_safe_and_the_failure_counts_when_it_is_back(
    uri: str, db: EmbeddedPostgres
) -> None:
    # A long window: the failure must still count however long the restart takes.
    budget = retry.budget_for("lost", "http://upstream.example/v1", settings(limit=3, window=900.0))
    slot = budget.acquire_sync()
    assert db.proc is not None
    db.proc.kill()  # PostgreSQL's postmaster dies while the request is out (its backends linger a moment)
    db.proc.wait()
    returned = threading.Event()
    threading.Thread(target=lambda: (budget.release(slot, failed=True), returned.set()), daemon=True).start()
    assert returned.wait(60), "giving a slot back waited for the lost database"
    with pytest.raises(retry.BudgetUnavailable, match=r"could not be reached .* not sent"):
        budget.acquire_sync()  # not sent uncounted
    db.restart()
    deadline = time.monotonic() + 60
    while True:  # the pool's connections to the old server fail once each, then new ones are made
        try:
            again = budget.acquire_sync()
            break
        except retry.BudgetUnavailable:
            assert time.monotonic() < deadline
            time.sleep(0.5)
    failed = rows(uri, "SELECT count(*) FROM lte_budget WHERE failed")[0][0]
    assert failed == 1  # the failure during the outage, recorded once the database was back
    budget.release(again, failed=False)


def test_a_database_never_reached_leaves_the_budget_to_the_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LETTA_PG_URI", f"postgresql://postgres@localhost/letta?host={tmp_path / 'nowhere'}")
    monkeypatch.setenv("LETTA_TOOL_EMULATION_STATE_DIR", str(tmp_path / "state"))
    shared_state.reset_for_tests()
    retry._BUDGETS.clear()
    try:
        budget = retry.budget_for("no-db", "http://upstream.example/v1", settings())
        assert isinstance(budget, retry.DatabaseBudget)
        slot = asyncio.run(budget.acquire())
        assert slot.startswith("file-")  # the file's
        assert any(p.name.startswith("budget-") for p in (tmp_path / "state").iterdir())
        budget.release(slot, failed=False)
    finally:
        shared_state.reset_for_tests()
        retry._BUDGETS.clear()


WATCHER = textwrap.dedent(
    """
    import sys, time
    from letta_tool_emulation import endpoints, shared_state, venice

    shared_state.start()
    print("listening", flush=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        refused = endpoints.KNOWN.refused_schema("http://local.example:8080/v1", "small", "vllm")
        info = venice.lookup("http://venice.example/api/v1", "e2ee-new")
        server = endpoints.KNOWN.server("http://ollama.example:11434/v1")
        thinks = endpoints.KNOWN.opens_reasoning("http://local.example:8080/v1", "qwen3")
        if refused and info is not None and server is not None and thinks:
            limits = server.limits("llama")
            print("seen", info.supports_e2ee, info.context_window, server.kind, limits.context_window, limits.capabilities)
            break
        time.sleep(0.1)
    """
)

FORGETTER = textwrap.dedent(
    """
    import sys, time
    from letta_tool_emulation import endpoints, shared_state

    shared_state.start()
    deadline = time.monotonic() + 120
    while not endpoints.KNOWN.opens_reasoning("http://local.example:8080/v1", "qwen3"):
        assert time.monotonic() < deadline, "never learned"
        time.sleep(0.1)
    print("learned", flush=True)
    while endpoints.KNOWN.opens_reasoning("http://local.example:8080/v1", "qwen3"):
        assert time.monotonic() < deadline, "never forgot"
        time.sleep(0.1)
    print("forgot", flush=True)
    """
)


def test_what_one_worker_learns_reaches_the_others(uri: str) -> None:
    early = subprocess.Popen([sys.executable, "-c", WATCHER], stdout=subprocess.PIPE, text=True)
    try:
        assert early.stdout is not None and early.stdout.readline().strip() == "listening"
        assert shared_state.start() is not None
        endpoints.KNOWN.refuse_schema("http://local.example:8080/v1", "small", "vllm")
        endpoints.KNOWN.note_template_reasoning("http://local.example:8080/v1", "qwen3")
        venice.CAPABILITIES.store(
            "http://venice.example/api/v1", [venice.ModelInfo("e2ee-new", supports_e2ee=True, context_window=65536)]
        )
        endpoints.KNOWN.store(
            endpoints.ServerInfo(
                "ollama",
                "http://ollama.example:11434/v1",
                {"llama": endpoints.ModelLimits("llama", context_window=8192, capabilities=("completion",))},
            )
        )
        seen = early.communicate(timeout=150)[0]
    finally:
        early.kill()
        endpoints.KNOWN.clear()
        venice.CAPABILITIES.clear()
    expected = "seen True 65536 ollama 8192 ('completion',)"
    assert expected in seen  # told by NOTIFY while it ran
    late = subprocess.run([sys.executable, "-c", WATCHER], capture_output=True, text=True, timeout=150)
    assert expected in late.stdout  # read when it started


def test_a_model_read_as_ordinary_again_is_forgotten_by_the_other_workers(uri: str) -> None:
    # A worker that saw the model reply without closing its reasoning must not leave the others
    # streaming that model's answers as reasoning.
    other = subprocess.Popen([sys.executable, "-c", FORGETTER], stdout=subprocess.PIPE, text=True)
    try:
        assert shared_state.start() is not None
        endpoints.KNOWN.note_template_reasoning("http://local.example:8080/v1", "qwen3")
        assert other.stdout is not None and other.stdout.readline().strip() == "learned"
        assert endpoints.KNOWN.forget_template_reasoning("http://local.example:8080/v1", "qwen3")
        out = other.communicate(timeout=150)[0]
    finally:
        other.kill()
        endpoints.KNOWN.clear()
    assert out.strip() == "forgot", out
    assert rows(uri, "SELECT data FROM lte_capabilities WHERE kind = 'reasoning' || chr(10) || 'qwen3'") == [(False,)]


def test_an_endpoint_with_credentials_in_its_url_is_not_shared(uri: str) -> None:
    store = shared_state.start()
    assert store is not None
    deadline = time.monotonic() + 60
    while not store.reached:  # connected, and its tables made
        assert time.monotonic() < deadline
        time.sleep(0.1)
    endpoints.KNOWN.refuse_schema("http://user:secret@local.example:8080/v1", "small", "openai")
    endpoints.KNOWN.refuse_schema("http://other.example:8080/v1", "small", "openai")
    deadline = time.monotonic() + 60
    while not rows(uri, "SELECT * FROM lte_refused_shapes") and time.monotonic() < deadline:
        time.sleep(0.1)
    endpoints.KNOWN.clear()
    assert rows(uri, "SELECT endpoint, shape FROM lte_refused_shapes") == [("http://other.example:8080/v1", "openai")]


def test_a_slot_from_the_database_is_given_back_to_it_whatever_its_first_digit() -> None:
    """The file budget's slots start with "file-"; the database's are hex digests, and one in
    sixteen starts with "f"."""

    class Store:
        listening = True

        def __init__(self) -> None:
            self.released: list[str] = []

        def waiter(self, key: str, wake: Any) -> Any:
            return lambda: None

        def take(self, key: str, limit: int, window: float) -> Future[shared_state.Taken]:
            taken: Future[shared_state.Taken] = Future()
            taken.set_result(("f" + "0" * 31, 0, None, None))
            return taken

        def release(self, key: str, slot: str, failed: bool) -> None:
            self.released.append(slot)

    store = Store()
    budget = retry.DatabaseBudget("k", "upstream", settings(), store, retry.Budget("k", "upstream", settings(), None))
    slot = budget.acquire_sync()
    budget.release(slot, failed=True)
    assert store.released == [slot]
