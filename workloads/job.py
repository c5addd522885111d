"""The job record: one rigid parallel job as a workload describes it.

`Job` is immutable and knows nothing of the simulation: its submit time,
size, run time and estimate, the SWF fields that identify its user, group,
application, queue and partition, the 18 original SWF fields when it was
read from a log, and a mapping of extra attributes (priority class,
requested reservation time, memory, contention parameters: whatever a
workload model or a transform attaches). The simulation's state for a job
(`schedsim.model.job.JobRun`) refers to it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from types import MappingProxyType
from typing import Any

#: The attributes of a job that has none (shared: most jobs have none).
NO_ATTRS: Mapping[str, Any] = MappingProxyType({})

#: Job ids lie in [_ID_LOW, _ID_HIGH): the int64 range of the job tables.
_ID_LOW, _ID_HIGH = -(2**63), 2**63

#: Names of the 18 fields of the Standard Workload Format, in order.
SWF_FIELDS: tuple[str, ...] = (
    "job_number",
    "submit_time",
    "wait_time",
    "run_time",
    "allocated_processors",
    "average_cpu_time",
    "used_memory",
    "requested_processors",
    "requested_time",
    "requested_memory",
    "status",
    "user_id",
    "group_id",
    "executable_id",
    "queue_id",
    "partition_id",
    "preceding_job",
    "think_time",
)


@dataclass(frozen=True, slots=True)
class Job:
    """One rigid parallel job as the workload describes it.

    Times are seconds on the trace's clock (SWF submit times: seconds since the
    log's ``UnixStartTime``). ``id`` must fit in a 64-bit integer, as the
    simulation's job tables hold it (ValueError otherwise; the SWF reader
    refuses job numbers of 2**53 or more, which a float no longer holds
    exactly). ``size`` is the number of cores the job needs;
    ``run_time`` is its actual run time on a dedicated machine; ``estimate`` is
    the user's requested time (the wall-clock limit). ``swf`` keeps the 18
    original SWF fields when the job was read from a log, so the simulated
    schedule can be written back with everything else unchanged.

    ``attrs`` maps names to extra attributes (a priority class, a requested
    reservation time, memory, contention parameters...): read-only, kept as
    given, and shown as columns of the simulated job table. SWF has fields
    for two of them only, ``queue`` and ``partition``, which are the fields
    above; `schedsim.workloads.transforms.with_attribute` sets either kind.
    """

    id: int
    submit: float
    run_time: float
    size: int
    estimate: float
    user: int = -1
    group: int = -1
    app: int = -1
    queue: int = -1
    partition: int = -1
    swf: tuple[float, ...] | None = field(default=None, compare=False, repr=False)
    attrs: Mapping[str, Any] = field(default_factory=lambda: NO_ATTRS, hash=False)

    def __post_init__(self) -> None:
        if not _ID_LOW <= self.id < _ID_HIGH:
            # The simulation keeps ids in int64 columns: say so here, not with numpy's
            # OverflowError at the end of a run.
            raise ValueError(
                f"job id {self.id} does not fit in a 64-bit integer "
                "(ids must be at least -2**63 and below 2**63)"
            )
        if type(self.attrs) is not MappingProxyType:
            # A read-only copy: a job's attributes cannot change under the simulation.
            object.__setattr__(self, "attrs", MappingProxyType(dict(self.attrs)))

    def __reduce__(self) -> tuple[Any, ...]:
        # A read-only mapping does not pickle; rebuild the job from a plain copy.
        values = [getattr(self, f) for f in _FIELDS]
        values[-1] = dict(self.attrs)
        return (Job, tuple(values))

    @property
    def work(self) -> float:
        """Core-independent work: seconds of run time at rate 1.0."""
        return self.run_time


_FIELDS: tuple[str, ...] = tuple(f for f in Job.__dataclass_fields__)
#: Each field's slot, set directly: past the frozen dataclass's ``__setattr__`` and the
#: generated ``__init__`` (an ``object.__setattr__`` call per field).
_SLOT_SETTERS = tuple(Job.__dict__[f].__set__ for f in _FIELDS)
_new_job = object.__new__
(
    _set_id, _set_submit, _set_run_time, _set_size, _set_estimate, _set_user, _set_group,
    _set_app, _set_queue, _set_partition, _set_swf, _set_attrs,
) = _SLOT_SETTERS  # fmt: skip


def trusted_job(
    id: int, submit: float, run_time: float, size: int, estimate: float, user: int
) -> Job:
    """``Job(id, submit, run_time, size, estimate, user=user)``, unchecked.

    For a caller that makes its ids itself, from a counter that stays in the
    int64 range, and passes values of the fields' types: the closed-loop users
    (`schedsim.model.sources`), which make one job at a time inside the
    simulation. Skipping ``__post_init__`` and the frozen dataclass's
    ``__init__`` (one ``object.__setattr__`` per field) halves the cost of a job.
    """
    # One setter call per slot, written out: a loop over the fields costs half as much again.
    job = _new_job(Job)
    _set_id(job, id)
    _set_submit(job, submit)
    _set_run_time(job, run_time)
    _set_size(job, size)
    _set_estimate(job, estimate)
    _set_user(job, user)
    _set_group(job, -1)
    _set_app(job, -1)
    _set_queue(job, -1)
    _set_partition(job, -1)
    _set_swf(job, None)
    _set_attrs(job, NO_ATTRS)
    return job


def _trusted_jobs(columns: Sequence[Sequence[Any]], swf: Iterable[tuple[float, ...]]) -> list[Job]:
    """Jobs built from columns of values, unchecked: for the SWF reader only.

    ``columns`` holds, in `Job`'s field order, the values of ``id`` to ``partition``
    (one sequence per field, one value per job), ``swf`` each job's 18 SWF fields;
    every job gets the shared empty ``attrs``. Nothing runs ``__post_init__``: the
    caller has checked that the ids lie in the int64 range (the reader refuses job
    numbers of 2**53 or more) and that values have their fields' types (ints for
    ``id``, ``size`` and the identifiers). Each slot is filled for all jobs at once by
    ``map``, which keeps the per-job work in C: about a third of the time of ``Job(...)``
    per job on the 77,222 jobs of the CTC log.
    """
    n = len(columns[0])
    jobs = list(map(object.__new__, repeat(Job, n)))
    for set_slot, column in zip(_SLOT_SETTERS, (*columns, swf, repeat(NO_ATTRS, n)), strict=True):
        # deque(..., maxlen=0) runs the map to its end without keeping its results.
        deque(map(set_slot, jobs, column), maxlen=0)
    return jobs
