"""How MCP messages reach the server: stdio (stdio.py), streamable HTTP (http.py), and the
JSON-RPC envelope check both share (envelope.py)."""
