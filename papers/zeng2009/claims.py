"""Zeng & Sodan 2009: the paper's claims, each with the paper's value, ours over the
replications, the numeric reading it is checked by and a verdict (`schedsim.app.claims.RULE`).

What is measured is `schedsim.papers.zeng2009.analyses`' (its docstring gives the choices).
`CLAIMS` is the data: each claim (`Claim`: where the paper makes it, its value, the
reading in words, ``headline`` for the claims of the abstract and the conclusions) with
a function from the runs (`Values`) to its cases, each ours as an `Estimate` over the
replications (the paper averages 3 workloads; ours is their mean with its 95% interval,
and a change is taken per replication, the two schedulers on the same workload) and the
`Rule` it is tested by. Where the paper gives a number the rule is `change` or `level`
(reproduced within 25% of it, or inside our interval); a claim in words has the reading
its row states (`at_least`, `at_most`, `between`), fixed with the claim.

The open choices of the paper are **readings** (`Reading`, `READINGS`): how Table 5's
alpha sets the arrival rate and how Equation 7 is rounded (workload readings: runs of
their own, ``workload_params``), RR's cut-off for very short jobs and whether the
utilization of the high-load phases is pooled over them or a mean of the phases
(measure readings: the same runs read otherwise), and what CST's "best suitable match"
ranks by and how many of CST's and CSTWS's pairs are checked (pair readings: CST's and
CSTWS's runs of their own, ``params``; the other schedulers' runs are the text's).
`claims` scores one reading; `readings` every reading the runs have, for the readings x
claims table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from schedsim.app.claims import (
    ALL,
    Case,
    Claim,
    ClaimResult,
    Estimate,
    Rule,
    at_least,
    at_most,
    between,
    change,
    claims_table,
    exactly,
    level,
)
from schedsim.papers.zeng2009.analyses import (
    ALPHA_MEANS,
    BLOCK_SIZE,
    F_SLACK,
    PAIR_BEST,
    PAIR_SHARING,
    PAIR_TRIES,
    ROUNDING,
    RR_BOUND,
    RUN_READINGS,
    SELF_AND_COS,
    paper_setting,
    with_readings,
)

__all__ = [
    "AS_PLANNED",
    "CLAIMS",
    "DEFAULT",
    "PAPER_GROUPED",
    "PAPER_RR_GAIN",
    "PAPER_SSP_W2",
    "PAPER_UCORE_GAIN",
    "READINGS",
    "READING_TEXT",
    "Reading",
    "Values",
    "ZengClaim",
    "claims",
    "readings",
    "results",
    "scored_reading",
]


# -- the paper's claims ---------------------------------------------------------------

#: Section 5.2: RR change of GLTS against each scheduler (%), per type (W1).
PAPER_RR_GAIN: dict[str, dict[str, float]] = {
    "SSP": {"medium": -34.9, "long": -53.2, "all": -35.5},
    "CST": {"medium": -19.4, "long": -16.1, "all": -13.9},
    "CSTWS": {"medium": -28.6, "long": -31.5, "all": -23.2},
}
#: Section 5.2, Figure 7: change of the high-load core utilization of GLTS (%) (W1).
PAPER_UCORE_GAIN: dict[str, float] = {"SSP": 26.8, "CST": 6.0, "CSTWS": 10.1}
#: Section 5.2: the share of the jobs eligible for coscheduling that ran in a group (W1),
#: the paper's 41.7% as a fraction (0-1), the unit of shares here.
PAPER_GROUPED = 0.417
#: Section 5.3: SSP's RR on W2.
PAPER_SSP_W2: dict[str, float] = {"medium": 17.5, "long": 36.74, "all": 10.65}
#: The delay factor of a job that runs as planned: R_est is the planned response times
#: 0.75 (section 5.1), so a job ending when its plan said has 1 / 0.75.
AS_PLANNED = 1 / 0.75

KINDS = ("medium", "long", "all")


# -- readings -------------------------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """One reading of the paper's open choices.

    ``alpha_means`` and ``rounding`` pick the runs (their workload's
    ``workload_params``: `schedsim.workloads.multicore`); ``rr_cut`` (s) is RR's
    cut-off for very short jobs (`schedsim.papers.zeng2009.analyses.relative_response`;
    the runs keep RR at each of `RR_CUTS`); ``utilization`` is ``"pooled"`` (the
    high-load phases as one window, ``u_core_high``) or ``"phase"`` (the mean of the
    phases' own utilizations, ``u_core_phase``); ``n_wait`` is ``"queued"`` (Equation 1's
    N_wait: the jobs not yet started) or ``"suspended"`` (the jobs suspended by the time
    slices counted too: ``u_core_high_susp``). ``pair_best``, ``pair_tries`` and
    ``pair_sharing`` pick CST's and CSTWS's runs (`schedsim.policies.glts`' pair
    readings: CST's "best" by utilization gain or least slowdown; every pair checked
    until one passes, or only the best or first one; space sharing chosen by gain as
    GLTS does, or a passing pair always taken); the other schedulers' runs are those of
    the defaults. ``self_and_cos`` picks every scheduler's runs by how a job's self and
    coscheduling slowdowns combine on a node (``"product"`` or ``"max"``:
    `schedsim.model.slowdowns`, the schedulers predicting alike).
    """

    name: str
    alpha_means: str = ALPHA_MEANS
    rounding: str = ROUNDING
    rr_cut: float = RR_BOUND
    utilization: str = "pooled"
    n_wait: str = "queued"
    pair_best: str = PAIR_BEST
    pair_tries: str = PAIR_TRIES
    pair_sharing: str = PAIR_SHARING
    self_and_cos: str = SELF_AND_COS

    @property
    def runs(self) -> tuple[str, ...]:
        """The runs this reading reads: its value of each of `RUN_READINGS` (alpha_means,
        rounding, pair_best, pair_tries, pair_sharing, self_and_cos)."""
        return tuple(getattr(self, column) for column in RUN_READINGS)

    def metric(self, name: str) -> str:
        """The column of the runs table that holds ``name`` under this reading."""
        if name.startswith("rr_") and not math.isclose(self.rr_cut, RR_BOUND):
            return f"{name}_cut{self.rr_cut:g}"
        if name == "u_core_high" and self.utilization == "phase":
            return "u_core_phase"
        if name == "u_core_high" and self.n_wait == "suspended":
            return "u_core_high_susp"
        return name


#: The text's reading where it has one, today's defaults where it is silent: alpha as
#: the generator's AARR (section 5.1: W1 "reduced" the load by 5%), Equation 7 rounded
#: to keep powers of two (section 4.8), RR cut at 600 s and the phases pooled
#: (`schedsim.papers.zeng2009.analyses`' docstrings give the reasons).
DEFAULT = Reading("text")
#: What each reading reads otherwise than the text (`READINGS`), for the report.
READING_TEXT: dict[str, str] = {
    "text": "Table 5's alpha as the generator's AARR (89.4 W1 jobs a day: section 5.1's "
    "5% less load), Equation 7 rounded to keep powers of two, RR cut at 600 s, the "
    "high-load phases' utilization pooled over them",
    "alpha as shape": "Table 5's alpha as the generator's all-day shape (102.3 W1 jobs a "
    "day, 1.144 times the text's reading: more load, not 5% less)",
    "rounding nodes": "Equation 7's node count rounded to the nearest whole number (fewer "
    "powers of two)",
    "RR cut-off 60 s": "RR's cut-off for very short jobs at 60 s",
    "RR cut-off 10 s": "RR's cut-off at 10 s, the usual bounded slowdown's",
    "utilization per phase": "the core utilization in high-load phases as the mean of the "
    "phases' own utilizations (Equation 1 per phase), not pooled over their union",
    "N_wait with suspended jobs": "Equation 1's N_wait counts the jobs suspended by "
    "Scojo-PECT's time slices too (every job not running), not only those not yet started",
    "CST best by slowdown": 'CST\'s "best suitable match" as the least slowdown of the pair '
    "(the most complementary, LOMARC's aim), not the highest utilization gain",
    "pairs: one match checked": "CST and CSTWS check only their best (CST) or first (CSTWS) "
    'pre-selected match ("taking the first match"), not every pair until one passes',
    "pairs: only coscheduling": 'CST and CSTWS "only coschedule": a pair that passes is '
    'started instead of space sharing, at any load, where GLTS ("full group and '
    'time/space sharing") chooses between them by the utilization gain',
    "slowdowns combined by max": "on a node shared with other jobs a job runs at the larger "
    "of its self and coscheduling slowdowns, not their product (section 4.9 gives both, "
    "not how they combine), in the run and in every scheduler's predictions",
}
#: The readings the study runs or the runs allow, the default first; each changes one
#: choice.
READINGS: tuple[Reading, ...] = (
    DEFAULT,
    Reading("alpha as shape", alpha_means="shape"),
    Reading("rounding nodes", rounding="nodes"),
    Reading("RR cut-off 60 s", rr_cut=60.0),
    Reading("RR cut-off 10 s", rr_cut=10.0),
    Reading("utilization per phase", utilization="phase"),
    Reading("N_wait with suspended jobs", n_wait="suspended"),
    Reading("CST best by slowdown", pair_best="slowdown"),
    Reading("pairs: one match checked", pair_tries="one"),
    Reading("pairs: only coscheduling", pair_sharing="coschedule"),
    Reading("slowdowns combined by max", self_and_cos="max"),
)


def _pct(a: pd.Series, b: pd.Series) -> pd.Series:
    """``a`` against ``b`` in percent of ``b``, pair by pair (NaN where b is 0)."""
    return 100 * (a / b.where(b != 0) - 1)


def _pairs_match(table: pd.DataFrame, reading: Reading) -> pd.Series:
    """The rows ``reading``'s pair readings read: CST's runs with its ``pair_best``,
    ``pair_tries`` and ``pair_sharing``, CSTWS's with its ``pair_tries`` and
    ``pair_sharing`` (CSTWS has no "best"), every other scheduler's runs under the
    defaults (they have no pairs to read)."""
    best, tries, sharing = table["pair_best"], table["pair_tries"], table["pair_sharing"]
    default = (best == PAIR_BEST) & (tries == PAIR_TRIES) & (sharing == PAIR_SHARING)
    cstws = (tries == reading.pair_tries) & (sharing == reading.pair_sharing)
    cst = (best == reading.pair_best) & cstws
    name = table["scheduler"]
    return cst.where(name == "CST", cstws.where(name == "CSTWS", default))


class Values:
    """Ours from a table of runs (`schedsim.papers.zeng2009.analyses.study_runs`: one
    row per run, ``replication`` telling the workloads apart) under one `Reading`: the
    runs of its workload reading, in the paper's setting (`paper_setting`)."""

    def __init__(self, runs: pd.DataFrame, reading: Reading = DEFAULT) -> None:
        table = with_readings(runs)
        if len(table):
            table = table[(table["alpha_means"] == reading.alpha_means)
                          & (table["rounding"] == reading.rounding)
                          & (table["self_and_cos"] == reading.self_and_cos)
                          & _pairs_match(table, reading)]  # fmt: skip
        table = paper_setting(table.reset_index(drop=True))
        if "replication" not in table:
            table = table.assign(replication=0)
        self.table = table
        self.reading = reading

    def series(self, workload: str, name: str, metric: str, block: float = BLOCK_SIZE,
               slack: float = F_SLACK) -> pd.Series:  # fmt: skip
        """One configuration's ``metric`` (under the reading) by replication; empty when
        not run or not measured."""
        t, column = self.table, self.reading.metric(metric)
        if t.empty or column not in t:
            return pd.Series(dtype=float)
        hit = t[(t["workload"] == workload) & (t["scheduler"] == name)
                & np.isclose(t["block_size"].astype(float), block)
                & np.isclose(t["f_slack"].astype(float), slack)]  # fmt: skip
        values = pd.to_numeric(hit[column], errors="coerce")
        return values.groupby(hit["replication"]).mean().dropna()

    def est(self, workload: str, name: str, metric: str, block: float = BLOCK_SIZE,
            slack: float = F_SLACK) -> Estimate | None:  # fmt: skip
        """`series` as an `Estimate` (None without values)."""
        s = self.series(workload, name, metric, block, slack)
        return Estimate.of(s) if len(s) else None

    def paired(self, a: pd.Series, b: pd.Series, how: Callable[[pd.Series, pd.Series], pd.Series]
               ) -> Estimate | None:  # fmt: skip
        """``how(a, b)`` replication by replication (the two on the same workload), as an
        `Estimate`; None without a common replication."""
        a, b = a.align(b, join="inner")
        values = how(a, b).dropna()
        return Estimate.of(values) if len(values) else None

    def change(self, workload: str, a: str, b: str, metric: str, block_a: float = BLOCK_SIZE,
               block_b: float = BLOCK_SIZE, slack_a: float = F_SLACK,
               slack_b: float = F_SLACK) -> Estimate | None:  # fmt: skip
        """Scheduler ``a``'s ``metric`` against ``b``'s, in percent, per replication."""
        return self.paired(self.series(workload, a, metric, block_a, slack_a),
                           self.series(workload, b, metric, block_b, slack_b), _pct)  # fmt: skip

    def sizes(self, workload: str, name: str, column: str) -> list[float]:
        """The block sizes (``column="block_size"``) or slack factors a scheduler ran
        with, the other at Table 6's value, sorted."""
        t = self.table
        if t.empty:
            return []
        fixed, default = (
            ("f_slack", F_SLACK) if column == "block_size" else ("block_size", BLOCK_SIZE)
        )
        hit = t[(t["workload"] == workload) & (t["scheduler"] == name)
                & np.isclose(t[fixed].astype(float), default)]  # fmt: skip
        return sorted({float(v) for v in hit[column]})


#: A claim's cases from the runs: name -> (ours, its rule), ours None when not run.
Cases = Callable[[Values], Mapping[str, tuple[Estimate | None, Rule]]]


@dataclass(frozen=True)
class ZengClaim:
    """A claim, its cases and how ours is shown (``fmt`` and ``unit`` of `Estimate.text`;
    ``shown``: a case's text from its name and estimate, when more than ours is shown)."""

    claim: Claim
    cases: Cases
    fmt: str = "{:+.1f}"
    unit: str = "%"
    shown: Callable[[Values, str, Estimate], str] | None = None


#: The note of a claim the runs of a reading do not cover.
NOT_RUN = "not checked: the study has none of the runs it needs under this reading"


def _score(c: ZengClaim, values: Values) -> ClaimResult:
    """The claim's result from the cases that ran (ours not None nor NaN)."""
    cases = []
    for name, (ours, rule) in c.cases(values).items():
        if ours is None or math.isnan(ours.value):
            continue
        text = None if c.shown is None else c.shown(values, name, ours)
        cases.append(rule.case(name, ours, text, c.fmt, c.unit))
    return _result(c.claim, cases)


def _claim(key: str, where: str, paper: str, rule: str, unit: str = "%",
           headline: bool = False) -> Claim:  # fmt: skip
    return Claim(key, where, paper, unit, rule, ALL, headline)


CHANGE = ("each case: the paper's change within 25% of it, or inside our 95% interval; "
          "direction only: the paper's sign")  # fmt: skip
LEVEL = "each case: within 25% of the paper's value, or inside our 95% interval"


def _rr_gain(other: str, gains: Mapping[str, float]) -> Cases:
    """GLTS's RR against ``other``'s per type (W1), like the paper's ``gains``."""
    return lambda v: {k: (v.change("W1", "GLTS", other, f"rr_{k}"), change(gains[k]))
                      for k in KINDS}  # fmt: skip


def _groups(wl: str, size: float, count: float, where: str) -> ZengClaim:
    """Section 5.2/5.3: about ``size`` jobs per group, ``count`` groups (``wl``)."""
    return ZengClaim(
        _claim(f"groups of about {size} jobs, about {count:,.0f} of them ({wl})", where,
               f"{size} jobs per group; {count:,.0f} groups in 10,000 jobs", LEVEL, "jobs"),
        lambda v: {"jobs per group": (v.est(wl, "GLTS", "group_size_jobs"), level(size)),
                   "groups per 10,000 jobs": (v.est(wl, "GLTS", "groups_per_10k_jobs"),
                                              level(count))},
        "{:,.1f}", "")  # fmt: skip


def _long_more(v: Values) -> Estimate | None:
    """GLTS's RR change against SSP's for long jobs less that for medium jobs, in
    percentage points, per replication (W1)."""

    def one(k: str) -> pd.Series:
        return _pct(*v.series("W1", "GLTS", f"rr_{k}").align(v.series("W1", "SSP", f"rr_{k}"),
                                                              join="inner"))  # fmt: skip

    return v.paired(one("long"), one("medium"), lambda a, b: a - b)


def _delay_cases(v: Values) -> Mapping[str, tuple[Estimate | None, Rule]]:
    """GLTS's delay factor less SSP's at each percentile and type (W1), per replication,
    against the paper's value less `AS_PLANNED` (its SSP's: no job is late under space
    sharing with exact estimates)."""
    return {f"p{q} {t}": (v.paired(v.series("W1", "GLTS", f"delay_p{q}_{t}"),
                                   v.series("W1", "SSP", f"delay_p{q}_{t}"), lambda a, b: a - b),
                          change(round(p - AS_PLANNED, 4)))
            for q, p in ((75, 1.3), (95, 1.4)) for t in ("medium", "long")}  # fmt: skip


def _delay_shown(v: Values, name: str, ours: Estimate) -> str:
    q, t = name.split()
    g, s = (v.est("W1", n, f"delay_{q}_{t}") for n in ("GLTS", "SSP"))
    levels = f" (GLTS {g.value:.2f}, SSP {s.value:.2f})" if g and s else ""
    return ours.text("{:+.3f}") + levels


#: The paper's claims at Table 6's setting (sections 5.2-5.4), in its order; the
#: headline ones are those the abstract and the conclusions make.
CLAIMS: tuple[ZengClaim, ...] = (
    *(ZengClaim(_claim(f"GLTS has a lower RR than {other} (W1)",
                       "abstract, section 5.2, Figure 6, conclusions",
                       ", ".join(f"{k} {x:+.1f}%" for k, x in gains.items()), CHANGE,
                       headline=True),
                _rr_gain(other, gains))
      for other, gains in PAPER_RR_GAIN.items()),
    ZengClaim(_claim("long jobs gain more than medium jobs over SSP (W1)", "section 5.2",
                     "-53.2% against -34.9%: -18.3 percentage points",
                     "the long jobs' RR change less the medium jobs', within 25% of -18.3 "
                     "points or inside our interval; direction only: below 0", "points"),
              lambda v: {"long - medium": (_long_more(v), change(-18.3))}, unit=" pp"),
    ZengClaim(_claim("GLTS raises the core utilization in high-load phases over SSP (W1)",
                     "abstract, section 5.2, Figure 7, conclusions", "+26.8% (abstract: about "
                     "27%), relative, not percentage points", CHANGE, headline=True),
              lambda v: {"vs SSP": (v.change("W1", "GLTS", "SSP", "u_core_high"),
                                    change(PAPER_UCORE_GAIN["SSP"]))}),
    ZengClaim(_claim("GLTS raises the core utilization in high-load phases over CST and "
                     "CSTWS (W1)", "section 5.2, Figure 7", "vs CST +6.0%, vs CSTWS +10.1%",
                     CHANGE),
              lambda v: {f"vs {k}": (v.change("W1", "GLTS", k, "u_core_high"),
                                     change(PAPER_UCORE_GAIN[k])) for k in ("CST", "CSTWS")}),
    _groups("W1", 2.5, 1500.0, "section 5.2"),
    _groups("W2", 2.6, 2000.0, "section 5.3"),
    ZengClaim(_claim("about 25% more groups on W2 than on W1", "section 5.3",
                     "+25% (the paper's words; its 2,000 against 1,500 groups is +33%)",
                     "per replication, W2's groups against W1's: " + CHANGE),
              lambda v: {"GLTS": (v.paired(v.series("W2", "GLTS", "groups_per_10k_jobs"),
                                           v.series("W1", "GLTS", "groups_per_10k_jobs"), _pct),
                                  change(25.0))}),
    ZengClaim(_claim(f'{PAPER_GROUPED:.3f} ("41.7%") of the jobs eligible for coscheduling '
                     "(medium and long) run in a group (W1)", "section 5.2",
                     f"{PAPER_GROUPED:.3f} (the paper's 41.7% as a fraction; note: 41.7% of "
                     "3,600 eligible jobs is 1,500 jobs, the paper's count of groups; 1,500 "
                     "groups of 2.5 would be 3,750 jobs)", LEVEL, "fraction"),
              lambda v: {"GLTS": (v.est("W1", "GLTS", "grouped_share"), level(PAPER_GROUPED))},
              "{:.3f}", ""),
    ZengClaim(_claim("on average, medium and long jobs finish at their predicted response "
                     "time (W1)", "section 5.2", "mean delay factor 1 (read: the response over "
                     "R_est, the prediction)", LEVEL, "ratio"),
              lambda v: {"GLTS": (v.est("W1", "GLTS", "delay_mean"), level(1.0))}, "{:.2f}", ""),
    ZengClaim(_claim("delay factors: 75th percentile 1.3, 95th 1.4, for medium and long jobs "
                     "(W1)", "section 5.2", "p75 1.3 and p95 1.4 for both types: -0.033 and "
                     "+0.067 from 1/0.75, the delay factor of a job that runs as planned",
                     "GLTS's delay factor less SSP's (per replication), against the paper's "
                     "less 1/0.75 (SSP's with exact estimates: no job ends after its plan); "
                     "within 25% or inside our interval; direction only: the same sign. Why: "
                     "any job that runs as planned has 1/0.75 = 1.33, so the levels alone "
                     "cannot tell GLTS from SSP", "ratio"),
              _delay_cases, "{:+.3f}", "", _delay_shown),
    ZengClaim(_claim("the number of candidate jobs for matchmaking is less than 4 in 85% of "
                     "the cases (W1)", "section 5.3", "0.85 of the searches (the paper's 85% "
                     "as a fraction)", "the share of GLTS's Case 1 searches (a job about to "
                     "start looking ahead in the queue) with fewer than 4 pre-selected "
                     "candidates, from the run's matchmaking log; " + LEVEL, "fraction"),
              lambda v: {"GLTS": (v.est("W1", "GLTS", "few_candidates_share"), level(0.85))},
              "{:.3f}", ""),
    ZengClaim(_claim("the variants FBO, NS and NH do about as well as GLTS (W1)",
                     "section 5.3, Figure 6", '"not much impact"',
                     "read before the runs: each variant's RR within 10% of GLTS's either way "
                     "(a gap under 10% is not an impact one would call much)"),
              lambda v: {f"{n} {k}": (v.change("W1", n, "GLTS", f"rr_{k}"), between(-10.0, 10.0))
                         for n in ("FBO", "NS", "NH") for k in KINDS}),
    ZengClaim(_claim("SSP saturates on W2: its makespan is longer than GLTS's",
                     "section 5.3, abstract, conclusions", "an increased makespan with SSP, "
                     "not with GLTS", "read before the runs: SSP's makespan at least 5% "
                     "longer than GLTS's; direction only: longer", headline=True),
              lambda v: {"SSP vs GLTS": (v.change("W2", "SSP", "GLTS", "makespan_s"),
                                         at_least(5.0))}),
    ZengClaim(_claim("SSP's RR on W2", "section 5.3",
                     ", ".join(f"{k} {x:g}" for k, x in PAPER_SSP_W2.items()), LEVEL, "ratio"),
              lambda v: {k: (v.est("W2", "SSP", f"rr_{k}"), level(p))
                         for k, p in PAPER_SSP_W2.items()}, "{:.2f}", ""),
    ZengClaim(_claim("GLTS's RR on W2 is much lower than SSP's", "section 5.3, abstract, "
                     "conclusions", '"much longer" with SSP', "read before the runs: GLTS's "
                     "RR at least 20% lower than SSP's for each type; direction only: lower",
                     headline=True),
              lambda v: {k: (v.change("W2", "GLTS", "SSP", f"rr_{k}"), at_most(-20.0))
                         for k in KINDS}),
)  # fmt: skip


def _best_block(values: Values) -> list[ClaimResult]:
    """Figure 8 (W2): GLTS's best block size is 12 for medium and long jobs: the size of
    the lowest mean RR, and whether the curve is flat (every size's RR within the best's,
    per replication: each change's interval covers 0)."""
    claim = _claim("GLTS's best block size on W2 is 12, for medium and long jobs",
                   "section 5.3, Figure 8", "12 for both types",
                   "the block size of the lowest mean RR = 12; shown with the RR at each "
                   "size and whether the curve is flat (every size's change from the best "
                   "has an interval covering 0)", "jobs")  # fmt: skip
    sizes = values.sizes("W2", "GLTS", "block_size")
    cases = []
    if len(sizes) >= 2 and any(math.isclose(b, 12) for b in sizes):
        for k in ("medium", "long"):
            means = {b: values.est("W2", "GLTS", f"rr_{k}", block=b) for b in sizes}
            got = {b: e for b, e in means.items() if e is not None and math.isfinite(e.value)}
            if len(got) < 2:
                continue
            best = min(got, key=lambda b: got[b].value)
            flat = True
            for b in got:
                if b != best:
                    d = values.change("W2", "GLTS", "GLTS", f"rr_{k}", block_a=b, block_b=best)
                    flat = flat and d is not None and (d.covers(0.0) or not d.has_interval)
            curve = ", ".join(f"{b:g}: {e.value:.2f}" for b, e in got.items())
            shown = (f"{best:g} jobs (RR by block size {curve}; "
                     f"{'flat' if flat else 'not flat'})")  # fmt: skip
            cases.append(exactly(12).case(k, best, shown))
    return [_result(claim, cases)]


def _result(claim: Claim, cases: list[Case]) -> ClaimResult:
    return ClaimResult(claim, cases, "" if cases else NOT_RUN)


def _block_changes(values: Values) -> list[ClaimResult]:
    """Figure 8 (W2): FBO against GLTS at small and large blocks; NH against GLTS at
    the smallest, 12 and the largest block; NS against GLTS at 12."""
    glts = values.sizes("W2", "GLTS", "block_size")
    common = sorted(set(glts) & set(values.sizes("W2", "FBO", "block_size")))
    small, large = (common[0], common[-1]) if len(common) >= 2 else (4.0, 32.0)
    lo, hi = (glts[0], glts[-1]) if len(glts) >= 2 else (4.0, 32.0)

    def cases(name: str, rules: Mapping[str, tuple[float, str, Rule]], own: bool = True
              ) -> list[Case]:  # fmt: skip
        """``name`` against GLTS per case: (block, type, rule); at the same block when
        ``own`` (NH has no blocks: its run at Table 6's)."""
        out = []
        for case, (b, k, rule) in rules.items():
            e = values.change("W2", name, "GLTS", f"rr_{k}", block_a=b if own else BLOCK_SIZE,
                              block_b=b)  # fmt: skip
            if e is not None and len(common if name == "FBO" else glts) >= 2:
                out.append(rule.case(case, e, fmt="{:+.1f}", unit="%"))
        return out

    return [
        _result(_claim(
            "FBO is much worse than GLTS with small blocks (W2)",
            "section 5.3, Figure 8", '"much worse" with small blocks',
            "read before the runs: FBO's RR at least 10% above GLTS's; direction only: above"),
            cases("FBO", {f"{k} at block {small:g}": (small, k, at_least(10.0)) for k in KINDS})),
        _result(_claim(
            "FBO is close to GLTS with large blocks (W2)",
            "section 5.3, Figure 8", '"similar to GLTS if block sizes are large enough"',
            "read before the runs: FBO's RR within 10% of GLTS's either way"),
            cases("FBO", {f"{k} at block {large:g}": (large, k, between(-10.0, 10.0))
                          for k in KINDS})),
        _result(_claim(
            "NH is better than GLTS with small and large blocks but significantly worse with "
            "the optimum, 12, for medium jobs (W2)", "section 5.3, Figure 8",
            '"better than GLTS with small and large block size for medium jobs but becomes '
            'significantly worse than GLTS with optimum block size"',
            "read before the runs: NH's medium RR at least 5% below GLTS's at the smallest "
            "and the largest block studied (direction only: below), at least 10% above at 12 "
            "(direction only: above)"),
            cases("NH", {f"vs block {lo:g}": (lo, "medium", at_most(-5.0)),
                         f"vs block {hi:g}": (hi, "medium", at_most(-5.0)),
                         "vs block 12": (12.0, "medium", at_least(10.0))}, own=False)),
        _result(_claim(
            "NS is especially worse than GLTS with the optimum block size, 12 (W2)",
            "section 5.3, Figure 8", '"especially worse than GLTS for the optimum block size"',
            "read before the runs: NS's RR at least 10% above GLTS's at block 12 (as \"much "
            "worse\"); direction only: above"),
            cases("NS", {k: (12.0, k, at_least(10.0)) for k in ("medium", "long")})),
    ]  # fmt: skip


def _slack(values: Values) -> list[ClaimResult]:
    """Figure 9 (W1, GLTS): RR falls as F_slack grows up to 1.5, and is about flat beyond."""
    slack = values.sizes("W1", "GLTS", "f_slack")
    below = [s for s in slack if s < F_SLACK - 1e-9]
    above = [s for s in slack if s > F_SLACK + 1e-9]
    has = any(math.isclose(s, F_SLACK) for s in slack)

    def vs(s: float, ref: float, k: str) -> Estimate | None:
        return values.change("W1", "GLTS", "GLTS", f"rr_{k}", slack_a=s, slack_b=ref)

    falls = [at_most(-5.0).case(f"{k} from {below[0]:g}", e, fmt="{:+.1f}", unit="%") for k in KINDS
             if has and below and (e := vs(F_SLACK, below[0], k)) is not None]  # fmt: skip
    flat = [
        between(-5.0, 5.0).case(f"{k} at {s:g}", e, fmt="{:+.1f}", unit="%")
        for s in above
        for k in KINDS
        if has and (e := vs(s, F_SLACK, k)) is not None
    ]
    return [
        _result(_claim(
            "RR falls as F_slack grows to 1.5 (W1, GLTS)",
            "section 5.4, Figure 9", "RR falls with the slack factor up to 1.5",
            "read before the runs: RR at F_slack 1.5 at least 5% below the smallest F_slack's; "
            "direction only: below"), falls),
        _result(_claim(
            "RR is about flat for F_slack beyond 1.5 (W1, GLTS)", "section 5.4, Figure 9",
            '"approximately equal" beyond 1.5',
            "read before the runs: RR at each larger F_slack within 5% of F_slack 1.5's "
            "either way"), flat),
    ]  # fmt: skip


def results(runs: pd.DataFrame, reading: Reading = DEFAULT) -> list[ClaimResult]:
    """Every claim's result under ``reading`` from a table of runs (`study_runs`; a table
    without ``replication`` is one replication per configuration). The paper's setting is
    Table 6's block size 16 and F_slack 1.5, and Scojo-PECT where the study has it."""
    values = Values(runs, reading)
    return [*(_score(c, values) for c in CLAIMS), *_best_block(values),
            *_block_changes(values), *_slack(values)]  # fmt: skip


def claims(runs: pd.DataFrame, reading: Reading = DEFAULT) -> pd.DataFrame:
    """The claims table under ``reading`` (`results`; `schedsim.app.claims.COLUMNS` and
    ``rule``): every claim, "not checked" with its reason where the runs lack it."""
    return claims_table(results(runs, reading), rule=True)


def readings(runs: pd.DataFrame, chosen: Sequence[Reading] = READINGS
             ) -> dict[str, list[ClaimResult]]:  # fmt: skip
    """The results of each reading in ``chosen`` whose runs (workload and pair readings,
    `Reading.runs`) the study has (a measure reading whenever the default's: it reads
    them), by name, for
    `schedsim.app.claims.readings_table`."""
    have = _run_readings(runs)
    return {r.name: results(runs, r) for r in chosen if r.runs in have}


def _run_readings(runs: pd.DataFrame) -> set[tuple[str, ...]]:
    """The (alpha_means, rounding, pair_best, pair_tries, pair_sharing, self_and_cos) the
    runs have (`Reading.runs`)."""
    table = with_readings(runs)
    if not len(table):
        return set()
    return set(zip(*(table[c] for c in RUN_READINGS), strict=True))


def scored_reading(runs: pd.DataFrame) -> Reading:
    """The reading a study's claims table is scored under: the text's (`DEFAULT`) when
    the runs have its workload reading, else the first of `READINGS` they have (a study
    of one other reading alone, ``study-rounding.toml``); `DEFAULT` without runs."""
    have = _run_readings(runs)
    return next((r for r in READINGS if r.runs in have), DEFAULT)
