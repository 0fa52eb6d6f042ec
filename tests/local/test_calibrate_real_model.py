"""``letta-tool-emulation calibrate`` on the real small model (SmolLM2-135M on llama-cpp-python's
server): four questions, one of each kind, in every mode the server supports (free text, and
constrained with any number of calls per reply and with one; it takes no lazy grammar, so free
text under one is no candidate), with short replies and no re-asks, so that it
stays within a few minutes on a shared 2-core machine (each question takes 5 to 25 s there); the choice it records is the one selection then makes for that model."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from letta_tool_emulation import calibration, endpoints
from letta_tool_emulation.cli import main
from letta_tool_emulation.runtime.llama import LlamaServer
from letta_tool_emulation.selection import decide


def test_calibrate_measures_both_modes_and_records_the_better(
    llama_server: LlamaServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    where = tmp_path / "calibration.json"
    monkeypatch.setenv(calibration.PATH_ENV, str(where))
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MAX_RETRIES", "0")
    args = ["calibrate", "--base-url", llama_server.url, "--model", llama_server.alias, "--questions", "4"]
    args += ["--max-tokens", "96"]
    assert main(args) == 0
    out, err = capsys.readouterr()
    print(out)  # the table, for whoever reads the test's output
    assert "| free |" in out and "| constrained (llama-cpp-python) |" in out
    # llama-cpp-python's server has no lazy grammar: free text under it is no candidate there, and says so.
    assert "| free + grammar: not asked, llama-cpp-python takes no lazy grammar" in out
    progress = [line.split()[1] for line in err.splitlines() if line.startswith("[")]
    # One line per question, as it is answered.
    assert progress == ["free"] * 4 + ["constrained"] * 4 + ["constrained+one-call"] * 4

    entry = json.loads(where.read_text())["endpoints"][llama_server.url][llama_server.alias]
    modes = entry["modes"]
    assert entry["questions"] == 4 and set(modes) == {"free", "constrained", "constrained+one-call"}
    assert "grammar" not in entry
    # Every question got an answer (right or wrong), and the server took the schema.
    assert all(m["errors"] == 0 and "schema_refused" not in m for m in modes.values())
    # The recorded mode is the best by calibrate's rule, from the figures it recorded.
    right = {name: sum(v for k, v in m["per_kind"].items() if k != "irrelevance") > 0 for name, m in modes.items()}
    ranked = sorted(modes, key=lambda n: (right[n], modes[n]["accuracy"], n == "constrained"), reverse=True)
    assert entry["mode"] == ("free" if ranked[0] == "free" else "constrained")
    assert entry.get("one_call", False) == (ranked[0] == "constrained+one-call")

    # Selection, for an emulated model at that endpoint, now asks in the recorded mode.
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MODELS", f"openai-proxy/{llama_server.alias}")
    config = SimpleNamespace(
        model=llama_server.alias,
        model_endpoint=llama_server.url,
        provider_name="openai",
        handle=f"openai-proxy/{llama_server.alias}",
        model_wrapper=None,
    )
    assert endpoints.KNOWN.server(llama_server.url) is not None  # calibrate's probe found the server kind
    decision = decide(config)
    assert decision.schema_shape == (None if entry["mode"] == "free" else "llama-cpp-python")
    assert decision.one_call == (ranked[0] == "constrained+one-call")
