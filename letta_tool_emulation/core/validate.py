"""Checking call arguments against a tool's JSON schema, with safe coercion.

Models without native function calling often get types slightly wrong ("20" for 20, "true"
for true). Those are coerced and noted. Anything that would change the meaning of a call (a
missing required parameter, a value outside an enum or a bound, a string the schema's
pattern rejects, an unknown parameter, a placeholder copied from the prompt's example) is an
error, so that the call is not executed and the model is told what to fix.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

import regex

from .decoding import MAX_DIGITS, STRICT, Unreadable
from .tools import ToolSpec

# Parameters that older MemGPT-style prompts taught models to add; dropping them is harmless.
DEFAULT_IGNORED_PARAMS = frozenset({"request_heartbeat"})

_INT = regex.compile(rf"[+-]?\d{{1,{MAX_DIGITS}}}")
_NUMBER = regex.compile(
    rf"[+-]?(?:\d{{1,{MAX_DIGITS}}}\.?\d{{0,{MAX_DIGITS}}}|\.\d{{1,{MAX_DIGITS}}})(?:[eE][+-]?\d{{1,4}})?"
)
# A value that stands for one and holds none: an ellipsis, or a name in angle brackets like the
# prompt's own example shows ("<content>", "<the user's fact>", "<内容>"). An address in angle
# brackets ("<ana@example.com>"), a short tag ("<br>") or an HTML or SVG element a coding tool
# edits ("<div>", "<table>") is a value.
PLACEHOLDER = regex.compile(r"\.\.\.|…|<([\p{L}\p{M}_ .…'’-]{3,40}|[^\x00-\x7f<>\n]{1,2})>")
_ELEMENT_NAMES = (
    "a abbr address area article aside audio base bdi bdo blockquote body button canvas caption cite code col "
    "colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure footer "
    "form head header hgroup hr html iframe img input ins kbd label legend li link main map mark menu meta "
    "meter nav noscript object ol optgroup option output param picture pre progress rp rt ruby samp script "
    "search section select slot small source span strong style sub summary sup table tbody td template "
    "textarea tfoot th thead time title tr track ul var video wbr svg rect circle ellipse polyline polygon "
    "tspan defs center font frame frameset marquee xml "
)
_ELEMENTS = frozenset(_ELEMENT_NAMES.split())
PATTERN_TIMEOUT = 0.05  # seconds a schema's pattern may take on one value
_MISSING = object()
# The keywords that can refuse a string given for a parameter of type "string" (see _coerce).
_STRING_CHECKS = frozenset({"anyOf", "oneOf", "const", "enum", "minLength", "maxLength", "pattern"})


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
        if key not in props:
            if spec.allows_extra:
                checked.arguments[key] = value
            elif key in ignored_params:
                checked.notes.append(f"ignored parameter '{key}'")
            else:
                valid = ", ".join(props) or "none"
                checked.errors.append(f"unknown parameter '{key}' (valid parameters: {valid})")
            continue
        schema = props[key]  # None (or any non-object) accepts anything
        if value is None and key not in spec.required and not _allows_null(schema):
            checked.notes.append(f"dropped null for optional parameter '{key}'")
            continue
        if isinstance(value, str) and is_placeholder(value, key):
            checked.errors.append(
                f"'{key}' is only the placeholder {json.dumps(value, ensure_ascii=False)}, which stands for a value"
                " and holds none: write the value itself"
            )
            continue
        result = _coerce(value, schema, key, checked)
        if result is not _MISSING:
            checked.arguments[key] = result
    for key in spec.required:
        if key not in arguments:
            checked.errors.append(f"missing required parameter '{key}' ({describe_type(props.get(key, {}))})")
    return checked


def is_placeholder(value: str, name: str = "") -> bool:
    """Whether ``value`` is only a placeholder, such as ``<new_string>``, ``<fact>`` or ``...``.

    Such a value never runs: a model that copies a format's placeholder has not said what to
    store or look up, and is asked again. An element's name in brackets is a value, unless it is
    the parameter's own name (``<label>`` for ``label``).
    """
    m = PLACEHOLDER.fullmatch(value.strip()) if len(value) <= 96 else None
    word = (m.group(1) or "").strip().lower() if m is not None else ""
    return m is not None and (word not in _ELEMENTS or word == name.lower())


def placeholder(name: str) -> str:
    """The placeholder the prompt's example shows for a parameter (rejected if sent as is)."""
    return f"<{name}>"


def describe_type(schema: Any) -> str:
    if not isinstance(schema, Mapping):
        return "any"
    if "enum" in schema and isinstance(schema["enum"], list):
        return " | ".join(json.dumps(v) for v in schema["enum"])
    if "const" in schema:
        return json.dumps(schema["const"])
    t = schema.get("type")
    if isinstance(t, list):
        text = " | ".join(str(x) for x in t)
    elif t == "array":
        items = schema.get("items")
        text = f"array of {describe_type(items)}" if isinstance(items, Mapping) and items else "array"
    elif isinstance(t, str):
        text = t
    else:
        for key in ("anyOf", "oneOf"):
            if isinstance(schema.get(key), list):
                return " | ".join(describe_type(s) for s in schema[key])
        return "any"
    bounds = describe_bounds(schema)
    return f"{text} ({bounds})" if bounds else text


def describe_bounds(schema: Mapping[str, Any]) -> str:
    """The numeric, length and pattern constraints, compactly ("1..20", "max 100 chars")."""
    parts = []
    low, high = _bound(schema, "minimum", "exclusiveMinimum"), _bound(schema, "maximum", "exclusiveMaximum")
    if low is not None and high is not None and not low[1] and not high[1]:
        parts.append(f"{_num(low[0])}..{_num(high[0])}")
    else:
        if low is not None:
            parts.append(f"{'>' if low[1] else '>='} {_num(low[0])}")
        if high is not None:
            parts.append(f"{'<' if high[1] else '<='} {_num(high[0])}")
    for lo_key, hi_key, unit in (("minLength", "maxLength", "chars"), ("minItems", "maxItems", "items")):
        lo, hi = _int_bound(schema.get(lo_key)), _int_bound(schema.get(hi_key))
        if lo is not None and hi is not None:
            parts.append(f"{lo}..{hi} {unit}")
        elif lo is not None:
            parts.append(f"min {lo} {unit}")
        elif hi is not None:
            parts.append(f"max {hi} {unit}")
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and len(pattern) <= 40:
        parts.append(f"matching {pattern}")
    return ", ".join(parts)


def _num(x: float) -> str:
    return str(int(x)) if isinstance(x, float) and x.is_integer() else str(x)


def _bound(schema: Mapping[str, Any], key: str, exclusive_key: str) -> tuple[float, bool] | None:
    """(bound, exclusive?) from either JSON Schema spelling (draft 4's boolean or later numbers)."""
    exclusive = schema.get(exclusive_key)
    if _is_number(exclusive):
        return float(exclusive), True
    value = schema.get(key)
    if _is_number(value):
        return float(value), exclusive is True
    return None


def _int_bound(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _allows_null(schema: Any) -> bool:
    if not isinstance(schema, Mapping):
        return True
    t = schema.get("type")
    if t == "null" or (isinstance(t, list) and "null" in t):
        return True
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list) and any(_allows_null(o) for o in options if isinstance(o, Mapping)):
            return True
    return False


def _coerce(value: Any, schema: Any, path: str, checked: Checked) -> Any:
    """The value made to fit ``schema``, or _MISSING after recording an error."""
    if (
        type(value) is str
        and type(schema) is dict
        and schema.get("type") == "string"
        and _STRING_CHECKS.isdisjoint(schema)
    ):
        # Most parameters, at any depth, are plain strings: taken as they are, without the
        # walk below through every keyword a schema may hold.
        return value
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
            checked.errors.append(f"'{path}' must be {describe_type(schema)}, got {_shown(shown)}")
            return _MISSING
    if "const" in schema and value != schema["const"]:
        checked.errors.append(f"'{path}' must be {json.dumps(schema['const'])}, got {_shown(value)}")
        return _MISSING
    enum = schema.get("enum")
    if isinstance(enum, list) and enum and value not in enum:
        if isinstance(value, str):
            folded = [e for e in enum if isinstance(e, str) and e.casefold() == value.casefold()]
            if len(folded) == 1:
                checked.notes.append(f"'{path}': {value!r} -> {folded[0]!r}")
                return folded[0]
        checked.errors.append(f"'{path}' must be one of {describe_type(schema)}, got {_shown(value)}")
        return _MISSING
    problem = _out_of_bounds(value, schema)
    if problem:
        checked.errors.append(f"'{path}' {problem}")
        return _MISSING
    return value


def _shown(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)[:80]
    except (TypeError, ValueError, RecursionError):
        return "a value of another type"


def _out_of_bounds(value: Any, schema: Mapping[str, Any]) -> str:
    """Why ``value`` breaks a numeric, length or pattern constraint, or ""."""
    if _is_number(value) or (isinstance(value, float) and not math.isfinite(value)):
        low, high = _bound(schema, "minimum", "exclusiveMinimum"), _bound(schema, "maximum", "exclusiveMaximum")
        if low is not None and (value < low[0] or (low[1] and value == low[0])):
            return f"must be {'>' if low[1] else '>='} {_num(low[0])}, got {value}"
        if high is not None and (value > high[0] or (high[1] and value == high[0])):
            return f"must be {'<' if high[1] else '<='} {_num(high[0])}, got {value}"
    elif isinstance(value, str):
        lo, hi = _int_bound(schema.get("minLength")), _int_bound(schema.get("maxLength"))
        if lo is not None and len(value) < lo:
            return f"must be at least {lo} characters long, got {len(value)}"
        if hi is not None and len(value) > hi:
            return f"must be at most {hi} characters long, got {len(value)}"
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            compiled = _pattern(pattern)
            if compiled is not None:
                try:
                    matched = compiled.search(value, timeout=PATTERN_TIMEOUT) is not None
                except TimeoutError:
                    return f"could not be checked against the pattern {pattern} in time"
                if not matched:
                    return f"must match the pattern {pattern}"
    elif isinstance(value, list):
        lo, hi = _int_bound(schema.get("minItems")), _int_bound(schema.get("maxItems"))
        if lo is not None and len(value) < lo:
            return f"must have at least {lo} items, got {len(value)}"
        if hi is not None and len(value) > hi:
            return f"must have at most {hi} items, got {len(value)}"
    return ""


@functools.lru_cache(maxsize=256)
def _pattern(pattern: str) -> regex.Pattern[str] | None:
    """A schema's pattern compiled, or None when it is not a valid regular expression (a
    mistake in the tool's schema, which the tool itself will have to check)."""
    try:
        return regex.compile(pattern)
    except (regex.error, ValueError, TypeError, OverflowError, RecursionError):
        return None


def _as_type(value: Any, t: str, schema: Mapping[str, Any], path: str, checked: Checked) -> Any:
    if t == "string":
        if isinstance(value, str):
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool) and _is_number(value):
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
            return value if _is_number(value) else _MISSING
        if isinstance(value, str) and _NUMBER.fullmatch(value.strip()):
            number = float(value)
            if not math.isfinite(number):
                return _MISSING
            result = int(value) if _INT.fullmatch(value.strip()) else number
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
        inner = validate_arguments(nested, value, frozenset())
        checked.errors.extend(f"'{path}': {e}" for e in inner.errors)
        checked.notes.extend(inner.notes)
        return inner.arguments
    return value  # a type this validator does not know: accept as given


def _json_or_missing(text: str, kind: type, path: str, checked: Checked) -> Any:
    try:
        value = STRICT.decode(text)
    except (ValueError, RecursionError, Unreadable):
        return _MISSING
    if isinstance(value, kind):
        checked.notes.append(f"'{path}': JSON text -> {kind.__name__}")
        return value
    return _MISSING
