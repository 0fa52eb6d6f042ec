"""The turn engine on its own: no letta, no network. A fake driver feeds replies to the flow
the way the real drivers do (see the engine's docstring)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from letta_tool_emulation import engine
from letta_tool_emulation.core.feedback import render_empty_reply
from letta_tool_emulation.step import Attempt, Decision, EmulatedRequest, Outcome, Pending, Settings

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "memory_insert",
            "description": "Insert text into a memory block.",
            "parameters": {
                "type": "object",
                "properties": {"label": {"type": "string"}, "new_string": {"type": "string"}},
                "required": ["label", "new_string"],
            },
        },
    }
]
EMULATE = Decision(True, "test")
LOG = logging.getLogger("letta_tool_emulation")


def block(args: dict[str, Any], name: str = "memory_insert") -> str:
    return f"TOOL_CALL_START\n{json.dumps({'function': name, 'params': args})}\nTOOL_CALL_END"


def request(messages: list[dict[str, Any]] | None = None, *, pending: Pending | None = None, **settings: Any) -> Any:
    data = {
        "model": "m",
        "messages": messages or [{"role": "system", "content": "You are Sam."}, {"role": "user", "content": "Hi"}],
        "tools": TOOLS,
        "tool_choice": "auto",
    }
    return engine.prepare(data, decision=EMULATE, pending=pending, settings=Settings(**settings), log=LOG)


def drive(req: EmulatedRequest, replies: Iterator[str] | list[str]) -> tuple[Outcome, list[Attempt]]:
    """What every driver does: perform each attempt, feed the reply in, resume the flow."""
    replies = iter(replies)
    attempts = []
    flow = engine.run(req)
    try:
        attempt = next(flow)
        while True:
            attempts.append(attempt)
            attempt.content(next(replies))
            attempt.end("stop", None)
            attempt = flow.send(None)
    except StopIteration as done:
        return done.value, attempts
    finally:
        flow.close()


PIZZA = {"label": "human", "new_string": "Likes pizza."}
DOG = {"label": "human", "new_string": "Has a dog."}


def test_request_is_text_only_and_carries_its_step() -> None:
    req = request()
    assert isinstance(req, EmulatedRequest) and "tools" not in req and "tool_choice" not in req
    assert "# Tools" in req["messages"][0]["content"]
    assert set(req.step.tools) == {"memory_insert"}


def test_text_next_to_a_call_is_the_message_text_as_a_native_model_sends_it() -> None:
    outcome, attempts = drive(request(), ["Saving it.\n" + block(PIZZA)])
    assert len(attempts) == 1
    assert [json.loads(c["function"]["arguments"]) for c in outcome.calls] == [PIZZA]
    assert outcome.content == "Saving it." and outcome.reasoning == ""


def test_only_what_the_model_wrote_as_reasoning_is_reasoning() -> None:
    outcome, _ = drive(request(), ["<think>The user likes pizza.</think>\nSaving it.\n" + block(PIZZA)])
    assert outcome.reasoning == "The user likes pizza." and outcome.content == "Saving it."


THINKING_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "memory_insert",
            "description": "Insert text into a memory block.",
            "parameters": {
                "type": "object",
                "properties": {
                    "thinking": {"type": "string"},
                    "label": {"type": "string"},
                    "new_string": {"type": "string"},
                    "request_heartbeat": {"type": "boolean"},
                },
                "required": ["thinking", "label", "new_string", "request_heartbeat"],
            },
        },
    }
]


def thinking_request() -> Any:
    data = {"model": "m", "messages": [{"role": "user", "content": "Hi"}], "tools": THINKING_TOOLS}
    return engine.prepare(data, decision=EMULATE, settings=Settings())


def test_where_letta_asks_for_thinking_all_the_text_goes_there_once() -> None:
    outcome, _ = drive(thinking_request(), ["<think>Pizza, noted.</think>\nSaving it.\n" + block(PIZZA)])
    (call,) = outcome.calls
    args = json.loads(call["function"]["arguments"])
    assert args == {"thinking": "Pizza, noted.\n\nSaving it.", **PIZZA, "request_heartbeat": True}
    assert outcome.content == "" and outcome.reasoning == ""  # not a second time beside the call


def test_no_thoughts_leave_thinking_empty_in_compact_json() -> None:
    """Letta's streaming reader of `thinking` passes on the space of '"thinking": ""' as a
    reasoning message of its own; OpenAI's models write arguments without spaces."""
    outcome, _ = drive(thinking_request(), [block(PIZZA)])
    arguments = outcome.calls[0]["function"]["arguments"]
    assert arguments.startswith('{"thinking":"",') and ": " not in arguments


def test_a_rejected_call_is_reasked_with_the_reason() -> None:
    outcome, attempts = drive(request(), [block({"label": "human"}), block(PIZZA)])
    assert len(attempts) == 2 and outcome.attempts == 2
    second = attempts[1].messages
    assert second[-2] == {"role": "assistant", "content": block({"label": "human"})}
    assert "new_string" in second[-1]["content"] and "nothing was executed" in second[-1]["content"]
    assert [json.loads(c["function"]["arguments"]) for c in outcome.calls] == [PIZZA]


def test_giving_up_says_so() -> None:
    outcome, attempts = drive(request(max_reasks=1), [block({"label": "human"})] * 2)
    assert len(attempts) == 2 and outcome.calls == [] and outcome.gave_up
    assert outcome.content.startswith("(The model tried to use a tool 2 time(s)")


@pytest.mark.parametrize("empty", ["", "  \n", "<think>Nothing to add.</think>"])
def test_an_empty_reply_is_asked_again(empty: str) -> None:
    # Letta fails a step whose reply has neither text nor a call, so it never gets one.
    outcome, attempts = drive(request(), [empty, "Hello Ana."])
    assert len(attempts) == 2 and outcome.content == "Hello Ana." and outcome.calls == []
    assert attempts[1].messages[-1]["content"].endswith(render_empty_reply())
    outcome, attempts = drive(request(max_reasks=1), [empty, empty])
    assert len(attempts) == 2 and outcome.gave_up and outcome.content == "(The model gave an empty reply 2 time(s).)"


@pytest.mark.parametrize("reply", ["", "<your answer>"])
def test_an_empty_envelope_is_asked_again(reply: str) -> None:
    # The instructions' stand-in for the answer, copied as it stands, is no answer either.
    outcome, attempts = drive(constrained_request(), [json.dumps({"reply": reply}), json.dumps({"reply": "Hi Ana."})])
    assert len(attempts) == 2 and outcome.content == "Hi Ana."
    assert '"calls"' in attempts[1].messages[-1]["content"]
    assert not reply or f'"{reply}"' in attempts[0].messages[0]["content"], "the stand-in is the instructions' own"


def test_no_tools_means_plain_text() -> None:
    data = {"model": "m", "messages": [{"role": "user", "content": "Summarise."}]}
    req = engine.prepare(data, decision=EMULATE)
    outcome, _ = drive(req, ["Summary: " + block(PIZZA)])
    assert outcome.calls == [] and "TOOL_CALL_START" in outcome.content  # quoted, never run


def answered(call: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"role": "system", "content": "You are Sam."},
        {"role": "user", "content": "Remember two things."},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": call["id"], "content": '{"status": "OK", "message": "done"}'},
    ]


def test_further_calls_are_handed_out_one_per_step_without_a_model_request() -> None:
    pending = Pending()
    req = request(pending=pending)
    outcome, _ = drive(req, [block(PIZZA) + "\n" + block(DOG)])
    engine.keep(pending, req, outcome)
    assert len(outcome.calls) == 1 and len(outcome.queue) == 1
    nxt, attempts = drive(request(answered(outcome.calls[0]), pending=pending), [])
    assert attempts == [] and nxt.attempts == 0
    assert [json.loads(c["function"]["arguments"]) for c in nxt.calls] == [DOG]


def test_an_abandoned_turn_drops_its_queue(caplog: pytest.LogCaptureFixture) -> None:
    """The user spoke before the queued call's turn: the call is not run later, and the model
    is asked afresh."""
    pending = Pending()
    req = request(pending=pending)
    outcome, _ = drive(req, [block(PIZZA) + "\n" + block(DOG)])
    engine.keep(pending, req, outcome)
    moved_on = [{"role": "system", "content": "You are Sam."}, {"role": "user", "content": "Never mind."}]
    with caplog.at_level(logging.WARNING, logger="letta_tool_emulation"):
        req = request(moved_on, pending=pending)
    assert req.step.queued is None and pending.queue == []
    assert "were not run: the conversation moved on" in caplog.text
    nxt, attempts = drive(req, ["OK."])
    assert len(attempts) == 1 and nxt.content == "OK."


def test_calls_per_reply_are_bounded_and_the_rest_reported() -> None:
    pending = Pending()
    many = "\n".join(block({"label": "human", "new_string": f"Fact {i}."}) for i in range(5))
    req = request(pending=pending, max_calls_per_reply=3)
    outcome, _ = drive(req, [many])
    assert len(outcome.calls) + len(outcome.queue) == 3
    assert "Only the first 3 calls of one reply run; 2 more were not executed" in outcome.feedback
    engine.keep(pending, req, outcome)
    assert pending.feedback == outcome.feedback


def test_a_model_calibrated_to_one_call_runs_the_first_call_and_hears_of_the_rest() -> None:
    data = {"model": "m", "messages": [{"role": "user", "content": "Hi"}], "tools": TOOLS, "tool_choice": "auto"}
    one = replace(EMULATE, one_call=True)
    req = engine.prepare(data, decision=one, pending=Pending(), log=LOG)
    two = "\n".join(block({"label": "human", "new_string": f"Fact {i}."}) for i in range(2))
    outcome, _ = drive(req, [two])
    assert len(outcome.calls) + len(outcome.queue) == 1
    assert "Only the first call of one reply runs; 1 more was not executed" in outcome.feedback
    constrained = engine.prepare(data, decision=replace(one, schema_shape="llama.cpp"), parallel=True, log=LOG)
    assert '"maxItems": 1' in json.dumps(constrained["response_format"])


def test_feedback_reaches_the_next_request_that_can_carry_it() -> None:
    pending = Pending()
    req = request(pending=pending)
    outcome, _ = drive(req, [block(PIZZA) + "\n" + block({"label": "human"})])
    engine.keep(pending, req, outcome)
    assert outcome.feedback and len(outcome.calls) == 1
    summary = engine.prepare({"model": "m", "messages": [{"role": "user", "content": "Sum up."}]},
                             decision=EMULATE, pending=pending)  # fmt: skip
    assert outcome.feedback not in summary["messages"][-1]["content"]  # not a summarizer's business
    nxt = request(answered(outcome.calls[0]), pending=pending)
    assert nxt["messages"][-1]["content"].endswith(outcome.feedback)
    assert pending.feedback == ""


def test_usage_reported_by_the_endpoint_is_used() -> None:
    flow = engine.run(request())
    attempt = next(flow)
    attempt.content("Hello!")
    attempt.end("stop", {"prompt_tokens": 900, "completion_tokens": 3})
    with pytest.raises(StopIteration) as done:
        flow.send(None)
    usage = done.value.value.usage
    assert (usage.prompt_tokens, usage.completion_tokens, usage.estimated) == (900, 3, False)


def test_a_reply_cut_by_the_output_limit_says_so() -> None:
    req = request()
    flow = engine.run(req)
    attempt = next(flow)
    attempt.content("Here is a very long answer that goes on and")
    attempt.end("length", None)
    with pytest.raises(StopIteration) as done:
        flow.send(None)
    outcome = done.value.value
    assert outcome.finish_reason == "length"
    assert outcome.content.endswith(
        f"(The reply reached the output limit of {req.step.output_limit} tokens and was cut off here.)"
    )


def test_output_is_bounded_and_stops_where_an_invented_result_would_begin() -> None:
    data = {
        "model": "m",
        "messages": [{"role": "user", "content": "Hi"}],
        "tools": TOOLS,
        "max_completion_tokens": 16384,
    }
    req = engine.prepare(data, decision=EMULATE, settings=Settings(max_output_tokens=512), context_window=100_000)
    assert req["max_completion_tokens"] == req["max_tokens"] == 512 == req.step.output_limit
    assert req["stop"] == [engine.INVENTED_RESULT_STOP]
    tight = engine.prepare(data, decision=EMULATE, settings=Settings(max_output_tokens=4096), context_window=1500)
    assert 256 <= tight["max_completion_tokens"] < 1500


# -- constrained replies ------------------------------------------------------------------------------

CONSTRAINED = Decision(True, "test", schema_shape="llama.cpp")


def constrained_request(**kw: Any) -> Any:
    data = {
        "model": "m",
        "messages": [{"role": "system", "content": "You are Sam."}, {"role": "user", "content": "Hi"}],
        "tools": TOOLS,
        "tool_choice": "auto",
        **kw,
    }
    return engine.prepare(data, decision=CONSTRAINED, endpoint="http://127.0.0.1:9/v1", log=LOG)


def test_a_constrained_request_carries_the_envelope_schema_in_the_servers_shape() -> None:
    req = constrained_request()
    fmt = req["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["schema"]
    assert "stop" not in req  # JSON replies: no stop sequences
    assert "# Reply format" in req["messages"][0]["content"] and "TOOL_CALL_START" not in req["messages"][0]["content"]
    assert req.fallback is not None and "response_format" not in req.fallback  # free text, if refused
    assert "TOOL_CALL_START" in req.fallback["messages"][0]["content"]
    forced = constrained_request(tool_choice={"type": "function", "function": {"name": "memory_insert"}})
    assert "reply" not in json.dumps(forced["response_format"]["json_schema"]["schema"].get("anyOf", []))


def test_an_envelope_reply_becomes_calls() -> None:
    envelope = json.dumps({"calls": [{"function": "memory_insert", "params": PIZZA}], "reply": "Noted."})
    outcome, attempts = drive(constrained_request(), [envelope])
    assert attempts[0].constrained
    assert [json.loads(c["function"]["arguments"]) for c in outcome.calls] == [PIZZA]
    assert outcome.content == "Noted." and outcome.reasoning == ""


def test_a_refused_schema_is_asked_again_in_free_text_and_reported() -> None:
    from letta_tool_emulation import endpoints

    endpoints.KNOWN.clear()
    req = constrained_request()
    flow = engine.run(req)
    first = next(flow)
    assert first.constrained and "response_format" in first.body
    refusal = first.refused(400, "Invalid request: response_format json_schema is not supported")
    assert isinstance(refusal, engine.SchemaRefused) and refusal.status == 400
    second = flow.throw(refusal)
    assert not second.constrained and "response_format" not in second.body and second.number == 1
    second.content(block(PIZZA))
    second.end("stop")
    with pytest.raises(StopIteration) as done:
        flow.send(None)
    outcome = done.value.value
    assert [json.loads(c["function"]["arguments"]) for c in outcome.calls] == [PIZZA]
    assert outcome.refused_schema_status == 400  # for the caller to remember
    shape = req.step.schema_shape
    assert shape and not endpoints.KNOWN.refused_schema(
        "http://127.0.0.1:9/v1", "m", shape
    )  # the engine keeps no state


@pytest.mark.parametrize(
    ("status", "said", "refused"),
    [
        (400, "Invalid request: response_format json_schema is not supported", True),
        (500, "llama_cpp: unsupported response_format type", True),
        (400, "This model's maximum context length is 2048 tokens; the response_format is fine", False),
        (429, "rate limited: response_format requests are throttled", False),
        (400, "Invalid request: temperature must be at most 2", False),
    ],
)
def test_an_error_answer_is_a_refused_schema_only_when_it_is_about_the_schema(
    status: int, said: str, refused: bool
) -> None:
    attempt = next(engine.run(constrained_request()))
    assert (attempt.refused(status, said) is not None) is refused


def test_a_free_text_attempt_has_no_schema_to_refuse() -> None:
    attempt = next(engine.run(request()))
    assert attempt.refused(400, "response_format json_schema is not supported") is None


# -- streams, as the driver saw them ------------------------------------------------------------


def test_a_stream_is_read_piece_by_piece_and_ends_with_its_finish_reason() -> None:
    flow = engine.run(request())
    attempt = next(flow)
    shown = attempt.streamed("", "Thinking it over.")  # the endpoint's reasoning comes first
    shown += attempt.streamed("Saving it.\n" + block(PIZZA)[:30])
    shown += attempt.streamed(block(PIZZA)[30:], finish_reason="stop")
    shown += attempt.streamed(usage={"prompt_tokens": 50, "completion_tokens": 20})
    shown += attempt.stream_ended()
    assert shown[0].reasoning == "Thinking it over."
    assert "".join(e.text for e in shown).strip() == "Saving it."  # the call's markup is never shown
    with pytest.raises(StopIteration) as done:
        flow.send(None)
    outcome = done.value.value
    assert [json.loads(c["function"]["arguments"]) for c in outcome.calls] == [PIZZA]
    assert outcome.usage.prompt_tokens == 50 and not outcome.usage.estimated


def test_a_stream_without_a_finish_reason_broke_off() -> None:
    attempt = next(engine.run(request()))
    attempt.streamed("Saving it.\n" + block(PIZZA)[:30])
    with pytest.raises(engine.StreamBroken) as broken:
        attempt.stream_ended()
    assert broken.value.in_call and broken.value.cause is None
    # Nothing at all arrived: broken off just the same, before any call.
    with pytest.raises(engine.StreamBroken) as broken:
        next(engine.run(request())).stream_ended()
    assert not broken.value.in_call and "without a finish reason" in str(broken.value)


def test_a_failing_stream_is_broken_only_once_it_has_started() -> None:
    error = TimeoutError("read timed out")
    attempt = next(engine.run(request()))
    assert attempt.stream_failed(error) is error  # the endpoint's own answer says it best
    attempt.streamed("Let me think")
    failure = attempt.stream_failed(error)
    assert isinstance(failure, engine.StreamBroken) and failure.cause is error and not failure.in_call
    assert attempt.stream_failed(error, conclusive=True) is error  # encryption's verdict stays its own
    attempt.streamed(". Saving it.\n" + block(PIZZA)[:25])
    failure = attempt.stream_failed(error)
    assert isinstance(failure, engine.StreamBroken) and failure.in_call


# -- what the engine is given, never reads ------------------------------------------------------


def test_the_engine_reads_no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MAX_RETRIES", "0")
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MAX_OUTPUT_TOKENS", "100")
    monkeypatch.setenv("LETTA_TOOL_EMULATION_VENICE_SYSTEM_PROMPT", "1")
    data = {"model": "m", "messages": [{"role": "user", "content": "Hi"}], "tools": TOOLS}
    venice = Decision(True, "test", venice_dialect=True)
    req = engine.prepare(data, decision=venice)
    assert req.step.settings == Settings() and req["max_completion_tokens"] == Settings().max_output_tokens
    assert req["venice_parameters"] == {"include_venice_system_prompt": False}
    given = engine.prepare(
        data, decision=venice, settings=Settings.from_env(), venice_parameters={"include_venice_system_prompt": True}
    )
    assert given.step.settings.max_reasks == 0 and given["max_completion_tokens"] == 100
    assert given["venice_parameters"] == {"include_venice_system_prompt": True}
    assert "venice_parameters" not in engine.prepare(data, decision=EMULATE)  # not Venice's dialect


class Warnings:
    """A caller's log that keeps what is said at WARNING and above."""

    def __init__(self, heard: list[str]) -> None:
        self.heard = heard

    def warning(self, msg: str, *args: object) -> None:
        self.heard.append(msg % args)

    def info(self, msg: str, *args: object) -> None:
        pass

    def debug(self, msg: str, *args: object) -> None:
        pass


def test_what_the_engine_says_goes_to_the_callers_log() -> None:
    heard: list[str] = []
    log = Warnings(heard)
    data = {"model": "m", "messages": [{"role": "user", "content": "Hi"}], "tools": TOOLS}
    drive(engine.prepare(data, decision=EMULATE, log=log), [block({"label": "human"}), block(PIZZA)])
    assert heard == ["letta_tool_emulation: no usable call in reply 1 (invalid_arguments); asking again."]
    heard.clear()
    drive(engine.prepare(data, decision=EMULATE), [block({"label": "human"}), block(PIZZA)])
    assert heard == []  # no log given: nothing said, nowhere


def test_a_summarizers_outcome_leaves_the_agents_pending_calls_alone() -> None:
    pending = Pending()
    req = request(pending=pending)
    outcome, _ = drive(req, [block(PIZZA) + "\n" + block(DOG)])
    engine.keep(pending, req, outcome)
    summary = engine.prepare({"model": "m", "messages": [{"role": "user", "content": "Sum up."}]},
                             decision=EMULATE, pending=pending)  # fmt: skip
    said, _ = drive(summary, ["The user likes pizza and has a dog."])
    engine.keep(pending, summary, said)
    assert [c["function"]["name"] for c in pending.queue] == ["memory_insert"]


def test_every_queued_call_is_handed_out_in_turn() -> None:
    pending = Pending()
    facts = [{"label": "human", "new_string": f"Fact {i}."} for i in range(4)]
    req = request(pending=pending)
    outcome, _ = drive(req, ["\n".join(block(f) for f in facts)])
    engine.keep(pending, req, outcome)
    ran = [json.loads(outcome.calls[0]["function"]["arguments"])]
    while pending.queue:
        req = request(answered(outcome.calls[0]), pending=pending)
        outcome, attempts = drive(req, [])
        engine.keep(pending, req, outcome)
        assert attempts == [] and len(outcome.calls) == 1
        ran.append(json.loads(outcome.calls[0]["function"]["arguments"]))
    assert ran == facts


def test_feedback_waits_for_the_model_while_queued_calls_are_handed_out() -> None:
    pending = Pending()
    req = request(pending=pending)
    outcome, _ = drive(req, [block(PIZZA) + "\n" + block(DOG) + "\n" + block({"label": "human"})])
    engine.keep(pending, req, outcome)
    feedback = outcome.feedback
    assert feedback and len(outcome.queue) == 1
    req = request(answered(outcome.calls[0]), pending=pending)
    handed, attempts = drive(req, [])  # the queued call: no model request to carry the feedback
    engine.keep(pending, req, handed)
    assert attempts == [] and pending.feedback == feedback
    nxt = request(answered(handed.calls[0]), pending=pending)
    assert nxt.step.queued is None and nxt["messages"][-1]["content"].endswith(feedback)


def test_settings_from_the_environment_say_which_value_they_could_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    heard: list[str] = []
    log = Warnings(heard)
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MAX_CALLS", "many")
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MAX_RETRIES", "5")
    settings = Settings.from_env(log)
    assert settings.max_calls_per_reply == Settings().max_calls_per_reply and settings.max_reasks == 5
    assert heard == ["letta_tool_emulation: LETTA_TOOL_EMULATION_MAX_CALLS is not a number; using 16"]


MEMORY_SYSTEM = (
    "You are Sam.\n\n<memory_blocks>\nThe following memory blocks are currently engaged in your core memory unit:\n\n"
    "<persona>\n<description>\nWho you are.\n</description>\n<metadata>\n- chars_current=10\n- chars_limit=5000\n"
    "</metadata>\n<value>\nI am Sam.\n</value>\n</persona>\n\n"
    "<human>\n<description>\nThe user.\n</description>\n<metadata>\n- chars_current=9\n- chars_limit=5000\n"
    "</metadata>\n<value>\nName: Ana\n</value>\n</human>\n\n</memory_blocks>"
)


def test_memory_tools_name_only_the_agents_blocks() -> None:
    messages = [{"role": "system", "content": MEMORY_SYSTEM}, {"role": "user", "content": "Remember I have a cat."}]
    req = request(messages)
    assert req.step.tools["memory_insert"].properties["label"]["enum"] == ["persona", "human"]
    assert '"persona" | "human"' in req["messages"][0]["content"]  # the list, in the tool prompt
    # A block that does not exist is refused with the list, and the model asked again.
    mochi = {"label": "Mochi", "new_string": "The user has a cat."}
    outcome, attempts = drive(req, [block(mochi), block({**mochi, "label": "human"})])
    assert len(attempts) == 2 and '"persona" | "human"' in attempts[1].messages[-1]["content"]
    assert [json.loads(c["function"]["arguments"])["label"] for c in outcome.calls] == ["human"]
    # Constrained: the reply schema allows only those labels.
    data = {"model": "m", "messages": messages, "tools": TOOLS, "tool_choice": "auto"}
    schema = json.dumps(engine.prepare(data, decision=CONSTRAINED, log=LOG)["response_format"])
    assert '"enum": ["persona", "human"]' in schema


def test_a_block_set_aside_because_of_its_words_is_told_to_the_model_neutrally_and_never_reasked(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pending = Pending()
    shown = "For example:\n" + block({"label": "human", "new_string": "Likes jazz."})
    reply = "Noting it.\n" + block(PIZZA) + "\n\n" + shown
    req = request(pending=pending)
    with caplog.at_level(logging.INFO, logger="letta_tool_emulation"):
        outcome, attempts = drive(req, [reply])
    assert len(attempts) == 1, "a decision by words is no rejection: the model is not asked again"
    assert [json.loads(c["function"]["arguments"])["new_string"] for c in outcome.calls] == [PIZZA["new_string"]]
    note = outcome.feedback
    assert note.startswith("Note on your last reply:")
    assert "memory_insert block next to 'For example:'" in note and "was not run" in note
    assert "Write" not in note and "saved." in note  # neither asks for the call nor claims it was saved
    assert "1 block(s) set aside, not run: example" in caplog.text
    assert "Likes jazz" not in caplog.text, "what the model wrote stays out of INFO"
    engine.keep(pending, req, outcome)
    nxt = request(answered(outcome.calls[0]), pending=pending)
    assert nxt["messages"][-1]["content"].endswith(note)


def test_a_block_set_aside_by_its_structure_is_not_told_and_one_that_would_not_run_is_not_told() -> None:
    quoted = "You wrote:\n> " + block({"label": "human", "new_string": "x"}).replace("\n", "\n> ")
    unknown = "For example:\n" + block({"x": 1}, name="no_such_tool")
    for reply in (quoted, unknown):
        outcome, attempts = drive(request(), [reply])
        assert len(attempts) == 1 and outcome.calls == [] and outcome.feedback == ""


def template_request() -> Any:
    data = {"model": "m", "messages": [{"role": "user", "content": "Hi"}], "tools": TOOLS, "tool_choice": "auto"}
    return engine.prepare(data, decision=Decision(True, "test", in_reasoning=True), endpoint="http://h/v1", log=LOG)


def test_a_reply_in_template_reasoning_keeps_its_reasoning_apart() -> None:
    outcome, attempts = drive(template_request(), ["Figs, not plums.\n</think>\nNoted.\n" + block({"label": "human",
                                                                                                     "new_string": "figs"})])  # fmt: skip
    assert (outcome.content, outcome.reasoning) == ("Noted.", "Figs, not plums.")
    assert len(outcome.calls) == 1 and outcome.template_reasoning is True and not outcome.reread
    assert len(attempts) == 1


def test_a_reply_that_did_not_think_after_all_is_read_again_as_text_and_nothing_is_lost() -> None:
    from letta_tool_emulation import endpoints

    req = template_request()
    endpoints.KNOWN.note_template_reasoning("http://h/v1", "m")
    outcome, attempts = drive(req, ["Saving figs.\n" + block({"label": "human", "new_string": "figs"})])
    assert json.loads(outcome.calls[0]["function"]["arguments"]) == {"label": "human", "new_string": "figs"}
    assert outcome.content == "Saving figs." and outcome.reasoning == ""
    assert outcome.template_reasoning is False and outcome.reread and len(attempts) == 1  # no re-ask
    endpoints.remember(req, outcome, LOG)
    assert not endpoints.KNOWN.opens_reasoning("http://h/v1", "m")


def test_a_lone_closing_tag_is_remembered_for_the_model(caplog: pytest.LogCaptureFixture) -> None:
    from types import SimpleNamespace

    from letta_tool_emulation import endpoints, selection

    data = {"model": "m2", "messages": [{"role": "user", "content": "Hi"}], "tools": TOOLS}
    req = engine.prepare(data, decision=EMULATE, endpoint="http://h/v1", log=LOG)
    outcome, _ = drive(req, ["Plan.\n</think>\nHello!"])
    assert outcome.template_reasoning is True
    try:
        with caplog.at_level(logging.INFO, "letta_tool_emulation"):
            endpoints.remember(req, outcome, LOG)
        assert "m2 began its reply inside reasoning" in caplog.text
        config = SimpleNamespace(
            model="m2", model_endpoint="http://h/v1", handle="x/m2", model_wrapper="tool-emulation"
        )
        assert selection.decide(config).in_reasoning
    finally:
        endpoints.KNOWN.forget_template_reasoning("http://h/v1", "m2")


REPLACE = {
    "type": "function",
    "function": {
        "name": "memory_replace",
        "description": "Replace text in a memory block.",
        "parameters": {
            "type": "object",
            "properties": {
                "label": {"type": "string"},
                "old_string": {"type": "string"},
                "new_string": {"type": "string"},
            },
            "required": ["label", "old_string", "new_string"],
        },
    },
}


@pytest.mark.parametrize("offer", [True, False])
def test_the_replace_tool_is_offered_the_blocks_lines(offer: bool) -> None:
    messages = [{"role": "system", "content": MEMORY_SYSTEM}, {"role": "user", "content": "I am called Eva now."}]
    data = {"model": "m", "messages": messages, "tools": [*TOOLS, REPLACE], "tool_choice": "auto"}
    settings = Settings(offer_lines=offer)
    free = engine.prepare(data, decision=EMULATE, settings=settings, log=LOG)
    listed = 'old_string, for example: "I am Sam." | "Name: Ana"'
    assert (listed in free["messages"][0]["content"]) is offer
    # Free text: a list to pick from, not a rule; any part of a line may still be replaced.
    assert "enum" not in free.step.tools["memory_replace"].properties["old_string"]
    outcome, _ = drive(free, [block({"label": "human", "old_string": "Ana", "new_string": "Eva"}, "memory_replace")])
    assert [json.loads(c["function"]["arguments"])["old_string"] for c in outcome.calls] == ["Ana"]
    # Constrained: the reply schema holds the old text to the lines that are there.
    held = engine.prepare(data, decision=CONSTRAINED, settings=settings, log=LOG)
    schema = json.dumps(held["response_format"])
    assert ('"label": {"enum": ["human"], "type": "string"}, "old_string": {"enum": ["Name: Ana"]' in schema) is offer
    assert ('old_string: "I am Sam." | "Name: Ana"' in held["messages"][0]["content"]) is offer


def test_the_offer_setting_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings.from_env().offer_lines
    monkeypatch.setenv("LETTA_TOOL_EMULATION_OFFER_LINES", "off")
    assert not Settings.from_env().offer_lines


@pytest.mark.parametrize("describe", [True, False])
def test_the_tool_section_says_what_each_block_holds(describe: bool) -> None:
    """Letta states each block's purpose beside its value, far above the tools; a small model
    picks a block by its label alone. Both prompts list the writable blocks' descriptions right
    before the tools; a read-only block, which no memory tool can edit, is left out."""
    read_only = MEMORY_SYSTEM.replace(
        "\n\n</memory_blocks>",
        "\n\n<rules>\n<description>\nHouse rules.\n</description>\n<metadata>\n- read_only=true\n"
        "- chars_current=8\n- chars_limit=5000\n</metadata>\n<value>\nBe kind.\n</value>\n</rules>\n\n</memory_blocks>",
    )
    messages = [{"role": "system", "content": read_only}, {"role": "user", "content": "Remember I have a cat."}]
    data = {"model": "m", "messages": messages, "tools": TOOLS, "tool_choice": "auto"}
    guide = "Memory blocks (label: what it holds):\n- persona: Who you are.\n- human: The user."
    settings = Settings(describe_blocks=describe)
    for decision in (EMULATE, CONSTRAINED):
        system = engine.prepare(data, decision=decision, settings=settings, log=LOG)["messages"][0]["content"]
        heading = "# Reply format" if decision is CONSTRAINED else "# Tools"
        assert (f"</memory_blocks>\n\n{guide}\n\n{heading}\n" in system) is describe
        assert "House rules" not in system.split("</memory_blocks>")[-1]
    # Tools that edit no block get no guide.
    other = {**data, "tools": [{"type": "function", "function": {"name": "send_note", "parameters": {}}}]}
    shown = engine.prepare(other, decision=CONSTRAINED, settings=Settings(describe_blocks=True), log=LOG)
    assert "Memory blocks (label" not in shown["messages"][0]["content"]


def test_the_describe_setting_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not Settings.from_env().describe_blocks
    monkeypatch.setenv("LETTA_TOOL_EMULATION_DESCRIBE_BLOCKS", "on")
    assert Settings.from_env().describe_blocks


def after_edit(said: str, name: str, args: dict[str, Any], value: str) -> list[dict[str, Any]]:
    """A turn so far: the user's message, and one memory edit that left the block at ``value``."""
    call = {"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
    return [
        {"role": "system", "content": MEMORY_SYSTEM},
        {"role": "user", "content": said},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": json.dumps({"status": "OK", "message": value})},
    ]


def test_a_step_after_an_edit_offers_the_lines_the_edit_left() -> None:
    """Letta's system message shows the blocks as the turn began; the turn's own replacement
    returned the block's new value, and the next step of the same turn is offered its lines."""
    edit = {"label": "human", "old_string": "Name: Ana", "new_string": "Name: Eva"}
    messages = after_edit("I am called Eva now, and I live in Lyon.", "memory_replace", edit, "Name: Eva")
    data = {"model": "m", "messages": messages, "tools": [*TOOLS, REPLACE], "tool_choice": "auto"}
    held = engine.prepare(data, decision=CONSTRAINED, settings=Settings(), log=LOG)
    schema = json.dumps(held["response_format"])
    assert '"label": {"enum": ["human"], "type": "string"}, "old_string": {"enum": ["Name: Eva"]' in schema
    assert "Name: Ana" not in schema  # replaced earlier in this turn: a reply naming it would fail


# TOOLS' memory_insert with Letta's line number.
_PARAMS = TOOLS[0]["function"]["parameters"]
INSERT = {
    "type": "function",
    "function": {
        **TOOLS[0]["function"],
        "parameters": {
            **_PARAMS,
            "properties": {
                **_PARAMS["properties"],
                "insert_line": {"type": "integer", "description": "The line after which to insert (0: the start)."},
            },
        },
    },
}


@pytest.mark.parametrize("offer", [True, False])
def test_a_constrained_insert_line_is_held_to_the_blocks_lengths_as_the_turn_left_them(offer: bool) -> None:
    """The human block has one line when the turn begins; an insert earlier in the turn made it
    two, so the next step's schema allows -1 and 0 to 2 there (Letta refuses anything else)."""
    edit = {"label": "human", "new_string": "City: Lyon"}
    messages = after_edit("I live in Lyon, and I have a cat.", "memory_insert", edit, "Name: Ana\nCity: Lyon")
    data = {"model": "m", "messages": messages, "tools": [INSERT], "tool_choice": "auto"}
    settings = Settings(offer_lines=offer)
    held = engine.prepare(data, decision=CONSTRAINED, settings=settings, log=LOG)
    schema = json.dumps(held["response_format"])
    human = '"label": {"enum": ["human"], "type": "string"}, "new_string": {"type": "string"}, "insert_line": '
    assert (human + '{"enum": [-1, 0, 1, 2], "type": "integer"}' in schema) is offer
    persona = '"label": {"enum": ["persona"], "type": "string"}, "new_string": {"type": "string"}, "insert_line": '
    assert (persona + '{"enum": [-1, 0, 1], "type": "integer"}' in schema) is offer
    # The lazy grammar of a free-text reply holds a call block the same way.
    grammar = engine.prepare(
        data, decision=Decision(True, "test", grammar_kind="llama.cpp"), settings=settings, log=LOG
    )
    assert ('("-1" | "0" | "1" | "2") ws' in grammar["grammar"]) is offer
    # Free text: no limit beyond the tool's own; a number out of range is Letta's to refuse.
    free = engine.prepare(data, decision=EMULATE, settings=settings, log=LOG)
    assert "enum" not in free.step.tools["memory_insert"].properties["insert_line"]
    outcome, _ = drive(free, [block({**edit, "insert_line": 9})])
    assert [json.loads(c["function"]["arguments"])["insert_line"] for c in outcome.calls] == [9]


@pytest.mark.parametrize("as_edited", [True, False])
def test_the_model_sees_its_memory_as_the_turns_edits_left_it(as_edited: bool) -> None:
    """Letta writes the memory section when the turn begins; after this turn's insert, the next
    step's system message shows the block with it (and its new size), or as it was when off."""
    edit = {"label": "human", "new_string": "City: Lyon"}
    messages = after_edit("I live in Lyon.", "memory_insert", edit, "Name: Ana\nCity: Lyon")
    data = {"model": "m", "messages": messages, "tools": [INSERT], "tool_choice": "auto"}
    req = engine.prepare(data, decision=EMULATE, settings=Settings(memory_as_edited=as_edited), log=LOG)
    system = req["messages"][0]["content"]
    now = "- chars_current=20\n- chars_limit=5000\n</metadata>\n<value>\nName: Ana\nCity: Lyon\n</value>\n</human>"
    was = "- chars_current=9\n- chars_limit=5000\n</metadata>\n<value>\nName: Ana\n</value>\n</human>"
    assert (now in system, was in system) == (as_edited, not as_edited)
    assert "<value>\nI am Sam.\n</value>\n</persona>" in system  # the block the turn did not edit
    assert messages[0]["content"] == MEMORY_SYSTEM  # the caller's messages are not changed


def test_the_memory_setting_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings.from_env().memory_as_edited
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MEMORY_AS_EDITED", "off")
    assert not Settings.from_env().memory_as_edited


def test_a_word_for_word_copy_of_the_prompts_example_edit_is_not_the_users_fact() -> None:
    """SmolLM2-135M through Letta wrote the constrained prompt's example ("The user likes pizza.")
    for "I work as a nurse": it does not run, and the model is asked again; where the user did
    speak of pizza, the same call is their fact and runs."""
    example = {"label": "human", "new_string": engine.EXAMPLE_FACT}
    copied = json.dumps({"calls": [{"function": "memory_insert", "params": example}], "reply": "Noted."})
    nurse = {"label": "human", "new_string": "Works as a nurse."}
    fact = json.dumps({"calls": [{"function": "memory_insert", "params": nurse}], "reply": "Noted."})
    for said, runs in (("Remember that I work as a nurse.", False), ("Remember that I love PIZZA.", True)):
        messages = [{"role": "system", "content": MEMORY_SYSTEM}, {"role": "user", "content": said}]
        data = {"model": "m", "messages": messages, "tools": TOOLS, "tool_choice": "auto"}
        req = engine.prepare(data, decision=CONSTRAINED, settings=Settings(example="fact"), log=LOG)
        assert engine.EXAMPLE_FACT in req["messages"][0]["content"]  # what the model is shown
        outcome, attempts = drive(req, [copied, fact])
        ran = [json.loads(c["function"]["arguments"])["new_string"] for c in outcome.calls]
        assert ran == ([engine.EXAMPLE_FACT] if runs else ["Works as a nurse."])
        assert len(attempts) == (1 if runs else 2)
        if not runs:
            assert "writes the fact of the example in the instructions" in attempts[1].messages[-1]["content"]
    # The same fact by another memory tool, into another block, without its full stop: a copy too.
    messages = [{"role": "system", "content": MEMORY_SYSTEM}, {"role": "user", "content": "I work as a nurse."}]
    data = {"model": "m", "messages": messages, "tools": [*TOOLS, REPLACE], "tool_choice": "auto"}
    req = engine.prepare(data, decision=CONSTRAINED, settings=Settings(example="fact"), log=LOG)
    replace = {"label": "persona", "old_string": "I am Sam.", "new_string": "the user likes pizza"}
    other = json.dumps({"calls": [{"function": "memory_replace", "params": replace}], "reply": "Noted."})
    outcome, attempts = drive(req, [other, fact])
    assert [c["function"]["name"] for c in outcome.calls] == ["memory_insert"] and len(attempts) == 2
    # The fact with more written after it, or spread over lines: a copy too.
    longer = {"label": "human", "new_string": "The user likes  pizza.\nThe user works as a nurse."}
    more = json.dumps({"calls": [{"function": "memory_insert", "params": longer}], "reply": "Noted."})
    outcome, attempts = drive(req, [more, fact])
    assert [json.loads(c["function"]["arguments"]) for c in outcome.calls] == [nurse] and len(attempts) == 2
    # Where the memory already speaks of pizza, replacing that line is the user's own fact: it runs.
    held = MEMORY_SYSTEM + "\n<human>\nThe user likes pizza.\n</human>"
    messages = [{"role": "system", "content": held}, {"role": "user", "content": "Actually I prefer pasta now."}]
    data = {"model": "m", "messages": messages, "tools": [*TOOLS, REPLACE], "tool_choice": "auto"}
    req = engine.prepare(data, decision=CONSTRAINED, settings=Settings(example="fact"), log=LOG)
    assert req.step.example_fact is None
    pasta = {"label": "human", "old_string": "The user likes pizza.", "new_string": "The user prefers pasta."}
    swap = json.dumps({"calls": [{"function": "memory_replace", "params": pasta}], "reply": "Noted."})
    outcome, attempts = drive(req, [swap])
    assert [json.loads(c["function"]["arguments"]) for c in outcome.calls] == [pasta] and len(attempts) == 1
    # Free text shows no values in its example: nothing is held back there.
    free = engine.prepare({"model": "m", "messages": messages, "tools": TOOLS}, decision=EMULATE, log=LOG)
    assert free.step.example_fact is None


def test_the_example_setting_picks_what_the_constrained_example_writes() -> None:
    """``placeholder`` shows a text that says what goes there instead of a made-up fact; a reply
    that copies it is held back like a copied fact, even where the user's own words would
    otherwise let the example's subject through, since no user says it."""
    placeholder, subject = engine.EXAMPLES["placeholder"]
    assert subject is None and "pizza" not in placeholder
    said = "Remember that I love pizza."
    messages = [{"role": "system", "content": MEMORY_SYSTEM}, {"role": "user", "content": said}]
    data = {"model": "m", "messages": messages, "tools": TOOLS, "tool_choice": "auto"}
    shown = {}
    for kind in ("fact", "placeholder"):
        req = engine.prepare(data, decision=CONSTRAINED, settings=Settings(example=kind), log=LOG)
        system = req["messages"][0]["content"]
        shown[kind] = system
        example = next(line for line in system.splitlines() if line.startswith("Example: "))
        params = json.loads(example.removeprefix("Example: "))["calls"][0]["params"]
        assert params == {"label": "human", "new_string": engine.EXAMPLES[kind][0]}
        # The user spoke of pizza: the fact's example may be theirs; the placeholder never is.
        assert req.step.example_fact == (None if kind == "fact" else placeholder)
    # Only the example line differs between the two prompts.
    assert shown["fact"].replace(engine.EXAMPLE_FACT, placeholder) == shown["placeholder"]
    req = engine.prepare(data, decision=CONSTRAINED, settings=Settings(example="placeholder"), log=LOG)
    copy = {"label": "human", "new_string": placeholder.upper()}
    copied = json.dumps({"calls": [{"function": "memory_insert", "params": copy}], "reply": "Noted."})
    pizza = {"label": "human", "new_string": "Loves pizza."}
    fact = json.dumps({"calls": [{"function": "memory_insert", "params": pizza}], "reply": "Noted."})
    outcome, attempts = drive(req, [copied, fact])
    assert [json.loads(c["function"]["arguments"]) for c in outcome.calls] == [pizza] and len(attempts) == 2
    assert "writes the fact of the example in the instructions" in attempts[1].messages[-1]["content"]


@pytest.mark.parametrize("kind", ["pair", "quote"])
def test_a_worked_pair_shows_the_users_words_and_the_call_that_stores_them(kind: str) -> None:
    """``pair`` and ``quote``: the user's first-person sentence, then the call that stores it in
    the user's block (as a fact about the user, or as the user's words). A reply that writes either text down is a copy of the example, held back
    like a copied fact, unless the user spoke of its subject."""
    fact, subject = engine.EXAMPLES[kind]
    said = engine.EXAMPLE_SAID[kind]
    assert subject is not None and subject in said.casefold() and subject in fact.casefold()
    messages = [{"role": "system", "content": MEMORY_SYSTEM}, {"role": "user", "content": "I work as a nurse."}]
    data = {"model": "m", "messages": messages, "tools": TOOLS, "tool_choice": "auto"}
    req = engine.prepare(data, decision=CONSTRAINED, settings=Settings(example=kind), log=LOG)
    opening = f'Example, for "{said}": '
    line = next(line for line in req["messages"][0]["content"].splitlines() if line.startswith("Example"))
    assert line.startswith(opening)
    shown = json.loads(line.removeprefix(opening))
    assert shown["calls"] == [{"function": "memory_insert", "params": {"label": "human", "new_string": fact}}]
    assert (req.step.example_fact, req.step.example_said) == (fact, said)
    # The other examples show the call alone.
    for alone in ("fact", "placeholder"):
        other = engine.prepare(data, decision=CONSTRAINED, settings=Settings(example=alone), log=LOG)
        assert "Example, for" not in other["messages"][0]["content"] and other.step.example_said is None
    nurse = {"label": "human", "new_string": "The user works as a nurse."}
    right = json.dumps({"calls": [{"function": "memory_insert", "params": nurse}], "reply": "Noted."})
    for text in (said, fact.upper(), f"I am Sam.\n{said.rstrip('.')}"):
        copy = {"label": "persona", "new_string": text}
        copied = json.dumps({"calls": [{"function": "memory_insert", "params": copy}], "reply": "Noted."})
        outcome, attempts = drive(req, [copied, right])
        assert [json.loads(c["function"]["arguments"]) for c in outcome.calls] == [nurse] and len(attempts) == 2
        assert "writes the fact of the example in the instructions" in attempts[1].messages[-1]["content"]
    # The user spoke of jazz: the same words are theirs, and run.
    messages = [{"role": "system", "content": MEMORY_SYSTEM}, {"role": "user", "content": "Remember: I love jazz."}]
    data = {"model": "m", "messages": messages, "tools": TOOLS, "tool_choice": "auto"}
    req = engine.prepare(data, decision=CONSTRAINED, settings=Settings(example=kind), log=LOG)
    assert (req.step.example_fact, req.step.example_said) == (None, None)
    jazz = {"label": "human", "new_string": fact}
    outcome, attempts = drive(req, [json.dumps({"calls": [{"function": "memory_insert", "params": jazz}]})])
    assert [json.loads(c["function"]["arguments"]) for c in outcome.calls] == [jazz] and len(attempts) == 1


def test_the_user_block_first_setting_orders_the_labels_the_model_is_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    messages = [{"role": "system", "content": MEMORY_SYSTEM}, {"role": "user", "content": "I work as a nurse."}]
    data = {"model": "m", "messages": messages, "tools": TOOLS, "tool_choice": "auto"}
    for first, labels in ((False, ["persona", "human"]), (True, ["human", "persona"])):
        req = engine.prepare(data, decision=CONSTRAINED, settings=Settings(user_block_first=first), log=LOG)
        assert req.step.tools["memory_insert"].properties["label"]["enum"] == labels
        shown = " | ".join(f'"{label}"' for label in labels)
        assert f"memory_insert(label: {shown}, new_string: string)" in req["messages"][0]["content"]
    assert Settings.from_env().user_block_first is False
    monkeypatch.setenv("LETTA_TOOL_EMULATION_USER_BLOCK_FIRST", "on")
    assert Settings.from_env().user_block_first is True


def test_the_example_setting_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    heard: list[str] = []
    assert Settings.from_env().example == "quote" == Settings().example
    monkeypatch.setenv("LETTA_TOOL_EMULATION_EXAMPLE", " Placeholder ")
    assert Settings.from_env(Warnings(heard)).example == "placeholder" and heard == []
    monkeypatch.setenv("LETTA_TOOL_EMULATION_EXAMPLE", "recipe")
    assert Settings.from_env(Warnings(heard)).example == "quote"
    assert heard == [
        "letta_tool_emulation: LETTA_TOOL_EMULATION_EXAMPLE is not one of quote, fact, placeholder, pair; using quote"
    ]
    monkeypatch.setenv("LETTA_TOOL_EMULATION_EXAMPLE", "fact")
    assert Settings.from_env().example == "fact"
    monkeypatch.setenv("LETTA_TOOL_EMULATION_EXAMPLE", "pair")
    assert Settings.from_env().example == "pair"


def test_the_users_words_are_shown_only_beside_the_memory_edit_that_stores_them() -> None:
    """The quoted example pairs the user's words with the memory edit that stores them; a
    request whose tools hold no memory edit (an OpenAI client's through the proxy) shows its
    own call alone, not "for" words it does not answer."""
    weather = {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    }
    for tools, paired in (([weather], False), (TOOLS, True)):
        messages = [{"role": "system", "content": MEMORY_SYSTEM}, {"role": "user", "content": "I live in Oslo."}]
        data = {"model": "m", "messages": messages, "tools": tools}
        req = engine.prepare(data, decision=CONSTRAINED, settings=Settings(example="quote"), log=LOG)
        example = next(line for line in req["messages"][0]["content"].splitlines() if line.startswith("Example"))
        assert example.startswith('Example, for "I love jazz.": ') is paired, example
        assert req.step.example_said == ("I love jazz." if paired else None)
