"""Scheduler-owned limits: a start's limit, killed or requeued there, the lost attempt kept.

Seed 001 (section 2.1) starts jobs whose estimate exceeds 1000 s
speculatively for 180 s: one that has not ended by then is killed and
queued again. Every expectation here is worked by hand, times are integers,
so comparisons are exact.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from schedsim import Simulation
from schedsim.model.policy import Decision, Policy, Start
from schedsim.model.view import View
from schedsim.workloads.job import Job
from schedsim.workloads.workload import Workload

from invariants import check_invariants


class Script(Policy):
    """Calls ``decide(view)`` at every pass and records the views."""

    def __init__(self, decide: Callable[[View], Sequence[Decision]]) -> None:
        self.decide = decide
        self.views: list[View] = []

    def schedule(self, view: View) -> list[Decision]:
        self.views.append(view)
        return list(self.decide(view))

    def at(self, t: float) -> list[View]:
        return [v for v in self.views if v.now == t]


def run(jobs: list[Job], nodes: int, decide, **options):
    policy = Script(decide)
    w = Workload.from_jobs(jobs, max_procs=nodes)
    sim = Simulation(w, policy, nodes=nodes, **options)
    result = sim.run()
    return policy, result


def row(result, jid: int) -> dict:
    return result.jobs.set_index("id").loc[jid].to_dict()


def speculative(view: View) -> list[Decision]:
    """Seed 001's rule, simplified: a job of estimate > 1000 s first runs for 180 s
    (requeued if not done); a job requeued once runs to its estimate; FCFS otherwise."""
    out: list[Decision] = []
    free = view.free_cores
    for job in view.queue:
        if job.size > free:
            break
        if job.estimate > 1000 and job.attempts == 0:
            out.append(Start(job, limit=180.0, on_limit="requeue"))
        else:
            out.append(Start(job))
        free -= job.size
    return out


def test_a_speculative_start_requeued_at_180_s_by_hand() -> None:
    # Two nodes. A (1 node, work 500, estimate 5000) starts at 0 for 180 s; B (2
    # nodes, work 100) waits. At 180 A is requeued (180 s lost) and, back in
    # submit order, is first: it starts again (estimate as its limit) on one
    # node; B still waits for two. A ends at 180 + 500 = 680; B runs 680-780.
    jobs = [Job(1, 0.0, 500.0, 1, 5000.0), Job(2, 0.0, 100.0, 2, 100.0)]
    policy, result = run(jobs, 2, speculative)
    a, b = row(result, 1), row(result, 2)
    assert (a["start"], a["end"], a["run"], a["outcome"]) == (0.0, 680.0, 500.0, "completed")
    assert (a["lost_run"], a["lost_work"], a["requeues"], a["attempts"]) == (180.0, 180.0, 1, 2)
    # Wait as a user sees it: everything but the run that counts, the lost 180 s too
    # (seed 001's delay d = response - service).
    assert a["wait"] == 680.0 - 500.0 == 180.0
    assert (b["start"], b["end"], b["wait"]) == (680.0, 780.0, 680.0)
    # While speculative, A is planned to end at its limit, not its estimate.
    first = policy.at(0.0)[0]
    assert first.queue[0].attempts == 0
    # The pass at 180 is told that A was requeued.
    at180 = policy.at(180.0)[0]
    assert [j.id for j in at180.requeued] == [1] and not at180.ended
    assert at180.requeued[0].work_done == 0.0 and at180.requeued[0].attempts == 1
    # The pieces: A's first attempt lost on node 0, its second run there.
    pieces = result.pieces[result.pieces["job"] == 1]
    assert pieces[["attempt", "kind", "start", "end", "nodes"]].values.tolist() == [
        [1, "lost", 0.0, 180.0, "0"],
        [2, "run", 180.0, 680.0, "0"],
    ]
    check_invariants(result, Workload.from_jobs(jobs, max_procs=2), 2)


def test_a_job_that_ends_within_its_speculative_start_just_completes() -> None:
    # C crashes after 30 s despite its 5000 s estimate: flushed out at once.
    jobs = [Job(1, 0.0, 30.0, 1, 5000.0)]
    _, result = run(jobs, 1, speculative)
    c = row(result, 1)
    assert (c["end"], c["outcome"], c["attempts"], c["lost_run"]) == (30.0, "completed", 1, 0.0)


def test_expected_end_follows_the_limit() -> None:
    # B arrives at 60 and reads A's planned end: its limit (180), not 5000.
    jobs = [Job(1, 0.0, 500.0, 1, 5000.0), Job(2, 60.0, 10.0, 1, 10.0)]
    seen = {}

    def decide(view: View) -> list[Decision]:
        if view.now == 60.0:
            seen["a"] = view.running[0]
        return speculative(view)

    run(jobs, 2, decide)
    assert seen["a"].expected_end == 180.0 and seen["a"].limit == 180.0


def test_a_limit_that_kills() -> None:
    # A start's own limit with on_limit="kill" ends the job there.
    jobs = [Job(1, 0.0, 500.0, 1, 5000.0)]
    policy, result = run(jobs, 1, lambda v: [Start(j, limit=60.0) for j in v.queue])
    a = row(result, 1)
    assert (a["end"], a["run"], a["outcome"], a["attempts"]) == (60.0, 60.0, "killed_at_limit", 1)
    at60 = policy.at(60.0)[0]
    assert [j.id for j in at60.ended] == [1] and [j.id for j in at60.killed] == [1]


def test_the_default_limit_is_the_estimate_unless_run_times_are_kept() -> None:
    jobs = [Job(1, 0.0, 500.0, 1, 100.0)]
    _, killed = run(jobs, 1, lambda v: [Start(j) for j in v.queue])
    _, kept = run(jobs, 1, lambda v: [Start(j) for j in v.queue], kill_at_estimate=False)
    assert (row(killed, 1)["end"], row(killed, 1)["outcome"]) == (100.0, "killed_at_limit")
    assert (row(kept, 1)["end"], row(kept, 1)["outcome"]) == (500.0, "completed")


@pytest.mark.parametrize("limit", [-1.0, float("nan")])
def test_a_negative_limit_is_refused(limit: float) -> None:
    from schedsim.model.policy import PolicyError

    jobs = [Job(1, 0.0, 10.0, 1, 10.0)]
    with pytest.raises(PolicyError, match="limit of job 1"):
        run(jobs, 1, lambda v: [Start(j, limit=limit) for j in v.queue])


class _Run:
    """What the queue reads of a job's run: its submit time, id and snapshot."""

    def __init__(self, jid: int, submit: float) -> None:
        self.id, self.submit = jid, submit
        self.view = None

    def snapshot(self) -> tuple[int, float]:
        return (self.id, self.submit)


@pytest.mark.parametrize(
    "joined",
    [
        [(1, 0.0), (2, 5.0), (5, 9.0), (3, 5.0)],  # a requeued job, back among later ones
        [(1, 0.0), (2, 5.0), (5, 9.0), (0, 0.0)],  # before every other
        [(1, 0.0), (2, 5.0), (5, 9.0), (7, 9.0)],  # already in its place
        [(4, 5.0), (3, 5.0), (6, 1.0), (1, 0.0)],  # ties out of id order, and worse
    ],
)
def test_the_queue_is_put_back_in_submit_order_then_id(joined) -> None:
    from schedsim.model.scheduler import _Pool

    queue = _Pool()
    for jid, submit in joined:  # each one put in its place, as a requeue is
        queue.insert(_Run(jid, submit))
    expected = [jid for jid, _ in sorted(joined, key=lambda p: (p[1], p[0]))]
    assert list(queue.runs) == expected
    assert [v[0] for v in queue.snapshot()] == expected  # the snapshots in the same order
