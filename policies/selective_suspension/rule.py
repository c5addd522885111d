"""Selective Suspension's rule (seed 000, sections 3.1-3.3), written once.

Kettimuthu's thesis (seed 000) preempts rigid jobs on a distributed-memory
machine without migration: a suspended job keeps its nodes and resumes
only there. This module holds the rule of **Selective Suspension** as
functions, the readings the thesis leaves open, and the parameters every
version takes (`Parameters`). ``ss-plain``
(`schedsim.policies.selective_suspension.plain`) applies it plainly, a pass at
every tick; the accelerated ``ss`` (`schedsim.policies.selective_suspension.fast`),
which must make the same schedule, is built on the same functions; so is TSS
(`schedsim.policies.selective_suspension.tunable`), and IS
(`schedsim.policies.immediate`) shares the placement
(`schedsim.policies.preemption.Idle`).

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
text's, defined here once (`READINGS`, `Parameters`) and taken by ``ss-plain`` and
``ss`` alike; the accelerated ``ss`` follows ``hold`` itself and runs the plain
rule when ``resumed`` or ``prefer`` is not the default (its shortcuts rest on the
text's readings of those), and the tests hold the two equal under every
combination (tests/test_ss_readings.py):

* ``resumed``: the threshold a resumed job runs with. Section 3.1: a threshold
  "remains constant when the task executes and increases when the task
  waits", and a suspended job waits, so it resumes with its xfactor at that
  moment, suspended time included (``"resume"``, the default). ``"start"``
  gives it back the threshold of its first start, so that the time it spent
  suspended helps it re-enter but does not shield it once it runs.
* ``hold``: whether the free cores of a suspended job's home, while it cannot
  re-enter, are kept from the idle jobs ranked below it. Section 3.2 removes
  reservations from the preemptive schemes ("start time guarantees do not make
  much significance in a preemptive context") and starts any idle job that fits
  the free processors, so ``"none"``, the default, keeps nothing. ``"top"``
  keeps them for the suspended job that heads the idle jobs (the highest
  threshold) only, like a backfilling reservation. ``"all"`` keeps them for
  every suspended job that cannot re-enter, from every job after it in the idle
  order (`hold_home`). The thesis allows it: a suspended job can resume on its
  own nodes only (section 3.2, no migration), so a lower-ranked job started on
  a free one of them is not backfilled in the thesis's sense (using processors
  no higher-ranked job can use now) but takes the one resource a higher-ranked
  job waits for, which that job gets back only by out-ranking it SF times
  (section 3.3); "all" counts a node free for a job only when no higher-ranked
  suspended job waits for it, which is the idle order applied to homes. It
  guarantees no start time (the rest of the home may stay busy for long), so
  section 3.2's dropping of guarantees does not forbid it; nor does the text say it.
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
2.25 Ms). The lock needs those placements: ``hold="all"``, which keeps a
suspended job's free home nodes from every job ranked below it, undoes it;
the other readings do not (same run)::

    schedsim run --workload ctc --month 1996-07 --nodes 430 --load-factor 1.28 \
        --policy ss --param sf=2 --param hold=all

===================  ===========  =====================  =========  ===========
reading              utilization  mean bounded slowdown  worst      suspensions
===================  ===========  =====================  =========  ===========
the text's           0.580        6.60                   8,028      3,311
``hold="top"``       0.574        4.82                   2,512      3,069
``hold="all"``       0.770        11.8                   5,072      2,012
``prefer="width"``   0.530        4.31                   1,544      2,680
``resumed="start"``  0.327        22.8                   22,229     565,600
EASY (NS)            0.785        24.1                   2,702      0
===================  ===========  =====================  =========  ===========

Keeping the top job's nodes and suspending fewer, wider jobs shorten the
worst waits but not the drain; giving resumed jobs their first threshold
back makes jobs on shared homes suspend each other at every tick (a
thrashing section 3.1's analysis warns of). Keeping every suspended job's
free home nodes stops the pile-up at its source, fresh jobs placed on homes
whose owners out-rank them: SS's utilization is then EASY's or better at the
lower loads (load factor 1.04: 0.654 against 0.651 and the text's 0.587; 1.2:
0.744 against 0.735 and 0.656) and close to it at 1.28 (0.770 against 0.785),
at the price of a higher mean bounded slowdown than the text's (5.17, 8.11,
11.8 against 3.07, 3.73, 6.60; EASY 12.2, 21.1, 24.1). With accurate
estimates at the normal load (load factor 0.8) it also brings the VL
categories' mean bounded slowdown to 1.05-1.14 times EASY's (the text's:
1.06-1.53), nearer the thesis's "slightly worse". So the lock is not the
rule's alone but that of the text's reading of section 3.2's backfilling;
the text's readings stay the defaults (what the thesis says, where it says
it), and the study (papers/kettimuthu2003/study.toml) scores each reading
against the thesis's claims.

**Placement**, which the thesis leaves open
(`schedsim.policies.preemption.Idle.start_if_free`): a fresh
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
from typing import ClassVar, Literal, get_args

import numpy as np

from schedsim.model.policy import View
from schedsim.model.view import JobView, State
from schedsim.policies.preemption import home_victims, minimal_victims

__all__ = [
    "READINGS",
    "TEXT_READINGS",
    "Hold",
    "Parameters",
    "Prefer",
    "Protection",
    "Resumed",
    "Width",
    "candidates",
    "check_parameters",
    "check_progress",
    "check_readings",
    "choose_victims",
    "hold_home",
    "idle_order",
    "idle_threshold",
    "is_tick",
    "next_tick",
    "run_threshold",
    "running_order",
    "running_thresholds",
    "width_rule",
]

#: The width restriction: section 3.2's text, section 3.3's formula, or none.
Width = Literal["text", "formula", "none"]
#: The threshold a resumed job runs with: its xfactor at resumption, or at its first start.
Resumed = Literal["resume", "start"]
#: Whether the free cores of a suspended job's home wait for it: never, when it heads the
#: idle jobs, or for every suspended job that cannot re-enter, from the jobs ranked below it.
Hold = Literal["none", "top", "all"]
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


#: The readings of the rule the thesis leaves open (module docstring, "Readings"), each
#: with the values it may take, the text's first: the one table ``ss-plain``, ``ss`` and
#: ``tss`` take them from (`Parameters`). A reading added here (and to `Parameters`'s
#: signature) is a parameter of both versions; the plain pass applies it.
READINGS: dict[str, tuple[str, ...]] = {
    "resumed": get_args(Resumed),
    "hold": get_args(Hold),
    "prefer": get_args(Prefer),
}
#: The text's reading of each: the defaults.
TEXT_READINGS: dict[str, str] = {name: values[0] for name, values in READINGS.items()}


def check_readings(**readings: str) -> dict[str, str]:
    """The readings of the rule (`READINGS`), checked: every one known, with a known value."""
    for name, value in readings.items():
        known = READINGS.get(name)
        if known is None:
            raise ValueError(f"no reading {name!r} of SS's rule; readings: {', '.join(READINGS)}")
        if value not in known:
            raise ValueError(f"{name} must be {' or '.join(map(repr, known))}, got {value!r}")
    return {**TEXT_READINGS, **readings}


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


# -- the readings, applied -------------------------------------------------------


def run_threshold(
    job: JobView, now: float, resuming: bool, first: dict[int, float], resumed: Resumed
) -> float:
    """The threshold ``job``, (re)started now, runs with (section 3.1; reading ``resumed``).

    Its xfactor now (`idle_threshold`); with ``resumed="start"`` a resumed job takes
    back the threshold of its first start, which ``first`` keeps by id (a start
    records it there).
    """
    tau = idle_threshold(job, now)
    if resumed == "start":
        if resuming:
            return first.get(job.id) or tau
        first[job.id] = tau
    return tau


def hold_home(avail: np.ndarray, job: JobView, rank: int, hold: Hold) -> np.ndarray | None:
    """Keep the free cores of the home of suspended ``job``, which could not re-enter,
    from every job after it in the idle order (reading ``hold``): they are taken out
    of ``avail`` (a pass's own copy). ``hold="top"`` keeps them only if ``job`` heads
    the idle jobs (``rank`` 0), like a backfilling reservation; ``hold="all"`` for
    every suspended job, whatever its rank. Section 3.2 drops reservations, so the
    text's reading (``"none"``) keeps none. Returns the cores kept on each node of
    the home (None when none are kept), so that a caller can tell the cores free
    from those kept."""
    if job.state is not State.SUSPENDED or hold == "none" or (hold == "top" and rank != 0):
        return None
    home = job.home
    assert home is not None
    taken = np.minimum(avail[home.nodes], home.cores)
    avail[home.nodes] -= taken
    return taken


# -- the parameters --------------------------------------------------------------


class Parameters:
    """SS's parameters and readings, checked, and the hooks TSS overrides: what
    ``ss-plain`` (`schedsim.policies.selective_suspension.plain`) and ``ss``
    (`schedsim.policies.selective_suspension.fast`) take, from this one place.

    ``sf`` is the suspension factor (seed 000 uses 1.5 to 5; with a suspension
    overhead it must exceed 1: `check_progress`), ``interval`` the period of the
    preemption routine in seconds, ``width`` the width restriction: ``text``
    (n_i >= n_j / 2, default), ``formula`` (n_i / n_j < 2) or ``none``
    (`width_rule`); ``resumed``, ``hold`` and ``prefer`` the readings the thesis
    leaves open (`READINGS`; the module docstring says what each does). A class
    built on it keeps its own state in `_reset`, which the constructor calls last,
    so that its parameters stay this constructor's (the registry lists them from
    its signature).
    """

    #: Whether `protected` may ever say yes (TSS); SS saves asking for every candidate.
    protects = False

    #: The readings were added after run ids were published: with the text's, a run
    #: keeps its id (`schedsim.app.study.RunConfig.identity`).
    LATER_PARAMS: ClassVar[dict[str, object]] = dict(TEXT_READINGS)

    def __init__(
        self,
        sf: float = 2.0,
        interval: float = 60.0,
        width: Width = "text",
        resumed: Resumed = "resume",
        hold: Hold = "none",
        prefer: Prefer = "threshold",
    ) -> None:
        self.sf, self.interval, self.width = check_parameters(sf, interval, width)
        self.readings = check_readings(resumed=resumed, hold=hold, prefer=prefer)
        self.resumed: Resumed = resumed
        self.hold: Hold = hold
        self.prefer: Prefer = prefer
        self._may_suspend = width_rule(width)
        self._reset()

    def _reset(self) -> None:
        """Set up the state of a run (a subclass's own)."""

    def text_readings(self, *but: str) -> bool:
        """Whether every reading is the text's (every one but those named in ``but``)."""
        return all(v == TEXT_READINGS[k] for k, v in self.readings.items() if k not in but)

    def params(self) -> dict[str, object]:
        return {"sf": self.sf, "interval": self.interval, "width": self.width, **self.readings}

    def observe(self, view: View) -> None:
        """Called at the start of every pass (TSS tracks finished jobs here)."""

    def protected(self, job: JobView, threshold: float) -> bool:
        """Whether a running job may not be suspended whatever its threshold (TSS)."""
        return False

    def protection_for(self, job: JobView, tau: float) -> Protection:
        """The protection that keeps idle ``job``, of threshold ``tau``, from suspending
        running jobs: `protected`, when this class protects (TSS; it may read it
        otherwise for some idle jobs), else None."""
        return self.protected if self.protects else None
