"""The cluster's core accounting: what allocation and release check, and what they refuse."""

from __future__ import annotations

import numpy as np
import pytest

from schedsim.model.cluster import Allocation, AllocationError, Cluster


def test_allocate_and_release_give_the_cores_back() -> None:
    c = Cluster(8, cores_per_node=2)
    a = c.first_fit(5)
    assert a is not None
    c.allocate(a, 1, known_free=True)
    assert c.free_cores == 11 and c.free_per_node.tolist() == [0, 0, 1, 2, 2, 2, 2, 2]
    c.release(a, 1)
    assert c.free_cores == 16 and c.free_per_node.tolist() == [2] * 8
    assert c.holders == {}


def test_busy_cores_are_refused_and_nothing_is_taken() -> None:
    c = Cluster(4)
    c.allocate(Allocation.on([1, 2]), 1)
    with pytest.raises(AllocationError, match="not free on nodes 2-3"):
        c.allocate(Allocation.on([2, 3]), 2)
    assert c.free_per_node.tolist() == [1, 0, 0, 1] and set(c.holders) == {1}


def test_only_the_allocation_held_is_released_and_only_once() -> None:
    c = Cluster(4)
    a = Allocation.on([0, 1])
    c.allocate(a, 7)
    # Equal nodes are not enough: the allocation must be the one the job holds.
    with pytest.raises(AllocationError, match="not held on nodes 0-1"):
        c.release(Allocation.on([0, 1]), 7)
    with pytest.raises(AllocationError, match="not held"):
        c.release(a, 8)
    c.release(a, 7)
    with pytest.raises(AllocationError, match="not held"):
        c.release(a, 7)
    assert c.free_per_node.tolist() == [1, 1, 1, 1] and c.free_cores == 4


def test_the_free_snapshot_is_made_again_after_a_change_only() -> None:
    c = Cluster(3)
    first = c.free_snapshot()
    assert c.free_snapshot() is first and not first.flags.writeable
    a = c.first_fit(2)
    assert a is not None
    c.allocate(a, 1, known_free=True)
    after = c.free_snapshot()
    assert after is not first and after.tolist() == [0, 0, 1]
    assert np.array_equal(first, [1, 1, 1])  # an old snapshot does not change


def test_a_resume_takes_the_cores_it_held_where_they_are_free() -> None:
    c = Cluster(4, cores_per_node=4)
    home = Allocation.on([1, 2], [2, 1])
    # Machine-wide core ids: node n's cores are 4n .. 4n + 3.
    other = Allocation.on([1], [1])
    c.allocate(other, owner=9)  # core 4, the lowest on node 1
    c.allocate(home, owner=1)
    held = c.cores_of(1)
    assert held.tolist() == [5, 6, 8]  # the lowest free ones, in node order
    c.release(home, 1)
    c.release(other, 9)
    # Back on the same cores, though lower ones are free now.
    c.allocate(home, owner=1, prefer=held)
    assert c.cores_of(1).tolist() == [5, 6, 8]
    c.release(home, 1)
    # The same cores given in another order are taken as they are given.
    c.allocate(home, owner=1, prefer=np.array([8, 6, 5]))
    assert c.cores_of(1).tolist() == [8, 6, 5]
    c.release(home, 1)
    # One of them busy: that node's lowest free cores instead, the other node's kept.
    c.allocate(Allocation.on([1], [1]), owner=7, prefer=np.array([6]))
    c.allocate(home, owner=1, prefer=held)
    assert c.cores_of(1).tolist() == [4, 5, 8]
