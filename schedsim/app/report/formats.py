"""How a report writes values: numbers, group names, file names, units and CSV headers.

One number format per quantity, wherever it is printed (``schedsim run``,
``schedsim compare``, ``schedsim report``): `format_value` writes a value of
a metric in the style of its unit (`STYLES`), in the unit it is stored in
(one unit per quantity: `quantities.unit_of`):

* times in seconds, whole, with thousands separators: ``12,345``;
* slowdowns, xfactors and other ratios with 3 significant digits:
  ``1.00``, ``9.72``, ``88.7``, ``4,940``;
* utilizations and other fractions with three decimals: ``0.617``
  (fraction: the number summary.json and the CSV files hold, not a
  percentage);
* counts whole (``2,000`` jobs), means of counts with 3 significant digits
  (a mean queue length of ``5.61`` jobs), rates with one decimal
  (``83.5`` jobs/day), weighted sums in scientific notation.

Configuration values and labels (a load factor, a policy's name) are
written as they are (`fmt`). The CSV files keep full-precision numbers in
the same units (a utilization as a fraction) and carry the unit in their
column names (`with_units`: ``mean_wait (s)``, ``utilization (fraction)``).
"""

from __future__ import annotations

import math
import numbers
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from schedsim.app.report.quantities import JOB_UNITS, STATS, SUMMARY_UNITS, unit_of

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "JOB_UNITS",
    "NA",
    "STYLES",
    "SUMMARY_UNITS",
    "column_header",
    "fmt",
    "format_in",
    "format_styled",
    "format_value",
    "group_name",
    "key",
    "metric_column_unit",
    "safe_name",
    "shown_unit",
    "significant",
    "style_of",
    "unit_of",
    "with_units",
]


class _Missing:
    """Stands for NaN/None in grouping keys: NaN != NaN, but all missing values are one group."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<NA>"


#: The grouping key of every missing value (None, NaN, pandas NA).
NA = _Missing()


def key(value: Any) -> Any:
    """A hashable grouping key for a cell value, with every kind of missing value as `NA`."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return NA
    return NA if value is getattr(sys.modules.get("pandas"), "NA", NA) else value  # pd.NA


def fmt(value: Any) -> str:
    """A configuration value or label as a report prints it: 4 significant digits,
    large values whole (a metric's values go through `format_value` instead)."""
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
# Number formats
# --------------------------------------------------------------------------- #

#: How the values of each unit are written.
STYLES: dict[str, str] = {
    "s": "whole",
    "ratio": "sig3",
    "fraction": "fixed3",
    "%": "fixed1",
    "jobs": "whole",
    "count": "whole",
    "sessions": "whole",
    "nodes": "whole",
    "users": "whole",
    "cores": "fixed1",
    "days": "fixed1",
    "jobs/day": "fixed1",
    "jobs/session": "sig3",
    "core s^2": "sci3",
    "core h": "whole",
    "h": "fixed1",
}

#: Units of counts: their means and medians are no longer whole.
_COUNTS = {"jobs", "count", "sessions", "nodes", "users"}


def significant(value: float, digits: int = 3) -> str:
    """``value`` rounded to ``digits`` significant digits, never in scientific notation,
    with thousands separators: 3 digits give ``1.00``, ``9.72``, ``88.7``, ``4,940``."""
    if value == 0 or not math.isfinite(value):
        return f"{value:.{digits - 1}f}" if value == 0 else str(value)
    rounded = float(f"{value:.{digits}g}")  # rounding may carry: 9.996 -> 10.0
    exponent = math.floor(math.log10(abs(rounded)))
    return f"{rounded:,.{max(0, digits - 1 - exponent)}f}"


def style_of(metric: str, stat: Any = None, unit: str | None = None) -> str:
    """The style of ``metric``'s values (of ``stat`` of a jobs column, when given; in
    ``unit`` when given, else the metric's): ``whole``, ``sig3``, ``fixed1``,
    ``fixed3``, ``sci3``, or ``sig4`` for an unknown unit."""
    if stat in ("count", "size"):
        return "whole"  # a number of jobs
    unit = unit_of(metric) if unit is None else unit
    style = STYLES.get(unit, "sig4")
    if unit in _COUNTS:
        averaged = stat not in (None, "max", "min", "sum") or metric.startswith("mean_")
        if averaged:
            return "sig3"
    return style


def format_styled(value: Any, style: str) -> str:
    """``value`` written in ``style`` (`style_of`); "-" when missing, text as is."""
    if isinstance(value, str):
        return value
    if key(value) is NA:
        return "-"
    v = float(value)
    if math.isinf(v):
        return str(v)
    if style == "whole":
        return f"{v:,.0f}"
    if style == "sig3":
        return significant(v, 3)
    if style == "fixed1":
        return f"{v:,.1f}"
    if style == "fixed3":
        return f"{v:,.3f}"
    if style == "sci3":
        return f"{v:.2e}"
    return significant(v, 4)


def format_value(value: Any, metric: str, stat: Any = None) -> str:
    """A value of ``metric`` (of ``stat`` of a jobs column) as every table writes it, in
    its one unit (`quantities.unit_of`: a utilization as a fraction)."""
    return format_styled(value, style_of(metric, stat))


def format_in(value: Any, unit: str) -> str:
    """A value in ``unit`` (stored), written in that unit's style."""
    return format_styled(value, STYLES.get(unit, "sig4"))


def shown_unit(metric: str, stat: Any = None) -> str:
    """The unit of ``metric`` (of ``stat`` of a jobs column): ``fraction`` for a
    utilization, ``jobs`` for a count."""
    return "jobs" if stat in ("count", "size") else unit_of(metric)


# --------------------------------------------------------------------------- #
# CSV headers
# --------------------------------------------------------------------------- #


def column_header(name: str, unit: str) -> str:
    """A CSV column name with its stored unit: ``mean_wait (s)``; as is without one."""
    return f"{name} ({unit})" if unit else name


def with_units(frame: pd.DataFrame, unit: Callable[[str], str]) -> pd.DataFrame:
    """``frame`` with every column named with its unit (``unit(column)``, "" for none),
    for a CSV file: the values stay as they are (stored units, full precision)."""
    return frame.rename(columns={c: column_header(str(c), unit(str(c))) for c in frame.columns})


def metric_column_unit(metrics: Sequence[str]) -> Callable[[str], str]:
    """`with_units`' ``unit`` for tables of ``metrics`` and their statistics
    (``<metric>``, ``<metric>_mean``, ``<metric>_ci_low``...): their unit; the
    other columns (configuration, counts of runs) have none."""
    units: dict[str, str] = {}
    for m in metrics:
        units[m] = unit_of(m)
        for st in STATS:
            units[f"{m}_{st}"] = unit_of(m)
    return lambda column: units.get(column, "")
