"""A machine of node groups, memory and partitions (`schedsim.model.machine`), and the
policies that run on it (FCFS, EASY, conservative: more of it in
test_conservative_nodes.py) or refuse it (the others)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schedsim.model.cluster import Allocation, AllocationError, Cluster
from schedsim.model.machine import (
    Machine,
    MachineError,
    NodeGroup,
    Partition,
    job_memory,
    read_machine,
)
from schedsim.model.policy import REGISTRY, PolicyError
from schedsim.model.simulation import ModelSimulation
from schedsim.policies.backfilling import EASY, Conservative
from schedsim.policies.fcfs import FCFS
from schedsim.workloads.job import Job
from schedsim.workloads.transforms import exact_estimates
from schedsim.workloads.workload import Workload

from invariants import check_invariants, check_machine, record_holdings

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

GB = 1024.0**2  # KB

MACHINE = """
[[group]]
name = "thin"
nodes = 6
cores = 4
memory = "16G"

[[group]]
name = "fat"
nodes = 2
cores = 8
memory = "256G"

[[partition]]
name = "batch"
number = 1
groups = ["thin"]
default = true

[[partition]]
name = "bigmem"
number = 2
nodes = "6-7"
"""


def _machine(tmp_path: Path, text: str = MACHINE) -> Machine:
    path = tmp_path / "m.toml"
    path.write_text(text)
    return read_machine(path)


def _job(i: int, submit: float, run: float, size: int, *, est: float | None = None,
         mem_gb: float = 0.0, partition: int = -1, name: str | None = None) -> Job:  # fmt: skip
    est = run if est is None else est
    swf = (float(i), submit, -1.0, run, float(size), -1.0, -1.0, float(size), est,
           mem_gb * GB if mem_gb else -1.0, 1.0, -1.0, -1.0, -1.0, -1.0, float(partition),
           -1.0, -1.0)  # fmt: skip
    attrs = {"partition_name": name} if name else {}
    return Job(i, submit, run, size, est, partition=partition, swf=swf, attrs=attrs)


def test_a_machine_file_gives_groups_partitions_capacity_and_memory(tmp_path: Path) -> None:
    m = _machine(tmp_path)
    assert [g.name for g in m.groups] == ["thin", "fat"]
    assert m.nodes == 8 and m.total_cores == 40 and m.max_cores_per_node == 8
    assert m.capacity.tolist() == [4] * 6 + [8] * 2
    assert m.memory is not None and m.memory.tolist() == [16 * GB] * 6 + [256 * GB] * 2
    assert [(p.name, p.nodes, p.number, p.default) for p in m.partitions] == [
        ("batch", (0, 1, 2, 3, 4, 5), 1, True),
        ("bigmem", (6, 7), 2, False),
    ]
    assert not m.simple and Machine.uniform(8, 4).simple
    assert m.describe() == (
        "6 x 4 cores, 16 GB 'thin' + 2 x 8 cores, 256 GB 'fat'; partitions batch (default), bigmem"
    )


def test_a_job_finds_its_partition_by_name_number_or_default(tmp_path: Path) -> None:
    m = _machine(tmp_path)
    assert m.nodes_for(_job(1, 0, 1, 1, partition=2)).tolist() == [6, 7]
    assert m.nodes_for(_job(1, 0, 1, 1, name="bigmem")).tolist() == [6, 7]
    assert m.nodes_for(_job(1, 0, 1, 1)).tolist() == list(range(6))  # the default
    with pytest.raises(MachineError, match=r"job 1 names partition 'gpu', which .* does not"):
        m.nodes_for(_job(1, 0, 1, 1, name="gpu"))
    with pytest.raises(MachineError, match=r"partition number 5 .* \(numbers 1, 2\)"):
        m.nodes_for(_job(1, 0, 1, 1, partition=5))
    # Memory bounds the cores a job can hold: 12 GB a core fits one per thin node.
    assert m.most_cores(_job(1, 0, 1, 1, mem_gb=12)) == 6
    assert m.most_cores(_job(1, 0, 1, 1, mem_gb=12, partition=2)) == 16
    assert job_memory(_job(1, 0, 1, 1, mem_gb=2)) == 2 * GB


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "no [[group]]"),
        ("[[group]]\nnodes = 0\n", "[[group]] 1: key nodes: 0, must be at least 1"),
        ("[[group]]\nname = 'a'\nnodes = 2\ncores = 1.5\n", "1 ('a'): key cores: 1.5 is not"),
        ("[[group]]\nname = 'a'\ncores = 2\n", "[[group]] 1 ('a'): key nodes: missing"),
        ("[[group]]\nnodes = 2\nmemory = 'lots'\n", "key memory: 'lots' is not a memory size"),
        ("[[group]]\nnodes = 2\ngpus = 4\n", "[[group]] 1: unknown key 'gpus'"),
        ("[[group]]\nname='a'\nnodes=1\n[[group]]\nname='a'\nnodes=1\n", "names an earlier group"),
        ("nodes = 4\n", "unknown key 'nodes'"),
        ("[[group]]\nnodes = 2\n[[partition]]\nname = 'p'\n", "give its groups"),
        ("[[group]]\nnodes = 2\n[[partition]]\nname='p'\ngroups=['x']\n", "no group 'x'"),
        ("[[group]]\nnodes = 2\n[[partition]]\nname='p'\nnodes='1-4'\n", "the nodes are 0-1"),
        ("[[group]]\nnodes = 2\n[[partition]]\ngroups=['group1']\n", "key name: missing"),
        ("[[group]]\nnodes=2\n[[partition]]\nname='p'\nnodes='0'\ndefault=true\n"
         "[[partition]]\nname='q'\nnodes='1'\ndefault=true\n", "earlier partition is the default"),
        ("[[group]\nnodes = 2\n", "not TOML"),
    ],
)  # fmt: skip
def test_a_bad_machine_file_is_one_line_naming_table_and_key(
    tmp_path: Path, text: str, says: str
) -> None:
    with pytest.raises(MachineError) as info:
        _machine(tmp_path, text)
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(tmp_path / "m.toml"))
    assert says in message, message


def test_cluster_places_on_partition_nodes_within_memory(tmp_path: Path) -> None:
    m = _machine(tmp_path)
    c = Cluster(m.nodes, m.max_cores_per_node, capacity=m.capacity, memory=m.memory)
    assert c.total_cores == 40 and c.free_cores == 40
    # 6 cores of 12 GB on the bigmem nodes: memory, not cores, limits each node to 21.
    alloc = c.place(6, np.array([6, 7]), 12 * GB)
    assert alloc is not None and alloc.nodes.tolist() == [6] and alloc.cores.tolist() == [6]
    c.allocate(alloc, 1, memory=12 * GB)
    assert c.free_memory is not None and c.free_memory[6] == 256 * GB - 72 * GB
    # On the thin nodes, 12 GB a core: one core per node.
    alloc = c.place(3, np.arange(6), 12 * GB)
    assert alloc is not None and alloc.cores.tolist() == [1, 1, 1]
    with pytest.raises(AllocationError, match="memory not free"):
        c.allocate(Allocation.on([0], 2), 2, memory=12 * GB)
    assert c.free_cores == 34  # nothing taken by the refusal
    c.release(c.holders[1], 1)
    assert c.free_memory[6] == 256 * GB
    # A narrower node's missing cores are never taken.
    assert not c.valid(Allocation.on([0], 5)) and c.valid(Allocation.on([6], 8))


def _workload(seed: int, n: int = 60) -> Workload:
    rng = np.random.default_rng(seed)
    jobs = []
    for i in range(1, n + 1):
        bigmem = rng.random() < 0.3
        size = int(rng.integers(1, 13 if bigmem else 20))
        mem = float(rng.choice([0, 1, 3, 10] if bigmem else [0, 1, 2]))
        run = float(rng.integers(1, 500))
        est = run * float(rng.choice([1, 2]))
        jobs.append(_job(i, float(i * 20), run, size, est=est, mem_gb=mem,
                         partition=2 if bigmem else -1))  # fmt: skip
    return Workload.from_jobs(jobs, name=f"w{seed}")


@pytest.mark.parametrize("policy", [FCFS, EASY, Conservative])
@pytest.mark.parametrize("seed", range(4))
def test_fcfs_easy_and_conservative_keep_to_the_machine(
    tmp_path: Path, policy: type, seed: int
) -> None:
    m = _machine(tmp_path)
    w = _workload(seed)
    sim = ModelSimulation(w, policy(), machine=m)
    log = record_holdings(sim)
    result = sim.run()
    check_invariants(result, w, m.total_cores)
    check_machine(result, w, m, log)
    assert result.meta["machine"] == m.describe()


def draw_groups(draw: st.DrawFn) -> list[NodeGroup]:
    """One to three random node groups: 1-3 nodes of 1-4 cores, no memory or 8 or 32 GB
    per node, speed 1 (twice as likely), 0.5 or 2."""
    groups = []
    for k in range(draw(st.integers(1, 3))):
        mem = draw(st.sampled_from([None, 8 * GB, 32 * GB]))
        speed = draw(st.sampled_from([1.0, 1.0, 0.5, 2.0]))
        groups.append(
            NodeGroup(f"g{k}", draw(st.integers(1, 3)), draw(st.integers(1, 4)), mem, speed)
        )
    return groups


@st.composite
def _machines_and_jobs(draw: st.DrawFn) -> tuple[Machine, Workload]:
    groups = draw_groups(draw)
    nodes = sum(g.nodes for g in groups)
    partitions: tuple[Partition, ...] = ()
    kind = draw(st.sampled_from(["none", "disjoint", "shared", "no default"]))
    if nodes > 1 and kind != "none":
        # Two partitions: disjoint with a default; sharing a node (or more); or
        # disjoint with none default (jobs naming none may use every node).
        cut = draw(st.integers(1, nodes - 1))
        low = draw(st.integers(0, cut - 1)) if kind == "shared" else cut
        partitions = (
            Partition("a", tuple(range(cut)), 1, kind != "no default"),
            Partition("b", tuple(range(low, nodes)), 2),
        )
    m = Machine(tuple(groups), partitions)
    jobs = []
    for i in range(1, draw(st.integers(1, 12)) + 1):
        part = draw(st.sampled_from([-1, 1, 2])) if partitions else -1
        job = _job(i, draw(st.integers(0, 50)), draw(st.integers(0, 30)), 1,
                   mem_gb=draw(st.sampled_from([0, 1, 4])), partition=part)  # fmt: skip
        most = m.most_cores(job)
        size = draw(st.integers(1, max(1, most)))
        if most < 1:
            continue
        jobs.append(_job(i, job.submit, job.run_time, size,
                         est=job.run_time + draw(st.integers(0, 20)),
                         mem_gb=job_memory(job) / GB, partition=part))  # fmt: skip
    jobs.append(_job(1000, 0, 1, 1))
    return m, Workload.from_jobs(jobs)


@pytest.mark.parametrize("policy", [FCFS, EASY, Conservative])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_machines_and_jobs())
def test_random_machines_and_jobs(policy: type, case: tuple[Machine, Workload]) -> None:
    m, w = case
    sim = ModelSimulation(w, policy(), machine=m)
    log = record_holdings(sim)
    result = sim.run()
    check_invariants(result, w, m.total_cores, unit_rate=m.speed is None)
    check_machine(result, w, m, log)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_machines_and_jobs())
def test_easy_never_starts_a_job_later_than_first_promised(
    case: tuple[Machine, Workload],
) -> None:
    # With exact estimates EASY's reservation is a guarantee, on each partition; where
    # partitions share nodes, one partition's new reservation must not push back
    # another's (a job keeps its reservation until it starts: `EASY._node_by_node`).
    m, w = case
    w = exact_estimates(w)
    result = ModelSimulation(w, EASY(), machine=m, log_reservations=True).run()
    promised = result.reservations
    start = dict(zip(result.jobs["id"], result.jobs["start"], strict=True))
    for job, rows in promised.groupby("job"):
        first = rows.sort_values("time", kind="stable")["start"].iloc[0]
        assert start[job] <= first, f"job {job} started {start[job]}, first promised {first}"


def test_easy_keeps_each_partitions_promise(tmp_path: Path) -> None:
    # Exact estimates: a reservation's job starts no later than the promise, in each
    # partition, whatever the other partition does.
    m = _machine(tmp_path)
    jobs = [
        _job(1, 0, 100, 24),  # batch, all thin cores
        _job(2, 1, 100, 16, partition=2),  # bigmem, all fat cores
        _job(3, 2, 50, 4),  # batch: waits for job 1 (the reservation)
        _job(4, 3, 50, 8, partition=2),  # bigmem: waits for job 2
        _job(5, 4, 10, 20),  # batch: cannot start before job 3 without delaying it
    ]
    w = Workload.from_jobs(jobs)
    sim = ModelSimulation(w, EASY(), machine=m, log_reservations=True)
    result = sim.run()
    start = dict(zip(result.jobs["id"], result.jobs["start"], strict=True))
    assert (start[3], start[4], start[5]) == (100, 101, 100)
    promised = result.reservations
    for job, at in (3, 100.0), (4, 101.0):
        assert promised[promised["job"] == job]["start"].min() == at


def test_other_policies_refuse_the_machine_on_one_line(tmp_path: Path) -> None:
    m = _machine(tmp_path)
    w = _workload(0, 5)
    ran = set()
    for name, cls in sorted(REGISTRY.items()):
        try:
            policy = cls()
        except TypeError:  # a policy whose parameters have no defaults
            continue
        try:
            ModelSimulation(w, policy, machine=m)
        except PolicyError as exc:
            assert "\n" not in str(exc)
            assert f"policy {policy.name!r} runs on identical nodes" in str(exc) or (
                name in ("easy",)
            ), str(exc)
            continue
        ran.add(name)
    assert ran == {"fcfs", "easy", "conservative", "multiqueue", "singlequeue"}


SHARED = """
[[group]]
name = "n"
nodes = 4
cores = 1

[[partition]]
name = "a"
number = 1
nodes = "0-2"
default = true

[[partition]]
name = "b"
number = 2
nodes = "2-3"
"""


def test_easy_plans_partitions_that_share_nodes_node_by_node(tmp_path: Path) -> None:
    # Node 2 is in both partitions. Job 3 (a) is reserved at 100 on nodes 0-2; job 5 (b)
    # could run on node 2 from 50 (job 2's end), but would hold it past 100: a count per
    # partition would start it and delay job 3. Node by node it waits (reserved at 150,
    # when job 3 ends), and job 6, done by 100, takes node 2 at 50.
    m = _machine(tmp_path, SHARED)
    jobs = [
        _job(1, 0, 100, 2),  # a: nodes 0-1
        _job(2, 0, 50, 1, partition=2),  # b: node 2
        _job(3, 1, 50, 3),  # a: all of it, at 100
        _job(4, 2, 200, 1, partition=2),  # b: node 3, now
        _job(5, 3, 100, 1, partition=2),  # b: node 2 only after job 3
        _job(6, 4, 40, 1, partition=2),  # b: node 2 over [50, 90)
    ]
    w = Workload.from_jobs(jobs)
    sim = ModelSimulation(w, EASY(), machine=m, log_reservations=True)
    log = record_holdings(sim)
    result = sim.run()
    check_invariants(result, w, m.total_cores)
    check_machine(result, w, m, log)
    start = dict(zip(result.jobs["id"], result.jobs["start"], strict=True))
    assert start == {1: 0, 2: 0, 3: 100, 4: 2, 5: 150, 6: 50}
    promised = result.reservations
    assert promised[promised["job"] == 3]["start"].min() == 100


def test_easy_keeps_a_promise_on_shared_nodes_when_an_earlier_job_gets_one(
    tmp_path: Path,
) -> None:
    # Nodes 0-2; a = 0-1 (default), b = 1-2. Job 3 (b) is reserved first; job 4 (b,
    # submitted before job 5) waits behind it; job 5 (a) is promised nodes 0-1 at 100.
    # At 10 job 3 starts and job 4 becomes b's reserved job: planned before job 5 it
    # would take node 1 from 60 to 160 and push job 5 to 160; planned after, it takes
    # node 2 and job 5 starts at 100, as promised.
    shared = SHARED.replace("nodes = 4", "nodes = 3").replace('"0-2"', '"0-1"')
    shared = shared.replace('"2-3"', '"1-2"')
    m = _machine(tmp_path, shared)
    jobs = [
        _job(1, 0, 10, 2, partition=2),  # b: nodes 1-2 until 10
        _job(2, 0, 100, 1),  # a: node 0 until 100
        _job(3, 1, 50, 2, partition=2),  # b: reserved at 10
        _job(4, 2, 100, 1, partition=2),  # b: behind job 3
        _job(5, 3, 10, 2),  # a: reserved at 100 on nodes 0-1
    ]
    w = Workload.from_jobs(jobs)
    result = ModelSimulation(w, EASY(), machine=m, log_reservations=True).run()
    start = dict(zip(result.jobs["id"], result.jobs["start"], strict=True))
    assert start == {1: 0, 2: 0, 3: 10, 4: 60, 5: 100}


def test_easy_runs_on_partitions_without_a_default(tmp_path: Path) -> None:
    # The jobs that name no partition may use the whole machine; planned node by node.
    no_default = MACHINE.replace("default = true", "")
    m = _machine(tmp_path, no_default)
    w = _workload(0, 5)
    sim = ModelSimulation(w, EASY(), machine=m)
    log = record_holdings(sim)
    result = sim.run()
    check_invariants(result, w, m.total_cores)
    check_machine(result, w, m, log)


def test_a_job_that_cannot_fit_its_partition_is_refused(tmp_path: Path) -> None:
    m = _machine(tmp_path)
    w = Workload.from_jobs([_job(1, 0, 10, 8, mem_gb=12)])  # thin nodes: 1 core each
    with pytest.raises(ValueError, match=r"job 1 needs 8 cores with 12 GB per core; "
                       r"partition 'batch' holds at most 6 such cores"):  # fmt: skip
        ModelSimulation(w, FCFS(), machine=m)
    with pytest.raises(ValueError, match="not both"):
        ModelSimulation(w, FCFS(), machine=m, nodes=4)


def test_a_study_names_the_machine_by_file_or_tables(tmp_path: Path) -> None:
    from schedsim.app.study import RunConfig, StudyError, load_study

    (tmp_path / "m.toml").write_text(MACHINE)
    lines = [
        f"{i} {i * 30} -1 {100 + i} {size} -1 -1 {size} {200 + i} {mem} 1 -1 -1 -1 -1 {part} -1 -1"
        for i, (size, mem, part) in enumerate(
            [(4, -1, 1), (8, 4194304, 2), (20, -1, -1), (2, 12582912, 1), (16, -1, 2)] * 4,
            start=1,
        )
    ]
    (tmp_path / "w.swf").write_text("; MaxProcs: 40\n" + "\n".join(lines) + "\n")
    (tmp_path / "study.toml").write_text(
        '[study]\nname = "m"\n[base]\nworkload = "w.swf"\nmachine = "m.toml"\n'
        '[grid]\npolicy = ["fcfs", "easy"]\n'
    )
    study = load_study(tmp_path / "study.toml")
    runs = study.runs()
    assert [r.config.policy.name for r in runs] == ["fcfs", "easy"]
    for r in runs:
        result = r.config.simulation().run()
        assert result.meta["machine"].startswith("6 x 4 cores, 16 GB 'thin'")
    # The same machine as inline tables is the same run; another machine another run.
    tables = tomllib.loads(MACHINE)
    by_file = RunConfig(workload=str(tmp_path / "w.swf"), machine=str(tmp_path / "m.toml"))
    inline = RunConfig(workload=str(tmp_path / "w.swf"), machine=tables)
    assert by_file.run_id() == inline.run_id()
    tables["group"][0]["nodes"] = 7
    other = RunConfig(workload=str(tmp_path / "w.swf"), machine=tables)
    assert other.run_id() != by_file.run_id()
    with pytest.raises(StudyError, match=r"machine: .*no such machine file"):
        RunConfig(workload=str(tmp_path / "w.swf"), machine=str(tmp_path / "none.toml"))
    with pytest.raises(StudyError, match="nodes: give a machine of node groups or the nodes"):
        RunConfig(workload=str(tmp_path / "w.swf"), machine=str(tmp_path / "m.toml"), nodes=8)


def test_a_job_runs_at_the_speed_of_its_slowest_node(tmp_path: Path) -> None:
    m = _machine(
        tmp_path,
        "[[group]]\nname = 'fast'\nnodes = 2\nspeed = 2\n"
        "[[group]]\nname = 'slow'\nnodes = 2\nspeed = 0.5\n",
    )
    assert m.describe() == "2 x 1 cores, speed 2 'fast' + 2 x 1 cores, speed 0.5 'slow'"
    assert not m.simple and m.speed is not None and m.speed.tolist() == [2, 2, 0.5, 0.5]
    jobs = [
        _job(1, 0, 100, 2),  # nodes 0-1, speed 2: 50 s
        _job(2, 0, 100, 1, est=150),  # node 2, speed 0.5: 200 s of work, killed at 150
        _job(3, 60, 100, 3, est=300),  # nodes 0, 1, 3 (2 still runs): at 0.5, 200 s
    ]
    w = Workload.from_jobs(jobs)
    result = ModelSimulation(w, FCFS(), machine=m).run()
    rows = result.jobs.set_index("id")
    assert (rows.loc[1, "end"], rows.loc[1, "outcome"]) == (50, "completed")
    assert (rows.loc[2, "end"], rows.loc[2, "outcome"]) == (150, "killed_at_limit")
    assert (rows.loc[3, "start"], rows.loc[3, "end"]) == (60, 260)
    check_invariants(result, w, m.total_cores, unit_rate=False)
    with pytest.raises(MachineError, match="key speed: 0, a number above 0"):
        _machine(tmp_path, "[[group]]\nnodes = 2\nspeed = 0\n")


@pytest.mark.parametrize("policy", [FCFS, EASY])
def test_node_by_node_planning_makes_the_count_schedule_on_identical_nodes(policy: type) -> None:
    # KTH's 100 one-core nodes as one group with memory to spare: every job is placed
    # node by node (`schedsim.policies.planning.nodes`), and the schedule is the one
    # counting free cores gives; so is that of ten groups of ten nodes (counted).
    from schedsim.workloads import catalog, transforms

    w = transforms.first(catalog.load("kth"), 1500)
    plain = ModelSimulation(w, policy(), nodes=100).run().jobs
    ample = Machine((NodeGroup("all", 100, 1, 1024 * GB),))
    ten = Machine(tuple(NodeGroup(f"g{k}", 10, 1) for k in range(10)))
    assert ample.constrained and not ten.constrained and not ten.simple
    for machine in (ample, ten):
        jobs = ModelSimulation(w, policy(), machine=machine).run().jobs
        for column in ("start", "end", "nodes"):
            assert jobs[column].tolist() == plain[column].tolist(), column


@pytest.mark.slow
@pytest.mark.parametrize("log", ["kth", "sdsc-sp2"])
def test_node_by_node_easy_makes_the_count_schedule_on_whole_logs(log: str) -> None:
    from schedsim.workloads import catalog

    w = catalog.load(log)
    size = w.header.machine_size
    assert size is not None
    plain = ModelSimulation(w, EASY(), nodes=size).run().jobs
    ample = Machine((NodeGroup("all", size, 1, 1024 * GB),))
    jobs = ModelSimulation(w, EASY(), machine=ample).run().jobs
    for column in ("start", "end", "nodes"):
        assert jobs[column].tolist() == plain[column].tolist(), column


def test_a_gantt_chart_marks_the_groups(tmp_path: Path) -> None:
    from schedsim.app.gantt import gantt

    m = _machine(tmp_path)
    result = ModelSimulation(_workload(1, 30), EASY(), machine=m).run()
    assert [g["name"] for g in result.meta["machine_groups"]] == ["thin", "fat"]
    assert result.meta["machine_groups"][1] == {
        "name": "fat", "first": 6, "nodes": 2, "cores": 8, "memory_gb": 256.0, "speed": 1.0,
    }  # fmt: skip
    ax = gantt(result).axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert "thin: 4 cores, 16 GB" in texts and "fat: 8 cores, 256 GB" in texts
    # The line where the fat nodes begin: node 6, in node units.
    assert any(line.get_ydata()[0] == 6 and line.get_linewidth() == 1.0 for line in ax.lines)
    assert "its group's" in ax.get_ylabel()
