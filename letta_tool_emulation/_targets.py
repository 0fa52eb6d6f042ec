"""What the start-up hook and activation share: the letta modules the plugin patches, and its
off switch. It runs nothing at import and imports only ``os`` (already loaded at start-up), so
either side can import it without importing the other.
"""

import os

# The letta modules the plugin patches. adapter/patches.py installs exactly these.
TARGETS = (
    "letta.llm_api.llm_client",
    "letta.schemas.providers.openai",
    "letta.schemas.providers.ollama",
    "letta.server.server",
    "letta.services.provider_manager",
)
DISABLE_ENV = "LETTA_TOOL_EMULATION_DISABLE"


def disabled() -> bool:
    return os.environ.get(DISABLE_ENV, "").strip().lower() in ("1", "true", "yes")
