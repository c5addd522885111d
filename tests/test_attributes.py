"""Job attributes: set by transforms (from a named seeded stream), shown in the job table,
kept by Parquet (the job table, and workloads) and by SWF where it has a field."""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest

from schedsim import Simulation
from schedsim.model.overhead import MemoryOverhead
from schedsim.model.results import Result
from schedsim.model.sources import Population
from schedsim.workloads.catalog import load
from schedsim.workloads.job import Job
from schedsim.workloads.parquet import read_workload, write_workload
from schedsim.workloads.swf import read_swf, write_swf
from schedsim.workloads.transforms import choices, first, with_attribute
from schedsim.workloads.users import DailyCycle, fit_users


@pytest.fixture(scope="module")
def kth():
    return first(load("kth"), 300)


def test_attributes_are_read_only_and_pickle() -> None:
    job = Job(1, 0.0, 10.0, 1, 10.0, attrs={"priority": "high"})
    with pytest.raises(TypeError):
        job.attrs["priority"] = "low"  # type: ignore[index]
    again = pickle.loads(pickle.dumps(job))
    assert again == job and again.attrs == {"priority": "high"}
    assert Job(1, 0.0, 10.0, 1, 10.0) != job  # attributes are part of the record


def test_drawn_attributes_follow_their_named_stream(kth) -> None:
    pick = choices(["high", "low"], p=[0.75, 0.25])
    a = with_attribute(kth, "priority", draw=pick, seed=1)
    b = with_attribute(kth, "priority", draw=pick, seed=1)
    c = with_attribute(kth, "priority", draw=pick, seed=2)
    values = [j.attrs["priority"] for j in a]
    assert values == [j.attrs["priority"] for j in b]
    assert values != [j.attrs["priority"] for j in c]
    assert 0.6 < values.count("high") / len(values) < 0.9
    # Another attribute drawn first does not move these draws (own stream).
    d = with_attribute(
        with_attribute(kth, "other", draw=pick, seed=1), "priority", draw=pick, seed=1
    )
    assert [j.attrs["priority"] for j in d] == values
    assert str(a.cleaning[-1]).startswith("attribute priority: drawn from stream")


def test_values_a_sequence_or_a_function(kth) -> None:
    w = with_attribute(kth, "tag", "x")
    assert {j.attrs["tag"] for j in w} == {"x"}
    w = with_attribute(kth, "rank", list(range(len(kth))))
    assert [j.attrs["rank"] for j in w] == list(range(len(kth)))
    w = with_attribute(kth, "big", lambda j: j.size > 8)
    assert sum(j.attrs["big"] for j in w) == sum(j.size > 8 for j in kth)
    with pytest.raises(ValueError, match="exactly one"):
        with_attribute(kth, "x")
    with pytest.raises(ValueError, match="values for"):
        with_attribute(kth, "x", [1, 2])
    with pytest.raises(ValueError, match="needs the seed"):
        with_attribute(kth, "x", draw=choices([1]))
    with pytest.raises(ValueError, match="whole number"):
        with_attribute(kth, "queue", 1.5)


def test_attributes_are_columns_and_survive_the_job_table_in_parquet(kth, tmp_path) -> None:
    w = with_attribute(kth, "priority", draw=choices(["high", "low"]), seed=4)
    w = with_attribute(w, "reservation", lambda j: j.submit + 3600.0 if j.id % 7 == 0 else None)
    w = with_attribute(w, "queue", lambda j: 1 if j.attrs["priority"] == "high" else 2)
    result = Simulation(w, "easy").run()
    jobs = result.jobs.set_index("id")
    by_id = {j.id: j for j in w}
    assert [jobs.loc[i, "priority"] for i in by_id] == [j.attrs["priority"] for j in w]
    assert jobs["queue"].tolist() == [by_id[i].queue for i in jobs.index]
    reservation = jobs["reservation"]
    assert reservation.dtype == float and reservation.isna().sum() == sum(j.id % 7 != 0 for j in w)
    result.save(tmp_path / "run")
    back = Result.load(tmp_path / "run")
    pd.testing.assert_frame_equal(back.jobs, result.jobs)
    assert "priority" in pd.read_csv(tmp_path / "run" / "jobs.csv").columns


def test_a_workload_round_trip_through_parquet_keeps_everything(kth, tmp_path) -> None:
    w = with_attribute(kth, "priority", draw=choices(["high", "low"]), seed=4)
    w = with_attribute(w, "memory_mb", draw=lambda rng, n: rng.uniform(100, 1000, n), seed=4)
    path = write_workload(w, tmp_path / "w.parquet")
    back = read_workload(path)
    assert back.jobs == w.jobs and back.header == w.header
    assert back.cleaning == w.cleaning and back.name == w.name
    assert [j.swf for j in back] == [j.swf for j in w]
    assert isinstance(back[0].attrs["memory_mb"], float)
    assert load(path).jobs == w.jobs  # the catalog reads it too (--workload x.parquet)
    with pytest.raises(ValueError, match="not a schedsim workload"):
        pd.DataFrame({"a": [1]}).to_parquet(tmp_path / "other.parquet")
        read_workload(tmp_path / "other.parquet")


def test_queue_and_partition_survive_an_swf_round_trip(kth, tmp_path) -> None:
    w = with_attribute(kth, "queue", lambda j: j.id % 3)
    w = with_attribute(w, "partition", 7)
    result = Simulation(w, "easy").run()
    schedule = pd.DataFrame(
        {
            "id": result.jobs["id"],
            "wait": result.jobs["start"] - result.jobs["submit"],
            "run": result.jobs["end"] - result.jobs["start"],
        }
    )
    write_swf(tmp_path / "s.swf", w, schedule)
    back = read_swf(tmp_path / "s.swf")
    assert [(j.queue, j.partition) for j in back] == [(j.queue, j.partition) for j in w]


def test_memory_overhead_in_a_closed_loop_population() -> None:
    # The users draw each job's memory as they make it: the same k-th job of a
    # user gets the same memory under every policy.
    model = fit_users(load("kth"), max_runtime=3600.0)
    pop = Population(model, users=30, days=2.0, cycle=DailyCycle())
    runs = {p: Simulation(pop, p, seed=5, overhead=MemoryOverhead()).run() for p in ("ss", "easy")}
    for r in runs.values():
        assert r.jobs["memory_mb"].between(100.0, 1000.0).all()
    ss, easy = (r.jobs.sort_values(["user", "submit"]) for r in runs.values())
    k = min(ss.groupby("user").size().min(), easy.groupby("user").size().min())
    head = lambda j: j.groupby("user").head(k).sort_values(["user", "submit"])  # noqa: E731
    np.testing.assert_array_equal(head(ss)["memory_mb"], head(easy)["memory_mb"])
    assert runs["ss"].jobs["overhead_time"].sum() > 0
    with pytest.raises(ValueError, match="takes a MemoryOverhead"):
        Simulation(pop, "ss", overhead=lambda job: (1.0, 1.0))
