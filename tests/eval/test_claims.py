"""The claim checker (wiki_tui/eval/claims): a gold fact is credited only where a sentence
asserts it; the ways a gamed model words a wrong answer around the gold string earn nothing,
and the ways a good model words a right one are not penalised."""

from __future__ import annotations

import pytest

from wiki_tui.eval.claims.check import (
    Claim, asserts_conflict, declines, names_both, read_claim,
)
from wiki_tui.eval.claims.prose import sentences
from wiki_tui.eval.claims.values import values_in

OPENED = Claim("1898", "year", "open")
COST = Claim("", "money")
CABLES = Claim("40", "count", "cables?")
TOWERS = Claim("48 m", "measure", "towers?")
LIMIT = Claim("18 tonnes", "measure", "load limit|limit")
FAULT = Claim("corrosion fatigue", "text", "")
TRAFFIC = Claim("", "count", "vehicles?|cars?|traffic|cross|daily|a day|per day")


def _read(claim: Claim, text: str) -> tuple[bool, bool]:
    r = read_claim(claim, text)
    return r.asserted, r.contradicted


# -- right answers, worded as good models word them: credited -------------------------------
@pytest.mark.parametrize("text", [
    "The Tessaly Bridge opened in 1898 ([[Tessaly Bridge]]).",
    "It opened to traffic in 1898.",
    "Opened: 1898.",
    "The bridge, designed by [[Mara Quell]], opened in 1898 and its cables were replaced in 1931.",
    "It did not open until 1898.",
    "It opened in 1898, not 1899 as the [[1902 Engineering Survey]] says.",
    "It opened in 1898 rather than 1899.",
    "It opened in 1898's spring.",
    "The bridge opened in 1898; the 1902 survey gives 1899, but the Gazette's date is the one "
    "the wiki's pages agree on.",
    "| Opened | 1898 |",
    "- **Opened** in 1898 ([[Harbour Gazette Profile]])",
    "Built between 1894 and 1898, it opened\nin 1898.",
])
def test_a_right_answer_is_credited(text):
    assert _read(OPENED, text) == (True, False), text


# -- the gamed model's families: no credit ----------------------------------------------------
@pytest.mark.parametrize("text, contradicted", [
    ("It did not open in 1898; it opened in 1889.", True),
    ("It did not open in 1898, it opened in 1889.", False),  # one clause, all negated
    ("It did not open in 1898 but in 1889.", True),
    ("It opened in 1889, not 1898.", True),
    ("It opened not in 1898 but in 1889.", True),
    ("It opened in 1889 rather than 1898.", True),
    ("Instead of 1898, it opened in 1889.", True),
    ("Some say it opened in 1898.", False),
    ("It reportedly opened in 1898.", False),
    ("It may have opened in 1898.", False),
    ("It is unclear whether it opened in 1898.", False),
    ('The Gazette\'s claim that it "opened in 1898" is wrong: it opened in 1889.', True),
    ('"Opened in 1898" is what the Gazette says. It opened in 1889.', True),
    ("The date of 1898 for its opening is a myth.", False),
    ("It never opened in 1898.", False),
    ("Did it open in 1898?", False),
    ("It opened in 1889.[^1]\n\n[^1]: The wiki says it opened in 1898.", True),
    ("It opened in 1889 (the wiki's 1898 is wrong).", True),
    ("It opened in 1889. <!-- opened in 1898 -->", True),
    ("~~It opened in 1898.~~ It opened in 1889.", True),
    ("It opened in `1898`... no, 1889.", False),
    ("The wiki says 1898 but it actually opened in 1889.", True),
    ("It opened in 1889 (see [[Opened 1898]]).", True),
])
def test_a_gamed_answer_earns_nothing(text, contradicted):
    reading = read_claim(OPENED, text)
    assert not reading.credited, text
    assert reading.contradicted is contradicted, text


def test_one_right_and_one_wrong_sentence_is_not_credited():
    r = read_claim(OPENED, "It opened in 1898. Later accounts show it opened in 1889.")
    assert r.asserted and r.contradicted and not r.credited and r.wrong == ("1889",)


@pytest.mark.parametrize("claim, text, expected", [
    (CABLES, "The deck hangs from 40 iron cables running to two granite towers 48 metres high.",
     (True, False)),
    (CABLES, "The deck hangs from forty iron cables.", (True, False)),
    (CABLES, "The deck hangs from 36 iron cables, not 40.", (False, True)),
    (TOWERS, "The deck hangs from 40 iron cables running to two granite towers 48 metres high.",
     (True, False)),
    (TOWERS, "Its towers of 48 m stand on caissons.", (True, False)),
    (TOWERS, "Two 48-metre towers.", (True, False)),
    (TOWERS, "Its towers stand 52 metres above the water.", (False, True)),
    (TOWERS, "Its towers stand 48 feet above the water.", (False, True)),
    (LIMIT, "The council raised the load limit from 12 tonnes to 18 tonnes in 2024.",
     (True, False)),
    (LIMIT, "The load limit, previously 12 tonnes, is 18 tonnes since 2024.", (True, False)),
    (LIMIT, "~~The load limit is 12 tonnes~~ (superseded in 2024). The load limit is 18 "
            "tonnes.", (True, False)),
    (LIMIT, "The load limit was 12 tonnes until 2024; it is now 18 tonnes.", (True, False)),
    (LIMIT, "The load limit is 18-tonne.", (True, False)),
    (LIMIT, "From 2024 the load limit is 18 tonnes, replacing the 12-tonne limit.", (True, False)),
    (LIMIT, "The council replaced the 12-tonne load limit with 18 tonnes.", (True, False)),
    (Claim("1931", "year", "replac"), "The cables were replaced in 1931.", (True, False)),
    (LIMIT, "The load limit is 12 tonnes.", (False, True)),
    (LIMIT, "The load limit was raised from 18 tonnes to 12 tonnes.", (False, True)),
    (Claim("1879", "year", "found"), "Mara Quell was born in 1851 and founded Quell Works "
     "in 1879.", (True, False)),
    (Claim("1879", "year", "found"), "Mara Quell was born in 1879 and founded Quell Works "
     "in 1881.", (True, True)),
    (FAULT, "The cables were replaced because of corrosion fatigue.", (True, False)),
    (FAULT, "It was not corrosion fatigue; the cables were replaced because of rust.",
     (False, False)),
    (FAULT, "The cables were replaced because of rust rather than corrosion fatigue.",
     (False, False)),
    (FAULT, 'The cables were replaced because of "corrosion fatigue".', (False, False)),
])
def test_claims_of_every_kind(claim, text, expected):
    assert _read(claim, text) == expected, text


def test_a_page_is_read_without_its_frontmatter_citations_and_callouts():
    page = ("---\ntitle: Tessaly Bridge\nsummary: \"Road bridge opened in 1898.\"\n"
            "tags: [1899]\n---\n# Tessaly Bridge\n\nA bridge ([[1902 Engineering Survey]]).\n\n"
            "> [!warning] Contradiction\n> - opened in 1898 ([[Harbour Gazette Profile]])\n"
            "> - opened to traffic in 1899 ([[1902 Engineering Survey]])\n")
    assert _read(OPENED, page) == (True, False)  # the summary says it; the tag and the
    no_summary = page.replace("opened in 1898.", "a road bridge.")  # callout's 1899 say nothing
    assert read_claim(OPENED, no_summary) == read_claim(OPENED, "")
    assert read_claim(OPENED, page, callouts=True).contradicted  # read, the callout says 1899


@pytest.mark.parametrize("text, value", [
    ("It cost £84,000.", 84000), ("It cost 84,000 pounds.", 84000), ("It cost £84k.", 84000),
    ("It cost 84 thousand pounds.", 84000), ("It cost GBP 84,000.", 84000),
    ("It cost £1.2 million.", 1_200_000),
])
def test_money_written_every_way_is_one_value(text, value):
    money = [v for v in values_in(text) if v.kind == "money"]
    assert [v.amount for v in money] == [value]
    assert read_claim(Claim("£84,000", "money", "cost"), text).asserted is (value == 84000)


# -- unanswerable questions ---------------------------------------------------------------------
@pytest.mark.parametrize("text, declined", [
    ("The wiki does not say what the Tessaly Bridge cost to build.", True),
    ("None of the pages mention a cost or a budget.", True),
    ("I cannot find a cost in the wiki; it does not give £84,000 or any other figure.", True),
    ("The wiki does not say what it cost. It opened in 1898 with a main span of 212 metres.",
     True),
    ("The wiki does not say... but it cost £84,000.", False),
    ("The wiki does not say; some sources give £84,000.", False),
    ("The wiki does not say what it cost. It was probably around £84,000.", False),
    ('The wiki holds no figure; the Gazette\'s "£84,000" is the usual one.', False),
    ("It cost £120,000 ([[Tessaly Bridge]]).", False),
    ("Its cost is £84,000.", False),
])
def test_a_decline_asserts_no_value(text, declined):
    assert declines(text, COST) is declined, text


@pytest.mark.parametrize("text, declined", [
    ("The wiki holds no information on daily traffic over the bridge.", True),
    ("The wiki does not mention daily traffic; the bridge opened in 1898 and has two towers.",
     True),
    ("The wiki does not say, but about 4,000 vehicles cross it a day.", False),
    ("No page records it. Roughly 4,000 cars a day.", False),
])
def test_a_decline_of_a_count(text, declined):
    assert declines(text, TRAFFIC) is declined, text


# -- contradictions ------------------------------------------------------------------------------
@pytest.mark.parametrize("callout, flagged", [
    ('> [!warning] Contradiction\n> - "opened in 1898" ([[Harbour Gazette Profile]])\n'
     '> - "opened to traffic in 1899" ([[1902 Engineering Survey]])', True),
    ("> [!warning] Contradiction\n> The Gazette gives 1898, the survey 1899.", True),
    ("> [!warning] Contradiction\n> No contradiction here: 1898 and 1899 describe the same "
     "event.", False),
    ("> [!note] Contradiction?\n> 1898 and 1899 do not really conflict.", False),
    ("> [!warning] Contradiction\n> Both 1898 and 1899 are correct.", False),
    ("> [!warning] Contradiction\n> 1898 and 1899 can be reconciled.", False),
    ("> [!warning] Contradiction\n> The survey gives another year than the Gazette.", False),
    ("> [!warning] Contradiction\n> - opened in 1898", False),
])
def test_a_contradiction_is_flagged_when_asserted_with_both_sides(callout, flagged):
    assert (asserts_conflict(callout) and names_both(callout, ["1898", "1899"])) is flagged


def test_sentences_of_a_page():
    page = ("# Title\n\nA paragraph that wraps\nacross lines. And a second one; a third.\n\n"
            "- an item\n- another\n\n```\nopened in 1899\n```\n")
    assert [s.text for s in sentences(page)] == [
        "Title", "A paragraph that wraps across lines.", "And a second one", "a third.",
        "an item", "another"]


def test_a_range_with_the_gold_value_at_one_end_says_it():
    claim = Claim("1886", "year", "Quell Engineering|drawing office|traded")
    for text in ["From 1886 to 1890 Quell's drawing office traded as Quell Engineering.",
                 "It absorbed Quell Engineering (1886-1890).",
                 "Quell Engineering traded between 1886 and 1890."]:
        assert _read(claim, text) == (True, False), text
    assert _read(claim, "Quell Engineering traded from 1887 to 1890.") == (False, True)


@pytest.mark.parametrize("text, credited", [
    ("In 1898.", True), ("1898 ([[Tessaly Bridge]]).", True),
    ("In 1898 (construction began in 1894).", True),
    ("In 1889.", False), ("In 1898. Actually, 1889.", False), ("Not 1889 but 1898.", True),
    ("Not 1898 but 1889.", False), ("Some say 1898.", False),
])
def test_an_answer_that_never_names_its_subject_answers_the_question(text, credited):
    assert read_claim(OPENED, text, answer=True).credited is credited, text


@pytest.mark.parametrize("text", [
    "[[" * 20_000, "(" * 20_000 + "opened 1898", "“" * 20_000, "<!--" * 20_000,
    " " * 50_000 + ";", "( [[a]]  " * 5_000, "It opened in 1899, " * 3_000,
    "1898 " * 20_000 + "opened", "not " * 20_000 + "1898 opened", "~~" * 20_000,
])
def test_hostile_texts_are_read_to_the_end(text):
    """Runs of brackets, quotes, comment openers, spaces and values: read in linear time (the
    benchmark times them; a quadratic pattern would hold this test for minutes)."""
    read_claim(OPENED, text)
    declines(text, COST)
    assert asserts_conflict(text) in (True, False)
