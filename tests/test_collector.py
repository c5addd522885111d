"""Runs leave the garbage collector's full passes out, which is safe only while the core
makes (next to) no reference cycles: both are checked here."""

from __future__ import annotations

import gc

import pytest

from schedsim import Result, Simulation
from schedsim.app.study import RunConfig
from schedsim.model.simulation import young_collections_only
from schedsim.workloads import catalog
from schedsim.workloads.transforms import first


def test_only_the_oldest_generation_waits_and_the_thresholds_come_back() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), young_collections_only():
        young, middle, oldest = gc.get_threshold()
        assert (young, middle) == before[:2] and oldest >= 1_000_000
        raise RuntimeError("a run that fails")
    assert gc.get_threshold() == before


def test_overlapping_runs_put_the_thresholds_back_when_the_last_ends() -> None:
    # Two runs in two threads: the first to end must not undo the second's setting,
    # and the second must not keep the raised threshold as "what it was before".
    before = gc.get_threshold()
    first, second = young_collections_only(), young_collections_only()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert gc.get_threshold()[2] >= 1_000_000
    second.__exit__(None, None, None)
    assert gc.get_threshold() == before


def test_runs_in_threads_leave_the_thresholds_as_they_were() -> None:
    from concurrent.futures import ThreadPoolExecutor

    before = gc.get_threshold()
    workload = first(catalog.load("kth"), 300)
    with ThreadPoolExecutor(3) as pool:
        results = list(pool.map(lambda p: Simulation(workload, p).run(), ["easy", "fcfs"] * 3))
    assert [len(r.jobs) for r in results] == [300] * 6
    assert gc.get_threshold() == before


def _run_counting_cycles(sim: Simulation) -> tuple[Result, int]:
    """Run ``sim`` with the collector off; its result and the objects in reference cycles
    it left (what only a full pass would have freed)."""
    gc.collect()
    gc.disable()
    try:
        result = sim.run()
        return result, gc.collect()
    finally:
        gc.enable()


def _closed_loop() -> Simulation:
    config = RunConfig(workload="kth", policy="creasy", users=40, days=4, daily_cycle=True, seed=3)
    return config.simulation()


@pytest.mark.parametrize("policy", ["easy", "ss", "pfcfs1", "multiqueue", "closed loop"])
def test_a_run_makes_next_to_no_reference_cycles(policy: str) -> None:
    def make() -> Simulation:
        if policy == "closed loop":
            return _closed_loop()
        return Simulation(first(catalog.load("kth"), 1500), policy)

    make().run()  # once before: loading SS's compiled kernels leaves some garbage
    result, cycles = _run_counting_cycles(make())
    assert len(result.jobs) > 1000
    assert cycles < 50, f"{cycles} objects in reference cycles after {len(result.jobs)} jobs"


def test_the_count_sees_cycles_a_policy_makes() -> None:
    # The check above can fail: a policy that leaves one cycle per pass is seen.
    from schedsim.policies.backfilling import EASY

    class Cyclic(EASY):
        def schedule(self, view):  # type: ignore[no-untyped-def]
            loop: list[object] = []
            loop.append(loop)
            return super().schedule(view)

    result, cycles = _run_counting_cycles(Simulation(first(catalog.load("kth"), 500), Cyclic()))
    assert cycles >= result.meta["passes"] >= 500
