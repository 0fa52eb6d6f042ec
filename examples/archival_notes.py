"""Archival memory: the agent files a note away, then finds it again.

Works with or without an embedding model (without one, Letta searches archival memory by
text). Set LETTA_EMBEDDING (e.g. venice/text-embedding-bge-m3) to use embeddings.
"""

import os

from _common import MODEL, client, show

letta = client()
embedding = os.environ.get("LETTA_EMBEDDING")
agent = letta.agents.create(
    model=MODEL,
    memory_blocks=[{"label": "human", "value": "Name: Ana"}, {"label": "persona", "value": "I keep careful notes."}],
    tools=["archival_memory_insert", "archival_memory_search"],
    **({"embedding": embedding} if embedding else {}),
)
for text in ("Archive that the project launch is on March 3rd in Lisbon.", "Search the archive for March 3rd"):
    print(f"you: {text}")
    show(letta.agents.messages.create(agent_id=agent.id, messages=[{"role": "user", "content": text}]).messages)
print("passages:", [p.text for p in letta.agents.passages.list(agent_id=agent.id)])
letta.agents.delete(agent.id)
