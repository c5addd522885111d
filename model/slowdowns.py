"""The statistical contention model of Zeng & Sodan (seed 003, sections 3 and 4.9).

A job's rate is 1 / its current slowdown, from how many of its processes
share each of its nodes and with which other jobs. The slowdowns are those
of Table 4: per job a core self slowdown SL_scr and a node self slowdown
SL_sno, per pair of jobs a coscheduling slowdown SL_cos. The distributions,
the keyed draws and Equations 7 and 8 live in `schedsim.workloads.multicore`
(a workload needs them to adapt its sizes, and workloads sit below the
model); they are re-exported here.

**Where the values come from.** A job's SL_scr and SL_sno are its attributes
``sl_scr`` and ``sl_sno`` when it has them (`schedsim.workloads.multicore.adapt_sizes`
sets them), else `draw_self` of the model's ``seed`` and the job id: the same
values, so a workload adapted with seed s and a model of seed s agree. SL_cos
comes from ``pairs`` when given there, else from `draw_pair` of the seed and
the two ids. Every draw is made once per job or pair and keyed by the ids, so
a rate never depends on the order in which jobs or pairs are met. The
`ContentionModel` interface does not see the run's streams, so the model
takes the ``seed``: studies pass the run's seed (its draws are then those of
the run's named stream ``"slowdowns"``).

**Placement** (section 4.9). A node has ``cpus_per_node`` CPUs (2, the
paper's two dual-core CPUs) sharing its cores equally. Processes of one job
go to different CPUs of a node first; processes of different jobs share a CPU.

**How slowdowns combine.** On one node, a job with p processes has the self
slowdown (`self_slowdown`): 1 for p = 1, SL_sno for p = 2 (one process per
CPU), SL_scr * SL_sno for p = 3 or 4 (two of its processes share a CPU, the
product of Equation 7). The paper's scheduler puts at most two jobs on a node
(section 4.5) and never says how self and coscheduling slowdowns combine, nor
how several node-mates do; the choices, both parameters:

* ``self_and_cos="product"`` (default): the node slowdown is the self
  slowdown times the coscheduling one (independent causes: the job's own
  processes and the other job compete for different things); ``"max"``
  takes the larger.
* ``mates="max"`` (default): with 1 to 3 other jobs on the node, the
  coscheduling slowdown is that of the worst pair, max over the mates of
  SL_cos(job next to mate), the rule Equation 6 applies to a job over its
  matched jobs (SL_q = max SL_{A,x}); ``"product"`` multiplies them (each
  further mate adds contention).
* A job spread over several nodes runs at the pace of its slowest node: its
  slowdown is the max over its nodes (Equation 6's SL_q again; a parallel
  job's processes wait for each other).
* ``pair="directed"`` (default): Equation 6 distinguishes SL_{A,i} (A next to
  i) from SL_{i,A}; both are drawn, once, from the pair's generator.
  ``"symmetric"``: one value for both.

So on the paper's node (2 CPUs x 2 cores), with the defaults: alone with 1,
2 or 4 processes, 1, SL_sno, SL_scr * SL_sno; with 1 or 2 processes next to
jobs B (and C, D), self slowdown times max(SL_cos(job, B), ...). Slowdowns
below 1 (SL_sno in [0.9, 1.0)) are speedups (section 3): rates above 1.
Jobs writing a suspension out still hold their cores and count as mates.

**Limits.** A rate is relative to T_i, the run time with one process per
node and no contention (Table 1), which is what a Lublin-Feitelson job's run
time and estimate are; a slowed job outlives its estimate, so a run with this
model should not kill at the estimate in run time (``kill_at_estimate=False``
or ``limit_in="work"`` of `schedsim.model.simulation.ModelSimulation`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Literal

from schedsim.model.contention import ContentionModel, Sharing
from schedsim.workloads.job import Job
from schedsim.workloads.multicore import (
    CPUS_PER_NODE,
    MAX_SL,
    SELF_SL2,
    SL_COS,
    SL_SCR,
    SL_SNO,
    STREAM,
    SlowdownDistribution,
    SlowdownDraws,
    adapted_size,
    draw_pair,
    draw_self,
    equation7,
    processes_per_node,
    self_slowdown,
)

__all__ = [
    "MAX_SL",
    "SELF_SL2",
    "SL_COS",
    "SL_SCR",
    "SL_SNO",
    "SlowdownDistribution",
    "SlowdownDraws",
    "StatisticalContention",
    "adapted_size",
    "draw_pair",
    "draw_self",
    "equation7",
    "processes_per_node",
    "self_slowdown",
]

Combine = Literal["max", "product"]


def _combine(values: list[float], how: Combine) -> float:
    # Over the values themselves (never from 1): a speedup, SL < 1, stays one.
    return max(values) if how == "max" else math.prod(values)


class StatisticalContention(ContentionModel):
    """Rates 1 / slowdown from Table 4's slowdowns (module docstring).

    ``seed``: the base of the keyed draws (the run's seed). ``cpus_per_node``:
    CPUs sharing a node's cores equally (2). ``pairs``: SL_cos set by hand,
    ``(job, mate) -> slowdown of job next to mate`` (with ``pair="symmetric"``
    a value given one way serves both). ``stream_name``: the named stream.
    """

    def __init__(
        self,
        seed: int,
        *,
        cpus_per_node: int = CPUS_PER_NODE,
        mates: Combine = "max",
        self_and_cos: Combine = "product",
        pair: Literal["directed", "symmetric"] = "directed",
        pairs: Mapping[tuple[int, int], float] | None = None,
        stream_name: str = STREAM,
    ) -> None:
        if isinstance(cpus_per_node, bool) or not isinstance(cpus_per_node, int):
            raise TypeError(f"cpus_per_node must be an int, got {cpus_per_node!r}")
        if cpus_per_node < 1:
            raise ValueError(f"cpus_per_node must be at least 1, got {cpus_per_node}")
        for name, value, allowed in (
            ("mates", mates, ("max", "product")),
            ("self_and_cos", self_and_cos, ("max", "product")),
        ):
            if value not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
        #: The draws (shared with the policies that predict slowdowns).
        self.draws = SlowdownDraws(seed, pairs=pairs, pair=pair, stream_name=stream_name)
        self.seed = self.draws.seed
        self.cpus_per_node = cpus_per_node
        self.mates = mates
        self.self_and_cos = self_and_cos
        self.pair = pair
        self.pairs = self.draws.pairs
        self.stream_name = stream_name

    def __repr__(self) -> str:
        # Shown in a result's metadata: parameters only, no memory address.
        return (
            f"StatisticalContention(seed={self.seed}, cpus_per_node={self.cpus_per_node}, "
            f"mates={self.mates!r}, self_and_cos={self.self_and_cos!r}, pair={self.pair!r}, "
            f"pairs={len(self.pairs)} set by hand, stream_name={self.stream_name!r})"
        )

    def self_slowdowns(self, job: Job) -> tuple[float, float]:
        """The job's (SL_scr, SL_sno): its attributes when present, else drawn."""
        return self.draws.self_slowdowns(job)

    def cos(self, job_id: int, mate_id: int) -> float:
        """SL_cos of job ``job_id`` next to job ``mate_id``."""
        return self.draws.cos(job_id, mate_id)

    def node_slowdown(self, job: Job, ppn: int, mates: Iterable[int]) -> float:
        """The slowdown of ``job`` with ``ppn`` processes on a node shared with ``mates``."""
        sl_scr, sl_sno = self.self_slowdowns(job)
        own = self_slowdown(ppn, sl_scr, sl_sno, self.cpus_per_node)
        others = [self.cos(job.id, m) for m in mates]
        if not others:
            return own
        return _combine([own, _combine(others, self.mates)], self.self_and_cos)

    def slowdown(self, job: Job, sharing: Sharing) -> float:
        """The job's slowdown now: that of its slowest node."""
        cores = sharing.cores_per_node
        if cores % self.cpus_per_node:
            raise ValueError(
                f"{self.cpus_per_node} CPUs cannot share the {cores} cores of a node equally"
            )
        alloc = sharing.allocation
        return max(
            self.node_slowdown(job, ppn, sharing.on(node))
            for node, ppn in zip(alloc.nodes.tolist(), alloc.cores.tolist(), strict=True)
        )

    def rate(self, job: Job, sharing: Sharing) -> float:
        return 1.0 / self.slowdown(job, sharing)
