"""Scojo-PECT (seed 003, section 4.7): slices per job type, switches, non-type backfilling.

Hand-worked schedules on a few 4-core nodes with every slowdown 1 (so run
times are the work and the slices alone shape the schedule), the slice plan
of an interval, and the core invariants on random workloads with SSP and
G-LOMARC-TS in the virtual machines.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_coscheduling import most_jobs_on_a_node

from schedsim import Simulation
from schedsim.app import registry
from schedsim.model.results import Result
from schedsim.model.slowdowns import StatisticalContention
from schedsim.policies.scojo import INNER, ScojoPECT
from schedsim.policies.spacesharing import Slowdowns
from schedsim.workloads.job import Job
from schedsim.workloads.workload import Workload

from invariants import check_invariants
from test_invariants import FAST, Case, cases


def job(jid: int, submit: float, run: float, size: int) -> Job:
    return Job(jid, submit, run, size, run, attrs={"sl_scr": 1.0, "sl_sno": 1.0})


def simulate(jobs: list[Job], nodes: int, **params) -> tuple[Result, ScojoPECT]:
    """Every slowdown 1: SL_cos of every pair set to 1 by hand."""
    pairs = {(a.id, b.id): 1.0 for a in jobs for b in jobs if a.id != b.id}
    policy = ScojoPECT(**params)
    for vm in policy.vms.values():
        vm.model = Slowdowns(0, pairs=pairs)
    w = Workload.from_jobs(jobs, max_procs=nodes * 4)
    sim = Simulation(w, policy, nodes=nodes, cores_per_node=4,
                     contention=StatisticalContention(0, pairs=pairs),
                     kill_at_estimate=False)  # fmt: skip
    result = sim.run()
    check_invariants(result, w, nodes * 4, unit_rate=False, exact=False)
    return result, policy


def row(result: Result, jid: int):
    return result.jobs.set_index("id").loc[jid]


def test_a_switch_preempts_the_slice_and_costs_60_s() -> None:
    # Medium job 1 (7000 s) and long job 2 (18000 s), each on both nodes, at 0.
    # Intervals of 3600 s: a medium slice of 0.3 x 3600 = 1080 s, a long one of 2520 s.
    # The first slice costs nothing (nothing ran); every later switch suspends the
    # running job, which holds its nodes 60 s: job 1 gets 1080 s, then 1020 s per
    # interval (1080 + 5 x 1020 = 6180 by 21600), and ends at 21660 + 820 = 22480.
    result, policy = simulate([job(1, 0, 7000, 8), job(2, 0, 18000, 8)], nodes=2)
    assert row(result, 1).end == pytest.approx(22480)
    assert row(result, 1).suspensions == 6
    assert row(result, 1).overhead_time == pytest.approx(6 * 60)
    # Job 2: 2460 s in each of the six full long slices, then its seventh slice
    # begins at 22480 (job 1 ended: its slice ended early, at no cost) and runs to
    # 25000: 17280 s done; a new interval (long only) suspends and resumes it.
    assert row(result, 2).end == pytest.approx(25060 + 720)
    slices = policy.slices
    assert [s.type for s in slices[:3]] == ["medium", "long", "medium"]
    assert [(s.start, s.useful, s.end) for s in slices[:3]] == [
        (0, 0, 1080), (1080, 1140, 3600), (3600, 3660, 4680)]  # fmt: skip
    assert slices[12].reason == "no job left" and slices[12].ended == pytest.approx(22480)
    assert slices[13].useful == slices[13].start == pytest.approx(22480)
    # Every piece of a job is on its own nodes (no migration).
    pieces = result.pieces
    assert pieces is not None
    assert set(pieces[pieces["job"] == 1]["nodes"].astype(str)) == {"0-1"}


def test_switch_zero_costs_nothing() -> None:
    result, _ = simulate([job(1, 0, 7000, 8), job(2, 0, 18000, 8)], nodes=2, switch=0)
    # Job 1 runs 1080 s an interval: 6 full slices (6480), then 520 s from 21600.
    assert row(result, 1).end == pytest.approx(21600 + 520)
    assert row(result, 1).overhead_time == 0


def test_non_type_backfilling_fills_the_other_slice() -> None:
    # Medium job 1 and long job 2, one node each, on two nodes. In the medium
    # slice job 2 is backfilled on the free node (it delays no long job); at the
    # switch both are preempted (60 s), and in the long slice job 1 resumes on its
    # own node: 1080 s, then from 1140 the 1920 s it lacks, ending at 3060.
    result, _ = simulate([job(1, 0, 3000, 4), job(2, 0, 20000, 4)], nodes=2)
    assert row(result, 1).end == pytest.approx(3060)
    assert row(result, 2).cos_case == "non-type"
    assert row(result, 1).start == row(result, 2).start == 0
    # Without it, job 2 waits for the long slice.
    result, _ = simulate([job(1, 0, 3000, 4), job(2, 0, 20000, 4)], nodes=2,
                         non_type_backfill=False)  # fmt: skip
    assert row(result, 2).start == pytest.approx(1080 + 60)


def test_non_type_backfilling_delays_no_job_of_the_slice() -> None:
    # Medium slice: job 1 (medium, 1 node) runs to 700, job 3 (medium, 2 nodes) is
    # reserved from 700. Long job 2 (1 node) would fit the free node now, but not
    # until the slice's end (1080) without delaying job 3: it waits for its slice.
    result, _ = simulate([job(1, 0, 700, 4), job(2, 0, 20000, 4), job(3, 0, 800, 8)], nodes=2)
    assert row(result, 3).start == pytest.approx(700)
    assert row(result, 2).start == pytest.approx(1080 + 60)


def test_the_interval_plan() -> None:
    p = ScojoPECT()
    p._waiting["medium"].add(1)
    p._waiting["long"].add(2)
    assert p._interval() == [("medium", pytest.approx(1080)), ("long", pytest.approx(2520))]
    p._waiting["short"].add(3)
    assert p._interval() == [
        ("short", 600), ("medium", pytest.approx(900)), ("long", pytest.approx(2100))]  # fmt: skip
    p._waiting["medium"].clear()
    assert p._interval() == [("short", 600), ("long", 3000)]


def test_a_lone_job_runs_in_its_machines_time() -> None:
    # One medium job alone: its virtual response is its run time, R_est 0.75 of it.
    result, _ = simulate([job(1, 50, 2000, 4)], nodes=2)
    r = row(result, 1)
    assert r.end == pytest.approx(2050)
    assert r.v_submit == 0 and r.v_end == pytest.approx(2000)
    assert r.r_est == pytest.approx(0.75 * 2000)
    assert r.delay_factor == pytest.approx(1 / 0.75)
    assert r.job_type == "medium"


def test_parameters_are_checked_and_registered() -> None:
    assert registry.get("scojo") is ScojoPECT
    assert ScojoPECT().params()["inner"] == "ssp"
    for bad in ({"inner": "easy"}, {"medium_share": 1.0}, {"switch": -1},
                {"short_slice": 3600}, {"short_max": 0}):  # fmt: skip
        with pytest.raises(ValueError):
            ScojoPECT(**bad)


@pytest.mark.parametrize("inner", ["ssp", "glts", "cstws"])
@settings(FAST, max_examples=10)
@given(case=cases(multicore=True), seed=st.integers(0, 3))
def test_invariants_on_random_workloads(inner: str, case: Case, seed: int) -> None:
    w = case.workload
    nodes = case.cores // case.cores_per_node
    policy = ScojoPECT(inner=inner, seed=seed, interval=600, short_slice=120, switch=20,
                       short_max=60, medium_max=300)  # fmt: skip
    sim = Simulation(w, policy, nodes=nodes, cores_per_node=case.cores_per_node,
                     contention=StatisticalContention(seed), kill_at_estimate=False)  # fmt: skip
    result = sim.run()
    check_invariants(result, w, case.cores, unit_rate=False, exact=False)
    assert most_jobs_on_a_node(result) <= (1 if inner == "ssp" else 2)


def test_every_inner_planner_is_known() -> None:
    assert set(INNER) == {"ssp", "glts", "cst", "cstws", "glts-fbo", "glts-ns", "glts-nh"}
