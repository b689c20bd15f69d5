"""Changesets: what the model's reply proposes, as the person reviews it and as it is applied.

A pipeline in three stages, each a folder, each importing only the stages before it:

    reply/   reading the reply: the streaming edit-protocol parser, the repairs that read a
             slip as meant, which page a written path means              (imports nothing above)
    build/   building the changeset: guards, matching SEARCH against the page, three-way merge,
             the notes the review shows                                  (imports reply/)
    apply/   applying it: the journal and transaction, atomic writes, log.md, index.md, git,
             undo, `--yes`, changesets kept pending for later            (imports build/, reply/)

Shared by every stage, at the top: model.py (Changeset, FileChange, hunks), lines.py (line
splitting and diffs), usage.py (what the model calls cost, carried by a changeset), gitops.py
and vault_state.py (the vault's git repository and state folder: read while building, written
while applying).
"""
