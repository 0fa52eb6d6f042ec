"""An OpenAI-compatible server that gives tool calling to models without it, for any client
(Letta Code, the OpenAI SDKs, agent frameworks): ``letta-tool-emulation proxy``.

It drives the same turn engine as the Letta plugin (``engine.prepare``/``engine.run``) over the
same transports, in front of Venice (``e2ee-*`` models end-to-end encrypted) or any
OpenAI-compatible endpoint. Requests that need no emulation pass through untouched. Nothing
here imports letta: the proxy serves clients that never run the Letta server.
"""

from __future__ import annotations

from .app import create_app
from .server import ProxyServer, Settings, SettingsError, settings_from

__all__ = ["ProxyServer", "Settings", "SettingsError", "create_app", "settings_from"]
