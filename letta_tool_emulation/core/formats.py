"""Every call format the parser reads, as one table.

A :class:`FormatSpec` says how a block of its format opens and where that opener may stand,
which text makes a position worth a closer look, how the block ends, how the JSON inside it is
read, how sure a well-formed block makes us, and how the neutraliser breaks it. ``markers.py``
builds every pattern from :data:`FORMATS` and :data:`MARKERS` (the other things the scanner
obeys: reasoning tags, tool results, comments, inline code), the neutraliser's included. The
scanner and the interpreter take everything else they need from the specs, in the manner of a
parser registry: nothing outside this table spells a format out.

Adding a format is one entry here, plus its parsing hooks if the generic ones do not fit,
plus corpus lines (``tests/data/replies.txt``). Table-driven tests read every entry's
``example``: it must parse to one call of ``lookup`` with ``{"q": "x"}``, and its neutralised
form to none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from .control_tokens import TOKEN

# Where an opener may stand: anywhere in a line ("inline"), as the first non-blank text of a
# line ("line"), or as a code fence's opening line ("fence").
Anchor = Literal["inline", "line", "fence"]
# How the JSON of a block is delimited (see the scanner's bracket matcher):
#   "marked": ends with its brackets; its end marker or its own opener interrupts it, and such
#             a marker alone on a line inside a string ends it too;
#   "open":   ends with its brackets; only its own opener interrupts it;
#   "line":   JSON standing alone: a blank line or any inline opener ends it, and a string
#             holding a raw newline means it was not JSON;
#   "block":  ends with its brackets or at a blank line;
#   "fence":  the fence's content, read whole by the interpreter.
Family = Literal["marked", "open", "line", "block", "fence"]


@dataclass(frozen=True, slots=True)
class Attributes:
    """What an opener's attributes may carry (``<tool_call name="..." params='{...}'>``)."""

    name: tuple[str, ...]  # attributes that name the tool, first found wins
    params: tuple[str, ...]  # attributes that hold the arguments as JSON, first found wins
    format: str  # the format a block is reported as when an attribute names the tool


@dataclass(frozen=True, slots=True)
class FormatSpec:
    name: str  # the entry's key; also the opener's group name in the scanner's patterns
    anchor: Anchor
    # The opener, as a pattern of bounded length. A line-anchored opener may name the tool in
    # a group called "<name>_name", and may end on the bracket that begins the JSON.
    opener: str
    # Literal text at which the opener may begin: the shortest that tells it apart from prose
    # (inline), or that a line must begin with (line, fence).
    prefixes: tuple[str, ...]
    format: str  # the format its calls are usually reported as (ToolCall.format)
    # The base confidence of a well-formed block, by variant: the format it is reported as,
    # or, for a fence, the kind of fence (hooks pick the variant: attributes naming the tool,
    # a fence's info string).
    confidence: Mapping[str, float]
    family: Family
    neutralise: str  # every spelling to break in text from outside the turn, as a pattern
    example: str  # a call of the tool "lookup" with {"q": "x"} in this format
    fold: bool = False  # whether the neutraliser matches in any letter case
    literal: str = ""  # the opener's fixed text, where it has one
    end: tuple[str, ...] = ()  # literal end markers, if the format has any
    end_required: bool = False  # a block without its end marker is mended (penalised) and watched
    wraps_fence: bool = False  # the JSON may sit in a code fence between opener and end marker
    # An opener at the start of its line followed by no JSON is a failed attempt, hidden up to
    # its end marker (or the next opener) and reported; elsewhere it is prose.
    malformed: bool = False
    attributes: Attributes | None = None
    json_only: bool = False  # JSON with no marker: a call only when it names an offered tool
    display: str = ""  # how problems name the opener


# Keys that name the tool inside a call object. Formats made of JSON alone (a standalone JSON
# line, a JSON fence) count only when one of these is written as a quoted key, which is also
# what the neutraliser breaks.
NAME_KEYS = ("function", "name", "tool", "tool_name", "function_name", "recipient_name")
# What may stand between a key and its colon: blanks, and comments, which repaired JSON and
# Python literals skip.
KEY_COLON = r"(?=\s*(?:(?:/\*[^*]{0,200}\*/|//[^\n]{0,200}\n|#[^\n]{0,200}\n)\s*){0,4}:)"
QUOTED_NAME_KEY = r"""(?P<quote>["'])(?:""" + "|".join(NAME_KEYS) + r""")(?P=quote)""" + KEY_COLON

# Fence info strings (compared lowercased). A ```tool_call fence states its intent; ```json
# and bare fences hold a call only when their JSON names a known tool.
CALL_FENCE_INFOS = frozenset({"tool_call", "tool_calls", "tool_code", "tool", "function_call"})
DATA_FENCE_INFOS = frozenset({"", "json", "jsonc", "json5"})
FENCE_INFO_MAX = 60  # a longer info string names no fence kind


def fence_info(info: str) -> str:
    """An info string as the scanner compares it (the line after the fence characters, up to
    its newline): blanks of any kind around it dropped, lowercased; "\x00" if too long."""
    return info.strip().lower() if len(info) <= FENCE_INFO_MAX else "\x00"


CANONICAL = FormatSpec(
    name="canonical",
    anchor="inline",
    opener="TOOL_CALL_START",
    literal="TOOL_CALL_START",
    prefixes=("TOOL_C",),
    end=("TOOL_CALL_END",),
    end_required=True,
    wraps_fence=True,
    malformed=True,
    family="marked",
    format="canonical",
    confidence={"canonical": 1.0},
    # TOOL_RESULT (see MARKERS) covers TOOL_RESULT_END.
    neutralise=r"TOOL_CALL_START|TOOL_CALL_END",
    display="TOOL_CALL_START",
    example='TOOL_CALL_START\n{"function": "lookup", "params": {"q": "x"}}\nTOOL_CALL_END',
)
TAG = FormatSpec(
    name="tag",
    anchor="inline",
    opener=r"<tool_call(?=[\s>/])",
    literal="<tool_call",
    prefixes=("<t",),
    end=("</tool_call>",),
    end_required=True,
    wraps_fence=True,
    malformed=True,
    family="marked",
    attributes=Attributes(
        name=("name", "function", "tool"), params=("params", "parameters", "arguments", "args"), format="xml"
    ),
    format="hermes",
    confidence={"hermes": 0.95, "xml": 0.9},
    neutralise=r"</?tool_call",
    display="<tool_call>",
    example='<tool_call>\n{"name": "lookup", "arguments": {"q": "x"}}\n</tool_call>',
)
MISTRAL = FormatSpec(
    name="mistral",
    anchor="inline",
    opener=r"\[TOOL_CALLS\]",
    literal="[TOOL_CALLS]",
    prefixes=("[T",),
    family="open",
    format="mistral",
    confidence={"mistral": 0.9},
    neutralise=r"\[TOOL_CALLS\]",
    display="[TOOL_CALLS]",
    example='[TOOL_CALLS][{"name": "lookup", "arguments": {"q": "x"}}]',
)
# Llama 3.1/3.2's built-in tool format: the <|python_tag|> token, then the call as JSON
# ({"name": ..., "parameters": ...}), ended by <|eom_id|> or <|eot_id|> when the server
# passes special tokens through, or else by the reply's end.
PYTHON_TAG = FormatSpec(
    name="python_tag",
    anchor="inline",
    opener=r"<\|python_tag\|>",
    literal="<|python_tag|>",
    prefixes=("<|",),
    end=("<|eom_id|>", "<|eot_id|>"),
    malformed=True,
    family="marked",
    format="python_tag",
    confidence={"python_tag": 0.9},
    neutralise=r"<\|(?:python_tag|eom_id|eot_id)\|>",
    display="<|python_tag|>",
    example='<|python_tag|>{"name": "lookup", "parameters": {"q": "x"}}<|eom_id|>',
)
FENCE = FormatSpec(
    name="fence",
    anchor="fence",
    opener=r"`{3,}|~{3,}",
    prefixes=("`", "~"),
    family="fence",
    format="fence",
    confidence={"tool_fence": 0.85, "data_fence": 0.7},
    # Every run that may open a fence, wherever it stands, with its info string (bounded: a
    # longer one names no kind); the neutraliser breaks it when fence_info() reads it as a call
    # fence, the same test the scanner makes.
    neutralise=r"(?:`{3,}|~{3,})(?P<fence_info>[^\n]{0," + str(FENCE_INFO_MAX + 1) + "})",
    fold=True,
    display="```tool_call",
    example='```tool_call\n{"name": "lookup", "arguments": {"q": "x"}}\n```',
)
REACT = FormatSpec(
    name="react",
    anchor="line",
    opener=(
        r"Action:[ \t]{0,40}(?P<react_name>[A-Za-z_][\w.\-]{0,80})[ \t]{0,40}\r?\n"
        r"[ \t]{0,40}Action[ _]Input:[ \t\r\n]{0,40}[{\[]"
    ),
    prefixes=("Ac",),
    family="block",
    format="react",
    confidence={"react": 0.8},
    neutralise=r"Action[ _]Input:",
    display="Action Input:",
    example='Action: lookup\nAction Input: {"q": "x"}',
)
BARE = FormatSpec(
    name="bare",
    anchor="line",
    opener=r"\{[ \t\r\n]{0,40}[\"']|\[[ \t\r\n]{0,40}\{[ \t\r\n]{0,40}[\"']",
    prefixes=("{", "["),
    family="line",
    json_only=True,
    format="bare",
    confidence={"bare": 0.6},
    neutralise=QUOTED_NAME_KEY,
    display="{",
    example='{"name": "lookup", "arguments": {"q": "x"}}',
)

# The order matters only where two openers could match at one position (none do), and for the
# neutraliser's pattern (the same).
FORMATS: tuple[FormatSpec, ...] = (CANONICAL, TAG, MISTRAL, PYTHON_TAG, FENCE, REACT, BARE)
BY_NAME: Mapping[str, FormatSpec] = {spec.name: spec for spec in FORMATS}
BASE_CONFIDENCE: Mapping[str, float] = {k: v for spec in FORMATS for k, v in spec.confidence.items()}


@dataclass(frozen=True, slots=True)
class Marker:
    """Something other than a call that the scanner obeys, or that the neutraliser breaks."""

    name: str  # its group name in the scanner's patterns
    anchor: Literal["inline", "line"]
    pattern: str  # "" for markers the scanner finds by their prefix alone
    prefixes: tuple[str, ...] = ()  # literal text at which it may begin within a line
    line_prefixes: tuple[str, ...] = ()  # literal text a line must begin with for it to stand there
    fold: bool = False  # matched in any letter case
    neutralise: str = ""  # what the neutraliser breaks for it, if anything
    in_code: bool = True  # whether inline code stops at it to see if the code closes on its line


# The tokens that end a turn in the chat templates models are served with (the control tokens a
# server may leave in a reply's text, and DeepSeek's, spelled with full-width bars), and the
# headers that open a turn of someone other than the assistant: ChatML, Llama 3, Gemma, harmony,
# Phi, Granite, Command R, DeepSeek and Mistral.
_TURN_END = rf"(?:{TOKEN}|<\uff5cend\u2581of\u2581sentence\uff5c>)"
_TURN_HEADER = (
    r"(?:<\|im_start\|>[ \t]{0,4}(?:user|system|tool)|<\|start_header_id\|>(?:user|system|ipython|tool)<\|end_header_id\|>"
    r"|<start_of_turn>[ \t]{0,4}(?:user|tool)|<\|start\|>(?:user|system|developer|functions\.)|<\|(?:user|system|tool)\|>"
    r"|<\|start_of_role\|>(?:user|system|tool)|<\|(?:USER|SYSTEM)_TOKEN\|>|<\uff5cUser\uff5c>|\[INST\]|\[TOOL_RESULTS\])"
)
TURN_TOKENS = rf"{_TURN_END}(?:[ \t\r\n]{{0,8}}{_TURN_END}){{0,3}}"
TURN = rf"{TURN_TOKENS}[ \t\r\n]{{0,8}}{_TURN_HEADER}"


# The header of a harmony analysis message, with the role that may open it
HARMONY_ANALYSIS = r"(?:<\|start\|>assistant)?<\|channel\|>analysis<\|message\|>"


MARKERS: tuple[Marker, ...] = (
    # Reasoning (<think>, <thinking>, <reasoning>, <reflection>, Magistral's [THINK], and the
    # analysis channel of OpenAI's harmony format, which gpt-oss writes as raw tokens where a
    # server passes them through) opens at the start of a line, in any letter case; inside a
    # line its tag is still looked at closely (inline code stops there), and a lone closing
    # tag counts anywhere. The analysis channel has no closing tag of its own, only the end of
    # its message (markers.HARMONY_END), so nothing closes it that could stand alone.
    Marker(
        "think",
        "line",
        r"<(?:think|thinking|reasoning|reflection)>|\[THINK\]|" + HARMONY_ANALYSIS,
        prefixes=("<t", "<T", "<r", "<R", "[T", "<|"),
        line_prefixes=("<", "["),
        fold=True,
        neutralise="</?(?:think|thinking)>",
    ),
    Marker(
        "unthink",
        "inline",
        r"</(?:think|thinking|reasoning|reflection)>|\[/THINK\]",
        prefixes=("</t", "</T", "</r", "</R", "[/"),
        fold=True,
    ),
    # A tool result the model writes itself, at the start of a line.
    Marker(
        "result",
        "line",
        "TOOL_RESULT|<tool_response>|<tool_result>|Observation:",
        line_prefixes=("TOOL_R", "<", "Ob"),
        neutralise="TOOL_RESULT|<tool_response>|<tool_result>",
    ),
    # The reply going on past the end of its turn into a turn of another speaker that the model
    # writes itself, where a server passes a chat template's tokens on as text and does not stop
    # at them: the tokens that end a turn, then the header of a user's, system's or tool's turn
    # ("<|im_end|>\n<|im_start|>user", "<|eot_id|><|start_header_id|>ipython", "</s>[INST]").
    # A header alone names the template in a sentence; after an end token it opens a turn.
    Marker(
        "turn",
        "inline",
        TURN,
        prefixes=("<|", "</s", "<e", "<\uff5c"),
        in_code=False,
    ),
    Marker("comment", "inline", "<!--", prefixes=("<!",), in_code=False),
    Marker("code", "inline", "", prefixes=("`",), in_code=False),  # a backtick run: inline code
)
