"""Feitelson & Shmueli 2009: the paper's claims, each with what the runs give and a verdict.

The claims and the choices that make the paper's words numbers are listed in
`schedsim.papers.feitelson2009.analyses`' docstring.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd

__all__ = ["claims"]


def _status(hits: int, total: int) -> str:
    if total == 0:
        return "not run"
    if hits == total:
        return "reproduced"
    return "partly" if hits else "not reproduced"


def _clock(hour: float) -> str:
    if math.isnan(hour):
        return "not by 8:00"
    minutes = round((hour % 24.0) * 60) % (24 * 60)
    return f"{minutes // 60}:{minutes % 60:02d}"


def claims(gain: pd.DataFrame, queue: pd.DataFrame, users: int) -> pd.DataFrame:
    """The paper's claims (module docstring), each with what the runs give."""
    rows: list[dict[str, Any]] = []

    def add(claim: str, where: str, paper: str, values: Mapping[str, tuple[str, bool]]) -> None:
        hits = sum(ok for _, ok in values.values())
        rows.append({"claim": claim, "where": where, "paper": paper,
                     "schedsim": "; ".join(f"{k}: {v}" for k, (v, _) in values.items()) or "-",
                     "holds": f"{hits} of {len(values)}",
                     "status": _status(hits, len(values))})  # fmt: skip

    def per_estimate(frame: pd.DataFrame, value: Callable[[pd.DataFrame], tuple[str, bool]]
                     ) -> dict[str, tuple[str, bool]]:  # fmt: skip
        return {est: value(g) for est, g in frame.groupby("estimates")} if len(frame) else {}

    if len(gain):
        off = gain[~gain["cycle"]]
        add("without daily cycles CREASY's throughput is EASY's, at every load",
            "section 4, Figure 2(a)", "virtually no difference (here: every gain within 10%)",
            per_estimate(off, lambda g: (f"gains {g['gain_pct'].min():+.1f}% to "
                                         f"{g['gain_pct'].max():+.1f}%",
                                         bool((g["gain_pct"].abs() <= 10).all()))))  # fmt: skip
        on = gain[gain["cycle"] & (gain["users"] == users)]
        top = float(on["alpha"].max()) if len(on) else math.nan
        best = on[on["alpha"] == top]
        add(f"with daily cycles, at {users} users and the largest alpha, CREASY beats EASY by "
            "more than 50%", "section 4, Figure 4", "more than 50% (alpha 6000, 250 users)",
            per_estimate(best, lambda g: (f"{g['gain_pct'].iloc[0]:+.1f}%",
                                          bool(g["gain_pct"].iloc[0] > 50))))  # fmt: skip

        def rising(g: pd.DataFrame) -> tuple[str, bool]:
            s = g.sort_values("alpha")["gain_pct"].to_numpy()
            return (", ".join(f"{v:+.0f}%" for v in s), bool(s[-1] > 0 and s[-1] >= s[0]))

        add(f"with daily cycles the gain grows with alpha ({users} users)", "section 4, Figure 4",
            "throughput improves as alpha increases", per_estimate(on, rising))  # fmt: skip
    if len(queue):
        off_q = queue[~queue["cycle"]]
        add("without daily cycles the queue is about constant over the day",
            "section 4, Figure 5", "essentially constant (here: largest / smallest under 1.5)",
            {f"{r.policy}, {r.estimates}": (f"{r.spread:.2f}", bool(r.spread < 1.5))
             for r in off_q.itertuples()})  # fmt: skip
        on_q = queue[queue["cycle"]]
        pairs: dict[str, tuple[str, bool]] = {}
        drains: dict[str, tuple[str, bool]] = {}
        for est, g in on_q.groupby("estimates"):
            easy = g[g["policy"] == "EASY"]["drain_hour"]
            creasy = g[g["policy"] != "EASY"]["drain_hour"]
            if len(easy) and len(creasy):
                e, c = float(easy.iloc[0]), float(creasy.iloc[0])
                faster = not math.isnan(e) and (math.isnan(c) or e < c)
                pairs[str(est)] = (f"EASY {_clock(e)}, CREASY {_clock(c)}", faster)
            if len(creasy):
                c = float(creasy.iloc[0])
                drains[str(est)] = (_clock(c), bool(not math.isnan(c) and 30.0 <= c <= 32.0))
        add("with daily cycles EASY's queue drains much faster than CREASY's",
            "section 4, Figures 5 and 6", "EASY's night sampled at 20:00, CREASY's at 23:00",
            pairs)  # fmt: skip
        add(
            f"CREASY's queue drains around 7 AM (1-hour jobs, {users} users)",
            "section 4",
            "around 7 AM (here: 6:00-8:00)",
            drains,
        )
    return pd.DataFrame(rows, columns=["claim", "where", "paper", "schedsim", "holds",
                                       "status"])  # fmt: skip
