"""Whether Letta runs several calls of one reply at once, read without letta's deprecation warning."""

from __future__ import annotations

import warnings

import pytest

from letta_tool_emulation.adapter.client import parallel_tool_calls
from letta_tool_emulation.adapter.letta_api import LLMConfig


@pytest.mark.parametrize("enabled", [True, False])
def test_the_setting_is_read_without_a_warning(enabled: bool) -> None:
    config = LLMConfig(model="m", model_endpoint_type="openai", context_window=8192, parallel_tool_calls=enabled)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert parallel_tool_calls(config) is enabled
    assert [str(w.message) for w in caught] == []
