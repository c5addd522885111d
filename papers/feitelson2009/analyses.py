"""Feitelson & Shmueli 2009 (seed 002): CREASY's gain over EASY, and when the queue drains.

What a closed-loop study of CREASY (``policy = "creasy"``, ``params.alpha``
from 0, which is EASY, to 6000; ``users``; ``daily_cycle``; optionally
``exact_estimates``) is checked against, from the paper's own text:

* section 4 / Figure 2(a): without daily cycles "there is virtually no
  difference in throughput as alpha increases", at every load;
* section 4 / Figure 4: with the cycle, throughput improves as alpha
  increases, and "under the highest simulated load of 250 users, and for
  alpha = 6000, the improvement over EASY surpasses 50%";
* section 4 / Figure 5: without the cycle the queue length is "essentially
  constant" over the day; with it EASY's queue drains "much faster" than
  CREASY's (Figure 6 samples EASY's night at 20:00, CREASY's at 23:00), and
  CREASY's "finally drains around 7 AM" (1-hour jobs, 250 users).

Choices, the paper giving no rule: throughput is jobs completed per
simulated day within the horizon (``daily_throughput``); the gain is
CREASY(alpha) over EASY (alpha = 0) of the same users, cycle and estimates;
"virtually no difference" is every gain within +-10%; the queue is Figure
5's average over the days by time of day (`schedsim.model.sessions.
queue_by_time_of_day`, 10-minute steps); "essentially constant" is a
largest-to-smallest ratio of that curve under 1.5; a queue has *drained* at
the first time after 18:00 (when submissions stop) at which its average is
at most ``DRAINED`` jobs (1), looking until 8:00 the next morning; "around
7 AM" is a drain between 6:00 and 8:00. Each claim is checked for every
kind of estimate the study ran (the users' own; ``exact_estimates``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from schedsim.model.results import Result

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from schedsim.app.report.study_results import StudyResults

__all__ = ["CURVES", "DRAINED", "claims", "curves_figure", "drain_hour", "gains", "queues", "write"]

#: Jobs: an average queue at most this long has drained.
DRAINED = 1.0
#: Hours: when the users stop submitting (the daily cycle's end) and start again.
NIGHT_FROM, NIGHT_TO = 18.0, 8.0


def _column(done: pd.DataFrame, name: str, default: Any) -> pd.Series:
    if name not in done:
        return pd.Series(default, index=done.index, dtype=object)
    return done[name].astype(object).where(done[name].notna(), default)


def _runs(results: StudyResults) -> pd.DataFrame:
    """One row per finished first-replication run: alpha, users, cycle, estimates, id."""
    done = results.done
    if "users" not in done or done["users"].isna().all():
        return pd.DataFrame(columns=["alpha", "users", "cycle", "estimates", "id"])
    done = done[done["users"].notna() & (done["replication"] == 0)]
    alpha = _column(done, "params.alpha", 6000.0).astype(float)
    exact = _column(done, "exact_estimates", False)
    return pd.DataFrame(
        {
            "alpha": alpha,
            "users": done["users"].astype(int),
            "cycle": _column(done, "daily_cycle", True).astype(bool),
            "estimates": np.where(exact.astype(bool), "accurate", "users' own"),
            "throughput": done["daily_throughput"].astype(float),
            "utilization": done["horizon_utilization"].astype(float),
            "id": done["id"],
        }
    )


def gains(runs: pd.DataFrame) -> pd.DataFrame:
    """CREASY's daily throughput over EASY's (alpha = 0), in percent, per users, cycle,
    estimates and alpha (section 4, Figures 2 and 4)."""
    rows = []
    for (users, cycle, est), group in runs.groupby(["users", "cycle", "estimates"]):
        easy = group[group["alpha"] == 0.0]["throughput"]
        if easy.empty:
            continue
        base = float(easy.iloc[0])
        for row in group[group["alpha"] > 0].itertuples():
            rows.append({"users": users, "cycle": cycle, "estimates": est, "alpha": row.alpha,
                         "easy_jobs_per_day": base, "creasy_jobs_per_day": row.throughput,
                         "gain_pct": 100.0 * (row.throughput / base - 1.0)})  # fmt: skip
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


def queues(results: StudyResults, runs: pd.DataFrame, users: int) -> pd.DataFrame:
    """For ``users`` users, EASY and CREASY (alpha 6000, else the largest) with and
    without the cycle, per kind of estimate: the queue's spread over the day (largest /
    smallest average) and its drain hour (Figure 5)."""
    from schedsim.model.sessions import queue_by_time_of_day

    picked = runs[runs["users"] == users]
    if picked.empty:
        return pd.DataFrame()
    top = float(picked["alpha"].max())
    rows = []
    for row in picked[picked["alpha"].isin([0.0, top])].itertuples():
        q = queue_by_time_of_day(Result.load(results.directory / "runs" / row.id))
        low, high = float(q["queued"].min()), float(q["queued"].max())
        rows.append({"policy": "EASY" if row.alpha == 0 else f"CREASY({row.alpha:g})",
                     "cycle": row.cycle, "estimates": row.estimates,
                     "queue_min_jobs": low, "queue_max_jobs": high,
                     "spread": high / low if low > 0 else math.inf,
                     "drain_hour": drain_hour(q) if row.cycle else math.nan})  # fmt: skip
    return pd.DataFrame(rows)


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


#: The curves of Figures 2 and 4: run column -> (axis label, file stem, figure panel). The
#: values are drawn as the runs hold them (a utilization as a fraction, as everywhere).
CURVES: dict[str, tuple[str, str, str]] = {
    "throughput": ("daily throughput (jobs/day)", "throughput", "(a)"),
    "utilization": ("utilization (fraction)", "utilization", "(b)"),
}


def curves_figure(runs: pd.DataFrame, column: str) -> Figure:
    """Figures 2 and 4 side by side: ``column`` against the users, one line per alpha,
    a panel per daily-cycle setting (columns) and kind of estimate (rows)."""
    from matplotlib.figure import Figure

    label, _, panel = CURVES[column]
    kinds = sorted(set(runs["estimates"]), reverse=True)  # the users' own first
    fig = Figure(figsize=(10, 3.4 * len(kinds)), layout="constrained")
    axes = fig.subplots(len(kinds), 2, squeeze=False, sharey=True)
    alphas = sorted(set(runs["alpha"]))
    colors = [f"C{i}" for i in range(len(alphas))]
    for r, kind in enumerate(kinds):
        for c, (cycle, name) in enumerate(((False, "without daily cycles (Figure 2)"),
                                           (True, "with daily cycles (Figure 4)"))):  # fmt: skip
            ax = axes[r][c]
            sub = runs[(runs["estimates"] == kind) & (runs["cycle"] == cycle)]
            for alpha, color in zip(alphas, colors, strict=True):
                line = sub[sub["alpha"] == alpha].sort_values("users")
                name_ = "EASY (alpha 0)" if alpha == 0 else f"alpha {alpha:g}"
                if len(line):
                    ax.plot(line["users"], line[column], marker="o", color=color,
                            label=name_)  # fmt: skip
            ax.set_title(f"{name}, {kind} estimates", fontsize=10)
            ax.set_xlabel("closed-loop users (users)")
            ax.grid(alpha=0.3)
        axes[r][0].set_ylabel(label)
    axes[0][1].legend(title="CREASY", loc="upper left", fontsize=8)
    what = label.split(" (")[0]
    fig.suptitle(f"CREASY against EASY: {what} (Feitelson & Shmueli 2009, Figures 2{panel} "
                 f"and 4{panel})")  # fmt: skip
    return fig


def write(results: StudyResults, out: Path) -> tuple[list[Path], list[Path], pd.DataFrame]:
    """The gains, the queue table and the claims (``feitelson2009-gains.csv``,
    ``feitelson2009-queues.csv``, ``claims.csv``) for the study's largest population,
    and Figures 2 and 4 (``feitelson2009-throughput.png``, ``-utilization.png``)."""
    from schedsim.app.report.formats import with_units
    from schedsim.app.report.plots import save_figures

    runs = _runs(results)
    users = int(runs["users"].max()) if len(runs) else 0
    gain = gains(runs)
    queue = queues(results, runs, users) if len(runs) else pd.DataFrame()
    claimed = claims(gain, queue, users)
    units = {"easy_jobs_per_day": "jobs/day", "creasy_jobs_per_day": "jobs/day",
             "gain_pct": "%", "users": "users", "queue_min_jobs": "jobs",
             "queue_max_jobs": "jobs", "spread": "ratio", "drain_hour": "h"}  # fmt: skip
    tables: list[Path] = []
    for frame, name in ((gain, "feitelson2009-gains.csv"), (queue, "feitelson2009-queues.csv")):
        path = out / name
        with_units(frame, lambda c: units.get(c, "")).to_csv(path, index=False)
        tables.append(path)
    path = out / "claims.csv"
    claimed.to_csv(path, index=False)
    tables.append(path)
    figures = (
        [(f"feitelson2009-{CURVES[c][1]}", curves_figure(runs, c)) for c in CURVES]
        if len(runs) and runs["users"].nunique() > 1
        else []
    )
    return tables, save_figures(figures, out), claimed
