from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# HYPOTHESIS_PROFILE=deep for a long bug hunt; the default keeps the suite quick.
settings.register_profile("default", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=8000, deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# A calibration the user recorded (letta-tool-emulation calibrate) must not change what the tests see,
# in this process or in the servers it starts: they read a file of their own, absent unless a test writes it.
_CALIBRATION_DIR = tempfile.mkdtemp(prefix="lte-calibration-")
atexit.register(shutil.rmtree, _CALIBRATION_DIR, ignore_errors=True)
os.environ["LETTA_TOOL_EMULATION_CALIBRATION"] = str(Path(_CALIBRATION_DIR) / "calibration.json")

TESTS = Path(__file__).resolve().parent
# The tiers, by directory (or, where a directory mixes tiers, by file): each marker selects or
# leaves out a whole tier (`-m "not e2e"`); `python3 dev.py test --fast` leaves out all of them.
TIERS = {
    # The real server command on the embedded PostgreSQL, the stand-in model over HTTP.
    "e2e": "e2e",
    "proxy/test_letta_server.py": "e2e",
    # A real small model on llama-cpp-python's server (.venv-llama).
    "local": "real_model",
    "proxy/test_real_model.py": "real_model",
    "bench/test_bfcl_smoke.py": "real_model",
    # The same model on llama.cpp's own llama-server, which dev.py builds from source: tens of
    # minutes on two cores, so the whole suite leaves it out (`dev.py test --llama-server` runs it).
    "local/test_lazy_grammar.py": "llama_server",
    # The call blocks' structural tag, checked by xgrammar in its own environment (.venv-xgrammar,
    # which dev.py builds): `dev.py test --xgrammar`, and the whole suite after the rest.
    "xgrammar": "xgrammar",
    # The letta version matrix's claims (the matrix itself: dev.py compat).
    "compat": "compat",
    # Letta's own message tests, emulated against native, on the real server command (dev.py conformance).
    "conformance": "conformance",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        try:
            parts = item.path.resolve().relative_to(TESTS).parts
        except ValueError:  # not under tests/
            continue
        for where in ("/".join(parts), parts[0]):
            if where in TIERS:
                item.add_marker(TIERS[where])
                break
