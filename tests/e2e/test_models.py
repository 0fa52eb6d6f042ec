"""Venice models in the model picker of a running Letta server."""

from __future__ import annotations

from typing import Any

from letta_tool_emulation.runtime.standin import CONTEXT_TOKENS, MAX_COMPLETION_TOKENS
from letta_tool_emulation.runtime.standin.catalog import E2EE_CONTEXT_TOKENS, E2EE_MODEL

from .conftest import MODEL, NATIVE, Server, block, new_agent, say


def test_venice_handles_with_real_context_windows(server: Server, letta: Any) -> None:
    models = {m.handle: m for m in letta.models.list()}
    assert {MODEL, NATIVE} <= set(models)
    for handle in (MODEL, NATIVE):
        assert models[handle].context_window == CONTEXT_TOKENS  # not Letta's 30000 default
        assert models[handle].max_tokens == MAX_COMPLETION_TOKENS
        assert models[handle].provider_name == "venice"
        assert models[handle].model_endpoint_type == "openai"  # keeps Letta's streaming paths
    embeddings = {m.handle for m in letta.models.embeddings.list()}
    assert "venice/text-embedding-bge-m3" in embeddings


def test_launcher_reports_what_it_found(server: Server) -> None:
    log = server.log()
    assert f"Letta server with tool emulation is ready at {server.url}" in log
    assert "Venice: key accepted" in log
    assert f"{MODEL}  context {CONTEXT_TOKENS}  (tool emulation)" in log
    assert f"{NATIVE}  context {CONTEXT_TOKENS}  (native tools)" in log
    e2ee = f"venice/{E2EE_MODEL}  context {E2EE_CONTEXT_TOKENS}  (end-to-end encrypted, tool emulation)"
    assert e2ee in log


def test_agent_gets_the_models_real_output_limit(letta: Any) -> None:
    agent = new_agent(letta)
    assert agent.llm_config.max_tokens == MAX_COMPLETION_TOKENS
    assert agent.llm_config.context_window == CONTEXT_TOKENS


def test_byok_provider_with_a_venice_base_url_gets_the_same_treatment(server: Server, letta: Any, standin: Any) -> None:
    created = letta.post(
        "/v1/providers/",
        cast_to=object,
        body={"name": "myvenice", "provider_type": "openai", "api_key": "byok-key", "base_url": standin.url},
    )
    try:
        models = {m.handle: m for m in letta.models.list()}
        assert models["myvenice/venice-uncensored"].context_window == CONTEXT_TOKENS
        assert models["myvenice/venice-uncensored"].provider_category == "byok"
        agent = new_agent(letta, model="myvenice/venice-uncensored")
        standin.reset()
        say(letta, agent, "Remember that I like tea")
        assert block(letta, agent) == "Name: Ana\nI like tea"
        sent = standin.requests
        assert sent and all("tools" not in r for r in sent)  # emulated, like the base provider's model
    finally:
        letta.delete(f"/v1/providers/{created['id']}", cast_to=object)


def test_native_model_passes_through_with_real_tools(letta: Any, standin: Any) -> None:
    agent = new_agent(letta, model=NATIVE)
    say(letta, agent, "Remember that I like jazz")
    assert block(letta, agent) == "Name: Ana\nI like jazz"
    first = standin.requests[0]
    assert [t["function"]["name"] for t in first["tools"]]  # native tool calling, untouched
    assert first["tool_choice"] == "auto"
