"""When a block is decided performed or shown, and what waits until it is.

A region's reading comes from the interpreter; whether it was performed is decided in steps:

1. What precedes it (``context.shown_before`` on the context captured at its opener) is
   known at once: :meth:`Settle.judge`.
2. Prose after it on its line is known when that line ends: the block waits in ``items``
   with the prose after it (:meth:`Settle.release`), and :meth:`Settle.settle_line` decides.
3. A performed block is committed to a group and held until the reply ends: a later lone
   ``</think>`` can still show it was drafted in reasoning (:meth:`Settle.drop_drafts`), a
   stray end marker or an unterminated block's end marker can still show its JSON closed
   early (:meth:`Settle.watch_end`, :meth:`Settle.stray_end`), and the first line after it can
   still ask permission to make it (:meth:`Settle.close`).

All prose the scanner releases passes through :meth:`Settle.release`, but for plain prose in
the middle of a line when no block waits on it (the scanner's fast path).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import regex

from .. import context as C
from .. import control_tokens
from .. import markers as M
from ..blocks import NEW_TEXT, REPLACED_TEXT
from ..region import Interpret, Reading, Region, excerpt
from ..results import Problem, StreamEvent, ToolCall
from ..validate import is_placeholder
from .lines import Lines
from .output import Output

if TYPE_CHECKING:
    from .scanner import Scanner

_UNJUDGED: Any = object()
_TELLING = regex.compile(r"[\w\"'{}\[\]]")


@dataclass(slots=True)
class Block:
    """A performed-looking region whose line has not ended yet."""

    region: Region
    reading: Reading


@dataclass(slots=True)
class Group:
    """The events of a performed region, held until the reply ends."""

    region: Region
    events: list[StreamEvent]
    after_at: int = 0  # where the prose written after it begins


class Settle:
    __slots__ = (
        "after_call",
        "control_tail",
        "ctx",
        "fragile",
        "groups",
        "interpret",
        "items",
        "judged",
        "last_shown",
        "lines",
        "open_group",
        "out",
        "prior_group",
        "sc",
        "shown_end",
        "unterminated",
        "watch_tail",
    )

    def __init__(self, sc: Scanner, interpret: Interpret) -> None:
        self.sc = sc
        self.out: Output = sc.out
        self.lines: Lines = sc.lines
        self.interpret = interpret
        self.ctx: C.Context | None = None  # the context of the block being read
        self.items: list[Block | str] = []  # blocks on this line and the prose after them
        self.fragile = False  # one of them is broken or was mended
        # what came after them that may still begin the control tokens a server left there
        # (None once anything else came)
        self.control_tail: str | None = None
        self.groups: list[Group] = []  # performed calls, released at close
        self.after_call = False  # a call was committed (and not dropped as reasoning)
        self.open_group: Group | None = None  # the last call, while no other block followed it
        self.prior_group: Group | None = None  # the same, for the block being read
        self.unterminated: Group | None = None  # the last call, if its end marker never came
        self.watch_tail = ""  # the end of the text watched for that marker
        self.last_shown: C.Shown | None = None  # why the last shown block was shown
        self.shown_end = 0  # where the prose after it begins
        # What came of context.shown_before for each context and kind of format judged so far:
        # it depends on nothing else, and a reply that repeats a block repeats its context.
        self.judged: dict[tuple[C.Context, bool], C.Shown | None] = {}

    # -- prose -------------------------------------------------------------------------------

    def release(self, s: str) -> None:
        """Release prose, unless a block earlier on this line still waits to know whether
        prose follows it."""
        if not s:
            return
        if self.items:
            nl = s.find("\n")
            part = s if nl < 0 else s[:nl]
            if self.control_tail is not None:
                rest = self._past_control_tokens(part, nl < 0)
                if rest is None:  # (a control token may be cut by the chunk's end: wait for it)
                    self.items.append(s)
                    return
                part = rest
            if not self._settle_by(part):
                if nl < 0:
                    self.items.append(s)
                    return
                self.settle_line(performed=True)
        self._pass(s)

    def _settle_by(self, part: str) -> bool:
        """Settle the line's waiting blocks if ``part``, text after them, tells they were not
        alone on it: the first telling character decides. JSON punctuation (or, after a mended
        block, anything) means the JSON did not really end where it was closed; a word makes
        the blocks part of a sentence."""
        m = (M.NOT_BLANK if self.fragile else _TELLING).search(part)
        if m is None:
            return False
        self.settle_line(performed=False, broken=self.fragile or (not m.group().isalnum() and m.group() != "_"))
        return True

    def _past_control_tokens(self, part: str, open_line: bool) -> str | None:
        """What of ``part``, the line's text after its waiting blocks, follows the control tokens
        that stand right after them; None while the line is open and what came so far may
        still be such tokens. Only what may be one is kept, so a stream is read as one-shot."""
        text = self.control_tail + part if self.control_tail else part
        tokens = control_tokens.TOKENS.match(text)
        rest = text if tokens is None else text[tokens.end() :]
        if open_line and control_tokens.CUT.match(rest) is not None:
            self.control_tail = rest
            return None
        self.control_tail = None
        return rest

    def _pass(self, s: str) -> None:
        self.out.pending.append(s)
        if self.unterminated is not None:
            self.watch_end(s)
        self.lines.track(s)

    def watch_end(self, s: str) -> None:
        """The last call's JSON closed without its end marker: if the marker turns up later
        in text that is no call (prose, code, reasoning), the JSON closed early, inside a
        string, and must not run."""
        group = self.unterminated
        assert group is not None
        markers = group.region.spec.end
        seen = self.watch_tail + s
        if any(marker in seen for marker in markers):
            self.unterminated = None
            if group in self.groups:
                _reject(group)
        self.watch_tail = seen[-max(map(len, markers)) :]

    # -- blocks ------------------------------------------------------------------------------

    def begin_block(self) -> None:
        """A block's opener: capture what surrounds it."""
        self.prior_group, self.open_group = self.open_group, None
        self.ctx = self.lines.context(block_waiting=bool(self.items))

    def judge(self, region: Region) -> None:
        """A region is complete: read it, and decide what it was (the held text is released
        and the state is TEXT again before this)."""
        region.finish_reason = self.sc.finish_reason
        try:
            reading = self.interpret(region)
        except Exception as exc:  # noqa: BLE001 - the interpreter guards itself; this is the last line
            reading = Reading(events=[_unreadable(region, exc)])
        try:
            shown = self.shown_before(region) or reading.shown
            if shown is not None and shown.words and self._writes_anew(region, reading):
                shown = None
        except Exception as exc:  # noqa: BLE001 - never let one region poison the rest
            reading, shown = Reading(events=[_unreadable(region, exc)]), None
        if not reading.call_attempt:
            self.release(region.raw)  # ordinary text after all
        elif shown is not None:
            self.show(region, reading, shown)
        else:
            self.wait(Block(region, reading))
            self.after_hidden(region.raw)

    def judge_attempt(self, region: Region, reading: Reading) -> None:
        """A failed attempt (an opener with no JSON) that reached its end marker."""
        region.context = self.ctx
        shown = self.shown_before(region, quiet=True)
        if shown is not None:
            self.show(region, reading, shown)
        else:
            self.wait(Block(region, reading))
            self.after_hidden(region.raw)

    def wait(self, block: Block) -> None:
        self.items.append(block)
        self.control_tail = ""
        if _fragile(block):
            self.fragile = True

    def shown_before(self, region: Region, *, quiet: bool = False) -> C.Shown | None:
        """What precedes ``region`` says it is shown, not performed (see context.py). With
        ``quiet``, a failure to judge counts as no (for blocks that run nothing anyway)."""
        if region.context is None:
            return None
        try:
            key = (region.context, region.spec.json_only)
            shown = self.judged.get(key, _UNJUDGED)
            if shown is _UNJUDGED:
                shown = self.judged[key] = C.shown_before(region.context, json_only=region.spec.json_only)
            if shown is None and self.last_shown is not None and self._follows_shown(region.context):
                return self.last_shown
            return shown
        except Exception:
            if quiet:
                return None
            raise

    def settle_line(self, *, performed: bool, broken: bool = False) -> None:
        """The line of the waiting blocks ended (performed) or went on with prose (shown, or
        ``broken`` when what followed shows their JSON did not end where it seemed to)."""
        items, self.items = self.items, []
        self.fragile = False
        for item in items:
            if isinstance(item, Block):
                if performed:
                    self.commit(item)
                elif broken or _fragile(item):
                    # Not a clean mention: an attempt that went wrong, and text ran on after it.
                    self.out.emit(
                        StreamEvent(
                            problem=Problem(
                                "invalid_json",
                                "A call was broken (its JSON incomplete, mended or closed before its end marker) "
                                "and text followed it on the same line, so nothing was called. Write the call "
                                "again, alone on its lines.",
                                rejected=True,
                                excerpt=excerpt(item.region.raw),
                            )
                        )
                    )
                    self.release(item.region.raw)
                else:
                    self.show(item.region, item.reading, C.Shown("in_sentence", "prose follows it on the same line"))
            else:
                self._pass(item)

    def commit(self, block: Block) -> None:
        region = block.region
        group = Group(region, block.reading.events)
        self.groups.append(group)
        marked = region.spec.end_required
        self.unterminated = group if region.end_marker is False and marked else None
        self.watch_tail = ""
        self.open_group = group if marked else None
        self.after_call = True
        self.last_shown = None
        group.after_at = self.lines.emitted

    def show(self, region: Region, reading: Reading, shown: C.Shown) -> None:
        """Give a call-shaped region back as prose, saying why it did not run."""
        if reading.call_attempt:
            self.note_shown(region, shown, reading.events)
        if shown.words and region.spec.anchor != "fence" and any(e.call is not None for e in reading.events):
            # Set aside because of its words: the user reads it as the code it was shown as,
            # never as raw call markers.
            self.release(_as_code(region.raw))
        else:
            self.release(region.raw)
        self.last_shown = shown
        self.shown_end = self.lines.emitted

    def _writes_anew(self, region: Region, reading: Reading) -> bool:
        """Whether ``region`` writes the call just before it anew with one value changed, the
        one line between them naming the new value ("Nej vent, du skrev 18. august. Se bort fra
        den ovenfor:"): that line takes the call above back and brings this one in as its
        correction, whatever its last words would say of a block alone ("Also so:")."""
        prior, ctx = self.prior_group, region.context
        if prior is None or ctx is None or ctx.gap or not ctx.before or prior not in self.groups:
            return False
        since = self.lines.emitted - prior.after_at
        if since > C.LINE_CHARS + 16 or self.lines.recent_tail(since).strip() != ctx.before.strip():
            return False
        return _rewrites(_first_call(prior.events), _first_call(reading.events), ctx.before.strip())

    def _follows_shown(self, ctx: C.Context) -> bool:
        """Whether a block comes right after a shown one, with nothing between but blanks or a
        line that only goes on from it ("and then:"): it is shown for the same reason."""
        since = self.lines.emitted - self.shown_end
        if since > C.LINE_CHARS:
            return False
        tail = self.lines.recent_tail(since)
        if not tail.strip():
            return True
        sibling = (  # the next item of the same list of alternatives, on a line of its own
            self.last_shown is not None
            and self.last_shown.why == C.ALTERNATIVE
            and not ctx.gap
            and tail.strip() == ctx.before.strip()
            and C.LIST_ITEM.match(ctx.before) is not None
        )
        return sibling or (tail.count("\n") <= 2 and C.continues(ctx.before))

    def note_shown(self, region: Region, shown: C.Shown, events: list[StreamEvent] | None = None) -> None:
        """Say why a block did not run. A block that would have been a valid call to an offered
        tool, set aside because of the words next to it, names that tool and those words (the
        model is told; see feedback.render_notes)."""
        call = _first_call(events or ()) if shown.words else None
        self.out.emit(
            StreamEvent(
                problem=Problem(
                    shown.kind,
                    f"A call-shaped block was not executed because {shown.why}.",
                    excerpt=excerpt(region.raw),
                    tool_name=None if call is None else call.name,
                    words=shown.words if call is not None else "",
                )
            )
        )

    def after_hidden(self, raw: str) -> None:
        """Line bookkeeping after a block whose text is not released."""
        self.lines.hidden_block()
        nl = raw.rfind("\n")
        if nl >= 0 and not raw[nl + 1 :].strip(" \t\r"):  # its line is over
            tail = raw[nl + 1 :]
            if self.items:
                self.settle_line(performed=True)
            self.lines.new_line(len(tail) + 3 * tail.count("\t"))
        else:
            self.lines.block_on_line()

    def drop_drafts(self) -> None:
        """A lone </think> closed reasoning the reply began in: nothing drafted before runs."""
        items, self.items = self.items, []
        shown = C.Shown("in_reasoning", "it was written in reasoning that the reply closed later")
        for item in items:
            if isinstance(item, Block):
                if item.reading.call_attempt:
                    self.note_shown(item.region, shown)
            else:
                self._pass(item)
        for group in self.groups:
            self.note_shown(group.region, shown)
        self.groups = []
        self.after_call = False

    def ends_open_call(self, marker: str) -> bool:
        """Whether ``marker``, an end marker at the start of a line with no block open, may
        close the last call (only prose came since)."""
        group = self.open_group
        return group is not None and marker in group.region.spec.end and self.lines.blank

    def reject_open_call(self) -> None:
        """An end marker alone on its line closed the last call: its JSON (or its end marker)
        ended early, an unescaped quote say, so what it holds is not what the model wrote."""
        group = self.open_group
        assert group is not None
        self.open_group = None
        _reject(group)

    def reject_prior_unterminated(self) -> None:
        """What followed the last call is no call: if that call had no end marker, its JSON
        most likely closed early, inside a string."""
        prior = self.prior_group
        if prior is not None and prior.region.end_marker is False and prior in self.groups:
            _reject(prior)

    def settled_prose(self) -> str:
        """Settle the last line's blocks as performed, then the reply's prose so far, which the
        held blocks' ``after_at`` index ("" where no block is held)."""
        if self.items and not self._settle_by(self.control_tail or ""):
            self.settle_line(performed=True)
        return "".join(self.out.texts) + "".join(self.out.pending) if self.groups else ""

    def close(self) -> None:
        """The reply ended: the last line's blocks were performed, and every held call runs
        unless the lines directly after it (up to the next block) ask permission to make it,
        disclaim it, retract it or make it depend on an earlier result."""
        prose = self.settled_prose()
        groups = self.groups
        listed = _listing(groups) | _labelled_shapes(groups, prose)
        ran = False
        # context.shown_after depends on nothing but its arguments: calls written again and
        # again with the same line after each are judged once.
        judged: dict[tuple[str, bool, str | None, bool, bool, str | None], C.Shown | None] = {}
        offered = _alternatives(groups, prose)
        for i, group in enumerate(groups):
            last = i + 1 == len(groups)
            upto = len(prose) if last else groups[i + 1].after_at
            cut = min(upto, group.after_at + AFTER_SPAN)
            after = prose[group.after_at : cut]
            ends = last and cut == len(prose)
            shown = listed.get(id(group)) or offered.get(id(group))
            if shown is None and not last and _redone(group, groups[i + 1], after, upto - group.after_at):
                shown = C.Shown("retracted", REDONE)
            if shown is None and not last and _corrected(group, groups[i + 1], after, upto - group.after_at):
                shown = C.Shown("retracted", CORRECTED, C.quote_words(after.strip()))
            if shown is None and not last and _taken_back(group, groups[i + 1], after, upto - group.after_at):
                shown = C.Shown("retracted", TAKEN_BACK, C.quote_words(after.strip()))
            before = _line_above(group)
            if shown is None and before is not None and _left_open(before) and _placeholder_in(group):
                shown = C.Shown("example", PLACEHOLDER)
            if shown is None and before is not None and C.runs_through(before, after):
                shown = C.Shown("in_sentence", "a sentence runs through it")
            # (whether the line above opens with the writer's name as a speaker, asked once)
            speaks = shown is None and before is not None and C.speaks_first(before)
            if speaks and before is not None and C.recited_turn(before, after):
                shown = C.Shown("quoted", "it stands between two turns of a recited transcript")
            if shown is None and before is not None and C.readers_turn(before):
                shown = C.Shown("quoted", "it stands right under the reader's labelled turn of a recited transcript")
            if shown is None and before and C.recited_earlier(before, after):
                shown = C.Shown("quoted", "it is recited from an earlier exchange, named around it")
            if shown is None and speaks and before is not None:
                above = _line_above_that(prose, group.after_at)
                if above and C.recited_exchange(above, before):
                    shown = C.Shown("quoted", "it ends a recited exchange, under the writer's turn")
            if shown is None and before is not None and before.lstrip(" \t")[:1] in C.DIALOGUE_DASHES:
                above = _line_above_that(prose, group.after_at)
                if above and C.dash_exchange(above, before):
                    shown = C.Shown("quoted", "it ends a dialogue recited with dashes")
            if shown is None and after.strip():
                # (the next block directly after: a line that leads into it speaks of it)
                leads_on = not last and cut == upto and "\n" not in after.strip()
                # (past a blank line, the nearest line above tells whether the reply reported it done)
                up = _label_above(group) if before is None and ends else None
                if group.region.raw.endswith("\n"):
                    # A fence's close takes its line's end with it: given back, the gap after the
                    # block reads as it does after an end marker, whatever the format.
                    after = "\n" + after
                key = (after, ran and last, before, ends, leads_on, up)
                shown = judged.get(key, _UNJUDGED)
                if shown is _UNJUDGED:
                    shown = judged[key] = C.shown_after(
                        after, others_ran=ran and last, before=before, ends=ends, leads_on=leads_on, above=up
                    )
            if shown is not None:
                self.note_shown(group.region, shown, group.events)
            else:
                ran = True
                for event in group.events:
                    self.out.emit(event)
        self.groups = []


PLACEHOLDER = "a value in it is only a placeholder, and the line above runs on into it: a recited format"
# A value that stands for one and holds none ("...", "<content>", "<内容>"), under a line that
# runs on into the block: the block recites the call's format. (Under a lead that hands over
# with a colon or a full stop, or alone, validation rejects such a value, and the model is
# asked for a real one.)


def _left_open(before: str) -> bool:
    """Whether the line above the block stops mid-sentence, on a word or a closed quotation
    ("j'écris exactement", "引用します：「…」"), with no colon or full stop to hand over to it."""
    last = before.rstrip(" \t*_")[-1:]
    return last.isalnum() or (last != "" and last in "»”\"'’」』")


def _placeholder_in(group: Group) -> bool:
    """Whether one of the block's string values is only a placeholder."""
    for event in group.events:
        if event.call is not None:
            for value in event.call.arguments.values():
                if isinstance(value, str) and is_placeholder(value):
                    return True
    return False


REDONE = "the next block replaces the same text again, a line after it, so it was written anew"
# How much of what follows a block its judgement reads: its lines after it, at their longest.
AFTER_SPAN = C.AFTER_LINES * C.LINE_CHARS + 16


def _first_call(events: Iterable[StreamEvent]) -> ToolCall | None:
    """The call a block's events hold (None for a block that holds none)."""
    return next((e.call for e in events if e.call is not None), None)


def _tool_named(events: Iterable[StreamEvent]) -> str | None:
    """The tool a block calls, whether its call is valid or was rejected (an entry of a listing
    often holds a placeholder, which validation rejects)."""
    for e in events:
        if e.call is not None:
            return e.call.name
        if e.problem is not None and e.problem.rejected and e.problem.tool_name:
            return e.problem.tool_name
    return None


def _replaced(group: Group) -> tuple[str, str, Any, Any] | None:
    """A replace call's tool, label, old text and new text; None for any other call."""
    call = _first_call(group.events)
    if call is None or call.name not in REPLACED_TEXT:
        return None
    args = call.arguments
    old = next((args[k] for k in REPLACED_TEXT[call.name] if k in args), None)
    new = next((args[k] for k in NEW_TEXT if k in args), None)
    return None if old is None else (call.name, str(args.get("label")), old, new)


def _redone(group: Group, following: Group, after: str, span: int) -> bool:
    """Whether ``following`` is ``group`` written anew: both replace the same old text in the
    same block, with other new text, and only a line or two of the same paragraph stands
    between them. Once the first has run, its old text is gone and the second must fail, so
    a reply that writes both meant only the second ("No, you said the 11th. Use this one:").
    Two replaces of different old texts, or of the same one far apart, are each performed."""
    if span > 2 * C.LINE_CHARS + 16:
        return False
    between = after.strip()
    if not between or "\n\n" in between.replace("\r", "") or between.count("\n") > 1:
        return False
    first, second = _replaced(group), _replaced(following)
    return first is not None and second is not None and first[:3] == second[:3] and first[3] != second[3]


CORRECTED = "the line after it brings in the next block, to the same tool, as its correction"


def _corrected(group: Group, following: Group, after: str, span: int) -> bool:
    """Whether ``following`` corrects ``group``: one line alone stands between two calls to the
    same tool (and the same block, where they name one), and it ends by saying so
    (:func:`context.corrects_above`). Two such calls with any other line between are each
    performed ("And your brother:")."""
    if span > C.LINE_CHARS + 16:
        return False
    between = after.strip()
    if not between or "\n" in between:
        return False
    first, second = _first_call(group.events), _first_call(following.events)
    if first is None or second is None or first.name != second.name:
        return False
    if first.arguments.get("label") != second.arguments.get("label"):
        return False
    return C.corrects_above(between)


TAKEN_BACK = (
    "the next block, a line after it, writes the same text with one value changed, and that line names the new value"
)


def _taken_back(group: Group, following: Group, after: str, span: int) -> bool:
    """Whether ``following`` writes ``group`` anew with one value changed ("Compleanno: 2
    febbraio." / "Compleanno: 20 febbraio."), and the one line between them names the new value
    before it leads on ("No, aspetta, era il 20. Annullo quello sopra."): the first was taken
    back. Two entries that differ in one value with a line that only leads into the second
    ("And the evening one:", "Another one:") are each performed."""
    if span > C.LINE_CHARS + 16:
        return False
    between = after.strip()
    if not between or "\n" in between:
        return False
    return _rewrites(_first_call(group.events), _first_call(following.events), between)


def _differing(
    first: ToolCall | None, second: ToolCall | None
) -> tuple[Mapping[str, Any], Mapping[str, Any], list[str]] | None:
    """The two calls' arguments and the parameters whose values differ, where both calls are to
    one tool with the same parameters; None otherwise."""
    if first is None or second is None or first.name != second.name:
        return None
    one, two = first.arguments, second.arguments
    if one.keys() != two.keys():
        return None
    return one, two, [k for k in one if one[k] != two[k]]


def _one_text_changed(first: ToolCall | None, second: ToolCall | None) -> tuple[str, str] | None:
    """The one value that differs between two calls to one tool with the same parameters, as
    (``first``'s, ``second``'s), where both are strings; None otherwise."""
    found = _differing(first, second)
    if found is None:
        return None
    one, two, changed = found
    if len(changed) != 1:
        return None
    old, new = one[changed[0]], two[changed[0]]
    return (old, new) if isinstance(old, str) and isinstance(new, str) else None


def _rewrites(first: ToolCall | None, second: ToolCall | None, between: str) -> bool:
    """Whether ``second`` writes ``first`` anew with one value changed, and ``between``, the
    line between them, names the new value before it leads on, or names it and the old one in a
    sentence that leads nowhere (see :func:`_taken_back`)."""
    texts = _one_text_changed(first, second)
    if texts is None:
        # (a number changed, named in the line as a word of its own or inside one: "you asked for
        # d8s, not d6s. Rolling properly:")
        numbers = _one_number_changed(first, second)
        return numbers is not None and C.names_before_lead(between, numbers[1], was=numbers[0])
    old, new = texts
    value = _changed_value(old, new)
    if value is None:
        return False
    if C.names_before_lead(between, value):
        return True
    was = _changed_value(new, old)  # the value it replaces
    if was is not None and C.names_both(between, value, was):
        return True
    # a value of several words is named by its longest ("Viagem a Lisboa" / "Viagem ao Porto":
    # "você disse Porto"), a word that runs into it aside
    main = _main_word(value)
    return main != value and C.names_before_lead(between, main)


def _one_number_changed(first: ToolCall | None, second: ToolCall | None) -> tuple[str, str] | None:
    """The one value that differs between two calls to one tool with the same parameters, as
    (``first``'s, ``second``'s) written out, where both are numbers; None otherwise."""
    found = _differing(first, second)
    if found is None or len(found[2]) != 1:
        return None
    old, new = found[0][found[2][0]], found[1][found[2][0]]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (old, new)):
        return None
    return str(old), str(new)


def _main_word(value: str) -> str:
    """The longest word of ``value`` (``value`` itself where it is one word, or has no spaces)."""
    words = value.split()
    return max(words, key=len) if len(words) > 1 else value


_WORD_CHAR = regex.compile(r"[\w'’-]")
# The longest a changed value may be, in characters: a name, a date, a number, a place
_VALUE_CHARS = 24


def _common_ends(a: str, b: str) -> tuple[int, int]:
    """How many characters ``a`` and ``b`` share at their start, and then at their end (never
    overlapping the start)."""
    most = min(len(a), len(b))
    head = 0
    while head < most and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < most - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    return head, tail


def _changed_value(old: str, new: str) -> str | None:
    """The value ``new`` puts in place of one in ``old``, where the two texts are the same but
    for one short span (the word around it in ``new``; in a script written without spaces, the
    span itself); None where they differ in more than that. What they share may be less than
    half of the longer: a value that grows by a few words is still one span ("Dentist on
    Tuesday" / "Dentist on Thursday 4 Dec")."""
    head, tail = _common_ends(old, new)
    if 5 * (head + tail) < 2 * max(len(old), len(new)):
        return _swapped_word(old, new)
    start, end = head, len(new) - tail
    if C.UNSPACED.search(new[start:end] or new[max(0, start - 1) : start + 1]):
        value = new[start:end]
    else:
        while start > 0 and _WORD_CHAR.match(new, start - 1):
            start -= 1
        while end < len(new) and _WORD_CHAR.match(new, end):
            end += 1
        value = new[start:end]
    value = value.strip(" \t.,;:!?'’-")
    return value if 0 < len(value) <= _VALUE_CHARS else None


def _swapped_word(old: str, new: str) -> str | None:
    """The one word ``new`` has in place of one of ``old``'s, where the rest of their words are
    the same but for their order ("Любит зелёный чай." / "Любит чай улун."); None otherwise."""
    was, now = _WORD.findall(old.lower()), _WORD.findall(new.lower())
    added = [w for w in now if w not in was]
    removed = [w for w in was if w not in now]
    if len(added) != 1 or len(removed) > 1 or 2 * (len(now) - 1) < max(len(was), len(now)):
        return None
    return added[0] if len(added[0]) <= _VALUE_CHARS else None


_WORD = regex.compile(r"\w+")


def _listing(groups: list[Group]) -> dict[int, C.Shown]:
    """The calls that are entries of a listing of tools, by ``id`` of their group: each under a
    line that names its own tool, two or more such, to two or more tools. A reply that performs
    its calls does not label each with its tool's name; one that lists what it can do does
    ("**memory_insert**", then an example). One labelled call alone decides nothing. The label
    is kept as the words that decided, so that a model which did label real calls so is told
    they did not run."""
    named = []
    for group in groups:
        ctx = group.region.context
        name = _tool_named(group.events)
        if ctx is not None and name is not None and ctx.before and C.names_tool(ctx.before, name):
            named.append((group, name, ctx.before))
    if len(named) < 2 or len({name for _, name, _ in named}) < 2:
        return {}
    why = "it is one of several tools listed, each under a line naming it"
    return {id(group): C.Shown("example", why, C.quote_words(label)) for group, _, label in named}


def _labelled_shapes(groups: list[Group], prose: str) -> dict[int, C.Shown]:
    """The calls of a listing of tools' call shapes, by ``id`` of their group: a run of blocks to
    two or more tools, each right under a label of its own, a phrase of a few words that says what
    the tool does ("Roll dice:", "掷骰子：", "1. **Roll dice**", "・会話履歴の検索"), nothing but the
    next label between one block and the next, where a value in one of them is only a placeholder
    ("...") or the line before the run introduces tools and their format ("Here's what I can do
    with tools, with the shape each one takes:", "现在可以使用的工具（附调用格式）"). A reply that
    performs several steps leads each with its step ("Saving your name:") and fills in every
    value; one that lists the shapes of what it can do leaves some open, or says so above them,
    and the one filled in is as much an entry as the rest."""
    found: dict[int, C.Shown] = {}
    runs: list[list[Group]] = []
    for prev, group in pairwise(groups):
        # (first what stands between two blocks, which is cheap: a line of its own, short, as a label is)
        if group.after_at - prev.after_at > _LABEL_CHARS + 8:
            continue
        between = prose[prev.after_at : group.after_at].strip()
        if not between and _tool_named(group.events) is not None:
            # (two entries under one label, one right below the other: "**Memory**", then a
            # block to append and one to search)
            if runs and runs[-1][-1] is prev:
                runs[-1].append(group)
            elif (label := _line_above(prev)) is not None and _is_entry(prev, label):
                runs.append([prev, group])
            continue
        if (
            not between
            or len(between) > _LABEL_CHARS
            or "\n" in between
            or _line_above(group) is None
            or not _is_entry(group, between)
        ):
            continue
        if runs and runs[-1][-1] is prev:
            runs[-1].append(group)
        elif (label := _line_above(prev)) is not None and _is_entry(prev, label):
            runs.append([prev, group])
    for run in runs:
        # (every run holds two blocks at least: it starts with a pair)
        if len({_tool_named(g.events) for g in run}) > 1 and (
            any(_placeholder_in(g) or _placeholder_written(g.region.raw) for g in run)
            or C.lists_tools(_line_before_label(run[0], groups, prose))
        ):
            for g in run:
                found[id(g)] = C.Shown("example", LISTED_SHAPES, C.quote_words(_line_above(g) or ""))
    return found


def _is_entry(group: Group, label: str) -> bool:
    """Whether ``label``, the line right above ``group``'s block, may label an entry of a listing."""
    return (
        len(label) <= _LABEL_CHARS
        and (
            _ENTRY_LABEL.match(label) is not None
            or _ITEM_LABEL.match(label) is not None
            or _BOLD_LABEL.match(label) is not None
        )
        and _tool_named(group.events) is not None
        and not C.reports_done(label)
    )


def _line_before_label(group: Group, groups: list[Group], prose: str) -> str:
    """The last line with words above the label of ``group``'s block, back to the block before."""
    i = groups.index(group)
    start = groups[i - 1].after_at if i else 0
    lines = [line for line in prose[start : group.after_at].split("\n") if line.strip()]
    return lines[-2] if len(lines) > 1 else ""


LISTED_SHAPES = "it is one of several tools' call shapes, each listed under a label"
_LABEL_CHARS = 64
# An entry's label: a phrase of up to six words on its own, ending in a colon ("Buscar en la conversación:")
_ENTRY_LABEL = regex.compile(
    r"[ \t]*[\W_]{0,3}[^\W\d_][^\s.!?。！？]*(?:[ \t]+[^\s.!?。！？]+){0,5}[ \t*_]*[:：][ \t*_]*$"
)
# or a list item of as few words, with no colon ("1. **Roll dice**", "・会話履歴の検索")
_ITEM_LABEL = regex.compile(
    r"(?:"
    + C.LIST_ITEM.pattern
    + r")[*_]{0,2}[^\W\d_][^\s.!?。！？:：]*(?:[ \t]+[^\s.!?。！？:：]+){0,5}[ \t*_]*[:：]?[ \t*_]*$"
)
# or a phrase of as few words wholly in bold, as a heading of its own ("**Roll dice**")
_BOLD_LABEL = regex.compile(r"[ \t]*(?:\*\*|__)[^\W\d_][^*_\n.!?。！？]{0,60}(?:\*\*|__)[ \t]*[:：]?[ \t]*$")
# A JSON string value, short enough to be a placeholder, after its key's colon
_STRING_VALUE = regex.compile(r':[ \t]*"([^"\\\n]{0,96})"')


def _placeholder_written(raw: str) -> bool:
    """Whether a block's text gives some key only a placeholder (a rejected call keeps none of its
    arguments in its events)."""
    return any(is_placeholder(m.group(1)) for m in _STRING_VALUE.finditer(raw))


OFFERED = "it is one of several blocks offered as alternatives"


def _alternatives(groups: list[Group], prose: str) -> dict[int, C.Shown]:
    """The calls offered as alternatives, by ``id`` of their group: two blocks whose lines
    directly before are one line up to case, the second going on with the first's sentence
    ("Είτε έτσι:", block, "είτε έτσι:", block), or the same line but for a letter that labels
    each ("Wariant A:", "Wariant B:"; "案A", "案B"); and the blocks before a question about which
    of them is wanted, the last thing after the last block ("Który wolisz?", "どちらにしますか？").
    Lines that number or order their blocks ("Step 1:", "Then:") label steps, each performed."""
    found: dict[int, C.Shown] = {}
    start = 0  # where the prose before the first of the pair begins
    for first, second in pairwise(groups):
        a, b = _line_above(first), _line_above(second)
        if (
            a is not None
            and b is not None
            and a.strip()
            and b.strip()
            and (
                C.alternative_leads(a, b)
                or C.lettered_leads(a, b)
                or _labelled_versions(first, second, a, b, prose, start)
            )
        ) or _labelled_wordings(first, second, _label_above(first), _label_above(second)):
            for group in (first, second):
                found[id(group)] = C.Shown("proposed", OFFERED, C.quote_words(_label_above(first)))
        start = first.after_at
    if len(groups) > 1:
        last = groups[-1]
        tail = prose[last.after_at : last.after_at + AFTER_SPAN]
        if len(tail) == len(prose) - last.after_at and C.asks_which(tail):
            for group in groups:
                found.setdefault(id(group), C.Shown("proposed", OFFERED, C.quote_words(tail.strip())))
    return found


def _labelled_versions(first: Group, second: Group, a: str, b: str, prose: str, start: int) -> bool:
    """Whether two calls to one tool, each under a short label of its own ("Short version →",
    "Förmlich:"), follow words that offer them as versions to choose from ("Depends what you
    want.", "I have two versions for you"): the labels name the versions, not two steps.
    ``prose[start:first.after_at]`` is what stands between the block before and the first."""
    # (the second label first: a line of prose after a block is seldom a short label)
    if not C.short_label(b) or not C.short_label(C.last_sentence(a)):
        return False
    one, two = _first_call(first.events), _first_call(second.events)
    if one is None or two is None or one.name != two.name:
        return False
    # the introduction: the label line's own sentences before it, or the non-blank line above it
    before = prose[max(start, first.after_at - 2 * C.LINE_CHARS) : first.after_at]
    lines = [line for line in before.split("\n") if line.strip()]
    intro = " ".join(lines[-2:])[-2 * C.LINE_CHARS :]
    return C.ALTERNATIVES_INTRO.search(intro) is not None


def _labelled_wordings(first: Group, second: Group, a: str, b: str) -> bool:
    """Whether two calls are two wordings of one text, each under a short label of its own
    ("Formal:" / "Casual:"): calls to one tool that hold nothing but that text, a sentence in
    each. Such a call has nothing else to set it apart (no block, no tags, no target), so its
    label can only name a version of the text, and only one of them was meant; calls with
    more to them ("Home:" / "Work:", each saved to the same block) are each performed, unless
    one's text is the other's start, the same entry short and long; and so are a search's few
    words."""
    if not C.own_labels(a, b):
        return False
    one, two = _first_call(first.events), _first_call(second.events)
    texts = _one_text_changed(one, two)
    if C.flag_label(a) or C.flag_label(b):
        # A flag names nothing a text can be told apart by: two trips under "🇩🇪:" / "🇫🇷:" are
        # two facts. Only a message's two wordings, nothing else to the calls, are one text, in
        # two languages sharing the names and numbers and no more.
        return one is not None and len(one.arguments) == 1 and texts is not None and _translated(*texts)
    if one is None or texts is None:
        # tagged apart ("work", "travel" / "travel"): the text decides alone
        texts = _text_apart(one, two)
        return texts is not None and _same_fact(*texts) and not _named_apart(a, b, *texts)
    x, y = texts
    # labels that name the versions by their length, the text under the brief one the shorter by
    # half at least ("Kurz:" "Mag Jazz" / "Ausführlich:" "Hört gern Jazz, vor allem ..."): one
    # entry told briefly and at length, however few words they share; a word for length names
    # no subject of its text ("Lange versie:" over "... langs de Vecht")
    brief = C.length_labels(a, b)
    if brief is not None:
        kept, other = (x, y) if brief == 0 else (y, x)
        return len(other.strip()) >= _AT_LENGTH * len(kept.strip())
    if _named_apart(a, b, x, y):
        return False
    if len(one.arguments) == 1:
        # a message's two wordings; a search's few words are no sentence, and share little
        sentence = C.reads_as_sentence(x), C.reads_as_sentence(y)
        return all(sentence) or (any(sentence) and _same_fact(x, y))
    if _same_fact(x, y):
        return True
    # with more to the calls, the same in both, the texts must be one the other's start, written
    # short and long ("Kurz:" "Läuft dienstags." / "Ausführlich:" "Läuft dienstags um 19 Uhr.")
    short, full = sorted((x.rstrip(" .!。！।"), y.rstrip(" .!。！।")), key=len)
    if len(short.split()) > 1 and full.startswith(short) and full[len(short) : len(short) + 1] in " ,;:，、":
        return True
    # or the long one at least twice the short one and opening on the same word, its ending
    # aside ("Vegetarian." / "Vegetarian since 2018; ...", "ঢাকায় থাকেন।" / "ঢাকার মিরপুরে থাকেন, ..."):
    # one entry told briefly and at length, where two entries would each say something new
    return len(full) >= _AT_LENGTH * len(short) and _same_opening(short, full)


_AT_LENGTH = 2
_STEM = 3  # characters two forms of one word share at least


def _named_apart(a: str, b: str, x: str, y: str) -> bool:
    """Whether a label names what its own text holds and the other's does not ("Mon:" "Monday
    6pm: piano ..." / "Tue:" "Tuesday 6pm: swimming ...", "Работа:" "Рабочий e-mail: ..." /
    "Дом:" "Личный e-mail: ..."): labels that name two subjects put two facts, however much
    their texts share (the hour, the child's name). A wording's label names its manner, which
    the text does not spell ("Formal:", "Kurz:", "丁寧版：")."""
    return _names_own(a, x, y) or _names_own(b, y, x)


_LABEL_STEM = 4  # letters of a label's word a form of it in the text begins with ("Mon" / "Monday")
_LABEL_WORD = 3


def _names_own(label: str, own: str, other: str) -> bool:
    mine, theirs = own.lower(), other.lower()
    my_words, their_words = _WORD.findall(mine), _WORD.findall(theirs)
    for word in _WORD.findall(label.lower()):
        unspaced = C.UNSPACED.search(word) is not None
        if word.isdigit() or len(word) < (2 if unspaced else _LABEL_WORD):
            continue
        if unspaced:  # (no word to begin: the label's first two characters anywhere)
            stem = word[:2]
            named, elsewhere = stem in mine, stem in theirs
        else:  # a word of the text that begins with the label's word's first letters
            stem = word[:_LABEL_STEM]
            named = any(w.startswith(stem) for w in my_words)
            elsewhere = any(w.startswith(stem) for w in their_words)
        if named and not elsewhere:
            return True
    return False


def _text_apart(first: ToolCall | None, second: ToolCall | None) -> tuple[str, str] | None:
    """The one text two calls to one tool hold differently, where all else they hold is the same
    but for lists (their tags); None otherwise."""
    found = _differing(first, second)
    if found is None:
        return None
    one, two, changed = found
    texts = [k for k in changed if isinstance(one[k], str) and isinstance(two[k], str)]
    if len(texts) != 1 or any(
        not isinstance(one[k], list) or not isinstance(two[k], list) for k in changed if k not in texts
    ):
        return None
    return one[texts[0]], two[texts[0]]


# What a text tells, as units to compare: each number; each word of four letters or more, by its
# first five (a word's forms share them: "fietsen" / "Fietst", "Réunion" / "réunion"); and in a
# script written without spaces, each two characters that stand together
_UNIT = regex.compile(r"\d+|[\p{L}\p{M}]+")
_UNIT_WORD = 4
_UNIT_STEM = 5


def _units(text: str) -> tuple[set[str], set[str]]:
    """The numbers and the other units of ``text`` (see :data:`_UNIT`)."""
    numbers: set[str] = set()
    words: set[str] = set()
    for m in _UNIT.finditer(text.lower()):
        unit = m.group()
        if unit[0].isdigit():
            numbers.add(unit.lstrip("0") or "0")
        elif C.UNSPACED.search(unit):
            words.update(unit[i : i + 2] for i in range(len(unit) - 1))
        elif len(unit) >= _UNIT_WORD:
            words.add(unit[:_UNIT_STEM])
    return numbers, words


def _translated(x: str, y: str) -> bool:
    """Whether two texts could be one message in two languages: they share a unit (a name, a
    number) and no number of one is missing from the other ("Oi Sarah, ... às 10h." / "Hi Sarah,
    ... at 10am."); "Oi Ana, chego às 18h." / "Hi John, the report is attached." are two."""
    (nx, ux), (ny, uy) = _units(x), _units(y)
    return nx == ny and bool((nx | ux) & (ny | uy)) and all(sentence for sentence in map(C.reads_as_sentence, (x, y)))


def _same_fact(x: str, y: str) -> bool:
    """Whether two texts tell one fact in two wordings ("Réunion trimestrielle ... le 18 avril." /
    "Grosse réunion avec le CA le 18 avril, à préparer !", "本日はお時間をいただき、誠にありがとう
    ございました。" / "今日はありがとう！またね〜"): they share two units at least, and at least
    half the units of the one with fewer (:func:`_units`). Numbers that differ tell two facts
    ("Dentist, 5 March, 10:00" / "Haircut, 5 March, 15:00"), and so do texts the same but for one
    value put in place of another ("Loves sushi and ramen" / "Loves green tea and ramen"),
    whatever they share besides: two facts put alike, as two entries of a profile are."""
    (nx, ux), (ny, uy) = _units(x), _units(y)
    if nx and ny and not (nx <= ny or ny <= nx):
        return False  # a wording may leave a number out, not put another in its place
    one, two = nx | ux, ny | uy
    shared = len(one & two)
    # (one unit shared is not enough, however short the text: "Bor i Uppsala." / "Pendlar från
    # Uppsala till Stockholm ..." are two facts, though they share as much as the one fact of
    # "Mag Jazz" / "Hört gern Jazz, vor allem ...")
    if shared < _SHARED or 2 * shared < min(len(one), len(two)):
        return False
    return not _one_value_apart(x, y)


_SHARED = 2
_VALUE_WORDS = 2


def _one_value_apart(x: str, y: str) -> bool:
    """Whether two texts are the same but for one value, a word or two (or a few characters where
    no spaces part the words) in each, in place of the other's."""
    head, tail = _common_ends(x, y)
    if 2 * (head + tail) < max(len(x), len(y)):
        # (words are counted only where spaces part them)
        return C.UNSPACED.search(x + y) is None and _swapped_word(x, y) is not None
    for text in (x, y):
        start, end = head, len(text) - tail
        if C.UNSPACED.search(text[start:end] or text[max(0, start - 1) : start + 1]):
            # (no word to widen the span to where no spaces part the words)
            if end - start > _VALUE_CHARS // 3:
                return False
            continue
        while start > 0 and _WORD_CHAR.match(text, start - 1):
            start -= 1
        while end < len(text) and _WORD_CHAR.match(text, end):
            end += 1
        if len(_WORD.findall(text[start:end])) > _VALUE_WORDS:
            return False
    return True


def _same_opening(short: str, full: str) -> bool:
    """Whether ``short`` and ``full`` open on one word, or on its two forms: the first word of
    each sharing all of the shorter one but its last character, and at least ``_STEM``. Where
    the short text has no space (a script written without them) it is the long one's start."""
    if not short:
        return False
    unspaced = " " not in short and C.UNSPACED.match(short) is not None
    if full.startswith(short) and (unspaced or not full[len(short)].isalnum()):
        return True
    if unspaced:
        return False
    one, two = short.split(maxsplit=1)[0], full.split(maxsplit=1)[0]
    if one.endswith((":", "：")):
        return False  # a field's name ("Birthday: 3 May"): what follows it is the entry
    one, two = one.rstrip(",;."), two.rstrip(",;:.")
    stem = min(len(one), len(two))
    if one == two:
        return True
    return stem > _STEM and one[: stem - 1] == two[: stem - 1]


def _line_above_that(prose: str, at: int) -> str:
    """The line directly above the line directly above a block that stands at ``at`` in
    ``prose`` (the block's own text is not in it): "" where a blank line stands between."""
    lines = prose[max(0, at - 2 * C.LINE_CHARS) : at].rstrip(" \t\r\n").split("\n")
    return lines[-2][-C.LINE_CHARS :] if len(lines) > 1 and lines[-2].strip() else ""


def _label_above(group: Group) -> str:
    """The non-blank line above a block, also past blank lines: a label may stand apart."""
    ctx = group.region.context
    return ctx.before if ctx is not None else ""


def _line_above(group: Group) -> str | None:
    """The line directly above a block, where one stands right above it (no blank line or
    other break between them)."""
    ctx = group.region.context
    return ctx.before if ctx is not None and not ctx.gap else None


def _as_code(raw: str) -> str:
    """A block's text as a Markdown code block, its fence longer than any backtick run in it."""
    fence = "`" * max(3, max((len(m) for m in _BACKTICKS.findall(raw)), default=0) + 1)
    text = raw.strip("\n")
    return f"{fence}\n{text}\n{fence}" + ("\n" if raw.endswith("\n") else "")


_BACKTICKS = regex.compile(r"`+")


def _reject(group: Group) -> None:
    group.events = [
        StreamEvent(
            problem=Problem(
                "invalid_json",
                "The call's JSON ended before its end marker, and more of it followed (often an unescaped \" "
                "inside a string), so nothing was called. Write it again as valid JSON, escaping quotes "
                'inside strings as \\".',
                rejected=True,
                excerpt=excerpt(group.region.raw),
            )
        )
    ]


def _fragile(block: Block) -> bool:
    """A mended block, or JSON that closed without its end marker: text right after it on its
    line means the JSON did not really end there (an unescaped quote, say)."""
    region = block.region
    return _broken(block.reading) or (region.end_marker is False and region.spec.end_required)


def _broken(reading: Reading) -> bool:
    """Whether a call-shaped region failed, or only ran after its JSON was mended."""
    for event in reading.events:
        if event.problem is not None and event.problem.rejected:
            return True
        if event.call is not None and any(n.startswith(("closed", "repaired")) for n in event.call.notes):
            return True
    return False


def _unreadable(region: Region, exc: BaseException) -> StreamEvent:
    return StreamEvent(
        problem=Problem(
            "invalid_json",
            f"The call could not be read ({type(exc).__name__}); nothing was called.",
            rejected=True,
            excerpt=excerpt(region.raw),
        )
    )
