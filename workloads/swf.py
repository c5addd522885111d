"""Standard Workload Format (SWF) reading, validation and writing.

SWF (Parallel Workloads Archive, v2.2) is a text file with header comments
``; Key: value`` and one line of 18 whitespace-separated numbers per job; -1
means "missing". See the archive's ``swf.html`` for the field meanings and
`schedsim.workloads.job.SWF_FIELDS` for the names used here.

Why this much care: a simulator that silently skips a garbled line, reads ``-5``
as a run time or rounds a huge submit time gives results nobody can reproduce;
one that refuses a whole archive log for a status of ``-4`` that it never reads
cannot be used on real logs. So the reader is strict where a run uses a field
and lenient, but never silent, where it does not: every refusal is an
`SWFError` on one line naming the file, the 1-based line number and the SWF
field, and every job the reader drops or changes is counted in a
`CleaningStep` on the returned `Workload`, whose detail names the first few
line numbers (DESIGN.md, "Bad input").

**Refused in every mode** (the file is not SWF, or a run would compute with a
wrong number):

- a line without 18 fields, a token that is not a finite number (``x``,
  ``nan``, ``inf``, ``1_000``, non-ASCII digits), a fraction in a field that
  holds counts or identifiers (job number, processors, status, user, group,
  executable, queue, partition, preceding job);
- in the fields a run uses (job number, submit time, run time, allocated and
  requested processors, requested time), a negative value other than -1;
- on a line that is loaded: a missing job number, a job number seen on an
  earlier loaded line (a preempted job's partial executions aside: below), a
  job number of 2**53 or more (values are read as floats, which hold every
  whole number exactly only below 2**53, and the simulation keeps ids in
  64-bit integers); a submit, run or requested time of
  2**43 s or more (8,796,093,022,208 s, about 279,000 years: below it a float
  still resolves a millisecond, beyond it ``1e18 + 300`` is no longer 300 s
  after ``1e18``), or a submit time plus the longer of run and requested time
  that reaches 2**43 s (the job's end); more than 2**31 processors (sizes
  become 64-bit integers and are multiplied by run times);
- a header value the reader interprets that cannot be what it says: ``MaxNodes``
  or ``MaxProcs`` above 2**31 (no machine size), ``TimeZone`` of a day or more
  (no UTC offset), a ``UnixStartTime`` that is no date (years 1 to 9999), a
  non-integer ``UnixStartTime``, ``TimeZone``, ``MaxNodes`` or ``MaxProcs`` (those
  two may be followed by words after a blank or a parenthesis: ``338 (batch
  partition)``; ``1,024``, ``1e3`` and ``64.5`` are refused, not read as 1, 1 and
  64); one of these keys repeated with another value (``; MaxProcs: 64``, then
  ``; MaxProcs: 128``: the reader would have to choose in silence);
- an empty file, one whose every line is dropped, and a file that plainly is not
  SWF text, told by its content (`schedsim.workloads.formats`): CSV (a ``jobs.csv``
  a run wrote), JSON, HTML, Parquet, binary data, bzip2/xz/zstd/zip/tar, UTF-16;
  the one line says what it looks like and which formats schedsim reads.

A processor count is named by its field. A job's size is field 8 (requested
processors) when above 0, else field 5 (allocated), so a size too large is
reported at the field it comes from, whichever comes first on the line, and a
wrong field 5 on a line whose size is field 8's says so. Where the messages of
other modules need the file's lines (a job wider than the machine, a machine
size the header gives), `source_lines` finds them.

**Cleaned, counted and reported** by default (each as its own `CleaningStep`):

- a line with no usable data is dropped: no size (neither requested nor
  allocated processors above 0: "dropped: no size"), a missing submit time
  ("dropped: submit time missing": it cannot be placed in time), a missing run
  time ("dropped: run time missing"); a line missing several is counted once,
  in that order. Its job number is not looked at (LLNL-Thunder-2007-1.1-cln has
  1,190 lines whose every field but the job number is -1);
- a missing (-1) or 0 requested time: the run time is the estimate ("estimate
  missing: used run time"), counted whether or not ``clean`` is set, because
  the simulator needs an estimate for every job;
- an unusual value in a field the run does not use: a negative value other
  than -1 (Sandia-Ross-2001-1.1-cln has status -4 on three lines), and in the
  wait time also one of 2**43 s or more, in the five identifiers also one of
  2**53 or more. Per field:

  ======================  ==============  =========================================
  field                   unusual value   why
  ======================  ==============  =========================================
  3 wait time             set to missing  the closed-loop user model adds it to the
                                          submit time (a job's end in the trace), and
                                          takes a missing wait as 0
  12-16 user, group,      set to missing  job record fields and int64 table columns;
  executable, queue,                      the user model imitates users by user id
  partition                               (a job without one is left out of it)
  6 average CPU time,     kept as read    nothing computes with them; they are
  7 used memory,                          written back to ``schedule.swf`` unchanged
  10 requested memory,
  11 status,
  17 preceding job,
  18 think time
  ======================  ==============  =========================================

  Set to missing means -1 in the `Job` and in its ``swf`` fields alike. Each
  field's step reads, for example, ``unusual status, kept as read: 3 jobs
  (status -4 on lines 17218, 17219, 17220)``. Values on a dropped line are not
  looked at: the line is counted once, by its drop.

**Partial executions** (SWF 2.2: a checkpointed or swapped job's parts, lines of
status 2, "to be continued", 3, "last part, job completed" and 4, "last part,
job failed", sharing the job's number) are read as one job each, in every mode:
the partial lines of a job that also has a summary line (a line of another
status: ``Preemption: Double``, as `write_swf` writes a simulated schedule) are
skipped ("partial executions skipped: summary line used"), and those of a job
that has none (``Preemption: Yes``) are merged into one job ("partial executions
merged: one job each": the first line's fields, run = the sum of the runs, wait =
the last line's end - submit - run, status 1 after a last 3, 0 after a 4, -1
after a 2), each counted per job (`_partial_executions`). A negative run other
than -1 on a line to merge is refused, naming that line.

**Strict mode** (``read_swf(..., strict=True)``, ``schedsim run --strict``,
``strict = true`` in a study) refuses instead of cleaning what the default
reader cleans, as the reader did before it was lenient: every negative value
other than -1 in any field (on any line), a missing job number or submit time,
a job number used twice (on any line), and the unusual wait times and
identifiers above. Lines with no size or a missing run time are still dropped
(``clean=False`` refuses them too, in either mode).

**Cleaning steps describe the jobs simulated.** Each reader step keeps its
members (`schedsim.workloads.workload.Members`): the ids and line numbers of
the jobs it changed, or for dropped lines their line numbers and places on the
trace clock. A transform that selects jobs (`schedsim.workloads.transforms`:
``first``, ``window``, ``month``, ``fit_machine(mode="drop")``) counts every
step again for the jobs it keeps (`Workload.select`): a changed job counts
while it is in the selection; a dropped line counts while its place lies in the
selection's span of time, a window's ``[start, end)`` or, for the first N jobs,
up to the N-th job in submit order (ties by job number). A dropped line's place
is its submit time; a line without one stands where it is in the file, at the
submit time and job number of the nearest line above it that has a submit
time (the nearest below it, at the top of the file). Dropping wide jobs is no
span of time: it keeps every dropped line.

Other choices made here (the format leaves them open):

- Lines end with LF, CRLF or CR alone (old Mac files), line numbers count
  each; a UTF-8 byte order mark at the start of the file is ignored. Text is
  UTF-8, else Latin-1 (old logs carry Latin-1 names in their header).
- Lines need not be sorted by submit time; the `Workload` sorts them (ties by
  job number), as the simulator's FCFS order requires.
- Comment lines anywhere in the file go to ``Header.lines``; those of the form
  ``; Key: value`` (a word right after the ``;``) also go to ``Header.fields``
  (first value of a repeated key; one the reader interprets must repeat the same
  value, see above). Indented continuation lines such as
  ``;              http://...`` are kept as plain lines.
- When several lines are wrong, the first one in the file is reported (a
  header line or a job line); within a line, its format comes first (field
  count, then fields in order), then its values.
"""

from __future__ import annotations

import gzip
import io
import math
import os
import re
import zlib
from collections.abc import Callable, Sequence
from itertools import chain
from operator import attrgetter, itemgetter
from pathlib import Path
from typing import IO, Any, Protocol

import numpy as np

from schedsim.workloads.formats import (
    GZIP_ERRORS,
    GZIP_MAGIC,
    READABLE,
    not_swf,
    one_line,
    read_decompressed,
)
from schedsim.workloads.job import SWF_FIELDS, Job, _trusted_jobs
from schedsim.workloads.transforms import _count, _first
from schedsim.workloads.workload import CleaningStep, Header, Members, Workload

__all__ = [
    "MAX_ID",
    "MAX_PROCS",
    "MAX_TIME",
    "SWFError",
    "check_swf_text",
    "read_header",
    "read_swf",
    "size_field",
    "source_lines",
    "write_swf",
]


class Table(Protocol):
    """What `write_swf` reads of a table: column names and each column by name, as
    a DataFrame and `schedsim.model.columns.Columns` both give them."""

    @property
    def columns(self) -> Any: ...

    def __getitem__(self, name: str) -> Any: ...

    def __len__(self) -> int: ...


# 0-based field indices.
(JOB, SUBMIT, WAIT, RUN, ALLOC, CPU, MEMORY, REQ_PROCS, REQ_TIME, REQ_MEMORY, STATUS, USER,
 GROUP, APP, QUEUE, PARTITION, PRECEDING, THINK) = range(18)  # fmt: skip

#: 0-based indices of the fields that must hold whole numbers.
_INT_FIELDS: tuple[int, ...] = (0, 4, 7, 10, 11, 12, 13, 14, 15, 16)
_N_FIELDS = len(SWF_FIELDS)
#: The fields a run uses: refused when malformed, in every mode.
_USED: tuple[int, ...] = (JOB, SUBMIT, RUN, ALLOC, REQ_PROCS, REQ_TIME)
#: The identifiers a job record keeps (and the job table stores as int64).
_IDS: tuple[int, ...] = (USER, GROUP, APP, QUEUE, PARTITION)
#: Unused fields whose unusual values are set to missing (module docstring).
_SET_MISSING: tuple[int, ...] = (WAIT, *_IDS)
#: Unused fields whose unusual values are kept as read.
_KEPT: tuple[int, ...] = (CPU, MEMORY, REQ_MEMORY, STATUS, PRECEDING, THINK)
#: How each unused field is named in its cleaning step.
_LABELS: dict[int, str] = {
    WAIT: "wait time",
    CPU: "average CPU time",
    MEMORY: "used memory",
    REQ_MEMORY: "requested memory",
    STATUS: "status",
    USER: "user id",
    GROUP: "group id",
    APP: "executable id",
    QUEUE: "queue id",
    PARTITION: "partition id",
    PRECEDING: "preceding job",
    THINK: "think time",
}

#: Times (and a job's end) must stay below this many seconds: 2**43 s, about 279,000
#: years, where a float still resolves a millisecond.
MAX_TIME = 2.0**43
#: Most processors a job (or a header's machine size) may have: 2**31.
MAX_PROCS = 2**31
#: Job numbers and identifiers must stay below 2**53: read as floats, whole numbers
#: are exact only below it.
MAX_ID = 2**53
_TIME_BOUND = (
    "times must stay below 2**43 s (8796093022208 s, about 279,000 years), "
    "where a float still resolves a millisecond"
)
_ID_BOUND = "must be below 2**53 (9007199254740992), the largest whole number a float holds exactly"
_PROCS_BOUND = f"at most 2**31 ({MAX_PROCS})"
#: A time zone offset is less than a day either way (`datetime.timezone`'s own limit).
_MAX_TZ = 86400

#: The bytes the fast path (`_parse_fast`) lets a job line hold: blanks, tabs and the
#: characters of plain decimal numbers. A line with any other byte goes to `_parse_line`.
_NUMBER_BYTES = b" \t\n0123456789.eE+-"

_BOM = b"\xef\xbb\xbf"
#: What `check_swf_text` looks at: as much as `formats.not_swf` ever reads.
_HEAD_BYTES = 1 << 16
#: ``; Key: value`` with the key right after the semicolon (at most one blank),
#: so indented continuation lines like ``;    http://x`` are not mistaken for keys.
_KEY_RE = re.compile(r";[ \t]?([A-Za-z][A-Za-z0-9_]*)[ \t]*:(.*)")
_LEADING_INT_RE = re.compile(r"([+-]?\d+)(?:[ \t(]|$)")
_NOT_A_NUMBER_RE = re.compile(r"[+-]?(nan|inf|infinity)", re.IGNORECASE)

# Cleaning step names (also used by the tests and the run summary).
STEP_NO_SIZE = "dropped: no size"
STEP_NO_SUBMIT = "dropped: submit time missing"
STEP_NO_RUN_TIME = "dropped: run time missing"
STEP_NO_ESTIMATE = "estimate missing: used run time"
STEP_PARTIAL_SKIPPED = "partial executions skipped: summary line used"
STEP_PARTIAL_MERGED = "partial executions merged: one job each"


class SWFError(ValueError):
    """A malformed or inconsistent SWF file, located as precisely as possible.

    ``path`` is the file as given, ``line`` the 1-based line number (None when
    the problem concerns the whole file), ``field`` the SWF field name from
    `schedsim.workloads.job.SWF_FIELDS` (None when no single field is at fault, e.g. a
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


def _read_data(path: Path) -> bytes:
    """The file's bytes; gzip is recognised by its magic bytes, not the suffix."""
    data = read_decompressed(path, lambda why: SWFError(path, None, None, why))
    # A byte order mark is no part of the first line (editors on Windows add one).
    return data.removeprefix(_BOM)


def _refuse_other_formats(path: Path, data: bytes) -> None:
    """`SWFError` when ``data`` (`_read_data` of ``path``) holds nothing, or plainly is
    not SWF text (`formats.not_swf`: CSV, JSON, Parquet, binary data...): one line
    that says what the file looks like and which formats schedsim reads."""
    if not data:
        empty = "an empty file (0 bytes)" if path.stat().st_size == 0 else "gzip data of 0 bytes"
        raise SWFError(path, None, None, f"{empty}, no jobs; {READABLE}")
    found = not_swf(data)
    if found is not None:
        line, what = found
        raise SWFError(path, line, None, f"this looks like {what}, not SWF text; {READABLE}")


def check_swf_text(path: str | os.PathLike[str]) -> None:
    """Refuse, as `read_swf` would, a file that plainly is not SWF text (CSV, JSON,
    binary data...: `formats.not_swf`), from its first 64 KiB only, so that a study
    can check every file it names when it loads rather than when its runs start."""
    p = Path(path)
    with p.open("rb") as fh:
        head = fh.read(_HEAD_BYTES + 1)
    if len(head) <= _HEAD_BYTES:  # the whole file: read it as read_swf does
        head = _read_data(p)
    elif head[:2] == GZIP_MAGIC:
        try:
            head = zlib.decompressobj(zlib.MAX_WBITS | 16).decompress(head, _HEAD_BYTES)
        except zlib.error as exc:
            raise SWFError(p, None, None, f"corrupt gzip data: {one_line(exc)}") from None
    _refuse_other_formats(p, head.removeprefix(_BOM))


def _encoding(data: bytes) -> str:
    """UTF-8, else Latin-1: old logs may carry Latin-1 names in their header
    (job lines are ASCII either way), and Latin-1 never fails."""
    if data.isascii():
        return "utf-8"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "latin-1"
    return "utf-8"


def _decode(data: bytes) -> str:
    """The text of ``data`` in its `_encoding`."""
    return data.decode(_encoding(data))


def _leading_int(value: str) -> int | None:
    """The integer a header value starts with, when a blank, a parenthesis or the end
    follows it: ``'338 (batch ...)'`` -> 338; None for ``'1,024'``, ``'1e3'`` or
    ``'64.5'``, which are not 1, 1 and 64 processors."""
    m = _LEADING_INT_RE.match(value.strip())
    return int(m.group(1)) if m else None


#: The header keys the reader interprets (`Header`): a repeated one must say the same.
_INTERPRETED = ("MaxNodes", "MaxProcs", "UnixStartTime", "TimeZone", "TimeZoneString")
#: The range of a ``UnixStartTime`` that is a date (`datetime` holds years 1 to 9999).
_UNIX_RANGE = (-62_135_596_800, 253_402_300_800)


class _HeaderBuilder:
    """Collects comment lines and turns them into a `Header`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines: list[str] = []
        self.fields: dict[str, str] = {}
        self.where: dict[str, int] = {}
        #: The later values of the keys the reader interprets, with their lines.
        self.again: list[tuple[str, str, int]] = []

    def add(self, raw: str, lineno: int) -> None:
        self.lines.append(raw)
        m = _KEY_RE.match(raw.lstrip())
        if m:
            key, value = m.group(1), m.group(2).strip()
            if key not in self.fields:
                self.fields[key] = value
                self.where[key] = lineno
            elif key in _INTERPRETED:
                self.again.append((key, value, lineno))

    def _error(self, key: str, reason: str) -> SWFError:
        return SWFError(self.path, self.where[key], None, f"header {key}: {reason}")

    def _int(self, key: str, *, leading: bool) -> int | None:
        value = self.fields.get(key)
        if value is None or value == "":
            return None
        number = _leading_int(value) if leading else _strict_int(value)
        if number is None:
            words = " (words may follow it after a blank)" if leading else ""
            raise self._error(key, f"{_shown(value)} is not an integer{words}")
        return number

    def _size(self, key: str) -> int | None:
        """A machine size: -1 (or 0, or any negative) means unknown."""
        number = self._int(key, leading=True)
        if number is not None and number > MAX_PROCS:
            # numpy would fail later with "Maximum allowed dimension exceeded" and no file.
            raise self._error(
                key,
                f"{_shown(self.fields[key])} cannot be a machine size ({_PROCS_BOUND} processors)",
            )
        return number if number is not None and number > 0 else None

    def _contradiction(self) -> SWFError | None:
        """The first later line that gives a key the reader interprets another value
        than its first line does (``; MaxProcs: 64`` then ``; MaxProcs: 128``): the
        reader would have to choose one in silence."""
        for key, value, lineno in self.again:
            first = self.fields[key]
            if key in ("MaxNodes", "MaxProcs"):
                same = _leading_int(value) == _leading_int(first)
            elif key == "TimeZoneString":
                same = value == first
            else:
                same = _strict_int(value) == _strict_int(first)
            if not same:
                return SWFError(
                    self.path,
                    lineno,
                    None,
                    f"header {key}: {_shown(value)} contradicts {_shown(first)} on line "
                    f"{self.where[key]}",
                )
        return None

    def build(self) -> Header:
        time_zone = self._int("TimeZone", leading=False)
        if time_zone is not None and abs(time_zone) >= _MAX_TZ:
            raise self._error(
                "TimeZone",
                f"{_shown(self.fields['TimeZone'])} is no UTC offset in seconds "
                "(less than a day either way)",
            )
        start = self._int("UnixStartTime", leading=False)
        if start is not None and not _UNIX_RANGE[0] <= start < _UNIX_RANGE[1]:
            raise self._error(
                "UnixStartTime",
                f"{_shown(self.fields['UnixStartTime'])} is no date (seconds since 1970 of a "
                "day in the years 1 to 9999)",
            )
        header = Header(
            max_nodes=self._size("MaxNodes"),
            max_procs=self._size("MaxProcs"),
            unix_start_time=start,
            time_zone=time_zone,
            time_zone_string=self.fields.get("TimeZoneString") or None,
            fields=dict(self.fields),
            lines=tuple(self.lines),
        )
        contradiction = self._contradiction()
        if contradiction is not None:
            raise contradiction
        return header


def _strict_int(value: str) -> int | None:
    try:
        return int(value.strip())
    except ValueError:
        return None


def _text_lines(text: str) -> list[str]:
    """The lines of ``text`` without their ends: LF, CRLF and CR alone each end a line
    (what Python's universal newlines do, and what `read_header` reads with)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


#: How much of a token or header value a message shows.
_SHOWN = 40


def _shown(text: str) -> str:
    """``repr(text)`` for a message, cut short: a token of a megabyte (a file of one
    long line) must not make the one error line a megabyte long."""
    if len(text) <= _SHOWN:
        return repr(text)
    return f"{text[:_SHOWN]!r}... ({len(text):,} characters)"


def _comment_hint(text: str) -> str:
    """What a message adds for a line or token that starts with ``#``: comments start
    with ``#`` in many formats, with ``;`` in SWF."""
    return " (SWF comment lines start with ';')" if text.startswith("#") else ""


def size_field(fields: Sequence[float]) -> int:
    """The 0-based SWF field a job's size comes from, given its 18 values: requested
    processors (field 8) when above 0, else allocated processors (field 5); DESIGN.md
    "Job size"."""
    return REQ_PROCS if fields[REQ_PROCS] > 0 else ALLOC


def _bad_value(path: Path, lineno: int, index: int, token: str) -> SWFError:
    if _NOT_A_NUMBER_RE.fullmatch(token) or not _looks_numeric(token):
        hint = _comment_hint(token)
        return SWFError(path, lineno, SWF_FIELDS[index], f"{_shown(token)} is not a number{hint}")
    return SWFError(path, lineno, SWF_FIELDS[index], f"{_shown(token)} is beyond a float's range")


def _looks_numeric(token: str) -> bool:
    """Whether float() reads ``token`` (an overflow to infinity included)."""
    if "_" in token or not token.isascii():
        return False
    try:
        float(token)
    except ValueError:
        return False
    return True


def _parse_line(path: Path, lineno: int, line: str) -> list[float]:
    """The 18 values of one job line, checked for format; raises `SWFError` otherwise.

    This is the reference definition of a well-formed job line (18 finite
    numbers, whole numbers where SWF has counts or identifiers) and the source
    of the format messages; `_parse_all` uses it to diagnose the lines its
    vectorised checks reject. Values are checked apart (`_Checks`).
    """
    parts = line.split()
    if len(parts) != _N_FIELDS:
        hint = _comment_hint(line)
        if len(parts) < _N_FIELDS:
            missing = len(parts)
            raise SWFError(
                path,
                lineno,
                SWF_FIELDS[missing],
                f"missing: the line has {len(parts)} fields, SWF needs {_N_FIELDS}{hint}",
            )
        raise SWFError(
            path, lineno, None, f"the line has {len(parts)} fields, SWF needs {_N_FIELDS}{hint}"
        )
    values: list[float] = []
    for i, p in enumerate(parts):
        # float() would take '1_000' and non-ASCII digits; SWF is plain ASCII numbers.
        if "_" in p or not p.isascii():
            raise _bad_value(path, lineno, i, p)
        try:
            v = float(p)
        except ValueError:
            raise _bad_value(path, lineno, i, p) from None
        if not math.isfinite(v):
            raise _bad_value(path, lineno, i, p)
        values.append(v)
    for i in _INT_FIELDS:
        if not values[i].is_integer():
            raise SWFError(path, lineno, SWF_FIELDS[i], f"{_shown(parts[i])} is not a whole number")
    return values


def read_header(path: str | os.PathLike[str]) -> Header:
    """Only the header of an SWF file (the comments before the first job line).

    Cheap: stops at the first job line, so catalogs can describe large logs
    without parsing them. Lines end as `read_swf` reads them (LF, CRLF or CR), a
    byte order mark is ignored, and header values are checked as there.
    """
    p = Path(path)
    builder = _HeaderBuilder(p)
    with p.open("rb") as raw:
        is_gzip = raw.read(2) == GZIP_MAGIC
        raw.seek(0)
        fh: IO[bytes] = gzip.GzipFile(fileobj=raw) if is_gzip else raw  # type: ignore[assignment]
        # Latin-1 maps every byte to one character and back, so universal newlines
        # split the bytes where read_swf does; each line is then decoded as there.
        text = io.TextIOWrapper(fh, encoding="latin-1", newline=None)
        try:
            for lineno, tline in enumerate(text, start=1):
                data = tline.removesuffix("\n").encode("latin-1")
                line = _decode(data.removeprefix(_BOM) if lineno == 1 else data)
                stripped = line.strip()
                if not stripped:
                    continue
                if not stripped.startswith(";"):
                    break
                builder.add(line, lineno)
        except GZIP_ERRORS as exc:
            raise SWFError(p, None, None, f"corrupt gzip data: {exc}") from None
    return builder.build()


def source_lines(
    path: str | os.PathLike[str] | None,
    *,
    job: Job | None = None,
    keys: tuple[str, ...] = (),
    header: Header | None = None,
) -> tuple[int | None, dict[str, int]]:
    """Where, in the SWF file ``path`` a workload was read from, ``job``'s line is and
    the lines of the header ``keys`` (their first occurrence), for a message about the
    workload that should name them: a job wider than the machine, a header whose
    machine size a run used (`schedsim.workloads.transforms.fit_machine`,
    `schedsim.model.simulation.ModelSimulation`).

    The file is read again, so this is for error paths only. A line is named only when
    it still says what the workload holds: the job's line has its job number, run time
    and processor fields (``job.swf``), a key's line the value of ``header.fields``
    when ``header`` is given. Anything else (no path, a file gone, changed, or not
    SWF) leaves it out: None for the job, no entry for a key.
    """
    if path is None:
        return None, {}
    try:
        text = _decode(_read_data(Path(path)))
    except (OSError, SWFError):
        return None, {}
    job_line: int | None = None
    found: dict[str, int] = {}
    want = None if job is None or job.swf is None else job.swf
    for lineno, line in enumerate(_text_lines(text), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped[0] == ";":
            m = _KEY_RE.match(stripped)
            if m and m.group(1) in keys and m.group(1) not in found:
                key = m.group(1)
                if header is None or header.fields.get(key) == m.group(2).strip():
                    found[key] = lineno
        elif want is not None and job_line is None and _is_line_of(stripped, want):
            job_line = lineno
    return job_line, found


def _is_line_of(line: str, swf: tuple[float, ...]) -> bool:
    """Whether a job line holds ``swf``'s job number, run time and processor fields
    (which the reader keeps as read)."""
    parts = line.split()
    if len(parts) != _N_FIELDS:
        return False
    try:
        return all(float(parts[i]) == swf[i] for i in (JOB, RUN, ALLOC, REQ_PROCS))
    except ValueError:
        return False


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
    for lineno, line in enumerate(_text_lines(text), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped[0] == ";":
            header.add(line, lineno)
        else:
            job_lines.append(stripped)
            numbers.append(lineno)
    return header, job_lines, numbers


def _parse_all(
    path: Path, lines: list[str], numbers: list[int]
) -> tuple[np.ndarray, SWFError | None]:
    """The values of the job lines up to the first malformed one, and its error.

    Fast path: numpy's C parser reads all lines at once and the checks run on
    whole columns (about twice as fast as float() per token on the CTC log). The
    first line any check rejects is then re-read by `_parse_line`, the single
    source of the format messages; if numpy refuses the text outright (a
    non-number, a short line), the lines go through `_parse_line` one by one. The
    error is returned, not raised: a line above it may be wrong in its values,
    and the first wrong line in the file is the one reported (`read_swf`).
    """
    try:
        a = np.loadtxt(lines, dtype=np.float64, comments=None, ndmin=2)
    except ValueError:
        a = None
    if a is None or a.shape != (len(lines), _N_FIELDS):
        rows: list[list[float]] = []
        for n, line in zip(numbers, lines, strict=True):
            try:
                rows.append(_parse_line(path, n, line))
            except SWFError as exc:
                return np.array(rows, dtype=np.float64).reshape(-1, _N_FIELDS), exc
        return np.array(rows, dtype=np.float64).reshape(-1, _N_FIELDS), None
    bad = ~np.isfinite(a).all(axis=1)
    with np.errstate(invalid="ignore"):
        ints = a[:, list(_INT_FIELDS)]
        bad |= (ints != np.floor(ints)).any(axis=1)
    if bad.any():
        row = int(np.argmax(bad))
        try:
            _parse_line(path, numbers[row], lines[row])
        except SWFError as exc:
            return a[:row], exc
        raise AssertionError(f"line {numbers[row]}: rejected by numpy only")  # pragma: no cover
    return a, None


#: What `_parse_fast` returns: the header's comment lines, the text of a job line by its
#: row, the job lines' line numbers and their values.
_Parsed = tuple[_HeaderBuilder, Callable[[int], str], list[int], np.ndarray]


def _parse_fast(path: Path, data: bytes) -> _Parsed | None:
    """The lines of a well-formed file, read with Arrow's vectorised string kernels;
    None when any line is not plainly well formed, for `_split` and `_parse_all` to
    read it again and say what is wrong.

    A third of the time of `_split` and `_parse_all` on the CTC log, with the same
    result: every line of the file must be blank, a comment (a ``;`` after blanks
    and tabs only), or a job line of blanks, tabs and the characters of decimal
    numbers, which Arrow splits into fields; every job line must have 18 fields, each
    of which Arrow's text-to-float conversion must read whole, finite, and whole
    numbers where `_parse_line` wants them. On that alphabet the conversion accepts
    the tokens Python's ``float()`` accepts and gives the same double: both round
    correctly, and tests/test_swf_fast.py compares them on every token of up to five
    characters (``-m slow``; up to four, of fewer digits, by default). Any other byte
    in a job line (a non-ASCII digit, a form feed, an underscore, ``nan``) sends the
    whole file to the per-line reader, the single source of the format messages. The
    value checks (`_Checks`) come after, on either path.
    """
    # Imported here: pyarrow takes a tenth of a second to import, and a process that
    # writes only, or reads nothing, should not pay it.
    import pyarrow as pa

    try:  # the kernels by name: pyarrow.compute's import wraps hundreds of them (0.03 s)
        from pyarrow._compute import CastOptions, call_function
    except ImportError:  # (its home moved: the public names, at that cost)
        from pyarrow.compute import CastOptions, call_function

    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if len(data) >= 2**31:
        return None  # beyond Arrow's 32-bit string offsets
    ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == ord("\n"))
    # Line k is data[starts[k]:ends[k]] (to the end of the data for the last line).
    starts = np.concatenate(([0], ends + 1))
    header = _HeaderBuilder(path)
    comment = np.zeros(len(starts), dtype=bool)
    encoding = None
    job_bytes_from = 0  # where the bytes since the last comment line begin
    at = data.find(b";")
    while at >= 0:
        k = int(np.searchsorted(ends, at))  # the line's index: the line ends before it
        start, end = int(starts[k]), int(ends[k]) if k < len(ends) else len(data)
        if data[start:at].strip(b" \t") or data[job_bytes_from:start].translate(
            None, _NUMBER_BYTES
        ):
            return None  # a ";" after other text, or a byte no number has
        encoding = encoding or _encoding(data)
        header.add(data[start:end].decode(encoding), k + 1)
        comment[k] = True
        job_bytes_from = end
        at = data.find(b";", end)
    if data[job_bytes_from:].translate(None, _NUMBER_BYTES):
        return None
    # Each line with its line end, which the trim takes off with the blanks around it.
    offsets = np.append(starts, len(data)).astype(np.int32)
    lines = pa.Array.from_buffers(
        pa.binary(), len(starts), [None, pa.py_buffer(offsets), pa.py_buffer(data)]
    )
    # Comment lines are taken out first: they may hold bytes that are not UTF-8.
    lines = call_function("filter", [lines, _mask(pa, ~comment)]).view(pa.string())
    text = call_function("ascii_trim_whitespace", [lines])
    filled = _numbers(call_function("binary_length", [text]), np.int32) > 0
    if not filled.any():
        return None  # no job lines: the per-line reader says so
    text = call_function("filter", [text, _mask(pa, filled)])
    tokens = call_function("ascii_split_whitespace", [text])
    if (_numbers(call_function("list_value_length", [tokens]), np.int32) != _N_FIELDS).any():
        return None
    try:
        flat = call_function("list_flatten", [tokens])
        values = call_function("cast", [flat], CastOptions.safe(pa.float64()))
    except pa.ArrowInvalid:
        return None
    # A copy: the reader sets unusual values to missing in place.
    a = _numbers(values, np.float64).reshape(-1, _N_FIELDS).copy()
    if not np.isfinite(a).all():
        return None
    ints = a[:, list(_INT_FIELDS)]
    if (ints != np.floor(ints)).any():
        return None
    numbers = (np.flatnonzero(~comment)[filled] + 1).tolist()
    return header, lambda row: str(text[row].as_py()), numbers, a


# Arrays cross between numpy and Arrow through their buffers: pyarrow's ``pa.array``
# and ``Array.to_numpy`` import pandas (a third of a second) to ask whether the data
# is pandas', and a run that writes no Parquet file never needs it otherwise.


def _mask(pa: Any, values: np.ndarray) -> Any:
    """A boolean Arrow array of ``values``, made from their bits."""
    bits = np.packbits(values, bitorder="little")
    return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(bits)])


def _numbers(array: Any, dtype: type) -> np.ndarray:
    """A numeric Arrow array without nulls as numpy's (read-only: a view of its data)."""
    assert array.null_count == 0, "a numeric Arrow array with nulls"
    size = np.dtype(dtype).itemsize
    return np.frombuffer(array.buffers()[1], dtype, len(array), array.offset * size)


def _parse_slow(path: Path, data: bytes) -> tuple[_Parsed, SWFError | None]:
    """The per-line reader (`_split`, `_parse_all`) for what `_parse_fast` refuses: the
    lines up to the first malformed one, and its error."""
    header, lines, numbers = _split(path, _decode(data))
    if not lines:
        what = f"{len(header.lines)} comment lines" if header.lines else "blank lines"
        raise SWFError(path, None, None, f"no job lines (empty SWF file: only {what})")
    a, error = _parse_all(path, lines, numbers)
    return (header, lines.__getitem__, numbers, a), error


#: One check of `_Checks`: the rows it rejects, and the (field, reason) for a row.
_Check = tuple[np.ndarray, Callable[[int], tuple[int | None, str]]]


class _Checks:
    """The value checks of `read_swf` on the parsed lines (module docstring), in the
    order a line is diagnosed, and what the lines that pass them become."""

    def __init__(
        self,
        path: Path,
        a: np.ndarray,
        line: Callable[[int], str],
        numbers: list[int],
        *,
        strict: bool,
        clean: bool,
    ) -> None:
        # ``line(row)``: the text of job line ``row``, for the messages (read when needed).
        self.path, self.a, self.line, self.numbers = path, a, line, numbers
        n = len(a)
        with np.errstate(invalid="ignore"):
            self.negative = (a < 0) & (a != -1)
        self.unusual = self.negative.copy()
        self.unusual[:, WAIT] |= a[:, WAIT] >= MAX_TIME
        for i in _IDS:
            self.unusual[:, i] |= a[:, i] >= MAX_ID
        requested, allocated = a[:, REQ_PROCS], a[:, ALLOC]
        self.size = np.where(requested > 0, requested, allocated)
        self.no_size = ~(self.size > 0)
        self.no_submit = a[:, SUBMIT] == -1
        self.no_run = a[:, RUN] == -1
        self.checks: list[_Check] = []
        # Which lines are dropped and counted (the rest are loaded or refused).
        drop_submit = np.zeros(n, dtype=bool)
        if strict:
            self._add(self.negative.any(axis=1), self._first_negative(range(_N_FIELDS)))
            self._add(a[:, JOB] == -1, lambda r: (JOB, "job number is missing (-1)"))
            self._add(*self._duplicates(np.ones(n, dtype=bool)))
            self._add(self.no_submit, lambda r: (SUBMIT, "submit time is missing (-1)"))
        else:
            self._add(self.negative[:, list(_USED)].any(axis=1), self._first_negative(_USED))
            drop_submit = self.no_submit & ~self.no_size
        if clean:
            self.drop_size = self.no_size
            self.drop_submit = drop_submit
            self.drop_run = self.no_run & ~self.no_size & ~drop_submit
        else:
            self._add(self.no_size, self._no_size)
            if not strict:
                self._add(
                    self.no_submit,
                    lambda r: (SUBMIT, "submit time is missing (-1) (clean=True drops such lines)"),
                )
            self._add(
                self.no_run,
                lambda r: (RUN, "run time is missing (-1) (clean=True drops such jobs)"),
            )
            self.drop_size = self.drop_submit = self.drop_run = np.zeros(n, dtype=bool)
        self.loaded = ~(self.drop_size | self.drop_submit | self.drop_run)
        if not strict:
            self._add(
                self.loaded & (a[:, JOB] == -1), lambda r: (JOB, "job number is missing (-1)")
            )
            self._add(*self._duplicates(self.loaded))
        self.estimate = np.where(a[:, REQ_TIME] > 0, a[:, REQ_TIME], a[:, RUN])
        self._bounds(strict)

    def _add(self, mask: np.ndarray, why: Callable[[int], tuple[int | None, str]]) -> None:
        self.checks.append((mask, why))

    def _token(self, row: int, i: int) -> str:
        return self.line(row).split()[i]

    def _first_negative(self, fields: tuple[int, ...] | range) -> Callable[[int], tuple[int, str]]:
        def why(row: int) -> tuple[int, str]:
            i = next(i for i in fields if self.negative[row, i])
            reason = f"{_shown(self._token(row, i))} is negative (only -1 means missing)"
            return i, reason + self._size_note(row, i)

        return why

    def _duplicates(self, among: np.ndarray) -> _Check:
        """The lines among ``among`` whose job number an earlier one of them has."""
        rows = np.flatnonzero(among & (self.a[:, JOB] != -1))
        order = np.argsort(self.a[rows, JOB], kind="stable")
        ordered = self.a[rows[order], JOB]
        again = np.zeros(len(self.a), dtype=bool)
        again[rows[order[1:][ordered[1:] == ordered[:-1]]]] = True

        def why(row: int) -> tuple[int, str]:
            number = self.a[row, JOB]
            first = next(r for r in rows if self.a[r, JOB] == number)
            return JOB, f"duplicate job number {int(number)} (first on line {self.numbers[first]})"

        return again, why

    def _size_note(self, row: int, i: int) -> str:
        """For a wrong value in field 5 (allocated processors) on a line whose size comes
        from field 8 (requested processors, when above 0): say so, since the job's size
        is not the value at fault (DESIGN.md, "Job size")."""
        requested = self.a[row, REQ_PROCS]
        if i != ALLOC or not requested > 0:
            return ""
        return (
            f" (the job's size, {_fmt(requested)}, comes from field 8, requested processors, "
            "but field 5 must hold a count too)"
        )

    def _no_size(self, row: int) -> tuple[int, str]:
        requested, allocated = self.a[row, REQ_PROCS], self.a[row, ALLOC]
        return REQ_PROCS, (
            f"no size: neither field 8 (requested processors, {_fmt(requested)}) nor field 5 "
            f"(allocated processors, {_fmt(allocated)}) is above 0 (clean=True drops such jobs)"
        )

    def _bounds(self, strict: bool) -> None:
        """Values a run would compute wrongly with, on the lines loaded (both modes),
        and in strict mode the unusual values the default reader would clean."""
        a, loaded = self.a, self.loaded

        def refuse(i: int, mask: np.ndarray, bound: str) -> None:
            why = f"is too large: {bound}"
            self._add(loaded & mask, lambda r: (i, f"{_shown(self._token(r, i))} {why}"))

        # In field order, so that a line is diagnosed at its first wrong field.
        refuse(JOB, a[:, JOB] >= MAX_ID, f"job numbers {_ID_BOUND}")
        refuse(SUBMIT, a[:, SUBMIT] >= MAX_TIME, _TIME_BOUND)
        if strict:
            refuse(WAIT, a[:, WAIT] >= MAX_TIME, _TIME_BOUND)
        refuse(RUN, a[:, RUN] >= MAX_TIME, _TIME_BOUND)
        # The job's size first, named by the field it comes from (8 when above 0, else
        # 5); then a count in the other field that is too large all the same.
        self._add(loaded & (self.size > MAX_PROCS), self._too_wide)
        for i in (ALLOC, REQ_PROCS):
            self._add(loaded & (a[:, i] > MAX_PROCS), self._too_many(i))
        refuse(REQ_TIME, a[:, REQ_TIME] >= MAX_TIME, _TIME_BOUND)
        if strict:
            for i in _IDS:
                refuse(i, a[:, i] >= MAX_ID, f"identifiers {_ID_BOUND}")
        # The job's end, at the longer of its run and its limit (either can end it).
        with np.errstate(invalid="ignore", over="ignore"):
            end = a[:, SUBMIT] + np.maximum(a[:, RUN], self.estimate)
        self._add(loaded & ~(end < MAX_TIME), self._late_end)

    def _too_wide(self, row: int) -> tuple[int, str]:
        i = size_field(self.a[row])
        where = (
            "requested processors, field 8, when above 0"
            if i == REQ_PROCS
            else ("allocated processors, field 5, as field 8 is not above 0")
        )
        return i, (
            f"{_shown(self._token(row, i))} is too large: a job's size (here its {where}) is "
            f"{_PROCS_BOUND} processors"
        )

    def _too_many(self, i: int) -> Callable[[int], tuple[int, str]]:
        def why(row: int) -> tuple[int, str]:
            return i, (
                f"{_shown(self._token(row, i))} is too large: {_PROCS_BOUND} processors"
                + self._size_note(row, i)
            )

        return why

    def _late_end(self, row: int) -> tuple[int, str]:
        a = self.a
        i = REQ_TIME if a[row, REQ_TIME] > a[row, RUN] else RUN
        what = "requested time" if i == REQ_TIME else "run time"
        total = a[row, SUBMIT] + a[row, i]
        return i, (
            f"submit time {_fmt(a[row, SUBMIT])} + {what} {_fmt(a[row, i])} = {total:.17g} s: "
            f"the job's end is too late, {_TIME_BOUND}"
        )

    def first_error(self) -> SWFError | None:
        """The error of the first line that a check rejects, by the first check that
        rejects it; None when every line passes."""
        bad = np.zeros(len(self.a), dtype=bool)
        for mask, _ in self.checks:
            bad |= mask
        if not bad.any():
            return None
        row = int(np.argmax(bad))
        for mask, why in self.checks:
            if mask[row]:
                i, reason = why(row)
                field = None if i is None else SWF_FIELDS[i]
                return SWFError(self.path, self.numbers[row], field, reason)
        raise AssertionError("a rejected line with no reason")  # pragma: no cover


def _places(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each line's place on the trace clock and the job number for ties (module
    docstring): its own submit time, else that of the nearest line above it with one
    (below it, at the top of the file)."""
    n = len(a)
    has = a[:, SUBMIT] >= 0
    if not has.any():
        return np.zeros(n), a[:, JOB].copy()
    source = np.where(has, np.arange(n), -1)
    source = np.maximum.accumulate(source)
    source[source < 0] = int(np.argmax(has))
    return a[source, SUBMIT], a[source, JOB]


def _members(
    what: str,
    rows: np.ndarray,
    numbers: np.ndarray,
    *,
    ids: np.ndarray | None = None,
    places: tuple[np.ndarray, np.ndarray] | None = None,
    values: np.ndarray | None = None,
) -> Members:
    """The members of one reader step: the lines ``rows`` (0-based job-line indices)."""
    return Members(
        what,
        len(rows),
        ids=None if ids is None else tuple(int(i) for i in ids[rows].tolist()),
        lines=tuple(numbers[rows].tolist()),
        at=None if places is None else tuple(places[0][rows].tolist()),
        numbers=None if places is None else tuple(int(i) for i in places[1][rows].tolist()),
        values=None if values is None else tuple(values[rows].tolist()),
        before="in the whole log",
    )


def _partial_executions(
    path: Path, a: np.ndarray, line: Callable[[int], str], numbers: list[int]
) -> tuple[np.ndarray, Callable[[int], str], list[int], list[CleaningStep]]:
    """The job lines without SWF 2.2's partial executions, and the steps that count them.

    A job that was checkpointed or swapped out may appear as its partial executions,
    lines of status 2 ("to be continued"), 3 ("last part, job completed") or 4 ("last
    part, job failed") that share its job number (``Preemption: Yes``), and also as a
    summary line of another status (``Double``, as `write_swf` writes them). Partial
    lines of a job that has a summary line are skipped: the summary is the job. The
    partial lines of a job that has none become one job: the first line's fields
    (in file order), run = the sum of their runs (missing when one is), wait = the
    last line's end (submit + wait + run) - submit - run, status 1 if the last line
    says 3, 0 if 4, -1 (missing) if 2. Each is counted as its own `CleaningStep`
    (per job, at its first partial line); lines with a missing job number are left
    to the checks. A negative run other than -1 on a line to be merged is refused
    here, naming that line.
    """
    status, job = a[:, STATUS], a[:, JOB]
    partial = ((status == 2) | (status == 3) | (status == 4)) & (job != -1)
    if not partial.any():
        return a, line, numbers, []
    lines = np.asarray(numbers, dtype=np.int64)
    keep = np.ones(len(a), dtype=bool)
    steps: list[CleaningStep] = []
    skipped = np.flatnonzero(partial & np.isin(job, job[~partial]))
    if len(skipped):
        keep[skipped] = False
        _, first = np.unique(job[skipped], return_index=True)
        what = "status 2, 3 or 4 lines of jobs that have a summary line"
        members = _members(what, np.sort(skipped[first]), lines, ids=job)
        steps.append(CleaningStep.of(STEP_PARTIAL_SKIPPED, members))
    alone = np.flatnonzero(partial & ~np.isin(job, job[~partial]))
    if len(alone):
        bad = alone[(a[alone, RUN] < 0) & (a[alone, RUN] != -1)]
        if len(bad):
            token = line(int(bad[0])).split()[RUN]
            raise SWFError(
                path, numbers[bad[0]], SWF_FIELDS[RUN],
                f"{token!r} is negative (only -1 means missing) on a partial execution",
            )  # fmt: skip
        order = alone[np.argsort(job[alone], kind="stable")]  # by job, then file order
        starts = np.flatnonzero(np.diff(job[order], prepend=np.nan) != 0)
        first, last = order[starts], order[np.append(starts[1:], len(order)) - 1]
        runs = a[order, RUN]
        missing = np.add.reduceat((runs == -1).astype(np.int64), starts) > 0
        run = np.where(missing, -1.0, np.add.reduceat(runs, starts))
        end = a[last, SUBMIT] + a[last, WAIT] + a[last, RUN]
        known = ~missing & (a[last, WAIT] >= 0) & (a[last, SUBMIT] >= 0) & (a[first, SUBMIT] >= 0)
        wait = np.where(known, end - a[first, SUBMIT] - run, -1.0)
        a[first, RUN], a[first, WAIT] = run, wait
        a[first, STATUS] = np.select([status[last] == 3, status[last] == 4], [1.0, 0.0], -1.0)
        keep[order] = False
        keep[first] = True
        what = "status 2, 3 or 4 lines of jobs that have no summary line"
        members = _members(what, np.sort(first), lines, ids=job)
        steps.append(CleaningStep.of(STEP_PARTIAL_MERGED, members))
    rows = np.flatnonzero(keep)
    return a[rows], lambda r: line(int(rows[r])), lines[rows].tolist(), steps


def read_swf(
    path: str | os.PathLike[str],
    *,
    clean: bool = True,
    name: str | None = None,
    strict: bool = False,
    first: int | None = None,
) -> Workload:
    """Read an SWF log (plain or gzip) into a `Workload`, validating every line.

    Each job becomes a `Job` with ``size`` = requested processors (field 8)
    when positive, else allocated processors (field 5); ``run_time`` = field 4;
    ``estimate`` = requested time (field 9) when positive, else the run time;
    ``swf`` = the 18 values as floats (as read, but for the unusual values set
    to missing, see the module docstring). The partial executions of a preempted
    job (status 2, 3, 4) make one job with it: skipped where the job has a
    summary line, merged where it has none (module docstring).

    What is refused, cleaned and counted is in the module docstring. With
    ``clean=True`` (the default), lines with no size, with a missing run time or
    (unless ``strict``) with a missing submit time are dropped, each reason
    counted as its own `CleaningStep`. With ``clean=False`` such a line is an
    `SWFError` instead: the caller asked for the log as it is, and the simulator
    cannot run it. ``strict=True`` refuses what the default reader cleans in the
    fields a run does not use (any negative value other than -1, a missing job
    number or submit time, a duplicate job number on any line). An empty file,
    or one whose every job is dropped, is an `SWFError` too, since nothing could
    be simulated.

    ``first=n`` gives what ``transforms.first(read_swf(path), n)`` gives (the first
    ``n`` jobs in submit order, every cleaning step counted again for them), with
    only those jobs made: every line is still read and checked, but a run of the
    first 2,000 jobs of a log does not build a record for each of the others.
    """
    p = Path(path)
    n = None if first is None else _count(first, "first")
    data = _read_data(p)
    _refuse_other_formats(p, data)
    parsed, format_error = _parse_fast(p, data), None
    if parsed is None:
        parsed, format_error = _parse_slow(p, data)
    header, line, line_numbers, a = parsed
    a, line, line_numbers, partial_steps = _partial_executions(p, a, line, line_numbers)
    checks = _Checks(p, a, line, line_numbers, strict=strict, clean=clean)
    # A value error lies above the first malformed line (only those lines are checked).
    error = checks.first_error() or format_error
    try:
        built = header.build()
    except SWFError as header_error:
        # The first wrong line in the file is the one reported, header or job line.
        if error is None or (header_error.line or 0) < (error.line or 0):
            raise
    if error is not None:
        raise error

    numbers = np.asarray(line_numbers, dtype=np.int64)
    steps: list[CleaningStep] = partial_steps
    places = _places(a)
    for step, what, mask in (
        (STEP_NO_SIZE, "requested and allocated processors missing or 0", checks.drop_size),
        (STEP_NO_SUBMIT, "submit time -1", checks.drop_submit),
        (STEP_NO_RUN_TIME, "run time -1", checks.drop_run),
    ):
        rows = np.flatnonzero(mask)
        if len(rows):
            steps.append(CleaningStep.of(step, _members(what, rows, numbers, places=places)))
    loaded = checks.loaded
    job_ids = a[:, JOB]
    rows = np.flatnonzero(loaded & ~(a[:, REQ_TIME] > 0))
    if len(rows):
        members = _members("requested time -1 or 0", rows, numbers, ids=job_ids)
        steps.append(CleaningStep.of(STEP_NO_ESTIMATE, members))
    if not strict:
        # What the lenient reader lets through in the fields a run does not use.
        for i in sorted((*_SET_MISSING, *_KEPT)):
            rows = np.flatnonzero(loaded & checks.unusual[:, i])
            if not len(rows):
                continue
            members = _members(_LABELS[i], rows, numbers, ids=job_ids, values=a[:, i])
            how = "set to missing" if i in _SET_MISSING else "kept as read"
            steps.append(CleaningStep.of(f"unusual {_LABELS[i]}, {how}", members))
            if i in _SET_MISSING:
                a[rows, i] = -1.0

    kept = np.flatnonzero(loaded)
    if not len(kept):
        summary = "; ".join(str(s) for s in steps)
        raise SWFError(
            p, None, None, f"no usable jobs: all {len(line_numbers)} were dropped ({summary})"
        )
    # The order `Workload` keeps: by submit time, ties by job number (the loaded job
    # numbers are distinct, checked above, and below 2**53, so exact as floats).
    kept = kept[np.lexsort((a[kept, JOB], a[kept, SUBMIT]))]
    dropped = 0
    if n is not None and n < len(kept):
        kept, dropped = kept[:n], len(kept) - n
    values = a[kept]
    ids = values[:, [JOB, USER, GROUP, APP, QUEUE, PARTITION]].astype(np.int64).T.tolist()
    swf = list(map(tuple, values.tolist()))
    jobs = _trusted_jobs(
        (
            ids[0],  # id
            # The submit and run times are the float objects of the swf tuples.
            list(map(itemgetter(SUBMIT), swf)),
            list(map(itemgetter(RUN), swf)),
            checks.size[kept].astype(np.int64).tolist(),
            checks.estimate[kept].tolist(),
            *ids[1:],  # user, group, app, queue, partition
        ),
        swf,
    )
    workload = Workload._ordered(
        tuple(jobs),
        built,
        name=name if name is not None else _default_name(p),
        source=str(path),
        cleaning=tuple(steps),
    )
    return _first(workload, workload.jobs, dropped) if dropped else workload


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
#: The line of a log converted as it is (`write_swf`'s ``converted``): no simulation.
_CONVERTED = "; Note: converted to SWF by schedsim (the log's own waits and run times)"
#: The prefix of the lines that say how the file shows preempted jobs (`_LAYOUT`).
_PARTIAL = "; Note: schedsim partial executions: "
#: Those lines, by ``; Preemption:`` value: ``Double`` (summary and partial lines, see
#: `write_swf`) and ``TS`` (jobs were preempted, and the file has no details).
_LAYOUT: dict[str, tuple[str, ...]] = {
    "Double": (
        _PARTIAL + "each job has a summary line (status 1, 0, 5 or -1; wait = end - "
        "submit - run, run = the time the attempt that counts ran); a job suspended, "
        "requeued or paying an overhead is followed by one line per stretch it held its "
        "processors (status 2, the last 3 or 4)",
        _PARTIAL + "on those lines wait counts from the job's submission (submit + wait "
        "= the stretch's start) and run is the stretch's length, in whole seconds",
    ),
    "TS": (
        _PARTIAL + "jobs were suspended or requeued, but their partial executions are "
        "not known (no piece log): each job has its summary line only (wait = end - "
        "submit - run)",
    ),
}
#: The prefix of the lines the writer wrote before partial lines existed, replaced by
#: `_LAYOUT`'s when a schedule written then is written again.
_OLD_PREEMPTED = "; Note: schedsim preemption: "
#: The prefix of the line that names the log's own machine when another one was
#: simulated (``MaxNodes`` and ``MaxProcs`` then say the simulated machine).
_MACHINE = "; Note: schedsim machine: "
#: The prefix of the lines that list the cleaning steps behind the jobs written.
_CLEANING = "; Note: schedsim cleaning: "
#: Such a line as `CleaningStep.__str__` writes it: the step's name and count.
_CLEANING_RE = re.compile(re.escape(_CLEANING) + r"(.*?): (\d+) jobs(?: \(.*\))?$")
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
    "UnixStartTime",
    "TimeZone",
    "TimeZoneString",
    "StartTime",
    "EndTime",
    "MaxNodes",
    "MaxProcs",
)
#: The values of ``; Preemption:`` (SWF 2.2) and whether each needs partial lines.
_PREEMPTION: dict[str, bool] = {"No": False, "Yes": True, "Double": True, "TS": False}


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


def _machine_fields(
    workload: Workload, max_nodes: int | None, max_procs: int | None
) -> tuple[dict[str, str], str | None]:
    """The ``MaxNodes``/``MaxProcs`` values to set for the machine simulated, and the note
    naming the log's own values when it gave others (None when it gave none that differ).

    A key whose header value already says the machine simulated keeps its line as it is
    (``338 (batch partition; 512 total)`` stays)."""
    header = workload.header
    fields: dict[str, str] = {}
    own: list[str] = []
    for key, value, said in (
        ("MaxNodes", max_nodes, header.max_nodes),
        ("MaxProcs", max_procs, header.max_procs),
    ):
        if value is None or (said == value and key in header.fields):
            continue
        fields[key] = str(value)
        if said is not None and said != value:
            own.append(f"{key}: {header.fields.get(key, said)}".strip())
    if not own:
        return fields, None
    said_own = ", ".join(own)
    return fields, (
        f"{_MACHINE}MaxNodes and MaxProcs are the simulated machine's; "
        f"the log's own header says {said_own}"
    )


def _header_lines(
    workload: Workload,
    records: int,
    preemption: str,
    note: str | None,
    max_nodes: int | None = None,
    max_procs: int | None = None,
    converted: bool = False,
) -> list[str]:
    """The header of a written schedule (see `write_swf`)."""
    source = list(workload.header.lines) or _synthetic_header(workload)
    fields = {"MaxJobs": str(len(workload)), "MaxRecords": str(records), "Preemption": preemption}
    machine, machine_note = _machine_fields(workload, max_nodes, max_procs)
    lines = _set_fields(source, {**fields, **machine})
    if converted:
        # The log's own schedule: whatever produced it (a machine, or a simulation whose
        # line stays), the file says it was converted, once.
        if _CONVERTED not in (ln.strip() for ln in lines):
            lines.append(_CONVERTED)
        return _cleaning_lines(workload, lines)

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
    # How the lines show preempted jobs, said once right after that line, also when
    # written again (the old notes, and those of the writer before partial lines, go).
    lines = [ln for ln in lines if not ln.strip().startswith((_PARTIAL, _OLD_PREEMPTED))]
    at = next(i for i, ln in enumerate(lines) if ln.strip().startswith(_PRODUCED)) + 1
    lines[at:at] = list(_LAYOUT.get(preemption, ()))
    # The log's own machine, named once: a schedule written again keeps the first note,
    # which still names the values of the log it came from.
    if machine_note is not None and not any(ln.strip().startswith(_MACHINE) for ln in lines):
        at += len(_LAYOUT.get(preemption, ()))
        lines.insert(at, machine_note)
    return _cleaning_lines(workload, lines)


def _cleaning_lines(workload: Workload, lines: list[str]) -> list[str]:
    """``lines`` and a ``; Note: schedsim cleaning:`` line per cleaning step of the
    workload that they do not note yet."""
    # A step the header already notes with the same name and count is not noted again:
    # reading a written schedule back finds its missing estimates anew, on the line
    # numbers of that file, and they are the ones the old note counted. Skipped partial
    # lines changed no job: that step is the file's layout, not a cleaning of its jobs.
    said = {_said(ln) for ln in lines if ln.strip().startswith(_CLEANING)}
    for step in workload.cleaning:
        if step.name != STEP_PARTIAL_SKIPPED and (step.name, step.count) not in said:
            lines.append(f"{_CLEANING}{step}")
            said.add((step.name, step.count))
    return lines


def _said(line: str) -> tuple[str, int] | None:
    """(name, count) of a ``; Note: schedsim cleaning: NAME: COUNT jobs (...)`` line."""
    m = _CLEANING_RE.match(line.strip())
    return (m.group(1), int(m.group(2))) if m else None


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


#: The job's own values its line may hold: fields 1, 2, 5 and 8 (size), 9 (estimate), 12-16.
_JOB_VALUES = attrgetter(
    "id", "submit", "size", "estimate", "user", "group", "app", "queue", "partition"
)


def _job_fields(
    workload: Workload,
    wait: np.ndarray,
    run: np.ndarray,
    size: np.ndarray | None = None,
    status: np.ndarray | None = None,
) -> np.ndarray:
    """The 18 values to write for each job of ``workload`` (one row per job, in its
    order) with its simulated wait, run, size and status.

    Fields 3, 4 come from the schedule, and so do field 5 (size) when ``size`` is
    given (else the job's) and field 11 (status) when ``status`` is given (else it
    keeps the trace's). Fields 1, 2, 8, 9 and 12-16 keep the
    original value unless it no longer describes the job the simulator ran
    (a transform changed submit, size or estimate), so that reading the file
    back gives the same jobs. In particular a missing (-1) requested time
    stays -1 while the estimate equals the written run time, and is otherwise
    replaced by the estimate that was used. Jobs without SWF fields (synthetic)
    get -1 in the fields they do not know.
    """
    n = len(workload)
    # fromiter over one flat stream: half the time of np.array over a list of tuples.
    values = chain.from_iterable(map(_JOB_VALUES, workload))
    job = np.fromiter(values, dtype=np.float64, count=9 * n).reshape(n, 9)
    job_size, estimate = job[:, 2], job[:, 3]
    if size is None:
        size = job_size
    records = list(map(attrgetter("swf"), workload))
    synthetic = np.array([r is None for r in records], dtype=bool)
    table = np.full((n, _N_FIELDS), -1.0)
    known = [r for r in records if r is not None]
    table[~synthetic] = np.array(known, dtype=np.float64).reshape(len(known), _N_FIELDS)
    # Reading back takes field 8 when positive, else field 5 (= size).
    replace = synthetic | (table[:, REQ_PROCS] > 0) | (size != job_size)
    table[replace, REQ_PROCS] = job_size[replace]
    # Reading back takes field 9 when positive, else the written run time.
    requested = table[:, REQ_TIME]
    kept = np.where(requested > 0, requested == estimate, estimate == run)
    replace = synthetic | ~kept
    table[replace, REQ_TIME] = estimate[replace]
    table[:, JOB], table[:, SUBMIT] = job[:, 0], job[:, 1]
    table[:, WAIT], table[:, RUN], table[:, ALLOC] = wait, run, size
    if status is not None:
        table[:, STATUS] = status
    table[:, USER : PARTITION + 1] = job[:, 4:]
    return table


def _format_rows(table: np.ndarray) -> bytes:
    """SWF job lines, each ending in a newline, from rows of 18 values, right-aligned
    per column like the archive's own files.

    Whole-number columns (nearly all of them) are written as integers, the others
    by `_fmt`; each column is as wide as its widest value, one space apart. The
    lines are made as one array of bytes, column by column (`_digits`): under a
    tenth of a second for the 77k jobs of the CTC schedule, where a printf-style
    format per line took a quarter of a second.
    """
    if not len(table):
        return b""
    columns = [_column_text(col) for col in table.T]
    lines = np.full((len(table), sum(c.shape[1] + 1 for c in columns)), ord(" "), np.uint8)
    at = 0
    for text in columns:
        lines[:, at : at + text.shape[1]] = text
        at += text.shape[1] + 1
    lines[:, -1] = ord("\n")
    return lines.tobytes()


def _column_text(col: np.ndarray) -> np.ndarray:
    """One column's values right-aligned to its widest, as a (rows, width) array of
    ASCII codes."""
    if np.all(col == np.floor(col)) and np.all(np.abs(col) < 2.0**53):
        ints = col.astype(np.int64)
        return _digits(ints, max(len(str(ints.min())), len(str(ints.max()))))
    texts = [_fmt(v) for v in col.tolist()]
    width = max(map(len, texts))
    aligned = np.array([t.rjust(width) for t in texts], dtype=f"S{width}")
    return aligned.view(np.uint8).reshape(len(texts), width)


def _digits(values: np.ndarray, width: int) -> np.ndarray:
    """Whole numbers as ``"%{width}d"`` writes them, as a (len, width) array of ASCII
    codes: a digit position at a time over the whole column (``width`` is at least
    the widest number's length, sign included)."""
    codes = np.empty((len(values), width), dtype=np.uint8)
    rest = np.abs(values)
    ndigits = np.ones(len(values), dtype=np.int64)  # 0 has one digit too
    for k in range(width - 1, -1, -1):
        rest, digit = np.divmod(rest, 10)
        codes[:, k] = digit + ord("0")
        ndigits += rest > 0
    codes[np.arange(width) < (width - ndigits)[:, None]] = ord(" ")  # leading zeros
    negative = np.flatnonzero(values < 0)
    codes[negative, width - 1 - ndigits[negative]] = ord("-")
    return codes


def _schedule_rows(workload: Workload, ids: list[int]) -> np.ndarray:
    """The schedule's row (``ids``: its job ids in order) of each job of ``workload``, in
    workload order; ValueError for a job the schedule has twice, a workload job it lacks
    or a job of another workload, checked in that order."""
    at = dict(zip(ids, range(len(ids)), strict=True))
    if len(at) < len(ids):
        seen: set[int] = set()
        for job_id in ids:  # the first row that repeats an earlier one
            if job_id in seen:
                raise ValueError(f"schedule has job {job_id} more than once")
            seen.add(job_id)
    workload_ids = list(map(attrgetter("id"), workload))
    rows = list(map(at.get, workload_ids))
    if None in rows:
        missing = [i for i, row in zip(workload_ids, rows, strict=True) if row is None]
        raise ValueError(
            f"{len(missing)} jobs of workload {workload.name!r} are not in the schedule "
            f"(first: job {missing[0]})"
        )
    # Every workload job found, and a workload's ids are unique (`Workload` checks):
    # more ids in the schedule means some are of no workload job.
    if len(at) > len(workload_ids):
        known = set(workload_ids)
        extra = [i for i in ids if i not in known]
        raise ValueError(
            f"schedule has {len(extra)} jobs that are not in workload {workload.name!r} "
            f"(first: job {extra[0]})"
        )
    return np.array(rows, dtype=np.int64)


def _whole(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``int(v)`` of each value (a float truncates) as a float, and where int() fails
    (NaN, infinite, not a number: the value there is 0)."""
    if values.dtype.kind in "iub":
        return values.astype(np.float64), np.ones(len(values), dtype=bool)
    if values.dtype.kind == "f":
        ok = np.isfinite(values)
        return np.trunc(np.where(ok, values, 0.0)), ok
    out, ok = np.zeros(len(values)), np.ones(len(values), dtype=bool)
    for i, value in enumerate(values.tolist()):
        try:
            whole = int(value)
        except (TypeError, ValueError, OverflowError):
            ok[i] = False
        else:
            out[i] = whole
    return out, ok


def _check_values(
    workload: Workload,
    rows: np.ndarray,
    sizes: np.ndarray | None,
    size_ok: np.ndarray | None,
    waits: np.ndarray,
    runs: np.ndarray,
    statuses: np.ndarray | None,
) -> None:
    """Raise for the first job, in workload order, whose size (``size_ok``: where int()
    takes it), wait, run time or status (schedule columns, ``rows`` the row of each
    job) cannot be written, with what `_seconds`, `_status` or int() say of it."""
    wrong = _bad_seconds(waits[rows]) | _bad_seconds(runs[rows])
    if size_ok is not None:
        wrong |= ~size_ok
    if statuses is not None:
        wrong |= _bad_status(statuses[rows])
    for k in np.flatnonzero(wrong).tolist():
        # The job's checks in their order; the masks flag exactly the values these
        # refuse, so the first job flagged raises.
        job_id, r = workload[k].id, rows[k]
        if sizes is not None:
            int(sizes[r])
        _seconds(float(waits[r]), "wait", job_id)
        _seconds(float(runs[r]), "run time", job_id)
        if statuses is not None:
            _status(float(statuses[r]), job_id)


def _bad_seconds(values: np.ndarray) -> np.ndarray:
    """Where `_seconds` raises: infinite, or negative once rounded half up."""
    return np.isinf(values) | (np.floor(values + 0.5) < 0)


def _bad_status(values: np.ndarray) -> np.ndarray:
    """Where `_status` raises: not NaN, and not a whole number >= 0 or -1."""
    whole = np.isfinite(values) & (values == np.floor(values))
    return ~np.isnan(values) & ~(whole & ((values >= 0) | (values == -1)))


def _rounded(values: np.ndarray) -> np.ndarray:
    """`_seconds` of each value that passed `_bad_seconds`: half up, NaN as -1."""
    return np.where(np.isnan(values), -1.0, np.floor(values + 0.5))


def _partial_rows(
    workload: Workload, table: np.ndarray, partials: Table
) -> tuple[np.ndarray, np.ndarray]:
    """The partial-execution lines of ``partials`` (`write_swf`) as rows of 18 values, in
    job order then time order, and for each the row of its job's summary line in
    ``table``; ValueError naming the first job whose partial executions cannot be written.

    Each is its summary line's 18 values but for field 3 (wait = start - submit), 4
    (run = end - start), 5 (size) and 11 (status: 2, the last one of a job 3 when the
    summary says completed (1), 2 when it says unfinished (-1), else 4). Instants are
    rounded, not lengths: start and end, as seconds after the job's submission, half
    up to whole seconds, which keeps their order (a job's lines do not overlap and
    follow each other in time) and, capped at the summary line's own end (submit + wait
    + run as written), keeps every line inside the job's life as the file shows it.
    """
    job_ids = table[:, JOB]
    by_id = np.argsort(job_ids, kind="stable")
    pid = np.asarray(partials["id"], dtype=np.float64)
    at = np.minimum(np.searchsorted(job_ids[by_id], pid), len(by_id) - 1)
    k = by_id[at]
    unknown = np.flatnonzero(job_ids[k] != pid)
    if len(unknown):
        raise ValueError(
            f"partial executions of {len(np.unique(pid[unknown]))} jobs that are not in "
            f"workload {workload.name!r} (first: job {_fmt(float(pid[unknown[0]]))})"
        )
    start = np.asarray(partials["start"], dtype=np.float64)
    end = np.asarray(partials["end"], dtype=np.float64)
    size, size_ok = _whole(np.asarray(partials["size"]))
    order = np.lexsort((end, start, k))
    k, start, end, size, size_ok = k[order], start[order], end[order], size[order], size_ok[order]
    submit = table[k, SUBMIT]
    same = np.zeros(len(k), dtype=bool)
    same[1:] = k[1:] == k[:-1]
    bad = ~(np.isfinite(start) & np.isfinite(end) & (start <= end) & size_ok & (size > 0))
    bad |= start - submit < -0.5  # before the submission, once rounded
    bad[1:] |= same[1:] & (start[1:] < end[:-1])  # overlaps the one before
    if bad.any():
        i = int(np.argmax(bad))
        given = partials["size"].to_numpy()[order[i]]
        raise ValueError(
            f"job {_fmt(float(table[k[i], JOB]))}: partial execution from {float(start[i])!r} "
            f"to {float(end[i])!r} on {getattr(given, 'item', lambda: given)()!r} processors "
            f"is no stretch of its life (submitted at {float(submit[i])!r}; finite times, "
            "start <= end, after the submission and the job's previous partial execution, "
            "a whole number of processors above 0)"
        )
    wait, run = table[k, WAIT], table[k, RUN]
    cap = np.where((wait >= 0) & (run >= 0), wait + run, np.inf)
    first = np.minimum(np.floor(start - submit + 0.5), cap)
    last = np.minimum(np.floor(end - submit + 0.5), cap)
    rows = table[k]
    rows[:, WAIT], rows[:, RUN], rows[:, ALLOC] = first, last - first, size
    final = np.ones(len(k), dtype=bool)
    final[:-1] = ~same[1:]
    status = table[k, STATUS]
    rows[:, STATUS] = np.where(final, np.select([status == 1, status == -1], [3, 2], 4), 2)
    return rows, k


def write_swf(
    path: str | os.PathLike[str],
    workload: Workload,
    schedule: Table,
    *,
    note: str | None = None,
    preemption: str | None = None,
    partials: Table | None = None,
    max_nodes: int | None = None,
    max_procs: int | None = None,
    converted: bool = False,
) -> None:
    """Write a simulated schedule as an SWF log (gzip when ``path`` ends in .gz).

    ``converted=True`` writes a log's own schedule instead (``schedsim convert``:
    `schedsim.workloads.convert`): its header says the file was converted, not
    simulated (``; Note: converted to SWF by schedsim ...``), and nothing else of the
    simulation's notes; the cleaning lines are written as below.

    ``schedule`` has one row per simulated job with columns ``id``, ``wait``
    and ``run`` (seconds) and optionally ``size`` and ``status`` (SWF field
    11: 1 completed, 0 failed, 5 cancelled...; NaN or -1 for missing): each
    job's **summary line**. ``partials`` (optional) has one row per **partial
    execution** (SWF 2.2's checkpointed or swapped jobs) with columns ``id``,
    ``start``, ``end`` (seconds, on the clock of the submit times) and ``size``
    (processors): a job that has some gets, right after its summary line, one
    line per partial execution in time order, the summary line's 18 values but
    for wait (field 3: start - submit, so that every line keeps the job's
    submit time and submit + wait is that part's start), run (field 4: its
    length), allocated processors (field 5: its size) and status (field 11: 2,
    "to be continued", for all but the last, which is 3, "last part, job
    completed", when the summary line says 1, 2 when it says -1 (unfinished),
    else 4, "last part, job failed"). Their start and end are rounded as
    instants after the submission (`_partial_rows`), so they never overlap and
    never end after the summary line does (submit + wait + run as written);
    each part's run is then within a second of its length.

    The output keeps the workload's header lines except those that describe the
    file written: ``; MaxJobs:`` counts the jobs (summary lines) and
    ``; MaxRecords:`` the lines; ``; Preemption:`` is ``preemption`` when given,
    else ``Double`` (summary lines and partial executions) when there are
    partial executions and ``No`` otherwise; given, it must say what the lines
    are: ``Double`` with partial executions, ``No`` or ``TS`` (jobs were
    preempted, no details are given) without (``Yes``, partial executions
    without summary lines, is a layout this writer does not write). With
    ``max_nodes`` and ``max_procs`` (the machine simulated), ``; MaxNodes:`` and
    ``; MaxProcs:`` say it; a header value that already does keeps its line.
    A key the header lacks is added in the archive's order. Then comes
    ``; Note: schedule simulated by schedsim`` (followed by `` (note)`` when
    given; a ``note`` that starts with "schedule simulated by schedsim" is the
    whole line), for ``Double`` and ``TS`` the lines ``; Note: schedsim partial
    executions: ...`` that say how the file shows preempted jobs, when the log's
    own header gave another machine a line ``; Note: schedsim machine: ...``
    naming its values, and one ``; Note: schedsim cleaning:`` per cleaning step
    but the reader's skipped partial lines (which changed no job). Writing a
    schedule that was read from such a file replaces its note line in place,
    places the partial-execution lines anew (those the writer wrote before it
    wrote partial executions too) and keeps its machine and cleaning lines, so
    each appears once (a cleaning step whose name and count a cleaning line
    already gives is not written again, whatever line numbers its detail
    names): written, read back and written again with the same schedule, a file
    keeps its bytes.

    Summary lines come in submit order: the original 18 fields with wait (field
    3) and run time (field 4) from the schedule, each rounded half up to whole
    seconds (NaN, e.g. a job that never finished, is written as -1), allocated
    processors (field 5) = size (the schedule's, else the job's) and status
    (field 11) from the schedule when it has that column (else the trace's).
    Jobs without SWF fields (synthetic) get -1 in the fields they do not know.
    Every workload job must be in the schedule exactly once, and the schedule
    must not name other jobs (`ValueError` otherwise): a partial file would be
    mistaken for a full run. An infinite wait or run time, one negative once
    rounded, or a status other than a whole number >= 0 or -1 is a
    `ValueError` naming the first such job in submit order; so is a partial
    execution of no workload job, or one that is no stretch of its job's life.
    """
    # np.asarray: a DataFrame's columns and `Columns`' arrays alike.
    column = np.asarray(schedule["id"])
    # int() of each id (a float id truncates); tolist() gives the same ints at once.
    ids = column.tolist() if column.dtype.kind == "i" else [int(i) for i in column]
    waits = np.asarray(schedule["wait"], dtype=float)
    runs = np.asarray(schedule["run"], dtype=float)
    sizes = np.asarray(schedule["size"]) if "size" in schedule.columns else None
    statuses = np.asarray(schedule["status"], dtype=float) if "status" in schedule.columns else None
    has_partials = partials is not None and len(partials) > 0
    if preemption is None:
        preemption = "Double" if has_partials else "No"
    elif _PREEMPTION.get(preemption, not has_partials) != has_partials or preemption == "Yes":
        says = (
            "with partial executions the file says Double (summary and partial lines)"
            if has_partials
            else "without partial executions it says No, or TS (preempted, no details)"
        )
        raise ValueError(f"preemption {preemption!r}: {says}")
    rows = _schedule_rows(workload, ids)
    size, size_ok = _whole(sizes[rows]) if sizes is not None else (None, None)
    _check_values(workload, rows, sizes, size_ok, waits, runs, statuses)
    status = statuses[rows] if statuses is not None else None
    if status is not None:
        status[np.isnan(status)] = -1.0  # missing
    table = _job_fields(workload, _rounded(waits[rows]), _rounded(runs[rows]), size, status)
    if has_partials:
        assert partials is not None
        parts, of = _partial_rows(workload, table, partials)
        # Each job's summary line, then its partial executions in time order.
        key = np.concatenate((2 * np.arange(len(table)), 2 * of + 1))
        table = np.concatenate((table, parts))[np.argsort(key, kind="stable")]
    header = _header_lines(
        workload, len(table), preemption, note, max_nodes, max_procs, converted=converted
    )
    data = ("\n".join(header) + "\n").encode("utf-8") + _format_rows(table)
    p = Path(path)
    if p.name.endswith(".gz"):
        # Level 6 (zlib's default): nearly level 9's size at a fraction of the time;
        # mtime=0: the same schedule always gives the same bytes.
        data = gzip.compress(data, compresslevel=6, mtime=0)
    p.write_bytes(data)
