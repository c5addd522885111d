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


def test_a_machines_view_copies_jobs_as_replace_would() -> None:
    # _vview copies its jobs with functions written from JobView's fields (speed):
    # each must give what JobView._replace gives, field for field.
    from schedsim.model.cluster import Allocation
    from schedsim.model.view import JobView, State
    from schedsim.policies.scojo import _as_running, _blocking, _resubmitted

    alloc = Allocation.on([2, 5], [4, 3])
    suspended = JobView.of(job(7, 10, 500, 7), State.SUSPENDED, home=alloc, since=90,
                           work_done=40, rate=0.8, first_start=20)  # fmt: skip
    running = JobView.of(job(8, 0, 900, 4), State.RUNNING, allocation=alloc, since=30,
                         first_start=30, rate=0.5)  # fmt: skip
    queued = JobView.of(job(9, 5, 60, 2))
    pairs = [
        (_as_running(suspended, 3.0, alloc, 7.0, 0.8, 41.0, 600.0),
         suspended._replace(submit=3.0, state=State.RUNNING, allocation=alloc, since=7.0,
                            progressing=True, rate=0.8, work_done=41.0, expected_end=600.0)),
        (_blocking(running, 7.0, 99.0), running._replace(since=7.0, expected_end=99.0)),
        (_resubmitted(queued, 1.5), queued._replace(submit=1.5)),
    ]  # fmt: skip
    for fast, slow in pairs:
        assert type(fast) is JobView and tuple(fast) == tuple(slow)


def test_units_group_jobs_sharing_nodes_transitively() -> None:
    from schedsim.model.cluster import Allocation
    from schedsim.policies.scojo import _sharing

    on = [Allocation.on(n) for n in ([0, 1], [5], [1, 2], [7, 8], [2, 3], [8])]
    # 0-2-4 share nodes 1 and 2, 3-5 share node 8; groups in order of their first job.
    assert _sharing(on) == [[0, 2, 4], [1], [3, 5]]
    assert _sharing([]) == []


@pytest.mark.parametrize("cores_per_node", [1, 4])
@settings(FAST, max_examples=30)
@given(data=st.data())
def test_the_planners_base_is_the_profile_of_running(cores_per_node: int, data) -> None:
    # NodePlanner._base (plain Python, for Scojo-PECT's views made at every pass) gives
    # the profile Profile.of_running makes of each busy node's latest planned end
    # (a node writing out a suspended job: never free), as it was first written.
    import numpy as np

    from schedsim.model.cluster import Allocation
    from schedsim.model.view import JobView, State, View
    from schedsim.policies.planning.profile import INF, Profile, planned_end
    from schedsim.policies.spacesharing import SSP

    nodes, now = 12, 100.0
    running, suspended = [], []
    for jid in range(data.draw(st.integers(0, 6))):
        on = sorted(data.draw(st.sets(st.integers(0, nodes - 1), min_size=1, max_size=4)))
        alloc = Allocation.on(on, 1)
        if data.draw(st.booleans()):
            end = data.draw(st.sampled_from([50.0, 100.0, 150.0, 150.0 + 1e-9, 300.0, INF]))
            running.append(JobView.of(job(jid, 0, 400, len(on)), State.RUNNING,
                                      allocation=alloc, since=0, expected_end=end))  # fmt: skip
        else:
            home = alloc if data.draw(st.booleans()) else None
            suspended.append(JobView.of(job(jid, 0, 400, len(on)), State.SUSPENDED,
                                        allocation=home, home=alloc, since=0))  # fmt: skip
    free = np.full(nodes, cores_per_node, dtype=np.int64)
    for j in (*running, *suspended):
        if j.allocation is not None:
            free[j.allocation.nodes] = 0  # (nodes may be shared: the view's count aside)
    free.flags.writeable = False
    view = View.of(now, nodes, cores_per_node)._replace(
        running=tuple(running), suspended=tuple(suspended), free_per_node=free
    )
    planner = SSP()
    profile, free_nodes = planner._base(view)

    end = np.full(nodes, -INF)
    for j in (*running, *suspended):
        if j.allocation is not None:
            e = planned_end(j.expected_end, now) if j.state is State.RUNNING else INF
            end[j.allocation.nodes] = np.maximum(end[j.allocation.nodes], e)
    assert free_nodes == np.flatnonzero(free == cores_per_node).tolist()
    ends, counts = np.unique(end[(end > -INF) & (end < INF)], return_counts=True)
    busy = [JobView.of(job(99, 0, 1, c), State.RUNNING, expected_end=e, since=0)
            for e, c in zip(ends.tolist(), counts.tolist(), strict=True)]  # fmt: skip
    expected = Profile.of_running(now, len(free_nodes), busy)
    assert (profile.times, profile.free, profile.total) == (
        expected.times, expected.free, expected.total)  # fmt: skip
    held = np.flatnonzero(end > -INF)
    assert planner._node_end == dict(zip(held.tolist(), end[held].tolist(), strict=True))
