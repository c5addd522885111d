"""Zeng & Sodan 2009: the files the paper adds to a study's report."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from schedsim.app.claims import write_claims
from schedsim.app.report.plots import save_figures
from schedsim.papers.zeng2009.analyses import (
    KEYS,
    TYPES,
    UNITS,
    aggregate,
    paper_setting,
    study_runs,
)
from schedsim.papers.zeng2009.claims import _series, claims
from schedsim.papers.zeng2009.figures import (
    _base,
    block_figure,
    rr_figure,
    slack_figure,
    utilization_figure,
)

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from schedsim.app.report.study_results import StudyResults

__all__ = ["write"]


def _unit(column: str) -> str:
    return UNITS.get(column, "")


def write(results: StudyResults, out: Path) -> tuple[list[Path], list[Path], pd.DataFrame]:
    """The paper's tables, figures and claims for a study, into ``out``.

    Tables: every run's metrics (``zeng2009-runs.csv``), and averaged over the
    replications: RR per scheduler and type, the utilizations, the groups and
    the fairness (delay factors); ``claims.csv`` and ``claims.md``. Figures 6-9 where the study
    has their runs.
    """
    from schedsim.app.report.formats import with_units

    runs = study_runs(results)
    table = aggregate(runs)
    claimed = claims(table)
    chosen = paper_setting(table)
    tables: list[Path] = []
    plots: list[Path] = []
    keys = [*KEYS, "runs"]
    frames: list[tuple[pd.DataFrame, str]] = [(runs, "zeng2009-runs.csv")]
    if len(table):
        long_rr = table.melt(
            id_vars=keys,
            value_vars=[f"rr_{t}" for t in (*TYPES, "all")],
            var_name="type",
            value_name="rr",
        )
        long_rr["type"] = long_rr["type"].str.removeprefix("rr_")
        frames += [
            (long_rr, "zeng2009-rr.csv"),
            (table[[*keys, "u_node", "u_core", "u_node_high", "u_core_high",
                    "high_load_phases", "high_load_s", "makespan_s"]],
             "zeng2009-utilization.csv"),
            (table[[*keys, "jobs", "groups", "groups_per_10k_jobs", "group_size_jobs",
                    "grouped_share"]], "zeng2009-groups.csv"),
            (table[[*keys, *(c for c in table.columns if c.startswith("delay_"))]],
             "zeng2009-fairness.csv"),
        ]  # fmt: skip
    for frame, name in frames:
        path = out / name
        with_units(frame, _unit).to_csv(path, index=False)
        tables.append(path)
    tables += write_claims(claimed, out, f"Zeng & Sodan 2009: the paper's claims ({results.name})")
    figures: list[tuple[str, Figure]] = []
    if len(chosen) and len(_base(chosen, "W1")):
        figures.append(("zeng2009-fig6-rr", rr_figure(chosen)))
        figures.append(("zeng2009-fig7-utilization", utilization_figure(chosen)))
    if len(chosen) and len(set(chosen[chosen["workload"] == "W2"]["block_size"])) >= 2:
        figures.append(("zeng2009-fig8-block-size", block_figure(chosen)))
    if len(chosen) and len(_series(chosen, "W1", "GLTS", "f_slack", "block_size")) >= 2:
        figures.append(("zeng2009-fig9-slack", slack_figure(chosen)))
    plots += save_figures(figures, out)
    return tables, plots, claimed
