"""The statistics of a report: pure functions over DataFrames, no files, no drawing.

Confidence intervals
    Replications differ only in their seed, so they are independent samples
    of the same experiment; with the handful a sweep affords, the Student t
    interval (not the normal one) is right: mean ± t((1+c)/2, n-1) x std /
    sqrt(n), std with ddof=1 (`describe`, `confidence_interval`).
Intervals within a quantity's range
    Over few replications of a skewed quantity that t interval reaches
    values the quantity cannot take: slowdowns [1, 1, 50] give a mean of
    17.3 and an interval from -52.9 to 87.6, for a quantity never below 1.
    The interval is therefore cut at the quantity's range
    (`schedsim.app.report.quantities.bounds_of`: a slowdown at 1, a wait or
    any time at 0, a utilization at 0 and 1; percent changes of those at
    -100): [1, 87.6] above. Why cutting, and not another interval:

    * the true mean lies in the range, so the cut interval contains it
      whenever the t interval does: the coverage (95%) is unchanged, and
      the upper bound, the one a reader of a slowdown cares about, is the
      t interval's own;
    * an interval on the log scale is one for the geometric mean, not for
      the arithmetic mean the tables print (and a slowdown's bound is 1,
      not 0), and a percentile bootstrap over 2 to 5 replications covers
      far less than its nominal level, and never beyond the values seen.

    The console and the figures say when an interval was cut (the
    `was_cut` test: it ends exactly at the range's end). A sample outside
    the range (a hand-made one) widens the range to it, so that the
    interval always contains the mean.
Aggregation (`aggregate`)
    Mean, standard deviation and that interval over the replications of each
    group of runs.
Paired comparisons (`paired`, `ratio`, `ratio_table`)
    Two policies compared run by run on the same scenario and seed (the same
    jobs, the same load), then aggregated: paired comparisons cancel most of
    the variation between replications. ``kind="R"`` is Lawson & Smirni's
    (2002) slowdown ratio R = (s1 - sm) / min(s1, sm), positive when the
    other policy's value is lower; ``"percent"`` is Schwiegelshohn &
    Yahyapour's (1998) percentage change.
Category tables (`category_cells`, `categories`, `category_summary`)
    Kettimuthu's (2003) per-category tables (Table 2.1, 16 categories, or
    Table 4.1, 4), averaged over replications.

Conventions
-----------
* Missing values are values: a run whose policy lacks a parameter has NaN in
  that ``params.*`` column, and NaN forms its own group (never dropped) when
  grouping or pairing (`key`, `groups`).
* Groups come out in the study's order of first appearance, not sorted: the
  study author chose that order.
* Statistics ignore NaN values (a metric a run could not compute); ``n`` in
  `aggregate` counts the group's finished runs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from schedsim.app.report.formats import NA, key
from schedsim.app.report.quantities import STATS, UNBOUNDED, bounds_of, comparison_bounds
from schedsim.model.categories import labels as category_labels
from schedsim.model.results import Result, Stat

__all__ = [
    "KINDS",
    "aggregate",
    "categories",
    "category_cells",
    "category_summary",
    "check_confidence",
    "confidence_interval",
    "describe",
    "groups",
    "paired",
    "policy_related",
    "ratio",
    "ratio_table",
]

#: Comparisons `ratio` knows.
KINDS: tuple[str, ...] = ("R", "ratio", "percent", "difference")

#: A per-category request: (metric, stat, scheme, estimate) of `Result.category_table`.
CategoryRequest = tuple[str, Stat, str, "str | None"]


# --------------------------------------------------------------------------- #
# Confidence intervals
# --------------------------------------------------------------------------- #


def check_confidence(confidence: float) -> None:
    """ValueError unless ``confidence`` lies in (0, 1)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")


def _t_quantile(confidence: float, dof: int) -> float:
    # scipy.stats takes most of a second to import; only reports that compute
    # an interval should pay for it, not every `schedsim` command.
    from scipy import stats

    return float(stats.t.ppf((1.0 + confidence) / 2.0, dof))


def describe(
    values: Iterable[float],
    confidence: float,
    bounds: tuple[float, float] = UNBOUNDED,
) -> tuple[float, float, float, float, int]:
    """(mean, std, ci_low, ci_high, count) of the non-NaN ``values``.

    ``std`` has ddof=1. The interval is Student's t: mean ± t((1+c)/2, n-1) x
    std / sqrt(n), cut at ``bounds`` (the range of the quantity, see the
    module docstring; widened to the values themselves if they lie outside).
    One value has no spread to estimate: std and interval are NaN. Equal
    values give std 0 and an interval of zero width exactly (a floating-point
    mean of equal values can differ from them in the last bit).
    """
    check_confidence(confidence)
    if not isinstance(values, (np.ndarray, pd.Series, list, tuple)):
        values = list(values)  # a generator
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    n = int(v.size)
    if n == 0:
        return math.nan, math.nan, math.nan, math.nan, 0
    if n == 1:
        return float(v[0]), math.nan, math.nan, math.nan, 1
    if np.all(v == v[0]):
        mean = float(v[0])
        return mean, 0.0, mean, mean, n
    mean = float(v.mean())
    std = float(v.std(ddof=1))
    half = _t_quantile(confidence, n - 1) * std / math.sqrt(n)
    # The range, widened to the sample: a sample outside it (made by hand) keeps
    # an interval around its mean.
    low = min(bounds[0], float(v.min()))
    high = max(bounds[1], float(v.max()))
    return mean, std, max(mean - half, low), min(mean + half, high), n


def confidence_interval(
    values: Iterable[float],
    confidence: float = 0.95,
    bounds: tuple[float, float] = UNBOUNDED,
) -> tuple[float, float, float]:
    """(mean, low, high): the Student t confidence interval of the mean of ``values``,
    cut at ``bounds``, the range of the quantity (``(1, inf)`` for slowdowns,
    ``(0, 1)`` for a utilization: `schedsim.app.report.quantities.bounds_of`).

    NaN values are ignored. With one value the bounds are NaN (no spread to
    estimate); with none, all three are NaN; with equal values both bounds
    are the mean.

    >>> confidence_interval([1.0, 2.0, 3.0])[0]
    2.0
    >>> confidence_interval([1.0, 1.0, 50.0], bounds=(1.0, float("inf")))[1]
    1.0
    """
    mean, _, low, high, _ = describe(values, confidence, bounds)
    return mean, low, high


def paired(kind: str, base: float, other: float) -> float:
    """One paired comparison of ``other`` against ``base`` (NaN where undefined)."""
    if math.isnan(base) or math.isnan(other):
        return math.nan
    if kind == "R":
        # Lawson & Smirni 2002: R = (s1 - sm) / min(s1, sm); the min in the denominator
        # makes R symmetric: "twice as good" and "twice as bad" are +1 and -1.
        low = min(base, other)
        return (base - other) / low if low != 0 else math.nan
    if kind == "difference":
        return other - base
    if base == 0:
        return math.nan
    if kind == "ratio":
        return other / base
    return 100.0 * (other - base) / base  # "percent", Schwiegelshohn & Yahyapour's change


# --------------------------------------------------------------------------- #
# Grouping
# --------------------------------------------------------------------------- #


def groups(frame: pd.DataFrame, by: Sequence[str]) -> list[tuple[tuple[Any, ...], np.ndarray]]:
    """(first row's values of ``by``, row positions) per distinct combination, in order of
    first appearance; missing values form a group of their own."""
    if not by:
        return [((), np.arange(len(frame)))] if len(frame) else []
    columns = [frame[c].tolist() for c in by]
    positions: dict[tuple[Any, ...], list[int]] = {}
    first: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    for i, row in enumerate(zip(*columns, strict=True)):
        k = tuple(key(v) for v in row)
        if k not in positions:
            positions[k] = []
            first[k] = row
        positions[k].append(i)
    return [(first[k], np.asarray(p)) for k, p in positions.items()]


def policy_related(column: str) -> bool:
    """Columns that say which policy ran (``label`` names the policy and its parameters)."""
    return column in ("label", "policy") or column.startswith("params.")


# --------------------------------------------------------------------------- #
# Aggregation over replications
# --------------------------------------------------------------------------- #


def aggregate(
    done: pd.DataFrame, metrics: Sequence[str], by: Sequence[str], confidence: float = 0.95
) -> pd.DataFrame:
    """Each metric over the runs of each group of ``done`` (finished runs).

    Groups keep ``done``'s order of first appearance. Columns: the ``by``
    columns, ``n`` (runs in the group), and per metric ``<m>_mean``,
    ``<m>_std`` (ddof=1), ``<m>_ci_low``, ``<m>_ci_high`` (Student t, cut at
    the metric's range, `bounds_of`; NaN for a single run).
    """
    rows: list[dict[str, Any]] = []
    for values, pos in groups(done, by):
        row: dict[str, Any] = dict(zip(by, values, strict=True))
        row["n"] = len(pos)
        for m in metrics:
            described = describe(done[m].to_numpy(dtype=float)[pos], confidence, bounds_of(m))
            row.update({f"{m}_{s}": v for s, v in zip(STATS, described, strict=False)})
        rows.append(row)
    columns = [*by, "n", *(f"{m}_{s}" for m in metrics for s in STATS)]
    return pd.DataFrame(rows, columns=columns)


# --------------------------------------------------------------------------- #
# Paired comparisons
# --------------------------------------------------------------------------- #


def ratio(
    done: pd.DataFrame,
    metric: str,
    baseline: Any,
    other: Any,
    kind: str,
    on: str,
    keys: Sequence[str],
    group: Sequence[str],
    confidence: float = 0.95,
) -> pd.DataFrame:
    """``other`` compared with ``baseline`` run by run, then over replications.

    ``done`` holds the finished runs; ``baseline`` and ``other`` are values of
    its column ``on``. Each run of ``other`` is paired with the run of
    ``baseline`` that agrees on every column of ``keys`` (the scenario and the
    replication); ValueError if the baseline has two runs of one scenario.

    Per pair, with s1 the baseline's value and sm the other's: ``"R"`` =
    (s1 - sm) / min(s1, sm) (Lawson & Smirni 2002; positive when the other is
    lower), ``"ratio"`` = sm / s1, ``"percent"`` = 100 (sm - s1) / s1
    (Schwiegelshohn & Yahyapour 1998), ``"difference"`` = sm - s1; NaN where
    the denominator is 0. The per-pair values are then aggregated per
    ``group``: columns are ``group``, ``value_mean``, ``value_ci_low``,
    ``value_ci_high`` (cut at `comparison_bounds`) and ``n`` (pairs).
    Runs without a partner (of either side) are left out:
    ``attrs["unpaired"]`` counts them and ``attrs["unpaired_ids"]`` names them.
    """
    group = list(group)
    which = [key(v) for v in done[on].tolist()]
    pair_keys = list(zip(*([key(v) for v in done[c].tolist()] for c in keys), strict=True))
    base_at: dict[tuple[Any, ...], int] = {}
    for i, (w, k) in enumerate(zip(which, pair_keys, strict=True)):
        if w == key(baseline):
            if k in base_at:
                raise ValueError(
                    f"baseline {baseline!r} has several runs of the same scenario "
                    f"(runs {done['id'].iloc[base_at[k]]!r} and {done['id'].iloc[i]!r}); "
                    "compare on a column that tells them apart, e.g. on='label'"
                )
            base_at[k] = i
    mine: list[int] = []
    partner: list[int] = []
    for i, (w, k) in enumerate(zip(which, pair_keys, strict=True)):
        if w == key(other) and k in base_at:
            mine.append(i)
            partner.append(base_at[k])
    ids = done["id"].tolist()
    used = {*mine, *partner}
    left_out = [ids[i] for i, w in enumerate(which) if w == key(other) and i not in used]
    left_out += [ids[j] for j in base_at.values() if j not in used]

    vals = done[metric].to_numpy(dtype=float)
    compared = np.array(
        [paired(kind, vals[j], vals[i]) for i, j in zip(mine, partner, strict=True)]
    )
    pairs = done.iloc[mine].reset_index(drop=True)
    if policy_related(on) and on != "label" and pairs["label"].nunique() > 1:
        group = ["label", *group]  # several variants of the other policy: keep them apart
    rows: list[dict[str, Any]] = []
    bounds = comparison_bounds(kind, metric)
    for values, pos in groups(pairs, group):
        mean, _, low, high, _ = describe(compared[pos], confidence, bounds)
        row = dict(zip(group, values, strict=True))
        row.update(value_mean=mean, value_ci_low=low, value_ci_high=high, n=len(pos))
        rows.append(row)
    out = pd.DataFrame(rows, columns=[*group, "value_mean", "value_ci_low", "value_ci_high", "n"])
    out.attrs.update(
        unpaired=len(left_out),
        unpaired_ids=left_out,
        metric=metric,
        baseline=baseline,
        other=other,
        kind=kind,
        on=on,
    )
    return out


def ratio_table(
    done: pd.DataFrame,
    metric: str,
    baseline: Any,
    values: Sequence[Any],
    kind: str,
    on: str,
    keys: Sequence[str],
    group: Sequence[str],
    confidence: float = 0.95,
) -> pd.DataFrame:
    """`ratio` of every other of ``values`` (the keys of column ``on``, study order)
    against ``baseline``, one after the other, with an ``other`` column first.

    ``attrs["unpaired"]`` counts the finished runs in no pair at all (a
    baseline run compared with some other value is not counted).
    """
    # A baseline run is left out only if no comparison used it.
    base_ids = {i for i, v in zip(done["id"], done[on], strict=True) if key(v) == key(baseline)}
    base_left = set(base_ids)
    other_left: list[str] = []
    frames: list[pd.DataFrame] = []
    for value in values:
        if value == key(baseline) or value is NA:
            continue
        frame = ratio(done, metric, baseline, value, kind, on, keys, group, confidence)
        other_left += [i for i in frame.attrs["unpaired_ids"] if i not in base_ids]
        base_left &= set(frame.attrs["unpaired_ids"])
        frame.insert(0, "other", value)
        if len(frame):
            frames.append(frame)
    if frames:
        out = pd.concat(frames, ignore_index=True)
    else:
        columns = ["other", *group, "value_mean", "value_ci_low", "value_ci_high", "n"]
        out = pd.DataFrame(columns=columns)
    left = [*other_left, *sorted(base_left)]
    out.attrs.update(
        unpaired=len(left),
        unpaired_ids=left,
        metric=metric,
        baseline=baseline,
        kind=kind,
        on=on,
    )
    return out


# --------------------------------------------------------------------------- #
# Per-category tables
# --------------------------------------------------------------------------- #


def check_category_request(scheme: str, estimate: str | None) -> None:
    """ValueError unless ``scheme`` and ``estimate`` are ones `Result.category_table` takes."""
    if scheme not in ("16", "4"):
        raise ValueError(f"scheme must be '16' or '4', got {scheme!r}")
    if estimate not in (None, "well", "poor"):
        raise ValueError(f"estimate must be None, 'well' or 'poor', got {estimate!r}")


def category_cells(
    runs: Iterable[tuple[Result, int | float, int | float]],
    count: int,
    requests: Sequence[CategoryRequest],
) -> dict[CategoryRequest, np.ndarray]:
    """Per request (metric, stat, scheme, estimate): runs x categories of
    `Result.category_table`, one row per (result, warmup, cooldown) of ``runs``
    (``count`` of them), in their order.

    ``runs`` may be a generator: each result is used once, then let go (reading
    jobs.parquet is the slow part).
    """
    for _, _, scheme, estimate in requests:
        check_category_request(scheme, estimate)
    cells = {req: np.full((count, len(category_labels(req[2]))), math.nan) for req in requests}
    for k, (result, warmup, cooldown) in enumerate(runs):
        for req in requests:
            metric, stat, scheme, estimate = req
            table = result.category_table(metric, stat, scheme, estimate, warmup, cooldown)
            # Row-major ravel of the runtime x size table is the category order.
            cells[req][k] = table.to_numpy(dtype=float).ravel()
    return cells


def categories(
    done: pd.DataFrame,
    cells: np.ndarray,
    by: Sequence[str],
    scheme: str,
    confidence: float = 0.95,
    bounds: tuple[float, float] = UNBOUNDED,
) -> pd.DataFrame:
    """Per-run category values (``cells``: runs of ``done`` x categories) aggregated per
    group (``by``) and category.

    Long table: the group columns, ``category`` (an ordered categorical in the
    paper's order), ``mean``, ``ci_low``, ``ci_high`` (cut at ``bounds``, the
    range of the values: `bounds_of` of the metric and statistic), ``n`` (runs
    that had jobs in that category).
    """
    labels = list(category_labels(scheme))
    rows: list[dict[str, Any]] = []
    for values, pos in groups(done, by):
        group = dict(zip(by, values, strict=True))
        for c, label in enumerate(labels):
            mean, _, low, high, n = describe(cells[pos, c], confidence, bounds)
            rows.append(
                {
                    **group,
                    "category": label,
                    "mean": mean,
                    "ci_low": low,
                    "ci_high": high,
                    "n": n,
                }
            )
    out = pd.DataFrame(rows, columns=[*by, "category", "mean", "ci_low", "ci_high", "n"])
    out["category"] = pd.Categorical(out["category"], categories=labels, ordered=True)
    return out


def category_summary(
    done: pd.DataFrame,
    cells: Mapping[CategoryRequest, np.ndarray],
    count: CategoryRequest,
    columns: Sequence[tuple[str, str]],
    requests: Sequence[CategoryRequest],
    by: Sequence[str],
    scheme: str,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Several per-category statistics side by side, averaged over replications.

    ``cells`` as `category_cells` gives them for the runs of ``done``:
    ``count`` is the request of the job counts, ``requests`` those of the
    (metric, stat) pairs of ``columns``. Per group (``by``) and category
    (paper order): ``n`` (runs with jobs in the category), ``jobs`` (their
    mean number of jobs there), and per stat and metric the mean over
    replications of the per-run value, ``<stat>_<metric>``, with
    ``_ci_low``/``_ci_high`` (Student t cut at `bounds_of` the metric and
    stat; NaN for one run).
    """
    labels = list(category_labels(scheme))
    rows: list[dict[str, Any]] = []
    for values, pos in groups(done, by):
        group = dict(zip(by, values, strict=True))
        for c, label in enumerate(labels):
            jobs = cells[count][pos, c]
            row: dict[str, Any] = {
                **group,
                "category": label,
                "n": int(np.sum(jobs > 0)),
                "jobs": float(np.mean(jobs)) if len(jobs) else math.nan,
            }
            for (m, st), req in zip(columns, requests, strict=True):
                mean, _, low, high, _ = describe(cells[req][pos, c], confidence, bounds_of(m, st))
                name = f"{st}_{m}"
                row.update({name: mean, f"{name}_ci_low": low, f"{name}_ci_high": high})
            rows.append(row)
    names = [f"{st}_{m}{end}" for m, st in columns for end in ("", "_ci_low", "_ci_high")]
    out = pd.DataFrame(rows, columns=[*by, "category", "n", "jobs", *names])
    out["category"] = pd.Categorical(out["category"], categories=labels, ordered=True)
    return out
