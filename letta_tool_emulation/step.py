"""The values an emulated step hands from stage to stage, all in one place.

A step starts as a :class:`Decision` (whether and how a request is emulated) and an
:class:`EmulatedRequest` (the body for the endpoint, carrying its :class:`Step`), runs as one
or more :class:`Attempt` objects (one per model request; a re-ask is another attempt) and ends
as an :class:`Outcome`, which a driver turns into what its caller reads. :class:`Pending`
holds what one reply leaves for later steps.

With ``engine.py`` this is the turn engine: nothing here does I/O, reads the environment (but
:meth:`Settings.from_env`, which callers use) or imports letta, an HTTP client or anything
that loads ``threading`` (``logging`` does): what the engine has to say goes to the caller's
:class:`Log`. The names of Letta's injected parameters are plain strings.
"""

from __future__ import annotations

import json
import math
import os
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .core import ParseResult, StreamEvent, ToolSpec
from .core.calls import DEFAULT_THRESHOLD
from .core.prompt import forced_tool_name
from .server_dialect import ServerKind, schema_rejected
from .venice_dialect import ModelInfo

INNER_THOUGHTS = "thinking"  # letta.local_llm.constants.INNER_THOUGHTS_KWARG
HEARTBEAT = "request_heartbeat"  # letta.constants.REQUEST_HEARTBEAT_PARAM
REPLY_TOOL = "send_message"  # memgpt-style agents answer the user through this tool
INJECTED_PARAMS = (INNER_THOUGHTS, HEARTBEAT)
TOOL_CALL_ID_LEN = 29  # letta.constants.TOOL_CALL_ID_MAX_LEN

ToolCallDict = dict[str, Any]  # OpenAI's {"id", "type": "function", "function": {"name", "arguments"}}


def new_call_id() -> str:
    return ("call_" + uuid.uuid4().hex)[:TOOL_CALL_ID_LEN]


class Log(Protocol):
    """Where the engine says what it did: a ``logging.Logger`` does (the engine imports no
    ``logging`` itself, which would load ``threading``)."""

    def warning(self, msg: str, /, *args: object) -> None: ...
    def info(self, msg: str, /, *args: object) -> None: ...
    def debug(self, msg: str, /, *args: object) -> None: ...


class _Silent:
    def warning(self, msg: str, /, *args: object) -> None:
        pass

    def info(self, msg: str, /, *args: object) -> None:
        pass

    def debug(self, msg: str, /, *args: object) -> None:
        pass


SILENT: Log = _Silent()


@dataclass(frozen=True, slots=True)
class Decision:
    """Whether and how one request is emulated (``selection.decide`` makes it for Letta)."""

    emulate: bool
    reason: str
    # The endpoint speaks Venice's dialect (venice_parameters, its error shapes).
    venice_dialect: bool = False
    model: ModelInfo | None = None
    # Prompts and replies must not reach the logs (end-to-end encrypted models).
    private: bool = False
    # Sent end-to-end encrypted to an attested enclave (implies emulate and private).
    e2ee: bool = False
    # Replies constrained to the envelope schema, sent in this server kind's request shape
    # (see server_dialect.schema_request_fields); None: free text.
    schema_shape: ServerKind | None = None
    # A free-text reply's call blocks held to a grammar of the offered tools, sent in this server
    # kind's request fields (see server_dialect.grammar_request_fields); None: nothing added.
    grammar_kind: ServerKind | None = None
    # The model's chat template opens reasoning before each reply (an earlier reply closed it
    # with a lone </think>): a reply is read as reasoning until its </think>.
    in_reasoning: bool = False
    # ``letta-tool-emulation calibrate`` measured this model better held to one call per reply
    # (a small model repeats its call under an envelope that allows several): the reply schema or
    # call grammar allows one, and only the first call of a reply runs.
    one_call: bool = False


def env_switch(name: str, default: str = "on") -> bool:
    """Whether the on/off setting ``name`` is on: anything but 0, off, false or no."""
    return os.environ.get(name, default).strip().lower() not in ("0", "off", "false", "no")


def _env_number(log: Log, name: str, default: float, kind: type = int) -> Any:
    try:
        return kind(os.environ.get(name, default))
    except ValueError:
        log.warning("letta_tool_emulation: %s is not a number; using %s", name, default)
        return kind(default)


def _env_choice(log: Log, name: str, choices: tuple[str, ...]) -> str:
    """One of ``choices`` (the first unless set); ``log`` hears about any other value."""
    value = os.environ.get(name, choices[0]).strip().lower()
    if value in choices:
        return value
    log.warning("letta_tool_emulation: %s is not one of %s; using %s", name, ", ".join(choices), choices[0])
    return choices[0]


@dataclass(frozen=True, slots=True)
class Settings:
    """The user's settings for emulated steps. The engine never reads the environment: a caller
    passes ``Settings.from_env()`` (read per request), or its own."""

    max_reasks: int = 2
    threshold: float = DEFAULT_THRESHOLD
    # One reply may hold more calls than any agent needs; the rest are reported back.
    max_calls_per_reply: int = 16
    # The output limit where the model's own is unknown (a rambling model must end its reply).
    max_output_tokens: int = 2048
    # The replace tools are offered the memory blocks' lines for their old text, and a
    # constrained reply's insert line is held to the block's length.
    offer_lines: bool = True
    # The memory section of the system message is shown as this turn's edits left it, and an
    # edit the turn already made is not made again.
    memory_as_edited: bool = True
    # What each memory block holds, from the blocks' own descriptions, just before the tools.
    # Off: on SmolLM2-135M it moved memory calls towards the right block but cut the turns with
    # a call, and the block a fact belongs to changed no more often (see the README).
    describe_blocks: bool = False
    # What the constrained prompt's example memory edit writes (see engine.EXAMPLES): "fact", a
    # made-up fact; "placeholder", a text that says what goes there; "pair", a made-up fact shown
    # as the answer to the user's first-person words; "quote", those words kept as the user's.
    # "quote": on SmolLM2-135M through Letta the user's fact reached the user's block in about
    # twice as many turns as with the made-up fact, which it copied or bent to the fact's verb;
    # with the placeholder it changed the human block more often, but mostly with the persona's
    # line; with the pair, the fact was bent to the example's verb ("The user loves coffee." for
    # "I hate coffee"; see the README).
    example: str = "quote"
    # The user's block first in the memory tools' label list (the prompt's and the reply schema's
    # enum), not the system message's order, which puts the persona first. Off: on SmolLM2-135M
    # the order changed nothing measurable (see the README).
    user_block_first: bool = False

    @classmethod
    def from_env(cls, log: Log = SILENT) -> Settings:
        """The settings in the environment (``LETTA_TOOL_EMULATION_*``); ``log`` hears about a
        value that is not a number, which is then left at its default."""
        return cls(
            max_reasks=max(0, _env_number(log, "LETTA_TOOL_EMULATION_MAX_RETRIES", 2)),
            threshold=_env_number(log, "LETTA_TOOL_EMULATION_THRESHOLD", DEFAULT_THRESHOLD, float),
            max_calls_per_reply=max(1, _env_number(log, "LETTA_TOOL_EMULATION_MAX_CALLS", 16)),
            max_output_tokens=max(16, _env_number(log, "LETTA_TOOL_EMULATION_MAX_OUTPUT_TOKENS", 2048)),
            offer_lines=env_switch("LETTA_TOOL_EMULATION_OFFER_LINES"),
            memory_as_edited=env_switch("LETTA_TOOL_EMULATION_MEMORY_AS_EDITED"),
            describe_blocks=env_switch("LETTA_TOOL_EMULATION_DESCRIBE_BLOCKS", "off"),
            example=_env_choice(log, "LETTA_TOOL_EMULATION_EXAMPLE", ("quote", "fact", "placeholder", "pair")),
            user_block_first=env_switch("LETTA_TOOL_EMULATION_USER_BLOCK_FIRST", "off"),
        )


class Reader(Protocol):
    """What turns a reply's text into calls: the free-text parser (or any parser with its surface)."""

    def feed(self, chunk: str | bytes) -> list[StreamEvent]: ...
    def close(self, finish_reason: str | None = None) -> list[StreamEvent]: ...
    @property
    def in_call(self) -> bool: ...
    @property
    def result(self) -> ParseResult: ...


@dataclass(frozen=True, slots=True)
class Step:
    """What building the request decided about one emulated step."""

    decision: Decision
    tools: Mapping[str, ToolSpec]  # as shown to the model: Letta's injected parameters removed
    inner_thoughts: frozenset[str] = frozenset()  # tools whose schema has Letta's `thinking`
    heartbeat: frozenset[str] = frozenset()  # tools whose schema has `request_heartbeat`
    tool_choice: Any = None
    parallel: bool = False  # Letta runs several calls of one reply itself
    # With `parallel`: the tools the caller (Letta) runs concurrently ahead of the others, and
    # those it runs one after another in order (see `in_order`); any other tool is of unknown
    # kind. None: the caller runs every call of a reply in the order given (an OpenAI client).
    concurrent: frozenset[str] | None = None
    sequential: frozenset[str] | None = None
    queued: ToolCallDict | None = None  # a call from an earlier reply to hand out now, without a model request
    # The memory edits this turn already made (see engine._edit_key): not made again.
    edits_made: frozenset[str] = frozenset()
    # The fact of the constrained prompt's example memory edit, where the user never spoke of its
    # subject: a memory edit that writes it is a copy of the example, not the user's fact.
    example_fact: str | None = None
    # The writable blocks' values as the request shows them (this turn's edits made), by label.
    block_values: Mapping[str, str] = field(default_factory=dict)
    example_said: str | None = None  # with it, the user's words of a worked-pair example (engine.EXAMPLE_SAID)
    settings: Settings = field(default_factory=Settings)
    output_limit: int | None = None  # max_completion_tokens of the request
    schema_shape: ServerKind | None = None  # the request shape of the reply schema; None: free text
    grammar_kind: ServerKind | None = None  # free text whose call blocks the request holds to a grammar
    endpoint: str | None = None  # the model endpoint's URL (what a refused schema is remembered for)
    log: Log = field(default=SILENT, compare=False, repr=False)  # where the engine says what it did

    @property
    def required(self) -> bool:
        return self.tool_choice in ("required", "any") or forced_tool_name(self.tool_choice) is not None


def in_order(names: list[str], concurrent: frozenset[str], sequential: frozenset[str]) -> int:
    """How many of these calls, from the first, Letta's parallel tool execution runs in the
    order written. It runs the calls to concurrent tools first (all at once), then the others
    one by one in order; so the order holds for concurrent calls followed by sequential ones,
    with calls to one tool of unknown kind between them: that tool is safe as either kind there,
    and its calls share its kind (a tool is concurrent or not as a whole), so they either run
    together, as a native model's would, or one by one in order."""
    count, stage, unknown = 0, 0, ""  # stage 0: concurrent calls so far; 1: the unknown tool's; 2: sequential
    for name in names:
        if name in concurrent and stage == 0:
            pass
        elif name in sequential:
            stage = 2
        elif name not in concurrent and (stage == 0 or (stage == 1 and name == unknown)):
            stage, unknown = 1, name
        else:
            break
        count += 1
    return count


class EmulatedRequest(dict[str, Any]):
    """The request body for the endpoint (a plain dict to everything that reads it, Letta's
    provider traces included) carrying the :class:`Step` it was built for."""

    step: Step
    fallback: dict[str, Any] | None  # the same request in free text, for an endpoint that refuses the schema

    def __init__(self, body: Mapping[str, Any], step: Step, fallback: dict[str, Any] | None = None) -> None:
        super().__init__(body)
        self.step = step
        self.fallback = fallback


def approx_tokens(text: str) -> int:
    """Letta's own estimate for OpenAI-compatible endpoints: UTF-8 bytes / 4."""
    return math.ceil(len(text.encode("utf-8", "replace")) / 4) if text else 0


def prompt_tokens(messages: Sequence[Mapping[str, Any]]) -> int:
    return sum(approx_tokens(str(m.get("content") or "")) + 4 for m in messages)


def _count(obj: Any, key: str) -> int:
    value = obj.get(key) if isinstance(obj, Mapping) else getattr(obj, key, None)
    return value if isinstance(value, int) and value > 0 else 0


@dataclass(slots=True)
class Usage:
    """Token usage over all attempts of a step; estimated where the endpoint reports none
    (Letta's compaction is driven by it, so it is never 0)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False

    def add(self, reported: Any, request_messages: Sequence[Mapping[str, Any]], reply: str) -> None:
        p, c = _count(reported, "prompt_tokens"), _count(reported, "completion_tokens")
        if not p:
            p, self.estimated = prompt_tokens(request_messages), True
        if not c:
            c, self.estimated = approx_tokens(reply), True
        self.prompt_tokens += p
        self.completion_tokens += c

    def as_dict(self) -> dict[str, int]:
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.prompt_tokens + self.completion_tokens,
        }


class SchemaRefused(Exception):
    """Thrown into ``engine.run`` when the endpoint refused the reply schema: the step goes on
    in free text. :meth:`Attempt.refused` says when an error answer is one."""

    def __init__(self, status: int) -> None:
        super().__init__(f"the endpoint refused the reply schema (HTTP {status})")
        self.status = status


class StreamBroken(Exception):
    """The engine's verdict on a reply stream that stopped before the model finished: nothing
    from it runs. ``cause``: what the stream raised, or None when it ended without saying how
    the reply finished; ``in_call``: it stopped while the model was writing a tool call."""

    def __init__(self, cause: BaseException | None, *, in_call: bool) -> None:
        super().__init__(f"the reply stream broke off ({type(cause).__name__ if cause else NO_FINISH_REASON})")
        self.cause = cause
        self.in_call = in_call


NO_FINISH_REASON = "the stream ended without a finish reason"


class Attempt:
    """One model request of a step. The driver sends :attr:`body` and reports what comes back:

    - a whole reply: :meth:`reasoning`, :meth:`content`, then :meth:`end`;
    - a streamed reply: :meth:`streamed` for each piece, then :meth:`stream_ended` when the
      stream ends, or :meth:`stream_failed` when it raises;
    - an error answer instead of a reply: :meth:`refused`.

    The events these return are what a streaming caller may show at once."""

    def __init__(self, number: int, body: dict[str, Any], reader: Reader | None, constrained: bool = False) -> None:
        self.number = number
        self.body = body
        self.reader = reader  # None: no tools were offered, the reply is plain text
        self.constrained = constrained  # the request carries the reply schema, or a grammar
        self._text: list[str] = []
        self._reasoning: list[str] = []
        self.finish_reason: str | None = None
        self.reported_usage: Any = None
        self.ended = False
        # What a stream has brought so far (see streamed).
        self.started = False
        self._stream_finish: str | None = None
        self._stream_usage: Any = None

    @property
    def messages(self) -> list[dict[str, Any]]:
        return self.body["messages"]

    @property
    def text(self) -> str:
        return "".join(self._text)

    @property
    def upstream_reasoning(self) -> str:
        return "".join(self._reasoning)

    @property
    def in_call(self) -> bool:
        return self.reader is not None and self.reader.in_call

    def content(self, text: str | None) -> list[StreamEvent]:
        if not text:
            return []
        self._text.append(text)
        return self.reader.feed(text) if self.reader is not None else [StreamEvent(text=text)]

    def reasoning(self, text: str | None) -> None:
        if text:
            self._reasoning.append(text)

    def end(self, finish_reason: str | None, usage: Any = None) -> list[StreamEvent]:
        self.finish_reason, self.reported_usage, self.ended = finish_reason, usage, True
        return self.reader.close(finish_reason) if self.reader is not None else []

    def result(self) -> ParseResult:
        return self.reader.result if self.reader is not None else ParseResult(content=self.text)

    # -- the endpoint's answer, as the driver saw it -----------------------------------------

    def refused(self, status: int, said: str) -> SchemaRefused | None:
        """The endpoint answered this attempt with HTTP ``status``, saying ``said`` (its message
        and body): :class:`SchemaRefused` when it refused the reply schema (throw it into the
        flow, which asks again in free text), None when the error is not the schema's (it ends
        the step: the driver raises its own error)."""
        if self.constrained and schema_rejected(status, said):
            return SchemaRefused(status)
        return None

    def streamed(
        self,
        content: str | None = None,
        reasoning: str | None = None,
        finish_reason: str | None = None,
        usage: Any = None,
    ) -> list[StreamEvent]:
        """One piece of a streamed reply, exactly as it came (any part may be empty). Returns
        what may be shown now: the endpoint's reasoning first, then what the parser is sure of."""
        self.started = True
        if usage is not None:
            self._stream_usage = usage
        if finish_reason:
            self._stream_finish = finish_reason
        self.reasoning(reasoning)
        events = [StreamEvent(reasoning=reasoning)] if reasoning else []
        return events + self.content(content)

    def stream_ended(self) -> list[StreamEvent]:
        """The stream ended without an error. A reply that never said how it finished did not
        end but broke off: :class:`StreamBroken` is raised, with no cause."""
        if self._stream_finish is None:
            raise StreamBroken(None, in_call=self.in_call)
        return self.end(self._stream_finish, self._stream_usage)

    def stream_failed(self, error: BaseException, *, conclusive: bool = False) -> BaseException:
        """What a stream that raised ``error`` means for the step, for the driver to raise.
        The error itself when nothing had arrived yet (the endpoint's own answer) or when it is
        ``conclusive``, an error that says best what happened (what end-to-end encryption's
        checks found, or for a driver that reports timeouts as such, a timeout); otherwise
        :class:`StreamBroken`: the reply broke off, and nothing from it runs."""
        if not self.started or conclusive:
            return error
        return StreamBroken(error, in_call=self.in_call)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The settled step: what Letta gets."""

    calls: list[ToolCallDict]  # to execute now, in order
    content: str  # the answer, or the text next to the calls
    reasoning: str  # what Letta stores as the step's reasoning
    usage: Usage
    attempts: int  # model requests made (0: a queued call was handed out)
    finish_reason: str = "stop"
    queue: list[ToolCallDict] = field(default_factory=list)  # further calls, one per later step
    feedback: str = ""  # about rejected calls, for the model's next request
    gave_up: bool = False  # no usable call after the last re-ask: `content` explains that
    # The endpoint refused the reply schema with this HTTP status, and the step went on in free
    # text: the caller remembers it for the model (endpoints.KNOWN), so later steps ask in free text.
    refused_schema_status: int | None = None
    # What the reply showed of the model's chat template (``ParseResult.template_reasoning``):
    # True, it opens reasoning before each reply; False, a reply expected to begin in reasoning
    # never closed it; None, nothing. The caller remembers it for the model (endpoints.KNOWN).
    template_reasoning: bool | None = None
    # The reply was read again as ordinary text (``template_reasoning`` False): a streaming
    # caller has already sent its text as reasoning, and does not send it again as content.
    reread: bool = False


@dataclass(slots=True)
class Pending:
    """What one emulated reply leaves for later steps of the same agent loop: its further
    calls (handed out one per step, without asking the model again) and feedback about its
    rejected calls (added to the model's next request). A plain holder: the engine decides
    what goes in and comes out (``engine.prepare`` and ``engine.keep``).

    Lifetime: Letta builds one LLM client per agent loop, which runs inside one API request,
    so this object lives on that client and dies with it; nothing here is needed by another
    request or another worker process. Bounded by :attr:`Settings.max_calls_per_reply`.
    """

    queue: list[ToolCallDict] = field(default_factory=list)
    after: str | None = None  # the call whose result must come before the next one
    feedback: str = ""


def call_arguments(call: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of an OpenAI tool call as a dict ({} when unreadable)."""
    raw_fn = call.get("function")
    fn: Mapping[str, Any] = raw_fn if isinstance(raw_fn, Mapping) else {}
    try:
        args = json.loads(fn.get("arguments") or "{}")
    except ValueError:
        return {}
    return args if isinstance(args, dict) else {}
