"""Token streaming: the agent's words arrive as they are written; call markup never does."""

from _common import MODEL, client

letta = client()
agent = letta.agents.create(
    model=MODEL,
    memory_blocks=[{"label": "human", "value": "Name: Ana"}, {"label": "persona", "value": "I am Sam."}],
)
stream = letta.agents.messages.create(
    agent_id=agent.id,
    messages=[{"role": "user", "content": "Remember that I play the cello."}],
    streaming=True,
    stream_tokens=True,
)
for event in stream:
    kind = getattr(event, "message_type", "")
    if kind == "assistant_message":
        print(event.content, end="", flush=True)
    elif kind == "tool_call_message" and event.tool_call.name:
        print(f"\n[calling {event.tool_call.name}]", flush=True)
    elif kind == "tool_return_message":
        print(f"[{event.status}]", flush=True)
print()
print("memory:", repr(letta.agents.blocks.retrieve("human", agent_id=agent.id).value))
letta.agents.delete(agent.id)
