"""What `schedsim run` writes, as a new user sees it: schedule.swf's status values and
header, the permissions of the output, and the notice of the first SS compilation."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from schedsim.app.cli import main
from schedsim.app.exports import schedule_frame
from schedsim.workloads.catalog import load
from schedsim.workloads.swf import read_swf, write_swf
from schedsim.workloads.transforms import first

#: SWF field 11 for each simulated outcome (SWF: 1 completed, 0 failed, 5 cancelled).
SWF_STATUS = {"completed": 1, "killed_at_limit": 0, "killed": 5}
NOTICE = (
    "compiling the suspension policies' kernels once for this machine (about 5 s); "
    "later runs load them from numba's cache"
)


def run_with_umask(mask: int, argv: list[str]) -> None:
    saved = os.umask(mask)
    try:
        assert main(argv) == 0
    finally:
        os.umask(saved)


@pytest.fixture(scope="module")
def ss_run(tmp_path_factory) -> Path:
    """300 KTH jobs under SS, written with a umask of 022; jobs whose run time exceeds
    their estimate are killed at it (the default)."""
    out = tmp_path_factory.mktemp("outputs") / "r"
    run_with_umask(0o022, ["run", "--first", "300", "--policy", "ss", "--out", str(out)])
    return out


def job_lines(path: Path) -> list[list[str]]:
    return [ln.split() for ln in path.read_text().splitlines() if not ln.startswith(";")]


def header_lines(path: Path) -> list[str]:
    return [ln for ln in path.read_text().splitlines() if ln.startswith(";")]


def test_status_is_the_simulated_outcome(ss_run):
    jobs = pd.read_csv(ss_run / "jobs.csv")
    outcomes = jobs["outcome"].value_counts()
    assert outcomes["killed_at_limit"] > 0 and outcomes["completed"] > 0
    status: dict[int, int] = {}
    for row in job_lines(ss_run / "schedule.swf"):  # a job's first line: its summary
        status.setdefault(int(row[0]), int(row[10]))
    assert [status[i] for i in jobs["id"]] == [SWF_STATUS[o] for o in jobs["outcome"]]
    # Not the trace's: the KTH log says "failed" (0) for many jobs the simulation completed.
    trace = {j.id: int(j.swf[10]) for j in first(load("kth"), 300)}
    assert sum(trace[i] != status[i] for i in jobs["id"]) > 0


def test_schedule_frame_maps_every_outcome():
    jobs = pd.DataFrame(
        {
            "id": [1, 2, 3, 4],
            "submit": [0.0] * 4,
            "start": [1.0, 2.0, 3.0, 4.0],
            "end": [5.0, 6.0, 7.0, float("nan")],
            "run": [4.0, 4.0, 4.0, 2.0],
            "wait": [1.0, 2.0, 3.0, 7.0],
            "size": [1, 2, 3, 4],
            "outcome": ["completed", "killed_at_limit", "killed", "unfinished"],
        }
    )
    # What schedule_frame reads of a result: its job columns (`Result.column`).
    frame = schedule_frame(SimpleNamespace(column=lambda name: jobs[name].to_numpy()))
    assert frame["status"].tolist() == [1, 0, 5, -1]
    assert frame["run"].tolist()[:3] == [4.0, 4.0, 4.0]
    # An unfinished job's end, and so its wait and the run that counts, are unknown.
    assert np.isnan(frame["wait"][3]) and np.isnan(frame["run"][3])


def test_header_counts_the_jobs_written(ss_run):
    n = len(pd.read_csv(ss_run / "jobs.csv"))
    lines = job_lines(ss_run / "schedule.swf")
    assert len({row[0] for row in lines}) == n == 300
    assert len(lines) > n  # the suspended jobs' partial executions
    header = header_lines(ss_run / "schedule.swf")
    assert f"; MaxJobs: {n}" in header and f"; MaxRecords: {len(lines)}" in header
    assert sum(ln.startswith(("; MaxJobs:", "; MaxRecords:")) for ln in header) == 2


def test_preemption_says_whether_a_job_was_suspended(ss_run, tmp_path):
    assert (pd.read_csv(ss_run / "jobs.csv")["suspensions"] > 0).any()
    header = header_lines(ss_run / "schedule.swf")
    assert [ln for ln in header if ln.startswith("; Preemption:")] == ["; Preemption: Double"]
    # No suspension under EASY: the source header's value (the KTH log says No).
    out = tmp_path / "easy"
    run_with_umask(0o022, ["run", "--first", "300", "--out", str(out)])
    assert not (pd.read_csv(out / "jobs.csv")["suspensions"] > 0).any()
    header = header_lines(out / "schedule.swf")
    assert [ln for ln in header if ln.startswith("; Preemption:")] == ["; Preemption: No"]


def test_note_appears_once_also_when_written_again(ss_run, tmp_path):
    path = ss_run / "schedule.swf"
    notes = [ln for ln in header_lines(path) if "simulated by schedsim" in ln]
    assert notes == ["; Note: schedule simulated by schedsim (policy: ss)"]
    back = read_swf(path)
    schedule = pd.DataFrame(
        {
            "id": [j.id for j in back],
            "wait": [j.swf[2] for j in back],
            "run": [j.swf[3] for j in back],
            "size": [j.swf[4] for j in back],
            "status": [j.swf[10] for j in back],
        }
    )
    # The partial executions, as the file gives them (the reader skips them).
    parts = [row for row in job_lines(path) if row[10] in ("2", "3", "4")]
    starts = [float(row[1]) + float(row[2]) for row in parts]
    partials = pd.DataFrame(
        {
            "id": [int(row[0]) for row in parts],
            "start": starts,
            "end": [t + float(row[3]) for t, row in zip(starts, parts, strict=True)],
            "size": [int(row[4]) for row in parts],
        }
    )
    again = tmp_path / "again.swf"
    write_swf(again, back, schedule, note="policy: ss", partials=partials)
    assert again.read_bytes() == path.read_bytes()
    write_swf(
        again, back, schedule, note="schedule simulated by schedsim (policy: x)", partials=partials
    )
    notes = [ln for ln in header_lines(again) if "simulated by schedsim" in ln]
    assert notes == ["; Note: schedule simulated by schedsim (policy: x)"]
    cleaning = [ln for ln in header_lines(again) if ln.startswith("; Note: schedsim cleaning")]
    assert len(cleaning) == len(set(cleaning)) == 2  # no size; after the first 300


def test_outputs_get_the_users_usual_modes(ss_run):
    folders = [ss_run, *(p for p in ss_run.rglob("*") if p.is_dir())]
    files = [p for p in ss_run.rglob("*") if p.is_file()]
    assert "schedule.swf" in {p.name for p in files}
    assert {oct(p.stat().st_mode & 0o777) for p in folders} == {oct(0o755)}
    assert {oct(p.stat().st_mode & 0o777) for p in files} == {oct(0o644)}


PROBE = textwrap.dedent(
    """
    import sys
    from schedsim.app.cli import main
    from schedsim.policies import compiled

    every = sorted(compiled.suspension_kernels())
    print("before:", compiled.cache_is_cold(), len(compiled.cached_kernels()))
    main(["run", "--first", "50", "--out", sys.argv[1] + "/easy", "--no-progress"])
    main(["run", "--first", "300", "--policy", "ss", "--out", sys.argv[1] + "/ss",
          "--no-progress"])
    main(["run", "--first", "300", "--policy", "is", "--out", sys.argv[1] + "/is",
          "--no-progress"])
    # The hold readings' pass without preemption has a kernel of its own.
    main(["run", "--first", "300", "--policy", "ss", "--param", "hold=all",
          "--out", sys.argv[1] + "/hold", "--no-progress"])
    # A suspended job's bar on nodes of several cores has a kernel of its own too.
    main(["run", "--first", "300", "--policy", "ss", "--nodes", "25", "--cores-per-node", "4",
          "--out", sys.argv[1] + "/shared", "--no-progress"])
    print("after:", compiled.cache_is_cold(), sorted(compiled.cached_kernels()) == every)
    """
)


def test_the_first_ss_run_says_it_compiles_the_kernels(tmp_path):
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    env.pop("NUMBA_DISABLE_JIT", None)

    def probe() -> str:
        done = subprocess.run(
            [sys.executable, "-c", PROBE, str(tmp_path)],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    cold = probe()
    assert "before: True 0" in cold  # an empty cache: cold
    # Said once, before SS (EASY compiles nothing; IS finds the cache warm after SS).
    assert cold.count(NOTICE) == 1
    assert cold.index("ss on ") > cold.index(NOTICE) > cold.index("easy on ")
    assert "after: False True" in cold  # SS (both readings) and IS cached their kernels
    assert list(cache.rglob("*.nbi"))
    warm = probe()
    assert "before: False" in warm and NOTICE not in warm
