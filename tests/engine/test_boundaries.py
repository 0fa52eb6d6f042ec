"""The package's boundaries, as its imports draw them: the engine and the core load nothing that
does I/O, and no module imports, even late, a module that imports it back."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import letta_tool_emulation

PACKAGE = Path(letta_tool_emulation.__file__).parent
NAME = "letta_tool_emulation"

# Modules that do I/O (or reach it), and threading, which no pure module needs.
IO_MODULES = ("httpx", "openai", "ssl", "socket", "threading", "asyncio", "letta", "subprocess", "urllib.request")
PURE = (f"{NAME}.core", f"{NAME}.engine", f"{NAME}.step", f"{NAME}.venice_dialect", f"{NAME}.server_dialect")
# regex keeps its compiled patterns in a cache behind a threading lock: the one library allowed
# to load threading, since it runs none.
ALLOWED_LOADERS = {"threading": {"regex.regex"}}

# In a fresh interpreter without site hooks (which would import threading and the plugin's own
# start-up hook first), every first import of a watched module is traced to the module whose
# code imported it.
_WATCH = """
import json, sys
WATCHED = set(sys.argv[1].split(","))
loaders = {}

class Watch:
    def find_spec(self, name, path=None, target=None):
        if name in WATCHED and name not in loaders:
            frame = sys._getframe(1)
            while frame is not None and frame.f_globals.get("__name__", "").startswith(("importlib", "_frozen")):
                frame = frame.f_back
            loaders[name] = frame.f_globals.get("__name__") if frame is not None else None
        return None

sys.meta_path.insert(0, Watch())
__import__(sys.argv[2])
print(json.dumps(loaders))
"""


@pytest.mark.parametrize("module", PURE)
def test_pure_modules_load_nothing_that_does_io(module: str) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run(
        [sys.executable, "-S", "-c", _WATCH, ",".join(IO_MODULES), module],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    unexpected = {name: by for name, by in loaded.items() if by not in ALLOWED_LOADERS.get(name, ())}
    assert unexpected == {}, f"importing {module} loads {unexpected} (module: the module that imported it)"


def _module_name(path: Path) -> str:
    parts = [NAME, *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _running(tree: ast.AST) -> list[ast.AST]:
    """The nodes of ``tree`` that can run: all but what an ``if TYPE_CHECKING:`` block holds."""
    nodes: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        nodes.append(node)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
        else:
            todo.extend(ast.iter_child_nodes(node))
    return nodes


def import_graph() -> dict[str, set[str]]:
    """Every module of the package and the package modules it imports, at the top or inside a
    function (a late import closes a cycle just the same); type checkers' imports do not run."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _running(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([node.module] if node.module else [])])
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                found.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def test_no_module_imports_one_that_imports_it_back() -> None:
    graph = import_graph()
    assert f"{NAME}.adapter.patches" in graph[f"{NAME}._hook"]  # the graph sees late imports
    assert graph[NAME] == set()  # and not the package's imports for type checkers
    assert cycles(graph) == []


def test_the_cycle_finder_finds_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


# Where an import statement may name letta (ARCHITECTURE.md, "Where letta is touched"): the
# runtime's three places that run letta rather than patch it. The plugin reaches letta by name
# only, through adapter/letta_api.py (tests/adapter/test_activation.py holds it to that).
LETTA_IMPORTERS = {f"{NAME}.runtime.app", f"{NAME}.runtime.schema", f"{NAME}.runtime.letta_process"}


def test_letta_is_imported_only_where_the_map_says() -> None:
    importers = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            if any(n == "letta" or n.startswith("letta.") for n in names):
                importers.add(_module_name(path))
    assert importers == LETTA_IMPORTERS
