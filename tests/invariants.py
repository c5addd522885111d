"""Invariants every simulated schedule must satisfy, whatever the policy.

`check_invariants` reads only what a run leaves behind (``result.jobs``,
``result.series``, ``result.meta``) and the workload it was given, so it can be
applied to any policy, registered or hand-written. It is a helper module for
the test files, not a test file itself.

Exactness. The checks compare times with ``==`` wherever the float arithmetic
of the simulator is exact, which is the case when every submit time, run time
and estimate of the workload is an integer (below 2**53) and the policy starts
and ends jobs on integers: the clock then only ever holds sums and
differences of integers, which floats represent exactly.
With fractional times, ``run`` is rebuilt from clock readings (``end -
start``), whose rounding is relative to the *clock* (trace seconds, up to
~1e8) rather than to the run time, so those comparisons use `pytest.approx`
with an absolute tolerance of a few units in the last place of the clock
(:func:`clock_approx`). Two checks are exact in every case: no job starts
before its submit time (the scheduler goes out of its way to land on submit
times exactly, see `schedsim.model.scheduler.delay_until`), and ``wait == end -
submit - run`` (the documented definition of the column).
"""

from __future__ import annotations

import math
from collections import namedtuple
from collections.abc import Iterable
from itertools import pairwise

import numpy as np
import pandas as pd
import pytest
from procset import ProcSet

from schedsim.model.results import Result
from schedsim.workloads.workload import Workload

OUTCOMES = frozenset({"completed", "killed_at_limit", "killed", "failed"})


def parse_nodes(text: str) -> list[int]:
    """``"0-3 7"`` -> ``[0, 1, 2, 3, 7]``: a node or core list, parsed by procset.

    The lists are written in procset's interval syntax (what Batsim and evalys
    read); parsing them with procset itself checks that they are. The list
    must also be in its canonical form (ranges ascending, disjoint, not
    adjacent), which is what procset writes back.
    """
    if not isinstance(text, str) or text == "":
        return []
    procs = ProcSet.from_str(text)
    assert str(procs) == text, f"node list {text!r} is not in procset's canonical form"
    return list(procs)


def integral_times(workload: Workload) -> bool:
    """Whether every time in the workload is an integer, so that the run's arithmetic is exact."""
    limit = 2.0**52
    return all(
        float(v).is_integer() and abs(v) < limit
        for j in workload
        for v in (j.submit, j.run_time, j.estimate)
    )


def _tuples(frame: pd.DataFrame) -> list[tuple]:
    """``frame.itertuples(index=False)``, made from whole columns (``tolist``): the
    same named tuples of Python values, without pandas' per-row cost, which was most
    of the time of checking the thousands of tiny runs a test session makes."""
    row = namedtuple("Row", [str(c) for c in frame.columns], rename=True)  # type: ignore[misc]
    return list(map(row._make, zip(*(frame[c].tolist() for c in frame.columns), strict=True)))


def _integral(times: Iterable[float]) -> bool:
    """Whether every time of a schedule's column is an integer (below 2**52); NaN (a
    job that never started or ended in a partial run) is no time and is left out."""
    values = np.asarray(times, dtype=float)
    values = values[~np.isnan(values)]
    return bool(np.all((values == np.floor(values)) & (np.abs(values) < 2.0**52)))


def clock_approx(expected: float, clock: float) -> object:
    """``expected`` up to a few ulps of a clock reading of magnitude ``clock``.

    A run time obtained as ``end - start`` carries the rounding of ``end`` and
    ``start`` (each half an ulp of the clock), so the tolerance scales with the
    clock, not with the (possibly tiny or zero) run time.
    """
    return pytest.approx(expected, rel=1e-12, abs=8 * float(np.spacing(abs(clock) + 1.0)))


def _equal(actual: float, expected: float, clock: float, exact: bool, what: str) -> None:
    if exact:
        assert actual == expected, f"{what}: {actual!r} != {expected!r}"
    else:
        assert actual == clock_approx(expected, clock), f"{what}: {actual!r} != {expected!r}"


def _sweep_peak(starts: np.ndarray, ends: np.ndarray, weights: np.ndarray) -> int:
    """Peak of sum(weights) over intervals [start, end), ends before starts at equal times."""
    if starts.size == 0:
        return 0
    times = np.concatenate([ends, starts])
    deltas = np.concatenate([-weights, weights])
    # lexsort: last key is primary. At equal times, -w (an end) sorts first.
    order = np.lexsort((deltas, times))
    return int(np.cumsum(deltas[order]).max(initial=0))


def _step_at(starts: np.ndarray, ends: np.ndarray, weights: np.ndarray, at: np.ndarray):
    """sum(weights of intervals with start <= t < end) for every t in ``at``."""
    times = np.concatenate([ends, starts])
    deltas = np.concatenate([-weights, weights])
    order = np.lexsort((deltas, times))
    times, level = times[order], np.cumsum(deltas[order])
    idx = np.searchsorted(times, at, side="right") - 1
    return np.where(idx >= 0, level[np.maximum(idx, 0)], 0)


def check_invariants(
    result: Result,
    workload: Workload,
    total_cores: int,
    *,
    kill_at_estimate: bool | None = None,
    unit_rate: bool = True,
    exact: bool | None = None,
) -> None:
    """Assert the schedule in ``result`` is a valid one for ``workload``.

    ``kill_at_estimate`` defaults to the run's own setting (``result.meta``).
    ``unit_rate`` says no job ever ran at a rate other than 1.0 (true of every
    policy without time sharing); only then is ``run`` tied to ``work``.
    ``exact`` (default: the workload's times and the schedule's starts and ends
    are all integers) compares times with ``==``. A policy may put starts off
    the integers on an integral workload: one that plans a zero estimate for an
    instant (`schedsim.policies.planning.conservative.MIN_PLAN`) and waits for
    it, or a coscheduling one that plans with predicted slowdowns (G-LOMARC-TS);
    ``end - start`` is then rounded, and the comparisons are approximate.
    """
    jobs = result.jobs
    meta = result.meta
    if kill_at_estimate is None:
        kill_at_estimate = bool(meta["kill_at_estimate"])
    cores_per_node = int(meta.get("cores_per_node", 1))
    nodes = int(meta.get("nodes", total_cores // cores_per_node))
    assert meta["total_cores"] == total_cores
    if "machine" in meta:
        # Node groups: cores_per_node is the widest node's (check_machine checks each node).
        assert nodes <= total_cores <= nodes * cores_per_node
    else:
        assert nodes * cores_per_node == total_cores
    if exact is None:
        exact = integral_times(workload) and _integral(jobs["start"]) and _integral(jobs["end"])

    # -- every job of the workload ends exactly once --------------------------
    ids = jobs["id"].to_numpy()
    assert len(set(ids.tolist())) == len(ids), "a job id appears twice in result.jobs"
    assert sorted(ids.tolist()) == sorted(j.id for j in workload), "jobs lost or invented"
    by_id = {j.id: j for j in workload}
    assert set(jobs["outcome"]) <= OUTCOMES, f"unknown outcomes {set(jobs['outcome'])}"
    for col in ("start", "end", "run", "wait"):
        values = jobs[col].to_numpy(dtype=float)
        assert np.isfinite(values).all(), f"{col} not finite for some job"

    submit = jobs["submit"].to_numpy(dtype=float)
    start = jobs["start"].to_numpy(dtype=float)
    end = jobs["end"].to_numpy(dtype=float)
    run = jobs["run"].to_numpy(dtype=float)
    size = jobs["size"].to_numpy(dtype=np.int64)
    suspended = jobs["suspensions"].to_numpy() > 0
    requeued = jobs["requeues"].to_numpy() > 0 if "requeues" in jobs else np.zeros(len(jobs), bool)
    plain = ~(suspended | requeued)  # held its nodes from start to end without a break

    # -- the rows describe the workload's jobs --------------------------------
    rows = _tuples(jobs)
    for row in rows:
        job = by_id[row.id]
        assert row.submit == job.submit, f"job {row.id}: submit changed"
        assert row.size == job.size, f"job {row.id}: size changed"
        assert row.estimate == job.estimate, f"job {row.id}: estimate changed"
        assert row.work == job.work, f"job {row.id}: work changed"

    # -- causality: no start before submit (exact), no end before start ------
    early = start < submit
    assert not early.any(), f"jobs started before submit: {ids[early].tolist()}"
    assert (end >= start).all(), f"jobs ending before they start: {ids[end < start].tolist()}"
    assert (run >= 0).all()

    # -- wait is end - submit - run, bit for bit ------------------------------
    assert (jobs["wait"].to_numpy(dtype=float) == end - submit - run).all()

    # -- work conservation and the wall-clock limit ---------------------------
    for row in rows:
        what = f"job {row.id} ({row.outcome}, work {row.work}, estimate {row.estimate})"
        if row.outcome in ("killed", "failed"):  # a kill (policy, outage): ran no longer
            assert row.run <= min(row.work, row.estimate) or not kill_at_estimate, what
            continue
        if kill_at_estimate and unit_rate:
            assert (row.outcome == "killed_at_limit") == (row.work > row.estimate), what
            _equal(row.run, min(row.work, row.estimate), row.end, exact, f"run of {what}")
        elif kill_at_estimate:
            # At other rates, the limit still bounds the run (wall-clock) time.
            if row.outcome == "killed_at_limit":
                _equal(row.run, row.estimate, row.end, exact, f"run of {what}")
            else:
                assert row.run <= row.estimate or row.run == clock_approx(row.estimate, row.end), (
                    what
                )
        else:
            assert row.outcome == "completed", what
            if unit_rate:
                _equal(row.run, row.work, row.end, exact, f"run of {what}")
        if unit_rate and not (row.suspensions or getattr(row, "requeues", 0)):
            # An uninterrupted job runs from its start to its end.
            _equal(row.end - row.start, row.run, row.end, exact, f"end - start of {what}")

    # -- never more cores busy than exist -------------------------------------
    series = result.series
    busy = series["busy_cores"].to_numpy()
    assert (busy >= 0).all() and (busy <= total_cores).all(), "series busy_cores out of range"
    assert (series["busy_nodes"].to_numpy() <= nodes).all()
    if cores_per_node == 1:
        assert (series["busy_nodes"] == series["busy_cores"]).all()
    for col in ("queued", "running", "suspended"):
        assert (series[col].to_numpy() >= 0).all(), f"series {col} negative"
    times = series["time"].to_numpy(dtype=float)
    assert (np.diff(times) >= 0).all(), "series times go backwards"
    if len(times):
        assert times[0] >= workload[0].submit

    # Independently of the series, from the jobs' own intervals.
    peak = _sweep_peak(start[plain], end[plain], size[plain])
    assert peak <= total_cores, f"{peak} cores busy at once on a {total_cores}-core machine"
    # A zero-length job holds its cores for an instant: nothing else may hold them across it.
    for k in np.flatnonzero(plain & (end == start)):
        t = start[k]
        across = plain & (start < t) & (end > t)
        assert size[across].sum() + size[k] <= total_cores, f"job {ids[k]} at {t}: over-full"

    # The series agrees with the jobs (when nothing was preempted): the last row
    # at each time is the state from then on.
    if plain.all() and len(times):
        last = np.r_[times[1:] != times[:-1], True]
        at = times[last]
        got = series.loc[last]
        np.testing.assert_array_equal(got["busy_cores"], _step_at(start, end, size, at))
        ones = np.ones(len(ids), dtype=np.int64)
        np.testing.assert_array_equal(got["running"], _step_at(start, end, ones, at))
        np.testing.assert_array_equal(got["queued"], _step_at(submit, start, ones, at))
        assert (got["suspended"] == 0).all()

    # -- node identity ---------------------------------------------------------
    node_lists = [parse_nodes(text) for text in jobs["nodes"]]
    for jid, k, held in zip(ids, size, node_lists, strict=True):
        assert len(set(held)) == len(held), f"job {jid}: a node listed twice"
        assert all(0 <= n < nodes for n in held), f"job {jid}: node out of range {held}"
        if cores_per_node == 1:
            assert len(held) == k, f"job {jid}: {len(held)} nodes for size {k}"
        else:
            assert math.ceil(k / cores_per_node) <= len(held) <= k, f"job {jid}: nodes {held}"
    _check_node_overlap(ids, start, end, node_lists, plain, cores_per_node)
    if result.pieces is not None:
        check_pieces(result, unit_rate=unit_rate)


#: Piece kinds that hold cores.
HELD = ("run", "overhead", "lost")


def check_pieces(result: Result, unit_rate: bool = True) -> None:
    """Assert the piece log (``result.pieces``) adds up with the job table.

    * every node and core list parses with procset, names existing nodes,
      and the cores lie on the nodes; a piece lasts a positive time;
    * per job, the pieces of one attempt follow one another without gaps or
      overlaps, from the attempt's start to its end (the first attempt from
      ``start``, the last to ``end``), and every piece of an attempt is on the
      same nodes (a suspended job keeps its home); the job's ``nodes`` column
      names the last attempt's;
    * the time and work add up: ``run`` pieces last ``run`` in all and do the
      job's work when it completed (no more when killed), ``lost`` pieces
      last ``lost_run`` and do ``lost_work``, ``overhead`` pieces last
      ``overhead_time`` and ``suspended`` ones ``suspended_time``; a piece's
      work is ``(end - start) * rate``;
    * a suspended piece names the cores the job held last (its home): those
      of the attempt's last piece holding cores before it, if any (a job
      started or resumed and suspended at one instant held them for no time,
      and pieces of no length are not written; after such a hold, which two
      suspended pieces in a row betray, the cores may be other ones of the
      same nodes);
    * capacity: the pieces that hold cores (``run``, ``overhead``, ``lost``)
      never put more on a node than it has cores, nor two pieces on one core
      at once.

    Sums are compared up to a few ulps of the clock per piece.
    """
    pieces = result.pieces
    assert pieces is not None
    meta = result.meta
    cpn = int(meta.get("cores_per_node", 1))
    nodes = int(meta["nodes"])
    assert set(pieces["kind"].astype(str)) <= {"run", "overhead", "suspended", "lost"}
    assert (pieces["end"] > pieces["start"]).all(), "a piece of no length"
    node_of: dict[str, list[int]] = {}
    for text in set(pieces["nodes"]) | set(pieces["cores"]):
        node_of[text] = parse_nodes(text)
    # Plain Python over the rows made from whole columns: thousands of tiny runs are
    # checked in a test session, and pandas' per-row access was most of their time.
    piece_rows = _tuples(pieces)
    for row in piece_rows:
        ns, cs = node_of[row.nodes], node_of[row.cores]
        assert ns and all(0 <= n < nodes for n in ns), f"{row}: nodes out of range"
        assert len(cs) == row.size, f"{row}: {len(cs)} cores for size {row.size}"
        assert sorted({c // cpn for c in cs}) == ns, f"{row}: cores not on its nodes"
        if row.kind in ("overhead", "suspended"):
            assert row.rate == 0.0, f"{row}: an idle piece progresses"
        elif unit_rate:
            assert row.rate == 1.0, f"{row}: rate {row.rate} in a unit-rate run"

    by_job: dict[int, list[tuple]] = {}
    for piece in piece_rows:
        by_job.setdefault(piece.job, []).append(piece)
    for row in _tuples(result.jobs):
        mine = by_job.get(row.id)
        what = f"job {row.id} ({row.outcome})"
        if mine is None:
            assert row.run == 0 and row.lost_run == 0, f"{what}: no pieces"
            continue
        mine.sort(key=lambda p: (p.attempt, p.start, p.end))  # stable, as the log's order
        kind = [str(p.kind) for p in mine]
        t0 = [float(p.start) for p in mine]
        t1 = [float(p.end) for p in mine]
        attempt = [p.attempt for p in mine]
        rate = [float(p.rate) for p in mine]
        node_text = [p.nodes for p in mine]
        core_text = [p.cores for p in mine]
        tol = 8 * (len(mine) + 2) * float(np.spacing(abs(row.end) + 1.0))

        def close(a: float, b: float, label: str, tol=tol, what=what) -> None:
            # pytest.approx(b, rel=1e-9, abs=tol), written out: it is called per piece.
            assert abs(a - b) <= max(1e-9 * abs(b), tol), f"{what}: {label} {a!r} != {b!r}"

        assert min(attempt) >= 1 and max(attempt) <= max(row.attempts, 1), what
        close(t0[0], row.start, "first piece vs start")
        for a in sorted(set(attempt)):
            k = [i for i, at in enumerate(attempt) if at == a]
            for i, j in pairwise(k):
                close(t0[j], t1[i], f"attempt {a}: piece after {t1[i]}")
            moved = {node_text[i] for i in k}
            assert len(moved) == 1, f"{what}: attempt {a} moved: {moved}"
            for i in k:
                if kind[i] != "suspended":
                    continue
                # A job started or resumed and suspended at one instant held its cores
                # for no time: that piece is not written, so look for the last held one.
                # Two suspended pieces in a row have such a hold between them, whose
                # cores (on the same nodes, checked above) nothing written names.
                earlier = [j for j in k if j < i]
                if earlier and kind[earlier[-1]] == "suspended":
                    continue
                before = [j for j in earlier if kind[j] != "suspended"]
                if before:
                    assert core_text[before[-1]] == core_text[i], f"{what}: suspended elsewhere"
        final = max(attempt)
        last = [i for i, at in enumerate(attempt) if at == final]
        if row.outcome != "unfinished":
            close(max(t1[i] for i in last), row.end, "last piece vs end")
        if row.nodes:
            assert node_text[last[0]] == row.nodes, f"{what}: nodes {row.nodes!r}"
        span = {name: 0.0 for name in ("run", "overhead", "suspended", "lost")}
        work = dict(span)
        for k_, a, b, r in zip(kind, t0, t1, rate, strict=True):
            span[k_] += b - a
            work[k_] += (b - a) * r
        close(span["run"], row.run, "run pieces vs run")
        close(span["overhead"], row.overhead_time, "overhead pieces")
        close(span["suspended"], row.suspended_time, "suspended pieces")
        close(span["lost"], row.lost_run, "lost pieces vs lost_run")
        close(work["lost"], row.lost_work, "lost work")
        done = work["run"]
        if row.outcome == "completed":
            close(done, row.work, "run pieces' work vs work")
        else:
            assert done <= row.work * (1 + 1e-9) + tol, f"{what}: more work than the job has"

    # -- capacity, from the pieces that hold cores -----------------------------
    held = pieces[pieces["kind"].astype(str).isin(HELD)]
    if len(held):
        core_ids = [node_of[t] for t in held["cores"]]
        counts = np.array([len(c) for c in core_ids])
        core = np.concatenate(core_ids)
        a = np.repeat(held["start"].to_numpy(dtype=float), counts)
        b = np.repeat(held["end"].to_numpy(dtype=float), counts)
        # Per core: sorted by start, each piece ends before the next begins.
        order = np.lexsort((a, core))
        core, a, b = core[order], a[order], b[order]
        same = core[1:] == core[:-1]
        assert (b[:-1][same] <= a[1:][same]).all(), "two pieces on one core at once"
        node = core // cpn
        ones = np.ones(len(node), dtype=np.int64)
        tt = np.concatenate([b, a])
        dd = np.concatenate([-ones, ones])
        nn = np.concatenate([node, node])
        order = np.lexsort((dd, tt, nn))
        level = np.cumsum(dd[order])
        assert level.max(initial=0) <= cpn, "a node holds more cores than it has"


def _check_node_overlap(
    ids: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    node_lists: Iterable[list[int]],
    plain: np.ndarray,
    cores_per_node: int,
) -> None:
    """No node holds more jobs at once than it has cores (with one core: no overlap).

    Only jobs that held their nodes from start to end (never suspended or
    requeued) are checked; a suspended job frees its nodes in between.
    """
    node_of, t0, t1, owner = [], [], [], []
    for k, held in enumerate(node_lists):
        if plain[k]:
            node_of.extend(held)
            t0.extend([start[k]] * len(held))
            t1.extend([end[k]] * len(held))
            owner.extend([ids[k]] * len(held))
    if not node_of:
        return
    node_arr = np.asarray(node_of, dtype=np.int64)
    t0a, t1a = np.asarray(t0, dtype=float), np.asarray(t1, dtype=float)
    nodes2 = np.concatenate([node_arr, node_arr])
    times = np.concatenate([t1a, t0a])
    deltas = np.concatenate([-np.ones_like(node_arr), np.ones_like(node_arr)])
    # By node, then time, ends first. Each node's events sum to zero, so the
    # global running sum restarts at zero at every node boundary.
    order = np.lexsort((deltas, times, nodes2))
    level = np.cumsum(deltas[order])
    worst = int(level.max(initial=0))
    if worst > cores_per_node:
        i = int(np.argmax(level))
        n, t = nodes2[order][i], times[order][i]
        holders = sorted(
            int(o)
            for o, nn, a, b in zip(owner, node_of, t0, t1, strict=True)
            if nn == n and a <= t < b
        )
        pytest.fail(f"node {n} held by {worst} jobs at {t}: {holders}")
    # Zero-length jobs: nothing else may hold their node across their instant.
    frame = pd.DataFrame({"node": node_arr, "t0": t0a, "t1": t1a, "owner": owner})
    for row in frame[frame["t0"] == frame["t1"]].itertuples(index=False):
        across = frame[
            (frame["node"] == row.node) & (frame["t0"] < row.t0) & (frame["t1"] > row.t0)
        ]
        assert len(across) + 1 <= cores_per_node, (
            f"job {row.owner} ran on node {row.node} at {row.t0} inside jobs {list(across.owner)}"
        )


# --------------------------------------------------------------------------- #
# Preemption: every interval during which a job held its cores
# --------------------------------------------------------------------------- #


class Holding:
    """One interval during which a job held its cores: from a launch to the release.

    A launch is a start or a resume (the restart overhead, if any, is inside
    the interval); the release is the end, a kill, or a suspension once the
    write-out (if any) is over. ``seq`` numbers the launch and ``end_seq``
    the release among all launches and releases of the run, in the order the
    scheduler made them (several can happen at one clock time).
    """

    __slots__ = ("cores", "end", "end_seq", "job", "nodes", "seq", "start")

    def __init__(self, job: int, start: float, seq: int, nodes: tuple, cores: tuple) -> None:
        self.job = job
        self.start = start
        self.seq = seq
        self.nodes: tuple[int, ...] = nodes
        self.cores: tuple[int, ...] = cores
        self.end: float | None = None
        self.end_seq: int | None = None

    def __repr__(self) -> str:
        return (
            f"Holding(job={self.job}, [{self.start}, {self.end}), nodes={list(self.nodes)}, "
            f"cores={list(self.cores)})"
        )


def record_holdings(sim) -> list[Holding]:
    """Record every holding interval of ``sim``'s jobs (call before ``sim.run()``).

    Wraps the instance methods ``_launch`` and ``_release`` of
    ``sim.scheduler`` (by attribute assignment on the instance, each calling
    the original): every start and resume goes through ``_launch`` with the
    allocation already set, and every end, kill and suspension frees its
    cores through ``_release``. The list returned is filled while the
    simulation runs; after ``sim.run()`` every interval is closed.
    """
    scheduler = sim.scheduler
    env = scheduler.env
    log: list[Holding] = []
    open_: dict[int, Holding] = {}
    counter = [0]
    launch, release = scheduler._launch, scheduler._release

    def _next() -> int:
        counter[0] += 1
        return counter[0]

    def recording_launch(run, startup):
        alloc = run.allocation
        assert alloc is not None, f"job {run.id} launched without an allocation"
        assert run.id not in open_, f"job {run.id} launched while it already holds cores"
        held = Holding(
            run.id,
            env.now,
            _next(),
            tuple(int(n) for n in alloc.nodes),
            tuple(int(c) for c in alloc.cores),
        )
        open_[run.id] = held
        log.append(held)
        return launch(run, startup)

    def recording_release(run):
        if run.allocation is not None:
            held = open_.pop(run.id, None)
            assert held is not None, f"job {run.id} released cores it never launched on"
            assert tuple(int(n) for n in run.allocation.nodes) == held.nodes, (
                f"job {run.id} released nodes other than those it launched on"
            )
            held.end = env.now
            held.end_seq = _next()
        return release(run)

    scheduler._launch = recording_launch
    scheduler._release = recording_release
    return log


def check_preemption(result: Result, log: list[Holding], total_cores: int) -> None:
    """Assert the holding intervals of a preemptive run (`record_holdings`) are consistent.

    * every job of ``result.jobs`` held cores at least once, and only on its
      own nodes: every interval of a job uses the same allocation (a
      suspended job resumes on its home), the one the ``nodes`` column names;
    * no node ever holds more jobs at once than it has cores, over all the
      intervals, suspended and resumed jobs included (replayed in the order
      the scheduler launched and released them, and by clock time);
    * work is conserved, overhead included: the time a job held its cores is
      ``run + overhead_time``, the gaps between its intervals are its
      ``suspended_time``, and ``end - submit == run + overhead_time +
      suspended_time + (start - submit)``;
    * the first interval begins at ``start``, the last ends at ``end``, and
      ``suspensions`` is the number of intervals less one (a job the policy
      killed while suspended may have one suspension more).

    Times are compared exactly when they are integers, else up to a few
    ulps of the clock per interval.
    """
    jobs = result.jobs
    meta = result.meta
    cores_per_node = int(meta.get("cores_per_node", 1))
    nodes = int(meta.get("nodes", total_cores // cores_per_node))
    assert nodes * cores_per_node == total_cores

    by_job: dict[int, list[Holding]] = {}
    for held in log:
        assert held.end is not None, f"{held} never released"
        assert held.end >= held.start, f"{held} ends before it starts"
        assert held.end_seq is not None and held.end_seq > held.seq
        by_job.setdefault(held.job, []).append(held)
    ids = set(jobs["id"].tolist())
    assert set(by_job) == ids, (
        f"jobs without holdings: {sorted(ids - set(by_job))}; "
        f"holdings of unknown jobs: {sorted(set(by_job) - ids)}"
    )

    # -- capacity: replay launches and releases in the scheduler's order -------
    events = []
    for held in log:
        events.append((held.seq, held.start, held, +1))
        events.append((held.end_seq, held.end, held, -1))
    events.sort(key=lambda e: e[0])
    times = [e[1] for e in events]
    assert all(a <= b for a, b in pairwise(times)), "time goes backwards"
    level = np.zeros(nodes, dtype=np.int64)
    holders: dict[int, set[int]] = {n: set() for n in range(nodes)}
    for _, t, held, sign in events:
        for n, c in zip(held.nodes, held.cores, strict=True):
            assert 0 <= n < nodes, f"{held}: node out of range"
            assert 1 <= c <= cores_per_node, f"{held}: {c} cores on a node"
            level[n] += sign * c
            if sign > 0:
                holders[n].add(held.job)
            else:
                holders[n].discard(held.job)
            assert level[n] <= cores_per_node, (
                f"node {n} over-full at {t}: jobs {sorted(holders[n])}, {level[n]} cores"
            )
        assert (level >= 0).all()
    assert not level.any(), "cores still held at the end of the run"
    # And by clock time alone (ends before starts at one instant), for
    # intervals of positive length: what the times in the records say.
    pos = [h for h in log if h.end > h.start]
    if pos:
        node_ = np.array([n for h in pos for n in h.nodes], dtype=np.int64)
        core_ = np.array([c for h in pos for c in h.cores], dtype=np.int64)
        t0 = np.array([h.start for h in pos for _ in h.nodes], dtype=float)
        t1 = np.array([h.end for h in pos for _ in h.nodes], dtype=float)
        node2 = np.concatenate([node_, node_])
        tt = np.concatenate([t1, t0])
        dd = np.concatenate([-core_, core_])
        order = np.lexsort((dd, tt, node2))
        peak = int(np.cumsum(dd[order]).max(initial=0))
        assert peak <= cores_per_node, f"a node holds {peak} cores at once by the clock"

    # -- per job: home, accounting -----------------------------------------------
    for row in _tuples(jobs):
        spans = sorted(by_job[row.id], key=lambda h: h.seq)
        what = f"job {row.id} ({row.outcome}): {spans}"
        assert not getattr(row, "requeues", 0), f"{what}: requeued (not a preemptive schedule)"
        first = spans[0]
        for held in spans[1:]:
            assert (held.nodes, held.cores) == (first.nodes, first.cores), (
                f"{what}: resumed away from its home"
            )
        assert list(first.nodes) == parse_nodes(row.nodes), f"{what}: nodes column {row.nodes!r}"
        for a, b in pairwise(spans):
            assert b.start >= a.end, f"{what}: intervals overlap"
        exact = all(
            float(v).is_integer()
            for v in (row.submit, row.start, row.end, row.run, row.overhead_time)
        ) and all(float(h.start).is_integer() and float(h.end).is_integer() for h in spans)
        tol = 8 * (len(spans) + 2) * float(np.spacing(abs(row.end) + 1.0))

        def same(
            actual: float, expected: float, label: str, what=what, exact=exact, tol=tol
        ) -> None:
            if exact:
                assert actual == expected, f"{what}: {label} {actual!r} != {expected!r}"
            else:
                assert actual == pytest.approx(expected, rel=1e-12, abs=tol), (
                    f"{what}: {label} {actual!r} != {expected!r}"
                )

        assert first.start == row.start, f"{what}: first interval is not at start {row.start}"
        held_for = sum(h.end - h.start for h in spans)
        same(held_for, row.run + row.overhead_time, "time holding cores vs run + overhead")
        gaps = sum(b.start - a.end for a, b in pairwise(spans))
        if row.outcome == "killed" and row.end > spans[-1].end:
            # Killed while suspended: the last gap runs to the kill.
            gaps += row.end - spans[-1].end
        else:
            assert spans[-1].end == row.end, f"{what}: last interval does not end at {row.end}"
        same(gaps, row.suspended_time, "gaps between intervals vs suspended_time")
        queued = row.start - row.submit
        same(
            row.end - row.submit,
            row.run + row.overhead_time + row.suspended_time + queued,
            "end - submit vs run + overhead + suspended + queued",
        )
        if row.outcome == "killed":
            assert row.suspensions in (len(spans) - 1, len(spans)), what
        else:
            assert row.suspensions == len(spans) - 1, f"{what}: suspensions {row.suspensions}"


def check_machine(result: Result, workload: Workload, machine, log: list[Holding]) -> None:
    """Assert every holding interval (`record_holdings`) kept to the machine of node
    groups (`schedsim.model.machine.Machine`): at every instant no node holds more
    cores than it has, nor more memory (each job's memory per core, SWF field 10,
    times its cores there), and every job ran on its partition's nodes only."""
    from schedsim.model.machine import job_memory

    by_id = {j.id: j for j in workload}
    capacity = machine.capacity
    memory = machine.memory
    events: dict[int, list[tuple[float, int, int, float]]] = {}
    for h in log:
        assert h.end is not None, f"job {h.job}: a holding never closed"
        job = by_id[h.job]
        allowed = machine.nodes_for(job)
        if allowed is not None:
            outside = sorted(set(h.nodes) - set(allowed.tolist()))
            assert not outside, f"job {h.job} ran on nodes {outside}, outside its partition"
        mem = job_memory(job)
        assert sum(h.cores) == job.size, f"job {h.job}: {sum(h.cores)} cores for size {job.size}"
        for n, c in zip(h.nodes, h.cores, strict=True):
            assert 1 <= c <= capacity[n], f"job {h.job}: {c} cores on node {n} of {capacity[n]}"
            # Ends before starts at one instant (-1 sorts first); then the launch order.
            events.setdefault(n, []).append((h.start, 1, c, c * mem))
            events.setdefault(n, []).append((h.end, -1, -c, -c * mem))
    for n, evs in events.items():
        cores, held = 0, 0.0
        for t, _, c, m in sorted(evs, key=lambda e: (e[0], e[1])):
            cores += c
            held += m
            assert cores <= capacity[n], (
                f"node {n}: {cores} cores held at {t}, it has {capacity[n]}"
            )
            if memory is not None:
                assert held <= memory[n] * (1 + 1e-9), (
                    f"node {n}: {held:.0f} KB held at {t}, it has {memory[n]:.0f}"
                )
