"""Batsim's JSON workloads: read them as schedsim workloads, write workloads as them.

Batsim (the SimGrid-based batch scheduling simulator) reads its workload from a JSON
object with a list of ``jobs``, an object of named ``profiles`` (what each job
computes) and, optionally, ``nb_res``, the number of resources the workload was made
for::

    {"nb_res": 4,
     "jobs": [{"id": "1", "subtime": 0, "walltime": 100, "res": 4, "profile": "delay_10"},
              {"id": 2, "subtime": 5.5, "res": 1, "profile": "p2"}],
     "profiles": {"delay_10": {"type": "delay", "delay": 10},
                  "p2": {"type": "delay", "delay": 3.5}}}

`read_batsim_json` reads such a file as a `Workload`, and `write_batsim_json` writes
one, so that the same jobs can be run by schedsim and by Batsim and the schedules
compared (a run's ``batsim_jobs.csv``, `schedsim.app.batsim`, is Batsim's own output
layout).

**The mapping**, a Batsim job to a schedsim `Job`:

=================  ============================================================
Batsim             schedsim
=================  ============================================================
``id``             ``Job.id`` (below)
``subtime``        ``submit``, seconds (fractions kept), on the file's clock
``res``            ``size``, in cores (one Batsim resource is one core)
profile ``delay``  ``run_time``: schedsim replays run times
``walltime``       ``estimate``; absent or -1 (no limit): the run time, counted
                   as ``estimate missing: used run time``, as the SWF reader does
``nb_res``         ``Header.max_procs``, the machine size (none when absent)
other fields       ``Job.attrs``, when scalars (below)
=================  ============================================================

**Job ids.** Batsim's ids are strings (older versions also take integers); inside
Batsim a job is ``workload_name!id``. schedsim's ids are integers, so an id maps to a
number when it is an integer, a string of decimal digits (``"7"``, ``"-3"``,
``"007"``) or ``name!digits`` (``"w0!7"``), below 2**53 either way (the bound of the
SWF reader, `schedsim.workloads.swf.MAX_ID`). When every id of the file maps to a
number and no two map to the same one, those numbers are the jobs' ids. Otherwise
(an id such as ``"job_a"``, or ``"w0!1"`` and ``"w1!1"`` in one file) every job is
numbered 1 to n in the file's order and keeps its Batsim id, as a string, in
``attrs["batsim_id"]``: one rule for the whole file, so that a renumbered job cannot
take the number another job kept; the renumbering is a `CleaningStep`
(``STEP_RENUMBERED``), never silent. Two jobs with the same Batsim id (``7`` and
``"7"`` are the same id to Batsim, ``w0!7``) are refused, as Batsim refuses them.

**Profiles.** Only delay profiles (type ``"delay"``, or ``"DelayProfile"`` as newer
Batsim documentation names it) say how long a job runs. The other types (parallel
tasks, their homogeneous variants, sequences and compositions, trace replays, I/O)
describe computation whose duration depends on the simulated platform, which
schedsim does not model: a job with one is refused, naming the job, the profile and
its type. A profile's other fields (``ret``, a return code) are not read, and
profiles no job uses are not looked at.

**Other job fields** (Batsim forwards them to the scheduler: ``extra_data``, a user,
dependencies...) are kept in ``Job.attrs`` under their own names when they are
strings, booleans or finite numbers; lists, objects and nulls are left out (a job
attribute is one value, shown as a column of the job table). A field named like a
`Job` field or ``batsim_id`` (``"user": "alice"``) is kept as ``batsim_<name>``,
so that it hides nothing (a Parquet copy, `schedsim.workloads.parquet`, stores
fields and attributes side by side). Top-level fields other than ``nb_res``,
``jobs`` and ``profiles`` (``description``, ``command``, ``date``) are not read.

**Refused**, each with a `BatsimJSONError` on one line naming the file and, for a
job, its 1-based place in ``jobs``, its id and the field
(``w.json: job 3 (id "w0!7"): field walltime: -5 is negative``): bytes that are not
JSON (with the line and column, ``w.json:12:5: not JSON: Expecting ',' delimiter``,
or what the file looks like: CSV, Parquet...), JSON that is no workload (not an
object, no ``jobs`` list, no jobs, no ``profiles`` object), a missing ``id``,
``subtime``, ``res`` or ``profile``, a value of the wrong type (``true`` is not a
number; ``null`` is not a walltime: leave it out), a time that is negative, not
finite or 2**43 s or more (`schedsim.workloads.swf.MAX_TIME`), or a job whose
submit time plus the longer of run time and walltime reaches it, a walltime of 0
(Batsim takes a positive one, or -1), ``res`` below 1, above 2**31 or not whole
(``4.0`` is 4), an unknown profile or one that is not a delay, an ``nb_res`` that is
no machine size. A job wider than ``nb_res`` is read as it is: what to do with it
is the run's to say (`schedsim.workloads.transforms.fit_machine`), as for an SWF
log. A walltime below the run time is kept too (Batsim kills such a job at its
walltime; schedsim's own runs decide by their options).

Other choices: the file may be gzip-compressed (told by its first bytes, as for
SWF) and may begin with a UTF-8 byte order mark; it must be UTF-8 text. Python's
``json`` reads ``NaN`` and ``Infinity`` (no JSON values): refused where a time is
read, left out of ``attrs``. In an object with a key repeated, the last value
counts, as in Python's ``json`` module. The workload's name is the file's name
without ``.json`` (and ``.gz``); its jobs are in submit order, ties by id
(`Workload`).

**Writing.** `write_batsim_json` writes one job per workload job, in the workload's
order: ``id`` is the schedsim id as a string (read back as the same number);
``subtime`` the submit time minus the workload's first, since Batsim's clock starts
at 0 and schedsim's jobs CSV counts seconds from a run's first submit too (so the
submit times of the file and of a run's ``batsim_jobs.csv`` are on one clock);
``walltime`` the estimate (left out for an estimate of 0, a job of 0 s: Batsim
takes no walltime of 0); ``res`` the size; ``profile`` one delay profile per
distinct run time, ``delay_<seconds>`` (``delay_10``, ``delay_3.5``), of type
``"delay"``, which released Batsim versions read; and ``nb_res`` the machine size:
the one given, else the header's (`Header.machine_size`), else the widest job's.
Times are written exactly (Python's shortest repr of a float, whole numbers without
``.0``), so reading the file back gives the same ids, run times, sizes, estimates
and submit times less the first. Users, groups, attributes and the header's other
facts are not written (Batsim has no fields for them). Output is deterministic:
the same workload gives the same bytes, one job and one profile per line.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from schedsim.workloads.formats import not_swf, read_decompressed
from schedsim.workloads.job import Job
from schedsim.workloads.swf import MAX_ID, MAX_PROCS, MAX_TIME, STEP_NO_ESTIMATE
from schedsim.workloads.workload import CleaningStep, Header, Members, Workload

__all__ = [
    "DELAY_TYPES",
    "STEP_RENUMBERED",
    "BatsimJSONError",
    "read_batsim_json",
    "write_batsim_json",
]

#: The profile types that give a run time: Batsim's ``delay``, and ``DelayProfile``
#: as newer Batsim documentation names it.
DELAY_TYPES: frozenset[str] = frozenset({"delay", "DelayProfile"})
#: The cleaning step of a file whose ids are renumbered (module docstring).
STEP_RENUMBERED = "ids renumbered 1..n in file order (Batsim ids in attrs batsim_id)"

#: The job fields the reader interprets; any other is an extra (``attrs``).
_JOB_KEYS = frozenset({"id", "subtime", "res", "profile", "walltime"})
#: Extra field names that would hide a job field (or the renumbering's attribute).
_RESERVED = frozenset({*Job.__dataclass_fields__, "batsim_id"})
#: An id Batsim may give a job that maps to a number: digits, or ``name!digits``.
_NUMBERED = re.compile(r"(?:[^!]*!)?(-?[0-9]+)", re.ASCII)
_BOM = b"\xef\xbb\xbf"
#: How many characters of a value a message shows (a value may be a long string).
_SHOWN = 60
_TIME_BOUND = "times must stay below 2**43 s (8796093022208 s, about 279,000 years)"


class BatsimJSONError(ValueError):
    """A Batsim JSON workload schedsim cannot read, located as precisely as possible.

    ``path`` is the file as given; ``line`` and ``column`` (1-based) where a JSON
    syntax error lies; ``job`` the 1-based place of the job in ``jobs``, ``job_id``
    its Batsim id as the file gives it (a string or an integer; None when it has no
    usable one), ``field`` the JSON key at fault (``subtime``, ``nb_res``...).
    ``str()`` is one line, as `schedsim.workloads.swf.SWFError`'s is:
    ``w.json: job 3 (id "w0!7"): field walltime: -5 is negative``,
    ``w.json:12:5: not JSON: Expecting ',' delimiter``.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        reason: str,
        job: int | None = None,
        job_id: str | int | None = None,
        field: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.path = str(path)
        self.reason = reason
        self.job = job
        self.job_id = job_id
        self.field = field
        self.line = line
        self.column = column
        super().__init__(self._format())

    def _format(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}" + (f":{self.column}" if self.column is not None else "")
        if self.job is not None:
            where += f": job {self.job}"
            if self.job_id is not None:
                where += f" (id {_show(self.job_id)})"
        if self.field is not None:
            where += f": field {self.field}"
        return f"{where}: {self.reason}"

    def __str__(self) -> str:
        return self._format()

    def __reduce__(self) -> tuple[Any, ...]:
        # Keep the attributes when the error crosses a process boundary (parameter
        # sweeps run in worker processes); the arguments are positional for pickle.
        args = (self.path, self.reason, self.job, self.job_id, self.field, self.line, self.column)
        return (type(self), args)


class _Bad(Exception):
    """A value refused, raised by the checks below and turned into a `BatsimJSONError`
    by the caller, which knows the file and the job."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(reason)
        self.field = field
        self.reason = reason


# -- reading -----------------------------------------------------------------------


def read_batsim_json(path: str | os.PathLike[str]) -> Workload:
    """Read a Batsim JSON workload as a `Workload` (the module docstring gives the
    mapping, the choices and what is refused, with a `BatsimJSONError`)."""
    src = Path(path)
    doc = _load(src)
    if not isinstance(doc, dict):
        raise BatsimJSONError(
            src,
            f"JSON, but not a Batsim workload: the top level is {_kind(doc)}, "
            'not an object with "jobs" and "profiles"',
        )
    entries = doc.get("jobs")
    if entries is None:
        keys = ", ".join(_show(k) for k in list(doc)[:5]) or "none"
        raise BatsimJSONError(
            src, f'JSON, but not a Batsim workload: no "jobs" list (its keys: {keys})'
        )
    if not isinstance(entries, list):
        raise BatsimJSONError(src, f"{_kind(entries)}, not a list of jobs", field="jobs")
    if not entries:
        raise BatsimJSONError(src, "an empty list: no jobs", field="jobs")
    profiles = doc.get("profiles")
    if not isinstance(profiles, dict):
        what = "missing" if profiles is None and "profiles" not in doc else _kind(profiles)
        raise BatsimJSONError(
            src, f"{what}, not an object of named profiles (jobs name theirs)", field="profiles"
        )
    header = Header()
    if "nb_res" in doc:
        try:
            header = Header(max_procs=_count("nb_res", doc["nb_res"], "resources"))
        except _Bad as bad:
            raise BatsimJSONError(src, bad.reason, field=bad.field) from None

    parsed = [_job(src, k, entry, profiles) for k, entry in enumerate(entries, start=1)]
    ids, renumbered = _ids(src, [p[0] for p in parsed])
    jobs = []
    no_walltime = []
    for (batsim_id, submit, run, size, walltime, attrs), job_id in zip(parsed, ids, strict=True):
        if renumbered:
            attrs["batsim_id"] = batsim_id
        if walltime is None:
            no_walltime.append(job_id)
        estimate = run if walltime is None else walltime
        jobs.append(Job(job_id, submit, run, size, estimate, attrs=attrs))

    cleaning = []
    if renumbered:
        cleaning.append(CleaningStep.of(STEP_RENUMBERED, _members(renumbered, ids)))
    if no_walltime:
        cleaning.append(
            CleaningStep.of(STEP_NO_ESTIMATE, _members("walltime absent or -1", no_walltime))
        )
    name = src.name.removesuffix(".gz").removesuffix(".json")
    return Workload(tuple(jobs), header, name=name, source=str(src), cleaning=tuple(cleaning))


def _load(src: Path) -> Any:
    """The file's JSON value; `BatsimJSONError` when its bytes are no JSON text."""
    data = read_decompressed(src, lambda why: BatsimJSONError(src, why))
    # A byte order mark is no part of the JSON text (editors on Windows add one).
    data = data.removeprefix(_BOM)
    if not data.strip():
        raise BatsimJSONError(src, "an empty file: no JSON, no jobs")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BatsimJSONError(
            src,
            _looks_like(data) or "not UTF-8 text (JSON is UTF-8)",
            line=_line_of(data, exc.start),
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        hint = _looks_like(data)
        if hint is not None:
            raise BatsimJSONError(src, hint) from None
        raise BatsimJSONError(
            src, f"not JSON: {exc.msg}", line=exc.lineno, column=exc.colno
        ) from None
    except RecursionError:
        raise BatsimJSONError(src, "not JSON schedsim can read: nested too deeply") from None


def _looks_like(data: bytes) -> str | None:
    """What a file that is no JSON plainly is (CSV, Parquet, an archive...), as
    `schedsim.workloads.formats.not_swf` tells it; None when it looks like JSON or
    like nothing in particular (the JSON error then says where it goes wrong)."""
    found = not_swf(data)
    if found is None or found[1] == "JSON":
        return None
    return f"not JSON: it looks like {found[1]}"


def _line_of(data: bytes, at: int) -> int:
    """The 1-based line of byte ``at`` (lines end with LF, as JSON's reader counts them)."""
    return data.count(b"\n", 0, at) + 1


def _job(
    src: Path, k: int, entry: Any, profiles: Mapping[str, Any]
) -> tuple[str, float, float, int, float | None, dict[str, Any]]:
    """Job ``k`` (1-based) of the file, checked: its Batsim id (as Batsim sees it: a
    string), submit time, run time, size, walltime (None for no limit) and extra
    fields; `BatsimJSONError` naming the job and field otherwise."""
    if not isinstance(entry, dict):
        raise BatsimJSONError(src, f"{_kind(entry)}, not a job object", job=k)
    raw_id = entry.get("id")
    usable_id = raw_id if _is_id(raw_id) else None
    try:
        batsim_id = _batsim_id(entry)
        submit = _time("subtime", _required(entry, "subtime"))
        size = _count("res", _required(entry, "res"), "resources a job requests")
        name = _required(entry, "profile")
        if not isinstance(name, str):
            raise _Bad("profile", f"{_show(name)} is {_kind(name)}, not a profile name")
        run = _delay(name, profiles)
        walltime = _walltime(entry.get("walltime", -1))
        end = submit + max(run, walltime or 0.0)
        if end >= MAX_TIME:
            raise _Bad(
                "subtime",
                f"{_show(submit)} + the job's run time or walltime is too late: {_TIME_BOUND}",
            )
    except _Bad as bad:
        raise BatsimJSONError(src, bad.reason, job=k, job_id=usable_id, field=bad.field) from None
    attrs = {}
    for key, value in entry.items():
        if key in _JOB_KEYS or not _scalar(value):
            continue
        attrs[f"batsim_{key}" if key in _RESERVED else key] = value
    return batsim_id, submit, run, size, walltime, attrs


def _required(entry: Mapping[str, Any], field: str) -> Any:
    if field not in entry:
        raise _Bad(field, "missing (Batsim requires id, subtime, res and profile)")
    return entry[field]


def _is_id(value: Any) -> bool:
    """Whether ``value`` has the type of a Batsim id: a string, or an integer."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _batsim_id(entry: Mapping[str, Any]) -> str:
    """The job's id as Batsim sees it: a string (``7`` and ``"7"`` are one id)."""
    value = _required(entry, "id")
    if not _is_id(value):
        raise _Bad("id", f"{_show(value)} is {_kind(value)}, not a string or an integer")
    text = str(value)
    if not text:
        raise _Bad("id", "an empty string")
    return text


def _number(field: str, value: Any, what: str) -> float | int:
    """``value`` when it is a finite number (`_Bad` otherwise): JSON's ``true`` is
    no number, though Python's bool is an int."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _Bad(field, f"{_show(value)} is {_kind(value)}, not {what}")
    if isinstance(value, float) and not math.isfinite(value):
        raise _Bad(field, f"{_show(value)} is not a finite number")
    return value


def _time(field: str, value: Any) -> float:
    """A time in seconds: a finite number, at least 0 and below 2**43."""
    number = _number(field, value, "a number of seconds")
    if number < 0:
        raise _Bad(field, f"{_show(number)} is negative")
    # Compared before the conversion: float() of a huge JSON integer overflows.
    if number >= MAX_TIME:
        raise _Bad(field, f"{_show(number)} is too large: {_TIME_BOUND}")
    return float(number)


def _walltime(value: Any) -> float | None:
    """The walltime, or None for none (-1, as Batsim writes it, or absent)."""
    if value is None:
        raise _Bad(
            "walltime", "null is not a number of seconds (leave it out, or -1, for no limit)"
        )
    if _number("walltime", value, "a number of seconds") == -1:
        return None
    walltime = _time("walltime", value)
    if walltime == 0:
        raise _Bad("walltime", "0 is no time limit: Batsim takes a positive one, or -1 for none")
    return walltime


def _count(field: str, value: Any, what: str) -> int:
    """A whole number from 1 to 2**31 (``4.0`` is 4): a job's or a machine's size."""
    number = _number(field, value, f"a number of {what}")
    if isinstance(number, float) and not number.is_integer():
        raise _Bad(field, f"{_show(number)} is not a whole number of {what}")
    if number < 1:
        raise _Bad(field, f"{_show(number)} is less than 1")
    if number > MAX_PROCS:
        raise _Bad(field, f"{_show(number)} is too large: at most 2**31 ({MAX_PROCS})")
    return int(number)


def _delay(name: str, profiles: Mapping[str, Any]) -> float:
    """The run time of profile ``name``: its ``delay``, for a delay profile only."""
    if name not in profiles:
        raise _Bad("profile", f"{_show(name)} is not among the file's profiles")
    profile = profiles[name]
    if not isinstance(profile, dict):
        raise _Bad("profile", f"profile {_show(name)} is {_kind(profile)}, not an object")
    kind = profile.get("type")
    if kind not in DELAY_TYPES:
        shown = "no type" if kind is None else f"type {_show(kind)}"
        raise _Bad(
            "profile",
            f"profile {_show(name)} has {shown}: only delay profiles give a run time "
            "(other types depend on Batsim's platform; schedsim replays run times)",
        )
    if "delay" not in profile:
        raise _Bad("profile", f"profile {_show(name)} has no delay")
    try:
        return _time("delay", profile["delay"])
    except _Bad as bad:
        raise _Bad("profile", f"profile {_show(name)}: delay {bad.reason}") from None


def _scalar(value: Any) -> bool:
    """Whether an extra field is kept as an attribute: one string, boolean or finite
    number (a NaN, which Python's json reads, is no JSON value)."""
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, (str, int))


def _ids(src: Path, batsim_ids: list[str]) -> tuple[list[int], str]:
    """The schedsim ids of the jobs, and why they were renumbered ("" when they were
    not): their Batsim ids' numbers when every one has one and no two share it,
    1..n in file order otherwise (module docstring)."""
    seen: dict[str, int] = {}
    for k, batsim_id in enumerate(batsim_ids, start=1):
        first = seen.setdefault(batsim_id, k)
        if first != k:
            raise BatsimJSONError(
                src,
                f'the id of job {first} too (Batsim ids are unique; 7 and "7" are one id)',
                job=k,
                job_id=batsim_id,
                field="id",
            )
    numbers: list[int] = []
    owner: dict[int, str] = {}
    for batsim_id in batsim_ids:
        match = _NUMBERED.fullmatch(batsim_id)
        number = int(match.group(1)) if match else None
        if number is None or not -MAX_ID < number < MAX_ID:
            why = f"Batsim ids that are no numbers below 2**53, such as {_show(batsim_id)}"
            return list(range(1, len(batsim_ids) + 1)), why
        if number in owner:
            pair = f"{_show(owner[number])} and {_show(batsim_id)}"
            why = f"Batsim ids {pair} both name number {number}"
            return list(range(1, len(batsim_ids) + 1)), why
        owner[number] = batsim_id
        numbers.append(number)
    return numbers, ""


def _members(what: str, ids: list[int]) -> Members:
    """The members of one reader step: the jobs ``ids``, counted in the whole file."""
    return Members(what, len(ids), ids=tuple(ids), before="in the whole file")


def _kind(value: Any) -> str:
    """What a JSON value is, for messages: ``a boolean``, ``a string``, ``no value``
    (null)..."""
    if value is None:
        return "no value"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _show(value: Any) -> str:
    """A value as JSON writes it, on one line and cut short: ``"w0!7"``, ``-5``, ``true``."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # pragma: no cover - every JSON value has a text
        text = repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


# -- writing -----------------------------------------------------------------------


def write_batsim_json(
    workload: Workload, path: str | os.PathLike[str], *, nb_res: int | None = None
) -> Path:
    """Write ``workload`` as a Batsim JSON workload (delay profiles); returns the path.

    ``nb_res`` is the machine size written (the number of Batsim resources); without
    it, the header's machine size, else the widest job's. ValueError for a workload
    Batsim could not run as it is: no jobs, a job of no size, a time that is negative
    or not finite, an estimate of 0 for a job that runs (Batsim has no walltime of
    0), or a machine narrower than a job. The module docstring says what is written.
    """
    jobs = workload.jobs
    if not jobs:
        raise ValueError(f"workload {workload.name!r}: no jobs to write")
    for job in jobs:
        _check_writable(workload.name, job)
    widest = max(job.size for job in jobs)
    if nb_res is not None:
        if isinstance(nb_res, bool) or not isinstance(nb_res, int) or nb_res < 1:
            raise ValueError(f"nb_res={nb_res!r}: a machine size is a whole number above 0")
        machine, given = nb_res, f"nb_res={nb_res}"
    elif workload.header.machine_size:
        machine = workload.header.machine_size
        given = f"the header's machine size, {machine},"
    else:
        machine, given = widest, ""
    if widest > machine:
        wide = next(job for job in jobs if job.size == widest)
        raise ValueError(
            f"workload {workload.name!r}: {given} is narrower than job {wide.id} "
            f"({widest} cores): Batsim would reject it (pass nb_res, or fit the jobs "
            "to the machine with schedsim.workloads.transforms.fit_machine)"
        )
    # Batsim's clock starts at 0: submit times count from the first, as the jobs CSV
    # of a run does (schedsim.app.batsim).
    origin = min(job.submit for job in jobs)
    profiles: dict[float, str] = {}
    lines = []
    for job in jobs:
        profile = profiles.setdefault(job.run_time, f"delay_{_seconds(job.run_time)}")
        entry: dict[str, Any] = {"id": str(job.id), "subtime": _seconds(job.submit - origin)}
        if job.estimate > 0:
            entry["walltime"] = _seconds(job.estimate)
        entry["res"] = int(job.size)
        entry["profile"] = profile
        lines.append(json.dumps(entry))
    # Profiles in order of their run times: the same workload gives the same bytes.
    described = [
        f"{json.dumps(name)}: {json.dumps({'type': 'delay', 'delay': _seconds(run)})}"
        for run, name in sorted(profiles.items())
    ]
    text = (
        f'{{\n  "nb_res": {int(machine)},\n  "jobs": [\n    '
        + ",\n    ".join(lines)
        + '\n  ],\n  "profiles": {\n    '
        + ",\n    ".join(described)
        + "\n  }\n}\n"
    )
    out = Path(path)
    out.write_text(text, encoding="utf-8", newline="\n")
    return out


def _check_writable(name: str, job: Job) -> None:
    """ValueError for a job the written file could not hold as it is."""
    if job.size < 1:
        raise ValueError(f"workload {name!r}: job {job.id} has size {job.size}, below 1")
    for field in ("submit", "run_time", "estimate"):
        value = getattr(job, field)
        if not math.isfinite(value) or (field != "submit" and value < 0):
            raise ValueError(f"workload {name!r}: job {job.id} has {field} {value}")
    if job.estimate == 0 and job.run_time > 0:
        raise ValueError(
            f"workload {name!r}: job {job.id} has estimate 0 and runs {job.run_time} s: "
            "Batsim has no walltime of 0 (-1 means no limit)"
        )


def _seconds(value: float) -> int | float:
    """A time as JSON writes it exactly: a whole number without ``.0``, else the float
    (Python writes the shortest text that reads back as the same float)."""
    value = float(value)
    return int(value) if value.is_integer() else value
