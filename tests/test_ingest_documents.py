"""`wiki-tui ingest` of sources beyond markdown, end to end: real files made at test time, the
offline engine (and the scripted test server for vision and parts), real git."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, git
from tests.support.documents import PNG_1PX, encrypt_pdf, make_docx, make_pdf, make_xlsx
from tests.support.llm_server import Reply
from wiki_tui.cli import main as cli_main

PAGES = ["The marine chronometer let ships find longitude. John Harrison built it.",
         "H4 passed its trial in 1762. The Board of Longitude paid part of the prize."]


def _ingest(vault: Path, *args: str) -> int:
    return cli_main(["--vault", str(vault), "ingest", *args])


def _add(vault: Path, files: dict[str, bytes | str]) -> None:
    for path, data in files.items():
        target = vault / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data.encode() if isinstance(data, str) else data)
    git(vault, "add", "-A")
    git(vault, "commit", "-q", "-m", "sources")


def _changed_in_head(vault: Path) -> list[str]:
    return git(vault, "show", "--name-only", "--format=", "HEAD").split("\n")


def test_a_pdf_is_ingested_with_its_pages_cited_and_raw_untouched(git_vault, capsys):
    _add(git_vault, {"raw/paper.pdf": make_pdf(PAGES, title="Sea Clocks Paper")})
    assert _ingest(git_vault, "raw/paper.pdf", "--yes") == 0
    page = (git_vault / "sources/Sea Clocks Paper.md").read_text(encoding="utf-8")
    assert "sources: [raw/paper.pdf]" in page
    assert "find longitude. [[John Harrison]] built it. (p. 1)" in page
    assert "- [[H4]] passed its trial in 1762. (p. 2)" in page
    assert git(git_vault, "log", "-1", "--format=%s").strip() == "ingest: Sea Clocks Paper"
    assert not any(p.startswith("raw/") for p in _changed_in_head(git_vault))
    assert git(git_vault, "status", "--porcelain") == ""  # nothing written beside the commit
    assert "- source: raw/paper.pdf\n" in (git_vault / "log.md").read_text(encoding="utf-8")


def test_a_folder_of_pdf_html_csv_and_xlsx_ingests_each(git_vault, capsys):
    _add(git_vault, {
        "raw/docs/a.pdf": make_pdf(PAGES),
        "raw/docs/b.html": "<title>Web Clip</title><main><h1>Lunar Tables</h1>"
                           "<p>The Nautical Almanac printed lunar distances.</p></main>",
        "raw/docs/c.csv": "year,event\n1767,First Nautical Almanac\n",
        "raw/docs/d.xlsx": make_xlsx({"Trials": [["year", "error"], [1762, 5]]}),
        "raw/docs/e.tiff": b"II*\0"})
    assert _ingest(git_vault, "raw/docs/", "--yes") == 0
    err = capsys.readouterr().err
    assert "skipped raw/docs/e.tiff: not a format wiki-tui ingests" in err
    assert "ingested 4 of 4 source(s)" in err
    log = (git_vault / "log.md").read_text(encoding="utf-8")
    for name in "abcd":
        assert f"- source: raw/docs/{name}." in log
    assert "The Nautical Almanac printed lunar distances." in (
        git_vault / "sources/Lunar Tables.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name,data,reason", [
    ("locked.pdf", encrypt_pdf(make_pdf(PAGES)), "the PDF is encrypted"),
    ("scan.pdf", make_pdf(["", "", ""]), "the PDF has no text layer (3 page(s)"),
    ("broken.pdf", make_pdf(PAGES)[:250], "the PDF cannot be read (corrupt?)"),
    ("broken.docx", b"PK\x03\x04 not a zip", "cannot be converted (DOCX looks corrupt: BadZipFile"),
])
def test_a_source_that_cannot_be_converted_fails_naming_it_and_writes_nothing(
        git_vault, capsys, name, data, reason):
    _add(git_vault, {f"raw/{name}": data})
    head = git(git_vault, "rev-parse", "HEAD")
    assert _ingest(git_vault, f"raw/{name}", "--yes") == 1
    assert f"raw/{name}: {reason}" in capsys.readouterr().err
    assert git(git_vault, "rev-parse", "HEAD") == head
    assert git(git_vault, "status", "--porcelain") == ""


def test_a_source_over_the_configured_size_limit_is_refused(git_vault, capsys):
    (git_vault / ".wiki-tui").mkdir(exist_ok=True)
    (git_vault / ".wiki-tui/config.toml").write_text("max_source_mb = 0.01\n")
    _add(git_vault, {"raw/long.md": "# Long\n\n" + "word " * 4000})
    assert _ingest(git_vault, "raw/long.md", "--yes") == 1
    assert "raw/long.md: 0.0 MB is over the 0.01 MB limit" in capsys.readouterr().err


def test_without_the_documents_extra_the_error_names_it(git_vault):
    """A real process in which python-docx cannot be imported (as where the extra is not
    installed): the ingest fails naming the extra and the command, and writes nothing."""
    _add(git_vault, {"raw/report.docx": make_docx("Report", ["Text."])})
    shim = git_vault.parent / "shim"
    shim.mkdir()
    (shim / "sitecustomize.py").write_text(
        "import sys\nsys.modules.update(docx=None, pptx=None, openpyxl=None)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(shim), str(ROOT)])}
    head = git(git_vault, "rev-parse", "HEAD")
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from wiki_tui.cli import main; "
         "sys.exit(main(sys.argv[1:]))", "--vault", str(git_vault), "ingest",
         "raw/report.docx", "--yes"], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert "raw/report.docx: DOCX sources need the optional extra wiki-tui[documents] " \
           "(python-docx is not installed)" in proc.stderr
    assert "uv sync --extra documents" in proc.stderr
    assert git(git_vault, "rev-parse", "HEAD") == head


def test_an_image_source_is_embedded_not_copied_and_named_as_unseen(git_vault, capsys):
    _add(git_vault, {"raw/h4-dial.png": PNG_1PX})
    assert _ingest(git_vault, "raw/h4-dial.png", "--yes") == 0
    out = capsys.readouterr()
    page = (git_vault / "sources/H4 dial.md").read_text(encoding="utf-8")
    assert "## Images\n\n![[raw/h4-dial.png]]" in page
    assert "the model did not see 1 image(s) (the offline engine sees no images): " \
           "raw/h4-dial.png" in out.out
    changed = _changed_in_head(git_vault)
    assert "sources/H4 dial.md" in changed and not any(p.startswith("raw/") for p in changed)


CLIP = ("# Clocks at Sea\n\nThe H4 kept time at sea.\n\n![dial](assets/dial.png)\n\n"
        "![[gear.gif]]\n")
GIF = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;"


def _model_ingest(vault: Path, server, *extra: str) -> int:
    return cli_main(["--vault", str(vault), "--model", "openai/test-model", "--api-base",
                     server.api_base, "ingest", *extra, "--yes"])


def _source_page_reply(path: str = "sources/Clocks at Sea.md", *, image: bool = True) -> Reply:
    """The source page a model writes; `image`: it embeds the clip's picture (only where the
    vault has it: an embed of a missing file is a new broken link, held from --yes)."""
    embed = "![[raw/assets/dial.png]]\n" if image else "Clocks and the sea.\n"
    return Reply(f"@@@ WRITE {path}\n---\ntitle: Clocks at Sea\ntype: source\nsummary: A clip."
                 f"\nsources: [raw/clip.md]\n---\n# Clocks at Sea\n\n{embed}"
                 "@@@ END\n")


def test_a_vision_model_is_sent_the_clips_images(git_vault, llm_server, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    (git_vault / ".wiki-tui").mkdir(exist_ok=True)
    (git_vault / ".wiki-tui/config.toml").write_text("vision = true\n")
    _add(git_vault, {"raw/clip.md": CLIP, "raw/assets/dial.png": PNG_1PX,
                     "raw/assets/gear.gif": GIF})
    llm_server.queue(_source_page_reply())
    assert _model_ingest(git_vault, llm_server, "raw/clip.md") == 0
    content = llm_server.requests[0].messages[-1]["content"]
    urls = [p["image_url"]["url"] for p in content if p.get("type") == "image_url"]
    assert [u.split(",")[0] for u in urls] == ["data:image/png;base64", "data:image/gif;base64"]
    prompt = llm_server.requests[0].text()
    assert "`![[raw/assets/dial.png]]`" in prompt and "You cannot see" not in prompt
    assert "did not see" not in capsys.readouterr().out


def test_a_model_without_vision_gets_text_and_the_review_names_the_images(
        git_vault, llm_server, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    _add(git_vault, {"raw/clip.md": CLIP, "raw/assets/dial.png": PNG_1PX,
                     "raw/assets/gear.gif": GIF})
    llm_server.queue(_source_page_reply())
    assert _model_ingest(git_vault, llm_server, "raw/clip.md") == 0
    assert isinstance(llm_server.requests[0].messages[-1]["content"], str)
    assert "You cannot see raw/assets/dial.png, raw/assets/gear.gif" in \
        llm_server.requests[0].text()
    assert ("warning: the model did not see 2 image(s) (openai/test-model was not sent them"
            in capsys.readouterr().out)


def test_a_long_pdf_goes_in_parts_each_naming_its_page(git_vault, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    (git_vault / ".wiki-tui").mkdir(exist_ok=True)
    (git_vault / ".wiki-tui/config.toml").write_text("context_tokens = 2000\n")
    pages = ["\n".join(f"Page {n} line {i} about clocks and the sea." for i in range(40))
             for n in range(1, 7)]
    _add(git_vault, {"raw/long.pdf": make_pdf(pages, title="Long Paper")})
    llm_server.queue(_source_page_reply("sources/Long Paper.md", image=False),
                     *[Reply("Nothing more to add.") for _ in range(12)])
    assert _model_ingest(git_vault, llm_server, "raw/long.pdf") == 0
    prompts = [r.text() for r in llm_server.requests]
    assert len(prompts) > 2
    for number, prompt in enumerate(prompts[1:], 2):
        head = (rf"\(part {number} of {len(prompts)}\)\n\n\(A PDF converted[^\n]*\)"
                r"\n\n\[p\. \d\]\n")
        assert re.search(head, prompt), prompt[:300]
