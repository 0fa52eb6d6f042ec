"""Asking BFCL questions through BFCL's own OpenAI-compatible handler.

Every entry is an ``OpenAICompletionsHandler``, the handler BFCL uses for OpenAI-compatible
endpoints, so that the prompt, the history of a multi-turn question, the replay against BFCL's
simulated APIs and the decoding of replies are BFCL's code, not this benchmark's:

- function-calling mode (``is_fc_model``): the question's messages as they are, the functions as
  OpenAI ``tools`` (BFCL's ``convert_to_tool``, dots in names turned into underscores), calls read
  from ``message.tool_calls``, results sent back as ``tool`` messages;
- prompting mode: BFCL's default system prompt (its functions as JSON, calls asked for as
  ``[func(a=1)]``), the reply decoded by BFCL's Python-syntax decoder, results sent back as a user
  message.

What this module adds is only what a local server needs: the endpoint, an output limit (BFCL sends
none, and a small model may otherwise write until its context is full), a seed, a request timeout,
and ``tool_choice: "auto"`` with tools (the OpenAI default; llama-cpp-python's function-calling
handler ignores tools without it). Two more, the same for every entry:

- a system message, :data:`SYSTEM_MESSAGE`, for questions that have none (most of BFCL's):
  llama-cpp-python's function-calling handler describes the tools only inside a system message, so
  without one its model never sees them. BFCL's prompting format puts its own prompt before it;
- an assistant message with ``content: null`` in the history (a call, as the OpenAI SDK hands it
  back) is sent with ``content: ""``: llama-cpp-python's server answers 500 to ``null``. Each entry is registered in BFCL's model table under a name of
its own, because its checker looks the name up, and its simulated APIs keep their state in
module globals named after it.
"""

from __future__ import annotations

import contextlib
import io
import re
import time
import traceback
from dataclasses import dataclass
from typing import Any

from ._bfcl import MODEL_CONFIG_MAPPING, ModelConfig, OpenAICompletionsHandler, base_handler, is_multi_turn
from .questions import Question

# BFCL's own defaults: the temperature of its generation step, the step limit of a multi-turn turn.
BFCL_TEMPERATURE = 0.001
BFCL_MAX_STEPS = base_handler.MAXIMUM_STEP_LIMIT
# One neutral sentence, the same for every entry, that neither names a format nor favours calling.
SYSTEM_MESSAGE = (
    "You are a helpful assistant. When one of the functions you are given answers the user's request, "
    "call it with the right arguments; when none fits, answer in text."
)


def registry_name(entry: str) -> str:
    # BFCL's checker turns "_" in a registered name into "/" before looking it up: no underscores.
    return f"bench-{entry}".replace("_", "-")


@dataclass
class Endpoint:
    entry: str
    base_url: str
    model: str
    function_calling: bool


class BenchHandler(OpenAICompletionsHandler):  # type: ignore[misc]
    def __init__(
        self,
        endpoint: Endpoint,
        *,
        max_tokens: int,
        seed: int,
        timeout: float,
        temperature: float = BFCL_TEMPERATURE,
        api_key: str = "not-needed",
    ) -> None:
        self._endpoint = endpoint
        self._api_key = api_key
        self._timeout = timeout
        super().__init__(
            model_name=endpoint.model,
            temperature=temperature,
            registry_name=registry_name(endpoint.entry),
            is_fc_model=endpoint.function_calling,
        )
        self.max_tokens = max_tokens
        self.seed = seed
        # The simulated APIs' instances are module globals named from this: one set per entry.
        self.model_name_underline_replaced = registry_name(endpoint.entry).replace("-", "_")

    def _build_client_kwargs(self) -> dict[str, Any]:
        return {
            "base_url": self._endpoint.base_url,
            "api_key": self._api_key,
            "timeout": self._timeout,
            "max_retries": 0,
        }

    # Replaces BFCL's version, which retries rate limits for minutes: a local server has none.
    def generate_with_backoff(self, **kwargs: Any) -> tuple[Any, float]:
        kwargs["messages"] = [_sendable(m) for m in kwargs.get("messages", [])]
        kwargs.setdefault("max_tokens", self.max_tokens)
        kwargs.setdefault("seed", self.seed)
        if kwargs.get("tools"):
            kwargs.setdefault("tool_choice", "auto")
        started = time.monotonic()
        response = self.client.chat.completions.create(**kwargs)
        return response, time.monotonic() - started


def _sendable(message: Any) -> Any:
    """``message`` as a dict, with ``content: ""`` for a ``null`` one (see the module's docstring)."""
    if hasattr(message, "model_dump"):  # the SDK's own message object, as BFCL keeps replies
        message = message.model_dump(exclude_none=True)
    if isinstance(message, dict) and message.get("content") is None:
        message = {**message, "content": ""}
    return message


def with_system_message(entry: dict[str, Any]) -> dict[str, Any]:
    """The entry, with :data:`SYSTEM_MESSAGE` first in its first turn if that turn has none."""
    turns = entry["question"]
    if turns and turns[0] and turns[0][0].get("role") != "system":
        turns[0].insert(0, {"role": "system", "content": SYSTEM_MESSAGE})
    return entry


def register(endpoint: Endpoint) -> None:
    name = registry_name(endpoint.entry)
    MODEL_CONFIG_MAPPING[name] = ModelConfig(
        model_name=endpoint.model,
        display_name=f"{endpoint.entry} ({endpoint.model})",
        url="",
        org="",
        license="",
        model_handler=BenchHandler,
        is_fc_model=endpoint.function_calling,
        # Tools went out with dots turned into underscores; the checker turns them back.
        underscore_to_dot=endpoint.function_calling,
    )


@dataclass
class Asked:
    result: Any  # what BFCL's handler returns, fed to its checker as it is
    input_tokens: int
    output_tokens: int
    latencies: list[float]
    error: str | None = None


def _flatten(value: Any) -> list[float]:
    if isinstance(value, list):
        return [x for item in value for x in _flatten(item)]
    return [] if value is None else [float(value)]


def ask(handler: BenchHandler, question: Question, max_steps: int = BFCL_MAX_STEPS) -> Asked:
    """One question, as BFCL's generation step asks it. A failure (the server's error, a
    timeout) is kept as BFCL keeps it: the result is the error text, which its checker fails."""
    base_handler.MAXIMUM_STEP_LIMIT = max_steps
    log = io.StringIO()
    try:
        # BFCL's multi-turn loop prints every step; its log is of no use here.
        with contextlib.redirect_stdout(log):
            result, metadata = handler.inference(
                with_system_message(question.fresh_entry()), include_input_log=False, exclude_state_log=True
            )
    except Exception as exc:  # noqa: BLE001 - any failure of one question is that question's result
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        response = getattr(exc, "response", None)
        if response is not None:  # the server's own words (a context overflow, say)
            detail += f": {response.text[:500]}"
        return Asked(f"Error during inference: {detail}", 0, 0, [], error=detail)
    finally:
        base_handler.MAXIMUM_STEP_LIMIT = BFCL_MAX_STEPS
    return Asked(
        result,
        int(sum(_flatten(metadata.get("input_token_count")))),
        int(sum(_flatten(metadata.get("output_token_count")))),
        _flatten(metadata.get("latency")),
    )


def forget_state(question: Question) -> None:
    """Drops every instance of the simulated APIs that BFCL keeps, in module globals, for a
    multi-turn question (asked or checked, by any entry), so that it starts from its initial
    state if it is asked again in the same process."""
    if not is_multi_turn(question.category):
        return
    from bfcl_eval.eval_checker.multi_turn_eval import multi_turn_utils

    # BFCL names them "<model>_<question id>_<class>_instance", with "-./:" made "_".
    marker = "_" + re.sub(r"[-./:]", "_", question.id) + "_"
    for name in [n for n in vars(multi_turn_utils) if n.endswith("_instance") and marker in n]:
        del vars(multi_turn_utils)[name]
