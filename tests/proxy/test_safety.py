"""The proxy is safe to run: client keys checked and never forwarded, OpenAI-style errors with
the upstream's status, no hang on a stalled upstream, cancelled upstream requests when the
client leaves, no cross-talk between concurrent requests, no secrets or prompts in its log,
and no letta in its process."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import httpx
import openai
import pytest

from letta_tool_emulation import cli
from letta_tool_emulation.proxy import ProxyServer, Settings, SettingsError, settings_from
from letta_tool_emulation.runtime.stack import free_port
from letta_tool_emulation.runtime.standin import EMULATED_MODEL, StandIn

from . import gated
from .conftest import CLIENT_KEY, MEMORY_TOOLS, UPSTREAM_KEY, post_stream, proxy_settings
from .contract import check_stream

ASK = {"model": EMULATED_MODEL, "messages": [{"role": "user", "content": "Remember that I like pears"}],
       "tools": MEMORY_TOOLS}  # fmt: skip


@pytest.fixture(scope="module")
def keyed(standin: StandIn) -> Iterator[ProxyServer]:
    with ProxyServer(proxy_settings(standin.url, client_key=CLIENT_KEY)) as p:
        yield p


# -- keys ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"}, {"Authorization": CLIENT_KEY}])
def test_a_missing_or_wrong_client_key_gets_401(keyed: ProxyServer, upstream: StandIn, headers: dict[str, str]) -> None:
    for method, path in (("POST", "/chat/completions"), ("GET", "/models")):
        r = httpx.request(method, keyed.url + path, json=ASK, headers=headers, timeout=30)
        assert r.status_code == 401
        assert r.json()["error"]["type"] == "authentication_error" and r.json()["error"]["code"] == "invalid_api_key"
    assert upstream.requests == []


def test_the_right_client_key_is_never_forwarded(keyed: ProxyServer, upstream: StandIn) -> None:
    client = openai.OpenAI(base_url=keyed.url, api_key=CLIENT_KEY, max_retries=0)
    assert client.chat.completions.create(**ASK).choices[0].message.tool_calls  # type: ignore[call-overload]
    stream = client.chat.completions.create(**{**ASK, "model": "stand-in-native"}, stream=True)  # pass-through
    assert [c for c in stream]
    r = httpx.get(keyed.url + "/models", headers={"x-api-key": CLIENT_KEY}, timeout=30)
    assert r.status_code == 200
    seen = upstream.state.keys.seen
    assert seen and {key for _, key in seen} == {UPSTREAM_KEY}


def test_a_non_loopback_bind_needs_a_client_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VENICE_API_KEY", UPSTREAM_KEY)
    monkeypatch.setenv("PROXY_TEST_CLIENT_KEY", CLIENT_KEY)
    for host in ("0.0.0.0", "::", "192.0.2.10", "example.org"):
        with pytest.raises(SettingsError, match="without a client key"):
            settings_from(host=host)
    assert settings_from(host="0.0.0.0", api_key_env="PROXY_TEST_CLIENT_KEY").client_key == CLIENT_KEY
    assert settings_from(host="::1").client_key is None
    with pytest.raises(SettingsError, match="not set"):
        settings_from(api_key_env="PROXY_TEST_NOT_SET")


def test_the_command_says_what_to_change(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("VENICE_API_KEY", raising=False)
    assert cli.main(["proxy"]) == 2
    assert "VENICE_API_KEY is not set" in capsys.readouterr().err
    monkeypatch.setenv("VENICE_API_KEY", UPSTREAM_KEY)
    assert cli.main(["proxy", "--host", "0.0.0.0"]) == 2
    err = capsys.readouterr().err
    assert "--api-key-env" in err and UPSTREAM_KEY not in err


def test_another_upstream_takes_its_key_from_the_environment_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VENICE_API_KEY", raising=False)
    monkeypatch.setenv("LETTA_TOOL_EMULATION_UPSTREAM_KEY", "local-key")
    settings = settings_from(upstream="http://127.0.0.1:11434")
    assert (settings.base_url, settings.upstream_key, settings.provider) == ("http://127.0.0.1:11434/v1", "local-key",
                                                                             "proxy")  # fmt: skip
    with pytest.raises(SettingsError, match="http"):
        settings_from(upstream="127.0.0.1:11434")


# -- upstream errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize("streamed", [False, True])
@pytest.mark.parametrize(
    ("status", "error", "headers"),
    [(400, "Invalid request: bad", {}), (402, "Insufficient USD or Diem balance", {}),
     (429, "Rate limit exceeded", {"retry-after": "120"}), (404, "Model not found", {})],
)  # fmt: skip
def test_upstream_errors_keep_their_status(
    proxy: ProxyServer, upstream: StandIn, streamed: bool, status: int, error: str, headers: dict[str, str]
) -> None:
    upstream.script({"status": status, "error": error, "headers": headers})
    if streamed:
        response, _ = post_stream(proxy.url, ASK)
    else:
        response = httpx.post(proxy.url + "/chat/completions", json=ASK, timeout=30)
    assert response.status_code == status
    body = response.json()["error"]
    assert error in body["message"] and isinstance(body["type"], str)
    if headers:
        assert response.headers["retry-after"] == "120"
    upstream.script({"status": status, "error": error, "headers": headers})
    with pytest.raises(openai.APIStatusError) as raised:  # what an SDK makes of it
        openai.OpenAI(base_url=proxy.url, api_key="x", max_retries=0).chat.completions.create(
            **ASK, stream=streamed)  # type: ignore[call-overload]  # fmt: skip
    assert raised.value.status_code == status and error in raised.value.message


@pytest.fixture(scope="module")
def impatient(standin: StandIn) -> Iterator[ProxyServer]:
    with ProxyServer(proxy_settings(standin.url, timeout=2.0)) as p:
        yield p


@pytest.mark.parametrize("streamed", [False, True])
def test_a_stalled_upstream_ends_in_a_timeout_error(impatient: ProxyServer, upstream: StandIn, streamed: bool) -> None:
    upstream.script({"text": "late", "delay": 30})
    response = post_stream(impatient.url, ASK)[0] if streamed else httpx.post(
        impatient.url + "/chat/completions", json=ASK, timeout=60)  # fmt: skip
    assert response.status_code == 504
    assert response.json()["error"]["type"] == "timeout_error"


def test_a_stream_that_stalls_half_way_ends_in_an_error_event(impatient: ProxyServer, upstream: StandIn) -> None:
    upstream.script({"text": "Sure, one moment, I am writing the call now", "stall_after": 10, "stall": 30})
    response, events = post_stream(impatient.url, ASK)
    assert response.status_code == 200
    assert events[-1]["error"]["type"] == "timeout_error" and "[DONE]" not in events
    assert not any(c.get("delta", {}).get("tool_calls") for e in events[:-1] for c in e["choices"])


def test_a_stream_that_breaks_off_returns_no_call(proxy: ProxyServer, upstream: StandIn) -> None:
    text = 'TOOL_CALL_START\n{"function": "memory_insert", "params": {"label": "human", "new_string": "pears"}}'
    upstream.script({"text": text + "\nTOOL_CALL_END", "break_after": len(text) - 5})
    response, events = post_stream(proxy.url, ASK)
    assert response.status_code == 200
    assert events[-1]["error"]["code"] == "upstream_stream_broken"
    assert not any(c.get("delta", {}).get("tool_calls") for e in events[:-1] for c in e["choices"])
    with pytest.raises(openai.APIError):  # the SDK raises the error event
        upstream.script({"text": text + "\nTOOL_CALL_END", "break_after": len(text) - 5})
        list(openai.OpenAI(base_url=proxy.url, api_key="x", max_retries=0).chat.completions.create(**ASK, stream=True))  # type: ignore[call-overload]


# -- disconnects -------------------------------------------------------------------------------------


@pytest.fixture
def gated_proxy(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[gated.Gated, ProxyServer]]:
    monkeypatch.setenv("LETTA_TOOL_EMULATION_MODELS", f"proxy/{gated.MODEL}")
    upstream = gated.Gated().start()
    with ProxyServer(Settings("127.0.0.1", free_port(), upstream.url, None, "proxy", None, 120.0)) as proxy:
        yield upstream, proxy
    upstream.stop()


@pytest.mark.parametrize("streamed", [True, False])
def test_a_client_that_disconnects_cancels_the_upstream_request(
    gated_proxy: tuple[gated.Gated, ProxyServer], streamed: bool
) -> None:
    upstream, proxy = gated_proxy
    body = {**ASK, "model": gated.MODEL, "stream": streamed}

    def leave_early() -> None:
        with httpx.Client(timeout=60) as client:
            if streamed:
                with client.stream("POST", proxy.url + "/chat/completions", json=body) as response:
                    for line in response.iter_lines():
                        if "first words" in line:
                            return  # closes the connection half-way through the reply
            else:
                with pytest.raises(httpx.ReadTimeout):
                    client.post(proxy.url + "/chat/completions", json=body, timeout=httpx.Timeout(60, read=2))

    client = threading.Thread(target=leave_early)
    client.start()
    if streamed:
        deadline = time.monotonic() + 60
        while upstream.pieces is None and time.monotonic() < deadline:
            time.sleep(0.05)
        upstream.send(gated.chunk({"role": "assistant", "content": "The first words. "}))
    client.join(90)
    # The proxy cancels its upstream request: the upstream sees the connection close before the
    # reply it is holding back ever ends.
    assert upstream.abandoned.wait(60), "the upstream request was left running"


# -- no cross-talk -----------------------------------------------------------------------------------


def test_concurrent_requests_each_get_their_own_answer(proxy: ProxyServer, upstream: StandIn) -> None:
    async def one(client: httpx.AsyncClient, n: int) -> tuple[int, str]:
        body = {**ASK, "messages": [{"role": "user", "content": f"Remember that my token is t{n}x"}]}
        if n % 2:
            async with client.stream("POST", proxy.url + "/chat/completions", json={**body, "stream": True}) as r:
                events = [json.loads(line[6:]) if line[6:] != "[DONE]" else "[DONE]"
                          async for line in r.aiter_lines() if line.startswith("data: ")]  # fmt: skip
            return n, json.loads(check_stream(events, include_usage=False).calls[0]["arguments"])["new_string"]
        r = await client.post(proxy.url + "/chat/completions", json=body)
        return n, json.loads(r.json()["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"])["new_string"]

    async def all_of_them() -> list[tuple[int, str]]:
        async with httpx.AsyncClient(timeout=120) as client:
            return await asyncio.gather(*(one(client, n) for n in range(30)))

    for n, remembered in asyncio.run(all_of_them()):
        assert remembered == f"my token is t{n}x"


# -- the process: its log, and no letta -------------------------------------------------------------

PROMPT_MARKER = "zebra-violet-4417"
SCRIPT = (
    "import atexit, sys\n"
    "from letta_tool_emulation import cli\n"
    "atexit.register(lambda: print('LETTA MODULES:', sorted(m for m in sys.modules if m.split('.')[0] == 'letta'),"
    " flush=True))\n"
    "sys.exit(cli.main(sys.argv[1:]))\n"
)


def test_the_command_logs_neither_secrets_nor_prompts_and_imports_no_letta(standin: StandIn) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VENICE_", "LETTA_", "OPENAI_"))}
    env.update(VENICE_API_KEY=UPSTREAM_KEY, VENICE_BASE_URL=standin.url, PROXY_CLIENT_KEY=CLIENT_KEY,
               PYTHONUNBUFFERED="1")  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, "proxy", "--port", str(port), "--api-key-env", "PROXY_CLIENT_KEY"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}/v1"
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(url.removesuffix("/v1") + "/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "the proxy did not start"
            time.sleep(0.3)
        client = openai.OpenAI(base_url=url, api_key=CLIENT_KEY, max_retries=0)
        secret = [{"role": "user", "content": f"Remember that my passphrase is {PROMPT_MARKER}"}]
        client.chat.completions.create(model=EMULATED_MODEL, messages=secret, tools=MEMORY_TOOLS)  # type: ignore[arg-type]
        list(client.chat.completions.create(model=EMULATED_MODEL, messages=secret, tools=MEMORY_TOOLS, stream=True))  # type: ignore[arg-type]
        client.chat.completions.create(model=EMULATED_MODEL, messages=secret)  # type: ignore[arg-type]  # pass-through
        standin.script({"status": 400, "error": f"cannot read {PROMPT_MARKER[:5]}"})
        with pytest.raises(openai.BadRequestError):
            client.chat.completions.create(model=EMULATED_MODEL, messages=secret, tools=MEMORY_TOOLS)  # type: ignore[arg-type]
        httpx.post(url + "/chat/completions", json={"model": EMULATED_MODEL, "messages": secret},
                   headers={"Authorization": "Bearer not-the-key"}, timeout=30)  # fmt: skip
    finally:
        proc.send_signal(signal.SIGINT)  # Ctrl-C: a clean stop
        out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out
    assert "(emulated) 200" in out and "(pass-through) 200" in out  # it does log each request
    for secret_text in (UPSTREAM_KEY, CLIENT_KEY, PROMPT_MARKER, "passphrase"):
        assert secret_text not in out, f"{secret_text!r} reached the log:\n{out}"
    assert "LETTA MODULES: []" in out, out


def test_no_letta_in_the_proxy_modules() -> None:
    """Belt and braces for the test above: the proxy's modules import none of letta by name."""
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2] / "letta_tool_emulation" / "proxy"
    for path in root.glob("*.py"):
        text = path.read_text()
        assert "import letta\n" not in text and "from letta" not in text, path
        assert "adapter" not in text.replace("adapter/", ""), path
