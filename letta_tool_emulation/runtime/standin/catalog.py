"""What the stand-in serves: its models, in Venice's /models shape."""

from __future__ import annotations

from typing import Any

EMULATED_MODEL = "venice-uncensored"  # no function calling, like the real one
NATIVE_MODEL = "stand-in-native"  # native function calling, for comparisons
EMBEDDING_MODEL = "text-embedding-bge-m3"
EMBEDDING_DIM = 1024
MAX_COMPLETION_TOKENS = 4096
CONTEXT_TOKENS = 32768


# The top-level keys of Venice's published ChatCompletionRequest (additionalProperties: false).
def model_catalog() -> list[dict[str, Any]]:
    def text_model(model_id: str, tools: bool) -> dict[str, Any]:
        return {
            "id": model_id,
            "type": "text",
            "object": "model",
            "owned_by": "stand-in",
            "created": 1700000000,
            "model_spec": {
                "availableContextTokens": CONTEXT_TOKENS,
                "maxCompletionTokens": MAX_COMPLETION_TOKENS,
                "capabilities": {
                    "supportsFunctionCalling": tools,
                    "supportsResponseSchema": tools,
                    "supportsReasoning": False,
                    "supportsVision": False,
                    "supportsWebSearch": False,
                    "supportsLogProbs": False,
                },
                "traits": ["default"] if not tools else [],
                "offline": False,
                "beta": False,
            },
        }

    return [
        text_model(EMULATED_MODEL, tools=False),
        text_model(NATIVE_MODEL, tools=True),
        {
            "id": EMBEDDING_MODEL,
            "type": "embedding",
            "object": "model",
            "owned_by": "stand-in",
            "created": 1700000000,
            "model_spec": {"offline": False, "beta": False},
        },
    ]
