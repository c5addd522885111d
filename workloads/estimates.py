"""Models of users' runtime estimates: pure functions ``Workload -> Workload``.

Each model replaces the ``estimate`` of the jobs (the crash model their run
time instead), draws only from the `numpy.random.Generator` it is given, and
leaves its argument untouched: the same generator state gives the same
workload, bit for bit. Like `schedsim.workloads.transforms`, each model records what
it did as a `CleaningStep` counting the jobs it changed, and records nothing
when it changed none.

The models
----------
``exact``
    estimate = run time (`schedsim.workloads.transforms.exact_estimates`), the
    baseline of seeds 000 and 001.
``f_model``
    The "badness factor" f >= 0 of Mu'alem & Feitelson (IEEE TPDS 12(6),
    2001), as ``reference/workload-models.md`` section 3 states it from the
    abstract of Tsafrir & Feitelson's "The Dynamics of Backfilling" (the
    original wording unchecked): each estimate is uniform on [r, (1 + f)·r]
    for run time r; f = 0 is exact.
``tsafrir``
    Tsafrir, Etsion & Feitelson, "Modeling User Runtime Estimates", JSSPP
    2005 (LNCS 3834), as summarised in ``reference/workload-models.md``
    section 3: a few round values, the maximum allowed estimate the most
    popular of them, assigned so that no estimate is below its run time.
``crash``
    Jobs that end seconds after they start while asking for hours. Lawson &
    Smirni, "Multiple-Queue Backfilling Scheduling with Priorities and
    Reservations for Parallel Systems" (seed 001, section 2, Table 1),
    count a job as crashed when its estimate is over 1000 s and its run
    under 180 s, and find 16% of CTC's jobs, 11% of KTH's and 24% of SDSC
    SP2's so.

What the sources leave open, and is chosen here
-----------------------------------------------
* **Tsafrir: max_est.** By default the largest estimate or run time in the
  workload, rounded up to a whole minute and at least 3600 s (the model's
  minimum). With that default no run time exceeds it and the model never
  touches the work; pass ``max_est`` (``tsafrir:MAX_EST``) to impose a
  site limit.
* **Tsafrir: run times above max_est.** The model truncates them, and so do
  we: such a job's run time becomes ``max_est``, so its work shrinks. This is
  recorded as its own step, ``"truncated: run time to max_est"``, with the
  count. (In the simulator this is also what killing at the estimate would
  do to such a job.)
* **Tsafrir: small workloads.** The reference wrapper refuses fewer than
  200 jobs (`TSAFRIR_MIN_JOBS`); below that K < 20 by the table. We still
  take K from the table (rounded to the nearest integer, at least 1) and keep
  the K most popular head values with their rank sizes renormalised to 100%
  (no tail). With exactly K = 20 (200 jobs) the tail is empty and the head
  likewise takes 100%. Above that the head holds 89% and the tail 11%.
* **Tsafrir: popularity order of the head values.** The source maps time
  ranks to popularity ranks with a 20×4 table that our reference text does
  not give. Here rank 1 is ``max_est`` (as the model says), then the joint
  values in `JOINT_VALUES_BY_POPULARITY`: their mean share of the jobs in
  the shipped KTH, CTC and SDSC-SP2 traces (three of the source's four), a
  value counted only in traces whose maximum estimate exceeds it. Padding
  values come after them in the order found (below).
* **Tsafrir: padding the head to 20.** If ``max_est`` plus the joint values
  below it are fewer than 20, the head is padded with multiples of 200 h,
  100 h, 50 h, 24 h, 12 h, 6 h, 2 h, 1 h, 30 min, 10 min, 5 min and finally
  1 min (`PAD_GRIDS`), each grid counting down from ``max_est`` (strictly
  below it), skipping values already taken.
* **Tsafrir: tail times.** y = (a−1)x/(a−x) with x = i/(T+1), i = 1..T for
  T tail values: the reference's x = i/T would put i = T at ``max_est``
  itself (y = 1) and i = 0 at zero, so both ends are left out. Times are
  rounded to the nearest whole minute (at least 1 min) and, in ascending
  order, a time already taken is moved by +10, −10, +20, −20, +30, −30 s
  (the first free one strictly between 0 and ``max_est``). If all seven are
  taken the bin joins the value it collides with, so fewer than K values
  exist (only with many tail values below a small ``max_est``).
* **Tsafrir: tail sizes** 795.6·x^(−2.267) use the popularity rank
  x = 21..K as x; they are paired with the tail times by a random
  permutation (the reference: "paired at random").
* **Tsafrir: bin sizes in jobs** are the shares times the job count,
  rounded by largest remainder (ties to the earlier bin, head first), then
  every empty bin takes one job from the largest bin, so all K values are used.
* **Tsafrir: no unused value left.** Jobs sorted longest first each draw a
  random unused value >= their run time. When none is left, the job gets
  ``max_est`` (its bin grows beyond its planned size); the count is in the
  step's detail. How many jobs this hits depends on the bins only, not on
  which values the longer jobs drew.
* **Crash: share.** ``share`` of all the jobs (rounded to a whole number)
  are converted, chosen uniformly among the jobs that ask for over 1000 s
  and run at least 180 s, i.e. the jobs that are not crashes by Table 1's
  definition but could be; crashes already there are left alone and not
  counted. If fewer jobs qualify, all of them are converted and the detail
  says how many were missing. Default 0.16: CTC's share, which is also the
  median of Table 1's three traces (mean 0.17).
* **Crash: run time.** Log-uniform on [1, 180) s (median 13 s, mean 35 s):
  under Table 1's 180 s, as the seed's speculative 180-s runs assume, and
  close to the crash-like jobs of the shipped KTH trace (median 19 s, mean
  40 s; CTC's and SDSC's are longer, medians 74 and 64 s). The estimate is
  kept.

The command-line grammar is `parse_estimates`'s.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from schedsim.workloads.checks import finite_real
from schedsim.workloads.transforms import exact_estimates
from schedsim.workloads.workload import CleaningStep, Workload

__all__ = [
    "DEFAULT_CRASH_SHARE",
    "JOINT_VALUES_BY_POPULARITY",
    "MIN_MAX_EST",
    "PAD_GRIDS",
    "TSAFRIR_MIN_JOBS",
    "EstimateModel",
    "EstimateSpec",
    "apply_estimates",
    "crash",
    "default_max_est",
    "distinct_estimates",
    "exact",
    "f_model",
    "parse_estimates",
    "tsafrir",
    "tsafrir_bins",
]

#: A model as the command line hands it over: ``(workload, rng) -> workload``.
#: (The generator is named, so that importing the module does not import numpy.random.)
EstimateModel = Callable[[Workload, "np.random.Generator"], Workload]

_MIN = 60.0
_HOUR = 3600.0

# -- Tsafrir, Etsion & Feitelson 2005 (reference/workload-models.md section 3) --

#: The model's smallest maximum estimate, in seconds.
MIN_MAX_EST = 3600.0
#: The fewest jobs the reference wrapper accepts; below it see `tsafrir`.
TSAFRIR_MIN_JOBS = 200
#: (njobs, K) points through which K, the number of distinct estimates, is
#: interpolated linearly; K is capped at the last value.
_K_TABLE = ((0, 0), (20, 10), (200, 20), (1000, 35), (10000, 90), (70000, 340), (250000, 565))
_HEAD_BINS = 20
_HEAD_SHARE = 0.89
#: The joint values (5, 10, 15, 20, 30 min; 1, 2, 3, 4, 5, 6, 8, 10, 12, 18 h)
#: from most to least popular: mean share of jobs in the shipped KTH, CTC and
#: SDSC-SP2 traces, in percent: 5 min 9.8, 10 min 7.3, 1 h 6.5, 15 min 6.0,
#: 4 h 6.0, 18 h 4.9 (SDSC-SP2 and KTH; CTC's maximum), 2 h 4.8, 30 min 4.2,
#: 3 h 3.6, 20 min 3.1, 6 h 2.8, 10 h 2.4, 12 h 2.3, 8 h 1.8, 5 h 1.2. Our
#: choice: the source's 20×4 rank table is not in the reference text.
JOINT_VALUES_BY_POPULARITY: tuple[float, ...] = tuple(
    m * _MIN for m in (5, 10, 60, 15, 240, 1080, 120, 30, 180, 20, 360, 600, 720, 480, 300)
)
#: Grids whose multiples below ``max_est`` pad the head to 20 values (our choice).
PAD_GRIDS: tuple[float, ...] = tuple(h * _HOUR for h in (200, 100, 50, 24, 12, 6, 2, 1)) + tuple(
    m * _MIN for m in (30, 10, 5, 1)
)
_OFFSETS = (0.0, 10.0, -10.0, 20.0, -20.0, 30.0, -30.0)

# -- Crashes: seed 001 (Lawson & Smirni), section 2, Table 1 ------------------

#: Default share of jobs turned into crashes: CTC's 0.16, the median of Table 1.
DEFAULT_CRASH_SHARE = 0.16
#: Table 1's definition of a crash: estimate above 1000 s, run under 180 s.
_CRASH_MIN_ESTIMATE = 1000.0
_CRASH_MAX_RUN = 180.0
_CRASH_MIN_RUN = 1.0


def _fmt(x: float) -> str:
    """``x`` short (``%g``) when that is exact, else in full."""
    short = f"{x:g}"
    return short if float(short) == x else repr(x)


def _arrays(w: Workload) -> tuple[np.ndarray, np.ndarray]:
    n = len(w.jobs)
    runs = np.fromiter((j.run_time for j in w.jobs), dtype=float, count=n)
    ests = np.fromiter((j.estimate for j in w.jobs), dtype=float, count=n)
    return runs, ests


def _with_estimates(w: Workload, estimates: np.ndarray, step: CleaningStep) -> Workload:
    """``w`` with new estimates; ``step`` counts the jobs changed (none: no step)."""
    old = np.fromiter((j.estimate for j in w.jobs), dtype=float, count=len(w.jobs))
    changed = np.flatnonzero(estimates != old)
    if changed.size == 0:
        return w
    jobs = list(w.jobs)
    for i, e in zip(changed.tolist(), estimates[changed].tolist(), strict=True):
        jobs[i] = dataclasses.replace(jobs[i], estimate=e)
    return w.with_jobs(jobs, dataclasses.replace(step, count=int(changed.size)))


# -- exact and f ---------------------------------------------------------------


def exact(w: Workload, rng: np.random.Generator | None = None) -> Workload:
    """Estimate = run time for every job (perfectly accurate users).

    `schedsim.workloads.transforms.exact_estimates` under the common signature of the
    models; ``rng`` is accepted and not used.
    """
    return exact_estimates(w)


def f_model(w: Workload, rng: np.random.Generator, f: float) -> Workload:
    """Estimate uniform on [r, (1 + f)·r] for each job of run time r.

    The f-model (Mu'alem & Feitelson, IEEE TPDS 12(6), 2001, as
    ``reference/workload-models.md`` section 3 states it from the abstract
    of Tsafrir & Feitelson's "The Dynamics of Backfilling"): f >= 0 is the badness
    factor, f = 0 is exact, and the mean ratio estimate / run is 1 + f/2.
    One uniform draw per job, in workload order, even for f = 0.
    """
    f = finite_real(f, "f")
    if f < 0:
        raise ValueError(f"f must be >= 0, got {f!r}")
    runs, _ = _arrays(w)
    if runs.size == 0:
        return w
    estimates = runs * (1.0 + f * rng.random(runs.size))
    if not np.all(np.isfinite(estimates)):
        raise ValueError(f"f = {f:g} makes estimates overflow; use a smaller f")
    step = CleaningStep(
        f"estimates: f-model f={_fmt(f)}", 0, f"estimate uniform on [run, {1 + f:g}·run]"
    )
    return _with_estimates(w, estimates, step)


# -- Tsafrir, Etsion & Feitelson 2005 ------------------------------------------


def distinct_estimates(njobs: int) -> int:
    """K, the number of distinct estimates of a workload of ``njobs`` jobs.

    Tsafrir, Etsion & Feitelson 2005, as in ``reference/workload-models.md``
    section 3: linear interpolation through (0, 0), (20, 10), (200, 20),
    (1000, 35), (10000, 90), (70000, 340), (250000, 565), capped at 565.
    Rounded to the nearest integer, and kept between 1 and ``njobs`` (our
    choice: a value must hold at least one job). 0 for no jobs.
    """
    if isinstance(njobs, bool) or not isinstance(njobs, numbers.Integral) or njobs < 0:
        raise ValueError(f"njobs must be a non-negative integer, got {njobs!r}")
    n = int(njobs)
    if n == 0:
        return 0
    xs, ks = zip(*_K_TABLE, strict=True)
    k = float(np.interp(n, xs, ks))
    return min(max(math.floor(k + 0.5), 1), n)


def default_max_est(w: Workload) -> float:
    """The default ``max_est`` of `tsafrir` for ``w``.

    The largest estimate or run time of the workload, rounded up to a whole
    minute, and at least `MIN_MAX_EST` (3600 s): so no run time exceeds it
    and the model does not change the work.
    """
    runs, ests = _arrays(w)
    top = max(float(runs.max(initial=0.0)), float(ests.max(initial=0.0)))
    return max(MIN_MAX_EST, math.ceil(top / _MIN) * _MIN)


def _head_values(max_est: float) -> list[float]:
    """``max_est``, the joint values below it by popularity, then padding: 20 values."""
    values = [max_est] + [v for v in JOINT_VALUES_BY_POPULARITY if v < max_est]
    taken = set(values)
    for grid in PAD_GRIDS:
        k = math.ceil(max_est / grid) - 1  # largest multiple strictly below max_est
        while k >= 1 and len(values) < _HEAD_BINS:
            v = k * grid
            if v not in taken:
                values.append(v)
                taken.add(v)
            k -= 1
    return values[:_HEAD_BINS]


def _head_percents() -> np.ndarray:
    """Rank 1..20 sizes in percent: 14.0491·e^(−0.177531·x) + 0.462513, rank 1 the rest of 89."""
    x = np.arange(2, _HEAD_BINS + 1, dtype=float)
    rest = 14.0491 * np.exp(-0.177531 * x) + 0.462513
    return np.concatenate(([100 * _HEAD_SHARE - rest.sum()], rest))


def _tail_times(n_tail: int, k: int, max_est: float, taken: set[float]) -> list[float]:
    """Tail times: y = (a−1)x/(a−x), rounded to minutes, collisions offset."""
    a = 1.0 + 12.1039 * k**-0.6026
    x = np.arange(1, n_tail + 1, dtype=float) / (n_tail + 1)
    y = (a - 1.0) * x / (a - x)
    rounded = np.maximum(np.rint(y * max_est / _MIN) * _MIN, _MIN)
    times = []
    for t in rounded.tolist():
        for off in _OFFSETS:
            c = t + off
            if 0.0 < c < max_est and c not in taken:
                break
        else:
            c = t  # no free offset: this bin joins the value it collides with
        taken.add(c)
        times.append(c)
    return times


def _apportion(shares: np.ndarray, total: int) -> np.ndarray:
    """Whole counts summing to ``total``, by largest remainder, none zero."""
    exact_counts = shares / shares.sum() * total
    counts = np.floor(exact_counts).astype(np.int64)
    left = total - int(counts.sum())
    if left > 0:
        order = np.argsort(-(exact_counts - counts), kind="stable")
        counts[order[:left]] += 1
    for i in np.flatnonzero(counts == 0).tolist():
        counts[int(np.argmax(counts))] -= 1
        counts[i] = 1
    return counts


def tsafrir_bins(
    njobs: int, max_est: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """The estimate values and how many jobs each gets, before assignment.

    Tsafrir, Etsion & Feitelson 2005 (``reference/workload-models.md``
    section 3): K = `distinct_estimates` values; the 20 most popular (the
    head: ``max_est`` and round values below it) hold 89% of the jobs, with
    sizes 14.0491·e^(−0.177531·x) + 0.462513 percent for popularity ranks
    x = 2..20 and the rest (≈21.7%) for ``max_est``; the K − 20 others (the
    tail) hold 11% with sizes ∝ 795.6·x^(−2.267), paired at random with the
    times y·max_est, y = (a−1)x/(a−x), a = 1 + 12.1039·K^(−0.6026). See the
    module docstring for the choices where the text is silent.

    Returns ``(values, counts)``: distinct values in seconds and positive job
    counts summing to ``njobs``, most popular first (ties: longer first).
    Draws one permutation from ``rng`` when there is a tail.
    """
    k = distinct_estimates(njobs)
    max_est = finite_real(max_est, "max_est")
    if k == 0:
        return np.zeros(0), np.zeros(0, dtype=np.int64)
    n_head = min(k, _HEAD_BINS)
    n_tail = k - n_head
    head = _head_values(max_est)[:n_head]
    head_pct = _head_percents()[:n_head]
    if n_tail == 0:
        values = np.array(head, dtype=float)
        shares = head_pct / head_pct.sum()
    else:
        tail_times = _tail_times(n_tail, k, max_est, set(head))
        ranks = np.arange(_HEAD_BINS + 1, k + 1, dtype=float)
        tail_sizes = 795.6 * ranks**-2.267
        tail_sizes = tail_sizes[rng.permutation(n_tail)]
        values = np.array(head + tail_times, dtype=float)
        shares = np.concatenate(
            (
                _HEAD_SHARE * head_pct / head_pct.sum(),
                (1 - _HEAD_SHARE) * tail_sizes / tail_sizes.sum(),
            )
        )
    counts = _apportion(shares, njobs)
    # Merge the bins that share a value (tail collisions left unresolved).
    uniq, inverse = np.unique(values, return_inverse=True)
    merged = np.bincount(inverse, weights=counts, minlength=uniq.size).astype(np.int64)
    order = np.lexsort((-uniq, -merged))
    return uniq[order], merged[order]


def _assign(
    runs: np.ndarray,
    values: np.ndarray,
    counts: np.ndarray,
    max_est: float,
    rng: np.random.Generator,
) -> tuple[np.ndarray, int]:
    """Jobs longest first each take a random unused value >= their run time.

    Vectorised by groups: consecutive jobs (longest first) that may take the
    same set of values draw from it without replacement, which is what the
    job-by-job draws do; a uniform random subset of the unused values
    (multivariate hypergeometric counts), in random order. The jobs of a
    group left without a value (the shortest ones) get ``max_est``.
    Returns the estimates in workload order and how many got ``max_est``
    that way.
    """
    by_value = np.argsort(-values, kind="stable")
    vals = values[by_value]  # descending
    left = counts[by_value].astype(np.int64)
    order = np.argsort(-runs, kind="stable")
    # Values >= run: a prefix of vals, of length m (non-decreasing along order).
    m = np.searchsorted(-vals, -runs[order], side="right")
    starts = np.flatnonzero(np.r_[True, m[1:] != m[:-1]])
    ends = np.r_[starts[1:], m.size]
    out = np.full(runs.size, max_est, dtype=float)
    overflow = 0
    for s, e in zip(starts.tolist(), ends.tolist(), strict=True):
        pool = left[: m[s]]
        take = min(e - s, int(pool.sum()))
        overflow += e - s - take
        if take == 0:
            continue
        drawn = rng.multivariate_hypergeometric(pool, take)
        pool -= drawn
        out[order[s : s + take]] = rng.permutation(np.repeat(vals[: m[s]], drawn))
    return out, overflow


def _truncate_runs(w: Workload, max_est: float) -> Workload:
    long_jobs = [i for i, j in enumerate(w.jobs) if j.run_time > max_est]
    if not long_jobs:
        return w
    jobs = list(w.jobs)
    for i in long_jobs:
        jobs[i] = dataclasses.replace(jobs[i], run_time=max_est)
    step = CleaningStep(
        "truncated: run time to max_est",
        len(long_jobs),
        f"Tsafrir estimate model, max_est {max_est:g} s; the jobs' work shrinks",
    )
    return w.with_jobs(jobs, step)


def tsafrir(w: Workload, rng: np.random.Generator, max_est: float | None = None) -> Workload:
    """Estimates by the model of Tsafrir, Etsion & Feitelson 2005.

    "Modeling User Runtime Estimates" (JSSPP 2005, LNCS 3834), as summarised
    in ``reference/workload-models.md`` section 3: the values and their
    popularity come from `tsafrir_bins`; then run times above ``max_est``
    are truncated to it, and the jobs, longest first, each draw a random
    unused value >= their run time (``max_est`` when none is left).

    ``max_est`` (seconds, >= 3600) defaults to `default_max_est`, under
    which no run time is truncated. A truncation is recorded as its own
    step, ``"truncated: run time to max_est"``, before the estimates' step.
    Fewer than `TSAFRIR_MIN_JOBS` jobs fall back to the head values only
    (see the module docstring). The module docstring lists every choice made
    where the text is silent.
    """
    if max_est is None:
        max_est = default_max_est(w)
    else:
        max_est = finite_real(max_est, "max_est")
        if max_est < MIN_MAX_EST:
            raise ValueError(
                f"max_est must be at least {MIN_MAX_EST:g} s (the model's minimum), got {max_est:g}"
            )
    if not w.jobs:
        return w
    w = _truncate_runs(w, max_est)
    runs, _ = _arrays(w)
    values, counts = tsafrir_bins(len(runs), max_est, rng)
    estimates, overflow = _assign(runs, values, counts, max_est, rng)
    k = distinct_estimates(len(runs))
    used = np.unique(estimates).size
    detail = f"max_est {max_est:g} s, K {k} values planned, {used} used"
    if len(runs) < TSAFRIR_MIN_JOBS:
        detail += f"; under {TSAFRIR_MIN_JOBS} jobs: head values only"
    if overflow:
        detail += f"; {overflow} jobs got max_est for want of an unused larger value"
    step = CleaningStep(f"estimates: tsafrir max_est={_fmt(max_est)}", 0, detail)
    return _with_estimates(w, estimates, step)


# -- crashes -------------------------------------------------------------------


def crash(
    w: Workload,
    rng: np.random.Generator,
    share: float = DEFAULT_CRASH_SHARE,
    *,
    min_run: float = _CRASH_MIN_RUN,
    max_run: float = _CRASH_MAX_RUN,
    min_estimate: float = _CRASH_MIN_ESTIMATE,
) -> Workload:
    """Turn ``share`` of the jobs into crashes: run time seconds, estimate kept.

    Seed 001 (Lawson & Smirni, section 2, Table 1): real traces hold jobs
    that ask for hours and end within seconds (estimate > 1000 s, run
    < 180 s; 16% of CTC, 11% of KTH, 24% of SDSC SP2). round(share · n) jobs
    are chosen uniformly among those with estimate > ``min_estimate`` and run
    time >= ``max_run`` (not crashes yet, but able to be), and get a run time
    log-uniform on [``min_run``, ``max_run``). Estimates are not touched, so
    apply this after an estimate model. If fewer jobs qualify, all of them
    crash and the step's detail says how many were missing.
    """
    share = finite_real(share, "crash share")
    min_run = finite_real(min_run, "min_run")
    max_run = finite_real(max_run, "max_run")
    min_estimate = finite_real(min_estimate, "min_estimate")
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"crash share must be between 0 and 1, got {share:g}")
    if not 0.0 < min_run < max_run <= min_estimate:
        raise ValueError(
            "crash run times need 0 < min_run < max_run <= min_estimate, got "
            f"min_run={min_run:g}, max_run={max_run:g}, min_estimate={min_estimate:g}"
        )
    runs, ests = _arrays(w)
    wanted = math.floor(share * runs.size + 0.5)
    eligible = np.flatnonzero((ests > min_estimate) & (runs >= max_run))
    take = min(wanted, eligible.size)
    if take == 0:
        return w
    chosen = np.sort(rng.choice(eligible, size=take, replace=False))
    new_runs = np.exp(rng.uniform(math.log(min_run), math.log(max_run), size=take))
    jobs = list(w.jobs)
    for i, r in zip(chosen.tolist(), new_runs.tolist(), strict=True):
        jobs[i] = dataclasses.replace(jobs[i], run_time=r)
    detail = (
        f"run time log-uniform on [{min_run:g}, {max_run:g}) s, estimate kept; "
        f"chosen among {eligible.size} jobs with estimate > {min_estimate:g} s "
        f"and run >= {max_run:g} s"
    )
    if take < wanted:
        detail += f"; {wanted - take} fewer than asked (no more such jobs)"
    return w.with_jobs(jobs, CleaningStep(f"crashes: share={_fmt(share)}", take, detail))


# -- command line --------------------------------------------------------------

_UNITS = {"": 1.0, "s": 1.0, "m": _MIN, "min": _MIN, "h": _HOUR}
_DURATION_RE = re.compile(r"([0-9.eE+-]+)\s*(s|m|min|h)?")
_BASES = ("exact", "f", "tsafrir")
# "+" joins parts; one inside a number's exponent (tsafrir:1e+5) does not.
_SPLIT_RE = re.compile(r"(?<![0-9.][eE])\+")


@dataclass(frozen=True)
class _Step:
    name: str
    value: float | None = None


@dataclass(frozen=True)
class EstimateSpec:
    """A parsed estimate spec (see `parse_estimates`): call it on a workload.

    Plain data, so it compares, prints (``str`` gives the canonical spec)
    and pickles to worker processes.
    """

    steps: tuple[_Step, ...]

    def __call__(self, w: Workload, rng: np.random.Generator) -> Workload:
        for step in self.steps:
            if step.name == "exact":
                w = exact(w, rng)
            elif step.name == "f":
                w = f_model(w, rng, step.value)  # type: ignore[arg-type]
            elif step.name == "tsafrir":
                w = tsafrir(w, rng, step.value)
            else:
                share = DEFAULT_CRASH_SHARE if step.value is None else step.value
                w = crash(w, rng, share)
        return w

    def __str__(self) -> str:
        return "+".join(
            s.name if s.value is None else f"{s.name}:{_fmt(s.value)}" for s in self.steps
        )


def _number(text: str, part: str, spec: str, expected: str) -> float:
    try:
        x = float(text)
    except ValueError:
        x = math.nan
    if not math.isfinite(x):
        raise ValueError(f"estimate spec {spec!r}: bad value in {part!r} (expected {expected})")
    return x


def _parse_step(part: str, spec: str) -> _Step:
    name, sep, arg = (s.strip() for s in part.partition(":"))
    name = name.lower()
    if name == "exact":
        if sep:
            raise ValueError(f"estimate spec {spec!r}: 'exact' takes no value, got {part!r}")
        return _Step("exact")
    if name == "f":
        if not arg:
            raise ValueError(f"estimate spec {spec!r}: {part!r} needs a value, e.g. f:3")
        f = _number(arg, part, spec, "f:F with F a number >= 0, e.g. f:3")
        if f < 0:
            raise ValueError(f"estimate spec {spec!r}: f must be >= 0 in {part!r}")
        return _Step("f", f)
    if name == "tsafrir":
        if not sep:
            return _Step("tsafrir")
        expected = "tsafrir:MAX_EST in seconds or with s, m or h, at least 3600 s, e.g. tsafrir:36h"
        m = _DURATION_RE.fullmatch(arg.lower())
        if m is None:
            raise ValueError(f"estimate spec {spec!r}: bad value in {part!r} (expected {expected})")
        max_est = _number(m.group(1), part, spec, expected) * _UNITS[m.group(2) or ""]
        if max_est < MIN_MAX_EST:
            raise ValueError(
                f"estimate spec {spec!r}: max_est in {part!r} is {max_est:g} s, "
                f"below the model's minimum of {MIN_MAX_EST:g} s"
            )
        return _Step("tsafrir", max_est)
    if name == "crash":
        if not sep:
            return _Step("crash")
        share = _number(arg, part, spec, "crash:SHARE with SHARE between 0 and 1, e.g. crash:0.16")
        if not 0.0 <= share <= 1.0:
            raise ValueError(
                f"estimate spec {spec!r}: the crash share in {part!r} must be between 0 and 1"
            )
        return _Step("crash", share)
    raise ValueError(
        f"estimate spec {spec!r}: unknown model {part!r} "
        "(expected exact, f:F, tsafrir[:MAX_EST] or crash[:SHARE])"
    )


def parse_estimates(spec: str) -> EstimateSpec:
    """Parse an estimate spec from the command line into a callable model.

    Grammar (names case-insensitive, blanks around the parts ignored)::

        spec    := model | "crash" [":" SHARE] | model "+" "crash" [":" SHARE]
        model   := "exact" | "f:" F | "tsafrir" [":" MAX_EST]

    ``F`` is a number >= 0; ``MAX_EST`` is seconds, or a number with unit
    ``s``, ``m``/``min`` or ``h`` (``tsafrir:36h``), at least 3600 s;
    ``SHARE`` is between 0 and 1 (default 0.16). The parts apply left to
    right: ``tsafrir+crash:0.1`` draws Tsafrir estimates, then crashes 10%
    of the jobs; ``crash`` alone crashes jobs of the workload's own
    estimates. A `ValueError` names the part that is wrong.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(
            f"estimate spec must be a non-empty string such as 'exact', 'f:3', "
            f"'tsafrir' or 'tsafrir+crash:0.16', got {spec!r}"
        )
    parts = _SPLIT_RE.split(spec)
    if any(not part.strip() for part in parts):
        raise ValueError(f"estimate spec {spec!r}: empty part between '+' signs")
    steps = tuple(_parse_step(part, spec) for part in parts)
    names = [s.name for s in steps]
    if "crash" in names[:-1]:
        raise ValueError(
            f"estimate spec {spec!r}: crash must come last (it keeps the estimates it is given)"
        )
    if sum(n in _BASES for n in names) > 1 or len(names) > 2:
        raise ValueError(
            f"estimate spec {spec!r}: at most one of exact, f:F, tsafrir, optionally "
            "followed by +crash[:SHARE]"
        )
    return EstimateSpec(steps)


def apply_estimates(
    workload: Workload, spec: str | EstimateSpec, rng: np.random.Generator
) -> Workload:
    """Apply an estimate spec (`parse_estimates`'s grammar) to ``workload``."""
    model = parse_estimates(spec) if isinstance(spec, str) else spec
    return model(workload, rng)
