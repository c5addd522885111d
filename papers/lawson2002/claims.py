"""Lawson & Smirni 2002: the paper's claims, each with what the runs give and a verdict.

What is measured is `schedsim.papers.lawson2002.analyses`' (its docstring gives the
choices).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd

from schedsim.app.report.formats import format_in

__all__ = ["claims"]


# -- the paper's claims ------------------------------------------------------------


def _status(hits: int, total: int, partly: int = 1) -> str:
    """``reproduced`` when every case holds, ``partly`` when at least ``partly`` do."""
    if total == 0:
        return "not run"
    if hits == total:
        return "reproduced"
    return "partly" if hits >= partly else "not reproduced"


def claims(table: pd.DataFrame, batches: pd.DataFrame, res: pd.DataFrame) -> pd.DataFrame:
    """The paper's claims, each with what the runs give (`aggregate`, `transient` and
    `reservations` tables) and whether it is reproduced."""
    rows: list[dict[str, Any]] = []

    def cell(trace: str, scen: str, cls: str = "all", prio: str = "all") -> float:
        hit = table[
            (table["trace"] == trace)
            & (table["scenario"] == scen)
            & (table["class"] == cls)
            & (table["priority"] == prio)
        ]
        return float(hit["R"].iloc[0]) if len(hit) else math.nan

    def add(claim: str, where: str, paper: str, values: Mapping[str, float], want: Any) -> None:
        shown = {k: v for k, v in values.items() if not math.isnan(v)}
        hits = sum(bool(want(k, v)) for k, v in shown.items())
        ours = ", ".join(f"{k} {v:+.2f}" for k, v in shown.items()) or "-"
        rows.append(
            {
                "claim": claim,
                "where": where,
                "paper": paper,
                "schedsim": ours,
                "holds": f"{hits} of {len(shown)}",
                "status": _status(hits, len(shown), max(1, len(shown) // 2)),
            }
        )

    traces = sorted(set(table["trace"])) if len(table) else []
    base = "trace load"
    add(
        "multiple queues give a better slowdown than a single queue, all jobs",
        "Figure 3(a)",
        "R > 0 on all four traces",
        {t: cell(t, base) for t in traces},
        lambda k, v: v > 0,
    )
    for cls, fig in (("short", "3(b)"), ("medium", "3(c)")):
        add(
            f"... and for the {cls} jobs",
            f"Figure {fig}",
            "R > 0 on all four traces",
            {t: cell(t, base, cls) for t in traces},
            lambda k, v: v > 0,
        )
    add(
        "long jobs gain on CTC and KTH, lose on the two SDSC traces",
        "Figure 3(d)",
        "R > 0 on CTC and KTH, R < 0 on PAR and SP2",
        {t: cell(t, base, "long") for t in traces},
        lambda k, v: (v > 0) == (k in ("CTC", "KTH")),
    )
    majority = {}
    for t in traces:
        b = batches[(batches["trace"] == t) & (batches["scenario"] == base)]
        b = b[(b["priority"] == "all") & b["R"].notna()]
        if len(b):
            majority[t] = float((b["R"] > 0).mean())
    rows.append(
        {
            "claim": "R > 0 for a majority of the batches of 1000 submissions",
            "where": "Figure 4",
            "paper": "a majority of the batches on every trace",
            "schedsim": ", ".join(
                f"{t} {format_in(v, 'fraction')} of the batches" for t, v in majority.items()
            )
            or "-",
            "holds": f"{sum(v > 0.5 for v in majority.values())} of {len(majority)}",
            "status": _status(
                sum(v > 0.5 for v in majority.values()), len(majority), max(1, len(majority) // 2)
            ),
        }
    )
    for load in ("load x1.25", "load x1.5"):
        add(
            f"multiple queues better under heavier load ({load}), all jobs",
            "Figure 5(a)",
            "R > 0 on all four traces",
            {t: cell(t, load) for t in traces},
            lambda k, v: v > 0,
        )
    for share, fig in ((75, "6(a)"), (95, "8(a)")):
        scen = f"{share}% high priority"
        add(
            f"better with {share}% high-priority jobs, for high and for low priority jobs",
            f"Figure {fig}",
            "R > 0 for both priorities on all four traces",
            {f"{t} {p}": cell(t, scen, "all", p) for t in traces for p in ("high", "low")},
            lambda k, v: v > 0,
        )
    gains = {}
    for t in traces:
        for share in (75, 95):
            scen = f"{share}% high priority"
            low, high = cell(t, scen, "all", "low"), cell(t, scen, "all", "high")
            if not (math.isnan(low) or math.isnan(high)):
                gains[f"{t} {share}%"] = low - high
    add(
        "low-priority jobs often gain more than high-priority ones",
        "section 3.3",
        "often R(low) > R(high)",
        gains,
        lambda k, v: v > 0,
    )
    for share in (1, 5):
        add(
            f"better with {share}% of the jobs requesting reservations",
            "Figure 10",
            "R > 0 on all four traces",
            {t: cell(t, f"{share}% reservations") for t in traces},
            lambda k, v: v > 0,
        )
    add(
        "comparable slowdowns with 25% reservations",
        "Figure 10",
        "|R| small (here: |R| < 0.25)",
        {t: cell(t, "25% reservations") for t in traces},
        lambda k, v: abs(v) < 0.25,
    )
    missed = {}
    for row in res.to_dict("records"):
        a, b = row["single missed"], row["multiple missed"]
        if a + b:
            missed[f"{row['trace']} {100 * row['share']:g}%"] = (b - a) / max(a, b)
    add(
        "single and multiple queues miss roughly as many reservations",
        "Table 2",
        "within about 20% of each other (CTC 0.25: 1396 against 1441)",
        missed,
        lambda k, v: abs(v) <= 0.2,
    )
    return pd.DataFrame(rows)
