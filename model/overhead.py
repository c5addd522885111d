"""The cost of suspending and restarting a job: seed 000's memory model (section 4.1).

Seed 000 (Kettimuthu, section 4.1) models the overhead of preemption as
the time to write the job's main memory to disk on suspension (and, by the
same token, to read it back on restart): "the memory requirement of jobs
[is] random and uniformly distributed between 100MB and 1GB", and "the
transfer rate per processor was assumed to be 2 MBps (corresponding to a
disk bandwidth of 8 MBps)" with a local disk per four-processor node.

The text leaves open whether the 100 MB-1 GB is the job's whole memory or
each processor's. The default (``per="job"``) reads it as the job's: its
processors write their shares in parallel, each at the per-processor rate,
so a job of n processors takes memory / (rate x n) seconds. ``per=
"processor"`` reads it as each processor's memory: every job then takes
memory / rate seconds whatever its width. Both costs, write-out and
read-back, are the same number; while either runs the job holds its
processors and makes no progress (`schedsim.model.scheduler.Scheduler`).

Memory sizes come from the run's own ``"memory"`` random stream
(`schedsim.model.simulation.ModelSimulation.rng`), drawn once for all jobs in workload
order (submit time, then id), so they do not depend on which jobs a policy
happens to suspend, and other components' draws do not move them. A job that
carries a ``memory_mb`` attribute (``Job.attrs``) uses it instead; its draw
is still made, so that no other job's moves. The users of a closed-loop
population (`schedsim.model.sources.population`) draw each job's memory as
they make it, from their own ``"users/I/memory"`` stream, into that attribute:
the k-th job of a user gets the same memory under every policy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from schedsim.model.view import OverheadModel
from schedsim.workloads.job import Job

__all__ = ["MemoryOverhead"]


@dataclass(frozen=True)
class MemoryOverhead:
    """Suspension and restart each cost the time to move the job's memory to or from disk.

    Parameters (seed 000, section 4.1): memory uniform in
    [``low_mb``, ``high_mb``] MB, written and read at ``rate_mb_s`` MB/s per
    processor; ``per`` says whose memory that is (module docstring).
    """

    low_mb: float = 100.0
    high_mb: float = 1000.0
    rate_mb_s: float = 2.0
    per: Literal["job", "processor"] = "job"

    def __post_init__(self) -> None:
        if not (0.0 <= self.low_mb <= self.high_mb) or not np.isfinite(self.high_mb):
            raise ValueError(
                f"memory range must satisfy 0 <= low <= high < inf, "
                f"got [{self.low_mb}, {self.high_mb}] MB"
            )
        if not (self.rate_mb_s > 0.0 and np.isfinite(self.rate_mb_s)):
            raise ValueError(f"transfer rate must be a positive number, got {self.rate_mb_s}")
        if self.per not in ("job", "processor"):
            raise ValueError(f"per must be 'job' or 'processor', got {self.per!r}")

    #: The job attribute that gives a job's memory in MB, when it has one.
    ATTRIBUTE = "memory_mb"

    def memory(self, jobs: Sequence[Job], rng: np.random.Generator) -> dict[int, float]:
        """Memory in MB of every job, by job id, drawn in the order given."""
        drawn = rng.uniform(self.low_mb, self.high_mb, size=len(jobs))
        return {job.id: float(mb) for job, mb in zip(jobs, drawn, strict=True)}

    def draw(self, rng: np.random.Generator) -> float:
        """The memory of one job, in MB (a user making a job draws it so)."""
        return float(rng.uniform(self.low_mb, self.high_mb))

    def seconds(self, memory_mb: float, size: int) -> float:
        """Time to write (or read) ``memory_mb`` for a job of ``size`` processors."""
        streams = size if self.per == "job" else 1
        return memory_mb / (self.rate_mb_s * streams)

    def model(self, jobs: Sequence[Job], rng: np.random.Generator) -> OverheadModel:
        """The ``job -> (suspend_cost, resume_cost)`` the scheduler charges.

        ``jobs`` are the jobs known in advance (none for a population, whose
        jobs carry their memory as an attribute).
        """
        memory = self.memory(jobs, rng)
        cost: dict[int, float] = {}
        for job in jobs:
            mb = job.attrs.get(self.ATTRIBUTE, memory[job.id])
            cost[job.id] = self.seconds(float(mb), job.size)
        key = self.ATTRIBUTE

        def overhead(job: Job) -> tuple[float, float]:
            seconds = cost.get(job.id)
            if seconds is None:
                if key not in job.attrs:
                    raise ValueError(f"job {job.id} has no memory: no draw and no {key} attribute")
                seconds = cost[job.id] = self.seconds(float(job.attrs[key]), job.size)
            return seconds, seconds

        return overhead
