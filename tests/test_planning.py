"""The planning library: profiles, EASY's shadow, conservative anchoring and what-if plans."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedsim import Simulation
from schedsim.model.scheduler import Pass
from schedsim.policies.backfilling import EASY
from schedsim.policies.planning import conservative
from schedsim.policies.planning.conservative import (
    _compress_compiled,
    _compress_python,
    _place_compiled,
    compress,
    duration,
    estimated_response,
    estimated_start,
    place,
    place_each,
    plan,
)
from schedsim.policies.planning.easy import by_expected_end, shadow, shadow_by_end, shadow_on
from schedsim.policies.planning.profile import INF, Profile
from schedsim.workloads.catalog import load
from schedsim.workloads.transforms import exact_estimates, first


@dataclass(frozen=True)
class Running:
    size: int
    expected_end: float


def test_a_copy_is_independent() -> None:
    p = Profile(0.0, 8)
    p.reserve(0.0, 10.0, 5)
    q = p.copy()
    q.reserve(10.0, 5.0, 8)
    assert (p.times, p.free) == ([0.0, 10.0], [3, 8])
    assert (q.times, q.free) == ([0.0, 10.0, 15.0], [3, 0, 8])


def test_a_profile_of_the_running_jobs() -> None:
    # 10 cores, 4 free; jobs of 4 and 2 cores end at 30 and 20.
    p = Profile.of_running(0.0, 4, [Running(4, 30.0), Running(2, 20.0)])
    assert (p.total, p.times, p.free) == (10, [0.0, 20.0, 30.0], [4, 6, 10])


@settings(max_examples=200, deadline=None)
@given(
    free=st.integers(0, 8),
    running=st.lists(st.tuples(st.integers(1, 6), st.integers(1, 50)), max_size=8),
    cores=st.integers(1, 20),
)
def test_the_shadow_on_a_profile_is_easys_shadow(free, running, cores) -> None:
    jobs = [Running(size, float(end)) for size, end in running]
    expected = shadow(0.0, free, jobs, cores)
    assert shadow_on(Profile.of_running(0.0, free, jobs), cores) == expected
    if expected[0] == INF:
        assert cores > free + sum(j.size for j in jobs)


@settings(max_examples=200, deadline=None)
@given(
    free=st.integers(0, 8),
    running=st.lists(st.tuples(st.integers(1, 6), st.integers(1, 50)), max_size=8),
    cores=st.integers(1, 20),
    now=st.sampled_from([0.0, 25.0]),
)
def test_the_shadow_of_jobs_in_end_order_in_any_order_of_ties(free, running, cores, now) -> None:
    """EASY keeps the running jobs in end order between passes and inserts a pass's
    starts after the running jobs ending with them (`EASY._by_end`): ties in any order
    give the same shadow time and extra cores, overrun jobs (now 25) included."""
    jobs = [Running(size, float(end)) for size, end in running]
    expected = shadow(now, free, jobs, cores)
    ends = sorted(jobs, key=by_expected_end)
    assert shadow_by_end(now, free, ends, cores) == expected
    ties_reversed = sorted(reversed(jobs), key=by_expected_end)
    assert shadow_by_end(now, free, ties_reversed, cores) == expected
    assert ends == sorted(jobs, key=by_expected_end)  # left as it was


def test_easy_sorts_the_running_jobs_again_when_they_change() -> None:
    """The order is kept for the same tuple of running jobs only: another tuple, or a
    list (which may have changed in place), is sorted again."""
    easy = EASY()
    a, b, c = Running(1, 30.0), Running(2, 10.0), Running(3, 20.0)
    running = (a, b)
    assert easy._by_end(running) == [b, a]
    assert easy._by_end(running) is easy._by_end(running)
    assert easy._by_end((a, b, c)) == [b, c, a]
    listed = [a, b]
    assert easy._by_end(listed) == [b, a]  # type: ignore[arg-type]
    listed.append(c)
    assert easy._by_end(listed) == [b, c, a]  # type: ignore[arg-type]


def test_place_and_compress_by_hand() -> None:
    # 4 cores. A (3 cores) runs until 10. B (4 cores, 10 s) is anchored at 10.
    # C (1 core, 30 s) would fit beside A at 0, but would still hold its core when
    # B needs all four at 10: it is anchored after B, at 20. Then A ends at 5
    # instead of 10: compression moves B to 5 and C to 15.
    p = Profile(0.0, 4)
    p.reserve(0.0, 10.0, 3)
    b = place(p, 4, duration(10.0), 0.0)
    c = place(p, 1, duration(30.0), 0.0)
    assert (b, c) == (10.0, 20.0)
    p.add(5.0, 10.0, 3)  # A ended at 5: its cores are free over [5, 10)
    moved = compress(p, {2: (b, 10.0, 4), 3: (c, 30.0, 1)})
    assert moved == {2: 5.0, 3: 15.0}
    p.check()


def test_a_hole_as_long_as_the_job_takes_it() -> None:
    # 4 cores. A and B (2 cores each) run, planned to end at 10 and 5. C (4 cores,
    # 10 s) is anchored at 10, E (2 cores, 5 s) at 5 beside A, D (2 cores, 5 s)
    # after C, at 20. B ends at 0: E moves into its hole, and D into E's old place
    # [5, 10), exactly as long as D, which ends where C begins.
    for squeeze in (_compress_compiled, _compress_python):
        p = Profile.of_running(0.0, 0, [Running(2, 10.0), Running(2, 5.0)])
        c, e, d = (place(p, cores, span, 0.0) for cores, span in ((4, 10.0), (2, 5.0), (2, 5.0)))
        assert (c, e, d) == (10.0, 5.0, 20.0)
        p.add(0.0, 5.0, 2)
        reservations = {3: (c, 10.0, 4), 4: (d, 5.0, 2), 5: (e, 5.0, 2)}
        assert squeeze(p, reservations) == {5: 0.0, 4: 5.0}
        assert (p.times, p.free) == ([0.0, 20.0], [0, 4])  # every core busy until 20


# Times on a grid of 1/8 s; spans of whole seconds (windows that end exactly where a
# step does) or with thirds in them (sums that round).
instants = st.integers(0, 400).map(lambda k: k / 8)
spans = st.integers(1, 12).map(float) | st.integers(1, 300).map(lambda k: k / 3)


@settings(max_examples=300, deadline=None)
@given(
    running=st.lists(st.tuples(st.integers(1, 3), instants), max_size=8),
    queue=st.lists(st.tuples(st.integers(1, 8), spans, st.integers(0, 10**6)), max_size=25),
    ends=st.sets(st.integers(0, 7)),
    gone=st.sets(st.integers(0, 24), max_size=3),
    now=instants,
)
def test_compiled_compression_matches_the_list_methods(running, queue, ends, gone, now):
    total = 8
    busy = 0
    jobs = []
    for size, end in running:
        if busy + size <= total:
            busy += size
            jobs.append(Running(size, now + end))
    p = Profile.of_running(now, total - busy, jobs)
    reservations = {}
    for jid, (size, span, _) in sorted(enumerate(queue), key=lambda i: i[1][2]):
        reservations[jid] = (place(p, size, span, now), span, size)
    # Holes: running jobs that end now, before their planned end, and waiting jobs
    # that leave the queue (cancelled, say).
    for k in sorted(ends):
        if k < len(jobs):
            p.add(now, jobs[k].expected_end, jobs[k].size)
    for jid in sorted(gone & reservations.keys()):
        p.release(*reservations.pop(jid))
    reference = p.copy()
    expected = _compress_python(reference, reservations)
    moved = _compress_compiled(p, reservations)
    assert list(moved.items()) == list(expected.items())
    assert (p.times, p.free) == (reference.times, reference.free)
    assert all(type(t) is float for t in p.times) and all(type(f) is int for f in p.free)
    p.check()


@settings(max_examples=300, deadline=None)
@given(
    running=st.lists(st.tuples(st.integers(1, 3), instants), max_size=8),
    shapes=st.lists(st.tuples(st.integers(1, 8), spans), max_size=25),
    now=instants,
    after=st.integers(0, 80).map(lambda k: k / 8),
)
def test_compiled_anchoring_matches_the_list_methods(running, shapes, now, after):
    total, busy, jobs = 8, 0, []
    for size, end in running:
        if busy + size <= total:
            busy += size
            jobs.append(Running(size, now + end))
    p = Profile.of_running(now, total - busy, jobs)
    q = p.copy()
    expected = [place(q, size, span, now + after) for size, span in shapes]
    assert _place_compiled(p, shapes, now + after) == expected
    assert (p.times, p.free) == (q.times, q.free)
    assert all(type(t) is float for t in p.times) and all(type(f) is int for f in p.free)
    p.check()


def test_compiled_anchoring_refuses_a_job_wider_than_the_machine_as_the_list_method_does(
    monkeypatch,
) -> None:
    shapes = [(2, 1.0), (5, 1.0)]
    monkeypatch.setattr(conservative, "_spent", 0)  # in Python
    with pytest.raises(ValueError, match="5 cores can never be free"):
        place_each(Profile(0.0, 4), shapes, 0.0)
    with pytest.raises(ValueError, match="5 cores can never be free"):
        _place_compiled(Profile(0.0, 4), shapes, 0.0)


def test_anchoring_goes_compiled_once_the_budget_is_spent(monkeypatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(conservative, "place", lambda p, c, s, a: calls.append("py") or 0.0)
    monkeypatch.setattr(
        conservative, "_place_compiled", lambda p, s, a: calls.append("nb") or [0.0] * len(s)
    )
    monkeypatch.setattr(conservative, "PYTHON_BUDGET", 10)
    monkeypatch.setattr(conservative, "_spent", 0)
    p = Profile(0.0, 4)
    p.reserve(0.0, 10.0, 3)  # two steps
    three = [(1, 1.0), (2, 1.0), (3, 1.0)]
    for _ in range(3):
        place_each(p, three, 0.0)  # 3 x 2 = 6 against the budget each time
    assert place_each(p, [], 0.0) == []
    assert calls == ["py"] * 6 + ["nb"]


def test_compression_goes_compiled_once_python_has_walked_its_budget(monkeypatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(conservative, "_compress_python", lambda p, r: calls.append("py") or {})
    monkeypatch.setattr(conservative, "_compress_compiled", lambda p, r: calls.append("nb") or {})
    monkeypatch.setattr(conservative, "PYTHON_BUDGET", 10)
    monkeypatch.setattr(conservative, "_spent", 0)
    p = Profile(0.0, 4)
    p.reserve(0.0, 10.0, 3)  # two steps
    three = {1: (10.0, 1.0, 4), 2: (11.0, 1.0, 4), 3: (12.0, 1.0, 4)}
    for _ in range(3):
        compress(p, three)  # 3 x 2 = 6 against the budget each time
    assert compress(p, {}) == {} and calls == ["py", "py", "nb"]


def test_a_zero_estimate_still_holds_its_cores_for_an_instant() -> None:
    assert duration(0.0) > 0 and duration(100.0) == 100.0


class Arrivals:
    """Observer: each job's estimated start and response under conservative backfilling,
    planned from the view of the pass at which it arrived."""

    def __init__(self) -> None:
        self.starts: dict[int, float] = {}
        self.responses: dict[int, float] = {}

    def on_pass(self, step: Pass) -> None:
        view = step.view
        arrived = {j.id for j in view.arrived}
        for k, job in enumerate(view.queue):
            if job.id not in arrived:
                continue
            ahead = view.queue[:k]  # the jobs anchored before it, in submit order
            profile, _ = plan(view.now, view.free_cores, view.running, ahead)
            self.starts[job.id] = estimated_start(profile, job, view.now)
            self.responses[job.id] = estimated_response(
                view.now, view.free_cores, view.running, ahead, job
            )


def test_conservative_starts_every_job_where_the_plan_at_its_arrival_put_it() -> None:
    # With exact estimates no job ends early, nothing is compressed, and a job
    # starts at the reservation it was given on arrival: the plan of the running
    # jobs and the jobs queued before it, from its arrival pass's view.
    kth = exact_estimates(first(load("kth"), 1500))
    seen = Arrivals()
    result = Simulation(kth, "conservative", observer=seen).run()
    jobs = result.jobs.set_index("id")
    assert len(seen.starts) == len(jobs)
    for jid, start in seen.starts.items():
        assert jobs.loc[jid, "start"] == start, jid
        assert jobs.loc[jid, "turnaround"] == seen.responses[jid], jid
