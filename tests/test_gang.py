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
    assert PFCFS1().params() == {"penalty": 0.0}
    p = PreemptiveFCFS(wait=30, quantum=math.inf, rounds=2, penalty=1)
    assert p.params() == {"wait": 30.0, "quantum": math.inf, "rounds": 2, "penalty": 1.0}
    for bad in ({"wait": -1}, {"quantum": 0}, {"rounds": -1}, {"penalty": -2}):
        with pytest.raises(ValueError):
            PreemptiveFCFS(**bad)
    assert (PFCFS2().wait, PFCFS2().quantum, PFCFS2().rounds) == (60.0, 60.0, 1)
    assert PFCFS3().quantum == math.inf
