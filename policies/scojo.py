"""Scojo-PECT: coarse-grain time slices per job type, with a node planner in each slice.

Zeng and Sodan (seed 003), section 4.7 and section 5.1's set-up, after
Esbaugh and Sodan's Scojo-PECT (their reference [5]). Run it as the
policies it wraps are run (`schedsim.policies.spacesharing`)::

    Simulation(w, ScojoPECT(seed=s, inner="glts"), nodes=128, cores_per_node=4,
               contention=StatisticalContention(s), kill_at_estimate=False)

**Job types and virtual machines.** A job is *short* (estimate <=
``short_max``, 600 s), *medium* (<= ``medium_max``, 3 h) or *long* (section
5.1 classifies "by runtime"; the scheduler knows the estimate, which the
paper's Lublin-Feitelson jobs have equal to the run time). Each type has a
virtual machine spanning the whole machine, with a planner of its own
(``inner``: ``ssp``, ``glts``, ``cst``, ``cstws``, ``glts-fbo``,
``glts-ns`` or ``glts-nh``, built with this policy's parameters): FCFS with
conservative backfilling over whole nodes, G-LOMARC-TS's groups of jobs of
that type only ("Only jobs of the same type are matched").

**Virtual time.** A virtual machine's clock runs only during its slices
(less the switch overhead). Its planner sees every time in that clock: its
jobs' submit times (the clock when they arrived), its running jobs' planned
ends, its reservations, R_est and R_max. So G-LOMARC-TS "does not even need
to know about the existence of time slices", and its fairness bound and
R_est are in its machine's time: a job's ``delay_factor`` (job column) is
its response in its machine's time over R_est (choice: the paper does not
say in which time R_est is estimated; its adjustment by 0.75 "to reflect
that the estimates do not consider the benefits from non-type slice
backfilling", which makes jobs progress outside their machine's slices,
reads naturally in this time).

**Slices.** Time runs in intervals of ``interval`` (1 h). At an interval's
start its slices are decided ("the slice times can be decided at the
beginning of each interval"): a short slice of ``short_slice`` seconds first
if short jobs wait ("their slice is only scheduled if short jobs are
waiting"; the paper gives no length: choice, 600 s, enough for one short job
started at the slice's start), then medium and long slices sharing the rest
by ``medium_share`` (30%) and 1 - ``medium_share`` (70%). A type with no
job (waiting, running or preempted) gets no slice; its share goes to the
others (choice). A slice whose type has no job left ends early (choice: an
idle slice would only hold up the others). When no job is present at all,
no interval runs; the next begins when a job arrives.

**Switches** (section 5.1: "60 sec overhead per time slice for
preemption/resumption of the jobs"). At a slice's end every running job is
suspended (`schedsim.model.policy.Suspend` with a penalty of ``switch``
seconds: it holds its cores that long, writing out), then the new slice's
jobs resume on their own nodes (no migration). The slice's useful time
begins once every write-out is over. When nothing was running, the switch
costs nothing (choice). Footnote 3: even jobs that would run on in the next
slice are preempted; so are they here.

**Safe non-type slice backfilling** (section 4.7). In a slice of type t,
after t's planner has started its jobs, jobs of other types run on nodes
t's plan does not need while they run, by their estimates, or up to the
slice's end if they would run past it (its profile of free nodes, so no job
of t is delayed); they run until they end or the slice does ("valid only until the end
of the slice"), first preempted ones (on their own nodes, all free: a
G-LOMARC-TS group, jobs sharing nodes, goes as a unit), then waiting ones in
FCFS order, in their space-sharing shape, on nodes none of their own type's
preempted jobs needs, only when their own type's plan has room for them from
its clock now for their whole planned run (no job of their own type is
delayed). A waiting job started so joins its own machine as running.
Choice: non-type backfilled waiting jobs are never grouped.

Tables: ``slices`` (every slice: type, start, useful start, end, why it
ended) and G-LOMARC-TS's ``groups`` and ``matchmaking`` log (with the virtual
machine of each row: `schedsim.policies.glts.MATCHMAKING`).
Job columns: ``job_type``, ``delay_factor``, ``v_submit``, ``v_end``
(virtual times), ``non_type_resumes`` (how often the job was resumed in
another type's slice), and the inner planners' ``cos_case`` (how the job
started: ``non-type`` when non-type backfilling started it), ``ppn``,
``r_est``, ``group``. The ``groups`` table's ``formed`` and ``disbanded``
are times of the group's virtual machine, as everything its planner sees, and so
is the ``matchmaking`` log's ``time``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import numpy as np
from numpy import count_nonzero

from schedsim.model.cluster import Allocation
from schedsim.model.policy import (
    Decision,
    Policy,
    Reservation,
    Resume,
    Start,
    Suspend,
    WakeAt,
    register,
)
from schedsim.model.view import JobView, State, View, job_replacer, new_view
from schedsim.policies.glts import GLTS, MATCHMAKING, PairBest, PairSharing, PairTries
from schedsim.policies.planning.profile import INF
from schedsim.policies.spacesharing import SSP, NodePlanner, SelfAndCos, layout
from schedsim.workloads.multicore import MAX_SL, MEDIUM_MAX, SELF_SL2, SHORT_MAX

__all__ = ["INNER", "TYPES", "ScojoPECT", "Slice"]

JobType = Literal["short", "medium", "long"]
#: The job types, in the order of their slices within an interval.
TYPES: tuple[JobType, ...] = ("short", "medium", "long")

#: The planners a virtual machine can run: name -> (class, G-LOMARC-TS variant or None).
INNER: dict[str, tuple[type[NodePlanner], str | None]] = {
    "ssp": (SSP, None),
    "glts": (GLTS, "glts"),
    "cst": (GLTS, "cst"),
    "cstws": (GLTS, "cstws"),
    "glts-fbo": (GLTS, "fbo"),
    "glts-ns": (GLTS, "ns"),
    "glts-nh": (GLTS, "nh"),
}


@dataclass(slots=True)
class Slice:
    """One time slice: its type, wall-clock start, useful start (after the switch) and end."""

    index: int
    type: JobType
    start: float
    useful: float
    end: float
    #: The virtual machine's clock at the useful start.
    vbase: float
    ended: float | None = None
    reason: str | None = None


_RUNNING = State.RUNNING

#: A job of a virtual machine as it sees it: running there since its clock ``since``.
_as_running = job_replacer(
    "submit", "allocation", "since", "rate", "work_done", "expected_end",
    state=_RUNNING, progressing=True,
)  # fmt: skip
#: Another type's job running in the slice: busy until its end or the slice's.
_blocking = job_replacer("since", "expected_end")
#: A waiting job, submitted at its machine's clock.
_resubmitted = job_replacer("submit")


def _job_id(job: JobView) -> int:
    return job.id


def _work_now(job: JobView, now: float) -> float:
    done = job.work_done
    if job.state is State.RUNNING and job.progressing:
        done += (now - job.since) * job.rate
    return done


@register("scojo")
class ScojoPECT(Policy):
    """Scojo-PECT (Zeng & Sodan 2009, section 4.7): time slices per job type, a planner per
    virtual machine, other types' jobs backfilled into a slice when that delays no one.

    Parameters: ``inner`` (the planner of each virtual machine: ``ssp``,
    the default, or a G-LOMARC-TS variant), ``seed`` (the slowdowns the
    planners predict: the run's), ``interval`` (3600 s), ``medium_share``
    (0.3; long: the rest), ``short_slice`` (600 s), ``switch`` (60 s per
    slice switch), ``short_max`` (600 s), ``medium_max`` (10,800 s),
    ``non_type_backfill`` (on), and the planners' Table 6 parameters
    (`schedsim.policies.glts.GLTS`; SSP reads only ``max_sl``,
    ``self_sl2``, ``f_slack``, ``adjust`` and ``self_and_cos``, how the slowdowns they
    predict combine), with ``pair_best``, ``pair_tries`` and
    ``pair_sharing``, the readings of CST's and CSTWS's definitions (`schedsim.policies.glts`).
    """

    #: Parameters added after run ids were published, with the value that behaves as
    #: before: a run with that value keeps its id (`schedsim.app.study.RunConfig.identity`).
    LATER_PARAMS: ClassVar[dict[str, object]] = dict(GLTS.LATER_PARAMS)

    def __init__(
        self,
        inner: str = "ssp",
        seed: int = 0,
        interval: float = 3600.0,
        medium_share: float = 0.3,
        short_slice: float = 600.0,
        switch: float = 60.0,
        short_max: float = SHORT_MAX,
        medium_max: float = MEDIUM_MAX,
        non_type_backfill: bool = True,
        max_sl: float = MAX_SL,
        self_sl2: float = SELF_SL2,
        f_slack: float = 1.5,
        adjust: float = 0.75,
        min_utilgain: float = 0.45,
        block_size: int = 16,
        matched_larger: float = 0.125,
        running_prim_num: int = 8,
        matched_longer: float = 3000.0,
        pair_best: PairBest = "gain",
        pair_tries: PairTries = "until_pass",
        pair_sharing: PairSharing = "choose",
        self_and_cos: SelfAndCos = "product",
    ) -> None:
        if inner not in INNER:
            raise ValueError(f"inner must be one of {', '.join(INNER)}, got {inner!r}")
        if not 0.0 < medium_share < 1.0:
            raise ValueError(f"medium_share must be in (0, 1), got {medium_share}")
        if not (interval > 0 and 0 <= short_slice < interval and switch >= 0):
            raise ValueError("interval > 0, 0 <= short_slice < interval and switch >= 0")
        if not 0 < short_max <= medium_max:
            raise ValueError("0 < short_max <= medium_max")
        self.inner = inner
        self.seed = int(seed)
        self.interval = float(interval)
        self.medium_share = float(medium_share)
        self.short_slice = float(short_slice)
        self.switch = float(switch)
        self.short_max = float(short_max)
        self.medium_max = float(medium_max)
        self.non_type_backfill = bool(non_type_backfill)
        common: dict[str, Any] = {"seed": self.seed, "max_sl": max_sl, "self_sl2": self_sl2,
                                  "f_slack": f_slack, "adjust": adjust,
                                  "self_and_cos": self_and_cos}  # fmt: skip
        cls, variant = INNER[inner]
        if variant is None and (pair_best, pair_tries, pair_sharing) != (
            "gain", "until_pass", "choose"
        ):  # fmt: skip
            raise ValueError(
                f"pair_best, pair_tries and pair_sharing are CST's and CSTWS's, not {inner}'s"
            )
        extra: dict[str, Any] = {}
        if variant is not None:
            extra = {
                "min_utilgain": min_utilgain,
                "block_size": block_size,
                "matched_larger": matched_larger,
                "running_prim_num": running_prim_num,
                "matched_longer": matched_longer,
                "short_max": short_max,
                "variant": variant,
                "pair_best": pair_best,
                "pair_tries": pair_tries,
                "pair_sharing": pair_sharing,
            }
        #: One planner per virtual machine.
        self.vms: dict[JobType, NodePlanner] = {t: cls(**common, **extra) for t in TYPES}
        self._params = {**common, **extra}
        self._params.pop("variant", None)
        self._params.pop("short_max", None)
        for key, before in self.LATER_PARAMS.items():  # shown only when read otherwise
            if self._params.get(key) == before:
                self._params.pop(key)
        #: Each machine's clock at the end of its last slice (or now, in its slice).
        self._vclock: dict[JobType, float] = dict.fromkeys(TYPES, 0.0)
        self._type: dict[int, JobType] = {}
        self._vsubmit: dict[int, float] = {}
        self._vend: dict[int, float] = {}
        #: Jobs started, not ended, per type: the machine's running jobs (preempted or not).
        self._active: dict[JobType, set[int]] = {t: set() for t in TYPES}
        self._waiting: dict[JobType, set[int]] = {t: set() for t in TYPES}
        self._ended_for: dict[JobType, list[JobView]] = {t: [] for t in TYPES}
        self._rate: dict[int, float] = {}
        self._plan: list[tuple[JobType, float]] = []
        self._slices: list[Slice] = []
        self._slice: Slice | None = None
        self._how: dict[int, str] = {}
        #: job id -> times it was resumed in another type's slice.
        self._resumed_elsewhere: dict[int, int] = {}
        #: Machines whose plan is out of date: arrivals or ends (brought up to date at
        #: once: R_est is estimated at arrival), or a job's progress outside its
        #: machine's slice (brought up to date when non-type backfilling reads the plan).
        self._dirty: set[JobType] = set()
        self._stale: set[JobType] = set()
        self._gone: set[int] = set()
        #: Per machine: its started jobs' allocations when last grouped, and the groups
        #: (`_units`).
        self._sharing: dict[JobType, tuple[list[Allocation | None], list[list[int]]]] = {}

    # -- reporting -----------------------------------------------------------------------
    def params(self) -> dict[str, Any]:
        return {
            "inner": self.inner,
            "interval": self.interval,
            "medium_share": self.medium_share,
            "short_slice": self.short_slice,
            "switch": self.switch,
            "short_max": self.short_max,
            "medium_max": self.medium_max,
            "non_type_backfill": self.non_type_backfill,
            **self._params,
        }

    def _group_offsets(self) -> dict[JobType, int]:
        out, k = {}, 0
        for t in TYPES:
            out[t] = k
            vm = self.vms[t]
            k += len(vm.groups) if isinstance(vm, GLTS) else 0
        return out

    def job_columns(self) -> dict[str, dict[int, Any]]:
        out: dict[str, dict[int, Any]] = {}
        offsets = self._group_offsets()
        for t in TYPES:
            for name, column in self.vms[t].job_columns().items():
                if name == "group":
                    column = {j: g + offsets[t] for j, g in column.items()}
                out.setdefault(name, {}).update(column)
        out["job_type"] = dict(self._type)
        out["v_submit"] = dict(self._vsubmit)
        out["v_end"] = dict(self._vend)
        r_est = out.get("r_est", {})
        out["delay_factor"] = {
            j: (self._vend[j] - self._vsubmit[j]) / r_est[j]
            for j in self._vend
            if r_est.get(j, 0.0) > 0
        }
        out.setdefault("cos_case", {}).update(self._how)
        out["non_type_resumes"] = {j: self._resumed_elsewhere.get(j, 0) for j in self._type}
        return out

    def tables(self) -> dict[str, tuple[Sequence[str], Sequence[tuple]]]:
        columns = ("slice", "type", "start", "useful", "end", "ended", "reason")
        rows = [(s.index, s.type, s.start, s.useful, s.end, s.ended, s.reason)
                for s in self._slices]  # fmt: skip
        out: dict[str, tuple[Sequence[str], Sequence[tuple]]] = {"slices": (columns, rows)}
        offsets = self._group_offsets()
        groups: list[tuple] = []
        searches: list[tuple] = []
        for t in TYPES:
            vm = self.vms[t]
            if isinstance(vm, GLTS):
                groups += [(g[0] + offsets[t], t, *g[1:]) for g in vm.groups]
                searches += [(t, *row) for row in vm.searches]
        if isinstance(self.vms["long"], GLTS):
            cols = ("group", "vm", "primary", "matched", "formed", "gain", "disbanded", "reason")
            out["groups"] = (cols, groups)
            out["matchmaking"] = (("vm", *MATCHMAKING), searches)
        return out

    def promises(self) -> list[Reservation]:
        """None: the planners' reservations are in their machines' time, and when a
        machine's time will pass depends on slices not yet decided."""
        return []

    @property
    def slices(self) -> list[Slice]:
        """Every slice so far (`tables`' ``slices``)."""
        return list(self._slices)

    # -- types and clocks ----------------------------------------------------------------
    def job_type(self, job: JobView) -> JobType:
        """Short, medium or long, by the estimate."""
        if job.estimate <= self.short_max:
            return "short"
        return "medium" if job.estimate <= self.medium_max else "long"

    def vclock(self, t: JobType, now: float) -> float:
        """Machine ``t``'s clock at wall time ``now``: it runs only in t's useful slice time."""
        s = self._slice
        if s is not None and s.type == t and now >= s.useful:
            return s.vbase + (min(now, s.end) - s.useful)
        return self._vclock[t]

    def _present(self, t: JobType) -> bool:
        return bool(self._active[t] or self._waiting[t])

    # -- a pass --------------------------------------------------------------------------
    def schedule(self, view: View) -> list[Decision]:
        now = view.now
        dirty = self._dirty
        for job in view.queue:
            if job.id not in self._type:
                t = self.job_type(job)
                self._type[job.id] = t
                self._waiting[t].add(job.id)
                self._vsubmit[job.id] = self.vclock(t, now)
                dirty.add(t)
        for job in view.ended:
            t = self._type[job.id]
            self._vend[job.id] = self.vclock(t, now)
            self._active[t].discard(job.id)
            self._waiting[t].discard(job.id)
            self._rate.pop(job.id, None)
            self._ended_for[t].append(job)
            dirty.add(t)
        current = self._slice.type if self._slice is not None else None
        for job in view.running:
            self._rate[job.id] = job.rate
            if self._type[job.id] != current:
                self._stale.add(self._type[job.id])  # it ran outside its machine's slice
        out: list[Decision] = []
        self._gone = set()  # jobs suspended in this pass: preempted from here on
        s = self._slice
        if s is not None:
            if now >= s.end:
                self._end_slice(view, s, "slice over", out)
            elif now >= s.useful and not self._present(s.type):
                self._end_slice(view, s, "no job left", out)
        if self._slice is None:
            self._next_slice(view, out)
        s = self._slice
        if s is None:
            self._observe_all(view, None)
            return out
        timers = view.timers
        for wake in (s.useful, s.end):
            if wake > now and wake not in timers:
                out.append(WakeAt(wake))
        if now < s.useful or any(j.allocation is not None for j in view.suspended):
            self._observe_all(view, None)  # the switch is under way
            return out
        self._in_slice(view, s, out)
        return out

    def _end_slice(self, view: View, s: Slice, reason: str, out: list[Decision]) -> None:
        now = view.now
        self._vclock[s.type] = self.vclock(s.type, now)
        s.ended, s.reason = now, reason
        self._slice = None
        for job in view.running:
            out.append(Suspend(job, penalty=self.switch))
            self._gone.add(job.id)

    def _running(self, view: View) -> list[JobView]:
        """The jobs running now, after this pass's suspensions."""
        return [j for j in view.running if j.id not in self._gone]

    def _home(self, job: JobView) -> Allocation | None:
        """Where a preempted job resumes (None: running, or still writing out)."""
        if job.id in self._gone:
            return job.allocation
        return job.home if job.state is State.SUSPENDED and job.allocation is None else None

    def _next_slice(self, view: View, out: list[Decision]) -> None:
        now = view.now
        while self._plan and not self._present(self._plan[0][0]):
            self._plan.pop(0)
        if not self._plan:
            self._plan = self._interval()
        if not self._plan:
            return
        t, length = self._plan.pop(0)
        gone = [j for j in view.running if j.id in self._gone]
        cost = max((view.suspend_cost(j, self.switch) for j in gone), default=0.0)
        useful = now + cost
        s = Slice(len(self._slices), t, now, useful, useful + max(length - cost, 0.0),
                  self._vclock[t])  # fmt: skip
        self._slices.append(s)
        self._slice = s

    def _interval(self) -> list[tuple[JobType, float]]:
        """The slices of an interval starting now (module docstring)."""
        rest = self.interval
        out: list[tuple[JobType, float]] = []
        if self._waiting["short"]:
            out.append(("short", self.short_slice))
            rest -= self.short_slice
        medium, long = self._present("medium"), self._present("long")
        if medium and long:
            out += [("medium", rest * self.medium_share), ("long", rest * (1 - self.medium_share))]
        elif medium or long:
            out.append(("medium" if medium else "long", rest))
        elif out:
            out[0] = ("short", self.interval)
        elif self._present("short"):  # only preempted short jobs: a short slice for them
            out.append(("short", self.interval))
        return out

    # -- the virtual machines ------------------------------------------------------------
    def _vview(self, view: View, t: JobType, v: float, blockers: Sequence[JobView]) -> View:
        """Machine t's view at its clock ``v``: its jobs in its time, other jobs running in
        its slice (``blockers``) busy until the slice's end.

        Made at nearly every pass for one machine or more, so its jobs are copied with
        `_as_running`, `_blocking` and `_resubmitted` and the view with
        `schedsim.model.view.new_view`, not with the named tuples' ``_replace``."""
        now = view.now
        held = 0  # cores the jobs below hold: what the free array sums to is the rest
        on: list[np.ndarray] = []  # their allocations' nodes and cores, taken off at once
        cores: list[np.ndarray] = []
        running: list[JobView] = []
        get, gone, vsubmit, rates = view.get, self._gone, self._vsubmit, self._rate
        for jid in self._active[t]:
            job = get(jid)
            if job is None:
                continue
            live = job.state is _RUNNING and jid not in gone
            alloc = job.allocation if live else self._home(job)
            if alloc is None:
                continue
            done = _work_now(job, now)
            rate = job.rate if live else rates.get(jid, 1.0)
            if live and job.expected_end < INF:
                end = v + (job.expected_end - now)
            else:
                end = v + max(job.estimate - done, 0.0) / max(rate, 1e-12)
            running.append(_as_running(job, vsubmit[jid], alloc, v, rate, done, end))
            on.append(alloc.nodes)
            cores.append(alloc.cores)
            held += alloc.size
        s = self._slice
        for job in blockers:  # busy until they end or the slice does
            alloc = job.allocation
            assert alloc is not None and s is not None
            running.append(_blocking(job, v, v + min(job.expected_end, s.end) - now))
            on.append(alloc.nodes)
            cores.append(alloc.cores)
            held += alloc.size
        free = np.empty(view.nodes, dtype=np.int64)
        free.fill(view.cores_per_node)
        if on:  # (a node shared by a group's jobs loses the cores of each)
            np.subtract.at(free, np.concatenate(on), np.concatenate(cores))
        running.sort(key=_job_id)
        types = self._type
        queue = tuple(_resubmitted(j, vsubmit[j.id]) for j in view.queue if types[j.id] == t)
        free.flags.writeable = False
        ended = tuple(self._ended_for[t])
        self._ended_for[t] = []
        return new_view(now=v, queue=queue, running=tuple(running), suspended=(), arrived=(),
                        ended=ended, free_cores=view.nodes * view.cores_per_node - held,
                        free_per_node=free, nodes=view.nodes, cores_per_node=view.cores_per_node,
                        overhead=view.overhead, killed=(), released=(), requeued=(),
                        timers=frozenset())  # fmt: skip

    def _observe_all(self, view: View, current: JobType | None) -> None:
        """Bring the plans of the machines out of their slice up to date: arrivals get
        their R_est when they arrive (the machine's clock stands still meanwhile)."""
        for t in TYPES:
            if t != current and t in self._dirty:
                self._observe(view, t)

    def _observe(self, view: View, t: JobType) -> None:
        self._dirty.discard(t)
        self._stale.discard(t)
        self.vms[t].observe(self._vview(view, t, self._vclock[t], ()))

    def _in_slice(self, view: View, s: Slice, out: list[Decision]) -> None:
        now, t = view.now, s.type
        v = self.vclock(t, now)
        for jid in sorted(self._active[t]):
            job = view.get(jid)
            if job is not None and self._home(job) is not None:
                out.append(Resume(job))
        blockers = [j for j in self._running(view) if self._type[j.id] != t]
        vm = self.vms[t]
        self._dirty.discard(t)
        self._stale.discard(t)
        for d in vm.schedule(self._vview(view, t, v, blockers)):
            if isinstance(d, Start):
                real = view.get(d.job.id)
                assert real is not None
                out.append(Start(real, d.allocation))
                self._waiting[t].discard(real.id)
                self._active[t].add(real.id)
            elif isinstance(d, WakeAt):
                wall = now + (d.time - v)
                if now < wall < s.end:  # (rounding can bring a near timer back to now)
                    out.append(WakeAt(wall))
        self._observe_all(view, t)
        if self.non_type_backfill:
            self._backfill(view, s, out)

    # -- safe non-type slice backfilling -------------------------------------------------
    def _backfill(self, view: View, s: Slice, out: list[Decision]) -> None:
        now, t = view.now, s.type
        v = self.vclock(t, now)
        left = s.end - now
        plan = self.vms[t].plan_profile()  # free nodes of machine t, in its time
        if plan.free_at(v) <= 0:
            return  # every backfill needs a node of t's now
        plan = plan.copy()

        def room(k: int, need: float) -> bool:
            """Whether k nodes are free in t's plan while a job needs them (at most until
            the slice's end); if so they are taken there."""
            window = min(need, left)
            if plan.min_free(v, v + window) < k:
                return False
            plan.reserve(v, window, k)
            return True

        cpn = view.cores_per_node
        free = np.array(view.free_per_node, dtype=np.int64)
        for d in out:  # what this pass suspends (at no cost), resumes and starts
            if isinstance(d, Suspend) and d.job.allocation is not None:
                free[d.job.allocation.nodes] += d.job.allocation.cores
            elif isinstance(d, Start) and d.allocation is not None:
                free[d.allocation.nodes] -= d.allocation.cores
            elif isinstance(d, Resume) and (home := self._home(d.job)) is not None:
                free[home.nodes] -= home.cores
        whole = free == cpn
        for u in TYPES:  # preempted jobs first, a group of jobs sharing nodes as a unit
            if u == t:
                continue
            for unit in self._units(view, u):
                homes = [h.nodes for j in unit if (h := self._home(j)) is not None]
                # Home by home (most units fail, and cheaply), then their union.
                if not all(count_nonzero(whole[h]) == len(h) for h in homes):
                    continue
                nodes = list(set().union(*(h.tolist() for h in homes)))
                need = max(self._left(j, now) for j in unit)
                if not room(len(nodes), need):
                    continue
                for job in unit:
                    out.append(Resume(job))
                    self._resumed_elsewhere[job.id] = self._resumed_elsewhere.get(job.id, 0) + 1
                whole[nodes] = False
        # Nodes of each machine's started jobs, once a pass: a job started below takes
        # nodes no longer whole, so it needs no update.
        started_on: dict[JobType, np.ndarray] = {}
        #: Whole nodes free of machine u's started jobs: the same for all of u's jobs
        #: until a start takes some of them.
        cands: dict[JobType, np.ndarray] = {}
        for job in view.queue:  # then waiting jobs, FCFS
            u = self._type[job.id]
            if u == t or job.id not in self._waiting[u]:
                continue
            vm = self.vms[u]
            if u in self._stale:
                self._observe(view, u)
            k, span, ppn = vm.shape(job.id)
            cand = cands.get(u)
            if cand is None:
                if u not in started_on:
                    started_on[u] = self._homes(view, u)
                cand = cands[u] = np.flatnonzero(whole & ~started_on[u])
            if len(cand) < k or plan.min_free(v, v + min(span, left)) < k:
                continue
            vu = self._vclock[u]
            if vm.plan_profile(skip=frozenset((job.id,))).min_free(vu, vu + span) < k:
                continue  # it would delay a job of its own type
            if not room(k, span):
                continue
            chosen = cand[:k].tolist()
            out.append(Start(job, layout(job.size, ppn, chosen)))
            vm.taken_elsewhere(job.id, k, span)
            self._waiting[u].discard(job.id)
            self._active[u].add(job.id)
            self._how[job.id] = "non-type"
            whole[chosen] = False
            cands.clear()

    def _left(self, job: JobView, now: float) -> float:
        """Seconds a started job still needs by its estimate, at its last rate."""
        rate = self._rate.get(job.id, 1.0)
        return max(job.estimate - _work_now(job, now), 0.0) / max(rate, 1e-12)

    def _homes(self, view: View, u: JobType) -> np.ndarray:
        """Nodes holding machine u's started jobs (their own nodes, to resume on)."""
        mask = np.zeros(view.nodes, dtype=bool)
        for jid in self._active[u]:
            job = view.get(jid)
            alloc = None if job is None else (job.allocation or job.home)
            if alloc is not None:
                mask[alloc.nodes] = True
        return mask

    def _units(self, view: View, u: JobType) -> list[list[JobView]]:
        """Machine u's preempted jobs in units: jobs sharing a node go together."""
        jobs = [j for jid in sorted(self._active[u]) if (j := view.get(jid)) is not None]
        allocs = [j.allocation if j.allocation is not None else j.home for j in jobs]
        # The groups depend on the allocations alone, which change only when u's
        # started jobs do (a job keeps its nodes: no migration): made again only then.
        memo = self._sharing.get(u)
        if (
            memo is None
            or len(memo[0]) != len(allocs)
            or any(a is not b for a, b in zip(memo[0], allocs, strict=True))
        ):
            memo = self._sharing[u] = (allocs, _sharing(allocs))
        home = self._home
        units = ([jobs[i] for i in group] for group in memo[1])
        # A unit goes only when all of it is preempted and written out.
        return [unit for unit in units if all(home(j) is not None for j in unit)]


def _sharing(allocs: Sequence[Allocation | None]) -> list[list[int]]:
    """The indexes of ``allocs`` in groups of allocations sharing nodes, transitively
    (each group ascending, the groups in the order of their first index)."""
    owner: dict[int, int] = {}
    parent = list(range(len(allocs)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, alloc in enumerate(allocs):
        assert alloc is not None
        for n in alloc.nodes.tolist():
            if n in owner:
                parent[find(i)] = find(owner[n])
            else:
                owner[n] = i
    groups: dict[int, list[int]] = {}
    for i in range(len(allocs)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())
