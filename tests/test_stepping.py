"""Stepping and observing a run: step(), run(until=), partial results, observers, decisions.

None of them may change the schedule: stepping a run to its end, or stopping
it on the way, gives the same result as running it in one go, bit for bit.
"""

from __future__ import annotations

import pandas as pd
import pytest

from schedsim import Simulation
from schedsim.model.overhead import MemoryOverhead
from schedsim.model.pieces import Piece
from schedsim.model.scheduler import Pass
from schedsim.model.view import State
from schedsim.workloads.catalog import load
from schedsim.workloads.transforms import first

from invariants import check_invariants

#: Policies whose runs exercise suspensions, overhead, timers and reservations.
CASES = [
    ("easy", {}),
    ("conservative", {}),
    ("ss", {}),
    ("ss", {"overhead": MemoryOverhead()}),
    ("pfcfs1", {}),
    ("is", {}),
]


@pytest.fixture(scope="module")
def kth() -> object:
    return first(load("kth"), 400)


def make(kth, policy: str, **options) -> Simulation:
    return Simulation(kth, policy, nodes=60, seed=3, wide="drop", **options)


def same(a, b) -> None:
    pd.testing.assert_frame_equal(a.jobs, b.jobs)
    pd.testing.assert_frame_equal(a.series, b.series)
    pd.testing.assert_frame_equal(a.pieces, b.pieces)
    keep = {k: v for k, v in a.meta.items() if k != "wall_time"}
    assert keep == {k: v for k, v in b.meta.items() if k != "wall_time"}


@pytest.mark.parametrize(("policy", "options"), CASES)
def test_stepping_to_the_end_gives_the_same_result_as_run(kth, policy, options) -> None:
    whole = make(kth, policy, **options).run()
    sim = make(kth, policy, **options)
    passes = []
    while (step := sim.step()) is not None:
        passes.append(step)
    assert [p.number for p in passes] == list(range(1, whole.meta["passes"] + 1))
    assert all(isinstance(p, Pass) for p in passes)
    assert sim.step() is None and sim.finished
    same(sim.run(), whole)
    check_invariants(whole, sim.workload, 60)


@pytest.mark.parametrize(("policy", "options"), CASES[:3])
def test_running_in_stretches_gives_the_same_result(kth, policy, options) -> None:
    whole = make(kth, policy, **options).run()
    sim = make(kth, policy, **options)
    t0, t1 = float(kth[0].submit), float(whole.meta["end"])
    for k in range(1, 8):
        partial = sim.run(until=t0 + (t1 - t0) * k / 8)
        assert partial.partial and partial.meta["end"] == sim.now
    same(sim.run(), whole)


def test_a_step_returns_the_view_the_policy_saw(kth) -> None:
    sim = make(kth, "easy")
    step = sim.step()
    assert step is not None
    view = step.view
    queued = {j.id for j in view.queue}
    started = {d.job.id for d in step.decisions}
    assert started <= queued and step.now == view.now
    # The snapshots do not follow the run: the started jobs still read as queued.
    for _ in range(20):
        sim.step()
    assert all(j.state is State.QUEUED for j in view.queue)
    with pytest.raises(AttributeError):
        view.queue[0].state = State.RUNNING  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        view.now = 0.0  # type: ignore[misc]
    with pytest.raises(ValueError):
        view.free_per_node[0] = 0


def test_a_partial_result_holds_what_happened_so_far(kth) -> None:
    whole = make(kth, "ss").run()
    sim = make(kth, "ss")
    t = float(whole.jobs["submit"].median())
    part = sim.run(until=t)
    jobs = part.jobs.set_index("id")
    assert set(jobs.index) == set(whole.jobs.loc[whole.jobs["submit"] < t, "id"])
    live = jobs["outcome"] == "unfinished"
    assert live.any() and jobs.loc[live, "end"].isna().all()
    # Finished jobs read as in the whole run; unfinished ones have waited and run so far.
    done = whole.jobs.set_index("id").loc[jobs.index[~live]]
    pd.testing.assert_frame_equal(jobs.loc[~live, done.columns], done, check_dtype=False)
    unfinished = jobs[live]
    assert ((unfinished["wait"] + unfinished["run"]) == t - unfinished["submit"]).all()
    # Pieces end at the clock at the latest; the summary counts finished jobs only.
    assert part.pieces["end"].max() <= t
    summary = part.summary()
    assert summary["unfinished"] == int(live.sum()) and summary["jobs"] == int((~live).sum())
    with pytest.raises(RuntimeError, match="not over"):
        sim.result()


class Recorder:
    def __init__(self) -> None:
        self.passes: list[Pass] = []
        self.pieces: list[Piece] = []

    def on_pass(self, step: Pass) -> None:
        self.passes.append(step)

    def on_piece(self, piece: Piece) -> None:
        self.pieces.append(piece)


@pytest.mark.parametrize(("policy", "options"), CASES)
def test_an_observer_is_told_of_every_pass_and_piece(kth, policy, options) -> None:
    seen = Recorder()
    result = make(kth, policy, observer=seen, **options).run()
    assert [p.number for p in seen.passes] == list(range(1, result.meta["passes"] + 1))
    # The last report of each piece (a lost attempt's run pieces come again as lost).
    last: dict[tuple, str] = {}
    for p in seen.pieces:
        last[(p.job, p.attempt, p.start, p.end)] = p.kind
    logged = {(r.job, r.attempt, r.start, r.end): str(r.kind) for r in result.pieces.itertuples()}
    assert last == logged
    # A plain callable gets both kinds of event.
    events: list = []
    make(kth, policy, observer=events.append, **options).run()
    assert sum(isinstance(e, Pass) for e in events) == result.meta["passes"]
    assert sum(isinstance(e, Piece) for e in events) == len(seen.pieces)


def test_observing_does_not_change_the_schedule(kth) -> None:
    plain = make(kth, "ss").run()
    watched = make(kth, "ss", observer=lambda event: None, log_decisions=True).run()
    same(plain, watched)


def test_the_decision_log(kth) -> None:
    result = make(kth, "ss", log_decisions=True).run()
    log = result.decisions
    assert log is not None and list(log.columns) == [
        "pass", "time", "decision", "job", "nodes", "limit", "on_limit", "penalty", "rate",
        "wake",
    ]  # fmt: skip
    starts = log[log["decision"] == "start"]
    jobs = result.jobs.set_index("id")
    # One start per job here (no requeue), on the nodes the job table names.
    assert sorted(starts["job"]) == sorted(jobs.index)
    assert (starts.set_index("job")["nodes"] == jobs.loc[starts["job"], "nodes"]).all()
    suspends = (log["decision"] == "suspend").sum()
    assert suspends == jobs["suspensions"].sum() > 0
    assert set(log["decision"]) <= {"start", "suspend", "resume", "wake_at"}
    assert (log["pass"].diff().fillna(0) >= 0).all()
    assert make(kth, "ss").run().decisions is None


def test_without_the_piece_log(kth) -> None:
    plain = make(kth, "ss").run()
    lean = make(kth, "ss", pieces=False).run()
    assert lean.pieces is None
    pd.testing.assert_frame_equal(plain.jobs, lean.jobs)
