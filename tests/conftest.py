from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# HYPOTHESIS_PROFILE=deep for a long bug hunt; the default keeps the suite quick.
settings.register_profile("default", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=8000, deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

TESTS = Path(__file__).resolve().parent
# The tiers, by directory: each marker selects or leaves out a whole tier (`-m "not e2e"`);
# `python3 dev.py test --fast` leaves out all three.
TIERS = {
    "e2e": "e2e",  # the real server command on the embedded PostgreSQL, the stand-in model over HTTP
    "local": "real_model",  # a real small model on llama-cpp-python's server (.venv-llama)
    "compat": "compat",  # the letta version matrix's claims (the matrix itself: dev.py compat)
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        try:
            where = item.path.resolve().relative_to(TESTS).parts[0]
        except ValueError:  # not under tests/
            continue
        if where in TIERS:
            item.add_marker(TIERS[where])
