"""Running studies: the local pool, a real Dask cluster, resuming, failures, the CLI."""

from __future__ import annotations

import contextlib
import gc
import json
import math
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from schedsim import Simulation
from schedsim.app import registry
from schedsim.app import sweep as sweep_module
from schedsim.app.cli import main
from schedsim.app.study import RunConfig, Study, load_study
from schedsim.app.sweep import LOCK_NAME, execute, is_finished, largest_first, sweep
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


def _environments() -> int:
    import simpy

    return sum(isinstance(o, simpy.Environment) for o in gc.get_objects())


def test_a_worker_frees_each_run_before_the_next(tmp_path):
    # A finished run is held in reference cycles (its SimPy environment, the scheduler's
    # process), which only a full pass frees, and `tuned_gc` holds those off: a worker
    # that went from run to run without one kept every run it had done (12 GB of them
    # in the Lawson & Smirni study, killed for memory). Nothing is left after a run.
    study = small_study()
    task = (sweep_module._document(study.runs()[0]), ())
    gc.collect()
    before = _environments()
    for _ in range(3):
        assert sweep_module.execute_tuned(task).ok
    assert _environments() == before


class _SignalsSeen:
    """The stop signals a pool worker held while it ran a task and while it sent the
    result back (read as the result is pickled for sending)."""

    def __init__(self, running: frozenset, sending: frozenset = frozenset()) -> None:
        self.running, self.sending = running, sending

    def __reduce__(self):
        held = frozenset(signal.pthread_sigmask(signal.SIG_BLOCK, []))
        return (_SignalsSeen, (self.running, held))


def _seeing_signals(task):
    return _SignalsSeen(frozenset(signal.pthread_sigmask(signal.SIG_BLOCK, [])))


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal masks")
def test_a_pool_worker_is_stopped_while_it_runs_but_not_while_it_sends(monkeypatch):
    # Stopped halfway through sending a run's files back, a worker leaves half a
    # message in the pool's result pipe, and the pool's reading thread waits for the
    # rest for ever: an interrupted sweep hung so, now and then, in its clean-up.
    monkeypatch.setattr(sweep_module, "execute_tuned", _seeing_signals)
    task = (sweep_module._document(small_study().runs()[0]), ())
    with sweep_module._local_pool([task] * 3, 1) as outcomes:
        seen = list(outcomes)
    stops = {signal.SIGTERM, signal.SIGINT}
    assert [stops & s.running for s in seen] == [set()] * 3
    assert [stops & s.sending for s in seen] == [stops] * 3


#: What `_dying` kills: the run id, the marker file that must exist, the real function.
_KILL: dict = {}


def _dying(task):
    """`execute_tuned`, but the worker dies (as the out-of-memory killer's victim) on one
    run while a marker file exists; module level, so that the pool can pickle it."""
    if task[0]["id"] == _KILL["run"] and Path(_KILL["marker"]).exists():
        os._exit(9)
    return _KILL["original"](task)


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")
def test_a_worker_killed_mid_run_fails_its_runs_without_a_traceback(tmp_path, monkeypatch):
    # A worker killed from outside breaks the pool: the runs in flight are failures saying
    # so, the others wait for the next sweep, which does them all.
    study = small_study(replications=2)
    marker = tmp_path / "kill-now"
    marker.touch()
    kill = {"run": study.runs()[0].id, "marker": marker, "original": sweep_module.execute_tuned}
    monkeypatch.setattr(sys.modules[__name__], "_KILL", kill)
    monkeypatch.setattr(sweep_module, "execute_tuned", _dying)
    out = tmp_path / "study"
    first_pass = sweep(study, out, workers=2)
    assert first_pass.failed and first_pass.finished + first_pass.missing == 8
    assert all("a worker process died" in error for _, error in first_pass.failed)
    assert (out / "failures" / f"{kill['run']}.json").is_file()

    marker.unlink()
    second_pass = sweep(study, out, workers=2)
    assert second_pass.failed == [] and second_pass.skipped + second_pass.finished == 8
    assert all(is_finished(out, run.id) for run in study.runs())


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


def test_size_hint_grows_with_the_jobs_a_run_will_make():
    loop = RunConfig(workload="kth", users=50, days=10)  # the daily cycle: 10 hours a day
    assert loop.size_hint() == pytest.approx(50 * 10 * 10 / 24)
    assert RunConfig(workload="kth", users=50, days=10, daily_cycle=False).size_hint() == 500
    weekly = RunConfig(workload="kth", users=50, days=10, weekdays=(0, 1, 2, 3, 4))
    assert weekly.size_hint() == pytest.approx(50 * 10 * 10 / 24 * 5 / 7)
    assert RunConfig(workload="kth", users=50).size_hint() == pytest.approx(50 * 180 * 10 / 24)
    assert RunConfig(workload="lublin", jobs=300).size_hint() == 300
    assert RunConfig(workload="kth", first=150).size_hint() == 150
    assert RunConfig(workload="kth").size_hint() == math.inf  # the whole log: unknown


def test_runs_are_handed_out_largest_first_ties_in_the_studys_order(tmp_path, monkeypatch):
    study = small_study(grid={"first": [40, 120, 80], "policy": ["fcfs", "easy"]})
    order = [(r.config.first, r.config.policy.name) for r in largest_first(study.runs())]
    assert order == [(120, "fcfs"), (120, "easy"), (80, "fcfs"), (80, "easy"),
                     (40, "fcfs"), (40, "easy")]  # fmt: skip
    # And a sweep runs them so (one worker, in this process).
    ran = []

    def execute_noting(task):
        ran.append(task[0]["config"]["first"])
        return execute(task)

    monkeypatch.setattr(sweep_module, "execute", execute_noting)
    assert sweep(study, tmp_path, workers=0).finished == 6
    assert ran == [120, 120, 80, 80, 40, 40]


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
    # The lock file is filelock's to make (an empty file; its mode depends on the version).
    files = [p for p in (tmp_path / "study").rglob("*") if p.is_file() and p.name != LOCK_NAME]
    assert (tmp_path / "study" / LOCK_NAME).is_file()
    assert {p.relative_to(tmp_path).as_posix().split("/")[1] for p in files} == {
        "study.json",
        "runs",
        "failures",
    }
    assert {oct(p.stat().st_mode & 0o777) for p in folders} == {oct(0o777 & ~mask)}
    assert {oct(p.stat().st_mode & 0o777) for p in files} == {oct(0o666 & ~mask)}


def test_sweep_says_when_it_compiles_the_kernels(tmp_path, capsys, monkeypatch):
    from schedsim.policies import compiled

    monkeypatch.setattr(compiled, "cache_is_cold", lambda: True)
    notice = "compiling the suspension policies' kernels once for this machine"
    sweep(small_study(grid={"policy": ["easy"]}), tmp_path / "a", workers=0, progress=True)
    assert notice not in capsys.readouterr().out  # no SS run: nothing to compile
    study = small_study(base={**BASE, "first": 40}, grid={"policy": ["easy", "tss"]})
    sweep(study, tmp_path / "b", workers=0, progress=True)
    assert capsys.readouterr().out.count(notice) == 1
    monkeypatch.setattr(compiled, "cache_is_cold", lambda: False)
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
    # The workload's error (an SWFError is a ValueError), with the file and line it names.
    assert outcome.error.startswith("SWFError:") and "wider than the machine" in outcome.error
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


# ---- issue 15: concurrent sweeps, killed sweeps, read-only studies, full disks --------

#: A policy for the tests below, written into the test's folder and imported by the
#: study (``imports``) in subprocesses: FCFS that, at its first pass, records its
#: process id as a file in ``pids`` and waits until the file ``gate`` exists (a minute
#: at most, so that nothing a failing test leaves waits for long).
GATE_POLICY = """
import os
import time
from pathlib import Path

from schedsim.model.policy import register
from schedsim.policies.fcfs import FCFS


@register("gate")
class Gate(FCFS):
    def __init__(self, gate: str = "", pids: str = "") -> None:
        super().__init__()
        self.gate, self.pids, self.waited = gate, pids, False

    def schedule(self, view):
        if not self.waited:
            self.waited = True
            Path(self.pids, str(os.getpid())).touch()
            deadline = time.monotonic() + 60
            while not Path(self.gate).exists() and time.monotonic() < deadline:
                time.sleep(0.02)
        return super().schedule(view)
"""


class Gated:
    """A study whose gate runs wait for ``open()``, run by ``schedsim sweep`` in
    subprocesses (``start``), and the processes they run in (``pids``)."""

    def __init__(self, root: Path, quick: int = 0, gated: int = 2) -> None:
        self.root = root
        self.modules = root / "modules"
        self.modules.mkdir()
        (self.modules / "gate_policy.py").write_text(GATE_POLICY)
        self.gate = root / "gate"
        self.pid_dir = root / "pids"
        self.pid_dir.mkdir()
        self.out = root / "study"
        self.toml = root / "study.toml"
        loads = ", ".join(str(1.0 + k / 10) for k in range(gated))
        quick_runs = "".join(
            f"[[variants]]\npolicy = 'easy'\nload_factor = {1.0 + k / 10}\n" for k in range(quick)
        )
        # Quick runs first: a serial sweep stores them before it reaches the gate.
        self.toml.write_text(
            "[study]\nname = 'gated'\nimports = ['gate_policy']\n"
            "[base]\nworkload = 'kth'\nfirst = 40\n"
            + quick_runs
            + "".join(
                f"[[variants]]\npolicy = 'gate'\nload_factor = {x}\nlabel = 'gate'\n"
                f"params = {{gate = '{self.gate}', pids = '{self.pid_dir}'}}\n"
                for x in loads.split(", ")
            )
        )
        self.processes: list[subprocess.Popen[str]] = []
        # The processes of runs our subprocesses made (never this one: a sweep the
        # test runs itself records the test's own id).
        self.spawned: set[int] = set()

    def start(self, workers: int) -> subprocess.Popen[str]:
        paths = [str(self.modules), *filter(None, [os.environ.get("PYTHONPATH")])]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
        process = subprocess.Popen(
            [sys.executable, "-m", "schedsim", "sweep", str(self.toml), "--out", str(self.out),
             "--workers", str(workers), "--no-progress"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.processes.append(process)
        return process

    def pids(self, count: int, timeout: float = 60.0) -> list[int]:
        """The ids of the processes that reached the gate, once ``count`` have; an error
        if a sweep the test has not reaped yet ends meanwhile."""
        deadline = time.monotonic() + timeout
        watched = [p for p in self.processes if p.returncode is None]
        while time.monotonic() < deadline:
            found = [int(p.name) for p in self.pid_dir.iterdir()]
            self.spawned.update(pid for pid in found if pid != os.getpid())
            if len(found) >= count:
                return sorted(found)
            ended = [p.communicate() for p in watched if p.poll() is not None]
            if ended:
                raise AssertionError(f"a sweep ended before reaching the gate: {ended}")
            time.sleep(0.05)
        raise AssertionError(f"{count} runs did not reach the gate in {timeout} s")

    def open(self) -> None:
        self.gate.touch()

    def clean_up(self) -> None:
        # Whatever a failing test left: open the gate, end our subprocesses and the
        # runs' processes we recorded (by their ids: orphaned workers would hold the
        # subprocesses' output pipes open), then reap the subprocesses.
        self.open()
        self.spawned.update(int(p.name) for p in self.pid_dir.iterdir())
        self.spawned.discard(os.getpid())
        for process in self.processes:
            if process.poll() is None:
                process.kill()
        for pid in self.spawned:
            if alive(pid):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        for process in self.processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.communicate(timeout=30)


@pytest.fixture
def gated(tmp_path):
    made: list[Gated] = []

    def make(**kwargs) -> Gated:
        made.append(Gated(tmp_path, **kwargs))
        return made[-1]

    yield make
    for study in made:
        study.clean_up()
    sys.modules.pop("gate_policy", None)


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def gone_within(pids: list[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


needs_proc = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="finds processes through /proc"
)


def test_a_second_sweep_of_a_directory_is_refused_and_the_first_completes(gated):
    study = gated(quick=1, gated=2)
    # A run finished before either starts must come through untouched.
    done = study.start(workers=0)
    study.pids(1)  # the quick run is stored; the first gate run is waiting
    done.kill()
    done.communicate()
    before = snapshot(study.out)
    for pid in study.pids(1):
        assert not alive(pid)
    for p in study.pid_dir.iterdir():
        p.unlink()
    # Two sweeps at once: one takes the study, the other is refused at once.
    first, second = study.start(workers=1), study.start(workers=1)
    loser = None
    deadline = time.monotonic() + 30
    while loser is None and time.monotonic() < deadline:
        loser = next((p for p in (first, second) if p.poll() is not None), None)
        time.sleep(0.05)
    assert loser is not None, "neither sweep was refused while the other ran"
    winner = second if loser is first else first
    _, err = loser.communicate()
    assert loser.returncode == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"schedsim: error: {study.out}: another sweep is running")
    assert "run this command again" in err
    study.pids(1)  # the winner is at the gate, refused by nothing
    assert winner.poll() is None
    study.open()
    out, err = winner.communicate(timeout=60)
    assert winner.returncode == 0, err
    assert "2 runs finished now, 1 already done, 0 failed" in out
    after = snapshot(study.out)
    assert {k: v for k, v in after.items() if k in before} == before
    ids = [r["id"] for r in json.loads((study.out / "study.json").read_text())["runs"]]
    assert len(ids) == 3
    assert sorted(p.name for p in (study.out / "runs").iterdir()) == sorted(ids)
    for run_id in ids:
        assert len(pd.read_parquet(study.out / "runs" / run_id / "jobs.parquet")) == 40


def test_a_killed_sweep_does_not_block_the_next_which_resumes_exactly(gated, monkeypatch):
    study = gated(quick=2, gated=1)
    killed = study.start(workers=0)
    (holder,) = study.pids(1)  # two runs stored, the third waits at the gate
    assert holder == killed.pid
    killed.send_signal(signal.SIGKILL)
    killed.communicate()
    assert (study.out / LOCK_NAME).is_file()  # the lock file stays; its lock went
    before = snapshot(study.out)
    assert len({Path(k).parts[1] for k in before}) == 2
    study.open()
    monkeypatch.syspath_prepend(str(study.modules))
    definition = load_study(study.toml)
    resumed = sweep(definition, study.out, workers=0)  # not refused
    assert (resumed.skipped, resumed.finished, resumed.failed) == (2, 1, [])
    after = snapshot(study.out)
    assert {k: v for k, v in after.items() if k in before} == before
    # The same files as a sweep never killed (summaries but their wall times).
    whole = sweep(definition, study.root / "whole", workers=0)
    assert whole.finished == 3
    reference = snapshot(study.root / "whole")
    assert set(after) == set(reference)
    for name, (data, _) in after.items():
        if name.endswith("summary.json"):
            data, expected = (json.loads(d)["summary"] for d in (data, reference[name][0]))
        else:
            expected = reference[name][0]
        assert data == expected, name


@needs_proc
def test_pool_workers_exit_when_the_sweep_is_killed(gated):
    study = gated(gated=2)
    parent = study.start(workers=2)
    workers = study.pids(2)  # both busy at the gate
    assert {parent_of(pid) for pid in workers} == {parent.pid}
    parent.send_signal(signal.SIGKILL)
    parent.wait()  # not communicate(): orphaned workers would keep its pipes open
    assert gone_within(workers, 5.0), "pool workers outlived the killed sweep"
    # They held copies of the sweep's lock descriptor (forked): it is free again.
    from filelock import FileLock

    with FileLock(study.out / LOCK_NAME, timeout=0):
        pass


WATCHED_CHILD = """
import multiprocessing, os, sys, time
from schedsim.app.sweep import _exit_with_parent

def child(pid_file):
    _exit_with_parent(os.getppid(), kernel=False)  # the thread, as where prctl is missing
    with open(pid_file + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.replace(pid_file + ".tmp", pid_file)
    time.sleep(60)

if __name__ == "__main__":
    multiprocessing.get_context("fork").Process(target=child, args=(sys.argv[1],)).start()
    time.sleep(60)
"""


@needs_proc
@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="the child is forked"
)
def test_a_worker_without_prctl_watches_its_parent_and_exits_with_it(tmp_path):
    pid_file = tmp_path / "child"
    parent = subprocess.Popen([sys.executable, "-c", WATCHED_CHILD, str(pid_file)])
    child = None
    try:
        deadline = time.monotonic() + 30
        while not pid_file.exists() and time.monotonic() < deadline:
            assert parent.poll() is None, "the parent ended early"
            time.sleep(0.05)
        child = int(pid_file.read_text())
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert gone_within([child], 5.0), "the child outlived its killed parent"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        if child is not None and alive(child):
            os.kill(child, signal.SIGKILL)


@pytest.fixture
def read_only(monkeypatch):
    """``read_only(folder)``: every write under ``folder`` fails with EROFS, as on a
    read-only mount (chmod would not do: the tests may run as root)."""
    import builtins
    import errno
    import io

    folders: list[Path] = []

    def inside(path) -> bool:
        if isinstance(path, int):
            return False
        resolved = Path(os.fsdecode(path)).resolve()
        return any(resolved == f or f in resolved.parents for f in folders)

    def refuse(path) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), os.fsdecode(path))

    real_open, real_io_open, real_builtin_open = os.open, io.open, builtins.open
    writing = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

    def os_open(path, flags, *args, **kwargs):
        if flags & writing and inside(path):
            if flags & os.O_CREAT and flags & os.O_EXCL and os.path.lexists(path):
                raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), os.fsdecode(path))
            refuse(path)
        return real_open(path, flags, *args, **kwargs)

    def file_open(real):
        def wrapped(file, mode="r", *args, **kwargs):
            if any(c in mode for c in "wax+") and inside(file):
                refuse(file)
            return real(file, mode, *args, **kwargs)

        return wrapped

    def path_call(real):
        def wrapped(path, *args, **kwargs):
            if inside(path):
                refuse(path)
            return real(path, *args, **kwargs)

        return wrapped

    def mkdir(path, *args, **kwargs):
        if inside(path):
            if os.path.lexists(path):
                raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), os.fsdecode(path))
            refuse(path)
        return real_mkdir(path, *args, **kwargs)

    real_mkdir = os.mkdir
    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(io, "open", file_open(real_io_open))
    monkeypatch.setattr(builtins, "open", file_open(real_builtin_open))
    monkeypatch.setattr(os, "mkdir", mkdir)
    for name in ("replace", "rename", "unlink", "remove", "rmdir", "utime", "chmod"):
        monkeypatch.setattr(os, name, path_call(getattr(os, name)))
    return lambda folder: folders.append(Path(folder).resolve())


def everything(directory: Path) -> dict[str, tuple[bytes | None, int]]:
    """Every file and folder under ``directory`` (itself too): bytes and modification time."""
    return {
        str(p.relative_to(directory)): (
            p.read_bytes() if p.is_file() else None,
            p.stat().st_mtime_ns,
        )
        for p in sorted([directory, *directory.rglob("*")])
    }


def test_a_finished_study_sweeps_on_a_read_only_copy(tmp_path, capsys, read_only):
    path = tmp_path / "study.toml"
    path.write_text(STUDY_TOML)
    out = tmp_path / "out"
    assert main(["sweep", str(path), "--out", str(out), "--workers", "0"]) == 0
    capsys.readouterr()
    before = everything(out)
    read_only(out)
    assert main(["sweep", str(path), "--out", str(out), "--workers", "2"]) == 0
    text = capsys.readouterr().out
    assert "0 runs finished now, 4 already done" in text and "nothing to do" in text
    assert everything(out) == before  # not a byte, not a lock file, not a timestamp
    # With work to do it cannot go on, and says where in one line.
    changed = tmp_path / "changed.toml"
    changed.write_text(STUDY_TOML.replace("[1.0, 1.4]", "[1.0, 1.4, 1.8]"))
    assert main(["sweep", str(changed), "--out", str(out), "--workers", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"schedsim: error: {out}") and len(err.splitlines()) == 1
    assert "Read-only file system" in err
    assert everything(out) == before


def test_a_full_disk_while_storing_names_the_run_and_the_sweep_resumes(
    tmp_path, capsys, monkeypatch
):
    import errno

    path = tmp_path / "study.toml"
    path.write_text(STUDY_TOML)
    out = tmp_path / "out"
    real = Path.write_bytes

    def full(self, data):
        if out in self.parents:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    assert main(["sweep", str(path), "--out", str(out), "--workers", "0"]) == 2
    err = capsys.readouterr().err
    first = load_study(path).runs()[0]
    assert len(err.splitlines()) == 1
    assert err.startswith(f"schedsim: error: {out / 'runs' / first.id}: No space left on device")
    assert "run the same sweep again to resume" in err
    with pytest.raises(OSError) as raised:
        sweep(load_study(path), out, workers=0)
    assert raised.value.errno == errno.ENOSPC and raised.value.filename == str(
        out / "runs" / first.id
    )
    monkeypatch.setattr(Path, "write_bytes", real)
    assert main(["sweep", str(path), "--out", str(out), "--workers", "0"]) == 0
    assert "4 runs finished now, 0 already done" in capsys.readouterr().out
    assert sorted(p.name for p in (out / "runs").iterdir()) == sorted(
        r.id for r in load_study(path).runs()
    )
