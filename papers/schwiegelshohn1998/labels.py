"""Schwiegelshohn & Yahyapour 1998: is the paper's PFCFS2 column our PFCFS3?

Two pieces of evidence, computed from the study's runs (the page and the readings
table use them; the reading "labels swapped" of `schedsim.papers.schwiegelshohn1998.claims`
scores the paper's PFCFS2 claims against our PFCFS3 and the reverse):

* **the columns' correlation** (`swap_summary`, from `analyses.agreement`): per table
  and queue reading, Pearson's r over the 11 months between the paper's PFCFS2 column
  and our PFCFS2, and our PFCFS3, with the share of months whose signs agree;
* **the queue-order argument** (`queue_order`). Under Table 1 as written (queue
  ``waits``) the queue is taken one job at a time, so a wide job's cycle holds every
  later job back. PFCFS2 (Table 3) gives a wide job one minute after one minute of
  waiting, then suspends it until its partition is empty. The partition is the idle
  nodes and those of the jobs it preempted; those jobs lost that minute, and nothing
  else starts meanwhile, so the partition empties one minute after all of them end in
  FCFS at the earliest, and by then FCFS would have started the wide job. The wide job
  resumes there with its run less one minute: it ends no earlier than in FCFS, and
  strict FCFS never starts a job earlier when earlier jobs end later. So PFCFS2 can beat
  FCFS only through a wide job that ends within its one-minute run. The table counts
  them per month and machine (`schedsim.papers.schwiegelshohn1998.bound.month_facts`,
  runs of at most `QUANTUM2`, an upper bound: a wide job that never waits a minute
  never preempts) beside the paper's PFCFS2 gains and ours under ``waits``.
"""

from __future__ import annotations

import math

import pandas as pd

from schedsim.papers.schwiegelshohn1998.analyses import METRICS, _percents, _readings, total_change
from schedsim.papers.schwiegelshohn1998.tables import MONTHS, TABLES, PaperTable

__all__ = ["queue_order", "swap_summary"]


def swap_summary(agreement: pd.DataFrame, column: str = "PFCFS2") -> pd.DataFrame:
    """Per table and queue reading, the paper's ``column`` against our strategy of the
    same name (``*_as_named``) and against the one the swap pairs it with
    (``*_swapped``): Pearson's r over the months, and the months whose signs agree
    (``signs_*``, of ``months``). ``agreement``: `analyses.agreement`'s table."""
    rows = []
    paper = agreement[agreement["paper"] == column]
    for (number, reading), part in paper.groupby(["table", "reading"], sort=False):
        named = part[part["pairing"] == "as named"]
        swapped = part[part["pairing"] != "as named"]
        if named.empty or swapped.empty:
            continue
        n, s = named.iloc[0], swapped.iloc[0]
        rows.append({"table": number, "metric": n["metric"], "nodes": n["nodes"],
                     "reading": reading, "paper": column, "months": int(n["month_cells"]),
                     "ours_as_named": n["ours"], "r_as_named": n["pearson_r"],
                     "signs_as_named": int(n["same_sign"]), "ours_swapped": s["ours"],
                     "r_swapped": s["pearson_r"],
                     "signs_swapped": int(s["same_sign"])})  # fmt: skip
    return pd.DataFrame(rows)


def _paper(metric: str, nodes: int) -> PaperTable | None:
    """The paper's table of ``metric`` on ``nodes`` nodes (None: it has none)."""
    return next((t for t in TABLES if t.metric == metric and t.nodes == nodes), None)


def queue_order(values: pd.DataFrame, facts: pd.DataFrame) -> pd.DataFrame:
    """Per machine and month (then a ``Sum`` row per machine): the wide jobs and those
    that end within PFCFS2's one-minute run (the only jobs through which PFCFS2 can gain
    on FCFS under ``waits``; module docstring), beside the paper's PFCFS2 change for each
    metric (``paper_<metric>``, percent; NaN on a machine the paper did not run) and ours
    under ``waits`` (``waits_<metric>``)."""
    rows = []
    waits = "waits" in _readings(values)
    for nodes in sorted(set(facts["nodes"])):
        part = facts[facts["nodes"] == nodes].set_index("month")
        ours = {m: _percents(values, m, nodes) for m in METRICS}

        def pfcfs2(metric: str, ours: dict = ours) -> pd.Series:
            pct = ours[metric][1]
            return pct[("waits", "PFCFS2")] if waits else pd.Series(math.nan, index=list(MONTHS))

        months = [m for m in MONTHS if m in part.index]
        for month in months:
            row: dict[str, object] = {
                "nodes": nodes, "month": month,
                "wide_jobs": int(part.at[month, "wide_jobs"]),
                "wide_within_quantum": int(part.at[month, "wide_within_quantum"]),
            }  # fmt: skip
            for metric in METRICS:
                table = _paper(metric, nodes)
                printed = math.nan if table is None else table.frame().at[month, "PFCFS2"]
                row[f"paper_{metric}"] = float(printed)
            for metric in METRICS:
                row[f"waits_{metric}"] = float(pfcfs2(metric)[month])
            rows.append(row)
        total: dict[str, object] = {
            "nodes": nodes, "month": "Sum", "wide_jobs": int(part["wide_jobs"].sum()),
            "wide_within_quantum": int(part["wide_within_quantum"].sum()),
        }  # fmt: skip
        for metric in METRICS:
            table = _paper(metric, nodes)
            total[f"paper_{metric}"] = math.nan if table is None else table.total[1]
        for metric in METRICS:
            fcfs = ours[metric][0]
            total[f"waits_{metric}"] = total_change(pfcfs2(metric)[months], fcfs[months])
        rows.append(total)
    columns = ["nodes", "month", "wide_jobs", "wide_within_quantum",
               *(f"paper_{m}" for m in METRICS), *(f"waits_{m}" for m in METRICS)]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)
