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

# The same reply, streamed a few characters at a time: prose comes out at once and no marker
# text ever reaches the user. Calls come from close(), once nothing later in the reply can
# change them (a lone </think> closing reasoning, a "Shall I go ahead?").
parser = StreamingToolCallParser(TOOLS)
for i in range(0, len(reply), 7):
    for event in parser.feed(reply[i : i + 7]):
        print("event:", repr(event.text))
for event in parser.close("stop"):
    print("at close:", event.call or event.problem)

# A call shown as an example, quoted or proposed is never executed; the problem says why.
shown = parse_tool_calls("For example:\n" + reply.split("\n", 1)[1], TOOLS)
print("shown:", shown.tool_calls, [(p.kind, p.message) for p in shown.problems])

# A broken call is never executed; the problem is worded for the model so it can retry.
bad = parse_tool_calls(
    'TOOL_CALL_START\n{"function": "memory_insert", "params": {"label": "human"}}\nTOOL_CALL_END', TOOLS
)
print(render_feedback(bad.problems))
