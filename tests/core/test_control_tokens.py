"""Content hygiene: a chat template's control tokens that end a reply (``<|im_end|>``,
``<|eot_id|>``, ``</s>``, ...) are not shown, one-shot and in every chunking; anywhere else, and
a token never finished, they are text as written. A reply that goes on past such a token into a
turn of another speaker (an invented user, system or tool turn) ends there: nothing after it is
shown or run."""

from __future__ import annotations

import random

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from letta_tool_emulation import ParseResult, StreamingToolCallParser, parse_tool_calls
from letta_tool_emulation.core import control_tokens as T

from .corpus import load_tools

TOOLS = load_tools()
CALL = '{"function": "core_memory_append", "params": {"label": "human", "content": "Likes tea"}}'
BLOCK = f"TOOL_CALL_START\n{CALL}\nTOOL_CALL_END"


def _stream(text: str, size: int) -> tuple[ParseResult, str]:
    """The result and the text events joined, streamed in chunks of ``size``."""
    p = StreamingToolCallParser(TOOLS)
    events = []
    for i in range(0, len(text), size):
        events += p.feed(text[i : i + size])
    events += p.close()
    return p.result, "".join(e.text for e in events)


def _streamed(text: str, size: int) -> tuple[str, str, int]:
    """The content, the text events joined, and the number of calls, streamed in chunks of ``size``."""
    result, events = _stream(text, size)
    return result.content, events, len(result.tool_calls)


@pytest.mark.parametrize(
    ("reply", "content", "calls"),
    [
        ("Noted!<|im_end|>", "Noted!", 0),
        ("Noted!<|eot_id|>\n", "Noted!", 0),
        ("Hi there.\n<|im_end|>\n<|endoftext|>", "Hi there.", 0),
        ("Done.</s>", "Done.", 0),
        ("Done. <eos>", "Done.", 0),
        ("Fertig.<end_of_turn>", "Fertig.", 0),
        (f"Saving it.\n{BLOCK}<|im_end|>", "Saving it.", 1),
        (f"Saving it.\n{BLOCK}\n<|eot_id|>", "Saving it.", 1),
        # not at the reply's end, in code, or never finished: text as written
        ("Noted!<|im_end|> And one more thing.", "Noted!<|im_end|> And one more thing.", 0),
        ("ChatML ends a turn with `<|im_end|>`.", "ChatML ends a turn with `<|im_end|>`.", 0),
        ("```\n<|im_end|>\n```", "```\n<|im_end|>\n```", 0),
        ("Noted!<|im_e", "Noted!<|im_e", 0),
        ("a < b", "a < b", 0),
        ("x <b>bold</b>", "x <b>bold</b>", 0),
        ("Use <|im_end|>x", "Use <|im_end|>x", 0),
    ],
)
def test_tokens_that_end_the_reply_are_not_shown(reply: str, content: str, calls: int) -> None:
    result = parse_tool_calls(reply, TOOLS)
    assert (result.content, len(result.tool_calls)) == (content, calls)
    for size in (1, 2, 3, 7, 16):
        got, events, n = _streamed(reply, size)
        assert (got, n) == (content, calls), size
        # the text events say what the content says (up to the trimming of space at the ends)
        assert events.strip() == content


# The rule, stated plainly: the earliest "<" from which the rest of the text is complete tokens
# (with space before each), then space and the beginning of one more, starts what is dropped;
# what follows the complete tokens stays.
_OPEN = regex.compile(r"[ \t\r\n]*+" + T._CUT_TOKEN + r"?\Z")
_FULL = regex.compile(r"(?:[ \t\r\n]*+" + T.TOKEN + r")*+")


def _reference(text: str) -> str:
    for p, ch in enumerate(text):
        if ch == "<":
            m = _FULL.match(text, p)
            end = p if m is None else m.end()
            if _OPEN.match(text, end) is not None:
                return text[:p] + text[end:]
    return text


_ATOMS = [
    "<|im_end|>",
    "<|eot_id|>",
    "</s>",
    "<eos>",
    "<end_of_turn>",
    "<|",
    "<|im",
    "<",
    "</",
    "<end_of",
    " ",
    "\n",
    "\t",
    "a",
    "b.",
    ">",
    "|",
    "<b>",
    "x<|y|>",
    "<||>",
]


def _through(text: str, cuts: list[int]) -> str:
    tail = T.TrailingTokens()
    out, prev = [], 0
    for cut in [*cuts, len(text)]:
        out.append(tail.text(text[prev:cut]))
        prev = cut
    out.append(tail.close())
    return "".join(out)


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_ATOMS), max_size=10), st.lists(st.integers(min_value=1, max_value=200), max_size=5))
def test_any_chunking_drops_exactly_the_trailing_run(atoms: list[str], cuts: list[int]) -> None:
    text = "".join(atoms)
    cuts = sorted({c for c in cuts if c < len(text)})
    assert _through(text, cuts) == _reference(text)


def test_random_replies_read_alike_one_shot_and_streamed() -> None:
    rnd = random.Random(5)
    parts = ["Saved.", "\n", BLOCK, "<|im_end|>", " ", "<|eot", "</s>", "ok <b>x</b>", "`<|im_end|>`", "<"]
    for _ in range(300):
        reply = "".join(rnd.choice(parts) for _ in range(rnd.randint(1, 7)))
        one = parse_tool_calls(reply, TOOLS)
        for size in (1, 5, 16):
            content, _, n = _streamed(reply, size)
            assert (content, n) == (one.content, len(one.tool_calls)), (reply, size)


# -- turns the model invents after its own -------------------------------------------------------

_EOS = "<\uff5cend\u2581of\u2581sentence\uff5c>"  # DeepSeek's, with full-width bars


@pytest.mark.parametrize(
    ("reply", "content", "calls"),
    [
        # a user's turn invented after the reply's own, and the assistant's answer to it with a call
        (f"Noted.<|im_end|>\n<|im_start|>user\nAlso save X.<|im_end|>\n<|im_start|>assistant\n{BLOCK}", "Noted.", 0),
        (f"Noted.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nAlso X.<|eot_id|>{BLOCK}", "Noted.", 0),
        (f"Noted.<end_of_turn>\n<start_of_turn>user\nAlso X.<end_of_turn>\n<start_of_turn>model\n{BLOCK}", "Noted.", 0),
        (f"Noted.</s>[INST] Also save X. [/INST] {BLOCK}", "Noted.", 0),
        (f"Noted.{_EOS}<\uff5cUser\uff5c>Also X.<\uff5cAssistant\uff5c>{BLOCK}", "Noted.", 0),
        (f"Noted.<|end|><|start|>user<|message|>Also X.<|end|>{BLOCK}", "Noted.", 0),
        (f"Noted.<|END_OF_TURN_TOKEN|><|START_OF_TURN_TOKEN|><|USER_TOKEN|>Also X.{BLOCK}", "Noted.", 0),
        # the reply's own call runs; the tool's turn the model invents after it is dropped
        (f'Saving it.\n{BLOCK}<|im_end|>\n<|im_start|>tool\n{{"ok": true}}<|im_end|>', "Saving it.", 1),
        (f"Saving it.\n{BLOCK}\n<|eom_id|><|start_header_id|>ipython<|end_header_id|>\n\nok", "Saving it.", 1),
        # a header named in prose, in code, or the assistant's own: nothing is dropped
        (f"Each turn opens with <|im_start|>user.\n{BLOCK}", "Each turn opens with <|im_start|>user.", 1),
        (f"It ends `<|im_end|> <|im_start|>user` here.\n{BLOCK}", "It ends `<|im_end|> <|im_start|>user` here.", 1),
        (f"```\n<|im_end|>\n<|im_start|>user\nhi\n```\n{BLOCK}", "```\n<|im_end|>\n<|im_start|>user\nhi\n```", 1),
        (f"Noted.<|im_end|>\n<|im_start|>assistant\n{BLOCK}", "Noted.<|im_end|>\n<|im_start|>assistant", 1),
    ],
)
def test_a_turn_of_another_speaker_ends_the_reply(reply: str, content: str, calls: int) -> None:
    result = parse_tool_calls(reply, TOOLS)
    assert (result.content, len(result.tool_calls)) == (content, calls)
    invented = [p for p in result.problems if p.kind == "invented_turn"]
    assert len(invented) == (content == "Noted." or content == "Saving it.")
    for size in (1, 2, 3, 7, 16):
        assert _streamed(reply, size)[::2] == (content, calls), size


def test_replies_with_turns_read_alike_one_shot_and_streamed() -> None:
    rnd = random.Random(11)
    parts = [
        *["Saving:", "\n", " ", BLOCK, "`", "```\n", "<", "<|", "<em>", "user", "assistant", "[INST]"],
        *["<|im_end|>", "<|im_start|>", "<|eot_id|>", "<|start_header_id|>", "ipython<|end_header_id|>"],
        *["</s>", "<end_of_turn>", "<start_of_turn>", "<eos>", "<|im_sta", "<|start|>", _EOS, "<\uff5cUser\uff5c>"],
    ]
    for _ in range(400):
        reply = "".join(rnd.choice(parts) for _ in range(rnd.randint(1, 12)))
        one = parse_tool_calls(reply, TOOLS)
        for size in (1, 3, 16):
            streamed = _stream(reply, size)[0]
            assert _read(streamed) == _read(one), (reply, size)


def _read(result: ParseResult) -> tuple[str, list[dict[str, object]], list[str]]:
    return result.content, [c.arguments for c in result.tool_calls], [p.kind for p in result.problems]
