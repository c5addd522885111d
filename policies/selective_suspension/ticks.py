"""When could an idle job first preempt? The machinery that lets SS skip idle ticks.

Selective Suspension's preemption routine (seed 000, section 3.2) runs at
every multiple of the interval while a job is idle; the rule it applies
(section 3.3) is in `schedsim.policies.selective_suspension.rule`. Most of those ticks can
start nothing, and the accelerated SS (`schedsim.policies.selective_suspension.fast`)
skips them: the thresholds of running jobs are constant and those of idle
jobs grow linearly, so the first tick at which a job's threshold can exceed
SF times the highest threshold among the jobs it would need (the
lowest-threshold running jobs it may suspend by the width rule that make
up its size; for a re-entry, the jobs on its home) is known in advance,
and between events nothing else changes. This module holds what that
planning reads when the board (`schedsim.policies.selective_suspension.board`) cannot serve
(several cores per node, a suspension overhead):

* `Ladder`: the running jobs by threshold, and for idle jobs the earliest
  time each could preempt (`Ladder.earliest`); every bound is a necessary
  condition, so a tick before it can start nothing. A suspended job's bound
  is its home's: the jobs a re-entry would suspend (with several cores per
  node, those the pass would take for the cores its home lacks), so that on
  a machine like W1's (Zeng & Sodan 2009, nodes of 4 cores) a tick is not
  planned for a job stuck behind a job it cannot out-rank;
* `Homes`: the home cores of suspended jobs as flat arrays (which homes
  are free, cores per node to keep fresh jobs off), kept across passes as
  jobs leave and join;
* `columns`: sizes, estimates, submit times, run times so far and ids of
  jobs, as arrays for the vector tests; `Slots`: the board's suspended
  jobs, fetched one by one.

Nothing here changes a schedule: the tests compare the accelerated ``ss``
with ``ss-plain``, which has a pass at every tick.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import compress
from operator import attrgetter

import numpy as np

from schedsim.model.cluster import Allocation
from schedsim.model.policy import View
from schedsim.model.view import JobView
from schedsim.policies.selective_suspension.rule import Protection, Width, running_order

# `schedsim.policies.selective_suspension.kernels` (numba, about a second to import) is
# imported inside the functions that call it: listing the policies imports this module,
# and need not load numba.

__all__ = ["NO_HOMES", "Homes", "Ladder", "Slots", "columns", "row", "thresholds"]

_ID = attrgetter("id")


def row(job: JobView) -> tuple[float, float, float, float, float]:
    """Size, estimate (at least 1e-9), submit time, run time so far and id of ``job``."""
    return (job.size, max(job.estimate, 1e-9), job.submit, job.run_time_done, job.id)


def columns(
    jobs: Sequence[JobView], rows: dict[int, tuple] | None = None
) -> tuple[np.ndarray, ...]:
    """Sizes, estimates (at least 1e-9), submit times, run times so far and ids of ``jobs``.

    ``rows`` caches `row` by job id (a suspended job's row stays the same
    until it resumes); the jobs' rows are added to it.
    """
    if rows is None:
        table = [row(j) for j in jobs]
    else:
        table = []
        for j in jobs:
            r = rows.get(j.id)
            if r is None:
                r = rows[j.id] = row(j)
            table.append(r)
    if not table:
        empty = np.zeros(0)
        return (empty.astype(np.int64), empty, empty, empty, empty.astype(np.int64))
    a = np.array(table, dtype=float).T
    return (a[0].astype(np.int64), a[1], a[2], a[3], a[4].astype(np.int64))


class Homes:
    """The home cores of suspended jobs, flattened for vector tests (cached by the policies).

    ``rows`` caches the jobs' rows (`row`) across rebuilds: the caller drops a
    job's row when it resumes, as its run time so far changes then.
    """

    def __init__(
        self, jobs: Sequence[JobView], nodes: int, rows: dict[int, tuple] | None = None
    ) -> None:
        self.jobs = tuple(jobs)
        self.key = tuple(map(_ID, jobs))
        homes = [j.home for j in jobs]
        if jobs:
            self.nodes = np.concatenate([h.nodes for h in homes])  # type: ignore[union-attr]
            self.cores = np.concatenate([h.cores for h in homes])  # type: ignore[union-attr]
            self.lengths = np.array([len(h.nodes) for h in homes], dtype=np.int64)  # type: ignore[union-attr]
        else:
            self.nodes = self.cores = self.lengths = np.zeros(0, dtype=np.int64)
        self.per_node = np.bincount(self.nodes, self.cores, minlength=nodes).astype(np.int64)
        self.starts = np.concatenate(([0], np.cumsum(self.lengths[:-1]))).astype(np.int64)
        # What the thresholds need, constant while the jobs stay suspended.
        self.columns = columns(jobs, rows)

    def update(
        self, jobs: Sequence[JobView], nodes: int, rows: dict[int, tuple] | None = None
    ) -> Homes:
        """The homes of ``jobs``, reusing these arrays when ``jobs`` are some of
        these jobs in the same order, then new ones (the order in which the
        scheduler keeps suspended jobs)."""
        key = tuple(map(_ID, jobs))
        keep = np.fromiter(map(set(key).__contains__, self.key), bool, len(self.key))
        kept = tuple(compress(self.key, keep))
        k = len(kept)
        if key[:k] != kept:
            return Homes(jobs, nodes, rows)
        added = jobs[k:]
        out = Homes.__new__(Homes)
        out.jobs, out.key = tuple(jobs), key
        lost = k < len(self.key)
        slots = np.repeat(keep, self.lengths) if lost else None
        mine = (self.nodes, self.cores, self.lengths, *self.columns)
        if lost:
            mine = tuple(a[slots] for a in mine[:2]) + tuple(a[keep] for a in mine[2:])
        out.per_node = self.per_node.copy()
        if lost:
            gone = ~slots  # type: ignore[operator]
            out.per_node -= np.bincount(self.nodes[gone], self.cores[gone], minlength=nodes).astype(
                np.int64
            )
        if added:
            homes = [j.home for j in added]
            theirs = (
                np.concatenate([h.nodes for h in homes]),  # type: ignore[union-attr]
                np.concatenate([h.cores for h in homes]),  # type: ignore[union-attr]
                np.array([len(h.nodes) for h in homes], dtype=np.int64),  # type: ignore[union-attr]
                *columns(added, rows),
            )
            np.add.at(out.per_node, theirs[0], theirs[1])
            mine = tuple(np.concatenate(pair) for pair in zip(mine, theirs, strict=True))
        out.nodes, out.cores, out.lengths = mine[0], mine[1], mine[2]
        out.columns = tuple(mine[3:])
        out.starts = np.concatenate(([0], np.cumsum(out.lengths[:-1]))).astype(np.int64)
        return out

    def free(self, avail: np.ndarray) -> np.ndarray:
        """For each job: whether every core of its home is in ``avail``."""
        if not len(self.key):
            return np.zeros(0, dtype=bool)
        return np.logical_and.reduceat(avail[self.nodes] >= self.cores, self.starts)


NO_HOMES = Homes((), 0)


class Slots:
    """The board's suspended jobs in the order of ``slots``, each fetched only when
    asked for (a pass tries a few of hundreds)."""

    def __init__(self, jobs: list[JobView | None], slots: list[int]) -> None:
        self._jobs = jobs
        self._slots = slots

    def __len__(self) -> int:
        return len(self._slots)

    def __getitem__(self, k: int) -> JobView:
        job = self._jobs[self._slots[k]]
        assert job is not None
        return job


def thresholds(jobs: Sequence[JobView], now: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sizes, estimates and thresholds now of idle ``jobs``."""
    # Column by column: a pass's few queued jobs cost less this way than as a table.
    est = [max(j.estimate, 1e-9) for j in jobs]
    taus = [(now - j.submit - j.run_time_done + e) / e for j, e in zip(jobs, est, strict=True)]
    return (
        np.array([j.size for j in jobs], dtype=np.int64),
        np.array(est, dtype=float),
        np.array(taus, dtype=float),
    )


class Ladder:
    """The running jobs by threshold: when could an idle job first preempt?

    ``entries`` are ``(threshold, job, allocation)`` of the running jobs,
    sorted by threshold then id; ``avail`` the free cores per node; ``sf``
    and ``width`` SS's parameters; ``protected`` TSS's protection (None:
    none); ``key`` what the caller caches the ladder by. Every bound here is
    a necessary condition (width restrictions of fresh jobs are left out),
    so a tick before `earliest` can start nothing: skipping it leaves the
    schedule unchanged.
    """

    def __init__(
        self,
        entries: list[tuple[float, JobView, Allocation | None]],
        avail: np.ndarray,
        view: View,
        sf: float,
        width: Width,
        protected: Protection,
        key: object,
    ) -> None:
        self.key = key
        self.sf = sf
        self.width = width
        self.entries = entries
        #: homes key -> bars of those suspended jobs (they depend on nothing else).
        self._home_cache: dict[tuple[int, ...], np.ndarray] = {}
        self._per_node: tuple[np.ndarray, np.ndarray] | None = None
        self.avail = avail.copy()  # the caller goes on changing its own
        self.free = int(avail.sum())
        self.view = view
        if protected is not None:
            self.protected = [protected(r, t) for t, r, _ in entries]
            open_ = [e for e, p in zip(entries, self.protected, strict=True) if not p]
        else:
            self.protected = [False] * len(entries)
            open_ = entries
        self.taus = np.array([e[0] for e in open_] + [math.inf], dtype=float)
        self.widths = np.array([e[1].size for e in open_], dtype=np.int64)

    def earliest(
        self,
        sizes: np.ndarray,
        est: np.ndarray,
        taus: np.ndarray,
        nf: int,
        homes: Homes,
        now: float,
    ) -> np.ndarray:
        """For each idle job (fresh ones first, ``nf`` of them, then ``homes``' jobs),
        the first time its threshold may be high enough to preempt."""
        # A fresh job needs the lowest-threshold jobs it may suspend (by the
        # width rule) that, with the free cores, make up its size: the last
        # of them sets the bar. Exact for a fresh job (`rule.choose_victims`
        # takes the same jobs), so no tick is spent on one that cannot preempt.
        # A suspended job's bar is its home's instead (`_home_bars`,
        # `_shared_home_bars`): exact too.
        by_home = len(homes.key) > 0
        ladder = slice(0, nf) if by_home else slice(None)
        from schedsim.policies.selective_suspension import kernels

        rule = kernels.RULES[self.width]
        bar = kernels.fresh_bars(sizes[ladder], self.free, self.taus, self.widths, rule)
        if by_home:
            bar = np.concatenate((bar, np.empty(len(sizes) - nf)))
            cached = self._home_cache.get(homes.key)
            if cached is None:
                if self.view.cores_per_node == 1:
                    cached = self._home_bars(sizes[nf:], homes)
                else:
                    cached = self._shared_home_bars(sizes[nf:], homes)
                self._home_cache[homes.key] = cached
            bar[nf:] = cached
        with np.errstate(invalid="ignore"):
            return now + (self.sf * bar - taus) * est

    def _nodes(self) -> tuple[np.ndarray, np.ndarray]:
        """Per node: the threshold and width of the job on it.

        Free nodes have threshold -inf and width 0; nodes held otherwise (a
        job switching out, a claim) and those of protected jobs +inf: no
        suspended job can re-enter over them.
        """
        if self._per_node is None:
            n = len(self.avail)
            tau = np.where(self.avail > 0, -math.inf, math.inf)
            width = np.zeros(n, dtype=np.int64)
            alloc_nodes = [a.nodes for _, _, a in self.entries]  # type: ignore[union-attr]
            counts = [len(x) for x in alloc_nodes]
            where = np.concatenate(alloc_nodes)
            taus = [
                math.inf if p else t
                for (t, _, _), p in zip(self.entries, self.protected, strict=True)
            ]
            tau[where] = np.repeat(taus, counts)
            width[where] = np.repeat([r.size for _, r, _ in self.entries], counts)
            self._per_node = (tau, width)
        return self._per_node

    def _shared_home_bars(self, sizes: np.ndarray, homes: Homes) -> np.ndarray:
        """Several cores per node: a suspended job re-enters by suspending, in the pass's
        order of running jobs (`rule.running_order`), those that hold a core its home
        lacks, all of which must be its candidates (`rule.choose_victims`): the highest
        threshold among them is its bar (`kernels.home_bars_shared`)."""
        from schedsim.policies.selective_suspension import kernels

        order = sorted(
            range(len(self.entries)),
            key=lambda i: running_order(self.entries[i][:2]),
        )
        allocs = [self.entries[i][2] for i in order]
        e_nodes = np.concatenate([a.nodes for a in allocs])  # type: ignore[union-attr]
        e_cores = np.concatenate([a.cores for a in allocs])  # type: ignore[union-attr]
        e_starts = np.zeros(len(order) + 1, dtype=np.int64)
        np.cumsum([len(a.nodes) for a in allocs], out=e_starts[1:])  # type: ignore[union-attr]
        e_tau = np.array(
            [math.inf if self.protected[i] else self.entries[i][0] for i in order], dtype=float
        )
        e_width = np.array([self.entries[i][1].size for i in order], dtype=np.int64)
        h_starts = np.append(homes.starts, len(homes.nodes))
        return kernels.home_bars_shared(
            self.avail, e_nodes, e_cores.astype(np.int64), e_starts, e_tau, e_width,
            homes.nodes, homes.cores.astype(np.int64), h_starts, sizes,
            kernels.RULES[self.width],
        )  # fmt: skip

    def _home_bars(self, sizes: np.ndarray, homes: Homes) -> np.ndarray:
        """One core per node: every job on a suspended job's home must be its candidate."""
        tau, width = self._nodes()
        nodes, starts = homes.nodes, homes.starts
        top = np.maximum.reduceat(tau[nodes], starts)
        stuck = np.zeros(len(starts), dtype=bool)
        if self.width == "text":
            stuck |= np.maximum.reduceat(width[nodes], starts) > 2 * sizes
        elif self.width == "formula":
            # Stuck behind a job at most half its width (free nodes hold none).
            w = width[nodes]
            narrow = (w > 0) & (2 * w <= np.repeat(sizes, homes.lengths))
            stuck |= np.logical_or.reduceat(narrow, starts)
        return np.where(stuck, math.inf, np.maximum(top, 0.0))
