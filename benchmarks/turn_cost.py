"""What emulation costs per turn, against native tool calling on the same stand-in server.

(b) median wall time of one tool-using turn (a memory edit, then the answer: two model
    requests), emulated vs native, as a ratio (target <= 1.2), and the plugin's own work
    per step in milliseconds (measured in-process: building the request, parsing the reply,
    converting the response, each against Letta's stock client doing the same step);
(c) prompt tokens per turn, emulated vs native, as the stand-in counts them (UTF-8 bytes / 4
    of the messages, and of the tool schemas for the native model).

    python3 dev.py bench turn_cost          (TURNS=30 by default)
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

from letta_tool_emulation.runtime.stack import ServerProcess, scratch_dir
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, NATIVE_MODEL, StandIn, model_catalog

TURNS = int(os.environ.get("TURNS", "30"))


def end_to_end() -> None:
    standin = StandIn().start()
    server = ServerProcess(scratch_dir("bench-turns-"), VENICE_API_KEY="stand-in", VENICE_BASE_URL=standin.url)
    server.start()
    client = server.client()
    agents = {}
    for label, model in (("emulated", EMULATED_MODEL), ("native", NATIVE_MODEL)):
        agents[label] = client.agents.create(
            model=f"venice/{model}",
            memory_blocks=[{"label": "human", "value": "Name: Ana"}, {"label": "persona", "value": "I am Sam."}],
        )
    seconds: dict[str, list[float]] = {"emulated": [], "native": []}
    tokens: dict[str, list[int]] = {"emulated": [], "native": []}
    for i in range(TURNS + 2):
        for label in ("emulated", "native") if i % 2 == 0 else ("native", "emulated"):  # alternate against drift
            started = time.perf_counter()
            response = client.agents.messages.create(
                agent_id=agents[label].id,
                messages=[{"role": "user", "content": f"Remember that item {i} is on shelf {i % 7}"}],
            )
            elapsed = time.perf_counter() - started
            calls = [m for m in response.messages if m.message_type == "tool_call_message"]
            assert len(calls) == 1, f"{label} turn {i}: expected one tool call"
            if i >= 2:  # the first turns warm caches up
                seconds[label].append(elapsed)
                tokens[label].append(response.usage.prompt_tokens)
    med = {k: statistics.median(v) for k, v in seconds.items()}
    print(
        f"(b) median tool-using turn over {TURNS} turns: emulated {1000 * med['emulated']:.0f} ms, "
        f"native {1000 * med['native']:.0f} ms, ratio {med['emulated'] / med['native']:.2f}   (target <= 1.2)"
    )
    avg = {k: statistics.mean(v) for k, v in tokens.items()}
    print(
        f"(c) prompt tokens per turn (two requests): emulated {avg['emulated']:.0f}, native {avg['native']:.0f}, "
        f"ratio {avg['emulated'] / avg['native']:.2f}"
    )
    print(
        f"    first turn: emulated {tokens['emulated'][0]}, native {tokens['native'][0]}; "
        f"last turn: emulated {tokens['emulated'][-1]}, native {tokens['native'][-1]}"
    )
    server.stop()
    standin.stop()


def plugin_overhead() -> None:
    """The plugin's own work per step, in-process, against Letta's stock client."""
    from letta.llm_api.openai_client import OpenAIClient
    from letta.schemas.enums import AgentType

    import letta_tool_emulation
    from letta_tool_emulation import venice
    from letta_tool_emulation.adapter import EmulatedToolsClient, drivers
    from letta_tool_emulation.transport import Completion

    sys_path = Path(__file__).resolve().parents[1]
    import sys

    sys.path.insert(0, str(sys_path))
    from tests.adapter.conftest import assistant_call, letta_tools, make_config, system, tool_result, user
    from tests.adapter.test_requests import fake_call

    letta_tool_emulation.activate()
    url = "http://127.0.0.1:9/v1"
    venice.CAPABILITIES.store(url, venice.parse_models(model_catalog()))
    emulated, native = make_config(None, url), make_config(None, url, NATIVE_MODEL)
    tools = letta_tools("memory_insert", "memory_replace", "conversation_search")
    history = [system("You are Sam. " + "Persona and memory blocks. " * 120)]
    for i in range(20):
        c = fake_call("memory_insert", {"label": "human", "new_string": f"Fact {i}."}, f"call_{i:024d}")
        history += [
            user(f"Remember fact {i}."),
            assistant_call(c, f"Saving fact {i}."),
            tool_result(c, f"Name: Ana\nFact {i}."),
        ]
    history.append(user("What do you know?"))
    ours, stock = EmulatedToolsClient(), OpenAIClient()
    reply = 'Saving.\nTOOL_CALL_START\n{"function": "memory_insert", "params": {"label": "human", "new_string": "Fact 21."}}\nTOOL_CALL_END'
    raw = {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": EMULATED_MODEL,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1000, "completion_tokens": 30, "total_tokens": 1030},
    }
    native_raw = json.loads(json.dumps(raw))
    native_raw["choices"][0]["message"] = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_x",
                "type": "function",
                "function": {"name": "memory_insert", "arguments": '{"label": "human", "new_string": "Fact 21."}'},
            }
        ],
    }

    def timed(fn: Any, n: int = 200) -> float:
        fn()
        started = time.perf_counter()
        for _ in range(n):
            fn()
        return (time.perf_counter() - started) / n * 1000

    build_ours = timed(lambda: ours.build_request_data(AgentType.letta_v1_agent, history, emulated, tools))
    build_stock = timed(lambda: stock.build_request_data(AgentType.letta_v1_agent, history, native, tools))
    data = ours.build_request_data(AgentType.letta_v1_agent, history, emulated, tools)

    class Canned:  # the HTTP call itself is not the plugin's work: answer at once
        def complete_sync(self, body: Any) -> Completion:
            return Completion(text=reply, finish_reason="stop", usage=raw["usage"], id="x", model=EMULATED_MODEL)

    def process() -> dict[str, Any]:  # what request_async adds to the HTTP call: parse and settle the reply
        return drivers.complete_sync(data, Canned())[1]  # type: ignore[arg-type]

    processed = process()
    reply_work = timed(process)
    convert = timed(
        lambda: asyncio.run(
            ours.convert_response_to_chat_completion(json.loads(json.dumps(processed)), history, emulated)
        ),
        50,
    )
    convert_stock = timed(
        lambda: asyncio.run(
            stock.convert_response_to_chat_completion(json.loads(json.dumps(native_raw)), history, native)
        ),
        50,
    )
    overhead = (build_ours - build_stock) + reply_work + (convert - convert_stock)
    print(
        f"(b) plugin work per step (61-message history): build {build_ours:.2f} ms vs stock {build_stock:.2f} ms, "
        f"reply parsing {reply_work:.2f} ms, convert {convert:.2f} ms vs stock {convert_stock:.2f} ms "
        f"-> {overhead:.2f} ms per step"
    )


if __name__ == "__main__":
    plugin_overhead()
    end_to_end()
