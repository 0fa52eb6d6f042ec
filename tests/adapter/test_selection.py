"""Which models are emulated, in which order the rules apply."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

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
    assert decide(cfg()).venice_dialect is True
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
    assert d.emulate is False and d.venice_dialect is False


def test_venice_fallback_when_nothing_is_known(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VENICE_BASE_URL", URL)  # Venice "is" at a closed port
    d = decide(cfg())
    assert d.emulate is True and d.model is not None and d.model.context_window == 32768
    assert venice.CAPABILITIES.shape(URL) is None  # deciding never asks the endpoint


class Hanging:
    """A capability endpoint that accepts connections and never answers."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.accepted: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                self.accepted.append(self.sock.accept()[0])

    def close(self) -> None:
        for s in self.accepted:
            s.close()
        self.sock.close()


def test_cold_cache_never_waits_on_the_network(letta: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the capability endpoint unreachable (it hangs) and nothing cached, a request is
    built at once from the fallback table, and the capabilities are fetched in the background."""
    from letta.llm_api.llm_client import LLMClient
    from letta.schemas.enums import AgentType

    from .conftest import letta_tools, make_config, system, user

    hanging = Hanging()
    try:
        monkeypatch.setenv("VENICE_BASE_URL", hanging.url)
        config = make_config(letta, hanging.url)
        client = LLMClient.create("openai")
        tools = letta_tools("memory_insert")
        data = client.build_request_data(AgentType.letta_v1_agent, [system(), user("Hi")], config, tools)
        # The endpoint never answers, so its fetch ends only at its timeout: the request was built
        # while the fetch was still under way, and without its answer.
        assert venice.CAPABILITIES.shape(hanging.url) is None
        assert "tools" not in data and "venice_parameters" in data  # emulated, from the fallback table
        deadline = time.monotonic() + 10
        while not hanging.accepted and time.monotonic() < deadline:
            time.sleep(0.01)
        assert hanging.accepted, "the capabilities were fetched in the background"
    finally:
        hanging.close()


def test_offline_models_are_not_listed() -> None:
    catalog = model_catalog()
    catalog[0]["model_spec"]["offline"] = True
    assert [m.id for m in venice.parse_models(catalog) or []] == [m["id"] for m in catalog[1:]]


def test_not_venice_shaped() -> None:
    assert venice.parse_models({"data": [{"id": "gpt-4o", "object": "model"}]}) is None
    assert venice.parse_models({"oops": 1}) is None


def test_constrained_replies_where_the_endpoint_can_enforce_a_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    from letta_tool_emulation import endpoints

    endpoints.KNOWN.clear()
    local = "http://127.0.0.1:8080/v1"
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MODELS", "openai-proxy/*")
    config = cfg(model="m", model_endpoint=local, provider_name="openai", handle="openai-proxy/m")
    assert decide(config).emulate and decide(config).schema_shape is None  # nothing known about the server
    endpoints.KNOWN.store(endpoints.ServerInfo("llama.cpp", local, {"m": endpoints.ModelLimits("m", 8192)}))
    assert decide(config).schema_shape == "llama.cpp"
    assert decide(cfg(**{**vars(config), "model_wrapper": "free-text"})).schema_shape is None
    assert decide(cfg(**{**vars(config), "model_wrapper": "constrained=llama-cpp-python"})).schema_shape == (
        "llama-cpp-python"
    )
    endpoints.KNOWN.refuse_schema(local, "m", "llama.cpp")
    assert decide(config).schema_shape is None  # it refused the schema once: free text from then on
    assert decide(cfg(**{**vars(config), "model_wrapper": "constrained"})).schema_shape is None  # switched too
    monkeypatch.setenv("LETTA_TOOL_EMULATION_CONSTRAINED", "openai-proxy/*=llama.cpp")
    assert decide(config).schema_shape is None  # a refusal outranks the pattern
    endpoints.KNOWN.clear()
    assert decide(config).schema_shape == "llama.cpp"


def test_a_refusal_holds_for_the_shape_that_was_refused_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """An agent forcing a shape its server does not speak must not turn the others on the
    same model to free text (llama-cpp-python answers OpenAI's json_schema with HTTP 500)."""
    from letta_tool_emulation import endpoints

    endpoints.KNOWN.clear()
    local = "http://127.0.0.1:8080/v1"
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MODELS", "openai-proxy/*")
    config = cfg(model="m", model_endpoint=local, provider_name="openai", handle="openai-proxy/m")
    endpoints.KNOWN.store(endpoints.ServerInfo("llama-cpp-python", local, {"m": endpoints.ModelLimits("m", 8192)}))
    forcing = cfg(**{**vars(config), "model_wrapper": "constrained=openai"})
    assert decide(forcing).schema_shape == "openai"
    endpoints.KNOWN.refuse_schema(local, "m", "openai")
    assert decide(forcing).schema_shape is None  # asked in free text, not refused again every step
    assert decide(config).schema_shape == "llama-cpp-python"  # the server's own shape is still used
    endpoints.KNOWN.clear()


def test_a_local_model_without_the_tools_capability_is_emulated() -> None:
    from letta_tool_emulation import endpoints

    url = "http://127.0.0.1:11434/v1"
    endpoints.KNOWN.store(
        endpoints.ServerInfo(
            "ollama",
            url,
            {
                "qwen": endpoints.ModelLimits("qwen", 4096, capabilities=("completion",)),
                "llama": endpoints.ModelLimits("llama", 4096, capabilities=("completion", "tools")),
            },
        )
    )
    plain = decide(cfg(model="qwen", model_endpoint=url, provider_name="ollama", handle="ollama/qwen"))
    assert plain.emulate and plain.schema_shape == "ollama"
    assert not decide(cfg(model="llama", model_endpoint=url, provider_name="ollama", handle="ollama/llama")).emulate
    endpoints.KNOWN.clear()


def test_e2ee_is_never_constrained(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LETTA_TOOL_EMULATION_CONSTRAINED", "venice/*")
    monkeypatch.setenv("VENICE_BASE_URL", URL)
    d = decide(cfg(model="e2ee-some-model", handle="venice/e2ee-some-model"))
    assert d.e2ee and d.schema_shape is None
