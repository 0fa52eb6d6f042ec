"""Text the model writes next to its calls reaches Letta as a native model's would: the same
messages, in the response, the stream and the stored history, and each piece of text once.

Each case runs one turn twice on the same server: on the native model, scripted to send its
text, reasoning and calls as a native model does, and on the emulated one, scripted to write
the same as text. The two must look the same to a Letta client.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from letta_tool_emulation.runtime.standin import Scripted

from .conftest import MODEL, NATIVE, new_agent

PROSE = "Let me note that down."
THINK = "The user likes tea."
FACT = {"label": "human", "new_string": "likes tea"}


def compact(args: dict[str, Any]) -> str:
    return json.dumps(args, separators=(",", ":"))


def block(name: str, args: dict[str, Any]) -> str:
    return f"TOOL_CALL_START\n{json.dumps({'function': name, 'params': args})}\nTOOL_CALL_END"


def native_call(name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "arguments": compact(args)}


def scripts(kind: str, case: str) -> tuple[list[Scripted], list[Scripted]]:
    """(native, emulated) replies for one turn: a memory edit with what comes with it, then the answer."""
    if kind == "letta_v1_agent":  # text beside the call; reasoning apart from it
        native = [
            Scripted(reasoning=THINK, text=PROSE, tool_calls=[native_call("memory_insert", FACT)]),
            Scripted(text="Done."),
        ]
        emulated = [
            Scripted(text=f"<think>{THINK}</think>\n{PROSE}\n" + block("memory_insert", FACT)),
            Scripted(text="Done."),
        ]
        return native, emulated
    # memgpt-style: Letta asks for the agent's thoughts in each call's `thinking` argument
    thoughts = PROSE if case == "prose" else ""
    native = [
        Scripted(tool_calls=[native_call("memory_insert", {"thinking": thoughts, **FACT, "request_heartbeat": True})]),
        Scripted(tool_calls=[native_call("send_message", {"thinking": "", "message": "Done."})]),
    ]
    written = f"{PROSE}\n" if case == "prose" else ""
    emulated = [
        Scripted(text=written + block("memory_insert", FACT)),
        Scripted(text=block("send_message", {"message": "Done."})),
    ]
    return native, emulated


def merged(chunks: Any) -> list[dict[str, Any]]:
    """A token stream as the messages it makes up (chunks of one message share its otid)."""
    out: list[dict[str, Any]] = []
    for chunk in chunks:
        d = chunk.model_dump()
        same = out and d.get("otid") and out[-1].get("otid") == d.get("otid")
        if same and out[-1].get("message_type") == d.get("message_type"):
            for key in ("content", "reasoning"):
                if isinstance(d.get(key), str):
                    out[-1][key] = (out[-1].get(key) or "") + d[key]
        else:
            out.append(d)
    return out


def shown(messages: list[dict[str, Any]]) -> list[tuple[str, ...]]:
    """What a client shows of each message: its kind and text (reasoning with its source)."""
    out: list[tuple[str, ...]] = []
    for m in messages:
        kind = m.get("message_type")
        if kind == "assistant_message":
            out.append((kind, (m.get("content") or "").strip()))
        elif kind == "reasoning_message":
            out.append((kind, str(m.get("source")), m.get("reasoning") or ""))
        elif kind == "tool_call_message":
            out.append((kind, (m.get("tool_call") or {}).get("name") or ""))
        elif kind == "tool_return_message":
            out.append((kind,))
    return out


def turn(letta: Any, standin: Any, model: str, kind: str, replies: list[Scripted], streaming: bool) -> tuple[Any, ...]:
    standin.reset()
    agent = new_agent(letta, kind=kind, model=model)
    before = len(letta.agents.messages.list(agent_id=agent.id, limit=100).items)
    standin.script(*replies)
    message = [{"role": "user", "content": "I like tea."}]
    if streaming:
        response = merged(letta.agents.messages.stream(agent_id=agent.id, messages=message, stream_tokens=True))
    else:
        response = [m.model_dump() for m in letta.agents.messages.create(agent_id=agent.id, messages=message).messages]
    history = [m.model_dump() for m in letta.agents.messages.list(agent_id=agent.id, limit=100).items][before:]
    return agent, shown(response), shown(history), standin.requests


def texts(messages: list[tuple[str, ...]]) -> list[str]:
    return [m[-1] for m in messages if m[0] in ("assistant_message", "reasoning_message")]


CASES = [("letta_v1_agent", "prose"), ("memgpt_v2_agent", "prose"), ("memgpt_v2_agent", "calls alone")]


@pytest.mark.parametrize("streaming", [False, True], ids=["blocking", "token-streaming"])
@pytest.mark.parametrize(("kind", "case"), CASES)
def test_text_beside_a_call_is_what_a_native_model_makes_of_it(
    letta: Any, standin: Any, kind: str, case: str, streaming: bool
) -> None:
    native_replies, emulated_replies = scripts(kind, case)
    _, native_response, native_history, _ = turn(letta, standin, NATIVE, kind, native_replies, streaming)
    _, response, history, requests = turn(letta, standin, MODEL, kind, emulated_replies, streaming)
    assert response == native_response
    assert history == native_history
    for seen in (response, history):
        for piece in (PROSE, THINK):
            assert sum(piece in text for text in texts(seen)) <= 1, f"{piece!r} twice in {seen}"
        assert all(text.strip() for text in texts(seen)), f"a message with no text in {seen}"
    if kind == "letta_v1_agent":
        # Letta shows the text as the assistant's message (in the stream and the history; its
        # blocking response drops it, for native models too), and the reasoning as reasoning.
        assert ("assistant_message", PROSE) in history and ("reasoning_message", "reasoner_model", THINK) in history
    elif case == "prose":
        assert ("reasoning_message", "non_reasoner_model", PROSE) in history
    else:
        assert texts(history) == ["Done."]  # no reasoning message, not even a placeholder space
    if case == "prose":
        # Letta leaves that text out of its next request; the model is shown it once, with its call.
        answered = requests[-1]["messages"]
        assert sum(m["content"].count(PROSE) for m in answered if m["role"] == "assistant") == 1


def test_the_model_sees_its_words_again_in_a_later_turn(letta: Any, standin: Any) -> None:
    _, emulated = scripts("letta_v1_agent", "prose")
    agent, *_ = turn(letta, standin, MODEL, "letta_v1_agent", emulated, streaming=True)
    standin.reset()
    standin.script(Scripted(text="You are welcome."))
    letta.agents.messages.create(agent_id=agent.id, messages=[{"role": "user", "content": "Thanks!"}])
    (request,) = standin.requests
    said = "\n".join(m["content"] for m in request["messages"] if m["role"] == "assistant")
    assert said.count(PROSE) == 1 and said.count(THINK) == 1
