"""The turn engine: one emulated step, from the request a framework built for a model with
native tools to the tool calls it gets back. A pure function of its inputs: no I/O, no
environment, no process-wide state, no letta; with ``step.py`` (its values) it imports nothing
that does I/O or loads ``threading``, and what it has to say goes to the caller's ``log``.

:func:`prepare` turns an OpenAI chat request (with ``tools``) into a text-only request and
the :class:`~.step.Step` it was built for. :func:`run` is a generator in the manner of
httpx's auth flows: it yields an :class:`~.step.Attempt` for each model request (a re-ask is
another one), the driver performs it and resumes the generator, and the generator returns
the :class:`~.step.Outcome`. Every decision of an emulated step is made here:

- the tool prompt and the history rendered as text, pending feedback added;
- a queued call from the previous reply handed out without a model request, or dropped when
  the conversation moved on;
- the reply parsed, rejected calls re-asked (up to ``max_reasks``), the rest queued;
- an error answer read as a refused reply schema (the step goes on in free text) or not;
- a stream read as complete, or as broken off (mid-call or not), from what the driver saw;
- text next to a call handed on as a native model's would be (see :func:`_outcome`);
- usage estimated where the endpoint reports none.

What a driver does (``adapter/drivers.py`` has three):

1. ``request = prepare(data, decision=..., settings=Settings.from_env(log), ...)``: the caller
   reads the environment and passes what it found (``settings``, ``venice_parameters``), its
   ``pending`` state if it keeps one, and a ``log`` (a ``logging.Logger``). ``request`` is the
   body to send, a plain dict.
2. ``flow = run(request)``; ``attempt = next(flow)``; then, until ``StopIteration`` (whose
   ``value`` is the :class:`~.step.Outcome`), for each attempt:

   - send ``attempt.body`` (never ``request``: a re-ask or the free-text fallback differs);
   - if the endpoint answers with an error status instead of a reply:
     ``refusal = attempt.refused(status, said)``; when it is None raise the error (the step
     ends), else ``attempt = flow.throw(refusal)`` and go on with that attempt;
   - a whole reply: ``attempt.reasoning(r)``, ``attempt.content(text)``,
     ``attempt.end(finish_reason, usage)``;
   - a streamed reply: ``attempt.streamed(content, reasoning, finish_reason, usage)`` for each
     piece (show the events it returns), then ``attempt.stream_ended()`` (show its events; it
     raises :class:`~.step.StreamBroken` when the reply never said how it finished); if the
     stream raises ``exc``, raise ``attempt.stream_failed(exc, conclusive=...)``: ``exc``
     itself, or a :class:`~.step.StreamBroken` (nothing from the reply runs; ``in_call`` says
     whether it broke off inside a call), which the driver reports in its caller's terms.
     ``conclusive`` marks errors that say best what happened even mid-stream (what end-to-end
     encryption found, a timeout where the driver's clients expect one);
   - ``attempt = flow.send(None)``.

   Close the flow in a ``finally`` (``flow.close()``), whatever happened.
3. With the outcome: hand over ``calls``, ``content`` and ``reasoning``,
   ``finish_reason`` and ``usage``; call :func:`keep` if the caller keeps ``pending`` state;
   and call ``endpoints.remember(request, outcome, log)``, which records what the step found
   out about the model where ``selection`` reads it: a schema it refused
   (``outcome.refused_schema_status``), and a chat template that opens reasoning before its
   replies (``outcome.template_reasoning``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from .core import (
    ParseResult,
    Problem,
    StreamingToolCallParser,
    ToolSpec,
    parse_tool_calls,
    render_feedback,
    render_messages,
)
from .core.blocks import (
    LABELLED_TOOLS,
    NEW_TEXT,
    REPLACED_TEXT,
    as_edited,
    block_guide,
    bound_inserts,
    edits_made,
    hold_labels,
    memory_blocks,
    offer_lines,
    offered_lines,
    with_blocks_as_edited,
)
from .core.envelope import (
    CALLS_KEY,
    REPLY_KEY,
    USER_BLOCK,
    EnvelopeParser,
    envelope_instruction,
    envelope_schema,
    example_label,
    render_envelope_feedback,
)
from .core.feedback import render_empty_reply, render_notes, render_required_call
from .core.grammar import call_block_grammar
from .core.prompt import forced_tool_name
from .core.region import is_cut
from .core.schema import plain
from .core.structural_tag import call_structural_tag
from .core.transcript import content_text
from .server_dialect import STRUCTURAL_TAG_KINDS, grammar_request_fields, schema_request_fields, structural_tag_fields
from .step import (
    HEARTBEAT,
    INJECTED_PARAMS,
    INNER_THOUGHTS,
    REPLY_TOOL,
    SILENT,
    TOOL_CALL_ID_LEN,
    Attempt,
    Decision,
    EmulatedRequest,
    Log,
    Outcome,
    Pending,
    Reader,
    SchemaRefused,
    Settings,
    Step,
    StreamBroken,
    ToolCallDict,
    Usage,
    call_arguments,
    in_order,
    new_call_id,
    prompt_tokens,
)
from .venice_dialect import DEFAULT_VENICE_PARAMETERS, clean_request

__all__ = [
    "INVENTED_RESULT_STOP",
    "Attempt",
    "EmulatedRequest",
    "Outcome",
    "SchemaRefused",
    "StreamBroken",
    "keep",
    "output_limit",
    "prepare",
    "prompt_example",
    "reask_messages",
    "run",
    "strip_injected",
]

Message = Mapping[str, Any]
_SURROGATES = re.compile(r"[\ud800-\udfff]")


# -- the request ------------------------------------------------------------------------------


def prepare(
    data: Mapping[str, Any],
    *,
    decision: Decision,
    tools: Iterable[Mapping[str, Any]] = (),
    prose: Mapping[str, str] | None = None,
    pending: Pending | None = None,
    parallel: bool = False,
    single_call: bool = False,
    settings: Settings | None = None,
    context_window: int | None = None,
    endpoint: str | None = None,
    concurrent: frozenset[str] | None = None,
    sequential: frozenset[str] | None = None,
    venice_parameters: Mapping[str, Any] | None = None,
    log: Log | None = None,
) -> EmulatedRequest:
    """The text-only request for ``data``, an OpenAI chat request built for native tools.

    ``tools`` are used when ``data`` has none (the caller's flat tool list). ``prose`` maps
    an earlier call's id to the text the model wrote with it, which the caller's history may
    have dropped. ``pending`` supplies feedback and queued calls from the previous reply, and
    is updated: what this request carries leaves it. ``settings``: the user's settings (None:
    the defaults). With ``parallel`` the caller runs several calls of one reply in one step:
    ``concurrent`` and ``sequential`` say how it orders them (see :func:`step.in_order`);
    without them it runs them all in the order given. Without ``parallel`` they are handed out
    one per step, unless ``single_call`` (a caller that cannot hand them out), which limits a
    constrained reply to one call, as a ``settings.max_calls_per_reply`` of 1 and a
    ``decision.one_call`` do.
    ``venice_parameters``: what a request to an endpoint in Venice's dialect carries as such
    (None: :data:`~.venice_dialect.DEFAULT_VENICE_PARAMETERS`). ``endpoint``: the model endpoint's
    URL, which a refused schema is remembered for. ``log`` hears what the engine did, at this
    step and the steps of :func:`run` (None: nothing is said).
    """
    settings = settings or Settings()
    log = log or SILENT
    specs: dict[str, ToolSpec] = {}
    thoughts: set[str] = set()
    beats: set[str] = set()
    # The tools exactly as the framework would have sent them: Letta adds `thinking` (and
    # removes `request_heartbeat` for v1 agents) while building the request, not in `tools`.
    # Which parameters are required comes from the tools as given: letta < 0.16.4 makes every
    # parameter required in the request (OpenAI's strict form).
    given: dict[str, Mapping[str, Any]] = {
        t["name"]: t for t in tools if isinstance(t, Mapping) and isinstance(t.get("name"), str)
    }
    for tool in data.get("tools") or tools:
        if isinstance(tool, Mapping):
            spec, has_thoughts, has_heartbeat = strip_injected(tool, given)
            specs[spec.name] = spec
            if has_thoughts:
                thoughts.add(spec.name)
            if has_heartbeat:
                beats.add(spec.name)
    # The memory tools name only blocks the agent has (its system message lists them).
    messages = data.get("messages") or []
    first = messages[0] if messages and isinstance(messages[0], Mapping) else {}
    blocks = memory_blocks(first.get("content") if first.get("role") == "system" else None)
    labels = [b.label for b in blocks if not b.read_only]
    if settings.user_block_first:
        labels.sort(key=lambda label: label != USER_BLOCK)  # stable: the others keep their order
    specs = hold_labels(specs, labels)
    # Beside the tools, what each block is for: Letta states it only above, beside each value.
    guide = block_guide(blocks, specs) if settings.describe_blocks else ""
    # The replace tools are offered the blocks' lines for their old text: what the model is
    # shown (and a constrained reply's schema holds it to), never what the validator requires.
    # Lines as this turn's own edits left them: the system message shows the turn's start. A
    # constrained reply's insert line is held to the same blocks' lengths.
    edited = as_edited(blocks, messages) if blocks else []
    lines = offered_lines(edited) if settings.offer_lines else {}
    held_to = edited if settings.offer_lines else []
    if settings.memory_as_edited and blocks:
        # The model sees its memory as this turn's edits left it, not as the turn began: shown
        # the block without its own insert, a small model writes the insert again at each step.
        content = with_blocks_as_edited(first.get("content"), edited)
        if content is not first.get("content"):
            log.debug("memory section brought up to date with this turn's edits")
            data = {**data, "messages": [{**first, "content": content}, *messages[1:]]}
    made = frozenset(_edit_key(n, a) for n, a in edits_made(messages)) if settings.memory_as_edited else frozenset()
    tool_choice = data.get("tool_choice") if specs else None
    # A request without tools (Letta's summarizer) is not the agent's next step.
    queued = _hand_out(pending, data.get("messages") or [], log) if pending is not None and specs else None
    if queued is not None:
        # Handed out without a model request: nothing to render, and the feedback waits for
        # the model's next request.
        step = Step(decision=decision, tools=specs, inner_thoughts=frozenset(thoughts), heartbeat=frozenset(beats),
                    tool_choice=tool_choice, queued=queued, settings=settings, endpoint=endpoint, log=log)  # fmt: skip
        return EmulatedRequest({"model": data.get("model"), "messages": []}, step)
    # One call per reply where the caller takes one, where the user lets one run, or where
    # calibration found the model better so: a grammar or schema that allows more only lets the
    # model write calls that would not run.
    one_call = (single_call and not parallel) or settings.max_calls_per_reply == 1 or decision.one_call
    history = _history(data.get("messages") or [], prose or {}, thoughts, beats)
    feedback = _take_feedback(pending) if pending is not None and specs else ""
    rendered = _rendered(
        history, offer_lines(specs, lines, enum=False), tool_choice, feedback, constrained=False, guide=guide
    )
    if feedback and rendered[-1]["role"] != "user" and pending is not None:
        pending.feedback = feedback  # kept until a request that can carry it
    body = clean_request({**data, "messages": _sanitize(rendered)})
    _bound_output(body, decision, settings, context_window, specs)
    if decision.venice_dialect:
        body["venice_parameters"] = dict(DEFAULT_VENICE_PARAMETERS if venice_parameters is None else venice_parameters)
    shape = decision.schema_shape if specs else None
    free_text = body
    grammar_kind = decision.grammar_kind if specs and not shape and tool_choice != "none" else None
    required = tool_choice in ("required", "any") or forced_tool_name(tool_choice) is not None
    # What a grammar or a reply schema holds a call to: the blocks' lines and insert lines.
    held = bound_inserts(offer_lines(specs, lines, enum=True), held_to) if grammar_kind or shape else specs
    if grammar_kind:
        # Prose stays free; a call block, once begun, can only be a call the tools allow.
        if grammar_kind in STRUCTURAL_TAG_KINDS:
            tag = call_structural_tag(_forced(held, tool_choice))
            fields = structural_tag_fields(grammar_kind, tag) if tag else {}
        else:
            grammar = call_block_grammar(
                _forced(held, tool_choice),
                several=not one_call,
                required=required,
            )
            fields = grammar_request_fields(grammar_kind, grammar.grammar, grammar.trigger) if grammar else {}
        if fields:
            body = {**body, **fields}
        else:
            grammar_kind = None
    example_fact = example_said = None
    if shape:
        example = prompt_example(held, values=True, kind=settings.example)
        edit = example is not None and example["function"] in LABELLED_TOOLS
        # The user's words go with the memory edit that stores them, never with another tool's
        # call (a weather lookup "for" "I love jazz." teaches nothing but confusion).
        said = EXAMPLE_SAID.get(settings.example) if edit else None
        fact, subject = EXAMPLES.get(settings.example, EXAMPLES["fact"])
        if edit and not (subject and _spoken_of(messages, subject)):
            # Small models copy the example's fact word for word ("The user likes pizza." for "I
            # work as a nurse", into any block, by any memory tool): a fact the user never gave.
            # Where the user, the memory or a tool result speaks of its subject, it may be theirs.
            example_fact, example_said = fact, said
        schema = envelope_schema(_forced(held, tool_choice), required=required, single=one_call)
        body = {k: v for k, v in body.items() if k != "stop"}  # JSON replies: no stop sequences
        body["messages"] = _sanitize(
            _rendered(history, held, tool_choice, feedback, constrained=True, guide=guide, example=example, said=said)
        )
        body.update(schema_request_fields(shape, schema))
    step = Step(
        decision=decision,
        tools=specs,
        inner_thoughts=frozenset(thoughts),
        heartbeat=frozenset(beats),
        tool_choice=tool_choice,
        edits_made=made,
        example_fact=example_fact,
        example_said=example_said,
        block_values={b.label: b.value for b in edited if b.known and not b.read_only},
        parallel=parallel,
        concurrent=concurrent,
        sequential=sequential,
        settings=settings,
        output_limit=body.get("max_completion_tokens"),
        schema_shape=shape,
        grammar_kind=grammar_kind,
        endpoint=endpoint,
        log=log,
    )
    return EmulatedRequest(body, step, fallback=free_text if shape or grammar_kind else None)


def _rendered(
    history: list[dict[str, Any]],
    specs: Mapping[str, ToolSpec],
    tool_choice: Any,
    feedback: str,
    *,
    constrained: bool,
    guide: str = "",
    example: Mapping[str, Any] | None = None,
    said: str | None = None,
) -> list[dict[str, Any]]:
    """The messages for the model: the transcript as text, and what the tools are and how to
    call them, as call blocks in free text or as the reply envelope when replies are constrained
    (with ``example``, the call :func:`prompt_example` built for it, and ``said``, the user's
    words it answers).
    ``guide`` (what each memory block holds) comes just before that: after it, the prompt still
    ends on the tools (a 135M model that read the guide last answered without a call in most
    turns)."""
    first = history[0] if history else {}
    if guide and specs and first.get("role") == "system" and isinstance(first.get("content"), str):
        history = [{**first, "content": first["content"].rstrip() + "\n\n" + guide}, *history[1:]]
    if not constrained:
        rendered = render_messages(history, specs.values(), tool_choice=tool_choice, example=prompt_example(specs))
    else:
        rendered = render_messages(history, ())
        section = envelope_instruction(specs.values(), tool_choice=tool_choice, example=example, said=said)
        if rendered and rendered[0]["role"] == "system":
            rendered[0] = {"role": "system", "content": rendered[0]["content"].rstrip() + "\n\n" + section}
        else:
            rendered.insert(0, {"role": "system", "content": section})
    if feedback and rendered and rendered[-1]["role"] == "user":
        rendered[-1] = {"role": "user", "content": rendered[-1]["content"] + "\n\n" + feedback}
    return rendered


def _forced(specs: Mapping[str, ToolSpec], tool_choice: Any) -> list[ToolSpec]:
    """The tools a reply may call: only the forced one when Letta forces one."""
    name = forced_tool_name(tool_choice)
    return [specs[name]] if name is not None and name in specs else list(specs.values())


def _take_feedback(pending: Pending) -> str:
    feedback, pending.feedback = pending.feedback, ""
    return feedback


def _hand_out(pending: Pending, history: list[Mapping[str, Any]], log: Log) -> ToolCallDict | None:
    """The next queued call, handed out only while the history shows the previous one answered;
    if the conversation moved on (the turn was abandoned halfway, a user message came in), the
    queue is dropped with a warning."""
    if not pending.queue:
        return None
    expected = (pending.after or "")[:TOOL_CALL_ID_LEN]
    last_call = next((m for m in reversed(history) if m.get("role") == "assistant" and m.get("tool_calls")), None)
    answered = any(m.get("role") == "tool" and m.get("tool_call_id") == expected for m in history)
    if last_call is not None and answered and _call_id(last_call["tool_calls"][-1]) == expected:
        call = pending.queue.pop(0)
        pending.after = call["id"]
        return call
    log.warning(
        "letta_tool_emulation: %d further call(s) from the model's last reply were not run: the "
        "conversation moved on before their turn (%s).",
        len(pending.queue),
        ", ".join(c["function"]["name"] for c in pending.queue),
    )
    pending.queue.clear()
    return None


def _call_id(call: Mapping[str, Any]) -> str:
    return str(call.get("id", ""))[:TOOL_CALL_ID_LEN]


def keep(pending: Pending, request: EmulatedRequest, outcome: Outcome) -> None:
    """Remember in ``pending`` what ``outcome`` leaves for later steps of the agent loop: its
    further calls and its feedback. A request without tools (Letta's summarizer) is not the
    agent's step, so its outcome leaves nothing there; nor does a queued call's hand-out, after
    which the rest of the queue, and the feedback, still wait."""
    if not request.step.tools or request.step.queued is not None:
        return
    pending.queue = list(outcome.queue)
    # Several calls of one step end with the last one's result.
    pending.after = outcome.calls[-1]["id"] if outcome.calls else None
    pending.feedback = outcome.feedback


# Where an invented tool result would start: the model is done with its calls by then, and
# stopping there saves writing what would be thrown away. Only this exact line start, so
# that mentioning the marker in a sentence does not cut a reply.
INVENTED_RESULT_STOP = "\nTOOL_RESULT "
MAX_STOP_SEQUENCES = 4  # what OpenAI-compatible servers commonly accept


def output_limit(decision: Decision, settings: Settings, context_window: int | None, prompt: int, asked: Any) -> int:
    """The most the model may write: its own limit where known, else the settings' cap;
    never more than the context leaves after the prompt, nor more than the caller asked."""
    known = decision.model.max_completion_tokens if decision.model else None
    limit = known or settings.max_output_tokens
    if context_window:
        limit = min(limit, max(256, context_window - prompt - 64))
    if isinstance(asked, int) and not isinstance(asked, bool) and asked > 0:
        limit = min(limit, asked)
    return limit


def _bound_output(
    body: dict[str, Any], decision: Decision, settings: Settings, context_window: int | None, specs: Mapping[str, Any]
) -> None:
    """A rambling model ends its reply at a limit (finish_reason "length"), never at a timeout."""
    asked = body.get("max_completion_tokens", body.get("max_tokens"))
    limit = output_limit(decision, settings, context_window, prompt_tokens(body["messages"]), asked)
    body["max_completion_tokens"] = limit
    if "max_tokens" in body or not decision.venice_dialect:
        # Local servers know max_tokens; some ignore max_completion_tokens and would never stop.
        body["max_tokens"] = limit
    if specs and not decision.e2ee:
        stops = body.get("stop")
        stops = [stops] if isinstance(stops, str) else list(stops or [])
        if INVENTED_RESULT_STOP not in stops and len(stops) < MAX_STOP_SEQUENCES:
            body["stop"] = [*stops, INVENTED_RESULT_STOP]


def strip_injected(
    tool: Mapping[str, Any], given: Mapping[str, Mapping[str, Any]] | None = None
) -> tuple[ToolSpec, bool, bool]:
    """The tool as the model should see it, and whether Letta had added `thinking` /
    `request_heartbeat` (memgpt-style agents): the engine fills those in itself. ``given``:
    the tools as the caller gave them, by name, whose `required` lists are the true ones."""
    raw_fn = tool.get("function")
    fn: Mapping[str, Any] = raw_fn if isinstance(raw_fn, Mapping) else tool
    # Letta builds the request in-process: a Literal's values are still a tuple (see core/schema.py).
    params = dict(plain(fn.get("parameters")) or {})
    original = (given or {}).get(str(fn.get("name")))
    original_params = original.get("parameters") if isinstance(original, Mapping) else None
    if isinstance(original_params, Mapping) and isinstance(original_params.get("required"), list):
        injected = [r for r in params.get("required") or [] if r in INJECTED_PARAMS]
        params["required"] = [*original_params["required"], *injected]
    props = dict(params.get("properties") or {})
    has_thoughts, has_heartbeat = INNER_THOUGHTS in props, HEARTBEAT in props
    for name in INJECTED_PARAMS:
        props.pop(name, None)
    params["properties"] = props
    if isinstance(params.get("required"), list):
        params["required"] = [r for r in params["required"] if r not in INJECTED_PARAMS]
    spec = ToolSpec(name=str(fn.get("name")), description=str(fn.get("description") or ""), parameters=params)
    return spec, has_thoughts, has_heartbeat


# The texts of the constrained prompt's example memory edit, by ``Settings.example``, each with
# the word that shows a user spoke of it (None: no user would say it). A small model copies the
# example's fact word for word; a placeholder says what goes there instead of being one.
EXAMPLES: dict[str, tuple[str, str | None]] = {
    "fact": ("The user likes pizza.", "pizza"),
    "placeholder": ("<what the user said, as a sentence about the user>", None),
    "pair": ("The user loves jazz.", "jazz"),
    "quote": ("The user said: I love jazz.", "jazz"),
}
# What the user says in the example, by ``Settings.example``, where the example is a worked
# pair: the user's own first-person words, then the call that stores them in the third person
# in the user's block (SmolLM2-135M otherwise wrote first-person text in the persona's style).
# Writing these words down is a copy of the example too.
# "quote" stores the user's words as said: the model carried the pair's verb into other facts
# ("The user loves coffee." for "I hate coffee").
EXAMPLE_SAID: dict[str, str] = {"pair": "I love jazz.", "quote": "I love jazz."}
EXAMPLE_FACT, EXAMPLE_SUBJECT = EXAMPLES["fact"]


def prompt_example(specs: Mapping[str, ToolSpec], *, values: bool = False, kind: str = "fact") -> dict[str, Any] | None:
    """The call the prompt's example shows, when the agent has the usual memory tools.

    Free text gets the tool alone: the prompt fills in its own parameters as placeholders, so a
    model reciting its instructions runs nothing. ``values`` adds concrete arguments, under the
    agent's own parameter names (letta renamed them between versions): a constrained reply's
    example, where small models copy the shape best from real values; ``kind`` picks the text
    of its memory edit (``Settings.example``)."""
    text = EXAMPLES.get(kind, EXAMPLES["fact"])[0]
    for name, value in (("memory_insert", text), ("core_memory_append", text), (REPLY_TOOL, "Hi! How can I help?")):
        spec = specs.get(name)
        if spec is None:
            continue
        if not values:
            return {"function": name}
        if spec.required:
            return {
                "function": name,
                "params": {p: example_label(spec.properties.get(p)) if p == "label" else value for p in spec.required},
            }
    return None


def _history(
    history: list[Message], prose: Mapping[str, str], thoughts: set[str], beats: set[str]
) -> list[dict[str, Any]]:
    """The request's messages with earlier calls shown as the model wrote them: their prose
    put back, and the framework's own `thinking` and `request_heartbeat` arguments taken out
    (the model never wrote them; the `thinking` text is the prose already shown)."""
    out = []
    for m in history:
        d = dict(m)
        if d.get("role") == "assistant" and d.get("tool_calls"):
            calls = [_without_injected(tc, thoughts, beats) for tc in d["tool_calls"]]
            d["tool_calls"] = calls
            if not (d.get("content") or "").strip():
                text = prose.get(str(calls[0].get("id", ""))[:TOOL_CALL_ID_LEN])
                if text:
                    d["content"] = text
        out.append(
            {k: v for k, v in d.items() if not k.startswith("reasoning_content") and k != "redacted_reasoning_content"}
        )
    return out


def _without_injected(call: Mapping[str, Any], thoughts: set[str], beats: set[str]) -> Mapping[str, Any]:
    raw_fn = call.get("function")
    fn: Mapping[str, Any] = raw_fn if isinstance(raw_fn, Mapping) else {}
    name = fn.get("name")
    drop = ({INNER_THOUGHTS} if name in thoughts else set()) | ({HEARTBEAT} if name in beats else set())
    args = call_arguments(call) if drop else {}
    if not drop or not any(k in args for k in drop):
        return call
    cleaned = {k: v for k, v in args.items() if k not in drop}
    return {**call, "function": {**fn, "arguments": json.dumps(cleaned, ensure_ascii=False)}}


def _sanitize(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Lone surrogates cannot be encoded as UTF-8; the request would fail to serialise."""
    for m in messages:
        content = m.get("content")
        if isinstance(content, str) and _SURROGATES.search(content):
            m["content"] = _SURROGATES.sub("", content)
    return messages


# -- the step ---------------------------------------------------------------------------------


def run(request: EmulatedRequest) -> Generator[Attempt, None, Outcome]:
    """Yield each model request of the step; return its outcome. See the module docstring."""
    step = request.step
    if step.queued is not None:
        return Outcome(
            calls=[step.queued], content="", reasoning="", usage=Usage(), attempts=0, finish_reason="tool_calls"
        )
    usage = Usage()
    body: dict[str, Any] = dict(request)
    messages: list[dict[str, Any]] = body["messages"]
    shape = step.schema_shape
    # The request carries what a server can refuse: the reply schema, or the call blocks' grammar.
    held = bool(shape or step.grammar_kind)
    refused_status: int | None = None
    number = 0
    while True:
        number += 1
        attempt = Attempt(number, {**body, "messages": messages}, _reader(step, shape), constrained=held)
        try:
            yield attempt
        except SchemaRefused as refused:
            # The endpoint cannot enforce the envelope: this very step is asked again in free
            # text, and the outcome says so, for the caller to ask this model that way from now on.
            if request.fallback is None:
                raise  # a free-text request carries no schema to refuse
            refused_status = refused.status
            body, shape, held, number = dict(request.fallback), None, False, number - 1
            messages = body["messages"]
            continue
        if not attempt.ended:  # the driver stopped feeding: nothing more to decide
            attempt.end(None)
        usage.add(attempt.reported_usage, messages, attempt.text)
        result = attempt.result()
        template = result.template_reasoning
        reread = template is False and not shape and not is_cut(attempt.finish_reason)
        if reread:
            # Told that the template opens reasoning, the reply finished without closing it:
            # this time the model (or the request) did not think, and what streamed as reasoning
            # was its answer. It is read again as ordinary text, so that nothing it performed is
            # lost and no "empty" reply is asked again; the caller then forgets what it was told.
            result = parse_tool_calls(
                attempt.text, step.tools.values(), attempt.finish_reason, threshold=step.settings.threshold
            )
        settled = _settle(step, result, attempt.upstream_reasoning, constrained=bool(shape))
        _log(step, settled, number)
        if settled.reask_feedback and number <= step.settings.max_reasks:
            messages = reask_messages(messages, attempt.text, settled.reask_feedback)
            continue
        outcome = _outcome(step, settled, usage, number, attempt.finish_reason)
        if refused_status:
            outcome = replace(outcome, refused_schema_status=refused_status)
        if template is None:
            return outcome
        return replace(outcome, template_reasoning=template, reread=reread)


def _reader(step: Step, shape: str | None) -> Reader | None:
    if not step.tools:
        return None  # nothing offered: the reply is plain text
    if shape:
        return EnvelopeParser(step.tools.values(), threshold=step.settings.threshold, required=step.required)
    return StreamingToolCallParser(
        step.tools.values(), threshold=step.settings.threshold, in_reasoning=step.decision.in_reasoning
    )


class _Settled:
    """The decision about one reply."""

    def __init__(self, content: str, reasoning: str, problems: list[Problem]) -> None:
        self.content = content  # prose for the user
        self.reasoning = reasoning  # <think> text and the endpoint's reasoning
        self.problems = problems
        self.calls: list[ToolCallDict] = []
        self.queue: list[ToolCallDict] = []
        self.reask_feedback = ""  # why the reply is unusable, for the model, asked again
        self.feedback = ""  # feedback for the model's next request

    @property
    def thoughts(self) -> str:
        """All the model wrote besides its calls: what a tool's `thinking` argument carries."""
        return "\n\n".join(p for p in (self.reasoning, self.content) if p)


def _settle(step: Step, result: ParseResult, upstream_reasoning: str, *, constrained: bool = False) -> _Settled:
    reasoning = "\n\n".join(p for p in (upstream_reasoning.strip(), result.reasoning) if p)
    if not step.tools:
        # No tools were offered (Letta's summarizer, for one): the reply is plain text, even
        # if it happens to contain call syntax.
        return _Settled(result.content, reasoning, [])
    s = _Settled(result.content, reasoning, list(result.problems))
    calls, repeated = _without_repeated_edits(
        [(c.name, dict(c.arguments)) for c in result.tool_calls], step.block_values
    )
    made = [(n, a) for n, a in calls if n in LABELLED_TOOLS and _edit_key(n, a) in step.edits_made]
    if made:
        # A small model that sees its edit succeed writes it again at the next step, and again:
        # each would add the same line once more (or fail, its old text gone).
        calls = [(n, a) for n, a in calls if n not in LABELLED_TOOLS or _edit_key(n, a) not in step.edits_made]
        s.problems.append(
            Problem(
                "malformed_call",
                f"{len(made)} memory edit(s) of this reply had already been made earlier in this turn and were not "
                f"made again ({', '.join(n for n, _ in made[:5])}{', ...' if len(made) > 5 else ''}); the memory "
                "already holds them.",
                rejected=True,
            )
        )
    shown = [t for t in (step.example_fact, step.example_said) if t is not None]
    copies = [(n, a) for n, a in calls if any(_writes(n, a, t) for t in shown)]
    if copies:
        calls = [(n, a) for n, a in calls if (n, a) not in copies]
        s.problems.append(
            Problem(
                "malformed_call",
                f"The call {copies[0][0]} writes the fact of the example in the instructions "
                f"({json.dumps(step.example_fact)}), which is not about this user, and was not run. Call the tool "
                "with what the user actually said, or answer without a tool.",
                rejected=True,
            )
        )
    if repeated:
        s.problems.append(
            Problem(
                "malformed_call",
                f"{len(repeated)} call(s) of this reply repeated a memory edit written earlier in it (the same call "
                "again, or old text an earlier call replaces or writes a second time) and were not run, as they "
                f"would only add the same text twice or fail ({', '.join(n for n, _ in repeated[:5])}"
                f"{', ...' if len(repeated) > 5 else ''}); do not write them again.",
                rejected=True,
            )
        )
    limit = 1 if step.decision.one_call else step.settings.max_calls_per_reply
    if len(calls) > limit:
        dropped = calls[limit:]
        calls = calls[:limit]
        s.problems.append(
            Problem(
                "malformed_call",
                f"Only the first {'call' if limit == 1 else f'{limit} calls'} of one reply "
                f"{'runs' if limit == 1 else 'run'}; {len(dropped)} more {'was' if len(dropped) == 1 else 'were'} "
                "not executed "
                f"({', '.join(n for n, _ in dropped[:5])}{', ...' if len(dropped) > 5 else ''}).",
                rejected=True,
            )
        )
    feedback = (render_envelope_feedback if constrained else render_feedback)(s.problems, executed=len(calls))
    told = ""
    if made and not calls and s.content.strip() and not any(p.rejected for p in result.problems):
        # Nothing left to run but the answer: it is delivered (ending the turn), not asked again.
        told, feedback = feedback, ""

    if not calls and not feedback and step.required:
        if REPLY_TOOL in step.tools and result.content:
            # A memgpt-style agent must answer through send_message; the model answered
            # directly instead. That is the same message, so deliver it as one.
            calls = [(REPLY_TOOL, {"message": result.content})]
            s.content = ""
        else:
            name = forced_tool_name(step.tool_choice)
            feedback = (
                render_required_call(name, how=f'with "{CALLS_KEY}" in your reply')
                if constrained
                else render_required_call(name)
            )
    if not calls and not feedback and not s.content.strip():
        # Nothing to show and nothing to run: a framework cannot use that (Letta fails the
        # step), so the model is asked again.
        feedback = (
            render_empty_reply(how=f'in "{CALLS_KEY}", with your answer in "{REPLY_KEY}"')
            if constrained
            else render_empty_reply()
        )
    notes = "" if constrained else render_notes(s.problems, step.tools)
    if not calls:
        s.reask_feedback = feedback
        s.feedback = "\n\n".join(x for x in (told, notes) if x)  # told, never re-asked
        return s
    s.feedback = "\n\n".join(x for x in (feedback, told, notes) if x)  # the model hears about the rest next time

    built = [_tool_call(step, name, args, s.thoughts if i == 0 else "") for i, (name, args) in enumerate(calls)]
    concurrent, sequential = step.concurrent, step.sequential
    if step.parallel and (concurrent is None or sequential is None):
        s.calls = built  # the caller runs them all, in the order given
        return s
    # A reply through send_message ends a memgpt-style turn, so it goes after the other calls.
    ordered = [c for c in built if c["function"]["name"] != REPLY_TOOL] + [
        c for c in built if c["function"]["name"] == REPLY_TOOL
    ]
    # In the order written, each with its own result: in one step as far as Letta keeps that
    # order when it runs several calls itself, the rest one per later step.
    now = 1
    if step.parallel and concurrent is not None and sequential is not None:
        now = in_order([c["function"]["name"] for c in ordered], concurrent, sequential)
    s.calls, s.queue = ordered[:now], ordered[now:]
    return s


def _writes(name: str, args: Mapping[str, Any], fact: str) -> bool:
    """Whether a memory edit writes ``fact`` in one of its texts (in any case, with or without
    its full stop, alone or with more after it). Asked only where nothing in the conversation
    speaks of the fact's subject, so a text holding it can only have come from the example."""
    wanted = " ".join(fact.rstrip(".").casefold().split())
    return name in LABELLED_TOOLS and any(
        isinstance(v, str) and wanted in " ".join(v.casefold().split()) for k, v in args.items() if k != "label"
    )


def _spoken_of(messages: Sequence[Any], word: str) -> bool:
    """Whether ``word`` (in any case) is in what the user, the memory (the system message) or
    a tool result said. The assistant's own turns do not count: they may hold an earlier copy."""
    word = word.casefold()
    return any(
        isinstance(m, Mapping)
        and m.get("role") in ("user", "system", "developer", "tool", "function")
        and word in content_text(m.get("content")).casefold()
        for m in messages
    )


def _edit_key(name: str, args: Mapping[str, Any]) -> str:
    """One memory edit, whoever wrote its arguments down (Letta's own parameters left out)."""
    return json.dumps([name, {k: v for k, v in args.items() if k not in INJECTED_PARAMS}], sort_keys=True, default=str)


# The tools that add text to a block, and their text parameter (each name letta has used for it).
APPENDED_TEXT: Mapping[str, tuple[str, ...]] = {
    "memory_insert": ("new_string", "new_str"),
    "core_memory_append": ("content",),
}


def _without_repeated_edits(
    calls: list[tuple[str, dict[str, Any]]], blocks: Mapping[str, str] | None = None
) -> tuple[list[tuple[str, dict[str, Any]]], list[tuple[str, dict[str, Any]]]]:
    """(the calls to run, the repeated memory edits left out). A small model repeats the calls of
    one reply over and over; each runs only after the one before, so an insert adds the same
    line again, and a replace names old text that the same reply's first replace already took
    out (written before any edit, it was offered the block's lines as they were) and fails.
    Likewise a replace whose old text, found once in the block, an earlier edit of the reply
    wrote there again: Letta refuses old text that occurs twice. ``blocks``: the blocks' values
    before the reply, by label, where known. Only the memory tools are held to this: another
    tool may be meant to run twice."""
    kept: list[tuple[str, dict[str, Any]]] = []
    repeated: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()
    replaced: set[tuple[Any, str]] = set()  # (label, old text) that an earlier replace of the reply takes out
    before = blocks or {}
    values = dict(before)  # the known blocks as the reply's kept edits leave them, near enough to count text
    for name, args in calls:
        if name not in LABELLED_TOOLS:
            kept.append((name, args))
            continue
        key = _edit_key(name, args)
        label = args.get("label")
        old = next((args[p] for p in REPLACED_TEXT.get(name, ()) if isinstance(args.get(p), str)), None)
        at = label if isinstance(label, str) and label in values else None  # a block whose value is known
        doubled = (
            old is not None and old != "" and at is not None and before[at].count(old) <= 1 < values[at].count(old)
        )
        if key in seen or (old is not None and (label, old) in replaced) or doubled:
            repeated.append((name, args))
            continue
        seen.add(key)
        new = next((args[p] for p in NEW_TEXT if isinstance(args.get(p), str)), "")
        if old and old not in new:
            replaced.add((label, old))
        if at is not None and name in REPLACED_TEXT:
            if old and values[at].count(old) == 1:
                values[at] = values[at].replace(old, new)
        elif at is not None and name in APPENDED_TEXT:
            added = next((args[p] for p in APPENDED_TEXT[name] if isinstance(args.get(p), str)), "")
            values[at] = f"{values[at]}\n{added}" if values[at] else added
        elif at is not None:
            del values[at]  # rewritten whole (memory_rethink): no longer known
        kept.append((name, args))
    return kept, repeated


def _takes_thoughts(step: Step, name: str) -> bool:
    """Whether Letta reads the agent's thoughts from this call's `thinking` argument: every tool
    of such an agent takes one, and a call to a tool it does not have gets one too (Letta's
    streaming reader shows nothing of a call until `thinking` has been read)."""
    return name in step.inner_thoughts or (bool(step.inner_thoughts) and name not in step.tools)


def _tool_call(step: Step, name: str, args: dict[str, Any], thoughts: str) -> ToolCallDict:
    thinking = _takes_thoughts(step, name)
    if thinking:
        # Letta reads the agent's inner thoughts from this argument, and streams it first.
        args = {INNER_THOUGHTS: thoughts, **{k: v for k, v in args.items() if k != INNER_THOUGHTS}}
    if name in step.heartbeat and HEARTBEAT not in args:
        # What a native model would send: keep going after a tool, stop after replying.
        args[HEARTBEAT] = name != REPLY_TOOL
    # With `thinking`, without spaces, as OpenAI's models write arguments: Letta's streaming
    # reader of that argument passes the space after its colon on as reasoning (" " alone for
    # empty thoughts).
    separators = (",", ":") if thinking else None
    return {
        "id": new_call_id(),
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False, separators=separators)},
    }


def _outcome(step: Step, s: _Settled, usage: Usage, attempts: int, finish_reason: str | None) -> Outcome:
    if not s.calls:
        gave_up = bool(s.reask_feedback) and not s.content
        content = s.content
        if gave_up:  # say so instead of ending silently
            rejected = [p.message for p in s.problems if p.rejected]
            if rejected or step.required:
                detail = "; ".join(rejected) or "it called no tool"
                content = (
                    f"(The model tried to use a tool {attempts} time(s), but no valid call could be read: {detail})"
                )
            else:
                content = f"(The model gave an empty reply {attempts} time(s).)"
        finish = finish_reason if finish_reason is not None and finish_reason != "tool_calls" else "stop"
        if finish == "length" and not gave_up:  # the user should know why the answer stops mid-way
            limit = f" of {step.output_limit} tokens" if step.output_limit else ""
            content = f"{content}\n\n(The reply reached the output limit{limit} and was cut off here.)".strip()
        return Outcome(
            calls=[], content=content, reasoning=s.reasoning, usage=usage, attempts=attempts, finish_reason=finish,
            gave_up=gave_up, feedback="" if s.reask_feedback else s.feedback,
        )  # fmt: skip
    # Text next to a call goes where a native model's goes: the message's text, which Letta
    # shows as the assistant's (letta_v1_agent) and leaves out of later requests (the adapter
    # puts it back for the model). Only what the model wrote as reasoning (<think>, the
    # endpoint's own) is reasoning. Where Letta takes an agent's thoughts from the `thinking`
    # argument, all of it went there (_tool_call): a model asked for `thinking` writes no
    # separate text or reasoning, and each piece of text must reach Letta once.
    in_thoughts = any(_takes_thoughts(step, c["function"]["name"]) for c in s.calls)
    return Outcome(
        calls=s.calls,
        content="" if in_thoughts else s.content,
        reasoning="" if in_thoughts else s.reasoning,
        usage=usage,
        attempts=attempts,
        finish_reason="tool_calls",
        queue=s.queue,
        feedback=s.feedback,
    )


def reask_messages(messages: list[dict[str, Any]], reply: str, feedback: str) -> list[dict[str, Any]]:
    """The conversation with the failed reply and the feedback appended, roles alternating."""
    out = [dict(m) for m in messages]
    if reply.strip():
        out.append({"role": "assistant", "content": reply})
    if out and out[-1]["role"] == "user":
        out[-1]["content"] = f"{out[-1]['content']}\n\n{feedback}"
    else:
        out.append({"role": "user", "content": feedback})
    return out


def _log(step: Step, s: _Settled, attempt: int) -> None:
    """Problem kinds only at WARNING: their messages can quote what the model wrote, and a
    private model's replies must not reach the logs."""
    names = [c["function"]["name"] for c in s.calls]
    kinds = ", ".join(sorted({p.kind for p in s.problems if p.rejected}))
    kinds = kinds or ("a reply with no call" if s.content.strip() else "an empty reply")
    if s.reask_feedback:
        more = "asking again" if attempt <= step.settings.max_reasks else "giving up"
        step.log.warning("letta_tool_emulation: no usable call in reply %d (%s); %s.", attempt, kinds, more)
    elif s.feedback:
        step.log.warning("letta_tool_emulation: calling %s; rejected: %s", names, kinds)
    else:
        step.log.debug("letta_tool_emulation: reply %d -> calls %s, queued %d", attempt, names, len(s.queue))
    set_aside = [p for p in s.problems if not p.rejected and p.kind != "repaired"]
    if set_aside:
        # The kinds and reasons only (the parser's own words): what the model wrote stays out of INFO.
        step.log.info(
            "letta_tool_emulation: %d block(s) set aside, not run: %s",
            len(set_aside),
            "; ".join(f"{p.kind}: {p.message}" for p in set_aside),
        )
    if s.problems and not step.decision.private:
        step.log.debug("letta_tool_emulation: problems: %s", "; ".join(p.message for p in s.problems))
