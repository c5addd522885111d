"""Feitelson & Shmueli 2009 (seed 002): CREASY's gain over EASY, and when the queue drains.

What a closed-loop study of CREASY (``policy = "creasy"``, ``params.alpha``
from 0, which is EASY, to 6000; ``users``; ``daily_cycle``) is checked against, from
the paper's own text (the claims and their numeric readings are
`schedsim.papers.feitelson2009.claims`):

* section 3.1 / Figure 2(a): without daily cycles "there is virtually no
  difference in throughput as alpha increases", at every load;
* section 3.2 / Figure 4: with the cycle, throughput improves as alpha
  increases, and "under the highest simulated load of 250 users, and for
  alpha = 6000, the improvement over EASY surpasses 50%"; the introduction
  says it of both: "throughput and utilization improve by up to 50% under
  CREASY relative to EASY" (Figure 4(b) for utilization); without the cycle
  throughput and utilization are "unrealistically high";
* section 2: "beyond 6000, improvements in performance for CREASY are
  marginal";
* section 4.1 / Figure 5: without the cycle the queue length is "essentially
  constant" over the day; with it EASY's queue drains "much faster" than
  CREASY's (Figure 6 samples EASY's night at 20:00, CREASY's at 23:00), CREASY's
  builds up through the day and "finally drains around 7 AM" (1-hour jobs, 250
  users); the abstract and conclusions: CREASY delays the less critical work "to
  the nighttime", when it uses resources "that otherwise would have been left idle".

Choices, the paper giving no rule: throughput is jobs completed per
simulated day within the horizon (``daily_throughput``), utilization the
share of the machine busy within it (``horizon_utilization``); the gain is
CREASY(alpha) over EASY (alpha = 0) of the same users, cycle, reading and
replication (the same seed: the same users' draws until the schedules differ); the
queue is Figure 5's average over the days by time of day
(`schedsim.model.sessions.queue_by_time_of_day`, 10-minute steps); a queue has
*drained* at the first time after 18:00 (when submissions stop) at which its average
is at most ``DRAINED`` jobs (1), looking until 8:00 the next morning (`drain_hour`);
night by night (`night_drains`) a queue has drained when the last job submitted
before 18:00 has started. The night is 18:00-8:00 (`NIGHT_FROM`, `NIGHT_TO`), its load
the mean busy cores then.

**Readings** (`READINGS`): the choices the paper leaves open that a study may vary, each
a configuration key; a run's reading is named from the keys it sets away from the
text's reading (`reading_of`): the users' estimates (their own, from the log, or
accurate: ``exact_estimates``), Equation 1's unit for the users
(``user_params.response_unit``) and for CREASY (``params.response_unit``) and its
constants, and the logs the users come from (``user_logs``).
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from schedsim.model.results import Result

if TYPE_CHECKING:
    from schedsim.app.report.study_results import StudyResults

__all__ = [
    "DEFAULT_READING",
    "DRAINED",
    "MAX_RUNTIME",
    "NIGHT_FROM",
    "NIGHT_TO",
    "READINGS",
    "drain_hour",
    "gains",
    "load_scan",
    "night_drains",
    "night_table",
    "queues",
    "reading_of",
    "runs",
]


#: Jobs: an average queue at most this long has drained.
DRAINED = 1.0
#: Hours: when the users stop submitting (the daily cycle's end) and start again.
NIGHT_FROM, NIGHT_TO = 18.0, 8.0
#: Seconds: the users' longest job in the paper's runs ("job runtimes are limited to 1
#: hour", section 4.1), the study's default; section 4.1 also tells of 2 and 4 hours.
MAX_RUNTIME = 3600.0
#: The name of the text's reading (the users' own estimates, Equation 1 in minutes for
#: the users and for CREASY, the users of the run's log alone).
DEFAULT_READING = "text"
_DAY = 86400.0

#: The readings' configuration keys (the columns of a study's runs): key -> (the text's
#: value, how a run's name says another value).
READINGS: dict[str, tuple[Any, str]] = {
    "exact_estimates": (False, "accurate estimates"),
    "user_params.response_unit": ("minutes", "users' Eq. 1 in {}"),
    "user_params.continue_at_zero": (0.8, "users' Eq. 1 p(0) {}"),
    "user_params.continue_slope": (0.05, "users' Eq. 1 slope {}"),
    "params.response_unit": ("minutes", "CREASY's Eq. 1 in {}"),
    "params.continue_at_zero": (0.8, "CREASY's Eq. 1 p(0) {}"),
    "params.continue_slope": (0.05, "CREASY's Eq. 1 slope {}"),
    "user_logs": (None, "users from {}"),
}


def _column(done: pd.DataFrame, name: str, default: Any) -> pd.Series:
    if name not in done:
        return pd.Series(default, index=done.index, dtype=object)
    return done[name].astype(object).where(done[name].notna(), default)


def _logs(value: Any) -> Any:
    """``user_logs`` as the results hold it (a JSON list as text) -> the logs, "+"-joined
    (None: the run's own log alone)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    logs = json.loads(value) if isinstance(value, str) else list(value)
    return "+".join(logs) if len(logs) > 1 else None


def reading_of(row: dict[str, Any]) -> str:
    """The name of a run's reading (`READINGS`): the text's (`DEFAULT_READING`), or the
    keys it sets away from the text's values, joined by ", "."""
    parts = []
    for key, (text, name) in READINGS.items():
        value = row.get(key, text)
        if key == "user_logs":
            value = _logs(value)
        elif value is None or (isinstance(value, float) and math.isnan(value)):
            value = text
        if value != text and not (key == "exact_estimates" and not bool(value)):
            parts.append(name.format(value))
    return ", ".join(parts) or DEFAULT_READING


def runs(results: StudyResults) -> pd.DataFrame:
    """One row per finished run: alpha, users, cycle, reading, replication, throughput
    (jobs/day), utilization (fraction), the users' longest job (``max_runtime``, seconds;
    `MAX_RUNTIME` unless the study sets it) and id."""
    done = results.done
    columns = ["alpha", "users", "cycle", "reading", "replication", "throughput",
               "utilization", "max_runtime", "id"]  # fmt: skip
    if "users" not in done or done["users"].isna().all():
        return pd.DataFrame(columns=columns)
    done = done[done["users"].notna()]
    records = done.to_dict("records")
    return pd.DataFrame(
        {
            "alpha": _column(done, "params.alpha", 6000.0).astype(float),
            "users": done["users"].astype(int),
            "cycle": _column(done, "daily_cycle", True).astype(bool),
            "reading": [reading_of(r) for r in records],
            "replication": done["replication"].astype(int),
            "throughput": done["daily_throughput"].astype(float),
            "utilization": done["horizon_utilization"].astype(float),
            "max_runtime": _column(done, "max_runtime", MAX_RUNTIME).astype(float),
            "id": done["id"],
        },
        columns=columns,
    )


#: The earlier name of `runs` (first replications only then).
_runs = runs


def gains(runs: pd.DataFrame) -> pd.DataFrame:
    """CREASY's daily throughput and utilization over EASY's (alpha = 0), in percent, per
    reading, users, cycle, alpha and replication (section 3, Figures 2 and 4: (a)
    throughput, (b) utilization): each against EASY of the same replication."""
    keys = [k for k in ("reading", "users", "cycle", "replication") if k in runs]
    rows = []
    for values, group in runs.groupby(keys, sort=True):
        easy = group[group["alpha"] == 0.0]
        if easy.empty:
            continue
        base = float(easy["throughput"].iloc[0])
        for row in group[group["alpha"] > 0].itertuples():
            gain = {**dict(zip(keys, values, strict=True)), "alpha": row.alpha,
                    "easy_jobs_per_day": base, "creasy_jobs_per_day": row.throughput,
                    "gain_pct": 100.0 * (row.throughput / base - 1.0)}  # fmt: skip
            if "utilization" in group:  # a study's runs have it; a table made by hand may not
                used = float(easy["utilization"].iloc[0])
                gain["easy_utilization"] = used
                gain["creasy_utilization"] = row.utilization
                gain["utilization_gain_pct"] = 100.0 * (row.utilization / used - 1.0)
            rows.append(gain)
    return pd.DataFrame(rows)


def drain_hour(queue: pd.DataFrame, drained: float = DRAINED) -> float:
    """The first time of day (hours, 18-32: past midnight counts on from 24) after
    18:00 at which the average queue is at most ``drained`` jobs, up to 8:00 the next
    morning; NaN if it never drains by then."""
    hour = queue["hour"].to_numpy(dtype=float)
    queued = queue["queued"].to_numpy(dtype=float)
    order = np.argsort((hour - NIGHT_FROM) % 24.0)
    for h, q in zip(hour[order], queued[order], strict=True):
        late = (h - NIGHT_FROM) % 24.0
        if late > 24.0 - NIGHT_FROM + NIGHT_TO:
            break
        if q <= drained:
            return NIGHT_FROM + late
    return math.nan


def night_drains(jobs: pd.DataFrame, days: int) -> np.ndarray:
    """Night by night (nights 0 to ``days - 2``: from 18:00 of day d to 8:00 of day d + 1,
    the clock's origin a midnight), the hour (18-32) at which the queue empties: the
    start of the last job submitted before 18:00 (no job is submitted at night with the
    daily cycle), 18 when it was empty then; NaN when it is not empty by 8:00.
    ``jobs``: ``submit`` and ``start`` (seconds). Vectorised: the running maximum of the
    starts in submit order, read at each 18:00."""
    nights = np.arange(max(days - 1, 0))
    submit = jobs["submit"].to_numpy(dtype=float)
    order = np.argsort(submit, kind="stable")
    latest_start = np.maximum.accumulate(jobs["start"].to_numpy(dtype=float)[order])
    seen = np.searchsorted(submit[order], nights * _DAY + NIGHT_FROM * 3600.0, side="left")
    latest = np.full(len(nights), -math.inf)
    some = seen > 0  # jobs were submitted before that 18:00
    latest[some] = latest_start[seen[some] - 1]
    hours = np.maximum((latest - nights * _DAY) / 3600.0, NIGHT_FROM)
    return np.where(hours > 24.0 + NIGHT_TO, math.nan, hours)


def _queue_row(result: Result, cycle: bool) -> dict[str, float | tuple[float, ...]]:
    """A run's queue by time of day, boiled down: spread, drain hour, the queue at 10:00
    and 17:50 and its smallest at night, the busy cores by night and by day, the most
    any schedule of the run could show at night (`bound.night_ceiling`) and the nights'
    drains."""
    from schedsim.model.sessions import queue_by_time_of_day
    from schedsim.papers.feitelson2009.bound import night_ceiling, night_samples

    q = queue_by_time_of_day(result)
    low, high = float(q["queued"].min()), float(q["queued"].max())
    hour = q["hour"].to_numpy(dtype=float)
    night = night_samples(hour)
    busy = q["busy_cores"].to_numpy(dtype=float)
    at = dict(zip(np.round(hour, 4), q["queued"].to_numpy(dtype=float), strict=True))
    days = math.floor(float(result.summary().get("days", 0.0)) + 1e-9)
    nights = night_drains(result.jobs, days) if cycle else np.zeros(0)
    drained = nights[np.isfinite(nights)]
    return {
        "queue_min_jobs": low,
        "queue_max_jobs": high,
        "spread": high / low if low > 0 else math.inf,
        "drain_hour": drain_hour(q) if cycle else math.nan,
        "queue_10h_jobs": float(at.get(10.0, math.nan)),
        "queue_18h_jobs": float(at.get(round(17 + 50 / 60, 4), math.nan)),
        "night_min_jobs": float(q["queued"].to_numpy(dtype=float)[night].min()),
        "night_busy_cores": float(busy[night].mean()),
        "night_ceiling_cores": night_ceiling(result),
        "day_busy_cores": float(busy[~night].mean()),
        "nights": float(len(nights)),
        "nights_drained": float(len(drained)),
        "night_drain_median_h": float(np.median(drained)) if len(drained) else math.nan,
        "night_drains": tuple(float(h) for h in nights),  # not written: `night_table`
    }


def queues(results: StudyResults, runs: pd.DataFrame, users: int | None = None) -> pd.DataFrame:
    """EASY and CREASY (alpha 6000, else the largest) with and without the cycle, per
    reading, users (``users`` alone if given) and replication: the queue's spread over
    the day (largest / smallest average), its drain hour (Figure 5), the queue at 10:00
    and 17:50 and its smallest average at night, the mean busy cores by night
    (18:00-8:00) and by day, the most any schedule could keep busy at night
    (`bound.night_ceiling`), and night by night how many nights drained by 8:00 and their
    median drain hour (`night_drains`); each row with its runs' ``max_runtime``."""
    picked = runs if users is None else runs[runs["users"] == users]
    if picked.empty:
        return pd.DataFrame()
    top = 6000.0 if (picked["alpha"] == 6000.0).any() else float(picked["alpha"].max())
    rows = []
    for row in picked[picked["alpha"].isin([0.0, top])].itertuples():
        result = Result.load(results.directory / "runs" / row.id)
        rows.append({"reading": row.reading, "users": row.users,
                     "policy": "EASY" if row.alpha == 0 else f"CREASY({row.alpha:g})",
                     "cycle": row.cycle,
                     "max_runtime": getattr(row, "max_runtime", MAX_RUNTIME),
                     "replication": row.replication,
                     **_queue_row(result, row.cycle)})  # fmt: skip
    return pd.DataFrame(rows)


def night_table(queue: pd.DataFrame) -> pd.DataFrame:
    """The nights of a `queues` table, one row each: reading, users, policy, replication,
    night (1 = the first evening) and drain hour (18-32; NaN: not by 8:00)."""
    rows = []
    for row in queue[queue["cycle"]].itertuples():
        for night, hour in enumerate(row.night_drains, 1):
            rows.append({"reading": row.reading, "users": row.users, "policy": row.policy,
                         "replication": row.replication, "night": night,
                         "drain_hour": hour})  # fmt: skip
    return pd.DataFrame(rows, columns=["reading", "users", "policy", "replication", "night",
                                       "drain_hour"])  # fmt: skip


def load_scan(queue: pd.DataFrame) -> pd.DataFrame:
    """Per reading, users and policy (with the cycle), over the replications: the mean
    drain hour of the average queue (Figure 5's; NaN when a replication's does not drain
    by 8:00), how many nights drained by 8:00 of how many, their median drain hour, and
    the mean busy cores by night and by day."""
    on = queue[queue["cycle"]]
    rows = []
    for (reading, users, policy), g in on.groupby(["reading", "users", "policy"], sort=True):
        nights = np.concatenate([np.asarray(n, dtype=float) for n in g["night_drains"]])
        drained = nights[np.isfinite(nights)]
        rows.append({
            "reading": reading, "users": users, "policy": policy, "replications": len(g),
            "drain_hour": float(g["drain_hour"].mean(skipna=False)),  # NaN if any is
            "nights_drained": len(drained), "nights": len(nights),
            "night_drain_median_h": float(np.median(drained)) if len(drained) else math.nan,
            "night_busy_cores": float(g["night_busy_cores"].mean()),
            "day_busy_cores": float(g["day_busy_cores"].mean()),
        })  # fmt: skip
    return pd.DataFrame(rows)
