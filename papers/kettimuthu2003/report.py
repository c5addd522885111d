"""Kettimuthu 2003: the claims' tables, the counts per reading, and the report's files."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from schedsim.app.claims import groups, write_claims
from schedsim.app.claims import markdown as claims_markdown
from schedsim.papers.kettimuthu2003.claims import READS, STATUSES, claims
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

__all__ = ["UNITS", "markdown", "reading_names", "summary", "summary_markdown", "write"]


UNITS: dict[str, str] = {
    "load_factor": "",
    "jobs": "jobs",
    MEAN_SLD: "ratio",
    MAX_SLD: "ratio",
    MEAN_TAT: "s",
    MAX_TAT: "s",
    "utilization": "fraction",
    "suspensions": "count",
    "scored": "claims",
    **{s: "claims" for s in STATUSES},
}


def reading_names(table: pd.DataFrame) -> list[str]:
    """The readings of a claims table: the default, then those of its column groups."""
    return [DEFAULT, *groups(table)[1:]]


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per reading, the statuses counted over the claims on SS or TSS (``scope`` "SS
    or TSS") and over all claims (a reading's blank cells take the default's status);
    claims not run are not counted."""
    rows = []
    on_ss = table["reads"] != READS[""] if "reads" in table else pd.Series(True, table.index)
    for name in reading_names(table):
        own = table["status"] if name == DEFAULT else table[f"status [{name}]"]
        for scope, pick, statuses in (
            ("SS or TSS", on_ss & (own != ""), own),
            ("all", pd.Series(True, table.index), own.where(own != "", table["status"])),
        ):
            chosen = statuses[pick]
            chosen = chosen[chosen.isin(STATUSES)]
            rows.append({"reading": name, "scope": scope, "scored": len(chosen),
                         **{s: int((chosen == s).sum()) for s in STATUSES}})  # fmt: skip
    return pd.DataFrame(rows, columns=["reading", "scope", "scored", *STATUSES])


#: The header of the thesis's claims in Markdown.
HEADER = ("the thesis says", "thesis", "here", "holds", "")


def markdown(table: pd.DataFrame, reading: str = DEFAULT, rows: Sequence[int] | None = None
             ) -> str:  # fmt: skip
    """A claims table (``claims.csv``) as a Markdown table for ``reading``: the claim and
    where, the thesis, what the runs give, holds, status; ``rows`` (positions) picks some."""
    return claims_markdown(table, "" if reading == DEFAULT else reading, HEADER, rows)


def summary_markdown(counts: pd.DataFrame) -> str:
    """`summary` as a Markdown table."""
    lines = ["| reading | claims scored | " + " | ".join(STATUSES) + " |",
             "|---|---|" + "---|" * len(STATUSES)]  # fmt: skip
    for row in counts.to_dict("records"):
        scope = "claims on SS or TSS" if row["scope"] == "SS or TSS" else "all claims"
        lines.append(f"| {row['reading']}, {scope} | {row['scored']} | "
                     + " | ".join(str(row[s]) for s in STATUSES) + " |")  # fmt: skip
    return "\n".join(lines) + "\n"


def write(results: StudyResults, out: Path) -> tuple[list[Path], list[Path], pd.DataFrame]:
    """The claims (``claims.csv``, and as Markdown ``kettimuthu2003-claims.md``, every
    reading's table after the default's), the counts per reading
    (``kettimuthu2003-summary.csv``) and the values they read
    (``kettimuthu2003-overall.csv``, ``kettimuthu2003-categories.csv``)."""
    from schedsim.app.report.formats import with_units

    overall = overall_values(results)
    cats = category_values(results)
    table = claims(overall, cats)
    counts = summary(table)
    tables: list[Path] = []
    for frame, name in ((overall, "kettimuthu2003-overall.csv"),
                        (cats, "kettimuthu2003-categories.csv"),
                        (counts, "kettimuthu2003-summary.csv")):  # fmt: skip
        path = out / name
        with_units(frame, lambda c: UNITS.get(c, "")).to_csv(path, index=False)
        tables.append(path)
    tables += write_claims(table, out, f"Kettimuthu 2003: the thesis's claims ({results.name})",
                           summary_markdown(counts), "kettimuthu2003-claims.md", HEADER,
                           "## Reading: {name}")  # fmt: skip
    return tables, [], table
