"""The user/session model of seed 002 (Shmueli & Feitelson): its parameters and data.

Seed 002, sections 2-3: the workload is made by users. Within a *session*
a user submits a job, waits for it to complete, thinks, and then goes on
with the session with probability (Equation 1)

    p(continue) = 0.8 / (0.05 * response + 1),    response in **minutes**,

or ends it. A think time longer than 20 minutes separates sessions
(Zilber et al., as seed 002 section 3 quotes). The paper prints no unit for
Equation 1's response time; minutes is the reading used by default because
that is what makes the curve the paper describes: Figure 1's data are
plotted per minute of response, and with minutes the probability halves at
a 20-minute response, the same 20 minutes that separate sessions; in
seconds a one-minute job would already end 3 sessions in 4, in hours a
one-hour job would still go on 3 times in 4. `Continuation` holds the
equation with its constants and its unit (``"seconds"``, ``"minutes"``,
``"hours"``), each a parameter of `fit_users` (``response_unit``,
``continue_at_zero``, ``continue_slope``: ``user_params`` keys of a study), so
the other readings the text allows can be run; CREASY's priority takes the
same three as its own parameters (`schedsim.policies.creasy.policy`), set
separately.

What the paper leaves open, and is chosen here (every choice a parameter):

* **Jobs.** Each simulated user imitates one real user of a trace: it is
  assigned a trace user (uniformly among those with at least ``min_jobs``
  usable jobs) and draws every job it submits uniformly, with replacement,
  from that user's own jobs: size, run time and estimate together, so their
  correlations within a user are kept.
* **The one-hour limit** (``max_runtime``, 3600 s; ``max_runtime_as``).
  Section 4.1 says that in the runs it shows "job runtimes are limited to 1
  hour". Read as a *cap* (``"cap"``), a job that ran longer in the trace runs
  for the limit and no more, and every estimate is cut to it: the site kills
  jobs at the limit, and users ask for at most that much. Read as a *filter*
  (``"filter"``), only the jobs that ran at most the limit are kept (estimates
  still cut to it); on KTH that leaves out 37% of the jobs and 96% of their
  node-seconds. The text's own observations support the cap: with a 2-hour
  limit CREASY's queue "does not drain completely" by morning, with 4 hours
  the run looks like one without a daily cycle, and with 1 hour it drains
  around 7 AM; each says the limit changes how much work the users bring,
  which a cap does (long jobs stay, shortened) and a filter does only by
  dropping most of the work. ``"filter"`` is the default of `fit_users` (and
  of a run that does not say, so that earlier results keep their meaning);
  seed 002's study says ``"cap"``.
* **Think times and breaks.** Gaps between a user's jobs in the trace,
  from the end of one (submit + wait + run, SWF fields 2-4) to the submit of
  the next, pooled over all users: gaps of at most ``session_gap`` (20 min)
  are think times within a session; longer ones, up to ``max_break`` (8 h),
  are breaks between sessions. Longer gaps are absences (nights, holidays,
  the user leaving the site), which the daily cycle and the population
  model instead; negative gaps (the next job submitted before the previous
  one ended) are not closed-loop behaviour and are left out. Both are
  resampled from these empirical samples.
* **The continue draw.** One uniform u per completed job: u < p continues;
  p <= u < 0.8 ends the session *because of the response* (it would have
  continued had the response been instant, since p(0) = 0.8); u >= 0.8 ends
  it whatever the response. That splits session ends into aborts
  attributable to long responses and the others.

The daily cycle of section 3.2 is `DailyCycle`: users submit only between
8:00 and 18:00; a submission that would fall outside is delayed to the next
morning; each user starts each day at a uniformly random time between 8:00
and 10:00. The process that plays all this out is `schedsim.model.sources.population`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from schedsim.workloads.job import Job
from schedsim.workloads.workload import Workload

__all__ = [
    "PAPER_CONTINUATION",
    "P_CONTINUE_AT_ZERO",
    "RESPONSE_UNITS",
    "SLOPE_PER_MINUTE",
    "Continuation",
    "DailyCycle",
    "ResponseUnit",
    "UserModel",
    "continue_probability",
    "fit_users",
    "merge_models",
    "response_unit_seconds",
]

_DAY = 86400.0
_HOUR = 3600.0

#: Equation 1: the probability of going on with the session after an instant response.
P_CONTINUE_AT_ZERO = 0.8
#: Equation 1: the slope of its denominator, per minute of response time.
SLOPE_PER_MINUTE = 0.05


#: Equation 1's response time: the readings of its unit, in seconds per unit.
RESPONSE_UNITS: dict[str, float] = {"seconds": 1.0, "minutes": 60.0, "hours": 3600.0}
#: The name of a reading of Equation 1's unit (`RESPONSE_UNITS`).
ResponseUnit = Literal["seconds", "minutes", "hours"]


def response_unit_seconds(unit: str, where: str = "response_unit") -> float:
    """Seconds per ``unit`` of Equation 1's response time; ValueError naming ``where``
    (the parameter as the caller calls it) for a unit not in `RESPONSE_UNITS`."""
    try:
        return RESPONSE_UNITS[unit]
    except (KeyError, TypeError):
        raise ValueError(
            f"{where} must be one of {', '.join(map(repr, RESPONSE_UNITS))}, got {unit!r}"
        ) from None


@dataclass(frozen=True)
class Continuation:
    """Seed 002 Equation 1, ``p = at_zero / (slope x response + 1)``, with its reading.

    ``at_zero`` (0.8) is the probability of going on after an instant response,
    ``slope`` (0.05) the denominator's slope per ``unit`` of response time
    (``"minutes"``, the default reading; ``"seconds"`` and ``"hours"`` are the
    others the paper's unprinted unit allows: module docstring).
    """

    at_zero: float = P_CONTINUE_AT_ZERO
    slope: float = SLOPE_PER_MINUTE
    unit: ResponseUnit = "minutes"

    def __post_init__(self) -> None:
        if not (0.0 < self.at_zero <= 1.0):
            raise ValueError(f"continue_at_zero must be in (0, 1], got {self.at_zero!r}")
        if not (self.slope >= 0.0 and math.isfinite(self.slope)):
            raise ValueError(f"continue_slope must be a finite number >= 0, got {self.slope!r}")
        response_unit_seconds(self.unit)

    def probability(self, response: float | np.ndarray) -> float | np.ndarray:
        """Equation 1 at ``response`` **seconds** (converted to `unit` here, so callers stay
        in the simulator's seconds)."""
        return self.at_zero / (self.slope * (response / RESPONSE_UNITS[self.unit]) + 1.0)


#: Equation 1 as the paper's default reading (response in minutes).
PAPER_CONTINUATION = Continuation()


def continue_probability(response: float | np.ndarray) -> float | np.ndarray:
    """Seed 002 Equation 1: 0.8 / (0.05 x response + 1), ``response`` in **seconds**.

    The equation reads the response in minutes (the default reading: see the module
    docstring); this function converts, so callers stay in the simulator's seconds.
    `Continuation` is the same with other constants or another unit.
    """
    return PAPER_CONTINUATION.probability(response)


@dataclass(frozen=True)
class DailyCycle:
    """When users work (seed 002 section 3.2). Hours are local clock hours.

    ``day_start``-``day_end``: the working hours (8:00-18:00); users submit
    only then. ``arrive_until``: each user starts each working day at a time
    drawn uniformly from [day_start, arrive_until) (10:00), "to make the
    transition from night to day somewhat less abrupt". ``weekdays``: the
    days users work, 0 = Monday; all seven by default (no weekly cycle);
    ``(0, 1, 2, 3, 4)`` adds a weekly cycle. ``enabled=False`` keeps the same
    population with no cycle at all, for the paper's with/without comparison.
    """

    day_start: float = 8.0
    day_end: float = 18.0
    arrive_until: float = 10.0
    weekdays: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6)
    enabled: bool = True

    def __post_init__(self) -> None:
        if not (0.0 <= self.day_start <= self.arrive_until <= self.day_end <= 24.0):
            raise ValueError(
                "daily cycle needs 0 <= day_start <= arrive_until <= day_end <= 24 (hours), got "
                f"{self.day_start}, {self.arrive_until}, {self.day_end}"
            )
        if self.day_start == self.day_end:
            raise ValueError("daily cycle has no working hours (day_start == day_end)")
        days = tuple(sorted(set(self.weekdays)))
        if not days or any(d not in range(7) for d in days):
            raise ValueError(f"weekdays must be a non-empty subset of 0..6, got {self.weekdays}")
        object.__setattr__(self, "weekdays", days)

    def working(self, day: int, epoch_weekday: int) -> bool:
        """Whether day number ``day`` of the run (day 0 a ``epoch_weekday``) is a working day."""
        return (epoch_weekday + day) % 7 in self.weekdays


@dataclass(frozen=True)
class UserModel:
    """What a simulated user draws from: job pools, think times and breaks.

    ``pools[k]`` is an array of rows (size, run_time, estimate) of the jobs of
    the k-th eligible trace user (``trace_users[k]``); ``think`` and
    ``breaks`` are the pooled empirical gaps in seconds (see the module
    docstring). ``machine`` is the source trace's machine size, the default
    machine for a run. Build one with `fit_users`.
    """

    pools: tuple[np.ndarray, ...]
    trace_users: tuple[int, ...]
    think: np.ndarray
    breaks: np.ndarray
    machine: int
    source: str
    session_gap: float = 1200.0
    max_runtime: float | None = 3600.0
    notes: tuple[str, ...] = field(default=(), compare=False)
    max_runtime_as: Literal["cap", "filter"] = "filter"
    #: Equation 1 as the users read it: after each job they go on with the session
    #: with this probability of its response time.
    continuation: Continuation = PAPER_CONTINUATION

    def __post_init__(self) -> None:
        if not self.pools:
            raise ValueError(f"user model from {self.source!r} has no eligible users")
        if len(self.think) == 0 or len(self.breaks) == 0:
            raise ValueError(
                f"user model from {self.source!r} has no think times or no breaks "
                "(too few users with consecutive jobs)"
            )

    def describe(self) -> dict[str, object]:
        """The model's provenance and sizes, for a run's metadata."""
        sizes = np.concatenate([p[:, 0] for p in self.pools])
        runs = np.concatenate([p[:, 1] for p in self.pools])
        return {
            "source": self.source,
            "users": len(self.pools),
            "jobs": int(sizes.size),
            "max_runtime": self.max_runtime,
            "max_runtime_as": self.max_runtime_as,
            "session_gap": self.session_gap,
            "think_samples": int(self.think.size),
            "think_median": float(np.median(self.think)),
            "break_samples": int(self.breaks.size),
            "break_median": float(np.median(self.breaks)),
            "mean_size": float(sizes.mean()),
            "mean_run_time": float(runs.mean()),
            "notes": list(self.notes),
            "continue_at_zero": self.continuation.at_zero,
            "continue_slope": self.continuation.slope,
            "response_unit": self.continuation.unit,
        }

    def restrict(self, cores: int) -> UserModel:
        """The model on a machine of ``cores`` cores: jobs wider than it leave the pools."""
        pools, users, dropped = [], [], 0
        for pool, user in zip(self.pools, self.trace_users, strict=True):
            keep = pool[pool[:, 0] <= cores]
            dropped += len(pool) - len(keep)
            if len(keep):
                pools.append(keep)
                users.append(user)
        if not dropped:
            return self
        note = f"{dropped} trace jobs wider than {cores} cores left out of the user pools"
        return UserModel(
            tuple(pools),
            tuple(users),
            self.think,
            self.breaks,
            min(self.machine, cores),
            self.source,
            self.session_gap,
            self.max_runtime,
            (*self.notes, note),
            self.max_runtime_as,
            self.continuation,
        )


def _trace_end(job: Job) -> float:
    # SWF field 3 is the trace's own wait: the job ended at submit + wait + run.
    wait = job.swf[2] if job.swf is not None and job.swf[2] >= 0 else 0.0
    return job.submit + wait + job.run_time


def fit_users(
    workload: Workload,
    *,
    max_runtime: float | None = 3600.0,
    session_gap: float = 1200.0,
    max_break: float = 8 * _HOUR,
    min_jobs: int = 5,
    max_runtime_as: Literal["cap", "filter"] = "filter",
    response_unit: ResponseUnit = "minutes",
    continue_at_zero: float = P_CONTINUE_AT_ZERO,
    continue_slope: float = SLOPE_PER_MINUTE,
) -> UserModel:
    """A `UserModel` from a trace's users (seed 002 section 3; module docstring).

    ``max_runtime`` (None: no limit) limits run times and estimates: with
    ``max_runtime_as="filter"`` only the jobs that ran at most that long are
    kept, with ``"cap"`` longer ones run for the limit (module docstring);
    estimates are cut to it either way. ``session_gap`` splits think times from
    breaks; ``max_break`` is the longest gap still counted as a break;
    ``min_jobs`` is the fewest usable jobs a trace user needs to be imitated.
    ``response_unit``, ``continue_at_zero`` and ``continue_slope`` are Equation 1's
    reading (`Continuation`): the unit of its response time and its two constants.
    """
    continuation = Continuation(continue_at_zero, continue_slope, response_unit)
    if max_runtime is not None and not max_runtime > 0:
        raise ValueError(f"max_runtime must be positive or None, got {max_runtime}")
    if max_runtime_as not in ("cap", "filter"):
        raise ValueError(f"max_runtime_as must be 'cap' or 'filter', got {max_runtime_as!r}")
    if not (0 < session_gap < max_break):
        raise ValueError(f"need 0 < session_gap < max_break, got {session_gap}, {max_break}")
    if min_jobs < 1:
        raise ValueError(f"min_jobs must be at least 1, got {min_jobs}")
    by_user: dict[int, list] = {}
    for job in workload:
        if job.user >= 0:
            by_user.setdefault(job.user, []).append(job)
    no_user = len(workload) - sum(map(len, by_user.values()))
    pools: list[np.ndarray] = []
    users: list[int] = []
    think: list[float] = []
    breaks: list[float] = []
    limit = math.inf if max_runtime is None else float(max_runtime)
    for user in sorted(by_user):
        jobs = by_user[user]  # in submit order, as the workload is
        ends = [_trace_end(j) for j in jobs]
        for prev_end, nxt in zip(ends, jobs[1:], strict=False):
            gap = nxt.submit - prev_end
            if 0 < gap <= session_gap:
                think.append(gap)
            elif session_gap < gap <= max_break:
                breaks.append(gap)
        if max_runtime_as == "cap":
            rows = [(j.size, min(j.run_time, limit), min(j.estimate, limit)) for j in jobs]
        else:
            rows = [(j.size, j.run_time, min(j.estimate, limit)) for j in jobs
                    if j.run_time <= limit]  # fmt: skip
        if len(rows) >= min_jobs:
            pools.append(np.array(rows, dtype=float))
            users.append(user)
    notes = []
    if no_user:
        notes.append(f"{no_user} trace jobs without a user id left out")
    return UserModel(
        tuple(pools),
        tuple(users),
        np.array(think, dtype=float),
        np.array(breaks, dtype=float),
        int(workload.header.machine_size or max(j.size for j in workload)),
        workload.name,
        float(session_gap),
        None if max_runtime is None else float(max_runtime),
        tuple(notes),
        max_runtime_as,
        continuation,
    )


def merge_models(models: list[UserModel] | tuple[UserModel, ...]) -> UserModel:
    """One `UserModel` whose users are those of every model in ``models``: the paper drew
    its users from five logs (seed 002 section 3: "empirical data drawn from five
    different parallel system traces"). A simulated user is assigned uniformly among all
    their eligible users (so a log weighs by its count of users); think times and breaks
    are pooled over the logs. The machine is the first model's (its jobs' log is the
    run's ``workload``): the others' jobs wider than it leave their pools
    (`UserModel.restrict`, counted in the notes). The run-time limit, its reading and
    Equation 1's reading must be the same in every model (one study's settings)."""
    if not models:
        raise ValueError("merge_models needs at least one user model")
    first = models[0]
    for m in models[1:]:
        same = (m.max_runtime, m.max_runtime_as, m.session_gap, m.continuation)
        if same != (first.max_runtime, first.max_runtime_as, first.session_gap,
                    first.continuation):  # fmt: skip
            raise ValueError(
                f"user models from {first.source!r} and {m.source!r} differ in their "
                "run-time limit, session gap or Equation 1: they cannot be merged"
            )
    if len(models) == 1:
        return first
    fitted = [first, *(m.restrict(first.machine) for m in models[1:])]
    notes = [f"{m.source}: {n}" for m in fitted for n in m.notes]
    notes.append(", ".join(f"{m.source}: {len(m.pools)} users" for m in fitted))
    return UserModel(
        tuple(p for m in fitted for p in m.pools),
        tuple(u for m in fitted for u in m.trace_users),
        np.concatenate([m.think for m in fitted]),
        np.concatenate([m.breaks for m in fitted]),
        first.machine,
        "+".join(m.source for m in fitted),
        first.session_gap,
        first.max_runtime,
        tuple(notes),
        first.max_runtime_as,
        first.continuation,
    )
