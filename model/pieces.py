"""The piece log: every stretch of every job's life, on which cores, at which rate.

A job's life is cut into pieces wherever its state, its cores or its rate
change. Each piece is one row (DESIGN.md, "Results"):

``job, attempt, kind, start, end, nodes, cores, size, rate``

``kind``
    ``run``: the job holds its cores and progresses at ``rate``;
    ``overhead``: it holds them without progress (a suspension writing its
    memory out, a restart reading it back, a context-switch penalty);
    ``suspended``: it waits for its home (``nodes`` and ``cores`` name the
    home and the cores it held last, which it does not hold now);
    ``lost``: a run piece of an attempt that a requeue threw away (the
    attempt's overhead and suspended pieces keep their kinds).
``attempt``
    1 for the first start, 2 after a requeue, ...
``nodes``, ``cores``
    Node and core lists in procset's interval syntax (``"0-3 7"``,
    `schedsim.model.cluster.ranges`); with one core per node a core is its
    node and the two are equal. Cores are numbered machine-wide, core ``k``
    of node ``n`` being ``n * cores_per_node + k``.
``size``
    Cores held (or, for a suspended piece, held last).
``rate``
    Work done per second: the run's rate for ``run`` and ``lost`` pieces, 0
    for ``overhead`` and ``suspended`` ones; so a piece's work is
    ``(end - start) * rate`` and a completed job's ``run`` pieces add up to
    its work.

Pieces of no length (a suspension and a resumption at one instant) are not
written. The scheduler opens and closes pieces (`PieceLog.open`,
`PieceLog.close`; a job's cores are `JobRun.cores`); an observer is told
of each piece as it closes, and of a lost attempt's run pieces again, as
``lost``, when the attempt is requeued.

`holding` merges the pieces into the stretches during which a job held one
set of cores, which is what the exports that know no pieces (SWF's partial
executions, Batsim's jobs) can show.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from schedsim.model.cluster import Allocation, ranges

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from schedsim.model.job import JobRun

__all__ = [
    "ENDINGS",
    "HELD",
    "HOLDING_COLUMNS",
    "KINDS",
    "LOST",
    "OVERHEAD",
    "PIECE_COLUMNS",
    "RUN",
    "SUSPENDED",
    "Piece",
    "PieceLog",
    "holding",
]

#: Piece kinds, by code.
KINDS: tuple[str, ...] = ("run", "overhead", "suspended", "lost")
RUN, OVERHEAD, SUSPENDED, LOST = range(4)

PIECE_COLUMNS: tuple[str, ...] = (
    "job", "attempt", "kind", "start", "end", "nodes", "cores", "size", "rate",
)  # fmt: skip
#: The kinds of piece during which a job holds its cores (all but ``suspended``).
HELD: tuple[str, ...] = ("run", "overhead", "lost")
#: What ended a holding interval (`holding`): the job's end (or the end of a partial
#: result), a suspension, or a requeue that threw the attempt away.
ENDINGS: tuple[str, ...] = ("end", "suspension", "requeue")
#: The columns of `holding`'s table.
HOLDING_COLUMNS: tuple[str, ...] = (
    "job", "attempt", "start", "end", "nodes", "cores", "size", "ended_by",
)  # fmt: skip


class Piece(NamedTuple):
    """One piece of one job's life, as an observer is told of it."""

    job: int
    attempt: int
    kind: str
    start: float
    end: float
    #: The cores held (for a suspended piece: the home, not held).
    allocation: Allocation
    #: Machine-wide core ids on nodes of several cores (None with one core per node).
    cores: np.ndarray | None
    rate: float


def node_names(allocations: list[Allocation], cache: dict[int, str]) -> list[str]:
    """The node list of each allocation (`ranges`), each allocation written once.

    Allocations are shared (a job's pieces and its row in the job table, a home
    reused on every resume), so ``cache`` keeps the strings by object.
    """
    out = []
    for a in allocations:
        key = id(a)
        text = cache.get(key)
        if text is None:
            text = cache[key] = ranges(a.nodes)
        out.append(text)
    return out


class PieceLog:
    """Pieces as they close, kept in columns (when ``keep``) and told to ``observer``."""

    def __init__(self, keep: bool = True, observer: Callable[[Piece], None] | None = None) -> None:
        self.keep = keep
        self.observer = observer
        self.active = keep or observer is not None
        self._job: list[int] = []
        self._attempt: list[int] = []
        self._kind: list[int] = []
        self._start: list[float] = []
        self._end: list[float] = []
        self._alloc: list[Allocation] = []
        self._cores: list[np.ndarray | None] = []
        self._rate: list[float] = []

    def __len__(self) -> int:
        return len(self._job)

    def open(self, run: JobRun, kind: int, now: float) -> None:
        """``run`` begins a piece of ``kind`` at ``now`` (the previous one is closed)."""
        run.piece_kind = kind
        run.piece_start = now

    def close(self, run: JobRun, now: float) -> None:
        """End ``run``'s current piece at ``now`` (on its cores, `JobRun.cores`)."""
        kind = run.piece_kind
        if kind < 0:
            return
        run.piece_kind = -1
        start = run.piece_start
        if not now > start or not self.active:
            return
        alloc = run.allocation if kind != SUSPENDED else run.home
        assert alloc is not None
        rate = run.rate if kind == RUN else 0.0
        if self.keep:
            if kind == RUN:
                if run.attempt_rows is None:
                    run.attempt_rows = []
                run.attempt_rows.append(len(self._job))
            self._job.append(run.id)
            self._attempt.append(run.attempts)
            self._kind.append(kind)
            self._start.append(start)
            self._end.append(now)
            self._alloc.append(alloc)
            self._cores.append(run.cores)
            self._rate.append(rate)
        elif kind == RUN:  # to tell the observer again if the attempt is lost
            if run.attempt_rows is None:
                run.attempt_rows = []
            run.attempt_rows.append(
                Piece(run.id, run.attempts, KINDS[kind], start, now, alloc, run.cores, rate)
            )
        if self.observer is not None:
            self.observer(
                Piece(run.id, run.attempts, KINDS[kind], start, now, alloc, run.cores, rate)
            )

    def _columns(self) -> tuple[list, ...]:
        return (
            self._job, self._attempt, self._kind, self._start, self._end,
            self._alloc, self._cores, self._rate,
        )  # fmt: skip

    def lose_attempt(self, run: JobRun) -> None:
        """``run`` was requeued: its current attempt's run pieces become ``lost``."""
        rows, run.attempt_rows = run.attempt_rows, None
        for row in rows or ():
            if isinstance(row, int):
                self._kind[row] = LOST
                if self.observer is not None:
                    self.observer(
                        Piece(
                            self._job[row], self._attempt[row], "lost", self._start[row],
                            self._end[row], self._alloc[row], self._cores[row], self._rate[row],
                        )
                    )  # fmt: skip
            elif self.observer is not None:
                self.observer(row._replace(kind="lost"))

    def frame(
        self,
        cores_per_node: int,
        extra: list[tuple] | None = None,
        names: dict[int, str] | None = None,
    ) -> pd.DataFrame:
        """The pieces as a DataFrame (`PIECE_COLUMNS`), in the order they closed.

        ``extra`` are pieces still open (a partial result), as
        ``(job, attempt, kind code, start, end, allocation, cores, rate)``;
        ``names`` caches node lists by allocation (`node_names`).
        """
        import pandas as pd  # here: a run that keeps no piece log never loads it

        columns = [list(c) for c in self._columns()]
        for row in extra or ():
            for column, value in zip(columns, row, strict=True):
                column.append(value)
        job, attempt, kind, start, end, alloc, core_ids, rate = columns
        nodes = node_names(alloc, {} if names is None else names)
        if cores_per_node == 1:
            cores = nodes
        else:
            cores = [ranges(np.sort(c)) if c is not None else "" for c in core_ids]
        return pd.DataFrame(
            {
                "job": np.array(job, dtype=np.int64),
                "attempt": np.array(attempt, dtype=np.int64),
                "kind": pd.Categorical.from_codes(np.array(kind, dtype=np.int8), KINDS),
                "start": np.array(start, dtype=float),
                "end": np.array(end, dtype=float),
                "nodes": nodes,
                "cores": cores,
                "size": np.array([a.size for a in alloc], dtype=np.int64),
                "rate": np.array(rate, dtype=float),
            }
        )


def holding(pieces: pd.DataFrame) -> pd.DataFrame:
    """The holding intervals of the piece log: the maximal stretches during which a job
    held one set of cores, one row each (`HOLDING_COLUMNS`), by job and start time.

    An interval is a run of consecutive pieces of one job (in time order), within one
    attempt, of kinds `HELD` (run, overhead, lost), each starting where the previous
    one ended and on the same ``cores``: rate changes (contention) and the overheads
    around a suspension are inside it; a suspension (a ``suspended`` piece, or a
    resumption on other cores at the same instant) or a requeue cuts it. ``start``,
    ``end``, ``nodes``, ``cores`` and ``size`` are the interval's (``size``: cores held);
    ``ended_by`` (`ENDINGS`) says what ended it, from the piece of the job that follows
    it: none (``end``: the job ended while holding its cores, or a partial result
    stopped while it did), a piece of a later attempt (``requeue``: the attempt was
    thrown away while the job held its cores), else a suspension (``suspension``: a
    suspended piece follows, or a resumption on other cores at the same instant). A
    job killed or requeued while suspended released its cores by the suspension: its
    interval says ``suspension``.

    This is what a format without pieces can show of a job that was preempted: SWF's
    partial executions and Batsim's resubmitted jobs (`schedsim.app.exports`,
    `schedsim.app.batsim`). Vectorised: an SS run of whole CTC has a few hundred
    thousand pieces.
    """
    import pandas as pd

    n = len(pieces)
    job = pieces["job"].to_numpy(dtype=np.int64)
    start = pieces["start"].to_numpy(dtype=float)
    end = pieces["end"].to_numpy(dtype=float)
    # Time order within each job (a job's pieces never overlap and none has no length).
    order = np.lexsort((end, start, job))
    job, start, end = job[order], start[order], end[order]
    attempt = pieces["attempt"].to_numpy(dtype=np.int64)[order]
    held = np.asarray(pieces["kind"].isin(HELD), dtype=bool)[order]
    cores = pieces["cores"].to_numpy(dtype=object)[order]
    # Whether piece i runs on into piece i + 1 within one interval.
    same_job = job[1:] == job[:-1]
    joins = (
        held[:-1]
        & held[1:]
        & same_job
        & (attempt[1:] == attempt[:-1])
        & (start[1:] == end[:-1])
        & (cores[1:] == cores[:-1])
    )
    first = held.copy()
    first[1:] &= ~joins  # a held piece that does not continue the one before it
    last = held.copy()
    last[:-1] &= ~joins  # a held piece that the next one does not continue
    firsts, lasts = np.flatnonzero(first), np.flatnonzero(last)
    # What follows each interval's last piece: nothing of its job, a later attempt, or
    # a suspension (a suspended piece, or a resumption on other cores at once).
    ended = np.zeros(len(lasts), dtype=np.int8)  # "end"
    more = np.flatnonzero(lasts + 1 < n)
    more = more[job[lasts[more] + 1] == job[lasts[more]]]
    later = attempt[lasts[more] + 1] != attempt[lasts[more]]
    ended[more] = np.where(later, 2, 1)  # "requeue", "suspension"
    rows = order[firsts]
    return pd.DataFrame(
        {
            "job": job[firsts],
            "attempt": attempt[firsts],
            "start": start[firsts],
            "end": end[lasts],
            "nodes": pieces["nodes"].to_numpy(dtype=object)[rows],
            "cores": cores[firsts],
            "size": pieces["size"].to_numpy(dtype=np.int64)[rows],
            "ended_by": pd.Categorical.from_codes(ended, ENDINGS),
        }
    )
