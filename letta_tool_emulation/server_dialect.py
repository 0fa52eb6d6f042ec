"""Local inference servers' dialects of the OpenAI API: which kinds there are, what a server
says about its models, the request fields each kind needs to enforce a JSON schema, and how
each says no. Pure rules over plain values: nothing here touches the network (probing a
server is ``endpoints.py``).

- :func:`schema_request_fields` gives the request fields each server kind needs to enforce a
  JSON schema, and :func:`schema_rejected` recognises its answer when it refuses one (or a grammar).
- :func:`grammar_request_fields` and :func:`structural_tag_fields` give the fields that hold only
  a free-text reply's call blocks to a grammar, for the kinds that support it
  (:data:`TRIGGER_KINDS`): llama.cpp's lazy GBNF grammar, vLLM's structural tag.
- :func:`context_from_error` reads the context window a server names when a prompt overflows it.
- :func:`parse_context_overrides` reads ``LETTA_TOOL_EMULATION_CONTEXT``'s value (``handle=tokens``,
  comma-separated, glob patterns over model handles), for servers that do not tell.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

ServerKind = Literal["llama.cpp", "llama-cpp-python", "ollama", "ollama-native", "lmstudio", "vllm", "openai"]
# Every request shape a reply schema can be sent in (schema_request_fields).
SCHEMA_SHAPES: tuple[ServerKind, ...] = get_args(ServerKind)
# What probing can tell apart; "ollama-native" (Ollama's own /api/chat) and "openai" (any
# other endpoint that follows OpenAI's structured outputs) are request shapes, not detections.
LOCAL_KINDS: tuple[ServerKind, ...] = ("llama.cpp", "llama-cpp-python", "ollama", "lmstudio", "vllm")

CONTEXT_ENV = "LETTA_TOOL_EMULATION_CONTEXT"
SCHEMA_NAME = "reply"


@dataclass(frozen=True, slots=True)
class ModelLimits:
    """What a server says about one of its models. ``None`` where it says nothing."""

    model: str  # the id the server's /v1/models gives, which requests name
    context_window: int | None = None  # the tokens a request can use on this server, as it runs now
    max_output_tokens: int | None = None
    trained_context: int | None = None  # the model's own maximum: an upper bound, not what is allocated
    capabilities: tuple[str, ...] = ()  # as the server lists them (Ollama: "completion", "tools", ...)
    source: str = ""  # where context_window was read, for logs


@dataclass(frozen=True, slots=True)
class ServerInfo:
    kind: ServerKind | None  # None: not a server this module knows, or not reachable
    base_url: str
    models: Mapping[str, ModelLimits] = field(default_factory=dict)
    notes: tuple[str, ...] = ()  # what could not be read, and what to do about it

    def limits(self, model: str) -> ModelLimits | None:
        return self.models.get(model)


def token_count(value: Any) -> int | None:
    """A positive token count, or None (bools, zero, negatives like llama.cpp's -1 = unlimited)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    return value if isinstance(value, int) and value > 0 else None


# -- LETTA_TOOL_EMULATION_CONTEXT -----------------------------------------------------------------

_TOKENS = re.compile(r"(\d[\d_]*)\s*([kK]?)")


@dataclass(frozen=True, slots=True)
class ContextOverride:
    pattern: str  # a glob over model handles (provider/model), as in LETTA_TOOL_EMULATION_MODELS
    tokens: int


def parse_context_overrides(value: str | None) -> tuple[list[ContextOverride], list[str]]:
    """``handle=tokens`` entries, comma-separated; tokens may end in k (x1024).

    Returns the valid entries in order, and one message per entry that could not be read, for
    the caller to log. ``openai-proxy/llama3*=8192, ollama/*=32k``.
    """
    rules: list[ContextOverride] = []
    errors: list[str] = []
    for raw in (value or "").split(","):
        item = raw.strip()
        if not item:
            continue
        pattern, sep, tokens = item.rpartition("=")
        match = _TOKENS.fullmatch(tokens.strip())
        if not sep or not pattern.strip() or match is None or int(match.group(1).replace("_", "")) <= 0:
            errors.append(
                f"{CONTEXT_ENV}: {item!r} is not 'handle=tokens' (for example 'openai-proxy/llama3*=8192'); ignored."
            )
            continue
        count = int(match.group(1).replace("_", "")) * (1024 if match.group(2) else 1)
        rules.append(ContextOverride(pattern.strip(), count))
    return rules, errors


def context_override(handle: str, rules: list[ContextOverride]) -> int | None:
    """The tokens of the first pattern that matches ``handle``, or None."""
    for rule in rules:
        if fnmatch.fnmatchcase(handle, rule.pattern):
            return rule.tokens
    return None


# -- enforcing a JSON schema ----------------------------------------------------------------------


def schema_request_fields(kind: ServerKind | None, schema: Mapping[str, Any]) -> dict[str, Any]:
    """The request fields that make a server of ``kind`` constrain its reply to ``schema``.

    Merged into the chat request body. Each server reads a different form:

    - llama.cpp's llama-server, vLLM, LM Studio, Ollama's OpenAI endpoint, and any endpoint
      that follows OpenAI's structured outputs: ``response_format`` of type ``json_schema``;
    - llama-cpp-python's server: ``response_format`` of type ``json_object`` with the schema
      beside it (its request model refuses ``json_schema`` with HTTP 500);
    - Ollama's own ``/api/chat``: ``format`` holding the schema.

    ``strict`` is left out: grammar-based servers always enforce the schema, and OpenAI's strict
    mode would refuse optional properties, which the envelope has.
    """
    schema = dict(schema)
    if kind == "llama-cpp-python":
        return {"response_format": {"type": "json_object", "schema": schema}}
    if kind == "ollama-native":
        return {"format": schema}
    return {"response_format": {"type": "json_schema", "json_schema": {"name": SCHEMA_NAME, "schema": schema}}}


# The server kinds that hold only what follows a trigger word to a grammar, leaving prose free
# (grammar_request_fields, structural_tag_fields); every other kind gets free-text requests with
# nothing added.
TRIGGER_KINDS: tuple[ServerKind, ...] = ("llama.cpp", "vllm")
# Those of them that read a structural tag (structural_tag_fields) rather than a GBNF grammar.
# SGLang lists its models as vLLM does (``max_model_len``), so it is probed as "vllm", and it
# reads the same structural tag (core/structural_tag.py).
STRUCTURAL_TAG_KINDS: tuple[ServerKind, ...] = ("vllm",)
# What a refused grammar or structural tag is remembered under (endpoints.Known.refuse_schema),
# beside the shapes: one endpoint is of one kind, so one name serves both.
GRAMMAR_SHAPE = "call-grammar"
# llama.cpp's common_grammar_trigger_type: a word that starts the grammar where it is written.
_TRIGGER_WORD = 1


def grammar_request_fields(kind: ServerKind | None, grammar: str, trigger: str) -> dict[str, Any]:
    """The request fields that make a server of ``kind`` hold a free-text reply to ``grammar``
    from ``trigger`` on; ``{}`` for a kind that has none (its request stays as it was).

    llama.cpp's ``llama-server`` reads ``grammar`` (GBNF), ``grammar_lazy`` and
    ``grammar_triggers`` (``preserved_tokens`` lets a trigger that is one token in the model's
    vocabulary be matched as that token). Its chat endpoint replaces the last three with its
    chat template's own, so the grammar is applied from the first token there: the grammar
    (core/grammar.py) leaves prose free either way.
    """
    if kind not in TRIGGER_KINDS or kind in STRUCTURAL_TAG_KINDS:
        return {}
    return {
        "grammar": grammar,
        "grammar_lazy": True,
        "grammar_triggers": [{"type": _TRIGGER_WORD, "value": trigger}],
        "preserved_tokens": [trigger],
    }


def structural_tag_fields(kind: ServerKind | None, tag: Mapping[str, Any]) -> dict[str, Any]:
    """The request fields that make a server of ``kind`` hold a free-text reply's call blocks to
    the structural tag ``tag`` (core/structural_tag.py); ``{}`` for a kind that reads none.

    vLLM's OpenAI server reads it as ``response_format`` (``type`` "structural_tag"): its
    ``ChatCompletionRequest`` hands it to the structured-output backend, which compiles it with
    xgrammar's ``compile_structural_tag`` (vllm/v1/structured_output/backend_xgrammar.py).
    SGLang reads the same field (``LegacyStructuralTagResponseFormat``) and compiles it the same
    way."""
    if kind not in STRUCTURAL_TAG_KINDS:
        return {}
    return {"response_format": dict(tag)}


_SCHEMA_WORDS = re.compile(
    # vLLM answers a structural tag xgrammar cannot compile with "Invalid structural tag
    # specification." (backend_xgrammar.validate_xgrammar_grammar).
    r"response_format|json_schema|schema|grammar|xgrammar|outlines|guided_|structured output|structural[_ ]tag",
    re.IGNORECASE,
)


def schema_rejected(status: int, body: str | bytes | None) -> bool:
    """Whether an error answer to a request that carried a schema is about that schema.

    Servers refuse a schema in different ways: 400 (llama.cpp, vLLM, LM Studio, Ollama), 422 for a
    request model's validation, and llama-cpp-python answers a ``response_format`` it does not
    accept with 500. Each names what it refused; an error that names none of these (an overloaded
    server, a context overflow) is not the schema's fault.
    """
    if status not in (400, 422, 500):
        return False
    if isinstance(body, bytes):
        body = body.decode("utf-8", "replace")
    text = body or ""
    if "context" in text.lower() and ("length" in text.lower() or "window" in text.lower()):
        return False  # an overflow message can mention the format of the prompt; never the schema's fault
    return _SCHEMA_WORDS.search(text) is not None


# -- learning the context window from an overflow -------------------------------------------------

_OVERFLOW = (
    # OpenAI's wording, which vLLM and llama-cpp-python's server use too.
    re.compile(r"maximum context length is (\d+) tokens", re.IGNORECASE),
    # llama.cpp's llama-server (tools/server/server-context.cpp).
    re.compile(r"exceeds the available context size \((\d+) tokens\)", re.IGNORECASE),
    # LM Studio.
    re.compile(r"loaded with context length of only (\d+) tokens", re.IGNORECASE),
)


def context_from_error(body: str | bytes | None) -> int | None:
    """The context window a server names in its answer to a prompt that did not fit, or None.

    A server that reports its context nowhere else (llama-cpp-python's) still states it here, so
    a context overflow that happens anyway can correct what the model was listed with.
    """
    if isinstance(body, bytes):
        body = body.decode("utf-8", "replace")
    for pattern in _OVERFLOW:
        match = pattern.search(body or "")
        if match:
            return token_count(match.group(1))
    return None
