"""SWF reading, validation and writing (schedsim.workloads.swf)."""

from __future__ import annotations

import gzip
import pickle
from pathlib import Path

import pandas as pd
import pytest

from schedsim.workloads import transforms
from schedsim.workloads.catalog import resolve
from schedsim.workloads.job import SWF_FIELDS, Job
from schedsim.workloads.swf import SWFError, read_header, read_swf, write_swf
from schedsim.workloads.workload import CleaningStep, Workload

HEADER = """\
; Version: 2.2
; Computer: Test machine
; MaxNodes: 400 (48 interactive, 352 batch, 6 service, 10 I/O)
; MaxProcs: 64
; UnixStartTime: 835823160
; TimeZone: -18000
; TimeZoneString: US/Eastern
"""


def swf_line(
    job: int,
    submit: float | str = 0,
    *,
    wait: float | str = -1,
    run: float | str = 100,
    alloc: float | str = 4,
    cpu: float | str = -1,
    req: float | str = 4,
    req_time: float | str = 200,
    status: float | str = 1,
    user: float | str = 7,
    group: float | str = 3,
    app: float | str = 11,
    queue: float | str = 1,
    partition: float | str = 2,
) -> str:
    """One SWF job line with plausible defaults."""
    fields = [job, submit, wait, run, alloc, cpu, -1, req, req_time, -1, status]
    fields += [user, group, app, queue, partition, -1, -1]
    return " ".join(str(f) for f in fields)


def write(tmp_path: Path, body: str, name: str = "t.swf", *, gz: bool = False) -> Path:
    path = tmp_path / name
    data = body.encode()
    path.write_bytes(gzip.compress(data) if gz else data)
    return path


def count_job_lines(path: Path) -> int:
    """Job lines counted independently of the reader."""
    with gzip.open(path, "rt") as fh:
        return sum(1 for line in fh if line.strip() and not line.lstrip().startswith(";"))


@pytest.fixture(scope="module")
def kth() -> Workload:
    return read_swf(resolve("kth"))


# -- headers of the shipped traces --------------------------------------------


@pytest.mark.parametrize(
    ("name", "max_procs", "max_nodes", "start", "tz", "tz_string"),
    [
        ("kth", 100, 100, 843480031, 3600, "Europe/Stockholm"),
        ("ctc", 338, 338, 835823160, -18000, "US/Eastern"),
        ("sdsc-sp2", 128, 128, 893466664, -28800, "US/Pacific"),
        ("lublin256", None, 256, None, None, None),
    ],
)
def test_shipped_headers(name, max_procs, max_nodes, start, tz, tz_string):
    h = read_header(resolve(name))
    assert h.max_procs == max_procs
    assert h.max_nodes == max_nodes
    assert h.unix_start_time == start
    assert h.time_zone == tz
    assert h.time_zone_string == tz_string
    assert h.machine_size == (max_procs or max_nodes)
    assert all(line.lstrip().startswith(";") for line in h.lines)


def test_ctc_max_nodes_keeps_raw_value_and_parses_leading_integer():
    h = read_header(resolve("ctc"))
    assert h.fields["MaxNodes"] == "338 (batch partition; 512 total)"
    assert h.max_nodes == 338
    assert h.fields["Computer"] == "IBM SP2"
    assert h.fields["Installation"] == "Cornell Theory Center (CTC)"
    # Repeated key: the first value is kept in fields, every line in lines.
    assert h.fields["Queue"] == "1 DSI"
    assert sum(line.startswith("; Queue:") for line in h.lines) == 4
    # Indented continuation lines are not keys.
    assert "http" not in h.fields
    assert any("www.cs.huji.ac.il" in line for line in h.lines)


def test_read_header_matches_full_read(kth):
    assert read_header(resolve("kth")) == kth.header


# -- the KTH log as a whole ----------------------------------------------------


def test_kth_counts_add_up(kth):
    lines = count_job_lines(resolve("kth"))
    assert lines == 28476
    dropped = sum(s.count for s in kth.cleaning if s.name.startswith("dropped"))
    assert len(kth) + dropped == lines
    # One job (27313) has neither requested nor allocated processors.
    assert kth.cleaning == (
        CleaningStep("dropped: no size", 1, "requested and allocated processors missing or 0"),
    )
    assert 27313 not in {j.id for j in kth}
    assert kth.name == "KTH-SP2-1996-2.1-cln"
    assert kth.source == str(resolve("kth"))


def test_kth_first_job(kth):
    j = kth[0]
    assert (j.id, j.submit, j.run_time, j.size, j.estimate) == (15, 599850, 3477, 4, 53940)
    assert (j.user, j.group, j.app, j.queue, j.partition) == (12, 12, -1, -1, -1)
    assert j.swf is not None and len(j.swf) == 18
    assert j.swf[2] == 192180  # wait time kept
    assert all(isinstance(x, float) for x in j.swf)
    assert [j.submit for j in kth] == sorted(j.submit for j in kth)


def test_kth_unclean_names_the_job_without_size():
    with pytest.raises(SWFError) as info:
        read_swf(resolve("kth"), clean=False)
    err = info.value
    assert err.line == 27323
    assert err.field == "requested_processors"
    assert "KTH-SP2-1996-2.1-cln.swf.gz:27323: field 8 (requested_processors)" in str(err)


def test_ctc_decimal_fields_and_missing_estimates():
    w = read_swf(resolve("ctc"))
    assert len(w) == 77222
    assert w[0].swf[5] == 142.0  # written "142.00" in the log
    assert w.cleaning == (
        CleaningStep("estimate missing: used run time", 6, "requested time -1 or 0"),
    )


# -- parsing small files -------------------------------------------------------


def test_header_fields_lines_and_job_building(tmp_path):
    body = (
        HEADER
        + ";\n; free comment without key\n;              http://example.org/\n\n"
        + swf_line(1, 10, req=8, alloc=6, req_time=500, cpu="142.00")
        + "\n"
        + swf_line(2, 20, req=-1, alloc=6, req_time=-1, run=30)
        + "\n\n"
    )
    w = read_swf(write(tmp_path, body))
    h = w.header
    assert h.max_nodes == 400 and h.max_procs == 64
    assert h.unix_start_time == 835823160
    assert h.time_zone == -18000 and h.time_zone_string == "US/Eastern"
    assert h.fields["Computer"] == "Test machine"
    assert "; free comment without key" in h.lines
    assert ";              http://example.org/" in h.lines
    assert set(h.fields) == {
        "Version",
        "Computer",
        "MaxNodes",
        "MaxProcs",
        "UnixStartTime",
        "TimeZone",
        "TimeZoneString",
    }
    j1, j2 = w
    assert j1 == Job(1, 10.0, 100.0, 8, 500.0, 7, 3, 11, 1, 2)  # size from field 8
    assert j1.swf[5] == 142.0
    assert j2.size == 6  # field 8 missing -> field 5
    assert j2.estimate == 30  # field 9 missing -> run time
    assert w.cleaning == (
        CleaningStep("estimate missing: used run time", 1, "requested time -1 or 0"),
    )


def test_jobs_are_sorted_by_submit_then_id(tmp_path):
    body = "\n".join([swf_line(3, 50), swf_line(2, 10), swf_line(1, 50)]) + "\n"
    assert [j.id for j in read_swf(write(tmp_path, body))] == [2, 1, 3]


def test_minus_one_with_decimals_is_missing_and_crlf_is_accepted(tmp_path):
    body = swf_line(1, 0).replace(" -1 ", " -1.00 ", 1) + "\r\n" + swf_line(2, 5) + "\r\n"
    assert len(read_swf(write(tmp_path, body))) == 2


def test_default_name_and_override(tmp_path):
    path = write(tmp_path, swf_line(1) + "\n", "Some-Log-1.2.swf.gz", gz=True)
    assert read_swf(path).name == "Some-Log-1.2"
    assert read_swf(path, name="mine").name == "mine"
    assert read_swf(write(tmp_path, swf_line(1) + "\n", "plain.swf")).name == "plain"


def test_gzip_detected_by_magic_bytes_not_suffix(tmp_path):
    body = HEADER + swf_line(1, 0) + "\n" + swf_line(2, 60, run=5) + "\n"
    plain = read_swf(write(tmp_path, body, "a.swf"))
    gz = read_swf(write(tmp_path, body, "b.swf.gz", gz=True))
    gz_no_suffix = read_swf(write(tmp_path, body, "c.swf", gz=True))
    plain_gz_suffix = read_swf(write(tmp_path, body, "d.swf.gz"))
    for other in (gz, gz_no_suffix, plain_gz_suffix):
        assert other.jobs == plain.jobs
        assert [j.swf for j in other] == [j.swf for j in plain]
        assert other.header == plain.header


def test_corrupt_gzip_names_the_file(tmp_path):
    path = tmp_path / "bad.swf.gz"
    path.write_bytes(gzip.compress(b"1 2 3\n" * 100)[:30])
    with pytest.raises(SWFError, match=r"bad\.swf\.gz: corrupt gzip"):
        read_swf(path)
    path.write_bytes(b"\x1f\x8b not really gzip")
    for reader in (read_swf, read_header):
        with pytest.raises(SWFError, match=r"bad\.swf\.gz: corrupt gzip"):
            reader(path)


# -- malformed input -------------------------------------------------------------


def read_error(tmp_path: Path, body: str, **kwargs) -> SWFError:
    path = write(tmp_path, body, "bad.swf")
    with pytest.raises(SWFError) as info:
        read_swf(path, **kwargs)
    err = info.value
    assert err.path == str(path)
    assert str(err).startswith(str(path))
    return err


MALFORMED = {
    "negative run time": (
        swf_line(2, run=-5),
        "run_time",
        "'-5' is negative (only -1 means missing)",
    ),
    "negative submit": (
        swf_line(2, submit=-3),
        "submit_time",
        "'-3' is negative (only -1 means missing)",
    ),
    "negative user": (swf_line(2, user=-2), "user_id", "'-2' is negative (only -1 means missing)"),
    "letter O for zero": (
        swf_line(2).replace("100", "1O0", 1),
        "run_time",
        "'1O0' is not a number",
    ),
    "word": (swf_line(2, alloc="x"), "allocated_processors", "'x' is not a number"),
    "underscore": (swf_line(2, alloc="1_0"), "allocated_processors", "'1_0' is not a number"),
    "arabic digits": (swf_line(2, alloc="١٢"), "allocated_processors", "'١٢' is not a number"),
    "nan": (swf_line(2, cpu="nan"), "average_cpu_time", "'nan' is not a number"),
    "inf": (swf_line(2, req_time="inf"), "requested_time", "'inf' is not a number"),
    "fractional processors": (
        swf_line(2, req=2.5),
        "requested_processors",
        "'2.5' is not a whole number",
    ),
    "17 fields": (
        swf_line(2).rsplit(" ", 1)[0],
        "think_time",
        "missing: the line has 17 fields, SWF needs 18",
    ),
    "19 fields": (swf_line(2) + " 5", None, "the line has 19 fields, SWF needs 18"),
    "submit missing": (swf_line(2, submit=-1), "submit_time", "submit time is missing (-1)"),
    "job number missing": (swf_line(-1), "job_number", "job number is missing (-1)"),
    "duplicate": (swf_line(1, 99), "job_number", "duplicate job number 1 (first on line 2)"),
}


@pytest.mark.parametrize(("line", "field", "reason"), MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_line_names_file_line_and_field(tmp_path, line, field, reason):
    body = "; Version: 2.2\n" + swf_line(1) + "\n\n" + line + "\n" + swf_line(3) + "\n"
    err = read_error(tmp_path, body)
    assert err.line == 4  # comment and blank lines count
    assert err.field == field
    where = f"{tmp_path / 'bad.swf'}:4:"
    if field is None:
        assert str(err) == f"{where} {reason}"
    else:
        assert str(err) == f"{where} field {SWF_FIELDS.index(field) + 1} ({field}): {reason}"


def test_first_bad_line_is_reported(tmp_path):
    # A negative value (rejected after parsing) before a non-number (rejected by
    # the parser): the earlier line must win either way.
    lines = [swf_line(i, i) for i in range(1, 9)]
    lines[2] = swf_line(3, 3, run=-7)
    lines[5] = swf_line(6, 6, alloc="abc")
    assert read_error(tmp_path, "\n".join(lines)).line == 3
    lines[5] = swf_line(6, 6, wait=-9)
    assert read_error(tmp_path, "\n".join(lines)).line == 3


def test_header_value_that_is_not_an_integer(tmp_path):
    err = read_error(tmp_path, "; Version: 2\n; UnixStartTime: soon\n" + swf_line(1) + "\n")
    assert (err.line, err.field) == (2, None)
    assert "UnixStartTime" in str(err) and "'soon'" in str(err)


def test_empty_file_names_the_file(tmp_path):
    for body in ("", "; Version: 2.2\n;\n\n   \n"):
        err = read_error(tmp_path, body)
        assert err.line is None and err.field is None
        assert str(err).startswith(f"{tmp_path / 'bad.swf'}: no job lines")


def test_all_jobs_dropped_is_an_error(tmp_path):
    err = read_error(tmp_path, swf_line(1, run=-1) + "\n" + swf_line(2, req=0, alloc=0) + "\n")
    assert "all 2 were dropped" in str(err)


def test_swferror_is_a_valueerror_and_pickles():
    err = SWFError("KTH.swf.gz", 123, "run_time", "'-5' is negative (only -1 means missing)")
    assert isinstance(err, ValueError)
    assert (
        str(err) == "KTH.swf.gz:123: field 4 (run_time): '-5' is negative (only -1 means missing)"
    )
    back = pickle.loads(pickle.dumps(err))
    assert (back.path, back.line, back.field, str(back)) == (err.path, 123, "run_time", str(err))


# -- cleaning ------------------------------------------------------------------


def dirty_body() -> str:
    return (
        "\n".join(
            [
                swf_line(1, 0),
                swf_line(2, 1, req=-1, alloc=-1),  # no size
                swf_line(3, 2, req=0, alloc=0),  # no size
                swf_line(4, 3, run=-1),  # run time missing
                swf_line(5, 4, req=-1, alloc=-1, run=-1),  # both: counted once, as no size
                swf_line(6, 5, req_time=-1),  # estimate missing
                swf_line(7, 6, req_time=0, run=40),  # estimate 0
                swf_line(8, 7, run=0),  # zero run time is valid
            ]
        )
        + "\n"
    )


def test_cleaning_drops_and_counts(tmp_path):
    w = read_swf(write(tmp_path, dirty_body()))
    assert [j.id for j in w] == [1, 6, 7, 8]
    assert [(s.name, s.count) for s in w.cleaning] == [
        ("dropped: no size", 3),
        ("dropped: run time missing", 1),
        ("estimate missing: used run time", 2),
    ]
    assert w[1].estimate == 100 and w[2].estimate == 40
    dropped = sum(s.count for s in w.cleaning if s.name.startswith("dropped"))
    assert len(w) + dropped == 8


def test_no_steps_when_nothing_was_cleaned(tmp_path):
    assert read_swf(write(tmp_path, swf_line(1) + "\n")).cleaning == ()


@pytest.mark.parametrize(
    ("line", "field", "text"),
    [
        (swf_line(2, req=-1, alloc=-1), "requested_processors", "no size"),
        (swf_line(2, req=0, alloc=0), "requested_processors", "no size"),
        (swf_line(2, run=-1), "run_time", "run time is missing"),
    ],
)
def test_unclean_read_refuses_unusable_jobs(tmp_path, line, field, text):
    body = swf_line(1) + "\n" + line + "\n"
    err = read_error(tmp_path, body, clean=False)
    assert (err.line, err.field) == (2, field)
    assert text in str(err)


def test_unclean_read_of_clean_file(tmp_path):
    w = read_swf(write(tmp_path, swf_line(1) + "\n" + swf_line(2, req_time=-1) + "\n"), clean=False)
    assert len(w) == 2
    assert [s.name for s in w.cleaning] == ["estimate missing: used run time"]


# -- writing -------------------------------------------------------------------


def schedule_for(w: Workload, *, wait: float = 7.4, extra_run: float = 0.0) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "id": [j.id for j in w],
            "wait": [wait + i for i in range(len(w))],
            "run": [j.run_time + extra_run for j in w],
        }
    )


def assert_same_jobs(a: Workload, b: Workload) -> None:
    assert [(j.id, j.submit, j.size, j.estimate) for j in a] == [
        (j.id, j.submit, j.size, j.estimate) for j in b
    ]


def test_round_trip_small(tmp_path):
    src = read_swf(write(tmp_path, HEADER + dirty_body()))
    sched = schedule_for(src, extra_run=0.3)
    out = tmp_path / "out.swf"
    write_swf(out, src, sched, note="policy: easy")
    back = read_swf(out)
    assert_same_jobs(src, back)
    assert [j.run_time for j in back] == [round(r) for r in sched["run"]]
    assert [j.swf[2] for j in back] == [round(x) for x in sched["wait"]]
    assert back.header.fields.items() >= src.header.fields.items()
    text = out.read_text()
    assert "; Note: schedule simulated by schedsim (policy: easy)" in text
    assert "; Note: schedsim cleaning: dropped: no size: 3 jobs" in text
    # The source header, with the lines that describe the file written added in the
    # archive's order (after Computer, before UnixStartTime).
    lines = list(src.header.lines)
    lines[2:2] = ["; MaxJobs: 4", "; MaxRecords: 4", "; Preemption: No"]
    assert text.splitlines()[: len(lines)] == lines


def test_round_trip_kth_slice_gzip(kth, tmp_path):
    src = transforms.first(kth, 3000)
    sched = schedule_for(src, wait=0.0)
    out = tmp_path / "kth-sim.swf.gz"
    write_swf(out, src, sched)
    assert out.read_bytes()[:2] == b"\x1f\x8b"
    back = read_swf(out)
    assert_same_jobs(src, back)
    assert [j.run_time for j in back] == [j.run_time for j in src]
    # Fields the simulation does not touch are written back unchanged.
    for a, b in zip(src, back, strict=True):
        assert a.swf[5:] == b.swf[5:] and a.swf[:2] == b.swf[:2]


def test_written_fields(tmp_path):
    body = swf_line(5, 10, wait=99, run=50, alloc=3, req=-1, cpu="142.50", req_time=-1)
    src = read_swf(write(tmp_path, body + "\n"))
    out = tmp_path / "out.swf"
    sched = pd.DataFrame({"id": [5], "wait": [2.5], "run": [49.6], "size": [3]})
    write_swf(out, src, sched)
    fields = next(ln for ln in out.read_text().splitlines() if not ln.startswith(";")).split()
    assert fields[:6] == ["5", "10", "3", "50", "3", "142.5"]  # wait 2.5 rounds half up
    assert fields[7] == "-1"  # requested processors stay missing
    assert fields[8] == "-1"  # estimate (= run time 50) still reads back from the run
    assert read_swf(out)[0].estimate == 50


def test_written_fields_follow_transforms(tmp_path):
    body = "\n".join(swf_line(i, 100 * i, req=4 * i, req_time=-1, run=10 * i) for i in (1, 2, 3))
    src = read_swf(write(tmp_path, body + "\n"))
    w = transforms.fit_machine(transforms.scale_load(src, 3.0), 8, mode="clamp")
    sched = pd.DataFrame({"id": [1, 2, 3], "wait": [0.0] * 3, "run": [12.0, 20.0, 30.0]})
    out = tmp_path / "out.swf"
    write_swf(out, w, sched)
    back = read_swf(out)
    assert_same_jobs(w, back)
    assert back[1].submit == pytest.approx(100 + 100 / 3)
    assert [j.size for j in back] == [4, 8, 8]
    # Job 1's estimate (10) no longer equals its run (12): written explicitly.
    assert [j.estimate for j in back] == [10, 20, 30]


def test_synthetic_jobs_are_written_with_minus_one(tmp_path):
    w = Workload.from_jobs(
        [Job(1, 0.0, 60.0, 2, 120.0), Job(2, 30.0, 10.0, 1, 10.0, user=4)],
        name="synthetic",
        max_nodes=8,
        unix_start_time=0,
    )
    out = tmp_path / "syn.swf"
    write_swf(out, w, schedule_for(w, wait=0.0))
    text = out.read_text()
    assert "; MaxNodes: 8" in text and "; UnixStartTime: 0" in text
    rows = [ln.split() for ln in text.splitlines() if not ln.startswith(";")]
    assert " ".join(rows[0]) == "1 0 0 60 2 -1 -1 2 120 -1 -1 -1 -1 -1 -1 -1 -1 -1"
    assert rows[1][11] == "4"
    back = read_swf(out)
    assert_same_jobs(w, back)
    assert back.header.max_nodes == 8


def test_writer_rejects_incomplete_or_foreign_schedules(tmp_path):
    src = read_swf(write(tmp_path, dirty_body()))
    sched = schedule_for(src)
    out = tmp_path / "out.swf"
    with pytest.raises(ValueError, match=r"1 jobs .* not in the schedule \(first: job 6\)"):
        write_swf(out, src, sched[sched["id"] != 6])
    with pytest.raises(ValueError, match="not in workload"):
        write_swf(out, src, pd.concat([sched, pd.DataFrame({"id": [99], "wait": [0], "run": [1]})]))
    with pytest.raises(ValueError, match="more than once"):
        write_swf(out, src, pd.concat([sched, sched.iloc[:1]]))
    assert not out.exists()


def test_unfinished_job_is_written_as_missing(tmp_path):
    src = read_swf(write(tmp_path, swf_line(1) + "\n" + swf_line(2, 5) + "\n"))
    sched = pd.DataFrame({"id": [1, 2], "wait": [0.0, float("nan")], "run": [100.0, float("nan")]})
    out = tmp_path / "out.swf"
    write_swf(out, src, sched)
    back = read_swf(out)
    assert [j.id for j in back] == [1]
    assert back.cleaning[0].name == "dropped: run time missing"


def header_of(path: Path) -> list[str]:
    return [ln for ln in path.read_text().splitlines() if ln.startswith(";")]


def job_rows(path: Path) -> list[list[str]]:
    return [ln.split() for ln in path.read_text().splitlines() if not ln.startswith(";")]


SOURCE_HEADER = """\
; Version: 2.2
; Computer: Test machine
; Information: http://example.org/
;              http://example.org/mirror
; MaxJobs: 9999
; MaxRecords: 10005
; Preemption: Double
; UnixStartTime: 835823160
; Note: a note of the source log
"""


def test_header_describes_the_file_written(tmp_path):
    src = read_swf(write(tmp_path, SOURCE_HEADER + dirty_body()))
    out = tmp_path / "out.swf"
    write_swf(out, src, schedule_for(src))
    header = header_of(out)
    assert header[4:7] == ["; MaxJobs: 4", "; MaxRecords: 4", "; Preemption: Double"]
    assert header[:4] + header[7:9] == list(src.header.lines[:4] + src.header.lines[7:])
    back = read_swf(out)
    assert back.header.fields["MaxJobs"] == back.header.fields["MaxRecords"] == "4"
    write_swf(out, src, schedule_for(src), preemption="Yes")
    assert "; Preemption: Yes" in header_of(out) and "; Preemption: Double" not in header_of(out)


def test_missing_header_keys_go_in_the_archives_order(tmp_path):
    body = swf_line(1) + "\n"
    src = read_swf(
        write(tmp_path, "; Computer: X\n; Information: a\n;      b\n; MaxNodes: 8\n" + body)
    )
    out = tmp_path / "out.swf"
    write_swf(out, src, schedule_for(src))
    assert header_of(out)[:7] == [
        "; Computer: X",
        "; Information: a",
        ";      b",  # a continuation line stays with its key
        "; MaxJobs: 1",
        "; MaxRecords: 1",
        "; Preemption: No",
        "; MaxNodes: 8",
    ]
    first = read_swf(write(tmp_path, "; UnixStartTime: 0\n" + body, "u.swf"))
    write_swf(out, first, schedule_for(first), preemption="TS")
    assert header_of(out)[:4] == [
        "; MaxJobs: 1",
        "; MaxRecords: 1",
        "; Preemption: TS",
        "; UnixStartTime: 0",
    ]


def test_synthetic_header_counts_and_preemption(tmp_path):
    w = Workload.from_jobs([Job(1, 0.0, 60.0, 2, 120.0)], name="s", unix_start_time=0)
    out = tmp_path / "syn.swf"
    write_swf(out, w, schedule_for(w, wait=0.0), preemption="Yes")
    assert header_of(out)[:5] == [
        "; Version: 2.2",
        "; MaxJobs: 1",
        "; MaxRecords: 1",
        "; Preemption: Yes",
        "; UnixStartTime: 0",
    ]


def test_status_column_is_written_to_field_11(tmp_path):
    body = "".join(swf_line(i, i, status=1) + "\n" for i in (1, 2, 3, 4))
    src = read_swf(write(tmp_path, body))
    out = tmp_path / "out.swf"
    sched = schedule_for(src).assign(status=[1, 0, 5, float("nan")])
    write_swf(out, src, sched)
    assert [row[10] for row in job_rows(out)] == ["1", "0", "5", "-1"]
    back = read_swf(out)
    assert [j.swf[10] for j in back] == [1, 0, 5, -1]
    assert_same_jobs(src, back)
    # Without the column the trace's status stays.
    write_swf(out, src, schedule_for(src))
    assert [row[10] for row in job_rows(out)] == ["1"] * 4
    for bad in (2.5, -3, float("inf")):
        with pytest.raises(ValueError, match="job 1: status"):
            write_swf(out, src, sched.assign(status=[bad, 1, 1, 1]))


def test_note_appears_once_when_written_again(tmp_path):
    src = read_swf(write(tmp_path, SOURCE_HEADER + dirty_body()))
    sched = schedule_for(src)
    first = tmp_path / "first.swf"
    # A note that already says "schedule simulated by schedsim" is not said twice.
    write_swf(first, src, sched, note="schedule simulated by schedsim (policy: ss)")
    notes = [ln for ln in header_of(first) if "schedsim" in ln]
    assert notes == [
        "; Note: schedule simulated by schedsim (policy: ss)",
        "; Note: schedsim cleaning: dropped: no size: 3 jobs "
        "(requested and allocated processors missing or 0)",
        "; Note: schedsim cleaning: dropped: run time missing: 1 jobs (run time -1)",
        "; Note: schedsim cleaning: estimate missing: used run time: 2 jobs "
        "(requested time -1 or 0)",
    ]
    assert "; Note: a note of the source log" in header_of(first)
    # Read back and written again: the same file, byte for byte.
    back = read_swf(first)
    again = tmp_path / "again.swf"
    write_swf(again, back, schedule_for(back), note="policy: ss")
    assert again.read_bytes() == first.read_bytes()
    # Another schedule of a part of it: its note replaces the old one in place, the
    # old cleaning notes stay (they still describe the jobs) and the new step follows.
    part = transforms.first(back, 2)
    write_swf(again, part, schedule_for(part), note="policy: easy")
    notes = [ln for ln in header_of(again) if "schedsim" in ln]
    assert notes[0] == "; Note: schedule simulated by schedsim (policy: easy)"
    assert notes[1:4] == [ln for ln in header_of(first) if "schedsim cleaning" in ln]
    assert notes[4:] == ["; Note: schedsim cleaning: dropped: after the first 2: 2 jobs"]
    assert "; MaxJobs: 2" in header_of(again)
