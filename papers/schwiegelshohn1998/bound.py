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

The weighted objectives of Tables 5, 6, 8 and 9 (section 3: c_S = sum_i w_i t_i, w_i =
r_i h_i, Definition 3.1, completion times from the first submit; the flow time is the
same less the constant sum_i w_i s_i) have a lower bound of the same kind
(`weighted_completion_bound`). In any schedule, preemptive or not, with or without
migration, job i runs on its r_i nodes for h_i seconds in all, at instants T_i inside
[s_i, t_i]. Its mean busy time M_i = (1/h_i) integral over T_i of t dt then obeys

* t_i >= M_i + h_i/2: a set of measure h_i that ends by t_i has its mean at most that of
  [t_i - h_i, t_i];
* M_i >= s_i + h_i/2: likewise, it starts at s_i at the earliest.

So c_S >= sum_i w_i M_i + (1/2) sum_i w_i h_i, and sum_i w_i M_i is at least the larger of

* ``by_job``: sum_i w_i (s_i + h_i/2), from the second inequality;
* ``by_work``: with w_i = r_i h_i, sum_i w_i M_i = sum_i r_i (integral over T_i of t dt)
  = integral of t U(t) dt, U(t) the nodes busy at t, = integral of (W - D(t)) dt with
  D(t) the node-seconds done by t and W their total. No schedule does more work by t
  than D*(t), one server of speed R serving the node-seconds r_i h_i as they are
  submitted (D*(t) = min over u <= t of (the work submitted before u) + R (t - u)), so
  the integral is at least that of t dD*(t): in submit order the server ends job k's
  work at c_k = max(c_(k-1), s_k) + r_k h_k / R, having worked at it for r_k h_k / R
  seconds, so the integral is sum_k r_k h_k (c_k - r_k h_k / (2R)).

With the jobs all submitted at once, ``by_work`` is the paper's own bound on the optimal
weighted completion time that ignores submit times (section 5, Corollary 5.1 and the
proof of Lemma 5.1: c_opt >= x^2 R / 2 + (1/2) sum_i h_i^2 r_i, x the total work over
R). Both bounds are tight: ``by_job`` for jobs that never wait, ``by_work`` for jobs of
the whole machine run back to back (the tests build both). The weighted flow time's
bound is the completion time's less sum_i w_i (s_i - start).

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

from schedsim.papers.schwiegelshohn1998.tables import MONTHS, STRATEGIES, TABLES, PaperTable
from schedsim.policies.gang import PFCFS2

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.app.report.study_results import StudyResults

__all__ = [
    "FACTS",
    "QUANTUM2",
    "bound_table",
    "for_runs",
    "makespan_bound",
    "month_facts",
    "weighted_bound_table",
    "weighted_completion_bound",
]

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
    "kill_at_estimate": "",
    "fcfs_weighted_completion_time": "core s^2",
    "completion_bound_by_job": "core s^2",
    "completion_bound_by_work": "core s^2",
    "weighted_completion_bound": "core s^2",
    "largest_completion_change": "%",
    "fcfs_weighted_flow_time": "core s^2",
    "weighted_flow_bound": "core s^2",
    "largest_flow_change": "%",
}
#: The weighted metrics (Tables 5, 6, 8 and 9): the month facts' FCFS value, bound and
#: largest change columns.
WEIGHTED: dict[str, tuple[str, str, str]] = {
    "weighted_completion_time": ("fcfs_weighted_completion_time", "weighted_completion_bound",
                                 "largest_completion_change"),
    "weighted_flow_time": ("fcfs_weighted_flow_time", "weighted_flow_bound",
                           "largest_flow_change"),
}  # fmt: skip


def makespan_bound(submit: Sequence[float], run: Sequence[float], size: Sequence[float],
                   nodes: int, start: float) -> tuple[float, float]:  # fmt: skip
    """Two lower bounds on the makespan (from ``start``) of any schedule of these jobs on
    ``nodes`` nodes (module docstring): max_i (s_i + h_i) and max_k (s_k + W_k / R),
    each minus ``start``. The makespan bound is the larger; NaN without jobs."""
    s, h, work = _in_submit_order(submit, run, size)
    if s.size == 0:
        return math.nan, math.nan
    # The work of the jobs from the k-th in submit order on; among jobs submitted at the
    # same time the first of them carries the whole group's work, the largest term.
    tail = np.cumsum(work[::-1])[::-1]
    by_job = float((s + h).max()) - start
    by_work = float((s + tail / nodes).max()) - start
    return by_job, by_work


def _in_submit_order(
    submit: Sequence[float], run: Sequence[float], size: Sequence[float]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The jobs' submit times s_i, run times h_i and work r_i h_i (node-seconds), as
    arrays in submit order (stable: ties keep the jobs' order)."""
    s = np.asarray(submit, dtype=float)
    h = np.asarray(run, dtype=float)
    r = np.asarray(size, dtype=float)
    order = np.argsort(s, kind="stable")
    return s[order], h[order], (r * h)[order]


def weighted_completion_bound(submit: Sequence[float], run: Sequence[float],
                              size: Sequence[float], nodes: int,
                              start: float) -> tuple[float, float]:  # fmt: skip
    """Two lower bounds on the total weighted completion time sum_i w_i (t_i - start),
    w_i = r_i h_i, of any schedule of these jobs on ``nodes`` nodes (module docstring):
    ``by_job`` = sum_i w_i (s_i + h_i - start) and ``by_work`` = the single fast server's
    sum_k w_k (c_k - w_k / (2R) - start) + (1/2) sum_i w_i h_i. The bound is the larger
    (the larger of the two sums of mean busy times, plus the same half sum); NaN
    without jobs."""
    s, h, w = _in_submit_order(submit, run, size)
    if s.size == 0:
        return math.nan, math.nan
    served = w / nodes  # seconds the server of speed R works at each job
    done = np.cumsum(served)
    # c_k = max over j <= k of (s_j + the work of jobs j..k): a vectorised Lindley recursion.
    ends = done + np.maximum.accumulate(s - (done - served))
    half = 0.5 * float(np.dot(w, h))
    by_job = float(np.dot(w, s + h - start))
    by_work = float(np.dot(w, ends - served / 2 - start)) + half
    return by_job, by_work


def month_facts(results: StudyResults) -> pd.DataFrame:
    """Per month and machine of the study's FCFS runs (`FACTS`): the jobs (the paper's
    Table 2 counts them), the wide jobs (r_i > R/2) and those whose run is at most
    `QUANTUM2`, our FCFS makespan, the two lower bounds on any schedule's makespan, the
    larger (``makespan_bound``) and ``largest_change`` = 100 (bound - FCFS) / FCFS, the
    most any schedule of the month could gain on FCFS (percent); the same for the
    weighted completion and flow times (`weighted_completion_bound`). One row per FCFS
    run: ``kill_at_estimate`` says which run times (killed at the requested time, the
    default, or not; `for_runs` picks one). Empty when the study has no FCFS run with
    its job table (a run saved without ``jobs.parquet`` is left out)."""
    done = results.done
    if not {"policy", "month", "nodes"} <= set(done.columns):
        return pd.DataFrame(columns=list(FACTS))
    fcfs = done[(done["policy"] == "fcfs") & (done["replication"] == 0)
                & done["month"].isin(list(MONTHS))]  # fmt: skip
    rows = []
    for run in fcfs.to_dict("records"):
        try:
            result = results.result(str(run["id"]))
        except (OSError, ValueError):  # a run saved without its job table: no facts for it
            continue
        jobs = result.jobs
        nodes = int(run["nodes"])
        submit, runs, size = jobs["submit"], jobs["run"], jobs["size"]
        by_job, by_work = makespan_bound(submit, runs, size, nodes, result.run_start)
        makespan = result.makespan
        bound = max(by_job, by_work)
        wide = size.to_numpy() > nodes / 2
        short = wide & (runs.to_numpy() <= QUANTUM2)
        c_job, c_work = weighted_completion_bound(submit, runs, size, nodes, result.run_start)
        summary = result.summary()
        completion = float(summary["weighted_completion_time"])
        flow = float(summary["weighted_flow_time"])
        c_bound = max(c_job, c_work)
        # Flow and completion differ by sum_i w_i (s_i - start) in every schedule.
        f_bound = c_bound - (completion - flow)
        kill = run.get("kill_at_estimate", True)
        rows.append({
            "month": str(run["month"]), "nodes": nodes, "jobs": len(jobs),
            "wide_jobs": int(wide.sum()), "wide_within_quantum": int(short.sum()),
            "fcfs_makespan": makespan, "bound_by_job": by_job, "bound_by_work": by_work,
            "makespan_bound": bound, "largest_change": 100.0 * (bound - makespan) / makespan,
            "kill_at_estimate": True if pd.isna(kill) else bool(kill),
            "fcfs_weighted_completion_time": completion, "completion_bound_by_job": c_job,
            "completion_bound_by_work": c_work, "weighted_completion_bound": c_bound,
            "largest_completion_change": 100.0 * (c_bound - completion) / completion,
            "fcfs_weighted_flow_time": flow, "weighted_flow_bound": f_bound,
            "largest_flow_change": 100.0 * (f_bound - flow) / flow,
        })  # fmt: skip
    frame = pd.DataFrame(rows, columns=list(FACTS))
    frame = frame.sort_values(["kill_at_estimate", "nodes", "month"], ascending=[False, True, True])
    return frame.reset_index(drop=True)


def for_runs(facts: pd.DataFrame, kill_at_estimate: bool = True) -> pd.DataFrame:
    """The month facts of the FCFS runs with these run times (`month_facts`): killed at
    the requested time (the study's default) or not. Facts without the column (made
    before it) are the default's."""
    if "kill_at_estimate" not in facts or facts["kill_at_estimate"].isna().all():
        return facts if kill_at_estimate else facts.iloc[0:0]
    keep = facts["kill_at_estimate"].fillna(True).astype(bool) == kill_at_estimate
    return facts[keep].reset_index(drop=True)


def bound_table(facts: pd.DataFrame) -> pd.DataFrame:
    """The paper's makespan cells (Tables 4 and 7) against the bound: per machine and
    month, and a Sum row per machine (the bound on the total of the months' makespans,
    the change of the totals as the Sum rows are computed), our FCFS makespan, the bound,
    the largest change any schedule can reach (percent), the paper's change per strategy
    and whether it is possible (``possible_PFCFSk``: not below the largest change).
    ``facts``: one FCFS run per month and machine (`for_runs`)."""
    rows = []
    for table in (t for t in TABLES if t.metric == "makespan"):
        rows += _table_rows(table, facts, "fcfs_makespan", "makespan_bound")
    columns = ["table", "nodes", "month", "fcfs_makespan", "makespan_bound", "largest_change",
               *(f"paper_{s}" for s in STRATEGIES),
               *(f"possible_{s}" for s in STRATEGIES)]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


def weighted_bound_table(facts: pd.DataFrame) -> pd.DataFrame:
    """`bound_table` for the weighted objectives (Tables 5, 6, 8 and 9): per table, month
    and a Sum row, our FCFS value (``fcfs``), the bound on any schedule's (``bound``,
    `weighted_completion_bound`), the largest change any schedule can reach, the paper's
    changes and whether each is possible. Months whose facts lack the bound (facts made
    before it) are left out."""
    rows = []
    for table in (t for t in TABLES if t.metric in WEIGHTED):
        fcfs, bound, _ = WEIGHTED[table.metric]
        for row in _table_rows(table, facts, fcfs, bound):
            row["fcfs"], row["bound"] = row.pop(fcfs), row.pop(bound)
            rows.append({"metric": table.metric, **row})
    columns = ["table", "metric", "nodes", "month", "fcfs", "bound", "largest_change",
               *(f"paper_{s}" for s in STRATEGIES),
               *(f"possible_{s}" for s in STRATEGIES)]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


def _table_rows(table: PaperTable, facts: pd.DataFrame, fcfs_column: str,
                bound_column: str) -> list[dict[str, object]]:  # fmt: skip
    """One paper table's rows of `bound_table` (its months with a finite bound, and the
    Sum row when all eleven have one)."""
    part = facts[facts["nodes"] == table.nodes].set_index("month")
    if bound_column not in part:
        return []
    part = part[np.isfinite(part[bound_column].astype(float))]
    paper = table.frame()
    rows = []
    for month in [m for m in MONTHS if m in part.index]:
        f, b = float(part.at[month, fcfs_column]), float(part.at[month, bound_column])
        printed = [float(paper.at[month, s]) for s in STRATEGIES]
        rows.append(_bound_row(table.number, table.nodes, month, fcfs_column, f,
                               bound_column, b, printed))  # fmt: skip
    if len(part) == len(MONTHS):
        f, b = float(part[fcfs_column].sum()), float(part[bound_column].sum())
        rows.append(_bound_row(table.number, table.nodes, "Sum", fcfs_column, f, bound_column,
                               b, list(table.total)))  # fmt: skip
    return rows


def _bound_row(number: int, nodes: int, month: str, fcfs_column: str, fcfs: float,
               bound_column: str, bound: float,
               paper: list[float]) -> dict[str, object]:  # fmt: skip
    largest = 100.0 * (bound - fcfs) / fcfs
    row: dict[str, object] = {"table": number, "nodes": nodes, "month": month,
                              fcfs_column: fcfs, bound_column: bound,
                              "largest_change": largest}  # fmt: skip
    for s, p in zip(STRATEGIES, paper, strict=True):
        row[f"paper_{s}"] = p
    for s, p in zip(STRATEGIES, paper, strict=True):
        # The paper prints to 0.1%: impossible only when its value, rounded, is below.
        row[f"possible_{s}"] = bool(p + 0.05 >= largest)
    return row
