"""The snapshots a policy reads: built fast in one place each, and frozen for good.

`JobView`'s and `View`'s field order is written once, in their named tuples; the fast
constructors the scheduler uses (`job_view_of`, `new_view`) are compiled from it, so a
field added or moved cannot put a value under another field's name. A View holds no
state a policy could see change: `View.get`'s index is private and made from the
view's own jobs."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from schedsim.model.cluster import Allocation
from schedsim.model.job import JobRun
from schedsim.model.view import (
    JobView,
    Outcome,
    State,
    View,
    job_replacer,
    job_view_of,
    new_view,
)
from schedsim.workloads.job import Job


def _job(id_: int, submit: float = 0.0, size: int = 2) -> Job:
    return Job(id=id_, submit=submit, run_time=100.0, size=size, estimate=200.0)


def test_a_snapshot_reads_every_field_of_its_record_by_name() -> None:
    # Every field gets a value of its own, so that one put under another's name shows.
    run = JobRun(_job(7, submit=3.0), state=State.RUNNING)
    alloc, home = Allocation.on([0, 1], 1), Allocation.on([2, 3], 1)
    values = {
        "allocation": alloc, "home": home, "since": 11.0, "progressing": False, "rate": 0.5,
        "work_done": 12.0, "run_time_done": 13.0, "expected_end": 14.0, "limit": 15.0,
        "first_start": 16.0, "end": 17.0, "outcome": Outcome.KILLED, "suspensions": 18,
        "attempts": 19,
    }  # fmt: skip
    for name, value in values.items():
        setattr(run, name, value)
    view = run.snapshot()
    assert type(view) is JobView and JobRun.snapshot is job_view_of
    assert len(view) == len(JobView._fields)
    for name in JobView._fields:
        assert getattr(view, name) is getattr(run, name), name


def test_a_view_is_built_by_keyword_only_in_the_order_of_its_fields() -> None:
    assert list(inspect.signature(new_view).parameters) == list(View._fields)
    assert all(
        p.kind is inspect.Parameter.KEYWORD_ONLY
        for p in inspect.signature(new_view).parameters.values()
    )
    fields = {name: object() for name in View._fields}
    view = new_view(**fields)
    assert type(view) is View
    assert all(getattr(view, name) is value for name, value in fields.items())
    with pytest.raises(TypeError):
        new_view(*fields.values())


def _view(queue: tuple[JobView, ...] = (), running: tuple[JobView, ...] = ()) -> View:
    return View.of(10.0, 4, queue=queue, running=running)


def test_a_replacer_copies_a_job_as_replace_would_and_names_only_its_fields() -> None:
    job = JobView.of(Job(id=3, submit=5.0, run_time=60.0, size=2, estimate=90.0))
    replace = job_replacer("submit", "since", state=State.RUNNING, progressing=True)
    fast = replace(job, 1.5, 7.0)
    slow = job._replace(submit=1.5, since=7.0, state=State.RUNNING, progressing=True)
    assert type(fast) is JobView and tuple(fast) == tuple(slow)
    with pytest.raises(ValueError, match="no field nope, subm"):
        job_replacer("subm", nope=1)


def test_a_view_holds_no_mutable_field() -> None:
    running = JobRun(_job(1), state=State.RUNNING, allocation=Allocation.on([0, 1], 1))
    view = _view(queue=(JobView.of(_job(2, submit=5.0)),), running=(running.snapshot(),))
    assert "lookup" not in View._fields
    for name in View._fields:
        value = getattr(view, name)
        assert not isinstance(value, (dict, list, set)), name
        if isinstance(value, np.ndarray):
            assert not value.flags.writeable, name


def test_get_finds_the_views_own_jobs_also_after_replace() -> None:
    a, b = JobView.of(_job(1)), JobView.of(_job(2))
    view = _view(queue=(a,))
    assert view.get(1) is a and view.get(2) is None
    # A view made from another shows its own jobs, not the index of the first.
    other = view._replace(queue=(b,))
    assert other.get(2) is b and other.get(1) is None
    assert view.get(1) is a
    assert _view().get(1) is None


def test_nothing_can_be_set_on_a_view() -> None:
    view = _view(queue=(JobView.of(_job(1)),))
    view.get(1)
    for name in ("now", "queue", "lookup", "anything", "_by_id"):
        with pytest.raises(AttributeError):
            setattr(view, name, None)
        with pytest.raises(AttributeError):
            delattr(view, name)
    assert view.get(1) is view.queue[0]
