"""Schwiegelshohn & Yahyapour 1998: the makespan bound and the queue-order argument
(schedsim.papers.schwiegelshohn1998.bound, .labels), on workloads built by hand."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_report import run, write_study

from schedsim import Simulation
from schedsim.app.report.study_results import StudyResults
from schedsim.papers import schwiegelshohn1998 as paper
from schedsim.policies.gang import PFCFS1, PFCFS2, PFCFS3
from schedsim.workloads.job import Job
from schedsim.workloads.workload import Workload


def job(jid: int, submit: float, size: int, run: float) -> Job:
    return Job(jid, float(submit), float(run), size, float(run))


def simulate(policy: object, jobs: list[Job], nodes: int):
    return Simulation(Workload.from_jobs(jobs, max_procs=nodes), policy).run()  # type: ignore[arg-type]


def test_the_bound_by_hand() -> None:
    # 2 nodes. A (2 nodes, 10 s) at 0, B (1 node, 1 s) at 1, C (2 nodes, 4 s) at 5.
    # Each job's submit + run: 10, 2, 9. The work from each submit on: 29, 9, 8 node-s,
    # over 2 nodes: 0 + 14.5, 1 + 4.5, 5 + 4. FCFS: A 0-10, B 10-11, C 11-15.
    by_job, by_work = paper.makespan_bound([0, 1, 5], [10, 1, 4], [2, 1, 2], 2, 0.0)
    assert (by_job, by_work) == (10.0, 14.5)
    fcfs = simulate("fcfs", [job(1, 0, 2, 10), job(2, 1, 1, 1), job(3, 5, 2, 4)], 2)
    assert fcfs.makespan == 15.0 >= max(by_job, by_work)
    # From another origin (the first submit at 100), and in any order.
    assert paper.makespan_bound([105, 101, 100], [4, 1, 10], [2, 1, 2], 2, 100.0) == (10.0, 14.5)
    # Jobs submitted together: their whole work counts from that submit.
    assert paper.makespan_bound([0, 0], [10, 10], [1, 1], 1, 0.0) == (10.0, 20.0)
    # One late long job: its own submit + run is the bound.
    assert paper.makespan_bound([0, 100], [1, 50], [1, 1], 4, 0.0) == (150.0, 112.5)
    assert all(math.isnan(v) for v in paper.makespan_bound([], [], [], 4, 0.0))


def _random_jobs(rng: np.random.Generator, n: int, nodes: int) -> list[Job]:
    submits = np.cumsum(rng.exponential(40.0, n))
    return [job(i + 1, float(round(s)), int(rng.integers(1, nodes + 1)),
                float(rng.integers(1, 400))) for i, s in enumerate(submits)]  # fmt: skip


@pytest.mark.parametrize("seed", range(6))
def test_no_schedule_ends_before_the_bound(seed: int) -> None:
    # FCFS and every PFCFS, under both readings of the queue, on random workloads of 8
    # nodes (wide jobs: more than 4): none ends before the bound on any schedule.
    rng = np.random.default_rng(seed)
    jobs = _random_jobs(rng, 40, 8)
    bound = max(paper.makespan_bound([j.submit for j in jobs], [j.run_time for j in jobs],
                                     [j.size for j in jobs], 8, jobs[0].submit))  # fmt: skip
    policies: list[object] = ["fcfs"]
    for queue in ("waits", "moves"):
        policies += [PFCFS1(queue_in_cycle=queue), PFCFS2(queue_in_cycle=queue),
                     PFCFS3(queue_in_cycle=queue)]  # fmt: skip
    for policy in policies:
        result = simulate(policy, jobs, 8)
        assert result.makespan >= bound - 1e-9, policy


@pytest.mark.parametrize("seed", range(8))
def test_pfcfs2_under_waits_gains_only_through_wide_jobs_within_its_minute(seed: int) -> None:
    # The queue-order argument (labels module): without a wide job that ends within its
    # one-minute run, no job ends earlier under PFCFS2 (queue waits) than under FCFS.
    rng = np.random.default_rng(100 + seed)
    jobs = [j if j.size <= 4 or j.run_time > paper.QUANTUM2 else job(j.id, j.submit, j.size, 61)
            for j in _random_jobs(rng, 40, 8)]  # fmt: skip
    fcfs = simulate("fcfs", jobs, 8).jobs.set_index("id")["end"]
    pfcfs2 = simulate(PFCFS2(), jobs, 8).jobs.set_index("id")
    assert pfcfs2["suspensions"].sum() > 0  # wide jobs did preempt
    assert (pfcfs2["end"] >= fcfs.loc[pfcfs2.index]).all()


def test_a_wide_job_within_its_minute_can_gain() -> None:
    # 4 nodes: A (1 node, 5000 s) at 0, then the wide W (4 nodes, 30 s) at 10 and C (1
    # node, 50 s) at 20. FCFS: W waits for A (5000-5030), C after it. PFCFS2: W preempts
    # A at 70 and ends within its minute, at 100; C follows.
    jobs = [job(1, 0, 1, 5000), job(2, 10, 4, 30), job(3, 20, 1, 50)]
    fcfs = simulate("fcfs", jobs, 4).jobs.set_index("id")["end"]
    pfcfs2 = simulate(PFCFS2(), jobs, 4).jobs.set_index("id")["end"]
    assert fcfs[2] == 5030 and pfcfs2[2] == 100
    assert pfcfs2[3] < fcfs[3]


def _study(root: Path) -> StudyResults:
    """A two-month study on 8 nodes: FCFS (with its job table) and PFCFS2 per month."""
    runs, results = [], {}
    rng = np.random.default_rng(7)
    for k, month in enumerate(("1996-10", "1996-11")):
        jobs = _random_jobs(rng, 30, 8)
        jobs.append(job(99, jobs[-1].submit + 1, 6, 30))  # a wide job within the minute
        for policy in ("fcfs", "pfcfs2"):
            result = simulate(policy if policy == "fcfs" else PFCFS2(), jobs, 8)
            rid = f"r{k}{policy}"
            summary = {m: float(result.summary()[m]) for m in paper.METRICS}
            config = {"workload": "ctc", "first": None, "policy": policy, "params": {},
                      "nodes": 8, "month": month}  # fmt: skip
            runs.append(run(rid, policy, 0, summary=summary, **config))
            if policy == "fcfs":
                results[rid] = result
    return StudyResults.load(write_study(root, runs, "pfcfs-small",
                                        {"paper": "schwiegelshohn1998", "x": "none"},
                                        results))  # fmt: skip


def test_month_facts_read_the_fcfs_runs_jobs(tmp_path: Path) -> None:
    results = _study(tmp_path / "study")
    facts = paper.month_facts(results)
    assert list(facts.columns) == list(paper.FACTS)
    assert facts["month"].tolist() == ["1996-10", "1996-11"]
    for row in facts.to_dict("records"):
        rid = f"r{['1996-10', '1996-11'].index(row['month'])}fcfs"
        jobs = results.result(rid).jobs
        assert row["jobs"] == len(jobs) == 31
        wide = jobs["size"] > 4
        assert row["wide_jobs"] == int(wide.sum())
        assert row["wide_within_quantum"] == int((wide & (jobs["run"] <= 60)).sum()) >= 1
        assert row["fcfs_makespan"] == results.result(rid).makespan
        assert row["makespan_bound"] == max(row["bound_by_job"], row["bound_by_work"])
        assert row["largest_change"] == pytest.approx(
            100 * (row["makespan_bound"] / row["fcfs_makespan"] - 1)
        )
        assert row["largest_change"] <= 0
    order = paper.queue_order(paper.ours(results), facts)
    assert order["month"].tolist() == ["1996-10", "1996-11", "Sum"]
    assert order.iloc[2]["wide_jobs"] == facts["wide_jobs"].sum()
    assert math.isnan(order.iloc[0]["paper_makespan"])  # the paper ran 128 and 256 nodes
    done = results.done.set_index(["month", "policy"])
    for i, month in enumerate(("1996-10", "1996-11")):
        f, p = done.loc[(month, "fcfs"), "makespan"], done.loc[(month, "pfcfs2"), "makespan"]
        assert order.iloc[i]["waits_makespan"] == pytest.approx(100 * (p - f) / f)
    # And the facts in a report: the month facts, the bound and the queue order written.
    out = tmp_path / "report"
    out.mkdir()
    tables, _, _ = paper.write(results, out)
    names = {t.name for t in tables}
    assert {"schwiegelshohn1998-months.csv", "schwiegelshohn1998-queue-order.csv",
            "schwiegelshohn1998-makespan-bound.csv", "schwiegelshohn1998-label-swap.csv",
            "readings.csv"} <= names  # fmt: skip
    months = pd.read_csv(out / "schwiegelshohn1998-months.csv")
    assert "largest_change (%)" in months.columns and "fcfs_makespan (s)" in months.columns
    assert months["jobs (jobs)"].tolist() == [31, 31]
    # Neither month has the paper's 128 or 256 nodes: no makespan cell to bound.
    assert pd.read_csv(out / "schwiegelshohn1998-makespan-bound.csv").empty
