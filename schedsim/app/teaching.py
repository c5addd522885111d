"""Teaching demos: a run recorded pass by pass, drawn frame by frame, animated, stepped.

A demo steps a small simulation (`schedsim.model.simulation.ModelSimulation.step`)
and keeps, after every scheduling pass, a `Frame`: the clock, what the
policy saw, what it decided, the reservations it then held, the state after
the pass and the partial result so far. `record` makes the frames, `draw`
draws one (the schedule view of `schedsim.app.gantt` with the running jobs
drawn on to their expected ends and the reservations as outlines),
`explain` says in one line what the pass did, `animate` turns the frames
into a matplotlib animation (HTML with its own player, or a GIF), and
`stepper` shows them in a notebook with a slider and play buttons
(ipywidgets), or, where widgets are not available (a static render, a
terminal), the frames one under the other.

Every frame is drawn on the same time window, so a reader sees the
schedule grow rather than the axis move.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schedsim.app import gantt
from schedsim.model.policy import Decision, Kill, Requeue, Reservation, Resume, Start, Suspend
from schedsim.model.results import Result
from schedsim.model.simulation import ModelSimulation
from schedsim.model.view import View

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.animation import FuncAnimation
    from matplotlib.figure import Figure

__all__ = ["Frame", "animate", "draw", "explain", "record", "stepper"]


@dataclass(frozen=True)
class Frame:
    """A run just after one scheduling pass."""

    #: The pass's number (from 1) and clock time.
    number: int
    now: float
    #: What the policy saw, and what it returned (applied by now).
    seen: View
    decisions: tuple[Decision, ...]
    #: The reservations the policy held after the pass (`Policy.promises`).
    promises: tuple[Reservation, ...]
    #: The state after the pass (jobs just started are running here).
    view: View
    #: Everything so far (a partial result; the whole result at the last frame).
    result: Result
    #: Whether this is the run's end (`result` is complete; nothing runs on).
    final: bool = False


def record(
    sim: ModelSimulation, *, keep: Callable[[Frame], bool] | None = None, limit: int = 500
) -> list[Frame]:
    """Step ``sim`` to its end and keep a `Frame` after every pass (or those ``keep`` likes).

    ``limit`` bounds the frames kept (a demo of thousands of passes is no
    demo): past it, `ValueError`. The last frame holds the complete result.
    """
    frames: list[Frame] = []
    while (step := sim.step()) is not None:
        frame = Frame(
            step.number,
            step.now,
            step.view,
            step.decisions,
            step.promises,
            sim.view(),
            sim.result(partial=True),
        )
        if keep is None or keep(frame):
            if len(frames) >= limit:
                raise ValueError(f"more than {limit} frames: record a smaller run, or keep fewer")
            frames.append(frame)
    if frames:
        last = frames[-1]
        frames[-1] = dataclasses.replace(last, result=sim.run(), final=True)
    return frames


def acts(frame: Frame) -> bool:
    """Whether the pass decided anything but timers (a `record` filter for short demos)."""
    return any(not _is_timer(d) for d in frame.decisions)


def _is_timer(decision: Decision) -> bool:
    return type(decision).__name__ == "WakeAt"


def explain(frame: Frame) -> str:
    """What the pass did, in one line: ``"t = 10 s: start 3 (ahead of 2), suspend 1"``.

    A start "ahead of" jobs means earlier-submitted jobs were still waiting
    after the pass: a backfill (or a preemption) let it pass them.
    """
    waiting_after = {j.id for j in frame.view.queue}
    parts = []
    for d in frame.decisions:
        if isinstance(d, Start):
            ahead = sorted(
                j.id for j in frame.seen.queue if j.id in waiting_after and
                (j.submit, j.id) < (d.job.submit, d.job.id)
            )  # fmt: skip
            note = f" (ahead of {', '.join(map(str, ahead))})" if ahead else ""
            parts.append(f"start {d.job.id}{note}")
        elif isinstance(d, Suspend):
            parts.append(f"suspend {d.job.id}")
        elif isinstance(d, Resume):
            parts.append(f"resume {d.job.id}")
        elif isinstance(d, Kill):
            parts.append(f"kill {d.job.id}")
        elif isinstance(d, Requeue):
            parts.append(f"requeue {d.job.id}")
    for r in frame.promises:
        if r.kind == "pivot":
            parts.append(f"pivot {r.job} planned at {r.start:g} s")
        elif r.kind == "advance":
            parts.append(f"{r.job}'s advance reservation at {r.start:g} s")
        else:
            parts.append(f"reserve {r.size} cores for {r.job} at {r.start:g} s")
    what = ", ".join(parts) if parts else "nothing to do"
    return f"t = {frame.now:g} s (pass {frame.number}): {what}"


def draw(
    frame: Frame,
    end: float | None = None,
    *,
    ax: Any = None,
    title: str | None = None,
    **options: Any,
) -> Figure:
    """The schedule at ``frame``, from the run's start to ``end`` (options go to
    `schedsim.app.gantt.gantt`): what ran, what runs on by its estimate, what is
    promised."""
    return gantt.gantt(
        frame.result,
        None,
        end,
        reservations=frame.promises,
        view=None if frame.final else frame.view,
        ax=ax,
        title=title if title is not None else explain(frame),
        **options,
    )


def _window_end(frames: Sequence[Frame]) -> float:
    """An end that shows every frame whole: the last end, planned end or reservation."""
    last = frames[-1].result
    end = float(last.jobs["end"].max())
    for f in frames:
        for job in f.view.running:
            end = max(end, job.expected_end)
        for r in f.promises:
            end = max(end, r.end)
    start = float(last.meta["start"])
    return end + 0.02 * (end - start)


def animate(
    frames: Sequence[Frame],
    *,
    html: str | Path | None = None,
    gif: str | Path | None = None,
    interval_ms: int = 1200,
    figsize: tuple[float, float] = (9, 4),
    **options: Any,
) -> FuncAnimation:
    """The frames as a matplotlib animation (one frame a pass, ``interval_ms`` apart).

    ``html`` writes it as an HTML page with its own player (matplotlib's
    JavaScript animation: a browser opens it, no Python needed); ``gif`` as
    an animated GIF (Pillow). In a notebook, `IPython.display.HTML` of
    ``animation.to_jshtml()`` shows it inline.
    """
    from matplotlib.animation import FuncAnimation, PillowWriter
    from matplotlib.figure import Figure

    if not frames:
        raise ValueError("no frames to animate")
    end = _window_end(frames)
    fig = Figure(figsize=figsize, layout="constrained")
    ax = fig.subplots()

    def show(i: int) -> list[Any]:
        ax.clear()
        for extra in fig.axes[1:]:  # a colour bar from the frame before
            extra.remove()
        draw(frames[i], end, ax=ax, **options)
        return []

    animation = FuncAnimation(fig, show, frames=len(frames), interval=interval_ms, blit=False)
    if html is not None:
        Path(html).write_text(animation.to_jshtml(default_mode="once"))
    if gif is not None:
        animation.save(str(gif), writer=PillowWriter(fps=max(1, round(1000 / interval_ms))))
    return animation


def stepper(frames: Sequence[Frame], **options: Any) -> Any:
    """Step through the frames in a notebook: a slider, play and step buttons (ipywidgets).

    Returns the widget to display. Without ipywidgets (or a front end that
    shows widgets) it returns None after displaying every frame as a static
    figure, one under the other, so that a rendered notebook still tells the
    whole story.
    """
    from IPython.display import display

    end = _window_end(frames)
    try:
        import ipywidgets as widgets
    except ImportError:
        for frame in frames:
            display(draw(frame, end, **options))
        return None
    out = widgets.Output()
    slider = widgets.IntSlider(value=0, min=0, max=len(frames) - 1, description="pass")
    play = widgets.Play(value=0, min=0, max=len(frames) - 1, interval=1500)
    widgets.jslink((play, "value"), (slider, "value"))
    back = widgets.Button(description="back", icon="step-backward")
    forward = widgets.Button(description="forward", icon="step-forward")

    def render(change: Any = None) -> None:
        with out:
            out.clear_output(wait=True)
            display(draw(frames[slider.value], end, **options))

    def move(by: int) -> Callable[[Any], None]:
        def go(_button: Any) -> None:
            slider.value = min(max(slider.value + by, 0), len(frames) - 1)

        return go

    back.on_click(move(-1))
    forward.on_click(move(1))
    slider.observe(render, names="value")
    render()
    return widgets.VBox([widgets.HBox([play, back, forward, slider]), out])
