"""A minimal EASY backfilling simulator in plain Python: the yardstick schedsim is timed against.

Run from the repository root::

    python benchmarks/reference_easy.py workloads/data/CTC-SP2-1996-3.1-cln.swf.gz --out DIR
    python benchmarks/reference_easy.py ctc --out DIR --phases     # + read/loop/write seconds
    python benchmarks/reference_easy.py kth --first 3000 --out DIR

It does what ``schedsim run --policy easy --out DIR`` does on an SWF log, with
nothing but the standard library: no SimPy, no numpy, no pandas, and no
schedsim import. `benchmarks/process.py` times it beside schedsim, as a whole
process and phase by phase, and every figure there is a ratio to it, so it is
written the way a careful person would write a one-off EASY simulator: event
lists, a heap, sorted lists, no tricks. The tests check that it gives the same
start times as schedsim's EASY, job by job, as exact floats
(``tests/test_reference_easy.py``).

**Reading** (as `schedsim.workloads.swf.read_swf` with its default cleaning):
size = requested processors (field 8) when positive, else allocated (field 5);
a line with no size, a missing (-1) submit time or a missing run time is
dropped; estimate = requested time (field 9) when positive, else the run time;
jobs in order of (submit time, job number); ``--first N`` keeps the first N in
that order. User, group, executable, queue and partition ids that are negative
(other than -1) or 2**53 and above are set to -1, as schedsim's reader does.
Unlike schedsim it validates nothing: it is meant for clean archive logs such as
the shipped ones, where the two readers agree.

**The machine**: the header's MaxProcs, else MaxNodes (``--nodes`` overrides),
one core per node; a job wider than the machine is an error, as in schedsim.

**The schedule** (Kettimuthu 2003, section 2.1.2, as `schedsim.policies.backfilling`
reads it, with schedsim's conventions, DESIGN.md "Conventions"):

- The clock keeps the trace's own seconds (nothing is shifted; the run starts
  at the first submit).
- At one instant, every completion and every arrival happens first, then one
  scheduling pass. A job started by that pass with a zero run time ends at the
  same instant, which brings another pass at that instant (schedsim's job
  process ends it there and wakes the scheduler again).
- A pass scans the queue in submit order (ties by job number) and starts jobs
  while they fit the free processors. The first that does not fit gets the
  reservation: the *shadow time* is the planned end (start + estimate) of the
  running job at which the free processors first reach its size, counting
  every job planned to end at that same instant and the jobs this pass started;
  the *extra* processors are those free then, less its size. A later job starts
  if it fits the free processors and either ends by its estimate no later than
  the shadow time, or needs no more than the extra processors (which it then
  uses up). The scan stops once no processor is free.
- A running job whose planned end is not after now is planned to end
  max(overrun, 1 s) from now (`schedsim.policies.planning.profile.planned_end`).
  With jobs killed at their estimate that happens only to a job with a zero
  estimate started in the same pass, which is then planned to free its
  processors 1 s later.
- A job ends at start + run time, or is killed at start + estimate when its run
  time exceeds its estimate (schedsim's default; its ``--keep-run-times`` is not
  mirrored here).
- Processors are nodes of one core; a start takes the lowest-numbered free nodes
  (first fit), in the order the pass starts jobs.

**Outputs** (``--out DIR``; the files a user asks ``schedsim run --out`` for
when they want the schedule, in their simplest faithful form):

- ``jobs.csv``: the same columns, in the same order, with the same values as
  schedsim's ``jobs.csv`` (floats written as Python writes them, missing values
  empty), so the two files compare byte for byte;
- ``schedule.swf``: the same job lines as schedsim's ``schedule.swf`` (the
  trace's 18 fields with the simulated wait, run time, processors and status,
  column-aligned the same way); its header is the trace's with ``MaxJobs`` and
  ``MaxRecords`` set and one note line, without schedsim's cleaning notes.

It writes no Parquet files (``jobs.parquet``, ``series.parquet``,
``pieces.parquet``), no ``summary.json`` and prints no summary tables; schedsim
writes all of these, and has no option to leave them out (``--no-pieces`` only
drops the piece log).

``--phases`` prints the seconds of each phase (read, loop, write): "loop" is the
scheduling loop alone, the figure `benchmarks/process.py` sets beside schedsim's
simulation.
"""

from __future__ import annotations

import argparse
import gzip
import math
import re
import sys
import time
from bisect import bisect_left, insort
from dataclasses import dataclass
from heapq import heappop, heappush
from pathlib import Path

INF = float("inf")
NAN = float("nan")
#: A running job past its planned end is planned to run at least this much longer (s).
OVERRUN_GRACE = 1.0
#: Identifiers from 2**53 on are not exact as floats: schedsim's reader sets them to -1.
MAX_ID = 2.0**53
#: The shipped traces, for short names (``ctc``, ``kth``): the start of a file name here.
DATA = Path(__file__).resolve().parent.parent / "workloads" / "data"

# 0-based SWF fields.
JOB, SUBMIT, WAIT, RUN, ALLOC, REQ_PROCS, REQ_TIME, STATUS = 0, 1, 2, 3, 4, 7, 8, 10
IDS = (11, 12, 13, 14, 15)  # user, group, executable, queue, partition

_KEY_RE = re.compile(r";[ \t]?([A-Za-z][A-Za-z0-9_]*)[ \t]*:(.*)")
_LEADING_INT_RE = re.compile(r"[+-]?\d+")

#: The job table's columns, as schedsim's ``jobs.csv`` has them (``queue`` and
#: ``partition`` are inserted after ``user`` when some job has one).
SIMULATED = (
    "id", "submit", "start", "end", "run", "wait", "estimate", "work", "size", "nodes",
    "outcome", "suspensions", "suspended_time", "overhead_time", "requeues", "lost_work",
    "lost_run", "attempts", "user",
)  # fmt: skip
DERIVED = (
    "turnaround", "bounded_slowdown", "slowdown", "xfactor", "runtime_class", "size_class",
    "category", "category4", "estimate_quality",
)  # fmt: skip
#: Kettimuthu 2003 Table 2.1: run-time classes up to 10 min / 1 h / 8 h (inclusive), and
#: size classes up to 1 / 8 / 32 processors; Table 4.1: 1 h and 8 processors.
RUNTIME = ((600.0, "VS"), (3600.0, "S"), (28800.0, "L"))
SIZES = ((1, "Seq"), (8, "N"), (32, "W"))
BSLD_THRESHOLD = 10.0  # s, Kettimuthu 2003 section 2.2


@dataclass
class Trace:
    """The jobs of a log, in (submit, job number) order, and what the outputs need of it."""

    header: list[str]
    machine: int | None
    values: list[list[float]]  # the 18 SWF fields of each job
    ids: list[int]
    submit: list[float]
    size: list[int]
    run: list[float]
    estimate: list[float]


@dataclass
class Schedule:
    """What the loop decides: per job (in trace order) its start, end and nodes."""

    start: list[float]
    end: list[float]
    nodes: list[list[int]]
    passes: int


# ---- reading ------------------------------------------------------------------------


def resolve(spec: str) -> Path:
    """A path, or a shipped trace by the start of its file name (``ctc``, ``kth``)."""
    path = Path(spec)
    if path.is_file():
        return path
    matches = sorted(p for p in DATA.glob("*.swf*") if p.name.lower().startswith(spec.lower()))
    if len(matches) != 1:
        raise SystemExit(f"reference_easy: no single trace {spec!r} (a path, or one of {DATA})")
    return matches[0]


def _header_int(fields: dict[str, str], key: str) -> int | None:
    m = _LEADING_INT_RE.match(fields.get(key, "").strip())
    return int(m.group()) if m and int(m.group()) > 0 else None


def read(path: str | Path, first: int | None = None) -> Trace:
    """The jobs of an SWF log (plain or gzip) with schedsim's default selection."""
    data = Path(path).read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    header: list[str] = []
    fields: dict[str, str] = {}
    rows: list[list[float]] = []
    for line in text.split("\n"):
        s = line.strip()
        if not s:
            continue
        if s[0] == ";":
            header.append(line)
            m = _KEY_RE.match(line.lstrip())
            if m:
                fields.setdefault(m.group(1), m.group(2).strip())
            continue
        v = list(map(float, s.split()))
        size = v[REQ_PROCS] if v[REQ_PROCS] > 0 else v[ALLOC]
        if size > 0 and v[SUBMIT] != -1 and v[RUN] != -1:
            rows.append(v)
    rows.sort(key=lambda v: (v[SUBMIT], v[JOB]))
    if first is not None:
        del rows[first:]
    for v in rows:
        for i in IDS:
            if (v[i] < 0 and v[i] != -1) or v[i] >= MAX_ID:
                v[i] = -1.0
    machine = _header_int(fields, "MaxProcs") or _header_int(fields, "MaxNodes")
    return Trace(
        header=header,
        machine=machine,
        values=rows,
        ids=[int(v[JOB]) for v in rows],
        submit=[v[SUBMIT] for v in rows],
        size=[int(v[REQ_PROCS] if v[REQ_PROCS] > 0 else v[ALLOC]) for v in rows],
        run=[v[RUN] for v in rows],
        estimate=[v[REQ_TIME] if v[REQ_TIME] > 0 else v[RUN] for v in rows],
    )


# ---- the scheduling loop ------------------------------------------------------------


def easy(
    submit: list[float], size: list[int], run: list[float], estimate: list[float], machine: int
) -> Schedule:
    """EASY backfilling of the jobs (given in submit order) on ``machine`` one-core nodes."""
    n = len(submit)
    wide = [i for i in range(n) if size[i] > machine]
    if wide:
        raise ValueError(f"{len(wide)} jobs are wider than the machine's {machine} processors")
    start = [NAN] * n
    end = [NAN] * n
    nodes: list[list[int]] = [[] for _ in range(n)]
    free_nodes = list(range(machine))  # a heap: first fit takes the lowest-numbered
    free = machine
    queue: list[int] = []  # waiting jobs, in submit order
    ends: list[tuple[float, int]] = []  # heap of (end, job)
    plan: list[tuple[float, int]] = []  # running jobs by (planned end, job)
    planned: dict[int, float] = {}  # job -> its planned end (start + estimate)
    passes = 0
    i = 0

    def begin(j: int, now: float) -> None:
        nonlocal free
        s = size[j]
        free -= s
        nodes[j] = [heappop(free_nodes) for _ in range(s)]
        start[j] = now
        est = estimate[j]
        # Run to the end, or killed at the estimate.
        heappush(ends, (now + (run[j] if run[j] <= est else est), j))
        p = now + est
        planned[j] = p
        insort(plan, (p, j))

    while i < n or ends:
        now = submit[i] if i < n else INF
        if ends and ends[0][0] < now:
            now = ends[0][0]
        # Every completion and every arrival at this instant, then one pass.
        while ends and ends[0][0] == now:
            _, j = heappop(ends)
            end[j] = now
            free += size[j]
            for node in nodes[j]:
                heappush(free_nodes, node)
            del plan[bisect_left(plan, (planned.pop(j), j))]
        while i < n and submit[i] == now:
            queue.append(i)
            i += 1
        passes += 1

        # The pass: start jobs in order while they fit.
        k, q = 0, len(queue)
        while k < q and size[queue[k]] <= free:
            begin(queue[k], now)
            k += 1
        if k == q:
            queue.clear()
            continue
        if free == 0:  # nothing can backfill (the reservation changes nothing)
            del queue[:k]
            continue
        # The head's reservation: the shadow time and the extra processors.
        need = size[queue[k]]
        when, extra = INF, 0
        avail = free
        if plan[0][0] > now:
            ahead = plan
        else:  # overrun (a zero estimate started now): planned max(overrun, 1 s) on
            ahead = sorted(
                ((p if p > now else now + max(now - p, OVERRUN_GRACE)), j) for p, j in plan
            )
        for m, (p, j) in enumerate(ahead):
            avail += size[j]
            if avail >= need:
                when = p
                m += 1  # every job planned to end at that instant frees its nodes too
                while m < len(ahead) and ahead[m][0] == when:
                    avail += size[ahead[m][1]]
                    m += 1
                extra = avail - need
                break
        # Backfill: a job that fits and ends by the shadow time, or uses only extra.
        started = []
        for pos in range(k + 1, q):
            j = queue[pos]
            s = size[j]
            if s > free:
                continue
            if now + estimate[j] <= when:
                begin(j, now)
            elif s <= extra:
                begin(j, now)
                extra -= s
            else:
                continue
            started.append(pos)
            if free == 0:
                break
        for pos in reversed(started):
            del queue[pos]
        del queue[:k]
    return Schedule(start, end, nodes, passes)


# ---- writing ------------------------------------------------------------------------


def ranges(values: list[int]) -> str:
    """``[0, 1, 2, 3, 7]`` -> ``"0-3 7"`` (ascending values), as schedsim names nodes."""
    if not values:
        return ""
    parts = []
    first = prev = values[0]
    for v in values[1:]:
        if v == prev + 1:
            prev = v
            continue
        parts.append(str(first) if first == prev else f"{first}-{prev}")
        first = prev = v
    parts.append(str(first) if first == prev else f"{first}-{prev}")
    return " ".join(parts)


def _num(x: float) -> str:
    """A float as pandas writes it in a CSV: Python's shortest repr, NaN empty."""
    return "" if x != x else repr(x)


def _class(value: float, edges: tuple[tuple[float, str], ...], last: str, low: float) -> str:
    if not value >= low:
        return ""
    for edge, label in edges:
        if value <= edge:
            return label
    return last


def write_jobs_csv(path: Path, trace: Trace, sched: Schedule) -> None:
    """``jobs.csv`` with schedsim's columns and values (module docstring)."""
    values = trace.values
    extra = [
        name for i, name in ((14, "queue"), (15, "partition")) if any(v[i] != -1 for v in values)
    ]
    index = {"queue": 14, "partition": 15}
    lines = [",".join((*SIMULATED, *extra, *DERIVED))]
    for j, v in enumerate(values):
        submit, start, end = trace.submit[j], sched.start[j], sched.end[j]
        est, size = trace.estimate[j], trace.size[j]
        run = end - start
        wait = end - submit - run
        bounded = run if run > BSLD_THRESHOLD else BSLD_THRESHOLD
        rc = _class(run, RUNTIME, "VL", 0.0)
        sc = _class(size, SIZES, "VW", 1.0)
        rc4 = ("S" if run <= 3600.0 else "L") if run >= 0.0 else ""
        sc4 = ("N" if size <= 8 else "W") if size >= 1 else ""
        row = [
            str(trace.ids[j]), repr(submit), repr(start), repr(end), repr(run), repr(wait),
            repr(est), repr(v[RUN]), str(size), ranges(sched.nodes[j]),
            "completed" if trace.run[j] <= est else "killed_at_limit",
            "0", "0.0", "0.0", "0", "0.0", "0.0", "1", str(int(v[11])),
            *(str(int(v[index[name]])) for name in extra),
            repr(end - submit),
            repr((wait + bounded) / bounded),
            _num((wait + run) / run if run > 0 else NAN),
            _num((wait + est) / est if est > 0 else NAN),
            rc, sc, f"{rc} {sc}" if rc and sc else "", rc4 + sc4 if rc4 and sc4 else "",
            "well" if est <= 2.0 * run else "poor",
        ]  # fmt: skip
        lines.append(",".join(row))
    path.write_text("\n".join(lines) + "\n")


def _half_up(x: float) -> float:
    """Whole seconds, half up (schedsim's SWF writer)."""
    return float(math.floor(x + 0.5))


def _fmt(value: float) -> str:
    """An SWF value: a whole number without decimals, else its shortest exact form."""
    if value.is_integer():
        return str(int(value))
    text = repr(value)
    if "e" in text or "E" in text:
        text = f"{value:.17f}".rstrip("0").rstrip(".")
    return text


def write_schedule_swf(path: Path, trace: Trace, sched: Schedule, policy: str = "easy") -> None:
    """``schedule.swf``: the trace's fields with the simulated wait, run, size and status."""
    rows = []
    for j, v in enumerate(trace.values):
        start, end, est, size = sched.start[j], sched.end[j], trace.estimate[j], trace.size[j]
        wait, run = _half_up(start - trace.submit[j]), _half_up(end - start)
        w = list(v)
        if w[REQ_PROCS] > 0:
            w[REQ_PROCS] = float(size)
        # Reading the file back must give the same estimate (schedsim's rule).
        if not (w[REQ_TIME] == est if w[REQ_TIME] > 0 else est == run):
            w[REQ_TIME] = est
        w[WAIT], w[RUN], w[ALLOC] = wait, run, float(size)
        w[STATUS] = 1.0 if trace.run[j] <= est else 0.0
        rows.append(w)
    # Each column right-aligned to its widest value: whole numbers as integers (%d
    # prints a whole float as one), other columns as text.
    specs = []
    for c in range(18):
        col = [w[c] for w in rows]
        lo, hi = min(col), max(col)
        if all(map(float.is_integer, col)) and lo > -MAX_ID and hi < MAX_ID:
            specs.append(f"%{max(len(str(int(lo))), len(str(int(hi))))}d")
        else:
            texts = [_fmt(x) for x in col]
            for w, text in zip(rows, texts, strict=True):
                w[c] = text  # type: ignore[call-overload]  # the row is only printed now
            specs.append(f"%{max(map(len, texts))}s")
    fmt = " ".join(specs)
    header = []
    for line in trace.header:
        m = _KEY_RE.match(line.lstrip())
        key = m.group(1) if m else None
        header.append(f"; {key}: {len(rows)}" if key in ("MaxJobs", "MaxRecords") else line)
    header.append(f"; Note: schedule simulated by benchmarks/reference_easy.py (policy: {policy})")
    body = [fmt % tuple(w) for w in rows]
    path.write_text("\n".join(header + body) + "\n")


# ---- command line -------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Read, simulate, write; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="benchmarks/reference_easy.py",
        description="EASY backfilling on an SWF log in plain Python (the benchmark's reference).",
    )
    parser.add_argument("trace", help="an SWF log (.swf or .swf.gz), or a shipped name (ctc, kth)")
    parser.add_argument("--out", type=Path, help="write jobs.csv and schedule.swf here")
    parser.add_argument("--first", type=int, metavar="N", help="keep the first N jobs")
    parser.add_argument("--nodes", type=int, help="machine size (default: the header's)")
    parser.add_argument(
        "--phases", action="store_true", help="print the seconds of read, loop and write"
    )
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    trace = read(resolve(args.trace), args.first)
    t1 = time.perf_counter()
    machine = args.nodes or trace.machine
    if not machine:
        raise SystemExit("reference_easy: the log gives no machine size: give --nodes")
    sched = easy(trace.submit, trace.size, trace.run, trace.estimate, machine)
    t2 = time.perf_counter()
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        write_jobs_csv(args.out / "jobs.csv", trace, sched)
        write_schedule_swf(args.out / "schedule.swf", trace, sched)
    t3 = time.perf_counter()
    if args.phases:
        for name, seconds in (("read", t1 - t0), ("loop", t2 - t1), ("write", t3 - t2)):
            print(f"{name} {seconds:.3f} s")
        print(f"jobs {len(trace.submit)}, passes {sched.passes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
