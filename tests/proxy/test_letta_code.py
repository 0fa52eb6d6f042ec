"""Letta Code itself (npm ``@letta-ai/letta-code``), headless on its local backend, connected to
the proxy with ``letta connect openai-compatible``: it sends its 18 native tools to the
stand-in's model without function calling, through the proxy, and the agent writes its memory.

Installation: ``npm install @letta-ai/letta-code`` resolves every dependency in its
package.json, and three of them (@letta-ai/letta-agent-sdk, @letta-ai/trajectory@0.2.0 and
@janhapke/sharp-electron@0.35.3-electron.1) are not served by the npm registry this project's
CI reaches (it answers 404). The package's ``letta.js`` is one bundle that loads only ``ws``
and ``node-pty`` from outside at run time, so the test installs, into a throwaway prefix,
the package's own tarball (``npm pack``) and those two.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from letta_tool_emulation.proxy import ProxyServer
from letta_tool_emulation.runtime.standin import CONTEXT_TOKENS, EMULATED_MODEL, StandIn

LETTA_CODE = "@letta-ai/letta-code@0.32.18"
RUNTIME_DEPENDENCIES = ("ws@^8.19.0", "node-pty@^1.1.0")
NPM = shutil.which("npm")
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NPM is None or NODE is None, reason="Letta Code needs Node.js and npm")


def run(*cmd: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 600) -> str:
    done = subprocess.run(
        cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 0, (
        f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done.stdout


@pytest.fixture(scope="module")
def letta_code(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``letta.js`` installed into a throwaway prefix."""
    assert NPM is not None
    prefix = tmp_path_factory.mktemp("letta-code-prefix")
    (prefix / "package.json").write_text(json.dumps({"name": "letta-code-throwaway", "private": True}))
    npm = (NPM, "--no-audit", "--no-fund", "--loglevel=error")
    tarball = run(*npm, "pack", LETTA_CODE, "--pack-destination", str(prefix), cwd=prefix).strip().splitlines()[-1]
    target = prefix / "letta-code"  # beside node_modules, where npm install leaves it alone
    target.mkdir()
    run("tar", "-xzf", str(prefix / tarball), "-C", str(target), "--strip-components=1", cwd=prefix)
    run(*npm, "install", "--ignore-scripts", *RUNTIME_DEPENDENCIES, cwd=prefix)
    return target / "letta.js"


def letta(letta_js: Path, home: Path, work: Path, *args: str) -> str:
    assert NODE is not None
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LETTA_", "OPENAI_", "VENICE_", "ANTHROPIC_"))}
    env.update(HOME=str(home), NO_COLOR="1", CI="true")
    return run(NODE, str(letta_js), "--backend", "local", *args, cwd=work, env=env, timeout=420)


def memory_files(home: Path, name: str) -> list[Path]:
    return sorted((home / ".letta").rglob(name))


def test_letta_code_writes_its_memory_through_the_proxy(
    letta_code: Path, proxy: ProxyServer, upstream: StandIn, tmp_path: Path
) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    letta(letta_code, home, work, "connect", "openai-compatible", "--base-url", proxy.url)
    listed = json.loads(letta(letta_code, home, work, "model", "list"))
    assert f"openai-compatible/{EMULATED_MODEL}" in {m["handle"] for m in listed}
    # Its LM Studio connector reads the context window from /api/v0/models, which the proxy
    # answers from the upstream's data; the OpenAI-compatible one assumes 128k.
    letta(letta_code, home, work, "connect", "lmstudio", "--base-url", proxy.url)
    windows = {
        m["handle"]: m["context_window_limit"] for m in json.loads(letta(letta_code, home, work, "model", "list"))
    }
    assert windows[f"lmstudio/{EMULATED_MODEL}"] == CONTEXT_TOKENS
    assert windows[f"openai-compatible/{EMULATED_MODEL}"] == 128000

    # The stand-in calls a tool when told "call <tool> with <arguments>"; a real model decides
    # for itself. Letta Code's `memory` tool writes the file and commits it.
    create = {"command": "create", "reason": "Track fruit preferences", "file_path": "system/human/fruit.md",
              "description": "The fruit the user likes.", "file_text": "The user likes pears."}  # fmt: skip
    out = letta(letta_code, home, work, "-m", f"openai-compatible/{EMULATED_MODEL}", "--output-format", "json",
                "-p", f"call memory with {json.dumps(create)}")  # fmt: skip
    result = _result(out)
    assert result["subtype"] == "success" and not result["is_error"], result
    assert result["result"] == "Done."  # the stand-in's answer once the tool's result came back
    (fruit,) = memory_files(home, "fruit.md")
    assert fruit.read_text().rstrip().endswith("The user likes pears.")

    replace = {"command": "str_replace", "reason": "Update", "file_path": "system/human/fruit.md",
               "old_string": "likes pears", "new_string": "likes quinces"}  # fmt: skip
    out = letta(letta_code, home, work, "-m", f"openai-compatible/{EMULATED_MODEL}", "--output-format", "json",
                "--agent", result["agent_id"], "-p", f"call memory with {json.dumps(replace)}")  # fmt: skip
    assert _result(out)["subtype"] == "success"
    assert fruit.read_text().rstrip().endswith("The user likes quinces.")

    # Letta Code sent native tools and streamed; the model without function calling got text.
    chats = [r for r in upstream.requests if r.get("model") == EMULATED_MODEL]
    assert len(chats) >= 4 and all("tools" not in r and r.get("stream") for r in chats)
    assert all(m["role"] in ("system", "user", "assistant") for r in chats for m in r["messages"])
    assert "\n- memory(command" in str(chats[0]["messages"][0]["content"])  # the tool, as the prompt lists it


def _result(out: str) -> dict[str, Any]:
    """The last JSON document Letta Code printed (its headless json output)."""
    start = out.rfind("\n{\n")
    parsed = json.loads(out[start + 1 :] if start >= 0 else out)
    assert isinstance(parsed, dict)
    return parsed
