"""Start-up hook, run by ``letta_tool_emulation.pth`` in every Python process of the
environment the plugin is installed in.

It imports nothing but ``sys`` and ``_targets`` (which imports only ``os``, loaded at start-up
already; the package's ``__init__`` is lazy) and only adds an import finder that waits for the
letta modules in :data:`~._targets.TARGETS`. As each of them finishes loading, the plugin puts
a trigger on it: the first call through a trigger activates the plugin (see
``adapter/patches.py``), when all of letta is importable and can be checked. A process that never imports letta pays a few
microseconds. ``LETTA_TOOL_EMULATION_DISABLE=1`` turns it off.
"""

import sys

from ._targets import TARGETS, disabled

# Not typing.TYPE_CHECKING, and no __future__ import: this runs in every Python process
# (see __init__.py). Type checkers treat a TYPE_CHECKING name as true wherever it comes from.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.abc import Loader
    from importlib.machinery import ModuleSpec
    from types import ModuleType
    from typing import Any

    # The import system needs only a loader's methods; the stubs ask for the class.
    _LoaderBase = Loader
else:
    _LoaderBase = object


def _loaded(name: str, module: "ModuleType") -> None:
    try:
        from letta_tool_emulation.adapter.patches import on_import

        on_import(name, module)
    except Exception as exc:  # noqa: BLE001 - never break the import of letta
        sys.stderr.write(f"letta_tool_emulation: not active ({type(exc).__name__}: {exc})\n")


class _Loader(_LoaderBase):
    def __init__(self, loader: "Loader", name: str) -> None:
        self._loader = loader
        self._name = name

    def create_module(self, spec: "ModuleSpec") -> "ModuleType | None":
        return self._loader.create_module(spec)

    def exec_module(self, module: "ModuleType") -> None:
        self._loader.exec_module(module)
        _loaded(self._name, module)

    def __getattr__(self, attr: str) -> "Any":
        return getattr(self._loader, attr)


class LettaToolEmulationFinder:
    def find_spec(
        self, name: str, path: "Sequence[str] | None" = None, target: "ModuleType | None" = None
    ) -> "ModuleSpec | None":
        if name not in TARGETS:
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


def install() -> None:
    if disabled():
        return
    if any(type(f).__name__ == "LettaToolEmulationFinder" for f in sys.meta_path):
        return
    sys.meta_path.insert(0, LettaToolEmulationFinder())
    for name in TARGETS:  # letta imported before the hook: put the triggers on what is there
        if name in sys.modules:
            _loaded(name, sys.modules[name])


install()
