"""Agents on Venice's end-to-end encrypted models, through the real server command, with the
stand-in playing Venice and the enclave: every chat request to the model carries only
envelopes, tools work as on any emulated model, and every attestation fault stops the turn
before anything is sent."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from letta_client import APIStatusError

from letta_tool_emulation.runtime.standin import Scripted, StandIn
from letta_tool_emulation.runtime.standin.catalog import E2EE_MODEL, E2EE_NATIVE_MODEL
from letta_tool_emulation.runtime.standin.e2ee import ATTESTATION_FAULTS

from .conftest import Server, block, new_agent, of_type, say, stream, wait_gone

MODEL = f"venice/{E2EE_MODEL}"
LIFETIME = 8.0  # seconds: short, so that a test can see an attestation expire
SECRET = "zanzibar-walrus-7781"  # a phrase that must never appear in the server's log


DICE = '''
def roll_dice(sides: int) -> str:
    """Roll a die.

    Args:
        sides: How many sides the die has.
    """
    return f"rolled a {sides} on a d{sides}"
'''


def call(name: str, **params: Any) -> str:
    return f"TOOL_CALL_START\n{json.dumps({'function': name, 'params': params})}\nTOOL_CALL_END"


TWO_CALLS = call("memory_insert", label="human", new_string="Likes tea.") + call(
    "memory_insert", label="human", new_string="Likes jazz."
)


@pytest.fixture(scope="module")
def e2ee_server(tmp_path_factory: pytest.TempPathFactory, standin: StandIn) -> Iterator[Server]:
    srv = Server(
        tmp_path_factory.mktemp("e2ee"),
        standin.url,
        LETTA_TOOL_EMULATION_ATTESTATION_LIFETIME=str(LIFETIME),
        LETTA_LOG_LEVEL="DEBUG",
    ).start()
    yield srv
    assert srv.stop() == 0, srv.tail()
    assert wait_gone(str(srv.data_dir)) == []


@pytest.fixture
def client(e2ee_server: Server, standin: StandIn) -> Iterator[Any]:
    standin.reset()
    yield e2ee_server.client()
    standin.reset()


LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
RECORD_START = re.compile(r"^\S+ - (DEBUG|INFO|WARNING|ERROR|CRITICAL) - ", re.MULTILINE)


def log_records(text: str, at_least: str) -> list[str]:
    """The log's records (a record's continuation lines included) at ``at_least`` or above;
    lines outside any record (a program's own prints) count as above."""
    records, level, current = [], "INFO", []
    for line in text.splitlines():
        started = RECORD_START.match(line)
        if started:
            if current and LEVELS.index(level) >= LEVELS.index(at_least):
                records.append("\n".join(current))
            level, current = started.group(1), [line]
        else:
            current.append(line)
    if current and LEVELS.index(level) >= LEVELS.index(at_least):
        records.append("\n".join(current))
    return records


def test_log_records_are_read_with_their_levels() -> None:
    text = "x - DEBUG - a\nsecret line\ny - INFO - b\nz - WARNING - c\n  more"
    assert log_records(text, "INFO") == ["y - INFO - b", "z - WARNING - c\n  more"]
    assert "secret line" in log_records(text, "DEBUG")[0]


def chats(standin: StandIn, model: str = E2EE_MODEL) -> list[dict[str, Any]]:
    return [r for r in standin.requests if r.get("model") == model]


def only_envelopes(standin: StandIn) -> None:
    """The stand-in's own record: every chat request to the model was end-to-end encrypted,
    and not one content field arrived in plaintext."""
    records = [r for r in standin.state.e2ee.records if r.model == E2EE_MODEL]
    assert records, "the model was asked"
    assert all(r.mode == "e2ee" and r.envelopes_only for r in records), records


def test_picker_lists_the_e2ee_models_with_their_limits(client: Any) -> None:
    models = {m.handle: m for m in client.models.list()}
    assert MODEL in models and f"venice/{E2EE_NATIVE_MODEL}" in models
    assert models[MODEL].context_window == 65536


def test_remember_and_recall_blocking_and_streamed(client: Any, standin: StandIn, e2ee_server: Server) -> None:
    agent = new_agent(client, model=MODEL)
    r = say(client, agent, f"Remember that my locker code is {SECRET}")
    assert [m.tool_call.name for m in of_type(r.messages, "tool_call_message")] == ["memory_insert"]
    assert block(client, agent) == f"Name: Ana\nmy locker code is {SECRET}"
    events = stream(client, agent, "Remember that I have a dog named Rex")
    assert [m.tool_call.name for m in of_type(events, "tool_call_message") if m.tool_call.name] == ["memory_insert"]
    assert block(client, agent).endswith("I have a dog named Rex")
    r = say(client, agent, "Search our conversation for locker code")
    returns = [m.tool_return for m in of_type(r.messages, "tool_return_message") if m.name == "conversation_search"]
    assert len(returns) == 1 and SECRET in returns[0]
    only_envelopes(standin)
    # The memory travels to the model, but only encrypted; and nothing of it reaches the log.
    assert all(SECRET not in json.dumps(body) for body in chats(standin))
    # At INFO and above (the e2e servers run at DEBUG, where Letta itself logs its prompts).
    assert [r for r in log_records(e2ee_server.log(), "INFO") if SECRET in r] == []


def test_two_calls_and_a_failed_call_the_model_fixes(client: Any, standin: StandIn) -> None:
    agent = new_agent(client, model=MODEL)
    standin.script(
        Scripted(text=TWO_CALLS),
        Scripted(text="Both saved."),
    )
    say(client, agent, "Remember two things")
    assert block(client, agent) == "Name: Ana\nLikes tea.\nLikes jazz."
    standin.script(
        Scripted(text=call("memory_replace", label="human", old_string="likes tea", new_string="Likes coffee.")),
        Scripted(text=call("memory_replace", label="human", old_string="Likes tea.", new_string="Likes coffee.")),
        Scripted(text="Fixed."),
    )
    r = say(client, agent, "Tea is now coffee")
    returns = [m for m in of_type(r.messages, "tool_return_message") if m.name == "memory_replace"]
    assert [m.status for m in returns] == ["error", "success"]
    assert block(client, agent) == "Name: Ana\nLikes coffee.\nLikes jazz."
    only_envelopes(standin)


@pytest.mark.parametrize("streamed", [False, True], ids=["blocking", "streamed"])
def test_archival_memory_and_a_custom_tool(client: Any, standin: StandIn, streamed: bool) -> None:
    agent = new_agent(client, "memgpt_agent", model=MODEL, tools=["archival_memory_insert", "archival_memory_search"])
    turn = stream if streamed else say
    turn(client, agent, "Archive that the launch is on March 3rd in Lisbon")
    assert [p.text for p in client.agents.passages.list(agent_id=agent.id)] == ["the launch is on March 3rd in Lisbon"]
    result = turn(client, agent, "Search the archive for March 3rd in Lisbon")
    messages = result if streamed else result.messages
    returns = [m.tool_return for m in of_type(messages, "tool_return_message") if m.name == "archival_memory_search"]
    assert len(returns) == 1 and "Lisbon" in returns[0]

    tool = client.tools.upsert(source_code=DICE)
    dice = new_agent(client, model=MODEL, tool_ids=[tool.id])
    result = turn(client, dice, 'call roll_dice with {"sides": 20}')
    messages = result if streamed else result.messages
    returns = [m.tool_return for m in of_type(messages, "tool_return_message") if m.name == "roll_dice"]
    assert returns == ["rolled a 20 on a d20"]
    only_envelopes(standin)


def test_attestation_is_renewed_after_its_lifetime(client: Any, standin: StandIn) -> None:
    agent = new_agent(client, model=MODEL)
    say(client, agent, "Remember that I like figs")
    time.sleep(LIFETIME + 0.5)
    seen = len(standin.state.e2ee.attestations)
    say(client, agent, "Remember that I like dates")
    assert len(standin.state.e2ee.attestations) == seen + 1  # expired: attested afresh
    say(client, agent, "Remember that I like plums")
    assert len(standin.state.e2ee.attestations) == seen + 1  # still fresh: not asked again


# The check each fault of the stand-in's enclave trips.
CHECKS = {
    "debug": "'debug'",
    "wrong_nonce": "'report_data_nonce'",
    "wrong_address": "'signing_address'",
    "wrong_report_address": "'report_data_address'",
    "missing_key": "'signing_key'",
    "unverified": "'verified'",
}


@pytest.mark.parametrize("fault", sorted(ATTESTATION_FAULTS))
def test_every_attestation_fault_stops_the_turn_before_anything_is_sent(
    client: Any, standin: StandIn, fault: str
) -> None:
    agent = new_agent(client, model=MODEL)
    # A reply that fails to decrypt drops the attested session, so the next turn attests.
    standin.state.e2ee.faults = {"tampered_tag"}
    with pytest.raises(APIStatusError):
        say(client, agent, "Remember that I like pears")
    standin.state.e2ee.faults = {fault}
    attested = len(standin.state.e2ee.attestations)
    before = len(chats(standin))
    with pytest.raises(APIStatusError) as raised:
        say(client, agent, "Remember that I like pears")
    body = json.dumps(raised.value.body)
    assert "end-to-end encrypted" in body and "attestation" in body.lower()
    assert CHECKS[fault] in body, body  # the error names the check that failed
    assert len(standin.state.e2ee.attestations) == attested + 1
    assert len(chats(standin)) == before, "no chat request reached the model"
    assert block(client, agent) == "Name: Ana"
    standin.state.e2ee.faults = set()
    say(client, agent, "Remember that I like pears")  # a good attestation: the next turn works
    assert block(client, agent) == "Name: Ana\nI like pears"


@pytest.mark.parametrize("fault", ["plaintext_chunk", "tampered_tag", "midstream_error"])
def test_a_reply_that_fails_to_decrypt_runs_nothing(client: Any, standin: StandIn, fault: str) -> None:
    agent = new_agent(client, model=MODEL)
    say(client, agent, "Remember that I like figs")
    attested = len(standin.state.e2ee.attestations)
    standin.state.e2ee.faults = {fault}
    with pytest.raises(APIStatusError) as raised:
        say(client, agent, "Remember that I like kiwis")
    assert "end-to-end encrypted" in json.dumps(raised.value.body)
    assert block(client, agent) == "Name: Ana\nI like figs"
    standin.state.e2ee.faults = set()
    say(client, agent, "Remember that I like kiwis")
    assert block(client, agent) == "Name: Ana\nI like figs\nI like kiwis"
    if fault != "midstream_error":  # a decryption failure puts the session in doubt: attest again
        assert len(standin.state.e2ee.attestations) == attested + 1


def test_tee_only_mode_is_plaintext_and_uses_native_tools_where_the_model_has_them(
    client: Any, standin: StandIn
) -> None:
    agent = new_agent(client, model=f"venice/{E2EE_NATIVE_MODEL}")
    client.agents.update(agent.id, llm_config={**agent.llm_config.model_dump(), "model_wrapper": "tee-only"})
    say(client, agent, "Remember that I like pears")
    assert block(client, agent) == "Name: Ana\nI like pears"
    records = [r for r in standin.state.e2ee.records if r.model == E2EE_NATIVE_MODEL]
    assert records and all(r.mode == "tee" for r in records)
    assert all("tools" in body for body in chats(standin, E2EE_NATIVE_MODEL))  # native, in plaintext
