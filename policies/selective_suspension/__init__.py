"""Selective Suspension (Kettimuthu 2003, seed 000, chapter 3): ``ss``, ``ss-plain``, ``tss``.

An idle job suspends running jobs whose suspension threshold (xfactor) is SF times
lower; a suspended job resumes only on its own nodes. One idea per module:

* `schedsim.policies.selective_suspension.rule`: the rule as the thesis states it,
  plain functions (thresholds, candidates, the width rule, victims, the idle order,
  the preemption routine's ticks) and the readings the thesis leaves open, each
  defined once (`rule.Readings`);
* `schedsim.policies.selective_suspension.plain`: ``ss-plain``, the rule applied
  plainly at every tick, readable on its own: the reference;
* `schedsim.policies.selective_suspension.fast`: ``ss``, the same schedules at a
  fraction of the passes (the tests hold the two equal, job table and piece log);
* `schedsim.policies.selective_suspension.board` and `.ticks`: ``ss``'s bookkeeping
  (the node board of running jobs and suspended homes; the homes, slots and ladder
  of running jobs when the board cannot serve);
* `schedsim.policies.selective_suspension.kernels`: ``ss``'s loops compiled with numba;
* `schedsim.policies.selective_suspension.tunable`: ``tss`` (section 3.5), ``ss``
  with protections.

What SS shares with Immediate Service and gang scheduling (victim sets, claims,
placement off the suspended jobs' homes, `Idle`) is `schedsim.policies.preemption`.
"""
