"""Conservative backfilling node by node (seed 000 section 2.1.1) on a machine of node
groups with memory and partitions: the plan (`schedsim.policies.planning.node_profile`)
and the policy (`schedsim.policies.backfilling.Conservative`)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from schedsim.model.cluster import Allocation
from schedsim.model.machine import Machine, NodeGroup
from schedsim.policies.planning.node_profile import NodeProfile

from test_machine import GB

# -- the plan ---------------------------------------------------------------------------


def _ones(nodes: int, memory: float | None = None) -> Machine:
    return Machine((NodeGroup("n", nodes, 1, memory),))


def test_a_job_keeps_the_same_nodes_for_its_whole_window() -> None:
    # Two one-core nodes: node 0 held over [0, 10), node 1 over [10, 20). A core is free
    # at every instant, but no node is free for 15 s before 10: then node 0 is, for good.
    m = _ones(2, GB)
    plan = NodeProfile.empty(m, 0.0)
    plan.reserve(0.0, 10.0, Allocation.on([0]))
    plan.reserve(10.0, 20.0, Allocation.on([1]))
    start, alloc = plan.earliest(1, 15.0, 0.0)
    assert start == 10.0 and alloc.nodes.tolist() == [0]
    # A window that fits before a step: node 1 for 10 s at 0.
    start, alloc = plan.earliest(1, 10.0, 0.0)
    assert start == 0.0 and alloc.nodes.tolist() == [1]
    plan.check()


def test_memory_bounds_the_cores_a_node_gives() -> None:
    # Four nodes of 4 cores and 16 GB; 12 GB a core: one core on each node.
    m = Machine((NodeGroup("n", 4, 4, 16 * GB),))
    plan = NodeProfile.empty(m, 0.0)
    start, alloc = plan.earliest(3, 5.0, 0.0, per_core=12 * GB)
    assert start == 0.0 and alloc.nodes.tolist() == [0, 1, 2] and alloc.cores.tolist() == [1] * 3
    plan.reserve(start, 5.0, alloc, 12 * GB)
    # Node 3 has its memory; nodes 0-2 have 3 cores but 4 GB: 2 GB a core fits two there.
    start, alloc = plan.earliest(8, 5.0, 0.0, per_core=2 * GB)
    assert start == 0.0 and alloc.cores.tolist() == [2, 2, 2, 2]
    start, _ = plan.earliest(8, 5.0, 0.0, per_core=4 * GB)  # one core per node until 5
    assert start == 5.0
    # Releasing what was reserved gives the idle machine back, as one step.
    plan.release(0.0, 5.0, Allocation.on([0, 1, 2]), 12 * GB)
    assert plan.times == [0.0]
    assert plan.free.tolist() == [[4] * 4] and plan.memory.tolist() == [[16 * GB] * 4]


def test_a_partition_keeps_a_job_to_its_nodes() -> None:
    m = _ones(4, GB)
    plan = NodeProfile.empty(m, 0.0)
    plan.reserve(0.0, 10.0, Allocation.on([2, 3]))
    start, alloc = plan.earliest(2, 1.0, 0.0, nodes=np.array([1, 2, 3]))
    assert start == 10.0 and alloc.nodes.tolist() == [1, 2]


def test_earlier_counts_the_reservation_itself_free() -> None:
    # One node, one job reserved at [10, 30); a hole at [0, 10) fits a window of 20 s
    # only with the job's own [10, 20) counted free.
    m = _ones(1, GB)
    plan = NodeProfile.empty(m, 0.0)
    own = Allocation.on([0])
    plan.reserve(10.0, 30.0, own)
    found = plan.earlier(1, 20.0, 10.0, own, 0.0)
    assert found is not None and found[0] == 0.0
    # Not after it, nor with a later start than now allows.
    assert plan.earlier(1, 20.0, 10.0, own, 10.0) is None
    # Another job over [5, 8) on the node: the window at 0 is cut, the next fits at 8.
    plan.reserve(5.0, 8.0, Allocation.on([0]))
    found = plan.earlier(1, 20.0, 10.0, own, 0.0)
    assert found is not None and found[0] == 8.0


def test_earlier_reads_a_step_the_reservation_begins_inside_as_busy() -> None:
    # Node 1 is held over [0, 10) by another job and over [10, 30) by the job itself:
    # one step [0, 30), which its own start does not begin. Node 0 is busy until 40.
    m = _ones(2, GB)
    plan = NodeProfile.empty(m, 0.0)
    own = Allocation.on([1])
    plan.reserve(0.0, 10.0, Allocation.on([1]))
    plan.reserve(10.0, 30.0, own)
    plan.reserve(0.0, 40.0, Allocation.on([0]))
    assert plan.times == [0.0, 30.0, 40.0]
    # Its own core counts as free from 10 only: at 0 it would need node 1 over [0, 10)
    # too, which the other job holds. (Counted free over the whole step, it would move.)
    assert plan.earlier(1, 20.0, 10.0, own, 0.0) is None


def test_block_takes_nodes_out_and_a_reservation_there_stays() -> None:
    m = Machine((NodeGroup("n", 3, 2, 8 * GB), NodeGroup("big", 1, 2)))
    plan = NodeProfile.empty(m, 0.0)
    plan.reserve(0.0, 10.0, Allocation.on([0], 1), GB)
    plan.block([0, 1, 3], 5.0, 20.0)
    free, memory = plan.at(6.0)
    assert free.tolist() == [-1, 0, 2, 0]
    assert memory.tolist() == [-GB, 0, 8 * GB, math.inf]
    start, alloc = plan.earliest(2, 10.0, 0.0)  # node 2 only until 20
    assert start == 0.0 and alloc.nodes.tolist() == [2]
    start, alloc = plan.earliest(4, 1.0, 0.0)  # before the block: 7 cores free
    assert start == 0.0 and alloc.cores.tolist() == [1, 2, 1]
    start, alloc = plan.earliest(4, 10.0, 0.0)  # every window of 10 s meets the block
    assert start == 20.0 and alloc.nodes.tolist() == [0, 1]
    plan.block([2], 0.0)  # for good
    with pytest.raises(ValueError, match="can never be free"):
        plan.earliest(8, 1.0, 0.0)


def test_the_running_jobs_give_their_cores_back_at_their_planned_ends() -> None:
    m = Machine((NodeGroup("n", 3, 2, 8 * GB),))
    a, b = Allocation.on([0, 1], 2), Allocation.on([2], 1)
    free = np.array([0, 0, 1])
    memory = np.array([4 * GB, 4 * GB, 7 * GB])
    plan = NodeProfile.of_running(m, 5.0, free, memory, [(30.0, b, GB), (20.0, a, GB)])
    assert plan.times == [5.0, 20.0, 30.0]
    assert plan.free.tolist() == [[0, 0, 1], [2, 2, 1], [2, 2, 2]]
    assert plan.memory[-1].tolist() == [6 * GB, 6 * GB, 8 * GB]
    plan.advance(25.0)
    assert plan.times == [25.0, 30.0] and plan.free.tolist() == [[2, 2, 1], [2, 2, 2]]
