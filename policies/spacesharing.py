"""Standard space sharing (SSP) on multi-core nodes, and the plan G-LOMARC-TS builds on.

Zeng and Sodan, "Job Scheduling with Lookahead Group Matchmaking for
Time/Space Sharing on Multi-core Parallel Machines" (JSSPP 2009; this
project's seed 003), sections 4.1, 4.3, 4.7 and 5.1, Table 6 (G-LOMARC-TS
itself: `schedsim.policies.glts`). Run them with the paper's contention
model, `schedsim.model.slowdowns.StatisticalContention`, on nodes of 4
cores and without killing at the estimate (a slowed job outlives its
estimate)::

    Simulation(w, SSP(seed=s), nodes=128, cores_per_node=4,
               contention=StatisticalContention(s), kill_at_estimate=False)

**What the scheduler knows** (section 3: "sufficient characteristics
information to calculate slowdowns are available"). Each policy holds a
`Slowdowns` of its own, ``model``, built from ``seed``: with the run's seed
it predicts exactly the slowdowns a default `StatisticalContention` of that
seed applies (a job's ``sl_scr``/``sl_sno`` attributes, else the same keyed
draws). ``model`` may be replaced by any `Predictor` (hand-set pairs, or a
`StatisticalContention` with other options). ``self_and_cos`` tells `Slowdowns` how a
job's self and coscheduling slowdowns combine on a node, as the run's model's option of
that name does (``"product"``, its default, or ``"max"``): set both alike, so that the
scheduler predicts what the run applies (the paper never says which; a reading of
`schedsim.papers.zeng2009`). A job's *work* is its
estimate (T_i of Table 1: one process per node, no contention); its planned
duration in a shape is the estimate times the slowdown predicted for that
shape.

**Nodes, not cores, are planned.** Every job here owns whole nodes: alone
(space sharing, one job per node) or in a group (the group owns its nodes;
section 4.5: "Per node, only two jobs are coscheduled"). A node is busy
until the last job on it is planned to end. So the plan is an availability
profile of free *nodes* (`schedsim.policies.planning.profile.Profile`, with
nodes for cores), exact for any set of nodes, and a job whose reservation
comes due always fits.

**Conservative backfilling** (section 4.7, 5.1: "All scheduling approaches
use conservative backfilling"). Every waiting job holds a reservation in
its space-sharing shape (Equation 8's PPN, ``ceil(size / PPN)`` nodes, the
estimate times its self slowdown). At every pass the plan is rebuilt from
the running jobs and the reservations, re-anchored one by one in the order
of their previous starts (ties: arrival order), new arrivals last: without
overruns no job moves later, which is compression ("in the worst case, the
released job would be reinserted in the same position"); a running job
past its planned end moves the plan on (`planned_end`). A job whose
reservation is due starts; a `WakeAt` asks for a pass at the next
reservation.

**R_est** (section 4.1, Table 1) is a job's response time (planned end -
submit) under this plan at the pass it arrives, anchored behind every
earlier reservation, times ``adjust`` (0.75, section 5.1: "an adjustment by
a factor of 0.75 to reflect that ... jobs therefore run on average faster
than estimated"). R_max = ``f_slack`` x R_est (Equation 4).

**SSP** (section 5.1): one job per node, PPN by Equation 8 from the job's
SL_scr, SL_sno and Table 6's MAX_SL and SELF_SL2; a job too large for the
machine at that PPN (possible in hand-made workloads only) is packed at the
next larger PPN that fits (documented choice).

`NodePlanner` is the machinery both families share: the plan, R_est, the
starts; a subclass says how a due job starts (`NodePlanner._launch`).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol

from schedsim.model.cluster import Allocation
from schedsim.model.policy import Decision, Policy, Reservation, Start, WakeAt, register
from schedsim.model.view import JobView, State, View
from schedsim.policies.planning.conservative import duration as plan_duration
from schedsim.policies.planning.conservative import place_each
from schedsim.policies.planning.profile import INF, Profile, planned_end
from schedsim.workloads.job import Job
from schedsim.workloads.multicore import (
    CPUS_PER_NODE,
    MAX_SL,
    SELF_SL2,
    SlowdownDraws,
    processes_per_node,
    self_slowdown,
)

__all__ = [
    "SELF_AND_COS",
    "SSP",
    "Launch",
    "NodePlanner",
    "Predictor",
    "SelfAndCos",
    "Slowdowns",
    "layout",
]

_RUNNING = State.RUNNING


# -- what the scheduler knows of slowdowns (section 3) ----------------------------------------


class Predictor(Protocol):
    """What the policies read of a slowdown model (`Slowdowns`; `StatisticalContention` too)."""

    @property
    def cpus_per_node(self) -> int: ...

    def self_slowdowns(self, job: Job) -> tuple[float, float]: ...

    def cos(self, job_id: int, mate_id: int) -> float: ...

    def node_slowdown(self, job: Job, ppn: int, mates: Iterable[int]) -> float: ...


#: How a job's self and coscheduling slowdowns combine on a node (`Slowdowns`).
SelfAndCos = Literal["product", "max"]
SELF_AND_COS: tuple[str, ...] = ("product", "max")


class Slowdowns(SlowdownDraws):
    """The slowdowns `schedsim.model.slowdowns.StatisticalContention` applies with its
    defaults (directed pairs, a job's self slowdown times its worst mate's SL_cos; with
    ``self_and_cos="max"`` the larger of the two, as the model's option of that name), from
    the same draws (`schedsim.workloads.multicore.SlowdownDraws`): with the run's seed,
    what the scheduler predicts is what the run does. (Policies may not import the
    model's contention module, which sits on the simulation's side.) ``pairs`` sets
    SL_cos by hand, ``(job, mate) -> slowdown of job next to mate``."""

    def __init__(
        self,
        seed: int,
        *,
        cpus_per_node: int = CPUS_PER_NODE,
        pairs: Mapping[tuple[int, int], float] | None = None,
        self_and_cos: SelfAndCos = "product",
    ) -> None:
        super().__init__(seed, pairs=pairs)
        if self_and_cos not in SELF_AND_COS:
            raise ValueError(
                f"self_and_cos must be one of {', '.join(SELF_AND_COS)}, got {self_and_cos!r}"
            )
        self.cpus_per_node = cpus_per_node
        self.self_and_cos: SelfAndCos = self_and_cos

    def node_slowdown(self, job: Job, ppn: int, mates: Iterable[int]) -> float:
        """The slowdown of ``job`` with ``ppn`` processes on a node shared with ``mates``."""
        scr, sno = self.self_slowdowns(job)
        own = self_slowdown(ppn, scr, sno, self.cpus_per_node)
        others = [self.cos(job.id, m) for m in mates]
        if not others:
            return own
        return own * max(others) if self.self_and_cos == "product" else max(own, *others)


# -- the shared machinery: a plan of whole nodes ---------------------------------------


def _first(pair: tuple[float, list[int]]) -> float:
    return pair[0]


@dataclass(slots=True)
class Launch:
    """A job to start now: where, its PPN, its planned end, how (the case)."""

    job: JobView
    nodes: list[int]
    ppn: int
    end: float
    case: str
    #: False for a running job a group takes in (Cases 2 and 3): nothing to start.
    start: bool = True
    #: Its planned end before (running jobs; waiting ones: by their reservation).
    old_end: float = -INF


def layout(size: int, ppn: int, nodes: list[int]) -> Allocation:
    """``size`` processes, ``ppn`` per node over ``nodes`` (the last node gets the rest)."""
    cores = [ppn] * len(nodes)
    cores[-1] = size - ppn * (len(nodes) - 1)
    return Allocation.on(nodes, cores)


class NodePlanner(Policy):
    """Conservative backfilling over whole nodes; subclasses choose how a due job starts.
    ``self_and_cos``: how the slowdowns it predicts combine (`Slowdowns`)."""

    #: Parameters added after run ids were published, with the value that behaves as
    #: before: a run with that value keeps its id (`schedsim.app.study.RunConfig.identity`).
    LATER_PARAMS: ClassVar[dict[str, object]] = {"self_and_cos": "product"}

    def __init__(
        self,
        seed: int = 0,
        max_sl: float = MAX_SL,
        self_sl2: float = SELF_SL2,
        f_slack: float = 1.5,
        adjust: float = 0.75,
        self_and_cos: SelfAndCos = "product",
    ) -> None:
        if not (max_sl > 0 and self_sl2 > 0 and f_slack > 0 and adjust > 0):
            raise ValueError("max_sl, self_sl2, f_slack and adjust must be positive")
        self.seed = int(seed)
        self.max_sl = float(max_sl)
        self.self_sl2 = float(self_sl2)
        self.f_slack = float(f_slack)
        self.adjust = float(adjust)
        #: The slowdowns the scheduler predicts with (module docstring).
        self.model: Predictor = Slowdowns(self.seed, self_and_cos=self_and_cos)
        self.self_and_cos: SelfAndCos = self_and_cos
        #: Waiting jobs in reservation order.
        self._order: list[int] = []
        self._jobs: dict[int, JobView] = {}
        #: job id -> (nodes, planned duration, PPN) of its space-sharing reservation.
        self._shape: dict[int, tuple[int, float, int]] = {}
        #: job id -> estimated response time under the plan at arrival (unadjusted).
        self.r_est: dict[int, float] = {}
        self._starts: dict[int, float] = {}
        self._case: dict[int, str] = {}
        self._ppn: dict[int, int] = {}
        self._cores_per_node = 0
        self._nodes = 0
        self._node_end: dict[int, float] = {}
        #: The base profile of the last pass (with its starts) and its time.
        self._last: tuple[Profile, float] = (Profile(0.0, 0), 0.0)
        #: The plan of the last pass as it ended (None: changed since).
        self._final: Profile | None = None

    def params(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "max_sl": self.max_sl,
            "self_sl2": self.self_sl2,
            "f_slack": self.f_slack,
            "adjust": self.adjust,
            # Shown only when read otherwise (`LATER_PARAMS`): earlier runs keep their ids.
            **({"self_and_cos": self.self_and_cos} if self.self_and_cos != "product" else {}),
        }

    def job_columns(self) -> dict[str, dict[int, Any]]:
        return {
            "cos_case": dict(self._case),
            "ppn": dict(self._ppn),
            "r_est": {j: r * self.adjust for j, r in self.r_est.items()},
        }

    def promises(self) -> list[Reservation]:
        """Every waiting job's reservation after the pass, in its space-sharing shape, as
        whole nodes' cores (``size``). SSP keeps them (conservative backfilling; a
        plan slips only when a job outlives its planned end); G-LOMARC-TS may move a
        job later, within its R_max (`schedsim.policies.glts`)."""
        cpn, starts, shape = self._cores_per_node, self._starts, self._shape
        out = []
        for jid in self._order:
            if jid in starts:
                nodes, span, _ = shape[jid]
                out.append(Reservation(jid, starts[jid], starts[jid] + span, nodes * cpn))
        return out

    def r_max(self, job_id: int) -> float:
        """R_max = F_slack x R_est, R_est adjusted by ``adjust`` (Equation 4)."""
        return self.f_slack * self.adjust * self.r_est[job_id]

    # -- shapes ------------------------------------------------------------------------
    def space_ppn(self, job: JobView) -> int:
        """Equation 8's PPN (capped by the node), raised when the job would not fit."""
        scr, sno = self.model.self_slowdowns(job.job)
        cpn = self._cores_per_node
        ppn = min(processes_per_node(job.size, scr, sno, max_sl=self.max_sl,
                                     self_sl2=self.self_sl2), cpn)  # fmt: skip
        while ppn < cpn and math.ceil(job.size / ppn) > self._nodes:
            ppn = min(ppn * 2, cpn)
        return ppn

    def _self_sl(self, job: JobView, ppn: int) -> float:
        scr, sno = self.model.self_slowdowns(job.job)
        return self_slowdown(ppn, scr, sno, self.model.cpus_per_node)

    def _space_shape(self, job: JobView) -> tuple[int, float, int]:
        ppn = self.space_ppn(job)
        span = plan_duration(job.estimate * self._self_sl(job, ppn))
        return math.ceil(job.size / ppn), span, ppn

    # -- the plan ----------------------------------------------------------------------
    def _base(self, view: View) -> tuple[Profile, list[int]]:
        """The profile of free nodes the running jobs leave, and the free nodes now.

        A node is busy until the latest planned end of the jobs on it (a suspended job
        still writing out: for ever). Plain Python over the few jobs a pass holds:
        numpy's per-call cost made this several times dearer (Scojo-PECT builds a base
        for a virtual machine at nearly every pass)."""
        now = view.now
        held: list[tuple[float, list[int]]] = []
        for jobs in (view.running, view.suspended):
            for job in jobs:
                alloc = job.allocation
                if alloc is None:
                    continue
                e = job.expected_end if job.state is _RUNNING else INF
                held.append((e if e > now else planned_end(e, now), alloc.nodes.tolist()))
        # Later ends overwrite earlier ones: each node keeps its latest.
        held.sort(key=_first)
        #: node -> when it is planned free (busy nodes only), kept up to date in the pass.
        node_end: dict[int, float] = {}
        for e, nodes in held:
            node_end.update(dict.fromkeys(nodes, e))
        self._node_end = node_end
        free = (view.free_per_node == view.cores_per_node).nonzero()[0].tolist()
        # One step per distinct planned end, where the nodes planned free by then join
        # the free ones: what `Profile.of_running` makes of them, built here without
        # the objects it reads.
        ends = sorted(node_end.values())
        profile = Profile(now, len(free))
        times, levels = profile.times, profile.free
        for e in dict.fromkeys(ends):
            if e == INF:
                break
            times.append(e)
            levels.append(len(free) + bisect_right(ends, e))
        profile.total = len(free) + bisect_left(ends, INF)
        return profile, free

    def _plan(self, base: Profile, now: float, skip: frozenset[int] = frozenset()) -> Profile:
        """Anchor every waiting job in reservation order on a copy of ``base``."""
        profile = base.copy()
        order = [j for j in self._order if j not in skip] if skip else self._order
        shape = self._shape
        placed = place_each(profile, [shape[j][:2] for j in order], now)
        self._starts.update(zip(order, placed, strict=True))
        return profile

    # -- a pass ------------------------------------------------------------------------
    def _take_in(self, view: View) -> list[int]:
        """Start of a pass: ended jobs let go, the queue read; the ids new to it."""
        self._cores_per_node, self._nodes = view.cores_per_node, view.nodes
        self._ended(view)
        queued = {j.id for j in view.queue}
        self._order = [j for j in self._order if j in queued]
        new: list[int] = []
        for job in view.queue:
            self._jobs[job.id] = job
            if job.id not in self._shape:
                self._shape[job.id] = self._space_shape(job)
                self._order.append(job.id)
                new.append(job.id)
        return new

    def _estimate(self, new: list[int]) -> None:
        """R_est of the new jobs, from the plan just made (anchored behind every
        earlier reservation)."""
        for jid in new:
            job = self._jobs[jid]
            self.r_est[jid] = self._starts[jid] + self._shape[jid][1] - job.submit

    def observe(self, view: View) -> None:
        """A pass that starts nothing: ended jobs let go, arrivals planned and given
        their R_est (Scojo-PECT's virtual machines out of their slice,
        `schedsim.policies.scojo`). `plan_profile` then reads this plan."""
        new = self._take_in(view)
        base, _ = self._base(view)
        self._last = (base, view.now)
        self._final = self._plan(base, view.now)
        self._estimate(new)
        starts = self._starts
        self._order.sort(key=lambda j: starts[j])

    def plan_profile(self, skip: frozenset[int] = frozenset()) -> Profile:
        """Free nodes over time after the last pass or `observe`: the running jobs,
        what the pass started and every reservation (but those of ``skip``)."""
        if not skip and self._final is not None:
            return self._final
        base, now = self._last
        return self._plan(base, now, skip)

    def shape(self, job_id: int) -> tuple[int, float, int]:
        """A waiting job's space-sharing shape: (nodes, planned duration, PPN)."""
        return self._shape[job_id]

    def taken_elsewhere(self, job_id: int, nodes: int, span: float) -> None:
        """A waiting job started by someone else (Scojo-PECT's non-type slice
        backfilling) on ``nodes`` nodes for ``span`` seconds from the last pass's
        time: planned as running, no longer reserved."""
        base, now = self._last
        base.reserve(now, span, nodes)
        self._final = None
        self._order.remove(job_id)
        self._jobs.pop(job_id, None)

    def schedule(self, view: View) -> list[Decision]:
        now = view.now
        new = self._take_in(view)
        base, free = self._base(view)
        self._last = (base, now)
        self._begin_pass(view)
        out: list[Decision] = []
        first = True
        while True:
            self._final = self._plan(base, now)
            if first:
                self._estimate(new)
                first = False
            starts = self._starts
            self._order.sort(key=lambda j: starts[j])  # stable: ties keep their order
            due = next((j for j in self._order if starts[j] <= now), None)
            launches = (
                self._launch(view, self._jobs[due], base, free)
                if due is not None
                else self._early(view, base, free)
            )
            if not launches:
                break
            for launch in launches:
                self._start(launch, free, out)
        later = [starts[j] for j in self._order if starts[j] > now]
        if later:
            out.append(WakeAt(min(later)))
        return out

    def _start(self, launch: Launch, free: list[int], out: list[Decision]) -> None:
        if not launch.start:
            return
        job = launch.job
        taken = set(launch.nodes)  # a group's members share nodes: each leaves once
        free[:] = [n for n in free if n not in taken]
        out.append(Start(job, layout(job.size, launch.ppn, launch.nodes)))
        self._order.remove(job.id)
        self._case[job.id] = launch.case
        self._ppn[job.id] = launch.ppn
        self._jobs.pop(job.id, None)

    @staticmethod
    def _occupy(
        profile: Profile, now: float, node_ends: dict[int, float], known: dict[int, float]
    ) -> None:
        """Plan the nodes busy until ``node_ends``: a free node from now, a busy one
        (``known``: node -> planned free) from its planned end on; ``known`` follows."""
        for n, end in node_ends.items():
            old = known.get(n)
            if old is None:
                profile.reserve(now, max(end - now, 0.0) or plan_duration(0.0), 1)
                known[n] = end
            elif end > old:
                if old < INF:
                    profile.reserve(old, end - old, 1)
                known[n] = end

    def _begin_pass(self, view: View) -> None:
        """Called once a pass, after the plan's base is made (GLTS: who may host)."""

    def _early(self, view: View, base: Profile, free: list[int]) -> list[Launch]:
        """Launches for a job whose reservation is not due (GLTS: Cases 2 and 3)."""
        return []

    def _space(self, job: JobView, free: list[int], now: float) -> Launch:
        nodes, span, ppn = self._shape[job.id]
        case = "case5" if ppn == self._cores_per_node else "case4"
        return Launch(job, free[:nodes], ppn, now + span, case)

    def _launch(
        self, view: View, job: JobView, base: Profile, free: list[int]
    ) -> list[Launch]:  # pragma: no cover - interface
        raise NotImplementedError

    def _ended(self, view: View) -> None:
        for job in view.ended:
            self._shape.pop(job.id, None)
            self._starts.pop(job.id, None)


@register("ssp")
class SSP(NodePlanner):
    """SSP (Zeng & Sodan 2009): one job per node, Equation 8's PPN, conservative backfilling.

    Standard space sharing, FCFS with conservative backfilling over whole
    nodes (module docstring). Parameters: ``seed`` of the slowdowns the scheduler predicts with (the
    run's), ``max_sl`` and ``self_sl2`` (Table 6's MAX_SL 1.25, SELF_SL2
    1.12); ``f_slack`` and ``adjust`` only define the R_max reported.
    """

    def _launch(self, view: View, job: JobView, base: Profile, free: list[int]) -> list[Launch]:
        launch = self._space(job, free, view.now)
        self._occupy(base, view.now, dict.fromkeys(launch.nodes, launch.end), self._node_end)
        return [launch]
