"""``letta-tool-emulation demo``: everything started, one agent, one memory edit, shown.

Uses the real Venice API when VENICE_API_KEY is set, the local stand-in model otherwise. The
model is ``--model``, else one of the end-to-end encrypted ``e2ee-*`` models the endpoint's
``/models`` lists (Venice serves those without native tools, which is what the plugin is
for; a hard-coded id would outlive the model, as ``venice-uncensored`` did). The database
lives in a temporary directory unless ``--data-dir`` is given.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from .. import venice
from .stack import ServerProcess
from .standin import StandIn

MESSAGE = "Remember that I like pizza."


def _say(text: str = "") -> None:
    print(text, flush=True)


def _show(message: Any) -> None:
    kind = getattr(message, "message_type", "")
    if kind == "reasoning_message":
        _say(f"  thinking:    {message.reasoning.strip()}")
    elif kind == "tool_call_message":
        call = message.tool_call
        args = call.arguments
        with contextlib.suppress(TypeError, ValueError):  # shown as sent when it is not JSON
            args = json.dumps(json.loads(args), ensure_ascii=False)
        _say(f"  tool call:   {call.name}({args})")
    elif kind == "tool_return_message":
        _say(f"  tool result: [{message.status}] {str(message.tool_return).strip()}".replace("\n", "\n               "))
    elif kind == "assistant_message":
        _say(f"  agent:       {message.content}")


class NoModel(RuntimeError):
    """The endpoint lists no model the demo can use; the message says what to do."""


def default_model(base_url: str, key: str | None) -> str:
    """The handle of an ``e2ee-*`` model that ``base_url``'s /models lists: one without native
    tools first (every request to such a model is emulated), in the order listed."""
    models = venice.fetch_models(base_url, key, timeout=20)
    if models is None:
        raise NoModel(f"{base_url}/models could not be read; pass --model venice/<model id>")
    private = [
        m for m in models if m.type == "text" and m.id.startswith(venice.E2EE_PREFIX) and m.supports_e2ee is not False
    ]
    private.sort(key=lambda m: m.supports_function_calling is not False)  # stable: the listing's order otherwise
    if not private:
        raise NoModel(f"{base_url}/models lists no {venice.E2EE_PREFIX}* model; pass --model venice/<model id>")
    return f"{venice.PROVIDER_NAME}/{private[0].id}"


def main(model: str | None = None, port: int = 8283, data_dir: str | None = None, stream: bool = False) -> int:
    real = bool(os.environ.get("VENICE_API_KEY"))
    root = Path(data_dir).expanduser() if data_dir else Path(tempfile.mkdtemp(prefix="letta-tool-emulation-demo-"))
    standin = None
    env: dict[str, str] = {}
    if real:
        _say("Using Venice.ai (VENICE_API_KEY is set).")
        env = {k: v for k, v in os.environ.items() if k.startswith("VENICE_")}
    else:
        standin = StandIn().start()
        _say(f"No VENICE_API_KEY: using the local stand-in model at {standin.url} (it has no function calling).")
        env = {"VENICE_API_KEY": "stand-in", "VENICE_BASE_URL": standin.url}
    server = ServerProcess(root, port)
    server.env.update(env)
    ok = False
    if model is None:
        try:
            model = default_model(env.get("VENICE_BASE_URL") or venice.DEFAULT_BASE_URL, env.get("VENICE_API_KEY"))
        except NoModel as exc:
            _say(f"The demo cannot choose a model: {exc}.")
            if standin is not None:
                standin.stop()
            return 1
        _say(f"Model: {model} (end-to-end encrypted; --model chooses another).")
    _say(f"Starting PostgreSQL and Letta with the plugin (data in {root}); this takes about 30 s ...")
    try:
        server.start(progress=lambda s: _say(f"  ... {s:.0f} s"))
        _say(f"Letta is ready at {server.url}.")
        client = server.client(max_retries=2)
        agent = client.agents.create(
            model=model,
            memory_blocks=[
                {"label": "human", "value": "Name: Ana"},
                {"label": "persona", "value": "I am Sam, a helpful assistant with a good memory."},
            ],
        )
        human = client.agents.blocks.retrieve("human", agent_id=agent.id).value
        _say(f"\nAgent {agent.name} on {model}.")
        _say(f"Memory block 'human' before:\n  {human!r}")
        _say(f"\nYou: {MESSAGE}")
        request = {"agent_id": agent.id, "messages": [{"role": "user", "content": MESSAGE}]}
        if stream:
            for event in client.agents.messages.create(**request, streaming=True, stream_tokens=True):
                if getattr(event, "message_type", "") in ("tool_call_message", "tool_return_message"):
                    _show(event)
                elif getattr(event, "message_type", "") == "assistant_message":
                    print(event.content, end="", flush=True)
            _say()
        else:
            for message in client.agents.messages.create(**request).messages:
                _show(message)
        human = client.agents.blocks.retrieve("human", agent_id=agent.id).value
        _say(f"\nMemory block 'human' after:\n  {human!r}")
        _say("\nStopping. Run `letta-tool-emulation server` to keep a server running.")
        ok = True
        return 0
    except Exception as exc:  # noqa: BLE001 - report and clean up
        _say(f"\nThe demo failed: {exc}")
        _say(f"Server log: {server.log_path} (kept)")
        return 1
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.stop()
        if standin is not None:
            standin.stop()
        if ok and not data_dir:
            shutil.rmtree(root, ignore_errors=True)
