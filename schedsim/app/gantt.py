"""The schedule as a picture: a Gantt chart of the piece log, with utilization and queue.

`gantt` draws one rectangle per piece of every job's life (`Result.pieces`:
run, overhead, suspended, lost) on the nodes (or cores) it held, time on the
horizontal axis. The kinds are told apart by fill and line, not by colour
alone, so they survive grey-scale printing:

* **run**: filled with the job's colour;
* **overhead** (a suspension writing memory out, a restart reading it back,
  a context switch): the job's colour, hatched ``////``;
* **suspended**: a dashed, dotted outline in the job's colour on the home it
  waits for (it holds no cores then: whatever runs there shows through);
* **lost** (an attempt thrown away by a requeue, such as a speculative start
  killed at its limit): hatched ``xx`` on a light fill, red edge;
* **planned** (while a run is under way, given its ``view``): a running job's
  remaining time up to its expected end, pale;
* **reserved** (a promise a backfilling policy made, `Result.reservations`
  or a step's ``promises``): a black dashed outline, on the nodes the
  promise names or that `place` finds for it, else in a lane below the
  machine.

Jobs are coloured by a column of the job table (``color_by``: ``"job"`` by
default, or ``"category"``, ``"user"``, ``"priority"``, ...): a few values get
a colour-blind-safe palette and a legend, many numbers a colour map and a
colour bar. On nodes of several cores each core has its own row (core ``k``
of node ``n`` at height ``n + k / cores_per_node``) and node boundaries are
drawn, so jobs sharing a node are side by side. When the machine has more
nodes than the axes have pixel rows, nodes are drawn in groups (each row a
group of consecutive nodes, named on the axis), which keeps 512-node and
larger machines readable.

A long window (a whole log of 77,000 jobs) would be a smear of rectangles
narrower than a pixel: past ``max_pieces`` pieces in the window (`MAX_PIECES`,
5,000 by default) `gantt` draws a **utilization heat map** instead (`heatmap`:
nodes, or groups of nodes, down, time bins across, the colour the share of
the bin's core-seconds busy, with a colour bar in that unit), and says so in
its title with the window to ask for to see every piece; `busy_shares` gives
its numbers.

`utilization` and `queue` draw the machine's busy share and the queue over
the same time axis, and `schedule_figure` stacks the three. Times on the
axes are measured from the run's start (its first submission) in a unit
chosen from the window shown (s, min, h or days); the ``start`` and ``end``
arguments are clock times like those of the job table.

Every function returns a bare matplotlib ``Figure`` (or draws into ``ax``);
`schedsim.app.gantt_interactive` draws the same chart with plotly, where
pointing at a piece shows its job's row.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from schedsim.model.cluster import ranges
from schedsim.model.pieces import HELD
from schedsim.model.policy import Reservation
from schedsim.model.results import Result
from schedsim.model.view import State, View

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.colors import Colormap
    from matplotlib.figure import Figure

__all__ = [
    "KIND_STYLES",
    "MAX_PIECES",
    "OKABE_ITO",
    "BusyShares",
    "Layout",
    "TimeAxis",
    "busy_shares",
    "gantt",
    "heatmap",
    "heatmap_note",
    "intervals",
    "job_colors",
    "layout",
    "pieces_in",
    "place",
    "queue",
    "reservation_table",
    "schedule_figure",
    "time_axis",
    "utilization",
]

#: Okabe and Ito's colour-blind-safe palette (black left out: it marks reservations).
OKABE_ITO: tuple[str, ...] = (
    "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999",
)  # fmt: skip

#: How each kind of piece is drawn (matplotlib patch properties; "job" = the job's colour).
KIND_STYLES: dict[str, dict[str, Any]] = {
    "run": {"fill": "job", "edge": "#333333", "hatch": None, "linestyle": "solid", "alpha": 1.0},
    "overhead": {"fill": "job", "edge": "#333333", "hatch": "////", "linestyle": "solid",
                 "alpha": 0.6},
    "suspended": {"fill": None, "edge": "job", "hatch": "..", "linestyle": "dashed",
                  "alpha": 1.0},
    "lost": {"fill": "#DDDDDD", "edge": "#C0392B", "hatch": "xx", "linestyle": "solid",
             "alpha": 1.0},
    "planned": {"fill": "job", "edge": "job", "hatch": None, "linestyle": "dotted",
                "alpha": 0.3},
    "reserved": {"fill": None, "edge": "black", "hatch": None, "linestyle": "dashed",
                 "alpha": 1.0},
}  # fmt: skip

#: Above this many distinct values a numeric ``color_by`` column gets a colour map.
MAX_CATEGORIES = 12

#: Above this many pieces in the window `gantt` draws a utilization heat map (`heatmap`):
#: at 5,000 (three weeks of the CTC log) rectangles are already a few pixels wide on a
#: page-wide chart, and a whole log's 77,000 fill it as a smear.
MAX_PIECES = 5000


# -- time ------------------------------------------------------------------------


@dataclass(frozen=True)
class TimeAxis:
    """Clock times drawn as ``(t - origin) / scale``; `label` names the unit."""

    origin: float
    scale: float
    unit: str

    def __call__(self, t: Any) -> Any:
        return (np.asarray(t, dtype=float) - self.origin) / self.scale

    @property
    def label(self) -> str:
        return f"time since the run's start ({self.unit})"


def time_axis(origin: float, span: float) -> TimeAxis:
    """The unit for a window of ``span`` seconds: s up to 20 min, min up to 5 h,
    h up to 4 days, days beyond."""
    for limit, scale, unit in (
        (1200.0, 1.0, "s"),
        (5 * 3600.0, 60.0, "min"),
        (4 * 86400.0, 3600.0, "h"),
    ):
        if span <= limit:
            return TimeAxis(origin, scale, unit)
    return TimeAxis(origin, 86400.0, "days")


def _window(result: Result, start: float | None, end: float | None) -> tuple[float, float]:
    jobs = result.jobs
    lo = float(result.meta.get("start", jobs["submit"].min())) if start is None else float(start)
    if end is None:
        ends = pd.concat([jobs["end"], jobs["submit"]]).dropna()
        end = float(result.meta.get("end") or ends.max())
    hi = float(end)
    if not hi > lo:
        raise ValueError(f"the window must end after it starts: start {lo}, end {hi}")
    return lo, hi


# -- node and core lists ---------------------------------------------------------------


def intervals(text: str) -> list[tuple[int, int]]:
    """``"0-3 7"`` -> ``[(0, 3), (7, 7)]``: a node or core list in procset's syntax."""
    out = []
    for part in str(text).split():
        lo, _, hi = part.partition("-")
        out.append((int(lo), int(hi or lo)))
    return out


@dataclass(frozen=True)
class _Rows:
    """Where node ``n`` (core ``c``) is drawn: rows in node units, grouped or selected."""

    cores_per_node: int
    #: Nodes per row (1 unless the machine has more nodes than the axes can show).
    group: int
    #: The first node shown and how many (a contiguous selection), or the row of each
    #: node (-1: hidden) for any other selection.
    first: int
    count: int
    row_of: np.ndarray | None

    @property
    def by_core(self) -> bool:
        return self.cores_per_node > 1 and self.group == 1

    def spans(self, cores: Sequence[tuple[int, int]]) -> list[tuple[float, float]]:
        """The vertical spans (bottom, height) of a piece on ``cores`` (core intervals)."""
        cpn, out = self.cores_per_node, []
        if self.row_of is None:
            for lo, hi in cores:
                if self.by_core:
                    bottom, top = lo / cpn - self.first, (hi + 1) / cpn - self.first
                else:  # whole nodes (or groups of them)
                    bottom = (lo // cpn - self.first) // self.group
                    top = (hi // cpn - self.first) // self.group + 1
                bottom, top = max(bottom, 0), min(top, self.rows)
                if top > bottom:
                    out.append((float(bottom), float(top - bottom)))
            return _merged(out)
        rows = sorted({int(self.row_of[c // cpn]) for lo, hi in cores for c in range(lo, hi + 1)})
        rows = [r for r in rows if r >= 0]
        return _merged([(float(r), 1.0) for r in rows])

    @property
    def rows(self) -> int:
        return math.ceil(self.count / self.group) if self.row_of is None else self.count


def _merged(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Adjacent or overlapping spans joined (a piece on nodes 0-3 is one rectangle)."""
    out: list[tuple[float, float]] = []
    for bottom, height in sorted(spans):
        if out and bottom <= out[-1][0] + out[-1][1]:
            b, h = out[-1]
            out[-1] = (b, max(h, bottom + height - b))
        else:
            out.append((bottom, height))
    return out


def _rows(
    result: Result, nodes: Iterable[int] | range | None, max_rows: int
) -> tuple[_Rows, list[int]]:
    """The rows to draw and the nodes they show (in order)."""
    total = int(result.meta["nodes"])
    cpn = int(result.meta.get("cores_per_node", 1))
    if nodes is None:
        shown = list(range(total))
    else:
        shown = sorted({int(n) for n in nodes})
        bad = [n for n in shown if not 0 <= n < total]
        if bad:
            raise ValueError(f"nodes {bad[:5]} are not nodes of this machine (0-{total - 1})")
        if not shown:
            raise ValueError("no nodes to show")
    contiguous = shown == list(range(shown[0], shown[-1] + 1))
    if contiguous:
        group = max(1, math.ceil(len(shown) / max_rows))
        return _Rows(cpn, group, shown[0], len(shown), None), shown
    if len(shown) > max_rows:
        raise ValueError(
            f"{len(shown)} scattered nodes do not fit {max_rows} rows: show a range of nodes"
        )
    row_of = np.full(total, -1, dtype=np.int64)
    row_of[shown] = np.arange(len(shown))
    return _Rows(cpn, 1, 0, len(shown), row_of), shown


# -- colours ---------------------------------------------------------------------


def job_colors(jobs: pd.DataFrame, color_by: str = "job") -> tuple[dict[int, Any], Any]:
    """Each job's colour by ``color_by``, and what to explain it with.

    Returns ``(colours by job id, key)`` where ``key`` is a dict value ->
    colour for a legend (a few categories), a ``(colormap, norm)`` pair for a
    colour bar (many numbers), or None (``"job"``: one colour per job, cycling).
    """
    from matplotlib import colormaps
    from matplotlib.colors import Normalize

    ids = jobs["id"].to_numpy()
    if color_by == "job":
        palette: Sequence[Any] = _palette(colormaps["tab20"])
        # By order of first start, striding through the palette: jobs that start one
        # after the other (and so often sit side by side) get different colours.
        order = jobs.sort_values(["start", "id"], kind="stable", na_position="last")["id"]
        return {
            int(j): palette[(rank * 7) % len(palette)] for rank, j in enumerate(order.to_numpy())
        }, None
    if color_by not in jobs.columns:
        raise ValueError(
            f"color_by={color_by!r} is not a column of the job table "
            f"(e.g. job, category, user, size, {', '.join(c for c in jobs.columns[:6])})"
        )
    values = jobs[color_by]
    distinct = pd.unique(values.dropna())
    numeric = pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)
    if numeric and len(distinct) > MAX_CATEGORIES:
        cmap = colormaps["viridis"]
        norm = Normalize(float(values.min()), float(values.max()))
        return {int(j): cmap(norm(float(v))) for j, v in zip(ids, values, strict=True)}, (
            cmap,
            norm,
        )
    if isinstance(values.dtype, pd.CategoricalDtype):  # its own order (VS Seq, VS N, ...)
        present = set(distinct)
        ordered = [v for v in values.cat.categories if v in present]
    else:
        ordered = sorted(distinct, key=lambda v: (str(type(v)), v))
    palette = OKABE_ITO if len(ordered) <= len(OKABE_ITO) else _palette(colormaps["tab20"])
    key = {v: palette[i % len(palette)] for i, v in enumerate(ordered)}
    missing = "#FFFFFF"
    return {
        int(j): key.get(v, missing) if not pd.isna(v) else missing
        for j, v in zip(ids, values, strict=True)
    }, key


# -- reservations -------------------------------------------------------------------


def reservation_table(promises: Iterable[Reservation] | pd.DataFrame) -> pd.DataFrame:
    """Reservations as a table with `Result.reservations`' columns ``job, kind, start,
    end, size, nodes`` (``nodes`` empty where the policy named none)."""
    if isinstance(promises, pd.DataFrame):
        return promises
    rows = [
        (r.job, r.kind, r.start, r.end, r.size,
         r.allocation.node_list() if r.allocation is not None else "")
        for r in promises
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=["job", "kind", "start", "end", "size", "nodes"])


def place(view: View, promises: Iterable[Reservation] | pd.DataFrame) -> pd.DataFrame:
    """The reservations, each placed on nodes where the policy named none.

    A backfilling policy promises a number of cores at a time, not which
    (seed 000 section 2.1). To draw the promise, each reservation (in order
    of start) is put on the lowest-numbered nodes projected to be free for
    its whole span: the cores that the running jobs of ``view`` (a state
    after the pass: `schedsim.model.simulation.ModelSimulation.view`) leave by
    their expected ends, less those of the reservations placed before it.
    This is where the job would start if every estimate held and first fit
    chose; a reservation that fits nowhere that way (fragmentation that the
    policy's count of cores does not see) keeps no nodes and is drawn in the
    lane below the machine.
    """
    table = reservation_table(promises).copy()
    cpn, nodes = view.cores_per_node, view.nodes
    held: list[tuple[np.ndarray, np.ndarray, float, float]] = []  # nodes, cores, from, until
    for job in (*view.running, *view.suspended):
        if job.allocation is not None:
            until = job.expected_end if job.state is State.RUNNING else math.inf
            held.append((job.allocation.nodes, job.allocation.cores, view.now, until))
    placed = []
    for row in table.sort_values(["start", "job"], kind="stable").itertuples():
        if isinstance(row.nodes, str) and row.nodes:
            placed.append((row.Index, row.nodes))
            continue
        busy = np.zeros(nodes, dtype=np.int64)
        for ns, cs, t0, t1 in held:
            if t1 > row.start and t0 < row.end:
                np.add.at(busy, ns, cs)
        free = np.clip(cpn - busy, 0, None)
        take = np.minimum(free, np.maximum(row.size - np.cumsum(free) + free, 0))
        if take.sum() < row.size:
            placed.append((row.Index, ""))
            continue
        chosen = np.flatnonzero(take)
        held.append((chosen, take[chosen], row.start, row.end))
        placed.append((row.Index, ranges(chosen)))
    for index, text in placed:
        table.at[index, "nodes"] = text
    return table


# -- the chart --------------------------------------------------------------------


def _root_figure(ax: Axes) -> Figure:
    """The figure ``ax`` is drawn on (a subfigure's own figure): its size is in inches."""
    from matplotlib.figure import Figure

    fig = ax.get_figure()
    assert fig is not None
    return fig if isinstance(fig, Figure) else fig.figure


def _palette(cmap: Colormap) -> list[tuple[float, float, float, float]]:
    """The colours of a listed colour map (tab20), in its order, as RGBA."""
    return [cmap(i) for i in range(cmap.N)]


def _axes_rows(ax: Axes) -> int:
    """How many pixel rows the axes have (the most rows worth drawing)."""
    fig = _root_figure(ax)
    height = ax.get_position().height * fig.get_size_inches()[1] * fig.dpi
    return max(8, int(height))


def _axes_bins(ax: Axes) -> int:
    """Time bins for a heat map on ``ax``: one per 2 pixel columns (at least 50)."""
    fig = _root_figure(ax)
    width = ax.get_position().width * fig.get_size_inches()[0] * fig.dpi
    return max(50, int(width) // 2)


@dataclass(frozen=True)
class Layout:
    """What a Gantt chart shows, in axis units, for any renderer (`gantt`,
    `schedsim.app.gantt_interactive`).

    ``boxes`` has one row per rectangle: ``job``, ``kind`` (a key of
    `KIND_STYLES`), ``x0``, ``x1`` (on ``axis``), ``bottom``, ``height`` (in
    rows, node 0 at the top); reservations without nodes sit in ``lane``
    extra rows below the machine. ``notes`` ``(x, y, text)`` name the
    reserved jobs.
    """

    rows: _Rows
    shown: list[int]
    axis: TimeAxis
    lo: float
    hi: float
    boxes: pd.DataFrame
    lane: float
    notes: list[tuple[float, float, str]]

    @property
    def height(self) -> float:
        return self.rows.rows + self.lane


def layout(
    result: Result,
    start: float | None = None,
    end: float | None = None,
    nodes: Iterable[int] | None = None,
    *,
    reservations: pd.DataFrame | Iterable[Reservation] | None = None,
    view: View | None = None,
    max_rows: int = 600,
) -> Layout:
    """The rectangles of ``result``'s pieces (and ``reservations``) between ``start`` and
    ``end`` on ``nodes``, grouping nodes beyond ``max_rows`` rows (see `gantt`).

    With ``view`` (the state at the end of a partial ``result``), the running
    jobs' remaining time up to their expected ends is added (kind ``planned``)
    and reservations that name no nodes are placed (`place`)."""
    pieces = result.pieces
    if pieces is None:
        raise ValueError("this result has no piece log: run with pieces=True (the default)")
    lo, hi = _window(result, start, end)
    rows, shown = _rows(result, nodes, max_rows)
    axis = time_axis(float(result.meta.get("start", lo)), hi - lo)
    visible = pieces[(pieces["end"] > lo) & (pieces["start"] < hi)]
    out: list[tuple[int, str, float, float, float, float]] = []
    parsed: dict[str, list[tuple[int, int]]] = {}
    for job, kind, t0, t1, cores in zip(
        visible["job"].to_numpy(),
        visible["kind"].astype(str).to_numpy(),
        visible["start"].to_numpy(dtype=float),
        visible["end"].to_numpy(dtype=float),
        visible["cores"].to_numpy(),
        strict=True,
    ):
        spans = parsed.get(cores)
        if spans is None:
            spans = parsed[cores] = intervals(cores)
        x0, x1 = float(axis(max(t0, lo))), float(axis(min(t1, hi)))
        for bottom, height in rows.spans(spans):
            out.append((int(job), kind, x0, x1, bottom, height))
    if view is not None:
        out.extend(_planned(pieces, view, rows, axis, lo, hi))
    lane, labels = 0, []
    table = None if reservations is None else reservation_table(reservations)
    if table is not None and view is not None:
        table = place(view, table)
    for row in () if table is None else table.itertuples(index=False):
        t0, t1 = float(row.start), float(row.end)
        if not (t1 > lo and t0 < hi):
            continue
        x0, x1 = float(axis(max(t0, lo))), float(axis(min(t1, hi)))
        placed = getattr(row, "nodes", None)
        if isinstance(placed, str) and placed:
            cpn = rows.cores_per_node
            cores = [(a * cpn, b * cpn + cpn - 1) for a, b in intervals(placed)]
            reserved_spans = rows.spans(cores)
            for bottom, height in reserved_spans:
                out.append((int(row.job), "reserved", x0, x1, bottom, height))
            if reserved_spans:
                bottom, height = reserved_spans[0]
                labels.append((x0, bottom + height / 2, f" job {int(row.job)} reserved"))
            continue
        out.append((int(row.job), "reserved", x0, x1, rows.rows + lane + 0.15, 0.7))
        labels.append((x0, rows.rows + lane + 0.5, f" job {int(row.job)} ({int(row.size)} cores)"))
        lane += 1
    boxes = pd.DataFrame(out, columns=["job", "kind", "x0", "x1", "bottom", "height"])
    return Layout(rows, shown, axis, lo, hi, boxes, float(lane), labels)


def _planned(
    pieces: pd.DataFrame, view: View, rows: _Rows, axis: TimeAxis, lo: float, hi: float
) -> list[tuple[int, str, float, float, float, float]]:
    """Each running job of ``view`` from now to its expected end, on the cores of its
    current piece (the piece log's last one). A job started at this very instant
    has no piece yet: it is drawn on its allocation (on nodes of several cores, on
    the first cores of each, as which ones is known only from its first piece)."""
    out = []
    last = pieces.drop_duplicates("job", keep="last").set_index("job")
    cpn = view.cores_per_node
    for job in view.running:
        t0, t1 = max(view.now, lo), min(job.expected_end, hi)
        if not t1 > t0 or job.allocation is None:
            continue
        if job.id in last.index and last.at[job.id, "end"] >= view.now:
            cores = intervals(last.at[job.id, "cores"])
        else:
            alloc = job.allocation
            cores = [
                (n * cpn, n * cpn + c - 1)
                for n, c in zip(alloc.nodes.tolist(), alloc.cores.tolist(), strict=True)
            ]
        x0, x1 = float(axis(t0)), float(axis(t1))
        for bottom, height in rows.spans(cores):
            out.append((job.id, "planned", x0, x1, bottom, height))
    return out


def gantt(
    result: Result,
    start: float | None = None,
    end: float | None = None,
    nodes: Iterable[int] | None = None,
    *,
    color_by: str = "job",
    reservations: pd.DataFrame | Iterable[Reservation] | None = None,
    view: View | None = None,
    labels: bool | str = "auto",
    ax: Axes | None = None,
    max_rows: int | None = None,
    legend: bool = True,
    title: str | None = None,
    max_pieces: int | None = MAX_PIECES,
) -> Figure:
    """A Gantt chart of ``result``'s piece log between clock times ``start`` and ``end``.

    ``nodes``: the nodes to show (default all; a range keeps them in order,
    any other set is drawn in node order). ``color_by``: a column of the job
    table, or ``"job"``. ``reservations``: promises to draw as outlines
    (`schedsim.model.policy.Reservation` objects, such as a step's
    ``promises``, or rows of `Result.reservations`, e.g. those of one pass;
    `place` puts them on nodes where the policy named none, given ``view``).
    ``view``: the state at the end of a partial ``result`` (a stepped run's
    `schedsim.model.simulation.ModelSimulation.view`): running jobs are drawn on
    to their expected ends, pale. ``labels``: job
    ids inside the rectangles (``"auto"``: when there are few enough to
    read). ``ax``: draw into these axes (the figure is returned); ``max_rows``:
    group nodes beyond this many rows (default: the axes' height in pixels).
    ``max_pieces``: with more pieces than this in the window (default
    `MAX_PIECES`), a utilization heat map (`heatmap`) is drawn instead, its
    title saying so and naming the window to ask for; None always draws the
    rectangles. Needs the piece log (``pieces=True``, the default).
    """
    from matplotlib.collections import PolyCollection
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    if ax is None:
        fig = Figure(figsize=(10, 5), layout="constrained")
        ax = fig.subplots()
    figure = ax.get_figure()
    assert figure is not None
    if max_pieces is not None:
        count = pieces_in(result, start, end)
        if count > max_pieces:
            heatmap(result, start, end, nodes, ax=ax, max_rows=max_rows)
            ax.set_title(heatmap_note(result, start, end, count, max_pieces, title), fontsize=9)
            return figure  # type: ignore[return-value]
    plan = layout(
        result,
        start,
        end,
        nodes,
        reservations=reservations,
        view=view,
        max_rows=max_rows or _axes_rows(ax),
    )
    rows, axis, boxes = plan.rows, plan.axis, plan.boxes
    colors, key = job_colors(result.jobs, color_by)

    kinds = [k for k in KIND_STYLES if (boxes["kind"] == k).any()]
    for kind in kinds:
        style = KIND_STYLES[kind]
        mine = boxes[boxes["kind"] == kind]
        polys = [
            _box(x0, x1, b, h)
            for x0, x1, b, h in zip(
                mine["x0"], mine["x1"], mine["bottom"], mine["height"], strict=True
            )
        ]
        job_faces = [colors.get(int(j), "#FFFFFF") for j in mine["job"]]
        face = job_faces if style["fill"] == "job" else style["fill"] or "none"
        edge = job_faces if style["edge"] == "job" else style["edge"]
        collection = PolyCollection(
            polys,
            facecolors=face,
            edgecolors=edge,
            linewidths=0.6 if kind != "suspended" else 1.4,
            linestyles=style["linestyle"],
            alpha=style["alpha"],
            hatch=style["hatch"],
            zorder={"planned": 1.5, "suspended": 3, "reserved": 4}.get(kind, 2),
        )
        ax.add_collection(collection)

    outage_kinds = _outage_marks(ax, result, rows, axis, plan.lo, plan.hi)

    ax.set_xlim(axis(plan.lo), axis(plan.hi))
    ax.set_ylim(0, plan.height)
    ax.invert_yaxis()
    ax.set_xlabel(axis.label)
    _node_ticks(ax, rows, plan.shown, groups=bool(result.meta.get("machine_groups")))
    if rows.by_core:
        for n in range(1, rows.count):  # node boundaries between the cores' rows
            ax.axhline(n, color="#999999", linewidth=0.5, zorder=1)
    _group_marks(ax, result, rows)
    if plan.lane:
        ax.axhline(rows.rows, color="black", linewidth=0.8)
    if view is not None and plan.lo <= view.now <= plan.hi:
        ax.axvline(float(axis(view.now)), color="black", linewidth=0.8, linestyle=":")
        ax.text(float(axis(view.now)), 0, " now", va="top", fontsize=7)
    for x, y, label in plan.notes:
        ax.text(x, y, label, va="center", fontsize=7, zorder=5)
    run = boxes[boxes["kind"].isin(["run", "planned"])]  # named where they are wide enough
    show_labels = labels is True or (labels == "auto" and rows.rows <= 64 and len(run) <= 200)
    if show_labels:
        width = axis(plan.hi) - axis(plan.lo)
        for job, x0, x1, b, h in zip(
            run["job"], run["x0"], run["x1"], run["bottom"], run["height"], strict=True
        ):
            if x1 - x0 > 0.03 * width:
                ax.text(
                    (x0 + x1) / 2,
                    b + h / 2,
                    str(int(job)),
                    ha="center",
                    va="center",
                    fontsize=7,
                    zorder=5,
                )
    if legend:
        handles = [_kind_patch(k) for k in kinds]
        handles += [_outage_patch(k) for k in outage_kinds]
        if isinstance(key, dict) and key:
            handles += [
                Patch(facecolor=c, edgecolor="#333333", label=f"{color_by} {v}")
                for v, c in key.items()
            ]
        if handles:
            ax.legend(
                handles=handles,
                loc="upper left",
                bbox_to_anchor=(1.01, 1.0),
                fontsize=7,
                frameon=False,
            )
    if isinstance(key, tuple):
        from matplotlib.cm import ScalarMappable

        cmap, norm = key
        figure.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=ax, label=color_by)
    if title is not None:
        ax.set_title(title)
    assert isinstance(figure, Figure)
    return figure


def _box(x0: float, x1: float, bottom: float, height: float) -> np.ndarray:
    return np.array([(x0, bottom), (x1, bottom), (x1, bottom + height), (x0, bottom + height)])


def _kind_patch(kind: str) -> Any:
    from matplotlib.patches import Patch

    style = KIND_STYLES[kind]
    face = "#BBBBBB" if style["fill"] == "job" else (style["fill"] or "none")
    edge = "#555555" if style["edge"] == "job" else style["edge"]
    return Patch(
        facecolor=face,
        edgecolor=edge,
        hatch=style["hatch"],
        linestyle=style["linestyle"],
        label=kind,
    )


#: How node outages are drawn, by kind (`schedsim.model.outages`): over the nodes' rows
#: for the outage's time, behind the jobs' pieces (no job holds a node while it is out);
#: in this order, so that a failure during a maintenance window shows over it.
OUTAGE_STYLES: dict[str, dict[str, Any]] = {
    "maintenance": {"facecolor": "#E4E4E4", "edgecolor": "#555555", "hatch": "\\\\"},
    "failure": {"facecolor": "#F6D5D1", "edgecolor": "#C0392B", "hatch": "\\\\"},
}


def _outage_marks(
    ax: Axes, result: Result, rows: _Rows, axis: TimeAxis, lo: float, hi: float
) -> list[str]:
    """The run's node outages (`Result.outages`) within ``[lo, hi]`` as hatched boxes over
    their nodes' rows (a failure's still open at the run's end to ``hi``); the kinds
    drawn, for the legend."""
    outages = result.outages
    if outages is None or not len(outages):
        return []
    from matplotlib.collections import PolyCollection
    from procset import ProcSet

    cpn = rows.cores_per_node
    drawn: list[str] = []
    for kind, style in OUTAGE_STYLES.items():
        polys = []
        for start, end, nodes in outages.loc[
            outages["kind"] == kind, ["start", "end", "nodes"]
        ].itertuples(index=False):
            end = hi if not math.isfinite(end) else min(end, hi)
            start = max(start, lo)
            if end <= start:
                continue
            cores = [(a * cpn, b * cpn + cpn - 1) for a, b in ProcSet.from_str(nodes).intervals()]
            x0, x1 = float(axis(start)), float(axis(end))
            polys += [_box(x0, x1, b, h) for b, h in rows.spans(cores)]
        if polys:
            ax.add_collection(PolyCollection(polys, linewidths=0.6, zorder=1.8, **style))
            drawn.append(kind)
    return drawn


def _outage_patch(kind: str) -> Any:
    from matplotlib.patches import Patch

    label = {"failure": "node failure", "maintenance": "maintenance"}[kind]
    return Patch(label=label, **OUTAGE_STYLES[kind])


def _group_marks(ax: Axes, result: Result, rows: _Rows) -> None:
    """On a machine of node groups (``meta["machine_groups"]``): a line where a group
    begins and its name, cores and memory at the left of its first row (a contiguous
    range of nodes shown; a scattered selection is not marked)."""
    groups = result.meta.get("machine_groups")
    if not groups or rows.row_of is not None:
        return
    from matplotlib.transforms import blended_transform_factory

    side = blended_transform_factory(ax.transAxes, ax.transData)
    end = rows.first + rows.count
    for g in groups:
        first, last = int(g["first"]), int(g["first"]) + int(g["nodes"])
        if last <= rows.first or first >= end:
            continue
        y = max(first - rows.first, 0) / rows.group
        if first > rows.first:
            ax.axhline(y, color="black", linewidth=1.0, zorder=4)
        memory = "" if g.get("memory_gb") is None else f", {g['memory_gb']:g} GB"
        label = f"{g['name']}: {g['cores']} cores{memory}"
        box = {"facecolor": "white", "alpha": 0.8, "edgecolor": "none", "pad": 1}
        ax.text(0.005, y + 0.1, label, transform=side, fontsize=7, va="top", ha="left",
                zorder=6, bbox=box)  # fmt: skip


def _node_ticks(ax: Axes, rows: _Rows, shown: list[int], groups: bool = False) -> None:
    """Row labels: node numbers (or the first node of each group), a handful at most.
    On node groups (``groups``) a node's row has room for the widest node's cores."""
    n = rows.rows
    step = max(1, math.ceil(n / 16))
    ticks = list(range(0, n, step))
    if rows.row_of is not None:
        names = [str(shown[r]) for r in ticks]
    else:
        names = [str(rows.first + r * rows.group) for r in ticks]
    ax.set_yticks([t + 0.5 for t in ticks], names, fontsize=7)
    if rows.group > 1:
        ax.set_ylabel(f"node (rows of {rows.group} nodes)")
    elif rows.by_core and groups:
        ax.set_ylabel(f"node (rows of {rows.cores_per_node} cores: its group's used)")
    elif rows.by_core:
        ax.set_ylabel(f"node ({rows.cores_per_node} cores each)")
    else:
        ax.set_ylabel("node")


# -- a long window: the heat map ------------------------------------------------------


def _pieces(result: Result) -> pd.DataFrame:
    if result.pieces is None:
        raise ValueError("this result has no piece log: run with pieces=True (the default)")
    return result.pieces


def pieces_in(result: Result, start: float | None, end: float | None) -> int:
    """How many pieces `gantt` would draw between clock times ``start`` and ``end`` (what
    ``max_pieces`` is compared with)."""
    pieces = _pieces(result)
    lo, hi = _window(result, start, end)
    return int(((pieces["end"] > lo) & (pieces["start"] < hi)).sum())


def heatmap_note(
    result: Result,
    start: float | None,
    end: float | None,
    count: int,
    max_pieces: int,
    title: str | None,
) -> str:
    """The heat map's title when `gantt` draws one: why it is not a Gantt chart (``count``
    pieces, more than ``max_pieces``), and the window to ask for to see every piece;
    ``title`` above it."""
    lo, hi = _window(result, start, end)
    # A window of this length holds about max_pieces pieces, at the window's mean rate.
    span = (hi - lo) * max_pieces / count
    unit = time_axis(0.0, span)
    about = f"{span / unit.scale:.2g} {unit.unit}"
    if unit.unit != "s":
        about += f" (end - start <= {span:,.0f} s)"
    text = (
        f"{count:,} pieces in the window (more than max_pieces={max_pieces:,}): the busy share "
        f"per node instead of a Gantt chart;\nevery piece shows in a window of about {about}"
    )
    return f"{title}\n{text}" if title else text


@dataclass(frozen=True)
class BusyShares:
    """The busy share of each row of nodes in each time bin (`busy_shares`).

    ``shares[r, k]``: the core-seconds the pieces that hold cores (`schedsim.model.pieces.HELD`:
    run, overhead, lost attempts) spend on row ``r``'s cores during bin ``k``,
    over the row's cores times the bin's length: a fraction, 0 (idle) to 1
    (every core busy throughout). ``edges``: the bins' bounds, clock times
    (``bins + 1``, equal lengths from the window's start to its end).
    ``pieces``: how many pieces the window holds (of any kind).
    """

    shares: np.ndarray
    edges: np.ndarray
    rows: _Rows
    shown: list[int]
    pieces: int


def busy_shares(
    result: Result,
    start: float | None = None,
    end: float | None = None,
    nodes: Iterable[int] | None = None,
    *,
    bins: int = 400,
    max_rows: int = 600,
) -> BusyShares:
    """The share of each row's core-seconds busy in each of ``bins`` time bins between
    clock times ``start`` and ``end``, rows as `gantt` makes them (``nodes``; groups of
    nodes beyond ``max_rows``). Vectorised over the pieces: a whole log of 77,000 jobs
    takes well under a second; each distinct core list is parsed once."""
    if bins < 1:
        raise ValueError(f"bins must be at least 1, got {bins}")
    pieces = _pieces(result)
    lo, hi = _window(result, start, end)
    rows, shown = _rows(result, nodes, max_rows)
    visible = pieces[(pieces["end"] > lo) & (pieces["start"] < hi)]
    held = visible[visible["kind"].astype(str).isin(HELD)]
    cpn = rows.cores_per_node
    edges = np.linspace(lo, hi, bins + 1)
    width = (hi - lo) / bins
    busy = np.zeros(rows.rows * bins)
    steps = np.zeros(rows.rows * (bins + 1))  # whole bins: added at the first, taken off after
    if len(held):
        # Each piece's core intervals, each distinct core list parsed once.
        codes, lists = pd.factorize(held["cores"].astype(str))
        parsed = [intervals(text) for text in lists]
        per_list = np.array([len(p) for p in parsed])
        first_of = np.concatenate(([0], np.cumsum(per_list)[:-1]))
        flat = np.array([iv for p in parsed for iv in p], dtype=np.int64).reshape(-1, 2)
        count = per_list[codes]
        piece = np.repeat(np.arange(len(codes)), count)
        k = (
            first_of[codes][piece]
            + np.arange(count.sum())
            - np.repeat(np.cumsum(count) - count, count)
        )
        c_lo, c_hi = flat[k, 0], flat[k, 1]
        # Each interval's nodes, with the cores it holds on each.
        n_lo, n_hi = c_lo // cpn, c_hi // cpn
        span = n_hi - n_lo + 1
        which = np.repeat(np.arange(len(c_lo)), span)
        node = n_lo[which] + np.arange(span.sum()) - np.repeat(np.cumsum(span) - span, span)
        cores = (
            np.minimum(c_hi[which], node * cpn + cpn - 1) - np.maximum(c_lo[which], node * cpn) + 1
        ).astype(float)
        piece = piece[which]
        if rows.row_of is None:
            inside = (node >= rows.first) & (node < rows.first + rows.count)
            row = (node - rows.first) // rows.group
        else:
            row = rows.row_of[node]
            inside = row >= 0
        row, cores, piece = row[inside], cores[inside], piece[inside]
        t0 = np.maximum(held["start"].to_numpy(dtype=float), lo)[piece]
        t1 = np.minimum(held["end"].to_numpy(dtype=float), hi)[piece]
        k0 = np.clip(((t0 - lo) // width).astype(np.int64), 0, bins - 1)
        k1 = np.clip(((t1 - lo) // width).astype(np.int64), 0, bins - 1)
        one = k0 == k1
        size = rows.rows * bins
        # A piece within one bin; else its part of its first and of its last bin ...
        busy += np.bincount(row[one] * bins + k0[one], cores[one] * (t1 - t0)[one], size)
        many = ~one
        r, c, a, b = row[many], cores[many], k0[many], k1[many]
        busy += np.bincount(r * bins + a, c * (edges[a + 1] - t0[many]), size)
        busy += np.bincount(r * bins + b, c * (t1[many] - edges[b]), size)
        # ... and every bin in between whole.
        steps += np.bincount(r * (bins + 1) + a + 1, c * width, rows.rows * (bins + 1))
        steps -= np.bincount(r * (bins + 1) + b, c * width, rows.rows * (bins + 1))
    whole = np.cumsum(steps.reshape(rows.rows, bins + 1), axis=1)[:, :bins]
    total = busy.reshape(rows.rows, bins) + whole
    if rows.row_of is None:
        in_row = np.minimum(rows.group, rows.count - np.arange(rows.rows) * rows.group)
    else:
        in_row = np.ones(rows.rows, dtype=np.int64)
    capacity = (in_row * cpn).astype(float)[:, None] * width
    return BusyShares(total / capacity, edges, rows, shown, len(visible))


def heatmap(
    result: Result,
    start: float | None = None,
    end: float | None = None,
    nodes: Iterable[int] | None = None,
    *,
    bins: int | None = None,
    ax: Axes | None = None,
    max_rows: int | None = None,
    title: str | None = None,
) -> Figure:
    """The machine's busy share between ``start`` and ``end``: nodes (or groups of
    nodes) down, time bins across, each cell coloured by the share of its core-seconds
    busy (`busy_shares`), with a colour bar in that unit (a fraction, 0-1).

    What `gantt` draws for a window of more than ``max_pieces`` pieces; it shows
    where and when the machine was busy, not which job ran (ask for a shorter
    window for that). ``bins``: time bins (default one per 2 pixel columns of the
    axes); ``max_rows``: rows of nodes (default the axes' height in pixels).
    """
    from matplotlib.figure import Figure

    if ax is None:
        fig = Figure(figsize=(10, 5), layout="constrained")
        ax = fig.subplots()
    figure = ax.get_figure()
    assert figure is not None
    grid = busy_shares(
        result,
        start,
        end,
        nodes,
        bins=bins or _axes_bins(ax),
        max_rows=max_rows or _axes_rows(ax),
    )
    lo, hi = float(grid.edges[0]), float(grid.edges[-1])
    axis = time_axis(float(result.meta.get("start", lo)), hi - lo)
    image = ax.imshow(
        grid.shares,
        aspect="auto",
        interpolation="nearest",
        cmap="viridis",
        vmin=0.0,
        vmax=1.0,
        extent=(float(axis(lo)), float(axis(hi)), grid.rows.rows, 0),
    )
    ax.set_xlim(axis(lo), axis(hi))
    ax.set_xlabel(axis.label)
    _node_ticks(ax, grid.rows, grid.shown)
    figure.colorbar(image, ax=ax, label="busy share of the cell's core-seconds (fraction)")
    if title is not None:
        ax.set_title(title)
    assert isinstance(figure, Figure)
    return figure


# -- the machine over time ----------------------------------------------------------


def _series(result: Result, lo: float, hi: float) -> pd.DataFrame:
    """The series in the window: the last record at each time, plus the state at ``lo``."""
    s = result.series.drop_duplicates("time", keep="last")
    before = s[s["time"] <= lo].tail(1).assign(time=lo)
    inside = s[(s["time"] > lo) & (s["time"] < hi)]
    return pd.concat([before, inside], ignore_index=True)


def _stairs(ax: Axes, values: np.ndarray, edges: np.ndarray, **style: Any) -> None:
    """``ax.stairs(values, edges, **style)``, fast on a whole log's series: ``Axes.stairs``
    works out the data limits segment by segment in Python (3 s for CTC's 150,000
    steps); they are given here at once, from the values' range."""
    from matplotlib.patches import StepPatch

    style.setdefault("fill", False)  # as Axes.stairs (a Patch is filled by default)
    ax.add_artist(StepPatch(values, edges, **style))
    if len(values):
        ax.update_datalim([(edges[0], min(0.0, values.min())), (edges[-1], values.max())])
        ax.autoscale_view()


def utilization(
    result: Result, start: float | None = None, end: float | None = None, *, ax: Axes | None = None
) -> Figure:
    """The busy share of the cores (and, on nodes of several cores, of the nodes with a busy
    core) over time, as a fraction (0-1), the unit of utilization everywhere."""
    from matplotlib.figure import Figure

    lo, hi = _window(result, start, end)
    if ax is None:
        fig = Figure(figsize=(10, 2.2), layout="constrained")
        ax = fig.subplots()
    s = _series(result, lo, hi)
    axis = time_axis(float(result.meta.get("start", lo)), hi - lo)
    x = np.append(axis(s["time"]), axis(hi))
    total = float(result.meta.get("total_cores") or result.meta["nodes"])
    busy = s["busy_cores"].to_numpy(dtype=float) / total
    _stairs(ax, busy, x, color=OKABE_ITO[4], label="busy cores", fill=True, alpha=0.35)
    if int(result.meta.get("cores_per_node", 1)) > 1:
        nodes = s["busy_nodes"].to_numpy(dtype=float) / float(result.meta["nodes"])
        _stairs(ax, nodes, x, color=OKABE_ITO[5], linestyle="dashed", label="nodes in use")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    ax.set_ylim(0, 1)
    ax.set_xlim(axis(lo), axis(hi))
    ax.set_ylabel("busy (fraction)")
    ax.set_xlabel(axis.label)
    figure = ax.get_figure()
    assert isinstance(figure, Figure)
    return figure


def queue(
    result: Result, start: float | None = None, end: float | None = None, *, ax: Axes | None = None
) -> Figure:
    """Jobs waiting in the queue (and suspended jobs, when there are any) over time."""
    from matplotlib.figure import Figure

    lo, hi = _window(result, start, end)
    if ax is None:
        fig = Figure(figsize=(10, 2.2), layout="constrained")
        ax = fig.subplots()
    s = _series(result, lo, hi)
    axis = time_axis(float(result.meta.get("start", lo)), hi - lo)
    x = np.append(axis(s["time"]), axis(hi))
    _stairs(
        ax, s["queued"].to_numpy(dtype=float), x, color=OKABE_ITO[0], label="queued", linewidth=1.2
    )
    if (s["suspended"] > 0).any():
        _stairs(
            ax,
            s["suspended"].to_numpy(dtype=float),
            x,
            color=OKABE_ITO[6],
            linestyle="dashed",
            label="suspended",
            linewidth=1.2,
        )
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    from matplotlib.ticker import MaxNLocator

    ax.set_ylim(bottom=0)
    ax.yaxis.set_major_locator(MaxNLocator(nbins=4, integer=True))  # whole jobs, few ticks
    ax.set_xlim(axis(lo), axis(hi))
    ax.set_ylabel("jobs")
    ax.set_xlabel(axis.label)
    figure = ax.get_figure()
    assert isinstance(figure, Figure)
    return figure


def schedule_figure(
    result: Result,
    start: float | None = None,
    end: float | None = None,
    nodes: Iterable[int] | None = None,
    *,
    height: float = 7.0,
    **options: Any,
) -> Figure:
    """`gantt` above `utilization` and `queue`, on one time axis (``options`` go to `gantt`)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, height), layout="constrained")
    chart, busy, waiting = fig.subplots(
        3, 1, sharex=True, gridspec_kw={"height_ratios": [5, 1.3, 1.3]}
    )
    gantt(result, start, end, nodes, ax=chart, **options)
    utilization(result, start, end, ax=busy)
    queue(result, start, end, ax=waiting)
    for ax in (chart, busy):
        ax.set_xlabel("")
        ax.tick_params(labelbottom=False)
    return fig
