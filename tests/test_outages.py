"""Node outages: failures from a model or a file, maintenance windows, and what they kill."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schedsim.app.registry import REGISTRY
from schedsim.model.outages import (
    FailureModel,
    Outage,
    OutageError,
    Outages,
    parse_duration,
    parse_failure_model,
    read_outages,
)
from schedsim.model.policy import PolicyError, Suspend
from schedsim.model.simulation import ModelSimulation
from schedsim.policies.backfilling import EASY, Conservative
from schedsim.policies.fcfs import FCFS
from schedsim.policies.multiqueue import MultiQueue
from schedsim.workloads.job import Job
from schedsim.workloads.workload import Workload

from invariants import check_invariants, parse_nodes, record_holdings

POLICIES = (FCFS, EASY, Conservative, MultiQueue)
#: The policies that plan around maintenance windows.
PLANNERS = (EASY, Conservative, MultiQueue)


def _job(i: int, submit: float, run: float, size: int, est: float | None = None) -> Job:
    return Job(i, submit, run, size, run if est is None else est)


def _sim(jobs, policy, outages, nodes=4, **kw) -> ModelSimulation:
    return ModelSimulation(Workload.from_jobs(jobs), policy, nodes=nodes, outages=outages, **kw)


def _failure(start: float, end: float, *nodes: int) -> Outages:
    return Outages(listed=(Outage(start, end, nodes, "failure"),))


# -- the outage file and the failure model -------------------------------------------


def test_an_outage_file_gives_failures_and_windows(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    path.write_text(
        "# start end nodes kind\n\n100 200 0-3,7 maintenance  # planned\n5 6.5 2 failure\n"
    )
    assert read_outages(path) == [
        Outage(100.0, 200.0, (0, 1, 2, 3, 7), "maintenance"),
        Outage(5.0, 6.5, (2,), "failure"),
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("1 2 3", "3 fields; an outage is 'start end nodes kind'"),
        ("x 2 3 failure", "field start: 'x' is not seconds >= 0"),
        ("-1 2 3 failure", "field start: '-1' is not seconds >= 0"),
        ("1 inf 3 failure", "field end: 'inf' is not seconds >= 0"),
        ("5 5 3 failure", "field end: 5 is not after start 5"),
        ("1 2 3-a failure", "field nodes: '3-a' is not node ranges"),
        ("1 2 5-2 failure", "field nodes: '5-2' is not node ranges"),
        ("1 2 , failure", "field nodes: ',' is not node ranges (e.g. 0-3,7)"),
        ("1 2 3 broken", "field kind: 'broken'; failure or maintenance"),
    ],
)
def test_a_bad_outage_line_is_one_error_naming_file_line_and_field(
    tmp_path: Path, line: str, message: str
) -> None:
    path = tmp_path / "out.txt"
    path.write_text(f"# header\n{line}\n")
    with pytest.raises(OutageError) as err:
        read_outages(path)
    assert str(err.value).startswith(f"{path}:2: {message}")
    assert "\n" not in str(err.value)


def test_an_outage_on_a_node_the_machine_lacks_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    path.write_text("1 2 0-9 failure\n")
    with pytest.raises(OutageError, match=r"out.txt:1: field nodes: '0-9': the nodes are 0-3"):
        read_outages(path, nodes=4)
    with pytest.raises(OutageError, match="on node 9; the machine's nodes are 0-3"):
        _sim([_job(1, 0, 10, 1)], FCFS(), Outages(listed=tuple(read_outages(path))))


def test_durations_and_failure_models_read_as_written() -> None:
    assert parse_duration("30d", "x") == 30 * 86400
    assert parse_duration("1.5h", "x") == 5400
    assert parse_duration("90", "x") == 90
    with pytest.raises(OutageError, match="'3 days' is not a duration"):
        parse_duration("3 days", "x")
    with pytest.raises(OutageError, match="a duration above 0"):
        parse_duration("0", "x")
    m = parse_failure_model("mtbf=30d,repair=4h,shape=0.7")
    assert m == FailureModel(30 * 86400, 4 * 3600, 0.7, 1.0)
    assert m.describe() == (
        "weibull(shape 0.7) between failures, mean 2,592,000 s; exponential repairs, mean 14,400 s"
    )
    for bad, message in [
        ("mtbf=30d", "repair missing"),
        ("mtbf=30d,repair=1h,scale=2", "'scale=2': write key=value"),
        ("mtbf=30d,repair=1h,shape=x", "shape: 'x' is not a number"),
        ("mtbf=30d,repair=1h,shape=-1", "shape must be above 0"),
    ]:
        with pytest.raises(OutageError, match=message):
            parse_failure_model(bad)


@pytest.mark.parametrize("shape", [1.0, 0.7, 2.0])
def test_a_failure_model_draws_with_its_means(shape: float) -> None:
    model = FailureModel(mtbf=1000.0, repair=50.0, shape=shape, repair_shape=shape)
    draws = model.node_outages(3, 0.0, np.random.default_rng(1))
    outages = [next(draws) for _ in range(20000)]
    repairs = np.array([o.end - o.start for o in outages])
    ups = np.diff([0.0, *[o.start for o in outages]]) - np.r_[0.0, repairs[:-1]]
    # 20,000 draws: the means within 3% (the Weibull's coefficient of variation is < 1.5).
    assert ups.mean() == pytest.approx(1000.0, rel=0.03)
    assert repairs.mean() == pytest.approx(50.0, rel=0.03)
    assert all(o.nodes == (3,) and o.kind == "failure" for o in outages)


def test_a_nodes_failures_come_from_its_own_stream() -> None:
    # Node 2's failures are the same on a machine of 4 nodes and of 8: its own stream.
    model = Outages(FailureModel(mtbf=500.0, repair=20.0))
    sims = [_sim([_job(1, 0, 10, 1)], FCFS(), model, nodes=n, seed=7) for n in (4, 8)]
    streams = [model.stream(0.0, n, s.rng) for n, s in zip((4, 8), sims, strict=True)]
    firsts = [
        [o for _, o in zip(range(200), st_, strict=False) if o.nodes == (2,)] for st_ in streams
    ]
    k = min(len(f) for f in firsts)
    assert k > 5 and firsts[0][:k] == firsts[1][:k]


# -- what an outage does, by hand --------------------------------------------------


def test_a_failure_requeues_the_job_on_its_node_by_hand() -> None:
    # 4 nodes; job 1 (2 cores, 100 s) starts at 0 on nodes 0-1; node 1 fails at 30 for
    # 20 s: job 1 loses its 30 s and starts over at 30 on nodes 0 and 2, ending at 130.
    sim = _sim([_job(1, 0, 100, 2)], FCFS(), _failure(30, 50, 1))
    result = sim.run()
    row = result.jobs.iloc[0]
    assert (row.start, row.end, row.run, row.outcome) == (0, 130, 100, "completed")
    assert (row.failures, row.requeues, row.attempts, row.lost_run, row.lost_work) == (
        1, 1, 2, 30, 30,
    )  # fmt: skip
    assert row.nodes == "0 2" and row.wait == 30
    pieces = result.pieces[["kind", "start", "end", "nodes"]].values.tolist()
    assert pieces == [["lost", 0.0, 30.0, "0-1"], ["run", 30.0, 130.0, "0 2"]]
    out = result.outages
    assert out.values.tolist() == [[30.0, 50.0, "1", 1, "failure"]]
    s = result.summary()
    assert (s["node_failures"], s["failed"], s["outage_kills"]) == (1, 0, 1)
    assert s["lost_core_hours"] == pytest.approx(2 * 30 / 3600)
    assert s["down_core_hours"] == pytest.approx(20 / 3600)
    assert result.meta["outages"] == {
        "model": None, "listed": 1, "maintenance_windows": 0, "on_failure": "requeue",
    }  # fmt: skip


def test_a_failure_loses_the_job_when_told_by_hand() -> None:
    outages = Outages(listed=_failure(30, 50, 1).listed, on_failure="lose")
    result = _sim([_job(1, 0, 100, 2), _job(2, 10, 10, 4)], FCFS(), outages).run()
    a, b = result.jobs.itertuples()
    assert (a.outcome, a.end, a.run, a.failures, a.requeues) == ("failed", 30, 30, 1, 0)
    # Job 2 needs all 4 nodes: it waits for node 1's repair at 50.
    assert (b.start, b.end, b.outcome) == (50, 60, "completed")
    s = result.summary()
    assert (s["failed"], s["outage_kills"]) == (1, 1)
    assert s["lost_core_hours"] == pytest.approx(2 * 30 / 3600)


def test_no_job_starts_on_a_node_while_it_is_out() -> None:
    # Nodes 0-2 out from 0 to 100: the 2-core job runs on node 3 and then waits.
    outages = Outages(listed=(Outage(0, 100, (0, 1, 2), "failure"),))
    result = _sim([_job(1, 0, 10, 1), _job(2, 1, 10, 2)], EASY(), outages).run()
    a, b = result.jobs.itertuples()
    assert (a.start, a.nodes) == (0, "3")
    assert b.start == 100 and b.nodes == "0-1"


def test_overlapping_outages_keep_a_node_out_until_the_last_ends() -> None:
    listed = (Outage(0, 50, (0, 1), "failure"), Outage(20, 80, (1,), "maintenance"))
    # Times from the run's start, the first submit (at 5 here).
    result = _sim([_job(1, 5, 10, 4)], FCFS(), Outages(listed=listed), nodes=4).run()
    assert result.jobs["start"].tolist() == [85]


class _SuspendsJobOne(FCFS):
    """FCFS that suspends job 1 at its first pass at or after 20 s and never resumes it
    (a requeue puts it back in the queue, where FCFS starts it again)."""

    def __init__(self) -> None:
        self.done = False

    def check_outages(self, windows, machine) -> None:
        pass

    def schedule(self, view):
        out = []
        for job in view.running:
            if job.id == 1 and view.now >= 20 and not self.done:
                out.append(Suspend(job))
                self.done = True
        return out + super().schedule(view)


@pytest.mark.parametrize("on_failure", ["requeue", "lose"])
def test_a_suspended_jobs_image_on_a_failing_node_is_lost(on_failure: str) -> None:
    # Job 1 (nodes 0-1) is suspended at 20 (job 2 arrives then: a pass); node 1 fails at
    # 30, holding job 1's memory image: job 1 is killed there, though it held no core.
    outages = Outages(listed=_failure(30, 40, 1).listed, on_failure=on_failure)
    result = _sim([_job(1, 0, 100, 2), _job(2, 20, 5, 1)], _SuspendsJobOne(), outages).run()
    row = result.jobs.set_index("id").loc[1]
    assert (row.suspensions, row.failures) == (1, 1)
    if on_failure == "lose":
        assert (row.outcome, row.end) == ("failed", 30)
    else:
        assert (row.requeues, row.outcome, row.start, row.end) == (1, "completed", 0, 130)


# -- maintenance windows -----------------------------------------------------------


def test_easy_keeps_a_long_job_off_a_window_by_hand() -> None:
    # 4 nodes; a window takes nodes 0-1 from 100 to 200. Job 1 (2 cores, 150 s) would
    # run into it: it starts at 0 on nodes 2-3. Job 2 (2 cores, 50 s) ends before the
    # window: it starts at 0 on nodes 0-1. Job 3 (4 cores, 10 s) needs the whole
    # machine: not before the window closes at 200 (job 1 ends at 150).
    window = Outages(listed=(Outage(100, 200, (0, 1), "maintenance"),))
    jobs = [_job(1, 0, 150, 2), _job(2, 0, 50, 2), _job(3, 0, 10, 4)]
    for policy in PLANNERS:
        result = _sim(jobs, policy(), window).run()
        rows = {r.id: r for r in result.jobs.itertuples()}
        assert (rows[1].start, rows[1].nodes) == (0, "2-3"), policy
        assert (rows[2].start, rows[2].nodes) == (0, "0-1"), policy
        assert rows[3].start == 200, policy
        assert result.summary()["outage_kills"] == 0


def test_fcfs_does_not_plan_around_a_window() -> None:
    # FCFS starts job 1 (4 cores, 150 s) at 0: the window kills it at 100.
    window = Outages(listed=(Outage(100, 200, (0, 1), "maintenance"),))
    result = _sim([_job(1, 0, 150, 4)], FCFS(), window).run()
    row = result.jobs.iloc[0]
    assert (row.failures, row.start, row.end) == (1, 0, 350)


def test_windows_are_known_to_policies_from_the_start() -> None:
    # Job 2 runs over the window's end: the run still has passes when it ends.
    window = Outage(100, 200, (0, 1), "maintenance")
    sim = _sim([_job(1, 0, 10, 1), _job(2, 150, 100, 1)], FCFS(), Outages(listed=(window,)))
    first = sim.step()
    assert first is not None and first.view.outages == (window,)
    seen = []
    while (p := sim.step()) is not None:
        seen.append((p.now, p.view.outages, p.view.went_down, p.view.came_up))
    # A pass when the window opens (its nodes change) shows it begun; one when it
    # closes shows it ended, and no longer among the outages known.
    assert [(now, went) for now, _, went, _ in seen if went] == [(100, (window,))]
    assert [(now, came, known) for now, known, _, came in seen if came] == [(200, (window,), ())]


# -- invariants on random workloads and outages --------------------------------------


@st.composite
def _cases(draw: st.DrawFn) -> tuple[list[Job], tuple[Outage, ...], int]:
    nodes = draw(st.integers(2, 6))
    jobs = []
    for i in range(1, draw(st.integers(1, 14)) + 1):
        run = draw(st.integers(0, 60))
        jobs.append(_job(i, draw(st.integers(0, 100)), run, draw(st.integers(1, nodes)),
                         run + draw(st.integers(0, 30))))  # fmt: skip
    return jobs, draw(outages_on(nodes)), nodes


@st.composite
def outages_on(draw: st.DrawFn, nodes: int) -> tuple[Outage, ...]:
    """Up to four failures or maintenance windows over [0, 210) on ranges of ``nodes``."""
    outages = []
    for _ in range(draw(st.integers(0, 4))):
        start = draw(st.integers(0, 150))
        lo = draw(st.integers(0, nodes - 1))
        hi = draw(st.integers(lo, nodes - 1))
        kind = draw(st.sampled_from(["failure", "maintenance"]))
        outages.append(
            Outage(start, start + draw(st.integers(1, 60)), tuple(range(lo, hi + 1)), kind)
        )
    return tuple(outages)


def _check_off_outages(result, log) -> None:
    """No job holds a core on a node during one of its outages."""
    for o in result.outages.itertuples():
        out = set(parse_nodes(o.nodes))
        for h in log:
            if out & set(h.nodes):
                assert h.end <= o.start or h.start >= o.end, (
                    f"job {h.job} held nodes {h.nodes} over [{h.start}, {h.end}) during the "
                    f"outage of {o.nodes} over [{o.start}, {o.end})"
                )


@pytest.mark.parametrize("on_failure", ["requeue", "lose"])
@pytest.mark.parametrize("policy", POLICIES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_cases())
def test_random_outages_keep_the_invariants(policy, on_failure, case) -> None:
    jobs, outages, nodes = case
    w = Workload.from_jobs(jobs)
    sim = ModelSimulation(
        w, policy(), nodes=nodes, outages=Outages(listed=outages, on_failure=on_failure)
    )
    log = record_holdings(sim)
    result = sim.run()
    check_invariants(result, w, nodes)
    _check_off_outages(result, log)
    fails = result.jobs["failures"].to_numpy()
    if on_failure == "lose":
        assert ((result.jobs["outcome"] == "failed").to_numpy() == (fails > 0)).all()
        assert (fails <= 1).all()
    else:
        assert (result.jobs["requeues"].to_numpy() == fails).all()


@pytest.mark.parametrize("policy", PLANNERS)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_cases())
def test_planners_never_run_a_job_into_a_window(policy, case) -> None:
    # Exact estimates (and jobs killed at them): a planner that keeps jobs off the
    # windows they would reach loses none to a window. One window at a time keeps the
    # count of cores exact (`schedsim.model.scheduler.Scheduler._place_by_windows`).
    jobs, outages, nodes = case
    jobs = [_job(j.id, j.submit, j.run_time, j.size) for j in jobs]
    windows = tuple(o for o in outages if o.kind == "maintenance")[:1]
    result = _sim(jobs, policy(), Outages(listed=windows), nodes=nodes).run()
    assert result.jobs["failures"].sum() == 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_cases())
def test_conservative_keeps_its_promises_around_windows(case) -> None:
    # With exact estimates and windows only (no failure), a job never starts later than
    # the first reservation conservative gave it.
    jobs, outages, nodes = case
    jobs = [_job(j.id, j.submit, j.run_time, j.size) for j in jobs]
    windows = tuple(o for o in outages if o.kind == "maintenance")[:1]
    policy = Conservative()
    first: dict[int, float] = {}
    policy.on_reserve = lambda job, start: first.setdefault(job.id, start)
    result = _sim(jobs, policy, Outages(listed=windows), nodes=nodes).run()
    for row in result.jobs.itertuples():
        assert row.start <= first[row.id] + 1e-9, (row.id, row.start, first[row.id])


def test_the_same_seed_gives_the_same_failures_bit_for_bit() -> None:
    from schedsim.workloads.catalog import load
    from schedsim.workloads.transforms import first

    w = first(load("kth"), 800)
    model = Outages(FailureModel(mtbf=60 * 86400, repair=3600))
    runs = [ModelSimulation(w, EASY(), outages=model, seed=s).run() for s in (1, 1, 2)]
    pd.testing.assert_frame_equal(runs[0].jobs, runs[1].jobs)
    pd.testing.assert_frame_equal(runs[0].outages, runs[1].outages)
    assert not runs[0].outages.equals(runs[2].outages)
    assert runs[0].summary()["node_failures"] > 0


def test_a_run_without_outages_has_no_outage_columns() -> None:
    result = _sim([_job(1, 0, 10, 1)], FCFS(), None).run()
    assert "failures" not in result.jobs and result.outages is None
    assert "node_failures" not in result.summary() and "outages" not in result.meta


def test_the_other_policies_refuse_outages_on_one_line() -> None:
    ran = set()
    for name, cls in sorted(REGISTRY.items()):
        try:
            policy = cls()
        except TypeError:
            continue
        try:
            _sim([_job(1, 0, 10, 1)], policy, _failure(5, 6, 0))
        except PolicyError as exc:
            assert "\n" not in str(exc) and "does not take node outages" in str(exc)
            continue
        ran.add(name)
    assert ran == {"fcfs", "easy", "conservative", "multiqueue", "singlequeue"}


@pytest.mark.parametrize("policy", PLANNERS)
def test_planners_keep_off_windows_on_a_machine_with_memory(policy) -> None:
    # Two groups of 2 one-core nodes, 8 GB and 64 GB; a window takes the big nodes
    # (2-3) from 100 to 200. Job 1 asks 16 GB a core: only the big nodes hold it, and
    # its 150 s would reach the window, so it waits until the window is over. Job 2
    # (1 core, 150 s, no memory) runs on a small node at once.
    from schedsim.model.machine import Machine, NodeGroup

    gb = 1024 * 1024
    m = Machine((NodeGroup("small", 2, 1, 8 * gb), NodeGroup("big", 2, 1, 64 * gb)))
    big = Job(1, 0, 150, 1, 150, swf=(1, 0, -1, 150, 1, -1, -1, 1, 150, 16 * gb) + (-1,) * 8)
    jobs = Workload.from_jobs([big, _job(2, 0, 150, 1)])
    window = Outages(listed=(Outage(100, 200, (2, 3), "maintenance"),))
    result = ModelSimulation(jobs, policy(), machine=m, outages=window).run()
    rows = {r.id: r for r in result.jobs.itertuples()}
    assert (rows[1].start, rows[1].nodes) == (200, "2")
    assert (rows[2].start, rows[2].nodes) == (0, "0")
    assert result.summary()["outage_kills"] == 0


def test_the_last_repair_after_the_last_job_does_not_move_the_end() -> None:
    result = _sim([_job(1, 0, 10, 1)], FCFS(), _failure(5, 1000, 3)).run()
    assert result.meta["end"] == 10 and math.isclose(result.summary()["makespan"], 10)


# -- the command line, the files, studies ------------------------------------------------


def jobs_start(out: Path) -> float:
    """The run's start (its first submit), from its summary."""
    return json.loads((out / "summary.json").read_text())["meta"]["start"]


def test_the_command_line_writes_the_outages_and_the_files_read_them_right(
    tmp_path: Path, capsys
) -> None:
    from schedsim.app.cli import main

    listed = tmp_path / "outages.txt"
    listed.write_text("3600 7200 0-49 maintenance\n10000 20000 7 failure\n")
    out = tmp_path / "run"
    code = main(["run", "--first", "400", "--policy", "easy", "--outages", str(listed),
                 "--failures", "mtbf=20d,repair=2h", "--on-failure", "lose",
                 "--out", str(out), "--batsim"])  # fmt: skip
    text = capsys.readouterr().out
    assert code == 0
    assert "outages: exponential between failures" in text and "are lost" in text
    import pyarrow.parquet as pq

    # Read with pyarrow itself, as another tool would, not through pandas.
    table = pq.read_table(out / "outages.parquet").to_pydict()
    assert list(table) == ["start", "end", "nodes", "cores", "kind"]
    assert table["kind"].count("maintenance") == 1
    window = table["kind"].index("maintenance")
    assert table["start"][window] == 3600 + jobs_start(out) and table["nodes"][window] == "0-49"
    jobs = pd.read_parquet(out / "jobs.parquet")
    failed = set(jobs.loc[jobs["outcome"] == "failed", "id"])
    assert failed and jobs["failures"].sum() == len(failed)
    # schedule.swf read by splitting its lines: a lost job's status is SWF's "failed" (0).
    status = {}
    for line in (out / "schedule.swf").read_text().splitlines():
        if line.strip() and not line.startswith(";"):
            fields = line.split()
            status[int(fields[0])] = int(fields[10])
    assert all(status[j] == 0 for j in failed)
    batsim = pd.read_csv(out / "batsim_jobs.csv")
    last = batsim.drop_duplicates("metadata", keep="last")
    ended = last[last["metadata"].str.contains("ended=end")]
    lost = ended[ended["metadata"].str.extract(r"job=(\d+)")[0].astype(int).isin(failed)]
    assert len(lost) == len(failed) and (lost["final_state"] == "COMPLETED_KILLED").all()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["summary"]["failed"] == len(failed)
    assert summary["meta"]["config"]["outages"] == str(listed)
    # A mistake in the file is one line naming it.
    listed.write_text("3600 7200 0-49 maint\n")
    code = main(["run", "--first", "10", "--outages", str(listed), "--out", str(tmp_path / "x")])
    err = capsys.readouterr().err
    assert code == 2 and err.strip().endswith(
        f"{listed}:1: field kind: 'maint'; failure or maintenance"
    )


def test_a_study_names_outages_and_its_run_id_hashes_the_file(tmp_path: Path) -> None:
    from schedsim.app.study import RunConfig, StudyError

    listed = tmp_path / "outages.txt"
    listed.write_text("3600 7200 0-9 maintenance\n")
    base = RunConfig(first=50)
    with_file = RunConfig(first=50, outages=str(listed))
    model = RunConfig(first=50, failures="mtbf=20d,repair=2h", on_failure="lose")
    assert len({base.run_id(), with_file.run_id(), model.run_id()}) == 3
    copy = tmp_path / "copy.txt"
    copy.write_text("3600 7200 0-9 maintenance\n")
    assert RunConfig(first=50, outages=str(copy)).run_id() == with_file.run_id()
    result = model.simulation().run()
    assert result.meta["outages"]["on_failure"] == "lose"
    with pytest.raises(StudyError, match=r"failures.*repair missing"):
        RunConfig(first=50, failures="mtbf=20d")
    with pytest.raises(StudyError, match=r"on_failure.*needs failures or outages"):
        RunConfig(first=50, on_failure="lose")
    with pytest.raises(StudyError, match=r"on_failure.*requeue or lose"):
        RunConfig(first=50, failures="mtbf=20d,repair=1h", on_failure="drop")


def test_a_node_out_has_no_memory_free_in_the_view() -> None:
    # The view's free memory is a snapshot made again only when it changed: an outage
    # changes it too.
    from schedsim.model.machine import Machine, NodeGroup

    m = Machine((NodeGroup("g", 2, 1, 1024.0**2),))
    w = Workload.from_jobs([_job(1, 0, 10, 1), _job(2, 20, 10, 1)])
    sim = ModelSimulation(w, FCFS(), machine=m, outages=_failure(5, 15, 0))
    seen = {}
    while (p := sim.step()) is not None:
        seen[p.now] = p.view.free_memory.tolist()
    gb = 1024.0**2
    assert seen[5] == [0.0, gb]  # job 1, killed on node 0, runs on node 1 (no memory asked)
    assert seen[15] == [gb, gb]


def test_a_gantt_chart_draws_the_outages_over_their_nodes() -> None:
    # Node 1 fails over [30, 50) and node 3 has a window over [60, 80), while a job runs
    # on node 0: a hatched box over each outage's rows, behind the pieces, and each
    # kind in the legend.
    from matplotlib.collections import PolyCollection

    from schedsim.app.gantt import OUTAGE_STYLES, gantt

    listed = (*_failure(30, 50, 1).listed, Outage(60, 80, (3,), "maintenance"))
    result = _sim([_job(1, 0, 100, 1)], FCFS(), Outages(listed=listed)).run()
    ax = gantt(result, start=0, end=200).axes[0]
    hatch = OUTAGE_STYLES["failure"]["hatch"]
    drawn = set()
    for c in ax.collections:
        if isinstance(c, PolyCollection) and c.get_hatch() == hatch:
            for path in c.get_paths():
                low, high = path.vertices.min(axis=0), path.vertices.max(axis=0)
                drawn.add((c.get_zorder(), *map(float, low), *map(float, high)))
    # The axis is in seconds here (a 200 s window); nodes are rows 0-3, one each.
    assert drawn == {(1.8, 30.0, 1.0, 50.0, 2.0), (1.8, 60.0, 3.0, 80.0, 4.0)}
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "node failure" in labels and "maintenance" in labels
