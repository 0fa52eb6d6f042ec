"""Use the core on its own: no Letta, no server, just a model's text reply.

python examples/parse_reply.py
"""

from letta_tool_emulation import StreamingToolCallParser, parse_tool_calls, render_feedback, render_tool_prompt

TOOLS = [
    {
        "name": "memory_insert",
        "description": "Insert text into a memory block.",
        "parameters": {
            "type": "object",
            "properties": {"label": {"type": "string"}, "new_string": {"type": "string"}},
            "required": ["label", "new_string"],
        },
    }
]

print(render_tool_prompt(TOOLS))
print()

reply = """Got it, I'll remember that.
TOOL_CALL_START
{"function": "memory_insert", "params": {"label": "human", "new_string": "Likes pizza."}}
TOOL_CALL_END"""

result = parse_tool_calls(reply, TOOLS)
print("content:", result.content)
for call in result.tool_calls:
    print("call:", call.name, call.arguments, f"confidence={call.confidence}")

# The same reply, streamed a few characters at a time: prose comes out at once, the call
# when its block closes, and no marker text ever reaches the user.
parser = StreamingToolCallParser(TOOLS)
for i in range(0, len(reply), 7):
    for event in parser.feed(reply[i : i + 7]):
        print("event:", event.text or event.call)
parser.close()

# A broken call is never executed; the problem is worded for the model so it can retry.
bad = parse_tool_calls(
    'TOOL_CALL_START\n{"function": "memory_insert", "params": {"label": "human"}}\nTOOL_CALL_END', TOOLS
)
print(render_feedback(bad.problems))
