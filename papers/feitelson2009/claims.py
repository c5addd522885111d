"""Feitelson & Shmueli 2009: the paper's claims, each with what the runs give and a verdict.

The claims and the choices that make the paper's words numbers are listed in
`schedsim.papers.feitelson2009.analyses`' docstring. `CLAIMS` is the data (``{users}``
stands for the study's largest population); each claim's cases come from one small
function of the gains or the queue table, one case per kind of estimates (or policy);
the verdict is `ALL_OR_ANY`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import pandas as pd

from schedsim.app.claims import Case, Claim, Ours, claims_table, score

__all__ = ["CLAIMS", "claims"]

FLAT = "without daily cycles CREASY's throughput is EASY's, at every load"
BEATS = ("with daily cycles, at {users} users and alpha 6000, CREASY beats EASY by "
         "more than 50%")  # fmt: skip
UTILIZATION = ("with daily cycles, at {users} users and alpha 6000, CREASY's utilization "
               "beats EASY's by more than 50%")  # fmt: skip
GROWS = "with daily cycles the gain grows with alpha ({users} users)"
MARGINAL = "with daily cycles, beyond alpha 6000 the gain is marginal ({users} users)"
CONSTANT = "without daily cycles the queue is about constant over the day"
DRAINS = "with daily cycles EASY's queue drains much faster than CREASY's"
SEVEN = "CREASY's queue drains around 7 AM (1-hour jobs, {users} users)"

#: The paper's claims: on the gains (the first five), on the queue (the last three).
CLAIMS: tuple[Claim, ...] = (
    Claim(FLAT, "section 4, Figure 2(a)", "virtually no difference (here: every gain within 10%)",
          "%"),
    Claim(BEATS, "section 4, Figure 4", "more than 50% (alpha 6000, 250 users)", "%"),
    Claim(UTILIZATION, "section 1; section 4, Figure 4(b)",
          "throughput and utilization improve by up to 50% (more than 50% at 250 users)", "%"),
    Claim(GROWS, "section 4, Figure 4", "throughput improves as alpha increases", "%"),
    Claim(MARGINAL, "section 2",
          "improvements beyond 6000 are marginal (here: the gain at the largest alpha above "
          "6000 at most 5 points above the gain at 6000; not run without such an alpha)", "%"),
    Claim(CONSTANT, "section 4, Figure 5",
          "essentially constant (here: largest / smallest under 1.5)", "ratio"),
    Claim(DRAINS, "section 4, Figures 5 and 6", "EASY's night sampled at 20:00, CREASY's at 23:00",
          "time of day"),
    Claim(SEVEN, "section 4", "around 7 AM (here: 6:00-8:00)", "time of day"),
)  # fmt: skip


def _clock(hour: float) -> str:
    if math.isnan(hour):
        return "not by 8:00"
    minutes = round((hour % 24.0) * 60) % (24 * 60)
    return f"{minutes // 60}:{minutes % 60:02d}"


def _per_estimate(frame: pd.DataFrame, case: Callable[[pd.DataFrame], tuple[str, bool]]
                  ) -> list[Case]:  # fmt: skip
    """One case per kind of estimates: ``case(rows)`` -> (ours shown, holds)."""
    if not len(frame):
        return []
    return [Case(str(est), *case(g)) for est, g in frame.groupby("estimates")]


def _flat(off: pd.DataFrame) -> list[Case]:
    return _per_estimate(off, lambda g: (f"gains {g['gain_pct'].min():+.1f}% to "
                                         f"{g['gain_pct'].max():+.1f}%",
                                         bool((g["gain_pct"].abs() <= 10).all())))  # fmt: skip


def _beats(best: pd.DataFrame) -> list[Case]:
    return _per_estimate(best, lambda g: (f"{g['gain_pct'].iloc[0]:+.1f}%",
                                          bool(g["gain_pct"].iloc[0] > 50)))  # fmt: skip


def _utilization(at_6000: pd.DataFrame) -> list[Case]:
    def case(g: pd.DataFrame) -> tuple[str, bool]:
        gain = float(g["utilization_gain_pct"].iloc[0])
        return f"{gain:+.1f}%", gain > 50

    return _per_estimate(at_6000, case)


def _marginal(on: pd.DataFrame) -> list[Case]:
    """Per estimates: the gain at the largest alpha above 6000 against the gain at 6000
    (no case without both: the claim is not run)."""
    cases = []
    for est, g in on.groupby("estimates"):
        at = g[g["alpha"] == 6000.0]["gain_pct"]
        beyond = g[g["alpha"] > 6000.0].sort_values("alpha")
        if len(at) and len(beyond):
            a, b = float(at.iloc[0]), float(beyond["gain_pct"].iloc[-1])
            top = f"{beyond['alpha'].iloc[-1]:g}"
            cases.append(Case(str(est), f"{a:+.0f}% at 6000, {b:+.0f}% at {top}", b - a <= 5.0))
    return cases


def _rising(g: pd.DataFrame) -> tuple[str, bool]:
    s = g.sort_values("alpha")["gain_pct"].to_numpy()
    return ", ".join(f"{v:+.0f}%" for v in s), bool(s[-1] > 0 and s[-1] >= s[0])


def _constant(off: pd.DataFrame) -> list[Case]:
    return [Case(f"{r.policy}, {r.estimates}", f"{r.spread:.2f}", bool(r.spread < 1.5))
            for r in off.itertuples()]  # fmt: skip


def _drains(on: pd.DataFrame) -> tuple[list[Case], list[Case]]:
    """EASY's drain against CREASY's, and CREASY's drain around 7 AM, per estimates."""
    pairs, sevens = [], []
    for est, g in on.groupby("estimates"):
        easy = g[g["policy"] == "EASY"]["drain_hour"]
        creasy = g[g["policy"] != "EASY"]["drain_hour"]
        if len(easy) and len(creasy):
            e, c = float(easy.iloc[0]), float(creasy.iloc[0])
            faster = not math.isnan(e) and (math.isnan(c) or e < c)
            pairs.append(Case(str(est), f"EASY {_clock(e)}, CREASY {_clock(c)}", faster))
        if len(creasy):
            c = float(creasy.iloc[0])
            sevens.append(Case(str(est), _clock(c), bool(not math.isnan(c) and 30.0 <= c <= 32.0)))
    return pairs, sevens


def claims(gain: pd.DataFrame, queue: pd.DataFrame, users: int) -> pd.DataFrame:
    """The paper's claims (`CLAIMS`), each with what the runs give: those on the gains
    when there are gains, those on the queue when there is a queue table."""
    ours: dict[str, Ours] = {}
    if len(gain):
        on = gain[gain["cycle"] & (gain["users"] == users)]
        ours[FLAT] = lambda: _flat(gain[~gain["cycle"]])
        ours[BEATS] = lambda: _beats(on[on["alpha"] == 6000.0])
        if "utilization_gain_pct" in on:
            ours[UTILIZATION] = lambda: _utilization(on[on["alpha"] == 6000.0])
        ours[GROWS] = lambda: _per_estimate(on, _rising)
        ours[MARGINAL] = lambda: _marginal(on)
    if len(queue):
        pairs, sevens = _drains(queue[queue["cycle"]])
        ours[CONSTANT] = lambda: _constant(queue[~queue["cycle"]])
        ours[DRAINS] = lambda: pairs
        ours[SEVEN] = lambda: sevens
    chosen = [replace(c, key=c.key.format(users=users)) for c in CLAIMS if c.key in ours]
    named = {c.key.format(users=users): f for c in CLAIMS if (f := ours.get(c.key))}
    return claims_table(score(chosen, named), form="{name}: {shown}", sep="; ")
