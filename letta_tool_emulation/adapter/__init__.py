"""The Letta adapter: every letta import of the project lives in this package.

``activate()`` installs the plugin (the ``.pth`` hook calls it module by module as letta is
imported). Importing this package imports nothing from letta; ``VeniceEmulatedClient`` is
loaded on first access.
"""

from __future__ import annotations

from typing import Any

from .patches import activate, active, disabled

__all__ = ["VeniceEmulatedClient", "activate", "active", "disabled"]


def __getattr__(name: str) -> Any:
    if name == "VeniceEmulatedClient":
        from .client import VeniceEmulatedClient

        return VeniceEmulatedClient
    raise AttributeError(name)
