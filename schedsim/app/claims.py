"""The claims of a paper against a study's results: one vocabulary for every paper.

A paper's claims module is data, a tuple of `Claim` (what the paper says, where, its
value and how a verdict is reached), and small functions that compute *ours* from the
results: the claim's `Case` list (one per trace, category, load... the claim covers).
`score` pairs them into `ClaimResult`; `claims_table` makes the claims table every
paper's report writes (``claims.csv``, columns `COLUMNS`), `write_claims` writes it as CSV and
Markdown, `markdown` gives the Markdown alone and `print_claims` prints it.

Two rules make a verdict, both named objects with the rule in their docstring and text:

* a case's `Rule`: ours (a number) -> (holds, holds in a weaker sense), for example
  `same_sign_within` (Zeng & Sodan's "like the paper's: same sign, within a factor 2");
* a claim's `Tally`: its cases -> ``reproduced``, ``partly`` or ``not reproduced``
  (``not run`` without cases), for example `ALL_OR_ANY`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "ALL_OR_ANY",
    "ALL_OR_HALF",
    "ALL_OR_HALF_WEAK",
    "ALL_OR_WEAK",
    "CASE",
    "COLUMNS",
    "NOT_RUN",
    "STATUSES",
    "Case",
    "Claim",
    "ClaimResult",
    "Ours",
    "Rule",
    "Tally",
    "at_least",
    "at_most",
    "claims_table",
    "groups",
    "markdown",
    "needed",
    "print_claims",
    "same_sign_within",
    "score",
    "within",
    "within_factor",
    "write_claims",
]

#: The verdicts, best first.
STATUSES: tuple[str, ...] = ("reproduced", "partly", "not reproduced")
#: The verdict of a claim without a case (none of its runs is in the study).
NOT_RUN = "not run"
#: The columns of a claims table (``claims.csv``): the claim, where the paper makes it,
#: the paper's value, ours, the cases that hold ("k of n") and the verdict.
COLUMNS: tuple[str, ...] = ("claim", "where", "paper", "schedsim", "holds", "status")
#: How a case is shown among ours by default: its name, then ours.
CASE = "{name} {shown}"


# -- a case and its rule -----------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One case of a claim (a trace, a category, a load...): its name, ours as shown
    in the table, whether it holds and whether it holds in the weaker sense (None:
    only when it holds) that may make a claim ``partly`` reproduced."""

    name: str
    shown: str
    holds: bool
    weak: bool | None = None

    @property
    def holds_weakly(self) -> bool:
        return self.holds or bool(self.weak)


@dataclass(frozen=True)
class Rule:
    """A case's test: ``test(ours)`` -> (holds, holds in the weaker sense); ``text``
    says it in words (the ``rule`` column where a paper shows it)."""

    text: str
    test: Callable[[float], tuple[bool, bool]] = field(compare=False)

    def __call__(self, ours: float) -> tuple[bool, bool]:
        return self.test(ours)

    def case(self, name: str, ours: float, shown: str) -> Case:
        holds, weak = self.test(ours)
        return Case(name, shown, bool(holds), bool(weak))


def same_sign_within(paper: float, factor: float = 2.0) -> Rule:
    """A change like the paper's: the same sign and within ``factor`` of it (weaker:
    the same sign)."""

    def test(v: float) -> tuple[bool, bool]:
        same = v * paper > 0
        return same and 1 / factor <= v / paper <= factor, same

    return Rule(f"same sign and within a factor of {factor:g} of {paper:g}; weaker: same sign",
                test)  # fmt: skip


def within(paper: float, tol: float, weak: float) -> Rule:
    """Within ``tol`` of the paper's value (weaker: within ``weak``)."""
    return Rule(f"within {tol:g} of {paper:g}; weaker: within {weak:g}",
                lambda v: (abs(v - paper) <= tol, abs(v - paper) <= weak))  # fmt: skip


def within_factor(paper: float, factor: float, weak: float) -> Rule:
    """Within a factor ``factor`` of the paper's value (weaker: of ``weak``)."""
    return Rule(
        f"within a factor {factor:g} of {paper:g}; weaker: of {weak:g}",
        lambda v: (paper / factor <= v <= paper * factor, paper / weak <= v <= paper * weak),
    )


def at_most(limit: float) -> Rule:
    """At most ``limit`` (a fall of at least -``limit``; weaker: below 0)."""
    return Rule(f"at most {limit:g}; weaker: below 0", lambda v: (v <= limit, v < 0))


def at_least(limit: float) -> Rule:
    """At least ``limit`` (weaker: above 0)."""
    return Rule(f"at least {limit:g}; weaker: above 0", lambda v: (v >= limit, v > 0))


# -- a claim's verdict -------------------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    """How a claim's cases make its verdict: ``reproduced`` when at least
    ``need(n)`` of its n cases hold, else ``partly`` when ``partly(hits, weak hits,
    n)``, else ``not reproduced``; ``not run`` without cases. ``text`` says it."""

    text: str
    partly: Callable[[int, int, int], bool] = field(compare=False)
    need: Callable[[int], int] = field(default=lambda n: n, compare=False)

    def __call__(self, cases: Sequence[Case]) -> str:
        hits, weak = sum(c.holds for c in cases), sum(c.holds_weakly for c in cases)
        return self.verdict(hits, weak, len(cases))

    def verdict(self, hits: int, weak: int, n: int) -> str:
        """The verdict of ``hits`` cases holding, ``weak`` at least weakly, of ``n``."""
        if n == 0:
            return NOT_RUN
        if hits >= self.need(n):
            return "reproduced"
        return "partly" if self.partly(hits, weak, n) else "not reproduced"


#: Every case holds; partly when at least one holds (in the weaker sense, if any).
ALL_OR_ANY = Tally("reproduced: every case holds; partly: at least one holds (weakly)",
                   lambda hits, weak, n: weak > 0)  # fmt: skip
#: Every case holds; partly when at least half of them (rounded down, at least one) do.
ALL_OR_HALF = Tally("reproduced: every case holds; partly: at least half of them do",
                    lambda hits, weak, n: hits >= max(1, n // 2))  # fmt: skip
#: Every case holds; partly when at least half hold in the weaker sense (at least one).
ALL_OR_HALF_WEAK = Tally(
    "reproduced: every case holds; partly: at least half hold in the weaker sense",
    lambda hits, weak, n: weak > 0 and weak >= n / 2,
)
#: Every case holds; partly when every case holds at least weakly, or half hold.
ALL_OR_WEAK = Tally(
    "reproduced: every case holds; partly: every case holds in the weaker sense, or half hold",
    lambda hits, weak, n: weak == n or 2 * hits >= n,
)


def needed(need: str | int) -> Tally:
    """The thesis's words for how many cases a claim needs, ``all``, ``most`` (more
    than half) or ``some`` (one), or a number of cases; partly when at least one, and
    half as many as needed, hold (Kettimuthu 2003)."""
    words: dict[str, Callable[[int], int]] = {
        "all": lambda n: n, "most": lambda n: n // 2 + 1, "some": lambda n: 1}  # fmt: skip
    count = words[need] if isinstance(need, str) else (lambda n: need)
    return Tally(f"{need} of the cases; partly: at least half as many",
                 lambda hits, weak, n: hits > 0 and 2 * hits >= count(n), count)  # fmt: skip


# -- a claim and its result --------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """One statement of a paper: ``key`` (the claim as the table says it), ``where``
    (its location in the paper, "Figure 4", "section 3.5.1"), ``paper`` (the paper's
    value, in words, with how it is checked), ``unit`` (of ours, "" for a text),
    ``rule`` (the case's rule in words, shown where a paper shows it) and ``tally``
    (the verdict from the cases)."""

    key: str
    where: str
    paper: str
    unit: str = ""
    rule: str = ""
    tally: Tally = ALL_OR_ANY


@dataclass
class ClaimResult:
    """A claim's outcome: its cases, ``note`` (shown before them) and ``shown`` (ours
    as the table says it; by default every case's name and value)."""

    claim: Claim
    cases: list[Case]
    note: str = ""
    shown: str | None = None

    @property
    def hits(self) -> int:
        return sum(c.holds for c in self.cases)

    @property
    def holds(self) -> str:
        return f"{self.hits} of {len(self.cases)}"

    @property
    def status(self) -> str:
        return self.claim.tally(self.cases)

    def text(self, shown: int | None = None, form: str = CASE, sep: str = ", ") -> str:
        """Ours: ``shown`` if given, else the note and every case (``form`` of its
        ``name`` and ``shown``, joined by ``sep``; up to ``shown`` cases, beyond them
        the failing ones); "-" without cases."""
        if self.shown is not None:
            return self.shown
        parts = [self.note] if self.note else []
        if shown is None or len(self.cases) <= shown:
            parts.append(sep.join(form.format(name=c.name, shown=c.shown) for c in self.cases))
        else:
            fails = [f"{c.name} {c.shown}" for c in self.cases if not c.holds]
            if fails:
                more = f" and {len(fails) - 6} more" if len(fails) > 6 else ""
                parts.append("fails: " + ", ".join(fails[:6]) + more)
            else:
                parts.append("every case holds")
        return "; ".join(p for p in parts if p) or "-"

    def row(self, shown: int | None = None, form: str = CASE, sep: str = ", ") -> dict[str, str]:
        """The claim's row of a claims table (`COLUMNS`, and ``rule`` when it has one;
        ``shown``, ``form``, ``sep``: `text`'s)."""
        c = self.claim
        row = {"claim": c.key, "where": c.where, "paper": c.paper,
               "schedsim": self.text(shown, form, sep),
               "holds": self.holds, "status": self.status}  # fmt: skip
        if c.rule:
            row["rule"] = c.rule
        return row


Ours = Callable[[], "Sequence[Case] | ClaimResult | None"]


def score(claims: Iterable[Claim], ours: Mapping[str, Ours]) -> list[ClaimResult]:
    """Each claim's result, ``ours[claim.key]()`` giving its cases (or its whole
    result; None when none of its runs is in the study: a result without cases)."""
    out = []
    for claim in claims:
        got = ours[claim.key]()
        if isinstance(got, ClaimResult):
            out.append(got)
        else:
            out.append(ClaimResult(claim, list(got or [])))
    return out


def claims_table(results: Iterable[ClaimResult], rule: bool = False, keep_not_run: bool = True,
                 form: str = CASE, sep: str = ", ") -> pd.DataFrame:  # fmt: skip
    """The claims table of ``results``: `COLUMNS` (and ``rule``), one row per claim, ours
    each case as ``form`` joined by ``sep`` (`ClaimResult.text`); ``keep_not_run=False``
    leaves out the claims without a case."""
    rows = [r.row(None, form, sep) for r in results if keep_not_run or r.cases]
    return pd.DataFrame(rows, columns=[*COLUMNS, *(["rule"] if rule else [])])


def _escape(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown(table: pd.DataFrame, tag: str = "", header: Sequence[str] | None = None,
             rows: Sequence[int] | None = None) -> str:  # fmt: skip
    """A claims table as a Markdown table: the claim (where), the paper, ours, holds and
    the verdict; ``tag`` picks a column group ``schedsim [tag]``... whose blank cells
    stand for the default's; ``header`` names the five columns; ``rows`` (positions)
    picks some rows."""
    suffix = f" [{tag}]" if tag else ""
    names = header or ("the paper says", "paper", "here", "holds", "")
    picked = table if rows is None else table.iloc[list(rows)]
    lines = ["|" + "|".join(f" {n} " if n else " " for n in names) + "|", "|---" * len(names) + "|"]
    for row in picked.to_dict("records"):
        here, holds, state = row[f"schedsim{suffix}"], row[f"holds{suffix}"], row[f"status{suffix}"]
        if not state:  # the column group does not change this claim: the default's cells
            here, holds, state = row["schedsim"], row["holds"], row["status"]
        said = f"{_escape(row['claim'])} ({_escape(row['where'])})"
        lines.append(f"| {said} | {_escape(row['paper'])} | {_escape(here)} | {holds} | {state} |")
    return "\n".join(lines) + "\n"


def groups(table: pd.DataFrame) -> list[str]:
    """The column groups of a claims table: "" (the claim's own columns), then each
    ``NAME`` of a group ``schedsim [NAME]``, ``holds [NAME]``, ``status [NAME]`` (another
    reading of the runs, Kettimuthu 2003's)."""
    return ["", *(c[len("status [") : -1] for c in table.columns
                  if c.startswith("status [") and c.endswith("]"))]  # fmt: skip


def write_claims(table: pd.DataFrame, out: Path, title: str, intro: str = "",
                 md: str = "claims.md", header: Sequence[str] | None = None,
                 section: str | None = None) -> list[Path]:  # fmt: skip
    """The claims table as ``claims.csv`` (its columns are text: no unit) and as
    Markdown (``md``): ``# title``, ``intro``, then the table, or with ``section``
    (a heading with ``{name}``) one table per column group (`groups`, the first named
    "default"); ``header``: `markdown`'s."""
    csv, text = out / "claims.csv", out / md
    table.to_csv(csv, index=False)
    parts = [f"# {title}\n", *([intro] if intro else [])]
    if section is None:
        parts.append(markdown(table, header=header))
    else:
        for tag in groups(table):
            heading = section.format(name=tag or "default")
            parts += [f"\n{heading}\n", markdown(table, tag, header)]
    text.write_text("\n".join(parts))
    return [csv, text]


def finite(*values: float) -> bool:
    """Whether every value is a finite number (a case is left out otherwise)."""
    return all(math.isfinite(v) for v in values)


def print_claims(console: Console, claims: pd.DataFrame, paper: str | None = None) -> None:
    """The paper's claims against the study's results (``claims.csv`` of a report):
    the claim, where the paper makes it, its statement, what schedsim gives and
    whether it is reproduced (``schedsim report`` on a study that names a paper)."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"The paper's claims ({paper})" if paper else "The paper's claims")
    for column in COLUMNS:
        table.add_column(column)
    style = dict(zip(STATUSES, ("green", "yellow", "red"), strict=True))
    for row in claims.to_dict("records"):
        status = str(row["status"])
        table.add_row(
            str(row["claim"]), str(row["where"]), str(row["paper"]), str(row["schedsim"]),
            str(row["holds"]), Text(status, style=style.get(status, "")),
        )  # fmt: skip
    console.print(table)
