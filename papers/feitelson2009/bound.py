"""Feitelson & Shmueli 2009: how much busier than EASY's any schedule's night can be.

The abstract and conclusions say CREASY delays "less critical work to nighttime, when it
can utilize resources that otherwise would have been left idle"; its reading
(`schedsim.papers.feitelson2009.claims`, `NIGHT_LEAST`) asks CREASY's busy cores at night
(18:00-8:00, `analyses.NIGHT_FROM` to `analyses.NIGHT_TO`) to be at least a quarter above
EASY's. Whether that is possible at all does not depend on the policy: at no sample of
the night can more cores be busy than the machine has, and none can be busy before the
run's first job is submitted (the users arrive from 8:00 of the first day on, section
3.2, so the first morning's night samples, 0:00-8:00 of day 0, are idle under every
schedule). `night_ceiling` is the most busy cores any schedule of a run can show at night
under the report's own measure (Figure 5's average over the days by time of day,
`schedsim.model.sessions.queue_by_time_of_day`, then the mean over the night's samples).

So in replication r the largest gain any schedule can show against our EASY of the same
replication is ``100 (ceiling_r / easy_r - 1)`` percent, and the claim's number (the mean
over replications of each one's gain) is at most their mean (`most_gain`). When that
mean is below the reading's 25%, no schedule (CREASY's or any other) could reproduce the
claim against our EASY at that load: the claim is out of reach there (`night_bound`). That
is a property of the study's runs (its draws of the users), not of the paper's rules: a
busier EASY night leaves less room, and another draw of as many users may leave more. So it
is not counted as the claim shown impossible. The ceiling holds for every schedule, so it
is loose: it does not say CREASY could reach it.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from schedsim.model.results import Result
from schedsim.papers.feitelson2009.analyses import NIGHT_FROM, NIGHT_TO

__all__ = ["BOUND_COLUMNS", "most_gain", "night_bound", "night_ceiling", "night_samples"]

_DAY = 86400.0

#: The columns of `night_bound`, with their units.
BOUND_COLUMNS: dict[str, str] = {
    "reading": "",
    "users": "users",
    "replications": "runs",
    "easy_night_cores": "cores",
    "creasy_night_cores": "cores",
    "ceiling_cores": "cores",
    "needed_cores": "cores",
    "gain_pct": "%",
    "most_gain_pct": "%",
    "least_pct": "%",
    "out_of_reach": "",
}


def night_samples(hour: np.ndarray) -> np.ndarray:
    """Which times of day (hours, 0-24) are the night's: 18:00 to 8:00."""
    return (hour >= NIGHT_FROM) | (hour < NIGHT_TO)


def night_ceiling(result: Result, step: float = 600.0) -> float:
    """The most busy cores any schedule of ``result``'s jobs can show at night under the
    report's measure: the machine's cores at every sample of the day grid (whole days
    from the clock origin to the horizon, every ``step`` seconds, as
    `schedsim.model.sessions.queue_by_time_of_day`) from the run's first submit on, 0
    before it; averaged over the days at each time of day, then over the night's
    samples. NaN for a run without a horizon (not closed-loop) or without jobs."""
    horizon = result.meta.get("horizon")
    if horizon is None or not len(result.jobs):
        return math.nan
    start = result.run_start
    days = math.floor((float(horizon) - start) / _DAY + 1e-9)
    if days < 1:
        return math.nan
    offsets = np.arange(0.0, _DAY, step)
    times = start + np.arange(days)[:, None] * _DAY + offsets[None, :]
    first = float(result.jobs["submit"].min())
    busy = float(result.meta["total_cores"]) * (times >= first)
    return float(busy.mean(axis=0)[night_samples(offsets / 3600.0)].mean())


def most_gain(easy: np.ndarray | pd.Series, ceiling: np.ndarray | pd.Series) -> float:
    """The largest mean gain (percent) over replications any schedule can show against
    EASY's night busy cores ``easy``, replication by replication, when no night can be
    busier than ``ceiling``: the mean of 100 (ceiling / easy - 1)."""
    e = np.asarray(easy, dtype=float)
    c = np.asarray(ceiling, dtype=float)
    return float(np.mean(100.0 * (c / e - 1.0))) if e.size else math.nan


def night_bound(queue: pd.DataFrame, least: float) -> pd.DataFrame:
    """Per reading and users (runs with the daily cycle, `analyses.queues`' rows with
    ``night_ceiling_cores``): the replications, EASY's and CREASY's mean night busy
    cores, the mean ceiling (`night_ceiling`), the cores CREASY would need (``least``
    percent above EASY's), our gain (the mean over replications of CREASY's against
    EASY's of the same replication), the most any schedule can gain (`most_gain`), the
    reading's ``least`` and whether it is out of reach (``out_of_reach``)."""
    if not len(queue) or "night_ceiling_cores" not in queue:
        return pd.DataFrame(columns=list(BOUND_COLUMNS))
    on = queue[queue["cycle"]]
    if "reading" not in on:  # one reading's table (`claims.claim_results` passes them)
        on = on.assign(reading="")
    rows = []
    for (reading, users), g in on.groupby(["reading", "users"], sort=True):
        easy = g[g["policy"] == "EASY"].set_index("replication")
        creasy = g[g["policy"] != "EASY"].set_index("replication")
        both = easy.index.intersection(creasy.index)
        if not len(both):
            continue
        e = easy.loc[both, "night_busy_cores"]
        c = creasy.loc[both, "night_busy_cores"]
        # Every schedule of either run is under its own ceiling; they share the users'
        # first submit, so the smaller is the one every schedule obeys.
        ceiling = np.minimum(easy.loc[both, "night_ceiling_cores"],
                             creasy.loc[both, "night_ceiling_cores"])  # fmt: skip
        most = most_gain(e, ceiling)
        rows.append({
            "reading": reading, "users": int(users), "replications": len(both),
            "easy_night_cores": float(e.mean()), "creasy_night_cores": float(c.mean()),
            "ceiling_cores": float(ceiling.mean()),
            "needed_cores": float((1.0 + least / 100.0) * e.mean()),
            "gain_pct": float(np.mean(100.0 * (c / e - 1.0))), "most_gain_pct": most,
            "least_pct": least, "out_of_reach": bool(most < least),
        })  # fmt: skip
    return pd.DataFrame(rows, columns=list(BOUND_COLUMNS))
