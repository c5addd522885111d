"""Reports: a parameter study's replications aggregated, policies compared, plots.

``schedsim report DIR`` is built from these modules, one idea each (what
only some commands or papers use is elsewhere: `schedsim.app.compare`, run
folders side by side; `schedsim.app.claims`, a paper's claims):

`reading`
    A study directory (its layout is documented there) or run folders, read
    into DataFrames and `Result` objects.
`quantities`
    What the numbers are: the papers by name (Kettimuthu 2003, ...), each
    metric's unit and the range of values it can take.
`statistics`
    Pure functions over DataFrames: Student t confidence intervals (cut at
    a quantity's range; why, in its docstring), aggregation over
    replications, paired ratios against a baseline, per-category tables.
    Its docstring states the conventions (missing
    values, group order).
`plots`
    Figures only (matplotlib), from tables already computed.
`console`
    Printing (rich): the study report and the tables of one or several runs.
`formats`
    How values are written: one number format per quantity, names, CSV
    headers with units.
`writing`
    Which files a study report writes, under which names.
`study_results`
    `StudyResults`, the user-facing view of one study, and `load_results`.

The names below are the public interface: import them from
``schedsim.app.report``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.app.report.console import print_report
    from schedsim.app.report.reading import (
        STATUSES,
        folder_kind,
        read_run_folder,
        read_run_folders,
    )
    from schedsim.app.report.statistics import KINDS, confidence_interval
    from schedsim.app.report.study_results import MAIN_METRICS, StudyResults, load_results
    from schedsim.app.report.writing import CATEGORY_METRICS, CATEGORY_STATS

#: Public name -> the module that holds it, imported on first access: the modules
#: import pandas and matplotlib, which ``schedsim --help`` and the light modules of
#: this package (`quantities`, `formats`) do not need.
_API: dict[str, str] = {
    "print_report": "console",
    "STATUSES": "reading",
    "folder_kind": "reading",
    "read_run_folder": "reading",
    "read_run_folders": "reading",
    "KINDS": "statistics",
    "confidence_interval": "statistics",
    "MAIN_METRICS": "study_results",
    "StudyResults": "study_results",
    "load_results": "study_results",
    "CATEGORY_METRICS": "writing",
    "CATEGORY_STATS": "writing",
}

__all__ = [
    "CATEGORY_METRICS",
    "CATEGORY_STATS",
    "KINDS",
    "MAIN_METRICS",
    "STATUSES",
    "StudyResults",
    "confidence_interval",
    "folder_kind",
    "load_results",
    "print_report",
    "read_run_folder",
    "read_run_folders",
]


def __getattr__(name: str) -> Any:
    module = _API.get(name)
    if module is None:
        # A submodule (``from schedsim.app.report import plots``) is imported as such.
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
