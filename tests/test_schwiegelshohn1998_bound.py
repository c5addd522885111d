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


def _weighted(result) -> tuple[float, float]:
    summary = result.summary()
    return summary["weighted_completion_time"], summary["weighted_flow_time"]


def test_the_weighted_bound_by_hand() -> None:
    # 2 nodes, jobs of the whole machine submitted together and run back to back: the
    # bound is tight. A (10 s) then B (4 s): weights 20 and 8 node-s, completions 10 and
    # 14: 200 + 112 = 312. The fast server ends A's work at 10 and B's at 14: mean busy
    # times 5 and 12 (20 x 5 + 8 x 12 = 196), plus half of sum w_i h_i (116): 312.
    jobs = [job(1, 0, 2, 10), job(2, 0, 2, 4)]
    by_job, by_work = paper.weighted_completion_bound([0, 0], [10, 4], [2, 2], 2, 0.0)
    assert (by_job, by_work) == (232.0, 312.0)
    assert _weighted(simulate("fcfs", jobs, 2)) == (312.0, 312.0)
    # The paper's own bound with every job submitted at once (section 5, Corollary 5.1,
    # Lemma 5.1): x^2 R / 2 + (1/2) sum_i h_i^2 r_i, x = the work over R = 28 / 2.
    assert by_work == 14.0**2 * 2 / 2 + 0.5 * (10**2 * 2 + 4**2 * 2)
    # Jobs that never wait: the first bound is tight. 4 nodes, A (1 node, 10 s) at 0,
    # B (2 nodes, 5 s) at 3: 10 x 10 + 10 x 8 = 180.
    by_job, by_work = paper.weighted_completion_bound([0, 3], [10, 5], [1, 2], 4, 0.0)
    assert by_job == 180.0 and by_work < by_job
    assert _weighted(simulate("fcfs", [job(1, 0, 1, 10), job(2, 3, 2, 5)], 4))[0] == 180.0
    # From another origin, in any order; the server idles between submits.
    assert paper.weighted_completion_bound([103, 100], [5, 10], [2, 1], 4, 100.0) == (
        by_job, by_work)  # fmt: skip
    # One node, two 1-node jobs at 0 and 100 of 10 s: no waiting, both bounds tight.
    assert paper.weighted_completion_bound([0, 100], [10, 10], [1, 1], 1, 0.0) == (
        10 * 10 + 10 * 110, 10 * 5 + 10 * 105 + 100)  # fmt: skip
    assert all(math.isnan(v) for v in paper.weighted_completion_bound([], [], [], 4, 0.0))


@pytest.mark.parametrize("seed", range(6))
def test_no_schedule_weighs_less_than_the_weighted_bound(seed: int) -> None:
    # FCFS and every PFCFS under each reading of the queue and of the jobs to preempt, on
    # random workloads of 8 nodes: none has a weighted completion (or flow) time below the
    # bound on any schedule's.
    rng = np.random.default_rng(200 + seed)
    jobs = _random_jobs(rng, 40, 8)
    submit = [j.submit for j in jobs]
    by_job, by_work = paper.weighted_completion_bound(
        submit, [j.run_time for j in jobs], [j.size for j in jobs], 8, jobs[0].submit
    )
    bound = max(by_job, by_work)
    shift = sum(j.size * j.run_time * (j.submit - jobs[0].submit) for j in jobs)
    policies: list[object] = ["fcfs", "easy"]
    for queue in ("waits", "moves"):
        for preempt in ("greedy", "all", "narrowest", "newest"):
            policies += [cls(queue_in_cycle=queue, preempt=preempt)
                         for cls in (PFCFS1, PFCFS2, PFCFS3)]  # fmt: skip
    for policy in policies:
        completion, flow = _weighted(simulate(policy, jobs, 8))
        assert completion >= bound * (1 - 1e-12), policy
        assert flow >= (bound - shift) * (1 - 1e-12) - 1e-6, policy


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


def test_the_full_run_times_reading_has_its_own_fcfs(tmp_path: Path) -> None:
    # One month on 8 nodes: FCFS and PFCFS2 with jobs killed at their requested time (the
    # default), and again with their full run times (kill_at_estimate = false: here the
    # jobs run twice as long), and PFCFS3 with the shortest-running jobs preempted first.
    rng = np.random.default_rng(3)
    short = _random_jobs(rng, 30, 8)
    full = [job(j.id, j.submit, j.size, 2 * j.run_time) for j in short]
    runs, results = [], {}
    for rid, policy, kill, params, jobs in (
        ("f", "fcfs", True, {}, short), ("p", "pfcfs2", True, {}, short),
        ("fn", "fcfs", False, {}, full), ("pn", "pfcfs2", False, {}, full),
        ("q", "pfcfs3", True, {"preempt": "newest"}, short),
    ):  # fmt: skip
        made = {"pfcfs2": PFCFS2(), "pfcfs3": PFCFS3(preempt="newest")}.get(policy, policy)
        result = simulate(made, jobs, 8)
        summary = {m: float(result.summary()[m]) for m in paper.METRICS}
        config = {"workload": "ctc", "first": None, "policy": policy, "params": params,
                  "nodes": 8, "month": "1996-10", "kill_at_estimate": kill}  # fmt: skip
        runs.append(run(rid, f"{policy}{rid}", 0, summary=summary, **config))
        if policy == "fcfs":
            results[rid] = result
    study = StudyResults.load(write_study(tmp_path / "study", runs, "pfcfs-nokill",
                                          {"paper": "schwiegelshohn1998", "x": "none"},
                                          results))  # fmt: skip
    values = paper.ours(study)
    assert set(values["reading"]) == {"-", "-nokill", "waits", "waits-nokill", "waits-newest"}
    done = study.done.set_index("id")
    for metric in paper.METRICS:
        fcfs, pct = paper.analyses._percents(values, metric, 8)
        assert fcfs["1996-10"] == done.at["f", metric]
        base = paper.bases(values, metric, 8)
        assert base["-nokill"]["1996-10"] == done.at["fn", metric]
        # Each reading against the FCFS of its own run times.
        for reading, rid, f in (("waits", "p", "f"), ("waits-nokill", "pn", "fn")):
            expected = 100 * (done.at[rid, metric] / done.at[f, metric] - 1)
            assert pct.loc["1996-10", (reading, "PFCFS2")] == pytest.approx(expected)
    facts = paper.month_facts(study)
    assert facts["kill_at_estimate"].tolist() == [True, False]
    assert paper.for_runs(facts)["fcfs_makespan"].tolist() == [results["f"].makespan]
    nokill = paper.for_runs(facts, kill_at_estimate=False)
    assert nokill["fcfs_makespan"].tolist() == [results["fn"].makespan]
    row = nokill.iloc[0]
    assert row["fcfs_weighted_completion_time"] == done.at["fn", "weighted_completion_time"]
    assert row["weighted_completion_bound"] <= row["fcfs_weighted_completion_time"]
    assert row["largest_flow_change"] <= row["largest_completion_change"] <= 0
    # Facts made before the column: the default's.
    old = facts.drop(columns=["kill_at_estimate"])
    assert len(paper.for_runs(old)) == 2 and paper.for_runs(old, False).empty
