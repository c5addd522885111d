"""Conservative backfilling's compression as one compiled loop (`compress_plan`), for
`schedsim.policies.planning.conservative`.

Conservative backfilling's compression (seed 000 section 2.1.1) walks the
availability profile once per waiting job at every early end: a few microseconds
each in Python, a hundred thousand walks on a busy month. A run compiles it with
numba only once it needs it (`schedsim.policies.planning.conservative.PYTHON_BUDGET`);
compiled code is cached on disk (``cache=True``; `schedsim.policies.compiled`), about
2 s to compile on the development machine. Same comparisons and sums in the same
order as the Python methods (no ``fastmath``), so schedules are the same bit for bit.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["compress_plan"]


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
    """Conservative compression over a profile held in arrays (seed 000 section 2.1.1).

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
