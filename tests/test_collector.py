"""The library leaves Python's garbage collector alone; `tuned_gc`, which the ``schedsim``
command opts into for a run (reading, simulating, writing), leaves its full passes out,
which is safe only while the core makes (next to) no reference cycles: both are checked
here. The ``schedsim`` command also freezes what it made before it ends."""

from __future__ import annotations

import gc

import pytest

from schedsim import Result, Simulation
from schedsim.app.study import RunConfig
from schedsim.model.gc_tuning import paused_gc, tuned_gc
from schedsim.workloads import catalog
from schedsim.workloads.transforms import first


def test_only_the_oldest_generation_waits_and_the_thresholds_come_back() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), tuned_gc():
        young, middle, oldest = gc.get_threshold()
        assert (young, middle) == before[:2] and oldest >= 1_000_000
        raise RuntimeError("a run that fails")
    assert gc.get_threshold() == before


def test_overlapping_runs_put_the_thresholds_back_when_the_last_ends() -> None:
    # Two runs in two threads: the first to end must not undo the second's setting,
    # and the second must not keep the raised threshold as "what it was before".
    before = gc.get_threshold()
    first, second = tuned_gc(), tuned_gc()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert gc.get_threshold()[2] >= 1_000_000
    second.__exit__(None, None, None)
    assert gc.get_threshold() == before


def test_tuned_runs_in_threads_leave_the_thresholds_as_they_were() -> None:
    from concurrent.futures import ThreadPoolExecutor

    def tuned(policy: str) -> Result:
        with tuned_gc():
            return Simulation(workload, policy).run()

    before = gc.get_threshold()
    workload = first(catalog.load("kth"), 300)
    with ThreadPoolExecutor(3) as pool:
        results = list(pool.map(tuned, ["easy", "fcfs"] * 3))
    assert [len(r.jobs) for r in results] == [300] * 6
    assert gc.get_threshold() == before


def _collector_state() -> tuple[tuple[int, ...], bool, int]:
    return gc.get_threshold(), gc.isenabled(), gc.get_freeze_count()


def test_a_pause_switches_the_collector_back_on_only_if_it_was_on() -> None:
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():  # nested: the outer block still holds it off
            pass
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()  # it was off before: it stays off
    finally:
        gc.enable()


def test_the_run_command_reads_its_workload_with_the_collector_paused(
    monkeypatch, tmp_path
) -> None:
    from schedsim.app import cli

    seen: list[bool] = []
    build = RunConfig.build_workload

    def watched(self, *args, **kwargs):
        seen.append(gc.isenabled())
        return build(self, *args, **kwargs)

    monkeypatch.setattr(RunConfig, "build_workload", watched)
    out = str(tmp_path / "run")
    argv = ["run", "--workload", "kth", "--first", "50", "--only", "summary.json", "--out", out]
    assert cli.main([*argv, "--no-progress"]) == 0
    assert seen == [False] and gc.isenabled()


def test_library_calls_leave_the_collector_as_they_found_it(tmp_path, monkeypatch) -> None:
    # Not only afterwards: while they work. A process's collector is its owner's (a
    # notebook, a server that froze its objects before forking); `tuned_gc` opts in.
    from schedsim.policies.backfilling import EASY
    from schedsim.workloads import swf

    seen: list[tuple[tuple[int, ...], bool, int]] = []

    class Watching(EASY):
        def schedule(self, view):  # type: ignore[no-untyped-def]
            seen.append(_collector_state())
            return super().schedule(view)

    build = swf._trusted_jobs

    def watched_build(*args: object, **kwargs: object) -> object:
        seen.append(_collector_state())
        return build(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(swf, "_trusted_jobs", watched_build)
    path = tmp_path / "log.swf"
    # 300 jobs of 1-4 processors on 8, one a minute, each run 90-200 s (estimate 300 s).
    tail = "-1 1 1 1 -1 1 -1 -1 -1"  # SWF fields 10-18
    lines = [
        f"{k + 1} {60 * k} -1 {90 + k % 111} {1 + k % 4} -1 -1 {1 + k % 4} 300 {tail}"
        for k in range(300)
    ]
    path.write_text("; MaxProcs: 8\n" + "\n".join(lines) + "\n")
    gc.collect()
    gc.freeze()  # what a process froze itself stays frozen, and nothing joins it
    try:
        before = _collector_state()
        workload = swf.read_swf(path)
        sim = Simulation(workload, Watching())
        sim.run(until=workload[100].submit)
        seen.append(_collector_state())
        sim.run()
        seen.append(_collector_state())
    finally:
        gc.unfreeze()
    assert len(seen) > 100
    # Frozen objects may be freed meanwhile (the count falls), never added.
    assert {state[:2] for state in seen} == {before[:2]}
    assert all(0 < state[2] <= before[2] for state in seen)


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


def test_the_run_command_writes_its_outputs_before_any_full_collection(
    tmp_path, monkeypatch, capsys
) -> None:
    # The run's records are alive until they are written: a full pass over them there
    # costs as much as the one the runs leave out.
    from schedsim.app.cli import main

    thresholds: list[tuple[int, int, int]] = []
    save = Result.save

    def watched(self: Result, *args: object, **kwargs: object) -> object:
        thresholds.append(gc.get_threshold())
        return save(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Result, "save", watched)
    before = gc.get_threshold()
    assert main(["run", "--first", "200", "--out", str(tmp_path / "o")]) == 0
    assert len(thresholds) == 1 and thresholds[0][2] >= 1_000_000
    assert gc.get_threshold() == before
    assert (tmp_path / "o" / "jobs.csv").is_file()


def test_the_command_freezes_what_it_made_before_the_process_ends(monkeypatch, capsys) -> None:
    # `schedsim` and `python -m schedsim` end with gc.freeze(), so that shutdown's last
    # collection does not walk the run; `main` itself, which notebooks and tests call,
    # does not.
    from schedsim.app import cli

    monkeypatch.setattr("sys.argv", ["schedsim", "policies"])
    gc.unfreeze()
    try:
        assert cli.main(["policies"]) == 0
        assert gc.get_freeze_count() == 0
        assert cli.console_main() == 0
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    assert "easy" in capsys.readouterr().out
