"""A memory edit introduced by everyday wording runs end to end: the stand-in's natural mode writes
each call inside the prose real models put around it (preambles such as "Great, I'll note the
cuisines you enjoy, such as Thai and Ethiopian.", asides, sign-offs), and the real server command
must run every one of them. Outcomes are read back from the server."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from letta_tool_emulation.runtime.standin import StandIn

from .conftest import block, new_agent, of_type, say, stream

SEED = 17
EVERYDAY = ("such as", "like", "example", "format", "list", "should", "each", "all ", "available", "if you want")
FACTS = [
    "I enjoy Thai and Ethiopian food",
    "my blog lives at example.org",
    "I prefer the 24-hour time format",
    "my sister Priya lives in Toronto",
    "I am training for the Berlin half marathon",
    "my dog is called Biscuit",
]


@pytest.fixture
def natural(letta: Any, standin: StandIn) -> Iterator[StandIn]:
    standin.reset(natural=True, seed=SEED)
    yield standin
    standin.reset(natural=False, seed=0)


def _written(standin: StandIn) -> list[str]:
    """The replies the stand-in wrote that carried a memory call."""
    return [r for r in standin.state.replies if "TOOL_CALL_START" in r and '"memory_insert"' in r]


def test_memory_edits_introduced_by_everyday_wording_run(letta: Any, natural: StandIn) -> None:
    agent = new_agent(letta)
    for i, fact in enumerate(FACTS):
        said = f"Remember that {fact}"
        if i % 3 == 2:  # streamed as well as not
            events = stream(letta, agent, said)
            markup = "".join(str(getattr(e, "content", "") or "") for e in of_type(events, "assistant_message"))
        else:
            r = say(letta, agent, said)
            markup = " ".join(str(m.content) for m in of_type(r.messages, "assistant_message"))
        wrote = _written(natural)[-1:]
        assert fact in block(letta, agent).split("\n"), f"the memory edit did not run; the model wrote {wrote}"
        assert "TOOL_CALL_START" not in markup, f"the user was shown raw call markup: {markup!r}"
    written = _written(natural)
    # The workload is what it claims: every call came inside prose, much of it everyday wording.
    assert len(written) >= len(FACTS)
    assert all(w.split("TOOL_CALL_START", 1)[0].strip() for w in written), written
    assert any(word in w.split("TOOL_CALL_START", 1)[0] for w in written for word in EVERYDAY), written
    assert block(letta, agent) == "\n".join(["Name: Ana", *FACTS]), "\n---\n".join(written)


def test_memgpt_agent_memory_edit_in_natural_prose(letta: Any, natural: StandIn) -> None:
    agent = new_agent(letta, "memgpt_agent")
    for fact in FACTS[:2]:
        say(letta, agent, f"Remember that {fact}")
    assert block(letta, agent) == "\n".join(["Name: Ana", *FACTS[:2]]), "\n---\n".join(natural.state.replies)
