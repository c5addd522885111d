"""Multiple-queue aggressive backfilling with priorities, speculation and reservations.

Lawson and Smirni, "Multiple-queue backfilling scheduling with priorities and
reservations for parallel systems" (JSSPP 2002; this project's seed 001),
section 2 and its Figure 2.

**Partitions and queues** (section 2.1). The machine is split into disjoint
partitions, one queue each, initially with equal numbers of processors
(here: consecutive blocks of nodes, the first partitions one node larger when
the nodes do not divide evenly). A job goes to the partition of its
estimated run time t_e, Equation 1: ``t_e < 1000 s``, ``< 10 000 s``,
``>= 10 000 s`` (``boundaries``, any number). Processors move between
partitions: a job that borrows idle processors of other partitions takes
them into its own ("those processors change partition"), and they stay
there after it ends. `MultiQueue.tables` keeps the processors per partition
over time, `MultiQueue.job_columns` each job's queue (``queue_class``, 1 for
the shortest) and how it started (``start_rule``).

**Priorities.** A job's attribute ``priority`` (``"high"``/``"low"``, or 1/0;
missing: high, "all non-reservation jobs have the same priority") orders
every queue: high-priority jobs in arrival order, then low-priority ones in
arrival order. `with_priorities` marks a share of a workload high priority.

**A pass** (Figure 2), at every submission and completion:

* *Pivots.* The pivot of partition p is the first job of its queue; its
  *pivot start time* is "the earliest time when sufficient procs (from this
  and perhaps other partitions) will be available for pivot_p without
  delaying any pivot of equal or higher priority": the pivots are planned
  on an availability profile of the running jobs (by their estimates) and
  the granted reservations, high priority before low, each in arrival
  order, each holding its planned cores from then on. So a high-priority
  pivot may delay low-priority ones but no high one, and a low-priority
  pivot delays none. A pivot whose start time is now starts, taking
  processors from other partitions if it needs them (step 6), and its
  queue gets a new pivot.
* *Backfilling* (step 7), one job at a time, high priority first, each
  priority in arrival order, whatever the partition. A job of partition p
  that is not its pivot starts now (a) if it needs at most idle_p
  processors and ends (by its estimate) by pivot_p's start time; (b) if it
  needs at most min(idle_p, extra_p), extra_p being the idle processors of
  p at pivot_p's start time that pivot_p will not use; (c) if idle_p plus
  idle processors of other partitions suffice "such that no pivot is
  delayed", borrowing those processors.

  The text leaves open whether rules (a) and (b), which name only
  pivot_p, may delay the pivots of other partitions (a pivot may plan to
  borrow partition p's processors). ``guard="all"`` (default) checks every
  start against every pivot's planned start, as rule (c) does, on the
  profile holding the pivots: no backfill ever delays any pivot, which is
  what makes the paper's claim that "the policy does not starve a job that
  requires the entire machine" hold. ``guard="own"`` applies (a) and (b)
  as written, against pivot_p alone (idle_p and extra_p from partition p's
  own processors and the jobs running on them, this pass's starts included),
  and only (c) against every pivot; (a) and (b) still keep off the granted
  reservations and trial slots, which section 2.2 grants "immediately" and
  every later start is planned around, and do not push pivot_p back past one
  (extra_p, counted at pivot_p's start time, does not see a slot that begins
  during pivot_p's run). With one partition, (a) and (b) are then EASY's test
  against the one pivot, and the single queue schedules as under ``"all"``.
  Under ``"all"`` the three rules decide together whether a job may start
  (it fits the profile with every pivot in it); they still say which
  processors it takes and are recorded as ``start_rule``. So under ``"all"``
  the partitions change no start decision (it is EASY with one reservation
  per queue), and under ``"own"`` the processors a job borrows stay with its
  partition for good (see below), so they drift to the partition that
  borrows most.

  ``guard="return"`` reads section 2.1's partitions as owners that *lend*:
  "processors idle in one partition can be used for backfilling in another"
  and partition p "can obtain sufficient idle processors from one or more
  other partitions without delaying any pivot". Each node keeps its home
  partition (Figure 1's initial blocks); a job running on a node of another
  partition holds it for its own partition while it runs, and the node goes
  back to its home partition when the job ends (a *lent* processor comes
  back). A backfill (step 7) of partition p may take, from each partition q
  (p itself included), the idle processors of q if it ends (by its estimate)
  by pivot_q's start time, else at most extra_q of them: q's processors idle
  at pivot_q's start time (its idle ones now and those of its home held by
  jobs that end by then, whoever runs them) that pivot_q does not need. That
  is rules (a) and (b) applied to every partition the job takes from, so
  that no partition lends a processor its own pivot is counting on; and the
  start must also fit the machine-wide plan of every pivot, as under
  ``"all"``, so that no pivot is delayed at all. The partitions then refuse
  starts ``"all"`` allows (a job may not take a partition's processors that
  its pivot needs even when that pivot could start as early on processors
  freed elsewhere), and they do not drift. Pivots (step 6), trials and
  reservations take processors as under ``"all"``. ``start_rule`` is
  "a" or "b" when the job takes only its own partition's processors (ending
  by pivot_p's start time or not), "c" when it borrows.

  The text never says when a borrowed processor returns. ``guard="reassign"``
  reads Figure 2's own word: rule (c) "reassign[s] necessary procs from other
  partitions to partition p" from "some combination of idle/extra procs from
  other partitions", and step 6.a.I has a pivot "reassign procs from other
  partitions" "if necessary"; section 2.1: "the partitions may exchange
  control of processors ... partition boundaries become dynamic". So a
  borrowed processor belongs to the borrower for good (as under ``"all"`` and
  ``"own"``: the partitions drift) and goes back only when a pivot, its
  former partition's or another's, needs it and reassigns it (step 6.a.I);
  but, as under ``"return"``, a backfill may take from each partition q
  (its own included) q's idle processors only if it ends by pivot_q's start
  time, else at most extra_q of them (step 5: q's processors idle at
  pivot_q's start time, by the running jobs of q's queue, that pivot_q does
  not need; what q gives away for good comes off it), and must fit the
  machine-wide plan of every pivot. Ownership is counted on q's current
  processors, not a home block: there is none.

**Which processors.** A job takes idle processors of its own partition
first (lowest-numbered nodes), then borrows from the other partitions,
the one with the most idle processors first (ties: the lower partition).

**Speculative execution** (section 2.1, ``speculation``). A job whose
estimate exceeds ``speculate_above`` (1000 s) is, on submission, scheduled
for a speculative start of at most ``speculative_limit`` (180 s) "at the
earliest possible time": it waits outside the queues and, at every pass,
before the Figure 2 loop, starts as soon as its 180 s fit on idle
processors without delaying any pivot (a start with ``limit=180`` and
``on_limit="requeue"``: the scheduler kills it there and puts it back, its
lost attempt kept in the job's record). A job that ends within the limit
is done; otherwise it enters its partition's queue by its priority and
arrival. The speculative attempt takes processors as any start does
(borrowing if it must), so that what holds a processor is always a job of
the partition that owns it.

When the trial starts is a reading (``trial``). The text says the job "is
scheduled for speculative execution at the earliest possible time", and
Figure 2 says "schedule job immediately for speculative execution"; the aim
is "to quickly remove from the system a large proportion of the jobs that
appear to crash". ``trial="waiting"`` (default) reads "earliest possible" as
the first pass at which the trial fits on idle processors around every
pivot, as above: the trial is never a pivot and nothing is kept for it, so
on a busy machine it can wait indefinitely behind the pivots and the
backfills (and the job with it: it enters no queue until the trial has
run). ``trial="idle"`` reads "earliest possible" against the running jobs alone: the
trial starts at the first pass at which its cores are idle over its span (by the
running jobs' estimates and the granted slots), whether or not a pivot was planned
on them; the pivots are then planned around it (nothing is kept for it either).
It is how a version that plans trials without the pivots behaves.
``trial="scheduled"`` reads "schedule ... immediately" as section 2.2
uses the same words for a reservation ("immediately schedules the job for
execution at that time"): on submission the trial gets a fixed slot, the
earliest time its ``min(speculative_limit, estimate)`` fit on the profile
of the running jobs (by their estimates), the pivots of that pass and the
other fixed slots (advance reservations and trials), and starts exactly
then (``start_rule = "speculative"``; column ``trial_slot``). Like a
granted reservation the slot is kept: every later pivot and backfill is
planned around it, it is promised (kind ``"trial"``) until it starts, and
it is planned after the pivots of its pass so that it delays none of them.
``trial="reserved"`` reads "schedule ... immediately" more literally still: on
submission the slot is granted exactly as an advance reservation is (below),
the earliest time its ``min(speculative_limit, estimate)`` fit on the profile
of the running jobs (by their estimates) and the other fixed slots, NOT
around the pivots: the pivots, planned after it, move out of its way (a
trial may delay every pivot, as a reservation may), while ``"scheduled"``
lets no trial delay a pivot already waiting. It starts, is promised and
recorded as a ``"scheduled"`` slot is. The text allows all three: it fixes
neither what "earliest possible" is computed against nor whether the time,
once found, is kept.

**Advance reservations** (section 2.2). A job whose attribute
``reservation`` is a clock time asks to start then (`with_reservations`
draws such requests). On submission it is granted "the earliest time
greater than or equal to the requested reservation time when the job can be
serviced", on the profile of the running jobs and the reservations granted
before, immediately and irrevocably: every later pivot and backfill is
planned around it, and the job starts exactly at its granted time
(``start_rule = "reservation"``; columns ``reservation_granted``). It never
enters a queue and is never speculated on. The grant holds as long as
running jobs end by their estimates (``kill_at_estimate``, the default); a
job that overruns its estimate can hold the processors past a grant, and
the reserved job then starts as soon as they are free.

The single-queue baseline, ``singlequeue`` (`SingleQueue`), is this policy
with one partition: aggressive (EASY) backfilling with the same priorities,
speculation and reservations, so that a comparison isolates the queues.

Partitions own nodes. On nodes of several cores (the paper has one processor
a node) a partition's idle processors are the free cores of its nodes, and a
borrowed node changes partition only when the job takes all its cores.

**Machines of node groups, memory or partitions, and outages.** On such a machine
(`check_machine`) or in a run with failures or maintenance windows (`check_outages`)
the whole run is planned node by node instead (`schedsim.policies.multiqueue_nodes`):
Figure 2 under ``guard="all"`` on a plan of nodes, with one pivot per estimate queue
and *machine partition* (the partition of the machine file a job names): jobs of one
machine partition can use only its nodes, so they never wait for another partition's
pivot. That is this implementation's reading for partitioned machines (the paper's
machine is one pool of processors), the one EASY takes. The guards that count the
processors each estimate partition owns (``"own"``, ``"return"``, ``"reassign"``) are
refused there on one line; every ``trial`` reading runs. On identical nodes without
outages the count above runs, unchanged.
"""

from __future__ import annotations

import heapq
import math
from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable, Sequence
from itertools import accumulate
from operator import neg
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import numpy as np

from schedsim.model.cluster import Allocation
from schedsim.model.machine import Machine
from schedsim.model.policy import (
    Decision,
    Policy,
    PolicyError,
    Reservation,
    Start,
    View,
    WakeAt,
    register,
)
from schedsim.model.view import JobView, State
from schedsim.policies.planning.conservative import MIN_PLAN, duration
from schedsim.policies.planning.profile import INF, Profile

if TYPE_CHECKING:
    from schedsim.policies.multiqueue_nodes import NodePath

__all__ = [
    "HIGH",
    "LOW",
    "MultiQueue",
    "SingleQueue",
    "parse_boundaries",
    "priority_of",
    "requested_reservation",
]

#: Priority ranks: high-priority jobs come first in every queue.
HIGH, LOW = 0, 1
_LOW_NAMES = {"low", "external", "0", "false"}


def priority_of(job: JobView) -> int:
    """`HIGH` or `LOW`, from the job's ``priority`` attribute (missing: high)."""
    value = job.job.attrs.get("priority", "high")
    if type(value) is str:  # (the usual case first: a name, or missing)
        return LOW if value.strip().lower() in _LOW_NAMES else HIGH
    if isinstance(value, bool):
        return HIGH if value else LOW
    if isinstance(value, (int, float)):
        return HIGH if value else LOW
    return LOW if str(value).strip().lower() in _LOW_NAMES else HIGH


def requested_reservation(job: JobView) -> float | None:
    """The clock time a job asks to start at (its ``reservation`` attribute), or None."""
    value = job.job.attrs.get("reservation")
    if value is None or isinstance(value, bool):
        return None
    try:
        t = float(value)
    except (TypeError, ValueError):
        return None
    return t if math.isfinite(t) else None


def parse_boundaries(text: str) -> tuple[float, ...]:
    """``"1000,10000"`` -> ``(1000.0, 10000.0)``: increasing positive estimates (s)."""
    parts = [p for p in text.replace(" ", ",").split(",") if p]
    try:
        edges = tuple(float(p) for p in parts)
    except ValueError:
        raise ValueError(
            f"boundaries must be numbers of seconds, e.g. '1000,10000'; got {text!r}"
        ) from None
    if any(not (e > 0 and math.isfinite(e)) for e in edges) or list(edges) != sorted(set(edges)):
        raise ValueError(f"boundaries must be increasing positive seconds, got {text!r}")
    return edges


#: Queues at least this long are sifted for the jobs that could start (`_Lanes.fitting`)
#: before the pass walks them; shorter ones are walked whole.
_SIFT_FROM = 64
#: The lanes keep the arrays the sift reads while the queue is at least this long (made
#: again by the first sift after it was shorter): most of the time the queue is short,
#: walked whole, and a job joining or leaving it then moves no array.
_ARRAYS_FROM = 32
#: The readings of the trial that fix its slot on submission.
_FIXED = ("scheduled", "reserved")
_TRIALS = ("waiting", "idle", "scheduled", "reserved")
_GUARDS = ("all", "own", "return", "reassign")


def _end_by(low: list[int], times: list[float], size: int) -> float:
    """When a job of ``size`` cores started now must end to delay nothing in a plan whose
    fewest cores free from now to the end of each step are ``low`` (steps starting at
    ``times``): the start of the first step with fewer (INF: none)."""
    k = bisect_right(low, -size, key=neg)  # (``low`` never rises: bisect it negated)
    return times[k] if k < len(times) else INF


class _IdleNodes:
    """Each partition's idle nodes (one core each), ascending: lists kept from pass to
    pass, a start taking the first ones of its partition's (`MultiQueue._take`) and
    the nodes of the jobs that left going back in when a pass next needs them.

    Made afresh at a first pass, when a job started while there were none leaves,
    and whenever the idle nodes they hold are not as many as the view's free cores
    (anything unforeseen).
    """

    __slots__ = ("freed", "lists")

    def __init__(self, free_nodes: np.ndarray, owner: np.ndarray, partitions: int) -> None:
        holder = owner[free_nodes]
        #: Per partition, its idle nodes, ascending.
        self.lists: list[list[int]] = [free_nodes[holder == q].tolist() for q in range(partitions)]
        #: Nodes of jobs that left (ended, requeued) since the lists were last brought up,
        #: each with the partition that owns them all (-1: look each one up).
        self.freed: list[tuple[np.ndarray, int]] = []

    def left(self, nodes: np.ndarray, owner: int = -1) -> None:
        """A job left these nodes (it ended or was requeued): they are idle again; all
        ``owner``'s, when it is given."""
        self.freed.append((nodes, owner))

    def bring_up(self, owner: np.ndarray) -> None:
        """Put the nodes freed since the last look back on their partitions' lists (a
        node changes partition only while idle, when borrowed: it is theirs still).
        Those of one partition join its list in one sort (two ascending runs, merged)."""
        lists = self.lists
        merged: set[int] = set()
        for nodes, q in self.freed:
            if q >= 0:
                lists[q] += nodes.tolist()
                merged.add(q)
                continue
            for node, home in zip(nodes.tolist(), owner[nodes].tolist(), strict=True):
                insort(lists[home], node)
        for q in merged:
            lists[q].sort()
        self.freed.clear()

    def idle(self) -> list[int]:
        return [len(nodes) for nodes in self.lists]


class _Lanes:
    """The queued jobs, kept from pass to pass job by job: all of them and each queue's
    in Figure 2's order (priority, then arrival: submit time, ties by id, the order the
    scheduler keeps its queue in), their sizes and spans as arrays, and how many of each
    size. A pass then finds the pivots (the first of each queue), whether any job is
    narrow enough, and the few jobs that could start (`fitting`) without a walk over the
    whole queue: under a heavy load a thousand jobs wait at each of a hundred thousand
    passes, and nearly all of them fit neither the idle cores nor the plan. (The arrays
    are kept only while the queue is long, `_ARRAYS_FROM`.)
    `MultiQueue.schedule` checks the count against the view's queue at every pass and
    makes the lanes afresh on a mismatch; the jobs a pass starts leave them after it.

    A job waiting for its speculative trial (section 2.1: it "waits outside the
    queues") is held *aside* (`set_aside`): counted in `jobs` and `sizes`, but in no
    queue's order, so that the walks over the queues (pivots, backfilling) do not pass
    over it at every pass: on CTC most of the queued jobs are such trials.
    """

    __slots__ = ("aside", "by_class", "count", "est", "jobs", "keys", "queue", "size", "sizes")

    def __init__(self, partitions: int) -> None:
        #: job id -> its view (the queue's own snapshot), for every queued job.
        self.jobs: dict[int, JobView] = {}
        #: Per queue, the (priority, submit, id) of its jobs, ascending.
        self.by_class: list[list[tuple[int, float, int]]] = [[] for _ in range(partitions)]
        #: size (cores) -> how many queued jobs have it; `sizes`: those sizes, ascending.
        self.count: dict[int, int] = {}
        self.sizes: list[int] = []
        #: Every queued job in Figure 2's order: its key, its view, and as arrays (with
        #: room to grow) its size and its planned span (the estimate, at least
        #: `MIN_PLAN`), for `fitting` (None: not kept, made when it asks).
        self.keys: list[tuple[int, float, int]] = []
        self.queue: list[JobView] = []
        self.size: np.ndarray | None = None
        self.est: np.ndarray | None = None
        #: The ids of the jobs held aside (in `jobs`, in no queue's order).
        self.aside: set[int] = set()

    def set_aside(self, job: JobView) -> None:
        """A queued job that waits outside the queues (for its speculative trial)."""
        self.jobs[job.id] = job
        self.aside.add(job.id)
        self._count(job.size)

    def add(self, job: JobView, prio: int, p: int) -> None:
        """A job joins its queue ``p`` in Figure 2's order (priority ``prio``, arrival)."""
        self.jobs[job.id] = job
        key = (prio, job.submit, job.id)
        insort(self.by_class[p], key)
        i = bisect_left(self.keys, key)
        n = len(self.keys)
        self.keys.insert(i, key)
        self.queue.insert(i, job)
        self._count(job.size)
        size, est = self.size, self.est
        if size is None or est is None:
            return
        if n == len(size):  # (room for twice as many)
            size = self.size = np.concatenate([size, np.zeros(n, dtype=np.int64)])
            est = self.est = np.concatenate([est, np.zeros(n)])
        size[i + 1 : n + 1] = size[i:n]  # (numpy copies overlapping slices right)
        est[i + 1 : n + 1] = est[i:n]
        size[i] = job.size
        est[i] = max(job.estimate, MIN_PLAN)

    def _count(self, size: int) -> None:
        n = self.count.get(size, 0)
        if not n:
            insort(self.sizes, size)
        self.count[size] = n + 1

    def remove(self, job_id: int, prio: int, p: int) -> None:
        """A job leaves the queued ones (it started), from its queue or from aside."""
        job = self.jobs.pop(job_id)
        if job_id in self.aside:
            self.aside.discard(job_id)
            self._uncount(job.size)
            return
        key = (prio, job.submit, job_id)
        lane = self.by_class[p]
        del lane[bisect_left(lane, key)]
        i = bisect_left(self.keys, key)
        n = len(self.keys)
        del self.keys[i]
        del self.queue[i]
        self._uncount(job.size)
        size, est = self.size, self.est
        if size is None or est is None:
            return
        if n - 1 < _ARRAYS_FROM:
            self.size = self.est = None  # (short again: walked whole)
            return
        size[i : n - 1] = size[i + 1 : n]
        est[i : n - 1] = est[i + 1 : n]

    def _uncount(self, size: int) -> None:
        n = self.count.pop(size) - 1
        if n:
            self.count[size] = n
        else:
            del self.sizes[bisect_left(self.sizes, size)]

    def fitting(self, cores: int, span: float, after: int) -> list[int]:
        """The places (in `queue`) after ``after`` of the jobs of at most ``cores`` cores
        whose span is at most ``span`` (give or take a rounding: a job on the edge is
        in), ascending."""
        n = len(self.keys)
        size, est = self.size, self.est
        if size is None or est is None:
            size, est = self._arrays()
        keep = size[after + 1 : n] <= cores
        if span < INF:
            keep &= est[after + 1 : n] <= span + 1e-6 * max(1.0, abs(span))
        return (np.flatnonzero(keep) + (after + 1)).tolist()

    def _arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """`size` and `est` made from the queue (room for twice as many jobs), kept
        from now on while the queue is long."""
        queue = self.queue
        n = len(queue)
        size = np.zeros(max(64, 2 * n), dtype=np.int64)
        est = np.zeros(len(size))
        size[:n] = [job.size for job in queue]
        est[:n] = [max(job.estimate, MIN_PLAN) for job in queue]
        if n >= _ARRAYS_FROM:
            self.size, self.est = size, est
        return size, est

    def place(self, job: JobView, prio: int) -> int:
        """Where a queued job is in `queue`."""
        return bisect_left(self.keys, (prio, job.submit, job.id))

    def pivots(self, skip: set[int]) -> list[JobView | None]:
        """The first job of each queue, passing over the ids in ``skip`` (None for a
        queue with no other)."""
        jobs = self.jobs
        out: list[JobView | None] = []
        for lane in self.by_class:
            for key in lane:
                if key[2] not in skip:
                    out.append(jobs[key[2]])
                    break
            else:
                out.append(None)
        return out


@register("multiqueue")
class MultiQueue(Policy):
    """Multiple-queue aggressive backfilling (Lawson and Smirni 2002): queues by estimate on
    partitions that lend idle processors, with priorities, speculation and reservations.

    ``boundaries``: the estimates (s) that separate the queues (Equation 1:
    ``"1000,10000"``, three queues; ``""`` is one queue). ``speculation``:
    start jobs whose estimate exceeds ``speculate_above`` s for at most
    ``speculative_limit`` s first (section 2.1); ``trial``: when that trial
    starts, at the first pass it fits around the pivots (``"waiting"``) or on idle
    cores whatever the pivots (``"idle"``), or in a slot fixed on
    submission, after the pivots (``"scheduled"``) or before them, as an advance
    reservation is granted (``"reserved"``). ``guard``: whether
    backfilling rules (a) and (b) may delay other partitions' pivots
    (``"own"``, as Figure 2 is written) or no pivot ever is (``"all"``), or
    partitions lend only what their pivots do not need and get it back when the
    borrowing job ends (``"return"``) or only when a pivot takes it back
    (``"reassign"``); see `schedsim.policies.multiqueue`.
    """

    #: Parameters added after run ids were published, with the value that behaves as
    #: before: a run with that value keeps its id (`schedsim.app.study.RunConfig.identity`).
    LATER_PARAMS: ClassVar[dict[str, object]] = {"trial": "waiting"}

    def __init__(
        self,
        boundaries: str = "1000,10000",
        speculation: bool = True,
        speculate_above: float = 1000.0,
        speculative_limit: float = 180.0,
        guard: Literal["all", "own", "return", "reassign"] = "all",
        trial: Literal["waiting", "idle", "scheduled", "reserved"] = "waiting",
    ) -> None:
        self.boundaries = boundaries
        self._edges = parse_boundaries(boundaries)
        if not (speculate_above >= 0 and math.isfinite(speculate_above)):
            raise ValueError(
                f"speculate_above must be a number of seconds >= 0, got {speculate_above}"
            )
        if not (speculative_limit > 0 and math.isfinite(speculative_limit)):
            raise ValueError(f"speculative_limit must be positive seconds, got {speculative_limit}")
        if guard not in _GUARDS:
            raise ValueError(f"guard must be 'all', 'own', 'return' or 'reassign', got {guard!r}")
        if trial not in _TRIALS:
            raise ValueError(
                f"trial must be 'waiting', 'idle', 'scheduled' or 'reserved', got {trial!r}"
            )
        self.speculation = bool(speculation)
        self.speculate_above = float(speculate_above)
        self.speculative_limit = float(speculative_limit)
        self.guard = guard
        self.trial = trial
        self.partitions = len(self._edges) + 1
        #: The partition owning each node (set at the first pass), and cores per node.
        self._owner: np.ndarray | None = None
        #: How many nodes each partition owns (kept with `_owner`).
        self._owned: list[int] = []
        self._cpn = 1
        #: Job id -> its partition (0-based), for every job seen.
        self._class: dict[int, int] = {}
        #: Job id -> its priority (`HIGH`, `LOW`); whether any job was low priority.
        self._prio: dict[int, int] = {}
        self._low = False
        #: Job id -> how it was started (its last start): pivot, a, b, c, speculative, ...
        self._rule: dict[int, str] = {}
        #: Granted reservations not started yet: job id -> (start, planned duration, cores).
        self._granted: dict[int, tuple[float, float, int]] = {}
        self._grant_time: dict[int, float] = {}
        #: Jobs waiting for their speculative start (insertion order: arrival), and
        #: those whose attempt is over.
        self._speculating: dict[int, JobView] = {}
        self._speculated: set[int] = set()
        #: ``trial="scheduled"``: the trials arrived this pass, to be given a slot once
        #: the pivots are planned; job id -> its slot, for those given one (a slot not
        #: started yet is also in `_granted`, as a reservation is; ``"reserved"``
        #: gives it on submission).
        self._new_trials: list[JobView] = []
        self._trial_slot: dict[int, float] = {}
        #: (time, partition (1-based), processors) whenever the partition sizes change.
        self._sizes: list[tuple[float, int, int]] = []
        self._last_sizes: tuple[int, ...] = ()
        #: Whether a node changed partition since the sizes were last recorded.
        self._moved = True
        self._promises: list[Reservation] | None = []
        #: The view of the last pass, when it did not plan (see `promises`).
        self._unplanned: View | None = None
        #: The queued jobs in Figure 2's order, by queue and by size.
        self._lanes = _Lanes(self.partitions)
        #: The running jobs' profile, kept from pass to pass (`_base`), with their
        #: (expected end, cores) by id, and the view's tuple of them it was made from.
        self._held: Profile | None = None
        self._end_of: dict[int, tuple[float, int]] = {}
        #: (expected end, id) of `_end_of`'s jobs, a heap; entries no longer there are
        #: dropped as they come to the top.
        self._ends: list[tuple[float, int]] = []
        self._running: tuple[JobView, ...] = ()
        #: The last planning pass's pivots, their start times and the jobs it started.
        self._planned: tuple[list[JobView | None], list[float], set[int]] | None = None
        #: On nodes of one core with several partitions: each partition's idle nodes.
        self._idle_nodes: _IdleNodes | None = None
        #: ``guard="return"``: each running job's (partition, cores taken from each home
        #: partition, planned end), and the cores of home q held for partition p
        #: (``_lent[p, q]``); nodes never change owner, they are only held. Under
        #: ``"reassign"`` and ``"own"`` the same for the cores each running job holds,
        #: all its own partition's (``_lent`` unused).
        self._loans: dict[int, tuple[int, list[int], float]] = {}
        self._lent = np.zeros((self.partitions, self.partitions), dtype=np.int64)
        #: The cores the last `_take` took from each partition.
        self._took: list[int] = [0] * self.partitions
        #: The nodes of the jobs started on them, by id (while they run).
        self._nodes_of: dict[int, np.ndarray] = {}
        #: On a machine of node groups, memory or partitions, or with outages: the passes
        #: node by node (`schedsim.policies.multiqueue_nodes`), for the whole run.
        self._nodes: NodePath | None = None

    def params(self) -> dict[str, Any]:
        return {
            "boundaries": self.boundaries,
            "speculation": self.speculation,
            "speculate_above": self.speculate_above,
            "speculative_limit": self.speculative_limit,
            "guard": self.guard,
            "trial": self.trial,
        }

    # -- machines and outages: node by node -------------------------------------------
    def check_machine(self, machine: Machine) -> None:
        """Node groups, memory and partitions (overlapping or not, with or without a
        default): the run is planned node by node, one pivot per estimate queue and
        machine partition (`schedsim.policies.multiqueue_nodes`), under ``guard="all"``
        only. `PolicyError` for the other guards, which count the processors each
        estimate partition owns."""
        self._refuse_guard("a machine of node groups, memory or partitions")
        self._on_nodes()

    def check_outages(self, windows: bool, machine: Machine | None) -> None:
        """Failures and maintenance windows on any machine: the run is planned node by node
        (`schedsim.policies.multiqueue_nodes`) with the outages blocked, under
        ``guard="all"`` only (`check_machine`)."""
        self._refuse_guard("node outages")
        self._on_nodes()

    def _refuse_guard(self, what: str) -> None:
        if self.guard != "all":
            raise PolicyError(
                f"policy {self.name!r} with guard={self.guard!r} counts the processors each "
                f"partition owns, which it cannot do with {what}; guard='all' runs there"
            )

    def _on_nodes(self) -> NodePath:
        """The node-by-node passes, made once (this run's, from now on)."""
        if self._nodes is None:
            from schedsim.policies.multiqueue_nodes import NodePath  # (it imports this module)

            self._nodes = NodePath(self)
        return self._nodes

    # -- what the result shows -----------------------------------------------------
    def promises(self) -> list[Reservation]:
        """Each partition's pivot at its planned start (kind ``"pivot"``), and the granted
        advance reservations and trial slots not started yet (kinds ``"advance"``,
        ``"trial"``); node by node, with their cores."""
        if self._nodes is not None:
            return self._nodes.promises()
        if self._promises is None and self._planned is not None:
            self._promises = self._promised(*self._planned)
        if self._promises is None:  # a pass that could start nothing did not plan
            view = self._unplanned
            assert view is not None
            skip = self._not_waiting()
            pivots = self._lanes.pivots(skip)
            _, pst = self._plan(self._base(view), pivots, view.now)
            self._promises = self._promised(pivots, pst, set())
        return list(self._promises)

    def job_columns(self) -> dict[str, dict[int, Any]]:
        columns: dict[str, dict[int, Any]] = {
            "queue_class": {jid: p + 1 for jid, p in self._class.items()},
            "start_rule": dict(self._rule),
        }
        if self._grant_time:  # a run with reservations
            columns["reservation_granted"] = dict(self._grant_time)
        if self._trial_slot:  # a run with scheduled trials
            columns["trial_slot"] = dict(self._trial_slot)
        return columns

    def tables(self) -> dict[str, tuple[Sequence[str], Sequence[tuple]]]:
        """``partitions``: (time, partition, processors) whenever the processors each
        estimate partition holds change. Node by node (`schedsim.policies.multiqueue_nodes`)
        no processor is owned and the table has no rows."""
        return {"partitions": (("time", "partition", "processors"), list(self._sizes))}

    def partition_of(self, estimate: float) -> int:
        """The queue (0-based) of a job of this estimate (Equation 1)."""
        p = 0
        while p < len(self._edges) and estimate >= self._edges[p]:
            p += 1
        return p

    # -- a pass ------------------------------------------------------------------------
    def schedule(self, view: View) -> list[Decision]:
        nodes = self._nodes
        if nodes is None and (view.machine is not None or view.outages):
            self._refuse_guard("a machine of node groups, memory or partitions, or outages")
            nodes = self._on_nodes()  # (a view made by hand: no check was asked)
        if nodes is not None:
            return nodes.schedule(view)
        now = view.now
        self._cpn = view.cores_per_node
        if self._owner is None or len(self._owner) != view.nodes:
            self._owner = self._initial_owners(view.nodes)
            self._owned = np.bincount(self._owner, minlength=self.partitions).tolist()
            self._idle_nodes = None
        for job in view.ended:
            self._granted.pop(job.id, None)
            self._speculating.pop(job.id, None)
            self._forget(job.id, now)
            self._left(job.id)
        lanes = self._lanes
        for job in view.requeued:  # a speculative attempt ran out: the job queues now
            self._speculating.pop(job.id, None)
            self._speculated.add(job.id)
            self._forget(job.id, now)
            self._left(job.id)
            lanes.add(job, self._prio[job.id], self._class[job.id])

        arrived = [j for j in view.arrived if j.state is State.QUEUED]
        for job in arrived:
            self._join(job, trials_aside=True)
        if len(lanes.jobs) != len(view.queue):  # (anything unforeseen: made afresh)
            lanes = self._lanes = _Lanes(self.partitions)
            for job in view.queue:
                if job.id not in self._class:
                    self._join(job)
                elif job.id in self._speculating:
                    lanes.set_aside(job)
                else:
                    lanes.add(job, self._prio[job.id], self._class[job.id])
        if self._nothing_can_start(view, arrived):
            # A full machine (or jobs all wider than what is free), no reservation due
            # or asked for: the pass changes nothing but the bookkeeping. What it would
            # promise is worked out only if asked (`promises`).
            for job in arrived:
                self._arrive(job, None, now)
            self._promises = self._planned = None
            self._unplanned = view
            if self._moved and self.guard == "return":  # processors came back home
                self._record_sizes(now)
                self._moved = False
            return self._timer(view)

        # The pass's profile of the running jobs, the granted slots and its own starts
        # (`base`), on which the pivots are planned. In the usual pass (trials that wait
        # for room, no slot granted or asked for, no guard "own") nothing reads it once
        # the plan is made but a replan from scratch (`_replan`: rare), so the plan is
        # made on the running jobs' profile itself and `base` only if asked (`base_now`):
        # from that profile and the starts owed to it, in the order the pass made them.
        held = self._held_now(view)
        base: Profile | None = None
        owed: list[tuple[float, int]] = []  # (span, cores) of this pass's starts
        if self._reads_base(arrived):
            base = self._with_slots(held, now)
        for job in arrived:
            self._arrive(job, base, now)

        def base_now() -> Profile:
            nonlocal base
            if base is None:
                base = held.copy()  # (no slot granted: `_with_slots` adds none)
            for span, size in owed:
                base.add(now, now + span, -size)
            owed.clear()
            return base

        def hold(span: float, size: int) -> None:
            """A start now takes ``size`` cores of `base` over ``span``."""
            if base is None:
                owed.append((span, size))
            else:
                base.add(now, now + span, -size)

        out: list[Decision] = []
        started: set[int] = set()
        # The jobs in the queues' order that do not wait there (started this pass, granted
        # a slot or waiting for one): skipped where the queue is read (`_not_waiting`).
        skip = self._not_waiting()
        # Free cores per node and idle cores per partition, ours (`_take` keeps them up to
        # date), made when a start or a rule first needs them: most passes need neither.
        cores: list[Any] = []

        def state() -> tuple[Any, list[int]]:
            if not cores:
                cores.extend(self._idle_cores(view))
            return cores[0], cores[1]

        lend = self.guard == "return"
        capped = self.guard in ("return", "reassign")  # lenders keep what their pivots need
        own = self.guard == "own"  # rules (a) and (b) against pivot_p alone

        def launch(job: JobView, rule: str, span: float, caps: list[int] | None = None,
                   limit: float | None = None, on_limit: Any = "kill") -> bool:  # fmt: skip
            free_cores, idle = state()
            p = self._class[job.id]
            alloc = self._take(free_cores, idle, p, job.size, caps)
            if alloc is None:
                return False
            if lend:
                self._lend(job.id, p, self._took, now + span)
            elif capped or own:  # the cores it took are p's now, until it ends
                self._lend(job.id, p, [job.size if q == p else 0 for q in range(self.partitions)],
                           now + span)  # fmt: skip
            out.append(Start(job, alloc, limit, on_limit))
            if self._idle_nodes is not None:
                self._nodes_of[job.id] = alloc.nodes
            self._rule[job.id] = rule
            started.add(job.id)
            skip.add(job.id)
            return True

        # Granted reservations that are due start first: nothing was let near them.
        due_first = sorted(self._granted.items(), key=lambda i: i[1]) if self._granted else ()
        for jid, (when, span, _) in due_first:
            if when > now:
                break
            due = lanes.jobs.get(jid)
            if due is None:  # (not queued)
                continue
            if jid in self._trial_slot:
                how: dict[str, Any] = {"limit": self.speculative_limit, "on_limit": "requeue"}
                if launch(due, "speculative", span, **how):
                    del self._granted[jid]
            elif launch(due, "reservation", span):
                del self._granted[jid]

        # Figure 2's order: high priority first, each priority in arrival order.
        pivots = lanes.pivots(skip)
        plan, pst = self._plan(held if base is None else base, pivots, now)
        # Guards "own", "return", "reassign": each partition's processors its pivot does
        # not need (extra_p of step 5), made from the cores each running job holds when a
        # backfill first asks (after the trials took theirs), kept up to date by each
        # start and made again when the plan changes.
        spare: list[int] | None = None

        # Speculative starts "at the earliest possible time", before the loop.
        # (Their dict is in arrival order; priorities reorder it.)
        free = view.free_cores
        if self._new_trials:  # trial="scheduled": the slots of this pass's arrivals
            free = self._schedule_trials(base_now(), plan, now, free, launch)
        # (Often dozens wait for room, few of them no wider than the idle cores: the
        # others are passed over in one look. Each start takes cores: still checked.)
        trying = [t for t in self._speculating.values() if t.size <= free] if free else []
        if self._low:
            trying.sort(key=lambda j: self._prio[j.id])
        # Every trial holds its cores over [now, now + limit) (estimates above the
        # threshold are longer than the limit, unless the threshold is below it): the
        # fewest cores free in that window, less what each start takes, says which fit.
        same = self.speculate_above >= self.speculative_limit
        # trial="idle": on the cores idle over its span by the running jobs and the
        # granted slots alone; the pivots then move out of its way.
        fit = base_now() if self.trial == "idle" else plan
        room = fit.min_free(now, now + self.speculative_limit) if trying and same else 0
        for trial in trying:
            size = trial.size
            if size > free:
                continue
            span = min(self.speculative_limit, duration(trial.estimate))
            if (room if same else fit.min_free(now, now + span)) >= size:
                launch(trial, "speculative", span, limit=self.speculative_limit, on_limit="requeue")
                free -= size
                room -= size
                hold(span, size)
                plan.add(now, now + span, -size)
                del self._speculating[trial.id]
        if fit is not plan and trying and any(t.id in started for t in trying):
            plan, pst = self._plan(fit, pivots, now)  # the pivots, around the trials

        # The fewest cores free from now to the end of each step of the plan (made
        # again after the plan changes): whether a job fits over its estimate is then
        # one look per size (`until`), not a walk over the steps (`Profile.min_free`).
        low: list[int] | None = None
        # (made with `low`) size -> the time by which a job of that size must end: the
        # start of the plan's first step with fewer cores free (INF: none).
        until: dict[int, float] = {}
        # Guards "return", "reassign": the most the partitions may lend a job together,
        # whatever its estimate (made with `spare`, again after each start). In a long
        # queue most jobs that fit the plan are wider than that: one look skips them.
        most: int | None = None
        times: list[float] = []  # (made with `low`: the plan's times)
        starts: list[float] = []  # (made with `most`: the pivots' start times, sorted)
        caps_by_k: dict[int, tuple[list[int], int]] = {}
        klass = self._class
        queued = lanes.queue  # (the jobs started this pass leave it after the pass)

        def could_start(after: int) -> list[int]:
            """The places in ``queued`` after ``after`` of the jobs the loop below could
            start (a superset): those that fit the idle cores and, unless under "own",
            the cores the plan leaves now and over their span (a job wider than the
            narrowest queued one fits no longer), and the pivots due now. Every other job
            the loop would pass over. (A walk over a short queue costs less.) It makes
            the loop's ``low`` for the plan, which the loop then need not make."""
            nonlocal low, times
            if len(queued) < _SIFT_FROM:
                return list(range(after + 1, len(queued)))
            cores, span = free, INF
            if not own:
                assert plan.times[0] == now  # (a plan starts at the present)
                low, times = list(accumulate(plan.free, min)), plan.times
                until.clear()
                narrowest = lanes.sizes[0]
                end = until[narrowest] = _end_by(low, times, narrowest)
                cores = min(cores, low[0])
                span = end - now
            places = lanes.fitting(cores, span, after)
            due = [lanes.place(j, self._prio[j.id]) for q, j in enumerate(pivots)
                   if j is not None and pst[q] == now]  # fmt: skip
            if due:
                places = sorted({*places, *(i for i in due if i > after)})
            return places

        sift = could_start(-1)
        at = 0
        while at < len(sift):
            place = sift[at]
            at += 1
            job = queued[place]
            size = job.size
            if size > free or job.id in skip:
                if not free:
                    break  # nothing more can start now
                continue
            p = klass[job.id]
            if pivots[p] is job:
                span = duration(job.estimate)
                if pst[p] == now and launch(job, "pivot", span):
                    free -= size
                    hold(span, size)
                    pivots = lanes.pivots(skip)  # a new pivot for p
                    plan, pst = self._replan(base_now, plan, pst, pivots, p, now)
                    low = None
                    spare = most = None
                    sift, at = could_start(place), 0  # (the plan moved)
                continue
            if low is None:
                assert plan.times[0] == now  # (a plan starts at the present)
                low = list(accumulate(plan.free, min))
                times = plan.times
                until.clear()
            if not own and size > low[0]:
                continue  # not even now, with the pivots due now (a cheap first look)
            if most is not None and size > most:
                continue  # (every lender's cap below is at most its term in `most`)
            span = job.estimate  # duration(job.estimate), without a call per job
            if span < MIN_PLAN:
                span = MIN_PLAN
            # Delays no pivot, no reservation: enough cores over [now, now + span), that
            # is, it ends by the first step with fewer (found once per size and plan).
            end = until.get(size)
            if end is None:
                end = until[size] = _end_by(low, times, size)
            fits = now + span <= end
            if not own and not fits:
                continue  # (guard "all", "return", "reassign": every rule needs it)
            caps = None
            rule: str | None
            if capped:  # what each partition may lend it (rules a and b, per partition)
                idle = state()[1]
                if spare is None:
                    spare = self._spare(idle, pivots, pst, now)
                if most is None:  # (span > 0: now + span <= pst[q] needs pst[q] > now)
                    most = sum(i if pst[q] > now else min(i, max(spare[q], 0))
                               for q, i in enumerate(idle))  # fmt: skip
                    # The caps hang on which pivots start before the job would end:
                    # the k earliest (k = how many start before it ends), so there
                    # are at most partitions + 1 of them, made once each (with `most`).
                    starts = sorted(pst)
                    caps_by_k.clear()
                    if size > most:
                        continue
                k = bisect_left(starts, now + span)
                known = caps_by_k.get(k)
                if known is None:
                    caps = [i if now + span <= pst[q] else min(i, max(spare[q], 0))
                            for q, i in enumerate(idle)]  # fmt: skip
                    known = caps_by_k[k] = (caps, sum(caps))
                caps, total = known
                if total < size:
                    continue
                rule = ("a" if now + span <= pst[p] else "b") if caps[p] >= job.size else "c"
            else:
                # guard "own": rules (a) and (b) look at pivot_p alone, but no start may
                # take the cores of a granted slot (reservation or trial), promised
                # "immediately and irrevocably", nor delay pivot_p past one.
                extra = None
                kept = True
                if own:
                    idle = state()[1]
                    if spare is None:
                        spare = self._spare(idle, pivots, pst, now)
                    extra = spare
                    kept = self._clear(base_now(), job.size, now, span, pivots[p], pst[p])
                rule = self._rule_for(job, p, span, now, state()[1], fits, pst, extra, kept)
            if rule is not None and launch(job, rule, span, caps):
                if spare is not None:
                    for q, k in enumerate(self._took):
                        # (under "reassign" and "own" what q gave another partition is
                        # gone from it for good, not only until the borrower ends)
                        if k and (now + span > pst[q] or (q != p and not lend)):
                            spare[q] -= k
                free -= size
                hold(span, size)
                plan.add(now, now + span, -size)
                low = most = None

        if self._moved:
            self._record_sizes(now)
            self._moved = False
        # What it promises is worked out only if asked (`promises`).
        self._promises = None
        self._planned = (pivots, pst, started)
        prio, klass = self._prio, self._class
        for jid in started:
            lanes.remove(jid, prio[jid], klass[jid])
        return out + self._timer(view)

    def _idle_cores(self, view: View) -> tuple[Any, list[int]]:
        """What `_take` takes from, and the idle cores per partition. On nodes of one
        core with several partitions, each partition's idle nodes as a list (a start
        takes the first ones: no array work per start), kept from pass to pass
        (`_IdleNodes`); else the free cores per node (a copy)."""
        if self.partitions == 1:
            return np.array(view.free_per_node, dtype=np.int64), [view.free_cores]
        assert self._owner is not None
        if self._cpn == 1:
            kept = self._idle_nodes
            if kept is not None:
                kept.bring_up(self._owner)
                idle = kept.idle()
                if sum(idle) == view.free_cores:
                    return kept, idle
            free_nodes = np.flatnonzero(view.free_per_node)
            kept = self._idle_nodes = _IdleNodes(free_nodes, self._owner, self.partitions)
            return kept, kept.idle()
        avail = np.array(view.free_per_node, dtype=np.int64)
        per_partition = np.bincount(self._owner, weights=avail, minlength=self.partitions)
        return avail, per_partition.astype(np.int64).tolist()

    def _left(self, job_id: int) -> None:
        # A job left its nodes: back on their partitions' lists at the next look. One
        # started while there were no lists leaves them short: they are made afresh.
        loan = self._loans.pop(job_id, None)
        if loan is not None:  # guard "return": what it held goes back to its home
            p, took, _ = loan
            self._lent[p] -= took
            self._moved = self._moved or any(k for q, k in enumerate(took) if q != p)
        nodes = self._nodes_of.pop(job_id, None)
        kept = self._idle_nodes
        if kept is None:
            return
        if nodes is None:
            self._idle_nodes = None
        elif self.guard == "return":  # (its nodes kept their home partitions)
            kept.left(nodes)
        else:  # every node it took became its partition's (`_take`), and stayed so
            kept.left(nodes, self._class[job_id])

    def _reads_base(self, arrived: list[JobView]) -> bool:
        """Whether a pass reads its base profile (running jobs, granted slots, its starts)
        once its pivots are planned, so that it makes it first: slots granted or asked
        for, trials planned on it (``trial`` not ``"waiting"``), or guard ``"own"``."""
        return (
            self.trial != "waiting"
            or self.guard == "own"
            or bool(self._granted)
            or any(requested_reservation(j) is not None for j in arrived)
        )

    def _nothing_can_start(self, view: View, arrived: list[JobView]) -> bool:
        """Whether this pass can start nothing and grant nothing: no reservation due or
        asked for, and no idle core or every waiting job wider than the idle cores."""
        free = view.free_cores
        if not arrived and not self._granted:  # (the usual pass: nothing else to ask)
            if free == 0:
                return True
            sizes = self._lanes.sizes
            return not sizes or sizes[0] > free
        now = view.now
        if self._granted and any(when <= now for when, _, _ in self._granted.values()):
            return False
        if arrived and any(requested_reservation(j) is not None for j in arrived):
            return False
        if self.trial in _FIXED and arrived and any(map(self._speculates, arrived)):
            return False  # a trial's slot is planned on arrival
        if free == 0:
            return True
        sizes = self._lanes.sizes
        return not sizes or sizes[0] > free

    def _forget(self, job_id: int, now: float) -> None:
        """A job left the running ones (ended, requeued): its cores are free from now."""
        entry = self._end_of.pop(job_id, None)
        if entry is not None and self._held is not None:
            end, size = entry
            if end > now:  # it ended early: the hole it leaves
                self._held.advance(now)
                self._held.add(now, end, size)

    def _base(self, view: View) -> Profile:
        """The running jobs (by their estimates) and the granted reservations: a profile
        of the pass's own (`_held_now` and the slots)."""
        return self._with_slots(self._held_now(view), view.now)

    def _with_slots(self, held: Profile, now: float) -> Profile:
        """A copy of ``held`` in which the granted slots (advance reservations, trial
        slots) hold their cores."""
        base = held.copy()
        for start, span, cores in self._granted.values():
            base.add(max(start, now), start + span, -cores)
        return base

    def _held_now(self, view: View) -> Profile:
        """The running jobs (by their estimates): a profile read, never changed, by the
        pass (copy it to plan on it).

        `Profile.of_running`'s profile, kept from pass to pass: the jobs started
        since the last look take their cores to their expected ends, those that
        ended early give them back (`_forget`). A job that outlived its estimate
        has a planned end that moves with the clock: while one runs, the profile
        is made afresh at every pass.
        """
        now = view.now
        running = view.running
        known = self._end_of
        held = self._held
        if held is not None:  # (a profile dropped below is made afresh: no harm done)
            held.advance(now)
        if running is not self._running:  # the running jobs changed since the last look
            self._running = running
            new = len(running) - len(known)
            if held is not None and new >= 0:
                # Those new started since, and stand last in the view's order of starts.
                for r in running[len(running) - new :] if new else ():
                    known[r.id] = (r.expected_end, r.size)
                    heapq.heappush(self._ends, (r.expected_end, r.id))
                    held.add(now, r.expected_end, -r.size)
            if held is None or len(known) != len(running):  # made afresh
                held = None
        if held is not None:
            ends = self._ends  # is a job past its expected end? the earliest says
            while ends and known.get(ends[0][1], (None,))[0] != ends[0][0]:
                heapq.heappop(ends)
            if held.free[0] != view.free_cores or (ends and ends[0][0] <= now):
                held = None
        if held is None:  # a first look, or an overrun (or anything unforeseen)
            held = Profile.of_running(now, view.free_cores, running)
            known.clear()
            known.update((r.id, (r.expected_end, r.size)) for r in running)
            self._ends = [(end, jid) for jid, (end, _) in known.items()]
            heapq.heapify(self._ends)
            overrun = any(r.expected_end <= now for r in running)
            self._held = None if overrun else held
        else:
            self._held = held
        return held

    def _timer(self, view: View) -> list[Decision]:
        """A pass at the next granted reservation, if none is asked for yet."""
        if not self._granted:
            return []
        later = [when for when, _, _ in self._granted.values() if when > view.now]
        if later and min(later) not in view.timers:
            return [WakeAt(min(later))]
        return []

    def _schedule_trials(
        self, base: Profile, plan: Profile, now: float, free: int, launch: Any
    ) -> int:
        """``trial="scheduled"``: each trial arrived this pass gets a fixed slot, the
        earliest time it fits the plan (running jobs, the other slots and the pivots),
        held in ``base`` and ``plan``; one due now starts now. Returns the idle cores
        left (``free`` less those started)."""
        trials, self._new_trials = self._new_trials, []
        if self._low:
            trials.sort(key=lambda j: self._prio[j.id])
        for job in trials:
            span = min(self.speculative_limit, duration(job.estimate))
            when = plan.earliest(job.size, span, after=now)
            plan.reserve(when, span, job.size)
            base.reserve(when, span, job.size)
            self._trial_slot[job.id] = when
            how: dict[str, Any] = {"limit": self.speculative_limit, "on_limit": "requeue"}
            if when == now and launch(job, "speculative", span, **how):
                free -= job.size
            else:  # later (or its cores held past their estimates): kept until due
                self._granted[job.id] = (when, span, job.size)
        return free

    def _speculates(self, job: JobView) -> bool:
        """Whether a job just submitted gets a speculative trial (and no reservation)."""
        return (
            self.speculation
            and job.estimate > self.speculate_above
            and job.id not in self._speculated
            and requested_reservation(job) is None
        )

    def _promised(
        self, pivots: list[JobView | None], pst: list[float], started: set[int]
    ) -> list[Reservation]:
        return [
            Reservation(j.id, pst[p], pst[p] + duration(j.estimate), j.size, kind="pivot")
            for p, j in enumerate(pivots)
            if j is not None and j.id not in started and math.isfinite(pst[p])
        ] + [
            Reservation(
                jid,
                when,
                when + span,
                cores,
                kind="trial" if jid in self._trial_slot else "advance",
            )
            for jid, (when, span, cores) in sorted(self._granted.items(), key=lambda i: i[1])
        ]

    # -- pieces of a pass ------------------------------------------------------------------
    def _initial_owners(self, nodes: int) -> np.ndarray:
        """Consecutive blocks of nodes, as equal as they divide (section 2.1, Figure 1)."""
        sizes = [nodes // self.partitions + (1 if p < nodes % self.partitions else 0)
                 for p in range(self.partitions)]  # fmt: skip
        return np.repeat(np.arange(self.partitions), sizes).astype(np.int64)

    def _join(self, job: JobView, trials_aside: bool = False) -> None:
        """A submission joins its queue (Equation 1), with its priority. With
        ``trials_aside`` (processors counted), one that waits for its speculative trial
        (``trial="waiting"`` or ``"idle"``, section 2.1) waits outside the queues until
        the trial has run (`_speculating`, `_Lanes.set_aside`)."""
        self._class[job.id] = p = self.partition_of(job.estimate)
        self._prio[job.id] = prio = priority_of(job)
        self._low = self._low or prio == LOW
        if trials_aside and self.trial not in _FIXED and self._speculates(job):
            self._speculating[job.id] = job  # size, estimate, submit: fixed while queued
            self._lanes.set_aside(job)
        else:
            self._lanes.add(job, prio, p)

    def _arrive(self, job: JobView, base: Profile | None, now: float) -> None:
        """A submission (`_join` made it a queue's, or set it aside for its trial): a
        reservation granted, or a trial's slot fixed."""
        asked = requested_reservation(job)
        if asked is not None:
            assert base is not None  # a pass with a request plans (`_nothing_can_start`)
            span = duration(job.estimate)
            when = base.earliest(job.size, span, after=max(asked, now))
            base.reserve(when, span, job.size)
            self._granted[job.id] = (when, span, job.size)
            self._grant_time[job.id] = when
        elif (
            self.speculation
            and job.estimate > self.speculate_above
            and job.id not in self._speculated
        ):
            if self.trial == "scheduled":
                self._new_trials.append(job)  # its slot: once the pivots are planned
            elif self.trial == "reserved":  # its slot now, as a reservation's grant
                assert base is not None  # a pass with a trial plans (`_nothing_can_start`)
                span = min(self.speculative_limit, duration(job.estimate))
                when = base.earliest(job.size, span, after=now)
                base.reserve(when, span, job.size)
                self._granted[job.id] = (when, span, job.size)  # one due now starts now
                self._trial_slot[job.id] = when
            # (trial "waiting", "idle": `_join` set it aside, in `_speculating`)

    def _not_waiting(self) -> set[int]:
        """The ids of the jobs in the queues' order that do not wait there: granted a
        reservation or a trial's slot, or waiting for their slot (those waiting for
        their trial at the first pass it fits are not in the queues' order at all)."""
        skip = set(self._granted)
        if self._new_trials:  # trial="scheduled": given their slots after the pivots
            skip.update(j.id for j in self._new_trials)
        return skip

    def _plan(
        self, base: Profile, pivots: list[JobView | None], now: float
    ) -> tuple[Profile, list[float]]:
        """Each pivot's start time, planned high priority first, each in arrival order,
        each holding its cores in the returned profile from then on (step 3)."""
        plan = base.copy()
        pst = [INF] * self.partitions
        present = [(p, j) for p, j in enumerate(pivots) if j is not None]
        prio = self._prio
        if len(present) > 1:
            present.sort(key=lambda pj: (prio[pj[1].id], pj[1].submit, pj[1].id))
        for p, job in present:
            span = duration(job.estimate)
            pst[p] = when = plan.earliest(job.size, span, now)
            plan.add(when, when + span, -job.size)  # (`Profile.reserve`, one call less)
        return plan, pst

    def _replan(
        self,
        base: Callable[[], Profile],
        plan: Profile,
        pst: list[float],
        pivots: list[JobView | None],
        p: int,
        now: float,
    ) -> tuple[Profile, list[float]]:
        """The plan after pivot_p started now (its cores now in ``base()``, the pass's
        profile without the pivots) and p got a new pivot. The old plan already holds
        the started job where it was planned, now, so every other pivot keeps its
        start: planned before it, it fitted with it; planned after it, on the same
        profile. Only the new pivot needs planning, on top, when it comes last in the
        planning order; else all are planned again (on ``base()``)."""
        new = pivots[p]
        if new is None:
            pst[p] = INF
            return plan, pst
        prio = self._prio
        key = (prio[new.id], new.submit, new.id)
        if all(
            (prio[j.id], j.submit, j.id) < key
            for q, j in enumerate(pivots)
            if j is not None and q != p
        ):
            span = duration(new.estimate)
            pst[p] = when = plan.earliest(new.size, span, now)
            plan.add(when, when + span, -new.size)
            return plan, pst
        return self._plan(base(), pivots, now)

    @staticmethod
    def _clear(
        base: Profile, size: int, now: float, span: float, pivot: JobView | None, start: float
    ) -> bool:
        """``guard="own"``: whether ``size`` cores over ``[now, now + span)`` keep off the
        granted slots and pivot_p (``pivot``, planned at ``start``): ``base`` holds the
        running jobs and the slots, no pivot. extra_p of step 5 is counted at pivot_p's
        start time alone; a slot granted for a time within pivot_p's run takes cores
        from then on, so rule (b)'s job, running on past pivot_p's start time, could
        still push pivot_p back (section 2.2 moves no granted slot): this says it
        does not. (On one partition it is the plan's test, EASY's: the single queue
        schedules as under ``guard="all"``.)"""
        end = now + span
        if pivot is None or end <= start or not math.isfinite(start):
            return base.min_free(now, end) >= size  # (rule (a): it ends before pivot_p)
        stop = start + duration(pivot.estimate)
        if start > now and base.min_free(now, start) < size:
            return False
        if base.min_free(start, min(stop, end)) < size + pivot.size:
            return False
        return end <= stop or base.min_free(stop, end) >= size

    def _rule_for(
        self,
        job: JobView,
        p: int,
        span: float,
        now: float,
        idle: list[int],
        fits: bool,
        pst: list[float],
        extra: list[int] | None,
        kept: bool = True,
    ) -> str | None:
        """Which rule of step 7 lets ``job`` (partition ``p``, not its pivot) start now;
        ``fits``: whether it fits the plan over its estimate, delaying no pivot and no
        reservation; ``kept`` (``guard="own"``): whether it keeps off every granted slot
        and pivot_p (rules (a) and (b), which name pivot_p alone, need that too)."""
        size = job.size  # (the caller checked it is at most the idle cores)
        mine = idle[p]
        if extra is None:  # guard "all": every start fits the plan of every pivot
            if not fits:
                return None
            if size <= mine:
                return "a" if now + span <= pst[p] else "b"
            return "c"
        if kept and size <= mine and now + span <= pst[p]:
            return "a"
        if kept and size <= min(mine, extra[p]):
            return "b"
        return "c" if fits else None

    def _take(
        self, free: Any, idle: list[int], p: int, size: int, caps: list[int] | None = None
    ) -> Allocation | None:
        """``size`` idle cores for a job of partition ``p``: its own nodes' first, then
        other partitions' (the one with the most idle cores first), lowest-numbered
        nodes first; ``caps``: at most so many cores from each partition. A node
        borrowed whole becomes ``p``'s (on nodes of one core, every borrowed node; not
        under ``guard="return"``, where it is only held); one whose other cores are
        busy stays with its owner. ``free`` (what `_idle_cores` made) and ``idle`` (per
        partition) are updated; `_took` says how many cores came from each partition."""
        owner, cpn = self._owner, self._cpn
        assert owner is not None
        room = idle if caps is None else [min(i, c) for i, c in zip(idle, caps, strict=True)]
        if sum(room) < size:
            return None
        took = self._took = [0] * self.partitions
        took[p] = min(room[p], size)
        if cpn == 1 and self.partitions == 1:  # one partition: first fit
            nodes = np.flatnonzero(free)[:size]
            free[nodes] = 0
            idle[p] -= size
            return Allocation.one_core_each(nodes)
        keeps = self.guard == "return"  # nodes keep their home partition
        if cpn == 1:  # each partition's idle nodes, ascending: take from the front
            if room[p] >= size:  # (the usual case: its own partition's nodes suffice)
                nodes_q = free.lists[p]
                picked = nodes_q[:size]
                del nodes_q[:size]
                idle[p] -= size
                return Allocation.one_core_each(np.array(picked, dtype=np.int64))
            picked = []
            borrowed: list[int] = []  # those of other partitions (idle ones keep theirs)
            left = size
            for q in (p, *self._lenders(idle, p)):  # (p's own do not suffice)
                k = min(room[q], left)
                if k:
                    nodes_q = free.lists[q]
                    picked += nodes_q[:k]
                    if q != p:
                        borrowed += nodes_q[:k]
                    del nodes_q[:k]
                    idle[q] -= k
                    took[q] = k
                    left -= k
                    if not left:
                        break
            if borrowed:
                picked.sort()  # ascending, as an allocation's nodes are
                if not keeps:
                    owner[borrowed] = p  # a node borrowed changes partition
                    owned = self._owned
                    for q, k in enumerate(took):
                        if q != p:
                            owned[q] -= k
                    owned[p] += len(borrowed)
                    self._moved = True
            return Allocation.one_core_each(np.array(picked, dtype=np.int64))
        avail = free
        others = self._lenders(idle, p)
        rank = np.empty(self.partitions, dtype=np.int64)
        rank[[p, *others]] = np.arange(self.partitions)
        candidates = np.flatnonzero(avail)
        # Own nodes first, then the other partitions in turn; node order within each.
        order = candidates[np.argsort(rank[owner[candidates]], kind="stable")]
        cores = avail[order]
        if caps is not None:  # at most room[q] from partition q: its first nodes' cores
            home = owner[order]
            for q in range(self.partitions):
                mine = home == q
                have = cores[mine]
                cores[mine] = np.minimum(have, np.maximum(room[q] - (np.cumsum(have) - have), 0))
        taken = np.minimum(cores, np.maximum(size - (np.cumsum(cores) - cores), 0))
        used = taken > 0
        nodes, counts = order[used], taken[used]
        avail[nodes] -= counts
        took[p] = 0
        for q, n in zip(owner[nodes].tolist(), counts.tolist(), strict=True):
            idle[q] -= n
            took[q] += n
        whole = nodes[(counts == cpn) & (owner[nodes] != p)]
        if len(whole) and not keeps:
            owned = self._owned
            for q in owner[whole].tolist():
                owned[q] -= 1
            owned[p] += len(whole)
            owner[whole] = p  # a whole node borrowed changes partition
            self._moved = True
        sort = np.argsort(nodes)
        return Allocation(nodes[sort].copy(), counts[sort].copy())

    def _lend(self, job_id: int, p: int, took: list[int], end: float) -> None:
        """``guard="return"``: a job of partition ``p`` holds ``took`` cores of each home
        partition until it ends (planned at ``end``). ``"reassign"`` and ``"own"``: every
        core it took is p's (``took`` all at p), so that p's extra counts them back at
        ``end``."""
        self._loans[job_id] = (p, took, end)
        self._lent[p] += took
        if any(k for q, k in enumerate(took) if q != p):
            self._moved = True

    def _spare(
        self, idle: list[int], pivots: list[JobView | None], pst: list[float], now: float
    ) -> list[int]:
        """``guard="return"``: extra_q of step 5 for every partition q, on its home
        processors: those idle now (``idle``) and those held by jobs (of any partition)
        that end by pivot_q's start time, less what pivot_q needs; all the idle ones
        of a partition without a pivot. ``"reassign"`` and ``"own"``: the same on the
        processors q holds now (those of q's running jobs, recorded at their starts, this
        pass's too: on nodes of one core a borrowed node is the borrower's; on nodes of
        several cores, an approximation)."""
        out = list(idle)
        for q, job in enumerate(pivots):
            if job is None or not math.isfinite(pst[q]):
                continue
            freed = sum(took[q] for _, took, end in self._loans.values() if end <= pst[q])
            out[q] = max(idle[q] + freed - job.size, 0)
        return out

    def _lenders(self, idle: list[int], p: int) -> list[int]:
        """The partitions p borrows from, in turn: the most idle cores first (ties: the
        lower partition)."""
        return sorted((q for q in range(self.partitions) if q != p), key=lambda q: (-idle[q], q))

    def _record_sizes(self, now: float) -> None:
        cpn = self._cpn
        if self.guard == "return":  # the home blocks, plus what each holds, less what it lent
            counts = np.array(self._owned) * cpn + self._lent.sum(axis=1) - self._lent.sum(axis=0)
            sizes = tuple(counts.tolist())
        else:
            sizes = tuple(n * cpn for n in self._owned)
        if sizes != self._last_sizes:
            self._last_sizes = sizes
            self._sizes.extend((now, p + 1, n) for p, n in enumerate(sizes))


@register("singlequeue")
class SingleQueue(MultiQueue):
    """Single-queue aggressive backfilling with the priorities, speculation and reservations of
    multiqueue (Lawson and Smirni 2002's baseline): one partition, one pivot.

    The same implementation as `MultiQueue` with ``boundaries=""``, so that
    the two differ only by the queues.
    """

    def __init__(
        self,
        speculation: bool = True,
        speculate_above: float = 1000.0,
        speculative_limit: float = 180.0,
        guard: Literal["all", "own", "return", "reassign"] = "all",
        trial: Literal["waiting", "idle", "scheduled", "reserved"] = "waiting",
    ) -> None:
        super().__init__("", speculation, speculate_above, speculative_limit, guard, trial)

    def params(self) -> dict[str, Any]:
        out = super().params()
        del out["boundaries"]
        return out
