"""The other commands, run as a user runs them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

from .conftest import COMMAND, free_port, wait_gone


def clean_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VENICE_", "OPENAI_", "LETTA_"))}
    env["HOME"] = str(tmp_path)
    return env


def test_demo_shows_a_memory_edit_from_start_to_finish(tmp_path: Path) -> None:
    data = tmp_path / "demo"
    result = subprocess.run(
        [COMMAND, "demo", "--port", str(free_port()), "--data-dir", str(data)],
        env=clean_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert "using the local stand-in model" in out
    assert "Model: venice/e2ee-" in out and "venice-uncensored" not in out  # read from /models
    assert "Memory block 'human' before:\n  'Name: Ana'" in out
    assert "tool call:   memory_insert(" in out and "tool result: [success]" in out
    assert "Memory block 'human' after:\n  'Name: Ana\\nI like pizza'" in out
    assert wait_gone(str(data)) == []


def test_stand_in_model_command(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [COMMAND, "stand-in-model", "--port", str(port), "--sloppy", "--seed", "3"], env=clean_env(tmp_path)
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2) as r:
                    models = json.loads(r.read())["data"]
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.3)
        caps = {m["id"]: m["model_spec"]["capabilities"]["supportsFunctionCalling"] for m in models}
        assert caps == {
            "venice-uncensored": False,
            "stand-in-native": True,
            "e2ee-qwen3-6-35b-a3b-uncensored-p": False,
            "e2ee-glm-5-2-p": True,
        }
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/chat/completions",
            data=json.dumps(
                {"model": "venice-uncensored", "messages": [{"role": "user", "content": "hi"}], "tools": []}
            ).encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            urllib.request.urlopen(request, timeout=5)
            raise AssertionError("tools must be refused")
        except urllib.error.HTTPError as exc:
            assert exc.code == 400 and "does not support function calling" in exc.read().decode()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
