"""Every test here runs with the scanner's transitions recorded: each one taken must be in the
table (``core/scan/states.py``)."""

from __future__ import annotations

from collections.abc import Generator

import pytest

from letta_tool_emulation.core.scan import record, unknown


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    with record() as seen:
        result = yield
    missing = unknown(seen)
    if missing:
        raise AssertionError(f"transitions missing from the scanner's table: {', '.join(missing)}")
    return result
