"""Contention: how fast a running job progresses, given who shares its nodes.

On nodes of several cores, processes of one job, and of different jobs
placed on the same node, slow each other down (seed 003 sections 3 and
4.9). That is physics, not policy, so it lives in the model: a
`ContentionModel` given to `schedsim.model.simulation.ModelSimulation` computes
the rate of each running job from its own allocation and the jobs sharing
its nodes, and the scheduler applies it whenever an allocation changes (a
start, an end, a suspension or a resumption, a kill or a requeue), to every
running job on the nodes concerned, with exact accounting of the work done
at the old rate. A rate a policy sets (`SetRate`) multiplies it.

A model reads a `Sharing`: the job's nodes and cores, and for each node the
other jobs on it (their records, `schedsim.workloads.job.Job`, carry any
per-job parameters a model needs as attributes, ``job.attrs``). Jobs
holding cores while a suspension writes their memory out are on their
nodes too; they do not progress, so their own rate is not computed.

`NodeSharing` is the simplest model: a job runs at ``1 / slowdown`` while
any other job shares one of its nodes, else at full speed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.model.cluster import Allocation, Cluster
    from schedsim.model.job import JobRun
    from schedsim.workloads.job import Job

__all__ = ["CONTENTION", "ContentionModel", "NodeSharing", "Sharing"]


#: The ``contention`` values a run configuration and ``schedsim run --contention`` take:
#: ``"none"`` (no contention) and the models by name.
CONTENTION: tuple[str, ...] = ("none", "statistical")


class Sharing:
    """Who shares the nodes of one job, at one instant (what a `ContentionModel` reads)."""

    __slots__ = ("_cluster", "_jobs", "allocation", "job_id")

    def __init__(
        self, cluster: Cluster, jobs: Mapping[int, JobRun], job_id: int, allocation: Allocation
    ) -> None:
        self._cluster = cluster
        self._jobs = jobs
        #: The job the rate is for, and the cores it holds.
        self.job_id = job_id
        self.allocation = allocation

    @property
    def cores_per_node(self) -> int:
        return self._cluster.cores_per_node

    def on(self, node: int) -> dict[int, int]:
        """The other jobs holding cores on ``node``: job id -> cores."""
        return {j: c for j, c in self._cluster.jobs_on(node).items() if j != self.job_id}

    def mates(self) -> set[int]:
        """The other jobs on any node of the job."""
        out: set[int] = set()
        for n in self.allocation.nodes.tolist():
            out.update(self._cluster.jobs_on(n))
        out.discard(self.job_id)
        return out

    def job(self, job_id: int) -> Job:
        """The record of job ``job_id`` (its ``attrs`` carry per-job model parameters)."""
        return self._jobs[job_id].job


class ContentionModel:
    """Base class: the rate (work per second, > 0; 1 = alone) of a running job.

    Subclasses implement `rate`. It is called for every running job on the
    nodes whose occupancy just changed, so it should depend only on the
    job and on who shares its nodes, and give the same number for the same
    situation (draw random parameters once per job or pair, keyed by their
    ids, from the run's named streams).
    """

    def rate(self, job: Job, sharing: Sharing) -> float:  # pragma: no cover - interface
        raise NotImplementedError


@dataclass(frozen=True)
class NodeSharing(ContentionModel):
    """A job runs ``slowdown`` times slower while any other job shares one of its nodes."""

    slowdown: float = 2.0

    def __post_init__(self) -> None:
        if not self.slowdown >= 1.0:
            raise ValueError(f"slowdown must be >= 1, got {self.slowdown}")

    def rate(self, job: Job, sharing: Sharing) -> float:
        return 1.0 / self.slowdown if sharing.mates() else 1.0
