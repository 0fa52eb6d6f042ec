"""Shared set-up for the examples: which server and which model."""

from __future__ import annotations

import os

from letta_client import Letta

BASE_URL = os.environ.get("LETTA_BASE_URL", "http://127.0.0.1:8283")
MODEL = os.environ.get("LETTA_MODEL", "venice/venice-uncensored")


def client() -> Letta:
    return Letta(base_url=BASE_URL, timeout=180)


def show(messages) -> None:  # type: ignore[no-untyped-def]
    for m in messages:
        kind = getattr(m, "message_type", "")
        if kind == "tool_call_message":
            print(f"  tool call:   {m.tool_call.name}({m.tool_call.arguments})")
        elif kind == "tool_return_message":
            print(f"  tool result: [{m.status}] {str(m.tool_return).strip()[:200]}")
        elif kind == "assistant_message":
            print(f"  agent:       {m.content}")
