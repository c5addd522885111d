"""The policy boundary: the Decisions a policy returns, the Policy base class, the registry.

A policy is plain Python: ``schedule(view) -> list[Decision]``. It reads a
`schedsim.model.view.View` (immutable snapshots of the jobs), never touches
SimPy and never changes what it reads; it may keep bookkeeping of its own
(an availability profile, reservations), keyed by job id. The scheduler
daemon (`schedsim.model.scheduler`) calls it once per scheduling pass and
applies the decisions in the order given, so a policy can suspend a job and
start another on the freed cores in one list. A decision names a job by the
snapshot the policy read; the scheduler acts on the live job of that id.

Adding a policy is one module and one decorator::

    from schedsim.model.policy import Policy, Start, register
    from schedsim.model.view import View

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

Registered names are what ``schedsim run --policy NAME`` and studies use
(`schedsim.app.registry` resolves them; a module of one's own is given as
``--policy path/to/module.py:ClassName``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar

from schedsim.model.cluster import Allocation
from schedsim.model.machine import Machine
from schedsim.model.view import JobView, View

#: What happens to a job whose run reaches the limit of its start.
OnLimit = Literal["kill", "requeue"]

# -- decisions ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Start:
    """Start a queued job; on ``allocation`` if given, else first fit.

    ``limit`` bounds the run of this start (seconds of run time, or of work
    when the simulation counts limits in work: `Simulation`'s ``limit_in``);
    None is the run's default, the job's estimate when jobs are killed at
    their estimate, else no limit. When the run reaches it, ``on_limit``
    says what the scheduler does: ``"kill"`` ends the job (outcome
    ``killed_at_limit``), ``"requeue"`` puts it back in the queue, keeping
    the lost attempt's work, run time and pieces in the job's record (a
    speculative start: seed 001 section 2.1 runs long jobs for 180 s to
    flush out the ones that crash).
    """

    job: JobView
    allocation: Allocation | None = None
    limit: float | None = None
    on_limit: OnLimit = "kill"


@dataclass(frozen=True, slots=True)
class Suspend:
    """Suspend a running job; it keeps its nodes as its home.

    The job frees its cores once its write-out is over: the overhead
    model's suspend cost plus ``penalty`` seconds (a context-switch delay,
    seed 004 section 2), during which the cores stay busy and the job makes
    no progress. With neither, the cores are free at once.
    """

    job: JobView
    penalty: float = 0.0


@dataclass(frozen=True, slots=True)
class Resume:
    """Resume a suspended job on its home nodes (which must be free)."""

    job: JobView


@dataclass(frozen=True, slots=True)
class Kill:
    """End a running or suspended job now; it leaves the system (outcome "killed")."""

    job: JobView


@dataclass(frozen=True, slots=True)
class Requeue:
    """Stop a running or suspended job, discard its progress, put it back in the queue.

    The lost attempt stays in the job's record (``lost_work``, ``lost_run``,
    its pieces of kind ``lost``).
    """

    job: JobView


@dataclass(frozen=True, slots=True)
class SetRate:
    """Set the rate at which a running job progresses (1.0 = alone).

    The rate a contention model computes (`schedsim.model.contention`)
    multiplies this one.
    """

    job: JobView
    rate: float


@dataclass(frozen=True, slots=True)
class WakeAt:
    """Ask for a scheduling pass at clock time ``time`` (a policy timer)."""

    time: float


Decision = Start | Suspend | Resume | Kill | Requeue | SetRate | WakeAt


@dataclass(frozen=True, slots=True)
class Reservation:
    """A promise a policy holds after a pass: job ``job`` starts at ``start`` on ``size``
    cores, until ``end`` by its estimate.

    ``allocation`` names the cores when the policy has chosen them (most
    backfilling policies promise a number of cores, not which); ``kind`` says
    what the promise is (``"reservation"``: EASY's for its first waiting job,
    conservative backfilling's for every job; a policy may use others, such
    as a partition's pivot or a user's advance reservation). Policies return
    them from `Policy.promises`; they are what the schedule view draws as
    outlines and what a test checks the policy keeps.
    """

    job: int
    start: float
    end: float
    size: int
    allocation: Allocation | None = None
    kind: str = "reservation"


class PolicyError(RuntimeError):
    """A policy returned a decision that cannot be applied."""


# -- policies and their registry ----------------------------------------------


class Policy:
    """Base class of policies.

    Subclasses set a docstring (its first line is what ``schedsim policies``
    prints) and implement `schedule`. Constructor keyword arguments are the
    policy's parameters (``--param key=value`` on the command line); they
    must have defaults and type hints so the command line can convert values.

    ``name`` is the name the class was registered under (`register`), else
    the class's own name: what a run's results call the policy.
    """

    name: ClassVar[str] = "policy"
    #: Whether the policy may stop a running job to go on later or again (suspend,
    #: requeue, a penalty): then a job can hold its cores in several stretches, which
    #: the exports draw from the piece log (`schedsim.model.pieces.holding`). A policy
    #: that never does sets it False, and ``schedsim run --only schedule.swf`` keeps
    #: no piece log for it. True by default: a policy that does not say is assumed to.
    preempts: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.name = cls.__name__  # until (unless) `register` names it

    def schedule(self, view: View) -> Sequence[Decision]:  # pragma: no cover - interface
        raise NotImplementedError

    def params(self) -> dict[str, Any]:
        """The parameters this instance was built with (for result metadata)."""
        return {}

    def promises(self) -> Sequence[Reservation]:
        """The reservations this policy holds after its last pass (default: none).

        Asked only when someone looks (a run that logs them, an observer, a
        step): a policy that plans ahead says here what it has promised.
        """
        return ()

    def job_columns(self) -> Mapping[str, Mapping[int, Any]]:
        """Columns this policy adds to the job table: name -> {job id: value} (default none).

        Asked once, when the result is collected: what the policy decided about
        each job that the job table should show (the queue a job was put in,
        how it was started). A job without a value gets a missing one; a name
        may not be one of the table's own columns.
        """
        return {}

    def tables(self) -> Mapping[str, tuple[Sequence[str], Sequence[tuple]]]:
        """Tables this policy kept: name -> (columns, rows) (default none).

        For what the policy knows over time (how many processors each partition
        held, say); the result gets them as DataFrames in `Result.tables` and
        ``schedsim run --out`` writes them as ``policy-NAME.parquet``.
        """
        return {}

    def check_machine(self, machine: Machine) -> None:
        """Refuse, with a `PolicyError` of one line, a machine this policy cannot run on.

        Asked before a run on a machine of node groups, memory or partitions
        (`schedsim.model.machine.Machine`, not ``simple``). The default refuses it: a
        policy that places jobs by counting free cores, or on nodes all alike, would
        place them where they do not fit. A policy that handles such machines (FCFS,
        EASY, conservative, multiqueue) says what it handles by overriding this.
        """
        raise PolicyError(
            f"policy {self.name!r} runs on identical nodes without memory or partitions; "
            f"this machine has {_shape(machine)} (fcfs, easy, conservative, multiqueue and "
            "singlequeue run on it)"
        )

    def check_outages(self, windows: bool, machine: Machine | None) -> None:
        """Refuse, with a `PolicyError` of one line, a run with node outages
        (`schedsim.model.outages`) this policy cannot take; ``windows``: the run
        announces maintenance windows; ``machine``: its machine of node groups, memory
        or partitions (None: identical nodes).

        The default refuses: a policy that keeps its own account of the machine (a
        plan of the cores, suspended jobs to resume on their own nodes) would plan
        with nodes that are gone. A policy that reads the free cores afresh at every
        pass, and plans around the windows when it plans at all, says so by
        overriding this (FCFS, EASY, conservative, multiqueue).
        """
        raise PolicyError(
            f"policy {self.name!r} does not take node outages into account: run it without "
            "failures and maintenance windows (fcfs, easy, conservative, multiqueue and "
            "singlequeue take them)"
        )

    def wants_pass(self, time: float) -> bool:
        """Whether a timer this policy asked for (`WakeAt`) still needs its pass.

        The scheduler asks when the timer fires, at clock ``time``. False
        skips that pass; events at the same instant (arrivals, ends) bring
        their own. For a policy whose plans move on, so that an earlier
        timer would find nothing to do. Default: always.
        """
        return True


def _shape(machine: Machine) -> str:
    """What makes a machine more than identical nodes, for `Policy.check_machine`'s refusal."""
    parts = []
    if len(machine.groups) > 1:
        parts.append(f"{len(machine.groups)} node groups")
    if machine.memory is not None:
        parts.append("memory")
    if machine.partitions:
        parts.append(f"{len(machine.partitions)} partitions")
    return ", ".join(parts) or "node groups"


REGISTRY: dict[str, type[Policy]] = {}

P = TypeVar("P", bound=type[Policy])


def _where(cls: type) -> str:
    """A class as ``module.QualifiedName``, what tells two definitions apart."""
    return f"{cls.__module__}.{cls.__qualname__}"


def register(name: str) -> Callable[[P], P]:
    """Class decorator: make a policy available under ``name``.

    A class defined again where the registered one was (the same module and
    qualified name: a notebook cell run again, a module reloaded) replaces it, so
    the name runs the new definition. Any other class under a taken name is a
    ValueError naming both: two policies may not share a name.
    """

    def deco(cls: P) -> P:
        taken = REGISTRY.get(name)
        if taken is not None and taken is not cls and _where(taken) != _where(cls):
            raise ValueError(
                f"policy name {name!r} is taken by {_where(taken)}; register "
                f"{_where(cls)} under another name"
            )
        cls.name = name
        REGISTRY[name] = cls
        return cls

    return deco
