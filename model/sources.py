"""Workload sources: what submits jobs to the scheduler.

`Replay` is the open-loop source: it walks the whole job list in submit order
and hands every job submitted at the same instant to the scheduler in one
batch, at one SimPy timeout per instant whose callback submits the batch and
sets the next. It makes no process, and none per future job, so a multi-year
trace costs one pending event at any time.

`population` is the closed-loop source of seed 002: one process per user,
running sessions of submit, wait, think (`schedsim.workloads.users` holds the model
and its parameters), so the load reacts to the response times the policy
gives and follows the daily cycle.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import numpy as np
import simpy
from simpy.events import URGENT

from schedsim.model.job import JobRun
from schedsim.model.overhead import MemoryOverhead
from schedsim.model.scheduler import Scheduler, delay_until
from schedsim.workloads.job import Job, trusted_job
from schedsim.workloads.users import DailyCycle, UserModel


class Replay:
    """Submits ``jobs`` (sorted by submit time, then id) at their submit times."""

    __slots__ = ("_arrive", "_env", "_i", "_jobs", "_scheduler")

    def __init__(self, env: simpy.Environment, jobs: Sequence[Job], scheduler: Scheduler) -> None:
        self._env = env
        self._jobs = jobs
        self._scheduler = scheduler
        self._i = 0
        self._arrive = self._arrived  # bound once: a callback of every timeout
        # It begins as a process would: at an urgent event now, after those made before.
        start = simpy.Event(env)
        start._ok, start._value = True, None
        start.callbacks.append(self._next)
        env.schedule(start, URGENT)

    def _next(self, _event: simpy.Event | None = None) -> None:
        """The jobs of every instant up to now, then a timeout to the next instant with
        arrivals; at the end, the source is done."""
        jobs, env = self._jobs, self._env
        while self._i < len(jobs):
            t = jobs[self._i].submit
            if t > env.now:
                event = env.timeout(delay_until(env.now, t), t)
                event.callbacks.append(self._arrive)
                return
            self._submit(t)
        self._scheduler.source_done = True

    def _arrived(self, event: simpy.Event) -> None:
        self._submit(event._value)
        self._next()

    def _submit(self, t: float) -> None:
        """Every job submitted at ``t``, in one batch."""
        jobs, i, n = self._jobs, self._i, len(self._jobs)
        batch = []
        while i < n and jobs[i].submit == t:
            batch.append(JobRun(jobs[i]))
            i += 1
        self._i = i
        self._scheduler.submit(batch)


#: Monday 1 January 2024, 00:00 UTC: the clock origin of closed-loop runs, so
#: that time of day and day of week are known (day 0 is a Monday).
EPOCH = 1704067200
_DAY = 86400.0
_HOUR = 3600.0


@dataclass(frozen=True)
class Population:
    """A closed-loop workload (seed 002): ``users`` users of ``model`` for ``days`` days.

    The population size sets the load. Users submit nothing at or after the
    horizon (``days`` days after the clock origin, midnight of day 0); jobs
    still in the system then run to their end, so every job ends exactly once.
    ``cycle`` is the daily cycle (`schedsim.workloads.users.DailyCycle`); with
    ``cycle.enabled = False`` the same users submit at any hour.
    """

    model: UserModel
    users: int
    days: float
    cycle: DailyCycle = field(default_factory=DailyCycle)
    unix_start_time: int = EPOCH

    def __post_init__(self) -> None:
        if isinstance(self.users, bool) or not isinstance(self.users, int) or self.users < 1:
            raise ValueError(f"users must be a positive integer, got {self.users!r}")
        if not (self.days > 0 and math.isfinite(self.days)):
            raise ValueError(f"days must be a positive number, got {self.days!r}")

    @property
    def horizon(self) -> float:
        return self.days * _DAY

    @property
    def name(self) -> str:
        cycle = "cycle" if self.cycle.enabled else "no-cycle"
        return f"users-{self.users}x{self.days:g}d-{cycle}-{self.model.source}"


@dataclass
class SessionLog:
    """What the users did: one row per session, and each job's session."""

    #: (user, session, first submit, end, jobs, reason) per session.
    sessions: list[tuple[int, int, float, float, int, str]] = field(default_factory=list)
    #: job id -> (user, session number of that user).
    job_session: dict[int, tuple[int, int]] = field(default_factory=dict)


class _Clock:
    """When one user may submit: the daily cycle with this user's own arrival times."""

    def __init__(self, cycle: DailyCycle, weekday0: int, rng: np.random.Generator) -> None:
        self.cycle = cycle
        self.weekday0 = weekday0
        self.rng = rng
        self.arrivals: list[float] = []

    def arrival(self, day: int) -> float:
        # Drawn in day order whatever asks first, so day d's arrival is the
        # same under every policy.
        c = self.cycle
        while len(self.arrivals) <= day:
            self.arrivals.append(self.rng.uniform(c.day_start, c.arrive_until) * _HOUR)
        return self.arrivals[day]

    def open_at(self, t: float) -> float:
        """The earliest time >= ``t`` at which the user submits (seed 002 section 3.2)."""
        c = self.cycle
        day = math.floor(t / _DAY)
        while True:
            if c.working(day, self.weekday0):
                start = day * _DAY + self.arrival(day)
                if t < start:
                    return start
                if t < day * _DAY + c.day_end * _HOUR:
                    return t
            day += 1
            t = day * _DAY


def population(
    env: simpy.Environment,
    scheduler: Scheduler,
    pop: Population,
    streams: Callable[[str], np.random.Generator],
    log: SessionLog,
    memory: MemoryOverhead | None = None,
) -> None:
    """Start one SimPy process per user of ``pop`` (seed 002 sections 2-3).

    ``streams(name)`` gives the run's named random streams: ``"users"``
    assigns each user a trace user; user ``i`` draws its jobs, continue
    draws, think times and breaks from ``"users/i"`` and its daily arrival
    times from ``"users/i/days"``. A user's k-th job, k-th continue draw and
    day d's arrival are therefore the same under every policy: schedulers
    are compared on the same workload-generation process, not the same jobs.
    With a suspension-overhead ``memory`` model, user ``i`` also draws each
    job's memory from ``"users/i/memory"`` into the job's ``memory_mb``
    attribute (`schedsim.model.overhead`).
    """
    model = pop.model
    assign = streams("users").integers(len(model.pools), size=pop.users)
    weekday0 = datetime.fromtimestamp(pop.unix_start_time, timezone.utc).weekday()
    ids = itertools.count(1)
    # The gaps as Python floats, made once for all users: the same values and draws.
    gaps = model.think.tolist(), model.breaks.tolist()
    for i in range(pop.users):
        clock = _Clock(pop.cycle, weekday0, streams(f"users/{i}/days"))
        env.process(
            _user(
                env,
                scheduler,
                pop,
                i,
                model.pools[assign[i]],
                gaps,
                streams(f"users/{i}"),
                clock,
                ids,
                log,
                (memory, streams(f"users/{i}/memory")) if memory is not None else None,
            )
        )


def _user(
    env: simpy.Environment,
    scheduler: Scheduler,
    pop: Population,
    uid: int,
    pool: np.ndarray,
    gaps: tuple[list[float], list[float]],
    rng: np.random.Generator,
    clock: _Clock,
    ids: Iterator[int],
    log: SessionLog,
    memory: tuple[MemoryOverhead, np.random.Generator] | None,
) -> Generator[simpy.Event, Any, None]:
    horizon = pop.horizon
    # The pool as Python rows: the same values and draws, without a numpy row and three
    # numpy scalars made per job.
    rows, n_rows = pool.tolist(), len(pool)
    open_at = clock.open_at if pop.cycle.enabled else float
    think, breaks = gaps
    # Equation 1 as this model reads it (its unit and constants: `UserModel.continuation`).
    continuation = pop.model.continuation
    p_continue, at_zero = continuation.probability, continuation.at_zero
    # Without a cycle a user is somewhere inside a break at time 0, so that the
    # users do not all start at once.
    wake = 0.0 if pop.cycle.enabled else rng.random() * breaks[rng.integers(len(breaks))]
    session = 0
    while True:
        # One session: submit, wait for the end, think, maybe go on.
        if wake > env.now:
            yield env.timeout(delay_until(env.now, wake))
        first, jobs, reason = math.nan, 0, "horizon"
        while True:
            t = open_at(env.now)
            if t >= horizon:
                break
            if t > env.now:
                yield env.timeout(delay_until(env.now, t))
            size, run_time, estimate = rows[rng.integers(n_rows)]
            if memory:
                attrs = {MemoryOverhead.ATTRIBUTE: memory[0].draw(memory[1])}
                job = Job(next(ids), env.now, run_time, int(size), estimate, user=uid, attrs=attrs)
            else:  # the same Job, without its checks: the ids come from this run's counter
                job = trusted_job(next(ids), env.now, run_time, int(size), estimate, uid)
            run = JobRun(job)
            done = run.on_end = env.event()
            scheduler.submit([run])
            log.job_session[job.id] = (uid, session)
            if not jobs:
                first = env.now
            jobs += 1
            yield done
            u = rng.random()
            if u < p_continue(env.now - job.submit):
                yield env.timeout(think[rng.integers(len(think))])
                continue
            reason = "response" if u < at_zero else "choice"
            break
        if jobs:
            log.sessions.append((uid, session, first, env.now, jobs, reason))
            session += 1
        if reason == "horizon":
            return
        wake = env.now + breaks[rng.integers(len(breaks))]
