"""The streamed contract of item 2 of the proxy's issue, checked chunk by chunk on what the
proxy sends: for emulated calls, text, reasoning, a reply it gave up on, and pass-through."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from letta_tool_emulation.proxy import ProxyServer, Settings
from letta_tool_emulation.runtime.stack import free_port
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, MAX_COMPLETION_TOKENS, NATIVE_MODEL, StandIn

from . import gated
from .conftest import MEMORY_TOOLS, post_stream
from .contract import check_stream


def call_block(name: str, **params: Any) -> str:
    return f"TOOL_CALL_START\n{json.dumps({'function': name, 'params': params})}\nTOOL_CALL_END"


def body(text: str, **extra: Any) -> dict[str, Any]:
    return {"model": EMULATED_MODEL, "messages": [{"role": "user", "content": text}], "tools": MEMORY_TOOLS, **extra}


@pytest.mark.parametrize("include_usage", [True, False])
def test_an_emulated_call_streams_as_a_native_one(proxy: ProxyServer, upstream: StandIn, include_usage: bool) -> None:
    upstream.script({"text": "Sure, one moment.\n" + call_block("memory_insert", label="human", new_string="pears")})
    response, events = post_stream(proxy.url, body("Remember that I like pears",
                                                   stream_options={"include_usage": include_usage}))  # fmt: skip
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
    reply = check_stream(events, include_usage=include_usage)
    assert [(c["name"], json.loads(c["arguments"])) for c in reply.calls] == [
        ("memory_insert", {"label": "human", "new_string": "pears"})
    ]
    assert reply.content.strip() == "Sure, one moment."
    assert "TOOL_CALL" not in json.dumps(events)  # no call markup reaches the client
    # Several fragments of arguments, not one: clients must concatenate them.
    fragments = [c for e in events[:-1] for ch in e["choices"] for c in ch["delta"].get("tool_calls") or []]
    assert len(fragments) > 2


def test_several_calls_each_with_index_id_and_name_first(proxy: ProxyServer, upstream: StandIn) -> None:
    upstream.script({"text": call_block("memory_insert", label="human", new_string="figs") + "\n"
                     + call_block("archival_memory_search", query="figs")})  # fmt: skip
    _, events = post_stream(proxy.url, body("Two things", stream_options={"include_usage": True}))
    reply = check_stream(events, include_usage=True)
    assert [c["name"] for c in reply.calls] == ["memory_insert", "archival_memory_search"]
    assert len({c["id"] for c in reply.calls}) == 2


def test_text_without_a_call_finishes_with_stop(proxy: ProxyServer, upstream: StandIn) -> None:
    upstream.script({"text": "Pears are lovely. Anything else?"})
    _, events = post_stream(proxy.url, body("Hi"))
    reply = check_stream(events, include_usage=False)
    assert reply.content == "Pears are lovely. Anything else?"
    assert reply.calls == [] and reply.finish_reason == "stop"


def test_a_reply_cut_at_the_output_limit_finishes_with_length(proxy: ProxyServer, upstream: StandIn) -> None:
    upstream.script({"text": "A long story that goes on", "finish_reason": "length"})
    _, events = post_stream(proxy.url, body("Tell me a story", max_tokens=5))
    assert check_stream(events, include_usage=False).finish_reason == "length"


def test_a_cut_reply_says_so_alike_streamed_or_not(proxy: ProxyServer, upstream: StandIn) -> None:
    # finish_reason "length" is how an OpenAI client learns that a reply was cut: the streamed
    # reply carries the same text and the same signal as the whole one.
    story = "A long story that goes on and on"
    upstream.script({"text": story, "finish_reason": "length"})
    _, events = post_stream(proxy.url, body("Tell me a story", max_tokens=5))
    streamed = check_stream(events, include_usage=False)
    upstream.script({"text": story, "finish_reason": "length"})
    whole = httpx.post(f"{proxy.url}/chat/completions", json=body("Tell me a story", max_tokens=5), timeout=60).json()
    choice = whole["choices"][0]
    assert (streamed.content, streamed.finish_reason) == (choice["message"]["content"], choice["finish_reason"])
    assert streamed.finish_reason == "length" and streamed.content == story


def test_reasoning_goes_to_reasoning_content(proxy: ProxyServer, upstream: StandIn) -> None:
    upstream.script({"text": "<think>The user wants figs kept.</think>" + call_block("memory_insert", label="human",
                                                                                         new_string="figs")})  # fmt: skip
    _, events = post_stream(proxy.url, body("Remember figs"))
    reply = check_stream(events, include_usage=False)
    assert reply.reasoning == "The user wants figs kept."
    assert "figs kept" not in reply.content and [c["name"] for c in reply.calls] == ["memory_insert"]


def test_reasoning_a_chat_template_opened_is_learned_from_a_lone_closing_tag(
    proxy: ProxyServer, upstream: StandIn
) -> None:
    """Qwen3- and DeepSeek-R1-style templates write <think> into the prompt: the reply holds only
    the closing tag. The first such reply already keeps its drafted block from running; from then
    on, the text before </think> streams as reasoning, not as the answer."""
    from letta_tool_emulation import endpoints

    assert not endpoints.KNOWN.opens_reasoning(upstream.url, EMULATED_MODEL)
    draft = call_block("memory_insert", label="human", new_string="plums")
    reply = ("The user likes figs, not plums. " + draft + "\nSo figs it is.\n</think>\nNoted.\n"
             + call_block("memory_insert", label="human", new_string="figs"))  # fmt: skip
    upstream.script({"text": reply}, {"text": reply})
    _, events = post_stream(proxy.url, body("Remember figs"))
    first = check_stream(events, include_usage=False)
    assert [c["arguments"] for c in first.calls] == [json.dumps({"label": "human", "new_string": "figs"})]
    assert "The user likes figs" in first.content  # already released when the tag came
    _, events = post_stream(proxy.url, body("Remember figs"))
    second = check_stream(events, include_usage=False)
    assert second.content.strip() == "Noted." and "The user likes figs, not plums." in second.reasoning
    assert [c["arguments"] for c in second.calls] == [json.dumps({"label": "human", "new_string": "figs"})]
    # A reply that then finishes without closing reasoning did not think this time: its call
    # still runs, its text (already streamed as reasoning) is not sent twice, and the model is
    # read as an ordinary one again.
    upstream.script({"text": "Saving kiwis.\n" + call_block("memory_insert", label="human", new_string="kiwis")})
    _, events = post_stream(proxy.url, body("Remember kiwis"))
    third = check_stream(events, include_usage=False)
    assert [c["arguments"] for c in third.calls] == [json.dumps({"label": "human", "new_string": "kiwis"})]
    assert "Saving kiwis." in third.reasoning and "Saving kiwis." not in third.content
    assert not endpoints.KNOWN.opens_reasoning(upstream.url, EMULATED_MODEL)
    upstream.script({"text": "Just an answer."})
    whole = httpx.post(f"{proxy.url}/chat/completions", json=body("Hi"), timeout=60).json()["choices"][0]["message"]
    assert whole["content"] == "Just an answer." and not whole.get("reasoning_content")


def test_a_reply_given_up_on_says_why_and_still_ends_properly(proxy: ProxyServer, upstream: StandIn) -> None:
    broken = "TOOL_CALL_START\nmemory_insert(label='human')\nTOOL_CALL_END"
    upstream.script(*[{"text": broken}] * 3)
    _, events = post_stream(proxy.url, body("Remember", tool_choice="required", stream_options={"include_usage": True}))
    reply = check_stream(events, include_usage=True)
    assert reply.calls == [] and reply.finish_reason == "stop"
    assert "no valid call could be read" in reply.content
    assert len(upstream.requests) == 3  # asked, and asked again twice


def test_a_request_shaped_like_letta_codes(proxy: ProxyServer, upstream: StandIn) -> None:
    """What Letta Code's local backend sends: content parts, store false, a 32k output limit,
    tools with strict false, usage asked for."""
    tools = [{**t, "function": {**t["function"], "strict": False}} for t in MEMORY_TOOLS]
    request = {
        "model": EMULATED_MODEL,
        "messages": [
            {"role": "system", "content": "You are a coding agent."},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "<system-reminder>cwd</system-reminder>"},
                    {"type": "text", "text": "Remember that I like quinces"},
                ],
            },
        ],
        "stream_options": {"include_usage": True},
        "store": False,
        "max_completion_tokens": 32000,
        "tools": tools,
    }
    response, events = post_stream(proxy.url, request)
    assert response.status_code == 200, response.text
    reply = check_stream(events, include_usage=True)
    assert [(c["name"], json.loads(c["arguments"])) for c in reply.calls] == [
        ("memory_insert", {"label": "human", "new_string": "I like quinces"})
    ]
    sent = upstream.requests[-1]
    assert sent["max_completion_tokens"] == MAX_COMPLETION_TOKENS  # bounded by the model's own limit
    assert "store" not in sent and "tools" not in sent


def test_pass_through_streams_the_upstreams_chunks_untouched(proxy: ProxyServer, upstream: StandIn) -> None:
    reply = {"tool_calls": [{"name": "memory_insert", "arguments": {"label": "human", "new_string": "kiwis"}}]}
    request = {**body("Remember kiwis", stream_options={"include_usage": True}), "model": NATIVE_MODEL}
    upstream.script(reply, reply)
    _, via_proxy = post_stream(proxy.url, request)
    _, direct = post_stream(upstream.url, request)

    assert len(via_proxy) == len(direct)
    assert _normalised(via_proxy) == _normalised(direct)
    check_stream(via_proxy, include_usage=True)
    assert upstream.requests[-2] == {**request, "stream": True}  # the body arrived exactly as sent


def _call_ids(events: list[Any]) -> list[str]:
    return [c["id"] for e in events if isinstance(e, dict) for ch in e["choices"]
            for c in ch["delta"].get("tool_calls") or [] if "id" in c]  # fmt: skip


def _normalised(events: list[Any]) -> list[Any]:
    ids = _call_ids(events)
    text = json.dumps(events)
    for n, call_id in enumerate(ids):
        text = text.replace(call_id, f"call-{n}")
    return [
        {k: v for k, v in e.items() if k not in ("id", "created")} if isinstance(e, dict) else e
        for e in json.loads(text)
    ]


@pytest.fixture
def gated_proxy(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[gated.Gated, ProxyServer]]:
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MODELS", f"proxy/{gated.MODEL}")
    upstream = gated.Gated().start()
    settings = Settings("127.0.0.1", free_port(), upstream.url, None, "proxy", None, 30.0)
    with ProxyServer(settings) as proxy:
        yield upstream, proxy
    upstream.stop()


def test_text_is_released_before_the_reply_ends(gated_proxy: tuple[gated.Gated, ProxyServer]) -> None:
    """The upstream holds its reply half-way until the client has read the first sentence: a
    proxy that waited for the whole reply would never finish."""
    upstream, proxy = gated_proxy
    received: list[Any] = []
    done = threading.Event()

    def read() -> None:
        with (
            httpx.Client(timeout=60) as client,
            client.stream(
                "POST", f"{proxy.url}/chat/completions", json={**body("hi", stream=True), "model": gated.MODEL}
            ) as response,
        ):
            for line in response.iter_lines():
                if line.startswith("data: "):
                    received.append(line[6:])
                    if "first sentence" in "".join(received):
                        done.set()
        done.set()

    reader = threading.Thread(target=read)
    reader.start()
    deadline = 60.0
    while upstream.pieces is None and deadline > 0:
        threading.Event().wait(0.05)
        deadline -= 0.05
    upstream.send(gated.chunk({"role": "assistant", "content": "The first sentence. "}))
    assert done.wait(60), "the first sentence was not released while the reply was still open"
    assert not any('finish_reason": "stop' in r for r in received)
    upstream.send(gated.chunk({"content": "The second."}))
    upstream.send(gated.chunk({}, finish="stop"))
    upstream.send(None)
    reader.join(60)
    events = [e if e == "[DONE]" else json.loads(e) for e in received]
    assert check_stream(events, include_usage=False).content == "The first sentence. The second."


def test_json_is_read_as_the_standard_library_reads_it() -> None:
    """Bodies and stream events are read with orjson where it agrees with ``json``: integers
    beyond 64 bits stay integers, NaN and other encodings are still read."""
    from letta_tool_emulation.proxy.transport import loads

    for raw in (b'{"seed": 123456789012345678901234567890}', b'{"n": -9223372036854775809}', b'{"x": NaN}',
                b'{"n": 9223372036854775807, "f": 1.5e-7}', '{"a": "b"}'.encode("utf-16")):  # fmt: skip
        expected, got = json.loads(raw), loads(raw)
        assert repr(got) == repr(expected) and [type(v) for v in got.values()] == [type(v) for v in expected.values()]


def test_a_chunk_is_written_as_the_whole_chunk_would_be() -> None:
    """A stream chunk is built from its reply's head and its own delta and finish reason: the
    bytes of the whole chunk written at once as compact JSON, the role in the first delta only."""
    from letta_tool_emulation.proxy.wire import ChunkWriter

    writer = ChunkWriter('mod\u00e9l "x"')
    deltas = [({"content": ""}, None), ({"content": 'h\u00e9llo\n"q" \u2028'}, None), ({"reasoning_content": "r"}, None),
              ({"content": "n", "seed": 2**70}, None), ({}, "tool_calls")]  # fmt: skip
    for n, (delta, finish) in enumerate(deltas):
        sent = {"role": "assistant", **delta} if n == 0 else delta
        whole = {"id": writer.id, "object": "chat.completion.chunk", "created": writer.created, "model": writer.model,
                 "choices": [{"index": 0, "delta": sent, "logprobs": None, "finish_reason": finish}]}  # fmt: skip
        expected = b"data: " + json.dumps(whole, ensure_ascii=False, separators=(",", ":")).encode() + b"\n\n"
        assert writer.chunk(dict(delta), finish) == expected
