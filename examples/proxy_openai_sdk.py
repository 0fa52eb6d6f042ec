"""Tool calls from a model without function calling, through the proxy, with the OpenAI SDK.

Start the proxy first (in front of Venice: VENICE_API_KEY set):

    letta-tool-emulation proxy

then run this. PROXY_BASE_URL and PROXY_MODEL choose another proxy or model.
"""

from __future__ import annotations

import json
import os

from openai import OpenAI

BASE_URL = os.environ.get("PROXY_BASE_URL", "http://127.0.0.1:8400/v1")
MODEL = os.environ.get("PROXY_MODEL", "venice-uncensored")

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "remember",
            "description": "Keep a fact about the user for later conversations.",
            "parameters": {
                "type": "object",
                "properties": {"fact": {"type": "string", "description": "The fact, in one sentence."}},
                "required": ["fact"],
            },
        },
    }
]
MEMORY: list[str] = []


def remember(fact: str) -> str:
    MEMORY.append(fact)
    return "saved"


def main() -> None:
    client = OpenAI(base_url=BASE_URL, api_key=os.environ.get("PROXY_API_KEY", "not-needed"))
    messages: list[dict] = [  # type: ignore[type-arg]
        {"role": "system", "content": "Use the remember tool for facts about the user."},
        {"role": "user", "content": "Remember that I like pears"},
    ]
    for _ in range(4):  # the tool loop: call, result, until the model answers in text
        stream = client.chat.completions.create(model=MODEL, messages=messages, tools=TOOLS, stream=True)  # type: ignore[arg-type]
        text, calls = "", {}
        for chunk in stream:
            delta = chunk.choices[0].delta if chunk.choices else None
            if delta is None:
                continue
            text += delta.content or ""
            for call in delta.tool_calls or []:
                entry = calls.setdefault(call.index, {"id": call.id, "name": "", "arguments": ""})
                entry["name"] += (call.function.name or "") if call.function else ""
                entry["arguments"] += (call.function.arguments or "") if call.function else ""
        if not calls:
            print(f"model:     {text.strip()}")
            break
        messages.append({"role": "assistant", "content": text or None, "tool_calls": [
            {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
            for c in calls.values()]})  # fmt: skip
        for c in calls.values():
            print(f"tool call: {c['name']}({c['arguments']})")
            result = remember(**json.loads(c["arguments"]))
            messages.append({"role": "tool", "tool_call_id": c["id"], "content": result})
    print(f"memory:    {MEMORY}")


if __name__ == "__main__":
    main()
