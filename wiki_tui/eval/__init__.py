"""`wiki-tui eval`: a fixed, versioned task suite run through the agent's own operations on a
scratch copy of a bundled vault, scored by code (see docs/eval.md).

Layering: cli -> eval -> agent -> changes -> vault. Nothing here imports litellm at module top
level, nor Textual.
"""
