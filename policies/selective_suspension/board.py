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
maxima of the homes it overlaps, and a job that ends or is suspended can
only lower those whose maximum it was, each recomputed exactly once; the
counts move by the nodes shared. It
serves one core per node, where a node is either free or held by one
running job; the accelerated SS (`schedsim.policies.selective_suspension.fast`) uses it when
there is no suspension overhead (a node being written out is neither).

TSS's protections (seed 000, section 3.5) fit in as they are: a running job
past its category's limit can be suspended by no idle job whatever its
threshold, so on the board it is *shielded*, its threshold read as inf (a
home it is on has bar inf, and it comes last on the ladder, where a fresh
job that would need it gets bar inf, as if it were left out). A
protection changes only when a category's average moves, at a job's end;
the few running jobs it changes are then shielded or unshielded
(`HomeBoard.shield`), as if they ended and started again.

Each node lists the slots whose homes cover it, so an event walks only
the homes it touches; the walks are compiled loops
(`schedsim.policies.selective_suspension.kernels`).
"""

from __future__ import annotations

import math

import numpy as np

from schedsim.model.view import JobView
from schedsim.policies.queue_columns import Queued
from schedsim.policies.selective_suspension import kernels
from schedsim.policies.selective_suspension.rule import Width

__all__ = ["HomeBoard"]


_FREE = -math.inf
_FIRST_CAPACITY = 64


class HomeBoard:
    """Per node the running job's threshold and width; per suspended job what its home holds.

    For each suspended job (a *slot*) the board keeps the highest threshold
    on its home (``top``; -inf when the home is free) and how many of its
    home's nodes hold a job out of its reach by SS's width rule (``stuck``;
    see `schedsim.policies.selective_suspension.rule`): with ``width="text"`` a job more than twice
    its width, with ``"formula"`` one at most half its width, with
    ``"none"`` none. Shielded jobs (``shielded``, TSS's protected ones) read
    inf as their threshold.
    """

    def __init__(self, nodes: int, width: Width) -> None:
        if width not in kernels.RULES:
            raise ValueError(f"width must be 'text', 'formula' or 'none', got {width!r}")
        self.width = width
        self.rule = kernels.RULES[width]
        #: Per node: threshold of the job running there (-inf: free).
        self.tau = np.full(nodes, _FREE)
        #: Per node: width of the job running there (0: free).
        self.wide = np.zeros(nodes, dtype=np.int64)
        #: Busy nodes (held by a running job).
        self.busy = 0
        #: Per node: id of the job running there.
        self.owner = np.zeros(nodes, dtype=np.int64)
        #: Ids of the running jobs no idle job may suspend (TSS): threshold inf here.
        self.shielded: set[int] = set()
        #: The running jobs by threshold then id (at most one per node): the
        #: first ``running`` entries of their thresholds (then inf), ids and widths.
        self.running = 0
        self._ladder_tau = np.full(nodes + 1, math.inf)
        self._ladder_id = np.zeros(nodes + 1, dtype=np.int64)
        self._ladder_wide = np.zeros(nodes + 1, dtype=np.int64)
        #: job id -> slot of a suspended job.
        self.slot: dict[int, int] = {}
        self._free_slots: list[int] = []
        self._capacity = 0
        self.jobs: list[JobView | None] = []
        #: Per node: how many homes cover it, and their slots (the first ``node_deg``).
        self.node_deg = np.zeros(nodes, dtype=np.int64)
        self.node_slots = np.zeros((nodes, 0), dtype=np.int64)
        #: Per node: cores of suspended jobs' homes on it. With one core per
        #: node, the count of homes that cover it: the same array.
        self.per_node = self.node_deg
        #: How many suspended jobs have their whole home free (`homes_free`).
        self._free_homes = np.zeros(1, dtype=np.int64)
        #: Per slot: its home's nodes (the first ``lens`` of the row).
        self.homes = np.zeros((0, 1), dtype=np.int64)
        self._grow(_FIRST_CAPACITY)

    def _grow(self, capacity: int) -> None:
        old = self._capacity

        def grown(name: str, fill: float | bool, dtype: type) -> np.ndarray:
            out: np.ndarray = np.full(capacity, fill, dtype=dtype)
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
        self.lens = grown("lens", 0, np.int64)
        homes = np.zeros((capacity, self.homes.shape[1]), dtype=np.int64)
        homes[:old] = self.homes
        self.homes = homes
        # A node is on at most every home at once.
        node_slots = np.zeros((len(self.tau), capacity), dtype=np.int64)
        node_slots[:, :old] = self.node_slots
        self.node_slots = node_slots
        self.jobs.extend([None] * (capacity - old))
        # Lowest slots first, so that the layout does not depend on growth.
        self._free_slots.extend(range(capacity - 1, old - 1, -1))
        self._capacity = capacity

    # -- running jobs --------------------------------------------------------------
    def occupy(
        self, job_id: int, nodes: np.ndarray, tau: float, width: int, shielded: bool = False
    ) -> None:
        """Job ``job_id`` of threshold ``tau`` and ``width`` processors starts or resumes on
        ``nodes``; ``shielded``: no idle job may suspend it (TSS), whatever ``tau``."""
        if shielded:
            self.shielded.add(job_id)
            tau = math.inf
        self.busy += len(nodes)
        # Only raises: the homes it overlaps take the larger value.
        self.running = kernels.occupy(
            nodes, tau, width, job_id, self.rule, self.tau, self.wide, self.owner,
            self.node_slots, self.node_deg, self.top, self.stuck, self.size,
            self._ladder_tau, self._ladder_id, self._ladder_wide, self.running,
            self._free_homes,
        )  # fmt: skip

    def vacate(self, *jobs_nodes: np.ndarray) -> None:
        """The jobs on these node sets (one array each) end or are suspended: they are free."""
        for nodes in jobs_nodes:
            if self.shielded:
                self.shielded.discard(int(self.owner[nodes[0]]))
            self.busy -= len(nodes)
            # Only lowers, and only the homes whose highest threshold was this job's.
            self.running = kernels.vacate(
                nodes, self.rule, self.tau, self.wide, self.owner, self.node_slots,
                self.node_deg, self.top, self.stuck, self.size, self.homes, self.lens,
                self._ladder_tau, self._ladder_id, self._ladder_wide, self.running,
                self._free_homes,
            )  # fmt: skip

    def shield(self, job_id: int, nodes: np.ndarray, tau: float, on: bool) -> None:
        """Running job ``job_id`` (on ``nodes``, of threshold ``tau``) is shielded (``on``)
        or no longer: as if it left its nodes and took them again."""
        width = int(self.wide[nodes[0]])
        self.vacate(nodes)
        self.occupy(job_id, nodes, tau, width, on)

    # -- suspended jobs -------------------------------------------------------------
    def add(self, job: JobView, row: tuple[float, float, float, float, float]) -> None:
        """``job`` is suspended; ``row``: its size, estimate, submit time, run time so far, id."""
        if not self._free_slots:
            self._grow(2 * self._capacity)
        s = self._free_slots.pop()
        home = job.home
        assert home is not None
        nodes = home.nodes
        if len(nodes) > self.homes.shape[1]:
            wider = np.zeros((self._capacity, len(nodes)), dtype=np.int64)
            wider[:, : self.homes.shape[1]] = self.homes
            self.homes = wider
        self.slot[job.id] = s
        self.jobs[s] = job
        self.lens[s] = len(nodes)
        self.active[s] = True
        self.size[s], self.est[s], self.submit[s], self.done[s], self.ids[s] = row
        kernels.add_home(
            s, nodes, self.rule, self.tau, self.wide, self.node_slots, self.node_deg,
            self.top, self.stuck, self.size, self.homes, self._free_homes,
        )  # fmt: skip

    def remove(self, job: JobView) -> None:
        """``job`` resumes: it is no longer suspended."""
        s = self.slot.pop(job.id)
        home = job.home
        assert home is not None
        kernels.remove_home(s, home.nodes, self.node_slots, self.node_deg)
        if self.top[s] == _FREE:
            self._free_homes[0] -= 1
        self.active[s] = False
        self.jobs[s] = None
        self.lens[s] = 0
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

    @property
    def homes_free(self) -> int:
        """How many suspended jobs have every node of their home free (kept event by event:
        most passes have none, and `starts` then looks at no slot)."""
        return int(self._free_homes[0])

    def starts(
        self,
        now: float,
        free: int,
        queued: Queued,
        avail: np.ndarray,
        keep: int = 0,
        head: int = -1,
        kept: np.ndarray | None = None,
    ) -> list[tuple[JobView, np.ndarray | None]]:
        """The idle jobs that start now in a pass with no preemption (`kernels.board_starts`).

        The queued jobs no wider than the ``free`` processors and the suspended
        jobs whose home is all free, in decreasing threshold, then submit
        time, then id, each if it still fits ``avail`` (whose processors it
        takes): a queued job first fit avoiding the suspended jobs' homes, with
        its nodes; a suspended one on its home, with None. Under the reading ``hold``
        (``keep``: `kernels.KEEP_TOP` or `kernels.KEEP_ALL`; ``head``: the slot that
        heads the idle order, or -1) a suspended job that does not fit keeps its
        home's free nodes from the jobs after it, counted in ``kept``
        (`kernels.board_starts_kept`).
        """
        nq = len(queued)
        if keep:
            assert kept is not None
            picks, nodes = kernels.board_starts_kept(
                now, free, *queued.columns(), avail, self.per_node, self.active, self.top,
                self.size, self.est, self.submit, self.done, self.ids, self.homes, self.lens,
                keep, head, kept,
            )  # fmt: skip
        else:
            picks, nodes = kernels.board_starts(
                now, free, *queued.columns(), avail, self.per_node, self.homes_free,
                self.active, self.top, self.size, self.est, self.submit, self.done, self.ids,
                self.homes, self.lens,
            )  # fmt: skip
        out: list[tuple[JobView, np.ndarray | None]] = []
        at = 0
        fresh, held = queued.jobs, self.jobs
        for c in picks.tolist():
            if c < nq:
                job = fresh[c]
                out.append((job, nodes[at : at + job.size]))
                at += job.size
            else:
                held_job = held[c - nq]
                assert held_job is not None
                out.append((held_job, None))
        return out

    def bars(self) -> np.ndarray:
        """Per slot: the threshold a suspended job must exceed (SF times over) to re-enter.

        The highest threshold on its home; 0 when its home is free, inf when
        a job on it is out of its reach by the width rule (seed 000 section
        3.2). The same as `schedsim.policies.selective_suspension.ticks.Ladder._home_bars`.
        """
        bar = np.maximum(self.top, 0.0)
        bar[self.stuck > 0] = math.inf
        return bar

    def ladder(self) -> tuple[np.ndarray, np.ndarray]:
        """The running jobs' thresholds (then inf) and widths, by threshold then id
        (views: valid until the board changes). Shielded jobs come last, at inf: a
        fresh job that would need one gets bar inf, as if they were left out."""
        k = self.running
        return self._ladder_tau[: k + 1], self._ladder_wide[:k]

    @property
    def order(self) -> list[tuple[float, int, int]]:
        """The running jobs as (threshold, id, width), sorted."""
        k = self.running
        return list(
            zip(
                self._ladder_tau[:k].tolist(),
                self._ladder_id[:k].tolist(),
                self._ladder_wide[:k].tolist(),
                strict=True,
            )
        )

    def bars_of(self, jobs: list[JobView]) -> np.ndarray:
        """`bars` for jobs not (yet) on the board, from their homes and sizes."""
        out = np.empty(len(jobs))
        for i, job in enumerate(jobs):
            assert job.home is not None
            out[i] = kernels.home_bar(job.home.nodes, job.size, self.rule, self.tau, self.wide)
        return out
