"""Standard Workload Format (SWF) reading, validation and writing.

SWF (Parallel Workloads Archive, v2.2) is a text file with header comments
``; Key: value`` and one line of 18 whitespace-separated numbers per job; -1
means "missing". See the archive's ``swf.html`` for the field meanings and
`schedsim.model.job.SWF_FIELDS` for the names used here.

Why strict: a simulator that silently skips a garbled line (or reads ``-5`` as
a run time) gives results nobody can reproduce. So every malformed line is an
`SWFError` that names the file, the 1-based line number and the SWF field, and
every job that the default cleaning drops or changes is counted in a
`CleaningStep` on the returned `Workload` (DESIGN.md, "Bad input").

Choices made here (the format leaves them open):

- A value must be a finite number (``12``, ``142.00``, ``1e3``); ``-1`` (or
  ``-1.0``) means missing, any other negative value is malformed in every
  field. Fields that hold counts or identifiers (job number, processors,
  status, user/group/executable/queue/partition, preceding job) must be whole
  numbers.
- A missing job number or submit time is an error even when cleaning: such a
  job cannot be placed in time, and dropping it would hide a broken log.
- Lines need not be sorted by submit time; the `Workload` sorts them (ties by
  job number), as the simulator's FCFS order requires.
- Comment lines anywhere in the file go to ``Header.lines``; those of the form
  ``; Key: value`` (a word right after the ``;``) also go to ``Header.fields``
  (first value of a repeated key). Indented continuation lines such as
  ``;              http://...`` are kept as plain lines.
- A job whose requested time (field 9) is missing or 0 gets its run time as
  its estimate; this change is counted whether or not ``clean`` is set,
  because the simulator needs an estimate for every job.
"""

from __future__ import annotations

import gzip
import math
import os
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING

import numpy as np

from schedsim.workloads.job import SWF_FIELDS, Job
from schedsim.workloads.workload import CleaningStep, Header, Workload

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["SWFError", "read_header", "read_swf", "write_swf"]

#: 0-based indices of the fields that must hold whole numbers.
_INT_FIELDS: tuple[int, ...] = (0, 4, 7, 10, 11, 12, 13, 14, 15, 16)
_N_FIELDS = len(SWF_FIELDS)
_GZIP_MAGIC = b"\x1f\x8b"
_GZIP_ERRORS = (gzip.BadGzipFile, EOFError, zlib.error)
#: ``; Key: value`` with the key right after the semicolon (at most one blank),
#: so indented continuation lines like ``;    http://x`` are not mistaken for keys.
_KEY_RE = re.compile(r";[ \t]?([A-Za-z][A-Za-z0-9_]*)[ \t]*:(.*)")
_LEADING_INT_RE = re.compile(r"[+-]?\d+")

# Cleaning step names (also used by the tests and the run summary).
STEP_NO_SIZE = "dropped: no size"
STEP_NO_RUN_TIME = "dropped: run time missing"
STEP_NO_ESTIMATE = "estimate missing: used run time"


class SWFError(ValueError):
    """A malformed or inconsistent SWF file, located as precisely as possible.

    ``path`` is the file as given, ``line`` the 1-based line number (None when
    the problem concerns the whole file), ``field`` the SWF field name from
    `schedsim.model.job.SWF_FIELDS` (None when no single field is at fault, e.g. a
    header line or a wrong number of fields). ``str()`` is one line:
    ``KTH.swf.gz:123: field 4 (run_time): '-5' is negative (only -1 means missing)``.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        line: int | None,
        field: str | None,
        reason: str,
    ) -> None:
        self.path = str(path)
        self.line = line
        self.field = field
        self.reason = reason
        super().__init__(self._format())

    def _format(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        if self.field is not None:
            number = SWF_FIELDS.index(self.field) + 1 if self.field in SWF_FIELDS else "?"
            return f"{where}: field {number} ({self.field}): {self.reason}"
        return f"{where}: {self.reason}"

    def __str__(self) -> str:
        return self._format()

    def __reduce__(self) -> tuple[type[SWFError], tuple[str, int | None, str | None, str]]:
        # Keep the attributes when the error crosses a process boundary
        # (parameter sweeps run in worker processes).
        return (type(self), (self.path, self.line, self.field, self.reason))


# -- reading -----------------------------------------------------------------


def _read_text(path: Path) -> str:
    """The file's text; gzip is recognised by its magic bytes, not the suffix."""
    data = path.read_bytes()
    if data[:2] == _GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except _GZIP_ERRORS as exc:
            raise SWFError(path, None, None, f"corrupt gzip data: {exc}") from None
    return _decode(data)


def _decode(data: bytes) -> str:
    """UTF-8, else Latin-1: old logs may carry Latin-1 names in their header
    (job lines are ASCII either way), and Latin-1 never fails."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _leading_int(value: str) -> int | None:
    """The integer a header value starts with: ``'338 (batch ...)'`` -> 338."""
    m = _LEADING_INT_RE.match(value.strip())
    return int(m.group()) if m else None


class _HeaderBuilder:
    """Collects comment lines and turns them into a `Header`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines: list[str] = []
        self.fields: dict[str, str] = {}
        self.where: dict[str, int] = {}

    def add(self, raw: str, lineno: int) -> None:
        self.lines.append(raw)
        m = _KEY_RE.match(raw.lstrip())
        if m:
            key, value = m.group(1), m.group(2).strip()
            if key not in self.fields:
                self.fields[key] = value
                self.where[key] = lineno

    def _int(self, key: str, *, leading: bool) -> int | None:
        value = self.fields.get(key)
        if value is None or value == "":
            return None
        number = _leading_int(value) if leading else _strict_int(value)
        if number is None:
            raise SWFError(
                self.path,
                self.where[key],
                None,
                f"header {key}: {value!r} is not an integer",
            )
        return number

    def build(self) -> Header:
        max_nodes = self._int("MaxNodes", leading=True)
        max_procs = self._int("MaxProcs", leading=True)
        return Header(
            # -1 means unknown in headers too.
            max_nodes=max_nodes if max_nodes is not None and max_nodes > 0 else None,
            max_procs=max_procs if max_procs is not None and max_procs > 0 else None,
            unix_start_time=self._int("UnixStartTime", leading=False),
            time_zone=self._int("TimeZone", leading=False),
            time_zone_string=self.fields.get("TimeZoneString") or None,
            fields=dict(self.fields),
            lines=tuple(self.lines),
        )


def _strict_int(value: str) -> int | None:
    try:
        return int(value.strip())
    except ValueError:
        return None


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """(1-based line number, line without end-of-line) for every line."""
    for lineno, line in enumerate(text.split("\n"), start=1):
        yield lineno, line.rstrip("\r")


def _bad_value(path: Path, lineno: int, index: int, token: str) -> SWFError:
    return SWFError(path, lineno, SWF_FIELDS[index], f"{token!r} is not a number")


def _parse_line(path: Path, lineno: int, line: str) -> list[float]:
    """The 18 values of one job line, validated; raises `SWFError` otherwise.

    This is the reference definition of a valid job line and the source of
    every per-field message; `_parse_all` uses it to diagnose the lines its
    vectorised checks reject. The per-field search for the culprit runs only
    once a whole-line check has failed.
    """
    parts = line.split()
    if len(parts) != _N_FIELDS:
        if len(parts) < _N_FIELDS:
            missing = len(parts)
            raise SWFError(
                path,
                lineno,
                SWF_FIELDS[missing],
                f"missing: the line has {len(parts)} fields, SWF needs {_N_FIELDS}",
            )
        raise SWFError(
            path, lineno, None, f"the line has {len(parts)} fields, SWF needs {_N_FIELDS}"
        )
    if "_" in line or not line.isascii():
        # float() would take '1_000' and non-ASCII digits; SWF is plain ASCII numbers.
        for i, p in enumerate(parts):
            if "_" in p or not p.isascii():
                raise _bad_value(path, lineno, i, p)
    try:
        values = [float(p) for p in parts]
    except ValueError:
        for i, p in enumerate(parts):
            try:
                float(p)
            except ValueError:
                raise _bad_value(path, lineno, i, p) from None
        raise  # pragma: no cover - some token must have failed
    total = sum(values)
    if total - total != 0.0:  # a nan or an infinity somewhere (or overflow)
        for i, v in enumerate(values):
            if not math.isfinite(v):
                raise _bad_value(path, lineno, i, parts[i])
    if min(values) < 0.0:
        for i, v in enumerate(values):
            if v < 0.0 and v != -1.0:
                raise SWFError(
                    path,
                    lineno,
                    SWF_FIELDS[i],
                    f"{parts[i]!r} is negative (only -1 means missing)",
                )
    for i in _INT_FIELDS:
        if not values[i].is_integer():
            raise SWFError(path, lineno, SWF_FIELDS[i], f"{parts[i]!r} is not a whole number")
    return values


def read_header(path: str | os.PathLike[str]) -> Header:
    """Only the header of an SWF file (the comments before the first job line).

    Cheap: stops at the first job line, so catalogs can describe large logs
    without parsing them.
    """
    p = Path(path)
    builder = _HeaderBuilder(p)
    with p.open("rb") as raw:
        is_gzip = raw.read(2) == _GZIP_MAGIC
        raw.seek(0)
        fh: IO[bytes] = gzip.GzipFile(fileobj=raw) if is_gzip else raw  # type: ignore[assignment]
        try:
            for lineno, bline in enumerate(fh, start=1):
                line = _decode(bline).rstrip("\r\n")
                stripped = line.strip()
                if not stripped:
                    continue
                if not stripped.startswith(";"):
                    break
                builder.add(line, lineno)
        except _GZIP_ERRORS as exc:
            raise SWFError(p, None, None, f"corrupt gzip data: {exc}") from None
    return builder.build()


def _default_name(path: Path) -> str:
    name = path.name
    for suffix in (".gz", ".swf"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name or path.name


def _split(path: Path, text: str) -> tuple[_HeaderBuilder, list[str], list[int]]:
    """Comment lines into a header; job lines (stripped) with their line numbers."""
    header = _HeaderBuilder(path)
    job_lines: list[str] = []
    numbers: list[int] = []
    for lineno, line in _lines(text):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped[0] == ";":
            header.add(line, lineno)
        else:
            job_lines.append(stripped)
            numbers.append(lineno)
    return header, job_lines, numbers


def _parse_all(path: Path, lines: list[str], numbers: list[int]) -> list[list[float]]:
    """The validated values of every job line.

    Fast path: numpy's C parser reads all lines at once and the checks run on
    whole columns (about twice as fast as float() per token on the CTC log). The
    first line any check rejects is then re-read by `_parse_line`, which is the
    single source of the error messages; if numpy refuses the text outright
    (a non-number, a short line), every line goes through `_parse_line` so the
    first bad one is reported.
    """
    try:
        a = np.loadtxt(lines, dtype=np.float64, comments=None, ndmin=2)
    except ValueError:
        a = None
    if a is None or a.shape[1] != _N_FIELDS:
        return [_parse_line(path, n, line) for n, line in zip(numbers, lines, strict=True)]
    finite = np.isfinite(a).all(axis=1)
    bad = ~finite
    with np.errstate(invalid="ignore"):
        bad |= ((a < 0) & (a != -1)).any(axis=1)
        ints = a[:, list(_INT_FIELDS)]
        bad |= (ints != np.floor(ints)).any(axis=1)
    if bad.any():
        row = int(np.argmax(bad))
        _parse_line(path, numbers[row], lines[row])  # raises with the precise field
        raise SWFError(path, numbers[row], None, "malformed job line")  # pragma: no cover
    return a.tolist()


def read_swf(
    path: str | os.PathLike[str], *, clean: bool = True, name: str | None = None
) -> Workload:
    """Read an SWF log (plain or gzip) into a `Workload`, validating every line.

    Each job becomes a `Job` with ``size`` = requested processors (field 8)
    when positive, else allocated processors (field 5); ``run_time`` = field 4;
    ``estimate`` = requested time (field 9) when positive, else the run time;
    ``swf`` = the 18 original values as floats.

    With ``clean=True`` (the default), jobs with no size or with a missing run
    time are dropped, each reason counted as its own `CleaningStep` (a job
    missing both counts once, as "no size"). With ``clean=False`` such a job is
    an `SWFError` instead: the caller asked for the log as it is, and the
    simulator cannot run it. An empty file, or one whose every job is dropped,
    is an `SWFError` too, since nothing could be simulated.
    """
    p = Path(path)
    header, lines, numbers = _split(p, _read_text(p))
    if not lines:
        raise SWFError(p, None, None, "no job lines (empty SWF file)")
    rows = _parse_all(p, lines, numbers)

    jobs: list[Job] = []
    seen: dict[int, int] = {}  # job number -> line
    no_size = no_run = no_estimate = 0
    for lineno, v in zip(numbers, rows, strict=True):
        if v[0] == -1.0:
            raise SWFError(p, lineno, SWF_FIELDS[0], "job number is missing (-1)")
        job_id = int(v[0])
        first = seen.setdefault(job_id, lineno)
        if first != lineno:
            raise SWFError(
                p, lineno, SWF_FIELDS[0], f"duplicate job number {job_id} (first on line {first})"
            )
        if v[1] == -1.0:
            raise SWFError(p, lineno, SWF_FIELDS[1], "submit time is missing (-1)")

        requested, allocated = v[7], v[4]
        size = requested if requested > 0 else allocated
        if size <= 0:
            if not clean:
                raise SWFError(
                    p,
                    lineno,
                    SWF_FIELDS[7],
                    f"no size: requested {_fmt(requested)} and allocated "
                    f"{_fmt(allocated)} processors (clean=True drops such jobs)",
                )
            no_size += 1
            continue
        run_time = v[3]
        if run_time == -1.0:
            if not clean:
                raise SWFError(
                    p,
                    lineno,
                    SWF_FIELDS[3],
                    "run time is missing (-1) (clean=True drops such jobs)",
                )
            no_run += 1
            continue
        estimate = v[8]
        if estimate <= 0:
            estimate = run_time
            no_estimate += 1
        jobs.append(
            Job(
                id=job_id,
                submit=v[1],
                run_time=run_time,
                size=int(size),
                estimate=estimate,
                user=int(v[11]),
                group=int(v[12]),
                app=int(v[13]),
                queue=int(v[14]),
                partition=int(v[15]),
                swf=tuple(v),
            )
        )

    steps = [
        CleaningStep(STEP_NO_SIZE, no_size, "requested and allocated processors missing or 0"),
        CleaningStep(STEP_NO_RUN_TIME, no_run, "run time -1"),
        CleaningStep(STEP_NO_ESTIMATE, no_estimate, "requested time -1 or 0"),
    ]
    cleaning = tuple(s for s in steps if s.count > 0)
    if not jobs:
        summary = "; ".join(str(s) for s in cleaning)
        raise SWFError(p, None, None, f"no usable jobs: all {len(lines)} were dropped ({summary})")
    return Workload(
        tuple(jobs),
        header.build(),
        name=name if name is not None else _default_name(p),
        source=str(path),
        cleaning=cleaning,
    )


# -- writing -----------------------------------------------------------------


def _fmt(value: float) -> str:
    """An SWF value: integers without decimals, other values exactly (shortest repr)."""
    if value.is_integer():
        return str(int(value))
    text = repr(value)
    if "e" in text or "E" in text:
        text = f"{value:.17f}".rstrip("0").rstrip(".")
    return text


def _seconds(value: float, what: str, job_id: int) -> float:
    """Whole seconds (half up); NaN (never ran/unfinished) becomes -1 (missing)."""
    if math.isnan(value):
        return -1.0
    if math.isinf(value):
        raise ValueError(f"job {job_id}: simulated {what} is infinite")
    rounded = math.floor(value + 0.5)
    if rounded < 0:
        raise ValueError(f"job {job_id}: simulated {what} {value!r} is negative")
    return float(rounded)


def _status(value: float, job_id: int) -> float:
    """An SWF status (field 11): a whole number >= 0, or -1; NaN becomes -1 (missing)."""
    if math.isnan(value):
        return -1.0
    if not (math.isfinite(value) and value.is_integer() and (value >= 0 or value == -1)):
        raise ValueError(
            f"job {job_id}: status {value!r} is not an SWF status (0, 1, 5, ... or -1)"
        )
    return float(value)


#: The line that says who wrote the file (followed by `` (note)`` when given).
_PRODUCED = "; Note: schedule simulated by schedsim"
#: The prefix of the lines that list the cleaning steps behind the jobs written.
_CLEANING = "; Note: schedsim cleaning: "
#: The SWF header keys in the archive's order, up to the ones the writer sets:
#: a key the source header lacks goes after the last of those before it.
_KEY_ORDER = (
    "Version",
    "Computer",
    "Installation",
    "Acknowledge",
    "Information",
    "Conversion",
    "MaxJobs",
    "MaxRecords",
    "Preemption",
)


def _key(line: str) -> str | None:
    """The key of a ``; Key: value`` header line, None for other comment lines."""
    m = _KEY_RE.match(line.lstrip())
    return m.group(1) if m else None


def _set_fields(lines: list[str], values: dict[str, str]) -> list[str]:
    """``lines`` with each ``; Key: value`` of ``values`` set: in place where the key is
    (every occurrence), else inserted in the archive's order (after the last key that
    precedes it there and that line's indented continuation lines, else first)."""
    out = []
    for ln in lines:
        key = _key(ln)
        out.append(f"; {key}: {values[key]}" if key in values else ln)
    for key, value in values.items():
        if any(_key(ln) == key for ln in out):
            continue
        before = set(_KEY_ORDER[: _KEY_ORDER.index(key)])
        at = 0
        for i, ln in enumerate(out):
            if _key(ln) in before:
                at = i + 1
                # Indented continuation lines (";     http://...") belong to the key above.
                while at < len(out) and _is_continuation(out[at]):
                    at += 1
        out.insert(at, f"; {key}: {value}")
    return out


def _is_continuation(line: str) -> bool:
    """An indented comment line that is not a key (``;      http://...``)."""
    text = line.strip()
    return (
        text.startswith(";") and text[1:2].isspace() and bool(text[1:].strip()) and not _key(text)
    )


def _header_lines(
    workload: Workload, records: int, preemption: str | None, note: str | None
) -> list[str]:
    """The header of a written schedule (see `write_swf`)."""
    source = list(workload.header.lines) or _synthetic_header(workload)
    fields = {"MaxJobs": str(len(workload)), "MaxRecords": str(records)}
    if preemption is not None:
        fields["Preemption"] = preemption
    elif not any(_key(ln) == "Preemption" for ln in source):
        fields["Preemption"] = "No"
    lines = _set_fields(source, fields)

    produced = _PRODUCED
    if note:
        text = " ".join(note.split())
        # A note that already says it (``"schedule simulated by schedsim (policy: ss)"``)
        # is the whole line, not a second copy inside the first.
        prefix = _PRODUCED.removeprefix("; Note: ")
        produced = f"; Note: {text}" if text.startswith(prefix) else f"{_PRODUCED} ({text})"
    # A schedule read back and written again: its old line gives way to the new one,
    # in place; the cleaning notes it carries still describe the jobs, so they stay.
    old = [i for i, ln in enumerate(lines) if ln.strip().startswith(_PRODUCED)]
    if old:
        lines[old[0]] = produced
        lines = [ln for i, ln in enumerate(lines) if i not in old[1:]]
    else:
        lines.append(produced)
    present = {ln.strip() for ln in lines}
    lines.extend(
        f"{_CLEANING}{step}" for step in workload.cleaning if f"{_CLEANING}{step}" not in present
    )
    return lines


def _synthetic_header(workload: Workload) -> list[str]:
    """Minimal header for a workload that has none (synthetic models); `_header_lines`
    adds ``MaxJobs``, ``MaxRecords`` and ``Preemption``."""
    h = workload.header
    lines = ["; Version: 2.2"]
    if h.unix_start_time is not None:
        lines.append(f"; UnixStartTime: {h.unix_start_time}")
    if h.time_zone is not None:
        lines.append(f"; TimeZone: {h.time_zone}")
    if h.time_zone_string:
        lines.append(f"; TimeZoneString: {h.time_zone_string}")
    if h.max_nodes is not None:
        lines.append(f"; MaxNodes: {h.max_nodes}")
    if h.max_procs is not None:
        lines.append(f"; MaxProcs: {h.max_procs}")
    return lines


def _job_fields(
    job: Job, wait: float, run: float, size: int, status: float | None = None
) -> list[float]:
    """The 18 values to write for ``job`` with its simulated wait, run, size and status.

    Fields 3, 4, 5 come from the schedule, and so does field 11 (status) when
    ``status`` is given (else it keeps the trace's). Fields 1, 2, 8, 9 and 12-16 keep the
    original value unless it no longer describes the job the simulator ran
    (a transform changed submit, size or estimate), so that reading the file
    back gives the same jobs. In particular a missing (-1) requested time
    stays -1 while the estimate equals the written run time, and is otherwise
    replaced by the estimate that was used.
    """
    if job.swf is None:
        v = [-1.0] * _N_FIELDS
        v[7] = float(job.size)
        v[8] = float(job.estimate)
    else:
        v = list(job.swf)
        # Reading back takes field 8 when positive, else field 5 (= size).
        if v[7] > 0 or size != job.size:
            v[7] = float(job.size)
        # Reading back takes field 9 when positive, else the written run time.
        kept = v[8] == job.estimate if v[8] > 0 else job.estimate == run
        if not kept:
            v[8] = float(job.estimate)
    v[0] = float(job.id)
    v[1] = float(job.submit)
    v[2] = wait
    v[3] = run
    v[4] = float(size)
    if status is not None:
        v[10] = status
    v[11], v[12], v[13] = float(job.user), float(job.group), float(job.app)
    v[14], v[15] = float(job.queue), float(job.partition)
    return v


def _format_rows(rows: list[list[float]]) -> list[str]:
    """SWF job lines from rows of 18 values, right-aligned per column like the
    archive's own files.

    Whole-number columns (nearly all of them) are converted by numpy and each
    line is produced by one printf-style format, so writing the 77k-job CTC
    schedule stays well under a second.
    """
    if not rows:
        return []
    table = np.array(rows, dtype=np.float64)
    columns: list[list[int] | list[str]] = []
    specs = []
    for col in table.T:
        if np.all(col == np.floor(col)) and np.all(np.abs(col) < 2.0**53):
            ints = col.astype(np.int64)
            width = max(len(str(ints.min())), len(str(ints.max())))
            columns.append(ints.tolist())
            specs.append(f"%{width}d")
        else:
            texts = [_fmt(v) for v in col.tolist()]
            columns.append(texts)
            specs.append(f"%{max(map(len, texts))}s")
    line = " ".join(specs)
    return [line % values for values in zip(*columns, strict=True)]


def write_swf(
    path: str | os.PathLike[str],
    workload: Workload,
    schedule: pd.DataFrame,
    *,
    note: str | None = None,
    preemption: str | None = None,
) -> None:
    """Write a simulated schedule as an SWF log (gzip when ``path`` ends in .gz).

    ``schedule`` has one row per simulated job with columns ``id``, ``wait``
    and ``run`` (seconds) and optionally ``size`` and ``status`` (SWF field
    11: 1 completed, 0 failed, 5 cancelled...; NaN or -1 for missing). The
    output keeps the workload's header lines except those that describe the
    file written: ``; MaxJobs:`` and ``; MaxRecords:`` count the jobs written
    (one line each) and ``; Preemption:`` is ``preemption`` when given, else
    the source header's (``No`` when it has none); a key the header lacks is
    added in the archive's order. Then comes ``; Note: schedule simulated by
    schedsim`` (followed by `` (note)`` when given; a ``note`` that starts
    with "schedule simulated by schedsim" is the whole line) and one
    ``; Note: schedsim cleaning:`` per cleaning step. Writing a schedule that
    was read from such a file replaces its note line in place and keeps its
    cleaning lines, so each appears once. Then one line per job in submit
    order: the original 18 fields with wait (field 3) and run time (field 4)
    from the schedule, rounded half up to whole seconds (NaN, e.g. a job that
    never finished, is written as -1), allocated processors (field 5) = size
    (the schedule's, else the job's) and status (field 11) from the schedule
    when it has that column (else the trace's). Jobs without SWF fields
    (synthetic) get -1 in the fields they do not know. Every workload job
    must be in the schedule exactly once, and the schedule must not name
    other jobs (`ValueError` otherwise): a partial file would be mistaken for
    a full run.
    """
    ids = [int(i) for i in schedule["id"].to_numpy()]
    waits = schedule["wait"].to_numpy(dtype=float)
    runs = schedule["run"].to_numpy(dtype=float)
    sizes = schedule["size"].to_numpy() if "size" in schedule.columns else None
    statuses = schedule["status"].to_numpy(dtype=float) if "status" in schedule.columns else None
    rows: dict[int, int] = {}
    for row, job_id in enumerate(ids):
        if job_id in rows:
            raise ValueError(f"schedule has job {job_id} more than once")
        rows[job_id] = row
    workload_ids = {job.id for job in workload}
    missing = [job.id for job in workload if job.id not in rows]
    if missing:
        raise ValueError(
            f"{len(missing)} jobs of workload {workload.name!r} are not in the schedule "
            f"(first: job {missing[0]})"
        )
    extra = [i for i in ids if i not in workload_ids]
    if extra:
        raise ValueError(
            f"schedule has {len(extra)} jobs that are not in workload {workload.name!r} "
            f"(first: job {extra[0]})"
        )

    out_rows = []
    for job in workload:
        r = rows[job.id]
        size = int(sizes[r]) if sizes is not None else job.size
        wait = _seconds(float(waits[r]), "wait", job.id)
        run = _seconds(float(runs[r]), "run time", job.id)
        status = _status(float(statuses[r]), job.id) if statuses is not None else None
        out_rows.append(_job_fields(job, wait, run, size, status))
    header = _header_lines(workload, len(out_rows), preemption, note)
    text = "\n".join(header + _format_rows(out_rows)) + "\n"
    data = text.encode("utf-8")
    p = Path(path)
    if p.name.endswith(".gz"):
        # Level 6 (zlib's default): nearly level 9's size at a fraction of the time;
        # mtime=0: the same schedule always gives the same bytes.
        data = gzip.compress(data, compresslevel=6, mtime=0)
    p.write_bytes(data)
