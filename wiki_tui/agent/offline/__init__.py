"""The built-in offline engine: deterministic, no language model, served through litellm.

It is registered as a litellm custom provider ("wiki-offline/engine") so that it runs through
the very same pipeline as a real model: prompts, streaming, the edit protocol, changesets.
"""
