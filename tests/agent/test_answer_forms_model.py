"""`query --save --as FORM` through litellm's real openai/ provider against the local streaming
server: the model is asked for the form, its reply for each form goes through review and apply
(one commit, one log entry, index.md), and a reply in the wrong form or with a broken spec or
canvas is sent back, then refused with nothing written."""

from __future__ import annotations

import pytest

from tests.conftest import git
from tests.support.forms import ANSWER, CANVAS, CHART, QUESTION, SLIDES, TABLE
from tests.support.llm_server import Reply
from wiki_tui.cli import main as cli_main


def run(llm_server, vault, form: str, *replies: str) -> int:
    llm_server.queue(Reply(ANSWER), *[Reply(r) for r in replies])
    return cli_main(["--vault", str(vault), "--model", "openai/test-model", "--api-base",
                     llm_server.api_base, "query", QUESTION, "--save", "--as", form, "--yes"])


def last_commit_files(vault) -> list[str]:
    return sorted(git(vault, "show", "--name-only", "--format=", "HEAD").splitlines())


@pytest.mark.parametrize("form, reply, written, words", [
    ("table", TABLE, ["answers/H4 trials.md"], "Markdown table"),
    ("slides", SLIDES, ["answers/H4 at sea.md"], "Marp slide deck"),
    ("chart", CHART, ["answers/H4 error.md", "attachments/H4 error.svg"], "```chart"),
    ("canvas", CANVAS, ["answers/H4 map.canvas"], "JSON Canvas 1.0"),
])
def test_each_form_is_asked_for_reviewed_and_applied(llm_server, git_vault, capsys, form,
                                                     reply, written, words):
    assert run(llm_server, git_vault, form, reply) == 0, capsys.readouterr().err
    system = llm_server.requests[1].messages[0]["content"]
    assert words.lower() in system.lower()
    assert last_commit_files(git_vault) == sorted([*written, "index.md", "log.md"])
    assert git(git_vault, "log", "-1", "--format=%s").startswith("save")
    log = (git_vault / "log.md").read_text(encoding="utf-8")
    assert log.count(f"] save | {QUESTION}") == 1
    name = written[0].rsplit("/", 1)[1].rsplit(".", 1)[0]
    assert f"|{name}]]" in (git_vault / "index.md").read_text(encoding="utf-8")
    if form == "chart":
        page = (git_vault / written[0]).read_text(encoding="utf-8")
        assert "```chart" in page and "![[attachments/H4 error.svg]]" in page
        svg = (git_vault / written[1]).read_text(encoding="utf-8")
        assert "Seconds H4 lost per trial" in svg and "<svg" in svg


def test_a_reply_in_the_wrong_form_is_sent_back_with_what_is_missing(llm_server, git_vault,
                                                                    capsys):
    bare = TABLE.replace("| [[H4]] |\n| Barbados", "| H4 |\n| Barbados")
    assert run(llm_server, git_vault, "table", bare, TABLE) == 0, capsys.readouterr().err
    retry = llm_server.requests[2].messages[-1]["content"]
    assert "every row of the table cites the page" in retry and "line(s) 13" in retry
    assert (git_vault / "answers/H4 trials.md").is_file()


def test_a_broken_chart_spec_is_refused_naming_the_line_and_nothing_is_written(
        llm_server, git_vault, capsys):
    head = git(git_vault, "rev-parse", "HEAD")
    broken = CHART.replace("[Barbados, 3.9]", "[Barbados, lots]")
    assert run(llm_server, git_vault, "chart", broken, broken, broken) == 1
    err = capsys.readouterr().err
    assert "answers/H4 error.md: line 16: series 1, point 2: 'lots' is not a number" in err
    assert "line 16" in llm_server.requests[2].messages[-1]["content"]
    assert git(git_vault, "rev-parse", "HEAD") == head
    assert not (git_vault / "answers/H4 error.md").exists()
    assert not (git_vault / "attachments/H4 error.svg").exists()


def test_a_chart_spec_naming_a_file_outside_the_vault_is_refused(llm_server, git_vault,
                                                                 capsys, tmp_path):
    outside = tmp_path / "outside.svg"
    sneaky = CHART.replace("kind: bar\n", f"kind: bar\nfile: {outside}\n")
    assert run(llm_server, git_vault, "chart", sneaky, sneaky, sneaky) == 1
    assert "is outside the vault" in capsys.readouterr().err
    assert not outside.exists() and not (git_vault / "answers/H4 error.md").exists()


def test_an_invalid_canvas_is_refused_with_nothing_written(llm_server, git_vault, capsys):
    head = git(git_vault, "rev-parse", "HEAD")
    ghost = CANVAS.replace('"entities/John Harrison.md"', '"entities/Nobody.md"')
    assert run(llm_server, git_vault, "canvas", ghost, ghost, ghost) == 1
    assert "entities/Nobody.md" in capsys.readouterr().err
    assert git(git_vault, "rev-parse", "HEAD") == head
    assert not (git_vault / "answers/H4 map.canvas").exists()


def test_as_without_save_is_a_usage_error(git_vault, capsys):
    assert cli_main(["--vault", str(git_vault), "query", QUESTION, "--as", "chart"]) == 2
    assert "needs --save" in capsys.readouterr().err
