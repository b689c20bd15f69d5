"""A corpus of model replies written the way real models misbehave, with what each one meant.

Each family module (`cases_*.py`) holds a `CASES` list; `runner.py` classifies what the
pipeline does with each reply. `tests/changes/test_corpus.py` asserts the outcomes and
`benchmarks/bench_robustness.py` prints them per family.
"""
