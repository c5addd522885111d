"""Invariants at scale: every registered policy on ten thousand random workloads.

Each example draws one random workload (`test_invariants.cases`: 1-30 jobs
on 1-16 cores, many ties; integer times, fractional times on a far clock,
or nodes of 2 or 4 cores) and whether jobs are killed at their estimate,
runs it under every registered policy and checks `invariants.check_invariants`,
which reads the job table and the piece log: never more cores busy on a
node than it has, nor two pieces on one core; no start before submit;
every job ends exactly once; work conserved, with overhead and lost
attempts; a suspended job resumes on its own nodes. The reservations the
backfilling policies grant are checked too (EASY's per pass for its head
job; conservative's never-later guarantee), where jobs are killed at their
estimates (the promise rests on it).

Slow: excluded from the default run. Its size comes from the hypothesis
profile ``scale`` (10,000 examples, registered in ``conftest.py``)::

    pytest -m slow -n 0 tests/test_scale.py -p no:cacheprovider \\
        --hypothesis-profile=scale --hypothesis-show-statistics

Without ``--hypothesis-profile=scale`` it runs the default profile's 100
examples.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from invariants import check_invariants
from test_invariants import (
    OVERFLOW,
    POLICIES,
    Case,
    _conservative_guarantee,
    _easy_pass_keeps_reservation,
    _easy_run,
    cases,
    simulate,
)

#: The three kinds of random workloads of `test_invariants`, drawn in turn.
WORKLOADS = st.one_of(cases(), cases(integral=False), cases(multicore=True))


@OVERFLOW
@pytest.mark.slow
# No example count here: it comes from the profile (see the module docstring).
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(WORKLOADS, st.booleans())
def test_every_policy_on_many_workloads(case: Case, kill: bool) -> None:
    for name in POLICIES:
        result = simulate(case, name, kill_at_estimate=kill)
        check_invariants(result, case.workload, case.cores)
    if kill:
        policy, _ = _easy_run(case, "fcfs")
        _easy_pass_keeps_reservation(policy, case.cores)
        _conservative_guarantee(case)
