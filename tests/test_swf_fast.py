"""The SWF reader's fast path against its per-line reader (schedsim.workloads.swf, issue 20).

`read_swf` first tries `_parse_fast` (Arrow's string kernels on the whole text); a
file it refuses goes through `_split` and `_parse_all` (`_parse_line` per line),
which give the format messages. Whichever path reads a file, the result must be the
same: the same jobs field for field (the ``swf`` tuples too, ints as ints, floats as
floats, the sign of a zero), header, cleaning steps and their members, or the same
`SWFError` (message, line, field). Each tricky input below is read both ways, and
the test also says which path it expects, so that a fast path that quietly refused
everything would fail here. The jobs come from `_trusted_jobs` and the workload from
`Workload._ordered`, which skip the public constructors' checks: their results must
equal what those constructors give, as must the closed-loop users' jobs, which come
from `trusted_job`.
"""

from __future__ import annotations

import gc
import gzip
import itertools
import math
import pickle
import random
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from schedsim.workloads import swf
from schedsim.workloads.catalog import resolve
from schedsim.workloads.job import NO_ATTRS, Job, _trusted_jobs, trusted_job
from schedsim.workloads.swf import SWFError, read_swf
from schedsim.workloads.workload import Header, Workload

HEADER = "; Version: 2.2\n; MaxProcs: 64\n; UnixStartTime: 835823160\n"


def job_line(job: int, submit: str = "0", sep: str = " ", **fields: str) -> str:
    """An SWF job line: 18 fields with plausible values, some replaced by index."""
    values = [str(job), submit, "-1", "100", "4", "-1", "-1", "4", "200", "-1", "1"]
    values += ["7", "3", "11", "1", "2", "-1", "-1"]
    for key, value in fields.items():
        values[int(key.removeprefix("f"))] = value
    return sep.join(values)


def write(tmp_path: Path, text: str, *, gz: bool = False, encoding: str = "utf-8") -> Path:
    path = tmp_path / ("t.swf.gz" if gz else "t.swf")
    data = text.encode(encoding)
    path.write_bytes(gzip.compress(data) if gz else data)
    return path


def read_both(path: Path, monkeypatch: pytest.MonkeyPatch, **kwargs: Any) -> tuple[Any, Any]:
    """``read_swf`` as it is, and with the fast path refusing every file: each result
    is a `Workload` or the `SWFError` raised (its message, line and field)."""

    def read() -> Any:
        try:
            return read_swf(path, **kwargs)
        except SWFError as exc:
            return ("SWFError", str(exc), exc.line, exc.field)

    fast = read()
    with monkeypatch.context() as m:
        m.setattr(swf, "_parse_fast", lambda path, data: None)
        slow = read()
    return fast, slow


def same(x: Any, y: Any, where: str = "") -> None:
    """``x`` and ``y`` alike in value and type, recursively (floats by bits: -0.0 is
    not 0.0); dataclasses field by field, those that compare=False ignores too."""
    assert type(x) is type(y), f"{where}: {type(x).__name__} != {type(y).__name__}"
    if isinstance(x, float):
        assert x == y and math.copysign(1, x) == math.copysign(1, y), f"{where}: {x} != {y}"
    elif isinstance(x, (tuple, list)):
        assert len(x) == len(y), f"{where}: {len(x)} != {len(y)} items"
        for i, (a, b) in enumerate(zip(x, y, strict=True)):
            same(a, b, f"{where}[{i}]")
    elif isinstance(x, dict) or type(x).__name__ == "mappingproxy":
        same(sorted(x.items()), sorted(y.items()), where)
    elif hasattr(x, "__dataclass_fields__"):
        for name in x.__dataclass_fields__:
            same(getattr(x, name), getattr(y, name), f"{where}.{name}")
    else:
        assert x == y, f"{where}: {x!r} != {y!r}"


def fast_path_takes(path: Path) -> bool:
    return swf._parse_fast(path, swf._read_data(path)) is not None


# -- tricky input: both paths agree, and the expected one reads it --------------------

J1, J2, J3 = job_line(1, "0"), job_line(2, "10"), job_line(3, "20")

#: name: (file text, whether the fast path reads it).
CASES: dict[str, tuple[str, bool]] = {
    "plain": (HEADER + f"{J1}\n{J2}\n{J3}\n", True),
    "tabs": (HEADER + f"{job_line(1, sep=chr(9))}\n{job_line(2, '10', sep=' ' + chr(9))}\n", True),
    "runs of blanks, leading and trailing": (
        HEADER + f"   {J1.replace(' ', '    ')}   \n{J2}\t \n",
        True,
    ),
    "CRLF": (HEADER.replace("\n", "\r\n") + f"{J1}\r\n{J2}\r\n", True),
    "CR alone": (HEADER.replace("\n", "\r") + f"{J1}\r{J2}\r", True),
    "mixed line ends": (HEADER + f"{J1}\r\n{J2}\r{J3}\n", True),
    "no final line end": (HEADER + f"{J1}\n{J2}", True),
    "blank lines": (f"\n{HEADER}\n  \n{J1}\n\t\n\n{J2}\n\n", True),
    "comment between jobs": (
        HEADER + f"{J1}\n; Note: a comment\n  ;indented; with ;\n{J2}\n",
        True,
    ),
    "comments only at the end": (HEADER + f"{J1}\n{J2}\n; MaxJobs: 2\n", True),
    "no header": (f"{J1}\n{J2}\n", True),
    "exponent notation": (HEADER + job_line(1, "1e3", f3="1.5E+02", f8="2e2") + "\n", True),
    "signs and points": (HEADER + job_line(1, "+5.", f3=".5", f8="-1.00", f12="-0") + "\n", True),
    "fractions where SWF allows them": (HEADER + job_line(1, "0.25", f5="3.75") + "\n", True),
    "unsorted with ties": (HEADER + f"{J3}\n{job_line(9, '10')}\n{J2}\n{job_line(5, '0')}\n", True),
    "cleaned and counted": (
        HEADER
        + f"{J1}\n{job_line(2, f4='-1', f7='-1')}\n{job_line(3, '-1')}\n{job_line(4, f3='-1')}\n"
        + f"{job_line(5, f8='-1', f10='-4', f11='-3', f2='1e20')}\n",
        True,
    ),
    "Latin-1 header": (HEADER + "; Installation: Universität\n" + f"{J1}\n", True),
    # Refused by the fast path: the per-line reader reads or refuses them.
    "short line": (HEADER + f"{J1}\n{' '.join(J2.split()[:17])}\n", False),
    "a line with 19 fields": (HEADER + f"{J1}\n{J2} 5\n", False),
    "a short line and a long one": (HEADER + f"{J1} 5\n{' '.join(J2.split()[:17])}\n", False),
    "a non-number": (HEADER + f"{J1}\n{job_line(2, f6='x')}\n", False),
    "nan": (HEADER + job_line(1, f5="nan") + "\n", False),
    "inf by overflow": (HEADER + job_line(1, f5="1e400") + "\n", False),
    "underscore": (HEADER + job_line(1, f3="1_000") + "\n", False),
    "non-ASCII digits": (HEADER + job_line(1, f3="١٢") + "\n", False),
    "two signs": (HEADER + job_line(1, f3="--1") + "\n", False),
    "exponent without digits": (HEADER + job_line(1, f3="1e") + "\n", False),
    "two numbers run together": (HEADER + job_line(1, f3="1-2") + "\n", False),
    "a fraction in a count": (HEADER + f"{J1}\n{job_line(2, f4='2.5')}\n", False),
    "a form feed": (HEADER + f"{J1}\n\f{J2}\n", False),
    "a semicolon in a job line": (HEADER + f"{J1} ; note\n", False),
    "a comment after a form feed": (HEADER + f"{J1}\n\f; comment\n", False),
    "empty file": ("", False),
    "comments only": (HEADER, False),
}


@pytest.mark.parametrize("gz", [False, True], ids=["plain", "gzip"])
@pytest.mark.parametrize("case", list(CASES))
def test_both_paths_agree_on_tricky_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str, gz: bool
) -> None:
    text, fast = CASES[case]
    encoding = "latin-1" if "Latin-1" in case else "utf-8"
    path = write(tmp_path, text, gz=gz, encoding=encoding)
    assert fast_path_takes(path) is fast
    for mode in ({}, {"strict": True}, {"clean": False}):
        got, want = read_both(path, monkeypatch, **mode)
        same(got, want, f"{case} {mode}")


def test_tricky_input_reads_as_expected(tmp_path: Path) -> None:
    """Spot checks that the agreement above is about the right values."""
    text = CASES["unsorted with ties"][0] + job_line(6, f3="1.5E+02", f12="-0") + "\n"
    w = read_swf(write(tmp_path, text))
    assert [j.id for j in w] == [5, 6, 2, 9, 3]
    six = w[1]
    assert six.run_time == 150.0 and type(six.run_time) is float
    assert six.group == 0 and type(six.group) is int
    assert math.copysign(1, six.swf[12]) == -1  # -0 kept as read in the swf fields
    assert all(type(v) is float for v in six.swf) and len(six.swf) == 18
    assert six.attrs is NO_ATTRS
    assert w.header.max_procs == 64 and w.header.lines[0] == "; Version: 2.2"


def test_errors_name_the_same_line_and_field(tmp_path: Path) -> None:
    text = HEADER + f"{J1}\n\n; comment\n{job_line(2, f6='x')}\n"
    with pytest.raises(SWFError) as info:
        read_swf(write(tmp_path, text))
    assert (info.value.line, info.value.field) == (7, "used_memory")
    # A value refused after the fast path read the file names the token as written.
    text = HEADER + f"{J1}\n{job_line(2, f3='-5.0e0')}\n"
    path = write(tmp_path, text)
    assert fast_path_takes(path)
    with pytest.raises(SWFError, match=r"t\.swf:5: field 4 \(run_time\): '-5\.0e0' is negative"):
        read_swf(path)


def test_a_duplicate_job_number_is_refused_with_its_first_line(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + f"{J1}\n{J2}\n{job_line(1, '30')}\n")
    assert fast_path_takes(path)
    with pytest.raises(SWFError, match=r":6: field 1 \(job_number\): duplicate job number 1 "):
        read_swf(path)


def test_a_shipped_log_reads_alike_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    path = Path(resolve("lublin256"))  # the smallest, 10,000 jobs; -m slow reads them all
    assert fast_path_takes(path)
    fast, slow = read_both(path, monkeypatch)
    same(fast, slow, "lublin256")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ctc", "kth", "sdsc-sp2", "sdsc-par", "lublin256"])
def test_shipped_logs_read_alike_both_ways(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    path = Path(resolve(name))
    assert fast_path_takes(path)
    for mode in ({}, {"strict": True}, {"clean": False}):
        fast, slow = read_both(path, monkeypatch, **mode)
        same(fast, slow, f"{name} {mode}")


# -- generated files ----------------------------------------------------------------

#: A whole number as a log may write it: plain, with a sign, a point, an exponent.
WHOLE = st.one_of(
    st.integers(-1, 5000).map(str),
    st.sampled_from(["-1", "-1.0", "0", "-0", "+5", "5.", "3600.00", "1e3", "1E+02", "7e0"]),
    st.sampled_from(["-4", "1e20", str(2**53), "00012"]),
)
#: Any number: whole ones and fractions (in the fields that may hold them).
NUMBER = st.one_of(WHOLE, st.sampled_from([".5", "0.1", "2.5E-1", "-0.5", "1.5e2"]))
#: What the fast path refuses, and a few numbers it reads.
ODD = st.sampled_from(["x", "nan", "1_0", "--1", "1e", "1-2", "١", "1e400", "\f", "2.5", "; c"])


@st.composite
def generated_file(draw: st.DrawFn) -> bytes:
    """Header and comment lines, blank lines, and job lines of numbers in any notation,
    separated by runs of blanks and tabs, with LF, CRLF or CR line ends; now and then a
    token the fast path refuses, or a field too few or too many."""
    lines = [draw(st.sampled_from(["; Version: 2.2", "; MaxProcs: 64", ";", "  ; x: y"]))]
    for index in range(1, draw(st.integers(1, 10)) + 1):
        kind = draw(st.sampled_from(["job"] * 8 + ["blank", "comment"]))
        if kind == "blank":
            lines.append(draw(st.sampled_from(["", " ", "\t "])))
            continue
        if kind == "comment":
            lines.append(draw(st.sampled_from(["; Note: n", "\t;indented", ";;"])))
            continue
        fields = [str(index), *(draw(NUMBER) for _ in range(17))]
        for i in (10, 11, 12, 13, 14, 15, 16):  # counts and identifiers
            fields[i] = draw(WHOLE)
        fields[4] = fields[7] = draw(st.sampled_from(["1", "4", "-1"]))  # sizes
        if draw(st.integers(0, 9)) == 0:
            fields[draw(st.integers(0, 17))] = draw(ODD)
        if draw(st.integers(0, 19)) == 0:
            fields = fields[:17] if draw(st.booleans()) else [*fields, "1"]
        separators = st.sampled_from([" ", " ", "  ", "\t", " \t "])
        line = draw(st.sampled_from(["", " ", "\t"])) + fields[0]
        for field in fields[1:]:
            line += draw(separators) + field
        lines.append(line + draw(st.sampled_from(["", " ", "\t"])))
    end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return (end.join(lines) + draw(st.sampled_from([end, ""]))).encode("utf-8")


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=generated_file(), strict=st.booleans())
def test_both_paths_agree_on_generated_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: bytes, strict: bool
) -> None:
    path = tmp_path / "g.swf"
    path.write_bytes(data)
    event("fast path" if fast_path_takes(path) else "per-line path")
    got, want = read_both(path, monkeypatch, strict=strict)
    same(got, want)


# -- the text-to-float conversion the fast path relies on -----------------------------


def python_float(token: str) -> float | None:
    try:
        return float(token)
    except ValueError:
        return None


def arrow_float(token: str) -> float | None:
    try:
        return float(pc.cast(pa.array([token]), pa.float64())[0].as_py())
    except pa.ArrowInvalid:
        return None


def check_conversion(alphabet: str, longest: int) -> None:
    """Arrow reads exactly the tokens over ``alphabet`` that ``float()`` reads, to the
    same double (by bits)."""
    tokens = [
        "".join(p) for n in range(1, longest + 1) for p in itertools.product(alphabet, repeat=n)
    ]
    good = [t for t in tokens if python_float(t) is not None]
    values = pc.cast(pa.array(good), pa.float64()).to_pylist()  # all read, or ArrowInvalid
    for token, value in zip(good, values, strict=True):
        same(value, float(token), token)
    for token in tokens:
        if python_float(token) is None:
            assert arrow_float(token) is None, f"Arrow reads {token!r}, float() does not"


def test_arrow_reads_the_tokens_float_reads() -> None:
    # Digits 0 and 1 stand for all ten (leading zeros, one digit, several).
    check_conversion("01.eE+-", 4)


@pytest.mark.slow
def test_arrow_reads_the_tokens_float_reads_exhaustive() -> None:
    check_conversion("0123456789.eE+-", 5)


def test_arrow_rounds_as_float_does() -> None:
    rng = random.Random(20)
    tokens = []
    for _ in range(5_000):
        digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 30)))
        point = rng.randint(0, len(digits))
        token = rng.choice(["", "-", "+"]) + digits[:point] + "." + digits[point:]
        if rng.random() < 0.5:
            token += rng.choice("eE") + rng.choice(["", "-", "+"]) + str(rng.randint(0, 330))
        tokens.append(token)
    values = pc.cast(pa.array(tokens), pa.float64()).to_pylist()
    for token, value in zip(tokens, values, strict=True):
        same(value, float(token), token)


# -- the trusted constructors -----------------------------------------------------------


def test_trusted_jobs_equal_jobs_built_the_public_way() -> None:
    rows = [
        (1, 0.0, 100.0, 4, 200.0, 7, 3, 11, 1, 2),
        (2**53 - 1, -0.0, 0.5, 1, 0.5, -1, -1, -1, -1, -1),
    ]
    swf_fields = [tuple(float(i) for i in range(18)), tuple([-1.0] * 18)]
    built = _trusted_jobs(list(zip(*rows, strict=True)), swf_fields)
    for job, row, fields in zip(built, rows, swf_fields, strict=True):
        public = Job(*row, swf=fields)
        same(job, public)
        assert job == public and hash(job) == hash(public)
        assert job.attrs is NO_ATTRS
        same(pickle.loads(pickle.dumps(job)), public)
        with pytest.raises(AttributeError):
            job.size = 3  # still frozen


def test_trusted_job_equals_the_job_built_the_public_way() -> None:
    for row in [(1, 0.0, 100.0, 4, 200.0, 7), (2**62, -0.0, 0.5, 1, -5.0, -1)]:
        job, public = trusted_job(*row), Job(*row[:5], user=row[5])
        same(job, public)
        assert job == public and hash(job) == hash(public)
        assert job.attrs is NO_ATTRS and job.swf is None
        same(pickle.loads(pickle.dumps(job)), public)
        with pytest.raises(AttributeError):
            job.size = 3  # still frozen


def test_ordered_workload_equals_the_checked_one() -> None:
    jobs = tuple(Job(i, float(i // 2), 10.0, 1, 10.0) for i in range(6))
    header = Header(max_procs=4)
    w = Workload._ordered(jobs, header, name="w", source=None, cleaning=())
    same(w, Workload(jobs, header, name="w"))
    assert w == Workload(jobs[::-1], header, name="w")
    # The public constructor keeps its checks.
    with pytest.raises(ValueError, match="appear more than once"):
        Workload((*jobs, jobs[0]), header)


# -- the garbage collector, as it was ----------------------------------------------------


def test_the_collector_is_left_as_it_was(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + f"{J1}\n{J2}\n")
    assert gc.isenabled()
    read_swf(path)
    assert gc.isenabled()
    gc.disable()
    try:
        read_swf(path)
        assert not gc.isenabled()
    finally:
        gc.enable()
    # Objects a process froze (before forking workers) stay frozen.
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        read_swf(path)
        assert gc.get_freeze_count() > frozen // 2  # not released (some were freed)
    finally:
        gc.unfreeze()
