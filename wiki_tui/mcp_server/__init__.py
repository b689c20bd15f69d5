"""The wiki served to other agents over the Model Context Protocol (`wiki-tui mcp`).

A layer beside cli: it uses agent (the edit protocol text), changes and vault, never ui."""
