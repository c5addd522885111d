"""Property tests: every registered policy produces valid schedules.

Random small workloads (hypothesis) are run under every policy in the
registry and checked with `invariants.check_invariants`; the backfilling
policies also have their own guarantees checked (FCFS order, EASY's
reservation for the head job, conservative's never-later reservations).
The same invariants are checked on a slice of the real KTH trace.

Each policy is a test of its own (a failure names it; a parallel run spreads
them). The default example counts keep this file at about two minutes on two
cores; the ``slow``-marked variants (``pytest -m slow``) run many more examples.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schedsim import Simulation
from schedsim.app import registry
from schedsim.model.policy import View
from schedsim.model.view import JobView
from schedsim.policies.backfilling import EASY, Conservative
from schedsim.workloads.catalog import load
from schedsim.workloads.job import Job
from schedsim.workloads.transforms import first
from schedsim.workloads.workload import Workload

from invariants import check_invariants

POLICIES = registry.names()
#: G-LOMARC-TS's variants differ from `glts` only in how they form groups, and on nodes
#: of one core there are no groups: there they make glts's schedules, so the
#: single-core checks of every policy run glts alone (the multi-core ones run all).
SAME_AS_GLTS_ON_ONE_CORE = frozenset({"cst", "cstws", "glts-fbo", "glts-ns", "glts-nh"})
#: Parameter settings checked besides every policy's defaults: (name, params).
VARIANTS: tuple[tuple[str, dict[str, object]], ...] = (
    # Schwiegelshohn & Yahyapour 1998: the queue moves during a wide job's cycle.
    ("pfcfs1", {"queue_in_cycle": "moves"}),
    ("pfcfs2", {"queue_in_cycle": "moves"}),
    # ... and a wide job preempts every running job (Table 1's step F).
    ("pfcfs1", {"preempt": "all"}),
    ("pfcfs3", {"preempt": "all", "queue_in_cycle": "moves"}),
)
ORDERS = ("fcfs", "sjf", "xfactor")

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------- #
# Random workloads
# --------------------------------------------------------------------------- #


class Case:
    """A random workload and the machine it runs on (a plain class: hypothesis prints its repr)."""

    def __init__(self, workload: Workload, cores: int, cores_per_node: int = 1) -> None:
        self.workload = workload
        self.cores = cores
        self.cores_per_node = cores_per_node

    def __repr__(self) -> str:  # what hypothesis prints for a failing example
        rows = ", ".join(
            f"Job({j.id}, {j.submit!r}, {j.run_time!r}, {j.size}, {j.estimate!r})"
            for j in self.workload
        )
        return f"Case(cores={self.cores}, cores_per_node={self.cores_per_node}, jobs=[{rows}])"


@st.composite
def cases(draw: st.DrawFn, integral: bool = True, multicore: bool = False) -> Case:
    """1-30 jobs on 1-16 cores; ties in submit time; some estimates below the run time.

    ``integral`` draws integer times (exact arithmetic); otherwise times are
    arbitrary floats on a clock starting far from zero, like trace seconds.
    ``multicore`` puts 2 or 4 cores on each node (one otherwise).
    """
    cpn = draw(st.sampled_from([2, 4]), label="cores_per_node") if multicore else 1
    cores = cpn * draw(st.integers(1, 16 // cpn), label="nodes")
    n = draw(st.integers(1, 30), label="n")
    ids = draw(st.permutations(range(1, n + 1)), label="ids")  # id order != draw order
    if integral:
        t = float(draw(st.sampled_from([0, 1, 86_400, 31_000_000]), label="t0"))
        gap = st.one_of(st.just(0), st.integers(0, 300))  # many ties
        length = st.integers(0, 1000)
    else:
        t = draw(st.sampled_from([0.0, 0.1, 1e6 + 0.3, 8.6e7 + 0.7]), label="t0")
        gap = st.one_of(st.just(0.0), st.floats(0, 300, allow_nan=False, allow_subnormal=False))
        length = st.one_of(st.just(0.0), st.floats(0, 1000, allow_nan=False, allow_subnormal=False))
    jobs = []
    for i in range(n):
        t += draw(gap)
        run = float(draw(length))
        kind = draw(st.sampled_from(["over", "over", "over", "exact", "under"]))
        if kind == "over":
            estimate = run + float(draw(length))
        elif kind == "exact":
            estimate = run
        else:  # killed at its estimate (when that is on)
            estimate = (
                float(draw(st.integers(0, int(run))))
                if integral
                else run * draw(st.one_of(st.just(0.0), st.floats(1e-3, 1)))
            )
        size = draw(st.integers(1, cores))
        jobs.append(Job(ids[i], float(t), run, size, estimate))
    return Case(Workload.from_jobs(jobs, max_procs=cores), cores, cpn)


def random_workload(seed: int, n: int, nodes: int) -> Workload:
    """Denser than `cases`, from a numpy seed: run times from seconds to hours, a few wide jobs."""
    rng = np.random.default_rng(seed)
    jobs, t = [], 0
    for i in range(n):
        t += int(rng.integers(0, 300))
        scale = int(rng.choice([100, 2000, 20000]))
        run = int(rng.integers(1, scale))
        est = run + int(rng.integers(0, run + 1))
        wide = rng.random() < 0.3
        size = int(rng.integers(1, nodes + 1 if wide else max(2, nodes // 4) + 1))
        jobs.append(Job(i + 1, float(t), float(run), size, float(est)))
    return Workload.from_jobs(jobs, max_procs=nodes)


def simulate(case: Case, policy, kill_at_estimate: bool = True):
    sim = Simulation(
        case.workload,
        policy,
        nodes=case.cores // case.cores_per_node,
        cores_per_node=case.cores_per_node,
        kill_at_estimate=kill_at_estimate,
    )
    return sim.run()


# --------------------------------------------------------------------------- #
# Every policy, every invariant
# --------------------------------------------------------------------------- #


def _policies(one_core: bool) -> list:
    """Every registered policy at its defaults, then `VARIANTS`: one pytest param each.

    One test per policy, not one test running them all, so that a failure names
    the policy and a parallel test run (pytest-xdist) spreads them over its workers.
    ``one_core``: leave out the policies that make glts's schedules there.
    """
    defaults = [
        pytest.param(name, None, id=name)
        for name in POLICIES
        if not (one_core and name in SAME_AS_GLTS_ON_ONE_CORE)
    ]
    variants = [
        pytest.param(name, params, id=name + "-" + "-".join(map(str, params.values())))
        for name, params in VARIANTS
    ]
    return defaults + variants


ONE_CORE = pytest.mark.parametrize(("name", "params"), _policies(one_core=True))
MULTICORE = pytest.mark.parametrize(("name", "params"), _policies(one_core=False))


def _check(case: Case, name: str, params: dict | None, kill_at_estimate: bool) -> None:
    """Run policy ``name`` (with ``params``, or its defaults) on ``case``; check the invariants.

    They assume rate 1.0 (``run`` tied to ``work``): a future time-sharing
    policy that changes rates needs ``check_invariants(..., unit_rate=False)``.
    """
    policy = name if params is None else registry.make(name, params)
    result = simulate(case, policy, kill_at_estimate)
    check_invariants(result, case.workload, case.cores)


@ONE_CORE
@FAST
@given(case=cases())
def test_every_policy_valid(name: str, params: dict | None, case: Case) -> None:
    _check(case, name, params, kill_at_estimate=True)


@ONE_CORE
@FAST
@given(case=cases())
def test_every_policy_valid_without_kill_at_estimate(
    name: str, params: dict | None, case: Case
) -> None:
    # check_invariants reads kill_at_estimate=False from the result's meta:
    # no job is killed at its limit and every job runs its full work.
    _check(case, name, params, kill_at_estimate=False)


# Tiny positive estimates make result.jobs' xfactor overflow to inf (with a
# RuntimeWarning from schedsim.model.results._ratio); the invariants do not read it.
OVERFLOW = pytest.mark.filterwarnings("ignore:overflow encountered in divide:RuntimeWarning")


@OVERFLOW
@ONE_CORE
@settings(FAST, max_examples=30)
@given(case=cases(integral=False), kill=st.booleans())
def test_every_policy_valid_with_fractional_times(
    name: str, params: dict | None, case: Case, kill: bool
) -> None:
    # Inexact arithmetic: run vs work is compared up to a few ulps of the clock,
    # but "no start before submit" stays exact (see invariants.py).
    _check(case, name, params, kill_at_estimate=kill)


@MULTICORE
@settings(FAST, max_examples=30)
@given(case=cases(multicore=True), kill=st.booleans())
def test_every_policy_valid_on_multicore_nodes(
    name: str, params: dict | None, case: Case, kill: bool
) -> None:
    # Several jobs may share a node; no node holds more jobs than it has cores.
    _check(case, name, params, kill_at_estimate=kill)


@pytest.mark.slow
@MULTICORE
@SLOW
@given(case=cases(multicore=True), kill=st.booleans())
def test_every_policy_valid_on_multicore_nodes_many(
    name: str, params: dict | None, case: Case, kill: bool
) -> None:
    _check(case, name, params, kill_at_estimate=kill)


@pytest.mark.slow
@ONE_CORE
@SLOW
@given(case=cases(), kill=st.booleans())
def test_every_policy_valid_many(name: str, params: dict | None, case: Case, kill: bool) -> None:
    _check(case, name, params, kill_at_estimate=kill)


@OVERFLOW
@pytest.mark.slow
@ONE_CORE
@SLOW
@given(case=cases(integral=False), kill=st.booleans())
def test_every_policy_valid_with_fractional_times_many(
    name: str, params: dict | None, case: Case, kill: bool
) -> None:
    _check(case, name, params, kill_at_estimate=kill)


# --------------------------------------------------------------------------- #
# FCFS: submit order
# --------------------------------------------------------------------------- #


def _fcfs_in_order(case: Case) -> None:
    jobs = simulate(case, "fcfs").jobs.sort_values(["submit", "id"])
    starts = jobs["start"].to_numpy()
    assert (np.diff(starts) >= 0).all(), jobs[["id", "submit", "start"]]


@FAST
@given(cases())
def test_fcfs_starts_in_submit_order(case: Case) -> None:
    _fcfs_in_order(case)


@pytest.mark.slow
@SLOW
@given(cases())
def test_fcfs_starts_in_submit_order_many(case: Case) -> None:
    _fcfs_in_order(case)


# --------------------------------------------------------------------------- #
# EASY: the head job's reservation
# --------------------------------------------------------------------------- #


@dataclass
class Pass:
    now: float
    head: JobView | None
    shadow: float
    started: list[JobView]
    running: list[tuple[int, float]]  # (size, expected end) of the jobs already running


class RecordingEASY(EASY):
    """EASY that remembers, after every pass, its reservation and its starts."""

    def __init__(self, order: str = "fcfs") -> None:
        super().__init__(order)  # type: ignore[arg-type]
        self.passes: list[Pass] = []

    def schedule(self, view: View):
        starts = super().schedule(view)
        head, shadow = self.reservation if self.reservation else (None, float("nan"))
        self.passes.append(
            Pass(
                view.now,
                head,
                shadow,
                [s.job for s in starts],
                [(r.size, r.expected_end) for r in view.running],
            )
        )
        return starts


def _easy_run(case: Case, order: str) -> tuple[RecordingEASY, object]:
    policy = RecordingEASY(order)
    result = simulate(case, policy, kill_at_estimate=True)
    check_invariants(result, case.workload, case.cores)
    return policy, result


def _easy_pass_keeps_reservation(policy: RecordingEASY, cores: int) -> None:
    """Within each pass, what was started leaves the head enough cores at its shadow time.

    True for every queue order: the backfill rule is applied against the
    reservation just computed. Jobs are killed at their estimates, so every
    running or started job is gone by ``now + estimate`` (its expected end).
    """
    for p in policy.passes:
        if p.head is None:
            continue
        assert p.shadow >= p.now
        busy_then = sum(size for size, end in p.running if end > p.shadow)
        busy_then += sum(j.size for j in p.started if p.now + j.estimate > p.shadow)
        assert cores - busy_then >= p.head.size, (
            f"pass at {p.now}: head {p.head.id} ({p.head.size} cores) reserved at {p.shadow}, "
            f"but only {cores - busy_then} cores are free then"
        )
        assert p.head not in p.started


@FAST
@given(cases(), st.sampled_from(ORDERS))
def test_easy_each_pass_respects_its_reservation(case: Case, order: str) -> None:
    policy, _ = _easy_run(case, order)
    _easy_pass_keeps_reservation(policy, case.cores)


def _easy_fcfs_head_never_delayed(case: Case) -> None:
    """With FCFS order the reserved job starts no later than any shadow time it was given.

    With kill at estimate on, running jobs only ever end at or before their
    expected ends, so a shadow time can only move earlier; and in FCFS order
    the head stays the head until it starts (every job ahead of it has
    started, later arrivals queue behind it), so every backfill decision
    after its first reservation protects it.
    """
    policy, result = _easy_run(case, "fcfs")
    shadows: dict[int, list[float]] = defaultdict(list)
    for p in policy.passes:
        if p.head is not None:
            shadows[p.head.id].append(p.shadow)
    start = dict(zip(result.jobs["id"], result.jobs["start"], strict=True))
    for jid, times in shadows.items():
        assert start[jid] <= min(times), f"job {jid} started at {start[jid]}, shadows {times}"
        # The shadow never moves later while the job waits.
        assert all(b <= a for a, b in pairwise(times)), times


@FAST
@given(cases())
def test_easy_fcfs_never_delays_the_head(case: Case) -> None:
    _easy_fcfs_head_never_delayed(case)


@pytest.mark.slow
@SLOW
@given(cases(), st.sampled_from(ORDERS))
def test_easy_reservations_many(case: Case, order: str) -> None:
    policy, _ = _easy_run(case, order)
    _easy_pass_keeps_reservation(policy, case.cores)
    if order == "fcfs":
        _easy_fcfs_head_never_delayed(case)


# With sjf or xfactor order the guarantee does not survive across passes, and
# this is EASY working as specified, not a bug: the reservation belongs to
# whichever job is first *in priority order* at each pass. A job that arrives
# later with a shorter estimate (sjf), or whose xfactor overtakes (xfactor),
# goes ahead of the old head: it starts as soon as it fits, with no check
# against the old head's shadow, or becomes the reserved job itself. The two
# tests below pin that down on minimal examples; what holds for every order is
# the per-pass property above.


def _run_named(jobs: list[Job], cores: int, policy: EASY) -> dict[int, float]:
    w = Workload.from_jobs(jobs, max_procs=cores)
    result = Simulation(w, policy, nodes=cores).run()
    return dict(zip(result.jobs["id"], result.jobs["start"], strict=True))


def test_easy_sjf_head_can_be_overtaken() -> None:
    # 4 cores. R holds them all until 10. H (4 cores, est 100) arrives at 1: it is
    # the head, shadow 10. S (2 cores, est 50) arrives at 2: shorter, so S is ahead
    # of H in sjf order and becomes the head. At 10 S fits and starts; H must now
    # wait for S: it starts at 60, after the shadow time (10) it had been given.
    policy = RecordingEASY("sjf")
    start = _run_named(
        [Job(1, 0.0, 10.0, 4, 10.0), Job(2, 1.0, 100.0, 4, 100.0), Job(3, 2.0, 50.0, 2, 50.0)],
        4,
        policy,
    )
    first_shadow = next(p.shadow for p in policy.passes if p.head is not None and p.head.id == 2)
    assert first_shadow == 10.0
    assert start == {1: 0.0, 2: 60.0, 3: 10.0}


def test_easy_xfactor_head_can_be_overtaken() -> None:
    # Same machine; S (2 cores, est 1, run 1) arrives at 2. At 1, H (est 100) has
    # xfactor 1 and is the head (shadow 10). By 10, S's xfactor is (8 + 1) / 1 = 9,
    # H's (9 + 100) / 100 = 1.09: S is first, fits and starts at 10; H waits until 11.
    policy = RecordingEASY("xfactor")
    start = _run_named(
        [Job(1, 0.0, 10.0, 4, 10.0), Job(2, 1.0, 100.0, 4, 100.0), Job(3, 2.0, 1.0, 2, 1.0)],
        4,
        policy,
    )
    shadows = [p.shadow for p in policy.passes if p.head is not None and p.head.id == 2]
    assert shadows[0] == 10.0
    assert start == {1: 0.0, 2: 11.0, 3: 10.0}


# --------------------------------------------------------------------------- #
# Conservative: reservations only move earlier
# --------------------------------------------------------------------------- #


class RecordingConservative(Conservative):
    """Conservative that logs every reservation it makes: job id -> [(now, start)]."""

    def __init__(self) -> None:
        super().__init__()
        self.now = float("nan")
        self.log: dict[int, list[tuple[float, float]]] = defaultdict(list)
        self.on_reserve = self._record

    def _record(self, job: JobView, start: float) -> None:
        self.log[job.id].append((self.now, start))

    def schedule(self, view: View):
        self.now = view.now
        return super().schedule(view)


def _conservative_guarantee(case: Case) -> None:
    policy = RecordingConservative()
    result = simulate(case, policy, kill_at_estimate=True)
    check_invariants(result, case.workload, case.cores)
    jobs = result.jobs.set_index("id")
    assert set(policy.log) == set(jobs.index), "a job never got a reservation"
    for jid, log in policy.log.items():
        made, planned = zip(*log, strict=True)
        start = jobs.at[jid, "start"]
        # Reserved on arrival, never in the past.
        assert made[0] == jobs.at[jid, "submit"]
        assert all(p >= m for m, p in zip(made, planned, strict=True)), log
        # Never later than the first reservation; a reservation never moves later.
        assert start <= planned[0], f"job {jid} started {start}, first reserved {planned[0]}"
        assert all(b <= a for a, b in pairwise(planned)), log
        # And it starts exactly when its last reservation comes due.
        assert start == planned[-1], f"job {jid} started {start}, reservations {log}"


@FAST
@given(cases())
def test_conservative_never_starts_later_than_first_reservation(case: Case) -> None:
    _conservative_guarantee(case)


@pytest.mark.slow
@SLOW
@given(cases())
def test_conservative_never_starts_later_than_first_reservation_many(case: Case) -> None:
    _conservative_guarantee(case)


# Regression: a zero-estimate job reserved no time in the profile, so other
# jobs were anchored on its cores at its instant and could push it past its
# reservation. Reservations now last at least MIN_PLAN (policies/planning/conservative.py).
@pytest.mark.parametrize(
    "jobs",
    [
        # Two cores. All arrive at 0. Job 1 (1 core, est 0) and job 2 (2 cores,
        # est 0) are both anchored at 0, holding nothing; job 3 (1 core, est 1)
        # too. Job 1 starts; job 2 does not fit beside it and waits for it to end
        # (at once), but job 3 starts meanwhile: job 2 waits until 1.
        [Job(1, 0.0, 0.0, 1, 0.0), Job(2, 0.0, 0.0, 2, 0.0), Job(3, 0.0, 1.0, 1, 1.0)],
        # One core. Job 1 runs [0, 10); job 3 (est 0) arrives at 5: reserved at 10.
        # Job 2 (smaller id, submitted later) is anchored at 10 too, starts first
        # in (start, id) order, and job 3 waits until 20.
        [Job(1, 0.0, 10.0, 1, 10.0), Job(3, 5.0, 0.0, 1, 0.0), Job(2, 10.0, 10.0, 1, 10.0)],
    ],
    ids=["blocked-by-zero-job", "later-arrival-smaller-id"],
)
def test_conservative_zero_estimate_keeps_its_slot(jobs: list[Job]) -> None:
    cores = max(j.size for j in jobs)
    _conservative_guarantee(Case(Workload.from_jobs(jobs, max_procs=cores), cores))


# Regression: a job whose estimate is 0, or so small that start + estimate ==
# start, occupies no time in the availability profile, so the next job is
# anchored on the same cores at the same instant. Both came due in one pass and
# the second Start raised PolicyError; the second must wait for the first to end
# (at once) and start at the same instant.
@pytest.mark.parametrize(
    ("t0", "estimate"), [(0.0, 0.0), (1e6, 1e-12)], ids=["zero", "below-clock-resolution"]
)
def test_conservative_vanishing_estimates_take_turns(t0: float, estimate: float) -> None:
    # One core. Job 1 (estimate 0) and job 2 arrive together: job 1 starts, ends
    # at once, then job 2 starts, both at t0 (as under fcfs and easy).
    jobs = [Job(1, t0, estimate, 1, estimate), Job(2, t0, 0.0, 1, 1.0)]
    w = Workload.from_jobs(jobs, max_procs=1)
    result = Simulation(w, "conservative").run()
    assert result.jobs["start"].tolist() == [t0, t0]


# Regression: compression re-anchored a job with the duration end - start of
# its stored reservation, which in floating point can be an ulp shorter than
# the estimate. The profile then freed the job's cores before the job (which
# runs to start + estimate) ended; the next job was reserved in that gap and
# started while the cores were still busy (PolicyError).
def test_conservative_compression_keeps_exact_durations() -> None:
    # Times as a load-scaled trace has them (a submit of 164160 s divided by 1.3),
    # integer estimates, one core. Job 1 (est 2146) ends at once, so job 2 (est
    # 3779) is compressed from t0 + 2146 to t0; (t0 + 2146 + 3779) - (t0 + 2146)
    # is 3779 - 2**-36: job 3 must not be moved to that instant, just before job 2
    # ends, but start when job 2 does.
    t0 = 164160 / 1.3
    assert (t0 + 2146.0 + 3779.0) - (t0 + 2146.0) < 3779.0
    jobs = [Job(1, t0, 0.0, 1, 2146.0), Job(2, t0, 3779.0, 1, 3779.0), Job(3, t0, 0.0, 1, 1.0)]
    result = Simulation(Workload.from_jobs(jobs, max_procs=1), "conservative").run()
    assert result.jobs["start"].tolist() == [t0, t0, t0 + 3779.0]


# Regression (found by `test_scale`): when a job outlives its estimate (no kill at
# estimate), conservative rebuilds its profile from the running jobs, each planned
# to free its cores at now + (expected end - now), which in floating point can be an
# ulp before the expected end itself. A job reserved at that instant started while
# the cores were still held (PolicyError).
def test_conservative_replan_frees_cores_at_the_expected_end_itself() -> None:
    # 11 cores. Job 8 (1 core, estimate 0) runs 830.65 s, past its estimate; job 7
    # (5 cores, estimate = run 849.048...) starts at t = 64.035... and is expected to
    # end at t + 849.048... = 913.0837835425349; a re-plan at 128.07... (job 8's
    # overrun) planned its end as 913.0837835425348. Job 9 (7 cores) must start at
    # 913.0837835425349, when job 7 has ended, not one ulp before.
    t = 64.03574605377415
    jobs = [
        Job(8, 0.0, 830.6536513079361, 1, 0.0),
        Job(5, t, 0.0, 6, 65.0),
        Job(7, t, 849.0480374887608, 5, 849.0480374887608),
        Job(9, t, 0.0, 7, 0.0),
    ]
    w = Workload.from_jobs(jobs, max_procs=11)
    result = Simulation(w, "conservative", kill_at_estimate=False).run()
    check_invariants(result, w, 11)
    start = dict(zip(result.jobs["id"], result.jobs["start"], strict=True))
    assert start[9] == t + 849.0480374887608 == 913.0837835425349


# Regression: two hand-built jobs with the same id; one vanished silently.
def test_duplicate_job_ids_are_refused() -> None:
    jobs = [Job(1, 0.0, 10.0, 1, 10.0), Job(1, 0.0, 20.0, 1, 20.0), Job(2, 5.0, 1.0, 1, 1.0)]
    with pytest.raises(ValueError, match="more than once"):
        Workload.from_jobs(jobs, max_procs=2)


# --------------------------------------------------------------------------- #
# A real trace
# --------------------------------------------------------------------------- #


@pytest.fixture(scope="module")
def kth2000() -> Workload:
    return first(load("kth"), 2000)


@pytest.mark.parametrize("kill", [True, False], ids=["kill", "nokill"])
@pytest.mark.parametrize("policy", ["fcfs", "easy", "conservative"])
def test_kth_slice(kth2000: Workload, policy: str, kill: bool) -> None:
    result = Simulation(kth2000, policy, nodes=100, kill_at_estimate=kill).run()
    check_invariants(result, kth2000, 100)
    assert len(result.jobs) == 2000
    if kill:
        # The slice does have jobs that outrun their estimates.
        assert (result.jobs["outcome"] == "killed_at_limit").sum() > 0
