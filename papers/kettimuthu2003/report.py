"""Kettimuthu 2003: the claims' tables, the counts per reading, the readings x claims table,
the load study's metrics, and the report's files."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from schedsim.app.claims import REPRODUCED, RULE, counts, groups, readings_markdown, readings_table
from schedsim.app.claims import markdown as claims_markdown
from schedsim.papers.kettimuthu2003.claims import STATUSES, Scored, score_all, table
from schedsim.papers.kettimuthu2003.load import UNITS as LOAD_UNITS
from schedsim.papers.kettimuthu2003.load import load_metrics
from schedsim.papers.kettimuthu2003.readings import DEFAULT
from schedsim.papers.kettimuthu2003.values import (
    MAX_SLD,
    MAX_TAT,
    MEAN_SLD,
    MEAN_TAT,
    category_values,
    overall_values,
)

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.app.report.study_results import StudyResults

__all__ = [
    "UNITS",
    "document",
    "load_markdown",
    "markdown",
    "reading_names",
    "readings_verdicts",
    "rules_markdown",
    "summary",
    "summary_markdown",
    "write",
]


UNITS: dict[str, str] = {
    "load_factor": "",
    "jobs": "jobs",
    MEAN_SLD: "ratio",
    MAX_SLD: "ratio",
    MEAN_TAT: "s",
    MAX_TAT: "s",
    "utilization": "fraction",
    "suspensions": "count",
    "claims": "claims",
    "headline": "claims",
    "headline reproduced": "claims",
    **{s: "claims" for s in STATUSES},
}


def reading_names(table: pd.DataFrame) -> list[str]:
    """The readings of a claims table: the default, then those of its column groups."""
    return [DEFAULT, *groups(table)[1:]]


def readings_verdicts(scored: Scored) -> pd.DataFrame:
    """The readings x claims table (`schedsim.app.claims.readings_table`): each claim's
    verdict under each reading, a reading that does not define a claim's runs taking its
    base's (the default's; a ``window=arrivals`` reading its own reading's)."""
    return readings_table({r.name: scored.results(r.name) for r in scored.readings})


def summary(scored: Scored) -> pd.DataFrame:
    """Per reading, the verdicts counted over every claim (`readings_verdicts`' cells),
    and the headline claims (abstract and conclusions) and how many it reproduces."""
    rows = []
    for r in scored.readings:
        results = scored.results(r.name)
        got = counts(results)
        heads = counts(results, headline=True)
        rows.append({"reading": r.name, "claims": len(results),
                     **{s: got.get(s, 0) for s in STATUSES},
                     "headline": sum(heads.values()),
                     "headline reproduced": heads.get(REPRODUCED, 0)})  # fmt: skip
    return pd.DataFrame(rows, columns=["reading", "claims", *STATUSES, "headline",
                                       "headline reproduced"])  # fmt: skip


#: The header of the thesis's claims in Markdown.
HEADER = ("the thesis says", "thesis", "here", "holds", "")


def markdown(table: pd.DataFrame, reading: str = DEFAULT, rows: Sequence[int] | None = None
             ) -> str:  # fmt: skip
    """A claims table (``claims.csv``) as a Markdown table for ``reading``: the claim and
    where, the thesis, what the runs give, holds, status; ``rows`` (positions) picks some.
    The numeric reading of each claim is in `rules_markdown`."""
    return claims_markdown(table, "" if reading == DEFAULT else reading, HEADER, rows)


def rules_markdown(table: pd.DataFrame) -> str:
    """Each claim's numeric reading (its ``rule``), fixed before our numbers were seen."""
    lines = ["| the thesis says | its words read as | headline |", "|---|---|---|"]
    for row in table.to_dict("records"):
        mark = "yes" if row["headline"] else ""
        lines.append(f"| {_escape(row['claim'])} ({_escape(row['where'])}) | "
                     f"{_escape(row['rule'])} | {mark} |")  # fmt: skip
    return "\n".join(lines) + "\n"


def summary_markdown(frame: pd.DataFrame) -> str:
    """`summary` as a Markdown table."""
    names = ["claims", *STATUSES, "headline reproduced"]
    lines = ["| reading | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for row in frame.to_dict("records"):
        head = f"{row['headline reproduced']} of {row['headline']}"
        cells = [str(row[n]) for n in names[:-1]] + [head]
        lines.append(f"| {row['reading']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def load_markdown(frame: pd.DataFrame) -> str:
    """The load study's metrics (`schedsim.papers.kettimuthu2003.load`) as Markdown."""
    head = (
        "| run | load factor | utilization, whole run (fraction) | utilization, arrivals "
        "(fraction) | drain (h) | suspended at the last arrival (jobs) | homes per node "
        "at the last arrival, mean / max (jobs) | homes on one node, peak (jobs) |"
    )
    lines = [head, "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for row in frame.to_dict("records"):
        lines.append(
            f"| {row['label']} | {row['load_factor']:g} | {row['utilization']:.3f} | "
            f"{row['utilization_arrivals']:.3f} | {row['drain']:.1f} | "
            f"{row['suspended_last']:.0f} | {row['homes_mean']:.2f} / {row['homes_max']:.0f} | "
            f"{row['homes_peak']:.0f} |"
        )
    return "\n".join(lines) + "\n"


def document(scored: Scored, table: pd.DataFrame, title: str) -> str:
    """``kettimuthu2003-claims.md``: the rule, the counts per reading, the readings x
    claims table, each claim's numeric reading, then the default's claims table and each
    other reading's (the claims it scores itself)."""
    parts = [f"# {title}\n", RULE + "\n",
             "No interval: one deterministic run per scenario (trace replays; the overhead's "
             "memory sizes come from the run's seed).\n",
             "## Verdicts per reading\n", summary_markdown(summary(scored)),
             "\n## Readings x claims\n",
             "A reading that does not define a claim's runs takes the default's verdict "
             "(a `window=arrivals` reading: its own reading's).\n",
             readings_markdown(readings_verdicts(scored)),
             "\n## The numeric readings of the thesis's words\n",
             rules_markdown(table)]  # fmt: skip
    for name in reading_names(table):
        rows = None
        if name != DEFAULT:
            rows = [i for i, s in enumerate(table[f"status [{name}]"]) if s != ""]
        parts += [f"\n## Reading: {name}\n", markdown(table, name, rows)]
    return "\n".join(parts)


def write(results: StudyResults, out: Path) -> tuple[list[Path], list[Path], pd.DataFrame]:
    """The claims (``claims.csv``, and as Markdown ``kettimuthu2003-claims.md``: `document`),
    the counts per reading (``kettimuthu2003-summary.csv``), the readings x claims table
    (``kettimuthu2003-readings.csv``), the load study's metrics
    (``kettimuthu2003-load.csv``) and the values the claims read
    (``kettimuthu2003-overall.csv``, ``kettimuthu2003-categories.csv``)."""
    from schedsim.app.report.formats import with_units

    overall = overall_values(results)
    cats = category_values(results)
    load = load_metrics(results)
    arrivals = load[["label", "load_factor", "utilization_arrivals"]]
    overall = overall.merge(_traced(arrivals), on=["label", "accurate", "overhead",
                                                  "load_factor"], how="left")  # fmt: skip
    scored = score_all(overall, cats)
    claims_frame = table(scored)
    counts_frame = summary(scored)
    verdicts = readings_verdicts(scored)
    units = {**UNITS, **LOAD_UNITS}
    tables: list[Path] = []
    for frame, name in ((overall, "kettimuthu2003-overall.csv"),
                        (cats, "kettimuthu2003-categories.csv"),
                        (counts_frame, "kettimuthu2003-summary.csv"),
                        (verdicts, "kettimuthu2003-readings.csv"),
                        (load, "kettimuthu2003-load.csv")):  # fmt: skip
        path = out / name
        with_units(frame, lambda c: units.get(c, "")).to_csv(path, index=False)
        tables.append(path)
    csv = out / "claims.csv"
    claims_frame.to_csv(csv, index=False)
    md = out / "kettimuthu2003-claims.md"
    title = f"Kettimuthu 2003: the thesis's claims ({results.name})"
    text = document(scored, claims_frame, title)
    if len(load):
        text += "\n## The load study\n\n" + load_markdown(load)
    md.write_text(text)
    return [*tables, csv, md], [], claims_frame


def _traced(frame: pd.DataFrame) -> pd.DataFrame:
    """Load-study rows keyed like `overall_values`' (the trace's estimates, no overhead)."""
    return frame.assign(accurate=False, overhead="")


def _escape(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")
