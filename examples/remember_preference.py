"""An agent remembers a preference in its core memory (the "human" block).

Needs a running server: `letta-tool-emulation server` (see README: with VENICE_API_KEY for
Venice, or with the local stand-in model). LETTA_BASE_URL and LETTA_MODEL choose the server
and the model.
"""

from _common import MODEL, client, show

letta = client()
agent = letta.agents.create(
    model=MODEL,
    memory_blocks=[
        {"label": "human", "value": "Name: Ana"},
        {"label": "persona", "value": "I am Sam, a helpful assistant."},
    ],
)
print(f"agent {agent.id} on {MODEL}")
print("before:", repr(letta.agents.blocks.retrieve("human", agent_id=agent.id).value))
response = letta.agents.messages.create(
    agent_id=agent.id, messages=[{"role": "user", "content": "Remember that I like pizza."}]
)
show(response.messages)
print("after: ", repr(letta.agents.blocks.retrieve("human", agent_id=agent.id).value))
letta.agents.delete(agent.id)
