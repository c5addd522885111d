"""The command line: outputs, options, and one-line errors on bad input."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from schedsim.app.cli import main
from schedsim.workloads.swf import read_swf


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_run_writes_every_output(tmp_path, capsys):
    out = tmp_path / "o"
    code, text, _ = run(
        capsys, "run", "--first", "300", "--policy", "conservative", "--out", str(out)
    )
    assert code == 0
    assert "conservative" in text and "VS Seq" in text
    for name in ("jobs.parquet", "jobs.csv", "series.parquet", "schedule.swf", "summary.json"):
        assert (out / name).is_file(), name
    jobs = pd.read_parquet(out / "jobs.parquet")
    assert len(jobs) == 300 and len(pd.read_csv(out / "jobs.csv")) == 300
    summary = json.loads((out / "summary.json").read_text())
    assert summary["summary"]["jobs"] == 300
    assert summary["meta"]["nodes"] == 100  # KTH header: MaxProcs 100
    # The schedule is valid SWF with the original job numbers and simulated waits.
    sched = read_swf(out / "schedule.swf")
    assert [j.id for j in sched] == jobs["id"].tolist()
    waits = {int(j.id): j.swf[2] for j in sched}
    expected = (jobs["start"] - jobs["submit"]).round().astype(int)
    assert [waits[i] for i in jobs["id"]] == expected.tolist()


def test_only_writes_the_files_named(tmp_path, capsys):
    everything, only = tmp_path / "all", tmp_path / "only"
    assert run(capsys, "run", "--first", "300", "--out", str(everything))[0] == 0
    code, text, _ = run(
        capsys, "run", "--first", "300", "--out", str(only), "--only", "jobs.csv, schedule.swf"
    )
    assert code == 0
    assert "VS Seq" in text  # the summary is printed all the same
    assert text.strip().splitlines()[-1] == f"wrote {only}/: jobs.csv, schedule.swf"
    assert sorted(p.name for p in only.iterdir()) == ["jobs.csv", "schedule.swf"]
    for name in ("jobs.csv", "schedule.swf"):
        assert (only / name).read_bytes() == (everything / name).read_bytes(), name


def test_only_without_pieces_keeps_no_piece_log(tmp_path, monkeypatch, capsys):
    from schedsim.app import cli

    seen = []
    real = cli.run_config
    monkeypatch.setattr(cli, "run_config", lambda args: seen.append(real(args)) or seen[-1])
    out = tmp_path / "o"
    assert run(capsys, "run", "--first", "50", "--out", str(out), "--only", "jobs.csv")[0] == 0
    assert seen[-1].pieces is False
    code, text, _ = run(
        capsys, "run", "--first", "50", "--out", str(out), "--only", "pieces.parquet", "--force"
    )
    assert code == 0 and seen[-1].pieces is not False  # the default: kept
    assert text.strip().endswith("wrote " + str(out) + "/: pieces.parquet")


@pytest.mark.parametrize(
    ("policy", "only", "kept"),
    [
        ("easy", "jobs.csv,schedule.swf", False),  # one stretch per job: no piece log needed
        ("ss", "schedule.swf", True),  # a suspended job's partial executions come from it
        ("easy", "batsim_jobs.csv", True),  # its rows are the cores each job held
        ("ss", "jobs.csv", False),
    ],
)
def test_only_keeps_the_piece_log_its_files_need(tmp_path, monkeypatch, capsys, policy, only, kept):
    from schedsim.app import cli

    seen = []
    real = cli.run_config
    monkeypatch.setattr(cli, "run_config", lambda args: seen.append(real(args)) or seen[-1])
    extra = ["--batsim"] if "batsim" in only else []
    argv = ["run", "--first", "400", "--nodes", "64", "--wide", "drop", "--policy", policy]
    out = tmp_path / "o"
    assert run(capsys, *argv, "--out", str(out), "--only", only, *extra)[0] == 0
    assert (seen[-1].pieces is not False) is kept
    if policy == "ss" and "schedule.swf" in only:  # the same file as a run writing everything
        assert run(capsys, *argv, "--out", str(tmp_path / "all"))[0] == 0
        swf = (out / "schedule.swf").read_text()
        assert swf == (tmp_path / "all" / "schedule.swf").read_text()
        assert "; Preemption: Double" in swf


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ("jobs.csv,foo.csv", "'foo.csv' is no file schedsim run writes; choose among jobs.parquet"),
        ("jobs.csv,jobs.csv", "'jobs.csv,jobs.csv' names a file twice"),
    ],
)
def test_only_refuses_unknown_names(tmp_path, capsys, names, message):
    with pytest.raises(SystemExit) as exc:
        main(["run", "--first", "50", "--out", str(tmp_path / "o"), "--only", names])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--only", "decisions.parquet"],
         "--only decisions.parquet: the run writes it only with --log-decisions"),
        (["--only", "pieces.parquet", "--no-pieces"],
         "--only pieces.parquet: the run writes it only without --no-pieces"),
        (["--only", "sessions.parquet"],
         "--only sessions.parquet: the run writes it only with --users"),
        (["--only", "jobs.csv", "--batsim"],
         "--batsim makes batsim_jobs.csv, which --only leaves out"),
        (["--only", "jobs.csv", "--log-reservations"],
         "--log-reservations makes reservations.parquet, which --only leaves out"),
    ],
)  # fmt: skip
def test_only_against_the_options_that_make_files(tmp_path, capsys, argv, message):
    out = tmp_path / "o"
    code, _, err = run(capsys, "run", "--first", "50", "--out", str(out), *argv)
    assert code == 2
    assert err.strip() == f"schedsim: error: {message}"
    assert not out.exists()  # refused before the trace is read or the folder made


def test_only_may_leave_a_closed_loops_sessions_out(tmp_path, capsys):
    base = ["run", "--users", "5", "--days", "2", "--no-progress"]
    out = tmp_path / "o"
    code, text, _ = run(capsys, *base, "--out", str(out), "--only", "jobs.csv")
    assert code == 0 and text.strip().endswith("wrote " + str(out) + "/: jobs.csv")
    out = tmp_path / "s"
    code, text, _ = run(capsys, *base, "--out", str(out), "--only", "sessions.parquet")
    assert code == 0 and [p.name for p in out.iterdir()] == ["sessions.parquet"]


def test_options_reach_the_simulation(tmp_path, capsys):
    out = tmp_path / "o"
    code, _, _ = run(
        capsys,
        "run", "--workload", "ctc", "--month", "1996-11", "--first", "200",
        "--nodes", "256", "--wide", "drop", "--load-factor", "1.5",
        "--param", "order=sjf", "--seed", "7", "--out", str(out), "--warmup", "10",
    )  # fmt: skip
    assert code == 0
    meta = json.loads((out / "summary.json").read_text())["meta"]
    assert meta["nodes"] == 256 and meta["seed"] == 7
    assert meta["policy_params"] == {"order": "sjf"}
    assert any("load scaled" in step for step in meta["cleaning"])
    summary = json.loads((out / "summary.json").read_text())["summary"]
    assert summary["excluded_warmup"] == 10


def test_bad_trace_line_is_one_line_naming_file_line_field(tmp_path, capsys):
    bad = tmp_path / "bad.swf"
    bad.write_text(
        "; MaxProcs: 4\n"
        "1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"
        "2 5 -1 -7 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"
    )
    code, _, err = run(capsys, "run", "--workload", str(bad), "--out", str(tmp_path / "o"))
    assert code == 2
    line = err.strip()
    assert "\n" not in line and "Traceback" not in line
    assert "bad.swf:3" in line and "run_time" in line


def test_debug_shows_the_traceback(tmp_path):
    bad = tmp_path / "empty.swf"
    bad.write_text("; MaxProcs: 4\n")
    with pytest.raises(ValueError, match=r"empty\.swf"):
        main(["run", "--workload", str(bad), "--debug"])


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["run", "--policy", "nope"], "unknown policy"),
        (["run", "--param", "order=bogus", "--first", "5"], "order"),
        (["run", "--param", "nosuch=1", "--first", "5"], "no parameter"),
        (["run", "--nodes", "10", "--first", "50"], "wider than the machine"),
        (["run", "--workload", "/no/such/file.swf"], "file.swf"),
        (["run", "--month", "1996-13"], "YYYY-MM"),
    ],
)
def test_bad_input_exits_2(capsys, tmp_path, argv, needle):
    code, _, err = run(capsys, *argv, "--out", str(tmp_path / "o"))
    assert code == 2
    assert needle in err and len(err.strip().splitlines()) == 1


def test_policies_and_workloads_listings(capsys):
    code, text, _ = run(capsys, "policies")
    assert code == 0
    for name in ("fcfs", "easy", "conservative"):
        assert name in text
    code, text, _ = run(capsys, "workloads")
    assert code == 0 and "kth" in text and "ctc" in text


def test_help_lists_every_run_option(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["run", "--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    for option in (
        "--workload", "--policy", "--nodes", "--cores-per-node", "--load-factor", "--month",
        "--first", "--seed", "--out", "--param", "--keep-run-times", "--wide", "--warmup",
    ):  # fmt: skip
        assert option in text


@pytest.mark.parametrize("submits", [None, 0.0])
def test_progress_bar_run_equals_plain_run(submits):
    from schedsim import Simulation
    from schedsim.workloads.catalog import load
    from schedsim.workloads.job import Job
    from schedsim.workloads.transforms import first
    from schedsim.workloads.workload import Workload

    w = first(load("kth"), 400)
    if submits is not None:  # every job at one instant: no time to split into steps
        w = Workload.from_jobs([Job(j.id, submits, j.run_time, j.size, j.estimate) for j in w],
                               max_procs=100)  # fmt: skip
    plain = Simulation(w, "easy").run().jobs
    shown = Simulation(w, "easy").run(progress=True).jobs
    pd.testing.assert_frame_equal(plain, shown, check_exact=True)


def test_overhead_options_build_the_run_configuration():
    from schedsim.app.cli import build_parser, run_config

    def config(*argv: str):
        return run_config(build_parser().parse_args(["run", *argv]))

    assert config().overhead is None
    assert config("--overhead").overhead == "memory"
    assert config("--overhead-rate", "2").overhead == "memory"  # the paper's value: one run
    assert config("--overhead-rate", "8", "--overhead-per", "processor").overhead == {
        "low_mb": 100.0,
        "high_mb": 1000.0,
        "rate_mb_s": 8.0,
        "per": "processor",
    }
    both = config("--overhead", "--overhead-low-mb", "0", "--overhead-high-mb", "50")
    assert both.overhead == {"low_mb": 0.0, "high_mb": 50.0, "rate_mb_s": 2.0, "per": "job"}


def test_overhead_reaches_the_simulation(tmp_path, capsys):
    out = tmp_path / "o"
    code, text, _ = run(
        capsys, "run", "--first", "300", "--policy", "ss", "--overhead", "--out", str(out)
    )
    assert code == 0 and "suspension overhead" in text
    meta = json.loads((out / "summary.json").read_text())["meta"]
    assert (
        meta["overhead"] == "MemoryOverhead(low_mb=100.0, high_mb=1000.0, rate_mb_s=2.0, per='job')"
    )
    assert pd.read_parquet(out / "jobs.parquet")["overhead_time"].sum() > 0


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--overhead-rate", "0"], "--overhead-rate: expected a positive number"),
        (["--overhead-low-mb", "500", "--overhead-high-mb", "200"], "--overhead-high-mb"),
    ],
)
def test_bad_overhead_exits_2_naming_the_key(capsys, tmp_path, argv, needle):
    code, _, err = run(capsys, "run", "--first", "5", *argv, "--out", str(tmp_path / "o"))
    assert code == 2
    assert needle in err and len(err.strip().splitlines()) == 1


def test_help_documents_the_overhead_options(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    text = capsys.readouterr().out
    for option in (
        "--overhead", "--overhead-low-mb", "--overhead-high-mb", "--overhead-rate",
        "--overhead-per", "2 MB/s",
    ):  # fmt: skip
        assert option in text


def test_report_categories_option_writes_category_tables(tmp_path, capsys):
    study = tmp_path / "s.toml"
    study.write_text(
        "[study]\nname = 'cats'\n[base]\nfirst = 200\n[grid]\npolicy = ['fcfs', 'easy']\n"
    )
    out = tmp_path / "dir"
    assert run(capsys, "sweep", str(study), "--out", str(out), "--workers", "0")[0] == 0
    code, _, _ = run(capsys, "report", str(out), "--metric", "utilization")
    assert code == 0 and not (out / "report" / "categories-16.csv").exists()
    code, _, _ = run(capsys, "report", str(out), "--metric", "utilization", "--categories")
    assert code == 0
    table = pd.read_csv(out / "report" / "categories-16.csv")
    assert table["label"].unique().tolist() == ["fcfs", "easy"] and len(table) == 32
    for name in ("mean_bounded_slowdown (ratio)", "max_bounded_slowdown (ratio)",
                 "mean_turnaround (s)"):  # fmt: skip
        assert name in table
    assert (out / "report" / "categories-16-max_turnaround.png").is_file()


# ---- issue 5: generated workloads, estimate models, closed-loop users ----------------


def test_lublin_workload_for_the_given_machine(tmp_path, capsys):
    out = tmp_path / "o"
    code, text, _ = run(
        capsys, "run", "--workload", "lublin", "--jobs", "400", "--nodes", "64", "--out", str(out)
    )
    assert code == 0 and "lublin-64" in text
    meta = json.loads((out / "summary.json").read_text())["meta"]
    assert meta["nodes"] == 64 and meta["workload"] == "lublin-64"
    assert len(pd.read_parquet(out / "jobs.parquet")) == 400


def test_estimates_option_replaces_the_estimates(tmp_path, capsys):
    out = tmp_path / "o"
    code, _, _ = run(capsys, "run", "--first", "500", "--estimates", "f:2", "--out", str(out))
    assert code == 0
    jobs = pd.read_parquet(out / "jobs.parquet")
    meta = json.loads((out / "summary.json").read_text())["meta"]
    assert any("f-model" in step for step in meta["cleaning"])
    assert (jobs["estimate"] >= jobs["work"] - 1e-9).all()


def test_closed_loop_users_from_the_command_line(tmp_path, capsys):
    out = tmp_path / "o"
    code, text, _ = run(
        capsys, "run", "--users", "20", "--days", "2", "--no-daily-cycle",
        "--policy", "creasy", "--param", "alpha=3000", "--out", str(out),
    )  # fmt: skip
    assert code == 0 and "daily_throughput" in text
    meta = json.loads((out / "summary.json").read_text())["meta"]
    assert meta["users"] == 20 and meta["days"] == 2.0
    assert meta["daily_cycle"]["enabled"] is False
    sessions = pd.read_parquet(out / "sessions.parquet")
    jobs = pd.read_parquet(out / "jobs.parquet")
    assert sessions["jobs"].sum() == len(jobs) > 0
    assert [j.id for j in read_swf(out / "schedule.swf")] == sorted(jobs["id"])


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--days", "3"], "users"),
        (["--users", "5", "--load-factor", "2"], "--load-factor"),
        (["--estimates", "f:-1", "--first", "5"], "estimates"),
        (["--jobs", "10"], "lublin"),
    ],
)
def test_bad_issue_5_options_exit_2(capsys, tmp_path, argv, needle):
    code, _, err = run(capsys, "run", *argv, "--out", str(tmp_path / "o"))
    assert code == 2
    assert needle in err and len(err.strip().splitlines()) == 1


# ---- issue 15: huge machines, output folders checked first, environmental faults -----


@pytest.mark.parametrize(
    ("argv", "needles"),
    [
        # One check for the command line and the study file (the study's _machine_problems).
        (["--nodes", "1000000000"], ["--nodes: 1,000,000,000 nodes", "16,777,216"]),
        (
            ["--nodes", "2", "--cores-per-node", "1000000000000"],
            ["--nodes: 2 nodes x 1,000,000,000,000 cores per node", "16,777,216"],
        ),
        (["--cores-per-node", "1000000000"], ["--cores-per-node: 1,000,000,000", "16,777,216"]),
        (["--nodes", "4097", "--cores-per-node", "4096"], ["4,097", "16,777,216"]),
    ],
)
def test_a_machine_beyond_the_bound_is_one_line(capsys, tmp_path, argv, needles):
    # Before: numpy tried to allocate the per-node arrays and failed with a traceback.
    code, out, err = run(capsys, "run", "--first", "20", *argv, "--out", str(tmp_path / "o"))
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert all(needle in err for needle in needles), err
    assert not (tmp_path / "o").exists()  # refused before anything was made


def test_a_machine_beyond_the_bound_from_python():
    from schedsim import Simulation
    from schedsim.model.cluster import MAX_CORES, Cluster
    from schedsim.workloads.catalog import load
    from schedsim.workloads.transforms import first

    kth = first(load("kth"), 20)
    with pytest.raises(
        ValueError, match=r"nodes x cores_per_node = 1,000,000,000 x 1 .*16,777,216"
    ):
        Simulation(kth, "easy", nodes=10**9)
    with pytest.raises(ValueError, match=r"4 x 8,388,608 = 33,554,432 cores, more than"):
        Simulation(kth, "easy", nodes=4, cores_per_node=2**23)
    with pytest.raises(ValueError, match="cores_per_node = 1,000 is more than the 100 cores"):
        Simulation(kth, "easy", cores_per_node=1000)  # nodes from the header: 0
    assert MAX_CORES == 2**24
    assert Cluster(MAX_CORES // 4096, 4096).total_cores == MAX_CORES  # the bound itself is fine


def test_memory_error_building_the_machine_is_one_line(capsys, tmp_path, monkeypatch):
    import numpy as np

    from schedsim.model import cluster

    class TightNumpy:
        """numpy, but the machine's free-cores array does not fit in memory."""

        def __getattr__(self, name):
            return getattr(np, name)

        def full(self, *args, **kwargs):
            raise MemoryError("Unable to allocate 800. B for an array with shape (100,)")

    monkeypatch.setattr(cluster, "np", TightNumpy())
    code, _, err = run(capsys, "run", "--first", "20", "--out", str(tmp_path / "o"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "not enough memory for a machine of nodes x cores_per_node = 100 x 1" in err
    assert "Unable to allocate" in err


def test_out_is_checked_before_simulating(capsys, tmp_path, monkeypatch):
    from schedsim.model.simulation import ModelSimulation

    def no_run(*args, **kwargs):
        raise AssertionError("simulated before the output folder was checked")

    monkeypatch.setattr(ModelSimulation, "run", no_run)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    for out in (blocker, blocker / "sub"):  # unwritable, even for root
        code, text, err = run(capsys, "run", "--first", "20", "--out", str(out))
        assert code == 2 and text == ""
        assert err.startswith(f"schedsim: error: --out {out}: ") and len(err.splitlines()) == 1


def test_empty_out_is_refused(capsys, tmp_path, monkeypatch):
    # Path("") is ".": it used to write every file into the current directory.
    monkeypatch.chdir(tmp_path)
    for command in (["run", "--first", "20"], ["sweep", "s.toml", "--workers", "0"]):
        (tmp_path / "s.toml").write_text("[base]\nfirst = 20\n")
        code, _, err = run(capsys, *command, "--out", "")
        assert code == 2 and "--out '': an empty directory name" in err
        assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"]
    # Reports and comparisons of run folders too (they wrote into the current folder).
    assert run(capsys, "run", "--first", "20", "--out", "r", "--no-progress")[0] == 0
    for command in ("report", "compare"):
        code, _, err = run(capsys, command, "r", "--out", "")
        assert code == 2 and "--out '': an empty directory name" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r", "s.toml"]


def test_the_probe_leaves_nothing_and_a_failed_run_takes_back_its_folder(capsys, tmp_path):
    out = tmp_path / "new" / "deeper"
    code, _, _ = run(capsys, "run", "--first", "20", "--out", str(out))
    assert code == 0
    assert not [p for p in out.iterdir() if p.name.startswith(".")]
    # A run that fails on bad input leaves no empty output folder behind.
    code, _, err = run(
        capsys, "run", "--param", "nosuch=1", "--first", "5", "--out", str(tmp_path / "x" / "y")
    )
    assert code == 2 and "no parameter" in err and not (tmp_path / "x").exists()


def test_a_full_disk_while_writing_a_run_names_the_folder(capsys, tmp_path, monkeypatch):
    import errno

    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_parquet", full)
    out = tmp_path / "o"
    code, _, err = run(capsys, "run", "--first", "20", "--out", str(out))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert f"{out}: cannot write the run's results (No space left on device)" in err


def test_only_names_every_file_a_result_saves():
    # --only's names are written out in the command line module, which imports no pandas
    # for --help; they must be the files Result.save writes, and the command's own.
    from schedsim.app.cli import CLI_FILES, RUN_FILES
    from schedsim.model.results import OPTIONAL_TABLES, POLICY_FILES

    saved = {"jobs.parquet", "jobs.csv", "series.parquet", "summary.json", POLICY_FILES}
    saved |= {f"{name}.parquet" for name in OPTIONAL_TABLES}
    assert set(RUN_FILES) == saved | CLI_FILES


def test_every_configuration_key_has_its_option_name():
    """An error about a key names the option its user typed: every key is spelled."""
    from schedsim.app.cli import OPTION_NAMES, build_parser
    from schedsim.app.study import CONFIG_KEYS

    assert set(CONFIG_KEYS) <= set(OPTION_NAMES)
    options = {a for action in build_parser()._subparsers._group_actions[0].choices["run"]._actions
               for a in action.option_strings}  # fmt: skip
    assert set(OPTION_NAMES.values()) <= options


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (
            ["--users", "10", "--days", "1e9"],
            "--days: expected a number of days from 0.0417 (an hour) to 36,525",
        ),
        (["--load-factor", "1e-300"], "--load-factor: expected a positive number"),
        (["--first", "-3"], "--first: "),
        (["--jobs", "100000000000", "--workload", "lublin"], "--jobs: "),
        (["--workload", "zeng-w1", "--workload-param", "rounding=x"], "--workload-param rounding:"),
        (["--overhead-rate", "0"], "--overhead-rate: "),
        (["--policy", "nosuch"], "--policy: unknown policy 'nosuch'"),
        (["--param", "nosuch=1"], "--param"),
    ],
)
def test_errors_name_the_option_as_typed(capsys, tmp_path, argv, error):
    code, _, err = run(capsys, "run", *argv, "--out", str(tmp_path / "o"))
    assert code == 2 and len(err.splitlines()) == 1
    assert err.startswith(f"schedsim: error: {error}"), err
    assert not (tmp_path / "o").exists()
