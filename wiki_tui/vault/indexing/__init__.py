"""The vault's index: page records in SQLite, the link index, link resolution by Obsidian's rules,
the catalog reader, bulk loading and the cache of what was read."""
