"""Workload models register with declared parameters: a new model is one file
and one registration (tests/plugins/toy_workload.py), and the study file's checks and
``schedsim run``'s options come from its declarations."""

from __future__ import annotations

import inspect
from pathlib import Path

import pandas as pd
import pytest

from schedsim.app import cli
from schedsim.app.study import RunConfig, Study, StudyError
from schedsim.workloads import models

TOY = str(Path(__file__).parent / "plugins" / "toy_workload.py")


def test_a_toy_model_runs_from_a_study_dict():
    study = Study.from_dict(
        {
            "study": {"imports": [TOY]},
            "base": {"workload": "toy", "policy": "fcfs"},
            "grid": {"toy_jobs": [2, 5]},
        }
    )
    runs = study.runs()
    assert [len(r.config.build_workload()) for r in runs] == [2, 5]
    assert runs[0].config.workload.model == {"toy_jobs": 2}
    assert runs[0].config.to_dict()["toy_jobs"] == 2
    # The declared key round-trips through the flat dictionary a sweep stores.
    assert RunConfig.from_dict(runs[1].config.to_dict()).run_id() == runs[1].id
    result = runs[1].config.simulation().run()
    assert len(result.jobs) == 5


def test_the_toy_models_keys_are_checked_from_their_declarations():
    cli.import_modules(["run", "--import", TOY])
    with pytest.raises(StudyError, match=r"^toy_jobs: expected a number of jobs from 1 to 100, "):
        RunConfig(workload="toy", toy_jobs=0)
    with pytest.raises(
        StudyError, match=r'^toy_gap: applies only to the toy model: workload = "toy"'
    ):
        RunConfig(workload="kth", toy_gap=5)
    with pytest.raises(
        StudyError,
        match=r"^jobs: applies only to a generated workload: workload = "
        r'"lublin", "zeng-w1", "zeng-w2"$',
    ):
        RunConfig(workload="toy", jobs=5)
    # Left out of the identity while unset: no other run's id moves.
    assert "toy_jobs" not in RunConfig().identity()


def test_a_toy_model_runs_from_the_command_line(capsys, tmp_path):
    out = tmp_path / "run"
    argv = ["run", "--import", TOY, "--workload", "toy", "--toy-jobs", "4", "--out", str(out)]
    assert cli.main([*argv, "--toy-gap", "2.5"]) == 0
    jobs = pd.read_csv(out / "jobs.csv")
    assert len(jobs) == 4
    capsys.readouterr()
    assert cli.main(["run", "--import", TOY, "--workload", "toy", "--toy-jobs", "500"]) == 2
    assert capsys.readouterr().err.strip() == (
        "schedsim: error: --toy-jobs: expected a number of jobs from 1 to 100, got 500"
    )


def test_run_help_is_grouped_and_lists_the_models_options(capsys):
    cli.import_modules(["run", "--import", TOY])
    with pytest.raises(SystemExit):
        cli.main(["run", "--help"])
    text = capsys.readouterr().out
    titles = ["workload:", "machine:", "policy:", "run options:", "output:"]
    assert all(f"\n{t}\n" in text for t in titles), text
    positions = [text.index(f"\n{t}\n") for t in titles]
    assert positions == sorted(positions)
    workload = text[positions[0] : positions[1]]
    assert "--jobs N" in workload and "--lublin-alpha A" in workload and "--toy-gap S" in workload
    assert "with --workload toy: seconds between submits (default 10 s)" in " ".join(
        workload.split()
    )


def test_build_parser_is_short():
    assert len(inspect.getsource(cli.build_parser).splitlines()) < 150


def test_a_parameter_declared_two_ways_is_refused():
    other = models.Declared("jobs", float, "jobs", "a number")
    model = models.WorkloadModel("twojobs", "a clash", lambda inputs: None, params=(other,))
    with pytest.raises(ValueError, match="parameter 'jobs' is declared otherwise by 'lublin'"):
        models.register(model)
    assert models.get("twojobs") is None


def test_the_same_model_registered_again_replaces_it_another_is_refused(monkeypatch):
    monkeypatch.setitem(models._MODELS, "toy", None)  # put back after the test
    del models._MODELS["toy"]
    # A notebook cell run twice: the same code, a new build function.
    source = Path(TOY).read_text()
    for _ in range(2):
        exec(compile(source, TOY, "exec"), {"__name__": "toy_again"})
    assert models.get("toy").build.__module__ == "toy_again"

    def build(inputs: models.Inputs) -> None:  # another model under the taken name
        raise AssertionError

    with pytest.raises(ValueError, match=r"^workload model 'toy' is registered already$"):
        models.register(models.WorkloadModel("toy", "another", build))


def test_the_guides_model_runs_as_written(tmp_path, monkeypatch):
    page = Path(__file__).parent.parent / "docs" / "guide" / "adding-a-workload-model.md"
    code = page.read_text().split("```python\n", 1)[1].split("```", 1)[0]
    module = tmp_path / "burst.py"
    module.write_text(code)
    monkeypatch.setitem(models._MODELS, "burst", None)  # removed again after the test
    del models._MODELS["burst"]
    study = Study.from_dict(
        {"study": {"imports": [str(module)]}, "base": {"workload": "burst", "burst_jobs": 7}}
    )
    config = study.runs()[0].config
    assert config.workload.model == {"burst_jobs": 7}
    result = config.simulation().run()
    assert len(result.jobs) == 7 and result.jobs["wait"].max() == 0
