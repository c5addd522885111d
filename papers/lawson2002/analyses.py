"""Lawson & Smirni 2002 (multiple-queue backfilling): the paper's measures of a study.

A study of ``multiqueue`` against ``singlequeue`` (`schedsim.policies.multiqueue`;
``studies/seed001.toml``) is reported as the paper reports it, section 3:

* the job slowdown s = 1 + d / v (Equation 2: d the delay, here the job
  table's ``wait``, which includes lost speculative attempts; v the actual
  service time, ``run``), averaged over the jobs, per class of estimated run
  time (Equation 1: short under 1000 s, medium under 10 000 s, long beyond:
  the classes of Figures 3-10, the same under both policies) and for all
  jobs; jobs of no service time (v = 0) have no slowdown and are left out;
* the slowdown ratio R = (s1 - sm) / min(s1, sm) (Equation 3; s1 single-
  and sm multiple-queue slowdowns, R > 0 when multiple queues do better),
  for each trace and scenario (the trace's load, load factors 1.25 and 1.5,
  75% and 95% high-priority jobs, 1%, 5% and 25% of jobs requesting
  reservations), per class, and split by priority where there are
  priorities (Figures 3, 5, 6, 8, 10): `aggregate`;
* R per batch of 1000 submissions over time (Figures 4, 7, 9): `transient`;
* missed reservations (granted later than requested) beside the paper's
  Table 2, and the tail of the reservation delays (Figure 11):
  `reservations`; the shares of the reservations missed are fractions (0-1),
  as every share and utilization in schedsim;
* a table of the paper's claims, each with the paper's statement, what the
  runs give and whether it is reproduced (`claims`), computed from the
  tables above so that a change that breaks a reproduction shows.

A pair is the two runs of one trace and scenario that differ only by the
policy (the first replication of each, as the paper has one run each).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from schedsim.app.report.formats import format_in
from schedsim.app.report.plots import save_figures
from schedsim.model.results import Result

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from schedsim.app.report.study_results import StudyResults

__all__ = [
    "CLASSES",
    "PAPER_TABLE_2",
    "aggregate",
    "claims",
    "pairs",
    "ratio",
    "reservations",
    "slowdown",
    "transient",
    "write",
]

#: The paper's classes of estimated run time (Equation 1), in seconds.
CLASSES: tuple[tuple[str, float, float], ...] = (
    ("short", 0.0, 1000.0),
    ("medium", 1000.0, 10_000.0),
    ("long", 10_000.0, math.inf),
)
SINGLE, MULTI = "singlequeue", "multiqueue"
#: The paper's traces, by this project's names (PAR is SDSC's 1996 Paragon log).
TRACE_NAMES = {"ctc": "CTC", "kth": "KTH", "sdsc-par": "PAR", "sdsc-sp2": "SP2"}

#: Table 2 of the paper: trace -> reservation share -> (requested, missed by single, by multi).
PAPER_TABLE_2: dict[str, dict[float, tuple[int, int, int]]] = {
    "CTC": {0.01: (761, 19, 13), 0.05: (3908, 90, 90), 0.25: (19897, 1396, 1441)},
    "KTH": {0.01: (273, 9, 12), 0.05: (1421, 45, 38), 0.25: (7178, 567, 546)},
    "PAR": {0.01: (374, 5, 1), 0.05: (1873, 7, 9), 0.25: (9543, 138, 119)},
    "SP2": {0.01: (652, 54, 46), 0.05: (3349, 294, 250), 0.25: (16968, 4051, 3983)},
}


def slowdown(jobs: pd.DataFrame) -> float:
    """The average job slowdown 1 + d / v over the jobs with v > 0 (NaN if none)."""
    run = jobs["run"].to_numpy(dtype=float)
    wait = jobs["wait"].to_numpy(dtype=float)
    keep = run > 0
    return float(np.mean(1.0 + wait[keep] / run[keep])) if keep.any() else math.nan


def ratio(s1: float, sm: float) -> float:
    """R = (s1 - sm) / min(s1, sm) (Equation 3)."""
    return (s1 - sm) / min(s1, sm)


def estimate_class(jobs: pd.DataFrame) -> pd.Series:
    """Each job's class of estimated run time (Equation 1)."""
    est = jobs["estimate"].to_numpy(dtype=float)
    names = np.select(
        [est < hi for _, _, hi in CLASSES], [name for name, _, _ in CLASSES], default="long"
    )
    return pd.Series(names, index=jobs.index)


def _groups(jobs: pd.DataFrame) -> dict[tuple[str, str], pd.DataFrame]:
    """The jobs by (class, priority): every class and ``"all"``, every priority and
    ``"all"`` (priorities only where the jobs have them)."""
    classes = estimate_class(jobs)
    priority = jobs["priority"] if "priority" in jobs else pd.Series("all", index=jobs.index)
    out: dict[tuple[str, str], pd.DataFrame] = {}
    for cls in ("all", *(name for name, _, _ in CLASSES)):
        in_class = jobs if cls == "all" else jobs[classes == cls]
        out[(cls, "all")] = in_class
        if "priority" in jobs:
            for prio in ("high", "low"):
                out[(cls, prio)] = in_class[priority.loc[in_class.index] == prio]
    return out


def scenario(row: Mapping[str, Any]) -> str:
    """A run's scenario, as the paper names it: its load, priorities or reservations."""
    load = row.get("load_factor")
    prio = row.get("priorities")
    res = row.get("reservations")
    parts = []
    if isinstance(load, (int, float)) and not pd.isna(load) and load != 1.0:
        parts.append(f"load x{load:g}")
    if isinstance(prio, (int, float)) and not pd.isna(prio):
        parts.append(f"{100 * prio:g}% high priority")
    if isinstance(res, (int, float)) and not pd.isna(res):
        parts.append(f"{100 * res:g}% reservations")
    return ", ".join(parts) or "trace load"


def pairs(results: StudyResults) -> list[tuple[dict[str, Any], Result, Result]]:
    """(the pair's configuration, single-queue result, multiple-queue result) for every
    trace and scenario that has both runs finished (first replication)."""
    done = results.done
    done = done[(done["replication"] == 0) & done["policy"].isin([SINGLE, MULTI])]
    keys = [c for c in results.scenario_columns if c not in ("seed",) and c in done]
    out = []
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for record in done.to_dict("records"):
        groups.setdefault(tuple(repr(record[k]) for k in keys), []).append(record)
    for group in groups.values():
        by = {row["policy"]: row for row in group}
        if SINGLE in by and MULTI in by:
            row = by[SINGLE]
            config = {k: row[k] for k in keys}
            config["trace"] = TRACE_NAMES.get(str(row["workload"]), str(row["workload"]))
            config["scenario"] = scenario(config)
            out.append((config, results.result(by[SINGLE]["id"]), results.result(by[MULTI]["id"])))
    return out


def aggregate(
    pairs_: Sequence[tuple[dict[str, Any], Result, Result]],
) -> pd.DataFrame:
    """s1, sm and R per trace, scenario, class and priority (Figures 3, 5, 6, 8, 10)."""
    rows = []
    for config, single, multi in pairs_:
        one, many = _groups(single.jobs), _groups(multi.jobs)
        for (cls, prio), jobs in one.items():
            s1, sm = slowdown(jobs), slowdown(many[(cls, prio)])
            rows.append(
                {
                    "trace": config["trace"],
                    "scenario": config["scenario"],
                    "class": cls,
                    "priority": prio,
                    "jobs": len(jobs),
                    "s1": s1,
                    "sm": sm,
                    "R": ratio(s1, sm) if not (math.isnan(s1) or math.isnan(sm)) else math.nan,
                }
            )
    return pd.DataFrame(rows)


def transient(
    pairs_: Sequence[tuple[dict[str, Any], Result, Result]], batch: int = 1000
) -> pd.DataFrame:
    """R per batch of ``batch`` submissions, in submit order (Figures 4, 7, 9), for all
    jobs and, with priorities, per priority. ``day`` is the batch's first submission,
    in days since the run's start."""
    rows = []
    for config, single, multi in pairs_:
        a = single.jobs.sort_values(["submit", "id"]).reset_index(drop=True)
        b = multi.jobs.set_index("id").loc[a["id"]].reset_index()
        start = float(single.meta["start"])
        for k in range(0, len(a), batch):
            one, many = a.iloc[k : k + batch], b.iloc[k : k + batch]
            prios = ("all", "high", "low") if "priority" in a else ("all",)
            for prio in prios:
                x = one if prio == "all" else one[one["priority"] == prio]
                y = many if prio == "all" else many[many["priority"] == prio]
                s1, sm = slowdown(x), slowdown(y)
                rows.append(
                    {
                        "trace": config["trace"],
                        "scenario": config["scenario"],
                        "batch": k // batch + 1,
                        "day": (float(one["submit"].iloc[0]) - start) / 86400.0,
                        "priority": prio,
                        "s1": s1,
                        "sm": sm,
                        "R": ratio(s1, sm) if not (math.isnan(s1) or math.isnan(sm)) else math.nan,
                    }
                )
    return pd.DataFrame(rows)


def reservations(
    pairs_: Sequence[tuple[dict[str, Any], Result, Result]],
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Missed reservations per trace and share beside the paper's Table 2, and every
    reservation's delay (granted - requested, s) for Figure 11. The counts (``single
    missed``...) come with the share of the requested reservations they make
    (``single missed share``...: fractions, 0-1)."""
    rows, delays = [], []
    for config, single, multi in pairs_:
        share = config.get("reservations")
        if not isinstance(share, (int, float)) or pd.isna(share):
            continue
        counts = {}
        for name, result in ((SINGLE, single), (MULTI, multi)):
            jobs = result.jobs
            asked = jobs[jobs["reservation"].notna()] if "reservation" in jobs else jobs.iloc[:0]
            delay = asked["reservation_granted"] - asked["reservation"]
            counts[name] = (len(asked), int((delay > 0).sum()))
            delays.extend(
                {"trace": config["trace"], "share": share, "policy": name, "delay": d}
                for d in delay.tolist()
            )
        paper = PAPER_TABLE_2.get(config["trace"], {}).get(round(float(share), 2))
        rows.append(
            {
                "trace": config["trace"],
                "share": share,
                "requested": counts[SINGLE][0],
                "single missed": counts[SINGLE][1],
                "multiple missed": counts[MULTI][1],
                "single missed share": counts[SINGLE][1] / max(counts[SINGLE][0], 1),
                "multiple missed share": counts[MULTI][1] / max(counts[MULTI][0], 1),
                "paper requested": paper[0] if paper else math.nan,
                "paper single missed": paper[1] if paper else math.nan,
                "paper multiple missed": paper[2] if paper else math.nan,
                "paper single missed share": paper[1] / paper[0] if paper else math.nan,
            }
        )
    return pd.DataFrame(rows), pd.DataFrame(delays)


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


# -- figures -----------------------------------------------------------------------


def _ratio_figure(table: pd.DataFrame, scenarios: Sequence[str], title: str) -> Figure:
    """R per class and trace, one panel per scenario (the paper's bar charts)."""
    from matplotlib.figure import Figure

    from schedsim.app.gantt import OKABE_ITO

    fig = Figure(figsize=(3.4 * len(scenarios), 3.2), layout="constrained")
    axes = fig.subplots(1, len(scenarios), squeeze=False)[0]
    classes = ["all", *(c for c, _, _ in CLASSES)]
    for ax, scen in zip(axes, scenarios, strict=True):
        part = table[(table["scenario"] == scen) & (table["priority"] == "all")]
        traces = sorted(set(part["trace"]))
        width = 0.8 / max(len(traces), 1)
        for i, t in enumerate(traces):
            values = [
                float(part[(part["trace"] == t) & (part["class"] == c)]["R"].iloc[0])
                if len(part[(part["trace"] == t) & (part["class"] == c)])
                else math.nan
                for c in classes
            ]
            ax.bar(
                np.arange(len(classes)) + (i - (len(traces) - 1) / 2) * width,
                values,
                width,
                label=t,
                color=OKABE_ITO[i % len(OKABE_ITO)],
                hatch=("", "//", "..", "xx")[i % 4],
                edgecolor="#333333",
                linewidth=0.5,
            )
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xticks(range(len(classes)), classes)
        ax.set_title(scen, fontsize=9)
        ax.set_xlabel("class of estimated run time")
    axes[0].set_ylabel("slowdown ratio R (ratio)")
    axes[-1].legend(fontsize=7, title="trace")
    fig.suptitle(title, fontsize=10)
    return fig


def _transient_figure(batches: pd.DataFrame, scenario_: str, title: str) -> Figure:
    from matplotlib.figure import Figure

    part = batches[batches["scenario"] == scenario_]
    traces = sorted(set(part["trace"]))
    fig = Figure(figsize=(10, 1.9 * max(len(traces), 1)), layout="constrained")
    axes = fig.subplots(max(len(traces), 1), 1, squeeze=False)[:, 0]
    styles = {"all": ("#0072B2", "-"), "high": ("#0072B2", "-"), "low": ("#D55E00", "--")}
    for ax, t in zip(axes, traces, strict=False):
        mine = part[part["trace"] == t]
        prios = ["high", "low"] if (mine["priority"] == "high").any() else ["all"]
        for prio in prios:
            line = mine[mine["priority"] == prio]
            color, style = styles[prio]
            ax.plot(line["day"], line["R"], style, color=color, marker=".", label=prio)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_ylabel(f"{t}: R (ratio)")
        if len(prios) > 1:
            ax.legend(fontsize=7, title="priority")
    axes[-1].set_xlabel("time of the batch's first submission (days since the start)")
    fig.suptitle(title, fontsize=10)
    return fig


def _delay_figure(delays: pd.DataFrame) -> Figure:
    """The tail of the reservation delays, per trace: the share of reservations granted
    more than x after their request (Figure 11), a fraction (0-1) on a log axis."""
    from matplotlib.figure import Figure

    traces = sorted(set(delays["trace"]))
    fig = Figure(figsize=(3.2 * max(len(traces), 1), 3.0), layout="constrained")
    axes = fig.subplots(1, max(len(traces), 1), squeeze=False)[0]
    for ax, t in zip(axes, traces, strict=False):
        for policy, (color, style) in ((SINGLE, ("#0072B2", "-")), (MULTI, ("#D55E00", "--"))):
            d = np.sort(delays[(delays["trace"] == t) & (delays["policy"] == policy)]["delay"])
            if not len(d):
                continue
            tail = 1.0 - np.arange(1, len(d) + 1) / len(d)
            ax.step(d / 3600.0, tail, style, color=color, where="post", label=policy)
        ax.set_title(t, fontsize=9)
        ax.set_xlabel("delay of the reservation (h)")
        ax.set_yscale("log")
    axes[0].set_ylabel("reservations delayed longer (fraction)")
    axes[-1].legend(fontsize=7)
    return fig


def write(results: StudyResults, out: Path) -> tuple[list[Path], list[Path], pd.DataFrame]:
    """The paper's tables, figures and claims for a study, into ``out``."""
    from schedsim.app.report.formats import with_units

    found = pairs(results)
    table = aggregate(found)
    batches = transient(found)
    res, delays = reservations(found)
    claimed = claims(table, batches, res)
    tables: list[Path] = []
    plots: list[Path] = []
    units = {"s1": "ratio", "sm": "ratio", "R": "ratio", "jobs": "jobs", "day": "days",
             "share": "fraction", "delay": "s", "single missed share": "fraction",
             "multiple missed share": "fraction",
             "paper single missed share": "fraction"}  # fmt: skip
    for frame, name in (
        (table, "lawson2002-slowdown-ratios.csv"),
        (batches, "lawson2002-transient.csv"),
        (res, "lawson2002-missed-reservations.csv"),
        (claimed, "claims.csv"),
    ):
        path = out / name
        with_units(frame, lambda c: units.get(c, "")).to_csv(path, index=False)
        tables.append(path)
    figures = []
    if len(table):
        figures.append(
            ("lawson2002-R-by-class", _ratio_figure(
                table, [s for s in ("trace load", "load x1.25", "load x1.5")
                        if (table["scenario"] == s).any()],
                "Slowdown ratio R, multiple against single queue (Figures 3 and 5)"))
        )  # fmt: skip
        prio = [
            s for s in ("75% high priority", "95% high priority") if (table["scenario"] == s).any()
        ]
        if prio:
            figures.append(("lawson2002-R-priorities", _ratio_figure(
                table, prio, "R with job priorities (Figures 6 and 8)")))  # fmt: skip
        res_s = [s for s in ("1% reservations", "5% reservations", "25% reservations")
                 if (table["scenario"] == s).any()]  # fmt: skip
        if res_s:
            figures.append(("lawson2002-R-reservations", _ratio_figure(
                table, res_s, "R with reservations (Figure 10)")))  # fmt: skip
    if len(batches):
        figures.append(("lawson2002-transient", _transient_figure(
            batches, "trace load", "R per 1000 submissions (Figure 4)")))  # fmt: skip
        if (batches["scenario"] == "75% high priority").any():
            figures.append(("lawson2002-transient-priorities", _transient_figure(
                batches, "75% high priority",
                "R per 1000 submissions, 75% high priority (Figure 7)")))  # fmt: skip
    if len(delays):
        figures.append(("lawson2002-reservation-delays", _delay_figure(delays)))
    plots += save_figures(figures, out)
    return tables, plots, claimed
