"""A workload: an ordered list of jobs with the header facts of its log.

Transforms (`schedsim.workloads.transforms`) take a `Workload` and return a new one;
nothing here is mutated in place. Every cleaning step that drops or changes
jobs appends a `CleaningStep` to ``cleaning`` so that a run summary can say
what was done to the trace and how many jobs it touched.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from schedsim.workloads.job import Job


@dataclass(frozen=True, slots=True)
class CleaningStep:
    """One explicit change to a workload: what, and how many jobs it touched."""

    name: str
    count: int
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.name}: {self.count} jobs" + (f" ({self.detail})" if self.detail else "")


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

    @classmethod
    def from_jobs(cls, jobs: Sequence[Job], name: str = "workload", **header: object) -> Workload:
        """A workload from hand-built jobs (tests, examples, synthetic models)."""
        return cls(tuple(jobs), Header(**header), name=name)  # type: ignore[arg-type]
