"""Planning on a machine of node groups, memory and partitions: which cores a job gets.

On identical nodes without memory a job fits when enough cores are free anywhere, and
the backfilling family counts cores. On a machine of node groups, with memory or
partitions (`schedsim.model.machine.Machine`), where a job fits depends on which nodes
are free: it may only use its partition's nodes, and on each node no more cores than
the node's free memory holds at the job's memory per core. `Room` is the free cores
and memory per node, a working copy a pass places its jobs on (first fit, as the
scheduler places: `schedsim.model.cluster.room`); `shadow` is EASY's shadow time and
extra room in these terms (seed 000 section 2.1.2): the earliest time the running
jobs, ending by their estimates, leave room for a job, and what is left over at that
time once the job has its cores.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from schedsim.model.cluster import Allocation, first_fit, room
from schedsim.model.machine import Machine, job_memory
from schedsim.model.view import JobView, View

__all__ = ["Room", "Shadow", "shadow"]


@dataclass
class Room:
    """Free cores (and memory, KB, when the machine has it) per node; mutable copies."""

    free: np.ndarray
    memory: np.ndarray | None
    machine: Machine

    @classmethod
    def of(cls, view: View) -> Room:
        """The room a view shows (copies: placing jobs on it changes nothing else)."""
        assert view.machine is not None
        memory = None if view.free_memory is None else view.free_memory.copy()
        return cls(view.free_per_node.copy(), memory, view.machine)

    def copy(self) -> Room:
        memory = None if self.memory is None else self.memory.copy()
        return Room(self.free.copy(), memory, self.machine)

    def place(self, job: JobView) -> Allocation | None:
        """First fit of ``job`` on its nodes with its memory, or None (nothing taken)."""
        nodes = self.machine.nodes_for(job.job)
        # The general first fit: on nodes of one core it takes what `room` allows, which
        # the one-core shortcut (one core per free node) would not check.
        return first_fit(room(self.free, self.memory, nodes, job_memory(job.job)), job.size, 2)

    def take(self, alloc: Allocation, job: JobView) -> None:
        """``job`` holds ``alloc`` (and its memory there)."""
        self.free[alloc.nodes] -= alloc.cores
        if self.memory is not None:
            self.memory[alloc.nodes] -= alloc.cores * job_memory(job.job)

    def give(self, alloc: Allocation, job: JobView) -> None:
        """``job`` leaves ``alloc`` (and its memory there)."""
        self.free[alloc.nodes] += alloc.cores
        if self.memory is not None:
            self.memory[alloc.nodes] += alloc.cores * job_memory(job.job)

    def within(self, other: Room) -> Room:
        """The room left in both: per node the fewer free cores and the less memory."""
        memory = None
        if self.memory is not None and other.memory is not None:
            memory = np.minimum(self.memory, other.memory)
        return Room(np.minimum(self.free, other.free), memory, self.machine)


@dataclass
class Shadow:
    """EASY's reservation for ``job``: it can start at ``when`` on ``allocation``; ``extra``
    is the room left at that time once it has (what a job running past ``when`` may use)."""

    job: JobView
    when: float
    allocation: Allocation | None
    extra: Room


def shadow(now: Room, job: JobView, holders: Iterable[tuple[float, Allocation, JobView]]) -> Shadow:
    """The earliest time ``job`` fits, freeing the ``holders`` (expected end, cores, job)
    in order of expected end from ``now``'s room, and the room left then.

    Infinite (``when`` inf, no allocation, no extra room) when it would not fit even
    with every holder gone: then no later job can be kept from delaying it."""
    future = now.copy()
    for end, alloc, holder in sorted(holders, key=lambda h: h[0]):
        future.give(alloc, holder)
        placed = future.place(job)
        if placed is not None:
            future.take(placed, job)
            return Shadow(job, end, placed, future)
    empty = Room(np.zeros_like(now.free), None, now.machine)
    return Shadow(job, math.inf, None, empty)
