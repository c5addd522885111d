"""The schedule view (`schedsim.app.gantt`): rectangles worked out by hand, then the figures.

A scripted run on 4 one-core nodes (the `Scripted` policy of
`test_job_process`): A (job 1, 2 nodes, work 100) starts at 0 on nodes 0-1
and B (job 2, 2 nodes, work 30) on nodes 2-3; at 10 A is suspended and C
(job 3, 2 nodes, work 20) starts on A's nodes; at 30 C and B have ended and
A resumes, to end at 120. So the pieces are A run [0, 10) on 0-1, A
suspended [10, 30) on 0-1, A run [30, 120) on 0-1, B run [0, 30) on 2-3,
C run [10, 30) on 0-1; the window is 120 s wide, so the time axis is in
seconds from the run's start (0).
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from schedsim import Simulation
from schedsim.app import gantt
from schedsim.model.cluster import Allocation
from schedsim.model.policy import Reservation, Start
from schedsim.policies.backfilling import EASY
from schedsim.workloads.job import Job
from schedsim.workloads.workload import Workload

from test_job_process import Scripted

SCRIPT = {
    0: [("start", 1, [0, 1]), ("start", 2, [2, 3])],
    10: [("suspend", 1), ("start", 3, [0, 1])],
    30: [("resume", 1)],
}


def start_on(jid: int, node: int, cores: int):
    """A scripted action: start job ``jid`` on ``cores`` cores of ``node``."""
    return lambda view: [Start(view.get(jid), Allocation.on([node], cores))]


def run(cores_per_node: int = 1, nodes: int = 4):
    jobs = [Job(1, 0.0, 100.0, 2, 1000.0), Job(2, 0.0, 30.0, 2, 1000.0),
            Job(3, 0.0, 20.0, 2, 1000.0)]  # fmt: skip
    w = Workload.from_jobs(jobs, max_procs=nodes * cores_per_node)
    script = SCRIPT
    if cores_per_node > 1:  # the same on 2 nodes of 2 cores: node 0 for A and C, 1 for B
        script = {
            0: [start_on(1, 0, 2), start_on(2, 1, 2)],
            10: [("suspend", 1), start_on(3, 0, 2)],
            30: [("resume", 1)],
        }
    return Simulation(w, Scripted(script), nodes=nodes, cores_per_node=cores_per_node).run()


@pytest.fixture(scope="module")
def result():
    return run()


def boxes(plan: gantt.Layout) -> set[tuple]:
    return {
        (int(r.job), r.kind, r.x0, r.x1, r.bottom, r.height)
        for r in plan.boxes.itertuples(index=False)
    }


def test_the_rectangles_by_hand(result) -> None:
    plan = gantt.layout(result, 0, 120)
    assert plan.axis.unit == "s" and plan.axis.label == "time since the run's start (s)"
    assert boxes(plan) == {
        (1, "run", 0.0, 10.0, 0.0, 2.0),
        (1, "suspended", 10.0, 30.0, 0.0, 2.0),
        (1, "run", 30.0, 120.0, 0.0, 2.0),
        (2, "run", 0.0, 30.0, 2.0, 2.0),
        (3, "run", 10.0, 30.0, 0.0, 2.0),
    }


def test_a_window_clips_the_pieces(result) -> None:
    # From 20 to 40 s; the axis still counts from the run's start.
    plan = gantt.layout(result, 20, 40)
    assert boxes(plan) == {
        (1, "suspended", 20.0, 30.0, 0.0, 2.0),
        (1, "run", 30.0, 40.0, 0.0, 2.0),
        (2, "run", 20.0, 30.0, 2.0, 2.0),
        (3, "run", 20.0, 30.0, 0.0, 2.0),
    }


def test_more_nodes_than_rows_are_grouped(result) -> None:
    # 4 nodes in 2 rows: row 0 is nodes 0-1 (A, C), row 1 nodes 2-3 (B).
    plan = gantt.layout(result, 0, 120, max_rows=2)
    assert plan.rows.group == 2 and plan.rows.rows == 2
    assert {(j, k, b, h) for j, k, _, _, b, h in boxes(plan)} == {
        (1, "run", 0.0, 1.0), (1, "suspended", 0.0, 1.0), (2, "run", 1.0, 1.0),
        (3, "run", 0.0, 1.0),
    }  # fmt: skip


def test_a_selection_of_nodes(result) -> None:
    # Nodes 1 and 3 only: node 1 is row 0 (A, C), node 3 row 1 (B).
    plan = gantt.layout(result, 0, 120, nodes=[3, 1])
    assert plan.shown == [1, 3]
    assert {(j, k, b, h) for j, k, _, _, b, h in boxes(plan)} == {
        (1, "run", 0.0, 1.0), (1, "suspended", 0.0, 1.0), (2, "run", 1.0, 1.0),
        (3, "run", 0.0, 1.0),
    }  # fmt: skip
    # A range keeps its order: nodes 2-3 are rows 0-1 (B only).
    plan = gantt.layout(result, 0, 120, nodes=range(2, 4))
    assert {(j, b, h) for j, _, _, _, b, h in boxes(plan)} == {(2, 0.0, 2.0)}
    with pytest.raises(ValueError, match="not nodes of this machine"):
        gantt.layout(result, 0, 120, nodes=[4])


def test_cores_have_their_own_rows_on_multicore_nodes() -> None:
    # 2 nodes of 2 cores: A on both cores of node 0 (rows 0-1 in node units 0-1),
    # B on node 1; each core is half a node high.
    r = run(cores_per_node=2, nodes=2)
    plan = gantt.layout(r, 0, 120)
    assert plan.rows.by_core and plan.rows.rows == 2
    assert (1, "run", 0.0, 10.0, 0.0, 1.0) in boxes(plan)
    assert (2, "run", 0.0, 30.0, 1.0, 1.0) in boxes(plan)


def test_reservations_on_their_nodes_or_in_a_lane(result) -> None:
    table = pd.DataFrame(
        {
            "job": [7, 8],
            "start": [40.0, 50.0],
            "end": [60.0, 90.0],
            "size": [2, 1],
            "nodes": ["2-3", ""],
        }
    )
    plan = gantt.layout(result, 0, 120, reservations=table)
    assert (7, "reserved", 40.0, 60.0, 2.0, 2.0) in boxes(plan)
    # Job 8 names no nodes: a lane row below the 4 nodes.
    assert (8, "reserved", 50.0, 90.0, 4.15, 0.7) in boxes(plan)
    assert plan.lane == 1.0
    assert plan.notes == [(40.0, 3.0, " job 7 reserved"), (50.0, 4.5, " job 8 (1 cores)")]


def test_a_stepped_run_with_its_plan_and_placed_reservations() -> None:
    # EASY on 5 one-core nodes. At 0 job 1 (3 nodes, estimate 50) starts on 0-2;
    # job 2 (4 nodes) waits for it: reserved at 50 (shadow time) until 110.
    # At 10 job 3 (1 node, estimate 20) backfills on node 3 (ends 30 <= 50).
    jobs = [Job(1, 0.0, 40.0, 3, 50.0), Job(2, 5.0, 60.0, 4, 60.0), Job(3, 10.0, 20.0, 1, 20.0)]
    sim = Simulation(Workload.from_jobs(jobs, max_procs=5), EASY(), nodes=5)
    step = sim.step()
    while step is not None and step.now < 10:
        step = sim.step()
    assert step is not None and step.now == 10
    assert step.promises == (Reservation(2, 50.0, 110.0, 4),)
    view = sim.view()  # after the pass: job 3 is running
    assert [j.id for j in view.running] == [1, 3]
    placed = gantt.place(view, step.promises)
    assert placed["nodes"].tolist() == ["0-3"]  # free by 50: nodes 0-2 (job 1) and 3-4
    plan = gantt.layout(sim.result(partial=True), 0, 120, reservations=step.promises, view=view)
    assert (1, "planned", 10.0, 50.0, 0.0, 3.0) in boxes(plan)  # until its expected end
    assert (3, "planned", 10.0, 30.0, 3.0, 1.0) in boxes(plan)  # no piece yet: its allocation
    assert (2, "reserved", 50.0, 110.0, 0.0, 4.0) in boxes(plan)
    fig = gantt.gantt(sim.result(partial=True), 0, 120, reservations=step.promises, view=view)
    fig.savefig(io.BytesIO(), format="png")


def test_time_units_follow_the_window() -> None:
    assert gantt.time_axis(0, 600).unit == "s"
    assert gantt.time_axis(0, 3 * 3600).unit == "min"
    assert gantt.time_axis(0, 2 * 86400).unit == "h"
    assert gantt.time_axis(0, 30 * 86400).unit == "days"
    axis = gantt.time_axis(1000.0, 86400)
    assert axis(1000 + 7200) == 2.0


def test_job_colours() -> None:
    jobs = pd.DataFrame(
        {
            "id": np.arange(1, 21),
            "start": np.arange(20.0),
            "size": np.arange(1, 21),
            "queue": [0, 1] * 10,
            "category": pd.Categorical(["S N", "VS Seq"] * 10, ["VS Seq", "S N"]),
        }
    )
    by_job, key = gantt.job_colors(jobs)
    assert key is None and by_job[1] != by_job[2]  # consecutive starts differ
    by_cat, key = gantt.job_colors(jobs, "category")
    assert list(key) == ["VS Seq", "S N"]  # the categories' own order
    assert by_cat[1] == key["S N"] and by_cat[2] == key["VS Seq"]
    _, key = gantt.job_colors(jobs, "queue")
    assert list(key) == [0, 1]
    _, key = gantt.job_colors(jobs, "size")  # 20 numbers: a colour map
    assert isinstance(key, tuple)
    with pytest.raises(ValueError, match="not a column of the job table"):
        gantt.job_colors(jobs, "colour")


def test_the_figures_draw(result) -> None:
    table = pd.DataFrame({"job": [8], "start": [50.0], "end": [90.0], "size": [1]})
    fig = gantt.gantt(result, 0, 120, reservations=table, color_by="size")
    (ax,) = [a for a in fig.axes if a.get_label() != "<colorbar>"]
    assert ax.get_xlabel() == "time since the run's start (s)"
    assert ax.get_ylabel() == "node"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[:3] == ["run", "suspended", "reserved"]
    fig.savefig(io.BytesIO(), format="png")
    stacked = gantt.schedule_figure(result, 0, 120)
    assert [a.get_ylabel() for a in stacked.axes] == ["node", "busy (fraction)", "jobs"]
    assert stacked.axes[1].get_ylim() == (0.0, 1.0)  # utilization as a fraction, as stored
    stacked.savefig(io.BytesIO(), format="png")


def test_without_a_piece_log() -> None:
    jobs = [Job(1, 0.0, 10.0, 1, 10.0)]
    r = Simulation(Workload.from_jobs(jobs, max_procs=1), Scripted({0: [("start", 1)]}),
                   pieces=False).run()  # fmt: skip
    with pytest.raises(ValueError, match="no piece log"):
        gantt.gantt(r)


def test_the_interactive_chart(result) -> None:
    pytest.importorskip("plotly")
    from schedsim.app.gantt_interactive import gantt_interactive

    fig = gantt_interactive(result, 0, 120, color_by="size")
    traces = {t.name: t for t in fig.data}
    assert set(traces) == {"run", "suspended"}
    run_trace = traces["run"]
    # One bar per run rectangle, and the hover row is the job's.
    assert len(run_trace.base) == 4
    ids = [int(row[0]) for row in run_trace.customdata]
    assert sorted(ids) == [1, 1, 2, 3]
    assert "size" in run_trace.hovertemplate


def test_reservations_are_logged_and_saved(tmp_path) -> None:
    from schedsim.app.cli import main
    from schedsim.model.results import Result

    out = tmp_path / "run"
    assert main(["run", "--first", "60", "--policy", "conservative", "--log-reservations",
                 "--out", str(out), "--no-progress"]) == 0  # fmt: skip
    saved = Result.load(out).reservations
    assert saved is not None and list(saved.columns) == [
        "pass", "time", "job", "kind", "start", "end", "size", "nodes",
    ]  # fmt: skip
    assert len(saved) > 0 and (saved["start"] >= saved["time"]).all()


# -- a long window: the heat map ----------------------------------------------------


def test_busy_shares_by_hand(result) -> None:
    # 5 bins of 24 s. Nodes 0-1: A [0, 10), C [10, 30), A [30, 120): busy throughout
    # (A's suspended piece [10, 30) holds no cores: counted, nodes 0-1 would exceed 1).
    # Nodes 2-3: B [0, 30): all of bin 0, 6 s of bin 1.
    grid = gantt.busy_shares(result, 0, 120, bins=5)
    assert grid.edges.tolist() == [0.0, 24.0, 48.0, 72.0, 96.0, 120.0]
    assert grid.pieces == 5
    np.testing.assert_allclose(
        grid.shares,
        [[1, 1, 1, 1, 1], [1, 1, 1, 1, 1], [1, 0.25, 0, 0, 0], [1, 0.25, 0, 0, 0]],
        atol=1e-12,
    )
    # A window, bins of 20 s from 5 s: B's last 5 s in bin 1.
    grid = gantt.busy_shares(result, 5, 65, bins=3)
    np.testing.assert_allclose(grid.shares[2:], [[1, 0.25, 0], [1, 0.25, 0]], atol=1e-12)


def test_busy_shares_on_grouped_selected_and_multicore_rows(result) -> None:
    # Rows of 2 nodes: a row's share is over both nodes' cores.
    grid = gantt.busy_shares(result, 0, 120, bins=5, max_rows=2)
    assert grid.shares.shape == (2, 5) and grid.rows.group == 2
    np.testing.assert_allclose(grid.shares[1], [1, 0.25, 0, 0, 0], atol=1e-12)
    # Nodes 0-2 in rows of 2: the last row holds node 2 alone, and is over its cores only.
    grid = gantt.busy_shares(result, 0, 120, range(3), bins=5, max_rows=2)
    np.testing.assert_allclose(grid.shares, [[1] * 5, [1, 0.25, 0, 0, 0]], atol=1e-12)
    # Nodes 3 and 0, scattered: in node order.
    grid = gantt.busy_shares(result, 0, 120, [3, 0], bins=5)
    assert grid.shown == [0, 3]
    np.testing.assert_allclose(grid.shares, [[1] * 5, [1, 0.25, 0, 0, 0]], atol=1e-12)
    # 2 nodes of 2 cores: a row per node, over its 2 cores (A and C hold both of node 0).
    grid = gantt.busy_shares(run(cores_per_node=2, nodes=2), 0, 120, bins=5)
    np.testing.assert_allclose(grid.shares, [[1] * 5, [1, 0.25, 0, 0, 0]], atol=1e-12)
    with pytest.raises(ValueError, match="bins must be at least 1"):
        gantt.busy_shares(result, bins=0)


def test_busy_shares_add_up_to_the_series() -> None:
    # On a real run (EASY, the first 400 KTH jobs on 64 nodes): the busy core-seconds of
    # every cell add up to the series' busy cores integrated over the window.
    from schedsim.workloads.catalog import load
    from schedsim.workloads.transforms import first

    r = Simulation(first(load("kth"), 400), EASY(), nodes=64, wide="drop").run()
    lo = float(r.meta["start"])
    hi = float(r.jobs["end"].max())
    grid = gantt.busy_shares(r, lo, hi, bins=37)  # bins that cut pieces anywhere
    assert grid.shares.min() >= 0 and grid.shares.max() <= 1 + 1e-9
    busy = grid.shares.sum() * (hi - lo) / 37  # each row one core
    s = r.series.drop_duplicates("time", keep="last")
    times = np.clip(np.append(s["time"].to_numpy(), hi), lo, hi)
    assert busy == pytest.approx(float(np.sum(s["busy_cores"].to_numpy() * np.diff(times))))


def test_past_max_pieces_the_chart_is_a_heat_map(result) -> None:
    from matplotlib.image import AxesImage

    assert gantt.pieces_in(result, 0, 120) == 5 and gantt.pieces_in(result, 35, 120) == 1
    fig = gantt.gantt(result, 0, 120, max_pieces=4, title="demo")
    chart, bar = fig.axes  # the heat map and its colour bar
    assert any(isinstance(a, AxesImage) for a in chart.get_images())
    assert chart.get_title().startswith("demo\n5 pieces in the window (more than max_pieces=4)")
    assert chart.get_title().endswith("every piece shows in a window of about 96 s")
    assert bar.get_ylabel() == "busy share of the cell's core-seconds (fraction)"
    assert chart.get_ylabel() == "node" and chart.get_xlabel().endswith("(s)")
    fig.savefig(io.BytesIO(), format="png")
    # At the threshold, and without one, the rectangles.
    assert not gantt.gantt(result, 0, 120, max_pieces=5).axes[0].get_images()
    assert not gantt.gantt(result, 0, 120, max_pieces=None).axes[0].get_images()
    # schedule_figure passes it on; the panels below are the same.
    stacked = gantt.schedule_figure(result, 0, 120, max_pieces=1)
    assert stacked.axes[0].get_images()
    assert [a.get_ylabel() for a in stacked.axes[1:3]] == ["busy (fraction)", "jobs"]
    stacked.savefig(io.BytesIO(), format="png")


def test_the_interactive_chart_past_max_pieces(result) -> None:
    pytest.importorskip("plotly")
    from schedsim.app.gantt_interactive import gantt_interactive

    fig = gantt_interactive(result, 0, 120, max_pieces=4, bins=5)
    (trace,) = fig.data
    assert trace.type == "heatmap" and list(trace.y) == ["0", "1", "2", "3"]
    np.testing.assert_allclose(np.asarray(trace.z)[2], [1, 0.25, 0, 0, 0], atol=1e-6)
    assert trace.colorbar.title.text == "busy share (fraction)"
    assert fig.layout.title.text.startswith("5 pieces in the window (more than max_pieces=4)")
