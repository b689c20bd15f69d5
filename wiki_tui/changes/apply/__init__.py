"""Applying a changeset: what the person accepted written to disk, logged and committed as one
undoable step.

journal.py applies and undoes (conflict check, three-way rebase, recovery); transaction.py runs
the steps all-or-nothing with a crash journal; atomic.py writes files; logmd.py and index_md.py
keep log.md and index.md; vault_lock.py serialises writers. Around them, the ways a changeset
reaches the disk: unattended.py (`--yes`, within the holds), pending.py (a changeset saved for
a later review: it writes to the state folder, so it lives here), propose.py (a reply from
outside, built and saved as pending), adopt.py (a folder of notes made a vault: the first
commit). Imports build/ and reply/; nothing there imports this.
"""
