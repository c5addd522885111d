"""Lawson & Smirni 2002 (multiple-queue backfilling): the paper's measures of a study.

A study of ``multiqueue`` against ``singlequeue`` (`schedsim.policies.multiqueue`;
``papers/lawson2002/study.toml``) is reported as the paper reports it, section 3:

* the job slowdown s = 1 + d / v (Equation 2: d the delay, here the job
  table's ``wait``, which includes lost speculative attempts; v the actual
  service time, ``run``), averaged over the jobs, per class of estimated run
  time (Equation 1: short under 1000 s, medium under 10 000 s, long beyond:
  the classes of Figures 3-10, the same under both policies) and for all
  jobs; jobs of no service time (v = 0) have no slowdown and are left out;
  two other readings of Equation 2 (`MEASURES`: the slowdown of the average
  delay and service time, and a killed trial counted as service) give rows of
  their own, their scenarios named for them;
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
* the jobs that appear to crash (estimate over 1000 s, run under 180 s)
  beside the paper's Table 1: `crashed`;
* per run, the longest wait (days) and the jobs waiting over 7 days (whether a
  reading starves jobs): `starvation`;
* a table of the paper's claims, each with the paper's statement, what the
  runs give and whether it is reproduced (`claims`), computed from the
  tables above so that a change that breaks a reproduction shows.

A pair is the two runs of one trace and scenario that differ only by the
policy (the first replication of each, as the paper has one run each).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import numpy as np
import pandas as pd

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.app.report.study_results import StudyResults


__all__ = [
    "CLASSES",
    "MEASURES",
    "MULTI",
    "PAPER_TABLE_2",
    "SINGLE",
    "TRACE_NAMES",
    "Kept",
    "Ran",
    "aggregate",
    "crashed",
    "estimate_class",
    "pairs",
    "ratio",
    "reservations",
    "scenario",
    "slowdown",
    "starvation",
    "transient",
]


class Ran(Protocol):
    """What the analyses read of a finished run: a `Result`, or the `Kept` part of one."""

    @property
    def jobs(self) -> pd.DataFrame: ...

    @property
    def meta(self) -> dict[str, Any]: ...


class Kept(NamedTuple):
    """A finished run's job table and meta, all `pairs` keeps of its `Result` (its time
    series, pieces and policy tables would hold gigabytes over a whole study)."""

    jobs: pd.DataFrame
    meta: dict[str, Any]


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


#: Table 1 of the paper: trace -> (jobs, crashed, proportion): jobs estimated over
#: 1000 s that ran under 180 s.
PAPER_TABLE_1: dict[str, tuple[int, int, float]] = {
    "CTC": (79_302, 12_903, 0.16),
    "KTH": (28_487, 3000, 0.11),
    "SP2": (67_665, 15_974, 0.24),
}

#: The configuration columns of the policies' readings (both policies take them): the
#: speculative trial and how partitions lend processors.
TRIAL, GUARD = "params.trial", "params.guard"
#: A wait this long (s) counts toward the starvation line (7 days).
LONG_WAIT = 7 * 86400.0


#: The readings of Equation 2, s = 1 + d / v, "where d and v are respectively the
#: average delay time and actual service time of a job" (section 3), by the scenario
#: suffix their rows carry ("": the default). The text leaves open whether s is the
#: average of the jobs' slowdowns (default) or 1 plus the average delay over the average
#: service time (``"s of averages"``), and whether a speculative trial killed at its
#: limit is service the job got rather than delay (``"trial as service"``: v the run
#: plus the lost trial, d the wait less it).
MEASURES: tuple[str, ...] = ("", "s of averages", "trial as service")


def slowdown(jobs: pd.DataFrame, measure: str = "") -> float:
    """The average job slowdown 1 + d / v over the jobs with v > 0 (NaN if none), under
    one of the `MEASURES`."""
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {MEASURES}, got {measure!r}")
    run = jobs["run"].to_numpy(dtype=float)
    wait = jobs["wait"].to_numpy(dtype=float)
    if measure == "trial as service" and "lost_run" in jobs:
        lost = jobs["lost_run"].to_numpy(dtype=float)
        run, wait = run + lost, wait - lost
    keep = run > 0
    if not keep.any():
        return math.nan
    if measure == "s of averages":
        return 1.0 + float(np.mean(wait[keep])) / float(np.mean(run[keep]))
    return float(np.mean(1.0 + wait[keep] / run[keep]))


def _measured(scenario: str, measure: str) -> str:
    """A scenario's name under a measure of the slowdown (`MEASURES`)."""
    return f"{scenario}, {measure}" if measure else scenario


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
    """A run's scenario, as the paper names it: its load, priorities or reservations; then
    the readings that are not the defaults: ``"trial scheduled"`` and ``"trial
    reserved"`` (the speculative trial's slot fixed on submission, after the pivots or
    as a reservation's grant: ``params.trial``), ``"trial idle"`` (started on idle cores
    whatever the pivots), ``"guard own"``, ``"guard return"`` and ``"guard reassign"``
    (how partitions lend: ``params.guard``, `schedsim.policies.multiqueue`) and
    ``"512 nodes"`` (a machine other than the log's header: ``nodes``)."""
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
    if row.get(TRIAL) in ("idle", "scheduled", "reserved"):
        parts.append(f"trial {row[TRIAL]}")
    if row.get(GUARD) in ("own", "return", "reassign"):
        parts.append(f"guard {row[GUARD]}")
    nodes = row.get("nodes")
    if isinstance(nodes, (int, float)) and not pd.isna(nodes):
        parts.append(f"{nodes:g} nodes")
    return ", ".join(parts) or "trace load"


def pairs(results: StudyResults) -> list[tuple[dict[str, Any], Ran, Ran]]:
    """(the pair's configuration, single-queue result, multiple-queue result) for every
    trace and scenario that has both runs finished (first replication).

    A multiple-queue run under a lending guard pairs with the single queue under the same
    guard if the study ran it, else with the single queue under ``guard="all"``: with one
    partition nothing is lent, and every guard gives that schedule (a property test).
    Each run is read once (a single queue may pair with several guards)."""
    kept: dict[str, Kept] = {}

    def read(run_id: str) -> Kept:
        if run_id not in kept:
            full = results.result(run_id)
            kept[run_id] = Kept(full.jobs, full.meta)
        return kept[run_id]

    done = results.done
    done = done[(done["replication"] == 0) & done["policy"].isin([SINGLE, MULTI])]
    keys = [c for c in results.scenario_columns if c not in ("seed",) and c in done]
    keys += [k for k in (TRIAL, GUARD) if k in done]  # both policies take them: scenarios
    out: list[tuple[dict[str, Any], Ran, Ran]] = []
    groups: dict[tuple[str, ...], dict[str, dict[str, Any]]] = {}
    for record in done.to_dict("records"):
        key = tuple(repr(record[k]) for k in keys)
        groups.setdefault(key, {})[record["policy"]] = record
    for by in groups.values():
        if MULTI not in by:
            continue
        multi = by[MULTI]
        single = by.get(SINGLE)
        if single is None and GUARD in keys and multi[GUARD] != "all":
            same = tuple(repr("all" if k == GUARD else multi[k]) for k in keys)
            single = groups.get(same, {}).get(SINGLE)
        if single is None:
            continue
        config = {k: multi[k] for k in keys}
        config["trace"] = TRACE_NAMES.get(str(multi["workload"]), str(multi["workload"]))
        config["scenario"] = scenario(config)
        out.append((config, read(single["id"]), read(multi["id"])))
    return out


def aggregate(pairs_: Sequence[tuple[dict[str, Any], Ran, Ran]], measure: str = "") -> pd.DataFrame:
    """s1, sm and R per trace, scenario, class and priority (Figures 3, 5, 6, 8, 10); under
    another measure of the slowdown (`MEASURES`) the scenarios carry its name."""
    rows = []
    for config, single, multi in pairs_:
        one, many = _groups(single.jobs), _groups(multi.jobs)
        for (cls, prio), jobs in one.items():
            s1, sm = slowdown(jobs, measure), slowdown(many[(cls, prio)], measure)
            rows.append(
                {
                    "trace": config["trace"],
                    "scenario": _measured(config["scenario"], measure),
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
    pairs_: Sequence[tuple[dict[str, Any], Ran, Ran]],
    batch: int = 1000,
    measure: str = "",
) -> pd.DataFrame:
    """R per batch of ``batch`` submissions, in submit order (Figures 4, 7, 9), for all
    jobs and, with priorities, per priority. ``day`` is the batch's first submission,
    in days since the run's start; ``measure`` as `aggregate`'s."""
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
                s1, sm = slowdown(x, measure), slowdown(y, measure)
                rows.append(
                    {
                        "trace": config["trace"],
                        "scenario": _measured(config["scenario"], measure),
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
    pairs_: Sequence[tuple[dict[str, Any], Ran, Ran]],
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Missed reservations per trace and share beside the paper's Table 2, and every
    reservation's delay (granted - requested, s) for Figure 11. The counts (``single
    missed``...) come with the share of the requested reservations they make
    (``single missed share``...: fractions, 0-1)."""
    rows: list[dict[str, Any]] = []
    delays: list[dict[str, Any]] = []
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
                {"trace": config["trace"], "scenario": config["scenario"], "share": share,
                 "policy": name, "delay": d}
                for d in delay.tolist()
            )  # fmt: skip
        paper = PAPER_TABLE_2.get(config["trace"], {}).get(round(float(share), 2))
        rows.append(
            {
                "trace": config["trace"],
                "scenario": config["scenario"],
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


def starvation(
    pairs_: Sequence[tuple[dict[str, Any], Ran, Ran]],
) -> pd.DataFrame:
    """Per trace, scenario and policy: the longest wait (days) and the number of jobs that
    waited over 7 days (`LONG_WAIT`): whether a reading lets jobs starve."""
    rows = []
    for config, single, multi in pairs_:
        for name, result in ((SINGLE, single), (MULTI, multi)):
            wait = result.jobs["wait"].to_numpy(dtype=float)
            rows.append({"trace": config["trace"], "scenario": config["scenario"],
                         "policy": name,
                         "longest wait": float(wait.max()) / 86400.0 if len(wait) else math.nan,
                         "waits over 7 days": int((wait > LONG_WAIT).sum())})  # fmt: skip
    return pd.DataFrame(rows, columns=["trace", "scenario", "policy", "longest wait",
                                       "waits over 7 days"])  # fmt: skip


def crashed(
    pairs_: Sequence[tuple[dict[str, Any], Ran, Ran]],
) -> pd.DataFrame:
    """Table 1: per trace (the single-queue run of the trace's own load), the jobs, those
    that appear to crash (estimate over 1000 s, actual run time under 180 s) and their
    proportion (a fraction), beside the paper's."""
    rows = []
    for config, single, _ in pairs_:
        if config["scenario"] != "trace load":
            continue
        jobs = single.jobs
        est, run = jobs["estimate"].to_numpy(dtype=float), jobs["run"].to_numpy(dtype=float)
        n, hit = len(jobs), int(((est > 1000.0) & (run < 180.0)).sum())
        paper = PAPER_TABLE_1.get(config["trace"])
        rows.append({"trace": config["trace"], "jobs": n, "crashed": hit,
                     "proportion": hit / n if n else math.nan,
                     "paper jobs": paper[0] if paper else math.nan,
                     "paper crashed": paper[1] if paper else math.nan,
                     "paper proportion": paper[2] if paper else math.nan})  # fmt: skip
    return pd.DataFrame(rows, columns=["trace", "jobs", "crashed", "proportion", "paper jobs",
                                       "paper crashed", "paper proportion"])  # fmt: skip
