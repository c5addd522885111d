"""CREASY's pass as one compiled loop (`creasy_pass`), for `schedsim.policies.creasy.policy`.

CREASY (Feitelson & Shmueli 2009, section 2) orders its whole queue by Equation 2
at every pass, then backfills as EASY: a dozen numpy calls on about a hundred jobs
and a Python loop over them in a loaded closed-loop run, where one compiled loop
orders only the jobs the pass can start and decides as EASY does. A run compiles it
with numba only once it needs it (`schedsim.policies.creasy.policy.PYTHON_BUDGET`);
compiled code is cached on disk (``cache=True``; `schedsim.policies.compiled`). Same
arithmetic in the same order as the numpy expressions (no ``fastmath``), so
schedules are the same bit for bit.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["creasy_keys", "creasy_pass", "creasy_scan"]


@njit(cache=True)
def _before(key, submit, ids, a, b):
    # Job a goes before job b: by key (minus the priority), then submit time, then id.
    if key[a] != key[b]:
        return key[a] < key[b]
    if submit[a] != submit[b]:
        return submit[a] < submit[b]
    return ids[a] < ids[b]


@njit(cache=True)
def creasy_keys(estimate, submit, done, now, alpha, scale, slope, per_minute):
    """Minus each queued job's CREASY priority (Feitelson & Shmueli 2009, Equation 2).

    ``alpha * scale / d**2 + wait`` with ``wait = (now - submit - done) / 60`` and
    ``d = slope * ((wait + estimate / 60) * per_minute) + 1`` (``scale`` is at-zero x
    ``slope``, 0.8 x 0.05, computed by the caller as
    `schedsim.policies.creasy.policy.criticality` computes it; ``per_minute`` the units
    of Equation 1's response time in a minute, 1.0 for its default reading): the numpy
    expression's operations in its order, so the same numbers bit for bit (tested).
    """
    n = len(estimate)
    key = np.empty(n)
    for i in range(n):
        wait = (now - submit[i] - done[i]) / 60.0
        d = slope * ((wait + estimate[i] / 60.0) * per_minute) + 1.0
        key[i] = -(alpha * (scale / (d * d)) + wait)
    return key


@njit(cache=True)
def creasy_scan(size, estimate, submit, done, ids, now, alpha, scale, free, slope, per_minute):
    """The queue positions a CREASY pass with ``free`` free cores looks at, in its order.

    `schedsim.policies.creasy.policy.CREASY.ordered`'s order, on the priorities of
    `creasy_keys`, less the jobs that cannot start: kept are the jobs that fit
    ``free`` and the first of the others (which may take the reservation); sorted
    highest priority first, ties by submit time, then id (an insertion sort: a
    handful of jobs fit a loaded machine).
    """
    n = len(size)
    key = creasy_keys(estimate, submit, done, now, alpha, scale, slope, per_minute)
    out = np.empty(n, np.int64)
    m = 0
    wide = -1
    for i in range(n):
        if size[i] <= free:
            out[m] = i
            m += 1
        elif wide < 0 or _before(key, submit, ids, i, wide):
            wide = i
    if wide >= 0:
        out[m] = wide
        m += 1
    for a in range(1, m):
        x = out[a]
        j = a - 1
        while j >= 0 and _before(key, submit, ids, x, out[j]):
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = x
    return out[:m]


@njit(cache=True)
def creasy_pass(
    size, estimate, submit, done, ids, now, alpha, scale, free, run_end, run_size, grace,
    slope, per_minute,
):  # fmt: skip
    """One CREASY pass: EASY backfilling over the queue in CREASY's order, compiled.

    `schedsim.policies.backfilling.EASY.schedule` on the jobs `creasy_scan` keeps
    (those that fit ``free`` and the first of the others, which is all a pass can
    touch: free cores only fall during a pass). Starts jobs in order while they fit;
    the first that does not is the head and gets the reservation at the shadow
    time (`schedsim.policies.planning.easy.shadow`: the running jobs, ``run_end``
    and ``run_size``, and this pass's starts free their cores at their planned
    ends, an overrun job ``grace`` seconds on at least,
    `schedsim.policies.planning.profile.planned_end`); the rest backfill if they end
    by then or fit the extra cores.

    Returns the queue positions started, in order, the head's position (-1: none),
    and the shadow time and extra cores (meaningful only with a head).
    """
    picked = creasy_scan(
        size, estimate, submit, done, ids, now, alpha, scale, free, slope, per_minute
    )
    m = len(picked)
    started = np.empty(m, np.int64)
    s = 0
    k = 0
    head = -1
    while k < m:
        i = picked[k]
        k += 1
        if size[i] <= free:
            started[s] = i
            s += 1
            free -= size[i]
        else:
            head = i
            break
    if head < 0:
        return started[:s], head, math.inf, 0
    when, extra = _shadow(
        now, free, run_end, run_size, started[:s], estimate, size, size[head], grace
    )
    if free == 0:
        return started[:s], head, when, extra
    while k < m:
        i = picked[k]
        k += 1
        c = size[i]
        if c > free:
            continue
        if now + estimate[i] <= when:
            pass
        elif c <= extra:
            extra -= c
        else:
            continue
        started[s] = i
        s += 1
        free -= c
        if free == 0:
            break
    return started[:s], head, when, extra


@njit(cache=True)
def _shadow(now, free, run_end, run_size, started, estimate, size, cores, grace):
    # `planning.easy.shadow` over the running jobs and this pass's starts (planned to
    # end at now + estimate): the earliest planned end by which ``cores`` are free,
    # every job ending at that instant included, and the cores spare then. The
    # answer does not depend on how ties in the ends are ordered.
    if free >= cores:
        return now, free - cores
    r = len(run_end)
    n = r + len(started)
    ends = np.empty(n)
    cores_of = np.empty(n, np.int64)
    for j in range(r):
        ends[j] = _planned_end(run_end[j], now, grace)
        cores_of[j] = run_size[j]
    for j in range(len(started)):
        ends[r + j] = _planned_end(now + estimate[started[j]], now, grace)
        cores_of[r + j] = size[started[j]]
    order = np.argsort(ends)
    for a in range(n):
        free += cores_of[order[a]]
        if free >= cores:
            t = ends[order[a]]
            for b in range(a + 1, n):
                if ends[order[b]] != t:
                    break
                free += cores_of[order[b]]
            return t, free - cores
    return math.inf, 0


@njit(cache=True)
def _planned_end(expected_end, now, grace):
    # `planning.profile.planned_end`: an overrun job is planned to run as long again
    # as it has overrun, at least ``grace`` seconds.
    if expected_end > now:
        return expected_end
    return now + max(now - expected_end, grace)
