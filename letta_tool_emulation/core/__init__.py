"""The framework-independent core: prompt, transcript, parsing (free text and the JSON envelope
of constrained replies), validation.

Nothing here imports letta; any Python program can use it.
"""

from .envelope import EnvelopeParser, envelope_instruction, envelope_schema, render_envelope_feedback
from .feedback import render_feedback
from .markers import CALL_END, CALL_START, RESULT_END, RESULT_LABEL, neutralise
from .parser import StreamingToolCallParser, parse_tool_calls
from .prompt import render_tool_prompt, tool_choice_instruction
from .results import ParseResult, Problem, StreamEvent, ToolCall
from .tools import ToolSpec, normalize_tools
from .transcript import render_messages, render_transcript

__all__ = [
    "CALL_END",
    "CALL_START",
    "RESULT_END",
    "RESULT_LABEL",
    "EnvelopeParser",
    "ParseResult",
    "Problem",
    "StreamEvent",
    "StreamingToolCallParser",
    "ToolCall",
    "ToolSpec",
    "envelope_instruction",
    "envelope_schema",
    "neutralise",
    "normalize_tools",
    "parse_tool_calls",
    "render_envelope_feedback",
    "render_feedback",
    "render_messages",
    "render_tool_prompt",
    "render_transcript",
    "tool_choice_instruction",
]
