"""The Letta adapter: every letta import of the project lives in this package.

``activate()`` installs the plugin (the ``.pth`` hook calls it module by module as letta is
imported). Importing this package imports nothing from letta; ``EmulatedToolsClient`` (also
known as ``VeniceEmulatedClient``) is loaded on first access.
"""

from __future__ import annotations

from typing import Any

from .patches import activate, active, disabled

__all__ = ["EmulatedToolsClient", "VeniceEmulatedClient", "activate", "active", "disabled"]


def __getattr__(name: str) -> Any:
    if name in ("EmulatedToolsClient", "VeniceEmulatedClient"):
        from . import client

        return getattr(client, name)
    raise AttributeError(name)
