"""Multiple-queue backfilling (Lawson and Smirni 2002): Figure 2's rules worked by hand.

Small machines of one-core nodes, integer times. Partitions are consecutive
blocks of nodes, equal at first: with 6 nodes and ``boundaries="100"`` (two
queues: estimates under 100 s, and the rest), P1 owns nodes 0-2 and P2 nodes
3-5. Each test says how its numbers come about. ``speculation=False`` except
where speculation is tested, so that jobs with long estimates start plainly.
Every schedule is also put through `invariants.check_invariants`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedsim import Simulation
from schedsim.model.view import JobView, View
from schedsim.policies.multiqueue import (
    _ARRAYS_FROM,
    HIGH,
    LOW,
    MultiQueue,
    SingleQueue,
    parse_boundaries,
    priority_of,
)
from schedsim.policies.planning.conservative import MIN_PLAN
from schedsim.workloads.job import Job
from schedsim.workloads.transforms import with_attribute, with_priorities, with_reservations
from schedsim.workloads.workload import Workload

from invariants import check_invariants
from test_invariants import FAST, Case, cases


def job(jid: int, submit: float, run: float, size: int, estimate: float | None = None) -> Job:
    return Job(jid, float(submit), float(run), size, float(run if estimate is None else estimate))


def simulate(jobs, nodes, attrs=None, **params):
    w = Workload.from_jobs(jobs, max_procs=nodes)
    for name, values in (attrs or {}).items():
        w = with_attribute(w, name, [values.get(j.id) for j in w.jobs])
    result = Simulation(w, MultiQueue(**params), nodes=nodes, log_reservations=True).run()
    check_invariants(result, w, nodes)
    return result.jobs.set_index("id"), result


TWO = {"boundaries": "100", "speculation": False}


def test_rule_a_a_backfill_that_ends_before_its_pivot() -> None:
    # 6 nodes, P1 = 0-2, P2 = 3-5 (boundaries 100; estimates = run times).
    # Job 1 (P1, 2 nodes, 50 s) starts on 0-1, job 2 (P2, 3 nodes, 100 s) on 3-5.
    # Job 3 (P1, 6 nodes, 90 s) arrives at 1: the pivot of P1, at 100.
    # Job 4 (P1, 1 node, 60 s) arrives at 2: not P1's pivot; P1 has 1 idle node (2)
    # and it ends at 62 <= 100: rule (a), at once, on node 2.
    jobs = [job(1, 0, 50, 2), job(2, 0, 100, 3), job(3, 1, 90, 6), job(4, 2, 60, 1)]
    j, _ = simulate(jobs, 6, **TWO)
    assert (j.at[4, "start"], j.at[4, "nodes"], j.at[4, "start_rule"]) == (2.0, "2", "a")
    assert (j.at[3, "start"], j.at[3, "start_rule"]) == (100.0, "pivot")


def test_rule_b_a_backfill_that_fits_the_extra_processors() -> None:
    # Job 1 (P2, 3 nodes, 500 s) on 3-5; job 2 (P1, 2 nodes, 90 s) on 0-1. Job 3 (P1,
    # 2 nodes, 50 s) at 1: P1's pivot, at 90 (nodes 0-2 free then). Job 4 (P1, 1 node,
    # 99 s) at 2 ends at 101, after 90: not (a); but at 90 P1 has 3 idle nodes and
    # the pivot needs 2: extra_P1 = 1 >= 1, and P1 has 1 idle node now: rule (b).
    # The pivot still starts at 90 (on 0-1): the extra node was spare.
    jobs = [job(1, 0, 500, 3), job(2, 0, 90, 2), job(3, 1, 50, 2), job(4, 2, 99, 1)]
    for guard in ("all", "own"):
        j, _ = simulate(jobs, 6, guard=guard, **TWO)
        assert (j.at[4, "start"], j.at[4, "start_rule"]) == (2.0, "b")
        assert (j.at[3, "start"], j.at[3, "nodes"]) == (90.0, "0-1")


def test_rule_c_a_backfill_that_borrows_from_another_partition() -> None:
    # Job 1 (P1, 3 nodes, 80 s) on 0-2; job 2 (P2, 1 node, 500 s) on 3. Job 3 (P1,
    # 4 nodes, 50 s) at 1: P1's pivot at 80 (0-2 and one of 4-5). Job 4 (P1, 2 nodes,
    # 70 s) at 2: P1 has no idle node; it borrows P2's idle 4-5, ends at 72 <= 80,
    # delaying no pivot: rule (c). Nodes 4-5 now belong to P1 (5 nodes against 1).
    jobs = [job(1, 0, 80, 3), job(2, 0, 500, 1), job(3, 1, 50, 4), job(4, 2, 70, 2)]
    j, result = simulate(jobs, 6, **TWO)
    assert (j.at[4, "start"], j.at[4, "nodes"], j.at[4, "start_rule"]) == (2.0, "4-5", "c")
    assert j.at[3, "start"] == 80.0
    sizes = result.tables["partitions"]
    at2 = sizes[sizes["time"] == 2.0].set_index("partition")["processors"].to_dict()
    assert at2 == {1: 5, 2: 1}


def test_rule_c_refuses_a_borrow_that_would_delay_a_pivot() -> None:
    # As above, but job 4 runs 90 s: on 4-5 until 92, it would leave P1's pivot (4
    # nodes at 80) 3 nodes: refused. It waits for the pivot and starts at 130.
    jobs = [job(1, 0, 80, 3), job(2, 0, 500, 1), job(3, 1, 50, 4), job(4, 2, 90, 2)]
    j, _ = simulate(jobs, 6, **TWO)
    assert j.at[3, "start"] == 80.0 and j.at[4, "start"] == 130.0


def test_processors_change_partition_and_come_back() -> None:
    # 4 nodes, P1 = 0-1, P2 = 2-3. Job 1 (P2, 4 nodes, 500 s) borrows P1's nodes: P2
    # holds all 4. Job 2 (P1, 4 nodes, 50 s), P1's pivot, starts at 500 taking them
    # back, all 4 (P1: 4, P2: 0); then job 3 (P2, 2 nodes) borrows 2 of them at 550.
    jobs = [job(1, 0, 500, 4), job(2, 1, 50, 4), job(3, 2, 200, 2)]
    _, result = simulate(jobs, 4, **TWO)
    sizes = result.tables["partitions"].pivot(
        index="time", columns="partition", values="processors"
    )
    assert sizes.loc[0.0].tolist() == [0, 4]
    assert sizes.loc[500.0].tolist() == [4, 0]
    assert sizes.loc[550.0].tolist() == [2, 2]


def test_guard_own_lets_rule_a_delay_another_partitions_pivot() -> None:
    # Figure 2's rule (a) names only pivot_p. Job 1 (P1, 2 nodes, 50 s) on 0-1, job 2
    # (P2, 3 nodes, 100 s) on 3-5; job 3 (P2, all 6, 200 s) at 1: P2's pivot at 100
    # (it will borrow P1's nodes); job 4 (P1, all 6, 90 s) at 2: P1's pivot, after
    # job 3, at 300. Job 5 (P1, 1 node, 99 s) at 3 fits P1's idle node 2 and ends at
    # 102 <= 300: rule (a). guard="own" starts it, and job 3 waits until 102;
    # guard="all" (default) refuses it (it would delay job 3), which starts at 100.
    jobs = [job(1, 0, 50, 2), job(2, 0, 100, 3), job(3, 1, 200, 6), job(4, 2, 90, 6),
            job(5, 3, 99, 1)]  # fmt: skip
    own, _ = simulate(jobs, 6, guard="own", **TWO)
    assert (own.at[5, "start"], own.at[5, "start_rule"], own.at[3, "start"]) == (3.0, "a", 102.0)
    every, _ = simulate(jobs, 6, **TWO)
    assert every.at[3, "start"] == 100.0 and every.at[5, "start"] == 390.0


def test_guard_own_rules_a_and_b_keep_off_a_granted_reservation() -> None:
    # Rules (a) and (b) name only pivot_p, but a granted reservation is promised
    # "immediately and irrevocably" (section 2.2): no start may take its processors.
    # 6 nodes, P1 = 0-2, P2 = 3-5. Job 1 (P1, 2 nodes, 90 s) on 0-1, job 2 (P2, 3 nodes,
    # 500 s) on 3-5; job 3 (P1, 3 nodes, 50 s) at 1: P1's pivot at 90. Job 4 asks at 1
    # for a reservation at 10 (1 node, 50 s): granted at 10, on node 2, to 60. Job 5
    # (P1, 1 node, 80 s) at 2 fits P1's idle node 2 and ends at 82 <= 90: rule (a) as
    # written, but node 2 is reserved from 10. It waits (extra_P1 = 1 + 2 - 3 = 0: not
    # (b)); the reservation starts at its grant; job 5 follows the pivot, at 140, under
    # either guard.
    jobs = [job(1, 0, 90, 2), job(2, 0, 500, 3), job(3, 1, 50, 3), job(4, 1, 50, 1),
            job(5, 2, 80, 1)]  # fmt: skip
    for guard in ("own", "all"):
        j, _ = simulate(jobs, 6, attrs={"reservation": {4: 10.0}}, guard=guard, **TWO)
        assert j.at[4, "reservation_granted"] == 10.0
        assert (j.at[4, "start"], j.at[4, "start_rule"]) == (10.0, "reservation"), guard
        assert (j.at[5, "start"], j.at[3, "start"]) == (140.0, 90.0), guard


ONE = {"boundaries": ""}  # the single queue: one partition, one pivot


def test_guard_own_extra_counts_a_trial_started_this_pass() -> None:
    # One queue, 6 nodes, trials of 30 s for estimates over 50 s. Job 1 (3 nodes, 20 s)
    # starts at 0. At 1: job 2 (4 nodes, 10 s), the pivot at 20; job 3 (1 node, estimate
    # 1000 s, runs 100 s) starts its trial on an idle node to 31 (it fits around the
    # pivot: 6 - 4 - 1 = 1 free over [20, 30)); job 4 (2 nodes, 45 s) would end at 46.
    # extra = 2 idle + 3 freed by job 1 at 20 - 4 = 1 (the trial holds its node past
    # 20): not rule (b), and the plan has 1 node over [20, 30) for it: it waits, under
    # either guard, until the pivot ends at 30. (extra counted before the trial took its
    # node, 2, started it at 1, and the pivot waited for it.)
    jobs = [job(1, 0, 20, 3), job(2, 1, 10, 4), job(3, 1, 100, 1, 1000), job(4, 1, 45, 2)]
    for guard in ("own", "all"):
        j, _ = simulate(jobs, 6, guard=guard, speculate_above=50.0, speculative_limit=30.0,
                        **ONE)  # fmt: skip
        assert j.at[3, "start"] == 1.0, guard  # (its trial; killed at 31, queued again)
        assert (j.at[2, "start"], j.at[4, "start"]) == (20.0, 30.0), guard


def test_guard_own_rule_b_does_not_push_its_pivot_past_a_granted_slot() -> None:
    # One queue, 6 nodes. Job 1 (3 nodes, 20 s) starts at 0. At 1: job 2 asks for a
    # reservation at 25 (1 node, 10 s), granted at 25; job 3 (4 nodes, 10 s), the pivot
    # at 20 (at 25 the slot leaves it 6 - 1 = 5 nodes); job 4 (2 nodes, 45 s). extra =
    # 3 idle + 3 freed at 20 - 4 = 2 counts the pivot's start time alone: rule (b) as
    # written would start job 4, but over [25, 30) the pivot, the slot and job 4 need
    # 4 + 1 + 2 > 6, and a granted slot never moves: the pivot would wait. Job 4 waits,
    # under either guard, until the pivot ends at 30.
    jobs = [job(1, 0, 20, 3), job(2, 1, 10, 1), job(3, 1, 10, 4), job(4, 1, 45, 2)]
    for guard in ("own", "all"):
        j, _ = simulate(jobs, 6, attrs={"reservation": {2: 25.0}}, guard=guard,
                        speculation=False, **ONE)  # fmt: skip
        assert (j.at[2, "start"], j.at[2, "start_rule"]) == (25.0, "reservation"), guard
        assert (j.at[3, "start"], j.at[4, "start"]) == (20.0, 30.0), guard


THREE = {"boundaries": "100,1000", "speculation": False}


def test_guard_return_lends_only_what_the_lenders_pivot_does_not_need() -> None:
    # 6 nodes, three partitions (boundaries 100 and 1000): P1 = 0-1, P2 = 2-3, P3 = 4-5.
    # Job 1 (P1, 4 nodes, 50 s) starts on 0-3, borrowing P2's 2-3. Job 2 (P3, 4 nodes,
    # 2000 s) at 1: P3's pivot at 50. Job 3 (P1, all 6, 90 s) at 1.5: P1's pivot, at
    # 2050. Job 4 (P1, 2 nodes, 90 s) at 2: only P3's 4-5 are idle; it would end at
    # 92, after P3's pivot starts (50). guard="all": it fits the machine's plan (at 50
    # job 2 finds 0-3 free), so it starts at 2 on 4-5 and P3's nodes go to P1 for good.
    # guard="return": P3 may lend its idle nodes only to a job that gives them back by
    # 50, or extra_P3 of them, its nodes free at 50 beyond its pivot's 4: 2 + 0 - 4 < 0:
    # none. Job 4 waits; at 50 job 2 takes P3's 4-5 and P1's 0-1 (job 1 gave 2-3 back
    # to P2), and job 4 borrows P2's 2-3 (P2 has no pivot): rule (c), to 140.
    jobs = [job(1, 0, 50, 4), job(2, 1, 2000, 4), job(3, 1.5, 90, 6), job(4, 2, 90, 2)]
    every, every_run = simulate(jobs, 6, **THREE)
    assert (every.at[4, "start"], every.at[4, "nodes"], every.at[4, "start_rule"]) == (
        2.0, "4-5", "c")  # fmt: skip
    back, back_run = simulate(jobs, 6, guard="return", **THREE)
    assert (back.at[4, "start"], back.at[4, "nodes"], back.at[4, "start_rule"]) == (
        50.0, "2-3", "c")  # fmt: skip
    assert back.at[2, "start"] == every.at[2, "start"] == 50.0  # no pivot delayed
    assert back.at[3, "start"] == every.at[3, "start"] == 2050.0

    def sizes(result):
        table = result.tables["partitions"]
        return table.pivot(index="time", columns="partition", values="processors")

    # Lent processors come back: P2's 2-3 when job 1 ends (50) and again when job 4
    # does (140); at the end every partition holds its first block again. Under "all"
    # they stay where the last borrower took them.
    got = sizes(back_run)
    assert got.loc[50.0].tolist() == [2, 0, 4] and got.loc[140.0].tolist() == [0, 2, 4]
    assert got.iloc[-1].tolist() == [2, 2, 2]
    assert sizes(every_run).iloc[-1].tolist() == [6, 0, 0]


def test_guard_reassign_lends_what_the_lenders_pivot_does_not_need_for_good() -> None:
    # The case above under guard="reassign": lenders keep what their pivots need (rules
    # (a) and (b) for every partition taken from, as under "return"), but a processor
    # reassigned stays with the borrower (Figure 2's "reassign necessary procs from
    # other partitions to partition p") until a pivot takes it (step 6.a.I). Job 1
    # takes P2's 2-3 for P1 for good. Job 4 may not take P3's 4-5 (extra_P3 = 2 + 0 - 4
    # < 0: none), as under "return". At 50 P3's pivot (job 2) takes its 4-5 and
    # reassigns P1's idle 0-1; job 4 then starts on P1's own 2-3 (once P2's) by rule
    # (a), to 140. At the end P1 holds 2-3, P2 nothing, P3 0-1 and 4-5.
    jobs = [job(1, 0, 50, 4), job(2, 1, 2000, 4), job(3, 1.5, 90, 6), job(4, 2, 90, 2)]
    j, result = simulate(jobs, 6, guard="reassign", **THREE)
    assert (j.at[4, "start"], j.at[4, "nodes"], j.at[4, "start_rule"]) == (50.0, "2-3", "a")
    assert (j.at[2, "start"], j.at[2, "nodes"]) == (50.0, "0-1 4-5")
    assert j.at[3, "start"] == 2050.0
    sizes = result.tables["partitions"].pivot(
        index="time", columns="partition", values="processors"
    )
    assert sizes.loc[0.0].tolist() == [4, 0, 2] and sizes.loc[50.0].tolist() == [2, 0, 4]
    assert sizes.iloc[-1].tolist() == [6, 0, 0]  # job 3, P1's pivot, took all 6 at 2050


def test_a_high_priority_arrival_displaces_a_low_priority_pivot() -> None:
    # 4 nodes, P1 = 0-1, P2 = 2-3. Job 1 (P2, 4 nodes, 500 s, high) runs to 500. Job 2
    # (P1, 4 nodes, 50 s, low) at 1 is P1's pivot; job 3 (P2, 4 nodes, 200 s, high) at
    # 2 is P2's. High before low: job 3 is planned first, at 500, and job 2, though it
    # arrived first, after it at 700. All high: arrival order, job 2 at 500, job 3 at 550.
    jobs = [job(1, 0, 500, 4), job(2, 1, 50, 4), job(3, 2, 200, 4)]
    mixed, _ = simulate(jobs, 4, attrs={"priority": {1: "high", 2: "low", 3: "high"}}, **TWO)
    assert (mixed.at[3, "start"], mixed.at[2, "start"]) == (500.0, 700.0)
    same, _ = simulate(jobs, 4, attrs={"priority": {1: "high", 2: "high", 3: "high"}}, **TWO)
    assert (same.at[2, "start"], same.at[3, "start"]) == (500.0, 550.0)


def test_a_low_priority_backfill_may_not_delay_a_high_priority_pivot() -> None:
    # One queue (boundaries ""). Job 1 (4 nodes of 4... 3 nodes, 100 s) runs; job 2
    # (high, 4 nodes, 50 s) at 1 is the pivot, at 100. Job 3 (low, 1 node, 200 s) at 2
    # fits the idle node but would hold it past 100: refused (no extra: the pivot
    # needs all 4). It starts at 150, after the pivot.
    jobs = [job(1, 0, 100, 3), job(2, 1, 50, 4), job(3, 2, 200, 1)]
    j, _ = simulate(jobs, 4, attrs={"priority": {2: "high", 3: "low"}}, boundaries="",
                    speculation=False)  # fmt: skip
    assert (j.at[2, "start"], j.at[3, "start"]) == (100.0, 150.0)


def test_a_speculative_start_killed_at_180_s_and_requeued() -> None:
    # Default boundaries (1000, 10000): estimates of 5000 s are P2 and speculated on.
    # 4 nodes. Job 1 (2 nodes, runs 400 s) starts speculatively at 0 for 180 s: killed
    # at 180 and queued; its attempt is lost (lost_run 180, 2 attempts, a "lost"
    # piece). Job 2 (2 nodes, runs 30 s: a crash) ends within its window, at 30, one
    # attempt. Job 3 (P1, 4 nodes, 100 s) at 1 waits for the speculative attempts
    # (planned to 180). At 180 job 1, back in P2's queue, arrived earlier than job 3:
    # as P2's pivot it is planned first and starts at once, to 580; job 3 follows.
    jobs = [job(1, 0, 400, 2, 5000), job(2, 0, 30, 2, 5000), job(3, 1, 100, 4)]
    j, result = simulate(jobs, 4)
    assert (j.at[2, "start"], j.at[2, "end"], j.at[2, "attempts"]) == (0.0, 30.0, 1)
    assert j.at[2, "start_rule"] == "speculative"
    assert (j.at[1, "attempts"], j.at[1, "lost_run"], j.at[1, "end"]) == (2, 180.0, 580.0)
    pieces = result.pieces[result.pieces["job"] == 1]
    assert pieces[["attempt", "kind", "start", "end"]].values.tolist() == [
        [1, "lost", 0.0, 180.0], [2, "run", 180.0, 580.0],
    ]  # fmt: skip
    assert j.at[3, "start"] == 580.0


def test_an_idle_trial_starts_on_cores_a_pivot_was_planned_on() -> None:
    # One queue, 4 nodes. Job 1 (2 nodes, 100 s) runs to 100. Job 2 (4 nodes, 500 s)
    # arrives at 1: the pivot, planned at 100. Job 3 (2 nodes, estimate 5000 s, runs
    # 150 s) arrives at 2, due a trial of 180 s. trial="waiting": 2 cores are idle
    # now but the pivot counts on them at 100: the trial waits for the pivot, to 600,
    # and its 150 s end at 750. trial="idle": the cores are idle (no running job
    # needs them), so the trial starts at 2 and the pivot moves to 152, when it ends.
    jobs = [job(1, 0, 100, 2), job(2, 1, 500, 4), job(3, 2, 150, 2, 5000)]
    waiting, _ = simulate(jobs, 4, boundaries="")
    assert (waiting.at[3, "start"], waiting.at[3, "end"], waiting.at[2, "start"]) == (
        600.0, 750.0, 100.0)  # fmt: skip
    idle, _ = simulate(jobs, 4, boundaries="", trial="idle")
    assert (idle.at[3, "start"], idle.at[3, "start_rule"], idle.at[3, "end"]) == (
        2.0, "speculative", 152.0)  # fmt: skip
    assert idle.at[2, "start"] == 152.0


def test_a_scheduled_trial_keeps_its_slot_where_a_waiting_one_waits() -> None:
    # One queue, 4 nodes. Job 1 (4 nodes, 100 s) runs to 100. Job 2 (2 nodes,
    # estimate 5000 s, crashes after 100 s) arrives at 1: a trial of 180 s is due.
    # Jobs 3 and 4 (4 nodes, 500 s each) arrive at 2 and 3.
    # trial="waiting": the trial is never a pivot; at 100 pivot 3 takes the whole
    # machine, at 600 pivot 4: the trial fits only at 1100 and the crash ends at 1200.
    # trial="scheduled": at 1 the trial is given the slot 100 (the earliest its 180 s
    # fit) and kept: job 3, arriving at 2, is planned around it (280), the trial starts
    # at 100 and the crash ends at 200; job 3 then starts at 200 (its pivot replanned
    # when the trial ended early), job 4 at 700.
    jobs = [job(1, 0, 100, 4), job(2, 1, 100, 2, 5000), job(3, 2, 500, 4), job(4, 3, 500, 4)]
    waiting, _ = simulate(jobs, 4, boundaries="")
    assert waiting["start"].tolist() == [0.0, 1100.0, 100.0, 600.0]
    assert "trial_slot" not in waiting
    j, result = simulate(jobs, 4, boundaries="", trial="scheduled")
    assert j["start"].tolist() == [0.0, 100.0, 200.0, 700.0]
    assert (j.at[2, "end"], j.at[2, "start_rule"], j.at[2, "attempts"]) == (
        200.0, "speculative", 1,
    )  # fmt: skip
    assert j.at[2, "trial_slot"] == 100.0 and j["trial_slot"].notna().sum() == 1
    # Promised as a trial (never as a pivot) until it starts; job 3 planned after it.
    kept = result.reservations
    assert kept.loc[
        kept["job"] == 2, ["kind", "start", "end"]
    ].drop_duplicates().values.tolist() == [["trial", 100.0, 280.0]]
    assert kept.loc[(kept["job"] == 3) & (kept["time"] == 2.0), "start"].tolist() == [280.0]


def test_a_scheduled_trial_that_runs_out_queues_after_its_slot() -> None:
    # One queue, 4 nodes, trial="scheduled". Job 1 (2 nodes, 400 s, estimate 5000)
    # has its trial slot at 0, at once; killed at 180 and queued (2 attempts, 180 s
    # lost). Job 2 (4 nodes, 100 s) at 1 is planned around the slot, at 180; job 1
    # arrived first and is planned first at 180 (to 5180 by its estimate): job 2
    # waits for it, to 580.
    jobs = [job(1, 0, 400, 2, 5000), job(2, 1, 100, 4)]
    j, result = simulate(jobs, 4, boundaries="", trial="scheduled")
    assert (j.at[1, "attempts"], j.at[1, "lost_run"], j.at[1, "trial_slot"]) == (2, 180.0, 0.0)
    pieces = result.pieces[result.pieces["job"] == 1]
    assert pieces[["attempt", "kind", "start", "end"]].values.tolist() == [
        [1, "lost", 0.0, 180.0], [2, "run", 180.0, 580.0],
    ]  # fmt: skip
    assert j.at[2, "start"] == 580.0


def test_a_reserved_trial_is_planned_before_the_pivots_a_scheduled_one_after() -> None:
    # One queue, 4 nodes. Job 1 (4 nodes, 100 s) runs to 100. Job 2 (4 nodes, 500 s)
    # arrives at 1: the pivot, at 100. Job 3 (2 nodes, estimate 5000 s, crashes after
    # 100 s) arrives at 2: a trial of 180 s is due.
    # trial="scheduled": the slot is planned after the pivot, around it: 600 (job 2
    # runs 100-600), and the crash ends at 700.
    # trial="reserved": the slot is granted as an advance reservation is, against the
    # running jobs and the other fixed slots only: 100. The pivot is then planned
    # around it (280); the trial starts at 100, the crash ends at 200 and job 2 (its
    # pivot replanned when the trial ended early) starts at 200.
    jobs = [job(1, 0, 100, 4), job(2, 1, 500, 4), job(3, 2, 100, 2, 5000)]
    scheduled, _ = simulate(jobs, 4, boundaries="", trial="scheduled")
    assert scheduled["start"].tolist() == [0.0, 100.0, 600.0]
    assert scheduled.at[3, "trial_slot"] == 600.0
    j, result = simulate(jobs, 4, boundaries="", trial="reserved")
    assert j["start"].tolist() == [0.0, 200.0, 100.0]
    assert (j.at[3, "end"], j.at[3, "start_rule"], j.at[3, "attempts"]) == (
        200.0, "speculative", 1,
    )  # fmt: skip
    assert j.at[3, "trial_slot"] == 100.0 and j["trial_slot"].notna().sum() == 1
    # Promised as a trial until it starts; the pivot planned after it from then on.
    kept = result.reservations
    assert kept.loc[
        kept["job"] == 3, ["kind", "start", "end"]
    ].drop_duplicates().values.tolist() == [["trial", 100.0, 280.0]]
    assert kept.loc[(kept["job"] == 2) & (kept["time"] == 2.0), "start"].tolist() == [280.0]


def test_speculation_can_be_turned_off() -> None:
    jobs = [job(1, 0, 400, 2, 5000)]
    j, _ = simulate(jobs, 4, speculation=False)
    assert (j.at[1, "attempts"], j.at[1, "lost_run"], j.at[1, "start_rule"]) == (1, 0.0, "pivot")


def test_reservations_granted_and_honoured_to_the_second() -> None:
    # One queue, 4 nodes. Job 1 (4 nodes, 100 s) runs to 100. Job 2 (2 nodes, 30 s)
    # asks at 1 to start at 50: the machine is committed until 100, so it is granted
    # 100 (later than asked: a missed reservation) and starts exactly then. Job 3 (4
    # nodes, 50 s) asks at 2 for 300: granted and started at 300. Job 4 (4 nodes,
    # 250 s), queued at 10, cannot fit before 300 (from 130 it would run into job 3's
    # reservation): it starts at 350.
    jobs = [job(1, 0, 100, 4), job(2, 1, 30, 2), job(3, 2, 50, 4), job(4, 10, 250, 4)]
    j, result = simulate(jobs, 4, attrs={"reservation": {2: 50.0, 3: 300.0}}, speculation=False)
    assert j.loc[[2, 3], "reservation_granted"].tolist() == [100.0, 300.0]
    assert j.loc[[2, 3], "start"].tolist() == [100.0, 300.0]
    assert j.loc[[2, 3], "start_rule"].tolist() == ["reservation", "reservation"]
    assert j.at[4, "start"] == 350.0
    # Promised at every pass until started: job 3's advance reservation at 300.
    kept = result.reservations
    assert set(kept.loc[kept["job"] == 3, "start"]) == {300.0}
    assert set(kept.loc[kept["job"] == 3, "kind"]) == {"advance"}


def test_the_single_queue_baseline_is_one_partition() -> None:
    assert SingleQueue().partitions == 1 and MultiQueue().partitions == 3
    assert "boundaries" not in SingleQueue().params()
    assert MultiQueue().partition_of(999.0) == 0 and MultiQueue().partition_of(1000.0) == 1
    assert MultiQueue().partition_of(10_000.0) == 2


def test_parameters_are_checked() -> None:
    assert parse_boundaries("1000, 10000") == (1000.0, 10000.0) and parse_boundaries("") == ()
    for bad in ("10000,1000", "x", "-5"):
        with pytest.raises(ValueError, match="boundaries"):
            MultiQueue(boundaries=bad)
    with pytest.raises(ValueError, match="speculative_limit"):
        MultiQueue(speculative_limit=0)
    with pytest.raises(ValueError, match="guard must be 'all', 'own', 'return' or 'reassign'"):
        MultiQueue(guard="lend")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="trial must be 'waiting', 'idle', 'scheduled' or"):
        SingleQueue(trial="fixed")  # type: ignore[arg-type]
    assert SingleQueue(trial="scheduled").params()["trial"] == "scheduled"
    assert MultiQueue(trial="reserved").params()["trial"] == "reserved"


def test_the_trial_reading_keeps_the_published_run_ids() -> None:
    # trial came after run ids were published: its default keeps them; "scheduled"
    # is another schedule, another id.
    from schedsim.app.study import RunConfig

    values = {"workload": "ctc", "load_factor": 1.0, "policy": "singlequeue", "seed": 4251232594,
              "params": {"speculation": True, "speculate_above": 1000.0,
                         "speculative_limit": 180.0, "guard": "all"}}  # fmt: skip
    assert RunConfig(**values).run_id() == "5d37c25c79ef530c"  # tests/test_run_identity.py
    waiting = {**values, "params": {**values["params"], "trial": "waiting"}}
    assert RunConfig(**waiting).run_id() == "5d37c25c79ef530c"
    scheduled = {**values, "params": {**values["params"], "trial": "scheduled"}}
    assert RunConfig(**scheduled).run_id() != "5d37c25c79ef530c"


def test_priorities_from_the_attribute() -> None:
    def view(value):
        attrs = {} if value is None else {"priority": value}
        return JobView.of(Job(1, 0.0, 1.0, 1, 1.0, attrs=attrs))

    assert [priority_of(view(v)) for v in (None, "high", 1, True)] == [HIGH] * 4
    assert [priority_of(view(v)) for v in ("low", 0, False)] == [LOW] * 3


def test_the_transforms_draw_from_their_own_streams() -> None:
    jobs = [job(i, i, 10, 1) for i in range(1, 2001)]
    w = Workload.from_jobs(jobs, max_procs=4)
    marked = with_priorities(w, 0.75, seed=3)
    share = sum(j.attrs["priority"] == "high" for j in marked) / len(marked)
    assert abs(share - 0.75) < 0.03
    assert [j.attrs for j in with_priorities(w, 0.75, seed=3)] == [j.attrs for j in marked]
    asked = with_reservations(w, 0.05, seed=3, max_lead=600)
    times = [
        (j.submit, j.attrs["reservation"])
        for j in asked
        if j.attrs["reservation"] == j.attrs["reservation"]
    ]
    assert 60 < len(times) < 140 and all(0 <= r - s <= 600 for s, r in times)


@settings(FAST, max_examples=40)
@given(cases(), st.floats(0, 1), st.floats(0, 0.5), st.sampled_from(["multiqueue", "singlequeue"]))
def test_invariants_with_priorities_and_reservations(
    case: Case, high: float, share: float, name: str
) -> None:
    w = with_reservations(with_priorities(case.workload, high, seed=1), share, seed=1, max_lead=300)
    result = Simulation(w, name, nodes=case.cores, params={"boundaries": "100,500"}
                           if name == "multiqueue" else {}).run()  # fmt: skip
    # A grant behind a zero-estimate job's instant (planned for MIN_PLAN) is off the
    # integers: then times are compared up to the clock's rounding.
    check_invariants(result, w, case.cores, exact=bool((result.jobs["start"] % 1 == 0).all()))
    jobs = result.jobs
    if "reservation_granted" in jobs:
        asked = jobs[jobs["reservation"].notna()]
        # Granted at or after the request, and started exactly then.
        assert (asked["reservation_granted"] >= asked["reservation"]).all()
        assert (asked["start"] == asked["reservation_granted"]).all()


@settings(FAST, max_examples=40)
@given(
    cases(),
    st.floats(0, 1),
    st.floats(0, 0.3),
    st.sampled_from(["all", "own", "return", "reassign"]),
    st.sampled_from(["waiting", "idle", "reserved"]),
)
def test_invariants_under_every_guard(
    case: Case, high: float, share: float, guard: str, trial: str
) -> None:
    # Every reading of how partitions lend (guard), with priorities, reservations and
    # trials of 30 s: a valid schedule, every reservation at its grant (also under
    # "own", whose rules (a) and (b) look at pivot_p alone but keep off every granted
    # slot). Under "return" a start by rule (a) or (b) runs on
    # its own partition's nodes only (nodes never change owner), and once every job
    # has left every partition holds its first block.
    w = with_reservations(with_priorities(case.workload, high, seed=1), share, seed=1, max_lead=300)
    policy = MultiQueue(boundaries="100,500", speculate_above=50.0, speculative_limit=30.0,
                        guard=guard, trial=trial)  # type: ignore[arg-type]  # fmt: skip
    result = Simulation(w, policy, nodes=case.cores).run()
    check_invariants(result, w, case.cores, exact=bool((result.jobs["start"] % 1 == 0).all()))
    jobs = result.jobs
    if "reservation_granted" in jobs:
        asked = jobs[jobs["reservation"].notna()]
        assert (asked["start"] == asked["reservation_granted"]).all()
    if guard != "return":
        return
    blocks = policy._initial_owners(case.cores)
    own = jobs[jobs["start_rule"].isin(["a", "b"])]
    for nodes, queue in zip(own["nodes"], own["queue_class"], strict=True):
        taken = [n for part in str(nodes).split() for n in _span(part)]
        assert (blocks[taken] == queue - 1).all(), (nodes, queue)
    sizes = result.tables["partitions"]  # (in time order; a time may be recorded twice)
    last = sizes.groupby("partition")["processors"].last()
    assert last.tolist() == np.bincount(blocks, minlength=3).tolist()
    assert not policy._loans and not policy._lent.any()


@settings(FAST, max_examples=40)
@given(cases(), st.floats(0, 0.3), st.sampled_from(["own", "return", "reassign"]),
       st.sampled_from(["waiting", "idle", "scheduled", "reserved"]))  # fmt: skip
def test_one_partition_lends_nothing_so_guards_that_lend_change_nothing(
    case: Case, share: float, guard: str, trial: str
) -> None:
    # The single queue (one partition, one pivot): rules (a) and (b), against pivot_p
    # alone ("own") or for the lenders, are EASY's own test against the one pivot,
    # which the plan already makes, so no guard changes a start (the study pairs each
    # reading's multiple queues with its single queue: this keeps the baseline the same).
    w = with_reservations(case.workload, share, seed=1, max_lead=300)
    params = {"speculate_above": 50.0, "speculative_limit": 30.0, "trial": trial}
    every = Simulation(w, SingleQueue(**params), nodes=case.cores).run()  # type: ignore[arg-type]
    lends = Simulation(w, SingleQueue(guard=guard, **params), nodes=case.cores).run()  # type: ignore[arg-type]
    pd.testing.assert_frame_equal(every.jobs, lends.jobs)


def _span(part: str) -> range:
    """``"4-7"`` -> 4..7, ``"3"`` -> 3 (a job table's nodes)."""
    lo, _, hi = part.partition("-")
    return range(int(lo), int(hi or lo) + 1)


@settings(FAST, max_examples=40)
@given(
    cases(),
    st.floats(0, 1),
    st.floats(0, 0.3),
    st.sampled_from(["multiqueue", "singlequeue"]),
    st.sampled_from(["scheduled", "reserved"]),
)
def test_invariants_with_fixed_trial_slots(
    case: Case, high: float, share: float, name: str, trial: str
) -> None:
    # Trials of 30 s for estimates over 50 s (most of these jobs), with priorities and
    # advance reservations: every trial starts exactly in the slot fixed on its
    # submission (a promise no later start may break), and every reservation at its
    # grant; under either reading of when the slot is fixed (after the pivots or
    # before them, as a reservation).
    w = with_reservations(with_priorities(case.workload, high, seed=1), share, seed=1, max_lead=300)
    params = {"speculate_above": 50.0, "speculative_limit": 30.0, "trial": trial}
    if name == "multiqueue":
        params["boundaries"] = "100,500"
    result = Simulation(w, name, nodes=case.cores, params=params).run()
    check_invariants(result, w, case.cores, exact=bool((result.jobs["start"] % 1 == 0).all()))
    jobs = result.jobs.set_index("id")
    asked = {j.id for j in w if (r := j.attrs.get("reservation")) is not None and r == r}
    tried = [j.id for j in w if j.estimate > 50.0 and j.id not in asked]
    if not tried:
        return
    slot = jobs.loc[tried, "trial_slot"]
    assert slot.notna().all() and (slot >= jobs.loc[tried, "submit"]).all()
    # (``start``: a job's first start, its trial's.)
    assert (jobs.loc[tried, "start"] == slot).all(), "a trial did not start in its slot"
    assert (jobs.loc[tried, "start_rule"] != "speculative").sum() == (
        jobs.loc[tried, "attempts"] > 1
    ).sum()  # a trial that ran out started again from its queue
    if "reservation_granted" in jobs:
        asked = jobs[jobs["reservation"].notna()]
        assert (asked["start"] == asked["reservation_granted"]).all()


def test_summaries_split_by_priority(tmp_path, capsys) -> None:
    """Item 4: every summary and category table can be split by priority."""
    jobs = [Job(i, 10.0 * i, 100.0 + i, 1 + i % 3, 200.0 + i) for i in range(1, 41)]
    workload = with_priorities(Workload.from_jobs(jobs, max_procs=4), 0.75, seed=3)
    result = Simulation(workload, MultiQueue(), nodes=4).run()
    parts = result.split("priority")
    assert set(parts) == {"high", "low"}
    assert sum(len(p.jobs) for p in parts.values()) == 40
    for name, part in parts.items():
        assert (part.jobs["priority"] == name).all()
        assert part.pieces is not None and set(part.pieces["job"]) == set(part.jobs["id"])
        assert part.category_table(stat="count").to_numpy().sum() == len(part.jobs)
    table = result.summary_by("priority", warmup=4)
    assert list(table.index) == ["high", "low", "all"]
    assert table.loc["all", "jobs"] == 36 == table.loc[["high", "low"], "jobs"].sum()
    low = parts["low"].jobs
    assert table.loc["low", "jobs"] == (low["submit"] > 40.0).sum()  # trimmed as a whole
    assert table["utilization"].nunique() == 1  # the machine's, in every row
    with pytest.raises(ValueError, match="no column 'nope'"):
        result.split("nope")
    # and on the command line
    from schedsim.app.cli import main

    code = main(["run", "--first", "300", "--policy", "multiqueue", "--priorities", "0.75",
                 "--by", "priority", "--out", str(tmp_path / "o")])  # fmt: skip
    text = capsys.readouterr().out
    assert code == 0 and "priority high" in text and "priority low" in text


class _Checked(MultiQueue):
    """Checks, whenever a pass looks at the idle nodes, that the lists kept from pass
    to pass (`_IdleNodes`) are those made afresh from the view, and counts which way
    they came. ``fresh``: make them afresh at every pass (the schedule to match)."""

    def __init__(self, fresh: bool = False, **params) -> None:
        super().__init__(**params)
        self.fresh = fresh
        self.ways = {"kept": 0, "made": 0}

    def schedule(self, view):
        if self.fresh:
            self._idle_nodes = None
        return super().schedule(view)

    def _idle_cores(self, view):
        before = self._idle_nodes
        kept, idle = super()._idle_cores(view)
        if self.partitions > 1 and view.cores_per_node == 1:
            self.ways["kept" if kept is before else "made"] += 1
            free = np.flatnonzero(view.free_per_node)
            owner = self._owner[free]
            assert kept.lists == [free[owner == q].tolist() for q in range(self.partitions)]
            assert idle == [len(nodes) for nodes in kept.lists]
        return kept, idle


@settings(FAST, max_examples=60)
@given(
    cases(),
    st.sampled_from([0.0, 50.0, 1000.0]),
    st.sampled_from(["all", "own", "return", "reassign"]),
)
def test_the_idle_nodes_kept_from_pass_to_pass_are_those_of_the_view(
    case: Case, speculate_above: float, guard: str
) -> None:
    # Speculative starts of 30 s (most jobs run longer: requeued) free nodes too; under
    # every guard (the nodes a job leaves are all its partition's, but under "return").
    params = {"boundaries": "100,500", "speculate_above": speculate_above,
              "speculative_limit": 30.0, "guard": guard}  # fmt: skip
    kept = _Checked(**params)
    fresh = _Checked(fresh=True, **params)
    a = Simulation(case.workload, kept, nodes=case.cores).run()
    b = Simulation(case.workload, fresh, nodes=case.cores).run()
    pd.testing.assert_frame_equal(a.jobs, b.jobs)
    assert fresh.ways["kept"] == 0


def test_the_idle_nodes_are_kept_from_pass_to_pass_on_a_trace() -> None:
    from schedsim.workloads import catalog
    from schedsim.workloads.transforms import first

    w = first(catalog.load("kth"), 3000)
    policy = _Checked()
    result = Simulation(w, policy).run()
    assert (result.jobs["start_rule"] == "speculative").sum() > 100
    # Made once (the first start), kept ever after: every leaving job was started by it.
    assert policy.ways["made"] == 1 and policy.ways["kept"] > 1000


class _LanesChecked(MultiQueue):
    """Checks, at every pass that plans, that the lanes hold the view's queue: each
    queue's jobs and all of them in Figure 2's order (as the walk over the whole queue
    they replace found them), those waiting for their trial aside, the queue's own
    snapshots, the sizes there (aside too), the arrays of sizes and spans the sift
    reads; counts the passes that made them afresh."""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        self.view: View | None = None
        self.checked = 0
        self.rebuilt = 0

    def schedule(self, view: View) -> list:
        lanes, self.view = self._lanes, view
        out = super().schedule(view)
        self.rebuilt += self._lanes is not lanes
        self.view = None
        return out

    def _not_waiting(self) -> set[int]:
        if self.view is not None:  # (in a pass, not in `promises`)
            queue, lanes = self.view.queue, self._lanes
            assert sorted(lanes.jobs) == sorted(j.id for j in queue)
            assert all(lanes.jobs[j.id] is j for j in queue)
            # Those waiting for their trial are aside, in no queue's order.
            assert lanes.aside == set(self._speculating)
            assert all(self._speculating[i] is lanes.jobs[i] for i in lanes.aside)
            # Figure 2's order: high priority first, each priority in arrival order.
            waiting = [j for j in queue if j.id not in lanes.aside]
            in_order = sorted(waiting, key=lambda j: self._prio[j.id])  # (stable)
            for p, lane in enumerate(lanes.by_class):
                assert [k[2] for k in lane] == [j.id for j in in_order if self._class[j.id] == p]
            assert lanes.sizes == sorted({j.size for j in queue})
            assert [j.id for j in lanes.queue] == [j.id for j in in_order]
            n = len(in_order)
            if lanes.size is not None and lanes.est is not None:  # (kept while long)
                assert n >= _ARRAYS_FROM
                assert lanes.size[:n].tolist() == [j.size for j in in_order]
                assert lanes.est[:n].tolist() == [max(j.estimate, MIN_PLAN) for j in in_order]
            self.checked += 1
        return super()._not_waiting()


@settings(FAST, max_examples=40)
@given(
    cases(), st.floats(0, 1), st.floats(0, 0.3), st.sampled_from(["waiting", "idle", "reserved"])
)
def test_the_lanes_kept_from_pass_to_pass_are_the_views_queue(
    case: Case, high: float, share: float, trial: str
) -> None:
    # With priorities (the queues' order), reservations and trials of 30 s that run out
    # (a requeued job goes back in its place): the lanes never need making afresh.
    w = with_reservations(with_priorities(case.workload, high, seed=1), share, seed=1, max_lead=300)
    policy = _LanesChecked(boundaries="100,500", speculate_above=50.0, speculative_limit=30.0,
                           trial=trial)  # type: ignore[arg-type]  # fmt: skip
    Simulation(w, policy, nodes=case.cores).run()
    assert policy.rebuilt == 0 and (policy.checked or not len(w))


def _every_reading(test: Any) -> Any:
    """Random workloads with priorities and reservations, under every guard and trial."""
    return settings(FAST, max_examples=40)(
        given(
            cases(),
            st.floats(0, 1),
            st.floats(0, 0.3),
            st.sampled_from(["all", "own", "return", "reassign"]),
            st.sampled_from(["waiting", "idle", "scheduled", "reserved"]),
        )(test)
    )


def _reading(
    case: Case, high: float, share: float, guard: str, trial: str
) -> tuple[Any, dict[str, Any]]:
    """The workload and MultiQueue parameters `_every_reading` draws."""
    w = with_reservations(with_priorities(case.workload, high, seed=1), share, seed=1, max_lead=300)
    return w, {"boundaries": "100,500", "speculate_above": 50.0, "speculative_limit": 30.0,
               "guard": guard, "trial": trial}  # fmt: skip


@_every_reading
def test_a_pass_that_sifts_the_queue_makes_the_schedule_of_one_that_walks_it(
    case: Case, high: float, share: float, guard: str, trial: str
) -> None:
    # Every queue sifted (`_SIFT_FROM` 0) against every queue walked whole: the jobs the
    # sift leaves out are those the walk passes over, under every guard and trial.
    from schedsim.policies import multiqueue

    w, params = _reading(case, high, share, guard, trial)
    tables = []
    for sift_from in (0, 10**9):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(multiqueue, "_SIFT_FROM", sift_from)
            result = Simulation(w, MultiQueue(**params), nodes=case.cores).run()  # type: ignore[arg-type]
        tables.append(result.jobs)
    pd.testing.assert_frame_equal(*tables)


class _EagerBase(MultiQueue):
    """Makes every pass's base profile before planning, as every pass once did."""

    def _reads_base(self, arrived: list[JobView]) -> bool:
        return True


@_every_reading
def test_a_base_made_only_when_a_replan_reads_it_makes_the_same_schedule(
    case: Case, high: float, share: float, guard: str, trial: str
) -> None:
    # The usual pass plans its pivots on the running jobs' profile and makes its base
    # profile (with the starts owed to it) only for a replan from scratch: the schedule
    # is that of passes that make it first, under every guard and trial.
    w, params = _reading(case, high, share, guard, trial)
    tables = [
        Simulation(w, kind(**params), nodes=case.cores).run().jobs  # type: ignore[arg-type]
        for kind in (MultiQueue, _EagerBase)
    ]
    pd.testing.assert_frame_equal(*tables)


@pytest.mark.parametrize("guard", ["all", "return", "reassign"])
def test_a_base_made_only_when_a_replan_reads_it_makes_the_same_schedule_on_a_trace(
    guard: str,
) -> None:
    # On a trace a pivot's start is often followed by a replan from scratch, which reads
    # the base profile with the starts owed to it.
    from schedsim.workloads import catalog
    from schedsim.workloads.transforms import first

    w = first(catalog.load("kth"), 2000)
    tables = [
        Simulation(w, kind(guard=guard)).run().jobs  # type: ignore[arg-type]
        for kind in (MultiQueue, _EagerBase)
    ]
    pd.testing.assert_frame_equal(*tables)
