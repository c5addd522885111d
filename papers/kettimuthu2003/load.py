"""Kettimuthu 2003: what the load study's runs do after the last arrival.

Section 4.2 raises the load "until the system reaches saturation" and reads saturation
off the "overall system utilization" (Figure 4.9) without saying over which span it is
measured. A run's ``utilization`` (its summary's) counts the whole run, the drain after
the last arrival included; under SS at a high load that drain is long (suspended jobs
wait for their homes: `schedsim.policies.selective_suspension.rule`), and the whole-run
utilization falls while the machine was full during the arrivals. So for each run of the
load study (the trace's estimates, no overhead, every load factor) `load_metrics` gives

* ``utilization_arrivals`` (fraction): busy cores over total cores, time-averaged over
  the arrival window, from the first submit to the last (`Result.utilization`);
* ``drain`` (h): the last end minus the last submit;
* ``suspended_last`` (jobs): jobs suspended at the last submit;
* ``homes_mean``, ``homes_max`` (jobs): per node, how many suspended jobs have their
  home on it at the last submit (a suspended piece's nodes are its home, ``pieces.parquet``),
  the mean over the machine's nodes and the largest;
* ``homes_peak`` (jobs): the largest number of suspended jobs with a home on one node at
  any time of the run (how deep suspensions stack).

The report writes them to ``kettimuthu2003-load.csv`` and the claims on utilization are
scored again with ``utilization_arrivals`` (the readings ``window=arrivals``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from schedsim.app.gantt import intervals

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.app.report.study_results import StudyResults
    from schedsim.model.results import Result

__all__ = ["COLUMNS", "UNITS", "homes", "load_metrics", "run_metrics"]

#: The metrics of a run of the load study, in order.
COLUMNS: tuple[str, ...] = ("utilization", "utilization_arrivals", "drain", "suspended_last",
                            "homes_mean", "homes_max", "homes_peak")  # fmt: skip
#: Their units.
UNITS: dict[str, str] = {
    "utilization": "fraction",
    "utilization_arrivals": "fraction",
    "drain": "h",
    "suspended_last": "jobs",
    "homes_mean": "jobs",
    "homes_max": "jobs",
    "homes_peak": "jobs",
}
_HOUR = 3600.0


def _spans(pieces: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The suspended pieces as node ranges: start, end, first node, last node (one row
    per range of a piece's home)."""
    susp = pieces[pieces["kind"] == "suspended"]
    start, end, lo, hi = [], [], [], []
    for a, b, nodes in zip(susp["start"].to_numpy(float), susp["end"].to_numpy(float),
                           susp["nodes"].astype(str), strict=True):  # fmt: skip
        for x, y in intervals(nodes):
            start.append(a)
            end.append(b)
            lo.append(x)
            hi.append(y)
    return (np.asarray(start, float), np.asarray(end, float), np.asarray(lo, int),
            np.asarray(hi, int))  # fmt: skip


def homes(pieces: pd.DataFrame, nodes: int, at: float) -> tuple[np.ndarray, int]:
    """Per node, how many suspended jobs have their home on it at time ``at`` (a piece
    suspended over [start, end) counts), and the largest such count over the run."""
    start, end, lo, hi = _spans(pieces)
    now = np.zeros(nodes + 1, dtype=np.int64)
    on = (start <= at) & (at < end)
    np.add.at(now, lo[on], 1)
    np.add.at(now, hi[on] + 1, -1)
    # The peak: sweep the starts and ends in time order (ends first at a tie: a job
    # resumed and another suspended at the same instant do not stack).
    peak = 0
    count = np.zeros(nodes, dtype=np.int64)
    times = np.concatenate([end, start])
    steps = np.concatenate([-np.ones(len(end), int), np.ones(len(start), int)])
    order = np.lexsort((steps, times))
    los, his = np.concatenate([lo, lo]), np.concatenate([hi, hi])
    for i in order:
        count[los[i] : his[i] + 1] += steps[i]
        if steps[i] > 0:
            peak = max(peak, int(count[los[i] : his[i] + 1].max()))
    return np.cumsum(now)[:nodes], peak


def run_metrics(result: Result) -> dict[str, float]:
    """`COLUMNS` of one run (the module docstring)."""
    jobs = result.jobs
    submit = jobs["submit"].to_numpy(float)
    first, last = float(submit.min()), float(submit.max())
    out = {
        "utilization": result.utilization(),
        "utilization_arrivals": result.utilization(first, last) if last > first else math.nan,
        "drain": (float(jobs["end"].max()) - last) / _HOUR,
    }
    meta = result.meta
    nodes = int(meta.get("nodes") or meta["total_cores"] // meta.get("cores_per_node", 1))
    if result.pieces is None:
        out.update(suspended_last=math.nan, homes_mean=math.nan, homes_max=math.nan,
                   homes_peak=math.nan)  # fmt: skip
        return out
    per_node, peak = homes(result.pieces, nodes, last)
    susp = result.pieces[result.pieces["kind"] == "suspended"]
    held = (susp["start"] <= last) & (last < susp["end"])
    out.update(suspended_last=float(susp.loc[held, "job"].nunique()),
               homes_mean=float(per_node.mean()), homes_max=float(per_node.max()),
               homes_peak=float(peak))  # fmt: skip
    return out


def load_metrics(results: StudyResults) -> pd.DataFrame:
    """Per run of the load study (finished runs with the trace's estimates and no
    overhead): ``label``, ``load_factor`` and `COLUMNS`, averaged over replications;
    sorted by load factor, then label in study order."""
    runs = results.runs
    exact = runs["exact_estimates"] if "exact_estimates" in runs else pd.Series(False, runs.index)
    over = runs["overhead"] if "overhead" in runs else pd.Series(None, runs.index)
    pick = (runs["status"] == "done") & ~exact.fillna(False).astype(bool) & over.isna()
    rows = []
    for row in runs[pick].to_dict("records"):
        load = row.get("load_factor", 1.0)
        load = 1.0 if load is None or (isinstance(load, float) and math.isnan(load)) else load
        rows.append({"label": str(row["label"]), "load_factor": float(load),
                     **run_metrics(results.result(str(row["id"])))})  # fmt: skip
    if not rows:
        return pd.DataFrame(columns=["label", "load_factor", *COLUMNS])
    table = pd.DataFrame(rows)
    order = {label: i for i, label in enumerate(dict.fromkeys(table["label"]))}
    table = table.groupby(["label", "load_factor"], sort=False, as_index=False)[
        list(COLUMNS)
    ].mean()
    table["_order"] = table["label"].map(order)
    table = table.sort_values(["load_factor", "_order"], kind="stable").drop(columns="_order")
    return table.reset_index(drop=True)
