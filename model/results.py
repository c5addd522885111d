"""Results of one run: per-job records, the system time series, and summaries.

The simulation leaves tables and a metadata dict (DESIGN.md, "Results"):
every summary below is computed from them, vectorised, never tallied by hand
inside the model.

``jobs`` (one row per job)
    ``id, submit, start, end, run, wait, estimate, work, size, nodes, outcome,
    suspensions, suspended_time, overhead_time, requeues, lost_work, lost_run,
    attempts, user`` (`SIMULATED_COLUMNS`), then ``queue`` and ``partition``
    when the workload gives them (SWF fields 15 and 16), one column per job
    attribute (``Job.attrs``: a priority class, a reservation time...) and,
    for a closed-loop run, ``session``. ``start`` is the first start; ``run`` is
    the wall-clock time the attempt that counts actually ran (it exceeds
    ``work`` under contention and stops at the limit for a killed job);
    ``wait = end - submit - run`` is all time not running that attempt:
    queued, suspended, overhead (``overhead_time``) and attempts lost to
    requeues (``lost_run``; their work is ``lost_work``, their number
    ``attempts - 1``), so ``wait`` is seed 001's delay d (response time less
    service time), as a user sees it. ``nodes`` are the nodes of the last
    attempt, in procset's interval syntax (``"0-3 7"``); every attempt's
    are in ``pieces``. ``outcome`` is ``completed``, ``killed_at_limit`` or
    ``killed`` (``unfinished`` in a partial result).
``pieces`` (one row per piece of a job's life; `schedsim.model.pieces`)
    ``job, attempt, kind, start, end, nodes, cores, size, rate``, kind being
    ``run``, ``overhead``, ``suspended`` or ``lost``. None when the run kept
    no piece log.
``decisions`` (one row per decision of a policy, when the run logged them)
    ``pass, time, decision, job, nodes, limit, on_limit, penalty, rate, wake``.
``tables`` (the policy's own tables, `schedsim.model.policy.Policy.tables`, by name)
    Whatever the policy kept over time (a multiple-queue policy: processors per
    partition); saved as ``policy-NAME.parquet``.
``reservations`` (one row per reservation a policy held after a pass, when the
    run logged them; `schedsim.model.policy.Reservation`)
    ``pass, time, job, kind, start, end, size, nodes`` (``nodes`` empty when the
    policy promised cores, not which).
``series`` (a step function)
    ``time, busy_cores, busy_nodes, queued, running, suspended``. Each row holds
    from its ``time`` until the next row's; the last row holds until
    ``meta["end"]``. Rows may share a time; the last of them is what held
    afterwards (the others last zero seconds). Before the first row the system
    counts as empty (zero).
``meta``
    At least ``total_cores``, ``start`` (the first submit) and ``end`` (the
    last event; the clock, in a partial result, ``partial`` being True); the
    rest (policy, workload, seed, cleaning, schedsim version, ...) is carried
    into ``summary.json``.

Per-job metrics (added to ``jobs`` by :func:`derive`)
-----------------------------------------------------
``turnaround`` = end - submit
    The response time of seed 000 (section 2.2) and the flow time of seed 004
    (section 3: "completion time - submission time").
``bounded_slowdown`` = (wait + max(run, 10)) / max(run, 10)
    Seed 000, section 2.2; the 10 s threshold (:data:`BSLD_THRESHOLD`) keeps
    very short jobs from dominating the mean.
``slowdown`` = (wait + run) / run
    The unbounded slowdown; NaN for a job that ran 0 s.
``xfactor`` = (wait + estimate) / estimate
    Seed 000, section 2.2, the suspension criterion of SS/TSS; NaN when the
    estimate is not positive.
``runtime_class``, ``size_class``, ``category``
    The 16 categories of seed 000, Table 2.1: run time VS 0-10 min, S 10 min-1 h,
    L 1-8 h, VL > 8 h; processors Seq 1, N 2-8, W 9-32, VW > 32. Labels are
    ``"VS Seq"`` ... ``"VL VW"``. Boundaries: the paper's Table 4.1 writes the
    same split as "<= 1 Hr" / "> 1 Hr" and "<= 8 Processors" / "> 8", so every
    upper bound is *inclusive*: run <= 600 s is VS, 600 < run <= 3600 is S,
    3600 < run <= 28800 is L, run > 28800 is VL; a job of exactly 8 processors
    is N and of 32 is W. A run of 0 s is VS. Jobs are classified by their
    simulated actual run time ``run``, as the paper classifies by "actual run
    time" (chapter 4 intro). Missing or negative run times and sizes below 1
    get no class (NaN).
``category4``
    The four load-variation categories of seed 000, Table 4.1: S/L split at
    1 h (<= 3600 s is S), N/W split at 8 processors (<= 8 is N): ``"SN"``,
    ``"SW"``, ``"LN"``, ``"LW"``.
``estimate_quality``
    Seed 000, chapter 4 intro: ``"well"`` if the estimate is not more than
    twice the actual run time (estimate <= 2 x run, so exactly 2x is well),
    else ``"poor"``.

All class columns are ordered pandas Categoricals in the paper's order, so
tables come out with the paper's rows and columns.

System metrics
--------------
utilization
    Time-weighted busy cores / total cores over a window (the "overall system
    utilization" of seed 000, Figure 4.9), integrating the step function
    exactly.
mean queue length
    Time-weighted mean of ``queued`` over the same window.
throughput
    Jobs that left the system (any outcome) with ``end`` inside the closed
    window, per day of window.
makespan
    Seed 004, section 3: m_S = max_i t_i, the completion time of the last job.
    Completion times t_i are measured from ``meta["start"]`` (the first submit),
    the clock origin of a trace replay, so m_S is the length of the schedule.
weighted completion / flow time
    Seed 004, section 3: c_S = sum_i w_i t_i and sum_i w_i (t_i - s_i), with
    the weight of Definition 3.1, w_i = (cores assigned) x (execution time) =
    ``size * run``: the resources the job consumed. t_i is measured from
    ``meta["start"]`` as for the makespan; the flow-time sum does not depend
    on the origin.

Warm-up and cool-down
---------------------
``warmup``/``cooldown`` drop jobs from the start/end of the submit order (an
int: that many jobs; a float in (0, 1): that fraction of them, rounded down).
Job-based statistics use the kept jobs only. System-level statistics
(utilization, queue length, throughput) use a window whose start is the first
kept job's submit if any job was dropped by ``warmup`` (else ``meta["start"]``)
and whose end is the last kept job's submit if any job was dropped by
``cooldown`` (else ``meta["end"]``): each side is trimmed only when asked, so a
warm-up alone does not also cut the final drain of the queue.
"""

from __future__ import annotations

import json
import math
import numbers
import re
import sys
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from schedsim.model import categories
from schedsim.model.categories import (
    CATEGORIES,
    CATEGORIES4,
    ESTIMATE_QUALITIES,
    RUNTIME_CLASSES,
    RUNTIME_EDGES,
    SIZE_CLASSES,
    SIZE_EDGES,
    categorical,
    category_codes,
    classify,
    quality_codes,
)
from schedsim.model.columns import Coded, Columns
from schedsim.model.sessions import closed_loop_summary
from schedsim.model.tablefile import write_csv

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "BSLD_THRESHOLD",
    "JOB_COLUMNS",
    "SERIES_COLUMNS",
    "SIMULATED_COLUMNS",
    "Result",
    "compare",
    "derive",
    "json_safe",
    "reserved_columns",
]

#: Seconds: the bounded-slowdown threshold of seed 000, section 2.2.
BSLD_THRESHOLD: float = 10.0

#: Columns the simulation must provide in ``jobs`` and ``series``.
JOB_COLUMNS: tuple[str, ...] = (
    "id", "submit", "start", "end", "run", "wait", "estimate", "work", "size",
    "nodes", "outcome", "suspensions", "suspended_time", "user",
)  # fmt: skip
#: Every column the simulation writes in ``jobs`` before the jobs' attributes, in order.
SIMULATED_COLUMNS: tuple[str, ...] = (
    "id", "submit", "start", "end", "run", "wait", "estimate", "work", "size",
    "nodes", "outcome", "suspensions", "suspended_time", "overhead_time", "requeues",
    "lost_work", "lost_run", "attempts", "user",
)  # fmt: skip
#: Columns `derive` adds.
DERIVED_COLUMNS: tuple[str, ...] = (
    "turnaround", "bounded_slowdown", "slowdown", "xfactor", "runtime_class",
    "size_class", "category", "category4", "estimate_quality",
)  # fmt: skip
SERIES_COLUMNS: tuple[str, ...] = (
    "time", "busy_cores", "busy_nodes", "queued", "running", "suspended",
)  # fmt: skip
_META_KEYS: tuple[str, ...] = ("total_cores", "start", "end")

_DAY = 86400.0
_PERCENTILE = re.compile(r"^p(\d+(?:\.\d+)?)$")

#: An aggregation: a name (``"mean"``, ``"p95"``...) or a callable on a pandas Series.
Stat = str | Callable[..., Any]


# --------------------------------------------------------------------------- #
# Per-job derived columns
# --------------------------------------------------------------------------- #


def reserved_columns() -> set[str]:
    """Names a job attribute may not take: they are columns of every job table."""
    return {*SIMULATED_COLUMNS, *DERIVED_COLUMNS, "session", "queue", "partition", "failures",
            "memory_per_core_mb"}  # fmt: skip


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den, NaN where den is not positive (no division warnings)."""
    out = np.full(num.shape, np.nan)
    ok = den > 0
    with np.errstate(over="ignore"):  # a tiny positive denominator gives inf, not a warning
        np.divide(num, den, out=out, where=ok)
    return out


def _derived(jobs: pd.DataFrame | Columns) -> dict[str, np.ndarray | Coded]:
    """The columns `derive` adds, categories as `Coded` (module docstring)."""
    missing = [c for c in ("submit", "end", "run", "wait", "estimate", "size") if c not in jobs]
    if missing:
        raise ValueError(f"jobs lacks columns {missing}")
    submit = np.asarray(jobs["submit"], dtype=float)
    end = np.asarray(jobs["end"], dtype=float)
    run = np.asarray(jobs["run"], dtype=float)
    wait = np.asarray(jobs["wait"], dtype=float)
    estimate = np.asarray(jobs["estimate"], dtype=float)
    size = np.asarray(jobs["size"], dtype=float)

    bounded = np.maximum(run, BSLD_THRESHOLD)
    return {
        "turnaround": end - submit,
        "bounded_slowdown": (wait + bounded) / bounded,
        "slowdown": _ratio(wait + run, run),
        "xfactor": _ratio(wait + estimate, estimate),
        "runtime_class": Coded(classify(run, RUNTIME_EDGES, 0.0), RUNTIME_CLASSES),
        "size_class": Coded(classify(size, SIZE_EDGES, 1.0), SIZE_CLASSES),
        "category": Coded(category_codes(run, size, "16"), CATEGORIES),
        "category4": Coded(category_codes(run, size, "4"), CATEGORIES4),
        "estimate_quality": Coded(quality_codes(estimate, run), ESTIMATE_QUALITIES),
    }


def derive(jobs: pd.DataFrame) -> pd.DataFrame:
    """Return a copy of ``jobs`` with the per-job metrics and categories added.

    Adds ``turnaround``, ``bounded_slowdown``, ``slowdown``, ``xfactor``
    (seed 000, section 2.2), ``runtime_class``, ``size_class``, ``category``
    (Table 2.1), ``category4`` (Table 4.1) and ``estimate_quality`` (chapter 4);
    see the module docstring for the exact definitions and boundary sides.
    Existing columns of those names are recomputed. Vectorised throughout.
    """
    import pandas as pd

    new = {
        name: values.categorical() if isinstance(values, Coded) else values
        for name, values in _derived(jobs).items()
    }
    if any(name in jobs.columns for name in new):
        # Recomputed in place: the columns keep their places.
        out = jobs.copy()
        for name, values in new.items():
            out[name] = values
        return out
    # Added at the end, in one step (column by column was most of a small run's cost).
    return pd.concat([jobs, pd.DataFrame(new, index=jobs.index)], axis=1)


def _derive_columns(jobs: Columns) -> Columns:
    """`derive` on a column table: a new table, the columns added or recomputed."""
    out = Columns({name: jobs[name] for name in jobs})
    for name, values in _derived(jobs).items():
        out[name] = values
    return out


# --------------------------------------------------------------------------- #
# Helpers
# --------------------------------------------------------------------------- #


def _trim_count(value: Any, n: int, name: str) -> int:
    """Number of jobs a warm-up/cool-down argument excludes out of ``n``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be an int >= 0 or a float in (0, 1), got {value!r}")
    if isinstance(value, numbers.Integral):
        if value < 0:
            raise ValueError(f"{name} must be >= 0, got {value}")
        return int(value)
    value = float(value)
    if value == 0.0:
        return 0
    if not 0.0 < value < 1.0:
        raise ValueError(f"{name} as a fraction must lie in (0, 1), got {value}")
    # Round down; the epsilon keeps e.g. 0.29 * 100 = 28.999... at 29.
    return math.floor(value * n + 1e-9)


def json_safe(value: Any) -> Any:
    """Plain JSON types: numpy scalars unwrapped, inf/NaN as null, paths as str."""
    if isinstance(value, Mapping):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return [json_safe(v) for v in value.tolist()]
    if isinstance(value, (list, tuple, set, frozenset)):
        return [json_safe(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Path):
        return str(value)
    # A pandas time is only met where pandas is loaded already: never imported for it.
    pd = sys.modules.get("pandas")
    if pd is not None and isinstance(value, (pd.Timestamp, pd.Timedelta)):
        return None if pd.isna(value) else value.isoformat()
    return str(value)


def _aggregate(grouped: Any, stat: Stat) -> Any:
    """Apply ``stat`` to a (Series)GroupBy or Series; percentiles as ``"p95"``."""
    if isinstance(stat, str):
        match = _PERCENTILE.match(stat)
        if match:
            q = float(match.group(1)) / 100.0
            if not 0.0 <= q <= 1.0:
                raise ValueError(f"percentile out of range: {stat!r}")
            return grouped.quantile(q)
    try:
        return grouped.agg(stat)
    except (AttributeError, TypeError, ValueError) as exc:
        raise ValueError(f"unknown or unusable aggregation {stat!r}: {exc}") from exc


def _f(x: Any) -> float:
    """A plain float (NaN for an empty aggregate, None or pandas' NA)."""
    try:
        return math.nan if x is None else float(x)
    except TypeError:  # pd.NA
        return math.nan


def _mean(values: np.ndarray) -> float:
    """The mean of the values that are not NaN (NaN if none): pandas' ``Series.mean``,
    bit for bit (its nanops: NaN made 0, numpy's pairwise sum, over the count)."""
    values = np.asarray(values, dtype=float)
    missing = np.isnan(values)
    count = values.size - int(np.count_nonzero(missing))
    if count == 0:
        return math.nan
    if count < values.size:
        values = np.where(missing, 0.0, values)
    return float(values.sum() / count)


def _max(values: np.ndarray) -> float:
    """The largest value that is not NaN (NaN if none), as ``Series.max``."""
    values = np.asarray(values, dtype=float)
    values = values[~np.isnan(values)]
    return float(values.max()) if values.size else math.nan


# --------------------------------------------------------------------------- #
# Result
# --------------------------------------------------------------------------- #


#: The tables a run has only when it kept them: each is saved as ``NAME.parquet``.
OPTIONAL_TABLES: tuple[str, ...] = ("sessions", "pieces", "decisions", "reservations", "outages")
#: The file name prefix of a policy's own tables (`Result.tables`): ``policy-NAME.parquet``.
POLICY_TABLE = "policy-"
#: The files `Result.load` reads back a result from (the others it reads when there).
LOADED_FILES: tuple[str, ...] = ("summary.json", "jobs.parquet", "series.parquet")
#: In `Result.save`'s ``only``: every one of the policy's own tables.
POLICY_FILES = f"{POLICY_TABLE}*.parquet"


class Result:
    """The record of one simulation run and everything computed from it.

    ``jobs`` gets the derived per-job columns on construction (a copy: the
    caller's table is not modified); ``series`` is the system state as a step
    function; ``meta`` describes the run (see the module docstring).

    ``jobs`` and ``series`` may be given as DataFrames or as `Columns` (what a
    simulation makes): either way the attributes ``jobs`` and ``series`` are
    DataFrames, made from the columns (importing pandas) when first read.
    `summary`, `category_records`, `save`'s ``jobs.csv`` and ``summary.json``
    and ``schedule.swf`` read the columns themselves, so a ``schedsim run``
    that writes only those never loads pandas (`schedsim.model.columns`).
    """

    def __init__(
        self,
        jobs: pd.DataFrame | Columns,
        series: pd.DataFrame | Columns,
        meta: dict[str, Any],
        sessions: pd.DataFrame | None = None,
        pieces: pd.DataFrame | None = None,
        decisions: pd.DataFrame | None = None,
        reservations: pd.DataFrame | None = None,
        outages: pd.DataFrame | None = None,
        tables: dict[str, pd.DataFrame] | None = None,
    ) -> None:
        self.meta = meta
        #: Closed-loop runs only: one row per user session (`schedsim.model.sessions`).
        self.sessions = sessions
        #: Every piece of every job (`schedsim.model.pieces`), when the run kept them.
        self.pieces = pieces
        #: Every decision of every pass, when the run logged them.
        self.decisions = decisions
        #: Every reservation held after every pass, when the run logged them.
        self.reservations = reservations
        #: Every node outage begun, in a run with outages (`schedsim.model.outages`).
        self.outages = outages
        #: The tables the policy kept (`schedsim.model.policy.Policy.tables`), by name.
        self.tables: dict[str, pd.DataFrame] = {} if tables is None else tables
        missing = [c for c in JOB_COLUMNS if c not in jobs]
        if missing:
            raise ValueError(f"jobs lacks columns {missing}")
        missing = [c for c in SERIES_COLUMNS if c not in series]
        if missing:
            raise ValueError(f"series lacks columns {missing}")
        missing = [k for k in _META_KEYS if k not in meta]
        if missing:
            raise ValueError(f"meta lacks keys {missing}")
        times = np.asarray(series["time"], dtype=float)
        if times.size and np.any(np.diff(times) < 0):
            raise ValueError("series times must be non-decreasing")
        cores = meta["total_cores"]
        if not cores or cores <= 0:
            raise ValueError(f"meta['total_cores'] must be positive, got {cores}")
        # The tables as given (a DataFrame, or Columns until a frame is asked for).
        self._jobs = _derive_columns(jobs) if isinstance(jobs, Columns) else derive(jobs)
        self._series = series

    def __repr__(self) -> str:
        meta = self.meta
        return (
            f"Result({meta.get('policy', '?')} on {meta.get('workload', '?')}: "
            f"{len(self._jobs)} jobs, {len(self._series)} series rows)"
        )

    def _frame(self, slot: str) -> pd.DataFrame:
        """The table kept in ``slot`` as a frame, made (and kept) from its columns once."""
        table = getattr(self, slot)
        if isinstance(table, Columns):
            table = table.frame()
            setattr(self, slot, table)
        return table

    @property
    def jobs(self) -> pd.DataFrame:
        """One row per job (module docstring), the derived columns included."""
        return self._frame("_jobs")

    @jobs.setter
    def jobs(self, frame: pd.DataFrame) -> None:
        self._jobs = frame

    @property
    def series(self) -> pd.DataFrame:
        """The system state as a step function (module docstring)."""
        return self._frame("_series")

    @series.setter
    def series(self, frame: pd.DataFrame) -> None:
        self._series = frame

    def column(self, name: str, rows: np.ndarray | None = None) -> np.ndarray:
        """Job column ``name`` as a numpy array, of the rows ``rows`` (all when None),
        without making the ``jobs`` frame; from the frame once it is made (what a
        caller changed in ``jobs`` counts). Categories come as an object array of
        their labels (None where missing). Do not write into it: it may be the
        table's own."""
        raw = self._jobs[name]
        values = raw.values() if isinstance(raw, Coded) else np.asarray(raw)
        return values if rows is None else values[rows]

    # ---- the run's window ---------------------------------------------------

    @property
    def run_start(self) -> float:
        """Simulation start (``meta["start"]``, the first submit): the clock origin."""
        return float(self.meta["start"])

    @property
    def partial(self) -> bool:
        """Whether the run was not over when this result was collected."""
        return bool(self.meta.get("partial", False))

    @property
    def run_end(self) -> float:
        """Time of the last event (``meta["end"]``)."""
        return float(self.meta["end"])

    def _window(self, start: float | None, end: float | None) -> tuple[float, float]:
        a = self.run_start if start is None else float(start)
        b = self.run_end if end is None else float(end)
        if not (math.isfinite(a) and math.isfinite(b)):
            raise ValueError(f"window bounds must be finite, got [{a}, {b}]")
        if a > b:
            raise ValueError(f"window start {a} is after its end {b}")
        if a < self.run_start or b > self.run_end:
            raise ValueError(f"window [{a}, {b}] leaves the run [{self.run_start}, {self.run_end}]")
        return a, b

    # ---- time series --------------------------------------------------------

    def time_average(
        self, column: str, start: float | None = None, end: float | None = None
    ) -> float:
        """Exact time average of a ``series`` column over [start, end].

        Each row's value is weighted by how long it held inside the window
        (rows sharing a time hold for zero seconds). NaN for an empty window or
        series. Defaults: the whole run.
        """
        if column not in self._series:
            raise ValueError(f"series has no column {column!r}")
        a, b = self._window(start, end)
        t = np.asarray(self._series["time"], dtype=float)
        if b == a or t.size == 0:
            return math.nan
        v = np.asarray(self._series[column], dtype=float)
        nxt = np.empty_like(t)
        nxt[:-1] = t[1:]
        nxt[-1] = max(self.run_end, t[-1])
        held = np.clip(nxt, a, b) - np.clip(t, a, b)
        return float(np.dot(v, held) / (b - a))

    def utilization(self, start: float | None = None, end: float | None = None) -> float:
        """Time-weighted busy cores / total cores over [start, end] (default: the run).

        The "overall system utilization" of seed 000 (Figure 4.9).
        """
        return self.time_average("busy_cores", start, end) / float(self.meta["total_cores"])

    def queue_length_mean(self, start: float | None = None, end: float | None = None) -> float:
        """Time-weighted mean number of queued jobs over [start, end]."""
        return self.time_average("queued", start, end)

    def throughput_per_day(self, start: float | None = None, end: float | None = None) -> float:
        """Jobs that ended (any outcome) within the closed window, per day of window."""
        a, b = self._window(start, end)
        if b == a:
            return math.nan
        return self._throughput(a, b, None)

    def _throughput(self, a: float, b: float, rows: np.ndarray | None) -> float:
        """`throughput_per_day` over [a, b] (not empty), of the jobs ``rows`` (all: None)."""
        ends = self.column("end", rows).astype(float)
        done = np.count_nonzero((ends >= a) & (ends <= b))
        return float(done * _DAY / (b - a))

    @property
    def makespan(self) -> float:
        """Seed 004, section 3: completion time of the last job, from ``meta["start"]``."""
        return _max(self.column("end")) - self.run_start

    # ---- job selection ------------------------------------------------------

    def _kept(
        self, warmup: int | float, cooldown: int | float
    ) -> tuple[np.ndarray | None, float, float, int, int]:
        """The rows of the kept jobs (None: all, in order), the system-level window and
        the numbers excluded at each end. See the module docstring for the window."""
        n = len(self._jobs)
        head = _trim_count(warmup, n, "warmup")
        tail = _trim_count(cooldown, n, "cooldown")
        if head == 0 and tail == 0:
            return None, self.run_start, self.run_end, 0, 0
        if head + tail >= n:
            raise ValueError(f"warmup ({head}) + cooldown ({tail}) would exclude all {n} jobs")
        submit = self.column("submit").astype(float)
        order = np.lexsort((self.column("id"), submit))
        rows = np.sort(order[head : n - tail])
        a = float(submit[rows].min()) if head else self.run_start
        b = float(submit[rows].max()) if tail else self.run_end
        return rows, a, b, head, tail

    def _rows(
        self, estimate: str | None, warmup: int | float, cooldown: int | float
    ) -> np.ndarray | None:
        """The rows of the jobs kept (`_kept`), of the estimate quality ``estimate`` when
        given (None: all)."""
        rows = self._kept(warmup, cooldown)[0]
        if estimate is None:
            return rows
        if estimate not in ESTIMATE_QUALITIES:
            raise ValueError(f"estimate must be None, 'well' or 'poor', got {estimate!r}")
        chosen = np.flatnonzero(self.column("estimate_quality", rows) == estimate)
        return chosen if rows is None else rows[chosen]

    def _filtered(
        self, estimate: str | None, warmup: int | float, cooldown: int | float
    ) -> pd.DataFrame:
        """`_rows`' jobs as a frame."""
        rows = self._rows(estimate, warmup, cooldown)
        return self.jobs if rows is None else self.jobs.iloc[rows]

    # ---- groups of jobs -----------------------------------------------------

    def split(self, column: str) -> dict[Any, Result]:
        """The run seen one group of jobs at a time: a result per value of job column
        ``column`` (``priority``, ``queue_class``, ``user``, ...), holding that group's
        jobs and pieces, in sorted order of the values; jobs with no value (NaN) form
        the group None. Its `summary`, `category_table` and `category_stats` are then
        the group's; ``series`` and ``meta`` stay the whole run's (a group has no
        utilization of its own: `summary_by` says which entries are the machine's).
        """
        return self._parts(self.jobs, column)

    def _parts(self, jobs: pd.DataFrame, column: str) -> dict[Any, Result]:
        if column not in jobs:
            raise ValueError(f"the job table has no column {column!r}: {', '.join(jobs.columns)}")
        values = jobs[column]
        keys: list[Any] = sorted(values.dropna().unique().tolist(), key=lambda v: (str(type(v)), v))
        masks = [(values == k).to_numpy() for k in keys]
        if values.isna().any():
            keys.append(None)
            masks.append(values.isna().to_numpy())
        out: dict[Any, Result] = {}
        for key, mask in zip(keys, masks, strict=True):
            part = jobs[mask].reset_index(drop=True)
            pieces = self.pieces
            if pieces is not None:
                pieces = pieces[pieces["job"].isin(part["id"])].reset_index(drop=True)
            out[key] = Result(
                jobs=part,
                series=self._series,
                meta=self.meta,
                sessions=self.sessions,
                pieces=pieces,
                decisions=self.decisions,
                reservations=self.reservations,
                outages=self.outages,
                tables=self.tables,
            )
        return out

    def summary_by(
        self, column: str, warmup: int | float = 0, cooldown: int | float = 0
    ) -> pd.DataFrame:
        """`summary` per group of job column ``column`` (`split`), one row each, and a
        last row ``"all"``: the whole run's.

        ``warmup`` and ``cooldown`` trim the run as a whole (by submit order over all
        jobs) before it is split. The job-based entries and ``throughput_per_day``
        are the group's; ``utilization`` and ``mean_queue_length`` are the machine's
        over the window, the same in every row, as are the window and the numbers
        trimmed.
        """
        whole = self.summary(warmup, cooldown)
        a, b = whole["window_start"], whole["window_end"]
        machine = (
            "excluded_warmup", "excluded_cooldown", "window_start", "window_end",
            "utilization", "mean_queue_length",
        )  # fmt: skip
        rows: dict[Any, dict[str, Any]] = {}
        for key, part in self._parts(self._filtered(None, warmup, cooldown), column).items():
            row = part.summary()
            row.update({k: whole[k] for k in machine})
            row["throughput_per_day"] = part.throughput_per_day(a, b)
            rows[key] = row
        rows["all"] = whole
        import pandas as pd

        table = pd.DataFrame.from_dict(rows, orient="index")
        table.index.name = column
        return table

    # ---- summaries ----------------------------------------------------------

    def summary(self, warmup: int | float = 0, cooldown: int | float = 0) -> dict[str, Any]:
        """Headline numbers of the run, as plain Python values (JSON-ready but NaN).

        Job-based entries (``jobs``, ``mean_wait``, ``max_wait``,
        ``mean_bounded_slowdown``, ``max_bounded_slowdown``, ``mean_slowdown``
        (seed 001's s = 1 + d/v, jobs with v = 0 left out), ``mean_turnaround``,
        ``mean_xfactor``, ``makespan``, ``weighted_completion_time``,
        ``weighted_flow_time``, ``killed_at_limit``, ``killed``,
        ``suspensions``) use the jobs kept after ``warmup``/``cooldown``;
        ``utilization``, ``mean_queue_length`` and ``throughput_per_day`` use the
        window [``window_start``, ``window_end``] (module docstring). Weighted
        sums follow seed 004, section 3, with w_i = size x run (Definition 3.1)
        and completion times from ``meta["start"]``. In a partial result the
        job-based entries count finished jobs only, and ``unfinished`` says how
        many were still in the system.
        """
        rows, a, b, head, tail = self._kept(warmup, cooldown)
        unfinished: dict[str, int] = {}
        if self.partial:
            live = self.column("outcome", rows) == "unfinished"
            unfinished["unfinished"] = int(live.sum())
            done = np.flatnonzero(~live)
            rows = done if rows is None else rows[done]

        def column(name: str) -> np.ndarray:
            return self.column(name, rows)

        run = column("run").astype(float)
        end = column("end").astype(float)
        weight = column("size").astype(float) * run
        outcome = column("outcome")
        n = len(run)
        return {
            "jobs": n,
            "excluded_warmup": head,
            "excluded_cooldown": tail,
            "window_start": a,
            "window_end": b,
            "mean_wait": _mean(column("wait")),
            "max_wait": _max(column("wait")),
            "mean_bounded_slowdown": _mean(column("bounded_slowdown")),
            "max_bounded_slowdown": _max(column("bounded_slowdown")),
            "mean_slowdown": _mean(column("slowdown")),
            "mean_turnaround": _mean(column("turnaround")),
            "mean_xfactor": _mean(column("xfactor")),
            "utilization": self.utilization(a, b),
            "makespan": float(end.max()) - self.run_start if n else math.nan,
            "throughput_per_day": self.throughput_per_day(a, b),
            "mean_queue_length": self.queue_length_mean(a, b),
            "weighted_completion_time": float(np.dot(weight, end - self.run_start)),
            "weighted_flow_time": float(np.dot(weight, end - column("submit").astype(float))),
            "killed_at_limit": int(np.count_nonzero(outcome == "killed_at_limit")),
            "killed": int(np.count_nonzero(outcome == "killed")),
            "suspensions": int(column("suspensions").sum()),
            **unfinished,
            **(self._outage_summary(rows, a, b) if self.outages is not None else {}),
            **(closed_loop_summary(self) if self.sessions is not None else {}),
        }

    def _outage_summary(self, rows: np.ndarray | None, a: float, b: float) -> dict[str, Any]:
        """What outages cost (a run with outages only): ``node_failures`` and
        ``maintenance_windows`` begun, node outages counted one per node; ``failed``,
        the jobs an outage killed for good; ``outage_kills``, the attempts outages
        killed (requeued or not); ``lost_core_hours``, the core-hours those attempts
        had run; ``down_core_hours``, the cores out of the machine over the window
        [``window_start``, ``window_end``], in core-hours."""
        from procset import ProcSet

        out = self.outages
        assert out is not None
        jobs = self.jobs if rows is None else self.jobs.iloc[rows]
        kind = out["kind"]
        nodes = out["nodes"].map(lambda text: len(ProcSet.from_str(text)))
        failed = (jobs["outcome"] == "failed").to_numpy()
        size = jobs["size"].to_numpy(dtype=float)
        lost = size * jobs["lost_run"].to_numpy(dtype=float)
        lost += np.where(failed, size * jobs["run"].to_numpy(dtype=float), 0.0)
        lo = np.maximum(out["start"].to_numpy(dtype=float), a)
        hi = np.minimum(out["end"].to_numpy(dtype=float), b)
        down = np.clip(hi - lo, 0.0, None) * out["cores"].to_numpy(dtype=float)
        return {
            "node_failures": int(nodes[kind == "failure"].sum()),
            "maintenance_windows": int((kind == "maintenance").sum()),
            "failed": int(failed.sum()),
            "outage_kills": int(jobs["failures"].sum()) if "failures" in jobs else 0,
            "lost_core_hours": float(lost.sum()) / 3600.0,
            "down_core_hours": float(down.sum()) / 3600.0,
        }

    def category_table(
        self,
        metric: str = "bounded_slowdown",
        stat: Stat = "mean",
        scheme: str = "16",
        estimate: str | None = None,
        warmup: int | float = 0,
        cooldown: int | float = 0,
    ) -> pd.DataFrame:
        """``metric`` aggregated by ``stat`` per job category, in the paper's layout.

        Scheme ``"16"``: 4 x 4, rows VS/S/L/VL, columns Seq/N/W/VW (seed 000,
        Table 2.1, as its Table 2.3 prints average slowdowns); scheme ``"4"``:
        2 x 2, rows S/L, columns N/W (Table 4.1). ``stat`` is ``"mean"``,
        ``"max"``, ``"count"``, ``"median"``, any pandas aggregation name or
        callable, or a percentile ``"p95"``. ``estimate`` keeps only ``"well"``
        or ``"poor"`` estimated jobs (chapter 4). Cells with no jobs are NaN
        (0 for ``"count"``/``"size"``).
        """
        import pandas as pd

        jobs = self._filtered(estimate, warmup, cooldown)
        rows, row_edges, cols, col_edges = categories.scheme(scheme)
        self._check_metric(metric)
        run = jobs["run"].to_numpy(dtype=float)
        size = jobs["size"].to_numpy(dtype=float)
        rc = categorical(classify(run, row_edges, 0.0), rows)
        sc = categorical(classify(size, col_edges, 1.0), cols)
        # As Series: a list of two bare arrays of length 2 reads as one key pair to pandas.
        keys = [pd.Series(rc, index=jobs.index), pd.Series(sc, index=jobs.index)]
        grouped = jobs[metric].groupby(keys, observed=False)
        table = _aggregate(grouped, stat)
        if isinstance(table, pd.DataFrame):
            raise ValueError(f"aggregation {stat!r} must give one value per group")
        table = table.unstack().reindex(index=list(rows), columns=list(cols))
        counts = grouped.size().unstack().reindex(index=list(rows), columns=list(cols))
        if stat not in ("count", "size"):
            table = table.where(counts > 0)
        table.index.name = "runtime"
        table.columns.name = "size"
        return table

    def category_stats(
        self,
        metrics: Iterable[str] = ("bounded_slowdown", "turnaround"),
        scheme: str = "16",
        estimate: str | None = None,
        warmup: int | float = 0,
        cooldown: int | float = 0,
    ) -> pd.DataFrame:
        """Long table: per category (paper order) the job count, mean and max of each metric.

        The max is the worst case a category suffered. A last row ``"all"`` holds
        the same over every selected job (seed 000 quotes the overall slowdown
        beside its per-category table). Columns: ``category``, ``count``,
        ``<metric>_mean``, ``<metric>_max``: `category_records` as a frame.
        """
        import pandas as pd

        return pd.DataFrame(self.category_records(metrics, scheme, estimate, warmup, cooldown))

    def category_records(
        self,
        metrics: Iterable[str] = ("bounded_slowdown", "turnaround"),
        scheme: str = "16",
        estimate: str | None = None,
        warmup: int | float = 0,
        cooldown: int | float = 0,
    ) -> list[dict[str, Any]]:
        """`category_stats`'s rows as dicts (``category``, ``count``, ``<metric>_mean``,
        ``<metric>_max``), computed without pandas: what ``schedsim run`` prints.

        A mean or max skips NaN values and is NaN for a category with none.
        """
        metrics = [metrics] if isinstance(metrics, str) else list(metrics)
        for m in metrics:
            self._check_metric(m)
        labels = categories.labels(scheme)
        rows = self._rows(estimate, warmup, cooldown)
        run = self.column("run", rows).astype(float)
        codes = category_codes(run, self.column("size", rows).astype(float), scheme)
        values = {m: self.column(m, rows).astype(float) for m in metrics}
        out = []
        for code, label in enumerate([*labels, "all"]):
            # The last row, "all", is every selected job, with a category or not.
            chosen = codes == code if label != "all" else np.ones(len(codes), dtype=bool)
            record: dict[str, Any] = {"category": label, "count": int(np.count_nonzero(chosen))}
            for m in metrics:
                record[f"{m}_mean"] = _mean(values[m][chosen])
                record[f"{m}_max"] = _max(values[m][chosen])
            out.append(record)
        return out

    def _check_metric(self, metric: str) -> None:
        jobs = self._jobs
        if metric in jobs:
            values = jobs[metric]
            if isinstance(jobs, Columns):
                numeric = isinstance(values, np.ndarray) and values.dtype.kind in "biuf"
            else:  # a frame: pandas is loaded, and knows its own dtypes
                import pandas as pd

                numeric = pd.api.types.is_numeric_dtype(values)
            if numeric:
                return
        raise ValueError(f"metric must be a numeric jobs column, got {metric!r}")

    # ---- files --------------------------------------------------------------

    def files(self, only: Collection[str] | None = None) -> list[str]:
        """The names of the files `save` writes for this result, in the order it writes them.

        ``only``: just these of them (``policy-*.parquet`` stands for all the
        policy's tables); a name that is none of them is a ValueError.
        """
        names = ["jobs.parquet", "jobs.csv", "series.parquet"]
        names += [f"{name}.parquet" for name in OPTIONAL_TABLES if getattr(self, name) is not None]
        names += [f"{POLICY_TABLE}{name}.parquet" for name in self.tables]
        names.append("summary.json")
        if only is None:
            return names
        wanted = set(only)
        unknown = sorted(wanted - set(names) - {POLICY_FILES})
        if unknown:
            raise ValueError(
                f"this result has no file {', '.join(unknown)} to save; it has {', '.join(names)}"
            )
        policy = POLICY_FILES in wanted
        return [n for n in names if n in wanted or (policy and n.startswith(POLICY_TABLE))]

    def save(
        self,
        out_dir: str | Path,
        warmup: int | float = 0,
        cooldown: int | float = 0,
        only: Collection[str] | None = None,
    ) -> Path:
        """Write ``jobs.parquet``, ``jobs.csv``, ``series.parquet`` and ``summary.json``.

        Also ``pieces.parquet``, ``decisions.parquet``, ``reservations.parquet``
        and ``sessions.parquet`` when the run has them, and each of the
        policy's own tables as ``policy-NAME.parquet`` (`files` lists them).
        ``summary.json`` is ``{"summary": ..., "meta": ...}`` with numpy values
        unwrapped and inf/NaN written as null. ``only``: write just these
        (`files`), checked before anything is written. Returns the directory.
        """
        out = Path(out_dir)
        names = self.files(only)
        out.mkdir(parents=True, exist_ok=True)
        for name in names:
            path = out / name
            if name == "jobs.csv":
                write_csv(self._jobs, path)  # the bytes of to_csv(index=False), faster
            elif name == "summary.json":
                path.write_text(self.summary_json(warmup, cooldown))
            elif name.startswith(POLICY_TABLE):
                self.tables[name[len(POLICY_TABLE) : -len(".parquet")]].to_parquet(
                    path, index=False
                )
            else:  # jobs and series made frames here, if they were columns
                getattr(self, name.removesuffix(".parquet")).to_parquet(path, index=False)
        return out

    def summary_json(self, warmup: int | float = 0, cooldown: int | float = 0) -> str:
        """The text of ``summary.json``: ``{"summary": ..., "meta": ...}`` (see `save`)."""
        doc = json_safe({"summary": self.summary(warmup, cooldown), "meta": self.meta})
        return json.dumps(doc, indent=2, allow_nan=False) + "\n"

    @classmethod
    def load(cls, out_dir: str | Path) -> Result:
        """Read back a directory written by :meth:`save` (meta from ``summary.json``)."""
        src = Path(out_dir)
        missing = [n for n in LOADED_FILES if not (src / n).is_file()]
        if missing:
            # A folder written with `save`'s ``only`` (``schedsim run --only``), or no result.
            raise ValueError(
                f"{src}: no {' or '.join(missing)}; a result is read back from the "
                f"{', '.join(LOADED_FILES)} that save writes"
            )
        import pandas as pd

        doc = json.loads((src / "summary.json").read_text())
        jobs = pd.read_parquet(src / "jobs.parquet")
        series = pd.read_parquet(src / "series.parquet")
        extra = {
            name: pd.read_parquet(src / f"{name}.parquet")
            for name in OPTIONAL_TABLES
            if (src / f"{name}.parquet").exists()
        }
        tables = {
            path.name[len(POLICY_TABLE) : -len(".parquet")]: pd.read_parquet(path)
            for path in sorted(src.glob(f"{POLICY_TABLE}*.parquet"))
        }
        return cls(jobs=jobs, series=series, meta=doc["meta"], tables=tables, **extra)


def compare(
    results: Mapping[str, Result],
    metric: str = "bounded_slowdown",
    stat: Stat = "mean",
    scheme: str = "16",
    estimate: str | None = None,
    warmup: int | float = 0,
    cooldown: int | float = 0,
) -> pd.DataFrame:
    """Several runs side by side: one row per category, one column per run.

    Rows are the categories in the paper's order (``"VS Seq"`` ... ``"VL VW"``,
    or ``"SN"`` ... ``"LW"``) followed by ``"all"`` (``stat`` over every
    selected job); columns are the run names in the order given. This is the
    shape of seed 000's per-category comparisons (e.g. Figures 4.3-4.6 compare
    NS, SS and IS category by category): it prints narrowly, and
    ``compare(...).plot.bar()`` draws the paper's grouped bars.
    """
    import pandas as pd

    if not results:
        raise ValueError("compare needs at least one result")
    labels = list(categories.labels(scheme))
    columns: dict[str, pd.Series] = {}
    for name, result in results.items():
        table = result.category_table(metric, stat, scheme, estimate, warmup, cooldown)
        # Row-major ravel of the runtime x size table is the category order.
        cells = table.to_numpy(dtype=float).ravel()
        jobs = result._filtered(estimate, warmup, cooldown)[metric]
        overall = _f(_aggregate(jobs, stat)) if len(jobs) or stat in ("count", "size") else math.nan
        columns[str(name)] = pd.Series([*cells, overall], index=[*labels, "all"])
    out = pd.DataFrame(columns)
    out.index.name = "category"
    out.columns.name = "run"
    return out
