"""Large-memory jobs for a log that asks for none: memory requests and a partition,
drawn from the run's seed.

No log of the Parallel Workloads Archive that schedsim ships gives a requested memory
(SWF field 10 is -1 in all of them), and only SDSC Paragon names partitions (field 16),
so a study of a machine with a large-memory partition has nothing to put there.
`with_large_memory` makes the jobs that would go there, a documented modelling choice
rather than a measurement: each job is chosen, independently, with probability
``share``; a chosen job asks for more memory per core than the ordinary nodes give a
core (so it cannot fill one of them) and names the large-memory partition, as a user
whose job needs the memory submits it there. Its memory per core is uniform over
whole KB in ``(low, high]``: ``low`` the ordinary nodes' memory per core, ``high`` the
most the partition's nodes give a core. A chosen job wider than the partition can hold
at its memory (``most_cores``) could never run: it stays as it was, and the step says
how many did.

The draws come from the seed's stream ``"large_memory"``, two per job (chosen, amount)
whatever the others' outcome, so the same seed chooses the same jobs whatever the
machine, and changing the share keeps the amounts. The requested memory is SWF field
10 (KB per processor, as SWF defines it), so it is written back to SWF and Parquet and
the memory model of a machine reads it (`schedsim.model.machine.job_memory`); the
partition is field 16 when it has a number, else the attribute ``partition_name``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

import numpy as np

from schedsim.workloads.job import Job
from schedsim.workloads.streams import stream
from schedsim.workloads.swf import _job_fields
from schedsim.workloads.workload import CleaningStep, Members, Workload

__all__ = ["with_large_memory"]

#: SWF fields (0-based) the transform writes: requested memory, partition.
_MEMORY, _PARTITION = 9, 15

_GB = 1024.0**2  # KB


def with_large_memory(
    w: Workload,
    share: float,
    per_core: tuple[float, float],
    partition: int | str,
    seed: int,
    most_cores: Callable[[float], int] | None = None,
) -> Workload:
    """A share ``share`` of the jobs, at random, asking ``per_core`` = (low, high] KB of
    memory per core and naming ``partition`` (an SWF number, or a name); module
    docstring. ``most_cores(kb)``: the most cores a job asking ``kb`` per core can hold
    in the partition (None: no limit). Recorded as one cleaning step."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"the large-memory share must be in [0, 1], got {share}")
    low, high = per_core
    if not (0 <= low < high and math.isfinite(high)):
        raise ValueError(
            f"large-memory jobs ask more than the ordinary nodes' {low:g} KB a core and at "
            f"most the partition's {high:g} KB: there is no such amount"
        )
    n = len(w.jobs)
    rng = stream(seed, "large_memory")
    draws = rng.random((n, 2))  # (chosen, amount) for every job: see the docstring
    first, last = math.floor(low) + 1, math.floor(high)
    amounts = first + np.floor(draws[:, 1] * (last - first + 1))
    jobs, chosen, wide = [], [], 0
    for job, (pick, kb) in zip(w.jobs, zip(draws[:, 0] < share, amounts.tolist(), strict=True),
                               strict=True):  # fmt: skip
        if not pick:
            jobs.append(job)
        elif most_cores is not None and job.size > most_cores(kb):
            jobs.append(job)
            wide += 1
        else:
            jobs.append(_asking(job, kb, partition))
            chosen.append(job.id)
    if not chosen and not wide:
        return w
    detail = f"{low / _GB:.3g}-{high / _GB:.3g} GB per core in partition {partition}"
    if wide:
        detail += f"; {wide} more drawn but wider than the partition holds, left as they were"
    step = CleaningStep.of("large memory asked", Members(detail, len(chosen), ids=tuple(chosen)))
    return w.with_jobs(jobs, step)


def _asking(job: Job, kb: float, partition: int | str) -> Job:
    """``job`` asking ``kb`` per core in ``partition`` (its SWF fields too)."""
    if job.swf is not None:
        swf = list(job.swf)
    else:  # a model's job: the fields `write_swf` would give it (its own values, -1 else)
        one = Workload.from_jobs([job])
        swf = _job_fields(one, np.array([-1.0]), np.array([job.run_time]))[0].tolist()
    swf[_MEMORY] = kb
    if isinstance(partition, str):
        attrs = {**job.attrs, "partition_name": partition}
        return dataclasses.replace(job, swf=tuple(swf), attrs=attrs)
    swf[_PARTITION] = float(partition)
    return dataclasses.replace(job, swf=tuple(swf), partition=partition)
