"""Jobs: the static description a workload gives, and the running state of one.

`Job` is immutable: what the workload says (submit time, size, run time,
estimate and the remaining SWF fields). `JobRun` is the mutable state the
simulation keeps for a job once it has been submitted, and owns the SimPy
process that executes it (`JobRun.process`).

Work accounting. A job has ``work`` = its run time at rate 1.0. While it runs
at ``rate`` r, it does r units of work per second of wall-clock time and its
accumulated run time grows by one second per second. Every interruption
(suspend, kill, rate change) folds the elapsed interval into ``work_done`` and
``run_time_done`` exactly, so work done + remaining == work at every instant.

Wall-clock limit. When ``limit`` is set (by default the estimate, see
`schedsim.model.simulation.Simulation`), a job whose accumulated run time reaches the
limit before its work is done is killed there, as a batch system would.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

import simpy
from schedsim.workloads.job import Job

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.model.cluster import Allocation


class State(Enum):
    """Where a job is in its life."""

    QUEUED = "queued"
    RUNNING = "running"
    SUSPENDED = "suspended"
    DONE = "done"


class Outcome(Enum):
    """How a job left the system."""

    COMPLETED = "completed"
    KILLED_AT_LIMIT = "killed_at_limit"
    KILLED = "killed"


@dataclass(eq=False, slots=True)
class JobRun:
    """The simulation's state for one submitted job.

    Policies see these objects through the read-only `schedsim.model.policy.View` and
    must not assign to them; only the scheduler (`schedsim.model.scheduler`) and the job
    process change them.
    """

    job: Job
    limit: float | None
    state: State = State.QUEUED
    allocation: Allocation | None = None
    #: Nodes a suspended job must resume on (its allocation when suspended).
    home: Allocation | None = None
    first_start: float | None = None
    #: Clock time at which the current running interval (or overhead) began.
    since: float = 0.0
    #: False while the job holds its cores without progressing (overhead).
    progressing: bool = True
    rate: float = 1.0
    work_done: float = 0.0
    run_time_done: float = 0.0
    suspensions: int = 0
    #: Time suspended with the cores free (write-out and reload are overhead),
    #: so run, suspended and overhead times never overlap.
    suspended_time: float = 0.0
    suspended_at: float | None = None
    overhead_time: float = 0.0
    #: Work thrown away by requeues (a requeued job starts over).
    lost_work: float = 0.0
    requeues: int = 0
    end: float | None = None
    outcome: Outcome | None = None
    #: Expected end by the estimate, valid while RUNNING (for backfilling).
    expected_end: float = float("inf")
    process: Any = None
    #: A SimPy event the scheduler triggers (with this JobRun) when the job
    #: ends: how a closed-loop user waits for its job (`schedsim.model.sources`).
    on_end: Any = None

    # Copies of the job's most-read attributes: policies read them in their
    # inner loops, where a plain slot is several times cheaper than a property.
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

    # -- derived, read-only quantities ------------------------------------

    @property
    def remaining_work(self) -> float:
        return self.job.work - self.work_done

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

        The work left at the current rate, or the run time the wall-clock
        limit still allows, whichever is sooner.
        """
        work_left = self.job.work - self.work_done
        t_work = work_left / self.rate if self.rate > 0 else float("inf")
        if self.limit is None:
            return max(t_work, 0.0), Outcome.COMPLETED
        t_limit = self.limit - self.run_time_done
        if t_work <= t_limit:
            return max(t_work, 0.0), Outcome.COMPLETED
        return max(t_limit, 0.0), Outcome.KILLED_AT_LIMIT

    def remaining_estimate(self) -> float:
        """Run time the estimate still allows (never negative)."""
        return max(self.job.estimate - self.run_time_done, 0.0)

    def accumulated_run(self, now: float) -> float:
        """Run time accumulated up to ``now``, including the current interval."""
        if self.state is State.RUNNING:
            return self.run_time_done + (now - self.since)
        return self.run_time_done

    def wait(self, now: float) -> float:
        """Time spent in the system not running (queued, suspended, overhead)."""
        end = self.end if self.end is not None else now
        return end - self.job.submit - self.accumulated_run(end)

    def xfactor(self, now: float) -> float:
        """(wait + estimate) / estimate, seed 000 section 2.2."""
        est = max(self.job.estimate, 1e-9)
        return (self.wait(now) + est) / est

    def instantaneous_xfactor(self, now: float) -> float:
        """(wait + accumulated run) / accumulated run, seed 000 section 2.3.

        Infinite for a job that has not run yet.
        """
        run = self.accumulated_run(now)
        if run <= 0:
            return float("inf")
        return (self.wait(now) + run) / run


#: ``(suspend_cost, resume_cost)`` in seconds for a job: the overhead model
#: (`schedsim.model.overhead.MemoryOverhead` builds seed 000's).
OverheadModel = Callable[["JobRun"], tuple[float, float]]

#: Interrupt cause telling a job process to recompute its end (rate changed).
RECOMPUTE = "recompute"
#: Interrupt cause telling a job process to stop (suspended, killed, requeued).
STOP = "stop"


def job_process(
    env: simpy.Environment,
    run: JobRun,
    on_end: Callable[[JobRun, Outcome], None],
    startup: float = 0.0,
) -> Generator[simpy.Event, Any, None]:
    """The SimPy process of one running interval of a job.

    The scheduler accounts every change synchronously (`JobRun.account`) and
    then interrupts this process: with `RECOMPUTE` after a rate change, so
    the process waits for the new end time, or with `STOP` when the job is
    suspended, killed or requeued, so the process ends without finishing
    the job. ``startup`` is a restart overhead during which the job holds
    its cores but makes no progress.
    """
    if startup > 0:
        run.progressing = False
        until = env.now + startup
        while env.now < until:
            try:
                yield env.timeout(until - env.now)
            except simpy.Interrupt as signal:
                if signal.cause != RECOMPUTE:
                    return
        run.account(env.now)
        run.progressing = True
        run.expected_end = env.now + run.remaining_estimate()
    while True:
        dt, outcome = run.time_to_end()
        try:
            yield env.timeout(dt)
        except simpy.Interrupt as signal:
            if signal.cause == RECOMPUTE:
                continue
            return
        run.account(env.now)
        if outcome is Outcome.COMPLETED:
            run.work_done = run.job.work  # no rounding residue on a finished job
        on_end(run, outcome)
        return
