"""The changeset's knowledge diff and the invariants on it: diff.py compares each file before
and after (text.py reads a page's text, claim_words.py what its claims rest on, canvas.py a
board); invariants.py says which findings hold a file from `--yes`."""
