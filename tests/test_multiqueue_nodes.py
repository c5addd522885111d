"""Multiple-queue backfilling node by node (`schedsim.policies.multiqueue_nodes`): machines
of node groups, memory and partitions, and node outages (Lawson & Smirni 2002, section 2,
Figure 2)."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schedsim.model.machine import Machine, NodeGroup, Partition, job_memory
from schedsim.model.outages import FailureModel, Outage, Outages
from schedsim.model.policy import PolicyError
from schedsim.model.simulation import ModelSimulation
from schedsim.policies.multiqueue import MultiQueue, SingleQueue
from schedsim.workloads.job import Job
from schedsim.workloads.workload import Workload

from invariants import check_invariants, check_machine, record_holdings
from test_machine import draw_groups
from test_outages import _check_off_outages, outages_on

GB = 1024.0**2  # KB


def _job(i: int, submit: float, run: float, size: int, *, est: float | None = None,
         mem_gb: float = 0.0, partition: int = -1, **attrs: object) -> Job:  # fmt: skip
    est = run if est is None else est
    swf = (float(i), submit, -1.0, run, float(size), -1.0, -1.0, float(size), est,
           mem_gb * GB if mem_gb else -1.0, 1.0, -1.0, -1.0, -1.0, -1.0, float(partition),
           -1.0, -1.0)  # fmt: skip
    return Job(i, submit, run, size, est, partition=partition, swf=swf, attrs=dict(attrs))


def _rows(result) -> dict[int, tuple]:
    return {r.id: r for r in result.jobs.itertuples()}


# -- by hand ---------------------------------------------------------------------------


def test_a_partitions_jobs_start_while_anothers_pivot_waits() -> None:
    # Partition a: nodes 0-1, b: nodes 2-3, two cores each. Exact estimates, one queue.
    # Job 1 fills a until 100; job 2 (a) is a's pivot, planned at 100. Job 3 (b) is
    # b's pivot and starts at once on b's nodes: a's waiting pivot is no concern of b's.
    # Job 4 (b) waits for job 3: b's new pivot, planned at 102.
    m = Machine(
        (NodeGroup("n", 4, 2),),
        (Partition("a", (0, 1), 1, True), Partition("b", (2, 3), 2)),
    )
    jobs = [
        _job(1, 0, 100, 4),
        _job(2, 1, 50, 2),
        _job(3, 2, 100, 3, partition=2),
        _job(4, 3, 10, 2, partition=2),
        _job(5, 4, 10, 1, partition=2),
    ]
    w = Workload.from_jobs(jobs)
    sim = ModelSimulation(w, MultiQueue(), machine=m, log_reservations=True)
    log = record_holdings(sim)
    result = sim.run()
    check_machine(result, w, m, log)
    rows = _rows(result)
    assert (rows[1].start, rows[1].nodes, rows[1].start_rule) == (0, "0-1", "pivot")
    assert (rows[3].start, rows[3].nodes, rows[3].start_rule) == (2, "2-3", "pivot")
    # Job 5 (b, 1 core, 10 s) backfills on b's last core beside job 3, ending (at 14)
    # before b's pivot (job 4, planned at 102) starts: rule a.
    assert (rows[5].start, rows[5].start_rule) == (4, "a")
    assert (rows[4].start, rows[4].start_rule) == (102, "pivot")
    assert (rows[2].start, rows[2].start_rule) == (100, "pivot")
    promised = result.reservations
    first = promised.sort_values("pass").groupby("job").first()
    assert first.loc[2, "start"] == 100 and first.loc[2, "kind"] == "pivot"
    assert first.loc[4, "start"] == 102 and first.loc[4, "nodes"] == "2"
    # Processors are not owned on this path: the partitions table has no rows.
    assert len(result.tables["partitions"]) == 0


def test_memory_keeps_a_job_off_the_thin_nodes() -> None:
    # Thin nodes 0-1 (2 cores, 8 GB), a fat node 2 (4 cores, 64 GB). Job 1 asks 16 GB a
    # core: only the fat node holds it, though thin nodes come first. Job 2 (4 cores, no
    # memory) then takes the thin nodes; job 3 (2 cores of 16 GB) the fat node's rest.
    m = Machine((NodeGroup("thin", 2, 2, 8 * GB), NodeGroup("fat", 1, 4, 64 * GB)))
    jobs = [_job(1, 0, 100, 2, mem_gb=16), _job(2, 1, 100, 4), _job(3, 2, 100, 2, mem_gb=16),
            _job(4, 3, 100, 1, mem_gb=16)]  # fmt: skip
    w = Workload.from_jobs(jobs)
    sim = ModelSimulation(w, MultiQueue(), machine=m)
    log = record_holdings(sim)
    result = sim.run()
    check_machine(result, w, m, log)
    rows = _rows(result)
    assert (rows[1].start, rows[1].nodes) == (0, "2")
    assert (rows[2].start, rows[2].nodes) == (1, "0-1")
    assert (rows[3].start, rows[3].nodes) == (2, "2")
    # The fat node is full: job 4 waits for it, though two thin cores would be free.
    assert (rows[4].start, rows[4].nodes) == (100, "2")


def test_a_trial_a_failure_cuts_short_is_tried_again() -> None:
    # One node. Job 1 (estimate 2000 > 1000) gets a 180 s trial at 0; its node fails
    # from 50 to 60: the trial did not run out, so it is tried again at 60 (180 s),
    # runs out at 240 and only then queues, and starts for good at 240 as the pivot.
    fail = Outages(listed=(Outage(50, 60, (0,), "failure"),))
    w = Workload.from_jobs([_job(1, 0, 1000, 1, est=2000)])
    result = ModelSimulation(w, MultiQueue(), nodes=1, outages=fail).run()
    row = _rows(result)[1]
    assert (row.failures, row.requeues, row.start_rule) == (1, 2, "pivot")
    assert row.end == 240 + 1000


def test_a_job_a_failure_requeues_keeps_its_place_by_arrival() -> None:
    # Two nodes. Jobs 1 and 2 run; node 0 fails at 10 (until 20), killing job 1 (on
    # node 0). Job 3 arrived at 5 and waits; job 1 comes back ahead of it (it arrived
    # first) and is the pivot: it starts when node 0 returns, at 20, before job 3.
    fail = Outages(listed=(Outage(10, 20, (0,), "failure"),))
    jobs = [_job(1, 0, 100, 1), _job(2, 0, 100, 1), _job(3, 5, 100, 1)]
    result = ModelSimulation(Workload.from_jobs(jobs), MultiQueue(), nodes=2,
                             outages=fail).run()  # fmt: skip
    rows = _rows(result)
    assert (rows[1].failures, rows[1].end, rows[1].start_rule) == (1, 120, "pivot")
    assert rows[3].start == 100


def test_the_other_guards_are_refused_on_one_line() -> None:
    m = Machine((NodeGroup("n", 2, 2, 8 * GB),))
    w = Workload.from_jobs([_job(1, 0, 10, 1)])
    fail = Outages(listed=(Outage(5, 6, (0,), "failure"),))
    for guard in ("own", "return", "reassign"):
        for kw in ({"machine": m}, {"nodes": 2, "outages": fail}):
            with pytest.raises(PolicyError) as info:
                ModelSimulation(w, MultiQueue(guard=guard), **kw)  # type: ignore[arg-type]
            text = str(info.value)
            assert "\n" not in text and f"guard={guard!r}" in text
            assert "guard='all' runs there" in text
    ModelSimulation(w, MultiQueue(guard="all"), machine=m).run()


# -- random machines, workloads and outages --------------------------------------------


@st.composite
def _cases(draw: st.DrawFn) -> tuple[Machine, Workload, dict]:
    """A random small machine (node groups, maybe two partitions) and jobs with random
    priorities, reservation requests and estimates across three small queues; and the
    policy's parameters (small boundaries and speculation, so that every part runs)."""
    groups = draw_groups(draw)
    nodes = sum(g.nodes for g in groups)
    partitions: tuple[Partition, ...] = ()
    if nodes > 1 and draw(st.booleans()):
        cut = draw(st.integers(1, nodes - 1))
        partitions = (
            Partition("a", tuple(range(cut)), 1, True),
            Partition("b", tuple(range(cut, nodes)), 2),
        )
    m = Machine(tuple(groups), partitions)
    jobs = []
    for i in range(1, draw(st.integers(1, 14)) + 1):
        part = draw(st.sampled_from([-1, 1, 2])) if partitions else -1
        mem = draw(st.sampled_from([0, 1, 4]))
        probe = _job(i, 0, 1, 1, mem_gb=mem, partition=part)
        most = m.most_cores(probe)
        if most < 1:
            continue
        run = draw(st.integers(0, 60))
        attrs: dict[str, object] = {"priority": draw(st.sampled_from(["high", "low"]))}
        if draw(st.integers(0, 4)) == 0:
            attrs["reservation"] = draw(st.integers(0, 150))
        jobs.append(_job(i, draw(st.integers(0, 100)), run, draw(st.integers(1, most)),
                         est=run + draw(st.integers(0, 40)), mem_gb=job_memory(probe) / GB,
                         partition=part, **attrs))  # fmt: skip
    jobs.append(_job(1000, 0, 1, 1))
    params = {
        "boundaries": "20,50",
        "speculate_above": 30.0,
        "speculative_limit": draw(st.sampled_from([5.0, 15.0])),
        "trial": draw(st.sampled_from(["waiting", "idle", "scheduled", "reserved"])),
    }
    return m, Workload.from_jobs(jobs), params


def _unit_speed(m: Machine) -> Machine:
    """``m`` with every node at speed 1."""
    return Machine(tuple(dataclasses.replace(g, speed=1.0) for g in m.groups), m.partitions)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_cases())
def test_random_machines_keep_the_invariants(case) -> None:
    m, w, params = case
    sim = ModelSimulation(w, MultiQueue(**params), machine=m)
    log = record_holdings(sim)
    result = sim.run()
    check_invariants(result, w, m.total_cores, unit_rate=m.speed is None)
    check_machine(result, w, m, log)


@pytest.mark.parametrize("on_failure", ["requeue", "lose"])
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_outages_on_random_machines_keep_the_invariants(on_failure, data) -> None:
    m, w, params = data.draw(_cases())
    # Nodes at speed 1: the checker bounds a failed job's run by its work, which a job
    # on a slow node may outrun before the failure (`invariants.check_invariants`).
    m = _unit_speed(m)
    outages = data.draw(outages_on(m.nodes))
    sim = ModelSimulation(w, MultiQueue(**params), machine=m,
                          outages=Outages(listed=outages, on_failure=on_failure))  # fmt: skip
    log = record_holdings(sim)
    result = sim.run()
    check_invariants(result, w, m.total_cores)
    check_machine(result, w, m, log)
    _check_off_outages(result, log)
    fails = result.jobs["failures"].to_numpy()
    if on_failure == "lose":
        assert ((result.jobs["outcome"] == "failed").to_numpy() == (fails > 0)).all()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_cases())
def test_no_backfill_delays_a_pivot(case) -> None:
    # One queue, no speculation, one priority, no reservation: a new pivot comes only
    # when its queue's pivot started, and nothing may take the cores a pivot is planned
    # on, so (running jobs killed at their estimates) each pivot starts no later than
    # the first time the policy promised it. A backfill that delayed one would break it.
    m, w, _ = case
    # Nodes at speed 1: a job's planned end is then its start plus its estimate.
    m = _unit_speed(m)
    jobs = [
        _job(j.id, j.submit, j.run_time, j.size, est=j.estimate, mem_gb=job_memory(j) / GB,
             partition=j.partition)
        for j in w.jobs
    ]  # fmt: skip
    w = Workload.from_jobs(jobs)
    sim = ModelSimulation(w, SingleQueue(speculation=False), machine=m, log_reservations=True)
    result = sim.run()
    promised = result.reservations
    if promised is None or promised.empty:
        return
    first = promised[promised["kind"] == "pivot"].sort_values("pass").groupby("job")["start"]
    start = result.jobs.set_index("id")["start"]
    for job, at in first.first().items():
        assert start[job] <= at + 1e-9, (job, start[job], at)


def test_the_same_seed_gives_the_same_schedule() -> None:
    from schedsim.workloads.catalog import load
    from schedsim.workloads.transforms import first

    w = first(load("kth"), 400)
    m = Machine((NodeGroup("thin", 60, 1, 8 * GB), NodeGroup("fat", 40, 1, 64 * GB)))
    model = Outages(FailureModel(mtbf=20 * 86400, repair=3600))
    runs = [ModelSimulation(w, MultiQueue(), machine=m, outages=model, seed=s).run()
            for s in (1, 1, 2)]  # fmt: skip
    pd.testing.assert_frame_equal(runs[0].jobs, runs[1].jobs)
    assert not runs[0].jobs.equals(runs[2].jobs)
    assert runs[0].summary()["node_failures"] > 0
