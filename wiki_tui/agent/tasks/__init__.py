"""Parts of single operations: instruct's renames and merges and the backlinks they carry, lint's
findings, dismissals and open questions, and save's answer forms."""
