"""Sphinx extension: the policy catalogue, one page per registered policy.

At every build (``builder-inited``) it writes ``docs/policies/`` afresh (the
folder is generated, not committed): ``index.md``, the catalogue with the
papers, and one ``NAME.md`` per policy that `schedsim.app.registry.names`
lists. What can be read off the code is read off it at build time, so it
cannot go stale: the parameters with their types and defaults
(`schedsim.app.registry.parameters`), the class's docstring and the module
that documents the choices. What the code cannot say, the paper a policy
comes from and its rule in a few sentences, is written below in `POLICIES`,
citing the papers of `schedsim.app.bibliography.PAPERS`.

A shipped policy without an entry in `POLICIES` is a build warning, so
``sphinx-build -W`` fails until the catalogue is brought up to date (its page
is still written, with what the code says). Policies registered by other installed
packages (plug-ins) are left out: the catalogue is schedsim's own.
"""

from __future__ import annotations

import math
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from sphinx.application import Sphinx
from sphinx.util import logging

from schedsim.app.bibliography import PAPERS

logger = logging.getLogger(__name__)

# -- what the code cannot say ---------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """A policy's catalogue entry: where it comes from, its rule, the choices made."""

    title: str  # the policy's name in words
    family: str  # the catalogue's groups, in this order
    source: list[tuple[str, str]]  # (paper key, where in it); the first is the main one
    rule: str  # MyST Markdown, a few sentences
    choices: list[str] = field(default_factory=list)  # MyST Markdown, one per bullet
    see_also: str = ""  # where the choices are documented in full (a module), if not the class's


FAMILIES = [
    "No backfilling",
    "Backfilling",
    "Selective preemption",
    "Gang scheduling",
    "Coscheduling on multi-core nodes",
]

SS_RULE = """\
Every job has a *suspension threshold*, its expansion factor
(wait + estimate) / estimate: it grows while the job waits or is suspended and
stays constant while it runs. At every multiple of `interval` seconds while a
job is idle (the thesis runs its preemption routine every minute), the idle jobs,
in decreasing threshold, may suspend running jobs whose threshold is `sf` times
lower, within a width restriction, choosing a minimal set of victims with the
lowest thresholds. A suspended job keeps its nodes and resumes only there. Between
ticks any idle job that fits the free processors starts, without reservations:
the growing threshold already keeps jobs from starving."""

SS_CHOICES = [
    "**Width rule.** Section 3.2's text (a suspender needs at least half the processors "
    "of its victim, n_i >= n_j / 2) is the default, `width=text`; section 3.3's formula "
    "n_i / n_j < 2, which differs, is `width=formula`; `width=none` drops the restriction "
    "({py:func}`~schedsim.policies.selective_suspension.rule.width_rule`).",
    "**Victims.** A minimal set (none could be spared), lowest thresholds first "
    "(`prefer=width`: the widest first); a suspended job re-entering suspends only jobs "
    "on its own nodes ({py:func}`~schedsim.policies.selective_suspension.rule.choose_victims`).",
    "**Thresholds of running jobs.** The xfactor a job had when it started or resumed, "
    "so that a restart overhead does not move it "
    "({py:func}`~schedsim.policies.selective_suspension.rule.running_thresholds`); "
    "`resumed=start` gives "
    "a resumed job back the threshold of its first start.",
    "**No reservations** (section 3.2); `hold=top` keeps the free nodes of a suspended "
    "job that heads the idle jobs for it, `hold=all` those of every suspended job from the "
    "jobs ranked below it. Readings other than the text's run the plain "
    "rule (`ss-plain`); the module {py:mod}`schedsim.policies.selective_suspension.rule` "
    "says why SS "
    "can lock the machine at high load and what each reading does to it.",
    "**Placement**, which the thesis leaves open. A fresh job goes first fit on free "
    "nodes that are no suspended job's home while there are enough of them, so that it "
    "does not block a re-entry; a job that preempts goes on its victims' cores first "
    "({py:meth}`~schedsim.policies.preemption.Idle.start_if_free`, "
    "{py:func}`~schedsim.policies.preemption.switch_in`).",
    "**Suspension overhead** (section 4.1, `--overhead`). A victim holds its cores while "
    "its memory is written out; the job that suspended it waits for them on a claim "
    "({py:class}`~schedsim.policies.preemption.Claims`).",
    "**Default `sf`.** 2, one of the thesis's values (its study runs SF 1.5, 2 and 5).",
]

PFCFS_CHOICES = [
    "**Strict FCFS.** While a wide job is in its preemption cycle (Table 1, steps D-H) no "
    "other job starts: the queue is taken one job at a time, so all jobs start in FIFO "
    'order (`queue_in_cycle="waits"`, the default). `queue_in_cycle="moves"` lets the '
    "queue go on, first fit in submit order, while the cycle runs, and the suspended jobs "
    "resume on their own nodes as soon as these are free, which no one keeps for them: "
    "the reading under which PFCFS2 beats FCFS, as the paper's tables say.",
    "**Which jobs to preempt.** Only as many as the wide job needs, the widest running "
    "jobs first (ties: the latest started), as in the paper's experiments (section 6); "
    "when it preempts again to get its own nodes back, exactly the jobs on them.",
    "**The wait** is counted from the moment the wide job is first in the queue and step C "
    'holds (Table 1\'s step D; `wait_from="head"`, the default). Table 3 says a wide job '
    'preempts "after it has been waiting for at least 10 min": `wait_from="submit"` counts '
    "that wait from its submission, so a job that has already waited that long preempts as "
    "soon as it heads the queue and step C holds.",
    "**The penalty** `p` (section 2; 0 in the paper's experiments) is paid by every job "
    "switched out, the wide job included, as time holding its nodes without progress; "
    "resuming costs nothing more. A suspension overhead of the run adds to it.",
]


def _pfcfs_table3(wait: str, quantum: str, rounds: str) -> str:
    return (
        f"A setting of {{py:class}}`~schedsim.policies.gang.PreemptiveFCFS` from Table 3: "
        f"jobs start in submit order, first fit, without backfilling, and only a *wide* job "
        f"(more than half the machine) preempts. Once fewer processors than it needs are in "
        f"use, a wide job waits {wait} for enough of them to be free; then it suspends enough "
        f"running jobs and runs. {quantum} {rounds}"
    )


_GLTS_SEE = "schedsim.policies.glts"  # ssp: "schedsim.policies.spacesharing"
_GLTS_RULE = """\
Conservative backfilling over whole nodes of several cores, with every job's
reservation in its space-sharing shape. A job whose reservation is due starts by
the option of highest *utilization gain* (Equation 6: node-seconds of work done
per node-second used, minus 1): a *group* of jobs sharing nodes, the job as
primary and other waiting jobs matched (Case 1), or, for the first waiting job,
running jobs matched (Case 2) or a running primary (Case 3); or alone with 4
processes per node (Case 5); else alone with Equation 8's 1 or 2 (Case 4). Groups
are formed by pre-selection, blocks, a sliding window, other blocks and purify
(section 4.5), need a gain of `min_utilgain` and must keep every job within
R_max = `f_slack` x its estimated response time at submission."""
_GLTS_CHOICES = [
    "The scheduler predicts slowdowns with the run's own model (`seed`): a job's work is its "
    "estimate; `self_and_cos` says how a job's self and coscheduling slowdowns combine "
    "(`product`, the default, or `max`: set it as the run's `contention_params` too).",
    "Nodes, not cores, are planned: every job owns whole nodes, alone or with its group.",
    "R_est: the job's planned response when it arrives, times `adjust` (0.75, section 5.1).",
    "A job already planned past its R_max fails the fairness check only if a group delays it "
    "further.",
    "Serial-job bursts (Figure 3) and Scojo-PECT's slices are not modelled.",
]

#: CST's and CSTWS's readings of their one-line definitions (section 5.1).
_PAIR_CHOICES = [
    *_GLTS_CHOICES,
    '`pair_best` (CST): "best" by the pair\'s utilization gain (`gain`, the default) or its '
    "least slowdown (`slowdown`).",
    "`pair_tries`: every pair in that order until one passes (`until_pass`, the default) or "
    "only the best or first one (`one`).",
    "`pair_sharing`: space sharing chosen by the gain as `glts` does (`choose`, the default) "
    'or a passing pair always taken, at any load (`coschedule`: "only coscheduling").',
]

POLICIES: dict[str, Entry] = {
    "fcfs": Entry(
        title="First come, first served",
        family="No backfilling",
        source=[("schwiegelshohn1998", "section 6, the reference schedule of its experiments")],
        rule="""\
Jobs start strictly in submit order. While the first queued job fits the free
cores it starts; the first one that does not fit blocks every job behind it,
even smaller ones that would fit. No backfilling, no reservations.""",
        choices=[
            "Ties in submit time are broken by job id.",
            "Placement is first fit ({py:meth}`~schedsim.model.cluster.Cluster.first_fit`).",
        ],
    ),
    "easy": Entry(
        title="EASY backfilling",
        family="Backfilling",
        source=[("kettimuthu2003", "section 2.1.2"), ("lifka1995", "EASY itself")],
        rule="""\
The queue is scanned in priority order and jobs start while they fit. The first
job that does not fit gets a reservation at the *shadow time*, the earliest time
enough cores are expected to be free for it by the running jobs' estimates. A
later job may start now (backfill) if it fits the free cores and either ends, by
its estimate, by the shadow time, or uses no more than the *extra* cores, those
left over at the shadow time once the reserved job has its share. Only that
first job has a guarantee.""",
        choices=[
            "**Queue priority** `order`: `fcfs` (submit order, the thesis's NS baseline), "
            "`sjf` (shortest estimate first) or `xfactor` (largest expansion factor first); "
            "ties by submit time, then job id "
            "({py:func}`~schedsim.policies.backfilling.order_queue`). With `sjf` and "
            "`xfactor` another job may overtake the reserved one at a later pass and take "
            "the reservation.",
            "Jobs started earlier in the same pass count as running, planned with their "
            "estimates, when the shadow time is computed "
            "({py:func}`~schedsim.policies.planning.easy.shadow`).",
            "The reservation is what the policy promises "
            "({py:meth}`~schedsim.model.policy.Policy.promises`), which the schedule view "
            "draws and the invariant tests check.",
        ],
    ),
    "conservative": Entry(
        title="Conservative backfilling",
        family="Backfilling",
        source=[("kettimuthu2003", "section 2.1.1"), ("mualem2001", "conservative backfilling")],
        rule="""\
Every job gets a reservation when it arrives, at its *anchor point*: the earliest
time enough cores are free for its estimate without delaying any earlier
reservation. A job starts when its reservation comes. When a job ends before its
estimate the schedule is *compressed*: reservations are released one by one in
order of start time and re-anchored, so each moves earlier if the hole fits it
and otherwise keeps its place.""",
        choices=[
            "A reservation holds its cores for the job's estimate, at least "
            "{py:data}`~schedsim.policies.planning.conservative.MIN_PLAN` seconds.",
            "A reservation may fall when nothing else happens (a hole left by an early "
            "end closes there), so the policy asks for a pass at the next reservation "
            "({py:class}`~schedsim.model.policy.WakeAt`).",
            "Without kill at the estimate (`--keep-run-times`) a job may outlive its plan; "
            "the plan is then rebuilt from the running jobs and every reservation "
            "re-anchored in reservation order: no guarantee can be kept. While estimates "
            "hold, a job never starts later than its first reservation.",
        ],
    ),
    "creasy": Entry(
        title="CREASY, criticality-based EASY",
        family="Backfilling",
        source=[("feitelson2009", "section 2"), ("shmueli2009", "where CREASY was introduced")],
        rule="""\
EASY with the queue ordered by priority = `alpha` x criticality + seniority
(Equation 2). Criticality is how fast the chance that the user goes on with the
session falls at the job's expected response time (wait + estimate): the
derivative of Equation 1, p(rt) = 0.8 / (0.05 rt + 1). Seniority is the wait.
Jobs expected to respond soon, whose owners are still at their desks, jump ahead;
`alpha = 0` is EASY, job for job. The backfilling itself is EASY's.""",
        choices=[
            "**Units.** Equation 1's response time is in minutes by default (the paper does "
            "not print the unit; the minute is that of its slope 0.05 in the user model it "
            "comes from); `response_unit` = `seconds` or `hours` are the other readings, and "
            "`continue_at_zero` (0.8) and `continue_slope` (0.05) Equation 1's constants, "
            "set apart from the users' own reading (`user_params`). Seniority is the wait in "
            "minutes, so `alpha` is in minutes squared.",
            "**Criticality is the magnitude** |dp/drt|: the derivative itself is negative, "
            "and used with its sign `alpha > 0` would favour the longest jobs.",
            "**Every queued job** gets criticality: Equation 2 sets no condition on the "
            "user's session, and a trace replay has no sessions.",
            "**The reservation** goes to the first job in priority order at each pass, as "
            "in EASY; priorities change with time, so another job may take it later.",
            "**When priorities are evaluated**: at scheduling passes, when a job arrives or "
            "ends, as in the paper's simulator.",
            "**Default `alpha`**: 6000, the value of the paper's CREASY runs.",
        ],
    ),
    "multiqueue": Entry(
        title="Multiple-queue backfilling",
        family="Backfilling",
        source=[("lawson2002", "sections 2.1-2.2 and Figure 2")],
        rule="""\
The machine is split into partitions, one queue each, by the jobs' estimates
(under 1000 s, under 10,000 s, longer: `boundaries`). The first job of each
queue is its *pivot*, planned at the earliest time enough processors, of its own
partition or borrowed from others, are free without delaying any pivot of equal
or higher priority; a pivot whose time has come starts. Other jobs backfill
aggressively, as in EASY, when they delay no pivot, borrowing idle processors of
other partitions, which then change partition. Jobs with high priority go first;
long jobs may first run speculatively for `speculative_limit` seconds to flush out
the ones that crash; an advance reservation is granted on submission and kept.""",
        choices=[
            "**Partitions** start with equal numbers of processors, as consecutive blocks "
            "of nodes (the first ones a node larger when the nodes do not divide evenly).",
            "**Which backfills may delay which pivot**, which the text leaves open for "
            "its rules (a) and (b): by default (`guard=all`) no start ever delays any "
            "pivot, which is what makes the paper's claim that a job needing the whole "
            "machine never starves hold; `guard=own` applies (a) and (b) as written, "
            "against the job's own pivot only; `guard=return` lets a partition lend only "
            "the processors its own pivot does not need, back to it when the borrowing "
            "job ends; `guard=reassign` lends the same, but a lent processor stays with "
            "the borrower until a pivot reassigns it (Figure 2's word) (under both, "
            "every start still delays no pivot).",
            "**Priorities** come from the job attribute `priority` (`high`/`low`); a job "
            'without one is high priority, as "all non-reservation jobs have the same '
            'priority".',
            "**Borrowing**: a job takes idle processors of its own partition first, then "
            "those of the partition with the most idle processors.",
            "**Speculative starts** wait outside the queues and start, at most "
            "`speculative_limit` seconds and requeued there, as soon as they fit without "
            "delaying any pivot ({py:class}`~schedsim.model.policy.Start` with "
            '`on_limit="requeue"`).',
            "**Nodes of several cores** (the paper has one processor a node): a "
            "partition's idle processors are the free cores of its nodes, and a borrowed "
            "node changes partition only when the job takes all its cores.",
        ],
    ),
    "singlequeue": Entry(
        title="Single-queue backfilling",
        family="Backfilling",
        source=[("lawson2002", "the baseline of section 3")],
        rule="""\
[`multiqueue`](multiqueue.md) with one partition: aggressive (EASY) backfilling
with the same priorities, speculative starts and advance reservations, so that a
comparison with `multiqueue` isolates the effect of the queues.""",
        choices=["Those of [`multiqueue`](multiqueue.md), with one queue."],
    ),
    "ss": Entry(
        title="Selective Suspension",
        family="Selective preemption",
        source=[("kettimuthu2003", "sections 3.1-3.3")],
        rule=SS_RULE,
        choices=[
            *SS_CHOICES,
            "**Speed.** `ss` makes the schedules of [`ss-plain`](ss-plain.md) with far "
            "fewer passes: ticks at which no idle job could preempt are skipped, which the "
            "tests check job for job and piece for piece.",
        ],
        see_also="schedsim.policies.selective_suspension.rule",
    ),
    "ss-plain": Entry(
        title="Selective Suspension, the plain rule",
        family="Selective preemption",
        source=[("kettimuthu2003", "sections 3.1-3.3")],
        rule=SS_RULE
        + """

This is the rule applied plainly, a pass at every tick and every idle job tried
in turn: slow, and the reference that the accelerated [`ss`](ss.md) is checked
against (same schedules, same parameters).""",
        choices=SS_CHOICES,
    ),
    "tss": Entry(
        title="Tunable Selective Suspension",
        family="Selective preemption",
        source=[("kettimuthu2003", "section 3.5")],
        rule="""\
Selective Suspension tuned to bound the worst cases: a running job whose
threshold exceeds `limit` (1.5) times the average slowdown of its category (the
16 categories of Table 2.1, by run time and processors) cannot be suspended.
Everything else is [SS](ss.md).""",
        choices=[
            "**A running job's category** is taken from its estimate, the run time a "
            "scheduler knows "
            "({py:func}`~schedsim.policies.selective_suspension.tunable.category`).",
            "**The averages are tracked online** by default: the mean bounded slowdown of "
            "the jobs of each category that have finished so far; a category with no "
            "finished job yet sets no limit. `averages=FILE` reads them from a CSV in the "
            "layout of {py:meth}`~schedsim.model.results.Result.category_table` instead, "
            "for example an earlier NS (EASY) run's, as the thesis's Table 2.3 "
            "({py:func}`~schedsim.policies.selective_suspension.tunable.read_averages`); "
            "`averages=thesis` "
            "takes Table 2.3 itself.",
            "The other choices are SS's: see [`ss`](ss.md).",
        ],
    ),
    "is": Entry(
        title="Immediate Service",
        family="Selective preemption",
        source=[("kettimuthu2003", "section 2.3"), ("chiang2002", "Immediate Service")],
        rule="""\
Every arriving job gets an immediate time slice of `quantum` seconds (10 minutes):
it starts at once, suspending as few running jobs as it needs, those of lowest
*instantaneous* expansion factor, (wait + run time so far) / run time so far.
Jobs within their own slice are not suspended for another. The thesis compares
Selective Suspension against it on a distributed-memory machine, where a
suspended job resumes only on its own nodes.""",
        choices=[
            "**The end of a slice**, which the thesis does not describe: if any job the "
            "arrival suspended is still suspended, the arrival is suspended in turn and the "
            "jobs it displaced resume; a job that found free nodes runs on.",
            "An arrival that cannot get its slice that way waits like any idle job; "
            "**only arrivals preempt**.",
            "Idle jobs (queued or suspended) start or resume whenever their processors are "
            "free, in decreasing instantaneous xfactor (infinite for a job that has not run "
            "yet), without reservations; a suspended job only on its own nodes.",
            "Placement is SS's: a fresh job keeps off the suspended jobs' homes while it "
            "can ({py:class}`~schedsim.policies.preemption.Idle`).",
        ],
    ),
    "pfcfs": Entry(
        title="Preemptive FCFS",
        family="Gang scheduling",
        source=[("schwiegelshohn1998", "Algorithm PFCFS, Table 1")],
        rule="""\
Jobs start strictly in submit order, first fit, without backfilling; only a
*wide* job, one that needs more than half the machine, preempts. It waits until
fewer processors than it needs are in use, then until enough are free or `wait`
seconds have passed. If they are not free by then it suspends running jobs and
runs; the two gangs then alternate every `quantum` seconds (`inf`: the wide job
runs to completion), and after `rounds` preemptions (0: no limit) the wide job
waits for its own nodes. Each context switch costs `penalty` seconds. The three
strategies of Table 3 are [`pfcfs1`](pfcfs1.md), [`pfcfs2`](pfcfs2.md) and
[`pfcfs3`](pfcfs3.md).""",
        choices=PFCFS_CHOICES,
    ),
    "pfcfs1": Entry(
        title="PFCFS1",
        family="Gang scheduling",
        source=[("schwiegelshohn1998", "Table 3")],
        rule=_pfcfs_table3(
            "10 minutes",
            "The two gangs alternate every 10 minutes",
            "until one of them is empty (no limit on the rounds).",
        ),
        choices=[
            "Those of [`pfcfs`](pfcfs.md), with `wait` 10 min, `quantum` 10 min and "
            "`rounds` 0 (no limit) fixed."
        ],
    ),
    "pfcfs2": Entry(
        title="PFCFS2",
        family="Gang scheduling",
        source=[("schwiegelshohn1998", "Table 3")],
        rule=_pfcfs_table3(
            "1 minute",
            "It runs for 1 minute, the preempted jobs resume,",
            "and afterwards it waits until its own nodes are free, with no further preemption.",
        ),
        choices=[
            "Those of [`pfcfs`](pfcfs.md), with `wait` 1 min, `quantum` 1 min and `rounds` 1 fixed."
        ],
    ),
    "pfcfs3": Entry(
        title="PFCFS3",
        family="Gang scheduling",
        source=[("schwiegelshohn1998", "Table 3")],
        rule=_pfcfs_table3(
            "10 minutes",
            "It runs to completion,",
            "and then the jobs it preempted resume.",
        ),
        choices=[
            "Those of [`pfcfs`](pfcfs.md), with `wait` 10 min, no quantum (`inf`) and "
            "`rounds` 1 fixed."
        ],
    ),
    "ssp": Entry(
        title="Standard space sharing",
        family="Coscheduling on multi-core nodes",
        source=[("zeng2009", "section 5.1 (SSP), Equation 8, Table 6")],
        rule="""\
One job per node, with 1, 2 or 4 processes per node by Equation 8 (its self
slowdowns against MAX_SL and SELF_SL2), FCFS with conservative backfilling over
whole nodes, planned with the estimate times the job's self slowdown.""",
        choices=_GLTS_CHOICES[:3],
        see_also="schedsim.policies.spacesharing",
    ),
    "glts": Entry(
        title="G-LOMARC-TS",
        family="Coscheduling on multi-core nodes",
        source=[("zeng2009", "sections 4.2-4.6, 5.1, Table 6")],
        rule=_GLTS_RULE,
        choices=_GLTS_CHOICES,
        see_also=_GLTS_SEE,
    ),
    "cst": Entry(
        title="CST: pairs, best match",
        family="Coscheduling on multi-core nodes",
        source=[("zeng2009", "section 5.1")],
        rule="[`glts`](glts.md) with groups of two jobs only, the best match.",
        choices=_PAIR_CHOICES,
        see_also=_GLTS_SEE,
    ),
    "cstws": Entry(
        title="CSTWS: pairs, first match",
        family="Coscheduling on multi-core nodes",
        source=[("zeng2009", "section 5.1")],
        rule="[`glts`](glts.md) with groups of two jobs only, the first match that passes.",
        choices=_PAIR_CHOICES,
        see_also=_GLTS_SEE,
    ),
    "glts-fbo": Entry(
        title="G-LOMARC-TS, first block only",
        family="Coscheduling on multi-core nodes",
        source=[("zeng2009", "section 5.1 (FBO)")],
        rule="[`glts`](glts.md), matching in the first block only.",
        choices=_GLTS_CHOICES,
        see_also=_GLTS_SEE,
    ),
    "glts-ns": Entry(
        title="G-LOMARC-TS, no sorting",
        family="Coscheduling on multi-core nodes",
        source=[("zeng2009", "section 5.1 (NS)")],
        rule="[`glts`](glts.md) without sorting per block.",
        choices=_GLTS_CHOICES,
        see_also=_GLTS_SEE,
    ),
    "glts-nh": Entry(
        title="G-LOMARC-TS, no heuristics",
        family="Coscheduling on multi-core nodes",
        source=[("zeng2009", "section 5.1 (NH)")],
        rule="[`glts`](glts.md) without sorting or blocks, the first suitable group.",
        choices=_GLTS_CHOICES,
        see_also=_GLTS_SEE,
    ),
    "scojo": Entry(
        title="Scojo-PECT: time slices per job type",
        family="Coscheduling on multi-core nodes",
        source=[("zeng2009", "sections 4.7 and 5.1")],
        rule="""\
Jobs are short (estimate up to 10 min), medium (up to 3 h) or long; each type has
a virtual machine spanning the whole machine, with a planner of its own
(`inner`: [`ssp`](ssp.md) or a [`glts`](glts.md) variant) working in that
machine's time. Every hour holds a short slice (only when short jobs wait), then a
medium and a long slice (30% and 70% of the rest); at every switch all running
jobs are preempted with 60 s of overhead and the next type's jobs resume on their
own nodes. Jobs of other types backfill into a slice until its end when they delay
no job of the slice's type nor of their own.""",
        choices=[
            "A short slice lasts `short_slice` (600 s; the paper gives no length).",
            "A type with no job gets no slice; a slice whose type has no job left ends early.",
            "A switch costs nothing when nothing was running.",
            "R_est, R_max and the `delay_factor` column are in the virtual machine's time.",
            "Waiting jobs backfilled into another type's slice are never grouped.",
        ],
        see_also="schedsim.policies.scojo",
    ),
}

INDEX_INTRO = """\
# Policy catalogue

Every policy schedsim ships, one page each: the paper it comes from, its rule in
a few sentences, its parameters with their defaults (read off the code at every
build of this site) and the choices made where the paper is silent, each
documented in full in the policy's module. Run one with
`schedsim run --policy NAME --param key=value`; `schedsim policies` lists them
in the terminal. To write your own, see [Adding a policy](../guide/adding-a-policy.md).

Estimates are the SWF requested time (the run time when missing); a job that runs
past its estimate is killed there unless `--keep-run-times`.
"""

# -- what the code says -----------------------------------------------------------


def _type(hint: Any) -> str:
    """A parameter's type hint as the page shows it."""
    if typing.get_origin(hint) is Literal:
        values = [f"`{v}`" for v in typing.get_args(hint)]
        return "one of " + ", ".join(values)
    return f"`{getattr(hint, '__name__', str(hint))}`"


def _value(value: Any) -> str:
    if value == "":
        return "empty"
    if isinstance(value, float) and math.isinf(value):
        return "`inf`"
    return f"`{value}`"


def _parameters(name: str, cls: type) -> str:
    from schedsim.app import registry
    from schedsim.app.report.quantities import parameter_unit

    params = registry.listed_parameters(name)
    if not params:
        return f"None: `schedsim run --policy {name}` is all there is to it.\n"
    hints = typing.get_type_hints(cls.__init__)
    rows = ["| parameter | type | default | unit |", "|---|---|---|---|"]
    for key, p in params.items():
        unit = f"`{unit}`" if (unit := parameter_unit(key)) else "-"  # a pure number, a choice
        rows.append(
            f"| `{key}` | {_type(hints.get(key, p.annotation))} | {_value(p.default)} | {unit} |"
        )
    example = " ".join(f"--param {k}={_cli(p.default)}" for k, p in params.items())
    rows.append("")
    rows.append(
        f"Set on the command line as `schedsim run --policy {name} {example}` (these are "
        "the defaults), in a study as `params.KEY`, and from Python as "
        f'`Simulation(workload, "{name}", params={{...}})`.'
    )
    return "\n".join(rows) + "\n"


def _cli(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "''" if value == "" else str(value)


def _cite(key: str, where: str) -> str:
    paper = PAPERS[key]
    text = f"{{ref}}`{paper.label} <paper-{key}>`"
    return f"{text}, {where}" if where else text


def _page(name: str, cls: type, entry: Entry | None) -> str:
    module, qualname = cls.__module__, cls.__qualname__
    from schedsim.app.registry import description

    summary = description(cls)
    title = f"`{name}`: {entry.title}" if entry is not None else f"`{name}`"
    out = [f"(policy-{name})=", f"# {title}", "", summary, ""]
    if entry is not None:
        main, *more = entry.source
        out.append(f"**From:** {_cite(*main)}")
        for extra in more:
            out[-1] += f"; {extra[1]}: {_cite(extra[0], '')}"
        out.append("")
    out += [f"**Class:** {{py:class}}`{module}.{qualname}`", ""]
    if entry is not None:
        out += ["## The rule", "", entry.rule, ""]
    out += ["## Parameters", "", _parameters(name, cls)]
    out += [
        "The class's own description:",
        "",
        "```{eval-rst}",
        f".. autoclass:: {module}.{qualname}",
        "   :no-index:",
        "```",
        "",
    ]
    if entry is not None and entry.choices:
        out += ["## Where the paper is silent", ""]
        out += [f"- {c}" for c in entry.choices]
        out.append("")
    documented = entry.see_also if entry is not None and entry.see_also else module
    out += [f"The choices are documented in full in {{py:mod}}`{documented}`.", ""]
    return "\n".join(out)


def _index(shipped: dict[str, type]) -> str:
    from schedsim.app.registry import description

    out = [INDEX_INTRO]
    families = [*FAMILIES, "Other"]
    for family in families:
        names = [n for n in shipped if (POLICIES[n].family if n in POLICIES else "Other") == family]
        if not names:
            continue
        out += [f"## {family}", "", "| policy | what it does | from |", "|---|---|---|"]
        for n in names:
            first = description(shipped[n]) if shipped[n] else ""
            src = _cite(*POLICIES[n].source[0]) if n in POLICIES else ""
            out.append(f"| [`{n}`]({n}.md) | {first.replace('|', chr(92) + '|')} | {src} |")
        out.append("")
    out += ["```{toctree}", ":hidden:", ""]
    for family in families:
        out += [n for n in shipped if (POLICIES[n].family if n in POLICIES else "Other") == family]
    out += ["```", "", "## Papers", ""]
    out.append(
        "The code's docstrings cite the papers by their number in this project's seed "
        'list ("seed 000 section 3.2").'
    )
    out.append("")
    for key, paper in PAPERS.items():
        used = [
            f"[`{n}`]({n}.md)"
            for n in shipped
            if n in POLICIES and any(k == key for k, _ in POLICIES[n].source)
        ]
        tail = f" Seed {paper.seed}." if paper.seed else ""
        tail += f" Policies: {', '.join(used)}." if used else ""
        tail += f" Used for {paper.used_for}" if paper.used_for else ""
        out += [f"(paper-{key})=", f"{paper.reference}{tail}", ""]
    return "\n".join(out)


def _shipped() -> dict[str, type]:
    """Registered policies whose classes schedsim ships, in catalogue order."""
    from schedsim.app import registry

    found = {n: registry.get(n) for n in registry.names()}
    shipped = {n: c for n, c in found.items() if c.__module__.startswith("schedsim.policies.")}
    order = list(POLICIES)
    return dict(
        sorted(
            shipped.items(),
            key=lambda nc: (order.index(nc[0]) if nc[0] in order else len(order), nc[0]),
        )
    )


def _write(path: Path, text: str) -> None:
    """Write only what changed, so that Sphinx rebuilds only what changed."""
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def generate(app: Sphinx) -> None:
    folder = Path(app.srcdir) / "policies"
    folder.mkdir(exist_ok=True)
    shipped = _shipped()
    for name in shipped:
        if name not in POLICIES:
            logger.warning(
                "policy catalogue: %r is registered but has no entry in "
                "docs/_ext/policy_catalogue.py (POLICIES)",
                name,
            )
    for name in POLICIES:  # harmless: an entry written ahead of its policy
        if name not in shipped:
            logger.info("policy catalogue: %r has an entry but is not registered", name)
    keep = {"index.md"}
    _write(folder / "index.md", _index(shipped))
    for name, cls in shipped.items():
        keep.add(f"{name}.md")
        _write(folder / f"{name}.md", _page(name, cls, POLICIES.get(name)))
    for stale in folder.glob("*.md"):
        if stale.name not in keep:
            stale.unlink()


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", generate)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
