"""The model's simulation: wires a workload, a policy object and a cluster; run, step, Result.

`ModelSimulation` is the model layer's run, which takes a `Policy` object. Users meet
its subclass `schedsim.Simulation` (`schedsim.app.simulation`), which also takes a
policy by name with its parameters and shows a progress bar; the two have distinct
names so that ``Simulation`` means one class.

    >>> from schedsim.policies.backfilling import EASY
    >>> from schedsim.workloads.catalog import load
    >>> from schedsim.workloads.transforms import first
    >>> result = ModelSimulation(first(load("kth"), 200), EASY(), seed=1).run()
    >>> len(result.jobs)
    200

Conventions (DESIGN.md): the clock starts at the first submit and keeps the
trace's own seconds, so ``header.to_datetime(t)`` gives the local time of
day; a job whose run time exceeds its estimate is killed at the estimate
unless ``kill_at_estimate=False``; a job wider than the machine is an error
unless ``wide="drop"`` or ``"clamp"`` (counted in the cleaning steps).
Randomness comes from `ModelSimulation.rng`, one independent numpy stream per
named component derived from the run's seed, so the same seed gives the
same result bit for bit, and a component's draws do not depend on which
other components drew before it.

A run can be taken whole (`ModelSimulation.run`), up to a clock time
(``run(until=t)``), or one scheduling pass at a time (`ModelSimulation.step`,
which returns the pass: the view the policy saw and the decisions it
returned); `ModelSimulation.result` collects what happened so far at any point.
An observer given to the simulation is told of every pass and every piece
as they happen, so a notebook or an animation needs no wrapper policy.
Stepping, stopping and observing never change the schedule.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from itertools import chain
from operator import attrgetter
from typing import Any, Literal

import numpy as np
import simpy

from schedsim._version import __version__
from schedsim.model.cluster import MAX_CORES, Cluster, ranges
from schedsim.model.columns import Columns
from schedsim.model.contention import ContentionModel
from schedsim.model.job import JobRun
from schedsim.model.machine import Machine, job_memory
from schedsim.model.outages import Outages
from schedsim.model.overhead import MemoryOverhead
from schedsim.model.pieces import RUN, Piece, node_names
from schedsim.model.policy import Policy
from schedsim.model.results import SERIES_COLUMNS, Result, reserved_columns
from schedsim.model.scheduler import Pass, Scheduler
from schedsim.model.sessions import SESSION_COLUMNS
from schedsim.model.sources import Population, Replay, SessionLog, population
from schedsim.model.view import OverheadModel, State, View
from schedsim.workloads.job import Job
from schedsim.workloads.streams import stream_seed
from schedsim.workloads.swf import source_lines
from schedsim.workloads.transforms import fit_machine
from schedsim.workloads.workload import Header, Workload

#: What an observer may be: an object with ``on_pass(Pass)`` and/or
#: ``on_piece(Piece)`` methods, or a callable given every `Pass` and `Piece`.
Observer = Any

DECISION_COLUMNS: tuple[str, ...] = (
    "pass", "time", "decision", "job", "nodes", "limit", "on_limit", "penalty", "rate", "wake",
)  # fmt: skip
#: The columns of `Result.reservations`.
RESERVATION_COLUMNS: tuple[str, ...] = (
    "pass", "time", "job", "kind", "start", "end", "size", "nodes",
)  # fmt: skip


def _describe_overhead(overhead: object) -> str | None:
    """The overhead model for the metadata: its parameters, or a function's name
    (never a repr with a memory address, which would differ from run to run)."""
    if overhead is None:
        return None
    if isinstance(overhead, MemoryOverhead):
        return repr(overhead)
    return getattr(overhead, "__qualname__", type(overhead).__name__)


def _hooks(
    observer: Observer,
) -> tuple[Callable[[Pass], None] | None, Callable[[Piece], None] | None]:
    """An observer's pass and piece hooks."""
    if observer is None:
        return None, None
    on_pass = getattr(observer, "on_pass", None)
    on_piece = getattr(observer, "on_piece", None)
    if on_pass is None and on_piece is None:
        if not callable(observer):
            raise TypeError(
                f"observer must be callable or have on_pass/on_piece methods, got {observer!r}"
            )
        return observer, observer
    return on_pass, on_piece


def _check_fit(workload: Workload, machine: Machine) -> None:
    """A job that names a partition the machine lacks, or that could not run on its
    partition's nodes even empty (its cores, its memory per core): one line, the first."""
    # The most depends on the partition and the memory per core only: worked out once for
    # each pair (a log's jobs share a few), not once per job.
    most_of: dict[tuple[str | None, float], int] = {}
    for job in workload.jobs:
        part = machine.partition_of(job)  # MachineError for an unknown partition
        mem = job_memory(job)
        key = (None if part is None else part.name, mem)
        most = most_of.get(key)
        if most is None:
            most = most_of[key] = machine.most_cores(job)
        if job.size > most:
            where = "the machine" if part is None else f"partition {part.name!r}"
            per = f" with {mem / 1024**2:g} GB per core" if mem > 0 else ""
            raise ValueError(
                f"job {job.id} needs {job.size:,} cores{per}; {where} holds at most "
                f"{most:,} such cores ({machine.describe()})"
            )


def _header_machine(workload: Workload, cores_per_node: int = 1) -> str:
    """Where a machine's size comes from when it is ``workload``'s header's, for errors
    that may be the header's fault (a job wider than it; too many cores), completing
    "the machine's N cores, which ...": ``"come from the header's MaxProcs: 64
    (log.swf:2)"``. Names the line of each key it speaks of when the file still holds
    it (`schedsim.workloads.swf.source_lines`), and says when the header contradicts
    itself (MaxProcs below MaxNodes: a node has at least one processor) or when
    MaxNodes stands in for a MaxProcs that is missing or not above 0."""
    h = workload.header
    _, lines = source_lines(workload.source, keys=("MaxProcs", "MaxNodes"), header=h)
    where = _place(workload, lines)
    key = "MaxProcs" if h.max_procs else "MaxNodes"
    text = f"come from the header's {key}: {h.fields.get(key, h.machine_size)}{where(key)}"
    if key == "MaxProcs" and h.max_nodes and h.max_nodes > (h.max_procs or 0):
        text += f", fewer than its MaxNodes: {h.fields['MaxNodes']}{where('MaxNodes')}"
    elif key == "MaxNodes":
        if "MaxProcs" in h.fields:
            text += f", as its MaxProcs: {h.fields['MaxProcs']}{where('MaxProcs')} gives no size"
        else:
            text += ", as it has no MaxProcs"
    size = h.machine_size or 0
    if 1 < cores_per_node <= size:
        text += f", in {size // cores_per_node:,} nodes of {cores_per_node} cores"
    return text


def _no_machine_size(workload: Workload) -> ValueError:
    """The error for a trace whose header gives no machine size (no ``nodes`` given)."""
    h = workload.header
    keys = [k for k in ("MaxProcs", "MaxNodes") if k in h.fields]
    _, lines = source_lines(workload.source, keys=tuple(keys), header=h)
    where = _place(workload, lines)
    said = "; ".join(f"{k}: {h.fields[k]}{where(k)}" for k in keys)
    return ValueError(
        f"{workload.source or f'workload {workload.name!r}'}: the header gives no machine size "
        f"(MaxProcs, else MaxNodes, above 0{'; it has ' + said if said else ''}): give nodes= "
        "(on the command line --nodes)"
    )


def _place(workload: Workload, lines: dict[str, int]) -> Callable[[str], str]:
    """A header key's place for a message: `` (log.swf:2)``, or nothing when unknown."""

    def where(key: str) -> str:
        if workload.source is None or key not in lines:
            return ""
        return f" ({workload.source}:{lines[key]})"

    return where


class ModelSimulation:
    """One run: a workload replayed on a machine under a policy object.

    The model layer's class; `schedsim.Simulation` is this with policies by name.

    Parameters
    ----------
    workload:
        The jobs (a `Workload`; see `schedsim.workloads.catalog.load` and
        `schedsim.workloads.swf.read_swf`),
        or a closed-loop `schedsim.model.sources.Population` of users who make them as the
        run goes (seed 002); then ``nodes`` defaults to the users' source trace's
        machine, the clock starts at 0 (midnight of day 0) and `jobs_submitted`
        gives the jobs they made.
    policy:
        A `Policy` instance. The model takes policy objects; names (``"easy"``)
        are resolved by the application layer (`schedsim.Simulation`).
    nodes:
        Number of nodes. Default: the trace header's machine size (MaxProcs, else
        MaxNodes) divided by ``cores_per_node``. ``nodes * cores_per_node`` may be at
        most `schedsim.model.cluster.MAX_CORES` (2**24 cores; ValueError beyond it).
    cores_per_node:
        Cores per node (1 in the classic studies).
    seed:
        Seed of every random stream of the run.
    kill_at_estimate:
        Kill a job when its run time reaches its estimate (default, as a batch
        system would); False runs every job for its trace run time.
    wide:
        What to do with jobs wider than the machine: ``"error"`` (default),
        ``"drop"`` or ``"clamp"`` them.
    overhead:
        Optional cost of suspension and restart: a `schedsim.model.overhead.MemoryOverhead`
        (seed 000, section 4.1; memory sizes from the ``"memory"`` stream, or for a
        population from each user's ``"users/I/memory"`` stream) or any
        ``job -> (suspend_cost, resume_cost)`` in seconds.
    limit_in:
        What the limit of a start counts: ``"run"`` time (default: wall-clock
        seconds of running, as a batch system counts) or ``"work"`` (so that a
        job slowed down by contention is not killed with work left).
    contention:
        A `schedsim.model.contention.ContentionModel` giving each running job's
        rate from who shares its nodes (default: none, every job at rate 1).
    pieces:
        Keep the piece log (`Result.pieces`; default). Off saves a little time and
        memory on very long runs.
    observer:
        Told of every pass and every piece as they happen: an object with
        ``on_pass(pass_)`` and/or ``on_piece(piece)`` methods
        (`schedsim.model.scheduler.Pass`, `schedsim.model.pieces.Piece`), or a
        callable given both.
    log_decisions:
        Keep every decision of every pass (`Result.decisions`).
    log_reservations:
        Keep every reservation the policy holds after each pass
        (`Result.reservations`, from `schedsim.model.policy.Policy.promises`).
    machine:
        A machine of node groups, memory, partitions and speeds
        (`schedsim.model.machine.Machine`), instead of ``nodes`` x ``cores_per_node``.
    outages:
        Node failures (a model, drawn from the ``failures/NODE`` streams, or listed) and
        maintenance windows (`schedsim.model.outages.Outages`): jobs on a node that goes
        out are killed, requeued or lost; `Result.outages` lists every outage begun.
    """

    def __init__(
        self,
        workload: Workload | Population,
        policy: Policy,
        *,
        nodes: int | None = None,
        cores_per_node: int = 1,
        seed: int = 0,
        kill_at_estimate: bool = True,
        wide: Literal["error", "drop", "clamp"] = "error",
        overhead: OverheadModel | MemoryOverhead | None = None,
        limit_in: Literal["run", "work"] = "run",
        contention: ContentionModel | None = None,
        pieces: bool = True,
        observer: Observer = None,
        log_decisions: bool = False,
        log_reservations: bool = False,
        machine: Machine | None = None,
        outages: Outages | None = None,
    ) -> None:
        self.population = workload if isinstance(workload, Population) else None
        pop = self.population
        if machine is not None:
            if nodes is not None or cores_per_node != 1:
                raise ValueError(
                    "give the machine or its nodes and cores_per_node, not both "
                    "(on the command line --machine, or --nodes/--cores-per-node)"
                )
            if pop is not None and not machine.simple:
                raise ValueError(
                    "closed-loop users run on identical nodes without memory or partitions; "
                    f"the machine has more: {machine.describe()}"
                )
            nodes = machine.nodes
            if machine.simple:
                cores_per_node = machine.groups[0].cores
        #: The machine of node groups, memory or partitions, None for identical nodes.
        self.machine = machine if machine is not None and not machine.simple else None
        # Whether the machine's size is a trace header's: the errors it leads to may be
        # the header's fault, and name its lines (`_header_machine`).
        from_header = nodes is None and isinstance(workload, Workload)
        if nodes is None:
            if isinstance(workload, Population):
                size: int | None = workload.model.machine
                if not size:
                    raise ValueError(
                        f"workload {workload.name!r} has no MaxProcs/MaxNodes header: give nodes="
                    )
            else:
                size = workload.header.machine_size
                if not size:
                    raise _no_machine_size(workload)
            if cores_per_node > size:
                # Also keeps a huge cores_per_node from reaching Cluster as 0 nodes.
                which = ""
                if isinstance(workload, Workload):
                    which = f", which {_header_machine(workload, cores_per_node)}"
                raise ValueError(
                    f"cores_per_node = {cores_per_node:,} is more than the {size:,} cores of "
                    f"workload {workload.name!r}'s machine{which}: give the number of nodes as "
                    "well"
                )
            # cores_per_node <= 0: Cluster says what is wrong (not a ZeroDivisionError).
            nodes = size // cores_per_node if cores_per_node > 0 else 0
            if from_header and cores_per_node > 0 and nodes * cores_per_node > MAX_CORES:
                assert isinstance(workload, Workload)
                origin = _header_machine(workload, cores_per_node)
                raise ValueError(
                    f"the machine's {nodes * cores_per_node:,} cores, which {origin}, are more "
                    f"than the {MAX_CORES:,} (2**24) a simulated machine may have: give nodes= "
                    "(on the command line --nodes) if the header is wrong"
                )
        if self.machine is not None:
            m = self.machine
            self.cluster = Cluster(
                m.nodes, m.max_cores_per_node, capacity=m.capacity, memory=m.memory
            )
            policy_check = getattr(policy, "check_machine", None)
            if policy_check is not None:
                policy_check(m)
        else:
            self.cluster = Cluster(nodes, cores_per_node)
        if pop is not None:
            if overhead is not None and not isinstance(overhead, MemoryOverhead):
                raise ValueError(
                    "a closed-loop population takes a MemoryOverhead (the users draw each "
                    "job's memory as they make it), not an overhead function"
                )
            self.population = pop = dataclasses.replace(
                pop, model=pop.model.restrict(self.cluster.total_cores)
            )
            # The jobs are made as the run goes; this empty workload carries the clock.
            self.workload = Workload(
                (),
                Header(unix_start_time=pop.unix_start_time, time_zone_string="UTC"),
                name=pop.name,
                source=pop.model.source,
            )
        else:
            assert isinstance(workload, Workload)
            cores = self.cluster.total_cores
            said = None
            # The header's lines are looked up only when a job is too wide for it.
            if from_header and wide == "error" and any(j.size > cores for j in workload.jobs):
                said = _header_machine(workload, cores_per_node)
            self.workload = fit_machine(workload, cores, mode=wide, origin=said)
            if len(self.workload) == 0:
                where = f"{workload.source}: " if workload.source else ""
                why = ""
                if len(workload):
                    why = (
                        f": all {len(workload)} are wider than the machine's {cores} cores, and "
                        "wide='drop' (--wide drop) dropped them"
                    )
                    if len(workload) == 1:
                        why = (
                            f": its one job is wider than the machine's {cores} cores, and "
                            "wide='drop' (--wide drop) dropped it"
                        )
                raise ValueError(f"{where}workload {workload.name!r} has no jobs to simulate{why}")
            if self.machine is not None:
                _check_fit(self.workload, self.machine)
            clash = sorted(self.workload.attribute_names() & reserved_columns())
            if clash:
                raise ValueError(
                    f"workload {workload.name!r}: job attributes {clash} would hide columns "
                    "of the job table; rename them"
                )
        self.outages = outages
        if outages is not None:
            if pop is not None:
                raise ValueError("closed-loop users run without node outages")
            outages.check(self.cluster.nodes)
            check = getattr(policy, "check_outages", None)
            if check is not None:
                check(bool(outages.windows), self.machine)
        if limit_in not in ("run", "work"):
            raise ValueError(f"limit_in must be 'run' or 'work', got {limit_in!r}")
        if not isinstance(policy, Policy):
            raise TypeError(
                f"policy must be a Policy instance, got {policy!r} "
                "(names are resolved by schedsim.Simulation)"
            )
        self.policy = policy
        self.seed = seed
        self.kill_at_estimate = kill_at_estimate
        self.limit_in = limit_in
        self.contention = contention
        self.overhead = overhead
        memory = overhead if isinstance(overhead, MemoryOverhead) else None
        charge: OverheadModel | None = (
            memory.model(self.workload.jobs, self.rng("memory")) if memory is not None else overhead  # type: ignore[assignment]  # a function, or None
        )
        on_pass, on_piece = _hooks(observer)
        self.env = simpy.Environment(initial_time=self.start)
        self.scheduler = Scheduler(
            self.env,
            self.cluster,
            policy,
            kill_at_estimate=kill_at_estimate,
            limit_in_work=limit_in == "work",
            overhead=charge,
            contention=contention,
            pieces=pieces,
            on_pass=on_pass,
            on_piece=on_piece,
            log_decisions=log_decisions,
            log_reservations=log_reservations,
            machine=self.machine,
            windows=None
            if outages is None
            else tuple(o for o in outages.on_clock(self.start) if o.planned),
            on_failure="requeue" if outages is None else outages.on_failure,
        )
        if outages is not None:
            stream = outages.stream(self.start, self.cluster.nodes, self.rng)
            self.env.process(self.scheduler.outage_source(stream))
        self.sessions = SessionLog()
        if pop is not None:
            population(self.env, self.scheduler, pop, self.rng, self.sessions, memory)
            self.scheduler.source_done = True  # users stop by themselves at the horizon
        else:
            Replay(self.env, self.workload.jobs, self.scheduler)
        self._result: Result | None = None
        #: Seconds spent simulating so far (over every `run` and `step`).
        self.wall_time = 0.0

    @property
    def start(self) -> float:
        """The clock origin: the first submit, or 0 (midnight of day 0) for a population."""
        return 0.0 if self.population is not None else float(self.workload[0].submit)

    def rng(self, component: str) -> np.random.Generator:
        """The random stream of a named component (``"estimates"``, ``"users"``, ...).

        Streams are keyed by name, not by creation order, so adding a
        component never shifts another's draws.
        """
        return np.random.default_rng(stream_seed(self.seed, component))

    @property
    def now(self) -> float:
        """The simulation clock."""
        return float(self.env.now)

    @property
    def finished(self) -> bool:
        """Whether nothing is left to happen (every job has ended)."""
        return self.env.peek() == float("inf")

    def run(self, until: float | None = None) -> Result:
        """Run to the end, or up to clock time ``until``, and return the `Result`.

        To the end, the result is complete (and made once: later calls return
        it). With ``until`` the run stops before anything that happens at
        ``until`` itself (`advance`) and the result is partial (`result`);
        calling `run`, `advance` or `step` again goes on from there, to the
        same schedule as a run in one go.

        Python's garbage collector is left as it is; a long run goes faster inside
        `schedsim.model.gc_tuning.tuned_gc`, which the ``schedsim`` command uses.
        """
        if until is not None:
            self.advance(until)
            return self.result(partial=not self.finished)
        if self._result is not None:
            return self._result
        t0 = time.perf_counter()
        self.env.run()
        self.wall_time += time.perf_counter() - t0
        self._result = self._collect(partial=False)
        return self._result

    def advance(self, until: float) -> bool:
        """Run up to clock time ``until`` (what happens at ``until`` itself comes later),
        collecting nothing; True once the run is over.

        For loops that watch a run go (a progress bar, an animation by clock
        time); `run` with ``until`` also collects the partial result.
        """
        if until > self.env.now and not self.finished:
            t0 = time.perf_counter()
            self.env.run(until=until)
            self.wall_time += time.perf_counter() - t0
        return self.finished

    def step(self) -> Pass | None:
        """Run to the end of the next scheduling pass and return it (None once the run is over).

        The `schedsim.model.scheduler.Pass` holds the clock, the view the policy
        saw (immutable: it still shows that pass afterwards), the decisions
        it returned, applied by then, and the reservations it holds after them
        (``promises``). Stepping to the end gives the same result as `run`.
        """
        env, scheduler = self.env, self.scheduler
        scheduler.want_promises = True  # a step shows the policy's reservations
        target = scheduler.passes + 1
        t0 = time.perf_counter()
        try:
            while scheduler.passes < target:
                if env.peek() == float("inf"):
                    return None
                env.step()
        finally:
            self.wall_time += time.perf_counter() - t0
        return scheduler.last

    def view(self) -> View:
        """The state of the run now, as a policy would see it (no events): for looking
        at a run between steps (`schedsim.model.scheduler.Scheduler.current_view`)."""
        return self.scheduler.current_view()

    def result(self, partial: bool = False) -> Result:
        """The result so far: complete once the run is over, else only with ``partial``.

        A partial result holds the jobs submitted so far; those still in the
        system have the outcome ``"unfinished"``, no end, their run time so
        far, and their wait so far (``wait = now - submit - run``); their
        open pieces end at the clock. ``meta["partial"]`` is True and
        ``meta["end"]`` is the clock. Summaries count finished jobs only.
        """
        if self.finished:
            return self.run()
        if not partial:
            raise RuntimeError(
                f"the run is not over (clock {self.env.now}); ask for result(partial=True)"
            )
        return self._collect(partial=True)

    def jobs_submitted(self) -> Workload:
        """The jobs as submitted, in submit order: the trace's, or those the users made.

        For a closed-loop run this is the workload the users generated (known
        only after `run`), with the population's clock header, so it can be
        written as SWF or replayed open loop.
        """
        if self.population is None:
            return self.workload
        jobs = sorted((r.job for r in self.scheduler.finished), key=lambda j: (j.submit, j.id))
        return self.workload.with_jobs(jobs)

    def _collect(self, partial: bool) -> Result:
        s = self.scheduler
        now = float(self.env.now)
        if not partial and not s.idle:
            stuck = [r.id for r in (*s.queue.runs.values(), *s.suspended.runs.values())][:10]
            raise RuntimeError(
                f"simulation under {self.policy.name!r} ended with jobs never finished "
                f"(first ids: {stuck}); the policy left them waiting with nothing running"
            )
        runs = _in_submit_order(list(s.jobs.values() if partial else s.finished))
        names: dict[int, str] = {}  # node lists by allocation, shared by both tables
        jobs = self._job_table(runs, now, names)
        sessions = None
        if self.population is not None:
            of = self.sessions.job_session
            jobs["session"] = np.array([of[r.id][1] for r in runs], dtype=np.int64)
            sessions = _pandas().DataFrame(self.sessions.sessions, columns=list(SESSION_COLUMNS))
        series = _series_table(s.series)
        pieces = None
        if s.pieces.keep:
            open_ = _open_pieces(s.live(), now) if partial else None
            pieces = s.pieces.frame(self.cluster.cores_per_node, open_, names)
        decisions = None
        if s.decisions is not None:
            decisions = _pandas().DataFrame(
                [(*row[:4], ranges(row[4].nodes) if row[4] is not None else "", *row[5:])
                 for row in s.decisions],
                columns=list(DECISION_COLUMNS),
            )  # fmt: skip
        reservations = None
        if s.promises is not None:
            reservations = _pandas().DataFrame(
                [(number, at, r.job, r.kind, r.start, r.end, r.size,
                  ranges(r.allocation.nodes) if r.allocation is not None else "")
                 for number, at, r in s.promises],
                columns=list(RESERVATION_COLUMNS),
            )  # fmt: skip
        if partial:
            end = now
        else:
            # The last job's end, not the clock: a policy timer left pending
            # when the last job ended still moves the clock, but nothing happens then.
            ends = np.asarray(jobs["end"], dtype=float)
            last = float(ends.max()) if len(ends) else -np.inf
            end = float(max(last, s.series[-1][0] if s.series else -np.inf))
        header = self.workload.header
        meta: dict[str, Any] = {
            "workload": self.workload.name,
            "source": self.workload.source,
            "policy": self.policy.name,
            "policy_params": self.policy.params(),
            "nodes": self.cluster.nodes,
            "cores_per_node": self.cluster.cores_per_node,
            "total_cores": self.cluster.total_cores,
            "seed": self.seed,
            "kill_at_estimate": self.kill_at_estimate,
            "limit_in": self.limit_in,
            "overhead": _describe_overhead(self.overhead),
            "contention": repr(self.contention) if self.contention is not None else None,
            "start": self.start,
            "end": end,
            "partial": partial,
            "unix_start_time": header.unix_start_time,
            "time_zone_string": header.time_zone_string,
            "cleaning": [str(c) for c in self.workload.cleaning],
            "passes": s.passes,
            "wall_time": self.wall_time,
            "schedsim_version": __version__,
        }
        if self.machine is not None:
            meta["machine"] = self.machine.describe()
            meta["machine_groups"] = self.machine.group_table()
        outages = None
        if self.outages is not None:
            meta["outages"] = self.outages.describe()
            assert s.outages is not None
            outages = _pandas().DataFrame(
                {
                    "start": np.array([o.start for o in s.outages], dtype=float),
                    "end": np.array([o.end for o in s.outages], dtype=float),
                    "nodes": [ranges(list(o.nodes)) for o in s.outages],
                    "cores": np.array(
                        [int(self.cluster.capacity[list(o.nodes)].sum()) for o in s.outages],
                        dtype=np.int64,
                    ),
                    "kind": [o.kind for o in s.outages],
                }
            )
        if self.population is not None:
            pop = self.population
            meta.update(
                users=pop.users,
                days=pop.days,
                horizon=pop.horizon,
                daily_cycle=dataclasses.asdict(pop.cycle),
                user_model=pop.model.describe(),
            )
        return Result(
            jobs=jobs,
            series=series,
            meta=meta,
            sessions=sessions,
            pieces=pieces,
            decisions=decisions,
            reservations=reservations,
            outages=outages,
            tables={
                name: _pandas().DataFrame(list(rows), columns=list(columns))
                for name, (columns, rows) in self.policy.tables().items()
            },
        )

    def _job_table(self, runs: list[JobRun], now: float, names: dict[int, str]) -> Columns:
        """One row per job (`schedsim.model.results.SIMULATED_COLUMNS`, then the attributes)."""
        n = len(runs)
        done = [r.state is State.DONE for r in runs]
        run_time = [
            r.run_time_done if d or r.state is not State.RUNNING or not r.progressing
            else r.run_time_done + (now - r.since)
            for r, d in zip(runs, done, strict=True)
        ]  # fmt: skip
        jobs_ = [r.job for r in runs]

        # A column read by attrgetter straight into an array: no list in between.
        def column(of: list[Any], name: str, dtype: type) -> np.ndarray:
            return np.fromiter(map(attrgetter(name), of), dtype, n)

        submit = column(runs, "submit", float)
        end = np.array([r.end for r in runs], dtype=float)
        run = np.array(run_time, dtype=float)
        jobs = Columns(
            {
                "id": column(runs, "id", np.int64),
                "submit": submit,
                # A job never started has no start (None): NaN, as np.array makes it.
                "start": np.array([r.first_start for r in runs], dtype=float),
                "end": end,
                "run": run,
                "estimate": column(runs, "estimate", float),
                "work": column(jobs_, "work", float),
                "size": column(runs, "size", np.int64),
                "nodes": _home_names(runs, names),
                "outcome": [r.outcome.value if r.outcome else "unfinished" for r in runs],
                "suspensions": column(runs, "suspensions", np.int64),
                "suspended_time": column(runs, "suspended_time", float),
                "overhead_time": column(runs, "overhead_time", float),
                "requeues": column(runs, "requeues", np.int64),
                "lost_work": column(runs, "lost_work", float),
                "lost_run": column(runs, "lost_run", float),
                "attempts": column(runs, "attempts", np.int64),
                "user": column(jobs_, "user", np.int64),
            }
        )
        if self.outages is not None:
            # Only in a run with outages: the job tables of the others stay as they were.
            jobs.insert(
                jobs.columns.index("attempts"), "failures", column(runs, "failures", np.int64)
            )
        if not all(done):
            end = np.where(np.isnan(end), now, end)
        # Everything but the run of the attempt that counts: queued, suspended,
        # overhead, and lost attempts (seed 001's delay d = response - service).
        jobs.insert(5, "wait", end - submit - run)
        # SWF's two attribute fields, when the workload uses them (-1: missing).
        for field in ("queue", "partition"):
            values = column(jobs_, field, np.int64)
            if (values != -1).any():
                jobs[field] = values
        # SWF field 10, the memory each core asks (KB there), when any job asks some.
        per_core = np.fromiter(map(job_memory, jobs_), float, len(jobs_))
        if (per_core > 0).any():
            jobs["memory_per_core_mb"] = np.where(per_core > 0, per_core / 1024.0, np.nan)
        for name, values in _attributes(jobs_).items():
            jobs[name] = values
        for name, by_id in self.policy.job_columns().items():
            if name in jobs.columns or name in reserved_columns():
                raise ValueError(
                    f"policy {self.policy.name!r}: its job column {name!r} is a column of the "
                    "job table already"
                )
            jobs[name] = [by_id.get(r.id) for r in runs]
        return jobs


def _in_submit_order(runs: list[JobRun]) -> list[JobRun]:
    """The jobs by submit time, ties by id, through numpy's lexsort: on a long run's
    hundreds of thousands of jobs, twice as fast as `sorted` on ``(submit, id)`` pairs."""
    n = len(runs)
    ids = np.fromiter(map(attrgetter("id"), runs), np.int64, n)
    submits = np.fromiter(map(attrgetter("submit"), runs), float, n)
    return [runs[k] for k in np.lexsort((ids, submits)).tolist()]


def _series_table(rows: list[tuple[float, int, int, int, int, int]]) -> Columns:
    """The series, one row per pass (`Scheduler.series`): the clock, then counts.

    Read through one float array, which is exact for counts (below 2**53) and twice as
    fast as pandas on the rows (filled from the rows' values in a row, faster than
    ``np.array`` on the tuples); no pass at all gives the empty table pandas would.
    """
    if not rows:
        return Columns({name: np.array([], dtype=object) for name in SERIES_COLUMNS})
    width = len(SERIES_COLUMNS)
    values = np.fromiter(chain.from_iterable(rows), float, width * len(rows)).reshape(-1, width)
    return Columns(
        {
            name: values[:, k] if k == 0 else values[:, k].astype(np.int64)
            for k, name in enumerate(SERIES_COLUMNS)
        }
    )


def _home_names(runs: list[JobRun], names: dict[int, str]) -> list[str]:
    """Each job's last nodes (its home), ``""`` for a job that never started."""
    homes = [r.home for r in runs]
    held = node_names([h for h in homes if h is not None], names)
    it = iter(held)
    return [next(it) if h is not None else "" for h in homes]


def _open_pieces(live: list[JobRun], now: float) -> list[tuple]:
    """The pieces still under way at ``now``, cut there (a partial result)."""
    out = []
    for r in live:
        kind = r.piece_kind
        if kind < 0 or not now > r.piece_start:
            continue
        suspended = r.state is State.SUSPENDED and r.allocation is None
        alloc = r.home if suspended else r.allocation
        rate = r.rate if kind == RUN else 0.0
        out.append((r.id, r.attempts, kind, r.piece_start, now, alloc, r.cores, rate))
    return out


def _attributes(jobs: list[Job]) -> dict[str, Any]:
    """The jobs' attributes as columns, in the order they first appear.

    Numbers become a numeric column (NaN where a job has none), anything else
    an object column (None where a job has none).
    """
    # Most workloads give no job any attribute: one pass in C says so.
    if not any(map(attrgetter("attrs"), jobs)):
        return {}
    names: dict[str, None] = {}
    for job in jobs:
        for key in job.attrs:
            names.setdefault(key)
    out: dict[str, Any] = {}
    for name in names:
        values = [job.attrs.get(name) for job in jobs]
        present = [v for v in values if v is not None]
        numeric = all(
            isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
            for v in present
        )
        if (
            numeric
            and len(present) == len(values)
            and all(isinstance(v, (int, np.integer)) for v in present)
        ):
            out[name] = np.array(values, dtype=np.int64)
        elif numeric:
            out[name] = np.array([np.nan if v is None else v for v in values], dtype=float)
        else:
            objects = np.empty(len(values), dtype=object)  # an object column (`Columns`)
            for i, value in enumerate(values):  # one by one: a value may be a sequence
                objects[i] = value
            out[name] = objects
    return out


def _pandas() -> Any:
    """pandas, imported for a table only some runs keep (`_collect`): the job table and
    the series are `Columns`, so a plain run never loads it (`schedsim.model.columns`)."""
    import pandas

    return pandas
