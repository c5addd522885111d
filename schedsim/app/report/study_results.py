"""`StudyResults`: the results of one parameter study, as a notebook or the CLI uses them.

Everything is a pandas DataFrame so notebooks can go on from there:

`StudyResults.runs`
    One row per run: status, the configuration flattened into columns
    (policy parameters as ``params.<key>``), every numeric summary entry as a
    metric column, and the run's ``wall_time`` (`reading.read_study`).
`StudyResults.aggregate`
    Mean, standard deviation and a Student t confidence interval (cut at the
    metric's range) over the replications of each configuration
    (`statistics.aggregate`).
`StudyResults.ratio`
    Two policies compared run by run on the same scenario and seed, then
    aggregated (`statistics.ratio`): ``kind="R"`` is Lawson & Smirni's (2002)
    slowdown ratio, ``"percent"`` Schwiegelshohn & Yahyapour's (1998)
    percentage change.
`StudyResults.categories`
    Kettimuthu's (2003) per-category tables (Table 2.1, 16 categories, or
    Table 4.1, 4), averaged over replications (`statistics.categories`).
`StudyResults.plot` / `StudyResults.write` / `print_report`
    Standard figures (PNG and SVG; `plots`), CSV tables (`writing`), and the
    console report of ``schedsim report DIR`` (`console`).

The class knows the study: which columns vary, which describe the scenario
and which the policy, the study's ``[report]`` defaults; it checks the
arguments and hands the work to those modules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from schedsim.app.report import plots, reading, statistics, writing
from schedsim.app.report.formats import key
from schedsim.app.report.quantities import bounds_of
from schedsim.app.report.statistics import check_confidence, policy_related
from schedsim.model.results import Result, Stat

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["MAIN_METRICS", "MIN_REPLICATIONS", "StudyResults", "load_results"]

#: The metrics a report shows unless told otherwise (those a study has).
MAIN_METRICS: tuple[str, ...] = (
    "mean_bounded_slowdown",
    "mean_wait",
    "mean_turnaround",
    "utilization",
    "throughput_per_day",
    "makespan",
)

#: Replications below which a study's confidence intervals are not to be trusted: with
#: 2, Student's t quantile is 12.7 and the interval spans the whole plausible range;
#: with 1 there is none.
MIN_REPLICATIONS = 3


class StudyResults:
    """The results of one parameter study, read from its directory.

    Build with `StudyResults.load` (or `load_results`). Attributes:

    ``directory``
        The study directory.
    ``name``, ``version``, ``seed``, ``replications``
        From study.json (``version`` is the schedsim version that defined it).
    ``report_defaults``
        study.json's ``"report"`` object (``metrics``, ``x``, ``baseline``,
        ``kind``), or ``{}``: what `write` and `print_report` use when not told.
    ``runs``
        One row per run of study.json, in study order (see `reading`).
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
        data = reading.read_study(self.directory, study)
        self.name: str = data.name
        self.version: str = data.version
        self.seed: Any = data.seed
        self.replications: Any = data.replications
        self.report_defaults: dict[str, Any] = data.report_defaults
        # The raw configurations stay at hand: columns turn warmup=500 (a job
        # count) into 500.0 (which `Result` would read as a fraction).
        self._configs: dict[str, dict[str, Any]] = data.configs
        self.config_columns: list[str] = data.config_columns
        self.metrics: list[str] = data.metrics
        self.runs: pd.DataFrame = data.runs
        self.failures: pd.DataFrame = data.failures

    @classmethod
    def load(cls, directory: str | Path) -> StudyResults:
        """Read a study directory. ValueError (naming the file) if study.json is
        missing or malformed; unreadable run records are warned about and the
        runs counted as missing."""
        directory = Path(directory)
        return cls(directory, reading.read_study_json(directory / "study.json"))

    def __repr__(self) -> str:
        counts = ", ".join(f"{v} {k}" for k, v in self.counts.items())
        return f"StudyResults({self.name!r}, {len(self.runs)} runs: {counts})"

    def replication_count(self) -> int:
        """The study's replications (study.json's ``replications``; else the most any
        configuration has among the runs)."""
        if isinstance(self.replications, int) and not isinstance(self.replications, bool):
            return self.replications
        numbers = pd.to_numeric(self.runs["replication"], errors="coerce").dropna()
        return int(numbers.max()) + 1 if len(numbers) else 0

    def replication_warning(self) -> str | None:
        """The warning a report shows when the study has fewer than `MIN_REPLICATIONS`
        replications (None otherwise)."""
        n = self.replication_count()
        if n >= MIN_REPLICATIONS:
            return None
        return (
            f"confidence intervals need at least {MIN_REPLICATIONS} replications; "
            f"this study has {n}"
        )

    def nothing_finished(self) -> str:
        """The one line that says no run has finished yet, and what to run."""
        counts = self.counts
        text = (
            f"{self.directory}: no run of the study has finished yet ({len(self.runs)} runs: "
            f"{counts['failed']} failed, {counts['missing']} not run); run `schedsim sweep "
            f"STUDY.toml --out {self.directory}` with the study's file to run them"
        )
        if counts["failed"]:
            text += f" (why runs failed: {self.directory / 'failures'})"
        return text

    # ---- views --------------------------------------------------------------

    @property
    def done(self) -> pd.DataFrame:
        """The finished runs (rows of ``runs`` with status "done"), in study order."""
        return self.runs[self.runs["status"] == "done"].reset_index(drop=True)

    @property
    def counts(self) -> dict[str, int]:
        """Number of runs per status: ``{"done": ..., "failed": ..., "missing": ...}``."""
        status = self.runs["status"]
        return {s: int((status == s).sum()) for s in reading.STATUSES}

    @property
    def scenario_columns(self) -> list[str]:
        """Configuration columns that describe the experiment rather than the policy:
        everything but ``policy`` and ``params.*`` (``seed`` included)."""
        return [c for c in self.config_columns if not policy_related(c)]

    def varying(self) -> list[str]:
        """Configuration columns (``label`` included) whose values differ across the
        runs, ``seed`` and ``replication`` excepted. A missing value counts as a value."""
        columns = ["label", *(c for c in self.config_columns if c != "seed")]
        return [c for c in columns if len({key(v) for v in self.runs[c].tolist()}) > 1]

    def numeric_varying(self) -> list[str]:
        """The varying columns a plot can put on its x axis: numeric, not boolean, with two
        values or more (not a parameter only one policy has, missing for the others)."""
        return [
            c
            for c in self.varying()
            if pd.api.types.is_numeric_dtype(self.runs[c])
            and not pd.api.types.is_bool_dtype(self.runs[c])
            and self.runs[c].nunique(dropna=True) > 1
        ]

    def _default_by(self) -> list[str]:
        # The label names the policy and its parameters: policy columns split nothing more.
        return ["label", *(c for c in self.varying() if not policy_related(c))]

    def _by(self, by: str | Sequence[str] | None) -> list[str]:
        columns = self._default_by() if by is None else reading.as_list(by) or []
        unknown = [c for c in columns if c not in self.runs]
        if unknown:
            raise ValueError(f"cannot group by {unknown}: no such column of runs")
        return columns

    def _metrics(self, metrics: str | Iterable[str] | None) -> list[str]:
        if metrics is None:
            return [m for m in MAIN_METRICS if m in self.metrics]
        chosen = reading.as_list(metrics) or []
        unknown = [m for m in chosen if m not in self.metrics]
        if unknown and self.counts["done"] == 0:
            # The metrics come from the finished runs' summaries: none yet is not "unknown".
            raise ValueError(self.nothing_finished())
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
        ``<m>_ci_low``, ``<m>_ci_high`` (Student t, cut at the metric's range:
        a slowdown's interval never goes below 1; NaN for a single run).
        """
        check_confidence(confidence)
        metrics = self._metrics(metrics)
        by = self._by(by)
        return statistics.aggregate(self.done, metrics, by, confidence)

    # ---- paired comparisons -------------------------------------------------

    def _pairing(self, on: str) -> tuple[list[str], list[str]]:
        """(columns two runs must agree on to be paired, columns to aggregate by)."""
        if on not in self.runs or on in ("id", "status") or on in self.metrics:
            raise ValueError(f"on must be a configuration column or 'label', got {on!r}")
        varying = self.varying()
        if policy_related(on):
            # Same experiment, other policy: agree on everything but the policy.
            keys = [*self.scenario_columns, "replication"]
            group = [c for c in varying if c in self.scenario_columns]
        else:
            # e.g. on="load_factor": the same policy at two loads.
            keys = [c for c in ("label", *self.config_columns) if c != on] + ["replication"]
            group = [c for c in varying if c != on and (c == "label" or not policy_related(c))]
        return keys, group

    def _check_comparison(
        self, metric: str, kind: str, on: str, confidence: float
    ) -> tuple[list[str], list[str]]:
        """Validate a comparison's arguments; return `_pairing` of ``on``."""
        if kind not in statistics.KINDS:
            raise ValueError(f"kind must be one of {', '.join(statistics.KINDS)}, got {kind!r}")
        check_confidence(confidence)
        self._metrics([metric])
        return self._pairing(on)

    def _check_value(self, on: str, role: str, value: Any) -> list[Any]:
        """The distinct values of column ``on`` (study order); ValueError naming them
        if ``value`` is not one."""
        available = list(dict.fromkeys(key(v) for v in self.runs[on].tolist()))
        if key(value) not in available:
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
        (s1 - sm) / min(s1, sm) (Lawson & Smirni 2002; positive when the other
        is lower), ``"ratio"`` = sm / s1, ``"percent"`` = 100 (sm - s1) / s1
        (Schwiegelshohn & Yahyapour 1998), ``"difference"`` = sm - s1; NaN where
        the denominator is 0. The per-pair values are then aggregated per
        scenario (intervals cut at the comparison's range): columns are the varying
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
        return statistics.ratio(
            self.done, metric, baseline, other, kind, on, keys, group, confidence
        )

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
        keys, group = self._check_comparison(metric, kind, on, confidence)
        values = self._check_value(on, "baseline", baseline)
        return statistics.ratio_table(
            self.done, metric, baseline, values, kind, on, keys, group, confidence
        )

    # ---- per-run results and categories -------------------------------------

    def result(self, run_id: str) -> Result:
        """The full `Result` of one finished run (its jobs and time series)."""
        match = self.runs.index[self.runs["id"] == run_id]
        if len(match) == 0:
            raise ValueError(f"no run {run_id!r} in study {self.name!r}")
        status = self.runs.at[match[0], "status"]
        if status != "done":
            raise ValueError(f"run {run_id!r} is {status}, not done: it has no results")
        return reading.load_study_run(self.directory, run_id)

    def _category_cells(
        self, requests: Sequence[statistics.CategoryRequest]
    ) -> dict[statistics.CategoryRequest, np.ndarray]:
        """Per request (metric, stat, scheme, estimate): finished runs x categories of
        `Result.category_table` (with each run's own warmup/cooldown), in ``done`` order."""
        for _, _, scheme, estimate in requests:
            statistics.check_category_request(scheme, estimate)
        ids = self.done["id"].tolist()

        def runs() -> Iterable[tuple[Result, int | float, int | float]]:
            # Reading jobs.parquet is the slow part: each run once, then let it go.
            for run_id in ids:
                config = self._configs[run_id]
                trims = (reading.trim(config.get("warmup")), reading.trim(config.get("cooldown")))
                yield (self.result(run_id), *trims)

        return statistics.category_cells(runs(), len(ids), requests)

    def categories(
        self,
        metric: str = "bounded_slowdown",
        stat: Stat = "mean",
        scheme: str = "16",
        estimate: str | None = None,
        by: str | Sequence[str] | None = None,
        confidence: float = 0.95,
    ) -> pd.DataFrame:
        """Kettimuthu's (2003) per-category table, averaged over replications.

        Each finished run gives `Result.category_table` (``metric`` aggregated
        by ``stat`` per category, with the run's own warmup/cooldown); those
        are then aggregated per group (``by`` as in `aggregate`) and category.
        Long table: the group columns, ``category`` (an ordered categorical in
        the paper's order), ``mean``, ``ci_low``, ``ci_high``, ``n`` (runs that
        had jobs in that category).
        """
        check_confidence(confidence)
        by = self._by(by)
        request = (metric, stat, scheme, estimate)
        cells = self._category_cells([request])[request]
        bounds = bounds_of(metric, stat if isinstance(stat, str) else "")
        return statistics.categories(self.done, cells, by, scheme, confidence, bounds)

    def category_summary(
        self,
        scheme: str = "16",
        estimate: str | None = None,
        metrics: Sequence[str] = writing.CATEGORY_METRICS,
        stats: Sequence[str] = writing.CATEGORY_STATS,
        by: str | Sequence[str] | None = None,
        confidence: float = 0.95,
    ) -> pd.DataFrame:
        """Several per-category statistics side by side, averaged over replications.

        The table to set beside Kettimuthu's (2003) figures: per group (``by`` as in
        `aggregate`) and category (16 of Table 2.1 or 4 of Table 4.1, paper
        order), ``n`` (runs with jobs in the category), ``jobs`` (their mean
        number of jobs there), and per stat and metric the mean over
        replications of the per-run value, ``<stat>_<metric>`` (e.g.
        ``mean_bounded_slowdown``, ``max_turnaround``: average and worst case),
        with ``_ci_low``/``_ci_high`` (Student t cut at the range; NaN for one
        run). ``estimate`` keeps only ``"well"`` or ``"poor"`` estimated jobs
        (Kettimuthu, chapter 4).
        """
        check_confidence(confidence)
        by = self._by(by)
        columns = [(m, st) for st in stats for m in metrics]
        requests = [(m, st, scheme, estimate) for m, st in columns]
        count = (metrics[0] if metrics else "bounded_slowdown", "count", scheme, estimate)
        cells = self._category_cells([count, *requests])
        return statistics.category_summary(
            self.done, cells, count, columns, requests, by, scheme, confidence
        )

    # ---- plots --------------------------------------------------------------

    def _line_columns(self, x: str) -> list[str]:
        """What tells the lines of a plot against ``x`` apart."""
        rest = [c for c in self.varying() if c != x]
        if policy_related(x):
            # x is a policy parameter, which the label encodes: label would make
            # every point its own line.
            return self._telling([c for c in rest if c != "label"])
        return self._telling([c for c in rest if c == "label" or not policy_related(c)])

    def _telling(self, columns: Sequence[str], keep: int = 0) -> list[str]:
        """``columns`` but each one those before it determine (the first ``keep`` stay): it
        tells no lines apart (``user_params.*`` is set exactly when ``daily_cycle`` is)."""
        kept: list[str] = []
        for i, column in enumerate(columns):
            rows = self.runs[[*kept, column]].itertuples(index=False, name=None)
            seen = {tuple(map(key, row)) for row in rows}
            if i < keep or len(seen) > len({row[:-1] for row in seen}):
                kept.append(column)
        return kept

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
        check_confidence(confidence)
        if self.counts["done"] == 0:
            raise ValueError(f"study {self.name!r} has no finished runs to plot")
        if x is not None and x not in self.numeric_varying():
            raise ValueError(
                f"x must be a numeric configuration column that varies; choose from "
                f"{self.numeric_varying() or 'none (plot with x=None for bars)'}, got {x!r}"
            )
        if x is None:
            columns = self._telling(self._by(None), keep=1)  # always starts with label
            table = self.aggregate([metric], by=columns, confidence=confidence)
        else:
            columns = self._line_columns(x)
            table = self.aggregate([metric], by=[*columns, x], confidence=confidence)
            if log is None:
                means = self.aggregate([metric])[f"{metric}_mean"].to_numpy(dtype=float)
                log = plots.spans_decades(means)
        return plots.metric_plot(
            table,
            metric,
            columns,
            x,
            self.name,
            confidence,
            bool(log),
            ax=ax,
            note=self.replication_warning(),
        )

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
        """Kettimuthu's (2003) category bar chart: per category a bar for each label.

        One panel per scenario (each combination of the varying configuration
        columns that are not about the policy, e.g. accurate or inaccurate
        estimates, overhead, load factor), so each panel reads like one of the
        paper's figures; a label keeps its colour in every panel. Bars are
        `category_summary`'s ``<stat>_<metric>`` (pass its result as ``table``
        to save recomputing it), with the confidence interval as error bars
        where there is one. ``log`` as in `plot` (by default a log axis when
        the positive values span more than two decades).
        """
        column = f"{stat}_{metric}"
        if table is None:
            table = self.category_summary(scheme, estimate, [metric], [stat], confidence=confidence)
        if column not in table:
            raise ValueError(f"table has no column {column!r}")
        if self.counts["done"] == 0:
            raise ValueError(f"study {self.name!r} has no finished runs to plot")
        return plots.category_plot(
            table, column, metric, stat, estimate, self.name, log, self.replication_warning()
        )

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
        adds Kettimuthu's (2003) per-category tables: True for the defaults, or a table
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
        spec = writing.category_spec(categories)
        xs = reading.as_list(x if x is not None else self.report_defaults.get("x"))
        if xs is None:
            xs = self.numeric_varying()
        out = self.directory / "report" if out_dir is None else Path(out_dir)
        return writing.write_report(self, out, metrics, xs, baseline, kind, spec)

    def closed_loop_figures(
        self,
        out_dir: str | Path,
        users: int | None = None,
        hours: Sequence[float] | None = None,
    ) -> tuple[list[Path], list[Path]]:
        """Feitelson & Shmueli's (2009) Figures 5 and 6 for the closed-loop runs of
        ``users`` users (`schedsim.papers.feitelson2009.figures.closed_loop_figures`,
        which says what is written; found by name, `writing.paper_analysis`)."""
        figures = writing.paper_analysis(writing.CLOSED_LOOP_PAPER).closed_loop_figures
        return figures(self, out_dir, users, hours)


def load_results(directory: str | Path) -> StudyResults:
    """`StudyResults.load`: read a parameter-study directory."""
    return StudyResults.load(directory)
