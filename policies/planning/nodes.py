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

Most jobs of most logs give no memory (SWF field 10 absent). Where such a job fits is
a matter of free cores on its partition's nodes, whatever their memory, so whether it
fits is a count: `Room` keeps each partition's free cores as an int (`Room.count`), and
a pass refuses most jobs, plans most reservations and backfills past them by counting,
as EASY does on identical nodes. Nodes are looked at to place a job that starts, and
to place a reservation on the cores it will have only when that is asked for
(`Shadow.allocation`: by a job with memory tried beside it, or by the reservations a
run logs). A count decides only what a placement node by node would find, so the
schedules and reservations are those of placing every job node by node (the tests
hold them on whole logs).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple, Protocol

import numpy as np

from schedsim.model.cluster import Allocation, place
from schedsim.model.machine import Machine, job_memory
from schedsim.model.view import JobView, View
from schedsim.policies.planning.profile import planned_end
from schedsim.workloads.job import Job

__all__ = ["Demand", "Demands", "Held", "Holding", "Room", "Shadow", "shadow"]


class Demand(NamedTuple):
    """What a job asks of the machine: ``size`` cores on ``nodes`` (its partition's,
    ascending; None: any node), holding ``memory`` KB per core on each (0 when it gives
    none or the machine keeps no memory: then only cores count). ``key`` names its
    partition (None: the whole machine), whose free cores a `Room` counts. ``job`` is
    the job it was worked out for (`Demands`). A named tuple: one is made per job."""

    job: Job
    size: int
    key: str | None
    nodes: np.ndarray | None
    memory: float

    @classmethod
    def of(cls, machine: Machine, job: Held | JobView) -> Demand:
        part = machine.partition_of(job.job)
        memory = job_memory(job.job) if machine.memory is not None else 0.0
        key = None if part is None else part.name
        return cls(job.job, job.size, key, machine.nodes_for(job.job), memory)


class Held(Protocol):
    """A job holding cores, as `shadow` frees them: a running job's `JobView`, or a
    `Holding` for one a pass has just started."""

    @property
    def id(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def job(self) -> Job: ...
    @property
    def expected_end(self) -> float: ...
    @property
    def allocation(self) -> Allocation | None: ...


class Holding(NamedTuple):
    """A job a pass starts, holding ``allocation`` until ``expected_end`` (its start
    plus its estimate), as `shadow` sees the running jobs."""

    id: int
    size: int
    job: Job
    expected_end: float
    allocation: Allocation


class Demands:
    """Each job's `Demand` on ``machine``, worked out once: a pass asks for it of every
    waiting job, and a job waits through many passes. A job's entry goes when it ends
    (`forget`); an entry made for another job of the same id (a policy run twice) is
    made again."""

    __slots__ = ("_known", "machine")

    def __init__(self, machine: Machine) -> None:
        self.machine = machine
        self._known: dict[int, Demand] = {}

    def __call__(self, job: Held | JobView) -> Demand:
        d = self._known.get(job.id)
        if d is None or d.job is not job.job:
            d = self._known[job.id] = Demand.of(self.machine, job)
        return d

    def forget(self, jobs: Iterable[JobView]) -> None:
        for job in jobs:
            self._known.pop(job.id, None)


class Room:
    """Free cores (and memory, KB, when the machine has it) per node; mutable copies.

    Beside them, the free cores on each partition's nodes (`count`), kept as jobs are
    placed and freed: a job wider than that fits nowhere, and one that gives no memory
    fits exactly when it is not wider, so most placements on a busy machine are
    decided without looking at a node. A room changes through `take` and `give_all`
    only: its arrays may be another room's (or a view's) until then."""

    __slots__ = ("_apart", "_counts", "_owned", "cores_per_node", "free", "machine", "memory")

    def __init__(
        self,
        free: np.ndarray,
        memory: np.ndarray | None,
        machine: Machine,
        counts: dict[str | None, int] | None = None,
        *,
        owned: bool = True,
    ) -> None:
        self.free = free
        self.memory = memory
        self.machine = machine
        self.cores_per_node = machine.max_cores_per_node
        #: Partition key -> free cores on its nodes, each counted when first asked for.
        self._counts: dict[str | None, int] = {} if counts is None else counts
        # Whether a job's cores change its own partition's count only; else (FCFS runs on
        # any machine) the others are counted again when next asked for (`_counted`).
        self._apart = machine.apart
        # Whether the arrays are this room's own, else copied before they change: a pass
        # only reads most of the rooms it makes (a view's, a reservation's), so they
        # share arrays until one changes.
        self._owned = owned

    @classmethod
    def of(cls, view: View) -> Room:
        """The room a view shows (placing jobs on it changes nothing else)."""
        machine = view.machine
        assert machine is not None
        counts: dict[str | None, int] = {} if machine.partitions else {None: view.free_cores}
        return cls(view.free_per_node, view.free_memory, machine, counts, owned=False)

    def copy(self) -> Room:
        """An independent copy (sharing the arrays until either room changes)."""
        self._owned = False
        return Room(self.free, self.memory, self.machine, dict(self._counts), owned=False)

    def _own(self) -> None:
        """The arrays made this room's own, before a change."""
        self.free = self.free.copy()
        if self.memory is not None:
            self.memory = self.memory.copy()
        self._owned = True

    def count(self, d: Demand) -> int:
        """The free cores on ``d``'s nodes."""
        n = self._counts.get(d.key)
        if n is None:
            free = self.free if d.nodes is None else self.free[d.nodes]
            n = self._counts[d.key] = int(free.sum())
        return n

    def _counted(self, key: str | None, cores: int) -> None:
        """``cores`` more free (fewer, negative) on partition ``key``'s nodes."""
        counts = self._counts
        n = counts.get(key)
        if not self._apart:
            counts.clear()
        if n is not None:
            counts[key] = n + cores

    def place(self, d: Demand) -> Allocation | None:
        """First fit of ``d`` on its nodes with its memory, or None (nothing taken)."""
        if d.size > self.count(d):
            return None
        return place(self.free, self.memory, d.size, self.cores_per_node, d.nodes, d.memory)

    def take(self, alloc: Allocation, d: Demand) -> None:
        """The job of ``d`` holds ``alloc`` (and its memory there)."""
        if not self._owned:
            self._own()
        self.free[alloc.nodes] -= alloc.cores
        self._counted(d.key, -alloc.size)
        if d.memory and self.memory is not None:
            self.memory[alloc.nodes] -= alloc.cores * d.memory

    def give_all(self, freed: Sequence[tuple[Allocation, Demand]]) -> None:
        """Each job of ``freed`` (cores, demand) leaves its cores and memory: one numpy
        call for many jobs, as a shadow time's releases come."""
        if not freed:
            return
        if not self._owned:
            self._own()
        if len(freed) == 1:
            alloc, d = freed[0]
            self.free[alloc.nodes] += alloc.cores
            if self.memory is not None:
                self.memory[alloc.nodes] += alloc.cores * d.memory
        else:
            nodes = np.concatenate([a.nodes for a, _ in freed])
            cores = np.concatenate([a.cores for a, _ in freed])
            np.add.at(self.free, nodes, cores)
            if self.memory is not None:
                per = np.repeat([d.memory for _, d in freed], [len(a.nodes) for a, _ in freed])
                np.add.at(self.memory, nodes, cores * per)
        for alloc, d in freed:
            self._counted(d.key, alloc.size)

    def within(self, other: Room) -> Room:
        """The room left in both: per node the fewer free cores and the less memory."""
        memory = None
        if self.memory is not None and other.memory is not None:
            memory = np.minimum(self.memory, other.memory)
        return Room(np.minimum(self.free, other.free), memory, self.machine)


class Shadow:
    """EASY's reservation for ``job`` (of `Demand` ``demand``): it can start at ``when``,
    where `future` is the room then (before it takes its cores) and `allocation` the
    cores it would take (None when ``when`` is infinite).

    For a job that gives no memory both are made only when asked for: its time is a
    count (`shadow`), and so is whether a job that gives none either leaves it room
    (``spare``, `beside`). Until then ``future`` is the room when the shadow was
    computed, still to be given the cores of the ``freed`` holders (their demands
    from ``demands``) and to take those of the jobs placed beside it since."""

    __slots__ = ("_allocation", "_beside", "_demands", "_freed", "_future", "demand", "job",
                 "spare", "when")  # fmt: skip

    def __init__(
        self,
        job: JobView,
        demand: Demand,
        when: float,
        future: Room,
        allocation: Allocation | None = None,
        *,
        freed: Sequence[Held] = (),
        demands: Callable[[Held], Demand] | None = None,
        spare: int | None = None,
    ) -> None:
        self.job = job
        self.demand = demand
        self.when = when
        self._future = future
        self._allocation = allocation
        self._freed = freed
        self._demands = demands
        self._beside: list[tuple[Allocation, Demand]] = []
        #: While counted: the free cores on the job's nodes at ``when`` beyond its own.
        self.spare = spare

    def _placed(self) -> None:
        """The room at ``when`` made, and the job placed in it, if not yet done."""
        if self._freed or self._beside or self.spare is not None:
            future = self._future
            if self._freed:
                assert self._demands is not None
                future.give_all(_holdings(self._freed, self._demands))
            for alloc, d in self._beside:
                future.take(alloc, d)
            if self.spare is not None:
                self._allocation = future.place(self.demand)
            self._freed, self._beside, self.spare = (), [], None

    @property
    def future(self) -> Room:
        self._placed()
        return self._future

    @property
    def allocation(self) -> Allocation | None:
        self._placed()
        return self._allocation

    def beside(self, now: Room, d: Demand) -> Allocation | None:
        """Cores for the job of ``d``, which would still run at ``when``, that leave the
        reserved job room then; None when there are none. The job's first fit now, when
        the reserved job still fits beside it (on identical nodes this is EASY's count
        of extra cores), else its first fit away from the cores the reserved job would
        take. What it gets is held in ``future``."""
        if math.isinf(self.when):  # never fits: nothing to keep (`shadow`)
            return now.place(d)
        if self.spare is not None and not d.memory:
            # Both give no memory: the reserved job still fits beside it exactly when the
            # spare cores are enough. When they are not, the cores away from its own are
            # fewer still (the spare ones at most): no fit there either.
            if d.size > self.spare:
                return None
            alloc = now.place(d)
            if alloc is not None:
                self.spare -= d.size
                self._beside.append((alloc, d))
            return alloc
        alloc = now.place(d)
        if alloc is None:
            return None  # no room now anywhere: none away from the reservation either
        self._placed()
        after = self._future.copy()
        after.take(alloc, d)
        placed = after.place(self.demand)
        if placed is not None:
            self._future, self._allocation = after, placed
            return alloc
        assert self._allocation is not None
        extra = self._future.copy()
        extra.take(self._allocation, self.demand)
        alloc = now.within(extra).place(d)
        if alloc is not None:
            self._future.take(alloc, d)
        return alloc


def _holdings(
    held: Iterable[Held], demands: Callable[[Held], Demand]
) -> list[tuple[Allocation, Demand]]:
    """The cores and demand of each of ``held`` (`Room.give_all`)."""
    return [(h.allocation, demands(h)) for h in held]  # type: ignore[misc]  # held: not None


def shadow(
    now: Room,
    job: JobView,
    demand: Demand,
    holders: Sequence[Held],
    time: float,
    demands: Callable[[Held], Demand],
) -> Shadow:
    """The earliest time ``job`` (of `Demand` ``demand``) fits, freeing the ``holders``
    (running jobs and stand-ins, `Holding`, of demands ``demands``) from ``now``'s room
    at ``time`` in the order they are planned to end, which is theirs
    (`schedsim.policies.planning.profile.planned_end`: an overrun job a while after
    ``time``), every holder planned to end at that same instant included, as EASY's
    count does (`schedsim.policies.planning.easy.shadow_by_end`); the room then and the
    cores the job takes.

    Infinite (``when`` inf, no allocation) when it would not fit even with every holder
    gone: then no later job can be kept from delaying it."""
    future = now.copy()
    key, size = demand.key, demand.size
    # The free cores on the job's nodes, counted up as holders of its partition (which
    # EASY keeps apart from the others) end: no placement is tried while too few, and
    # for a job that gives no memory none at all (`Shadow`).
    have = now.count(demand)
    given = 0  # holders[:given] are given back to future
    n = len(holders)
    i = 0
    while i < n:
        h = holders[i]
        i += 1
        if key is None or demands(h).key == key:
            have += h.size
        if have < size:
            continue
        when = planned_end(h.expected_end, time)
        if i < n and planned_end(holders[i].expected_end, time) == when:
            continue  # the others ending then free their cores too
        if not demand.memory:
            return Shadow(job, demand, when, future, freed=holders[given:i], demands=demands,
                          spare=have - size)  # fmt: skip
        future.give_all(_holdings(holders[given:i], demands))
        given = i
        placed = future.place(demand)
        if placed is not None:
            return Shadow(job, demand, when, future, placed)
    return Shadow(job, demand, math.inf, future, freed=holders[given:], demands=demands)
