"""Seed 000's memory model of suspension overhead (section 4.1)."""

from __future__ import annotations

import numpy as np
import pytest

from schedsim import Simulation
from schedsim.model.overhead import MemoryOverhead
from schedsim.workloads.catalog import load
from schedsim.workloads.job import Job
from schedsim.workloads.streams import stream_seed
from schedsim.workloads.transforms import first


def jobs(n: int) -> list[Job]:
    return [Job(i, float(i), 10.0, 1 + i % 8, 20.0) for i in range(1, n + 1)]


def test_seconds_per_job_and_per_processor():
    model = MemoryOverhead()
    assert (model.low_mb, model.high_mb, model.rate_mb_s) == (100.0, 1000.0, 2.0)
    assert model.seconds(1000.0, 4) == 125.0  # the job's 1 GB over 4 x 2 MB/s
    assert model.seconds(1000.0, 1) == 500.0
    assert MemoryOverhead(per="processor").seconds(1000.0, 4) == 500.0


def test_memory_is_uniform_in_the_range_and_reproducible():
    model = MemoryOverhead()
    rng = lambda: np.random.default_rng(stream_seed(3, "memory"))  # noqa: E731
    memory = model.memory(jobs(20_000), rng())
    values = np.array(list(memory.values()))
    assert values.min() >= 100.0 and values.max() <= 1000.0
    assert abs(values.mean() - 550.0) < 5.0  # uniform mean; sd of the mean is about 1.8
    assert memory == model.memory(jobs(20_000), rng())


def test_suspend_and_resume_costs_are_equal_and_by_job():
    w = jobs(5)
    cost = MemoryOverhead().model(w, np.random.default_rng(1))

    class Run:  # the model only reads the id
        def __init__(self, jid: int) -> None:
            self.id = jid

    for j in w:
        write, read = cost(Run(j.id))  # type: ignore[arg-type]
        assert write == read and 100.0 / (2.0 * j.size) <= write <= 1000.0 / (2.0 * j.size)


def test_the_simulation_draws_from_its_memory_stream():
    kth = first(load("kth"), 50)
    a = Simulation(kth, "easy", seed=5, overhead=MemoryOverhead())
    b = Simulation(kth, "easy", seed=5, overhead=MemoryOverhead())
    c = Simulation(kth, "easy", seed=6, overhead=MemoryOverhead())
    draw = lambda sim: MemoryOverhead().memory(sim.workload.jobs, sim.rng("memory"))  # noqa: E731
    assert draw(a) == draw(b) != draw(c)
    # No policy here suspends, so the schedule is the one without overhead.
    plain = Simulation(kth, "easy", seed=5).run().jobs
    assert a.run().jobs.equals(plain)


@pytest.mark.parametrize(
    "kwargs",
    [{"low_mb": 500.0, "high_mb": 100.0}, {"rate_mb_s": 0.0}, {"per": "node"}, {"low_mb": -1.0}],
)
def test_bad_parameters(kwargs):
    with pytest.raises(ValueError):
        MemoryOverhead(**kwargs)
