"""HTML (a saved web page, a Web Clipper's output) -> markdown: the main text with its headings,
links, lists and tables. beautifulsoup4 (with the standard library's html.parser: no C
dependency) finds the main text; markdownify writes the markdown."""

from __future__ import annotations

import re

from wiki_tui.agent.convert import ConversionError

# never the article: code, styling, page furniture, forms
_DROP = ("script", "style", "noscript", "template", "nav", "header", "footer", "aside", "form",
         "iframe", "svg", "button", "dialog")
_FURNITURE = re.compile(r"\b(nav|menu|sidebar|footer|cookie|banner|breadcrumb|share|comment"
                        r"s?|related|advert|ads?)\b", re.I)


def html_markdown(html: str, path: str) -> str:
    from bs4 import BeautifulSoup
    from markdownify import MarkdownConverter

    soup = BeautifulSoup(html, "html.parser")
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    for tag in soup.find_all(_DROP):
        tag.decompose()
    for tag in soup.find_all(attrs={"role": ("navigation", "banner", "contentinfo",
                                             "complementary")}):
        tag.decompose()
    main = soup.find("article") or soup.find("main") or soup.find(attrs={"role": "main"}) \
        or soup.body or soup
    for tag in main.find_all(True, attrs={"class": True}):
        if tag.decomposed:
            continue
        classes = " ".join(tag.get("class") or [])
        if _FURNITURE.search(classes) and tag.name not in ("article", "main", "table"):
            tag.decompose()
    text = MarkdownConverter(heading_style="ATX", bullets="-", strip=["span"]).convert_soup(main)
    text = re.sub(r"[ \t]+\n", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text).strip()
    if not text:
        raise ConversionError(f"{path}: the HTML page holds no text")
    if title and not re.match(r"#\s", text):
        text = f"# {title}\n\n{text}"
    return text + "\n"
