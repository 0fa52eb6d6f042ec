"""Check GBNF grammars with llama.cpp's own grammar engine, the one llama-server samples with.

Run by the Python of ``.venv-llama`` (llama-cpp-python's bindings to libllama), never by the
test suite's: reads ``{"model": PATH, "cases": [{"grammar": GBNF, "texts": [...]}]}`` on stdin
and writes one JSON line, ``[{"loaded": bool, "accepted": [bool, ...]}, ...]``. A grammar is
loaded as llama-server loads a request's ``grammar``; a text is accepted when every one of its
tokens passes the grammar sampler in turn and the end of generation is allowed after the last.
"""

from __future__ import annotations

import ctypes
import json
import math
import sys
from typing import Any

import llama_cpp


def main() -> None:
    job = json.load(sys.stdin)
    llm = llama_cpp.Llama(model_path=job["model"], vocab_only=True, verbose=False)
    vocab = llama_cpp.llama_model_get_vocab(llm._model.model)
    eos = llama_cpp.llama_vocab_eos(vocab)
    out: list[dict[str, Any]] = []
    for case in job["cases"]:
        grammar = case["grammar"].encode()
        probe = llama_cpp.llama_sampler_init_grammar(vocab, grammar, b"root")
        if not probe:
            out.append({"loaded": False, "accepted": []})
            continue
        llama_cpp.llama_sampler_free(probe)
        accepted = []
        for text in case["texts"]:
            sampler = llama_cpp.llama_sampler_init_grammar(vocab, grammar, b"root")
            tokens = llm.tokenize(text.encode(), add_bos=False, special=False)
            ok = all(_passes(sampler, tok) and _accept(sampler, tok) for tok in tokens) and _passes(sampler, eos)
            llama_cpp.llama_sampler_free(sampler)
            accepted.append(ok)
        out.append({"loaded": True, "accepted": accepted})
    print(json.dumps(out))


def _passes(sampler: Any, token: int) -> bool:
    """Whether the grammar allows ``token`` next (a token it refuses gets -inf)."""
    data = (llama_cpp.llama_token_data * 1)(llama_cpp.llama_token_data(id=token, logit=0.0, p=0.0))
    candidates = llama_cpp.llama_token_data_array(data=data, size=1, selected=-1, sorted=False)
    llama_cpp.llama_sampler_apply(sampler, ctypes.byref(candidates))
    return not math.isinf(data[0].logit)


def _accept(sampler: Any, token: int) -> bool:
    llama_cpp.llama_sampler_accept(sampler, token)
    return True


if __name__ == "__main__":
    main()
