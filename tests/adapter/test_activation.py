"""Activation proves everything first and installs all of the plugin or nothing: with any
name the plugin checks removed from the real letta modules, it refuses with one warning
that names it, and letta behaves exactly as without the plugin."""

from __future__ import annotations

import ast
import enum
import importlib
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from letta_tool_emulation import _targets
from letta_tool_emulation.adapter import letta_api, patches
from letta_tool_emulation.runtime.standin import NATIVE_MODEL, StandIn

from .conftest import letta_tools, make_config, system, user

PACKAGE = Path(__file__).resolve().parents[2] / "letta_tool_emulation"


def _removals() -> list[tuple[str, str, str]]:
    """(module, owner or "", attribute) for every letta name activation checks."""
    out = []
    for module, name, _ in letta_api._REGISTRY.values():
        out.append((module, "", name))
    owners = {name: module for module, name, _ in letta_api._REGISTRY.values()}
    for owner, method, _ in letta_api.METHODS + letta_api.OPTIONAL_METHODS:
        out.append((owners[owner], owner, method))
    out.append(("letta.llm_api.llm_client", "LLMClient", "create"))
    out += [(owners[owner], owner, attribute) for owner, attribute in letta_api.ATTRIBUTES]
    out += [("letta.errors", "ErrorCode", code) for code in letta_api.ERROR_CODES]
    return sorted(set(out))


REMOVALS = _removals()
OPTIONAL = {
    ("letta.errors", "", "LLMInsufficientCreditsError"),
    ("letta.errors", "ErrorCode", "PAYMENT_REQUIRED"),
    # Without them several calls of one reply run one per step, as with parallel tool calls off.
    ("letta.constants", "", "LETTA_PARALLEL_SAFE_TOOLS"),
    ("letta.constants", "", "LETTA_TOOL_SET"),
} | {("letta.schemas.providers.openai", owner, method) for owner, method, _ in letta_api.OPTIONAL_METHODS}


PATCHABLE = ("create", "__init__", "sync_base_providers", "list_llm_models_async", "list_embedding_models_async",
             "get_default_max_output_tokens", "get_default_max_output_tokens_async")  # fmt: skip


def letta_objects() -> dict[tuple[str, str], Any]:
    """Every attribute a patch or a trigger can replace, as it is now (absent ones included)."""
    found: dict[tuple[str, str], Any] = {}
    for module in patches.TARGETS:
        owner_name, _ = patches.ENTRY_POINTS[module]
        owner = getattr(importlib.import_module(module), owner_name, None)
        for name in PATCHABLE:
            found[(owner_name, name)] = owner.__dict__.get(name, "absent") if owner is not None else "no owner"
    return found


@pytest.fixture
def pristine(letta: Any) -> Iterator[dict[tuple[str, str], Any]]:
    """letta without the plugin; the plugin is active again afterwards."""
    patches.deactivate()
    yield letta_objects()
    patches.deactivate()
    assert patches.activate()


async def native_turn(standin_url: str) -> str:
    """A native-model request through letta's client factory: the outcome's type name."""
    from letta.schemas.enums import AgentType

    client: Any = None
    try:
        config = make_config(None, standin_url, NATIVE_MODEL, max_tokens=4096)
        messages = [system(), user("Remember that I like pizza.")]
        from letta.llm_api.llm_client import LLMClient

        client = LLMClient.create("openai")
        data = client.build_request_data(AgentType.letta_v1_agent, messages, config, letta_tools("memory_insert"))
        raw = await client.request_async(data, config)
        response = await client.convert_response_to_chat_completion(raw, messages, config)
    except Exception as exc:  # noqa: BLE001 - the outcome is what is compared
        return f"{type(client).__name__}: {type(exc).__name__}"
    calls = response.choices[0].message.tool_calls or []
    return f"{type(client).__name__}: {[c.function.name for c in calls]}"


def ours(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "letta_tool_emulation" and r.levelno >= logging.WARNING]


@pytest.fixture(scope="module")
def live() -> Iterator[StandIn]:
    with StandIn() as s:
        yield s


@pytest.mark.parametrize(("module", "owner", "attr"), REMOVALS, ids=[".".join(filter(None, r)) for r in REMOVALS])
async def test_a_missing_name_means_letta_unchanged(
    module: str,
    owner: str,
    attr: str,
    pristine: dict[tuple[str, str], Any],
    live: StandIn,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    target = importlib.import_module(module)
    if owner == "ErrorCode":  # enum members cannot be deleted: the same enum without that member
        members = {m.name: m.value for m in target.ErrorCode if m.name != attr}
        monkeypatch.setattr(target, "ErrorCode", enum.Enum("ErrorCode", members))
    elif owner:  # from the class that defines it (it may come from a base class)
        cls = getattr(target, owner)
        monkeypatch.delattr(next(c for c in cls.__mro__ if attr in c.__dict__), attr)
    else:
        monkeypatch.delattr(target, attr)
    before = letta_objects()
    without_plugin = await native_turn(live.url)

    with caplog.at_level(logging.WARNING, logger="letta_tool_emulation"):
        ok = patches.activate()
    warnings = ours(caplog)
    if ok:
        # Accepted only where letta still has what the plugin needs: an optional name with its
        # tested fallback, or a method a letta base class implements.
        if (module, owner, attr) in OPTIONAL:
            assert attr in " ".join(letta_api.fallbacks())
        else:
            inherited = getattr(getattr(target, owner), attr)
            assert inherited.__module__.startswith("letta.") and not getattr(inherited, "__isabstractmethod__", False)
        assert warnings == []
        with_plugin = await native_turn(live.url)
        assert with_plugin.startswith("EmulatedToolsClient:")
        assert with_plugin.split(":")[1] == without_plugin.split(":")[1]  # native turns unchanged
        return
    assert len(warnings) == 1 and "NOT active" in warnings[0] and attr in warnings[0]
    assert letta_objects() == before  # nothing of the plugin is installed, not even a trigger
    assert not patches.active()
    assert await native_turn(live.url) == without_plugin
    assert patches.activate() is False  # refused once, and silently from then on
    assert len(ours(caplog)) == 1


async def test_native_models_work_while_refused(
    pristine: dict[tuple[str, str], Any], live: StandIn, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The property above is not vacuous: with a missing name that letta's own native path
    does not use, native turns succeed, through letta's own client."""
    monkeypatch.delattr(importlib.import_module("letta.schemas.providers"), "ProviderUpdate")
    assert not patches.activate()
    assert await native_turn(live.url) == "OpenAIClient: ['memory_insert']"


def test_a_failing_patch_rolls_everything_back(
    pristine: dict[tuple[str, str], Any], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(module: Any) -> None:
        raise RuntimeError("as if letta had changed under the check")

    monkeypatch.setitem(patches.PATCHES, "letta.server.server", broken)
    with caplog.at_level(logging.WARNING, logger="letta_tool_emulation"):
        assert not patches.activate()
    assert letta_objects() == pristine
    message = caplog.records[-1].getMessage()
    assert "patching letta.server.server failed" in message
    assert "letta.llm_api.llm_client" in message  # says what had been applied (and was rolled back)


def test_activation_applies_every_patch(pristine: dict[tuple[str, str], Any]) -> None:
    assert patches.activate() and patches.active()
    now = letta_objects()
    changed = {k for k in pristine if now[k] is not pristine[k]}
    assert {("LLMClient", "create"), ("SyncServer", "__init__"), ("ProviderManager", "sync_base_providers"),
            ("OpenAIProvider", "list_llm_models_async"), ("OllamaProvider", "list_llm_models_async")} <= changed  # fmt: skip


def test_hook_and_activation_share_one_target_list() -> None:
    assert tuple(patches.PATCHES) == _targets.TARGETS == tuple(patches.ENTRY_POINTS)


def _imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
    return found


def test_letta_is_reached_only_through_letta_api() -> None:
    """What activation checks is all the plugin can reach: no other plugin module imports letta."""
    allowed = {PACKAGE / "adapter" / "letta_api.py"}
    runtime = PACKAGE / "runtime"  # the launcher and schema creation run letta itself, not the plugin
    offenders = [
        f"{p.relative_to(PACKAGE)}: {m}"
        for p in PACKAGE.rglob("*.py")
        if p not in allowed and runtime not in p.parents
        for m in _imports(p)
        if m == "letta" or m.startswith("letta.")
    ]
    assert offenders == []
