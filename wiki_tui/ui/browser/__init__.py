"""The wiki browser: WikiBrowser (mounted by the app) and its modal screens."""

from wiki_tui.ui.browser.browser import PageLocation, WikiBrowser
from wiki_tui.ui.browser.screens import PageJumpScreen, SearchScreen, TagsScreen

__all__ = ["WikiBrowser", "PageLocation", "PageJumpScreen", "SearchScreen", "TagsScreen"]
