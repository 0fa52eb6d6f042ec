"""Parser time on pathological replies: every pattern that once made it slow, at two sizes.

Each pattern is repeated to 64 KB and to 512 KB and parsed one-shot and in 16-character
chunks. Printed: MB/s at each size and the ratio of time per MB between the two sizes
(1.0 is perfectly linear; a quadratic parser would show 8). Times are CPU time of this
process, best of a few runs, which a busy shared machine disturbs less than wall time.
Asserts nothing. Targets (issue 17): ratio <= 1.5 for every pattern, and >= 5 MB/s one-shot,
>= 2 MB/s in 16-character chunks.

    python3 dev.py bench parser_worst_case
    COMPARE_WITH=DIR python3 dev.py bench parser_worst_case [NAME ...]
                    (this checkout against the ``letta_tool_emulation`` in DIR at 64 KB, in
                    alternating rounds of CPU time: see ``_compare.py``; COMPARE_ROUNDS=15)
"""

from __future__ import annotations

import gc
import json
import sys
import time
from collections.abc import Callable

from _compare import WORKER, compare, serve, wanted

import letta_tool_emulation
from letta_tool_emulation import StreamingToolCallParser, parse_tool_calls

TOOLS = [
    {
        "name": "save",
        "description": "Store a text.",
        "parameters": {"type": "object", "properties": {"content": {"type": "string"}}, "required": ["content"]},
    }
]
SMALL, LARGE = 64 * 1024, 512 * 1024
CALL = json.dumps({"function": "save", "params": {"content": "a note"}})


def repeat(unit: str, head: str = "", tail: str = "") -> Callable[[int], str]:
    """``head`` + ``unit`` repeated + ``tail``, to about ``size`` characters."""

    def make(size: int) -> str:
        return head + unit * max(1, (size - len(head) - len(tail)) // len(unit)) + tail

    return make


PATTERNS: dict[str, Callable[[int], str]] = {
    # runs the scanner must consume without re-reading them
    "spaces on one line": repeat(" ", "Hello ", " TOOL_CALL_START"),
    "spaces at a line start": repeat(" ", "Hi\n", "TOOL_CALL_START"),
    "backticks": repeat("`"),
    "backticks at a line start": repeat("`", "\n"),
    "tildes at a line start": repeat("~", "\n"),
    "fence openers": repeat("```json\n"),
    "fence lines": repeat("```\n"),
    "blank lines in a data fence": repeat("\n", "```json\n"),
    "backtick runs of every length": lambda size: " ".join("`" * (i % 97 + 1) + " TOOL_C" for i in range(size // 60)),
    "inline code holding openers": repeat("`a TOOL_CALL_START b` ", "Say "),
    # openers that never finish
    "<tool_call without >": repeat("<tool_call "),
    "<tool_call with an open quote": repeat("x", '<tool_call name="'),
    "[TOOL_CALLS] runs": repeat("[TOOL_CALLS]"),
    "[TOOL_CALLS][ runs": repeat("[TOOL_CALLS]["),
    "start markers": repeat("TOOL_CALL_START\n"),
    "TOOL_ prefixes": repeat("TOOL_"),
    "<think> openers": repeat("\n<think>"),
    "lone </think> closers": repeat("a</think>\n"),
    "HTML comment openers": repeat("<!-- "),
    "Action lines": repeat("Action: save\n"),
    "brackets in prose": repeat("[[{{"),
    "JSON lines that are not calls": repeat('{"a": 1, "b": [2, 3]}\n'),
    "open JSON lines": repeat('{"a": "b\n'),
    # a trigger's first characters, again and again: each is looked at closely and let go
    "newline-tilde": repeat("\n~"),
    "newline-bracket": repeat("\n["),
    "newline-brace": repeat("\n{"),
    "newline-angle": repeat("\n<"),
    "newline-Ac": repeat("\nAc"),
    "newline-Ob": repeat("\nOb"),
    "newline-TOOL_R": repeat("\nTOOL_R"),
    "newline-hash": repeat("\n#"),
    "newline-gt": repeat("\n>"),
    "newline-dash": repeat("\n- "),
    "newline-backtick-a": repeat("\n`a"),
    "backtick-a": repeat("`a"),
    "backtick-a-space": repeat("`a "),
    "<t": repeat("<t"),
    "</t": repeat("</t"),
    "[T": repeat("[T"),
    "<!": repeat("<!"),
    "<|": repeat("<|"),
    "control tokens ending the reply": repeat("<|im_end|>", "Noted."),
    "control tokens and space": repeat("<|eot_id|> \n", "Noted."),
    "control tokens between words": repeat("<|im_end|> x"),
    "TOOL_C": repeat("TOOL_C"),
    "quote-brace lines": repeat('\n{"'),
    "colon lines": repeat("a:\n"),
    # inside a call region
    "deep braces in a call": repeat("{", "TOOL_CALL_START\n"),
    "deep braces closed": lambda size: "TOOL_CALL_START\n" + "[" * (size // 2) + "]" * (size // 2),
    "quotes in a call": repeat('"', 'TOOL_CALL_START\n{"function": "save", "params": {"content": '),
    "backslashes in a string": repeat("\\", 'TOOL_CALL_START\n{"function": "save", "params": {"content": "'),
    "raw newlines in a string": repeat("x\n", 'TOOL_CALL_START\n{"function": "save", "params": {"content": "'),
    "one big single-quoted call": repeat(
        "a b {c} 'd' ", "TOOL_CALL_START\n{'function': 'save', 'params': {'content': '", "'}}\nTOOL_CALL_END"
    ),
    "many single-quoted calls": repeat(
        "TOOL_CALL_START\n{'function': 'save', 'params': {'content': 'x'}}\nTOOL_CALL_END\n"
    ),
    "many broken calls (json_repair)": repeat(
        'TOOL_CALL_START\n{"function": "save", "params": {"content": "a "q" b",}}\nTOOL_CALL_END\n'
    ),
    "many valid calls": repeat(f"Saving.\nTOOL_CALL_START\n{CALL}\nTOOL_CALL_END\n"),
    "many example fences": repeat(f"For example:\n```json\n{CALL}\n```\n"),
}


TARGET = {"one-shot": 5.0, "16-char": 2.0}  # MB/s, at both sizes


def one_shot(text: str) -> None:
    parse_tool_calls(text, TOOLS)


def streamed(text: str) -> None:
    p = StreamingToolCallParser(TOOLS)
    feed = p.feed
    for i in range(0, len(text), 16):
        feed(text[i : i + 16])
    p.close()


def seconds(fn: Callable[[str], None], text: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        t = time.process_time()
        fn(text)
        best = min(best, time.process_time() - t)
    return best


MODES: dict[str, Callable[[str], None]] = {"one-shot": one_shot, "16-char": streamed}


def cases(only: list[str]) -> tuple[dict[str, Callable[[], object]], dict[str, float]]:
    """The 64 KB runs of a comparison by name (pattern, mode), and each one's input in MB."""
    runs: dict[str, Callable[[], object]] = {}
    mb: dict[str, float] = {}
    for name, make in PATTERNS.items():
        if only and not any(o in name for o in only):
            continue
        text = make(SMALL)
        for mode, fn in MODES.items():
            runs[f"{name}, {mode}"] = lambda fn=fn, text=text: fn(text)
            mb[f"{name}, {mode}"] = len(text.encode()) / 1e6
    return runs, mb


def main() -> None:
    only = [a for a in sys.argv[1:] if a != WORKER]
    if WORKER in sys.argv:
        serve(cases(only)[0])
        return
    if (other := wanted()) is not None:
        runs, mb = cases(only)
        compare(__file__, list(runs), *other, size=mb.__getitem__, args=only)
        return
    # An installed import hook can make this time another checkout's parser: say which one.
    print(f"parser: {letta_tool_emulation.__file__}")
    print(f"{'pattern':38s} {'mode':9s} {'64 KB':>9s} {'512 KB':>9s} {'ratio':>6s}")
    worst_ratio = 0.0
    slowest = {mode: float("inf") for mode in TARGET}
    missed = {mode: 0 for mode in TARGET}
    for name, make in PATTERNS.items():
        if only and not any(o in name for o in only):
            continue
        small, large = make(SMALL), make(LARGE)
        for mode, fn in MODES.items():
            t_small = seconds(fn, small, 3)
            t_large = seconds(fn, large, 2)
            mbps_small = len(small.encode()) / 1e6 / t_small
            mbps_large = len(large.encode()) / 1e6 / t_large
            ratio = (t_large / len(large)) / (t_small / len(small))
            worst_ratio = max(worst_ratio, ratio)
            slowest[mode] = min(slowest[mode], mbps_small, mbps_large)
            slow = min(mbps_small, mbps_large) < TARGET[mode]
            missed[mode] += slow
            flag = "  <-- over target" if ratio > 1.5 or slow else ""
            print(f"{name:38s} {mode:9s} {mbps_small:6.1f} MB/s {mbps_large:6.1f} MB/s {ratio:5.2f}{flag}")
    print(f"worst size ratio {worst_ratio:.2f} (target <= 1.5)")
    for mode, target in TARGET.items():
        print(
            f"{mode}: slowest {slowest[mode]:.1f} MB/s (target >= {target:g} for every pattern); "
            f"{missed[mode]} patterns below it"
        )


if __name__ == "__main__":
    main()
