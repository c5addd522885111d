"""Same inputs, same seed: the same result, bit for bit (DESIGN.md, "Randomness").

Every registered policy is run twice on the same workload and seed, in this
process and in fresh interpreters with different hash seeds, and the job
tables must be identical to the last bit. `Simulation.rng` must give one
reproducible, independent stream per (seed, component name).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from schedsim import Simulation
from schedsim.app import registry
from schedsim.workloads.catalog import load
from schedsim.workloads.job import Job
from schedsim.workloads.transforms import first
from schedsim.workloads.workload import Workload

POLICIES = registry.names()
ROOT = Path(__file__).resolve().parent.parent


def synthetic(n: int = 300, cores: int = 16, seed: int = 7) -> Workload:
    """Jobs with many submit-time ties, zero run times and under-estimates.

    Estimates are at least 1 s, clear of the conservative zero-estimate bug
    (see test_invariants.py).
    """
    rng = np.random.default_rng(seed)
    submit = np.cumsum(rng.choice([0, 0, 0, 1, 5, 30], size=n))
    run = rng.integers(0, 500, size=n)
    estimate = np.where(rng.random(n) < 0.8, run + rng.integers(1, 500, size=n), run // 2 + 1)
    size = rng.integers(1, cores + 1, size=n)
    ids = rng.permutation(n) + 1
    jobs = [
        Job(int(i), float(s), float(r), int(k), float(e))
        for i, s, r, k, e in zip(ids, submit, run, size, estimate, strict=True)
    ]
    return Workload.from_jobs(jobs, max_procs=cores)


@pytest.fixture(scope="module")
def kth() -> Workload:
    return first(load("kth"), 1000)


def _run(workload: Workload, policy: str, seed: int, nodes: int | None = None):
    return Simulation(workload, policy, nodes=nodes, seed=seed).run()


@pytest.mark.parametrize("policy", POLICIES)
def test_same_seed_same_jobs_kth(kth: Workload, policy: str) -> None:
    a = _run(kth, policy, seed=3, nodes=100)
    b = _run(kth, policy, seed=3, nodes=100)
    pd.testing.assert_frame_equal(a.jobs, b.jobs, check_exact=True)
    pd.testing.assert_frame_equal(a.series, b.series, check_exact=True)


@pytest.mark.parametrize("policy", POLICIES)
def test_same_seed_same_jobs_synthetic(policy: str) -> None:
    w = synthetic()
    a = _run(w, policy, seed=11)
    b = _run(w, policy, seed=11)
    pd.testing.assert_frame_equal(a.jobs, b.jobs, check_exact=True)
    pd.testing.assert_frame_equal(a.series, b.series, check_exact=True)


def test_run_twice_returns_the_same_result(kth: Workload) -> None:
    sim = Simulation(kth, "easy", nodes=100)
    assert sim.run() is sim.run()


_CHILD = textwrap.dedent(
    """
    import hashlib, sys
    from schedsim import Simulation
    from schedsim.app import registry
    from schedsim.workloads.catalog import load
    from schedsim.workloads.transforms import first

    w = first(load("kth"), 500)
    for name in registry.names():
        jobs = Simulation(w, name, nodes=100, seed=5).run().jobs
        digest = hashlib.sha256(jobs.to_csv(float_format="%r").encode()).hexdigest()
        print(name, digest)
    """
)


def test_bit_for_bit_across_interpreters_and_hash_seeds() -> None:
    # Fresh interpreters with different string-hash seeds: no dependence on set or
    # dict ordering of hashed keys, on memory addresses or on import order.
    outputs = []
    for hash_seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", _CHILD],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0].split()[::2] == POLICIES
    # And the same digests as this process computes.
    w = first(load("kth"), 500)
    here = "".join(
        f"{name} "
        + hashlib.sha256(
            Simulation(w, name, nodes=100, seed=5).run().jobs.to_csv(float_format="%r").encode()
        ).hexdigest()
        + "\n"
        for name in POLICIES
    )
    assert outputs[0] == here


# --------------------------------------------------------------------------- #
# Random streams
# --------------------------------------------------------------------------- #


def _sim(seed: int) -> Simulation:
    return Simulation(
        Workload.from_jobs([Job(1, 0.0, 1.0, 1, 1.0)], max_procs=1), "fcfs", seed=seed
    )


def test_rng_same_seed_same_draws() -> None:
    a = _sim(42).rng("estimates").random(1000)
    b = _sim(42).rng("estimates").random(1000)
    np.testing.assert_array_equal(a, b)
    # Streams are keyed by name: asking again starts the same stream over.
    sim = _sim(42)
    np.testing.assert_array_equal(sim.rng("estimates").random(1000), a)


def test_rng_does_not_depend_on_other_components() -> None:
    # Drawing from one component, or creating others first, leaves a stream alone.
    sim = _sim(42)
    alone = sim.rng("users").integers(0, 1 << 62, size=100)
    sim2 = _sim(42)
    for name in ("arrivals", "estimates", "slowdowns", "priorities"):
        sim2.rng(name).random(10_000)
    np.testing.assert_array_equal(sim2.rng("users").integers(0, 1 << 62, size=100), alone)


def _independent(a: np.ndarray, b: np.ndarray) -> None:
    assert not np.array_equal(a, b)
    assert not np.isin(a, b).any()  # no shared doubles at all
    # Uncorrelated, also with a shift (one stream is not the other one offset).
    n = len(a)
    for lag in (0, 1, 2):
        r = np.corrcoef(a[lag:], b[: n - lag])[0, 1]
        assert abs(r) < 5 / np.sqrt(n), (lag, r)


@pytest.mark.parametrize(
    ("first_name", "second_name"),
    [("arrivals", "estimates"), ("users", "slowdowns"), ("x", "y"), ("a", "A")],
)
def test_rng_different_names_independent(first_name: str, second_name: str) -> None:
    sim = _sim(42)
    _independent(sim.rng(first_name).random(20_000), sim.rng(second_name).random(20_000))


@pytest.mark.parametrize(("s1", "s2"), [(0, 1), (1, 2), (42, 43), (0, 2**32)])
def test_rng_different_seeds_independent(s1: int, s2: int) -> None:
    _independent(_sim(s1).rng("x").random(20_000), _sim(s2).rng("x").random(20_000))


# Regression: streams were keyed by zlib.crc32 of the name, a 32-bit checksum,
# so two names with the same CRC-32 got the very same stream.
def test_rng_names_with_colliding_crc32_still_independent() -> None:
    assert zlib.crc32(b"plumless") == zlib.crc32(b"buckeroo")
    sim = _sim(42)
    _independent(sim.rng("plumless").random(1000), sim.rng("buckeroo").random(1000))
