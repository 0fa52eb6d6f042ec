"""Which models get tool emulation, and how, decided on every request.

Letta rebuilds an agent's model configuration from its stored model row, so nothing set
while models are listed survives; what does survive is the provider name, the model id, the
endpoint URL and the agent's own ``llm_config``. The decision uses, in this order:

1. end-to-end encryption: a model whose capabilities say ``supportsE2EE`` (at Venice, every
   ``e2ee-*`` model) is end-to-end encrypted and always emulated (Venice drops ``tools`` in
   that mode), unless the agent's switches say ``tee-only`` or
   ``LETTA_TOOL_EMULATION_E2EE=off``, which choose TEE-only plaintext mode;
2. the agent's switches, ``llm_config.model_wrapper``: ``"tool-emulation"`` forces emulation
   on, ``"native-tools"`` forces it off (switches are comma-separated: ``"tee-only,native-tools"``);
3. the endpoint's capability data when it describes models in Venice's shape
   (``supportsFunctionCalling: false`` means emulate), with a fallback table for Venice
   when nothing is known yet;
4. ``LETTA_TOOL_EMULATION_MODELS``: comma-separated glob patterns over model handles
   (``provider/model``), e.g. ``ollama/*,openai-proxy/mistral-7b*``.

Anything else is left to Letta as it is.

This is the Letta side's reading of what is known (the capability cache, the probes, the
environment); the :class:`~.step.Decision` it makes is handed to the engine, which reads
nothing itself.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import replace
from typing import Any

from . import calibration, endpoints, venice
from .server_dialect import GRAMMAR_SHAPE, LOCAL_KINDS, SCHEMA_SHAPES, TRIGGER_KINDS, ServerKind
from .step import Decision, env_switch

__all__ = [
    "Decision",
    "calibrated",
    "decide",
    "grammar_kind",
    "handle_of",
    "one_call",
    "schema_shape",
    "speaks_venice",
    "switches",
]

WRAPPER_ON = "tool-emulation"
WRAPPER_OFF = "native-tools"
WRAPPER_E2EE = "e2ee"
WRAPPER_TEE_ONLY = "tee-only"
WRAPPER_CONSTRAINED = "constrained"  # also "constrained=<server kind>", to force a request shape
WRAPPER_FREE_TEXT = "free-text"
PATTERNS_ENV = "LETTA_TOOL_EMULATION_MODELS"
E2EE_ENV = "LETTA_TOOL_EMULATION_E2EE"
CONSTRAINED_ENV = "LETTA_TOOL_EMULATION_CONSTRAINED"
# Free-text replies to a server that supports it hold their call blocks to the tools' grammar.
GRAMMAR_ENV = "LETTA_TOOL_EMULATION_GRAMMAR"
# The user's number of calls per reply (read by ``step.Settings``): calibration's one call per
# reply is then not used.
MAX_CALLS_ENV = "LETTA_TOOL_EMULATION_MAX_CALLS"
# Every variable :func:`decide` reads, besides the calibration file's location
# (``calibration.stamp`` covers it): a decision holds while these, the file and what is known
# about the endpoint (``venice.CAPABILITIES``, ``endpoints.KNOWN``) stay as they were.
DECISION_ENV = (PATTERNS_ENV, E2EE_ENV, CONSTRAINED_ENV, GRAMMAR_ENV, MAX_CALLS_ENV, "VENICE_BASE_URL")


def handle_of(config: Any) -> str:
    handle = getattr(config, "handle", None)
    if isinstance(handle, str) and handle:
        return handle
    return f"{getattr(config, 'provider_name', None) or 'openai'}/{getattr(config, 'model', '')}"


def switches(config: Any) -> frozenset[str]:
    """The agent's switches: ``llm_config.model_wrapper``, comma-separated."""
    raw = getattr(config, "model_wrapper", None)
    return frozenset(p.strip().lower() for p in raw.split(",") if p.strip()) if isinstance(raw, str) else frozenset()


class _Unread:
    """The calibration record not read yet (None means read, and none recorded)."""


UNREAD = _Unread()


def e2ee_globally_on() -> bool:
    return env_switch(E2EE_ENV)


def patterns() -> list[str]:
    raw = os.environ.get(PATTERNS_ENV, "")
    return [p.strip() for p in raw.split(",") if p.strip()]


def decide(config: Any) -> Decision:
    """The decision for one request, from an LLMConfig-like object: made once per request (the
    emulated request carries it). It reads what is already known about the endpoint (filled
    when models are listed, refreshed in the background), the fallback table and the
    environment, and never waits on the network."""
    decision = _emulation(config)
    if not decision.emulate:
        return decision
    if endpoints.KNOWN.opens_reasoning(getattr(config, "model_endpoint", None), getattr(config, "model", None) or ""):
        decision = replace(decision, in_reasoning=True)
    if decision.e2ee:
        return decision  # Venice accepts no response_format in E2EE mode
    # Read once for the whole decision: the shape, the number of calls and the grammar come
    # from one record, even if the file changes between them.
    choice = calibrated(config)
    shape = schema_shape(config, decision, choice=choice)
    if shape:
        return replace(decision, schema_shape=shape, one_call=one_call(config, choice=choice))
    grammar = grammar_kind(config, choice=choice)
    return replace(decision, grammar_kind=grammar) if grammar else decision


def grammar_kind(config: Any, *, choice: calibration.Choice | None | _Unread = UNREAD) -> ServerKind | None:
    """The server kind whose grammar fields a free-text request carries, or None: a server kind
    that holds only what follows the call marker to a grammar (``server_dialect.TRIGGER_KINDS``),
    unless ``LETTA_TOOL_EMULATION_GRAMMAR`` is off, or (where neither that variable nor the user
    chose the mode) ``letta-tool-emulation calibrate`` measured free text better without it, or
    the model refused the grammar before. ``choice``: the calibration record, where the caller
    has already read it."""
    url = getattr(config, "model_endpoint", None)
    server = endpoints.KNOWN.server(url)
    kind = server.kind if server is not None else None
    if kind not in TRIGGER_KINDS:
        return None
    if os.environ.get(GRAMMAR_ENV, "").strip():
        if not env_switch(GRAMMAR_ENV):
            return None
    elif not _mode_chosen(config):
        choice = calibrated(config) if isinstance(choice, _Unread) else choice
        if choice is not None and choice.grammar is False:
            return None
    if endpoints.KNOWN.refused_schema(url, getattr(config, "model", None) or "", GRAMMAR_SHAPE):
        return None
    return kind


def one_call(config: Any, *, choice: calibration.Choice | None | _Unread = UNREAD) -> bool:
    """Whether constrained replies are held to one call per reply because ``letta-tool-emulation
    calibrate`` measured the model better so; not where the user chose the mode or set
    ``LETTA_TOOL_EMULATION_MAX_CALLS``."""
    if os.environ.get(MAX_CALLS_ENV, "").strip() or _mode_chosen(config):
        return False
    choice = calibrated(config) if isinstance(choice, _Unread) else choice
    return choice is not None and choice.constrained and choice.one_call


def _mode_chosen(config: Any) -> bool:
    """Whether the user chose the mode of emulated replies for this request: an agent switch
    (the proxy's ``--mode`` and ``X-Tool-Emulation-Mode`` arrive as one) or a
    ``LETTA_TOOL_EMULATION_CONSTRAINED`` pattern. What calibration recorded is then not used."""
    if any(s.partition("=")[0] in (WRAPPER_FREE_TEXT, WRAPPER_CONSTRAINED) for s in switches(config)):
        return True
    return _constrained_rule(config) is not None


def _constrained_rule(config: Any) -> str | None:
    """The shape a matching ``LETTA_TOOL_EMULATION_CONSTRAINED`` rule names ("" for none), or
    None when no rule matches the model's handle."""
    handle = handle_of(config)
    for rule in [p.strip() for p in os.environ.get(CONSTRAINED_ENV, "").split(",") if p.strip()]:
        pattern, _, forced = rule.partition("=")
        if fnmatch.fnmatchcase(handle, pattern.strip()):
            return forced.strip()
    return None


def speaks_venice(config: Any) -> bool:
    """Whether the endpoint of an LLMConfig-like object speaks Venice's dialect: Venice's URL or
    provider, or an endpoint whose /models answered in Venice's shape."""
    url = getattr(config, "model_endpoint", None)
    return (
        venice.looks_like_venice(url)
        or getattr(config, "provider_name", None) == venice.PROVIDER_NAME
        or venice.CAPABILITIES.venice_shaped(url or "")
    )


def _emulation(config: Any) -> Decision:
    model = getattr(config, "model", None) or ""
    url = getattr(config, "model_endpoint", None)
    info = venice.lookup(url, model) if model else None
    is_venice = speaks_venice(config)

    wanted = switches(config)
    e2ee_capable = info is not None and bool(info.supports_e2ee) and is_venice
    if e2ee_capable and (WRAPPER_E2EE in wanted or (WRAPPER_TEE_ONLY not in wanted and e2ee_globally_on())):
        return Decision(True, f"end-to-end encrypted ({model} supports E2EE)", True, info, private=True, e2ee=True)
    if WRAPPER_ON in wanted:
        return Decision(True, f"model_wrapper={WRAPPER_ON}", is_venice, info)
    if WRAPPER_OFF in wanted:
        return Decision(False, f"model_wrapper={WRAPPER_OFF}", is_venice, info)

    if info is not None and info.supports_function_calling is not None:
        verdict = "false" if not info.supports_function_calling else "true"
        return Decision(
            not info.supports_function_calling, f"supportsFunctionCalling={verdict} for {model}", is_venice, info
        )

    server = endpoints.KNOWN.server(url)
    limits = server.limits(model) if server is not None else None
    if limits is not None and limits.capabilities and "tools" not in limits.capabilities:
        return Decision(True, f"{server.kind} lists no tools capability for {model}", is_venice, info)  # type: ignore[union-attr]

    handle = handle_of(config)
    for pattern in patterns():
        if fnmatch.fnmatchcase(handle, pattern):
            return Decision(True, f"{PATTERNS_ENV} pattern {pattern!r} matches {handle}", is_venice, info)
    return Decision(False, "no rule asks for emulation", is_venice, info)


def schema_shape(
    config: Any, decision: Decision, *, choice: calibration.Choice | None | _Unread = UNREAD
) -> ServerKind | None:
    """The request shape for constrained replies, or None for free text. The shape comes from,
    in this order: the agent's switches (``free-text``, ``constrained``, ``constrained=<kind>``);
    ``LETTA_TOOL_EMULATION_CONSTRAINED`` patterns (``handle`` or ``handle=<kind>``); the mode
    ``letta-tool-emulation calibrate`` recorded for the endpoint and model (:func:`calibrated`); a
    Venice model with ``supportsResponseSchema``; a local server whose kind the plugin knows (they
    all enforce schemas). A shape the model refused before means free text: asking again would
    cost every step a refused request."""
    model = getattr(config, "model", None) or ""
    url = getattr(config, "model_endpoint", None)
    server = endpoints.KNOWN.server(url)
    kind = server.kind if server is not None else None
    shape: ServerKind | None
    for switch in switches(config):
        name, _, forced = switch.partition("=")
        if name == WRAPPER_FREE_TEXT:
            return None
        if name == WRAPPER_CONSTRAINED:
            shape = _shape(forced) or kind or "openai"
            break
    else:
        shape = _chosen_shape(config, kind, decision, choice)
    if shape is not None and endpoints.KNOWN.refused_schema(url, model, shape):
        return None
    return shape


def _chosen_shape(
    config: Any, kind: ServerKind | None, decision: Decision, choice: calibration.Choice | None | _Unread
) -> ServerKind | None:
    """The shape when the agent's switches name none."""
    forced = _constrained_rule(config)
    if forced is not None:
        return _shape(forced) or kind or "openai"
    if isinstance(choice, _Unread):
        choice = calibrated(config)  # used only where no pattern decided
    if choice is not None:
        return (_shape(choice.shape or "") or kind or "openai") if choice.constrained else None
    if decision.venice_dialect and decision.model is not None and decision.model.supports_response_schema:
        return "openai"
    return kind if kind in LOCAL_KINDS else None


def calibrated(config: Any) -> calibration.Choice | None:
    """The mode ``letta-tool-emulation calibrate`` measured best for this endpoint and model, if
    it was run for them (a file read only when it changed: see :mod:`.calibration`)."""
    return calibration.lookup(getattr(config, "model_endpoint", None), getattr(config, "model", None) or "")


def _shape(name: str) -> ServerKind | None:
    return next((shape for shape in SCHEMA_SHAPES if shape == name), None)
