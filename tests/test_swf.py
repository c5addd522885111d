"""SWF reading, validation and writing (schedsim.workloads.swf)."""

from __future__ import annotations

import gzip
import json
import pickle
import re
import warnings
from pathlib import Path

import pandas as pd
import pytest

from schedsim.workloads import transforms
from schedsim.workloads.catalog import resolve
from schedsim.workloads.formats import READABLE
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
        CleaningStep(
            "dropped: no size", 1, "requested and allocated processors missing or 0 on line 27323"
        ),
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
        CleaningStep(
            "estimate missing: used run time",
            6,
            "requested time -1 or 0 on lines 771, 36821, 36822, ...",
        ),
    )
    # Counted independently: zcat | awk '!/^;/ && $9 <= 0 {print NR}'.
    assert w.cleaning[0].members.lines == (771, 36821, 36822, 48931, 52832, 52833)


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
        CleaningStep("estimate missing: used run time", 1, "requested time -1 or 0 on line 13"),
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
    "negative processors": (
        swf_line(2, req=-2),
        "requested_processors",
        "'-2' is negative (only -1 means missing)",
    ),
    "negative requested time": (
        swf_line(2, req_time=-7),
        "requested_time",
        "'-7' is negative (only -1 means missing)",
    ),
    "negative job number": (
        swf_line(-5),
        "job_number",
        "'-5' is negative (only -1 means missing)",
    ),
    "letter O for zero": (
        swf_line(2).replace("100", "1O0", 1),
        "run_time",
        "'1O0' is not a number",
    ),
    "word": (swf_line(2, alloc="x"), "allocated_processors", "'x' is not a number"),
    "word in an unused field": (swf_line(2, status="ok"), "status", "'ok' is not a number"),
    "underscore": (swf_line(2, alloc="1_0"), "allocated_processors", "'1_0' is not a number"),
    "arabic digits": (swf_line(2, alloc="١٢"), "allocated_processors", "'١٢' is not a number"),
    "nan": (swf_line(2, cpu="nan"), "average_cpu_time", "'nan' is not a number"),
    "inf": (swf_line(2, req_time="inf"), "requested_time", "'inf' is not a number"),
    "beyond a float": (
        swf_line(2, cpu="1e400"),
        "average_cpu_time",
        "'1e400' is beyond a float's range",
    ),
    "fractional processors": (
        swf_line(2, req=2.5),
        "requested_processors",
        "'2.5' is not a whole number",
    ),
    "fractional status": (swf_line(2, status=1.5), "status", "'1.5' is not a whole number"),
    "17 fields": (
        swf_line(2).rsplit(" ", 1)[0],
        "think_time",
        "missing: the line has 17 fields, SWF needs 18",
    ),
    "19 fields": (swf_line(2) + " 5", None, "the line has 19 fields, SWF needs 18"),
    "job number missing": (swf_line(-1), "job_number", "job number is missing (-1)"),
    "duplicate": (swf_line(1, 99), "job_number", "duplicate job number 1 (first on line 2)"),
}


def body_with(line: str) -> str:
    """A small file whose line 4 is ``line`` (comment and blank lines count)."""
    return "; Version: 2.2\n" + swf_line(1) + "\n\n" + line + "\n" + swf_line(3) + "\n"


def assert_located(tmp_path: Path, err: SWFError, field: str | None, reason: str) -> None:
    assert err.line == 4
    assert err.field == field
    where = f"{tmp_path / 'bad.swf'}:4:"
    if field is None:
        assert str(err) == f"{where} {reason}"
    else:
        assert str(err) == f"{where} field {SWF_FIELDS.index(field) + 1} ({field}): {reason}"


@pytest.mark.parametrize("strict", [False, True], ids=["default", "strict"])
@pytest.mark.parametrize(("line", "field", "reason"), MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_line_names_file_line_and_field(tmp_path, line, field, reason, strict):
    err = read_error(tmp_path, body_with(line), strict=strict)
    assert_located(tmp_path, err, field, reason)


#: What the default reader cleans and counts, and strict mode refuses: (line, field,
#: strict mode's reason, the default reader's step, its detail, job 2's changed fields).
UNUSUAL = {
    "negative user": (
        swf_line(2, user=-2),
        "user_id",
        "'-2' is negative (only -1 means missing)",
        "unusual user id, set to missing",
        "user id -2 on line 4",
        {"user": -1, 11: -1.0},
    ),
    "negative status (Sandia-Ross)": (
        swf_line(2, status=-4),
        "status",
        "'-4' is negative (only -1 means missing)",
        "unusual status, kept as read",
        "status -4 on line 4",
        {10: -4.0},
    ),
    "negative wait": (
        swf_line(2, wait=-9),
        "wait_time",
        "'-9' is negative (only -1 means missing)",
        "unusual wait time, set to missing",
        "wait time -9 on line 4",
        {2: -1.0},
    ),
    "negative cpu time": (
        swf_line(2, cpu=-3.5),
        "average_cpu_time",
        "'-3.5' is negative (only -1 means missing)",
        "unusual average CPU time, kept as read",
        "average CPU time -3.5 on line 4",
        {5: -3.5},
    ),
    "user id too large for a float": (
        swf_line(2, user=2**53),
        "user_id",
        "'9007199254740992' is too large: identifiers must be below 2**53 "
        "(9007199254740992), the largest whole number a float holds exactly",
        "unusual user id, set to missing",
        "user id 9007199254740992 on line 4",
        {"user": -1, 11: -1.0},
    ),
    "wait beyond 2**43 s": (
        swf_line(2, wait="1e13"),
        "wait_time",
        "'1e13' is too large: times must stay below 2**43 s (8796093022208 s, about 279,000 "
        "years), where a float still resolves a millisecond",
        "unusual wait time, set to missing",
        "wait time 10000000000000 on line 4",
        {2: -1.0},
    ),
    "submit missing": (
        swf_line(2, submit=-1),
        "submit_time",
        "submit time is missing (-1)",
        "dropped: submit time missing",
        "submit time -1 on line 4",
        None,
    ),
}


@pytest.mark.parametrize(
    ("line", "field", "reason", "step", "detail", "changed"), UNUSUAL.values(), ids=UNUSUAL.keys()
)
def test_strict_refuses_what_the_default_reader_cleans(
    tmp_path, line, field, reason, step, detail, changed
):
    err = read_error(tmp_path, body_with(line), strict=True)
    assert_located(tmp_path, err, field, reason)


@pytest.mark.parametrize(
    ("line", "field", "reason", "step", "detail", "changed"), UNUSUAL.values(), ids=UNUSUAL.keys()
)
def test_default_reader_cleans_and_counts_unused_fields(
    tmp_path, line, field, reason, step, detail, changed
):
    w = read_swf(write(tmp_path, body_with(line)))
    assert [str(s) for s in w.cleaning] == [f"{step}: 1 jobs ({detail})"]
    by_id = {j.id: j for j in w}
    if changed is None:
        assert sorted(by_id) == [1, 3]
        return
    assert sorted(by_id) == [1, 2, 3]
    job, written = by_id[2], [float(x) for x in line.split()]
    for key, value in changed.items():
        assert (getattr(job, key) if isinstance(key, str) else job.swf[key]) == value
    # Everything else is as written.
    unchanged = [i for i in range(18) if i not in changed]
    assert [job.swf[i] for i in unchanged] == [written[i] for i in unchanged]
    assert (job.id, job.submit, job.run_time, job.size, job.estimate) == (2, 0, 100, 4, 200)


#: Per unused field (0-based): the label of its step and whether an unusual value is
#: set to missing (True) or kept as read (False).
UNUSED_FIELDS = {
    2: ("wait time", True),
    5: ("average CPU time", False),
    6: ("used memory", False),
    9: ("requested memory", False),
    10: ("status", False),
    11: ("user id", True),
    12: ("group id", True),
    13: ("executable id", True),
    14: ("queue id", True),
    15: ("partition id", True),
    16: ("preceding job", False),
    17: ("think time", False),
}


@pytest.mark.parametrize("index", list(UNUSED_FIELDS), ids=[SWF_FIELDS[i] for i in UNUSED_FIELDS])
def test_every_unused_field_is_lenient_by_default_and_strict_on_request(tmp_path, index):
    label, to_missing = UNUSED_FIELDS[index]
    lines = [swf_line(i, 10 * i).split() for i in range(1, 6)]
    for row in (1, 3):
        lines[row][index] = "-7"
    path = write(tmp_path, "".join(" ".join(r) + "\n" for r in lines))
    w = read_swf(path)
    how = "set to missing" if to_missing else "kept as read"
    assert [str(s) for s in w.cleaning] == [
        f"unusual {label}, {how}: 2 jobs ({label} -7 on lines 2, 4)"
    ]
    cleaned = -1.0 if to_missing else -7.0
    assert [j.swf[index] for j in w] == [
        cleaned if r[index] == "-7" else float(r[index]) for r in lines
    ]
    record = {11: "user", 12: "group", 13: "app", 14: "queue", 15: "partition"}.get(index)
    if record:
        assert [getattr(j, record) for j in w] == [int(j.swf[index]) for j in w]
    assert w.cleaning[0].members.ids == (2, 4)
    err = read_error(tmp_path, "".join(" ".join(r) + "\n" for r in lines), strict=True)
    assert (err.line, err.field) == (2, SWF_FIELDS[index])
    assert "'-7' is negative (only -1 means missing)" in str(err)


def test_first_bad_line_is_reported(tmp_path):
    # A negative value (rejected after parsing) before a non-number (rejected by
    # the parser): the earlier line must win either way.
    lines = [swf_line(i, i) for i in range(1, 9)]
    lines[2] = swf_line(3, 3, run=-7)
    lines[5] = swf_line(6, 6, alloc="abc")
    for strict in (False, True):
        assert read_error(tmp_path, "\n".join(lines), strict=strict).line == 3
    lines[5] = swf_line(6, 6, wait=-9)
    for strict in (False, True):
        assert read_error(tmp_path, "\n".join(lines), strict=strict).line == 3
    # An unused field: refused on line 3 in strict mode only; by default the
    # non-number on line 6 is the first error.
    lines[2] = swf_line(3, 3, status=-4)
    lines[5] = swf_line(6, 6, alloc="abc")
    assert read_error(tmp_path, "\n".join(lines), strict=True).line == 3
    err = read_error(tmp_path, "\n".join(lines))
    assert (err.line, err.field) == (6, "allocated_processors")
    # Within a line, format before values.
    lines[2] = swf_line(3, 3, run=-7, status="x")
    assert read_error(tmp_path, "\n".join(lines)).field == "status"


def test_header_value_that_is_not_an_integer(tmp_path):
    err = read_error(tmp_path, "; Version: 2\n; UnixStartTime: soon\n" + swf_line(1) + "\n")
    assert (err.line, err.field) == (2, None)
    assert "UnixStartTime" in str(err) and "'soon'" in str(err)


def test_empty_file_names_the_file(tmp_path):
    for body, says in (
        ("", "an empty file (0 bytes), no jobs; schedsim reads SWF"),
        ("; Version: 2.2\n;\n\n   \n", "no job lines (empty SWF file: only 2 comment lines)"),
        ("\n  \n\t\n", "no job lines (empty SWF file: only blank lines)"),
    ):
        err = read_error(tmp_path, body)
        assert err.line is None and err.field is None
        assert str(err).startswith(f"{tmp_path / 'bad.swf'}: {says}")


def test_all_jobs_dropped_is_an_error(tmp_path):
    err = read_error(tmp_path, swf_line(1, run=-1) + "\n" + swf_line(2, req=0, alloc=0) + "\n")
    assert "all 2 were dropped" in str(err)


# -- the field a size comes from (DESIGN.md "Job size") -----------------------------


def test_a_size_too_large_is_named_by_the_field_it_comes_from(tmp_path):
    # Both counts too large: the job's size is field 8's (above 0), so field 8 is named,
    # not field 5, which comes first on the line. Was: field 5 (allocated_processors).
    err = read_error(tmp_path, swf_line(1, alloc=2**32, req=2**33) + "\n")
    assert (err.line, err.field) == (1, "requested_processors")
    assert f"'{2**33}' is too large: a job's size (here its requested processors" in str(err)
    # Field 8 not above 0: the size is field 5's, and field 5 is named.
    err = read_error(tmp_path, swf_line(1, alloc=2**32, req=-1) + "\n")
    assert (err.line, err.field) == (1, "allocated_processors")
    assert "here its allocated processors, field 5, as field 8 is not above 0" in str(err)


def test_a_wrong_allocated_count_says_where_the_size_comes_from(tmp_path):
    # The job's size (field 8) is fine; the value at fault is field 5's, and the message
    # says that the size is not what is wrong.
    for alloc, what in (("-5", "is negative (only -1 means missing)"), (2**32, "is too large")):
        err = read_error(tmp_path, swf_line(1, alloc=alloc, req=16) + "\n")
        assert (err.line, err.field) == (1, "allocated_processors")
        assert what in str(err)
        assert "the job's size, 16, comes from field 8, requested processors" in str(err)
    # A size from field 5 itself gets no such note.
    err = read_error(tmp_path, swf_line(1, alloc="-5", req=-1) + "\n")
    assert err.field == "allocated_processors" and "comes from" not in str(err)


def test_no_size_names_both_fields(tmp_path):
    err = read_error(tmp_path, swf_line(1, alloc=0, req=-1) + "\n", clean=False)
    assert (err.line, err.field) == (1, "requested_processors")
    assert (
        "no size: neither field 8 (requested processors, -1) nor field 5 (allocated "
        "processors, 0) is above 0" in str(err)
    )


# -- headers that cannot be what they say --------------------------------------------


@pytest.mark.parametrize("value", ["1,024", "1e3", "64.5", "64abc", "0x40"])
def test_a_machine_size_is_a_whole_number_not_its_first_digits(tmp_path, value):
    # Was: '1,024' and '1e3' read as a machine of 1 processor, '64.5' as 64, in silence.
    err = read_error(tmp_path, f"; Version: 2.2\n; MaxProcs: {value}\n{swf_line(1)}\n")
    assert (err.line, err.field) == (2, None)
    assert f"header MaxProcs: '{value}' is not an integer" in str(err)


@pytest.mark.parametrize(
    ("value", "size"),
    [("338 (batch partition; 512 total)", 338), ("128 nodes", 128), ("64(x4)", 64), ("+8", 8)],
)
def test_a_machine_size_may_be_followed_by_words(tmp_path, value, size):
    w = read_swf(write(tmp_path, f"; MaxNodes: {value}\n{swf_line(1)}\n"))
    assert w.header.machine_size == size


def test_a_repeated_header_key_must_not_contradict_itself(tmp_path):
    body = f"; MaxProcs: 64\n; Note: x\n; MaxProcs: 128\n{swf_line(1)}\n"
    err = read_error(tmp_path, body)
    assert (err.line, err.field) == (3, None)
    assert "header MaxProcs: '128' contradicts '64' on line 1" in str(err)
    # The same value again (other words after it) is no contradiction.
    w = read_swf(write(tmp_path, f"; MaxProcs: 64\n; MaxProcs: 64 (all)\n{swf_line(1)}\n"))
    assert w.header.max_procs == 64
    err = read_error(tmp_path, f"; TimeZoneString: UTC\n; TimeZoneString: CET\n{swf_line(1)}\n")
    assert err.line == 2 and "contradicts 'UTC' on line 1" in str(err)
    # Keys the reader does not interpret may repeat as they like.
    read_swf(write(tmp_path, f"; Note: a\n; Note: b\n{swf_line(1)}\n"))


@pytest.mark.parametrize("value", ["99999999999999999", "-99999999999999", str(253402300800)])
def test_a_start_time_is_a_date(tmp_path, value):
    err = read_error(tmp_path, f"; UnixStartTime: {value}\n{swf_line(1)}\n")
    assert err.line == 1 and "is no date (seconds since 1970 of a day in the years 1 to" in str(err)
    read_swf(write(tmp_path, f"; UnixStartTime: 253402300799\n{swf_line(1)}\n"))


# -- files that are not SWF ----------------------------------------------------------

READS = READABLE


@pytest.mark.parametrize(
    ("data", "line", "looks"),
    [
        (b"id,submit,run\n1,0,100\n", 1, "CSV (commas between the values)"),
        (b"; a comment\n\n1,0,100,4\n", 3, "CSV (commas between the values)"),
        (b"1, 0, 0, 100, 4\n", 1, "CSV (commas between the values)"),
        (b"id;submit;run\n1;0;100\n", 1, "CSV (semicolons between the values)"),
        (b'{"jobs": [1, 2]}\n', 1, "JSON"),
        (b"\n  [1, 2, 3]\n", 2, "JSON"),
        (b"<!DOCTYPE html>\n<html><body>Not Found</body></html>\n", 1, "HTML or XML"),
        (b"; MaxProcs: 4\n1 0 0 1\x00 4 -1\n", 2, "binary data (a NUL byte)"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 3, "binary data (a NUL byte)"),
        (b"PAR1\x15\x04", None, "a Parquet file (schedsim.workloads.catalog.load reads it)"),
        (b"BZh91AY&SY", None, "bzip2-compressed data"),
        (b"\xfd7zXZ\x00\x00", None, "xz-compressed data"),
        (b"\x28\xb5\x2f\xfd\x00", None, "zstd-compressed data"),
        (b"PK\x03\x04\x14\x00", None, "a zip archive"),
        ("; MaxProcs: 4\n".encode("utf-16"), None, "UTF-16 text"),
        (gzip.compress(gzip.compress(b"1 0 0")), None, "gzip data inside gzip data (compressed"),
        (b"x" * 257 + b"ustar\x0000" + b"\x00" * 100, None, "a tar archive"),
    ],
    ids=[
        "csv",
        "csv after a header",
        "csv with blanks",
        "csv with semicolons",
        "json",
        "json array",
        "html",
        "nul",
        "png",
        "parquet",
        "bzip2",
        "xz",
        "zstd",
        "zip",
        "utf-16",
        "gzip twice",
        "tar",
    ],
)
@pytest.mark.parametrize("gz", [False, True], ids=["plain", "gzip"])
def test_a_file_that_is_not_swf_is_told_for_what_it_is(tmp_path, data, line, looks, gz):
    # Was: "field 2 (submit_time): missing: the line has 1 fields, SWF needs 18" and such.
    path = tmp_path / "bad.swf"
    path.write_bytes(gzip.compress(data) if gz else data)
    with pytest.raises(SWFError) as info:
        read_swf(path)
    err = info.value
    assert (err.line, err.field) == (line, None)
    where = str(path) if line is None else f"{path}:{line}"
    assert str(err).startswith(f"{where}: this looks like {looks}")
    assert str(err).endswith(f", not SWF text; {READS}")


def test_what_only_looks_odd_further_down_is_the_line_readers(tmp_path):
    # A comma or a NUL byte on a later line (past the first 8 KiB for the NUL) is a
    # malformed line: its line and field are named, as for any other.
    body = swf_line(1) + "\n" + swf_line(2, run="1,5") + "\n"
    err = read_error(tmp_path, body)
    assert (err.line, err.field) == (2, "run_time") and "'1,5' is not a number" in str(err)
    many = "".join(swf_line(i) + "\n" for i in range(1, 300))
    err = read_error(tmp_path, many + swf_line(300, status="1\x00") + "\n")
    assert (err.line, err.field) == (300, "status")
    # A comment after the values of a job line is no CSV either.
    err = read_error(tmp_path, swf_line(1) + " ; a note\n")
    assert err.line == 1 and "the line has 21 fields" in str(err)


def test_empty_gzip_data_is_told_apart_from_an_empty_file(tmp_path):
    err = read_error(tmp_path, "")
    path = write(tmp_path, "", "e.swf.gz", gz=True)
    with pytest.raises(SWFError, match=r"e\.swf\.gz: gzip data of 0 bytes, no jobs"):
        read_swf(path)
    assert "an empty file (0 bytes)" in str(err)


def test_a_long_token_is_shown_cut_short(tmp_path):
    err = read_error(tmp_path, swf_line(1, status="x" * 100_000) + "\n")
    assert err.field == "status"
    assert "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (100,000 characters) is not a number" in (
        str(err)
    )
    assert len(str(err)) < 300


def test_a_hash_comment_gets_a_hint(tmp_path):
    err = read_error(tmp_path, "# id submit wait\n" + swf_line(1) + "\n")
    assert (err.line, err.field) == (1, "allocated_processors")  # the first one missing
    assert "the line has 4 fields, SWF needs 18 (SWF comment lines start with ';')" in str(err)
    err = read_error(tmp_path, "#" + swf_line(1) + "\n")
    assert (err.line, err.field) == (1, "job_number")
    assert "'#1' is not a number (SWF comment lines start with ';')" in str(err)


# -- where a job and header keys are, for later messages ---------------------------


def test_source_lines_finds_a_job_and_header_keys(tmp_path):
    from schedsim.workloads.swf import source_lines

    body = "; MaxNodes: 8\n\n; MaxProcs: 16\n" + swf_line(1) + "\n" + swf_line(2, req=12) + "\n"
    path = write(tmp_path, body, "s.swf.gz", gz=True)
    w = read_swf(path)
    job = next(j for j in w if j.id == 2)
    keys = ("MaxProcs", "MaxNodes", "TimeZone")
    assert source_lines(path, job=job, keys=keys) == (5, {"MaxNodes": 1, "MaxProcs": 3})
    assert source_lines(path, keys=("MaxProcs",), header=w.header) == (None, {"MaxProcs": 3})
    # A file that no longer holds the job or the value: nothing is named.
    path.write_bytes(gzip.compress(body.replace("16", "32").replace(" 12 ", " 13 ").encode()))
    assert source_lines(path, job=job, keys=("MaxProcs",), header=w.header) == (None, {})
    path.unlink()
    assert source_lines(path, job=job, keys=keys) == (None, {})
    assert source_lines(None, job=job) == (None, {})


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
        (swf_line(2, submit=-1), "submit_time", "submit time is missing"),
    ],
)
@pytest.mark.parametrize("strict", [False, True], ids=["default", "strict"])
def test_unclean_read_refuses_unusable_jobs(tmp_path, line, field, text, strict):
    body = swf_line(1) + "\n" + line + "\n"
    err = read_error(tmp_path, body, clean=False, strict=strict)
    assert (err.line, err.field) == (2, field)
    assert text in str(err)


def test_unclean_read_of_clean_file(tmp_path):
    w = read_swf(write(tmp_path, swf_line(1) + "\n" + swf_line(2, req_time=-1) + "\n"), clean=False)
    assert len(w) == 2
    assert [s.name for s in w.cleaning] == ["estimate missing: used run time"]


# -- real logs that a strict reader refused (issue 15) ---------------------------


def test_a_status_of_minus_four_is_counted_not_refused(tmp_path):
    """Sandia-Ross-2001-1.1-cln: status -4 on three lines (17218 first)."""
    lines = [swf_line(i, i, status=-4 if i in (3, 4, 7) else 1) for i in range(1, 9)]
    path = write(tmp_path, HEADER + "\n".join(lines) + "\n")
    w = read_swf(path)
    assert len(w) == 8
    assert [str(s) for s in w.cleaning] == [
        "unusual status, kept as read: 3 jobs (status -4 on lines 10, 11, 14)"
    ]
    assert [j.swf[10] for j in w] == [-4.0 if j.id in (3, 4, 7) else 1.0 for j in w]
    err = read_error(tmp_path, HEADER + "\n".join(lines) + "\n", strict=True)
    assert (err.line, err.field) == (10, "status")


def test_lines_with_every_field_missing_are_dropped_and_counted(tmp_path):
    """LLNL-Thunder-2007-1.1-cln: 1,190 lines whose every field but the job number is
    -1 (line 325 first). They have no size, so they are counted as such."""
    empty = " ".join(["-1"] * 17)
    lines = [swf_line(1, 0), f"2 {empty}", swf_line(3, 5), f"4 {empty}", f"5 {empty}"]
    lines += [swf_line(6, -1), swf_line(7, 12)]
    body = "\n".join(lines) + "\n"
    w = read_swf(write(tmp_path, body))
    assert [j.id for j in w] == [1, 3, 7]
    assert [str(s) for s in w.cleaning] == [
        "dropped: no size: 3 jobs (requested and allocated processors missing or 0 "
        "on lines 2, 4, 5)",
        "dropped: submit time missing: 1 jobs (submit time -1 on line 6)",
    ]
    # Strict mode refuses them, as the reader always did.
    err = read_error(tmp_path, body, strict=True)
    assert (err.line, err.field) == (2, "submit_time")
    assert "submit time is missing (-1)" in str(err)


def test_the_job_number_of_a_dropped_line_is_not_looked_at(tmp_path):
    lines = [swf_line(1), swf_line(-1, run=-1), swf_line(1, req=0, alloc=0), swf_line(2, 5)]
    body = "\n".join(lines) + "\n"
    w = read_swf(write(tmp_path, body))
    assert [j.id for j in w] == [1, 2]
    assert [(s.name, s.count) for s in w.cleaning] == [
        ("dropped: no size", 1),
        ("dropped: run time missing", 1),
    ]
    err = read_error(tmp_path, body, strict=True)
    assert (err.line, err.field) == (2, "job_number")
    # A loaded line still needs its own number, in either mode.
    for strict in (False, True):
        err = read_error(tmp_path, swf_line(1) + "\n" + swf_line(1, 5) + "\n", strict=strict)
        assert "duplicate job number 1 (first on line 1)" in str(err)


def test_values_on_a_dropped_line_are_not_counted_twice(tmp_path):
    body = swf_line(1) + "\n" + swf_line(2, req=0, alloc=0, status=-4, user=-3) + "\n"
    w = read_swf(write(tmp_path, body))
    assert [s.name for s in w.cleaning] == ["dropped: no size"]


def test_used_fields_are_refused_even_on_a_line_that_would_be_dropped(tmp_path):
    err = read_error(tmp_path, swf_line(1) + "\n" + swf_line(2, req=0, alloc=0, run=-5) + "\n")
    assert (err.line, err.field) == (2, "run_time")


def test_strict_and_default_read_a_clean_log_alike(kth):
    strict = read_swf(resolve("kth"), strict=True)
    assert strict.jobs == kth.jobs
    assert [j.swf for j in strict] == [j.swf for j in kth]
    assert strict.cleaning == kth.cleaning


def test_catalog_load_passes_strict(tmp_path):
    from schedsim.workloads import catalog

    path = write(tmp_path, swf_line(1) + "\n" + swf_line(2, 5, status=-4) + "\n")
    assert catalog.load(str(path)).cleaning[0].name == "unusual status, kept as read"
    with pytest.raises(SWFError, match="field 11 \\(status\\)"):
        catalog.load(str(path), strict=True)


def test_strict_is_a_run_option_and_a_study_key(tmp_path, capsys):
    from schedsim.app.cli import main
    from schedsim.app.study import RunConfig, StudyError

    path = write(tmp_path, swf_line(1) + "\n" + swf_line(2, 5, status=-4) + "\n")
    meta = RunConfig(workload=str(path), nodes=8).simulation().run().meta
    assert meta["cleaning"] == ["unusual status, kept as read: 1 jobs (status -4 on line 2)"]
    with pytest.raises(SWFError, match=":2: field 11 \\(status\\)"):
        RunConfig(workload=str(path), nodes=8, strict=True).build_workload()
    # Off is the default: existing run ids do not change.
    assert RunConfig(strict=False) == RunConfig()
    assert "strict" not in RunConfig().identity()
    assert RunConfig(strict=True).run_id() != RunConfig().run_id()
    assert RunConfig.from_dict({"strict": True}).strict is True
    with pytest.raises(StudyError, match="strict: expected true or false"):
        RunConfig(strict="yes")  # type: ignore[arg-type]
    with pytest.raises(StudyError, match="strict: applies only to a workload read"):
        RunConfig(workload="lublin", strict=True)
    argv = ["run", "--workload", str(path), "--nodes", "8", "--no-progress"]
    assert main([*argv, "--out", str(tmp_path / "lenient")]) == 0
    out = capsys.readouterr().out
    assert "cleaning: unusual status, kept as read: 1 jobs (status -4 on line 2)" in out
    assert main([*argv, "--strict", "--out", str(tmp_path / "strict")]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        f"schedsim: error: {path}:2: field 11 (status): '-4' is negative (only -1 means missing)"
    )


# -- numbers that a run would get silently wrong (issue 15) -------------------------


def test_job_numbers_beyond_a_float_are_refused(tmp_path):
    # 2**63 ended in an OverflowError traceback in the job table; below it, from 2**53
    # on, a float rounds the number (9007199254740993 read as ...992).
    for number in (2**63, 2**64 + 5, 2**53 + 1, 2**53):
        err = read_error(tmp_path, swf_line(1) + "\n" + swf_line(number) + "\n")
        assert (err.line, err.field) == (2, "job_number")
        assert f"'{number}' is too large: job numbers must be below 2**53" in str(err)
    w = read_swf(write(tmp_path, swf_line(2**53 - 1) + "\n"))
    assert w[0].id == 2**53 - 1


def test_a_hand_built_job_with_an_id_beyond_int64_is_a_value_error():
    assert Job(2**63 - 1, 0.0, 1.0, 1, 1.0).id == 2**63 - 1
    for bad in (2**63, -(2**63) - 1):
        with pytest.raises(ValueError, match=f"job id {bad} does not fit in a 64-bit integer"):
            Job(bad, 0.0, 1.0, 1, 1.0)


TOO_LARGE = "times must stay below 2**43 s (8796093022208 s, about 279,000 years)"


@pytest.mark.parametrize(
    ("kwargs", "field", "text"),
    [
        ({"submit": "1e18"}, "submit_time", f"'1e18' is too large: {TOO_LARGE}"),
        ({"run": "1e23", "req_time": 100}, "run_time", f"'1e23' is too large: {TOO_LARGE}"),
        ({"req_time": 2**43}, "requested_time", f"'{2**43}' is too large: {TOO_LARGE}"),
        ({"run": "1e300"}, "run_time", f"'1e300' is too large: {TOO_LARGE}"),
        (
            {"submit": 2**43 - 100, "req_time": 200},
            "requested_time",
            f"submit time {2**43 - 100} + requested time 200 = 8796093022308 s: the job's end "
            f"is too late, {TOO_LARGE}",
        ),
        (
            {"submit": 2**43 - 100, "run": 300, "req_time": 50},
            "run_time",
            "submit time 8796093022108 + run time 300 = 8796093022408 s",
        ),
        (
            {"req": 2**31 + 1},
            "requested_processors",
            "is too large: a job's size (here its requested processors, field 8, when above 0) "
            "is at most 2**31 (2147483648) processors",
        ),
        ({"alloc": 10**12}, "allocated_processors", "'1000000000000' is too large: at most 2**31"),
        (
            {"alloc": 2**31 + 1, "req": -1},
            "allocated_processors",
            "is too large: a job's size (here its allocated processors, field 5, as field 8 is "
            "not above 0) is at most 2**31",
        ),
    ],
    ids=[
        "submit",
        "run",
        "estimate",
        "run 1e300",
        "end by estimate",
        "end by run",
        "req",
        "alloc",
        "size from alloc",
    ],
)
@pytest.mark.parametrize("strict", [False, True], ids=["default", "strict"])
def test_values_whose_arithmetic_loses_precision_are_refused(tmp_path, kwargs, field, text, strict):
    err = read_error(tmp_path, swf_line(1) + "\n" + swf_line(2, **kwargs) + "\n", strict=strict)
    assert (err.line, err.field) == (2, field)
    assert text in str(err)


def test_values_just_within_the_bounds_load_exactly(tmp_path):
    line = swf_line(1, 2**43 - 400, run=100, req_time=300, req=2**31, alloc=2**31)
    (job,) = read_swf(write(tmp_path, line + "\n"))
    assert (job.submit, job.run_time, job.estimate, job.size) == (2**43 - 400, 100, 300, 2**31)
    # A float still resolves a millisecond there.
    assert (job.submit + 0.001) - job.submit > 0.0009


def run_cli(tmp_path: Path, capsys, body: str) -> tuple[int, str, Path]:
    from schedsim.app.cli import main

    path, out = write(tmp_path, body, "huge.swf"), tmp_path / "out"
    code = main(["run", "--workload", str(path), "--no-progress", "--out", str(out)])
    return code, capsys.readouterr().err, out


def test_a_submit_time_of_1e18_is_refused_not_rounded(tmp_path, capsys):
    # Was: a 300 s run became 256 s in jobs.csv and schedule.swf (exit 0).
    body = "; MaxProcs: 8\n" + swf_line(1, "1e18", run=300, req_time=600) + "\n"
    code, err, out = run_cli(tmp_path, capsys, body)
    if code == 0:
        assert pd.read_csv(out / "jobs.csv")["run"].tolist() == [300.0]
    assert code == 2
    assert err.startswith(f"schedsim: error: {tmp_path / 'huge.swf'}:2: field 2 (submit_time): ")


def test_a_run_time_of_1e23_is_refused_not_lost(tmp_path, capsys):
    # Was (exit 0): the job behind it starts at 1e23, where its 300 s run is lost
    # (1e23 + 300 == 1e23): run 0 in jobs.csv and in schedule.swf.
    body = "; MaxProcs: 8\n" + "\n".join(
        [swf_line(1, 0, run="1e23", req_time="1e23"), swf_line(2, 10, alloc=8, req=8, run=300)]
    )
    code, err, out = run_cli(tmp_path, capsys, body + "\n")
    if code == 0:
        jobs = pd.read_csv(out / "jobs.csv").set_index("id")
        written = {int(r[0]): float(r[3]) for r in job_rows(out / "schedule.swf")}
        assert (jobs.loc[2, "run"], written[2]) == (300.0, 300.0)
    assert code == 2
    assert f"{tmp_path / 'huge.swf'}:2: field 4 (run_time): '1e23' is too large" in err


def test_a_run_time_of_1e300_is_refused_not_overflowed(tmp_path, capsys):
    # Was: overflow warnings and null weighted metrics, exit 0.
    body = "; MaxProcs: 8\n" + swf_line(1, 0, run="1e300", req_time="1e300") + "\n"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an overflow warning fails the test
        code, err, out = run_cli(tmp_path, capsys, body)
    if code == 0:
        summary = json.loads((out / "summary.json").read_text())["summary"]
        assert summary["weighted_completion_time"] is not None
    assert code == 2
    assert f"{tmp_path / 'huge.swf'}:2: field 4 (run_time): '1e300' is too large" in err


# -- encodings, line ends and header values ---------------------------------------


def test_a_byte_order_mark_before_the_header_is_ignored(tmp_path):
    # Was: "line 1 has 3 fields".
    body = "; MaxProcs: 64\n" + swf_line(1) + "\n"
    for gz in (False, True):
        path = tmp_path / f"bom{gz}.swf"
        data = b"\xef\xbb\xbf" + body.encode()
        path.write_bytes(gzip.compress(data) if gz else data)
        assert read_swf(path).header.max_procs == 64
        assert read_header(path).max_procs == 64
        assert read_header(path).lines == ("; MaxProcs: 64",)
    # In Latin-1 files too (a header name that is not UTF-8).
    path = tmp_path / "latin.swf"
    path.write_bytes(b"\xef\xbb\xbf; Computer: Caf\xe9\n; MaxProcs: 64\n" + swf_line(1).encode())
    assert read_swf(path).header.fields["Computer"] == "Café"
    assert read_header(path).fields["Computer"] == "Café"


@pytest.mark.parametrize("end", ["\r", "\r\n", "\n"], ids=["CR", "CRLF", "LF"])
def test_line_ends_and_line_numbers(tmp_path, end):
    # Was (CR alone, old Mac files): "no job lines (empty SWF file)".
    lines = ["; MaxProcs: 64", swf_line(1), "", swf_line(2, 5)]
    w = read_swf(write(tmp_path, end.join(lines) + end))
    assert [j.id for j in w] == [1, 2] and w.header.max_procs == 64
    assert read_header(write(tmp_path, end.join(lines) + end)).max_procs == 64
    err = read_error(tmp_path, end.join([*lines, swf_line(3, run=-5)]) + end)
    assert err.line == 5
    err = read_error(tmp_path, end.join([*lines, swf_line(3, 5, status="x")]))
    assert err.line == 5


def test_mixed_line_ends_count_each_line(tmp_path):
    body = "; MaxProcs: 64\r" + swf_line(1) + "\r\n\n" + swf_line(2, 5) + "\n" + swf_line(3, run=-5)
    assert read_error(tmp_path, body).line == 5


@pytest.mark.parametrize(
    ("line", "key", "text"),
    [
        ("; MaxProcs: 99999999999999999999", "MaxProcs", "cannot be a machine size (at most 2**31"),
        ("; MaxNodes: 4294967296 (all of them)", "MaxNodes", "cannot be a machine size"),
        ("; TimeZone: 100000", "TimeZone", "'100000' is no UTC offset in seconds"),
        ("; MaxProcs: many", "MaxProcs", "'many' is not an integer"),
    ],
)
def test_header_values_that_cannot_be_what_they_say(tmp_path, line, key, text):
    # Was (MaxProcs): numpy's "Maximum allowed dimension exceeded", no file, no line.
    body = "; Version: 2.2\n" + line + "\n" + swf_line(1) + "\n"
    for reader in (read_swf, read_header):
        with pytest.raises(SWFError) as info:
            reader(write(tmp_path, body, "bad.swf"))
        err = info.value
        assert (err.line, err.field) == (2, None)
        assert str(err).startswith(f"{tmp_path / 'bad.swf'}:2: header {key}: ")
        assert text in str(err)
    ok = "; MaxProcs: 2147483648\n; MaxNodes: -1\n; TimeZone: -86399\n" + swf_line(1) + "\n"
    h = read_swf(write(tmp_path, ok)).header
    assert (h.max_procs, h.max_nodes, h.time_zone) == (2**31, None, -86399)


def test_the_first_wrong_line_is_reported_header_or_job(tmp_path):
    bad_header, bad_job = "; MaxProcs: many", swf_line(2, run=-5)
    err = read_error(tmp_path, "\n".join([bad_header, swf_line(1), bad_job]) + "\n")
    assert (err.line, err.field) == (1, None)
    err = read_error(tmp_path, "\n".join([swf_line(1), bad_job, bad_header]) + "\n")
    assert (err.line, err.field) == (2, "run_time")


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
    # The source said Double; the schedule written has no partial executions: No.
    assert header[4:7] == ["; MaxJobs: 4", "; MaxRecords: 4", "; Preemption: No"]
    assert header[:4] + header[7:9] == list(src.header.lines[:4] + src.header.lines[7:])
    back = read_swf(out)
    assert back.header.fields["MaxJobs"] == back.header.fields["MaxRecords"] == "4"
    write_swf(out, src, schedule_for(src), preemption="TS")
    assert "; Preemption: TS" in header_of(out) and "; Preemption: Double" not in header_of(out)


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
    partials = pd.DataFrame({"id": [1, 1], "start": [0.0, 50.0], "end": [20.0, 90.0], "size": 2})
    write_swf(out, w, schedule_for(w, wait=30.0), partials=partials, max_nodes=2, max_procs=2)
    assert header_of(out)[:7] == [
        "; Version: 2.2",
        "; MaxJobs: 1",
        "; MaxRecords: 3",
        "; Preemption: Double",
        "; UnixStartTime: 0",
        "; MaxNodes: 2",
        "; MaxProcs: 2",
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
        "(requested and allocated processors missing or 0 on lines 11, 12, 14)",
        "; Note: schedsim cleaning: dropped: run time missing: 1 jobs (run time -1 on line 13)",
        "; Note: schedsim cleaning: estimate missing: used run time: 2 jobs "
        "(requested time -1 or 0 on lines 15, 16)",
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
    # Read back, the schedule's missing estimates are found again: counted for the part.
    assert notes[4:] == [
        "; Note: schedsim cleaning: estimate missing: used run time: 1 jobs "
        "(requested time -1 or 0 on line 15; 2 in the whole log)",
        "; Note: schedsim cleaning: dropped: after the first 2: 2 jobs",
    ]
    assert "; MaxJobs: 2" in header_of(again)


# -- preemption in a written schedule: partial executions ------------------------------


def partial_notes(path: Path) -> list[str]:
    return [ln for ln in header_of(path) if ln.startswith("; Note: schedsim partial executions:")]


def two_jobs() -> Workload:
    """Job 1 (4 processors, submitted at 10.25) and job 2 (2 processors, at 20)."""
    return Workload.from_jobs(
        [
            Job(1, 10.25, 100.0, 4, 200.0, swf=(1, 10.25, -1, 100, 4, -1, -1, 4, 200, -1, 1,
                                                7, 3, -1, 1, -1, -1, -1)),
            Job(2, 20.0, 50.0, 2, 60.0, swf=(2, 20, -1, 50, 2, -1, -1, 2, 60, -1, 1,
                                             8, 3, -1, 1, -1, -1, -1)),
        ],
        name="two",
        max_procs=8,
    )  # fmt: skip


def test_partial_executions_follow_their_summary_line(tmp_path):
    """Job 1 held its processors three times (fractional instants), job 2 once."""
    w = two_jobs()
    # Job 1: submitted 10.25, ran [10.25, 40.6], [70.4, 100.7], [130.3, 170.2] (100.55 s
    # of run in all), ended at 170.2: wait = 170.2 - 10.25 - 100.55 = 59.4.
    schedule = pd.DataFrame(
        {"id": [1, 2], "wait": [59.4, 5.0], "run": [100.55, 50.0], "status": [1, 0]}
    )
    partials = pd.DataFrame(
        {
            "id": [1, 1, 1],
            "start": [70.4, 10.25, 130.3],  # any order: written in time order
            "end": [100.7, 40.6, 170.2],
            "size": [4, 4, 4],
        }
    )
    out = tmp_path / "s.swf"
    write_swf(out, w, schedule, partials=partials, note="policy: ss")
    rows = job_rows(out)
    assert [(r[0], r[2], r[3], r[4], r[10]) for r in rows] == [
        ("1", "59", "101", "4", "1"),  # summary: wait 59.4 and run 100.55, each rounded
        ("1", "0", "30", "4", "2"),  # instants after the submission, half up: 0 to 30.35
        ("1", "60", "30", "4", "2"),  # 60.15 -> 60, 90.45 -> 90
        ("1", "120", "40", "4", "3"),  # 120.05 -> 120, 159.95 -> 160 = the summary's end
        ("2", "5", "50", "2", "0"),
    ]
    # Every other field is the summary line's.
    for part in rows[1:4]:
        assert [f for i, f in enumerate(part) if i not in (2, 3, 4, 10)] == [
            f for i, f in enumerate(rows[0]) if i not in (2, 3, 4, 10)
        ]
    header = header_of(out)
    assert "; MaxJobs: 2" in header and "; MaxRecords: 5" in header
    assert "; Preemption: Double" in header
    at = header.index("; Note: schedule simulated by schedsim (policy: ss)")
    assert header[at + 1 : at + 3] == partial_notes(out) and len(partial_notes(out)) == 2
    # Read back: the summary lines are the jobs; the partial lines are skipped, counted.
    back = read_swf(out)
    assert [(j.id, j.run_time, j.swf[2], j.swf[10]) for j in back] == [
        (1, 101.0, 59.0, 1.0), (2, 50.0, 5.0, 0.0)
    ]  # fmt: skip
    step = back.cleaning[0]
    assert (step.name, step.count) == ("partial executions skipped: summary line used", 1)
    line = len(header) + 2  # the first partial line
    assert step.detail == f"status 2, 3 or 4 lines of jobs that have a summary line on line {line}"


def test_partial_lines_stay_inside_the_summary_line(tmp_path):
    """Instants are rounded, so a job's lines never overlap; the summary line's own end
    (wait and run each rounded) caps them: 0.4 + 0.4 rounds to 0 where 0.8 rounds to 1."""
    w = two_jobs()
    schedule = pd.DataFrame({"id": [1, 2], "wait": [0.4, 0.0], "run": [0.4, 50.0]})
    # Job 1 (submitted 10.25) held [10.25, 10.45] and [10.85, 11.05] ...
    partials = pd.DataFrame({"id": [1, 1], "start": [10.25, 10.85], "end": [10.45, 11.05]})
    write_swf(tmp_path / "s.swf", w, schedule, partials=partials.assign(size=4))
    rows = job_rows(tmp_path / "s.swf")
    # ... at offsets 0-0.2 and 0.6-0.8: 0-0 and 1-1, capped at the summary's end, 0.
    assert [(r[2], r[3], r[10]) for r in rows[:3]] == [("0", "0", "1"), ("0", "0", "2"),
                                                      ("0", "0", "3")]  # fmt: skip


def test_the_last_partial_says_how_the_job_ended(tmp_path):
    w = two_jobs()
    partials = pd.DataFrame(
        {"id": [1, 1, 2, 2], "start": [11, 50, 20, 40], "end": [30, 60, 30, 50], "size": 4}
    )
    for status, last in ((1, "3"), (0, "4"), (5, "4"), (-1, "2"), (float("nan"), "2")):
        schedule = pd.DataFrame(
            {"id": [1, 2], "wait": [1.0, 1.0], "run": [30.0, 30.0], "status": [status, 1]}
        )
        write_swf(tmp_path / "s.swf", w, schedule, partials=partials)
        assert [r[10] for r in job_rows(tmp_path / "s.swf")][:3] == [
            str(int(status)) if status == status else "-1", "2", last,
        ]  # fmt: skip
    # Without a status column, the trace's (1: completed).
    write_swf(tmp_path / "s.swf", w, schedule.drop(columns="status"), partials=partials)
    assert [r[10] for r in job_rows(tmp_path / "s.swf")] == ["1", "2", "3", "1", "2", "3"]


@pytest.mark.parametrize(
    ("partials", "message"),
    [
        ({"id": [9], "start": [30.0], "end": [40.0], "size": [4]},
         "partial executions of 1 jobs that are not in workload 'two' (first: job 9)"),
        ({"id": [1, 1], "start": [20.0, 30.0], "end": [35.0, 40.0], "size": [4, 4]},
         "job 1: partial execution from 30.0 to 40.0 on 4 processors is no stretch"),
        ({"id": [2], "start": [19.0], "end": [40.0], "size": [2]},
         "job 2: partial execution from 19.0 to 40.0 on 2 processors is no stretch of its "
         "life (submitted at 20.0"),
        ({"id": [2], "start": [30.0], "end": [29.0], "size": [2]}, "job 2: partial execution"),
        ({"id": [2], "start": [30.0], "end": [float("inf")], "size": [2]}, "job 2: partial"),
        ({"id": [2], "start": [30.0], "end": [40.0], "size": [0]}, "on 0 processors"),
    ],
)  # fmt: skip
def test_partial_executions_that_are_no_stretch_of_a_job_are_refused(
    partials: dict, message: str, tmp_path: Path
) -> None:
    schedule = pd.DataFrame({"id": [1, 2], "wait": [0.0, 0.0], "run": [100.0, 50.0]})
    with pytest.raises(ValueError, match=re.escape(message)):
        write_swf(tmp_path / "s.swf", two_jobs(), schedule, partials=pd.DataFrame(partials))
    assert not (tmp_path / "s.swf").exists()


@pytest.mark.parametrize(
    ("preemption", "with_partials", "message"),
    [
        ("Yes", True, "with partial executions the file says Double"),
        ("No", True, "with partial executions the file says Double"),
        ("Double", False, "without partial executions it says No, or TS"),
        ("Yes", False, "without partial executions it says No, or TS"),
        ("maybe", False, "preemption 'maybe'"),
    ],
)
def test_preemption_must_say_what_the_lines_are(
    preemption: str, with_partials: bool, message: str, tmp_path: Path
) -> None:
    schedule = pd.DataFrame({"id": [1, 2], "wait": [0.0, 0.0], "run": [100.0, 50.0]})
    partials = pd.DataFrame({"id": [2], "start": [20.0], "end": [70.0], "size": [2]})
    with pytest.raises(ValueError, match=re.escape(message)):
        write_swf(
            tmp_path / "s.swf", two_jobs(), schedule, preemption=preemption,
            partials=partials if with_partials else None,
        )  # fmt: skip


def test_partial_notes_say_how_preempted_jobs_show_once(tmp_path):
    src = read_swf(write(tmp_path, SOURCE_HEADER + dirty_body()))
    schedule = schedule_for(src)
    partials = pd.DataFrame({"id": [6, 6], "start": [5.0, 20.0], "end": [15.0, 113.4], "size": 4})
    out = tmp_path / "out.swf"
    write_swf(out, src, schedule, partials=partials, note="policy: ss")
    notes = partial_notes(out)
    assert len(notes) == 2
    text = " ".join(n.removeprefix("; Note: schedsim partial executions: ") for n in notes)
    assert "summary line" in text and "wait counts from the job's submission" in text
    # Read back and written again with the same partial executions: the same bytes.
    back = read_swf(out)
    again = tmp_path / "again.swf"
    write_swf(again, back, schedule_for(back), partials=partials, note="policy: ss")
    assert again.read_bytes() == out.read_bytes()
    # Without partial executions, no notes and Preemption: No; TS has its own note.
    write_swf(again, back, schedule_for(back))
    assert partial_notes(again) == [] and "; Preemption: No" in header_of(again)
    write_swf(again, back, schedule_for(back), preemption="TS")
    assert "; Preemption: TS" in header_of(again)
    assert [n.split(": ", 2)[2][:48] for n in partial_notes(again)] == [
        "jobs were suspended or requeued, but their parti"
    ]
    # A schedule written before partial executions existed: its notes give way.
    old = out.read_text().replace("; Preemption: Double", "; Preemption: Yes")
    old_notes = "; Note: schedsim preemption: SWF has one line per job, so a job that was\n"
    old = old.replace(notes[0] + "\n", old_notes).replace(notes[1] + "\n", "")
    old = "\n".join(ln for ln in old.splitlines() if not ln.startswith(" 6 ") or " 2 " not in ln)
    (tmp_path / "old.swf").write_text(old + "\n")
    write_swf(again, read_swf(tmp_path / "old.swf"), schedule, partials=partials, note="x")
    assert partial_notes(again) == notes
    assert not any("schedsim preemption" in ln for ln in header_of(again))


def test_the_header_says_the_machine_simulated(tmp_path):
    src = read_swf(write(tmp_path, HEADER + swf_line(1) + "\n"))
    out = tmp_path / "out.swf"
    # The header's MaxNodes (400, with words) and MaxProcs (64): a machine of 64 nodes of
    # one core differs in MaxNodes only: the line changes, a note names the log's values.
    write_swf(out, src, schedule_for(src), max_nodes=64, max_procs=64)
    header = header_of(out)
    assert "; MaxNodes: 64" in header and "; MaxProcs: 64" in header
    machine = [ln for ln in header if ln.startswith("; Note: schedsim machine:")]
    assert machine == [
        "; Note: schedsim machine: MaxNodes and MaxProcs are the simulated machine's; the "
        "log's own header says MaxNodes: 400 (48 interactive, 352 batch, 6 service, 10 I/O)"
    ]
    # Read back and written again, on it or on another machine: the note stays, once.
    back = read_swf(out)
    for nodes, cores in ((64, 1), (16, 4), (8, 1)):
        write_swf(tmp_path / "again.swf", back, schedule_for(back), max_nodes=nodes,
                  max_procs=nodes * cores)  # fmt: skip
        header = header_of(tmp_path / "again.swf")
        assert [ln for ln in header if ln.startswith("; Note: schedsim machine:")] == machine
        assert f"; MaxNodes: {nodes}" in header and f"; MaxProcs: {nodes * cores}" in header
    # The machine the header says: its lines are kept as they are, words and all.
    write_swf(out, src, schedule_for(src), max_nodes=400, max_procs=64)
    assert set(HEADER.splitlines()[2:4]) <= set(header_of(out))
    assert not [ln for ln in header_of(out) if ln.startswith("; Note: schedsim machine:")]


# -- reading partial executions ----------------------------------------------------------


def test_partial_lines_of_a_job_with_a_summary_line_are_skipped(tmp_path):
    body = "\n".join(
        [
            swf_line(1, 0, wait=50, run=100, status=1),  # summary: ran 100 s, ended at 150
            swf_line(1, 0, wait=0, run=60, status=2),
            swf_line(1, 0, wait=110, run=40, status=3),
            swf_line(2, 5, run=30, status=0),
            swf_line(3, 9, wait=70, run=20, status=4),  # a summary line may come later
            swf_line(3, 9, wait=10, run=30, status=0),
        ]
    )
    w = read_swf(write(tmp_path, "; Preemption: Double\n" + body + "\n"))
    assert [(j.id, j.run_time, j.swf[2], j.swf[10]) for j in w] == [
        (1, 100.0, 50.0, 1.0), (2, 30.0, -1.0, 0.0), (3, 30.0, 10.0, 0.0)
    ]  # fmt: skip
    assert [str(s) for s in w.cleaning] == [
        "partial executions skipped: summary line used: 2 jobs (status 2, 3 or 4 lines of "
        "jobs that have a summary line on lines 3, 6)"
    ]


def test_a_job_given_only_by_partial_lines_becomes_one_job(tmp_path):
    body = "\n".join(
        [
            swf_line(1, 0, wait=0, run=60, status=2, alloc=8, req=8),
            swf_line(2, 5, run=30, status=1),
            swf_line(1, 0, wait=110, run=40, status=3, alloc=4, user=9),
            swf_line(4, 8, wait=2, run=7, status=2),
            swf_line(4, 8, wait=20, run=3, status=4),
            swf_line(5, 9, wait=1, run=10, status=2),  # the run goes on (the log ends)
            swf_line(6, 10, wait=1, run=10, status=3),  # one line
        ]
    )
    w = read_swf(write(tmp_path, "; Preemption: Yes\n" + body + "\n"))
    jobs = {j.id: j for j in w}
    # Job 1: the first line's fields, run 60 + 40, wait = (0 + 110 + 40) - 0 - 100.
    one = jobs[1]
    assert (one.run_time, one.swf[2], one.size, one.user, one.swf[10]) == (100, 50, 8, 7, 1)
    assert (jobs[4].run_time, jobs[4].swf[2], jobs[4].swf[10]) == (10, 13, 0)  # 31 - 8 - 10
    assert (jobs[5].run_time, jobs[5].swf[2], jobs[5].swf[10]) == (10, 1, -1)
    assert (jobs[6].run_time, jobs[6].swf[10]) == (10, 1)
    assert [str(s) for s in w.cleaning] == [
        "partial executions merged: one job each: 4 jobs (status 2, 3 or 4 lines of jobs "
        "that have no summary line on lines 2, 5, 7, ...)"
    ]
    # A missing run on one line: the job's run is missing (dropped, counted).
    body = swf_line(1, 0, run=60, status=2) + "\n" + swf_line(1, 0, run=-1, status=3) + "\n"
    body += swf_line(2, 0, status=1) + "\n"
    w = read_swf(write(tmp_path, body))
    assert [j.id for j in w] == [2]
    assert [s.name for s in w.cleaning] == [
        "partial executions merged: one job each",
        "dropped: run time missing",
    ]
    # A negative run is refused on its own line.
    body = swf_line(1, 0, run=60, status=2) + "\n" + swf_line(1, 0, run=-5, status=3) + "\n"
    with pytest.raises(SWFError, match=r"t\.swf:2: field 4 \(run_time\): '-5' is negative"):
        read_swf(write(tmp_path, body))


def test_a_merged_workload_notes_its_merge_when_written(tmp_path):
    body = swf_line(1, 0, wait=0, run=60, status=2) + "\n"
    body += swf_line(1, 0, wait=110, run=40, status=3) + "\n"
    w = read_swf(write(tmp_path, body))
    out = tmp_path / "out.swf"
    write_swf(out, w, schedule_for(w))
    notes = [ln for ln in header_of(out) if ln.startswith("; Note: schedsim cleaning:")]
    assert notes == [
        "; Note: schedsim cleaning: partial executions merged: one job each: 1 jobs (status "
        "2, 3 or 4 lines of jobs that have no summary line on line 1)"
    ]
