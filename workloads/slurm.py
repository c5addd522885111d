"""Slurm accounting (``sacct --parsable2 --allocations``) read as a workload.

A centre's own jobs are in Slurm's accounting database; ``sacct`` prints them.
`read_sacct` reads what this command writes::

    sacct --allusers --parsable2 --allocations --starttime 2026-01-01 --endtime 2026-02-01 \\
      --format JobID,Submit,Start,End,Timelimit,NNodes,NCPUS,ReqMem,Partition,QOS,User,Account,State

``--parsable2`` separates the values by ``|`` (no trailing one) under a header line of
the column names; ``--allocations`` prints one line per job allocation, without its
steps (the file may be gzip-compressed). The columns may come in any order and their
names in any case; others are ignored. The job becomes a `Job` and its 18 SWF fields
(``Job.swf``), so that ``schedsim convert`` writes the log as SWF for other tools:

=============  ============================  ==============================================
column         needed                        becomes
=============  ============================  ==============================================
JobID          yes                           ``attrs["slurm_job_id"]`` (text); the job's
                                             id (SWF field 1) is its place in submit order,
                                             1, 2, ...: array tasks (``123_4``) and
                                             heterogeneous components (``123+1``) are jobs
                                             of their own
Submit         yes                           submit time (field 2): seconds since the first
                                             submission, which is the header's
                                             UnixStartTime
Start, End     yes                           wait (field 3) = Start - Submit, run time
                                             (field 4) = End - Start
NCPUS or       yes (NCPUS if both)           the job's size in cores (fields 5 and 8)
AllocCPUS
Timelimit      no                            the estimate (field 9); ``UNLIMITED``,
                                             ``Partition_Limit`` or no column: the run
                                             time, counted ("estimate missing: used run
                                             time"), as the SWF reader does
NNodes         with a per-node ReqMem        ``attrs["slurm_nodes"]``
ReqMem         no                            requested memory (field 10) in KB per core,
                                             as SWF defines it
Partition      no                            partition number (field 16), by first
                                             appearance; a header line ``; Partition: N
                                             name`` each; the name as
                                             ``attrs["partition_name"]``
QOS            no                            queue number (field 15), the same way
                                             (``; Queue: N name``)
User, Account  no                            user and group numbers (fields 12, 13), by
                                             first appearance: names are not kept
State          yes                           status (field 11), below
=============  ============================  ==============================================

**Times** are ``YYYY-MM-DDTHH:MM:SS`` as sacct prints them, in the time zone of the
machine that ran it: ``read_sacct(..., tz="Europe/Stockholm")`` names it (UTC by
default; the header's TimeZoneString says which was used). In the hour a clock falls
back, a time is read as its first occurrence. A time limit is ``minutes``,
``minutes:seconds``, ``hours:minutes:seconds``, ``days-hours``,
``days-hours:minutes`` or ``days-hours:minutes:seconds`` (Slurm's forms).

**Memory**: a number with an optional unit K, M (the default), G or T (powers of
1024) and, in Slurm before 21.08, a suffix ``c`` (per CPU) or ``n`` (per node):
``4000Mc``, ``16Gn``, ``4G``. A value without ``c`` or ``n`` is read per node
(``--mem``'s meaning; ``mem_per="cpu"`` reads it per CPU). Per node, it becomes per
core as memory x NNodes / NCPUS. ``0`` or an empty value is missing (-1).

**States** (the first word: ``CANCELLED by 1234`` is CANCELLED): COMPLETED is status 1;
FAILED, TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE and PREEMPTED are 0
(failed); CANCELLED is 5 (cancelled). A job that never started (Start ``Unknown`` or
``None``: PENDING, or cancelled while pending) or has not ended (RUNNING,
SUSPENDED, REQUEUED, RESIZING, or End ``Unknown``) is dropped and counted; so are
step lines (a JobID with a dot, ``123.batch``), which sacct prints without
``--allocations``. Another state is refused.

**Bad input** is a `SacctError` on one line naming the file, the line and the column
(``jobs.txt:12: column Submit: '2026-13-01T00:00:00' is not a date
(YYYY-MM-DDTHH:MM:SS)``); what is dropped or filled in is a counted `CleaningStep`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from schedsim.workloads.formats import read_decompressed
from schedsim.workloads.job import Job
from schedsim.workloads.swf import STEP_NO_ESTIMATE
from schedsim.workloads.workload import CleaningStep, Header, Members, Workload

__all__ = ["COLUMNS", "STATUS", "SacctError", "read_sacct"]

#: The columns `read_sacct` reads (any order, any case); the others are ignored.
COLUMNS = (
    "JobID", "Submit", "Start", "End", "Timelimit", "NNodes", "NCPUS", "AllocCPUS",
    "ReqMem", "Partition", "QOS", "User", "Account", "State",
)  # fmt: skip
_NEEDED = ("JobID", "Submit", "Start", "End", "State")

#: The SWF status (field 11) of each state a finished allocation can have.
STATUS: Mapping[str, int] = {
    "COMPLETED": 1,
    "FAILED": 0,
    "TIMEOUT": 0,
    "NODE_FAIL": 0,
    "OUT_OF_MEMORY": 0,
    "BOOT_FAIL": 0,
    "DEADLINE": 0,
    "PREEMPTED": 0,
    "CANCELLED": 5,
}
#: States of a job that is not over: dropped, counted.
_NOT_ENDED = frozenset({
    "RUNNING", "SUSPENDED", "REQUEUED", "RESIZING", "REQUEUE_HOLD", "REQUEUE_FED",
    "COMPLETING", "CONFIGURING", "STOPPED", "SIGNALING", "STAGE_OUT", "RESV_DEL_HOLD",
    "SPECIAL_EXIT", "PENDING", "REVOKED",
})  # fmt: skip
#: What sacct prints for a time that is not set.
_UNSET = frozenset({"Unknown", "None", ""})
_NO_LIMIT = frozenset({"UNLIMITED", "Partition_Limit"})

_TIME = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})")
_LIMIT = re.compile(r"(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?")
_MEMORY = re.compile(r"(\d+(?:\.\d+)?)([KMGT]?)([cn]?)")
_KB = {"K": 1.0, "": 1024.0, "M": 1024.0, "G": 1024.0**2, "T": 1024.0**3}

#: ``fail(column, reason)``: the error a line's reader raises.
_Fail = Callable[[str, str], "SacctError"]

STEP_NEVER_STARTED = "dropped: never started"
STEP_NOT_ENDED = "dropped: not ended"
STEP_STEPS = "dropped: job step lines (sacct without --allocations)"
#: What each dropping step's detail says of its lines.
_WHY = {
    STEP_STEPS: "a JobID with a dot",
    STEP_NEVER_STARTED: "Start Unknown or None, or State PENDING",
    STEP_NOT_ENDED: "a state not over, or End Unknown",
}


class SacctError(ValueError):
    """A line of sacct output that cannot be read: ``str()`` is one line naming the file,
    the 1-based line (None: the whole file) and the column (None: no single one)."""

    def __init__(
        self, path: str | os.PathLike[str], line: int | None, column: str | None, reason: str
    ) -> None:
        self.path, self.line, self.column, self.reason = str(path), line, column, reason
        where = self.path if line is None else f"{self.path}:{line}"
        super().__init__(f"{where}: column {column}: {reason}" if column else f"{where}: {reason}")

    def __reduce__(self) -> tuple[type[SacctError], tuple[str, int | None, str | None, str]]:
        # Keep the attributes across a process boundary (sweeps run in workers).
        return (type(self), (self.path, self.line, self.column, self.reason))


@dataclass
class _Numbering:
    """Names -> 1, 2, ... by first appearance, for the SWF fields that hold numbers."""

    numbers: dict[str, int] = field(default_factory=dict)

    def __call__(self, name: str) -> int:
        if not name:
            return -1
        return self.numbers.setdefault(name, len(self.numbers) + 1)


def read_sacct(
    path: str | os.PathLike[str],
    *,
    tz: str = "UTC",
    mem_per: str = "node",
    name: str | None = None,
) -> Workload:
    """Read ``sacct --parsable2 --allocations`` output (the module docstring says what
    each column becomes, what is dropped and counted, and what is refused).

    ``tz``: the time zone sacct printed its times in (an IANA name); ``mem_per``:
    how a ReqMem without Slurm's old ``c``/``n`` suffix is read, ``"node"`` or
    ``"cpu"``; ``name``: the workload's name (the file's, by default).
    """
    p = Path(path)
    if mem_per not in ("node", "cpu"):
        raise ValueError(f"mem_per must be 'node' or 'cpu', got {mem_per!r}")
    try:
        zone = ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {tz!r} (an IANA name, e.g. 'Europe/Berlin')") from None
    data = read_decompressed(p, lambda why: SacctError(p, None, None, why))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SacctError(p, None, None, f"not UTF-8 text ({exc.reason})") from None
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise SacctError(p, 1 if lines else None, None, "no header line of column names")
    columns = _columns(p, lines[0])
    rows: list[_Row] = []
    dropped: dict[str, list[int]] = {STEP_STEPS: [], STEP_NEVER_STARTED: [], STEP_NOT_ENDED: []}
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        values = line.split("|")
        if len(values) != len(columns.names):
            raise SacctError(
                p, number, None,
                f"{len(values)} values, the header has {len(columns.names)} columns "
                "(a '|' inside a value?)",
            )  # fmt: skip
        row = _Row.read(p, number, columns, values, zone, mem_per)
        if row.drop is not None:
            dropped[row.drop].append(number)
        else:
            rows.append(row)
    if not rows:
        raise SacctError(p, None, None, "no job that started and ended: nothing to simulate")
    return _workload(p, rows, dropped, tz, name or p.name.split(".")[0])


@dataclass(frozen=True)
class _Columns:
    """Where each column read is (its index), from the header line."""

    names: list[str]
    at: dict[str, int]

    def get(self, values: list[str], column: str) -> str | None:
        i = self.at.get(column)
        return None if i is None else values[i].strip()


def _columns(path: Path, header: str) -> _Columns:
    names = [n.strip() for n in header.split("|")]
    known = {c.lower(): c for c in COLUMNS}
    at: dict[str, int] = {}
    for i, n in enumerate(names):
        column = known.get(n.lower())
        if column is not None:
            if column in at:
                raise SacctError(path, 1, column, "given twice")
            at[column] = i
    if "JobID" not in at and any(_TIME.fullmatch(n) for n in names):
        raise SacctError(path, 1, None, "no header line: run sacct without --noheader")
    missing = [c for c in _NEEDED if c not in at]
    if "NCPUS" not in at and "AllocCPUS" not in at:
        missing.append("NCPUS (or AllocCPUS)")
    if missing:
        raise SacctError(
            path, 1, None, f"missing column {', '.join(missing)} (sacct --format "
            f"{','.join(c for c in COLUMNS if c != 'AllocCPUS')})",
        )  # fmt: skip
    return _Columns(names, at)


@dataclass(frozen=True)
class _Row:
    """One allocation line, read: its times on the epoch clock and its SWF values."""

    line: int
    slurm_id: str
    submit: float = 0.0
    start: float = 0.0
    end: float = 0.0
    cores: int = 0
    nodes: int = -1
    limit: float = -1.0
    memory: float = -1.0
    status: int = -1
    partition: str = ""
    qos: str = ""
    user: str = ""
    account: str = ""
    #: The cleaning step that drops the line, or None for a job.
    drop: str | None = None

    @classmethod
    def read(
        cls,
        path: Path,
        line: int,
        columns: _Columns,
        values: list[str],
        zone: ZoneInfo,
        mem_per: str,
    ) -> _Row:
        def get(column: str) -> str:
            return columns.get(values, column) or ""

        def fail(column: str, reason: str) -> SacctError:
            return SacctError(path, line, column, reason)

        slurm_id = get("JobID")
        if not slurm_id:
            raise fail("JobID", "empty")
        if "." in slurm_id:
            return cls(line, slurm_id, drop=STEP_STEPS)
        state = get("State").split(" ", 1)[0].rstrip("+")
        if state not in STATUS and state not in _NOT_ENDED:
            raise fail("State", f"{_shown(get('State'))} is not a Slurm job state")
        start_text, end_text = get("Start"), get("End")
        if start_text in _UNSET or state == "PENDING":
            return cls(line, slurm_id, drop=STEP_NEVER_STARTED)
        if state in _NOT_ENDED or end_text in _UNSET:
            return cls(line, slurm_id, drop=STEP_NOT_ENDED)
        submit = _time(get("Submit"), zone, fail, "Submit")
        start = _time(start_text, zone, fail, "Start")
        end = _time(end_text, zone, fail, "End")
        if start < submit:
            raise fail("Start", f"{start_text} is before the job's Submit {get('Submit')}")
        if end < start:
            raise fail("End", f"{end_text} is before the job's Start {start_text}")
        cpus_column = "NCPUS" if "NCPUS" in columns.at else "AllocCPUS"
        cores = _whole(get(cpus_column), fail, cpus_column)
        if cores < 1:
            raise fail(cpus_column, f"{cores}: a job that ran holds at least one CPU")
        nodes = -1
        if "NNodes" in columns.at:
            nodes = _whole(get("NNodes"), fail, "NNodes")
            if not 1 <= nodes <= cores:
                raise fail("NNodes", f"{nodes} nodes for {cores} CPUs")
        limit = -1.0
        if "Timelimit" in columns.at:
            limit = _limit(get("Timelimit"), fail)
        memory = -1.0
        if "ReqMem" in columns.at:
            memory = _memory(get("ReqMem"), cores, nodes, mem_per, fail)
        return cls(
            line, slurm_id, submit, start, end, cores, nodes, limit, memory, STATUS[state],
            get("Partition"), get("QOS"), get("User"), get("Account"),
        )  # fmt: skip


def _shown(text: str) -> str:
    """A value as a message shows it: quoted, cut at 40 characters."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _time(text: str, zone: ZoneInfo, fail: _Fail, column: str) -> float:
    m = _TIME.fullmatch(text)
    if m is None:
        raise fail(column, f"{_shown(text)} is not a date and time (YYYY-MM-DDTHH:MM:SS)")
    try:
        # fold=0: in the hour a clock falls back, the first of the two times (module docstring).
        year, month, day, hour, minute, second = map(int, m.groups())
        when = datetime(year, month, day, hour, minute, second, tzinfo=zone)
    except ValueError as exc:
        raise fail(column, f"{_shown(text)} is not a date ({exc})") from None
    return when.timestamp()


def _whole(text: str, fail: _Fail, column: str) -> int:
    if not text.isascii() or not text.isdigit():
        raise fail(column, f"{_shown(text)} is not a whole number")
    return int(text)


def _limit(text: str, fail: _Fail) -> float:
    """A time limit in seconds (-1: none), from Slurm's forms (module docstring)."""
    if text in _NO_LIMIT or text in _UNSET:
        return -1.0
    m = _LIMIT.fullmatch(text)
    if m is None:
        raise fail(
            "Timelimit", f"{_shown(text)} is not a time limit ([days-]hours:minutes:seconds)"
        )
    days, a, b, c = (int(g) if g is not None else None for g in m.groups())
    assert a is not None
    if days is not None:  # days-hours[:minutes[:seconds]]
        seconds = ((days * 24 + a) * 60 + (b or 0)) * 60 + (c or 0)
    elif c is not None:  # hours:minutes:seconds
        seconds = (a * 60 + (b or 0)) * 60 + c
    elif b is not None:  # minutes:seconds
        seconds = a * 60 + b
    else:  # minutes
        seconds = a * 60
    return float(seconds) if seconds > 0 else -1.0


def _memory(text: str, cores: int, nodes: int, mem_per: str, fail: _Fail) -> float:
    """Requested memory in KB per core (-1: none), as SWF field 10 holds it."""
    if text in _UNSET or text == "0":
        return -1.0
    m = _MEMORY.fullmatch(text)
    if m is None:
        raise fail("ReqMem", f"{_shown(text)} is not a memory size (e.g. 4000M, 16Gn, 2Gc)")
    amount, unit, per = m.groups()
    kb = float(amount) * _KB[unit]
    if kb == 0:
        return -1.0
    if (per or ("c" if mem_per == "cpu" else "n")) == "c":
        return kb
    if nodes < 1:
        raise fail("ReqMem", f"{_shown(text)} is per node: the NNodes column is needed")
    return kb * nodes / cores


def _workload(
    path: Path, rows: list[_Row], dropped: dict[str, list[int]], tz: str, name: str
) -> Workload:
    """The jobs in submit order (ties by line), their SWF fields, header and steps."""
    rows.sort(key=lambda r: (r.submit, r.line))
    epoch = int(rows[0].submit)
    users, accounts, queues, partitions = _Numbering(), _Numbering(), _Numbering(), _Numbering()
    jobs: list[Job] = []
    no_estimate: list[tuple[int, int]] = []
    for number, r in enumerate(rows, start=1):
        submit, run = r.submit - epoch, r.end - r.start
        estimate = r.limit if r.limit > 0 else run
        if r.limit <= 0:
            no_estimate.append((number, r.line))
        user, group = users(r.user), accounts(r.account)
        queue, partition = queues(r.qos), partitions(r.partition)
        swf = (
            float(number), submit, r.start - r.submit, run, float(r.cores), -1.0, -1.0,
            float(r.cores), r.limit, r.memory, float(r.status), float(user), float(group),
            -1.0, float(queue), float(partition), -1.0, -1.0,
        )  # fmt: skip
        attrs: dict[str, object] = {"slurm_job_id": r.slurm_id}
        if r.partition:
            # By name: a machine file's partitions are matched by it (schedsim.model.machine).
            attrs["partition_name"] = r.partition
        if r.nodes > 0:
            attrs["slurm_nodes"] = r.nodes
        jobs.append(
            Job(number, submit, run, r.cores, estimate, user=user, group=group,
                queue=queue, partition=partition, swf=swf, attrs=attrs)
        )  # fmt: skip
    header_lines = [
        f"; Note: read from Slurm accounting (sacct) by schedsim; times in {tz}",
        f"; UnixStartTime: {epoch}",
        f"; TimeZoneString: {tz}",
        *(f"; Queue: {n} {q}" for q, n in queues.numbers.items()),
        *(f"; Partition: {n} {q}" for q, n in partitions.numbers.items()),
    ]
    header = Header(
        unix_start_time=epoch,
        time_zone_string=tz,
        fields={"UnixStartTime": str(epoch), "TimeZoneString": tz},
        lines=tuple(header_lines),
    )
    steps = [
        CleaningStep.of(step, Members(_WHY[step], len(lines), lines=tuple(lines)))
        for step, lines in dropped.items()
        if lines
    ]
    if no_estimate:
        ids, lines = zip(*no_estimate, strict=True)
        steps.append(
            CleaningStep.of(
                STEP_NO_ESTIMATE,
                Members("Timelimit UNLIMITED, Partition_Limit or missing", len(ids), ids=ids,
                        lines=lines),
            )
        )  # fmt: skip
    return Workload(tuple(jobs), header, name=name, source=str(path), cleaning=tuple(steps))
