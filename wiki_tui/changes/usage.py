"""What an operation's model calls cost, as recorded in log.md and the commit, and the totals
`wiki-tui usage` prints from log.md alone.

An accepted operation's log entry carries one line (and its commit the same as trailers):

    - usage: openai/gpt-4o-mini, 12408 tokens in, 913 tokens out, cost $0.002413
    - usage: my-local-model, 3100 tokens in, 420 tokens out, cost unknown

"cost unknown" where litellm has no price for the model. Operations that wrote nothing (an
answer not saved, a changeset rejected) leave no log entry, so they are not counted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

TRAILER_TOKENS_IN = "Tokens-In"
TRAILER_TOKENS_OUT = "Tokens-Out"
TRAILER_COST = "Cost-USD"
_LINE = re.compile(r"^- usage: (?P<model>.+), (?P<tin>\d+) tokens in, (?P<tout>\d+) tokens out, "
                   r"cost (?:\$(?P<cost>\d+(?:\.\d+)?)|unknown)\s*$")
_HEADING = re.compile(r"^## \[(?P<date>\d{4}-\d{2})-\d{2}\] (?P<op>\S+) \|")


@dataclass(frozen=True)
class Spend:
    """Tokens and cost of the model calls behind one changeset."""

    model: str
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float | None = None  # None: litellm does not know the model's price

    def log_line(self) -> str:
        cost = "unknown" if self.cost_usd is None else f"${_money(self.cost_usd)}"
        model = " ".join(self.model.split()) or "unknown"
        return f"- usage: {model}, {self.tokens_in} tokens in, {self.tokens_out} tokens out, cost {cost}"

    def trailers(self) -> dict[str, str]:
        out = {TRAILER_TOKENS_IN: str(self.tokens_in), TRAILER_TOKENS_OUT: str(self.tokens_out)}
        if self.cost_usd is not None:
            out[TRAILER_COST] = _money(self.cost_usd)
        return out


def _money(value: float) -> str:
    """Dollars to the millionth, without trailing zeros ("0.002413", "0")."""
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return text or "0"


def parse_line(line: str) -> Spend | None:
    m = _LINE.match(line)
    if m is None:
        return None
    cost = float(m["cost"]) if m["cost"] is not None else None
    return Spend(m["model"], int(m["tin"]), int(m["tout"]), cost)


@dataclass
class Total:
    operations: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0  # of the operations whose cost is known
    cost_unknown: int = 0  # operations whose cost litellm did not know

    def add(self, spend: Spend) -> None:
        self.operations += 1
        self.tokens_in += spend.tokens_in
        self.tokens_out += spend.tokens_out
        if spend.cost_usd is None:
            self.cost_unknown += 1
        else:
            self.cost_usd += spend.cost_usd

    def to_dict(self) -> dict:
        return {"operations": self.operations, "tokens_in": self.tokens_in,
                "tokens_out": self.tokens_out, "cost_usd": round(self.cost_usd, 6),
                "cost_unknown": self.cost_unknown}


@dataclass
class Totals:
    total: Total = field(default_factory=Total)
    by_model: dict[str, Total] = field(default_factory=dict)
    by_operation: dict[str, Total] = field(default_factory=dict)
    by_month: dict[str, Total] = field(default_factory=dict)  # "YYYY-MM"

    def to_dict(self) -> dict:
        def group(items: dict[str, Total]) -> dict:
            return {k: v.to_dict() for k, v in sorted(items.items())}

        return {"total": self.total.to_dict(), "by_model": group(self.by_model),
                "by_operation": group(self.by_operation), "by_month": group(self.by_month)}


def totals(log_text: str) -> Totals:
    """Sum the usage lines of log.md, each under the entry heading it follows."""
    out = Totals()
    operation, month = "unknown", "unknown"
    for line in log_text.splitlines():
        heading = _HEADING.match(line)
        if heading is not None:
            operation, month = heading["op"], heading["date"]
            continue
        spend = parse_line(line)
        if spend is None:
            continue
        out.total.add(spend)
        for groups, key in ((out.by_model, spend.model), (out.by_operation, operation), (out.by_month, month)):
            groups.setdefault(key, Total()).add(spend)
    return out
