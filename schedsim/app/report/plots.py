"""The figures of a report, drawn from tables already computed (`statistics`).

Every figure is a bare matplotlib `Figure`, not pyplot's: nothing global to
close, and a notebook shows a returned figure once (with ``%matplotlib
inline`` or once pyplot is imported).

`metric_plot`
    A metric (mean over replications, with its confidence band) against a
    numeric configuration column, one line per group; or a bar per group.
`category_plot`
    Kettimuthu's (2003) category bar chart: per category a bar for each
    label, one panel per scenario.

Every axis names its quantity and unit (`quantities.axis_label`; a
category axis names its classification), values are drawn in their one
unit (a utilization as a fraction), and the confidence bands are the
intervals of `statistics`, cut at the quantity's range (a slowdown's band
never goes below 1). A ``note`` (the warning of a study with too few
replications) is written into the figure's title.

By default a log axis is used when the values span more than two decades
(slowdowns under FCFS and under backfilling differ that much, and a linear
axis flattens the smaller ones).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from schedsim.app.report.formats import NA, fmt, group_name, key
from schedsim.app.report.quantities import (
    axis_label,
    bounds_of,
    category_table_name,
    config_axis,
    unit_of,
    was_cut,
)
from schedsim.app.report.statistics import groups

if TYPE_CHECKING:
    from pathlib import Path

    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["category_plot", "error_bars", "metric_plot", "spans_decades"]


def spans_decades(means: np.ndarray) -> bool:
    """Whether the finite ``means`` are all positive and span more than two decades
    (`metric_plot`'s default for a log axis)."""
    means = means[np.isfinite(means)]
    return bool(len(means)) and means.min() > 0 and means.max() > 100 * means.min()


def error_bars(
    ax: Any, xs: np.ndarray, mean: np.ndarray, low: np.ndarray, high: np.ndarray, **style: Any
) -> None:
    """Black confidence-interval whiskers on bars, where the interval is known."""
    ok = np.isfinite(low) & np.isfinite(high) & np.isfinite(mean)
    if ok.any():
        ax.errorbar(
            xs[ok],
            mean[ok],
            yerr=np.vstack([mean[ok] - low[ok], high[ok] - mean[ok]]),
            fmt="none",
            ecolor="black",
            **style,
        )


# --------------------------------------------------------------------------- #
# A metric of a study
# --------------------------------------------------------------------------- #


def metric_plot(
    table: pd.DataFrame,
    metric: str,
    columns: Sequence[str],
    x: str | None = None,
    title: str = "",
    confidence: float = 0.95,
    log: bool = False,
    ax: Axes | None = None,
    note: str | None = None,
) -> Figure:
    """``metric`` of an `aggregate` table: lines against ``x``, or bars.

    With ``x``, ``table`` is aggregated by ``[*columns, x]``: one line per
    combination of ``columns``, markers at the points, the interval shaded
    where it exists; a group without ``x`` (NaN, e.g. a policy without the
    parameter) is drawn as a dashed horizontal reference; ``log`` sets a
    logarithmic y axis. With ``x=None``, ``table`` is aggregated by
    ``columns`` (``label`` first): a bar per group with interval error bars,
    one colour per label. The y axis names the metric and its unit, the x
    axis ``x`` and its unit; the title is ``title``, what the band is, and
    ``note`` (a warning) if given. Draws on ``ax`` if given; returns the Figure.
    """
    own = ax is None
    if ax is None:
        # A bare Figure, not pyplot: nothing global to close, and a notebook
        # shows the returned figure once.
        from matplotlib.figure import Figure

        fig = Figure(figsize=(7.0, 4.5), layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure  # type: ignore[assignment]  # a SubFigure is unwrapped below
        fig = getattr(fig, "figure", fig)  # a SubFigure's root Figure
    unit = unit_of(metric)
    if x is None:
        _bars(ax, table, metric, columns)
    else:
        _lines(ax, table, metric, x, columns)
        if log:
            ax.set_yscale("log")
    ax.set_ylabel(axis_label(metric.replace("_", " "), unit))
    lows = table[f"{metric}_ci_low"].to_numpy(dtype=float)
    highs = table[f"{metric}_ci_high"].to_numpy(dtype=float)
    what = "bars" if x is None else "band"
    band = f"{confidence:.0%} confidence interval as {what}"
    if not np.isfinite(lows).any():
        band = "no interval"
    elif any(was_cut(lo, hi, bounds_of(metric)) for lo, hi in zip(lows, highs, strict=True)):
        band += ", cut at the quantity's range"  # a reader would wonder why it is lopsided
    lines = [title, f"mean over replications; {band}"] if title else [f"mean; {band}"]
    if note:
        lines.append(f"warning: {note}")
    ax.set_title("\n".join(textwrap.fill(line, 80) for line in lines), fontsize="medium")
    ax.grid(True, alpha=0.3)
    names = ax.get_legend_handles_labels()[1]
    if own and (len(names) > 8 or max(map(len, names), default=0) > 40):  # below the axes:
        fig.set_figheight(4.5 + 0.2 * len(names))  # on them, they would squeeze them
        fig.legend(loc="outside lower center", fontsize="small")
    else:
        ax.legend(fontsize="small")
    return fig


def _lines(ax: Axes, table: pd.DataFrame, metric: str, x: str, lines: Sequence[str]) -> None:
    for values, pos in groups(table, lines):
        part = table.iloc[pos]
        xs = part[x].to_numpy(dtype=float)
        mean = part[f"{metric}_mean"].to_numpy(dtype=float)
        low = part[f"{metric}_ci_low"].to_numpy(dtype=float)
        high = part[f"{metric}_ci_high"].to_numpy(dtype=float)
        name = group_name(lines, values) or metric
        if np.isnan(xs).all():
            ref = ax.axhline(mean[0], linestyle="--", linewidth=1.2, label=name)
            if np.isfinite(low[0]) and np.isfinite(high[0]):
                ax.axhspan(low[0], high[0], color=ref.get_color(), alpha=0.12, linewidth=0)
            continue
        keep = np.isfinite(xs)
        order = np.argsort(xs[keep], kind="stable")
        xs, mean, low, high = (a[keep][order] for a in (xs, mean, low, high))
        (line,) = ax.plot(xs, mean, marker="o", label=name)
        band = np.isfinite(low) & np.isfinite(high)
        if band.any():
            ax.fill_between(
                xs,
                np.where(band, low, mean),
                np.where(band, high, mean),
                where=band,
                color=line.get_color(),
                alpha=0.2,
                linewidth=0,
            )
    ax.set_xlabel(axis_label(*config_axis(x)))


def _bars(ax: Axes, table: pd.DataFrame, metric: str, by: Sequence[str]) -> None:
    import matplotlib as mpl

    by = list(by)
    mean = table[f"{metric}_mean"].to_numpy(dtype=float)
    low = table[f"{metric}_ci_low"].to_numpy(dtype=float)
    high = table[f"{metric}_ci_high"].to_numpy(dtype=float)
    xs = np.arange(len(table))
    # One colour per label, so the bars of a policy match across scenarios.
    palette = mpl.rcParams["axes.prop_cycle"].by_key().get("color", ["C0"])
    colours: dict[Any, str] = {}
    for k, label in enumerate(table["label"].tolist()):
        first = key(label) not in colours
        colour = colours.setdefault(key(label), palette[len(colours) % len(palette)])
        legend = fmt(label) if first else "_nolegend_"
        ax.bar(xs[k], mean[k], color=colour, label=legend)
    error_bars(ax, xs, mean, low, high, capsize=4)
    names = [group_name(by, row) for row in table[by].itertuples(index=False, name=None)]
    crowded = len(xs) > 3
    ax.set_xticks(xs, names, rotation=30 if crowded else 0, ha="right" if crowded else "center")
    ax.set_xlabel(f"group ({', '.join(by)})")


# --------------------------------------------------------------------------- #
# Per-category bar charts
# --------------------------------------------------------------------------- #


def category_plot(
    table: pd.DataFrame,
    column: str,
    metric: str,
    stat: str,
    estimate: str | None = None,
    title: str = "",
    log: bool | None = None,
    note: str | None = None,
) -> Figure:
    """Kettimuthu's (2003) category bar chart of a `category_summary` table's
    ``column`` (``<stat>_<metric>``): per category a bar for each label.

    One panel per scenario (each combination of the group columns other than
    ``label``), so each panel reads like one of the paper's figures; a label
    keeps its colour in every panel; the confidence interval as error bars
    where there is one. ``log`` None: a log axis when the positive values span
    more than two decades. The figure's title is ``title``, then what is
    drawn, then ``note`` (a warning) if given.
    """
    import matplotlib as mpl
    from matplotlib.figure import Figure

    by = list(table.columns[: table.columns.get_loc("category")])
    scenario = [c for c in by if c != "label"]
    panels = groups(table, scenario)
    categories = list(table["category"].cat.categories)
    labels = list(dict.fromkeys(key(v) for v in table["label"].tolist()))
    palette = mpl.rcParams["axes.prop_cycle"].by_key().get("color", ["C0"])
    colour = {label: palette[i % len(palette)] for i, label in enumerate(labels)}
    unit = "jobs" if stat in ("count", "size") else unit_of(metric)
    scheme = "16" if len(categories) == 16 else "4"
    values = table[column].to_numpy(dtype=float)
    if log is None:
        positive = values[np.isfinite(values) & (values > 0)]
        log = bool(len(positive)) and positive.max() > 100 * positive.min()

    ncols = 1 if len(panels) == 1 else 2
    nrows = math.ceil(len(panels) / ncols)
    width = 7.0 if len(categories) <= 4 else 10.0
    fig = Figure(figsize=(width * ncols, 3.4 * nrows + 0.6), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    handles: dict[Any, Any] = {}
    for ax, (scene, pos) in zip(axes, panels, strict=False):
        part = table.iloc[pos]
        present = list(dict.fromkeys(key(v) for v in part["label"].tolist()))
        step = 0.8 / max(len(present), 1)
        for j, label in enumerate(present):
            rows = part[[key(v) == label for v in part["label"].tolist()]]
            order = [categories.index(c) for c in rows["category"].tolist()]
            xs = np.asarray(order, dtype=float) - 0.4 + step * (j + 0.5)
            mean = rows[column].to_numpy(dtype=float)
            bars = ax.bar(xs, mean, width=step, color=colour[label], label=fmt(label))
            handles.setdefault(label, bars)
            low = rows[f"{column}_ci_low"].to_numpy(dtype=float)
            high = rows[f"{column}_ci_high"].to_numpy(dtype=float)
            error_bars(ax, xs, mean, low, high, capsize=2, linewidth=0.8)
        ax.set_xticks(
            range(len(categories)),
            categories,
            rotation=45 if len(categories) > 4 else 0,
            ha="right" if len(categories) > 4 else "center",
        )
        shown = part[column].to_numpy(dtype=float)
        if not np.isfinite(shown).any():
            # e.g. the poorly estimated jobs of a run with exact estimates
            ax.text(0.5, 0.5, "no jobs", transform=ax.transAxes, ha="center", va="center")
        elif log and (shown[np.isfinite(shown)] > 0).any():
            ax.set_yscale("log")
        ax.set_ylabel(axis_label(f"{stat} {metric.replace('_', ' ')}", unit))
        ax.set_xlabel(f"job category (run time x processors, {category_table_name(scheme)})")
        # A scenario column a run does not set (overhead: none) is left out of its title.
        named = [(c, v) for c, v in zip(scenario, scene, strict=True) if key(v) is not NA]
        name = group_name([c for c, _ in named], [v for _, v in named])
        ax.set_title(name or "all runs", fontsize="medium")
        ax.grid(True, axis="y", alpha=0.3)
    for ax in axes[len(panels) :]:
        ax.set_visible(False)
    what = f"{stat} {metric.replace('_', ' ')} per category"
    if estimate is not None:
        what += f", {estimate}-estimated jobs"
    heading = f"{title}: {what}" if title else what
    if np.isfinite(table[f"{column}_ci_low"].to_numpy(dtype=float)).any():
        heading += "\nwhiskers: confidence interval over replications, cut at the quantity's range"
    fig.suptitle(f"{heading}\nwarning: {note}" if note else heading)
    fig.legend(
        list(handles.values()),
        [fmt(label) for label in handles],
        loc="outside lower center",
        ncols=min(len(handles), 6),
        fontsize="small",
    )
    return fig


def save_figures(figures: Sequence[tuple[str, Figure]], out: Path) -> list[Path]:
    """Save each ``(stem, figure)`` as ``out/stem.png`` (120 dpi) and free it; the paths."""
    paths = []
    for stem, fig in figures:
        path = out / f"{stem}.png"
        fig.savefig(path, dpi=120)
        paths.append(path)
        fig.clear()
    return paths
