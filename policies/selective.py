"""Selective Suspension's rule (seed 000, sections 3.1-3.3), written once, and ``ss-plain``.

Kettimuthu's thesis (seed 000) preempts rigid jobs on a distributed-memory
machine without migration: a suspended job keeps its nodes and resumes
only there. This module holds the rule of **Selective Suspension** as
functions, and `PlainSelectiveSuspension` (``ss-plain``), a reference
that applies it plainly, a pass at every tick. The accelerated SS
(`schedsim.policies.suspension`, ``ss``), which must make the same
schedule, is built on the same functions; so is TSS
(`schedsim.policies.tunable`), and IS (`schedsim.policies.immediate`)
shares the placement.

**Thresholds** (sections 2.2 and 3.1). A job's suspension threshold is its
xfactor, (wait + estimate) / estimate (`idle_threshold`): it grows while
the job waits or is suspended and stays constant while it runs; here the
value it had when it started or resumed (`running_thresholds`), so that a
restart overhead after that does not move it.

**Candidates** (section 3.3). An idle job T_i (queued, or suspended and
waiting to re-enter) may suspend the running jobs T_j with

* τ_i > SF × τ_j (the suspension factor SF; the thesis uses 1.5 to 5), and
* the width restriction (`width_rule`). Section 3.2's text says "the
  number of processors requested by a suspending job should be at least
  half of the number of nodes requested by the job that it suspends",
  n_i ≥ n_j / 2, so narrow jobs cannot suspend wide ones; this is the
  default (``width="text"``). Section 3.3's formula reads n_i / n_j < 2,
  which instead stops a job from suspending one less than half its width
  (``width="formula"``). ``width="none"`` drops the restriction.

**Victims** (section 3.3, `choose_victims`). T_i suspends a minimal set of
its candidates (the set P: with the free processors they give at least
n_i, and none could be left out), preferring the lowest thresholds. A
suspended job re-entering needs its own nodes: every node of its home must
be free or held by a candidate, and only candidates on its home are
suspended.

**The preemption routine** (section 3.2: "the scheduler periodically
(after every minute) invokes the preemption routine") runs at the clock
times that are multiples of ``interval`` (`is_tick`) while a job is idle,
considering idle jobs in decreasing threshold (then submit time, then id:
`idle_order`). Every scheduling pass also starts (or resumes) any idle job
that fits the free processors, in the same order: section 3.2's "backfill
algorithm without the usual reservation guarantees", since the growing
xfactor already prevents starvation.

**Readings** the thesis leaves open, each a parameter whose default is the
text's (`PlainSelectiveSuspension`; the accelerated ``ss`` runs the plain rule
when one is not the default):

* ``resumed``: the threshold a resumed job runs with. Section 3.1: a threshold
  "remains constant when the task executes and increases when the task
  waits", and a suspended job waits, so it resumes with its xfactor at that
  moment, suspended time included (``"resume"``, the default). ``"start"``
  gives it back the threshold of its first start, so that the time it spent
  suspended helps it re-enter but does not shield it once it runs.
* ``hold``: whether a suspended job that heads the idle jobs (the highest
  threshold) and cannot re-enter has the free cores of its home kept from
  every job after it (``"top"``), like a backfilling reservation; section 3.2
  removes reservations from the preemptive schemes ("start time guarantees do
  not make much significance in a preemptive context"), so ``"none"`` is the
  default.
* ``prefer``: which candidates a fresh job suspends first. Section 3.3 defines
  the victim set only as minimal; the default, ``"threshold"``, takes the
  lowest thresholds first (the most expendable); ``"width"`` the widest, so
  that fewer jobs are suspended and fewer homes pile up on the nodes.

Why SS can lock the machine at high load, as measured on the study's subset
(CTC July 1996, 430 nodes, trace estimates, the thesis's load 1.6 = load
factor 1.28): a resumed job runs with a threshold that includes its
suspension, so the suspended jobs whose homes lie under it cannot out-rank it
(τ_i > SF × τ_j) until they have waited SF times as long, relative to their
estimate; a queued job placed on a suspended job's home (there are soon no
other nodes) is suspended in turn and adds its own home, and the homes pile
up (about 10 per node at the last arrival). By then 106 jobs are suspended,
each blocked by a job on its home that it cannot out-rank (all 257 blocking
pairs involve a job that was resumed), while 102 of the 430 nodes are idle
and the two queued jobs need 300 and 306: the drain is long, and SS's
utilization over the run is 0.58 against EASY's 0.79 (makespan 3.04 against
2.25 Ms). None of the readings above undoes it (same run, ``ss-plain``):

===================  ===========  =====================  =========  ===========
reading              utilization  mean bounded slowdown  worst      suspensions
===================  ===========  =====================  =========  ===========
the text's           0.580        6.60                   8,028      3,311
``hold="top"``       0.574        4.82                   2,512      3,069
``prefer="width"``   0.530        4.31                   1,544      2,680
``resumed="start"``  0.327        22.8                   22,229     565,600
EASY (NS)            0.785        24.1                   2,702      0
===================  ===========  =====================  =========  ===========

Keeping the top job's nodes and suspending fewer, wider jobs shorten the
worst waits but not the drain; giving resumed jobs their first threshold
back makes jobs on shared homes suspend each other at every tick (a
thrashing section 3.1's analysis warns of). The lock follows from the rule
itself, resumption only on the job's own nodes and a threshold that grows
while suspended, so the text's readings stay the defaults; the study
(papers/kettimuthu2003/study.toml) scores each reading against the thesis's claims.

**Placement**, which the thesis leaves open (`Idle.start_if_free`): a fresh
job is placed first fit on free nodes that are no suspended job's home
while there are enough of them, so that it does not keep a suspended job
from re-entering; a job that preempts is placed on its victims' cores first
(`schedsim.policies.preemption.switch_in`). With a suspension overhead
(section 4.1) a victim holds its cores while it writes out, and the job
that suspended it waits for them on a claim
(`schedsim.policies.preemption.Claims`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import ClassVar, Literal

import numpy as np

from schedsim.model.policy import Decision, Policy, Resume, Start, Suspend, View, WakeAt, register
from schedsim.model.view import JobView, State
from schedsim.policies.preemption import (
    Claims,
    fit_avoiding,
    home_victims,
    minimal_victims,
    switch_in,
)

__all__ = [
    "Idle",
    "PlainSelectiveSuspension",
    "Protection",
    "Width",
    "candidates",
    "check_parameters",
    "check_progress",
    "choose_victims",
    "fits_home",
    "home_cores",
    "idle_order",
    "idle_threshold",
    "is_tick",
    "next_tick",
    "running_order",
    "running_thresholds",
    "width_rule",
]

#: The width restriction: section 3.2's text, section 3.3's formula, or none.
Width = Literal["text", "formula", "none"]
#: The threshold a resumed job runs with: its xfactor at resumption, or at its first start.
Resumed = Literal["resume", "start"]
#: Whether the free cores of the home of a suspended job that heads the idle jobs wait for it.
Hold = Literal["none", "top"]
#: Which candidates a fresh job suspends first: the lowest thresholds, or the widest.
Prefer = Literal["threshold", "width"]

#: ``(running job, its threshold) -> True`` when the job may not be suspended
#: whatever an idle job's threshold (TSS, section 3.5); None for SS.
Protection = Callable[[JobView, float], bool] | None


def check_parameters(sf: float, interval: float, width: Width) -> tuple[float, float, Width]:
    """SS's parameters, checked: SF >= 1, a positive finite interval, a known width rule."""
    if not (sf >= 1.0 and math.isfinite(sf)):
        raise ValueError(f"suspension factor sf must be >= 1, got {sf}")
    if not (interval > 0 and math.isfinite(interval)):
        raise ValueError(f"interval must be a positive number of seconds, got {interval}")
    width_rule(width)
    return float(sf), float(interval), width


def check_readings(resumed: str, hold: str, prefer: str) -> tuple[Resumed, Hold, Prefer]:
    """The readings of the rule (`PlainSelectiveSuspension`), checked."""
    for name, value, known in (
        ("resumed", resumed, ("resume", "start")),
        ("hold", hold, ("none", "top")),
        ("prefer", prefer, ("threshold", "width")),
    ):
        if value not in known:
            raise ValueError(f"{name} must be {' or '.join(map(repr, known))}, got {value!r}")
    return resumed, hold, prefer  # type: ignore[return-value]


def check_progress(sf: float, view: View) -> None:
    """Refuse SF = 1 with a suspension overhead: a run that could suspend jobs forever.

    At SF = 1 an idle job may preempt a running one as soon as its threshold
    is higher, by any amount. With no overhead a job then still computes
    between two ticks, but with one, two jobs can suspend each other at every
    tick while each only writes out and reads back, and the run never ends.
    Section 3.3 warns of thrashing at low factors ("in order to avoid
    thrashing ... we use different suspension factors between 1.5 and 5")
    but states no rule that would guarantee progress; above 1 the wait a job
    needs before it preempts back grows by SF² each time, so the run ends.
    """
    if sf == 1.0 and view.overhead is not None:
        raise ValueError(
            "suspension factor sf must be above 1 with a suspension overhead: at sf = 1 two "
            "jobs can suspend each other at every tick without either progressing"
        )


def width_rule(width: Width) -> Callable[[int, int], bool]:
    """Whether a job of n_i processors may suspend one of n_j (section 3.2 / 3.3)."""
    if width == "text":
        return lambda ni, nj: 2 * ni >= nj
    if width == "formula":
        return lambda ni, nj: ni < 2 * nj
    if width == "none":
        return lambda ni, nj: True
    raise ValueError(f"width must be 'text', 'formula' or 'none', got {width!r}")


# -- thresholds ------------------------------------------------------------------


def idle_threshold(job: JobView, now: float) -> float:
    """The threshold now of a job that is not running: its xfactor, (wait + estimate) /
    estimate, its wait being everything but its run time (estimate at least 1e-9)."""
    est = max(job.estimate, 1e-9)
    return (now - job.submit - job.run_time_done + est) / est


def running_thresholds(known: dict[int, float], view: View) -> dict[int, float]:
    """The thresholds of ``view``'s running jobs, by id.

    A running job's threshold is constant: the policy keeps, in ``known``,
    the one each job had when the policy started or resumed it
    (`idle_threshold` then). Jobs that ended are dropped from ``known``; if
    it then does not hold every running job (a policy's first pass), the
    others get their xfactor now. Returns ``known`` or a new dict.
    """
    for job in view.ended:
        known.pop(job.id, None)
    if len(known) != len(view.running):
        now = view.now
        return {r.id: known.get(r.id) or r.xfactor(now) for r in view.running}
    return known


def idle_order(job: JobView, now: float) -> tuple[float, float, int]:
    """Sort key of idle jobs: decreasing threshold, then submit time, then id."""
    return (-idle_threshold(job, now), job.submit, job.id)


def running_order(pair: tuple[float, JobView]) -> tuple[float, float, int]:
    """Sort key of ``(threshold, running job)``: the most expendable first.

    Increasing threshold; between equal thresholds the later submitted, then
    the higher id.
    """
    tau, job = pair
    return (tau, -job.submit, -job.id)


# -- the preemption routine's clock ----------------------------------------------


def is_tick(time: float, interval: float) -> bool:
    """Whether the preemption routine runs at clock ``time``: a multiple of ``interval``."""
    return round(time / interval) * interval == time


def next_tick(time: float, interval: float) -> float:
    """The smallest multiple of ``interval`` strictly after ``time``."""
    k = math.floor(time / interval) + 1
    while k * interval <= time:
        k += 1
    return k * interval


# -- candidates and victims ------------------------------------------------------


def candidates(
    size: int,
    tau: float,
    running: Sequence[tuple[float, JobView]],
    sf: float,
    may_suspend: Callable[[int, int], bool],
    protected: Protection = None,
) -> list[JobView]:
    """The running jobs an idle job of ``size`` and threshold ``tau`` may suspend.

    ``running`` holds ``(threshold, job)`` in `running_order`: those of
    threshold below ``tau`` / SF (τ_i > SF × τ_j) that the width rule lets
    it suspend and that are not ``protected``, in that order.
    """
    bar = tau / sf
    out = []
    for t, r in running:
        if not t < bar:  # sorted by threshold: no later job qualifies either
            break
        if may_suspend(size, r.size) and (protected is None or not protected(r, t)):
            out.append(r)
    return out


def choose_victims(
    job: JobView,
    tau: float,
    avail: np.ndarray,
    running: Sequence[tuple[float, JobView]],
    sf: float,
    may_suspend: Callable[[int, int], bool],
    protected: Protection = None,
    prefer: Prefer = "threshold",
) -> list[JobView] | None:
    """The jobs idle ``job`` (threshold ``tau``) suspends to run now, or None (section 3.3).

    ``avail`` are the free cores per node, ``running`` the jobs it may
    suspend as in `candidates`. A fresh job takes a minimal set of its
    candidates, lowest thresholds first (``prefer="width"``: the widest
    first, so fewer jobs are suspended); a suspended one must get its home
    back, by suspending the jobs on it, all of which must be candidates.
    """
    cands = candidates(job.size, tau, running, sf, may_suspend, protected)
    if not cands:
        return None
    if prefer == "width":
        cands.sort(key=lambda r: -r.size)  # stable: equal widths keep the threshold order
    if job.state is State.SUSPENDED:
        home = job.home
        assert home is not None
        allowed = {r.id for r in cands}
        return home_victims(home, avail, (r for _, r in running), lambda r: r.id in allowed)
    return minimal_victims(job.size, int(avail.sum()), cands)


# -- placement -------------------------------------------------------------------


def fits_home(avail: np.ndarray, job: JobView) -> bool:
    """Whether every core of suspended ``job``'s home is in ``avail``."""
    home = job.home
    assert home is not None
    return bool((avail[home.nodes] >= home.cores).all())


def home_cores(jobs: Sequence[JobView], nodes: int) -> np.ndarray:
    """Cores per node of the homes of suspended ``jobs``."""
    out = np.zeros(nodes, dtype=np.int64)
    for job in jobs:
        home = job.home
        assert home is not None
        out[home.nodes] += home.cores
    return out


class Idle:
    """Idle jobs and what starting them costs: the part SS, TSS and IS share."""

    def __init__(self) -> None:
        self.claims = Claims()

    def idle(self, view: View, skip: set[int] | None = None) -> tuple[list[JobView], list[JobView]]:
        """Queued jobs, and suspended jobs done writing out; none on a claim or in ``skip``."""
        skip = self.claims.ids() | (skip or set())
        if skip:
            fresh = [j for j in view.queue if j.id not in skip]
            held = [j for j in view.suspended if j.allocation is None and j.id not in skip]
        else:
            fresh = list(view.queue)
            held = [j for j in view.suspended if j.allocation is None]
        return fresh, held

    @staticmethod
    def start_if_free(
        job: JobView, avail: np.ndarray, view: View, homes: np.ndarray | None = None
    ) -> Start | Resume | None:
        """Start a queued job or resume a suspended one, if its cores are free.

        A queued job is placed first fit, but on the cores of no suspended
        job's home (``homes``, cores per node) while others are free, so
        that it does not keep a suspended job from re-entering: the thesis
        leaves placement open, and re-entry on the same nodes is the
        scheme's bottleneck on a distributed-memory machine. Takes the
        cores from ``avail``.
        """
        if job.state is State.SUSPENDED:
            if not fits_home(avail, job):
                return None
            home = job.home
            assert home is not None
            avail[home.nodes] -= home.cores
            return Resume(job)
        alloc = fit_avoiding(avail, job.size, view.cores_per_node, homes)
        if alloc is None:
            return None
        avail[alloc.nodes] -= alloc.cores
        return Start(job, alloc)

    def preempt(
        self, job: JobView, victims: Sequence[JobView], avail: np.ndarray, view: View
    ) -> list[Decision]:
        """Suspend ``victims`` and start (or resume) ``job`` on their cores (`switch_in`)."""
        return switch_in(job, victims, avail, view, self.claims)


# -- the rule, applied plainly ---------------------------------------------------


@register("ss-plain")
class PlainSelectiveSuspension(Policy, Idle):
    """Selective Suspension, the plain rule: slow; the reference the accelerated ss is checked against.

    The parameters are those of ``ss``: ``sf`` the suspension factor,
    ``interval`` the period of the preemption routine in seconds, ``width``
    the width restriction (``text``, ``formula`` or ``none``), and the
    readings ``resumed``, ``hold`` and ``prefer`` (module docstring). Every pass
    tries every idle job in turn; at a tick (a multiple of ``interval``)
    a job that does not fit may preempt, and while a job stays idle the
    policy asks for a pass at the next tick. See `schedsim.policies.selective`.
    """  # noqa: E501 (the first line is what ``schedsim policies`` lists)

    def __init__(
        self,
        sf: float = 2.0,
        interval: float = 60.0,
        width: Width = "text",
        resumed: Resumed = "resume",
        hold: Hold = "none",
        prefer: Prefer = "threshold",
    ) -> None:
        Idle.__init__(self)
        self.sf, self.interval, self.width = check_parameters(sf, interval, width)
        self.resumed, self.hold, self.prefer = check_readings(resumed, hold, prefer)
        self._may_suspend = width_rule(width)
        #: The running jobs' thresholds by id (`running_thresholds`).
        self._tau: dict[int, float] = {}
        #: With ``resumed="start"``: the threshold each started job had at its first start.
        self._first: dict[int, float] = {}

    def params(self) -> dict[str, object]:
        return {
            "sf": self.sf,
            "interval": self.interval,
            "width": self.width,
            "resumed": self.resumed,
            "hold": self.hold,
            "prefer": self.prefer,
        }

    #: The readings were added after run ids were published: with the text's, a run
    #: keeps its id (`schedsim.app.study.RunConfig.identity`).
    LATER_PARAMS: ClassVar[dict[str, object]] = {
        "resumed": "resume",
        "hold": "none",
        "prefer": "threshold",
    }

    # -- hooks for TSS (as `schedsim.policies.suspension.SelectiveSuspension`'s) ----
    #: Whether `protected` may ever say yes; SS saves asking for every candidate.
    protects = False

    def observe(self, view: View) -> None:
        """Called at the start of every pass (TSS tracks finished jobs here)."""

    def protected(self, job: JobView, threshold: float) -> bool:
        """Whether a running job may not be suspended whatever its threshold (TSS)."""
        return False

    def schedule(self, view: View) -> list[Decision]:
        now = view.now
        check_progress(self.sf, view)
        self.observe(view)
        tau = self._tau = running_thresholds(self._tau, view)
        # Victims only at a tick, and only among the jobs running at the pass's start.
        running: list[tuple[float, JobView]] = []
        if is_tick(now, self.interval) and tau:
            running = sorted(((tau[r.id], r) for r in view.running), key=running_order)
        # Claims whose victims have written out start first (with an overhead).
        settled = self.claims.settle(view)
        avail = self.claims.avail(view, settled)
        out: list[Decision] = [*settled]
        fresh, held = self.idle(view, {d.job.id for d in settled})
        homes = home_cores(held, view.nodes)  # where fresh jobs keep off while they can
        waiting = False
        # hold="top": the free cores of the home of a suspended job that heads the idle
        # jobs and cannot re-enter are taken out of ``avail`` (this pass's own copy), so
        # no job after it gets them.
        for rank, job in enumerate(sorted(fresh + held, key=lambda j: idle_order(j, now))):
            started = self.start_if_free(job, avail, view, homes)
            if started is not None:
                out.append(started)
                continue
            victims = None
            if running:
                victims = choose_victims(
                    job, idle_threshold(job, now), avail, running, self.sf, self._may_suspend,
                    self.protected if self.protects else None, self.prefer,
                )  # fmt: skip
            if victims is None:
                waiting = True
                if rank == 0 and self.hold == "top" and job.state is State.SUSPENDED:
                    home = job.home
                    assert home is not None
                    avail[home.nodes] -= np.minimum(avail[home.nodes], home.cores)
                continue
            out.extend(self.preempt(job, victims, avail, view))
            chosen = {v.id for v in victims}
            running = [p for p in running if p[1].id not in chosen]
        # Thresholds: those (re)started now keep the one they have now (resumed="start":
        # a resumed job takes back the one of its first start).
        for job in view.ended:
            self._first.pop(job.id, None)
        for d in out:
            if isinstance(d, Start):
                tau[d.job.id] = idle_threshold(d.job, now)
                if self.resumed == "start":
                    self._first[d.job.id] = tau[d.job.id]
            elif isinstance(d, Resume):
                tau[d.job.id] = self._first.get(d.job.id) or idle_threshold(d.job, now)
            elif isinstance(d, Suspend):
                tau.pop(d.job.id, None)
        # While a job is idle (one suspended now too), the routine runs at the next tick.
        if waiting or any(isinstance(d, Suspend) for d in out):
            tick = next_tick(now, self.interval)
            if tick not in view.timers:
                out.append(WakeAt(tick))
        return out
