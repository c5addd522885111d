"""The files of a study report: which tables (CSV) and figures (PNG, SVG), under which names.

`write_report` writes what ``schedsim report DIR`` writes for a study (see
`StudyResults.write` for the list); `category_spec` reads which per-category
tables a study asks for. The tables come from `StudyResults` (`statistics`),
the figures from `plots`; this module only chooses and names them. A paper's own
files (``[report] paper = NAME``, and Feitelson & Shmueli's (2009) Figures 5 and 6
for ``[report] closed_loop``) come from its package in `schedsim.papers`, found by
name (`paper_analysis`): the papers sit above this layer.

Every CSV file keeps full-precision numbers in their stored units (a
utilization as a fraction) and names each column of a quantity with its
unit (`formats.with_units`): ``mean_wait_mean (s)``, ``utilization (fraction)``,
``value_mean (%)`` for percent changes; configuration columns, labels and
counts of runs (``n``) keep their plain names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pandas as pd

from schedsim.app.report.formats import metric_column_unit, safe_name, with_units
from schedsim.app.report.plots import save_figures
from schedsim.app.report.quantities import comparison_unit, unit_of
from schedsim.app.report.reading import as_list
from schedsim.app.study import CATEGORY_KEYS, paper_analyses

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "CATEGORY_METRICS",
    "CATEGORY_STATS",
    "CLOSED_LOOP_PAPER",
    "Study",
    "category_spec",
    "paper_analysis",
    "write_report",
]

#: Per-category statistics a report writes unless told otherwise (Kettimuthu 2003:
#: the average and the worst case of the bounded slowdown and the turnaround time).
CATEGORY_METRICS: tuple[str, ...] = ("bounded_slowdown", "turnaround")
CATEGORY_STATS: tuple[str, ...] = ("mean", "max")
#: The paper whose ``closed_loop_figures`` (its Figures 5 and 6) ``[report] closed_loop`` adds.
CLOSED_LOOP_PAPER = "feitelson2009"


class Study(Protocol):
    """What a report reads of a study's results: `StudyResults` is one. A protocol, so
    that this module, which `StudyResults.write` calls, does not import it back."""

    directory: Path
    name: str
    report_defaults: dict[str, Any]
    metrics: list[str]
    runs: pd.DataFrame
    failures: pd.DataFrame

    @property
    def done(self) -> pd.DataFrame: ...

    @property
    def counts(self) -> dict[str, int]: ...

    def aggregate(self, *args: Any, **kwargs: Any) -> pd.DataFrame: ...

    def ratio_table(self, *args: Any, **kwargs: Any) -> pd.DataFrame: ...

    def category_summary(self, *args: Any, **kwargs: Any) -> pd.DataFrame: ...

    def plot(self, *args: Any, **kwargs: Any) -> Figure: ...

    def category_plot(self, *args: Any, **kwargs: Any) -> Figure: ...


def _value_columns_in(unit: str) -> Callable[[str], str]:
    """The unit of a ratio table's columns: ``unit`` for its ``value_*`` columns."""
    return lambda column: unit if column.startswith("value_") else ""


def _no_unit(column: str) -> str:
    return ""


def _category_unit(metrics: Sequence[str], stats: Sequence[str]) -> Callable[[str], str]:
    """`with_units`' ``unit`` for a `category_summary` table: ``<stat>_<metric>`` and its
    interval in the metric's unit (a job count for the count statistics)."""
    units: dict[str, str] = {}
    for m in metrics:
        for st in stats:
            unit = "jobs" if st in ("count", "size") else unit_of(m)
            for end in ("", "_ci_low", "_ci_high"):
                units[f"{st}_{m}{end}"] = unit
    return lambda column: units.get(column, "")


def category_spec(value: bool | Mapping[str, Any] | None) -> dict[str, list[str]] | None:
    """The per-category tables asked for: None (none), or every key of
    `schedsim.app.study.CATEGORY_KEYS` with its list (True: the defaults)."""
    if value is None or value is False:
        return None
    spec: dict[str, list[str]] = {
        "schemes": ["16"],
        "estimates": ["all"],
        "metrics": list(CATEGORY_METRICS),
        "stats": list(CATEGORY_STATS),
    }
    if value is True:
        return spec
    if not isinstance(value, Mapping):
        raise ValueError(f"categories must be true, false or a table, got {value!r}")
    for key, items in value.items():
        allowed = CATEGORY_KEYS.get(key, ())
        chosen = [str(v) for v in as_list(items) or []]
        bad = [v for v in chosen if allowed is not None and v not in allowed]
        if key not in CATEGORY_KEYS or not chosen or bad:
            known = ", ".join(f"{k} ({', '.join(v or ('...',))})" for k, v in CATEGORY_KEYS.items())
            raise ValueError(f"categories.{key}: expected a list of {known}; got {items!r}")
        spec[key] = chosen
    return spec


def paper_analysis(name: str) -> Any:
    """The module that reports a study the way paper ``name`` does (`paper_analyses`)."""
    import importlib

    known = paper_analyses()
    if name not in known:
        raise ValueError(f"no analysis of a paper named {name!r} (known: {', '.join(known)})")
    return importlib.import_module(known[name])


def write_report(
    results: Study,
    out: Path,
    metrics: Sequence[str],
    xs: Sequence[str],
    baseline: Any,
    kind: str,
    spec: Mapping[str, Sequence[str]] | None,
) -> dict[str, list[Path]]:
    """Write a study's report into ``out`` (created), arguments resolved: the metrics,
    the x columns of the plots (``["none"]``: no such plots; empty: bar charts), the
    baseline (None: no ratios), the kind and the per-category spec (`category_spec`).
    Returns the paths written, as ``{"tables": [...], "plots": [...]}``."""
    out.mkdir(parents=True, exist_ok=True)
    tables: list[Path] = []
    plots: list[Path] = []

    def table(frame: pd.DataFrame, name: str, unit: Callable[[str], str] = _no_unit) -> None:
        path = out / name
        with_units(frame, unit).to_csv(path, index=False)
        tables.append(path)

    table(results.aggregate(metrics), "summary.csv", metric_column_unit(metrics))
    table(results.runs, "runs.csv", metric_column_unit([*results.metrics, "wall_time"]))
    if len(results.failures):
        table(results.failures, "failures.csv")
    else:
        (out / "failures.csv").unlink(missing_ok=True)  # from an earlier report
    if baseline is not None:
        for m in metrics:
            unit = comparison_unit(kind, m)
            table(
                results.ratio_table(m, baseline, kind=kind),
                f"ratios-{safe_name(m)}.csv",
                _value_columns_in(unit),
            )

    done = results.counts["done"]
    if done and list(xs) != ["none"]:
        for m in metrics:
            columns: list[str | None] = [*xs] or [None]
            for column in columns:
                stem = safe_name(m) if column is None else f"{safe_name(m)}-vs-{safe_name(column)}"
                fig = results.plot(m, column)
                for suffix in (".png", ".svg"):
                    path = out / f"{stem}{suffix}"
                    fig.savefig(path, dpi=150)
                    plots.append(path)
                fig.clear()  # a bare Figure: no pyplot registry to close it from

    if spec is not None:
        for scheme in spec["schemes"]:
            for estimate in spec["estimates"]:
                quality = None if estimate == "all" else estimate
                stem = f"categories-{scheme}" + (f"-{estimate}" if quality else "")
                frame = results.category_summary(scheme, quality, spec["metrics"], spec["stats"])
                table(frame, f"{stem}.csv", _category_unit(spec["metrics"], spec["stats"]))
                if not done:
                    continue
                for st in spec["stats"]:
                    for m in spec["metrics"]:
                        fig = results.category_plot(m, st, scheme, quality, table=frame)
                        plots += save_figures([(f"{stem}-{safe_name(f'{st}_{m}')}", fig)], out)
    paper = results.report_defaults.get("paper")
    if paper and done:
        t, p, _ = paper_analysis(paper).write(results, out)
        tables += t
        plots += p
    closed = results.report_defaults.get("closed_loop")
    if closed and done:
        spec_cl = closed if isinstance(closed, Mapping) else {}
        figures = paper_analysis(CLOSED_LOOP_PAPER).closed_loop_figures
        t, p = figures(results, out, spec_cl.get("users"), spec_cl.get("hours"))
        tables += t
        plots += p
    return {"tables": tables, "plots": plots}
