"""What the agent reads of the vault for a turn: prompts, page facts, citations, quotes, sources."""
