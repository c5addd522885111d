"""Policies on hand-built views, without a simulation: FCFS, EASY, conservative, CREASY, PFCFS.

Each case builds the snapshots a pass would show (`JobView.of`, `View.of`)
and checks, worked by hand from the papers' rules, what the policy decides.
The preemptive families of seed 000 (SS, TSS, IS) have theirs beside their
reference implementation's tests.
"""

from __future__ import annotations

import pytest

from schedsim.model.cluster import Allocation
from schedsim.model.policy import Resume, Start, Suspend, WakeAt
from schedsim.model.view import JobView, Outcome, State, View
from schedsim.policies.backfilling import EASY, Conservative
from schedsim.policies.creasy.policy import CREASY
from schedsim.policies.fcfs import FCFS
from schedsim.policies.gang import PreemptiveFCFS
from schedsim.workloads.job import Job


def queued(jid: int, size: int, estimate: float, submit: float = 0.0) -> JobView:
    return JobView.of(Job(jid, submit, estimate, size, estimate))


def running(jid: int, nodes: list[int], start: float, estimate: float) -> JobView:
    job = Job(jid, 0.0, estimate, len(nodes), estimate)
    return JobView.of(job, State.RUNNING, allocation=Allocation.on(nodes), first_start=start)


def ended(job: JobView, at: float) -> JobView:
    return job._replace(state=State.DONE, end=at, outcome=Outcome.COMPLETED, allocation=None)


def started(decisions: list) -> list[int]:
    return [d.job.id for d in decisions if isinstance(d, Start)]


def test_fcfs_starts_in_order_and_stops_at_the_first_that_does_not_fit() -> None:
    view = View.of(0.0, 4, queue=[queued(1, 2, 10), queued(2, 1, 10), queued(3, 4, 10),
                                  queued(4, 1, 10)])  # fmt: skip
    assert started(FCFS().schedule(view)) == [1, 2]
    # Nothing free: nothing starts, even what would fit later.
    busy = View.of(0.0, 4, running=[running(9, [0, 1, 2], 0, 100)], queue=[queued(1, 2, 10)])
    assert FCFS().schedule(busy) == []


def test_easy_reserves_for_the_head_and_backfills_around_it() -> None:
    # 10 nodes; R holds 6 until 100, 4 are free. H (8 nodes) cannot start: shadow
    # time 100, when 10 are free, 2 of them extra. J1 (3 nodes, 90 s) ends by 100:
    # it starts. J2 (1 node, 500 s) does not end by 100 but fits the 2 extra: it
    # starts. Then no node is free (4 - 3 - 1): J3 and J4 wait.
    r = running(9, [0, 1, 2, 3, 4, 5], 0.0, 100.0)
    queue = [queued(1, 8, 50), queued(2, 3, 90), queued(3, 1, 500), queued(4, 1, 10)]
    policy = EASY()
    decisions = policy.schedule(View.of(0.0, 10, running=[r], queue=queue))
    assert started(decisions) == [2, 3]
    assert policy.reservation is not None
    head, when = policy.reservation
    assert (head.id, when) == (1, 100.0)


def test_easy_does_not_backfill_past_the_shadow_with_no_extra_cores() -> None:
    # As above but H needs all 10: no extra cores; J (1 node, 500 s) would still
    # hold its node at 100: it waits, while a 50 s job may go.
    r = running(9, [0, 1, 2, 3, 4, 5], 0.0, 100.0)
    queue = [queued(1, 10, 50), queued(2, 1, 500), queued(3, 1, 50)]
    assert started(EASY().schedule(View.of(0.0, 10, running=[r], queue=queue))) == [3]


def test_conservative_reserves_for_every_job_and_compresses_on_an_early_end() -> None:
    # 10 nodes. Conservative plans as jobs come (it knows the jobs it started):
    # R (6 nodes, estimate 100) arrives at 0 and starts. At 10, A (8 nodes, 50 s)
    # is anchored at 100, when R is expected to end; B (2 nodes, 30 s) fits now
    # and ends before A: it starts at once.
    policy = Conservative()
    r_queued = queued(9, 6, 100.0)
    assert started(policy.schedule(View.of(0.0, 10, queue=[r_queued]))) == [9]
    r = running(9, [0, 1, 2, 3, 4, 5], 0.0, 100.0)
    a, b = queued(1, 8, 50, submit=10.0), queued(2, 2, 30, submit=10.0)
    second = policy.schedule(View.of(10.0, 10, running=[r], queue=[a, b]))
    assert started(second) == [2] and [d.time for d in second if isinstance(d, WakeAt)] == [100.0]
    assert policy.reservations == {1: (100.0, 50.0, 8)}
    # B ends at 40 as planned: nothing moves.
    b_run = running(2, [6, 7], 10.0, 30.0)
    third = policy.schedule(View.of(40.0, 10, running=[r], queue=[a], ended=[ended(b_run, 40.0)]))
    assert started(third) == [] and policy.reservations == {1: (100.0, 50.0, 8)}
    # R ends at 60, 40 s early: the schedule is compressed and A starts now.
    fourth = policy.schedule(View.of(60.0, 10, queue=[a], ended=[ended(r, 60.0)]))
    assert started(fourth) == [1] and policy.reservations == {}


def test_creasy_puts_the_critical_short_job_first() -> None:
    # Seed 002, Equation 2 with alpha 6000, at 600 s: L (est 100 min, waited 10 min):
    # rt 110 min, 6000 * 0.04 / 6.5^2 + 10 = 15.7; S (est 1 min, waited 9 min): rt 10,
    # 6000 * 0.04 / 1.5^2 + 9 = 115.7. S starts; L is reserved at S's end, 660.
    long_, short = queued(1, 4, 6000.0, submit=0.0), queued(2, 4, 60.0, submit=60.0)
    policy = CREASY(alpha=6000.0)
    view = View.of(600.0, 4, queue=[long_, short])
    assert [j.id for j in policy.ordered(view.queue, 600.0)] == [2, 1]
    assert started(policy.schedule(view)) == [2]
    assert policy.reservation is not None and policy.reservation[1] == 660.0
    # At alpha 0 it is EASY: the longest waiting first.
    assert started(CREASY(alpha=0.0).schedule(view)) == [1]


def test_pfcfs_a_wide_job_waits_then_preempts_then_swaps_back() -> None:
    # Seed 004, Table 1, on 10 nodes. W (6 nodes) is wide (> 5). R1 (5 nodes) and
    # R2 (3) run. t=0: 8 in use >= 6 (step C): W waits. t=100: R2 ended, 5 in use:
    # W's wait starts, a timer for 700 (step D, 10 min). t=700: 5 free < 6: W
    # preempts the widest running job, R1, and starts on its nodes and one free
    # node (F); its quantum ends at 1300. t=1300: W is switched out and R1 back in (G).
    policy = PreemptiveFCFS(wait=600.0, quantum=600.0)
    w = queued(1, 6, 5000.0)
    r1 = running(2, [0, 1, 2, 3, 4], 0.0, 10_000.0)
    r2 = running(3, [5, 6, 7], 0.0, 100.0)
    assert policy.schedule(View.of(0.0, 10, running=[r1, r2], queue=[w])) == []
    second = policy.schedule(View.of(100.0, 10, running=[r1], queue=[w], ended=[ended(r2, 100.0)]))
    assert second == [WakeAt(700.0)]
    third = policy.schedule(View.of(700.0, 10, running=[r1], queue=[w]))
    assert [type(d).__name__ for d in third] == ["Suspend", "Start", "WakeAt"]
    assert third[0] == Suspend(r1) and third[2] == WakeAt(1300.0)
    assert third[1].allocation.nodes.tolist() == [0, 1, 2, 3, 4, 5]
    # The next pass reads the jobs as they are then: W running, R1 suspended.
    w_run = JobView.of(w.job, State.RUNNING, allocation=Allocation.on([0, 1, 2, 3, 4, 5]),
                       first_start=700.0)  # fmt: skip
    r1_off = r1._replace(state=State.SUSPENDED, allocation=None, suspensions=1)
    fourth = policy.schedule(View.of(1300.0, 10, running=[w_run], suspended=[r1_off]))
    assert fourth[:2] == [Suspend(w_run), Resume(r1_off)]
    assert fourth[2] == WakeAt(1900.0)


def test_a_view_built_by_hand_checks_its_allocations() -> None:
    a = running(1, [0, 1], 0.0, 10.0)
    b = running(2, [1, 2], 0.0, 10.0)
    with pytest.raises(ValueError, match="overlap"):
        View.of(0.0, 4, running=[a, b])
    view = View.of(0.0, 4, running=[a])
    assert view.free_cores == 2 and view.free_per_node.tolist() == [0, 0, 1, 1]
    assert view.get(1) is a and view.get(7) is None
