"""Smoke tests of ``benchmarks/growth.py``, ``benchmarks/drift.py``,
``benchmarks/closed_loop.py``, ``benchmarks/profile_core.py`` and
``benchmarks/run_phases.py``.

The benchmarks are not collected by pytest; this checks, cheaply, that the
growth benchmark's measuring function still runs against the current API (in
this process, on 500 Lublin-Feitelson jobs under EASY), that its exponent
fit and target checks give the right answers on made-up numbers, and that
the drift benchmark's parts of a small SS run account for the whole run, and
that the closed-loop benchmark's two ways of a small run agree, that the
core's profile of a small closed loop shares its time out among the parts, and
that ``benchmarks/run_phases.py`` splits a small ``schedsim run`` process into
phases that add up to it, that ``benchmarks/summaries.py`` times the summaries of a
small made-up result, that ``benchmarks/conservative_nodes.py`` times conservative
backfilling counted and node by node on a few hundred KTH jobs, and that
``benchmarks/machine.py`` times a cut log plain and on ten node groups, with the same
schedule, and that ``benchmarks/peers.py`` prepares a log schedsim reads back as the
same jobs and times schedsim beside a stand-in for the peer.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@contextmanager
def _benchmark_imports() -> Iterator[None]:
    """Undo, on leaving, what importing the scripts does: they put benchmarks/ on sys.path
    to import one another (growth.py imports run.py, drift.py both, profile_core.py run.py
    and closed_loop.py, run_phases.py run.py and process.py), so that their names (run,
    growth, process...) shadow nothing in later tests."""
    saved_path = list(sys.path)
    saved = {m: sys.modules.get(m) for m in ("run", "growth", "closed_loop", "process")}
    try:
        yield
    finally:
        sys.path[:] = saved_path
        for m, before in saved.items():
            if before is None:
                sys.modules.pop(m, None)
            else:
                sys.modules[m] = before


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"{name}_benchmark", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    with _benchmark_imports():
        spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def growth() -> ModuleType:
    return _load("growth")


@pytest.fixture(scope="module")
def drift() -> ModuleType:
    return _load("drift")


@pytest.fixture(scope="module")
def closed_loop() -> ModuleType:
    return _load("closed_loop")


def test_the_worker_measures_a_small_run_with_its_piece_log(growth: ModuleType) -> None:
    row = growth.measure("easy", 500, warmup=50)
    assert row["policy"] == "easy"
    assert row["jobs"] == 500
    assert row["pieces"] >= 500  # the piece log is on: one piece per job at least
    assert row["gen_s"] > 0 and row["run_s"] > 0 and row["run_cpu_s"] >= 0
    assert row["peak_mib"] >= row["gen_peak_mib"] > 0
    assert row["base_mib"] > 0
    assert 0 < row["offered_load"] < 5
    assert 0 < row["utilization"] <= 1


def test_generate_only_has_no_run(growth: ModuleType) -> None:
    row = growth.measure("easy", 200, generate_only=True)
    assert row["policy"] == "-" and row["jobs"] == 200
    assert "run_s" not in row and row["peak_mib"] == row["gen_peak_mib"]


def test_the_exponent_of_a_power_law_is_found(growth: ModuleType) -> None:
    sizes = [10_000.0, 40_000.0, 160_000.0, 640_000.0]
    assert growth.growth_exponent(sizes, [3e-5 * n for n in sizes]) == pytest.approx(1.0)
    assert growth.growth_exponent(sizes, [n**1.5 for n in sizes]) == pytest.approx(1.5)
    # Noise of +-10% around a linear law leaves the fit near 1.
    noisy = [2e-4 * n * f for n, f in zip(sizes, (1.1, 0.9, 1.1, 0.9), strict=True)]
    assert growth.growth_exponent(sizes, noisy) == pytest.approx(1.0, abs=0.05)
    assert growth.extrapolate(sizes, [2 * n for n in sizes], 1_280_000) == pytest.approx(2.56e6)


def test_no_exponent_without_two_sizes_or_with_a_non_positive_value(growth: ModuleType) -> None:
    assert math.isnan(growth.growth_exponent([10_000.0], [1.0]))
    assert math.isnan(growth.growth_exponent([10_000.0, 10_000.0], [1.0, 2.0]))
    assert math.isnan(growth.growth_exponent([10_000.0, 20_000.0], [1.0, 0.0]))


def _row(jobs: int, run_s: float, peak: float, base: float = 100.0) -> dict[str, Any]:
    return {
        "policy": "easy",
        "jobs": jobs,
        "gen_s": jobs * 1e-5,
        "run_s": run_s,
        "run_cpu_s": run_s,
        "base_mib": base,
        "gen_peak_mib": base,
        "peak_mib": peak,
    }


def test_fit_checks_the_targets(growth: ModuleType) -> None:
    # Linear time, memory above the baseline linear: passes, peak well under 4 GiB.
    linear = [_row(n, n * 1e-4, 100 + n * 1e-3) for n in (10_000, 40_000, 160_000)]
    fitted = growth.fit(linear)
    assert fitted["time_exponent"] == pytest.approx(1.0)
    assert fitted["memory_exponent"] == pytest.approx(1.0)  # fitted on peak - base
    assert fitted["time_ok"] and fitted["memory_ok"] and fitted["peak_ok"]
    assert fitted["largest_jobs"] == 160_000
    # Below 1.28M jobs the fit is extrapolated: 100 MiB + 1.28M * 1e-3 MiB.
    assert fitted["extrapolated_peak_mib"] == pytest.approx(100 + 1280)
    # Not from sizes so small that a run's fixed costs bend the fit.
    tiny = [_row(n, n * 1e-4, 100 + n * 1e-3) for n in (500, 1_000)]
    assert "extrapolated_peak_mib" not in growth.fit(tiny)
    # Nor from one size alone, which fits no line.
    assert "extrapolated_peak_mib" not in growth.fit(linear[-1:])
    # Quadratic time fails; a largest run over 4 GiB fails.
    quadratic = [_row(n, (n / 1e4) ** 2, 100 + n * 1e-3) for n in (10_000, 40_000)]
    assert not growth.fit(quadratic)["time_ok"]
    heavy = [_row(10_000, 1.0, 200.0), _row(40_000, 4.0, 5000.0)]
    assert not growth.fit(heavy)["peak_ok"]
    # A failed largest run is no pass, whatever the others did.
    failed = [*linear, {"policy": "easy", "jobs": 640_000, "error": "Killed"}]
    assert not growth.fit(failed)["peak_ok"]


def test_best_of_keeps_the_fastest_time_and_the_highest_peak(growth: ModuleType) -> None:
    a, b = _row(10_000, 2.0, 150.0), _row(10_000, 1.5, 140.0)
    best = growth.best_of([a, b])
    assert best["run_s"] == 1.5 and best["peak_mib"] == 150.0 and best["repeat"] == 2
    assert "error" in growth.best_of([a, {"policy": "easy", "jobs": 10_000, "error": "x"}])


def test_the_parts_of_a_run_add_up_to_the_run(drift: ModuleType) -> None:
    rows = drift.measure("ss", 1_500, parts=3, every=100, warmup=50)
    assert [r["part"] for r in rows] == [1, 2, 3]
    assert sum(r["jobs"] for r in rows) == 1_500  # every submit in one part
    assert rows[0]["from_days"] == 0 and rows[-1]["to_days"] > rows[0]["to_days"]
    assert all(r["passes"] > 0 and r["cpu_s"] >= 0 and r["busy_cores"] <= 128 for r in rows)
    assert all(r["suspended"] >= 0 and r["queued"] >= 0 for r in rows)
    table = drift.drift_table(rows, "t")
    assert table.row_count == 3


def test_the_drift_command_line_refuses_nonsense(drift: ModuleType) -> None:
    parser = drift.build_parser()
    args = parser.parse_args(["--policy", "EASY", "--jobs", "2000", "--parts", "4"])
    assert (args.policy, args.jobs, args.parts, args.every) == ("easy", 2000, 4, 5000)
    for bad in (["--jobs", "0"], ["--parts", "-1"], ["--policy", "nope"]):
        with pytest.raises(SystemExit):
            parser.parse_args(bad)


def test_the_closed_loop_benchmark_times_both_ways_of_one_schedule(closed_loop: ModuleType) -> None:
    from schedsim.policies.creasy import policy as creasy

    budget, spent = creasy.PYTHON_BUDGET, creasy._spent
    cfg = closed_loop.config(users=10, days=2.0, cycle=True, alpha=3000.0)
    best = closed_loop.compare(cfg, repeat=1, budget=20)  # compiled after 20 passes
    python, compiled = best["python"], best["compiled"]
    assert python["jobs"] == compiled["jobs"] > 0  # the same schedule (else an error)
    assert python["passes"] == compiled["passes"] > 20
    assert python["speedup"] == 1.0
    assert python["policy_s"] > 0 and compiled["policy_s"] > 0
    # The process's own budget is as it was.
    assert (creasy.PYTHON_BUDGET, creasy._spent) == (budget, spent)
    assert closed_loop.results_table(best, "t").row_count == 2


def test_the_closed_loop_command_line_refuses_nonsense(closed_loop: ModuleType) -> None:
    parser = closed_loop.build_parser()
    args = parser.parse_args(["--users", "50", "--days", "60", "--no-cycle", "--alpha", "6000"])
    assert (args.users, args.days, args.cycle, args.alpha) == (50, 60.0, False, 6000.0)
    for bad in (["--users", "0"], ["--days", "-1"], ["--alpha", "-3"], ["--budget", "x"]):
        with pytest.raises(SystemExit):
            parser.parse_args(bad)


def test_the_profile_of_a_closed_loop_shares_out_the_whole_run() -> None:
    profile_core = _load("profile_core")
    cfg = profile_core.closed_loop(10, 2.0, True, 0.0, trace="kth", policy="creasy")
    doc = profile_core.measure(None, "creasy", 1, make=cfg.simulation)
    shares = {row["part"]: row["share"] for row in doc["parts"]}
    assert list(shares) == list(profile_core.PARTS)
    assert sum(shares.values()) == pytest.approx(1.0)
    assert shares["source"] > 0 and shares["policy"] > 0  # the users, CREASY
    assert doc["jobs"] > 0 and doc["passes"] > 0


def test_a_phase_inside_another_counts_once_for_itself(monkeypatch) -> None:
    run_phases = _load("run_phases")
    ticks = iter([0.0, 1.0, 3.0, 10.0])  # outer in, inner in, inner out, outer out
    monkeypatch.setattr(run_phases.time, "perf_counter", lambda: next(ticks))
    clock = run_phases.Clock()
    clock.enter("simulating")
    clock.enter("imports")
    clock.leave()
    clock.leave()
    assert clock.own["imports"] == 2.0 and clock.own["simulating"] == 8.0


def test_the_phases_of_a_small_run_add_up_to_its_process(tmp_path) -> None:
    import json

    run_phases = _load("run_phases")
    out = tmp_path / "phases.json"
    argv = ["--trace", "kth", "--first", "300", "--repeat", "1", "--json", str(out)]
    # main imports run.py and process.py as the script does, from benchmarks/ on the path.
    with _benchmark_imports():
        sys.path.insert(0, str(BENCHMARKS))
        assert run_phases.main(argv) == 0
    doc = json.loads(out.read_text())
    best = doc["instrumented"]
    phases = best["phases"]
    assert list(phases) == [*run_phases.PHASES, "exit", "start-up and the rest"]
    assert sum(phases.values()) == pytest.approx(best["whole"])
    for phase in ("imports", "reading the log", "simulating", "jobs.csv", "schedule.swf"):
        assert phases[phase] > 0, phase
    assert doc["plain"] > 0 and len(doc["rounds"]) == 1


def test_the_process_benchmark_saves_each_rounds_timings(tmp_path) -> None:
    # A smoke run (the first 300 jobs): every row is there, and the policies' rounds are
    # saved beside EASY's, round by round, so that ratios can be paired.
    import json

    out = tmp_path / "process.json"
    argv = ["--quick", "300", "--repeat", "2", "--policies", "ss", "ssp", "--json", str(out)]
    # Imported by its name, as run_phases.py does (its dataclasses need their module).
    with _benchmark_imports():
        sys.path.insert(0, str(BENCHMARKS))
        assert importlib.import_module("process").main(argv) == 0
    doc = json.loads(out.read_text())
    # ss runs on the trace and, as --on-w1 asks by default, on W1 too.
    assert set(doc["policies"]) == {"easy", "ss"} and set(doc["w1"]) == {"easy", "ssp", "ss"}
    assert all(len(times) == 2 for times in [*doc["policies"].values(), *doc["w1"].values()])
    figures = [row["figure"] for row in doc["rows"]]
    assert {"ss", "easy (W1)", "ssp (W1)", "ss (W1)"} <= set(figures) and doc["same_schedule"]
    ss = next(row for row in doc["rows"] if row["figure"] == "ss")
    assert ss["value"] == pytest.approx(min(doc["policies"]["ss"]) / min(doc["policies"]["easy"]))


def test_the_summaries_benchmark_times_a_small_made_up_result(tmp_path) -> None:
    import json

    summaries = _load("summaries")
    out = tmp_path / "summaries.json"
    assert summaries.main(["--jobs", "2000", "--repeat", "1", "--json", str(out)]) in (0, 1)
    doc = json.loads(out.read_text())
    assert doc["jobs"] == 2000 and doc["jobs_summarized"] == 1800  # 5% cut at each end
    assert doc["target_s"] == pytest.approx(summaries.TARGET * 2000 / summaries.JOBS)
    for key in ("result_s", "summary_s", "category_table_s", "total_s"):
        assert doc[key] > 0, key
    assert doc["met"] == (doc["total_s"] <= doc["target_s"])  # reported, never asserted


def test_conservative_nodes_times_the_three_runs(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load("conservative_nodes")
    machine = bench.groups_of(103)
    assert [g.nodes for g in machine.groups] == [10] * 9 + [13] and machine.constrained
    assert bench.main(["--first", "300"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("kth: 300 jobs; 100 one-core nodes, 10 groups")
    assert [line.split()[0] for line in lines[1:]] == ["count", "nodes", "nodes+memory"]
    # Memory that never binds plans the schedule the run without it plans.
    assert lines[2].split("mean wait")[1] == lines[3].split("mean wait")[1]


def test_the_machine_benchmark_times_a_cut_log_three_ways(tmp_path) -> None:
    import json

    from schedsim.model.machine import read_machine

    machine = _load("machine")
    path = tmp_path / "m.toml"
    path.write_text(machine.groups_file(103, "64G"))
    groups = read_machine(path)  # ten groups, the first ones a node larger
    assert [g.nodes for g in groups.groups] == [11, 11, 11] + [10] * 7
    assert groups.constrained and groups.total_cores == 103
    out = tmp_path / "machine.json"
    argv = ["--logs", "kth", "--first", "300", "--repeat", "1", "--json", str(out)]
    with _benchmark_imports():
        sys.path.insert(0, str(BENCHMARKS))
        assert machine.main(argv) == 0
    doc = json.loads(out.read_text())
    assert doc["same_schedule"] == {"kth": True}
    rows = {(r["where"], r["run"]): r for r in doc["rows"]}
    assert set(rows) == {(w, run) for w in ("in process", "process") for run in machine.RUNS}
    assert rows["process", machine.RUNS[2]]["target"] == machine.TARGET
    assert rows["in process", "plain"]["x_plain"] == 1.0


def test_the_logs_benchmark_times_every_log_it_finds_and_the_fixed_cost(tmp_path) -> None:
    # A smoke run: KTH cut to 300 jobs, one round (the 2,000-job slice, cut likewise,
    # would be the same run: it is left out).
    import json

    out = tmp_path / "logs.json"
    argv = ["--logs", "kth", "--first", "300", "--repeat", "1", "--json", str(out)]
    with _benchmark_imports():
        sys.path.insert(0, str(BENCHMARKS))
        assert importlib.import_module("logs").main(argv) == 0
    doc = json.loads(out.read_text())
    assert set(doc["logs"]) == {"KTH-SP2"}
    kth = doc["logs"]["KTH-SP2"]
    assert kth["jobs"] == 300 and kth["same_schedule"]
    assert {"reference", "run", "run all", "ref loop", "easy", "simpy floor"} <= set(kth["best"])
    logs = importlib.import_module("logs")
    got = logs.budget(kth["best"])
    b = kth["best"]
    assert got["left"] == pytest.approx(2.5 * b["reference"] - (b["run"] - b["easy"]))
    assert got["cut"] == pytest.approx(max(1 - got["left"] / b["easy"], 0.0))
    cost = doc["costs"]["KTH-SP2"]
    assert cost["fixed"] > 0 and cost["variable"] > 0
    fixed = ("imports", "exit", "start-up and the rest")
    assert cost["fixed"] == pytest.approx(sum(cost["phases"][p] for p in fixed))


def test_the_peers_benchmark_prepares_one_log_both_read_alike(tmp_path) -> None:
    # The prepared log is read back by schedsim as the same jobs: sizes, estimates, runs.
    import json

    from schedsim.workloads import catalog
    from schedsim.workloads.swf import read_swf
    from schedsim.workloads.transforms import first

    with _benchmark_imports():
        sys.path.insert(0, str(BENCHMARKS))
        peers = importlib.import_module("peers")
    prepared = peers.prepare(catalog.resolve("kth"), 300, tmp_path)
    original = first(catalog.load("kth"), 300)
    again = read_swf(prepared["log"])
    assert prepared["jobs"] == len(again.jobs) == 300
    assert again.header.machine_size == prepared["processors"] == 100
    for a, b in zip(original.jobs, again.jobs, strict=True):
        assert (a.id, a.submit, a.size, a.estimate, a.run_time) == (
            b.id, b.submit, b.size, b.estimate, b.run_time
        )  # fmt: skip
    fields = [line.split() for line in prepared["log"].read_text().splitlines()[2:]]
    assert all(f[6] == f[9] == "-1" and f[4] == f[7] for f in fields)  # no memory; size twice
    system = json.loads(prepared["system"].read_text())
    assert system["groups"] == {"g0": {"core": 1}} and system["resources"] == {"g0": 100}


def test_the_peers_benchmark_times_both_and_checks_the_peer_ran_every_job(tmp_path) -> None:
    # A stand-in for the peer's Python: it reports every job dispatched, as accasim_easy.py does.
    from schedsim.workloads import catalog

    fake = tmp_path / "fake-python"
    fake.write_text("#!/bin/sh\necho loaded 200 dispatched 200\n")
    fake.chmod(0o755)
    with _benchmark_imports():
        sys.path.insert(0, str(BENCHMARKS))
        peers = importlib.import_module("peers")
        assert peers.main(["--logs", "kth"]) == 2  # no peer given: refused
    prepared = peers.prepare(catalog.resolve("kth"), 200, tmp_path)
    got = peers.measure_log(prepared, str(fake), 1, tmp_path)
    assert got["jobs"] == 200 and got["accasim_dispatched"] == 200
    (ours, ours_cpu), (peer, _) = got["best"]["schedsim"], got["best"]["accasim"]
    floor = got["best"]["floor"][0]
    assert ours > 0 and ours_cpu > 0 and peer > 0 and floor > 0
    assert (tmp_path / "schedsim" / "jobs.csv").is_file()  # schedsim ran on the prepared log
    table = peers.peers_table({"KTH": got}, 1)
    assert [c.header for c in table.columns][8:10] == ["floor (s)", "AccaSim / floor"]


def test_the_peers_table_says_where_the_floor_puts_the_target_out_of_reach() -> None:
    # Made-up best times (wall, CPU): a tenth of the peer's time below the floor is out
    # of reach; above it, a miss is a plain FAIL; a tenfold lead passes.
    with _benchmark_imports():
        sys.path.insert(0, str(BENCHMARKS))
        peers = importlib.import_module("peers")

    def row(ours: float, peer: float, floor: float) -> dict[str, Any]:
        best = {"schedsim": (ours, ours), "accasim": (peer, peer), "floor": (floor, floor)}
        return {"jobs": 10, "best": best, "accasim_dispatched": 10}

    measured = {"short": row(0.73, 1.73, 0.20), "long": row(2.12, 14.36, 0.20),
                "far": row(2.55, 26.57, 0.20)}  # fmt: skip
    table = peers.peers_table(measured, 1)
    verdicts = list(table.columns[7]._cells)
    assert verdicts == ["FAIL (out of reach)", "FAIL", "pass"]
    assert list(table.columns[9]._cells) == ["8.6", "71.8", "132.8"]
