"""Preemptive FCFS with gang scheduling (seed 004): the strategies of Table 3 by hand.

Every example runs on a 4-node machine, so a *wide* job needs more than 2
nodes (r_i > R/2). The base workload: at t=0 job A (1 node, 5000 s) and
job B (2 nodes, 100 s) start; at t=10 the wide job W (4 nodes, 1000 s)
arrives and cannot start, while fewer than 4 nodes are in use (step C of
Table 1), so its wait starts at once; at t=20 job C (1 node, 50 s) queues
behind it. Under FCFS, W starts when A ends (5000) and C after W (6000).
Jobs run exactly their estimates.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from schedsim import Simulation
from schedsim.policies.gang import PFCFS1, PFCFS2, PFCFS3, PreemptiveFCFS
from schedsim.workloads.job import Job
from schedsim.workloads.workload import Workload

from invariants import check_invariants

A, B, W, C = 1, 2, 3, 4


def job(jid: int, submit: float, size: int, run: float) -> Job:
    return Job(jid, float(submit), float(run), size, float(run))


BASE = [job(A, 0, 1, 5000), job(B, 0, 2, 100), job(W, 10, 4, 1000), job(C, 20, 1, 50)]


def run(policy: object, jobs: list[Job] = BASE, nodes: int = 4) -> dict[int, dict]:
    workload = Workload.from_jobs(jobs, max_procs=nodes)
    result = Simulation(workload, policy).run()  # type: ignore[arg-type]
    check_invariants(result, workload, nodes)
    return {int(r["id"]): r for r in result.jobs.to_dict("records")}


def _random_wide_jobs(seed: int, padded: bool) -> Workload:
    """80 jobs on 8 nodes, 30% of them wide (5-8 nodes), arriving up to 200 s apart;
    estimates exact, or ``padded`` by up to 100 s."""
    rng = np.random.default_rng(seed)
    jobs, t = [], 0.0
    for i in range(80):
        t += float(rng.integers(0, 200))
        run_s = float(rng.integers(1, 3000))
        size = int(rng.integers(5, 9)) if rng.random() < 0.3 else int(rng.integers(1, 4))
        estimate = run_s + float(rng.integers(0, 100)) if padded else run_s
        jobs.append(Job(i + 1, t, run_s, size, estimate))
    return Workload.from_jobs(jobs, max_procs=8)


def test_fcfs_reference() -> None:
    got = run("fcfs")
    assert (got[W]["start"], got[W]["end"]) == (5000, 6000)
    assert (got[C]["start"], got[C]["end"]) == (6000, 6050)


def test_pfcfs3_wide_job_preempts_after_its_wait_and_runs_to_completion() -> None:
    # W waits 600 s from t=10 (C holds: 3 < 4 nodes in use), then suspends A
    # (B has ended; A alone with the 3 free nodes makes 4), runs 610-1610;
    # then A resumes on its own node 0 and C, queued behind W, starts.
    got = run(PFCFS3())
    assert (got[W]["start"], got[W]["end"]) == (610, 1610)
    assert got[A]["suspensions"] == 1
    assert got[A]["suspended_time"] == 1000
    assert got[A]["end"] == 6000  # 610 s run before, 4390 after 1610
    assert got[A]["nodes"] == "0"
    assert (got[C]["start"], got[C]["end"]) == (1610, 1660)
    assert got[W]["suspensions"] == 0


def test_pfcfs1_gangs_alternate_every_quantum() -> None:
    # 610: W preempts A. 1210: quantum over, W switched out (600 of 1000 s
    # done), A back. 1810: W has not got its nodes back (A holds node 0) and
    # the quantum has passed again: A out, W in for its last 400 s, ending
    # at 2210; A resumes then and ends at 6000; C waits behind W until 2210.
    got = run(PFCFS1())
    assert (got[W]["start"], got[W]["end"]) == (610, 2210)
    assert got[W]["suspensions"] == 1
    assert got[W]["suspended_time"] == 600
    assert got[A]["suspensions"] == 2
    assert got[A]["suspended_time"] == 600 + 400
    assert got[A]["end"] == 6000
    assert (got[C]["start"], got[C]["end"]) == (2210, 2260)


def test_pfcfs2_one_short_round_then_waits_for_its_partition() -> None:
    # Wait 60 s: W preempts A at 70, runs 60 s, is switched out at 130 and
    # then waits, without preempting again, for its nodes: A ends at 5060
    # (70 + 4930 s after resuming at 130), W resumes and ends at 5060 + 940.
    got = run(PFCFS2())
    assert (got[W]["start"], got[W]["end"]) == (70, 6000)
    assert got[W]["suspended_time"] == 5060 - 130
    assert got[A]["end"] == 5060
    assert (got[C]["start"], got[C]["end"]) == (6000, 6050)


def test_penalty_keeps_the_switched_nodes_idle() -> None:
    # PFCFS3 with p = 5 s: A holds node 0 for 5 s after being preempted, so
    # W starts at 615 (ends 1615); A resumes at 1615 with 4390 s to go.
    got = run(PFCFS3(penalty=5.0))
    assert (got[W]["start"], got[W]["end"]) == (615, 1615)
    assert got[A]["overhead_time"] == 5
    assert got[A]["suspended_time"] == 1000
    assert got[A]["end"] == 6005
    assert got[C]["start"] == 1615


def test_penalty_on_every_switch_of_pfcfs1() -> None:
    # p = 5: 610 A out (W in at 615); 1215 W out (A back at 1220); 1815 the
    # quantum (from 1215) is over: A out, W back at 1820, ends 1820 + 400.
    got = run(PFCFS1(penalty=5.0))
    assert (got[W]["start"], got[W]["end"]) == (615, 2220)
    assert got[W]["overhead_time"] == 5
    assert got[A]["overhead_time"] == 10
    assert got[A]["end"] == 6000 + 10 + 5  # its run, plus two write-outs, plus W's


def test_wide_job_waits_while_the_machine_is_full() -> None:
    # Step C: with 4 of 4 nodes in use the wide job does not count its wait;
    # it starts only once fewer than 4 are busy (A's partner ends at 1000)
    # and then waits its 600 s before preempting A.
    jobs = [job(A, 0, 1, 5000), job(B, 0, 3, 1000), job(W, 10, 4, 100)]
    got = run(PFCFS3(), jobs)
    assert (got[W]["start"], got[W]["end"]) == (1600, 1700)
    assert got[A]["suspended_time"] == 100


def test_a_wait_counted_from_submission_is_over_when_the_wide_job_heads_the_queue() -> None:
    # The same jobs under wait_from = "submit" (Table 3's "has been waiting for at least
    # 10 min"): when step C first holds at 1000, W has waited 990 s since its submission
    # at 10, more than its 600, so it preempts A at once, runs 1000-1100, and A resumes.
    jobs = [job(A, 0, 1, 5000), job(B, 0, 3, 1000), job(W, 10, 4, 100)]
    got = run(PFCFS3(wait_from="submit"), jobs)
    assert (got[W]["start"], got[W]["end"]) == (1000, 1100)
    assert got[A]["suspended_time"] == 100 and got[A]["end"] == 5100
    # In the base workload step C holds from W's submission, so both clocks start at 10.
    assert run(PFCFS3(wait_from="submit")) == run(PFCFS3())
    # PFCFS1 and PFCFS2 too: W's first preemption at once, then their quanta as before.
    assert run(PFCFS1(wait_from="submit"), jobs)[W]["start"] == 1000
    assert run(PFCFS2(wait_from="submit"), jobs)[W]["start"] == 1000


@pytest.mark.parametrize("queue", ["waits", "moves"])
@pytest.mark.parametrize("name", ["pfcfs1", "pfcfs2", "pfcfs3"])
def test_waits_counted_from_submission_make_valid_schedules(name: str, queue: str) -> None:
    # A random workload with wide jobs often queued behind others: valid schedules (every
    # job once, capacity, resume on own nodes), other than with the wait counted from the
    # head of the queue.
    from schedsim.app import registry

    from invariants import check_preemption, record_holdings

    workload = _random_wide_jobs(11, padded=False)
    waits = {}
    for wait_from in ("head", "submit"):
        policy = registry.make(name, {"queue_in_cycle": queue, "wait_from": wait_from})
        sim = Simulation(workload, policy, nodes=8)
        log = record_holdings(sim)
        result = sim.run()
        check_invariants(result, workload, 8)
        check_preemption(result, log, 8)
        wide = result.jobs[result.jobs["size"] > 4]
        waits[wait_from] = float((wide["start"] - wide["submit"]).mean())
    assert waits["submit"] != waits["head"]


def test_small_jobs_never_preempt() -> None:
    jobs = [job(A, 0, 4, 5000), job(B, 10, 2, 100)]
    got = run(PFCFS1(), jobs)
    assert got[B]["start"] == 5000
    assert got[A]["suspensions"] == 0


def test_greedy_preempts_the_widest_jobs_only() -> None:
    # 8 nodes; a 7-node job waits behind jobs of 1, 2 and 3 nodes (2 nodes
    # idle, 6 < 7 in use). Widest first: 2 free + 3 = 5 < 7, + 2 = 7: the
    # 3- and 2-node jobs go, the 1-node job keeps running.
    jobs = [
        job(10, 0, 1, 9000),
        job(11, 0, 2, 9000),
        job(12, 0, 3, 9000),
        job(13, 5, 7, 100),
    ]
    got = run(PFCFS3(), jobs, nodes=8)
    assert got[13]["start"] == 605
    assert got[10]["suspensions"] == 0
    assert got[11]["suspensions"] == 1 and got[12]["suspensions"] == 1


def test_parameters_and_names() -> None:
    assert PFCFS1().params() == {"penalty": 0.0, "queue_in_cycle": "waits", "preempt": "greedy",
                                 "wait_from": "head"}  # fmt: skip
    p = PreemptiveFCFS(wait=30, quantum=math.inf, rounds=2, penalty=1, queue_in_cycle="moves")
    assert p.params() == {
        "wait": 30.0,
        "quantum": math.inf,
        "rounds": 2,
        "penalty": 1.0,
        "queue_in_cycle": "moves",
        "preempt": "greedy",
        "wait_from": "head",
    }
    bad_ones = ({"wait": -1}, {"quantum": 0}, {"rounds": -1}, {"penalty": -2},
                {"queue_in_cycle": "runs"}, {"preempt": "some"},
                {"wait_from": "queue"})  # fmt: skip
    for bad in bad_ones:
        with pytest.raises(ValueError):
            PreemptiveFCFS(**bad)  # type: ignore[arg-type]
    assert (PFCFS2().wait, PFCFS2().quantum, PFCFS2().rounds) == (60.0, 60.0, 1)
    assert PFCFS3().quantum == math.inf
    assert PFCFS2(queue_in_cycle="moves").queue_in_cycle == "moves"
    assert PFCFS3(preempt="all").params()["preempt"] == "all"
    assert PFCFS1(preempt="newest").params()["preempt"] == "newest"
    with pytest.raises(ValueError, match="'greedy', 'all', 'narrowest', 'newest', got 'some'"):
        PreemptiveFCFS(preempt="some")  # type: ignore[arg-type]


# -- which running jobs a wide job preempts (preempt) -------------------------------------

#: 4 nodes. A and D (1 node, 5000 s each) run from 0 and 5; the wide W (3 nodes, 1000 s)
#: arrives at 10 (2 < 3 nodes in use) and preempts at 610.
ALL = [job(1, 0, 1, 5000), job(2, 5, 1, 5000), job(3, 10, 3, 1000)]


def test_a_greedy_wide_job_preempts_only_what_it_needs() -> None:
    # PFCFS3: W needs one of the two busy nodes; the greedy choice (widest, then the
    # latest started) suspends D alone; A runs on beside W.
    got = run(PFCFS3(), ALL)
    assert (got[3]["start"], got[3]["end"]) == (610, 1610)
    assert (got[1]["suspensions"], got[2]["suspensions"]) == (0, 1)
    assert got[1]["end"] == 5000 and got[2]["end"] == 6005


def test_table1_step_f_preempts_every_running_job() -> None:
    # preempt = "all": W suspends A and D both (Table 1, F), one node stays idle; both
    # resume on their own nodes when W completes.
    got = run(PFCFS3(preempt="all"), ALL)
    assert (got[3]["start"], got[3]["end"]) == (610, 1610)
    assert (got[1]["suspensions"], got[2]["suspensions"]) == (1, 1)
    assert got[1]["end"] == 6000 and got[2]["end"] == 6005
    assert got[1]["nodes"] == "0"
    # PFCFS1 swaps the gangs every 10 minutes: each time W preempts both again.
    got = run(PFCFS1(preempt="all"), ALL)
    assert got[1]["suspensions"] == got[2]["suspensions"] >= 2
    assert got[1]["suspensions"] == got[3]["suspensions"] + 1


#: 8 nodes; the wide W (5 nodes, 1000 s) arrives at 10 behind two running jobs (4 < 5 nodes
#: in use) and preempts one of them at 610; either one frees enough. ``ORDER_X``: a
#: 3-node job from 0 and a 1-node job from 5; ``ORDER_Y``: a 1-node job from 0 and a
#: 3-node job from 5.
ORDER_X = [job(1, 0, 3, 5000), job(2, 5, 1, 5000), job(3, 10, 5, 1000)]
ORDER_Y = [job(1, 0, 1, 5000), job(2, 5, 3, 5000), job(3, 10, 5, 1000)]


@pytest.mark.parametrize(
    ("preempt", "victim_x", "victim_y"),
    [("greedy", 1, 2), ("narrowest", 2, 1), ("newest", 2, 2)],
)
def test_the_greedy_order_of_the_jobs_to_preempt(preempt: str, victim_x: int,
                                                 victim_y: int) -> None:  # fmt: skip
    # "greedy": the widest first; "narrowest": the narrowest first; "newest": the
    # shortest-running (latest started) first. One job is enough, so only the first
    # in the order is suspended, and W runs 610-1610 in every order.
    for jobs, victim in ((ORDER_X, victim_x), (ORDER_Y, victim_y)):
        got = run(PFCFS3(preempt=preempt), jobs, nodes=8)  # type: ignore[arg-type]
        assert (got[3]["start"], got[3]["end"]) == (610, 1610)
        assert {j: got[j]["suspensions"] for j in (1, 2)} == {victim: 1, 3 - victim: 0}


# -- the two readings of the queue during a cycle (queue_in_cycle) ------------------------

#: 4 nodes. A (2 nodes, 5000 s) runs from 0 on nodes 0-1; the wide W (3 nodes,
#: 1000 s) arrives at 10 (2 < 3 nodes in use: its wait starts); behind it C (1
#: node, 100 s), D (2 nodes, 3000 s) and E (1 node, 1000 s).
QA, QW, QC, QD, QE = 1, 2, 3, 4, 5
CYCLE = [
    job(QA, 0, 2, 5000),
    job(QW, 10, 3, 1000),
    job(QC, 20, 1, 100),
    job(QD, 30, 2, 3000),
    job(QE, 40, 1, 1000),
]


def test_pfcfs1_queue_waits_for_the_whole_cycle() -> None:
    # 610: W preempts A, runs on A's nodes 0-1 and the free node 2; 1210: W out,
    # A back; 1810: W preempts A again and completes at 2210; only then the
    # queue moves: C (node 2) at 2210, D (nodes 2-3) after C, E after D.
    got = run(PFCFS1(), CYCLE)
    assert (got[QW]["start"], got[QW]["end"]) == (610, 2210)
    assert got[QC]["start"] == 2210
    assert (got[QD]["start"], got[QD]["end"]) == (2310, 5310)
    assert got[QD]["suspensions"] == 0
    assert got[QE]["start"] == 5310


def test_pfcfs1_queue_moves_during_the_cycle() -> None:
    # 610: W preempts A as before, and C starts at once on the free node 3 (ends
    # 710); D (2 nodes) does not fit node 3 and stops the queue, E too. 1210: W
    # out, A back on 0-1: D starts on nodes 2-3 (node 2 is W's, not kept for
    # it). 1810: W preempts its holders, A and D (D's node 3 frees), and E
    # takes node 3. 2210: W completes, A resumes; D's node 3 is E's until
    # 2810, so D resumes only then: 600 s done, 2400 s to go, ends at 5210.
    got = run(PFCFS1(queue_in_cycle="moves"), CYCLE)
    assert (got[QW]["start"], got[QW]["end"]) == (610, 2210)
    assert (got[QC]["start"], got[QC]["end"]) == (610, 710)
    assert got[QC]["nodes"] == "3"
    assert got[QD]["start"] == 1210 and got[QD]["nodes"] == "2-3"
    assert got[QD]["suspensions"] == 1
    assert got[QD]["suspended_time"] == 2810 - 1810  # not 2210 - 1810: node 3 was taken
    assert got[QD]["end"] == 5210
    assert (got[QE]["start"], got[QE]["end"]) == (1810, 2810)
    assert got[QA]["end"] == 6000  # A resumes at 2210 in both readings


def test_pfcfs3_queue_moves_while_the_wide_job_runs() -> None:
    # PFCFS3: W runs 610-1610 in both; under "moves" C runs on node 3 meanwhile.
    waits, moves = run(PFCFS3(), CYCLE), run(PFCFS3(queue_in_cycle="moves"), CYCLE)
    assert waits[QW]["end"] == moves[QW]["end"] == 1610
    assert waits[QC]["start"] == 1610
    assert moves[QC]["start"] == 610
    assert moves[QD]["start"] == 1610  # D (2 nodes) waited for W's end


def test_pfcfs2_moves_a_wide_job_waits_for_its_partition_behind_the_queue() -> None:
    # PFCFS2: W (wide, 3 nodes) preempts A at 70 and is out again at 130. Under
    # "moves" its free node 2 is not kept for it: D, behind it, takes nodes 2-3
    # at 170 (after C), so W resumes only when both A (5060) and D (3170)
    # are gone: at 5060, as A holds its nodes longest; E runs on node 2 when D ends.
    moves = run(PFCFS2(queue_in_cycle="moves"), CYCLE)
    assert moves[QW]["start"] == 70 and moves[QW]["end"] == 6000
    assert (moves[QC]["start"], moves[QD]["start"]) == (70, 170)
    assert moves[QE]["start"] == 3170
    waits = run(PFCFS2(), CYCLE)
    assert waits[QD]["start"] == 6000  # behind W's cycle, then beside it


def test_a_second_wide_job_does_not_preempt_during_a_cycle() -> None:
    # 8 nodes. A (4 nodes) runs; W1 (5 nodes) preempts it at 610 and runs on
    # nodes 0-4 until 5610. W2 (5 nodes), queued behind it, does not fit the 3
    # free nodes and, a cycle being active, neither preempts nor lets the
    # 1-node job behind it pass. At 5610 A resumes; W2's wait starts then, and
    # at 6210 it preempts A in turn; under "moves" the 1-node job starts beside it.
    jobs = [job(1, 0, 4, 9000), job(2, 10, 5, 5000), job(3, 20, 5, 100), job(4, 30, 1, 100)]
    got = run(PFCFS3(queue_in_cycle="moves"), jobs, nodes=8)
    assert (got[2]["start"], got[2]["end"]) == (610, 5610)
    assert (got[3]["start"], got[3]["end"]) == (6210, 6310)
    assert got[4]["start"] == 6210
    assert got[1]["suspensions"] == 2
    assert run(PFCFS3(), jobs, nodes=8)[4]["start"] == 6310


@pytest.mark.parametrize(
    ("name", "penalty"), [("pfcfs1", 0.0), ("pfcfs1", 7.0), ("pfcfs2", 7.0), ("pfcfs3", 7.0)]
)
def test_moves_schedules_are_valid_on_a_random_workload(name: str, penalty: float) -> None:
    # Wide jobs often, so that cycles overlap the queue; the holdings of
    # suspended jobs checked too (write-outs with a penalty). tests/test_invariants.py
    # runs pfcfs1 and pfcfs2 under "moves" on its random cases as well.
    from schedsim.app import registry

    from invariants import check_preemption, record_holdings

    workload = _random_wide_jobs(4, padded=True)
    policy = registry.make(name, {"penalty": penalty, "queue_in_cycle": "moves"})
    sim = Simulation(workload, policy, nodes=8)
    log = record_holdings(sim)
    result = sim.run()
    check_invariants(result, workload, 8)
    check_preemption(result, log, 8)
    assert (result.jobs["suspensions"] > 0).any()
