"""Lawson & Smirni 2002: the files the paper adds to a study's report."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from schedsim.app.claims import (
    RULE,
    ClaimResult,
    claims_table,
    counts,
    readings_markdown,
    readings_table,
    write_claims,
)
from schedsim.app.report.plots import save_figures
from schedsim.papers.lawson2002.analyses import (
    MEASURES,
    aggregate,
    crashed,
    pairs,
    reservations,
    starvation,
    transient,
)
from schedsim.papers.lawson2002.claims import BASE, READINGS, readings
from schedsim.papers.lawson2002.figures import delay_figure, ratio_figure, transient_figure

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.app.report.study_results import StudyResults

__all__ = ["readings_page", "starvation_markdown", "write"]

#: The scenarios of the text's default reading (the paper's figures).
_PAPER_SCENARIOS = ("trace load", "load x1.25", "load x1.5", "75% high priority",
                    "95% high priority", "1% reservations", "5% reservations",
                    "25% reservations")  # fmt: skip


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def starvation_markdown(starved: pd.DataFrame) -> str:
    """The starvation line per trace and reading at the trace's own load: each policy's
    longest wait (days) and its jobs waiting over 7 days."""
    head = (
        "| trace | reading | single queue: longest wait (days), waits > 7 d "
        "| multiple queues: longest wait (days), waits > 7 d |"
    )
    lines = [head, "|---|---|---|---|"]
    for reading in READINGS:
        for trace in sorted(set(starved["trace"])):
            scen = reading.scenario(BASE, trace)
            got = starved[(starved["trace"] == trace) & (starved["scenario"] == scen)]
            by = {r["policy"]: r for r in got.to_dict("records")}
            if len(by) < 2 or (reading.ctc is not None and trace != "CTC"):
                continue
            cells = [f"{by[p]['longest wait']:.1f}, {by[p]['waits over 7 days']}"
                     for p in ("singlequeue", "multiqueue")]  # fmt: skip
            lines.append(f"| {trace} | {reading.name} | {cells[0]} | {cells[1]} |")
    return "\n".join(lines) + "\n"


def readings_page(
    by_reading: dict[str, list[ClaimResult]], starved: pd.DataFrame, name: str
) -> tuple[str, pd.DataFrame]:
    """The readings x claims table (Markdown and its frame), the best reading's claims
    table, and the starvation line."""
    table = readings_table(by_reading)
    heads = {n: counts(r, headline=True).get("reproduced", 0) for n, r in by_reading.items()}
    best = max(heads, key=lambda n: heads[n])
    parts = [f"# Lawson & Smirni 2002: the readings x claims ({name})\n", RULE + "\n",
             "No interval: one deterministic run per trace and policy. A reading that the "
             "study runs at the trace's own load only leaves the other claims not checked "
             "(blank verdicts are claims it does not score).\n",
             readings_markdown(table),
             f"\n## The claims under the best reading, {best}\n",
             "| claim (where) | reading of the claim | here | holds | verdict |",
             "|---|---|---|---|---|"]  # fmt: skip
    for r in by_reading[best]:
        row = r.row()
        mark = " (*)" if r.claim.headline else ""
        parts.append(f"| {_cell(row['claim'])}{mark} ({_cell(row['where'])}) | "
                     f"{_cell(row.get('rule', ''))} | {_cell(row['schedsim'])} | {row['holds']} "
                     f"| {row['status']} |")  # fmt: skip
    parts += ["\n## Starvation: the longest wait and the waits over 7 days, trace load\n",
              starvation_markdown(starved)]  # fmt: skip
    return "\n".join(parts), table


def write(results: StudyResults, out: Path) -> tuple[list[Path], list[Path], pd.DataFrame]:
    """The paper's tables, figures and claims (``claims.csv``, ``claims.md``) for a study,
    into ``out``."""
    from schedsim.app.report.formats import with_units

    found = pairs(results)
    # Equation 2's readings (`MEASURES`): the other two give rows of their own.
    table = pd.concat([aggregate(found, measure=m) for m in MEASURES], ignore_index=True)
    batches = pd.concat([transient(found, measure=m) for m in MEASURES], ignore_index=True)
    res, delays = reservations(found)
    crash = crashed(found)
    starved = starvation(found)
    by_reading = readings(table, batches, res, delays, crash)
    claimed = claims_table(by_reading["default"], rule=True)
    tables: list[Path] = []
    plots: list[Path] = []
    units = {"s1": "ratio", "sm": "ratio", "R": "ratio", "jobs": "jobs", "day": "days",
             "share": "fraction", "delay": "s", "single missed share": "fraction",
             "multiple missed share": "fraction",
             "paper single missed share": "fraction", "longest wait": "days",
             "waits over 7 days": "jobs", "crashed": "jobs", "paper jobs": "jobs",
             "paper crashed": "jobs", "proportion": "fraction",
             "paper proportion": "fraction"}  # fmt: skip
    page, readings_frame = readings_page(by_reading, starved, results.name)
    for frame, name in (
        (table, "lawson2002-slowdown-ratios.csv"),
        (batches, "lawson2002-transient.csv"),
        (res, "lawson2002-missed-reservations.csv"),
        (starved, "lawson2002-starvation.csv"),
        (crash, "lawson2002-crashed-jobs.csv"),
    ):
        path = out / name
        with_units(frame, lambda c: units.get(c, "")).to_csv(path, index=False)
        tables.append(path)
    readings_frame.to_csv(out / "lawson2002-readings.csv", index=False)
    (out / "lawson2002-readings.md").write_text(page)
    tables += [out / "lawson2002-readings.csv", out / "lawson2002-readings.md"]
    tables += write_claims(
        claimed, out, f"Lawson & Smirni 2002: the paper's claims ({results.name})",
        intro=RULE + "\n\nThe text's default reading; `lawson2002-readings.md` sets every "
        "reading the study runs side by side.\n",
    )  # fmt: skip
    figures = []
    if len(table):
        loads = [
            s for s in ("trace load", "load x1.25", "load x1.5") if (table["scenario"] == s).any()
        ]  # (none in a study of other scenarios only: then no figure)
        if loads:
            figures.append(
                ("lawson2002-R-by-class", ratio_figure(
                    table, loads,
                    "Slowdown ratio R, multiple against single queue (Figures 3 and 5)"))
            )  # fmt: skip
        prio = [
            s for s in ("75% high priority", "95% high priority") if (table["scenario"] == s).any()
        ]
        if prio:
            figures.append(("lawson2002-R-priorities", ratio_figure(
                table, prio, "R with job priorities (Figures 6 and 8)")))  # fmt: skip
        res_s = [s for s in ("1% reservations", "5% reservations", "25% reservations")
                 if (table["scenario"] == s).any()]  # fmt: skip
        if res_s:
            figures.append(("lawson2002-R-reservations", ratio_figure(
                table, res_s, "R with reservations (Figure 10)")))  # fmt: skip
    if len(batches):
        if (batches["scenario"] == "trace load").any():
            figures.append(("lawson2002-transient", transient_figure(
                batches, "trace load", "R per 1000 submissions (Figure 4)")))  # fmt: skip
        if (batches["scenario"] == "75% high priority").any():
            figures.append(("lawson2002-transient-priorities", transient_figure(
                batches, "75% high priority",
                "R per 1000 submissions, 75% high priority (Figure 7)")))  # fmt: skip
    delays = delays[delays["scenario"].isin(_PAPER_SCENARIOS)] if len(delays) else delays
    if len(delays):
        figures.append(("lawson2002-reservation-delays", delay_figure(delays)))
    plots += save_figures(figures, out)
    return tables, plots, claimed
