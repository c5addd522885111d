"""Compiled loops of the preemption vocabulary (`schedsim.policies.preemption`): placing
a job off the suspended jobs' homes (`first_fit_avoiding`, for SS, TSS and IS),
whether a suspended job's home is free (`home_fits`, the same three) and which
suspended jobs' homes are (`homes_fitting`, Immediate Service's check).

A busy machine keeps hundreds of jobs suspended, each tied to its home nodes (seed
000, section 3.3); a placement or a check over their homes is then a loop over
nodes whose per-call numpy overhead dwarfs its work, so it is compiled with numba.
The loops do the same arithmetic, in the same order, as the numpy expressions they
replace (no ``fastmath``), so schedules are the same bit for bit. Compiled code is
cached on disk (``cache=True``; `schedsim.policies.compiled`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["first_fit_avoiding", "home_fits", "homes_fitting"]


@njit(cache=True)
def home_fits(avail, nodes, cores):
    """Whether ``avail`` holds ``cores[p]`` cores on every node ``nodes[p]`` (one home,
    left at its first node short). `schedsim.policies.preemption.fits_home`."""
    for p in range(len(nodes)):  # noqa: SIM110 (a loop numba compiles plainly)
        if avail[nodes[p]] < cores[p]:
            return False
    return True


@njit(cache=True)
def homes_fitting(avail, nodes, cores, starts, short_node, short_need):
    """Which homes have every core in ``avail``: their indices, in order.

    The homes are laid end to end: home ``i`` is ``nodes[p]`` and ``cores[p]`` for
    ``p`` from ``starts[i]`` to the next start (or the end); none is empty. Home ``i``
    was last found short on node ``short_node[i]``, which it needs ``short_need[i]``
    cores of: that is looked at first, and a home found short when walked (it is left
    at its first node short of cores) has it moved there. A busy node mostly stays
    busy from one pass to the next (its job runs for hours), so most homes cost one
    look, in two arrays read in order; the order of the looks does not change the
    answer. `schedsim.policies.immediate._Homes.fitting`.
    """
    count = len(starts)
    out = np.empty(count, dtype=np.int64)
    k = 0
    for i in range(count):
        if avail[short_node[i]] < short_need[i]:
            continue
        end = starts[i + 1] if i + 1 < count else len(nodes)
        fits = True
        for p in range(starts[i], end):
            if avail[nodes[p]] < cores[p]:
                fits = False
                short_node[i] = nodes[p]
                short_need[i] = cores[p]
                break
        if fits:
            out[k] = i
            k += 1
    return out[:k]


@njit(cache=True)
def first_fit_avoiding(avail, avoid, size):
    """One core per node: the first ``size`` free nodes, those in ``avoid`` only when the
    others are too few (empty when the free nodes are).
    `schedsim.policies.preemption.fit_avoiding`."""
    spare = 0
    total = 0
    for n in range(len(avail)):
        if avail[n] > 0:
            total += 1
            if avail[n] > avoid[n]:
                spare += 1
    if total < size:
        return np.empty(0, dtype=np.int64)
    # Spare nodes first; then the lowest avoided ones, as many as still needed.
    extra = size - spare if spare < size else 0
    out = np.empty(size, dtype=np.int64)
    k = 0
    for n in range(len(avail)):
        if k == size:
            break
        if avail[n] <= 0:
            continue
        if avail[n] > avoid[n]:
            out[k] = n
            k += 1
        elif extra > 0:
            out[k] = n
            k += 1
            extra -= 1
    return out
