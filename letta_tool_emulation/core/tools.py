"""Tool definitions in one normalised shape, whatever form the caller used."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .schema import resolve

ToolLike = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    name: str
    description: str = ""
    parameters: Mapping[str, Any] = field(default_factory=dict)

    @property
    def properties(self) -> Mapping[str, Any]:
        props = self.parameters.get("properties")
        return props if isinstance(props, Mapping) else {}

    @property
    def required(self) -> tuple[str, ...]:
        req = self.parameters.get("required")
        if not isinstance(req, list):
            return ()
        return tuple(r for r in req if isinstance(r, str))

    @property
    def allows_extra(self) -> bool:
        extra = self.parameters.get("additionalProperties", False)
        return extra is True or isinstance(extra, Mapping)


def normalize_tool(tool: ToolLike | ToolSpec) -> ToolSpec | None:
    """Accept Letta's flat form ``{name, description, parameters}`` or OpenAI's
    ``{"type": "function", "function": {...}}``; anything without a name is ignored. Local
    ``$ref`` and ``allOf`` in the parameters are resolved (see schema.py)."""
    if isinstance(tool, ToolSpec):
        resolved = resolve(tool.parameters)
        if resolved is tool.parameters:
            return tool
        return ToolSpec(tool.name, tool.description, resolved if isinstance(resolved, Mapping) else {})
    if not isinstance(tool, Mapping):
        return None
    inner = tool.get("function")
    if isinstance(inner, Mapping):
        tool = inner
    name = tool.get("name")
    if not isinstance(name, str) or not name:
        return None
    params = tool.get("parameters")
    if not isinstance(params, Mapping):
        params = tool.get("input_schema")  # Anthropic's spelling, seen in mixed tool lists
    description = tool.get("description")
    return ToolSpec(
        name=name,
        description=description if isinstance(description, str) else "",
        parameters=resolve(params) if isinstance(params, Mapping) else {"type": "object", "properties": {}},
    )


def normalize_tools(tools: Iterable[ToolLike | ToolSpec] | None) -> dict[str, ToolSpec]:
    """Tools by name, in the order given (a later duplicate replaces an earlier one)."""
    specs: dict[str, ToolSpec] = {}
    for tool in tools or ():
        spec = normalize_tool(tool)
        if spec is not None:
            specs[spec.name] = spec
    return specs
