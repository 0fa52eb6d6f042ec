"""The stand-in as a local inference server that constrains its replies to a JSON schema.

With a :class:`LocalServer` the stand-in imitates one kind of local server:

- it reads the schema from the request field that kind reads (``response_format`` with
  ``json_schema``, or llama-cpp-python's ``json_object`` with ``schema``), refuses the forms
  that kind refuses, with the status it uses, and answers with the reply envelope of
  :mod:`letta_tool_emulation.core.envelope`, filled by the stand-in's rules, fitting the schema,
  streamed or not, cut at ``max_tokens`` with finish_reason "length" as a real server would;
- with ``unsupported`` it refuses schemas that use those keywords (``"*"``: every schema) with a
  400 that names the keyword, to exercise the fallback to free text;
- as vLLM it takes a structural tag (``response_format`` of type "structural_tag") with a
  free-text reply, and refuses a malformed one as vLLM does;
- with ``serve_context`` it serves that kind's model-listing endpoints (``/props``, Ollama's
  ``/api/*``, LM Studio's ``/api/v0/models``, vLLM's ``max_model_len``) with ``context``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...core.envelope import ARGUMENTS_KEY, CALLS_KEY, NAME_KEY, REPLY_KEY
from ...core.structural_tag import STRUCTURAL_TAG
from ...core.tools import ToolSpec
from ...core.validate import validate_arguments
from ...endpoints import ServerKind
from .catalog import EMULATED_MODEL, NATIVE_MODEL
from .rules import plan_reply
from .validation import estimate_tokens

CHARS_PER_TOKEN = 4  # the stand-in's token estimate, used to cut a reply at max_tokens


@dataclass(frozen=True)
class LocalServer:
    kind: ServerKind = "llama.cpp"
    context: int = 8192
    max_output: int | None = None  # the server's own output limit (llama.cpp n_predict), if any
    unsupported: frozenset[str] = frozenset()  # schema keywords refused with a 400; "*" refuses any schema
    serve_context: bool = True


@dataclass(frozen=True)
class Refusal:
    status: int
    message: str


def requested_schema(body: Mapping[str, Any], local: LocalServer | None) -> dict[str, Any] | Refusal | None:
    """The schema ``body`` asks the reply to fit, as ``local``'s kind reads it; or its refusal."""
    if local is None:
        return None
    rf = body.get("response_format")
    if rf is None:
        return None
    kind = local.kind
    rtype = rf.get("type") if isinstance(rf, dict) else None
    if kind == "llama-cpp-python":
        # Its pydantic request model: type is "text" or "json_object"; anything else is a 500.
        if rtype not in ("text", "json_object"):
            return Refusal(
                500,
                "1 validation error: {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
                f"'msg': \"Input should be 'text' or 'json_object'\", 'input': {rtype!r}}}",
            )
        schema = rf.get("schema") if rtype == "json_object" else None
    elif rtype == "json_schema":
        wrapper = rf.get("json_schema") if isinstance(rf.get("json_schema"), dict) else {}
        if kind == "vllm" and not isinstance(wrapper.get("name"), str):
            return Refusal(400, "response_format.json_schema.name: Field required")
        schema = wrapper.get("schema")
    elif rtype == "json_object":
        if kind == "lmstudio":
            return Refusal(400, "'response_format.type' must be 'json_schema' or 'text'")
        # llama.cpp reads a schema beside it; Ollama and vLLM ask for any JSON object.
        schema = rf.get("schema") if kind == "llama.cpp" else {"type": "object"}
    elif rtype in (None, "text"):
        return None
    elif rtype == STRUCTURAL_TAG and kind == "vllm":
        # Free text, with only its call blocks held (the reply is what the script or the rules say).
        return structural_tag_refusal(rf, local)
    else:
        return Refusal(400, f'response_format type must be one of "text" or "json_object", but got: {rtype}')
    if schema is None:
        return None
    if not isinstance(schema, dict):
        return Refusal(400, "response_format: the JSON schema must be an object")
    if "*" in local.unsupported:
        return Refusal(400, "response_format: this server does not support JSON schemas")
    refused = sorted(_keywords(schema) & local.unsupported)
    if refused:
        return Refusal(400, f"response_format: the JSON schema uses {refused[0]!r}, which this server does not support")
    return schema


# What llama.cpp's llama-server reads beside OpenAI's fields to hold a reply to a GBNF grammar
# from a trigger on (the plugin sends them with free-text requests to that kind).
_GRAMMAR_KEYS = frozenset({"grammar", "grammar_lazy", "grammar_triggers", "preserved_tokens"})


def local_request_keys(local: LocalServer | None) -> frozenset[str]:
    """The request fields ``local``'s kind takes beside the ones every kind takes."""
    return _GRAMMAR_KEYS if local is not None and local.kind == "llama.cpp" else frozenset()


def grammar_refusal(body: Mapping[str, Any], local: LocalServer | None) -> Refusal | None:
    """The answer of a server that cannot take a grammar (``"grammar"`` in its ``unsupported``)
    to a request that carries one. Its text is not checked: the reply is what the script or the
    rules say, as for a schema."""
    if local is None or "grammar" not in local.unsupported or not isinstance(body.get("grammar"), str):
        return None
    return Refusal(400, "grammar: this server was built without grammar support")


def structural_tag_refusal(rf: Mapping[str, Any], local: LocalServer) -> Refusal | None:
    """vLLM's answer to a ``response_format`` of type "structural_tag": None where it takes it.

    Its request model reads either the legacy form (``structures`` of ``begin``, ``schema`` and
    ``end``, and ``triggers``: ``LegacyStructuralTagResponseFormat``) or the newer ``format``;
    a field missing or of the wrong type is a 400 with pydantic's errors, which name it. It then hands the tag to xgrammar,
    which refuses one without structures or triggers, or with a structure that no trigger
    begins; vLLM answers that with a 400, "Invalid structural tag specification."
    (vllm/v1/structured_output/backend_xgrammar.py). ``"grammar"`` or ``"*"`` in
    ``unsupported`` stands for a backend that takes no structural tag, with that answer too."""
    if "format" in rf and "structures" not in rf:
        return None if isinstance(rf.get("format"), Mapping) else _invalid_field(("format",), "dict")
    structures, triggers = rf.get("structures"), rf.get("triggers")
    if not isinstance(structures, list):
        return _invalid_field(("structures",), "list" if "structures" in rf else None)
    if not isinstance(triggers, list):
        return _invalid_field(("triggers",), "list" if "triggers" in rf else None)
    for i, trigger in enumerate(triggers):
        if not isinstance(trigger, str):
            return _invalid_field(("triggers", i), "string")
    for i, structure in enumerate(structures):
        if not isinstance(structure, Mapping):
            return _invalid_field(("structures", i), "dict")
        for key in ("begin", "end"):
            if not isinstance(structure.get(key), str):
                return _invalid_field(("structures", i, key), "string" if key in structure else None)
        if structure.get("schema") is not None and not isinstance(structure.get("schema"), Mapping):
            return _invalid_field(("structures", i, "schema"), "dict")
    unusable = not structures or not triggers or "grammar" in local.unsupported or "*" in local.unsupported
    if unusable or any(not any(s["begin"].startswith(t) for t in triggers) for s in structures):
        return Refusal(400, "Invalid structural tag specification.")
    return None


def _invalid_field(loc: tuple[Any, ...], expected: str | None) -> Refusal:
    """A request model's refusal of one field, as pydantic words it: missing (``expected`` None),
    or not of the ``expected`` type."""
    where = ("body", "response_format", "LegacyStructuralTagResponseFormat", *loc)
    if expected is None:
        return Refusal(400, f"[{{'type': 'missing', 'loc': {where!r}, 'msg': 'Field required'}}]")
    return Refusal(
        400, f"[{{'type': '{expected}_type', 'loc': {where!r}, 'msg': 'Input should be a valid {expected}'}}]"
    )


def _keywords(schema: Any) -> set[str]:
    found: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                found.add(key)
                if key == "properties" and isinstance(value, dict):
                    stack.extend(value.values())  # property names are not keywords
                else:
                    stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)
    return found


def envelope_reply(body: Mapping[str, Any], schema: Mapping[str, Any]) -> tuple[str, str]:
    """(text, finish_reason): the stand-in's answer as an envelope that fits ``schema``."""
    variants = _call_variants(schema)
    calls_required, text_allowed = _forms(schema)
    offered = [{"type": "function", "function": {"name": n}} for n in variants]
    planned, said = plan_reply({**body, "tools": offered})
    calls = [
        {NAME_KEY: name, ARGUMENTS_KEY: args}
        for name, args in planned
        if name in variants and _fits(name, variants[name], args)
    ]
    if calls:
        # As a grammar holds it: no more calls than the schema's maxItems.
        envelope: dict[str, Any] = {CALLS_KEY: calls[: _max_calls(schema) or len(calls)]}
        if said:
            envelope[REPLY_KEY] = said
    elif text_allowed and not calls_required:
        envelope = {REPLY_KEY: said or "OK."}
    elif variants:
        # A forced call the rules have no arguments for: the first tool that needs none, as a
        # grammar would force the model to write something.
        name = next((n for n, p in variants.items() if not p.get("required")), next(iter(variants)))
        envelope = {CALLS_KEY: [{NAME_KEY: name, ARGUMENTS_KEY: {}}]}
    else:
        envelope = {REPLY_KEY: said or "OK."}
    text = json.dumps(envelope, ensure_ascii=False)
    limit = body.get("max_completion_tokens") or body.get("max_tokens")
    if isinstance(limit, int) and limit > 0 and estimate_tokens(text) > limit:
        return text[: limit * CHARS_PER_TOKEN], "length"
    return text, "stop"


def _fits(name: str, params: Mapping[str, Any], args: Mapping[str, Any]) -> bool:
    """``args`` fit ``params`` as a grammar holds them: one branch of parameters given as
    ``anyOf`` (a replace tool's old text, one branch per memory block) is enough."""
    branches = params.get("anyOf") if "properties" not in params else None
    options = branches if isinstance(branches, list) and branches else [params]
    return any(
        isinstance(o, Mapping) and not validate_arguments(ToolSpec(name, parameters=o), args).errors for o in options
    )


def _call_variants(schema: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """Each tool the envelope schema offers, with its parameter schema."""
    out: dict[str, Mapping[str, Any]] = {}
    any_of = schema.get("anyOf")
    shapes = any_of if isinstance(any_of, list) else [schema]
    raw_defs = schema.get("$defs")
    defs = raw_defs if isinstance(raw_defs, dict) else {}
    for shape in shapes:
        calls = (shape.get("properties") or {}).get(CALLS_KEY) if isinstance(shape, dict) else None
        item = calls.get("items") if isinstance(calls, dict) else None
        if not isinstance(item, dict):
            continue
        variants = item.get("anyOf")
        for variant in variants if isinstance(variants, list) else [item]:
            props = variant.get("properties") if isinstance(variant, dict) else None
            name = (props or {}).get(NAME_KEY, {}).get("const") if isinstance(props, dict) else None
            params = (props or {}).get(ARGUMENTS_KEY) if isinstance(props, dict) else None
            if isinstance(name, str) and isinstance(params, dict):
                ref = params.get("$ref")
                if isinstance(ref, str) and ref.startswith("#/$defs/"):
                    params = defs.get(ref[len("#/$defs/") :], {})
                out[name] = params
    return out


def _max_calls(schema: Mapping[str, Any]) -> int | None:
    any_of = schema.get("anyOf")
    shapes: list[Any] = any_of if isinstance(any_of, list) else [schema]
    for shape in shapes:
        calls = (shape.get("properties") or {}).get(CALLS_KEY) if isinstance(shape, dict) else None
        if isinstance(calls, dict) and isinstance(calls.get("maxItems"), int):
            return int(calls["maxItems"])
    return None


def _forms(schema: Mapping[str, Any]) -> tuple[bool, bool]:
    """(calls required, a text-only reply allowed)."""
    any_of = schema.get("anyOf")
    shapes = any_of if isinstance(any_of, list) else [schema]
    text_only = any(
        isinstance(s, dict) and CALLS_KEY not in (s.get("required") or []) and REPLY_KEY in (s.get("properties") or {})
        for s in shapes
    )
    return not text_only, text_only


# -- the model-listing endpoints of each kind -------------------------------------------------------


def context_routes(local: LocalServer | None) -> list[Route]:
    """Routes that answer like ``local``'s kind when models are listed (placed before the defaults)."""
    if local is None or not local.serve_context:
        return []
    ids = [EMULATED_MODEL, NATIVE_MODEL]
    kind = local.kind

    def respond(payload: Any) -> Any:
        async def endpoint(request: Request) -> Response:
            return JSONResponse(payload(request) if callable(payload) else payload)

        return endpoint

    if kind == "llama.cpp":
        props = {
            "default_generation_settings": {
                "id": 0,
                "n_ctx": local.context,
                "params": {"n_predict": local.max_output or -1, "max_tokens": local.max_output or -1},
            },
            "total_slots": 1,
            "model_path": f"/models/{EMULATED_MODEL}.gguf",
            "modalities": {"vision": False},
        }
        models: list[dict[str, Any]] = [
            {"id": i, "object": "model", "owned_by": "llamacpp", "meta": {"n_ctx_train": 32768}} for i in ids
        ]
        return [
            Route("/props", respond(props)),
            Route("/v1/models", respond({"object": "list", "data": models})),
        ]
    if kind == "llama-cpp-python":
        models = [{"id": i, "object": "model", "owned_by": "me", "permissions": []} for i in ids]
        return [Route("/v1/models", respond({"object": "list", "data": models}))]
    if kind == "vllm":
        models = [{"id": i, "object": "model", "owned_by": "vllm", "max_model_len": local.context} for i in ids]
        return [Route("/v1/models", respond({"object": "list", "data": models}))]
    if kind == "lmstudio":
        entries = [
            {
                "id": i,
                "object": "model",
                "type": "llm",
                "state": "loaded",
                "max_context_length": 32768,
                "loaded_context_length": local.context,
            }
            for i in ids
        ]
        models = [{"id": i, "object": "model", "owned_by": "organization_owner"} for i in ids]
        return [
            Route("/api/v0/models", respond({"object": "list", "data": entries})),
            Route("/v1/models", respond({"object": "list", "data": models})),
        ]
    if kind in ("ollama", "ollama-native"):

        async def show_endpoint(request: Request) -> Response:
            name = (await request.json()).get("model")
            if name not in ids:
                return JSONResponse({"error": f"model '{name}' not found"}, status_code=404)
            caps = ["completion", "tools"] if name == NATIVE_MODEL else ["completion"]
            return JSONResponse(
                {
                    "parameters": f"num_ctx                        {local.context}",
                    "model_info": {"general.architecture": "llama", "llama.context_length": 32768},
                    "capabilities": caps,
                }
            )

        models = [{"id": i, "object": "model", "owned_by": "library"} for i in ids]
        running = [{"name": i, "model": i, "context_length": local.context} for i in ids]
        return [
            Route("/api/version", respond({"version": "0.12.0"})),
            Route("/api/tags", respond({"models": [{"name": i, "model": i} for i in ids]})),
            Route("/api/ps", respond({"models": running})),
            Route("/api/show", show_endpoint, methods=["POST"]),
            Route("/v1/models", respond({"object": "list", "data": models})),
        ]
    return []
