"""Schwiegelshohn & Yahyapour 1998: the paper's claims, each scored under every reading of
the study by the one verdict rule (`schedsim.app.claims.RULE`).

What is measured is `schedsim.papers.schwiegelshohn1998.analyses`' (its docstring gives
the choices). Each month and machine is one deterministic trace replay, so ours has no
interval. The readings (`CLAIM_READINGS`) are the two of the queue during a wide job's cycle
(``waits``, Table 1 as written and the default; ``moves``), each also with the paper's
PFCFS2 and PFCFS3 labels swapped (``labels swapped``): a hypothesis nothing in the paper
states, that its PFCFS2 column is our PFCFS3 and the reverse
(`schedsim.papers.schwiegelshohn1998.labels` gives the evidence). Under a swap the claims
that name PFCFS2 are scored against our PFCFS3 and those that name PFCFS3 against our
PFCFS2; the others do not name a strategy and do not change.

The claims' numeric readings (each row's ``rule``) were fixed by the study's first version
where it had one (10% for "significant", 20 points for "very sensitive", 40% for "almost
50%", 9% for "more than 9%"), before the strict rule was applied to them:

* **headline** (the abstract and the conclusions, the last paragraph of section 6):
  "substantial [significant] performance improvements over FCFS are possible" and "using
  a preemptive FCFS strategy is potentially beneficial" (`IMPROVE`: in every table some
  strategy's Sum row is at least 10% better than FCFS, the paper's PFCFS2 10.4-38.0%);
  "highly [very] sensitive to the preemption strategy" (`SENSITIVITY`: the three Sum rows
  of each table span at least 20 points, the paper's 25.0-93.6); "the optimal parameter
  setting depends on the workload" (`WORKLOAD`: in some table a strategy is at least 5%
  better than FCFS in one month and at least 5% worse in another; the paper's own
  example is PFCFS2's -47.3% and +9.6%, Table 6. The best of the three strategies never
  changes from month to month in the paper's tables: PFCFS2 is best in all 66 cells, so
  the claim is read as the sign of a strategy's gain changing with the month);
* the Sum rows (`SIDE`) and the 66 month cells (`CELLS`) of each strategy, by
  `schedsim.app.claims.change`; a makespan cell (Tables 4 and 7) beyond the most any
  schedule of the month can gain on our FCFS (`schedsim.papers.schwiegelshohn1998.bound`)
  is not reproduced, and said impossible;
* section 6's "FCFS may still outperform some preemptive methods" (`OUTPERFORM`: in every
  table some strategy's Sum row at least 0.1% worse than FCFS, the paper's print
  precision), PFCFS2's "almost 50% improvement" in November 1996 (`NOVEMBER`: at least
  40% better) and "more than 9% worse" in January 1997 (`JANUARY`: at least 9% worse),
  both weighted flow time on 128 nodes (Table 6);
* Table 2's job counts (`JOBS`); Theorem 5.2's makespan bound (`THEOREM`: PFCFS1's makespan
  under 4 times the bound on any schedule's, a consistency check of a proof); and "only
  [preempting] enough currently running jobs ... improves the schedule performance for
  real workloads significantly" (`GREEDY`: per table and strategy, the greedy runs at
  least 10% better than those that preempt every running job, Table 1's step F, both
  with the queue waiting; the same in every reading).

The queue readings ``waits-all`` and ``moves-all`` preempt every running job (Table 1's
step F as printed, ``preempt = "all"``) instead of a greedy few; ``waits-narrowest`` and
``waits-newest`` take the greedy few in another order (the narrowest, or the
shortest-running, first: the paper does not describe its "simple greedy strategy"), and
so do ``moves-narrowest`` and ``moves-newest`` with the queue moving; ``waits-submit``
and ``moves-submit`` count a wide job's wait before it preempts from its submission
(Table 3's "has been waiting for at least 10 min"), not from when it heads the queue;
``waits-nokill`` and ``moves-nokill`` let jobs run their full run time
(``kill_at_estimate = false``) and are measured against the FCFS runs with the same run
times, and so are their bounds.

The bounds of `schedsim.papers.schwiegelshohn1998.bound` (makespan, weighted completion
and flow time) make a paper cell or Sum row impossible when it lies below the most any
schedule of the month can gain on our FCFS; the best strategy's Sum rows in `IMPROVE`
are shown beside that most (``any schedule: at best``), the evidence for or against
"substantial improvements" being possible at all.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from schedsim.app.claims import (
    ALL,
    Case,
    Claim,
    ClaimResult,
    Need,
    Rule,
    at_least,
    at_most,
    between,
    change,
    claims_table,
    readings_table,
)
from schedsim.papers.schwiegelshohn1998.analyses import (
    NOKILL,
    READINGS,
    SENSITIVE,
    SIGNIFICANT,
    SWAPPED,
    _percents,
    _readings,
    sums,
)
from schedsim.papers.schwiegelshohn1998.bound import bound_table, for_runs, weighted_bound_table
from schedsim.papers.schwiegelshohn1998.tables import MONTHS, STRATEGIES, TABLE2, TABLES

__all__ = [
    "CELLS",
    "CLAIMS",
    "CLAIM_READINGS",
    "DEFAULT",
    "GREEDY",
    "IMPROVE",
    "JANUARY",
    "JOBS",
    "NOVEMBER",
    "OUTPERFORM",
    "SENSITIVITY",
    "SIDE",
    "THEOREM",
    "WORKLOAD",
    "ZERO",
    "claims",
    "readings",
    "results",
]

#: The readings scored: name -> (the queue reading of the runs, the labels swapped).
CLAIM_READINGS: dict[str, tuple[str, bool]] = {
    **{r: (r, False) for r in READINGS},
    **{f"{r}, labels swapped": (r, True) for r in READINGS},
}
#: The default reading: Table 1 as written, the labels as printed.
DEFAULT = "waits"

#: "depends on the workload": a strategy at least this many percent better than FCFS in
#: one month and as much worse in another.
SWING = 5.0

#: A printed 0.0% has no sign for `change`: it is read as what prints as 0.0%.
ZERO = between(-0.05, 0.05)

_SECTION6 = "section 6; Tables 4-9"
_TABLE6 = "section 6; Table 6, weighted flow time, 128 nodes"


def _pct(v: float) -> str:
    return "n/a" if not np.isfinite(v) else f"{v:+.1f}%"


def _swing(column: pd.Series) -> float:
    """How far a strategy swings to both sides of FCFS over the months: the smaller of
    its largest gain and its largest loss (percent; 0 when it stays on one side)."""
    v = column.dropna().to_numpy(dtype=float)
    if v.size == 0:
        return math.nan
    return float(max(0.0, min(-v.min(), v.max())))


def _paper_swings() -> dict[int, tuple[str, float]]:
    """The paper's own swing per table: its strategy that swings most, and how far."""
    out = {}
    for t in TABLES:
        frame = t.frame()
        best = max(STRATEGIES, key=lambda s: _swing(frame[s]))
        out[t.number] = (best, _swing(frame[best]))
    return out


def _sum_range(i: int) -> tuple[float, float]:
    values = [abs(t.total[i]) for t in TABLES]
    return min(values), max(values)


_SWINGS = _paper_swings()
_SIDES = {s: ("better" if TABLES[0].total[i] < 0 else "worse", *_sum_range(i))
          for i, s in enumerate(STRATEGIES)}  # fmt: skip
_CHANGE = (
    "each case within 25% of the paper's value (change; a printed 0.0% read as "
    "-0.05 to 0.05); direction only: its sign"
)

IMPROVE = Claim(
    "substantial performance improvements over FCFS are possible (a preemptive FCFS "
    "strategy is potentially beneficial)",
    "abstract; section 6; conclusions (section 6, last paragraph)",
    "the paper's PFCFS2 Sum rows are 10.4-38.0% better than FCFS in every table", "%",
    f"per table, the best strategy's Sum row at most -{SIGNIFICANT:g}% (\"significant\"); "
    "direction only: below 0",
    ALL, headline=True,
)  # fmt: skip
SENSITIVITY = Claim(
    "the schedule quality is highly sensitive to the preemption strategy",
    "abstract; section 6", "the three Sum rows span 25.0-93.6 points per table", "points",
    f"per table, the three Sum rows span at least {SENSITIVE:g} points (\"very sensitive\"; a "
    "span has no direction)",
    ALL, headline=True,
)  # fmt: skip
WORKLOAD = Claim(
    "the optimal parameter setting depends on the workload",
    "conclusions (section 6, last paragraph); section 6, Table 6",
    "PFCFS2 -47.3% in November 1996 and +9.6% in January 1997 (Table 6); "
    + "; ".join(f"T{n} {s} {v:.1f}" for n, (s, v) in _SWINGS.items() if v > 0)
    + " points both ways",
    "points",
    f"in some table a strategy at least {SWING:g}% better than FCFS in one month and at least "
    f"{SWING:g}% worse in another (the smaller side, points); direction only: both sides at all",
    Need("some"), headline=True,
)  # fmt: skip
SIDE = {s: Claim(
    f"{s}'s Sum rows are {side} than FCFS in every table",
    "Tables 4-9, Sum rows", f"{side} by {low:.1f}-{high:.1f}%", "%", _CHANGE, ALL,
) for s, (side, low, high) in _SIDES.items()}  # fmt: skip
CELLS = {s: Claim(
    f"{s}'s change against FCFS in each month", "Tables 4-9, 66 month cells",
    "the printed cells", "%", _CHANGE + "; a makespan cell beyond the most any schedule can "
    "gain on FCFS is impossible", ALL,
) for s in STRATEGIES}  # fmt: skip
OUTPERFORM = Claim(
    "FCFS may still outperform some preemptive methods", _SECTION6,
    "the paper's PFCFS3 Sum rows are 12.3-55.6% worse than FCFS in every table", "%",
    "per table, the worst strategy's Sum row at least +0.1% (the paper's print precision); "
    "direction only: above 0", ALL,
)  # fmt: skip
NOVEMBER = Claim(
    "PFCFS2 almost 50% better than FCFS in November 1996", _TABLE6, "-47.3%", "%",
    "at most -40% (\"almost 50%\"); direction only: below 0", ALL,
)  # fmt: skip
JANUARY = Claim(
    "PFCFS2 more than 9% worse than FCFS in January 1997", _TABLE6, "+9.6%", "%",
    "at least +9% (\"more than 9%\"); direction only: above 0", ALL,
)  # fmt: skip
JOBS = Claim(
    "the jobs of each month on each machine (the wider jobs removed)", "section 6, Table 2",
    "the month's total times the percent kept, 22 cells", "jobs",
    "each count equal to the printed total times the printed percent, to the percent's "
    "rounding (0.005% of the total)", ALL,
)  # fmt: skip
THEOREM = Claim(
    "PFCFS's makespan is below (4 + 2p/h) times the optimal one (p = 0: 4 times)",
    "section 5, Theorem 5.2; abstract (\"derive theoretical bounds\")",
    "m_S < 4 m_opt for every job set (a proof)", "ratio",
    "per month and machine, PFCFS1's makespan over the bound on any schedule's (which is "
    "at most m_opt, so the ratio is at least m_S / m_opt) below 4; a theorem: the runs can "
    "only be consistent with it", ALL,
)  # fmt: skip
GREEDY = Claim(
    "preempting only enough running jobs, chosen greedily, improves the schedule "
    "significantly", "section 6", "no numbers given (against Table 1's step F, which "
    "preempts every running job)", "%",
    f"per table and strategy, the greedy runs' total at most -{SIGNIFICANT:g}% against "
    "those preempting every job, queue waits (\"significantly\"); direction only: below 0",
    ALL,
)  # fmt: skip

#: The claims in the table's order.
CLAIMS: tuple[Claim, ...] = (IMPROVE, SENSITIVITY, WORKLOAD, *SIDE.values(), *CELLS.values(),
                             OUTPERFORM, NOVEMBER, JANUARY, JOBS, THEOREM, GREEDY)  # fmt: skip

_NO_RUNS = "the study has no runs of this reading"


def _ours(paper_strategy: str, swapped: bool) -> str:
    """Our strategy set against the paper's ``paper_strategy`` under a reading."""
    return SWAPPED[paper_strategy] if swapped else paper_strategy


def _largest(facts: pd.DataFrame | None) -> dict[tuple[int, str], float]:
    """The most any schedule can gain on our FCFS, per (table, month or "Sum") of Tables
    4-9 (percent; `schedsim.papers.schwiegelshohn1998.bound`); ``facts``: one FCFS run per
    month and machine (`for_runs`)."""
    if facts is None or facts.empty:
        return {}
    rows = [*bound_table(facts).to_dict("records"),
            *weighted_bound_table(facts).to_dict("records")]  # fmt: skip
    return {(int(r["table"]), str(r["month"])): float(r["largest_change"]) for r in rows}


def _impossible(facts: pd.DataFrame | None) -> dict[tuple[int, str, str], float]:
    """The paper's cells (and Sum rows) of Tables 4-9 no schedule can reach: (table, month
    or "Sum", strategy) -> the largest change any schedule can reach there (percent).
    The paper prints to 0.1%: a value is impossible only when, rounded, it is below."""
    out = {}
    for (number, month), largest in _largest(facts).items():
        table = next(t for t in TABLES if t.number == number)
        printed = table.total if month == "Sum" else tuple(table.frame().loc[month])
        for s, p in zip(STRATEGIES, printed, strict=True):
            if p + 0.05 < largest:
                out[(number, month, s)] = largest
    return out


def _facts_of(facts: pd.DataFrame | None, queue: str) -> pd.DataFrame | None:
    """The month facts of the FCFS runs a reading is measured against (`for_runs`)."""
    return None if facts is None else for_runs(facts, not queue.endswith(NOKILL))


def _at_best(largest: float | None) -> str:
    """What the bound allows beside a Sum row: " (any schedule: at best -X%)"."""
    return "" if largest is None else f" (any schedule: at best {_pct(largest)})"


def _change_case(name: str, paper: float, ours: float, bound: float | None) -> Case:
    """A cell or Sum row by `change`; a printed 0.0% (no sign) by `ZERO`; one whose paper
    value is beyond ``bound`` is not reproduced, whatever ours is."""
    case = (ZERO if paper == 0 else change(paper)).case(name, ours, shown=_pct(ours))
    if bound is None:
        return case
    return Case(name, f"{_pct(ours)} (the paper's {_pct(paper)} is impossible: no schedule "
                      f"below {_pct(bound)})", False, False)  # fmt: skip


def _sides(summed: pd.DataFrame, queue: str, swapped: bool,
           impossible: dict[tuple[int, str, str], float]) -> list[ClaimResult]:  # fmt: skip
    out = []
    sub = summed.set_index(["table", "strategy"])
    for i, s in enumerate(STRATEGIES):
        mine = _ours(s, swapped)
        cases = []
        for t in TABLES:
            o = float(sub.loc[(t.number, mine), f"{queue}_sum"])
            if np.isfinite(o):
                bound = impossible.get((t.number, "Sum", s))
                cases.append(_change_case(f"T{t.number}", t.total[i], o, bound))
        note = f"ours: {mine}" if mine != s else ""
        out.append(ClaimResult(SIDE[s], cases, note=note))
    return out


def _cells(values: pd.DataFrame, queue: str, swapped: bool,
           impossible: dict[tuple[int, str, str], float]) -> list[ClaimResult]:  # fmt: skip
    out = []
    for s in STRATEGIES:
        mine = _ours(s, swapped)
        cases = []
        for t in TABLES:
            _, pct = _percents(values, t.metric, t.nodes)
            frame = t.frame()
            for month in MONTHS:
                o = float(pct[(queue, mine)][month])
                if np.isfinite(o):
                    bound = impossible.get((t.number, month, s))
                    cases.append(_change_case(f"T{t.number} {MONTHS[month]}",
                                              float(frame.at[month, s]), o, bound))  # fmt: skip
        same = sum(c.holds_weakly for c in cases)
        shown = (
            f"{'ours: ' + mine + '; ' if mine != s else ''}within 25% in "
            f"{sum(c.holds for c in cases)} of {len(cases)}, the paper's sign in {same}"
        )
        gone = [c for c in cases if "impossible" in c.shown]
        if gone:
            shown += "; " + "; ".join(f"{c.name} {c.shown}" for c in gone)
        out.append(ClaimResult(CELLS[s], cases, shown=shown))
    return out


def _extremes(summed: pd.DataFrame, queue: str) -> tuple[list, list, list]:
    """Per table: the best and the worst strategy's Sum row, and their span (only the
    tables where all three ran)."""
    best, worst, span = [], [], []
    sub = summed.set_index(["table", "strategy"])
    for t in TABLES:
        per = {s: float(sub.loc[(t.number, s), f"{queue}_sum"]) for s in STRATEGIES}
        per = {s: v for s, v in per.items() if np.isfinite(v)}
        if not per:
            continue
        b, w = min(per, key=per.__getitem__), max(per, key=per.__getitem__)
        best.append((t.number, b, per[b]))
        worst.append((t.number, w, per[w]))
        if len(per) == len(STRATEGIES):
            span.append((t.number, per[w] - per[b]))
    return best, worst, span


def _workload(values: pd.DataFrame, queue: str) -> ClaimResult:
    rule = at_least(SWING, way=0.0)
    cases = []
    for t in TABLES:
        _, pct = _percents(values, t.metric, t.nodes)
        swings = {s: _swing(pct[(queue, s)]) for s in STRATEGIES}
        swings = {s: v for s, v in swings.items() if np.isfinite(v)}
        if swings:
            s = max(swings, key=swings.__getitem__)
            v = swings[s]
            shown = f"{s} {v:.1f} points" if v > 0 else "no strategy on both sides of FCFS"
            cases.append(rule.case(f"T{t.number}", v, shown=shown))
    return ClaimResult(WORKLOAD, cases)


def _month(claim: Claim, rule: Rule, values: pd.DataFrame, queue: str, strategy: str,
           month: str, swapped: bool) -> ClaimResult:  # fmt: skip
    """One month of Table 6 (weighted flow time, 128 nodes) for the paper's PFCFS2."""
    mine = _ours(strategy, swapped)
    _, pct = _percents(values, "weighted_flow_time", 128)
    v = float(pct[(queue, mine)][month])
    if not np.isfinite(v):
        return ClaimResult(claim, [], note="the month did not run")
    return ClaimResult(claim, [rule.case(mine, v, shown=_pct(v))])


def _jobs(facts: pd.DataFrame | None) -> ClaimResult:
    if facts is None or facts.empty:
        return ClaimResult(JOBS, [], note="the report did not read the FCFS runs' jobs")
    cases = []
    for row in facts.to_dict("records"):
        total, p256, p128 = TABLE2[str(row["month"])]
        kept = total * (p256 if int(row["nodes"]) == 256 else p128) / 100.0
        ok = abs(int(row["jobs"]) - kept) <= total * 0.00005
        cases.append(Case(f"{MONTHS[str(row['month'])]} {int(row['nodes'])} nodes",
                          f"{int(row['jobs']):,} (paper {kept:,.0f})", ok, ok))  # fmt: skip
    off = [f"{c.name} {c.shown}" for c in cases if not c.holds]
    shown = f"{sum(c.holds for c in cases)} of {len(cases)} as printed"
    if off:
        shown += "; not: " + "; ".join(off)
    return ClaimResult(JOBS, cases, shown=shown)


def _theorem(values: pd.DataFrame, facts: pd.DataFrame | None, queue: str) -> ClaimResult:
    """Theorem 5.2's makespan bound for PFCFS1, Table 1 with h = 10 minutes (under
    ``waits``; the ``moves`` runs depart from Table 1): m_S / (the bound on m_opt)."""
    if facts is None or facts.empty:
        return ClaimResult(THEOREM, [], note="the report did not read the FCFS runs' jobs")
    pick = ((values["metric"] == "makespan") & (values["strategy"] == "PFCFS1")
            & (values["reading"] == queue))  # fmt: skip
    mine = values[pick].set_index(["month", "nodes"])["value"]
    rule = Rule("below 4", lambda v: (v < 4.0, v < 4.0))
    cases = []
    for row in facts.to_dict("records"):
        key = (str(row["month"]), int(row["nodes"]))
        if key in mine.index:
            ratio = float(mine[key]) / float(row["makespan_bound"])
            cases.append(rule.case(f"{MONTHS[key[0]]} {key[1]} nodes", ratio,
                                   shown=f"{ratio:.2f}"))  # fmt: skip
    if not cases:
        return ClaimResult(THEOREM, [], note="the study has no PFCFS1 runs")
    ratios = [float(c.shown) for c in cases]
    shown = (f"m_S / bound {min(ratios):.2f}-{max(ratios):.2f} over {len(cases)} runs; "
             f"below 4 in {sum(c.holds for c in cases)}")  # fmt: skip
    return ClaimResult(THEOREM, cases, shown=shown)


def _greedy(summed: pd.DataFrame) -> ClaimResult:
    """The greedy choice against Table 1's step F (the ``waits`` and ``waits-all`` runs):
    per table and strategy, 100 (greedy total - preempt-all total) / preempt-all total,
    from the two Sum rows against the same FCFS total."""
    if not {"waits_sum", "waits-all_sum"} <= set(summed.columns):
        return ClaimResult(GREEDY, [], note="the study has no runs that preempt every job "
                           "(preempt = \"all\") beside the greedy ones, queue waits")  # fmt: skip
    rule = at_most(-SIGNIFICANT, way=0.0)
    cases = []
    for row in summed.to_dict("records"):
        greedy, every = float(row["waits_sum"]), float(row["waits-all_sum"])
        if np.isfinite(greedy) and np.isfinite(every):
            v = 100.0 * ((1 + greedy / 100) / (1 + every / 100) - 1)
            cases.append(rule.case(f"T{row['table']} {row['strategy']}", v, shown=_pct(v)))
    return ClaimResult(GREEDY, cases)


def _score(values: pd.DataFrame, facts: pd.DataFrame | None, summed: pd.DataFrame,
           queue: str, swapped: bool) -> list[ClaimResult]:  # fmt: skip
    """Every claim under one reading, in `CLAIMS` order."""
    own = _facts_of(facts, queue)
    impossible = _impossible(own)
    largest = _largest(own)
    best, worst, span = _extremes(summed, queue)
    improve = at_most(-SIGNIFICANT, way=0.0)
    outperform = at_least(0.1, way=0.0)
    sensitive = Rule(f"at least {SENSITIVE:g} points", lambda v: (v >= SENSITIVE, v >= SENSITIVE))
    return [
        ClaimResult(IMPROVE, [improve.case(f"T{n}", v, shown=f"{s} {_pct(v)}"
                                           + _at_best(largest.get((n, "Sum"))))
                              for n, s, v in best]),
        ClaimResult(SENSITIVITY, [sensitive.case(f"T{n}", d, shown=f"{d:.1f} points")
                                for n, d in span]),
        _workload(values, queue),
        *_sides(summed, queue, swapped, impossible),
        *_cells(values, queue, swapped, impossible),
        ClaimResult(OUTPERFORM, [outperform.case(f"T{n}", v, shown=f"{s} {_pct(v)}")
                                 for n, s, v in worst]),
        _month(NOVEMBER, at_most(-40.0, way=0.0), values, queue, "PFCFS2", "1996-11", swapped),
        _month(JANUARY, at_least(9.0, way=0.0), values, queue, "PFCFS2", "1997-01", swapped),
        _jobs(None if facts is None else for_runs(facts)),
        _theorem(values, own, queue),
        _greedy(summed),
    ]  # fmt: skip


def results(values: pd.DataFrame,
            facts: pd.DataFrame | None = None) -> dict[str, list[ClaimResult]]:  # fmt: skip
    """Every claim under each reading of `CLAIM_READINGS` whose queue reading the study ran (in
    that order): ``values`` is `analyses.ours`, ``facts`` `bound.month_facts` (None: the
    job counts are not checked and no makespan cell is found impossible)."""
    if values.empty:
        return {}
    summed = sums(values)
    ran = _readings(values)
    return {name: _score(values, facts, summed, queue, swapped)
            for name, (queue, swapped) in CLAIM_READINGS.items() if queue in ran}  # fmt: skip


def readings(scored: dict[str, list[ClaimResult]]) -> pd.DataFrame:
    """The readings x claims table (`schedsim.app.claims.readings_table`)."""
    return readings_table(scored)


def claims(values: pd.DataFrame, facts: pd.DataFrame | None = None,
           scored: dict[str, list[ClaimResult]] | None = None) -> pd.DataFrame:  # fmt: skip
    """The claims table: the default reading's columns (`schedsim.app.claims.COLUMNS` and
    ``rule``), then ``schedsim [NAME]``, ``holds [NAME]``, ``status [NAME]`` for each
    other reading (`schedsim.app.claims.groups`). The first reading the study ran is the
    default's columns when it did not run ``waits``. ``scored``: `results`, if already
    computed."""
    scored = results(values, facts) if scored is None else scored
    if not scored:
        return claims_table([], rule=True)
    names = list(scored)
    table = claims_table(scored[names[0]], rule=True)
    for name in names[1:]:
        other = claims_table(scored[name])
        for column in ("schedsim", "holds", "status"):
            table[f"{column} [{name}]"] = other[column].to_numpy()
    return table
