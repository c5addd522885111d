"""The console report (rich tables): what ``schedsim report`` and ``schedsim compare`` print.

`print_report`
    A study: a header line, the aggregate table (mean ± half-width of the
    confidence interval, and n), the ratio table when there is a baseline,
    and the failures.
`print_comparison`
    Plain run folders side by side: which run is which, the summary metrics
    with their units, and seed 000's per-category table, one column per run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from schedsim.app.report.formats import fmt, format_number, format_of

if TYPE_CHECKING:
    from schedsim.app.report.comparison import RunComparison
    from schedsim.app.report.study_results import StudyResults

__all__ = ["plus_minus", "print_comparison", "print_report"]

#: What each kind of comparison computes, as the ratio table's title says it.
_SENSE: dict[str, str] = {
    "R": "(baseline - other) / min: positive = other lower",
    "ratio": "other / baseline",
    "percent": "100 (other - baseline) / baseline",
    "difference": "other - baseline",
}


def plus_minus(mean: float, low: float, high: float) -> str:
    """``mean ± half-width`` of the interval [low, high]; the mean alone without one."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return fmt(mean)
    return f"{fmt(mean)} ± {fmt((high - low) / 2.0)}"


def print_report(
    console: Console,
    results: StudyResults,
    metrics: str | Iterable[str] | None = None,
    baseline: Any = None,
    kind: str | None = None,
    confidence: float = 0.95,
) -> None:
    """Print a study's report: a header line, the aggregate table (mean ± half-width
    of the confidence interval, and n), the ratio table when there is a baseline
    (``kind`` of each metric, per other label and scenario), and the failures.

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

    if counts["done"] == 0:
        console.print("No finished runs yet.")
    else:
        metrics, baseline, kind = results._with_defaults(metrics, baseline, kind)
        _print_aggregate(console, results, metrics, confidence)
        if baseline is not None:
            _print_ratios(console, results, metrics, baseline, kind, confidence)

    if len(results.failures):
        failed = Table(title=f"Failed runs ({len(results.failures)})")
        failed.add_column("label")
        failed.add_column("replication", justify="right")
        failed.add_column("error")
        for _, row in results.failures.iterrows():
            error = (str(row["error"]).splitlines() or [""])[0]
            failed.add_row(Text(str(row["label"])), Text(fmt(row["replication"])), Text(error))
        console.print(failed)
        console.print(f"Tracebacks: {results.directory / 'failures'}")


def _print_aggregate(
    console: Console, results: StudyResults, metrics: Sequence[str], confidence: float
) -> None:
    agg = results.aggregate(metrics, confidence=confidence)
    group = list(agg.columns[: agg.columns.get_loc("n")])
    summary = Table(title=f"Mean ± {confidence:.0%} CI half-width over replications")
    for c in group:
        summary.add_column(c)
    summary.add_column("n", justify="right")
    for m in metrics:
        summary.add_column(m, justify="right")
    for _, row in agg.iterrows():
        cells = [Text(fmt(row[c])) for c in group] + [Text(fmt(row["n"]))]
        for m in metrics:
            cells.append(
                Text(plus_minus(row[f"{m}_mean"], row[f"{m}_ci_low"], row[f"{m}_ci_high"]))
            )
        summary.add_row(*cells)
    console.print(summary)


def _print_ratios(
    console: Console,
    results: StudyResults,
    metrics: Sequence[str],
    baseline: Any,
    kind: str,
    confidence: float,
) -> None:
    ratios = [results.ratio_table(m, baseline, kind=kind, confidence=confidence) for m in metrics]
    if not (ratios and len(ratios[0])):
        console.print(f"No pairs of finished runs to compare with {fmt(baseline)}.")
        return
    # Pairs and groups do not depend on the metric: the tables align row by row.
    first = ratios[0]
    keys = [c for c in first.columns if not c.startswith("value_") and c != "n"]
    ratio = Table(title=f"{kind} against {fmt(baseline)}: {_SENSE[kind]}")
    for c in keys:
        ratio.add_column(c)
    ratio.add_column("n", justify="right")
    for m in metrics:
        ratio.add_column(m, justify="right")
    for i in range(len(first)):
        cells = [Text(fmt(first[c].iloc[i])) for c in keys]
        cells.append(Text(fmt(first["n"].iloc[i])))
        for frame in ratios:
            cells.append(
                Text(
                    plus_minus(
                        frame["value_mean"].iloc[i],
                        frame["value_ci_low"].iloc[i],
                        frame["value_ci_high"].iloc[i],
                    )
                )
            )
        ratio.add_row(*cells)
    console.print(ratio)


def print_comparison(
    console: Console, comparison: RunComparison, metrics: Sequence[str] | None = None
) -> None:
    """Print plain runs side by side: one line per run (its label, folder, policy,
    workload, machine and seed), the summary table (``metrics`` only, if given;
    a unit column, one number format per metric) and the per-category table."""
    for label, folder in comparison.folders.items():
        meta = comparison.results[label].meta
        line = Text()
        line.append(label, style="bold")
        if label != str(folder):
            line.append(f" = {folder}")
        line.append(f": {meta.get('policy', '?')} on {meta.get('workload', '?')}")
        if "nodes" in meta:
            line.append(f", {meta['nodes']} nodes x {meta.get('cores_per_node', 1)} cores")
        if "seed" in meta:
            line.append(f", seed {meta['seed']}")
        console.print(line)

    summary = comparison.summary
    if metrics is not None:
        summary = summary.loc[list(metrics)]
    runs = list(comparison.results)
    trimmed = ""
    if comparison.warmup or comparison.cooldown:
        trimmed = f" (warmup {comparison.warmup}, cooldown {comparison.cooldown})"
    table = Table(title=f"Summary{trimmed}")
    table.add_column("metric")
    table.add_column("unit")
    for run in runs:
        table.add_column(run, justify="right")
    for metric, row in summary.iterrows():
        spec = format_of(str(metric))
        cells = [format_number(row[run], spec) for run in runs]
        table.add_row(str(metric), str(row["unit"]) or "-", *cells)
    console.print(table)

    categories = comparison.categories
    spec = format_of(comparison.metric, comparison.stat)
    table = Table(title=comparison.category_title())
    table.add_column("category")
    for run in runs:
        table.add_column(run, justify="right")
    for category, row in categories.iterrows():
        table.add_row(str(category), *(format_number(row[run], spec) for run in runs))
    console.print(table)
