"""Bad input gets one clear line, never a traceback (README "Bad input", DESIGN.md).

Three corpora, made here and deterministic (no data is committed):

- ``WORKLOADS``: malformed workload files, beyond what tests/test_swf_fuzz.py's grammar
  makes: files that are not SWF (empty, CSV, JSON, HTML, Parquet in disguise, binary
  data, other compressions, truncated gzip, UTF-16, a directory), odd encodings and
  line ends, a huge file of one line, tokens of ``inf``/``nan``/``1e400`` in each
  field, values at the 2**43 s and 2**53 bounds, duplicate job numbers, submit times
  going backwards, headers that lie about the machine... each run as ``schedsim run
  --workload FILE``;
- ``RUN_OPTIONS``: ``schedsim run`` command lines with absurd values for every option
  (negative, zero, huge, 1e-300, 1e300, nan, inf, empty, a word) and contradictory
  combinations, and ``schedsim sweep`` options;
- ``STUDIES``: study files for ``schedsim sweep`` (empty, not TOML, unknown keys, wrong
  types, absurd values, a metric that does not exist, a grid of an empty list...).

Each runs in-process through `schedsim.app.cli.main` with stdout and stderr captured.
A refused case exits with status 2 and writes exactly one stderr line, starting
``schedsim: error:``, that names the file (for a workload) and, where the problem is
on a line, the line and field. A file that is valid once cleaned runs (status 0). No
case raises.

Command lines and studies must be refused before anything runs: `Simulation.run`, the
sweep and the workload generators are replaced here by stand-ins that raise `Started`
(a BaseException, which `main` does not catch), so a case that is not refused fails at
once instead of starting a run that would not end (``--users 10 --days 1e9``).

A ``--by`` column is known only once the run is over (a policy adds columns of its
own): it is refused after the run, its files written (tests/test_run_folder.py).
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import re
import struct
import tarfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from schedsim.app.cli import main
from schedsim.workloads.swf import read_swf

# -- running a command ------------------------------------------------------------------


class Started(BaseException):
    """A command got as far as running (or generating a huge workload): it should
    have been refused before. A BaseException, so that `main` does not report it."""


@dataclass(frozen=True)
class Outcome:
    code: int
    out: str
    err: str


def invoke(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Outcome:
    """``schedsim ARGV`` in-process: its exit status and what it printed."""
    capsys.readouterr()
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse refuses with SystemExit(2)
        code = exc.code if isinstance(exc.code, int) else 1
    captured = capsys.readouterr()
    return Outcome(code, captured.out, captured.err)


def refused(outcome: Outcome) -> str:
    """The one error line of a refused command (asserting that it is one)."""
    lines = outcome.err.splitlines()
    assert outcome.code == 2, f"status {outcome.code}, stderr: {outcome.err!r}"
    assert len(lines) == 1, f"{len(lines)} lines on stderr: {outcome.err!r}"
    assert lines[0].startswith("schedsim: error: "), lines[0]
    return lines[0]


@pytest.fixture
def nothing_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever would start a run, a sweep, the processes of a large population of
    users or the generation of a large workload raises `Started` instead."""
    from schedsim.app import simulation as app_simulation
    from schedsim.app import sweep
    from schedsim.model import simulation as model_simulation
    from schedsim.workloads import lublin, multicore

    def started(*args: Any, **kwargs: Any) -> Any:
        raise Started("a run started")

    monkeypatch.setattr(app_simulation.Simulation, "run", started)
    monkeypatch.setattr(model_simulation.ModelSimulation, "run", started)
    monkeypatch.setattr(sweep, "sweep", started)
    # A closed loop starts one process per user when the simulation is made.
    real_population = model_simulation.population

    def users(*args: Any, **kwargs: Any) -> Any:
        if args[2].users > 100_000:
            raise Started(f"starting {args[2].users} users")
        return real_population(*args, **kwargs)

    monkeypatch.setattr(model_simulation, "population", users)
    for module, name in ((lublin, "generate"), (multicore, "paper_workload")):
        real = getattr(module, name)

        def guarded(*args: Any, _real: Any = real, **kwargs: Any) -> Any:
            jobs = args[0] if args and isinstance(args[0], int) else kwargs.get("n_jobs", 0)
            if isinstance(jobs, int) and jobs > 100_000:
                raise Started(f"generating {jobs} jobs")
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, name, guarded)


# -- SWF text -----------------------------------------------------------------------------

HEADER = "; Version: 2.2\n; MaxProcs: 8\n; UnixStartTime: 835823160\n; TimeZoneString: US/Eastern\n"
#: The line number of the first job line after HEADER.
FIRST = 5


def job(number: int | str, submit: int | str = 0, **fields: str | int) -> str:
    """A job line of 4 processors for 100 s (requested 200 s) by user 3; ``f5="-5"``
    sets field 5 (1-based SWF field numbers)."""
    values: list[str | int] = [number, submit, -1, 100, 4, -1, -1, 4, 200, -1, 1, 3, 1, 1, 1, 1]
    values += [-1, -1]
    for key, value in fields.items():
        values[int(key[1:]) - 1] = value
    return " ".join(str(v) for v in values)


def swf(*lines: str, header: str = HEADER) -> bytes:
    """A file of ``header`` and the job ``lines``."""
    return (header + "".join(line + "\n" for line in lines)).encode()


#: Ten well-formed jobs, one every 60 s, by three users.
JOBS = tuple(job(i, 60 * i, f12=i % 3) for i in range(1, 11))
GOOD = swf(*JOBS)


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding what a run of GOOD writes (jobs.csv, batsim_jobs.csv, ...) and a
    Parquet workload of it (workload.parquet)."""
    from schedsim.workloads.parquet import write_workload

    folder = tmp_path_factory.mktemp("outputs")
    source = folder / "good.swf"
    source.write_bytes(GOOD)
    code = main(["run", "--workload", str(source), "--out", str(folder / "run"), "--batsim"])
    assert code == 0
    write_workload(read_swf(source), folder / "workload.parquet")
    return folder


# -- the workload corpus -------------------------------------------------------------------

#: A case's file: its bytes, or what makes it at a path from the run's `outputs` folder.
Maker = bytes | Callable[[Path, Path], None]


@dataclass(frozen=True)
class FileCase:
    data: Maker | None  # None: no file at all
    name: str = "w.swf"
    line: int | None = None  # where the error names the problem, None: the whole file
    field: int | None = None  # 1-based SWF field the error names
    says: tuple[str, ...] = ()  # what the error line says (besides the file)
    runs: bool = False  # valid once cleaned: runs with status 0
    options: tuple[str, ...] = ()  # more options for `schedsim run`


def copy_of(name: str) -> Callable[[Path, Path], None]:
    def make(path: Path, outputs: Path) -> None:
        path.write_bytes((outputs / name).read_bytes())

    return make


def parquet_workload(*, compress: bool = False, cut: bool = False) -> Callable[[Path, Path], None]:
    def make(path: Path, outputs: Path) -> None:
        data = (outputs / "workload.parquet").read_bytes()
        if cut:
            data = data[: len(data) // 2]
        path.write_bytes(gz(data) if compress else data)

    return make


def parquet_with(
    column: str, values: list[Any] | None = None, *, meta: bytes | None = None
) -> Callable[[Path, Path], None]:
    """The Parquet workload of GOOD with ``column`` holding ``values`` (or its metadata
    replaced by ``meta``), written as schedsim would otherwise write it."""

    def make(path: Path, outputs: Path) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pq.read_table(outputs / "workload.parquet")
        metadata = dict(table.schema.metadata)
        if values is not None:
            at = table.column_names.index(column)
            table = table.set_column(at, column, pa.array(values))
        if meta is not None:
            metadata[b"schedsim.workload"] = meta
        pq.write_table(table.replace_schema_metadata(metadata), path)

    return make


def directory(path: Path, outputs: Path) -> None:
    path.mkdir()


def zipped(path: Path, outputs: Path) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(zipfile.ZipInfo("w.swf", date_time=(1996, 1, 1, 0, 0, 0)), GOOD)


def tarred(path: Path, outputs: Path) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        info = tarfile.TarInfo("w.swf")
        info.size = len(GOOD)
        archive.addfile(info, io.BytesIO(GOOD))
    path.write_bytes(gz(buffer.getvalue()))


def gz(data: bytes) -> bytes:
    """``data`` gzip-compressed, the same bytes every time (no time stamp)."""
    return gzip.compress(data, mtime=0)


def random_bytes(seed: int, n: int) -> bytes:
    return np.random.default_rng(seed).integers(0, 256, n, dtype=np.uint8).tobytes()


READS = "schedsim reads SWF (.swf, or gzip-compressed .swf.gz), Parquet"
LOOKS = "this looks like"
GOOD_GZ = gz(GOOD)
TOO_LATE = "times must stay below 2**43 s"


def file_cases() -> list[Any]:
    cases: dict[str, FileCase] = {}

    def add(name: str, case: FileCase) -> None:
        assert name not in cases
        cases[name] = case

    # -- files that are not SWF, whatever their name
    add("empty", FileCase(b"", says=("an empty file (0 bytes), no jobs", READS)))
    add("blank lines only", FileCase(b"\n \n\t\n\r\n", says=("no job lines", "only blank lines")))
    add("header only", FileCase(HEADER.encode(), says=("no job lines", "only 4 comment lines")))
    add("header only gzip", FileCase(gz(HEADER.encode()), says=("no job lines",)))
    add("empty gzip", FileCase(gz(b""), name="w.swf.gz", says=("gzip data of 0",)))
    csv = "this looks like CSV (commas between the values), not SWF text"
    add("csv", FileCase(b"id,submit,run_time\n1,0,100\n", line=1, says=(csv, READS)))
    add("csv numbers", FileCase(b"1,0,100,4\n2,10,100,4\n", line=1, says=(csv,)))
    add("csv after a header", FileCase(HEADER.encode() + b"1,0,100\n", line=FIRST, says=(csv,)))
    add("csv gzip", FileCase(gz(b"a,b\n1,2\n"), name="w.csv.gz", line=1, says=(csv,)))
    add("csv spaced", FileCase(b"1, 0, 0, 100, 4\n", line=1, says=(csv,)))
    add("csv semicolons", FileCase(b"id;submit\n1;0\n", line=1, says=("CSV (semicolons",)))
    add("a run's jobs.csv", FileCase(copy_of("run/jobs.csv"), "jobs.csv", line=1, says=(csv,)))
    batsim = FileCase(copy_of("run/batsim_jobs.csv"), "batsim_jobs.csv", line=1, says=(csv,))
    add("a run's batsim_jobs.csv", batsim)
    # A JSON object is read as Batsim's JSON workload, whose reader says what it lacks;
    # other JSON is not a workload at all.
    json = f"{LOOKS} JSON, not SWF text"
    add("json", FileCase(b'{"jobs": []}\n', "w.json", says=("field jobs: an empty list",)))
    add("json array", FileCase(b"[[1, 0, 100]]\n", line=1, says=(json, READS)))
    json_lines = FileCase(b'\n{"id": 1}\n{"id": 2}\n', says=("w.swf:3:1: not JSON",))
    add("json lines", json_lines)
    no_jobs = 'JSON, but not a Batsim workload: no "jobs" list'
    add("json gzip", FileCase(gz(b'{"a": 1}'), says=(no_jobs,)))
    summary = FileCase(copy_of("run/summary.json"), "summary.json", says=(no_jobs,))
    add("a run's summary.json", summary)
    html = b"<!DOCTYPE html>\n<html><body>404 Not Found</body></html>\n"
    add("html", FileCase(html, line=1, says=(f"{LOOKS} HTML or XML",)))
    add("xml", FileCase(b'<?xml version="1.0"?>\n<jobs/>\n', line=1, says=("HTML or XML",)))
    binary = f"{LOOKS} binary data (a NUL byte), not SWF text"
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + random_bytes(1, 200)
    add("png", FileCase(png, "w.png", line=3, says=(binary,)))
    add("random bytes", FileCase(b"\x00" + random_bytes(2, 4096), line=1, says=(binary,)))
    add("nul bytes only", FileCase(b"\x00" * 1000, line=1, says=(binary,)))
    add("elf", FileCase(b"\x7fELF\x02\x01\x01\x00" + bytes(64), line=1, says=(binary,)))
    add("nul in the first job line", FileCase(swf("1 0 0\x00"), line=FIRST, says=(binary,)))
    add("bzip2", FileCase(bz2.compress(GOOD), "w.swf.bz2", says=(f"{LOOKS} bzip2-compressed",)))
    add("xz", FileCase(lzma.compress(GOOD), "w.swf.xz", says=(f"{LOOKS} xz-compressed",)))
    zstd = b"\x28\xb5\x2f\xfd" + random_bytes(3, 64)
    add("zstd", FileCase(zstd, "w.swf.zst", says=(f"{LOOKS} zstd-compressed",)))
    add("zip", FileCase(zipped, "w.zip", says=(f"{LOOKS} a zip archive",)))
    add("empty zip", FileCase(b"PK\x05\x06" + bytes(18), says=("an empty zip archive",)))
    add("7z", FileCase(b"7z\xbc\xaf\x27\x1c" + bytes(32), says=("a 7-Zip archive",)))
    add("tar.gz", FileCase(tarred, "w.tar.gz", says=(f"{LOOKS} a tar archive",)))
    twice = FileCase(gz(GOOD_GZ), "w.swf.gz.gz", says=("gzip data inside gzip",))
    add("gzip of gzip", twice)
    corrupt = "corrupt gzip data"
    add("truncated gzip", FileCase(GOOD_GZ[: len(GOOD_GZ) // 2], "w.swf.gz", says=(corrupt,)))
    add("gzip magic only", FileCase(b"\x1f\x8b", "w.swf.gz", says=(corrupt,)))
    crc = GOOD_GZ[:-8] + struct.pack("<I", 12345) + GOOD_GZ[-4:]
    add("gzip with a wrong checksum", FileCase(crc, "w.swf.gz", says=(corrupt,)))
    deflate = GOOD_GZ[:10] + b"\xff" * 40 + GOOD_GZ[50:]
    add("gzip with garbled data", FileCase(deflate, "w.swf.gz", says=(corrupt,)))
    add("gzip of a header only, cut", FileCase(gz(HEADER.encode())[:-4], says=(corrupt,)))
    utf16 = f"{LOOKS} UTF-16 text"
    add("utf-16 le", FileCase(GOOD.decode().encode("utf-16"), says=(utf16,)))
    add("utf-16 be", FileCase(b"\xfe\xff" + GOOD.decode().encode("utf-16-be"), says=(utf16,)))
    add("utf-32", FileCase(GOOD.decode().encode("utf-32"), says=(f"{LOOKS} UTF-32 text",)))
    add("a directory", FileCase(directory, "w.swf", says=("a directory, not a workload", READS)))
    add("no such file", FileCase(None, "missing.swf", says=("unknown workload", "missing.swf")))
    results = "a Parquet file, but not a schedsim workload"
    add("a run's jobs.parquet", FileCase(copy_of("run/jobs.parquet"), "j.parquet", says=(results,)))
    add("a run's pieces.parquet", FileCase(copy_of("run/pieces.parquet"), says=(results,)))
    cut = FileCase(parquet_workload(cut=True), "w.parquet", says=("not a Parquet file that",))
    add("parquet cut short", cut)
    add("parquet magic only", FileCase(b"PAR1", "w.parquet", says=("not a Parquet file that",)))
    add("parquet gzip", FileCase(parquet_workload(compress=True), says=(f"{LOOKS} a Parquet",)))
    # A Parquet workload whose values no job can have: row and column named.
    ten = list(range(1, 11))
    for column, values, says in (
        ("submit", [0.0, None, *map(float, ten[2:])], "row 2, column 'submit': empty (null)"),
        ("submit", [0.0, float("nan"), *map(float, ten[2:])], "is not a finite number"),
        ("run_time", [100.0] * 9 + [-5.0], "row 10, column 'run_time': -5.0 is negative"),
        ("run_time", [100.0] * 9 + [2.0**43], "is too large: times must stay below 2**43"),
        ("size", [4] * 9 + [0], "row 10, column 'size': 0 is no job size"),
        ("size", [4.5] * 10, "row 1, column 'size': 4.5 is not a whole number"),
        ("id", [1, 2, 3, 4, 5, 6, 7, 8, 9, 3], "row 10, column 'id': 3 is the id of an earlier"),
        ("id", ["a"] * 10, "column 'id' holds string, not numbers"),
        ("estimate", [0.0] * 10, "row 1, column 'estimate': 0.0 is 0 for a job that runs"),
        ("swf", [[1.0] * 17] * 10, "row 1, column 'swf': 17 values, SWF has 18"),
        ("swf", [[float("inf")] * 18] * 10, "row 1, column 'swf': a value is not a finite"),
    ):
        name = f"parquet {column} {says.split(': ')[-1][:30]}"
        add(name, FileCase(parquet_with(column, values), "w.parquet", says=(says,)))
    meta = "its schedsim.workload metadata is not what write_workload writes"
    add("parquet metadata not json", FileCase(parquet_with("id", meta=b"{x"), says=(meta,)))
    header = b'{"header": {"max_procs": "many"}}'
    add("parquet header of a word", FileCase(parquet_with("id", meta=header), says=(meta,)))
    add("parquet named swf", FileCase(parquet_workload(), "w.swf", runs=True))
    add("parquet named csv", FileCase(parquet_workload(), "w.csv", runs=True))
    add("parquet named parquet", FileCase(parquet_workload(), "w.parquet", runs=True))
    add("swf named parquet", FileCase(GOOD, "w.parquet", runs=True))
    add("swf named csv", FileCase(GOOD, "w.csv", runs=True))
    add("gzip named swf", FileCase(GOOD_GZ, "w.swf", runs=True))
    add("plain named gz", FileCase(GOOD, "w.swf.gz", runs=True))
    a_run = FileCase(copy_of("run/schedule.swf"), "schedule.swf", runs=True)
    add("a run's schedule.swf", a_run)
    one_line = FileCase(b"x" * 5_000_000, line=1, field=2, says=("the line has 1 fields",))
    add("a huge file of one line", one_line)
    fields = FileCase(b"1 " * 1_000_000, line=1, says=("the line has 1000000 fields",))
    add("a line of a million fields", fields)
    token = FileCase(swf(job(1, f11="y" * 1_000_000)), line=FIRST, field=11, says=("... (1,0",))
    add("a token of a megabyte", token)
    digits = FileCase(swf(job(1, f4="9" * 400)), line=FIRST, field=4, says=("beyond a float",))
    add("a number of 400 digits", digits)

    # -- encodings and line ends
    add("byte order mark", FileCase(b"\xef\xbb\xbf" + GOOD, runs=True))
    bom = swf(JOBS[0], "\ufeff" + JOBS[1])
    add("byte order mark on a later line", FileCase(bom, line=FIRST + 1, field=1))
    latin = HEADER.encode() + "; Installation: Universit\xe9\n".encode("latin-1")
    add("latin-1 in a comment", FileCase(latin + "\n".join(JOBS).encode(), runs=True))
    latin_field = swf(job(1, f12="E")).replace(b" E ", b" \xe9 ")
    add("latin-1 in a field", FileCase(latin_field, line=FIRST, field=12, says=("not a number",)))
    add("arabic digits", FileCase(swf(job(1, f4="١٢")), line=FIRST, field=4, says=("not a",)))
    late_nul = swf(*(job(i, i) for i in range(1, 200)), job(200, 200, f3="1\x00"))
    add("nul in a late job line", FileCase(late_nul, line=FIRST + 199, field=3))
    add("a control byte", FileCase(swf(job(1, f3="\x01")), line=FIRST, field=3))
    add("crlf", FileCase(GOOD.replace(b"\n", b"\r\n"), runs=True))
    add("cr alone", FileCase(GOOD.replace(b"\n", b"\r"), runs=True))
    add("mixed line ends", FileCase(swf(*JOBS).replace(b"\n", b"\r\n", 3), runs=True))
    add("tabs", FileCase(GOOD.replace(b" ", b"\t"), runs=True))
    add("form feeds", FileCase(swf(*JOBS).replace(b" 0 -1 ", b" 0\f-1 "), runs=True))
    add("no final line end", FileCase(GOOD.rstrip(b"\n"), runs=True))
    add("comments between jobs", FileCase(swf(JOBS[0], "; a note", *JOBS[1:]), runs=True))
    hashed = swf("# id submit wait run", *JOBS)
    add("a hash comment", FileCase(hashed, line=FIRST, field=6, says=("start with ';'",)))
    trailing = swf(JOBS[0] + " ; note")
    add("a comment after the values", FileCase(trailing, line=FIRST, says=("20 fields",)))

    # -- a token that is not a number, in each field a run reads and some it does not
    for token in ("inf", "-inf", "nan", "NaN", "1e400", "x", "0x10", "1_000", "1e", "--1"):
        for number in (1, 2, 3, 4, 5, 8, 9, 11, 12):
            says = "is beyond a float's range" if token == "1e400" else "is not a number"
            data = swf(JOBS[0], job(2, 60, **{f"f{number}": token}))
            bad = FileCase(data, line=FIRST + 1, field=number, says=(f"{token!r} {says}",))
            add(f"{token} in field {number}", bad)
    for number in (1, 5, 8, 11, 12, 13):
        data = swf(job(1, **{f"f{number}": "4.5"}))
        half = FileCase(data, line=FIRST, field=number, says=("'4.5' is not a whole number",))
        add(f"a fraction in field {number}", half)
    short = FileCase(swf(JOBS[0], " ".join(JOBS[1].split()[:17])), line=FIRST + 1, field=18)
    add("17 fields", short)
    add("19 fields", FileCase(swf(JOBS[0] + " 7"), line=FIRST, says=("19 fields",)))
    add("1 field", FileCase(swf(*JOBS, "7"), line=FIRST + 10, field=2, says=("1 fields",)))
    add("a word at the end", FileCase(swf(*JOBS, "EOF"), line=FIRST + 10, field=2))

    # -- values
    negative = "is negative (only -1 means missing)"
    for number in (1, 2, 4, 9):
        case = FileCase(
            swf(job(1, **{f"f{number}": -5})), line=FIRST, field=number, says=(negative,)
        )
        add(f"negative field {number}", case)
    add("negative requested processors", FileCase(swf(job(1, f8=-5)), line=FIRST, field=8))
    from_8 = "the job's size, 4, comes from field 8, requested processors"
    alloc = FileCase(swf(job(1, f5=-5)), line=FIRST, field=5, says=(negative, from_8))
    add("negative allocated, size from field 8", alloc)
    size = "is too large: a job's size (here its requested processors, field 8"
    add("huge requested", FileCase(swf(job(1, f8=2**33)), line=FIRST, field=8, says=(size,)))
    add("huge both", FileCase(swf(job(1, f5=2**33, f8=2**34)), line=FIRST, field=8, says=(size,)))
    own = "a job's size (here its allocated processors, field 5, as field 8 is not above 0)"
    huge5 = FileCase(swf(job(1, f5=2**33, f8=-1)), line=FIRST, field=5, says=(own,))
    add("huge allocated, size from field 5", huge5)
    note = FileCase(swf(job(1, f5=2**33)), line=FIRST, field=5, says=("too large", from_8))
    add("huge allocated, size from field 8", note)
    nobody = swf(job(1, f5=0, f8=0), job(2, f5=-1, f8=-1))
    add("no line has a size", FileCase(nobody, says=("no usable jobs: all 2 were dropped",)))
    add("some lines have no size", FileCase(swf(*JOBS, job(11, f5=0, f8=0)), runs=True))
    again = f"duplicate job number 3 (first on line {FIRST + 2})"
    add(
        "duplicate job numbers",
        FileCase(swf(*JOBS, job(3, 900)), line=FIRST + 10, field=1, says=(again,)),
    )
    add("a duplicate on a dropped line", FileCase(swf(*JOBS, job(3, f4=-1)), runs=True))
    add("job number missing", FileCase(swf(job(-1)), line=FIRST, field=1, says=("missing",)))
    add("job number 2**53", FileCase(swf(job(2**53)), line=FIRST, field=1, says=("2**53",)))
    add("job number 2**53 - 1", FileCase(swf(job(2**53 - 1)), runs=True))
    add("submit times going backwards", FileCase(swf(*reversed(JOBS)), runs=True))
    add("all at one time", FileCase(swf(*(job(i, 5) for i in range(1, 6))), runs=True))
    nosubmit = FileCase(swf(job(1, -1), job(2, -1)), says=("no usable jobs",))
    add("no submit time anywhere", nosubmit)
    norun = FileCase(swf(job(1, f4=-1), job(2, f4=-1)), says=("all 2 were dropped",))
    add("no run time anywhere", norun)
    add("some submit times missing", FileCase(swf(*JOBS, job(11, -1)), runs=True))
    add("submit 2**43", FileCase(swf(job(1, 2**43)), line=FIRST, field=2, says=(TOO_LATE,)))
    edge = swf(job(1, 0), job(2, 2**43 - 1, f4=0, f9=-1))
    add("submit 2**43 - 1, no time", FileCase(edge, runs=True))
    add("run 2**43", FileCase(swf(job(1, f4=2**43)), line=FIRST, field=4, says=(TOO_LATE,)))
    end9 = swf(job(1, 2**43 - 100, f9=200))
    add("end by estimate 2**43", FileCase(end9, line=FIRST, field=9, says=("too late",)))
    end4 = swf(job(1, 2**43 - 100, f4=300, f9=50))
    add("end by run time 2**43", FileCase(end4, line=FIRST, field=4, says=("too late",)))
    add("estimate 2**43 - 1", FileCase(swf(job(1, 0, f9=2**43 - 1)), runs=True))
    add("wait 1e20", FileCase(swf(*JOBS[:-1], job(10, 600, f3="1e20")), runs=True))
    add("status -4", FileCase(swf(*JOBS[:-1], job(10, 600, f11=-4)), runs=True))
    strict = FileCase(
        swf(*JOBS[:-1], job(10, 600, f11=-4)),
        line=FIRST + 9,
        field=11,
        says=(negative,),
        options=("--strict",),
    )
    add("status -4, strict", strict)
    add("user 2**60", FileCase(swf(*JOBS[:-1], job(10, 600, f12=2**60)), runs=True))
    user = FileCase(swf(job(1, f12=2**60)), line=FIRST, field=12, options=("--strict",))
    add("user 2**60, strict", user)
    nosub = FileCase(swf(job(1, -1)), line=FIRST, field=2, options=("--strict",))
    add("submit missing, strict", nosub)
    add("run time 0", FileCase(swf(*(job(i, i, f4=0) for i in range(1, 5))), runs=True))
    add("one job", FileCase(swf(JOBS[0]), runs=True))
    add("estimate and run 0", FileCase(swf(job(1, f4=0, f9=0)), runs=True))
    add("exponents", FileCase(swf(job(1, "1e3"), job(2, "2.5E3", f4="+5")), runs=True))
    add("run beyond estimate", FileCase(swf(job(1, f4=500, f9=60)), runs=True))

    # -- headers that lie about the machine (item 2 of the reviewer's fuzz)
    def machine(header: str, *lines: str, **kw: Any) -> FileCase:
        return FileCase(swf(*lines, header=header), **kw)

    wide = "is wider than the machine's"
    add(
        "MaxProcs 64, a job of 128",
        machine(
            "; MaxProcs: 64\n",
            job(1, f5=128, f8=128),
            line=2,
            field=8,
            says=(
                wide,
                "64 cores (first: job 1 with size 128)",
                "MaxProcs: 64 (",
                "w.swf:1)",
                "--nodes",
            ),
        ),
    )
    add(
        "MaxProcs 64, a job of 128 by field 5",
        machine(
            "; MaxProcs: 64\n",
            job(1, f5=128, f8=-1),
            line=2,
            field=5,
            says=(wide, "MaxProcs: 64 ("),
        ),
    )
    add(
        "MaxProcs 0 and MaxNodes 64",
        machine(
            "; MaxNodes: 64\n; MaxProcs: 0\n",
            job(1, f5=128, f8=128),
            line=3,
            field=8,
            says=("MaxNodes: 64 (", "w.swf:1)", "as its MaxProcs: 0 (", "w.swf:2) gives no size"),
        ),
    )
    add(
        "MaxNodes alone",
        machine(
            "; MaxNodes: 64\n",
            job(1, f5=128, f8=128),
            line=2,
            field=8,
            says=("MaxNodes: 64 (", "as it has no MaxProcs"),
        ),
    )
    add(
        "MaxProcs below MaxNodes",
        machine(
            "; MaxNodes: 64\n; MaxProcs: 16\n",
            job(1, f5=32, f8=32),
            line=3,
            field=8,
            says=("MaxProcs: 16 (", "w.swf:2), fewer than its MaxNodes: 64 (", "w.swf:1)"),
        ),
    )
    add("no header", machine("", job(1), says=("the header gives no machine size", "--nodes")))
    add(
        "MaxProcs -1",
        machine("; MaxProcs: -1\n", job(1), says=("no machine size", "MaxProcs: -1 (", "w.swf:1)")),
    )
    add("MaxProcs empty", machine("; MaxProcs:\n", job(1), says=("no machine size",)))
    add(
        "MaxProcs 2**31",
        machine(f"; MaxProcs: {2**31}\n", job(1), says=("more than the 16,777,216", "w.swf:1)")),
    )
    add(
        "MaxProcs 2**31 + 1",
        machine(f"; MaxProcs: {2**31 + 1}\n", job(1), line=1, says=("cannot be a machine size",)),
    )
    for value in ("1,024", "1e3", "64.5", "many", "0x40"):
        add(
            f"MaxProcs {value}",
            machine(
                f"; MaxProcs: {value}\n", job(1), line=1, says=(f"'{value}' is not an integer",)
            ),
        )
    add(
        "MaxProcs said twice",
        machine(
            "; MaxProcs: 64\n; MaxProcs: 128\n",
            job(1),
            line=2,
            says=("contradicts '64' on line 1",),
        ),
    )
    add(
        "TimeZone of a day",
        machine("; MaxProcs: 8\n; TimeZone: 86400\n", job(1), line=2, says=("no UTC offset",)),
    )
    add(
        "UnixStartTime a word",
        machine("; MaxProcs: 8\n; UnixStartTime: soon\n", job(1), line=2, says=("not an integer",)),
    )
    add(
        "UnixStartTime 1e20",
        machine("; MaxProcs: 8\n; UnixStartTime: 1e20\n", job(1), line=2, says=("not an integer",)),
    )
    add(
        "UnixStartTime past year 9999",
        machine(
            "; MaxProcs: 8\n; UnixStartTime: 99999999999999999\n",
            job(1),
            line=2,
            says=("is no date",),
        ),
    )
    add("MaxProcs 64, jobs of 4", machine("; MaxProcs: 64\n", *JOBS, runs=True))
    add(
        "MaxProcs 64, more cores per node",
        machine(
            "; MaxProcs: 64\n",
            job(1),
            options=("--cores-per-node", "128"),
            says=("cores_per_node = 128 is more than the 64 cores", "MaxProcs: 64 (", "w.swf:1)"),
        ),
    )
    add(
        "MaxProcs 8, all wide, dropped",
        machine(
            "; MaxProcs: 8\n",
            job(1, f5=16, f8=16),
            job(2, f5=32, f8=32),
            options=("--wide", "drop"),
            says=("w.swf", "no jobs to simulate", "all 2 are wider than the machine's 8 cores"),
        ),
    )
    add(
        "MaxProcs 64, a job of 128, nodes given",
        machine("; MaxProcs: 64\n", job(1, f5=128, f8=128), options=("--nodes", "256"), runs=True),
    )
    add(
        "nodes given, a job wider",
        machine(
            "; MaxProcs: 512\n",
            job(1, f5=128, f8=128),
            options=("--nodes", "64"),
            line=2,
            field=8,
            says=("64 cores (first: job 1 with size 128)",),
        ),
    )
    return [pytest.param(case, id=name) for name, case in cases.items()]


WORKLOADS = file_cases()


def test_the_corpora_are_large_enough() -> None:
    assert len(WORKLOADS) >= 135
    assert len(RUN_OPTIONS) + len(STUDIES) >= 110


@pytest.mark.parametrize("case", WORKLOADS)
def test_a_workload_file_runs_or_is_refused_on_one_line(
    case: FileCase, tmp_path: Path, outputs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / case.name
    if isinstance(case.data, bytes):
        path.write_bytes(case.data)
    elif case.data is not None:
        case.data(path, outputs)
    argv = ["run", "--workload", str(path), "--out", str(tmp_path / "out"), *case.options]
    outcome = invoke(argv, capsys)
    if case.runs:
        assert (outcome.code, outcome.err) == (0, ""), outcome.err
        assert (tmp_path / "out" / "schedule.swf").exists()
        return
    line = refused(outcome)
    assert case.name in line
    if case.line is not None:
        assert f"{case.name}:{case.line}: " in line, line
    else:
        # No line of the file is at fault (a header line may be named further on).
        assert not re.match(rf"schedsim: error: {re.escape(str(path))}:\d", line), line
    if case.field is not None:
        assert f": field {case.field} (" in line, line
    for text in case.says:
        assert text in line, line
    assert len(line) < 1000  # a megabyte token is shown cut short


# -- the command-line corpus -----------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """``schedsim run --workload GOOD ARGS``, whose one error line must name one of
    ``mentions`` (an option, in any of its `spellings`, or a text)."""

    args: tuple[str, ...]
    mentions: tuple[str, ...]


def option_cases() -> list[Any]:
    cases: list[Any] = []

    def add(name: str, *args: str, mentions: tuple[str, ...] = ()) -> None:
        option = next((a for a in args if a.startswith("--")), "")
        command = Command(tuple(args), mentions or (option,))
        cases.append(pytest.param(command, id=name))

    def values(
        option: str,
        *bad: str,
        before: tuple[str, ...] = (),
        unparsed: tuple[str, ...] = (),
    ) -> None:
        """A case per value of ``bad`` and of ``unparsed`` (argparse's to refuse: not of
        the option's type or choices, one line all the same)."""
        for value in (*bad, *unparsed):
            add(f"{option} {value!r}", *before, option, value, mentions=(option,))

    add("--workload empty", "--workload", "", mentions=("workload", "''"))
    add("--workload blanks", "--workload", "   ", mentions=("workload",))
    add("--workload unknown", "--workload", "no-such-log", mentions=("no-such-log",))
    add("--workload missing folder", "--workload", "/no/such/dir/", mentions=("/no/such/dir",))
    lublin = ("--workload", "lublin")
    values(
        "--jobs",
        "-1",
        "0",
        "10000000000",
        before=lublin,
        unparsed=("nan", "x", "", "1e300"),
    )
    values(
        "--lublin-alpha",
        "nan",
        "inf",
        "-1",
        "0",
        "1e-300",
        "1e300",
        before=lublin,
        unparsed=("-inf", "x", ""),
    )
    add("--jobs for a trace", "--jobs", "5")
    add("--lublin-alpha for a trace", "--lublin-alpha", "9.8")
    values("--policy", "", "nope", "/no/such.py:Policy", "os:path", "schedsim:Simulation")
    add(
        "--import ''",
        "--import",
        "",
        mentions=("--import",),
    )
    add("--import unknown", "--import", "no_such_module_xyz", mentions=("no_such_module_xyz",))
    add("--import no file", "--import", "/no/such/file.py", mentions=("/no/such/file.py",))
    values("--nodes", "-1", "0", str(2**40), unparsed=("1e300", "x", "", "nan", "1.5"))
    values("--cores-per-node", "-1", "0", str(2**40), unparsed=("x", "1.5"))
    values("--contention", unparsed=("bogus", ""))
    values(
        "--load-factor",
        "-1",
        "0",
        "nan",
        "inf",
        "1e-300",
        "1e300",
        unparsed=("-inf", "x", ""),
    )
    values(
        "--month",
        "",
        "1996",
        "1996-13",
        "1996-00",
        "x",
        "0000-01",
        "9999-12",
    )
    values("--first", "-1", "0", unparsed=("x", "1e3", "1.5", ""))
    values("--seed", "-1", unparsed=("x", "1.5", ""))
    add("--out empty", "--out", "", mentions=("--out",))
    values("--param", "nosuch=1", unparsed=("noequals", "=1"))
    add("--param order=bogus", "--param", "order=bogus", mentions=("--param", "order"))
    values("--priorities", "-0.1", "1.5", "nan", "inf", "1e300", unparsed=("x",))
    values("--reservations", "-0.1", "2", "nan", "inf", unparsed=("x",))
    values(
        "--reservation-lead",
        "-1",
        "nan",
        "inf",
        "1e300",
        before=("--reservations", "0.1"),
        unparsed=("x",),
    )
    add("--reservation-lead alone", "--reservation-lead", "60")
    values("--limit-in", unparsed=("bogus",))
    values("--wide", unparsed=("bogus",))
    values(
        "--overhead-low-mb",
        "-1",
        "nan",
        "inf",
        "1e300",
        unparsed=("x",),
    )
    values("--overhead-high-mb", "-1", "nan", "0")
    add(
        "--overhead-low-mb above --overhead-high-mb",
        "--overhead-low-mb",
        "500",
        "--overhead-high-mb",
        "100",
        mentions=("--overhead-low-mb", "--overhead-high-mb"),
    )
    values(
        "--overhead-rate",
        "0",
        "-1",
        "nan",
        "inf",
        "1e-300",
    )
    values("--overhead-per", unparsed=("bogus",))
    values("--estimates", "", "bogus", "f:-1", "f:nan", "f:inf", "f:x", "tsafrir:-5")
    values("--users", "-1", "0", "1000000000", unparsed=("1e9", "x"))
    users = ("--users", "10")
    values(
        "--days",
        "-1",
        "0",
        "nan",
        "inf",
        "1e9",
        "1e-300",
        before=users,
        unparsed=("x",),
    )
    add("--days alone", "--days", "5")
    values("--max-runtime", "-1", "0", "nan", before=users, unparsed=("x",))
    add("--max-runtime alone", "--max-runtime", "60")
    values("--max-runtime-as", before=users, unparsed=("bogus",))
    add("--max-runtime-as alone", "--max-runtime-as", "cap")
    add(
        "--users with --load-factor",
        *users,
        "--load-factor",
        "2",
        mentions=("--load-factor", "--users"),
    )
    values("--warmup", "-1", "1.5", "nan", "inf", unparsed=("x",))
    values("--cooldown", "-1", "1.5", "nan", unparsed=("x",))
    add(
        "--warmup and --cooldown leave nothing",
        "--warmup",
        "0.6",
        "--cooldown",
        "0.6",
        mentions=("--warmup", "--cooldown"),
    )
    values("--only", unparsed=("nosuch.file", ""))
    add(
        "zeng-w1 on 3 cores",
        "--workload",
        "zeng-w1",
        "--cores-per-node",
        "3",
        mentions=("--cores-per-node",),
    )
    return cases


RUN_OPTIONS = option_cases()


@pytest.fixture
def good(tmp_path: Path) -> Path:
    """A valid log of 30 jobs by 3 users, enough for the closed-loop user model (a user
    needs 5 jobs), so that --users options are checked for what they are."""
    path = tmp_path / "good.swf"
    # Think times (a job after the last one ended) and breaks (hours apart) for each user.
    submits = [300 * i + 7200 * (i // 6) for i in range(1, 31)]
    path.write_bytes(swf(*(job(i, t, f12=i % 3) for i, t in enumerate(submits, start=1))))
    return path


@pytest.mark.parametrize("command", RUN_OPTIONS)
def test_a_bad_command_line_is_refused_on_one_line_before_it_runs(
    command: Command,
    good: Path,
    tmp_path: Path,
    nothing_runs: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["run", "--workload", str(good), "--out", str(tmp_path / "out"), *command.args]
    line = refused(invoke(argv, capsys))
    assert any(spelling in line for m in command.mentions for spelling in spellings(m)), line


def spellings(option: str) -> tuple[str, ...]:
    """How a message may name an option: ``--load-factor``, or as a study key
    (``load_factor``), or in words (``load factor``)."""
    name = option.lstrip("-")
    return (option, name, name.replace("-", "_"), name.replace("-", " "))


# -- the study corpus --------------------------------------------------------------------


def study_cases() -> list[Any]:
    cases: list[Any] = []

    def add(name: str, text: str | bytes, *mentions: str) -> None:
        cases.append(pytest.param(text, mentions, id=name))

    head = '[study]\nname = "s"\nseed = 1\nreplications = 1\n'
    base = head + "[base]\nworkload = 'GOOD'\n"
    add("empty file", "", "study.toml")
    add("blanks only", "\n  \n\t\n", "study.toml")
    add("not toml", "this is not toml\n", "not valid TOML")
    add(
        "binary",
        b"\x00\x01\x02\xff\xfe",
        "study.toml",
    )
    add("empty name", base.replace('"s"', '""'), "name")
    add("name a number", base.replace('"s"', "5"), "name")
    add("unknown table", base + "[bogus]\nx = 1\n", "bogus")
    add("unknown study key", base.replace("seed", "replicatons = 2\nseed"), "replicatons")
    add("unknown base key", base + "nods = 4\n", "nods")
    for value in ('"three"', "0", "-1", "1000000000", "1.5"):
        add(
            f"replications {value}",
            base.replace("replications = 1", f"replications = {value}"),
            "replications",
        )
    for value in ('"x"', "-1", "1.5"):
        add(f"seed {value}", base.replace("seed = 1", f"seed = {value}"), "seed")
    for key, bad in (
        ("nodes", ('"many"', "0", "-1", "1e300")),
        ("first", ("1.5", "-1")),
        ("load_factor", ('"high"', "0", "-1", "nan", "inf")),
        ("policy", ("5", '"nope"')),
        ("params", ("3",)),
        ("cores_per_node", ("0", "-1")),
        ("warmup", ("-1", "1.5")),
    ):
        for value in bad:
            add(f"{key} {value}", base + f"{key} = {value}\n", key)
    add(
        "workload missing",
        base.replace("'GOOD'", "'missing.swf'"),
        "missing.swf",
    )
    add("workload empty", base.replace("'GOOD'", "''"), "workload")
    add(
        "workload a csv",
        base.replace("'GOOD'", "'CSV'"),
        "looks like CSV",
    )
    add("a billion days", base + "users = 10\ndays = 1e9\n", "days")
    add("no users", base + "users = 0\n", "users")
    add(
        "a trillion jobs",
        head + "[base]\nworkload = 'lublin'\njobs = 1000000000000\n",
        "jobs",
    )
    add("days without users", base + "days = 5\n", "days")
    add("grid of an empty list", base + "[grid]\npolicy = []\n", "policy")
    add("grid not a list", base + "[grid]\npolicy = 'easy'\n", "policy")
    add("grid unknown key", base + "[grid]\nnosuchkey = [1, 2]\n", "nosuchkey")
    add("grid absurd value", base + "[grid]\nload_factor = [1.0, -1.0]\n", "load_factor")
    clash = base + "[grid]\npolicy = ['easy']\n[[variants]]\nlabel = 'v'\npolicy = 'fcfs'\n"
    add("grid and variant set one key", clash, "policy")
    add("variant unknown key", base + "[[variants]]\nlabel = 'v'\nnods = 3\n", "nods")
    add(
        "a metric that does not exist",
        base + "[report]\nmetrics = ['nosuch']\n",
        "nosuch",
    )
    add("metrics not a list", base + "[report]\nmetrics = 'mean_wait'\n", "metrics")
    add(
        "baseline not a policy",
        base + "[report]\nbaseline = 'nosuchpolicy'\n",
        "nosuchpolicy",
    )
    add("kind unknown", base + "[report]\nkind = 'bogus'\n", "bogus")
    add("x unknown", base + "[report]\nx = 'nosuchkey'\n", "nosuchkey")
    add("report unknown key", base + "[report]\nbogus = 1\n", "bogus")
    add(
        "imports unknown",
        base.replace("seed = 1", "seed = 1\nimports = ['no_such_mod_xyz']"),
        "no_such_mod_xyz",
    )
    return cases


STUDIES = study_cases()


@pytest.mark.parametrize(("text", "mentions"), STUDIES)
def test_a_bad_study_file_is_refused_on_one_line_before_it_runs(
    text: str | bytes,
    mentions: tuple[str, ...],
    good: Path,
    tmp_path: Path,
    nothing_runs: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    csv = tmp_path / "jobs.csv"
    csv.write_text("id,submit\n1,0\n")
    path = tmp_path / "study.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text.replace("GOOD", str(good)).replace("CSV", str(csv)))
    line = refused(invoke(["sweep", str(path), "--out", str(tmp_path / "out")], capsys))
    assert "study.toml" in line or str(good) in line or str(csv) in line, line
    assert all(m in line for m in mentions), line


@pytest.mark.parametrize(
    ("args", "mentions"),
    [
        (("--workers", "-1"), "--workers"),
        (("--workers", "x"), "--workers"),
        (("--workers", "1e300"), "--workers"),
        (("--cluster", ""), "--cluster"),
        (("--out", ""), "--out"),
    ],
    ids=["workers negative", "workers a word", "workers 1e300", "cluster empty", "out empty"],
)
def test_bad_sweep_options_are_refused_on_one_line(
    args: tuple[str, ...],
    mentions: str,
    good: Path,
    tmp_path: Path,
    nothing_runs: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "study.toml"
    path.write_text(f'[study]\nname = "s"\n[base]\nworkload = "{good}"\n')
    line = refused(invoke(["sweep", str(path), *args], capsys))
    assert mentions in line, line


@pytest.mark.parametrize("what", ["a directory", "missing"])
def test_a_study_that_is_no_file_is_refused_on_one_line(
    what: str, tmp_path: Path, nothing_runs: None, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "study.toml"
    if what == "a directory":
        path.mkdir()
    line = refused(invoke(["sweep", str(path), "--out", str(tmp_path / "out")], capsys))
    assert "study.toml" in line
