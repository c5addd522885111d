"""A run's jobs in Batsim's jobs CSV layout, so that Batsim's tools (evalys) read it as is.

Batsim writes one row per job with these columns (`COLUMNS`), and evalys
(`evalys.jobset.JobSet.from_csv`) reads them, parsing ``allocated_resources``
with procset:

``job_id, workload_name, profile, submission_time, requested_number_of_resources,
requested_time, success, final_state, starting_time, execution_time,
finish_time, waiting_time, turnaround_time, stretch, allocated_resources,
consumed_energy, metadata``

What schedsim writes there, and the choices made:

* Times are seconds from the run's start (its first submit, ``meta["start"]``),
  as Batsim counts from the start of its simulation.
* ``allocated_resources`` are cores in procset's syntax (``"0-3 7"``): with
  one core per node (the classic studies) a core is its node; on nodes of
  several cores, core ``k`` of node ``n`` is resource ``n * cores_per_node +
  k``, so that a Gantt chart of resources shows jobs sharing a node.
* Batsim does not suspend jobs: a suspended and resumed job is one row from
  its first start to its end, on its home. A requeued job is, as in Batsim,
  resubmitted: each attempt is a row, the later ones named ``ID#1``,
  ``ID#2`` ... and submitted when the previous attempt was lost (this needs
  the piece log; without it a job is one row, from its first start).
* ``success`` is 1 for a completed job; ``final_state`` is
  ``COMPLETED_SUCCESSFULLY``, ``COMPLETED_WALLTIME_REACHED`` (killed at its
  limit; also a lost attempt) or ``COMPLETED_KILLED`` (ended by the policy).
* ``profile`` is ``"schedsim"``, ``consumed_energy`` -1 (not modelled),
  ``metadata`` empty. Unfinished jobs (a partial result) are left out.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from schedsim.model.results import Result

__all__ = ["COLUMNS", "batsim_jobs", "write_batsim_jobs"]

COLUMNS: tuple[str, ...] = (
    "job_id", "workload_name", "profile", "submission_time", "requested_number_of_resources",
    "requested_time", "success", "final_state", "starting_time", "execution_time",
    "finish_time", "waiting_time", "turnaround_time", "stretch", "allocated_resources",
    "consumed_energy", "metadata",
)  # fmt: skip

_STATES = {
    "completed": "COMPLETED_SUCCESSFULLY",
    "killed_at_limit": "COMPLETED_WALLTIME_REACHED",
    "killed": "COMPLETED_KILLED",
}


def batsim_jobs(result: Result, workload_name: str = "w0") -> pd.DataFrame:
    """The jobs of ``result`` as Batsim's jobs table (see the module docstring)."""
    jobs = result.jobs[result.jobs["outcome"] != "unfinished"]
    origin = float(result.meta["start"])
    lost, last = _attempts(result)
    rows = []
    for job in jobs.itertuples(index=False):
        submit = float(job.submit)
        earlier = lost.get(job.id, ())
        for k, (start, end, cores) in enumerate(earlier):
            name = f"{job.id}#{k}" if k else str(job.id)
            rows.append(_row(name, workload_name, submit, job, start, end, cores,
                             "COMPLETED_WALLTIME_REACHED", origin))  # fmt: skip
            submit = end  # resubmitted when the attempt was lost
        start, cores = last.get(job.id, (float(job.start), str(job.nodes)))
        name = f"{job.id}#{len(earlier)}" if earlier else str(job.id)
        rows.append(_row(name, workload_name, submit, job, start, float(job.end), cores,
                         _STATES[job.outcome], origin))  # fmt: skip
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _row(
    name: str,
    workload: str,
    submit: float,
    job: Any,
    start: float,
    end: float,
    cores: str,
    state: str,
    origin: float,
) -> tuple[Any, ...]:
    execution = end - start
    turnaround = end - submit
    stretch = turnaround / execution if execution > 0 else np.nan
    return (
        name, workload, "schedsim", submit - origin, int(job.size), float(job.estimate),
        int(state == "COMPLETED_SUCCESSFULLY"), state, start - origin, execution, end - origin,
        start - submit, turnaround, stretch, cores, -1, "",
    )  # fmt: skip


def _attempts(
    result: Result,
) -> tuple[dict[int, list[tuple[float, float, str]]], dict[int, tuple[float, str]]]:
    """From the piece log: each requeued job's lost attempts (start, end, cores), and
    each job's last attempt (start, cores: those it held last). Empty without pieces."""
    pieces = result.pieces
    if pieces is None or pieces.empty:
        return {}, {}
    spans = pieces.groupby(["job", "attempt"], sort=True).agg(
        start=("start", "min"), end=("end", "max"), cores=("cores", "last")
    )
    last_attempt = spans.groupby(level="job").tail(1)
    last = {
        int(jid): (float(row.start), str(row.cores))
        for (jid, _), row in zip(last_attempt.index, last_attempt.itertuples(), strict=True)
    }
    lost: dict[int, list[tuple[float, float, str]]] = {}
    earlier = spans.drop(last_attempt.index)
    for (jid, _), row in zip(earlier.index, earlier.itertuples(), strict=True):
        lost.setdefault(int(jid), []).append((float(row.start), float(row.end), str(row.cores)))
    return lost, last


def write_batsim_jobs(
    result: Result, path: str | os.PathLike[str], workload_name: str = "w0"
) -> Path:
    """Write `batsim_jobs` as CSV (comma separated, a header row); returns the path."""
    out = Path(path)
    batsim_jobs(result, workload_name).to_csv(out, index=False)
    return out
