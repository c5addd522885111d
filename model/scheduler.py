"""The scheduler daemon: wake-ups, the read-only view, applying decisions, timers.

Event order at one instant (DESIGN.md, "Conventions"): every completion and
every arrival at time t happens first, then exactly **one** scheduling pass.
That order is built into SimPy's event queue rather than checked by hand:
completions, arrivals and timers are ordinary events (priority NORMAL), and
the daemon's wake-up is scheduled with a priority *after* NORMAL (`LATE`),
so the heap pops it only when nothing else is left at t. Any number of
completions and arrivals at t therefore produce a single pass.

The daemon applies a policy's decisions in order and synchronously: a
suspension frees its cores (or starts its write-out overhead) before the
next decision is applied, so a policy may suspend a job and start another
on its cores in the same list.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from typing import Any

import numpy as np
import simpy
from schedsim.model.cluster import AllocationError, Cluster
from schedsim.model.job import RECOMPUTE, STOP, JobRun, Outcome, OverheadModel, State, job_process
from schedsim.model.policy import (
    Decision,
    Kill,
    Policy,
    PolicyError,
    Requeue,
    Resume,
    SetRate,
    Start,
    Suspend,
    View,
    WakeAt,
)
from simpy.events import NORMAL

#: Priority of the daemon's wake-up: after every NORMAL event at the same time.
LATE = NORMAL + 1

__all__ = ["LATE", "OverheadModel", "Scheduler", "delay_until"]


def delay_until(now: float, t: float) -> float:
    """A delay ``d`` with ``now + d == t`` exactly in floating point.

    ``now + (t - now)`` can miss ``t`` by one unit in the last place, which
    would let a job start a hair before its submit time. Nudge the delay
    until the sum lands exactly on ``t``.
    """
    d = t - now
    for _ in range(4):
        s = now + d
        if s == t:
            break
        d = np.nextafter(d, np.inf if s < t else -np.inf)
    return max(float(d), 0.0)


class _Wake(simpy.Event):
    """The daemon's wake-up event, triggered with the LATE priority."""

    def fire(self) -> None:
        # Same as Event.succeed(), but scheduled after NORMAL events at now.
        self._ok = True
        self._value = None
        self.env.schedule(self, LATE)


class Scheduler:
    """Owns the queue and the live jobs; runs the policy; applies decisions."""

    def __init__(
        self,
        env: simpy.Environment,
        cluster: Cluster,
        policy: Policy,
        *,
        kill_at_estimate: bool = True,
        overhead: OverheadModel | None = None,
    ) -> None:
        self.env = env
        self.cluster = cluster
        self.policy = policy
        self.kill_at_estimate = kill_at_estimate
        self.overhead = overhead
        # Insertion-ordered dicts: O(1) removal, iteration in submit order.
        self.queue: dict[int, JobRun] = {}
        self.running: dict[int, JobRun] = {}
        self.suspended: dict[int, JobRun] = {}
        # The suspended jobs as the views show them, rebuilt only when the set
        # changes: under SS hundreds stay suspended through most passes.
        self._suspended_seen: tuple[JobRun, ...] | None = ()
        self.finished: list[JobRun] = []
        self._arrived: list[JobRun] = []
        self._ended: list[JobRun] = []
        self._timers: set[float] = set()
        self._wake_pending = False
        self._wake_event: _Wake | None = None
        #: Set by the workload source once it will submit nothing more.
        self.source_done = False
        self.passes = 0
        self.series: list[tuple[float, int, int, int, int, int]] = []
        self.process = env.process(self._daemon())

    # -- inputs ---------------------------------------------------------------
    def submit(self, runs: Iterable[JobRun]) -> None:
        """Arrivals: jobs join the queue now (the source calls this)."""
        for run in runs:
            run.since = self.env.now
            self.queue[run.job.id] = run
            self._arrived.append(run)
        self.wake()

    def wake(self) -> None:
        """Ask for one scheduling pass at the current instant."""
        if not self._wake_pending and self._wake_event is not None:
            self._wake_pending = True
            self._wake_event.fire()

    @property
    def idle(self) -> bool:
        """Nothing queued, running or suspended."""
        return not (self.queue or self.running or self.suspended)

    # -- the daemon -------------------------------------------------------------
    def _daemon(self) -> Generator[simpy.Event, Any, None]:
        while True:
            self._wake_event = _Wake(self.env)
            self._wake_pending = False
            yield self._wake_event
            self._pass()

    def _pass(self) -> None:
        now = self.env.now
        view = View(
            now=now,
            queue=tuple(self.queue.values()),
            running=tuple(self.running.values()),
            suspended=self._suspended_now(),
            arrived=tuple(self._arrived),
            ended=tuple(self._ended),
            free_cores=self.cluster.free_cores,
            free_per_node=self.cluster.free_per_node,
            nodes=self.cluster.nodes,
            cores_per_node=self.cluster.cores_per_node,
            overhead=self.overhead,
        )
        self._arrived.clear()
        self._ended.clear()
        self.passes += 1
        for decision in self.policy.schedule(view):
            self.apply(decision)
        self.record()

    def _suspended_now(self) -> tuple[JobRun, ...]:
        seen = self._suspended_seen
        if seen is None:
            seen = self._suspended_seen = tuple(self.suspended.values())
        return seen

    def record(self) -> None:
        c = self.cluster
        self.series.append(
            (
                self.env.now,
                c.busy_cores,
                c.busy_nodes,
                len(self.queue),
                len(self.running),
                len(self.suspended),
            )
        )

    # -- applying decisions ---------------------------------------------------
    def apply(self, d: Decision) -> None:
        """Apply one decision now; raises PolicyError if it cannot be applied."""
        # The most frequent first: a start per job, a timer per pass at most.
        if isinstance(d, Start):
            self._start(d)
        elif isinstance(d, WakeAt):
            self._timer(d.time)
        elif isinstance(d, Suspend):
            self._suspend(d.job, d.penalty)
        elif isinstance(d, Resume):
            self._resume(d.job)
        elif isinstance(d, Kill):
            self._stop(d.job, requeue=False)
        elif isinstance(d, Requeue):
            self._stop(d.job, requeue=True)
        elif isinstance(d, SetRate):
            self._set_rate(d.job, d.rate)
        else:
            raise PolicyError(f"unknown decision {d!r}")

    def _start(self, d: Start) -> None:
        run, now = d.job, self.env.now
        if run.state is not State.QUEUED or run.job.id not in self.queue:
            raise PolicyError(f"start of job {run.id}, which is {run.state.value}, not queued")
        alloc = d.allocation
        if alloc is None:
            alloc = self.cluster.first_fit(run.size)  # valid and free by construction
            if alloc is None:
                raise PolicyError(
                    f"start of job {run.id} ({run.size} cores) with only "
                    f"{self.cluster.free_cores} cores free"
                )
        else:  # a policy's own placement: check it before it touches the pool
            if alloc.size != run.size:
                raise PolicyError(
                    f"job {run.id} needs {run.size} cores, allocation has {alloc.size}"
                )
            if not self.cluster.valid(alloc):
                raise PolicyError(
                    f"start of job {run.id} on nodes {alloc.node_list()}, not a valid allocation"
                )
        try:
            self.cluster.allocate(alloc)
        except AllocationError:
            raise PolicyError(
                f"start of job {run.id} on nodes {alloc.node_list()}, whose cores are not free"
            ) from None
        del self.queue[run.job.id]
        run.state = State.RUNNING
        run.allocation = alloc
        run.home = alloc
        run.limit = run.job.estimate if self.kill_at_estimate else None
        if run.first_start is None:
            run.first_start = now
        self._launch(run, startup=0.0)

    def _launch(self, run: JobRun, startup: float) -> None:
        now = self.env.now
        run.since = now
        run.progressing = True
        run.expected_end = now + startup + run.remaining_estimate()
        self.running[run.job.id] = run
        run.process = self.env.process(job_process(self.env, run, self._on_end, startup))

    def _suspend(self, run: JobRun, penalty: float = 0.0) -> None:
        if run.state is not State.RUNNING:
            raise PolicyError(f"suspend of job {run.id}, which is {run.state.value}")
        if not penalty >= 0:
            raise PolicyError(f"suspension penalty of job {run.id} must be >= 0, got {penalty}")
        now = self.env.now
        run.account(now)
        run.process.interrupt(STOP)
        del self.running[run.job.id]
        run.state = State.SUSPENDED
        run.suspensions += 1
        run.expected_end = float("inf")
        self.suspended[run.job.id] = run
        self._suspended_seen = None
        cost = (self.overhead(run)[0] if self.overhead else 0.0) + penalty
        # Suspended time starts once the cores are free: the write-out before
        # that is overhead, so run, suspended and overhead times never overlap.
        run.suspended_at = now if cost <= 0 else None
        if cost > 0:
            # The memory image is written out: cores stay busy, no progress.
            run.progressing = False
            self.env.process(self._release_after(run, cost))
        else:
            self._release(run)

    def _release_after(self, run: JobRun, cost: float) -> Generator[simpy.Event, Any, None]:
        # The same suspension still under way: not killed or requeued (and
        # perhaps restarted and suspended again) during the write-out.
        marks = (run.suspensions, run.requeues)
        yield self.env.timeout(cost)
        if (
            run.state is State.SUSPENDED
            and run.allocation is not None
            and (run.suspensions, run.requeues) == marks
        ):
            run.account(self.env.now)
            self._release(run)
            run.suspended_at = self.env.now
            self.wake()

    def _release(self, run: JobRun) -> None:
        if run.allocation is not None:
            self.cluster.release(run.allocation)
            run.allocation = None

    def _resume(self, run: JobRun) -> None:
        if run.state is not State.SUSPENDED:
            raise PolicyError(f"resume of job {run.id}, which is {run.state.value}")
        if run.allocation is not None:
            raise PolicyError(f"resume of job {run.id} while its suspension overhead is under way")
        home = run.home
        assert home is not None
        try:
            self.cluster.allocate(home)
        except AllocationError:
            raise PolicyError(
                f"resume of job {run.id}: its nodes {home.node_list()} are not free"
            ) from None
        now = self.env.now
        del self.suspended[run.job.id]
        self._suspended_seen = None
        run.allocation = home
        run.state = State.RUNNING
        assert run.suspended_at is not None
        run.suspended_time += now - run.suspended_at
        run.suspended_at = None
        cost = self.overhead(run)[1] if self.overhead else 0.0
        self._launch(run, startup=cost)

    def _stop(self, run: JobRun, requeue: bool) -> None:
        if run.state not in (State.RUNNING, State.SUSPENDED):
            raise PolicyError(f"kill of job {run.id}, which is {run.state.value}")
        now = self.env.now
        run.account(now)
        if run.state is State.RUNNING:
            run.process.interrupt(STOP)
            del self.running[run.job.id]
        else:
            del self.suspended[run.job.id]
            self._suspended_seen = None
            if run.suspended_at is not None:
                run.suspended_time += now - run.suspended_at
                run.suspended_at = None
        self._release(run)
        if requeue:
            run.lost_work += run.work_done
            run.work_done = 0.0
            run.run_time_done = 0.0
            run.requeues += 1
            run.state = State.QUEUED
            run.home = None
            run.expected_end = float("inf")
            # Back in submit order: rebuild the queue dict (rare).
            self.queue[run.job.id] = run
            self.queue = dict(sorted(self.queue.items(), key=lambda kv: (kv[1].submit, kv[0])))
        else:
            self._finish(run, Outcome.KILLED)

    def _set_rate(self, run: JobRun, rate: float) -> None:
        if run.state is not State.RUNNING:
            raise PolicyError(f"rate change of job {run.id}, which is {run.state.value}")
        if not rate > 0:
            raise PolicyError(f"rate of job {run.id} must be positive, got {rate}")
        run.account(self.env.now)
        run.rate = rate
        run.process.interrupt(RECOMPUTE)

    def _timer(self, t: float) -> None:
        now = self.env.now
        if not t > now:
            raise PolicyError(f"WakeAt({t}) is not in the future (now {now})")
        if t in self._timers:
            return
        self._timers.add(t)
        ev = self.env.timeout(delay_until(now, t))
        ev.callbacks.append(self._on_timer)

    def _on_timer(self, _event: simpy.Event) -> None:
        now = self.env.now
        self._timers.discard(now)  # no longer pending
        # A timer with nothing left to schedule must not keep the run alive.
        if not (self.idle and self.source_done) and self.policy.wants_pass(now):
            self.wake()

    # -- completions --------------------------------------------------------------
    def _on_end(self, run: JobRun, outcome: Outcome) -> None:
        del self.running[run.job.id]
        self._release(run)
        self._finish(run, outcome)
        self.wake()

    def _finish(self, run: JobRun, outcome: Outcome) -> None:
        run.state = State.DONE
        run.outcome = outcome
        run.end = self.env.now
        run.expected_end = self.env.now
        self._ended.append(run)
        self.finished.append(run)
        if run.on_end is not None:
            run.on_end.succeed(run)
