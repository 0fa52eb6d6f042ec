"""Free text against constrained replies on a real small model, through Letta: the real
server command, llama-cpp-python's server serving SmolLM2-135M-Instruct (8,192-token
context), and a recording proxy between them that keeps every model request and reply.

N "Remember that ..." turns per mode, each on a fresh letta_v1_agent (free text: the agent
switch ``free-text``; constrained: the default, since the server kind is known). Per mode:

- % of turns in which Letta executed a memory call (memory_insert / memory_replace) whose
  arguments pass the tool's JSON schema, and the number of executed memory calls that did not;
- % of turns in which the human block changed, and turns in which the fact itself (its key
  words) was written into a block, and into the human block: a model copying the prompt's
  example changes the block too;
- % of turns in which a reply had a problem and the model was asked again;
- replace calls (memory_replace, core_memory_replace) that Letta ran, and those it failed (the
  old text not found in the block);
- constrained replies: how many parse as the envelope, and how many the output limit cut;
- median turn latency.

    python3 dev.py bench real_model        (TURNS=12 MAX_OUTPUT=256 MODES=free-text,constrained MAX_STEPS=4)

``TEMPERATURE=0`` decodes greedily (unset: Letta's default temperature); the model server
evaluates every prompt whole, so a greedy reply depends on its prompt alone. ``OFFER=on,off``
runs everything once with the replace tools offered the blocks' lines and once without
(``LETTA_TOOL_EMULATION_OFFER_LINES``; with it, a constrained insert's line number is held to
the block's length), on one model server, a Letta server each. ``AS_EDITED=on,off`` does the
same for the memory section shown as the turn's edits left it
(``LETTA_TOOL_EMULATION_MEMORY_AS_EDITED``), ``DESCRIBE=on,off`` for the blocks'
descriptions given just before the tools (``LETTA_TOOL_EMULATION_DESCRIBE_BLOCKS``, off unless
set), and ``EXAMPLE=quote,fact,placeholder,pair`` for what the constrained prompt's example memory
edit writes and whether the user's words come before it (``LETTA_TOOL_EMULATION_EXAMPLE``);
``USER_FIRST=off,on`` for the user's block put first among the memory tools' labels
(``LETTA_TOOL_EMULATION_USER_BLOCK_FIRST``). Each run also lists the blocks the executed
memory calls named, the constrained replies whose calls write the example's text, and the
memory calls run in the first person; it counts the successful inserts that repeated one the
same turn had already made (the same text into the same block).
``MAX_STEPS=N`` ends a turn after N model steps (4 unless set, as the real-model tests do;
``MAX_STEPS=0``: Letta's own limit, 50, which a small model that calls a memory tool at every
step runs all the way, for minutes a turn). ``TRANSCRIPT=PATH`` appends each turn to PATH as a JSON line: the blocks before and after, the
messages Letta returned (every call with its arguments and result) and each model request with
its reply, so that every memory call can be read afterwards.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from letta_tool_emulation.core.envelope import CALLS_KEY, REPLY_KEY  # noqa: E402
from letta_tool_emulation.core.feedback import FEEDBACK_OPENINGS  # noqa: E402
from letta_tool_emulation.engine import EXAMPLE_SAID, EXAMPLES  # noqa: E402
from letta_tool_emulation.runtime.llama import LlamaServer, find_model  # noqa: E402
from letta_tool_emulation.runtime.stack import ServerProcess, free_port, scratch_dir  # noqa: E402
from letta_tool_emulation.step import Settings  # noqa: E402

TURNS = int(os.environ.get("TURNS", "12"))
MAX_OUTPUT = os.environ.get("MAX_OUTPUT", "256")
MODES = [m.strip() for m in os.environ.get("MODES", "free-text,constrained").split(",") if m.strip()]
TEMPERATURE = os.environ.get("TEMPERATURE")
N_CTX = 8192
OFFERS = [o.strip() for o in os.environ.get("OFFER", "on").split(",") if o.strip()]
AS_EDITED = [o.strip() for o in os.environ.get("AS_EDITED", "on").split(",") if o.strip()]
DESCRIBE = [o.strip() for o in os.environ.get("DESCRIBE", "off").split(",") if o.strip()]
EXAMPLE = [o.strip() for o in os.environ.get("EXAMPLE", Settings().example).split(",") if o.strip()]
USER_FIRST = [o.strip() for o in os.environ.get("USER_FIRST", "off").split(",") if o.strip()]
TRANSCRIPT = os.environ.get("TRANSCRIPT")
MAX_STEPS = int(os.environ.get("MAX_STEPS") or 4) or None
MEMORY = ("memory_insert", "memory_replace")
REPLACE = ("memory_replace", "core_memory_replace")
# Each fact with the words that show it was written down. (Not "I like pizza": the constrained
# prompt's example inserts "The user likes pizza.", and a model copying it would look right.)
FACTS = {
    "I like sushi": "sushi", "my sister is called Anna": "anna", "I live in Lyon": "lyon",
    "my favourite colour is green": "green", "I work as a nurse": "nurse", "I have two cats": "cat",
    "my birthday is on May 3": "may 3", "I am allergic to peanuts": "peanut", "I play the violin": "violin",
    "I drive a red car": "red car", "I was born in Canada": "canada", "my dog is named Rex": "rex",
    "I speak Portuguese": "portuguese", "my brother is called Tom": "tom", "I hate coffee": "coffee",
    "I am vegetarian": "vegetarian", "I study physics": "physics", "my son is five years old": "five",
    "I go running every morning": "running", "I moved to Oslo last year": "oslo", "I collect stamps": "stamp",
    "my wife works at a bank": "bank", "I am afraid of spiders": "spider", "I grew up on a farm": "farm",
}  # fmt: skip
FACT_LIST = list(FACTS)
REASK = FEEDBACK_OPENINGS  # how every message the engine adds when it asks again begins


class Recorder:
    """A reverse proxy that keeps each chat request and its reply (blocking requests only)."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/").removesuffix("/v1")  # it proxies the whole host
        self.exchanges: list[tuple[dict[str, Any], dict[str, Any]]] = []
        self.lock = threading.Lock()
        self.port = free_port()

        async def forward(request: Request) -> Response:
            body = await request.body()
            async with httpx.AsyncClient(timeout=600) as client:
                upstream = await client.request(
                    request.method,
                    f"{self.upstream}/{request.path_params['path']}",
                    content=body,
                    headers={k: v for k, v in request.headers.items() if k.lower() not in ("host", "content-length")},
                    params=request.query_params,
                )
            if request.path_params["path"].endswith("chat/completions") and body:
                try:
                    with self.lock:
                        self.exchanges.append((json.loads(body), upstream.json()))
                except ValueError:
                    pass
            return Response(upstream.content, upstream.status_code, media_type=upstream.headers.get("content-type"))

        app = Starlette(routes=[Route("/{path:path}", forward, methods=["GET", "POST"])])
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        threading.Thread(target=self.server.run, daemon=True).start()
        while not self.server.started:
            time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def since(self, n: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        with self.lock:
            return list(self.exchanges[n:])


def ran_memory_calls(messages: list[Any]) -> list[Any]:
    """The memory calls Letta ran (those it returned a result for) in a turn's messages, in order."""
    returned = {m.tool_call_id for m in messages if m.message_type == "tool_return_message"}
    return [
        m.tool_call
        for m in messages
        if m.message_type == "tool_call_message" and m.tool_call.name in MEMORY and m.tool_call.tool_call_id in returned
    ]


def memory_calls(messages: list[Any], schemas: dict[str, Any]) -> tuple[int, int]:
    """(schema-valid executed memory calls, invalid ones) in a turn's messages."""
    valid = invalid = 0
    for call in ran_memory_calls(messages):
        try:
            jsonschema.validate(json.loads(call.arguments), schemas[call.name])
            valid += 1
        except (ValueError, jsonschema.ValidationError):
            invalid += 1
    return valid, invalid


def replace_calls(messages: list[Any], tools: tuple[str, ...] = REPLACE) -> tuple[int, int]:
    """(calls of ``tools`` Letta ran, those that failed) in a turn's messages."""
    names = {m.tool_call.tool_call_id: m.tool_call.name for m in messages if m.message_type == "tool_call_message"}
    returns = [m for m in messages if m.message_type == "tool_return_message" and names.get(m.tool_call_id) in tools]
    return len(returns), sum(m.status == "error" for m in returns)


def repeated_inserts(messages: list[Any]) -> int:
    """Successful inserts that put into a block a text the same turn had already put there."""
    calls = {m.tool_call.tool_call_id: m.tool_call for m in messages if m.message_type == "tool_call_message"}
    seen: set[tuple[str, str]] = set()
    repeats = 0
    for m in messages:
        call = calls.get(m.tool_call_id) if m.message_type == "tool_return_message" else None
        if call is None or call.name not in ("memory_insert", "core_memory_append") or m.status == "error":
            continue
        try:
            arguments = json.loads(call.arguments)
        except ValueError:
            continue
        text = arguments.get("new_string", arguments.get("content")) if isinstance(arguments, dict) else None
        key = (str(arguments.get("label")), str(text)) if isinstance(arguments, dict) else ("", "")
        repeats += key in seen
        seen.add(key)
    return repeats


# A first-person word in a memory text: the persona's voice ("I am Sam."), not a fact about the user.
FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|me|my|mine|myself)\b")


def first_person_writes(messages: list[Any]) -> int:
    """Memory calls Letta ran whose text speaks in the first person."""
    count = 0
    for call in ran_memory_calls(messages):
        try:
            arguments = json.loads(call.arguments)
        except ValueError:
            continue
        texts = (
            [v for k, v in arguments.items() if k != "label" and isinstance(v, str)]
            if isinstance(arguments, dict)
            else []
        )
        count += any(FIRST_PERSON.search(t) for t in texts)
    return count


def example_copies(replies: list[str], example: str) -> int:
    """Constrained replies whose calls write the text of the prompt's example (its fact, or the
    user's words of a worked pair), whether the engine then ran them or not."""
    shown = [EXAMPLES.get(example, EXAMPLES["fact"])[0], EXAMPLE_SAID.get(example, "")]
    wanted = [" ".join(t.rstrip(".").casefold().split()) for t in shown if t]
    count = 0
    for content in replies:
        try:
            value = json.loads(content, strict=False)
        except ValueError:
            continue
        calls = value.get(CALLS_KEY) if isinstance(value, dict) else None
        text = " ".join(json.dumps(calls, ensure_ascii=False).casefold().split()) if calls else ""
        count += any(w in text for w in wanted)
    return count


def labels_named(messages: list[Any]) -> list[str]:
    """The block each memory call that Letta ran named, in order."""
    labels = []
    for call in ran_memory_calls(messages):
        try:
            arguments = json.loads(call.arguments)
        except ValueError:
            continue
        if isinstance(arguments, dict):
            labels.append(str(arguments.get("label")))
    return labels


def blocks_of(client: Any, agent_id: str) -> dict[str, str]:
    return {label: client.agents.blocks.retrieve(label, agent_id=agent_id).value for label in ("human", "persona")}


def envelope_of(reply: dict[str, Any]) -> tuple[bool, bool, str]:
    """(the reply parses as the envelope, the output limit cut it, its text)."""
    choice = (reply.get("choices") or [{}])[0]
    cut = choice.get("finish_reason") == "length"
    content = (choice.get("message") or {}).get("content") or ""
    try:
        # strict=False: grammar-constrained servers let raw newlines into strings, as the plugin allows.
        value = json.loads(content, strict=False)
    except ValueError:
        return False, cut, content
    return isinstance(value, dict) and (REPLY_KEY in value or CALLS_KEY in value), cut, content


def main() -> None:
    python = Path(
        subprocess.run([sys.executable, str(ROOT / "dev.py"), "llama"], cwd=ROOT, capture_output=True, text=True,
                       check=True).stdout.strip().splitlines()[-1]
    )  # fmt: skip
    with LlamaServer(python, find_model(python), n_ctx=N_CTX, seed=7, n_threads=1, reuse_prompt=False) as llama:
        recorder = Recorder(llama.url)
        print(
            f"{TURNS} 'Remember that ...' turns per mode, SmolLM2-135M-Instruct, output limit {MAX_OUTPUT} tokens, "
            f"temperature {TEMPERATURE if TEMPERATURE is not None else 'as Letta sets it'}, "
            f"steps per turn {MAX_STEPS or 'as Letta limits them'}"
        )
        try:
            for example, user_first in [(e, u) for e in EXAMPLE for u in USER_FIRST]:
                for describe in DESCRIBE:
                    for offer in OFFERS:
                        for as_edited in AS_EDITED:
                            print(
                                f"old text offered the blocks' lines: {offer}; memory shown as edited: {as_edited}; "
                                f"blocks described beside the tools: {describe}; constrained example: {example}; "
                                f"the user's block first among the labels: {user_first}"
                            )
                            measure(recorder, llama.alias, offer, as_edited, describe, example, user_first)
        finally:
            recorder.server.should_exit = True


def measure(
    recorder: Recorder,
    alias: str,
    offer: str,
    as_edited: str,
    describe: str = "off",
    example: str = Settings().example,
    user_first: str = "off",
) -> None:
    handle = f"openai-proxy/{alias}"
    server = ServerProcess(
        scratch_dir("bench-real-"),
        OPENAI_API_KEY="unused",
        OPENAI_API_BASE=recorder.url,
        LETTA_TOOL_EMULATION_MODELS=handle,
        LETTA_TOOL_EMULATION_CONTEXT=f"{handle}={N_CTX}",
        LETTA_TOOL_EMULATION_MAX_OUTPUT_TOKENS=MAX_OUTPUT,
        LETTA_TOOL_EMULATION_OFFER_LINES=offer,
        LETTA_TOOL_EMULATION_MEMORY_AS_EDITED=as_edited,
        LETTA_TOOL_EMULATION_DESCRIBE_BLOCKS=describe,
        LETTA_TOOL_EMULATION_EXAMPLE=example,
        LETTA_TOOL_EMULATION_USER_BLOCK_FIRST=user_first,
        LETTA_LLM_REQUEST_TIMEOUT_SECONDS="300",
    ).start()
    try:
        client = server.client(timeout=900)
        for mode in MODES:
            executed = invalid = reasked = errors = envelopes = cut = replies = changed = noted = in_human = 0
            replaced = replace_failed = inserted = insert_failed = repeated = first_person = copies = 0
            seconds: list[float] = []
            named: dict[str, int] = {}  # block label -> executed memory calls that named it
            for i in range(TURNS):
                agent = client.agents.create(
                    model=handle,
                    memory_blocks=[
                        {"label": "human", "value": "Name: Ana"},
                        {"label": "persona", "value": "I am Sam."},
                    ],
                )
                config = agent.llm_config.model_dump()
                if mode == "free-text":
                    config["model_wrapper"] = "free-text"
                if TEMPERATURE is not None:
                    config["temperature"] = float(TEMPERATURE)
                if config != agent.llm_config.model_dump():
                    agent = client.agents.update(agent.id, llm_config=config)
                human = client.agents.blocks.retrieve("human", agent_id=agent.id).value
                before_blocks = blocks_of(client, agent.id)
                schemas = {t.name: t.json_schema["parameters"] for t in client.agents.tools.list(agent_id=agent.id)}
                before = len(recorder.exchanges)
                started = time.perf_counter()
                try:
                    r = client.agents.messages.create(
                        agent_id=agent.id,
                        messages=[{"role": "user", "content": f"Remember that {FACT_LIST[i % len(FACTS)]}."}],
                        **({"max_steps": MAX_STEPS} if MAX_STEPS else {}),
                    )
                except Exception as exc:  # noqa: BLE001 - counted
                    errors += 1
                    print(f"  {mode} turn {i}: {type(exc).__name__}: {str(exc)[:160]}")
                    continue
                seconds.append(time.perf_counter() - started)
                valid, bad = memory_calls(list(r.messages), schemas)
                executed += valid > 0
                invalid += bad
                ran, failed = replace_calls(list(r.messages))
                replaced += ran
                replace_failed += failed
                ran, failed = replace_calls(list(r.messages), ("memory_insert", "core_memory_append"))
                inserted += ran
                insert_failed += failed
                repeated += repeated_inserts(list(r.messages))
                first_person += first_person_writes(list(r.messages))
                for label in labels_named(list(r.messages)):
                    named[label] = named.get(label, 0) + 1
                changed += client.agents.blocks.retrieve("human", agent_id=agent.id).value != human
                after_blocks = blocks_of(client, agent.id)
                key = FACTS[FACT_LIST[i % len(FACTS)]]
                noted += any(
                    key in after_blocks[b].lower() and key not in before_blocks[b].lower() for b in after_blocks
                )
                # The measure: the block the fact belongs to changed by the fact, not by a
                # copy of the example or the persona's line.
                in_human += key in after_blocks.get("human", "").lower() and key not in human.lower()
                exchanges = recorder.since(before)
                if TRANSCRIPT:
                    with open(TRANSCRIPT, "a", encoding="utf-8") as out:
                        turn = {
                            "offer": offer, "as_edited": as_edited, "describe": describe, "example": example, "user_first": user_first, "mode": mode, "turn": i, "fact": FACT_LIST[i % len(FACTS)],
                            "blocks_before": before_blocks, "blocks_after": after_blocks,
                            "messages": [m.model_dump(mode="json") for m in r.messages],
                            "exchanges": [{"request": req, "reply": reply} for req, reply in exchanges],
                        }  # fmt: skip
                        out.write(json.dumps(turn) + "\n")
                reasked += any(
                    any(f in str(req["messages"][-1].get("content", "")) for f in REASK) for req, _ in exchanges
                )
                for req, reply in exchanges:
                    if "response_format" in req:
                        replies += 1
                        is_envelope, was_cut, content = envelope_of(reply)
                        envelopes += is_envelope
                        copies += example_copies([content], example)
                        cut += was_cut and not is_envelope
                        if not is_envelope and not was_cut:
                            print(f"  {mode} turn {i}: not the envelope: {json.dumps(content)[-160:]}")
            n = max(1, TURNS - errors)
            line = (
                f"  {mode}: executed schema-valid memory call in {100 * executed / n:.0f} % of turns; "
                f"invalid executed memory calls {invalid}; human block changed in {changed}/{n} turns; the fact written into a block in {noted}/{n}, into the human block in {in_human}/{n}; re-asked in {100 * reasked / n:.0f} % of turns; "
                f"replace calls {replaced - replace_failed} succeeded, {replace_failed} failed; "
                f"insert calls {inserted - insert_failed} succeeded ({repeated} repeating one of the turn), "
                f"{insert_failed} failed; "
                f"median turn {statistics.median(seconds) if seconds else 0:.1f} s; errors {errors}; "
                f"blocks named by the memory calls run: "
                + (", ".join(f"{label} {count}" for label, count in sorted(named.items())) or "none")
            )
            if mode == "constrained":
                line += (
                    f"; replies: {envelopes}/{replies} the envelope, {cut} cut by the output limit, "
                    f"{copies} writing the example's text"
                )
            line += f"; memory calls run in the first person: {first_person}"
            print(line)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
