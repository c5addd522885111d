"""Large-memory jobs drawn for a log that asks for none (`schedsim.workloads.large_memory`),
the machine's side (`Machine.large_memory`) and the run keys ``large_memory`` and
``large_memory_partition``."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from schedsim.app.study import RunConfig, StudyError
from schedsim.model.machine import MachineError, job_memory, read_machine
from schedsim.workloads import catalog
from schedsim.workloads.convert import convert
from schedsim.workloads.large_memory import with_large_memory
from schedsim.workloads.swf import read_swf
from schedsim.workloads.transforms import first

GB = 1024.0**2  # KB

MACHINE = """
[[group]]
name = "thin"
nodes = 20
cores = 4
memory = "8G"

[[group]]
name = "fat"
nodes = 5
cores = 4
memory = "64G"

[[partition]]
name = "batch"
number = 1
groups = ["thin", "fat"]
default = true

[[partition]]
name = "bigmem"
number = 2
groups = ["fat"]

[[partition]]
name = "thin"
groups = ["thin"]
"""


@pytest.fixture
def machine_file(tmp_path: Path) -> Path:
    path = tmp_path / "m.toml"
    path.write_text(MACHINE)
    return path


@pytest.fixture(scope="module")
def kth() -> object:
    return first(catalog.load("kth"), 2000)


def test_the_machine_says_the_range_the_number_and_the_width(machine_file: Path) -> None:
    m = read_machine(machine_file)
    (low, high), partition, most = m.large_memory("bigmem")
    assert (low, high) == (2 * GB, 16 * GB)  # thin: 8 GB / 4 cores; fat: 64 GB / 4
    assert partition == 2
    assert most(16 * GB) == 20  # 5 fat nodes of 4 cores, each core 16 GB
    assert most(32 * GB) == 10  # two cores a node
    with pytest.raises(MachineError, match=r"no partition 'gpu' .*partitions: batch, bigmem, thin"):
        m.large_memory("gpu")
    # A partition of every node: from the least a core has to the most.
    assert m.large_memory("batch")[:2] == ((2 * GB, 16 * GB), 1)
    # The thin nodes give a core less than the others: no job asks more there.
    with pytest.raises(MachineError, match="at most 2 GB, no more than the other nodes' 16 GB"):
        m.large_memory("thin")


def test_a_share_of_the_jobs_asks_large_memory_in_the_partition(
    machine_file: Path, kth: object
) -> None:
    (low, high), partition, most = read_machine(machine_file).large_memory("bigmem")
    w = with_large_memory(kth, 0.2, (low, high), partition, 7, most)  # type: ignore[arg-type]
    asked = [(a, b) for a, b in zip(kth, w, strict=True) if b.partition == 2]  # type: ignore[call-overload]
    share = len(asked) / len(w)
    assert 0.15 < share < 0.25
    for before, after in asked:
        kb = job_memory(after)
        assert low < kb <= high and kb == int(kb)
        assert after.size <= most(kb)
        # Nothing else changed.
        assert (after.submit, after.run_time, after.size, after.estimate) == (
            before.submit, before.run_time, before.size, before.estimate)  # fmt: skip
        assert after.swf is not None and after.swf[15] == 2
    untouched = [b for a, b in zip(kth, w, strict=True) if b.partition != 2]  # type: ignore[call-overload]
    assert all(job_memory(j) == 0 for j in untouched)
    step = w.cleaning[-1]
    assert step.name == "large memory asked" and step.count == len(asked)
    assert "2-16 GB per core in partition 2" in step.detail
    # The same seed, the same jobs; another seed, others; no share, the workload itself.
    again = with_large_memory(kth, 0.2, (low, high), partition, 7, most)  # type: ignore[arg-type]
    assert [j.swf for j in again] == [j.swf for j in w]
    other = with_large_memory(kth, 0.2, (low, high), partition, 8, most)  # type: ignore[arg-type]
    assert [j.swf for j in other] != [j.swf for j in w]
    assert with_large_memory(kth, 0.0, (low, high), partition, 7, most) is kth  # type: ignore[arg-type]


def test_jobs_too_wide_for_the_partition_are_left_and_counted(kth: object) -> None:
    w = with_large_memory(kth, 1.0, (GB, 2 * GB), "bigmem", 1, lambda kb: 8)  # type: ignore[arg-type]
    moved = [j for j in w if j.attrs.get("partition_name") == "bigmem"]  # type: ignore[attr-defined]
    wide = sum(j.size > 8 for j in kth)  # type: ignore[attr-defined]
    assert len(moved) == len(w) - wide and all(j.size <= 8 for j in moved)
    assert f"{wide} more drawn but wider than the partition holds" in w.cleaning[-1].detail


def test_a_models_jobs_get_the_swf_fields_write_swf_gives_them() -> None:
    # Jobs made by a model have no SWF line: a chosen one gets the 18 fields the writer
    # would give it (its own values, -1 elsewhere), its memory and its partition.
    from schedsim.workloads.lublin import generate

    w = generate(300, 64, np.random.default_rng(4))
    assert all(j.swf is None for j in w)
    out = with_large_memory(w, 0.5, (GB, 4 * GB), 2, 9)
    chosen = [j for j in out if j.partition == 2]
    assert chosen
    for j in chosen:
        assert j.swf is not None and len(j.swf) == 18
        assert (j.swf[0], j.swf[1], j.swf[2], j.swf[3]) == (j.id, j.submit, -1, j.run_time)
        assert (j.swf[4], j.swf[7], j.swf[8]) == (j.size, j.size, j.estimate)
        assert GB < j.swf[9] <= 4 * GB and j.swf[15] == 2 and j.swf[10] == -1


def test_the_requests_survive_an_swf_round_trip(machine_file: Path, kth: object,
                                                tmp_path: Path) -> None:  # fmt: skip
    (low, high), partition, most = read_machine(machine_file).large_memory("bigmem")
    w = with_large_memory(kth, 0.3, (low, high), partition, 3, most)  # type: ignore[arg-type]
    path = tmp_path / "w.swf"
    convert(w, path)
    back = read_swf(path)
    assert [job_memory(j) for j in back] == [job_memory(j) for j in w]
    assert [j.partition for j in back] == [j.partition for j in w]
    # And with an independent reader: field 10 and field 16 of each job line.
    rows = [line.split() for line in path.read_text().splitlines() if not line.startswith(";")]
    fields = pd.DataFrame(
        {"memory": [float(r[9]) for r in rows], "partition": [int(r[15]) for r in rows]}
    )
    big = fields[fields["partition"] == 2]
    assert len(big) == sum(j.partition == 2 for j in w)
    assert ((big["memory"] > low) & (big["memory"] <= high)).all()


def test_a_run_sends_the_large_memory_jobs_to_the_fat_nodes(machine_file: Path) -> None:
    config = RunConfig(workload="kth", first=1500, policy="easy", machine=str(machine_file),
                       large_memory=0.1, large_memory_partition="bigmem", seed=5)  # fmt: skip
    result = config.simulation().run()
    jobs = result.jobs
    big = jobs[jobs["partition"] == 2]
    assert len(big) > 50
    fat = set(range(20, 25))
    from procset import ProcSet

    for nodes in big["nodes"]:
        assert set(ProcSet.from_str(nodes)) <= fat
    # The job table says what each asked per core (MB), NaN for the jobs that ask none.
    asked = jobs["memory_per_core_mb"]
    assert asked[jobs["partition"] == 2].between(2 * 1024, 16 * 1024, inclusive="right").all()
    assert asked[jobs["partition"] != 2].isna().all()
    # The run id says the share and the partition.
    assert config.run_id() != config.replace(large_memory=0.2).run_id()
    assert config.run_id() != RunConfig(workload="kth", first=1500, policy="easy",
                                        machine=str(machine_file), seed=5).run_id()  # fmt: skip


@pytest.mark.parametrize(
    ("keys", "says"),
    [
        ({"large_memory": 0.1}, "large_memory: needs a machine with memory"),
        ({"large_memory_partition": "bigmem"}, "applies only with large_memory = SHARE"),
        ({"large_memory": 1.5, "large_memory_partition": "bigmem"}, "a share in \\[0, 1\\]"),
        ({"large_memory": 0.1, "large_memory_partition": "gpu"}, "no partition 'gpu'"),
        ({"large_memory": 0.1, "large_memory_partition": "thin"}, "no more than the other"),
    ],
)
def test_bad_keys_are_one_line_naming_the_key(machine_file: Path, keys: dict, says: str) -> None:
    with pytest.raises(StudyError, match=says) as caught:
        RunConfig(workload="kth", machine=str(machine_file), **keys)
    assert "\n" not in str(caught.value)


def test_the_command_line_takes_them(machine_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "schedsim",
            "run",
            "--workload",
            "kth",
            "--first",
            "800",
            "--machine",
            str(machine_file),
            "--large-memory",
            "0.1",
            "--large-memory-partition",
            "bigmem",
            "--out",
            str(out),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "large memory asked" in done.stdout + done.stderr
    rows = [line.split() for line in (out / "schedule.swf").read_text().splitlines()
            if line.strip() and not line.startswith(";")]  # fmt: skip
    assert any(r[15] == "2" and float(r[9]) > 2 * GB for r in rows)
    assert np.all([float(r[9]) <= 16 * GB for r in rows])
    # jobs.parquet read with pyarrow itself: the requests in MB, null for the others.
    import pyarrow.parquet as pq

    table = pq.read_table(out / "jobs.parquet", columns=["partition", "memory_per_core_mb"])
    rows_by_part = table.to_pylist()
    big = [r["memory_per_core_mb"] for r in rows_by_part if r["partition"] == 2]
    assert big and all(2 * 1024 < mb <= 16 * 1024 for mb in big)
    others = [r["memory_per_core_mb"] for r in rows_by_part if r["partition"] != 2]
    assert all(mb is None or math.isnan(mb) for mb in others)
