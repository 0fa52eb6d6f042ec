"""Tool parameter schemas made plain: local ``$ref`` and ``allOf`` resolved once, so that the
prompt shows real types and validation checks them (instead of "any", accepting anything); and
tuples made the lists JSON reads them as.

A schema built in the same process as the request need not have been through JSON: Letta's
schema generator writes a ``Literal``'s values as a tuple (``"enum": ("assistant", "user",
"tool")``), which serialises as an array but which no check for a list recognises, so its
values were neither shown, nor held by the reply schema, nor checked.

Only references inside the schema itself (``#/$defs/...``, ``#/definitions/...``) are followed;
a reference that points elsewhere, or back into itself (a recursive schema), accepts anything
below that point.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MAX_DEPTH = 24
# Keys whose values are data, not schemas.
_DATA_KEYS = frozenset({"enum", "const", "default", "examples", "example", "required", "description", "title"})
_DEFINITIONS = frozenset({"$defs", "definitions"})


def resolve(schema: Any) -> Any:
    """``schema`` with local references and ``allOf`` merged in, and as JSON has it (see
    :func:`plain`); unchanged when it needs neither."""
    schema = plain(schema)
    if not isinstance(schema, Mapping) or not _needs_resolving(schema, 0):
        return schema
    return _resolve(schema, schema, 0, ())


def plain(value: Any, depth: int = 0) -> Any:
    """``value`` with every tuple in it a list, as a JSON round trip would leave it: the very
    object where it holds none, else a copy of only the containers on the way to one."""
    if depth > MAX_DEPTH:
        return value
    if isinstance(value, tuple):
        return [plain(v, depth + 1) for v in value]
    if isinstance(value, Mapping):
        changed: dict[str, Any] | None = None
        for k, v in value.items():
            p = plain(v, depth + 1)
            if p is not v:
                changed = changed if changed is not None else dict(value)
                changed[k] = p
        return value if changed is None else changed
    if isinstance(value, list):
        items = [plain(v, depth + 1) for v in value]
        return value if all(p is v for p, v in zip(items, value, strict=True)) else items
    return value


def _needs_resolving(node: Any, depth: int) -> bool:
    if depth > MAX_DEPTH:
        return False
    if isinstance(node, Mapping):
        if "$ref" in node or "allOf" in node:
            return True
        return any(_needs_resolving(v, depth + 1) for k, v in node.items() if k not in _DATA_KEYS)
    if isinstance(node, list):
        return any(_needs_resolving(v, depth + 1) for v in node)
    return False


def _resolve(node: Any, root: Mapping[str, Any], depth: int, refs: tuple[str, ...]) -> Any:
    if depth > MAX_DEPTH:
        return {}
    if isinstance(node, list):
        return [_resolve(v, root, depth + 1, refs) for v in node]
    if not isinstance(node, Mapping):
        return node
    result: dict[str, Any] = {}
    ref = node.get("$ref")
    if isinstance(ref, str):
        target = _pointer(root, ref) if ref not in refs else None
        if isinstance(target, Mapping):
            result = _resolve(target, root, depth + 1, (*refs, ref))
    own = {
        k: (v if k in _DATA_KEYS else _resolve(v, root, depth + 1, refs))
        for k, v in node.items()
        if k not in ("$ref", "allOf") and k not in _DEFINITIONS
    }
    result = merge(result, own)
    parts = node.get("allOf")
    if isinstance(parts, list):
        for part in parts:
            result = merge(result, _resolve(part, root, depth + 1, refs))
    return result


def _pointer(root: Mapping[str, Any], ref: str) -> Any:
    """The part of ``root`` a local JSON pointer (``#/a/b``) names, or None."""
    if not ref.startswith("#"):
        return None
    node: Any = root
    for part in ref[1:].split("/"):
        if not part:
            continue
        key = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return None
    return node


_LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
_UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")


def merge(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    """Both schemas at once (``allOf``): the stricter of every constraint."""
    out = dict(a)
    for key, value in b.items():
        if key not in out:
            out[key] = value
            continue
        mine = out[key]
        if key == "properties" and isinstance(mine, Mapping) and isinstance(value, Mapping):
            props = dict(mine)
            for name, sub in value.items():
                both = isinstance(props.get(name), Mapping) and isinstance(sub, Mapping)
                props[name] = merge(props[name], sub) if both else sub
            out[key] = props
        elif key == "required" and isinstance(mine, list) and isinstance(value, list):
            out[key] = mine + [r for r in value if r not in mine]
        elif key == "type":
            left = mine if isinstance(mine, list) else [mine]
            right = value if isinstance(value, list) else [value]
            common = [t for t in left if t in right]
            if "integer" in left and "number" in right and "integer" not in common:
                common.append("integer")
            if "number" in left and "integer" in right and "integer" not in common:
                common.append("integer")
            out[key] = common[0] if len(common) == 1 else common or mine
        elif key == "enum" and isinstance(mine, list) and isinstance(value, list):
            out[key] = [v for v in mine if v in value]
        elif key in _LOWER_BOUNDS and _number(mine) and _number(value):
            out[key] = max(mine, value)
        elif key in _UPPER_BOUNDS and _number(mine) and _number(value):
            out[key] = min(mine, value)
        elif key == "additionalProperties" and (mine is False or value is False):
            out[key] = False
    return out


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
