"""The conversation: its pane, input, progress line, slash commands, the operations it runs in
workers and how their events are shown, the ingest queue, the citation chooser, $EDITOR."""
