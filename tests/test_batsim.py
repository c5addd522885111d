"""The jobs in Batsim's jobs CSV layout: its columns, procset resources, values, attempts."""

from __future__ import annotations

import pandas as pd
from procset import ProcSet

from schedsim import Simulation
from schedsim.app.batsim import COLUMNS, batsim_jobs
from schedsim.app.cli import main
from schedsim.workloads.catalog import load
from schedsim.workloads.job import Job
from schedsim.workloads.transforms import first
from schedsim.workloads.workload import Workload

from test_limits import Script, speculative

#: The columns evalys's JobSet reads (evalys.jobset.JobSet.columns), all present.
EVALYS = (
    "job_id", "workload_name", "submission_time", "requested_number_of_resources",
    "requested_time", "success", "starting_time", "execution_time", "finish_time",
    "waiting_time", "turnaround_time", "stretch", "allocated_resources",
)  # fmt: skip


def test_the_layout_and_the_values(tmp_path) -> None:
    kth = first(load("kth"), 300)
    out = tmp_path / "run"
    assert main(["run", "--first", "300", "--policy", "ss", "--batsim", "--out", str(out)]) == 0
    table = pd.read_csv(out / "batsim_jobs.csv", dtype={"job_id": str, "allocated_resources": str})
    assert tuple(table.columns) == COLUMNS and set(EVALYS) <= set(table.columns)
    result = Simulation(kth, "ss").run()
    jobs = result.jobs.set_index("id")
    origin = result.meta["start"]
    # One row per holding interval: a suspended job is killed and resubmitted (ID#k).
    table["job"] = table["metadata"].str.extract(r"^job=(\d+) ")[0].astype(int)
    assert sorted(set(table["job"])) == sorted(jobs.index)
    assert len(table) > len(jobs)
    for jid, rows in table.groupby("job", sort=False):
        job = jobs.loc[jid]
        assert rows["job_id"].tolist() == [str(jid)] + [f"{jid}#{k}" for k in range(1, len(rows))]
        assert rows["submission_time"].iloc[0] == job["submit"] - origin
        assert rows["starting_time"].iloc[0] == job["start"] - origin
        assert rows["finish_time"].iloc[-1] == job["end"] - origin
        # Resubmitted when the previous interval ended.
        assert (rows["submission_time"].iloc[1:].to_numpy() == rows["finish_time"].iloc[:-1]).all()
        for row in rows.itertuples(index=False):
            procs = ProcSet.from_str(row.allocated_resources)
            assert str(procs) == row.allocated_resources == job["nodes"]
            assert len(procs) == row.requested_number_of_resources == job["size"]
            assert row.waiting_time == row.starting_time - row.submission_time
            assert row.execution_time == row.finish_time - row.starting_time
            assert row.turnaround_time == row.finish_time - row.submission_time
        # Under SS (no overhead, no requeue) the rows add up to the job's run and wait.
        assert rows["execution_time"].sum() == job["run"]
        assert rows["waiting_time"].sum() == job["wait"]
        states = rows["final_state"].tolist()
        assert states[:-1] == ["COMPLETED_KILLED"] * (len(rows) - 1)  # suspended
        assert rows["metadata"].tolist()[:-1] == [f"job={jid} ended=suspension"] * (len(rows) - 1)
        assert rows["success"].iloc[-1] == (job["outcome"] == "completed")
        assert (rows["success"].iloc[:-1] == 0).all()
    assert set(table["final_state"]) == {
        "COMPLETED_SUCCESSFULLY", "COMPLETED_WALLTIME_REACHED", "COMPLETED_KILLED"
    }  # fmt: skip


def test_a_requeued_job_is_resubmitted_as_batsim_does() -> None:
    jobs = [Job(1, 0.0, 500.0, 1, 5000.0), Job(2, 0.0, 100.0, 2, 100.0)]
    result = Simulation(Workload.from_jobs(jobs, max_procs=2), Script(speculative)).run()
    table = batsim_jobs(result).set_index("job_id")
    assert list(table.index) == ["1", "1#1", "2"]
    lost, again = table.loc["1"], table.loc["1#1"]
    assert (lost["metadata"], again["metadata"]) == ("job=1 ended=requeue", "job=1 ended=end")
    assert (lost["starting_time"], lost["finish_time"], lost["success"]) == (0.0, 180.0, 0)
    assert lost["final_state"] == "COMPLETED_WALLTIME_REACHED"
    assert (again["submission_time"], again["starting_time"], again["finish_time"]) == (
        180.0, 180.0, 680.0,
    )  # fmt: skip
    assert again["success"] == 1


def test_cores_are_the_resources_on_multicore_nodes() -> None:
    jobs = [Job(1, 0.0, 100.0, 3, 100.0), Job(2, 0.0, 100.0, 2, 100.0)]
    w = Workload.from_jobs(jobs, max_procs=8)
    result = Simulation(w, "fcfs", nodes=2, cores_per_node=4).run()
    table = batsim_jobs(result).set_index("job_id")
    # First fit packs: job 1 takes cores 0-2 of node 0, job 2 core 3 of node 0 and 4 (node 1).
    assert table.loc["1", "allocated_resources"] == "0-2"
    assert table.loc["2", "allocated_resources"] == "3-4"
    assert result.jobs.set_index("id").loc[2, "nodes"] == "0-1"
