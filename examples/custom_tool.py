"""A custom Python tool, called by a model without function calling.

The tool runs in Letta's own sandbox; the plugin only turns the model's text into the call.
"""

from _common import MODEL, client, show

SOURCE = '''
def roll_dice(sides: int, count: int = 1) -> str:
    """Roll dice and report each die and the total.

    Args:
        sides: Number of sides of each die.
        count: How many dice to roll.
    """
    import random

    rolls = [random.randint(1, sides) for _ in range(count)]
    return f"rolled {rolls}, total {sum(rolls)}"
'''

letta = client()
tool = letta.tools.upsert(source_code=SOURCE)
agent = letta.agents.create(
    model=MODEL,
    memory_blocks=[{"label": "human", "value": "Name: Ana"}, {"label": "persona", "value": "I run tabletop games."}],
    tool_ids=[tool.id],
)
text = 'Roll two twenty-sided dice for me: call roll_dice with {"sides": 20, "count": 2}'
print(f"you: {text}")
show(letta.agents.messages.create(agent_id=agent.id, messages=[{"role": "user", "content": text}]).messages)
letta.agents.delete(agent.id)
