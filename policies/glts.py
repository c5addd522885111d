"""G-LOMARC-TS: lookahead group matchmaking for time/space sharing on multi-core nodes.

Zeng and Sodan, "Job Scheduling with Lookahead Group Matchmaking for
Time/Space Sharing on Multi-core Parallel Machines" (JSSPP 2009; this
project's seed 003), sections 4.2-4.6 and 5.1, Table 6. Built on
`schedsim.policies.spacesharing` (`NodePlanner`: what the scheduler knows of
slowdowns, the plan over whole nodes, conservative backfilling, R_est and
R_max = ``f_slack`` x R_est); run it as SSP is run::

    Simulation(w, GLTS(seed=s), nodes=128, cores_per_node=4,
               contention=StatisticalContention(s), kill_at_estimate=False)

**G-LOMARC-TS** (`GLTS`): a job whose reservation is due is started by the
best of (section 4.4, Figure 3; a due job other than the first waiting
one is a backfilled one, and backfilling has Cases 1, 4 and 5 only):

* Case 1: a *group*, the job as primary and other waiting jobs as matched
  jobs on free nodes (section 4.5's group formation, below);
* Case 2 (first waiting job only): the job as primary, running jobs as
  matched: it joins their nodes, taking free nodes for what their nodes
  leave over;
* Case 3 (first waiting job only): a running job as primary (one of the
  ``running_prim_num`` least delayed: planned response / R_max smallest),
  waiting jobs matched, the first waiting job among them, on the
  primary's nodes (free nodes for the excess);
* Case 5: space sharing with PPN = cores per node (when Equation 8 says 4),
  utilization gain PPN / SL_self - 1 (Equation 6 with no matched job);
* else Case 4: space sharing with Equation 8's PPN (1 or 2).

The option with the highest utilization gain is chosen (ties: the order
above); a group needs at least ``min_utilgain``. When no reservation is
due, the first waiting job may still start by Case 2 or 3 (section 4.3:
"there may not be enough space to schedule a job under space sharing but
it may be possible to start the job by coscheduling it with running
jobs"). A running job can take a mate (Cases 2, 3) when it is in no live
group (groups are never added to; a disbanded group's jobs are single
again, section 4.4), is not short, holds at most half the cores of each of
its nodes and is alone on each; a running matched job in Case 2 must
share at least one node with the primary. Short jobs (estimate <= 600 s,
section 5.1's classes) are neither primaries nor matched ("short jobs are only scheduled
via space sharing"), and at low load, when every waiting job would fit the
free nodes with one process per node (section 4.3), jobs are space shared.

*Group shape.* In a group each job has 2 processes per node (Figure 5), or
1 when 2 of its processes slow it more than SELF_SL2 (section 4.3: 1 or 2
under semi time sharing, by the self slowdown), on ``ceil(size / ppn)``
nodes. The matched jobs are laid out one after another over the primary's
nodes (Cases 1, 3), each on nodes of its own, so a node holds the primary
and at most one matched job; their node requirement X may exceed the
primary's Y by ``matched_larger`` x Y (Table 6), the extra nodes holding a
matched job alone.

*Group formation* (section 4.5), primary A: (1) pre-selection: waiting
jobs with SL_cos(A next to j) and SL_cos(j next to A) both below
``max_sl`` (the paper's "threshold"; choice: Table 6's MAX_SL, on the
coscheduling slowdowns alone) and whose predicted run in the group is at
most ``matched_longer`` seconds longer than A's (Table 6); (2) sorting: in
FCFS order, cut into blocks of ``block_size``, each block in decreasing
estimate (remaining run time); (3) a window of A's node requirement slides
over the first block: each run of consecutive jobs whose nodes fit the
window (up to the allowed excess) is a group, the best gain wins; (4) if
that group leaves A's nodes partly unmatched, jobs of the other blocks are
added, in order, when they fit and raise the gain, each improved group
kept; (5) purify: the matched job slowing A most is removed while removing
it does not lower the gain; (6) fairness: the kept groups, best gain first,
are checked until one passes.

*Fairness check.* The group is started on a copy of the plan and every
other waiting job is re-anchored behind it; the group fails if it puts any
job (its members included, running ones too: they are slowed) past submit
+ R_max. Choice: a job already planned past its R_max before the group
(the plan slipped: overruns) fails the check only if the group delays it
further; the paper does not say. The running jobs outside the group are
not affected (their nodes are not touched).

*Utilization gain* (section 4.6, Equation 6): `run_group` follows the
group through its periods: matched job i progresses at 1 / SL_{i,A}, the
primary at 1 / SL_q (the largest SL_{A,x} over the matched jobs still
running), until the primary ends or every matched job has (the group
disbands). U_gain = (sum over periods of t_q x (sum_i S_i / SL_{i,A} + S_A
/ SL_q) - t_total x nodes) / (t_total x nodes), with nodes = the group's
nodes: S_A / PPN_A when the matched jobs fit the primary's nodes (the
paper's case), max(ceil(S_A / PPN_A), X) otherwise (choice). SL_{A,i} and
SL_{i,A} are the full node slowdowns the model predicts (self slowdown of
the job's PPN in the group times SL_cos), the rates the run will apply. A
running member (Cases 2, 3) keeps its PPN and counts the work its estimate
has left; the group's nodes are then max(its nodes, X) (choice).

*Disbanding* (section 4.4): a group is disbanded when its primary ends
while a matched job runs, or when every matched job has ended while the
primary runs. Its jobs run on where they are (no migration); the table
``groups`` (`GLTS.tables`) records each group, its gain, when it formed and
disbanded and why.

*The matchmaking log* (`GLTS.tables`' ``matchmaking``, `MATCHMAKING`): one row per
group search, a primary looking for matched jobs (Case 1, Case 2, or Case 3 per
running primary that can take the job): its pre-selected candidates (section 4.5's
step 1: the paper's "candidate jobs for matchmaking", fewer than 4 in 85% of its
cases, section 5.3), the groups kept for the checks, how many were passed over for
a gain below ``min_utilgain``, had no room, or failed the fairness check before one
passed, the gain of the one that passed and whether it was started (the best of
the due job's options). It is written as the searches run and never read by
them: the schedule is the same with or without it.

**Variants** (section 5.1), one implementation: ``glts`` (all of it),
``glts-fbo`` (only the first block: no step 4), ``glts-ns`` (no sorting per
block), ``glts-nh`` (no sorting, no blocks: the window slides over all
candidates in FCFS order and the first group that passes is taken),
``cst`` (pairs only: the best single match) and ``cstws`` (pairs only: the
first match that passes, in FCFS order).

**The pairs' readings** (CST and CSTWS only; section 5.1 defines them in one line each:
"*CST*: Only coscheduling and matchmaking two jobs, while taking the best suitable
match"; "*CSTWS*: Only coscheduling and matchmaking two jobs, while taking the first
match", and section 5.2 "the first suitable match"). Three choices the lines leave open,
each a parameter whose default is the reading used so far:

* ``pair_best`` (CST), what "best" ranks by: ``"gain"`` (default), the pair's utilization
  gain (Equation 6, the metric G-LOMARC-TS ranks its groups by, section 4.5), or
  ``"slowdown"``, the least slowdown of the pair (the larger of SL_{A,j} and SL_{j,A}): the
  most complementary match, what LOMARC's matchmaking looked for ("to find jobs with
  complementary usage of multiple resources, using simple heuristics to select the best
  combination", section 2), ties in FCFS order;
* ``pair_tries``, how many matches are checked: ``"until_pass"`` (default), the pairs in
  that order (CST: best first; CSTWS: FCFS) until one passes MIN_UTILGAIN, the room and the
  fairness checks, or ``"one"``, only the best (CST) or first (CSTWS) pre-selected
  candidate, "suitable" read as section 4.5's pre-selection (step 1), the pair then started
  if it passes the checks and no other pair tried ("taking the first match");
* ``pair_sharing``, what "Only coscheduling" leaves to CST and CSTWS: ``"choose"``
  (default), the choice G-LOMARC-TS makes between space sharing and semi time sharing by
  the utilization gain, with space sharing at low load (section 4.3), the pairs only
  replacing its groups; or ``"coschedule"``, no such choice: a pair that passes the
  checks is started instead of space sharing, at any load, and a job runs alone only
  when no pair passes. Section 5.1 calls GLTS "full group and time/space sharing": the
  words may name two things CST and CSTWS lack, groups and the choice of space sharing.

**Not implemented**: the special treatment of serial jobs Figure 3 runs
before the other forms of coscheduling (section 4.4 points to section
4.5, whose text here does not describe it: serial jobs go through Cases
1-5 like any other). ``n_high`` (N_H) defines high-load phases for a
metric (Equation 1) and is only kept as a parameter. Each pass rebuilds
the plan from scratch.

**Scojo-PECT** (section 4.7): this policy alone is one virtual machine
without slices; `schedsim.policies.scojo` runs it per job type inside
Scojo-PECT's time slices, as the paper does (``ScojoPECT(inner="glts")``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from schedsim.model.policy import register
from schedsim.model.view import JobView, State, View
from schedsim.policies.planning.profile import INF, Profile, planned_end
from schedsim.policies.spacesharing import Launch, NodePlanner, SelfAndCos
from schedsim.workloads.multicore import CPUS_PER_NODE, MAX_SL, SELF_SL2, SHORT_MAX

__all__ = [
    "CST",
    "CSTWS",
    "GLTS",
    "MATCHMAKING",
    "GLTSFirstBlockOnly",
    "GLTSNoHeuristics",
    "GLTSNoSorting",
    "GroupRun",
    "Member",
    "run_group",
    "space_gain",
]

Variant = Literal["glts", "fbo", "ns", "nh", "cst", "cstws"]
#: CST's "best suitable match" ranked by (module docstring, "The pairs' readings").
PairBest = Literal["gain", "slowdown"]
#: How many of CST's or CSTWS's matches are checked (module docstring).
PairTries = Literal["until_pass", "one"]
#: The values of ``pair_best`` and ``pair_tries`` (their defaults first).
PAIR_BEST: tuple[str, ...] = ("gain", "slowdown")
PAIR_TRIES: tuple[str, ...] = ("until_pass", "one")
#: Whether CST and CSTWS choose space sharing by gain as GLTS does (module docstring).
PairSharing = Literal["choose", "coschedule"]
PAIR_SHARING: tuple[str, ...] = ("choose", "coschedule")

#: The columns of the ``matchmaking`` table (module docstring): ``time`` (the
#: planner's clock, s), ``job`` (the job being started), ``case`` (1, 2 or 3),
#: ``primary`` (the group's primary: the job itself in Cases 1 and 2, a running job in
#: Case 3), ``candidates`` (pre-selected jobs; Case 3 counts the job itself),
#: ``groups`` (kept for the checks), ``below_gain``, ``no_room``, ``unfair`` (groups
#: passed over, in order, before one passed or none was left), ``gain`` (the passing
#: group's, NaN when none passed) and ``taken`` (1 when that group was started).
MATCHMAKING: tuple[str, ...] = ("time", "job", "case", "primary", "candidates", "groups",
                                "below_gain", "no_room", "unfair", "gain", "taken")  # fmt: skip


# -- utilization gain (section 4.6) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Member:
    """A job in a group as Equation 6 sees it.

    ``size``: S_i, its processes; ``work``: T_i, its run time alone with one
    process per node (its estimate); ``sl_group``: its slowdown in the group
    (SL_{i,A} for a matched job, SL_{A,i} of the primary next to matched job
    i for the primary's own list); ``sl_alone``: its slowdown once the group
    has disbanded (its self slowdown).
    """

    size: int
    work: float
    sl_group: float
    sl_alone: float = 1.0


@dataclass(frozen=True, slots=True)
class GroupRun:
    """A group followed through its periods (`run_group`)."""

    gain: float
    #: t_q of each period, and which matched jobs (indices) ran in it.
    periods: tuple[tuple[float, tuple[int, ...]], ...]
    #: t_total: when the group disbands (after its start).
    length: float
    #: Planned ends (after the group's start) of the primary and of each matched job.
    primary_end: float
    matched_ends: tuple[float, ...]


def space_gain(ppn: int, slowdown: float) -> float:
    """Utilization gain of a job alone with ``ppn`` processes per node at ``slowdown``:
    Equation 6 with no matched job, PPN / SL - 1."""
    return ppn / slowdown - 1.0


def run_group(
    primary_size: int,
    primary_work: float,
    primary_ppn: int,
    primary_sl: Sequence[float],
    primary_sl_alone: float,
    matched: Sequence[Member],
    nodes: float | None = None,
) -> GroupRun:
    """Equation 6's utilization gain of a group, and its members' planned ends.

    ``primary_sl[i]`` is SL_{A,i}, the primary's slowdown next to matched job
    i. The group's nodes are ``nodes`` (default S_A / PPN_A, Equation 6's).
    All members start at 0; the group disbands when the primary ends or the
    last matched job does; then each runs on alone at its ``sl_alone``.
    """
    if len(primary_sl) != len(matched):
        raise ValueError("need one SL_{A,i} per matched job")
    used_nodes = primary_size / primary_ppn if nodes is None else nodes
    left_a = primary_work
    left = [m.work for m in matched]
    live = [i for i in range(len(matched)) if left[i] > 0]
    ends: list[float] = [0.0] * len(matched)
    t, done = 0.0, 0.0
    periods: list[tuple[float, tuple[int, ...]]] = []
    while live and left_a > 0:
        sl_q = max(primary_sl[i] for i in live)
        dt_a = left_a * sl_q
        dts = {i: left[i] * matched[i].sl_group for i in live}
        dt = min(dt_a, *dts.values())
        done += dt * primary_size / sl_q
        done += sum(dt * matched[i].size / matched[i].sl_group for i in live)
        periods.append((dt, tuple(live)))
        t += dt
        left_a = 0.0 if dt_a == dt else left_a - dt / sl_q
        for i in live:
            left[i] = 0.0 if dts[i] == dt else left[i] - dt / matched[i].sl_group
            if left[i] == 0.0:
                ends[i] = t
        live = [i for i in live if left[i] > 0]
    for i in live:  # the primary ended first: the matched jobs run on alone
        ends[i] = t + left[i] * matched[i].sl_alone
    primary_end = t + left_a * primary_sl_alone
    used = t * used_nodes
    gain = (done - used) / used if used > 0 else -1.0
    return GroupRun(gain, tuple(periods), t, primary_end, tuple(ends))


# -- G-LOMARC-TS ----------------------------------------------------------------------


@dataclass(slots=True)
class _Candidate:
    job: JobView
    ppn: int
    nodes: int
    member: Member
    sl_primary: float  # SL_{A,i}
    #: A running job's nodes (Case 2), None for a waiting job.
    hosts: list[int] | None = None
    old_end: float = -INF


@dataclass(slots=True)
class _Primary:
    job: JobView
    ppn: int
    nodes: int
    work: float
    sl_alone: float
    #: A running primary's nodes (Case 3), None for a waiting one.
    hosts: list[int] | None = None
    old_end: float = -INF


@dataclass(slots=True)
class _GroupLaunch(Launch):
    """The primary's launch of a group, with the group's utilization gain."""

    gain: float = 0.0

    @classmethod
    def of(cls, la: Launch, gain: float) -> _GroupLaunch:
        return cls(la.job, la.nodes, la.ppn, la.end, la.case, la.start, la.old_end, gain)


def _work_left(job: JobView, now: float) -> float:
    """Work a running job has left by its estimate, at ``now``."""
    done = job.work_done
    if job.state is State.RUNNING and job.progressing:
        done += (now - job.since) * job.rate
    return max(job.estimate - done, 0.0)


@dataclass(slots=True)
class _Group:
    matched: list[_Candidate]
    run: GroupRun


@register("glts")
class GLTS(NodePlanner):
    """G-LOMARC-TS (Zeng & Sodan 2009): group matchmaking on multi-core nodes, fair by R_max.

    Cases 1-5 chosen by utilization gain, groups formed as section 4.5
    says, conservative backfilling (module docstring).

    Table 6's parameters, the paper's values by default: ``max_sl``,
    ``self_sl2``, ``min_utilgain`` (0.45), ``block_size`` (16),
    ``matched_larger`` (0.125), ``running_prim_num`` (8, Case 3's running
    primaries), ``matched_longer`` (3000 s), ``f_slack`` (1.5),
    ``n_high`` (12; a metric's threshold, unused by the decisions); and
    ``adjust`` (0.75, section 5.1), ``short_max`` (600 s), ``seed`` (the
    slowdowns predicted), ``variant`` (glts, fbo, ns, nh, cst, cstws); ``pair_best``,
    ``pair_tries`` and ``pair_sharing``, the readings of CST's and CSTWS's one-line
    definitions (module docstring; refused by the other variants).
    """

    default_variant: Variant = "glts"
    #: Parameters added after run ids were published, with the value that behaves as
    #: before: a run with that value keeps its id (`schedsim.app.study.RunConfig.identity`).
    LATER_PARAMS: ClassVar[dict[str, object]] = {
        **NodePlanner.LATER_PARAMS,
        "pair_best": "gain", "pair_tries": "until_pass", "pair_sharing": "choose",
    }  # fmt: skip

    def __init__(
        self,
        seed: int = 0,
        max_sl: float = MAX_SL,
        self_sl2: float = SELF_SL2,
        f_slack: float = 1.5,
        adjust: float = 0.75,
        min_utilgain: float = 0.45,
        block_size: int = 16,
        matched_larger: float = 0.125,
        running_prim_num: int = 8,
        matched_longer: float = 3000.0,
        n_high: int = 12,
        short_max: float = SHORT_MAX,
        variant: Variant | None = None,
        pair_best: PairBest = "gain",
        pair_tries: PairTries = "until_pass",
        pair_sharing: PairSharing = "choose",
        self_and_cos: SelfAndCos = "product",
    ) -> None:
        super().__init__(seed, max_sl, self_sl2, f_slack, adjust, self_and_cos)
        if pair_best not in PAIR_BEST:
            raise ValueError(f"pair_best must be one of {', '.join(PAIR_BEST)}, got {pair_best!r}")
        if pair_tries not in PAIR_TRIES:
            raise ValueError(
                f"pair_tries must be one of {', '.join(PAIR_TRIES)}, got {pair_tries!r}"
            )
        if pair_sharing not in PAIR_SHARING:
            raise ValueError(
                f"pair_sharing must be one of {', '.join(PAIR_SHARING)}, got {pair_sharing!r}"
            )
        variant = self.default_variant if variant is None else variant
        if variant not in ("glts", "fbo", "ns", "nh", "cst", "cstws"):
            raise ValueError(f"unknown variant {variant!r}")
        if block_size < 1 or matched_larger < 0 or matched_longer < 0:
            raise ValueError("block_size >= 1, matched_larger >= 0, matched_longer >= 0")
        if variant not in ("cst", "cstws") and (pair_best, pair_tries, pair_sharing) != (
            "gain", "until_pass", "choose"
        ):  # fmt: skip
            raise ValueError(
                f"pair_best, pair_tries and pair_sharing are CST's and CSTWS's, not {variant}'s"
            )
        if variant == "cstws" and pair_best != "gain":
            raise ValueError("pair_best is CST's: CSTWS takes its pairs in FCFS order")
        self.min_utilgain = float(min_utilgain)
        self.block_size = int(block_size)
        self.matched_larger = float(matched_larger)
        self.running_prim_num = int(running_prim_num)
        self.matched_longer = float(matched_longer)
        self.n_high = int(n_high)
        self.short_max = float(short_max)
        self.variant: Variant = variant
        self.pair_best: PairBest = pair_best
        self.pair_tries: PairTries = pair_tries
        self.pair_sharing: PairSharing = pair_sharing
        #: Group records: [group, primary, matched, formed, gain, disbanded, reason].
        self._groups: list[list[Any]] = []
        #: job id -> index of its live group in `_groups`.
        self._group_of: dict[int, int] = {}
        self._live_matched: dict[int, set[int]] = {}
        #: The matchmaking log (`MATCHMAKING`), and the row of each search's passing
        #: group by the identity of its launches (to mark the one started).
        self._searches: list[list[Any]] = []
        self._search_of: dict[int, tuple[int, list[Launch]]] = {}

    def params(self) -> dict[str, Any]:
        return {
            **super().params(),
            "min_utilgain": self.min_utilgain,
            "block_size": self.block_size,
            "matched_larger": self.matched_larger,
            "running_prim_num": self.running_prim_num,
            "matched_longer": self.matched_longer,
            "n_high": self.n_high,
            "short_max": self.short_max,
            "variant": self.variant,
            **{k: getattr(self, k) for k, v in self.LATER_PARAMS.items() if getattr(self, k) != v},
        }

    def job_columns(self) -> dict[str, dict[int, Any]]:
        out = super().job_columns()
        out["group"] = {jid: g[0] for g in self._groups for jid in (g[1], *map(int, g[2].split()))}
        return out

    def tables(self) -> dict[str, tuple[Sequence[str], Sequence[tuple]]]:
        columns = ("group", "primary", "matched", "formed", "gain", "disbanded", "reason")
        return {"groups": (columns, [tuple(g) for g in self._groups]),
                "matchmaking": (MATCHMAKING, self.searches)}  # fmt: skip

    @property
    def searches(self) -> list[tuple]:
        """The matchmaking log so far (`tables`' ``matchmaking`` rows, `MATCHMAKING`)."""
        return [tuple(r) for r in self._searches]

    @property
    def groups(self) -> list[tuple]:
        """The group records so far (`tables`' rows)."""
        return [tuple(g) for g in self._groups]

    # -- disbanding (section 4.4) --------------------------------------------------------
    def _ended(self, view: View) -> None:
        super()._ended(view)
        now = view.now
        for job in view.ended:
            g = self._group_of.pop(job.id, None)
            if g is None:
                continue
            record = self._groups[g]
            if record[5] is not None:
                continue  # disbanded already: the job ran on alone
            live = self._live_matched[g]
            if job.id == record[1]:
                record[5], record[6] = now, "primary ended"
            else:
                live.discard(job.id)
                if not live:
                    record[5], record[6] = now, "all matched ended"
            if record[5] is not None:
                for jid in (record[1], *live):
                    self._group_of.pop(jid, None)

    # -- one due job ---------------------------------------------------------------------
    def _group_ppn(self, job: JobView) -> int:
        half = max(self._cores_per_node // CPUS_PER_NODE, 1)
        if job.size == 1 or half < 2:
            return 1
        _, sno = self.model.self_slowdowns(job.job)
        return 2 if sno <= self.self_sl2 else 1

    def _eligible(self, job: JobView) -> bool:
        return job.estimate > self.short_max

    def _low_load(self, view: View, free: list[int]) -> bool:
        """Section 4.3: every waiting job fits the free nodes with one process per node."""
        waiting = set(self._order)
        return sum(j.size for j in view.queue if j.id in waiting) <= len(free)

    def _head(self, view: View) -> JobView | None:
        """The first waiting job (FCFS), not started in this pass."""
        waiting = set(self._order)
        return next((j for j in view.queue if j.id in waiting), None)

    def _launch(self, view: View, job: JobView, base: Profile, free: list[int]) -> list[Launch]:
        now = view.now
        space = self._space(job, free, now)
        space.old_end = space.end
        options: list[tuple[float, list[Launch]]] = []
        only = self.pair_sharing == "coschedule"  # no space sharing where a pair passes
        if space.case == "case5" and not only:
            options.append((space_gain(space.ppn, self._self_sl(job, space.ppn)), [space]))
        if (
            self._cores_per_node >= 2
            and self._eligible(job)
            and (only or not self._low_load(view, free))
        ):
            options.extend(self._cases(view, job, base, free, running=job is self._head(view)))
        launches = max(options, key=lambda o: o[0])[1] if options else [space]
        self._taken(launches)
        self._commit(now, launches, base)
        return launches

    def _taken(self, launches: list[Launch]) -> None:
        """Mark in the matchmaking log the search whose group ``launches`` starts (if
        any), and forget this decision's searches."""
        row, found = self._search_of.get(id(launches), (-1, None))
        if found is launches:
            self._searches[row][-1] = 1
        self._search_of.clear()

    def _early(self, view: View, base: Profile, free: list[int]) -> list[Launch]:
        """Section 4.3's special case: the first waiting job, not due (no room to space
        share it), started by coscheduling it with running jobs (Cases 2 and 3)."""
        job = self._head(view)
        if job is None or self._cores_per_node < 2 or not self._eligible(job):
            return []
        if self.pair_sharing == "choose" and self._low_load(view, free):
            return []
        options = self._cases(view, job, base, free, running=True, waiting=False)
        if not options:
            self._search_of.clear()
            return []
        launches = max(options, key=lambda o: o[0])[1]
        self._taken(launches)
        self._commit(view.now, launches, base)
        return launches

    def _cases(
        self,
        view: View,
        job: JobView,
        base: Profile,
        free: list[int],
        running: bool,
        waiting: bool = True,
    ) -> list[tuple[float, list[Launch]]]:
        """The groups found for ``job``: Case 1 (``waiting``), Cases 2 and 3 (``running``)."""
        found = []
        if waiting:
            found.append(self._case1(view, job, base, free))
        if running:
            found.append(self._case2(view, job, base, free))
            found.append(self._case3(view, job, base, free))
        return [f for f in found if f is not None]

    def _commit(self, now: float, launches: list[Launch], base: Profile) -> None:
        self._occupy(base, now, self._node_ends(launches), self._node_end)
        if len(launches) == 1:
            return
        g = len(self._groups)
        primary, matched = launches[0].job.id, [la.job.id for la in launches[1:]]
        gain = launches[0].gain if isinstance(launches[0], _GroupLaunch) else None
        self._groups.append([g, primary, " ".join(map(str, matched)), now, gain, None, None])
        self._live_matched[g] = set(matched)
        for la in launches:
            self._group_of[la.job.id] = g
            if not la.start:
                self._hosted.add(la.job.id)

    @staticmethod
    def _node_ends(launches: list[Launch]) -> dict[int, float]:
        ends: dict[int, float] = {}
        for la in launches:
            for n in la.nodes:
                ends[n] = max(ends.get(n, -INF), la.end)
        return ends

    # -- running jobs that may take a mate (Cases 2 and 3) ---------------------------------
    def _begin_pass(self, view: View) -> None:
        #: Running jobs given a mate in this pass.
        self._hosted: set[int] = set()
        count: dict[int, int] = {}
        for r in (*view.running, *view.suspended):
            if r.allocation is not None:
                for n in r.allocation.nodes.tolist():
                    count[n] = count.get(n, 0) + 1
        self._alone_on = count

    def _hosts(self, view: View) -> list[JobView]:
        """Running jobs alone on each of their nodes, holding at most half of each, in no
        live group, not short: those a waiting job may join."""
        half = self._cores_per_node // 2
        out = []
        for r in view.running:
            alloc = r.allocation
            if alloc is None or r.id in self._group_of or r.id in self._hosted:
                continue
            if not self._eligible(r) or int(alloc.cores.max()) > half or r.id not in self.r_est:
                continue
            if all(self._alone_on.get(n, 0) == 1 for n in alloc.nodes.tolist()):
                out.append(r)
        return out

    def _as_primary(self, job: JobView, now: float) -> _Primary:
        """A job as a group's primary: waiting (its group PPN) or running (where it is)."""
        if job.state is State.RUNNING and job.allocation is not None:
            ppn = int(job.allocation.cores.max())
            nodes = job.allocation.nodes.tolist()
            return _Primary(job, ppn, len(nodes), _work_left(job, now), self._self_sl(job, ppn),
                            nodes, planned_end(job.expected_end, now))  # fmt: skip
        ppn = self._group_ppn(job)
        return _Primary(job, ppn, math.ceil(job.size / ppn), job.estimate,
                        self._self_sl(job, ppn))  # fmt: skip

    def _delay(self, r: JobView, now: float) -> float:
        """How delayed a running job is: its planned response over its R_max."""
        return (planned_end(r.expected_end, now) - r.submit) / max(self.r_max(r.id), 1e-9)

    # -- group formation (section 4.5) ----------------------------------------------------
    def _member(self, p: _Primary, j: JobView, ppn: int, work: float, nodes: int,
                hosts: list[int] | None, old_end: float) -> _Candidate | None:  # fmt: skip
        """Pre-selection of ``j`` (``ppn`` per node, ``work`` left) as p's matched job."""
        model, a = self.model, p.job
        if model.cos(a.id, j.id) >= self.max_sl or model.cos(j.id, a.id) >= self.max_sl:
            return None
        sl_j = model.node_slowdown(j.job, ppn, [a.id])
        sl_a = model.node_slowdown(a.job, p.ppn, [j.id])
        if work * sl_j > p.work * sl_a + self.matched_longer:
            return None
        member = Member(j.size, work, sl_j, self._self_sl(j, ppn))
        return _Candidate(j, ppn, nodes, member, sl_a, hosts, old_end)

    def _waiting_candidates(self, view: View, p: _Primary, limit: int) -> list[_Candidate]:
        """Waiting jobs pre-selected for primary ``p``, in FCFS order."""
        out = []
        waiting = set(self._order)  # not those started earlier in this pass
        for j in view.queue:
            if j.id == p.job.id or j.id not in waiting or not self._eligible(j):
                continue
            ppn = self._group_ppn(j)
            nodes = math.ceil(j.size / ppn)
            if nodes > limit:
                continue
            old_end = self._starts[j.id] + self._shape[j.id][1]
            c = self._member(p, j, ppn, j.estimate, nodes, None, old_end)
            if c is not None:
                out.append(c)
        return out

    def _running_candidates(self, view: View, p: _Primary, limit: int) -> list[_Candidate]:
        """Running jobs pre-selected for waiting primary ``p``, least delayed first."""
        now = view.now
        out = []
        for r in sorted(self._hosts(view), key=lambda r: (self._delay(r, now), r.id)):
            assert r.allocation is not None
            nodes = r.allocation.nodes.tolist()
            if len(nodes) > limit:
                continue
            ppn = int(r.allocation.cores.max())
            c = self._member(p, r, ppn, _work_left(r, now), len(nodes), nodes,
                             planned_end(r.expected_end, now))  # fmt: skip
            if c is not None:
                out.append(c)
        return out

    def _evaluate(self, p: _Primary, matched: list[_Candidate]) -> _Group:
        x = sum(c.nodes for c in matched)
        nodes = p.job.size / p.ppn if x <= p.nodes and p.hosts is None else max(p.nodes, x)
        run = run_group(p.job.size, p.work, p.ppn, [c.sl_primary for c in matched],
                        p.sl_alone, [c.member for c in matched], float(nodes))  # fmt: skip
        return _Group(list(matched), run)

    @staticmethod
    def _windows(block: list[_Candidate], limit: int) -> list[list[_Candidate]]:
        out = []
        for s in range(len(block)):
            group: list[_Candidate] = []
            x = 0
            for c in block[s:]:
                if x + c.nodes > limit:
                    break
                group.append(c)
                x += c.nodes
            if group:
                out.append(group)
        return out

    def _purify(self, p: _Primary, group: _Group, keep: _Candidate | None) -> _Group:
        while len(group.matched) > 1:
            worst = max((c for c in group.matched if c is not keep), key=lambda c: c.sl_primary)
            rest = self._evaluate(p, [c for c in group.matched if c is not worst])
            if rest.run.gain < group.run.gain:
                break
            group = rest
        return group

    def _kept_groups(
        self, p: _Primary, limit: int, cands: list[_Candidate], forced: _Candidate | None = None
    ) -> list[_Group]:
        """The groups to check for fairness, in order: the first that passes (with at
        least ``min_utilgain``) is taken. ``forced`` (Case 3: the first waiting job) is
        in every group; the others fill the rest of the window."""
        head = [forced] if forced is not None else []
        if forced is not None:
            limit -= forced.nodes

        def ev(w: list[_Candidate]) -> _Group:
            return self._evaluate(p, [*head, *w])

        alone = [ev([])] if forced is not None else []
        if self.variant in ("cst", "cstws"):
            if forced is not None:
                return alone
            pairs = [ev([c]) for c in cands]
            if self.variant == "cst" and self.pair_best == "slowdown":
                pairs.sort(key=lambda g: max(g.matched[0].sl_primary, g.matched[0].member.sl_group))
            elif self.variant == "cst":
                pairs.sort(key=lambda g: -g.run.gain)
            return pairs[:1] if self.pair_tries == "one" else pairs
        if self.variant == "nh":
            return alone + [self._purify(p, ev(w), forced) for w in self._windows(cands, limit)]
        size = self.block_size
        blocks = [cands[i : i + size] for i in range(0, len(cands), size)]
        if self.variant != "ns":
            blocks = [sorted(b, key=lambda c: -c.member.work) for b in blocks]
        windows = [ev(w) for w in self._windows(blocks[0], limit)] if blocks else []
        best = max(alone + windows, key=lambda g: g.run.gain, default=None)
        if best is None:
            return []
        kept = [best]
        if self.variant != "fbo":
            x = sum(c.nodes for c in best.matched)
            group = best
            for c in (c for b in blocks[1:] for c in b):
                if x >= p.nodes:
                    break
                if x + c.nodes > limit + (forced.nodes if forced is not None else 0):
                    continue
                bigger = self._evaluate(p, [*group.matched, c])
                if bigger.run.gain > group.run.gain:
                    group, x = bigger, x + c.nodes
                    kept.append(group)
        kept = [self._purify(p, g, forced) for g in kept]
        kept.sort(key=lambda g: -g.run.gain)
        return kept

    def _first_fair(
        self,
        view: View,
        base: Profile,
        groups: list[_Group],
        lay_out: Callable[[_Group], list[Launch] | None],
        search: tuple[int, int, int, int],
    ) -> tuple[float, list[Launch]] | None:
        """The first of ``groups`` with enough gain, room and fairness, started as
        launches; the search (``search``: job, case, primary, candidates) is logged."""
        below = no_room = unfair = 0
        found: tuple[float, list[Launch]] | None = None
        for group in groups:
            if group.run.gain < self.min_utilgain:
                below += 1
                continue
            launches = lay_out(group)
            if launches is None:
                no_room += 1
            elif not self.fair(view, launches, base):
                unfair += 1
            else:
                launches[0] = _GroupLaunch.of(launches[0], group.run.gain)
                found = group.run.gain, launches
                break
        self._searches.append([view.now, *search, len(groups), below, no_room, unfair,
                               math.nan if found is None else found[0], 0])  # fmt: skip
        if found is not None:
            # Keyed by identity; the list is held until the decision, so its id stays its own.
            self._search_of[id(found[1])] = (len(self._searches) - 1, found[1])
        return found

    def _limit(self, nodes: int) -> int:
        """The most nodes the matched jobs may need (Table 6's MATCHED_LARGER)."""
        return nodes + int(self.matched_larger * nodes)

    def _case1(
        self, view: View, a: JobView, base: Profile, free: list[int]
    ) -> tuple[float, list[Launch]] | None:
        """Case 1: ``a`` primary, waiting jobs matched, on free nodes."""
        p = self._as_primary(a, view.now)
        if p.nodes > len(free):
            return None
        limit = min(self._limit(p.nodes), len(free))
        cands = self._waiting_candidates(view, p, limit)
        groups = self._kept_groups(p, limit, cands)
        now = view.now

        def lay_out(group: _Group) -> list[Launch]:
            run = group.run
            first = Launch(a, free[: p.nodes], p.ppn, now + run.primary_end, "case1-primary")
            first.old_end = self._starts[a.id] + self._shape[a.id][1]
            out = [first]
            k = 0
            for c, end in zip(group.matched, run.matched_ends, strict=True):
                out.append(Launch(c.job, free[k : k + c.nodes], c.ppn, now + end,
                                   "case1-matched", old_end=c.old_end))  # fmt: skip
                k += c.nodes
            return out

        return self._first_fair(view, base, groups, lay_out, (a.id, 1, a.id, len(cands)))

    def _case2(
        self, view: View, a: JobView, base: Profile, free: list[int]
    ) -> tuple[float, list[Launch]] | None:
        """Case 2: waiting ``a`` primary, running jobs matched: ``a`` joins their nodes
        (and takes free nodes for what they leave over)."""
        p = self._as_primary(a, view.now)
        limit = self._limit(p.nodes)
        cands = self._running_candidates(view, p, limit)
        groups = self._kept_groups(p, limit, cands)
        now = view.now

        def lay_out(group: _Group) -> list[Launch] | None:
            run = group.run
            shared = [n for c in group.matched for n in (c.hosts or [])][: p.nodes]
            extra = p.nodes - len(shared)
            if extra > len(free) or not set(shared) & set(group.matched[-1].hosts or []):
                return None  # no room, or a matched job beyond the primary's nodes
            first = Launch(a, shared + free[:extra], p.ppn, now + run.primary_end,
                            "case2-primary")  # fmt: skip
            first.old_end = self._starts[a.id] + self._shape[a.id][1]
            out = [first]
            for c, end in zip(group.matched, run.matched_ends, strict=True):
                out.append(Launch(c.job, list(c.hosts or []), c.ppn, now + end, "running",
                                   start=False, old_end=c.old_end))  # fmt: skip
            return out

        return self._first_fair(view, base, groups, lay_out, (a.id, 2, a.id, len(cands)))

    def _case3(
        self, view: View, a: JobView, base: Profile, free: list[int]
    ) -> tuple[float, list[Launch]] | None:
        """Case 3: a running primary (of the ``running_prim_num`` least delayed), waiting
        jobs matched, ``a`` among them, on the primary's nodes (free nodes for the excess)."""
        now = view.now
        hosts = sorted(self._hosts(view), key=lambda r: (self._delay(r, now), r.id))
        best: tuple[float, list[Launch]] | None = None
        for r in hosts[: self.running_prim_num]:
            p = self._as_primary(r, now)
            limit = min(self._limit(p.nodes), p.nodes + len(free))
            cands = self._waiting_candidates(view, p, limit)
            forced = next((c for c in cands if c.job.id == a.id), None)
            if forced is None:
                continue
            others = [c for c in cands if c is not forced]
            groups = self._kept_groups(p, limit, others, forced)
            host_nodes = list(p.hosts or [])

            def lay_out(
                group: _Group, p: _Primary = p, host_nodes: list[int] = host_nodes
            ) -> list[Launch]:
                run = group.run
                out = [Launch(p.job, host_nodes, p.ppn, now + run.primary_end, "running",
                               start=False, old_end=p.old_end)]  # fmt: skip
                nodes = host_nodes + free
                k = 0
                for c, end in zip(group.matched, run.matched_ends, strict=True):
                    out.append(Launch(c.job, nodes[k : k + c.nodes], c.ppn, now + end,
                                       "case3-matched", old_end=c.old_end))  # fmt: skip
                    k += c.nodes
                return out

            found = self._first_fair(view, base, groups, lay_out,
                                     (a.id, 3, r.id, len(cands)))  # fmt: skip
            if found is not None and (best is None or found[0] > best[0]):
                best = found
        return best

    def fair(self, view: View, launches: list[Launch], base: Profile) -> bool:
        """Whether starting ``launches`` now keeps every job within R_max, or no later
        than planned for a job already past it (module docstring)."""
        now = view.now
        before = dict(self._starts)
        trial = base.copy()
        self._occupy(trial, now, self._node_ends(launches), dict(self._node_end))
        members = frozenset(la.job.id for la in launches)
        try:
            self._plan(trial, now, skip=members)
            for la in launches:
                if la.end > max(la.job.submit + self.r_max(la.job.id), la.old_end):
                    return False
            for jid in self._order:
                if jid in members:
                    continue
                span = self._shape[jid][1]
                end = self._starts[jid] + span
                bound = max(self._jobs[jid].submit + self.r_max(jid), before[jid] + span)
                if end > bound:
                    return False
            return True
        finally:
            self._starts = before


@register("cst")
class CST(GLTS):
    """CST (Zeng & Sodan 2009): coscheduling pairs only, the best match."""

    default_variant: Variant = "cst"


@register("cstws")
class CSTWS(GLTS):
    """CSTWS (Zeng & Sodan 2009): coscheduling pairs only, the first match."""

    default_variant: Variant = "cstws"


@register("glts-fbo")
class GLTSFirstBlockOnly(GLTS):
    """G-LOMARC-TS FBO (Zeng & Sodan 2009): matchmaking in the first block only."""

    default_variant: Variant = "fbo"


@register("glts-ns")
class GLTSNoSorting(GLTS):
    """G-LOMARC-TS NS (Zeng & Sodan 2009): no sorting per block."""

    default_variant: Variant = "ns"


@register("glts-nh")
class GLTSNoHeuristics(GLTS):
    """G-LOMARC-TS NH (Zeng & Sodan 2009): no sorting, no blocks, the first suitable group."""

    default_variant: Variant = "nh"
