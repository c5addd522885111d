"""Schwiegelshohn & Yahyapour 1998: the paper's claims, each per reading of the study, with
what the runs give and a verdict.

What is measured is `schedsim.papers.schwiegelshohn1998.analyses`' (its docstring gives
the choices).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from schedsim.app.claims import (
    ALL_OR_HALF_WEAK,
    Case,
    Claim,
    ClaimResult,
    claims_table,
)
from schedsim.papers.schwiegelshohn1998.analyses import (
    FACTOR,
    SENSITIVE,
    SIGNIFICANT,
    _percents,
    _readings,
    sums,
)
from schedsim.papers.schwiegelshohn1998.tables import STRATEGIES, TABLES

__all__ = ["CLAIMS", "claims"]


def _pct(v: float) -> str:
    return "n/a" if not np.isfinite(v) else f"{v:+.1f}%"


_SECTION6 = "section 6; Tables 4-9"
_TABLE6 = "section 6; Table 6, weighted flow time, 128 nodes"
SIDE = "{strategy} is {side} than FCFS in every table (queue {reading})"
IMPROVE = "significant improvements over FCFS are possible (queue {reading})"
OUTPERFORM = "FCFS may still outperform some preemptive methods (queue {reading})"
NOVEMBER = "PFCFS2 almost 50% better than FCFS in November 1996 (queue {reading})"
JANUARY = "PFCFS2 more than 9% worse than FCFS in January 1997 (queue {reading})"
SENSITIVITY = "the schedule quality is very sensitive to the preemption strategy (queue {reading})"

#: The paper's claims, each scored per reading of the study (``{reading}``); `SIDE`, the
#: Sum rows of each strategy, is `_side_claim`'s (its text depends on the paper's Sums).
CLAIMS: tuple[Claim, ...] = (
    Claim(IMPROVE, _SECTION6,
          f"PFCFS2 10.4-38.0% better in every table (here: some strategy's Sum at least "
          f"{SIGNIFICANT:g}% better, per table)", "%"),
    Claim(OUTPERFORM, _SECTION6, "PFCFS3 12.3-55.6% worse in every table (here: some "
          "strategy's Sum worse than FCFS, per table)", "%"),
    Claim(NOVEMBER, _TABLE6, "-47.3% (here: at least 40% better)", "%"),
    Claim(JANUARY, _TABLE6, "+9.6% (here: more than 9% worse)", "%"),
    Claim(SENSITIVITY, _SECTION6, f"the Sum rows span 25.0-93.6 points per table (here: at "
          f"least {SENSITIVE:g} points, per table)", "points"),
)  # fmt: skip


def _side_claim(strategy: str, reading: str, paper_sums: list[float]) -> Claim:
    """The Sum rows of ``strategy``: on the paper's side of FCFS and within a factor
    `FACTOR` of the paper's Sum, per table (partly: on that side in half of them)."""
    side = "better" if paper_sums[0] < 0 else "worse"
    low, high = min(abs(p) for p in paper_sums), max(abs(p) for p in paper_sums)
    return Claim(SIDE.format(strategy=strategy, side=side, reading=reading),
                 "Tables 4-9, Sum rows",
                 f"{side} by {low:.1f}-{high:.1f}% (here: on that side of FCFS and within a "
                 f"factor {FACTOR:g} of the paper's Sum, per table)", "%",
                 tally=ALL_OR_HALF_WEAK)  # fmt: skip


def _sides(sub: pd.DataFrame, col: str, reading: str) -> list[ClaimResult]:
    numbers = [t.number for t in TABLES]
    out = []
    for i, s in enumerate(STRATEGIES):
        paper_sums = [t.total[i] for t in TABLES]
        mine = [float(sub.loc[(n, s), col]) for n in numbers]
        cases = [
            Case(
                f"T{n}",
                _pct(o),
                bool(np.sign(o) == np.sign(p) and 1 / FACTOR <= o / p <= FACTOR),
                bool(np.sign(o) == np.sign(p)),
            )
            for n, p, o in zip(numbers, paper_sums, mine, strict=True)
            if np.isfinite(o)
        ]
        sign = sum(bool(c.weak) for c in cases)
        shown = (
            "; ".join(f"T{n} {_pct(o)}" for n, o in zip(numbers, mine, strict=True))
            + f"; on the paper's side in {sign} of {len(cases)}"
        )
        out.append(ClaimResult(_side_claim(s, reading, paper_sums), cases, shown=shown))
    return out  # fmt: skip


def _extremes(sub: pd.DataFrame, col: str) -> tuple[list, list, list]:
    """Per table: the best and worst strategy's Sum, and the span of the Sums."""
    best, worst, spread = [], [], []
    for n in [t.number for t in TABLES]:
        per = {s: float(sub.loc[(n, s), col]) for s in STRATEGIES}
        per = {s: v for s, v in per.items() if np.isfinite(v)}
        if not per:
            continue
        b, w = min(per, key=per.__getitem__), max(per, key=per.__getitem__)
        best.append((n, b, per[b]))
        worst.append((n, w, per[w]))
        spread.append((n, per[w] - per[b], len(per)))
    return best, worst, spread


def _month(claim: Claim, value: float, holds: bool, weak: bool) -> ClaimResult:
    """One month's PFCFS2 (Table 6): holds when ``holds``, weakly when ``weak`` (on the
    paper's side of FCFS); no case when the month did not run."""
    if not np.isfinite(value):
        return ClaimResult(claim, [], shown=_pct(value))
    return ClaimResult(claim, [Case("", _pct(value), bool(holds), bool(weak))], shown=_pct(value))


def _reading(values: pd.DataFrame, summed: pd.DataFrame, reading: str) -> list[ClaimResult]:
    """Every claim under one reading of the study, in the paper's order."""
    col = f"{reading}_sum"
    sub = summed.set_index(["table", "strategy"])
    improve, outperform, november, january, sensitivity = (
        replace(c, key=c.key.format(reading=reading)) for c in CLAIMS)  # fmt: skip
    best, worst, spread = _extremes(sub, col)
    _, pct = _percents(values, "weighted_flow_time", 128)
    nov = float(pct[(reading, "PFCFS2")]["1996-11"])
    jan = float(pct[(reading, "PFCFS2")]["1997-01"])
    full = [(n, d) for n, d, k in spread if k == len(STRATEGIES)]
    return [
        *_sides(sub, col, reading),
        ClaimResult(improve, [Case(f"T{n}", "", v <= -SIGNIFICANT) for n, _, v in best],
                    shown="best: " + "; ".join(f"T{n} {s} {_pct(v)}" for n, s, v in best)),
        ClaimResult(outperform, [Case(f"T{n}", "", v > 0) for n, _, v in worst],
                    shown="worst: " + "; ".join(f"T{n} {s} {_pct(v)}" for n, s, v in worst)),
        _month(november, nov, nov <= -40.0, nov < 0),
        _month(january, jan, jan > 9.0, jan > 0),
        ClaimResult(sensitivity, [Case(f"T{n}", "", d >= SENSITIVE) for n, d in full],
                    shown="; ".join(f"T{n} {d:.1f} points" for n, d in full)),
    ]  # fmt: skip


def claims(values: pd.DataFrame) -> pd.DataFrame:
    """The paper's claims, each per reading of the study, with the rule it is checked by.

    * The Sum rows of each strategy (Tables 4-9): per table, the direction
      (ours on the same side of FCFS) and the rough magnitude (ours within a
      factor `FACTOR` of the paper's Sum). Reproduced when both hold in every
      table; partly when the direction holds in at least half of them.
    * "significant improvements over FCFS are possible" (section 6): in every
      table some strategy's Sum is at least `SIGNIFICANT` percent better than FCFS
      (the paper's PFCFS2: 10.4-38.0%). Partly: in some tables.
    * "FCFS may still outperform some preemptive methods" (section 6): in every
      table some strategy's Sum is worse than FCFS (the paper's PFCFS3: all
      six). Partly: in some tables.
    * PFCFS2 "produced almost 50% improvement over FCFS for November 1996"
      (weighted flow time, 128 nodes, Table 6: -47.3%): reproduced when ours
      is at least 40% better, partly when it is better at all.
    * PFCFS2 "performed more than 9% worse than FCFS in January 1997" (same
      table: +9.6%): reproduced above +9%, partly when worse at all.
    * "the schedule quality is very sensitive to the preemption strategy"
      (section 6): in every table the three Sum rows span at least
      `SENSITIVE` percentage points (the paper's span 25.0-93.6). Partly: in
      some tables.

    Every claim but the Sum rows' is decided by `ALL_OR_ANY`.
    """
    summed = sums(values)
    results = [r for reading in _readings(values) for r in _reading(values, summed, reading)]
    return claims_table(results)
