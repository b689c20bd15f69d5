"""The wiki served to other agents over the Model Context Protocol (`wiki-tui mcp`).

A layer beside cli: it uses agent (the edit protocol text), changes and vault, never ui."""

TOKEN_ENV = "WIKI_TUI_MCP_TOKEN"  # the HTTP server's bearer token, when --token is not given
