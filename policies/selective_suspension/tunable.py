"""Tunable Selective Suspension (TSS, seed 000 section 3.5): SS, but no victim past its limit.

Section 3.5 tunes SS (`schedsim.policies.selective_suspension.rule`) to bound the worst
cases: "preemption of a job is disabled when its threshold exceeds [its]
limit", 1.5 times the average slowdown of the job's category (section
3.5.1: a victim T_j needs τ_j ≤ 1.5 × SD_avg(category(T_j))). Here a
running job whose threshold exceeds ``limit`` (1.5) times the average
slowdown of its category cannot be suspended; everything else is SS.

The category (Table 2.1, `category`: run time 0-10 min / 10 min-1 h /
1-8 h / > 8 h by processors 1 / 2-8 / 9-32 / > 32) of a running job is
taken from its estimate, the run time a scheduler knows. The averages are,
by default, **tracked online**: the mean bounded slowdown (section 2.2) of
the jobs of each category that have finished so far in this run, by their
actual run time; a category with no finished job yet sets no limit. With
``averages=FILE`` they come from a table instead (`read_averages`), for
example the per-category average slowdowns of an earlier NS (EASY) run, as
the thesis's Table 2.3: a CSV in the layout
`schedsim.model.results.Result.category_table` writes (rows VS/S/L/VL,
columns Seq/N/W/VW); ``averages="thesis"`` takes Table 2.3 itself
(`TABLE_2_3`). Which the thesis meant is a reading: section 3.5 says "the
average slowdown of the category that the job belongs to" after
presenting SS's averages, and Table 2.3 gives NS's; the online averages are
the scheme's own as it runs, the only ones a real scheduler would have.

**Re-entry** (``reentry``), a reading the thesis leaves open: whether the
protection also keeps a suspended job from suspending the protected jobs on
its home to re-enter.

* ``"blocked"`` (the default, today's): section 3.5.1 gives the victim set P
  of section 3.3 with τ_j ≤ 1.5 × SD_avg(category(T_j)) added, and section
  3.3 states P "for both of the above scenarios", a fresh job and "a
  previously suspended task attempting reentry": a protected job is
  suspended by neither. Two things follow from the text. A job suspended at
  threshold 1 (it started at once; a running job's threshold stays constant,
  section 3.1) cannot be protected from that suspension: τ_j = 1 ≤ 1.5 ×
  SD_avg whatever its category, a slowdown being at least 1 (its limit is
  1.5 at the lowest). And once suspended it waits for as long as a protected
  job runs on its home, however high its own threshold grows. (On the study's
  CTC month with accurate estimates, the worst cases of the narrow short
  categories under ``tss`` are such jobs, but what keeps them out is section
  3.2's width rule, not the protection: VS W job 6562, 78 s run, waits 64,390 s
  suspended under the 64-processor job 5687 that re-entered on its home, out
  of a 9-processor job's reach; S Seq job 5524 and VS N job 5227 likewise
  under 128- and 64-processor jobs. No reading of ``reentry`` changes that; with
  ``hold="all"`` the three make one schedule there, no re-entering job meeting a
  protected one. Section 3.3's formula, ``width="formula"``, reads the width rule the
  other way, n_i / n_j < 2, so that a narrow job may suspend a wider one; the study,
  papers/kettimuthu2003/study.toml, runs TSS under it too.)
* ``"limit"``: section 3.5's own words, "Preemption of a job is disabled
  when its threshold exceeds this limit", read for a suspended job too: its
  threshold grows while it is suspended (section 3.1), and once past its own
  limit (``limit`` × its category's average) its preemption is to end, so
  the protection of the jobs on its home no longer keeps it out: it
  re-enters by suspending them as under SS (still τ_i > SF × τ_j and the
  width rule, section 3.3). Of two jobs past their limits, the suspended one
  gets its own nodes back.
* ``"open"``: section 3.5.1 writes the restricted P for "Task T_i" without
  section 3.3's "for both of the above scenarios": the protection is read
  as one against fresh jobs only, and a re-entering job suspends the jobs on
  its home as under SS.

With ``"limit"`` or ``"open"`` ``tss`` runs its protection on the plain rule
(`PlainTunableSelectiveSuspension`): the board's shields hold against every idle job.

The protection is `CategoryLimit`, a mixin that fills in SS's hooks
(``observe``, ``protected``, ``protection_version``, ``protection_changes``);
`TunableSelectiveSuspension` puts it on the accelerated SS
(`schedsim.policies.selective_suspension.fast`), and
`PlainTunableSelectiveSuspension` on the plain one: the schedule ``tss`` makes with
``reentry`` other than ``"blocked"``, and the reference the tests check ``tss``
against (with ``hold``, the only reading of SS's it takes, ``tss`` runs its own).
A running job's threshold is constant, so its protection changes only when its
category's average moves: with online averages, when a job of that category
ends (never with a table). The accelerated SS asks again only for the running
jobs of those categories (`CategoryLimit.protection_changes`) and keeps the
answers on its board, where a protected job is out of every idle job's reach.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Literal, get_args

import numpy as np

from schedsim.model.categories import RUNTIME_CLASSES, RUNTIME_EDGES, SIZE_CLASSES, SIZE_EDGES
from schedsim.model.policy import Decision, Resume, Start, Suspend, View, register
from schedsim.model.view import JobView, State
from schedsim.policies.selective_suspension.fast import SelectiveSuspension
from schedsim.policies.selective_suspension.plain import PlainSelectiveSuspension
from schedsim.policies.selective_suspension.rule import (
    READINGS,
    TEXT_READINGS,
    Hold,
    Protection,
    Width,
)

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.policies.selective_suspension.board import HomeBoard

__all__ = [
    "TABLE_2_3",
    "CategoryLimit",
    "PlainTunableSelectiveSuspension",
    "Reentry",
    "TunableSelectiveSuspension",
    "category",
    "read_averages",
]

#: Whether the protection keeps a suspended job from re-entering over protected jobs:
#: always (the text's), not once its own threshold is past its limit, or never (module
#: docstring, "Re-entry").
Reentry = Literal["blocked", "limit", "open"]

#: Seed 000, section 2.2: the bounded slowdown's threshold (seconds).
_BOUND = 10.0


#: Kettimuthu 2003, Table 2.3: NS's average (bounded) slowdown per category, row by row
#: (VS, S, L, VL) and within a row Seq, N, W, VW: the averages of ``averages="thesis"``.
TABLE_2_3: tuple[float, ...] = (
    2.6, 4.76, 13.01, 34.07,
    1.26, 1.76, 3.04, 7.14,
    1.13, 1.43, 1.88, 1.63,
    1.03, 1.05, 1.09, 1.15,
)  # fmt: skip


def category(run_time: float, size: int) -> int:
    """The Table 2.1 category (0-15, row by row) of a job of ``run_time`` and ``size``."""
    r = 0
    while r < 3 and run_time > RUNTIME_EDGES[r]:
        r += 1
    s = 0
    while s < 3 and size > SIZE_EDGES[s]:
        s += 1
    return 4 * r + s


def read_averages(path: str | Path) -> list[float]:
    """The 16 category averages of a CSV in `Result.category_table`'s layout, row by row.

    Errors name the file and the row or column at fault; an empty cell (a
    category with no jobs in the earlier run) sets no limit.
    """
    import pandas as pd

    path = Path(path)
    try:
        table = pd.read_csv(path, index_col=0)
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: cannot read category averages: {exc}") from None
    rows = [str(r) for r in table.index]
    cols = [str(c) for c in table.columns]
    for want, have, what in ((RUNTIME_CLASSES, rows, "rows"), (SIZE_CLASSES, cols, "columns")):
        missing = [w for w in want if w not in have]
        if missing:
            raise ValueError(
                f"{path}: category averages need {what} {', '.join(want)}; missing {missing}"
            )
    out = []
    for r in RUNTIME_CLASSES:
        for c in SIZE_CLASSES:
            value = pd.to_numeric(table.loc[r, c], errors="coerce")
            if isinstance(value, pd.Series):
                raise ValueError(f"{path}: row {r!r} appears more than once")
            if np.isnan(value):
                raw = table.loc[r, c]
                if isinstance(raw, str) and raw.strip():
                    raise ValueError(f"{path}: row {r}, column {c}: not a number: {raw!r}")
                out.append(math.inf)
            elif not value > 0:
                raise ValueError(f"{path}: row {r}, column {c}: must be positive, got {value}")
            else:
                out.append(float(value))
    return out


class CategoryLimit:
    """TSS's protection as SS's hooks: no running job past ``limit`` x its category's average.

    Mixed in before an SS class (`SelectiveSuspension`, or the plain
    `schedsim.policies.selective_suspension.plain.PlainSelectiveSuspension`), whose
    constructor runs first; then `init_limit`.
    """

    #: `protected` may say yes: SS asks it for every candidate.
    protects = True

    def init_limit(self, limit: float, averages: str, reentry: Reentry = "blocked") -> None:
        """Check ``limit`` and ``reentry`` and read ``averages`` (a file, "thesis" for
        Table 2.3, or "" to track them online)."""
        if not (limit > 0 and math.isfinite(limit)):
            raise ValueError(f"limit must be a positive number, got {limit}")
        if reentry not in get_args(Reentry):
            known = " or ".join(map(repr, get_args(Reentry)))
            raise ValueError(f"reentry must be {known}, got {reentry!r}")
        self.limit = float(limit)
        self.averages = averages
        self.reentry: Reentry = reentry
        if averages == "thesis":
            self._table: list[float] | None = list(TABLE_2_3)
        else:
            self._table = read_averages(averages) if averages else None
        self._sum = [0.0] * 16
        self._count = [0] * 16
        #: Categories whose average the last `observe` moved.
        self._moved: set[int] = set()
        #: Category of each job asked about so far, by id (by its estimate: constant).
        self._category: dict[int, int] = {}

    def limit_params(self) -> dict[str, object]:
        return {"limit": self.limit, "averages": self.averages, "reentry": self.reentry}

    def protection_version(self) -> int:
        """Changes whenever `protected` may answer differently: a job finished (online)."""
        return sum(self._count) if self._table is None else 0

    def observe(self, view: View) -> None:
        """Online averages: add the bounded slowdowns of the jobs that ended since."""
        if self._table is not None:
            return
        moved = self._moved = set()
        for job in view.ended:
            self._category.pop(job.id, None)  # asked about while it ran: not again
            run = job.run_time_done
            assert job.end is not None
            wait = job.end - job.submit - run
            bounded = max(run, _BOUND)
            c = category(run, job.size)  # by its actual run time, now known
            self._sum[c] += (wait + bounded) / bounded
            self._count[c] += 1
            moved.add(c)

    def protection_changes(self, view: View) -> list[JobView]:
        """The running jobs whose protection the last `observe` may have changed: those
        of the categories whose average moved."""
        moved = self._moved
        if not moved:
            return []
        known = self._category  # inlined `_category_of`: this runs at most passes
        out = []
        for r in view.running:
            c = known.get(r.id)
            if c is None:
                c = self._category_of(r)
            if c in moved:
                out.append(r)
        return out

    def _category_of(self, job: JobView) -> int:
        # A running job's category, by its estimate (cached: asked at every pass with ends).
        c = self._category.get(job.id)
        if c is None:
            c = self._category[job.id] = category(job.estimate, job.size)
        return c

    def average(self, cat: int) -> float:
        """The average slowdown of category ``cat`` (inf when not known yet)."""
        if self._table is not None:
            return self._table[cat]
        n = self._count[cat]
        return self._sum[cat] / n if n else math.inf

    def protected(self, job: JobView, threshold: float) -> bool:
        """Whether running ``job``, of ``threshold``, is past its category's limit."""
        return threshold > self.limit * self.average(self._category_of(job))

    def protection_for(self, job: JobView, tau: float) -> Protection:
        """The protection against idle ``job`` (threshold ``tau``): `protected`, but for a
        suspended job re-entering with ``reentry="open"``, or with ``"limit"`` once its
        own threshold is past its limit (module docstring, "Re-entry")."""
        if self.reentry == "blocked" or job.state is not State.SUSPENDED:
            return self.protected
        if self.reentry == "open" or self.protected(job, tau):
            return None
        return self.protected


class PlainTunableSelectiveSuspension(CategoryLimit, PlainSelectiveSuspension):
    """TSS's protection on the plain rule: what ``tss`` runs with ``reentry`` other than
    the text's, and the reference the tests check ``tss`` against."""

    def __init__(
        self,
        sf: float = 2.0,
        interval: float = 60.0,
        width: Width = "text",
        hold: Hold = "none",
        limit: float = 1.5,
        averages: str = "",
        reentry: Reentry = "blocked",
    ) -> None:
        super().__init__(sf, interval, width, hold=hold)
        self.init_limit(limit, averages, reentry)

    def params(self) -> dict[str, object]:
        return {**super().params(), **self.limit_params()}


@register("tss")
class TunableSelectiveSuspension(CategoryLimit, SelectiveSuspension):
    """Tunable SS (Kettimuthu 2003): SS, but jobs far beyond their category's slowdown stay put.

    ``limit`` (1.5): a running job whose threshold exceeds ``limit`` times
    the average slowdown of its category cannot be suspended (seed 000
    section 3.5). ``averages``: a CSV of per-category averages (rows
    VS/S/L/VL, columns Seq/N/W/VW, as `schedsim.model.results.Result.category_table`
    writes), or "thesis" for the thesis's Table 2.3; empty (default) tracks them
    online. ``reentry``: whether the protection keeps a suspended job from
    re-entering over protected jobs (``blocked``, default), not once the job is past
    its own limit (``limit``), or never (``open``): see
    `schedsim.policies.selective_suspension.tunable`; with either of the last two TSS
    runs on the plain rule (`PlainTunableSelectiveSuspension`). ``hold`` as SS's; the
    other parameters as SS, with the text's other readings.
    """

    def __init__(
        self,
        sf: float = 2.0,
        interval: float = 60.0,
        width: Width = "text",
        limit: float = 1.5,
        averages: str = "",
        hold: Hold = "none",
        reentry: Reentry = "blocked",
    ) -> None:
        # First: SS's constructor may call `_plain_rule`.
        self.init_limit(limit, averages, reentry)
        super().__init__(sf, interval, width, hold=hold)

    def _reset(self) -> None:
        super()._reset()
        #: The running jobs by category (`category`, by estimate), each as id -> nodes,
        #: and each one's category by id: kept from this policy's decisions and the
        #: view's ends (`_follow_running`), so that a pass whose ends moved a category's
        #: average reshields that category's jobs without looking at the others.
        self._by_category: list[dict[int, np.ndarray]] = [{} for _ in range(16)]
        self._category_running: dict[int, int] = {}
        #: The decisions of the last pass (its starts, resumptions and suspensions).
        self._last_out: list[Decision] = []

    def schedule(self, view: View) -> list[Decision]:
        if self._plain is None:
            self._follow_running(view)
        out = super().schedule(view)
        self._last_out = out
        return out

    def _follow_running(self, view: View) -> None:
        """Bring the running jobs by category up to ``view``: the last pass's starts and
        resumptions join, its suspensions and the jobs ended since leave. Built again
        from the view's running jobs when the count disagrees or a job was requeued."""
        by, where = self._by_category, self._category_running
        for d in self._last_out:
            if isinstance(d, Start):
                assert d.allocation is not None
                c = where[d.job.id] = self._category_of(d.job)
                by[c][d.job.id] = d.allocation.nodes
            elif isinstance(d, Resume):
                assert d.job.home is not None
                c = where[d.job.id] = self._category_of(d.job)
                by[c][d.job.id] = d.job.home.nodes
            elif isinstance(d, Suspend):
                del by[where.pop(d.job.id)][d.job.id]
        self._last_out = []
        for job in view.ended:
            c = where.pop(job.id, -1)
            if c >= 0:
                del by[c][job.id]
        if view.requeued or len(where) != len(view.running):
            by = self._by_category = [{} for _ in range(16)]
            where = self._category_running = {}
            for r in view.running:
                assert r.allocation is not None
                c = where[r.id] = self._category_of(r)
                by[c][r.id] = r.allocation.nodes

    def _reshield(self, view: View, board: HomeBoard) -> None:
        """`SelectiveSuspension._reshield` over the running jobs of the categories whose
        average the last `observe` moved, kept by category (`_follow_running`): each is
        shielded when its threshold exceeds ``limit`` times that average (section 3.5),
        as `protected` answers, the bound computed once per category. The order in which
        jobs are shielded leaves the board the same (each node, home and the ladder
        end as the jobs on them say)."""
        moved = self._moved
        if not moved:
            return
        tau_of, shielded, by = self._running_tau, board.shielded, self._by_category
        for c in sorted(moved):
            limit = self.limit * self.average(c)
            for job_id, nodes in by[c].items():
                tau = tau_of[job_id]
                now = tau > limit
                if now != (job_id in shielded):
                    board.shield(job_id, nodes, tau, now)

    def _runs_plain(self) -> bool:
        # The board's shields hold against every idle job: another reentry is the plain rule's.
        return super()._runs_plain() or self.reentry != "blocked"

    def _plain_rule(self) -> PlainTunableSelectiveSuspension:
        # SS's plain rule has no protection: TSS's own, with this one's limit.
        return PlainTunableSelectiveSuspension(
            self.sf, self.interval, self.width, self.hold, self.limit, self.averages,
            self.reentry,
        )  # fmt: skip

    #: TSS takes ``hold`` of SS's readings and its own ``reentry`` (added after run ids
    #: were published: with the text's, a run keeps its id); the others stay the text's.
    LATER_PARAMS: ClassVar[dict[str, object]] = {
        "hold": TEXT_READINGS["hold"],
        "reentry": "blocked",
    }

    def params(self) -> dict[str, object]:
        ss = {k: v for k, v in super().params().items() if k not in READINGS or k == "hold"}
        return {**ss, **self.limit_params()}
