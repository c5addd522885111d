"""Hypothesis profiles for the test suite.

The default profile is hypothesis's own (each test sets its example count).
``scale`` runs the invariants at scale (`test_scale`): 10,000 random
workloads, each under every registered policy; choose it with
``--hypothesis-profile=scale`` (README, "Tests").
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "scale",
    max_examples=10_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
