"""The one place that imports ``bfcl_eval``.

Importing its configuration creates ``result/``, ``score/`` and a lock directory under
``BFCL_PROJECT_ROOT`` (by default next to the installed package); they are sent to a private
temporary directory instead, removed at exit, so that nothing is written into the environment.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

if "BFCL_PROJECT_ROOT" not in os.environ:
    _root = tempfile.mkdtemp(prefix="bfcl-project-")
    os.environ["BFCL_PROJECT_ROOT"] = _root
    atexit.register(shutil.rmtree, _root, ignore_errors=True)

import bfcl_eval.model_handler.base_handler as base_handler
from bfcl_eval.constants.enums import Language, ModelStyle, ReturnFormat
from bfcl_eval.constants.model_config import MODEL_CONFIG_MAPPING, ModelConfig
from bfcl_eval.constants.type_mappings import GORILLA_TO_OPENAPI
from bfcl_eval.eval_checker import eval_runner
from bfcl_eval.model_handler.api_inference.openai_completion import OpenAICompletionsHandler
from bfcl_eval.model_handler.utils import convert_to_tool, system_prompt_pre_processing_chat_model
from bfcl_eval.utils import (
    is_multi_turn,
    is_relevance_or_irrelevance,
    load_dataset_entry,
    load_ground_truth_entry,
)

__all__ = [
    "GORILLA_TO_OPENAPI",
    "MODEL_CONFIG_MAPPING",
    "Language",
    "ModelConfig",
    "ModelStyle",
    "OpenAICompletionsHandler",
    "ReturnFormat",
    "base_handler",
    "convert_to_tool",
    "eval_runner",
    "is_multi_turn",
    "is_relevance_or_irrelevance",
    "load_dataset_entry",
    "load_ground_truth_entry",
    "system_prompt_pre_processing_chat_model",
]
