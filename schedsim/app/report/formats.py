"""How a report writes values: numbers, group names, file names, and metrics' units.

A study report prints every number with `fmt` (4 significant digits, large
values whole). Tables of plain runs side by side (`schedsim compare`) give
each metric its unit (`unit_of`) and one number format per quantity
(`format_of`, `format_number`), so a column of runs reads at a glance:
seconds with one decimal, slowdowns with two, utilization as a fraction with
four, counts whole.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from schedsim.app.report.statistics import NA, key

__all__ = [
    "JOB_UNITS",
    "SUMMARY_METRICS",
    "UNIT_FORMATS",
    "fmt",
    "format_number",
    "format_of",
    "group_name",
    "safe_name",
    "unit_of",
]


def fmt(value: Any) -> str:
    """A number as a report prints it: 4 significant digits, large values whole."""
    if isinstance(value, str):
        return value
    if key(value) is NA:
        return "-"
    if isinstance(value, (bool, np.bool_)):
        return str(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        v = float(value)
        if math.isinf(v):
            return str(v)
        if abs(v) >= 1e4:
            return f"{v:,.0f}"
        return f"{v:.4g}"
    return str(value)


def group_name(columns: Sequence[str], values: Sequence[Any]) -> str:
    """A group's display name: the label as is, other columns as ``col=value``."""
    parts = [
        fmt(v) if c == "label" else f"{c}={fmt(v)}" for c, v in zip(columns, values, strict=True)
    ]
    return ", ".join(parts)


def safe_name(name: str) -> str:
    """A column or metric name usable in a file name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)


# --------------------------------------------------------------------------- #
# Units and number formats
# --------------------------------------------------------------------------- #

#: Format specifications per unit (`format`'s mini-language).
UNIT_FORMATS: dict[str, str] = {
    "s": ",.1f",
    "ratio": ",.2f",
    "fraction": ".4f",
    "jobs": ",.0f",
    "count": ",.0f",
    "sessions": ",.0f",
    "cores": ",.1f",
    "days": ",.2f",
    "jobs/day": ",.2f",
    "jobs/session": ",.2f",
    "core s^2": ".4e",
}

#: `Result.summary` entries: (unit, format). Times are in seconds (window
#: bounds on the trace's clock); slowdowns and xfactors are ratios (no unit);
#: weighted sums (seed 004) are in core seconds x seconds.
SUMMARY_METRICS: dict[str, tuple[str, str]] = {
    "jobs": ("jobs", ",.0f"),
    "excluded_warmup": ("jobs", ",.0f"),
    "excluded_cooldown": ("jobs", ",.0f"),
    "window_start": ("s", ",.0f"),
    "window_end": ("s", ",.0f"),
    "mean_wait": ("s", ",.1f"),
    "max_wait": ("s", ",.1f"),
    "mean_bounded_slowdown": ("ratio", ",.2f"),
    "max_bounded_slowdown": ("ratio", ",.2f"),
    "mean_slowdown": ("ratio", ",.2f"),
    "mean_turnaround": ("s", ",.1f"),
    "mean_xfactor": ("ratio", ",.2f"),
    "utilization": ("fraction", ".4f"),
    "makespan": ("s", ",.1f"),
    "throughput_per_day": ("jobs/day", ",.2f"),
    "mean_queue_length": ("jobs", ",.2f"),
    "weighted_completion_time": ("core s^2", ".4e"),
    "weighted_flow_time": ("core s^2", ".4e"),
    "killed_at_limit": ("jobs", ",.0f"),
    "killed": ("jobs", ",.0f"),
    "suspensions": ("count", ",.0f"),
    "unfinished": ("jobs", ",.0f"),
    # closed-loop runs (schedsim.model.sessions.closed_loop_summary)
    "days": ("days", ",.2f"),
    "daily_throughput": ("jobs/day", ",.2f"),
    "horizon_utilization": ("fraction", ".4f"),
    "sessions": ("sessions", ",.0f"),
    "jobs_per_session": ("jobs/session", ",.2f"),
    "aborts_by_response": ("sessions", ",.0f"),
    "abort_share": ("fraction", ".4f"),
    "jobs_after_horizon": ("jobs", ",.0f"),
}

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
    "attempts": "count",
}

_PREFIXES = ("mean_", "max_", "min_", "median_", "total_")


def unit_of(metric: str) -> str:
    """The unit of a summary metric or jobs column ("" when unknown).

    ``s`` (seconds), ``ratio`` (no unit: slowdowns, xfactors), ``fraction``
    (utilization), ``jobs/day`` (throughput), ``jobs``, ``count``...
    """
    if metric in SUMMARY_METRICS:
        return SUMMARY_METRICS[metric][0]
    if metric in JOB_UNITS:
        return JOB_UNITS[metric]
    for prefix in _PREFIXES:
        if metric.startswith(prefix) and metric[len(prefix) :] in JOB_UNITS:
            return JOB_UNITS[metric[len(prefix) :]]
    return ""


def format_of(metric: str, stat: Any = None) -> str:
    """The format specification of a metric's values (of ``stat`` of a jobs column,
    when given): counts whole, else by unit, 4 significant digits when unknown."""
    if stat in ("count", "size"):
        return ",.0f"
    if stat is None and metric in SUMMARY_METRICS:
        return SUMMARY_METRICS[metric][1]
    return UNIT_FORMATS.get(unit_of(metric), ".4g")


def format_number(value: Any, spec: str) -> str:
    """``value`` in format ``spec``; "-" when missing, "inf" as such, text as is."""
    if isinstance(value, str):
        return value
    if key(value) is NA:
        return "-"
    v = float(value)
    if math.isinf(v):
        return str(v)
    return format(v, spec)
