"""A workload: an ordered list of jobs with the header facts of its log.

Transforms (`schedsim.workloads.transforms`) take a `Workload` and return a new one;
nothing here is mutated in place. Every cleaning step that drops or changes
jobs appends a `CleaningStep` to ``cleaning`` so that a run summary can say
what was done to the trace and how many jobs it touched. A step that keeps its
`Members` (which jobs, or which dropped log lines) is counted again when the
jobs are selected (`Workload.select`), so the summary of a slice of a log counts
what happened to that slice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timedelta, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from schedsim.workloads.job import Job

#: How many line numbers (and distinct values) a step's detail names before "...".
SHOWN = 3

#: ``inside(at, number)``: whether a dropped log line, placed at trace time ``at`` with
#: SWF job number ``number``, lies within a selection of jobs (`Workload.select`).
Inside = Callable[[float, int], bool]


@dataclass(frozen=True, slots=True)
class Members:
    """Whom a `CleaningStep` concerns, so that it can be counted again after a selection.

    A step about jobs that are in the workload (an estimate filled in, an unusual
    value set to missing, a transform's change) keeps their ``ids``. A step about log
    lines that were dropped keeps, for each line, its place on the trace clock
    (``at``: its submit time; `schedsim.workloads.swf` says where a line without one
    stands) and its SWF job number (``numbers``, for ties, as `Workload` orders
    jobs). ``lines`` are the SWF line numbers, parallel to ``ids`` or ``at`` (empty
    for steps made by transforms); ``values`` the value each line held, when the
    detail names values. ``what`` is the detail's text before the line numbers and
    ``total`` the count when the step was made, so that a recounted step says how
    many there were ``before``: ``"in the whole log"`` for the reader's steps.
    """

    what: str
    total: int
    ids: tuple[int, ...] | None = None
    lines: tuple[int, ...] = ()
    at: tuple[float, ...] | None = None
    numbers: tuple[int, ...] | None = None
    values: tuple[float, ...] | None = None
    before: str = "before the selection"

    @property
    def count(self) -> int:
        """How many jobs (or lines) the step concerns now."""
        if self.ids is not None:
            return len(self.ids)
        if self.at is not None:
            return len(self.at)
        return len(self.lines)

    def detail(self) -> str:
        """``what`` and the first few line numbers (per value, when there are values),
        and once recounted, how many there were in all: ``status -4 on lines 17218,
        17219, 17220``, ``requested time -1 or 0 on lines 12, 40, 41, ...; 11287 in the
        whole log``."""
        n = self.count
        if n == 0:
            lead = f"{self.what}: " if self.what else ""
            return f"{lead}none in this selection; {self.total} {self.before}"
        if not self.lines:
            text = self.what
        elif self.values is None:
            text = f"{self.what} on {_line_list(self.lines)}"
        else:
            groups: dict[float, list[int]] = {}
            for line, value in zip(self.lines, self.values, strict=True):
                groups.setdefault(value, []).append(line)
            shown = list(groups.items())[:SHOWN]
            text = f"{self.what} " + "; ".join(
                f"{_number(v)} on {_line_list(ls)}" for v, ls in shown
            )
            if len(groups) > SHOWN:
                text += "; ..."
        if n == self.total:
            return text
        return "; ".join(part for part in (text, f"{self.total} {self.before}") if part)

    def restricted(self, ids: Collection[int], inside: Inside | None) -> Members | None:
        """The members within a selection (`Workload.select`); None when all of them are.

        Jobs are kept by id; dropped lines by ``inside`` (all of them without it)."""
        if self.ids is not None:
            keep = [k for k, i in enumerate(self.ids) if i in ids]
        elif self.at is not None and inside is not None:
            numbers = self.numbers if self.numbers is not None else (-1,) * len(self.at)
            keep = [k for k, tn in enumerate(zip(self.at, numbers, strict=True)) if inside(*tn)]
        else:
            return None
        if len(keep) == self.count:
            return None

        def pick(column: tuple[Any, ...] | None) -> Any:
            return None if column is None else tuple(column[k] for k in keep)

        return Members(
            self.what,
            self.total,
            ids=pick(self.ids),
            lines=pick(self.lines) if self.lines else (),
            at=pick(self.at),
            numbers=pick(self.numbers),
            values=pick(self.values),
            before=self.before,
        )

    def retimed(self, clock: Callable[[float], float]) -> Members:
        """The same members with the dropped lines' places moved by ``clock`` (a
        transform that moves submit times moves them the same way)."""
        if self.at is None:
            return self
        return replace(self, at=tuple(clock(t) for t in self.at))


def _line_list(lines: Sequence[int]) -> str:
    shown = ", ".join(str(n) for n in lines[:SHOWN])
    return (
        f"line {shown}"
        if len(lines) == 1
        else f"lines {shown}" + (", ..." if len(lines) > SHOWN else "")
    )


def _number(value: float) -> str:
    """A value as SWF writes it: whole numbers without decimals."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


@dataclass(frozen=True, slots=True)
class CleaningStep:
    """One explicit change to a workload: what, and how many jobs it touched.

    ``members``, when known, says which jobs (or dropped log lines) the step
    concerns, so that a selection of the workload's jobs (`Workload.select`: the
    first N, a window, a month, dropping wide jobs) counts it again for the jobs
    it keeps; `of` makes a step whose count and detail come from its members. It
    is bookkeeping behind the count: two steps that say the same are equal.
    """

    name: str
    count: int
    detail: str = ""
    members: Members | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.name}: {self.count} jobs" + (f" ({self.detail})" if self.detail else "")

    @classmethod
    def of(cls, name: str, members: Members) -> CleaningStep:
        """A step counted and described by its members."""
        return cls(name, members.count, members.detail(), members)

    def restricted(self, ids: Collection[int], inside: Inside | None = None) -> CleaningStep:
        """This step counted again for a selection (see `Members.restricted`); itself
        when it keeps no members or all of them stay."""
        if self.members is None:
            return self
        kept = self.members.restricted(ids, inside)
        return self if kept is None else CleaningStep.of(self.name, kept)

    def retimed(self, clock: Callable[[float], float]) -> CleaningStep:
        """The same step with its dropped lines' places moved by ``clock``."""
        if self.members is None or self.members.at is None:
            return self
        return replace(self, members=self.members.retimed(clock))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values (`from_dict` reads them back)."""
        out: dict[str, Any] = {"name": self.name, "count": self.count, "detail": self.detail}
        if self.members is not None:
            out["members"] = {
                k: list(v) if isinstance(v, tuple) else v
                for k, v in asdict(self.members).items()
                if v is not None
            }
        return out

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> CleaningStep:
        """A step from `to_dict`'s values (or from ones without members)."""
        m = values.get("members")
        members = None
        if m is not None:
            columns: dict[str, Any] = {
                k: tuple(v) if isinstance(v, list) else v for k, v in m.items()
            }
            members = Members(**columns)
        return cls(
            str(values["name"]), int(values["count"]), str(values.get("detail", "")), members
        )


@dataclass(frozen=True)
class Header:
    """The header comments of an SWF log that the simulator uses.

    ``fields`` keeps every ``; Key: value`` line (the first value of a
    repeated key), ``lines`` the raw comment lines, so that nothing is lost.
    """

    max_nodes: int | None = None
    max_procs: int | None = None
    unix_start_time: int | None = None
    time_zone_string: str | None = None
    time_zone: int | None = None
    fields: dict[str, str] = field(default_factory=dict)
    lines: tuple[str, ...] = ()

    @property
    def machine_size(self) -> int | None:
        """Default machine size: MaxProcs, else MaxNodes (issue 2, item 5)."""
        return self.max_procs if self.max_procs else self.max_nodes

    def tz(self) -> tzinfo:
        """The log's time zone: TimeZoneString, else the TimeZone offset, else UTC."""
        if self.time_zone_string:
            try:
                return ZoneInfo(self.time_zone_string.strip())
            except (ZoneInfoNotFoundError, ValueError):
                pass
        if self.time_zone is not None:
            return timezone(timedelta(seconds=self.time_zone))
        return timezone.utc

    def to_datetime(self, t: float) -> datetime:
        """Local wall-clock time of trace time ``t`` (needs UnixStartTime)."""
        start = self.unix_start_time or 0
        return datetime.fromtimestamp(start + t, tz=self.tz())

    def to_trace_time(self, when: datetime) -> float:
        """Trace time (seconds since UnixStartTime) of an aware or local datetime."""
        if when.tzinfo is None:
            when = when.replace(tzinfo=self.tz())
        return when.timestamp() - (self.unix_start_time or 0)


@dataclass(frozen=True)
class Workload(Sequence[Job]):
    """Jobs in submit order (ties by job id), plus header and provenance."""

    jobs: tuple[Job, ...]
    header: Header = field(default_factory=Header)
    name: str = "workload"
    source: str | None = None
    cleaning: tuple[CleaningStep, ...] = ()

    def __post_init__(self) -> None:
        jobs = tuple(sorted(self.jobs, key=lambda j: (j.submit, j.id)))
        object.__setattr__(self, "jobs", jobs)
        if len({j.id for j in jobs}) != len(jobs):
            dups = sorted(i for i, n in Counter(j.id for j in jobs).items() if n > 1)
            raise ValueError(f"workload {self.name!r}: job ids appear more than once: {dups[:10]}")

    @classmethod
    def _ordered(
        cls,
        jobs: tuple[Job, ...],
        header: Header,
        *,
        name: str,
        source: str | None,
        cleaning: tuple[CleaningStep, ...],
    ) -> Workload:
        """A workload of ``jobs`` as given, without the sort and the duplicate check:
        for the SWF reader only, which has put them in submit order (ties by id) and
        refused repeated job numbers with numpy, so that the 77,222 jobs of the CTC log
        are not sorted and counted again in Python (7% of the reader's time).
        Everything else (`replace`, `with_jobs`, `select`) goes through the checks."""
        values: dict[str, object] = {
            "jobs": jobs,
            "header": header,
            "name": name,
            "source": source,
            "cleaning": cleaning,
        }
        workload = object.__new__(cls)
        for key in cls.__dataclass_fields__:
            # A field added to Workload and not given here is a KeyError, not a gap.
            object.__setattr__(workload, key, values[key])
        return workload

    def __len__(self) -> int:
        return len(self.jobs)

    def __iter__(self) -> Iterator[Job]:
        return iter(self.jobs)

    def __getitem__(self, i):
        return self.jobs[i]

    def attribute_names(self) -> set[str]:
        """The names of the attributes any job carries (``Job.attrs``)."""
        names: set[str] = set()
        for job in self.jobs:
            if job.attrs:
                names.update(job.attrs)
        return names

    def with_jobs(self, jobs: Sequence[Job], step: CleaningStep | None = None) -> Workload:
        """A copy with other jobs and, if given, one more cleaning step."""
        cleaning = self.cleaning + ((step,) if step is not None else ())
        return replace(self, jobs=tuple(jobs), cleaning=cleaning)

    def select(
        self,
        jobs: Sequence[Job],
        step: CleaningStep | None = None,
        *,
        inside: Inside | None = None,
    ) -> Workload:
        """A copy with a selection of its jobs, every cleaning step counted again for
        them, and, if given, the step that says how they were selected.

        A step that knows its members (`CleaningStep.members`) keeps the jobs among
        ``jobs``, and the dropped log lines for which ``inside(at, number)`` holds
        (all of them without ``inside``: a selection that is no span of time, such as
        dropping wide jobs). So after ``first(w, 20000)`` the summary says how many of
        the 20,000 had a missing estimate, not how many in the whole log; a step that
        now counts none stays, saying so (``none in this selection; 35 in the whole
        log``). Steps without members (made elsewhere, or read from an older file) stay
        as they are.
        """
        kept = {j.id for j in jobs}
        cleaning = tuple(s.restricted(kept, inside) for s in self.cleaning)
        cleaning += (step,) if step is not None else ()
        return replace(self, jobs=tuple(jobs), cleaning=cleaning)

    @classmethod
    def from_jobs(cls, jobs: Sequence[Job], name: str = "workload", **header: object) -> Workload:
        """A workload from hand-built jobs (tests, examples, synthetic models)."""
        return cls(tuple(jobs), Header(**header), name=name)  # type: ignore[arg-type]
