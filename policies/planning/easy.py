"""EASY's reservation: the shadow time and the extra cores (seed 000 section 2.1.2).

EASY (aggressive) backfilling gives one reservation, to the first job in the
queue that cannot start: at the *shadow time*, the earliest time enough cores
are expected to be free for it, by the running jobs' estimates. A later job
may start now if it fits the free cores and either ends (by its estimate) by
the shadow time or uses no more than the *extra* cores, those left at the
shadow time once the reserved job has its share.

`shadow` computes both from the running jobs directly (sorted by planned
end: what EASY does at every pass), `shadow_by_end` from running jobs already
in that order (EASY keeps it from pass to pass while no job starts or ends);
`shadow_on` reads them off an availability profile, for a policy that plans
with one. They agree (tested).
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter

from schedsim.policies.planning.profile import INF, Planned, Profile, planned_end

__all__ = ["by_expected_end", "shadow", "shadow_by_end", "shadow_on"]

#: The key that orders running jobs by planned end (`shadow_by_end`).
by_expected_end = attrgetter("expected_end")


def shadow(now: float, free: int, running: Iterable[Planned], cores: int) -> tuple[float, int]:
    """When ``cores`` cores are expected free, and how many are spare then.

    ``running`` are objects with ``size`` and ``expected_end``. They free
    their cores at their planned ends (`planned_end`), in order; the shadow
    time is the end at which the free count first reaches ``cores`` (all jobs
    ending at that instant count). Returns ``(INF, 0)`` when running jobs
    alone will not free enough cores (cores held by suspended jobs): then
    nothing may backfill past the waiting job.
    """
    if free >= cores:
        return now, free - cores
    return shadow_by_end(now, free, sorted(running, key=by_expected_end), cores)


def shadow_by_end(now: float, free: int, ends: list[Planned], cores: int) -> tuple[float, int]:
    """`shadow`, for running jobs already in order of ``expected_end`` (ties in any
    order: all jobs ending at the shadow time count). ``ends`` is left as it is."""
    if free >= cores:
        return now, free - cores
    if ends and ends[0].expected_end <= now:
        # Overrun jobs (no kill at estimate) are planned after now, by how
        # long they have overrun (planned_end): not their order by expected end.
        ends = sorted(ends, key=lambda r: planned_end(r.expected_end, now))
    for i, job in enumerate(ends):
        free += job.size
        if free >= cores:
            t = planned_end(job.expected_end, now)
            # Every job planned to end at that same instant frees its cores too.
            for later in ends[i + 1 :]:
                if planned_end(later.expected_end, now) != t:
                    break
                free += later.size
            return t, free - cores
    return INF, 0


def shadow_on(profile: Profile, cores: int) -> tuple[float, int]:
    """The shadow time and extra cores of a job of ``cores`` cores on ``profile``.

    The first time at which ``cores`` cores are free, and how many more are
    free then; ``(INF, 0)`` when they never are. On a profile of the running
    jobs only (`Profile.of_running`), free cores only grow, and this is
    `shadow`'s answer.
    """
    if cores > profile.total:
        return INF, 0
    t = profile.earliest(cores, 0.0)
    return t, profile.free_at(t) - cores
