"""Finding pages: full-text search (FTS5), the fuzzy finder, and mentions and backlinks."""
