"""Accepting a call: one path for free-text replies and constrained ones.

From a decoded call object to a :class:`ToolCall`, or to problems saying why not: the tool's
name and arguments are read (:meth:`Acceptor.read`), the tool is looked up (an unknown name is
kept, with a problem, so that the agent framework can answer with the list of valid tools),
the arguments are validated against its schema, and the confidence is the format's base
multiplied by a penalty for each thing mended or guessed; a call below the threshold is
reported instead of executed, and a mended one is noted.

Free text and the envelope differ only in what they accept as a call object, which a
:class:`Dialect` states: which keys name the tool and hold its arguments, whether OpenAI's
nested call objects and arguments beside the name are read, how arguments given as a JSON
string are decoded, and how the model is told to write a call again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .decoding import Decoded, RepairBudget, clean_surrogates, decode, decode_exact, may_hold_surrogates
from .formats import NAME_KEYS
from .markers import CALL_END, CALL_START
from .region import excerpt
from .results import Format, Problem, ProblemKind, StreamEvent, ToolCall
from .tools import ToolSpec
from .validate import DEFAULT_IGNORED_PARAMS, is_placeholder, validate_arguments

DEFAULT_THRESHOLD = 0.5
# Multiplied into a call's confidence for each thing that had to be mended or guessed.
PENALTY: Mapping[str, float] = {
    "repaired_json": 0.85,
    "closed_brackets": 0.93,
    "missing_end_marker": 0.9,
    "key_variant": 0.97,
    "arguments_as_string": 0.97,
    "top_level_arguments": 0.9,
    "coerced": 0.95,
}
# Keys that travel with calls in various formats and carry nothing to execute.
PASSIVE_KEYS = frozenset(
    {"id", "type", "index", "call_id", "tool_call_id", "thought", "thoughts", "reasoning", "explanation"}
)

# (name, arguments, notes, penalties) read from a call object.
Read = tuple[str, dict[str, Any], list[str], list[str]]


@dataclass(frozen=True, slots=True)
class Dialect:
    """What one kind of reply accepts as a call object."""

    name_keys: tuple[str, ...]  # keys that name the tool, the first (the usual one) first
    argument_keys: tuple[str, ...]  # keys that hold the arguments, the usual one first
    nested: bool  # OpenAI's {"type": "function", "function": {"name", "arguments"}} is read
    beside_name: bool  # without an arguments key, the other keys are the arguments
    exact_strings: bool  # arguments given as a JSON string are decoded exactly, never repaired
    not_an_object: str  # what to tell the model when a call is not an object
    no_name: str  # ... when it names no tool
    write_again: Callable[[str], str]  # how to write a call to the tool again


FREE_TEXT = Dialect(
    name_keys=NAME_KEYS,
    argument_keys=("params", "parameters", "arguments", "args", "tool_input", "input", "kwargs", "action_input"),
    nested=True,
    beside_name=True,
    exact_strings=False,
    not_an_object="A call must be a JSON object with the tool's name and its parameters.",
    no_name='A call object needs the tool name under "function", e.g. {"function": "<tool name>", "params": {...}}.',
    write_again=lambda name: (
        f'exactly as: {CALL_START}, then {{"function": "{name}", "params": {{...}}}}, then {CALL_END}.'
    ),
)


class Acceptor:
    """Accepts calls for one tool list and one reply (it keeps the reply's repair budget)."""

    __slots__ = ("budget", "ignored_params", "threshold", "tools")

    def __init__(
        self,
        tools: Mapping[str, ToolSpec],
        threshold: float = DEFAULT_THRESHOLD,
        ignored_params: frozenset[str] = DEFAULT_IGNORED_PARAMS,
    ) -> None:
        self.tools = tools
        self.threshold = threshold
        self.ignored_params = ignored_params
        self.budget = RepairBudget()  # json_repair is slow: it sees a bounded amount per reply

    def read(self, item: Any, dialect: Dialect) -> Read | str:
        """(name, arguments, notes, penalties) from one call object, or why it is not one."""
        if not isinstance(item, dict):
            return dialect.not_an_object
        notes: list[str] = []
        penalties: list[str] = []
        inner = item.get("function")
        if dialect.nested and isinstance(inner, dict):  # OpenAI style: {"type": "function", "function": {...}}
            merged = {k: v for k, v in item.items() if k != "function"}
            merged.update(inner)
            item = merged
            notes.append("OpenAI-style call object")
        # Plain loops: a generator per key list costs more than the lookups themselves.
        name_key = None
        for k in dialect.name_keys:
            v = item.get(k)
            if isinstance(v, str) and v.strip():
                name_key = k
                break
        if name_key is None:
            return dialect.no_name
        name = item[name_key].strip()
        arg_key = None
        for k in dialect.argument_keys:
            if k in item:
                arg_key = k
                break
        if name_key != dialect.name_keys[0] or arg_key not in (None, dialect.argument_keys[0]):
            penalties.append("key_variant")
        arguments: Any
        if arg_key is not None:
            arguments = item[arg_key]
        elif dialect.beside_name:
            arguments = {
                k: v for k, v in item.items() if k != name_key and k not in PASSIVE_KEYS and k not in NAME_KEYS
            }
            if arguments:
                notes.append("parameters given beside the tool name")
                penalties.append("top_level_arguments")
        else:
            arguments = {}
        if isinstance(arguments, str):
            read = self._string_arguments(name, arguments, dialect)
            if isinstance(read, str):
                return read
            arguments = read.value
            notes += read.notes
            penalties += read.penalties
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return f"The parameters of '{name}' must be a JSON object of named values."
        if arg_key is not None and dialect.beside_name:
            beside = self._beside(name, name_key, arg_key, item, arguments, dialect)
            if beside:
                return beside
        return name, arguments, notes, penalties

    def _beside(
        self, name: str, name_key: str, arg_key: str, item: dict[str, Any], arguments: dict[str, Any], dialect: Dialect
    ) -> str:
        """Why a call is refused for a parameter written beside its arguments ("" if none is):
        which of two values was meant, or whether one outside the arguments was meant at all,
        would be a guess."""
        spec = self.tools.get(name)
        params = spec.properties if spec is not None else {}
        for key in item:
            if key in (name_key, arg_key) or key in PASSIVE_KEYS or key in NAME_KEYS or key in dialect.argument_keys:
                continue
            if key in arguments and arguments[key] != item[key]:
                return (
                    f"The call to '{name}' gave '{key}' twice, inside \"{arg_key}\" and beside it, with different "
                    f'values; nothing was called. Write each parameter once, inside "{arg_key}".'
                )
            if key not in arguments and key in params:
                return (
                    f"The call to '{name}' gave its parameter '{key}' beside \"{arg_key}\" instead of inside it; "
                    f'nothing was called. Write every parameter inside "{arg_key}".'
                )
        return ""

    def _string_arguments(self, name: str, text: str, dialect: Dialect) -> Decoded | str:
        """Arguments given as a JSON string: what they hold, or why they cannot be read."""
        if not text.strip():
            return Decoded({})  # no arguments, as OpenAI writes them: nothing to mend
        if dialect.exact_strings:
            exact = decode_exact(text)
            if exact is None:
                return f"The parameters of '{name}' were a string that is not JSON; nothing was called."
            # What decoding itself noted (raw control characters) is not the model's concern here.
            decoded: Decoded | str = Decoded(exact.value) if isinstance(exact, Decoded) else exact
        else:
            decoded = decode(text.strip(), self.budget)
        if isinstance(decoded, str):
            return f"The parameters of '{name}' were given as a JSON string that could not be read: {decoded}"
        if may_hold_surrogates(text):
            decoded.value = clean_surrogates(decoded.value)
        decoded.notes.append("arguments given as a JSON string")
        decoded.penalties.append("arguments_as_string")
        return decoded

    def accept(
        self,
        read: Read,
        *,
        fmt: Format,
        base: float,
        dialect: Dialect,
        raw: str,
        notes: list[str] | None = None,
        penalties: list[str] | None = None,
    ) -> list[StreamEvent]:
        """The events for one read call: the call, or the problems that kept it from running.
        ``notes`` and ``penalties`` are what decoding the call's JSON already cost; ``raw`` is
        the text problems quote."""
        name, arguments, read_notes, read_penalties = read
        notes = (notes or []) + read_notes
        penalties = (penalties or []) + read_penalties
        events: list[StreamEvent] = []
        spec = self.tools.get(name)
        if spec is None and placeholder_tool(name):
            # A format's stand-in for a tool's name ("TOOL_NAME", "工具名"): the model recited a
            # format, or copied one; nothing names a tool to call, so nothing is kept as a call.
            message = (
                f"'{name}' only stands for a tool's name, as in a format, so nothing was called. "
                f"To call a tool, write its name: {', '.join(self.tools) or 'none'}."
            )
            return [_problem("unknown_tool", message, raw, rejected=True, tool=name)]
        if spec is None:
            # Never guess another tool: keep the exact name so the agent framework can
            # answer with the list of valid tools.
            events.append(
                _problem(
                    "unknown_tool",
                    f"'{name}' is not an available tool. Available tools: {', '.join(self.tools) or 'none'}.",
                    raw,
                    tool=name,
                )
            )
        else:
            checked = validate_arguments(spec, arguments, self.ignored_params)
            if checked.errors:
                message = f"The call to '{name}' was not executed: " + "; ".join(checked.errors) + "."
                return [_problem("invalid_arguments", message, raw, rejected=True, tool=name)]
            arguments = checked.arguments
            notes += checked.notes
            if any("->" in n for n in checked.notes):
                penalties.append("coerced")
        confidence = base
        for p in penalties:
            confidence *= PENALTY[p]
        confidence = round(confidence, 3)
        if confidence < self.threshold:
            message = (
                f"A call to '{name}' was found but not executed because it needed too much guessing "
                f"({', '.join(notes) or fmt}). Write it again {dialect.write_again(name)}"
            )
            return [*events, _problem("low_confidence", message, raw, rejected=True, tool=name)]
        if notes:
            events.append(
                _problem("repaired", f"The call to '{name}' was accepted after: {', '.join(notes)}.", raw, tool=name)
            )
        events.append(StreamEvent(call=ToolCall(name, arguments, confidence, fmt, tuple(notes))))
        return events


def _problem(
    kind: ProblemKind, message: str, raw: str, *, rejected: bool = False, tool: str | None = None
) -> StreamEvent:
    return StreamEvent(problem=Problem(kind, message, rejected=rejected, tool_name=tool, excerpt=excerpt(raw)))


# The words a format uses for "the tool's name", in the languages of the prompt's users, written
# together and in lower case ("TOOL_NAME", "tool-name", "工具名", "টুলের_নাম")
_TOOL_NAME_WORDS = frozenset(
    {
        "toolname", "nameofthetool", "nameoftool", "functionname", "function", "tool", "yourtool", "thetool",
        "werkzeugname", "werkzeug", "toolnaam", "nombredelaherramienta", "nombreherramienta", "herramienta",
        "nomdeloutil", "nomoutil", "outil", "nomedellostrumento", "nomestrumento", "strumento",
        "nomedaferramenta", "nomeferramenta", "ferramenta", "имяинструмента", "названиеинструмента",
        "инструмент", "назваінструменту", "інструмент", "nazwanarzędzia", "názevnástroje", "araçadı",
        "工具名", "工具名称", "函数名", "工具", "ツール名", "関数名", "ツール", "도구이름", "도구명", "도구",
        "টুলেরনাম", "টুল", "टूलकानाम", "टूल", "اسمالأداة", "نامابزار", "שםהכלי", "têncôngcụ",
    }
)  # fmt: skip


_SEPARATORS = frozenset(" \t_-.:<>{}[]()'\"`")


def placeholder_tool(name: str) -> bool:
    """Whether a tool name that names no tool of the list only stands for one, as a format's
    placeholder does (``TOOL_NAME``, ``<tool>``, ``工具名``)."""
    # (the separators dropped, not every character that is no letter: a vowel sign is a mark)
    folded = "".join(c for c in name.casefold() if c not in _SEPARATORS)
    return is_placeholder(name) or folded in _TOOL_NAME_WORDS
