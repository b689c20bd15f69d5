"""What frames every screen: the key bar, the status bar, help, the command palette, themes and
their contrast, the person's config and the app's state, and text helpers (elide, markup)."""
