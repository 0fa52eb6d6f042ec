"""Valid values drawn from a tool's JSON schema (seeded), and the canonical call block, for the
tiers that hold random valid calls to the engines that enforce the call blocks: llama.cpp's
grammar engine (tests/local/test_call_grammar.py) and xgrammar (tests/xgrammar). Plain Python,
so that each tier's own environment can import it."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

# Strings that test the JSON a grammar allows: quotes, escapes, line breaks, tabs, other scripts.
WORDS = ("Paris", "naïve café", 'say "hi"', "back\\slash", "two\nlines", "tab\there", "日本語", "🙂", "")


def value(schema: Any, rng: random.Random, words: Sequence[str] = WORDS) -> Any:
    """A value ``schema`` accepts, drawn with ``rng``: object keys in the schema's order (the
    order a grammar holds a call to), optional ones at random, strings from ``words`` fitted
    to their length bounds."""
    if not isinstance(schema, Mapping) or not schema:
        return rng.choice([1, "any", None, True, [1, 2], {"k": "v"}])
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return rng.choice(schema["enum"])
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list) and schema[key]:
            outer = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
            option = rng.choice(schema[key])
            merged = {**outer, **option}
            if "properties" in outer and "properties" in option:
                merged["properties"] = {**outer["properties"], **option["properties"]}
            return value(merged, rng, words)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = rng.choice(kind)
    if kind is None:
        kind = "object" if "properties" in schema else "array" if "items" in schema else "string"
    if kind == "object":
        props = schema.get("properties") or {}
        required = schema.get("required") or []
        return {p: value(s, rng, words) for p, s in props.items() if p in required or rng.random() < 0.5}
    if kind == "array":
        low = schema.get("minItems", 0)
        high = schema.get("maxItems", low + 3)
        return [value(schema.get("items", {}), rng, words) for _ in range(rng.randint(low, high))]
    if kind == "integer":
        return rng.choice([0, 7, -3, 2024, 10**12])
    if kind == "number":
        return rng.choice([0, 2.5, -0.125, 1e-05, 3.0, 42])
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "null":
        return None
    text = rng.choice(words)
    low, high = schema.get("minLength", 0), schema.get("maxLength")
    text = text + "a" * max(0, low - len(text))
    return text[:high] if high is not None else text


def block(name: str, params: Any) -> str:
    """A call block as the prompt teaches it."""
    return f"TOOL_CALL_START\n{json.dumps({'function': name, 'params': params}, ensure_ascii=False)}\nTOOL_CALL_END"
