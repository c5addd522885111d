"""Multiple-queue backfilling node by node: node groups, memory, partitions and outages.

Lawson and Smirni 2002 (this project's seed 001), section 2 and its Figure 2, on a
machine where a job may run only on some nodes (a partition of the machine file), within
each node's memory, or where nodes fail and maintenance windows take them
(`schedsim.model.machine`, `schedsim.model.outages`). `MultiQueue` takes this path for
the whole run when it is told, before the run, of such a machine (`check_machine`) or
of outages (`check_outages`); on identical nodes without outages it counts processors
(`schedsim.policies.multiqueue`), and none of its schedules change.

**The plan.** Each pass plans on a `NodeProfile` of the running jobs (by their
estimates) with the outages blocked (`schedsim.policies.planning.outages.node_plan`),
node by node: a job keeps the cores it starts on, a partition's job fits only its
nodes, and a node holds no more of a job's cores than its free memory holds at the
job's memory per core. Every promise names its cores.

**Queues and pivots.** A job joins the queue of its estimate (Equation 1) with its
priority, as on identical nodes: high priority first, each priority in arrival order.
On a machine of partitions (the machine file's, not the paper's estimate partitions)
there is one pivot per estimate queue *and machine partition* a queued job names (the
default one, or none): the first job of that pair. The paper's partitions are one
machine whose processors any queue may borrow; a machine partition's job can use only
its own nodes, so a single pivot per estimate queue would make the jobs of one machine
partition wait for the other's first job, whose nodes they cannot even use. This is
the reading EASY takes on such machines (`schedsim.policies.backfilling.EASY`: one
reservation per machine partition): jobs of one machine partition never wait for
another's.

**A pass**, in Figure 2's order with ``guard="all"``, the reading under which no start
delays any pivot:

1. Granted slots (advance reservations, fixed trial slots) hold their cores over their
   span; a slot due now starts on its cores. A slot whose cores a failure took (or a
   job that outlived its estimate still holds) is granted again, the earliest time at
   or after its request it fits (section 2.2 grants "the earliest time ... when the job
   can be serviced").
2. Submissions: a reservation request is granted on that plan, as on identical nodes;
   a job of a long estimate waits for its speculative trial (section 2.1).
3. ``trial="idle"``: the trials that fit now over ``min(limit, estimate)`` on the
   running jobs and the slots alone start (the pivots are planned around them).
4. The pivots, planned in priority order, each the earliest time its estimate fits
   its nodes and memory, holding those cores from then on (step 3 of Figure 2).
5. ``trial="scheduled"``: the trials submitted now get the earliest slot around the
   pivots; ``trial="waiting"``: the trials that fit now around the pivots start.
6. A pivot planned at the present starts on exactly the cores the plan gave it, and
   its queue gets a new pivot (step 6); the pivots after it in priority order are
   planned again around it.
7. Backfilling (step 7): every other waiting job, in Figure 2's order, starts now if
   the plan (the pivots, the slots and this pass's starts) has room for its whole
   estimate from now on its nodes within its memory. ``start_rule`` says "a" when it
   ends by its own pivot's planned start, "b" when it runs beside it.

**Guards.** ``guard="all"`` only: ``"own"``, ``"return"`` and ``"reassign"`` count the
processors each estimate partition owns or lends, which has no meaning once jobs may
run only on some nodes or nodes come and go; `MultiQueue.check_machine` and
`MultiQueue.check_outages` refuse them in one line. Every trial reading runs.

**Outages.** A job a failure kills comes back in ``view.requeued``, as a speculative
attempt that ran out does. One whose trial ran out (its nodes did not fail) enters its
queue, speculated; one a failure cut short during its trial waits for a new trial;
any other re-enters its queue by its priority and arrival, as it was. A job wider than
the nodes up cannot be planned: it waits unplanned, holding nothing, until a node
returns (as EASY's does); so does a reservation request that cannot be granted yet.

**What the result shows.** `MultiQueue.promises`: the pivots at their planned starts
and the granted slots, with their cores. The ``partitions`` table (processors per
estimate partition over time) has no rows: on this path processors are not owned by
the estimate partitions, the plan of nodes decides.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING, Any

import numpy as np

from schedsim.model.cluster import Allocation
from schedsim.model.machine import Machine, job_memory
from schedsim.model.policy import Decision, Reservation, Start, View
from schedsim.model.view import JobView, State
from schedsim.policies.planning.conservative import duration
from schedsim.policies.planning.node_profile import MEMORY_SLACK, NodeProfile
from schedsim.policies.planning.outages import machine_of, node_plan, running_held

if TYPE_CHECKING:
    from schedsim.policies.multiqueue import MultiQueue

__all__ = ["NodePath"]

#: A queue's key on this path: (estimate queue, machine partition name or None).
QueueKey = tuple[int, str | None]


def holds(plan: NodeProfile, start: float, end: float, alloc: Allocation, per_core: float) -> bool:
    """Whether ``alloc``'s cores (and ``per_core`` KB each) are free in ``plan``
    throughout ``[start, end)``: a granted slot whose nodes are still there."""
    times = plan.times
    lo = max(bisect_right(times, start) - 1, 0)
    hi = max(bisect_left(times, end), lo + 1)
    if (plan.free[lo:hi, alloc.nodes] < alloc.cores).any():
        return False
    memory, full = plan.memory, plan.machine.memory
    if memory is None or full is None or per_core <= 0:
        return True
    need = alloc.cores * per_core - full[alloc.nodes] * MEMORY_SLACK
    return not (memory[lo:hi, alloc.nodes] < need).any()


class _Pivot:
    """A pivot of one pass: its job, its queue, and where the plan put it."""

    __slots__ = ("alloc", "job", "key", "queue", "when")

    def __init__(self, key: tuple[int, float, int], queue: QueueKey, job: JobView) -> None:
        self.key = key
        self.queue = queue
        self.job = job
        self.when = math.inf  # unplanned (wider than the nodes up) until planned
        self.alloc: Allocation | None = None


class NodePath:
    """`MultiQueue`'s passes node by node (module docstring). It keeps the policy's own
    bookkeeping (queues, priorities, slots, trials, start rules: the columns a run
    shows are the same) and adds the cores of each granted slot."""

    def __init__(self, policy: MultiQueue) -> None:
        self.q = policy
        #: Granted slots (advance reservations, fixed trials): job id -> their cores.
        self._slot_alloc: dict[int, Allocation] = {}
        #: Reservation requests (and fixed trials) not granted yet: the nodes up could
        #: not hold them (a failure). Job id -> (job, earliest time asked, span, trial).
        self._pending: dict[int, tuple[JobView, float, float, bool]] = {}
        #: Jobs running their speculative trial: id -> the nodes it runs on.
        self._trying: dict[int, np.ndarray] = {}
        #: Each queued job's queue (estimate queue, machine partition).
        self._queue_of: dict[int, QueueKey] = {}
        self._promises: list[Reservation] | None = []
        #: The view of the last pass, when it did not plan (`promises` plans on it).
        self._unplanned: View | None = None

    # -- what the result shows ---------------------------------------------------------
    def promises(self) -> list[Reservation]:
        """The pivots at their planned starts (kind ``"pivot"``), and the granted slots
        not started yet (``"advance"``, ``"trial"``), all with their cores."""
        if self._promises is None:
            view = self._unplanned
            assert view is not None
            plan = node_plan(view, running_held(view))
            for jid, (when, span, _) in self.q._granted.items():
                job = self.q._lanes.jobs.get(jid)
                alloc = self._slot_alloc.get(jid)
                if job is None or alloc is None:
                    continue
                start = max(when, view.now)
                if holds(plan, start, when + span, alloc, job_memory(job.job)):
                    plan.reserve(start, when + span, alloc, job_memory(job.job))
            pivots = self._pivots(machine_of(view), self._skip(set()))
            self._plan_pivots(plan, pivots, 0, view.now)
            self._promises = self._promised(pivots)
        return list(self._promises)

    def _promised(self, pivots: list[_Pivot]) -> list[Reservation]:
        q = self.q
        out = [
            Reservation(
                p.job.id,
                p.when,
                p.when + duration(p.job.estimate),
                p.job.size,
                p.alloc,
                kind="pivot",
            )
            for p in pivots
            if math.isfinite(p.when)
        ]
        for jid, (when, span, cores) in sorted(q._granted.items(), key=lambda i: i[1]):
            kind = "trial" if jid in q._trial_slot else "advance"
            alloc = self._slot_alloc.get(jid)
            out.append(Reservation(jid, when, when + span, cores, alloc, kind=kind))
        return out

    # -- a pass ------------------------------------------------------------------------
    def schedule(self, view: View) -> list[Decision]:
        q = self.q
        now = view.now
        machine = machine_of(view)
        lanes = q._lanes
        for job in view.ended:
            q._granted.pop(job.id, None)
            q._speculating.pop(job.id, None)
            self._slot_alloc.pop(job.id, None)
            self._pending.pop(job.id, None)
            self._trying.pop(job.id, None)
            self._queue_of.pop(job.id, None)
        failed: set[int] = set()
        for outage in view.went_down:
            failed.update(outage.nodes)
        retry: list[JobView] = []
        for job in view.requeued:
            nodes = self._trying.pop(job.id, None)
            lanes.add(job, q._prio[job.id], q._class[job.id])
            if nodes is None:
                continue  # a failure: back in its queue by priority and arrival
            if failed.intersection(nodes.tolist()):
                retry.append(job)  # a failure cut its trial short: it is tried again
            else:
                q._speculated.add(job.id)  # its trial ran out: it queues now
        arrived = [j for j in view.arrived if j.state is State.QUEUED]
        for job in arrived:
            q._join(job)
        if len(lanes.jobs) != len(view.queue):  # (anything unforeseen: made afresh)
            lanes = q._lanes = type(lanes)(q.partitions)
            for job in view.queue:
                if job.id not in q._class:
                    q._join(job)
                else:
                    lanes.add(job, q._prio[job.id], q._class[job.id])
        asking = arrived + retry
        if self._idle(view, asking):
            for job in asking:
                self._arrive(job, None, now, machine)
            self._promises = None
            self._unplanned = view
            return q._timer(view)

        plan = node_plan(view, running_held(view))
        out: list[Decision] = []
        started: set[int] = set()
        # Idle cores now, an upper bound on what any one job can take (a cheap first
        # look before the plan's): down by each start.
        free = [view.free_cores]

        def launch(
            job: JobView, alloc: Allocation, rule: str, span: float, held: bool = False
        ) -> None:
            """Start ``job`` now on ``alloc`` (held there over its span: ``held`` if the
            plan already holds it)."""
            if not held:
                plan.reserve(now, now + span, alloc, job_memory(job.job))
            if rule == "speculative":
                out.append(Start(job, alloc, limit=q.speculative_limit, on_limit="requeue"))
                self._trying[job.id] = alloc.nodes
            else:
                out.append(Start(job, alloc))
            q._rule[job.id] = rule
            started.add(job.id)
            free[0] -= job.size

        # 1. Granted slots (section 2.2), then 2. the submissions' requests.
        due = self._hold_slots(plan, now, machine)
        for job in asking:
            if self._arrive(job, plan, now, machine):
                due.append(job.id)
        for jid in sorted(due, key=lambda j: (q._granted[j][0], j)):
            span = q._granted.pop(jid)[1]
            rule = "speculative" if jid in q._trial_slot else "reservation"
            launch(lanes.jobs[jid], self._slot_alloc.pop(jid), rule, span, held=True)

        skip = self._skip(started)
        # 3. trial="idle": on the running jobs and the slots alone.
        if q.trial == "idle":
            self._trials(plan, now, machine, free[0], launch)
        # 4. The pivots, planned in priority order (Figure 2, step 3).
        pivots = self._pivots(machine, skip)
        self._plan_pivots(plan, pivots, 0, now)
        # 5. The trials: scheduled slots of this pass's submissions, or waiting ones.
        if q._new_trials:
            self._schedule_trials(plan, now, machine, launch)
        if q.trial == "waiting":
            self._trials(plan, now, machine, free[0], launch)
        skip |= started
        # 6. Pivots due now start; their queues get new pivots (step 6).
        while True:
            at = next((i for i, p in enumerate(pivots) if p.when <= now), None)
            if at is None:
                break
            pivot = pivots.pop(at)
            assert pivot.alloc is not None
            launch(pivot.job, pivot.alloc, "pivot", duration(pivot.job.estimate), held=True)
            skip.add(pivot.job.id)
            new = self._next_pivot(pivot, skip)
            if new is not None:
                at = bisect_left([p.key for p in pivots], new.key)
                for later in pivots[at:]:  # planned after it: planned again around it
                    self._unplan(plan, later)
                pivots.insert(at, new)
                self._plan_pivots(plan, pivots, at, now)
        # 7. Backfilling, in Figure 2's order, around every pivot (guard "all").
        pivot_at = {p.queue: p.when for p in pivots}
        is_pivot = {p.job.id for p in pivots}
        sizes = lanes.sizes
        for job in lanes.queue:
            if free[0] <= 0 or (sizes and sizes[0] > free[0]):
                break  # nothing more can start now
            jid = job.id
            if job.size > free[0] or jid in skip or jid in is_pivot:
                continue
            span = duration(job.estimate)
            alloc = plan.fits(job.size, span, now, machine.nodes_for(job.job), job_memory(job.job))
            if alloc is None:
                continue
            when = pivot_at.get(self._queue(job, machine), math.inf)
            launch(job, alloc, "a" if now + span <= when else "b", span)
            skip.add(jid)

        self._promises = self._promised(pivots)
        for jid in started:
            lanes.remove(jid, q._prio[jid], q._class[jid])
            self._queue_of.pop(jid, None)
        return out + q._timer(view)

    # -- pieces of a pass --------------------------------------------------------------
    def _idle(self, view: View, asking: list[JobView]) -> bool:
        """Whether this pass can start nothing and grant nothing (no plan is made): no
        slot due or to grant, no node that failed or came back, and no idle core or
        every waiting job wider than the idle cores."""
        q = self.q
        if view.went_down or view.came_up or view.requeued or self._pending:
            return False
        if q._granted and any(when <= view.now for when, _, _ in q._granted.values()):
            return False
        if any(self._asks(job) for job in asking):
            return False
        free = view.free_cores
        sizes = q._lanes.sizes
        return free == 0 or not sizes or sizes[0] > free

    def _asks(self, job: JobView) -> bool:
        """Whether a submission needs the plan: a reservation request, or a trial whose
        slot is fixed on submission."""
        from schedsim.policies.multiqueue import requested_reservation

        if requested_reservation(job) is not None:
            return True
        return self.q.trial in ("scheduled", "reserved") and self.q._speculates(job)

    def _arrive(self, job: JobView, plan: NodeProfile | None, now: float, machine: Machine) -> bool:
        """A submission (or a trial a failure cut short): a reservation granted on the
        plan, or a trial due. True when its slot is due now (held in ``plan``)."""
        from schedsim.policies.multiqueue import requested_reservation

        q = self.q
        asked = requested_reservation(job)
        if asked is not None:
            assert plan is not None  # (`_idle` plans a pass with a request)
            return self._grant(plan, job, max(asked, now), duration(job.estimate), now, machine)
        if not q._speculates(job):
            return False
        if q.trial == "scheduled":
            q._new_trials.append(job)  # its slot: once the pivots are planned
        elif q.trial == "reserved":  # its slot now, as a reservation's grant
            assert plan is not None
            span = min(q.speculative_limit, duration(job.estimate))
            return self._grant(plan, job, now, span, now, machine, trial=True)
        else:
            q._speculating[job.id] = job
        return False

    def _grant(
        self,
        plan: NodeProfile,
        job: JobView,
        after: float,
        span: float,
        now: float,
        machine: Machine,
        trial: bool = False,
    ) -> bool:
        """Grant ``job`` the earliest slot of ``span`` at or after ``after`` on the plan,
        holding its cores there (section 2.2); True when it is due now. A job the nodes
        up cannot hold waits ungranted (`_pending`) until one returns."""
        q = self.q
        per_core = job_memory(job.job)
        try:
            when, alloc = plan.earliest(job.size, span, after, machine.nodes_for(job.job), per_core)
        except ValueError:  # wider than the nodes up: a failure
            self._pending[job.id] = (job, after, span, trial)
            q._granted.pop(job.id, None)
            return False
        self._pending.pop(job.id, None)
        plan.reserve(when, when + span, alloc, per_core)
        q._granted[job.id] = (when, span, job.size)
        self._slot_alloc[job.id] = alloc
        if trial or job.id in q._trial_slot:
            q._trial_slot[job.id] = when
        else:
            q._grant_time[job.id] = when
        return when <= now

    def _hold_slots(self, plan: NodeProfile, now: float, machine: Machine) -> list[int]:
        """Hold every granted slot on its cores; grant again those whose cores are gone
        (a failure, or a job that outlived its estimate), and the requests not granted
        yet. Returns the ids of the slots due now (held from now over their span)."""
        q = self.q
        due: list[int] = []
        again: list[int] = []
        for jid, (when, span, _) in sorted(q._granted.items(), key=lambda i: (i[1][0], i[0])):
            job = q._lanes.jobs.get(jid)
            if job is None:  # (not queued: nothing to hold)
                continue
            alloc, per_core = self._slot_alloc[jid], job_memory(job.job)
            start, end = (now, now + span) if when <= now else (when, when + span)
            if holds(plan, start, end, alloc, per_core):
                plan.reserve(start, end, alloc, per_core)
                if when <= now:
                    q._granted[jid] = (now, span, job.size)
                    due.append(jid)
            else:
                again.append(jid)
        for jid in again:
            when, span, _ = q._granted[jid]
            if self._grant(plan, q._lanes.jobs[jid], max(when, now), span, now, machine):
                due.append(jid)
        for jid, (job, after, span, trial) in list(self._pending.items()):
            if self._grant(plan, job, max(after, now), span, now, machine, trial=trial):
                due.append(jid)
        return due

    def _skip(self, started: set[int]) -> set[int]:
        """The queued jobs that do not wait in a queue: started this pass, granted (or
        asking for) a slot, waiting for their trial."""
        q = self.q
        skip = set(started)
        skip.update(q._granted)
        skip.update(self._pending)
        skip.update(q._speculating)
        skip.update(j.id for j in q._new_trials)
        return skip

    def _queue(self, job: JobView, machine: Machine) -> QueueKey:
        """A queued job's queue: its estimate queue and its machine partition."""
        key = self._queue_of.get(job.id)
        if key is None:
            part = machine.partition_of(job.job)
            key = self._queue_of[job.id] = (
                self.q._class[job.id],
                None if part is None else part.name,
            )
        return key

    def _pivots(self, machine: Machine, skip: set[int]) -> list[_Pivot]:
        """The first waiting job of each queue, in Figure 2's order (priority, arrival)."""
        q = self.q
        seen: set[QueueKey] = set()
        out = []
        for job in q._lanes.queue:
            if job.id in skip:
                continue
            queue = self._queue(job, machine)
            if queue not in seen:
                seen.add(queue)
                out.append(_Pivot((q._prio[job.id], job.submit, job.id), queue, job))
        return out

    def _next_pivot(self, pivot: _Pivot, skip: set[int]) -> _Pivot | None:
        """The new pivot of a started pivot's queue: the next of its jobs that waits."""
        q = self.q
        queue = q._lanes.queue
        for job in queue[q._lanes.place(pivot.job, pivot.key[0]) + 1 :]:
            if job.id not in skip and self._queue_of.get(job.id) == pivot.queue:
                return _Pivot((q._prio[job.id], job.submit, job.id), pivot.queue, job)
        return None

    @staticmethod
    def _plan_pivots(plan: NodeProfile, pivots: list[_Pivot], start: int, now: float) -> None:
        """Plan ``pivots[start:]`` in order, each the earliest its estimate fits its nodes
        and memory, holding those cores from then on; one wider than the nodes up stays
        unplanned."""
        for pivot in pivots[start:]:
            job = pivot.job
            span, per_core = duration(job.estimate), job_memory(job.job)
            try:
                when, alloc = plan.earliest(
                    job.size, span, now, plan.machine.nodes_for(job.job), per_core
                )
            except ValueError:  # wider than the nodes up: a failure; planned when one returns
                pivot.when, pivot.alloc = math.inf, None
                continue
            plan.reserve(when, when + span, alloc, per_core)
            pivot.when, pivot.alloc = when, alloc

    @staticmethod
    def _unplan(plan: NodeProfile, pivot: _Pivot) -> None:
        """Give back what `_plan_pivots` held for ``pivot``."""
        if pivot.alloc is not None:
            span = duration(pivot.job.estimate)
            plan.release(pivot.when, pivot.when + span, pivot.alloc, job_memory(pivot.job.job))
            pivot.when, pivot.alloc = math.inf, None

    def _trials(
        self, plan: NodeProfile, now: float, machine: Machine, free: int, launch: Any
    ) -> None:
        """The speculative starts of ``trial="waiting"`` and ``"idle"`` (section 2.1):
        each trial whose ``min(limit, estimate)`` fits now on the plan starts, in arrival
        order, high priority first."""
        q = self.q
        if not q._speculating or free <= 0:
            return
        trying = list(q._speculating.values())
        if q._low:
            trying.sort(key=lambda j: q._prio[j.id])
        for job in trying:
            if job.size > free:
                continue
            span = min(q.speculative_limit, duration(job.estimate))
            alloc = plan.fits(job.size, span, now, machine.nodes_for(job.job), job_memory(job.job))
            if alloc is not None:
                launch(job, alloc, "speculative", span)
                free -= job.size
                del q._speculating[job.id]

    def _schedule_trials(
        self, plan: NodeProfile, now: float, machine: Machine, launch: Any
    ) -> None:
        """``trial="scheduled"``: each trial submitted this pass gets the earliest slot
        around the pivots (and the other slots), held from then on; one due now starts."""
        q = self.q
        trials, q._new_trials = q._new_trials, []
        if q._low:
            trials.sort(key=lambda j: q._prio[j.id])
        for job in trials:
            span = min(q.speculative_limit, duration(job.estimate))
            if self._grant(plan, job, now, span, now, machine, trial=True):
                del q._granted[job.id]
                launch(job, self._slot_alloc.pop(job.id), "speculative", span, held=True)
