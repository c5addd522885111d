"""Slurm accounting read as a workload (`schedsim.workloads.slurm`).

The sample files in ``tests/data/sacct/`` are laid out as ``sacct --parsable2`` prints
them (``|`` between values, a header line of column names): ``allocations.txt`` with
``--allocations`` and the documented column set, one job in every state a job can
end in or be in, every form of time limit and every memory unit and suffix;
``steps.txt`` without ``--allocations`` (step lines), its columns in another order
and case, AllocCPUS for NCPUS. Each expected value below is worked out by hand from
the line it names.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from schedsim.workloads import catalog
from schedsim.workloads.formats import kind
from schedsim.workloads.slurm import _NOT_ENDED, STATUS, SacctError, read_sacct

DATA = Path(__file__).parent / "data" / "sacct"
HEADER = "JobID|Submit|Start|End|Timelimit|NNodes|NCPUS|ReqMem|Partition|QOS|User|Account|State"
KB_PER_GB = 1024.0**2


def _jobs(path: Path = DATA / "allocations.txt", **kw: str) -> dict[str, object]:
    return {j.attrs["slurm_job_id"]: j for j in read_sacct(path, **kw)}


def test_every_finished_state_becomes_its_status() -> None:
    jobs = _jobs()
    want = {
        "5001": 1, "5002": 0, "5003": 0, "5004": 0, "5005": 0, "5006": 0, "5007": 0,
        "5008": 0, "5009": 5, "5010_1": 1, "5010_2": 1, "5011+0": 1, "5011+1": 1,
    }  # fmt: skip
    assert {k: j.swf[10] for k, j in jobs.items()} == want
    # Every state of STATUS appears in the sample (CANCELLED as "CANCELLED by 1007").
    assert set(STATUS) == {
        "COMPLETED", "FAILED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL",
        "DEADLINE", "PREEMPTED", "CANCELLED",
    }  # fmt: skip


def test_jobs_not_started_or_not_ended_are_dropped_and_counted() -> None:
    w = read_sacct(DATA / "allocations.txt")
    steps = {s.name: s for s in w.cleaning}
    # 5010_[3-20] (PENDING) and 5012 (cancelled while pending, Start None).
    assert steps["dropped: never started"].count == 2
    assert "lines 13, 16" in steps["dropped: never started"].detail
    # RUNNING, SUSPENDED, REQUEUED, RESIZING.
    assert steps["dropped: not ended"].count == 4
    assert len(w) == 13


def test_times_sizes_and_identifiers() -> None:
    jobs = _jobs()
    j = jobs["5001"]
    # Submit 08:00:00 is the first: trace time 0; wait 10 s; run 1 h; 64 CPUs.
    assert (j.submit, j.swf[2], j.run_time, j.size) == (0.0, 10.0, 3600.0, 64)
    assert j.attrs["slurm_nodes"] == 2 and j.swf[4] == j.swf[7] == 64
    # Ids are the places in submit order; the heterogeneous components are two jobs.
    assert [jobs[k].id for k in ("5001", "5002", "5011+0", "5011+1")] == [1, 2, 12, 13]
    # Users, accounts, QOS and partitions by first appearance (names are not kept).
    assert (jobs["5001"].user, jobs["5002"].user, jobs["5004"].user) == (1, 2, 3)
    assert (jobs["5001"].group, jobs["5002"].group) == (1, 2)
    assert (jobs["5003"].queue, jobs["5003"].partition) == (2, 2)
    assert (jobs["5008"].queue, jobs["5004"].partition) == (3, 3)
    w = read_sacct(DATA / "allocations.txt")
    assert "; Partition: 3 bigmem" in w.header.lines and "; Queue: 2 short" in w.header.lines
    # 2026-03-02T08:00:00 UTC.
    assert w.header.unix_start_time == 1772438400


@pytest.mark.parametrize(
    ("job", "seconds"),
    [
        ("5001", 5400),  # 01:30:00, hours:minutes:seconds
        ("5002", 1800),  # 30, minutes
        ("5003", 900),  # 15:00, minutes:seconds
        ("5004", 86400),  # 1-00:00:00, days-hours:minutes:seconds
        ("5005", 216000),  # 2-12, days-hours
        ("5006", 109800),  # 1-06:30, days-hours:minutes
    ],
)
def test_every_time_limit_form(job: str, seconds: int) -> None:
    j = _jobs()[job]
    assert j.estimate == seconds and j.swf[8] == seconds


def test_no_time_limit_uses_the_run_time_and_says_so() -> None:
    jobs = _jobs()
    # UNLIMITED (5008) and Partition_Limit (5009): field 9 stays missing.
    assert (jobs["5008"].estimate, jobs["5008"].swf[8]) == (1800.0, -1.0)
    assert (jobs["5009"].estimate, jobs["5009"].swf[8]) == (60.0, -1.0)
    step = next(s for s in read_sacct(DATA / "allocations.txt").cleaning if "estimate" in s.name)
    assert step.count == 2 and "lines 9, 10" in step.detail


@pytest.mark.parametrize(
    ("job", "kb_per_core"),
    [
        ("5001", 120 * KB_PER_GB * 2 / 64),  # 120G per node, 2 nodes, 64 CPUs
        ("5002", 2000 * 1024.0),  # 2000Mc: per CPU
        ("5003", 512000 / 8),  # 512000K per node, 1 node, 8 CPUs
        ("5004", 1024 * KB_PER_GB * 4 / 128),  # 1Tn: per node, 4 nodes
        ("5005", 4 * KB_PER_GB),  # 4G per node, 1 node, 1 CPU
        ("5006", -1.0),  # 0: none
        ("5007", 64000 * 1024.0 / 32),  # 64000M per node
        ("5008", 8 * KB_PER_GB * 2 / 48),  # 8Gn
        ("5009", -1.0),  # empty
        ("5010_1", 1.5 * KB_PER_GB),  # 1.5Gc
    ],
)
def test_every_memory_unit_and_suffix(job: str, kb_per_core: float) -> None:
    assert _jobs()[job].swf[9] == pytest.approx(kb_per_core)


def test_memory_without_suffix_read_per_cpu_when_asked() -> None:
    # 120G per CPU rather than per node.
    assert _jobs(mem_per="cpu")["5001"].swf[9] == 120 * KB_PER_GB


def test_step_lines_dropped_and_columns_in_any_order_and_case() -> None:
    w = read_sacct(DATA / "steps.txt")
    assert [j.attrs["slurm_job_id"] for j in w] == ["7001", "7002"]
    step = next(s for s in w.cleaning if "step" in s.name)
    assert step.count == 3 and "lines 3, 4, 5" in step.detail
    # AllocCPUS for the size; no User, Account, QOS or Partition: missing (-1).
    assert [j.size for j in w] == [4, 2]
    assert (w[0].user, w[0].group, w[0].queue, w[0].partition) == (-1, -1, -1, -1)
    # 1000Mn per node on 4 CPUs; 1000M (per node by default) on 2.
    assert [j.swf[9] for j in w] == [1000 * 1024 / 4, 1000 * 1024 / 2]


def test_time_zone_places_the_clock() -> None:
    utc = read_sacct(DATA / "allocations.txt")
    stockholm = read_sacct(DATA / "allocations.txt", tz="Europe/Stockholm")
    # 08:00 in Stockholm (UTC+1 in March) is 07:00 UTC; the jobs' relative times agree.
    assert stockholm.header.unix_start_time == utc.header.unix_start_time - 3600
    assert [j.submit for j in stockholm] == [j.submit for j in utc]
    assert stockholm.header.time_zone_string == "Europe/Stockholm"


def test_read_by_content_through_the_catalog() -> None:
    assert kind(DATA / "allocations.txt") == "sacct"
    assert len(catalog.load(DATA / "allocations.txt")) == 13
    with pytest.raises(ValueError, match="only apply to SWF"):
        catalog.load(DATA / "allocations.txt", strict=True)


GOOD = "|".join(
    ("1", "2026-01-01T00:00:00", "2026-01-01T00:01:00", "2026-01-01T00:11:00", "00:30:00",
     "1", "4", "4G", "b", "n", "u", "a", "COMPLETED")
)  # fmt: skip
NO_NODES = ("JobID|Submit|Start|End|NCPUS|ReqMem|State", "|".join(
    ("1", "2026-01-01T00:00:00", "2026-01-01T00:01:00", "2026-01-01T00:02:00", "4", "4G",
     "COMPLETED")
))  # fmt: skip


def _bad(old: str, new: str, count: int = -1) -> list[str]:
    """The header and GOOD with ``old`` replaced by ``new``."""
    return [HEADER, GOOD.replace(old, new, count)]


@pytest.mark.parametrize(
    ("lines", "where", "what"),
    [
        (["JobID|Submit|Start|End|NCPUS"], ":1: ", "missing column State"),
        (["JobID|Submit|Start|End|State"], ":1: ", "NCPUS (or AllocCPUS)"),
        ([GOOD], ":1: ", "no header line"),
        ([HEADER, GOOD + "|x"], ":2: ", "14 values, the header has 13 columns"),
        (_bad("2026-01-01T00:00", "2026-13-01T00:00"), ":2: column Submit", "not a date"),
        (_bad("2026-01-01T00:01:00", "01/01/2026"), ":2: column Start", "YYYY-MM-DDTHH:MM:SS"),
        (_bad("T00:01:00", "T23:01:00"), ":2: column End", "before the job's Start"),
        (_bad("T00:00:00|", "T00:05:00|", 1), ":2: column Start", "before the job's Submit"),
        (_bad("|1|4|", "|1|x|"), ":2: column NCPUS", "'x' is not a whole number"),
        (_bad("|1|4|", "|1|0|"), ":2: column NCPUS", "at least one CPU"),
        (_bad("|1|4|", "|8|4|"), ":2: column NNodes", "8 nodes for 4 CPUs"),
        (_bad("00:30:00", "half an hour"), ":2: column Timelimit", "not a time limit"),
        (_bad("|4G|", "|4Q|"), ":2: column ReqMem", "not a memory size"),
        (_bad("COMPLETED", "FINISHED"), ":2: column State", "not a Slurm job state"),
        ([HEADER, GOOD[1:]], ":2: column JobID", "empty"),
        ([HEADER], "", "no job that started and ended"),
        (list(NO_NODES), ":2: column ReqMem", "the NNodes column is needed"),
    ],
)
def test_bad_input_is_one_line_naming_file_line_and_column(
    tmp_path: Path, lines: list[str], where: str, what: str
) -> None:
    path = tmp_path / "jobs.txt"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(SacctError) as info:
        read_sacct(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}{where}"), message
    assert what in message, message


def test_empty_and_binary_files_are_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    with pytest.raises(SacctError, match="no header line"):
        read_sacct(empty)
    latin = tmp_path / "latin.txt"
    latin.write_bytes((HEADER + "\n" + GOOD.replace("|u|", "|J\xf6rg|") + "\n").encode("latin-1"))
    with pytest.raises(SacctError, match="not UTF-8"):
        read_sacct(latin)


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="mem_per"):
        read_sacct(DATA / "steps.txt", mem_per="task")
    with pytest.raises(ValueError, match="unknown time zone"):
        read_sacct(DATA / "steps.txt", tz="Mars/Olympus")


def test_error_survives_pickling() -> None:
    import pickle

    err = SacctError("f.txt", 3, "End", "bad")
    again = pickle.loads(pickle.dumps(err))
    assert (again.path, again.line, again.column, str(again)) == ("f.txt", 3, "End", str(err))


@pytest.mark.parametrize("state", sorted(_NOT_ENDED))
def test_every_state_not_over_is_dropped(tmp_path: Path, state: str) -> None:
    path = tmp_path / "jobs.txt"
    other = GOOD.replace("COMPLETED", state).replace("1|", "2|", 1)
    path.write_text(f"{HEADER}\n{GOOD}\n{other}\n")
    w = read_sacct(path)
    assert len(w) == 1
    dropped = sum(s.count for s in w.cleaning if s.name.startswith("dropped"))
    assert dropped == 1
