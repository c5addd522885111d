"""Schwiegelshohn & Yahyapour 1998: the paper's claims, each per reading of the study, with
what the runs give and a verdict.

What is measured is `schedsim.papers.schwiegelshohn1998.analyses`' (its docstring gives
the choices).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from schedsim.papers.schwiegelshohn1998.analyses import (
    FACTOR,
    SENSITIVE,
    SIGNIFICANT,
    _percents,
    _readings,
    sums,
)
from schedsim.papers.schwiegelshohn1998.tables import STRATEGIES, TABLES

__all__ = ["claims"]


# -- the claims ---------------------------------------------------------------------------


def _pct(v: float) -> str:
    return "n/a" if not np.isfinite(v) else f"{v:+.1f}%"


def _status(hits: int, some: int, n: int) -> str:
    if n == 0:
        return "not run"
    if hits == n:
        return "reproduced"
    return "partly" if some else "not reproduced"


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
    """
    summed = sums(values)
    rows: list[dict[str, Any]] = []

    def add(claim: str, where: str, paper: str, schedsim: str, hits: int, some: int,
            n: int) -> None:  # fmt: skip
        rows.append({"claim": claim, "where": where, "paper": paper, "schedsim": schedsim,
                     "holds": f"{hits} of {n}", "status": _status(hits, some, n)})  # fmt: skip

    numbers = [t.number for t in TABLES]
    for reading in _readings(values):
        col = f"{reading}_sum"
        sub = summed.set_index(["table", "strategy"])
        for i, s in enumerate(STRATEGIES):
            paper_sums = [t.total[i] for t in TABLES]
            mine = [float(sub.loc[(n, s), col]) for n in numbers]
            run = [(p, o) for p, o in zip(paper_sums, mine, strict=True) if np.isfinite(o)]
            sign = sum(np.sign(o) == np.sign(p) for p, o in run)
            full = sum(np.sign(o) == np.sign(p) and 1 / FACTOR <= o / p <= FACTOR for p, o in run)
            side = "better" if paper_sums[0] < 0 else "worse"
            low, high = min(abs(p) for p in paper_sums), max(abs(p) for p in paper_sums)
            add(f"{s} is {side} than FCFS in every table (queue {reading})",
                "Tables 4-9, Sum rows",
                f"{side} by {low:.1f}-{high:.1f}% (here: on that side of FCFS and within a "
                f"factor {FACTOR:g} of the paper's Sum, per table)",
                "; ".join(f"T{n} {_pct(o)}" for n, o in zip(numbers, mine, strict=True))
                + f"; on the paper's side in {sign} of {len(run)}",
                int(full), int(sign >= len(run) / 2 and sign > 0), len(run))  # fmt: skip
        best, worst, spread = [], [], []
        for n in numbers:
            per = {s: float(sub.loc[(n, s), col]) for s in STRATEGIES}
            per = {s: v for s, v in per.items() if np.isfinite(v)}
            if not per:
                continue
            b, w = min(per, key=per.__getitem__), max(per, key=per.__getitem__)
            best.append((n, b, per[b]))
            worst.append((n, w, per[w]))
            spread.append((n, per[w] - per[b], len(per)))
        hits = sum(v <= -SIGNIFICANT for _, _, v in best)
        add(f"significant improvements over FCFS are possible (queue {reading})",
            "section 6; Tables 4-9",
            f"PFCFS2 10.4-38.0% better in every table (here: some strategy's Sum at least "
            f"{SIGNIFICANT:g}% better, per table)",
            "best: " + "; ".join(f"T{n} {s} {_pct(v)}" for n, s, v in best),
            hits, hits, len(best))  # fmt: skip
        hits = sum(v > 0 for _, _, v in worst)
        add(f"FCFS may still outperform some preemptive methods (queue {reading})",
            "section 6; Tables 4-9",
            "PFCFS3 12.3-55.6% worse in every table (here: some strategy's Sum worse than "
            "FCFS, per table)",
            "worst: " + "; ".join(f"T{n} {s} {_pct(v)}" for n, s, v in worst),
            hits, hits, len(worst))  # fmt: skip
        _, pct = _percents(values, "weighted_flow_time", 128)
        nov = float(pct[(reading, "PFCFS2")]["1996-11"])
        jan = float(pct[(reading, "PFCFS2")]["1997-01"])
        ran = int(np.isfinite(nov))
        add(f"PFCFS2 almost 50% better than FCFS in November 1996 (queue {reading})",
            "section 6; Table 6, weighted flow time, 128 nodes",
            "-47.3% (here: at least 40% better)", _pct(nov),
            int(ran and nov <= -40.0), int(ran and nov < 0), ran)  # fmt: skip
        ran = int(np.isfinite(jan))
        add(f"PFCFS2 more than 9% worse than FCFS in January 1997 (queue {reading})",
            "section 6; Table 6, weighted flow time, 128 nodes",
            "+9.6% (here: more than 9% worse)", _pct(jan),
            int(ran and jan > 9.0), int(ran and jan > 0), ran)  # fmt: skip
        full_spread = [(n, d) for n, d, k in spread if k == len(STRATEGIES)]
        hits = sum(d >= SENSITIVE for _, d in full_spread)
        add(f"the schedule quality is very sensitive to the preemption strategy (queue {reading})",
            "section 6; Tables 4-9",
            f"the Sum rows span 25.0-93.6 points per table (here: at least {SENSITIVE:g} "
            "points, per table)",
            "; ".join(f"T{n} {d:.1f} points" for n, d in full_spread),
            hits, hits, len(full_spread))  # fmt: skip
    return pd.DataFrame(rows, columns=["claim", "where", "paper", "schedsim", "holds", "status"])
