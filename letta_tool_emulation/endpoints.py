"""Probing local inference servers as Letta users run them.

:func:`probe_server` tells which server sits behind an OpenAI-compatible base URL (llama.cpp's
``llama-server``, llama-cpp-python's server, Ollama, LM Studio, vLLM) and reads each model's
real context window, and its output limit where the server states one. Letta otherwise lists
such models with its default of 30,000 tokens, whatever the server runs with. :data:`KNOWN`
holds what the probes found, and which models refused a reply schema, for deciding requests.

Probing is meant for the moment models are listed, never for a request's path: it is async,
every request has a short timeout, it never raises, and it returns whatever it could read.
What each server kind accepts and answers (its request shapes, its refusals, the context window
in its overflow errors) is ``server_dialect.py``, which does no I/O; its names are re-exported
here. Nothing here imports letta.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Mapping
from typing import Any, Protocol

import httpx

from .server_dialect import (
    CONTEXT_ENV,
    GRAMMAR_SHAPE,
    LOCAL_KINDS,
    SCHEMA_NAME,
    SCHEMA_SHAPES,
    ContextOverride,
    ModelLimits,
    ServerInfo,
    ServerKind,
    context_from_error,
    context_override,
    parse_context_overrides,
    schema_rejected,
    schema_request_fields,
    token_count,
)
from .step import EmulatedRequest, Log, Outcome

__all__ = [
    "CONTEXT_ENV",
    "KNOWN",
    "LOCAL_KINDS",
    "SCHEMA_NAME",
    "SCHEMA_SHAPES",
    "ContextOverride",
    "Known",
    "ModelLimits",
    "ServerInfo",
    "ServerKind",
    "context_from_error",
    "context_override",
    "parse_context_overrides",
    "probe_server",
    "remember",
    "schema_rejected",
    "schema_request_fields",
]

DEFAULT_TIMEOUT = 3.0  # seconds per request
_PROBE_DEADLINE = 10.0  # seconds for a whole probe, however many models
_SHOW_CONCURRENCY = 4


# -- probing ----------------------------------------------------------------------------------


async def probe_server(
    base_url: str,
    *,
    api_key: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    transport: httpx.AsyncBaseTransport | None = None,
) -> ServerInfo:
    """Which server ``base_url`` (with or without ``/v1``) is, and its models' limits. Never raises."""
    root, v1 = _roots(base_url)
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        async with httpx.AsyncClient(
            headers=headers, timeout=timeout, transport=transport, follow_redirects=False
        ) as client:
            return await asyncio.wait_for(_probe(_Http(client), root, v1), _PROBE_DEADLINE)
    except Exception as exc:  # noqa: BLE001 - whatever happens, the caller gets what could be read
        return ServerInfo(None, v1, notes=(f"Could not probe {v1} ({type(exc).__name__}).",))


def _roots(base_url: str) -> tuple[str, str]:
    url = (base_url or "").strip().rstrip("/")
    root = url[: -len("/v1")] if url.endswith("/v1") else url
    return root, root + "/v1"


class _Http:
    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def get(self, url: str, **params: str) -> Any:
        return await self._json("GET", url, params=params or None)

    async def post(self, url: str, body: Mapping[str, Any]) -> Any:
        return await self._json("POST", url, json=dict(body))

    async def _json(self, method: str, url: str, **kw: Any) -> Any:
        """The JSON body of a 200 answer, or None for anything else."""
        try:
            response = await self.client.request(method, url, **kw)
            if response.status_code != 200:
                return None
            return response.json()
        except Exception:  # noqa: BLE001 - unreachable, timed out, not JSON: nothing to read here
            return None


async def _probe(http: _Http, root: str, v1: str) -> ServerInfo:
    openai_models, props, ollama_version, lmstudio_v0 = await asyncio.gather(
        http.get(f"{v1}/models"),
        http.get(f"{root}/props"),
        http.get(f"{root}/api/version"),
        http.get(f"{root}/api/v0/models"),
    )
    listed = _entries(openai_models, "data")
    if isinstance(props, dict) and isinstance(props.get("default_generation_settings"), dict):
        return await _llama_cpp(http, root, v1, listed, props)
    if isinstance(ollama_version, dict) and isinstance(ollama_version.get("version"), str):
        return await _ollama(http, root, v1, listed)
    if _entries(lmstudio_v0, "data") and any("max_context_length" in m for m in _entries(lmstudio_v0, "data")):
        return _lmstudio_v0(v1, _entries(lmstudio_v0, "data"))
    lmstudio_v1 = await http.get(f"{root}/api/v1/models")
    if _entries(lmstudio_v1, "models") and any("loaded_instances" in m for m in _entries(lmstudio_v1, "models")):
        return _lmstudio_v1(v1, _entries(lmstudio_v1, "models"))
    if any("max_model_len" in m or m.get("owned_by") == "vllm" for m in listed):
        return _vllm(v1, listed)
    if listed and all(m.get("owned_by") == "me" and "permissions" in m for m in listed):
        return _llama_cpp_python(v1, listed)
    if not listed:
        return ServerInfo(None, v1, notes=(f"{v1}/models could not be read.",))
    return ServerInfo(
        None,
        v1,
        {m["id"]: ModelLimits(m["id"]) for m in listed},
        (f"{v1} is not a server whose context window can be read; set {CONTEXT_ENV} for its models.",),
    )


def _entries(payload: Any, key: str) -> list[dict[str, Any]]:
    items = payload.get(key) if isinstance(payload, dict) else None
    if not isinstance(items, list):
        return []
    return [m for m in items if isinstance(m, dict) and isinstance(m.get("id", m.get("key")), str)]


async def _llama_cpp(
    http: _Http, root: str, v1: str, listed: list[dict[str, Any]], props: dict[str, Any]
) -> ServerInfo:
    # llama-server: /props default_generation_settings.n_ctx is the context of one slot, which
    # is what one request gets (the -c total divided by --parallel, unless the KV cache is
    # unified). In router mode each model has its own /props?model=.
    ids = [m["id"] for m in listed] or [str(props.get("model_alias") or props.get("model_path") or "default")]
    models: dict[str, ModelLimits] = {}
    notes: list[str] = []
    for entry in listed or [{"id": ids[0]}]:
        model_props = props
        if len(ids) > 1:
            model_props = await http.get(f"{root}/props", model=entry["id"], autoload="false")
        raw_meta = entry.get("meta")
        meta: dict[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
        settings = model_props.get("default_generation_settings") if isinstance(model_props, dict) else None
        settings = settings if isinstance(settings, dict) else {}
        raw_params = settings.get("params")
        params: dict[str, Any] = raw_params if isinstance(raw_params, dict) else {}
        context = token_count(settings.get("n_ctx")) or token_count((model_props or {}).get("n_ctx"))
        if context is None:
            notes.append(f"llama.cpp did not report the context of {entry['id']} (is it loaded?).")
        models[entry["id"]] = ModelLimits(
            entry["id"],
            context_window=context,
            max_output_tokens=token_count(params.get("n_predict")) or token_count(params.get("max_tokens")),
            trained_context=token_count(meta.get("n_ctx_train")),
            source="/props default_generation_settings.n_ctx" if context else "",
        )
    return ServerInfo("llama.cpp", v1, models, tuple(notes))


def _llama_cpp_python(v1: str, listed: list[dict[str, Any]]) -> ServerInfo:
    # Its server (0.3.x) exposes no setting at all: /v1/models lists aliases only, and there is
    # no /props. The context size it was started with (--n_ctx, 2048 by default) stays unknown.
    note = (
        f"llama-cpp-python's server does not report its context size; set {CONTEXT_ENV}='<handle>=<n_ctx>' "
        "to the --n_ctx it was started with."
    )
    return ServerInfo("llama-cpp-python", v1, {m["id"]: ModelLimits(m["id"]) for m in listed}, (note,))


async def _ollama(http: _Http, root: str, v1: str, listed: list[dict[str, Any]]) -> ServerInfo:
    tags, running = await asyncio.gather(http.get(f"{root}/api/tags"), http.get(f"{root}/api/ps"))
    tagged = [m.get("model") or m.get("name") for m in (tags or {}).get("models", []) if isinstance(m, dict)]
    names: list[str] = [n for n in tagged if isinstance(n, str)] or [m["id"] for m in listed]
    loaded: dict[str, int] = {}
    for m in (running or {}).get("models", []) if isinstance(running, dict) else []:
        if isinstance(m, dict) and token_count(m.get("context_length")):
            for key in (m.get("model"), m.get("name")):
                if isinstance(key, str):
                    loaded[key] = token_count(m["context_length"])  # type: ignore[assignment]
    gate = asyncio.Semaphore(_SHOW_CONCURRENCY)

    async def show(name: str) -> tuple[str, Any]:
        async with gate:
            return name, await http.post(f"{root}/api/show", {"model": name})

    models: dict[str, ModelLimits] = {}
    notes: list[str] = []
    for name, info in await asyncio.gather(*(show(n) for n in names)):
        info = info if isinstance(info, dict) else {}
        raw_info = info.get("model_info")
        model_info: dict[str, Any] = raw_info if isinstance(raw_info, dict) else {}
        arch = model_info.get("general.architecture")
        trained = token_count(model_info.get(f"{arch}.context_length")) if isinstance(arch, str) else None
        params = _ollama_parameters(info.get("parameters"))
        context: int | None
        if name in loaded:
            context, source = loaded[name], "/api/ps context_length (loaded)"
        elif token_count(params.get("num_ctx")):
            context, source = token_count(params["num_ctx"]), "/api/show parameters num_ctx"
        else:
            # Not loaded and no num_ctx of its own: Ollama picks the server's default when it loads
            # the model (OLLAMA_CONTEXT_LENGTH, or a size chosen from the memory it finds).
            context, source = None, ""
            notes.append(
                f"Ollama has not loaded {name} and it sets no num_ctx: its context window is the server's "
                f"default; set {CONTEXT_ENV} or OLLAMA_CONTEXT_LENGTH."
            )
        caps = info.get("capabilities")
        models[name] = ModelLimits(
            name,
            context_window=context,
            max_output_tokens=token_count(params.get("num_predict")),
            trained_context=trained,
            capabilities=tuple(c for c in caps if isinstance(c, str)) if isinstance(caps, list) else (),
            source=source,
        )
    return ServerInfo("ollama", v1, models, tuple(notes))


def _ollama_parameters(text: Any) -> dict[str, str]:
    """Ollama's ``parameters``: one ``name value`` per line (a name may repeat, like stop)."""
    out: dict[str, str] = {}
    if isinstance(text, str):
        for line in text.splitlines():
            name, _, value = line.strip().partition(" ")
            if name and value.strip():
                out.setdefault(name, value.strip().strip('"'))
    return out


def _lmstudio_v0(v1: str, entries: list[dict[str, Any]]) -> ServerInfo:
    # GET /api/v0/models (LM Studio 0.3.6+): max_context_length is the model's maximum; a loaded
    # model also reports loaded_context_length, the context it was loaded with.
    models: dict[str, ModelLimits] = {}
    notes: list[str] = []
    for m in entries:
        if m.get("type") in ("embeddings", "embedding"):
            continue
        loaded = token_count(m.get("loaded_context_length"))
        if loaded is None:
            notes.append(
                f"LM Studio has not loaded {m['id']}: it will load it with its default context length; "
                f"load it first or set {CONTEXT_ENV}."
            )
        models[m["id"]] = ModelLimits(
            m["id"],
            context_window=loaded,
            trained_context=token_count(m.get("max_context_length")),
            capabilities=tuple(c for c in m.get("capabilities") or () if isinstance(c, str)),
            source="/api/v0/models loaded_context_length" if loaded else "",
        )
    return ServerInfo("lmstudio", v1, models, tuple(notes))


def _lmstudio_v1(v1: str, entries: list[dict[str, Any]]) -> ServerInfo:
    # GET /api/v1/models (LM Studio 0.4+): loaded_instances[].config.context_length per instance.
    models: dict[str, ModelLimits] = {}
    for m in entries:
        if m.get("type") == "embedding" or not isinstance(m.get("key"), str):
            continue
        contexts = [
            token_count((i.get("config") or {}).get("context_length"))
            for i in m.get("loaded_instances") or ()
            if isinstance(i, dict) and isinstance(i.get("config"), dict)
        ]
        loaded = min((c for c in contexts if c), default=None)
        models[m["key"]] = ModelLimits(
            m["key"],
            context_window=loaded,
            trained_context=token_count(m.get("max_context_length")),
            source="/api/v1/models loaded_instances config.context_length" if loaded else "",
        )
    return ServerInfo("lmstudio", v1, models)


def _vllm(v1: str, listed: list[dict[str, Any]]) -> ServerInfo:
    # vLLM's /v1/models: max_model_len is the limit it enforces on prompt plus completion.
    models = {
        m["id"]: ModelLimits(
            m["id"],
            context_window=token_count(m.get("max_model_len")),
            source="/v1/models max_model_len" if token_count(m.get("max_model_len")) else "",
        )
        for m in listed
    }
    return ServerInfo("vllm", v1, models)


# -- what is known, for deciding requests -------------------------------------------------------


def _key(url: str | None) -> str:
    return _roots(url or "")[1]


class KnownObserver(Protocol):
    def stored(self, info: ServerInfo) -> None: ...
    def refused(self, url: str | None, model: str, shape: str) -> None: ...
    def reasoning(self, url: str | None, model: str, opens: bool) -> None: ...


_VERSIONS = itertools.count()  # the versions of every instance, so that no two share one


class Known:
    """What the probes found, by endpoint, and which models refused a schema in which request
    shape. Filled when models are listed; read, never fetched, when a request is decided.
    Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._servers: dict[str, ServerInfo] = {}
        # (endpoint, model, shape): a refusal holds for the shape that was refused only. An agent
        # that forces a shape the server does not speak must not turn every other agent on the
        # same model to free text.
        self._refused: set[tuple[str, str, str]] = set()
        # (endpoint, model): its chat template opens reasoning before each reply. Learned from a
        # reply that closed such reasoning, and passed on to the other workers; nothing is lost
        # before it is learned (blocks before the tag never run), only that reply's reasoning is
        # shown as its text.
        self._in_reasoning: set[tuple[str, str]] = set()
        # Told of what is learned (the shared state passes it on to other workers); must not block.
        self.observers: list[KnownObserver] = []
        # Changes with everything learned or forgotten, and differs between instances: what is
        # known is the same as long as it is the same (the proxy keeps its decisions while it is).
        self.version = next(_VERSIONS)

    def store(self, info: ServerInfo) -> None:
        with self._lock:
            self._servers[_key(info.base_url)] = info
            self.version = next(_VERSIONS)
        for observer in list(self.observers):
            observer.stored(info)

    def server(self, url: str | None) -> ServerInfo | None:
        with self._lock:
            return self._servers.get(_key(url))

    def refuse_schema(self, url: str | None, model: str, shape: str) -> bool:
        """Remember that ``model`` at ``url`` refused a schema sent in ``shape``; True the first time."""
        key = (_key(url), model, shape)
        with self._lock:
            new = key not in self._refused
            self._refused.add(key)
            self.version = next(_VERSIONS)
        if new:
            for observer in list(self.observers):
                observer.refused(url, model, shape)
        return new

    def refused_schema(self, url: str | None, model: str, shape: str) -> bool:
        with self._lock:
            return (_key(url), model, shape) in self._refused

    def note_template_reasoning(self, url: str | None, model: str) -> bool:
        """Remember that ``model`` at ``url`` begins its replies inside reasoning its chat
        template opened; True the first time."""
        key = (_key(url), model)
        with self._lock:
            new = key not in self._in_reasoning
            self._in_reasoning.add(key)
            self.version = next(_VERSIONS)
        if new:
            for observer in list(self.observers):
                observer.reasoning(url, model, True)
        return new

    def forget_template_reasoning(self, url: str | None, model: str) -> bool:
        """A reply of ``model`` expected to begin inside reasoning never closed it: read its
        replies as ordinary text again. True if it was remembered."""
        key = (_key(url), model)
        with self._lock:
            known = key in self._in_reasoning
            self._in_reasoning.discard(key)
            self.version = next(_VERSIONS)
        if known:
            for observer in list(self.observers):
                observer.reasoning(url, model, False)
        return known

    def opens_reasoning(self, url: str | None, model: str) -> bool:
        with self._lock:
            return (_key(url), model) in self._in_reasoning

    def clear(self) -> None:
        with self._lock:
            self._servers.clear()
            self._refused.clear()
            self._in_reasoning.clear()
            self.version = next(_VERSIONS)


KNOWN = Known()


def remember(request: EmulatedRequest, outcome: Outcome, log: Log) -> None:
    """Remember what a step found out about its endpoint (``selection`` reads :data:`KNOWN`):
    a model that refused the reply schema in one request shape is asked in free text from then
    on wherever that shape would be used; a model whose chat template opens reasoning before
    the reply has its later replies read as reasoning until their ``</think>``. Each is said
    once per model (and shape)."""
    model = str(request.get("model"))
    endpoint = request.step.endpoint
    if outcome.template_reasoning and KNOWN.note_template_reasoning(endpoint, model):
        log.info(
            "letta_tool_emulation: %s began its reply inside reasoning that its chat template opened (a lone "
            "</think>); its replies are read as reasoning until </think> from now on.",
            model,
        )
    elif outcome.template_reasoning is False and KNOWN.forget_template_reasoning(endpoint, model):
        log.warning(
            "letta_tool_emulation: a reply of %s never closed the reasoning its chat template was thought to "
            "open, so it was kept as reasoning; its replies are read as ordinary text again.",
            model,
        )
    shape = request.step.schema_shape
    if outcome.refused_schema_status is None:
        return
    if shape is None and request.step.grammar_kind is not None:
        if KNOWN.refuse_schema(endpoint, model, GRAMMAR_SHAPE):
            log.warning(
                "letta_tool_emulation: %s refused the grammar for its call blocks (HTTP %s); free-text replies "
                "without it from now on (%s=off turns it off everywhere).",
                model,
                outcome.refused_schema_status,
                "LETTA_TOOL_EMULATION_GRAMMAR",
            )
        return
    if shape is None:
        return
    if KNOWN.refuse_schema(endpoint, model, shape):
        log.warning(
            "letta_tool_emulation: %s refused the reply schema in the %s shape (HTTP %s); free-text replies "
            "from now on wherever that shape would be used.",
            model,
            shape,
            outcome.refused_schema_status,
        )
