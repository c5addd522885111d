"""Seed 003's multi-core runs from a configuration: ``contention``, the zeng- workloads, the CLI.

Zeng & Sodan 2009 run on 128 nodes of 4 cores with the statistical contention
model, and their policies (ssp, glts) predict the slowdowns from a seed that
must be the run's (`schedsim.app.study.RunConfig`). Small runs: 300 jobs.
"""

from __future__ import annotations

import dataclasses
import json
import textwrap

import pandas as pd
import pytest

from schedsim.app.cli import main
from schedsim.app.study import RunConfig, Study, StudyError, load_study, replication_seed
from schedsim.app.sweep import sweep
from schedsim.workloads import multicore

JOBS = 300
#: The paper's run, as Python spelled it before: Simulation(w1(s), SSP(seed=s), nodes=128,
#: cores_per_node=4, contention=StatisticalContention(s), kill_at_estimate=False).
PAPER = {
    "workload": "zeng-w1",
    "jobs": JOBS,
    "contention": "statistical",
    "policy": "ssp",
    "kill_at_estimate": False,
}


def slowed(jobs: pd.DataFrame) -> pd.Series:
    """Jobs whose run time is not their work: run at a rate other than 1 for a while."""
    return (jobs["run"] - jobs["work"]).abs() > 1e-6


def test_a_zeng_run_with_statistical_contention_slows_jobs():
    result = RunConfig(**PAPER, seed=5).simulation().run()
    jobs = result.jobs
    assert len(jobs) == JOBS and (jobs["outcome"] == "completed").all()
    assert slowed(jobs).any()
    assert (result.meta["nodes"], result.meta["cores_per_node"]) == (128, 4)
    assert result.meta["contention"].startswith("StatisticalContention(seed=5,")
    assert result.meta["policy_params"]["seed"] == 5
    # Without contention the same jobs run at rate 1.
    plain = RunConfig(**{**PAPER, "contention": None}, seed=5).simulation().run()
    assert not slowed(plain.jobs).any()


def test_the_workload_is_w1_and_w2_of_the_run_seed():
    for name, make in (("zeng-w1", multicore.w1), ("zeng-w2", multicore.w2)):
        w = RunConfig(workload=name, jobs=JOBS, seed=3).build_workload()
        assert w.jobs == make(3, n_jobs=JOBS).jobs, name
        assert w.header.max_procs == 512


def test_the_policy_seed_is_the_run_seed():
    config = RunConfig(**PAPER, seed=11)
    assert config.normalized().params["seed"] == 11
    assert config.run_id() != dataclasses.replace(config, seed=12).run_id()
    # Given in params, a seed is kept (a wrong prediction, on purpose).
    assert RunConfig(**PAPER, seed=11, params={"seed": 2}).normalized().params["seed"] == 2
    # A policy without a seed parameter gets none; without contention nothing is filled.
    assert "seed" not in RunConfig(**{**PAPER, "policy": "easy"}, seed=11).normalized().params
    no_contention = RunConfig(**{**PAPER, "contention": None}, seed=11).normalized()
    assert no_contention.params["seed"] != 11  # the policy's own default


def test_each_replication_gives_the_policy_its_own_seed():
    study = Study(base=PAPER, grid={"policy": ["ssp", "glts"]}, replications=2, seed=4)
    runs = study.runs()
    assert len(runs) == 4
    for run in runs:
        assert run.config.seed == replication_seed(4, run.replication)
        assert run.config.params["seed"] == run.config.seed, run.label
        assert run.label in ("ssp", "glts")  # the filled seed is no parameter the study set


def test_machine_defaults_of_a_zeng_workload():
    config = RunConfig(workload="zeng-w1", jobs=JOBS)
    assert (config.nodes, config.cores_per_node) == (128, 4)
    spelled = RunConfig(workload="zeng-w1", jobs=JOBS, nodes=128, cores_per_node=4)
    assert spelled.run_id() == config.run_id()
    # Other nodes: the workload is made for that machine.
    small = RunConfig(workload="zeng-w2", jobs=JOBS, nodes=32)
    assert small.build_workload().header.max_procs == 128
    with pytest.raises(StudyError, match=r"^cores_per_node: .*zeng-w1.*expected 4") as err:
        RunConfig(workload="zeng-w1", cores_per_node=2)
    assert "\n" not in str(err.value)
    # Other workloads keep their default of 1 core per node.
    assert RunConfig(workload="kth").cores_per_node == 1
    assert RunConfig(workload="lublin").nodes is None


def test_old_configurations_keep_their_run_ids():
    old = RunConfig(workload="kth", first=200)
    assert "contention" not in old.identity()
    assert old.run_id() == "1821eac48c71f5ec"  # tests/test_study.py's regression value
    assert RunConfig(workload="kth", first=200, contention="none").run_id() == old.run_id()
    assert RunConfig(workload="kth", first=200, contention="statistical").run_id() != old.run_id()


@pytest.mark.parametrize("value", ["stat", "NONE ", 1, True])
def test_a_bad_contention_is_a_one_line_error_naming_the_key(value):
    with pytest.raises(StudyError, match=r"^contention: expected 'none' or 'statistical'") as err:
        RunConfig(contention=value)
    assert "\n" not in str(err.value)


def test_generator_keys_on_zeng_workloads():
    with pytest.raises(StudyError, match=r"^lublin_alpha: .*lublin"):
        RunConfig(workload="zeng-w1", lublin_alpha=9.0)
    with pytest.raises(StudyError, match=r"^jobs: .*zeng-w1"):
        RunConfig(workload="kth", jobs=10)
    with pytest.raises(StudyError, match=r"^strict: "):
        RunConfig(workload="zeng-w1", strict=True)


def test_the_transforms_apply_to_a_zeng_workload():
    base = RunConfig(workload="zeng-w1", jobs=JOBS, seed=1).build_workload()
    loaded = RunConfig(workload="zeng-w1", jobs=JOBS, seed=1, load_factor=2.0).build_workload()
    assert loaded[-1].submit - loaded[0].submit < base[-1].submit - base[0].submit
    assert len(RunConfig(workload="zeng-w1", jobs=JOBS, first=50).build_workload()) == 50


def test_the_command_line_runs_it(tmp_path, capsys):
    out = tmp_path / "o"
    argv = ["run", "--workload", "zeng-w1", "--jobs", str(JOBS), "--policy", "ssp"]
    argv += ["--contention", "statistical", "--cores-per-node", "4", "--keep-run-times"]
    code = main([*argv, "--seed", "9", "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0
    assert "128 nodes x 4 cores, seed 9" in text and "contention: StatisticalContention" in text
    summary = json.loads((out / "summary.json").read_text())
    assert summary["summary"]["jobs"] == JOBS
    assert summary["meta"]["policy_params"]["seed"] == 9
    assert slowed(pd.read_parquet(out / "jobs.parquet")).any()


def test_the_command_line_refuses_bad_values(tmp_path, capsys):
    out = str(tmp_path / "o")
    code = main(["run", "--workload", "zeng-w2", "--cores-per-node", "2", "--out", out])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("schedsim: error: --cores-per-node:")
    assert len(err.strip().splitlines()) == 1
    with pytest.raises(SystemExit) as stop:
        main(["run", "--contention", "bogus"])
    assert stop.value.code == 2
    assert "invalid choice: 'bogus'" in capsys.readouterr().err


def test_help_lists_the_option(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    text = capsys.readouterr().out
    assert "--contention {none,statistical}" in text and "zeng-w1" in text


def test_a_study_file_runs_ssp_and_glts(tmp_path):
    path = tmp_path / "zeng.toml"
    path.write_text(
        textwrap.dedent(
            """
            [study]
            name = "zeng"
            seed = 3

            [base]
            workload = "zeng-w1"
            jobs = 200
            contention = "statistical"
            kill_at_estimate = false

            [grid]
            policy = ["ssp", "glts"]
            """
        )
    )
    study = load_study(path)
    outcome = sweep(study, tmp_path / "out", workers=0)
    assert (outcome.total, outcome.finished, outcome.failed) == (2, 2, [])
    for run in study.runs():
        folder = tmp_path / "out" / "runs" / run.id
        config = json.loads((folder / "config.json").read_text())["config"]
        assert config["contention"] == "statistical"
        assert (config["nodes"], config["cores_per_node"]) == (128, 4)
        assert config["params"]["seed"] == run.config.seed == replication_seed(3, 0)
        jobs = pd.read_parquet(folder / "jobs.parquet")
        assert len(jobs) == 200 and slowed(jobs).any()
