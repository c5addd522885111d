"""Conservative backfilling's compression and anchoring as compiled loops (`compress_plan`,
`place_all`), for `schedsim.policies.planning.conservative`.

Conservative backfilling (Kettimuthu 2003, section 2.1.1) walks the availability profile
once per waiting job at every early end (compression) and, where a policy rebuilds
its plan at every pass (seed 003's space sharing, `schedsim.policies.spacesharing`),
once per waiting job at every pass: a few microseconds each in Python, a hundred
thousand walks on a busy month. A run compiles them with
numba only once it needs it (`schedsim.policies.planning.conservative.PYTHON_BUDGET`);
compiled code is cached on disk (``cache=True``; `schedsim.policies.compiled`), about
2 s to compile on the development machine. Same comparisons and sums in the same
order as the Python methods (no ``fastmath``), so schedules are the same bit for bit.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["compress_plan", "place_all"]


# The loops of `schedsim.policies.planning.profile.Profile` (_split, add,
# earliest_before) over arrays with room to grow: ``times[:n]`` and ``free[:n]``
# are the profile's steps. Same comparisons and sums in the same order, so the
# same steps and starts as the list-based methods, bit for bit.


@njit(cache=True)
def _bisect_left(times, n, t):
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi) // 2
        if times[mid] < t:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def _split(times, free, n, t):
    # Index of a step starting exactly at ``t`` (made if needed), and the new length.
    i = _bisect_left(times, n, t)
    if i < n and times[i] == t:
        return i, n
    level = free[i - 1] if i > 0 else free[n - 1]  # the list's free[i - 1]
    for k in range(n, i, -1):
        times[k] = times[k - 1]
        free[k] = free[k - 1]
    times[i] = t
    free[i] = level
    return i, n + 1


@njit(cache=True)
def _delete(times, free, n, i):
    for k in range(i, n - 1):
        times[k] = times[k + 1]
        free[k] = free[k + 1]
    return n - 1


@njit(cache=True)
def _add(times, free, n, start, end, cores):
    # Profile.add: ``cores`` more free over [start, end), equal neighbours merged.
    if not end > start:
        return n
    a, n = _split(times, free, n, start)
    if end < math.inf:
        b, n = _split(times, free, n, end)
    else:
        b = n
    for k in range(a, b):
        free[k] += cores
    if b < n and free[b] == free[b - 1]:
        n = _delete(times, free, n, b)
    if a > 0 and free[a] == free[a - 1]:
        n = _delete(times, free, n, a)
    return n


@njit(cache=True)
def _earliest_before(times, free, n, cores, duration, start):
    # Profile.earliest_before: the first run of steps with ``cores`` free that lasts
    # ``duration`` or reaches ``start``; ``start`` if there is none.
    k = _bisect_left(times, n, start)
    open_ = False
    c = 0.0
    for j in range(k):
        if free[j] >= cores:
            if not open_:
                c = times[j]
                open_ = True
            if j + 1 == k or times[j + 1] >= c + duration:
                return c
        else:
            open_ = False
    return start


@njit(cache=True)
def compress_plan(times, free, n, starts, spans, cores, order):
    """Conservative compression over a profile held in arrays (Kettimuthu 2003, section 2.1.1).

    ``times[:n]``, ``free[:n]`` are the profile's steps, with room for four
    more per reservation; reservation ``r`` is ``(starts[r], spans[r],
    cores[r])``, taken in the order of ``order``. Each moves to its earliest
    anchor not after its start, changing the profile in place. Returns the
    profile's new length, and the reservations that moved and their new
    starts, in the order they moved.
    """
    moved = np.empty(len(order), np.int64)
    new_starts = np.empty(len(order), np.float64)
    m = 0
    for o in range(len(order)):
        r = order[o]
        start, span, c = starts[r], spans[r], cores[r]
        new = _earliest_before(times, free, n, c, span, start)
        if new < start:
            n = _add(times, free, n, start, start + span, c)
            n = _add(times, free, n, new, new + span, -c)
            moved[m] = r
            new_starts[m] = new
            m += 1
    return n, moved[:m], new_starts[:m]


@njit(cache=True)
def _earliest(times, free, n, cores, duration, after):
    # Profile.earliest(cores, duration, after) with no limit and no own reservation:
    # the earliest t >= after with ``cores`` free over [t, t + duration), and
    # False when the cores are never free (where the list method raises).
    j = _bisect_right(times, n, after) - 1
    if j < 0:
        j = 0
    c = after if after > times[0] else times[0]
    while c < math.inf:
        seg_end = times[j + 1] if j + 1 < n else math.inf
        if free[j] < cores:
            if seg_end == math.inf:
                return c, False
            c = seg_end
        elif seg_end >= c + duration:
            return c, True
        j += 1
    return c, True


@njit(cache=True)
def _bisect_right(times, n, t):
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi) // 2
        if t < times[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(cache=True)
def place_all(times, free, n, cores, spans, after):
    """Anchor jobs one after the other on a profile held in arrays (Kettimuthu 2003, section 2.1.1).

    ``times[:n]``, ``free[:n]`` are the profile's steps, with room for two more
    per job; job ``k`` needs ``cores[k]`` for ``spans[k]`` seconds, at or after
    ``after``. Each is placed at its earliest anchor and reserved there, in
    order, changing the profile in place (`schedsim.policies.planning.conservative.place`
    once per job). Returns the profile's new length, the starts and how many jobs
    were placed: fewer than all when a job's cores are never free (it and those
    after it are not).
    """
    starts = np.empty(len(cores), np.float64)
    for k in range(len(cores)):
        start, fits = _earliest(times, free, n, cores[k], spans[k], after)
        if not fits:
            return n, starts, k
        starts[k] = start
        n = _add(times, free, n, start, start + spans[k], -cores[k])
    return n, starts, len(cores)
