"""Lawson & Smirni 2002: the figures (the slowdown ratio R per scenario, R over time, the
reservation delays)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from schedsim.papers.lawson2002.analyses import CLASSES, MULTI, SINGLE

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure


__all__ = ["delay_figure", "ratio_figure", "transient_figure"]


# -- figures -----------------------------------------------------------------------


def ratio_figure(table: pd.DataFrame, scenarios: Sequence[str], title: str) -> Figure:
    """R per class and trace, one panel per scenario (the paper's bar charts)."""
    from matplotlib.figure import Figure

    from schedsim.app.gantt import OKABE_ITO

    fig = Figure(figsize=(3.4 * len(scenarios), 3.2), layout="constrained")
    axes = fig.subplots(1, len(scenarios), squeeze=False)[0]
    classes = ["all", *(c for c, _, _ in CLASSES)]
    for ax, scen in zip(axes, scenarios, strict=True):
        part = table[(table["scenario"] == scen) & (table["priority"] == "all")]
        traces = sorted(set(part["trace"]))
        width = 0.8 / max(len(traces), 1)
        for i, t in enumerate(traces):
            values = [
                float(part[(part["trace"] == t) & (part["class"] == c)]["R"].iloc[0])
                if len(part[(part["trace"] == t) & (part["class"] == c)])
                else math.nan
                for c in classes
            ]
            ax.bar(
                np.arange(len(classes)) + (i - (len(traces) - 1) / 2) * width,
                values,
                width,
                label=t,
                color=OKABE_ITO[i % len(OKABE_ITO)],
                hatch=("", "//", "..", "xx")[i % 4],
                edgecolor="#333333",
                linewidth=0.5,
            )
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xticks(range(len(classes)), classes)
        ax.set_title(scen, fontsize=9)
        ax.set_xlabel("class of estimated run time")
    axes[0].set_ylabel("slowdown ratio R (ratio)")
    axes[-1].legend(fontsize=7, title="trace")
    fig.suptitle(title, fontsize=10)
    return fig


def transient_figure(batches: pd.DataFrame, scenario_: str, title: str) -> Figure:
    from matplotlib.figure import Figure

    part = batches[batches["scenario"] == scenario_]
    traces = sorted(set(part["trace"]))
    fig = Figure(figsize=(10, 1.9 * max(len(traces), 1)), layout="constrained")
    axes = fig.subplots(max(len(traces), 1), 1, squeeze=False)[:, 0]
    styles = {"all": ("#0072B2", "-"), "high": ("#0072B2", "-"), "low": ("#D55E00", "--")}
    for ax, t in zip(axes, traces, strict=False):
        mine = part[part["trace"] == t]
        prios = ["high", "low"] if (mine["priority"] == "high").any() else ["all"]
        for prio in prios:
            line = mine[mine["priority"] == prio]
            color, style = styles[prio]
            ax.plot(line["day"], line["R"], style, color=color, marker=".", label=prio)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_ylabel(f"{t}: R (ratio)")
        if len(prios) > 1:
            ax.legend(fontsize=7, title="priority")
    axes[-1].set_xlabel("time of the batch's first submission (days since the start)")
    fig.suptitle(title, fontsize=10)
    return fig


def delay_figure(delays: pd.DataFrame) -> Figure:
    """The tail of the reservation delays, per trace: the share of reservations granted
    more than x after their request (Figure 11), a fraction (0-1) on a log axis."""
    from matplotlib.figure import Figure

    traces = sorted(set(delays["trace"]))
    fig = Figure(figsize=(3.2 * max(len(traces), 1), 3.0), layout="constrained")
    axes = fig.subplots(1, max(len(traces), 1), squeeze=False)[0]
    for ax, t in zip(axes, traces, strict=False):
        for policy, (color, style) in ((SINGLE, ("#0072B2", "-")), (MULTI, ("#D55E00", "--"))):
            d = np.sort(delays[(delays["trace"] == t) & (delays["policy"] == policy)]["delay"])
            if not len(d):
                continue
            tail = 1.0 - np.arange(1, len(d) + 1) / len(d)
            ax.step(d / 3600.0, tail, style, color=color, where="post", label=policy)
        ax.set_title(t, fontsize=9)
        ax.set_xlabel("delay of the reservation (h)")
        ax.set_yscale("log")
    axes[0].set_ylabel("reservations delayed longer (fraction)")
    axes[-1].legend(fontsize=7)
    return fig
