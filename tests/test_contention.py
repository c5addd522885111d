"""Node occupancy and contention: rates from who shares a node, applied by the model.

`NodeSharing(2.0)` halves the rate of any job that shares one of its nodes.
Worked by hand on one node of two cores; integer times, exact comparisons.
"""

from __future__ import annotations

import pytest

from schedsim import Simulation
from schedsim.model.contention import ContentionModel, NodeSharing, Sharing
from schedsim.model.policy import SetRate, Start
from schedsim.model.view import View
from schedsim.policies.fcfs import FCFS
from schedsim.workloads.job import Job
from schedsim.workloads.workload import Workload

from invariants import check_invariants
from test_limits import Script, row


def simulate(jobs: list[Job], policy=None, nodes: int = 1, cores: int = 2, **options):
    w = Workload.from_jobs(jobs, max_procs=nodes * cores)
    sim = Simulation(
        w,
        policy or FCFS(),
        nodes=nodes,
        cores_per_node=cores,
        contention=options.pop("contention", NodeSharing(2.0)),
        **options,
    )
    return sim, sim.run()


def test_two_jobs_sharing_a_node_run_at_half_speed_by_hand() -> None:
    # A (1 core, work 100) alone from 0 to 50: 50 done. B (1 core, work 100) joins
    # on the same node at 50: both at rate 0.5. A's 50 left take 100 s: A ends at
    # 150, when B has done 50; alone again, B's 50 left take 50 s: B ends at 200.
    jobs = [Job(1, 0.0, 100.0, 1, 1000.0), Job(2, 50.0, 100.0, 1, 1000.0)]
    _, result = simulate(jobs)
    a, b = row(result, 1), row(result, 2)
    assert (a["start"], a["end"], a["run"], a["work"]) == (0.0, 150.0, 150.0, 100.0)
    assert (b["start"], b["end"], b["run"], b["work"]) == (50.0, 200.0, 150.0, 100.0)
    pieces = result.pieces.sort_values(["job", "start"])
    assert pieces[["job", "start", "end", "rate", "cores"]].values.tolist() == [
        [1, 0.0, 50.0, 1.0, "0"],
        [1, 50.0, 150.0, 0.5, "0"],
        [2, 50.0, 150.0, 0.5, "1"],
        [2, 150.0, 200.0, 1.0, "1"],
    ]
    check_invariants(result, Workload.from_jobs(jobs, max_procs=2), 2, unit_rate=False)


def test_jobs_on_different_nodes_do_not_slow_each_other() -> None:
    jobs = [Job(1, 0.0, 100.0, 1, 1000.0), Job(2, 0.0, 100.0, 1, 1000.0)]
    place = [0]

    def spread(view: View) -> list:
        from schedsim.model.cluster import Allocation

        out = []
        for job in view.queue:
            out.append(Start(job, Allocation.on([place[0]])))
            place[0] += 1
        return out

    _, result = simulate(jobs, Script(spread), nodes=2)
    assert result.jobs["end"].tolist() == [100.0, 100.0]


def test_expected_end_is_now_plus_remaining_estimated_work_over_rate() -> None:
    # With limits counted in work: A (estimate 1000) is slowed to 0.5 at 50 with
    # 50 done, so it is planned to end at 50 + (1000 - 50) / 0.5 = 1950. Counted in
    # run time the limit (1000 s of running) comes first: 50 + 950 = 1000.
    # C arrives at 100 (no core free) and brings a pass that shows A slowed.
    jobs = [
        Job(1, 0.0, 100.0, 1, 1000.0),
        Job(2, 50.0, 100.0, 1, 1000.0),
        Job(3, 100.0, 10.0, 1, 1000.0),
    ]
    for limit_in, expected in (("work", 1950.0), ("run", 1000.0)):
        policy = Script(lambda view: [Start(j) for j in view.queue[: view.free_cores]])
        simulate(jobs, policy, limit_in=limit_in)
        assert policy.at(50.0)[0].running[0].expected_end == 1000.0  # alone: its estimate
        a = policy.at(100.0)[0].get(1)
        assert a is not None and (a.rate, a.expected_end) == (0.5, expected), limit_in


def test_the_limit_in_run_time_kills_a_slowed_job_the_limit_in_work_does_not() -> None:
    # Both jobs (work 100, estimate 120) share the node from 0 at rate 0.5: 200 s
    # to finish. 120 s of running kills them with 60 done; 120 of work does not.
    jobs = [Job(1, 0.0, 100.0, 1, 120.0), Job(2, 0.0, 100.0, 1, 120.0)]
    _, by_run = simulate(jobs)
    _, by_work = simulate(jobs, limit_in="work")
    assert by_run.jobs["outcome"].tolist() == ["killed_at_limit"] * 2
    assert by_run.jobs["end"].tolist() == [120.0, 120.0]
    assert by_work.jobs["outcome"].tolist() == ["completed"] * 2
    assert by_work.jobs["end"].tolist() == [200.0, 200.0]
    assert by_run.meta["limit_in"] == "run" and by_work.meta["limit_in"] == "work"


def test_a_policy_rate_multiplies_the_contention_rate() -> None:
    # A alone, the policy sets 0.5 at 0; B joins at 50 (contention 0.5: A at 0.25).
    # A: 25 done by 50, then 0.25 until B (rate 0.5, 100 work) ends at 250 having done
    # 100, A doing 50 more (75 in all); alone again at 0.5, its 25 left take 50 s: 300.
    jobs = [Job(1, 0.0, 100.0, 1, 10_000.0), Job(2, 50.0, 100.0, 1, 10_000.0)]

    def decide(view: View) -> list:
        out: list = [Start(j) for j in view.queue]
        if view.now == 0.0:
            out.append(SetRate(view.queue[0], 0.5))
        return out

    _, result = simulate(jobs, Script(decide))
    assert row(result, 1)["end"] == 300.0 and row(result, 2)["end"] == 250.0


class PerJobSlowdown(ContentionModel):
    """Reads a per-job attribute: each job is slowed by its own ``factor`` when shared."""

    def rate(self, job: Job, sharing: Sharing) -> float:
        mates = sharing.mates()
        assert all(sharing.job(m).id == m for m in mates)
        on = {m for n in sharing.allocation.nodes.tolist() for m in sharing.on(n)}
        assert on == mates and job.id not in on
        return 1.0 / job.attrs["factor"] if mates else 1.0


def test_a_model_reads_job_attributes_and_the_occupancy() -> None:
    jobs = [
        Job(1, 0.0, 100.0, 1, 1000.0, attrs={"factor": 4.0}),
        Job(2, 0.0, 100.0, 1, 1000.0, attrs={"factor": 1.0}),
    ]
    # Both share from 0: job 2 unslowed ends at 100, job 1 did 25 by then, 75 more: 175.
    sim, result = simulate(jobs, contention=PerJobSlowdown())
    assert result.jobs["end"].tolist() == [175.0, 100.0]
    assert result.jobs["factor"].tolist() == [4.0, 1.0]
    assert sim.cluster.jobs_on(0) == {}  # every job has left


def test_a_rate_must_be_positive() -> None:
    class Broken(ContentionModel):
        def rate(self, job: Job, sharing: Sharing) -> float:
            return 0.0

    with pytest.raises(ValueError, match=r"rate 0\.0"):
        simulate([Job(1, 0.0, 1.0, 1, 1.0)], contention=Broken())


def test_node_sharing_needs_a_slowdown_of_at_least_one() -> None:
    with pytest.raises(ValueError, match="slowdown"):
        NodeSharing(0.5)


def test_an_attribute_named_like_a_column_is_refused() -> None:
    with pytest.raises(ValueError, match=r"attributes \['slowdown'\] would hide columns"):
        simulate([Job(1, 0.0, 1.0, 1, 1.0, attrs={"slowdown": 2.0})])
