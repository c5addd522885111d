"""The benchmarks' plain-Python EASY (benchmarks/reference_easy.py) makes schedsim's EASY schedule.

`benchmarks/process.py` gives schedsim's times as ratios to this reference, which
means something only if both compute the same thing from the same jobs: the same
jobs in the same order, the same start and end times job by job (exact floats),
the same number of scheduling passes, and the same outputs (``jobs.csv`` byte for
byte, the job lines of ``schedule.swf``). Checked on the first 3000 jobs of the
shipped KTH and CTC logs, on small random logs that reach the corners the real
ones do not (zero estimates planned 1 s ahead, fractional times, ties of ends and
arrivals, dropped lines, lines out of order) and, with ``-m slow``, on the whole
KTH and CTC logs.
"""

from __future__ import annotations

import functools
import importlib.util
import itertools
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from schedsim import Simulation
from schedsim.app.exports import schedule_frame
from schedsim.model.tablefile import write_csv
from schedsim.workloads import catalog
from schedsim.workloads.swf import read_swf, write_swf
from schedsim.workloads.transforms import first

REPO = Path(__file__).resolve().parent.parent


def _load_script(name: str) -> ModuleType:
    """``benchmarks/<name>.py`` as a module (benchmarks/ is no package), ``sys.path`` as
    it was before (a script may put benchmarks/ first, whose script names shadow others)."""
    spec = importlib.util.spec_from_file_location(name, REPO / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    saved = list(sys.path)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved
    return module


reference = _load_script("reference_easy")


@functools.cache
def _both(name: str, n: int | None) -> tuple[Any, Any, Any, Any]:
    """(workload, result) of schedsim's EASY and (trace, schedule) of the reference."""
    trace = reference.read(catalog.resolve(name), n)
    sched = reference.easy(trace.submit, trace.size, trace.run, trace.estimate, trace.machine)
    workload = catalog.load(name)
    if n is not None:
        workload = first(workload, n)
    return workload, Simulation(workload, "easy").run(), trace, sched


def _same_schedule(result: Any, trace: Any, sched: Any) -> None:
    jobs = result.jobs
    assert jobs["id"].tolist() == trace.ids
    assert jobs["submit"].tolist() == trace.submit
    starts = jobs["start"].tolist()
    wrong = [(i, a, b) for i, a, b in zip(trace.ids, starts, sched.start, strict=True) if a != b]
    assert not wrong, (
        f"{len(wrong)} start times differ, first (job, schedsim, reference): {wrong[0]}"
    )
    assert jobs["end"].tolist() == sched.end
    assert result.meta["passes"] == sched.passes


def _same_outputs(tmp_path: Path, workload: Any, result: Any, trace: Any, sched: Any) -> None:
    reference.write_jobs_csv(tmp_path / "ref.csv", trace, sched)
    write_csv(result.jobs, tmp_path / "jobs.csv")  # as Result.save writes it
    assert (tmp_path / "ref.csv").read_bytes() == (tmp_path / "jobs.csv").read_bytes()
    reference.write_schedule_swf(tmp_path / "ref.swf", trace, sched)
    write_swf(tmp_path / "schedule.swf", workload, schedule_frame(result), note="policy: easy")

    def job_lines(path: Path) -> list[str]:
        return [ln for ln in path.read_text().splitlines() if not ln.startswith(";")]

    ours = job_lines(tmp_path / "ref.swf")
    assert len(ours) == len(workload)
    assert ours == job_lines(tmp_path / "schedule.swf")
    header = (tmp_path / "ref.swf").read_text().splitlines()
    assert f"; MaxJobs: {len(workload)}" in header


@pytest.mark.parametrize("name", ["kth", "ctc"])
def test_first_3000_jobs_start_alike(name: str) -> None:
    workload, result, trace, sched = _both(name, 3000)
    assert len(workload) == 3000
    _same_schedule(result, trace, sched)


@pytest.mark.parametrize("name", ["kth", "ctc"])
def test_first_3000_jobs_write_the_same_files(name: str, tmp_path: Path) -> None:
    _same_outputs(tmp_path, *_both(name, 3000))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["kth", "ctc"])
def test_whole_logs_start_alike(name: str, tmp_path: Path) -> None:
    workload, result, trace, sched = _both(name, None)
    assert len(trace.ids) == {"kth": 28_475, "ctc": 77_222}[name]
    _same_schedule(result, trace, sched)
    _same_outputs(tmp_path, workload, result, trace, sched)


# ---- small random logs ------------------------------------------------------------------


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _random_log(path: Path, seed: int, n: int = 120, machine: int = 8) -> None:
    """A log with ties, zero run times and estimates, kills, fractions and bad lines."""
    rng = random.Random(seed)
    lines = ["; Version: 2.2", f"; MaxProcs: {machine}", "; MaxJobs: 0", "; MaxRecords: 0"]
    rows = []
    t = 0.0
    for job in range(1, n + 1):
        t += rng.choice([0, 0, 0, 1, 2, 3, 10, 0.5, 37.25, 120])
        size = rng.randint(1, machine)
        run: float = rng.choice([0, 0, 1, 2, 5, 10, 30, 60, 2.5, rng.randint(1, 300)])
        req: float = rng.choice([-1, 0, run, run + rng.randint(1, 100), max(run - 3, 1), 2 * run])
        alloc, requested = (size, rng.choice([size, -1])) if rng.random() > 0.04 else (-1, -1)
        submit = t if rng.random() > 0.02 else -1
        if rng.random() < 0.03:
            run = -1
        rows.append([job, submit, -1, run, alloc, -1, -1, requested, req, -1, 1,
                     rng.randint(1, 5), 1, 1, rng.choice([-1, 2]), -1, -1, -1])  # fmt: skip
    for _ in range(n // 10):  # a few lines out of submit order
        k = rng.randrange(n - 1)
        rows[k], rows[k + 1] = rows[k + 1], rows[k]
    lines += [" ".join(_number(x) for x in row) for row in rows]
    path.write_text("\n".join(lines) + "\n")


def test_random_logs_start_alike(tmp_path: Path) -> None:
    seen = {"backfilled": 0, "zero estimate": 0, "killed": 0, "dropped": 0}
    for seed in range(30):
        path = tmp_path / f"log{seed}.swf"
        _random_log(path, seed)
        trace = reference.read(path)
        sched = reference.easy(trace.submit, trace.size, trace.run, trace.estimate, trace.machine)
        workload = read_swf(path)
        result = Simulation(workload, "easy").run()
        _same_schedule(result, trace, sched)
        _same_outputs(tmp_path, workload, result, trace, sched)
        starts = sched.start
        seen["backfilled"] += sum(b < a for a, b in itertools.pairwise(starts))
        seen["zero estimate"] += trace.estimate.count(0.0)
        seen["killed"] += sum(r > e for r, e in zip(trace.run, trace.estimate, strict=True))
        seen["dropped"] += 120 - len(trace.ids)
    # The logs reach what they are for.
    assert all(count > 0 for count in seen.values()), seen


def test_a_zero_estimate_is_planned_one_second_ahead(tmp_path: Path) -> None:
    """Three processors; job 1 holds one until 100. At 10 job 2 (estimate 0) starts and
    job 3 (two processors) waits: job 2's end is planned max(overrun, 1 s) ahead, at 11,
    so job 4 (estimate 1 s) backfills (10 + 1 <= 11) and job 3 starts at 11, when job 4
    ends. Planned at 10, job 4 would wait and job 3 start at 10, once job 2 has ended."""
    rows = [
        (1, 0, 100, 1, 100),  # job, submit, run, processors, requested time
        (2, 10, 0, 1, 0),
        (3, 10, 5, 2, 5),
        (4, 10, 1, 1, 1),
    ]
    lines = ["; MaxProcs: 3"] + [
        f"{j} {t} -1 {r} {p} -1 -1 {p} {e} -1 1 1 1 1 1 -1 -1 -1" for j, t, r, p, e in rows
    ]
    path = tmp_path / "zero.swf"
    path.write_text("\n".join(lines) + "\n")
    trace = reference.read(path)
    sched = reference.easy(trace.submit, trace.size, trace.run, trace.estimate, trace.machine)
    assert sched.start == [0.0, 10.0, 11.0, 10.0]
    _same_schedule(Simulation(read_swf(path), "easy").run(), trace, sched)


def test_the_command_line_writes_both_files(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "out"
    assert reference.main(["kth", "--first", "200", "--out", str(out), "--phases"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["jobs.csv", "schedule.swf"]
    assert len((out / "jobs.csv").read_text().splitlines()) == 201
    printed = capsys.readouterr().out.split()
    assert printed[:3] == ["read", printed[1], "s"] and "loop" in printed and "write" in printed


@pytest.mark.parametrize("name", ["kth", "ctc"])
def test_the_simpy_floor_replays_the_schedule_pass_for_pass(name: str) -> None:
    # The floor stands for schedsim's events only while it makes as many passes.
    _, result, trace, sched = _both(name, 3000)
    passes = _load_script("simpy_floor").replay(trace.submit, sched.start, sched.end)
    assert passes == sched.passes == result.meta["passes"]


def test_the_simpy_floor_refuses_a_start_that_is_no_pass() -> None:
    with pytest.raises(ValueError, match="1 start times fell on no pass"):
        _load_script("simpy_floor").replay([0.0, 10.0], [0.0, 5.0], [20.0, 6.0])
