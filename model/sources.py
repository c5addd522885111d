"""Workload sources: processes that submit jobs to the scheduler.

`replay` is the open-loop source: one SimPy process walks the whole job
list in submit order and hands every job submitted at the same instant to
the scheduler in one batch. It never creates a process per future job, so
a multi-year trace costs one pending event at any time.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

import simpy

from model.job import Job, JobRun
from model.scheduler import Scheduler, delay_until


def replay(
    env: simpy.Environment, jobs: Sequence[Job], scheduler: Scheduler
) -> Generator[simpy.Event, Any, None]:
    """Submit ``jobs`` (sorted by submit time, then id) at their submit times."""
    i, n = 0, len(jobs)
    while i < n:
        t = jobs[i].submit
        if t > env.now:
            yield env.timeout(delay_until(env.now, t))
        batch = []
        while i < n and jobs[i].submit == t:
            batch.append(JobRun(jobs[i], limit=None))
            i += 1
        scheduler.submit(batch)
    scheduler.source_done = True
