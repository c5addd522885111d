"""Plain run folders side by side: what ``schedsim compare`` prints and writes, and what
``schedsim report`` makes of run folders.

A run folder is what ``schedsim run --out DIR`` writes
(`schedsim.app.report.reading.read_run_folder`). `RunComparison` loads several and
holds two tables, one column per run (labelled by its policy when the policies
differ, else by its folder's name):

``summary``
    The metrics of `Result.summary` (rows, with the ``warmup``/``cooldown``
    given), with a ``unit`` column (`quantities.unit_of`: seconds for waits,
    turnaround and makespan, a fraction for utilization, jobs/day for
    throughput...): `summary_comparison`.
``categories``
    Kettimuthu's (2003) per-category table, `schedsim.model.results.compare`:
    rows are the categories (16 of Table 2.1 or 4 of Table 4.1) and ``all``.

`RunComparison.write` saves them as ``compare-summary.csv`` and
``compare-categories.csv`` (full precision, in the stored units: the summary's
``unit`` column says which, and each run's column of the category table is
named with its unit, ``easy (ratio)``), with the per-category bar chart
``compare-categories.png`` (`comparison_plot`) if asked. The console shows the same
numbers in the same units (a utilization as a fraction), rounded
(`print_comparison`, with the tables of `schedsim.app.report.console` that
``schedsim run`` prints too).

Not a study's: this module uses `schedsim.app.report` (reading, formats, console),
which never imports it back.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from rich.console import Console
from rich.table import Table
from rich.text import Text

from schedsim.app.report import reading
from schedsim.app.report.console import add_column, show, summary_table
from schedsim.app.report.formats import column_header, format_value
from schedsim.app.report.plots import save_figures
from schedsim.app.report.quantities import axis_label, category_table_name, unit_of
from schedsim.app.report.statistics import check_category_request
from schedsim.model.results import Result, compare

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "RunComparison",
    "compare_folders",
    "comparison_plot",
    "print_comparison",
    "summary_comparison",
]

#: The files `RunComparison.write` writes.
SUMMARY_CSV = "compare-summary.csv"
CATEGORIES_CSV = "compare-categories.csv"
CATEGORIES_PNG = "compare-categories.png"


def summary_comparison(
    results: Mapping[str, Result], warmup: int | float = 0, cooldown: int | float = 0
) -> pd.DataFrame:
    """The summary metrics of several runs side by side.

    One row per entry of `Result.summary` (with ``warmup``/``cooldown``), in
    the order of the first run that has it (index ``metric``); one column per
    run, named by its key in ``results``, holding the values as the summary
    gives them (counts as ints). A metric a run lacks (a closed-loop entry beside an
    open-loop run) is NaN there.
    """
    if not results:
        raise ValueError("summary_comparison needs at least one result")
    summaries = {name: r.summary(warmup, cooldown) for name, r in results.items()}
    metrics = list(dict.fromkeys(k for s in summaries.values() for k in s))
    # Object columns: counts stay whole numbers (300, not 300.0) in the CSV.
    index = pd.Index(metrics, name="metric")
    columns = {
        str(name): pd.Series([_number(s.get(m)) for m in metrics], index=index, dtype=object)
        for name, s in summaries.items()
    }
    out = pd.DataFrame(columns, index=index)
    out.columns.name = "run"
    return out


def _number(value: Any) -> int | float:
    """A summary entry as a cell: whole counts stay ints, None (and anything not a
    number) is NaN."""
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)):
        return float(value)
    return math.nan


@dataclass(frozen=True, repr=False)
class RunComparison:
    """Several runs side by side (see the module docstring).

    Build with `RunComparison.load` from run folders, or directly from
    ``results`` (label -> `Result`) and ``folders`` (label -> where it came
    from). ``metric`` (a jobs column), ``stat``, ``scheme`` (``"16"`` or
    ``"4"``) and ``estimate`` (None, ``"well"`` or ``"poor"``) choose the
    per-category table; ``warmup``/``cooldown`` (a job count or a fraction)
    apply to both tables.
    """

    results: dict[str, Result]
    folders: dict[str, Path] = field(default_factory=dict)
    metric: str = "bounded_slowdown"
    stat: str = "mean"
    scheme: str = "16"
    estimate: str | None = None
    warmup: int | float = 0
    cooldown: int | float = 0

    def __post_init__(self) -> None:
        if not self.results:
            raise ValueError("nothing to compare: no run given")
        check_category_request(self.scheme, self.estimate)

    def __repr__(self) -> str:
        return f"RunComparison({', '.join(self.results)})"

    @classmethod
    def load(
        cls,
        folders: Iterable[str | Path],
        metric: str = "bounded_slowdown",
        stat: str = "mean",
        scheme: str = "16",
        estimate: str | None = None,
        warmup: int | float = 0,
        cooldown: int | float = 0,
    ) -> RunComparison:
        """Read run folders (`reading.read_run_folders`; ValueError naming a folder that is
        not one) and compute both tables, so that a bad option fails here."""
        paths = [Path(p) for p in folders]
        results = reading.read_run_folders(paths)
        comparison = cls(
            results,
            dict(zip(results, paths, strict=True)),
            metric,
            stat,
            scheme,
            estimate,
            warmup,
            cooldown,
        )
        # Computed now, so that a bad warmup, cooldown, metric or stat fails here.
        _ = (comparison.summary, comparison.categories)
        return comparison

    # ---- tables -------------------------------------------------------------

    @cached_property
    def summary(self) -> pd.DataFrame:
        """Metrics (index ``metric``) x [``unit``, runs...] (`summary_comparison`)."""
        table = summary_comparison(self.results, self.warmup, self.cooldown)
        table.insert(0, "unit", [unit_of(str(m)) for m in table.index])
        return table

    @cached_property
    def categories(self) -> pd.DataFrame:
        """Categories and ``all`` (index ``category``) x runs: Kettimuthu's per-category
        table of each run, `schedsim.model.results.compare`."""
        return compare(
            self.results,
            self.metric,
            self.stat,
            self.scheme,
            self.estimate,
            self.warmup,
            self.cooldown,
        )

    @property
    def category_unit(self) -> str:
        """The unit of the per-category values as stored: jobs for a count, else the
        metric's."""
        return "jobs" if self.stat in ("count", "size") else unit_of(self.metric)

    def category_title(self) -> str:
        """What the per-category table holds, in words, with its unit."""
        unit = self.category_unit
        what = f"{self.stat} {self.metric}" + (f" ({unit})" if unit else "")
        if self.estimate is not None:
            what += f", {self.estimate}-estimated jobs"
        return f"Per category ({category_table_name(self.scheme)}): {what}"

    def check_metrics(self, metrics: Sequence[str] | None) -> list[str] | None:
        """``metrics`` if every one is a row of `summary`; ValueError naming the rows else."""
        if metrics is None:
            return None
        unknown = [m for m in metrics if m not in self.summary.index]
        if unknown:
            raise ValueError(
                f"unknown metric(s) {unknown}; the runs have {', '.join(self.summary.index)}"
            )
        return list(metrics)

    # ---- output -------------------------------------------------------------

    def print(self, console: Console, metrics: Sequence[str] | None = None) -> None:
        """`print_comparison`: the runs, the summary (``metrics`` only, if given)
        and the per-category table."""
        print_comparison(console, self, self.check_metrics(metrics))

    def plot(self, title: str = "") -> Figure:
        """The per-category bar chart (`comparison_plot`), one bar per run."""
        return comparison_plot(
            self.categories,
            self.metric,
            self.stat,
            self.category_unit,
            self.scheme,
            self.estimate,
            title,
        )

    def write(
        self, out_dir: str | Path, plot: bool = False, metrics: Sequence[str] | None = None
    ) -> dict[str, list[Path]]:
        """Write ``compare-summary.csv`` (``metrics`` only, if given) and
        ``compare-categories.csv`` into ``out_dir``, and ``compare-categories.png`` if
        ``plot``; returns the paths, as ``{"tables": [...], "plots": [...]}``."""
        summary = self.summary
        metrics = self.check_metrics(metrics)
        if metrics is not None:
            summary = summary.loc[metrics]
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        written: dict[str, list[Path]] = {"tables": [], "plots": []}
        # The summary's unit column names each row's unit; the category table holds one
        # quantity, whose unit each run's column carries.
        unit = self.category_unit
        categories = self.categories.rename(columns=lambda run: column_header(str(run), unit))
        for frame, name in ((summary, SUMMARY_CSV), (categories, CATEGORIES_CSV)):
            path = out / name
            frame.to_csv(path)
            written["tables"].append(path)
        if plot:
            written["plots"] += save_figures([(CATEGORIES_PNG[: -len(".png")], self.plot())], out)
        return written


def compare_folders(
    console: Console,
    folders: Iterable[str | Path],
    out_dir: str | Path | None = None,
    plot: bool = False,
    metrics: Sequence[str] | None = None,
    **options: Any,
) -> dict[str, list[Path]]:
    """What ``schedsim compare`` and ``schedsim report`` do with run folders: load them
    (`RunComparison.load` with ``options``), print both tables (the summary's
    ``metrics`` only, if given), and write them into ``out_dir`` if given (with
    the bar chart if ``plot``). Returns the paths written."""
    comparison = RunComparison.load(folders, **options)
    comparison.print(console, metrics)
    if out_dir is None:
        return {"tables": [], "plots": []}
    return comparison.write(out_dir, plot, metrics)


def print_comparison(
    console: Console, comparison: RunComparison, metrics: Sequence[str] | None = None
) -> None:
    """Print plain runs side by side: one line per run (its label, folder, policy,
    workload, machine and random seed), the summary table (``metrics`` only, if
    given; a unit column, one number format per metric) and the per-category table."""
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
        console.print(line, soft_wrap=True)

    summary = comparison.summary
    if metrics is not None:
        summary = summary.loc[list(metrics)]
    runs = list(comparison.results)
    trimmed = ""
    if comparison.warmup or comparison.cooldown:
        trimmed = f" (warmup {comparison.warmup}, cooldown {comparison.cooldown})"
    values = {run: summary[run].to_dict() for run in runs}
    show(console, summary_table(values, f"Summary{trimmed}"))

    table = Table(title=comparison.category_title())
    add_column(table, "category")
    for run in runs:
        add_column(table, run, right=True)
    metric, stat = comparison.metric, comparison.stat
    for category, row in comparison.categories.iterrows():
        table.add_row(str(category), *(format_value(row[run], metric, stat) for run in runs))
    show(console, table)


def comparison_plot(
    table: pd.DataFrame,
    metric: str,
    stat: str,
    unit: str = "",
    scheme: str = "16",
    estimate: str | None = None,
    title: str = "",
    log: bool | None = None,
) -> Figure:
    """Plain runs side by side: per category (rows of ``table``, as
    `RunComparison.categories` gives them, ``all`` included) a bar for
    each run (its columns).

    The y axis names ``stat``, ``metric`` and ``unit`` (the values' unit: a
    utilization is a fraction); ``log`` None: a log axis when the
    positive values span more than two decades. An empty category has no bar.
    """
    from matplotlib.figure import Figure

    categories = [str(c) for c in table.index]
    runs = [str(c) for c in table.columns]
    values = table.to_numpy(dtype=float)
    if log is None:
        positive = values[np.isfinite(values) & (values > 0)]
        log = bool(len(positive)) and positive.max() > 100 * positive.min()
    many = len(categories) > 5
    fig = Figure(figsize=(10.0 if many else 7.0, 4.8), layout="constrained")
    ax = fig.add_subplot()
    step = 0.8 / max(len(runs), 1)
    xs = np.arange(len(categories), dtype=float)
    for j, run in enumerate(runs):
        ax.bar(xs - 0.4 + step * (j + 0.5), values[:, j], width=step, label=run)
    ax.set_xticks(xs, categories, rotation=45 if many else 0, ha="right" if many else "center")
    if "all" in categories:
        # The overall value is no category: set it apart.
        ax.axvline(categories.index("all") - 0.5, color="grey", linewidth=0.8, linestyle=":")
    if log:
        ax.set_yscale("log")
    ax.set_xlabel(f"job category (run time x processors, {category_table_name(scheme)})")
    what = f"{stat} {metric.replace('_', ' ')}"
    ax.set_ylabel(axis_label(what, unit))
    if estimate is not None:
        what += f", {estimate}-estimated jobs"
    ax.set_title(f"{title}: {what} per category" if title else f"{what} per category")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize="small", title="run")
    return fig
