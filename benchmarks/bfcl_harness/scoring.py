"""Scoring one reply with BFCL's own checker, through the same per-entry functions its evaluation
runner calls (``bfcl_eval.eval_checker.eval_runner``), so that decoding, the irrelevance rule and
the multi-turn state and response checks are BFCL's:

- irrelevance categories: right when the reply decodes to no call;
- the other single-turn categories: the reply decoded by the entry's handler, then ``ast_checker``;
- multi_turn_base: every step's calls decoded, then ``multi_turn_checker`` replays them against
  BFCL's simulated APIs next to the ground truth's, turn by turn, and compares states and results.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

from ._bfcl import Language, ReturnFormat, eval_runner, is_multi_turn, is_relevance_or_irrelevance
from .inference import BenchHandler, registry_name
from .questions import Question


@dataclass
class Score:
    valid: bool
    error_type: str | None = None
    error: str | None = None


def _short(value: Any, limit: int = 300) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= limit else text[:limit] + "..."


def score(handler: BenchHandler, question: Question, result: Any) -> Score:
    model_name = registry_name(handler._endpoint.entry)
    # The runner's functions delete or rewrite parts of the entry they are given.
    entry = copy.deepcopy(question.scoring_entry)
    if is_relevance_or_irrelevance(question.category):
        checked = eval_runner._evaluate_single_relevance_entry(
            handler, question.id, result, entry, model_name, question.category
        )
    elif is_multi_turn(question.category):
        checked = eval_runner._evaluate_single_multi_turn_entry(
            handler, question.id, result, question.answer, entry, model_name, question.category
        )
    else:
        checked = eval_runner._evaluate_single_ast_entry(
            handler,
            question.id,
            result,
            question.answer,
            entry,
            model_name,
            question.category,
            language=Language.PYTHON,
            return_format=ReturnFormat.PYTHON,
            has_tool_call_tag=False,
        )
    if checked["valid"]:
        return Score(True)
    error = checked.get("error")
    error_type = checked.get("error_type")
    if isinstance(error, dict):  # the multi-turn checker nests its verdict
        error_type = error.get("error_type", error_type)
        error = error.get("error_message", error)
    return Score(False, error_type, _short(error))
