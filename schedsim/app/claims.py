"""The claims of a paper against a study's results: one vocabulary, and one verdict rule,
for every paper.

A paper's claims module is data, a tuple of `Claim` (what the paper says, where, its
value and the numeric reading it is checked by), and small functions that compute *ours*
from the results: the claim's `Case` list (one per trace, category, load... the claim
covers). `score` pairs them into `ClaimResult`; `claims_table` makes the claims table every
paper's report writes (``claims.csv``, columns `COLUMNS`), `write_claims` writes it as CSV
and Markdown, `markdown` gives the Markdown alone and `print_claims` prints it.
`readings_table` sets the verdicts of several readings of a paper side by side.

**The verdict rule** (`RULE`, the same for every paper; issue 39):

* a case is **reproduced** when ours goes the paper's way and its size is within 25% of
  the paper's (`TOLERANCE`) or the paper's value lies inside our 95% interval over
  replications (`Estimate`); **direction only** when it goes the paper's way and the size
  does not hold; **not reproduced** otherwise. A claim in words ("much better",
  "marginal", "saturates") is checked by a numeric reading stated in its definition
  (`Claim.reading`), fixed before our number was seen: `at_least`, `at_most`, `between`;
* a claim is reproduced when the cases it needs (`Need`: all of them unless the paper
  says "most" or "some") are reproduced; direction only when they at least go the
  paper's way; not reproduced otherwise; **not checked** (with the reason) when it has no
  case, because the study does not run what it needs or the claim cannot be measured.

Each case of a rule is a `Rule`: ours (a number) -> (reproduced, goes the paper's way).
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
    "ALL",
    "CASE",
    "COLUMNS",
    "CONFIDENCE",
    "DIRECTION",
    "NOT_CHECKED",
    "NOT_REPRODUCED",
    "REPRODUCED",
    "RULE",
    "STATUSES",
    "TOLERANCE",
    "Case",
    "Claim",
    "ClaimResult",
    "Estimate",
    "Need",
    "Ours",
    "Rule",
    "at_least",
    "at_most",
    "between",
    "change",
    "claims_table",
    "counts",
    "estimate",
    "exactly",
    "groups",
    "level",
    "markdown",
    "print_claims",
    "readings_markdown",
    "readings_table",
    "score",
    "write_claims",
]

#: The verdicts of a checked claim, best first (`RULE`).
REPRODUCED, DIRECTION, NOT_REPRODUCED = "reproduced", "direction only", "not reproduced"
#: The verdict of a claim without a case: the study does not run what it needs, or it
#: cannot be measured (the reason is the result's note).
NOT_CHECKED = "not checked"
#: The verdicts of a checked claim, best first.
STATUSES: tuple[str, ...] = (REPRODUCED, DIRECTION, NOT_REPRODUCED)
#: How far from the paper's value a size still reproduces it: 25% of the paper's value.
TOLERANCE = 0.25
#: The confidence of an interval over replications.
CONFIDENCE = 0.95
#: The verdict rule in words, for a claims page.
RULE = (
    "A case is *reproduced* when ours goes the paper's way and either its size is within 25% of "
    "the paper's value or the paper's value lies inside our 95% interval over "
    "replications (shown in brackets); *direction only* when ours goes the paper's way "
    "and the size does not hold; *not reproduced* otherwise. A claim in words is checked "
    "by the numeric reading in its row, fixed before our number was seen. A claim is "
    "reproduced when the cases it needs (all, unless the paper says most or some) are; "
    "direction only when they go the paper's way; *not checked* (with the reason) when "
    "the study cannot measure it."
)
#: The columns of a claims table (``claims.csv``): the claim, where the paper makes it,
#: the paper's value, ours, the cases that hold ("k of n") and the verdict.
COLUMNS: tuple[str, ...] = ("claim", "where", "paper", "schedsim", "holds", "status")
#: How a case is shown among ours by default: its name, then ours.
CASE = "{name} {shown}"


# -- ours: a value with its interval over replications --------------------------------


@dataclass(frozen=True)
class Estimate:
    """Ours: ``value`` (the mean over replications, or the one run's value), its 95%
    interval ``low``-``high`` over replications (NaN with one run) and each
    replication's value (``runs``)."""

    value: float
    low: float = math.nan
    high: float = math.nan
    runs: tuple[float, ...] = ()

    @classmethod
    def of(cls, runs: Iterable[float], confidence: float = CONFIDENCE) -> Estimate:
        """The mean of ``runs`` (NaN ignored) with its Student t interval."""
        from schedsim.app.report.statistics import describe

        values = tuple(float(v) for v in runs if not math.isnan(float(v)))
        mean, _, low, high, _ = describe(values, confidence)
        return cls(mean, low, high, values)

    @property
    def has_interval(self) -> bool:
        return math.isfinite(self.low) and math.isfinite(self.high)

    def covers(self, x: float) -> bool:
        """Whether ``x`` lies inside the interval (False without one)."""
        return self.has_interval and self.low <= x <= self.high

    @property
    def signs_differ(self) -> bool:
        """Whether some replications fall on each side of 0."""
        return any(v > 0 for v in self.runs) and any(v < 0 for v in self.runs)

    def text(self, fmt: str = "{:.3g}", unit: str = "") -> str:
        """The value, its interval in brackets, and each replication where their signs
        differ: ``-23.4% [-30.1, -16.7]`` or ``-5.0% [-12.0, 2.0] (runs -9.1, 3.0, -5.9)``."""
        out = fmt.format(self.value) + unit
        if self.has_interval:
            out += f" [{fmt.format(self.low)}, {fmt.format(self.high)}]"
        if self.signs_differ:
            out += " (runs " + ", ".join(fmt.format(v) for v in self.runs) + ")"
        return out


def estimate(ours: float | Estimate) -> Estimate:
    """``ours`` as an `Estimate` (a number is one run's value)."""
    return ours if isinstance(ours, Estimate) else Estimate(float(ours))


# -- a case and its rule -----------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One case of a claim (a trace, a category, a load...): its name, ours as shown
    in the table, whether it is reproduced (``holds``) and whether ours goes the paper's
    way (``weak``; None: only when it holds), which makes it *direction only*."""

    name: str
    shown: str
    holds: bool
    weak: bool | None = None

    @property
    def holds_weakly(self) -> bool:
        return self.holds or bool(self.weak)

    @property
    def verdict(self) -> str:
        """The case's verdict: reproduced, direction only or not reproduced."""
        return REPRODUCED if self.holds else DIRECTION if self.weak else NOT_REPRODUCED


@dataclass(frozen=True)
class Rule:
    """A case's test: ``test(ours)`` -> (reproduced, goes the paper's way); ``text``
    says it in words (the ``rule`` column). ``paper``: the paper's value where the rule
    compares ours with it, so that an interval of ours that covers it reproduces the
    case (`RULE`)."""

    text: str
    test: Callable[[float], tuple[bool, bool]] = field(compare=False)
    paper: float | None = None
    #: Whether the rule has a direction (a change, a level against a baseline): then an
    #: interval that covers the paper's value reproduces a case only when ours goes the
    #: paper's way (the same direction *and* the size or the interval).
    directed: bool = False

    def __call__(self, ours: float | Estimate) -> tuple[bool, bool]:
        ours = estimate(ours)
        holds, way = self.test(ours.value)
        if self.paper is not None and ours.covers(self.paper) and (way or not self.directed):
            return True, True
        return bool(holds), bool(way)

    def case(self, name: str, ours: float | Estimate, shown: str | None = None,
             fmt: str = "{:.3g}", unit: str = "") -> Case:  # fmt: skip
        """The case ``name``: ours tested, shown as ``shown`` (default: the estimate's
        `Estimate.text` with ``fmt`` and ``unit``)."""
        holds, way = self(ours)
        text = estimate(ours).text(fmt, unit) if shown is None else shown
        return Case(name, text, holds, way)


def _near(v: float, paper: float) -> bool:
    return abs(v - paper) <= TOLERANCE * abs(paper)


def change(paper: float) -> Rule:
    """A change (or difference) like the paper's: reproduced when it has the paper's sign
    and lies within 25% of it (or our interval covers it); direction only with the
    paper's sign."""

    def test(v: float) -> tuple[bool, bool]:
        way = v * paper > 0
        return way and _near(v, paper), way

    return Rule(f"{paper:+g} within 25%; direction only: {'above' if paper > 0 else 'below'} 0",
                test, paper, directed=True)  # fmt: skip


def level(paper: float, baseline: float | None = None) -> Rule:
    """A value like the paper's: reproduced within 25% of it (or when our interval covers
    it). With a ``baseline`` (the value that means "no effect", a ratio's 1) the size is
    the effect, ``value - baseline``, and must lie within 25% of the paper's effect;
    direction only on the paper's side of the baseline."""

    def test(v: float) -> tuple[bool, bool]:
        if baseline is None:
            return _near(v, paper), _near(v, paper)
        way = (v - baseline) * (paper - baseline) > 0
        return way and _near(v - baseline, paper - baseline), way

    side = ""
    if baseline is not None:
        side = f"; direction only: {'above' if paper > baseline else 'below'} {baseline:g}"
    size = "" if baseline is None else f" (the effect beyond {baseline:g})"
    return Rule(f"{paper:g} within 25%{size}{side}", test, paper, directed=baseline is not None)


def between(low: float, high: float, way: float | None = None) -> Rule:
    """A verbal claim read as a range: reproduced between ``low`` and ``high``; direction
    only beyond ``way`` on the range's side (None: no direction)."""

    def test(v: float) -> tuple[bool, bool]:
        holds = low <= v <= high
        return holds, holds or (way is not None and (v - way) * (low - way) > 0)

    side = "" if way is None else f"; direction only: {'above' if low > way else 'below'} {way:g}"
    return Rule(f"between {low:.4g} and {high:.4g}{side}", test)


def exactly(paper: float) -> Rule:
    """A count or a choice (a block size, a number of batches) equal to the paper's."""
    return Rule(f"= {paper:g}", lambda v: (v == paper, v == paper))


def at_most(limit: float, way: float = 0.0) -> Rule:
    """A verbal claim read as a bound: reproduced at most ``limit`` (a fall of at least
    -``limit``); direction only below ``way``."""
    return Rule(f"at most {limit:g}; direction only: below {way:g}",
                lambda v: (v <= limit, v < way or v <= limit))  # fmt: skip


def at_least(limit: float, way: float = 0.0) -> Rule:
    """A verbal claim read as a bound: reproduced at least ``limit``; direction only
    above ``way``."""
    return Rule(f"at least {limit:g}; direction only: above {way:g}",
                lambda v: (v >= limit, v > way or v >= limit))  # fmt: skip


# -- a claim's verdict -------------------------------------------------------------------


def _count(need: str | int) -> Callable[[int], int]:
    words: dict[str, Callable[[int], int]] = {
        "all": lambda n: n, "most": lambda n: n // 2 + 1, "some": lambda n: 1}  # fmt: skip
    return words[need] if isinstance(need, str) else (lambda n: min(need, n))


@dataclass(frozen=True)
class Need:
    """The one verdict rule's tally (`RULE`): a claim is reproduced when ``need`` of its
    cases are (``"all"``, ``"most"``: more than half, ``"some"``: one, or a number); direction
    only when as many at least go the paper's way; not reproduced otherwise; not checked
    without cases."""

    need: str | int = "all"

    @property
    def text(self) -> str:
        return f"{self.need} of the cases reproduced; direction only: {self.need} go its way"

    def __call__(self, cases: Sequence[Case]) -> str:
        hits, way = sum(c.holds for c in cases), sum(c.holds_weakly for c in cases)
        return self.verdict(hits, way, len(cases))

    def verdict(self, hits: int, way: int, n: int) -> str:
        """The verdict of ``hits`` reproduced cases, ``way`` going the paper's way, of ``n``."""
        if n == 0:
            return NOT_CHECKED
        count = _count(self.need)(n)
        return REPRODUCED if hits >= count else DIRECTION if way >= count else NOT_REPRODUCED


#: Every case reproduced (the usual quantifier of `Need`).
ALL = Need("all")


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
    tally: Need = ALL
    #: A headline claim: one the paper makes in its abstract or conclusions (counted
    #: per reading by `readings_table`).
    headline: bool = False


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


def counts(results: Iterable[ClaimResult], headline: bool = False) -> dict[str, int]:
    """How many claims (``headline``: headline claims only) have each verdict."""
    out: dict[str, int] = {}
    for r in results:
        if r.claim.headline or not headline:
            out[r.status] = out.get(r.status, 0) + 1
    return out


def readings_table(readings: Mapping[str, Sequence[ClaimResult]]) -> pd.DataFrame:
    """The verdicts of one paper's claims under each of its readings: one row per claim
    (``claim``, ``where``, ``headline``), one column per reading (its name), in the order
    given; a claim a reading does not score is blank there. The first reading names the
    claims' order."""
    order: dict[str, ClaimResult] = {}
    for results in readings.values():
        for r in results:
            order.setdefault(r.claim.key, r)
    rows = []
    for key, first in order.items():
        row = {"claim": key, "where": first.claim.where, "headline": first.claim.headline}
        for name, results in readings.items():
            row[name] = next((r.status for r in results if r.claim.key == key), "")
        rows.append(row)
    return pd.DataFrame(rows, columns=["claim", "where", "headline", *readings])


def readings_markdown(table: pd.DataFrame) -> str:
    """A `readings_table` as Markdown, headline claims marked (*), then a row per reading
    with how many headline claims it reproduces, and the reading that reproduces most."""
    names = [c for c in table.columns if c not in ("claim", "where", "headline")]
    lines = ["| claim (where) | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for row in table.to_dict("records"):
        mark = " (*)" if row["headline"] else ""
        cells = " | ".join(str(row[n]) for n in names)
        lines.append(f"| {_escape(row['claim'])}{mark} ({_escape(row['where'])}) | {cells} |")
    heads = table[table["headline"]]
    got = {n: int((heads[n] == REPRODUCED).sum()) for n in names}
    lines.append("| **headline claims reproduced (of "
                 f"{len(heads)})** | " + " | ".join(str(got[n]) for n in names) + " |")  # fmt: skip
    text = "\n".join(lines) + "\n\n(*) a headline claim (abstract or conclusions). "
    most = max(got.values(), default=0)
    best = [n for n in names if got[n] == most]
    if most == 0:
        return text + "No reading reproduces a headline claim.\n"
    if len(best) == len(names) > 1:
        return (
            text + f"Every reading reproduces as many headline claims ({most} of {len(heads)}).\n"
        )
    which = ", ".join(f"**{n}**" for n in best)
    one = "The reading that reproduces" if len(best) == 1 else "The readings that reproduce"
    return text + f"{one} the most headline claims: {which} ({most} of {len(heads)}).\n"


def claims_table(results: Iterable[ClaimResult], rule: bool = False, keep_not_run: bool = True,
                 form: str = CASE, sep: str = ", ") -> pd.DataFrame:  # fmt: skip
    """The claims table of ``results``: `COLUMNS` (and ``rule``), one row per claim, ours
    each case as ``form`` joined by ``sep`` (`ClaimResult.text`); ``keep_not_run=False``
    leaves out the claims without a case."""
    rows = [r.row(None, form, sep) for r in results if keep_not_run or r.cases]
    table = pd.DataFrame(rows, columns=[*COLUMNS, *(["rule"] if rule else [])])
    return table.fillna({"rule": ""}) if rule else table


def _escape(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown(table: pd.DataFrame, tag: str = "", header: Sequence[str] | None = None,
             rows: Sequence[int] | None = None, rule: bool = False) -> str:  # fmt: skip
    """A claims table as a Markdown table: the claim (where), the paper, ours, holds and
    the verdict, and with ``rule`` (and a ``rule`` column) the reading it is checked by
    after the paper's value; ``tag`` picks a column group ``schedsim [tag]``... whose blank
    cells stand for the default's; ``header`` names the five columns; ``rows``
    (positions) picks some rows."""
    suffix = f" [{tag}]" if tag else ""
    rule = rule and "rule" in table.columns
    names = list(header or ("the paper says", "paper", "here", "holds", ""))
    if rule:
        names.insert(2, "checked as")
    picked = table if rows is None else table.iloc[list(rows)]
    lines = ["|" + "|".join(f" {n} " if n else " " for n in names) + "|", "|---" * len(names) + "|"]
    for row in picked.to_dict("records"):
        here, holds, state = row[f"schedsim{suffix}"], row[f"holds{suffix}"], row[f"status{suffix}"]
        if not state:  # the column group does not change this claim: the default's cells
            here, holds, state = row["schedsim"], row["holds"], row["status"]
        said = f"{_escape(row['claim'])} ({_escape(row['where'])})"
        checked = f" {_escape(row['rule'] or '-')} |" if rule else ""
        lines.append(f"| {said} | {_escape(row['paper'])} |{checked} {_escape(here)} | {holds} "
                     f"| {state} |")  # fmt: skip
    return "\n".join(lines) + "\n"


def groups(table: pd.DataFrame) -> list[str]:
    """The column groups of a claims table: "" (the claim's own columns), then each
    ``NAME`` of a group ``schedsim [NAME]``, ``holds [NAME]``, ``status [NAME]`` (another
    reading of the runs, Kettimuthu 2003's)."""
    return ["", *(c[len("status [") : -1] for c in table.columns
                  if c.startswith("status [") and c.endswith("]"))]  # fmt: skip


def write_claims(table: pd.DataFrame, out: Path, title: str, intro: str = "",
                 md: str = "claims.md", header: Sequence[str] | None = None,
                 section: str | None = None, rule: bool = True) -> list[Path]:  # fmt: skip
    """The claims table as ``claims.csv`` (its columns are text: no unit) and as
    Markdown (``md``): ``# title``, ``intro``, then the table, or with ``section``
    (a heading with ``{name}``) one table per column group (`groups`, the first named
    "default"); ``header``: `markdown`'s; ``rule``: the reading each claim is checked by,
    where the table has it."""
    csv, text = out / "claims.csv", out / md
    table.to_csv(csv, index=False)
    parts = [f"# {title}\n", *([intro] if intro else [])]
    if section is None:
        parts.append(markdown(table, header=header, rule=rule))
    else:
        for tag in groups(table):
            heading = section.format(name=tag or "default")
            parts += [f"\n{heading}\n", markdown(table, tag, header, rule=rule)]
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
