"""``schedule.swf``: a run's schedule in the Standard Workload Format, partial executions too.

SWF (Parallel Workloads Archive, version 2.2) has one line per job, and for jobs
that were checkpointed or swapped out (preempted) lines of their partial
executions. `write_schedule_swf` writes (`schedsim.workloads.swf.write_swf`):

* for every job a **summary line** with the job table's numbers
  (`schedsim.model.results`): wait (field 3) = ``wait`` = end - submit - run,
  run (field 4) = ``run``, the wall-clock time the attempt that counts ran, so
  that submit + wait + run is the job's end and size x run its work as any reader
  of one line per job computes them; status (field 11) 1 completed, 0 killed at
  its limit or lost to a node outage (SWF's "failed"), 5 killed by the policy (SWF's
  "cancelled"), -1 a
  job unfinished in a partial result, whose wait and run are unknown (-1);
* for a job that did not hold its processors in one stretch of exactly its run
  (it was suspended, requeued or paid an overhead: `partial_executions`), right
  after its summary line, one **partial-execution line** per holding interval
  (`schedsim.model.pieces.holding`), in time order: wait = the interval's start
  - submit, run = its length, allocated processors = the cores it held, status
  2, the last 3 (job completed) or 4 (killed). The header then says
  ``Preemption: Double`` and ``MaxRecords`` counts the lines, ``MaxJobs`` the jobs.

Seconds are rounded half up to whole seconds: on a summary line wait and run
each; on partial lines the start and end instants (seconds after the
submission), capped at the summary line's end (submit + wait + run as written),
so that a job's partial lines never overlap, follow each other in time and lie
inside its life as the file shows it, from its first start to that end. What
holds exactly: each partial line's start and end are the holding interval's
within half a second (an end pulled back to the summary's end: within a second
and a half); the runs of a job's n partial lines add up to its summary run plus
its overhead and lost run time (``overhead_time``, ``lost_run``: the holding that
is not the run that counts) within n + 1 seconds; and when the schedule's times
are whole seconds (the archive's logs under SS, IS, PFCFS or multiple queues)
every one of these holds exactly.

Without a piece log (``--no-pieces``) the holding intervals are unknown: every
job has its summary line only; a run in which a job was suspended or requeued
then says ``Preemption: TS`` (SWF's "preemption was used, no details are
available") with a note saying why, since ``No`` would say no job was preempted.

The header says the machine simulated: ``MaxNodes`` = nodes, ``MaxProcs`` =
nodes x cores per node (from ``result.meta``); when they differ from the log's
own header, a note names the log's values.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import numpy as np

from schedsim.model.columns import Columns
from schedsim.model.pieces import holding
from schedsim.workloads.swf import write_swf

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from schedsim.model.results import Result
    from schedsim.workloads.workload import Workload

__all__ = ["partial_executions", "schedule_frame", "write_schedule_swf"]

#: SWF status (field 11) of each simulated outcome; any other (``unfinished``) is -1.
SWF_STATUS: dict[str, int] = {"completed": 1, "killed_at_limit": 0, "killed": 5, "failed": 0}


def schedule_frame(result: Result) -> Columns:
    """The summary line of each job: ``id, wait, run, size, status`` (module docstring).

    ``wait`` and ``run`` are the job table's (seconds); for an unfinished job (a
    partial result) both are NaN, written as -1 (missing): its end, and so the run
    that counts, are not known yet. Made from the job table's columns
    (`Result.column`): writing ``schedule.swf`` needs no DataFrame.
    """
    outcome = result.column("outcome")
    status = np.array([SWF_STATUS.get(str(o), -1) for o in outcome.tolist()], dtype=np.int64)
    unfinished = status == -1
    wait = result.column("wait").astype(float)  # a copy: NaN is put in it
    run = result.column("run").astype(float)
    wait[unfinished] = np.nan
    run[unfinished] = np.nan
    return Columns(
        {
            "id": result.column("id"),
            "wait": wait,
            "run": run,
            "size": result.column("size"),
            "status": status,
        }
    )


def preempted(result: Result) -> bool:
    """Whether any job was suspended, requeued or paid an overhead: the jobs whose holding
    of processors the summary line alone does not show (read from the job table, so
    that an EASY run never looks at its piece log)."""
    return bool(
        (result.column("suspensions") > 0).any()
        or (result.column("requeues") > 0).any()
        or (result.column("overhead_time").astype(float) > 0).any()
    )


def partial_executions(result: Result) -> pd.DataFrame | Columns | None:
    """The partial executions to write (``id, start, end, size``), None without a piece log.

    A job has them when its holding intervals (`schedsim.model.pieces.holding`) are
    not one stretch of exactly its run: several intervals (suspended, or requeued),
    or one that holds an overhead or a lost attempt. Empty when no job was preempted
    (the piece log is then not read at all: an EASY run writes as fast as before).
    """
    if not preempted(result):
        return Columns({name: np.array([]) for name in ("id", "start", "end", "size")})
    pieces = result.pieces
    if pieces is None:
        return None
    intervals = holding(pieces)
    job = intervals["job"].to_numpy()
    several = np.zeros(len(job), dtype=bool)
    several[1:] = job[1:] == job[:-1]
    several[:-1] |= job[:-1] == job[1:]
    # An interval with an overhead or a lost attempt is longer than the run it shows.
    not_run = pieces.loc[pieces["kind"].isin(("overhead", "lost")).to_numpy(), "job"]
    chosen = several | np.isin(job, not_run.to_numpy())
    out = intervals.loc[chosen, ["job", "start", "end", "size"]].rename(columns={"job": "id"})
    return out.reset_index(drop=True)


def write_schedule_swf(
    result: Result, workload: Workload, path: str | os.PathLike[str], *, policy: str
) -> None:
    """Write ``result``'s schedule of ``workload`` (the jobs as submitted,
    `Simulation.jobs_submitted`) as ``schedule.swf`` (module docstring); ``policy`` is
    named in the header's note."""
    partials = partial_executions(result)
    preemption = None
    if partials is None:  # no piece log: summary lines only
        preemption = "TS" if preempted(result) else "No"
    nodes = int(result.meta["nodes"])
    write_swf(
        path,
        workload,
        schedule_frame(result),
        note=f"policy: {policy}",
        preemption=preemption,
        partials=partials,
        max_nodes=nodes,
        max_procs=nodes * int(result.meta["cores_per_node"]),
    )
