"""Immediate Service's check of the suspended jobs' homes (`schedsim.policies.immediate`).

Its schedules are checked with every policy's (tests/test_invariants.py, test_suspension.py);
here the compiled loops that say whether a home fits (`schedsim.policies.preemption.fits_home`)
and which homes do are checked against numpy's expression of the same rule, and the homes
IS keeps from pass to pass (from its own decisions, or by comparing the suspended jobs'
tuples) against the same made afresh at every pass.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedsim import Simulation
from schedsim.model.overhead import MemoryOverhead
from schedsim.model.policy import View
from schedsim.policies.immediate import ImmediateService
from schedsim.policies.preemption import home_cores
from schedsim.policies.preemption_kernels import home_fits, homes_fitting
from schedsim.workloads.catalog import load
from schedsim.workloads.transforms import first


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
@given(homes(), st.lists(st.integers(0, 100), min_size=8, max_size=8))
def test_homes_fitting_is_every_core_free_home_by_home(case, looks) -> None:
    avail, on, cores = case
    expected = [i for i, (n, c) in enumerate(zip(on, cores, strict=True)) if (avail[n] >= c).all()]
    assert [
        i for i, (n, c) in enumerate(zip(on, cores, strict=True)) if home_fits(avail, n, c)
    ] == (expected)
    if not on:
        assert expected == []
        return
    starts = np.cumsum([0, *(len(n) for n in on[:-1])]).astype(np.int64)
    # Where each home was last found short: any node of it (the answer is the same).
    short = starts + np.array([look % len(n) for look, n in zip(looks, on, strict=False)])
    nodes, cores_ = np.concatenate(on), np.concatenate(cores)
    short_node, short_need = nodes[short], cores_[short]
    got = homes_fitting(avail, nodes, cores_, starts, short_node, short_need)
    assert got.tolist() == expected
    # ... and where it looks first next time is where the home is short, if it is.
    for i in set(range(len(on))) - set(expected):
        assert avail[short_node[i]] < short_need[i]
        assert short_need[i] == cores[i][on[i].tolist().index(short_node[i])]


class _Checked(ImmediateService):
    """IS that checks, at every pass, what it keeps of the suspended jobs' homes against
    the same made from scratch (`schedsim.policies.preemption.home_cores`)."""

    passes_with_homes = 0
    #: How each change of the suspended jobs was brought in: from the last pass's own
    #: decisions (``changes``) or by comparing the tuples (``compared``).
    ways: ClassVar[dict[str, int]] = {}

    def _apply_changes(self, view: View, homes, added, resumed) -> bool:
        done = super()._apply_changes(view, homes, added, resumed)
        if done:
            _Checked.ways["changes"] = _Checked.ways.get("changes", 0) + 1
        return done

    def _compare(self, view: View, homes) -> None:
        _Checked.ways["compared"] = _Checked.ways.get("compared", 0) + 1
        super()._compare(view, homes)

    def _suspended_now(self, view: View):
        homes = super()._suspended_now(view)
        assert self._ids == {j.id for j in view.suspended}
        waiting = [j for j in view.suspended if j.allocation is None]
        assert [j.id for j in homes.jobs()] == [j.id for j in waiting]
        assert len(homes) == len(waiting)
        assert homes.per_node.tolist() == home_cores(waiting, view.nodes).tolist()
        # The homes laid end to end (struck-out ones among them) say which fit: on the
        # free cores, and on a free machine, where every home kept fits and no other.
        for avail in (view.free_per_node, np.full(view.nodes, view.cores_per_node)):
            expected = [j.id for j in waiting if (avail[j.home.nodes] >= j.home.cores).all()]
            assert [j.id for j in homes.fitting(avail)] == expected
        if waiting:
            _Checked.passes_with_homes += 1
        return homes


@pytest.mark.parametrize(
    ("trace", "jobs", "overhead"),
    [("kth", 3000, None), ("ctc", 1500, MemoryOverhead())],
    ids=["kth", "ctc-memory"],
)
def test_the_homes_kept_pass_by_pass_are_the_homes_made_afresh(trace, jobs, overhead) -> None:
    # Without overhead a change drops homes and adds new ones at the end; with the
    # memory model a job done writing out joins in the middle, and all is made again.
    _Checked.passes_with_homes = 0
    _Checked.ways = {}
    workload = first(load(trace), jobs)
    Simulation(workload, _Checked(), seed=3, overhead=overhead).run()
    assert _Checked.passes_with_homes > 100
    if overhead is None:
        # Every change but the first pass's came from the last pass's decisions.
        assert _Checked.ways["changes"] > 100 and _Checked.ways.get("compared", 0) <= 1
    else:  # with write-outs the tuples are compared
        assert _Checked.ways["compared"] > 100 and "changes" not in _Checked.ways
