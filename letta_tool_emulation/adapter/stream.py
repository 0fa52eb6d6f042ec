"""The stream Letta reads for an emulated model: text chunks from the model become OpenAI
``ChatCompletionChunk`` deltas with real tool calls, and no call markup ever reaches them."""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from letta.llm_api.openai_client import OpenAIClient
from openai.types.chat import ChatCompletionChunk

from ..core import ParseResult, StreamingToolCallParser
from .errors import broken_stream_error
from .plan import Plan, Usage, given_up_content, new_call_id, reask_messages, settle

if TYPE_CHECKING:
    from .client import VeniceEmulatedClient

log = logging.getLogger("letta_tool_emulation")
ARGUMENT_PIECE = 16  # characters of arguments per delta, about what native models send


class EmulatedStream:
    """Usable with ``async with`` and ``async for`` like the SDK's stream."""

    def __init__(self, client: VeniceEmulatedClient, plan: Plan, body: dict[str, Any], llm_config: Any) -> None:
        self._client = client
        self._plan = plan
        self._body = body
        self._llm_config = llm_config
        self._upstream: Any = None
        self._id = "chatcmpl-" + new_call_id()[5:]
        self._model = str(body.get("model", ""))
        self._created = int(time.time())

    async def __aenter__(self) -> EmulatedStream:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        upstream, self._upstream = self._upstream, None
        if upstream is not None:
            await upstream.close()

    def __aiter__(self) -> AsyncIterator[ChatCompletionChunk]:
        return self._chunks()

    # -- chunks -----------------------------------------------------------------------------

    def _chunk(
        self, delta: dict[str, Any] | None = None, finish: str | None = None, usage: dict[str, int] | None = None
    ) -> ChatCompletionChunk:
        return ChatCompletionChunk.model_validate(
            {
                "id": self._id,
                "object": "chat.completion.chunk",
                "created": self._created,
                "model": self._model,
                "choices": [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}],
                "usage": usage,
            }
        )

    def _call_chunks(self, index: int, call: dict[str, Any]) -> list[ChatCompletionChunk]:
        """One call the way a native model streams it: id and name first (Letta shows nothing
        of a call before its id), then the arguments in small pieces. Letta's interfaces are
        built for that shape; the one for memgpt-style agents, for one, holds back arguments
        that arrive together with the end of `thinking` until another piece comes."""
        args = call["function"]["arguments"]
        head = {
            "index": index,
            "id": call["id"],
            "type": "function",
            "function": {"name": call["function"]["name"], "arguments": ""},
        }
        chunks = [self._chunk({"role": "assistant", "tool_calls": [head]})]
        for i in range(0, len(args), ARGUMENT_PIECE):
            piece = args[i : i + ARGUMENT_PIECE]
            chunks.append(self._chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}))
        return chunks

    async def _chunks(self) -> AsyncIterator[ChatCompletionChunk]:
        plan = self._plan
        if plan.queued is not None:  # a further call from the previous reply: no model call
            for chunk in self._call_chunks(0, plan.queued):
                yield chunk
            yield self._chunk({}, finish="tool_calls")
            yield self._chunk(usage=Usage().as_dict())
            return

        usage = Usage()
        messages = list(self._body["messages"])
        attempts = 0
        while True:
            attempts += 1
            parser = StreamingToolCallParser(plan.tools.values(), threshold=plan.threshold)
            reply: list[str] = []
            upstream_reasoning: list[str] = []
            reported: Any = None
            finish: str | None = None
            self._upstream = await OpenAIClient.stream_async(
                self._client, {**self._body, "messages": messages}, self._llm_config
            )
            try:
                async for chunk in self._upstream:
                    if chunk.usage is not None:
                        reported = chunk.usage
                    if not chunk.choices:
                        continue
                    choice = chunk.choices[0]
                    delta = choice.delta
                    if choice.finish_reason:
                        finish = choice.finish_reason
                    thought = getattr(delta, "reasoning_content", None) or getattr(delta, "reasoning", None)
                    if thought:
                        upstream_reasoning.append(thought)
                        yield self._chunk({"role": "assistant", "reasoning_content": thought})
                    if delta.content and not plan.tools:  # nothing to parse: pass the text on
                        reply.append(delta.content)
                        yield self._chunk({"role": "assistant", "content": delta.content})
                    elif delta.content:
                        reply.append(delta.content)
                        for event in parser.feed(delta.content):
                            if event.text:
                                yield self._chunk({"role": "assistant", "content": event.text})
                            elif event.reasoning:
                                yield self._chunk({"role": "assistant", "reasoning_content": event.reasoning})
            except Exception as exc:
                raise broken_stream_error(exc, self._model, in_call=parser.in_call) from exc
            finally:
                await self.close()
            for event in parser.close(finish):
                if event.text:
                    yield self._chunk({"role": "assistant", "content": event.text})
                elif event.reasoning:
                    yield self._chunk({"role": "assistant", "reasoning_content": event.reasoning})
            text = "".join(reply)
            usage.add(reported, messages, text)
            result = parser.result if plan.tools else ParseResult(content=text)
            settled = settle(plan, result, "".join(upstream_reasoning))
            self._client._log_reply(plan, settled, attempts)
            if settled.reask and attempts <= plan.max_reasks:
                messages = reask_messages(messages, text, settled.reask)
                continue
            break

        self._client._after_reply(plan, settled)
        if settled.calls:
            if settled.content and not any(c["function"]["name"] in plan.inner_thoughts for c in settled.calls):
                # Streamed text next to a call is stored as text, which Letta drops from the
                # next request; the same words as reasoning survive (see README).
                sep = "\n\n" if settled.reasoning else ""
                yield self._chunk({"role": "assistant", "reasoning_content": sep + settled.content})
            for index, call in enumerate(settled.calls):
                for chunk in self._call_chunks(index, call):
                    yield chunk
            yield self._chunk({}, finish="tool_calls")
        else:
            if settled.reask and not settled.content:  # gave up: say so instead of ending silently
                yield self._chunk({"role": "assistant", "content": given_up_content(settled, attempts)})
            yield self._chunk({}, finish=finish or "stop")
        yield self._chunk(usage=usage.as_dict())
