"""Workload transforms: pure functions ``Workload -> Workload``.

Each returns a new `Workload` and leaves its argument untouched. A transform
that drops or changes jobs appends one `CleaningStep` naming what it did and
how many jobs it touched (no step when it touched none), so the run summary
can say exactly how the simulated workload differs from the log
(DESIGN.md, "Bad input").

Steps are counted for the jobs simulated. A transform that changes jobs keeps
their ids in its step (`schedsim.workloads.workload.Members`); one that selects
jobs (`first`, `window`, `month`, `fit_machine` with ``mode="drop"``) counts
every earlier step again for the jobs it keeps (`Workload.select`): a changed
job while it is kept, a line the reader dropped while its place on the trace
clock lies within the selection's span (`window`'s ``[start, end)``; for
`first`, up to the last job kept, ties by job number; dropping wide jobs keeps
every such line). So ``first(w, 20000)`` on LANL-CM5 reports the 1,689 jobs of
the 20,000 whose estimate was missing, not the log's 11,287. `scale_load` moves
the dropped lines' places as it moves submit times. The selecting step itself
("dropped: after the first N") is not counted again by a later selection.

Times are trace seconds (SWF submit times, counted from the log's
``UnixStartTime``); no transform shifts the clock, so time of day and calendar
dates stay meaningful after windowing or selecting a month.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import operator
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Literal

import numpy as np

from schedsim.workloads.job import SWF_FIELDS, Job
from schedsim.workloads.streams import stream
from schedsim.workloads.workload import CleaningStep, Members, Workload

__all__ = [
    "choices",
    "exact_estimates",
    "first",
    "fit_machine",
    "month",
    "scale_load",
    "window",
    "with_attribute",
]

FitMode = Literal["error", "drop", "clamp"]
_MONTH_RE = re.compile(r"(\d{4})-(\d{2})")


def _count(value: int, what: str) -> int:
    """A non-negative integer argument (numpy integers accepted, bools and floats not)."""
    try:
        number = operator.index(value)
    except TypeError:
        number = -1
    if isinstance(value, bool) or number < 0:
        raise ValueError(f"{what} must be a non-negative integer, got {value!r}")
    return number


def _step(name: str, ids: Sequence[int], detail: str = "") -> CleaningStep:
    """A step about the jobs ``ids`` (changed, still in the workload): it keeps them,
    so that a later selection counts it again (module docstring)."""
    return CleaningStep.of(name, Members(detail, len(ids), ids=tuple(ids)))


def scale_load(w: Workload, factor: float) -> Workload:
    """Scale the offered load by dividing every inter-arrival time by ``factor``.

    This is how seeds 000 (section 4.2, "dividing the arrival times ... by
    suitable constants") and 001 (scaling interarrival times) vary the load
    while keeping each job's size, run time and estimate, and the arrival
    order: new submit = t0 + (submit - t0) / factor, with t0 the first submit
    time. Keeping t0 (rather than dividing it too) leaves the trace's calendar
    start in place; the gaps are the same either way. ``factor`` > 1 raises the
    load. The change is recorded as a step counting the jobs whose submit time
    moved.
    """
    ok = isinstance(factor, numbers.Real) and not isinstance(factor, bool)
    f = float(factor) if ok else math.nan
    if not (math.isfinite(f) and f > 0):
        raise ValueError(f"load factor must be a positive finite number, got {factor!r}")
    if not w.jobs:
        return w
    t0 = w.jobs[0].submit

    def clock(t: float) -> float:
        return t0 + (t - t0) / f

    jobs = [dataclasses.replace(j, submit=clock(j.submit)) for j in w.jobs]
    moved = [new.id for old, new in zip(w.jobs, jobs, strict=True) if new.submit != old.submit]
    step = _step("load scaled", moved, f"inter-arrival times divided by {f:g}") if moved else None
    # The lines the reader dropped keep their places among the jobs.
    cleaning = tuple(c.retimed(clock) for c in w.cleaning) + ((step,) if step else ())
    return dataclasses.replace(w, jobs=tuple(jobs), cleaning=cleaning)


def fit_machine(
    w: Workload, cores: int, mode: FitMode = "error", *, origin: str | None = None
) -> Workload:
    """Deal with jobs wider than a machine of ``cores`` cores.

    Such a job can never start, so by default (``mode="error"``) it is a
    `ValueError` naming how many there are and the first one (in submit order);
    the user must choose explicitly to ``"drop"`` them or to ``"clamp"`` their
    size to ``cores`` (run time unchanged), and either choice is counted.

    The error names the first wide job's line in the file the workload was read
    from, and the SWF field its size comes from (8, requested processors, when
    above 0, else 5, allocated processors: DESIGN.md "Job size"), when the file
    still holds it (`schedsim.workloads.swf.source_lines`): ``log.swf:3: field 8
    (requested_processors): 1 job of workload 'log' is wider than ...``.
    ``origin`` says where the machine's size comes from when it is the workload's
    own (``"come from the header's MaxProcs: 64 (log.swf:2)"``): the header may be
    what is wrong, and the error then says so and how to give the real size.
    """
    cores = _count(cores, "cores")
    if cores == 0:
        raise ValueError("cores must be positive, got 0")
    if mode not in ("error", "drop", "clamp"):
        raise ValueError(f"mode must be 'error', 'drop' or 'clamp', got {mode!r}")
    wide = [j for j in w.jobs if j.size > cores]
    if not wide:
        return w
    if mode == "error":
        raise _too_wide(w, wide, cores, origin)
    detail = f"size > {cores} cores"
    if mode == "drop":
        jobs = [j for j in w.jobs if j.size <= cores]
        # No span of time: the lines the reader dropped all stay (inside=None).
        return w.select(jobs, CleaningStep("dropped: wider than machine", len(wide), detail))
    jobs = [dataclasses.replace(j, size=cores) if j.size > cores else j for j in w.jobs]
    return w.with_jobs(jobs, _step(f"clamped: size to {cores}", [j.id for j in wide], detail))


def _too_wide(w: Workload, wide: list[Job], cores: int, origin: str | None) -> ValueError:
    """The error of `fit_machine` for the jobs ``wide`` (see there)."""
    from schedsim.workloads.swf import REQ_PROCS, SWFError, size_field, source_lines

    job = wide[0]
    field = None
    if job.swf is not None:
        field = size_field(job.swf)
        if job.swf[field] != job.size:
            field = None  # a transform set the size: no field holds it
    line, _ = source_lines(w.source, job=job) if field is not None else (None, {})
    these = f"{len(wide)} jobs of workload {w.name!r} are"
    if len(wide) == 1:
        these = f"1 job of workload {w.name!r} is"
    size = f"size {job.size}"
    if field is not None and w.source is None:
        # No file to name before the message: the field goes inside it.
        name = "requested" if field == REQ_PROCS else "allocated"
        size += f" from SWF field {field + 1}, {name} processors"
    where = f", which {origin}" if origin else ""
    reason = (
        f"{these} wider than the machine's {cores} cores (first: job {job.id} with {size})"
        f"{where}; drop or clamp them (mode='drop' or 'clamp'; on the command line "
        "--wide drop|clamp)"
    )
    if origin:
        reason += ", or give the machine's real size (nodes=; --nodes) if the header is wrong"
    if field is None or w.source is None:
        return ValueError(reason)
    return SWFError(w.source, line, SWF_FIELDS[field], reason)


def _window(w: Workload, start: float | None, end: float | None, name: str) -> Workload:
    kept = [
        j
        for j in w.jobs
        if (start is None or j.submit >= start) and (end is None or j.submit < end)
    ]
    dropped = len(w.jobs) - len(kept)
    if not dropped:
        return w
    lo = "-inf" if start is None else f"{start:g}"
    hi = "inf" if end is None else f"{end:g}"

    def inside(at: float, number: int) -> bool:
        return (start is None or at >= start) and (end is None or at < end)

    step = CleaningStep(name, dropped, f"submit outside [{lo}, {hi}) s")
    return w.select(kept, step, inside=inside)


def window(w: Workload, start: float | None = None, end: float | None = None) -> Workload:
    """Keep the jobs submitted in ``[start, end)`` (trace seconds; None = unbounded).

    Half-open so that consecutive windows partition a trace. The clock is not
    shifted: the simulation still starts at the first kept submit, with the
    log's calendar intact.
    """
    if start is not None and end is not None and start > end:
        raise ValueError(f"window start {start} is after its end {end}")
    return _window(w, start, end, "dropped: outside window")


def month(w: Workload, yyyy_mm: str) -> Workload:
    """Keep the jobs submitted in one calendar month of the log's local time.

    Seed 004 simulates monthly slices of the CTC log; a month is taken in the
    log's own time zone (`Header.tz`, e.g. US/Eastern for CTC, with its
    daylight saving), from local midnight on the 1st to local midnight on the
    1st of the next month. Needs the header's UnixStartTime, without which
    trace seconds have no date.
    """
    m = _MONTH_RE.fullmatch(yyyy_mm.strip()) if isinstance(yyyy_mm, str) else None
    if m is None or not 1 <= int(m.group(2)) <= 12:
        raise ValueError(f"month must be given as 'YYYY-MM' (e.g. '1996-07'), got {yyyy_mm!r}")
    if w.header.unix_start_time is None:
        raise ValueError(
            f"workload {w.name!r} has no UnixStartTime in its header, "
            "so its trace times have no calendar date"
        )
    year, mon = int(m.group(1)), int(m.group(2))
    tz = w.header.tz()
    begin = datetime(year, mon, 1, tzinfo=tz)
    after = datetime(year + mon // 12, mon % 12 + 1, 1, tzinfo=tz)
    start = w.header.to_trace_time(begin)
    end = w.header.to_trace_time(after)
    return _window(w, start, end, f"dropped: outside {year:04d}-{mon:02d}")


def first(w: Workload, n: int) -> Workload:
    """Keep the first ``n`` jobs in submit order (for quick runs and tests)."""
    n = _count(n, "n")
    if n >= len(w.jobs):
        return w
    return _first(w, w.jobs[:n], len(w.jobs) - n)


def _first(w: Workload, jobs: Sequence[Job], dropped: int) -> Workload:
    """``w`` with only ``jobs``, the first of its own in its order, ``dropped`` more
    having followed them: `first`'s selection, which the SWF reader makes too when it
    is asked for the first jobs only (`schedsim.workloads.swf.read_swf`)."""
    n = len(jobs)
    # The span is everything up to the n-th job, in the workload's order (submit, id).
    last = (jobs[n - 1].submit, jobs[n - 1].id) if n else None

    def inside(at: float, number: int) -> bool:
        return last is not None and (at, number) <= last

    step = CleaningStep(f"dropped: after the first {n}", dropped)
    return w.select(jobs, step, inside=inside)


def exact_estimates(w: Workload) -> Workload:
    """Set every job's estimate to its run time (perfectly accurate users).

    The baseline against which the effect of inaccurate estimates is measured
    (seeds 000, 001). Counts the jobs whose estimate changed.
    """
    changed = [j.id for j in w.jobs if j.estimate != j.run_time]
    if not changed:
        return w
    jobs = [
        dataclasses.replace(j, estimate=j.run_time) if j.estimate != j.run_time else j
        for j in w.jobs
    ]
    return w.with_jobs(jobs, _step("exact estimates: estimate = run time", changed))


#: Attributes that are fields of the job record (and of SWF: fields 15 and 16).
SWF_ATTRIBUTES: tuple[str, ...] = ("queue", "partition")

#: Draws ``n`` values from a random generator (`with_attribute`'s ``draw``). (The
#: generator is named, so that importing the module does not import numpy.random.)
Draw = Callable[["np.random.Generator", int], Sequence[Any]]


def choices(options: Sequence[Any], p: Sequence[float] | None = None) -> Draw:
    """A ``draw`` for `with_attribute`: each job one of ``options``, with probabilities ``p``.

    For example the 75% local (high priority) and 25% external jobs of seed
    001: ``choices(["high", "low"], p=[0.75, 0.25])``.
    """
    opts = list(options)
    if not opts:
        raise ValueError("choices needs at least one option")
    if p is not None:
        probs = np.asarray(p, dtype=float)
        if probs.shape != (len(opts),) or (probs < 0).any() or not np.isclose(probs.sum(), 1):
            raise ValueError(f"p must be {len(opts)} probabilities summing to 1, got {list(p)}")

    def draw(rng: np.random.Generator, n: int) -> list[Any]:
        picks = rng.choice(len(opts), size=n, p=None if p is None else probs)
        return [opts[k] for k in picks.tolist()]

    return draw


def with_attribute(
    w: Workload,
    name: str,
    values: Any = None,
    *,
    draw: Draw | None = None,
    seed: int | None = None,
    stream_name: str | None = None,
) -> Workload:
    """Every job with the attribute ``name`` set (``Job.attrs``; a job table column).

    Give either ``values`` (one value for every job, a sequence with one value
    per job in submit order, or a function ``job -> value``) or ``draw``, a
    function ``(rng, n) -> n values`` called once with the named random
    stream ``stream_name`` (default ``"attributes/NAME"``) of ``seed``
    (`schedsim.workloads.streams`): the same seed gives the same values, and
    the draws do not depend on any other component's. ``queue`` and
    ``partition`` are the job's SWF fields (whole numbers), so they survive an
    SWF round trip; every attribute survives a Parquet one
    (`schedsim.workloads.parquet`). Recorded as one cleaning step.
    """
    if not name or not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"an attribute name must be an identifier, got {name!r}")
    n = len(w.jobs)
    if (values is None) == (draw is None):
        raise ValueError("with_attribute needs exactly one of values= and draw=")
    if draw is not None:
        if seed is None:
            raise ValueError("with_attribute(draw=...) needs the seed of its random stream")
        key = stream_name or f"attributes/{name}"
        drawn = list(draw(stream(seed, key), n))
        how = f"drawn from stream {key!r} of seed {seed}"
    elif callable(values):
        drawn = [values(job) for job in w.jobs]
        how = "computed per job"
    elif isinstance(values, (list, tuple, np.ndarray)):
        drawn = list(values)
        how = "given per job"
    else:
        drawn = [values] * n
        how = f"{values!r} for every job"
    if len(drawn) != n:
        raise ValueError(f"attribute {name!r}: {len(drawn)} values for {n} jobs")
    jobs = [_with(job, name, value) for job, value in zip(w.jobs, drawn, strict=True)]
    return w.with_jobs(jobs, _step(f"attribute {name}: {how}", [j.id for j in jobs]))


def _with(job: Job, name: str, value: Any) -> Job:
    if isinstance(value, np.generic):
        value = value.item()  # plain Python values: they print, compare and pickle plainly
    if name in SWF_ATTRIBUTES:
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise ValueError(f"job {job.id}: {name} is an SWF field, a whole number; got {value!r}")
        if name == "queue":
            return dataclasses.replace(job, queue=int(value))
        return dataclasses.replace(job, partition=int(value))
    return dataclasses.replace(job, attrs={**job.attrs, name: value})


def with_priorities(w: Workload, high: float, seed: int) -> Workload:
    """Mark a share ``high`` of the jobs, at random, high priority; the rest low.

    Lawson and Smirni (seed 001, section 3.3) "select at random 75% of the jobs
    from the trace to be high priority jobs" (and 95%): local users' jobs
    against those from elsewhere in a grid. Each job draws independently
    (probability ``high``) from the seed's stream ``"priorities"``, so the
    share is ``high`` on average; the attribute ``priority`` is ``"high"`` or
    ``"low"`` (read by `schedsim.policies.multiqueue`).
    """
    if not 0.0 <= high <= 1.0:
        raise ValueError(f"the high-priority share must be in [0, 1], got {high}")
    return with_attribute(
        w,
        "priority",
        draw=lambda rng, n: np.where(rng.random(n) < high, "high", "low").tolist(),
        seed=seed,
        stream_name="priorities",
    )


def with_reservations(w: Workload, share: float, seed: int, max_lead: float = 7200.0) -> Workload:
    """Give a share ``share`` of the jobs, at random, a requested reservation time.

    Seed 001 (section 3.4) has 1%, 5% and 25% of the jobs request
    reservations but does not say when they ask to start. Here a job chosen
    (each independently, probability ``share``, from the seed's stream
    ``"reservations"``) asks to start at its submit time plus a lead time
    drawn uniformly from ``[0, max_lead]`` seconds, in whole seconds (2 h by default: a user
    books the machine for later the same session), from the same stream. The
    attribute ``reservation`` holds that clock time (NaN for the other jobs),
    read by `schedsim.policies.multiqueue`, which grants the earliest feasible
    time at or after it.
    """
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"the reservation share must be in [0, 1], got {share}")
    if not (max_lead >= 0 and math.isfinite(max_lead)):
        raise ValueError(f"max_lead must be a number of seconds >= 0, got {max_lead}")
    submits = np.array([j.submit for j in w.jobs], dtype=float)

    def draw(rng: np.random.Generator, n: int) -> list[float]:
        chosen = rng.random(n) < share
        lead = np.floor(rng.uniform(0.0, max_lead, n))  # whole seconds, as traces count
        return np.where(chosen, submits + lead, np.nan).tolist()

    return with_attribute(w, "reservation", draw=draw, seed=seed, stream_name="reservations")
