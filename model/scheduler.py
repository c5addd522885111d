"""The scheduler daemon: wake-ups, the view a policy reads, applying decisions, timers.

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

What the scheduler owns, beside the queue and the live jobs:

* the **limits** of starts (`Start.limit`, by default the estimate): the
  job's clock (`schedsim.model.job.JobClock`) ends it at the limit, and the
  scheduler kills the job there or puts it back in the queue, keeping the lost
  attempt in its record;
* the **piece log** (`schedsim.model.pieces`): every piece of every job,
  opened and closed here at each change;
* the **contention** physics (`schedsim.model.contention`): after every
  change of who holds which cores, the rate of each running job on the
  nodes concerned is computed again and applied with exact accounting;
* the **outages** (`schedsim.model.outages`): nodes out of the machine, the jobs
  they kill (requeued or lost, ``on_failure``), and the placement that keeps a job off
  the nodes of a maintenance window its limit would carry it into;
* the **snapshots** policies read: each live job's `JobView` is taken again
  whenever the job changes, kept per state in submit (queue), start
  (running) or suspension (suspended) order, and a pass's `View` is built
  from them without touching the unchanged ones;
* each pass's record (`Pass`: the view and the decisions), for stepping
  (`Simulation.step`), observers and the decision log.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Generator, Iterable, Iterator
from operator import attrgetter
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
import simpy
from simpy.events import NORMAL, EventPriority

from schedsim.model.cluster import Allocation, AllocationError, Cluster, first_fit
from schedsim.model.contention import ContentionModel, Sharing
from schedsim.model.job import JobClock, JobRun
from schedsim.model.machine import Machine, job_memory
from schedsim.model.outages import Outage, overlapping
from schedsim.model.pieces import OVERHEAD, RUN, SUSPENDED, PieceLog
from schedsim.model.policy import (
    Decision,
    Kill,
    Policy,
    PolicyError,
    Requeue,
    Reservation,
    Resume,
    SetRate,
    Start,
    Suspend,
    WakeAt,
)
from schedsim.model.view import (
    INF,
    JobView,
    Outcome,
    OverheadModel,
    State,
    View,
    new_view,
    on_machine,
    on_outages,
)

#: Priority of the daemon's wake-up: after every NORMAL event at the same time.
LATE = EventPriority(NORMAL + 1)

__all__ = ["LATE", "Pass", "Scheduler", "delay_until"]


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


class Pass(NamedTuple):
    """One scheduling pass: its number (from 1), the clock, the view, the decisions,
    and the reservations the policy held after it (`Policy.promises`; asked only when
    someone looks: a run that logs them, an observer, a step; else empty)."""

    number: int
    now: float
    view: View
    decisions: tuple[Decision, ...]
    promises: tuple[Reservation, ...] = ()


class _Wake(simpy.Event):
    """The daemon's wake-up event, triggered with the LATE priority."""

    def fire(self) -> None:
        # Same as Event.succeed(), but scheduled after NORMAL events at now.
        self._ok = True
        self._value = None
        self.env.schedule(self, LATE)


#: A queue's order: submit time, ties by id (a key made in C: a requeue is put in place).
_submit_order = attrgetter("submit", "id")


class _Pool:
    """The live jobs of one state, in the order they entered it, with their snapshots.

    The tuple of snapshots a view shows is made again only after the pool
    changed: under SS hundreds of jobs stay suspended through most passes.
    """

    __slots__ = ("_tuple", "runs", "views")

    def __init__(self) -> None:
        self.runs: dict[int, JobRun] = {}
        self.views: dict[int, JobView] = {}
        self._tuple: tuple[JobView, ...] | None = ()

    def __len__(self) -> int:
        return len(self.runs)

    def __contains__(self, job_id: int) -> bool:
        return job_id in self.runs

    def add(self, run: JobRun) -> None:
        self.runs[run.id] = run
        self.views[run.id] = run.view = run.snapshot()
        self._tuple = None

    def refresh(self, run: JobRun) -> None:
        """Take ``run``'s snapshot again (its place in the order stays)."""
        self.views[run.id] = run.view = run.snapshot()
        self._tuple = None

    def remove(self, run: JobRun) -> None:
        del self.runs[run.id]
        del self.views[run.id]
        self._tuple = None

    def insert(self, run: JobRun) -> None:
        """Add ``run`` at its place in submit order, ties by id (a requeue: the pool
        is in that order). Found by bisection; only the jobs after it move (to the
        end, in order), and their order is kept."""
        runs, views = self.runs, self.views
        order = list(runs.values())
        at = bisect_right(order, _submit_order(run), key=_submit_order)
        self.add(run)
        for later in order[at:]:
            del runs[later.id]
            runs[later.id] = later
            views[later.id] = views.pop(later.id)

    def snapshot(self) -> tuple[JobView, ...]:
        if self._tuple is None:
            self._tuple = tuple(self.views.values())
        return self._tuple


class Scheduler:
    """Owns the queue and the live jobs; runs the policy; applies decisions.

    ``kill_at_estimate`` makes the estimate the default limit of every start;
    ``limit_in_work`` counts limits in work rather than run time;
    ``overhead`` is the suspension-overhead model, ``contention`` the
    contention model (None: every job at the rate its policy set, 1 by
    default); ``pieces`` keeps the piece log; ``on_pass`` and ``on_piece``
    are an observer's hooks; ``log_decisions`` keeps every decision and
    ``log_reservations`` every reservation held after each pass.
    """

    def __init__(
        self,
        env: simpy.Environment,
        cluster: Cluster,
        policy: Policy,
        *,
        kill_at_estimate: bool = True,
        limit_in_work: bool = False,
        overhead: OverheadModel | None = None,
        contention: ContentionModel | None = None,
        pieces: bool = True,
        on_pass: Callable[[Pass], None] | None = None,
        on_piece: Callable[..., None] | None = None,
        log_decisions: bool = False,
        log_reservations: bool = False,
        machine: Machine | None = None,
        windows: tuple[Outage, ...] | None = None,
        on_failure: str = "requeue",
    ) -> None:
        self.env = env
        self.cluster = cluster
        self.policy = policy
        #: The machine of node groups, memory or partitions (`schedsim.model.machine`),
        #: None for identical nodes: jobs are then placed on their partition's nodes
        #: with their memory.
        self.machine = machine if machine is not None and not machine.simple else None
        self._speed = self.machine.speed if self.machine is not None else None
        #: The machine when jobs are placed node by node (memory, partitions), else None.
        placed = self.machine is not None and self.machine.constrained
        self._placed = self.machine if placed else None
        self.kill_at_estimate = kill_at_estimate
        self.limit_in_work = limit_in_work
        self.overhead = overhead
        self.contention = contention
        self.pieces = PieceLog(keep=pieces, observer=on_piece)
        self.on_pass = on_pass
        self.queue = _Pool()
        self.running = _Pool()
        self.suspended = _Pool()
        # Core ids are kept only on nodes of several cores (a core is its node otherwise).
        self._multicore = cluster.cores_per_node > 1
        #: Every job submitted, by id (live or finished).
        self.jobs: dict[int, JobRun] = {}
        self.finished: list[JobRun] = []
        # What happened since the last pass.
        self._arrived: list[JobRun] = []
        self._ended: list[JobView] = []  # final snapshots: a finished job never changes
        self._killed: list[JobView] = []
        self._released: list[JobRun] = []
        self._requeued: list[JobRun] = []
        self._timers: set[float] = set()
        self._wake_pending = False
        #: Set by the workload source once it will submit nothing more.
        self.source_done = False
        self.passes = 0
        #: The last pass (`Simulation.step` returns it).
        self.last: Pass | None = None
        self.series: list[tuple[float, int, int, int, int, int]] = []
        #: (pass, time, decision, job, allocation, limit, on_limit, penalty, rate, wake)
        #: per decision, when ``log_decisions``.
        self.decisions: list[tuple] | None = [] if log_decisions else None
        #: (pass, time, reservation) per reservation held after each pass, when
        #: ``log_reservations``.
        self.promises: list[tuple[int, float, Reservation]] | None = (
            [] if log_reservations else None
        )
        #: Whether each pass asks the policy for its reservations (`Pass.promises`):
        #: when they are logged or an observer watches; `Simulation.step` sets it.
        self.want_promises = log_reservations or on_pass is not None
        #: Outages: None in a run without them; else the maintenance windows not yet
        #: over (in order of start), the outages under way (as policies see them), what
        #: each node is out for (count of outages), every outage begun, and what began
        #: and ended since the last pass.
        self.outages: list[Outage] | None = None if windows is None else []
        self._windows: list[Outage] = sorted(windows or (), key=lambda o: (o.start, o.nodes))
        self._out: dict[int, Outage] = {}  # by id(): a file may list one outage twice
        self._down: dict[int, int] = {}
        self._went_down: list[Outage] = []
        self._came_up: list[Outage] = []
        #: What becomes of a job an outage kills: "requeue" or "lose" (`Outages`).
        self.on_failure = on_failure
        #: When each running job's interval ends (one timeout per interval, no process).
        self.clock = JobClock(env, self._on_end, self._on_progress)
        # The daemon: a pass is the callback of a wake-up event (no process).
        self._wake_event = self._next_wake()

    # -- inputs ---------------------------------------------------------------
    def submit(self, runs: Iterable[JobRun]) -> None:
        """Arrivals: jobs join the queue now (the source calls this)."""
        now = self.env.now
        for run in runs:
            run.since = now
            self.jobs[run.id] = run
            self.queue.add(run)
            self._arrived.append(run)
        self.wake()

    def wake(self) -> None:
        """Ask for one scheduling pass at the current instant."""
        if not self._wake_pending:
            self._wake_pending = True
            self._wake_event.fire()

    @property
    def idle(self) -> bool:
        """Nothing queued, running or suspended."""
        return not (self.queue or self.running or self.suspended)

    def live(self) -> list[JobRun]:
        """The jobs in the system now: queued, running, suspended."""
        return [
            *self.queue.runs.values(),
            *self.running.runs.values(),
            *self.suspended.runs.values(),
        ]

    # -- the daemon -------------------------------------------------------------
    def _next_wake(self) -> _Wake:
        event = _Wake(self.env)
        event.callbacks.append(self._awake)
        return event

    def _awake(self, _event: simpy.Event) -> None:
        """The daemon's wake-up: one pass, then the next wake-up ready for the next
        `wake` (a `wake` during the pass asks for nothing more: this pass is the one)."""
        self._pass()
        self._wake_event = self._next_wake()
        self._wake_pending = False

    def current_view(self) -> View:
        """The state now, as a policy would see it, without the events since the last pass.

        For looking at a run between passes (a notebook, the schedule view
        placing reservations on nodes): the jobs started by the last pass are
        running here, which its own view (`Pass.view`, taken before) does not show.
        """
        cluster = self.cluster
        view = new_view(
            now=self.env.now, queue=self.queue.snapshot(), running=self.running.snapshot(),
            suspended=self.suspended.snapshot(), arrived=(), ended=(),
            free_cores=cluster.free_cores, free_per_node=cluster.free_snapshot(),
            nodes=cluster.nodes, cores_per_node=cluster.cores_per_node, overhead=self.overhead,
            killed=(), released=(), requeued=(), timers=frozenset(self._timers),
        )  # fmt: skip
        if self.machine is not None:
            on_machine(view, self.machine, self._memory_snapshot())
        if self.outages is not None:
            on_outages(view, self._known(), (), ())
        return view

    def _memory_snapshot(self) -> np.ndarray | None:
        """A read-only copy of the nodes' free memory, on a machine with memory."""
        return self.cluster.free_memory_snapshot()

    def _pass(self) -> None:
        now = self.env.now
        cluster = self.cluster
        queue, running, suspended = self.queue, self.running, self.suspended
        # Most passes bring arrivals or ends only: the event lists are looked at
        # before anything is made of them.
        arrived, ended, killed, released, requeued = (
            self._arrived, self._ended, self._killed, self._released, self._requeued
        )  # fmt: skip
        view = new_view(
            now=now,
            queue=queue.snapshot(),
            running=running.snapshot(),
            suspended=suspended.snapshot(),
            arrived=_take(arrived) if arrived else (),
            ended=_final(ended) if ended else (),
            free_cores=cluster.free_cores,
            free_per_node=cluster.free_snapshot(),
            nodes=cluster.nodes,
            cores_per_node=cluster.cores_per_node,
            overhead=self.overhead,
            killed=_final(killed) if killed else (),
            released=_take(released) if released else (),
            requeued=_take(requeued) if requeued else (),
            timers=frozenset(self._timers) if self._timers else _NO_TIMERS,
        )
        if self.machine is not None:
            on_machine(view, self.machine, self._memory_snapshot())
        if self.outages is not None:
            went, came = self._went_down, self._came_up
            on_outages(view, self._known(), _final(went), _final(came))
        self.passes += 1
        decisions = tuple(self.policy.schedule(view))
        log = self.decisions
        apply = self.apply
        for decision in decisions:
            apply(decision)
            if log is not None:
                log.append(self._log_row(decision))
        self.series.append(
            (
                now,
                cluster.total_cores - cluster.free_cores - cluster.down_cores,
                cluster.busy_nodes,
                len(queue.runs),
                len(running.runs),
                len(suspended.runs),
            )
        )
        promises: tuple[Reservation, ...] = ()
        if self.want_promises:
            promises = tuple(self.policy.promises())
            if self.promises is not None:
                self.promises.extend((self.passes, now, p) for p in promises)
        self.last = last = _new(Pass, (self.passes, now, view, decisions, promises))
        if self.on_pass is not None:
            self.on_pass(last)

    def _log_row(self, d: Decision) -> tuple:
        alloc = limit = on_limit = penalty = rate = wake = None
        if isinstance(d, WakeAt):
            return (self.passes, self.env.now, "wake_at", -1, None, None, None, None, None, d.time)
        run = self.jobs[d.job.id]
        if isinstance(d, Start):
            alloc, limit, on_limit = run.allocation, run.limit, run.on_limit
        elif isinstance(d, Suspend):
            penalty = d.penalty
        elif isinstance(d, Resume):
            alloc = run.home
        elif isinstance(d, SetRate):
            rate = d.rate
        kind = _DECISION_NAMES[type(d)]
        return (
            self.passes,
            self.env.now,
            kind,
            run.id,
            alloc,
            limit,
            on_limit,
            penalty,
            rate,
            wake,
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
            self._suspend(self._find(d.job, "suspend"), d.penalty)
        elif isinstance(d, Resume):
            self._resume(self._find(d.job, "resume"))
        elif isinstance(d, Kill):
            self._stop(self._find(d.job, "kill"), requeue=False)
        elif isinstance(d, Requeue):
            self._stop(self._find(d.job, "requeue"), requeue=True)
        elif isinstance(d, SetRate):
            self._set_rate(self._find(d.job, "rate change"), d.rate)
        else:
            raise PolicyError(f"unknown decision {d!r}")

    def _find(self, job: JobView, what: str) -> JobRun:
        run = self.jobs.get(getattr(job, "id", None))  # type: ignore[arg-type]
        if run is None:
            raise PolicyError(f"{what} of {job!r}, which is no job of this run")
        return run

    def _start(self, d: Start) -> None:
        job = d.job
        run = self.queue.runs.get(job.id)
        if run is None:
            state = self._find(job, "start").state.value
            raise PolicyError(f"start of job {job.id}, which is {state}, not queued")
        limit = d.limit
        if limit is None:
            limit = run.estimate if self.kill_at_estimate else None
        elif not limit >= 0:
            raise PolicyError(f"limit of job {run.id} must be >= 0 seconds, got {limit}")
        if d.on_limit not in ("kill", "requeue"):
            raise PolicyError(f"on_limit of job {run.id} must be 'kill' or 'requeue'")
        alloc = d.allocation
        known_free = alloc is None
        machine = self._placed
        nodes, memory = None, 0.0
        if machine is not None:
            nodes, memory = machine.nodes_for(run.job), job_memory(run.job)
        if alloc is None:
            # Valid and free by construction (on the job's nodes, with its memory).
            if self._windows:
                alloc = self._place_by_windows(run, limit, nodes, memory)
            elif machine is None:
                alloc = self.cluster.first_fit(run.size)
            else:
                alloc = self.cluster.place(run.size, nodes, memory)
            if alloc is None:
                where = "" if machine is None else " it may use"
                raise PolicyError(
                    f"start of job {run.id} ({run.size} cores) with only "
                    f"{int(self.cluster.room(nodes, memory).sum())} cores free{where}"
                )
        else:  # a policy's own placement: check it before it touches the pool
            if not isinstance(alloc, Allocation) or alloc.size != run.size:
                raise PolicyError(
                    f"job {run.id} needs {run.size} cores, allocation has "
                    f"{getattr(alloc, 'size', alloc)}"
                )
            if not self.cluster.valid(alloc):
                raise PolicyError(
                    f"start of job {run.id} on nodes {alloc.node_list()}, not a valid allocation"
                )
            if nodes is not None and not np.isin(alloc.nodes, nodes).all():
                raise PolicyError(
                    f"start of job {run.id} on nodes {alloc.node_list()}, outside its "
                    f"partition {machine.partition_of(run.job).name!r}"  # type: ignore[union-attr]
                )
        try:
            self.cluster.allocate(alloc, run.id, known_free=known_free, memory=memory)
        except AllocationError as exc:
            what = "memory is" if str(exc).startswith("memory") else "cores are"
            raise PolicyError(
                f"start of job {run.id} on nodes {alloc.node_list()}, whose {what} not free"
            ) from None
        now = self.env.now
        self.queue.remove(run)
        run.state = State.RUNNING
        run.allocation = alloc
        run.home = alloc
        if self._multicore:
            run.cores = self.cluster.cores_of(run.id)
        run.limit = limit
        run.limit_in_work = self.limit_in_work
        run.on_limit = d.on_limit
        run.attempts += 1
        if run.first_start is None:
            run.first_start = now
        self._launch(run, startup=0.0)

    def _place_by_windows(
        self, run: JobRun, limit: float | None, nodes: np.ndarray | None, memory: float
    ) -> Allocation | None:
        """First fit of ``run``, started without cores named, when maintenance windows
        are announced: off the nodes of every window its span (by its limit, else its
        estimate) would reach, and otherwise on the nodes of the windows ahead first, so
        that the jobs still running when a window opens find more room off its nodes.
        Where only a window's nodes are free for it (a policy that does not plan around
        windows: FCFS), its first fit anyway, and the window will kill it. The planners
        (EASY, conservative) name the cores themselves, from a plan of the nodes that
        holds the windows (`schedsim.policies.planning.outages`)."""
        cluster = self.cluster
        now = self.env.now
        windows = self._windows
        while windows and windows[0].end <= now:
            windows.pop(0)
        span = limit if limit is not None else run.estimate
        hit = overlapping(windows, now, now + span)
        room = cluster.room(nodes, memory)
        if hit:
            off = room.copy()
            off[[n for w in hit for n in w.nodes]] = 0
            alloc = first_fit(off, run.size, cluster.cores_per_node)
            if alloc is not None:
                return alloc
            return first_fit(room, run.size, cluster.cores_per_node)
        ahead = sorted({n for w in windows if w.start >= now for n in w.nodes})
        if not ahead:
            return first_fit(room, run.size, cluster.cores_per_node)
        rest = np.setdiff1d(np.arange(cluster.nodes), ahead)
        order = np.concatenate([np.array(ahead, dtype=np.int64), rest])
        alloc = first_fit(room[order], run.size, cluster.cores_per_node)
        if alloc is None:
            return None
        picked = order[alloc.nodes]
        by_node = np.argsort(picked)
        return Allocation(picked[by_node], alloc.cores[by_node])

    def _launch(self, run: JobRun, startup: float) -> None:
        now = self.env.now
        run.since = now
        run.progressing = not startup > 0
        speed = self._speed
        if speed is not None:
            # The slowest of its nodes sets the pace (`schedsim.model.machine`, speed).
            run.base_rate = float(speed[run.allocation.nodes].min())  # type: ignore[union-attr]
            run.rate = run.base_rate * run.contention
        if self.contention is not None:
            self._contend(run.allocation, now, new=run)  # type: ignore[arg-type]
        run.expected_end = now + startup + run.planned_run()
        self.running.add(run)
        self.pieces.open(run, RUN if run.progressing else OVERHEAD, now)
        self.clock.start(run, startup)

    def _on_progress(self, run: JobRun) -> None:
        """A restart overhead is over: the job progresses from now on."""
        now = self.env.now
        self.pieces.close(run, now)
        self.pieces.open(run, RUN, now)
        self.running.refresh(run)

    def _suspend(self, run: JobRun, penalty: float = 0.0) -> None:
        if run.state is not State.RUNNING:
            raise PolicyError(f"suspend of job {run.id}, which is {run.state.value}")
        if not penalty >= 0:
            raise PolicyError(f"suspension penalty of job {run.id} must be >= 0, got {penalty}")
        now = self.env.now
        run.account(now)
        self.clock.stop(run)
        self.pieces.close(run, now)
        self.running.remove(run)
        run.state = State.SUSPENDED
        run.suspensions += 1
        run.expected_end = INF
        cost = (self.overhead(run.job)[0] if self.overhead else 0.0) + penalty
        # Suspended time starts once the cores are free: the write-out before
        # that is overhead, so run, suspended and overhead times never overlap.
        if cost > 0:
            # The memory image is written out: cores stay busy, no progress.
            run.suspended_at = None
            run.progressing = False
            self.pieces.open(run, OVERHEAD, now)
            self._release_after(run, cost)
        else:
            run.suspended_at = now
            self._release(run)
            self.pieces.open(run, SUSPENDED, now)
        self.suspended.add(run)

    def _release_after(self, run: JobRun, cost: float) -> None:
        """The write-out of ``run``'s memory image takes ``cost`` seconds, then its
        cores are free (`_written_out`)."""
        # The marks tell the same suspension still under way at the end: not killed or
        # requeued (and perhaps restarted and suspended again) during the write-out.
        event = self.env.timeout(cost, (run, run.suspensions, run.requeues))
        event.callbacks.append(self._written_out)

    def _written_out(self, event: simpy.Event) -> None:
        run, suspensions, requeues = event._value
        if (
            run.state is State.SUSPENDED
            and run.allocation is not None
            and run.suspensions == suspensions
            and run.requeues == requeues
        ):
            now = self.env.now
            run.account(now)
            self.pieces.close(run, now)
            self._release(run)
            run.suspended_at = now
            self.pieces.open(run, SUSPENDED, now)
            self.suspended.refresh(run)
            self._released.append(run)
            self.wake()

    def _release(self, run: JobRun) -> None:
        alloc = run.allocation
        if alloc is not None:
            self.cluster.release(alloc, run.id)
            run.allocation = None
            if self.contention is not None:
                self._contend(alloc, self.env.now)

    def _resume(self, run: JobRun) -> None:
        if run.state is not State.SUSPENDED:
            raise PolicyError(f"resume of job {run.id}, which is {run.state.value}")
        if run.allocation is not None:
            raise PolicyError(f"resume of job {run.id} while its suspension overhead is under way")
        home = run.home
        assert home is not None
        try:
            # Back on the cores it held last, where they are free (on its own nodes).
            memory = job_memory(run.job) if self._placed is not None else 0.0
            self.cluster.allocate(home, run.id, prefer=run.cores, memory=memory)
        except AllocationError:
            raise PolicyError(
                f"resume of job {run.id}: its nodes {home.node_list()} are not free"
            ) from None
        now = self.env.now
        self.pieces.close(run, now)
        self.suspended.remove(run)
        run.allocation = home
        run.cores = self.cluster.cores_of(run.id)
        run.state = State.RUNNING
        assert run.suspended_at is not None
        run.suspended_time += now - run.suspended_at
        run.suspended_at = None
        cost = self.overhead(run.job)[1] if self.overhead else 0.0
        self._launch(run, startup=cost)

    def _stop(self, run: JobRun, requeue: bool, outcome: Outcome = Outcome.KILLED) -> None:
        if run.state not in (State.RUNNING, State.SUSPENDED):
            verb = "requeue" if requeue else "kill"
            raise PolicyError(f"{verb} of job {run.id}, which is {run.state.value}")
        now = self.env.now
        run.account(now)
        self.pieces.close(run, now)
        if run.state is State.RUNNING:
            self.clock.stop(run)
            self.running.remove(run)
        else:
            self.suspended.remove(run)
            if run.suspended_at is not None:
                run.suspended_time += now - run.suspended_at
                run.suspended_at = None
        self._release(run)
        if requeue:
            self._requeue(run)
        else:
            self._finish(run, outcome)

    def _requeue(self, run: JobRun) -> None:
        """Back in the queue, in submit order; the attempt's work and run time are lost."""
        self.pieces.lose_attempt(run)
        run.lost_work += run.work_done
        run.lost_run += run.run_time_done
        run.work_done = 0.0
        run.run_time_done = 0.0
        run.requeues += 1
        run.state = State.QUEUED
        run.home = None
        run.limit = None
        run.expected_end = INF
        self.queue.insert(run)
        self._requeued.append(run)

    def _set_rate(self, run: JobRun, rate: float) -> None:
        if run.state is not State.RUNNING:
            raise PolicyError(f"rate change of job {run.id}, which is {run.state.value}")
        if not rate > 0:
            raise PolicyError(f"rate of job {run.id} must be positive, got {rate}")
        run.base_rate = rate
        self._change_rate(run, rate * run.contention, self.env.now)

    def _change_rate(self, run: JobRun, rate: float, now: float) -> None:
        """Run ``run`` at ``rate`` from ``now`` on, with exact accounting; its clock
        moves its end."""
        run.account(now)
        if run.progressing and rate != run.rate:
            self.pieces.close(run, now)
            run.rate = rate
            self.pieces.open(run, RUN, now)
        run.rate = rate
        if run.progressing:
            run.expected_end = now + run.planned_run()
        self.clock.recompute(run)
        self.running.refresh(run)

    def _contend(self, alloc: Allocation, now: float, new: JobRun | None = None) -> None:
        """Rates again for the running jobs on the nodes of ``alloc`` (held by ``new`` now,
        or just let go). ``new`` is starting: its rate is set before its clock starts."""
        model = self.contention
        assert model is not None
        cluster = self.cluster
        affected: set[int] = set()
        for n in alloc.nodes.tolist():
            affected.update(cluster.jobs_on(n))
        for jid in sorted(affected):
            run = new if new is not None and jid == new.id else self.running.runs.get(jid)
            if run is None:
                continue  # a suspension writing out holds cores but does not run
            held = cluster.holders[jid]
            factor = float(model.rate(run.job, Sharing(cluster, self.jobs, jid, held)))
            if not factor > 0:
                raise ValueError(f"contention model gave job {jid} the rate {factor}")
            if factor == run.contention:
                continue
            run.contention = factor
            if run is new:
                run.rate = run.base_rate * factor
            else:
                self._change_rate(run, run.base_rate * factor, now)

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

    # -- outages ------------------------------------------------------------------
    def outage_source(self, outages: Iterator[Outage]) -> Generator[simpy.Event, Any, None]:
        """The process that takes nodes out and brings them back, ``outages`` in order
        of start (`schedsim.model.outages.Outages.stream`). It stops at the first outage
        after the last job has left: a failure model never runs out of failures.

        An outage begins after the completions and arrivals of its instant and before
        its pass: a job whose estimate ends where a window begins is not killed by it."""
        env = self.env
        for outage in outages:
            if outage.start > env.now:
                # LATE: after the jobs ending then (a job planned to end as a window
                # opens ends), before the pass (scheduled at that instant, later).
                at = simpy.Event(env)
                at._ok, at._value = True, None
                env.schedule(at, LATE, delay_until(env.now, outage.start))
                yield at
            if self.idle and self.source_done:
                return
            self._begin(outage)
            back = env.timeout(delay_until(env.now, outage.end), outage)
            back.callbacks.append(self._on_outage_end)

    def _known(self) -> tuple[Outage, ...]:
        """The outages a policy knows of now: those under way (a failure's end unknown:
        inf) and the maintenance windows not yet begun, in order of start."""
        now = self.env.now
        ahead = [w for w in self._windows if w.start > now]
        return (*self._out.values(), *ahead)

    def _begin(self, outage: Outage) -> None:
        """``outage`` begins: the jobs on its nodes (and the suspended jobs whose memory
        image they hold) are killed, requeued or lost (``on_failure``), and the nodes
        leave the machine until it ends."""
        cluster = self.cluster
        fresh = []
        for n in outage.nodes:
            count = self._down.get(n, 0)
            self._down[n] = count + 1
            if count == 0:
                fresh.append(n)
        out = set(fresh)
        victims = {jid for jid, alloc in cluster.holders.items() if out & set(alloc.nodes.tolist())}
        victims.update(
            run.id
            for run in self.suspended.runs.values()
            if run.allocation is None and run.home is not None
            and out & set(run.home.nodes.tolist())
        )  # fmt: skip
        requeue = self.on_failure == "requeue"
        for jid in sorted(victims):
            run = self.jobs[jid]
            run.failures += 1
            self._stop(run, requeue=requeue, outcome=Outcome.FAILED)
        for n in fresh:
            cluster.take_down(n)
        shown = outage if outage.planned else Outage(outage.start, INF, outage.nodes, outage.kind)
        self._out[id(outage)] = shown
        assert self.outages is not None
        self.outages.append(outage)
        self._went_down.append(shown)
        self.wake()

    def _on_outage_end(self, event: simpy.Event) -> None:
        """An outage is over (the event's value): its nodes return, but those another
        outage still holds."""
        outage = cast("Outage", event.value)
        for n in outage.nodes:
            count = self._down[n] - 1
            if count:
                self._down[n] = count
            else:
                del self._down[n]
                self.cluster.bring_up(n)
        self._came_up.append(self._out.pop(id(outage)))
        # After the last job, nothing is left to schedule: no pass, the run's end stays.
        if not (self.idle and self.source_done):
            self.wake()

    # -- completions --------------------------------------------------------------
    def _on_end(self, run: JobRun, outcome: Outcome) -> None:
        now = self.env.now
        self.pieces.close(run, now)
        self.running.remove(run)
        self._release(run)
        if outcome is Outcome.KILLED_AT_LIMIT and run.on_limit == "requeue":
            self._requeue(run)
        else:
            self._finish(run, outcome)
        self.wake()

    def _finish(self, run: JobRun, outcome: Outcome) -> None:
        now = self.env.now
        run.state = State.DONE
        run.outcome = outcome
        run.end = now
        run.expected_end = now
        # A finished job keeps only its record: what it held as a live job (its
        # pending end, its last live snapshot, its attempt's pieces) goes, so that the
        # garbage collector's full passes over a long run stay short.
        run.attempt_rows = None
        run.pending_end = None
        run.view = None
        final = run.snapshot()  # never changes again: the events hold it, not the run
        self._ended.append(final)
        if outcome is not Outcome.COMPLETED:
            self._killed.append(final)
        self.finished.append(run)
        if run.on_end is not None:
            run.on_end.succeed(run)


_DECISION_NAMES: dict[type, str] = {
    Start: "start",
    Suspend: "suspend",
    Resume: "resume",
    Kill: "kill",
    Requeue: "requeue",
    SetRate: "set_rate",
}


_NO_TIMERS: frozenset[float] = frozenset()
_T = TypeVar("_T")
_new = tuple.__new__


def _final(views: list[_T]) -> tuple[_T, ...]:
    """The items of ``views``, emptying the list (jobs that ended since the last pass, or
    outages that began or ended)."""
    out = tuple(views)
    views.clear()
    return out


def _take(runs: list[JobRun]) -> tuple[JobView, ...]:
    """The current snapshots of ``runs``, emptying the list (what happened since the
    last pass, for this one)."""
    # Every run here has had a snapshot taken (at its arrival, at the latest).
    views = cast("tuple[JobView, ...]", tuple([r.view for r in runs]))
    runs.clear()
    return views
