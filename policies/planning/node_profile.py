"""Free cores and memory per node over future time: conservative backfilling node by node.

Conservative backfilling (Kettimuthu 2003, section 2.1.1) gives every job a reservation when
it arrives, at its *anchor point*, "the earliest time at which a sufficient number of
processors are available to run the job for a duration equal to the user estimated
run time", and compresses the schedule when a job ends early: reservations are
released one by one in order of start time, each moving earlier if a hole fits it
("in the worst case, the released job would be reinserted in the same position it
held previously"). On identical nodes without memory a count of free cores over time
says where a job fits (`schedsim.policies.planning.profile.Profile`). On a machine of
node groups with memory or partitions (`schedsim.model.machine.Machine.constrained`)
it does not: a job may use only its partition's nodes, and on each node no more cores
than the node's free memory holds at the job's memory per core. So `NodeProfile`
keeps, for each step of time, the free cores and the free memory of every node, and a
job fits over a window when it has room, node by node, throughout the window: it is
placed by first fit (`schedsim.model.cluster.place`, as the scheduler places) on the
least room each node has over the window, and keeps those very cores from start to
end.

The profile is two arrays, steps x nodes (cores: int64; memory: KB, float), and the
list of the steps' start times; a step lasts until the next one starts, and the last
forever. Reserving an allocation over ``[start, end)`` splits steps at both ends and
subtracts its cores (and memory) from its nodes in between; equal neighbouring steps
are merged so that the profile stays as short as the plan it holds.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from itertools import pairwise

import numpy as np

from schedsim.model.cluster import Allocation, first_fit
from schedsim.model.machine import Machine

__all__ = ["MEMORY_SLACK", "NodeProfile"]

#: Memory a node may seem to lack, relative to its size, and still hold a job's cores:
#: reserving and releasing memory in KB per core times cores need not add up to the
#: very float it started from, and a node must not lose a core to the last bit of a
#: sum. Ten times below what the cluster tolerates when it allocates
#: (`schedsim.model.cluster.Cluster.allocate`), so what the plan places the cluster takes.
MEMORY_SLACK = 1e-10

#: A running job as `NodeProfile.of_running` reads it: planned end, cores, KB per core.
Held = tuple[float, Allocation, float]


class NodeProfile:
    """Free cores and memory of each node over time, from ``times[0]`` (the present) on.

    Step ``i`` lasts from ``times[i]`` until ``times[i + 1]`` (the last: forever); its
    free cores are row ``i`` of `free` and its free memory (KB) row ``i`` of `memory`
    (None on a machine without memory). Build one with `empty` or `of_running`.
    """

    __slots__ = ("_blocked", "_cores", "_memory", "_slack", "_widest", "machine", "times")

    def __init__(self, machine: Machine, now: float, free: np.ndarray, memory: np.ndarray | None):
        self.machine = machine
        self.times: list[float] = [now]
        # Read at every search: the machine sums its groups for each.
        self._widest = machine.max_cores_per_node
        #: Whether a block may have left a node fewer than no cores free (`block`).
        self._blocked = False
        width = machine.nodes
        self._cores = np.empty((16, width), dtype=np.int64)
        self._cores[0] = free
        self._memory: np.ndarray | None = None
        self._slack: np.ndarray | None = None
        if machine.memory is not None:
            self._memory = np.empty((16, width))
            self._memory[0] = machine.memory if memory is None else memory
            self._slack = machine.memory * MEMORY_SLACK

    @classmethod
    def empty(cls, machine: Machine, now: float) -> NodeProfile:
        """The idle machine from ``now`` on: every node's cores and memory free."""
        return cls(machine, now, machine.capacity, machine.memory)

    @classmethod
    def of_running(
        cls,
        machine: Machine,
        now: float,
        free: np.ndarray,
        memory: np.ndarray | None,
        running: Iterable[Held],
    ) -> NodeProfile:
        """The profile the running jobs leave: ``free`` cores and ``memory`` per node now
        (a view's `free_per_node` and `free_memory`), and each job of ``running``
        (planned end, allocation, KB per core) giving its cores and memory back at its
        planned end, as `schedsim.policies.planning.profile.Profile.of_running` counts."""
        profile = cls(machine, now, free, memory)
        for end, alloc, per_core in sorted(running, key=lambda held: held[0]):
            profile._give(end, alloc, per_core)
        return profile

    def _give(self, end: float, alloc: Allocation, per_core: float) -> None:
        """A running job's cores free from ``end`` on (`of_running`: ends come ascending)."""
        i = len(self.times) - 1
        if end > self.times[i]:
            i = self._split(end)
        n = len(self.times)  # rows past it are room to grow into, not steps
        self._cores[i:n, alloc.nodes] += alloc.cores
        if self._memory is not None and per_core > 0:
            self._memory[i:n, alloc.nodes] += alloc.cores * per_core

    # -- reading -----------------------------------------------------------------------
    @property
    def free(self) -> np.ndarray:
        """Free cores, steps x nodes (a read-only view)."""
        out = self._cores[: len(self.times)].view()
        out.flags.writeable = False
        return out

    @property
    def memory(self) -> np.ndarray | None:
        """Free memory in KB, steps x nodes (a read-only view), None without memory."""
        if self._memory is None:
            return None
        out = self._memory[: len(self.times)].view()
        out.flags.writeable = False
        return out

    def at(self, t: float) -> tuple[np.ndarray, np.ndarray | None]:
        """Free cores and memory per node at time ``t`` (>= the present), copies."""
        i = max(bisect_right(self.times, t) - 1, 0)
        memory = None if self._memory is None else self._memory[i].copy()
        return self._cores[i].copy(), memory

    def __repr__(self) -> str:
        steps, nodes = len(self.times), self.machine.nodes
        return f"NodeProfile({steps} steps from {self.times[0]:g}, {nodes} nodes)"

    def check(self) -> None:
        """Raise AssertionError if the profile is inconsistent (used by tests): times
        increasing, no node with more cores or memory free than it has."""
        times = self.times
        if any(b <= a for a, b in pairwise(times)):
            raise AssertionError(f"profile times not increasing: {times}")
        if (self.free > self.machine.capacity).any():
            raise AssertionError("a node has more cores free than it has")
        memory, full = self.memory, self.machine.memory
        if memory is not None and full is not None and (memory > full * (1 + 1e-9)).any():
            raise AssertionError("a node has more memory free than it has")

    # -- the present moves on ----------------------------------------------------------
    def advance(self, now: float) -> None:
        """Forget the past: the profile starts at ``now``."""
        i = bisect_right(self.times, now) - 1
        if i > 0:
            n = len(self.times)
            self._cores[: n - i] = self._cores[i:n]
            if self._memory is not None:
                self._memory[: n - i] = self._memory[i:n]
            del self.times[:i]
        self.times[0] = now

    # -- changing the plan -------------------------------------------------------------
    def reserve(self, start: float, end: float, alloc: Allocation, per_core: float = 0.0) -> None:
        """``alloc``'s cores, and ``per_core`` KB of memory with each, are taken over
        ``[start, end)``."""
        memory = -alloc.cores * per_core if per_core > 0 else None
        self._add(start, end, alloc.nodes, -alloc.cores, memory)

    def release(self, start: float, end: float, alloc: Allocation, per_core: float = 0.0) -> None:
        """Give back what `reserve` took over ``[start, end)`` (or part of it: a job that
        ends early gives back the rest of its planned run)."""
        memory = alloc.cores * per_core if per_core > 0 else None
        self._add(start, end, alloc.nodes, alloc.cores, memory)

    def block(self, nodes: np.ndarray | list[int], start: float, end: float = math.inf) -> None:
        """Take every core and all the memory of ``nodes`` over ``[start, end)``: no job
        is placed on them then (a maintenance window, a node down).

        What is already reserved there stays so: those nodes then show fewer than no
        cores free, which a search reads as none, until both the block and the
        reservation are over. ``end`` may be infinite (a node gone for good); a job
        that then fits nowhere makes `earliest` raise.
        """
        picked = np.unique(np.asarray(nodes, dtype=np.int64))
        memory = None
        full = self.machine.memory
        if full is not None:
            # Unlimited memory (a group without any) stays so: its cores bound it.
            memory = -np.where(np.isfinite(full[picked]), full[picked], 0.0)
        self._blocked = True
        self._add(start, end, picked, -self.machine.capacity[picked], memory)

    def _add(
        self,
        start: float,
        end: float,
        nodes: np.ndarray,
        cores: np.ndarray,
        memory: np.ndarray | None,
    ) -> None:
        """Add ``cores`` (negative: take) and ``memory`` KB (when given) on ``nodes`` over
        ``[start, end)``."""
        if not end > start:
            return
        a = self._split(start)
        b = self._split(end) if end < math.inf else len(self.times)
        self._cores[a:b, nodes] += cores
        if self._memory is not None and memory is not None:
            self._memory[a:b, nodes] += memory
        self._merge(b)
        self._merge(a)

    def _split(self, t: float) -> int:
        """The index of a step starting exactly at ``t`` (made, a copy of the step it
        cuts, if none does; ``t`` >= the present)."""
        times = self.times
        i = bisect_left(times, t)
        if i < len(times) and times[i] == t:
            return i
        n = len(times)
        if n == len(self._cores):
            self._grow()
        cores = self._cores
        cores[i + 1 : n + 1] = cores[i:n]  # numpy copies overlapping slices safely
        cores[i] = cores[i - 1]
        if self._memory is not None:
            memory = self._memory
            memory[i + 1 : n + 1] = memory[i:n]
            memory[i] = memory[i - 1]
        times.insert(i, t)
        return i

    def _merge(self, i: int) -> None:
        """Drop step ``i`` when it equals step ``i - 1`` (the plan is the same across)."""
        n = len(self.times)
        if not 0 < i < n:
            return
        cores, memory = self._cores, self._memory
        # Same shapes by construction: comparing elements is all array_equal would do.
        if (cores[i] != cores[i - 1]).any():
            return
        if memory is not None and (memory[i] != memory[i - 1]).any():
            return
        cores[i : n - 1] = cores[i + 1 : n]
        if memory is not None:
            memory[i : n - 1] = memory[i + 1 : n]
        del self.times[i]

    def _grow(self) -> None:
        """Twice the room for steps."""
        rows = 2 * len(self._cores)
        cores = np.empty((rows, self._cores.shape[1]), dtype=np.int64)
        cores[: len(self._cores)] = self._cores
        self._cores = cores
        if self._memory is not None:
            memory = np.empty((rows, self._memory.shape[1]))
            memory[: len(self._memory)] = self._memory
            self._memory = memory

    # -- searching ---------------------------------------------------------------------
    def earliest(
        self,
        size: int,
        span: float,
        after: float,
        nodes: np.ndarray | None = None,
        per_core: float = 0.0,
    ) -> tuple[float, Allocation]:
        """The anchor point: the earliest ``t >= after`` at which ``size`` cores fit on
        ``nodes`` (None: any), with ``per_core`` KB of memory each, on the same cores
        throughout ``[t, t + span)``; and those cores (first fit on the least room each
        node has over the window). Nothing is reserved. ValueError when they never fit.
        """
        first = self._counted(size, span, after, math.inf)
        found = None if first is None else self._search(size, span, first, math.inf, nodes,
                                                         per_core, None)  # fmt: skip
        if found is None:
            raise ValueError(
                f"{size} cores can never be free on the job's nodes (the plan of "
                f"{self.machine.describe()})"
            )
        return found

    def fits(
        self,
        size: int,
        span: float,
        start: float,
        nodes: np.ndarray | None = None,
        per_core: float = 0.0,
    ) -> Allocation | None:
        """The cores ``size`` cores would take (first fit, as `earliest` places) if they
        fit on ``nodes`` with ``per_core`` KB each over ``[start, start + span)`` from
        ``start`` itself; None when they do not. A backfill's question ("may it start
        now?"), which looks at the steps of that window only, not past it. Nothing is
        reserved."""
        limit = math.nextafter(start, math.inf)  # a window starting at ``start`` alone
        found = self._search(size, span, start, limit, nodes, per_core, None)
        return None if found is None else found[1]

    def earlier(
        self,
        size: int,
        span: float,
        start: float,
        alloc: Allocation,
        after: float,
        nodes: np.ndarray | None = None,
        per_core: float = 0.0,
    ) -> tuple[float, Allocation] | None:
        """Compression's question for a job reserved on ``alloc`` over ``[start, start +
        span)``: the earliest anchor at or after ``after`` and before ``start``, counting
        its own reservation as free (it is released to be placed again), and the cores
        there; None when there is none (it keeps its place). Nothing changes."""
        if start <= after:
            return None
        first = self._counted(size, span, after, start)
        if first is None:
            return None
        return self._search(size, span, first, start, nodes, per_core, (start, alloc))

    def _counted(self, size: int, span: float, after: float, limit: float) -> float | None:
        """The earliest start in ``[after, limit)`` at which ``size`` cores are free in all
        (counted over every node, as `schedsim.policies.planning.profile.Profile` counts)
        for the whole window, or until ``limit`` (a reservation's own start, from which
        its own cores are free: `earlier`); None when there is none.

        A job fits node by node only where this count holds, so a search starts there,
        and most reservations that cannot move in a compression are told so here, in one
        sum over the steps and a walk of a list, without the steps x nodes arrays of a
        search (two thirds of them on KTH)."""
        times = self.times
        lo = max(bisect_right(times, after) - 1, 0)
        k = len(times) if limit == math.inf else bisect_left(times, limit)
        rows = self._cores[lo:k]
        if self._blocked:
            rows = np.maximum(rows, 0)  # a node over-taken has none, not fewer
        c = None
        for j, total in enumerate(rows.sum(axis=1).tolist(), lo):
            if total < size:
                c = None
                continue
            if c is None:
                c = max(times[j], after)
            # The last step lasts forever, or reaches the reservation's own cores.
            if j + 1 == k or times[j + 1] >= c + span:
                return c
        return None

    def _search(
        self,
        size: int,
        span: float,
        after: float,
        limit: float,
        nodes: np.ndarray | None,
        per_core: float,
        own: tuple[float, Allocation] | None,
    ) -> tuple[float, Allocation] | None:
        """The earliest start in ``[after, limit)`` at which the job fits (`earliest`),
        with ``own`` (start, allocation) held free from its start on (`earlier`)."""
        times = self.times
        n = len(times)
        lo = max(bisect_right(times, after) - 1, 0)
        # Every window starting before ``limit`` ends before limit + span: the steps after
        # that play no part.
        hi = n if limit == math.inf else max(lo + 1, min(n, bisect_left(times, limit + span)))
        starts = times[lo:hi]
        cores, memory = self._steps(lo, hi, nodes, per_core)
        if own is not None:
            self._with_own(starts, cores, memory, own, nodes, per_core)
        room = self._room(cores, memory, nodes, per_core)
        enough = room.sum(axis=1) >= size
        short = np.flatnonzero(~enough).tolist()  # steps that alone lack room
        last = len(starts) - 1
        j = 0
        t = max(after, starts[0])
        while t < limit:
            if enough[j]:
                k = max(bisect_left(starts, t + span) - 1, j)  # the window's last step
                blocked = short[bisect_left(short, j)] if short and short[-1] >= j else None
                if blocked is not None and blocked <= k:
                    j = blocked  # no window holding that step fits: look past it
                else:
                    low = room[j] if k == j else room[j : k + 1].min(axis=0)
                    if int(low.sum()) >= size:
                        return t, self._fit(low, size, nodes)
            if j == last:
                return None  # the last step: forever (no room), or the limit's
            j += 1
            t = starts[j]
        return None

    def _steps(
        self, lo: int, hi: int, nodes: np.ndarray | None, per_core: float
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """Free cores and (when the job's memory counts) free memory of ``nodes`` (all:
        None) in steps ``lo`` to ``hi - 1``: new arrays, steps x nodes."""
        cores = self._cores[lo:hi]
        cores = cores.copy() if nodes is None else cores[:, nodes]
        memory = None
        if per_core > 0 and self._memory is not None:
            memory = self._memory[lo:hi]
            memory = memory.copy() if nodes is None else memory[:, nodes]
        return cores, memory

    def _room(
        self,
        cores: np.ndarray,
        memory: np.ndarray | None,
        nodes: np.ndarray | None,
        per_core: float,
    ) -> np.ndarray:
        """The cores a job may take on each node in each step (`_steps`): the free ones,
        no more than the free memory holds at ``per_core`` KB a core, none below zero
        (a block over reserved cores). Changes ``cores`` and ``memory`` in place."""
        if memory is not None:
            assert self._slack is not None
            slack = self._slack if nodes is None else self._slack[nodes]
            # In place: ``memory`` is a copy (`_steps`). Unlimited memory (inf) holds any
            # count: the minimum keeps the cores.
            memory += slack
            memory /= per_core
            np.floor(memory, out=memory)
            np.minimum(memory, cores, out=memory)
            cores = memory.astype(np.int64)
        np.maximum(cores, 0, out=cores)
        return cores

    def _with_own(
        self,
        starts: list[float],
        cores: np.ndarray,
        memory: np.ndarray | None,
        own: tuple[float, Allocation],
        nodes: np.ndarray | None,
        per_core: float,
    ) -> None:
        """Add a reservation's own cores (and memory), in place, to ``cores`` (and
        ``memory``), the steps `_steps` gave, in every step that begins at or after its
        start.

        Only windows that begin before that start are asked for (`earlier`), and they
        end before the reservation does, so within a window its cores are free from its
        start on. A step that begins before the start and runs on past it (the step
        before was the same, so they merged) is left as it is: a window that meets it
        meets its part before the start too, where the reservation does not hold, and
        what the node has there is the least it has over both parts."""
        start, alloc = own
        i = bisect_left(starts, start)
        # Its nodes lie on ``nodes`` (its partition's): their columns there. One row
        # added to every step is cheaper than indexing the columns in each.
        where = alloc.nodes if nodes is None else np.searchsorted(nodes, alloc.nodes)
        mine = np.zeros(cores.shape[1], dtype=np.int64)
        mine[where] = alloc.cores
        cores[i:] += mine
        if memory is not None:
            memory[i:] += mine * per_core

    def _fit(self, low: np.ndarray, size: int, nodes: np.ndarray | None) -> Allocation:
        """First fit of ``size`` cores on ``low`` (room per node of ``nodes``), as node
        numbers of the machine."""
        alloc = first_fit(low, size, self._widest)
        assert alloc is not None  # low holds at least size cores
        if nodes is None:
            return alloc
        return Allocation(nodes[alloc.nodes], alloc.cores)
