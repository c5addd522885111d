"""A job in the simulation: its live record (`JobRun`) and the clock of its ends (`JobClock`).

`schedsim.workloads.job.Job` is what the workload says; `JobRun` is the
state the simulation keeps for a job once it is submitted. Only the
scheduler (`schedsim.model.scheduler`) and its `JobClock` change it;
policies see immutable snapshots of it (`JobRun.snapshot`,
`schedsim.model.view.JobView`).

Work accounting. A job has ``work`` = its run time at rate 1.0. While it runs
at ``rate`` r, it does r units of work per second of wall-clock time and its
accumulated run time grows by one second per second. Every interruption
(suspend, kill, rate change) folds the elapsed interval into ``work_done`` and
``run_time_done`` exactly, so work done + remaining == work at every instant.
The rate is the policy's (`SetRate`, 1 by default) times the contention
model's (`schedsim.model.contention`, 1 without one).

Limits. A start may carry a limit (by default the estimate, see
`schedsim.model.simulation.ModelSimulation`): the run time (``limit_in="run"``,
wall-clock seconds of running, as a batch system counts) or the work
(``limit_in="work"``, so a job slowed down by contention is not killed with
work left) the start may use. A job that reaches it before its work is done
is killed there, or requeued when its start said so.

Attempts. A requeued job starts over: the work and run time of the attempt
it loses move to ``lost_work`` and ``lost_run``; ``attempts`` counts starts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import simpy

from schedsim.model.cluster import Allocation
from schedsim.model.view import INF, JobView, Outcome, State, job_view_of
from schedsim.workloads.job import Job

__all__ = ["JobClock", "JobRun"]


@dataclass(eq=False, slots=True)
class JobRun:
    """The simulation's live state for one submitted job (see the module docstring)."""

    job: Job
    state: State = State.QUEUED
    #: Cores held now: while running, and while a suspension writes the memory out.
    allocation: Allocation | None = None
    #: Nodes a suspended job must resume on (its allocation when suspended).
    home: Allocation | None = None
    first_start: float | None = None
    #: Clock time at which the current interval (queued, running, overhead...) began.
    since: float = 0.0
    #: False while the job holds its cores without progressing (overhead).
    progressing: bool = True
    #: The rate a policy set (`SetRate`) and the contention model's factor; ``rate``
    #: is their product, the work done per second of running.
    base_rate: float = 1.0
    contention: float = 1.0
    rate: float = 1.0
    work_done: float = 0.0
    run_time_done: float = 0.0
    #: The limit of the current start, counted in work (True) or run time (False).
    limit: float | None = None
    limit_in_work: bool = False
    on_limit: str = "kill"
    suspensions: int = 0
    #: Time suspended with the cores free (write-out and reload are overhead),
    #: so run, suspended and overhead times never overlap.
    suspended_time: float = 0.0
    suspended_at: float | None = None
    overhead_time: float = 0.0
    #: Work and run time of the attempts lost to requeues (a requeued job starts over).
    lost_work: float = 0.0
    lost_run: float = 0.0
    requeues: int = 0
    #: Attempts a node outage killed (`schedsim.model.outages`).
    failures: int = 0
    attempts: int = 0
    end: float | None = None
    outcome: Outcome | None = None
    #: Expected end by the estimate, valid while RUNNING (for backfilling).
    expected_end: float = INF
    #: The SimPy timeout that ends the current running interval or restart overhead
    #: (`JobClock`); None when the job is not running.
    pending_end: Any = None
    #: A SimPy event the scheduler triggers (with this JobRun) when the job
    #: ends: how a closed-loop user waits for its job (`schedsim.model.sources`).
    on_end: Any = None
    #: The latest snapshot (`snapshot`), kept by the scheduler.
    view: JobView | None = None
    #: The piece under way (`schedsim.model.pieces`): kind code and start time.
    piece_kind: int = -1
    piece_start: float = 0.0
    #: Machine-wide ids of the cores held (held last, when suspended), with several
    #: cores per node; None with one core per node, where a core is its node.
    cores: np.ndarray | None = None
    #: The current attempt's run pieces in the piece log (relabelled on a requeue);
    #: made at the first one (most jobs are never requeued).
    attempt_rows: list[Any] | None = None

    # Copies of the job's most-read attributes (a plain slot is cheaper than a property).
    id: int = field(init=False)
    size: int = field(init=False)
    submit: float = field(init=False)
    estimate: float = field(init=False)

    def __post_init__(self) -> None:
        job = self.job
        self.id = job.id
        self.size = job.size
        self.submit = job.submit
        self.estimate = job.estimate

    #: An immutable view of the job as it is now (what policies read): its fields read
    #: off this record's attributes of the same names (`schedsim.model.view.job_view_of`,
    #: compiled from `JobView`'s fields; a snapshot is taken at every change of every job).
    snapshot = job_view_of

    # -- accounting ------------------------------------------------------------------
    def account(self, now: float) -> None:
        """Fold the interval since ``since`` into the job's totals.

        Called at every change (start, suspend, kill, rate change, end) so
        that the totals are exact at that instant. Outside RUNNING (or while
        suspending with overhead) nothing progresses.
        """
        dt = now - self.since
        if dt > 0 and self.allocation is not None:
            if self.state is State.RUNNING and self.progressing:
                self.work_done += dt * self.rate
                self.run_time_done += dt
            else:
                self.overhead_time += dt
        self.since = now

    def time_to_end(self) -> tuple[float, Outcome]:
        """Seconds from ``since`` until the job ends, and how it ends.

        The work left at the current rate, or what the limit still allows,
        whichever is sooner (`Outcome.KILLED_AT_LIMIT` stands for reaching the
        limit, whatever the scheduler then does).
        """
        rate = self.rate
        t_work = (self.job.work - self.work_done) / rate if rate > 0 else INF
        limit = self.limit
        if limit is None:
            return max(t_work, 0.0), Outcome.COMPLETED
        if self.limit_in_work:
            t_limit = (limit - self.work_done) / rate if rate > 0 else INF
        else:
            t_limit = limit - self.run_time_done
        if t_work <= t_limit:
            return max(t_work, 0.0), Outcome.COMPLETED
        return max(t_limit, 0.0), Outcome.KILLED_AT_LIMIT

    def planned_run(self) -> float:
        """Seconds of running from ``since`` until the planned end.

        The estimated work left at the current rate, or what the limit still
        allows if that is sooner (never negative): with rate 1 and the
        estimate as a run-time limit, both are the estimate less the run time.
        """
        rate = self.rate
        left = self.estimate - self.work_done
        t = left if rate == 1.0 else (left / rate if rate > 0 else INF)
        limit = self.limit
        if limit is not None:
            if self.limit_in_work:
                bound = (limit - self.work_done) / rate if rate > 0 else INF
            else:
                bound = limit - self.run_time_done
            t = min(t, bound)
        return max(t, 0.0)

    def remaining_estimate(self) -> float:
        """Run time the estimate still allows (never negative)."""
        return max(self.estimate - self.run_time_done, 0.0)

    def accumulated_run(self, now: float) -> float:
        """Run time accumulated up to ``now``, including the current interval."""
        if self.state is State.RUNNING:
            return self.run_time_done + (now - self.since)
        return self.run_time_done


class JobClock:
    """The clock of the running jobs: when each running interval ends.

    A running interval (from a start or a resume to the next change) is one SimPy
    timeout at its end, whose callback accounts the interval and tells the scheduler
    (``on_end``): no process, no generator and no interrupt per job. The scheduler
    accounts every change synchronously (`JobRun.account`) and then calls
    `recompute` after a rate change, so the end moves to its new time, or `stop`
    when the job is suspended, killed or requeued, so the end never comes. A start
    with a restart overhead (``startup``) first waits that long holding its cores
    without progress; ``on_progress`` is told when it is over.

    A superseded timeout stays in SimPy's queue and does nothing when it fires
    (``run.pending_end`` names the one that counts), as an interrupted process's
    timeout did. The timeouts are made in the order of the calls, so that ends
    at one instant are taken in the order their jobs started or changed.
    """

    __slots__ = ("_end", "_env", "_on_end", "_on_progress", "_progress")

    def __init__(
        self,
        env: simpy.Environment,
        on_end: Callable[[JobRun, Outcome], None],
        on_progress: Callable[[JobRun], None] | None = None,
    ) -> None:
        self._env = env
        self._on_end = on_end
        self._on_progress = on_progress
        # Bound once: a callback is appended to every timeout.
        self._end = self._ended
        self._progress = self._startup_over

    def start(self, run: JobRun, startup: float = 0.0) -> None:
        """``run`` starts (or resumes) running now, after ``startup`` seconds of overhead."""
        if startup > 0:
            run.progressing = False
            self._wait_startup(run, self._env.now + startup)
        else:
            self._wait_end(run)

    def recompute(self, run: JobRun) -> None:
        """``run``'s rate changed (accounted up to now): its end moves."""
        if run.progressing:
            self._wait_end(run)
        else:  # still in its restart overhead, which a rate does not shorten
            self._wait_startup(run, run.pending_end.value[1])

    @staticmethod
    def stop(run: JobRun) -> None:
        """``run`` stops running now (suspended, killed or requeued): its end never comes."""
        run.pending_end = None

    def _wait_end(self, run: JobRun) -> None:
        dt, outcome = run.time_to_end()
        event = self._env.timeout(dt, (run, outcome))
        event.callbacks.append(self._end)
        run.pending_end = event

    def _ended(self, event: simpy.Event) -> None:
        run, outcome = event._value
        if run.pending_end is not event:
            return  # superseded: stopped, or its end moved
        run.account(self._env.now)
        if outcome is Outcome.COMPLETED:
            run.work_done = run.job.work  # no rounding residue on a finished job
        self._on_end(run, outcome)

    def _wait_startup(self, run: JobRun, until: float) -> None:
        env = self._env
        if env.now < until:
            event = env.timeout(until - env.now, (run, until))
            event.callbacks.append(self._progress)
            run.pending_end = event
        else:
            self._progressing(run)

    def _startup_over(self, event: simpy.Event) -> None:
        run, until = event._value
        if run.pending_end is event:
            # ``now + (until - now)`` may fall a hair short of ``until``: wait the rest.
            self._wait_startup(run, until)

    def _progressing(self, run: JobRun) -> None:
        now = self._env.now
        run.account(now)
        run.progressing = True
        run.expected_end = now + run.planned_run()
        if self._on_progress is not None:
            self._on_progress(run)
        self._wait_end(run)
