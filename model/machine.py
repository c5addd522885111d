"""The machine as a centre describes it: node groups, their memory, and partitions.

A machine is one or more **node groups**, each a count of identical nodes with their
cores and (optionally) their memory, named; nodes are numbered group by group in the
order the groups are given (the first group's nodes are 0, 1, ...). **Partitions**
(Slurm's sense) are named sets of nodes, given as groups or as node ranges in
procset's syntax (``"0-3 7"``), which may overlap; a job that names a partition runs
only on its nodes (`Machine.nodes_for`). A job names one by the job attribute
``partition_name`` (`PARTITION_ATTR`; the Slurm reader sets it) or by the SWF
partition number (field 16, `Job.partition`, matched to a partition's ``number``); a
job that names none runs on the default partition (the one marked ``default``, else
the whole machine).

**Memory** is a resource like cores. A job's requested memory is SWF field 10, in KB
per processor as SWF defines it (`job_memory`); on each node it uses it holds its
cores there times that much, which must fit in the node's memory beside the other
jobs' (`schedsim.model.cluster.Cluster`). A machine without memory (no group gives
any) does not check it.

A group's **speed** (1 by default) is how fast a job runs on its nodes relative to the
nodes the workload's run times were measured on: a job runs at the speed of its
slowest node (a parallel job waits for its slowest process), so its run takes its run
time divided by that speed, and its time limit, wall-clock, stays what the user asked.

`Machine.uniform` is the classic ``nodes x cores_per_node`` machine, what
``--nodes/--cores-per-node`` describe; a machine file (`read_machine`, ``--machine
FILE``, or a study's ``[machine]`` table) describes any other::

    [[group]]
    name = "thin"
    nodes = 96
    cores = 32
    memory = "192G"     # per node: K, M, G or T (powers of 1024); optional

    [[group]]
    name = "fat"
    nodes = 4
    cores = 64
    memory = "2T"
    speed = 1.5         # run times / 1.5 here (the workload's nodes: 1); optional

    [[partition]]
    name = "batch"
    number = 1          # SWF field 16; optional
    groups = ["thin", "fat"]
    default = true

    [[partition]]
    name = "bigmem"
    number = 2
    nodes = "96-99"     # or groups = ["fat"]

Every mistake is a `MachineError` on one line naming the file, the table and the key
(``m.toml: [[group]] 2 ('fat'): key cores: 0, a node has at least one core``).
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from schedsim.model.cluster import MAX_CORES, room
from schedsim.workloads.job import Job

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = [
    "PARTITION_ATTR",
    "Machine",
    "MachineError",
    "NodeGroup",
    "Partition",
    "job_memory",
    "machine_from_table",
    "parse_memory",
    "read_machine",
]

#: The job attribute that names a job's partition (`Machine.nodes_for`): a name, where
#: SWF's field 16 (the job's ``partition``) holds a number.
PARTITION_ATTR = "partition_name"

_MEMORY = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)B?\s*", re.IGNORECASE)
_KB = {"K": 1.0, "M": 1024.0, "G": 1024.0**2, "T": 1024.0**3}
_NAME = re.compile(r"[A-Za-z0-9_.-]+")
_RANGE = re.compile(r"(\d+)(?:-(\d+))?")


class MachineError(ValueError):
    """A machine description that cannot be: ``str()`` is one line naming where
    (the file, the table and the key) and why."""


def parse_memory(text: str | int | float) -> float:
    """A memory size in KB: a number of MB, or a string with a unit K, M, G or T
    (powers of 1024: ``"192G"``); ValueError for anything else."""
    if isinstance(text, bool):
        raise ValueError(f"{text!r} is not a memory size")
    if isinstance(text, int | float):
        value = float(text) * 1024.0
    else:
        m = _MEMORY.fullmatch(text)
        if m is None:
            raise ValueError(f"{text!r} is not a memory size (e.g. 192G, 512M, 2T)")
        value = float(m.group(1)) * _KB[(m.group(2) or "M").upper()]
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{text!r}: a node's memory is a size above 0")
    return value


def job_memory(job: Job) -> float:
    """The memory ``job`` requests per core, in KB (SWF field 10; 0 when it gives none)."""
    swf = job.swf
    if swf is None:
        return 0.0
    value = swf[9]
    return value if value > 0 else 0.0


@dataclass(frozen=True)
class NodeGroup:
    """``nodes`` identical nodes of ``cores`` cores and ``memory`` KB each (None: not
    modelled), called ``name``; ``speed`` is how fast a job runs there, relative to the
    nodes the workload's run times were measured on (1)."""

    name: str
    nodes: int
    cores: int
    memory: float | None = None
    speed: float = 1.0


@dataclass(frozen=True)
class Partition:
    """A named set of nodes (ascending indices); ``number`` is its SWF field 16 id."""

    name: str
    nodes: tuple[int, ...]
    number: int | None = None
    default: bool = False


@dataclass(frozen=True)
class Machine:
    """Node groups and partitions (module docstring). Build one with `Machine.uniform`,
    `read_machine` or `machine_from_table`; the constructor checks what they give."""

    groups: tuple[NodeGroup, ...]
    partitions: tuple[Partition, ...] = ()
    #: Where the description came from, for messages (a file, or "the study's [machine]").
    source: str = ""
    _by_number: dict[int, Partition] = field(init=False, repr=False, compare=False)
    _by_name: dict[str, Partition] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.groups:
            raise MachineError(f"{self._where()}: a machine has at least one node group")
        if self.total_cores > MAX_CORES:
            raise MachineError(
                f"{self._where()}: {self.total_cores:,} cores, more than the {MAX_CORES:,} "
                "(2**24) a simulated machine may have"
            )
        object.__setattr__(
            self, "_by_number", {p.number: p for p in self.partitions if p.number is not None}
        )
        object.__setattr__(self, "_by_name", {p.name: p for p in self.partitions})

    def _where(self) -> str:
        return self.source or "machine"

    @classmethod
    def uniform(cls, nodes: int, cores_per_node: int = 1) -> Machine:
        """The classic machine: ``nodes`` identical nodes of ``cores_per_node`` cores, no
        memory, no partitions (``--nodes/--cores-per-node``)."""
        return cls((NodeGroup("nodes", int(nodes), int(cores_per_node)),))

    @property
    def simple(self) -> bool:
        """One group at speed 1, no memory, no partitions: what every policy runs on."""
        g = self.groups[0]
        return len(self.groups) == 1 and g.memory is None and g.speed == 1 and not self.partitions

    @property
    def constrained(self) -> bool:
        """Whether where a job may run depends on more than free cores (memory, partitions):
        then policies place jobs node by node (`schedsim.policies.planning.nodes`); on
        node groups that differ only in cores and speed, counting free cores still tells
        whether a job fits."""
        return self.memory is not None or bool(self.partitions)

    @property
    def nodes(self) -> int:
        return sum(g.nodes for g in self.groups)

    @property
    def total_cores(self) -> int:
        return sum(g.nodes * g.cores for g in self.groups)

    @cached_property
    def max_cores_per_node(self) -> int:
        return max(g.cores for g in self.groups)

    def _per_node(self, values: Sequence[float], dtype: type) -> np.ndarray:
        """One value per group, repeated for each of its nodes (read-only)."""
        out: np.ndarray = np.repeat(np.asarray(values, dtype=dtype), [g.nodes for g in self.groups])
        out.flags.writeable = False
        return out

    @cached_property
    def capacity(self) -> np.ndarray:
        """Cores of each node (read-only)."""
        return self._per_node([g.cores for g in self.groups], np.int64)

    @cached_property
    def memory(self) -> np.ndarray | None:
        """Memory of each node in KB (read-only), or None when no group gives any. A group
        without memory in a machine whose others have some has unlimited memory (inf)."""
        if all(g.memory is None for g in self.groups):
            return None
        return self._per_node(
            [math.inf if g.memory is None else g.memory for g in self.groups], float
        )

    @cached_property
    def speed(self) -> np.ndarray | None:
        """Each node's speed (read-only), or None when every node runs at 1."""
        if all(g.speed == 1 for g in self.groups):
            return None
        return self._per_node([g.speed for g in self.groups], float)

    def partition_of(self, job: Job) -> Partition | None:
        """The partition ``job`` names (its ``partition_name`` attribute, else SWF field
        16), else the default one; None when the job may run anywhere. `MachineError` when it
        names a partition the machine does not have."""
        if not self.partitions:
            return None
        name = job.attrs.get(PARTITION_ATTR)
        if name is not None:
            found = self._by_name.get(str(name))
            if found is None:
                raise MachineError(
                    f"job {job.id} names partition {name!r}, which {self._where()} does not "
                    f"have ({', '.join(repr(p.name) for p in self.partitions)})"
                )
            return found
        if job.partition > 0 and self._by_number:
            found = self._by_number.get(job.partition)
            if found is None:
                numbers = ", ".join(str(n) for n in sorted(self._by_number))
                raise MachineError(
                    f"job {job.id} names partition number {job.partition} (SWF field 16), "
                    f"which {self._where()} does not have (numbers {numbers})"
                )
            return found
        return next((p for p in self.partitions if p.default), None)

    def nodes_for(self, job: Job) -> np.ndarray | None:
        """The nodes ``job`` may run on (ascending), or None for every node."""
        p = self.partition_of(job)
        return None if p is None else self._partition_nodes[p.name]

    @cached_property
    def _partition_nodes(self) -> dict[str, np.ndarray]:
        out = {}
        for p in self.partitions:
            a = np.asarray(p.nodes, dtype=np.int64)
            a.flags.writeable = False
            out[p.name] = a
        return out

    def most_cores(self, job: Job) -> int:
        """The most cores ``job`` could hold on an empty machine: on each of its nodes the
        node's cores, or as many as the node's memory holds at the job's memory per core."""
        # What `room` leaves a job on an empty machine (its free cores all of them).
        return int(room(self.capacity, self.memory, self.nodes_for(job), job_memory(job)).sum())

    def large_memory(
        self, name: str
    ) -> tuple[tuple[float, float], int | str, Callable[[float], int]]:
        """What `schedsim.workloads.large_memory.with_large_memory` needs to send jobs to
        partition ``name``: (low, high) KB per core, the least memory per core among the
        nodes outside it (all nodes when there are none) and the most among its own; the
        partition as a job names it (its number, else its name); and the most cores a job
        asking so much per core can hold there. `MachineError` when the machine has no
        memory or no such partition, or the partition gives a core no more memory."""
        part = self._by_name.get(name)
        if part is None:
            names = ", ".join(p.name for p in self.partitions) or "none"
            raise MachineError(f"{self._where()} has no partition {name!r} (partitions: {names})")
        if self.memory is None:
            raise MachineError(f"{self._where()} gives its nodes no memory: no job asks for more")
        per_core = self.memory / self.capacity
        inside = np.asarray(part.nodes)
        outside = np.setdiff1d(np.arange(self.nodes), inside)
        low = float(per_core[outside if len(outside) else inside].min())
        high = float(per_core[inside].max())
        if high <= low:
            gb = _KB["G"]
            raise MachineError(
                f"partition {name!r} of {self._where()} gives a core at most {high / gb:.3g} GB, "
                f"no more than the other nodes' {low / gb:.3g} GB"
            )
        capacity, memory = self.capacity, self.memory

        def most(kb: float) -> int:
            return int(room(capacity, memory, inside, kb).sum())

        return (low, high), part.number if part.number is not None else part.name, most

    @cached_property
    def apart(self) -> bool:
        """Whether every job runs on one of node sets that share no node: the whole
        machine (no partitions), or partitions that share no node with a default one for
        the jobs that name none (what EASY asks for). Then the free cores of each change
        with its own jobs only, and a planner counts them apart
        (`schedsim.policies.planning.nodes.Room`)."""
        if not self.partitions:
            return True
        return self.overlapping() is None and any(p.default for p in self.partitions)

    def overlapping(self) -> tuple[Partition, Partition, np.ndarray] | None:
        """Two partitions that share nodes, and the nodes they share; None when none do."""
        seen: dict[int, Partition] = {}
        for p in self.partitions:
            for n in p.nodes:
                other = seen.get(n)
                if other is not None:
                    shared = np.intersect1d(other.nodes, p.nodes)
                    return other, p, shared
                seen[n] = p
        return None

    def group_table(self) -> list[dict[str, Any]]:
        """Each group as a run's meta keeps it (``machine_groups``): its ``name``, ``first``
        node, ``nodes``, ``cores`` per node, ``memory_gb`` per node (None: not modelled)
        and ``speed``; what a Gantt chart marks the groups by."""
        out, first = [], 0
        for g in self.groups:
            memory = None if g.memory is None else g.memory / 1024**2
            out.append({"name": g.name, "first": first, "nodes": g.nodes, "cores": g.cores,
                        "memory_gb": memory, "speed": g.speed})  # fmt: skip
            first += g.nodes
        return out

    def describe(self) -> str:
        """One line: ``96 x 32 cores (192 GB) 'thin' + 4 x 64 cores (2048 GB) 'fat';
        partitions batch (default), bigmem``."""
        parts = []
        for g in self.groups:
            mem = "" if g.memory is None else f", {g.memory / 1024**2:g} GB"
            speed = "" if g.speed == 1 else f", speed {g.speed:g}"
            parts.append(f"{g.nodes:,} x {g.cores} cores{mem}{speed} {g.name!r}")
        text = " + ".join(parts)
        if self.partitions:
            names = [p.name + (" (default)" if p.default else "") for p in self.partitions]
            text += f"; partitions {', '.join(names)}"
        return text


# -- reading ----------------------------------------------------------------------------


def read_machine(path: str | os.PathLike[str]) -> Machine:
    """A machine from a TOML file (module docstring); `MachineError` on one line
    naming the file, the table and the key."""
    p = Path(path)
    try:
        table = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MachineError(f"{p}: no such machine file") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise MachineError(f"{p}: not TOML: {exc}") from None
    return machine_from_table(table, str(p))


def machine_from_table(table: Mapping[str, Any], source: str) -> Machine:
    """A machine from its TOML tables (``group`` and ``partition`` arrays), as a machine
    file or a study's ``[machine]`` holds them; ``source`` names them in messages."""
    unknown = sorted(set(table) - {"group", "partition"})
    if unknown:
        raise MachineError(f"{source}: unknown key {unknown[0]!r} (a machine has [[group]] "
                           "and [[partition]] tables)")  # fmt: skip
    groups = _tables(table, "group", source)
    if not groups:
        raise MachineError(f"{source}: no [[group]]: a machine has at least one node group")
    made: list[NodeGroup] = []
    for k, g in enumerate(groups, start=1):
        where = f"{source}: [[group]] {k}" + (
            f" ({g['name']!r})" if isinstance(g.get("name"), str) else ""
        )
        _keys(g, {"name", "nodes", "cores", "memory", "speed"}, where)
        name = _name(g, where, f"group{k}")
        if any(m.name == name for m in made):
            raise MachineError(f"{where}: key name: {name!r} names an earlier group too")
        nodes = _count(g, "nodes", where, needed=True)
        cores = _count(g, "cores", where, default=1)
        memory = None
        if "memory" in g:
            try:
                memory = parse_memory(g["memory"])
            except ValueError as exc:
                raise MachineError(f"{where}: key memory: {exc}") from None
        speed = g.get("speed", 1.0)
        if isinstance(speed, bool) or not isinstance(speed, int | float) or not 0 < speed <= 1000:
            raise MachineError(f"{where}: key speed: {speed!r}, a number above 0 (at most 1000)")
        made.append(NodeGroup(name, nodes, cores, memory, float(speed)))
    total = sum(group.nodes for group in made)
    start: dict[str, int] = {}
    at = 0
    for group in made:
        start[group.name] = at
        at += group.nodes
    partitions: list[Partition] = []
    for k, t in enumerate(_tables(table, "partition", source), start=1):
        where = f"{source}: [[partition]] {k}" + (
            f" ({t['name']!r})" if isinstance(t.get("name"), str) else ""
        )
        _keys(t, {"name", "number", "groups", "nodes", "default"}, where)
        name = _name(t, where, None)
        if any(q.name == name for q in partitions):
            raise MachineError(f"{where}: key name: {name!r} names an earlier partition too")
        number = _count(t, "number", where, default=0) or None
        if number is not None and any(q.number == number for q in partitions):
            raise MachineError(f"{where}: key number: {number} is an earlier partition's too")
        default = t.get("default", False)
        if not isinstance(default, bool):
            raise MachineError(f"{where}: key default: {default!r} is not true or false")
        if default and any(q.default for q in partitions):
            raise MachineError(f"{where}: key default: an earlier partition is the default")
        members = _partition_nodes(t, where, made, start, total)
        partitions.append(Partition(name, members, number, default))
    return Machine(tuple(made), tuple(partitions), source)


def _tables(table: Mapping[str, Any], key: str, source: str) -> list[Mapping[str, Any]]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
        raise MachineError(f"{source}: {key}: write each as a [[{key}]] table")
    return value


def _keys(t: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(t) - allowed)
    if unknown:
        raise MachineError(
            f"{where}: unknown key {unknown[0]!r} (keys: {', '.join(sorted(allowed))})"
        )


def _name(t: Mapping[str, Any], where: str, default: str | None) -> str:
    name = t.get("name", default)
    if name is None:
        raise MachineError(f"{where}: key name: missing (a partition is named)")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise MachineError(f"{where}: key name: {name!r} is not a name (letters, digits, _ . -)")
    return name


def _count(
    t: Mapping[str, Any], key: str, where: str, *, needed: bool = False, default: int = 0
) -> int:
    if key not in t:
        if needed:
            raise MachineError(f"{where}: key {key}: missing")
        return default
    value = t[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise MachineError(f"{where}: key {key}: {value!r} is not a whole number")
    if value < 1:
        raise MachineError(f"{where}: key {key}: {value}, must be at least 1")
    return value


def _partition_nodes(
    t: Mapping[str, Any], where: str, groups: Sequence[NodeGroup], start: Mapping[str, int],
    total: int,
) -> tuple[int, ...]:  # fmt: skip
    if ("groups" in t) == ("nodes" in t):
        raise MachineError(f"{where}: give its groups (groups = [...]) or its nodes "
                           "(nodes = \"0-3 7\"), one of the two")  # fmt: skip
    if "groups" in t:
        names = t["groups"]
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            raise MachineError(f"{where}: key groups: a list of group names")
        out: list[int] = []
        size = {g.name: g.nodes for g in groups}
        for n in names:
            if n not in start:
                raise MachineError(f"{where}: key groups: no group {n!r} "
                                   f"(groups: {', '.join(g.name for g in groups)})")  # fmt: skip
            out.extend(range(start[n], start[n] + size[n]))
        return tuple(sorted(set(out)))
    text = t["nodes"]
    if not isinstance(text, str):
        raise MachineError(f'{where}: key nodes: {text!r}: node ranges as text, "0-3 7"')
    picked: set[int] = set()
    for part in text.split():
        m = _RANGE.fullmatch(part)
        if m is None:
            raise MachineError(f'{where}: key nodes: {part!r} is not a node or a range ("0-3")')
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) is not None else lo
        if hi < lo or hi >= total:
            raise MachineError(f"{where}: key nodes: {part!r}: the nodes are 0-{total - 1}")
        picked.update(range(lo, hi + 1))
    if not picked:
        raise MachineError(f"{where}: key nodes: no node")
    return tuple(sorted(picked))
