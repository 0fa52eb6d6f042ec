"""The stand-in's natural mode: the calls it writes, exactly and in order, inside everyday prose
drawn from a large pool in several languages, the same for the same seed."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx

from letta_tool_emulation.runtime.stack import free_port
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, StandIn, write_calls
from letta_tool_emulation.runtime.standin.natural import VOICES, natural_reply, pool_size

from ..core.corpus import load_tools

CALLS = [
    ("memory_insert", {"label": "human", "new_string": "Likes Thai and Ethiopian food"}),
    ("archival_memory_insert", {"content": "Flat white, no sugar — café « Le Nuage »"}),
]
BLOCK = re.compile(r"TOOL_CALL_START\n(.*?)\nTOOL_CALL_END", re.DOTALL)


def replies(seed: int, n: int = 200, calls: list[tuple[str, dict[str, Any]]] = CALLS) -> list[str]:
    rng = random.Random(seed)
    return [write_calls(calls, "Sure, one moment.", None, False, rng) for _ in range(n)]


def test_the_calls_are_written_exactly_in_order() -> None:
    for text in replies(1):
        written = [json.loads(b) for b in BLOCK.findall(text)]
        assert [(c["function"], c["params"]) for c in written] == CALLS, text


def test_prose_around_the_calls_from_a_large_pool() -> None:
    assert pool_size() >= 200
    assert {"en", "es", "fr", "de", "pt", "it", "ru", "zh", "ja"} <= set(VOICES)
    texts = replies(2, 300)
    before = [t.split("TOOL_CALL_START", 1)[0].strip() for t in texts]
    after = [t.rsplit("TOOL_CALL_END", 1)[1].strip() for t in texts]
    assert all(before), "every reply has a preamble"
    assert 0.5 < sum(map(bool, after)) / len(texts) < 0.8, "most replies end with a sign-off, not all"
    assert len(set(before)) > 100, "preambles vary"
    preambles = {p for v in VOICES.values() for p in v.preambles}
    used = {p for p in preambles if any(p in b for b in before)}
    assert len(used) > 0.6 * len(preambles)
    languages = {lang for lang, v in VOICES.items() if any(p in b for p in v.preambles for b in before)}
    assert len(languages) == len(VOICES)
    joined = "\n".join(texts)
    for everyday in ("such as", "like", "example", "format", "list", "should", "https://", "<think>", "?"):
        assert everyday in joined


def test_the_same_seed_gives_the_same_replies() -> None:
    assert replies(7, 50) == replies(7, 50)
    assert replies(7, 50) != replies(8, 50)
    blocks = ["TOOL_CALL_START\n{}\nTOOL_CALL_END"]
    assert natural_reply(blocks, random.Random(3)) == natural_reply(blocks, random.Random(3))


def test_a_retry_stays_clean_and_other_modes_are_unchanged() -> None:
    rng = random.Random(4)
    assert write_calls(CALLS[:1], "", None, True, rng) == (
        "TOOL_CALL_START\n" + json.dumps({"function": CALLS[0][0], "params": CALLS[0][1]}) + "\nTOOL_CALL_END"
    )
    sloppy_alone = write_calls(CALLS, "Sure.", random.Random(5), False)
    assert sloppy_alone == write_calls(CALLS, "Sure.", random.Random(5), False, None)
    both = write_calls(CALLS, "Sure.", random.Random(5), False, random.Random(6))
    assert both != sloppy_alone and not both.startswith("Sure.")  # the calls drift, inside natural prose


def _ask(url: str, said: str) -> str:
    tools = [t for t in load_tools() if t["name"] == "memory_insert"]
    system = "# Tools\n" + "\n".join(f"- {t['name']}(label: string, new_string: string)" for t in tools)
    body = {
        "model": EMULATED_MODEL,
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": said}],
    }
    r = httpx.post(f"{url}/chat/completions", json=body, timeout=10)
    assert r.status_code == 200, r.text
    content: str = r.json()["choices"][0]["message"]["content"]
    return content


def test_chosen_like_the_other_modes() -> None:
    with StandIn(port=free_port(), natural=True, seed=11) as s:
        first = _ask(s.url, "Remember that I enjoy Thai and Ethiopian food")
        assert [json.loads(b) for b in BLOCK.findall(first)] == [
            {"function": "memory_insert", "params": {"label": "human", "new_string": "I enjoy Thai and Ethiopian food"}}
        ]
        assert first.split("TOOL_CALL_START")[0].strip() not in ("", "Sure, one moment.")
        s.reset(natural=False)
        plain = _ask(s.url, "Remember that I enjoy Thai and Ethiopian food")
        assert plain.startswith("Sure, one moment.\nTOOL_CALL_START\n")
        r = httpx.post(f"{s.url.removesuffix('/v1')}/_control/reset", json={"natural": True, "seed": 11}, timeout=10)
        assert r.status_code == 200
        assert _ask(s.url, "Remember that I enjoy Thai and Ethiopian food") == first
