"""CREASY, criticality-based EASY (Shmueli & Feitelson; seed 002 section 2).

Users keep a session going with a probability that falls with the response
time of their jobs (seed 002 section 2, Equation 1)::

    p(rt) = 0.8 / (0.05 * rt + 1)                                  (1)

with ``rt`` in minutes (seed 002 does not print the unit of Equation 1; the
minute is the unit of its slope 0.05 in the user model it comes from, see
``workload-models.md`` section 4). CREASY "uses the derivative of Equation
1 to assign high priorities to critical jobs whose *expected response time*
is short, and lower priorities to those whose effect on user behavior is
already marginal" (Equation 1 itself is
`schedsim.workloads.users.continue_probability`), and orders the queue by (Equation 2)::

    priority(j) = alpha * criticality(j) + seniority(j)            (2)

What this module computes, and why:

* **Expected response time** (footnote 3): "the sum of the time the job has
  already spent in the scheduler's queue, and the time it is expected
  [to] run, which is based on a user estimate", i.e. ``wait + estimate``,
  in minutes, re-evaluated at every scheduling pass.
* **Criticality** is the *magnitude* of the derivative of Equation 1 at the
  expected response time::

      criticality = |dp/drt| = 0.8 * 0.05 / (0.05 * rt + 1) ** 2   [1/min]

  The derivative itself is negative everywhere; the paper wants high
  priority for jobs "whose expected response time is short" and says the
  factor "assigns high priorities to the critical jobs", and the magnitude
  is what is largest at short ``rt`` (0.04 per minute at rt = 0, 0.01 at
  20 minutes, 0.0025 at an hour). Used with its sign, alpha > 0 would
  instead favour the longest jobs. As a job waits, its ``rt`` grows and
  its criticality falls, as section 4.2 says: "if short jobs wait for a
  long time in the queue, their priority decreases under CREASY".
* **Seniority** is "the job's waiting time in the scheduler's queue, in
  minutes" (section 2): ``(now - submit) / 60`` for a queued job
  (`JobView.wait`).
* **alpha** "is used to set the relative importance of the two factors ...
  and at the same time to adjust the different units used": criticality is
  a probability per minute, seniority is in minutes, so alpha is in
  minutes squared and ``alpha * criticality`` is a number of minutes of
  seniority. With the paper's values: at alpha = 6000 a job expected to
  respond at once is worth 6000 * 0.04 = 240 minutes of waiting, one of
  expected response 20 minutes 60 minutes, one of an hour 15 minutes, one
  of four hours 1.4 minutes; alpha = 1500, 3000, 4500 scale these by 1/4,
  1/2, 3/4. Priority changes with waiting at the rate
  ``1 - alpha * 0.004 / (1 + 0.05 * rt) ** 3`` per minute: at alpha = 6000
  a job whose expected response is under about 38 minutes *loses*
  priority while it waits, and every other job gains it, which is how
  seniority "prevent[s] the starvation of old jobs".

The queue is ordered by priority, highest first, ties by submit time, then
job id; the pass itself is EASY's (`schedsim.policies.backfilling.EASY`): "CREASY
inherits its backfilling algorithm from EASY. The only actual difference
between the two schedulers is in the way they prioritize the jobs." With
alpha = 0 the order is by waiting time alone, which is submit order, and
CREASY is EASY job for job ("With α = 0 only seniority takes effect, and
CREASY effectively reverts to the original EASY behavior").

Left open by the paper, and chosen here:

* Which jobs get criticality. The rationale (section 2) is "to promote the
  execution of recently submitted short jobs whose owners are still active
  and waiting for them", but Equation 2 gives every job the same formula
  and no condition on the user's session; a trace replay has no sessions
  either. Every queued job gets criticality.
* The reservation. As in EASY, the first job in priority order at a pass
  gets the reservation. Priorities change with time, so another job may
  overtake the reserved one at a later pass and take the reservation (as
  with EASY's ``sjf`` and ``xfactor`` orders, see ``tests/test_invariants``).
* When priorities are evaluated: at scheduling passes only, which happen
  when a job arrives or ends (as in the paper's simulator, section 3:
  "every time a new job arrives or a running job terminates").
* Equation 1's unit. The paper prints none; minutes is the default reading
  (above), ``response_unit = "seconds"`` or ``"hours"`` the others
  (`schedsim.workloads.users.RESPONSE_UNITS`), with Equation 1's constants
  ``continue_at_zero`` (0.8) and ``continue_slope`` (0.05): parameters of the
  policy, set separately from the users' own reading of Equation 1
  (``user_params``). Only the criticality reads them: its argument, the expected
  response, is taken in that unit (``rt_unit = rt_minutes x minutes per unit``), and
  the derivative is per that unit; seniority stays "in minutes", as section 2 says.
  In seconds criticality is spent within a minute of expected response (a quarter
  of its top at 20 seconds), in hours it hardly changes over the one-hour jobs
  (0.036 at an hour against 0.04): either way CREASY orders much as EASY does, and
  minutes is the reading that gives it its strength.
* The default alpha: 6000, the value of the paper's CREASY runs (Figure 5(b)
  "CREASY Scheduler (α = 6000)"; "beyond 6000, improvements in performance
  for CREASY are marginal"). Alpha = 0 is EASY (registered as ``easy``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache
from operator import attrgetter
from typing import ClassVar

import numpy as np

from schedsim.model.machine import Machine
from schedsim.model.policy import Policy, Start, View, register
from schedsim.model.view import JobView
from schedsim.policies.backfilling import EASY
from schedsim.policies.planning.profile import OVERRUN_GRACE
from schedsim.policies.queue_columns import Queued
from schedsim.workloads.users import (
    P_CONTINUE_AT_ZERO,
    SLOPE_PER_MINUTE,
    Continuation,
    ResponseUnit,
    response_unit_seconds,
)

MINUTE = 60.0

#: A process makes its CREASY passes in Python (numpy's `CREASY.ordered`, then EASY's
#: loop) until it has made this many of them (with two jobs or more waiting), and as one
#: compiled loop after (`schedsim.policies.creasy.kernels.creasy_pass`: the same priorities,
#: order, starts and reservation): the loop saves 15-25 microseconds a pass, and
#: loading numba and the loop costs a process about half a second, so a short run
#: never loads them.
PYTHON_BUDGET = 30_000
_spent = 0  # this process's passes against the budget


#: Equation 1's numerator times its slope: the constant `criticality` divides, computed as
#: it computes it.
_SCALE = P_CONTINUE_AT_ZERO * SLOPE_PER_MINUTE


_expected_end = attrgetter("expected_end")
_size = attrgetter("size")


@cache
def _pass_kernel() -> Callable[..., tuple[np.ndarray, int, float, int]]:
    # Imported at the first compiled pass (importing numba takes a while), then kept:
    # an import statement in the pass itself would cost it a few microseconds.
    from schedsim.policies.creasy.kernels import creasy_pass

    return creasy_pass


def criticality(
    rt_minutes: float | np.ndarray,
    slope: float = SLOPE_PER_MINUTE,
    scale: float = _SCALE,
    per_minute: float = 1.0,
) -> float | np.ndarray:
    """``|dp/drt|`` of Equation 1 at expected response time ``rt`` minutes, per unit.

    dp/drt = -0.8 * 0.05 / (0.05 * rt + 1) ** 2; this returns its magnitude,
    largest (0.04) at rt = 0 and falling towards 0 as rt grows. ``slope`` and
    ``scale`` (its numerator, at-zero x slope) are Equation 1's; ``per_minute`` the
    units of Equation 1's response time in a minute (1: minutes, the default reading;
    60: seconds; 1/60: hours), so ``rt`` is read as ``rt_minutes * per_minute`` units
    (times 1.0 is exact: the default reading's numbers are bit for bit the same).
    """
    d = slope * (rt_minutes * per_minute) + 1.0
    return scale / (d * d)


def priority(job: JobView, now: float, alpha: float,
             equation: Continuation | None = None) -> float:  # fmt: skip
    """Equation 2 (seed 002 section 2) for a queued job at clock time ``now`` (seconds).

    ``alpha * criticality(wait + estimate) + wait``, times in minutes; ``equation``:
    Equation 1's reading (None: the paper's, in minutes).
    """
    eq = equation or Continuation()
    wait = job.wait(now) / MINUTE
    per_minute = MINUTE / response_unit_seconds(eq.unit)
    crit = criticality(wait + job.estimate / MINUTE, eq.slope, eq.at_zero * eq.slope, per_minute)
    return float(alpha * crit + wait)


@register("creasy")
class CREASY(EASY):
    """CREASY (Feitelson & Shmueli 2009): EASY, queue ordered by alpha * criticality + seniority.

    ``alpha`` (minutes squared; paper values 0, 1500, 3000, 4500, 6000):
    weight of criticality, ``|dp/drt|`` of Equation 1 at the expected response
    time (wait + estimate, minutes), against seniority, the wait in
    minutes. 0 is EASY. ``response_unit`` (``"minutes"``; ``"seconds"``,
    ``"hours"``), ``continue_at_zero`` (0.8) and ``continue_slope`` (0.05): Equation
    1's reading for the criticality, independent of the users'. See
    `schedsim.policies.creasy.policy`.
    """

    #: Parameters added after run ids were published, with the values that behave as
    #: before (the run ids of studies that do not set them stay the same).
    LATER_PARAMS: ClassVar[dict[str, object]] = {
        "response_unit": "minutes",
        "continue_at_zero": P_CONTINUE_AT_ZERO,
        "continue_slope": SLOPE_PER_MINUTE,
    }

    def __init__(
        self,
        alpha: float = 6000.0,
        response_unit: ResponseUnit = "minutes",
        continue_at_zero: float = P_CONTINUE_AT_ZERO,
        continue_slope: float = SLOPE_PER_MINUTE,
    ) -> None:
        if not (alpha >= 0 and math.isfinite(alpha)):
            raise ValueError(f"alpha must be a non-negative finite number, got {alpha}")
        self.equation = Continuation(float(continue_at_zero), float(continue_slope),
                                     response_unit)  # fmt: skip
        super().__init__("fcfs")
        self.alpha = float(alpha)
        # Equation 1's reading as the criticality computes it: its slope, its numerator
        # (computed as `_SCALE` is, so the default's numbers are the same bit for bit)
        # and the units of its response time in a minute.
        self._slope = self.equation.slope
        self._scale = self.equation.at_zero * self.equation.slope
        self._per_minute = MINUTE / response_unit_seconds(response_unit)
        self._queued: Queued | None = None
        # The queue `_queued` holds the columns of, for this pass only.
        self._synced: tuple[JobView, ...] | None = None
        # The running jobs' planned ends and sizes, for the compiled pass, and the
        # tuple of snapshots they were read from (remade whenever a job starts or ends).
        self._running_of: tuple[JobView, ...] | None = None
        self._run_end = np.zeros(0)
        self._run_size = np.zeros(0, np.int64)

    def params(self) -> dict[str, float | str]:  # type: ignore[override]
        """``alpha``, and Equation 1's reading where it is not the paper's default (so the
        metadata of a default run is as it was before the reading was a parameter)."""
        eq = self.equation
        reading = {"response_unit": eq.unit, "continue_at_zero": eq.at_zero,
                   "continue_slope": eq.slope}  # fmt: skip
        changed = {k: v for k, v in reading.items() if v != self.LATER_PARAMS[k]}
        return {"alpha": self.alpha, **changed}

    def check_machine(self, machine: Machine) -> None:
        """Identical nodes only, unlike EASY: its compiled pass counts cores."""
        Policy.check_machine(self, machine)

    def check_outages(self, windows: bool, machine: Machine | None) -> None:
        """No outages, unlike EASY: its compiled pass counts cores and knows no window."""
        Policy.check_outages(self, windows, machine)

    def schedule(self, view: View) -> list[Start]:
        """EASY's pass over the queue in `ordered`'s order: in Python until this process
        has made `PYTHON_BUDGET` passes with two jobs or more waiting, then as one
        compiled loop (`_compiled_pass`), which decides the same (tested)."""
        global _spent
        self._sync(view)
        if len(view.queue) < 2:
            starts = super().schedule(view)
        elif _spent < PYTHON_BUDGET:
            _spent += 1
            starts = super().schedule(view)
        else:
            starts = self._compiled_pass(view)
        queued = self._queued
        if queued is not None:
            for start in starts:
                queued.drop(start.job.id)
            # After this pass's starts the columns are the next pass's queue, less its
            # arrivals and requeued jobs (`_sync` adds them).
            self._synced = None
        return starts

    def _compiled_pass(self, view: View) -> list[Start]:
        """`EASY.schedule` as one compiled loop (`schedsim.policies.creasy.kernels.creasy_pass`):
        the priorities, the order, the starts, the shadow time and the backfilling, on
        the queued jobs' columns and the running jobs' ends and sizes. It orders only
        the jobs that fit the free cores and the first of the others, all a pass can
        touch: on a loaded closed-loop queue, some 30 of about 100 waiting jobs."""
        running = view.running
        if running is not self._running_of:  # the running jobs changed since the last pass
            n = len(running)
            self._run_end = np.fromiter(map(_expected_end, running), float, n)
            self._run_size = np.fromiter(map(_size, running), np.int64, n)
            self._running_of = running
        queued = self._queued
        assert queued is not None  # `_sync` made it
        size, estimate, submit, done, ids = queued.columns()
        started, head, when, _ = _pass_kernel()(
            size, estimate, submit, done, ids, view.now, self.alpha, self._scale,
            view.free_cores, self._run_end, self._run_size, OVERRUN_GRACE,
            self._slope, self._per_minute,
        )  # fmt: skip
        jobs = queued.jobs
        self.reservation = (jobs[head], when) if head >= 0 else None
        return [Start(jobs[k]) for k in started.tolist()]

    def _sync(self, view: View) -> None:
        """Bring the queued jobs' columns (`schedsim.policies.queue_columns.Queued`) to this pass's
        queue: a queued job's submit time, estimate and run time so far do not change
        while it waits, so only arrivals and requeued jobs are added (starts are dropped
        by `schedule`). Built afresh when the count disagrees (a first pass, a policy
        object run again)."""
        queued = self._queued
        if queued is not None:
            for job in (*view.arrived, *view.requeued):
                if job.id not in queued:
                    queued.add(job)
        if queued is None or len(queued) != len(view.queue):
            queued = self._queued = Queued(view.queue, floor=-math.inf)
        self._synced = view.queue

    def ordered(self, queue: tuple[JobView, ...], now: float) -> Sequence[JobView]:
        """Highest priority first; ties by submit time, then job id.

        The priorities are `priority`'s, computed for the whole queue at once
        (`criticality` on an array) with the same floating-point operations in
        the same order, so the order is the same as sorting by `priority`
        (tested), only faster on the long queues of a loaded closed-loop run. Within a
        pass the columns come from `_sync` rather than from the snapshots, one
        Python-level loop over the queue fewer per column.
        """
        n = len(queue)
        if n < 2:
            return queue
        queued = self._queued
        if queued is not None and self._synced is queue:
            _, estimate, submit, done, ids = queued.columns()
            jobs: Sequence[JobView] = queued.jobs
        else:
            submit = np.fromiter((j.submit for j in queue), float, n)
            done = np.fromiter((j.run_time_done for j in queue), float, n)
            estimate = np.fromiter((j.estimate for j in queue), float, n)
            ids = np.fromiter((j.id for j in queue), np.int64, n)
            jobs = queue
        # A queued job is not running: its wait is now - submit - run time so far.
        wait = (now - submit - done) / MINUTE
        crit = criticality(wait + estimate / MINUTE, self._slope, self._scale, self._per_minute)
        prio = self.alpha * crit + wait
        return [jobs[k] for k in np.lexsort((ids, submit, -prio)).tolist()]
