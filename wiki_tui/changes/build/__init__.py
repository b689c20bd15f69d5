"""Building the changeset: the parsed blocks replayed over the vault into one reviewable
Changeset (changeset.py), through the guards (guards.py), SEARCH matched against the page
(match.py), and the notes the review must show (review_notes.py). merge.py is the three-way
merge a conflicting file is re-diffed with.

Reads the vault, never writes it. Imports reply/ and the shared top of changes/, never apply/.
"""
