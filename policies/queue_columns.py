"""The queued jobs' columns for Selective Suspension, kept up to date event by event.

At every scheduling pass SS needs the sizes, estimates and thresholds of
the queued jobs (seed 000, section 3.2: an idle job's threshold is its
xfactor, growing while it waits) to know when the first of them could
preempt. A job's size, estimate, submit time and run time so far do not
change while it waits, so `Queued` keeps them as arrays: an arrival adds a
row, a start removes one (the last row takes its place), and each pass
computes all thresholds in one vector expression instead of a loop over
the jobs. The rows are in no particular order: what SS reads from them
(the earliest time any job could preempt, and candidates it orders by
threshold, submit time and id) does not depend on it.
"""

from __future__ import annotations

import numpy as np

from schedsim.model.view import JobView

__all__ = ["Queued"]

_FIRST_CAPACITY = 64


class Queued:
    """Sizes, estimates (at least ``floor``), submit times, run times so far and ids of
    queued jobs, one row per job, and the jobs in the same order (`jobs`).

    The floor (1e-9 s by default) keeps SS's thresholds, which divide by the
    estimate, finite; CREASY, which does not divide, keeps the estimates as they
    are (``floor=-inf``), as its scalar `schedsim.policies.creasy.policy.priority` and EASY's
    loop read them.
    """

    def __init__(self, jobs: tuple[JobView, ...] | list[JobView] = (), floor: float = 1e-9) -> None:
        self.floor = floor
        self.n = 0
        self.jobs: list[JobView] = []
        self._pos: dict[int, int] = {}
        self._size = np.zeros(0, dtype=np.int64)
        self._est = np.zeros(0)
        self._submit = np.zeros(0)
        self._done = np.zeros(0)
        self._ids = np.zeros(0, dtype=np.int64)
        self._grow(max(_FIRST_CAPACITY, 2 * len(jobs)))
        for job in jobs:
            self.add(job)

    def _grow(self, capacity: int) -> None:
        def grown(old: np.ndarray) -> np.ndarray:
            out = np.zeros(capacity, dtype=old.dtype)
            out[: self.n] = old[: self.n]
            return out

        self._size, self._est, self._submit, self._done, self._ids = map(grown, self._columns())

    def _columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self._size, self._est, self._submit, self._done, self._ids

    def __len__(self) -> int:
        return self.n

    def __contains__(self, job_id: int) -> bool:
        return job_id in self._pos

    def add(self, job: JobView) -> None:
        """``job`` joins the queue."""
        if self.n == len(self._ids):
            self._grow(2 * self.n)
        i = self.n
        self._size[i] = job.size
        self._est[i] = max(job.estimate, self.floor)
        self._submit[i] = job.submit
        self._done[i] = job.run_time_done
        self._ids[i] = job.id
        self._pos[job.id] = i
        self.jobs.append(job)
        self.n += 1

    def drop(self, job_id: int) -> None:
        """Job ``job_id`` leaves the queue (it started)."""
        i = self._pos.pop(job_id)
        last = self.n - 1
        moved = self.jobs.pop()
        if i != last:
            for a in self._columns():
                a[i] = a[last]
            self.jobs[i] = moved
            self._pos[moved.id] = i
        self.n = last

    def columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Sizes, estimates, submit times, run times so far and ids (views, in `jobs` order)."""
        n = self.n
        size, est, submit, done, ids = self._columns()
        return size[:n], est[:n], submit[:n], done[:n], ids[:n]

    def thresholds(self, now: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Sizes, estimates and thresholds now, ``(now - submit - done + est) / est``."""
        n = self.n
        est = self._est[:n]
        return self._size[:n], est, (now - self._submit[:n] - self._done[:n] + est) / est
