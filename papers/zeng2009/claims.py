"""Zeng & Sodan 2009: the paper's claims, each with the paper's value, ours, the rule and a
verdict.

What is measured is `schedsim.papers.zeng2009.analyses`' (its docstring gives the choices).
`CLAIMS` is the data: each claim with its cases, a value of the `aggregate` table and
the `Rule` it is tested by (`schedsim.app.claims`: a case holds, or holds in a
weaker sense); the claims on Figures 8 and 9 (`_block_claims`, `_slack_claims`) name the
block sizes and slack factors the study has. The verdict is `ALL_OR_WEAK`: reproduced
when every case holds; partly when every case holds at least in the weaker sense, or at
least half hold; else not reproduced.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from schedsim.app.claims import (
    ALL_OR_WEAK,
    Claim,
    ClaimResult,
    Rule,
    at_least,
    at_most,
    claims_table,
    same_sign_within,
    within,
    within_factor,
)
from schedsim.papers.zeng2009.analyses import BLOCK_SIZE, F_SLACK, PAPER_JOBS, paper_setting

__all__ = [
    "CLAIMS",
    "PAPER_GROUPED",
    "PAPER_RR_GAIN",
    "PAPER_SSP_W2",
    "PAPER_UCORE_GAIN",
    "Values",
    "ZengClaim",
    "claims",
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


def _change(a: float, b: float) -> float:
    """The change of ``a`` against ``b``, in percent of ``b`` (NaN when b is 0)."""
    return 100 * (a / b - 1) if b else math.nan


def _small(tol: float, weak: float) -> Rule:
    """A change of at most ``tol`` percent either way (weaker: ``weak``)."""
    return within(0.0, tol, weak)


class Values:
    """Look-ups into an `aggregate` table (the paper's setting, `paper_setting`)."""

    def __init__(self, table: pd.DataFrame) -> None:
        self.table = table

    def row(self, workload: str, name: str, block: float = BLOCK_SIZE,
            slack: float = F_SLACK) -> pd.Series | None:  # fmt: skip
        t = self.table
        hit = t[(t["workload"] == workload) & (t["scheduler"] == name)
                & np.isclose(t["block_size"].astype(float), block)
                & np.isclose(t["f_slack"].astype(float), slack)]  # fmt: skip
        return hit.iloc[0] if len(hit) else None

    def __call__(self, workload: str, name: str, metric: str) -> float:
        """One value at Table 6's block size and slack; NaN when not run."""
        row = self.row(workload, name)
        if row is None or metric not in row.index:
            return math.nan
        return float(row[metric])

    def change(self, workload: str, a: str, b: str, metric: str) -> float:
        """Scheduler ``a``'s ``metric`` against ``b``'s, in percent."""
        return _change(self(workload, a, metric), self(workload, b, metric))


#: A claim's cases from the table's values: name -> (ours, its rule).
Cases = Callable[[Values], Mapping[str, tuple[float, Rule]]]


@dataclass(frozen=True)
class ZengClaim:
    """A claim, its cases and how ours is shown (``fmt``)."""

    claim: Claim
    cases: Cases
    fmt: str = "{:+.1f}%"


def _result(claim: Claim, cases: Mapping[str, tuple[float, Rule]], fmt: str) -> ClaimResult:
    """The claim's result from the cases that ran (not NaN)."""
    return ClaimResult(claim, [rule.case(k, v, fmt.format(v)) for k, (v, rule) in cases.items()
                               if not math.isnan(v)])  # fmt: skip


def _claim(key: str, where: str, paper: str, rule: str, unit: str = "%") -> Claim:
    return Claim(key, where, paper, unit, rule, ALL_OR_WEAK)


KINDS = ("medium", "long", "all")
WITHIN2 = "holds: same sign and within a factor of 2 of the paper's; weaker: same sign"


def _groups(wl: str, size: float, count: float, where: str) -> ZengClaim:
    """Section 5.2/5.3: about ``size`` jobs per group, ``count`` groups (``wl``)."""
    return ZengClaim(
        _claim(f"groups of about {size} jobs, about {count:,.0f} of them ({wl})", where,
               f"{size} jobs per group; {count:,.0f} groups in {PAPER_JOBS:,} jobs",
               "jobs per group: holds within 20%, weaker within 40%; groups (scaled to 10,000 "
               "jobs): holds within a factor of 1.5, weaker of 2", "jobs"),
        lambda v: {"jobs per group": (v(wl, "GLTS", "group_size_jobs"),
                                      within(size, 0.2 * size, 0.4 * size)),
                   "groups per 10,000 jobs": (v(wl, "GLTS", "groups_per_10k_jobs"),
                                              within_factor(count, 1.5, 2.0))},
        "{:,.1f}")  # fmt: skip


def _rr_gain(other: str, gains: Mapping[str, float]) -> Cases:
    """GLTS's RR against ``other``'s per type (W1), like the paper's ``gains``."""
    return lambda v: {k: (v.change("W1", "GLTS", other, f"rr_{k}"), same_sign_within(gains[k]))
                      for k in KINDS}  # fmt: skip


#: The paper's claims at Table 6's setting (sections 5.2 and 5.3), in its order.
CLAIMS: tuple[ZengClaim, ...] = (
    *(ZengClaim(_claim(f"GLTS has a lower RR than {other} (W1)", "section 5.2, Figure 6",
                       ", ".join(f"{k} {x:+.1f}%" for k, x in gains.items()), WITHIN2),
                _rr_gain(other, gains))
      for other, gains in PAPER_RR_GAIN.items()),
    ZengClaim(_claim("GLTS has a higher core utilization in high-load phases (W1)",
                     "section 5.2, Figure 7",
                     ", ".join(f"vs {k} {x:+.1f}%" for k, x in PAPER_UCORE_GAIN.items()),
                     WITHIN2 + " (relative changes, not percentage points)"),
              lambda v: {f"vs {k}": (v.change("W1", "GLTS", k, "u_core_high"),
                                     same_sign_within(p))
                         for k, p in PAPER_UCORE_GAIN.items()}),
    _groups("W1", 2.5, 1500.0, "section 5.2"),
    _groups("W2", 2.6, 2000.0, "section 5.3"),
    ZengClaim(_claim("about 25% more groups on W2 than on W1", "section 5.3",
                     "about 2,000 against 1,500 groups: +25% (the paper's arithmetic; +33%)",
                     "holds: between +12.5% and +50%; weaker: more groups"),
              lambda v: {"GLTS": (_change(v("W2", "GLTS", "groups_per_10k_jobs"),
                                          v("W1", "GLTS", "groups_per_10k_jobs")),
                                  Rule("between +12.5% and +50%; weaker: above 0",
                                       lambda x: (12.5 <= x <= 50.0, x > 0.0)))}),
    ZengClaim(_claim(f'{PAPER_GROUPED:.3f} ("41.7%") of the jobs eligible for coscheduling '
                     "(medium and long) run in a group (W1)", "section 5.2",
                     f"{PAPER_GROUPED:.3f} (the paper's 41.7% as a fraction; note: 41.7% of "
                     "3,600 eligible jobs is 1,500 jobs, the paper's count of groups; 1,500 "
                     "groups of 2.5 would be 3,750 jobs)",
                     "holds within 0.10 (10 percentage points), weaker within 0.20", "fraction"),
              lambda v: {"GLTS": (v("W1", "GLTS", "grouped_share"),
                                  within(PAPER_GROUPED, 0.10, 0.20))}, "{:.3f}"),
    ZengClaim(_claim("on average, medium and long jobs finish at their predicted response "
                     "time (W1)", "section 5.2", "mean delay factor about 1",
                     "holds: mean within 0.15 of 1, weaker within 0.3", "ratio"),
              lambda v: {"GLTS": (v("W1", "GLTS", "delay_mean"), within(1.0, 0.15, 0.3))},
              "{:.2f}"),
    ZengClaim(_claim("delay factors: 75th percentile 1.3, 95th 1.4, for medium and long jobs "
                     "(W1)", "section 5.2", "p75 1.3 and p95 1.4 for both types",
                     "holds within 0.15 of the paper's, weaker within 0.3", "ratio"),
              lambda v: {f"p{q} {t}": (v("W1", "GLTS", f"delay_p{q}_{t}"), within(p, 0.15, 0.3))
                         for q, p in ((75, 1.3), (95, 1.4)) for t in ("medium", "long")},
              "{:.2f}"),
    ZengClaim(_claim("the variants FBO, NS and NH do about as well as GLTS (W1)",
                     "section 5.3, Figure 6", '"not much impact"',
                     "holds: RR within 10% of GLTS's, weaker within 25%"),
              lambda v: {f"{n} {k}": (v.change("W1", n, "GLTS", f"rr_{k}"), _small(10.0, 25.0))
                         for n in ("FBO", "NS", "NH") for k in KINDS}),
    ZengClaim(_claim("SSP saturates on W2: its makespan is longer than GLTS's", "section 5.3",
                     "an increased makespan with SSP, not with GLTS",
                     "holds: SSP's makespan at least 5% longer; weaker: longer"),
              lambda v: {"SSP vs GLTS": (v.change("W2", "SSP", "GLTS", "makespan_s"),
                                         at_least(5.0))}),
    ZengClaim(_claim("SSP's RR on W2", "section 5.3",
                     ", ".join(f"{k} {x:g}" for k, x in PAPER_SSP_W2.items()),
                     "holds within a factor of 2 of the paper's, weaker of 4", "ratio"),
              lambda v: {k: (v("W2", "SSP", f"rr_{k}"), within_factor(p, 2.0, 4.0))
                         for k, p in PAPER_SSP_W2.items()}, "{:.2f}"),
    ZengClaim(_claim("GLTS's RR on W2 is much lower than SSP's", "section 5.3",
                     '"much longer" with SSP', "holds: GLTS at least 20% lower; weaker: lower"),
              lambda v: {k: (v.change("W2", "GLTS", "SSP", f"rr_{k}"), at_most(-20.0))
                         for k in KINDS}),
)  # fmt: skip


def claims(table: pd.DataFrame) -> pd.DataFrame:
    """The paper's claims against an `aggregate` table: ``claim``, ``where``,
    ``paper`` (its value), ``schedsim`` (ours), ``holds`` (cases that hold),
    ``status`` (reproduced, partly, not reproduced: `ALL_OR_WEAK`) and ``rule`` (when a
    case holds, and when it holds in the weaker sense that makes a claim partly
    reproduced). The paper's setting is Table 6's block size 16 and F_slack 1.5, and
    Scojo-PECT where the study has it (`paper_setting`); a claim none of whose runs
    is in the table is left out."""
    table = paper_setting(table)
    values = Values(table)
    results = [_result(c.claim, c.cases(values), c.fmt) for c in CLAIMS]
    results += [*_block_claims(table), *_slack_claims(table)]
    return claims_table(results, rule=True, keep_not_run=False)


def _series(table: pd.DataFrame, workload: str, name: str, column: str, fixed: str) -> pd.DataFrame:
    """The rows of one workload and scheduler along ``column``, the other parameter
    (``fixed``) at Table 6's value, sorted."""
    default = BLOCK_SIZE if fixed == "block_size" else F_SLACK
    part = table[
        (table["workload"] == workload)
        & (table["scheduler"] == name)
        & np.isclose(table[fixed].astype(float), default)
    ]
    return part.sort_values(column)


def _block_test(near: set[float]) -> Rule:
    """The best block size is 12 (weaker: one of ``near``, 12 and its studied neighbours)."""
    return Rule("12; weaker: 12's studied neighbours",
                lambda b: (math.isclose(b, 12), b in near))  # fmt: skip


def _falls(steadily: bool) -> Rule:
    """RR fell from the smallest F_slack to 1.5, ``steadily`` (weaker: fell)."""
    return Rule("a steady fall; weaker: a fall", lambda v: (v < 0 and steadily, v < 0))


def _block_claims(table: pd.DataFrame) -> list[ClaimResult]:
    """Figure 8 (W2): the optimum block size is 12 for GLTS; FBO is worse than GLTS
    with small blocks."""
    out = []
    glts = _series(table, "W2", "GLTS", "block_size", "f_slack")
    sizes = glts["block_size"].astype(float).tolist()
    if len(sizes) >= 2 and any(math.isclose(b, 12) for b in sizes):
        at = sizes.index(next(b for b in sizes if math.isclose(b, 12)))
        near = {sizes[k] for k in (at - 1, at, at + 1) if 0 <= k < len(sizes)}
        cases = {}
        for k in ("medium", "long"):
            values = glts[f"rr_{k}"].to_numpy(dtype=float)
            if np.isfinite(values).any():
                cases[k] = (sizes[int(np.nanargmin(values))], _block_test(near))
        out.append(_result(_claim(
            "GLTS's best block size on W2 is 12, for medium and long jobs",
            "section 5.3, Figure 8", "12 for both types",
            "holds: the block size of the lowest RR is 12; weaker: the studied size next to 12",
            "jobs"), cases, "{:g} jobs"))  # fmt: skip
    fbo = _series(table, "W2", "FBO", "block_size", "f_slack")
    common = sorted(set(glts["block_size"]) & set(fbo["block_size"])) if len(fbo) else []
    if len(glts) and len(common) >= 2:
        small, large = common[0], common[-1]

        def change(b: float, k: str) -> float:
            def at(frame: pd.DataFrame) -> float:
                return float(frame[np.isclose(frame["block_size"], b)][f"rr_{k}"].iloc[0])

            return _change(at(fbo), at(glts))

        out.append(
            _result(
                _claim(
                    f"FBO is much worse than GLTS with small blocks (W2, block size {small:g})",
                    "section 5.3, Figure 8",
                    '"much worse" with small blocks',
                    "holds: FBO's RR at least 10% above GLTS's; weaker: above",
                ),
                {k: (change(small, k), at_least(10.0)) for k in KINDS},
                "{:+.1f}%",
            )
        )
        out.append(
            _result(
                _claim(
                    f"FBO is close to GLTS with large blocks (W2, block size {large:g})",
                    "section 5.3, Figure 8",
                    '"similar to GLTS if block sizes are large enough"',
                    "holds: FBO's RR within 10% of GLTS's, weaker within 25%",
                ),
                {k: (change(large, k), _small(10.0, 25.0)) for k in KINDS},
                "{:+.1f}%",
            )
        )
    return out  # fmt: skip


def _slack_claims(table: pd.DataFrame) -> list[ClaimResult]:
    """Figure 9 (W1, GLTS): RR falls as F_slack grows up to 1.5, and is about flat
    beyond."""
    glts = _series(table, "W1", "GLTS", "f_slack", "block_size")
    slack = glts["f_slack"].astype(float).to_numpy()
    if not np.isclose(slack, F_SLACK).any():
        return []
    out = []
    base = glts[np.isclose(slack, F_SLACK)].iloc[0]
    below = glts[slack < F_SLACK - 1e-9]
    if len(below):
        cases = {}
        for k in KINDS:
            rr_up = [*below[f"rr_{k}"].astype(float), float(base[f"rr_{k}"])]
            falls = all(b <= a * 1.02 for a, b in itertools.pairwise(rr_up))
            cases[k] = (_change(rr_up[-1], rr_up[0]), _falls(falls))
        out.append(_result(_claim(
            f"RR falls as F_slack grows to 1.5 (W1, GLTS, from F_slack {below['f_slack'].min():g})",
            "section 5.4, Figure 9", "RR falls with the slack factor up to 1.5",
            "holds: RR at 1.5 below the smallest F_slack's and no step up by more than 2%; "
            "weaker: below"), cases, "{:+.1f}%"))  # fmt: skip
    above = glts[slack > F_SLACK + 1e-9]
    if len(above):
        cases = {}
        for k in KINDS:
            ref = float(base[f"rr_{k}"])
            change = max(abs(_change(float(v), ref)) for v in above[f"rr_{k}"])
            cases[k] = (change, _small(5.0, 10.0))
        out.append(_result(_claim(
            "RR is about flat for F_slack beyond 1.5 (W1, GLTS)", "section 5.4, Figure 9",
            '"approximately equal" beyond 1.5',
            "the largest change from F_slack 1.5's RR; holds within 5%, weaker within 10%"),
            cases, "{:.1f}%"))  # fmt: skip
    return out
