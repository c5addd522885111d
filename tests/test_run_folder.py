"""A finished run is never lost or overwritten (`schedsim.app.run_folder`, the command line).

Each fault a user meets is tried: a default folder that another configuration would
share, an ``--out`` folder holding another run (refused, or with ``--force`` emptied of
schedsim's own files and nothing else), a disk that fills while writing, a reader that
closes the pipe (``| head``), and Ctrl-C before, during and after the simulation, while
the files are written and while the tables are printed. Every case ends with one line on
standard error and either a whole run in its folder or no folder at all.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from schedsim.app import cli
from schedsim.app.closed_pipe import PipeGuard
from schedsim.app.run_folder import (
    check_folder,
    deferred_interrupts,
    held_run,
    own_files,
    write_run,
)
from schedsim.model.results import Result


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def whole(folder: Path) -> Result:
    """The run in ``folder``, read back whole (every default file there, none left over)."""
    names = sorted(p.name for p in folder.iterdir())
    expected = ["jobs.csv", "jobs.parquet", "pieces.parquet", "schedule.swf", "series.parquet"]
    assert names == sorted([*expected, "summary.json"]), names
    return Result.load(folder)


# -- the folder --------------------------------------------------------------------------


def test_own_files_are_schedsims_and_nothing_else(tmp_path):
    for name in ("jobs.csv", "summary.json", "policy-partitions.parquet", "notes.txt", "x.csv"):
        (tmp_path / name).write_text("x")
    (tmp_path / "batsim_jobs.csv").mkdir()  # a folder of that name is not a run's file
    assert [p.name for p in own_files(tmp_path)] == [
        "jobs.csv", "policy-partitions.parquet", "summary.json",
    ]  # fmt: skip
    assert own_files(tmp_path / "nowhere") == []


def test_a_folder_with_another_run_is_refused_unless_forced(tmp_path):
    (tmp_path / "summary.json").write_text(
        json.dumps({"meta": {"run_id": "aaaa", "policy": "easy", "workload": "KTH"}})
    )
    (tmp_path / "jobs.csv").write_text("id\n")
    with pytest.raises(ValueError) as refused:
        check_folder(tmp_path, "bbbb", force=False, option=f"--out {tmp_path}")
    message = str(refused.value)
    assert message.startswith(f"--out {tmp_path} holds another run (easy on KTH, run id aaaa")
    assert "--force" in message and "\n" not in message
    assert check_folder(tmp_path, "bbbb", force=True, option="x").run_id == "aaaa"
    assert check_folder(tmp_path, "aaaa", force=False, option="x").files == (
        "jobs.csv", "summary.json",
    )  # fmt: skip  # the same configuration: the same run, written again
    # Files of a run that says no id (written with --only, or unreadable) are another run.
    (tmp_path / "summary.json").write_text("{not json")
    assert held_run(tmp_path).run_id is None
    with pytest.raises(ValueError, match="no run id"):
        check_folder(tmp_path, "aaaa", force=False, option="x")
    assert check_folder(tmp_path / "empty", "aaaa", force=False, option="x") is None


def test_a_write_replaces_the_runs_files_and_keeps_the_rest(tmp_path):
    for name in ("jobs.csv", "batsim_jobs.csv", "decisions.parquet", "notes.txt"):
        (tmp_path / name).write_text("old")
    (tmp_path / ".schedsim-dead.tmp").mkdir()  # left by a write that was killed

    def write(folder: Path) -> list[str]:
        for name in ("jobs.csv", "summary.json"):
            (folder / name).write_text("new")
        return ["jobs.csv", "summary.json"]

    assert write_run(tmp_path, write) == ["jobs.csv", "summary.json"]
    left = {p.name: p.read_text() for p in tmp_path.iterdir()}
    assert left == {"jobs.csv": "new", "summary.json": "new", "notes.txt": "old"}


def test_a_failed_write_leaves_the_folder_as_it_was(tmp_path):
    (tmp_path / "jobs.csv").write_text("old")

    def write(folder: Path) -> list[str]:
        (folder / "jobs.csv").write_text("half")
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError):
        write_run(tmp_path, write)
    assert {p.name: p.read_text() for p in tmp_path.iterdir()} == {"jobs.csv": "old"}


def test_an_interrupt_is_held_while_the_block_runs():
    # Python's own handler to begin with: a test worker may have inherited another
    # (SIGINT ignored), which the block would rightly put back.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with deferred_interrupts() as held:
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)
        assert held and held.count == 2
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        with pytest.raises(KeyboardInterrupt):  # the handler is put back after the block
            os.kill(os.getpid(), signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, previous)


# -- the command line ---------------------------------------------------------------------


def test_default_folders_carry_the_configuration(tmp_path, capsys, monkeypatch):
    """The default folder is named by the run's configuration hash, so a different
    configuration never replaces another's run; the same one is written again."""
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "run", "--first", "100")[0] == 0
    assert run(capsys, "run", "--first", "100", "--load-factor", "1.5")[0] == 0
    folders = sorted((tmp_path / "results").iterdir())
    assert len(folders) == 2 and all(
        f.name.startswith("KTH-SP2-1996-2.1-cln-easy-") for f in folders
    )
    ids = {json.loads((f / "summary.json").read_text())["meta"]["run_id"][:8] for f in folders}
    assert ids == {f.name.rsplit("-", 1)[1] for f in folders}
    jobs = sorted(len(whole(f).jobs) for f in folders)
    assert jobs == [100, 100]
    code, _, err = run(capsys, "run", "--first", "100")  # the same configuration again
    assert code == 0 and not err and len(list((tmp_path / "results").iterdir())) == 2


def test_a_reused_out_is_refused_then_replaced_whole_with_force(tmp_path, capsys):
    out = tmp_path / "o"
    assert run(capsys, "run", "--first", "60", "--out", str(out), "--batsim",
               "--log-decisions")[0] == 0  # fmt: skip
    (out / "my-notes.txt").write_text("mine")
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    code, _, err = run(capsys, "run", "--first", "80", "--policy", "fcfs", "--out", str(out))
    assert code == 2 and len(err.splitlines()) == 1
    assert err.startswith(f"schedsim: error: --out {out} holds another run (easy on KTH")
    assert "--force" in err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # untouched
    code, _, err = run(
        capsys, "run", "--first", "80", "--policy", "fcfs", "--out", str(out), "--force"
    )
    assert code == 0 and not err
    # The earlier run's batsim_jobs.csv and decisions.parquet went; the user's file stayed.
    assert sorted(p.name for p in out.iterdir() if p.name != "my-notes.txt") == sorted(
        ["jobs.csv", "jobs.parquet", "pieces.parquet", "schedule.swf", "series.parquet",
         "summary.json"]
    )  # fmt: skip
    assert (out / "my-notes.txt").read_text() == "mine"
    assert len(Result.load(out).jobs) == 80


def test_the_default_folder_of_another_run_is_refused(tmp_path, capsys, monkeypatch):
    # A default folder that holds other files of schedsim's (a run by an older version,
    # which named folders by workload and policy only) is not replaced silently either.
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "run", "--first", "30")[0] == 0
    (folder,) = (tmp_path / "results").iterdir()
    doc = json.loads((folder / "summary.json").read_text())
    doc["meta"]["run_id"] = "0" * 16
    (folder / "summary.json").write_text(json.dumps(doc))
    code, _, err = run(capsys, "run", "--first", "30")
    assert code == 2 and err.startswith(f"schedsim: error: the default folder {Path('results')}")
    assert "--force" in err and "--out" in err


def test_a_full_disk_keeps_the_earlier_run(tmp_path, capsys, monkeypatch):
    out = tmp_path / "o"
    assert run(capsys, "run", "--first", "40", "--out", str(out))[0] == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("schedsim.app.exports.write_swf", full)
    code, _, err = run(capsys, "run", "--first", "50", "--out", str(out), "--force")
    assert code == 2 and len(err.splitlines()) == 1 and "No space left on device" in err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def interrupt(*args, **kwargs):
    raise KeyboardInterrupt


def test_ctrl_c_during_the_simulation_leaves_no_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("schedsim.app.simulation.Simulation.run", interrupt)
    out = tmp_path / "new" / "o"
    code, text, err = run(capsys, "run", "--first", "40", "--out", str(out))
    assert code == cli.INTERRUPTED and not text
    assert err == "schedsim: interrupted during the simulation; nothing was written\n"
    assert not (tmp_path / "new").exists()
    monkeypatch.chdir(tmp_path)  # the default folder too
    assert run(capsys, "run", "--first", "40")[0] == cli.INTERRUPTED
    assert not (tmp_path / "results").exists()


def test_ctrl_c_while_reading_the_workload_says_so(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("schedsim.app.study.RunConfig.simulation", interrupt)
    code, _, err = run(capsys, "run", "--first", "40", "--out", str(tmp_path / "o"))
    assert code == cli.INTERRUPTED
    assert err == "schedsim: interrupted while reading the workload; nothing was written\n"
    assert not (tmp_path / "o").exists()


def test_ctrl_c_while_the_files_are_written_finishes_them(tmp_path, capsys, monkeypatch):
    real = Result.save

    def save(self, *args, **kwargs):  # a real SIGINT, halfway through the files
        os.kill(os.getpid(), signal.SIGINT)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Result, "save", save)
    out = tmp_path / "o"
    code, text, err = run(capsys, "run", "--first", "40", "--out", str(out))
    assert code == cli.INTERRUPTED and not text  # nothing printed after the interrupt
    assert err == f"schedsim: interrupted; the run was finished and its files are whole in {out}/\n"
    assert len(whole(out).jobs) == 40


def test_ctrl_c_while_printing_keeps_the_files(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cli, "print_categories", interrupt)
    out = tmp_path / "o"
    code, _, err = run(capsys, "run", "--first", "40", "--out", str(out))
    assert code == cli.INTERRUPTED
    assert err == f"schedsim: interrupted; the run's files are whole in {out}/\n"
    assert len(whole(out).jobs) == 40


def test_a_closed_pipe_loses_nothing(tmp_path):
    """``schedsim run | head``: the reader is gone before anything is printed."""
    out = tmp_path / "o"
    command = [sys.executable, "-m", "schedsim", "run", "--first", "200", "--out", str(out)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    child.stdout.close()  # the reader goes away at once
    err = child.stderr.read().decode()
    assert child.wait() == 0
    assert err == (
        f"schedsim: output cut short: its reader closed the pipe; the run's files are "
        f"whole in {out}/\n"
    )
    assert len(whole(out).jobs) == 200


def test_the_guard_passes_writes_until_the_reader_goes():
    class Pipe:
        def __init__(self):
            self.text, self.gone = "", False

        def write(self, text):
            if self.gone:
                raise BrokenPipeError(errno.EPIPE, "Broken pipe")
            self.text += text
            return len(text)

        def flush(self):
            if self.gone:
                raise BrokenPipeError(errno.EPIPE, "Broken pipe")

        def fileno(self):
            raise ValueError("no descriptor")  # nothing to point at the null device

    pipe = Pipe()
    guard = PipeGuard(pipe)
    guard.write("one\n")
    pipe.gone = True
    assert guard.write("two\n") == 4 and guard.closed
    guard.write("three\n")
    guard.flush()
    assert pipe.text == "one\n" and not guard.isatty()

    class Full(Pipe):
        def write(self, text):
            raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError, match="No space"):  # only a gone reader is forgiven
        PipeGuard(Full()).write("x")


# -- the rough edges of the command line --------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (
            ["run", "--nodes", "abc"],
            "schedsim: error: argument --nodes: invalid int value: 'abc'",
        ),
        (["run", "--policy"], "schedsim: error: argument --policy: expected one argument"),
        (["nosuch"], "schedsim: error: argument COMMAND: invalid choice: 'nosuch'"),
        (["compare"], "schedsim: error: the following arguments are required: DIR"),
    ],
)
def test_a_command_line_mistake_is_one_line(capsys, argv, error):
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert not out and len(err.splitlines()) == 1 and err.startswith(error)
    command = "schedsim" if argv == ["nosuch"] else f"schedsim {argv[0]}"
    assert err.rstrip().endswith(f"(see `{command} --help`)")


def test_the_progress_bar_follows_standard_error(tmp_path, capsys, monkeypatch):
    """Shown when standard error is a terminal (where the bar goes), never with
    --no-progress, and after the command line's delay."""
    from schedsim.model.simulation import ModelSimulation

    seen = []

    def spy(self, until=None, progress=False, **kwargs):
        seen.append((progress, kwargs.get("delay")))
        return ModelSimulation.run(self, until)

    monkeypatch.setattr("schedsim.app.simulation.Simulation.run", spy)
    for tty, extra, shown in (
        (True, [], True),
        (True, ["--no-progress"], False),
        (False, [], False),
    ):
        monkeypatch.setattr(sys.stderr, "isatty", lambda tty=tty: tty)
        out = tmp_path / f"o{len(seen)}"
        assert run(capsys, "run", "--first", "30", "--out", str(out), *extra)[0] == 0
        assert seen[-1] == (shown, cli.PROGRESS_DELAY)


def test_a_bar_shows_only_once_a_run_has_taken_its_delay():
    from io import StringIO

    from rich.console import Console

    from schedsim.app.simulation import Simulation
    from schedsim.workloads.catalog import load
    from schedsim.workloads.transforms import first

    kth = first(load("kth"), 300)
    shown = {}
    for delay in (0.0, 1e9):
        screen = StringIO()
        console = Console(file=screen, force_terminal=True, width=100)
        jobs = Simulation(kth, "easy").run(progress=True, delay=delay, console=console).jobs
        shown[delay] = screen.getvalue()
        pd.testing.assert_frame_equal(jobs, Simulation(kth, "easy").run().jobs)
    assert "easy on KTH" in shown[0.0] and shown[1e9] == ""


def test_a_by_column_no_job_table_has_is_refused_after_the_files(tmp_path, capsys):
    """``--by``'s column is known only once the run is over (policies add their own), so
    it is checked then: one line, and the run's files written first."""
    out = tmp_path / "o"
    code, text, err = run(capsys, "run", "--first", "40", "--by", "nosuch", "--out", str(out))
    assert code == 2 and not text and len(err.splitlines()) == 1
    assert err.startswith("schedsim: error: --by nosuch: the job table has no such column")
    assert err.rstrip().endswith(f"the run's files are whole in {out}/")
    assert len(whole(out).jobs) == 40
    # A policy's own column is one: multiqueue's queue_class.
    argv = ["run", "--first", "40", "--policy", "multiqueue", "--by", "queue_class"]
    code, text, _ = run(capsys, *argv, "--out", str(tmp_path / "m"))
    assert code == 0 and "queue_class" in text
