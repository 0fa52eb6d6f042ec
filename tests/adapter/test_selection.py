"""Which models are emulated, in which order the rules apply."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from letta_tool_emulation import venice
from letta_tool_emulation.runtime.standin import model_catalog
from letta_tool_emulation.selection import decide

URL = "http://127.0.0.1:9/v1"  # nothing listens: any fetch fails


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    venice.CAPABILITIES.clear()
    monkeypatch.delenv("LETTA_TOOL_EMULATION_MODELS", raising=False)
    monkeypatch.setenv("VENICE_BASE_URL", "https://example.invalid/v1")
    yield
    venice.CAPABILITIES.clear()


def cfg(**kw: object) -> SimpleNamespace:
    base = {
        "model": "venice-uncensored",
        "model_endpoint": URL,
        "provider_name": "venice",
        "handle": None,
        "model_wrapper": None,
    }
    base.update(kw)
    return SimpleNamespace(**base)


def test_capability_data_decides() -> None:
    venice.CAPABILITIES.store(URL, venice.parse_models(model_catalog()))
    assert decide(cfg()).emulate is True
    assert decide(cfg(model="stand-in-native")).emulate is False
    assert decide(cfg()).venice is True
    assert decide(cfg()).model.max_completion_tokens == 4096


def test_model_wrapper_comes_first() -> None:
    venice.CAPABILITIES.store(URL, venice.parse_models(model_catalog()))
    assert decide(cfg(model_wrapper="native-tools")).emulate is False
    assert decide(cfg(model="stand-in-native", model_wrapper="tool-emulation")).emulate is True


def test_patterns_over_handles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MODELS", "ollama/*, openai-proxy/mistral-7b*")
    assert decide(cfg(provider_name="ollama", model="llama3", handle="ollama/llama3")).emulate is True
    assert (
        decide(
            cfg(provider_name="openai", model="mistral-7b-instruct", handle="openai-proxy/mistral-7b-instruct")
        ).emulate
        is True
    )
    assert decide(cfg(provider_name="openai", model="gpt-4o", handle="openai/gpt-4o")).emulate is False
    # without a handle, provider/model is used
    assert decide(cfg(provider_name="ollama", model="qwen")).emulate is True


def test_capability_data_beats_patterns(monkeypatch: pytest.MonkeyPatch) -> None:
    venice.CAPABILITIES.store(URL, venice.parse_models(model_catalog()))
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MODELS", "venice/*")
    assert decide(cfg(model="stand-in-native", handle="venice/stand-in-native")).emulate is False


def test_nothing_known_means_native() -> None:
    d = decide(cfg(provider_name="openai", model="gpt-4o-mini", model_endpoint="https://api.openai.com/v1"))
    assert d.emulate is False and d.venice is False


def test_venice_fallback_when_models_cannot_be_fetched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VENICE_BASE_URL", URL)  # Venice "is" at a closed port
    d = decide(cfg())
    assert d.emulate is True and d.model is not None and d.model.context_window == 32768
    assert venice.CAPABILITIES.shape(URL) is False  # remembered: not asked on every request


def test_offline_models_are_not_listed() -> None:
    catalog = model_catalog()
    catalog[0]["model_spec"]["offline"] = True
    assert [m.id for m in venice.parse_models(catalog) or []] == [m["id"] for m in catalog[1:]]


def test_not_venice_shaped() -> None:
    assert venice.parse_models({"data": [{"id": "gpt-4o", "object": "model"}]}) is None
    assert venice.parse_models({"oops": 1}) is None
