"""Feitelson & Shmueli 2009: the paper's claims, each with what the runs give and a verdict.

`CLAIMS` is the data: every quantitative claim of the paper's abstract, results and
conclusions, each with its numeric reading (a `schedsim.app.claims.Rule`, fixed from
the paper's words before our numbers were seen; its ``rule`` text) and its tally
(`schedsim.app.claims.Need`); "the heaviest load" is the population the claims are
read at (the paper's 250 users, the study's largest; a case names it). Ours is an
`Estimate` over the study's replications (each replication's CREASY against EASY of the
same replication). The verdict is the one rule of `schedsim.app.claims.RULE`.

`claims` scores one reading's gains and queue tables
(`schedsim.papers.feitelson2009.analyses`). The claims on the paper's 1-hour jobs are read
from the runs whose users' longest job is `analyses.MAX_RUNTIME`; "with jobs of up to 2
hours ... 4 hours" (`LONGER`) from runs with ``max_runtime`` 7200 and 14400 s
(``study-longer.toml``). Where no schedule could reach the night's reading against our
EASY (`schedsim.papers.feitelson2009.bound`), the night claim's note says it is out of
reach at that load.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd

from schedsim.app.claims import (
    ALL,
    Case,
    Claim,
    ClaimResult,
    Estimate,
    Ours,
    Rule,
    at_least,
    at_most,
    between,
    change,
    score,
)
from schedsim.papers.feitelson2009.analyses import DRAINED, MAX_RUNTIME
from schedsim.papers.feitelson2009.bound import night_bound

__all__ = [
    "CLAIMS",
    "LONGER_RULES",
    "LONGER_RUNTIMES",
    "NIGHT_LEAST",
    "RULES",
    "claim_results",
    "claims",
]

FLAT = "without daily cycles CREASY's throughput is EASY's, at every load"
BEATS = "with daily cycles, at the heaviest load and alpha 6000, CREASY beats EASY by more than 50%"
NIGHT = "with daily cycles CREASY delays work to the night, using cores EASY leaves idle"
UTILIZATION = ("with daily cycles, at the heaviest load and alpha 6000, CREASY's utilization "
               "beats EASY's by up to 50%")  # fmt: skip
GROWS = "with daily cycles the gain grows with alpha (the heaviest load)"
MARGINAL = "with daily cycles, beyond alpha 6000 the gain is marginal (the heaviest load)"
REALISTIC = "without daily cycles utilization is unrealistically high (the heaviest load)"
CONSTANT = "without daily cycles the queue is about constant over the day"
BUILDS = "with daily cycles CREASY's queue builds up during the day"
DRAINS = "with daily cycles EASY's queue drains much faster than CREASY's"
SEVEN = "CREASY's queue drains around 7 AM (1-hour jobs, the heaviest load)"
LONGER = "with jobs of up to 2 hours CREASY's queue does not drain; with 4 hours the cycle fades"

#: Percent: how much busier than EASY's CREASY's night must be ("resources that otherwise
#: would have been left idle": a quarter more busy cores, fixed before our numbers).
NIGHT_LEAST = 25.0
#: Seconds: the users' longest job in section 4.1's other runs ("If jobs running for up
#: to 2 hours are allowed ... If jobs up to 4 hours long are allowed").
LONGER_RUNTIMES: tuple[float, float] = (7200.0, 14400.0)
#: The readings of `LONGER`'s three cases, fixed before any run with longer jobs was
#: seen: with 2-hour jobs "the queue does not drain completely" (CREASY's average queue,
#: Figure 5's, stays above `analyses.DRAINED` all night, 18:00-8:00) "but the daily cycle
#: still has a significant effect" (its largest over smallest average over the day at
#: least 1.5: not "essentially constant" by `CONSTANT`'s reading); with 4 hours "the
#: simulation essentially becomes similar to a simulation without a daily cycle" (at
#: most 1.5, `CONSTANT`'s reading of "essentially constant").
LONGER_RULES: dict[str, Rule] = {
    "2 hours, smallest queue at night": at_least(DRAINED, DRAINED),
    "2 hours, largest / smallest queue": at_least(1.5, 1.5),
    "4 hours, largest / smallest queue": at_most(1.5, 1.5),
}

#: Each claim's numeric reading, chosen from the paper's words before our numbers were
#: seen (the claim's ``rule`` says why).
RULES: dict[str, Rule] = {
    # "virtually no difference", "performs similarly": within +-10% (alpha 6000 against 0).
    FLAT: between(-10.0, 10.0),
    # "the improvement over EASY surpasses 50%" (Figure 4's caption: "by more than 50%").
    BEATS: change(50.0),
    # "delaying less critical work to nighttime, when it can utilize resources that
    # otherwise would have been left idle": CREASY's busy cores at night (18:00-8:00)
    # at least a quarter above EASY's.
    NIGHT: at_least(NIGHT_LEAST),
    # "throughput and utilization improve by up to 50%" (introduction).
    UTILIZATION: change(50.0),
    # "both throughput and utilization improve for CREASY as alpha increases": each step
    # of alpha raises the gain.
    GROWS: at_least(0.0),
    # "marginal": at most 5 points more at the largest alpha beyond 6000 (a tenth of the
    # 50% at 6000).
    MARGINAL: at_most(5.0, 5.0),
    # "unrealistically high ... would never be achieved in reality" against the cycle's
    # "much more realistic" values: the cycle lowers utilization by at least a fifth.
    REALISTIC: at_most(-20.0),
    # "essentially constant": the largest average over the smallest under 1.5.
    CONSTANT: at_most(1.5, 1.5),
    # "the queue length builds up continuously during the day": at 17:50 at least a
    # quarter longer than at 10:00.
    BUILDS: at_least(25.0),
    # "EASY's queue drains much faster": Figure 6 samples EASY's night at 20:00 and
    # CREASY's at 23:00, "since EASY's queue drains much faster": EASY empty at least
    # 3 hours before CREASY (a night not drained by 8:00 counts as 8:00).
    DRAINS: at_least(3.0),
    # "the queue finally drains around 7 AM": between 6:00 and 8:00 (hours from the
    # evening's midnight: 30-32).
    SEVEN: between(30.0, 32.0),
    LONGER: LONGER_RULES["4 hours, largest / smallest queue"],  # and the 2 hours' two
}

_TEXTS: dict[str, str] = {
    FLAT: "gain within +-10% at alpha 6000, every load; direction only: none",
    BEATS: "+50% within 25% (37.5% to 62.5%), or our interval covers +50%; direction only: above 0",
    NIGHT: "CREASY's busy cores at night (18:00-8:00) at least 25% above EASY's; direction "
    "only: above 0",
    UTILIZATION: "+50% within 25% (37.5% to 62.5%), or our interval covers +50%; direction "
    "only: above 0",
    GROWS: "each step of alpha raises the gain (points >= 0)",
    MARGINAL: "at most 5 points more at the largest alpha beyond 6000 than at 6000",
    REALISTIC: "utilization with the cycle at least 20% below without; direction only: below",
    CONSTANT: "largest / smallest average queue over the day at most 1.5",
    BUILDS: "queue at 17:50 at least 25% above at 10:00; direction only: above",
    DRAINS: "CREASY's drain at least 3 h after EASY's (not by 8:00 counts as 8:00); "
    "direction only: after",
    SEVEN: "drains between 6:00 and 8:00",
    LONGER: "2 hours: CREASY's average queue above 1 job all night (18:00-8:00) and its "
    "largest / smallest over the day at least 1.5; 4 hours: at most 1.5 (as without the cycle)",
}

#: The paper's claims: on the gains, then on the queue.
CLAIMS: tuple[Claim, ...] = (
    Claim(FLAT, "abstract; section 3.1, Figure 2(a); conclusions",
          "virtually no difference in throughput as alpha increases", "%", _TEXTS[FLAT],
          ALL, headline=True),
    Claim(BEATS, "section 3.2, Figure 4; conclusions (\"the 50% improvement\")",
          "the improvement over EASY surpasses 50%", "%", _TEXTS[BEATS], ALL, headline=True),
    Claim(NIGHT, "abstract; section 4.1; conclusions",
          "less critical work delayed to the nighttime, using resources otherwise left idle",
          "%", _TEXTS[NIGHT], ALL, headline=True),
    Claim(UTILIZATION, "section 1; section 3.2, Figure 4(b)",
          "throughput and utilization improve by up to 50%", "%", _TEXTS[UTILIZATION], ALL),
    Claim(GROWS, "section 3.2, Figure 4", "throughput improves as alpha increases",
          "points", _TEXTS[GROWS], ALL),
    Claim(MARGINAL, "section 2", "beyond 6000, improvements in performance are marginal",
          "points", _TEXTS[MARGINAL], ALL),
    Claim(REALISTIC, "section 1; section 3.2",
          "without cycles unrealistically high; with them much more realistic", "%",
          _TEXTS[REALISTIC], ALL),
    Claim(CONSTANT, "section 4.1, Figure 5", "essentially constant", "ratio",
          _TEXTS[CONSTANT], ALL),
    Claim(BUILDS, "section 4.1, Figure 5(b)", "builds up continuously during the day", "%",
          _TEXTS[BUILDS], ALL),
    Claim(DRAINS, "section 4.1-4.2, Figures 5 and 6",
          "EASY's night sampled at 20:00, CREASY's at 23:00, EASY draining much faster",
          "h", _TEXTS[DRAINS], ALL),
    Claim(SEVEN, "section 4.1", "finally drains around 7 AM", "time of day", _TEXTS[SEVEN],
          ALL),
    Claim(LONGER, "section 4.1",
          "2-hour jobs: the queue does not drain completely; 4 hours: like no daily cycle",
          "", _TEXTS[LONGER], ALL),
)  # fmt: skip


def _clock(hour: float) -> str:
    if math.isnan(hour):
        return "not by 8:00"
    minutes = round((hour % 24.0) * 60) % (24 * 60)
    return f"{minutes // 60}:{minutes % 60:02d}"


def _estimate(values: pd.Series | np.ndarray | list[float]) -> Estimate:
    return Estimate.of([float(v) for v in values])


def _pct(e: Estimate) -> str:
    return e.text("{:+.1f}", "%")


def _gain_case(rule: Rule, name: str, rows: pd.DataFrame, column: str = "gain_pct") -> Case:
    """A case on a gain (percent) over the replications of ``rows``."""
    e = _estimate(rows[column])
    return rule.case(name, e, _pct(e))


def _flat(off: pd.DataFrame) -> list[Case]:
    """Without the cycle, at alpha 6000 (the paper's comparison), one case per load."""
    at = off[off["alpha"] == (6000.0 if (off["alpha"] == 6000.0).any() else off["alpha"].max())]
    return [_gain_case(RULES[FLAT], f"{u} users", g) for u, g in at.groupby("users")]


def _at_6000(on: pd.DataFrame, key: str, column: str, users: int) -> list[Case]:
    at = on[on["alpha"] == 6000.0]
    return [_gain_case(RULES[key], f"{users} users, alpha 6000", at, column)] if len(at) else []


def _grows(on: pd.DataFrame, users: int) -> list[Case]:
    """One case per step of alpha: the gain at the step's top minus at its bottom, per
    replication (alpha 0's gain is 0), in points."""
    if not len(on):
        return []
    table = on.pivot_table(index="replication", columns="alpha", values="gain_pct")
    table.insert(0, 0.0, 0.0)
    alphas = list(table.columns)
    cases = []
    for a0, a1 in itertools.pairwise(alphas):
        e = _estimate((table[a1] - table[a0]).dropna().to_numpy())
        cases.append(RULES[GROWS].case(f"{users} users, {a0:g} to {a1:g}", e, e.text("{:+.1f}")))
    return cases


def _marginal(on: pd.DataFrame, users: int) -> list[Case]:
    """The gain at the largest alpha above 6000 against the gain at 6000, per replication
    (no case without both: the claim is not checked)."""
    at = on[on["alpha"] == 6000.0].set_index("replication")["gain_pct"]
    beyond = on[on["alpha"] > 6000.0]
    if not len(at) or not len(beyond):
        return []
    top = float(beyond["alpha"].max())
    far = beyond[beyond["alpha"] == top].set_index("replication")["gain_pct"]
    both = at.index.intersection(far.index)
    e = _estimate((far[both] - at[both]).to_numpy())
    means = f"{at[both].mean():+.0f}% at 6000, {far[both].mean():+.0f}% at {top:g}"
    shown = f"{e.text('{:+.1f}')} points ({means})"
    return [RULES[MARGINAL].case(f"{users} users, alpha {top:g}", e, shown)]


def _realistic(runs: pd.DataFrame, users: int) -> list[Case]:
    """EASY and CREASY at 6000: utilization with the cycle over without, per replication."""
    cases = []
    for alpha, name in ((0.0, "EASY"), (6000.0, "CREASY(6000)")):
        mine = runs[runs["alpha"] == alpha]
        on = mine[mine["cycle"]].set_index("replication")["utilization"]
        off = mine[~mine["cycle"]].set_index("replication")["utilization"]
        both = on.index.intersection(off.index)
        if len(both):
            e = _estimate(100.0 * (on[both] / off[both] - 1.0))
            cases.append(RULES[REALISTIC].case(f"{users} users, {name}", e, _pct(e)))
    return cases


def _by_policy(queue: pd.DataFrame) -> dict[str, pd.DataFrame]:
    return {str(p): g for p, g in queue.groupby("policy")}


def _constant(off: pd.DataFrame) -> list[Case]:
    return [RULES[CONSTANT].case(p, e := _estimate(g["spread"]), e.text("{:.2f}"))
            for p, g in _by_policy(off).items()]  # fmt: skip


def _builds(on: pd.DataFrame, users: int) -> list[Case]:
    creasy = on[on["policy"] != "EASY"]
    if not len(creasy):
        return []
    e = _estimate(100.0 * (creasy["queue_18h_jobs"] / creasy["queue_10h_jobs"] - 1.0))
    return [RULES[BUILDS].case(f"{users} users, {creasy['policy'].iloc[0]}", e, _pct(e))]


def _paired(on: pd.DataFrame, column: str) -> tuple[pd.Series, pd.Series]:
    easy = on[on["policy"] == "EASY"].set_index("replication")[column]
    creasy = on[on["policy"] != "EASY"].set_index("replication")[column]
    both = easy.index.intersection(creasy.index)
    return easy[both], creasy[both]


def _night(on: pd.DataFrame, users: int) -> list[Case]:
    easy, creasy = _paired(on, "night_busy_cores")
    if not len(easy):
        return []
    e = _estimate(100.0 * (creasy / easy - 1.0))
    shown = f"{_pct(e)} ({creasy.mean():.1f} against {easy.mean():.1f} busy cores)"
    return [RULES[NIGHT].case(f"{users} users, 18:00-8:00", e, shown)]


def _drains(on: pd.DataFrame, users: int) -> list[Case]:
    """CREASY's drain hour minus EASY's, per replication, a night not drained by 8:00
    taken as 8:00 (so the difference is then a bound)."""
    easy, creasy = _paired(on, "drain_hour")
    if not len(easy):
        return []
    morning = 24.0 + 8.0
    e = _estimate((creasy.fillna(morning) - easy.fillna(morning)).to_numpy())
    clocks = (f"EASY {', '.join(_clock(h) for h in easy)}; "
              f"CREASY {', '.join(_clock(h) for h in creasy)}")  # fmt: skip
    return [RULES[DRAINS].case(f"{users} users", e, f"{e.text('{:+.1f}', ' h')} ({clocks})")]


def _seven(on: pd.DataFrame, users: int) -> list[Case]:
    creasy = on[on["policy"] != "EASY"]["drain_hour"]
    if not len(creasy):
        return []
    clocks = ", ".join(_clock(h) for h in creasy)
    if creasy.isna().any():  # a replication not drained by 8:00: not around 7
        return [Case(f"{users} users", clocks, False, False)]
    e = _estimate(creasy)
    return [RULES[SEVEN].case(f"{users} users", e, f"{_clock(e.value)} ({clocks})")]


def _longer(longer: pd.DataFrame, users: int) -> list[Case]:
    """CREASY's queue with the cycle under 2- and 4-hour jobs (`LONGER_RULES`), over the
    replications; no case unless runs with both are there (the claim needs both)."""
    if not len(longer) or "max_runtime" not in longer:
        return []
    mine = longer[longer["cycle"] & (longer["policy"] != "EASY") & (longer["users"] == users)]
    two, four = (mine[mine["max_runtime"] == s] for s in LONGER_RUNTIMES)
    if not len(two) or not len(four):
        return []
    out = []
    for name, rows, column, unit in (
        ("2 hours, smallest queue at night", two, "night_min_jobs", " jobs"),
        ("2 hours, largest / smallest queue", two, "spread", ""),
        ("4 hours, largest / smallest queue", four, "spread", ""),
    ):
        e = _estimate(rows[column])
        out.append(LONGER_RULES[name].case(f"{users} users, {name}", e, e.text("{:.2f}", unit)))
    return out


def _out_of_reach(on: pd.DataFrame, users: int) -> str:
    """The night claim's note when no schedule can reach `NIGHT_LEAST` against our EASY at
    ``users`` (`bound.night_bound`), else ""."""
    bound = night_bound(on[on["users"] == users], NIGHT_LEAST)
    if not len(bound) or not bound["out_of_reach"].iloc[0]:
        return ""
    b = bound.iloc[0]
    return (f"out of reach at {users} users: no schedule can be more than "
            f"{b['most_gain_pct']:+.1f}% above our EASY's night (at most "
            f"{b['ceiling_cores']:.1f} busy cores, {b['needed_cores']:.1f} needed)")  # fmt: skip


def claim_results(gain: pd.DataFrame, queue: pd.DataFrame, users: int,
                  runs: pd.DataFrame | None = None) -> list[ClaimResult]:  # fmt: skip
    """The paper's claims (`CLAIMS`) for one reading, read at ``users`` users: its gains
    (`analyses.gains`), its queue table (`analyses.queues`) and its runs (for the
    utilization with and without the cycle); a claim whose runs the study lacks has no
    case (not checked, with the reason). Rows of ``queue`` and ``runs`` whose
    ``max_runtime`` is not `analyses.MAX_RUNTIME` count for `LONGER` alone."""
    ours: dict[str, Ours] = {}
    reasons: dict[str, str] = {
        LONGER: "not run: needs runs with max_runtime 7200 and 14400 (study-longer.toml runs them)",
        MARGINAL: "not run: needs an alpha above 6000 (study-alpha.toml runs them)",
    }
    if len(gain):
        here = gain[gain["users"] == users]
        on, off = here[here["cycle"]], gain[~gain["cycle"]]
        ours[FLAT] = lambda: _flat(off)
        ours[BEATS] = lambda: _at_6000(on, BEATS, "gain_pct", users)
        if "utilization_gain_pct" in on:
            ours[UTILIZATION] = lambda: _at_6000(on, UTILIZATION, "utilization_gain_pct", users)
        ours[GROWS] = lambda: _grows(on, users)
        ours[MARGINAL] = lambda: _marginal(on, users)
    longer = pd.DataFrame()
    if len(queue) and "max_runtime" in queue:
        longer = queue[queue["max_runtime"] != MAX_RUNTIME]
        queue = queue[queue["max_runtime"] == MAX_RUNTIME]
    if runs is not None and "max_runtime" in runs:
        runs = runs[runs["max_runtime"] == MAX_RUNTIME]
    if runs is not None and len(runs):
        ours[REALISTIC] = lambda: _realistic(runs[runs["users"] == users], users)
    if len(longer):
        ours[LONGER] = lambda: _longer(longer, users)
    if len(queue):
        at = queue[queue["users"] == users] if "users" in queue else queue
        q_on, q_off = at[at["cycle"]], at[~at["cycle"]]
        ours[NIGHT] = lambda: _night(q_on, users)
        ours[CONSTANT] = lambda: _constant(q_off)
        ours[BUILDS] = lambda: _builds(q_on, users)
        ours[DRAINS] = lambda: _drains(q_on, users)
        ours[SEVEN] = lambda: _seven(q_on, users)
    results = score(CLAIMS, {c.key: ours.get(c.key, list) for c in CLAIMS})
    for result in results:
        if not result.cases:
            result.note = reasons.get(result.claim.key, "not run: the study lacks its runs")
        elif result.claim.key == NIGHT and "night_ceiling_cores" in queue:
            result.note = _out_of_reach(queue[queue["cycle"]], users)
    return results


def claims(gain: pd.DataFrame, queue: pd.DataFrame, users: int,
           runs: pd.DataFrame | None = None) -> pd.DataFrame:  # fmt: skip
    """The claims table (`schedsim.app.claims.claims_table`, with the ``rule`` column) of
    `claim_results`."""
    from schedsim.app.claims import claims_table

    return claims_table(claim_results(gain, queue, users, runs), rule=True,
                        form="{name}: {shown}", sep="; ")  # fmt: skip
