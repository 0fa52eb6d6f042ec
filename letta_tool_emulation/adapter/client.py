"""``VeniceEmulatedClient``: Letta's ``OpenAIClient``, with tool calling emulated in text for
models that have none, and stock behaviour for every other model.

For an emulated model, ``build_request_data`` builds the request exactly as Letta does, then
moves the tools into the system prompt, renders the history as text and drops what a strict
endpoint rejects. ``request_async`` / ``stream_async`` parse the reply back into tool calls
(re-asking when an attempted call could not be used) and ``convert_response_to_chat_completion``
hands Letta an ordinary OpenAI response with ``tool_calls``. Letta's own agent loop and tool
executor do the rest, so every Letta tool works unchanged.
"""

from __future__ import annotations

import inspect
import json
import logging
import os
import time
import uuid
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import httpx
from letta.errors import LettaError
from letta.llm_api.openai_client import OpenAIClient

from .. import venice
from ..core import ParseResult, parse_tool_calls, render_messages
from ..core.calls import DEFAULT_THRESHOLD
from ..selection import Decision, decide, handle_of
from .errors import map_error
from .plan import (
    HEARTBEAT,
    INNER_THOUGHTS,
    MARK,
    REPLY_TOOL,
    TOOL_CALL_ID_LEN,
    Plan,
    Settled,
    Usage,
    given_up_content,
    reask_messages,
    settle,
    strip_injected,
)
from .stream import EmulatedStream

log = logging.getLogger("letta_tool_emulation")

_BUILD = inspect.signature(OpenAIClient.build_request_data)
# Plans by token, so that a request dict can be resolved by any client instance; bounded.
_PLANS: OrderedDict[str, Plan] = OrderedDict()
_PLANS_MAX = 1024
_ANNOUNCED: set[tuple[str, str]] = set()


def _env_int(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


class VeniceEmulatedClient(OpenAIClient):
    """See the module docstring. Decides per request, from the ``llm_config`` Letta passes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._init_emulation()

    @classmethod
    def adopt(cls, client: OpenAIClient) -> VeniceEmulatedClient:
        """Turn a client letta just built into this class, keeping all it set up."""
        client.__class__ = cls
        assert isinstance(client, cls)
        client._init_emulation()
        return client

    def _init_emulation(self) -> None:
        self._queue: list[dict[str, Any]] = []  # further calls of the last reply, in order
        self._queue_after: str | None = None  # the call whose result must come first
        self._feedback = ""  # about rejected calls, for the model's next request

    # -- requests ---------------------------------------------------------------------------

    def build_request_data(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        data = super().build_request_data(*args, **kwargs)
        try:
            arguments = _BUILD.bind(self, *args, **kwargs).arguments
        except TypeError:  # letta changed the signature: leave its request alone
            return data
        llm_config = arguments.get("llm_config")
        decision = decide(llm_config)
        _announce(llm_config, decision)
        if not decision.emulate:
            return data
        return self._emulated_request(
            data, arguments.get("messages") or [], llm_config, arguments.get("tools") or [], decision
        )

    def _emulated_request(
        self, data: dict[str, Any], messages: list[Any], llm_config: Any, tools: list[Any], decision: Decision
    ) -> dict[str, Any]:
        specs, thoughts, beats = {}, set(), set()
        # The tools exactly as Letta would have sent them: it adds `thinking` (and removes
        # `request_heartbeat` for v1 agents) while building the request, not in `tools`.
        for tool in data.get("tools") or tools:
            if isinstance(tool, Mapping):
                spec, has_thoughts, has_heartbeat = strip_injected(tool)
                specs[spec.name] = spec
                if has_thoughts:
                    thoughts.add(spec.name)
                if has_heartbeat:
                    beats.add(spec.name)
        tool_choice = data.get("tool_choice") if specs else None
        history = _history(data.get("messages") or [], messages, thoughts, beats)
        rendered = render_messages(history, specs.values(), tool_choice=tool_choice, example=_example(specs))
        if self._feedback and specs and rendered and rendered[-1]["role"] == "user":
            # Kept until a request that offers tools can carry it (not a summarizer request).
            rendered[-1] = {"role": "user", "content": rendered[-1]["content"] + "\n\n" + self._feedback}
            self._feedback = ""
        body = venice.clean_request({**data, "messages": rendered})
        limit = decision.model.max_completion_tokens if decision.model else None
        if limit and isinstance(body.get("max_completion_tokens"), int):
            # Letta sends its 16384 default whatever the model's real limit.
            body["max_completion_tokens"] = min(body["max_completion_tokens"], limit)
        if decision.venice:
            body["venice_parameters"] = venice.venice_parameters()
        plan = Plan(
            decision=decision,
            tools=specs,
            inner_thoughts=frozenset(thoughts),
            heartbeat=frozenset(beats),
            tool_choice=tool_choice,
            parallel=bool(getattr(llm_config, "parallel_tool_calls", False)),
            queued=self._next_queued(data.get("messages") or []) if specs else None,
            max_reasks=_env_int("LETTA_TOOL_EMULATION_MAX_RETRIES", 2),
            threshold=_env_float("LETTA_TOOL_EMULATION_THRESHOLD", DEFAULT_THRESHOLD),
        )
        token = uuid.uuid4().hex
        _PLANS[token] = plan
        while len(_PLANS) > _PLANS_MAX:
            _PLANS.popitem(last=False)
        return {**body, MARK: {"token": token, "reason": decision.reason}}

    def _next_queued(self, history: list[Mapping[str, Any]]) -> dict[str, Any] | None:
        if not self._queue:
            return None
        # The last call in the history must be the one handed out before, and answered. (A
        # client lives for one agent loop, so no new user turn can come in between; Letta
        # may add its own heartbeat message after the result, for memgpt-style agents.)
        expected = (self._queue_after or "")[:TOOL_CALL_ID_LEN]
        last_call = next((m for m in reversed(history) if m.get("role") == "assistant" and m.get("tool_calls")), None)
        answered = any(m.get("role") == "tool" and m.get("tool_call_id") == expected for m in history)
        if (
            last_call is not None
            and str(last_call["tool_calls"][-1].get("id", ""))[:TOOL_CALL_ID_LEN] == expected
            and answered
        ):
            call = self._queue.pop(0)
            self._queue_after = call["id"]
            return call
        log.warning(
            "letta_tool_emulation: %d further call(s) from the model's last reply were not run: the "
            "conversation moved on before their turn (%s).",
            len(self._queue),
            ", ".join(c["function"]["name"] for c in self._queue),
        )
        self._queue.clear()
        return None

    def _take_plan(self, request_data: Any) -> tuple[Plan, dict[str, Any]] | None:
        mark = request_data.get(MARK) if isinstance(request_data, Mapping) else None
        if not isinstance(mark, Mapping):
            return None
        plan = _PLANS.get(str(mark.get("token")))
        if plan is None:
            raise LettaError(message="tool emulation: this request is too old to send; build it again.")
        body = venice.clean_request({k: v for k, v in request_data.items() if k != MARK})
        if "venice_parameters" in body:  # the OpenAI SDK sends non-standard fields only this way
            body["extra_body"] = {"venice_parameters": body.pop("venice_parameters")}
        return plan, body

    def _after_reply(self, plan: Plan, settled: Settled) -> None:
        if not plan.tools:  # a summarizer's request: the agent's pending calls are not its business
            return
        self._queue = list(settled.queue)
        self._queue_after = settled.calls[0]["id"] if settled.calls else None
        self._feedback = settled.feedback

    def _log_reply(self, plan: Plan, settled: Settled, attempt: int) -> None:
        names = [c["function"]["name"] for c in settled.calls]
        if settled.reask:
            more = "asking again" if attempt <= plan.max_reasks else "giving up"
            log.warning(
                "letta_tool_emulation: no usable call in reply %d (%s); %s.", attempt, "; ".join(settled.problems), more
            )
        elif settled.feedback:
            log.warning("letta_tool_emulation: calling %s; rejected: %s", names, "; ".join(settled.problems))
        else:
            log.debug("letta_tool_emulation: reply %d -> calls %s, queued %d", attempt, names, len(settled.queue))

    # -- blocking -----------------------------------------------------------------------------

    async def request_async(
        self, request_data: dict[str, Any], llm_config: Any, *args: Any, **kwargs: Any
    ) -> dict[str, Any]:
        taken = self._take_plan(request_data)
        if taken is None:
            return await super().request_async(request_data, llm_config, *args, **kwargs)
        plan, body = taken
        if plan.queued is not None:
            return _queued_response(plan, body)
        usage = Usage()
        messages = body["messages"]
        attempt = 0
        while True:
            attempt += 1
            response = await super().request_async({**body, "messages": messages}, llm_config, *args, **kwargs)
            settled, text = self._settle_response(plan, response, messages, usage)
            self._log_reply(plan, settled, attempt)
            if settled.reask and attempt <= plan.max_reasks:
                messages = reask_messages(messages, text, settled.reask)
                continue
            break
        return self._finish(plan, response, settled, usage, attempt)

    def request(self, request_data: dict[str, Any], llm_config: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        taken = self._take_plan(request_data)
        if taken is None:
            return super().request(request_data, llm_config, *args, **kwargs)
        plan, body = taken
        if plan.queued is not None:
            return _queued_response(plan, body)
        usage = Usage()
        response = super().request(body, llm_config, *args, **kwargs)
        settled, _ = self._settle_response(plan, response, body["messages"], usage)
        self._log_reply(plan, settled, 1)
        return self._finish(plan, response, settled, usage, 1)

    def _settle_response(
        self, plan: Plan, response: Mapping[str, Any], messages: list[Any], usage: Usage
    ) -> tuple[Settled, str]:
        choice = (response.get("choices") or [{}])[0]
        message = choice.get("message") or {}
        text = message.get("content") or ""
        upstream_reasoning = message.get("reasoning_content") or message.get("reasoning") or ""
        usage.add(response.get("usage"), messages, text)
        if plan.tools:
            result = parse_tool_calls(text, plan.tools.values(), choice.get("finish_reason"), threshold=plan.threshold)
        else:
            result = ParseResult(content=text)
        return settle(plan, result, upstream_reasoning), text

    def _finish(
        self, plan: Plan, response: dict[str, Any], settled: Settled, usage: Usage, attempts: int
    ) -> dict[str, Any]:
        self._after_reply(plan, settled)
        content = settled.content
        if not settled.calls and settled.reask:
            content = given_up_content(settled, attempts)
        reasoning = settled.reasoning
        if settled.calls and not any(c["function"]["name"] in plan.inner_thoughts for c in settled.calls):
            # Text next to a call must travel as reasoning: Letta drops it otherwise. (Where
            # Letta takes the agent's thoughts from a `thinking` argument, it is there already.)
            reasoning = settled.carried_prose
        response[MARK] = {
            "calls": settled.calls,
            "content": content,
            "reasoning": reasoning,
            "usage": usage.as_dict(),
            "usage_estimated": usage.estimated,
            "attempts": attempts,
            "queued": len(settled.queue),
        }
        return response

    async def convert_response_to_chat_completion(
        self, response_data: dict[str, Any], input_messages: Any, llm_config: Any, *args: Any, **kwargs: Any
    ) -> Any:
        info = response_data.get(MARK) if isinstance(response_data, Mapping) else None
        if not isinstance(info, Mapping):
            return await super().convert_response_to_chat_completion(
                response_data, input_messages, llm_config, *args, **kwargs
            )
        data = {k: v for k, v in response_data.items() if k != MARK}
        choices = [dict(c) for c in data.get("choices") or [{"index": 0}]]
        message = dict(choices[0].get("message") or {"role": "assistant"})
        message.pop("reasoning", None)
        if info["calls"]:
            message["content"] = None
            message["tool_calls"] = info["calls"]
            choices[0]["finish_reason"] = "tool_calls"
        else:
            # An empty reply stays None, so that Letta reports an empty response.
            message["content"] = info["content"] or None
            message.pop("tool_calls", None)
            if choices[0].get("finish_reason") in (None, "tool_calls"):
                choices[0]["finish_reason"] = "stop"
        message["reasoning_content"] = info["reasoning"] or None
        choices[0]["message"] = message
        data["choices"] = choices
        data["usage"] = info["usage"]
        return await super().convert_response_to_chat_completion(data, input_messages, llm_config, *args, **kwargs)

    # -- streaming ------------------------------------------------------------------------------

    async def stream_async(self, request_data: dict[str, Any], llm_config: Any, *args: Any, **kwargs: Any) -> Any:
        taken = self._take_plan(request_data)
        if taken is None:
            return await super().stream_async(request_data, llm_config, *args, **kwargs)
        plan, body = taken
        # The Responses-API websocket options do not apply to chat completions; they are ignored.
        return EmulatedStream(self, plan, body, llm_config)

    # -- keys and errors ------------------------------------------------------------------------

    async def _prepare_client_kwargs_async(self, llm_config: Any) -> dict[str, Any]:
        return _emulation_kwargs(await super()._prepare_client_kwargs_async(llm_config), llm_config)

    def _prepare_client_kwargs(self, llm_config: Any) -> dict[str, Any]:
        return _emulation_kwargs(super()._prepare_client_kwargs(llm_config), llm_config)

    def _prepare_client_kwargs_embedding(self, embedding_config: Any) -> dict[str, Any]:
        kwargs = super()._prepare_client_kwargs_embedding(embedding_config)
        handle = getattr(embedding_config, "handle", None) or ""
        if handle.startswith(venice.PROVIDER_NAME + "/") and venice.api_key():
            kwargs["api_key"] = venice.api_key()
        return kwargs

    def handle_llm_error(self, e: Exception, llm_config: Any = None, *args: Any, **kwargs: Any) -> Exception:
        if isinstance(e, LettaError):
            # Already a Letta error (raised by this client): keep it, so that a context
            # overflow still makes Letta summarize and retry.
            return e
        if llm_config is not None:
            decision = decide(llm_config)
            if decision.emulate or decision.venice:
                mapped = map_error(e, handle_of(llm_config))
                if mapped is not None:
                    return mapped
        return super().handle_llm_error(e, llm_config, *args, **kwargs)


def _emulation_kwargs(kwargs: dict[str, Any], llm_config: Any) -> dict[str, Any]:
    """The OpenAI SDK options for a request: Venice's key for the venice base provider, and
    a read timeout for emulated models."""
    # Letta's base providers authenticate with OPENAI_API_KEY; the venice base provider
    # needs VENICE_API_KEY. BYOK providers already bring their own key.
    category = getattr(llm_config, "provider_category", None)
    category = str(getattr(category, "value", category or ""))
    if getattr(llm_config, "provider_name", None) == venice.PROVIDER_NAME and category != "byok" and venice.api_key():
        kwargs["api_key"] = venice.api_key()
    if "timeout" not in kwargs and decide(llm_config).emulate:
        # Letta's OpenAI client sets no timeout (the SDK waits 600 s for each read), so a
        # stalled model would hold an agent for ten minutes: honour Letta's own setting.
        from letta.settings import settings

        seconds = float(getattr(settings, "llm_request_timeout_seconds", 60.0))
        kwargs["timeout"] = httpx.Timeout(seconds, connect=min(10.0, seconds))
    return kwargs


def _announce(llm_config: Any, decision: Decision) -> None:
    key = (handle_of(llm_config), decision.reason)
    if decision.emulate and key not in _ANNOUNCED:
        _ANNOUNCED.add(key)
        log.info(
            "letta_tool_emulation: emulating tool calls for %s (%s) [pid %d]", key[0], decision.reason, os.getpid()
        )


def _history(
    history: list[Mapping[str, Any]], messages: list[Any], thoughts: set[str], beats: set[str]
) -> list[Mapping[str, Any]]:
    """Letta's request messages, with earlier calls shown as the model wrote them.

    - The text that accompanied an earlier call is put back: Letta keeps it as reasoning on
      the stored message but leaves it out of the request (it scrubs text next to tool
      calls, and sends reasoning only for multi-part messages).
    - Letta's own `thinking` and `request_heartbeat` arguments are taken out of earlier
      calls: the model never wrote them (the prompt does not mention them), and the
      `thinking` text is the prose already shown.
    """
    prose: dict[str, str] = {}
    for m in messages:
        calls = getattr(m, "tool_calls", None)
        if getattr(m, "role", None) != "assistant" or not calls:
            continue
        parts: list[str] = []
        for c in getattr(m, "content", None) or ():
            text = getattr(c, "reasoning", None) or getattr(c, "text", None)
            if isinstance(text, str) and text.strip() and text.strip() not in parts:
                parts.append(text.strip())
        if parts:
            prose[str(calls[0].id)[:TOOL_CALL_ID_LEN]] = "\n\n".join(parts)
    out = []
    for d in history:
        if d.get("role") == "assistant" and d.get("tool_calls"):
            calls = [_without_injected(tc, thoughts, beats) for tc in d["tool_calls"]]
            d = {**d, "tool_calls": calls}
            if not (d.get("content") or "").strip():
                text = prose.get(str(calls[0].get("id", ""))[:TOOL_CALL_ID_LEN])
                if text:
                    d["content"] = text
        out.append(
            {k: v for k, v in d.items() if not k.startswith("reasoning_content") and k != "redacted_reasoning_content"}
        )
    return out


def _without_injected(call: Mapping[str, Any], thoughts: set[str], beats: set[str]) -> Mapping[str, Any]:
    fn = call.get("function") if isinstance(call.get("function"), Mapping) else {}
    name = fn.get("name")
    drop = {INNER_THOUGHTS} if name in thoughts else set()
    drop |= {HEARTBEAT} if name in beats else set()
    if not drop:
        return call
    try:
        args = json.loads(fn.get("arguments") or "{}")
    except ValueError:
        return call
    if not isinstance(args, dict):
        return call
    cleaned = {k: v for k, v in args.items() if k not in drop}
    return {**call, "function": {**fn, "arguments": json.dumps(cleaned, ensure_ascii=False)}}


def _example(specs: Mapping[str, Any]) -> dict[str, Any] | None:
    """A worked example in Letta's terms, when the agent has the usual memory tools."""
    if "memory_insert" in specs:
        return {"function": "memory_insert", "params": {"label": "human", "new_string": "The user likes pizza."}}
    if "core_memory_append" in specs:
        return {"function": "core_memory_append", "params": {"label": "human", "content": "The user likes pizza."}}
    if REPLY_TOOL in specs:
        return {"function": REPLY_TOOL, "params": {"message": "Hi! How can I help?"}}
    return None


def _queued_response(plan: Plan, body: Mapping[str, Any]) -> dict[str, Any]:
    assert plan.queued is not None
    return {
        "id": "chatcmpl-queued-" + uuid.uuid4().hex[:12],
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", ""),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": None}, "finish_reason": "tool_calls"}],
        "usage": Usage().as_dict(),
        MARK: {
            "calls": [plan.queued],
            "content": "",
            "reasoning": "",
            "usage": Usage().as_dict(),
            "usage_estimated": False,
            "attempts": 0,
            "queued": 0,
        },
    }
