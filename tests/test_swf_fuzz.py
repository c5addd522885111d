"""The SWF reader on generated files, valid and not (schedsim.workloads.swf, issue 15).

Files come from a grammar of header keys (good values, huge ones, words), comment and
blank lines, and job lines of plausible fields with a few replaced: in half the files
by what the default reader cleans (-1, other negatives and huge values in unused
fields), in the others by anything (other negatives, huge values, fractions and
non-numbers anywhere, a field too few or too many, repeated job numbers); separated
by blanks or tabs, with LF, CRLF or CR line ends (or a mix), a byte order mark, gzip
or not. Whatever the file, in either mode:

- it loads, and every loaded job has the values its line holds where a run uses them
  (job number, submit, run time, size, estimate) and in every field the reader keeps
  as read; a field the reader changed holds -1, held an unusual value, and the job is
  a member of the step that says so; every line is a loaded job or counted as dropped;
  a loaded workload written back by `write_swf` reads back as the same jobs;
- or it raises `SWFError` on one line that names the file, and for a line its number
  and (but for a wrong field count) its field, on a line that is there;
- and nothing else: no other exception. Strict mode refuses whatever the default
  refuses, and loads what it loads exactly as the default does.

The default run tries a modest number of files; ``pytest -m slow`` many more.
"""

from __future__ import annotations

import gzip
import math
import re
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schedsim.workloads.job import SWF_FIELDS
from schedsim.workloads.swf import MAX_ID, MAX_PROCS, MAX_TIME, SWFError, read_header, read_swf
from schedsim.workloads.swf import write_swf as write_schedule
from schedsim.workloads.transforms import first
from schedsim.workloads.workload import Workload

# -- the grammar ------------------------------------------------------------------

MISSING = st.sampled_from(["-1", "-1.0", "-1.00"])
NEGATIVE = st.sampled_from(["-2", "-4", "-3.5", "-100", "-0.5"])
HUGE = st.sampled_from(
    [
        "1e18", "1e23", "1e300", str(2**31), str(2**31 + 1), str(2**43), "8796093022207",
        str(2**53 - 1), str(2**53), str(2**53 + 1), str(2**63), "99999999999999999999",
    ]
)  # fmt: skip
JUNK = st.sampled_from(
    ["x", "nan", "inf", "-inf", "1_0", "١٢", "1e400", "2.5", "0x10", "--1", "1,5", "1e"]
)
SMALL = st.one_of(
    st.integers(0, 5000).map(str),
    st.sampled_from(["0", "1", "142.00", "1e3", "+5", ".5", "0.25", "3600.0"]),
)
ODD = st.one_of(MISSING, NEGATIVE, HUGE, JUNK, SMALL)

HEADER_LINE = st.one_of(
    st.sampled_from(
        [
            "; Version: 2.2",
            "; Computer: Test machine",
            ";",
            "; a comment without a key",
            ";              http://example.org/",
            "; TimeZoneString: US/Eastern",
            "; MaxProcs: 338 (batch partition; 512 total)",
            "; Note: schedsim cleaning: dropped: no size: 3 jobs",
            "; Preemption: Yes",
        ]
    ),
    st.builds(
        "; {}: {}".format,
        st.sampled_from(["MaxProcs", "MaxNodes", "UnixStartTime", "TimeZone", "MaxJobs"]),
        st.one_of(
            st.integers(-100_000, 100_000).map(str), HUGE, st.sampled_from(["", "many", "-1"])
        ),
    ),
)


#: The fields a run does not use (0-based): unusual values there are cleaned by default.
UNUSED = (2, 5, 6, 9, 10, 11, 12, 13, 14, 15, 16, 17)


@st.composite
def job_line(draw: st.DrawFn, index: int, rough: bool) -> str:
    """A plausible job line, with some fields replaced. In a rough file anything goes
    (a field too few or too many, junk anywhere); otherwise only what the default
    reader cleans: -1 anywhere, other negatives and huge values in unused fields."""
    number = draw(st.one_of(st.just(index), st.integers(-1, 4))) if rough else index
    size = draw(st.sampled_from(["1", "4", "16", "0", "-1"]))
    fields = [
        str(number),
        draw(st.integers(0, 10**6).map(str)),
        draw(st.sampled_from(["-1", "0", "120"])),
        draw(st.sampled_from(["0", "30", "3600", "0.5", "-1"])),
        size,
        "-1",
        "-1",
        draw(st.sampled_from([size, "-1", "8"])),
        draw(st.sampled_from(["60", "7200", "-1", "0"])),
        "-1",
        draw(st.sampled_from(["1", "0", "5", "-1"])),
        *(draw(st.sampled_from(["-1", "1", "7", "12"])) for _ in range(5)),
        "-1",
        "-1",
    ]
    for _ in range(draw(st.sampled_from([0, 0, 0, 0, 1, 1, 2, 3]))):
        if rough:
            fields[draw(st.integers(0, 17))] = draw(ODD)
        elif draw(st.booleans()):
            fields[draw(st.integers(0, 17))] = draw(MISSING)
        else:
            fields[draw(st.sampled_from(UNUSED))] = draw(st.one_of(NEGATIVE, HUGE, SMALL))
    shape = draw(st.sampled_from(["18"] * 14 + ["17", "19", "1"])) if rough else "18"
    if shape == "17":
        fields = fields[:17]
    elif shape == "19":
        fields = [*fields, "5"]
    elif shape == "1":
        fields = fields[:1]
    separator = draw(st.sampled_from([" ", " ", "\t", "  ", " \t "]))
    indent = draw(st.sampled_from(["", "", " ", "\t"]))
    return indent + separator.join(fields) + draw(st.sampled_from(["", "", " "]))


@st.composite
def swf_files(draw: st.DrawFn) -> bytes:
    """A whole file as bytes."""
    rough = draw(st.booleans())
    lines = draw(st.lists(HEADER_LINE, max_size=4))
    for index in range(1, draw(st.integers(0, 12)) + 1):
        kind = draw(st.sampled_from(["job"] * 8 + ["blank", "spaces", "comment"]))
        if kind == "job":
            lines.append(draw(job_line(index, rough)))
        elif kind == "blank":
            lines.append("")
        elif kind == "spaces":
            lines.append(" \t ")
        else:
            lines.append(draw(HEADER_LINE))
    ends = draw(st.sampled_from(["\n", "\r\n", "\r", "mixed"]))
    if ends == "mixed":
        text = "".join(ln + draw(st.sampled_from(["\n", "\r\n", "\r"])) for ln in lines)
    else:
        text = ends.join(lines) + draw(st.sampled_from([ends, ""]))
    data = text.encode("utf-8")
    if draw(st.booleans()) and draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    if draw(st.booleans()) and draw(st.booleans()):
        data = gzip.compress(data, mtime=0)
    return data


# -- what must hold -------------------------------------------------------------

#: Fields the reader keeps as read (0-based), and those it may set to missing.
USED_OR_KEPT = (0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 16, 17)
MAY_BE_MISSING = (2, 11, 12, 13, 14, 15)
RECORD = {11: "user", 12: "group", 13: "app", 14: "queue", 15: "partition"}


def text_lines(data: bytes) -> list[str]:
    """The file's lines as the format says (independently of the reader)."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    text = data.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    return re.split(r"\r\n|\r|\n", text)


def number(token: str) -> float | None:
    """An SWF number: a finite float written in plain ASCII, else None."""
    if "_" in token or not token.isascii():
        return None
    try:
        value = float(token)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def job_lines(lines: list[str]) -> list[tuple[int, list[float] | None]]:
    """(line number, the 18 values or None when malformed) of every job line."""
    out = []
    for lineno, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(";"):
            continue
        values = [number(t) for t in stripped.split()]
        ok = len(values) == 18 and all(v is not None for v in values)
        out.append((lineno, values if ok else None))  # type: ignore[arg-type]
    return out


def unusual(i: int, value: float) -> bool:
    if value < 0 and value != -1:
        return True
    return value >= MAX_TIME if i == 2 else value >= MAX_ID


def check_loaded(w: Workload, data: bytes) -> None:
    lines = text_lines(data)
    rows = job_lines(lines)
    assert all(values is not None for _, values in rows)  # malformed lines are refused
    steps = {s.name: s for s in w.cleaning}
    assert len({s.name for s in w.cleaning}) == len(w.cleaning)
    dropped = sum(s.count for s in w.cleaning if s.name.startswith("dropped"))
    assert len(w) + dropped == len(rows)  # every line is a job or counted as dropped
    for step in w.cleaning:
        assert step.members is not None and step.count == step.members.count
        assert all(1 <= n <= len(lines) for n in step.members.lines)
    for job in w:
        usable = [
            v
            for _, v in rows
            if v is not None
            and v[0] == job.id
            and (v[7] if v[7] > 0 else v[4]) > 0
            and v[1] != -1
            and v[3] != -1
        ]
        assert len(usable) == 1, job.id  # its own line, and only one
        v = usable[0]
        size = v[7] if v[7] > 0 else v[4]
        estimate = v[8] if v[8] > 0 else v[3]
        assert (job.submit, job.run_time, job.size, job.estimate) == (v[1], v[3], size, estimate)
        assert job.swf is not None
        for i in USED_OR_KEPT:
            assert job.swf[i] == v[i], SWF_FIELDS[i]
        for i in MAY_BE_MISSING:
            if job.swf[i] != v[i]:
                assert job.swf[i] == -1 and unusual(i, v[i]), SWF_FIELDS[i]
                changed = [s for s in w.cleaning if s.name.endswith("set to missing")]
                assert any(job.id in (s.members.ids or ()) for s in changed)  # type: ignore[union-attr]
        for i, attr in RECORD.items():
            assert getattr(job, attr) == job.swf[i]
        # Within the bounds where the arithmetic is exact.
        assert abs(job.id) < MAX_ID and 0 < job.size <= MAX_PROCS
        assert job.submit + max(job.run_time, job.estimate) < MAX_TIME
    if "estimate missing: used run time" in steps:
        assert set(steps["estimate missing: used run time"].members.ids or ()) <= {  # type: ignore[union-attr]
            j.id for j in w
        }


def check_error(err: SWFError, path: Path, data: bytes) -> None:
    text = str(err)
    assert "\n" not in text and text.startswith(str(path))
    if err.line is None:
        assert err.field is None
        return
    lines = text_lines(data)
    assert 1 <= err.line <= len(lines)
    assert text.startswith(f"{path}:{err.line}: ")
    line = lines[err.line - 1].strip()
    if line.startswith(";"):
        assert err.field is None and ": header " in text  # a header value
    elif err.field is None:
        assert "fields, SWF needs 18" in text
    else:
        assert f": field {SWF_FIELDS.index(err.field) + 1} ({err.field}): " in text


def read(path: Path, data: bytes, strict: bool) -> Workload | SWFError:
    try:
        w = read_swf(path, strict=strict)
    except SWFError as err:
        check_error(err, path, data)
        return err
    check_loaded(w, data)
    return w


def check_file(path: Path, data: bytes) -> None:
    path.write_bytes(data)
    default = read(path, data, strict=False)
    strict = read(path, data, strict=True)
    if isinstance(default, SWFError):
        assert isinstance(strict, SWFError)  # strict refuses whatever the default refuses
        # Asked for the first jobs only, the reader still checks every line.
        with pytest.raises(SWFError) as cut_error:
            read_swf(path, first=1)
        assert str(cut_error.value) == str(default)
    else:
        # The first jobs only: what cutting the whole log gives, cleaning steps and all.
        for n in {0, len(default) // 2, max(len(default) - 1, 0)}:
            assert read_swf(path, first=n) == first(default, n)
        if isinstance(strict, Workload):
            assert strict.jobs == default.jobs and strict.cleaning == default.cleaning
            assert [j.swf for j in strict] == [j.swf for j in default]
    try:
        header = read_header(path)
    except SWFError as err:
        check_error(err, path, data)
    else:
        if isinstance(default, Workload):
            assert header.fields.items() <= default.header.fields.items()
    if isinstance(default, Workload):
        # Written back and read again: the same jobs.
        schedule = pd.DataFrame(
            {"id": [j.id for j in default], "wait": 0.0, "run": [j.run_time for j in default]}
        )
        out = path.with_name("back.swf")
        write_schedule(out, default, schedule)
        back = read_swf(out)
        assert [(j.id, j.submit, j.size, j.estimate) for j in back] == [
            (j.id, j.submit, j.size, j.estimate) for j in default
        ]


FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@settings(FUZZ, max_examples=200)
@given(data=swf_files())
def test_any_file_loads_faithfully_or_is_refused_on_one_line(folder: Path, data: bytes) -> None:
    check_file(folder / "f.swf", data)


@pytest.mark.slow
@settings(FUZZ, max_examples=10_000)
@given(data=swf_files())
def test_any_file_loads_faithfully_or_is_refused_on_one_line_at_length(
    folder: Path, data: bytes
) -> None:
    check_file(folder / "f.swf", data)
