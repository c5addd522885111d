"""Running studies: the local pool, a real Dask cluster, resuming, failures, the CLI."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pandas as pd
import pytest

from schedsim import Simulation
from schedsim.app import registry
from schedsim.app.cli import main
from schedsim.app.study import Study, load_study
from schedsim.app.sweep import execute, is_finished, sweep
from schedsim.model import policy as base
from schedsim.workloads.catalog import load
from schedsim.workloads.transforms import first, scale_load

BASE = {"workload": "kth", "first": 150}


def small_study(**kwargs) -> Study:
    values = {
        "name": "small",
        "base": BASE,
        "grid": {"policy": ["fcfs", "easy"], "load_factor": [1.0, 1.5]},
        "seed": 7,
    }
    values.update(kwargs)
    return Study(**values)


def snapshot(directory: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under runs/ with its bytes and modification time."""
    return {
        str(p.relative_to(directory)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted((directory / "runs").rglob("*"))
        if p.is_file()
    }


def test_local_pool_runs_every_run_and_stores_it(tmp_path):
    study = small_study(replications=2)
    outcome = sweep(study, tmp_path, workers=2)
    assert (outcome.total, outcome.finished, outcome.skipped, outcome.failed) == (8, 8, 0, [])
    doc = json.loads((tmp_path / "study.json").read_text())
    assert doc["name"] == "small" and doc["schedsim_version"]
    assert [r["id"] for r in doc["runs"]] == [r.id for r in study.runs()]
    for run in study.runs():
        folder = tmp_path / "runs" / run.id
        assert sorted(p.name for p in folder.iterdir()) == [
            "config.json",
            "jobs.parquet",
            "pieces.parquet",
            "series.parquet",
            "summary.json",
        ]
        config = json.loads((folder / "config.json").read_text())
        assert config["config"] == run.config.to_dict() and config["label"] == run.label
    # No temporary folder is left behind.
    assert not [p for p in (tmp_path / "runs").iterdir() if p.name.startswith(".")]


def test_pool_results_equal_a_run_by_hand(tmp_path):
    study = small_study(grid={"policy": ["easy"], "load_factor": [1.5]})
    sweep(study, tmp_path, workers=1)
    (run,) = study.runs()
    stored = pd.read_parquet(tmp_path / "runs" / run.id / "jobs.parquet")
    by_hand = Simulation(scale_load(first(load("kth"), 150), 1.5), "easy", seed=run.config.seed)
    pd.testing.assert_frame_equal(stored, by_hand.run().jobs)
    summary = json.loads((tmp_path / "runs" / run.id / "summary.json").read_text())["summary"]
    assert summary["jobs"] == 150


def test_serial_pool_and_dask_give_identical_files(tmp_path):
    distributed = pytest.importorskip("distributed")
    study = small_study()
    sweep(study, tmp_path / "serial", workers=0)
    sweep(study, tmp_path / "pool", workers=2)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        outcome = sweep(study, tmp_path / "dask", cluster=cluster.scheduler_address)
    assert (outcome.finished, outcome.failed) == (4, [])
    for run in study.runs():
        for name in ("jobs.parquet", "series.parquet", "config.json"):
            files = [
                (tmp_path / d / "runs" / run.id / name).read_bytes()
                for d in ("serial", "pool", "dask")
            ]
            assert files[0] == files[1] == files[2], (run.label, name)


def test_dask_client_object_is_accepted(tmp_path):
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        outcome = sweep(small_study(), tmp_path, cluster=client)
        assert outcome.finished == 4
        assert client.status == "running"  # a client we were given stays open


def flaky_study(marker: Path) -> Study:
    return small_study(
        imports=["flaky_policy"],
        grid={"load_factor": [1.0, 1.5]},
        variants=[
            {"policy": "easy"},
            {"policy": "flaky", "params": {"marker": str(marker)}, "label": "flaky"},
            {"policy": "fcfs"},
        ],
    )


def test_failed_runs_are_recorded_and_rerun_completes_only_them(tmp_path):
    marker = tmp_path / "fail-now"
    marker.touch()
    study = flaky_study(marker)
    out = tmp_path / "study"
    first_pass = sweep(study, out, workers=2)
    assert first_pass.finished == 4 and first_pass.missing == 2
    assert [label for label, _ in first_pass.failed] == ["flaky", "flaky"]
    assert all("failing on purpose" in error for _, error in first_pass.failed)
    failed_ids = [r.id for r in study.runs() if r.label == "flaky"]
    for run_id in failed_ids:
        record = json.loads((out / "failures" / f"{run_id}.json").read_text())
        assert record["error"].startswith("RuntimeError: failing on purpose")
        assert "Traceback" in record["traceback"] and "flaky_policy.py" in record["traceback"]
        assert not is_finished(out, run_id)
    before = snapshot(out)

    marker.unlink()
    second_pass = sweep(study, out, workers=2)
    assert (second_pass.skipped, second_pass.finished, second_pass.failed) == (4, 2, [])
    after = snapshot(out)
    # The finished runs are untouched, byte for byte and by modification time.
    assert {k: v for k, v in after.items() if k in before} == before
    assert sorted({Path(k).parts[1] for k in set(after) - set(before)}) == sorted(failed_ids)
    assert not list((out / "failures").iterdir())  # failure records go once a run succeeds

    third_pass = sweep(study, out, workers=2)
    assert (third_pass.skipped, third_pass.finished) == (6, 0)
    assert snapshot(out) == after


def test_an_interrupted_sweep_resumes_where_it_stopped(tmp_path):
    study = small_study(replications=2)
    seen = []

    def stop_after_three(done: int, total: int) -> None:
        seen.append(done)
        if done == 3:
            raise KeyboardInterrupt

    first_pass = sweep(study, tmp_path, workers=0, progress=stop_after_three)
    assert first_pass.interrupted and first_pass.finished == 3
    before = snapshot(tmp_path)
    second_pass = sweep(study, tmp_path, workers=0)
    assert (second_pass.skipped, second_pass.finished) == (3, 5)
    after = snapshot(tmp_path)
    assert {k: v for k, v in after.items() if k in before} == before
    assert all(is_finished(tmp_path, run.id) for run in study.runs())


def test_an_interrupted_pool_stops_its_workers_and_resumes(tmp_path):
    study = small_study(replications=3)

    def stop_after_two(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    first_pass = sweep(study, tmp_path, workers=2, progress=stop_after_two)
    assert first_pass.interrupted and first_pass.finished == 2
    before = snapshot(tmp_path)
    assert len({Path(k).parts[1] for k in before}) == 2  # nothing half-written beside them
    second_pass = sweep(study, tmp_path, workers=2)
    assert (second_pass.skipped, second_pass.finished) == (2, 10)
    after = snapshot(tmp_path)
    assert {k: v for k, v in after.items() if k in before} == before


def test_progress_bar_counts_every_run(tmp_path, capsys):
    outcome = sweep(small_study(), tmp_path, workers=0, progress=True)
    assert outcome.finished == 4
    shown = capsys.readouterr().out
    assert "small" in shown and "4/4" in shown and "left" in shown


@pytest.fixture
def umask():
    """Set the process umask for a test (``umask(0o027)``), restored afterwards."""
    saved = os.umask(0o022)
    try:
        yield os.umask
    finally:
        os.umask(saved)


@pytest.mark.parametrize("mask", [0o022, 0o027])
def test_study_files_get_the_users_usual_modes(tmp_path, umask, mask):
    # Not tempfile's private 0700 / 0600: what mkdir and open() give under the umask.
    umask(mask)
    study = small_study(grid={"policy": ["easy"], "nodes": [100, 2]})  # 2 nodes: fails
    outcome = sweep(study, tmp_path / "study", workers=0)
    assert (outcome.finished, len(outcome.failed)) == (1, 1)
    folders = [tmp_path / "study", *(p for p in (tmp_path / "study").rglob("*") if p.is_dir())]
    files = [p for p in (tmp_path / "study").rglob("*") if p.is_file()]
    assert {p.relative_to(tmp_path).as_posix().split("/")[1] for p in files} == {
        "study.json",
        "runs",
        "failures",
    }
    assert {oct(p.stat().st_mode & 0o777) for p in folders} == {oct(0o777 & ~mask)}
    assert {oct(p.stat().st_mode & 0o777) for p in files} == {oct(0o666 & ~mask)}


def test_sweep_says_when_it_compiles_the_kernels(tmp_path, capsys, monkeypatch):
    from schedsim.policies import kernels

    monkeypatch.setattr(kernels, "cache_is_cold", lambda: True)
    notice = "compiling the selective-suspension kernels once for this machine"
    sweep(small_study(grid={"policy": ["easy"]}), tmp_path / "a", workers=0, progress=True)
    assert notice not in capsys.readouterr().out  # no SS run: nothing to compile
    study = small_study(base={**BASE, "first": 40}, grid={"policy": ["easy", "tss"]})
    sweep(study, tmp_path / "b", workers=0, progress=True)
    assert capsys.readouterr().out.count(notice) == 1
    monkeypatch.setattr(kernels, "cache_is_cold", lambda: False)
    sweep(study, tmp_path / "c", workers=0, progress=True)
    assert notice not in capsys.readouterr().out


def test_leftovers_of_a_killed_sweep_are_cleaned_and_redone(tmp_path):
    study = small_study()
    runs = study.runs()
    # A kill during a write leaves a hidden temporary folder; a run folder
    # without its summary is not finished (e.g. files removed by hand).
    (tmp_path / "runs" / f".{runs[0].id}.x.tmp").mkdir(parents=True)
    (tmp_path / "runs" / runs[1].id).mkdir()
    (tmp_path / "runs" / runs[1].id / "jobs.parquet").write_bytes(b"partial")
    outcome = sweep(study, tmp_path, workers=0)
    assert outcome.finished == 4
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == sorted(r.id for r in runs)
    pd.read_parquet(tmp_path / "runs" / runs[1].id / "jobs.parquet")


def test_a_changed_configuration_is_a_new_run_beside_the_old(tmp_path):
    sweep(small_study(), tmp_path, workers=0)
    old = snapshot(tmp_path)
    changed = small_study(grid={"policy": ["fcfs", "easy"], "load_factor": [1.0, 2.0]})
    outcome = sweep(changed, tmp_path, workers=0)
    assert (outcome.skipped, outcome.finished) == (2, 2)
    new = snapshot(tmp_path)
    assert {k: v for k, v in new.items() if k in old} == old
    assert len({Path(k).parts[1] for k in new}) == 6
    listed = json.loads((tmp_path / "study.json").read_text())["runs"]
    assert [r["config"]["load_factor"] for r in listed] == [1.0, 2.0, 1.0, 2.0]


def test_execute_returns_a_failure_instead_of_raising():
    document = {"id": "abc", "label": "easy", "replication": 0}
    task = ({**document, "config": {**BASE, "policy": "easy", "nodes": 2}}, ())
    outcome = execute(task)
    assert not outcome.ok and outcome.id == "abc"
    assert outcome.error.startswith("ValueError:") and "wider than the machine" in outcome.error
    assert "Traceback" in outcome.traceback and not outcome.files


STUDY_TOML = """
[study]
name = "cli-study"
seed = 3

[base]
workload = "kth"
first = 120

[grid]
policy = ["fcfs", "easy"]
load_factor = [1.0, 1.4]

[report]
metrics = ["mean_bounded_slowdown", "utilization"]
baseline = "fcfs"
"""


def test_cli_sweep_then_report(tmp_path, capsys):
    path = tmp_path / "study.toml"
    path.write_text(STUDY_TOML)
    out = tmp_path / "out"
    assert main(["sweep", str(path), "--out", str(out), "--workers", "0"]) == 0
    text = capsys.readouterr().out
    assert "4 runs finished now, 0 already done, 0 failed" in text
    assert main(["sweep", str(path), "--out", str(out), "--workers", "1"]) == 0
    assert "0 runs finished now, 4 already done" in capsys.readouterr().out
    assert main(["report", str(out)]) == 0
    text = capsys.readouterr().out
    assert "cli-study" in text and "easy" in text
    report = out / "report"
    assert (report / "summary.csv").is_file()
    assert (report / "mean_bounded_slowdown-vs-load_factor.png").stat().st_size > 0
    assert (report / "mean_bounded_slowdown-vs-load_factor.svg").stat().st_size > 0
    assert (report / "ratios-mean_bounded_slowdown.csv").is_file()


def test_cli_sweep_exits_1_with_failures(tmp_path, capsys):
    marker = tmp_path / "fail-now"
    marker.touch()
    path = tmp_path / "study.toml"
    path.write_text(
        "[study]\nname = 'f'\nimports = ['flaky_policy']\n"
        "[base]\nworkload = 'kth'\nfirst = 50\npolicy = 'flaky'\n"
        f"params = {{marker = '{marker}'}}\n"
    )
    assert main(["sweep", str(path), "--out", str(tmp_path / "o"), "--workers", "0"]) == 1
    text = capsys.readouterr().out
    assert "1 failed" in text and "failing on purpose" in text


def test_cli_malformed_study_names_the_key(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("[base]\nworkload = 'kth'\n[grid]\nload_factr = [1.0]\n")
    assert main(["sweep", str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "grid.load_factr" in err and "unknown key" in err


def test_shipped_example_study_is_valid():
    root = Path(__file__).resolve().parent.parent
    for path in sorted((root / "studies").glob("*.toml")):
        study = load_study(path)
        assert study.runs(), path


@pytest.fixture(autouse=True)
def _flaky_policy_importable(monkeypatch):
    # flaky_policy lives beside this file; forked pool workers inherit sys.path,
    # and the serial path imports it here. It registers "flaky", which must not
    # leak into other tests' lists of every policy.
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent))
    registry.names()  # the built-in policies are registered before the snapshot
    saved = dict(base.REGISTRY)
    yield
    base.REGISTRY.clear()
    base.REGISTRY.update(saved)
    sys.modules.pop("flaky_policy", None)  # so the next test's import registers it again
