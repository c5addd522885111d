"""Zeng & Sodan 2009: the files the paper adds to a study's report."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from schedsim.app.claims import (
    RULE,
    claims_table,
    readings_markdown,
    readings_table,
    write_claims,
)
from schedsim.app.report.plots import save_figures
from schedsim.papers.zeng2009.analyses import (
    KEYS,
    RR_CUTS,
    TYPES,
    UNITS,
    aggregate,
    default_reading,
    paper_setting,
    study_runs,
)
from schedsim.papers.zeng2009.claims import (
    READING_TEXT,
    READINGS,
    claims,
    readings,
    scored_reading,
)
from schedsim.papers.zeng2009.figures import (
    _base,
    _series,
    block_figure,
    rr_figure,
    slack_figure,
    utilization_figure,
)

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from schedsim.app.report.study_results import StudyResults

__all__ = ["READINGS_FROM", "readings_of", "write"]


#: The columns of ``zeng2009-utilization.csv`` beyond the configuration's.
UTILIZATION_COLUMNS = ("u_node", "u_core", "u_node_high", "u_core_high", "u_node_phase",
                       "u_core_phase", "u_core_high_susp", "high_load_phases", "high_load_s",
                       "makespan_s")  # fmt: skip
#: The columns of ``zeng2009-matchmaking.csv`` (`analyses.matchmaking_stats`).
MATCHMAKING_COLUMNS = (
    "searches", "searches_case1", "candidates_mean", "few_candidates_share", "fair_rejects",
    "fair_rejected_share", "groups_found", "groups_taken",
)  # fmt: skip


def _unit(column: str) -> str:
    return UNITS.get(column, "")


def write(results: StudyResults, out: Path) -> tuple[list[Path], list[Path], pd.DataFrame]:
    """The paper's tables, figures and claims for a study, into ``out``.

    Tables: every run's metrics (``zeng2009-runs.csv``), and averaged over the
    replications: RR per scheduler and type, RR at each cut-off, the utilizations
    (pooled over the high-load phases and as a mean of the phases), the groups, the
    group searches (``zeng2009-matchmaking.csv``, from each run's matchmaking log) and the
    fairness (delay factors); ``claims.csv`` and ``claims.md`` under the text's reading
    (`schedsim.papers.zeng2009.claims.DEFAULT`; a study without its runs, under the first
    reading it has), each claim under every reading the runs
    have (``zeng2009-claims-readings.csv``) and the readings x claims table
    (``readings.csv``, ``readings.md``). Figures 6-9 where the study has their runs, under
    the default workload reading.
    """
    from schedsim.app.report.formats import with_units

    runs = study_runs(results)
    table = aggregate(runs)
    by_reading = readings(runs)
    reading = scored_reading(runs)
    claimed = claims(runs, reading)
    chosen = paper_setting(default_reading(table))
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
        cuts = [f"rr_{t}_cut{c:g}" for c in RR_CUTS for t in ("short", "all")]
        searches = [c for c in MATCHMAKING_COLUMNS if c in table]
        frames += [
            (long_rr, "zeng2009-rr.csv"),
            (table[[*keys, *(c for c in cuts if c in table)]], "zeng2009-rr-cutoffs.csv"),
            (table[[*keys, *(c for c in UTILIZATION_COLUMNS if c in table)]],
             "zeng2009-utilization.csv"),
            (table[[*keys, "jobs", "groups", "groups_per_10k_jobs", "group_size_jobs",
                    "grouped_share"]], "zeng2009-groups.csv"),
            (table[[*keys, *searches]], "zeng2009-matchmaking.csv"),
            (table[[*keys, *(c for c in table.columns if c.startswith("delay_"))]],
             "zeng2009-fairness.csv"),
        ]  # fmt: skip
    for frame, name in frames:
        path = out / name
        with_units(frame, _unit).to_csv(path, index=False)
        tables.append(path)
    intro = (f"{RULE}\n\nOurs is the mean over the replications with its 95% interval in "
             "brackets; a change is taken per replication (the two schedulers on the same "
             f"workload). Reading: {reading.name!r} ({READING_TEXT[reading.name]}); the "
             "other readings are in `readings.md`.\n")  # fmt: skip
    title = f"Zeng & Sodan 2009: the paper's claims ({results.name})"
    tables += write_claims(claimed, out, title, intro)
    every = pd.concat(
        [claims_table(r, rule=True).assign(reading=name) for name, r in by_reading.items()],
        ignore_index=True,
    )
    every.to_csv(out / "zeng2009-claims-readings.csv", index=False)
    grid = readings_table(by_reading)
    grid.to_csv(out / "readings.csv", index=False)
    (out / "readings.md").write_text(
        f"# Zeng & Sodan 2009: readings x claims ({results.name})\n\n"
        + "\n".join(f"- **{r.name}**: {READING_TEXT[r.name]}" for r in READINGS
                    if r.name in by_reading)
        + "\n\n" + readings_markdown(grid)
    )  # fmt: skip
    tables += [out / "zeng2009-claims-readings.csv", out / "readings.csv", out / "readings.md"]
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


#: The studies (files of this package) whose runs `readings_of` scores together: the main
#: study and the three of one reading each. ``study-pairs.toml`` (one workload, one
#: replication) and ``study-rounding.toml`` are reported on their own.
READINGS_FROM: tuple[str, ...] = ("study.toml", "study-alpha-w2.toml", "study-contention.toml",
                                  "study-ns.toml")  # fmt: skip


def readings_of(directories: Sequence[str | Path]) -> str:
    """The readings x claims table (markdown, as ``readings.md``'s) of several studies of
    this paper scored together: the main study and the studies of one reading each
    (``study-alpha-w2.toml``, ``study-ns.toml``), whose runs no single report sees at
    once (and ``study-contention.toml``'s, the slowdowns combined by max). A run two of
    them hold (the same run id: same configuration and seed) counts
    once. The page's table is this one; ``schedsim reproduce zeng2009`` writes it as
    ``readings-all.md`` in the main study's report (`READINGS_FROM`).
    """
    from schedsim.app.report.study_results import StudyResults

    frames = [f for f in (study_runs(StudyResults.load(d)) for d in directories) if len(f)]
    if not frames:
        where = ", ".join(map(str, directories))
        raise ValueError(f"no finished run of Zeng & Sodan's schedulers in {where}")
    runs = pd.concat(frames, ignore_index=True).drop_duplicates("id", ignore_index=True)
    return readings_markdown(readings_table(readings(runs)))
