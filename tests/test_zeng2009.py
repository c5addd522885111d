"""Zeng & Sodan 2009's measures and claims (`schedsim.papers.zeng2009`).

The measures by hand: on tables built by hand (a piece log with a suspension
and its overheads, two high-load phases), on small simulations of 4 nodes x 4
cores (SSP) and 2 nodes x 4 cores (GLTS forming one group) whose schedules are
worked out in the comments, and on W1's first 400 jobs under SSP and GLTS
(ranges, and the piece log against the run's own time series). The claims on a
hand-made table of averaged metrics, and the whole report on a small study
(W1, 300 jobs, SSP and GLTS) swept in this process.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from schedsim.app.claims import readings_markdown, readings_table
from schedsim.app.report.study_results import StudyResults
from schedsim.app.simulation import Simulation
from schedsim.app.study import Study, paper_analyses
from schedsim.app.sweep import sweep
from schedsim.model.results import Result
from schedsim.model.slowdowns import StatisticalContention
from schedsim.papers import zeng2009 as paper
from schedsim.policies.glts import GLTS, MATCHMAKING
from schedsim.policies.spacesharing import SSP, Slowdowns
from schedsim.workloads.job import Job
from schedsim.workloads.multicore import w1
from schedsim.workloads.workload import Workload

# -- part 1: the measures -------------------------------------------------------------


def test_job_types_are_by_run_time_in_the_workload() -> None:
    # Upper bounds inclusive: 600 s is short, 10,800 s (3 h) medium. The workload's run
    # time (work), not the simulated one, which contention stretches.
    jobs = pd.DataFrame(
        {"work": [1.0, 600.0, 601.0, 10_800.0, 10_801.0], "run": [1e6] * 5},
    )
    assert paper.job_type(jobs).tolist() == ["short", "short", "medium", "medium", "long"]


def test_rr_is_the_response_over_the_pure_runtime_with_a_cut_off() -> None:
    # (submit, end, run): response 100 over 50 -> 2; 30 over max(5, 10) -> 3;
    # 4 over max(4, 10) = 0.4, floored at 1; a medium job: 2000 over 1000 -> 2.
    jobs = pd.DataFrame(
        {
            "submit": [0.0, 0.0, 0.0, 0.0],
            "end": [100.0, 30.0, 4.0, 2000.0],
            "run": [50.0, 5.0, 4.0, 1000.0],
            "work": [50.0, 5.0, 4.0, 1000.0],
        }
    )
    assert paper.relative_response(jobs, bound=10.0).tolist() == [2.0, 3.0, 1.0, 2.0]
    # The default cut-off, 600 s (the short-job limit), leaves only the medium job above 1.
    assert paper.relative_response(jobs).tolist() == [1.0, 1.0, 1.0, 2.0]
    means = paper.rr(jobs, bound=10.0)
    assert (means["short"], means["medium"], means["all"]) == (2.0, 2.0, 2.0)
    assert math.isnan(means["long"])  # no long job
    # A bound of 2 s: 30 / 5 = 6 and 4 / 4 = 1; the medium job is not affected.
    assert paper.relative_response(jobs, bound=2.0).tolist() == [2.0, 6.0, 1.0, 2.0]
    assert paper.rr(jobs, bound=2.0)["all"] == pytest.approx(11 / 4)


def _hand_result(groups: pd.DataFrame | None = None) -> Result:
    """2 nodes x 2 cores (node 0: cores 0-1, node 1: cores 2-3), 7 jobs by hand:

    job  submit start end   pieces
    1    0      0     100   run [0, 100] core 0
    2    10     50    90    run [50, 90] core 1
    3    20     60    95    run [60, 70], suspended [70, 85], overhead [85, 88],
                            run [88, 95], core 3
    4    30     40    80    run [40, 80] core 2
    5    70     70    75    run [70, 75] core 3 (while 3 is suspended)
    6    80     96    100   run [96, 100] core 2
    7    81     97    99    run [97, 99] core 3
    """
    rows = [
        (1, 0, 0, 100, [("run", 0, 100, 0)]),
        (2, 10, 50, 90, [("run", 50, 90, 1)]),
        (3, 20, 60, 95, [("run", 60, 70, 3), ("suspended", 70, 85, 3),
                         ("overhead", 85, 88, 3), ("run", 88, 95, 3)]),
        (4, 30, 40, 80, [("run", 40, 80, 2)]),
        (5, 70, 70, 75, [("run", 70, 75, 3)]),
        (6, 80, 96, 100, [("run", 96, 100, 2)]),
        (7, 81, 97, 99, [("run", 97, 99, 3)]),
    ]  # fmt: skip
    pieces = pd.DataFrame(
        [
            {"job": j, "attempt": 1, "kind": kind, "start": float(a), "end": float(b),
             "nodes": str(core // 2), "cores": str(core), "size": 1,
             "rate": 1.0 if kind == "run" else 0.0}
            for j, _, _, _, parts in rows
            for kind, a, b, core in parts
        ]
    )  # fmt: skip
    run = (
        pieces[pieces["kind"] == "run"].groupby("job")["end"].sum()
        - pieces[pieces["kind"] == "run"].groupby("job")["start"].sum()
    )
    jobs = pd.DataFrame(
        {
            "id": [r[0] for r in rows],
            "submit": [float(r[1]) for r in rows],
            "start": [float(r[2]) for r in rows],
            "end": [float(r[3]) for r in rows],
        }
    )
    jobs["run"] = jobs["id"].map(run).astype(float)
    jobs["wait"] = jobs["end"] - jobs["submit"] - jobs["run"]
    jobs["estimate"] = jobs["work"] = jobs["run"]
    jobs["size"] = 1
    jobs["nodes"] = ""
    jobs["outcome"] = "completed"
    jobs["suspensions"] = (jobs["id"] == 3).astype(int)
    jobs["suspended_time"] = np.where(jobs["id"] == 3, 15.0, 0.0)
    jobs["user"] = -1
    series = pd.DataFrame(
        {c: [0] for c in ("busy_cores", "busy_nodes", "queued", "running", "suspended")}
    )
    series.insert(0, "time", [0.0])
    meta = {"total_cores": 4, "cores_per_node": 2, "start": 0.0, "end": 100.0}
    tables = {} if groups is None else {"groups": groups}
    return Result(jobs=jobs, series=series, meta=meta, pieces=pieces, tables=tables)


def test_waiting_jobs_and_high_load_phases_by_hand() -> None:
    jobs = _hand_result().jobs
    # Submitted, never started: 1 at 10, 2 at 20, 3 at 30, then 2 (4 starts at 40),
    # 1 (50), 0 (60); 5 comes and starts at 70; 1 at 80, 2 at 81, 1 at 96, 0 at 97.
    steps = paper.waiting(jobs).set_index("time")["waiting"]
    assert steps.loc[[10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 81.0, 96.0, 97.0]].tolist() == [
        1, 2, 3, 2, 1, 0, 0, 2, 1, 0,
    ]  # fmt: skip
    # N_H = 2: from 20 (reached) to 50 (below again), and from 81 to 96.
    phases = paper.high_load_phases(jobs, n_high=2)
    assert phases.values.tolist() == [[20.0, 50.0], [81.0, 96.0]]
    # N_H = 3: only [30, 40]; N_H = 12 (the paper's): none.
    assert paper.high_load_phases(jobs, n_high=3).values.tolist() == [[30.0, 40.0]]
    assert paper.high_load_phases(jobs).empty
    # The other reading: job 3, suspended over [70, 85], waits then too: 1 at 70, 2 at
    # 80, 3 at 81, 2 at 85, 1 at 96, 0 at 97; the phases of N_H = 2 are [20, 50] and
    # [80, 96], those of N_H = 3 [30, 40] and [81, 85].
    pieces = _hand_result().pieces
    steps = paper.waiting(jobs, pieces).set_index("time")["waiting"]
    assert steps.loc[[60.0, 70.0, 80.0, 81.0, 85.0, 96.0, 97.0]].tolist() == [0, 1, 2, 3, 2, 1, 0]
    assert paper.high_load_phases(jobs, 2, pieces).values.tolist() == [[20.0, 50.0], [80.0, 96.0]]
    assert paper.high_load_phases(jobs, 3, pieces).values.tolist() == [[30.0, 40.0], [81.0, 85.0]]


def test_utilization_by_hand_from_the_piece_log() -> None:
    result = _hand_result()
    # Cores: 1 100 s, 2 40, 3 10 + 3 (overhead: held) + 7 (suspended: not held),
    # 4 40, 5 5, 6 4, 7 2: 211 core seconds over 100 s x 4 cores.
    # Nodes: node 0 used [0, 100]; node 1 [40, 80] + [85, 95] + [96, 100] = 54 s:
    # 154 node seconds over 100 s x 2 nodes.
    # Fractions (0-1), as every utilization in schedsim: no key in percent.
    u = paper.utilization(result, n_high=2)
    assert u["u_core"] == pytest.approx(211 / 400)
    assert u["u_node"] == pytest.approx(154 / 200)
    assert not [k for k in u if k.endswith("_pct")]
    # Phases [20, 50] and [81, 96], 45 s. Cores: 30 (job 1) + 10 (4, from 40) in the
    # first; 15 (1) + 9 (2, to 90) + 3 (3's overhead) + 7 (3, [88, 95]) in the second:
    # 74 / (45 x 4). Nodes: 30 + 10, then 15 (node 0) + 10 (node 1, [85, 95]): 65 / 90.
    assert u["u_core_high"] == pytest.approx(74 / 180)
    assert u["u_node_high"] == pytest.approx(65 / 90)
    assert (u["high_load_phases"], u["high_load_s"]) == (2.0, 45.0)
    # Per phase (the other reading): cores 40 / (30 x 4) and 34 / (15 x 4), nodes 40 / 60
    # and 25 / 30, each phase counted once.
    assert u["u_core_phase"] == pytest.approx((40 / 120 + 34 / 60) / 2)
    assert u["u_node_phase"] == pytest.approx((40 / 60 + 25 / 30) / 2)
    # N_wait counting the suspended jobs: phases [20, 50] and [80, 96], 46 s. Cores: 40 in
    # the first as above; 16 (1) + 10 (2, to 90) + 3 (3's overhead) + 7 (3) in the second.
    assert u["u_core_high_susp"] == pytest.approx(76 / 184)
    # N_H = 3: [30, 40], job 1 alone: 1 core of 4, 1 node of 2.
    u3 = paper.utilization(result, n_high=3)
    assert (u3["u_core_high"], u3["u_node_high"]) == (0.25, 0.5)
    # Without a phase there is nothing to average over.
    assert math.isnan(paper.utilization(result)["u_core_high"])
    assert math.isnan(paper.utilization(result)["u_core_phase"])
    assert paper.makespan(result.jobs) == 100.0


def test_groups_from_the_groups_table_or_the_job_column() -> None:
    # The hand-made run's jobs with run times in the workload (work) set by hand:
    # 2, 3, 5 medium, 4, 6 long (eligible), 1 and 7 short.
    groups = pd.DataFrame(
        {
            "group": [0, 1],
            "primary": [2, 2],  # job 2 is primary twice, one group after the other
            "matched": ["3 4", "5"],
            "formed": [0.0, 50.0],
            "gain": [0.5, 0.6],
            "disbanded": [40.0, 90.0],
            "reason": ["primary ended", "primary ended"],
        }
    )
    result = _hand_result(groups)
    work = {1: 100.0, 2: 1000.0, 3: 2000.0, 4: 20_000.0, 5: 700.0, 6: 5000.0, 7: 10.0}
    result.jobs["work"] = result.jobs["id"].map(work)
    # 2 groups of 3 and 2 jobs; eligible 2, 3, 4, 5, 6, of which 2-5 ran in a group.
    assert paper.group_stats(result) == {
        "groups": 2.0,
        "group_size_jobs": 2.5,
        "grouped_share": 0.8,
    }
    # Without the table, the job column: job 2 last in group 1 (with 5), 3 and 4 in 0.
    del result.tables["groups"]
    result.jobs["group"] = result.jobs["id"].map({2: 1, 3: 0, 4: 0, 5: 1})
    assert paper.group_stats(result) == {
        "groups": 2.0,
        "group_size_jobs": 2.0,
        "grouped_share": 0.8,
    }
    # Neither (SSP): no group, none grouped, no size.
    result.jobs = result.jobs.drop(columns="group")
    stats = paper.group_stats(result)
    assert (stats["groups"], stats["grouped_share"]) == (0.0, 0.0)
    assert math.isnan(stats["group_size_jobs"])


def test_delay_factors_from_r_est_or_the_policys_column() -> None:
    jobs = pd.DataFrame(
        {
            "submit": [0.0, 0.0, 0.0, 0.0, 0.0],
            "end": [100.0, 1300.0, 2600.0, 14_000.0, 50.0],
            "r_est": [50.0, 1000.0, 2000.0, 10_000.0, 0.0],
            "work": [100.0, 1000.0, 2000.0, 12_000.0, 700.0],
        }
    )
    # Response over R_est: 2, 1.3, 1.3, 1.4; none where R_est is 0.
    factors = paper.delay_factors(jobs)
    assert factors.iloc[:4].tolist() == pytest.approx([2.0, 1.3, 1.3, 1.4])
    assert math.isnan(factors.iloc[4])
    # Medium and long only (the short job's 2 is left out): 1.3, 1.3, 1.4.
    stats = paper.delay_stats(jobs)
    assert stats["delay_mean"] == pytest.approx(4.0 / 3)
    assert stats["delay_p75"] == pytest.approx(1.35)  # between 1.3 and 1.4, half way
    assert stats["delay_p95_medium"] == pytest.approx(1.3)
    assert stats["delay_p75_long"] == pytest.approx(1.4)
    # A policy's own column (Scojo-PECT: in its virtual machine's time) wins, the last
    # job's too: medium and long 1.1, 1.2, 1.3, 1.0.
    jobs["delay_factor"] = [1.0, 1.1, 1.2, 1.3, 1.0]
    assert paper.delay_stats(jobs)["delay_mean"] == pytest.approx(1.15)


def _job(jid: int, submit: float, run: float, size: int, scr: float = 1.0) -> Job:
    return Job(jid, submit, run, size, run, attrs={"sl_scr": scr, "sl_sno": 1.0})


def test_an_ssp_run_by_hand() -> None:
    # 4 nodes x 4 cores, no slowdown (SL_scr = SL_sno = 1: 4 processes per node).
    # 1 (8 processes, 2 nodes) and 2 (8, 2 nodes) start at 0; 3 (16, 4 nodes) waits for
    # both, 100 to 200; 4 (1 process: PPN 1, a node of its own) backfills when 2 ends,
    # 50 to 60. Waiting: 1 from 10, 2 from 20, 1 from 50, 0 from 100.
    jobs = [_job(1, 0, 100, 8), _job(2, 0, 50, 8), _job(3, 10, 100, 16), _job(4, 20, 10, 1)]
    w = Workload.from_jobs(jobs, max_procs=16)
    contention = StatisticalContention(0)
    sim = Simulation(w, SSP(seed=0), nodes=4, cores_per_node=4, contention=contention,
                     kill_at_estimate=False)  # fmt: skip
    result = sim.run()
    table = result.jobs.set_index("id")
    assert table["start"].tolist() == [0.0, 0.0, 100.0, 50.0]
    m = paper.metrics(result, bound=10.0, n_high=2)
    # Over 200 s: 800 + 400 + 1600 + 10 core seconds of 16 cores, 200 + 100 + 400 + 10
    # node seconds of 4 nodes. The phase [20, 50]: 1 and 2 use all of it.
    assert m["u_core"] == pytest.approx(2810 / 3200)
    assert m["u_node"] == pytest.approx(710 / 800)
    assert (m["u_core_high"], m["u_node_high"], m["high_load_s"]) == (1.0, 1.0, 30.0)
    # RR: 1, 1, 190 / 100, 40 / 10 (all short). A bound of 20 s: 4's is 40 / 20.
    assert m["rr_short"] == m["rr_all"] == pytest.approx((1 + 1 + 1.9 + 4) / 4)
    assert paper.metrics(result, bound=20.0)["rr_all"] == pytest.approx((1 + 1 + 1.9 + 2) / 4)
    assert math.isnan(m["rr_medium"]) and m["makespan_s"] == 200.0
    # SSP forms no group; no job is eligible for one (all short).
    assert m["groups"] == 0.0 and math.isnan(m["grouped_share"])
    # R_est of 3: 0.75 x its planned response at arrival, 190: it ends as planned.
    assert table.loc[3, "r_est"] == 142.5
    assert paper.delay_factors(result.jobs).iloc[2] == pytest.approx(1 / 0.75)


def test_a_glts_group_by_hand() -> None:
    # 2 nodes x 4 cores (test_coscheduling's example): 1 (1000 s) and 2 (2000 s), 4
    # processes each with SL_scr 2 (2 per node), form a group on nodes 0-1 at
    # 1 / 1.125; 1 ends at 1125, 2 at 2125. 3 (medium, 700 s) comes at 5000 to an empty
    # machine and runs alone; 4 (short, 100 s, 1 process) at 6000.
    pairs = {(1, 2): 1.125, (2, 1): 1.125}
    jobs = [_job(1, 0, 1000, 4, 2.0), _job(2, 0, 2000, 4, 2.0), _job(3, 5000, 700, 4, 2.0),
            _job(4, 6000, 100, 1)]  # fmt: skip
    policy = GLTS()
    policy.model = Slowdowns(0, pairs=pairs)
    w = Workload.from_jobs(jobs, max_procs=8)
    result = Simulation(w, policy, nodes=2, cores_per_node=4,
                        contention=StatisticalContention(0, pairs=pairs),
                        kill_at_estimate=False).run()  # fmt: skip
    assert result.jobs["end"].tolist() == [1125.0, 2125.0, 5700.0, 6100.0]
    m = paper.metrics(result)
    # One group of 2; eligible 1, 2, 3 (medium): 2 of 3 grouped.
    assert (m["groups"], m["group_size_jobs"]) == (1.0, 2.0)
    assert m["grouped_share"] == pytest.approx(2 / 3)
    # Nodes shared by the group count once: both nodes used [0, 2125], then [5000, 5700],
    # node 0 [6000, 6100]: 5750 node seconds of 2 x 6100. Cores: 4 x 1125 + 4 x 2125 +
    # 4 x 700 + 100 = 15,900 of 8 x 6100.
    assert m["u_node"] == pytest.approx(5750 / 12_200)
    assert m["u_core"] == pytest.approx(15_900 / 48_800)
    # The pure runtime is the run as slowed in the group: 1's RR is 1125 / 1125.
    assert m["rr_medium"] == 1.0
    # Delay factors: R_est = 0.75 x the planned response at arrival (1000, 3000, 700):
    # 1125 / 750, 2125 / 2250, 700 / 525.
    assert m["delay_mean"] == pytest.approx((1.5 + 2125 / 2250 + 4 / 3) / 3)


def test_the_matchmaking_log_by_hand() -> None:
    # The group of test_a_glts_group_by_hand: at 0, job 1 (due first) searches as Case 1's
    # primary with one candidate, job 2, and their group passes and is started; its Case 2
    # search (no running job to join) finds nothing. At 5000 job 3 searches alone.
    pairs = {(1, 2): 1.125, (2, 1): 1.125}
    jobs = [_job(1, 0, 1000, 4, 2.0), _job(2, 0, 2000, 4, 2.0), _job(3, 5000, 700, 4, 2.0),
            _job(4, 6000, 100, 1)]  # fmt: skip
    policy = GLTS()
    policy.model = Slowdowns(0, pairs=pairs)
    result = Simulation(Workload.from_jobs(jobs, max_procs=8), policy, nodes=2,
                        cores_per_node=4, contention=StatisticalContention(0, pairs=pairs),
                        kill_at_estimate=False).run()  # fmt: skip
    log = result.tables["matchmaking"]
    assert tuple(log.columns) == MATCHMAKING
    rows = log.drop(columns="gain").values.tolist()
    assert rows == [
        [0.0, 1, 1, 1, 1, 1, 0, 0, 0, 1],
        [0.0, 1, 2, 1, 0, 0, 0, 0, 0, 0],
        [5000.0, 3, 1, 3, 0, 0, 0, 0, 0, 0],
        [5000.0, 3, 2, 3, 0, 0, 0, 0, 0, 0],
    ]
    assert log["gain"].iloc[0] == pytest.approx(result.tables["groups"]["gain"].iloc[0])
    assert log["gain"].iloc[1:].isna().all()
    stats = paper.matchmaking_stats(result)
    assert (stats["searches"], stats["searches_case1"]) == (4.0, 2.0)
    assert (stats["candidates_mean"], stats["few_candidates_share"]) == (0.5, 1.0)
    assert (stats["groups_found"], stats["groups_taken"], stats["fair_rejects"]) == (1, 1, 0)


@pytest.fixture(scope="module")
def w1_runs() -> dict[str, Result]:
    s = 3
    return {
        name: Simulation(w1(s, n_jobs=400), make(seed=s), nodes=128, cores_per_node=4,
                         contention=StatisticalContention(s), kill_at_estimate=False).run()
        for name, make in (("ssp", SSP), ("glts", GLTS))
    }  # fmt: skip


@pytest.mark.parametrize("name", ["ssp", "glts"])
def test_w1_metrics_are_finite_and_in_range(w1_runs: dict[str, Result], name: str) -> None:
    result = w1_runs[name]
    m = paper.metrics(result)
    assert m["jobs"] == 400
    for key in ("rr_short", "rr_medium", "rr_long", "rr_all"):
        assert math.isfinite(m[key]) and m[key] >= 1.0, key
    for key in ("u_node", "u_core", "u_node_high", "u_core_high", "u_node_phase", "u_core_phase"):
        assert 0.0 <= m[key] <= 1.0, key
    # RR at each cut-off: the text's 600 s is rr_*; a smaller cut-off divides by less.
    for key in ("short", "medium", "long", "all"):
        assert m[f"rr_{key}_cut600"] == m[f"rr_{key}"]
        assert m[f"rr_{key}_cut10"] >= m[f"rr_{key}_cut60"] >= m[f"rr_{key}"]
    assert m["rr_all_cut10"] > m["rr_all"]
    # A job uses at most all the cores of its nodes: core utilization <= node utilization.
    assert m["u_core"] <= m["u_node"] and m["u_core_high"] <= m["u_node_high"]
    assert m["high_load_phases"] >= 1 and m["high_load_s"] > 0
    assert math.isfinite(m["makespan_s"]) and m["makespan_s"] > 0
    assert 0.0 <= m["grouped_share"] <= 1.0
    for key in ("delay_mean", "delay_p75", "delay_p95"):
        assert math.isfinite(m[key]) and m[key] > 0, key
    assert m["delay_p75"] <= m["delay_p95"]
    if name == "ssp":
        assert (m["groups"], m["grouped_share"]) == (0.0, 0.0)
    else:
        assert m["groups"] >= 1 and m["group_size_jobs"] >= 2
    # Over the makespan, the piece log gives what the run's own series gives, in the
    # same unit (summary.json's utilization is a fraction too).
    assert m["u_core"] == pytest.approx(result.utilization())
    busy_nodes = result.time_average("busy_nodes") / result.meta["nodes"]
    assert m["u_node"] == pytest.approx(busy_nodes)


# -- part 2: the claims -------------------------------------------------------------


def test_the_matchmaking_log_tells_the_groups_started(w1_runs: dict[str, Result]) -> None:
    # Every search whose group was started is a row of the groups table (its primary,
    # when it formed) and every group is one: the log is the policy's own account.
    result = w1_runs["glts"]
    log, groups = result.tables["matchmaking"], result.tables["groups"]
    taken = log[log["taken"] == 1]
    assert sorted(zip(taken["primary"], taken["time"], strict=True)) == sorted(
        zip(groups["primary"], groups["formed"], strict=True)
    )
    assert (log["candidates"] >= 0).all() and set(log["case"]) <= {1, 2, 3}
    # A search ends at the first group that passes: those before it failed a check.
    checked = log["below_gain"] + log["no_room"] + log["unfair"] + log["gain"].notna()
    assert (checked <= log["groups"]).all()
    stats = paper.matchmaking_stats(result)
    assert stats["groups_taken"] == len(groups) and 0.0 <= stats["few_candidates_share"] <= 1.0
    assert math.isnan(paper.matchmaking_stats(w1_runs["ssp"])["searches"])


def test_schedulers_are_named_as_the_paper_does() -> None:
    assert paper.scheduler({"policy": "scojo", "params.inner": "glts-fbo"}) == "FBO"
    assert paper.scheduler({"policy": "scojo", "params": {"inner": "ssp"}}) == "SSP"
    assert paper.scheduler({"policy": "scojo"}) == "SSP"  # Scojo-PECT's default inner
    assert paper.scheduler({"policy": "cstws"}) == "CSTWS"
    assert paper.scheduler({"policy": "glts-nh", "params.inner": math.nan}) == "NH"
    assert paper.scheduler({"policy": "easy"}) == "easy"


def _table(rows: list[dict]) -> pd.DataFrame:
    base = {"block_size": 16.0, "f_slack": 1.5, "runs": 3}
    return pd.DataFrame([{**base, **r} for r in rows])


def _runs(rows: list[dict]) -> pd.DataFrame:
    """Runs by replication: each row's list values are its replications' (0, 1, ...), a
    number is every replication's; as many replications as the longest list."""
    out = []
    n = max((len(v) for r in rows for v in r.values() if isinstance(v, list)), default=1)
    for r in rows:
        for k in range(n):
            out.append(
                {
                    "block_size": 16.0,
                    "f_slack": 1.5,
                    "replication": k,
                    **{c: v[k] if isinstance(v, list) else v for c, v in r.items()},
                }
            )
    return pd.DataFrame(out)


def test_claims_by_hand() -> None:
    w1_rows = [
        {"workload": "W1", "scheduler": "SSP", "rr_medium": 3.0, "rr_long": 4.0,
         "rr_all": 6.0, "u_core_high": 0.5, **{f"delay_p{q}_{t}": 4 / 3 for q in (75, 95)
                                                for t in ("medium", "long")}},
        # GLTS against SSP: medium -33.3% and -30.0% (mean -31.7%, within 25% of -34.9),
        # long -50% twice, all -33.3% and -30.0%: reproduced.
        {"workload": "W1", "scheduler": "GLTS", "rr_medium": [2.0, 2.1], "rr_long": 2.0,
         "rr_all": [4.0, 4.2], "u_core_high": [0.6, 0.65], "group_size_jobs": 2.4,
         "groups_per_10k_jobs": [1400.0, 900.0], "grouped_share": 0.35, "delay_mean": 1.05,
         # GLTS's delay factors less SSP's (1/0.75): -0.033 and +0.067 as the paper's
         # 1.3 and 1.4 are, for medium jobs; the long jobs' are SSP's own 1/0.75.
         "delay_p75_medium": 1.3, "delay_p95_medium": 1.4,
         "delay_p75_long": 4 / 3, "delay_p95_long": 4 / 3},
        # Against CST: medium -2.4% and -4.5%: the paper's sign, far from -19.4% and
        # outside the interval; long -16.7% (16.1) and all -13.0%, -8.7% (13.9): direction
        # only.
        {"workload": "W1", "scheduler": "CST", "rr_medium": [2.05, 2.2], "rr_long": 2.4,
         "rr_all": 4.6, "u_core_high": 0.6},
        # Variants: FBO +5% and +0% on medium, NH +30%.
        {"workload": "W1", "scheduler": "FBO", "rr_medium": [2.1, 2.1], "rr_long": 2.0,
         "rr_all": [4.0, 4.2]},
        {"workload": "W1", "scheduler": "NH", "rr_medium": [2.6, 2.73], "rr_long": 2.0,
         "rr_all": [4.0, 4.2]},
    ]  # fmt: skip
    # W2: GLTS's RR lowest at block 12 for medium jobs, 20% and 12.5% below the others in
    # both replications (not flat); for long jobs lowest at 4, by 1% and 3% from 12 and
    # 20% and 3% from 16, which 2 replications do not tell apart (flat).
    w2_rows = [
        {"workload": "W2", "scheduler": "SSP", "rr_medium": 17.0, "rr_long": 100.0,
         "rr_all": 10.0, "makespan_s": 1.1e6},
        *({"workload": "W2", "scheduler": "GLTS", "block_size": b, "rr_medium": m,
           "rr_long": lg, "rr_all": 5.0, "makespan_s": 1e6}
          for b, m, lg in ((4.0, [4.8, 4.8], [3.0, 3.5]), (12.0, [4.0, 4.0], [3.03, 3.6]),
                           (16.0, [4.5, 4.5], [3.6, 3.6]))),
    ]  # fmt: skip
    runs = _runs([*w1_rows, *w2_rows])
    found = paper.claims.claims(runs).set_index("claim")
    assert list(found.reset_index().columns) == [
        "claim", "where", "paper", "schedsim", "holds", "status", "rule",
    ]  # fmt: skip
    ssp = found.loc["GLTS has a lower RR than SSP (W1)"]
    assert ssp["schedsim"].startswith("medium -31.7% [")
    assert ", long -50.0% [-50.0, -50.0], all -31.7% [" in ssp["schedsim"]
    assert (ssp["holds"], ssp["status"]) == ("3 of 3", "reproduced")
    cst = found.loc["GLTS has a lower RR than CST (W1)"]
    assert (cst["holds"], cst["status"]) == ("2 of 3", "direction only")
    # No CSTWS run: not checked, with the reason.
    cstws = found.loc["GLTS has a lower RR than CSTWS (W1)"]
    assert cstws["status"] == "not checked" and cstws["schedsim"].startswith("not checked:")
    # +20% and +30% (mean +25%) against the paper's +26.8%: reproduced.
    util = found.loc["GLTS raises the core utilization in high-load phases over SSP (W1)"]
    assert util["schedsim"].startswith("vs SSP +25.0% [") and util["status"] == "reproduced"
    # 1,400 and 900 groups: the mean 1,150 is 23% below 1,500, within 25%.
    groups = found.loc["groups of about 2.5 jobs, about 1,500 of them (W1)"]
    assert groups["status"] == "reproduced"
    # The paper's 41.7% is a share of jobs: a fraction here, 0.35 is 16% below 0.417.
    share = found.loc[
        '0.417 ("41.7%") of the jobs eligible for coscheduling (medium and long) run in a '
        "group (W1)"
    ]
    assert share["schedsim"].startswith("GLTS 0.350")
    assert share["paper"].startswith("0.417 (the paper's 41.7% as a fraction;")
    assert share["status"] == "reproduced"
    # The delay factors are scored against SSP's: the medium jobs' reproduce the paper's;
    # the long jobs' 1/0.75, any job's that runs as planned, is SSP's too: not reproduced,
    # though 1.33 is within 25% of 1.3 and 1.4.
    delays = found.loc[
        "delay factors: 75th percentile 1.3, 95th 1.4, for medium and long jobs (W1)"
    ]
    assert (delays["holds"], delays["status"]) == ("2 of 4", "not reproduced")
    assert "p75 medium -0.033 [-0.033, -0.033] (GLTS 1.30, SSP 1.33)" in delays["schedsim"]
    variants = found.loc["the variants FBO, NS and NH do about as well as GLTS (W1)"]
    assert variants["holds"] == "5 of 6" and variants["status"] == "not reproduced"
    assert "NS" not in variants["schedsim"]
    assert found.loc["SSP saturates on W2: its makespan is longer than GLTS's", "status"] == (
        "reproduced"
    )
    # SSP's W2 RR: 17 (17.5) and 10 (10.65) within 25%; 100 against 36.74 is not.
    ssp_w2 = found.loc["SSP's RR on W2"]
    assert (ssp_w2["holds"], ssp_w2["status"]) == ("2 of 3", "not reproduced")
    best = found.loc["GLTS's best block size on W2 is 12, for medium and long jobs"]
    assert best["schedsim"] == (
        "medium 12 jobs (RR by block size 4: 4.80, 12: 4.00, 16: 4.50; not flat), "
        "long 4 jobs (RR by block size 4: 3.25, 12: 3.31, 16: 3.60; flat)"
    )
    assert (best["holds"], best["status"]) == ("1 of 2", "not reproduced")
    # No FBO on W2, no slack factors: not checked.
    assert found.loc["RR is about flat for F_slack beyond 1.5 (W1, GLTS)", "status"] == (
        "not checked"
    )
    assert set(found["status"]) <= {"reproduced", "direction only", "not reproduced",
                                    "not checked"}  # fmt: skip
    # An empty table: every claim not checked.
    empty = paper.claims.claims(paper.aggregate(pd.DataFrame()))
    assert len(empty) == len(found) and set(empty["status"]) == {"not checked"}


def test_a_claim_reproduces_when_our_interval_covers_the_papers_value() -> None:
    # GLTS against SSP on medium jobs: -10% and -50% (mean -30%, within 25% of -34.9);
    # on long jobs -10% and -40%: the mean -25% is 53% off -53.2, but the interval
    # (t with 1 degree of freedom) covers it.
    runs = _runs([
        {"workload": "W1", "scheduler": "SSP", "rr_medium": 10.0, "rr_long": 10.0,
         "rr_all": 10.0},
        {"workload": "W1", "scheduler": "GLTS", "rr_medium": [9.0, 5.0], "rr_long": [9.0, 6.0],
         "rr_all": [9.0, 4.0]},
    ])  # fmt: skip
    ssp = paper.claims.claims(runs).set_index("claim").loc["GLTS has a lower RR than SSP (W1)"]
    assert ssp["schedsim"].startswith("medium -30.0% [")
    assert (ssp["holds"], ssp["status"]) == ("3 of 3", "reproduced")


def test_a_study_of_another_reading_alone_is_scored_under_it() -> None:
    # study-rounding.toml: SSP and GLTS rounded to whole nodes, no run of the text's
    # reading; its claims table is that reading's, not a table of "not checked".
    runs = _runs([
        {"workload": "W1", "scheduler": "SSP", "rounding": "nodes", "rr_all": 6.0},
        {"workload": "W1", "scheduler": "GLTS", "rounding": "nodes", "rr_all": 4.0},
    ])  # fmt: skip
    assert paper.claims.scored_reading(runs).name == "rounding nodes"
    found = paper.claims.claims(runs, paper.claims.scored_reading(runs)).set_index("claim")
    assert found.loc["GLTS has a lower RR than SSP (W1)", "schedsim"] == "all -33.3%"
    assert paper.claims.scored_reading(runs.assign(rounding="pow2")).name == "text"
    assert paper.claims.scored_reading(runs.iloc[:0]).name == "text"


def test_readings_pick_their_runs_and_measures() -> None:
    # RR at a 10 s cut-off and the per-phase utilization read other columns of the same
    # runs; the arrival reading reads its own runs.
    rows = [
        {
            "workload": "W1",
            "scheduler": "SSP",
            "rr_all": 6.0,
            "rr_all_cut10": 20.0,
            "u_core_high": 0.5,
            "u_core_phase": 0.4,
            "u_core_high_susp": 0.5,
        },
        {
            "workload": "W1",
            "scheduler": "GLTS",
            "rr_all": 4.0,
            "rr_all_cut10": 18.0,
            "u_core_high": 0.6,
            "u_core_phase": 0.6,
            "u_core_high_susp": 0.55,
        },
        {"workload": "W1", "scheduler": "SSP", "alpha_means": "shape", "rr_all": 6.5},
        {"workload": "W1", "scheduler": "GLTS", "alpha_means": "shape", "rr_all": 4.225},
    ]
    runs = _runs(rows).fillna({"alpha_means": "aarr"})
    by = paper.claims.readings(runs)
    assert list(by) == ["text", "alpha as shape", "RR cut-off 60 s", "RR cut-off 10 s",
                        "utilization per phase", "N_wait with suspended jobs"]  # fmt: skip

    def ours(reading: str, key: str) -> str:
        return next(r.text() for r in by[reading] if r.claim.key == key)

    rr, util = (
        "GLTS has a lower RR than SSP (W1)",
        ("GLTS raises the core utilization in high-load phases over SSP (W1)"),
    )
    assert ours("text", rr) == "all -33.3%"
    assert ours("RR cut-off 10 s", rr) == "all -10.0%"
    assert ours("alpha as shape", rr) == "all -35.0%"
    assert ours("RR cut-off 60 s", rr).startswith("not checked")  # no column: not measured
    assert ours("text", util) == "vs SSP +20.0%"
    assert ours("utilization per phase", util) == "vs SSP +50.0%"
    assert ours("N_wait with suspended jobs", util) == "vs SSP +10.0%"
    table = readings_table(by)
    assert table.loc[table["claim"] == rr, "alpha as shape"].item() == "reproduced"
    assert table.loc[table["claim"] == rr, "RR cut-off 10 s"].item() == "direction only"
    assert "**headline claims reproduced (of 6)**" in readings_markdown(table)


def test_figure_7_draws_the_utilizations_as_fractions() -> None:
    table = _table(
        [
            {"workload": "W1", "scheduler": "SSP", "u_core_high": 0.5, "u_node_high": 0.9},
            {"workload": "W1", "scheduler": "GLTS", "u_core_high": 0.63, "u_node_high": 0.95},
        ]
    )
    ax = paper.utilization_figure(table).axes[0]
    assert ax.get_ylabel() == "utilization in high-load\nphases (fraction)"
    assert ax.get_ylim() == (0.0, 1.0)
    assert sorted(bar.get_height() for bar in ax.patches) == [0.5, 0.63, 0.9, 0.95]


def test_scojo_runs_are_the_papers_setting_and_never_mixed_with_bare_ones() -> None:
    # W1 has GLTS under Scojo-PECT and alone: the claims read the Scojo-PECT runs only
    # (no SSP there: no comparison with the bare SSP). W2 has bare runs only: kept.
    table = _table(
        [
            {"workload": "W1", "slicing": "Scojo-PECT", "scheduler": "GLTS", "rr_all": 4.0},
            {"workload": "W1", "slicing": "none", "scheduler": "GLTS", "rr_all": 90.0},
            {"workload": "W1", "slicing": "none", "scheduler": "SSP", "rr_all": 120.0},
            {"workload": "W2", "slicing": "none", "scheduler": "SSP", "rr_all": 10.0},
        ]
    )
    kept = paper.paper_setting(table)
    assert kept[["workload", "slicing", "scheduler"]].values.tolist() == [
        ["W1", "Scojo-PECT", "GLTS"], ["W2", "none", "SSP"],
    ]  # fmt: skip
    claimed = paper.claims.claims(table).set_index("claim")
    assert claimed.loc["GLTS has a lower RR than SSP (W1)", "status"] == "not checked"
    # Runs are averaged per workload, slicing, scheduler, block size and slack factor.
    runs = pd.DataFrame(
        {"workload": ["W1"] * 3, "slicing": ["Scojo-PECT", "Scojo-PECT", "none"],
         "scheduler": ["GLTS"] * 3, "block_size": [16.0] * 3, "f_slack": [1.5] * 3,
         "id": ["a", "b", "c"], "replication": [0, 1, 0], "rr_all": [3.0, 5.0, 90.0]}
    )  # fmt: skip
    averaged = paper.aggregate(runs)
    assert averaged[["slicing", "runs", "rr_all"]].values.tolist() == [
        ["Scojo-PECT", 2, 4.0], ["none", 1, 90.0],
    ]  # fmt: skip


# -- part 2: a small study ----------------------------------------------------------


def test_the_paper_is_registered() -> None:
    assert paper_analyses()["zeng2009"] == "schedsim.papers.zeng2009"


@pytest.fixture(scope="module")
def study_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    study = Study(
        name="zeng-small",
        base={"workload": "zeng-w1", "jobs": 300, "contention": "statistical",
              "kill_at_estimate": False},
        grid={"policy": ["ssp", "glts"]},
        report={"paper": "zeng2009", "x": "none"},
    )  # fmt: skip
    directory = tmp_path_factory.mktemp("study") / "zeng-small"
    sweep(study, directory, workers=0, progress=False)
    return directory


def test_the_report_of_a_small_study(study_dir: Path, tmp_path: Path) -> None:
    results = StudyResults.load(study_dir)
    runs = paper.study_runs(results)
    assert sorted(runs["scheduler"]) == ["GLTS", "SSP"]
    assert set(runs["workload"]) == {"W1"} and set(runs["slicing"]) == {"none"}
    assert (runs["block_size"] == 16).all() and (runs["f_slack"] == 1.5).all()
    # The metrics of a run are those of its result.
    first = runs.iloc[0]
    again = paper.metrics(results.result(first["id"]))
    assert first["rr_all"] == again["rr_all"] and first["u_core"] == again["u_core"]
    table = paper.aggregate(runs)
    assert table["scheduler"].tolist() == ["SSP", "GLTS"] and (table["runs"] == 1).all()
    tables, plots, claims = paper.write(results, tmp_path)
    assert {p.name for p in tables} >= {
        "claims.csv", "zeng2009-rr.csv", "zeng2009-utilization.csv", "zeng2009-groups.csv",
        "zeng2009-fairness.csv", "zeng2009-matchmaking.csv", "zeng2009-rr-cutoffs.csv",
        "readings.csv", "readings.md",
    }  # fmt: skip
    assert {p.name for p in plots} == {"zeng2009-fig6-rr.png", "zeng2009-fig7-utilization.png"}
    assert all(p.stat().st_size > 0 for p in plots)
    assert "GLTS has a lower RR than SSP (W1)" in set(claims["claim"])
    assert set(claims["status"]) <= {"reproduced", "direction only", "not reproduced",
                                     "not checked"}  # fmt: skip
    # The readings x claims table: the text's reading and the measure readings of the same
    # runs (no run of another workload reading).
    grid = pd.read_csv(tmp_path / "readings.csv")
    assert list(grid.columns) == ["claim", "where", "headline", "text", "RR cut-off 60 s",
                                  "RR cut-off 10 s", "utilization per phase",
                                  "N_wait with suspended jobs"]  # fmt: skip
    assert grid["headline"].sum() == 6
    assert "the most headline claims" in (tmp_path / "readings.md").read_text()
    with (tmp_path / "zeng2009-matchmaking.csv").open(newline="") as f:
        searches = {row["scheduler"]: row for row in csv.DictReader(f)}
    assert searches["SSP"]["searches (searches)"] == ""
    assert float(searches["GLTS"]["searches (searches)"]) > 0
    assert 0 <= float(searches["GLTS"]["few_candidates_share (fraction)"]) <= 1
    rr = pd.read_csv(tmp_path / "zeng2009-rr.csv")
    assert "rr (ratio)" in rr.columns and set(rr["type"]) == {"short", "medium", "long", "all"}
    # Utilizations and the grouped share are fractions, named so (read back with the
    # standard library's reader, not the writer's pandas).
    with (tmp_path / "zeng2009-utilization.csv").open(newline="") as f:
        util = list(csv.DictReader(f))
    names = [f"u_{w}{h} (fraction)" for w in ("node", "core") for h in ("", "_high")]
    assert set(names) <= set(util[0]) and not [c for c in util[0] if "%" in c or "pct" in c]
    values = [float(row[c]) for row in util for c in names if row[c] != ""]
    assert values and all(0.0 <= v <= 1.0 for v in values)
    assert [float(row["u_core (fraction)"]) for row in util] == pytest.approx(
        table["u_core"].tolist()
    )
    with (tmp_path / "zeng2009-groups.csv").open(newline="") as f:
        groups = list(csv.DictReader(f))
    shares = {row["scheduler"]: row["grouped_share (fraction)"] for row in groups}
    assert float(shares["SSP"]) == 0.0 and 0.0 < float(shares["GLTS"]) <= 1.0


def test_schedsim_report_prints_the_claims(
    study_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from schedsim.app.cli import main

    assert main(["report", str(study_dir), "--out", str(tmp_path / "report")]) == 0
    assert "The paper's claims (zeng2009)" in capsys.readouterr().out
    assert (tmp_path / "report" / "zeng2009-fig6-rr.png").exists()


def test_the_pair_readings_read_cst_and_cstws_runs_of_their_own() -> None:
    # CST and CSTWS run under each pair reading; SSP and GLTS once (no pairs to read).
    # Each reading reads the CST and CSTWS runs of its own, the others' runs throughout.
    rows = [
        {"workload": "W1", "scheduler": "GLTS", "rr_all": 4.0},
        {"workload": "W1", "scheduler": "SSP", "rr_all": 6.0},
        {"workload": "W1", "scheduler": "CST", "rr_all": 5.0},
        {"workload": "W1", "scheduler": "CSTWS", "rr_all": 5.0},
        {"workload": "W1", "scheduler": "CST", "pair_best": "slowdown", "rr_all": 8.0},
        {"workload": "W1", "scheduler": "CST", "pair_tries": "one", "rr_all": 4.4},
        {"workload": "W1", "scheduler": "CSTWS", "pair_tries": "one", "rr_all": 16.0},
        {"workload": "W1", "scheduler": "CST", "pair_sharing": "coschedule", "rr_all": 6.0},
        {"workload": "W1", "scheduler": "CSTWS", "pair_sharing": "coschedule", "rr_all": 8.0},
        # The slowdowns combined by max: every scheduler's runs of their own.
        *(
            {"workload": "W1", "scheduler": name, "self_and_cos": "max", "rr_all": rr}
            for name, rr in (("GLTS", 3.0), ("SSP", 6.0), ("CST", 4.0), ("CSTWS", 4.0))
        ),
    ]
    runs = _runs(rows).fillna({"pair_best": "gain", "pair_tries": "until_pass",
                               "pair_sharing": "choose", "self_and_cos": "product"})  # fmt: skip
    by = paper.claims.readings(runs)
    assert list(by) == ["text", "RR cut-off 60 s", "RR cut-off 10 s", "utilization per phase",
                        "N_wait with suspended jobs", "CST best by slowdown",
                        "pairs: one match checked", "pairs: only coscheduling",
                        "slowdowns combined by max"]  # fmt: skip

    def ours(reading: str, key: str) -> str:
        return next(r.text() for r in by[reading] if r.claim.key == key)

    cst, cstws, ssp = (f"GLTS has a lower RR than {name} (W1)" for name in ("CST", "CSTWS", "SSP"))
    assert ours("text", cst) == "all -20.0%"
    assert ours("text", cstws) == "all -20.0%"
    assert ours("CST best by slowdown", cst) == "all -50.0%"
    assert ours("CST best by slowdown", cstws) == "all -20.0%"  # CSTWS has no "best"
    assert ours("pairs: one match checked", cst) == "all -9.1%"
    assert ours("pairs: one match checked", cstws) == "all -75.0%"
    assert ours("pairs: only coscheduling", cst) == "all -33.3%"
    assert ours("pairs: only coscheduling", cstws) == "all -50.0%"
    pairs = ("text", "CST best by slowdown", "pairs: one match checked",
             "pairs: only coscheduling")  # fmt: skip
    assert {ours(r, ssp) for r in pairs} == {"all -33.3%"}
    assert ours("slowdowns combined by max", ssp) == "all -50.0%"
    assert ours("slowdowns combined by max", cst) == "all -25.0%"
    # A study whose CST ran under another reading alone is scored under the text's (it
    # has the text's SSP and GLTS), its CST claim not checked; the figures read only the
    # text's runs.
    only = runs[(runs["scheduler"] != "CST") | (runs["pair_best"] == "slowdown")]
    assert paper.claims.scored_reading(only).name == "text"
    found = paper.claims.claims(only).set_index("claim")
    assert found.loc[cst, "status"] == "not checked"
    table = paper.analyses.default_reading(runs)
    assert set(table["pair_best"]) == {"gain"} and set(table["pair_tries"]) == {"until_pass"}
    assert set(table["pair_sharing"]) == {"choose"} and set(table["self_and_cos"]) == {"product"}


def test_the_readings_of_several_studies_count_a_run_once(study_dir: Path, tmp_path: Path) -> None:
    # The same study twice is the study once: its runs (same ids) count once, so the
    # table is its own report's.
    from schedsim.papers.zeng2009.report import readings_of

    results = StudyResults.load(study_dir)
    paper.write(results, tmp_path)
    alone = (tmp_path / "readings.md").read_text()
    both = readings_of([study_dir, study_dir])
    assert both.strip() and both.strip() in alone
    with pytest.raises(ValueError, match="no finished run of Zeng & Sodan's schedulers in "):
        readings_of([])
