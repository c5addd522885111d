"""``ss-plain``: Selective Suspension's rule applied plainly, a pass at every tick.

`PlainSelectiveSuspension` is the thesis's rule (seed 000, sections 3.1-3.3) as
`schedsim.policies.selective_suspension.rule` states it, and nothing else: every
pass tries every idle job in turn, in `rule.idle_order`; at a tick (a multiple of
``interval``) a job that does not fit may preempt (`rule.choose_victims`); while a
job stays idle the policy asks for a pass at the next tick. Slow (minutes rather
than seconds on a month of CTC), it is the reference the accelerated ``ss``
(`schedsim.policies.selective_suspension.fast`) is checked against, job table and
piece log (tests/test_selective.py, tests/test_ss_readings.py).
"""

from __future__ import annotations

from schedsim.model.policy import Decision, Policy, Resume, Start, Suspend, View, WakeAt, register
from schedsim.model.view import JobView
from schedsim.policies.preemption import Idle, home_cores
from schedsim.policies.selective_suspension.rule import (
    Parameters,
    check_progress,
    choose_victims,
    hold_home,
    idle_order,
    idle_threshold,
    is_tick,
    next_tick,
    run_threshold,
    running_order,
    running_thresholds,
)

__all__ = ["PlainSelectiveSuspension"]


@register("ss-plain")
class PlainSelectiveSuspension(Parameters, Policy, Idle):
    """Selective Suspension, the plain rule: slow; the reference the accelerated ss is checked against.

    The parameters are those of ``ss`` (`schedsim.policies.selective_suspension.rule.Parameters`):
    ``sf`` the suspension factor, ``interval`` the period of the preemption routine
    in seconds, ``width`` the width restriction (``text``, ``formula`` or
    ``none``), and the readings ``resumed``, ``hold`` and ``prefer``. Every pass
    tries every idle job in turn; at a tick (a multiple of ``interval``) a job that
    does not fit may preempt, and while a job stays idle the policy asks for a pass
    at the next tick. See `schedsim.policies.selective_suspension.plain`.
    """  # noqa: E501 (the first line is what ``schedsim policies`` lists)

    def _reset(self) -> None:
        Idle.__init__(self)
        #: The running jobs' thresholds by id (`running_thresholds`).
        self._tau: dict[int, float] = {}
        #: With ``resumed="start"``: the threshold each started job had at its first start.
        self._first: dict[int, float] = {}

    def schedule(self, view: View) -> list[Decision]:
        now = view.now
        check_progress(self.sf, view)
        self.observe(view)
        tau = self._tau = running_thresholds(self._tau, view)
        # Victims only at a tick, and only among the jobs running at the pass's start.
        running: list[tuple[float, JobView]] = []
        if is_tick(now, self.interval) and tau:
            running = sorted(((tau[r.id], r) for r in view.running), key=running_order)
        # Claims whose victims have written out start first (with an overhead).
        settled = self.claims.settle(view)
        avail = self.claims.avail(view, settled)
        out: list[Decision] = [*settled]
        fresh, held = self.idle(view, {d.job.id for d in settled})
        homes = home_cores(held, view.nodes)  # where fresh jobs keep off while they can
        waiting = False
        for rank, job in enumerate(sorted(fresh + held, key=lambda j: idle_order(j, now))):
            started = self.start_if_free(job, avail, view, homes)
            if started is not None:
                out.append(started)
                continue
            victims = None
            if running:
                tau_i = idle_threshold(job, now)
                victims = choose_victims(
                    job, tau_i, avail, running, self.sf, self._may_suspend,
                    self.protection_for(job, tau_i), self.prefer,
                )  # fmt: skip
            if victims is None:
                waiting = True
                hold_home(avail, job, rank, self.hold)
                continue
            out.extend(self.preempt(job, victims, avail, view))
            chosen = {v.id for v in victims}
            running = [p for p in running if p[1].id not in chosen]
        # Thresholds: those (re)started now keep the one they have now (`run_threshold`).
        for job in view.ended:
            self._first.pop(job.id, None)
        for d in out:
            if isinstance(d, (Start, Resume)):
                resuming = isinstance(d, Resume)
                tau[d.job.id] = run_threshold(d.job, now, resuming, self._first, self.resumed)
            elif isinstance(d, Suspend):
                tau.pop(d.job.id, None)
        # While a job is idle (one suspended now too), the routine runs at the next tick.
        if waiting or any(isinstance(d, Suspend) for d in out):
            tick = next_tick(now, self.interval)
            if tick not in view.timers:
                out.append(WakeAt(tick))
        return out
