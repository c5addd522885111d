"""What a policy reads: snapshots of the jobs, and the View of one scheduling pass.

A policy never sees the simulation's live objects. Each live job is shown as
a `JobView`, an immutable snapshot (a named tuple) of the job's state taken
by the scheduler whenever that state changes; a `View` holds the snapshots
of one pass and is itself frozen, and the free-cores array it carries is
read-only. So what a policy reads cannot change the simulation, assigning to
any of it raises, and a view kept after its pass
(`schedsim.model.simulation.ModelSimulation.step` returns the one the policy saw)
still shows that pass.

A snapshot taken at time ``since`` stays right afterwards: a running job's
run time and work grow linearly from there at its ``rate``, which the
methods below (`JobView.accumulated_run`, `JobView.xfactor`, ...) account
for. A snapshot a policy keeps from an earlier pass is stale: the current
state of a job is in the current view (`View.get`), and what happened since
the previous pass is in ``arrived``, ``ended``, ``killed``, ``released`` and
``requeued``.

Nothing here imports SimPy: policies import this module and
`schedsim.model.policy`, never the event loop.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any, NamedTuple

import numpy as np

from schedsim.model.cluster import Allocation
from schedsim.model.machine import Machine, job_memory
from schedsim.model.outages import Outage
from schedsim.workloads.job import Job

__all__ = [
    "INF", "JobView", "Outcome", "OverheadModel", "State", "View", "job_replacer", "job_view_of",
    "on_machine", "on_outages",
]  # fmt: skip

INF = float("inf")


class State(Enum):
    """Where a job is in its life."""

    QUEUED = "queued"
    RUNNING = "running"
    SUSPENDED = "suspended"
    DONE = "done"


class Outcome(Enum):
    """How a job left the system."""

    COMPLETED = "completed"
    #: Its run time (or work) reached the limit of its start, which said "kill".
    KILLED_AT_LIMIT = "killed_at_limit"
    #: A policy's `Kill`.
    KILLED = "killed"
    #: Killed by a node outage, in a run whose ``on_failure`` is ``lose``
    #: (`schedsim.model.outages`).
    FAILED = "failed"


#: ``job -> (suspend_cost, resume_cost)`` in seconds: the suspension-overhead
#: model of a run (`schedsim.model.overhead.MemoryOverhead` builds seed 000's).
OverheadModel = Callable[[Job], tuple[float, float]]


class _ByIdentity:
    """Equal and hashed by identity: a snapshot is a record of one moment, not a value."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    def __hash__(self) -> int:
        return id(self)


def _compiled(
    cls: type,
    name: str,
    params: str,
    values: str,
    doc: str,
    constants: dict[str, Any] | None = None,
) -> Callable[..., Any]:
    """``def name(params): return tuple.__new__(cls, (values,))``, compiled once
    (``values`` may name the ``constants``).

    A snapshot is made at every change of every job and a `View` at every pass, so
    these skip the named tuple's own constructor (a Python-level ``__new__``); the
    source is written from the class's ``_fields``, so that the field order lives in
    one place, the NamedTuple, and the bytecode is what a hand-written tuple would
    be (`collections.namedtuple` makes its constructor the same way).
    """
    namespace: dict[str, Any] = {"_new": tuple.__new__, "_cls": cls, **(constants or {})}
    exec(f"def {name}({params}):\n    return _new(_cls, ({values},))", namespace)
    function = namespace[name]
    function.__qualname__ = name
    function.__module__ = __name__
    function.__doc__ = doc
    return function


class _JobFields(NamedTuple):
    id: int
    size: int
    submit: float
    estimate: float
    job: Job
    state: State
    allocation: Allocation | None
    home: Allocation | None
    since: float
    progressing: bool
    rate: float
    work_done: float
    run_time_done: float
    expected_end: float
    limit: float | None
    first_start: float | None
    end: float | None
    outcome: Outcome | None
    suspensions: int
    attempts: int


class JobView(_ByIdentity, _JobFields):
    """One job as a policy sees it: an immutable snapshot taken at clock time ``since``.

    ``id``, ``size``, ``submit`` and ``estimate`` repeat the job's record
    (``job``) for the inner loops of policies. ``allocation`` is what the
    job holds now (running, or suspended while its memory is written out);
    ``home`` the cores it ran on last, where a suspended job must resume.
    ``work_done`` and ``run_time_done`` are the totals at ``since``, in the
    current attempt (a requeue starts a new one: ``attempts`` counts the
    starts); ``progressing`` is False while the job holds its cores without
    progressing (overhead); ``limit`` is the limit of the current start (run
    time, or work: `Simulation`'s ``limit_in``). ``expected_end`` is when the
    job is planned to end by its estimate: now + remaining estimated work /
    rate, or the end its limit sets if that is sooner (infinite unless
    running).

    A named tuple (fields read as fast as slots, assignment raises), but
    compared and hashed by identity, as a record of a live job is: two
    snapshots are one only if they are the same object.
    """

    __slots__ = ()

    @classmethod
    def of(
        cls,
        job: Job,
        state: State = State.QUEUED,
        *,
        allocation: Allocation | None = None,
        home: Allocation | None = None,
        since: float | None = None,
        progressing: bool = True,
        rate: float = 1.0,
        work_done: float = 0.0,
        run_time_done: float = 0.0,
        expected_end: float | None = None,
        limit: float | None = None,
        first_start: float | None = None,
        end: float | None = None,
        outcome: Outcome | None = None,
        suspensions: int = 0,
        attempts: int | None = None,
    ) -> JobView:
        """A snapshot built by hand, for testing a policy without a simulation.

        Defaults: ``since`` is the submit time (the start, for a running job
        with ``first_start``); a running job's ``home`` is its allocation and
        its ``expected_end`` ``since`` + the estimate less its run time (else
        infinite); ``attempts`` is 1 once the job has started.
        """
        if since is None:
            since = first_start if first_start is not None else job.submit
        if home is None and allocation is not None:
            home = allocation
        if expected_end is None:
            running = state is State.RUNNING
            expected_end = since + max(job.estimate - run_time_done, 0.0) if running else INF
        if attempts is None:
            attempts = 0 if state is State.QUEUED and first_start is None else 1
        return cls(
            id=job.id, size=job.size, submit=job.submit, estimate=job.estimate, job=job,
            state=state, allocation=allocation, home=home, since=since, progressing=progressing,
            rate=rate, work_done=work_done, run_time_done=run_time_done,
            expected_end=expected_end, limit=limit, first_start=first_start, end=end,
            outcome=outcome, suspensions=suspensions, attempts=attempts,
        )  # fmt: skip

    @property
    def work(self) -> float:
        """The job's work: seconds of run time at rate 1."""
        return self.job.run_time

    def accumulated_run(self, now: float) -> float:
        """Run time of the current attempt up to ``now``, including the current interval.

        A running job's restart overhead counts as running here (as the
        policies built on it have always read it); the job's record
        (`schedsim.model.job.JobRun`) counts it as overhead.
        """
        if self.state is State.RUNNING:
            return self.run_time_done + (now - self.since)
        return self.run_time_done

    def remaining_estimate(self) -> float:
        """Run time the estimate still allows at ``since`` (never negative)."""
        return max(self.estimate - self.run_time_done, 0.0)

    def wait(self, now: float) -> float:
        """Time in the system not running: queued, suspended, overhead, lost attempts."""
        end = self.end if self.end is not None else now
        return end - self.submit - self.accumulated_run(end)

    def xfactor(self, now: float) -> float:
        """(wait + estimate) / estimate, seed 000 section 2.2."""
        est = max(self.estimate, 1e-9)
        return (self.wait(now) + est) / est

    def instantaneous_xfactor(self, now: float) -> float:
        """(wait + accumulated run) / accumulated run, seed 000 section 2.3.

        Infinite for a job that has not run yet.
        """
        run = self.accumulated_run(now)
        if run <= 0:
            return INF
        return (self.wait(now) + run) / run


job_view_of: Callable[[Any], JobView] = _compiled(
    JobView,
    "job_view_of",
    "record",
    ", ".join(f"record.{f}" for f in _JobFields._fields),
    """The `JobView` of a job's live record: its fields read off ``record``'s attributes
    of the same names (`schedsim.model.job.JobRun.snapshot` is this function).""",
)


class _ViewFields(NamedTuple):
    now: float
    queue: tuple[JobView, ...]
    running: tuple[JobView, ...]
    suspended: tuple[JobView, ...]
    arrived: tuple[JobView, ...]
    ended: tuple[JobView, ...]
    free_cores: int
    free_per_node: np.ndarray
    nodes: int
    cores_per_node: int
    overhead: OverheadModel | None
    killed: tuple[JobView, ...]
    released: tuple[JobView, ...]
    requeued: tuple[JobView, ...]
    timers: frozenset[float]


class View(_ByIdentity, _ViewFields):
    """What a policy may read at one scheduling pass.

    ``queue`` holds the waiting jobs in submit order (ties by job id);
    ``running`` the running jobs in the order they (re)started; ``suspended``
    the suspended ones in the order they were suspended (those still
    writing out their memory hold cores: their ``allocation`` is set).
    What happened since the previous pass: ``arrived`` (submitted),
    ``ended`` (left the system, any outcome), ``killed`` (those of ``ended``
    killed at their limit or by a `Kill`), ``released`` (suspended jobs
    whose write-out ended, freeing their cores) and ``requeued`` (put back
    in the queue by a `Requeue` or by a limit that said so).
    ``free_per_node`` is a read-only array of free cores per node;
    ``timers`` the clock times of this policy's pending `WakeAt` timers.
    ``machine`` is the run's `schedsim.model.machine.Machine` when it is more than
    ``nodes x cores_per_node`` identical nodes (node groups, memory, partitions), None
    otherwise; then ``cores_per_node`` is the widest node's, and ``free_memory`` (a
    read-only array, KB per node, or None) what memory the nodes have free. These two
    are not fields: they are None on the class and set on a view of such a machine
    (`on_machine`), so that the views of the common machine, made at every pass, stay
    the tuple they were (two more fields made whole runs 4% slower).
    ``overhead`` is the run's suspension-overhead model, if any: a
    preemptive policy needs it to know whether a job it suspends frees its
    cores at once (`suspend_cost`).

    A named tuple (built cheaply at every pass, assignment raises), compared
    by identity. Its state beyond the fields is kept in the instance's
    ``__dict__``: ``machine`` and ``free_memory`` on a machine of node groups
    (above), and, private, `get`'s index of the jobs by id, made on its first
    call (most passes never ask) from the view's own jobs, which can only ever
    say what the fields say. A view made from another (``_replace``) starts
    without them.
    """

    #: The machine of node groups, memory or partitions; None for identical nodes.
    machine: Machine | None = None
    #: The memory free on each node, KB (read-only), on a machine with memory.
    free_memory: np.ndarray | None = None
    #: In a run with outages (`schedsim.model.outages`): those under way (a failure's
    #: end unknown, inf) and the maintenance windows announced, in order of start;
    #: and the outages that began (``went_down``) and ended (``came_up``) since the
    #: last pass. Empty in a run without outages.
    outages: tuple[Outage, ...] = ()
    went_down: tuple[Outage, ...] = ()
    came_up: tuple[Outage, ...] = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a View is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a View is immutable: cannot delete {name!r}")

    @classmethod
    def of(
        cls,
        now: float,
        nodes: int,
        cores_per_node: int = 1,
        *,
        queue: tuple[JobView, ...] | list[JobView] = (),
        running: tuple[JobView, ...] | list[JobView] = (),
        suspended: tuple[JobView, ...] | list[JobView] = (),
        arrived: tuple[JobView, ...] | list[JobView] | None = None,
        ended: tuple[JobView, ...] | list[JobView] = (),
        overhead: OverheadModel | None = None,
        killed: tuple[JobView, ...] | list[JobView] = (),
        released: tuple[JobView, ...] | list[JobView] = (),
        requeued: tuple[JobView, ...] | list[JobView] = (),
        timers: frozenset[float] = frozenset(),
        machine: Machine | None = None,
    ) -> View:
        """A view built by hand, for testing a policy without a simulation.

        The free cores are what the running jobs' allocations (and those of
        suspended jobs still writing out) leave; ``arrived`` defaults to the
        queued jobs submitted at ``now``.
        """
        if machine is not None:
            nodes, cores_per_node = machine.nodes, machine.max_cores_per_node
            free = machine.capacity.copy()
        else:
            free = np.full(nodes, cores_per_node, dtype=np.int64)
        free_memory = None
        if machine is not None and machine.memory is not None:
            free_memory = machine.memory.copy()
        for job in (*running, *suspended):
            if job.allocation is not None:
                free[job.allocation.nodes] -= job.allocation.cores
                if free_memory is not None:
                    free_memory[job.allocation.nodes] -= job.allocation.cores * job_memory(job.job)
        if (free < 0).any():
            raise ValueError("the jobs' allocations overlap beyond the nodes' cores")
        free.flags.writeable = False
        if free_memory is not None:
            free_memory.flags.writeable = False
        queue = tuple(sorted(queue, key=lambda j: (j.submit, j.id)))
        if arrived is None:
            arrived = tuple(j for j in queue if j.submit == now)
        view = cls(
            now=now, queue=queue, running=tuple(running), suspended=tuple(suspended),
            arrived=tuple(arrived), ended=tuple(ended), free_cores=int(free.sum()),
            free_per_node=free, nodes=nodes, cores_per_node=cores_per_node, overhead=overhead,
            killed=tuple(killed), released=tuple(released), requeued=tuple(requeued),
            timers=timers,
        )  # fmt: skip
        if machine is not None and not machine.simple:
            on_machine(view, machine, free_memory)
        return view

    @property
    def total_cores(self) -> int:
        machine = self.machine
        if machine is not None:
            return machine.total_cores
        return self.nodes * self.cores_per_node

    def get(self, job_id: int) -> JobView | None:
        """The job ``job_id`` as it is at this pass (queued, running or suspended), or None.

        A job that left the system is found in ``ended`` when it left since the
        previous pass, and not at all afterwards.
        """
        index: dict[int, JobView] | None = self.__dict__.get("_by_id")
        if index is None:  # the first call: the private index (class docstring)
            index = {}
            for group in (self.queue, self.running, self.suspended, self.ended):
                for job in group:
                    index[job.id] = job
            self.__dict__["_by_id"] = index
        return index.get(job_id)

    def suspend_cost(self, job: JobView, penalty: float = 0.0) -> float:
        """Seconds ``job`` would keep its cores, making no progress, if suspended now."""
        return (self.overhead(job.job)[0] if self.overhead is not None else 0.0) + penalty


def job_replacer(*names: str, **fixed: Any) -> Callable[..., JobView]:
    """A function ``(job, *values)``: a copy of `JobView` ``job`` with the fields ``names``
    set to ``values`` (in that order) and the fields ``fixed`` to the values given here.

    What ``job._replace(...)`` gives, without its dictionary of keywords, for a policy
    that copies many jobs at every pass (Scojo-PECT's virtual machines' views).
    """
    unknown = sorted(set(names).union(fixed) - set(JobView._fields))
    if unknown:
        raise ValueError(f"JobView has no field {', '.join(unknown)}")
    values = ", ".join(
        name if name in names else f"_fixed_{name}" if name in fixed else f"job[{i}]"
        for i, name in enumerate(JobView._fields)
    )
    return _compiled(
        JobView,
        "replace",
        ", ".join(("job", *names)),
        values,
        f"A copy of ``job`` with {', '.join((*names, *fixed))} replaced (`job_replacer`).",
        {f"_fixed_{name}": value for name, value in fixed.items()},
    )


new_view: Callable[..., View] = _compiled(
    View,
    "new_view",
    "*, " + ", ".join(_ViewFields._fields),
    ", ".join(_ViewFields._fields),
    """A `View` from its fields, by keyword only (so that no caller writes their order),
    without the named tuple's Python-level constructor: the scheduler makes one at
    every pass. `View.of` builds one by hand, for tests.""",
)


def on_outages(
    view: View,
    outages: tuple[Outage, ...],
    went_down: tuple[Outage, ...],
    came_up: tuple[Outage, ...],
) -> View:
    """``view``, saying which outages are known, began and ended (`View.outages`): set
    by the scheduler of a run with outages, before a policy sees the view."""
    view.__dict__["outages"] = outages
    view.__dict__["went_down"] = went_down
    view.__dict__["came_up"] = came_up
    return view


def on_machine(view: View, machine: Machine, free_memory: np.ndarray | None) -> View:
    """``view``, saying it is of ``machine`` (node groups, memory, partitions) with
    ``free_memory`` free on each node: set once, by whoever made the view, before a
    policy sees it (the scheduler; `View.of`)."""
    view.__dict__["machine"] = machine
    view.__dict__["free_memory"] = free_memory
    return view
