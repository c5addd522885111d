"""Schwiegelshohn & Yahyapour 1998 (PFCFS): the paper's Tables 4-9 beside the study's.

The paper (section 6, appendix) compares three preemptive strategies of
Table 3, PFCFS1-3, with non-preemptive FCFS on each month of the CTC SP2
log from July 1996 to May 1997, on 128 and 256 nodes, as the percent
change 100 (PFCFS - FCFS) / FCFS (negative: better than FCFS) of the
makespan (Tables 4 and 7), the total weighted completion time (5 and 8)
and the total weighted flow time (6 and 9), with w_i = r_i h_i. `TABLES`
holds those tables as printed. A study of ``fcfs`` and ``pfcfs1``-``3``
(``month``, ``nodes``; optionally ``params.queue_in_cycle`` and
``params.preempt``, readings of `schedsim.policies.gang`) is set beside them:

* **side by side** per table (`side_by_side`): the months and a Sum row;
  the paper's three columns, then ours for each reading the study ran;
  our FCFS value is the first column (the Sum row's is the total);
* **Sum rows** (`sums`): the paper does not say how it sums. The plain
  mean of its monthly percents misses its Sum (Table 4, PFCFS1: -9.26
  against -9.5 printed). The hypothesis tested here is that Sum =
  100 (sum of PFCFS values - sum of FCFS values) / sum of FCFS values over
  the months, the change of the totals, which is the mean of the monthly
  percents weighted by the FCFS values. The paper's FCFS values are not
  printed, so ours weigh its monthly percents (`weighted_mean`); the table
  gives, per paper table and strategy, the printed Sum, the plain mean,
  that reconstruction and their errors. Our own Sum rows are computed by
  the same rule (`total_change`);
* **agreement** (`agreement`), per table, strategy and reading: the
  month cells where ours has the paper's sign (ours rounded to 0.1% as the
  paper prints; a printed 0.0% agrees only with a 0.0%) and those within
  25% of the paper's value, relative (abs(ours - paper) <= 0.25 abs(paper)).
  Besides the strategies as named it pairs our PFCFS3 with the paper's
  PFCFS2 and our PFCFS2 with its PFCFS3, labelled a **hypothesis** (that
  the paper's two columns, or its Table 3 rows, are swapped): under the
  "waits" reading our PFCFS3 follows the paper's PFCFS2 closely. Nothing
  in the paper says they are swapped;
* **consistency** of the paper's own tables (`consistency`): with w_i =
  r_i h_i the same in every schedule, completion and flow time differ by
  the same constant (the weighted submit times) for FCFS and PFCFS, so a
  month's completion and flow changes must have one sign and the
  completion change the smaller size (abs(C%) <= abs(F%), up to rounding). The
  cells of Tables 5/6 and 8/9 that break it cannot both hold for one job
  set;
* **claims** (`claims`): the Sum rows of each strategy over the six
  tables, and section 6's text, each checked per reading by the rule its
  row states (`claims` docstring);
* one figure: paper and ours month by month, weighted flow time on 128
  and 256 nodes, a panel per strategy (`month_figure`).

Our runs are identified by ``policy``, ``params.queue_in_cycle``, ``params.preempt``,
``params.wait_from`` and ``kill_at_estimate``, not by their labels; a run without them is
the default, ``waits`` (with the greedy choice of the jobs to preempt, widest first, and
jobs killed at their requested time). A run that preempts every running job (Table 1's
step F, ``preempt = "all"``) is the reading ``<queue>-all``; one whose greedy takes the
narrowest or the shortest-running jobs first (``preempt = "narrowest"`` or ``"newest"``)
``<queue>-narrowest`` or ``<queue>-newest``; one whose wide jobs count their wait from
their submission (``wait_from = "submit"``) ``<queue>-submit``; one whose jobs run their
full run time (``kill_at_estimate = false``) ``<queue>-nokill``, against the FCFS runs
with the same run times (FCFS's reading ``-nokill``; the default FCFS's is ``-``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from schedsim.papers.schwiegelshohn1998.tables import MONTHS, STRATEGIES, TABLES, PaperTable, _table

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.app.report.study_results import StudyResults

__all__ = [
    "METRICS",
    "NOKILL",
    "POLICIES",
    "READINGS",
    "SENSITIVE",
    "SIGNIFICANT",
    "SWAPPED",
    "UNITS",
    "WITHIN",
    "agreement",
    "base_of",
    "bases",
    "consistency",
    "ours",
    "side_by_side",
    "sums",
    "total_change",
    "weighted_mean",
]


POLICIES: dict[str, str] = {"pfcfs1": "PFCFS1", "pfcfs2": "PFCFS2", "pfcfs3": "PFCFS3"}
#: The readings of the queue during a wide job's cycle (`schedsim.policies.gang`), in order.
#: ``<queue>-all``: the same with every running job preempted (``preempt = "all"``);
#: ``<queue>-narrowest`` / ``-newest``: the greedy's other orders (``preempt``);
#: ``<queue>-submit``: a wide job's wait counted from its submission (``wait_from``);
#: ``<queue>-nokill``: jobs run their full run time (``kill_at_estimate = false``).
READINGS: tuple[str, ...] = ("waits", "moves", "waits-all", "moves-all", "waits-narrowest",
                             "waits-newest", "moves-narrowest", "moves-newest",
                             "waits-submit", "moves-submit",
                             "waits-nokill", "moves-nokill")  # fmt: skip
#: The suffix of the readings whose jobs run their full run time, and of their FCFS.
NOKILL = "-nokill"
#: The swapped-rows hypothesis: our strategy -> the paper's column it is set against.
SWAPPED: dict[str, str] = {"PFCFS1": "PFCFS1", "PFCFS2": "PFCFS3", "PFCFS3": "PFCFS2"}
#: Relative tolerance of a month cell "within 25%" of the paper's.
WITHIN = 0.25
#: The claims' readings of the paper's words (`schedsim.papers.schwiegelshohn1998.claims`):
#: "significant" improvement at least SIGNIFICANT percent; "very sensitive" a spread of
#: the three Sum rows of a table of at least SENSITIVE percentage points.
SIGNIFICANT = 10.0
SENSITIVE = 20.0
#: The paper's names of the metrics, and their units here.
METRICS: dict[str, str] = {
    "makespan": "makespan",
    "weighted_completion_time": "weighted completion time",
    "weighted_flow_time": "weighted flow time",
}
UNITS: dict[str, str] = {
    "makespan": "s",
    "weighted_completion_time": "core s^2",
    "weighted_flow_time": "core s^2",
}


# -- our values ------------------------------------------------------------------------


def ours(results: StudyResults) -> pd.DataFrame:
    """The study's values: one row per metric of `METRICS`, machine, month, strategy
    (``FCFS`` or PFCFS1-3) and reading (``-`` for FCFS), with ``value`` (the metric's
    unit). First replication only (trace replay is deterministic)."""
    done = results.done
    columns = ["metric", "nodes", "month", "strategy", "reading", "value"]
    need = {"policy", "month", "nodes"}
    if not need <= set(done.columns):
        return pd.DataFrame(columns=columns)
    done = done[(done["replication"] == 0) & done["month"].isin(list(MONTHS))]
    if "params.queue_in_cycle" in done:
        reading = (
            done["params.queue_in_cycle"]
            .astype(object)
            .where(done["params.queue_in_cycle"].notna(), "waits")
        )
    else:
        reading = pd.Series("waits", index=done.index, dtype=object)
    if "params.preempt" in done:
        preempt = done["params.preempt"].astype(object)
        other = preempt.notna() & (preempt != "greedy")
        reading = reading.where(~other, reading + "-" + preempt.astype(str))
    if "params.wait_from" in done:
        submit = done["params.wait_from"].astype(object).eq("submit")
        reading = reading.where(~submit, reading + "-submit")
    if "kill_at_estimate" in done:
        nokill = done["kill_at_estimate"].astype(object).eq(False)
    else:
        nokill = pd.Series(False, index=done.index)
    reading = reading.where(~nokill, reading + NOKILL)
    strategy = done["policy"].map({"fcfs": "FCFS", **POLICIES})
    rows = []
    for metric in METRICS:
        if metric not in done:
            continue
        frame = pd.DataFrame(
            {
                "metric": metric,
                "nodes": done["nodes"].astype(int),
                "month": done["month"].astype(str),
                "strategy": strategy,
                "reading": reading.where(strategy != "FCFS", _base_reading(nokill)),
                "value": done[metric].astype(float),
            }
        )
        rows.append(frame[frame["strategy"].notna()])
    if not rows:
        return pd.DataFrame(columns=columns)
    return pd.concat(rows, ignore_index=True)[columns]


def _base_reading(nokill: pd.Series) -> pd.Series:
    """FCFS's reading: ``-``, or ``-nokill`` for jobs run to their full run time."""
    return pd.Series(np.where(nokill.to_numpy(dtype=bool), NOKILL, "-"), index=nokill.index)


def base_of(reading: str) -> str:
    """The FCFS reading a reading is measured against: ``-nokill`` for ``<queue>-nokill``,
    ``-`` for the others."""
    return NOKILL if reading.endswith(NOKILL) else "-"


def _readings(values: pd.DataFrame) -> list[str]:
    present = set(values.loc[values["strategy"] != "FCFS", "reading"])
    return [r for r in READINGS if r in present]


def _percents(values: pd.DataFrame, metric: str, nodes: int) -> tuple[pd.Series, pd.DataFrame]:
    """Our FCFS values by month (the default run times'), and our percent changes against
    FCFS: columns (reading, strategy), index the months (NaN where a run is missing); a
    ``-nokill`` reading against the FCFS runs of the same run times (`bases`)."""
    bases, pct = _changes(values, metric, nodes)
    return bases["-"], pct


def bases(values: pd.DataFrame, metric: str, nodes: int) -> dict[str, pd.Series]:
    """Our FCFS values by month, per FCFS reading (``-``, ``-nokill``; `base_of`): the
    weights of each reading's Sum row."""
    return _changes(values, metric, nodes)[0]


def _changes(values: pd.DataFrame, metric: str,
             nodes: int) -> tuple[dict[str, pd.Series], pd.DataFrame]:  # fmt: skip
    part = values[(values["metric"] == metric) & (values["nodes"] == nodes)]
    months = list(MONTHS)
    readings = _readings(values)
    cols = pd.MultiIndex.from_product([readings, list(STRATEGIES)])
    empty = pd.Series(np.nan, index=months)
    if part.empty:
        return {"-": empty, NOKILL: empty}, pd.DataFrame(np.nan, index=months, columns=cols)
    wide = part.pivot_table(index="month", columns=["reading", "strategy"], values="value",
                            aggfunc="first").reindex(months).astype(float)  # fmt: skip
    base = {b: (wide[(b, "FCFS")] if (b, "FCFS") in wide.columns else empty).rename(None)
            for b in ("-", NOKILL)}  # fmt: skip
    mine = wide.reindex(columns=cols)
    pct = pd.DataFrame(np.nan, index=months, columns=cols)
    for r, s in cols:
        f = base[base_of(r)]
        pct[(r, s)] = 100.0 * (mine[(r, s)] - f) / f
    return base, pct


def total_change(percents: Sequence[float], fcfs: Sequence[float]) -> float:
    """The Sum row: 100 (sum of PFCFS - sum of FCFS) / sum of FCFS over the months,
    from monthly percents and FCFS values (pairs with either missing left out);
    the FCFS-weighted mean of the percents. NaN without a pair."""
    p = np.asarray(percents, dtype=float)
    f = np.asarray(fcfs, dtype=float)
    ok = np.isfinite(p) & np.isfinite(f)
    if not ok.any():
        return math.nan
    return float(np.dot(p[ok], f[ok]) / f[ok].sum())


def weighted_mean(percents: Sequence[float], weights: Sequence[float]) -> float:
    """`total_change` by another name: the paper's monthly percents weighted by
    (our) FCFS values, the reconstruction of its Sum row tested here."""
    return total_change(percents, weights)


# -- the tables --------------------------------------------------------------------------


def side_by_side(values: pd.DataFrame, table: PaperTable) -> pd.DataFrame:
    """One of Tables 4-9 beside ours: ``month`` (the months, then ``Sum``), our FCFS
    value (``fcfs_<metric>``; the Sum row's is the total), the paper's columns
    (``paper_PFCFS1``...) and ours per reading (``waits_PFCFS1``...), in percent."""
    base, pct = _changes(values, table.metric, table.nodes)
    fcfs = base["-"]
    paper = table.frame()
    out = pd.DataFrame({"month": list(MONTHS), f"fcfs_{table.metric}": fcfs.to_numpy()})
    if _readings(values) and any(r.endswith(NOKILL) for r in _readings(values)):
        out[f"fcfs{NOKILL}_{table.metric}"] = base[NOKILL].to_numpy()
    for s in STRATEGIES:
        out[f"paper_{s}"] = paper[s].to_numpy()
    for reading, s in pct.columns:
        out[f"{reading}_{s}"] = pct[(reading, s)].to_numpy()
    total: dict[str, Any] = {"month": "Sum", f"fcfs_{table.metric}": float(fcfs.sum())}
    if f"fcfs{NOKILL}_{table.metric}" in out:
        total[f"fcfs{NOKILL}_{table.metric}"] = float(base[NOKILL].sum())
    for i, s in enumerate(STRATEGIES):
        total[f"paper_{s}"] = table.total[i]
    for reading, s in pct.columns:
        total[f"{reading}_{s}"] = total_change(pct[(reading, s)], base[base_of(reading)])
    return pd.concat([out, pd.DataFrame([total])], ignore_index=True)


def sums(values: pd.DataFrame) -> pd.DataFrame:
    """Per paper table and strategy: the printed Sum, the plain mean of the paper's
    monthly percents, their FCFS-weighted mean with our FCFS values as the weights
    (the reconstruction), each one's error against the printed Sum (percentage
    points), and our Sum rows per reading (`total_change`)."""
    readings = _readings(values)
    rows = []
    for table in TABLES:
        base, pct = _changes(values, table.metric, table.nodes)
        fcfs = base["-"]
        paper = table.frame()
        for i, s in enumerate(STRATEGIES):
            plain = float(paper[s].mean())
            weighted = weighted_mean(paper[s], fcfs)
            row: dict[str, Any] = {
                "table": table.number, "metric": table.metric, "nodes": table.nodes,
                "strategy": s, "paper_sum": table.total[i], "paper_plain_mean": plain,
                "paper_weighted_mean": weighted,
                "plain_error": plain - table.total[i],
                "weighted_error": weighted - table.total[i],
            }  # fmt: skip
            for r in readings:
                row[f"{r}_sum"] = total_change(pct[(r, s)], base[base_of(r)])
            rows.append(row)
    return pd.DataFrame(rows)


def _sign_agrees(ours_pct: np.ndarray, paper: np.ndarray) -> np.ndarray:
    # Ours as the paper prints it (0.1%): a printed 0.0% agrees only with a 0.0%.
    return np.sign(np.round(ours_pct, 1)) == np.sign(paper)


def _pearson(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson's r over the pairs where both are finite; NaN with fewer than 3 pairs or a
    constant side."""
    ok = np.isfinite(x) & np.isfinite(y)
    a, b = x[ok], y[ok]
    if a.size < 3 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return math.nan
    return float(np.corrcoef(a, b)[0, 1])


def agreement(values: pd.DataFrame) -> pd.DataFrame:
    """Per table, reading and pairing: the month cells with both values
    (``month_cells``), those where ours has the paper's sign (``same_sign``) and
    those within 25% (relative) of it (``within_25pct``), Pearson's r of ours and the
    paper's over the months (``pearson_r``), and the Sum rows. ``pairing`` is
    ``as named`` (our PFCFSk against the paper's PFCFSk) or ``swapped (hypothesis)``
    (our PFCFS2 against the paper's PFCFS3 and the reverse; PFCFS1 is not repeated)."""
    rows = []
    for table in TABLES:
        base, pct = _changes(values, table.metric, table.nodes)
        paper = table.frame()
        for reading in _readings(values):
            fcfs = base[base_of(reading)]
            swapped = {o: p for o, p in SWAPPED.items() if o != p}
            for pairing, pairs in (("as named", {s: s for s in STRATEGIES}),
                                   ("swapped (hypothesis)", swapped)):  # fmt: skip
                for our_s, paper_s in pairs.items():
                    o = pct[(reading, our_s)].to_numpy()
                    p = paper[paper_s].to_numpy()
                    ok = np.isfinite(o)
                    rows.append({
                        "table": table.number, "metric": table.metric, "nodes": table.nodes,
                        "reading": reading, "pairing": pairing, "ours": our_s,
                        "paper": paper_s, "month_cells": int(ok.sum()),
                        "same_sign": int(_sign_agrees(o[ok], p[ok]).sum()),
                        "within_25pct": int((np.abs(o[ok] - p[ok]) <= WITHIN * np.abs(p[ok]))
                                            .sum()),
                        "pearson_r": _pearson(o, p),
                        "paper_sum": table.total[STRATEGIES.index(paper_s)],
                        "ours_sum": total_change(o, fcfs),
                    })  # fmt: skip
    return pd.DataFrame(rows)


def consistency() -> pd.DataFrame:
    """The paper's completion and flow tables against each other (module docstring):
    per machine, month and strategy, the two percents, their ratio and whether they
    can hold for one job set (one sign, abs(completion) <= abs(flow) + 0.1 for rounding)."""
    rows = []
    for nodes in (128, 256):
        comp = _table("weighted_completion_time", nodes)
        flow = _table("weighted_flow_time", nodes)
        c_frame, f_frame = comp.frame(), flow.frame()
        for month in MONTHS:
            for s in STRATEGIES:
                c, f = float(c_frame.loc[month, s]), float(f_frame.loc[month, s])
                possible = c * f >= 0 and abs(c) <= abs(f) + 0.1
                rows.append({"nodes": nodes, "month": month, "strategy": s,
                             "tables": f"{comp.number}/{flow.number}", "completion": c,
                             "flow": f, "ratio": c / f if f else math.nan,
                             "possible": possible})  # fmt: skip
    return pd.DataFrame(rows)
