"""CREASY (seed 002 section 2): Equations 1 and 2, the queue order, and alpha = 0 being EASY.

Units throughout (see `schedsim.policies.creasy.policy`): response and waiting times in
minutes, criticality = |dp/drt| of Equation 1 in 1/min, alpha in min^2,
so alpha * criticality is minutes of seniority.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedsim import Simulation
from schedsim.app import registry
from schedsim.model.cluster import Allocation
from schedsim.model.policy import View
from schedsim.model.view import JobView, State
from schedsim.policies.creasy import kernels
from schedsim.policies.creasy import policy as creasy
from schedsim.policies.creasy.policy import CREASY, criticality, priority
from schedsim.workloads.catalog import load
from schedsim.workloads.job import Job
from schedsim.workloads.transforms import first
from schedsim.workloads.users import continue_probability
from schedsim.workloads.workload import Workload

from invariants import check_invariants
from test_invariants import FAST, OVERFLOW, Case, Pass, _easy_pass_keeps_reservation, cases

# --------------------------------------------------------------------------- #
# Equations 1 and 2 on hand-computed values
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(
    ("rt", "p", "crit"),
    [
        # p = 0.8 / (0.05 rt + 1); |dp/drt| = 0.04 / (0.05 rt + 1)^2
        (0.0, 0.8, 0.04),  # denominator 1
        (20.0, 0.4, 0.01),  # denominator 2
        (60.0, 0.2, 0.0025),  # denominator 4
        (180.0, 0.08, 0.0004),  # denominator 10
    ],
)
def test_equation_1_and_its_derivative(rt: float, p: float, crit: float) -> None:
    assert continue_probability(60 * rt) == pytest.approx(p, rel=1e-12)
    assert criticality(rt) == pytest.approx(crit, rel=1e-12)


@pytest.mark.parametrize("rt", [0.5, 3.0, 20.0, 117.0, 2000.0])
def test_criticality_is_minus_the_derivative_of_equation_1(rt: float) -> None:
    h = 1e-4
    slope = (continue_probability(60 * (rt + h)) - continue_probability(60 * (rt - h))) / (2 * h)
    assert slope < 0
    assert criticality(rt) == pytest.approx(-slope, rel=1e-6)


def _queued(jid: int, submit: float, estimate: float, size: int = 1) -> JobView:
    return JobView.of(Job(jid, submit, estimate, size, estimate))


@pytest.mark.parametrize(
    ("submit", "estimate", "now", "alpha", "expected"),
    [
        # Waited 10 min, estimate 10 min: rt = 20, criticality 0.01; 3000 * 0.01 + 10.
        (0.0, 600.0, 600.0, 3000.0, 40.0),
        # The same job at alpha 0: seniority alone, 10 minutes.
        (0.0, 600.0, 600.0, 0.0, 10.0),
        # Just submitted, estimate 0: rt = 0, criticality 0.04; 6000 * 0.04 + 0 = 240.
        (1000.0, 0.0, 1000.0, 6000.0, 240.0),
        # Waited 60 min, estimate 120 min: rt = 180, criticality 0.0004; 1500 * 0.0004 + 60.
        (86_400.0, 7200.0, 90_000.0, 1500.0, 60.6),
        # Waited 30 s, estimate 3.5 min: rt = 4, 0.04 / 1.2^2 = 0.02777...; 4500 * that + 0.5.
        (0.0, 210.0, 30.0, 4500.0, 125.5),
    ],
)
def test_priority_by_hand(
    submit: float, estimate: float, now: float, alpha: float, expected: float
) -> None:
    assert priority(_queued(1, submit, estimate), now, alpha) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        # Waited 10 min, estimate 10 min: rt = 20 min. Minutes: 0.04 / 2^2 = 0.01, so
        # 3000 * 0.01 + 10 = 40. Seconds: rt = 1200 s, 0.04 / 61^2; hours: rt = 1/3 h,
        # 0.04 / (1 + 0.05/3)^2. Seniority stays in minutes (section 2).
        ("minutes", 40.0),
        ("seconds", 3000 * 0.04 / 61**2 + 10),
        ("hours", 3000 * 0.04 / (1 + 0.05 / 3) ** 2 + 10),
    ],
)
def test_priority_in_each_unit_of_equation_1(unit: str, expected: float) -> None:
    from schedsim.workloads.users import Continuation

    job = _queued(1, 0.0, 600.0)
    assert priority(job, 600.0, 3000.0, Continuation(unit=unit)) == pytest.approx(
        expected, rel=1e-12
    )  # type: ignore[arg-type]
    # The policy orders by the same priorities: a job of rt 2 min against one of rt 30 min.
    queue = (_queued(1, 0.0, 1800.0), _queued(2, 0.0, 120.0))
    policy = CREASY(3000.0, unit)  # type: ignore[arg-type]
    got = [j.id for j in policy.ordered(queue, 0.0)]
    eq = Continuation(unit=unit)  # type: ignore[arg-type]
    want = sorted(queue, key=lambda j: (-priority(j, 0.0, 3000.0, eq), j.submit, j.id))
    assert got == [j.id for j in want]


def test_equation_1_constants_and_unit_are_parameters_of_the_policy() -> None:
    # Constants: 0.6 / (0.1 rt + 1); criticality 0.06 / (0.1 * 20 + 1)^2 = 0.00667 at
    # rt 20 min: 3000 * that + 10 = 30.
    from schedsim.workloads.users import Continuation

    job = _queued(1, 0.0, 600.0)
    assert priority(job, 600.0, 3000.0, Continuation(0.6, 0.1)) == pytest.approx(30.0)
    params = registry.resolve_params("creasy", {"response_unit": "hours",
                                                "continue_slope": 0.1})  # fmt: skip
    policy = CREASY(**params)
    assert policy.params() == {"alpha": 6000.0, "response_unit": "hours", "continue_slope": 0.1}
    with pytest.raises(ValueError, match="response_unit"):
        registry.resolve_params("creasy", {"response_unit": "days"})
    with pytest.raises(ValueError, match="response_unit must be one of"):
        CREASY(6000.0, "days")  # type: ignore[arg-type]


def test_priority_of_a_short_job_falls_while_it_waits() -> None:
    # Section 4.2: "if short jobs wait for a long time in the queue, their priority
    # decreases". Estimate 1 min, alpha 6000: at wait 0, rt = 1: 240 / 1.05^2 = 217.69;
    # at wait 10, rt = 11: 240 / 1.55^2 + 10 = 109.89; at wait 60, rt = 61: 240 / 4.05^2
    # + 60 = 74.63. A long job (estimate 600 min) gains: 240 / 31^2 = 0.25 at wait 0,
    # 240 / 34^2 + 60 = 60.21 at wait 60.
    short, long_ = _queued(1, 0.0, 60.0), _queued(2, 0.0, 36_000.0)
    assert priority(short, 0.0, 6000.0) == pytest.approx(240 / 1.05**2)
    assert priority(short, 600.0, 6000.0) == pytest.approx(240 / 1.55**2 + 10)
    assert priority(short, 3600.0, 6000.0) == pytest.approx(240 / 4.05**2 + 60)
    assert priority(long_, 0.0, 6000.0) == pytest.approx(240 / 31**2)
    assert priority(long_, 3600.0, 6000.0) == pytest.approx(240 / 34**2 + 60)


# --------------------------------------------------------------------------- #
# The queue order
# --------------------------------------------------------------------------- #


def test_order_highest_priority_first_ties_by_submit_then_id() -> None:
    # now = 600. Job 5 (submit 0, est 100 min): wait 10, rt 110, 0.04 / 6.5^2 = 0.000947;
    # alpha 3000: 2.84 + 10 = 12.84. Jobs 3 and 2 (submit 300, est 5 min): wait 5, rt 10,
    # 0.04 / 1.5^2 = 0.01778: 53.33 + 5 = 58.33, equal, so by id. Job 4 (submit 0, est
    # 10 min): wait 10, rt 20: 30 + 10 = 40.
    queue = (_queued(5, 0.0, 6000.0), _queued(4, 0.0, 600.0))
    queue += (_queued(2, 300.0, 300.0), _queued(3, 300.0, 300.0))
    assert [j.id for j in CREASY(3000.0).ordered(queue, 600.0)] == [2, 3, 4, 5]
    # At alpha 0: waiting time alone, i.e. submit order, then id.
    assert [j.id for j in CREASY(0.0).ordered(queue, 600.0)] == [4, 5, 2, 3]


@given(
    st.lists(
        st.tuples(
            st.integers(0, 5000).map(float) | st.floats(0, 5000, allow_nan=False),
            st.sampled_from([-5.0, 1.0, 60.0, 300.0, 3600.0]) | st.floats(0.5, 1e5),
        ),
        min_size=0,
        max_size=30,
    ),
    st.sampled_from([0.0, 1500.0, 6000.0, 12345.6]),
)
def test_vectorised_order_equals_sorting_by_priority(rows, alpha) -> None:
    queue = tuple(_queued(i + 1, sub, est) for i, (sub, est) in enumerate(rows))
    now = 5000.0 + 17.25
    expected = sorted(queue, key=lambda j: (-priority(j, now, alpha), j.submit, j.id))
    assert [j.id for j in CREASY(alpha).ordered(queue, now)] == [j.id for j in expected]


@contextmanager
def _budget(passes: int) -> Iterator[None]:
    """CREASY's passes compiled once this process has made ``passes`` in Python (0: from
    the first; a huge number: never), as before after."""
    budget, spent = creasy.PYTHON_BUDGET, creasy._spent
    creasy.PYTHON_BUDGET, creasy._spent = passes, 0
    try:
        yield
    finally:
        creasy.PYTHON_BUDGET, creasy._spent = budget, spent


# A negative estimate is odd but accepted (the job is killed at once): read as it is.
_ESTIMATES = st.sampled_from([-5.0, 0.0, 60.0, 600.0, 3600.0]) | st.floats(0.0, 1e5)


@settings(max_examples=300, deadline=None)  # the first example loads numba
@given(
    st.lists(  # waiting jobs: cores, submit time, estimate
        st.tuples(st.integers(1, 8), st.integers(0, 5000).map(float), _ESTIMATES),
        max_size=25,
    ),
    st.lists(  # running jobs: cores, estimate, started how long ago (some overrun)
        st.tuples(
            st.integers(1, 2),
            _ESTIMATES,
            st.sampled_from([0.0, 1.0, 60.0, 600.0]) | st.floats(0.0, 2e4),
        ),
        max_size=4,
    ),
    st.sampled_from([0.0, 1500.0, 6000.0]),
    st.sampled_from(["minutes", "seconds", "hours"]),
)
def test_a_compiled_pass_decides_as_the_pass_in_python(rows, running, alpha, unit) -> None:
    # `kernels.creasy_pass` must start the same jobs, in the same order, and reserve the
    # same job at the same shadow time as EASY's pass in Python over the queue in
    # `ordered`'s order: ties in the running jobs' ends, overrun jobs (planned a grace
    # on), and starts estimated at 0 seconds included.
    now = 5000.0 + 17.25
    queue = [_queued(i + 1, sub, est, size) for i, (size, sub, est) in enumerate(rows)]
    busy, node = [], 0
    for k, (size, est, ago) in enumerate(running):
        job = Job(1000 + k, 0.0, est, size, est)
        nodes = list(range(node, node + size))
        busy.append(
            JobView.of(job, State.RUNNING, allocation=Allocation.on(nodes), first_start=now - ago)
        )
        node += size
    view = View.of(now, 8, running=busy, queue=queue)
    compiled, python = CREASY(alpha, unit), CREASY(alpha, unit)
    with _budget(0):
        started = [d.job.id for d in compiled.schedule(view)]
        assert creasy._spent == 0  # it went compiled: nothing counted
    with _budget(10**18):
        assert started == [d.job.id for d in python.schedule(view)]
    reserved = compiled.reservation
    expected = python.reservation
    assert (reserved and (reserved[0].id, reserved[1])) == (
        expected and (expected[0].id, expected[1])
    )


@settings(max_examples=300, deadline=None)  # the first example loads numba
@given(
    st.lists(  # waiting jobs: cores, submit time, estimate; few values, so many ties
        st.tuples(
            st.integers(1, 8),
            st.sampled_from([0.0, 60.0, 61.5, 3000.0]) | st.floats(0.0, 5000.0),
            st.sampled_from([60.0, 600.0, 3600.0]) | st.floats(0.5, 1e5),
        ),
        min_size=2,
        max_size=40,
    ),
    st.integers(0, 9),
    st.sampled_from([0.0, 1500.0, 6000.0, 12345.6]),
    st.sampled_from([5017.25, 86400.0 * 179 + 0.1]),
    st.sampled_from([("minutes", 0.8, 0.05), ("seconds", 0.8, 0.05), ("hours", 0.7, 0.1)]),
)
def test_the_compiled_scan_is_the_numpy_order_less_the_jobs_that_cannot_start(
    rows, free, alpha, now, equation
) -> None:
    # `kernels.creasy_scan` must pick the jobs that fit and the first of the others, in
    # exactly the order numpy's priorities give (`ordered`), ties included (equal
    # priorities go by submit time, then id).
    queue = tuple(_queued(i + 1, sub, est, size) for i, (size, sub, est) in enumerate(rows))
    view = View.of(now, 16, queue=queue)
    policy = CREASY(alpha, *equation)
    policy._sync(view)
    ordered = policy.ordered(view.queue, now)
    wide = [j.id for j in ordered if j.size > free][:1]
    queued = policy._queued
    reading = (policy._slope, policy._per_minute)
    picked = kernels.creasy_scan(*queued.columns(), now, alpha, policy._scale, free, *reading)
    compiled = [queued.jobs[k].id for k in picked.tolist()]
    assert compiled == [j.id for j in ordered if j.size <= free or j.id in wide]
    # The priorities themselves, bit for bit (an order rarely shows a last-bit difference).
    _, estimate, submit, done, _ = policy._queued.columns()
    wait = (now - submit - done) / creasy.MINUTE
    crit = criticality(wait + estimate / creasy.MINUTE, policy._slope, policy._scale,
                       policy._per_minute)  # fmt: skip
    prio = alpha * crit + wait
    keys = kernels.creasy_keys(estimate, submit, done, now, alpha, policy._scale, *reading)
    assert keys.tobytes() == (-prio).tobytes()


def test_creasy_passes_compiled_once_its_budget_of_passes_is_spent(monkeypatch) -> None:
    # The same run with the budget spent after 40 passes, and never: the same starts.
    jobs = [Job(i + 1, 30.0 * i, 600.0 + 50.0 * (i % 7), 1 + i % 4, 900.0) for i in range(200)]
    monkeypatch.setattr(creasy, "PYTHON_BUDGET", 10**12)
    monkeypatch.setattr(creasy, "_spent", 0)
    expected = _starts(jobs, 6, "creasy", alpha=3000.0)
    monkeypatch.setattr(creasy, "PYTHON_BUDGET", 40)
    monkeypatch.setattr(creasy, "_spent", 0)
    assert _starts(jobs, 6, "creasy", alpha=3000.0) == expected
    assert creasy._spent == 40


def _starts(jobs: list[Job], cores: int, policy: str, **params: float) -> dict[int, float]:
    w = Workload.from_jobs(jobs, max_procs=cores)
    result = Simulation(w, policy, nodes=cores, params=params or None).run()
    return dict(zip(result.jobs["id"], result.jobs["start"], strict=True))


def test_large_alpha_puts_a_critical_job_first() -> None:
    # 4 cores, every job takes all 4. R (1) runs [0, 600). L (2, est 100 min) arrives at
    # 60 s, S (3, est 1 min) at 120 s. At 600 R ends and one of them starts:
    #   L: wait 9 min, rt 109: 0.04 / 6.45^2 = 0.000961; 6000 * that + 9 = 14.77
    #   S: wait 8 min, rt 9:   0.04 / 1.45^2 = 0.019025; 6000 * that + 8 = 122.15
    # S starts at 600 and ends at 660, then L. At alpha 0 (EASY) the priorities are 9
    # and 8: L starts at 600 and S waits for it, until 6600.
    jobs = [
        Job(1, 0.0, 600.0, 4, 600.0),
        Job(2, 60.0, 6000.0, 4, 6000.0),
        Job(3, 120.0, 60.0, 4, 60.0),
    ]
    now = 600.0
    runs = {j.id: JobView.of(j) for j in jobs}
    assert priority(runs[2], now, 6000.0) == pytest.approx(6000 * 0.04 / 6.45**2 + 9)
    assert priority(runs[3], now, 6000.0) == pytest.approx(6000 * 0.04 / 1.45**2 + 8)
    assert _starts(jobs, 4, "creasy", alpha=6000.0) == {1: 0.0, 2: 660.0, 3: 600.0}
    assert _starts(jobs, 4, "creasy", alpha=0.0) == {1: 0.0, 2: 600.0, 3: 6600.0}
    assert _starts(jobs, 4, "easy") == {1: 0.0, 2: 600.0, 3: 6600.0}
    # The paper's smallest positive alpha is enough here: 1500 * 0.019025 + 8 = 36.5
    # against 1500 * 0.000961 + 9 = 10.4.
    assert _starts(jobs, 4, "creasy", alpha=1500.0) == {1: 0.0, 2: 660.0, 3: 600.0}


def test_seniority_beats_criticality_after_a_long_wait() -> None:
    # As above, but R runs 600 min and S arrives 1 min before R ends. At 36000:
    #   L: wait 599 min, rt 699: 0.04 / 35.95^2 = 3.095e-5; 6000 * that + 599 = 599.19
    #   S: wait 1 min, rt 2:     0.04 / 1.1^2  = 0.033058;  6000 * that + 1   = 199.35
    # L starts first although S is far more critical: no job can be worth more than
    # 6000 * 0.04 = 240 minutes of criticality.
    jobs = [
        Job(1, 0.0, 36_000.0, 4, 36_000.0),
        Job(2, 60.0, 6000.0, 4, 6000.0),
        Job(3, 35_940.0, 60.0, 4, 60.0),
    ]
    now = 36_000.0
    runs = {j.id: JobView.of(j) for j in jobs}
    assert priority(runs[2], now, 6000.0) == pytest.approx(6000 * 0.04 / 35.95**2 + 599)
    assert priority(runs[3], now, 6000.0) == pytest.approx(6000 * 0.04 / 1.1**2 + 1)
    assert _starts(jobs, 4, "creasy", alpha=6000.0) == {1: 0.0, 2: 36_000.0, 3: 42_000.0}


def test_reservation_goes_to_the_first_job_in_priority_order() -> None:
    # 4 cores, alpha 6000. R (1) holds 3 of them until 600; one core is free.
    # At 60 L (2, 4 cores, est 100 min) arrives and is reserved at 600.
    # At 120 S (3, 4 cores, est 1 min) outranks it (rt 1: 240 / 1.05^2 = 217.7
    #   against L's rt 101: 240 / 6.05^2 + 1 = 7.56) and takes the reservation at 600.
    # At 180 B (4, 1 core, est 20 min) arrives: order S (rt 2: 198.3 + 1 = 199.3),
    #   B (rt 20: 240 / 2^2 = 60), L (8.45). B fits the free core but would end at
    #   1380, after S's shadow time, and no core is spare then: it waits.
    # At 600 S starts (all 4 cores, until 660); B (wait 7, rt 27: 240 / 2.35^2 + 7
    #   = 50.46) is ahead of L (wait 9, rt 109: 14.77) and gets the reservation, at 660.
    # At 660 B (wait 8, rt 28: 240 / 2.4^2 + 8 = 49.67) is still ahead of L (wait 10,
    #   rt 110: 240 / 6.5^2 + 10 = 15.68): B starts, L waits for it until 1860.
    jobs = [
        Job(1, 0.0, 600.0, 3, 600.0),
        Job(2, 60.0, 6000.0, 4, 6000.0),
        Job(3, 120.0, 60.0, 4, 60.0),
        Job(4, 180.0, 1200.0, 1, 1200.0),
    ]
    assert _starts(jobs, 4, "creasy", alpha=6000.0) == {1: 0.0, 2: 1860.0, 3: 600.0, 4: 660.0}
    # EASY, in submit order: L is reserved at 600 and B cannot backfill (it would end at
    # 1380, holding a core L needs at 600); L runs [600, 6600), then S [6600, 6660), then B.
    assert _starts(jobs, 4, "easy") == {1: 0.0, 2: 600.0, 3: 6600.0, 4: 6660.0}


# --------------------------------------------------------------------------- #
# alpha = 0 is EASY, job for job
# --------------------------------------------------------------------------- #


def _same_as_easy(case: Case, kill: bool = True) -> None:
    def run(policy: str, params: dict | None):
        return Simulation(
            case.workload,
            policy,
            nodes=case.cores // case.cores_per_node,
            cores_per_node=case.cores_per_node,
            kill_at_estimate=kill,
            params=params,
        ).run()

    easy = run("easy", None)
    creasy = run("creasy", {"alpha": 0.0})
    pd.testing.assert_frame_equal(creasy.jobs, easy.jobs)
    pd.testing.assert_frame_equal(creasy.series, easy.series)


@FAST
@given(cases(), st.booleans())
def test_alpha_zero_is_easy(case: Case, kill: bool) -> None:
    _same_as_easy(case, kill)


@OVERFLOW
@FAST
@given(cases(integral=False), st.booleans())
def test_alpha_zero_is_easy_with_fractional_times(case: Case, kill: bool) -> None:
    _same_as_easy(case, kill)


@FAST
@given(cases(multicore=True))
def test_alpha_zero_is_easy_on_multicore_nodes(case: Case) -> None:
    _same_as_easy(case)


@pytest.fixture(scope="module")
def kth3000() -> Workload:
    return first(load("kth"), 3000)


def test_alpha_zero_is_easy_on_kth(kth3000: Workload) -> None:
    creasy = Simulation(kth3000, "creasy", params={"alpha": 0.0}).run()
    easy = Simulation(kth3000, "easy").run()
    pd.testing.assert_frame_equal(creasy.jobs, easy.jobs)


def test_paper_alpha_changes_the_kth_schedule(kth3000: Workload) -> None:
    # Not a claim about the paper's results (they need its user model): only that
    # criticality does reorder a real queue, and the schedule stays valid.
    easy = Simulation(kth3000, "easy").run()
    creasy = Simulation(kth3000, "creasy", params={"alpha": 6000.0}).run()
    check_invariants(creasy, kth3000, creasy.meta["total_cores"])
    assert (creasy.jobs["start"] != easy.jobs["start"]).any()


class UnkeptCREASY(CREASY):
    """CREASY reading its columns from the snapshots at every pass (no kept columns)."""

    def _sync(self, view: View) -> None:
        self._queued = self._synced = None


def test_kept_columns_make_the_same_schedule(kth3000: Workload) -> None:
    # The columns kept from pass to pass (arrivals added, starts dropped) must order the
    # queue exactly as columns read afresh from the snapshots.
    kept = Simulation(kth3000, CREASY(6000.0)).run()
    fresh = Simulation(kth3000, UnkeptCREASY(6000.0)).run()
    pd.testing.assert_frame_equal(kept.jobs, fresh.jobs)


@FAST
@given(cases(), st.sampled_from([1500.0, 1e6]))
def test_kept_columns_make_the_same_schedule_on_random_workloads(case: Case, alpha: float) -> None:
    kept = Simulation(case.workload, CREASY(alpha), nodes=case.cores).run()
    fresh = Simulation(case.workload, UnkeptCREASY(alpha), nodes=case.cores).run()
    pd.testing.assert_frame_equal(kept.jobs, fresh.jobs)


# --------------------------------------------------------------------------- #
# EASY's per-pass guarantee holds under CREASY's order
# --------------------------------------------------------------------------- #


class RecordingCREASY(CREASY):
    """CREASY that remembers, after every pass, its reservation and its starts."""

    def __init__(self, alpha: float) -> None:
        super().__init__(alpha)
        self.passes: list[Pass] = []

    def schedule(self, view: View):
        starts = super().schedule(view)
        head, shadow = self.reservation if self.reservation else (None, float("nan"))
        running = [(r.size, r.expected_end) for r in view.running]
        self.passes.append(Pass(view.now, head, shadow, [s.job for s in starts], running))
        return starts


@FAST
@given(cases(), st.sampled_from([1500.0, 6000.0, 1e6]))
def test_each_pass_respects_its_reservation(case: Case, alpha: float) -> None:
    policy = RecordingCREASY(alpha)
    result = Simulation(case.workload, policy, nodes=case.cores).run()
    check_invariants(result, case.workload, case.cores)
    _easy_pass_keeps_reservation(policy, case.cores)


# --------------------------------------------------------------------------- #
# Registration and parameters
# --------------------------------------------------------------------------- #


def test_registered_with_alpha_from_the_command_line() -> None:
    assert "creasy" in registry.names()
    assert registry.get("creasy") is CREASY
    policy = registry.make("creasy", {"alpha": "3000"})
    assert isinstance(policy, CREASY)
    assert policy.alpha == 3000.0
    assert isinstance(policy.alpha, float)
    assert policy.params() == {"alpha": 3000.0}
    assert registry.make("creasy", {"alpha": 4500}).alpha == 4500.0  # a TOML int
    assert registry.resolve_params("creasy") == {  # the paper's CREASY
        "alpha": 6000.0, "response_unit": "minutes", "continue_at_zero": 0.8,
        "continue_slope": 0.05,
    }  # fmt: skip


@pytest.mark.parametrize("alpha", ["-1", "nan", "inf"])
def test_bad_alpha_is_refused(alpha: str) -> None:
    with pytest.raises(ValueError, match="alpha"):
        registry.make("creasy", {"alpha": alpha})


def test_run_metadata_names_alpha() -> None:
    jobs = [Job(1, 0.0, 10.0, 1, 10.0)]
    result = Simulation(
        Workload.from_jobs(jobs, max_procs=1), "creasy", params={"alpha": 1500}
    ).run()
    assert result.meta["policy"] == "creasy"
    assert result.meta["policy_params"] == {"alpha": 1500.0}
