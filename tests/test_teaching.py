"""Teaching demos (`schedsim.app.teaching`): frames, explanations, animations, the stepper.

The run is the one of ``notebooks/teaching/why_backfilling.ipynb``: EASY on 8
nodes. Job 1 (4 nodes, 40 s) starts at 0; job 2 (6 nodes) and job 3 (7
nodes) must wait for it; job 4 (2 nodes, 50 s) arrives at 3 and backfills,
passing jobs 2 and 3, since it fits the 2 nodes job 2 leaves at its
reservation (40 s); job 5 (1 node, 20 s) backfills at 4; job 2 starts at 40,
and job 3, which EASY's backfill of job 4 delayed, at 53.
"""

from __future__ import annotations

import builtins
import json

import pytest

from schedsim import Simulation
from schedsim.app import teaching
from schedsim.model.policy import Reservation
from schedsim.workloads.job import Job
from schedsim.workloads.workload import Workload

JOBS = [
    Job(1, 0, 40, 4, 40),
    Job(2, 1, 10, 6, 10),
    Job(3, 2, 20, 7, 20),
    Job(4, 3, 50, 2, 50),
    Job(5, 4, 20, 1, 20),
]


@pytest.fixture(scope="module")
def frames() -> list[teaching.Frame]:
    sim = Simulation(Workload.from_jobs(JOBS, max_procs=8), "easy", nodes=8)
    return teaching.record(sim, keep=teaching.acts)


def test_the_frames_and_what_they_say(frames) -> None:
    assert [teaching.explain(f) for f in frames] == [
        "t = 0 s (pass 1): start 1",
        "t = 3 s (pass 4): start 4 (ahead of 2, 3), reserve 6 cores for 2 at 40 s",
        "t = 4 s (pass 5): start 5 (ahead of 2, 3), reserve 6 cores for 2 at 40 s",
        "t = 40 s (pass 7): start 2, reserve 7 cores for 3 at 53 s",
        "t = 53 s (pass 9): start 3",
    ]
    assert frames[1].promises == (Reservation(2, 40.0, 50.0, 6),)
    # After the pass, job 4 runs; the policy saw it queued.
    assert [j.id for j in frames[1].view.running] == [1, 4]
    assert 4 in {j.id for j in frames[1].seen.queue}
    # Partial results grow; the last frame holds the whole run.
    assert frames[1].result.meta["partial"] and not frames[1].final
    assert frames[-1].final and not frames[-1].result.meta["partial"]
    assert len(frames[-1].result.jobs) == 5


def test_every_pass_is_kept_without_a_filter() -> None:
    sim = Simulation(Workload.from_jobs(JOBS, max_procs=8), "easy", nodes=8)
    every = teaching.record(sim)
    assert len(every) == 10 and [f.number for f in every] == list(range(1, 11))
    sim = Simulation(Workload.from_jobs(JOBS, max_procs=8), "easy", nodes=8)
    with pytest.raises(ValueError, match="more than 3 frames"):
        teaching.record(sim, limit=3)


def test_a_frame_draws_the_plan_and_the_reservation(frames) -> None:
    fig = teaching.draw(frames[1], 130)
    (ax,) = fig.axes
    assert ax.get_title() == teaching.explain(frames[1])
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["run", "planned", "reserved"]
    last = teaching.draw(frames[-1], 130)
    legend = [t.get_text() for t in last.axes[0].get_legend().get_texts()]
    assert legend == ["run"]  # the end: nothing planned or reserved


def test_an_animation_as_html_and_gif(frames, tmp_path) -> None:
    html, gif = tmp_path / "a.html", tmp_path / "a.gif"
    animation = teaching.animate(frames, html=html, gif=gif, interval_ms=500)
    assert "<script" in html.read_text() and gif.read_bytes()[:6] in (b"GIF89a", b"GIF87a")
    assert animation is not None


def test_the_stepper_with_and_without_widgets(frames, monkeypatch) -> None:
    pytest.importorskip("ipywidgets")
    widget = teaching.stepper(frames)
    assert type(widget).__name__ == "VBox"
    real_import = builtins.__import__

    def no_widgets(name, *args, **kwargs):
        if name == "ipywidgets":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    shown = []
    monkeypatch.setattr(builtins, "__import__", no_widgets)
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    assert teaching.stepper(frames) is None
    assert len(shown) == len(frames)  # every frame, one under the other


def test_committed_notebooks_carry_no_outputs() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "notebooks"
    notebooks = sorted(root.rglob("*.ipynb"))
    assert len(notebooks) >= 5
    for path in notebooks:
        doc = json.loads(path.read_text())
        dirty = [
            i
            for i, cell in enumerate(doc["cells"])
            if cell["cell_type"] == "code" and (cell.get("outputs") or cell.get("execution_count"))
        ]
        assert not dirty, f"{path.name}: cells {dirty} have outputs (strip them before committing)"
