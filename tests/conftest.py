"""Hypothesis profiles for the test suite.

The default profile, ``repeatable``, is hypothesis's own derandomized: every
run, here and in CI, tries the same examples (each test sets its example
count), so a run that passed once passes again and a failure is the code's,
not the draw's. ``explore`` draws afresh each run, to look for new failing
examples (``--hypothesis-profile=explore``). ``scale`` runs the invariants at
scale (`test_scale`): 10,000 random workloads, each under every registered
policy; choose it with ``--hypothesis-profile=scale`` (README, "Tests").
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore")
settings.register_profile(
    "scale",
    max_examples=10_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# Loaded before the test modules build their settings, which inherit it; the
# hypothesis plugin loads a profile named on the command line after this.
settings.load_profile("repeatable")
