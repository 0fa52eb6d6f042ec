"""Letta's own message tests, emulated against native: the send_message (v1 and v2),
human-in-the-loop and cancellation tests of the installed letta's source distribution, run
against the server command on the stand-in's scripted model (``runtime/standin/suite.py``).

Each of Letta's tests runs four times: on the native model and on the emulated one, with the
model writing its calls alone and with a sentence before them. Emulated must give exactly what
native gives, test by test. Tests that fail for both are listed, with why, in
``failing_for_both.toml``; that list must stay exact (a new shared failure must be explained
there, a fixed one removed).

Cost: two servers, one per way of writing (calls alone, prose), run side by side, each running
the native model's pass and then the emulated one's (one pytest process per pass, all four
files). On two cores that is about as parallel as the servers' own work allows.
"""

from __future__ import annotations

import json
import resource
import threading
import time
import tomllib
from pathlib import Path

import pytest

from letta_tool_emulation.runtime.stack import ServerProcess, free_port
from letta_tool_emulation.runtime.standin import CONTEXT_TOKENS, StandIn

from . import letta_suite
from .letta_suite import FILES, Outcome

HERE = Path(__file__).resolve().parent
FAILING_FOR_BOTH = HERE / "failing_for_both.toml"
MODELS = {"native": "venice/stand-in-native", "emulated": "venice/venice-uncensored"}
EMBEDDING = "venice/text-embedding-bge-m3"
WAYS = {"calls alone": False, "prose": True}
RESULTS = letta_suite.CACHE / "last-run.json"

Results = dict[str, dict[str, dict[str, Outcome]]]  # way -> model kind -> test id -> outcome


def neutral(test_id: str, handle: str) -> str:
    """A test's id without the model in it (Letta's tests are parametrized by its handle)."""
    return test_id.replace(handle, "MODEL").replace(handle.split("/", 1)[1], "MODEL")


def run_way(way: str, prose: bool, root: Path, tests: Path, results: Results) -> None:
    with StandIn(port=free_port(), suite=True, prose=prose) as standin:
        server = ServerProcess(
            root / "server", VENICE_API_KEY="conformance", VENICE_BASE_URL=standin.url,
            LETTA_LLM_REQUEST_TIMEOUT_SECONDS="120",
        ).start()  # fmt: skip
        try:
            for kind, handle in MODELS.items():
                work = root / kind
                work.mkdir(parents=True)
                settings = letta_suite.model_settings_file(work / "model_settings.json", handle)
                configs = {name: settings for name in FILES}
                configs["integration_test_cancellation.py"] = letta_suite.llm_config_file(
                    work / "llm_config.json", handle, standin.url, CONTEXT_TOKENS
                )
                outcomes = letta_suite.run(
                    tests, server_url=server.url, model=handle, embedding=EMBEDDING, configs=configs, workdir=work,
                    # Letta's cancellation test runs only where the server has a Redis (it has one of its own).
                    env={"LETTA_REDIS_HOST": "the server's own (embedded)"}, timeout=3600,
                )  # fmt: skip
                results[way][kind] = {neutral(t, handle): o for t, o in outcomes.items()}
        finally:
            server.stop()


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Results:
    tests = letta_suite.fetch()
    found: Results = {way: {} for way in WAYS}
    failures: list[BaseException] = []

    def guarded(way: str, prose: bool) -> None:
        try:
            run_way(way, prose, tmp_path_factory.mktemp(way.replace(" ", "-")), tests, found)
        except BaseException as exc:  # noqa: BLE001 - reported below, in the test's own thread
            failures.append(exc)

    started, cpu = time.monotonic(), _cpu_seconds()
    threads = [threading.Thread(target=guarded, args=item) for item in WAYS.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise failures[0]
    took = {"wall_s": round(time.monotonic() - started), "cpu_s": round(_cpu_seconds() - cpu)}
    outcomes = {
        w: {k: {t: [o.status, o.message] for t, o in r.items()} for k, r in v.items()} for w, v in found.items()
    }
    RESULTS.write_text(json.dumps({"took": took, "outcomes": outcomes}, indent=1))
    print(f"\n{table(found)}\n\n{took['wall_s']} s, {took['cpu_s']} s of CPU (servers, pytest, tools' sandboxes)")
    return found


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the servers, Letta's tests)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def table(results: Results) -> str:
    lines = ["| Letta's tests | way | native passed / run | emulated passed / run |", "|---|---|---|---|"]
    for way, kinds in results.items():
        counts = {kind: letta_suite.counts(outcomes) for kind, outcomes in kinds.items()}
        for name in FILES:
            cells = [f"{counts[k].get(name, (0, 0))[0]} / {counts[k].get(name, (0, 0))[1]}" for k in MODELS]
            lines.append(f"| {name} | {way} | {cells[0]} | {cells[1]} |")
    return "\n".join(lines)


def failing_for_both() -> dict[str, dict[str, str]]:
    data = tomllib.loads(FAILING_FOR_BOTH.read_text())
    return {way: dict(data.get(way, {})) for way in WAYS}


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("way", list(WAYS))
def test_emulated_gives_what_native_gives(results: Results, way: str, name: str) -> None:
    native, emulated = (results[way][kind] for kind in MODELS)
    ids = sorted(t for t in set(native) | set(emulated) if t.startswith(name + "::"))
    assert ids, f"no test of {name} ran"
    missing = Outcome("not run")
    differ = [
        f"{t}: native {native.get(t, missing).status} ({native.get(t, missing).message}), "
        f"emulated {emulated.get(t, missing).status} ({emulated.get(t, missing).message})"
        for t in ids
        if native.get(t, missing).status != emulated.get(t, missing).status
    ]
    assert differ == [], "\n".join(differ)


@pytest.mark.parametrize("way", list(WAYS))
def test_what_fails_for_both_is_listed_with_why(results: Results, way: str) -> None:
    native = results[way]["native"]
    failing = {t for t, o in native.items() if o.status in ("failed", "error")}
    listed = failing_for_both()[way]
    assert all(reason.strip() for reason in listed.values()), "every entry says why"
    unexplained = {t: native[t].message for t in failing - set(listed)}
    assert unexplained == {}, f"failing for both models and not in {FAILING_FOR_BOTH.name}: {unexplained}"
    assert sorted(set(listed) - failing) == [], f"listed in {FAILING_FOR_BOTH.name} but passing now"


def test_the_fixture_patch_changes_only_model_handles() -> None:
    """The copy that runs differs from Letta's files in the patched fixtures' arguments only."""
    tests = letta_suite.fetch()
    for name, changes in letta_suite.FIXTURE_PATCHES.items():
        original = (tests.parent / "original" / name).read_text()
        patched = (tests / name).read_text()
        for _, old, new in changes:
            assert original.count(old) >= 1 and patched.count(new) == 1
            patched = patched.replace(new, old)
        assert patched == original
