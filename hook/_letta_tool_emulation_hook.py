"""Start-up hook of letta-tool-emulation, run by ``letta_tool_emulation.pth`` in every Python
process of the environment it is installed in.

It imports nothing but ``os`` and ``sys`` (both already loaded at start-up) and only adds an
import finder that waits for letta's own modules: as each of them finishes loading, the
plugin patches it. A process that never imports letta pays a few microseconds.
``LETTA_TOOL_EMULATION_DISABLE=1`` turns it off.
"""

import os
import sys

_TARGETS = frozenset(
    {
        "letta.llm_api.llm_client",
        "letta.schemas.providers.openai",
        "letta.server.server",
        "letta.services.provider_manager",
    }
)


def _apply(name, module):
    try:
        from letta_tool_emulation.adapter.patches import apply

        apply(name, module)
    except Exception as exc:  # noqa: BLE001 - never break the import of letta
        sys.stderr.write(f"letta_tool_emulation: not active ({type(exc).__name__}: {exc})\n")


class _Loader:
    def __init__(self, loader, name):
        self._loader = loader
        self._name = name

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        _apply(self._name, module)

    def __getattr__(self, attr):
        return getattr(self._loader, attr)


class LettaToolEmulationFinder:
    def find_spec(self, name, path=None, target=None):
        if name not in _TARGETS:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _Loader(spec.loader, name)
        return spec


def install():
    if os.environ.get("LETTA_TOOL_EMULATION_DISABLE", "").strip().lower() in ("1", "true", "yes"):
        return
    if any(type(f).__name__ == "LettaToolEmulationFinder" for f in sys.meta_path):
        return
    sys.meta_path.insert(0, LettaToolEmulationFinder())
    for name in _TARGETS:  # letta imported before the hook: patch what is there
        if name in sys.modules:
            _apply(name, sys.modules[name])


install()
