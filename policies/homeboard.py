"""The suspended jobs' homes against the running jobs, kept up to date event by event.

Selective Suspension (seed 000, section 3.3) lets a suspended job re-enter
only on its own nodes, and only by suspending the jobs on them, so what a
suspended job can do depends on the highest threshold (and the widths) of
the jobs on its home. On a busy machine hundreds of jobs wait suspended at
once, their homes overlapping many times, and recomputing those maxima
from scratch at every scheduling pass is what made SS slow.

`HomeBoard` keeps, per node, the threshold and the width of the job
running there and, per suspended job, the highest threshold on its home
and how many jobs on it are out of its reach by the width rule. An event
changes them cheaply: a job that starts or resumes can only raise the
maxima of the homes it overlaps (one vector operation), and a job that
ends or is suspended can only lower those whose maximum it was, a handful
of homes, recomputed exactly; the counts move by the nodes shared. It
serves one core per node, where a node is either free or held by one
running job; `policies.suspension` uses it when there is no suspension
overhead (a node being written out is neither).
"""

from __future__ import annotations

import math
from bisect import bisect_left, insort
from typing import Literal

import numpy as np

from model.job import JobRun

__all__ = ["HomeBoard"]

#: SS's width rule (`policies.suspension`).
Width = Literal["text", "formula", "none"]

_FREE = -math.inf
_FIRST_CAPACITY = 64


class HomeBoard:
    """Per node the running job's threshold and width; per suspended job what its home holds.

    For each suspended job (a *slot*) the board keeps the highest threshold
    on its home (``top``; -inf when the home is free) and how many of its
    home's nodes hold a job out of its reach by SS's width rule (``stuck``;
    see `policies.suspension`): with ``width="text"`` a job more than twice
    its width, with ``"formula"`` one at most half its width, with
    ``"none"`` none.
    """

    def __init__(self, nodes: int, width: Width) -> None:
        if width not in ("text", "formula", "none"):
            raise ValueError(f"width must be 'text', 'formula' or 'none', got {width!r}")
        self.width = width
        #: Per node: threshold of the job running there (-inf: free).
        self.tau = np.full(nodes, _FREE)
        #: Per node: width of the job running there (0: free).
        self.wide = np.zeros(nodes, dtype=np.int64)
        #: Per node: cores of suspended jobs' homes on it.
        self.per_node = np.zeros(nodes, dtype=np.int64)
        #: Busy nodes (held by a running job).
        self.busy = 0
        #: Per node: id of the job running there.
        self.owner = np.zeros(nodes, dtype=np.int64)
        #: The running jobs as (threshold, id, width), sorted; and a count of changes.
        self.order: list[tuple[float, int, int]] = []
        self.version = 0
        self._ladder: tuple[int, np.ndarray, np.ndarray] | None = None
        #: job id -> slot of a suspended job.
        self.slot: dict[int, int] = {}
        self._free_slots: list[int] = []
        self._capacity = 0
        self.jobs: list[JobRun | None] = []
        self.homes: list[np.ndarray | None] = []
        self.member = np.zeros((nodes, 0), dtype=np.uint8)
        #: Wide enough for how many nodes of a job a home can share.
        self._count = np.uint16 if nodes < 2**16 else np.int64
        self._grow(_FIRST_CAPACITY)

    def _grow(self, capacity: int) -> None:
        old = self._capacity

        def grown(name: str, fill: float | bool, dtype: type) -> np.ndarray:
            out = np.full(capacity, fill, dtype=dtype)
            if old:
                out[:old] = getattr(self, name)
            return out

        self.active = grown("active", False, bool)
        self.top = grown("top", _FREE, float)
        self.stuck = grown("stuck", 0, np.int64)
        self.size = grown("size", 0, np.int64)
        self.est = grown("est", 1.0, float)
        self.submit = grown("submit", 0.0, float)
        self.done = grown("done", 0.0, float)
        self.ids = grown("ids", 0, np.int64)
        member = np.zeros((len(self.tau), capacity), dtype=np.uint8)
        member[:, :old] = self.member
        #: member[node, slot]: 1 if the node is on that suspended job's home (bytes sum
        #: faster than booleans).
        self.member = member
        self.jobs.extend([None] * (capacity - old))
        self.homes.extend([None] * (capacity - old))
        # Lowest slots first, so that the layout does not depend on growth.
        self._free_slots.extend(range(capacity - 1, old - 1, -1))
        self._capacity = capacity

    def _out_of_reach(self, width: int | np.ndarray, size: int | np.ndarray) -> np.ndarray | bool:
        # Seed 000 section 3.2's text: n_i >= n_j / 2; section 3.3's formula: n_i / n_j < 2.
        if self.width == "text":
            return width > 2 * size
        if self.width == "formula":
            return (width > 0) & (2 * width <= size)
        return np.zeros_like(size, dtype=bool) if isinstance(size, np.ndarray) else False

    # -- running jobs --------------------------------------------------------------
    def occupy(self, job_id: int, nodes: np.ndarray, tau: float, width: int) -> None:
        """Job ``job_id`` of threshold ``tau`` and ``width`` processors starts or resumes on
        ``nodes``."""
        self.tau[nodes] = tau
        self.wide[nodes] = width
        self.owner[nodes] = job_id
        self.busy += len(nodes)
        insort(self.order, (tau, job_id, width))
        self.version += 1
        if self.slot:
            # Only raises: the homes it overlaps take the larger value.
            overlap = self.member[nodes].sum(axis=0, dtype=self._count)
            np.maximum(self.top, tau, out=self.top, where=overlap > 0)
            if self.width != "none":
                self.stuck += overlap * self._out_of_reach(width, self.size)

    def vacate(self, *jobs_nodes: np.ndarray) -> None:
        """The jobs on these node sets (one array each) end or are suspended: they are free."""
        firsts = [int(nodes[0]) for nodes in jobs_nodes]
        taus = self.tau[firsts]
        widths = self.wide[firsts]
        owners = self.owner[firsts].tolist()
        for t, owner, w in zip(taus.tolist(), owners, widths.tolist(), strict=True):
            del self.order[bisect_left(self.order, (t, owner, w))]
        self.version += 1
        every = jobs_nodes[0] if len(jobs_nodes) == 1 else np.concatenate(jobs_nodes)
        self.tau[every] = _FREE
        self.wide[every] = 0
        self.busy -= len(every)
        if not self.slot:
            return
        hit = np.zeros(len(self.top), dtype=bool)
        for nodes, tau, width in zip(jobs_nodes, taus.tolist(), widths.tolist(), strict=True):
            overlap = self.member[nodes].sum(axis=0, dtype=self._count)
            if self.width != "none":
                self.stuck -= overlap * self._out_of_reach(width, self.size)
            # Only lowers, and only the homes whose highest threshold was this job's.
            hit |= (overlap > 0) & (self.top == tau)
        redo = np.flatnonzero(hit)
        if len(redo) == 1:
            self.top[redo] = self.tau[self.homes[int(redo[0])]].max()
        elif len(redo):
            # Ties (many jobs start at threshold 1) make these more than a few.
            homes = [self.homes[s] for s in redo.tolist()]
            starts = np.cumsum([0] + [len(h) for h in homes[:-1]])  # type: ignore[arg-type]
            on = self.tau[np.concatenate(homes)]  # type: ignore[arg-type]
            self.top[redo] = np.maximum.reduceat(on, starts)

    # -- suspended jobs -------------------------------------------------------------
    def add(self, job: JobRun, row: tuple[float, float, float, float, float]) -> None:
        """``job`` is suspended; ``row``: its size, estimate, submit time, run time so far, id."""
        if not self._free_slots:
            self._grow(2 * self._capacity)
        s = self._free_slots.pop()
        home = job.home
        assert home is not None
        nodes = home.nodes
        self.slot[job.id] = s
        self.jobs[s] = job
        self.homes[s] = nodes
        self.member[nodes, s] = 1
        self.per_node[nodes] += home.cores
        self.active[s] = True
        self.size[s], self.est[s], self.submit[s], self.done[s], self.ids[s] = row
        self.top[s] = self.tau[nodes].max()
        self.stuck[s] = np.count_nonzero(self._out_of_reach(self.wide[nodes], self.size[s]))

    def remove(self, job: JobRun) -> None:
        """``job`` resumes: it is no longer suspended."""
        s = self.slot.pop(job.id)
        home = job.home
        assert home is not None
        self.member[home.nodes, s] = 0
        self.per_node[home.nodes] -= home.cores
        self.active[s] = False
        self.jobs[s] = None
        self.homes[s] = None
        self.top[s] = _FREE
        self.stuck[s] = 0
        self._free_slots.append(s)

    # -- questions -------------------------------------------------------------------
    def columns(self, slots: np.ndarray) -> tuple[np.ndarray, ...]:
        """Sizes, estimates, submit times, run times so far and ids of ``slots``' jobs."""
        return (
            self.size[slots],
            self.est[slots],
            self.submit[slots],
            self.done[slots],
            self.ids[slots],
        )

    def free_homes(self) -> list[JobRun]:
        """The suspended jobs whose every home node is free."""
        free = np.flatnonzero(self.active & (self.top == _FREE))
        return [self.jobs[s] for s in free.tolist()]  # type: ignore[misc]

    def bars(self) -> np.ndarray:
        """Per slot: the threshold a suspended job must exceed (SF times over) to re-enter.

        The highest threshold on its home; 0 when its home is free, inf when
        a job on it is out of its reach by the width rule (seed 000 section
        3.2). The same as `policies.suspension._Ladder._home_bars`.
        """
        bar = np.maximum(self.top, 0.0)
        bar[self.stuck > 0] = math.inf
        return bar

    def ladder(self) -> tuple[np.ndarray, np.ndarray]:
        """The running jobs' thresholds (then inf) and widths, by threshold then id."""
        if self._ladder is None or self._ladder[0] != self.version:
            taus = np.array([e[0] for e in self.order] + [math.inf])
            widths = np.array([e[2] for e in self.order], dtype=np.int64)
            self._ladder = (self.version, taus, widths)
        return self._ladder[1], self._ladder[2]

    def bars_of(self, jobs: list[JobRun]) -> np.ndarray:
        """`bars` for jobs not (yet) on the board, from their homes and sizes."""
        out = np.empty(len(jobs))
        for i, job in enumerate(jobs):
            assert job.home is not None
            nodes = job.home.nodes
            reach = self._out_of_reach(self.wide[nodes], job.size)
            out[i] = math.inf if np.any(reach) else max(float(self.tau[nodes].max()), 0.0)
        return out

    def earliest(self, now: float, sf: float) -> float:
        """The first time any suspended job may re-enter by preempting (inf: none may).

        Its threshold grows from its xfactor now; it may preempt once that
        exceeds ``sf`` times its bar (`bars`).
        """
        if not self.slot:
            return math.inf
        est = self.est
        taus = (now - self.submit - self.done + est) / est
        with np.errstate(invalid="ignore"):
            when = now + (sf * self.bars() - taus) * est
        return float(when[self.active].min())
