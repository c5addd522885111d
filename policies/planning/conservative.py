"""Conservative backfilling's plan: anchoring, compression, and what-if questions.

Conservative backfilling (Kettimuthu 2003, section 2.1.1) gives every job a
reservation at its *anchor point* when it arrives, "the earliest time at
which a sufficient number of processors are available to run the job for a
duration equal to the user estimated run time", on the profile left by the
running jobs and the earlier reservations; a job starts when its reservation
comes. When a job ends before its estimate the schedule is *compressed*:
reservations are released one by one in order of increasing start time, and
each is re-anchored, so it moves earlier if the hole fits it and otherwise
keeps its place.

These functions work on a `Profile` the caller gives (and changes, where they
say so), so the conservative policy (`schedsim.policies.backfilling`) and
any other policy share them. `plan` and `estimated_start` answer "what if":
the start a job would be given under conservative backfilling now, on a
fresh plan of the running jobs and the queue in submit order (seed 003
ranks jobs by their estimated response time under conservative backfilling
at submission: `estimated_response`). Suspended jobs hold no cores in such
a plan.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from typing import Any

from schedsim.model.view import JobView
from schedsim.policies.planning.profile import Planned, Profile

__all__ = [
    "MIN_PLAN",
    "PYTHON_BUDGET",
    "compress",
    "duration",
    "estimated_response",
    "estimated_start",
    "place",
    "place_each",
    "plan",
]

#: Shortest time a reservation holds its cores in a plan. A job with a zero
#: estimate (a job of run time 0 whose estimate was missing) still needs its
#: cores for an instant; planned for no time at all, it would hold nothing and
#: another job could be anchored on its cores at its instant.
MIN_PLAN = 1e-3

#: A reservation: (start, duration, cores).
Reservation = tuple[float, float, int]


def duration(estimate: float) -> float:
    """How long a reservation of a job of this estimate holds its cores (at least `MIN_PLAN`)."""
    return max(estimate, MIN_PLAN)


def place(profile: Profile, cores: int, span: float, after: float) -> float:
    """Anchor a job of ``cores`` cores for ``span`` seconds at or after ``after``.

    Returns its start, the earliest at which the cores are free over the
    whole span, and reserves them there in ``profile``.
    """
    start = profile.earliest(cores, span, after)
    profile.reserve(start, span, cores)
    return start


#: Compression and anchoring walk in Python until those walks have cost about what
#: loading the compiled loops costs (numba and the kernel, about half a second), and
#: compiled after (`compress`, `place_each`): a small run never loads numba. Counted in
#: reservations x profile steps per call, a bound on the steps walked, which cost
#: 60-190 ns each in Python (measured on the first 3,000-10,000 jobs of KTH, SDSC SP2
#: and CTC). One budget for both, this process's.
PYTHON_BUDGET = 5_000_000
_spent = 0  # this process's count against the budget


def place_each(profile: Profile, shapes: Sequence[tuple[int, float]], after: float) -> list[float]:
    """`place` for each ``(cores, span)`` of ``shapes`` in turn: their starts, each
    reserved in ``profile``. The same starts and profile as calling `place` in a loop;
    once this process has spent `PYTHON_BUDGET` in Python, one compiled loop
    (`schedsim.policies.planning.kernels.place_all`), the same comparisons and sums in
    the same order. ValueError, as `Profile.earliest`, for a job whose cores are never free.
    """
    global _spent
    if not shapes:
        return []
    if _spent < PYTHON_BUDGET:
        _spent += len(shapes) * len(profile.times)
        return [place(profile, cores, span, after) for cores, span in shapes]
    return _place_compiled(profile, shapes, after)


def _place_compiled(
    profile: Profile, shapes: Sequence[tuple[int, float]], after: float
) -> list[float]:
    """`place_each` as one compiled loop over the profile copied into arrays."""
    import numpy as np

    from schedsim.policies.planning.kernels import place_all

    n, count = len(profile.times), len(shapes)
    times, free = _arrays(profile, n + 2 * count)  # each reservation splits two steps at most
    cores = np.fromiter((c for c, _ in shapes), np.int64, count)
    spans = np.fromiter((s for _, s in shapes), float, count)
    n, starts, placed = place_all(times, free, n, cores, spans, after)
    profile.times = times[:n].tolist()
    profile.free = free[:n].tolist()
    if placed < count:
        raise ValueError(f"{cores[placed]} cores can never be free (machine has {profile.total})")
    return starts.tolist()


def _arrays(profile: Profile, room: int) -> tuple[Any, Any]:
    """The profile's times and free cores as arrays with ``room`` places (a compiled loop
    grows the profile in them)."""
    import numpy as np

    n = len(profile.times)
    times = np.empty(room)
    times[:n] = profile.times
    free = np.empty(room, np.int64)
    free[:n] = profile.free
    return times, free


def compress(profile: Profile, reservations: Mapping[int, Reservation]) -> dict[int, float]:
    """Re-anchor every reservation, in order of start time (ties by job id).

    Each one moves to the earliest anchor not after its current start (a
    hole left by an early end, `Profile.earliest_before`), in ``profile``;
    returns the new starts of those that moved, in the order they moved.

    On a busy log the walks of the profile, one per waiting job at every early
    end, were most of conservative backfilling's time: once this process's
    compressions have used up `PYTHON_BUDGET` in Python, they run as one
    compiled loop (`schedsim.policies.planning.kernels.compress_plan`), the same
    comparisons and sums in the same order, so the same starts.
    """
    global _spent
    if not reservations:
        return {}
    if _spent < PYTHON_BUDGET:
        _spent += len(reservations) * len(profile.times)
        return _compress_python(profile, reservations)
    return _compress_compiled(profile, reservations)


def _compress_python(profile: Profile, reservations: Mapping[int, Reservation]) -> dict[int, float]:
    """`compress` with the profile's own list methods (section 2.1.1 as worded)."""
    moved: dict[int, float] = {}
    for jid, (start, span, cores) in sorted(reservations.items(), key=by_start):
        new = profile.earliest_before(cores, span, start)
        if new < start:
            profile.release(start, span, cores)
            profile.reserve(new, span, cores)
            moved[jid] = new
    return moved


def _compress_compiled(
    profile: Profile, reservations: Mapping[int, Reservation]
) -> dict[int, float]:
    """`compress` as one compiled loop over the profile copied into arrays."""
    import numpy as np

    from schedsim.policies.planning.kernels import compress_plan

    n, count = len(profile.times), len(reservations)
    times, free = _arrays(profile, n + 4 * count)  # each move splits four steps at most
    jids = np.fromiter(reservations, np.int64, count)
    held = np.fromiter(chain.from_iterable(reservations.values()), float, 3 * count)
    starts, spans = held[0::3], held[1::3]
    order = np.lexsort((jids, starts))  # by start, ties by id (`by_start`)
    n, moved, new_starts = compress_plan(
        times, free, n, starts, spans, held[2::3].astype(np.int64), order
    )
    if not len(moved):
        return {}
    profile.times = times[:n].tolist()
    profile.free = free[:n].tolist()
    return dict(zip(jids[moved].tolist(), new_starts.tolist(), strict=True))


def by_start(item: tuple[int, Reservation]) -> tuple[float, int]:
    """Sort key of ``(job id, reservation)``: start time, then id."""
    return (item[1][0], item[0])


def plan(
    now: float, free: int, running: Iterable[Planned], queue: Iterable[JobView]
) -> tuple[Profile, dict[int, float]]:
    """A conservative plan from scratch: the profile of the running jobs, then every
    queued job anchored in the order given (submit order, as they arrived).

    Returns the profile with every reservation in it and each job's planned start.
    """
    profile = Profile.of_running(now, free, running)
    starts = {job.id: place(profile, job.size, duration(job.estimate), now) for job in queue}
    return profile, starts


def estimated_start(profile: Profile, job: JobView, now: float) -> float:
    """The start ``job`` would be given now on ``profile`` (which is left unchanged)."""
    return profile.earliest(job.size, duration(job.estimate), now)


def estimated_response(
    now: float,
    free: int,
    running: Iterable[Planned],
    queue: Iterable[JobView],
    job: JobView,
) -> float:
    """``job``'s response time (end - submit, by its estimate) under conservative
    backfilling, were it anchored now behind the ``queue`` (`plan`)."""
    profile, _ = plan(now, free, running, (j for j in queue if j.id != job.id))
    return estimated_start(profile, job, now) + job.estimate - job.submit
