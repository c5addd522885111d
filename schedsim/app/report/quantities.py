"""What the numbers of a report are: the papers they come from, their units and ranges.

A pure lookup module (no pandas, no rich), so that the statistics, the
formats, the figures and the command line all read the same tables.

Papers
    The studies schedsim reproduces, by author and year (the constants
    below, from `schedsim.app.bibliography.PAPERS`). The project's notes
    number them "seed 000" to "seed 004"; a reader sees the authors
    instead, since "seed 000" reads like a random seed.
Units (`unit_of`, `axis_unit`)
    The unit of the values, one per quantity wherever they appear
    (summary.json, the DataFrames, the CSV files, the console, the figures):
    ``s`` (seconds), ``ratio`` (no dimension: slowdowns, xfactors, load
    factors), ``fraction`` (utilization, between 0 and 1: never scaled to a
    percentage, so that a number read off the screen is the number in the
    files), ``jobs``, ``jobs/day`` ...
Ranges (`bounds_of`, `comparison_bounds`)
    The values a quantity can take: a (bounded) slowdown or an xfactor is at
    least 1, a time or a count at least 0, a utilization between 0 and 1.
    The confidence intervals of `statistics` are kept inside them.
"""

from __future__ import annotations

import math
import re

from schedsim.app.bibliography import PAPERS

__all__ = [
    "CONFIG_AXES",
    "DAILY_CYCLES",
    "JOB_UNITS",
    "LOOKAHEAD",
    "MULTIPLE_QUEUES",
    "PREEMPTIVE_FCFS",
    "RUN_UNITS",
    "SELECTIVE_PREEMPTION",
    "STATS",
    "SUMMARY_METRICS",
    "SUMMARY_UNITS",
    "UNITLESS_PARAMETERS",
    "axis_label",
    "bounds_of",
    "category_table_name",
    "comparison_bounds",
    "comparison_unit",
    "config_axis",
    "config_unit",
    "parameter_unit",
    "unit_of",
    "was_cut",
]


# --------------------------------------------------------------------------- #
# Papers
# --------------------------------------------------------------------------- #


SELECTIVE_PREEMPTION = PAPERS["kettimuthu2003"]
MULTIPLE_QUEUES = PAPERS["lawson2002"]
DAILY_CYCLES = PAPERS["feitelson2009"]
LOOKAHEAD = PAPERS["zeng2009"]
PREEMPTIVE_FCFS = PAPERS["schwiegelshohn1998"]


def category_table_name(scheme: str) -> str:
    """Where a category scheme comes from, as titles and axes name it."""
    table = "Table 2.1" if scheme == "16" else "Table 4.1"
    return f"{SELECTIVE_PREEMPTION.long}, {table}"


# --------------------------------------------------------------------------- #
# Units
# --------------------------------------------------------------------------- #

#: `Result.summary` entries (and `schedsim.model.sessions.closed_loop_summary`'s):
#: the unit of their values. Times are in seconds (window bounds on the trace's
#: clock); slowdowns and xfactors have no dimension; weighted sums (Schwiegelshohn
#: & Yahyapour 1998) are in core seconds x seconds.
SUMMARY_UNITS: dict[str, str] = {
    "jobs": "jobs",
    "excluded_warmup": "jobs",
    "excluded_cooldown": "jobs",
    "window_start": "s",
    "window_end": "s",
    "mean_wait": "s",
    "max_wait": "s",
    "mean_bounded_slowdown": "ratio",
    "max_bounded_slowdown": "ratio",
    "mean_slowdown": "ratio",
    "mean_turnaround": "s",
    "mean_xfactor": "ratio",
    "utilization": "fraction",
    "makespan": "s",
    "throughput_per_day": "jobs/day",
    "mean_queue_length": "jobs",
    "weighted_completion_time": "core s^2",
    "weighted_flow_time": "core s^2",
    "killed_at_limit": "jobs",
    "killed": "jobs",
    "suspensions": "count",
    "unfinished": "jobs",
    "days": "days",
    "daily_throughput": "jobs/day",
    "horizon_utilization": "fraction",
    "sessions": "sessions",
    "jobs_per_session": "jobs/session",
    "aborts_by_response": "sessions",
    "abort_share": "fraction",
    "jobs_after_horizon": "jobs",
    # a run with node outages (schedsim.model.outages); core h: cores x hours
    **dict.fromkeys(("node_failures", "maintenance_windows", "outage_kills"), "count"),
    "failed": "jobs",
    **dict.fromkeys(("lost_core_hours", "down_core_hours"), "core h"),
}
#: The metrics a run's summary has (`SUMMARY_UNITS`' entries): all a study's report can
#: name (``[report] metrics``; `schedsim.app.report.reading.known_metrics`).
SUMMARY_METRICS: tuple[str, ...] = tuple(SUMMARY_UNITS)

#: Columns of a study's runs.csv beside the configuration and the summary: their unit.
RUN_UNITS: dict[str, str] = {"wall_time": "s"}
#: The statistics of a metric over runs (`statistics.aggregate`), in column order.
STATS: tuple[str, ...] = ("mean", "std", "ci_low", "ci_high")

#: Columns of `Result.jobs` a per-category table aggregates: their unit.
JOB_UNITS: dict[str, str] = {
    "submit": "s",
    "start": "s",
    "end": "s",
    "run": "s",
    "wait": "s",
    "estimate": "s",
    "work": "s",
    "turnaround": "s",
    "suspended_time": "s",
    "overhead_time": "s",
    "lost_run": "s",
    "lost_work": "s",
    "bounded_slowdown": "ratio",
    "slowdown": "ratio",
    "xfactor": "ratio",
    "size": "cores",
    "suspensions": "count",
    "requeues": "count",
    "failures": "count",
    "memory_per_core_mb": "MB",
    "attempts": "count",
}

#: Numeric configuration columns a report plots against: (axis name, unit).
CONFIG_AXES: dict[str, tuple[str, str]] = {
    "load_factor": ("load factor", "ratio"),
    "first": ("first jobs of the trace", "jobs"),
    "jobs": ("jobs generated", "jobs"),
    "nodes": ("machine size", "nodes"),
    "cores_per_node": ("cores per node", "cores"),
    "users": ("closed-loop users", "users"),
    "days": ("simulated days", "days"),
    "max_runtime": ("longest user job", "s"),
    "lublin_alpha": ("Lublin-Feitelson alpha", "ratio"),
    "params.sf": ("suspension factor sf", "ratio"),
    "params.limit": ("TSS limit", "ratio"),
    "params.interval": ("preemption interval", "s"),
    "params.quantum": ("quantum", "s"),
    "params.wait": ("wait before preempting", "s"),
    "params.penalty": ("preemption penalty", "s"),
    "params.rounds": ("rounds", "count"),
    "params.alpha": ("CREASY alpha", "min^2"),
    "params.continue_at_zero": ("CREASY's Equation 1: p(continue) at response 0", "fraction"),
    "params.continue_slope": ("CREASY's Equation 1: slope per unit of response", "ratio"),
    "params.speculate_above": ("speculation above an estimate of", "s"),
    "params.speculative_limit": ("speculative run limit", "s"),
    "params.boundaries": ("queue boundaries (estimates)", "s"),
    # Zeng & Sodan 2009, Table 6 and section 5.1 (ssp, glts and its variants, scojo)
    "params.max_sl": ("coscheduling slowdown threshold MAX_SL", "ratio"),
    "params.self_sl2": ("self slowdown limit SELF_SL2", "ratio"),
    "params.f_slack": ("R_max slack F_slack", "ratio"),
    "params.adjust": ("R_est adjustment", "ratio"),
    "params.min_utilgain": ("least utilization gain of a group", "ratio"),
    "params.block_size": ("block size", "jobs"),
    "params.matched_larger": ("matched jobs' extra nodes, share of the primary's", "ratio"),
    "params.running_prim_num": ("running primaries tried", "jobs"),
    "params.matched_longer": ("matched job's longest extra run", "s"),
    "params.n_high": ("high-load threshold N_H (waiting jobs)", "jobs"),
    "params.short_max": ("longest short job (estimate)", "s"),
    "params.medium_max": ("longest medium job (estimate)", "s"),
    "params.short_slice": ("short slice", "s"),
    "params.switch": ("slice switch overhead", "s"),
    "params.medium_share": ("medium slices' share", "fraction"),
    # The tables of parameters (schedsim.app.param_tables).
    "workload_params.start_hour": ("trace start, time of day (UTC)", "h"),
    "workload_params.max_sl": ("Equation 7's MAX_SL", "ratio"),
    "workload_params.self_sl2": ("Equation 7's SELF_SL.2", "ratio"),
    "contention_params.cpus_per_node": ("CPUs per node", "CPUs"),
    "user_params.session_gap": ("longest think time", "s"),
    "user_params.max_break": ("longest break", "s"),
    "user_params.min_jobs": ("jobs a trace user needs", "jobs"),
    "user_params.continue_at_zero": ("Equation 1: p(continue) at response 0", "fraction"),
    "user_params.continue_slope": ("Equation 1: slope per unit of response", "ratio"),
    "user_params.day_start": ("working day starts", "h"),
    "user_params.day_end": ("working day ends", "h"),
    "user_params.arrive_until": ("latest daily arrival", "h"),
    "user_params.unix_start_time": ("clock origin (Unix time)", "s"),
}

#: Policy parameters with no unit that are not numbers on an axis: choices, switches,
#: files and seeds. With the ``params.*`` entries of `CONFIG_AXES` (numbers, with their
#: units; ``ratio`` and ``count`` ones are pure numbers) they cover every parameter of
#: every policy schedsim ships (tests/test_policy_listing.py), so that
#: ``schedsim policies`` can give each its unit (`parameter_unit`).
UNITLESS_PARAMETERS: frozenset[str] = frozenset(
    {
        "seed",  # a random seed
        "order",  # easy, creasy: the queue order
        "response_unit",  # creasy: Equation 1's unit, a choice
        "guard", "speculation", "trial",  # multiqueue, singlequeue
        "width", "resumed", "hold", "prefer", "averages", "reentry",  # ss, ss-plain, tss
        "preempt",  # pfcfs, pfcfs1-3
        "queue_in_cycle", "wait_from",  # pfcfs family
        "inner", "non_type_backfill", "self_and_cos",  # scojo; ssp, glts family: self_and_cos
        "variant",  # glts family (not listed: `schedsim.app.registry.UNLISTED`)
        "pair_best", "pair_tries", "pair_sharing",  # cst, cstws (and scojo): their readings
    }
)  # fmt: skip

#: Slowdown-like quantities: (wait + run) / run and its kin, never below 1.
_AT_LEAST_ONE = ("bounded_slowdown", "slowdown", "xfactor")
#: Units whose quantities are never negative.
_NON_NEGATIVE = {
    "s", "jobs", "count", "sessions", "cores", "days", "jobs/day", "jobs/session", "core s^2",
    "core h", "ratio",
}  # fmt: skip
_PREFIXES = ("mean_", "max_", "min_", "median_", "total_")
#: Statistics of a jobs column whose values stay within the column's range.
_WITHIN = re.compile(r"^(mean|max|min|median|first|last|p\d+(\.\d+)?)$")


def _base(metric: str) -> str:
    """A summary metric's jobs column (``mean_wait`` -> ``wait``), else itself."""
    for prefix in _PREFIXES:
        if metric.startswith(prefix) and metric[len(prefix) :] in JOB_UNITS:
            return metric[len(prefix) :]
    return metric


def unit_of(metric: str) -> str:
    """The unit of a summary metric or jobs column as stored ("" when unknown).

    ``s`` (seconds), ``ratio`` (no dimension: slowdowns, xfactors),
    ``fraction`` (utilization), ``jobs/day`` (throughput), ``jobs``, ``count``...
    """
    if metric in SUMMARY_UNITS:
        return SUMMARY_UNITS[metric]
    if metric in RUN_UNITS:
        return RUN_UNITS[metric]
    return JOB_UNITS.get(_base(metric), "")


def config_axis(column: str) -> tuple[str, str]:
    """(name, unit) of a configuration column on an axis; an unknown one keeps its
    name (underscores as spaces) and has no unit."""
    return CONFIG_AXES.get(column, (column.replace("_", " "), ""))


def config_unit(column: str) -> str:
    """The unit worth naming beside a configuration column in a table header: ``s`` for
    ``max_runtime`` or ``params.interval``, ``jobs`` for ``first``; none where the
    column is a pure number (a load factor, a suspension factor) or already names it
    (``users``, ``nodes``, ``days``)."""
    unit = config_axis(column)[1]
    if not unit or unit in ("ratio", "count") or unit in re.split(r"[._]", column):
        return ""
    return unit


def parameter_unit(name: str) -> str | None:
    """The unit to show beside a policy parameter's value (``s`` for ``interval``,
    ``min^2`` for CREASY's ``alpha``, ``jobs`` for ``block_size``): as `config_unit`
    gives it for ``params.NAME``; "" for a pure number, a choice or a switch; None for
    a parameter this module does not know (a plug-in's)."""
    column = f"params.{name}"
    if column in CONFIG_AXES:
        return config_unit(column)
    return "" if name in UNITLESS_PARAMETERS else None


def axis_label(name: str, unit: str) -> str:
    """``name (unit)``, ``utilization (fraction)``; the name alone without a unit."""
    return f"{name} ({unit})" if unit else name


# --------------------------------------------------------------------------- #
# Ranges
# --------------------------------------------------------------------------- #

UNBOUNDED: tuple[float, float] = (-math.inf, math.inf)


def bounds_of(metric: str, stat: str | None = None) -> tuple[float, float]:
    """(lowest, highest) value ``metric`` can take; of ``stat`` of a jobs column if given.

    A slowdown or xfactor is at least 1 (its mean, maximum, median and
    percentiles too), a fraction lies in [0, 1], a time, count or rate is at
    least 0; anything else (an unknown metric, a standard deviation of a
    slowdown) is bounded only where that follows from its unit.
    """
    unit = "jobs" if stat in ("count", "size") else unit_of(metric)
    low, high = UNBOUNDED
    if unit == "fraction":
        low, high = 0.0, 1.0
    elif unit in _NON_NEGATIVE:
        low = 0.0
    within = stat is None or bool(_WITHIN.match(str(stat)))
    if within and _base(metric) in _AT_LEAST_ONE:
        low = 1.0
    return low, high


def comparison_unit(kind: str, metric: str) -> str:
    """The unit of a paired comparison (`statistics.paired`) of ``metric``: R and
    ratios have none, a percent change is in %, a difference in the metric's unit."""
    if kind == "percent":
        return "%"
    if kind == "difference":
        return unit_of(metric)
    return "ratio"


def comparison_bounds(kind: str, metric: str) -> tuple[float, float]:
    """The range of a paired comparison of ``metric``: of a quantity never negative,
    a ratio is at least 0 and a percent change at least -100; R and differences
    are unbounded."""
    if bounds_of(metric)[0] < 0:
        return UNBOUNDED
    if kind == "ratio":
        return 0.0, math.inf
    if kind == "percent":
        return -100.0, math.inf
    return UNBOUNDED


def was_cut(low: float, high: float, bounds: tuple[float, float]) -> bool:
    """Whether an interval [low, high] of `describe` (not of zero width) reaches an end
    of ``bounds``: then it was cut there (a t interval reaches it only by chance)."""
    if not (math.isfinite(low) and math.isfinite(high)) or low == high:
        return False
    return low == bounds[0] or high == bounds[1]
