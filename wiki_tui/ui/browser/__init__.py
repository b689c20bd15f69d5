"""The wiki browser: WikiBrowser (mounted by the app) and its modal screens."""

from wiki_tui.ui.browser.browser import PageLocation, WikiBrowser
from wiki_tui.ui.browser.page_view import PageView
from wiki_tui.ui.browser.panels import BacklinksPanel, OutlinePanel, PageTree
from wiki_tui.ui.browser.screens import PageJumpScreen, SearchScreen, TagsScreen

# Every class whose bindings (all with ids) the browser brings: for F1 help and keymap checks.
BINDING_CLASSES = (WikiBrowser, PageView, BacklinksPanel, OutlinePanel, PageTree,
                   PageJumpScreen, SearchScreen, TagsScreen)

__all__ = ["WikiBrowser", "PageLocation", "PageView", "PageJumpScreen", "SearchScreen",
           "TagsScreen", "BINDING_CLASSES"]
