"""What ``letta-tool-emulation calibrate`` measured: the best mode of emulated replies (free text or
constrained to the JSON envelope, with any number of calls per reply or one) for one endpoint and
model, and on a server that takes a lazy grammar whether free text did better with it or without
it, kept in a small JSON file in the user's configuration directory, which selection reads when the
user has not chosen a mode.

The file is ``$XDG_CONFIG_HOME/letta-tool-emulation/calibration.json`` (``~/.config/...`` without
``XDG_CONFIG_HOME``), or where ``LETTA_TOOL_EMULATION_CALIBRATION`` says. It holds endpoint URLs
(without credentials, query or fragment), model ids, the chosen mode and the measured figures;
never a key. It is read again only when it changed on disk (one ``stat`` per lookup).
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

PATH_ENV = "LETTA_TOOL_EMULATION_CALIBRATION"
VERSION = 1
Mode = Literal["free", "constrained"]


@dataclass(frozen=True, slots=True)
class Choice:
    mode: Mode
    shape: str | None = None  # the request shape the constrained mode was measured with
    # Free text did better with the call blocks' grammar (True) or without it (False); None: not
    # measured (the server kind takes none, or refused it), so selection's default holds.
    grammar: bool | None = None
    # The constrained mode did better held to one call per reply (see ``step.Decision.one_call``).
    one_call: bool = False

    @property
    def constrained(self) -> bool:
        return self.mode == "constrained"


def path() -> Path:
    return _located()[0]


def _located() -> tuple[Path, str]:
    """The file's path, and as a string; worked out once for the environment that names it,
    since every emulated request looks the file up."""
    environ = os.environ
    return _path_for(environ.get(PATH_ENV, ""), environ.get("XDG_CONFIG_HOME", ""), environ.get("HOME", ""))


@functools.lru_cache(maxsize=16)
def _path_for(override: str, config_home: str, home: str) -> tuple[Path, str]:
    if override.strip():
        where = Path(override.strip()).expanduser()
    else:
        base = config_home.strip() or str(Path.home() / ".config")
        where = Path(base) / "letta-tool-emulation" / "calibration.json"
    return where, str(where)


def endpoint_key(url: str | None) -> str:
    """The endpoint as the file names it: scheme and host lower-cased, no credentials, query or
    fragment, no trailing slash, and ``/v1`` for a bare host (as the proxy reads ``--upstream``)."""
    if not url:
        return ""
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower()
    netloc = f"[{host}]" if ":" in host else host
    if parts.port is not None:
        netloc += f":{parts.port}"
    route = parts.path.rstrip("/") or "/v1"
    return urlunsplit((parts.scheme.lower(), netloc, route, "", ""))


class _Cache:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.stamp: tuple[str, int, int] | None = None
        self.entries: dict[tuple[str, str], Choice] = {}


_CACHE = _Cache()


def _parse(data: Any) -> dict[tuple[str, str], Choice]:
    entries: dict[tuple[str, str], Choice] = {}
    endpoints = data.get("endpoints") if isinstance(data, dict) else None
    for url, models in (endpoints or {}).items() if isinstance(endpoints, dict) else ():
        for model, entry in models.items() if isinstance(models, dict) else ():
            mode = entry.get("mode") if isinstance(entry, dict) else None
            if mode in ("free", "constrained"):
                shape, grammar = entry.get("shape"), entry.get("grammar")
                entries[(url, model)] = Choice(
                    mode,
                    shape if isinstance(shape, str) else None,
                    grammar if isinstance(grammar, bool) else None,
                    mode == "constrained" and entry.get("one_call") is True,
                )
    return entries


def stamp() -> tuple[str, int, int] | None:
    """The file as it is now (its path, modification time and size), or None when there is none:
    what changes whenever what :func:`lookup` would answer can change."""
    name = _located()[1]
    try:
        st = os.stat(name)
    except OSError:
        return None
    return name, st.st_mtime_ns, st.st_size


def lookup(url: str | None, model: str) -> Choice | None:
    """The recorded choice for ``model`` at ``url``, or None. Never raises: an unreadable file
    counts as no calibration."""
    if not url or not model:
        return None
    where, name = _located()
    try:
        st = os.stat(name)
    except OSError:
        return None
    stamp = (name, st.st_mtime_ns, st.st_size)
    with _CACHE.lock:
        if _CACHE.stamp != stamp:
            try:
                entries = _parse(json.loads(where.read_text(encoding="utf-8")))
            except (OSError, ValueError):
                entries = {}
            _CACHE.stamp, _CACHE.entries = stamp, entries
        return _CACHE.entries.get((endpoint_key(url), model))


def record(url: str, model: str, choice: Choice, measured: dict[str, Any]) -> Path:
    """Keeps ``choice`` for ``model`` at ``url`` (with what was measured), beside what the file
    holds for other models; written whole to a temporary file first, so that a reader never sees
    half of it. Returns the file's path."""
    where = path()
    where.parent.mkdir(parents=True, exist_ok=True)
    try:
        data = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    if not isinstance(data, dict) or not isinstance(data.get("endpoints"), dict):
        data = {"version": VERSION, "endpoints": {}}
    models = data["endpoints"].setdefault(endpoint_key(url), {})
    if not isinstance(models, dict):
        models = data["endpoints"][endpoint_key(url)] = {}
    grammar = {} if choice.grammar is None else {"grammar": choice.grammar}
    one_call = {"one_call": True} if choice.one_call else {}
    models[model] = {"mode": choice.mode, "shape": choice.shape, **grammar, **one_call, **measured}
    fd, temporary = tempfile.mkstemp(prefix=".calibration-", suffix=".json", dir=where.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=2, sort_keys=True)
            out.write("\n")
        os.replace(temporary, where)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return where
