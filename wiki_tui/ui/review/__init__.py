"""The review of a changeset (ReviewScreen) and the log/history view with undo (HistoryScreen)."""

from wiki_tui.ui.review.confirm import ConfirmScreen
from wiki_tui.ui.review.history import HistoryScreen
from wiki_tui.ui.review.screen import ReviewScreen

__all__ = ["ReviewScreen", "HistoryScreen", "ConfirmScreen"]
