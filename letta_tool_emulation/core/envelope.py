"""Constrained replies: one JSON envelope that the endpoint enforces, and its streaming parser.

Where an endpoint can constrain decoding to a JSON schema, the model's whole reply is

    {"reply": "text for the user", "calls": [{"function": "<tool>", "params": {...}}, ...]}

with ``calls`` left out when no tool is called. The schema is built from the offered tools,
so a well-formed call naming a real tool with arguments of the right shape is a property of
decoding. The parser still validates every call exactly as the free-text parser does: a
server may enforce the schema loosely, or not at all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

import regex

from .accept import DEFAULT_THRESHOLD, Acceptor, Dialect
from .chunks import ChunkReader, internal_error
from .decoding import Decoded, clean_surrogates, decode_exact, may_hold_surrogates
from .feedback import report_lines
from .markers import LOOK_CLOSER, run_end
from .parser import StreamingToolCallParser, tidy
from .prompt import (
    TOOL_DESCRIPTION_CHARS,
    ToolChoice,
    forced_tool_name,
    signature,
    summarize,
    worked_example,
)
from .region import cut_why
from .region import excerpt as cut_excerpt
from .results import ParseResult, Problem, StreamEvent, ToolCall
from .tools import ToolLike, ToolSpec, normalize_tools
from .validate import DEFAULT_IGNORED_PARAMS

REPLY_KEY = "reply"
CALLS_KEY = "calls"
NAME_KEY = "function"
ARGUMENTS_KEY = "params"
ENVELOPE_KEYS = (REPLY_KEY, CALLS_KEY)
# The instructions' stand-ins for the reply's text. A small model sometimes copies one as its
# answer (SmolLM2-135M at temperature 1.0 answered {"reply": "<short text for the user>"}); shown
# to the user it reads as a broken agent, so a reply that is only a stand-in is no text, and with
# no call either the model is asked again, as after an empty reply.
REPLY_STAND_INS = ("<short text for the user>", "<your answer>", "...")
_STAND_IN_HOLD = 64  # reply characters held while they may still be a stand-in (blanks around it)

# -- the schema ---------------------------------------------------------------------------------

# Keywords every target's schema-to-grammar converter handles (llama.cpp and the servers built on
# it, vLLM's backends, LM Studio). Everything else is dropped: the grammar gets looser, never
# stricter, and the validator still checks each call against the tool's full schema.
_ANY = {"type": ["string", "number", "boolean", "object", "array", "null"]}
_TYPES = frozenset(("string", "number", "integer", "boolean", "object", "array", "null"))
_MAX_DEPTH = 32
_RULE_NAME = regex.compile(r"[^A-Za-z0-9]+")


def envelope_schema(
    tools: Iterable[ToolLike | ToolSpec] | None, *, required: bool, single: bool = False
) -> dict[str, Any]:
    """The JSON schema of a reply: the reply text alone, or one or more calls with optional text.

    Each call is ``{"function": <one offered tool's name>, "params": <that tool's arguments>}``.
    With ``required`` (the agent framework forces a tool) only the form with calls is allowed.
    Without any tool, only the text is. ``single`` allows one call per reply (a client that
    takes no parallel calls, and that nothing hands further calls out to one step at a time).

    The form with calls opens with ``"calls"``: grammar-based servers write properties in
    schema order, so a model chooses between calling and answering at the first key, instead
    of writing an answer first and then closing the object (which small models measurably do).
    """
    specs = normalize_tools(tools)
    defs: dict[str, Any] = {}
    variants = [_call_schema(spec, defs) for spec in specs.values()]
    text_only: dict[str, Any] = {
        "type": "object",
        "properties": {REPLY_KEY: {"type": "string"}},
        "required": [REPLY_KEY],
        "additionalProperties": False,
    }
    if not variants:
        return text_only
    item = variants[0] if len(variants) == 1 else {"anyOf": variants}
    with_calls: dict[str, Any] = {
        "type": "object",
        "properties": {
            CALLS_KEY: {"type": "array", "items": item, "minItems": 1, **({"maxItems": 1} if single else {})},
            REPLY_KEY: {"type": "string"},
        },
        "required": [CALLS_KEY],
        "additionalProperties": False,
    }
    schema: dict[str, Any] = with_calls if required else {"anyOf": [with_calls, text_only]}
    if defs:
        schema["$defs"] = defs
    return schema


def envelope_instruction(
    tools: Iterable[ToolLike | ToolSpec] | None,
    *,
    tool_choice: ToolChoice = None,
    example: Mapping[str, Any] | None = None,
    said: str | None = None,
) -> str:
    """The system-prompt section for a constrained reply: the envelope's two forms, the tools.

    Used instead of :func:`render_tool_prompt` when the request carries :func:`envelope_schema`:
    the server enforces the form, this tells the model what each part is for. ``example`` is a
    call ``{"function": ..., "params": {...}}`` to show (by default one built from the first tool
    with parameters); realistic values help small models most. ``said``: what the user said that
    the example's call answers, shown before it as a worked pair (a small model that sees the
    call alone copies the shape of the text beside it, such as a persona's first person).

    Kept short on purpose: the schema already carries every parameter's name and type, and on a
    135M-parameter model the parameter descriptions cut the share of turns that call a tool
    (41.7 % against 75 % in a 12-turn sample).
    """
    specs = normalize_tools(tools)
    if not specs:
        return ""
    shown = dict(example) if example and isinstance(example.get("params"), Mapping) else concrete_example(specs)
    lines = [
        "# Reply format",
        "Every reply is one JSON object.",
        f'To call tools: {{"{CALLS_KEY}": [{{"{NAME_KEY}": "<tool name>", "{ARGUMENTS_KEY}": {{<arguments>}}}}], '
        f'"{REPLY_KEY}": "{REPLY_STAND_INS[0]}"}}',
        f'To answer without a tool: {{"{REPLY_KEY}": "{REPLY_STAND_INS[1]}"}}',
        *_example_lines(shown, said),
        "Calls run in the order written; their results come back in the next message.",
        "",
        "Tools (? marks an optional parameter):",
    ]
    for spec in specs.values():
        lines.append("- " + signature(spec))
        about = summarize(spec.description, TOOL_DESCRIPTION_CHARS)
        if about:
            lines.append("  " + about)
    name = forced_tool_name(tool_choice)
    if name:
        lines += ["", f'You must call the tool {name} now: reply with "{CALLS_KEY}".']
    elif tool_choice in ("required", "any"):
        lines += ["", f'You must call at least one tool now: reply with "{CALLS_KEY}".']
    elif tool_choice == "none":
        lines += ["", f'Do not call any tool in this reply; answer with "{REPLY_KEY}" only.']
    return "\n".join(lines)


def _example_lines(shown: Mapping[str, Any], said: str | None) -> list[str]:
    call = json.dumps({CALLS_KEY: [shown], REPLY_KEY: "Noted."}, ensure_ascii=False)
    # One line, like the call alone: SmolLM2-135M shown the pair as "User: ..." and "Reply: ..."
    # lines answered {"reply": "Noted."} in every turn.
    return [f"Example, for {json.dumps(said, ensure_ascii=False)}: {call}" if said else f"Example: {call}"]


def concrete_example(specs: Mapping[str, ToolSpec]) -> dict[str, Any]:
    """A call with values, not placeholders: a grammar makes the model write JSON in any case,
    and small models follow a concrete shape best (the engine does not run a memory edit that
    writes the example's fact where the user never spoke of its subject)."""
    shape = worked_example(specs)
    spec = specs[shape["function"]]
    properties = spec.properties
    if "label" in shape["params"]:
        # Where the parameters branch by block (the replace tools' old text offered each block's
        # lines), the other values come from the example block's branch: a line of that block.
        label = example_label(properties.get("label"))
        branches = spec.parameters.get("anyOf")
        for branch in branches if isinstance(branches, list) else ():
            inner = branch.get("properties") if isinstance(branch, Mapping) else None
            named = inner.get("label") if isinstance(inner, Mapping) else None
            if isinstance(inner, Mapping) and isinstance(named, Mapping) and named.get("enum") == [label]:
                properties = {**properties, **inner}
                break
    return {"function": spec.name, "params": {n: _sample(n, properties.get(n)) for n in shape["params"]}}


# The block an example's `label` names where the tool allows it: the user's. Small models write
# where the example writes, and an example naming the persona (the first block of Letta's enum)
# taught them to put the user's facts there.
USER_BLOCK = "human"


def example_label(schema: Any) -> str:
    """The block an example's ``label`` names: the user's, or the first the tool allows when
    that is not one of them."""
    allowed = schema.get("enum") if isinstance(schema, Mapping) else None
    if not isinstance(allowed, list) or not allowed or USER_BLOCK in allowed:
        return USER_BLOCK
    return str(allowed[0])


def _sample(name: str, schema: Any) -> Any:
    if name == "label":
        return example_label(schema)
    if not isinstance(schema, Mapping):
        return name.replace("_", " ")
    for key in ("examples", "enum"):
        values = schema.get(key)
        if isinstance(values, list) and values:
            return values[0]
    if "default" in schema:
        return schema["default"]
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) and kind else kind
    samples = {"integer": 1, "number": 1, "boolean": True, "array": [], "object": {}}
    return samples.get(kind if isinstance(kind, str) else "", name.replace("_", " "))


def _call_schema(spec: ToolSpec, defs: dict[str, Any]) -> dict[str, Any]:
    prefix = _RULE_NAME.sub("-", spec.name).strip("-") or "tool"
    local = spec.parameters.get("$defs") or spec.parameters.get("definitions")
    renames: dict[str, str] = {}
    if isinstance(local, Mapping):
        renames = {str(k): f"{prefix}-{_RULE_NAME.sub('-', str(k)).strip('-')}" for k in local}
    context = _Context(renames, f"{prefix}-params")
    params = _portable(spec.parameters, context, 0, top=True)
    if isinstance(local, Mapping):
        for name, sub in local.items():
            defs[renames[str(name)]] = _portable(sub, context, 0)
    if context.root_used:
        defs[context.root] = params
    return {
        "type": "object",
        "properties": {NAME_KEY: {"type": "string", "const": spec.name}, ARGUMENTS_KEY: params},
        "required": [NAME_KEY, ARGUMENTS_KEY],
        "additionalProperties": False,
    }


class _Context:
    __slots__ = ("renames", "root", "root_used")

    def __init__(self, renames: dict[str, str], root: str) -> None:
        self.renames = renames
        self.root = root
        self.root_used = False


def _portable(schema: Any, ctx: _Context, depth: int, *, top: bool = False) -> dict[str, Any]:
    """``schema`` reduced to keywords all converters accept, references made envelope-wide."""
    if not isinstance(schema, Mapping) or depth > _MAX_DEPTH:
        return dict(_ANY)
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return _ref(ref, ctx)
    if isinstance(schema.get("allOf"), list) and len(schema["allOf"]) == 1 and len(schema) <= 3:
        return _portable(schema["allOf"][0], ctx, depth + 1)  # pydantic's wrapper around one $ref
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list) and options:
            # oneOf's exclusivity cannot be enforced by a grammar anyway.
            return {"anyOf": [_portable(o, ctx, depth + 1) for o in options]}
    out: dict[str, Any] = {}
    if "const" in schema:
        out["const"] = schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        out["enum"] = list(schema["enum"])
    types = schema.get("type")
    if isinstance(types, str) and types in _TYPES:
        out["type"] = types
    elif isinstance(types, list) and types and all(t in _TYPES for t in types):
        out["type"] = list(dict.fromkeys(types))
    elif top or "properties" in schema:
        out["type"] = "object"
    if out.get("type") == "object" or (isinstance(out.get("type"), list) and "object" in out["type"]):
        props = schema.get("properties")
        if isinstance(props, Mapping) or top:
            props = props if isinstance(props, Mapping) else {}
            out["properties"] = {str(k): _portable(v, ctx, depth + 1) for k, v in props.items()}
            req = schema.get("required")
            if isinstance(req, list):
                out["required"] = [r for r in req if isinstance(r, str) and r in props]
            extra = schema.get("additionalProperties", False)
            # The validator rejects parameters a tool does not declare unless it allows them.
            if isinstance(extra, Mapping):
                out["additionalProperties"] = _portable(extra, ctx, depth + 1)
            else:
                out["additionalProperties"] = extra is True
    if out.get("type") == "array" or (isinstance(out.get("type"), list) and "array" in out["type"]):
        items = schema.get("items")
        if isinstance(items, Mapping):
            out["items"] = _portable(items, ctx, depth + 1)
        for key in ("minItems", "maxItems"):
            if isinstance(schema.get(key), int) and not isinstance(schema.get(key), bool) and schema[key] >= 0:
                out[key] = schema[key]
    return out or dict(_ANY)


def _ref(ref: str, ctx: _Context) -> dict[str, Any]:
    if ref == "#":
        ctx.root_used = True
        return {"$ref": f"#/$defs/{ctx.root}"}
    for base in ("#/$defs/", "#/definitions/"):
        if ref.startswith(base) and ref[len(base) :] in ctx.renames:
            return {"$ref": f"#/$defs/{ctx.renames[ref[len(base) :]]}"}
    return dict(_ANY)  # a reference the envelope cannot carry: leave that value unconstrained


def render_envelope_feedback(problems: Iterable[Problem], *, executed: int = 0) -> str:
    """:func:`render_feedback` for a constrained model: the same report, and the envelope's form to use."""
    lines = report_lines(problems, executed=executed)
    if not lines:
        return ""
    form = f'{{"{CALLS_KEY}": [{{"{NAME_KEY}": "<tool name>", "{ARGUMENTS_KEY}": {{...}}}}]}}'
    if executed:
        lines.append(
            f"Reply with only the calls that did not run, corrected, as {form}; do not repeat the calls that ran."
        )
    else:
        lines.append(
            f'Reply with the corrected call as {form}, or with {{"{REPLY_KEY}": "{REPLY_STAND_INS[2]}"}} if no tool is needed.'
        )
    return "\n".join(lines)


# -- the parser ---------------------------------------------------------------------------------

_UNDECIDED, _ENVELOPE, _DONE, _FALLBACK, _BROKEN = range(5)
# Object states, then array states.
_KEY_OR_END, _KEY, _COLON, _OBJ_VALUE, _OBJ_NEXT = range(5)
_ITEM_OR_END, _ITEM, _ARR_NEXT = range(5, 8)
# What a container or string is to the envelope.
_ROLE_ENVELOPE, _ROLE_CALLS, _ROLE_OTHER = range(3)

_WS = " \t\r\n"
_BOM = "\ufeff"
# Prose a server that does not enforce the schema may write before the envelope: held while
# the reply may still turn out to be one, up to this many characters.
PREAMBLE_LIMIT = 1000
# A fence opener line just before the envelope: ```json, ``` or the like.
_FENCE_OPENER = re.compile(r"(?:^|\n)[ \t]{0,3}(`{3,}|~{3,})[ \t]*(?:json|jsonc|json5)?[ \t]*\r?\n[ \t\r\n]*\Z", re.I)
_WS_RUN = re.compile(r"[ \t\r\n]+")
_STRING_SPECIAL = regex.compile(r'["\\]')
# String content the json module decodes as it stands: plain characters and valid escapes.
_STRING_BODY = re.compile(r'(?:[^"\\]+|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*')
_HIGH_ESCAPE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}")
_SCALAR_CHARS = frozenset("0123456789+-.eEtruefalsn")
_SCALAR = regex.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_HEX = frozenset("0123456789abcdefABCDEF")
_SURROGATE = regex.compile(r"[\ud800-\udfff]")
_REPLACEMENT = "\ufffd"
CONFIDENCE = 1.0  # of a well-formed envelope call, before what mending cost (as in free text)
_USAGE = f'A call must be {{"{NAME_KEY}": "<tool name>", "{ARGUMENTS_KEY}": {{...}}}}; nothing was called.'
# What an envelope accepts as a call: its own keys and their usual variants, arguments as a
# JSON string decoded exactly (the endpoint enforced the syntax: repairing would only guess).
ENVELOPE = Dialect(
    name_keys=(NAME_KEY, "name"),
    argument_keys=(ARGUMENTS_KEY, "arguments", "parameters"),
    nested=False,
    beside_name=False,
    exact_strings=True,
    not_an_object=_USAGE,
    no_name=_USAGE,
    write_again=lambda name: f'as {{"{NAME_KEY}": "{name}", "{ARGUMENTS_KEY}": {{...}}}}.',
)


class _Frame:
    __slots__ = ("array", "key", "role", "state")

    def __init__(self, array: bool, role: int) -> None:
        self.array = array
        self.role = role
        self.state = _ITEM_OR_END if array else _KEY_OR_END
        self.key = ""  # the current key, kept for the envelope's own object only


class _Outer:
    """What surrounds the envelope's own object, and what its keys said so far."""

    __slots__ = ("duplicate", "fence", "fence_tail", "give_up", "seen", "tail", "tentative", "waiting")

    def __init__(self) -> None:
        # The object began with another key: it is read as the envelope only once one of its
        # keys turns up; until then all of it is held, to be given back whole.
        self.tentative = False
        self.give_up = False  # a tentative envelope stopped being JSON
        self.seen: set[str] = set()  # the envelope's keys so far
        self.duplicate = False  # "calls" given twice: none of them runs
        self.fence = ""  # the fence run the envelope was written in, to drop its closer after it
        self.fence_tail: list[str] = []  # text after the envelope while its closing fence may come
        self.tail: StreamingToolCallParser | None = None  # free text after the closed envelope
        self.waiting: list[StreamEvent] = []  # calls, handed out once the envelope is settled


class _ReplyText:
    """The reply's text not yet handed out."""

    __slots__ = ("pending", "stand_in")

    def __init__(self) -> None:
        self.pending: list[str] = []  # ready to go out with the next events
        self.stand_in: list[str] | None = None  # a reply's start, held while it may be a stand-in


class EnvelopeParser:
    """Parse a constrained reply chunk by chunk; the same surface as ``StreamingToolCallParser``.

    The reply text streams out as ``StreamEvent(text=...)`` while its JSON string is decoded
    (escapes split across chunks included); each call is emitted once its object is complete,
    after the same validation as a free-text call. No JSON syntax ever reaches a text event.
    A reply that does not open as the envelope is handed to the free-text parser as a whole, as
    soon as that is certain (within the first key). A cut-off envelope never yields a partial
    call: it is reported as truncated. Never raises; linear in the input; the events add up to the
    same result whatever the chunking.

    ``required`` says that the request forced a tool: a cut-off envelope without any complete
    call then counts as a rejected attempt, so the model is asked again.
    """

    def __init__(
        self,
        tools: Iterable[ToolLike | ToolSpec] | None,
        *,
        threshold: float = DEFAULT_THRESHOLD,
        ignored_params: frozenset[str] = DEFAULT_IGNORED_PARAMS,
        required: bool = False,
    ) -> None:
        self._accept = Acceptor(normalize_tools(tools), threshold, ignored_params)
        self.required = required
        self._chunks = ChunkReader()
        self._mode = _UNDECIDED
        self._held: list[str] = []  # the reply so far while undecided
        self._fallback: StreamingToolCallParser | None = None  # a reply that is not the envelope
        self._stack: list[_Frame] = []
        # The string being read: None, or the role of its text (key, reply text, other).
        self._string: str | None = None
        self._escape = ""  # "" outside an escape; "\\" after a backslash; "\\u12" while reading hex
        self._high: int | None = None  # a high surrogate waiting for its low half
        self._scalar: list[str] | None = None
        self._capture: list[str] | None = None  # the raw JSON of the call being read
        self._capture_depth = 0
        self._calls_open = False  # inside the calls array (or a lone call object)
        self._texts: list[str] = []
        self._reply = _ReplyText()
        self._events: list[StreamEvent] = []
        self._calls: list[ToolCall] = []
        self._problems: list[Problem] = []
        self._outer = _Outer()

    # -- public surface ----------------------------------------------------------------------

    @property
    def tools(self) -> Mapping[str, ToolSpec]:
        return self._accept.tools

    def feed(self, chunk: str | bytes | None) -> list[StreamEvent]:
        """Events for ``chunk``: ``str``, UTF-8 ``bytes`` split anywhere, or None (nothing)."""
        text = chunk if type(chunk) is str and not self._chunks.decoding else self._chunks.text(chunk)
        try:
            return self._feed(text)
        except Exception as exc:  # noqa: BLE001 - a parser bug must not take the agent down
            return self._fail(exc)

    def close(self, finish_reason: str | None = None) -> list[StreamEvent]:
        tail = self._chunks.flush()
        try:
            events = self._feed(tail) if tail else []
            return events + self._close(finish_reason)
        except Exception as exc:  # noqa: BLE001
            return self._fail(exc)

    @property
    def in_call(self) -> bool:
        """Whether the reply so far ends inside a possible call (held back, not yet decided)."""
        if self._mode == _FALLBACK:
            return self._fallback is not None and self._fallback.in_call
        if self._mode == _UNDECIDED:
            return any(part.strip() for part in self._held)
        if self._mode == _DONE:
            return self._outer.tail is not None and self._outer.tail.in_call
        return self._mode == _ENVELOPE and (self._calls_open or self._outer.tentative)

    @property
    def result(self) -> ParseResult:
        """Everything so far; complete after :meth:`close`."""
        if self._mode == _FALLBACK and self._fallback is not None:
            fallback = self._fallback.result
            fallback.problems = self._problems + fallback.problems
            return fallback
        calls = list(self._calls)
        problems = list(self._problems)
        reasoning = ""
        if self._outer.tail is not None:
            tail = self._outer.tail.result
            calls += tail.tool_calls
            problems += tail.problems
            reasoning = tail.reasoning
        return ParseResult(content=tidy("".join(self._texts)), tool_calls=calls, problems=problems, reasoning=reasoning)

    # -- driving -----------------------------------------------------------------------------

    def _feed(self, text: str) -> list[StreamEvent]:
        fallback = self._fallback
        if self._mode == _FALLBACK and fallback is not None:
            return fallback.feed(text) if text else []
        if self._mode == _BROKEN or not text:
            return []
        self._events = []
        i = 0
        n = len(text)
        while i < n and self._mode in (_UNDECIDED, _ENVELOPE):
            if self._mode == _UNDECIDED:
                i = self._undecided(text, i)
                continue
            j = self._step(text, i)
            if self._outer.tentative:
                if self._outer.give_up:  # not JSON after all: the reply is free text, from its start
                    self._outer.give_up = self._outer.tentative = False
                    self._fall_back()
                    break
                self._held.append(text[i:j])
                if self._mode == _DONE:  # an object with none of the envelope's keys
                    self._outer.tentative = False
                    self._fall_back()
                    i = j
                    break
            i = j
        if i < n and self._mode == _DONE:
            self._after(text[i:])
        elif i < n and self._mode == _FALLBACK and self._fallback is not None:
            self._events += self._fallback.feed(text[i:])
        self._flush()
        return self._events

    def _close(self, finish_reason: str | None) -> list[StreamEvent]:
        self._events = []
        if self._mode == _UNDECIDED or (self._mode == _ENVELOPE and self._outer.tentative):
            self._outer.tentative = False
            self._fall_back()
        if self._mode == _FALLBACK and self._fallback is not None:
            self._events += self._fallback.close(finish_reason)
        elif self._mode == _DONE:
            self._after("", eof=True)
            if self._outer.tail is not None:
                self._emit_all(self._outer.tail.close(finish_reason))
        elif self._mode == _ENVELOPE:
            self._cut(finish_reason)
        self._settle_calls()
        self._flush()
        return self._events

    def _fail(self, exc: Exception) -> list[StreamEvent]:
        # Never expected. If it happens, nothing more is executed and no JSON reaches the text:
        # the rest of the reply is dropped, and the problem says so.
        problem = internal_error(exc, calls_released=True)
        self._mode = _BROKEN
        self._problems.append(problem)
        return [StreamEvent(problem=problem)]

    # -- deciding: envelope or free text -----------------------------------------------------

    def _undecided(self, text: str, i: int) -> int:
        """Read while the reply may still be the envelope: a byte order mark, prose and a fence
        opener may come first (a server that does not enforce the schema); the decision falls
        within the object's first key."""
        c = text[i]
        self._held.append(c)
        stack = self._stack
        if self._string is None:
            if not stack:
                if c == "{":
                    if not self._may_precede("".join(self._held[:-1])):
                        return self._fall_back(text, i + 1)
                    stack.append(_Frame(array=False, role=_ROLE_ENVELOPE))
                elif len(self._held) > PREAMBLE_LIMIT:
                    return self._fall_back(text, i + 1)
                return i + 1
            if c in _WS:
                return i + 1
            if c == '"':
                self._string = "key"
                return i + 1
            return self._fall_back(text, i + 1)
        frame = stack[0]
        if c == '"':
            self._string = None
            frame.state = _COLON
            self._mode = _ENVELOPE
            if frame.key in ENVELOPE_KEYS:
                self._commit()
            else:
                self._outer.tentative = True  # extra keys first: held until one of the envelope's comes
            return i + 1
        frame.key += c
        if c == "\\" or len(frame.key) > 200:
            return self._fall_back(text, i + 1)
        return i + 1

    def _may_precede(self, before: str) -> bool:
        """Whether what came before a "{" may precede the envelope: blanks, a byte order mark,
        a fence opener, plain prose that does not introduce what follows (a last line ending in
        a colon presents it: "for example:", "like this:")."""
        before = before.replace(_BOM, "")
        fence = _FENCE_OPENER.search(before)
        if fence is not None:
            before = before[: fence.start()]
        prose = before.strip()
        if prose.endswith((":", "：")) or LOOK_CLOSER.search(prose) is not None:
            return False  # presented, or holding what the free-text parser reads (reasoning, calls)
        self._outer.fence = fence.group(1) if fence is not None else ""
        return True

    def _commit(self) -> None:
        """The reply is the envelope: what was held before it is prose the model wrote."""
        held = "".join(self._held).replace(_BOM, "")
        self._held = []
        self._outer.tentative = False
        brace = held.find("{")
        before = held[:brace]
        fence = _FENCE_OPENER.search(before)
        prose = (before[: fence.start()] if fence is not None else before).strip()
        if prose:
            self._reply.pending.append(prose + "\n\n")

    def _fall_back(self, text: str = "", rest: int = 0) -> int:
        """Not the envelope: the whole reply goes through the free-text parser."""
        self._mode = _FALLBACK
        self._stack = []
        self._string = None
        self._scalar = None
        self._capture = None
        self._calls_open = False
        self._outer.fence = ""
        self._reply.stand_in = None
        self._fallback = self._free_text()
        held = "".join(self._held)
        self._held = []
        if held:
            self._events += self._fallback.feed(held)
        return rest

    # -- the envelope ------------------------------------------------------------------------

    def _step(self, text: str, i: int) -> int:
        """Consume one token (or one run of string characters) of the envelope from ``i``."""
        if self._string is not None:
            return self._string_run(text, i)
        if self._scalar is not None:
            return self._scalar_run(text, i, self._scalar)
        c = text[i]
        if c in _WS:
            end = run_end(_WS_RUN, text, i)
            self._keep(text[i:end])
            return end
        frame = self._stack[-1]
        state = frame.state
        if state in (_OBJ_VALUE, _ITEM, _ITEM_OR_END):
            if c == "]" and state == _ITEM_OR_END:
                self._keep(c)
                return self._pop(i + 1)
            return self._value(text, i, c, frame)
        if state in (_KEY_OR_END, _KEY):
            if c == '"':
                self._keep(c)
                frame.key = ""
                self._string = "key"
                return i + 1
            if c == "}" and state == _KEY_OR_END:
                self._keep(c)
                return self._pop(i + 1)
            return self._syntax(c)
        if state == _COLON:
            if c != ":":
                return self._syntax(c)
            self._keep(c)
            frame.state = _OBJ_VALUE
            return i + 1
        # _OBJ_NEXT or _ARR_NEXT
        if c == ",":
            self._keep(c)
            frame.state = _ITEM if frame.array else _KEY
            return i + 1
        if c == ("]" if frame.array else "}"):
            self._keep(c)
            return self._pop(i + 1)
        return self._syntax(c)

    def _value(self, text: str, i: int, c: str, frame: _Frame) -> int:
        """A value starts at ``text[i]``; what it is to the envelope depends on where it is."""
        role = _ROLE_OTHER
        top = frame.role == _ROLE_ENVELOPE
        if top and len(self._stack) == 1:
            self._envelope_key(frame.key)
        if top and frame.key == CALLS_KEY and not self._outer.duplicate:
            if c == "[":
                role = _ROLE_CALLS
                self._calls_open = True
            elif c == "{":
                self._start_capture()  # a lone call object instead of a list of them
            elif c != "n":  # null: no calls
                self._problem(
                    "malformed_call",
                    f'"{CALLS_KEY}" must be a list of calls, each {{"{NAME_KEY}": "<tool name>", '
                    f'"{ARGUMENTS_KEY}": {{...}}}}; nothing was called.',
                    rejected=True,
                )
        elif frame.role == _ROLE_CALLS and not self._outer.duplicate:
            self._start_capture()
        self._keep(c)
        if c == "{" or c == "[":
            self._stack.append(_Frame(array=c == "[", role=role))
            return i + 1
        if c == '"':
            self._string = "reply" if top and frame.key == REPLY_KEY else "other"
            if self._string == "reply":
                self._reply.stand_in = []
            return i + 1
        if c in _SCALAR_CHARS:
            self._scalar = [c]
            return i + 1
        return self._syntax(c)

    def _pop(self, i: int) -> int:
        frame = self._stack.pop()
        if frame.role == _ROLE_CALLS:
            self._calls_open = False
        return self._value_done(i)

    def _value_done(self, i: int) -> int:
        if self._capture is not None and len(self._stack) == self._capture_depth:
            raw = "".join(self._capture)
            self._capture = None
            if self._stack and self._stack[-1].role == _ROLE_ENVELOPE:
                self._calls_open = False
            self._finish_call(raw)
        if not self._stack:
            self._mode = _DONE
            return i
        frame = self._stack[-1]
        frame.state = _ARR_NEXT if frame.array else _OBJ_NEXT
        return i

    def _start_capture(self) -> None:
        self._capture = []
        self._capture_depth = len(self._stack)
        if self._stack[-1].role == _ROLE_ENVELOPE:
            self._calls_open = True

    def _keep(self, piece: str) -> None:
        if self._capture is not None:
            self._capture.append(piece)

    def _scalar_run(self, text: str, i: int, scalar: list[str]) -> int:
        n = len(text)
        start = i
        while i < n and text[i] in _SCALAR_CHARS:
            i += 1
        scalar.append(text[start:i])
        self._keep(text[start:i])
        if i == n:
            return i  # the number or literal may go on in the next chunk
        token = "".join(scalar)
        self._scalar = None
        if not _SCALAR.fullmatch(token):
            return self._syntax(token)
        return self._value_done(i)

    def _string_run(self, text: str, i: int) -> int:
        """A run of string content: plain characters and valid escapes at once, decoded by the
        json module; an escape cut by the chunk's end, or an invalid one, goes one character at a
        time through :meth:`_escape_char`."""
        if self._escape or self._high is not None:
            return self._string_char(text, i)
        role = self._string
        n = len(text)
        end = run_end(_STRING_BODY, text, i)
        closed = end < n and text[end] == '"'
        stop = end
        if not closed and role != "other" and _ends_with_high_surrogate(text, i, end):
            stop = end - 6  # its low half may come in the next chunk
        if stop > i:
            run = text[i:stop]
            self._keep(run)
            if role != "other":
                self._out(json.loads('"' + run + '"', strict=False), role)
        if closed:
            self._keep('"')
            return self._close_string(stop + 1)
        if stop < n:
            return self._string_char(text, stop)
        return n

    def _string_char(self, text: str, i: int) -> int:
        """One step through a string the slow way: an escape character, or up to the next special one."""
        if self._escape:
            return self._escape_char(text, i)
        role = self._string
        c = text[i]
        if c == "\\":
            self._keep(c)
            self._escape = "\\"
            return i + 1
        if c == '"':
            self._keep(c)
            return self._close_string(i + 1)
        m = _STRING_SPECIAL.search(text, i)
        end = m.start() if m else len(text)
        self._keep(text[i:end])
        self._out(text[i:end], role)
        return end

    def _close_string(self, i: int) -> int:
        role = self._string
        self._string = None
        self._settle_surrogate(role)
        if role == "reply" and self._reply.stand_in is not None:
            if "".join(self._reply.stand_in).strip() in REPLY_STAND_INS:
                self._reply.stand_in = None  # copied from the instructions: no text
            else:
                self._release_stand_in()
        if role == "key":
            if not self._stack[-1].array:
                self._stack[-1].state = _COLON
            return i
        return self._value_done(i)

    def _escape_char(self, text: str, i: int) -> int:
        c = text[i]
        role = self._string
        self._keep(c)
        if self._escape == "\\":
            if c == "u":
                self._escape = "\\u"
                return i + 1
            self._escape = ""
            # Lenient: an unknown escape stands for the character itself.
            self._out(_ESCAPES.get(c, c), role)
            return i + 1
        if c not in _HEX:
            # A broken \u escape: mark it, and read this character afresh.
            self._escape = ""
            self._out(_REPLACEMENT, role)
            if self._capture is not None:
                self._capture.pop()
            return i
        self._escape += c
        if len(self._escape) < 6:
            return i + 1
        code = int(self._escape[2:], 16)
        self._escape = ""
        if role in ("reply", "key"):
            self._code_point(code, role)
        return i + 1

    def _code_point(self, code: int, role: str) -> None:
        if 0xD800 <= code <= 0xDBFF:
            self._settle_surrogate(role)
            self._high = code
        elif 0xDC00 <= code <= 0xDFFF:
            if self._high is None:
                self._out(_REPLACEMENT, role)
            else:
                pair = 0x10000 + ((self._high - 0xD800) << 10) + (code - 0xDC00)
                self._high = None
                self._out(chr(pair), role)
        else:
            self._out(chr(code), role)

    def _settle_surrogate(self, role: str | None) -> None:
        if self._high is not None:
            self._high = None
            self._out_plain(_REPLACEMENT, role)

    def _out(self, piece: str, role: str | None) -> None:
        if role == "other" or not piece:
            return
        self._settle_surrogate(role)
        self._out_plain(piece, role)

    def _out_plain(self, piece: str, role: str | None) -> None:
        if role == "reply":
            if _SURROGATE.search(piece):  # written raw into the reply: no UTF-8 store accepts them
                piece = _SURROGATE.sub(_REPLACEMENT, piece)
            held = self._reply.stand_in
            if held is None:
                self._reply.pending.append(piece)
                return
            held.append(piece)
            so_far = "".join(held)
            if len(so_far) > _STAND_IN_HOLD or not any(s.startswith(so_far.strip()) for s in REPLY_STAND_INS):
                self._release_stand_in()
        elif role == "key":
            self._stack[-1].key += piece

    def _release_stand_in(self) -> None:
        """The reply's start is not a stand-in (or the reply ended inside it): it is text."""
        if self._reply.stand_in is not None:
            self._reply.pending += self._reply.stand_in
            self._reply.stand_in = None

    def _syntax(self, found: str) -> int:
        """The reply stopped being JSON: nothing after this point is used."""
        if self._outer.tentative:
            self._outer.give_up = True
            return 1 << 62
        self._mode = _BROKEN
        where = "while writing a call" if self._calls_open else "in its JSON"
        shown = found if len(found) <= 20 else found[:17] + "..."
        self._problem(
            "invalid_json",
            f"The reply broke off {where} at {json.dumps(shown)}; the rest of it was not used.",
            rejected=self._calls_open,
            excerpt="".join(self._capture or ()),
        )
        return 1 << 62  # past the end of any chunk

    def _after(self, text: str, *, eof: bool = False) -> None:
        """Whatever follows the closed envelope: whitespace, the fence it was written in, or
        free text (an unconstrained server), read in the context of the envelope's reply."""
        self._settle_calls()
        if self._outer.fence:
            self._outer.fence_tail.append(text)
            held = "".join(self._outer.fence_tail).lstrip(_WS)
            run = held[: len(self._outer.fence)]
            if not eof and len(held) < len(self._outer.fence) and self._outer.fence.startswith(held):
                return  # the closing fence may be coming
            if run == self._outer.fence:
                nl = held.find("\n")
                if nl < 0 and not eof:
                    return
                held = held[len(run) :].lstrip("`~ \t\r") if nl < 0 else held[nl + 1 :]
            self._outer.fence = ""
            self._outer.fence_tail = []
            text = held
        if self._outer.tail is None:
            text = text.lstrip(_WS)
            if not text:
                return
            self._outer.tail = self._free_text(before="".join(self._texts) + "".join(self._reply.pending))
            self._reply.pending.append("\n\n")
        self._flush()
        self._emit_all(self._outer.tail.feed(text))

    def _cut(self, finish_reason: str | None) -> None:
        """The reply ended inside the envelope."""
        self._settle_surrogate(self._string)
        self._release_stand_in()
        why = cut_why(finish_reason)
        if self._calls_open:
            self._problem(
                "truncated",
                f"The call was cut off before its JSON was complete{why}, so nothing was called. "
                "Write the whole call again; keep long texts shorter if needed.",
                rejected=True,
                excerpt="".join(self._capture or ()),
            )
        else:
            self._problem(
                "truncated",
                f"The reply was cut off before it was complete{why}.",
                rejected=self.required and not self._calls,
            )
        self._mode = _BROKEN

    # -- calls -------------------------------------------------------------------------------

    def _finish_call(self, raw: str) -> None:
        # Raw control characters are accepted (llama.cpp's grammars let a raw newline into
        # strings); numbers too long to take as written and keys given twice are not.
        decoded = decode_exact(raw)
        if not isinstance(decoded, Decoded):
            self._problem(
                "invalid_json",
                decoded or "The call's JSON could not be read, so nothing was called. Write valid JSON.",
                rejected=True,
                excerpt=raw,
            )
            return
        value = clean_surrogates(decoded.value) if may_hold_surrogates(raw) else decoded.value
        read = self._accept.read(value, ENVELOPE)
        if isinstance(read, str):
            self._problem("malformed_call", read, rejected=True, excerpt=raw)
            return
        for event in self._accept.accept(read, fmt="envelope", base=CONFIDENCE, dialect=ENVELOPE, raw=raw):
            if event.call is not None:
                self._calls.append(event.call)
                self._outer.waiting.append(event)  # runs once the envelope is known whole
                continue
            if event.problem is not None:
                self._problems.append(event.problem)
            self._flush()
            self._events.append(event)

    def _envelope_key(self, key: str) -> None:
        """A key of the envelope's own object was read (its value starts now)."""
        if key in self._outer.seen and key == CALLS_KEY and not self._outer.duplicate:
            self._outer.duplicate = True
            dropped = len(self._calls)
            self._calls = []
            self._outer.waiting = []
            self._problem(
                "malformed_call",
                f'The reply gave "{CALLS_KEY}" twice, so none of its calls was run ({dropped} read before the '
                f'second). Give all calls in one "{CALLS_KEY}" list.',
                rejected=True,
            )
        self._outer.seen.add(key)
        if self._outer.tentative and key in ENVELOPE_KEYS:
            self._commit()

    def _settle_calls(self) -> None:
        """Hand out the calls read so far: the envelope closed, or the reply ended."""
        if self._outer.waiting:
            self._flush()
            self._events += self._outer.waiting
            self._outer.waiting = []

    def _free_text(self, before: str = "") -> StreamingToolCallParser:
        """A parser for a reply, or the part of one, that is not the envelope (``before``: the
        reply's text so far, which that part is read after)."""
        a = self._accept
        return StreamingToolCallParser(
            a.tools.values(), threshold=a.threshold, ignored_params=a.ignored_params, before=before
        )

    # -- events ------------------------------------------------------------------------------

    def _problem(
        self, kind: Any, message: str, *, rejected: bool = False, tool: str | None = None, excerpt: str = ""
    ) -> None:
        problem = Problem(kind, message, rejected=rejected, tool_name=tool, excerpt=cut_excerpt(excerpt))
        self._problems.append(problem)
        self._flush()
        self._events.append(StreamEvent(problem=problem))

    def _flush(self) -> None:
        if self._reply.pending:
            text = "".join(self._reply.pending)
            self._reply.pending = []
            self._texts.append(text)
            self._events.append(StreamEvent(text=text))

    def _emit_all(self, events: list[StreamEvent]) -> None:
        for event in events:
            if event.text:
                self._texts.append(event.text)
            self._events.append(event)


def _ends_with_high_surrogate(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` ends with an escape of a high surrogate (not an escaped backslash + u)."""
    if end - start < 6 or not _HIGH_ESCAPE.fullmatch(text, end - 6, end):
        return False
    slashes = 0
    k = end - 6
    while k >= start and text[k] == "\\":
        slashes += 1
        k -= 1
    return slashes % 2 == 1
