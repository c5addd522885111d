"""Lawson & Smirni 2002: the paper's claims, each with what the runs give and a verdict.

What is measured is `schedsim.papers.lawson2002.analyses`' (its docstring gives the
choices). `CLAIMS` is the data: each claim (`schedsim.app.claims.Claim`, scored by the
one verdict rule, `schedsim.app.claims.RULE`) with the values it reads, one per trace
(or trace and priority, class, load, share of reservations) from the `aggregate`,
`transient`, `reservations` and `crashed` tables, and the rule each value is checked
by. The paper gives its ratios only as bar charts, so its claims are in words ("better",
"a majority of the batches", "comparable", "roughly the same number"): each is read as
a number written in the claim (`BETTER`: R >= 0.10, "marked improvement"), fixed from
the paper's words. Table 1 and Table 2 give numbers: the shares of crashed jobs and of
missed reservations are checked against them (`level`). Every trace is one
deterministic run per policy: no interval.

`READINGS` are the open choices the study runs (the speculative trial's slot, how
partitions lend processors, CTC's machine); `claims` scores one, `readings` all of them
(`schedsim.app.claims.readings_table`). A claim is scored under a reading other than
the default only where every trace ran under it; else it is not checked under that
reading (under the default, on the cases that ran).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from schedsim.app.claims import (
    ALL,
    Case,
    Claim,
    ClaimResult,
    Need,
    Rule,
    at_least,
    at_most,
    between,
    claims_table,
    level,
)

__all__ = ["CLAIMS", "READINGS", "LawsonClaim", "Reading", "Tables", "claims", "readings"]

BASE = "trace load"
LOADS = ("load x1.25", "load x1.5")

#: "Better" (R > 0 in the paper's words: "better job slowdown", "marked improvement",
#: section 3.1; "consistently outperforms", the abstract; "prominent performance gains",
#: section 4): read as R >= 0.10, a single-queue slowdown at least 10% above the
#: multiple-queue one (the paper's bars are tens of percent); direction only: R > 0.
BETTER = at_least(0.10, way=0.0)
#: "Loses" (Figure 3(d): "with the exception of the long job class in the two SDSC
#: workloads"): R <= 0.
LOSES = at_most(0.0, way=0.0)
#: "A majority of the batches" (Figures 4, 7, 9): a share of the batches with R > 0 of
#: more than half.
MAJORITY = between(0.5, 1.0)
#: "Comparable" and "roughly the same" (Figure 10 at 25%; Table 2): within 25% of each
#: other, the verdict rule's own tolerance (|R| <= 0.25; a relative gap <= 0.25). The
#: paper's own Table 2 calls gaps up to 25% "roughly the same" (KTH 1%: 9 and 12).
SAME = between(-0.25, 0.25)
#: "At least as well" (section 4, reservations): multiple queues miss at most 25% more
#: reservations than a single queue, relative to the larger count (as Table 2's own
#: KTH 1%: 12 against 9).
AS_WELL = at_most(0.25, way=0.25)
#: "Much smaller" (section 3.2: the long class's decline against the other classes'
#: improvement): at most half of it; direction only: smaller.
MUCH_SMALLER = at_most(0.5, way=1.0)
#: "Larger" or "more" (Figure 8 against 6; low against high priority): a positive
#: difference.
MORE = at_least(0.0, way=0.0)


@dataclass(frozen=True)
class Reading:
    """An open choice the study runs: ``name`` (its column in the readings table) and
    the scenario suffix of its runs (`schedsim.papers.lawson2002.analyses.scenario`:
    ``"trial reserved"``, ``"guard return"``...); ``ctc``: CTC's own suffix where the
    reading is CTC's machine (the other traces then read ``suffix``); ``measure``: the
    reading of Equation 2's slowdown (`schedsim.papers.lawson2002.analyses.MEASURES`),
    which names the slowdown ratios' rows but not the reservations' (a count of missed
    reservations is the same under every measure)."""

    name: str
    suffix: str = ""
    ctc: str | None = None
    measure: str = ""

    def scenario(self, base: str, trace: str, measured: bool = True) -> str:
        """The scenario that holds ``base`` (``"trace load"``, ``"load x1.25"``...) of
        ``trace`` under this reading (``measured``: as the slowdown ratios name it)."""
        suffix = self.ctc if self.ctc is not None and trace == "CTC" else self.suffix
        name = base if not suffix else suffix if base == BASE else f"{base}, {suffix}"
        return f"{name}, {self.measure}" if measured and self.measure else name


DEFAULT = Reading("default")
#: The readings the study runs (`study.toml`), the default first. "default", "trial
#: idle" and "trial reserved" run every scenario; the others the trace's own load.
READINGS: tuple[Reading, ...] = (
    DEFAULT,
    Reading("trial idle", "trial idle"),
    Reading("trial scheduled", "trial scheduled"),
    Reading("trial reserved", "trial reserved"),
    Reading("guard own", "guard own"),
    Reading("guard return", "guard return"),
    Reading("guard return, trial reserved", "trial reserved, guard return"),
    Reading("guard return, trial idle", "trial idle, guard return"),
    Reading("guard reassign", "guard reassign"),
    Reading("guard reassign, trial idle", "trial idle, guard reassign"),
    Reading("CTC 430 nodes", "", ctc="430 nodes"),
    Reading("CTC 512 nodes", "", ctc="512 nodes"),
    Reading("CTC 512 nodes, trial reserved", "trial reserved", ctc="trial reserved, 512 nodes"),
    # Equation 2's other readings (the report's measures, no runs of their own):
    Reading("s of averages", measure="s of averages"),
    Reading("trial as service", measure="trial as service"),
    Reading("trial idle, s of averages", "trial idle", measure="s of averages"),
    Reading("trial idle, trial as service", "trial idle", measure="trial as service"),
    Reading(
        "guard return, trial idle, trial as service",
        "trial idle, guard return",
        measure="trial as service",
    ),
)


@dataclass(frozen=True)
class Tables:
    """What the claims read: the `aggregate`, `transient`, `reservations`, reservation
    delays and `crashed` tables, under one reading."""

    table: pd.DataFrame
    batches: pd.DataFrame
    res: pd.DataFrame
    delays: pd.DataFrame = field(default_factory=pd.DataFrame)
    crashed: pd.DataFrame = field(default_factory=pd.DataFrame)
    reading: Reading = DEFAULT

    @property
    def traces(self) -> list[str]:
        return sorted(set(self.table["trace"])) if len(self.table) else []

    def cell(self, trace: str, base: str, cls: str = "all", prio: str = "all") -> float:
        """R of one trace, scenario (under the reading), class and priority; NaN when
        not run."""
        t, scen = self.table, self.reading.scenario(base, trace)
        hit = t[(t["trace"] == trace) & (t["scenario"] == scen) & (t["class"] == cls)
                & (t["priority"] == prio)]  # fmt: skip
        return float(hit["R"].iloc[0]) if len(hit) else math.nan

    def per_trace(self, base: str, cls: str = "all") -> dict[str, float]:
        return {t: self.cell(t, base, cls) for t in self.traces}

    def batch_share(self, trace: str, base: str, prio: str = "all") -> float:
        """The share of the batches of 1000 submissions with R > 0 (NaN: none)."""
        b, scen = self.batches, self.reading.scenario(base, trace)
        if not len(b):
            return math.nan
        b = b[(b["trace"] == trace) & (b["scenario"] == scen) & (b["priority"] == prio)]
        b = b[b["R"].notna()]
        return float((b["R"] > 0).mean()) if len(b) else math.nan


Values = Callable[[Tables], dict[str, float]]


@dataclass(frozen=True)
class LawsonClaim:
    """A claim, the values it reads (case name -> R, a share...), the rule of a case
    (``rule(name)``) and how ours is shown."""

    claim: Claim
    values: Values
    rule: Callable[[Tables, str], Rule]
    fmt: str = "{:+.2f}"


def _one(rule: Rule) -> Callable[[Tables, str], Rule]:
    return lambda tables, name: rule


def _per_trace(base: str) -> Values:
    """R of all jobs per trace in scenario ``base``."""
    return lambda t: t.per_trace(base)


def _priorities(base: str) -> Values:
    return lambda t: {f"{tr} {p}": t.cell(tr, base, "all", p) for tr in t.traces
                      for p in ("high", "low")}  # fmt: skip


def _classes(bases: tuple[str, ...], classes: tuple[str, ...] = ("short", "medium")) -> Values:
    def values(t: Tables) -> dict[str, float]:
        return {f"{tr} {b} {c}": t.cell(tr, b, c) for b in bases for tr in t.traces
                for c in classes}  # fmt: skip

    return values


def _low_gains_more(t: Tables) -> dict[str, float]:
    """R(low) - R(high) per trace and share of high-priority jobs."""
    return {f"{tr} {share}%": t.cell(tr, f"{share}% high priority", "all", "low")
            - t.cell(tr, f"{share}% high priority", "all", "high")
            for tr in t.traces for share in (75, 95)}  # fmt: skip


def _larger_at_95(t: Tables) -> dict[str, float]:
    """R(95% high priority) - R(75%), all jobs, per trace."""
    return {tr: t.cell(tr, "95% high priority") - t.cell(tr, "75% high priority")
            for tr in t.traces}  # fmt: skip


def _decline_against_gain(t: Tables) -> dict[str, float]:
    """Where long jobs lose (R < 0), at each load: |R(long)| over the larger of R(short)
    and R(medium) (inf when neither gains)."""
    out = {}
    for base in (BASE, *LOADS):
        for tr in t.traces:
            long_ = t.cell(tr, base, "long")
            gain = max(t.cell(tr, base, "short"), t.cell(tr, base, "medium"))
            if math.isnan(long_) or math.isnan(gain):
                out[f"{tr} {base}"] = math.nan
            elif long_ < 0:
                out[f"{tr} {base}"] = -long_ / gain if gain > 0 else math.inf
    return out


def _batches(base: str, prios: tuple[str, ...] = ("all",)) -> Values:
    return lambda t: {f"{tr}{'' if p == 'all' else ' ' + p}": t.batch_share(tr, base, p)
                      for tr in t.traces for p in prios}  # fmt: skip


def _res_rows(t: Tables) -> dict[str, dict | None]:
    """Table 2's cases ("CTC 1%"...), each trace and share the study ran, with its row
    under the reading (None: not run under it)."""
    if not len(t.res):
        return {}
    rows = t.res.to_dict("records")
    out: dict[str, dict | None] = {}
    for r in rows:
        out.setdefault(f"{r['trace']} {100 * r['share']:g}%", None)
    for r in rows:
        scen = t.reading.scenario(f"{100 * r['share']:g}% reservations", r["trace"], False)
        if "scenario" not in r or r["scenario"] == scen:  # (no scenarios: one reading)
            out[f"{r['trace']} {100 * r['share']:g}%"] = r
    return out


def _missed(t: Tables) -> dict[str, float]:
    """(multiple - single) / the larger, per trace and share of reservations."""
    out = {}
    for name, row in _res_rows(t).items():
        if row is None:
            out[name] = math.nan
            continue
        a, b = row["single missed"], row["multiple missed"]
        out[name] = (b - a) / max(a, b) if a + b else 0.0
    return out


def _missed_share(t: Tables) -> dict[str, float]:
    """The single queue's share of the requested reservations missed (Table 2's cases)."""
    return {name: math.nan if row is None else row["single missed share"]
            for name, row in _res_rows(t).items()
            if row is None or ("single missed share" in row
                               and not pd.isna(row.get("paper single missed share")))}  # fmt: skip


def _paper_missed_share(t: Tables, name: str) -> Rule:
    """Table 2's share of the reservations the single queue missed, for ``name``."""
    trace, share = name.split()
    res = t.res
    hit = res[(res["trace"] == trace) & np.isclose(100 * res["share"], float(share.rstrip("%")))]
    hit = hit[hit["paper single missed share"].notna()]
    return level(float(hit["paper single missed share"].iloc[0]))


def _delay_tails(t: Tables) -> dict[str, float]:
    """Figure 11 (25% reservations): the multiple queues' 95th percentile of the
    reservation delays over the single queue's, per trace (1 when both are 0)."""
    d = t.delays
    out: dict[str, float] = {}
    if not len(d):
        return out
    for tr in t.traces:
        scen = t.reading.scenario("25% reservations", tr, False)
        mine = d[(d["trace"] == tr) & np.isclose(d["share"], 0.25)]
        if "scenario" in d:
            mine = mine[mine["scenario"] == scen]
        if not len(mine):
            out[tr] = math.nan  # (not run under the reading)
            continue
        one = float(np.percentile(mine.loc[mine["policy"] == "singlequeue", "delay"], 95))
        many = float(np.percentile(mine.loc[mine["policy"] == "multiqueue", "delay"], 95))
        out[tr] = 1.0 if one == many == 0 else (many / one if one else math.inf)
    return out


def _crashed(t: Tables) -> dict[str, float]:
    """Table 1: the share of the jobs that appear to crash, per trace the paper lists."""
    c = t.crashed
    if not len(c) or t.reading != DEFAULT:  # (the trace's own jobs: the same every reading)
        return {}
    return {r["trace"]: r["proportion"] for r in c.to_dict("records")
            if not pd.isna(r["paper proportion"])}  # fmt: skip


def _paper_crashed(t: Tables, name: str) -> Rule:
    """Table 1's proportion of crashed jobs of trace ``name``."""
    return level(float(t.crashed[t.crashed["trace"] == name]["paper proportion"].iloc[0]))


def _claim(key: str, where: str, paper: str, rule: str, tally: Need = ALL,
           headline: bool = False, unit: str = "ratio") -> Claim:  # fmt: skip
    return Claim(key, where, paper, unit, rule=rule, tally=tally, headline=headline)


_FOUR = "R > 0 on all four traces"
_BETTER_WHY = (f"{BETTER.text} ('better', 'marked improvement': a slowdown at least 10% "
               "lower), on every trace")  # fmt: skip


def _long_rule(tables: Tables, name: str) -> Rule:
    return BETTER if name in ("CTC", "KTH") else LOSES


#: The paper's claims, in its order; headline: the abstract's and section 4's.
CLAIMS: tuple[LawsonClaim, ...] = (
    LawsonClaim(_claim("multiple queues give a better slowdown than a single queue, all jobs",
                       "Figure 3(a); abstract, section 4", _FOUR + " ('consistently outperforms')",
                       _BETTER_WHY, headline=True),
                lambda t: t.per_trace(BASE), _one(BETTER)),
    LawsonClaim(_claim("... and for the short jobs", "Figure 3(b)", _FOUR, _BETTER_WHY),
                lambda t: t.per_trace(BASE, "short"), _one(BETTER)),
    LawsonClaim(_claim("... and for the medium jobs", "Figure 3(c)", _FOUR, _BETTER_WHY),
                lambda t: t.per_trace(BASE, "medium"), _one(BETTER)),
    LawsonClaim(_claim("long jobs gain on CTC and KTH, lose on the two SDSC traces",
                       "Figure 3(d)", "R > 0 on CTC and KTH, R < 0 on PAR and SP2",
                       f"CTC, KTH: {BETTER.text}; PAR, SP2: {LOSES.text}"),
                lambda t: t.per_trace(BASE, "long"), _long_rule),
    LawsonClaim(_claim("R > 0 for a majority of the batches of 1000 submissions", "Figure 4",
                       "a majority of the batches on every trace",
                       f"the share of the batches with R > 0 {MAJORITY.text}, every trace",
                       unit="fraction"),
                _batches(BASE), _one(MAJORITY), "{:.2f}"),
    *(LawsonClaim(_claim(f"multiple queues better under heavier load ({load}), all jobs",
                         "Figure 5(a); section 4", _FOUR + " ('even under heavy load')",
                         _BETTER_WHY, headline=True),
                  _per_trace(load), _one(BETTER))
      for load in LOADS),
    LawsonClaim(_claim("... and for the short and medium jobs under heavier load",
                       "Figure 5(b), (c)", "R > 0 for both classes, both loads, all four traces",
                       _BETTER_WHY.replace("every trace", "every trace, class and load")),
                _classes(LOADS), _one(BETTER)),
    LawsonClaim(_claim("the long jobs' decline is generally much smaller than the other "
                       "classes' gain", "section 3.2, Figure 5(d)",
                       "|R(long)| much smaller than R(short), R(medium) where long jobs lose",
                       f"|R(long)| / max(R(short), R(medium)) {MUCH_SMALLER.text} ('much "
                       "smaller': at most half), most cases ('generally')", tally=Need("most")),
                _decline_against_gain, _one(MUCH_SMALLER)),
    *(LawsonClaim(_claim(f"better with {share}% high-priority jobs, for high and for low "
                         "priority jobs", f"Figure {fig}(a); section 4",
                         "R > 0 for both priorities on all four traces ('prominent gains')",
                         _BETTER_WHY.replace("every trace", "every trace and priority"),
                         headline=True),
                  _priorities(f"{share}% high priority"), _one(BETTER))
      for share, fig in ((75, "6"), (95, "8"))),
    LawsonClaim(_claim("with priorities, short and medium jobs tend to gain too",
                       "Figures 6(b), (c), 8(b), (c)",
                       "R > 0 for short and medium jobs ('tends to perform better')",
                       f"{BETTER.text}, most cases ('tends to')", tally=Need("most")),
                _classes(("75% high priority", "95% high priority")), _one(BETTER)),
    *(LawsonClaim(_claim(f"R > 0 for a majority of the batches, {share}% high priority, "
                         "each priority", f"Figure {fig}",
                         "a majority of the batches, every trace and priority",
                         f"the share of the batches with R > 0 {MAJORITY.text}",
                         unit="fraction"),
                  _batches(f"{share}% high priority", ("high", "low")), _one(MAJORITY), "{:.2f}")
      for share, fig in ((75, "7"), (95, "9"))),
    LawsonClaim(_claim("larger gains with 95% than with 75% high-priority jobs", "Figure 8",
                       "R(95%) > R(75%), all jobs ('even larger performance gains')",
                       f"R(95%) - R(75%) {MORE.text}, every trace"),
                _larger_at_95, _one(MORE)),
    LawsonClaim(_claim("low-priority jobs often gain more than high-priority ones", "section 3.3",
                       "often R(low) > R(high)",
                       f"R(low) - R(high) {MORE.text}, in at least 4 of the 8 cases ('often': "
                       "half)", tally=Need(4)),
                _low_gains_more, _one(MORE)),
    *(LawsonClaim(_claim(f"better with {share}% of the jobs requesting reservations",
                         "Figure 10", _FOUR, _BETTER_WHY),
                  _per_trace(f"{share}% reservations"), _one(BETTER))
      for share in (1, 5)),
    LawsonClaim(_claim("comparable slowdowns with 25% reservations", "Figure 10",
                       "R near 0 ('comparable')",
                       f"R {SAME.text} (within 25% of each other), every trace"),
                lambda t: t.per_trace("25% reservations"), _one(SAME)),
    LawsonClaim(_claim("single and multiple queues miss roughly as many reservations", "Table 2",
                       "roughly the same number (CTC 0.25: 1396 against 1441)",
                       f"(multiple - single) / the larger {SAME.text}, every trace and share",
                       unit="fraction"),
                _missed, _one(SAME)),
    LawsonClaim(_claim("multiple queues perform at least as well when reservations are "
                       "considered (missed reservations)", "section 3.4; section 4",
                       "multiple queues miss no more reservations ('at least as well')",
                       f"(multiple - single) / the larger {AS_WELL.text}, every trace and share",
                       headline=True, unit="fraction"),
                _missed, _one(AS_WELL)),
    LawsonClaim(_claim("the share of the reservations missed (single queue)", "Table 2",
                       "CTC 0.025, 0.023, 0.070; KTH 0.033, 0.032, 0.079; PAR 0.013, 0.004, "
                       "0.014; SP2 0.083, 0.088, 0.239 (1%, 5%, 25%)",
                       "the paper's share within 25%, every trace and share", unit="fraction"),
                _missed_share, _paper_missed_share, "{:.3f}"),
    LawsonClaim(_claim("roughly the same distribution of reservation delays", "Figure 11",
                       "the tails of the delays alike, 25% reservations",
                       f"95th percentile of the delays, multiple over single, "
                       f"{between(0.8, 1.25).text} (within 25%), every trace"),
                _delay_tails, _one(between(0.8, 1.25))),
    LawsonClaim(_claim("a large share of the jobs appear to crash", "Table 1",
                       "CTC 0.16, KTH 0.11, SP2 0.24 (estimate > 1000 s, run < 180 s)",
                       "the paper's proportion within 25%, every trace it lists",
                       unit="fraction"),
                _crashed, _paper_crashed, "{:.3f}"),
)  # fmt: skip


def _result(c: LawsonClaim, tables: Tables) -> ClaimResult:
    """The claim's cases under ``tables``' reading: one per value, each checked by its
    rule; none (not checked) when some value did not run under the reading."""
    values = c.values(tables)
    if tables.reading == DEFAULT:  # the cases that ran
        values = {k: v for k, v in values.items() if not math.isnan(v)}
    if not values or any(math.isnan(v) for v in values.values()):
        where = "under this reading" if tables.reading != DEFAULT else "in this study"
        return ClaimResult(c.claim, [], note=f"not run {where}")
    cases: list[Case] = [c.rule(tables, name).case(name, v, shown=c.fmt.format(v))
                         for name, v in values.items()]  # fmt: skip
    return ClaimResult(c.claim, cases)


def results(
    table: pd.DataFrame,
    batches: pd.DataFrame,
    res: pd.DataFrame,
    delays: pd.DataFrame | None = None,
    crashed: pd.DataFrame | None = None,
    reading: Reading = DEFAULT,
) -> list[ClaimResult]:
    """Every claim's result under ``reading``."""
    tables = Tables(table, batches, res, pd.DataFrame() if delays is None else delays,
                    pd.DataFrame() if crashed is None else crashed, reading)  # fmt: skip
    return [_result(c, tables) for c in CLAIMS]


def claims(
    table: pd.DataFrame,
    batches: pd.DataFrame,
    res: pd.DataFrame,
    delays: pd.DataFrame | None = None,
    crashed: pd.DataFrame | None = None,
    reading: Reading = DEFAULT,
) -> pd.DataFrame:
    """The paper's claims table under ``reading`` (the default: the text's), from the
    `aggregate`, `transient`, `reservations` (and its delays) and `crashed` tables."""
    return claims_table(results(table, batches, res, delays, crashed, reading), rule=True)


def readings(
    table: pd.DataFrame,
    batches: pd.DataFrame,
    res: pd.DataFrame,
    delays: pd.DataFrame | None = None,
    crashed: pd.DataFrame | None = None,
) -> dict[str, list[ClaimResult]]:
    """Every reading's results (`READINGS`), for `schedsim.app.claims.readings_table`."""
    return {r.name: results(table, batches, res, delays, crashed, r) for r in READINGS}
