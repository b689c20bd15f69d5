"""Placeholder: the agent work replaces this with the local OpenAI-compatible streaming server."""
