"""A local stand-in for a language model, for tests, demos and benchmarks (no weights, no
network): an OpenAI-compatible server that behaves like Venice.ai serving a model WITHOUT
function calling.

- ``GET /v1/models`` in Venice's shape, with capabilities (``?type=text|embedding``);
- ``POST /v1/chat/completions``, plain and SSE streaming, validated as strictly as Venice:
  400 for unknown keys, null values, empty assistant messages; and for the model without
  function calling, 400 for ``tools``, ``tool_choice`` and tool-role messages;
- ``POST /v1/embeddings`` with deterministic vectors;
- one model WITH native function calling, to compare both on one server.

Replies come from a script (``POST /_control/script``, used by tests) or else from simple
rules: "remember that X" becomes a memory call, a tool result becomes a short answer, and so
on. In "sloppy" mode the rules write calls the way real models drift (fences, single quotes,
missing end markers, trailing commas, extra prose, now and then a broken call that must be
rejected and retried), from a seeded random generator. In "natural" mode they come inside
the prose real models write around calls: preambles, asides, reasoning and sign-offs in
several languages and registers, also seeded (``natural.py``). The two modes combine.
"""

from __future__ import annotations

from .app import Scripted, StandIn, StandInState, create_app, serve
from .catalog import (
    CONTEXT_TOKENS,
    EMBEDDING_DIM,
    EMBEDDING_MODEL,
    EMULATED_MODEL,
    MAX_COMPLETION_TOKENS,
    NATIVE_MODEL,
    model_catalog,
)
from .rules import plan_reply, write_calls
from .validation import Invalid, validate

__all__ = [
    "CONTEXT_TOKENS",
    "EMBEDDING_DIM",
    "EMBEDDING_MODEL",
    "EMULATED_MODEL",
    "MAX_COMPLETION_TOKENS",
    "NATIVE_MODEL",
    "Invalid",
    "Scripted",
    "StandIn",
    "StandInState",
    "create_app",
    "model_catalog",
    "plan_reply",
    "serve",
    "validate",
    "write_calls",
]
