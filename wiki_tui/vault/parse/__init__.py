"""Reading one page: its frontmatter, markdown blocks, Obsidian links, sections, and the vault's
AGENTS.md schema."""
