"""One corpus case: a reply, the vault it meets, and what the reply meant."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

APPLIED, REFUSED, REPAIRED = "applied", "refused", "repaired"


@dataclass(frozen=True)
class Case:
    """A model reply against a copy of sample_vault/ (plus `pages`).

    expect:
      APPLIED  - the reply is well-formed (or clean enough) and applies exactly as `result`;
      REPAIRED - the program must repair it visibly (a repair note containing `repair`) and the
                 result must equal `result`;
      REFUSED  - it must be refused with a message containing every string in `message`.
    result: every file the reply meant to change: path -> full text after the change (None for
      a deletion). Files not named must stay as they were.
    retry: what a model that follows the refusal message sends next (the same vault); it must
      then end as `result`.
    """

    name: str
    family: str
    reply: str
    expect: str
    result: dict[str, str | None] = field(default_factory=dict)
    pages: dict[str, str] = field(default_factory=dict)  # added to / replacing sample_vault files
    message: tuple[str, ...] = ()
    repair: str = ""
    retry: str | None = None
    well_formed: bool = False  # written exactly to the protocol (the baseline, not a misbehaviour)
    note: str = ""  # which real model habit this stands for


SAMPLE = Path(__file__).resolve().parents[2] / "sample_vault"


def vault_page(path: str) -> str:
    """A page of sample_vault/ as it is on disk."""
    return (SAMPLE / path).read_text(encoding="utf-8")


def edited(path: str, old: str, new: str) -> str:
    """A sample_vault page with its one occurrence of `old` replaced by `new`."""
    text = vault_page(path)
    assert text.count(old) == 1, (path, old)
    return text.replace(old, new, 1)


def new_page(title: str, body: str = "", kind: str = "concept") -> str:
    """A new wiki page with the frontmatter the sample vault's AGENTS.md asks for."""
    return (f"---\ntitle: {title}\ntype: {kind}\nsummary: A page about {title.lower()}.\n---\n"
            f"# {title}\n\n{body or f'See [[H4]] for {title.lower()}.'}\n")


# Pages most cases use: a new concept page, and the sample vault's H4.
ESC_PATH = "concepts/Escapement.md"
ESC = new_page("Escapement")
NEW = {ESC_PATH: ESC}
H4 = "entities/H4.md"


def adversarial_twins_are_well_formed(cases: list[Case]) -> list[Case]:
    """In a misbehaviour family, the cases meant to apply as written are its adversarial twins
    (well-formed replies whose pages only look like the slip): mark them as the baseline, so the
    benchmark's repair share counts only the slips."""
    from dataclasses import replace

    return [replace(c, well_formed=True) if c.expect == APPLIED else c for c in cases]
