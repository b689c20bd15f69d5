"""The built-in offline engine: deterministic, no language model, and no litellm underneath.

It serves the same streaming interface as a real model (`agent/engine/stream.py`): the operations run
through the very same pipeline (edit protocol, changesets, review) whichever engine answers.
`stream.py` streams its reply; `engine.py` writes it from the vault and the task.
"""
