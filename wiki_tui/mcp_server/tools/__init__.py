"""What the MCP tools do, as plain functions over an open Vault: JSON-ready dicts out, a
ToolInputError with a sentence for the calling agent on a mistake. No MCP SDK here (server.py
wires them to it), so they are quick to test.

common.py: limits, cursors, finding a page; lookups.py: search, pages and sections, backlinks,
listings, lint, log.md; pages.py: links, tags, properties; history.py: recent changes;
proposals.py: propose, list and withdraw an agent's own proposals; sources.py: raw/, read only.
"""
