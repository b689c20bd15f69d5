"""Command palette providers: every app action, and pages by title (both capped lists)."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

MAX_HITS = 20


class ActionsProvider(Provider):
    """Every action of the app (`WikiApp.palette_actions()`), best matches first."""

    async def discover(self) -> Hits:
        for title, help_text, callback in self.app.palette_actions()[:MAX_HITS]:
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        scored = []
        for title, help_text, callback in self.app.palette_actions():
            score = matcher.match(title)
            if score > 0:
                scored.append((score, title, help_text, callback))
        scored.sort(key=lambda item: -item[0])
        for score, title, help_text, callback in scored[:MAX_HITS]:
            yield Hit(score, matcher.highlight(title), callback, text=title, help=help_text)


class PagesProvider(Provider):
    """"Open page" over the vault index through Vault.find (fast on 10,000 pages)."""

    async def search(self, query: str) -> Hits:
        vault = getattr(self.app, "vault", None)
        if vault is None or len(query.strip()) < 2 or not hasattr(vault, "find"):
            return
        hits = vault.find(query, MAX_HITS)  # rapidfuzz-backed: milliseconds on 10,000 pages
        for rank, hit in enumerate(hits):
            score = max(0.0, 1.0 - rank / (MAX_HITS + 1)) * 0.9
            yield Hit(score, f"Open page: {hit.title}", partial(self.app.read_page, hit.path),
                      help=hit.path)
