"""A call counts only where the reply performs it: never under an example or format
introduction, in a quote, in a list item or a comment, inside a sentence, in reasoning, or
when proposed. The same calls on their own do run (so these tests can fail)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from letta_tool_emulation import StreamingToolCallParser, parse_tool_calls
from letta_tool_emulation.core import context as C
from letta_tool_emulation.core.validate import is_placeholder

from .corpus import load_tools

TOOLS = load_tools()

# Calls the tests write, all valid for tools.json.
call_args = st.one_of(
    st.builds(lambda sides: ("roll_dice", {"sides": sides}), st.integers(min_value=2, max_value=100)),
    st.builds(
        lambda text: ("archival_memory_insert", {"content": text}),
        # (a placeholder such as "..." is rejected by design: no valid call holds one)
        st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), min_size=1, max_size=40).filter(
            lambda text: not is_placeholder(text, "content")
        ),
    ),
    st.builds(lambda q: ("conversation_search", {"query": q}), st.sampled_from(["pizza", "Rex's birthday", "a {b}"])),
)


def _json(name: str, args: dict, style: str = "function") -> str:
    body = {"function": name, "params": args} if style == "function" else {"name": name, "arguments": args}
    return json.dumps(body, ensure_ascii=True).replace("'", "\\u0027")  # safe inside '...' attributes


def _attr(args: dict) -> str:
    return json.dumps(args).replace("'", "\\u0027")


Render = Callable[[str, dict], str]
FORMATS: dict[str, Render] = {
    "canonical": lambda n, a: f"TOOL_CALL_START\n{_json(n, a)}\nTOOL_CALL_END",
    "canonical-one-line": lambda n, a: f"TOOL_CALL_START {_json(n, a)} TOOL_CALL_END",
    "hermes": lambda n, a: f"<tool_call>\n{_json(n, a, 'name')}\n</tool_call>",
    "xml": lambda n, a: f"<tool_call name=\"{n}\" params='{_attr(a)}'/>",
    "xml-open-close": lambda n, a: f'<tool_call name="{n}">{json.dumps(a)}</tool_call>',
    "mistral": lambda n, a: f"[TOOL_CALLS][{_json(n, a, 'name')}]",
    "react": lambda n, a: f"Action: {n}\nAction Input: {json.dumps(a)}",
    "tool-fence": lambda n, a: f"```tool_call\n{_json(n, a, 'name')}\n```",
    "json-fence": lambda n, a: f"```json\n{_json(n, a)}\n```",
    "standalone-json": lambda n, a: _json(n, a, "name"),
}


def _lines(prefix: str, block: str) -> str:
    return "\n".join(prefix + line for line in block.split("\n"))


Wrap = Callable[[str], str]
CONTEXTS: dict[str, Wrap] = {
    "for-example": lambda b: f"For example:\n{b}",
    "for-example-paragraph": lambda b: f"You can also ask me to store things. For example:\n\n{b}\n\nwould do it.",
    "format-is": lambda b: f"The format is:\n{b}",
    "like-this": lambda b: f"You would write it like this:\n{b}",
    "example-heading": lambda b: f"## Example\n\nSome text about it.\n\n{b}",
    "examples-heading-deeper": lambda b: f"### Call format\n{b}\nThat is all.",
    "list-item": lambda b: f"The formats:\n- {b}",
    "numbered-item": lambda b: f"Styles:\n1. {b}",
    "html-comment": lambda b: f"Done.\n<!--\n{b}\n-->",
    "blockquote": lambda b: "You wrote:\n" + _lines("> ", b),
    "earlier-i-ran": lambda b: f"Earlier I ran this:\n{b}",
    "recited": lambda b: f"Here are my instructions:\n{b}",
    "would-make": lambda b: f"This is the call I would make:\n{b}",
    "shall-i": lambda b: f"{b}\nShall I go ahead?",
    "in-sentence": lambda b: f"Models write {b} when they call a tool.",
    "sentence-after": lambda b: f"{b} is what a call looks like.",
    "inline-code": lambda b: "Write `" + b.replace("\n", " ") + "` to call.",
    "code-block": lambda b: f"```python\n{b}\n```",
    "think": lambda b: f"<think>\n{b}\n</think>\nOK.",
    "thinking": lambda b: f"<thinking>{b}</thinking>\nOK.",
    "think-capitalised": lambda b: f"<Think>\n{b}\n</Think>\nOK.",
    "unopened-think": lambda b: f"Let me plan.\n{b}\n</think>\n\nOK.",
    "unclosed-think": lambda b: f"<think>\n{b}",
}


def _parse_both(text: str):  # type: ignore[no-untyped-def]
    one = parse_tool_calls(text, TOOLS, "stop")
    p = StreamingToolCallParser(TOOLS)
    for i in range(0, len(text), 5):
        p.feed(text[i : i + 5])
    p.close("stop")
    return one, p.result


FIXED_CALLS = [("roll_dice", {"sides": 6}), ("archival_memory_insert", {"content": 'He said "hi" {x}'})]


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_format_runs_on_its_own(fmt: str) -> None:
    for name, args in FIXED_CALLS:
        for text in (FORMATS[fmt](name, args), "Sure, doing that now.\n" + FORMATS[fmt](name, args)):
            for r in _parse_both(text):
                assert [(c.name, c.arguments) for c in r.tool_calls] == [(name, args)], (fmt, text)


@pytest.mark.parametrize("where", CONTEXTS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_no_call_runs_in_a_context_that_shows_it(fmt: str, where: str) -> None:
    if (fmt, where) == ("tool-fence", "sentence-after"):
        # "``` is what..." does not close a fence (prose follows the backticks): the block
        # stays open to the end and its content is reported as a broken attempt. Still no call.
        text = CONTEXTS[where](FORMATS[fmt]("roll_dice", {"sides": 6}))
        assert parse_tool_calls(text, TOOLS).tool_calls == []
        return
    for name, args in FIXED_CALLS:
        text = CONTEXTS[where](FORMATS[fmt](name, args))
        for r in _parse_both(text):
            assert r.tool_calls == [], (fmt, where, text)
            assert r.rejected == [], (fmt, where, text)  # nothing to retry: it was shown, not attempted


@given(fmt=st.sampled_from(sorted(FORMATS)), where=st.sampled_from(sorted(CONTEXTS)), call=call_args)
def test_random_calls_in_every_context_never_run(fmt: str, where: str, call: tuple[str, dict]) -> None:
    name, args = call
    strict = (fmt, where) != ("tool-fence", "sentence-after")  # see above
    alone = FORMATS[fmt](name, args)
    assert [(c.name, c.arguments) for c in parse_tool_calls(alone, TOOLS).tool_calls] == [(name, args)]
    text = CONTEXTS[where](alone)
    for r in _parse_both(text):
        assert r.tool_calls == [], (fmt, where, text)
        assert r.rejected == [] or not strict, (fmt, where, text)


def test_context_shown_before_a_real_call_does_not_stop_it() -> None:
    # An example earlier in the reply does not make every later call an example.
    text = (
        "For example:\n\nTOOL_CALL_START\n"
        + _json("roll_dice", {"sides": 4})
        + "\nTOOL_CALL_END\n\nNow for real, rolling your d20:\nTOOL_CALL_START\n"
        + _json("roll_dice", {"sides": 20})
        + "\nTOOL_CALL_END"
    )
    for r in _parse_both(text):
        assert [c.arguments for c in r.tool_calls] == [{"sides": 20}]
        assert [p.kind for p in r.problems] == ["example"]


def test_heading_that_is_not_about_examples_ends_the_example_section() -> None:
    text = "## Examples\n\nTOOL_CALL_START " + _json("roll_dice", {"sides": 4}) + " TOOL_CALL_END\n\n"
    text += (
        "## Your roll\n\nRolling it now.\n\nTOOL_CALL_START\n" + _json("roll_dice", {"sides": 6}) + "\nTOOL_CALL_END"
    )
    for r in _parse_both(text):
        assert [c.arguments for c in r.tool_calls] == [{"sides": 6}]


def test_a_lone_think_close_only_counts_once_and_not_after_explicit_reasoning() -> None:
    call = "TOOL_CALL_START\n" + _json("roll_dice", {"sides": 6}) + "\nTOOL_CALL_END"
    for text in (f"<think>plan</think>\n{call}\n</think>\nok", f"draft\n</think>\n{call}\n</think>\nok"):
        for r in _parse_both(text):
            assert [c.arguments for c in r.tool_calls] == [{"sides": 6}], text


def test_permission_asked_about_something_else_does_not_cancel_the_call() -> None:
    text = "TOOL_CALL_START\n" + _json("roll_dice", {"sides": 6}) + "\nTOOL_CALL_END\nWhat else can I do for you?"
    for r in _parse_both(text):
        assert [c.arguments for c in r.tool_calls] == [{"sides": 6}]


def test_an_unclosed_inline_span_does_not_hide_a_later_call_but_a_closed_one_does() -> None:
    call = "TOOL_CALL_START " + _json("roll_dice", {"sides": 6}) + " TOOL_CALL_END"
    open_span = f"Using the `dice tool: {call}"
    closed_span = f"Type ``{call}`` to roll."
    mixed = f"A ` here, then ``{call}`` is code too."
    assert [c.name for c in parse_tool_calls(open_span, TOOLS).tool_calls] == ["roll_dice"]
    assert parse_tool_calls(closed_span, TOOLS).tool_calls == []
    assert parse_tool_calls(mixed, TOOLS).tool_calls == []
    for text in (open_span, closed_span, mixed):
        one, streamed = _parse_both(text)
        assert one.tool_calls == streamed.tool_calls and one.content == streamed.content


# Introductions on the line directly before, in the languages models write: the block is shown.
INTRODUCTIONS = [
    "For example:",
    "The format is:",
    "It looks like this:",
    "Earlier I ran:",
    "You sent me this block:",
    "Option A:",
    "Por ejemplo:",
    "El formato es:",
    "Par exemple :",
    "Zum Beispiel:",
    "Das Format ist:",
    "Por exemplo:",
    "Ad esempio:",
    "Например:",
    "例如：",
    "例えば：",
    "Draft (not saved yet):",
    "If that returns nothing, I'll then search the archive:",
]
# Everyday wording with the same words elsewhere: the block is performed.
EVERYDAY = [
    "Great, I'll note the cuisines you enjoy, such as Thai and Ethiopian.",
    "Your blog lives at example.org, noted.",
    "Saving your preferred time format (24-hour).",
    "Do you want me to add your allergies as well? First, the anniversary date.",
    "For example, last week you said you liked it. Noting that now.",
    "Si quieres, te recuerdo más cosas, por ejemplo las fechas. Lo apunto.",
    "Das Format der Liste gefällt dir? Ich speichere es.",
]


@pytest.mark.parametrize("intro", INTRODUCTIONS)
def test_an_introduction_on_the_line_before_shows_the_block(intro: str) -> None:
    text = intro + "\n" + FORMATS["canonical"]("roll_dice", {"sides": 6})
    for r in _parse_both(text):
        assert r.tool_calls == [], intro
        assert r.problems and r.problems[0].words, "a decision by words names them"
        assert "```\nTOOL_CALL_START" in r.content, "the user reads it as code, not raw markers"


@pytest.mark.parametrize("prose", EVERYDAY)
def test_words_elsewhere_decide_nothing(prose: str) -> None:
    text = prose + "\n" + FORMATS["canonical"]("roll_dice", {"sides": 6})
    for r in _parse_both(text):
        assert [c.arguments for c in r.tool_calls] == [{"sides": 6}], prose
    # The same introduction two lines up, with a sentence of its own between, decides nothing.
    text = "For example:\nI'll roll it now.\n" + FORMATS["canonical"]("roll_dice", {"sides": 6})
    for r in _parse_both(text):
        assert len(r.tool_calls) == 1


@pytest.mark.parametrize(
    "after",
    [
        "Shall I go ahead with this?",
        "Does this look right? Say yes and I'll apply it.",
        "That's only what a lookup looks like; nothing was saved.",
        "Wait, scratch that: ignore the call above.",
        "^ only if the first search comes back empty.",
        "¿Te parece bien así?",
        "Soll ich das speichern?",
        "Это только пример.",
    ],
)
def test_the_lines_directly_after_can_withdraw_the_block(after: str) -> None:
    text = FORMATS["canonical"]("roll_dice", {"sides": 6}) + "\n" + after
    for r in _parse_both(text):
        assert r.tool_calls == [], after
    # A question about something else after the call leaves it performed.
    text = FORMATS["canonical"]("roll_dice", {"sides": 6}) + "\nShould I also set a reminder for next week?"
    for r in _parse_both(text):
        assert len(r.tool_calls) == 1


@pytest.mark.parametrize(
    "shape",
    [
        "Example\n=======\n{b}",
        "## Example call\n{b}",
        "### How a roll is written\n{b}",
        "<details>\n<summary>the call</summary>\n\n{b}\n\n</details>",
        "<pre>\n{b}\n</pre>",
        "| tool | call |\n|---|---|\n| roll | {b1} |",
        "(1)\n{b}",
        "a) {b1}",
        "→ {b1}",
        "[THINK]\n{b}\n[/THINK]\nOK.",
        "<reasoning>{b}</reasoning>\nOK.",
        "**Me:**\n{b}",
        "```sh\n# example\n```\n\n## Usage\n{b}",
    ],
)
def test_structure_shows_the_block(shape: str) -> None:
    b = FORMATS["canonical"]("roll_dice", {"sides": 6})
    text = shape.replace("{b1}", FORMATS["canonical-one-line"]("roll_dice", {"sides": 6})).replace("{b}", b)
    for r in _parse_both(text):
        assert r.tool_calls == [], shape


def test_a_comment_in_a_code_fence_above_the_call_is_no_heading() -> None:
    text = "```sh\n# example\nls\n```\nNoting that you use zsh.\n" + FORMATS["canonical"]("roll_dice", {"sides": 6})
    for r in _parse_both(text):
        assert len(r.tool_calls) == 1


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("**memory_insert**", True),
        ("2. memory_insert — adds a fact", True),
        ("- `memory_insert(label, new_string)`: adds a line", True),
        ("### memory_insert", True),
        ("memory_insert:", True),
        ("memory_insert - adds a line", True),
        ("memory_inserted", False),
        ("memory_insert_all:", False),
        ("I'll use memory_insert for that:", False),
        ("memory_insert is what I'll use:", False),
        ("archival_memory_search", False),
    ],
)
def test_a_label_names_the_blocks_own_tool(line: str, named: bool) -> None:
    assert C.names_tool(line, "memory_insert") is named


def test_a_listing_of_tools_runs_nothing_and_the_model_is_told() -> None:
    """Were the labelled blocks real calls after all, the model learns that they did not run."""
    from letta_tool_emulation.core.feedback import render_notes

    def block(name: str, params: dict[str, str]) -> str:
        return f"TOOL_CALL_START\n{json.dumps({'function': name, 'params': params})}\nTOOL_CALL_END"

    text = (
        "I have two tools.\n\n**memory_insert**\n" + block("memory_insert", {"label": "human", "new_string": "x"})
        + "\n\n**conversation_search**\n" + block("conversation_search", {"query": "x"})
    )  # fmt: skip
    result = parse_tool_calls(text, TOOLS)
    assert result.tool_calls == []
    note = render_notes(result.problems, [t["name"] for t in TOOLS])
    assert "memory_insert block next to '**memory_insert**'" in note and "conversation_search block" in note


def test_a_listing_whose_entries_hold_placeholders_runs_nothing() -> None:
    """An entry whose value is only a placeholder is rejected by validation; it is still an
    entry of the listing, so the other entries, with values, do not run either."""

    def block(name: str, params: dict[str, str]) -> str:
        return f"TOOL_CALL_START\n{json.dumps({'function': name, 'params': params})}\nTOOL_CALL_END"

    text = (
        "The tools I have:\n\nconversation_search\n" + block("conversation_search", {"query": "receipts"})
        + "\n\nmemory_insert\n" + block("memory_insert", {"label": "human", "new_string": "..."})
    )  # fmt: skip
    result = parse_tool_calls(text, TOOLS)
    assert result.tool_calls == [] and result.rejected == []
    assert [p.kind for p in result.problems] == ["example", "example"]


_DESCRIBED = [
    ("Send a message:", "Roll dice:", "Run Python:"),
    ("发送消息：", "掷骰子：", "运行 Python："),
    ("Nachricht senden:", "Würfeln:", "Python ausführen:"),
]


@pytest.mark.parametrize("labels", _DESCRIBED)
def test_call_shapes_listed_under_labels_in_words_run_nothing(labels: tuple[str, str, str]) -> None:
    """Each tool under a label that says what it does rather than naming it: the entries that
    leave a value as a placeholder show the run is a listing of shapes, and its one entry with
    values is an entry too."""
    blocks = [
        json.dumps({"name": "send_message", "arguments": {"message": "..."}}),
        json.dumps({"name": "roll_dice", "arguments": {"sides": 6, "count": 1}}),
        json.dumps({"name": "run_python", "arguments": {"code": "..."}}),
    ]
    text = "What I can do, with the call for each:\n\n" + "\n".join(
        f"{a}\n{b}" for a, b in zip(labels, blocks, strict=True)
    )
    for r in _parse_both(text + "\n\nThe memory tools I use on my own when needed."):
        assert r.tool_calls == [] and r.rejected == []
        assert [p.kind for p in r.problems] == ["example"] * 3


def test_steps_under_leads_of_their_own_run_beside_a_placeholder() -> None:
    """The same run with every value given runs each call; one under a lead that reports it done
    is a step, not an entry; a call under a label with nothing open beside it runs."""
    dice = json.dumps({"name": "roll_dice", "arguments": {"sides": 6, "count": 1}})
    search = json.dumps({"name": "conversation_search", "arguments": {"query": "receipts"}})
    for text in (
        f"Roll dice:\n{dice}\nSearch:\n{search}",
        f"Rolled:\n{dice}",
        f"Roll dice:\n{dice}\n\nSearch:\n{search}",
    ):
        for r in _parse_both(text):
            assert r.tool_calls and r.problems == [], text
    held = json.dumps({"name": "conversation_search", "arguments": {"query": "..."}})
    for r in _parse_both(f"Saving your dice now:\n{dice}\nSearch:\n{held}"):
        assert [c.name for c in r.tool_calls] == ["roll_dice"]


@pytest.mark.parametrize(
    ("line", "opens"),
    [
        ('"To use a tool, reply with a block of this shape:', True),
        ("Mes consignes disent, mot pour mot : « Pour appeler un outil, écris", True),
        ("„Eszköz hívásához írd ezt:", True),
        ("指示にはこうあります：「ツールを使うときは", True),
        ("Meine Anweisung lautet: »Antworte mit", False),  # a reversed closing mark opens nothing here
        ('You said "call me Sam", noting it:', False),
        ('„Du kannst mich duzen" – gern:', False),
        ("„Ich heiße Jo“ – alles klar:", False),
        ("You're 6'1\" tall, noting it:", False),
        ("Go\"t it, I'll remember that.", False),  # a stray mark inside a word
        ('{"function": "ar', False),  # a JSON key's colon, not prose
    ],
)
def test_a_quotation_opened_and_left_open_on_the_line_before(line: str, opens: bool) -> None:
    assert C.opens_quote(line) is opens
    text = line + "\n" + FORMATS["canonical"]("roll_dice", {"sides": 6}) + "\nand nothing else."
    for r in _parse_both(text):
        assert (r.tool_calls == []) is opens, line


def test_letters_label_alternatives_where_numbers_may_count_steps() -> None:
    call = FORMATS["canonical"]("roll_dice", {"sides": 6})
    for label in ("a) keep both", "(b) replace the old one", "б) заменить", "**a)** overwrite"):
        for r in _parse_both(f"Two ways.\n{label}\n{call}"):
            assert r.tool_calls == [], label
    for r in _parse_both(f"1. First, the dice.\n{call}"):
        assert len(r.tool_calls) == 1


def test_letters_of_any_script_and_ordinal_option_labels_mark_alternatives() -> None:
    call = FORMATS["hermes"]("roll_dice", {"sides": 6})
    for label in ("ক) শেষে যোগ করি", "가) 끝에 추가", "Pilihan pertama:", "Opsi kedua:"):
        for r in _parse_both(f"{label}\n{call}"):
            assert r.tool_calls == [], label
            assert [p.kind for p in r.problems] == ["example"], label


@pytest.mark.parametrize(
    "intro",
    ["There are two options:", "Deux possibilités :", "Der er to muligheder:", "Hay dos alternativas:", "两种方案："],
)
def test_items_of_a_list_introduced_as_alternatives_run_nothing(intro: str) -> None:
    first = FORMATS["canonical"]("roll_dice", {"sides": 6})
    second = FORMATS["canonical"]("roll_dice", {"sides": 20})
    for marker in ("1)", "→", "-"):
        text = f"{intro}\n{marker} the small die\n{first}\n{marker} the large die\n{second}\nWhich one?"
        for r in _parse_both(text):
            assert r.tool_calls == [], (intro, marker)
            assert [p.kind for p in r.problems] == ["proposed", "proposed"], (intro, marker)


@pytest.mark.parametrize("intro", ["Two changes:", "Zwei Einträge:", "I'll do this in order:", "两处更新："])
def test_items_of_a_list_of_counted_steps_each_run(intro: str) -> None:
    first = FORMATS["canonical"]("roll_dice", {"sides": 6})
    second = FORMATS["canonical"]("roll_dice", {"sides": 20})
    for marker in ("1)", "→", "-"):
        text = f"{intro}\n{marker} the small die\n{first}\n{marker} the large die\n{second}"
        for r in _parse_both(text):
            assert [c.arguments for c in r.tool_calls] == [{"sides": 6}, {"sides": 20}], (intro, marker)


def _block(query: str) -> str:
    return (
        "TOOL_CALL_START\n"
        + json.dumps({"function": "conversation_search", "params": {"query": query}})
        + "\nTOOL_CALL_END"
    )


def _ran(text: str) -> list[str]:
    return [c.arguments["query"] for c in parse_tool_calls(text, TOOLS).tool_calls]


def test_an_example_before_a_semicolon_introduces_nothing_but_one_after_it_does() -> None:
    assert C.last_clause("keep a list, for example on paper; I'll look it up:") == "I'll look it up:"
    assert C.last_clause("no semicolon here:") == "no semicolon here:"
    assert _ran("Keep a list, for example on paper; I'll look it up:\n" + _block("list")) == ["list"]
    assert _ran("Searching works as usual; for example:\n" + _block("list")) == []


def test_a_short_question_asking_leave_holds_the_block_one_about_something_else_does_not() -> None:
    for line in ("Mehet?", "Je le fais ?", "진행할까요?", "Shall I go ahead?", "ให้บันทึกเลยไหมครับ"):
        assert _ran(_block("pizza") + "\n" + line) == [], line
    for line in ("Tallennanko jotain muuta?", "Saved. Shall I go ahead with your calendar too?", "Anything else?"):
        assert _ran(_block("pizza") + "\n" + line) == ["pizza"], line


def test_a_check_after_the_last_of_several_calls_that_ran_asks_about_them_all() -> None:
    two = "First:\n" + _block("a") + "\nThen:\n" + _block("b") + "\n"
    assert _ran(two + "Klopt dat zo?") == ["a", "b"]
    assert _ran(_block("b") + "\nKlopt dat zo?") == []  # alone, it asks leave for the one block


def test_a_sentence_running_through_a_block_shows_it() -> None:
    assert C.runs_through("The snippet you pasted,", "is not something I store.")
    assert not C.runs_through("The snippet you pasted,", "Saved.")
    assert not C.runs_through("Here it is:", "is not something I store.")
    assert _ran("The snippet you pasted,\n" + _block("x") + "\nis not something I will run.") == []
    assert _ran("Sure, Ana,\n" + _block("x") + "\nSaved!") == ["x"]


def test_a_blank_line_between_an_alternative_and_its_block_keeps_it_an_alternative() -> None:
    text = "There are two options:\n\n1. By name\n\n" + _block("Ana") + "\n\n2. By date\n\n" + _block("May")
    assert _ran(text) == []
    steps = "I'll do two things:\n\n1. By name\n\n" + _block("Ana") + "\n\n2. By date\n\n" + _block("May")
    assert _ran(steps) == ["Ana", "May"]


def test_a_line_of_its_own_after_a_comma_ended_line_leaves_the_block_performed() -> None:
    assert not C.runs_through("Here you go,", "let me know if anything changes.")
    assert not C.runs_through("Sure, saving it now,", "and I'll remind you on Friday.")
    assert not C.runs_through("Listo,", "avísame si cambia algo.")
    assert C.runs_through("The block in your message,", "is not something I will run.")
    assert _ran("Here you go,\n" + _block("x") + "\nlet me know if anything else changes.") == ["x"]


def test_a_chatty_sentence_wrapped_round_a_call_goes_on_with_a_clause_and_the_call_runs() -> None:
    # The block is the sentence's subject only where the verb follows it; a clause of its own
    # (in any language, with any conjunction) or a question is the model going on talking.
    assert not C.runs_through("Right, adding that to your profile,", "which means I'll stop suggesting it.")
    assert not C.runs_through("Deixa eu guardar isso,", "pra eu lembrar de perguntar.")
    assert not C.runs_through("Kirjaan osoitteen ylös,", "jotta muistan sen jatkossa.")
    assert not C.runs_through("Saved it for you,", "is there anything else?")
    assert C.runs_through("Le bloc de ton message,", "n'est pas quelque chose que j'exécute.")
    assert C.runs_through("Der Block aus deiner Nachricht,", "ist nichts, was ich ausführe.")
    wrapped = "Right, adding that to your profile,\n" + _block("x") + "\nwhich means fewer late-night plans."
    assert _ran(wrapped) == ["x"]


def test_a_question_about_another_matter_asks_no_leave_for_the_block() -> None:
    for line in (
        "Want me to also note that you prefer morning slots?",
        "Кстати, хотите, чтобы я запомнил и бюджет?",
        "By the way, should I remember your favourite restaurant too?",
        "Übrigens, soll ich auch deine Adresse speichern?",
    ):
        assert _ran(_block("pizza") + "\n\n" + line) == ["pizza"], line
    for line in ("Want me to save that?", "Хотите, чтобы я это сохранил?", "Happy for me to save that?"):
        assert _ran(_block("pizza") + "\n" + line) == [], line


@pytest.mark.parametrize(
    "line",
    [
        "Just confirm and it's done.",
        "Let me know if that's OK and I'll do it.",
        "Si ifra, så legger jeg den inn.",
        "Confirmi și o aplic?",
        "Er det i orden, at jeg gør det?",
        "هل أنفّذ ذلك؟",  # the vowel mark is not in the table's words
        "اجرا کنم؟",
        "চালাব কি?",
        "Boleh saya teruskan?",
    ],
)
def test_leave_asked_in_other_words_holds_the_block(line: str) -> None:
    assert _ran(_block("pizza") + "\n" + line) == [], line


def test_leave_words_about_something_else_or_a_correction_hold_nothing() -> None:
    for line in (
        "Let me know if that's not right and I'll fix it.",
        "Er det i orden, at jeg også gemmer din fødselsdag?",
        "Si ifra hvis noe er feil, så retter jeg det.",
    ):
        assert _ran(_block("pizza") + "\n" + line) == ["pizza"], line


def test_a_quotation_opened_on_the_blocks_own_line_shows_it() -> None:
    call = '„TOOL_CALL_START {"function": "conversation_search", "params": {"query": "x"}} TOOL_CALL_END“'
    assert _ran("V e-mailu stálo:\n" + call + "\nTakový text nespouštím.") == []
    assert _ran(
        'Saving «Sam» now: TOOL_CALL_START {"function": "conversation_search", "params": {"query": "x"}} TOOL_CALL_END'
    ) == ["x"]


def test_a_closing_fence_is_no_quotation_mark() -> None:
    assert C.QUOTE_ONLY.match('"') and C.QUOTE_ONLY.match("`")
    assert not C.QUOTE_ONLY.match("```") and not C.QUOTE_ONLY.match("  ````  ")


def test_options_numbered_before_their_noun_and_a_choice_left_to_the_reader_are_alternatives() -> None:
    call = FORMATS["hermes"]("roll_dice", {"sides": 6})
    for label in ("1안:", "2안:", "A案:"):
        for r in _parse_both(f"{label}\n{call}"):
            assert r.tool_calls == [], label
    for r in _parse_both(f"1안으로 정하셨네요. 저장할게요:\n{call}"):
        assert len(r.tool_calls) == 1
    first, second = _block("today"), _block("all")
    assert _ran(f"Depending on what you want:\n→ just today\n{first}\n→ everything\n{second}") == []
    assert _ran(f"Depending on the week we add more. Two updates:\n→ one\n{first}\n→ two\n{second}") == ["today", "all"]


def _replace(old: str, new: str, label: str = "human") -> str:
    params = {"label": label, "old_content": old, "new_content": new}
    return "TOOL_CALL_START\n" + json.dumps({"function": "core_memory_replace", "params": params}) + "\nTOOL_CALL_END"


def _replaced(text: str) -> list[str]:
    return [c.arguments["new_content"] for r in _parse_both(text) for c in r.tool_calls]


def test_a_replace_written_anew_a_line_later_runs_only_the_later_one() -> None:
    # once the first ran, the second's old text would be gone: the reply meant only the second
    assert (
        _replaced(_replace("Kids: 0", "Kids: 2") + "\nYou said one, then:\n" + _replace("Kids: 0", "Kids: 1"))
        == ["Kids: 1"] * 2
    )
    # a replace of other old text, of another block, or of the text the first one wrote: each runs
    for second in (
        _replace("Pets: 0", "Pets: 1"),
        _replace("Kids: 0", "Kids: 1", "persona"),
        _replace("Kids: 2", "Kids: 3"),
    ):
        got = _replaced(_replace("Kids: 0", "Kids: 2") + "\nAnd then:\n" + second)
        assert len(got) == 4, second
    # written twice with the same new text, or a paragraph apart, they are not a rewrite
    assert len(_replaced(_replace("A", "B") + "\nAgain:\n" + _replace("A", "B"))) == 4
    assert len(_replaced(_replace("A", "B") + "\n\nNext, a new paragraph.\n\nThen:\n" + _replace("A", "C"))) == 4


def test_the_lines_after_a_block_are_read_within_its_paragraph() -> None:
    assert _ran(_block("pizza") + "\nNoted.\nShall I go ahead?") == []
    assert _ran(_block("pizza") + "\n\nShall I go ahead?") == []  # the first line may stand after a blank one
    assert _ran(_block("pizza") + "\nNoted.\n\nShall I go ahead?") == ["pizza"]
    assert _ran(_block("pizza") + "\nGespeichert.\n\nSoll ich die Nummer auch so eintragen?") == ["pizza"]


@pytest.mark.parametrize(
    "line",
    [
        "Give me a thumbs up and it goes into your archive.",
        "Sag Bescheid, dann führe ich es aus.",
        "Dammi il via e la applico.",
        "Avísame y lo guardo.",
        "你说一声我就保存。",
        "No, aspetta, ho letto male. Ecco quella giusta:",
        "Nie, pomyłka. Poprawna wersja:",
        "Vill du att jag sparar det?",
        "Tallennetaanko?",
        "Szólj, és elmentem.",
        "Haber verin, hemen kaydederim.",
        "תגיד ואשמור.",
    ],
)
def test_a_sign_asked_for_a_slip_owned_or_leave_asked_after_a_block_holds_it(line: str) -> None:
    assert _ran(_block("pizza") + "\n" + line) == [], line


def test_the_same_words_about_something_else_or_in_a_condition_hold_nothing() -> None:
    for line in (
        "Let me know if anything changes and I'll update it.",
        "Sag Bescheid, wenn du auch die Abteilung eintragen willst.",
        "Se ho capito male qualcosa, dimmelo.",
        "如果我记错了，告诉我。",
        "Vill du att jag sparar adressen också?",
        "Tallennetaanko myös uusi osoite?",
        "Szólj, ha valami változik, és frissítem.",
        "Başka bir şey olursa haber verin.",
        "תגיד אם צריך עוד משהו.",
    ):
        assert _ran(_block("pizza") + "\n" + line) == ["pizza"], line


def test_so_after_a_comma_goes_on_from_its_clause() -> None:
    # German "so:" before a block introduces an example; after a comma it is English "therefore"
    assert _ran("The dentist needs it too, so:\n" + _block("x")) == ["x"]
    assert _ran("Das sieht dann so:\n" + _block("x")) == []


@pytest.mark.parametrize(
    "line",
    ["Akkoord?", "Posso mandar?", "Сохраняю?", "Zapisać?", "Îl salvez?", "Kaydedeyim mi?", "Good to go? 👍", "Fine?"],
)
def test_a_question_of_a_word_or_two_right_after_a_block_asks_leave_for_it(line: str) -> None:
    assert _ran(_block("pizza") + "\n" + line) == [], line
    assert _ran(_block("pizza") + "\nNoted above.\n" + line) == [], line


def test_a_short_question_for_more_about_the_user_with_a_question_word_or_past_a_blank_line_holds_nothing() -> None:
    for after in (
        "\nAnything else?",
        "\nCoś jeszcze?",
        "\nAda lagi?",
        "\nYou okay?",
        "\nTu vas bien ?",
        "\nHow come?",
        "\nKamu berangkat sama siapa?",
        "\n\nCoffee tomorrow?",
        "\n\nMorgen Kino?",
    ):
        assert _ran(_block("pizza") + after) == ["pizza"], after


@pytest.mark.parametrize(
    "line",
    [
        "Vous voulez que je le note ?",
        "Обновить профиль?",
        "記録しておきましょうか？",
        "Möchtest du, dass ich es vermerke?",
    ],
)
def test_the_replys_last_question_past_a_blank_line_asking_to_keep_the_block_holds_it(line: str) -> None:
    assert _ran("You moved in March.\n\n" + _block("pizza") + "\n\n" + line) == [], line
    # not where the reply reported it done above, nor with more of the reply after it
    assert _ran("I've saved your move.\n\n" + _block("pizza") + "\n\nОбновить профиль?") == ["pizza"]
    assert _ran(_block("pizza") + "\n\n" + line + "\n\nSee you!") == ["pizza"], line


@pytest.mark.parametrize(
    "line",
    [
        "Помочь с переездом?",
        "Vous voulez que je vous trouve un hôtel ?",
        "Обновить что-нибудь ещё?",
        "Записать завтра?",
    ],
)
def test_a_closing_question_past_a_blank_line_offering_another_step_holds_nothing(line: str) -> None:
    assert _ran("You moved in March.\n\n" + _block("pizza") + "\n\n" + line) == ["pizza"], line


def test_a_bare_question_asking_leave_with_the_other_answer_after_or_holds_the_block() -> None:
    for line in (
        "이렇게 적어 두면 찾기 쉬워요. 반영해도 괜찮을까요, 아니면 날짜를 고칠까요?",
        "Je l'enregistre, ou je corrige d'abord la date ?",
        "Zapisać to, czy najpierw poprawić datę?",
    ):
        assert _ran(_block("pizza") + "\n" + line) == [], line
    for line in (
        "Okay, or shall we plan the trip now?",
        "Alright, or do you want another one?",
        "Dobrze, czy mam coś jeszcze zapisać?",
        "Anything else, or should I stop here?",
    ):
        assert _ran(_block("pizza") + "\n" + line) == ["pizza"], line


def test_a_question_and_the_step_on_its_answer_share_a_line_without_a_space_after_the_mark() -> None:
    assert _ran(_block("pizza") + "\n时间写对了吗？对的话我就存下来。") == []
    assert _ran(_block("pizza") + "\n日付は合っていますか？よろしければ保存します。") == []
    # a question about the reader, or a step besides the block, promises nothing of it
    assert _ran(_block("pizza") + "\n你是周五一早出发吗？是的话我提醒你带身份证。") == ["pizza"]
    assert _ran(_block("pizza") + "\n予約はもう済みましたか？よろしければ病院の住所も調べます。") == ["pizza"]


@pytest.mark.parametrize("line", ["Ok å lagre?", "Okej att spara?", "Ok at gemme det?"])
def test_consent_and_the_verb_of_the_step_ask_leave_for_the_block(line: str) -> None:
    assert _ran(_block("pizza") + "\n" + line) == [], line
    assert _ran(_block("pizza") + "\nSparat! Okej att jag skrev det så kort?") == ["pizza"]


def test_a_block_reported_done_first_asks_no_leave_after() -> None:
    assert _ran(_block("pizza") + "\nDone. If you'd rather I hadn't, say so and I'll undo it.") == ["pizza"]
    assert _ran(_block("pizza") + "\nSaved. If you want, I can also draft the email — shall I?") == ["pizza"]
    assert _ran(_block("pizza") + "\nIf you want, I can also draft the email — shall I?") == []


def test_a_line_naming_the_block_a_draft_or_preview_holds_it() -> None:
    for line in (
        "Das wäre mein Entwurf. Soll er so raus?",
        "(Just a preview — nothing saved yet.)",
        "Det är bara ett utkast.",
    ):
        assert _ran(_block("pizza") + "\n" + line) == [], line
    for line in ("Draft saved to your archive; ask me for it any time.", "My suggestion: set an alarm as well."):
        assert _ran(_block("pizza") + "\n" + line) == ["pizza"], line


def test_so_alone_at_a_lines_start_is_an_everyday_lead_in() -> None:
    assert _ran("Got it, you moved.\nSo:\n" + _block("x")) == ["x"]
    assert _ran("Ich mache es so:\n" + _block("x")) == []


def test_you_sent_me_needs_the_verb_to_close_the_line() -> None:
    assert _ran("Das hier hattest du mir geschickt:\n" + _block("x")) == []
    assert _ran("Du hast mir deine Nummer geschickt, ich trage sie ein:\n" + _block("x")) == ["x"]
    assert _ran("Bana gönderdiğin çağrı şu:\n" + _block("x")) == []
    assert _ran("Bana gönderdiğin yeni adresi kaydediyorum:\n" + _block("x")) == ["x"]
    assert _ran("Wkleiłeś mi wczoraj takie wywołanie:\n" + _block("x")) == []
    assert _ran("Wysłałeś mi nowy adres, zapisuję go:\n" + _block("x")) == ["x"]


def test_a_draft_in_a_clause_before_a_semicolon_speaks_of_something_else() -> None:
    assert _ran("Your speech draft is done; filing it as you asked:\n" + _block("x")) == ["x"]
    assert _ran("Here's a draft; tell me if it reads well:\n" + _block("x")) == []


def test_an_options_word_that_a_verb_follows_is_no_label() -> None:
    assert _ran("Plan A fell through, so saving plan B as your booking:\n" + _block("x")) == ["x"]
    assert _ran("Plan B, if the strike goes ahead:\n" + _block("x")) == []


def test_a_quote_closed_after_a_digit_is_closed() -> None:
    assert not C.opens_quote('You said: "my locker is 42". Saving that:')
    assert C.opens_quote('She wrote: "the TV is 55" wide and')


def test_yes_or_no_asked_or_a_mock_up_named_after_a_block_holds_it() -> None:
    for line in ("Yes or no?", "¿Sí o no?", "Ja oder nein?", "That's only a mock-up of the entry."):
        assert _ran(_block("pizza") + "\n" + line) == [], line
    assert _ran(_block("pizza") + "\nTea or coffee?") == ["pizza"]
    assert _ran(_block("pizza") + "\nDraft of your speech saved to the archive.") == ["pizza"]


def test_a_sentence_ends_after_a_closing_quotation_mark_of_any_script() -> None:
    assert C.last_sentence("Tu m'as écrit : « souviens-toi que je suis gaucher ». Voilà :") == "Voilà :"
    assert C.last_sentence("Du schreibst: „merk dir das“. Mach ich:") == "Mach ich:"
    assert C.last_sentence("Ты писал «пример». Запомню:") == "Запомню:"
    assert _ran("Ты говорил, что пишешь в формате «дата — мысль». Запомню:\n" + _block("x")) == ["x"]
    assert _ran("Ты говорил «запомни». Вот пример:\n" + _block("x")) == []


def test_a_format_spelled_out_in_a_quotation_is_no_example() -> None:
    assert _ran("Tu utilises un format du genre « JJ/MM - montant », je m'en souviendrai :\n" + _block("x")) == ["x"]
    assert _ran('You log runs in the format "date - km", so I\'ll keep that in mind:\n' + _block("x")) == ["x"]
    # a word or two may qualify the noun before the comma that leads to the quotation
    assert _ran("Lo apunto con un formato corto, tipo «tarea: detalle», como siempre:\n" + _block("x")) == ["x"]
    assert _ran("Je le garde au format court, du genre « JJ/MM », comme avant :\n" + _block("x")) == ["x"]
    assert _ran("Un formato sencillo, por ejemplo:\n" + _block("x")) == []
    assert _ran("The format for most of them, like this:\n" + _block("x")) == []
    # the quotation names what the format serves, not the format
    assert _ran("Le format pour « souviens-toi » est :\n" + _block("x")) == []
    assert _ran('The format for "remember that" is:\n' + _block("x")) == []
    assert _ran("The format looks like this:\n" + _block("x")) == []


def test_a_line_that_takes_back_the_block_above_brings_in_the_next_with_a_few_words() -> None:
    first = _block("friday") + "\n"
    assert _ran(first + "Oh no, it was Saturday. Scratch that one; like this:\n" + _block("saturday")) == ["saturday"]
    assert _ran(first + "Ah no, era sabato. Annulla quello sopra; giusto così:\n" + _block("sabato")) == ["sabato"]
    # an example's noun, or more than a few words, still present an example
    assert _ran(first + "Olvida eso; un ejemplo:\n" + _block("junio")) == []
    assert _ran(first + "Ignore that one; it would look roughly like this:\n" + _block("saturday")) == []
    # with nothing taken back, "like this:" presents an example
    assert _ran("It looks like this:\n" + _block("x")) == []


def test_a_disclaimers_words_in_a_condition_opening_the_line_after_say_nothing_of_the_block() -> None:
    then = "\nFalls sie noch nicht gespeichert ist, suche ich weiter."
    assert _ran(_block("Adresse") + then) == ["Adresse"]
    # only the condition is set aside: the disclaimer after it holds
    assert _ran(_block("x") + "\nSi te lo preguntas, no se ha guardado nada.") == []
    assert _ran(_block("x") + "\nFalls du dich fragst: nichts wurde gespeichert.") == []


@pytest.mark.parametrize(
    "line", ["\nJa?", "\nBlz?", "\n¿Lo apunto así?", "\nUložit?", "\nいい？", "\n要这样改吗？", "ได้ไหม?", "¿Te parece?"]
)
def test_consent_asked_alone_holds_the_block_also_past_a_blank_line(line: str) -> None:
    assert _ran(_block("x") + "\n" + line) == []


@pytest.mark.parametrize(
    "line", ["\nBeleza, e como foi a viagem?", "Låter det bra med fika på fredag?", "\nUložit si i tvůj rozpočet?"]
)
def test_consent_words_that_go_on_to_another_matter_hold_nothing(line: str) -> None:
    assert _ran(_block("x") + "\n" + line) == ["x"]


def test_a_question_past_a_blank_line_about_a_step_we_or_you_would_take_asks_no_leave() -> None:
    after = "\n\n¿Te parece bien si mañana repasamos el presupuesto del viaje?"
    assert _ran(_block("x") + after) == ["x"]
    assert _ran(_block("x") + "\n\nIs it okay if we go over the trip budget tomorrow?") == ["x"]
    # pointing back at the block, or in the block's own paragraph, it asks leave for it
    assert _ran(_block("x") + "\n\n¿Te parece bien si lo dejamos así?") == []
    assert _ran(_block("x") + "\n\nIs it okay if we keep it like this?") == []
    assert _ran(_block("x") + "\nIs it okay if we go over the trip budget tomorrow?") == []


@pytest.mark.parametrize(
    ("before", "reported"),
    [
        ("I've saved your dentist appointment.", True),
        ("Saving that now:", True),
        ("Got it, I've added it.", True),
        ("C'est noté !", True),
        ("Ich habe deinen Termin gespeichert.", True),
        ("Diş randevunu kaydettim.", True),
        ("好的，已经帮你记下了。", True),
        ("I haven't saved it yet:", False),  # a negation
        ("I'd save it like this:", False),  # a wish
        ("If you want, I've saved it like this:", False),  # a condition
        ("Have I saved it?", False),  # a question
        ("I've put together the note about your sister's wedding:", False),  # made, not saved
        ("Here is the entry:", False),
    ],
)
def test_a_report_that_the_block_is_made_is_read_from_the_line_before_it(before: str, reported: bool) -> None:
    assert C.reports_done(before) is reported


def test_a_short_question_after_a_block_reported_made_checks_in_and_asks_no_leave() -> None:
    for question in ("Sound good?", "Okay?", "Hungry?"):
        assert _ran("I've saved your appointment.\n" + _block("x") + "\n" + question) == ["x"], question
        assert _ran("Here is the entry:\n" + _block("x") + "\n" + question) == [], question
    # Leave asked at length still holds it: the two contradict each other, and nothing is lost in silence.
    assert _ran("I've saved your appointment.\n" + _block("x") + "\nSay the word and I'll run it.") == []


def test_a_line_alone_between_two_calls_to_one_tool_that_ends_by_correcting_takes_the_first_back() -> None:
    first = _block("x")
    fixed = _block("y")
    for line in ("Hang on, you said y. Fixing it:", "Anzi no, hai scritto y. Rifaccio:", "Ôi nhầm rồi. Sửa lại:"):
        assert _ran(first + "\n" + line + "\n" + fixed) == ["y"], line
    # a sibling's line, or a correction that does not close the line: both run
    for between in ("\nAnd the second one:\n", "\nCorrecting your surname too, as you asked:\n"):
        assert _ran(first + between + fixed) == ["x", "y"], between


@pytest.mark.parametrize("name", ["BLOCKQUOTE", "SPEAKER", "TABLE_ROW", "ITEM_OR_OPTION"])
def test_the_patterns_read_in_a_block_s_line_head_match_no_empty_head(name: str) -> None:
    # shown_before skips them for a block that opens its line: that holds only while none of
    # them can match there
    assert getattr(C, name).match("") is None


@pytest.mark.parametrize(
    ("head", "kind"), [("> ", "quoted"), ("| a | ", "example"), ("- ", "example"), ("Assistant: ", "quoted")]
)
def test_a_block_after_a_marker_on_its_own_line_is_judged_by_it(head: str, kind: str) -> None:
    shown = C.shown_before(C.Context(line_head=head))
    assert shown is not None and shown.kind == kind
    assert C.shown_before(C.Context(line_head="")) is None


def test_a_flag_alone_labels_one_message_in_two_languages() -> None:
    assert C.flag_label("🇧🇷:") and C.short_label("🇧🇷:") and not C.flag_label("🇧🇷 Brasil:")
    one = _block("Oi Sarah, a reunião é sexta às 10h.")
    two = _block("Hi Sarah, the meeting is Friday at 10am.")
    assert _ran("🇧🇷:\n" + one + "\n🇬🇧:\n" + two) == []
    # two texts that share no name or number are two messages, each performed
    three = _block("Oi Ana, chego às 18h.")
    four = _block("Hi John, the report is attached.")
    assert _ran("🇧🇷:\n" + three + "\n🇬🇧:\n" + four) == ["Oi Ana, chego às 18h.", "Hi John, the report is attached."]


@pytest.mark.parametrize(
    ("line", "asks"),
    [
        ("Simpan begini, boleh?", True),  # "Keep it like this, may I?"
        ("Simpan begini, besok?", False),  # "..., tomorrow?": no consent word in the tag
        ("Keep it like that, Anna?", False),
        ("I'll keep it like that, okay?", True),
    ],
)
def test_a_tag_in_the_block_s_paragraph_asks_leave_only_with_a_consent_word(line: str, asks: bool) -> None:
    assert C._tag_on_block(line, tight=True) is asks


def test_a_closing_question_asks_leave_in_its_last_sentence_before_or_and_the_refusal() -> None:
    assert C._leave_part("It's personal. Should I make a note of it?") == "Should I make a note of it?"
    assert C._leave_part("Should I note it, or would you rather I didn't?") == "Should I note it?"
    # an other answer that offers a step of its own is no refusal: the line asks about that too
    assert C._leave_part("Should I note it, or do you want to plan the trip first?") is None
    assert C._leave_part("Noted it.") is None
    # past a blank line, at the reply's end, with nothing reporting it done: leave asked
    assert _ran("You said it's Tuesday.\n\n" + _block("x") + "\n\nDo you want that on your calendar?") == []
    # another step, or the block reported done above it: it ran
    assert _ran("You said it's Tuesday.\n\n" + _block("x") + "\n\nDo you want a reminder for it?") == ["x"]
    assert _ran("Saved:\n" + _block("x") + "\n\nDo you want it in your calendar too?") == ["x"]


@pytest.mark.parametrize(
    ("line", "offers"),
    [
        ("If you say yes, I'll add it to your profile.", True),
        ("Si estás de acuerdo, lo cambio en tu perfil.", True),
        ("Wenn du einverstanden bist, trage ich das so ein.", True),
        ("If you move again, I'll update it.", False),  # no yes in the condition
        ("Wenn du einverstanden bist, suche ich dir Umzugsfirmen heraus.", False),  # a step of its own
        ("If you say yes, I'll add it to the calendar too.", False),  # a step besides it
    ],
)
def test_a_condition_on_the_reader_s_yes_then_the_writer_s_step_offers_the_block(line: str, offers: bool) -> None:
    assert C._on_yes(line, None) is offers
    # under a line that reports it made, the condition is on another step
    assert C._on_yes(line, "I've saved your new address.") is False


def test_labels_that_name_versions_by_their_length_say_which_is_brief() -> None:
    assert C.length_labels("Kurz:", "Ausführlich:") == 0
    assert C.length_labels("Lange versie:", "Korte versie:") == 1
    assert C.length_labels("짧게:", "길게:") == 0
    # a word for length that begins a thing's name labels that thing
    assert C.length_labels("Short-term goal:", "Long-term goal:") is None
    assert C.length_labels("Kurze Strecke:", "Lange Strecke:") is None


def test_a_thai_text_closes_as_a_sentence_on_a_polite_particle() -> None:
    assert C.reads_as_sentence("ขอบคุณสำหรับความช่วยเหลือครับ")
    assert not C.reads_as_sentence("ขอบคุณสำหรับความช่วยเหลือ")


@pytest.mark.parametrize(
    ("line", "other"),
    [
        ("If you say yes, I'll look up removal firms for you.", True),
        ("Wenn du ja sagst, suche ich dir Umzugsfirmen heraus.", True),
        ("If you say yes, I'll save it.", False),  # the block pointed back at
        ("Si tu me dis oui, je l'enregistre.", False),  # the block as an elided pronoun
        ("Si me dices que sí, la guardo.", False),  # or as a pronoun before the verb
        ("If you say yes, I'll update your profile.", False),  # or where it is kept
        ("If it rains, I'll look up a cinema.", False),  # no yes in the condition
    ],
)
def test_a_yes_asked_for_a_step_with_an_object_of_its_own_is_not_leave_for_the_block(line: str, other: bool) -> None:
    assert C._yes_for_another_step(line) is other


@pytest.mark.parametrize(
    ("line", "keeps"),
    [
        ("¿Lo guardo así?", True),
        ("Soll ich das so speichern?", True),
        ("Boleh disimpan?", True),
        ("Tu veux que je le garde en mémoire ?", True),
        ("この内容で記録してよろしいでしょうか。", True),
        ("Should I also save your sister's birthday?", False),  # something too
        ("Anything else you want me to keep?", False),  # asks for more
        ("Did I save it right?", False),  # what was done, checked
        ("Sudah disimpan. Benar begitu?", False),  # only the last sentence asks
        ("他にも保存しますか？", False),  # more, in a script without spaces
        ("Noted it.", False),  # no question
    ],
)
def test_a_question_whose_verb_keeps_the_block_asks_leave_for_it(line: str, keeps: bool) -> None:
    assert C._asks_to_keep(line) is keeps


def test_the_last_of_several_blocks_asked_for_as_one_more_waits() -> None:
    assert C._asks_to_keep("That one's health info, so I'd rather check first: okay to store it too?", too=True)
    assert C._asks_to_keep("¿Este último también lo guardo o prefieres que no?", too=True)
    assert not C._asks_to_keep("Should I also keep your sister's birthday?", too=True)  # nothing points back
    text = "Both saved:\n" + _block("a") + "\n" + _block("b") + "\nAnd this third one:\n" + _block("c")
    assert _ran(text + "\nOkay to store it too?") == ["a", "b"]
    assert _ran(text + "\nShould I also keep your sister's birthday?") == ["a", "b", "c"]


def test_a_heading_that_reports_the_step_done_titles_no_illustration() -> None:
    assert C._done_heading("## Anotado ✅")
    assert C._done_heading("### ✔ Saved to memory")
    assert not C._done_heading("## Example")
    assert not C._done_heading("## Saved entries")  # a title, no report
    assert _ran("## Saved ✅\n\n" + _block("x")) == ["x"]
    # (a topic's title alone presents nothing: the step stands in its section; an example's does)
    assert _ran("## Notes\n\n" + _block("x")) == ["x"]
    assert _ran("## Sample notes\n\n" + _block("x")) == []


def test_a_lead_whose_last_clause_reports_the_block_kept_presents_no_sent_thing() -> None:
    assert C._done_clause("Three things from your message, all saved")
    assert C._done_clause("Lo que me mandaste ayer, ya guardado")
    assert not C._done_clause("Here is what you sent me, take a look")
    assert not C._done_clause("What you sent me")


def test_ordinal_labels_number_their_blocks() -> None:
    assert not C.own_labels("First job:", "Second job:")
    assert not C.own_labels("งานแรก:", "งานที่สอง:")
    assert C.own_labels("Formal:", "Casual:")


def test_a_slip_almost_made_offers_nothing() -> None:
    assert C._slip_told("I'd have almost missed this one:")
    assert C._slip_told("Das hätte ich fast vergessen:")
    assert not C._slip_told("I'd save it like this:")
    assert not C._slip_told("I almost always save it like this:")


def test_a_bare_check_of_correctness_after_a_terse_report_asks_no_leave() -> None:
    assert C._checks_only("Riktig?") and C._checks_only("सही लिखा?") and C._checks_only("Spelled right?")
    assert not C._checks_only("Save it right away?")  # names the step
    assert C._terse_report("Lagret.") and C._terse_report("Filed away.")
    assert not C._terse_report("Not saved yet.") and not C._terse_report("Entwurf:")
    assert _ran("Zapamiętane.\n" + _block("x") + "\nDobrze?") == ["x"]
    # with nothing reported done above it, the check still holds the block
    assert _ran(_block("x") + "\nRiktig?") == []


def test_a_bare_short_question_after_a_one_word_report_asks_no_leave() -> None:
    assert C._checks_only("Jó így?", any_words=True) and C._checks_only("Sawa?", any_words=True)
    assert not C._checks_only("Jó így?")  # after a longer lead a word of correctness is still needed
    assert not C._checks_only("Sawa", any_words=True)  # asks nothing
    assert not C._checks_only("Kuhifadhi?", any_words=False)
    assert C._one_word("Mentve.") and C._one_word("Imehifadhiwa.")
    assert not C._one_word("Vorschlag.") and not C._one_word("Maybe.") and not C._one_word("Got it.")
    assert _ran("Kirjattu.\n" + _block("x") + "\nHyvä näin?") == ["x"]
    # a one-word lead that names the block a proposal still holds it
    assert _ran("Pendekezo.\n" + _block("x") + "\nSawa?") == []


def test_a_block_with_a_placeholder_for_a_value_recites_the_format() -> None:
    assert _ran("Rappel : pour un outil, j'écris exactement\n" + _block("...") + "\net rien d'autre.") == []
    assert _ran("設定ではこう書くことになっています\n" + _block("<内容>")) == []
    assert _ran("My setup tells me to emit\n" + _block("<search words>") + "\nand nothing else.") == []
    # a value that holds an ellipsis, or an address in angle brackets, is a value
    assert _ran("Searching now\n" + _block("jazz... and blues")) == ["jazz... and blues"]
    assert _ran("Searching\n" + _block("<ana@example.com>")) == ["<ana@example.com>"]
    assert _ran("Searching\n" + _block("<br>")) == ["<br>"]
    # a block with no line above it, or under a lead that hands over with a colon, is left to
    # validation, which sends the placeholder back to the model rather than running it
    for text in (_block("<search words>"), "Searching:\n" + _block("..."), "Gespeichert:\n" + _block("<Fakt>")):
        result = parse_tool_calls(text, TOOLS)
        assert result.tool_calls == [] and any("placeholder" in r.message for r in result.rejected), text


def test_told_which_to_choose_with_the_verb_of_telling_last() -> None:
    for line in (
        "কোনটা লাগবে বলুন।",
        "कौन सा चाहिए, बताइए।",
        "Hangisini istediğini söyle.",
        "Niambie ipi.",
        "告诉我你要哪个。",
    ):
        assert C.asks_which(line), line
    # which else to do, or a longer line, is another step; no word of choosing, nothing
    for line in ("Başka hangisini ekleyeyim, söyle.", "कौन सा काम बाकी है, बताइए।", "Take care.", "Quel plaisir."):
        assert not C.asks_which(line), line


_SAVE = FORMATS["canonical"]("core_memory_append", {"label": "human", "content": "Likes short lists."})


_PERSONA = '<tool_call>{"name": "core_memory_append", "arguments": {"label": "persona", "content": "A."}}</tool_call>'
_HUMAN = '<tool_call>{"name": "core_memory_append", "arguments": {"label": "human", "content": "A."}}</tool_call>'


def _only_the_fix_runs(said: str, opening: str = "OK.") -> None:
    """A save to the wrong block, ``said`` taking it back, then the right one: only that one runs."""
    for r in _parse_both(f"{opening}\n\n{_PERSONA}\n\n{said}\n\n{_HUMAN}"):
        assert [c.arguments["label"] for c in r.tool_calls] == ["human"], said


def _runs_around_save(lead: str, runs: bool, after: str = "") -> None:
    """A memory save under ``lead``, and above ``after``, runs (or not) one-shot and in chunks."""
    for r in _parse_both(f"{lead}\n{_SAVE}\n{after}".rstrip()):
        assert bool(r.tool_calls) is runs, (lead, after)


@pytest.mark.parametrize(
    ("lead", "runs"),
    [
        # the format the writer's own step keeps the thing in: how the block was written
        ("I'm keeping it in a short bullet format:", True),
        ("Lo guardo en formato de lista:", True),
        ("Je le note au format date + lieu :", True),
        ("Ich speichere sie im Format Name, Datum:", True),
        ("Сохраняю в формате списка:", True),
        ("Salvo nei miei appunti che preferisci questo formato, così non lo dimentico:", True),
        # a hedge, a showing, a comparison or another example word keeps it shown
        ("I'd keep it in a short bullet format:", False),
        ("I'm showing you the entry in the list format:", False),
        ("Lo guardo en un formato tipo:", False),
        ("I'll keep it in this format, for example:", False),
        ("No lo guardo en formato de lista:", False),
        ("The format is:", False),
    ],
)
def test_a_format_is_the_manner_of_the_writers_own_step(lead: str, runs: bool) -> None:
    _runs_around_save(lead, runs, "Anything else?")


@pytest.mark.parametrize(
    ("lead", "runs"),
    [
        # the thing the reader sent, named by a clause on its noun, is what the writer's step works on
        ("Let me look up the recipe you sent me last week:", True),
        ("I'm running it on the sample line you pasted:", True),
        ("Deixa eu buscar a receita que você me passou:", True),
        ("Je cherche la liste que tu m'as envoyée :", True),
        ("Ищу рецепт, который ты мне прислал:", True),
        # the call itself sent, shown, repeated or presented keeps the block recited
        ("Here's the call you sent me:", False),
        ("Let me repeat the block you pasted:", False),
        ("I'll run the code you pasted:", False),
        ("You sent me this:", False),
        ("Me has mandado este bloque:", False),
        ("你刚才发来的是这段：", False),
        ("আপনি আমাকে এই ব্লকটা পাঠিয়েছেন:", False),
    ],
)
def test_what_the_reader_sent_is_recited_only_when_the_lead_presents_it(lead: str, runs: bool) -> None:
    _runs_around_save(lead, runs)


def test_a_dash_opens_the_turns_of_a_recited_dialogue() -> None:
    call = FORMATS["canonical"]("roll_dice", {"sides": 6})
    for dash in ("—", "–", "-"):
        text = f"From Monday:\n\n{dash} Tú: tira un dado\n{dash} Yo: ¡Va!\n{call}\n{dash} Yo: Salió un 4."
        for r in _parse_both(text):
            assert r.tool_calls == [], dash
    # a dash that opens a lead of the writer's own, with no turns around it, leaves the call performed
    for r in _parse_both(f"— Rolling now:\n{call}"):
        assert len(r.tool_calls) == 1


def test_circled_numbers_label_alternatives_without_a_space() -> None:
    one = FORMATS["canonical"]("core_memory_append", {"label": "human", "content": "Swims on Wednesdays."})
    two = FORMATS["canonical"]("archival_memory_insert", {"content": "Swims on Wednesdays."})
    for intro in ("記録のしかたは2通りあります：", "There are two options:"):
        for r in _parse_both(f"{intro}\n\n①プロフィール\n{one}\n\n②アーカイブ\n{two}"):
            assert r.tool_calls == [], intro


def test_a_listing_introduced_as_tools_and_their_shapes_runs_nothing() -> None:
    dice = FORMATS["canonical"]("roll_dice", {"sides": 6})
    mood = FORMATS["canonical"]("set_mood", {"mood": "happy"})
    for intro in (
        "Here's what I can do with tools, with the shape each one takes:",
        "지금 쓸 수 있는 도구와 호출 형식입니다.",
    ):
        for r in _parse_both(f"{intro}\n\n1. **Roll dice**\n{dice}\n2. **Set my mood**\n{mood}\n\nPick any."):
            assert r.tool_calls == [] and [p.kind for p in r.problems] == ["example", "example"], intro
    # the same numbered labels under a lead that names no tools are steps, each performed
    for r in _parse_both(f"Two quick steps:\n\n1. **Roll dice**\n{dice}\n2. **Set my mood**\n{mood}"):
        assert len(r.tool_calls) == 2


@pytest.mark.parametrize(
    ("question", "runs"),
    [
        ("Want me to look up that restaurant you mentioned?", True),
        ("Do you want me to book that table for Friday?", True),
        ("Want me to save that note?", False),
        ("Should I do that last one too?", False),
        ("Want me to send that email?", False),
        ("Want me to do that now?", False),
    ],
)
def test_that_before_a_noun_of_its_own_asks_about_another_thing(question: str, runs: bool) -> None:
    for r in _parse_both(f"Here's the update.\n{_SAVE}\n{question}"):
        assert bool(r.tool_calls) is runs, question


@pytest.mark.parametrize(
    ("name", "kept"),
    [("TOOL_NAME", False), ("<tool>", False), ("工具名", False), ("টুলের_নাম", False), ("Werkzeugname", False),
     ("get_weather", True), ("memory_insret", True)],
)  # fmt: skip
def test_a_tool_name_that_only_stands_for_one_is_no_call(name: str, kept: bool) -> None:
    """An unknown name is kept as written so that Letta answers with the valid tools; a stand-in
    for a name (a format recited or copied) is rejected with the list instead."""
    text = "Calling it:\n" + FORMATS["canonical"](name, {"query": "x"})
    for r in _parse_both(text):
        assert [c.name for c in r.tool_calls] == ([name] if kept else [])
        assert [p.kind for p in r.problems] == ["unknown_tool"]
        assert r.problems[0].rejected is not kept


@pytest.mark.parametrize(
    ("lead", "runs"),
    [
        # a hedge or an example's words in an earlier clause are the reason; the step comes after "so"
        ("It could get long, so I'm keeping it in a compact table format:", True),
        ("You shouldn't have to type it twice, so I'm storing the list you wrote word for word:", True),
        ("You liked the example with the timetable last time, so let me pull that chat up:", True),
        ("Let me check whether you already gave me your flight number:", True),
        ("Ich rechne dir das schnell aus:", True),
        # the same without the writer's step after "so", or with a verb of looking
        ("Regex clicked with a concrete case last time, so here is an example:", False),
        ("It could get long, so I'd keep it in a compact table format:", False),
        ("Ein Eintrag sähe dann ungefähr so aus:", False),
        ("Du hast mir diesen Aufruf geschickt und willst wissen, was er tut:", False),
    ],
)
def test_the_clause_that_names_the_writers_step_decides(lead: str, runs: bool) -> None:
    _runs_around_save(lead, runs)


@pytest.mark.parametrize(
    ("after", "runs"),
    [
        ("If there's anything else you'd like me to keep, just say the word!", True),
        ("Say the word and it goes out.", False),
    ],
)
def test_say_the_word_about_anything_else_asks_no_leave(after: str, runs: bool) -> None:
    for r in _parse_both(f"Done.\n{_SAVE}\n{after}"):
        assert bool(r.tool_calls) is runs, after


_LATER_INSERT = FORMATS["canonical"]("archival_memory_insert", {"content": "Size 43"})


@pytest.mark.parametrize(
    ("lead", "gap", "runs"),
    [
        # a sentence that stops on "like" or "with" runs on into the block under it: its lead, as with a colon
        ("Si no sale nada, después la guardaría con algo como", "\n\n", False),
        ("Wenn nichts kommt, würde ich danach im Archiv nachsehen, etwa mit", "\n", False),
        ("Если ничего не найдётся, потом добавлю его чем-то вроде", "\n", False),
        ("見つからなかった場合は、たとえば", "\n", False),
        # the writer's own step told without a colon, and a list item's line, lead nothing
        ("Anotado, lo guardo con los demás datos de contacto", "\n", True),
        ("Alles klar, ich speichere das mit", "\n", True),
        ("- **Quando:** 22 de abril", "\n", True),
        ("Saved it for you", "\n\n", True),
        ("I'd be happy to save that for you", "\n", True),
        # a condition that opens the line and a word that closes it, right above the block
        ("Om den inte hittar något tar jag sedan", "\n", False),
        ("Om den inte hittar något tar jag sedan", "\n\n", True),
    ],
)
def test_a_sentence_that_runs_on_into_the_block_is_its_lead(lead: str, gap: str, runs: bool) -> None:
    for r in _parse_both(f"{lead}{gap}{_LATER_INSERT}"):
        assert bool(r.tool_calls) is runs, lead


@pytest.mark.parametrize(
    ("lead", "runs"),
    [
        ("To call a tool, write it in the following format.", False),
        ("도구를 호출하려면 다음 형식을 따르세요.", False),
        ("I will record the new billing address in the following format.", True),
        # an emoji where a capital follows ends a sentence: the example's words are in the one before
        ("Comentar no Twitter é o melhor formato de ver jogo 😂 Vou lembrar disso:", True),
        ("Bakes every Sunday, like clockwork 🍞 Noting it down:", True),
    ],
)
def test_the_following_format_and_an_emoji_between_sentences(lead: str, runs: bool) -> None:
    _runs_around_save(lead, runs)


def test_a_drafts_words_past_a_blank_line_speak_of_the_block_they_lead_into() -> None:
    draft = FORMATS["canonical"]("send_message", {"message": "Save the date: 12/10!"})
    text = (
        f"Boa! Primeiro vou anotar a data:\n\n{_SAVE}\n\n"
        "E aqui vai a mensagem pros primos — fica guardada até você aprovar, ainda não mandei nada:\n\n"
        f"{draft}\n\nQuer mudar alguma coisa?"
    )
    for r in _parse_both(text):
        assert [c.name for c in r.tool_calls] == ["core_memory_append"]


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        ("Набросал ответ. Пока **не отправлял**:", "", False),
        ("アーカイブを検索するときは、次のような形で呼び出します：", "", False),
        ("保存します：", 'label には "human" を指定します。実際に保存しておきましょうか？', False),
        ("Όταν θέλω να θυμηθώ κάτι, η κλήση μοιάζει, ας πούμε, κάπως έτσι:", "", False),
        ("Done.", "Δεν το αποθήκευσα, απλώς σου δείχνω τη μορφή.", False),
        ("Ik pas het aan.", "Oeps, dat klopt niet: je begint pas in januari.", False),
        ("Ik pas het aan.", "Die aanroep trek ik in.", False),
        ("Ich trage es ein:", "Moment, das war falsch – das gehört in deinen Block.", False),
        ("Ich trage es ein:", "Den Aufruf oben bitte verwerfen.", False),
        ("Eski bir plan çıkarsa, bu haftanın mesafelerini eklemek için ardından şunu çalıştıracağım:", "", False),
        ("ให้ใช้รูปแบบ ReAct:", "", False),
        ("Ich trage es ein:", "Moment, ich schaue gleich noch nach deinem Termin.", True),
    ],
)
def test_rows_of_the_thirty_first_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


def test_two_of_several_choices_under_numbered_lines_run_nothing() -> None:
    calm = FORMATS["canonical"]("set_mood", {"mood": "neutral"})
    bright = FORMATS["canonical"]("set_mood", {"mood": "happy"})
    text = (
        f"두 가지 중에 골라 주세요:\n\n(1) 차분하게\n{calm}\n\n(2) 밝게 ✨\n{bright}\n\n골라 주시면 그걸로 설정할게요."
    )
    for r in _parse_both(text):
        assert r.tool_calls == []


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        # polite forms of "I'd" name no conditional offer
        ("I'd be happy to save that for you:", "", True),
        ("I would be glad to record your new office address:", "", True),
        ("I'd add this:", "", False),
        # "you sent" in the Spanish perfect, on a noun the writer's step works on
        ("La apunto tal cual, con el mismo orden que me has mandado:", "", True),
        ("Aquí está el bloque que me has pasado:", "", False),
        # Czech "návrh" the writer sends now is no draft
        ("A teď ti rovnou pošlu návrh prvního týdne:", "", True),
        ("Připravil jsem návrh zprávy. Zatím ho neposílám:", "", False),
        # a check in one sentence, a question about another thing in the next
        ("Jag rättar det nu.", "Nu stämmer det. Trivs du i Lund förresten?", True),
        ("Jag rättar:", "Stämmer det nu?", True),
        ("Si tu me demandes, ça donnerait quelque chose comme ça de mon côté :", "", False),
        ("はい、XML形式にも対応しています。こんな感じです：", "", False),
        ("Dit is wat ik in mijn geheugen zou opslaan:", "", False),
        ("Ik sla het op:", "Ik doe pas iets als je akkoord geeft.", False),
        ("네, 저장할게요.", "아, 방금 쓴 건 취소할게요.", False),
        ("Så här kan det se ut när jag söker:", "", False),
        ("Kirjoitin muistiinpanon. En ole tallentanut sitä vielä:", "", False),
        ("כשאני שומר משהו, זה נראה בערך כך:", "", False),
        ("Am pregătit rularea scriptului:", "Vrei să îl rulez?", False),
        ("A dobókocka hívása ilyen formátumú:", "", False),
        ("ساختارش این است:", "", False),
        ("Done.", "این فقط شکل فراخوانی را نشان می‌دهد.", False),
        ("Saya dah sediakan kod, tapi belum jalankan lagi:", "", False),
        ("Ini kemas kini yang saya cadangkan:", "", False),
    ],
)
def test_rows_of_the_thirty_second_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("**1. `conversation_search`** — finds things we talked about.", "**2. `set_mood`** — changes my mood."),
        ("・conversation_search：会話を検索します。", "・set_mood：気分を変えます。"),
    ],
)
def test_a_listing_labelled_with_each_tools_name_runs_nothing(first: str, second: str) -> None:
    search = FORMATS["canonical"]("conversation_search", {"query": "holiday"})
    mood = FORMATS["canonical"]("set_mood", {"mood": "happy"})
    for r in _parse_both(f"Here are my tools.\n\n{first}\n\n{search}\n\n{second}\n\n{mood}"):
        assert r.tool_calls == []


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        # a sentence ends after a currency sign: the example's words are in the sentence before
        ("Un T2 à Lyon, quelque chose comme ça, pas plus de 900 €. Je note tout ça :", "", True),
        ("Thanks!", "If you'd like help with a toast later, just say the word.", True),
        ("Thanks!", "Say the word and it goes out.", False),
        # Scandinavian "se" is "look", not the Romance "if"
        ("Se bort fra kallet over, her er den riktige versjonen:", "", True),
        ("Lagrer:", "Se bort fra kallet over.", False),
        ("Ainda não enviei. Dá uma olhada:", "Só mando quando você aprovar.", False),
        ("В формате ReAct всё просто. Вот как это выглядит:", "", False),
        ("Stel dat je het wilt, dan ziet zo'n opslag er ongeveer zo uit:", "", False),
        ("Zapisuję.", "Chwila, to jest błąd — powyższego wywołania nie uruchamiam.", False),
        ("주사위는 면의 수만 정하면 돼요. 예를 들면 이렇게요:", "", False),
        ("생일을 기억해 두려면 이런 호출이 필요해요:", "", False),
        ("Mình đã viết sẵn một đoạn nhỏ:", "Bạn có muốn mình chạy đoạn này luôn không?", False),
        ("मेमोरी में कुछ सहेजने का तरीका कुछ इस तरह होता है:", "", False),
        ("Ενημερώνω:", "Όχι, ακύρωσε αυτό.", False),
        ("Tein muistiinpanon. En tallenna sitä vielä, vaan odotan vahvistustasi:", "", False),
        ("כך נראית קריאה לחיפוש בארכיון:", "", False),
        ("Am pregătit un mesaj. Nu l-am trimis încă:", "", False),
        ("Matokeo yakionyesha tarehe ya zamani, hapo ndipo nitairekebisha hivi:", "", False),
        ("He preparat això:", "Et sembla bé que ho guardi així?", False),
    ],
)
def test_rows_of_the_thirty_third_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


def test_thai_options_and_a_polish_transcript_run_nothing() -> None:
    dice = FORMATS["canonical"]("roll_dice", {"sides": 6})
    mood = FORMATS["canonical"]("set_mood", {"mood": "happy"})
    options = f"มีสองทางให้เลือกครับ\n\nทางเลือกที่ 1: ทอยลูกเต๋า\n{dice}\n\nทางเลือกที่ 2: ตั้งอารมณ์\n{mood}"
    transcript = f"**Ty:** Zapamiętaj, że mam psa.\n**Ja:** Jasne, zapisuję!\n{_SAVE}\n**Ty:** Dzięki!"
    for text in (options, transcript):
        for r in _parse_both(text):
            assert r.tool_calls == [], text


def test_the_writers_own_sent_in_hebrew_is_no_recital() -> None:
    for r in _parse_both(f"רגע, אני מחפש את המתכון ששלחתי לך:\n{_SAVE}"):
        assert len(r.tool_calls) == 1


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        # the writer's own step with only its manner after it makes the block
        ("I'll note it down as follows:", "", True),
        ("Ich dokumentiere den Versand des Angebots wie folgt:", "", True),
        ("Das speichere ich mir so ab:", "", True),
        # hedged, asked about, or a way of doing shown: still shown
        ("I could note it down as follows:", "", False),
        ("I'll note it down as follows:", "OK?", False),
        ("Ich mache es so:", "", False),
        # a format the step keeps the thing in, also as the rest is kept, or in a clause of purpose
        ("I'll add it in the same short format as the rest of your profile:", "", True),
        ("Vou salvar nesse formato no seu perfil:", "", True),
        ("Запишу в профиль в привычном формате:", "", True),
        ("Я сохраню это как список, в таком же формате, как и остальные заметки:", "", True),
        ("我按这个格式记一下：", "", True),
        ("你可以用这个格式：", "", False),
        ("Das merke ich mir, damit das Format in Zukunft passt:", "", True),
        ("For example, on a rent of 1,800 a month, here's the actual figure:", "", True),
        # what a step would be, in the main languages
        ("The search would be this:", "", False),
        ("A busca seria esta:", "", False),
        ("La consulta sería esta:", "", False),
        # leave asked by the step's own question, then what to check first
        ("Potrei eseguire questo script:", "Lo eseguo? Fammi sapere se il tasso è giusto prima che parta.", False),
        ("I could run this:", "Run it? Tell me first whether the rate is right.", False),
        ("Saving it now:", "OK? Let me know if anything changes.", True),
        (
            "Posso procurar nas notas antigas.",
            "Quer que eu faça essa busca agora? Ou prefere me passar os valores?",
            False,
        ),
        # held back, in their languages
        ("下書きです。確認いただくまで保留にしておきます。", "", False),
        ("Поки що **не зберігаю** — спочатку глянь:", "", False),
        ("Jeg har skrevet et utkast, men jeg venter med å lagre til du har sagt ja:", "", False),
        ("Wywołanie wygląda mniej więcej tak:", "", False),
        ("Salvez:", "Stai, retrag asta — nu se potrivește.", False),
        ("ذخیره می‌کنم:", "این فقط نمایش است؛ هیچ چیزی ذخیره نشد.", False),
        # a German word is no Swahili conditional ("Angebots", a-nge-...)
        ("Ich notiere die Angebotsnummer wie folgt:", "", True),
    ],
)
def test_rows_of_the_thirty_fourth_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


def test_a_plain_list_past_a_blank_line_labels_no_block() -> None:
    shopping = f"## Courses\n\n- chapon\n- **champagne** (sans oublier !)\n\n{_SAVE}\n\nJe te la renverrai."
    for r in _parse_both(shopping):
        assert len(r.tool_calls) == 1
    # (right under its item, a parenthesis still closes an alternative's label)
    for r in _parse_both(f"Two ways:\n\n1) Keep it short (faster)\n{_SAVE}"):
        assert r.tool_calls == []


def test_ways_offered_are_alternatives_and_places_taken_in_turn_are_not() -> None:
    search = FORMATS["canonical"]("archival_memory_search", {"query": "Camus"})
    ways = f"Je peux chercher de deux façons :\n\n(1) par mot-clé\n{search}\n\n(2) par tag\n{_SAVE}\n\nTu choisis ?"
    for r in _parse_both(ways):
        assert r.tool_calls == []
    places = f"Let me look in two places — first our recent chats:\n\n{search}\n\nThen my notes:\n\n{_SAVE}"
    for r in _parse_both(places):
        assert len(r.tool_calls) == 2


def test_a_recited_form_a_transcript_and_a_plan_on_a_result_run_nothing() -> None:
    mood = '{"name": "set_mood", "arguments": {"mood": "happy"}}'
    recited = f"Вот она:\n\nЧтобы вызвать инструмент, выведи JSON вида\n{mood}\nи жди результата."
    transcript = f"הנה קטע מהשיחה:\n\nמשתמש: תזכור שיש לי כלב.\nעוזר: בסדר, שומר.\n{_SAVE}\nמשתמש: תודה!"
    search = FORMATS["canonical"]("archival_memory_search", {"query": "車検"})
    plan = f"まず探します。\n\n{search}\n\n記録が見つかったら、次にこう更新するつもりです。\n\n{_SAVE}"
    for text, n in ((recited, 0), (transcript, 0), (plan, 1)):
        for r in _parse_both(text):
            assert len(r.tool_calls) == n, text


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        # the reader's drafts are no draft of the block
        ("I'll keep this in mind for every draft you send me:", "", True),
        ("Here is the draft:", "", False),
        # whether to begin something new asks no leave for the block
        ("Making that part of how I behave:", "¿Empezamos? 😊", True),
        ("Making that part of how I behave:", "On commence ?", True),
        # the Spanish conditional without its object
        ("Si no aparece, te la pregunto; en ese caso haría después:", "", False),
        ("Si no aparece, te la pregunto; en ese caso haría falta otra búsqueda, la hago:", "", True),
        # retractions in their languages
        ("Salvo:", "Ops, sono cinque. Annullo quella, non va eseguita.", False),
        ("Ukládám:", "Pardon, tohle volání beru zpět.", False),
        ("सेव कर रहा हूँ:", "माफ़ कीजिए, ऊपर वाली कॉल ग़लत थी — उसे रद्द मानिए।", False),
    ],
)
def test_rows_of_the_thirty_fifth_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


def test_a_listing_under_bold_labels_or_two_entries_to_a_label_runs_nothing() -> None:
    dice = FORMATS["canonical"]("roll_dice", {"sides": 6})
    files = FORMATS["canonical"]("list_files", {})
    bold = f"Here's what I can do right now, with the call each one uses:\n\n**Roll dice**\n{dice}\n\n**See my files**\n{files}"
    two = (
        "Hier een overzichtje:\n\n**Geheugen**\n"
        '{"name": "core_memory_append", "arguments": {"label": "human", "content": "..."}}\n'
        '{"name": "archival_memory_search", "arguments": {"query": "..."}}\n\n'
        '**Overig**\n{"name": "roll_dice", "arguments": {"sides": 6}}'
    )
    for text in (bold, two):
        for r in _parse_both(text):
            assert r.tool_calls == [], text
    # (steps under bold labels, with no listing of tools above them, are performed)
    steps = f"Done, both:\n\n**Roll dice**\n{dice}\n\n**See my files**\n{files}"
    for r in _parse_both(steps):
        assert len(r.tool_calls) == 2


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        # how any tool is called, told as an instruction: a recited prompt
        ("To call a tool, output exactly:", "", False),
        ("Para usar una herramienta escribe:", "", False),
        ("Pour appeler un outil au format XML, écris sur une ligne seule :", "", False),
        ("Um ein Werkzeug aufzurufen, schreibe:", "", False),
        ("To call the search tool for your notes, I'm running:", "", True),
        # what the writer may do, and asks about after
        ("Я могу поменять настроение:", "Не против, если я так сделаю?", False),
        ("気分を変える呼び出しの書き方はこうです：", "", False),
        ("Připravila jsem návrh, ale zatím ho neprovádím – počkám, až mi ho odsouhlasíš:", "", False),
        ("Tuỳ kết quả: nếu đã có lịch cũ thì mình mới cập nhật, kiểu như:", "", False),
    ],
)
def test_rows_of_the_thirty_sixth_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


def test_a_correction_after_a_comma_and_alternatives_under_alternativa_labels() -> None:
    wrong = FORMATS["canonical"]("core_memory_append", {"label": "human", "content": "Cane: Bruno"})
    fixed = f"Aggiorno.\n\n{wrong}\n\nNo, aspetta. Lascia perdere quella chiamata, faccio così:\n\n{_SAVE}"
    for r in _parse_both(fixed):
        assert [c.arguments["content"] for c in r.tool_calls] == ["Likes short lists."]
    dice = '{"name": "roll_dice", "arguments": {"sides": 20}}'
    options = (
        f"Posso farlo in due modi:\n\nAlternativa 1 – tiro singolo\n{dice}\n\nAlternativa 2 – con vantaggio\n{dice}"
    )
    for r in _parse_both(options):
        assert r.tool_calls == []


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        # the verb "to format" is no format; "così quando" is a purpose
        ("E vou guardar essas preferências pra próxima vez que você formatar o PC:", "", True),
        ("Lo annoto nel profilo così quando ti propongo una ricetta è già nel formato giusto:", "", True),
        ("Lo salvo così:", "OK?", False),
        # a step on what the reader sent, in the Spanish preterite
        ("Vale, sumo los gastos que me pasaste y saco la media:", "", True),
        ("Esta es la llamada que me pasaste:", "", False),
        # a later step asked about, in Russian
        ("Поищу в заметках:", "Хотите, чтобы я потом поставил напоминание?", True),
        ("Могу записать:", "Хотите, чтобы я это записал?", False),
        # the writer's "not yet", then the step now or a wish to check first
        ("Ainda não salvei seu endereço, salvando agora:", "", True),
        ("Ainda **não salvei**, só quero que você confira os números:", "", False),
        # leave asked by the step's question, and what it waits on
        ("Posso rodar um script:", "Quer que eu execute? Só confirma se a taxa é 0,99% ao mês.", False),
        ("我可以把这个日期存进长期记忆：", "可以帮你存吗？如果你不想让我记这类事情，直接说就行。", False),
        ("過去の会話を検索します：", "上のように検索してもいいですか？ 許可をいただければすぐに調べます。", False),
        # rows in their languages
        ("S'il n'y est pas, je l'enregistrerai ensuite :", "", False),
        ("No formato que eu uso, fica assim, ó:", "", False),
        ("Werkzeugaufrufe stehen in einem JSON-Block:", "", False),
        ("Du hast mir diesen Schnipsel aus deinem Projekt geschickt:", "", False),
        ("Du hast mir deine Nummer geschickt, ich trage sie ein:", "", True),
        ("Mình **chưa** áp dụng đâu:", "", False),
        ("Kurang lebih begini bentuk panggilannya:", "", False),
        ("Οι οδηγίες λένε ότι κάθε κλήση εργαλείου γράφεται ως εξής:", "", False),
        ("ঠিক এরকম:", "", False),
        ("ในพรอมต์ระบบเขียนไว้ว่า ให้เขียนตามรูปแบบนี้:", "", False),
        ("Ось що я пропоную записати:", "Зберегти саме так?", False),
        ("Dit is de aanvulling voor je profiel:", "Vind je het goed dat ik dit zo opsla? Of wil je het anders?", False),
    ],
)
def test_rows_of_the_thirty_seventh_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


def test_a_heading_that_names_the_writers_step_and_persian_letter_labels() -> None:
    for heading in ("## মনে রাখার জন্য সেভ করছি", "## मैं इसे सेव कर रहा हूँ", "## I'm saving this"):
        for r in _parse_both(f"{heading}\n\n{_SAVE}"):
            assert len(r.tool_calls) == 1, heading
    # (a heading of an example, a format or a how-to presents the block; one of the step or the
    # topic alone titles the section the step stands in)
    for heading in ("## Example", "### Call format", "## How a note is saved", "## Llamada de muestra"):
        for r in _parse_both(f"{heading}\n\n{_SAVE}"):
            assert r.tool_calls == [], heading
    for heading in (
        "## Saving it",
        "### Lưu lại để tháng sau so sánh",
        "### Guardándolo",
        "### 保存",
        "## Your budget",
    ):
        for r in _parse_both(f"{heading}\n\n{_SAVE}"):
            assert len(r.tool_calls) == 1, heading
    dice = '<tool_call>{"name": "roll_dice", "arguments": {"sides": 6}}</tool_call>'
    for r in _parse_both(f"دو راه داریم:\n\nالف) تاس:\n{dice}\n\nب) تاس دیگر:\n{dice}"):
        assert r.tool_calls == []


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        # leave asked by grammar, then the other answer offered on "or"
        ("Potrei annotarlo nel profilo:", "Ti va che lo salvi? Oppure aspettiamo la conferma?", False),
        ("我准备这样记：", "要我现在存吗？还是等你回来再说？", False),
        ("L'ho salvato:", "Lo aggiungo anche al calendario? Oppure no?", True),
        # the conditional with "like this" in Finnish and Swahili; the plain step runs
        ("Voisin kirjata sen muistiin näin:", "", False),
        ("Kirjaan sen muistiin näin:", "", True),
        ("Ningeweza kuiandika hivi:", "", False),
        ("Nitaiandika hivi:", "", True),
        # "that I" in Finnish, "let me" in Swahili: leave asked
        ("Voisin päivittää profiilisi:", "Sopiiko, että päivitän sen? En tee mitään ilman lupaa.", False),
        ("Ningeweza kusasisha wasifu wako:", "Je, unaniruhusu kusasisha? Sitafanya bila idhini yako.", False),
        # disclaimers in Italian and Arabic
        ("Ti faccio vedere come si scrive:", "È solo la forma della chiamata: non ho aggiunto niente.", False),
        ("Lo aggiungo subito:", "Non ho aggiunto niente altro.", True),
        ("هكذا تبدو العملية:", "هذا مجرد عرض لشكل الطلب، ولم يُسجّل أي شيء.", False),
        # help offered on something else after "say the word"
        ("Adding it to your notes now:", "If you want help planning the trip, just say the word.", True),
        ("Here's what I'd store:", "Just say the word.", False),
        # a step on what the reader sent, in French, Swedish and Dutch
        ("Je consulte le tableau que tu m'as envoyé :", "", True),
        ("Voici le bloc que tu m'as envoyé :", "", False),
        ("Jag sparar listan du skickade:", "", True),
        ("Ik sla het adres op dat je me stuurde:", "", True),
        # a Chinese format the writer reports noted before the colon
        ("你喜欢周报用表格格式，我记住了，以后都按这个来：", "", True),
        ("格式如下：", "", False),
        # a Thai sentence ended by its particle: only the last one leads into the block
        ("ถ้าไปญี่ปุ่นอย่าลืมซื้อบัตรรถไฟนะครับ ผมจดแผนของคุณไว้ก่อน:", "", True),
        ("นี่คือร่างข้อความค่ะ รอคุณยืนยันก่อน:", "", False),
    ],
)
def test_rows_of_the_thirty_eighth_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


def test_retractions_that_name_the_call_above_and_korean_conditions_on_a_result() -> None:
    for said in ("Vergeet de aanroep hierboven, deze klopt:", "Скасовую виклик вище, правильний такий:"):
        _only_the_fix_runs(said, "Genoteerd.")
    search = 'TOOL_CALL_START\n{"function": "archival_memory_search", "params": {"query": "여행"}}\nTOOL_CALL_END'
    text = f"먼저 찾아볼게요.\n\n{search}\n\n검색 결과에 예전 기록이 없으면 그때 새로 저장할게요:\n\n{_SAVE}"
    for r in _parse_both(text):
        assert [c.name for c in r.tool_calls] == ["archival_memory_search"]


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        # a consequence clause names the writer's step after what the reader sent
        ("You labelled every photo when you sent them, so I'm searching by that label:", "", True),
        ("You sent me this, so here it is again:", "", False),
        # the possessive after the step's verb in Spanish, whatever the format named after it
        ("Guardo tu horario tal como me lo mandaste, con el formato que usas:", "", True),
        # French sets a space before "?": the question is a sentence of its own
        ("Tu veux que je te propose des restaurants ensuite ? D'abord, je retrouve ce que tu m'avais dit :", "", True),
        # the Russian "then" and the step, on what the reader sent
        ("Потом сложу суммы по тем чекам, что вы прислали:", "", True),
        ("Вот блок, что вы прислали:", "", False),
        # Chinese and Japanese put the thing sent first, then the step
        ("你发来的这份清单我直接帮你存一下：", "", True),
        ("你发来的是这个：", "", False),
        ("いただいたコードはこちらです：", "", False),
        # examples in their languages
        ("Por dentro hago una edición de memoria del estilo de esta:", "", False),
        ("Per ricordare le cose uso un comando interno, una cosa del genere:", "", False),
        ("検索するときは、こんな感じの呼び出しを使います：", "", False),
        ("Bir kayıt çağrısı şuna benzer:", "", False),
        ("Khi bạn nhờ, mình sẽ gọi công cụ giống như thế này:", "", False),
        ("Käytännössä se menisi näin:", "", False),
        # drafts, disclaimers and leave
        ("Przygotowałem notatkę, ale jeszcze jej nie zapisuję — zerknij:", "", False),
        ("Uite planul. Deocamdată nu îl salvez:", "", False),
        ("Mohl bych si to poznamenat:", "Jde o citlivý údaj, takže se nejdřív ptám: smím? Stačí ano, nebo ne.", False),
        ("ผมเตรียมบันทึกไว้แบบนี้:", "ให้ผมบันทึกไว้เลยไหมครับ? จะได้จำไว้", False),
        ("Tallennus näyttäisi tältä:", "Huom: tämä on vain malli, mitään ei ole tallennettu.", False),
    ],
)
def test_rows_of_the_thirty_ninth_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


def test_retractions_in_chinese_ukrainian_and_swahili_and_turkish_second_examples() -> None:
    for said in (
        "等等，这条不对，标签写错了。改成这样：",
        "Ой, забудь попередній виклик, ось правильний:",
        "Samahani! Usizingatie amri iliyo juu. Hii ndiyo sahihi:",
    ):
        _only_the_fix_runs(said, "Sawa.")
    text = f"Kaydediyorum:\n\n{_PERSONA}\n\nBir arama çağrısı şuna benzer:\n\n{_HUMAN}\n\nBu sadece nasıl işlediğini görmen için."
    for r in _parse_both(text):
        assert [c.arguments["label"] for c in r.tool_calls] == ["persona"]
    # ("which way" asks the reader to choose between the options below, in Thai)
    options = f"จะให้จำไว้แบบไหนดีคะ\n\n→ แบบที่ 1: สั้น\n{_PERSONA}\n\n→ แบบที่ 2: ยาว\n{_HUMAN}\n\nเลือกได้เลยค่ะ"
    for r in _parse_both(options):
        assert r.tool_calls == []


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        # "do you mind if I", in French, Spanish and German, then more said
        ("Voici ce que je noterais :", "Ça te dérange si je le note ? Tu peux aussi me dire de le reformuler.", False),
        ("Esto es lo que guardaría:", "¿Te importa si lo guardo? También puedo cambiarlo.", False),
        ("Das würde ich notieren:", "Stört es dich, wenn ich das speichere? Sonst lasse ich es.", False),
        ("Hab's gespeichert:", "Stört es dich, wenn ich dir später noch eine Erinnerung schicke?", True),
        # the reader asked to check it first
        ("Montei a nota. Ainda não salvei, tá? Quero que você confira os valores primeiro:", "", False),
        ("I want you to double-check the time first:", "", False),
        # a lead that runs into the block on "would be"
        ("Depois da busca, o passo seguinte seria", "", False),
        ("After the search, the next step would be:", "", False),
        # a sentence of its own above the block that says the step is not taken yet
        ("I drafted the change to your profile, but I haven't applied it yet.", "", False),
        ("Preparei a alteração, mas ainda não apliquei.", "", False),
        ("I hadn't saved your birthday yet, so I'm saving it now.", "", True),
        # examples in Turkish, Hindi and Danish; the reader's wish in Turkish
        ("Bunu şöyle kaydedebilirim:", "", False),
        ("Kaydediyorum:", "", True),
        ("नतीजा आने के बाद मैं मूड बदलूँगा, कुछ ऐसे:", "", False),
        ("Sådan her ville det se ud:", "", False),
        ("Kaydedebilirim:", "Bunu hafızama eklememi ister misin?", False),
        # disclaimers in Korean and Indonesian; a Russian block the reader sent
        ("아카이브에 저장할 때는 이렇게 호출해요.", "위 내용은 보여드리려고 적은 것일 뿐이에요.", False),
        ("Begini bentuk panggilannya.", "Tapi itu cuma tampilannya saja, aku belum menyimpan apa pun.", False),
        ("Ты скинул мне такой кусок:", "", False),
    ],
)
def test_rows_of_the_fortieth_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


def test_a_thai_retraction_of_the_command_above() -> None:
    _only_the_fix_runs("ขอโทษครับ ใส่ป้ายผิด ไม่ต้องใช้คำสั่งข้างบนนะครับ อันนี้ถูกต้อง:", "ได้ครับ")


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        # help offered on anything else, however long the sentence before "say the word"
        (
            "Let me look that up:",
            "If there's anything else about the trip you'd like me to find, such as the times, just say the word.",
            True,
        ),
        # a quotation closed after a digit, then a dash and the writer's own words
        ('"remind me: dentist on the 4" — on it.', "", True),
        ('"my locker is 55" wide" — on it.', "", True),
        # "next time" is a later step; an Italian article is no pronoun
        ("Salvo tutto:", "Vuoi che la prossima volta ti consigli un ristorante?", True),
        ("Potrei salvarlo:", "Vuoi che lo salvi?", False),
        # Romanian "in a format"
        ("O salvez acum, într-un format simplu:", "", True),
        # a condition that opens the sentence governs a "but" inside it
        ("Если список найдётся, но там не будет справки, я дополню его:", "", False),
        ("If the list is there but lacks the card, I'll add it:", "", False),
        # run-on "tipo", a Portuguese look, a quoted lead closed after its colon
        ("Talvez eu também procure nas conversas de julho, com algo tipo", "", False),
        ("Ela tem essa cara aqui:", "", False),
        ('"The model emits the call after a prefix. For instance:"', "", False),
        # Japanese "in that case", an Indonesian "you sent earlier", a Hebrew disclaimer
        ("見つからなければ会話を探します。そのときは次の呼び出しを使います：", "", False),
        ("Kamu tadi mengirim blok ini ke aku:", "", False),
        ("שאלת איך זה נראה.", "רק להבהרה: זו רק המחשה. לא עדכנתי שום דבר.", False),
    ],
)
def test_rows_of_the_forty_first_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


def test_a_recited_turn_labelled_in_brackets_with_its_time_and_a_which_question_with_more_after_it() -> None:
    text = f"[usuário, 21:14] me lembra do cartão\n[assistente, 21:14] {_SAVE}\n[assistente, 21:15] Pronto!"
    for r in _parse_both(text):
        assert r.tool_calls == []
    text = (
        f"Két lehetőség van.\n\nElső lehetőség – a persona-blokkba:\n{_PERSONA}\n\nMásodik lehetőség – a profilodba:\n"
        f"{_HUMAN}\n\nMelyik legyen? Akár mindkettő is mehet."
    )
    for r in _parse_both(text):
        assert r.tool_calls == []


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        # a step offered for once the search has found something is a later step
        ("Searching our chats:", "Want me to add it to your notes once I find the name?", True),
        ("Here's the entry:", "Want me to add it to your notes?", False),
        # leads and lines in their languages
        ("Algo así, in English:", "", False),
        ("คุณส่งโค้ดนี้มาให้ฉันดู:", "", False),
        ("Ninaweza kuhifadhi hili:", "Je, niendelee na mabadiliko haya? Nipe ruhusa kwanza.", False),
    ],
)
def test_rows_of_the_forty_second_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


def test_a_malay_retraction() -> None:
    _only_the_fix_runs("Eh, maaf, tarik balik yang itu. Yang betul:", "Baik.")


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        # a consequence of two words leaves the step as near as one word does
        ('De exemplu, formatul era „Preferă cafeaua.", așa că îl actualizez acum:', "", True),
        ('De exemplu, formatul era „Preferă cafeaua.", deci îl actualizez acum:', "", True),
        ("Par exemple, le format était « X », du coup je la mets à jour :", "", True),
        ("De exemplu, formatul era acesta:", "", False),
        # a condition closing the lead after what would show
        ("This is what a call would look like if I were to save your route:", "", False),
        ("Sådan ville et kald se ud, hvis jeg skulle gemme din cykelrute:", "", False),
        ("Así se vería la llamada si la guardara:", "", False),
        ("Here's what I'm saving, if I understood you right:", "", True),
        # a title in bold or in lenticular brackets is judged as a heading is
        ("**Example call**", "", False),
        ("【工具调用格式】", "", False),
        ("**Saving it**", "", True),
        ("【保存】", "", True),
        # leads and lines in their languages
        ("Encara no l'envio, l'aguanto fins que em diguis que està bé:", "", False),
        ("T'ho guardo ara mateix:", "", True),
        ("말씀하신 기능은 내부적으로 이런 형태의 호출로 이루어져요:", "", False),
        (
            "기억해 둘게요:",
            "참고로 이건 호출이 어떻게 생겼는지 보여드린 것일 뿐이고, 실제로 저장된 내용은 아무것도 없어요.",
            False,
        ),
        ("Jeg gemmer det:", "Det er kun en visning af formatet. Intet er blevet gemt.", False),
    ],
)
def test_rows_of_the_forty_third_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


def test_a_czech_retraction_of_a_roll() -> None:
    _only_the_fix_runs("Moment, oprava — ten hod výše ruším, neplatí. Správně je to takhle:", "Házím za tebe.")


def test_a_dialogue_recited_with_dashes_and_a_listing_under_bold_titles() -> None:
    text = (
        f"Привожу фрагмент нашего диалога от 3 мая:\n\n— Запомни, что у меня аллергия.\n— Записал!\n{_SAVE}\n\nВот так."
    )
    for r in _parse_both(text):
        assert r.tool_calls == []
    # a list the writer makes, its items closing on no stop, still leads into its step
    text = f"Запишу два факта:\n— аллергия на кошек\n— день рождения 5 мая\n{_SAVE}"
    for r in _parse_both(text):
        assert len(r.tool_calls) == 1
    text = (
        "Iată uneltele pe care le am la dispoziție și cum arată fiecare apel:\n\n**Memorie**\n"
        f"{_PERSONA}\n\n**Altele**\n{_HUMAN.replace('core_memory_append', 'archival_memory_insert')}\n\nCare te interesează?"
    )
    for r in _parse_both(text):
        assert r.tool_calls == []


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        # the writer proposing it, with or without the reader named
        ("Here's what I propose to save:", "", False),
        ("voici ce que je propose d'enregistrer :", "", False),
        ("Ehdotan seuraavaa merkintää:", "", False),
        ("As you suggested, I'm saving it:", "", True),
        # a look with a few words between its verb and "like this"
        ("Căutarea în conversații arată în general așa:", "", False),
        ("Een aantekening ziet er in het algemeen zo uit:", "", False),
        # a capital letter alone that a lower-case word names ends its sentence
        ("Hay chollos en bicis de carretera en formato talla M. Me lo apunto para avisarte:", "", True),
        ("Busco una bici en formato talla M. Por ejemplo:", "", False),
        # the format the step keeps it in, under "sous", and named by a comparison a clause goes on from
        ("Je garde tes critères sous un format simple pour qu'on puisse les ajuster :", "", True),
        ("Vou guardar os detalhes num formato tipo resumo de viagem, assim fica fácil consultar:", "", True),
        ("Vou guardar num formato tipo:", "", False),
        ("この形式で保存します：", "", True),
        ("この形式で保存できます：", "", False),
        # leads and lines in their languages
        ("Nimeandaa rasimu. Sijautuma bado — nasubiri uthibitishe kwanza:", "", False),
        ("Klaar:", "Dat was alleen ter illustratie.", False),
        ("Tässä:", "Saanko tallentaa tämän? Vai haluatko ensin tarkistaa sen?", False),
        ("این فراخوانی را آماده کرده‌ام:", "اجازه می‌دهی اجرایش کنم؟", False),
    ],
)
def test_rows_of_the_forty_fourth_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


def test_a_malay_retraction_and_a_retraction_only_supposed() -> None:
    _only_the_fix_runs("Eh, silap — batalkan panggilan di atas, ini yang betul:", "Baik.")
    # "ignore" in what follows a condition of its own words is supposed, not said
    text = (
        f"Primeiro, o ataque:\n\n{_PERSONA}\n\nJá rolo o dano também — se a CA do seu paladino segurar, "
        f"a gente simplesmente ignora:\n\n{_HUMAN}"
    )
    for r in _parse_both(text):
        assert [c.arguments["label"] for c in r.tool_calls] == ["persona", "human"]
    # a condition of a word is a turn of speech: what follows it is said
    _only_the_fix_runs("Если честно, я ошибся. Правильно:", "Готово.")


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        # the same format in Turkish; "therefore" in Hindi, its step's verb last
        ("Örneğin bir liste yapmıştık; aynı formatta yazmam gerekirse önce eski notlara bakmalıyım:", "", True),
        ("उदाहरण के लिए मैं यही ध्यान रखूँगा, इसलिए इसे एक छोटे फ़ॉर्मेट में सेव कर रहा हूँ:", "", True),
        ("उदाहरण के लिए, फ़ॉर्मेट ऐसा है:", "", False),
        # a step after a short opening phrase and its comma; "os" as the object's article
        ("Enquanto isso, já guardo os horários novos que você me passou agora, que são os que valem:", "", True),
        ("Você me passou isto:", "", False),
        # something new the reader may want, before "say the word"
        ("Sent:", "If you want a run through of likely questions tonight, just say the word.", True),
        ("Here's the note:", "If you want it saved, just say the word.", False),
        # looks and forms in their languages
        ("Tá, mostrando como seria buscar entre duas datas:", "", False),
        ("Per la prossima volta puoi chiedermi una ricerca tipo questa:", "", False),
        ("Η αναζήτηση στο αρχείο γράφεται έτσι:", "", False),
        ("Çağrı şu biçimde yazılıyor:", "", False),
        ("Vil du lagre noe, ser kallet omtrent slik ut:", "", False),
        ("Ukitaka nikumbuke jambo, mwito unaonekana hivi:", "", False),
        # only a demonstration, in the main languages
        ("Feito:", "Repara que isso foi só demonstração: não fiz a busca de verdade.", False),
        ("Listo:", "Fue solo una demostración.", False),
        ("Fatto:", "Era solo una dimostrazione.", False),
        # drafts in Romanian and Malay
        ("Am pregătit mesajul, dar încă nu l-am trimis — aștept să-mi spui dacă e ok:", "", False),
        ("Saya simpan dulu, tak hantar lagi sampai awak setuju:", "", False),
    ],
)
def test_rows_of_the_forty_fifth_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


def test_a_thai_retraction_and_a_hungarian_transcript() -> None:
    _only_the_fix_runs("ขอโทษครับ พิมพ์ผิด ยกเลิกอันบนนะครับ อันนี้ที่ถูก:", "ผมปรับอารมณ์ตามนี้ครับ")
    text = f"Ez történt a múlt héten:\n\nTe: Dobj egy kockát!\nÉn:\n{_SAVE}\nRendszer: 17\n\nSzóval 17 volt."
    for r in _parse_both(text):
        assert r.tool_calls == []


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        # "I suggest" in a clause of time or condition proposes nothing
        ("Before I suggest numbers, let me pull up what you told me about your costs last time:", "", True),
        ("Here's what I suggest adding:", "", False),
        # drafts and next steps in their languages
        ("Tässä luonnos. En lähetä sitä vielä, katso ensin sopiiko sävy:", "", False),
        ("השלב הבא יהיה לסכם את ההוצאות. אני לא מריץ אותו לפני שאראה את רשימת הקבצים:", "", False),
        ("Nikiipata, hatua inayofuata itakuwa kukutumia ujumbe huu. Sitautuma kabla matokeo hayajarudi:", "", False),
        ("Hatua zangu huonekana hivi:", "", False),
        ("Imehifadhiwa:", "Hii ni kuonyesha tu muundo wa ombi; hakuna msimbo ulioendeshwa.", False),
        ("คุณส่งบล็อกนี้มาให้ผมดูครับ:", "", False),
        ("گزینه‌ی ۱: فقط یک خط کوتاه", "", False),
    ],
)
def test_rows_of_the_forty_sixth_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


def test_a_hungarian_retraction_a_closing_question_past_a_shown_block_and_a_quoted_transcript() -> None:
    _only_the_fix_runs("Bocsánat, rossz évet írtam, ezt ne vedd figyelembe. Helyesen:", "Megnézem.")
    # the reply's closing question is about the block shown between, not the search above it
    text = (
        f"Primero busco lo que hablamos:\n\n{_HUMAN}\n\nY si quieres, después podría dejar apuntado el total, "
        f'algo así:\n\n```json\n{{"name": "archival_memory_insert", "arguments": {{"content": "Total: 18.000 €"}}}}\n```'
        "\n\n¿Lo guardo también o de momento solo miramos la búsqueda?"
    )
    for r in _parse_both(text):
        assert [c.arguments.get("label") for c in r.tool_calls] == ["human"]
    text = f"पिछली बातचीत:\n\n> **आप:** मेरी बेटी का जन्मदिन 12 मार्च को है।\n> **मैं:** ज़रूर!\n{_SAVE}\n\nबस इतना।"
    for r in _parse_both(text):
        assert r.tool_calls == []


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        # another step offered for once the block's result is in
        ("Let's crunch it:", "Once we have it, do you want me to compare it against the 48-month option?", True),
        ("Here it is:", "Once you're happy, do you want me to save it?", False),
        # what was sent as the reason, in a clause that opens the sentence, before the writer's step
        ("Pero como me has pasado las notas aquí mismo, lo calculo directamente:", "", True),
        ("Como me has pasado este bloque, aquí está:", "", False),
        # which of the things sent, asked by the writer's own step
        ("Primeiro, deixa eu ver quais arquivos você já me mandou:", "", True),
        ("Déjame ver qué archivos me has mandado:", "", True),
        ("vc mandou isso aqui:", "não rodei, é meio exagero.", False),
        # prompts, drafts, disclaimers, looks and retractions in their languages
        ("Las instrucciones que tengo dicen que, cuando use una herramienta, escriba:", "", False),
        ("Hier ein Entwurf. Abgeschickt ist noch nichts:", "", False),
        ("Hier:", "Wenn du zufrieden bist, gib mir Bescheid – erst dann schicke ich es raus.", False),
        ("Przygotowałam poprawkę:", "To na razie tylko wersja robocza. Zapiszę dopiero po Twoim potwierdzeniu.", False),
        ("Arşive bir not kaydetmenin genel yapısı şu şekilde:", "", False),
        ("Arkistohaun rakenne on suunnilleen tällainen:", "", False),
        ("← الطريقة الأولى: نردان عاديان", "", False),
    ],
)
def test_rows_of_the_forty_seventh_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


def test_a_swedish_retraction_of_the_call_above() -> None:
    _only_the_fix_runs("Förlåt, fel av mig. Stryk anropet ovan. Rätt blir:", "Sparar.")


@pytest.mark.parametrize(
    ("lead", "after", "runs"),
    [
        # the writer's wish in a clause of reason after its own step hedges nothing
        ("And I'll keep a note about the move, since it's a big change and I'd like to remember it:", "", True),
        ("I'd keep a note about the move, since it's a big change:", "", False),
        ("I'll save it, since you asked, if you agree:", "", False),
        # the writer's step after "so" in Romanian, the example's words before it
        ("Nu mai știu în ce format am scris-o, dar ar trebui să fie în arhivă, așa că o caut chiar acum:", "", True),
        # told to answer yes or no; consent asked with the block's pronoun and its place
        ("Voilà :", "Just tell me yes or no.", False),
        ("Voilà :", "Dis-moi juste oui ou non.", False),
        ("Voilà ce que j'enregistrerais :", "Tu es d'accord pour que je l'ajoute à ta fiche ?", False),
        # drafts, leave and transcripts in their languages
        ("Δεν το αποθηκεύω ακόμα, περιμένω να το επιβεβαιώσεις:", "", False),
        ("Ось запис:", "\nМожна так записати? Чи ти волієш на «ви»? Без твоєї згоди нічого не змінюю.", False),
        ("Nimeandaa rasimu. Bado sijautuma:", "", False),
        ("Tady:", "Tohle bych provedl, ale nejdřív se chci zeptat. Dokud neodpovíš, nic neměním.", False),
    ],
)
def test_rows_of_the_forty_eighth_set(lead: str, after: str, runs: bool) -> None:
    _runs_around_save(lead, runs, after)


def test_a_thai_retraction_of_that_one_and_a_malay_transcript() -> None:
    _only_the_fix_runs("ขอโทษค่ะ อันบนพิมพ์ผิด ยกเลิกอันนั้นนะคะ ไม่ต้องรัน อันที่ถูกต้องคือ:", "รับทราบค่ะ")
    text = f"Ini petikan perbualan kita:\n\n**Pengguna:** tolong ingat saya vegetarian\n**Pembantu:**\n{_SAVE}\n**Alat:** OK"
    for r in _parse_both(text):
        assert r.tool_calls == []
