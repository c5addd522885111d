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

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from schedsim.app.report.plots import save_figures
from schedsim.model.results import Result
from schedsim.workloads.multicore import MEDIUM_MAX, SHORT_MAX

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from schedsim.app.report.study_results import StudyResults

__all__ = [
    "BLOCK_SIZE",
    "F_SLACK",
    "HELD_KINDS",
    "KEYS",
    "N_HIGH",
    "RR_BOUND",
    "SCHEDULERS",
    "TYPES",
    "aggregate",
    "claims",
    "delay_factors",
    "delay_stats",
    "group_stats",
    "high_load_phases",
    "job_type",
    "makespan",
    "metrics",
    "paper_setting",
    "relative_response",
    "rr",
    "scheduler",
    "study_runs",
    "usage",
    "utilization",
    "waiting",
    "write",
]

#: Section 5.1's job types, in order (upper bounds, inclusive: SHORT_MAX, MEDIUM_MAX).
TYPES: tuple[str, ...] = ("short", "medium", "long")
#: Seconds: the cut-off of RR for very short jobs: the short-job bound (`relative_response`).
RR_BOUND = 600.0
#: Table 6's N_H: waiting jobs from which the machine is in a high-load phase.
N_HIGH = 12
#: Piece kinds during which a job holds its cores (`schedsim.model.pieces`).
HELD_KINDS: tuple[str, ...] = ("run", "overhead", "lost")
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


def waiting(jobs: pd.DataFrame) -> pd.DataFrame:
    """N_wait of Equation 1 over time: ``time``, ``waiting`` (a step function).

    A job waits from its submission to its *first* start: the waiting queue of
    the conservative-backfilling scheduler (section 4.7). A job suspended by
    Scojo-PECT's time slices, waiting for its next slice, has started already and
    holds its place in its virtual machine's plan: it is not in the waiting queue
    (choice: the paper does not say). A job that never started waits to the end.
    """
    submit = jobs["submit"].to_numpy(dtype=float)
    start = jobs["start"].to_numpy(dtype=float)
    started = np.isfinite(start)
    times = np.concatenate([submit, start[started]])
    deltas = np.concatenate([np.ones(submit.size), -np.ones(int(started.sum()))])
    at, value = _steps(times, deltas)
    return pd.DataFrame({"time": at, "waiting": value.round().astype(np.int64)})


def high_load_phases(jobs: pd.DataFrame, n_high: int = N_HIGH) -> pd.DataFrame:
    """The high-load phases of Equation 1: ``start``, ``end`` (s), one row per phase.

    A phase starts at the instant N_wait (`waiting`) reaches ``n_high`` (N_H,
    Table 6: 12) from below, and ends at the first instant it is below N_H again,
    as Equation 1 says with t_l and t_j. Events at one instant count together, so
    a job submitted and started at once does not open a phase of no length. A
    phase still open at the last start (jobs that never started: a partial run)
    ends at the last end.
    """
    steps = waiting(jobs)
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
    held = pieces[pieces["kind"].astype(str).isin(HELD_KINDS)]
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


def _integral(t: np.ndarray, v: np.ndarray, windows: np.ndarray) -> float:
    """The integral of the step function (t, v) (zero before t[0]) over disjoint
    windows ``[[a, b], ...]``."""
    if t.size == 0 or windows.size == 0:
        return 0.0
    area = np.concatenate([[0.0], np.cumsum(v[:-1] * np.diff(t))])

    def cumulative(x: np.ndarray) -> np.ndarray:
        k = np.searchsorted(t, x, side="right") - 1
        inside = k >= 0
        kk = np.maximum(k, 0)
        return np.where(inside, area[kk] + v[kk] * (x - t[kk]), 0.0)

    return float(np.sum(cumulative(windows[:, 1]) - cumulative(windows[:, 0])))


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
    second count as much as one of a day). NaN without a phase.

    Keys: ``u_node``, ``u_core``, ``u_node_high``, ``u_core_high``,
    ``high_load_phases``, ``high_load_s``.
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
    ``delay_p75``, ``delay_p95`` and per type (ratios, `delay_stats`), and
    ``makespan_s``."""
    jobs = result.jobs
    out: dict[str, float] = {"jobs": float(len(jobs))}
    out.update({f"rr_{k}": v for k, v in rr(jobs, bound).items()})
    out.update(utilization(result, n_high))
    out.update(group_stats(result))
    out.update(delay_stats(jobs))
    out["makespan_s"] = makespan(jobs)
    return out


#: The unit of each `metrics` entry (and its derived columns), for CSV headers and axes.
UNITS: dict[str, str] = {
    "jobs": "jobs",
    **{f"rr_{t}": "ratio" for t in (*TYPES, "all")},
    "rr": "ratio",
    **{f"u_{w}{h}": "fraction" for w in ("node", "core") for h in ("", "_high")},
    "high_load_phases": "phases",
    "high_load_s": "s",
    "groups": "groups",
    "groups_per_10k_jobs": "groups",
    "group_size_jobs": "jobs",
    "grouped_share": "fraction",
    "delay_mean": "ratio",
    **{f"delay_p{q}{s}": "ratio" for q in (75, 95) for s in ("", "_medium", "_long")},
    "makespan_s": "s",
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


def study_runs(results: StudyResults, bound: float = RR_BOUND) -> pd.DataFrame:
    """`metrics` of every finished run of the seven schedulers, one row each, with
    ``id``, ``workload`` (W1, W2 or the study's name), ``slicing`` (``Scojo-PECT``
    for the runs of ``scojo``, the paper's set-up, ``none`` for a scheduler run
    alone), ``scheduler``, ``block_size`` and ``f_slack`` (Table 6's 16 and 1.5 for
    a run that does not set them: the policies' defaults) and ``replication``. N_H
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
            "replication": record.get("replication"),
        }
        row.update(metrics(results.result(record["id"]), bound, n_high))
        rows.append(row)
    frame = pd.DataFrame(rows)
    if len(frame):
        frame["groups_per_10k_jobs"] = frame["groups"] * PAPER_JOBS / frame["jobs"]
    return frame


#: The columns a configuration is told by (replications averaged over the rest).
KEYS: tuple[str, ...] = ("workload", "slicing", "scheduler", "block_size", "f_slack")


def aggregate(runs: pd.DataFrame) -> pd.DataFrame:
    """The metrics of `study_runs` averaged over the replications of each
    configuration (section 5.1: "run with 3 random workloads ... results are
    averaged"), one row per workload, slicing, scheduler, block size and slack
    factor, with ``runs`` (how many were averaged); schedulers in the paper's
    order."""
    if runs.empty:
        return pd.DataFrame(columns=[*KEYS, "runs"])
    values = [c for c in runs.columns if c not in (*KEYS, "id", "replication")]
    grouped = runs.groupby(list(KEYS), sort=True, dropna=False)
    table = grouped[values].mean().reset_index()
    table.insert(len(KEYS), "runs", grouped.size().to_numpy())
    order = {name: k for k, name in enumerate(SCHEDULERS.values())}
    table["_order"] = table["scheduler"].map(order)
    return (
        table.sort_values(["workload", "slicing", "_order", "block_size", "f_slack"])
        .drop(columns="_order")
        .reset_index(drop=True)
    )


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


# -- the paper's claims ---------------------------------------------------------------

#: Section 5.2: RR change of GLTS against each scheduler (%), per type (W1).
PAPER_RR_GAIN: dict[str, dict[str, float]] = {
    "SSP": {"medium": -34.9, "long": -53.2, "all": -35.5},
    "CST": {"medium": -19.4, "long": -16.1, "all": -13.9},
    "CSTWS": {"medium": -28.6, "long": -31.5, "all": -23.2},
}
#: Section 5.2, Figure 7: change of the high-load core utilization of GLTS (%) (W1).
PAPER_UCORE_GAIN: dict[str, float] = {"SSP": 26.8, "CST": 6.0, "CSTWS": 10.1}
#: Section 5.2: the share of the jobs eligible for coscheduling that ran in a group (W1),
#: the paper's 41.7% as a fraction (0-1), the unit of shares here.
PAPER_GROUPED = 0.417
#: Section 5.3: SSP's RR on W2.
PAPER_SSP_W2: dict[str, float] = {"medium": 17.5, "long": 36.74, "all": 10.65}


def _status(cases: Sequence[tuple[bool, bool]]) -> str:
    """``reproduced`` when every case holds; ``partly`` when every case holds at
    least in the weaker sense, or at least half hold; else ``not reproduced``."""
    hits = sum(h for h, _ in cases)
    if hits == len(cases):
        return "reproduced"
    if all(h or w for h, w in cases) or 2 * hits >= len(cases):
        return "partly"
    return "not reproduced"


def _change(a: float, b: float) -> float:
    """The change of ``a`` against ``b``, in percent of ``b`` (NaN when b is 0)."""
    return 100 * (a / b - 1) if b else math.nan


#: A case's test: its value -> (holds, holds in the weaker sense).
Test = Callable[[float], tuple[bool, bool]]


def _like(paper: float) -> Test:
    """A change like the paper's: same sign and within a factor of 2 (weaker: same sign)."""

    def test(v: float) -> tuple[bool, bool]:
        same = v * paper > 0
        return same and 0.5 <= v / paper <= 2.0, same

    return test


def _near(paper: float, tol: float, weak: float) -> Test:
    """Within ``tol`` of the paper's value (weaker: within ``weak``)."""
    return lambda v: (abs(v - paper) <= tol, abs(v - paper) <= weak)


def _factor(paper: float, f: float, weak: float) -> Test:
    """Within a factor ``f`` of the paper's value (weaker: of ``weak``)."""
    return lambda v: (paper / f <= v <= paper * f, paper / weak <= v <= paper * weak)


def _small(tol: float, weak: float) -> Test:
    """A change of at most ``tol`` percent either way (weaker: ``weak``)."""
    return lambda v: (abs(v) <= tol, abs(v) <= weak)


def _at_most(limit: float) -> Test:
    """A change of at most ``limit`` percent (a fall; weaker: any fall)."""
    return lambda v: (v <= limit, v < 0)


def _at_least(limit: float) -> Test:
    """A change of at least ``limit`` percent (a rise; weaker: any rise)."""
    return lambda v: (v >= limit, v > 0)


def claims(table: pd.DataFrame) -> pd.DataFrame:
    """The paper's claims against an `aggregate` table: ``claim``, ``where``,
    ``paper`` (its value), ``schedsim`` (ours), ``holds`` (cases that hold),
    ``status`` (reproduced, partly, not reproduced: `_status`) and ``rule`` (when a
    case holds, and when it holds in the weaker sense that makes a claim partly
    reproduced). The paper's setting is Table 6's block size 16 and F_slack 1.5, and
    Scojo-PECT where the study has it (`paper_setting`); a claim none of whose runs
    is in the table is left out."""
    rows: list[dict[str, Any]] = []
    table = paper_setting(table)

    def pick(workload: str, name: str, block: float = BLOCK_SIZE, slack: float = F_SLACK) -> Any:
        hit = table[
            (table["workload"] == workload)
            & (table["scheduler"] == name)
            & np.isclose(table["block_size"].astype(float), block)
            & np.isclose(table["f_slack"].astype(float), slack)
        ]
        return hit.iloc[0] if len(hit) else None

    def value(workload: str, name: str, metric: str, **kw: float) -> float:
        row = pick(workload, name, **kw)
        if row is None or metric not in row.index:
            return math.nan
        return float(row[metric])

    def add(
        claim: str,
        where: str,
        paper: str,
        rule: str,
        cases: Mapping[str, tuple[float, Test]],
        fmt: str = "{:+.1f}%",
    ) -> None:
        shown = {k: (v, test(v)) for k, (v, test) in cases.items() if not math.isnan(v)}
        if not shown:
            return
        verdicts = [r for _, r in shown.values()]
        rows.append(
            {
                "claim": claim,
                "where": where,
                "paper": paper,
                "schedsim": ", ".join(f"{k} {fmt.format(v)}" for k, (v, _) in shown.items()),
                "holds": f"{sum(h for h, _ in verdicts)} of {len(verdicts)}",
                "status": _status(verdicts),
                "rule": rule,
            }
        )

    within2 = "holds: same sign and within a factor of 2 of the paper's; weaker: same sign"
    kinds = ("medium", "long", "all")
    for other, gains in PAPER_RR_GAIN.items():
        add(
            f"GLTS has a lower RR than {other} (W1)",
            "section 5.2, Figure 6",
            ", ".join(f"{k} {v:+.1f}%" for k, v in gains.items()),
            within2,
            {
                k: (
                    _change(value("W1", "GLTS", f"rr_{k}"), value("W1", other, f"rr_{k}")),
                    _like(gains[k]),
                )
                for k in kinds
            },
        )
    add(
        "GLTS has a higher core utilization in high-load phases (W1)",
        "section 5.2, Figure 7",
        ", ".join(f"vs {k} {v:+.1f}%" for k, v in PAPER_UCORE_GAIN.items()),
        within2 + " (relative changes, not percentage points)",
        {
            f"vs {k}": (
                _change(value("W1", "GLTS", "u_core_high"), value("W1", k, "u_core_high")),
                _like(p),
            )
            for k, p in PAPER_UCORE_GAIN.items()
        },
    )

    for wl, size, count, where in (
        ("W1", 2.5, 1500.0, "section 5.2"),
        ("W2", 2.6, 2000.0, "section 5.3"),
    ):
        add(
            f"groups of about {size} jobs, about {count:,.0f} of them ({wl})",
            where,
            f"{size} jobs per group; {count:,.0f} groups in {PAPER_JOBS:,} jobs",
            "jobs per group: holds within 20%, weaker within 40%; groups (scaled to 10,000 "
            "jobs): holds within a factor of 1.5, weaker of 2",
            {
                "jobs per group": (
                    value(wl, "GLTS", "group_size_jobs"),
                    _near(size, 0.2 * size, 0.4 * size),
                ),
                "groups per 10,000 jobs": (
                    value(wl, "GLTS", "groups_per_10k_jobs"),
                    _factor(count, 1.5, 2.0),
                ),
            },
            fmt="{:,.1f}",
        )
    add(
        "about 25% more groups on W2 than on W1",
        "section 5.3",
        "about 2,000 against 1,500 groups: +25% (the paper's arithmetic; +33%)",
        "holds: between +12.5% and +50%; weaker: more groups",
        {
            "GLTS": (
                _change(
                    value("W2", "GLTS", "groups_per_10k_jobs"),
                    value("W1", "GLTS", "groups_per_10k_jobs"),
                ),
                lambda v: (12.5 <= v <= 50.0, v > 0.0),
            )
        },
    )
    add(
        f'{PAPER_GROUPED:.3f} ("41.7%") of the jobs eligible for coscheduling (medium and long) '
        "run in a group (W1)",
        "section 5.2",
        f"{PAPER_GROUPED:.3f} (the paper's 41.7% as a fraction; note: 41.7% of 3,600 eligible "
        "jobs is 1,500 jobs, the paper's count of groups; 1,500 groups of 2.5 would be 3,750 "
        "jobs)",
        "holds within 0.10 (10 percentage points), weaker within 0.20",
        {"GLTS": (value("W1", "GLTS", "grouped_share"), _near(PAPER_GROUPED, 0.10, 0.20))},
        fmt="{:.3f}",
    )
    add(
        "on average, medium and long jobs finish at their predicted response time (W1)",
        "section 5.2",
        "mean delay factor about 1",
        "holds: mean within 0.15 of 1, weaker within 0.3",
        {"GLTS": (value("W1", "GLTS", "delay_mean"), _near(1.0, 0.15, 0.3))},
        fmt="{:.2f}",
    )
    add(
        "delay factors: 75th percentile 1.3, 95th 1.4, for medium and long jobs (W1)",
        "section 5.2",
        "p75 1.3 and p95 1.4 for both types",
        "holds within 0.15 of the paper's, weaker within 0.3",
        {
            f"p{q} {t}": (value("W1", "GLTS", f"delay_p{q}_{t}"), _near(p, 0.15, 0.3))
            for q, p in ((75, 1.3), (95, 1.4))
            for t in ("medium", "long")
        },
        fmt="{:.2f}",
    )
    add(
        "the variants FBO, NS and NH do about as well as GLTS (W1)",
        "section 5.3, Figure 6",
        '"not much impact"',
        "holds: RR within 10% of GLTS's, weaker within 25%",
        {
            f"{v} {k}": (
                _change(value("W1", v, f"rr_{k}"), value("W1", "GLTS", f"rr_{k}")),
                _small(10.0, 25.0),
            )
            for v in ("FBO", "NS", "NH")
            for k in kinds
        },
    )
    add(
        "SSP saturates on W2: its makespan is longer than GLTS's",
        "section 5.3",
        "an increased makespan with SSP, not with GLTS",
        "holds: SSP's makespan at least 5% longer; weaker: longer",
        {
            "SSP vs GLTS": (
                _change(value("W2", "SSP", "makespan_s"), value("W2", "GLTS", "makespan_s")),
                _at_least(5.0),
            )
        },
    )
    add(
        "SSP's RR on W2",
        "section 5.3",
        ", ".join(f"{k} {v:g}" for k, v in PAPER_SSP_W2.items()),
        "holds within a factor of 2 of the paper's, weaker of 4",
        {k: (value("W2", "SSP", f"rr_{k}"), _factor(p, 2.0, 4.0)) for k, p in PAPER_SSP_W2.items()},
        fmt="{:.2f}",
    )
    add(
        "GLTS's RR on W2 is much lower than SSP's",
        "section 5.3",
        '"much longer" with SSP',
        "holds: GLTS at least 20% lower; weaker: lower",
        {
            k: (
                _change(value("W2", "GLTS", f"rr_{k}"), value("W2", "SSP", f"rr_{k}")),
                _at_most(-20.0),
            )
            for k in kinds
        },
    )
    _block_claims(table, add)
    _slack_claims(table, add)
    return pd.DataFrame(
        rows, columns=["claim", "where", "paper", "schedsim", "holds", "status", "rule"]
    )


def _series(table: pd.DataFrame, workload: str, name: str, column: str, fixed: str) -> pd.DataFrame:
    """The rows of one workload and scheduler along ``column``, the other parameter
    (``fixed``) at Table 6's value, sorted."""
    default = BLOCK_SIZE if fixed == "block_size" else F_SLACK
    part = table[
        (table["workload"] == workload)
        & (table["scheduler"] == name)
        & np.isclose(table[fixed].astype(float), default)
    ]
    return part.sort_values(column)


def _block_test(near: set[float]) -> Test:
    """The best block size is 12 (weaker: one of ``near``, 12 and its studied neighbours)."""
    return lambda b: (math.isclose(b, 12), b in near)


def _falls(steadily: bool) -> Test:
    """RR fell from the smallest F_slack to 1.5, ``steadily`` (weaker: fell)."""
    return lambda v: (v < 0 and steadily, v < 0)


def _block_claims(table: pd.DataFrame, add: Callable[..., None]) -> None:
    """Figure 8 (W2): the optimum block size is 12 for GLTS; FBO is worse than GLTS
    with small blocks."""
    glts = _series(table, "W2", "GLTS", "block_size", "f_slack")
    sizes = glts["block_size"].astype(float).tolist()
    if len(sizes) >= 2 and any(math.isclose(b, 12) for b in sizes):
        at = sizes.index(next(b for b in sizes if math.isclose(b, 12)))
        near = {sizes[k] for k in (at - 1, at, at + 1) if 0 <= k < len(sizes)}
        cases = {}
        for k in ("medium", "long"):
            values = glts[f"rr_{k}"].to_numpy(dtype=float)
            if np.isfinite(values).any():
                best = sizes[int(np.nanargmin(values))]
                cases[k] = (best, _block_test(near))
        add(
            "GLTS's best block size on W2 is 12, for medium and long jobs",
            "section 5.3, Figure 8",
            "12 for both types",
            "holds: the block size of the lowest RR is 12; weaker: the studied size next to 12",
            cases,
            fmt="{:g} jobs",
        )
    fbo = _series(table, "W2", "FBO", "block_size", "f_slack")
    if len(glts) and len(fbo):
        common = sorted(set(glts["block_size"]) & set(fbo["block_size"]))
        if len(common) >= 2:
            small, large = common[0], common[-1]

            def at(frame: pd.DataFrame, b: float, k: str) -> float:
                return float(frame[np.isclose(frame["block_size"], b)][f"rr_{k}"].iloc[0])

            kinds = ("medium", "long", "all")
            add(
                f"FBO is much worse than GLTS with small blocks (W2, block size {small:g})",
                "section 5.3, Figure 8",
                '"much worse" with small blocks',
                "holds: FBO's RR at least 10% above GLTS's; weaker: above",
                {
                    k: (
                        _change(at(fbo, small, k), at(glts, small, k)),
                        _at_least(10.0),
                    )
                    for k in kinds
                },
            )
            add(
                f"FBO is close to GLTS with large blocks (W2, block size {large:g})",
                "section 5.3, Figure 8",
                '"similar to GLTS if block sizes are large enough"',
                "holds: FBO's RR within 10% of GLTS's, weaker within 25%",
                {
                    k: (
                        _change(at(fbo, large, k), at(glts, large, k)),
                        _small(10.0, 25.0),
                    )
                    for k in kinds
                },
            )


def _slack_claims(table: pd.DataFrame, add: Callable[..., None]) -> None:
    """Figure 9 (W1, GLTS): RR falls as F_slack grows up to 1.5, and is about flat
    beyond."""
    glts = _series(table, "W1", "GLTS", "f_slack", "block_size")
    slack = glts["f_slack"].astype(float).to_numpy()
    if not np.isclose(slack, F_SLACK).any():
        return
    base = glts[np.isclose(slack, F_SLACK)].iloc[0]
    kinds = ("medium", "long", "all")
    below = glts[slack < F_SLACK - 1e-9]
    if len(below):
        cases = {}
        for k in kinds:
            rr_up = [*below[f"rr_{k}"].astype(float), float(base[f"rr_{k}"])]
            falls = all(b <= a * 1.02 for a, b in itertools.pairwise(rr_up))
            cases[k] = (_change(rr_up[-1], rr_up[0]), _falls(falls))
        add(
            f"RR falls as F_slack grows to 1.5 (W1, GLTS, from F_slack {below['f_slack'].min():g})",
            "section 5.4, Figure 9",
            "RR falls with the slack factor up to 1.5",
            "holds: RR at 1.5 below the smallest F_slack's and no step up by more than 2%; "
            "weaker: below",
            cases,
        )
    above = glts[slack > F_SLACK + 1e-9]
    if len(above):
        cases = {}
        for k in kinds:
            ref = float(base[f"rr_{k}"])
            change = max(abs(_change(float(v), ref)) for v in above[f"rr_{k}"])
            cases[k] = (change, _small(5.0, 10.0))
        add(
            "RR is about flat for F_slack beyond 1.5 (W1, GLTS)",
            "section 5.4, Figure 9",
            '"approximately equal" beyond 1.5',
            "the largest change from F_slack 1.5's RR; holds within 5%, weaker within 10%",
            cases,
            fmt="{:.1f}%",
        )


# -- figures --------------------------------------------------------------------------


def _base(table: pd.DataFrame, workload: str) -> pd.DataFrame:
    """One workload's rows at Table 6's block size and slack factor."""
    return table[
        (table["workload"] == workload)
        & np.isclose(table["block_size"].astype(float), BLOCK_SIZE)
        & np.isclose(table["f_slack"].astype(float), F_SLACK)
    ]


#: Axis label of RR (section 5.1).
RR_LABEL = "average bounded relative\nresponse time RR (ratio)"
#: The types the paper's figures show, with their run times (section 5.1).
SHOWN_TYPES: dict[str, str] = {
    "medium": "medium jobs (10 min - 3 h)",
    "long": "long jobs (> 3 h)",
    "all": "all jobs",
}
#: A colour per scheduler (Okabe-Ito), the same in every figure.
COLORS: dict[str, str] = {
    "SSP": "#E69F00", "CST": "#56B4E9", "CSTWS": "#009E73", "GLTS": "#0072B2",
    "FBO": "#D55E00", "NS": "#CC79A7", "NH": "#000000",
}  # fmt: skip


def _rr_figure(table: pd.DataFrame) -> Figure:
    """RR per scheduler, a panel per job type, on W1 (Figure 6). A panel each: short
    jobs wait long without time slicing, and all jobs' RR would flatten the rest."""
    from matplotlib.figure import Figure

    part = _base(table, "W1")
    names = part["scheduler"].tolist()
    fig = Figure(figsize=(9.0, 3.2), layout="constrained")
    axes = fig.subplots(1, len(SHOWN_TYPES), squeeze=False)[0]
    for ax, (k, title) in zip(axes, SHOWN_TYPES.items(), strict=True):
        ax.bar(
            range(len(names)),
            part[f"rr_{k}"].astype(float),
            0.7,
            color=[COLORS.get(n, "#999999") for n in names],
            edgecolor="#333333",
            linewidth=0.5,
        )
        ax.set_xticks(range(len(names)), names, rotation=45, fontsize=8)
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("scheduler")
    axes[0].set_ylabel(RR_LABEL)
    fig.suptitle(f"RR per scheduler, W1 {_setting_note(part)} (Zeng & Sodan 2009, Figure 6)",
                 fontsize=10)  # fmt: skip
    return fig


def _utilization_figure(table: pd.DataFrame) -> Figure:
    """Core (and node) utilization in high-load phases per scheduler on W1 (Figure 7)."""
    from matplotlib.figure import Figure

    part = _base(table, "W1")
    names = part["scheduler"].tolist()
    fig = Figure(figsize=(6.4, 3.2), layout="constrained")
    ax = fig.subplots()
    x = np.arange(len(names))
    ax.bar(x - 0.2, part["u_core_high"], 0.4, label="cores (Equation 3)", color="#0072B2")
    ax.bar(x + 0.2, part["u_node_high"], 0.4, label="nodes (Equation 2)", color="#E69F00",
           hatch="//", edgecolor="#333333", linewidth=0.5)  # fmt: skip
    ax.set_xticks(x, names)
    ax.set_ylim(0, 1)
    ax.set_xlabel("scheduler")
    ax.set_ylabel("utilization in high-load\nphases (fraction)")  # one line overflows 3.2 in
    fig.legend(fontsize=7, loc="outside lower center", ncols=2)
    fig.suptitle(f"Utilization in high-load phases, W1 {_setting_note(part)} (Figure 7)",
                 fontsize=10)  # fmt: skip
    return fig


def _block_figure(table: pd.DataFrame) -> Figure:
    """RR against the block size on W2, one line per variant, per job type (Figure 8);
    NH, which has no blocks, as a level line when it ran once."""
    from matplotlib.figure import Figure

    kinds = ("medium", "long")
    fig = Figure(figsize=(8.0, 3.2), layout="constrained")
    axes = fig.subplots(1, len(kinds), squeeze=False)[0]
    for ax, k in zip(axes, kinds, strict=True):
        for i, name in enumerate(("GLTS", "FBO", "NS", "NH")):
            line = _series(table, "W2", name, "block_size", "f_slack")
            if name == "NH" and len(line) == 1:
                # NH has no blocks (section 5.1): one run, the same at every block size.
                ax.axhline(float(line[f"rr_{k}"].iloc[0]), color=COLORS[name], linestyle=":",
                           label="NH (no blocks)" if k == kinds[0] else None)  # fmt: skip
            elif len(line):
                ax.plot(
                    line["block_size"],
                    line[f"rr_{k}"],
                    marker="os^D"[i],
                    label=name if k == kinds[0] else None,
                    color=COLORS[name],
                    linestyle=("-", "--", "-.", ":")[i],
                )
        ax.set_title(SHOWN_TYPES[k], fontsize=9)
        ax.set_xlabel("block size (jobs)")
    axes[0].set_ylabel(RR_LABEL)
    fig.legend(fontsize=7, title="scheduler", loc="outside right upper")
    note = _setting_note(table[table["workload"] == "W2"])
    fig.suptitle(f"RR against the block size, W2 {note} (Figure 8)", fontsize=10)
    return fig


def _slack_figure(table: pd.DataFrame) -> Figure:
    """RR of GLTS against the slack factor on W1, a panel per job type (Figure 9)."""
    from matplotlib.figure import Figure

    line = _series(table, "W1", "GLTS", "f_slack", "block_size")
    fig = Figure(figsize=(9.0, 3.0), layout="constrained")
    axes = fig.subplots(1, len(SHOWN_TYPES), squeeze=False)[0]
    for ax, (k, title) in zip(axes, SHOWN_TYPES.items(), strict=True):
        ax.plot(line["f_slack"], line[f"rr_{k}"], marker="o", color=COLORS["GLTS"])
        ax.axvline(F_SLACK, color="#999999", linewidth=0.8, linestyle=":")
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("slack factor F_slack (ratio)")
    axes[0].set_ylabel(RR_LABEL)
    fig.suptitle(f"RR of GLTS against the slack factor, W1 {_setting_note(line)} (Figure 9; "
                 "dotted: Table 6's 1.5)", fontsize=10)  # fmt: skip
    return fig


def _unit(column: str) -> str:
    return UNITS.get(column, "")


def write(results: StudyResults, out: Path) -> tuple[list[Path], list[Path], pd.DataFrame]:
    """The paper's tables, figures and claims for a study, into ``out``.

    Tables: every run's metrics (``zeng2009-runs.csv``), and averaged over the
    replications: RR per scheduler and type, the utilizations, the groups and
    the fairness (delay factors); ``claims.csv``. Figures 6-9 where the study
    has their runs.
    """
    from schedsim.app.report.formats import with_units

    runs = study_runs(results)
    table = aggregate(runs)
    claimed = claims(table)
    chosen = paper_setting(table)
    tables: list[Path] = []
    plots: list[Path] = []
    keys = [*KEYS, "runs"]
    frames: list[tuple[pd.DataFrame, str]] = [(runs, "zeng2009-runs.csv")]
    if len(table):
        long_rr = table.melt(
            id_vars=keys,
            value_vars=[f"rr_{t}" for t in (*TYPES, "all")],
            var_name="type",
            value_name="rr",
        )
        long_rr["type"] = long_rr["type"].str.removeprefix("rr_")
        frames += [
            (long_rr, "zeng2009-rr.csv"),
            (table[[*keys, "u_node", "u_core", "u_node_high", "u_core_high",
                    "high_load_phases", "high_load_s", "makespan_s"]],
             "zeng2009-utilization.csv"),
            (table[[*keys, "jobs", "groups", "groups_per_10k_jobs", "group_size_jobs",
                    "grouped_share"]], "zeng2009-groups.csv"),
            (table[[*keys, *(c for c in table.columns if c.startswith("delay_"))]],
             "zeng2009-fairness.csv"),
        ]  # fmt: skip
    frames.append((claimed, "claims.csv"))
    for frame, name in frames:
        path = out / name
        with_units(frame, _unit).to_csv(path, index=False)
        tables.append(path)
    figures: list[tuple[str, Figure]] = []
    if len(chosen) and len(_base(chosen, "W1")):
        figures.append(("zeng2009-fig6-rr", _rr_figure(chosen)))
        figures.append(("zeng2009-fig7-utilization", _utilization_figure(chosen)))
    if len(chosen) and len(set(chosen[chosen["workload"] == "W2"]["block_size"])) >= 2:
        figures.append(("zeng2009-fig8-block-size", _block_figure(chosen)))
    if len(chosen) and len(_series(chosen, "W1", "GLTS", "f_slack", "block_size")) >= 2:
        figures.append(("zeng2009-fig9-slack", _slack_figure(chosen)))
    plots += save_figures(figures, out)
    return tables, plots, claimed
