"""Selective suspension (SS, TSS) and Immediate Service (IS): seed 000.

Kettimuthu's thesis (seed 000) preempts rigid jobs on a distributed-memory
machine without migration: a suspended job keeps its nodes and resumes
only there. Both schemes here build on `schedsim.policies.preemption`.

**Selective Suspension** (`ss`, sections 3.1-3.3). A job's *suspension
threshold* is its xfactor, (wait + estimate) / estimate (section 2.2): it
grows while the job waits or is suspended and stays constant while it runs
(here: the value it had when it started or resumed, so a restart overhead
after that does not move it).
An idle job T_i (queued, or suspended and waiting to re-enter) may suspend
running jobs T_j with

* τ_i > SF × τ_j (the suspension factor SF; the paper uses 1.5 to 5), and
* the width restriction of section 3.2. Its text says "the number of
  processors requested by a suspending job should be at least half of the
  number of nodes requested by the job that it suspends", n_i ≥ n_j / 2,
  so narrow jobs cannot suspend wide ones; this is the default
  (``width="text"``). Section 3.3's formula reads n_i / n_j < 2, which
  instead stops a job from suspending one less than half its width
  (``width="formula"``). ``width="none"`` drops the restriction.

These are T_i's *candidates*. T_i suspends a minimal set of them (section
3.3's P: with the free processors they give at least n_i, and none could
be left out), preferring the lowest thresholds. A suspended job re-entering
needs its own nodes: every node of its home must be free or held by a
candidate, and only candidates on its home are suspended. The preemption
routine runs every ``interval`` seconds ("the scheduler periodically
(after every minute) invokes the preemption routine"), at the clock times
that are multiples of ``interval`` while a job is idle, considering idle
jobs in decreasing threshold. Every scheduling pass also starts (or
resumes) any idle job that fits the free processors, in the same order:
section 3.2's "backfill algorithm without the usual reservation
guarantees", since the growing xfactor already prevents starvation.

Ticks at which no idle job could preempt are skipped: the thresholds of
running jobs are constant and those of idle jobs grow linearly, so the
first tick at which a job's threshold can exceed SF times the highest
threshold among the jobs it would need (the lowest-threshold running jobs
it may suspend by the width rule that make up its size; for a re-entry,
the jobs on its home) is known in advance, and between events nothing
else changes. The schedule is the same as with a pass at every tick
(tested; `SelectiveSuspension.skip_idle_ticks` switches it off), only
cheaper. More shortcuts rest on the same monotony, and are off with
``skip_idle_ticks`` too:

* a start or a resume only raises those bars, so after a pass where
  nothing ended, nothing was suspended and no protection changed, the
  planned tick still holds and only the jobs that just arrived are planned;
* a timer set for a tick that a later pass moved on from would find
  nothing new: it brings no pass (`SelectiveSuspension.wants_pass`), and
  if an event brings one at that instant, that pass is the event's
  (`SelectiveSuspension._stale_timer`);
* a pass that only brings arrivals, after one that left nothing startable
  (no preemption, no write-out under way), can start nothing but the new
  jobs: they alone are tried (`SelectiveSuspension._only_arrivals`);
* a pass that is no tick cannot preempt, so cores only get fewer during
  it: only the jobs that fit at its start are tried
  (`SelectiveSuspension._board_pass`); so is a tick at which no idle job
  could preempt even with fewer cores free (most events that fall on a
  tick), which `schedsim.policies.kernels.may_preempt` tells.

With one core per node and no suspension overhead (the thesis's setting)
a board (`schedsim.policies.homeboard.HomeBoard`) keeps, event by event, the
threshold and width of the job on each node and, for each suspended job,
the highest threshold and the jobs out of its reach on its home: which
suspended jobs fit and when each could preempt are then read, not
recomputed over every home at every pass; the queued jobs' columns are
kept beside it (`schedsim.policies.queued.Queued`), and the walks over nodes, homes
and jobs are loops compiled with numba (`schedsim.policies.kernels`). Otherwise the
suspended jobs' homes are flat arrays updated as jobs leave and join. The
ladder of running jobs is shared by all tests of one state.

Placement, which the thesis leaves open: a fresh job is placed first fit
on free nodes that are no suspended job's home while there are enough of
them, so that it does not keep a suspended job from re-entering.

**Tunable Selective Suspension** (`tss`, section 3.5): as SS, but a
running job cannot be suspended once its threshold exceeds ``limit``
(1.5) times the average slowdown of its category. The category (Table
2.1) of a running job is taken from its estimate, the run time a scheduler
knows. The averages are, by default, **tracked online**: the mean bounded
slowdown (section 2.2) of the jobs of each category that have finished so
far in this run, by their actual run time; a category with no finished
job yet sets no limit. With ``averages=FILE`` they come from a table
instead, for example the per-category average slowdowns of an earlier NS
(EASY) run, as the paper's Table 2.3: a CSV in the layout
`schedsim.model.results.Result.category_table` writes (rows VS/S/L/VL, columns
Seq/N/W/VW).

**Immediate Service** (`is`, section 2.3): every arriving job gets an
immediate time slice of ``quantum`` seconds (10 min), by suspending running
jobs with the lowest instantaneous xfactor, (wait + accumulated run) /
accumulated run, a minimal set of them. Jobs within their own slice are
not suspended for another; an arrival that cannot get its slice that way
waits like any idle job. The thesis does not say what happens when the
slice ends; here the job gives the processors back: if any job it
suspended is still suspended, it is suspended itself, and otherwise it
simply runs on. Idle jobs (queued, or suspended) then start or resume
whenever their processors are free, in decreasing instantaneous xfactor
(a job that has not run yet has an infinite one), without reservations,
and a suspended job only on its own nodes. Only arrivals preempt.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import compress
from operator import attrgetter
from pathlib import Path

import numpy as np
from schedsim.model.cluster import Allocation
from schedsim.model.policy import Decision, Policy, Resume, Start, Suspend, View, WakeAt, register
from schedsim.model.view import JobView, State
from schedsim.policies import kernels
from schedsim.policies.homeboard import HomeBoard, Width
from schedsim.policies.preemption import (
    Claims,
    fit_avoiding,
    home_victims,
    minimal_victims,
    suspend,
    switch_in,
)
from schedsim.policies.queued import Queued

__all__ = ["ImmediateService", "SelectiveSuspension", "TunableSelectiveSuspension"]

_ID = attrgetter("id")

#: Seed 000, section 2.2: the bounded slowdown's threshold (seconds).
_BOUND = 10.0
#: Table 2.1: run-time bounds (s, inclusive) and size bounds (processors, inclusive).
_RUNTIME_EDGES = (600.0, 3600.0, 8 * 3600.0)
_SIZE_EDGES = (1, 8, 32)
_ROWS = ("VS", "S", "L", "VL")
_COLS = ("Seq", "N", "W", "VW")


def category(run_time: float, size: int) -> int:
    """The Table 2.1 category (0-15, row by row) of a job of ``run_time`` and ``size``."""
    r = 0
    while r < 3 and run_time > _RUNTIME_EDGES[r]:
        r += 1
    s = 0
    while s < 3 and size > _SIZE_EDGES[s]:
        s += 1
    return 4 * r + s


def _width_rule(width: Width) -> Callable[[int, int], bool]:
    """Whether a job of n_i processors may suspend one of n_j (section 3.2 / 3.3)."""
    if width == "text":
        return lambda ni, nj: 2 * ni >= nj
    if width == "formula":
        return lambda ni, nj: ni < 2 * nj
    if width == "none":
        return lambda ni, nj: True
    raise ValueError(f"width must be 'text', 'formula' or 'none', got {width!r}")


def _idle_threshold(job: JobView, now: float) -> float:
    # The xfactor of a job that is not running: its wait is everything but its run time.
    est = max(job.estimate, 1e-9)
    return (now - job.submit - job.run_time_done + est) / est


def _next_multiple(t: float, step: float) -> float:
    """The smallest multiple of ``step`` strictly after ``t``."""
    k = math.floor(t / step) + 1
    while k * step <= t:
        k += 1
    return k * step


def _fits(avail: np.ndarray, job: JobView) -> bool:
    home = job.home
    assert home is not None
    return bool((avail[home.nodes] >= home.cores).all())


class _Idle:
    """Idle jobs and what starting them costs: the part SS and IS share."""

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
    ) -> Decision | None:
        """Start a queued job or resume a suspended one, if its cores are free.

        A queued job is placed first fit, but on the cores of no suspended
        job's home (``homes``, cores per node) while others are free, so
        that it does not keep a suspended job from re-entering: the thesis
        leaves placement open, and re-entry on the same nodes is the
        scheme's bottleneck on a distributed-memory machine.
        """
        if job.state is State.SUSPENDED:
            if not _fits(avail, job):
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


def _row(job: JobView) -> tuple[float, float, float, float, float]:
    """Size, estimate (at least 1e-9), submit time, run time so far and id of ``job``."""
    return (job.size, max(job.estimate, 1e-9), job.submit, job.run_time_done, job.id)


def _columns(
    jobs: Sequence[JobView], rows: dict[int, tuple] | None = None
) -> tuple[np.ndarray, ...]:
    """Sizes, estimates (at least 1e-9), submit times, run times so far and ids of ``jobs``.

    ``rows`` caches `_row` by job id (a suspended job's row stays the same
    until it resumes); the jobs' rows are added to it.
    """
    if rows is None:
        table = [_row(j) for j in jobs]
    else:
        table = []
        for j in jobs:
            r = rows.get(j.id)
            if r is None:
                r = rows[j.id] = _row(j)
            table.append(r)
    if not table:
        empty = np.zeros(0)
        return (empty.astype(np.int64), empty, empty, empty, empty.astype(np.int64))
    a = np.array(table, dtype=float).T
    return (a[0].astype(np.int64), a[1], a[2], a[3], a[4].astype(np.int64))


class _Homes:
    """The home cores of suspended jobs, flattened for vector tests (cached by the policies).

    ``rows`` caches the jobs' `_row`s across rebuilds: the caller drops a
    job's row when it resumes, as its run time so far changes then.
    """

    def __init__(
        self, jobs: Sequence[JobView], nodes: int, rows: dict[int, tuple] | None = None
    ) -> None:
        self.jobs = tuple(jobs)
        self.key = tuple(map(_ID, jobs))
        homes = [j.home for j in jobs]
        if jobs:
            self.nodes = np.concatenate([h.nodes for h in homes])  # type: ignore[union-attr]
            self.cores = np.concatenate([h.cores for h in homes])  # type: ignore[union-attr]
            self.lengths = np.array([len(h.nodes) for h in homes], dtype=np.int64)  # type: ignore[union-attr]
        else:
            self.nodes = self.cores = self.lengths = np.zeros(0, dtype=np.int64)
        self.per_node = np.bincount(self.nodes, self.cores, minlength=nodes).astype(np.int64)
        self.starts = np.concatenate(([0], np.cumsum(self.lengths[:-1]))).astype(np.int64)
        # What the thresholds need, constant while the jobs stay suspended.
        self.columns = _columns(jobs, rows)

    def update(
        self, jobs: Sequence[JobView], nodes: int, rows: dict[int, tuple] | None = None
    ) -> _Homes:
        """The homes of ``jobs``, reusing these arrays when ``jobs`` are some of
        these jobs in the same order, then new ones (the order in which the
        scheduler keeps suspended jobs)."""
        key = tuple(map(_ID, jobs))
        keep = np.fromiter(map(set(key).__contains__, self.key), bool, len(self.key))
        kept = tuple(compress(self.key, keep))
        k = len(kept)
        if key[:k] != kept:
            return _Homes(jobs, nodes, rows)
        added = jobs[k:]
        out = _Homes.__new__(_Homes)
        out.jobs, out.key = tuple(jobs), key
        lost = k < len(self.key)
        slots = np.repeat(keep, self.lengths) if lost else None
        mine = (self.nodes, self.cores, self.lengths, *self.columns)
        if lost:
            mine = tuple(a[slots] for a in mine[:2]) + tuple(a[keep] for a in mine[2:])
        out.per_node = self.per_node.copy()
        if lost:
            gone = ~slots  # type: ignore[operator]
            out.per_node -= np.bincount(self.nodes[gone], self.cores[gone], minlength=nodes).astype(
                np.int64
            )
        if added:
            homes = [j.home for j in added]
            theirs = (
                np.concatenate([h.nodes for h in homes]),  # type: ignore[union-attr]
                np.concatenate([h.cores for h in homes]),  # type: ignore[union-attr]
                np.array([len(h.nodes) for h in homes], dtype=np.int64),  # type: ignore[union-attr]
                *_columns(added, rows),
            )
            np.add.at(out.per_node, theirs[0], theirs[1])
            mine = tuple(np.concatenate(pair) for pair in zip(mine, theirs, strict=True))
        out.nodes, out.cores, out.lengths = mine[0], mine[1], mine[2]
        out.columns = tuple(mine[3:])
        out.starts = np.concatenate(([0], np.cumsum(out.lengths[:-1]))).astype(np.int64)
        return out

    def free(self, avail: np.ndarray) -> np.ndarray:
        """For each job: whether every core of its home is in ``avail``."""
        if not len(self.key):
            return np.zeros(0, dtype=bool)
        return np.logical_and.reduceat(avail[self.nodes] >= self.cores, self.starts)


@register("ss")
class SelectiveSuspension(Policy, _Idle):
    """Selective Suspension: an idle job suspends running jobs of SF-times lower xfactor.

    ``sf`` is the suspension factor (seed 000 uses 1.5 to 5), ``interval``
    the period of the preemption routine in seconds, ``width`` the width
    restriction: ``text`` (n_i >= n_j / 2, default), ``formula`` (n_i /
    n_j < 2) or ``none``. See `schedsim.policies.suspension`.
    """

    #: Skip the ticks at which no preemption can happen (same schedule; see module doc).
    skip_idle_ticks = True
    #: Whether `protected` may ever say yes (TSS); SS saves asking for every running job.
    protects = False

    def __init__(self, sf: float = 2.0, interval: float = 60.0, width: Width = "text") -> None:
        _Idle.__init__(self)
        if not (sf >= 1.0 and math.isfinite(sf)):
            raise ValueError(f"suspension factor sf must be >= 1, got {sf}")
        if not (interval > 0 and math.isfinite(interval)):
            raise ValueError(f"interval must be a positive number of seconds, got {interval}")
        self.sf = float(sf)
        self.interval = float(interval)
        self.width = width
        self._may_suspend = _width_rule(width)
        #: The next clock time at which the preemption routine runs (None: no job idle).
        self._tick: float | None = None
        #: Whether the run has a suspension overhead (as the last view said).
        self._overhead = False
        self._homes: _Homes | None = None
        #: `_row`s of the jobs suspended now, by id (see `_Homes`).
        self._rows: dict[int, tuple] = {}
        self._ladder: _Ladder | None = None
        self._running_tau: dict[int, float] = {}
        #: Whether no idle job could start on the free cores the last pass left
        #: (so that at a pass that only brings arrivals, only they can start).
        self._settled = False
        #: Free cores the last pass left, and `protection_version` at the last full plan.
        self._free_after = -1
        self._planned_version = 0
        #: The running jobs and the suspended jobs' homes node by node, when
        #: one core per node and no overhead let it serve (`_board_for`).
        self._board: HomeBoard | None = None
        #: Jobs suspended in the last pass: on the board once their run time
        #: is accounted (at the next pass).
        self._pending: list[JobView] = []
        #: The queued jobs' columns, kept with the board (`_board_for`).
        self._queued: Queued | None = None

    def params(self) -> dict[str, object]:
        return {"sf": self.sf, "interval": self.interval, "width": self.width}

    # -- hooks for TSS ------------------------------------------------------------
    def observe(self, view: View) -> None:
        """Called at the start of every pass (TSS tracks finished jobs here)."""

    def protected(self, job: JobView, threshold: float) -> bool:
        """Whether a running job may not be suspended whatever its threshold (TSS)."""
        return False

    def protection_version(self) -> int:
        """Changes whenever `protected` may answer differently for the same job (TSS)."""
        return 0

    # -- the pass --------------------------------------------------------------------
    def schedule(self, view: View) -> list[Decision]:
        now = view.now
        self._overhead = view.overhead is not None
        self.observe(view)
        # A running job's threshold is its xfactor when it (re)started: constant.
        tau_of = self._running_tau
        for job in view.ended:
            tau_of.pop(job.id, None)
        if len(tau_of) != len(view.running):  # not kept up (a first pass)
            self._running_tau = {r.id: tau_of.get(r.id) or r.xfactor(now) for r in view.running}
        tick = self._is_tick(now)
        board = self._board_for(view)
        if tick and self._stale_timer(view):
            out: list[Decision] = []
        elif not tick and self._only_arrivals(view):
            out = self._arrivals(view)
        elif board is not None and (not tick or not self._may_preempt(view, board)):
            out = self._board_pass(view, board)
        else:
            out = self._full_pass(view, tick)
        free = view.free_cores
        for d in out:
            if isinstance(d, Suspend):
                free += d.job.size
            elif isinstance(d, (Start, Resume)):
                free -= d.job.size
        self._free_after = free
        tick = self._tick
        if tick is not None and tick > view.now and tick not in view.timers:
            out.append(WakeAt(tick))  # not asked for yet (a pending timer will come)
        return out

    def _stale_timer(self, view: View) -> bool:
        """Whether this tick is a timer the plan has since moved on from, with nothing new.

        A pass after the timer was set may have put the next possible
        preemption later (a start raises the bars), but the timer still
        fires. With no job ended or arrived since, nothing changed from the
        state that plan was made on: no job can preempt or start now.
        """
        return not view.ended and not view.arrived and self._moved_on(view.now)

    def _moved_on(self, now: float) -> bool:
        # The plan no longer has a tick at ``now`` (and nothing else may need it).
        return (
            self.skip_idle_ticks
            and not self._overhead
            and not len(self.claims)
            and (self._tick is None or self._tick > now)
        )

    def _is_tick(self, time: float) -> bool:
        # The routine runs at every multiple of the interval while a job runs
        # (whether or not a tick was asked for: an event may fall on one).
        return round(time / self.interval) * self.interval == time and bool(self._running_tau)

    def wants_pass(self, time: float) -> bool:
        """No pass for a timer the plan has moved on from (`_stale_timer`): it would
        find nothing new and do nothing. Events at that instant bring their own."""
        return not (self._is_tick(time) and self._moved_on(time))

    def _only_arrivals(self, view: View) -> bool:
        """Whether nothing but arrivals happened since a pass that left nothing startable.

        Then the free cores are those the last pass left (nothing ended, no
        write-out), every other idle job still does not fit them, and only
        the new jobs, whose thresholds are 1 (they come last), may start.
        """
        return (
            self._settled
            and self.skip_idle_ticks
            and not view.ended
            and view.overhead is None
            and not len(self.claims)
            and (self._tick is None or self._tick > view.now)
            and self.protection_version() == self._planned_version
            and view.free_cores == self._free_after
            and all(j.submit == view.now for j in view.arrived)
        )

    def _held(self, view: View) -> _Homes:
        """The suspended jobs done writing out (and on no claim), with their homes (cached)."""
        if view.overhead is None and not len(self.claims):
            held: Sequence[JobView] = view.suspended  # freed their cores when suspended
        else:
            skip = self.claims.ids()
            held = [j for j in view.suspended if j.allocation is None and j.id not in skip]
        homes = self._homes
        if homes is None:
            homes = self._homes = _Homes(held, view.nodes, self._rows)
        elif homes.jobs != tuple(held):
            homes = self._homes = homes.update(held, view.nodes, self._rows)
        return homes

    def _board_for(self, view: View) -> HomeBoard | None:
        """The board (`schedsim.policies.homeboard`) brought up to this pass, or None where it
        cannot serve: several cores per node, a suspension overhead (a node being
        written out is neither free nor running), protections (TSS), or no skipped
        ticks (nothing to plan)."""
        if not (
            self.skip_idle_ticks
            and view.overhead is None
            and view.cores_per_node == 1
            and not self.protects
        ):
            self._board = self._queued = None
            return None
        queued = self._queued
        if queued is not None:
            for job in view.arrived:
                if job.state is State.QUEUED and job.id not in queued:
                    queued.add(job)
        if queued is None or len(queued) != len(view.queue):
            self._queued = Queued(view.queue)
        board = self._board
        if board is not None:
            if view.ended:
                board.vacate(*(job.home.nodes for job in view.ended))  # type: ignore[union-attr]
            if self._pending:
                # As they are now, their run time accounted (snapshots of the last pass age).
                now_suspended = {j.id: j for j in view.suspended}
                for job in self._pending:
                    current = now_suspended.get(job.id)
                    if current is not None and current.id not in board.slot:
                        board.add(current, _row(current))
        self._pending = []
        if (
            board is None
            or board.busy != view.nodes - view.free_cores
            or len(board.slot) != len(view.suspended)
        ):
            # A first pass (or a policy run again): build it from the view.
            board = self._board = self._build_board(view)
        return board

    def _build_board(self, view: View) -> HomeBoard:
        """A board of the running and suspended jobs of ``view``, from scratch."""
        board = HomeBoard(view.nodes, self.width)
        for r in view.running:
            assert r.allocation is not None
            board.occupy(r.id, r.allocation.nodes, self._running_tau[r.id], r.size)
        for job in view.suspended:
            board.add(job, _row(job))
        return board

    def _changed(self, out: list[Decision]) -> None:
        """After a pass: forget the rows of the jobs resumed (their run time will
        change) and the thresholds of those suspended (they get new ones)."""
        for d in out:
            if isinstance(d, Resume):
                self._rows.pop(d.job.id, None)
            elif isinstance(d, Suspend):
                self._running_tau.pop(d.job.id, None)

    def _arrivals(self, view: View) -> list[Decision]:
        """A pass that only brings arrivals (`_only_arrivals`): start those that fit.

        The same decisions as `_full_pass`, which would find every other idle
        job still not fitting, and the new ones last in its order.
        """
        now = view.now
        homes = self._board.per_node if self._board is not None else self._held(view).per_node
        avail = view.free_per_node.copy()
        total = view.free_cores
        out: list[Decision] = []
        stay: list[JobView] = []
        for job in sorted(view.arrived, key=_ID):
            if job.state is not State.QUEUED:
                continue
            d = self.start_if_free(job, avail, view, homes) if job.size <= total else None
            if d is None:
                stay.append(job)
            else:
                out.append(d)
                total -= job.size
        self._remember(out, now)
        if self._board is not None:
            self._on_board(out, now)
        if stay:
            fresh = _thresholds(stay, now)
            new = np.ones(len(stay), dtype=bool)
            self._plan_tick(view, out, avail, fresh, new, False, None)
        return out

    def _board_pass(self, view: View, board: HomeBoard) -> list[Decision]:
        """A pass with no tick (no preemption) on the board: the same decisions as
        `_full_pass`, with only the jobs that fit tried.

        Without a preemption cores only get fewer during the pass, so a job
        that does not fit at its start is passed over (as `_full_pass`'s
        ``ready`` does): the fresh jobs no larger than the free cores and the
        suspended jobs whose homes are free are all that is tried, in
        decreasing threshold, then submit time, then id.
        """
        now = view.now
        free = view.free_cores
        ready = [j for j in view.queue if j.size <= free]
        ready += board.free_homes()
        out: list[Decision] = []
        avail = view.free_per_node
        if ready:
            avail = avail.copy()
            ready.sort(key=lambda j: (-_idle_threshold(j, now), j.submit, j.id))
            left = free
            for job in ready:
                # One core per node: a job wider than the cores left cannot fit.
                if job.size > left:
                    continue
                d = self.start_if_free(job, avail, view, board.per_node)
                if d is not None:
                    out.append(d)
                    left -= job.size
        self._remember(out, now)
        self._on_board(out, now)
        self._settled = True
        queued = self._queued  # without the jobs started now (`_remember`)
        assert queued is not None
        new = None
        if not view.ended:
            arrived = {j.id for j in view.arrived}
            new = np.array([j.id in arrived for j in queued.jobs], dtype=bool)
        held_idle = bool(board.slot)
        self._plan_tick(view, out, avail, queued.thresholds(now), new, held_idle, None)
        self._changed(out)
        return out

    def _may_preempt(self, view: View, board: HomeBoard) -> bool:
        """Whether a preemption might happen at this tick (`kernels.may_preempt`); when
        not, the tick's pass makes the starts a pass with no tick makes.

        Events fall on ticks too (every multiple of the interval is one), and
        most of those passes have no job that could preempt.
        """
        assert self._queued is not None
        sizes, est, taus = self._queued.thresholds(view.now)
        ladder_taus, widths = board.ladder()
        return kernels.may_preempt(
            view.now, self.sf, sizes, est, taus, view.free_cores, ladder_taus, widths,
            board.rule, board.active, board.top, board.stuck, board.est, board.submit,
            board.done,
        )  # fmt: skip

    def _full_pass(self, view: View, tick: bool) -> list[Decision]:
        now = view.now
        out = self.claims.settle(view) if len(self.claims) else []
        avail = self.claims.avail(view, out)
        # Idle: queued jobs, and suspended jobs done writing out; none on a
        # claim or started by one just now.
        settled = {d.job.id for d in out}
        skip = settled | self.claims.ids() if len(self.claims) else settled
        board = self._board
        queued = self._queued
        if queued is not None and not skip:
            # In the queued columns' order: the pass orders its candidates itself.
            fresh = list(queued.jobs)
            fresh_columns = queued.columns()
        else:
            fresh = [j for j in view.queue if j.id not in skip] if skip else list(view.queue)
            fresh_columns = _columns(fresh)
        if board is None:
            homes = self._held(view)
            if settled:
                left = [j for j in homes.jobs if j.id not in settled]
                homes = _Homes(left, view.nodes, self._rows)
            held: list[JobView] | _Slots = list(homes.jobs)
            held_columns = homes.columns
            per_node = homes.per_node
        else:
            # The board follows the pass's decisions as they are made; its
            # suspended jobs are those of the pass's start until one resumes.
            slots = np.flatnonzero(board.active)
            held = _Slots(board.jobs, slots.tolist())
            held_columns = board.columns(slots)
            per_node = board.per_node.copy()  # placement as at the pass's start
        self._settled = False
        if not fresh and not held:
            self._tick = None
            self._remember(out, now)
            self._changed(out)
            self._settled = not len(self.claims)
            return out
        nf = len(fresh)
        n = nf + len(held)
        sizes, est, submit, done, ids = (
            np.concatenate(pair) for pair in zip(fresh_columns, held_columns, strict=True)
        )
        # Thresholds of idle jobs: their xfactor, (wait + estimate) / estimate.
        taus = (now - submit - done + est) / est
        running: list[tuple[float, JobView]] = []
        if tick:
            tau_of = self._running_tau
            running = sorted(
                ((tau_of[r.id], r) for r in view.running),
                key=lambda p: (p[0], -p[1].submit, -p[1].id),
            )

        def ready() -> np.ndarray:
            # Cheap necessary conditions: a fresh job needs enough free cores, a
            # suspended one its home free, a preemption its bound (`_Ladder`).
            # The board knows the jobs started in this pass, which the ladder
            # leaves out as blocking: its bounds are lower, it may let through
            # a job that cannot preempt (`_victims` says so), never stop one.
            free = int(avail.sum())
            if board is not None:
                # No protections on the board: the ladder is the running jobs'.
                ladder_taus = np.array([t for t, _ in running] + [math.inf])
                widths = np.array([r.size for _, r in running], dtype=np.int64)
                preempt = bool(tick and running)
                return kernels.ready_on_board(
                    now, self.sf, preempt, sizes, est, taus, nf, free, ladder_taus, widths,
                    board.rule, slots, board.top, board.stuck,
                )  # fmt: skip
            ok = np.zeros(n, dtype=bool)
            ok[:nf] = sizes[:nf] <= free
            ok[nf:] = homes.free(avail)
            if tick and running:
                ladder = self._ladder_for([(t, r, r.allocation) for t, r in running], avail, view)
                ok |= ladder.earliest(sizes, est, taus, nf, homes, now) <= now
            return ok

        def in_order(pick: np.ndarray) -> list[int]:
            # Decreasing threshold, then submit time, then id.
            return pick[np.lexsort((ids[pick], submit[pick], -taus[pick]))].tolist()

        # The candidates in order; after a preemption, those after it afresh.
        todo = in_order(np.flatnonzero(ready()))
        taken = []
        preempted = False
        i = 0
        while i < len(todo):
            k = todo[i]
            i += 1
            job = fresh[k] if k < nf else held[k - nf]
            d = self.start_if_free(job, avail, view, per_node)
            if d is not None:
                out.append(d)
                taken.append(k)
                if board is not None:
                    self._on_board([d], now)
                continue
            if tick and running:
                victims = self._victims(job, float(taus[k]), avail, running)
                if victims is not None:
                    switch = self.preempt(job, victims, avail, view)
                    out.extend(switch)
                    if board is not None:
                        self._on_board(switch, now)
                    taken.append(k)
                    chosen = {v.id for v in victims}
                    running = [p for p in running if p[1].id not in chosen]
                    preempted = True
                    # The suspensions changed what is possible for the jobs after it.
                    t, s, j = taus[k], submit[k], ids[k]
                    after = (taus < t) | (
                        (taus == t) & ((submit > s) | ((submit == s) & (ids > j)))
                    )
                    todo, i = in_order(np.flatnonzero(after & ready())), 0
        self._remember(out, now)
        # Without a preemption, cores only got fewer during the pass: every
        # job it passed over still does not fit (see `_only_arrivals`).
        self._settled = not preempted and not len(self.claims)
        new = None
        if not view.ended and not len(self.claims) and view.overhead is None and not settled:
            arrived = {j.id for j in view.arrived}
            new = np.zeros(n, dtype=bool)
            if arrived:
                new[:nf] = [j.id in arrived for j in fresh]
        still = np.ones(n, dtype=bool)
        still[taken] = False
        waiting = still[nf:]
        held_first = None  # on the board, from its own state
        if board is None:

            def held_first(ladder: _Ladder, now: float) -> float:
                when = ladder.earliest(sizes[nf:], est[nf:], taus[nf:], 0, homes, now)
                return float(when[waiting].min())

        fresh_still = still[:nf]
        fresh_left = (sizes[:nf][fresh_still], est[:nf][fresh_still], taus[:nf][fresh_still])
        if new is not None:
            new = new[:nf][fresh_still]
        self._plan_tick(view, out, avail, fresh_left, new, bool(waiting.any()), held_first)
        self._changed(out)
        return out

    def _remember(self, out: list[Decision], now: float) -> None:
        """The thresholds of the jobs (re)started now: their xfactor now, kept while they run.
        The jobs started leave the queued columns."""
        queued = self._queued
        for d in out:
            if isinstance(d, Start):
                self._running_tau[d.job.id] = _idle_threshold(d.job, now)
                if queued is not None:
                    queued.drop(d.job.id)
            elif isinstance(d, Resume):
                self._running_tau[d.job.id] = _idle_threshold(d.job, now)

    def _on_board(self, decisions: list[Decision], now: float) -> None:
        """Decisions of this pass onto the board, in their order (the suspensions of
        one switch at once)."""
        board = self._board
        assert board is not None
        freed: list[np.ndarray] = []
        for d in decisions:
            job = d.job
            if isinstance(d, Suspend):
                assert job.allocation is not None
                freed.append(job.allocation.nodes)
                # On the board at the next pass, once its run time is accounted.
                self._pending.append(job)
                continue
            if freed:
                board.vacate(*freed)
                freed = []
            if isinstance(d, Start):
                assert d.allocation is not None
                board.occupy(job.id, d.allocation.nodes, _idle_threshold(job, now), job.size)
            elif isinstance(d, Resume):
                board.remove(job)
                assert job.home is not None
                board.occupy(job.id, job.home.nodes, _idle_threshold(job, now), job.size)
        if freed:
            board.vacate(*freed)

    def _victims(
        self, job: JobView, tau: float, avail: np.ndarray, running: list[tuple[float, JobView]]
    ) -> list[JobView] | None:
        """A minimal set of ``job``'s candidates to suspend, or None (section 3.3)."""
        bar = tau / self.sf
        n = job.size
        may = self._may_suspend
        cands = []
        for t, r in running:
            if not t < bar:  # sorted by threshold: no later job qualifies either
                break
            if may(n, r.size) and not self.protected(r, t):
                cands.append(r)
        if not cands:
            return None
        if job.state is State.SUSPENDED:
            home = job.home
            assert home is not None
            allowed = {r.id for r in cands}
            if self._board is not None:
                return self._home_victims_on_board(home, running, allowed)
            return home_victims(home, avail, (r for _, r in running), lambda r: r.id in allowed)
        return minimal_victims(n, int(avail.sum()), cands)

    def _home_victims_on_board(
        self, home: Allocation, running: list[tuple[float, JobView]], allowed: set[int]
    ) -> list[JobView] | None:
        """`home_victims` with one core per node, read off the board (which follows the
        pass): every job on the home must go, so all must be candidates; a node held
        by a job not in ``running`` (started in this pass) cannot be had."""
        board = self._board
        assert board is not None
        nodes = home.nodes[board.tau[home.nodes] > -math.inf]
        on = set(board.owner[nodes].tolist())
        if not on <= allowed:
            return None
        # In the order of ``running``, as `home_victims` gives them.
        return [r for _, r in running if r.id in on]

    def _ladder_for(
        self, entries: list[tuple[float, JobView, Allocation | None]], avail: np.ndarray, view: View
    ) -> _Ladder:
        """The ladder of these running jobs on ``avail`` (cached: between passes that
        change neither the running jobs, the free cores nor the protections, such
        as arrivals at a full machine or a tick that preempts nothing, it is the same)."""
        entries.sort(key=lambda e: (e[0], e[1].id))
        key = (tuple(e[1].id for e in entries), avail.tobytes(), self.protection_version())
        if self._ladder is None or self._ladder.key != key:
            self._ladder = _Ladder(entries, avail, view, self, key)
        return self._ladder

    def _plan_tick(
        self,
        view: View,
        out: list[Decision],
        avail: np.ndarray,
        fresh: tuple[np.ndarray, np.ndarray, np.ndarray],
        new: np.ndarray | None,
        held_idle: bool,
        held_first: Callable[[_Ladder, float], float] | None,
    ) -> None:
        """Set the next tick of the preemption routine, or None when no job stays idle.

        ``fresh`` are the sizes, estimates and thresholds of the queued jobs
        that stay idle after ``out``; ``held_idle`` says whether suspended
        jobs do, and ``held_first`` tells, given the ladder of the running
        jobs and the time now, when the first of them could preempt (None on
        the board, whose state tells, or when none is idle). ``new`` marks
        the fresh jobs that arrived since the last pass, when nothing else
        happened that could bring a preemption nearer (no job ended or was
        suspended, no write-out, no change of protections): starts only raise
        the bars (`_Ladder`), so the planned tick still holds for the other
        jobs and only the new ones need planning.
        """
        now = view.now
        sizes, est, taus = fresh
        # The jobs suspended in this pass are idle from now on too.
        victims = [d.job for d in out if isinstance(d, Suspend)]
        if not len(sizes) and not held_idle and not victims:
            self._tick = None
            return
        soonest = _next_multiple(now, self.interval)
        if not self.skip_idle_ticks:
            self._tick = soonest
            return
        if self._tick is not None and now < self._tick <= soonest:
            # Already the next tick: a new plan could only put it later, saving
            # at most one pass that finds nothing, for the price of a plan now.
            return
        version = self.protection_version()
        planned = self._tick
        incremental = (
            new is not None
            and not victims
            and (planned is None or planned > now)
            and version == self._planned_version
        )
        if incremental:
            assert new is not None
            pick = np.flatnonzero(new)
            if not len(pick):
                return  # the plan holds
            sizes, est, taus = sizes[pick], est[pick], taus[pick]
        self._planned_version = version
        # The running jobs once this pass's decisions apply: those suspended
        # leave, those started or resumed join with the threshold they have now.
        tau_of = self._running_tau
        board = self._board
        if board is not None:
            # The board has this pass's decisions already.
            if not board.running:
                self._tick = None  # nothing to preempt until an event starts something
                return
            ladder = None
        else:
            gone = {v.id for v in victims}
            entries = [(tau_of[r.id], r, r.allocation) for r in view.running if r.id not in gone]
            for d in out:
                if isinstance(d, Start):
                    entries.append((_idle_threshold(d.job, now), d.job, d.allocation))
                elif isinstance(d, Resume):
                    entries.append((_idle_threshold(d.job, now), d.job, d.job.home))
            if not entries:
                self._tick = None  # nothing to preempt until an event starts something
                return
            ladder = self._ladder_for(entries, avail, view)
        # Victims and fresh jobs (only the new ones when incremental) first:
        # they are cheap. The suspended jobs' bars cost most, and only matter
        # when the others leave the next tick later than the soonest.
        first = math.inf
        if victims:
            # A victim's threshold goes on from the one it ran with.
            if board is not None:
                bars = board.bars_of(victims).tolist()
                for v, bar in zip(victims, bars, strict=True):
                    when = now + (self.sf * bar - tau_of[v.id]) * max(v.estimate, 1e-9)
                    first = min(first, when)
            else:
                assert ladder is not None
                v_taus = np.array([tau_of[v.id] for v in victims])
                mine = _Homes(victims, view.nodes)
                v_sizes, v_est = mine.columns[0], mine.columns[1]
                when = ladder.earliest(v_sizes, v_est, v_taus, 0, mine, now)
                first = min(first, float(when.min()))
        held = held_idle and not incremental
        if board is not None:
            ladder_taus, widths = board.ladder()
            first = kernels.board_earliest(
                now, self.sf, first, sizes, est, taus, avail, ladder_taus, widths, board.rule,
                soonest, held, board.active, board.top, board.stuck, board.est, board.submit,
                board.done,
            )  # fmt: skip
        else:
            assert ladder is not None
            if len(sizes):
                fresh_first = ladder.earliest(sizes, est, taus, len(sizes), _NO_HOMES, now)
                first = min(first, float(fresh_first.min()))
            if held and first > soonest:
                assert held_first is not None
                first = min(first, held_first(ladder, now))
        if not incremental:
            planned = None
        if not math.isfinite(first):
            # No idle job can ever preempt the jobs now running: only an event
            # (which brings a pass) changes that.
            self._tick = planned
            return
        # Ticks are the multiples of the interval; the first at or after `first`.
        tick = _next_multiple(max(first, now) - 1e-9 * self.interval, self.interval)
        if tick <= now:
            tick = soonest
        self._tick = tick if planned is None else min(tick, planned)


_NO_HOMES = _Homes((), 0)


class _Slots:
    """The board's suspended jobs in the order of ``slots``, each fetched only when
    asked for (a pass tries a few of hundreds)."""

    def __init__(self, jobs: list[JobView | None], slots: list[int]) -> None:
        self._jobs = jobs
        self._slots = slots

    def __len__(self) -> int:
        return len(self._slots)

    def __getitem__(self, k: int) -> JobView:
        job = self._jobs[self._slots[k]]
        assert job is not None
        return job


def _thresholds(jobs: Sequence[JobView], now: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sizes, estimates and thresholds now of idle ``jobs``."""
    # Column by column: a pass's few queued jobs cost less this way than as a table.
    est = [max(j.estimate, 1e-9) for j in jobs]
    taus = [(now - j.submit - j.run_time_done + e) / e for j, e in zip(jobs, est, strict=True)]
    return (
        np.array([j.size for j in jobs], dtype=np.int64),
        np.array(est, dtype=float),
        np.array(taus, dtype=float),
    )


class _Ladder:
    """The running jobs by threshold: when could an idle job first preempt?

    Every bound here is a necessary condition (width restrictions of fresh
    jobs are left out), so a tick before `earliest` can start nothing:
    skipping it leaves the schedule unchanged.
    """

    def __init__(
        self,
        entries: list[tuple[float, JobView, Allocation | None]],
        avail: np.ndarray,
        view: View,
        policy: SelectiveSuspension,
        key: object,
    ) -> None:
        self.key = key
        self.policy = policy
        self.entries = entries
        #: homes key -> bars of those suspended jobs (they depend on nothing else).
        self._home_cache: dict[tuple[int, ...], np.ndarray] = {}
        self._per_node: tuple[np.ndarray, np.ndarray] | None = None
        self.avail = avail.copy()  # the caller goes on changing its own
        self.free = int(avail.sum())
        self.view = view
        if policy.protects:
            self.protected = [policy.protected(r, t) for t, r, _ in entries]
            open_ = [e for e, p in zip(entries, self.protected, strict=True) if not p]
        else:
            self.protected = [False] * len(entries)
            open_ = entries
        self.taus = np.array([e[0] for e in open_] + [math.inf], dtype=float)
        self.widths = np.array([e[1].size for e in open_], dtype=np.int64)

    def earliest(
        self,
        sizes: np.ndarray,
        est: np.ndarray,
        taus: np.ndarray,
        nf: int,
        homes: _Homes,
        now: float,
    ) -> np.ndarray:
        """For each idle job (fresh ones first, ``nf`` of them, then ``homes``' jobs),
        the first time its threshold may be high enough to preempt."""
        # A fresh job needs the lowest-threshold jobs it may suspend (by the
        # width rule) that, with the free cores, make up its size: the last
        # of them sets the bar. Exact for a fresh job (`_victims` takes the
        # same jobs), so no tick is spent on one that cannot preempt.
        # With one core per node a suspended job's bar is its home's instead.
        by_home = self.view.cores_per_node == 1 and len(homes.key) > 0
        ladder = slice(0, nf) if by_home else slice(None)
        rule = kernels.RULES[self.policy.width]
        bar = kernels.fresh_bars(sizes[ladder], self.free, self.taus, self.widths, rule)
        if by_home:
            bar = np.concatenate((bar, np.empty(len(sizes) - nf)))
            cached = self._home_cache.get(homes.key)
            if cached is None:
                cached = self._home_cache[homes.key] = self._home_bars(sizes[nf:], homes)
            bar[nf:] = cached
        with np.errstate(invalid="ignore"):
            return now + (self.policy.sf * bar - taus) * est

    def _nodes(self) -> tuple[np.ndarray, np.ndarray]:
        """Per node: the threshold and width of the job on it.

        Free nodes have threshold -inf and width 0; nodes held otherwise (a
        job switching out, a claim) and those of protected jobs +inf: no
        suspended job can re-enter over them.
        """
        if self._per_node is None:
            n = len(self.avail)
            tau = np.where(self.avail > 0, -math.inf, math.inf)
            width = np.zeros(n, dtype=np.int64)
            alloc_nodes = [a.nodes for _, _, a in self.entries]  # type: ignore[union-attr]
            counts = [len(x) for x in alloc_nodes]
            where = np.concatenate(alloc_nodes)
            taus = [
                math.inf if p else t
                for (t, _, _), p in zip(self.entries, self.protected, strict=True)
            ]
            tau[where] = np.repeat(taus, counts)
            width[where] = np.repeat([r.size for _, r, _ in self.entries], counts)
            self._per_node = (tau, width)
        return self._per_node

    def _home_bars(self, sizes: np.ndarray, homes: _Homes) -> np.ndarray:
        """One core per node: every job on a suspended job's home must be its candidate."""
        tau, width = self._nodes()
        nodes, starts = homes.nodes, homes.starts
        top = np.maximum.reduceat(tau[nodes], starts)
        stuck = np.zeros(len(starts), dtype=bool)
        if self.policy.width == "text":
            stuck |= np.maximum.reduceat(width[nodes], starts) > 2 * sizes
        elif self.policy.width == "formula":
            # Stuck behind a job at most half its width (free nodes hold none).
            w = width[nodes]
            narrow = (w > 0) & (2 * w <= np.repeat(sizes, homes.lengths))
            stuck |= np.logical_or.reduceat(narrow, starts)
        return np.where(stuck, math.inf, np.maximum(top, 0.0))


@register("tss")
class TunableSelectiveSuspension(SelectiveSuspension):
    """Tunable Selective Suspension: SS, but jobs far beyond their category's slowdown stay put.

    ``limit`` (1.5): a running job whose threshold exceeds ``limit`` times
    the average slowdown of its category cannot be suspended (seed 000
    section 3.5). ``averages``: a CSV of per-category averages (rows
    VS/S/L/VL, columns Seq/N/W/VW, as `schedsim.model.results.Result.category_table`
    writes); empty (default) tracks them online. Other parameters as SS.
    """

    def __init__(
        self,
        sf: float = 2.0,
        interval: float = 60.0,
        width: Width = "text",
        limit: float = 1.5,
        averages: str = "",
    ) -> None:
        super().__init__(sf, interval, width)
        if not (limit > 0 and math.isfinite(limit)):
            raise ValueError(f"limit must be a positive number, got {limit}")
        self.limit = float(limit)
        self.averages = averages
        self._table = read_averages(averages) if averages else None
        self._sum = [0.0] * 16
        self._count = [0] * 16

    def params(self) -> dict[str, object]:
        return {**super().params(), "limit": self.limit, "averages": self.averages}

    protects = True

    def protection_version(self) -> int:
        return sum(self._count) if self._table is None else 0

    def observe(self, view: View) -> None:
        if self._table is not None:
            return
        for job in view.ended:
            run = job.run_time_done
            assert job.end is not None
            wait = job.end - job.submit - run
            bounded = max(run, _BOUND)
            c = category(run, job.size)
            self._sum[c] += (wait + bounded) / bounded
            self._count[c] += 1

    def average(self, cat: int) -> float:
        """The average slowdown of category ``cat`` (inf when not known yet)."""
        if self._table is not None:
            return self._table[cat]
        n = self._count[cat]
        return self._sum[cat] / n if n else math.inf

    def protected(self, job: JobView, threshold: float) -> bool:
        return threshold > self.limit * self.average(category(job.estimate, job.size))


def read_averages(path: str | Path) -> list[float]:
    """The 16 category averages of a CSV in `Result.category_table`'s layout, row by row.

    Errors name the file and the row or column at fault; an empty cell (a
    category with no jobs in the earlier run) sets no limit.
    """
    import pandas as pd

    path = Path(path)
    try:
        table = pd.read_csv(path, index_col=0)
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: cannot read category averages: {exc}") from None
    rows = [str(r) for r in table.index]
    cols = [str(c) for c in table.columns]
    for want, have, what in ((_ROWS, rows, "rows"), (_COLS, cols, "columns")):
        missing = [w for w in want if w not in have]
        if missing:
            raise ValueError(
                f"{path}: category averages need {what} {', '.join(want)}; missing {missing}"
            )
    out = []
    for r in _ROWS:
        for c in _COLS:
            value = pd.to_numeric(table.loc[r, c], errors="coerce")
            if isinstance(value, pd.Series):
                raise ValueError(f"{path}: row {r!r} appears more than once")
            if np.isnan(value):
                raw = table.loc[r, c]
                if isinstance(raw, str) and raw.strip():
                    raise ValueError(f"{path}: row {r}, column {c}: not a number: {raw!r}")
                out.append(math.inf)
            elif not value > 0:
                raise ValueError(f"{path}: row {r}, column {c}: must be positive, got {value}")
            else:
                out.append(float(value))
    return out


@register("is")
class ImmediateService(Policy, _Idle):
    """Immediate Service: every arrival runs at once for a time slice, suspending others.

    ``quantum`` is the slice in seconds (10 min in seed 000 section 2.3).
    Victims are the running jobs of lowest instantaneous xfactor; see
    `schedsim.policies.suspension` for what happens when the slice ends.
    """

    def __init__(self, quantum: float = 600.0) -> None:
        _Idle.__init__(self)
        if not (quantum > 0 and math.isfinite(quantum)):
            raise ValueError(f"quantum must be a positive number of seconds, got {quantum}")
        self.quantum = float(quantum)
        #: job id -> clock time its slice ends, for jobs in their slice.
        self._slice: dict[int, float] = {}
        #: job id -> the jobs it suspended to get its slice.
        self._displaced: dict[int, tuple[JobView, ...]] = {}
        #: Arrivals waiting on a claim: their slice starts when they do.
        self._pending: set[int] = set()
        self._homes: _Homes | None = None

    def params(self) -> dict[str, float]:
        return {"quantum": self.quantum}

    def schedule(self, view: View) -> list[Decision]:
        now = view.now
        for job in view.ended:
            self._slice.pop(job.id, None)
            self._displaced.pop(job.id, None)
        out = self.claims.settle(view)
        for d in out:
            if d.job.id in self._pending:
                self._pending.discard(d.job.id)
                self._slice[d.job.id] = now + self.quantum
        avail = self.claims.avail(view, out)

        # Fresh jobs keep off the nodes suspended jobs must re-enter on.
        waiting = [j for j in view.suspended if j.allocation is None]
        if self._homes is None or self._homes.key != tuple(map(_ID, waiting)):
            self._homes = _Homes(waiting, view.nodes)
        homes = self._homes.per_node

        # Slices that ended: give the processors back to the jobs displaced.
        suspended: set[int] | None = None  # the ids suspended now, when first needed
        for job in view.running:
            end = self._slice.get(job.id)
            if end is None or end > now:
                continue
            del self._slice[job.id]
            displaced = self._displaced.pop(job.id, ())
            if suspended is None:
                suspended = {j.id for j in view.suspended}
            if any(v.id in suspended for v in displaced):
                decisions, _ = suspend(view, [job], avail)
                out.extend(decisions)

        # Arrivals get their slice now.
        suspended_now = {d.job.id for d in out if not isinstance(d, (Start, Resume))}
        for job in view.arrived:
            if job.state is not State.QUEUED or job.id in self.claims:
                continue
            d = self.start_if_free(job, avail, view, homes)
            if d is not None:
                out.append(d)
                self._slice[job.id] = now + self.quantum
                continue
            cands = sorted(
                (
                    r
                    for r in view.running
                    if r.id not in self._slice
                    and r.id not in suspended_now
                    and r.allocation is not None
                ),
                key=lambda r: (r.instantaneous_xfactor(now), -r.submit, -r.id),
            )
            victims = minimal_victims(job.size, int(avail.sum()), cands)
            if not victims:
                continue  # no slice to be had: it waits like any idle job
            out.extend(self.preempt(job, victims, avail, view))
            suspended_now.update(v.id for v in victims)
            self._displaced[job.id] = tuple(victims)
            if job.id in self.claims:
                self._pending.add(job.id)
            else:
                self._slice[job.id] = now + self.quantum

        # Everyone else, highest instantaneous xfactor first, where there is room.
        fresh, held = self.idle(view, {d.job.id for d in out})
        idle = fresh + held
        if idle:
            sizes, _, submit, done, ids = (
                np.concatenate(c) for c in zip(_columns(fresh), _columns(held), strict=True)
            )
            # Instantaneous xfactor of an idle job: (wait + run so far) / run so far.
            ran = np.where(done > 0, done, 1.0)
            inst = np.where(done > 0, (now - submit) / ran, math.inf)
            nf = len(fresh)
            fits = np.zeros(len(idle), dtype=bool)
            fits[:nf] = sizes[:nf] <= int(avail.sum())
            fits[nf:] = [_fits(avail, j) for j in held]
            for k in np.lexsort((ids, submit, -inst)).tolist():
                if not fits[k]:
                    continue  # cores only get fewer during the pass
                d = self.start_if_free(idle[k], avail, view, homes)
                if d is not None:
                    out.append(d)
        ends = [t for t in self._slice.values() if t > now]
        if ends:
            out.append(WakeAt(min(ends)))
        return out
