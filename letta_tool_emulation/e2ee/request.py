"""Turning an OpenAI chat request into an end-to-end encrypted one.

Only what the protocol allows leaves in plaintext: the model id, sampling options, and
message roles. Every message's content is encrypted to the attested enclave key, each with
its own ephemeral key; options that E2EE forbids or that would carry content in plaintext
(tools, structured output, web search, logprobs, native tool calls in the history, reasoning
fields) are dropped or refused.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from .crypto import encrypt_text
from .errors import RequestError
from .session import Session

log = logging.getLogger(__name__)

CLIENT_KEY_HEADER = "X-Venice-TEE-Client-Pub-Key"
MODEL_KEY_HEADER = "X-Venice-TEE-Model-Pub-Key"
ALGO_HEADER = "X-Venice-TEE-Signing-Algo"
SIGNING_ALGO = "ecdsa"

# Top-level options passed on as they are: sampling and limits, nothing that carries content.
# Everything else is dropped: tools, tool_choice, parallel_tool_calls, response_format,
# reasoning, reasoning_effort, prompt_cache_key, prompt_cache_retention, logprobs,
# top_logprobs (tokens in plaintext), user, metadata, store, and Venice's own parameters
# (web search and scraping, citations, character_slug, thinking switches).
KEPT_OPTIONS = frozenset(
    {
        "temperature", "top_p", "top_k", "min_p", "min_temp", "max_temp", "max_tokens", "max_completion_tokens",
        "frequency_penalty", "presence_penalty", "repetition_penalty", "stop", "stop_token_ids", "seed", "n",
    }
)  # fmt: skip
ROLES = frozenset({"system", "user", "assistant", "tool"})
# An empty message is sent as one space, encrypted. An encrypted empty string would decrypt to
# "", which servers that validate after decryption refuse (empty user and system content,
# assistant messages without content); dropping the message instead would change the turn's
# structure (the order of roles, a tool result without its call). A space means nothing to the
# model and keeps both.
EMPTY_CONTENT = " "


def _shown(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _fail(check: str, what: str) -> RequestError:
    return RequestError(check, f"{what} Nothing was sent.")


def flatten_content(content: Any, index: int) -> str:
    """A message's content as one string: text parts joined by newlines; other parts refused."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise _fail("content", f"messages[{index}].content is neither text nor a list of parts.")
    texts = []
    for j, part in enumerate(content):
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, Mapping) and part.get("type") == "text" and isinstance(part.get("text"), str):
            texts.append(part["text"])
        else:
            kind = part.get("type") if isinstance(part, Mapping) else type(part).__name__
            raise _fail(
                "content_part",
                f"messages[{index}].content[{j}] is a {_shown(kind)} part; end-to-end encrypted models accept text only "
                "(no images, audio or files). Remove the attachment, or use a model without end-to-end encryption.",
            )
    return "\n".join(texts)


def _message(m: Any, index: int, session: Session) -> dict[str, Any]:
    if not isinstance(m, Mapping):
        raise _fail("message", f"messages[{index}] is not an object.")
    role = m.get("role")
    role = "system" if role == "developer" else role  # Venice knows no developer role
    if role not in ROLES:
        raise _fail("role", f"messages[{index}] has the role {_shown(role)}; expected system, user, assistant or tool.")
    if m.get("tool_calls") or m.get("function_call"):
        raise _fail(
            "tool_calls",
            f"messages[{index}] carries native tool calls, whose arguments cannot be encrypted. End-to-end "
            "encrypted requests must carry earlier calls as text in the message content.",
        )
    if m.get("audio"):
        raise _fail("content_part", f"messages[{index}] carries audio; end-to-end encrypted models accept text only.")
    text = flatten_content(m.get("content"), index) or EMPTY_CONTENT
    out: dict[str, Any] = {"role": role, "content": encrypt_text(text, session.model_key)}
    # An opaque id: kept so that a tool message still answers its call. The name, reasoning
    # and reasoning_content fields would travel in plaintext, so they are not sent.
    if role == "tool" and isinstance(m.get("tool_call_id"), str):
        out["tool_call_id"] = m["tool_call_id"]
    return out


def encrypt_request(body: Mapping[str, Any], session: Session) -> tuple[dict[str, Any], dict[str, str]]:
    """The encrypted chat body and the three ``X-Venice-TEE-*`` headers for ``body`` (an OpenAI
    chat completion request) on ``session``. RequestError when the request cannot be sent
    end-to-end encrypted as it is. The body always streams."""
    if not isinstance(body, Mapping):
        raise _fail("body", "The request body is not an object.")
    if body.get("model") != session.model:
        raise _fail(
            "model",
            f"The request is for {_shown(body.get('model'), 80)} but the session was attested for {session.model!r}.",
        )
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise _fail("messages", "The request has no messages.")
    out: dict[str, Any] = {
        "model": session.model,
        "messages": [_message(m, i, session) for i, m in enumerate(messages)],
    }
    out.update({k: v for k, v in body.items() if k in KEPT_OPTIONS and v is not None})
    out["stream"] = True
    options = body.get("stream_options")
    if isinstance(options, Mapping) and isinstance(options.get("include_usage"), bool):
        out["stream_options"] = {"include_usage": options["include_usage"]}
    out["venice_parameters"] = {"enable_e2ee": True, "include_venice_system_prompt": False}
    dropped = sorted(set(body) - KEPT_OPTIONS - {"model", "messages", "stream", "stream_options"})
    if dropped:
        log.debug("end-to-end encrypted request to %s: options left out: %s", session.model, ", ".join(dropped))
    return out, request_headers(session)


def request_headers(session: Session) -> dict[str, str]:
    return {
        CLIENT_KEY_HEADER: session.keys.public_hex,
        MODEL_KEY_HEADER: session.attestation.model_public_key,
        ALGO_HEADER: SIGNING_ALGO,
    }
