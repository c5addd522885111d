"""Selective Suspension's rule: ``ss`` against ``ss-plain``, and the rules on hand-built views.

The first part checks that the accelerated SS (`schedsim.policies.selective_suspension.fast`,
``ss``) makes the schedule of the plain rule (`schedsim.policies.selective_suspension.rule`,
``ss-plain``, a pass at every tick and nothing skipped), job table and
piece log alike: on random small workloads (hypothesis, the strategies of
`test_invariants`: one or several cores per node, integral or fractional
times, jobs killed at their estimate or not, with or without a suspension
overhead) for each width rule and several suspension factors and
intervals, on denser random workloads and on slices of the KTH trace. TSS
(``tss``) is checked the same way against the plain rule carrying TSS's
protection (`PlainTSS`). Every plain schedule is put through
`invariants.check_invariants` and `invariants.check_preemption`.

The second part gives SS's rule, TSS and IS hand-built views
(`JobView.of`, `View.of`; no simulation) and checks, worked out by hand
from the thesis's definitions (seed 000: xfactor 2.2, SS 3.2-3.3, TSS 3.5,
IS 2.3), which jobs a pass suspends, starts and resumes. Thresholds are
written τ; a job's τ is (wait + estimate) / estimate, constant while it runs.
The plain rule takes any view as it comes; the accelerated classes assume
they saw every earlier pass, so they get whole histories, or a first pass
that brings an event.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schedsim import Simulation
from schedsim.model.cluster import Allocation
from schedsim.model.overhead import MemoryOverhead
from schedsim.model.policy import Decision, Policy, Resume, Start, Suspend, WakeAt
from schedsim.model.view import JobView, Outcome, State, View
from schedsim.policies.immediate import ImmediateService, instantaneous_xfactor
from schedsim.policies.selective_suspension.fast import SelectiveSuspension
from schedsim.policies.selective_suspension.plain import PlainSelectiveSuspension
from schedsim.policies.selective_suspension.rule import (
    Width,
    candidates,
    choose_victims,
    idle_threshold,
    is_tick,
    next_tick,
    width_rule,
)
from schedsim.policies.selective_suspension.tunable import (
    PlainTunableSelectiveSuspension,
    TunableSelectiveSuspension,
    category,
)
from schedsim.workloads.catalog import load
from schedsim.workloads.job import Job
from schedsim.workloads.transforms import first
from schedsim.workloads.workload import Workload

from invariants import check_invariants, check_preemption, record_holdings
from test_invariants import Case, cases, random_workload

#: TSS's protection on the plain rule: the reference ``tss`` is checked against.
PlainTSS = PlainTunableSelectiveSuspension


#: The simple overhead model of the tests: 10 s to write a job out, 5 s to read it back.
def fixed_overhead(job: Job) -> tuple[float, float]:
    return (10.0, 5.0)


OVERHEADS = {"none": None, "fixed": fixed_overhead, "memory": MemoryOverhead()}

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --------------------------------------------------------------------------- #
# ss and tss make the plain rule's schedules
# --------------------------------------------------------------------------- #

#: SS's parameters the random cases draw from.
PARAMS = st.fixed_dictionaries(
    {
        "sf": st.sampled_from([1.0, 1.2, 1.5, 2.0, 5.0]),
        "interval": st.sampled_from([60.0, 13.0, 7.5]),
        "width": st.sampled_from(["text", "formula", "none"]),
    }
)
#: (accelerated policy, its plain reference)
PAIRS: dict[str, tuple[type[Policy], type[Policy]]] = {
    "ss": (SelectiveSuspension, PlainSelectiveSuspension),
    "tss": (TunableSelectiveSuspension, PlainTSS),
}


def same_schedule(
    workload: Workload,
    nodes: int,
    params: dict,
    *,
    pair: str = "ss",
    cores_per_node: int = 1,
    overhead: str = "none",
    kill_at_estimate: bool = True,
) -> pd.DataFrame:
    """Run the accelerated policy and its plain reference; assert they make one schedule.

    SF = 1 with an overhead is refused (`check_progress`): both must say so.
    The plain run is also checked against every invariant (but with the memory
    overhead, whose fractional costs the invariants' exact arithmetic on integral
    workloads does not expect). Returns its job table.
    """
    if params.get("sf") == 1.0 and overhead != "none":  # could suspend forever: refused
        for cls in PAIRS[pair]:
            sim = Simulation(
                workload,
                cls(**params),
                nodes=nodes,
                cores_per_node=cores_per_node,
                overhead=OVERHEADS[overhead],
            )
            with pytest.raises(ValueError, match="sf must be above 1 with a suspension overhead"):
                sim.run()
        return pd.DataFrame()
    results = []
    for cls in PAIRS[pair]:
        policy: Policy = cls(**params)
        sim = Simulation(
            workload,
            policy,
            nodes=nodes,
            cores_per_node=cores_per_node,
            overhead=OVERHEADS[overhead],
            kill_at_estimate=kill_at_estimate,
        )
        log = record_holdings(sim)
        result = sim.run()
        results.append(result)
    fast, plain = results
    cores = nodes * cores_per_node
    if overhead != "memory":
        check_invariants(plain, workload, cores)
        check_preemption(plain, log, cores)
    pd.testing.assert_frame_equal(fast.jobs, plain.jobs)
    assert fast.pieces is not None and plain.pieces is not None
    pd.testing.assert_frame_equal(fast.pieces, plain.pieces)
    return plain.jobs


def _run_case(case: Case, params: dict, pair: str, overhead: str, kill: bool) -> None:
    same_schedule(
        case.workload,
        case.cores // case.cores_per_node,
        params,
        pair=pair,
        cores_per_node=case.cores_per_node,
        overhead=overhead,
        kill_at_estimate=kill,
    )


OVERHEAD_NAMES = st.sampled_from(list(OVERHEADS))


@FAST
@given(cases(), PARAMS, OVERHEAD_NAMES, st.booleans())
def test_ss_makes_the_plain_schedule(case: Case, params: dict, overhead: str, kill: bool) -> None:
    _run_case(case, params, "ss", overhead, kill)


@settings(FAST, max_examples=30)
@given(cases(multicore=True), PARAMS, OVERHEAD_NAMES, st.booleans())
def test_ss_makes_the_plain_schedule_on_multicore_nodes(
    case: Case, params: dict, overhead: str, kill: bool
) -> None:
    _run_case(case, params, "ss", overhead, kill)


@pytest.mark.filterwarnings("ignore:overflow encountered in divide:RuntimeWarning")
@settings(FAST, max_examples=30)
@given(cases(integral=False), PARAMS, OVERHEAD_NAMES, st.booleans())
def test_ss_makes_the_plain_schedule_with_fractional_times(
    case: Case, params: dict, overhead: str, kill: bool
) -> None:
    _run_case(case, params, "ss", overhead, kill)


@settings(FAST, max_examples=40)
@given(cases(), PARAMS, OVERHEAD_NAMES, st.booleans())
def test_tss_makes_the_plain_schedule(case: Case, params: dict, overhead: str, kill: bool) -> None:
    _run_case(case, params, "tss", overhead, kill)


@settings(FAST, max_examples=20)
@given(cases(multicore=True), PARAMS, OVERHEAD_NAMES, st.booleans())
def test_tss_makes_the_plain_schedule_on_multicore_nodes(
    case: Case, params: dict, overhead: str, kill: bool
) -> None:
    _run_case(case, params, "tss", overhead, kill)


@pytest.mark.parametrize("width", ["text", "formula", "none"])
@pytest.mark.parametrize("seed", range(3))
def test_ss_makes_the_plain_schedule_on_denser_workloads(seed: int, width: str) -> None:
    nodes = (8, 16, 32)[seed]
    params = {"sf": (2.0, 1.5, 1.2)[seed], "width": width}
    jobs = same_schedule(random_workload(seed, 60, nodes), nodes, params)
    assert jobs["suspensions"].sum() > 0


@pytest.mark.parametrize("seed", range(2))
def test_tss_makes_the_plain_schedule_on_denser_workloads(seed: int) -> None:
    nodes = (8, 16)[seed]
    same_schedule(random_workload(10 + seed, 60, nodes), nodes, {"sf": 1.2}, pair="tss")


@pytest.fixture(scope="module")
def kth1500() -> Workload:
    return first(load("kth"), 1500)


#: Found by hypothesis: three jobs of zero estimate (threshold growing 1e9-fold a
#: second) on nodes 0-7, with a 10 s write-out and a 5 s read-back and a tick every
#: 7.5 s; at SF = 1 they suspended each other at every tick, none ever computing.
THRASH = [
    (9, 0.0, 369.8179933401405, 8, 0.0),
    (23, 0.0, 950.285709999924, 5, 0.0),
    (13, 972.6475495340402, 714.5428224120972, 3, 0.0),
    (21, 972.6475495340402, 160.90757186445617, 4, 0.0),
    (16, 1086.7653734629557, 1.1254808460112085e-280, 8, 521.5504157476657),
    (22, 1294.2184088644929, 0.0, 3, 1.175494351e-38),
]


@pytest.mark.parametrize("pair", ["ss", "tss"])
def test_sf_1_with_an_overhead_is_refused_and_above_1_ends(pair: str) -> None:
    workload = Workload.from_jobs([Job(*row) for row in THRASH], max_procs=10)
    params = {"sf": 1.0, "interval": 7.5, "width": "text"}
    for overhead in ("fixed", "memory"):  # refused whatever the overhead
        same_schedule(workload, 10, params, pair=pair, overhead=overhead, kill_at_estimate=False)
    jobs = same_schedule(
        workload, 10, params | {"sf": 1.2}, pair=pair, overhead="fixed", kill_at_estimate=False
    )
    assert (jobs["outcome"] == "completed").all() and jobs["suspensions"].sum() > 0
    # without an overhead SF = 1 is allowed: a job computes between two ticks
    same_schedule(workload, 10, params, pair=pair, kill_at_estimate=False)


@pytest.mark.parametrize(
    ("pair", "params"),
    [
        ("ss", {}),
        ("ss", {"sf": 1.5, "width": "formula"}),
        ("ss", {"sf": 1.0, "interval": 13, "width": "none"}),
        ("tss", {}),
        ("tss", {"limit": 1.0}),
    ],
    ids=["ss", "ss-formula", "ss-none", "tss", "tss-limit-1"],
)
def test_the_plain_schedule_on_kth(kth1500: Workload, pair: str, params: dict) -> None:
    # SF 1 suspends at nearly every tick (some 15,000 times on 600 jobs): fewer jobs.
    workload = first(kth1500, 600) if params.get("sf") == 1.0 else kth1500
    jobs = same_schedule(workload, 100, params, pair=pair)
    assert jobs["suspensions"].sum() > 0


def test_the_plain_schedule_on_kth_with_memory_overhead(kth1500: Workload) -> None:
    jobs = same_schedule(first(kth1500, 800), 100, {}, overhead="memory")
    assert jobs["overhead_time"].sum() > 0


def test_the_plain_schedule_on_kth_multicore(kth1500: Workload) -> None:
    workload = first(kth1500, 800)
    small = Workload.from_jobs([j for j in workload if j.size <= 100], max_procs=100)
    jobs = same_schedule(small, 50, {}, cores_per_node=2)
    assert jobs["suspensions"].sum() > 0


def test_the_plain_schedule_with_averages_from_a_file(kth1500: Workload, tmp_path: Path) -> None:
    # TSS with the category table of an earlier EASY run (the thesis's Table 2.3).
    workload = first(kth1500, 600)
    path = tmp_path / "easy.csv"
    Simulation(workload, "easy", nodes=100).run().category_table().to_csv(path)
    same_schedule(workload, 100, {"averages": str(path), "sf": 1.5}, pair="tss")


@pytest.mark.slow
@SLOW
@given(cases(), PARAMS, OVERHEAD_NAMES, st.booleans())
def test_ss_makes_the_plain_schedule_many(
    case: Case, params: dict, overhead: str, kill: bool
) -> None:
    _run_case(case, params, "ss", overhead, kill)


@pytest.mark.slow
@SLOW
@given(cases(multicore=True), PARAMS, OVERHEAD_NAMES, st.booleans())
def test_ss_makes_the_plain_schedule_on_multicore_nodes_many(
    case: Case, params: dict, overhead: str, kill: bool
) -> None:
    _run_case(case, params, "ss", overhead, kill)


@pytest.mark.slow
@SLOW
@given(cases(), PARAMS, OVERHEAD_NAMES, st.booleans())
def test_tss_makes_the_plain_schedule_many(
    case: Case, params: dict, overhead: str, kill: bool
) -> None:
    _run_case(case, params, "tss", overhead, kill)


# --------------------------------------------------------------------------- #
# Hand-built views
# --------------------------------------------------------------------------- #


def job(jid: int, submit: float, size: int, run: float, estimate: float | None = None) -> Job:
    """A job of ``size`` nodes running ``run`` seconds (estimate: exactly ``run`` by default)."""
    return Job(jid, float(submit), float(run), size, float(run if estimate is None else estimate))


def queued(j: Job) -> JobView:
    return JobView.of(j)


def running(j: Job, nodes: Sequence[int], start: float) -> JobView:
    """``j`` running on ``nodes`` since ``start`` (its first start): τ = (start - submit +
    estimate) / estimate."""
    return JobView.of(j, State.RUNNING, allocation=Allocation.on(list(nodes)), first_start=start)


def suspended(j: Job, home: Sequence[int], start: float, ran: float) -> JobView:
    """``j`` suspended on ``home`` after running ``ran`` seconds from ``start``."""
    return JobView.of(
        j,
        State.SUSPENDED,
        home=Allocation.on(list(home)),
        first_start=start,
        since=start + ran,
        run_time_done=ran,
        work_done=ran,
        suspensions=1,
    )


def done(view: JobView, at: float) -> JobView:
    """``view`` (running) ended at ``at``, having run since its start."""
    assert view.first_start is not None
    ran = at - view.first_start
    return view._replace(
        state=State.DONE,
        end=at,
        outcome=Outcome.COMPLETED,
        allocation=None,
        run_time_done=ran,
        work_done=ran,
        since=at,
    )


def acts(decisions: Sequence[Decision]) -> list[tuple[str, int, list[int] | None]]:
    """The suspensions, starts and resumes of a pass: ``(kind, job id, nodes started on)``."""
    out: list[tuple[str, int, list[int] | None]] = []
    for d in decisions:
        if isinstance(d, Suspend):
            out.append(("suspend", d.job.id, None))
        elif isinstance(d, Resume):
            out.append(("resume", d.job.id, None))
        elif isinstance(d, Start):
            assert d.allocation is not None
            out.append(("start", d.job.id, d.allocation.nodes.tolist()))
    return out


def timers(decisions: Sequence[Decision]) -> list[float]:
    return [d.time for d in decisions if isinstance(d, WakeAt)]


# -- the rule's functions --------------------------------------------------------


@pytest.mark.parametrize(
    ("width", "ni", "nj", "may"),
    [
        ("text", 1, 4, False),  # n_i >= n_j / 2 fails: narrow cannot suspend wide
        ("text", 2, 4, True),  # exactly half: allowed
        ("text", 4, 1, True),
        ("formula", 1, 4, True),  # n_i / n_j < 2
        ("formula", 2, 1, False),  # exactly 2: not below
        ("formula", 3, 2, True),
        ("none", 1, 400, True),
        ("none", 400, 1, True),
    ],
)
def test_width_rule(width: Width, ni: int, nj: int, may: bool) -> None:
    assert width_rule(width)(ni, nj) is may


def test_width_rule_must_be_known() -> None:
    with pytest.raises(ValueError, match="width"):
        width_rule("half")  # type: ignore[arg-type]


def test_ticks_are_the_multiples_of_the_interval() -> None:
    assert is_tick(120.0, 60.0) and is_tick(0.0, 60.0) and is_tick(15.0, 7.5)
    assert not is_tick(119.0, 60.0) and not is_tick(121.0, 60.0)
    assert next_tick(120.0, 60.0) == 180.0  # strictly after
    assert next_tick(119.5, 60.0) == 120.0
    assert next_tick(8.6e7 + 0.7, 13.0) == 13.0 * (int((8.6e7 + 0.7) // 13) + 1)


def test_idle_threshold_is_the_xfactor() -> None:
    # B (est 100) submitted at 10, never run: τ at 120 = (110 + 100) / 100.
    b = queued(job(2, 10, 1, 100))
    assert idle_threshold(b, 120.0) == pytest.approx(2.1)
    # Suspended after 300 s of run: the run is no wait. τ = (1200 - 0 - 300 + 1000) / 1000.
    s = suspended(job(3, 0, 1, 1000), [0], start=0, ran=300)
    assert idle_threshold(s, 1200.0) == pytest.approx(1.9)
    # A running job's xfactor only counts the wait before it ran.
    assert running(job(4, 0, 1, 1000), [0], 100).xfactor(5000.0) == pytest.approx(1.1)


def test_candidates_are_strictly_below_the_bar_and_allowed_by_width() -> None:
    # τ_i = 3, SF 2: candidates have τ_j < 1.5, not 1.5 itself; with the text rule a
    # 1-node job may not suspend one of 4 nodes.
    sizes = [(1, 1), (2, 4), (3, 1), (4, 1)]
    narrow, wide, equal, high = (running(job(k, 0, n, 1000), range(n), 0) for k, n in sizes)
    ladder = [(1.0, narrow), (1.2, wide), (1.5, equal), (1.6, high)]
    got = candidates(1, 3.0, ladder, 2.0, width_rule("text"))
    assert [r.id for r in got] == [1]
    got = candidates(1, 3.0, ladder, 2.0, width_rule("none"))
    assert [r.id for r in got] == [1, 2]
    # A protection (TSS) leaves a job out whatever its threshold.
    got = candidates(1, 3.0, ladder, 2.0, width_rule("none"), lambda r, t: r.id == 1)
    assert [r.id for r in got] == [2]


def test_victims_of_a_reentry_are_the_jobs_on_its_home() -> None:
    # S's home is nodes 2-3; X holds them, F holds 0-1. Both are candidates, but
    # only X is on the home: S suspends X alone. If X is no candidate, no re-entry.
    s = suspended(job(1, 0, 2, 1000), [2, 3], start=0, ran=120)
    f = running(job(2, 0, 2, 1000), [0, 1], 0)
    x = running(job(3, 0, 2, 1000), [2, 3], 0)
    avail = np.zeros(4, dtype=np.int64)
    rule = width_rule("text")
    got = choose_victims(s, 5.0, avail, [(1.0, f), (1.0, x)], 2.0, rule)
    assert got is not None and [v.id for v in got] == [3]
    assert choose_victims(s, 5.0, avail, [(1.0, f), (3.0, x)], 2.0, rule) is None


# -- SS on views -----------------------------------------------------------------

A = job(1, 0, 1, 1000)  # runs on node 0 from 0: τ_A = 1
B = job(2, 10, 1, 100)  # τ_B(t) = (t - 10 + 100) / 100, above 2 once t > 110


def one_node(now: float, *, interval_timer: bool = False) -> View:
    """A running on node 0 since 0, B queued (arrived at 10)."""
    return View.of(
        now,
        1,
        running=[running(A, [0], 0)],
        queue=[queued(B)],
        timers=frozenset({now}) if interval_timer else frozenset(),
    )


def test_plain_ss_suspends_at_a_tick_past_sf() -> None:
    # At 120, a tick, τ_B = 2.1 > 2 x τ_A: B suspends A and starts on its node.
    # A is idle now: the routine runs again at 180.
    out = PlainSelectiveSuspension().schedule(one_node(120.0))
    assert acts(out) == [("suspend", 1, None), ("start", 2, [0])]
    assert timers(out) == [180.0]


@pytest.mark.parametrize("now", [115.0, 119.0, 150.0])
def test_plain_ss_does_not_preempt_between_ticks(now: float) -> None:
    # τ_B > 2 already, but only the routine preempts: the pass asks for the next tick.
    out = PlainSelectiveSuspension().schedule(one_node(now))
    assert acts(out) == []
    assert timers(out) == [next_tick(now, 60.0)]


def test_plain_ss_needs_more_than_sf_times() -> None:
    # Interval 55: at 110, a tick, τ_B is exactly 2 x τ_A: not above. At 165 it is.
    policy = PlainSelectiveSuspension(interval=55)
    assert acts(policy.schedule(one_node(110.0))) == []
    assert acts(policy.schedule(one_node(165.0))) == [("suspend", 1, None), ("start", 2, [0])]


def test_plain_ss_sf_sets_the_bar() -> None:
    # With SF 5, τ_B = 2.1 is far from 5 x 1: B waits.
    assert acts(PlainSelectiveSuspension(sf=5).schedule(one_node(120.0))) == []


@pytest.mark.parametrize("cls", [SelectiveSuspension, PlainSelectiveSuspension])
def test_ss_and_the_plain_rule_over_a_history(cls: type[Policy]) -> None:
    # The same passes as a run would bring each: A arrives at 0 and starts; B
    # arrives at 10 and waits. The plain rule asks for every tick (60, 120); the
    # accelerated one plans the first tick at which B can preempt: τ_B > 2 after
    # 110, so 120. At 120 both suspend A for B.
    policy = cls()
    assert acts(policy.schedule(View.of(0.0, 1, queue=[queued(A)]))) == [("start", 1, [0])]
    second = policy.schedule(View.of(10.0, 1, running=[running(A, [0], 0)], queue=[queued(B)]))
    assert acts(second) == []
    if cls is PlainSelectiveSuspension:
        assert timers(second) == [60.0]
        assert acts(policy.schedule(one_node(60.0, interval_timer=True))) == []
    else:
        assert timers(second) == [120.0]
    out = policy.schedule(one_node(120.0, interval_timer=True))
    assert acts(out) == [("suspend", 1, None), ("start", 2, [0])]


@pytest.mark.parametrize(
    ("width", "runner", "waiter", "suspends"),
    [
        ("text", 4, 1, False),  # n_i >= n_j / 2 fails: narrow cannot suspend wide
        ("formula", 4, 1, True),  # n_i / n_j < 2 holds
        ("none", 4, 1, True),
        ("text", 1, 4, True),  # wide suspends narrow under the text ...
        ("formula", 1, 4, False),  # ... but not under the formula (4 / 1 >= 2)
        ("text", 2, 1, True),  # n_i = n_j / 2 exactly: allowed by the text
        ("formula", 1, 2, False),  # n_i / n_j = 2 exactly: not below 2
    ],
)
def test_plain_ss_width_restriction(width: Width, runner: int, waiter: int, suspends: bool) -> None:
    # The machine is as wide as the wider of the two: W (`waiter` nodes, τ 2.1 at
    # 120) can only run by suspending R (`runner` nodes from node 0, τ 1).
    nodes = max(runner, waiter)
    r = running(job(1, 0, runner, 1000), range(runner), 0)
    w = queued(job(2, 10, waiter, 100))
    out = PlainSelectiveSuspension(width=width).schedule(
        View.of(120.0, nodes, running=[r], queue=[w])
    )
    if suspends:
        assert acts(out) == [("suspend", 1, None), ("start", 2, list(range(waiter)))]
    else:
        assert acts(out) == []


def _ladder_of_runners(sizes: list[int]) -> list[JobView]:
    # Runners of 1000 s started at 100 after arriving at 0, 50, 90, 95: τ 1.1,
    # 1.05, 1.01, 1.005, on consecutive nodes from 0.
    out, node = [], 0
    for k, (size, submit) in enumerate(zip(sizes, (0, 50, 90, 95), strict=False)):
        out.append(running(job(2 + k, submit, size, 1000), range(node, node + size), 100))
        node += size
    return out


@pytest.mark.parametrize("cls", [PlainSelectiveSuspension, SelectiveSuspension])
def test_ss_suspends_a_minimal_set_lowest_thresholds_first(
    cls: type[Policy],
) -> None:
    # Four nodes, four 1-node runners (τ 1.1, 1.05, 1.01, 1.005). N (2 nodes, est
    # 10, at 200) has τ 5 at 240, a tick: all are candidates (τ < 2.5). It takes the
    # two of lowest τ, 5 then 4, and runs on their nodes 2-3. (The accelerated
    # policy's first pass brings an event: a job ended at 240.)
    n = queued(job(9, 200, 2, 10))
    gone = done(running(job(1, 0, 1, 10), [0], 0), 10.0)
    view = View.of(240.0, 4, running=_ladder_of_runners([1, 1, 1, 1]), queue=[n], ended=[gone])
    assert acts(cls().schedule(view)) == [
        ("suspend", 5, None),
        ("suspend", 4, None),
        ("start", 9, [2, 3]),
    ]


def test_plain_ss_leaves_out_a_victim_the_others_make_up_for() -> None:
    # Runners 2 (τ 1.1, node 0), 3 (1.05, nodes 1-2), 4 (1.01, node 3). N needs 2
    # nodes: 4 alone is not enough, 4 and 3 are, and then 4 can be left out.
    n = queued(job(9, 200, 2, 10))
    view = View.of(240.0, 4, running=_ladder_of_runners([1, 2, 1]), queue=[n])
    assert acts(PlainSelectiveSuspension().schedule(view)) == [
        ("suspend", 3, None),
        ("start", 9, [1, 2]),
    ]


S = job(1, 0, 2, 1000)  # suspended on nodes 2-3 after 120 s: τ_S(t) = (t + 880) / 1000
X = job(3, 150, 2, 2000)  # on S's home since 220: τ_X = (70 + 2000) / 2000 = 1.035


def test_plain_ss_reentry_suspends_only_the_jobs_on_its_home() -> None:
    # At 1200, a tick, τ_S = 2.08 > 2 x 1.035: S suspends X (on its home) and
    # resumes there; F (τ 1, nodes 0-1) is a candidate too, but not on its home.
    f = running(job(2, 0, 2, 5000), [0, 1], 0)
    view = View.of(
        1200.0,
        4,
        running=[f, running(X, [2, 3], 220)],
        suspended=[suspended(S, [2, 3], start=0, ran=120)],
    )
    assert acts(PlainSelectiveSuspension().schedule(view)) == [
        ("suspend", 3, None),
        ("resume", 1, None),
    ]


def test_plain_ss_reentry_waits_for_its_own_nodes() -> None:
    # At 1140, a tick, τ_S = 2.02 < 2 x 1.035 = 2.07: nodes 0-1 are free, but a
    # suspended job resumes only on its home. Nothing happens; the routine runs on.
    view = View.of(
        1140.0, 4, running=[running(X, [2, 3], 220)], suspended=[suspended(S, [2, 3], 0, 120)]
    )
    out = PlainSelectiveSuspension().schedule(view)
    assert acts(out) == [] and timers(out) == [1200.0]


@pytest.mark.parametrize(("size", "nodes"), [(1, [2]), (2, [2, 3]), (3, [1, 2, 3])])
def test_plain_ss_places_fresh_jobs_off_suspended_homes(size: int, nodes: list[int]) -> None:
    # S's home is nodes 0-1; Y holds node 0, so S cannot re-enter (τ_S 1.2 is no
    # match for τ_Y 1 x 2); nodes 1-3 are free. A fresh job keeps off node 1 while
    # nodes 2-3 are enough.
    s = suspended(job(1, 0, 2, 1000), [0, 1], start=0, ran=100)
    y = running(job(2, 0, 1, 10_000), [0], 0)
    q = queued(job(3, 300, size, 100))
    view = View.of(300.0, 4, running=[y], suspended=[s], queue=[q])
    assert acts(PlainSelectiveSuspension().schedule(view)) == [("start", 3, nodes)]


@pytest.mark.parametrize("cls", [PlainSelectiveSuspension, SelectiveSuspension])
@pytest.mark.parametrize(("hold", "nodes"), [("none", [1]), ("top", [3]), ("all", None)])
def test_held_homes_of_the_top_or_every_suspended_job(
    cls: type[PlainSelectiveSuspension], hold: str, nodes: list[int] | None
) -> None:
    # At 1030 (no tick): S1 (τ 1.93, home 0-1) and S2 (τ 1.465, home 2-3) cannot
    # re-enter, R1 and R2 holding nodes 0 and 2; nodes 1 and 3 are free, both homes.
    # Q (1 node, τ 1.03) comes last. hold="none": Q takes node 1, first fit; "top":
    # node 1 waits for S1, which heads the idle jobs, and Q takes node 3; "all":
    # node 3 waits for S2 as well, ranked above Q, and Q waits for the next tick.
    s1 = suspended(job(1, 0, 2, 1000), [0, 1], start=0, ran=100)
    s2 = suspended(job(2, 0, 2, 2000), [2, 3], start=0, ran=100)
    r1 = running(job(3, 100, 1, 10_000), [0], 100)
    r2 = running(job(4, 100, 1, 10_000), [2], 100)
    q = queued(job(5, 1000, 1, 1000))
    view = View.of(1030.0, 4, running=[r1, r2], suspended=[s1, s2], queue=[q])
    out = cls(hold=hold).schedule(view)  # type: ignore[arg-type]
    assert acts(out) == ([] if nodes is None else [("start", 5, nodes)])
    if nodes is None:
        assert timers(out) == [1080.0]


def test_plain_ss_starts_in_decreasing_threshold_without_reservations() -> None:
    # Two free nodes, at 100: Q3 (1 node, τ 2) comes first and starts on node 0;
    # Q1 (2 nodes, τ 1.5) no longer fits and holds no reservation; Q2 (1 node,
    # τ 1.1) takes node 1.
    q1 = queued(job(1, 0, 2, 200))  # (100 + 200) / 200 = 1.5
    q2 = queued(job(2, 0, 1, 1000))  # (100 + 1000) / 1000 = 1.1
    q3 = queued(job(3, 50, 1, 50))  # (50 + 50) / 50 = 2
    out = PlainSelectiveSuspension().schedule(View.of(100.0, 2, queue=[q1, q2, q3]))
    assert acts(out) == [("start", 3, [0]), ("start", 2, [1])]


# -- TSS on views ----------------------------------------------------------------


def test_category_is_table_2_1() -> None:
    assert category(600.0, 1) == 0  # VS Seq (bounds inclusive)
    assert category(601.0, 2) == 5  # S N
    assert category(3601.0, 32) == 10  # L W
    assert category(8 * 3600.0 + 1, 33) == 15  # VL VW


def write_averages(path: Path, s_seq: float) -> Path:
    """A category table (Result.category_table's layout) with S/Seq at ``s_seq``, 100 elsewhere."""
    table = pd.DataFrame(
        100.0,
        index=pd.Index(["VS", "S", "L", "VL"], name="runtime"),
        columns=pd.Index(["Seq", "N", "W", "VW"], name="size"),
    )
    table.loc["S", "Seq"] = s_seq
    table.to_csv(path)
    return path


@pytest.mark.parametrize(("s_seq", "suspends"), [(0.5, False), (10.0, True)])
def test_plain_tss_leaves_a_job_past_its_limit_alone(
    tmp_path: Path, s_seq: float, suspends: bool
) -> None:
    # A (1000 s on 1 node: S/Seq by its estimate) runs at τ 1. With S/Seq's
    # average at 0.5, 1 > 1.5 x 0.5: A may not be suspended, B (τ 2.1) waits.
    # At 10, 1 < 15: B suspends A as under SS.
    policy = PlainTSS(averages=str(write_averages(tmp_path / "avg.csv", s_seq)))
    out = acts(policy.schedule(one_node(120.0)))
    assert out == ([("suspend", 1, None), ("start", 2, [0])] if suspends else [])


@pytest.mark.parametrize(
    ("cls", "suspends"),
    [
        (SelectiveSuspension, True),
        (TunableSelectiveSuspension, False),
        (PlainSelectiveSuspension, True),
        (PlainTSS, False),
    ],
)
def test_tss_online_averages_protect_a_job_beyond_its_category(
    cls: type[Policy], suspends: bool
) -> None:
    # P (700 s, S/Seq) ended at 700 with slowdown 1: S/Seq's online average is 1.
    # A (1000 s, S/Seq), waiting for P, started at 700: τ_A = 1.7 > 1.5 x 1, so TSS
    # protects it. B (est 100, at 730) has τ 3.9 > 2 x 1.7 at 1020, a tick: SS
    # suspends A, TSS leaves it be.
    p = done(running(job(9, 0, 1, 700), [0], 0), 700.0)
    a = running(job(1, 0, 1, 1000), [0], 700)
    b = queued(job(2, 730, 1, 100))
    view = View.of(1020.0, 1, running=[a], queue=[b], ended=[p])
    out = acts(cls().schedule(view))
    assert out == ([("suspend", 1, None), ("start", 2, [0])] if suspends else [])


def test_tss_tracks_averages_from_the_jobs_that_end() -> None:
    policy = TunableSelectiveSuspension()
    assert policy.average(category(700.0, 1)) == math.inf  # no limit yet
    p = done(running(job(9, 0, 1, 700), [0], 100), 800.0)  # waited 100: (100 + 700) / 700
    policy.schedule(View.of(800.0, 1, ended=[p]))
    assert policy.average(category(700.0, 1)) == pytest.approx(800 / 700)
    a = running(job(1, 0, 1, 1000), [0], 800)  # τ 1.8 > 1.5 x 8/7 = 1.71
    assert policy.protected(a, a.xfactor(900.0))
    assert not policy.protected(a, 1.7)


# -- IS on views -----------------------------------------------------------------

B3 = job(2, 0, 1, 3000)  # on node 0 from 100: instantaneous xfactor at 1000 (100 + 900) / 900
D3 = job(3, 50, 1, 3000)  # on node 1 from 100: (50 + 900) / 900, lower
C1 = job(4, 1000, 1, 1000)  # arrives at 1000


def test_is_arrival_suspends_the_lowest_instantaneous_xfactor() -> None:
    # No node free: C takes D's node for its slice, until 1600.
    b, d = running(B3, [0], 100), running(D3, [1], 100)
    assert b.instantaneous_xfactor(1000.0) > d.instantaneous_xfactor(1000.0)
    out = ImmediateService().schedule(View.of(1000.0, 2, running=[b, d], queue=[queued(C1)]))
    assert acts(out) == [("suspend", 3, None), ("start", 4, [1])]
    assert timers(out) == [1600.0]


def test_is_gives_the_processors_back_when_the_slice_ends() -> None:
    # Continuing: at 1600 C's slice ends and D is still suspended: C is suspended
    # and D resumes on its node. No slice is left: no timer.
    policy = ImmediateService()
    b, d = running(B3, [0], 100), running(D3, [1], 100)
    policy.schedule(View.of(1000.0, 2, running=[b, d], queue=[queued(C1)]))
    c = running(C1, [1], 1000)
    d_out = suspended(D3, [1], start=100, ran=900)
    out = policy.schedule(
        View.of(1600.0, 2, running=[b, c], suspended=[d_out], timers=frozenset({1600.0}))
    )
    assert acts(out) == [("suspend", 4, None), ("resume", 3, None)]
    assert timers(out) == []


def test_is_job_in_its_slice_is_not_suspended() -> None:
    # A starts at 0 on the free node: its slice runs until 600. B arrives at 100:
    # A is in its slice, so B gets none and waits.
    policy = ImmediateService()
    a = job(1, 0, 1, 1000)
    first_pass = policy.schedule(View.of(0.0, 1, queue=[queued(a)]))
    assert acts(first_pass) == [("start", 1, [0])] and timers(first_pass) == [600.0]
    b = queued(job(2, 100, 1, 100))
    out = policy.schedule(View.of(100.0, 1, running=[running(a, [0], 0)], queue=[b]))
    assert acts(out) == [] and timers(out) == [600.0]
    # At 600 the slice ends with nobody displaced: A runs on; only arrivals preempt.
    end = policy.schedule(View.of(600.0, 1, running=[running(a, [0], 0)], queue=[b]))
    assert acts(end) == [] and timers(end) == []


@pytest.mark.parametrize("fresh", [False, True])
def test_is_idle_jobs_start_by_instantaneous_xfactor(fresh: bool) -> None:
    # Node 0 is free at 2000; D and G were both suspended on it. D (submitted at
    # 50, ran 900 s) has an instantaneous xfactor of 1950 / 900 = 2.17, G (at 0,
    # ran 1500 s) 2000 / 1500 = 1.33: D resumes. A queued job E has not run
    # (infinite): with E there, E takes the node and nobody resumes.
    d = suspended(D3, [0], start=100, ran=900)
    g = suspended(job(7, 0, 1, 3000), [0], start=0, ran=1500)
    e = queued(job(5, 1900, 1, 100))
    assert instantaneous_xfactor(d, 2000.0) == pytest.approx(1950 / 900)
    assert instantaneous_xfactor(g, 2000.0) == pytest.approx(2000 / 1500)
    assert instantaneous_xfactor(e, 2000.0) == math.inf
    blocker = running(job(6, 0, 1, 10_000), [1], 1600)
    view = View.of(2000.0, 2, running=[blocker], suspended=[g, d], queue=[e] if fresh else [])
    out = acts(ImmediateService().schedule(view))
    assert out == ([("start", 5, [0])] if fresh else [("resume", 3, None)])


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("width", ["text", "formula", "none"])
def test_shared_home_bar_is_what_home_victims_needs(seed: int, width: str) -> None:
    """On nodes of several cores, a suspended job's bar (`kernels.home_bars_shared`, what
    `ticks.Ladder` plans with) is exact: just above SF times it the re-entry of
    `preemption.home_victims` succeeds, at SF times it does not (or never, at inf)."""
    from schedsim.policies.preemption import home_victims
    from schedsim.policies.selective_suspension import kernels
    from schedsim.policies.selective_suspension.rule import running_order, width_rule

    rng = np.random.default_rng(seed)
    nodes, cores, sf = 6, 4, 2.0
    free = np.full(nodes, cores, dtype=np.int64)
    runs: list[tuple[float, JobView]] = []
    for jid in range(1, 6):
        take = np.minimum(free, rng.integers(0, 3, nodes))
        if not take.any():
            continue
        on = np.flatnonzero(take)
        j = job(jid, float(rng.integers(0, 50)), int(take.sum()), 100.0)
        view = JobView.of(j, State.RUNNING, allocation=Allocation(on, take[on]), first_start=0.0)
        free -= take
        runs.append((float(rng.integers(1, 6)), view))
    runs.sort(key=running_order)
    home_nodes = np.flatnonzero(rng.integers(0, 2, nodes)) if seed % 7 else np.arange(nodes)
    if not len(home_nodes):
        home_nodes = np.array([0])
    home = Allocation(home_nodes, rng.integers(1, cores + 1, len(home_nodes)))
    size = int(home.cores.sum())
    allocs = [r.allocation for _, r in runs]
    starts = np.zeros(len(runs) + 1, dtype=np.int64)
    np.cumsum([len(a.nodes) for a in allocs], out=starts[1:])  # type: ignore[union-attr]
    empty = np.zeros(0, dtype=np.int64)
    bar = kernels.home_bars_shared(
        free,
        np.concatenate([a.nodes for a in allocs] or [empty]),  # type: ignore[union-attr]
        np.concatenate([a.cores for a in allocs] or [empty]),  # type: ignore[union-attr]
        starts, np.array([t for t, _ in runs]), np.array([r.size for _, r in runs]),
        home.nodes, home.cores.astype(np.int64), np.array([0, len(home.nodes)]),
        np.array([size]), kernels.RULES[width],
    )[0]  # fmt: skip
    may = width_rule(width)  # type: ignore[arg-type]

    def reenters(tau: float) -> bool:
        allowed = {r.id for t, r in runs if t < tau / sf and may(size, r.size)}
        got = home_victims(home, free, (r for _, r in runs), lambda r: r.id in allowed)
        return got is not None

    if (free[home.nodes] >= home.cores).all():
        assert bar == 0.0
    elif math.isinf(bar):
        assert not reenters(1e12)
    else:
        assert reenters(sf * bar * (1 + 1e-9)) and not reenters(sf * bar)
