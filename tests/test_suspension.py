"""Seed 000's preemptive policies: Selective Suspension (SS, TSS) and Immediate Service (IS).

The rules are those of `schedsim.policies.selective_suspension.rule` (SS, sections
3.1-3.3 of the thesis), `schedsim.policies.selective_suspension.tunable` (TSS, 3.5)
and `schedsim.policies.immediate` (IS, 2.3), on the machinery of
`schedsim.policies.preemption`; the runs here use
the accelerated SS (`schedsim.policies.selective_suspension.fast`). The first part works
small schedules out by hand: one core per node, integer times, so every
start, end and suspended time is exact, and each test spells out in a
comment how its numbers come about. Thresholds (xfactors) are written τ;
a job's τ is (wait + estimate) / estimate, constant while it runs. Every
hand-built run is also put through `invariants.check_invariants` and
`invariants.check_preemption`, with the holding intervals recorded by
`invariants.record_holdings` (a job's "spans": when it held which nodes).

The second part checks properties on random workloads (hypothesis, the
strategies of `test_invariants`) and on a slice of the KTH trace: the
schedules are valid, every suspension SS makes is one its rules allow, and
the accelerated SS's bookkeeping (the board, with TSS's protections on it,
the queued columns, the homes' arrays) equals one built afresh and takes its
shortcuts. That the
accelerated SS makes the plain rule's schedule (``ss-plain``) is
`test_selective`'s.

Some hand-built tests are regressions of bugs these checks found, each
described where it is tested.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schedsim import Simulation
from schedsim.app import registry
from schedsim.model.policy import Resume, Start, Suspend
from schedsim.model.view import State
from schedsim.policies.immediate import ImmediateService
from schedsim.policies.preemption import minimal_victims
from schedsim.policies.queue_columns import Queued
from schedsim.policies.selective_suspension.board import HomeBoard
from schedsim.policies.selective_suspension.fast import SelectiveSuspension
from schedsim.policies.selective_suspension.plain import PlainSelectiveSuspension
from schedsim.policies.selective_suspension.rule import idle_threshold
from schedsim.policies.selective_suspension.ticks import Homes
from schedsim.policies.selective_suspension.tunable import TunableSelectiveSuspension
from schedsim.workloads.catalog import load
from schedsim.workloads.job import Job
from schedsim.workloads.transforms import first
from schedsim.workloads.workload import Workload

from invariants import Holding, check_invariants, check_preemption, parse_nodes, record_holdings
from test_invariants import Case, cases, random_workload

#: The simple overhead model of the tests: 10 s to write a job out, 5 s to read it back.
OVERHEAD = lambda run: (10.0, 5.0)  # noqa: E731

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------- #
# Running a hand-built workload
# --------------------------------------------------------------------------- #


def job(jid: int, submit: float, size: int, run: float, estimate: float | None = None) -> Job:
    """A job of ``size`` nodes running ``run`` seconds (estimate: exactly ``run`` by default)."""
    return Job(jid, float(submit), float(run), size, float(run if estimate is None else estimate))


class Run:
    """A finished run with its holding intervals, checked against every invariant."""

    def __init__(self, sim: Simulation, log: list, result) -> None:
        self.sim = sim
        self.log = log
        self.result = result
        self.rows = {int(r.id): r for r in result.jobs.itertuples(index=False)}

    def start(self, jid: int) -> float:
        return float(self.rows[jid].start)

    def end(self, jid: int) -> float:
        return float(self.rows[jid].end)

    def starts(self) -> dict[int, float]:
        return {jid: self.start(jid) for jid in self.rows}

    def ends(self) -> dict[int, float]:
        return {jid: self.end(jid) for jid in self.rows}

    def nodes(self, jid: int) -> str:
        return str(self.rows[jid].nodes)

    def spans(self, jid: int) -> list[tuple[float, float, str]]:
        """``(start, end, nodes)`` of every interval during which ``jid`` held its nodes."""
        out = []
        for h in sorted((h for h in self.log if h.job == jid), key=lambda h: h.seq):
            nodes = ",".join(str(n) for n in h.nodes)
            out.append((h.start, h.end, nodes))
        return out

    def record(self, jid: int) -> tuple[int, float, float]:
        """``(suspensions, suspended_time, overhead_time)`` of a job."""
        r = self.rows[jid]
        return int(r.suspensions), float(r.suspended_time), float(r.overhead_time)

    def holders(self, node: int, t0: float, t1: float) -> set[int]:
        """Jobs that held ``node`` at some time in [t0, t1)."""
        return {h.job for h in self.log if node in h.nodes and h.start < t1 and h.end > t0}


def simulate(
    jobs: Sequence[Job],
    nodes: int,
    policy: object,
    *,
    cores_per_node: int = 1,
    overhead=None,
    params: dict | None = None,
    kill_at_estimate: bool = True,
) -> Run:
    workload = Workload.from_jobs(list(jobs), max_procs=nodes * cores_per_node)
    sim = Simulation(
        workload,
        policy,  # type: ignore[arg-type]
        nodes=nodes,
        cores_per_node=cores_per_node,
        overhead=overhead,
        params=params,
        kill_at_estimate=kill_at_estimate,
    )
    log = record_holdings(sim)
    result = sim.run()
    check_invariants(result, workload, nodes * cores_per_node)
    check_preemption(result, log, nodes * cores_per_node)
    return Run(sim, log, result)


# --------------------------------------------------------------------------- #
# SS: when a job suspends another
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(
    ("interval", "tick"),
    [(60, 120), (50, 150), (37, 111), (55, 165)],
    ids=["60s", "50s", "37s", "55s-strict"],
)
def test_ss_short_job_suspends_long_one_at_first_tick_past_sf(interval: int, tick: int) -> None:
    # One node. A (1) runs 1000 s from 0: τ_A = 1 while it runs. B (2, est 100)
    # arrives at 10: τ_B(t) = (t - 10 + 100) / 100, above SF x τ_A = 2 once
    # t > 110. The routine runs at the multiples of the interval: B suspends A
    # at the first one past 110 (120, 150, 111; with 55 s, 110 itself is a tick
    # where τ_B is exactly 2, not above: 165). B runs [tick, tick + 100); A
    # resumes on its node then and finishes its 1000 - tick seconds left at
    # tick + 100 + 1000 - tick = 1100, suspended for 100 s. It never takes
    # the node back: B runs at τ_B(tick) >= 2.01, A would need τ > 4.02.
    run = simulate(
        [job(1, 0, 1, 1000), job(2, 10, 1, 100)], 1, SelectiveSuspension(sf=2, interval=interval)
    )
    assert run.starts() == {1: 0, 2: tick}
    assert run.ends() == {1: 1100, 2: tick + 100}
    assert run.spans(1) == [(0, tick, "0"), (tick + 100, 1100, "0")]
    assert run.spans(2) == [(tick, tick + 100, "0")]
    assert run.record(1) == (1, 100, 0)
    assert run.record(2) == (0, 0, 0)


def test_ss_by_name_with_params_is_the_same_policy() -> None:
    jobs = [job(1, 0, 1, 1000), job(2, 10, 1, 100)]
    by_name = simulate(jobs, 1, "ss", params={"sf": 2, "interval": 50})
    assert by_name.result.meta["policy_params"] == {
        "sf": 2.0,
        "interval": 50.0,
        "width": "text",
        "resumed": "resume",
        "hold": "none",
        "prefer": "threshold",
    }
    assert by_name.starts() == {1: 0, 2: 150}


@pytest.mark.parametrize(
    ("sf", "starts", "ends", "suspensions"),
    [
        # SF 2: τ_B(t) = 1 + t / 100 reaches 2 only as A ends at 100; "s = 2" is
        # the thesis' factor for no suspension at all between equal jobs.
        (2.0, {1: 0, 2: 100}, {1: 100, 2: 200}, {1: 0, 2: 0}),
        # SF 5: far from it.
        (5.0, {1: 0, 2: 100}, {1: 100, 2: 200}, {1: 0, 2: 0}),
        # SF 1.5: τ_B > 1.5 once t > 50: B suspends A at 60 and runs until 160 at
        # τ 1.6. A (τ 1 + (t - 60) / 100) would need 2.4 (t > 200) to take the node
        # back: it resumes at 160 and finishes its last 40 s at 200.
        (1.5, {1: 0, 2: 60}, {1: 200, 2: 160}, {1: 1, 2: 0}),
    ],
    ids=["sf2", "sf5", "sf1.5"],
)
def test_ss_suspension_factor_between_two_equal_jobs(
    sf: float, starts: dict, ends: dict, suspensions: dict
) -> None:
    # Section 3.1: two jobs of the same length (100 s) submitted together, each
    # needing the whole machine (one node here). A (1) starts at once.
    run = simulate([job(1, 0, 1, 100), job(2, 0, 1, 100)], 1, SelectiveSuspension(sf=sf))
    assert run.starts() == starts
    assert run.ends() == ends
    assert {j: run.record(j)[0] for j in (1, 2)} == suspensions


def test_ss_ratio_short_of_sf_when_the_runner_ends() -> None:
    # A (1) runs [0, 1000). B (2, est 100) arrives at 900: τ_B(t) = (t - 800) / 100
    # exceeds 2 only after 1000, when A is done anyway: B starts at 1000.
    run = simulate([job(1, 0, 1, 1000), job(2, 900, 1, 100)], 1, SelectiveSuspension())
    assert run.starts() == {1: 0, 2: 1000}
    assert run.ends() == {1: 1000, 2: 1100}
    assert run.record(1) == (0, 0, 0)


@pytest.mark.parametrize(
    ("interval", "jobs", "starts", "ends", "spans"),
    [
        (
            # Section 3.1 with s = 1.2 and a 10 s routine: A, B of 100 s, one node.
            # 30: τ_B = 1.3 > 1.2 x 1 (at 20 it is 1.2, not above): B suspends A.
            # A (τ 1 + (t - 30) / 100) needs > 1.2 x 1.3 = 1.56: at 90 (1.6) it
            # suspends B, after 60 s of B's 100. B (τ 1 + (t - 60) / 100) needs
            # > 1.2 x 1.6 = 1.92, t > 152: at 160, but A has finished its last
            # 70 s by then; B resumes at 160 and ends at 200.
            10,
            [job(1, 0, 1, 100), job(2, 0, 1, 100)],
            {1: 0, 2: 30},
            {1: 160, 2: 200},
            {1: [(0, 30, "0"), (90, 160, "0")], 2: [(30, 90, "0"), (160, 200, "0")]},
        ),
        (
            # The same with 1000 s jobs and the default minute: B suspends A at 240
            # (τ_B 1.24); A takes the node back at 780 (τ 1.54 > 1.488), B at 1440
            # (τ 1.9 > 1.2 x 1.54 = 1.848, after 540 s of its 1000); A's last
            # 100 s wait for B's 460: B ends at 1900, A at 2000.
            60,
            [job(1, 0, 1, 1000), job(2, 0, 1, 1000)],
            {1: 0, 2: 240},
            {1: 2000, 2: 1900},
            {
                1: [(0, 240, "0"), (780, 1440, "0"), (1900, 2000, "0")],
                2: [(240, 780, "0"), (1440, 1900, "0")],
            },
        ),
    ],
    ids=["10s", "60s"],
)
def test_ss_victim_takes_its_nodes_back_at_a_later_tick(
    interval: int, jobs: list[Job], starts: dict, ends: dict, spans: dict
) -> None:
    # "With s = 1, the number of suspensions is very large, only bounded by the
    # granularity of the preemption routine" (section 3.1): a suspended job is
    # idle, its threshold grows, and at a tick it may suspend its suspender.
    # Regression: the pass that suspended it planned no further tick (only for
    # jobs idle before it), so A waited for B's end (resumed at 130, resp. 1240).
    run = simulate(jobs, 1, SelectiveSuspension(sf=1.2, interval=interval))
    assert run.starts() == starts
    assert run.ends() == ends
    assert {j: run.spans(j) for j in (1, 2)} == spans


#: Section 3.1's pair with s = 1.2 and a 10 s routine, and K (3), a third job of
#: 10 s with an estimate of 10000 that stays idle (τ_K = 1 + t / 10000) until both
#: are done, so that the preemption routine keeps running at every tick.
THREE = [job(1, 0, 1, 100), job(2, 0, 1, 100), job(3, 0, 1, 10, 10000)]
#: Their schedule: B suspends A at 30, A takes the node back at 90 (as above);
#: at 160 A has finished and B (τ 2.0) goes before K (τ 1.016); K runs last.
THREE_SPANS = {
    1: [(0, 30, "0"), (90, 160, "0")],
    2: [(30, 90, "0"), (160, 200, "0")],
    3: [(200, 210, "0")],
}


def test_ss_victim_takes_its_nodes_back_at_every_tick() -> None:
    # The plain rule, a pass at every tick.
    run = simulate(THREE, 1, PlainSelectiveSuspension(sf=1.2, interval=10))
    assert {j: run.spans(j) for j in (1, 2, 3)} == THREE_SPANS


def test_ss_victim_takes_its_nodes_back_when_idle_ticks_are_skipped() -> None:
    # As above, with the accelerated SS. Regression: after the pass at 30 the next
    # tick was planned for K alone (τ_K > 1.2 x 1.3 only after 5600), not for A,
    # which then resumed only when B ended at 130 (A ended 200, B was never
    # suspended).
    run = simulate(THREE, 1, SelectiveSuspension(sf=1.2, interval=10))
    assert {j: run.spans(j) for j in (1, 2, 3)} == THREE_SPANS


def test_ss_threshold_after_a_restart_overhead_does_not_depend_on_idle_ticks() -> None:
    # One node, 10 s out, 5 s back, a 57 s routine. A (1, 1000 s) is suspended by
    # B (2, est 100, at 10) at 114 (τ_B 2.04; at 57 it was 1.47): A writes out
    # until 124, B runs [124, 224), A resumes at 224 and reads back until 229.
    # A's threshold is its τ when it resumes, (224 - 114 + 1000) / 1000 = 1.110,
    # and stays so while it runs. C (3, 100 s, est 500, at 186) reaches τ = 1 +
    # 612 / 500 = 2.224 > 2 x 1.110 at 798 = 14 x 57: it suspends A then, and
    # starts at 808 after the write-out, whether or not a tick fell inside A's
    # read-back. Regression: the threshold was A's xfactor at the first pass
    # that saw it running, 1.110 during the read-back (counted as run while under
    # way) but 1.115 after it (overhead, part of the wait). With a pass at every
    # tick that was at 228, inside; skipping ticks, at 798, after: C then had to
    # wait for 855 (2.224 < 2 x 1.115).
    jobs = [job(1, 0, 1, 1000), job(2, 10, 1, 100), job(3, 186, 1, 100, 500)]
    # The plain rule has a pass at every tick (one at 228); the accelerated SS skips it.
    every = simulate(jobs, 1, "ss-plain", params={"interval": 57}, overhead=OVERHEAD)
    skipped = simulate(jobs, 1, "ss", params={"interval": 57}, overhead=OVERHEAD)
    assert every.starts() == {1: 0, 2: 124, 3: 808}
    assert every.ends() == {1: 1230, 2: 224, 3: 908}
    pd.testing.assert_frame_equal(skipped.result.jobs, every.result.jobs)


# --------------------------------------------------------------------------- #
# SS: the width restriction
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(
    ("width", "runner", "waiter", "suspends"),
    [
        ("text", 4, 1, False),  # n_i >= n_j / 2 fails: narrow cannot suspend wide
        ("formula", 4, 1, True),  # n_i / n_j < 2 holds
        ("none", 4, 1, True),
        ("text", 1, 4, True),  # wide suspends narrow under the text ...
        ("formula", 1, 4, False),  # ... but not under the formula (4 / 1 >= 2)
        ("none", 1, 4, True),
        ("text", 2, 1, True),  # n_i = n_j / 2 exactly: allowed by the text
        ("text", 3, 1, False),
        ("formula", 1, 2, False),  # n_i / n_j = 2 exactly: not below 2
        ("formula", 2, 3, True),
        ("text", 2, 2, True),
        ("formula", 2, 2, True),
    ],
)
def test_ss_width_restriction(width: str, runner: int, waiter: int, suspends: bool) -> None:
    # A (1, `runner` nodes, 1000 s) runs from 0 on nodes 0..runner-1 of a machine
    # just as wide as the wider of the two, so B (2, `waiter` nodes, est 100, at
    # 10) cannot start beside it. B's τ passes 2 x τ_A after 110: if the width
    # rule lets it, B suspends A at 120 on A's nodes first (then the lowest free
    # ones: nodes 0..waiter-1 either way) and runs until 220; A resumes at 220
    # and ends at 1100. If not, B waits for A's end at 1000.
    nodes = max(runner, waiter)
    run = simulate(
        [job(1, 0, runner, 1000), job(2, 10, waiter, 100)], nodes, SelectiveSuspension(width=width)
    )
    home = f"0-{runner - 1}" if runner > 1 else "0"
    assert run.nodes(1) == home
    assert parse_nodes(run.nodes(2)) == list(range(waiter))
    if suspends:
        assert run.starts() == {1: 0, 2: 120}
        assert run.ends() == {1: 1100, 2: 220}
        assert [s[:2] for s in run.spans(1)] == [(0, 120), (220, 1100)]
        assert run.record(1) == (1, 100, 0)
    else:
        assert run.starts() == {1: 0, 2: 1000}
        assert run.ends() == {1: 1000, 2: 1100}
        assert run.record(1) == (0, 0, 0)


def test_ss_width_must_be_known() -> None:
    with pytest.raises(ValueError, match="width"):
        SelectiveSuspension(width="half")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="sf"):
        SelectiveSuspension(sf=0.5)
    with pytest.raises(ValueError, match="interval"):
        SelectiveSuspension(interval=0)


# --------------------------------------------------------------------------- #
# SS: minimal victim sets
# --------------------------------------------------------------------------- #


def _ladder_of_runners(sizes: Sequence[int], newcomer: int) -> list[Job]:
    # Four nodes. W (1) holds all of them during [0, 100); the jobs that queue
    # behind it (1000 s, est 1000; W's width keeps them from suspending it under
    # the text rule) start at 100 with τ = 1 + wait / 1000, so the earlier they
    # arrived the higher: submitted at 0, 50, 90, 95 they run at τ 1.1, 1.05,
    # 1.01, 1.005, started in that order (decreasing τ) on the lowest free nodes.
    # N (est 10) arrives at 200: at 240, τ_N = (40 + 10) / 10 = 5, and every
    # runner is a candidate (τ < 2.5).
    submits = (0, 50, 90, 95)
    jobs = [job(1, 0, 4, 100)]
    jobs += [job(2 + k, submits[k], n, 1000) for k, n in enumerate(sizes)]
    jobs.append(job(2 + len(sizes), 200, newcomer, 10))
    return jobs


def test_ss_suspends_only_as_many_as_needed_lowest_thresholds_first() -> None:
    # Runners 2 (τ 1.1, node 0), 3 (1.05, node 1), 4 (1.01, node 2), 5 (1.005,
    # node 3); N (6) needs 2 nodes: it suspends the two of lowest τ, 5 and 4, and
    # runs on their nodes 2-3 during [240, 250). They resume there at 250 and
    # finish their remaining 860 s at 1110; 2 and 3 are untouched (1100).
    run = simulate(_ladder_of_runners([1, 1, 1, 1], 2), 4, SelectiveSuspension())
    assert run.starts() == {1: 0, 2: 100, 3: 100, 4: 100, 5: 100, 6: 240}
    assert run.ends() == {1: 100, 2: 1100, 3: 1100, 4: 1110, 5: 1110, 6: 250}
    assert [run.nodes(j) for j in (2, 3, 4, 5, 6)] == ["0", "1", "2", "3", "2-3"]
    assert {j: run.record(j)[0] for j in (2, 3, 4, 5)} == {2: 0, 3: 0, 4: 1, 5: 1}
    assert run.spans(5) == [(100, 240, "3"), (250, 1110, "3")]


def test_ss_leaves_out_a_victim_the_others_make_up_for() -> None:
    # Runners 2 (τ 1.1, node 0), 3 (1.05, two nodes 1-2), 4 (1.01, node 3). N (5)
    # needs 2: taking candidates by τ, 4 (1 node) is not enough, 4 and 3 (3 nodes)
    # are, and then 4 can be left out: 3 alone frees 2 nodes. Only 3 is suspended;
    # N runs on 1-2 during [240, 250); 3 resumes there and ends at 1110.
    run = simulate(_ladder_of_runners([1, 2, 1], 2), 4, SelectiveSuspension())
    assert run.starts() == {1: 0, 2: 100, 3: 100, 4: 100, 5: 240}
    assert run.ends() == {1: 100, 2: 1100, 3: 1110, 4: 1100, 5: 250}
    assert [run.nodes(j) for j in (2, 3, 4, 5)] == ["0", "1-2", "3", "1-2"]
    assert {j: run.record(j)[0] for j in (2, 3, 4)} == {2: 0, 3: 1, 4: 0}


def _jobs(*sizes: int) -> list[SimpleNamespace]:
    return [SimpleNamespace(id=k, size=n) for k, n in enumerate(sizes)]


@pytest.mark.parametrize(
    ("need", "free", "sizes", "chosen"),
    [
        (2, 2, [1, 1], []),  # enough free already
        (3, 0, [1, 1], None),  # not enough even with all of them
        (2, 0, [1, 1, 1], [0, 1]),  # the first (most expendable) ones
        (2, 0, [1, 2, 1], [1]),  # the first is not needed once the second is in
        (5, 1, [1, 2, 4], [2]),  # 1 + 4 suffices: both earlier ones left out
        (4, 1, [2, 1, 3], [0, 1]),  # 1 + 2 + 1 = 4 exactly: both needed
        (4, 0, [1, 1, 1, 3], [0, 3]),  # 1 + 3: the two middle ones left out
    ],
)
def test_minimal_victims(need: int, free: int, sizes: list[int], chosen: list[int] | None) -> None:
    got = minimal_victims(need, free, _jobs(*sizes))  # type: ignore[arg-type]
    assert (None if got is None else [j.id for j in got]) == chosen


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 20),
    st.integers(0, 20),
    st.lists(st.integers(1, 8), max_size=8),
)
def test_minimal_victims_none_could_be_left_out(need: int, free: int, sizes: list[int]) -> None:
    cands = _jobs(*sizes)
    got = minimal_victims(need, free, cands)  # type: ignore[arg-type]
    if free + sum(sizes) < need:
        assert got is None
        return
    assert got is not None
    ids = [j.id for j in got]
    assert ids == sorted(ids), "victims out of the candidates' order"
    total = free + sum(j.size for j in got)
    assert total >= need
    for m in got:  # section 3.3: sum of n_k - n_m + f_t < n_i for every member m
        assert total - m.size < need
    # Only candidates from the shortest prefix that suffices (lowest thresholds first).
    prefix, acc = 0, free
    while acc < need:
        acc += sizes[prefix]
        prefix += 1
    assert all(i < prefix for i in ids)


# --------------------------------------------------------------------------- #
# SS: re-entry on the job's own nodes
# --------------------------------------------------------------------------- #


def test_ss_reentry_waits_for_its_own_nodes() -> None:
    # Four nodes. At 0, F (1, 2 nodes, 300 s) takes 0-1 and S (2, 2 nodes, 1000 s)
    # 2-3; N (3, 2 nodes, est 100) waits. At 120, τ_N = 2.2 > 2 x 1: F and S are
    # both candidates at τ 1; S, the later (higher id) one, goes first and
    # alone is enough. N runs on S's nodes 2-3 during [120, 220).
    # X (4, 2 nodes, est 200) arrives at 150. At 220 N ends: τ_X = (70 + 200) /
    # 200 = 1.35 is above τ_S = (220 - 120 + 1000) / 1000 = 1.1, so X takes the
    # free nodes, 2-3, S's home, and runs until 420 at τ 1.35; S cannot suspend
    # it (that needs τ_S > 2.7). At 300 F ends: nodes 0-1 are free, enough for S,
    # but not its own. S resumes on 2-3 only when X ends at 420, and finishes
    # its last 880 s at 1300, after 300 s suspended.
    jobs = [job(1, 0, 2, 300), job(2, 0, 2, 1000), job(3, 0, 2, 100), job(4, 150, 2, 200)]
    run = simulate(jobs, 4, SelectiveSuspension())
    assert run.starts() == {1: 0, 2: 0, 3: 120, 4: 220}
    assert run.ends() == {1: 300, 2: 1300, 3: 220, 4: 420}
    assert run.nodes(2) == "2-3"
    assert run.spans(2) == [(0, 120, "2,3"), (420, 1300, "2,3")]
    assert run.spans(3) == [(120, 220, "2,3")]
    assert run.spans(4) == [(220, 420, "2,3")]
    assert run.record(2) == (1, 300, 0)
    # Nodes 0-1 stayed idle while S waited for its own.
    assert run.holders(0, 300, 420) == run.holders(1, 300, 420) == set()


# --------------------------------------------------------------------------- #
# SS: cores freed by a suspension serve the rest of the same pass
# --------------------------------------------------------------------------- #


def test_ss_cores_left_over_by_a_suspension_start_another_job_at_once() -> None:
    # Two nodes. A (1, both nodes, 61 s) runs from 0. At 60, B (2, 1 node, est 1)
    # has τ 61 and suspends A; it needs one of A's two nodes. C (3, 1 node, est
    # 61, τ 121/61 < 2: no candidate of its own) starts at once on the other,
    # without waiting for an event: both run [60, 61), A resumes at 61, ends 62.
    # Regression: SS used to decide the rest of a pass on the free cores counted
    # before its suspensions: C waited for B's end (started 61, A ended 63).
    jobs = [job(1, 0, 2, 61), job(2, 0, 1, 1), job(3, 0, 1, 1, 61)]
    run = simulate(jobs, 2, SelectiveSuspension())
    assert run.starts() == {1: 0, 2: 60, 3: 60}
    assert run.ends() == {1: 62, 2: 61, 3: 61}
    assert run.nodes(2) == "0" and run.nodes(3) == "1"
    assert run.record(1) == (1, 1, 0)


def test_ss_cores_left_over_by_a_suspension_count_for_the_next_preemption() -> None:
    # Eight nodes, width "formula" (a job may not suspend one of half its width
    # or less). W (1, 8 nodes) runs [0, 100); then V (2, 6 nodes, est 200, waited
    # 100: τ 1.5) takes 0-5 and T (3, 2 nodes, est 10000, τ 1) 6-7. I1 (4, 5
    # nodes, est 20) and I2 (5, 3 nodes, est 40) arrive at 120. At 180: τ_I1 =
    # 4 > 2 x 1.5, and T (2 nodes) is too narrow for I1: it suspends V and takes
    # 0-4, leaving node 5 free. τ_I2 = 2.5 > 2 x τ_T, not 2 x τ_V: with node 5,
    # suspending T is enough, in the same pass: I2 runs on 5-7 during [180, 220).
    # V resumes at 220 (node 5 is I2's until then) and ends at 220 + 120 = 340;
    # T resumes at 220 and ends at 10140. Regression (as above): I2's bound was
    # taken with no free node, so it waited and started at 200 on 0-2 instead.
    jobs = [
        job(1, 0, 8, 100),
        job(2, 0, 6, 200),
        job(3, 100, 2, 10000),
        job(4, 120, 5, 20),
        job(5, 120, 3, 40),
    ]
    run = simulate(jobs, 8, SelectiveSuspension(width="formula"))
    assert run.starts() == {1: 0, 2: 100, 3: 100, 4: 180, 5: 180}
    assert run.ends() == {1: 100, 2: 340, 3: 10140, 4: 200, 5: 220}
    assert [run.nodes(j) for j in (2, 3, 4, 5)] == ["0-5", "6-7", "0-4", "5-7"]
    assert run.record(2) == (1, 40, 0)
    assert run.record(3) == (1, 40, 0)


# --------------------------------------------------------------------------- #
# SS: suspension overhead (seed 000, section 4.1)
# --------------------------------------------------------------------------- #


def test_ss_with_overhead_waits_for_the_write_out() -> None:
    # One node, 10 s to write a job out, 5 s to read it back. B (2) would suspend
    # A at 120 as without overhead, but A holds the node for its write-out until
    # 130: B starts then and runs until 230. A resumes at 230, spends [230, 235)
    # reading its memory back, then runs its last 880 s: ends at 1115, with 15 s
    # of overhead and 100 s suspended (130-230: the write-out is overhead, not
    # suspension). 1115 - 0 = 1000 run + 15 + 100.
    run = simulate(
        [job(1, 0, 1, 1000), job(2, 10, 1, 100)], 1, SelectiveSuspension(), overhead=OVERHEAD
    )
    assert run.starts() == {1: 0, 2: 130}
    assert run.ends() == {1: 1115, 2: 230}
    assert run.spans(1) == [(0, 130, "0"), (230, 1115, "0")]
    assert run.record(1) == (1, 100, 15)
    assert run.record(2) == (0, 0, 0)


def test_ss_with_overhead_keeps_the_claimed_cores_for_the_suspender() -> None:
    # Two nodes. A (1) holds node 0; B (2, 2 nodes, est 100) suspends it at 120
    # and needs node 1 as well, free already. C (3, 1 node, est 1000) arrives at
    # 125, during A's write-out: node 1 is kept for B, so C waits. At 130 A lets
    # go and B runs on 0-1 until 230. Then A (τ 1.11) resumes on node 0 (230-235
    # reading back, ends 1115) and C (τ 1.105) starts on node 1, ends 280.
    jobs = [job(1, 0, 1, 1000), job(2, 10, 2, 100), job(3, 125, 1, 50, 1000)]
    run = simulate(jobs, 2, SelectiveSuspension(), overhead=OVERHEAD)
    assert run.starts() == {1: 0, 2: 130, 3: 230}
    assert run.ends() == {1: 1115, 2: 230, 3: 280}
    assert run.nodes(2) == "0-1" and run.nodes(3) == "1"
    assert run.holders(1, 0, 130) == set()
    assert run.record(1) == (1, 100, 15)


# --------------------------------------------------------------------------- #
# TSS
# --------------------------------------------------------------------------- #


def write_averages(path: Path, cells: dict[tuple[str, str], float], other: float = 100.0) -> Path:
    """A table of category averages in `Result.category_table`'s layout."""
    table = pd.DataFrame(
        other,
        index=pd.Index(["VS", "S", "L", "VL"], name="runtime"),
        columns=pd.Index(["Seq", "N", "W", "VW"], name="size"),
    )
    for (row, col), value in cells.items():
        table.loc[row, col] = value
    table.to_csv(path)
    return path


@pytest.mark.parametrize(
    ("cells", "limit", "start"),
    [
        # A (1000 s, 1 node: category S/Seq) runs at τ 1. With an average of 0.5,
        # 1 > 1.5 x 0.5: A may not be suspended, and B waits for its end.
        ({("S", "Seq"): 0.5}, 1.5, 1000),
        # With 10, 1 < 15: as under SS, B suspends A at 120.
        ({("S", "Seq"): 10.0}, 1.5, 120),
        # The limit is strict: τ 1 is not above 1 x 1.
        ({("S", "Seq"): 1.0}, 1.0, 120),
        ({("S", "Seq"): 0.9}, 1.0, 1000),
        # Another category's average does not matter.
        ({("VS", "Seq"): 0.5, ("S", "N"): 0.5}, 1.5, 120),
        # An empty cell (no jobs in the earlier run) sets no limit.
        ({("S", "Seq"): math.nan}, 1.5, 120),
    ],
    ids=["protected", "open", "limit-equal", "limit-above", "other-category", "empty-cell"],
)
def test_tss_averages_from_a_file(tmp_path: Path, cells: dict, limit: float, start: int) -> None:
    path = write_averages(tmp_path / "averages.csv", cells)
    jobs = [job(1, 0, 1, 1000), job(2, 10, 1, 100)]
    run = simulate(jobs, 1, TunableSelectiveSuspension(limit=limit, averages=str(path)))
    assert run.starts() == {1: 0, 2: start}
    assert run.ends() == ({1: 1100, 2: 220} if start == 120 else {1: 1000, 2: 1100})
    # The same through the registry, with the parameters as the command line gives them.
    by_name = simulate(jobs, 1, "tss", params={"averages": str(path), "limit": str(limit)})
    assert by_name.starts() == run.starts()


@pytest.mark.parametrize(
    ("cells", "start"),
    [({("VS", "Seq"): 0.5}, 120), ({("S", "Seq"): 0.5}, 500)],
    ids=["run-category-protected", "estimate-category-protected"],
)
def test_tss_category_of_a_running_job_is_by_its_estimate(
    tmp_path: Path, cells: dict, start: int
) -> None:
    # A (1) runs 500 s (VS by its run time) with an estimate of 1000 (S): the
    # scheduler only knows the estimate, so S/Seq's average is the one that counts.
    # Protected: B waits for A's end at 500. Not: B suspends A at 120 as under SS.
    path = write_averages(tmp_path / "averages.csv", cells)
    jobs = [job(1, 0, 1, 500, 1000), job(2, 10, 1, 100)]
    run = simulate(jobs, 1, TunableSelectiveSuspension(averages=str(path)))
    assert run.start(2) == start


def test_tss_online_without_finished_jobs_is_ss() -> None:
    # No job has finished when B could suspend A: A's category has no average
    # yet, so no limit, and TSS does what SS does.
    jobs = [job(1, 0, 1, 1000), job(2, 10, 1, 100)]
    tss = simulate(jobs, 1, TunableSelectiveSuspension())
    ss = simulate(jobs, 1, SelectiveSuspension())
    assert tss.starts() == ss.starts() == {1: 0, 2: 120}
    assert tss.ends() == ss.ends() == {1: 1100, 2: 220}


def test_tss_online_averages_protect_a_job_beyond_its_category() -> None:
    # One node. P (1, 700 s: S/Seq) runs [0, 700) with slowdown 1; A (2, 1000 s,
    # S/Seq) waits for it and starts at 700 with τ 1.7. The online average of
    # S/Seq is now 1: A is above 1.5 x 1, protected. B (3, est 100, at 730) would
    # suspend A at 1020 under SS (τ_B = 3.9 > 2 x 1.7; 3.3 < 3.4 at 960), and A
    # would end at 1800; under TSS B waits for A's end at 1700.
    jobs = [job(1, 0, 1, 700), job(2, 0, 1, 1000), job(3, 730, 1, 100)]
    ss = simulate(jobs, 1, SelectiveSuspension())
    assert ss.starts() == {1: 0, 2: 700, 3: 1020}
    assert ss.ends() == {1: 700, 2: 1800, 3: 1120}
    tss = simulate(jobs, 1, TunableSelectiveSuspension())
    assert tss.starts() == {1: 0, 2: 700, 3: 1700}
    assert tss.ends() == {1: 700, 2: 1700, 3: 1800}
    assert tss.record(2) == (0, 0, 0)


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("runtime,Seq,N,W,VW\nVS,1,1,1,1\nS,1,1,1,1\nL,1,1,1,1\n", "missing \\['VL'\\]"),
        ("runtime,Seq,N,W\nVS,1,1,1\nS,1,1,1\nL,1,1,1\nVL,1,1,1\n", "missing \\['VW'\\]"),
        ("runtime,Seq,N,W,VW\nVS,1,1,1,1\nS,1,abc,1,1\nL,1,1,1,1\nVL,1,1,1,1\n", "not a number"),
        ("runtime,Seq,N,W,VW\nVS,1,1,1,1\nS,1,1,1,1\nL,1,-2,1,1\nVL,1,1,1,1\n", "positive"),
        ("runtime,Seq,N,W,VW\nVS,1,1,1,1\nS,1,1,1,1\nS,1,1,1,1\nVL,1,1,1,1\n", "L"),
        ("", "cannot read"),
        (None, "cannot read"),
    ],
    ids=["no-row", "no-column", "not-a-number", "negative", "duplicate-row", "empty", "missing"],
)
def test_tss_malformed_averages_file_is_named(tmp_path: Path, text: str | None, what: str) -> None:
    path = tmp_path / "my averages.csv"
    if text is not None:
        path.write_text(text)
    with pytest.raises(ValueError, match=re.escape(str(path))) as info:
        TunableSelectiveSuspension(averages=str(path))
    assert re.search(what, str(info.value)), str(info.value)
    with pytest.raises(ValueError, match=re.escape(str(path))):
        registry.make("tss", {"averages": str(path)})


def test_tss_reads_a_category_table_written_by_a_result(tmp_path: Path) -> None:
    # The table of an earlier run, as Result.category_table gives it (Table 2.3).
    earlier = Simulation(first(load("kth"), 300), "easy").run()
    table = earlier.category_table()
    path = tmp_path / "kth-easy.csv"
    table.to_csv(path)
    policy = TunableSelectiveSuspension(averages=str(path))
    cells = table.to_numpy(dtype=float).ravel()
    expected = [math.inf if np.isnan(v) else v for v in cells]
    assert [policy.average(c) for c in range(16)] == pytest.approx(expected)
    assert policy.params()["averages"] == str(path)


# --------------------------------------------------------------------------- #
# IS
# --------------------------------------------------------------------------- #


def test_is_arrival_displaces_lowest_instantaneous_xfactor_for_its_slice() -> None:
    # Two nodes, 600 s slices. A (1, 2 nodes, 100 s) runs first; B (2, 3000 s,
    # at 0) and D (3, 3000 s, at 50) wait for it (no slice: nothing to suspend
    # but A, in its own slice) and start at 100 on nodes 0 and 1.
    # C (4, 1000 s) arrives at 1000. Instantaneous xfactors: B (100 + 900) /
    # 900 = 1.11, D (50 + 900) / 900 = 1.06: D is suspended and C runs on node 1.
    # At 1600 the slice ends and D is still suspended: C is suspended and D
    # resumes on node 1; it finishes its last 2100 s at 3700. C may only
    # resume on its own node 1: at 3100 node 0 frees up (B ends) but C waits
    # until 3700, then runs its last 400 s: ends at 4100.
    jobs = [job(1, 0, 2, 100), job(2, 0, 1, 3000), job(3, 50, 1, 3000), job(4, 1000, 1, 1000)]
    run = simulate(jobs, 2, ImmediateService(quantum=600))
    assert run.starts() == {1: 0, 2: 100, 3: 100, 4: 1000}
    assert run.ends() == {1: 100, 2: 3100, 3: 3700, 4: 4100}
    assert run.spans(3) == [(100, 1000, "1"), (1600, 3700, "1")]
    assert run.spans(4) == [(1000, 1600, "1"), (3700, 4100, "1")]
    assert run.record(2) == (0, 0, 0)
    assert run.record(3) == (1, 600, 0)
    assert run.record(4) == (1, 2100, 0)
    assert run.holders(0, 3100, 3700) == set()


def test_is_arrival_on_free_cores_runs_on_after_its_slice() -> None:
    # Two nodes. A (1, 2000 s) on node 0; E (2, 1000 s) arrives at 100 and finds
    # node 1 free: its slice displaced nobody, so it simply runs on past 700.
    run = simulate([job(1, 0, 1, 2000), job(2, 100, 1, 1000)], 2, ImmediateService())
    assert run.starts() == {1: 0, 2: 100}
    assert run.ends() == {1: 2000, 2: 1100}
    assert run.record(2) == (0, 0, 0)


def test_is_job_within_its_slice_is_not_suspended() -> None:
    # One node. A (1, 1000 s) is in its slice until 600 when B (2) arrives at
    # 100: B gets no slice and waits like any idle job. A's slice ends with
    # nobody displaced: A runs on; only arrivals preempt, so B starts at 1000.
    run = simulate([job(1, 0, 1, 1000), job(2, 100, 1, 100)], 1, ImmediateService())
    assert run.starts() == {1: 0, 2: 1000}
    assert run.ends() == {1: 1000, 2: 1100}


def test_is_arrival_after_the_slice_suspends_the_runner() -> None:
    # One node. A (1, 1000 s) is past its slice when B (2, 100 s) arrives at 700:
    # A, not in a slice any more, is suspended (after 700 s) and B runs [700, 800).
    # A resumes on its node at 800 and ends at 1100.
    run = simulate([job(1, 0, 1, 1000), job(2, 700, 1, 100)], 1, ImmediateService())
    assert run.starts() == {1: 0, 2: 700}
    assert run.ends() == {1: 1100, 2: 800}
    assert run.spans(1) == [(0, 700, "0"), (800, 1100, "0")]


def test_is_with_overhead() -> None:
    # As above with 10 s write-out and 5 s read-back: B arrives at 700, A writes
    # out until 710, B runs [710, 810). A reads back [810, 815) and ends at 1115.
    run = simulate(
        [job(1, 0, 1, 1000), job(2, 700, 1, 100)], 1, ImmediateService(), overhead=OVERHEAD
    )
    assert run.starts() == {1: 0, 2: 710}
    assert run.ends() == {1: 1115, 2: 810}
    assert run.record(1) == (1, 100, 15)


def test_is_quantum_must_be_positive() -> None:
    with pytest.raises(ValueError, match="quantum"):
        ImmediateService(quantum=0)


# --------------------------------------------------------------------------- #
# The accelerated SS: its shortcuts and its bookkeeping
# --------------------------------------------------------------------------- #


@pytest.fixture(scope="module")
def kth1500() -> Workload:
    return first(load("kth"), 1500)


@pytest.mark.parametrize("policy", ["ss", "tss"])
def test_the_shortcuts_are_taken_on_kth(
    kth1500: Workload, monkeypatch: pytest.MonkeyPatch, policy: str
) -> None:
    # `test_selective` compares the schedules with the plain rule's; this test
    # makes sure the cheap paths it vouches for (arrival-only passes, passes
    # without preemption on the board, ticks at which no job could preempt, plans
    # of new jobs only, timers let go) really run.
    calls = {"arrivals": 0, "incremental": 0, "board": 0, "quiet ticks": 0, "no timer": 0}
    arrivals, plan = SelectiveSuspension._arrivals, SelectiveSuspension._plan_tick
    board_pass, may_preempt = SelectiveSuspension._board_pass, SelectiveSuspension._may_preempt
    wants_pass = SelectiveSuspension.wants_pass

    def count_quiet(self, view, board):
        answer = may_preempt(self, view, board)
        calls["quiet ticks"] += not answer
        return answer

    def count_timers(self, time):
        answer = wants_pass(self, time)
        calls["no timer"] += not answer
        return answer

    def count_arrivals(self, view):
        calls["arrivals"] += 1
        return arrivals(self, view)

    def count_board(self, view, board):
        calls["board"] += 1
        return board_pass(self, view, board)

    def count_plans(self, view, out, avail, fresh, new, held_idle, held_first):
        if new is not None and new.any():
            calls["incremental"] += 1
        return plan(self, view, out, avail, fresh, new, held_idle, held_first)

    monkeypatch.setattr(SelectiveSuspension, "_arrivals", count_arrivals)
    monkeypatch.setattr(SelectiveSuspension, "_board_pass", count_board)
    monkeypatch.setattr(SelectiveSuspension, "_plan_tick", count_plans)
    monkeypatch.setattr(SelectiveSuspension, "_may_preempt", count_quiet)
    monkeypatch.setattr(SelectiveSuspension, "wants_pass", count_timers)
    Simulation(kth1500, policy, nodes=100).run()
    assert calls["arrivals"] > 100
    assert calls["board"] > 100
    assert calls["incremental"] > 10
    assert calls["quiet ticks"] > 10
    assert calls["no timer"] > 10


def _bars_by_hand(view, tau_of: dict[int, float], width: str, protected) -> dict[int, float]:
    """Each suspended job's bar from the running jobs on its home (section 3.3); inf
    behind a protected one (TSS, section 3.5)."""
    out = {}
    for job in view.suspended:
        home = set(job.home.nodes.tolist())
        on = [r for r in view.running if home & set(r.allocation.nodes.tolist())]
        n = job.size
        reach = {
            "text": [2 * n >= r.size for r in on],
            "formula": [n < 2 * r.size for r in on],
            "none": [True for _ in on],
        }[width]
        if not all(reach) or any(protected(r, tau_of[r.id]) for r in on):
            out[job.id] = math.inf
        else:
            out[job.id] = max([tau_of[r.id] for r in on], default=0.0)
    return out


def _check_boards(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """At every pass, the board kept up event by event must equal one built afresh,
    its shields TSS's protections now and its bars those worked out by hand. Returns
    a list counting the checks."""
    board_for = SelectiveSuspension._board_for
    checked = []

    def checking(self, view):
        board = board_for(self, view)
        if board is None:
            return board
        fresh = self._build_board(view)
        np.testing.assert_array_equal(board.tau, fresh.tau)
        np.testing.assert_array_equal(board.wide, fresh.wide)
        np.testing.assert_array_equal(board.per_node, fresh.per_node)
        assert board.order == fresh.order and board.busy == fresh.busy
        assert set(board.slot) == set(fresh.slot)
        tau_of = self._running_tau
        protected = {r.id for r in view.running if self.protected(r, tau_of[r.id])}
        assert board.shielded == fresh.shielded == protected
        bars, fresh_bars = board.bars(), fresh.bars()
        by_hand = _bars_by_hand(view, tau_of, self.width, self.protected)
        for job_id, s in fresh.slot.items():
            assert bars[board.slot[job_id]] == fresh_bars[s] == by_hand[job_id]
        # The count of homes all free, kept event by event, is theirs now.
        all_free = [j.id for j in view.suspended if (view.free_per_node[j.home.nodes] > 0).all()]
        assert board.homes_free == len(all_free) == fresh.homes_free
        # The queued columns are the queue's jobs, row for row.
        queued = self._queued
        assert sorted(queued.jobs, key=lambda j: j.id) == sorted(view.queue, key=lambda j: j.id)
        sizes, est, submit, done, ids = queued.columns()
        for i, job in enumerate(queued.jobs):
            row = (sizes[i], est[i], submit[i], done[i], ids[i])
            assert row == (job.size, max(job.estimate, 1e-9), job.submit, job.run_time_done, job.id)
        checked.append(len(board.slot))
        return board

    monkeypatch.setattr(SelectiveSuspension, "_board_for", checking)
    return checked


BOARD_VARIANTS = [{}, {"sf": 1.5, "width": "formula"}, {"sf": 1.0, "width": "none"}]


@FAST
@given(cases(), st.sampled_from(BOARD_VARIANTS), st.sampled_from(["ss", "tss"]))
def test_the_board_kept_up_equals_a_board_built_afresh(
    case: Case, params: dict, policy: str
) -> None:
    with pytest.MonkeyPatch.context() as mp:
        checked = _check_boards(mp)
        Simulation(case.workload, policy, nodes=case.cores, params=params).run()
    assert checked


def test_the_board_kept_up_equals_a_board_built_afresh_on_kth(
    kth1500: Workload, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked = _check_boards(monkeypatch)
    Simulation(kth1500, "ss", nodes=100).run()
    assert max(checked) > 10  # many suspended jobs at once


def test_tss_shields_kept_up_on_kth(kth1500: Workload, monkeypatch: pytest.MonkeyPatch) -> None:
    # TSS on the board: protections change as category averages move at job ends,
    # here both ways (limit 1 protects more jobs; some become protected as they run).
    checked = _check_boards(monkeypatch)
    shield = HomeBoard.shield
    flips = {True: 0, False: 0}

    def counting(self, job_id, nodes, tau, on):
        flips[on] += 1
        return shield(self, job_id, nodes, tau, on)

    monkeypatch.setattr(HomeBoard, "shield", counting)
    result = Simulation(kth1500, "tss", nodes=100, params={"limit": 1.0}).run()
    assert max(checked) > 10 and result.jobs["suspensions"].sum() > 0
    assert flips[True] > 0 and flips[False] > 0


@FAST
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 30)), max_size=200))
def test_queued_columns_follow_arrivals_and_starts(steps: list[tuple[bool, int]]) -> None:
    # Arrivals join, starts leave from anywhere (the last row takes the place):
    # the rows stay those of the jobs queued, and so do their thresholds.
    queued, waiting, next_id = Queued(), {}, 0
    for arrive, pick in steps:
        if arrive or not waiting:
            run = SimpleNamespace(
                id=next_id,
                size=1 + pick % 7,
                estimate=float(pick * 37 % 500),  # 0 too: taken as 1e-9
                submit=float(next_id),
                run_time_done=float(pick % 3),
            )
            queued.add(run)
            waiting[run.id] = run
            next_id += 1
        else:
            gone = sorted(waiting)[pick % len(waiting)]
            queued.drop(gone)
            del waiting[gone]
        assert len(queued) == len(waiting)
        now = next_id + 1000.0
        sizes, est, taus = queued.thresholds(now)
        for i, job in enumerate(queued.jobs):
            assert queued.columns()[4][i] == job.id and waiting[job.id] is job
            assert sizes[i] == job.size and est[i] == max(job.estimate, 1e-9)
            assert taus[i] == idle_threshold(job, now)


def _homes_arrays(homes: Homes) -> list[np.ndarray]:
    return [homes.nodes, homes.cores, homes.lengths, homes.starts, homes.per_node, *homes.columns]


@FAST
@given(st.data())
def test_updated_homes_equal_homes_built_afresh(data: st.DataObject) -> None:
    # Suspended jobs leave from anywhere and join at the end, as in the scheduler.
    nodes = 12
    jobs = []
    for i in range(data.draw(st.integers(8, 20))):
        picked = data.draw(st.sets(st.integers(0, nodes - 1), min_size=1, max_size=5))
        run = SimpleNamespace(
            id=100 + i,
            size=len(picked),
            estimate=float(data.draw(st.integers(1, 5000))),
            submit=float(i),
            run_time_done=float(data.draw(st.integers(0, 100))),
            home=SimpleNamespace(
                nodes=np.array(sorted(picked)), cores=np.ones(len(picked), dtype=np.int64)
            ),
        )
        jobs.append(run)
    held = jobs[:4]
    homes = Homes(held, nodes)
    rest = jobs[4:]
    for _ in range(6):
        held = [j for j in held if not data.draw(st.booleans())]
        take = data.draw(st.integers(0, min(3, len(rest))))
        held, rest = held + rest[:take], rest[take:]
        homes = homes.update(held, nodes)
        for got, want in zip(_homes_arrays(homes), _homes_arrays(Homes(held, nodes)), strict=True):
            np.testing.assert_array_equal(got, want)
        assert homes.key == tuple(j.id for j in held)


# --------------------------------------------------------------------------- #
# Every suspension SS makes is one its rules allow
# --------------------------------------------------------------------------- #


def _tau(run, now: float) -> float:
    return run.xfactor(now)


def audit_suspensions(sim: Simulation, policy: SelectiveSuspension) -> list[dict]:
    """Check every preemption of an SS run (without overhead) as the scheduler applies it.

    SS's decisions of one preemption are the victims' suspensions followed at
    once by the start or resume of the job they make room for. Wrapping the
    scheduler's ``apply`` (on the instance) sees them in order, with the
    cluster as the earlier decisions of the pass left it. Returns the
    preemptions seen: ``now``, the suspender's id and the victims' ids.
    """
    sched = sim.scheduler
    apply = sched.apply
    seen: list[dict] = []
    group: dict = {}
    may = {
        "text": lambda ni, nj: 2 * ni >= nj,
        "formula": lambda ni, nj: ni < 2 * nj,
        "none": lambda ni, nj: True,
    }[policy.width]

    def check(d) -> None:
        now = sched.env.now
        j = d.job
        victims = group["victims"]
        tau_j = _tau(j, now)
        what = f"at {now}: job {j.id} (τ {tau_j}) suspending {[v.id for v in victims]}"
        assert round(now / policy.interval) * policy.interval == now, f"{what}: not a tick"
        for v in victims:
            tau_v = group["taus"][v.id]
            assert tau_v < tau_j / policy.sf, f"{what}: τ of {v.id} is {tau_v}"
            assert may(j.size, v.size), f"{what}: width {j.size} vs {v.size}"
        free = group["free"]
        sizes = sum(v.size for v in victims)
        if isinstance(d, Start):
            assert free < j.size <= free + sizes, f"{what}: {free} free"
            for v in victims:
                assert free + sizes - v.size < j.size, f"{what}: {v.id} could be left out"
            # Among the candidates, lowest thresholds first (ties as SS breaks them).
            cands = sorted(
                (
                    (t, r)
                    for r, t in group["running"]
                    if t < tau_j / policy.sf and may(j.size, r.size) and not policy.protected(r, t)
                ),
                key=lambda p: (p[0], -p[1].submit, -p[1].id),
            )
            acc, prefix = free, set()
            for _, r in cands:
                if acc >= j.size:
                    break
                acc += r.size
                prefix.add(r.id)
            assert {v.id for v in victims} <= prefix, f"{what}: candidates {cands}"
            if sched.cluster.cores_per_node == 1:
                mine = set(d.allocation.nodes.tolist())
                theirs = {n for v in victims for n in v.home.nodes.tolist()}
                assert (mine <= theirs) if sizes >= j.size else (theirs <= mine), what
        else:  # re-entry: only jobs on its home, and all of those
            home = set(j.home.nodes.tolist())
            for v in victims:
                assert home & group["nodes"][v.id], f"{what}: {v.id} is not on its home"
            if sched.cluster.cores_per_node == 1:
                nodes = group["nodes"]
                held = {n for r, _ in group["running"] for n in nodes[r.id]}
                on_home = {r.id for r, _ in group["running"] if home & nodes[r.id]}
                assert on_home == {v.id for v in victims}, what
                assert home <= (held | set(group["free_nodes"])), what
        seen.append({"now": now, "job": j.id, "victims": [v.id for v in victims]})

    def audited_apply(d) -> None:
        now = sched.env.now
        if isinstance(d, Suspend):
            if not group:
                group["running"] = [(r, _tau(r, now)) for r in sched.running.views.values()]
                group["taus"] = {r.id: t for r, t in group["running"]}
                group["nodes"] = {
                    r.id: set(r.allocation.nodes.tolist()) for r, _ in group["running"]
                }
                group["free"] = sched.cluster.free_cores
                group["free_nodes"] = np.flatnonzero(sched.cluster.free_per_node).tolist()
                group["victims"] = []
            group["victims"].append(d.job)
        elif group:
            assert isinstance(d, (Start, Resume)), f"suspensions at {now} followed by {d}"
            assert d.job.state in (State.QUEUED, State.SUSPENDED)
            check(d)
            group.clear()
        apply(d)

    sched.apply = audited_apply
    return seen


AUDITED = [
    {},
    {"width": "formula"},
    {"width": "none", "sf": 1.5},
    {"sf": 1.0, "interval": 13},
]


@FAST
@given(cases(), st.sampled_from(AUDITED))
def test_every_ss_suspension_is_allowed(case: Case, params: dict) -> None:
    policy = SelectiveSuspension(**params)
    sim = Simulation(case.workload, policy, nodes=case.cores)
    audit_suspensions(sim, policy)
    sim.run()


@settings(FAST, max_examples=20)
@given(cases(multicore=True), st.sampled_from(AUDITED))
def test_every_ss_suspension_is_allowed_on_multicore_nodes(case: Case, params: dict) -> None:
    policy = SelectiveSuspension(**params)
    sim = Simulation(
        case.workload,
        policy,
        nodes=case.cores // case.cores_per_node,
        cores_per_node=case.cores_per_node,
    )
    audit_suspensions(sim, policy)
    sim.run()


@pytest.mark.parametrize("seed", range(4))
def test_every_ss_suspension_is_allowed_on_denser_workloads(seed: int) -> None:
    nodes = (4, 8, 16, 8)[seed]
    policy = SelectiveSuspension(sf=(2.0, 1.5)[seed % 2])
    sim = Simulation(random_workload(100 + seed, 80, nodes), policy, nodes=nodes)
    seen = audit_suspensions(sim, policy)
    sim.run()
    assert seen, "no preemption to audit"


def test_every_ss_suspension_is_allowed_on_kth(kth1500: Workload) -> None:
    policy = SelectiveSuspension()
    sim = Simulation(first(kth1500, 600), policy, nodes=100)
    seen = audit_suspensions(sim, policy)
    sim.run()
    assert len(seen) > 10


# --------------------------------------------------------------------------- #
# Valid preemptive schedules on random workloads
# --------------------------------------------------------------------------- #

#: (policy name, parameters, overhead model)
VARIANTS = [
    ("ss", {}, None),
    ("ss", {"width": "formula"}, None),
    ("ss", {"sf": 1.5}, None),
    ("ss", {"sf": 1.0, "interval": 7, "width": "none"}, None),
    ("tss", {}, None),
    ("is", {}, None),
    ("is", {"quantum": 50}, None),
    ("ss", {}, OVERHEAD),
    ("tss", {}, OVERHEAD),
    ("is", {}, OVERHEAD),
]
VARIANT_IDS = [
    f"{n}{''.join(f'-{k}={v}' for k, v in p.items())}{'-overhead' if o else ''}"
    for n, p, o in VARIANTS
]


def _valid(case: Case, kill_at_estimate: bool = True, variants=VARIANTS) -> None:
    nodes = case.cores // case.cores_per_node
    for name, params, overhead in variants:
        sim = Simulation(
            case.workload,
            name,
            nodes=nodes,
            cores_per_node=case.cores_per_node,
            params=params,
            overhead=overhead,
            kill_at_estimate=kill_at_estimate,
        )
        log = record_holdings(sim)
        result = sim.run()
        check_invariants(result, case.workload, case.cores)
        check_preemption(result, log, case.cores)


def _mutated(log: list, jid: int, k: int, **change) -> list:
    """A copy of ``log`` with the ``k``-th interval of job ``jid`` changed (or dropped)."""
    out, seen = [], 0
    for h in log:
        if h.job == jid:
            seen += 1
            if seen - 1 == k:
                if change.get("drop"):
                    continue
                new = Holding(
                    h.job,
                    change.get("start", h.start),
                    h.seq,
                    change.get("nodes", h.nodes),
                    change.get("cores", h.cores),
                )
                new.end, new.end_seq = change.get("end", h.end), h.end_seq
                out.append(new)
                continue
        out.append(h)
    return out


@pytest.mark.parametrize(
    ("jid", "k", "change"),
    [
        (2, 1, {"nodes": (0,)}),  # A resumed on another node
        (3, 0, {"start": 110}),  # B on node 1 while A still holds it
        (2, 1, {"start": 230}),  # A held its node 10 s less than it ran
        (2, 1, {"end": 1110}),  # ... or longer
        (2, 1, {"drop": True}),  # a suspension without a resumption
        (2, 0, {"cores": (2,)}),  # two cores on a one-core node
    ],
    ids=["elsewhere", "overlap", "short", "long", "lost", "cores"],
)
def test_check_preemption_catches(jid: int, k: int, change: dict) -> None:
    # Two nodes. C (1, est 100000) holds node 0 throughout; A (2) on node 1 is
    # suspended by B (3) during [120, 220) as in the first test (A and C both
    # run at τ 1; the later id goes first). A corrupted record must fail.
    jobs = [job(1, 0, 1, 2000, 100000), job(2, 0, 1, 1000), job(3, 10, 1, 100)]
    run = simulate(jobs, 2, SelectiveSuspension())
    assert run.spans(2) == [(0, 120, "1"), (220, 1100, "1")]
    assert run.spans(3) == [(120, 220, "1")]
    check_preemption(run.result, run.log, 2)
    with pytest.raises(AssertionError):
        check_preemption(run.result, _mutated(run.log, jid, k, **change), 2)


@settings(FAST, max_examples=20)
@given(cases(), st.booleans())
def test_preemptive_schedules_are_valid(case: Case, kill: bool) -> None:
    _valid(case, kill_at_estimate=kill)


@settings(FAST, max_examples=15)
@given(cases(multicore=True), st.booleans())
def test_preemptive_schedules_are_valid_on_multicore_nodes(case: Case, kill: bool) -> None:
    _valid(case, kill_at_estimate=kill)


@pytest.mark.filterwarnings("ignore:overflow encountered in divide:RuntimeWarning")
@settings(FAST, max_examples=10)
@given(cases(integral=False), st.booleans())
def test_preemptive_schedules_are_valid_with_fractional_times(case: Case, kill: bool) -> None:
    _valid(case, kill_at_estimate=kill)


@pytest.mark.parametrize("seed", range(2))
def test_preemptive_schedules_are_valid_on_denser_workloads(seed: int) -> None:
    nodes = (8, 16)[seed]
    _valid(Case(random_workload(200 + seed, 40, nodes), nodes))


@pytest.mark.parametrize(
    ("name", "params", "overhead"),
    [v for v in VARIANTS if v[1].get("sf") != 1.0],
    ids=[i for v, i in zip(VARIANTS, VARIANT_IDS, strict=True) if v[1].get("sf") != 1.0],
)
def test_preemptive_schedules_are_valid_on_kth(
    kth1500: Workload, name: str, params: dict, overhead
) -> None:
    workload = first(kth1500, 500)
    _valid(Case(workload, 100), variants=[(name, params, overhead)])


@pytest.mark.slow
@SLOW
@given(cases(), st.booleans())
def test_preemptive_schedules_are_valid_many(case: Case, kill: bool) -> None:
    _valid(case, kill_at_estimate=kill)


@pytest.mark.slow
@SLOW
@given(cases(multicore=True), st.booleans())
def test_preemptive_schedules_are_valid_on_multicore_nodes_many(case: Case, kill: bool) -> None:
    _valid(case, kill_at_estimate=kill)


@pytest.mark.slow
@SLOW
@given(cases(), st.sampled_from(AUDITED))
def test_every_ss_suspension_is_allowed_many(case: Case, params: dict) -> None:
    policy = SelectiveSuspension(**params)
    sim = Simulation(case.workload, policy, nodes=case.cores)
    audit_suspensions(sim, policy)
    sim.run()


def _board_starts(now, free, queued_rows, avail, avoid, homes=()):
    """`kernels.board_starts` on queued rows ``(size, est, submit, done, id)`` and
    suspended jobs ``(size, est, submit, done, id, home nodes)``, every home free."""
    from schedsim.policies.selective_suspension import kernels

    q = [np.array(c) for c in zip(*queued_rows, strict=True)] if queued_rows else [
        np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0), np.zeros(0),
        np.zeros(0, dtype=np.int64)]  # fmt: skip
    h = list(zip(*homes, strict=True)) if homes else [(), (), (), (), (), ()]
    width = max((len(n) for n in h[5]), default=1)
    table = np.zeros((max(len(homes), 1), width), dtype=np.int64)
    for s, nodes in enumerate(h[5]):
        table[s, : len(nodes)] = nodes
    n = len(homes)
    picks, nodes = kernels.board_starts(
        float(now), free, q[0].astype(np.int64), q[1].astype(float), q[2].astype(float),
        q[3].astype(float), q[4].astype(np.int64), avail, np.array(avoid, dtype=np.int64),
        n, np.ones(n, dtype=bool), np.full(n, -math.inf), np.array(h[0], dtype=np.int64),
        np.array(h[1], dtype=float), np.array(h[2], dtype=float), np.array(h[3], dtype=float),
        np.array(h[4], dtype=np.int64), table, np.array([len(x) for x in h[5]], dtype=np.int64),
    )  # fmt: skip
    return picks.tolist(), nodes.tolist()


def test_the_compiled_board_pass_orders_by_threshold_then_submit_then_id() -> None:
    # now = 10. Job 2: submitted at 0, estimate 10: threshold (10 - 0 + 10) / 10 = 2.
    # Job 1: submitted at 5, estimate 5: (10 - 5 + 5) / 5 = 2 as well, but later: job 2
    # (row 0) goes first and takes the one free node, though its id is higher.
    avail = np.array([0, 1, 0], dtype=np.int64)
    rows = [(1, 10.0, 0.0, 0.0, 2), (1, 5.0, 5.0, 0.0, 1)]
    assert _board_starts(10, 1, rows, avail, [0, 0, 0]) == ([0], [1])
    assert avail.tolist() == [0, 0, 0]  # its node taken
    # Same threshold and submit time: the lower id (row 1) first.
    rows = [(1, 10.0, 0.0, 0.0, 2), (1, 10.0, 0.0, 0.0, 1)]
    assert _board_starts(10, 1, rows, np.array([0, 1, 0]), [0, 0, 0]) == ([1], [1])
    # A higher threshold first whatever the submit time: job 3 has waited 20 s on a
    # 4 s estimate (threshold 6) against job 4's 2.
    rows = [(1, 10.0, 0.0, 0.0, 4), (1, 4.0, 6.0, 0.0, 3)]
    assert _board_starts(30, 1, rows, np.array([1, 0, 0]), [0, 0, 0]) == ([1], [0])


def test_the_compiled_board_pass_places_off_homes_and_resumes_on_a_home_still_free() -> None:
    # Four free nodes; node 0 is a suspended job's home (avoid). Queued job 7 (2 nodes,
    # threshold (10 - 0 + 1) / 1 = 11) goes first, off the home: nodes 1 and 2. The
    # suspended job 9 (home 0 and 3, threshold (10 - 0 - 4 + 2) / 2 = 4) then finds
    # its home free and resumes on it; queued job 8 (1 node, threshold 1) finds none.
    avail = np.array([1, 1, 1, 1], dtype=np.int64)
    rows = [(2, 1.0, 0.0, 0.0, 7), (1, 5.0, 10.0, 0.0, 8)]
    homes = [(2, 2.0, 0.0, 4.0, 9, [0, 3])]
    picks, nodes = _board_starts(10, 4, rows, avail, [1, 0, 0, 1], homes)
    assert (picks, nodes) == ([0, 2 + 0], [1, 2])  # row 0, then slot 0 (after the 2 rows)
    assert avail.tolist() == [0, 0, 0, 0]
    # With a node of its home taken first, the suspended job stays: job 7 (3 nodes
    # now) must take a home node, as no three others are free: the lowest, node 0.
    rows = [(3, 1.0, 0.0, 0.0, 7)]
    picks, nodes = _board_starts(10, 4, rows, np.array([1, 1, 1, 1]), [1, 0, 0, 1], homes)
    assert (picks, nodes) == ([0], [0, 1, 2])
    # Two suspended jobs of one node, homes 0 (threshold 4) and 3 ((10 - 4 + 4) / 4 =
    # 2.5). Job 7 takes node 0 as above: the first stays though a core is left, and
    # the second (slot 1, after the one row) resumes on node 3.
    homes = [(1, 2.0, 0.0, 4.0, 9, [0]), (1, 4.0, 0.0, 4.0, 10, [3])]
    picks, nodes = _board_starts(10, 4, rows, np.array([1, 1, 1, 1]), [1, 0, 0, 1], homes)
    assert (picks, nodes) == ([0, 1 + 1], [0, 1, 2])
