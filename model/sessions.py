"""Metrics of closed-loop runs (seed 002): throughput, sessions, the day's rhythm.

A closed-loop `Result` (a run of a `schedsim.model.sources.Population`) carries
``sessions`` (one row per user session: ``user, session, start, end, jobs,
reason``) beside the usual ``jobs`` (which gain ``session``) and
``series``; ``meta`` has ``horizon`` (seconds after the clock origin, the
end of the simulated period) and ``days``. Everything here is computed
from those tables, after the run.

* `closed_loop_summary`: throughput (jobs completed per day within the
  horizon), utilization over the horizon, sessions, jobs per session, and
  session aborts attributable to long responses (``reason == "response"``:
  the continue draw fell between Equation 1's probability and its value
  at an instant response, 0.8; see `schedsim.workloads.users`). Jobs that end after
  the horizon (the drain) are not counted in the throughput.
* `queue_by_time_of_day`: seed 002 Figure 5, the queue length at each time
  of day averaged over the simulated days.
* `jobs_at_times`: seed 002 Figure 6, the size and run time of the jobs
  waiting and running at given times of day, sampled on every day;
  `job_maps` bins them into size x run time counts (`schedsim.app.plots`
  draws them, and the queue by time of day, as figures).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from schedsim.model.results import Result

__all__ = [
    "SESSION_COLUMNS",
    "closed_loop_summary",
    "job_maps",
    "jobs_at_times",
    "queue_by_time_of_day",
]

_DAY = 86400.0
SESSION_COLUMNS = ("user", "session", "start", "end", "jobs", "reason")


def _horizon(result: Result) -> tuple[float, float]:
    meta = result.meta
    if "horizon" not in meta or result.sessions is None:
        raise ValueError("not a closed-loop run (no sessions and no horizon in meta)")
    return result.run_start, float(meta["horizon"])


def closed_loop_summary(result: Result) -> dict[str, Any]:
    """Throughput, utilization and session numbers over the simulated days."""
    start, horizon = _horizon(result)
    days = (horizon - start) / _DAY
    ends = result.jobs["end"].to_numpy(dtype=float)
    sessions = result.sessions
    assert sessions is not None
    n = len(sessions)
    reasons = sessions["reason"]
    end = min(horizon, result.run_end)
    return {
        "days": days,
        "daily_throughput": float(np.count_nonzero(ends <= horizon) / days),
        "horizon_utilization": result.utilization(start, end) * (end - start) / (horizon - start)
        if end > start
        else 0.0,
        "sessions": n,
        "jobs_per_session": float(sessions["jobs"].mean()) if n else math.nan,
        "aborts_by_response": int((reasons == "response").sum()),
        "abort_share": float((reasons == "response").mean()) if n else math.nan,
        "jobs_after_horizon": int(np.count_nonzero(ends > horizon)),
    }


def _step_values(result: Result, column: str, times: np.ndarray) -> np.ndarray:
    """The ``series`` step function's value at each of ``times`` (0 before the first row)."""
    t = result.series["time"].to_numpy(dtype=float)
    v = result.series[column].to_numpy(dtype=float)
    at = np.searchsorted(t, times, side="right") - 1
    return np.where(at >= 0, v[np.maximum(at, 0)], 0.0)


def _whole_days(result: Result) -> tuple[float, int]:
    """The clock origin and the number of whole days up to the horizon."""
    start, horizon = _horizon(result)
    return start, math.floor((horizon - start) / _DAY + 1e-9)


def _day_grid(result: Result, step: float) -> tuple[np.ndarray, np.ndarray]:
    start, days = _whole_days(result)
    if days < 1:
        raise ValueError("the run is shorter than one day")
    offsets = np.arange(0.0, _DAY, step)
    return offsets, start + np.arange(days)[:, None] * _DAY + offsets[None, :]


def queue_by_time_of_day(result: Result, step: float = 600.0) -> pd.DataFrame:
    """Queue length (and running jobs, busy cores) by time of day, averaged over days.

    Seed 002 Figure 5: the average at each time of day over the simulated
    days (whole days from the clock origin, midnight of day 0, up to the
    horizon). Columns ``hour`` (0-24), ``queued``, ``running``, ``busy_cores``
    (means) and ``queued_std``.
    """
    import pandas as pd  # here: a run's summary (`closed_loop_summary`) needs none

    if not step > 0:
        raise ValueError(f"step must be positive, got {step}")
    offsets, grid = _day_grid(result, step)
    out = {"hour": offsets / 3600.0}
    for column in ("queued", "running", "busy_cores"):
        values = _step_values(result, column, grid.ravel()).reshape(grid.shape)
        out[column] = values.mean(axis=0)
        if column == "queued":
            out["queued_std"] = values.std(axis=0)
    return pd.DataFrame(out)


def jobs_at_times(result: Result, hours: Sequence[float] = (10, 16, 20, 23)) -> pd.DataFrame:
    """The jobs waiting and running at each hour of ``hours`` on every simulated day.

    Seed 002 Figure 6 samples "at a particular point in time"; here the
    sample is taken at that time of day on every day, so the maps are not
    one day's accident. A job is *waiting* from its submit to its first
    start and *running* from its first start to its end (a preempted job's
    suspensions are not separated out). Columns: ``hour``, ``day``,
    ``state`` (``waiting``/``running``), ``id``, ``size``, ``run``.
    """
    import pandas as pd  # here: a run's summary (`closed_loop_summary`) needs none

    start, days = _whole_days(result)
    jobs = result.jobs
    submit = jobs["submit"].to_numpy(dtype=float)
    first = jobs["start"].to_numpy(dtype=float)
    end = jobs["end"].to_numpy(dtype=float)
    frames = []
    for hour in hours:
        if not 0 <= hour < 24:
            raise ValueError(f"hours must be in [0, 24), got {hour}")
        for day in range(days):
            t = start + day * _DAY + hour * 3600.0
            for state, mask in (
                ("waiting", (submit <= t) & (t < first)),
                ("running", (first <= t) & (t < end)),
            ):
                picked = jobs.loc[mask, ["id", "size", "run"]]
                frames.append(picked.assign(hour=float(hour), day=day, state=state))
    cols = ["hour", "day", "state", "id", "size", "run"]
    if not frames:
        return pd.DataFrame(columns=cols)
    return pd.concat(frames, ignore_index=True)[cols]


#: Size bins (processors, powers of two) and run-time bins (seconds) of the maps.
SIZE_EDGES = np.array([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, np.inf])
RUN_EDGES = np.array([0, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14400, np.inf])


def job_maps(samples: pd.DataFrame) -> dict[tuple[float, str], np.ndarray]:
    """Per (hour, state): mean number of jobs per sample in each size x run bin.

    Rows are `RUN_EDGES` bins, columns `SIZE_EDGES` bins (lower bound
    inclusive). The mean is over the days sampled.
    """
    out = {}
    days = max(int(samples["day"].max()) + 1, 1) if len(samples) else 1
    for (hour, state), group in samples.groupby(["hour", "state"], sort=True):
        counts, _, _ = np.histogram2d(
            group["run"].to_numpy(dtype=float),
            group["size"].to_numpy(dtype=float),
            bins=(RUN_EDGES, SIZE_EDGES),
        )
        out[(float(hour), str(state))] = counts / days
    return out
