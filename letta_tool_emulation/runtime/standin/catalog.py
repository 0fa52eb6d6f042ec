"""What the stand-in serves: its models, in Venice's /models shape."""

from __future__ import annotations

from typing import Any

EMULATED_MODEL = "venice-uncensored"  # no function calling, like the real one
NATIVE_MODEL = "stand-in-native"  # native function calling, for comparisons
EMBEDDING_MODEL = "text-embedding-bge-m3"
EMBEDDING_DIM = 1024
MAX_COMPLETION_TOKENS = 4096
CONTEXT_TOKENS = 32768
# End-to-end encrypted models (TEE), as Venice names them; their limits differ from the others'
# so that tests see they are read from /models.
E2EE_MODEL = "e2ee-qwen3-6-35b-a3b-uncensored-p"  # no function calling
E2EE_NATIVE_MODEL = "e2ee-glm-5-2-p"  # function calling, but only without end-to-end encryption
E2EE_CONTEXT_TOKENS = 65536
E2EE_MAX_COMPLETION_TOKENS = 3072


# The top-level keys of Venice's published ChatCompletionRequest (additionalProperties: false).
def model_catalog() -> list[dict[str, Any]]:
    def text_model(model_id: str, tools: bool, e2ee: bool = False) -> dict[str, Any]:
        return {
            "id": model_id,
            "type": "text",
            "object": "model",
            "owned_by": "stand-in",
            "created": 1700000000,
            "model_spec": {
                "privacy": "private",
                "availableContextTokens": E2EE_CONTEXT_TOKENS if e2ee else CONTEXT_TOKENS,
                "maxCompletionTokens": E2EE_MAX_COMPLETION_TOKENS if e2ee else MAX_COMPLETION_TOKENS,
                "capabilities": {
                    "supportsE2EE": e2ee,
                    "supportsTeeAttestation": e2ee,
                    "supportsFunctionCalling": tools,
                    "supportsResponseSchema": tools and not e2ee,
                    "supportsReasoning": False,
                    "supportsVision": False,
                    "supportsWebSearch": False,
                    "supportsLogProbs": False,
                },
                "traits": ["default"] if not (tools or e2ee) else [],
                "offline": False,
                "beta": False,
            },
        }

    return [
        text_model(EMULATED_MODEL, tools=False),
        text_model(NATIVE_MODEL, tools=True),
        text_model(E2EE_MODEL, tools=False, e2ee=True),
        text_model(E2EE_NATIVE_MODEL, tools=True, e2ee=True),
        {
            "id": EMBEDDING_MODEL,
            "type": "embedding",
            "object": "model",
            "owned_by": "stand-in",
            "created": 1700000000,
            "model_spec": {"offline": False, "beta": False},
        },
    ]


def tee_models() -> dict[str, dict[str, Any]]:
    """The capabilities of the models that run in a TEE, by id."""
    return {
        m["id"]: m["model_spec"]["capabilities"]
        for m in model_catalog()
        if m["model_spec"].get("capabilities", {}).get("supportsTeeAttestation")
    }
