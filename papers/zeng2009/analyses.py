"""Zeng & Sodan 2009 (lookahead group matchmaking): the paper's measures of a study.

Seed 003, section 5.1 lists the metrics; sections 5.2-5.4 report them. Part 1
computes each from one run's `Result` (its job table, piece log and the
policy's ``groups`` table; `schedsim.policies.spacesharing`,
`schedsim.policies.glts`):

* the **job type** (section 5.1): short when the run time is at most 600 s,
  medium at most 10,800 s, long beyond (`job_type`);
* the **average bounded relative response time RR** (section 5.1), per type
  and for all jobs: the response over the "pure runtime (without time
  slicing)", with a cut-off for very short jobs (`relative_response`, `rr`);
* **node and core utilization** (Equations 2 and 3) over the makespan and
  during the **high-load phases** of Equation 1 (`waiting`, `high_load_phases`,
  `usage`, `utilization`);
* the **groups** (section 5.2): how many, their mean size (primary and
  matched jobs) and the share of the jobs eligible for coscheduling (medium
  and long) that ran in one (`group_stats`);
* the **delay factors** of the medium and long jobs (section 5.2, "the
  distribution of delays"): mean, 75th and 95th percentiles
  (`delay_factors`, `delay_stats`);
* the **makespan**, last end less first submit (section 5.3, W2);

and `metrics` gathers them into one flat dict with the units in the names.

Part 2 reports a study the way the paper does: runs of workloads
``zeng-w1``/``zeng-w2`` under ``scojo`` with ``params.inner`` one of the seven
schedulers (or those policies directly; `scheduler` names them), optional
``params.block_size`` and ``params.f_slack``, replications averaged
(`study_runs`, `aggregate`); the tables and the paper's Figures 6-9; and the
paper's claims, each with the paper's value, ours and whether it is
reproduced by a rule the table states (`claims`, `write`). Runs under
Scojo-PECT and runs of a scheduler alone are kept apart (``slicing``): where a
workload has both, the claims and figures read the Scojo-PECT ones, the
paper's set-up (`paper_setting`). Changes are relative (GLTS's RR or
utilization against another scheduler's, in percent of the other's: the
paper's "improves utilization by 26.8%" read as relative, not as percentage
points), and counts of groups are scaled to the paper's 10,000 jobs.
Utilizations and shares of jobs are fractions (0-1), as everywhere in
schedsim (`schedsim.app.report.quantities`); where the paper gives one in
percent (41.7% of the eligible jobs in a group), its claim converts the
paper's value to a fraction (0.417) and says so.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from schedsim.model.pieces import HELD
from schedsim.model.results import Result
from schedsim.workloads.multicore import MEDIUM_MAX, SHORT_MAX

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.app.report.study_results import StudyResults

__all__ = [
    "ALPHA_MEANS",
    "BLOCK_SIZE",
    "FEW_CANDIDATES",
    "F_SLACK",
    "KEYS",
    "NO_SLICING",
    "N_HIGH",
    "PAIR_BEST",
    "PAIR_SHARING",
    "PAIR_TRIES",
    "PAPER_JOBS",
    "ROUNDING",
    "RR_BOUND",
    "RR_CUTS",
    "RUN_READINGS",
    "SCHEDULERS",
    "SCOJO",
    "SELF_AND_COS",
    "TYPES",
    "UNITS",
    "WORKLOADS",
    "aggregate",
    "default_reading",
    "delay_factors",
    "delay_stats",
    "group_stats",
    "high_load_phases",
    "job_type",
    "makespan",
    "matchmaking_stats",
    "metrics",
    "paper_setting",
    "relative_response",
    "rr",
    "scheduler",
    "study_runs",
    "usage",
    "utilization",
    "waiting",
    "with_readings",
]


#: Section 5.1's job types, in order (upper bounds, inclusive: SHORT_MAX, MEDIUM_MAX).
TYPES: tuple[str, ...] = ("short", "medium", "long")
#: Seconds: the cut-off of RR for very short jobs: the short-job bound (`relative_response`).
RR_BOUND = 600.0
#: Seconds: the cut-offs every run's RR is also computed at (``rr_TYPE_cutC``), the
#: readings of the paper's unstated cut-off (`relative_response`): the usual bounded
#: slowdown's 10 s, a minute, and the short-job bound.
RR_CUTS: tuple[float, ...] = (10.0, 60.0, 600.0)
#: Table 6's defaults of the workload readings (`schedsim.workloads.multicore`): how
#: Table 5's alpha is read and how Equation 7 is rounded, for a run that does not say.
ALPHA_MEANS, ROUNDING = "aarr", "pow2"
#: The defaults of the pair readings of CST and CSTWS (`schedsim.policies.glts`: what CST's
#: "best" ranks by, how many pairs are checked, whether they choose space sharing by gain),
#: for a run that does not say.
PAIR_BEST, PAIR_TRIES, PAIR_SHARING = "gain", "until_pass", "choose"
#: The default of how a job's self and coscheduling slowdowns combine on a node (the
#: planners' and the contention model's ``self_and_cos``), for a run that does not say.
SELF_AND_COS = "product"
#: The columns that tell the runs of one reading from another's, each with the default a
#: run that does not say has (`with_readings`, `default_reading`; the order of
#: `schedsim.papers.zeng2009.claims.Reading.runs`).
RUN_READINGS: dict[str, str] = {
    "alpha_means": ALPHA_MEANS,
    "rounding": ROUNDING,
    "pair_best": PAIR_BEST,
    "pair_tries": PAIR_TRIES,
    "pair_sharing": PAIR_SHARING,
    "self_and_cos": SELF_AND_COS,
}
#: Section 5.3: "the number of candidate jobs for matchmaking is less than 4 in 85% of
#: the cases": the count below which a search has few candidates (`matchmaking_stats`).
FEW_CANDIDATES = 4
#: Table 6's N_H: waiting jobs from which the machine is in a high-load phase.
N_HIGH = 12
#: Table 6's defaults, which a run that does not set them ran with.
BLOCK_SIZE = 16
F_SLACK = 1.5
#: Policy names (``policy``, or ``params.inner`` under ``scojo``) -> the paper's names.
SCHEDULERS: dict[str, str] = {
    "ssp": "SSP",
    "cst": "CST",
    "cstws": "CSTWS",
    "glts": "GLTS",
    "glts-fbo": "FBO",
    "glts-ns": "NS",
    "glts-nh": "NH",
}
#: This project's workload names -> the paper's (Table 5).
WORKLOADS: dict[str, str] = {"zeng-w1": "W1", "zeng-w2": "W2"}
#: The jobs one of the paper's workloads has (section 5.1): group counts scale to it.
PAPER_JOBS = 10_000
#: ``slicing`` of a run under Scojo-PECT (``policy = "scojo"``) and of one without.
SCOJO, NO_SLICING = "Scojo-PECT", "none"


# -- part 1: the metrics of one run (section 5.1) ------------------------------------


def job_type(jobs: pd.DataFrame) -> pd.Series:
    """Each job's type (section 5.1): ``short`` when its run time is at most 600 s,
    ``medium`` at most 10,800 s (3 h), ``long`` beyond.

    The paper classifies by "runtime"; Scojo-PECT must know a job's type when it
    arrives (section 4.7), so this is the run time in the workload, the job
    table's ``work`` (seconds at rate 1, before any contention slows it), not the
    simulated ``run``: a job keeps its type whatever the schedule. With the Lublin
    model's exact estimates (`schedsim.workloads.lublin`) it is also the
    estimate, by which `schedsim.policies.glts` keeps short jobs out of groups
    and `schedsim.policies.scojo` sends jobs to their virtual machines.
    """
    work = jobs["work"].to_numpy(dtype=float)
    kind = np.searchsorted([SHORT_MAX, MEDIUM_MAX], work, side="left")
    return pd.Series(np.asarray(TYPES, dtype=object)[kind], index=jobs.index, name="type")


def relative_response(jobs: pd.DataFrame, bound: float = RR_BOUND) -> pd.Series:
    """Each job's bounded relative response time (section 5.1): max(R / max(T, bound), 1).

    R is the response time, end - submit. T is the "pure runtime (without time
    slicing)": the job table's ``run``, the wall-clock time the attempt that counts
    ran, contention slowdowns included (the job ran that long, and SSP's
    self slowdown is part of every scheduler's runtime) but time suspended and
    suspension overheads excluded (they are what time slicing adds). ``bound`` is
    the paper's "cut-off for very short jobs (only relevant for all-job
    evaluation)", whose value it does not give. Choice: 600 s, the short-job
    limit. Two reasons. (1) It is the value for which the paper's remark is
    exact: no medium or long job ran under 600 s, so only the all-jobs figure can
    change. (2) The paper's own numbers need a large cut-off: SSP on W2 has RR
    17.5 (medium), 36.74 (long) and 10.65 (all), and with Table 5's shares
    (64% short, 19.5% medium, 16.5% long) the short jobs' RR must then be
    (10.65 - 0.195 x 17.5 - 0.165 x 36.74) / 0.64 = 1.8, which short jobs of a
    minute or two that wait at all cannot reach against a 10 s bound (the usual
    bounded slowdown's; ``bound=10`` gives it). The slowdown a
    job suffers from its mates in a group (SL_cos) thus counts as runtime, not as
    delay, under every scheduler alike: RR measures waiting and time slicing. The floor of 1
    (choice, as in the bounded slowdown) keeps a job of 3 s that did not wait
    from counting 0.3, better than no delay.
    """
    response = jobs["end"].to_numpy(dtype=float) - jobs["submit"].to_numpy(dtype=float)
    run = jobs["run"].to_numpy(dtype=float)
    value = np.maximum(response / np.maximum(run, float(bound)), 1.0)
    return pd.Series(value, index=jobs.index, name="rr")


def rr(jobs: pd.DataFrame, bound: float = RR_BOUND) -> dict[str, float]:
    """RR averaged per job type and over all jobs (section 5.1; ``"all"`` last); NaN
    for a type without jobs. Every job counts, whatever its outcome."""
    values = relative_response(jobs, bound)
    types = job_type(jobs)
    out = {t: float(values[types == t].mean()) if (types == t).any() else math.nan for t in TYPES}
    out["all"] = float(values.mean()) if len(values) else math.nan
    return out


def _steps(times: np.ndarray, deltas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A step function from events: (times, value from each time on), the deltas of
    events at one instant summed; zero before the first."""
    if times.size == 0:
        return np.empty(0), np.empty(0)
    at, where = np.unique(times, return_inverse=True)
    return at, np.cumsum(np.bincount(where, weights=deltas, minlength=at.size))


def waiting(jobs: pd.DataFrame, suspended: pd.DataFrame | None = None) -> pd.DataFrame:
    """N_wait of Equation 1 over time: ``time``, ``waiting`` (a step function).

    A job waits from its submission to its *first* start: the waiting queue of
    the conservative-backfilling scheduler (section 4.7). A job suspended by
    Scojo-PECT's time slices, waiting for its next slice, has started already and
    holds its place in its virtual machine's plan: it is not in the waiting queue
    (choice: the paper does not say: "N_wait is the number of jobs in the waiting
    queue", section 4.1). A job that never started waits to the end. The other reading,
    every job not running counted (the suspended ones too), is ``suspended``: the piece
    log (`usage`'s), whose ``suspended`` pieces then count as waiting.
    """
    submit = jobs["submit"].to_numpy(dtype=float)
    start = jobs["start"].to_numpy(dtype=float)
    started = np.isfinite(start)
    times = np.concatenate([submit, start[started]])
    deltas = np.concatenate([np.ones(submit.size), -np.ones(int(started.sum()))])
    if suspended is not None:
        held = suspended[suspended["kind"].astype(str) == "suspended"]
        begin, end = held["start"].to_numpy(dtype=float), held["end"].to_numpy(dtype=float)
        times = np.concatenate([times, begin, end])
        deltas = np.concatenate([deltas, np.ones(begin.size), -np.ones(end.size)])
    at, value = _steps(times, deltas)
    return pd.DataFrame({"time": at, "waiting": value.round().astype(np.int64)})


def high_load_phases(
    jobs: pd.DataFrame, n_high: int = N_HIGH, suspended: pd.DataFrame | None = None
) -> pd.DataFrame:
    """The high-load phases of Equation 1: ``start``, ``end`` (s), one row per phase.

    A phase starts at the instant N_wait (`waiting`) reaches ``n_high`` (N_H,
    Table 6: 12) from below, and ends at the first instant it is below N_H again,
    as Equation 1 says with t_l and t_j. Events at one instant count together, so
    a job submitted and started at once does not open a phase of no length. A
    phase still open at the last start (jobs that never started: a partial run)
    ends at the last end. ``suspended``: `waiting`'s (the suspended jobs counted too).
    """
    steps = waiting(jobs, suspended)
    t = steps["time"].to_numpy(dtype=float)
    high = steps["waiting"].to_numpy() >= n_high
    if not high.any():
        return pd.DataFrame({"start": np.empty(0), "end": np.empty(0)})
    edge = np.diff(np.concatenate([[0], high.astype(np.int8), [0]]))
    first, last = np.flatnonzero(edge == 1), np.flatnonzero(edge == -1)
    close = max(float(t[-1]), float(np.nanmax(jobs["end"].to_numpy(dtype=float))))
    ends = np.where(last < t.size, t[np.minimum(last, t.size - 1)], close)
    return pd.DataFrame({"start": t[first], "end": ends})


def _node_lists(texts: Iterable[str]) -> list[np.ndarray]:
    """Node lists in procset's interval syntax (``"0-3 7"``) as arrays, parsed once each."""
    from schedsim.app.gantt import intervals

    cache: dict[str, np.ndarray] = {}
    out = []
    for text in texts:
        nodes = cache.get(text)
        if nodes is None:
            spans = intervals(text)
            nodes = cache[text] = (
                np.concatenate([np.arange(lo, hi + 1) for lo, hi in spans])
                if spans
                else np.empty(0, dtype=np.int64)
            )
        out.append(nodes)
    return out


def usage(pieces: pd.DataFrame) -> pd.DataFrame:
    """Used cores and used nodes over time, from the piece log: ``time``,
    ``used_cores``, ``used_nodes`` (a step function; uc_i and un_i of Equations 2, 3).

    A core is used while a job holds it: its ``run`` pieces, its ``overhead``
    pieces (a suspension writing the job's memory out, a resumption reading it
    back: the cores are held and the machine is busy, though no work is done) and
    the ``lost`` ones (run pieces of an attempt later requeued: they did run). A
    ``suspended`` piece holds nothing. A node is used while at least one of its
    cores is: under SSP a job of one process per node uses the node and one core
    of its four, which is the gap Equation 3 measures.
    """
    held = pieces[pieces["kind"].astype(str).isin(HELD)]
    start = held["start"].to_numpy(dtype=float)
    end = held["end"].to_numpy(dtype=float)
    size = held["size"].to_numpy(dtype=float)
    core_t, cores = _steps(np.concatenate([start, end]), np.concatenate([size, -size]))
    # Nodes: one +1/-1 per node of each piece; per node, in time order with
    # arrivals before departures at one instant, a node turns used when its count
    # leaves 0 and free when it returns there. Each node's events net to zero, so
    # the running sum over all of them sorted by node is every node's own count.
    lists = _node_lists(held["nodes"].astype(str).tolist())
    counts = np.array([len(n) for n in lists], dtype=np.int64)
    node = np.concatenate([*lists, *lists]) if lists else np.empty(0, dtype=np.int64)
    when = np.concatenate([np.repeat(start, counts), np.repeat(end, counts)])
    delta = np.concatenate([np.ones(counts.sum()), -np.ones(counts.sum())])
    order = np.lexsort((-delta, when, node))
    node, when, delta = node[order], when[order], delta[order]
    used = np.cumsum(delta) > 0.5
    before = np.concatenate([[False], used[:-1]])
    before[np.flatnonzero(np.diff(node)) + 1] = False  # a node's first event: free before
    turn = used != before
    node_t, nodes = _steps(when[turn], np.where(used[turn], 1.0, -1.0))
    at = np.union1d(core_t, node_t)

    def value_at(t: np.ndarray, v: np.ndarray) -> np.ndarray:
        k = np.searchsorted(t, at, side="right") - 1
        return np.where(k >= 0, v[np.maximum(k, 0)] if v.size else 0.0, 0.0)

    return pd.DataFrame(
        {
            "time": at,
            "used_cores": value_at(core_t, cores).round().astype(np.int64),
            "used_nodes": value_at(node_t, nodes).round().astype(np.int64),
        }
    )


def _integrals(t: np.ndarray, v: np.ndarray, windows: np.ndarray) -> np.ndarray:
    """The integral of the step function (t, v) (zero before t[0]) over each window of
    ``[[a, b], ...]``."""
    if windows.size == 0:
        return np.empty(0)
    if t.size == 0:
        return np.zeros(len(windows))
    area = np.concatenate([[0.0], np.cumsum(v[:-1] * np.diff(t))])

    def cumulative(x: np.ndarray) -> np.ndarray:
        k = np.searchsorted(t, x, side="right") - 1
        inside = k >= 0
        kk = np.maximum(k, 0)
        return np.where(inside, area[kk] + v[kk] * (x - t[kk]), 0.0)

    return cumulative(windows[:, 1]) - cumulative(windows[:, 0])


def _integral(t: np.ndarray, v: np.ndarray, windows: np.ndarray) -> float:
    """The integral of the step function (t, v) over disjoint windows (their sum)."""
    return float(np.sum(_integrals(t, v, windows)))


def makespan(jobs: pd.DataFrame) -> float:
    """T_makespan (Equations 2 and 3; section 5.3's saturation sign), in seconds: the
    last end less the first submit (NaN without jobs)."""
    if jobs.empty:
        return math.nan
    return float(jobs["end"].max() - jobs["submit"].min())


def utilization(result: Result, n_high: int = N_HIGH) -> dict[str, float]:
    """Node and core utilization (Equations 2 and 3) over the makespan and over the
    high-load phases (Equation 1), as fractions (0-1: the unit of utilization
    everywhere, `Result.utilization` too), with the phases' number and time.

    U_node = sum(tp_i x un_i) / (T x M) and U_core = sum(tp_i x uc_i) / (T x M x
    N_core), un_i and uc_i from the piece log (`usage`), M the nodes and N_core
    the cores per node of the run. Over the makespan T runs from the first submit
    to the last end. Over the high-load phases T is their total length: the
    section's "percentage of used-nodes time over this phase", taken over the
    union of the phases (choice: one figure for a run, each phase weighted by its
    length, where a mean of the phases' own percentages would let a phase of a
    second count as much as one of a day). NaN without a phase. The other reading
    the text allows, the mean of the phases' own utilizations (each phase of
    positive length counted once), is ``u_node_phase`` and ``u_core_phase``
    (`schedsim.papers.zeng2009.claims`' reading ``utilization="phase"``). With the
    phases of N_wait counting the suspended jobs too (`waiting`'s other reading), pooled,
    ``u_core_high_susp`` (the reading ``n_wait="suspended"``).

    Keys: ``u_node``, ``u_core``, ``u_node_high``, ``u_core_high``,
    ``u_node_phase``, ``u_core_phase``, ``u_core_high_susp``, ``high_load_phases``,
    ``high_load_s``.
    """
    if result.pieces is None:
        raise ValueError("utilization needs the piece log: run with pieces kept")
    jobs = result.jobs
    cores_total = float(result.meta["total_cores"])
    per_node = float(result.meta.get("cores_per_node", 1))
    nodes_total = cores_total / per_node
    used = usage(result.pieces)
    t = used["time"].to_numpy(dtype=float)
    uc = used["used_cores"].to_numpy(dtype=float)
    un = used["used_nodes"].to_numpy(dtype=float)
    span = (
        np.array([[float(jobs["submit"].min()), float(jobs["end"].max())]])
        if len(jobs)
        else np.empty((0, 2))
    )
    phases = high_load_phases(jobs, n_high)[["start", "end"]].to_numpy(dtype=float)
    out: dict[str, float] = {}
    for name, windows in (("", span), ("_high", phases)):
        length = float(np.sum(windows[:, 1] - windows[:, 0])) if windows.size else 0.0
        if length > 0:
            out[f"u_node{name}"] = _integral(t, un, windows) / (length * nodes_total)
            out[f"u_core{name}"] = _integral(t, uc, windows) / (length * cores_total)
        else:
            out[f"u_node{name}"] = out[f"u_core{name}"] = math.nan
    lengths = phases[:, 1] - phases[:, 0] if len(phases) else np.empty(0)
    some = lengths > 0
    for kind, v, total in (("node", un, nodes_total), ("core", uc, cores_total)):
        each = _integrals(t, v, phases[some]) / (lengths[some] * total)
        out[f"u_{kind}_phase"] = float(np.mean(each)) if each.size else math.nan
    other = high_load_phases(jobs, n_high, result.pieces)[["start", "end"]].to_numpy(dtype=float)
    length = float(np.sum(other[:, 1] - other[:, 0])) if len(other) else 0.0
    out["u_core_high_susp"] = (
        _integral(t, uc, other) / (length * cores_total) if length > 0 else math.nan
    )
    out["high_load_phases"] = float(len(phases))
    out["high_load_s"] = float(np.sum(phases[:, 1] - phases[:, 0])) if len(phases) else 0.0
    return out


def group_stats(result: Result) -> dict[str, float]:
    """The groups (section 5.2): ``groups`` (how many formed), ``group_size_jobs``
    (mean jobs per group, primary and matched) and ``grouped_share`` (the share of
    the jobs eligible for coscheduling, medium and long, that ran in a group: a
    fraction, 0-1).

    From the policy's ``groups`` table (`schedsim.policies.glts.GLTS.tables`),
    else from the job column ``group``. A job counts as grouped if it was primary
    or matched in any group (a running job can be in several, one after the
    other). A run without either formed no group (SSP): 0 groups, a share 0, and no
    mean size (NaN). Jobs in groups are taken as they come: GLTS keeps short jobs
    (by their estimate) out of groups, and with exact estimates no short job is in
    one; one that is would count as grouped but not as eligible.
    """
    jobs = result.jobs
    eligible = job_type(jobs).isin(("medium", "long")).to_numpy()
    table = result.tables.get("groups")
    if table is not None:
        sizes = [1 + len(str(m).split()) for m in table["matched"].fillna("")]
        members = {int(j) for j in table["primary"]}
        members |= {int(j) for m in table["matched"].fillna("") for j in str(m).split()}
        n = len(table)
    elif "group" in jobs:
        grouped = jobs[jobs["group"].notna()]
        sizes = grouped.groupby("group").size().tolist()
        members = {int(j) for j in grouped["id"]}
        n = len(sizes)
    else:
        sizes, members, n = [], set(), 0
    in_group = jobs["id"].isin(members).to_numpy()
    share = float(np.mean(in_group[eligible])) if eligible.any() else math.nan
    return {
        "groups": float(n),
        "group_size_jobs": float(np.mean(sizes)) if sizes else math.nan,
        "grouped_share": share,
    }


def matchmaking_stats(result: Result) -> dict[str, float]:
    """The group searches of a run, from the policy's ``matchmaking`` log
    (`schedsim.policies.glts.MATCHMAKING`: one row per primary looking for matched
    jobs), NaN without one (SSP):

    * ``searches``: how many; ``searches_case1``: those of Case 1, a job about to
      start looking ahead in the waiting queue (section 4.5: the search the variants
      FBO, NS and NH change);
    * ``candidates_mean``: the pre-selected candidates of a Case 1 search, on
      average, and ``few_candidates_share``: the share of Case 1 searches with fewer
      than `FEW_CANDIDATES` (section 5.3: "less than 4 in 85% of the cases"; choice:
      every Case 1 search counts, those with no candidate too: the paper's reason
      for the variants' small effect is that the search rarely has a choice);
    * ``fair_rejects``: groups that failed the fairness check (over every case),
      and ``fair_rejected_share``: the share of searches in which at least one did;
    * ``groups_found``: searches where a group passed, ``groups_taken``: those
      whose group was started (the best of the job's options; the groups table's
      count).
    """
    table = result.tables.get("matchmaking")
    names = ("searches", "searches_case1", "candidates_mean", "few_candidates_share",
             "fair_rejects", "fair_rejected_share", "groups_found", "groups_taken")  # fmt: skip
    if table is None:
        return dict.fromkeys(names, math.nan)
    case = table["case"].to_numpy()
    cands = table["candidates"].to_numpy(dtype=float)[case == 1]
    unfair = table["unfair"].to_numpy(dtype=float)
    n = len(table)
    return {
        "searches": float(n),
        "searches_case1": float(cands.size),
        "candidates_mean": float(cands.mean()) if cands.size else math.nan,
        "few_candidates_share": float(np.mean(cands < FEW_CANDIDATES)) if cands.size else math.nan,
        "fair_rejects": float(unfair.sum()),
        "fair_rejected_share": float(np.mean(unfair > 0)) if n else math.nan,
        "groups_found": float(np.isfinite(table["gain"].to_numpy(dtype=float)).sum()),
        "groups_taken": float(table["taken"].to_numpy(dtype=float).sum()),
    }


def delay_factors(jobs: pd.DataFrame) -> pd.Series:
    """Each job's delay factor (section 5.2): its response over its estimated
    response time R_est (section 4.1, already adjusted by 0.75, section 5.1).

    The job column ``delay_factor`` when the policy writes one (Scojo-PECT: the
    response in its virtual machine's time, which R_est estimates); else
    (end - submit) / ``r_est``. NaN where neither is known or R_est is not
    positive (a policy that estimates no response time has no delay factors).
    """
    if "delay_factor" in jobs:
        return pd.to_numeric(jobs["delay_factor"], errors="coerce").rename("delay_factor")
    if "r_est" not in jobs:
        return pd.Series(math.nan, index=jobs.index, name="delay_factor")
    r_est = pd.to_numeric(jobs["r_est"], errors="coerce").to_numpy(dtype=float)
    response = jobs["end"].to_numpy(dtype=float) - jobs["submit"].to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where(r_est > 0, response / r_est, math.nan)
    return pd.Series(value, index=jobs.index, name="delay_factor")


def delay_stats(jobs: pd.DataFrame) -> dict[str, float]:
    """The distribution of the delay factors of the medium and long jobs (section
    5.2: "the 75% percentile is a delay factor of 1.3 for both M and L jobs and the
    95% percentile is a factor of 1.4"): ``delay_mean``, ``delay_p75``,
    ``delay_p95`` over both types, and ``delay_p75_medium`` ... per type.

    Short jobs are left out, as the paper does: they are never coscheduled.
    Percentiles interpolate linearly (numpy's default); NaN without values.
    """
    factor = delay_factors(jobs).to_numpy(dtype=float)
    types = job_type(jobs).to_numpy()
    out: dict[str, float] = {}
    for suffix, keep in (
        ("", np.isin(types, ("medium", "long"))),
        ("_medium", types == "medium"),
        ("_long", types == "long"),
    ):
        x = factor[keep & np.isfinite(factor)]
        if suffix == "":
            out["delay_mean"] = float(np.mean(x)) if x.size else math.nan
        for q in (75, 95):
            out[f"delay_p{q}{suffix}"] = float(np.percentile(x, q)) if x.size else math.nan
    return out


def metrics(result: Result, bound: float = RR_BOUND, n_high: int = N_HIGH) -> dict[str, float]:
    """Every measure of section 5.1 for one run, named with its unit: ``jobs``,
    ``rr_short``, ``rr_medium``, ``rr_long``, ``rr_all`` (ratios, `rr`),
    ``u_node``, ``u_core``, ``u_node_high``, ``u_core_high`` (fractions),
    ``high_load_phases``, ``high_load_s`` (`utilization`), ``groups``,
    ``group_size_jobs``, ``grouped_share`` (a fraction; `group_stats`), ``delay_mean``,
    ``delay_p75``, ``delay_p95`` and per type (ratios, `delay_stats`),
    ``makespan_s``, RR at each cut-off of `RR_CUTS` (``rr_all_cut10`` ...) and the
    group searches (`matchmaking_stats`)."""
    jobs = result.jobs
    out: dict[str, float] = {"jobs": float(len(jobs))}
    out.update({f"rr_{k}": v for k, v in rr(jobs, bound).items()})
    for cut in RR_CUTS:
        out.update({f"rr_{k}_cut{cut:g}": v for k, v in rr(jobs, cut).items()})
    out.update(utilization(result, n_high))
    out.update(group_stats(result))
    out.update(matchmaking_stats(result))
    out.update(delay_stats(jobs))
    out["makespan_s"] = makespan(jobs)
    return out


#: The unit of each `metrics` entry (and its derived columns), for CSV headers and axes.
UNITS: dict[str, str] = {
    "jobs": "jobs",
    **{f"rr_{t}": "ratio" for t in (*TYPES, "all")},
    "rr": "ratio",
    **{f"rr_{t}_cut{c:g}": "ratio" for t in (*TYPES, "all") for c in RR_CUTS},
    **{f"u_{w}{h}": "fraction" for w in ("node", "core") for h in ("", "_high", "_phase")},
    "u_core_high_susp": "fraction",
    "high_load_phases": "phases",
    "high_load_s": "s",
    "groups": "groups",
    "groups_per_10k_jobs": "groups",
    "group_size_jobs": "jobs",
    "grouped_share": "fraction",
    "delay_mean": "ratio",
    **{f"delay_p{q}{s}": "ratio" for q in (75, 95) for s in ("", "_medium", "_long")},
    "makespan_s": "s",
    "searches": "searches",
    "searches_case1": "searches",
    "candidates_mean": "jobs",
    "few_candidates_share": "fraction",
    "fair_rejects": "groups",
    "fair_rejected_share": "fraction",
    "groups_found": "groups",
    "groups_taken": "groups",
    "block_size": "jobs",
    "f_slack": "ratio",
}


# -- part 2: a study ------------------------------------------------------------------


def _param(row: Mapping[str, Any], name: str) -> Any:
    """A policy parameter of a run: the flat column ``params.NAME`` or ``params[NAME]``."""
    value = row.get(f"params.{name}")
    if value is None:
        params = row.get("params")
        value = params.get(name) if isinstance(params, Mapping) else None
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def scheduler(row: Mapping[str, Any]) -> str:
    """A run's scheduler as the paper names it (SSP, CST, CSTWS, GLTS, FBO, NS, NH):
    under ``scojo`` its ``inner`` policy (``ssp`` when not set, Scojo-PECT's
    default: `schedsim.policies.scojo`), else the policy itself; an unknown name
    as it is."""
    policy = str(row.get("policy", ""))
    if policy == "scojo":
        inner = _param(row, "inner")
        policy = "ssp" if inner is None else str(inner)
    return SCHEDULERS.get(policy, policy)


def _number(value: Any, default: float) -> float:
    return default if value is None else float(value)


def _text(value: Any, default: str) -> str:
    """A reading's value as the run states it; ``default`` when it does not (None, NaN)."""
    missing = value is None or (isinstance(value, float) and math.isnan(value))
    return default if missing else str(value)


def study_runs(results: StudyResults, bound: float = RR_BOUND) -> pd.DataFrame:
    """`metrics` of every finished run of the seven schedulers, one row each, with
    ``id``, ``workload`` (W1, W2 or the study's name), ``slicing`` (``Scojo-PECT``
    for the runs of ``scojo``, the paper's set-up, ``none`` for a scheduler run
    alone), ``scheduler``, ``block_size`` and ``f_slack`` (Table 6's 16 and 1.5 for
    a run that does not set them: the policies' defaults), the workload readings
    ``alpha_means`` and ``rounding`` (``workload_params``; `ALPHA_MEANS`, `ROUNDING`
    when not set), CST's and CSTWS's pair readings ``pair_best``, ``pair_tries`` and
    ``pair_sharing`` (``params``; `PAIR_BEST`, `PAIR_TRIES`, `PAIR_SHARING` when not set),
    how the slowdowns combine, ``self_and_cos`` (the planners' ``params``; `SELF_AND_COS`
    when not set) and ``replication``. N_H
    is each run's ``params.n_high`` when it sets one, else Table 6's 12."""
    rows = []
    for record in results.done.to_dict("records"):
        name = scheduler(record)
        if name not in SCHEDULERS.values():
            continue
        n_high = int(_number(_param(record, "n_high"), N_HIGH))
        row: dict[str, Any] = {
            "id": record["id"],
            "workload": WORKLOADS.get(str(record.get("workload")), str(record.get("workload"))),
            "slicing": SCOJO if record.get("policy") == "scojo" else NO_SLICING,
            "scheduler": name,
            "block_size": _number(_param(record, "block_size"), BLOCK_SIZE),
            "f_slack": _number(_param(record, "f_slack"), F_SLACK),
            "alpha_means": _text(record.get("workload_params.alpha_means"), ALPHA_MEANS),
            "rounding": _text(record.get("workload_params.rounding"), ROUNDING),
            "pair_best": _text(_param(record, "pair_best"), PAIR_BEST),
            "pair_tries": _text(_param(record, "pair_tries"), PAIR_TRIES),
            "pair_sharing": _text(_param(record, "pair_sharing"), PAIR_SHARING),
            "self_and_cos": _text(_param(record, "self_and_cos"), SELF_AND_COS),
            "replication": record.get("replication"),
        }
        row.update(metrics(results.result(record["id"]), bound, n_high))
        rows.append(row)
    frame = pd.DataFrame(rows)
    if len(frame):
        frame["groups_per_10k_jobs"] = frame["groups"] * PAPER_JOBS / frame["jobs"]
    return frame


#: The columns a configuration is told by (replications averaged over the rest).
KEYS: tuple[str, ...] = ("workload", "alpha_means", "rounding", "slicing", "scheduler",
                         "block_size", "f_slack", "pair_best", "pair_tries",
                         "pair_sharing", "self_and_cos")  # fmt: skip


def aggregate(runs: pd.DataFrame) -> pd.DataFrame:
    """The metrics of `study_runs` averaged over the replications of each
    configuration (section 5.1: "run with 3 random workloads ... results are
    averaged"), one row per workload, workload reading, slicing, scheduler, block
    size, slack factor and pair reading, with ``runs`` (how many were averaged); schedulers in the
    paper's order. A table without the reading columns gets the defaults."""
    if runs.empty:
        return pd.DataFrame(columns=[*KEYS, "runs"])
    runs = with_readings(runs)
    values = [c for c in runs.columns if c not in (*KEYS, "id", "replication")]
    grouped = runs.groupby(list(KEYS), sort=True, dropna=False)
    table = grouped[values].mean().reset_index()
    table.insert(len(KEYS), "runs", grouped.size().to_numpy())
    order = {name: k for k, name in enumerate(SCHEDULERS.values())}
    table["_order"] = table["scheduler"].map(order)
    return (
        table.sort_values(
            [*KEYS[:4], "_order", *KEYS[5:]]  # the scheduler in the paper's order
        )
        .drop(columns="_order")
        .reset_index(drop=True)
    )


def with_readings(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with the readings' columns (`RUN_READINGS`) and their defaults where it has
    none (a table made before they were kept)."""
    out = table
    for column, default in RUN_READINGS.items():
        if column not in out:
            out = out.assign(**{column: default})
    return out


def default_reading(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``table`` under the default readings (`RUN_READINGS`): the runs the
    figures and the default claims read."""
    t = with_readings(table)
    keep = np.logical_and.reduce([t[c] == d for c, d in RUN_READINGS.items()])
    return t[keep].reset_index(drop=True)


def paper_setting(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of an `aggregate` table the claims and figures read: per workload,
    the runs under Scojo-PECT (section 4.7: the paper runs every scheduler in
    Scojo-PECT's virtual machines) when the study has any, else the schedulers run
    alone, so that the two are never compared with each other. A table without a
    ``slicing`` column is taken as it is."""
    if "slicing" not in table or table.empty:
        return table
    sliced = table.groupby("workload")["slicing"].transform(lambda s: (s == SCOJO).any())
    keep = np.where(sliced, table["slicing"] == SCOJO, table["slicing"] != SCOJO)
    return table[keep].reset_index(drop=True)


def _setting_note(table: pd.DataFrame) -> str:
    """How the rows shown ran: under Scojo-PECT, without time slicing, or both."""
    kinds = set(table["slicing"]) if "slicing" in table else set()
    if kinds == {SCOJO}:
        return "under Scojo-PECT"
    if kinds == {NO_SLICING}:
        return "without time slicing"
    return ""
