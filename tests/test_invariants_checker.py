"""The piece-log checker (`invariants.check_pieces`) fails on a corrupted log.

Every policy's schedules are checked by it (tests/test_invariants.py); here a
correct log of a run with a suspension is altered one way at a time, and each
alteration must be caught, so that a checker made faster cannot have become blind.
"""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
import pytest

from schedsim import Simulation
from schedsim.workloads.job import Job
from schedsim.workloads.workload import Workload

from invariants import check_pieces


@pytest.fixture(scope="module")
def run():
    # Two nodes. Job 1 holds node 0; job 2 runs on node 1 until job 3 arrives at 10 and,
    # at the next tick of Selective Suspension, suspends it; job 2 resumes on node 1.
    jobs = [Job(1, 0.0, 2000.0, 1, 100000.0), Job(2, 0.0, 1000.0, 1, 1000.0)]
    jobs.append(Job(3, 10.0, 100.0, 1, 100.0))
    workload = Workload.from_jobs(jobs, max_procs=2)
    result = Simulation(workload, "ss", nodes=2).run()
    assert (result.pieces["kind"].astype(str) == "suspended").any()
    return result


def _with(result, pieces: pd.DataFrame) -> SimpleNamespace:
    return SimpleNamespace(pieces=pieces, jobs=result.jobs, meta=result.meta)


def test_the_log_as_made_passes(run) -> None:
    check_pieces(run)


def _row(pieces: pd.DataFrame, job: int, kind: str) -> int:
    mine = pieces[(pieces["job"] == job) & (pieces["kind"].astype(str) == kind)]
    return int(mine.index[0])


@pytest.mark.parametrize(
    "change",
    ["moved", "gap", "short", "rate", "suspended elsewhere", "one core twice", "no length"],
)
def test_a_corrupted_log_fails(run, change: str) -> None:
    pieces = run.pieces.copy()
    pieces["nodes"] = pieces["nodes"].astype(str)
    pieces["cores"] = pieces["cores"].astype(str)
    first_run = _row(pieces, 2, "run")
    suspended = _row(pieces, 2, "suspended")
    if change == "moved":  # the resumed piece on the other node
        last = int(pieces.index[pieces["job"] == 2][-1])
        pieces.loc[last, ["nodes", "cores"]] = "0"
    elif change == "gap":  # the suspension starts a second late
        pieces.loc[suspended, "start"] += 1.0
    elif change == "short":  # the first run piece a second shorter than the job ran
        pieces.loc[first_run, "end"] -= 1.0
        pieces.loc[suspended, "start"] -= 1.0
    elif change == "rate":
        pieces.loc[first_run, "rate"] = 2.0
    elif change == "suspended elsewhere":
        pieces.loc[suspended, ["cores"]] = "0"
    elif change == "one core twice":  # job 3 on node 0, beside job 1
        three = _row(pieces, 3, "run")
        pieces.loc[three, ["nodes", "cores"]] = "0"
    else:
        pieces.loc[first_run, "end"] = pieces.loc[first_run, "start"]
    with pytest.raises(AssertionError):
        check_pieces(_with(run, pieces))
