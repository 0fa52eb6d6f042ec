"""Registration: the .pth hook activates the plugin in every process that imports letta."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

CLIENT_TYPE = (
    "from letta.llm_api.llm_client import LLMClient; from letta.schemas.enums import ProviderType; "
    "print(type(LLMClient.create(ProviderType.openai)).__name__)"
)


def run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("LETTA_TOOL_EMULATION")}
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=full_env, timeout=300, check=False
    )


def last_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.strip().splitlines()[-1]


def test_fresh_interpreter_gets_the_plugin_without_asking() -> None:
    assert last_line(run(CLIENT_TYPE)) == "EmulatedToolsClient"


def test_spawned_worker_gets_the_plugin(tmp_path: Path) -> None:
    # uvicorn starts its workers this way (multiprocessing "spawn": fresh interpreters).
    code = textwrap.dedent(
        """
        import multiprocessing as mp

        def probe(q):
            from letta.llm_api.llm_client import LLMClient
            from letta.schemas.enums import ProviderType
            q.put(type(LLMClient.create(ProviderType.openai)).__name__)

        if __name__ == "__main__":
            ctx = mp.get_context("spawn")
            q = ctx.Queue()
            p = ctx.Process(target=probe, args=(q,))
            p.start()
            print(q.get(timeout=120))
            p.join()
        """
    )
    script = tmp_path / "spawn_probe.py"  # spawn re-imports the main module, so it must be a file
    script.write_text(code)
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, check=False)
    assert last_line(result) == "EmulatedToolsClient"


def test_disable_switch_leaves_letta_alone() -> None:
    assert last_line(run(CLIENT_TYPE, LETTA_TOOL_EMULATION_DISABLE="1")) == "OpenAIClient"


def test_start_up_imports_neither_letta_nor_the_plugin() -> None:
    code = "import sys; print(sorted(m for m in sys.modules if m.startswith('letta')))"
    assert last_line(run(code)) == (
        "['letta_tool_emulation', 'letta_tool_emulation._hook', 'letta_tool_emulation._targets']"
    )


def test_letta_imported_before_the_hook_is_still_patched() -> None:
    code = (
        "import sys; sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != 'LettaToolEmulationFinder']; "
        "from letta.llm_api.llm_client import LLMClient; import letta_tool_emulation._hook as h; h.install(); "
        + CLIENT_TYPE
    )
    assert last_line(run(code)) == "EmulatedToolsClient"


def test_changed_letta_gets_one_warning_and_is_left_untouched() -> None:
    code = textwrap.dedent(
        """
        import logging, sys
        logging.basicConfig(level=logging.WARNING, stream=sys.stdout, format="%(message)s")
        sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "LettaToolEmulationFinder"]
        import letta.llm_api.llm_client as m
        original = m.LLMClient.create
        m.LLMClient.create = classmethod(lambda cls, *a, **k: "changed")  # as if letta had changed
        from letta_tool_emulation.adapter import patches
        print("active:", patches.activate(), patches.activate())
        print("untouched:", m.LLMClient.__dict__["create"].__class__.__name__)
        """
    )
    result = run(code)
    out = result.stdout
    assert result.returncode == 0, result.stderr[-2000:]
    assert out.count("letta_tool_emulation is NOT active") == 1
    assert "LLMClient.create is missing or not a staticmethod" in out and "the plugin supports letta 0.16" in out
    assert "active: False False" in out and "untouched: classmethod" in out


def test_activate_is_idempotent() -> None:
    code = (
        "import letta_tool_emulation as m; from letta.llm_api.llm_client import LLMClient; "
        "a = m.activate(); first = LLMClient.__dict__['create']; "
        "print(a, m.activate(), LLMClient.__dict__['create'] is first)"
    )
    assert last_line(run(code)) == "True True True"
