"""The Gantt chart of `schedsim.app.gantt`, interactive: pointing at a piece shows its job.

Drawn with [plotly](https://plotly.com/python/), chosen over bokeh and
holoviews because a plotly figure needs no server and no extension to show
in Jupyter, VS Code and Colab, writes itself to one self-contained HTML file
(`plotly.graph_objects.Figure.write_html`) that a reader opens without Python, and
is one well-kept package (holoviews would add bokeh or plotly underneath).
It is an optional dependency: ``pip install 'schedsim[interactive]'``.

The rectangles are those of the static chart (`schedsim.app.gantt.layout`),
one horizontal bar each, the kinds told apart by pattern as there: run
(filled), overhead (``/``), suspended (dotted, light), lost (``x``),
reserved (outline). Hovering shows the job's row of the job table (id,
submit, start, end, wait, run, size, outcome and the ``color_by`` column).
Past ``max_pieces`` pieces in the window it draws the static chart's
utilization heat map instead (`schedsim.app.gantt.busy_shares`; hovering
shows a cell's time, row and busy share): tens of thousands of bars would
make a file of tens of megabytes that a browser struggles to draw, and a
smear.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import pandas as pd

from schedsim.app.gantt import (
    KIND_STYLES,
    MAX_PIECES,
    busy_shares,
    heatmap_note,
    job_colors,
    layout,
    pieces_in,
    time_axis,
)
from schedsim.model.policy import Reservation
from schedsim.model.results import Result
from schedsim.model.view import View

if TYPE_CHECKING:  # pragma: no cover
    import plotly.graph_objects as go

__all__ = ["gantt_interactive"]

#: plotly's bar patterns for the kinds (the static chart's hatches).
_PATTERNS = {
    "run": "", "overhead": "/", "suspended": ".", "lost": "x", "planned": "", "reserved": "",
}  # fmt: skip
#: Job-table columns shown on hover, when present.
HOVER_COLUMNS = ("id", "submit", "start", "end", "wait", "run", "size", "outcome")


def _hex(color: Any) -> str:
    from matplotlib.colors import to_hex

    return str(to_hex(color))


def gantt_interactive(
    result: Result,
    start: float | None = None,
    end: float | None = None,
    nodes: Iterable[int] | None = None,
    *,
    color_by: str = "job",
    reservations: pd.DataFrame | Iterable[Reservation] | None = None,
    view: View | None = None,
    max_rows: int = 600,
    title: str | None = None,
    max_pieces: int | None = MAX_PIECES,
    bins: int = 400,
) -> go.Figure:
    """A plotly Gantt chart of ``result`` (arguments as `schedsim.app.gantt.gantt`); past
    ``max_pieces`` pieces in the window, the utilization heat map, in ``bins`` time bins."""
    try:
        import plotly.graph_objects as go
    except ImportError:  # pragma: no cover - the message is the point
        raise ImportError(
            "the interactive Gantt chart needs plotly: pip install 'schedsim[interactive]'"
        ) from None

    if max_pieces is not None:
        count = pieces_in(result, start, end)
        if count > max_pieces:
            note = heatmap_note(result, start, end, count, max_pieces, title)
            return _heatmap(result, start, end, nodes, bins, max_rows, note)

    plan = layout(
        result, start, end, nodes, reservations=reservations, view=view, max_rows=max_rows
    )
    colors, _ = job_colors(result.jobs, color_by)
    columns = [c for c in (*HOVER_COLUMNS, color_by) if c in result.jobs.columns]
    columns = list(dict.fromkeys(columns))
    rows = result.jobs.set_index("id", drop=False)[columns]
    fig = go.Figure()
    boxes = plan.boxes
    for kind in KIND_STYLES:
        mine = boxes[boxes["kind"] == kind]
        if mine.empty:
            continue
        info = rows.reindex(mine["job"].to_numpy()).astype(object)
        fill = [_hex(colors.get(int(j), "#FFFFFF")) for j in mine["job"]]
        style = KIND_STYLES[kind]
        marker: dict[str, Any] = {
            "color": fill if style["fill"] == "job" else (style["fill"] or "rgba(0,0,0,0)"),
            "line": {
                "color": fill if style["edge"] == "job" else style["edge"],
                "width": 0.5 if kind != "reserved" else 1.5,
            },
            "pattern": {"shape": _PATTERNS[kind]},
        }
        if kind in ("suspended", "planned"):
            marker["opacity"] = 0.35
        hover = "<br>".join(
            f"{c}: %{{customdata[{i}]}}" for i, c in enumerate(columns)
        )  # the job's row
        fig.add_trace(
            go.Bar(
                orientation="h",
                base=mine["x0"],
                x=mine["x1"] - mine["x0"],
                y=mine["bottom"] + mine["height"] / 2,
                width=mine["height"],
                marker=marker,
                name=kind,
                customdata=info.to_numpy(),
                hovertemplate=f"<b>{kind}</b><br>{hover}<extra></extra>",
            )
        )
    ticks = list(range(0, plan.rows.rows, max(1, plan.rows.rows // 16)))
    names = (
        [str(plan.shown[t]) for t in ticks]
        if plan.rows.row_of is not None
        else [str(plan.rows.first + t * plan.rows.group) for t in ticks]
    )
    fig.update_layout(
        barmode="overlay",
        bargap=0,
        title=title,
        xaxis={"title": plan.axis.label, "range": [plan.axis(plan.lo), plan.axis(plan.hi)]},
        yaxis={
            "title": "node" if plan.rows.group == 1 else f"node (rows of {plan.rows.group})",
            "range": [plan.height, 0],
            "tickvals": [t + 0.5 for t in ticks],
            "ticktext": names,
        },
        legend={"title": "piece"},
        template="simple_white",
    )
    return fig


def _heatmap(
    result: Result,
    start: float | None,
    end: float | None,
    nodes: Iterable[int] | None,
    bins: int,
    max_rows: int,
    title: str,
) -> go.Figure:
    """The busy share per row of nodes and time bin (`busy_shares`) as a plotly heat map."""
    import plotly.graph_objects as go

    grid = busy_shares(result, start, end, nodes, bins=bins, max_rows=max_rows)
    lo, hi = float(grid.edges[0]), float(grid.edges[-1])
    axis = time_axis(float(result.meta.get("start", lo)), hi - lo)
    rows = grid.rows
    # Each row named by its (first) node.
    first = (
        [str(grid.shown[r]) for r in range(rows.rows)]
        if rows.row_of is not None
        else [str(rows.first + r * rows.group) for r in range(rows.rows)]
    )
    fig = go.Figure(
        go.Heatmap(
            z=grid.shares.astype("float32"),  # 7 digits, half the file of float64
            x=axis((grid.edges[:-1] + grid.edges[1:]) / 2),
            y=first,
            zmin=0.0,
            zmax=1.0,
            colorscale="Viridis",
            colorbar={"title": {"text": "busy share (fraction)", "side": "right"}},
            hovertemplate=(
                f"time %{{x:.3g}} {axis.unit}<br>node %{{y}}"
                + (f" (and the next {rows.group - 1})" if rows.group > 1 else "")
                + "<br>busy share %{z:.3f}<extra></extra>"
            ),
        )
    )
    fig.update_layout(
        title={"text": title.replace("\n", "<br>"), "font": {"size": 12}},
        xaxis={"title": axis.label, "range": [axis(lo), axis(hi)]},
        yaxis={
            "title": "node" if rows.group == 1 else f"node (rows of {rows.group})",
            "type": "category",  # one row per shown node or group, in order, node 0 on top
            "autorange": "reversed",
        },
        template="simple_white",
    )
    return fig
