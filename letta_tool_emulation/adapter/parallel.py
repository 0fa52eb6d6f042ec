"""Several calls of one reply in one Letta step, where the agent allows it.

Letta's agent loop (letta_v1_agent) runs every call of a step's reply when the agent's
``llm_config.parallel_tool_calls`` is on, and asks a native model for several calls only when,
besides, the agent has no tool rules (other than approvals): after ``build_request_data`` it
sets the request's ``parallel_tool_calls`` to that verdict, if the key is there. An emulated
request carries the key for this reason alone (it is never sent): Letta's verdict decides
whether the plugin hands Letta several calls at once, or one per step as before.

Letta runs the calls to its parallel-safe tools (searches) first, all at once, then the others
one by one in the order given (``LETTA_PARALLEL_SAFE_TOOLS``; a custom tool's flag is not known
here). ``step.in_order`` takes only as many calls at once as keep the order the model wrote.
"""

from __future__ import annotations

import dataclasses

from ..step import EmulatedRequest
from .letta_api import LETTA_PARALLEL_SAFE_TOOLS, LETTA_TOOL_SET

KEY = "parallel_tool_calls"
CONCURRENT: frozenset[str] = frozenset(LETTA_PARALLEL_SAFE_TOOLS)
SEQUENTIAL: frozenset[str] = frozenset(LETTA_TOOL_SET) - CONCURRENT


def ask_letta(request: EmulatedRequest) -> EmulatedRequest:
    """Leave room for Letta's verdict on a request whose agent has parallel tool calls on."""
    if request.step.parallel:
        request[KEY] = False  # Letta sets True when the agent has no tool rules either
    return request


def letta_said(request: EmulatedRequest) -> None:
    """Take Letta's verdict off the request (no endpoint sees it) and into its step."""
    verdict = request.pop(KEY, None)
    if request.step.parallel and verdict is not True:
        request.step = dataclasses.replace(request.step, parallel=False)
