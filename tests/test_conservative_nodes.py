"""Conservative backfilling node by node (Kettimuthu 2003, section 2.1.1) on a machine of node
groups with memory and partitions: the plan (`schedsim.policies.planning.node_profile`)
and the policy (`schedsim.policies.backfilling.Conservative`)."""

from __future__ import annotations

import math
from collections import defaultdict
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schedsim.model.cluster import Allocation, ranges
from schedsim.model.machine import Machine, NodeGroup, Partition, job_memory
from schedsim.model.simulation import ModelSimulation
from schedsim.model.view import JobView, View
from schedsim.policies.backfilling import Conservative
from schedsim.policies.planning.node_profile import NodeProfile
from schedsim.workloads.transforms import exact_estimates
from schedsim.workloads.workload import Workload

from invariants import check_invariants, check_machine, record_holdings
from test_machine import GB, _job, _machine, draw_groups

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


# -- the policy ---------------------------------------------------------------------------


class Recording(Conservative):
    """Conservative that logs every reservation it makes: job id -> [(now, start, nodes)]."""

    def __init__(self) -> None:
        super().__init__()
        self.now = math.nan
        self.log: dict[int, list[tuple[float, float, str | None]]] = defaultdict(list)
        self.on_reserve = self._record

    def _record(self, job: JobView, start: float) -> None:
        alloc = self.allocations.get(job.id)
        nodes = None if alloc is None else ranges(alloc.nodes)
        self.log[job.id].append((self.now, start, nodes))

    def schedule(self, view: View):
        self.now = view.now
        return super().schedule(view)


def _recorded(w: Workload, m: Machine, **options: Any) -> tuple[Recording, Any]:
    """A run of `Recording` on ``m`` with every holding checked against the machine:
    the policy (its log) and the result."""
    policy = Recording()
    sim = ModelSimulation(w, policy, machine=m, **options)
    log = record_holdings(sim)
    result = sim.run()
    check_machine(result, w, m, log)
    return policy, result


def _starts(result) -> dict[int, tuple[float, str]]:
    rows = result.jobs
    return {
        int(i): (float(s), str(n))
        for i, s, n in zip(rows["id"], rows["start"], rows["nodes"], strict=True)
    }


def test_conservative_reserves_cores_on_each_partition_within_memory(tmp_path: Path) -> None:
    # Thin nodes 0-5 (4 cores, 16 GB: the default partition, batch), fat nodes 6-7
    # (8 cores, 256 GB: bigmem, number 2). Exact estimates. Worked by hand:
    m = _machine(tmp_path)
    jobs = [
        _job(1, 0, 100, 20),  # batch: nodes 0-4, until 100; node 5 stays free
        _job(2, 1, 50, 8, mem_gb=20, partition=2),  # bigmem: node 6 (12 cores by memory)
        # 12 GB a core: one core per thin node, and only node 5 is free now: reserved at
        # 100 on nodes 0-3, a core each.
        _job(3, 2, 100, 4, mem_gb=12),
        _job(4, 3, 40, 4),  # fits node 5 now, on no reserved core: starts at 3
        # 12 cores for 200 s: at 100, nodes 0-3 have 3 cores each beside job 3 (first
        # fit takes a node's every free core): reserved at 100 on nodes 0-3.
        _job(5, 4, 200, 12),
        _job(6, 5, 30, 10, partition=2),  # node 7's 8 cores are too few: 51, nodes 6-7
        _job(7, 6, 20, 6, partition=2),  # node 7 now, done by 26, before job 6's start
        _job(8, 7, 50, 4, mem_gb=2),  # node 5 when job 4 ends: 43, done by 93
        # 12 GB a core again: nodes 0-3 are left 4 GB by job 3 until 200, nodes 4-5 give
        # a core each; at 200 nodes 0-3 have a core and their memory each.
        _job(9, 8, 10, 4, mem_gb=12),
    ]
    w = Workload.from_jobs(jobs)
    policy, result = _recorded(w, m, log_reservations=True)
    assert _starts(result) == {
        1: (0, "0-4"), 2: (1, "6"), 3: (100, "0-3"), 4: (3, "5"), 5: (100, "0-3"),
        6: (51, "6-7"), 7: (6, "7"), 8: (43, "5"), 9: (200, "0-3"),
    }  # fmt: skip
    # Each waiting job was promised its start and its cores at arrival, and kept them.
    assert {j: [(s, n) for _, s, n in entries] for j, entries in policy.log.items()} == {
        1: [(0, "0-4")], 2: [(1, "6")], 3: [(100, "0-3")], 4: [(3, "5")], 5: [(100, "0-3")],
        6: [(51, "6-7")], 7: [(6, "7")], 8: [(43, "5")], 9: [(200, "0-3")],
    }  # fmt: skip
    promised = result.reservations
    job5 = promised[promised["job"] == 5]
    assert set(job5["nodes"]) == {"0-3"} and set(job5["start"]) == {100.0}


def test_compression_moves_a_reservation_into_a_hole_on_its_own_nodes(tmp_path: Path) -> None:
    # The same machine. Jobs 1 and 2 fill the thin nodes until 100 by their estimates;
    # job 1 (nodes 0-2) ends at 30 instead. Job 5 fills the fat nodes until 100.
    m = _machine(tmp_path)
    jobs = [
        _job(1, 0, 30, 12, est=100),  # nodes 0-2
        _job(2, 0, 100, 12),  # nodes 3-5
        _job(5, 0, 100, 16, partition=2),  # nodes 6-7
        # Reserved at 100 on nodes 0-1; at 30 the hole on nodes 0-2 fits it: moved to
        # 30 on nodes 0-1, and started.
        _job(3, 1, 50, 8),
        # 12 GB a core, one core per thin node: reserved at 100 on nodes 2-5. At 30 node
        # 2 has four cores free, which a count would give it, but its memory holds one
        # of them; at 80 (job 3's planned end) nodes 0-2 give three: it stays at 100.
        _job(4, 2, 20, 4, mem_gb=12),
        # bigmem: reserved at 100 on node 6; the hole is on batch's nodes: it stays.
        _job(6, 3, 10, 8, partition=2),
    ]
    w = Workload.from_jobs(jobs)
    policy, result = _recorded(w, m)
    starts = _starts(result)
    assert (starts[3], starts[4], starts[6]) == ((30, "0-1"), (100, "2-5"), (100, "6"))
    assert policy.log[3] == [(1, 100, "0-1"), (30, 30, "0-1")]
    assert policy.log[4] == [(2, 100, "2-5")]
    assert policy.log[6] == [(3, 100, "6")]


def test_compression_moves_a_reservation_onto_other_nodes(tmp_path: Path) -> None:
    # The hole is on nodes a reservation did not name: it moves there, earlier.
    m = _machine(tmp_path)
    jobs = [
        _job(1, 0, 100, 12),  # nodes 0-2 until 100
        _job(2, 0, 20, 12, est=150),  # nodes 3-5 until 150 by its estimate; ends at 20
        # 16 cores: at 100 only nodes 0-2 are free: reserved at 150 on nodes 0-3.
        _job(3, 1, 50, 16),
        # 8 cores: reserved at 100 on nodes 0-1 (done by 150).
        _job(4, 2, 50, 8),
    ]
    w = Workload.from_jobs(jobs)
    policy, result = _recorded(w, m)
    # At 20, in order of start: job 4 fits the hole on nodes 3-5 now: moved to 20 on
    # nodes 3-4. Then job 3: nodes 0-2 are busy until 100, when the whole partition
    # is free: moved to 100, on nodes 0-3.
    assert policy.log[4] == [(2, 100, "0-1"), (20, 20, "3-4")]
    assert policy.log[3] == [(1, 150, "0-3"), (20, 100, "0-3")]
    starts = _starts(result)
    assert (starts[3], starts[4]) == ((100, "0-3"), (20, "3-4"))


@st.composite
def _machines_and_jobs(draw: st.DrawFn) -> tuple[Machine, Workload]:
    """Random node groups (memory, speed), partitions that may overlap and may have no
    default, and jobs that fit their partitions, with exact estimates."""
    groups = draw_groups(draw)
    nodes = sum(g.nodes for g in groups)
    partitions: tuple[Partition, ...] = ()
    if nodes > 1 and draw(st.booleans()):
        cut = draw(st.integers(1, nodes - 1))
        # The second may reach back into the first, and the first may not be the default.
        back = draw(st.integers(0, cut))
        partitions = (
            Partition("a", tuple(range(cut)), 1, draw(st.booleans())),
            Partition("b", tuple(range(cut - back, nodes)), 2),
        )
    m = Machine(tuple(groups), partitions)
    jobs = []
    for i in range(1, draw(st.integers(1, 14)) + 1):
        part = draw(st.sampled_from([-1, 1, 2])) if partitions else -1
        job = _job(i, draw(st.integers(0, 60)), draw(st.integers(0, 40)), 1,
                   mem_gb=draw(st.sampled_from([0, 1, 4])), partition=part)  # fmt: skip
        most = m.most_cores(job)
        if most < 1:
            continue
        size = draw(st.integers(1, most))
        # Estimates above the run time: exact_estimates makes them exact.
        jobs.append(_job(i, job.submit, job.run_time, size, est=job.run_time + 5,
                         mem_gb=job_memory(job) / GB, partition=part))  # fmt: skip
    jobs.append(_job(1000, 0, 1, 1))
    return m, exact_estimates(Workload.from_jobs(jobs))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_machines_and_jobs())
def test_no_job_starts_later_than_its_first_reservation(case: tuple[Machine, Workload]) -> None:
    # Kettimuthu 2003, section 2.1.1: a reservation is a guarantee, and compression only moves
    # it earlier; node by node, the job starts on the cores its last reservation named.
    m, w = case
    policy, result = _recorded(w, m)
    check_invariants(result, w, m.total_cores, unit_rate=m.speed is None)
    starts = _starts(result)
    assert set(policy.log) == set(starts), "a job never got a reservation"
    submit = {j.id: j.submit for j in w}
    for jid, entries in policy.log.items():
        made, planned, nodes = zip(*entries, strict=True)
        start, ran_on = starts[jid]
        assert made[0] == submit[jid]
        assert start <= planned[0], f"job {jid} started {start}, first reserved {planned[0]}"
        assert all(b <= a for a, b in pairwise(planned)), entries
        assert start == planned[-1], f"job {jid} started {start}, reservations {entries}"
        if m.constrained:
            assert ran_on == nodes[-1], f"job {jid} ran on {ran_on}, reserved {entries}"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_machines_and_jobs())
def test_overruns_replan_and_keep_to_the_machine(case: tuple[Machine, Workload]) -> None:
    # Not killed at their estimates, jobs on slow nodes outlive them: the plan is
    # rebuilt from the running jobs (their cores planned free a while later), and no
    # job starts on cores or memory still held.
    m, w = case
    sim = ModelSimulation(w, Conservative(), machine=m, kill_at_estimate=False)
    log = record_holdings(sim)
    result = sim.run()
    check_machine(result, w, m, log)
    assert len(result.jobs) == len(w)


def test_groups_without_memory_or_partitions_keep_the_count_schedule() -> None:
    # Ten groups of ten one-core nodes are counted (not `constrained`): the schedule of
    # the plain 100-node machine, to the float.
    from schedsim.workloads import catalog, transforms

    w = transforms.first(catalog.load("kth"), 1500)
    plain = ModelSimulation(w, Conservative(), nodes=100).run().jobs
    ten = Machine(tuple(NodeGroup(f"g{k}", 10, 1) for k in range(10)))
    policy = Conservative()
    jobs = ModelSimulation(w, policy, machine=ten).run().jobs
    assert policy.node_profile is None
    for column in ("start", "end", "nodes"):
        assert jobs[column].tolist() == plain[column].tolist(), column


def test_a_job_of_memory_waits_where_a_count_would_start_it() -> None:
    # The count path would start job 2 on the four free cores; their memory holds one.
    m = Machine((NodeGroup("n", 2, 4, 16 * GB),))
    jobs = [_job(1, 0, 50, 4), _job(2, 1, 10, 4, mem_gb=8)]
    result = ModelSimulation(Workload.from_jobs(jobs), Conservative(), machine=m).run()
    assert _starts(result)[2] == (50, "0-1")
