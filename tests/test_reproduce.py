"""A paper's study read from its results or run reduced (`schedsim.app.reproduce`).

The reduction on the shipped study files (no runs), and the whole round on a
tiny study written into a temporary repository (``studies/``, ``papers/`` and ``results/``):
reduced when no results are there, read when they are, the preferred file
first, and the paper's report module run on what was read.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pandas as pd
import pytest

import schedsim.papers as papers
from schedsim.app.cli import main
from schedsim.app.reproduce import (
    REDUCED_SUFFIX,
    claim_counts,
    find_root,
    paper_studies,
    reduce_study,
    reproduce,
    study_file,
)
from schedsim.app.study import StudyError, load_study
from schedsim.app.sweep import sweep

PAPERS = Path(__file__).resolve().parent.parent / "papers"

# Multiple- against single-queue backfilling on KTH's first jobs, at two loads: a
# Lawson & Smirni 2002 study small enough to sweep in a test.
TINY = """
[study]
name = "tiny"
seed = 1
replications = 2

[base]
workload = "kth"
first = 50

[grid]
policy = ["singlequeue", "multiqueue"]
load_factor = [1.0, 1.5]

[report]
paper = "lawson2002"
"""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "studies").mkdir()  # what marks the repository (`find_root`)
    (tmp_path / "papers" / "tiny").mkdir(parents=True)
    (tmp_path / "papers" / "tiny" / "study.toml").write_text(TINY)
    (tmp_path / "papers" / "tiny" / "study-full.toml").write_text(
        TINY.replace('name = "tiny"', 'name = "tiny-full"').replace("first = 50", "first = 60")
    )
    return tmp_path


def test_reduce_study_cuts_the_shipped_studies() -> None:
    lawson = load_study(PAPERS / "lawson2002" / "study.toml")
    small = reduce_study(
        lawson,
        base={"first": 500},
        grid={"workload": ["kth"]},
        keep=lambda v: v.get("load_factor") == 1.5 and "params" not in v,  # (not a reading)
    )
    assert small.name == "seed001-multiqueue" + REDUCED_SUFFIX
    assert small.base["first"] == 500 and small.base["kill_at_estimate"] is True
    assert [r.config.workload.name for r in small.runs()] == ["kth", "kth"]
    assert [r.config.load_factor for r in small.runs()] == [1.5, 1.5]
    assert small.report == lawson.report  # the same report reads it

    # A dotted parameter key replaces the TOML's nested params table, and a key
    # set in each variant goes where the base may not hold it.
    creasy = reduce_study(
        load_study(PAPERS / "feitelson2009" / "study.toml"), grid={"params.alpha": [0.0]}
    )
    assert {r.config.params["alpha"] for r in creasy.runs()} == {0.0}
    zeng = load_study(PAPERS / "zeng2009" / "study.toml")
    small = reduce_study(zeng, keep=lambda v: v["label"] == "SSP W1", each_variant={"jobs": 40})
    (run,) = small.runs()
    assert run.config.jobs == 40 and run.config.workload.name == "zeng-w1" and run.label == "SSP W1"


def test_reduce_study_refuses_what_would_not_cut_it() -> None:
    lawson = load_study(PAPERS / "lawson2002" / "study.toml")
    with pytest.raises(StudyError, match=r"grid\.nodes: the study does not vary it"):
        reduce_study(lawson, grid={"nodes": [64]})
    with pytest.raises(StudyError, match="keeps none of the variants"):
        reduce_study(lawson, keep=lambda v: False)


def test_find_root_walks_up_to_the_studies_folder(repo: Path) -> None:
    deep = repo / "notebooks" / "papers"
    deep.mkdir(parents=True)
    assert find_root(deep) == repo.resolve()
    with pytest.raises(FileNotFoundError, match="no studies/ folder"):
        find_root(Path("/"))


def test_a_papers_study_file_from_the_clone_or_the_installed_package(repo: Path) -> None:
    # A clone's own file first (the temporary repository has one the package does not).
    assert study_file("tiny/study.toml", repo) == repo / "papers" / "tiny" / "study.toml"
    # Else the one installed with schedsim.papers, the same as the checkout's here.
    shipped = study_file("lawson2002/study.toml", repo)
    assert shipped.read_text() == (PAPERS / "lawson2002" / "study.toml").read_text()
    assert load_study(shipped).name == "seed001-multiqueue"  # the run folders keep their name
    with pytest.raises(FileNotFoundError, match=r"no study file 'nowhere/study\.toml'"):
        study_file("nowhere/study.toml", repo)


def test_without_results_the_study_runs_reduced(repo: Path) -> None:
    # Neither file has results: the last one, the short version, runs reduced.
    rep = reproduce(
        "tiny/study-full.toml",
        "tiny/study.toml",
        base={"first": 30},
        grid={"load_factor": [1.0]},
        root=repo,
    )
    assert rep.reduced and rep.full.name == "tiny" and rep.study.name == "tiny" + REDUCED_SUFFIX
    assert rep.results.counts["done"] == 2 and len(rep.full.runs()) == 8
    assert rep.results.runs["first"].eq(30).all()
    assert not (repo / "results").exists()  # a temporary folder, never results/
    assert "**Reduced inputs.**" in rep.note and "**not** the paper-scale" in rep.note
    assert "No results were found in `results/tiny-full/` or `results/tiny/`" in rep.note
    assert "2 runs against the full study's 8" in rep.note
    assert rep.changes() == "first = 30; load_factor in [1.0]; 1 of 2 replications"
    directory = rep.directory
    assert directory.is_dir()
    del rep  # the temporary folder goes with the reproduction
    assert not directory.exists()


def test_results_are_read_in_order_of_preference(repo: Path) -> None:
    sweep(load_study(repo / "papers" / "tiny" / "study.toml"), repo / "results" / "tiny", workers=0)
    rep = reproduce("tiny/study-full.toml", "tiny/study.toml", base={"first": 30}, root=repo)
    assert not rep.reduced and rep.directory == repo / "results" / "tiny"
    assert rep.results.counts["done"] == 8 and rep.study is rep.full
    assert rep.note.startswith("**Full study.**") and "8 done" in rep.note

    # The full version's results, once there, come first.
    sweep(load_study(repo / "papers" / "tiny" / "study-full.toml"), repo / "results" / "tiny-full",
          workers=0)  # fmt: skip
    rep = reproduce("tiny/study-full.toml", "tiny/study.toml", root=repo)
    assert rep.full.name == "tiny-full" and not rep.reduced

    # The paper's report runs into a temporary folder: the results stay as they were.
    before = sorted(p.name for p in (repo / "results" / "tiny-full").iterdir())
    report = rep.paper_report()
    assert list(report.claims.columns) == ["claim", "where", "paper", "schedsim", "holds",
                                           "status", "rule"]  # fmt: skip
    assert "lawson2002-slowdown-ratios.csv" in report.tables
    assert "R (ratio)" in report.tables["lawson2002-slowdown-ratios.csv"].columns
    assert report.plots and all(p.suffix == ".png" and p.is_file() for p in report.plots.values())
    assert sorted(p.name for p in (repo / "results" / "tiny-full").iterdir()) == before


def test_a_study_naming_no_paper_has_no_paper_report(repo: Path) -> None:
    (repo / "papers" / "tiny" / "plain.toml").write_text(TINY.replace('paper = "lawson2002"', ""))
    rep = reproduce("tiny/plain.toml", base={"first": 30}, grid={"load_factor": [1.0]}, root=repo)
    with pytest.raises(ValueError, match="names no paper"):
        rep.paper_report()


def test_claim_counts_in_the_reports_order() -> None:
    claims = pd.DataFrame({"status": ["partly", "reproduced", "not run", "partly"]})
    assert claim_counts(claims) == "4 claims: 1 reproduced, 2 partly, 1 not run"


def test_every_papers_full_study_is_its_shipped_files() -> None:
    for paper, names in papers.STUDIES.items():
        paths = paper_studies(paper)
        assert [p.name for p in paths] == list(names) and names[0] == "study.toml"
        studies = [load_study(p) for p in paths]
        assert len({s.name for s in studies}) == len(studies)  # each into its own folder
    with pytest.raises(ValueError, match="no paper 'tiny': expected one of feitelson2009, "):
        paper_studies("tiny")


@pytest.fixture
def tiny_paper(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tiny`` registered as a paper of two studies, whose package scores them together
    (``readings_of`` names the folders it was given, in order)."""
    monkeypatch.setitem(papers.STUDIES, "tiny", ("study.toml", "study-full.toml"))
    package = types.ModuleType("tiny_paper")
    package.READINGS_FROM = ("study-full.toml", "study.toml")  # type: ignore[attr-defined]
    package.readings_of = lambda dirs: " ".join(Path(d).name for d in dirs)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tiny_paper", package)
    monkeypatch.setitem(papers.ANALYSES, "tiny", "tiny_paper")
    monkeypatch.chdir(repo)
    return repo


def test_reproduce_sweeps_and_reports_each_study_of_a_paper(
    tiny_paper: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["reproduce", "tiny", "--list"]) == 0
    listed = capsys.readouterr().out
    assert "tiny, 8 runs, into results/tiny/" in listed and "tiny-full, 8 runs" in listed
    assert not (tiny_paper / "results").exists()

    assert main(["reproduce", "tiny", "--workers", "0", "--no-progress"]) == 0
    for name in ("tiny", "tiny-full"):
        assert len(list((tiny_paper / "results" / name / "runs").iterdir())) == 8
        assert (tiny_paper / "results" / name / "report" / "claims.csv").is_file()
    together = tiny_paper / "results" / "tiny" / "report" / "readings-all.md"
    assert together.read_text() == "tiny-full tiny\n"  # READINGS_FROM's order

    runs = tiny_paper / "results" / "tiny" / "runs"
    stamps = {p.name: p.stat().st_mtime_ns for p in runs.iterdir()}
    assert main(["reproduce", "tiny", "--workers", "0", "--no-progress"]) == 0
    assert "0 runs finished now, 8 already done" in capsys.readouterr().out
    assert {p.name: p.stat().st_mtime_ns for p in runs.iterdir()} == stamps


def test_reproduce_names_the_papers_when_the_name_is_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["reproduce", "lawson"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no paper 'lawson': expected one of" in err
