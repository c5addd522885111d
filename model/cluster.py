"""The machine: ``nodes x cores_per_node`` cores with node identity.

Free cores are one numpy array indexed by node, so that queries ("how many
cores are free", "which nodes have room") are array operations rather than
Python loops over nodes. A job holds an `Allocation` naming concrete nodes
and how many cores it has on each; a suspended job keeps its allocation as
its *home* and may only resume when exactly those cores are free again
(DESIGN.md: no migration).

The cluster also knows who holds what: the allocation each job holds
(`Cluster.holders`), the jobs on each node (`Cluster.jobs_on`, an index
kept from its first use on, for contention models), and on nodes of
several cores which cores: a job takes the lowest-numbered free cores of
each node it is given, and core ``k`` of node ``n`` is core ``n *
cores_per_node + k`` of the machine (`Cluster.cores_of`), so schedules can
be drawn core by core and read by tools that count cores as resources.

Node and core lists are written in the interval syntax of the procset
library (``"0-3 7"``: ranges of consecutive numbers, separated by spaces),
which Batsim and its analysis toolkit evalys read (`ranges`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np

#: Allocations on at most this many nodes are checked in plain Python (`Cluster.valid`).
_SMALL = 16


def _lowest(values: np.ndarray) -> int:
    """The smallest of ``values`` (0 for none): in plain Python for a few, as `Cluster.valid`."""
    if len(values) <= _SMALL:
        return min(values.tolist(), default=0)
    return int(values.min())


#: The largest machine a `Cluster` builds: ``nodes * cores_per_node`` at most 2**24
#: (16,777,216) cores. The core keeps arrays indexed by node (free cores, 8 bytes a
#: node, copied into every pass's view that changed them, and the policies' own
#: per-node arrays) and, on nodes of several cores, a node x core table of busy cores
#: (1 byte a core); at this bound each is at most 128 MiB, so the handful of them a run
#: holds at once fits in a workstation's memory. It is above the largest machine yet
#: built (Sunway TaihuLight, 10,649,600 cores), so no real system is refused; a value
#: beyond it (``--nodes 1000000000``) is a typing slip more often than a study.
MAX_CORES = 2**24


_set = object.__setattr__
#: Width -> a read-only array of that many ones (`Allocation.one_core_each`).
_ONES: dict[int, np.ndarray] = {}


class AllocationError(RuntimeError):
    """An allocation that does not fit, or a release of cores not held."""


@dataclass(frozen=True, slots=True, eq=False)
class Allocation:
    """Concrete cores: ``cores[i]`` cores on node ``nodes[i]`` (nodes ascending)."""

    nodes: np.ndarray
    cores: np.ndarray
    #: Total cores (counted once: allocation, release and checks all need it).
    size: int = field(init=False)

    def __post_init__(self) -> None:
        self.nodes.flags.writeable = False
        self.cores.flags.writeable = False
        object.__setattr__(self, "size", int(self.cores.sum()))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Allocation)
            and np.array_equal(self.nodes, other.nodes)
            and np.array_equal(self.cores, other.cores)
        )

    def __hash__(self) -> int:
        return hash((self.nodes.tobytes(), self.cores.tobytes()))

    def node_list(self) -> str:
        """Compact node list, e.g. ``"0-3 7"``: how results name the nodes (`ranges`)."""
        return ranges(self.nodes)

    @classmethod
    def one_core_each(cls, nodes: np.ndarray) -> Allocation:
        """One core on each of ``nodes`` (an int64 array, ascending, owned by the new
        allocation): what first fit gives on nodes of one core, made without the
        count `__post_init__` does (it is made at every start)."""
        alloc = object.__new__(cls)
        n = len(nodes)
        ones = _ONES.get(n)
        if ones is None:
            # Read-only, so one array of ones per width serves every allocation of it.
            ones = _ONES[n] = np.ones(n, dtype=np.int64)
            ones.flags.writeable = False
        nodes.flags.writeable = False
        _set(alloc, "nodes", nodes)
        _set(alloc, "cores", ones)
        _set(alloc, "size", n)
        return alloc

    @classmethod
    def on(
        cls, nodes: list[int] | np.ndarray, cores: int | list[int] | np.ndarray = 1
    ) -> Allocation:
        """An allocation on the given nodes (``cores`` each, or per node)."""
        n = np.asarray(nodes, dtype=np.int64)
        order = np.argsort(n, kind="stable")
        c = np.broadcast_to(np.asarray(cores, dtype=np.int64), n.shape)
        return cls(n[order].copy(), c[order].copy())


def ranges(values: np.ndarray | list[int]) -> str:
    """``[0, 1, 2, 3, 7]`` -> ``"0-3 7"``: procset's interval syntax (values ascending).

    Written here rather than by procset itself, which builds a set for each
    list (20-40 us against under 1 us for this loop on a few nodes: seconds
    over a whole log); the tests parse every list written with procset.
    """
    # A plain loop: allocations are small, where numpy's per-call cost dominates.
    parts: list[str] = []
    first = prev = None
    for v in values.tolist() if isinstance(values, np.ndarray) else values:
        if prev is not None and v == prev + 1:
            prev = v
            continue
        if first is not None:
            parts.append(str(first) if first == prev else f"{first}-{prev}")
        first = prev = v
    if first is not None:
        parts.append(str(first) if first == prev else f"{first}-{prev}")
    return " ".join(parts)


def _same_nodes(on: np.ndarray, alloc: Allocation) -> bool:
    """Whether cores on the nodes ``on`` (one entry per core, any order) are as many on
    each node as ``alloc`` takes there."""
    nodes, counts = np.unique(on, return_counts=True)
    return np.array_equal(nodes, alloc.nodes) and np.array_equal(counts, alloc.cores)


def first_fit(
    free: np.ndarray, size: int, cores_per_node: int = 1, nodes: np.ndarray | None = None
) -> Allocation | None:
    """First fit of ``size`` cores over ``free`` (free cores per node), or None.

    With one core per node it takes the lowest-numbered free nodes; with
    several it fills the lowest-numbered nodes that have free cores, taking
    all their free cores (`Cluster`). Policies that keep some free cores
    aside (preemptive policies waiting for a suspension to finish) call it
    on their own copy of the free array. ``nodes`` (ascending) numbers the
    entries of ``free`` when it is a part of the machine's (a partition's
    ``free[nodes]``): a job confined to a few nodes is placed on them without
    a machine-wide array made for it.
    """
    if size <= 0:
        raise ValueError(f"job size must be positive, got {size}")
    if cores_per_node == 1:
        taken = free.nonzero()[0][:size]  # flatnonzero without its Python wrapper
        if len(taken) < size:
            return None
        return Allocation.one_core_each(taken if nodes is None else nodes[taken])
    candidates = np.flatnonzero(free)
    avail = free[candidates]
    cum = np.cumsum(avail)
    if not len(cum) or cum[-1] < size:
        return None
    last = int(np.searchsorted(cum, size))
    taken = candidates[: last + 1]
    cores = avail[: last + 1].copy()
    cores[-1] -= int(cum[last]) - size
    return Allocation(taken if nodes is None else nodes[taken], cores)


def room(
    free: np.ndarray,
    free_memory: np.ndarray | None,
    nodes: np.ndarray | None = None,
    memory: float = 0.0,
) -> np.ndarray:
    """The cores a job can take on each node: ``free`` cores, none outside ``nodes``
    (when given), at most what ``free_memory`` holds at ``memory`` KB per core (when
    both are given). A new array; `first_fit` places on it."""
    if nodes is None:
        out = free.copy()
    else:
        out = np.zeros_like(free)
        out[nodes] = free[nodes]
    if memory > 0 and free_memory is not None:
        with np.errstate(invalid="ignore", over="ignore"):
            fits = np.floor(free_memory / memory)
        fits = np.where(np.isfinite(fits), fits, out).astype(np.int64)
        np.minimum(out, fits, out=out)
    return out


def place(
    free: np.ndarray,
    free_memory: np.ndarray | None,
    size: int,
    cores_per_node: int,
    nodes: np.ndarray | None = None,
    memory: float = 0.0,
) -> Allocation | None:
    """`first_fit` of ``size`` cores on what `room` leaves a job: on ``nodes`` only (when
    given), within ``free_memory`` at ``memory`` KB per core; None when it does not fit.
    The scheduler's placement on a machine of node groups and the planners' alike."""
    if memory > 0 and free_memory is not None:
        return first_fit(room(free, free_memory, nodes, memory), size, cores_per_node)
    # No memory to keep to: the free cores themselves, without `room`'s copy (most jobs of
    # most logs give no memory, and a planner places at every pass).
    if nodes is None:
        return first_fit(free, size, cores_per_node)
    return first_fit(free[nodes], size, cores_per_node, nodes)


def check_machine(nodes: int, cores_per_node: int) -> None:
    """ValueError naming ``nodes``, ``cores_per_node`` and the bound when the machine has
    more than `MAX_CORES` cores (see there why); nothing otherwise."""
    total = int(nodes) * int(cores_per_node)
    if total > MAX_CORES:
        raise ValueError(
            f"nodes x cores_per_node = {int(nodes):,} x {int(cores_per_node):,} = {total:,} "
            f"cores, more than the {MAX_CORES:,} (2**24) a simulated machine may have"
        )


class Cluster:
    """The pool of cores. Allocation is first fit over nodes in index order.

    With one core per node (the classic studies, seeds 000, 001, 002, 004)
    first fit takes the lowest-numbered free nodes. With several cores per
    node (seed 003) it packs: it fills the lowest-numbered nodes that have
    free cores, taking all their free cores, so a job spreads over as few
    nodes as first fit allows. Policies that place jobs themselves pass an
    explicit `Allocation` instead.

    A machine has at most `MAX_CORES` cores (ValueError beyond it, naming the
    bound); one that is within it but does not fit in memory raises a
    MemoryError that names it.
    """

    def __init__(
        self,
        nodes: int,
        cores_per_node: int = 1,
        *,
        capacity: np.ndarray | None = None,
        memory: np.ndarray | None = None,
    ) -> None:
        if nodes <= 0 or cores_per_node <= 0:
            raise ValueError(
                f"a cluster needs nodes > 0 and cores_per_node > 0, got {nodes} x {cores_per_node}"
            )
        check_machine(nodes, cores_per_node)
        self.nodes = int(nodes)
        self.cores_per_node = int(cores_per_node)
        try:
            if capacity is None:
                self._free = np.full(self.nodes, self.cores_per_node, dtype=np.int64)
            else:
                # Node groups (`schedsim.model.machine`): each node its own cores, at most
                # cores_per_node, which is then the widest node's.
                self._free = np.array(capacity, dtype=np.int64)
                if self._free.shape != (self.nodes,) or not (
                    (self._free >= 1).all() and (self._free <= self.cores_per_node).all()
                ):
                    raise ValueError(
                        f"capacity: one count of cores per node, 1 to {self.cores_per_node}, "
                        f"for each of the {self.nodes} nodes"
                    )
            # Several cores per node: which cores are busy, and each holder's cores.
            self._busy = (
                np.zeros((self.nodes, self.cores_per_node), dtype=bool)
                if self.cores_per_node > 1
                else None
            )
            if self._busy is not None and capacity is not None:
                # The cores a narrower node lacks are busy for good: never taken.
                self._busy[np.arange(self.cores_per_node) >= self._free[:, None]] = True
        except MemoryError as exc:
            # Below MAX_CORES, but more than this computer has free: say which machine,
            # in one line, rather than numpy's traceback.
            raise MemoryError(
                f"not enough memory for a machine of nodes x cores_per_node = "
                f"{self.nodes:,} x {self.cores_per_node:,} cores ({exc})"
            ) from exc
        #: Cores of each node (read-only); every node has ``cores_per_node`` but on a
        #: machine of node groups.
        self.capacity = self._free.copy()
        self.capacity.flags.writeable = False
        # Every node of cores_per_node cores (`valid` checks a few nodes in plain Python).
        self.uniform = capacity is None or bool((self._free == self.cores_per_node).all())
        self.total_cores = int(self.capacity.sum())
        self.free_cores = self.total_cores
        #: Memory of each node in KB (read-only), None when the machine has none; what
        #: the jobs hold is taken from ``free_memory`` (`allocate`'s ``memory``).
        self.memory: np.ndarray | None = None
        self._free_memory: np.ndarray | None = None
        self.free_memory: np.ndarray | None = None
        self._held_memory: dict[int, float] = {}
        if memory is not None:
            self.memory = np.array(memory, dtype=float)
            if self.memory.shape != (self.nodes,) or not (self.memory > 0).all():
                raise ValueError(f"memory: one size above 0 per node, for {self.nodes} nodes")
            self.memory.flags.writeable = False
            self._free_memory = self.memory.copy()
            self.free_memory = self._free_memory.view()
            self.free_memory.flags.writeable = False
        # A read-only window on the free array, safe to hand to policies.
        self.free_per_node = self._free.view()
        self.free_per_node.flags.writeable = False
        # Read-only copies of the free arrays, made again only after they changed.
        self._snapshot: np.ndarray | None = None
        self._memory_snapshot: np.ndarray | None = None
        #: Job id -> the allocation it holds now.
        self.holders: dict[int, Allocation] = {}
        # Node -> {job id: cores}, kept once `jobs_on` is first used.
        self._on: list[dict[int, int]] | None = None
        self._cores: dict[int, np.ndarray] = {}
        #: Nodes out of the machine now (`take_down`), and their cores.
        self._down: set[int] = set()
        self.down_cores = 0

    @property
    def busy_cores(self) -> int:
        """Cores held by jobs (not those of nodes out of the machine: `take_down`)."""
        return self.total_cores - self.free_cores - self.down_cores

    @property
    def busy_nodes(self) -> int:
        """Nodes on which jobs hold at least one core (nodes out of the machine are not)."""
        if self.cores_per_node == 1:
            return self.total_cores - self.free_cores - self.down_cores
        busy = self._free < self.capacity
        if self._down:
            busy[list(self._down)] = False
        return int(np.count_nonzero(busy))

    def take_down(self, node: int) -> None:
        """``node`` leaves the machine (a failure, a maintenance window): its cores and
        memory are no longer free. Its jobs must have released it first."""
        if node in self._down or self._free[node] != self.capacity[node]:
            raise AllocationError(f"node {node} taken down while held or down")
        self._down.add(node)
        self.down_cores += int(self.capacity[node])
        self.free_cores -= int(self.capacity[node])
        self._free[node] = 0
        self._snapshot = None
        if self._free_memory is not None:
            self._free_memory[node] = 0.0
            self._memory_snapshot = None

    def bring_up(self, node: int) -> None:
        """``node`` is back (`take_down`): all its cores and memory free."""
        self._down.remove(node)
        self.down_cores -= int(self.capacity[node])
        self.free_cores += int(self.capacity[node])
        self._free[node] = self.capacity[node]
        self._snapshot = None
        if self._free_memory is not None:
            assert self.memory is not None
            self._free_memory[node] = self.memory[node]
            self._memory_snapshot = None

    def free_snapshot(self) -> np.ndarray:
        """A read-only copy of the free cores per node as they are now.

        Made again only when an allocation or release has changed them since
        the last call, so a pass that changed nothing costs nothing.
        """
        snap = self._snapshot
        if snap is None:
            snap = self._snapshot = self._free.copy()
            snap.flags.writeable = False
        return snap

    def free_memory_snapshot(self) -> np.ndarray | None:
        """A read-only copy of the free memory per node as it is now (None without
        memory), made again only when a job holding memory has started or ended since
        (most jobs of most logs hold none), as `free_snapshot`."""
        snap = self._memory_snapshot
        if snap is None and self._free_memory is not None:
            snap = self._memory_snapshot = self._free_memory.copy()
            snap.flags.writeable = False
        return snap

    def first_fit(self, size: int) -> Allocation | None:
        """Cores for a job of ``size`` cores, or None when not enough are free."""
        return first_fit(self._free, size, self.cores_per_node)

    def place(
        self, size: int, nodes: np.ndarray | None = None, memory: float = 0.0
    ) -> Allocation | None:
        """`first_fit` on a machine of node groups: ``nodes`` are the only nodes the job
        may use (its partition; None: any); ``memory`` what it holds per core, in KB, so
        that on each node it takes no more cores than the node's free memory holds."""
        return place(self._free, self._free_memory, size, self.cores_per_node, nodes, memory)

    def room(self, nodes: np.ndarray | None = None, memory: float = 0.0) -> np.ndarray:
        """The cores a job could take on each node now: the free ones, none outside
        ``nodes`` (when given), and no more than the node's free memory holds at
        ``memory`` KB per core (a machine with memory)."""
        return room(self._free, self._free_memory, nodes, memory)

    def valid(self, alloc: Allocation) -> bool:
        """Whether ``alloc`` names existing nodes, each once, with 1..cores_per_node cores."""
        nodes, cores = alloc.nodes, alloc.cores
        if len(nodes) != len(cores):
            return False
        if len(nodes) == 0:
            return True
        if not self.uniform:
            return bool(
                nodes[0] >= 0
                and nodes[-1] < self.nodes
                and (nodes[1:] > nodes[:-1]).all()
                and cores.min() >= 1
                and (cores <= self.capacity[nodes]).all()
            )
        if len(nodes) <= _SMALL:
            # Plain Python beats numpy's per-call cost on a few nodes.
            ns, cs = nodes.tolist(), cores.tolist()
            return (
                ns[0] >= 0
                and ns[-1] < self.nodes
                and all(a < b for a, b in pairwise(ns))
                and all(1 <= c <= self.cores_per_node for c in cs)
            )
        return bool(
            nodes[0] >= 0
            and nodes[-1] < self.nodes
            and (nodes[1:] > nodes[:-1]).all()
            and cores.min() >= 1
            and cores.max() <= self.cores_per_node
        )

    def allocate(
        self,
        alloc: Allocation,
        owner: int,
        prefer: np.ndarray | None = None,
        *,
        known_free: bool = False,
        memory: float = 0.0,
    ) -> None:
        """Give the cores of ``alloc`` to job ``owner``, and on a machine with memory
        ``memory`` KB per core on each of its nodes.

        On nodes of several cores the job takes, on each node, the cores of
        ``prefer`` (machine-wide core ids: those a resuming job held last)
        when they are all free and as many as it gets there, else the
        lowest-numbered free ones. `AllocationError` (nothing taken) when
        some are not free. ``known_free`` skips that check, for an allocation
        `first_fit` has just made from the cores free now (the scheduler's
        default placement: one check fewer per start).
        """
        left: np.ndarray | int = 0  # one core per node, each free (the caller's first fit)
        if not (known_free and self.cores_per_node == 1):
            after = self._free[alloc.nodes] - alloc.cores
            if not known_free and _lowest(after) < 0:
                raise AllocationError(
                    f"cores not free on nodes {alloc.node_list()}: "
                    f"free {self._free[alloc.nodes].tolist()}, wanted {alloc.cores.tolist()}"
                )
            left = after
        if memory > 0 and self._free_memory is not None:
            mem_left = self._free_memory[alloc.nodes] - alloc.cores * memory
            # A relative tolerance: KB per core times cores need not add up exactly.
            if (mem_left < -1e-9 * self.memory[alloc.nodes]).any():  # type: ignore[index]
                raise AllocationError(
                    f"memory not free on nodes {alloc.node_list()}: free "
                    f"{self._free_memory[alloc.nodes].tolist()} KB, wanted "
                    f"{(alloc.cores * memory).tolist()} KB"
                )
            self._free_memory[alloc.nodes] = np.maximum(mem_left, 0.0)
            self._held_memory[owner] = memory
            self._memory_snapshot = None
        self._free[alloc.nodes] = left
        self.free_cores -= alloc.size
        self._snapshot = None
        self.holders[owner] = alloc
        if self._busy is not None:
            self._cores[owner] = self._take_cores(alloc, prefer)
        if self._on is not None:
            for n, c in zip(alloc.nodes.tolist(), alloc.cores.tolist(), strict=True):
                self._on[n][owner] = c

    def release(self, alloc: Allocation, owner: int) -> None:
        """Take back the cores of ``alloc`` from job ``owner``."""
        # Only `allocate` and `release` change the free cores, and `allocate` records the
        # very allocation it took: while it is the one recorded, its cores are held and
        # adding them back cannot exceed a node's cores.
        if self.holders.get(owner) is not alloc:
            raise AllocationError(f"release of cores not held on nodes {alloc.node_list()}")
        if self.cores_per_node == 1:
            # A held node has no core free (a node is taken down only when all free).
            self._free[alloc.nodes] = 1
        else:
            self._free[alloc.nodes] += alloc.cores
        self.free_cores += alloc.size
        self._snapshot = None
        del self.holders[owner]
        if self._free_memory is not None:
            memory = self._held_memory.pop(owner, 0.0)
            if memory:
                assert self.memory is not None
                nodes = alloc.nodes
                self._free_memory[nodes] = np.minimum(
                    self._free_memory[nodes] + alloc.cores * memory, self.memory[nodes]
                )
                self._memory_snapshot = None
        if self._busy is not None:
            cores = self._cores.pop(owner)
            self._busy.reshape(-1)[cores] = False
        if self._on is not None:
            for n in alloc.nodes.tolist():
                del self._on[n][owner]

    def _take_cores(self, alloc: Allocation, prefer: np.ndarray | None) -> np.ndarray:
        """The cores of each node of ``alloc`` (``prefer``'s there if all free and as many,
        else the lowest-numbered free ones), marked busy (machine ids)."""
        busy, cpn = self._busy, self.cores_per_node
        assert busy is not None
        if prefer is not None and len(prefer) == alloc.size:
            # A job resuming where it was (the usual case): its cores in one step, when
            # they are free and lie on its nodes as many as it takes there. Cores come in
            # node order (as taken below), so a comparison with the nodes repeated says so
            # at once; np.unique (a sort) is left for cores in another order.
            flat = busy.reshape(-1)
            if not flat[prefer].any():
                on = prefer // cpn
                if np.array_equal(on, np.repeat(alloc.nodes, alloc.cores)) or _same_nodes(
                    on, alloc
                ):
                    flat[prefer] = True
                    return prefer.copy()
        taken = []
        for n, c in zip(alloc.nodes.tolist(), alloc.cores.tolist(), strict=True):
            k = None
            if prefer is not None:
                mine = prefer[prefer // cpn == n] - n * cpn
                if len(mine) == c and not busy[n, mine].any():
                    k = mine
            if k is None:
                k = np.flatnonzero(~busy[n])[:c]
            busy[n, k] = True
            taken.append(k + n * cpn)
        return np.concatenate(taken) if taken else np.zeros(0, dtype=np.int64)

    def cores_of(self, owner: int) -> np.ndarray | None:
        """The machine-wide ids of the cores job ``owner`` holds (None with one core per node,
        where a core is its node)."""
        return self._cores.get(owner)

    def jobs_on(self, node: int) -> dict[int, int]:
        """The jobs holding cores on ``node``: job id -> cores (do not modify)."""
        if self._on is None:
            self._on = [{} for _ in range(self.nodes)]
            for owner, alloc in self.holders.items():
                for n, c in zip(alloc.nodes.tolist(), alloc.cores.tolist(), strict=True):
                    self._on[n][owner] = c
        return self._on[node]
