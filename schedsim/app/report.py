"""Reports on a parameter study: replications aggregated, policies compared, plots.

A sweep writes one directory per study (the sweep engine owns the layout;
this module only reads it)::

    DIR/study.json                   the study definition: its runs, in order
    DIR/runs/<run_id>/config.json    one finished run: its configuration ...
    DIR/runs/<run_id>/summary.json   ... headline numbers and metadata
    DIR/runs/<run_id>/jobs.parquet   ... and the tables of `schedsim.model.results.Result`
    DIR/runs/<run_id>/series.parquet
    DIR/failures/<run_id>.json       a run that raised: its error and traceback

``study.json``'s ``runs`` list is authoritative: a report covers exactly those
runs, whatever else lies in ``runs/`` (results of an earlier definition of the
study are left out). A listed run is *done* when its ``summary.json`` exists,
*failed* when only a failure record does, *missing* otherwise (not run yet,
or the sweep was interrupted).

Everything is a pandas DataFrame so notebooks can go on from there:

`StudyResults.runs`
    One row per run: status, the configuration flattened into columns
    (policy parameters as ``params.<key>``), every numeric summary entry as a
    metric column, and the run's ``wall_time``.
`StudyResults.aggregate`
    Mean, standard deviation and a Student t confidence interval over the
    replications of each configuration. Replications differ only in their
    seed, so they are independent samples of the same experiment; with the
    handful a sweep affords, the t interval (not the normal one) is right.
`StudyResults.ratio`
    Two policies compared run by run on the same scenario and seed (the same
    jobs, the same load), then aggregated: paired comparisons cancel most of
    the variation between replications. ``kind="R"`` is seed 001's slowdown
    ratio R = (s1 - sm) / min(s1, sm), positive when the other policy's value
    is lower; ``"percent"`` is seed 004's percentage change.
`StudyResults.categories`
    Seed 000's per-category tables (Table 2.1, 16 categories, or Table 4.1,
    4), averaged over replications.
`StudyResults.plot` / `StudyResults.write` / `print_report`
    Standard figures (PNG and SVG), CSV tables, and the console report of
    ``schedsim report DIR``.

Conventions
-----------
* ``load_factor: null`` means the trace's own load and is read as 1.0, so a
  load sweep that includes the unscaled trace plots as one numeric axis.
* Missing values are values: a run whose policy lacks a parameter has NaN in
  that ``params.*`` column, and NaN forms its own group (never dropped) when
  grouping or pairing.
* Groups come out in the study's order of first appearance, not sorted: the
  study author chose that order.
* Statistics ignore NaN values (a metric a run could not compute); ``n`` in
  `StudyResults.aggregate` counts the group's finished runs.
"""

from __future__ import annotations

import json
import math
import numbers
import re
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from rich.console import Console
from rich.table import Table
from rich.text import Text

from schedsim.app.study import CATEGORY_KEYS, CONFIG_KEYS
from schedsim.model.results import CATEGORIES, CATEGORIES4, Result, Stat

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "KINDS",
    "MAIN_METRICS",
    "StudyResults",
    "confidence_interval",
    "load_study",
    "print_report",
]

#: The metrics a report shows unless told otherwise (those a study has).
MAIN_METRICS: tuple[str, ...] = (
    "mean_bounded_slowdown",
    "mean_wait",
    "mean_turnaround",
    "utilization",
    "throughput_per_day",
    "makespan",
)
#: Per-category statistics a report writes unless told otherwise (seed 000: the
#: average and the worst case of the bounded slowdown and the turnaround time).
CATEGORY_METRICS: tuple[str, ...] = ("bounded_slowdown", "turnaround")
CATEGORY_STATS: tuple[str, ...] = ("mean", "max")
#: Comparisons `StudyResults.ratio` knows.
KINDS: tuple[str, ...] = ("R", "ratio", "percent", "difference")
STATUSES: tuple[str, ...] = ("done", "failed", "missing")

#: Columns of `StudyResults.runs` that do not come from a run's configuration.
_RUN_COLUMNS: tuple[str, ...] = ("id", "label", "replication", "status")
_FAILURE_COLUMNS: tuple[str, ...] = ("id", "label", "replication", "error", "traceback", "when")


# --------------------------------------------------------------------------- #
# Statistics
# --------------------------------------------------------------------------- #


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")


def _t_quantile(confidence: float, dof: int) -> float:
    # scipy.stats takes most of a second to import; only reports that compute
    # an interval should pay for it, not every `schedsim` command.
    from scipy import stats

    return float(stats.t.ppf((1.0 + confidence) / 2.0, dof))


def _describe(values: Iterable[float], confidence: float) -> tuple[float, float, float, float, int]:
    """(mean, std, ci_low, ci_high, count) of the non-NaN ``values``.

    ``std`` has ddof=1. The interval is Student's t: mean ± t((1+c)/2, n-1) x
    std / sqrt(n). One value has no spread to estimate: std and interval are
    NaN. Equal values give std 0 and an interval of zero width exactly (a
    floating-point mean of equal values can differ from them in the last bit).
    """
    _check_confidence(confidence)
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
    return mean, std, mean - half, mean + half, n


def confidence_interval(
    values: Iterable[float], confidence: float = 0.95
) -> tuple[float, float, float]:
    """(mean, low, high): the Student t confidence interval of the mean of ``values``.

    NaN values are ignored. With one value the bounds are NaN (no spread to
    estimate); with none, all three are NaN; with equal values both bounds
    are the mean.

    >>> confidence_interval([1.0, 2.0, 3.0])[0]
    2.0
    """
    mean, _, low, high, _ = _describe(values, confidence)
    return mean, low, high


def _compare(kind: str, base: float, other: float) -> float:
    """One paired comparison of ``other`` against ``base`` (NaN where undefined)."""
    if math.isnan(base) or math.isnan(other):
        return math.nan
    if kind == "R":
        # Seed 001: R = (s1 - sm) / min(s1, sm); the min in the denominator
        # makes R symmetric: "twice as good" and "twice as bad" are +1 and -1.
        low = min(base, other)
        return (base - other) / low if low != 0 else math.nan
    if kind == "difference":
        return other - base
    if base == 0:
        return math.nan
    if kind == "ratio":
        return other / base
    return 100.0 * (other - base) / base  # "percent", seed 004's change


# --------------------------------------------------------------------------- #
# Keys and columns
# --------------------------------------------------------------------------- #


class _Missing:
    """Stands for NaN/None in grouping keys: NaN != NaN, but all missing values are one group."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<NA>"


_NA = _Missing()


def _key(value: Any) -> Any:
    """A hashable grouping key for a cell value, with every kind of missing value as `_NA`."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return _NA
    return value


def _groups(frame: pd.DataFrame, by: Sequence[str]) -> list[tuple[tuple[Any, ...], np.ndarray]]:
    """(first row's values of ``by``, row positions) per distinct combination, in order of
    first appearance; missing values form a group of their own."""
    if not by:
        return [((), np.arange(len(frame)))] if len(frame) else []
    columns = [frame[c].tolist() for c in by]
    positions: dict[tuple[Any, ...], list[int]] = {}
    first: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    for i, row in enumerate(zip(*columns, strict=True)):
        key = tuple(_key(v) for v in row)
        if key not in positions:
            positions[key] = []
            first[key] = row
        positions[key].append(i)
    return [(first[k], np.asarray(p)) for k, p in positions.items()]


def _policy_related(column: str) -> bool:
    """Columns that say which policy ran (``label`` names the policy and its parameters)."""
    return column in ("label", "policy") or column.startswith("params.")


def _cell(value: Any) -> Any:
    """A configuration value as a DataFrame cell: None as NaN, containers as JSON text
    (so that every cell is hashable and prints on one line)."""
    if value is None:
        return math.nan
    if isinstance(value, (Mapping, list, tuple)):
        return json.dumps(value, sort_keys=True)
    return value


def _flatten(config: Mapping[str, Any]) -> dict[str, Any]:
    """One run's configuration as flat columns: ``{"params": {"sf": 2}}`` -> ``params.sf``.

    Any key holding an object is flattened the same way, so keys a later
    version adds need no code here.
    """
    flat: dict[str, Any] = {}
    for key, value in config.items():
        if isinstance(value, Mapping):
            for sub, v in value.items():
                flat[f"{key}.{sub}"] = _cell(v)
        else:
            flat[str(key)] = _cell(value)
    if "load_factor" in flat and _key(flat["load_factor"]) is _NA:
        flat["load_factor"] = 1.0  # null: the trace's own load
    return flat


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _trim(value: Any) -> int | float:
    """A run's ``warmup``/``cooldown`` as `Result` takes it (null: nothing trimmed)."""
    return 0 if value is None else value


def _as_list(value: str | Iterable[str] | None) -> list[str] | None:
    if value is None:
        return None
    return [value] if isinstance(value, str) else list(value)


def _fmt(value: Any) -> str:
    """A number as a report prints it: 4 significant digits, large values whole."""
    if isinstance(value, str):
        return value
    if _key(value) is _NA:
        return "-"
    if isinstance(value, (bool, np.bool_)):
        return str(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        v = float(value)
        if math.isinf(v):
            return str(v)
        if abs(v) >= 1e4:
            return f"{v:,.0f}"
        return f"{v:.4g}"
    return str(value)


def _name(columns: Sequence[str], values: Sequence[Any]) -> str:
    """A group's display name: the label as is, other columns as ``col=value``."""
    parts = [
        _fmt(v) if c == "label" else f"{c}={_fmt(v)}" for c, v in zip(columns, values, strict=True)
    ]
    return ", ".join(parts)


def _safe(name: str) -> str:
    """A column or metric name usable in a file name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)


# --------------------------------------------------------------------------- #
# Reading a study directory
# --------------------------------------------------------------------------- #


def _read_study(path: Path) -> dict[str, Any]:
    """study.json, checked just enough that the rest can rely on its shape."""
    if not path.is_file():
        raise ValueError(f"{path}: no study.json here (not a parameter-study directory?)")
    try:
        doc = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: malformed study.json: {exc}") from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("runs"), list):
        raise ValueError(f"{path}: malformed study.json: expected an object with a 'runs' list")
    if not isinstance(doc.get("report") or {}, dict):
        raise ValueError(f"{path}: malformed study.json: 'report' must be an object")
    seen: set[str] = set()
    for k, run in enumerate(doc["runs"]):
        rid = run.get("id") if isinstance(run, dict) else None
        # Run ids name directories: refuse anything that could leave runs/.
        if not isinstance(rid, str) or not rid or rid in (".", "..") or re.search(r"[/\\]", rid):
            raise ValueError(f"{path}: malformed study.json: run {k} has no usable 'id'")
        if not isinstance(run.get("config", {}), dict):
            raise ValueError(f"{path}: malformed study.json: run {rid!r} config is not an object")
        if rid in seen:
            raise ValueError(f"{path}: malformed study.json: run id {rid!r} appears twice")
        seen.add(rid)
    return doc


def _read_json(path: Path) -> dict[str, Any] | None:
    """A JSON object from ``path``, or None (with a warning) if it cannot be read.

    A report may be made while the sweep is still writing, so one unreadable
    record should not stop it.
    """
    try:
        doc = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        warnings.warn(f"{path}: unreadable, ignored: {exc}", stacklevel=3)
        return None
    if not isinstance(doc, dict):
        warnings.warn(f"{path}: not a JSON object, ignored", stacklevel=3)
        return None
    return doc


def _column_order(configs: Sequence[Mapping[str, Any]]) -> list[str]:
    """Configuration columns: known keys in `CONFIG_KEYS` order, then new ones; the
    columns of an object key (``params.*``) where the key stands, in order of first
    appearance (so a parameter only a later run has does not land at the end)."""
    tops: dict[str, list[str]] = {}
    for config in configs:
        for key, value in config.items():
            columns = tops.setdefault(str(key), [])
            names = [f"{key}.{s}" for s in value] if isinstance(value, Mapping) else [str(key)]
            columns.extend(n for n in names if n not in columns)
    rank = {k: i for i, k in enumerate(CONFIG_KEYS)}
    first = {k: i for i, k in enumerate(tops)}
    ordered = sorted(tops, key=lambda k: (rank.get(k, len(rank)), first[k]))
    return [c for top in ordered for c in tops[top]]


# --------------------------------------------------------------------------- #
# StudyResults
# --------------------------------------------------------------------------- #


class StudyResults:
    """The results of one parameter study, read from its directory.

    Build with `StudyResults.load` (or `load_study`). Attributes:

    ``directory``
        The study directory.
    ``name``, ``version``, ``seed``, ``replications``
        From study.json (``version`` is the schedsim version that defined it).
    ``report_defaults``
        study.json's ``"report"`` object (``metrics``, ``x``, ``baseline``,
        ``kind``), or ``{}``: what `write` and `print_report` use when not told.
    ``runs``
        One row per run of study.json, in study order (see the module docstring).
    ``failures``
        One row per failed run: ``id``, ``label``, ``replication``, ``error``
        (one line), ``traceback``, ``when``.
    ``config_columns``
        The configuration columns of ``runs`` (``label`` is not one: it names them).
    ``metrics``
        The metric columns of ``runs``: every numeric summary entry.
    """

    def __init__(self, directory: str | Path, study: Mapping[str, Any]) -> None:
        """Read the runs of ``study`` (the parsed study.json) from ``directory``."""
        self.directory = Path(directory)
        self.name: str = str(study.get("name") or self.directory.name)
        self.version: str = str(study.get("schedsim_version") or "")
        self.seed: Any = study.get("seed")
        self.replications: Any = study.get("replications")
        self.report_defaults: dict[str, Any] = dict(study.get("report") or {})

        runs: list[Mapping[str, Any]] = list(study.get("runs") or [])
        # The raw configurations stay at hand: columns turn warmup=500 (a job
        # count) into 500.0 (which `Result` would read as a fraction).
        self._configs: dict[str, dict[str, Any]] = {
            r["id"]: dict(r.get("config") or {}) for r in runs
        }
        flats = [_flatten(self._configs[r["id"]]) for r in runs]
        config_columns = _column_order([self._configs[r["id"]] for r in runs])
        # A configuration key a later version might name like a run column
        # must not overwrite it.
        renamed = {c: f"config.{c}" for c in config_columns if c in _RUN_COLUMNS}
        self.config_columns: list[str] = [renamed.get(c, c) for c in config_columns]

        rows: list[dict[str, Any]] = []
        summaries: list[dict[str, Any] | None] = []
        failures: list[dict[str, Any]] = []
        for run, flat in zip(runs, flats, strict=True):
            rid = run["id"]
            row: dict[str, Any] = {
                "id": rid,
                "label": str(run.get("label") or rid),
                "replication": _cell(run.get("replication")),
            }
            row["status"], summary_doc, record = self._read_run(rid)
            if record is not None:
                failures.append(
                    {
                        "id": rid,
                        "label": row["label"],
                        "replication": row["replication"],
                        "error": str(record.get("error") or "unreadable failure record"),
                        "traceback": str(record.get("traceback") or ""),
                        "when": str(record.get("when") or ""),
                    }
                )
            row.update({renamed.get(c, c): v for c, v in flat.items()})
            rows.append(row)
            summaries.append(summary_doc)

        # Metrics: every summary entry that is a number (or null) in every
        # finished run, in order of first appearance.
        candidates: dict[str, bool] = {}
        for doc in summaries:
            if doc is None:
                continue
            for key, value in doc["summary"].items():
                numeric = value is None or _is_number(value)
                candidates[key] = candidates.get(key, True) and numeric
        taken = {*_RUN_COLUMNS, *self.config_columns, "wall_time"}
        metric_names = {
            k: (f"summary.{k}" if k in taken else k) for k, ok in candidates.items() if ok
        }
        self.metrics: list[str] = list(metric_names.values())
        for row, doc in zip(rows, summaries, strict=True):
            summary = doc["summary"] if doc is not None else {}
            meta = doc.get("meta") if doc is not None else None
            for key, column in metric_names.items():
                value = summary.get(key)
                row[column] = float(value) if _is_number(value) else math.nan
            wall = meta.get("wall_time") if isinstance(meta, dict) else None
            row["wall_time"] = float(wall) if _is_number(wall) else math.nan

        columns = [*_RUN_COLUMNS, *self.config_columns, *self.metrics, "wall_time"]
        self.runs: pd.DataFrame = pd.DataFrame(rows, columns=columns)
        replication = self.runs["replication"]
        if (
            pd.api.types.is_float_dtype(replication)
            and replication.notna().all()
            and (replication == replication.round()).all()
        ):
            self.runs["replication"] = replication.astype(np.int64)
        self.failures: pd.DataFrame = pd.DataFrame(failures, columns=list(_FAILURE_COLUMNS))

    def _read_run(self, rid: str) -> tuple[str, dict[str, Any] | None, dict[str, Any] | None]:
        """(status, summary.json, failure record) of one run; the latter two None if absent.

        A summary makes a run done even if an older failure record remains
        (the run was retried and succeeded).
        """
        summary_path = self.directory / "runs" / rid / "summary.json"
        if summary_path.is_file():
            doc = _read_json(summary_path)
            if doc is not None and isinstance(doc.get("summary"), dict):
                return "done", doc, None
            if doc is not None:
                warnings.warn(f"{summary_path}: no 'summary' object, ignored", stacklevel=3)
        failure_path = self.directory / "failures" / f"{rid}.json"
        if failure_path.is_file():
            return "failed", None, _read_json(failure_path) or {}
        return "missing", None, None

    @classmethod
    def load(cls, directory: str | Path) -> StudyResults:
        """Read a study directory. ValueError (naming the file) if study.json is
        missing or malformed; unreadable run records are warned about and the
        runs counted as missing."""
        directory = Path(directory)
        return cls(directory, _read_study(directory / "study.json"))

    def __repr__(self) -> str:
        counts = ", ".join(f"{v} {k}" for k, v in self.counts.items())
        return f"StudyResults({self.name!r}, {len(self.runs)} runs: {counts})"

    # ---- views --------------------------------------------------------------

    @property
    def done(self) -> pd.DataFrame:
        """The finished runs (rows of ``runs`` with status "done"), in study order."""
        return self.runs[self.runs["status"] == "done"].reset_index(drop=True)

    @property
    def counts(self) -> dict[str, int]:
        """Number of runs per status: ``{"done": ..., "failed": ..., "missing": ...}``."""
        status = self.runs["status"]
        return {s: int((status == s).sum()) for s in STATUSES}

    @property
    def scenario_columns(self) -> list[str]:
        """Configuration columns that describe the experiment rather than the policy:
        everything but ``policy`` and ``params.*`` (``seed`` included)."""
        return [c for c in self.config_columns if not _policy_related(c)]

    def varying(self) -> list[str]:
        """Configuration columns (``label`` included) whose values differ across the
        runs, ``seed`` and ``replication`` excepted. A missing value counts as a value."""
        columns = ["label", *(c for c in self.config_columns if c != "seed")]
        return [c for c in columns if len({_key(v) for v in self.runs[c].tolist()}) > 1]

    def numeric_varying(self) -> list[str]:
        """The varying columns a plot can put on its x axis: numeric, not boolean."""
        return [
            c
            for c in self.varying()
            if pd.api.types.is_numeric_dtype(self.runs[c])
            and not pd.api.types.is_bool_dtype(self.runs[c])
        ]

    def _default_by(self) -> list[str]:
        # The label names the policy and its parameters, so policy columns
        # would only split nothing further (or repeat the label).
        return ["label", *(c for c in self.varying() if not _policy_related(c))]

    def _by(self, by: str | Sequence[str] | None) -> list[str]:
        columns = self._default_by() if by is None else _as_list(by) or []
        unknown = [c for c in columns if c not in self.runs]
        if unknown:
            raise ValueError(f"cannot group by {unknown}: no such column of runs")
        return columns

    def _metrics(self, metrics: str | Iterable[str] | None) -> list[str]:
        if metrics is None:
            return [m for m in MAIN_METRICS if m in self.metrics]
        chosen = _as_list(metrics) or []
        unknown = [m for m in chosen if m not in self.metrics]
        if unknown:
            raise ValueError(
                f"unknown metric(s) {unknown}; the study has {', '.join(self.metrics) or 'none'}"
            )
        return chosen

    # ---- aggregation --------------------------------------------------------

    def aggregate(
        self,
        metrics: str | Iterable[str] | None = None,
        by: str | Sequence[str] | None = None,
        confidence: float = 0.95,
    ) -> pd.DataFrame:
        """Each metric over the replications of each group of finished runs.

        ``by`` defaults to ``label`` plus every varying configuration column
        that is not about the policy (the label already names it); groups keep
        the study's order. ``metrics`` defaults to `MAIN_METRICS` (those the
        study has). Columns: the ``by`` columns, ``n`` (finished runs in the
        group), and per metric ``<m>_mean``, ``<m>_std`` (ddof=1),
        ``<m>_ci_low``, ``<m>_ci_high`` (Student t; NaN for a single run).
        """
        _check_confidence(confidence)
        metrics = self._metrics(metrics)
        by = self._by(by)
        done = self.done
        stats = ("mean", "std", "ci_low", "ci_high")
        rows: list[dict[str, Any]] = []
        for values, pos in _groups(done, by):
            row: dict[str, Any] = dict(zip(by, values, strict=True))
            row["n"] = len(pos)
            for m in metrics:
                described = _describe(done[m].to_numpy(dtype=float)[pos], confidence)
                row.update({f"{m}_{s}": v for s, v in zip(stats, described, strict=False)})
            rows.append(row)
        columns = [*by, "n", *(f"{m}_{s}" for m in metrics for s in stats)]
        return pd.DataFrame(rows, columns=columns)

    # ---- paired comparisons -------------------------------------------------

    def _pairing(self, on: str) -> tuple[list[str], list[str]]:
        """(columns two runs must agree on to be paired, columns to aggregate by)."""
        if on not in self.runs or on in ("id", "status") or on in self.metrics:
            raise ValueError(f"on must be a configuration column or 'label', got {on!r}")
        varying = self.varying()
        if _policy_related(on):
            # Same experiment, other policy: agree on everything but the policy.
            keys = [*self.scenario_columns, "replication"]
            group = [c for c in varying if c in self.scenario_columns]
        else:
            # e.g. on="load_factor": the same policy at two loads.
            keys = [c for c in ("label", *self.config_columns) if c != on] + ["replication"]
            group = [c for c in varying if c != on and (c == "label" or not _policy_related(c))]
        return keys, group

    def _check_comparison(
        self, metric: str, kind: str, on: str, confidence: float
    ) -> tuple[list[str], list[str]]:
        """Validate a comparison's arguments; return `_pairing` of ``on``."""
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
        _check_confidence(confidence)
        self._metrics([metric])
        return self._pairing(on)

    def _check_value(self, on: str, role: str, value: Any) -> list[Any]:
        """The distinct values of column ``on`` (study order); ValueError naming them
        if ``value`` is not one."""
        available = list(dict.fromkeys(_key(v) for v in self.runs[on].tolist()))
        if _key(value) not in available:
            raise ValueError(
                f"{role} {value!r} appears in no run's {on!r}; available: "
                + ", ".join(repr(v) for v in available)
            )
        return available

    def ratio(
        self,
        metric: str = "mean_bounded_slowdown",
        baseline: Any = None,
        other: Any = None,
        kind: str = "R",
        on: str = "label",
        confidence: float = 0.95,
    ) -> pd.DataFrame:
        """``other`` compared with ``baseline`` run by run, then over replications.

        ``baseline`` and ``other`` are values of column ``on`` (labels by
        default); ValueError if either is in no run. Each finished run of
        ``other`` is paired with the finished run of ``baseline`` that has the
        same scenario (every configuration column but ``label``, ``policy`` and
        ``params.*``: workload, load, machine, seed, ...) and replication.

        Per pair, with s1 the baseline's value and sm the other's: ``"R"`` =
        (s1 - sm) / min(s1, sm) (seed 001; positive when the other is lower),
        ``"ratio"`` = sm / s1, ``"percent"`` = 100 (sm - s1) / s1 (seed 004),
        ``"difference"`` = sm - s1; NaN where the denominator is 0. The per-pair
        values are then aggregated per scenario: columns are the varying
        scenario columns, ``value_mean``, ``value_ci_low``, ``value_ci_high``
        and ``n`` (pairs). Runs without a partner (of either side) are left out:
        ``attrs["unpaired"]`` counts them and ``attrs["unpaired_ids"]`` names them.

        ``on`` may also be a scenario column (``on="load_factor"``,
        ``baseline=1.0``): then each policy is compared with itself.
        """
        if baseline is None or other is None:
            raise ValueError("ratio needs a baseline and an other value to compare")
        keys, group = self._check_comparison(metric, kind, on, confidence)
        self._check_value(on, "baseline", baseline)
        self._check_value(on, "other", other)

        done = self.done
        which = [_key(v) for v in done[on].tolist()]
        pair_keys = list(zip(*([_key(v) for v in done[c].tolist()] for c in keys), strict=True))
        base_at: dict[tuple[Any, ...], int] = {}
        for i, (w, k) in enumerate(zip(which, pair_keys, strict=True)):
            if w == _key(baseline):
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
            if w == _key(other) and k in base_at:
                mine.append(i)
                partner.append(base_at[k])
        ids = done["id"].tolist()
        used = {*mine, *partner}
        left_out = [ids[i] for i, w in enumerate(which) if w == _key(other) and i not in used]
        left_out += [ids[j] for j in base_at.values() if j not in used]

        vals = done[metric].to_numpy(dtype=float)
        compared = np.array(
            [_compare(kind, vals[j], vals[i]) for i, j in zip(mine, partner, strict=True)]
        )
        paired = done.iloc[mine].reset_index(drop=True)
        if _policy_related(on) and on != "label" and paired["label"].nunique() > 1:
            group = ["label", *group]  # several variants of the other policy: keep them apart
        rows: list[dict[str, Any]] = []
        for values, pos in _groups(paired, group):
            mean, _, low, high, _ = _describe(compared[pos], confidence)
            row = dict(zip(group, values, strict=True))
            row.update(value_mean=mean, value_ci_low=low, value_ci_high=high, n=len(pos))
            rows.append(row)
        out = pd.DataFrame(
            rows, columns=[*group, "value_mean", "value_ci_low", "value_ci_high", "n"]
        )
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
        self,
        metric: str = "mean_bounded_slowdown",
        baseline: Any = None,
        kind: str = "R",
        on: str = "label",
        confidence: float = 0.95,
    ) -> pd.DataFrame:
        """`ratio` of every other value of ``on`` against ``baseline``, one after the
        other (study order), with an ``other`` column first.

        ``attrs["unpaired"]`` counts the finished runs in no pair at all (a
        baseline run compared with some other value is not counted).
        """
        if baseline is None:
            raise ValueError("ratio_table needs a baseline")
        # Checked here too: with nothing to compare, ratio is never called.
        _, group = self._check_comparison(metric, kind, on, confidence)
        values = self._check_value(on, "baseline", baseline)
        done = self.done
        # A baseline run is left out only if no comparison used it.
        base_ids = {
            i for i, v in zip(done["id"], done[on], strict=True) if _key(v) == _key(baseline)
        }
        base_left = set(base_ids)
        other_left: list[str] = []
        frames: list[pd.DataFrame] = []
        for value in values:
            if value == _key(baseline) or value is _NA:
                continue
            frame = self.ratio(metric, baseline, value, kind, on, confidence)
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

    # ---- per-run results and categories -------------------------------------

    def result(self, run_id: str) -> Result:
        """The full `Result` of one finished run (its jobs and time series)."""
        match = self.runs.index[self.runs["id"] == run_id]
        if len(match) == 0:
            raise ValueError(f"no run {run_id!r} in study {self.name!r}")
        status = self.runs.at[match[0], "status"]
        if status != "done":
            raise ValueError(f"run {run_id!r} is {status}, not done: it has no results")
        path = self.directory / "runs" / run_id
        try:
            return Result.load(path)
        except (OSError, ValueError, KeyError) as exc:
            raise ValueError(f"cannot load run {run_id!r} from {path}: {exc}") from exc

    def _category_cells(
        self, requests: Sequence[tuple[str, Stat, str, str | None]]
    ) -> dict[tuple[str, Stat, str, str | None], np.ndarray]:
        """Per request (metric, stat, scheme, estimate): finished runs x categories of
        `Result.category_table` (with each run's own warmup/cooldown), in ``done`` order."""
        for _, _, scheme, estimate in requests:
            if scheme not in ("16", "4"):
                raise ValueError(f"scheme must be '16' or '4', got {scheme!r}")
            if estimate not in (None, "well", "poor"):
                raise ValueError(f"estimate must be None, 'well' or 'poor', got {estimate!r}")
        done = self.done
        cells = {
            req: np.full((len(done), len(CATEGORIES if req[2] == "16" else CATEGORIES4)), math.nan)
            for req in requests
        }
        # Reading jobs.parquet is the slow part: each run once, then let it go.
        for k, run_id in enumerate(done["id"].tolist()):
            config = self._configs[run_id]
            result = self.result(run_id)
            for req in requests:
                metric, stat, scheme, estimate = req
                table = result.category_table(
                    metric,
                    stat,
                    scheme,
                    estimate,
                    _trim(config.get("warmup")),
                    _trim(config.get("cooldown")),
                )
                # Row-major ravel of the runtime x size table is the category order.
                cells[req][k] = table.to_numpy(dtype=float).ravel()
        return cells

    def categories(
        self,
        metric: str = "bounded_slowdown",
        stat: Stat = "mean",
        scheme: str = "16",
        estimate: str | None = None,
        by: str | Sequence[str] | None = None,
        confidence: float = 0.95,
    ) -> pd.DataFrame:
        """Seed 000's per-category table, averaged over replications.

        Each finished run gives `Result.category_table` (``metric`` aggregated
        by ``stat`` per category, with the run's own warmup/cooldown); those
        are then aggregated per group (``by`` as in `aggregate`) and category.
        Long table: the group columns, ``category`` (an ordered categorical in
        the paper's order), ``mean``, ``ci_low``, ``ci_high``, ``n`` (runs that
        had jobs in that category).
        """
        _check_confidence(confidence)
        by = self._by(by)
        request = (metric, stat, scheme, estimate)
        cells = self._category_cells([request])[request]
        labels = list(CATEGORIES if scheme == "16" else CATEGORIES4)
        rows: list[dict[str, Any]] = []
        for values, pos in _groups(self.done, by):
            group = dict(zip(by, values, strict=True))
            for c, label in enumerate(labels):
                mean, _, low, high, n = _describe(cells[pos, c], confidence)
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
        self,
        scheme: str = "16",
        estimate: str | None = None,
        metrics: Sequence[str] = CATEGORY_METRICS,
        stats: Sequence[str] = CATEGORY_STATS,
        by: str | Sequence[str] | None = None,
        confidence: float = 0.95,
    ) -> pd.DataFrame:
        """Several per-category statistics side by side, averaged over replications.

        The table to set beside seed 000's figures: per group (``by`` as in
        `aggregate`) and category (16 of Table 2.1 or 4 of Table 4.1, paper
        order), ``n`` (runs with jobs in the category), ``jobs`` (their mean
        number of jobs there), and per stat and metric the mean over
        replications of the per-run value, ``<stat>_<metric>`` (e.g.
        ``mean_bounded_slowdown``, ``max_turnaround``: average and worst case),
        with ``_ci_low``/``_ci_high`` (Student t; NaN for one run). ``estimate``
        keeps only ``"well"`` or ``"poor"`` estimated jobs (seed 000, chapter 4).
        """
        _check_confidence(confidence)
        by = self._by(by)
        labels = list(CATEGORIES if scheme == "16" else CATEGORIES4)
        columns = [(m, st) for st in stats for m in metrics]
        requests = [(m, st, scheme, estimate) for m, st in columns]
        count = (metrics[0] if metrics else "bounded_slowdown", "count", scheme, estimate)
        cells = self._category_cells([count, *requests])
        rows: list[dict[str, Any]] = []
        for values, pos in _groups(self.done, by):
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
                    mean, _, low, high, _ = _describe(cells[req][pos, c], confidence)
                    name = f"{st}_{m}"
                    row.update({name: mean, f"{name}_ci_low": low, f"{name}_ci_high": high})
                rows.append(row)
        names = [f"{st}_{m}{end}" for m, st in columns for end in ("", "_ci_low", "_ci_high")]
        out = pd.DataFrame(rows, columns=[*by, "category", "n", "jobs", *names])
        out["category"] = pd.Categorical(out["category"], categories=labels, ordered=True)
        return out

    # ---- plots --------------------------------------------------------------

    def _line_columns(self, x: str) -> list[str]:
        """What tells the lines of a plot against ``x`` apart."""
        rest = [c for c in self.varying() if c != x]
        if _policy_related(x):
            # x is a policy parameter, which the label encodes: label would make
            # every point its own line.
            return [c for c in rest if c != "label"]
        return [c for c in rest if c == "label" or not _policy_related(c)]

    def plot(
        self,
        metric: str,
        x: str | None = None,
        ax: Axes | None = None,
        confidence: float = 0.95,
        log: bool | None = None,
    ) -> Figure:
        """``metric`` (mean over replications, with its confidence band) against ``x``.

        ``x`` is a numeric configuration column that varies (see
        `numeric_varying`, e.g. ``"load_factor"`` or ``"params.sf"``): one line
        per combination of the other varying columns (typically per label),
        markers at the points, the interval shaded where it exists. A group
        without that column (NaN, e.g. a policy without the parameter) is drawn
        as a dashed horizontal reference. With ``x=None``, a bar per group with
        interval error bars. Draws on ``ax`` if given; returns the Figure (a
        notebook displays it with ``%matplotlib inline`` or once pyplot is imported).
        ``log`` sets a logarithmic y axis; by default (None) it is used for lines
        whose positive means span more than two decades (slowdowns under FCFS
        and under backfilling differ that much, and a linear axis flattens the
        smaller ones).
        """
        self._metrics([metric])
        _check_confidence(confidence)
        if self.counts["done"] == 0:
            raise ValueError(f"study {self.name!r} has no finished runs to plot")
        if x is not None and x not in self.numeric_varying():
            raise ValueError(
                f"x must be a numeric configuration column that varies; choose from "
                f"{self.numeric_varying() or 'none (plot with x=None for bars)'}, got {x!r}"
            )
        if ax is None:
            # A bare Figure, not pyplot: nothing global to close, and a notebook
            # shows the returned figure once.
            from matplotlib.figure import Figure

            fig = Figure(figsize=(7.0, 4.5), layout="constrained")
            ax = fig.add_subplot()
        else:
            fig = ax.figure
            fig = getattr(fig, "figure", fig)  # a SubFigure's root Figure
        if x is None:
            self._bars(ax, metric, confidence)
        else:
            self._lines(ax, metric, x, confidence)
            if log is None:
                means = self.aggregate([metric])[f"{metric}_mean"].to_numpy(dtype=float)
                means = means[np.isfinite(means)]
                log = bool(len(means)) and means.min() > 0 and means.max() > 100 * means.min()
            if log:
                ax.set_yscale("log")
        ax.set_ylabel(f"{metric} (mean, {confidence:.0%} CI)")
        ax.set_title(self.name)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
        return fig  # type: ignore[return-value]

    def _lines(self, ax: Axes, metric: str, x: str, confidence: float) -> None:
        lines = self._line_columns(x)
        table = self.aggregate([metric], by=[*lines, x], confidence=confidence)
        for values, pos in _groups(table, lines):
            part = table.iloc[pos]
            xs = part[x].to_numpy(dtype=float)
            mean = part[f"{metric}_mean"].to_numpy(dtype=float)
            low = part[f"{metric}_ci_low"].to_numpy(dtype=float)
            high = part[f"{metric}_ci_high"].to_numpy(dtype=float)
            name = _name(lines, values) or metric
            if np.isnan(xs).all():
                ref = ax.axhline(mean[0], linestyle="--", linewidth=1.2, label=name)
                if np.isfinite(low[0]) and np.isfinite(high[0]):
                    ax.axhspan(low[0], high[0], color=ref.get_color(), alpha=0.12, linewidth=0)
                continue
            keep = np.isfinite(xs)
            order = np.argsort(xs[keep], kind="stable")
            xs, mean, low, high = (a[keep][order] for a in (xs, mean, low, high))
            (line,) = ax.plot(xs, mean, marker="o", label=name)
            band = np.isfinite(low) & np.isfinite(high)
            if band.any():
                ax.fill_between(
                    xs,
                    np.where(band, low, mean),
                    np.where(band, high, mean),
                    where=band,
                    color=line.get_color(),
                    alpha=0.2,
                    linewidth=0,
                )
        ax.set_xlabel(x)

    def _bars(self, ax: Axes, metric: str, confidence: float) -> None:
        import matplotlib as mpl

        by = self._by(None)  # always starts with label
        table = self.aggregate([metric], by=by, confidence=confidence)
        mean = table[f"{metric}_mean"].to_numpy(dtype=float)
        low = table[f"{metric}_ci_low"].to_numpy(dtype=float)
        high = table[f"{metric}_ci_high"].to_numpy(dtype=float)
        xs = np.arange(len(table))
        # One colour per label, so the bars of a policy match across scenarios.
        palette = mpl.rcParams["axes.prop_cycle"].by_key().get("color", ["C0"])
        colours: dict[Any, str] = {}
        for k, label in enumerate(table["label"].tolist()):
            first = _key(label) not in colours
            colour = colours.setdefault(_key(label), palette[len(colours) % len(palette)])
            legend = _fmt(label) if first else "_nolegend_"
            ax.bar(xs[k], mean[k], color=colour, label=legend)
        _error_bars(ax, xs, mean, low, high, capsize=4)
        names = [_name(by, row) for row in table[by].itertuples(index=False, name=None)]
        crowded = len(xs) > 3
        ax.set_xticks(xs, names, rotation=30 if crowded else 0, ha="right" if crowded else "center")
        ax.set_xlabel(", ".join(by))

    def category_plot(
        self,
        metric: str = "bounded_slowdown",
        stat: str = "mean",
        scheme: str = "16",
        estimate: str | None = None,
        confidence: float = 0.95,
        log: bool | None = None,
        table: pd.DataFrame | None = None,
    ) -> Figure:
        """Seed 000's category bar chart: per category a bar for each label.

        One panel per scenario (each combination of the varying configuration
        columns that are not about the policy, e.g. accurate or inaccurate
        estimates, overhead, load factor), so each panel reads like one of the
        paper's figures; a label keeps its colour in every panel. Bars are
        `category_summary`'s ``<stat>_<metric>`` (pass its result as ``table``
        to save recomputing it), with the confidence interval as error bars
        where there is one. ``log`` as in `plot` (by default a log axis when
        the positive values span more than two decades).
        """
        import matplotlib as mpl
        from matplotlib.figure import Figure

        column = f"{stat}_{metric}"
        if table is None:
            table = self.category_summary(scheme, estimate, [metric], [stat], confidence=confidence)
        if column not in table:
            raise ValueError(f"table has no column {column!r}")
        if self.counts["done"] == 0:
            raise ValueError(f"study {self.name!r} has no finished runs to plot")
        by = list(table.columns[: table.columns.get_loc("category")])
        scenario = [c for c in by if c != "label"]
        panels = _groups(table, scenario)
        categories = list(table["category"].cat.categories)
        labels = list(dict.fromkeys(_key(v) for v in table["label"].tolist()))
        palette = mpl.rcParams["axes.prop_cycle"].by_key().get("color", ["C0"])
        colour = {label: palette[i % len(palette)] for i, label in enumerate(labels)}
        values = table[column].to_numpy(dtype=float)
        if log is None:
            positive = values[np.isfinite(values) & (values > 0)]
            log = bool(len(positive)) and positive.max() > 100 * positive.min()

        ncols = 1 if len(panels) == 1 else 2
        nrows = math.ceil(len(panels) / ncols)
        width = 7.0 if len(categories) <= 4 else 10.0
        fig = Figure(figsize=(width * ncols, 3.4 * nrows + 0.6), layout="constrained")
        axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
        handles: dict[Any, Any] = {}
        for ax, (scene, pos) in zip(axes, panels, strict=False):
            part = table.iloc[pos]
            present = list(dict.fromkeys(_key(v) for v in part["label"].tolist()))
            step = 0.8 / max(len(present), 1)
            for j, label in enumerate(present):
                rows = part[[_key(v) == label for v in part["label"].tolist()]]
                order = [categories.index(c) for c in rows["category"].tolist()]
                xs = np.asarray(order, dtype=float) - 0.4 + step * (j + 0.5)
                mean = rows[column].to_numpy(dtype=float)
                bars = ax.bar(xs, mean, width=step, color=colour[label], label=_fmt(label))
                handles.setdefault(label, bars)
                low = rows[f"{column}_ci_low"].to_numpy(dtype=float)
                high = rows[f"{column}_ci_high"].to_numpy(dtype=float)
                _error_bars(ax, xs, mean, low, high, capsize=2, linewidth=0.8)
            ax.set_xticks(
                range(len(categories)),
                categories,
                rotation=45 if len(categories) > 4 else 0,
                ha="right" if len(categories) > 4 else "center",
            )
            shown = part[column].to_numpy(dtype=float)
            if not np.isfinite(shown).any():
                # e.g. the poorly estimated jobs of a run with exact estimates
                ax.text(0.5, 0.5, "no jobs", transform=ax.transAxes, ha="center", va="center")
            elif log and (shown[np.isfinite(shown)] > 0).any():
                ax.set_yscale("log")
            ax.set_ylabel(column.replace("_", " "))
            # A scenario column a run does not set (overhead: none) is left out of its title.
            named = [(c, v) for c, v in zip(scenario, scene, strict=True) if _key(v) is not _NA]
            title = _name([c for c, _ in named], [v for _, v in named])
            ax.set_title(title or "all runs", fontsize="medium")
            ax.grid(True, axis="y", alpha=0.3)
        for ax in axes[len(panels) :]:
            ax.set_visible(False)
        what = f"{stat} {metric.replace('_', ' ')} per category"
        if estimate is not None:
            what += f", {estimate}-estimated jobs"
        fig.suptitle(f"{self.name}: {what}")
        fig.legend(
            list(handles.values()),
            [_fmt(label) for label in handles],
            loc="outside lower center",
            ncols=min(len(handles), 6),
            fontsize="small",
        )
        return fig

    # ---- files --------------------------------------------------------------

    def _with_defaults(
        self, metrics: str | Iterable[str] | None, baseline: Any, kind: str | None
    ) -> tuple[list[str], Any, str]:
        """Arguments left None taken from the study's ``report`` defaults, then built-ins."""
        defaults = self.report_defaults
        metrics = self._metrics(metrics if metrics is not None else defaults.get("metrics"))
        baseline = baseline if baseline is not None else defaults.get("baseline")
        return metrics, baseline, kind or defaults.get("kind") or "R"

    def write(
        self,
        out_dir: str | Path | None = None,
        metrics: str | Iterable[str] | None = None,
        x: str | Iterable[str] | None = None,
        baseline: Any = None,
        kind: str | None = None,
        categories: bool | Mapping[str, Any] | None = None,
    ) -> dict[str, list[Path]]:
        """Write the standard report; returns the paths written, as ``{"tables": [...],
        "plots": [...]}``.

        Into ``out_dir`` (default ``DIR/report``): ``summary.csv`` (`aggregate`),
        ``runs.csv`` (every run with its status), ``failures.csv`` (when runs
        failed; a stale one is removed otherwise), ``ratios-<metric>.csv`` per
        metric when there is a baseline (`ratio_table` on labels), and per
        metric a plot against each ``x`` as ``<metric>-vs-<x>.png`` and
        ``.svg``, or a bar chart ``<metric>.png``/``.svg`` when there is no
        numeric varying column (``x="none"``: no such plots, e.g. when the
        tables are the result). Arguments left None come from the study's
        ``report`` defaults (``metrics``, ``x``, ``baseline``, ``kind``); then
        ``metrics`` are `MAIN_METRICS`, ``x`` every numeric varying column,
        no baseline, and ``kind="R"``.

        ``categories`` (default: the study's ``report.categories``, else none)
        adds seed 000's per-category tables: True for the defaults, or a table
        of lists ``schemes`` ("16", "4"), ``estimates`` ("all", "well",
        "poor"), ``metrics`` (jobs columns) and ``stats`` (`Result.category_table`
        stats), each key optional (default: scheme 16, all jobs, the mean and
        max of bounded slowdown and turnaround). Per scheme and estimate, a
        `category_summary` as ``categories-<scheme>[-<estimate>].csv`` and per
        stat and metric a `category_plot` as
        ``categories-<scheme>[-<estimate>]-<stat>_<metric>.png``. True with a
        study table uses the study's.
        """
        metrics, baseline, kind = self._with_defaults(metrics, baseline, kind)
        study_categories = self.report_defaults.get("categories")
        if categories is None or (categories is True and isinstance(study_categories, Mapping)):
            categories = study_categories
        spec = _category_spec(categories)
        xs = _as_list(x if x is not None else self.report_defaults.get("x"))
        if xs is None:
            xs = self.numeric_varying()

        out = self.directory / "report" if out_dir is None else Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        tables: list[Path] = []
        plots: list[Path] = []

        def table(frame: pd.DataFrame, name: str) -> None:
            path = out / name
            frame.to_csv(path, index=False)
            tables.append(path)

        table(self.aggregate(metrics), "summary.csv")
        table(self.runs, "runs.csv")
        if len(self.failures):
            table(self.failures, "failures.csv")
        else:
            (out / "failures.csv").unlink(missing_ok=True)  # from an earlier report
        if baseline is not None:
            for m in metrics:
                table(self.ratio_table(m, baseline, kind=kind), f"ratios-{_safe(m)}.csv")

        if self.counts["done"] and xs != ["none"]:
            for m in metrics:
                for column in xs or [None]:
                    stem = _safe(m) if column is None else f"{_safe(m)}-vs-{_safe(column)}"
                    fig = self.plot(m, column)
                    for suffix in (".png", ".svg"):
                        path = out / f"{stem}{suffix}"
                        fig.savefig(path, dpi=150)
                        plots.append(path)
                    fig.clear()  # a bare Figure: no pyplot registry to close it from

        if spec is not None:
            for scheme in spec["schemes"]:
                for estimate in spec["estimates"]:
                    quality = None if estimate == "all" else estimate
                    stem = f"categories-{scheme}" + (f"-{estimate}" if quality else "")
                    frame = self.category_summary(scheme, quality, spec["metrics"], spec["stats"])
                    table(frame, f"{stem}.csv")
                    if not self.counts["done"]:
                        continue
                    for st in spec["stats"]:
                        for m in spec["metrics"]:
                            fig = self.category_plot(m, st, scheme, quality, table=frame)
                            path = out / f"{stem}-{_safe(f'{st}_{m}')}.png"
                            fig.savefig(path, dpi=120)
                            plots.append(path)
                            fig.clear()
        closed = self.report_defaults.get("closed_loop")
        if closed and self.counts["done"]:
            spec_cl = closed if isinstance(closed, Mapping) else {}
            t, p = self.closed_loop_figures(out, spec_cl.get("users"), spec_cl.get("hours"))
            tables += t
            plots += p
        return {"tables": tables, "plots": plots}

    def closed_loop_figures(
        self,
        out_dir: str | Path,
        users: int | None = None,
        hours: Sequence[float] | None = None,
    ) -> tuple[list[Path], list[Path]]:
        """Seed 002's Figures 5 and 6 for the closed-loop runs of ``users`` users.

        ``users`` defaults to the largest population in the study; ``hours`` to
        10:00, 16:00 and 23:00. For each daily-cycle setting: the queue length
        by time of day averaged over the days, one line per label
        (``queue-by-time-of-day-<cycle>.png`` and ``.csv``), and the size x
        run time maps of waiting and running jobs for the first and the last
        label (``job-maps-<cycle>.png``; `schedsim.model.sessions`). Uses the first
        replication of each configuration.
        """
        from schedsim.model import sessions

        out = Path(out_dir)
        done = self.done
        if "users" not in done or done["users"].isna().all():
            raise ValueError(f"study {self.name!r} has no closed-loop runs (users)")
        size = int(done["users"].max() if users is None else users)
        hours = list(hours) if hours is not None else [10.0, 16.0, 23.0]
        picked = done[(done["users"] == size) & (done["replication"] == 0)]
        if picked.empty:
            raise ValueError(f"study {self.name!r} has no finished run with {size} users")
        cycle = picked["daily_cycle"] if "daily_cycle" in picked else pd.Series(None, picked.index)
        tables: list[Path] = []
        plots: list[Path] = []
        for setting in pd.unique(cycle.fillna(True)):
            rows = picked[cycle.fillna(True) == setting]
            results = {
                str(row.label): Result.load(self.directory / "runs" / row.id)
                for row in rows.itertuples()
            }
            name = "cycle" if setting else "no-cycle"
            queues = {label: sessions.queue_by_time_of_day(r) for label, r in results.items()}
            frames = [q.assign(label=label) for label, q in queues.items()]
            path = out / f"queue-by-time-of-day-{name}.csv"
            pd.concat(frames, ignore_index=True).to_csv(path, index=False)
            tables.append(path)
            labels = list(results)
            for stem, fig in (
                (
                    f"queue-by-time-of-day-{name}",
                    sessions.plot_queue_by_time_of_day(results, tables=queues),
                ),
                (
                    f"job-maps-{name}",
                    sessions.plot_job_maps(
                        {k: results[k] for k in dict.fromkeys([labels[0], labels[-1]])}, hours
                    ),
                ),
            ):
                fig.suptitle(f"{self.name}: {size} users, {name}", fontsize=9)
                path = out / f"{stem}.png"
                fig.savefig(path, dpi=120)
                plots.append(path)
                fig.clear()  # a bare Figure: no pyplot registry to close it from
        return tables, plots


def _category_spec(value: bool | Mapping[str, Any] | None) -> dict[str, list[str]] | None:
    """The per-category tables asked for: None (none), or every key of
    `schedsim.app.study.CATEGORY_KEYS` with its list (True: the defaults)."""
    if value is None or value is False:
        return None
    spec: dict[str, list[str]] = {
        "schemes": ["16"],
        "estimates": ["all"],
        "metrics": list(CATEGORY_METRICS),
        "stats": list(CATEGORY_STATS),
    }
    if value is True:
        return spec
    if not isinstance(value, Mapping):
        raise ValueError(f"categories must be true, false or a table, got {value!r}")
    for key, items in value.items():
        allowed = CATEGORY_KEYS.get(key, ())
        chosen = [str(v) for v in _as_list(items) or []]
        bad = [v for v in chosen if allowed is not None and v not in allowed]
        if key not in CATEGORY_KEYS or not chosen or bad:
            known = ", ".join(f"{k} ({', '.join(v or ('...',))})" for k, v in CATEGORY_KEYS.items())
            raise ValueError(f"categories.{key}: expected a list of {known}; got {items!r}")
        spec[key] = chosen
    return spec


def load_study(directory: str | Path) -> StudyResults:
    """`StudyResults.load`: read a parameter-study directory."""
    return StudyResults.load(directory)


# --------------------------------------------------------------------------- #
# Console report
# --------------------------------------------------------------------------- #


def _plus_minus(mean: float, low: float, high: float) -> str:
    if not (math.isfinite(low) and math.isfinite(high)):
        return _fmt(mean)
    return f"{_fmt(mean)} ± {_fmt((high - low) / 2.0)}"


def print_report(
    console: Console,
    results: StudyResults,
    metrics: str | Iterable[str] | None = None,
    baseline: Any = None,
    kind: str | None = None,
    confidence: float = 0.95,
) -> None:
    """Print a study's report: a header line, the aggregate table (mean ± half-width
    of the confidence interval, and n), the ratio table when there is a baseline
    (``kind`` of each metric, per other label and scenario), and the failures.

    ``metrics``, ``baseline`` and ``kind`` default to the study's ``report``
    defaults, as in `StudyResults.write`.
    """
    metrics, baseline, kind = results._with_defaults(metrics, baseline, kind)
    counts = results.counts

    header = Text()
    header.append(results.name, style="bold")
    if results.version:
        header.append(f" (schedsim {results.version})")
    header.append(f": {len(results.runs)} runs, ")
    header.append(f"{counts['done']} done", style="green")
    header.append(", ")
    header.append(f"{counts['failed']} failed", style="red" if counts["failed"] else "")
    header.append(f", {counts['missing']} missing")
    console.print(header)

    if counts["done"] == 0:
        console.print("No finished runs yet.")
    else:
        agg = results.aggregate(metrics, confidence=confidence)
        group = list(agg.columns[: agg.columns.get_loc("n")])
        summary = Table(title=f"Mean ± {confidence:.0%} CI half-width over replications")
        for c in group:
            summary.add_column(c)
        summary.add_column("n", justify="right")
        for m in metrics:
            summary.add_column(m, justify="right")
        for _, row in agg.iterrows():
            cells = [Text(_fmt(row[c])) for c in group] + [Text(_fmt(row["n"]))]
            for m in metrics:
                cells.append(
                    Text(_plus_minus(row[f"{m}_mean"], row[f"{m}_ci_low"], row[f"{m}_ci_high"]))
                )
            summary.add_row(*cells)
        console.print(summary)

        if baseline is not None:
            ratios = [
                results.ratio_table(m, baseline, kind=kind, confidence=confidence) for m in metrics
            ]
            if ratios and len(ratios[0]):
                # Pairs and groups do not depend on the metric: the tables align row by row.
                first = ratios[0]
                keys = [c for c in first.columns if not c.startswith("value_") and c != "n"]
                sense = {
                    "R": "(baseline - other) / min: positive = other lower",
                    "ratio": "other / baseline",
                    "percent": "100 (other - baseline) / baseline",
                    "difference": "other - baseline",
                }[kind]
                ratio = Table(title=f"{kind} against {_fmt(baseline)}: {sense}")
                for c in keys:
                    ratio.add_column(c)
                ratio.add_column("n", justify="right")
                for m in metrics:
                    ratio.add_column(m, justify="right")
                for i in range(len(first)):
                    cells = [Text(_fmt(first[c].iloc[i])) for c in keys]
                    cells.append(Text(_fmt(first["n"].iloc[i])))
                    for frame in ratios:
                        cells.append(
                            Text(
                                _plus_minus(
                                    frame["value_mean"].iloc[i],
                                    frame["value_ci_low"].iloc[i],
                                    frame["value_ci_high"].iloc[i],
                                )
                            )
                        )
                    ratio.add_row(*cells)
                console.print(ratio)
            else:
                console.print(f"No pairs of finished runs to compare with {_fmt(baseline)}.")

    if len(results.failures):
        failed = Table(title=f"Failed runs ({len(results.failures)})")
        failed.add_column("label")
        failed.add_column("replication", justify="right")
        failed.add_column("error")
        for _, row in results.failures.iterrows():
            error = (str(row["error"]).splitlines() or [""])[0]
            failed.add_row(Text(str(row["label"])), Text(_fmt(row["replication"])), Text(error))
        console.print(failed)
        console.print(f"Tracebacks: {results.directory / 'failures'}")


def _error_bars(
    ax: Any, xs: np.ndarray, mean: np.ndarray, low: np.ndarray, high: np.ndarray, **style: Any
) -> None:
    """Black confidence-interval whiskers on bars, where the interval is known."""
    ok = np.isfinite(low) & np.isfinite(high) & np.isfinite(mean)
    if ok.any():
        ax.errorbar(
            xs[ok],
            mean[ok],
            yerr=np.vstack([mean[ok] - low[ok], high[ok] - mean[ok]]),
            fmt="none",
            ecolor="black",
            **style,
        )
