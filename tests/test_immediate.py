"""Immediate Service's check of the suspended jobs' homes (`schedsim.policies.immediate`).

Its schedules are checked with every policy's (tests/test_invariants.py, test_suspension.py);
here the compiled loop that says which homes fit is checked against numpy's expression of
the same rule (`schedsim.policies.selective.fits_home`, one home at a time).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from schedsim.policies import kernels


@st.composite
def homes(draw: st.DrawFn) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """Free cores on up to 12 nodes, and up to 8 homes (distinct nodes, 1-4 cores each)."""
    nodes = draw(st.integers(1, 12))
    avail = np.array(draw(st.lists(st.integers(0, 4), min_size=nodes, max_size=nodes)))
    on, cores = [], []
    for _ in range(draw(st.integers(0, 8))):
        chosen = draw(st.lists(st.integers(0, nodes - 1), min_size=1, max_size=nodes, unique=True))
        on.append(np.array(chosen, dtype=np.int64))
        cores.append(np.array([draw(st.integers(1, 4)) for _ in chosen], dtype=np.int64))
    return avail.astype(np.int64), on, cores


@settings(deadline=None)  # the first example loads (or compiles) the kernel
@given(homes())
def test_homes_fitting_is_every_core_free_home_by_home(case) -> None:
    avail, on, cores = case
    expected = [i for i, (n, c) in enumerate(zip(on, cores, strict=True)) if (avail[n] >= c).all()]
    if not on:
        assert expected == []
        return
    starts = np.cumsum([0, *(len(n) for n in on[:-1])]).astype(np.int64)
    got = kernels.homes_fitting(avail, np.concatenate(on), np.concatenate(cores), starts)
    assert got.tolist() == expected
