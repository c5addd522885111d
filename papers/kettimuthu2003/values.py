"""Kettimuthu 2003: the values the thesis's claims read, from a study's results.

Per label and scenario (accurate estimates, the trace's own, suspension overhead, a
load factor) the overall means (`overall_values`) and the per-category statistics
(`category_values`, the 16 categories of Table 2.1 and the 4 of Table 4.1), and
`_View`, the look-ups the claims make into them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from schedsim.model.categories import CATEGORIES, CATEGORIES4

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.app.report.study_results import StudyResults

__all__ = [
    "AVERAGES",
    "BEYOND",
    "MAX_SLD",
    "MAX_TAT",
    "MEAN_SLD",
    "MEAN_TAT",
    "OVERALL",
    "SERIES",
    "SHORT_NAMES",
    "THESIS_TOP_LOAD",
    "WORST",
    "category_values",
    "overall_values",
]


#: Per-category columns: the statistic and metric of `StudyResults.category_summary`,
#: and how a claim names it.
MEAN_SLD, MEAN_TAT = "mean_bounded_slowdown", "mean_turnaround"
MAX_SLD, MAX_TAT = "max_bounded_slowdown", "max_turnaround"
AVERAGES = (MEAN_SLD, MEAN_TAT)
WORST = (MAX_SLD, MAX_TAT)
SHORT_NAMES: dict[str, str] = {
    MEAN_SLD: "slowdown",
    MEAN_TAT: "turnaround",
    MAX_SLD: "worst slowdown",
    MAX_TAT: "worst turnaround",
}
#: The thesis's load series, relative to the normal load (section 4.2, Figures 4.9-4.13).
SERIES: tuple[float, ...] = (1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6)
#: Its highest load.
THESIS_TOP_LOAD = SERIES[-1]
#: Loads beyond the series the study runs for the saturation claim ("no significant
#: increase ... beyond 1.6"): the thesis's 1.8.
BEYOND: tuple[float, ...] = (1.8,)
#: Overall columns (`StudyResults.aggregate`'s means).
OVERALL: tuple[str, ...] = ("mean_bounded_slowdown", "mean_turnaround", "utilization",
                            "suspensions")  # fmt: skip


# --------------------------------------------------------------------------- #
# The runs' values
# --------------------------------------------------------------------------- #


def _scenario_columns(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with ``accurate`` (bool), ``overhead`` ("" for none) and
    ``load_factor`` (1.0 when unset) in place of the configuration columns."""
    out = frame.copy()
    exact = out["exact_estimates"] if "exact_estimates" in out else pd.Series(False, out.index)
    out["accurate"] = exact.astype(object).where(exact.notna(), False).astype(bool)
    over = out["overhead"] if "overhead" in out else pd.Series("", out.index)
    out["overhead"] = over.astype(object).where(over.notna(), "").astype(str)
    load = out["load_factor"] if "load_factor" in out else pd.Series(1.0, out.index)
    out["load_factor"] = pd.to_numeric(load, errors="coerce").fillna(1.0).astype(float)
    out["label"] = out["label"].astype(str)
    first = ["label", "accurate", "overhead", "load_factor"]
    return out[[*first, *(c for c in out.columns if c not in (*first, "exact_estimates"))]]


def _by(results: StudyResults) -> list[str]:
    return ["label", *(c for c in ("exact_estimates", "overhead", "load_factor")
                       if c in results.runs)]  # fmt: skip


def overall_values(results: StudyResults) -> pd.DataFrame:
    """Per label and scenario (``accurate``, ``overhead``, ``load_factor``) the mean over
    replications of the overall metrics `OVERALL` the study has."""
    metrics = [m for m in OVERALL if m in results.metrics]
    table = results.aggregate(metrics, by=_by(results))
    table = table.rename(columns={f"{m}_mean": m for m in metrics})
    keep = [c for c in table.columns if c in ("label", "exact_estimates", "overhead",
                                               "load_factor", *metrics)]  # fmt: skip
    return _scenario_columns(table[keep])


def category_values(results: StudyResults) -> pd.DataFrame:
    """Long table, per label, scenario, ``scheme`` ("16", "4"), ``estimate`` ("all",
    "well", "poor": the 16 categories only) and ``category``: ``jobs`` and the average
    and worst case of the bounded slowdown and the turnaround time."""
    frames = []
    for scheme, estimate in (("16", "all"), ("16", "well"), ("16", "poor"), ("4", "all")):
        table = results.category_summary(
            scheme,
            None if estimate == "all" else estimate,
            ("bounded_slowdown", "turnaround"),
            ("mean", "max"),
            by=_by(results),
        )
        keep = [c for c in table.columns if not c.endswith(("_ci_low", "_ci_high")) and c != "n"]
        table = table[keep].assign(scheme=scheme, estimate=estimate)
        table["category"] = table["category"].astype(str)
        frames.append(table)
    return _scenario_columns(pd.concat(frames, ignore_index=True))


class _View:
    """Look-ups into the two tables by label and scenario: ``"accurate"``, ``"trace"``,
    ``"overhead"`` (the trace's estimates), ``"overhead, accurate"`` (each at its normal
    load) or a load factor (trace estimates, no overhead)."""

    def __init__(self, overall: pd.DataFrame, cats: pd.DataFrame) -> None:
        columns = ["label", "accurate", "overhead", "load_factor"]
        both = pd.concat([overall[columns], cats[columns]])
        trace = both[~both["accurate"] & (both["overhead"] == "")]
        self.normal: dict[str, float] = {}
        for name, rows in (
            ("accurate", both[both["accurate"] & (both["overhead"] == "")]),
            ("trace", trace),
            ("overhead", both[~both["accurate"] & (both["overhead"] != "")]),
            ("overhead, accurate", both[both["accurate"] & (both["overhead"] != "")]),
        ):
            if len(rows):
                self.normal[name] = float(rows["load_factor"].min())
        #: Every load factor run with the trace's estimates and no overhead.
        self.trace_loads: list[float] = sorted(set(trace["load_factor"].tolist()))
        # The study's normal load is its chapter-3 runs' (accurate estimates, all at the
        # normal load) where it ran the trace's estimates there too: a reading's series
        # from a lower normal load (normal=0.75) must not move it.
        accurate = self.normal.get("accurate")
        if accurate is not None and any(math.isclose(accurate, x) for x in self.trace_loads):
            self.normal["trace"] = accurate
        first = self.normal.get("trace", 1.0)
        #: The trace load factors each label ran (the series a reading's SS has).
        self._label_loads: dict[str, list[float]] = {
            str(k): sorted(set(g.tolist())) for k, g in trace.groupby("label")["load_factor"]
        }
        #: The thesis's series and the loads beyond it, from the study's normal load.
        self.loads: list[float] = self.series(first)
        self.beyond: list[float] = self.past(first)
        self.labels: set[str] = set(overall["label"]) | set(cats["label"])
        # Indexed once: a claim looks up hundreds of (run, table) pairs.
        self._totals: dict[tuple[Any, ...], dict[str, float]] = {}
        for row in overall.to_dict("records"):
            self._totals.setdefault(self._key(row), row)
        self._cats: dict[tuple[Any, ...], pd.DataFrame] = {}
        for keys, rows in cats.groupby(["label", "accurate", "overhead", "load_factor",
                                        "scheme", "estimate"], sort=False):  # fmt: skip
            label, accurate, overhead, load, scheme, estimate = keys
            key = (*self._key({"label": label, "accurate": accurate, "overhead": overhead,
                               "load_factor": load}), scheme, estimate)  # fmt: skip
            names = list(CATEGORIES if scheme == "16" else CATEGORIES4)
            frame = rows.drop_duplicates("category").set_index("category").reindex(names)
            self._cats.setdefault(key, frame)

    def _times(self, normal: float, factors: Sequence[float],
               label: str | None = None) -> list[float]:  # fmt: skip
        loads = self.trace_loads if label is None else self._label_loads.get(label, [])
        return [x for x in loads
                if any(math.isclose(x, normal * k, rel_tol=1e-6) for k in factors)]  # fmt: skip

    def series(self, normal: float, label: str | None = None) -> list[float]:
        """The load factors of the thesis's series (`SERIES`: 1.0-1.6 times the normal
        load, section 4.2: "we report the performance ... between 1.0 (normal) and 1.6")
        that the study ran (``label`` ran, when given), from the normal load ``normal``."""
        return self._times(normal, SERIES, label)

    def past(self, normal: float) -> list[float]:
        """The load factors beyond the series (`BEYOND` times ``normal``) the study ran:
        the saturation claim's only."""
        return self._times(normal, BEYOND)

    @staticmethod
    def _key(row: dict[str, Any]) -> tuple[Any, ...]:
        return (str(row["label"]), bool(row["accurate"]), row["overhead"] != "",
                round(float(row["load_factor"]), 9))  # fmt: skip

    def _lookup(self, label: str, scenario: str | float) -> tuple[Any, ...] | None:
        if isinstance(scenario, str):
            if scenario not in self.normal:
                return None
            load = self.normal[scenario]
            accurate = scenario in ("accurate", "overhead, accurate")
            overhead = scenario in ("overhead", "overhead, accurate")
            return (label, accurate, overhead, round(load, 9))
        return (label, False, False, round(float(scenario), 9))

    def total(self, label: str | None, scenario: str | float, column: str) -> float:
        """An overall value; NaN when the run (or the column) is missing."""
        key = None if label is None else self._lookup(label, scenario)
        row = self._totals.get(key) if key else None
        value = row.get(column) if row else None
        return math.nan if value is None else float(value)

    def cat(self, label: str | None, scenario: str | float, column: str,
            scheme: str = "16", estimate: str = "all") -> pd.Series | None:  # fmt: skip
        """Per category (index) a column's value; None when the run is missing."""
        key = None if label is None else self._lookup(label, scenario)
        frame = self._cats.get((*key, scheme, estimate)) if key else None
        if frame is None or column not in frame:
            return None
        return frame[column].astype(float)
