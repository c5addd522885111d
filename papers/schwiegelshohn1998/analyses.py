"""Schwiegelshohn & Yahyapour 1998 (PFCFS): the paper's Tables 4-9 beside the study's.

The paper (section 6, appendix) compares three preemptive strategies of
Table 3, PFCFS1-3, with non-preemptive FCFS on each month of the CTC SP2
log from July 1996 to May 1997, on 128 and 256 nodes, as the percent
change 100 (PFCFS - FCFS) / FCFS (negative: better than FCFS) of the
makespan (Tables 4 and 7), the total weighted completion time (5 and 8)
and the total weighted flow time (6 and 9), with w_i = r_i h_i. `TABLES`
holds those tables as printed. A study of ``fcfs`` and ``pfcfs1``-``3``
(``month``, ``nodes``; optionally ``params.queue_in_cycle``, the two
readings of `schedsim.policies.gang`) is set beside them:

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

Our runs are identified by ``policy`` and ``params.queue_in_cycle``, not
by their labels; a run without the parameter is the default, ``waits``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from schedsim.app.report.study_results import StudyResults

__all__ = [
    "MONTHS",
    "READINGS",
    "STRATEGIES",
    "TABLES",
    "PaperTable",
    "agreement",
    "claims",
    "consistency",
    "month_figure",
    "ours",
    "side_by_side",
    "sums",
    "total_change",
    "weighted_mean",
    "write",
]

#: The paper's months (Tables 4-9): the study's ``month`` -> the paper's row name.
MONTHS: dict[str, str] = {
    "1996-07": "Jul 96", "1996-08": "Aug 96", "1996-09": "Sep 96", "1996-10": "Oct 96",
    "1996-11": "Nov 96", "1996-12": "Dec 96", "1997-01": "Jan 97", "1997-02": "Feb 97",
    "1997-03": "Mar 97", "1997-04": "Apr 97", "1997-05": "May 97",
}  # fmt: skip
#: Table 3's strategies; the policy names that run them.
STRATEGIES: tuple[str, ...] = ("PFCFS1", "PFCFS2", "PFCFS3")
POLICIES: dict[str, str] = {"pfcfs1": "PFCFS1", "pfcfs2": "PFCFS2", "pfcfs3": "PFCFS3"}
#: The readings of the queue during a wide job's cycle (`schedsim.policies.gang`), in order.
READINGS: tuple[str, ...] = ("waits", "moves")
#: The swapped-rows hypothesis: our strategy -> the paper's column it is set against.
SWAPPED: dict[str, str] = {"PFCFS1": "PFCFS1", "PFCFS2": "PFCFS3", "PFCFS3": "PFCFS2"}
#: Relative tolerance of a month cell "within 25%" of the paper's.
WITHIN = 0.25
#: Claims: "rough magnitude" is within this factor of the paper's Sum (either way);
#: "significant" improvement at least SIGNIFICANT percent; "very sensitive" a spread of
#: the three Sum rows of a table of at least SENSITIVE percentage points.
FACTOR = 2.0
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


@dataclass(frozen=True)
class PaperTable:
    """One of Tables 4-9: percent changes against FCFS, per month (rows in `MONTHS`
    order) and strategy (columns PFCFS1-3), and the printed Sum row."""

    number: int
    metric: str
    nodes: int
    months: tuple[tuple[float, float, float], ...]
    total: tuple[float, float, float]

    @property
    def name(self) -> str:
        return f"Table {self.number}"

    def frame(self) -> pd.DataFrame:
        """The monthly percents: index the study's months, columns `STRATEGIES`
        (made once per table; not to be changed)."""
        frame = _FRAMES.get(self.number)
        if frame is None:
            frame = pd.DataFrame(list(self.months), index=list(MONTHS), columns=list(STRATEGIES))
            _FRAMES[self.number] = frame
        return frame


_FRAMES: dict[int, pd.DataFrame] = {}


#: Tables 4-9 of the appendix, as printed (percent; negative: better than FCFS).
TABLES: tuple[PaperTable, ...] = (
    PaperTable(4, "makespan", 128, (
        (-3.5, -16.3, 20.0), (-8.3, -22.2, 14.3), (-10.0, -25.4, 8.7), (-4.9, -23.2, 12.2),
        (-18.0, -30.0, 11.2), (-12.5, -22.3, 20.3), (-4.9, -16.9, 16.4), (-4.1, -15.4, 32.3),
        (-5.6, -14.1, 15.4), (-14.3, -26.7, 8.6), (-15.8, -29.2, 3.0),
    ), (-9.5, -22.1, 14.4)),
    PaperTable(5, "weighted_completion_time", 128, (
        (-7.1, -19.7, 13.8), (-6.1, -20.4, 13.2), (-10.9, -25.5, 6.5), (-3.3, -20.9, 11.5),
        (-21.0, -33.4, 5.7), (-15.0, -25.6, 20.7), (-4.6, -13.4, 12.1), (-5.8, -18.3, 25.0),
        (-5.3, -14.2, 16.7), (-11.8, -24.5, 11.8), (-14.0, -28.4, 2.7),
    ), (-9.6, -22.2, 12.3)),
    PaperTable(6, "weighted_flow_time", 128, (
        (-10.4, -30.6, 22.0), (-22.6, -41.9, 2.0), (-15.9, -37.3, 9.4), (-5.2, -32.9, 17.4),
        (-29.7, -47.3, 8.1), (-22.4, -39.1, 31.7), (28.1, 9.6, 63.0), (-8.2, -28.8, 38.3),
        (-8.4, -22.3, 26.2), (-18.4, -38.3, 18.4), (-19.5, -39.5, 3.7),
    ), (-13.6, -33.2, 19.1)),
    PaperTable(7, "makespan", 256, (
        (-5.2, -6.9, 13.3), (-2.4, -9.0, 11.7), (-8.1, -19.6, 18.2), (-23.5, -28.7, -6.5),
        (-0.5, -9.6, 24.2), (-0.6, -5.6, 18.9), (-11.9, -18.7, 12.1), (-8.5, -13.7, 29.6),
        (-2.4, -7.3, 16.1), (-1.6, -8.6, 24.3), (1.4, -9.1, 24.4),
    ), (-6.4, -13.0, 16.2)),
    PaperTable(8, "weighted_completion_time", 256, (
        (-9.3, -11.6, 12.4), (-1.5, -8.1, 8.1), (-9.4, -19.4, 13.8), (0.9, -4.5, 20.7),
        (-0.7, -8.5, 23.1), (0.0, -6.2, 19.5), (-11.2, -15.9, 2.3), (-11.9, -15.1, 7.9),
        (-4.1, -7.5, 11.6), (0.9, -6.2, 22.9), (3.2, -7.2, 24.0),
    ), (-4.2, -10.4, 14.6)),
    PaperTable(9, "weighted_flow_time", 256, (
        (-37.2, -46.8, 49.8), (-6.9, -36.5, 36.9), (-24.9, -51.9, 35.5), (4.7, -22.0, 190.6),
        (-3.2, -31.8, 86.1), (-2.2, -30.1, 81.2), (-30.7, -42.3, 6.9), (-36.2, -47.3, 23.7),
        (-14.4, -28.0, 44.2), (5.3, -41.3, 147.3), (9.8, -22.5, 73.3),
    ), (-16.1, -38.0, 55.6)),
)  # fmt: skip


def _table(metric: str, nodes: int) -> PaperTable:
    return next(t for t in TABLES if t.metric == metric and t.nodes == nodes)


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
                "reading": reading.where(strategy != "FCFS", "-"),
                "value": done[metric].astype(float),
            }
        )
        rows.append(frame[frame["strategy"].notna()])
    if not rows:
        return pd.DataFrame(columns=columns)
    return pd.concat(rows, ignore_index=True)[columns]


def _readings(values: pd.DataFrame) -> list[str]:
    present = set(values.loc[values["strategy"] != "FCFS", "reading"])
    return [r for r in READINGS if r in present]


def _percents(values: pd.DataFrame, metric: str, nodes: int) -> tuple[pd.Series, pd.DataFrame]:
    """Our FCFS values by month, and our percent changes against them: columns
    (reading, strategy), index the months (NaN where a run is missing)."""
    part = values[(values["metric"] == metric) & (values["nodes"] == nodes)]
    months = list(MONTHS)
    cols = pd.MultiIndex.from_product([_readings(values), list(STRATEGIES)])
    if part.empty:
        return pd.Series(np.nan, index=months), pd.DataFrame(np.nan, index=months, columns=cols)
    wide = part.pivot_table(index="month", columns=["reading", "strategy"], values="value",
                            aggfunc="first").reindex(months).astype(float)  # fmt: skip
    fcfs = wide[("-", "FCFS")] if ("-", "FCFS") in wide.columns else pd.Series(np.nan, months)
    pct = 100.0 * wide.reindex(columns=cols).sub(fcfs, axis=0).div(fcfs, axis=0)
    return fcfs.rename(None), pct


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
    fcfs, pct = _percents(values, table.metric, table.nodes)
    paper = table.frame()
    out = pd.DataFrame({"month": list(MONTHS), f"fcfs_{table.metric}": fcfs.to_numpy()})
    for s in STRATEGIES:
        out[f"paper_{s}"] = paper[s].to_numpy()
    for reading, s in pct.columns:
        out[f"{reading}_{s}"] = pct[(reading, s)].to_numpy()
    total: dict[str, Any] = {"month": "Sum", f"fcfs_{table.metric}": float(fcfs.sum())}
    for i, s in enumerate(STRATEGIES):
        total[f"paper_{s}"] = table.total[i]
    for reading, s in pct.columns:
        total[f"{reading}_{s}"] = total_change(pct[(reading, s)], fcfs)
    return pd.concat([out, pd.DataFrame([total])], ignore_index=True)


def sums(values: pd.DataFrame) -> pd.DataFrame:
    """Per paper table and strategy: the printed Sum, the plain mean of the paper's
    monthly percents, their FCFS-weighted mean with our FCFS values as the weights
    (the reconstruction), each one's error against the printed Sum (percentage
    points), and our Sum rows per reading (`total_change`)."""
    readings = _readings(values)
    rows = []
    for table in TABLES:
        fcfs, pct = _percents(values, table.metric, table.nodes)
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
                row[f"{r}_sum"] = total_change(pct[(r, s)], fcfs)
            rows.append(row)
    return pd.DataFrame(rows)


def _sign_agrees(ours_pct: np.ndarray, paper: np.ndarray) -> np.ndarray:
    # Ours as the paper prints it (0.1%): a printed 0.0% agrees only with a 0.0%.
    return np.sign(np.round(ours_pct, 1)) == np.sign(paper)


def agreement(values: pd.DataFrame) -> pd.DataFrame:
    """Per table, reading and pairing: the month cells with both values
    (``month_cells``), those where ours has the paper's sign (``same_sign``) and
    those within 25% (relative) of it (``within_25pct``),
    and the Sum rows. ``pairing`` is ``as named`` (our PFCFSk against the paper's
    PFCFSk) or ``swapped (hypothesis)`` (our PFCFS2 against the paper's PFCFS3 and
    the reverse; PFCFS1 is not repeated)."""
    rows = []
    for table in TABLES:
        fcfs, pct = _percents(values, table.metric, table.nodes)
        paper = table.frame()
        for reading in _readings(values):
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


# -- the figure ------------------------------------------------------------------------------


def month_figure(values: pd.DataFrame, metric: str = "weighted_flow_time") -> Figure:
    """The paper's percents and ours month by month for ``metric``: a row per
    machine (128, 256 nodes), a panel per strategy; ours per reading."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(12, 6.4), layout="constrained")
    axes = fig.subplots(2, len(STRATEGIES), squeeze=False, sharex=True)
    x = np.arange(len(MONTHS))
    styles = {"waits": ("C0", "--", "s"), "moves": ("C1", "-.", "^")}
    for r, nodes in enumerate((128, 256)):
        table = _table(metric, nodes)
        _, pct = _percents(values, metric, nodes)
        paper = table.frame()
        for c, s in enumerate(STRATEGIES):
            ax = axes[r][c]
            ax.axhline(0.0, color="#999999", linewidth=0.8)
            ax.plot(x, paper[s], color="black", marker="o", label=f"paper ({table.name})")
            for reading in _readings(values):
                color, line, mark = styles[reading]
                ax.plot(x, pct[(reading, s)], color=color, linestyle=line, marker=mark,
                        label=f"ours, queue {reading}")  # fmt: skip
            ax.set_title(f"{s}, {nodes} nodes ({table.name})", fontsize=10)
            ax.grid(alpha=0.3)
            if c == 0:
                ax.set_ylabel(f"{METRICS[metric]} against FCFS (%)")
            if r == 1:
                ax.set_xticks(x, list(MONTHS.values()), rotation=60, fontsize=8)
                ax.set_xlabel("month of the CTC log (month)")
    axes[0][0].legend(fontsize=8, loc="best")
    fig.suptitle(f"PFCFS against FCFS, {METRICS[metric]}: the paper (Schwiegelshohn & "
                 "Yahyapour 1998) and ours (negative: better than FCFS)")  # fmt: skip
    return fig


# -- writing -----------------------------------------------------------------------------------


def _unit(metric: str) -> Callable[[str], str]:
    """Units of a side-by-side or sums table: our FCFS value in the metric's unit,
    percents in %, errors of a Sum in percentage points."""

    def unit(column: str) -> str:
        if column == f"fcfs_{metric}":
            return UNITS[metric]
        if column.endswith("_error"):
            return "points"
        if column.startswith(("paper_", *(f"{r}_" for r in READINGS))):
            return "%"
        return ""

    return unit


def _agreement_unit(column: str) -> str:
    if column in ("month_cells", "same_sign", "within_25pct"):
        return "cells"
    return "%" if column.endswith("_sum") else ""


def _consistency_unit(column: str) -> str:
    return {"completion": "%", "flow": "%", "ratio": "ratio"}.get(column, "")


def write(results: StudyResults, out: Path) -> tuple[list[Path], list[Path], pd.DataFrame]:
    """The paper's tables beside ours, the Sum rows, the agreement, the paper's
    consistency and the claims, into ``out``:

    ``schwiegelshohn1998-table<N>.csv`` for N = 4-9 (`side_by_side`),
    ``schwiegelshohn1998-sums.csv``, ``schwiegelshohn1998-agreement.csv``,
    ``schwiegelshohn1998-consistency.csv``, ``claims.csv``, and the figure
    ``schwiegelshohn1998-flow-by-month.png`` (`month_figure`).
    """
    from schedsim.app.report.formats import with_units
    from schedsim.app.report.plots import save_figures

    values = ours(results)
    tables: list[Path] = []

    def put(frame: pd.DataFrame, name: str, unit: Callable[[str], str]) -> None:
        path = out / name
        with_units(frame, unit).to_csv(path, index=False)
        tables.append(path)

    for table in TABLES:
        put(side_by_side(values, table), f"schwiegelshohn1998-table{table.number}.csv",
            _unit(table.metric))  # fmt: skip
    put(sums(values), "schwiegelshohn1998-sums.csv", _unit("makespan"))
    put(agreement(values), "schwiegelshohn1998-agreement.csv", _agreement_unit)
    put(consistency(), "schwiegelshohn1998-consistency.csv", _consistency_unit)
    claimed = claims(values)
    path = out / "claims.csv"
    claimed.to_csv(path, index=False)
    tables.append(path)
    plots: list[Path] = []
    if len(values) and _readings(values):
        plots = save_figures([("schwiegelshohn1998-flow-by-month", month_figure(values))], out)
    return tables, plots, claimed
