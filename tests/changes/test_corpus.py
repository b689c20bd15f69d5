"""Every reply in the corpus (tests/corpus) ends as it must: as meant, refused clearly, or
repaired visibly; never silently wrong, never a crash."""

from __future__ import annotations

import pytest

from tests.corpus.case import REFUSED, REPAIRED
from tests.corpus.runner import AS_MEANT, CLEAR, REPAIRED_OK, all_cases, run_case

CASES = all_cases()
_EXPECTED = {"applied": AS_MEANT, "refused": CLEAR, "repaired": REPAIRED_OK}


@pytest.mark.parametrize("case", CASES, ids=[f"{c.family}/{c.name}" for c in CASES])
def test_corpus_case(case):
    first, second = run_case(case)
    assert first.outcome == _EXPECTED[case.expect], f"{first.outcome}: {first.detail}"
    if case.expect == REPAIRED:  # and the note says what was repaired
        assert not first.detail, first.detail
    if case.expect == REFUSED and case.retry is not None:
        assert second is not None and second.outcome in (AS_MEANT, REPAIRED_OK), (
            f"after a retry that follows the message: {second}")


def test_corpus_names_are_unique():
    names = [(c.family, c.name) for c in CASES]
    assert len(names) == len(set(names))
