"""Checking call arguments against a tool's JSON schema, with safe coercion.

Models without native function calling often get types slightly wrong ("20" for 20, "true"
for true). Those are coerced and noted. Anything that would change the meaning of a call
(a missing required parameter, a value outside an enum, an unknown parameter) is an error,
so that the call is not executed and the model is told what to fix.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import regex

from .tools import ToolSpec

# Parameters that older MemGPT-style prompts taught models to add; dropping them is harmless.
DEFAULT_IGNORED_PARAMS = frozenset({"request_heartbeat"})

_INT = regex.compile(r"[+-]?\d+")
_NUMBER = regex.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_MISSING = object()


@dataclass(slots=True)
class Checked:
    arguments: dict[str, Any]
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def validate_arguments(
    spec: ToolSpec, arguments: Mapping[str, Any], ignored_params: frozenset[str] = DEFAULT_IGNORED_PARAMS
) -> Checked:
    """Coerce and check ``arguments`` for ``spec``; errors mean the call must not run."""
    checked = Checked(arguments={})
    props = spec.properties
    for key, value in arguments.items():
        schema = props.get(key)
        if schema is None:
            if spec.allows_extra:
                checked.arguments[key] = value
            elif key in ignored_params:
                checked.notes.append(f"ignored parameter '{key}'")
            else:
                valid = ", ".join(props) or "none"
                checked.errors.append(f"unknown parameter '{key}' (valid parameters: {valid})")
            continue
        if value is None and key not in spec.required and not _allows_null(schema):
            checked.notes.append(f"dropped null for optional parameter '{key}'")
            continue
        result = _coerce(value, schema, key, checked)
        if result is not _MISSING:
            checked.arguments[key] = result
    for key in spec.required:
        if key not in arguments:
            checked.errors.append(f"missing required parameter '{key}' ({describe_type(props.get(key, {}))})")
    return checked


def describe_type(schema: Any) -> str:
    if not isinstance(schema, Mapping):
        return "any"
    if "enum" in schema and isinstance(schema["enum"], list):
        return " | ".join(json.dumps(v) for v in schema["enum"])
    t = schema.get("type")
    if isinstance(t, list):
        return " | ".join(str(x) for x in t)
    if t == "array":
        items = schema.get("items")
        return f"array of {describe_type(items)}" if isinstance(items, Mapping) and items else "array"
    if isinstance(t, str):
        return t
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return " | ".join(describe_type(s) for s in schema[key])
    return "any"


def _allows_null(schema: Mapping[str, Any]) -> bool:
    t = schema.get("type")
    if t == "null" or (isinstance(t, list) and "null" in t):
        return True
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list) and any(isinstance(o, Mapping) and _allows_null(o) for o in options):
            return True
    return False


def _coerce(value: Any, schema: Any, path: str, checked: Checked) -> Any:
    """The value made to fit ``schema``, or _MISSING after recording an error."""
    if not isinstance(schema, Mapping):
        return value
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list) and options:
            for option in options:
                trial = Checked(arguments={})
                result = _coerce(value, option, path, trial)
                if not trial.errors:
                    checked.notes.extend(trial.notes)
                    return result
            checked.errors.append(f"'{path}' does not match any allowed form ({describe_type(schema)})")
            return _MISSING
    types = schema.get("type")
    if isinstance(types, str):
        types = [types]
    if isinstance(types, list) and types:
        for t in types:
            result = _as_type(value, t, schema, path, checked)
            if result is not _MISSING:
                value = result
                break
        else:
            shown = value if not isinstance(value, str) or len(value) < 40 else value[:37] + "..."
            checked.errors.append(f"'{path}' must be {describe_type(schema)}, got {json.dumps(shown)}")
            return _MISSING
    enum = schema.get("enum")
    if isinstance(enum, list) and enum and value not in enum:
        if isinstance(value, str):
            folded = [e for e in enum if isinstance(e, str) and e.casefold() == value.casefold()]
            if len(folded) == 1:
                checked.notes.append(f"'{path}': {value!r} -> {folded[0]!r}")
                return folded[0]
        checked.errors.append(f"'{path}' must be one of {describe_type(schema)}, got {json.dumps(value)}")
        return _MISSING
    return value


def _as_type(value: Any, t: str, schema: Mapping[str, Any], path: str, checked: Checked) -> Any:
    if t == "string":
        if isinstance(value, str):
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            checked.notes.append(f"'{path}': number -> string")
            return json.dumps(value)
        return _MISSING
    if t == "integer":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, float) and value.is_integer():
            checked.notes.append(f"'{path}': {value} -> {int(value)}")
            return int(value)
        if isinstance(value, str) and _INT.fullmatch(value.strip()):
            checked.notes.append(f"'{path}': {value!r} -> {int(value)}")
            return int(value)
        return _MISSING
    if t == "number":
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and _NUMBER.fullmatch(value.strip()):
            number = float(value)
            result = int(number) if _INT.fullmatch(value.strip()) else number
            checked.notes.append(f"'{path}': {value!r} -> {result}")
            return result
        return _MISSING
    if t == "boolean":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            checked.notes.append(f"'{path}': {value!r} -> {value.strip().lower()}")
            return value.strip().lower() == "true"
        return _MISSING
    if t == "null":
        return None if value is None else _MISSING
    if t == "array":
        if isinstance(value, str):
            value = _json_or_missing(value, list, path, checked)
        if not isinstance(value, list):
            return _MISSING
        items = schema.get("items")
        if isinstance(items, Mapping) and items:
            out = []
            for i, item in enumerate(value):
                result = _coerce(item, items, f"{path}[{i}]", checked)
                if result is _MISSING:
                    return value  # the error is recorded; keep the type match
                out.append(result)
            return out
        return value
    if t == "object":
        if isinstance(value, str):
            value = _json_or_missing(value, dict, path, checked)
        if not isinstance(value, dict):
            return _MISSING
        props = schema.get("properties")
        if not isinstance(props, Mapping) or not props:
            return value
        nested = ToolSpec(name=path, parameters=schema)
        result = validate_arguments(nested, value, frozenset())
        checked.errors.extend(f"'{path}': {e}" for e in result.errors)
        checked.notes.extend(result.notes)
        return result.arguments
    return value  # a type this validator does not know: accept as given


def _json_or_missing(text: str, kind: type, path: str, checked: Checked) -> Any:
    try:
        value = json.loads(text)
    except ValueError:
        return _MISSING
    if isinstance(value, kind):
        checked.notes.append(f"'{path}': JSON text -> {kind.__name__}")
        return value
    return _MISSING
