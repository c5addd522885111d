"""Zeng & Sodan 2009: Figures 6-9 (RR, utilization, block size, slack factor)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from schedsim.papers.zeng2009.analyses import BLOCK_SIZE, F_SLACK, _setting_note

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure


__all__ = [
    "COLORS",
    "RR_LABEL",
    "SHOWN_TYPES",
    "block_figure",
    "rr_figure",
    "slack_figure",
    "utilization_figure",
]


# -- figures --------------------------------------------------------------------------


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


def rr_figure(table: pd.DataFrame) -> Figure:
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


def utilization_figure(table: pd.DataFrame) -> Figure:
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


def block_figure(table: pd.DataFrame) -> Figure:
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


def slack_figure(table: pd.DataFrame) -> Figure:
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
