"""Letta's own tool schemas as its request carries them: built in the same process, never
through JSON, so a ``Literal``'s values are still the tuple Letta's schema generator wrote."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from letta_tool_emulation.step import EmulatedRequest

from ..engine.test_engine import drive
from .conftest import letta_tools, system, user

SEARCH = "conversation_search"
ROLES = ["assistant", "user", "tool"]


def reply(mode: str, roles: list[str]) -> str:
    call = {"function": SEARCH, "params": {"query": "I am Sam.", "roles": roles}}
    if mode == "constrained":
        return json.dumps({"calls": [call]})
    return f"TOOL_CALL_START\n{json.dumps(call)}\nTOOL_CALL_END"


def held_roles(schema: Any) -> list[Any]:
    """The ``enum`` of the roles' items wherever the reply schema names them."""
    found = []
    if isinstance(schema, dict):
        roles = schema.get("properties", {}).get("roles")
        if isinstance(roles, dict) and isinstance(roles.get("items"), dict):
            found.append(roles["items"].get("enum"))
        for value in schema.values():
            found += held_roles(value)
    elif isinstance(schema, list):
        for value in schema:
            found += held_roles(value)
    return found


@pytest.mark.parametrize("mode", ["free-text", "constrained"])
def test_a_role_outside_conversation_searchs_literal_is_sent_back_never_run(
    letta: Any, config: Any, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    from letta.llm_api.llm_client import LLMClient
    from letta.schemas.enums import AgentType

    from letta_tool_emulation.adapter import client as client_module

    tools = letta_tools("memory_insert", "memory_replace", SEARCH)
    # What Letta's executor checks the call against: `roles: Optional[List[Literal[...]]]`.
    assert tuple(tools[2]["parameters"]["properties"]["roles"]["items"]["enum"]) == tuple(ROLES)
    if mode == "constrained":
        decide = client_module.decide
        monkeypatch.setattr(client_module, "decide", lambda c: replace(decide(c), schema_shape="llama.cpp"))
    data = LLMClient.create("openai").build_request_data(
        AgentType.letta_v1_agent, [system(), user("I am Sam.")], config, tools
    )
    assert isinstance(data, EmulatedRequest)
    assert f"roles?: array of {' | '.join(json.dumps(r) for r in ROLES)}" in data["messages"][0]["content"]
    if mode == "constrained":
        assert held_roles(data["response_format"]) == [ROLES]

    outcome, attempts = drive(data, [reply(mode, ["doctor"]), reply(mode, ["user"])])

    assert len(attempts) == 2 and all(a.constrained == (mode == "constrained") for a in attempts)
    feedback = attempts[1].messages[-1]["content"]
    assert "'roles[0]' must be one of" in feedback and '"doctor"' in feedback
    assert [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in outcome.calls] == [
        (SEARCH, {"query": "I am Sam.", "roles": ["user"]})
    ]
