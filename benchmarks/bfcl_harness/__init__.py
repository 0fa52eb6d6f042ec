"""The BFCL side of ``python3 dev.py bench bfcl``: it runs in ``.venv-bfcl`` (``python3 dev.py bfcl``),
where the Berkeley Function Calling Leaderboard's package ``bfcl-eval`` is installed, and never in
the product's environment.

- :mod:`.questions` loads a deterministic sample of BFCL questions, with their answers;
- :mod:`.inference` asks them through BFCL's own OpenAI-compatible handler, in its
  function-calling mode (OpenAI ``tools``) or its prompting mode (BFCL's system prompt and decoder),
  replaying multi-turn questions turn by turn against BFCL's simulated APIs;
- :mod:`.scoring` scores each reply with BFCL's own checker, exactly as its evaluation runner does;
- :mod:`.table` (pure Python, also imported by ``benchmarks/bfcl.py``) sums results up;
- :mod:`.chart` draws the table.

``python -m bfcl_harness --help`` (from ``benchmarks/``) lists the commands.
"""
