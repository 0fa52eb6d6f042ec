"""Tool calling for Letta agents on models without native function calling.

The public API of the framework-independent core is re-exported here. ``activate()``
installs the plugin into a Letta server process; it is called automatically by the
``.pth`` hook shipped with the package whenever letta is imported.
"""

from __future__ import annotations

from .adapter.patches import activate
from .core import (
    CALL_END,
    CALL_START,
    RESULT_END,
    RESULT_LABEL,
    ParseResult,
    Problem,
    StreamEvent,
    StreamingToolCallParser,
    ToolCall,
    ToolSpec,
    neutralise,
    normalize_tools,
    parse_tool_calls,
    render_feedback,
    render_messages,
    render_tool_prompt,
    render_transcript,
    tool_choice_instruction,
)

__version__ = "0.1.0"

__all__ = [
    "CALL_END",
    "CALL_START",
    "RESULT_END",
    "RESULT_LABEL",
    "ParseResult",
    "Problem",
    "StreamEvent",
    "StreamingToolCallParser",
    "ToolCall",
    "ToolSpec",
    "__version__",
    "activate",
    "neutralise",
    "normalize_tools",
    "parse_tool_calls",
    "render_feedback",
    "render_messages",
    "render_tool_prompt",
    "render_transcript",
    "tool_choice_instruction",
]
