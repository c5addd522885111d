"""The console report (rich tables): what ``schedsim run`` and ``schedsim report`` print,
and the run tables ``schedsim compare`` prints too.

`print_report`
    A study: a header line, a warning when the study has too few
    replications for confidence intervals, the aggregate table (mean and
    confidence interval, and n), the ratio table when there is a baseline,
    and the failures.
`summary_table`, `category_stats_table`
    The tables of one or several runs, shared by ``schedsim run`` and
    ``schedsim compare`` (`schedsim.app.compare.print_comparison`) so that a number
    reads the same in both.

Every value is written by `formats.format_value` (one format per quantity)
and every column of a quantity names its unit. `show` prints a table whose
title is wider than the table itself with the title on a line of its own
(rich would wrap it over the table's width), and cells fold rather than
being cut short on a narrow terminal; piped, the command line's console is
wide enough for every row to stay on one line
(`schedsim.app.cli.make_console`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from schedsim.app.report.formats import fmt, format_in, format_value, shown_unit
from schedsim.app.report.quantities import (
    bounds_of,
    category_table_name,
    comparison_bounds,
    comparison_unit,
    config_unit,
    was_cut,
)

if TYPE_CHECKING:
    from schedsim.app.report.study_results import StudyResults

__all__ = [
    "CUT_NOTE",
    "add_column",
    "category_stats_table",
    "interval_text",
    "print_report",
    "show",
    "summary_table",
]

#: What each kind of comparison computes, as the ratio table's title says it.
_SENSE: dict[str, str] = {
    "R": "(baseline - other) / min: positive = other lower",
    "ratio": "other / baseline",
    "percent": "100 (other - baseline) / baseline",
    "difference": "other - baseline",
}

#: Printed under a table one of whose intervals was cut at its quantity's range.
CUT_NOTE = (
    "Intervals are Student t intervals cut at the range of their quantity (a slowdown "
    "is at least 1, a time at least 0, a utilization within 0-1, a percent change "
    "at least -100); a bound at the end of that range was cut there."
)


def show(console: Console, table: Table) -> None:
    """Print ``table``; a title wider than the table goes on a line of its own above it.

    Rich wraps a title to its table's width, which breaks a long title over
    several lines above a narrow table (and widening the table to the title
    would pad every column).
    """
    title = table.title
    if isinstance(title, str) and title:
        width = Measurement.get(console, console.options, table).maximum
        if cell_len(title) > width:
            table.title = None
            console.print(Text(title, style="table.title"), soft_wrap=True)
    console.print(table)


def add_column(table: Table, header: str, right: bool = False) -> None:
    """Add a column that folds its cells (right-aligned for numbers when ``right``)."""
    # fold: on a narrow terminal a cell wraps instead of losing its end to an ellipsis.
    table.add_column(header, justify="right" if right else "left", overflow="fold")


def _config_header(column: str) -> str:
    """A configuration column's header, with its unit where that says something."""
    unit = config_unit(column)
    return f"{column} ({unit})" if unit else column


def interval_text(mean: float, low: float, high: float, write: Callable[[Any], str]) -> str:
    """``mean [low, high]``, each written by ``write``; the mean alone without an interval.

    Not ``mean ± half-width``: an interval cut at its quantity's range (see
    `statistics`) is no longer symmetric about the mean.
    """
    if not (math.isfinite(low) and math.isfinite(high)):
        return write(mean)
    return f"{write(mean)} [{write(low)}, {write(high)}]"


def print_report(
    console: Console,
    results: StudyResults,
    metrics: str | Iterable[str] | None = None,
    baseline: Any = None,
    kind: str | None = None,
    confidence: float = 0.95,
) -> None:
    """Print a study's report: a header line, a warning when the study has fewer than
    3 replications, the aggregate table (mean and confidence interval of each
    metric, and n), the ratio table when there is a baseline (``kind`` of each
    metric, per other label and scenario), and the failures.

    ``metrics``, ``baseline`` and ``kind`` default to the study's ``report``
    defaults, as in `StudyResults.write`. Without a finished run it says so (the
    metrics come from the finished runs, so none can be checked or shown).
    """
    counts = results.counts

    header = Text()
    header.append(results.name, style="bold")
    if results.version:
        header.append(f" (schedsim {results.version})")
    header.append(f": {len(results.runs)} runs, ")
    header.append(f"{counts['done']} done", style="green")
    header.append(", ")
    header.append(f"{counts['failed']} failed", style="red" if counts["failed"] else "")
    header.append(f", {counts['missing']} missing")
    console.print(header)
    warning = results.replication_warning()
    if warning is not None:
        console.print(Text(f"warning: {warning}", style="yellow"), soft_wrap=True)

    if counts["done"] == 0:
        console.print("No finished runs yet.")
    else:
        metrics, baseline, kind = results._with_defaults(metrics, baseline, kind)
        cut = _print_aggregate(console, results, metrics, confidence)
        if baseline is not None:
            cut |= _print_ratios(console, results, metrics, baseline, kind, confidence)
        if cut:
            console.print(CUT_NOTE, soft_wrap=True, highlight=False)

    if len(results.failures):
        failed = Table(title=f"Failed runs ({len(results.failures)})")
        add_column(failed, "label")
        add_column(failed, "replication", right=True)
        add_column(failed, "error")
        for _, row in results.failures.iterrows():
            error = (str(row["error"]).splitlines() or [""])[0]
            failed.add_row(Text(str(row["label"])), Text(fmt(row["replication"])), Text(error))
        show(console, failed)
        console.print(f"Tracebacks: {results.directory / 'failures'}", soft_wrap=True)


def _print_aggregate(
    console: Console, results: StudyResults, metrics: Sequence[str], confidence: float
) -> bool:
    """The aggregate table; whether an interval in it was cut at its range."""
    agg = results.aggregate(metrics, confidence=confidence)
    group = list(agg.columns[: agg.columns.get_loc("n")])
    summary = Table(title=f"Mean [{confidence:.0%} confidence interval] over replications")
    for c in group:
        add_column(summary, _config_header(c))
    add_column(summary, "n (runs)", right=True)
    for m in metrics:
        add_column(summary, f"{m} ({shown_unit(m)})" if shown_unit(m) else m, right=True)
    cut = False
    for _, row in agg.iterrows():
        cells = [Text(fmt(row[c])) for c in group] + [Text(fmt(row["n"]))]
        for m in metrics:
            low, high = row[f"{m}_ci_low"], row[f"{m}_ci_high"]
            cut |= was_cut(low, high, bounds_of(m))
            text = interval_text(
                row[f"{m}_mean"], low, high, functools.partial(format_value, metric=m)
            )
            cells.append(Text(text))
        summary.add_row(*cells)
    show(console, summary)
    return cut


def _print_ratios(
    console: Console,
    results: StudyResults,
    metrics: Sequence[str],
    baseline: Any,
    kind: str,
    confidence: float,
) -> bool:
    """The ratio table; whether an interval in it was cut at its range."""
    ratios = [results.ratio_table(m, baseline, kind=kind, confidence=confidence) for m in metrics]
    if not (ratios and len(ratios[0])):
        console.print(f"No pairs of finished runs to compare with {fmt(baseline)}.")
        return False
    # Pairs and groups do not depend on the metric: the tables align row by row.
    first = ratios[0]
    keys = [c for c in first.columns if not c.startswith("value_") and c != "n"]
    ratio = Table(
        title=f"{kind} against {fmt(baseline)}: {_SENSE[kind]} (mean [{confidence:.0%} "
        "confidence interval] over replications)"
    )
    for c in keys:
        add_column(ratio, _config_header(c))
    add_column(ratio, "n (pairs)", right=True)
    for m in metrics:
        unit = comparison_unit(kind, m)
        add_column(ratio, f"{m} ({unit})" if unit else m, right=True)
    cut = False
    for i in range(len(first)):
        cells = [Text(fmt(first[c].iloc[i])) for c in keys]
        cells.append(Text(fmt(first["n"].iloc[i])))
        for m, frame in zip(metrics, ratios, strict=True):
            low, high = frame["value_ci_low"].iloc[i], frame["value_ci_high"].iloc[i]
            cut |= was_cut(low, high, comparison_bounds(kind, m))
            unit = comparison_unit(kind, m)

            def write(v: Any, m: str = m, unit: str = unit) -> str:
                return format_value(v, m) if kind == "difference" else format_in(v, unit)

            cells.append(Text(interval_text(frame["value_mean"].iloc[i], low, high, write)))
        ratio.add_row(*cells)
    show(console, ratio)
    return cut


def summary_table(summaries: Mapping[str, Mapping[str, Any]], title: str = "Summary") -> Table:
    """The summary metrics of one or several runs (run -> `Result.summary`), one column
    per run: the metric, its unit, and each run's value in the metric's one format (a
    utilization as a fraction, as summary.json holds it). A metric a run lacks is "-"."""
    runs = list(summaries)
    metrics = list(dict.fromkeys(m for s in summaries.values() for m in s))
    table = Table(title=title)
    add_column(table, "metric")
    add_column(table, "unit")
    for run in runs:
        add_column(table, run, right=True)
    for metric in metrics:
        cells = [format_value(summaries[run].get(metric, math.nan), metric) for run in runs]
        table.add_row(metric, shown_unit(metric) or "-", *cells)
    return table


#: Short names of the metrics of `Result.category_stats`, for its table's headers.
_SHORT = {"bounded_slowdown": "bsld"}


def category_stats_table(records: Sequence[Mapping[str, Any]], scheme: str = "16") -> Table:
    """`Result.category_records` as ``schedsim run`` prints it: per category the jobs,
    then the mean and maximum of each metric, each header with its unit."""
    metrics = [str(c)[: -len("_mean")] for c in records[-1] if str(c).endswith("_mean")]
    names = " and ".join(
        f"{m.replace('_', ' ')} ({_SHORT[m]})" if m in _SHORT else m.replace("_", " ")
        for m in metrics
    )
    table = Table(title=f"Per category ({category_table_name(scheme)}): {names}")
    add_column(table, "category")
    add_column(table, "jobs", right=True)
    columns: list[tuple[str, str, str]] = [("count", "", "count")]
    for m in metrics:
        for st in ("mean", "max"):
            unit = shown_unit(m)
            add_column(table, f"{st} {_SHORT.get(m, m)} ({unit})", right=True)
            columns.append((f"{m}_{st}", m, st))
    for row in records:
        cells = [format_value(row[c], metric or "jobs", st) for c, metric, st in columns]
        table.add_row(str(row["category"]), *cells)
    return table
