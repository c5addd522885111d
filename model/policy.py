"""The policy boundary: the View a policy reads, the Decisions it returns, the registry.

A policy is plain Python: ``schedule(view) -> list[Decision]``. It never
touches SimPy and never changes the view or the job states it sees; it may
keep bookkeeping of its own (an availability profile, reservations). The
scheduler daemon (`schedsim.model.scheduler`) calls it once per scheduling pass and
applies the decisions in the order given, so a policy can suspend a job and
start another on the freed cores in one list.

Adding a policy is one module and one decorator::

    from schedsim.model.policy import Policy, Start, View, register

    @register("sjf")
    class ShortestJobFirst(Policy):
        '''Shortest estimate first, no backfilling.'''

        def schedule(self, view: View) -> list[Start]:
            free, out = view.free_cores, []
            for job in sorted(view.queue, key=lambda j: (j.estimate, j.submit, j.id)):
                if job.size > free:
                    break
                out.append(Start(job))
                free -= job.size
            return out

and the module's name in `schedsim.app.registry.MODULES`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

import numpy as np
from schedsim.model.cluster import Allocation
from schedsim.model.job import JobRun, OverheadModel


@dataclass(frozen=True, slots=True)
class View:
    """What a policy may read at one scheduling pass.

    ``queue`` holds waiting jobs in submit order (ties by job id);
    ``running`` and ``suspended`` hold the other live jobs; ``arrived`` and
    ``ended`` the jobs submitted and finished since the previous pass.
    ``free_per_node`` is a read-only array. Everything here is a snapshot or
    read-only; the `JobRun` objects must not be assigned to. ``overhead``
    is the run's suspension overhead model, if any: a preemptive policy
    needs it to know whether a job it suspends frees its cores at once
    (`suspend_cost`).
    """

    now: float
    queue: tuple[JobRun, ...]
    running: tuple[JobRun, ...]
    suspended: tuple[JobRun, ...]
    arrived: tuple[JobRun, ...]
    ended: tuple[JobRun, ...]
    free_cores: int
    free_per_node: np.ndarray
    nodes: int
    cores_per_node: int
    overhead: OverheadModel | None = None

    @property
    def total_cores(self) -> int:
        return self.nodes * self.cores_per_node

    def suspend_cost(self, job: JobRun, penalty: float = 0.0) -> float:
        """Seconds ``job`` would keep its cores, making no progress, if suspended now."""
        return (self.overhead(job)[0] if self.overhead is not None else 0.0) + penalty


# -- decisions ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Start:
    """Start a queued job; on ``allocation`` if given, else first fit."""

    job: JobRun
    allocation: Allocation | None = None


@dataclass(frozen=True, slots=True)
class Suspend:
    """Suspend a running job; it keeps its nodes as its home.

    The job frees its cores once its write-out is over: the overhead
    model's suspend cost plus ``penalty`` seconds (a context-switch delay,
    seed 004 section 2), during which the cores stay busy and the job makes
    no progress. With neither, the cores are free at once.
    """

    job: JobRun
    penalty: float = 0.0


@dataclass(frozen=True, slots=True)
class Resume:
    """Resume a suspended job on its home nodes (which must be free)."""

    job: JobRun


@dataclass(frozen=True, slots=True)
class Kill:
    """End a running or suspended job now; it leaves the system (outcome "killed")."""

    job: JobRun


@dataclass(frozen=True, slots=True)
class Requeue:
    """Stop a running or suspended job, discard its progress, put it back in the queue."""

    job: JobRun


@dataclass(frozen=True, slots=True)
class SetRate:
    """Change the rate at which a running job progresses (1.0 = alone)."""

    job: JobRun
    rate: float


@dataclass(frozen=True, slots=True)
class WakeAt:
    """Ask for a scheduling pass at clock time ``time`` (a policy timer)."""

    time: float


Decision = Start | Suspend | Resume | Kill | Requeue | SetRate | WakeAt


class PolicyError(RuntimeError):
    """A policy returned a decision that cannot be applied."""


# -- policies and their registry ----------------------------------------------


class Policy:
    """Base class of policies.

    Subclasses set a docstring (its first line is what ``schedsim policies``
    prints) and implement `schedule`. Constructor keyword arguments are the
    policy's parameters (``--param key=value`` on the command line); they
    must have defaults and type hints so the command line can convert values.
    """

    name: ClassVar[str] = "?"

    def schedule(self, view: View) -> Sequence[Decision]:  # pragma: no cover - interface
        raise NotImplementedError

    def params(self) -> dict[str, Any]:
        """The parameters this instance was built with (for result metadata)."""
        return {}

    def wants_pass(self, time: float) -> bool:
        """Whether a timer this policy asked for (`WakeAt`) still needs its pass.

        The scheduler asks when the timer fires, at clock ``time``. False
        skips that pass; events at the same instant (arrivals, ends) bring
        their own. For a policy whose plans move on, so that an earlier
        timer would find nothing to do. Default: always.
        """
        return True


REGISTRY: dict[str, type[Policy]] = {}

P = TypeVar("P", bound=type[Policy])


def register(name: str) -> Callable[[P], P]:
    """Class decorator: make a policy available under ``name``."""

    def deco(cls: P) -> P:
        if name in REGISTRY and REGISTRY[name] is not cls:
            raise ValueError(
                f"policy name {name!r} already registered by {REGISTRY[name].__name__}"
            )
        cls.name = name
        REGISTRY[name] = cls
        return cls

    return deco
