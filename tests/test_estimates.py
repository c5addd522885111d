"""Models of users' runtime estimates (schedsim.workloads.estimates)."""

from __future__ import annotations

import math
import pickle
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schedsim.workloads import catalog
from schedsim.workloads.estimates import (
    DEFAULT_CRASH_SHARE,
    MIN_MAX_EST,
    EstimateSpec,
    apply_estimates,
    crash,
    default_max_est,
    distinct_estimates,
    exact,
    f_model,
    parse_estimates,
    tsafrir,
    tsafrir_bins,
)
from schedsim.workloads.job import Job
from schedsim.workloads.transforms import exact_estimates, first
from schedsim.workloads.workload import CleaningStep, Workload

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def make(runs, estimates=None) -> Workload:
    estimates = estimates if estimates is not None else [2 * r + 60 for r in runs]
    jobs = [
        Job(i + 1, float(i), float(r), 1 + i % 4, float(e))
        for i, (r, e) in enumerate(zip(runs, estimates, strict=True))
    ]
    return Workload.from_jobs(jobs, name="toy")


def arrays(w: Workload) -> tuple[np.ndarray, np.ndarray]:
    return np.array([j.run_time for j in w]), np.array([j.estimate for j in w])


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def crashed(w: Workload) -> int:
    """Seed 001 Table 1's count: estimate over 1000 s, run under 180 s."""
    runs, ests = arrays(w)
    return int(np.sum((ests > 1000) & (runs < 180)))


def top_share(estimates: np.ndarray, k: int = 20) -> float:
    return sum(n for _, n in Counter(estimates.tolist()).most_common(k)) / estimates.size


times = st.floats(0, 5e5, allow_nan=False) | st.integers(0, 400_000).map(float)
small_workloads = st.lists(st.tuples(times, times), max_size=40).map(
    lambda pairs: make([r for r, _ in pairs], [e for _, e in pairs])
)
seeds = st.integers(0, 2**32 - 1)


@pytest.fixture(scope="module")
def kth() -> Workload:
    return first(catalog.load("kth"), 10_000)


# -- exact ---------------------------------------------------------------------


def test_exact_is_exact_estimates():
    w = make([10, 0, 3600], [20, 5, 3600])
    e = exact(w, rng())
    assert e == exact_estimates(w)
    assert [j.estimate for j in e] == [10, 0, 3600]
    assert e.cleaning == (CleaningStep("exact estimates: estimate = run time", 2),)


# -- f-model -------------------------------------------------------------------


@FAST
@given(w=small_workloads, f=st.floats(0, 50) | st.sampled_from([0.0, 1.0, 3.0]), seed=seeds)
def test_f_model_bounds(w, f, seed):
    out = f_model(w, rng(seed), f)
    runs, ests = arrays(out)
    assert np.all(ests >= runs)
    assert np.all(ests <= (1 + f) * runs * (1 + 1e-12))
    assert [(j.id, j.submit, j.run_time, j.size) for j in out] == [
        (j.id, j.submit, j.run_time, j.size) for j in w
    ]
    changed = sum(a.estimate != b.estimate for a, b in zip(w, out, strict=True))
    assert [s.count for s in out.cleaning[len(w.cleaning) :]] == ([changed] if changed else [])


def test_f_model_on_kth_never_below_run(kth):
    runs, ests = arrays(f_model(first(kth, 3000), rng(), 3.0))
    assert np.all(ests >= runs) and np.all(ests <= 4 * runs)


def test_f_zero_is_exact(kth):
    w = first(kth, 3000)
    out = f_model(w, rng(), 0)
    runs, ests = arrays(out)
    assert np.array_equal(runs, ests)
    assert out.jobs == exact(w).jobs
    assert out.cleaning[-1].name == "estimates: f-model f=0"


@pytest.mark.parametrize("f", [1.0, 3.0, 10.0])
def test_f_model_mean_ratio(kth, f):
    out = f_model(kth, rng(1), f)
    runs, ests = arrays(out)
    pos = runs > 0
    ratio = ests[pos] / runs[pos]
    assert ratio.mean() == pytest.approx(1 + f / 2, rel=0.01)
    assert ratio.min() >= 1 and ratio.max() <= 1 + f


def test_f_model_records_one_step():
    w = make([10, 20, 0])
    out = f_model(w, rng(), 3)
    assert out.cleaning == (
        CleaningStep("estimates: f-model f=3", 3, "estimate uniform on [run, 4·run]"),
    )
    assert out[2].estimate == 0  # a zero run time gets a zero estimate


@pytest.mark.parametrize("bad", [-0.1, math.nan, math.inf, "3", True, None])
def test_f_model_rejects(bad):
    with pytest.raises(ValueError, match="f must"):
        f_model(make([10]), rng(), bad)


# -- Tsafrir -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("njobs", "k"),
    [
        (0, 0),
        (1, 1),
        (2, 1),
        (20, 10),
        (110, 15),
        (200, 20),
        (1000, 35),
        (10_000, 90),
        (70_000, 340),
        (250_000, 565),
        (10**6, 565),
    ],
)
def test_distinct_estimates_table(njobs, k):
    assert distinct_estimates(njobs) == k


@FAST
@given(
    w=small_workloads,
    max_est=st.none() | st.floats(MIN_MAX_EST, 3e5) | st.just(MIN_MAX_EST),
    seed=seeds,
)
def test_tsafrir_bounds(w, max_est, seed):
    out = tsafrir(w, rng(seed), max_est)
    limit = default_max_est(w) if max_est is None else max_est
    old_runs, _ = arrays(w)
    runs, ests = arrays(out)
    assert np.array_equal(runs, np.minimum(old_runs, limit))  # the truncation rule
    assert np.all(ests >= runs)
    assert np.all(ests <= limit)
    assert [j.id for j in out] == [j.id for j in w]
    new = out.cleaning[len(w.cleaning) :]
    truncated = int(np.sum(old_runs > limit))
    if truncated:
        assert new[0] == CleaningStep(
            "truncated: run time to max_est",
            truncated,
            f"Tsafrir estimate model, max_est {limit:g} s; the jobs' work shrinks",
        )
    if len(w) and max_est is None:
        assert truncated == 0 and limit % 60 == 0


def test_tsafrir_on_kth(kth):
    """K = 90 for 10,000 jobs; the head holds 89%, max_est the most."""
    out = tsafrir(kth, rng(2))
    runs, ests = arrays(out)
    max_est = default_max_est(kth)
    assert max_est == 216_000  # KTH's 60-hour limit
    assert np.array_equal(runs, arrays(kth)[0])  # no run time changed
    assert np.all(ests >= runs)
    counts = Counter(ests.tolist())
    assert abs(len(counts) - distinct_estimates(len(kth))) <= 2
    assert top_share(ests) == pytest.approx(0.89, abs=0.02)
    (most, n_most), (_, n_second) = counts.most_common(2)
    assert most == max_est
    assert n_most / len(ests) == pytest.approx(0.217, abs=0.02)
    assert n_second / len(ests) == pytest.approx(0.103, abs=0.01)
    assert all(v % 10 == 0 for v in counts)  # whole minutes, or offset by 10, 20, 30 s
    off_minute = [v for v in counts if v % 60]
    assert len(off_minute) <= 3
    step = out.cleaning[-1]
    assert step.name == "estimates: tsafrir max_est=216000"
    assert step.count == sum(a.estimate != b.estimate for a, b in zip(kth, out, strict=True))


def test_tsafrir_head_values(kth):
    out = tsafrir(kth, rng(3))
    counts = Counter(arrays(out)[1].tolist())
    head = {v for v, _ in counts.most_common(16)}
    joint = {m * 60 for m in (5, 10, 15, 20, 30)}
    joint |= {h * 3600 for h in (1, 2, 3, 4, 5, 6, 8, 10, 12, 18)}
    assert head == joint | {216_000}


@pytest.mark.parametrize("njobs", [1, 7, 50, 199, 200, 201, 1000, 10_000, 250_000])
def test_tsafrir_bins(njobs):
    values, counts = tsafrir_bins(njobs, 36 * 3600, rng(4))
    assert counts.sum() == njobs and np.all(counts >= 1)
    assert len(values) == len(set(values.tolist())) == distinct_estimates(njobs)
    assert values[0] == 36 * 3600 and np.all(values <= 36 * 3600) and np.all(values > 0)
    assert np.all(values % 10 == 0)
    if distinct_estimates(njobs) > 20:
        assert counts[:20].sum() / njobs == pytest.approx(0.89, abs=0.01)
    else:  # head values only
        assert set(values.tolist()) <= {m * 60.0 for m in range(1, 36 * 60 + 1)}


def test_tsafrir_bins_small_max_est():
    """max_est = 1 h: the head is padded below it; a large tail merges collisions."""
    values, counts = tsafrir_bins(200, MIN_MAX_EST, rng())
    assert len(values) == 20 and values[0] == MIN_MAX_EST and np.all(values % 60 == 0)
    values, counts = tsafrir_bins(250_000, MIN_MAX_EST, rng())
    assert counts.sum() == 250_000
    assert 200 < len(values) < 565 and np.all((values > 0) & (values <= MIN_MAX_EST))


def test_tsafrir_small_workload_falls_back_to_the_head():
    w = make([5, 30, 400, 1000, 7000, 20_000, 0, 90, 3000, 100] * 5)
    out = tsafrir(w, rng(5))
    runs, ests = arrays(out)
    assert np.all(ests >= runs)
    assert ests.max() == default_max_est(w) == 40_080  # largest estimate 40,060 s, up to a minute
    assert len(set(ests.tolist())) <= distinct_estimates(50) == 12
    assert "under 200 jobs: head values only" in out.cleaning[-1].detail


def test_tsafrir_truncates_long_runs(kth):
    w = first(kth, 3000)
    out = tsafrir(w, rng(6), 4 * 3600)
    old = arrays(w)[0]
    runs, ests = arrays(out)
    long_runs = int(np.sum(old > 4 * 3600))
    assert long_runs > 0
    assert np.array_equal(runs, np.minimum(old, 4 * 3600))
    assert np.all(ests >= runs) and ests.max() == 4 * 3600
    assert out.cleaning[-2].name == "truncated: run time to max_est"
    assert out.cleaning[-2].count == long_runs
    assert out.cleaning[-1].name == "estimates: tsafrir max_est=14400"


@pytest.mark.parametrize("bad", [3599, 0, -5, math.nan, "1h", True])
def test_tsafrir_rejects_max_est(bad):
    with pytest.raises(ValueError, match="max_est"):
        tsafrir(make([10]), rng(), bad)


def test_tsafrir_empty():
    w = make([])
    assert tsafrir(w, rng()) is w


# -- crashes -------------------------------------------------------------------


def test_crash_share_on_exact_estimates(kth):
    w = exact(first(kth, 5000))
    assert crashed(w) == 0
    out = crash(w, rng(7))
    assert crashed(out) == round(DEFAULT_CRASH_SHARE * 5000) == 800
    step = out.cleaning[-1]
    assert step.name == "crashes: share=0.16" and step.count == 800
    changed = [(a, b) for a, b in zip(w, out, strict=True) if a != b]
    assert len(changed) == 800
    for before, after in changed:
        assert 1 <= after.run_time < 180  # seconds
        assert after.estimate == before.estimate > 1000  # still asks for long
        assert before.run_time >= 180
        assert (after.id, after.submit, after.size) == (before.id, before.submit, before.size)
    runs = np.array([b.run_time for _, b in changed])
    assert np.median(runs) == pytest.approx(math.sqrt(180), rel=0.2)  # log-uniform [1, 180)


@pytest.mark.parametrize("share", [0.05, 0.11, 0.24])
def test_crash_share_respected_on_top_of_tsafrir(kth, share):
    w = tsafrir(kth, rng(8))
    out = crash(w, rng(9), share)
    added = crashed(out) - crashed(w)
    assert added / len(w) == pytest.approx(share, abs=1e-4)


def test_crash_shortfall_and_zero():
    w = make([10, 500, 5000, 200_000], [5000, 5000, 5000, 100])
    out = crash(w, rng(), 1.0)
    assert out.cleaning[-1].count == 2  # only jobs 2 and 3 ask > 1000 s and run >= 180 s
    assert "2 fewer than asked" in out.cleaning[-1].detail
    assert [j.run_time < 180 for j in out] == [True, True, True, False]
    assert crash(w, rng(), 0.0) is w


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"share": 1.5}, "between 0 and 1"),
        ({"share": -0.1}, "between 0 and 1"),
        ({"share": math.nan}, "finite"),
        ({"min_run": 0.0}, "min_run"),
        ({"max_run": 2000.0}, "max_run"),
    ],
)
def test_crash_rejects(kwargs, match):
    with pytest.raises(ValueError, match=match):
        crash(make([10]), rng(), **kwargs)


# -- parser --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("exact", "exact"),
        ("f:3", "f:3"),
        (" F : 2.5 ", "f:2.5"),
        ("f:0", "f:0"),
        ("tsafrir", "tsafrir"),
        ("tsafrir:216000", "tsafrir:216000"),
        ("tsafrir:36h", "tsafrir:129600"),
        ("tsafrir:90m", "tsafrir:5400"),
        ("tsafrir:90min", "tsafrir:5400"),
        ("tsafrir:1e+5", "tsafrir:100000"),
        ("tsafrir:1234567", "tsafrir:1234567.0"),
        ("f:0.123456789", "f:0.123456789"),
        ("crash", "crash"),
        ("crash:0.2", "crash:0.2"),
        ("tsafrir + crash:0.1", "tsafrir+crash:0.1"),
        ("f:1+crash", "f:1+crash"),
        ("exact+crash:0", "exact+crash:0"),
    ],
)
def test_parse_forms(text, canonical):
    spec = parse_estimates(text)
    assert isinstance(spec, EstimateSpec)
    assert str(spec) == canonical
    assert parse_estimates(canonical) == spec
    assert pickle.loads(pickle.dumps(spec)) == spec


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "non-empty"),
        ("  ", "non-empty"),
        ("bogus", "unknown model 'bogus'"),
        ("f", "'f' needs a value"),
        ("f:", "'f:' needs a value"),
        ("f:x", "bad value in 'f:x'"),
        ("f:-1", "f must be >= 0 in 'f:-1'"),
        ("f:nan", "bad value in 'f:nan'"),
        ("exact:1", "'exact' takes no value"),
        ("tsafrir:10m", "'tsafrir:10m' is 600 s, below"),
        ("tsafrir:abc", "bad value in 'tsafrir:abc'"),
        ("tsafrir:5d", "bad value in 'tsafrir:5d'"),
        ("crash:2", "'crash:2' must be between 0 and 1"),
        ("crash:lots", "bad value in 'crash:lots'"),
        ("crash+f:1", "crash must come last"),
        ("crash+crash", "crash must come last"),
        ("f:1+tsafrir", "at most one of"),
        ("f:1++crash", "empty part"),
        ("tsafrir+", "empty part"),
    ],
)
def test_parse_errors(text, match):
    with pytest.raises(ValueError, match=match):
        parse_estimates(text)


def test_parse_rejects_non_string():
    with pytest.raises(ValueError, match="non-empty string"):
        parse_estimates(None)  # type: ignore[arg-type]


def test_apply_estimates_matches_the_functions(kth):
    w = first(kth, 2000)
    assert apply_estimates(w, "exact", rng()) == exact(w)
    assert apply_estimates(w, "f:3", rng(1)) == f_model(w, rng(1), 3)
    assert apply_estimates(w, "tsafrir:36h", rng(2)) == tsafrir(w, rng(2), 36 * 3600)
    assert apply_estimates(w, "crash", rng(3)) == crash(w, rng(3))
    g, h = rng(4), rng(4)
    assert apply_estimates(w, "tsafrir+crash:0.1", g) == crash(tsafrir(w, h), h, 0.1)
    assert apply_estimates(w, parse_estimates("f:2"), rng(5)) == f_model(w, rng(5), 2)


# -- determinism ---------------------------------------------------------------


def fingerprint(w: Workload) -> tuple:
    return tuple((j.id, j.submit, j.run_time, j.size, j.estimate) for j in w), w.cleaning


@pytest.mark.parametrize("spec", ["f:3", "tsafrir", "tsafrir:24h", "crash", "f:0.5+crash:0.3"])
def test_determinism(kth, spec):
    w = first(kth, 3000)
    before = fingerprint(w)
    a = fingerprint(apply_estimates(w, spec, rng(11)))
    b = fingerprint(apply_estimates(w, spec, rng(11)))
    c = fingerprint(apply_estimates(w, spec, rng(12)))
    assert a == b
    assert a[0] != c[0]
    assert fingerprint(w) == before  # input untouched
