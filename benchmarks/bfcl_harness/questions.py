"""A deterministic sample of BFCL questions, loaded as BFCL's own pipeline loads them."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

from ._bfcl import is_relevance_or_irrelevance, load_dataset_entry, load_ground_truth_entry
from .table import CATEGORIES


@dataclass
class Question:
    category: str
    id: str
    # As BFCL's generation step loads it: each function's description ends with its language hint.
    entry: dict[str, Any]
    # As BFCL's evaluation step loads it (no hint): what its checker compares against.
    scoring_entry: dict[str, Any]
    # The category's ``ground_truth``; None where no call is right (the irrelevance categories).
    answer: Any

    def fresh_entry(self) -> dict[str, Any]:
        """A copy to ask with: BFCL's handlers write into the entry they are given."""
        return copy.deepcopy(self.entry)


def sample_indices(total: int, per_category: int, seed: int, category: str) -> list[int]:
    """``per_category`` indices out of ``total``, the same for the same seed and category on any
    machine (a string seed hashes the same everywhere), in the file's order."""
    if per_category >= total:
        return list(range(total))
    return sorted(random.Random(f"{seed}/{category}").sample(range(total), per_category))


def load_questions(categories: list[str], per_category: int, seed: int, ids: list[str] | None = None) -> list[Question]:
    """The seeded sample of each category or, with ``ids``, exactly those questions."""
    questions: list[Question] = []
    for category in categories:
        if category not in CATEGORIES:
            raise ValueError(f"unknown category {category!r}; the benchmark runs: {', '.join(CATEGORIES)}")
        asked = load_dataset_entry(category)
        scored = load_dataset_entry(category, include_prereq=False, include_language_specific_hint=False)
        # Prompts and answers are aligned by position, as in BFCL's evaluation runner.
        answers = None if is_relevance_or_irrelevance(category) else load_ground_truth_entry(category)
        if len(asked) != len(scored) or (answers is not None and len(answers) != len(asked)):
            raise ValueError(f"BFCL's {category} data and answers do not line up")
        chosen = (
            [i for i, e in enumerate(asked) if e["id"] in ids]
            if ids is not None
            else sample_indices(len(asked), per_category, seed, category)
        )
        for index in chosen:
            entry = asked[index]
            if scored[index]["id"] != entry["id"]:
                raise ValueError(f"BFCL's {category} entries are not in the same order: {entry['id']}")
            answer = None if answers is None else answers[index]["ground_truth"]
            questions.append(Question(category, entry["id"], entry, scored[index], answer))
    if ids is not None and len(questions) != len(set(ids)):
        found = {q.id for q in questions}
        raise ValueError(f"no such question in {', '.join(categories)}: {', '.join(i for i in ids if i not in found)}")
    return questions
