"""Schwiegelshohn & Yahyapour 1998: what any schedule of a month can reach, from its jobs.

The paper's Tables 4 and 7 give makespan changes against FCFS as large as -28.7% (October
1996, 256 nodes, PFCFS2). Whether a change is possible at all does not depend on the
policy: no schedule of a job set, preemptive or not, can end before `makespan_bound`. So
the largest makespan change any schedule can reach against our FCFS schedule of a month
is 100 (bound - FCFS) / FCFS (`month_facts`), and a paper's cell below it is impossible
for the same jobs, whatever its simulator did.

The bound (`makespan_bound`), with the paper's definitions (section 3: makespan m_S =
max_i t_i, completion times from the first submit; rigid jobs, job i holds r_i nodes for
h_i seconds of execution, p = 0) is the larger of

* max_i (s_i + h_i): no job ends before its submit plus its run time (it cannot run
  faster on its r_i nodes, and preemption only adds time);
* max_k (s_k + W_k / R), W_k = sum of r_i h_i over the jobs submitted at or after s_k:
  none of those jobs can run before s_k, and the R nodes do at most R node-seconds of
  work per second, so the last of them ends at s_k + W_k / R at the earliest. At the
  first submit this is "the total work over the nodes".

Both hold for every schedule of the jobs: any order, with or without preemption or
migration. The run times h_i are those of our FCFS run (jobs killed at their requested
time run that long in every schedule, `kill_at_estimate`), the same job set every policy
of the month runs.

`month_facts` also counts, per month and machine, the jobs the paper's Table 2 counts
and the wide jobs (r_i > R/2, the only ones that preempt) and those of them that end
within PFCFS2's one-minute run (`schedsim.papers.schwiegelshohn1998.labels` uses them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from schedsim.papers.schwiegelshohn1998.tables import MONTHS, STRATEGIES, TABLES
from schedsim.policies.gang import PFCFS2

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.app.report.study_results import StudyResults

__all__ = ["FACTS", "QUANTUM2", "bound_table", "makespan_bound", "month_facts"]

#: PFCFS2's one run of a wide job before it yields (Table 3: "After running for 1 min"),
#: in seconds: the policy's own setting.
QUANTUM2: float = PFCFS2().quantum
#: The columns of `month_facts`, with their units.
FACTS: dict[str, str] = {
    "month": "",
    "nodes": "nodes",
    "jobs": "jobs",
    "wide_jobs": "jobs",
    "wide_within_quantum": "jobs",
    "fcfs_makespan": "s",
    "bound_by_job": "s",
    "bound_by_work": "s",
    "makespan_bound": "s",
    "largest_change": "%",
}


def makespan_bound(submit: Sequence[float], run: Sequence[float], size: Sequence[float],
                   nodes: int, start: float) -> tuple[float, float]:  # fmt: skip
    """Two lower bounds on the makespan (from ``start``) of any schedule of these jobs on
    ``nodes`` nodes (module docstring): max_i (s_i + h_i) and max_k (s_k + W_k / R),
    each minus ``start``. The makespan bound is the larger; NaN without jobs."""
    s = np.asarray(submit, dtype=float)
    h = np.asarray(run, dtype=float)
    r = np.asarray(size, dtype=float)
    if s.size == 0:
        return math.nan, math.nan
    order = np.argsort(s, kind="stable")
    work = (r * h)[order]
    # The work of the jobs from the k-th in submit order on; among jobs submitted at the
    # same time the first of them carries the whole group's work, the largest term.
    tail = np.cumsum(work[::-1])[::-1]
    by_job = float((s + h).max()) - start
    by_work = float((s[order] + tail / nodes).max()) - start
    return by_job, by_work


def month_facts(results: StudyResults) -> pd.DataFrame:
    """Per month and machine of the study's FCFS runs (`FACTS`): the jobs (the paper's
    Table 2 counts them), the wide jobs (r_i > R/2) and those whose run is at most
    `QUANTUM2`, our FCFS makespan, the two lower bounds on any schedule's makespan, the
    larger (``makespan_bound``) and ``largest_change`` = 100 (bound - FCFS) / FCFS, the
    most any schedule of the month could gain on FCFS (percent). Empty when the study
    has no FCFS run with its job table (a run saved without ``jobs.parquet`` is left
    out)."""
    done = results.done
    if not {"policy", "month", "nodes"} <= set(done.columns):
        return pd.DataFrame(columns=list(FACTS))
    fcfs = done[(done["policy"] == "fcfs") & (done["replication"] == 0)
                & done["month"].isin(list(MONTHS))]  # fmt: skip
    rows = []
    for run in fcfs.itertuples(index=False):
        try:
            result = results.result(str(run.id))
        except (OSError, ValueError):  # a run saved without its job table: no facts for it
            continue
        jobs = result.jobs
        nodes = int(run.nodes)
        by_job, by_work = makespan_bound(jobs["submit"], jobs["run"], jobs["size"], nodes,
                                         result.run_start)  # fmt: skip
        makespan = result.makespan
        bound = max(by_job, by_work)
        wide = jobs["size"].to_numpy() > nodes / 2
        short = wide & (jobs["run"].to_numpy() <= QUANTUM2)
        rows.append({
            "month": str(run.month), "nodes": nodes, "jobs": len(jobs),
            "wide_jobs": int(wide.sum()), "wide_within_quantum": int(short.sum()),
            "fcfs_makespan": makespan, "bound_by_job": by_job, "bound_by_work": by_work,
            "makespan_bound": bound, "largest_change": 100.0 * (bound - makespan) / makespan,
        })  # fmt: skip
    frame = pd.DataFrame(rows, columns=list(FACTS))
    return frame.sort_values(["nodes", "month"], ignore_index=True)


def bound_table(facts: pd.DataFrame) -> pd.DataFrame:
    """The paper's makespan cells (Tables 4 and 7) against the bound: per machine and
    month, and a Sum row per machine (the bound on the total of the months' makespans,
    the change of the totals as the Sum rows are computed), our FCFS makespan, the bound,
    the largest change any schedule can reach (percent), the paper's change per strategy
    and whether it is possible (``possible_PFCFSk``: not below the largest change)."""
    rows = []
    for table in (t for t in TABLES if t.metric == "makespan"):
        part = facts[facts["nodes"] == table.nodes].set_index("month")
        paper = table.frame()
        for month in [m for m in MONTHS if m in part.index]:
            f, b = float(part.at[month, "fcfs_makespan"]), float(part.at[month, "makespan_bound"])
            rows.append(_bound_row(table.number, table.nodes, month, f, b,
                                   [float(paper.at[month, s]) for s in STRATEGIES]))  # fmt: skip
        if len(part) == len(MONTHS):
            f, b = float(part["fcfs_makespan"].sum()), float(part["makespan_bound"].sum())
            rows.append(_bound_row(table.number, table.nodes, "Sum", f, b, list(table.total)))
    columns = ["table", "nodes", "month", "fcfs_makespan", "makespan_bound", "largest_change",
               *(f"paper_{s}" for s in STRATEGIES),
               *(f"possible_{s}" for s in STRATEGIES)]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


def _bound_row(number: int, nodes: int, month: str, fcfs: float, bound: float,
               paper: list[float]) -> dict[str, object]:  # fmt: skip
    largest = 100.0 * (bound - fcfs) / fcfs
    row: dict[str, object] = {"table": number, "nodes": nodes, "month": month,
                              "fcfs_makespan": fcfs, "makespan_bound": bound,
                              "largest_change": largest}  # fmt: skip
    for s, p in zip(STRATEGIES, paper, strict=True):
        row[f"paper_{s}"] = p
    for s, p in zip(STRATEGIES, paper, strict=True):
        # The paper prints to 0.1%: impossible only when its value, rounded, is below.
        row[f"possible_{s}"] = bool(p + 0.05 >= largest)
    return row
