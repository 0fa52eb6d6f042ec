"""The proxy keeps a model's decision between requests: it must be the decision made afresh
whenever anything it was made from changes (the variables, what is known about the endpoint,
the calibration file), and the same object only while nothing did."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from letta_tool_emulation import calibration, endpoints, selection, venice
from letta_tool_emulation.proxy.upstream import Upstream, shared_client
from letta_tool_emulation.venice_dialect import ModelInfo

URL = "http://127.0.0.1:9/v1"  # never reached: deciding reads only what is already known
MODEL = "kept-decision-model"


@pytest.fixture
def upstream(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Upstream]:
    monkeypatch.setenv(calibration.PATH_ENV, str(tmp_path / "calibration.json"))
    for name in selection.DECISION_ENV:
        monkeypatch.delenv(name, raising=False)
    yield Upstream(URL, None, "proxy", 30.0, shared_client(30.0))
    venice.CAPABILITIES.store(URL, None)
    endpoints.KNOWN.clear()


def fresh(upstream: Upstream, mode: str | None = None) -> selection.Decision:
    """The decision made from nothing kept, as the plugin makes it."""
    return selection.decide(
        SimpleNamespace(
            model=MODEL,
            model_endpoint=URL,
            provider_name="proxy",
            handle=f"proxy/{MODEL}",
            model_wrapper={"free": selection.WRAPPER_FREE_TEXT, "constrained": selection.WRAPPER_CONSTRAINED}.get(
                mode or ""
            ),
        )
    )


def test_a_decision_is_kept_while_nothing_it_was_made_from_changes(upstream: Upstream) -> None:
    first = upstream.decide(MODEL)
    assert first == fresh(upstream) and not first.emulate
    assert upstream.decide(MODEL) is first
    assert upstream.decide(MODEL, "constrained") == fresh(upstream, "constrained")


def test_a_changed_variable_decides_again(upstream: Upstream, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not upstream.decide(MODEL).emulate
    monkeypatch.setenv(selection.PATTERNS_ENV, "proxy/*")
    assert upstream.decide(MODEL).emulate and upstream.decide(MODEL) == fresh(upstream)
    monkeypatch.setenv(selection.CONSTRAINED_ENV, "proxy/*=llama.cpp")
    assert upstream.decide(MODEL).schema_shape == "llama.cpp" == fresh(upstream).schema_shape
    monkeypatch.delenv(selection.PATTERNS_ENV)
    assert not upstream.decide(MODEL).emulate


def test_what_is_learned_about_the_endpoint_decides_again(upstream: Upstream) -> None:
    assert not upstream.decide(MODEL).emulate
    venice.CAPABILITIES.store(URL, [ModelInfo(MODEL, supports_function_calling=False)])
    assert upstream.decide(MODEL).emulate and upstream.decide(MODEL) == fresh(upstream)
    venice.CAPABILITIES.store(URL, [ModelInfo(MODEL, supports_function_calling=True)])
    assert not upstream.decide(MODEL).emulate

    venice.CAPABILITIES.store(URL, [ModelInfo(MODEL, supports_function_calling=False)])
    upstream.decide(MODEL)
    endpoints.KNOWN.note_template_reasoning(URL, MODEL)
    assert upstream.decide(MODEL).in_reasoning and upstream.decide(MODEL) == fresh(upstream)
    endpoints.KNOWN.forget_template_reasoning(URL, MODEL)
    assert not upstream.decide(MODEL).in_reasoning


def test_a_refused_schema_decides_again(upstream: Upstream, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(selection.PATTERNS_ENV, "proxy/*")
    assert upstream.decide(MODEL, "constrained").schema_shape == "openai"
    endpoints.KNOWN.refuse_schema(URL, MODEL, "openai")
    assert upstream.decide(MODEL, "constrained").schema_shape is None == fresh(upstream, "constrained").schema_shape


def test_a_calibration_recorded_meanwhile_decides_again(upstream: Upstream, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(selection.PATTERNS_ENV, "proxy/*")
    assert upstream.decide(MODEL).schema_shape is None
    calibration.record(URL, MODEL, calibration.Choice("constrained", "openai"), {})
    assert upstream.decide(MODEL).schema_shape == "openai" == fresh(upstream).schema_shape
    calibration.record(URL, MODEL, calibration.Choice("free"), {"changed": True})
    assert upstream.decide(MODEL).schema_shape is None
