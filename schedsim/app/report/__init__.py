"""Reports: a parameter study's replications aggregated, policies compared, plots; and
plain run folders side by side.

``schedsim report DIR`` and ``schedsim compare DIR DIR...`` are built from
these modules, one idea each:

`reading`
    A study directory (its layout is documented there) or run folders, read
    into DataFrames and `Result` objects.
`quantities`
    What the numbers are: the papers by name (Kettimuthu 2003, ...), each
    metric's unit and the range of values it can take.
`statistics`
    Pure functions over DataFrames: Student t confidence intervals (cut at
    a quantity's range; why, in its docstring), aggregation over
    replications, paired ratios against a baseline, per-category tables,
    runs side by side. Its docstring states the conventions (missing
    values, group order).
`plots`
    Figures only (matplotlib), from tables already computed.
`console`
    Printing (rich): the study report, the comparison of runs, and the
    tables of ``schedsim run``.
`formats`
    How values are written: one number format per quantity, names, CSV
    headers with units.
`writing`
    Which files a study report writes, under which names.
`study_results`
    `StudyResults`, the user-facing view of one study, and `load_study`.
`comparison`
    `RunComparison`, several run folders side by side.

The names below are the public interface: import them from
``schedsim.app.report``.
"""

from __future__ import annotations

from schedsim.app.report.comparison import RunComparison, compare_folders
from schedsim.app.report.console import print_comparison, print_report
from schedsim.app.report.reading import (
    STATUSES,
    folder_kind,
    read_run_folder,
    read_run_folders,
)
from schedsim.app.report.statistics import KINDS, confidence_interval
from schedsim.app.report.study_results import MAIN_METRICS, StudyResults, load_study
from schedsim.app.report.writing import CATEGORY_METRICS, CATEGORY_STATS

__all__ = [
    "CATEGORY_METRICS",
    "CATEGORY_STATS",
    "KINDS",
    "MAIN_METRICS",
    "STATUSES",
    "RunComparison",
    "StudyResults",
    "compare_folders",
    "confidence_interval",
    "folder_kind",
    "load_study",
    "print_comparison",
    "print_report",
    "read_run_folder",
    "read_run_folders",
]
