"""A GBNF grammar for free-text replies: prose stays free, every call block is held to the tools.

llama.cpp's ``llama-server`` samples under a GBNF grammar sent with the request. A reply in
free text is prose with call blocks in it (``TOOL_CALL_START``, one line of JSON with
``"function"`` and ``"params"``, ``TOOL_CALL_END``). :func:`call_block_grammar` writes the
grammar of exactly that: prose is any text that does not contain the call marker; a marker
starts a line; once it is written, what follows must be a whole block whose function is one of
the offered tools and whose ``params`` follow that tool's JSON Schema.

The same grammar serves both ways a server can apply it:

- lazily, from the trigger word (the call marker) on: the text it then sees starts with the
  marker, which the grammar accepts with no prose before it (later blocks, after the first,
  still start a line);
- from the first token (a server that takes the grammar but not its laziness, as
  ``llama-server``'s chat endpoint does: it replaces ``grammar_lazy`` and ``grammar_triggers``
  with its chat template's own): prose is then held only to "no call marker" and a block to
  the start of a line, which is what a free-text reply whose calls run may hold anyway.

What the grammar can express of a schema: objects (their properties in the declared order,
required ones always, optional ones where written), ``enum`` and ``const``, strings (with
their length bounds), numbers, integers, booleans, null, arrays (with their item count
bounds), ``anyOf``/``oneOf``, a list of types, and nested objects. Anything else (``pattern``,
``format``, numeric bounds, extra properties, ``not``, tuples, references) is written as any
JSON value of that part's type, or any JSON value: the parser's validator still checks it and
asks again. :attr:`CallGrammar.loose` names each part that was loosened.

A pure function of the tools: no I/O, no letta.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .markers import CALL_END, CALL_START
from .tools import ToolSpec

__all__ = ["CallGrammar", "call_block_grammar", "prose_rules"]

# Deeper schema parts are written as any JSON value (a runaway or recursive schema stays bounded).
MAX_DEPTH = 12
# An object's optional properties are written in order, each where present; with no required
# property before them the grammar grows with the square of their number, so beyond this many
# the object is written as any JSON object.
MAX_OPTIONAL = 24

# JSON, as llama.cpp's own schema converter writes it (but with DEL allowed in strings: JSON allows
# it, and Python writes it unescaped): whitespace bounded (an unbounded run of
# spaces is the classic way a small model loops under a grammar), numbers of bounded length.
_PRIMITIVES: dict[str, str] = {
    "ws": '| " " | "\\n" [ \\t]{0,20}',
    "json-boolean": '("true" | "false") ws',
    "json-null": '"null" ws',
    "json-int": '"-"? ([0] | [1-9] [0-9]{0,15})',
    "json-integer": "json-int ws",
    "json-number": 'json-int ("." [0-9]{1,16})? ([eE] [-+]? [0-9]{1,16})? ws',
    "json-char": '[^"\\\\\\x00-\\x1F] | [\\\\] (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})',
    "json-string": '"\\"" json-char* "\\"" ws',
    "json-value": "json-object | json-array | json-string | json-number | json-boolean | json-null",
    "json-object": '"{" ws ( json-string ":" ws json-value ("," ws json-string ":" ws json-value)* )? "}" ws',
    "json-array": '"[" ws ( json-value ("," ws json-value)* )? "]" ws',
}
_TYPE_RULES = {
    "string": "json-string",
    "number": "json-number",
    "integer": "json-integer",
    "boolean": "json-boolean",
    "null": "json-null",
    "object": "json-object",
    "array": "json-array",
}
# Keywords the grammar does not express; a part that has one is loosened to its type.
_UNEXPRESSED = ("pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
                "not", "prefixItems", "uniqueItems", "contains", "patternProperties", "propertyNames", "$ref",
                "if", "dependentRequired", "dependentSchemas", "minProperties", "maxProperties")  # fmt: skip


@dataclass(frozen=True, slots=True)
class CallGrammar:
    """The grammar (GBNF, root rule ``root``), the word that starts a call, and the schema parts
    written looser than their schema (``tool.params.path: why``), for logs and tests."""

    grammar: str
    trigger: str
    loose: tuple[str, ...] = ()


def call_block_grammar(
    specs: Iterable[ToolSpec], *, several: bool = True, required: bool = False
) -> CallGrammar | None:
    """The grammar of a free-text reply that may call ``specs``; None without tools.

    ``several``: a reply may hold more than one call block (else at most one). ``required``: it
    must hold at least one (a forced tool is asked for by passing only that tool)."""
    tools = [s for s in specs if isinstance(s, ToolSpec) and s.name]
    if not tools:
        return None
    writer = _Writer()
    branches = []
    for i, spec in enumerate(tools):
        params = writer.schema(spec.parameters or {"type": "object"}, f"call-{i}-params", f"{spec.name}.params", 0)
        rule = writer.add(
            f"call-{i}",
            f'{_literal(json.dumps(spec.name, ensure_ascii=False))} ws "," ws "\\"params\\"" ws ":" ws {params}',
        )
        branches.append(rule)
    writer.add("call", '"{" ws "\\"function\\"" ws ":" ws (' + " | ".join(branches) + ') "}"')
    block = writer.add("block", f'{_literal(CALL_START)} "\\n" call "\\n" {_literal(CALL_END)}')
    prose = prose_rules(writer.rules, CALL_START)
    # A block starts a line: the reply's first, or after prose that ends with a line break. The
    # parser reads a block that a sentence runs into ("... by using TOOL_CALL_START") as shown,
    # not performed, so a grammar that allowed one would let a forced call be set aside.
    first = writer.add("first-block", f'({prose} "\\n")? {block}')
    calls = writer.add("calls", f'{first} ({prose} "\\n" {block})*') if several else first
    root = f"{calls} {prose}" if required else f"({calls})? {prose}"
    lines = [f"root ::= {root}"]
    lines += [f"{name} ::= {body}" for name, body in writer.rules.items()]
    lines += [f"{name} ::= {body}" for name, body in _PRIMITIVES.items()]
    return CallGrammar("\n".join(lines) + "\n", CALL_START, tuple(writer.loose))


def prose_rules(rules: dict[str, str], marker: str) -> str:
    """Add to ``rules`` the prose that never contains ``marker``; returns its entry rule's name.

    The rules are the states of the automaton that recognises the marker (Knuth-Morris-Pratt):
    ``prose-k`` has read the marker's first k characters and no whole marker; prose may end in
    any of them."""
    m = len(marker)
    fail = [0] * (m + 1)  # fail[k]: the longest proper border of marker[:k]
    for k in range(2, m + 1):
        b = fail[k - 1]
        while b and marker[b] != marker[k - 1]:
            b = fail[b]
        fail[k] = b + 1 if marker[b] == marker[k - 1] else 0

    def step(k: int, c: str) -> int:
        while k and marker[k] != c:
            k = fail[k]
        return k + 1 if marker[k] == c else 0

    chars = sorted(set(marker))
    for k in range(m):
        # Every character that does not move on along the marker goes back to the start.
        moving = [(c, step(k, c)) for c in chars if step(k, c)]
        alts = ['""'] + [f"{_literal(c)} prose-{nxt}" for c, nxt in moving if nxt < m]
        alts.append("[^" + "".join(_class_char(c) for c, _ in moving) + "] prose-0")
        rules[f"prose-{k}"] = " | ".join(alts)
    return "prose-0"


class _Writer:
    def __init__(self) -> None:
        self.rules: dict[str, str] = {}
        self.loose: list[str] = []
        self._by_body: dict[str, str] = {}

    def add(self, name: str, body: str) -> str:
        """The rule ``name`` with ``body`` (or the earlier rule with the same body)."""
        known = self._by_body.get(body)
        if known is not None:
            return known
        while name in self.rules or name in _PRIMITIVES:
            name += "-x"
        self._by_body[body] = name
        self.rules[name] = body
        return name

    def _loosen(self, schema: Mapping[str, Any], path: str, why: str) -> str:
        self.loose.append(f"{path}: {why}")
        types = _types(schema)
        rules = [_TYPE_RULES[t] for t in types if t in _TYPE_RULES]
        if not rules or len(rules) == len(_TYPE_RULES):
            return "json-value"
        return rules[0] if len(rules) == 1 else "(" + " | ".join(rules) + ")"

    def schema(self, schema: Any, name: str, path: str, depth: int) -> str:
        """The grammar of one JSON value following ``schema``: a rule name or a short
        expression. Every value ends with optional whitespace."""
        if schema is True or (isinstance(schema, Mapping) and not schema):
            return "json-value"
        if not isinstance(schema, Mapping):
            return self._loosen({}, path, "not a schema")
        if depth > MAX_DEPTH:
            return self._loosen(schema, path, "nested too deep")
        if "const" in schema:
            return self._values([schema["const"]], name, path)
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return self._values(schema["enum"], name, path)
        for key in ("anyOf", "oneOf"):
            options = schema.get(key)
            if isinstance(options, list) and options:
                outer = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf", "description", "title")}
                alts = []
                for i, option in enumerate(options):
                    merged = {**outer, **option} if isinstance(option, Mapping) else option
                    if isinstance(option, Mapping) and "properties" in outer and "properties" in option:
                        merged["properties"] = {**outer["properties"], **option["properties"]}
                    alts.append(self.schema(merged, f"{name}-{i}", f"{path}|{i}", depth + 1))
                return self.add(name, " | ".join(dict.fromkeys(alts)))
        unexpressed = [k for k in _UNEXPRESSED if k in schema]
        if "allOf" in schema:
            unexpressed.append("allOf")
        types = _types(schema)
        if len(types) > 1:
            alts = [self.schema({**schema, "type": t}, f"{name}-{t}", path, depth + 1) for t in types]
            return self.add(name, " | ".join(alts))
        kind = types[0] if types else None
        if unexpressed:
            return self._loosen(schema, path, ", ".join(unexpressed))
        if kind == "object":
            return self._object(schema, name, path, depth)
        if kind == "array":
            return self._array(schema, name, path, depth)
        if kind == "string":
            return self._string(schema, name)
        if kind in _TYPE_RULES:
            return _TYPE_RULES[kind]
        return "json-value"

    def _values(self, values: list[Any], name: str, path: str) -> str:
        try:
            alts = [_literal(json.dumps(v, ensure_ascii=False, separators=(", ", ": "))) for v in values]
        except (TypeError, ValueError):
            return self._loosen({}, path, "a value that is not JSON")
        return self.add(name, "(" + " | ".join(dict.fromkeys(alts)) + ") ws")

    def _string(self, schema: Mapping[str, Any], name: str) -> str:
        low, high = _count(schema.get("minLength")), _count(schema.get("maxLength"))
        if low is None and high is None:
            return "json-string"
        bounds = f"{{{low or 0},{'' if high is None else high}}}"
        return self.add(name, f'"\\"" json-char{bounds} "\\"" ws')

    def _array(self, schema: Mapping[str, Any], name: str, path: str, depth: int) -> str:
        items = schema.get("items", True)
        item = self.schema(items, f"{name}-item", f"{path}[]", depth + 1)
        low, high = _count(schema.get("minItems")) or 0, _count(schema.get("maxItems"))
        more = f'("," ws {item})'
        if high is not None and high < low:
            return self._loosen(schema, path, "maxItems below minItems")
        if high == 0:
            return self.add(name, '"[" ws "]" ws')
        rest_low, rest_high = max(low - 1, 0), None if high is None else high - 1
        rest = f"{more}{{{rest_low},{'' if rest_high is None else rest_high}}}"
        body = f"{item} {rest}"
        inner = body if low else f"( {body} )?"
        return self.add(name, f'"[" ws {inner} "]" ws')

    def _object(self, schema: Mapping[str, Any], name: str, path: str, depth: int) -> str:
        props = schema.get("properties")
        props = props if isinstance(props, Mapping) else {}
        extra = schema.get("additionalProperties", not props)
        if extra is not False and (extra is True or isinstance(extra, Mapping)):
            if props:
                return self._loosen(schema, path, "additionalProperties")
            return "json-object"
        wanted = schema.get("required")
        required = [p for p in props if isinstance(wanted, list) and p in wanted]
        missing = [r for r in wanted or () if isinstance(r, str) and r not in props]
        if missing:
            return self._loosen(schema, path, f"required {missing} not among its properties")
        optional = [p for p in props if p not in required]
        if not required and len(optional) > MAX_OPTIONAL:
            return self._loosen(schema, path, f"more than {MAX_OPTIONAL} optional properties")
        members: dict[str, str] = {}
        for i, (pname, pschema) in enumerate(props.items()):
            value = self.schema(pschema, f"{name}-{_rule_part(pname, i)}", f"{path}.{pname}", depth + 1)
            key = _literal(json.dumps(pname, ensure_ascii=False))
            members[pname] = self.add(f"{name}-{_rule_part(pname, i)}-kv", f'{key} ws ":" ws {value}')
        if required:
            body = ' "," ws '.join(members[p] for p in required)
            body += "".join(f' ("," ws {members[p]})?' for p in optional)
        elif optional:
            alts = []
            for i, first in enumerate(optional):
                alts.append(members[first] + "".join(f' ("," ws {members[p]})?' for p in optional[i + 1 :]))
            body = "( " + " | ".join(alts) + " )?"
        else:
            body = ""
        return self.add(name, f'"{{" ws {body} "}}" ws'.replace("  ", " "))


def _types(schema: Mapping[str, Any]) -> list[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return [kind]
    if isinstance(kind, list):
        return [k for k in dict.fromkeys(kind) if isinstance(k, str)]
    if "properties" in schema:
        return ["object"]
    if "items" in schema:
        return ["array"]
    return []


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


_NOT_RULE = re.compile(r"[^a-zA-Z0-9]+")


def _rule_part(name: str, index: int) -> str:
    """A rule-name-safe spelling of a property name, unique by its index."""
    return f"{_NOT_RULE.sub('-', name).strip('-')[:24] or 'p'}-{index}"


def _literal(text: str) -> str:
    """``text`` as a GBNF string literal."""
    out = []
    for c in text:
        if c in ('"', "\\"):
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\x{ord(c):02X}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def _class_char(c: str) -> str:
    """``c`` inside a GBNF character class."""
    if c in ("\\", "]", "[", "^", "-"):
        return "\\" + c
    return _literal(c)[1:-1]
