"""Selective Suspension, accelerated (``ss``): the thesis's rule at a fraction of the passes.

`SelectiveSuspension` makes the schedule of `schedsim.policies.selective_suspension.rule`'s
`PlainSelectiveSuspension` (``ss-plain``), SS as seed 000 states it
(sections 3.1-3.3: thresholds, the width restriction, candidates, a
minimal victim set, placement, the preemption routine at every multiple
of ``interval`` while a job is idle), with the rule's functions from that
module, but far fewer and cheaper passes. The tests compare the two on
random workloads, job table and piece log.

Ticks at which no idle job could preempt are skipped: the thresholds of
running jobs are constant and those of idle jobs grow linearly, so the
first tick at which a job's threshold can exceed SF times the highest
threshold among the jobs it would need is known in advance
(`schedsim.policies.selective_suspension.ticks`), and between events nothing else changes. More
shortcuts rest on the same monotony:

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
  tick), which `schedsim.policies.selective_suspension.kernels.may_preempt` tells.

With one core per node and no suspension overhead (the thesis's setting
for SS) a board (`schedsim.policies.selective_suspension.board.HomeBoard`) keeps, event by
event, the threshold and width of the job on each node and, for each
suspended job, the highest threshold and the jobs out of its reach on its
home: which suspended jobs fit and when each could preempt are then read,
not recomputed over every home at every pass; the queued jobs' columns are
kept beside it (`schedsim.policies.queue_columns.Queued`), and the walks over
nodes, homes and jobs are loops compiled with numba
(`schedsim.policies.selective_suspension.kernels`). Otherwise the suspended jobs' homes are
flat arrays updated as jobs leave and join (`schedsim.policies.selective_suspension.ticks.Homes`),
and the ladder of running jobs (`schedsim.policies.selective_suspension.ticks.Ladder`) is
shared by all tests of one state.

The reading ``hold`` (`rule.hold_home`: a suspended job that cannot re-enter keeps
its home's free cores from the idle jobs after it) is followed here too
(`SelectiveSuspension.NATIVE`); the other readings' schedules are the plain rule's,
which runs as it is. Under ``hold`` a pass walks, in the idle order, the suspended
jobs with a free core on their home besides the jobs that may start (a suspended
one keeps its home whether it was ready to start or not): `_full_pass` in Python,
the passes without preemption on the board in one compiled loop
(`schedsim.policies.selective_suspension.kernels.board_starts_kept`); and the idle
order, which thresholds growing at 1 / estimate change between events, is watched:
a pass of arrivals alone tries the new jobs alone only if no idle job may have
overtaken a suspended job that kept free cores from it since the last pass
(`SelectiveSuspension._order_turned`). The planned ticks stay lower bounds: the bars
are computed on the free cores, kept ones included, so a job kept from cores it
fits has a tick planned at every multiple of the interval while it waits, which
covers what the order may give it between events.

TSS (`schedsim.policies.selective_suspension.tunable`) is this class with protections. On the
board a protected running job is *shielded* (its threshold reads inf:
out of every idle job's reach). A protection can only change when a job
ends (online averages move then), and only for the running jobs the hook
`SelectiveSuspension.protection_changes` names (TSS: those of the
categories whose average moved): each pass with ends asks again for
those, and shields or unshields the ones whose answer changed.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from operator import attrgetter
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from schedsim.model.cluster import Allocation
from schedsim.model.policy import Decision, Policy, Resume, Start, Suspend, View, WakeAt, register
from schedsim.model.view import JobView, State
from schedsim.policies.preemption import Idle, fits_home
from schedsim.policies.queue_columns import Queued
from schedsim.policies.selective_suspension.plain import PlainSelectiveSuspension
from schedsim.policies.selective_suspension.rule import (
    Parameters,
    Protection,
    candidates,
    check_progress,
    choose_victims,
    hold_home,
    idle_threshold,
    is_tick,
    next_tick,
    running_thresholds,
)
from schedsim.policies.selective_suspension.ticks import (
    NO_HOMES,
    Homes,
    Ladder,
    Slots,
    columns,
    row,
    thresholds,
)

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.policies.selective_suspension.board import HomeBoard

# `schedsim.policies.selective_suspension.kernels` (numba, about a second to import)
# and the board, which imports it, are imported inside the functions that use them:
# listing the policies imports this module, and need not load numba.

__all__ = ["SelectiveSuspension"]


@functools.cache
def _kernels() -> ModuleType:
    """`schedsim.policies.selective_suspension.kernels`, imported at its first use: a
    call per pass then, not an import statement."""
    from schedsim.policies.selective_suspension import kernels

    return kernels


@register("ss")
class SelectiveSuspension(Parameters, Policy, Idle):
    """Selective Suspension (Kettimuthu 2003): an idle job suspends jobs of SF-times lower xfactor.

    The parameters and readings are ``ss-plain``'s, defined once
    (`schedsim.policies.selective_suspension.rule.Parameters`): ``sf`` the
    suspension factor, ``interval`` the period of the preemption routine in
    seconds, ``width`` the width restriction (``text``, ``formula`` or
    ``none``), and the readings ``resumed``, ``hold`` and ``prefer``. The schedule
    of ``ss-plain`` (`schedsim.policies.selective_suspension.plain`), made faster
    for the text's readings and every ``hold``; with another ``resumed`` or
    ``prefer``, that plain rule runs as it is.
    See `schedsim.policies.selective_suspension.fast`.
    """

    def _reset(self) -> None:
        Idle.__init__(self)
        #: With a reading other than the text's (but ``hold``, done here: `NATIVE`), the
        #: plain rule makes the schedule: the shortcuts below rest on the text's readings
        #: (module docstring).
        self._plain: PlainSelectiveSuspension | None = None
        if self._runs_plain():
            self._plain = self._plain_rule()
        #: The clock time of the last pass that could decide anything (``hold``:
        #: `_order_turned` compares the idle order then and now).
        self._last_pass = -math.inf
        #: The next clock time at which the preemption routine runs (None: no job idle).
        self._tick: float | None = None
        #: Whether the run has a suspension overhead (as the last view said).
        self._overhead = False
        self._homes: Homes | None = None
        #: `row`s of the jobs suspended now, by id (see `Homes`).
        self._rows: dict[int, tuple] = {}
        self._ladder: Ladder | None = None
        #: The running jobs' thresholds by id (`rule.running_thresholds`).
        self._running_tau: dict[int, float] = {}
        #: Whether no idle job could start on the free cores the last pass left
        #: (so that at a pass that only brings arrivals, only they can start).
        self._settled = False
        #: Free cores the last pass left, and `protection_version` at the last full plan.
        self._free_after = -1
        self._planned_version = 0
        #: Whether a plan was made: the first covers every idle job, whether it arrived
        #: now or not (a policy's first view may hold queued jobs that did not).
        self._planned = False
        #: The running jobs and the suspended jobs' homes node by node, when
        #: one core per node and no overhead let it serve (`_board_for`).
        self._board: HomeBoard | None = None
        #: Jobs suspended in the last pass: on the board once their run time
        #: is accounted (at the next pass).
        self._pending: list[JobView] = []
        #: The queued jobs' columns, kept with the board (`_board_for`).
        self._queued: Queued | None = None

    #: The readings this class follows itself, without running the plain rule: ``hold``
    #: (`_full_pass` keeps the homes as the plain pass does; `_order_turned` tells when
    #: the idle order may have given a job the cores a suspended job kept from it).
    NATIVE: tuple[str, ...] = ("hold",)

    # -- hooks for TSS (`observe` and `protected` are `Parameters`'s) ----------------
    def _runs_plain(self) -> bool:
        """Whether the plain rule makes the schedule: a reading this class does not follow
        itself (`NATIVE`) is not the text's (TSS: or its protection is read otherwise)."""
        return not self.text_readings(*self.NATIVE)

    def _plain_rule(self) -> PlainSelectiveSuspension:
        """The plain rule that makes the schedule under a reading other than the text's."""
        return PlainSelectiveSuspension(self.sf, self.interval, self.width, **self.readings)  # type: ignore[arg-type]

    def protection_version(self) -> int:
        """Changes whenever `protected` may answer differently for the same job (TSS)."""
        return 0

    def protection_changes(self, view: View) -> Sequence[JobView]:
        """The running jobs for which `protected` may answer differently than at the
        last pass (TSS); called after `observe`. Any others keep their answer."""
        return ()

    def _protection(self) -> Protection:
        if not self.protects:
            return None
        board = self._board
        if board is not None:
            # The board's shields are `protected`'s answers for the running jobs at
            # their thresholds (`_board_for` keeps them so), read without asking again.
            shielded = board.shielded
            return lambda job, threshold: job.id in shielded
        return self.protected

    # -- the pass --------------------------------------------------------------------
    def schedule(self, view: View) -> list[Decision]:
        if self._plain is not None:
            return self._plain.schedule(view)
        now = view.now
        self._overhead = view.overhead is not None
        check_progress(self.sf, view)
        self.observe(view)
        # A running job's threshold is its xfactor when it (re)started: constant.
        self._running_tau = running_thresholds(self._running_tau, view)
        tick = self._is_tick(now)
        board = self._board_for(view)
        stale = tick and self._stale_timer(view)
        if stale:
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
        if not stale:
            self._last_pass = now
        planned = self._tick
        if planned is not None and planned > view.now and planned not in view.timers:
            out.append(WakeAt(planned))  # not asked for yet (a pending timer will come)
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
            not self._overhead and not len(self.claims) and (self._tick is None or self._tick > now)
        )

    def _is_tick(self, time: float) -> bool:
        # The routine runs at every multiple of the interval while a job runs
        # (whether or not a tick was asked for: an event may fall on one).
        return is_tick(time, self.interval) and bool(self._running_tau)

    def wants_pass(self, time: float) -> bool:
        """No pass for a timer the plan has moved on from (`_stale_timer`): it would
        find nothing new and do nothing. Events at that instant bring their own."""
        if self._plain is not None:
            return True
        return not (self._is_tick(time) and self._moved_on(time))

    def _only_arrivals(self, view: View) -> bool:
        """Whether nothing but arrivals happened since a pass that left nothing startable.

        Then the free cores are those the last pass left (nothing ended, no
        write-out), every other idle job still does not fit them, and only
        the new jobs, whose thresholds are 1 (they come last), may start.
        """
        return (
            self._settled
            and not view.ended
            and view.overhead is None
            and not len(self.claims)
            and (self._tick is None or self._tick > view.now)
            and self.protection_version() == self._planned_version
            and view.free_cores == self._free_after
            and all(j.submit == view.now for j in view.arrived)
            and (self.hold == "none" or not self._order_turned(view))
        )

    def _held(self, view: View) -> Homes:
        """The suspended jobs done writing out (and on no claim), with their homes (cached)."""
        if view.overhead is None and not len(self.claims):
            held: Sequence[JobView] = view.suspended  # freed their cores when suspended
        else:
            skip = self.claims.ids()
            held = [j for j in view.suspended if j.allocation is None and j.id not in skip]
        homes = self._homes
        if homes is None:
            homes = self._homes = Homes(held, view.nodes, self._rows)
        elif homes.jobs != tuple(held):
            homes = self._homes = homes.update(held, view.nodes, self._rows)
        return homes

    def _board_for(self, view: View) -> HomeBoard | None:
        """The board (`schedsim.policies.selective_suspension.board`) brought up to
        this pass, or None where it cannot serve: several cores per node or a
        suspension overhead (a node being written out is neither free nor running)."""
        if not (view.overhead is None and view.cores_per_node == 1):
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
                # Suspended at the last pass, those still suspended are the last ones in
                # the view's suspension order: only that tail is looked at.
                tail = view.suspended[max(len(view.suspended) - len(self._pending), 0) :]
                now_suspended = {j.id: j for j in tail}
                for job in self._pending:
                    current = now_suspended.get(job.id)
                    if current is not None and current.id not in board.slot:
                        board.add(current, row(current))
            if self.protects:
                self._reshield(view, board)
        self._pending = []
        if (
            board is None
            or board.busy != view.nodes - view.free_cores
            or len(board.slot) != len(view.suspended)
        ):
            # A first pass (or a policy run again): build it from the view.
            board = self._board = self._build_board(view)
        return board

    def _reshield(self, view: View, board: HomeBoard) -> None:
        """Shield the running jobs `protected` now protects, and no others: only those
        `protection_changes` names can have changed."""
        tau_of = self._running_tau
        for job in self.protection_changes(view):
            tau = tau_of[job.id]
            now = self.protected(job, tau)
            if now != (job.id in board.shielded):
                assert job.allocation is not None
                board.shield(job.id, job.allocation.nodes, tau, now)

    def _build_board(self, view: View) -> HomeBoard:
        """A board of the running and suspended jobs of ``view``, from scratch."""
        from schedsim.policies.selective_suspension.board import HomeBoard

        board = HomeBoard(view.nodes, self.width)
        tau_of = self._running_tau
        for r in view.running:
            assert r.allocation is not None
            tau = tau_of[r.id]
            board.occupy(r.id, r.allocation.nodes, tau, r.size, self._shields(r, tau))
        for job in view.suspended:
            board.add(job, row(job))
        return board

    def _shields(self, job: JobView, tau: float) -> bool:
        # Whether running ``job`` of threshold ``tau`` goes on the board shielded (TSS).
        return self.protects and self.protected(job, tau)

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
        taken = None
        if self.hold != "none":
            # The new jobs come last in the idle order (threshold 1, submitted now): behind
            # every suspended job, which could not re-enter (nothing changed since) and
            # keeps its home's free cores (`rule.hold_home`): all of them, or the head's.
            taken = np.minimum(avail, self._kept_from_arrivals(view, homes))
            avail -= taken
        total = view.free_cores if self.hold == "none" else int(avail.sum())
        out: list[Decision] = []
        stay: list[JobView] = []
        for job in sorted(view.arrived, key=attrgetter("id")):
            if job.state is not State.QUEUED:
                continue
            if job.size > total:
                d = None
            elif self._board is not None:
                d = self._start_on_board(job, avail, homes)
            else:
                d = self.start_if_free(job, avail, view, homes)
            if d is None:
                stay.append(job)
            else:
                out.append(d)
                total -= job.size
        if self._board is not None:
            self._started_on_board(out, now)
        else:
            self._remember(out, now)
        if stay:
            fresh = thresholds(stay, now)
            new = np.ones(len(stay), dtype=bool)
            if taken is not None:
                avail += taken  # the plan reads the free cores, kept ones too (a lower bound)
            self._plan_tick(view, out, avail, fresh, new, False, None)
        return out

    def _board_pass(self, view: View, board: HomeBoard) -> list[Decision]:
        """A pass with no tick (no preemption) on the board: the same decisions as
        `_full_pass`, with only the jobs that fit tried.

        Without a preemption cores only get fewer during the pass, so a job
        that does not fit at its start is passed over (as `_full_pass`'s
        ``ready`` does): the fresh jobs no larger than the free cores and the
        suspended jobs whose homes are free are all that is tried, in
        decreasing threshold, then submit time, then id: one compiled loop
        (`schedsim.policies.selective_suspension.kernels.board_starts`), which places a fresh job
        as `schedsim.policies.preemption.Idle.start_if_free` does.
        """
        now = view.now
        free = view.free_cores
        queued = self._queued
        assert queued is not None
        out: list[Decision] = []
        avail = view.free_per_node
        if free:
            # Tried in one compiled loop (`HomeBoard.starts`): a job wider than the
            # cores left cannot fit (one core per node), and start_if_free's placement.
            avail = avail.copy()
            keep, head, kept = 0, -1, None
            if self.hold != "none":
                # The suspended jobs keep their homes' free nodes (`rule.hold_home`): all
                # of them, or the one heading the idle order (its slot; -1: a queued job).
                kernels = _kernels()
                kept = np.zeros_like(avail)
                keep = kernels.KEEP_ALL if self.hold == "all" else kernels.KEEP_TOP
                if self.hold == "top":
                    head = self._head_slot(view, board)
            for job, nodes in board.starts(now, free, queued, avail, keep, head, kept):
                if nodes is None:
                    out.append(Resume(job))
                else:
                    out.append(Start(job, Allocation.one_core_each(nodes.copy())))
            if kept is not None:
                avail += kept  # the plan reads the free nodes, kept ones too (a lower bound)
        self._started_on_board(out, now)  # the jobs started leave ``queued``
        self._settled = True
        new = None
        if not view.ended:
            arrived = {j.id for j in view.arrived}
            new = np.array([j.id in arrived for j in queued.jobs], dtype=bool)
        held_idle = bool(board.slot)
        self._plan_tick(view, out, avail, queued.thresholds(now), new, held_idle, None)
        self._changed(out)
        return out

    def _head_slot(self, view: View, board: HomeBoard) -> int:
        """The board's slot of the suspended job that heads the idle order, or -1 when a
        queued job heads it (``hold="top"``: it alone keeps its home)."""
        (f_tau, f_submit, f_id), (_, h_tau, h_submit, h_id) = self._idle_columns(view)
        if not len(h_tau):
            return -1
        first = int(np.lexsort((np.concatenate((f_id, h_id)),
                                np.concatenate((f_submit, h_submit)),
                                -np.concatenate((f_tau, h_tau))))[0])  # fmt: skip
        if first < len(f_tau):
            return -1
        return int(np.flatnonzero(board.active)[first - len(f_tau)])

    def _may_preempt(self, view: View, board: HomeBoard) -> bool:
        """Whether a preemption might happen at this tick (`kernels.may_preempt`); when
        not, the tick's pass makes the starts a pass with no tick makes.

        Events fall on ticks too (every multiple of the interval is one), and
        most of those passes have no job that could preempt.
        """
        kernels = _kernels()
        assert self._queued is not None
        sizes, est, taus = self._queued.thresholds(view.now)
        ladder_taus, widths = board.ladder()
        return kernels.may_preempt(
            view.now, self.sf, sizes, est, taus, view.free_cores, ladder_taus, widths,
            board.rule, board.active, board.top, board.stuck, board.est, board.submit,
            board.done,
        )  # fmt: skip

    def _full_pass(self, view: View, tick: bool = False) -> list[Decision]:
        now = view.now
        started = self.claims.settle(view) if len(self.claims) else []
        avail = self.claims.avail(view, started)
        out: list[Decision] = [*started]
        # Idle: queued jobs, and suspended jobs done writing out; none on a
        # claim or started by one just now.
        settled = {d.job.id for d in started}
        skip = settled | self.claims.ids() if len(self.claims) else settled
        board = self._board
        queued = self._queued
        fresh_columns: tuple[np.ndarray, ...]
        if queued is not None and not skip:
            # In the queued columns' order: the pass orders its candidates itself.
            fresh = list(queued.jobs)
            fresh_columns = queued.columns()
        else:
            fresh = [j for j in view.queue if j.id not in skip] if skip else list(view.queue)
            fresh_columns = columns(fresh)
        slots = None  # the board's slots of the suspended jobs, at the pass's start
        if board is None:
            homes = self._held(view)
            if settled:
                left = [j for j in homes.jobs if j.id not in settled]
                homes = Homes(left, view.nodes, self._rows)
            held: list[JobView] | Slots = list(homes.jobs)
            held_columns = homes.columns
            per_node = homes.per_node
        else:
            # The board follows the pass's decisions as they are made; its
            # suspended jobs are those of the pass's start until one resumes.
            slots = np.flatnonzero(board.active)
            held = Slots(board.jobs, slots.tolist())
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
        running = self._running_in_order(view) if tick else []

        def board_ladder() -> tuple[np.ndarray, np.ndarray]:
            # The ladder of the running jobs that may be suspended: as `Ladder`'s.
            assert board is not None
            shielded = board.shielded
            open_ = [p for p in running if p[1].id not in shielded] if shielded else running
            ladder_taus = np.array([t for t, _ in open_] + [math.inf])
            return ladder_taus, np.array([r.size for _, r in open_], dtype=np.int64)

        def ready() -> np.ndarray:
            # Cheap necessary conditions: a fresh job needs enough free cores, a
            # suspended one its home free, a preemption its bound (`Ladder`).
            # The board knows the jobs started in this pass, which the ladder
            # leaves out as blocking: its bounds are lower, it may let through
            # a job that cannot preempt (`_victims` says so), never stop one.
            free = int(avail.sum())
            if board is not None:
                return _kernels().ready_on_board(
                    now, self.sf, bool(tick and running), sizes, est, taus, nf, free,
                    *board_ladder(), board.rule, slots, board.top, board.stuck,
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

        def board_todo(pivot: int) -> list[int]:
            # `ready` then `in_order` in one compiled call, on the board with no ``hold``:
            # every job `ready` lets through, or (``pivot`` >= 0) those after ``pivot``.
            assert board is not None
            return _kernels().ready_in_order(
                now, self.sf, bool(tick and running), sizes, est, taus, submit, ids, nf,
                int(avail.sum()), *board_ladder(), board.rule, slots, board.top, board.stuck,
                pivot,
            ).tolist()  # fmt: skip

        # The candidates in order; after a preemption, those after it afresh. With a
        # ``hold``, every idle job in order: a suspended job that cannot re-enter keeps
        # its home's free cores from the jobs after it (`rule.hold_home`, as the plain
        # pass), ready or not; ``kept`` counts them, so that ``avail + kept`` is free.
        kept = None
        if self.hold == "none":
            todo = board_todo(-1) if board is not None else in_order(np.flatnonzero(ready()))
        else:
            kept = np.zeros_like(avail)
            everyone = in_order(np.arange(n))
            head = everyone[0] if everyone else -1  # rank 0 of the plain pass ("top")
            ok = ready()
            if self.hold == "top":
                keeper = np.zeros(n, dtype=bool)
                keeper[head] = head >= nf
            else:
                mine = self._may_keep(avail, slots, n - nf)
                keeper = np.concatenate((np.zeros(nf, dtype=bool), mine))
            todo = in_order(np.flatnonzero(ok | keeper))
        taken = []
        preempted = False
        i = 0
        while i < len(todo):
            k = todo[i]
            i += 1
            job = fresh[k] if k < nf else held[k - nf]
            if kept is not None and not ok[k]:
                if k >= nf:  # it can neither re-enter nor preempt: it keeps its home
                    self._keep_home(avail, kept, job, k == head)
                continue
            if board is not None:
                d = self._start_on_board(job, avail, per_node)
            else:
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
                    if board is not None:
                        switch = self._switch_on_board(job, victims, avail)
                        self._on_board(switch, now)
                    else:
                        switch = self.preempt(job, victims, avail, view)
                    out.extend(switch)
                    taken.append(k)
                    chosen = {v.id for v in victims}
                    running = [p for p in running if p[1].id not in chosen]
                    preempted = True
                    # The suspensions changed what is possible for the jobs after it.
                    if kept is None and board is not None:
                        todo, i = board_todo(k), 0
                        continue
                    t, s, j = taus[k], submit[k], ids[k]
                    after = (taus < t) | (
                        (taus == t) & ((submit > s) | ((submit == s) & (ids > j)))
                    )
                    if kept is None:
                        todo, i = in_order(np.flatnonzero(after & ready())), 0
                    else:
                        ok = ready()
                        if self.hold == "all":  # victims' cores the job left free
                            keeper[nf:] = self._may_keep(avail, slots, n - nf)
                        todo, i = in_order(np.flatnonzero(after & (ok | keeper))), 0
                    continue
            if kept is not None and k >= nf:
                self._keep_home(avail, kept, job, k == head)
        if kept is not None:
            avail = avail + kept  # the free cores, for the plan: kept ones are free
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

            def held_first(ladder: Ladder, now: float) -> float:
                when = ladder.earliest(sizes[nf:], est[nf:], taus[nf:], 0, homes, now)
                return float(when[waiting].min())

        fresh_still = still[:nf]
        fresh_left = (sizes[:nf][fresh_still], est[:nf][fresh_still], taus[:nf][fresh_still])
        if new is not None:
            new = new[:nf][fresh_still]
        self._plan_tick(view, out, avail, fresh_left, new, bool(waiting.any()), held_first)
        self._changed(out)
        return out

    def _running_in_order(self, view: View) -> list[tuple[float, JobView]]:
        """``(threshold, job)`` of the running jobs, the most expendable first
        (`rule.running_order`: increasing threshold, then the later submitted, then the
        higher id), sorted on plain tuples rather than by a key function."""
        tau_of = self._running_tau
        keyed = sorted([(tau_of[r.id], -r.submit, -r.id, r) for r in view.running])
        return [(e[0], e[3]) for e in keyed]  # ids differ: no two keys tie up to ``r``

    @staticmethod
    def _start_on_board(
        job: JobView, avail: np.ndarray, homes: np.ndarray
    ) -> Start | Resume | None:
        """`schedsim.policies.preemption.Idle.start_if_free` where the board serves (one
        core per node): a queued job first fit on ``avail`` avoiding the suspended jobs'
        homes (``homes``, per node), as `schedsim.policies.preemption.fit_avoiding` places
        it, a suspended one on its home if all of it is free; takes the nodes from
        ``avail``. The same decisions, called with fewer layers at every start."""
        if job.state is State.SUSPENDED:
            if not fits_home(avail, job):
                return None
            home = job.home
            assert home is not None
            avail[home.nodes] -= home.cores
            return Resume(job)
        nodes = _kernels().first_fit_avoiding(avail, homes, job.size)
        if not len(nodes):
            return None
        avail[nodes] -= 1
        return Start(job, Allocation.one_core_each(nodes))

    def _switch_on_board(
        self, job: JobView, victims: list[JobView], avail: np.ndarray
    ) -> list[Decision]:
        """`schedsim.policies.preemption.switch_in` where the board serves (one core per
        node, no write-out, so no claim): suspend ``victims`` and start ``job`` on their
        nodes first (`schedsim.policies.preemption.place`: the lowest of them, then the
        lowest free ones), or resume it on its home; updates ``avail``. The same
        decisions, without the general case's per-node arrays."""
        out: list[Decision] = [Suspend(v) for v in victims]
        theirs = [v.allocation.nodes for v in victims]  # type: ignore[union-attr]
        if job.state is State.SUSPENDED:
            home = job.home
            assert home is not None
            mine = home.nodes
        else:
            mine = np.sort(np.concatenate(theirs))
            short = job.size - len(mine)
            if short <= 0:
                mine = mine[: job.size]
            else:  # the victims' nodes are busy in ``avail`` until they are suspended
                mine = np.sort(np.concatenate((mine, avail.nonzero()[0][:short])))
        for nodes in theirs:
            avail[nodes] += 1
        avail[mine] -= 1
        if job.state is State.SUSPENDED:
            out.append(Resume(job))
        else:
            out.append(Start(job, Allocation.one_core_each(mine)))
        return out

    # -- the reading ``hold`` (`rule.hold_home`) -------------------------------------
    def _keep_home(self, avail: np.ndarray, kept: np.ndarray, job: JobView, head: bool) -> None:
        """Suspended ``job``, which neither re-enters nor preempts, keeps its home's free
        cores from the jobs after it (`rule.hold_home`; ``head``: it heads the idle
        order); ``kept`` counts the cores kept per node."""
        taken = hold_home(avail, job, 0 if head else 1, self.hold)
        if taken is not None:
            assert job.home is not None
            kept[job.home.nodes] += taken

    def _kept_from_arrivals(self, view: View, homes: np.ndarray) -> np.ndarray:
        """The cores per node the suspended jobs keep from the jobs that just arrived, in a
        pass that only brings arrivals (`_arrivals`): with ``hold="all"`` every home
        (``homes``: cores per node), with ``"top"`` the home of the job that heads the
        idle order, if it is a suspended one."""
        if self.hold == "all":
            return homes
        kept = np.zeros_like(homes)
        (f_tau, f_submit, f_id), (h_jobs, h_tau, h_submit, h_id) = self._idle_columns(view)
        if not len(h_tau):
            return kept
        # The head: the highest threshold, then the earliest submit time, then the lowest id.
        taus = np.concatenate((f_tau, h_tau))
        first = int(np.lexsort((np.concatenate((f_id, h_id)),
                                np.concatenate((f_submit, h_submit)), -taus))[0])  # fmt: skip
        if first >= len(f_tau):
            job = h_jobs[first - len(f_tau)]
            assert job.home is not None
            kept[job.home.nodes] += job.home.cores
        return kept

    def _idle_columns(
        self, view: View
    ) -> tuple[
        tuple[np.ndarray, np.ndarray, np.ndarray],
        tuple[Sequence[JobView] | Slots, np.ndarray, np.ndarray, np.ndarray],
    ]:
        """The idle jobs at a pass's start: the queued ones as (thresholds, submit times,
        ids), the suspended ones done writing out as (jobs, thresholds, submit times, ids)."""
        now = view.now
        board, queued = self._board, self._queued
        held: Sequence[JobView] | Slots
        if board is not None and queued is not None:
            _, est, submit, done, ids = queued.columns()
            slots = np.flatnonzero(board.active)
            held = Slots(board.jobs, slots.tolist())
            _, h_est, h_submit, h_done, h_ids = board.columns(slots)
        else:
            _, est, submit, done, ids = columns(view.queue)
            homes = self._held(view)
            held = homes.jobs
            _, h_est, h_submit, h_done, h_ids = homes.columns
        f_tau = (now - submit - done + est) / est
        h_tau = (now - h_submit - h_done + h_est) / h_est
        return (f_tau, submit, ids), (held, h_tau, h_submit, h_ids)

    def _may_keep(self, avail: np.ndarray, slots: np.ndarray | None, n: int) -> np.ndarray:
        """Which of a pass's ``n`` suspended jobs (on the board: ``slots``, as at the pass's
        start) have a free core on their home in ``avail``: the others keep nothing
        (`rule.hold_home`), and the pass need not visit them for it. Off the board, all."""
        board = self._board
        if board is None or slots is None or not n:
            return np.ones(n, dtype=bool)
        # A slot that resumed in the pass has no home left (length 0): nothing to keep.
        on = np.arange(board.homes.shape[1])[None, :] < board.lens[slots][:, None]
        return ((avail[board.homes[slots]] > 0) & on).any(axis=1)

    def _order_turned(self, view: View) -> bool:
        """Whether, since the last pass, an idle job may have overtaken (in the idle order)
        a suspended job that kept free cores from it, so that it may now fit: asked by
        `_only_arrivals` under a ``hold``, when nothing but arrivals happened since.

        The free cores, the running jobs and the idle jobs (but the new ones) are then
        those the last pass left, and only the order moved: thresholds grow at 1 /
        estimate. Under ``hold="all"`` a job that could fit, once ahead of a suspended
        job whose home has a free core (a queued job no wider than the free cores, a
        suspended one with its whole home free; on the board, one core per node, told
        exactly, otherwise every suspended job counts), was behind it then and is not
        clearly behind it now; under ``"top"``, any job and the suspended job that
        headed the order then. A near tie counts as turned (the plain pass compares
        rounded thresholds): the answer may be yes for nothing, never no for something.
        """
        then, now = self._last_pass, view.now
        arrived = np.array([j.id for j in view.arrived], dtype=np.int64)
        board, queued = self._board, self._queued
        if board is not None and queued is not None:
            f_size, f_est, f_submit, f_done, f_id = queued.columns()
            slots = np.flatnonzero(board.active)
            _, h_est, h_submit, h_done, h_id = board.columns(slots)
            free = board.tau == -math.inf
            lens = board.lens[slots]
            on = np.arange(board.homes.shape[1])[None, :] < lens[:, None]
            home_free = free[board.homes[slots]] & on
            h_some = home_free.any(axis=1)  # keeps a free core
            h_all = home_free.sum(axis=1) == lens  # would fit but for the order
        else:
            f_size, f_est, f_submit, f_done, f_id = columns(view.queue)
            _, h_est, h_submit, h_done, h_id = self._held(view).columns
            h_some = h_all = np.ones(len(h_id), dtype=bool)
        if not len(h_id):
            return False
        old = ~np.isin(f_id, arrived)
        f_size, f_est, f_submit, f_done, f_id = (
            a[old] for a in (f_size, f_est, f_submit, f_done, f_id)
        )
        nf = len(f_id)
        est = np.concatenate((f_est, h_est))
        submit = np.concatenate((f_submit, h_submit))
        done = np.concatenate((f_done, h_done))
        ids = np.concatenate((f_id, h_id))
        tau_then = (then - submit - done + est) / est
        tau_now = (now - submit - done + est) / est
        if self.hold == "all":
            s_pick = nf + np.flatnonzero(h_some)
            j_pick = np.concatenate(
                (np.flatnonzero(f_size <= view.free_cores), nf + np.flatnonzero(h_all))
            )
        else:
            head = int(np.lexsort((ids, submit, -tau_then))[0])
            if head < nf or not h_some[head - nf]:
                return False  # a queued job headed the order (or the head kept nothing)
            s_pick = np.array([head])
            j_pick = np.flatnonzero(np.arange(len(ids)) != head)
        if not len(s_pick) or not len(j_pick):
            return False
        sj, ij = submit[j_pick][:, None], ids[j_pick][:, None]
        ss, is_ = submit[s_pick][None, :], ids[s_pick][None, :]
        first = (sj < ss) | ((sj == ss) & (ij < is_))  # ahead between equal thresholds
        # Ahead then: clearly, or tied and first (then it stays ahead: nothing turned).
        tj, ts = tau_then[j_pick][:, None], tau_then[s_pick][None, :]
        ahead = (tj > ts + 1e-12 * (1.0 + np.abs(ts))) | ((tj == ts) & first)
        # Behind now: clearly (a near tie may read either way in the plain pass).
        tj, ts = tau_now[j_pick][:, None], tau_now[s_pick][None, :]
        behind = tj < ts - 1e-12 * (1.0 + np.abs(ts))
        return bool((~ahead & ~behind).any())

    def _remember(self, out: list[Decision], now: float) -> None:
        """The thresholds of the jobs (re)started now: their xfactor now, kept while they run.
        The jobs started leave the queued columns."""
        queued = self._queued
        for d in out:
            if isinstance(d, Start):
                self._running_tau[d.job.id] = idle_threshold(d.job, now)
                if queued is not None:
                    queued.drop(d.job.id)
            elif isinstance(d, Resume):
                self._running_tau[d.job.id] = idle_threshold(d.job, now)

    def _started_on_board(self, out: list[Decision], now: float) -> None:
        """`_remember`, then `_on_board`, for a pass that starts and resumes jobs but
        suspends none (`_arrivals`, `_board_pass`): each job's threshold is computed
        once. Neither step reads what the other writes, so one loop does both."""
        queued, tau_of = self._queued, self._running_tau
        for d in out:
            assert isinstance(d, (Start, Resume))
            tau = tau_of[d.job.id] = idle_threshold(d.job, now)
            if queued is not None and isinstance(d, Start):
                queued.drop(d.job.id)
            self._runs_on_board(d, tau)

    def _runs_on_board(self, d: Start | Resume, tau: float) -> None:
        """The job ``d`` starts or resumes runs on the board from now on, with threshold
        ``tau`` (shielded if TSS protects it); a resumed one leaves its slot first."""
        board = self._board
        assert board is not None
        job = d.job
        if isinstance(d, Start):
            assert d.allocation is not None
            nodes = d.allocation.nodes
        else:
            assert job.home is not None
            board.remove(job)
            nodes = job.home.nodes
        board.occupy(job.id, nodes, tau, job.size, self._shields(job, tau))

    def _on_board(self, decisions: list[Decision], now: float) -> None:
        """Decisions of this pass onto the board, in their order (the suspensions of
        one switch at once)."""
        board = self._board
        assert board is not None
        freed: list[np.ndarray] = []
        for d in decisions:
            if isinstance(d, Suspend):
                job = d.job
                assert job.allocation is not None
                freed.append(job.allocation.nodes)
                # On the board at the next pass, once its run time is accounted.
                self._pending.append(job)
                continue
            if freed:
                board.vacate(*freed)
                freed = []
            if isinstance(d, (Start, Resume)):
                self._runs_on_board(d, idle_threshold(d.job, now))
        if freed:
            board.vacate(*freed)

    def _victims(
        self, job: JobView, tau: float, avail: np.ndarray, running: list[tuple[float, JobView]]
    ) -> list[JobView] | None:
        """A minimal set of ``job``'s candidates to suspend, or None (section 3.3:
        `rule.choose_victims`; a re-entry read off the board when there is one)."""
        protected = self._protection()
        if self._board is None or job.state is not State.SUSPENDED:
            return choose_victims(job, tau, avail, running, self.sf, self._may_suspend, protected)
        cands = candidates(job.size, tau, running, self.sf, self._may_suspend, protected)
        if not cands:
            return None
        home = job.home
        assert home is not None
        if self.hold != "none":
            # A node of its home no job runs on, kept by a suspended job ahead of it
            # (`rule.hold_home`), is no victim's to give: it cannot re-enter.
            nodes = home.nodes
            if (avail[nodes][self._board.tau[nodes] == -math.inf] < 1).any():
                return None
        return self._home_victims_on_board(home, running, {r.id for r in cands})

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
    ) -> Ladder:
        """The ladder of these running jobs on ``avail`` (cached: between passes that
        change neither the running jobs, the free cores nor the protections, such
        as arrivals at a full machine or a tick that preempts nothing, it is the same)."""
        entries.sort(key=lambda e: (e[0], e[1].id))
        key = (tuple(e[1].id for e in entries), avail.tobytes(), self.protection_version())
        if self._ladder is None or self._ladder.key != key:
            self._ladder = Ladder(
                entries, avail, view, self.sf, self.width, self._protection(), key
            )
        return self._ladder

    def _unplanned(self, soonest: float) -> float | None:
        """The next tick when no job runs: nothing can be preempted until an event starts
        something (None), but under a ``hold`` an idle job kept from free cores may get
        them by overtaking the job that kept them (`rule.hold_home`): the next tick."""
        return None if self.hold == "none" else soonest

    def _plan_tick(
        self,
        view: View,
        out: list[Decision],
        avail: np.ndarray,
        fresh: tuple[np.ndarray, np.ndarray, np.ndarray],
        new: np.ndarray | None,
        held_idle: bool,
        held_first: Callable[[Ladder, float], float] | None,
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
        the bars (`Ladder`), so the planned tick still holds for the other
        jobs and only the new ones need planning.
        """
        now = view.now
        sizes, est, taus = fresh
        # The jobs suspended in this pass are idle from now on too.
        victims = [d.job for d in out if isinstance(d, Suspend)]
        if not len(sizes) and not held_idle and not victims:
            self._tick = None
            return
        soonest = next_tick(now, self.interval)
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
            and self._planned
        )
        if incremental:
            assert new is not None
            pick = np.flatnonzero(new)
            if not len(pick):
                return  # the plan holds
            sizes, est, taus = sizes[pick], est[pick], taus[pick]
        self._planned_version = version
        self._planned = True
        # The running jobs once this pass's decisions apply: those suspended
        # leave, those started or resumed join with the threshold they have now.
        tau_of = self._running_tau
        board = self._board
        if board is not None:
            # The board has this pass's decisions already.
            if not board.running:
                self._tick = self._unplanned(soonest)
                return
            ladder = None
        else:
            gone = {v.id for v in victims}
            entries = [(tau_of[r.id], r, r.allocation) for r in view.running if r.id not in gone]
            for d in out:
                if isinstance(d, Start):
                    entries.append((idle_threshold(d.job, now), d.job, d.allocation))
                elif isinstance(d, Resume):
                    entries.append((idle_threshold(d.job, now), d.job, d.job.home))
            if not entries:
                self._tick = self._unplanned(soonest)
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
                mine = Homes(victims, view.nodes)
                v_sizes, v_est = mine.columns[0], mine.columns[1]
                when = ladder.earliest(v_sizes, v_est, v_taus, 0, mine, now)
                first = min(first, float(when.min()))
        held = held_idle and not incremental
        if board is not None:
            ladder_taus, widths = board.ladder()
            kernels = _kernels()
            first = kernels.board_earliest(
                now, self.sf, first, sizes, est, taus, avail, ladder_taus, widths, board.rule,
                soonest, held, board.active, board.top, board.stuck, board.est, board.submit,
                board.done,
            )  # fmt: skip
        else:
            assert ladder is not None
            if len(sizes):
                fresh_first = ladder.earliest(sizes, est, taus, len(sizes), NO_HOMES, now)
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
        tick = next_tick(max(first, now) - 1e-9 * self.interval, self.interval)
        if tick <= now:
            tick = soonest
        self._tick = tick if planned is None else min(tick, planned)
