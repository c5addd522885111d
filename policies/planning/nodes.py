"""Planning on a machine of node groups, memory and partitions: which cores a job gets.

On identical nodes without memory a job fits when enough cores are free anywhere, and
the backfilling family counts cores. On a machine of node groups, with memory or
partitions (`schedsim.model.machine.Machine`), where a job fits depends on which nodes
are free: it may only use its partition's nodes, and on each node no more cores than
the node's free memory holds at the job's memory per core. `Room` is the free cores
and memory per node, a working copy a pass places its jobs on (first fit, as the
scheduler places: `schedsim.model.cluster.place`); `shadow` is EASY's shadow time in these
terms (seed 000 section 2.1.2): the earliest time the running jobs, ending by their
estimates, leave room for a job, and the room then, beside which a later job may run
past that time (`Shadow.beside`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from schedsim.model.cluster import Allocation, place
from schedsim.model.machine import Machine, job_memory
from schedsim.model.view import JobView, View
from schedsim.policies.planning.profile import planned_end

__all__ = ["Room", "Shadow", "shadow"]


@dataclass
class Room:
    """Free cores (and memory, KB, when the machine has it) per node; mutable copies.

    ``total`` is the free cores of the whole machine, kept as jobs are placed and
    freed: a job wider than that fits nowhere, and most placements on a busy machine
    are told so without looking at a node."""

    free: np.ndarray
    memory: np.ndarray | None
    machine: Machine
    total: int

    @classmethod
    def of(cls, view: View) -> Room:
        """The room a view shows (copies: placing jobs on it changes nothing else)."""
        assert view.machine is not None
        memory = None if view.free_memory is None else view.free_memory.copy()
        return cls(view.free_per_node.copy(), memory, view.machine, view.free_cores)

    def copy(self) -> Room:
        memory = None if self.memory is None else self.memory.copy()
        return Room(self.free.copy(), memory, self.machine, self.total)

    def place(self, job: JobView) -> Allocation | None:
        """First fit of ``job`` on its nodes with its memory, or None (nothing taken)."""
        if job.size > self.total:
            return None
        m = self.machine
        return place(self.free, self.memory, job.size, m.max_cores_per_node,
                     m.nodes_for(job.job), job_memory(job.job))  # fmt: skip

    def take(self, alloc: Allocation, job: JobView) -> None:
        """``job`` holds ``alloc`` (and its memory there)."""
        self.free[alloc.nodes] -= alloc.cores
        self.total -= alloc.size
        if self.memory is not None:
            self.memory[alloc.nodes] -= alloc.cores * job_memory(job.job)

    def give(self, alloc: Allocation, job: JobView) -> None:
        """``job`` leaves ``alloc`` (and its memory there)."""
        self.free[alloc.nodes] += alloc.cores
        self.total += alloc.size
        if self.memory is not None:
            self.memory[alloc.nodes] += alloc.cores * job_memory(job.job)

    def give_all(self, freed: list[tuple[Allocation, JobView]]) -> None:
        """Each job of ``freed`` leaves its cores (`give`, all at once: one numpy call
        for many jobs, as a shadow time's releases come)."""
        if not freed:
            return
        if len(freed) == 1:
            self.give(*freed[0])
            return
        nodes = np.concatenate([a.nodes for a, _ in freed])
        cores = np.concatenate([a.cores for a, _ in freed])
        np.add.at(self.free, nodes, cores)
        self.total += int(cores.sum())
        if self.memory is not None:
            per = np.repeat([job_memory(j.job) for _, j in freed], [len(a.nodes) for a, _ in freed])
            np.add.at(self.memory, nodes, cores * per)

    def within(self, other: Room) -> Room:
        """The room left in both: per node the fewer free cores and the less memory."""
        memory = None
        if self.memory is not None and other.memory is not None:
            memory = np.minimum(self.memory, other.memory)
        free = np.minimum(self.free, other.free)
        return Room(free, memory, self.machine, int(free.sum()))


@dataclass
class Shadow:
    """EASY's reservation for ``job``: it can start at ``when``, where ``future`` is the
    room then (before it takes its cores) and ``allocation`` the cores it would take."""

    job: JobView
    when: float
    allocation: Allocation | None
    future: Room

    def beside(self, now: Room, job: JobView) -> Allocation | None:
        """Cores for ``job``, which would still run at ``when``, that leave the reserved
        job room then; None when there are none. The job's first fit now, when the
        reserved job still fits beside it (on identical nodes this is EASY's count of
        extra cores), else its first fit away from the cores the reserved job would
        take. What it gets is held in ``future``."""
        if self.allocation is None:  # never fits: nothing to keep (`shadow`)
            return now.place(job)
        alloc = now.place(job)
        if alloc is None:
            return None  # no room now anywhere: none away from the reservation either
        after = self.future.copy()
        after.take(alloc, job)
        placed = after.place(self.job)
        if placed is not None:
            self.future, self.allocation = after, placed
            return alloc
        extra = self.future.copy()
        extra.take(self.allocation, self.job)
        alloc = now.within(extra).place(job)
        if alloc is not None:
            self.future.take(alloc, job)
        return alloc


def shadow(
    now: Room,
    job: JobView,
    holders: Iterable[tuple[float, Allocation, JobView]],
    time: float,
) -> Shadow:
    """The earliest time ``job`` fits, freeing the ``holders`` (expected end, cores, job)
    from ``now``'s room at ``time`` in the order they are planned to end
    (`schedsim.policies.planning.profile.planned_end`: an overrun job a while after
    ``time``), every holder planned to end at that same instant included, as EASY's
    count does (`schedsim.policies.planning.easy.shadow_by_end`); the room then and the
    cores the job takes.

    Infinite (``when`` inf, no allocation) when it would not fit even with every holder
    gone: then no later job can be kept from delaying it."""
    future = now.copy()
    planned = sorted(
        ((planned_end(end, time), alloc, holder) for end, alloc, holder in holders),
        key=lambda h: h[0],
    )
    machine = now.machine
    mine = machine.partition_of(job.job)
    # The free cores on the job's nodes, counted up as holders of its partition (which
    # EASY keeps apart from the others) end: no placement is tried while too few.
    nodes = machine.nodes_for(job.job)
    have = now.total if nodes is None else int(now.free[nodes].sum())
    freed: list[tuple[Allocation, JobView]] = []  # given back at the next placement
    for i, (end, alloc, holder) in enumerate(planned):
        freed.append((alloc, holder))
        if mine is None or machine.partition_of(holder.job) is mine:
            have += alloc.size
        if i + 1 < len(planned) and planned[i + 1][0] == end:
            continue  # the others ending then first
        if have < job.size:
            continue
        future.give_all(freed)
        freed.clear()
        placed = future.place(job)
        if placed is not None:
            return Shadow(job, end, placed, future)
    future.give_all(freed)
    return Shadow(job, math.inf, None, future)
