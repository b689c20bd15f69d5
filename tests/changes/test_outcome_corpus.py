"""The outcome corpus (tests/corpus/outcome.py) on sample_vault: every intended change is applied
by --yes; every damaging one is held, named by the invariants the case expects."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.corpus.outcome import DAMAGING, INTENDED, SAMPLE, judge_case


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    dest = tmp_path / "vault"
    shutil.copytree(SAMPLE, dest, ignore=shutil.ignore_patterns(".wiki-tui"))
    return dest


@pytest.mark.parametrize("case", INTENDED, ids=lambda c: c.name)
def test_an_intended_change_is_not_held(vault: Path, case):
    judged = judge_case(vault, case)
    assert judged.errors == []
    assert judged.held == set(), judged.breaches
    if case.repaired:
        assert any(case.repaired in r for r in judged.repairs), judged.repairs


@pytest.mark.parametrize("case", DAMAGING, ids=lambda c: c.name)
def test_a_damaging_change_is_held_and_named(vault: Path, case):
    judged = judge_case(vault, case)
    assert judged.errors == []
    assert case.held <= judged.held, judged.breaches
    if case.repaired:
        assert any(case.repaired in r for r in judged.repairs), judged.repairs
