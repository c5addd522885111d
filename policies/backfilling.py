"""Backfilling: EASY (aggressive) and conservative (seed 000 section 2.1).

Both plan with the users' estimates: a running job is expected to free its
cores at ``start + estimate`` (`JobView.expected_end`); a queued job is
planned to hold its cores for its estimate.

EASY (section 2.1.2): scan the queue in priority order and start jobs while
they fit. The first job that does not fit gets a reservation at the
*shadow time*, the earliest time enough cores are expected to be free for
it. Every later job may start now if it fits the free cores and either ends
(by its estimate) by the shadow time or uses no more than the *extra*
cores, those left over at the shadow time once the reserved job has its
share. Only that one job has a guarantee.

Conservative (section 2.1.1): every job gets a reservation at its anchor
point when it arrives, the earliest start that delays no earlier
reservation; a job starts when its reservation comes due. When a job ends
before its estimate the schedule is *compressed*: reservations are
released one by one in order of increasing start time, and each released
job is re-anchored, so it moves earlier if the hole fits it and otherwise
keeps its place ("in the worst case, the released job would be reinserted
in the same position it held previously").

The planning itself (the shadow time, the profile, anchoring and
compression) is the planning library's (`schedsim.policies.planning`), which
other policies use too.
"""

from __future__ import annotations

import math
from bisect import insort
from collections.abc import Callable, Sequence
from heapq import heappop, heappush
from typing import Literal, cast

import numpy as np

from schedsim.model.cluster import Allocation
from schedsim.model.machine import Machine, job_memory
from schedsim.model.policy import (
    Policy,
    Reservation,
    Start,
    View,
    WakeAt,
    register,
)
from schedsim.model.view import JobView
from schedsim.policies.planning.conservative import by_start, compress, duration, place
from schedsim.policies.planning.easy import by_expected_end, shadow_by_end
from schedsim.policies.planning.node_profile import NodeProfile
from schedsim.policies.planning.nodes import Demands, Held, Holding, Room, Shadow, shadow
from schedsim.policies.planning.outages import (
    machine_of,
    node_plan,
    running_held,
    windows_announced,
)
from schedsim.policies.planning.profile import Planned, Profile, planned_end

QueueOrder = Literal["fcfs", "sjf", "xfactor"]


def _fcfs_key(j: JobView) -> tuple[float, int]:
    return (j.submit, j.id)


def _sjf_key(j: JobView) -> tuple[float, float, int]:
    return (j.estimate, j.submit, j.id)


def order_queue(queue: tuple[JobView, ...], order: QueueOrder, now: float) -> list[JobView] | tuple:
    """The queue in priority order; ties break by submit time, then job id.

    ``fcfs``: submit order (the view's own order). ``sjf``: shortest
    estimate first. ``xfactor``: largest expansion factor first, with the
    xfactor of a waiting job = (wait + estimate) / estimate (seed 000
    section 2.2), which grows while it waits.
    """
    if order == "fcfs":
        return queue
    if order == "sjf":
        return sorted(queue, key=_sjf_key)
    if order == "xfactor":
        return sorted(queue, key=lambda j: (-j.xfactor(now), j.submit, j.id))
    raise ValueError(f"unknown queue order {order!r}; choose fcfs, sjf or xfactor")


@register("easy")
class EASY(Policy):
    """EASY aggressive backfilling: only the first waiting job gets a reservation.

    ``order`` is the queue priority: ``fcfs`` (default), ``sjf`` (shortest
    estimate first) or ``xfactor`` (largest expansion factor first).
    After each pass, ``reservation`` holds ``(job, shadow time)`` of the job
    that got the guarantee, or None.
    """

    preempts = False  # every job runs in one stretch, start to end

    def __init__(self, order: QueueOrder = "fcfs") -> None:
        order_queue((), order, 0.0)  # validate early
        self.order = order
        self.reservation: tuple[JobView, float] | None = None
        #: On a machine of node groups, memory or partitions: each partition's reservation.
        self._shadows: list[Shadow] | None = None
        #: With maintenance windows announced, or partitions that share nodes: each
        #: partition's reservation (`_node_by_node`).
        self._windowed: list[Reservation] | None = None
        #: Partitions that share nodes, or none default: planned node by node.
        self._overlapping = False
        # The last pass's running jobs, and them by expected end (`_by_end`).
        self._running: tuple[JobView, ...] | None = None
        self._ends: list[Planned] = []
        # On node groups, memory or partitions: each job's demand (`_on_nodes`).
        self._demands: Demands | None = None

    def params(self) -> dict[str, str]:
        return {"order": self.order}

    def promises(self) -> list[Reservation]:
        """The reservation of the first waiting job (at its shadow time), if any; on a
        machine of partitions, that of each partition's (on the cores planned); with
        maintenance windows, that of each partition's on the cores planned."""
        if self._windowed is not None:
            return list(self._windowed)
        if self._shadows is not None:
            return [
                Reservation(s.job.id, s.when, s.when + s.job.estimate, s.job.size, s.allocation)
                for s in self._shadows
                if math.isfinite(s.when)
            ]
        if self.reservation is None or not math.isfinite(self.reservation[1]):
            return []
        head, when = self.reservation
        return [Reservation(head.id, when, when + head.estimate, head.size)]

    def check_machine(self, machine: Machine) -> None:
        """Any machine. Node groups, memory, and partitions that share no node with a
        default one for the jobs that name none are planned partition by partition on
        counts (`_on_nodes`); partitions that share nodes, or none marked default, on a
        plan node by node (`_node_by_node`), since a reservation in one partition then
        holds nodes another may use."""
        self._overlapping = not machine.apart

    def check_outages(self, windows: bool, machine: Machine | None) -> None:
        """Any outages on any machine: the free cores (and nodes) are read afresh at
        every pass, a failed node planned as gone until it returns; with maintenance
        windows announced it plans node by node (`_node_by_node`)."""

    def _by_end(self, running: tuple[JobView, ...]) -> list[Planned]:
        """The running jobs in order of expected end, sorted again only when they changed.

        A view's tuple of running jobs is made again whenever a job starts or ends, so
        the same tuple means the same jobs with the same ends; a pass that brings
        arrivals only sees the tuple the last pass sorted (4 in 10 of EASY's shadow
        times on whole CTC). A list may have changed in place: it is sorted again.
        """
        if running is not self._running or type(running) is not tuple:
            self._running = running
            self._ends = sorted(running, key=by_expected_end)
        return self._ends

    def ordered(self, queue: tuple[JobView, ...], now: float) -> Sequence[JobView]:
        """The queue in the order a pass scans it (CREASY overrides it:
        `schedsim.policies.creasy.policy`)."""
        return order_queue(queue, self.order, now)

    def schedule(self, view: View) -> list[Start]:
        if self._overlapping or (view.outages and windows_announced(view)):
            return self._node_by_node(view)
        if self._windowed is not None:
            self._windowed = None  # the last window is over
        if view.machine is not None and view.machine.constrained:
            return self._on_nodes(view)
        free = view.free_cores
        queue = self.ordered(view.queue, view.now)
        starts: list[Start] = []
        self.reservation = None
        it = iter(queue)
        head = None
        for job in it:
            if job.size <= free:
                starts.append(Start(job))
                free -= job.size
            else:
                head = job
                break
        if head is None:
            return starts
        # Plan with this pass's starts included: they hold their cores too.
        now = view.now
        ends = self._by_end(view.running)
        if starts:
            ends = ends.copy()
            for st in starts:
                # After the running jobs ending at the same time, as a stable sort puts it.
                insort(ends, _Planned(st.job.size, now + st.job.estimate), key=by_expected_end)
        when, extra = shadow_by_end(now, free, ends, head.size)
        self.reservation = (head, when)
        if free == 0:
            return starts
        for job in it:
            size = job.size
            if size > free:
                continue
            if now + job.estimate <= when:
                starts.append(Start(job))
                free -= size
            elif size <= extra:
                starts.append(Start(job))
                free -= size
                extra -= size
            else:
                continue
            if free == 0:
                break
        return starts

    def _node_by_node(self, view: View) -> list[Start]:
        """EASY with maintenance windows announced, or on partitions that share nodes: the
        same rule asked of a plan node by node that holds the windows and the running
        jobs (`schedsim.policies.planning.outages.node_plan`), since a job keeps the
        nodes it starts on, a window takes particular nodes, and a reservation in one
        partition holds nodes of the partitions that share them. Per partition, jobs start in
        order while they fit now on cores they can keep until their estimates end; the
        first that does not is reserved at its anchor point on the cores it would take
        there; a later job starts if it fits now beside the reservations (it delays
        none, whatever its partition). Without windows, on partitions that share no
        node, this is `schedule`'s rule, which counts instead.

        Where partitions share nodes, the jobs that held a reservation at the last pass
        are planned first, in the order they were given one: a job keeps its
        reservation until it starts, so a partition's new reserved job, though it came
        earlier, never pushes back another partition's promise on the nodes they share
        (with exact estimates no reserved job starts later than first promised).
        Elsewhere the first job of each partition that does not fit gets it, each pass
        afresh, as `schedule` gives it."""
        now = view.now
        plan = node_plan(view, running_held(view))
        machine = machine_of(view)
        starts: list[Start] = []
        heads: dict[str | None, tuple[JobView, float, Allocation | None]] = {}
        order = self.ordered(view.queue, now)
        if self._overlapping and self._windowed:
            held = {r.job: i for i, r in enumerate(self._windowed)}
            kept = sorted((j for j in order if j.id in held), key=lambda j: held[j.id])
            order = kept + [j for j in order if j.id not in held]
        # Free cores now, less this pass's starts: a job wider than that cannot start now,
        # and once its partition has its reservation there is nothing else to ask (most
        # of a long queue on a busy machine).
        free = view.free_cores
        for job in order:
            part = machine.partition_of(job.job)
            key = None if part is None else part.name
            if job.size > free and key in heads:
                continue
            span, per_core = duration(job.estimate), job_memory(job.job)
            try:
                when, alloc = plan.earliest(job.size, span, now, machine.nodes_for(job.job),
                                            per_core)  # fmt: skip
            except ValueError:  # more cores than the nodes up, until a failed one returns
                heads.setdefault(key, (job, math.inf, None))
                continue
            if when <= now:
                plan.reserve(now, now + span, alloc, per_core)
                starts.append(Start(job, allocation=alloc))
                free -= job.size
            elif key not in heads:
                plan.reserve(when, when + span, alloc, per_core)
                heads[key] = (job, when, alloc)
        self._windowed = [
            Reservation(job.id, when, when + job.estimate, job.size, alloc)
            for job, when, alloc in heads.values()
            if math.isfinite(when)
        ]
        first = next(iter(heads.values()), None)
        self.reservation = None if first is None else (first[0], first[1])
        return starts

    def _on_nodes(self, view: View) -> list[Start]:
        """EASY on node groups, memory and partitions (`schedsim.policies.planning.nodes`):
        per partition, jobs start in order while they fit; the first that does not gets
        a reservation at its shadow time on the cores it will have then, and a later job
        of the partition starts if it fits now and either ends (by its estimate) by that
        time or leaves the reserved job room at it (`Shadow.beside`)."""
        machine = view.machine
        assert machine is not None
        demands = self._demands
        if demands is None or demands.machine is not machine:
            demands = self._demands = Demands(machine)
        demands.forget(view.ended)
        now = view.now
        room = Room.of(view)
        starts: list[Start] = []
        heads: dict[str | None, Shadow] = {}
        # The jobs holding cores by planned end, made when a reservation needs them.
        held: list[Held] | None = None
        # Free cores anywhere: once each partition has its reservation, a job wider than
        # that is refused at once (most of the queue, on a busy machine).
        free, partitions, settled = view.free_cores, len(machine.partitions) or 1, False
        for job in self.ordered(view.queue, now):
            if settled and job.size > free:
                continue
            d = demands(job)
            head = heads.get(d.key)
            if head is None:
                alloc = room.place(d)
                if alloc is None:
                    if held is None:
                        held = self._held(view, starts)
                    heads[d.key] = shadow(room, job, d, held, now, demands)
                    settled = len(heads) == partitions
                    continue
            elif d.size > room.count(d):
                continue  # no room now on its nodes
            elif now + job.estimate <= head.when:
                alloc = room.place(d)
            else:
                alloc = head.beside(room, d)
            if alloc is not None:
                room.take(alloc, d)
                starts.append(Start(job, allocation=alloc))
                free -= d.size
                held = None  # made again with this start, if another partition needs it
        self._shadows = list(heads.values())
        first = self._shadows[0] if self._shadows else None
        self.reservation = None if first is None else (first.job, first.when)
        return starts

    def _held(self, view: View, starts: list[Start]) -> list[Held]:
        """The running jobs and ``starts`` (`Holding`), in order of planned end
        (`planned_end`), ties in the order they started: as `shadow` frees them (it only
        reads them). The running ones in order of expected end are kept from pass to
        pass (`_by_end`)."""
        now = view.now
        started = [_holding(st, now) for st in starts]
        held = cast("list[Held]", self._by_end(view.running))
        if started:
            held = held.copy()
            for h in started:
                insort(held, h, key=by_expected_end)
        if held and held[0].expected_end <= now:
            # Overrun jobs (no kill at estimate) are planned after now, by how long they
            # have overrun: not in their order by expected end.
            return sorted([*view.running, *started], key=lambda h: planned_end(h.expected_end, now))
        return held


def _holding(start: Start, now: float) -> Holding:
    """The job of ``start``, started now, as a holder of its cores till its estimate is up."""
    job, alloc = start.job, start.allocation
    assert alloc is not None
    return Holding(job.id, job.size, job.job, now + job.estimate, alloc)


def _failed(view: View) -> bool:
    """Whether a node failed or returned since the last pass, or a failure sent a job
    back to the queue: what a plan must be made again for (`schedsim.model.outages`;
    a maintenance window was in the plan all along)."""
    if view.requeued:
        return True
    if not (view.went_down or view.came_up):
        return False
    return any(not o.planned for o in (*view.went_down, *view.came_up))


class _Planned:
    """Stand-in for a job started in this pass: its size and expected end."""

    __slots__ = ("expected_end", "size")

    def __init__(self, size: int, expected_end: float) -> None:
        self.size = size
        self.expected_end = expected_end


@register("conservative")
class Conservative(Policy):
    """Conservative backfilling: every job holds a reservation; early ends compress the schedule.

    ``reservations`` maps a waiting job's id to ``(start, duration, cores)``
    of its reservation (the duration is the estimate, at least
    `schedsim.policies.planning.conservative.MIN_PLAN`:
    keeping it, rather than the end, makes every release subtract exactly
    what was reserved).
    While estimates hold (jobs killed at their estimate) a job never starts
    later than the first reservation it was given.

    On identical nodes, and on node groups that differ only in cores and speed, it
    counts free cores over time (`schedsim.policies.planning.profile.Profile`) and a
    due job starts where the scheduler places it. On a machine with memory or
    partitions (`schedsim.model.machine.Machine.constrained`, overlapping partitions
    included) it plans node by node (`schedsim.policies.planning.node_profile`): each
    reservation names its cores (``allocations``), found by first fit on the job's
    partition within its memory, held over its whole planned run, and the job starts
    on exactly those cores; compression moves a reservation earlier, onto whichever
    cores the hole offers, and never later (Kettimuthu 2003, section 2.1.1).
    """

    preempts = False  # every job runs in one stretch, start to end

    def __init__(self) -> None:
        self.profile: Profile | None = None
        #: The plan node by node, on a machine with memory or partitions (else None).
        self.node_profile: NodeProfile | None = None
        #: job id -> (planned start, planned duration, cores) for waiting jobs.
        self.reservations: dict[int, tuple[float, float, int]] = {}
        #: job id -> the cores a waiting job is to start on (planning node by node).
        self.allocations: dict[int, Allocation] = {}
        #: job id -> planned end for running jobs (where the profile frees them).
        self._running_end: dict[int, float] = {}
        #: job id -> the cores a running job holds (planning node by node).
        self._held: dict[int, Allocation] = {}
        self._jobs: dict[int, JobView] = {}
        # Min-heaps with lazy deletion (an entry is live while it matches the
        # dicts above): due reservations and overrun jobs are found without
        # scanning every job at every pass.
        self._starts: list[tuple[float, int]] = []
        self._ends: list[tuple[float, int]] = []
        #: Called with (job, start) whenever a job gets or changes a reservation.
        self.on_reserve: Callable[[JobView, float], None] | None = None
        #: Waiting jobs wider than the nodes up now (a failure): planned when one returns.
        self._unplanned: list[JobView] = []
        self._outages = False  # whether this pass's view shows outages
        #: Whether it plans node by node (memory, partitions, or maintenance windows):
        #: decided at the first pass.
        self._by_node: bool | None = None

    def check_outages(self, windows: bool, machine: Machine | None) -> None:
        """Any outages on any machine. Maintenance windows are in the plan from the
        start, node by node (`schedsim.policies.planning.outages.node_plan`: a window
        takes particular nodes, which a count of cores does not know); a failure, a
        repair or a job a failure sent back to the queue makes the plan again
        (`_replan`, `_replan_nodes`), since the cores it planned with are gone or back."""

    def check_machine(self, machine: Machine) -> None:
        """Every machine: node groups and speeds (counted, as on identical nodes), memory
        and partitions, overlapping or not, with or without a default (planned node by
        node: a job's reservation lies on its partition's nodes, or anywhere when it
        names none and no partition is the default)."""

    def schedule(self, view: View) -> list[Start | WakeAt]:
        self._outages = bool(view.outages)
        if self._by_node is None:
            self._by_node = windows_announced(view) or (
                view.machine is not None and view.machine.constrained
            )
        if self._by_node:
            return self._on_nodes(view)
        now = view.now
        if self.profile is None:
            self.profile = Profile.of_running(now, view.free_cores, view.running)
        profile = self.profile
        profile.advance(now)
        compress = False
        for job in view.ended:
            end = self._running_end.pop(job.id, None)
            if end is not None and end > now:
                profile.add(now, end, job.size)  # the hole an early end leaves
                compress = True
        if _failed(view) or self._overran(now):
            self._replan(view)
        elif compress:
            self._compress(now)
        for job in view.arrived:
            self._jobs[job.id] = job
            self._anchor(job, now)
        return self._due(now)

    def promises(self) -> list[Reservation]:
        """Every waiting job's reservation, in order of start (ties by id), with its
        cores when planned node by node."""
        allocations = self.allocations
        return [
            Reservation(jid, start, start + span, cores, allocations.get(jid))
            for jid, (start, span, cores) in sorted(
                self.reservations.items(), key=lambda item: (item[1][0], item[0])
            )
        ]

    def _set(
        self, job: JobView, start: float, duration: float, alloc: Allocation | None = None
    ) -> None:
        self.reservations[job.id] = (start, duration, job.size)
        if alloc is not None:
            self.allocations[job.id] = alloc
        heappush(self._starts, (start, job.id))
        if self.on_reserve is not None:
            self.on_reserve(job, start)

    def _anchor(self, job: JobView, now: float) -> None:
        assert self.profile is not None
        span = duration(job.estimate)
        try:
            start = place(self.profile, job.size, span, now)
        except ValueError:
            if not self._outages:
                raise
            self._unplanned.append(job)  # wider than the nodes up: a failure
            return
        self._set(job, start, span)

    def _compress(self, now: float) -> None:
        """Re-anchor every reservation, in order of start time (section 2.1.1)."""
        assert self.profile is not None
        for jid, new in compress(self.profile, self.reservations).items():
            self._set(self._jobs[jid], new, self.reservations[jid][1])

    def _overran(self, now: float) -> bool:
        """Whether a running job outlived its planned end (only without kill at estimate)."""
        ends, running = self._ends, self._running_end
        while ends and ends[0][0] <= now:
            end, jid = ends[0]
            if running.get(jid) == end:
                return True
            heappop(ends)
        return False

    def _replan(self, view: View) -> None:
        """Rebuild the profile from the running jobs, then re-anchor in reservation order.

        Needed only when jobs may outlive their estimates: the plan then
        freed cores that are still busy, and no guarantee can be kept; or when a node
        failed or returned (`schedsim.model.outages`): then the jobs a failure sent back
        to the queue are planned first, in submit order (they had started), and a job
        wider than the nodes up waits unplanned for the next return.
        """
        now = view.now
        self.profile = Profile.of_running(now, view.free_cores, view.running)
        self._running_end.clear()
        self._ends.clear()
        for r in view.running:
            end = planned_end(r.expected_end, now)
            self._running_end[r.id] = end
            heappush(self._ends, (end, r.id))
        old = [self._jobs[jid] for jid, _ in sorted(self.reservations.items(), key=by_start)]
        self.reservations.clear()
        self._starts.clear()
        for job in self._replanned(view, old):
            self._anchor(job, now)

    def _replanned(self, view: View, old: list[JobView]) -> list[JobView]:
        """The jobs to plan again, in order: those a failure sent back to the queue (in
        submit order: they had started), those planned before (``old``, in order of
        start), those left unplanned (wider than the nodes up)."""
        for job in view.requeued:
            self._jobs[job.id] = job
            self._running_end.pop(job.id, None)
        later, self._unplanned = self._unplanned, []
        return [*view.requeued, *old, *later]

    # -- node by node: memory and partitions (Kettimuthu 2003, section 2.1.1 on named cores) ----
    def _on_nodes(self, view: View) -> list[Start | WakeAt]:
        """A pass planned node by node: early ends give their nodes back for the rest of
        their planned run and compress the plan; arrivals are anchored on the cores
        first fit gives them at their anchor point; due jobs start on those cores."""
        now = view.now
        plan = self.node_profile
        if plan is None:
            plan = self._replan_nodes(view)
        else:
            plan.advance(now)
        compress = False
        for job in view.ended:
            end = self._running_end.pop(job.id, None)
            alloc = self._held.pop(job.id, None)
            if end is not None and end > now and alloc is not None:
                plan.release(now, end, alloc, job_memory(job.job))  # the hole it leaves
                compress = True
        if _failed(view) or self._overran(now):
            plan = self._replan_nodes(view)
        elif compress:
            self._compress_nodes(plan, now)
        for job in view.arrived:
            self._jobs[job.id] = job
            self._anchor_nodes(plan, job, now)
        return self._due(now)

    @staticmethod
    def _where(plan: NodeProfile, job: JobView) -> np.ndarray | None:
        """The nodes ``job`` may use (its partition's; None: any)."""
        return plan.machine.nodes_for(job.job)

    def _anchor_nodes(self, plan: NodeProfile, job: JobView, now: float) -> None:
        """Reserve ``job`` at its anchor point on the cores it fits there."""
        span = duration(job.estimate)
        per_core = job_memory(job.job)
        try:
            start, alloc = plan.earliest(job.size, span, now, self._where(plan, job), per_core)
        except ValueError:
            if not self._outages:
                raise
            self._unplanned.append(job)  # wider than the nodes up: a failure
            return
        plan.reserve(start, start + span, alloc, per_core)
        self._set(job, start, span, alloc)

    def _compress_nodes(self, plan: NodeProfile, now: float) -> None:
        """Release each reservation in order of start time (ties by id) and place it
        again: earlier, on the cores the hole offers, when one fits it, else where it
        was (section 2.1.1)."""
        for jid, (start, span, _) in sorted(self.reservations.items(), key=by_start):
            job = self._jobs[jid]
            alloc = self.allocations[jid]
            per_core = job_memory(job.job)
            where = self._where(plan, job)
            found = plan.earlier(job.size, span, start, alloc, now, where, per_core)
            if found is None:
                continue
            new, moved = found
            plan.release(start, start + span, alloc, per_core)
            plan.reserve(new, new + span, moved, per_core)
            self._set(job, new, span, moved)

    def _replan_nodes(self, view: View) -> NodeProfile:
        """The plan node by node rebuilt from the running jobs (their cores free at their
        planned ends: `planned_end`), every reservation anchored again in order of
        start (`_replan`'s, node by node); also the first pass's plan."""
        now = view.now
        self._running_end.clear()
        self._ends.clear()
        self._held.clear()
        running = []
        for r in view.running:
            if r.allocation is None:
                continue
            end = planned_end(r.expected_end, now)
            self._running_end[r.id] = end
            heappush(self._ends, (end, r.id))
            self._held[r.id] = r.allocation
            running.append((end, r.allocation, job_memory(r.job)))
        # The outages too (none in most runs): nodes out, and the windows ahead.
        self.node_profile = plan = node_plan(view, running)
        old = [self._jobs[jid] for jid, _ in sorted(self.reservations.items(), key=by_start)]
        self.reservations.clear()
        self.allocations.clear()
        self._starts.clear()
        for job in self._replanned(view, old):
            self._anchor_nodes(plan, job, now)
        return plan

    def _due(self, now: float) -> list[Start | WakeAt]:
        """Start every job whose reservation has come; wake up for the next one.

        A reservation can fall at a time when nothing else happens (a job
        that ended early left a hole that ends where the reservation
        begins), so the policy asks for a pass at the next reservation.
        Planned node by node, a job starts on the cores its reservation names.
        """
        out: list[Start | WakeAt] = []
        starts, reservations = self._starts, self.reservations
        while starts:
            start, jid = starts[0]
            live = reservations.get(jid)
            if live is None or live[0] != start:
                heappop(starts)  # stale: the job moved or started
            elif start <= now:
                heappop(starts)
                duration = live[1]
                del reservations[jid]
                end = start + duration
                self._running_end[jid] = end
                heappush(self._ends, (end, jid))
                alloc = self.allocations.pop(jid, None)
                if alloc is not None:
                    self._held[jid] = alloc
                out.append(Start(self._jobs.pop(jid), allocation=alloc))
            else:
                out.append(WakeAt(start))
                break
        return out
