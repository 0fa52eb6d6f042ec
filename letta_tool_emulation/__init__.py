"""Tool calling for Letta agents on models without native function calling.

The public API of the framework-independent core is re-exported here. ``activate()``
installs the plugin into a Letta server process; the ``.pth`` hook shipped with the package
does it by itself whenever letta is imported.

The names are loaded on first use: the start-up hook imports this package in every Python
process of the environment, which must cost next to nothing.
"""

# Not typing.TYPE_CHECKING: importing typing would cost every Python process ~10 ms.
# Type checkers treat a TYPE_CHECKING name as true wherever it comes from. (No __future__
# import either, for the same reason.)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .adapter.patches import activate
    from .core import (
        CALL_END,
        CALL_START,
        RESULT_END,
        RESULT_LABEL,
        EnvelopeParser,
        ParseResult,
        Problem,
        StreamEvent,
        StreamingToolCallParser,
        ToolCall,
        ToolSpec,
        envelope_instruction,
        envelope_schema,
        neutralise,
        normalize_tools,
        parse_tool_calls,
        render_envelope_feedback,
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
    "EnvelopeParser",
    "ParseResult",
    "Problem",
    "StreamEvent",
    "StreamingToolCallParser",
    "ToolCall",
    "ToolSpec",
    "__version__",
    "activate",
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
_WHERE = {name: ".core" for name in __all__} | {"activate": ".adapter.patches", "__version__": None}


def __getattr__(name: str) -> object:
    module = _WHERE.get(name)
    if module is None:  # not ours (or __version__, already set)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib  # here, not at the top: the start-up hook imports this package everywhere

    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
