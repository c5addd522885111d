"""Lawson & Smirni 2002: the paper's claims, each with what the runs give and a verdict.

What is measured is `schedsim.papers.lawson2002.analyses`' (its docstring gives the
choices). `CLAIMS` is the data: each claim with the values it reads (one per trace, or
per trace and priority, from the `aggregate`, `transient` and `reservations` tables) and
its test of a value; the verdict is `ALL_OR_HALF` (partly: at least half of the cases).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import pandas as pd

from schedsim.app.claims import ALL_OR_HALF, Case, Claim, Ours, claims_table, score
from schedsim.app.report.formats import format_in

__all__ = ["CLAIMS", "LawsonClaim", "Tables", "claims"]

BASE = "trace load"
ALL_FOUR = "R > 0 on all four traces"


@dataclass(frozen=True)
class Tables:
    """What the claims read: the `aggregate`, `transient` and `reservations` tables."""

    table: pd.DataFrame
    batches: pd.DataFrame
    res: pd.DataFrame

    @property
    def traces(self) -> list[str]:
        return sorted(set(self.table["trace"])) if len(self.table) else []

    def cell(self, trace: str, scen: str, cls: str = "all", prio: str = "all") -> float:
        """R of one trace, scenario, class and priority; NaN when not run."""
        t = self.table
        hit = t[(t["trace"] == trace) & (t["scenario"] == scen) & (t["class"] == cls)
                & (t["priority"] == prio)]  # fmt: skip
        return float(hit["R"].iloc[0]) if len(hit) else math.nan

    def per_trace(self, scen: str, cls: str = "all") -> dict[str, float]:
        return {t: self.cell(t, scen, cls) for t in self.traces}


@dataclass(frozen=True)
class LawsonClaim:
    """A claim, the values it reads (name -> R or a share) and when a value holds."""

    claim: Claim
    values: Callable[[Tables], dict[str, float]]
    holds: Callable[[str, float], bool]


def _positive(k: str, v: float) -> bool:
    return v > 0


def _per_trace(scen: str) -> Callable[[Tables], dict[str, float]]:
    """R of every trace, all jobs, under ``scen``."""
    return lambda t: t.per_trace(scen)


def _priorities(share: int) -> Callable[[Tables], dict[str, float]]:
    scen = f"{share}% high priority"
    return lambda t: {f"{tr} {p}": t.cell(tr, scen, "all", p) for tr in t.traces
                      for p in ("high", "low")}  # fmt: skip


def _low_gains_more(t: Tables) -> dict[str, float]:
    """R(low) - R(high) per trace and share of high-priority jobs."""
    gains = {}
    for tr in t.traces:
        for share in (75, 95):
            scen = f"{share}% high priority"
            low, high = t.cell(tr, scen, "all", "low"), t.cell(tr, scen, "all", "high")
            if not (math.isnan(low) or math.isnan(high)):
                gains[f"{tr} {share}%"] = low - high
    return gains


def _missed(t: Tables) -> dict[str, float]:
    """(multiple - single) / the larger, per trace and share of reservations."""
    missed = {}
    for row in t.res.to_dict("records"):
        a, b = row["single missed"], row["multiple missed"]
        if a + b:
            missed[f"{row['trace']} {100 * row['share']:g}%"] = (b - a) / max(a, b)
    return missed


def _majority(t: Tables) -> list[Case]:
    """Per trace, the share of the batches with R > 0 (Figure 4), holding above half."""
    cases = []
    for tr in t.traces:
        b = t.batches[(t.batches["trace"] == tr) & (t.batches["scenario"] == BASE)]
        b = b[(b["priority"] == "all") & b["R"].notna()]
        if len(b):
            v = float((b["R"] > 0).mean())
            cases.append(Case(tr, f"{format_in(v, 'fraction')} of the batches", v > 0.5))
    return cases


def _claim(key: str, where: str, paper: str) -> Claim:
    return Claim(key, where, paper, "ratio", tally=ALL_OR_HALF)


#: The paper's claims, in its order (the batches' claim, Figure 4, is `MAJORITY`).
CLAIMS: tuple[LawsonClaim, ...] = (
    LawsonClaim(_claim("multiple queues give a better slowdown than a single queue, all jobs",
                       "Figure 3(a)", ALL_FOUR), lambda t: t.per_trace(BASE), _positive),
    LawsonClaim(_claim("... and for the short jobs", "Figure 3(b)", ALL_FOUR),
                lambda t: t.per_trace(BASE, "short"), _positive),
    LawsonClaim(_claim("... and for the medium jobs", "Figure 3(c)", ALL_FOUR),
                lambda t: t.per_trace(BASE, "medium"), _positive),
    LawsonClaim(_claim("long jobs gain on CTC and KTH, lose on the two SDSC traces",
                       "Figure 3(d)", "R > 0 on CTC and KTH, R < 0 on PAR and SP2"),
                lambda t: t.per_trace(BASE, "long"), lambda k, v: (v > 0) == (k in ("CTC", "KTH"))),
    *(LawsonClaim(_claim(f"multiple queues better under heavier load ({load}), all jobs",
                         "Figure 5(a)", ALL_FOUR),
                  _per_trace(load), _positive)
      for load in ("load x1.25", "load x1.5")),
    *(LawsonClaim(_claim(f"better with {share}% high-priority jobs, for high and for low "
                         "priority jobs", f"Figure {fig}",
                         "R > 0 for both priorities on all four traces"),
                  _priorities(share), _positive)
      for share, fig in ((75, "6(a)"), (95, "8(a)"))),
    LawsonClaim(_claim("low-priority jobs often gain more than high-priority ones", "section 3.3",
                       "often R(low) > R(high)"), _low_gains_more, _positive),
    *(LawsonClaim(_claim(f"better with {share}% of the jobs requesting reservations",
                         "Figure 10", ALL_FOUR),
                  _per_trace(f"{share}% reservations"), _positive)
      for share in (1, 5)),
    LawsonClaim(_claim("comparable slowdowns with 25% reservations", "Figure 10",
                       "|R| small (here: |R| < 0.25)"),
                lambda t: t.per_trace("25% reservations"), lambda k, v: abs(v) < 0.25),
    LawsonClaim(_claim("single and multiple queues miss roughly as many reservations", "Table 2",
                       "within about 20% of each other (CTC 0.25: 1396 against 1441)"),
                _missed, lambda k, v: abs(v) <= 0.2),
)  # fmt: skip
#: Figure 4: R > 0 for most batches (after Figure 3 in the table).
MAJORITY = Claim(
    "R > 0 for a majority of the batches of 1000 submissions",
    "Figure 4",
    "a majority of the batches on every trace",
    "fraction",
    tally=ALL_OR_HALF,
)


def _cases(c: LawsonClaim, tables: Tables) -> list[Case]:
    """The claim's cases: its values that ran (not NaN), each tested."""
    return [Case(k, f"{v:+.2f}", bool(c.holds(k, v)))
            for k, v in c.values(tables).items() if not math.isnan(v)]  # fmt: skip


def claims(table: pd.DataFrame, batches: pd.DataFrame, res: pd.DataFrame) -> pd.DataFrame:
    """The paper's claims, each with what the runs give (`aggregate`, `transient` and
    `reservations` tables) and whether it is reproduced."""
    tables = Tables(table, batches, res)
    order = [c.claim for c in CLAIMS]
    order.insert(4, MAJORITY)
    ours: dict[str, Ours] = {c.claim.key: partial(_cases, c, tables) for c in CLAIMS}
    ours[MAJORITY.key] = lambda: _majority(tables)
    return claims_table(score(order, ours))
