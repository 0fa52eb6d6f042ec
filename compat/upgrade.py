"""The upgrade test: a database written under one letta release, opened by a newer one, and the
reverse refused. Run by ``python3 dev.py compat`` (``--ends``: 0.16.1, then 0.16.8) in three
phases, each with the Python of the environment it needs, on one work directory:

    create   (the older letta)  agents, memory blocks, archival passages, messages; written to
                                created.json
    verify   (the newer letta)  the server command upgrades the schema (a backup first); all of
                                created.json is still there, and a new agent and an emulated memory
                                edit (on the old agent and on the new one) work
    refuse   (the older letta)  the server command refuses the database the newer one wrote, with
                                a message saying so

Each phase prints one JSON object as its last line: ``{"phase", "ok", "detail", "log"}``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import traceback
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from smoke import (
    REQUEST_TIMEOUT,
    Server,
    describe,
    distribution_version,
    embedding_for,
    error_lines,
    free_port,
    insert_arguments,
    remembers,
)

ARCHIVAL = ["archival_memory_insert", "archival_memory_search"]
PASSAGES = ["The launch is on March 3rd in Lisbon.", "The budget review moved to Friday."]


def start(workdir: Path, standin_url: str) -> Server:
    server = Server(workdir, {"VENICE_API_KEY": "stand-in", "VENICE_BASE_URL": standin_url})
    server.start()
    return server


def edit(client: Any, standin: Any, agent_id: str, fact: str, **more: Any) -> str:
    """An emulated memory edit on an existing agent: the model (scripted) writes the call block
    with the arguments the agent's own tool schema asks for (and ``more``); the block must then
    hold the fact."""
    from letta_tool_emulation.runtime.standin import Scripted

    tools = list(client.agents.tools.list(agent_id=agent_id))
    arguments = {**insert_arguments(SimpleNamespace(tools=tools), fact), **more}
    call = json.dumps({"function": "memory_insert", "params": arguments})
    standin.script(Scripted(text=f"Noted.\nTOOL_CALL_START\n{call}\nTOOL_CALL_END"))
    client.agents.messages.create(agent_id=agent_id, messages=[{"role": "user", "content": f"Remember that {fact}."}])
    value = str(client.agents.blocks.retrieve("human", agent_id=agent_id).value)
    shown = [
        line.strip()
        for r in standin.requests[-1:]
        for m in r.get("messages", [])
        if m.get("role") == "system"
        for line in str(m.get("content")).splitlines()
        if "memory_insert" in line
    ]
    told = [str(m.get("content"))[-400:] for r in standin.requests[-1:] for m in r.get("messages", [])[-1:]]
    assert fact in value, (
        f"the memory edit did not land: {value!r}; called with {arguments}; the model saw {shown[:3]}, "
        f"and last read {told}"
    )
    return value


def messages_of(client: Any, agent_id: str) -> list[str]:
    """The text of every message the agent has, user and assistant alike."""
    out = []
    for m in client.agents.messages.list(agent_id=agent_id, limit=200):
        content = getattr(m, "content", None)
        if isinstance(content, list):
            content = " ".join(str(getattr(p, "text", "")) for p in content)
        if content:
            out.append(str(content))
    return out


def create(workdir: Path) -> str:
    from letta_client import Letta

    from letta_tool_emulation.runtime.standin import EMULATED_MODEL, StandIn

    port = free_port()  # the provider's URL is stored with each agent: later phases serve it there too
    with StandIn(port=port) as standin:
        server = start(workdir, standin.url)
        try:
            client = Letta(base_url=server.url, timeout=REQUEST_TIMEOUT, max_retries=0)
            model = f"venice/{EMULATED_MODEL}"
            embeddings = sorted(e.handle for e in client.models.embeddings.list() if e.handle)
            agent = client.agents.create(
                model=model,
                agent_type="letta_v1_agent",
                tools=ARCHIVAL,
                memory_blocks=[
                    {"label": "human", "value": "Name: Ana"},
                    {"label": "persona", "value": "I am Sam, a helpful agent."},
                    {"label": "project", "value": "Project: the Lisbon launch."},
                ],
                **embedding_for(model, embeddings),
            )
            for text in PASSAGES:
                client.agents.passages.create(agent_id=agent.id, text=text)
            remembers(
                client,
                standin,
                model,
                "my favourite colour is teal",
                native=False,
                stream=False,
                **embedding_for(model, embeddings),
            )
            edit(client, standin, agent.id, "I keep bees")
            made = {
                "letta": distribution_version("letta"),
                "standin_port": port,
                "agents": [a.id for a in client.agents.list(limit=100)],
                "agent": agent.id,
                "blocks": {
                    b.label: b.value for b in client.agents.blocks.list(agent_id=agent.id) if b.label is not None
                },
                "passages": sorted(p.text for p in client.agents.passages.list(agent_id=agent.id)),
                "messages": messages_of(client, agent.id),
            }
        finally:
            code = server.stop()
    assert code == 0, f"the server command exited with code {code}"
    assert "I keep bees" in made["blocks"]["human"], made["blocks"]
    (workdir / "created.json").write_text(json.dumps(made))
    return f"{len(made['agents'])} agents, {len(made['passages'])} passages, {len(made['messages'])} messages"


def verify(workdir: Path) -> str:
    from letta_client import Letta

    from letta_tool_emulation.runtime.standin import EMULATED_MODEL, StandIn

    made = json.loads((workdir / "created.json").read_text())
    earlier = len((workdir / "server.log").read_text(errors="replace"))  # the create phase's
    with StandIn(port=made["standin_port"]) as standin:
        server = start(workdir, standin.url)
        try:
            log = server.log()[earlier:]
            assert f"Upgrading Letta's schema from letta {made['letta']} to letta {distribution_version('letta')}" in (
                log
            ), "the server did not say it upgraded the schema"
            backups = list((workdir / "backups").glob("letta-*-before-letta-*.dump"))
            assert len(backups) == 1, f"expected one backup before the upgrade, found {backups}"
            client = Letta(base_url=server.url, timeout=REQUEST_TIMEOUT, max_retries=0)
            agents = {a.id for a in client.agents.list(limit=100)}
            assert set(made["agents"]) <= agents, f"agents lost: {set(made['agents']) - agents}"
            blocks = {b.label: b.value for b in client.agents.blocks.list(agent_id=made["agent"])}
            assert blocks == made["blocks"], f"memory blocks changed: {blocks} != {made['blocks']}"
            passages = sorted(p.text for p in client.agents.passages.list(agent_id=made["agent"]))
            assert passages == made["passages"], f"passages changed: {passages}"
            messages = messages_of(client, made["agent"])
            lost = [m for m in made["messages"] if m not in messages]
            assert not lost, f"messages lost: {lost[:3]}"
            # The old agent still works with the newer letta: an emulated memory edit. letta 0.16.8
            # reads an agent saved without `strict` (every agent before it) as strict on an
            # OpenAI-type endpoint, so the model is shown every parameter as required, and writes
            # insert_line too.
            edit(client, standin, made["agent"], "I sail on Sundays", insert_line=-1)
            embeddings = sorted(e.handle for e in client.models.embeddings.list() if e.handle)
            model = f"venice/{EMULATED_MODEL}"
            remembers(
                client,
                standin,
                model,
                "my favourite tree is the oak",
                native=False,
                stream=False,
                **embedding_for(model, embeddings),
            )
        finally:
            code = server.stop()
    assert code == 0, f"the server command exited with code {code}"
    upgrade = re.search(r"Upgrading Letta's schema .*", log)
    return upgrade[0] if upgrade else "upgraded"


def refuse(workdir: Path) -> str:
    from letta_tool_emulation.runtime.standin import StandIn

    made = json.loads((workdir / "created.json").read_text())
    with StandIn(port=made["standin_port"]) as standin:
        server = Server(workdir, {"VENICE_API_KEY": "stand-in", "VENICE_BASE_URL": standin.url})
        try:
            server.start()
        except RuntimeError:
            pass
        else:
            server.stop()
            raise AssertionError("the older letta started on a database a newer one wrote")
        finally:
            server.kill()
    log = server.log()
    expected = f"newer than the installed letta {made['letta']}"
    assert expected in log, f"no refusal that says why in the log: {error_lines(log)}"
    assert server.proc is not None and server.proc.returncode == 3, f"exit code {server.proc.returncode}"
    line = next(line for line in log.splitlines() if expected in line)
    return line.split("letta-tool-emulation: ", 1)[-1][:300]


PHASES = {"create": create, "verify": verify, "refuse": refuse}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("phase", choices=sorted(PHASES))
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args(argv)
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    result: dict[str, Any] = {"phase": args.phase, "letta": distribution_version("letta"), "ok": False}
    try:
        result["detail"] = PHASES[args.phase](workdir)
        result["ok"] = True
    except AssertionError as exc:
        result["detail"] = str(exc)[:600]
    except Exception as exc:  # noqa: BLE001 - reported, not raised: the harness reads the JSON
        result["detail"] = describe(exc) + " " + traceback.format_exc(limit=2)[-400:]
    log = workdir / "server.log"
    result["log"] = error_lines(log.read_text(errors="replace")) if log.exists() and not result["ok"] else []
    result["seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(result), flush=True)
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
