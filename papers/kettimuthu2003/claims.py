"""Kettimuthu 2003 (selective suspension): the thesis's claims, computed from a study.

What a study of the thesis's schemes (papers/kettimuthu2003/study.toml: runs labelled
``NS``, ``SS sf=1.5``, ``SS sf=2``, ``SS sf=5``, ``TSS`` and ``IS``) is
checked against: every quantitative or directional statement chapters 2-4
make about their results (Tables 2.2, 2.3 and 4.2, Figures 3.1-3.6 and
4.1-4.13 and the text around them), one row of ``claims.csv`` each, with
the thesis's statement, what the runs give, how many of the statement's
cases hold and a status.

The runs. A run's *scenario* is read from its configuration: accurate
estimates (``exact_estimates``, chapter 3, Figures 3.1-3.6), the trace's own
estimates (chapter 4, Figures 4.1-4.6; jobs split into well and poorly
estimated, estimate at most / more than twice the run time), suspension
overhead (``overhead`` set, trace estimates: Figures 4.7-4.8) and the load
series (trace estimates, no overhead, every ``load_factor``: Figures
4.9-4.13). The *normal load* of a scenario is its lowest load factor (0.8
in the shipped study, whose 0.88-1.28 are the thesis's 1.1-1.6). "SS" is
SS at SF 2, the thesis's choice for its figures from 3.3 on (and the only
SF of the load study); "TSS" is TSS at SF 2. NS's job mix, slowdowns and
utilization (chapter 2) are read from NS with accurate estimates, the
baseline of chapter 3 (Table 2.3's VS VW slowdown, 34, is the "34 for the
NS scheme" of section 3.4); the
utilization, which the thesis gives "under normal load" without saying
which estimates, from both NS runs at normal load. Per-category values are
`StudyResults.category_summary`'s (the 16 categories of Table 2.1, the 4 of
Table 4.1), overall ones `StudyResults.aggregate`'s, averaged over
replications.

Words made numbers (choices; the thesis gives no rule). With r a scheme's
value over another's (a slowdown, a turnaround time, a utilization):

* **significantly / much** better: r <= 1 / `SIGNIFICANT` (at least 20%
  lower); significantly / much worse, "very high": r >= `SIGNIFICANT`
  (1.25, the same factor the other way);
* **slightly** better: 1 / `SIGNIFICANT` < r < 1; slightly worse:
  1 < r < `SIGNIFICANT` (a change, but not a significant one);
* **comparable**: within a factor `COMPARABLE` (1.1) either way;
  "better or comparable", "without affecting", "without adversely
  affecting": r <= `COMPARABLE`; "does not significantly affect":
  1 / `SIGNIFICANT` < r < `SIGNIFICANT`;
* better / worse, improves, "trends similar" (the same direction of change
  against NS: r < 1 in both or in neither): no margin;
* a value of the thesis is matched within `SLOWDOWN_FACTOR` (1.25) either
  way, a share of the jobs within `MIX_TOLERANCE` percentage points (3) and
  the utilization (a fraction) within `UTILIZATION_TOLERANCE` (0.02): the tolerances
  of `schedsim.papers.kettimuthu2003.subset`, which chose the subset;
* "at higher loads": the load factors above the median of the study's.

Table 2.2 is read transposed (rows processors, columns run time): as
printed it contradicts Table 4.2, which describes the same jobs, and
transposed it sums to Table 4.2 exactly (kettimuthu2003_subset's docstring
gives the argument). Table 2.3 is read as printed.

Holds and status. A claim is checked on *cases* (a category, a metric, a
load factor...; the ``where`` and ``paper`` columns say which) and needs
all of them, most (more than half) or some (one) as the thesis's words say
("for the VS categories": all; "for most of the categories": most; "for
some short categories": some). ``holds`` is "k of n" cases; cases
whose runs or jobs are missing are left out. The status is

* ``reproduced``: at least the cases needed hold;
* ``partly``: fewer, but at least half as many as needed;
* ``not reproduced``: fewer than that (for a claim on one case: it fails).

(The wording of the other reports and of ``schedsim report``'s console
table, which colours the three.) A claim none of whose runs the study has
is left out.

Readings. A study may also hold other readings of the thesis's SS and TSS,
runs labelled ``SS sf=2`` or ``TSS`` followed by a space and a name (``SS
sf=2 resume=start``, ``TSS averages=running``). Each such name is a
*reading*: the claims on SS at SF 2 or on TSS are scored again with that
reading's runs, in a column group ``schedsim [NAME]``, ``holds [NAME]``,
``status [NAME]`` of ``claims.csv`` (left empty for the claims on neither;
``not run`` where the reading lacks a run the claim needs). A reading's SS
is ``SS sf=2 NAME`` and its TSS ``TSS NAME``; a reading with a TSS but no
SS of its own sets its TSS against the default SS (a change to TSS alone),
and the trends in SF need ``SS sf=1.5 NAME`` and ``SS sf=5 NAME``. A study
without such runs has the default columns only. ``kettimuthu2003-summary.csv``
counts the statuses per reading, over the claims on SS or TSS and over all
claims (a reading's claims on neither count with the default's status; claims
``not run`` are not counted).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from schedsim.app.report.formats import significant
from schedsim.model.categories import CATEGORIES, CATEGORIES4
from schedsim.papers.kettimuthu2003.readings import DEFAULT, IS, NS, Reading, readings
from schedsim.papers.kettimuthu2003.thesis import (
    MIX_TOLERANCE,
    SLOWDOWN_FACTOR,
    THESIS_MIX,
    THESIS_MIX4,
    THESIS_OVERALL_SLOWDOWN,
    THESIS_SLOWDOWN,
    THESIS_UTILIZATION,
    UTILIZATION_TOLERANCE,
)
from schedsim.papers.kettimuthu2003.values import (
    AVERAGES,
    MAX_SLD,
    MAX_TAT,
    MEAN_SLD,
    MEAN_TAT,
    SHORT_NAMES,
    WORST,
    _View,
)

__all__ = [
    "COLUMNS",
    "COMP",
    "COMPARABLE",
    "NOT_W",
    "OTHER_THAN_VS",
    "READS",
    "SHORT_WIDE",
    "SIG",
    "SIGNIFICANT",
    "SIG_WORSE",
    "SLIGHT_B",
    "SLIGHT_W",
    "STATUSES",
    "S_",
    "TSS_BETTER",
    "VL",
    "VS",
    "WIDE",
    "Claim",
    "L",
    "Outcome",
    "Scorer",
    "better",
    "claims",
    "comparable",
    "much_better",
    "much_worse",
    "not_significant",
    "not_worse",
    "slightly_better",
    "slightly_worse",
    "status",
]


#: A factor: at least this much better or worse is "significant" ("much"); less is "slight".
SIGNIFICANT = 1.25
#: A factor: within this either way is "comparable"; at most this worse is "not affected".
COMPARABLE = 1.10
#: The statuses, best first.
STATUSES: tuple[str, ...] = ("reproduced", "partly", "not reproduced")

VS, S_, L, VL = (tuple(f"{r} {s}" for s in ("Seq", "N", "W", "VW")) for r in ("VS", "S", "L", "VL"))
WIDE = tuple(c for c in CATEGORIES if c.split()[1] in ("W", "VW"))
SHORT_WIDE = ("VS W", "VS VW", "S W", "S VW")


@dataclass
class Outcome:
    """The cases of one claim under one reading: (name, value as text, holds)."""

    cases: list[tuple[str, str, bool]]
    need: str  # "all", "most" or "some"
    note: str = ""

    @property
    def hits(self) -> int:
        return sum(ok for _, _, ok in self.cases)

    def needed(self) -> int:
        n = len(self.cases)
        return {"all": n, "most": n // 2 + 1, "some": 1}[self.need] if n else 0

    def text(self, shown: int = 8) -> str:
        """What the runs give: every case (up to ``shown``), else the failing ones."""
        parts = [self.note] if self.note else []
        if len(self.cases) <= shown:
            parts.append(", ".join(f"{n} {v}" for n, v, _ in self.cases))
        else:
            fails = [f"{n} {v}" for n, v, ok in self.cases if not ok]
            if fails:
                more = f" and {len(fails) - 6} more" if len(fails) > 6 else ""
                parts.append("fails: " + ", ".join(fails[:6]) + more)
            else:
                parts.append("every case holds")
        return "; ".join(p for p in parts if p)


def status(hits: int, total: int, need: int) -> str:
    """The status of a claim: ``reproduced`` when ``need`` of its ``total`` cases hold,
    ``partly`` when at least half as many, else ``not reproduced`` (module docstring).
    ``not run`` without cases."""
    if total == 0:
        return "not run"
    if hits >= need:
        return "reproduced"
    return "partly" if hits > 0 and 2 * hits >= need else "not reproduced"


def _pct(r: float) -> str:
    return f"{100.0 * (r - 1.0):+.0f}%"


def _num(column: str, value: float) -> str:
    if column.endswith("turnaround"):
        return f"{value:,.0f} s"
    return significant(value)


def _ratios(a: pd.Series | None, b: pd.Series | None, cats: Sequence[str]) -> dict[str, float]:
    """a / b per category of ``cats`` where both have a value (and b is not 0)."""
    if a is None or b is None:
        return {}
    out = {}
    for c in cats:
        x, y = float(a.get(c, math.nan)), float(b.get(c, math.nan))
        if math.isfinite(x) and math.isfinite(y) and y > 0:
            out[c] = x / y
    return out


Scorer = Callable[["_View", Reading], "Outcome | None"]


def _versus(
    a: Callable[[Reading], str | None],
    b: Callable[[Reading], str | None],
    scenario: str | float,
    cats: Sequence[str],
    columns: Sequence[str],
    test: Callable[[float], bool],
    need: str = "all",
    estimate: str = "all",
) -> Scorer:
    """A scorer: per category and column, r = a / b (labels picked from the reading)
    under ``scenario``, a case holding when ``test(r)``."""

    def score(v: _View, r: Reading) -> Outcome | None:
        la, lb = a(r), b(r)
        cases = []
        for col in columns:
            got = _ratios(v.cat(la, scenario, col, estimate=estimate),
                          v.cat(lb, scenario, col, estimate=estimate), cats)  # fmt: skip
            suffix = f" {SHORT_NAMES[col]}" if len(columns) > 1 else ""
            cases += [(f"{c}{suffix}", _pct(x), test(x)) for c, x in got.items()]
        return Outcome(cases, need) if cases else None

    return score


def _ns(r: Reading) -> str:
    return NS


def _is(r: Reading) -> str:
    return IS


def _ss(r: Reading) -> str | None:
    return r.ss


def _tss(r: Reading) -> str | None:
    return r.tss


def _tss_ss(r: Reading) -> str | None:
    return r.tss_ss if r.tss else None


def much_better(x: float) -> bool:
    return x <= 1.0 / SIGNIFICANT


def much_worse(x: float) -> bool:
    return x >= SIGNIFICANT


def slightly_better(x: float) -> bool:
    return 1.0 / SIGNIFICANT < x < 1.0


def slightly_worse(x: float) -> bool:
    return 1.0 < x < SIGNIFICANT


def comparable(x: float) -> bool:
    return 1.0 / COMPARABLE <= x <= COMPARABLE


def not_worse(x: float) -> bool:
    return x <= COMPARABLE


def not_significant(x: float) -> bool:
    return 1.0 / SIGNIFICANT < x < SIGNIFICANT


def better(x: float) -> bool:
    return x < 1.0


def _matches(value: float, thesis: float, factor: float = SLOWDOWN_FACTOR) -> bool:
    return value > 0 and abs(math.log(value / thesis)) <= math.log(factor)


# --------------------------------------------------------------------------- #
# The claims
# --------------------------------------------------------------------------- #


@dataclass(frozen=True)
class Claim:
    """One statement of the thesis: what it says, where, its words made numbers, the
    runs it reads (``uses``: "" none of SS at SF 2 or TSS, "ss", "tss" or "sf", the
    trend in SF), and its scorer."""

    claim: str
    where: str
    paper: str
    uses: str
    score: Scorer = field(compare=False)


def _shares(v: _View, scheme: str, scenarios: tuple[str, str], thesis: Sequence[float]
            ) -> Outcome | None:  # fmt: skip
    """NS's job mix over ``scheme``'s categories (from the first of ``scenarios`` that
    has it) against the thesis's shares."""
    jobs = v.cat(NS, scenarios[0], "jobs", scheme=scheme)
    if jobs is None:
        jobs = v.cat(NS, scenarios[1], "jobs", scheme=scheme)
    if jobs is None or not (jobs.fillna(0).sum() > 0):
        return None
    share = 100.0 * jobs.fillna(0) / jobs.fillna(0).sum()
    categories = CATEGORIES if scheme == "16" else CATEGORIES4
    cases = [(c, f"{share[c]:.1f}% ({t:g}%)", abs(share[c] - t) <= MIX_TOLERANCE)
             for c, t in zip(categories, thesis, strict=True)]  # fmt: skip
    return Outcome(cases, "all")


def _mix(v: _View, r: Reading) -> Outcome | None:
    return _shares(v, "16", ("accurate", "trace"), THESIS_MIX)


def _mix4(v: _View, r: Reading) -> Outcome | None:
    return _shares(v, "4", ("trace", "accurate"), THESIS_MIX4)


def _table23(v: _View, r: Reading) -> Outcome | None:
    sld = v.cat(NS, "accurate", MEAN_SLD)
    if sld is None:
        return None
    thesis = zip(CATEGORIES, THESIS_SLOWDOWN, strict=True)
    cases = [(c, f"{significant(sld[c])} ({t:g})", _matches(float(sld[c]), t))
             for c, t in thesis if math.isfinite(sld[c])]  # fmt: skip
    return Outcome(cases, "all") if cases else None


def _overall_sld(v: _View, r: Reading) -> Outcome | None:
    x = v.total(NS, "accurate", "mean_bounded_slowdown")
    if not math.isfinite(x):
        return None
    return Outcome([("NS", significant(x), _matches(x, THESIS_OVERALL_SLOWDOWN))], "all")


def _utilization(v: _View, r: Reading) -> Outcome | None:
    cases = []
    for scenario in ("accurate", "trace"):
        u = v.total(NS, scenario, "utilization")
        if math.isfinite(u):
            cases.append((f"{scenario} estimates", f"{u:.3f}",
                          abs(u - THESIS_UTILIZATION) <= UTILIZATION_TOLERANCE))  # fmt: skip
    return Outcome(cases, "all") if cases else None


def _worst_is_vs(v: _View, r: Reading) -> Outcome | None:
    sld = v.cat(NS, "accurate", MEAN_SLD)
    if sld is None or sld.isna().all():
        return None
    top = str(sld.idxmax())
    return Outcome([("highest", f"{top} {significant(float(sld.max()))}", top in VS)], "all")


def _fewer_suspensions(v: _View, r: Reading) -> Outcome | None:
    cases = []
    for scenario in ("accurate", "trace"):
        n = [v.total(lab, scenario, "suspensions") for lab in (r.sf15, r.ss, r.sf5)]
        if all(math.isfinite(x) for x in n):
            cases.append((scenario, " > ".join(f"{x:,.0f}" for x in n), n[0] > n[1] > n[2]))
    return Outcome(cases, "all", "SF 1.5, 2, 5") if cases else None


def _sf_trend(cats: Sequence[str], falling: bool) -> Scorer:
    """Lower SF, lower (``falling``) or higher values: the order of SF 1.5, 2 and 5."""

    def score(v: _View, r: Reading) -> Outcome | None:
        cases = []
        for col in AVERAGES:
            vals = [v.cat(lab, "accurate", col) for lab in (r.sf15, r.ss, r.sf5)]
            if any(x is None for x in vals):
                return None
            for c in cats:
                a, b, d = (float(x[c]) for x in vals)  # type: ignore[index]
                if not all(math.isfinite(y) for y in (a, b, d)):
                    continue
                ok = a < b < d if falling else a > b > d
                text = " / ".join(_num(col, y) for y in (a, b, d))
                cases.append((f"{c} {SHORT_NAMES[col]}", text, ok))
        return Outcome(cases, "all", "SF 1.5 / 2 / 5") if cases else None

    return score


def _sf_long(v: _View, r: Reading) -> Outcome | None:
    """L: lower SF lowers them too (SF 1.5 below SF 5), less than for VS and S (mean
    |ln(SF 5 / SF 1.5)| smaller)."""
    cases = []
    effect: dict[str, list[float]] = {"L": [], "VS, S": []}
    for col in AVERAGES:
        lo, hi = v.cat(r.sf15, "accurate", col), v.cat(r.sf5, "accurate", col)
        if lo is None or hi is None:
            return None
        for c, x in _ratios(hi, lo, (*VS, *S_, *L)).items():
            if c in L:
                cases.append((f"{c} {SHORT_NAMES[col]}", _pct(1.0 / x), x > 1.0))
                effect["L"].append(abs(math.log(x)))
            else:
                effect["VS, S"].append(abs(math.log(x)))
    if effect["L"] and effect["VS, S"]:
        a, b = float(np.mean(effect["L"])), float(np.mean(effect["VS, S"]))
        cases.append(("less pronounced", f"mean |ln| {a:.2f} vs {b:.2f}", a < b))
    return Outcome(cases, "all", "SF 1.5 against SF 5") if cases else None


def _vs_vw_under_3(v: _View, r: Reading) -> Outcome | None:
    ns, ss = v.cat(NS, "accurate", MEAN_SLD), v.cat(r.ss, "accurate", MEAN_SLD)
    if ss is None or not math.isfinite(ss["VS VW"]):
        return None
    before = f"NS {significant(float(ns['VS VW']))} -> " if ns is not None else ""
    return Outcome([("VS VW", before + f"SS {significant(float(ss['VS VW']))}",
                     float(ss["VS VW"]) < 3.0)], "all")  # fmt: skip


def _vs_vw_turnaround(v: _View, r: Reading) -> Outcome | None:
    ns, ss = v.cat(NS, "accurate", MEAN_TAT), v.cat(r.ss, "accurate", MEAN_TAT)
    if ss is None or ns is None:
        return None
    cases = []
    for who, values, thesis in (("NS", ns, 4000.0), ("SS", ss, 600.0)):
        x = float(values["VS VW"])
        if math.isfinite(x):
            cases.append((who, f"{x:,.0f} s", _matches(x, thesis)))
    return Outcome(cases, "all") if cases else None


def _is_overall(v: _View, r: Reading) -> Outcome | None:
    ns, ss, is_ = (v.total(lab, "accurate", "mean_bounded_slowdown") for lab in (NS, r.ss, IS))
    cases = []
    if math.isfinite(ns) and math.isfinite(is_) and ns > 0:
        cases.append(("IS vs NS", _pct(is_ / ns), much_better(is_ / ns)))
    if math.isfinite(ss) and math.isfinite(is_) and ss > 0:
        cases.append(("IS vs SS", _pct(is_ / ss), is_ >= ss))
    return Outcome(cases, "all") if len(cases) == 2 else None


def _max_over_mean(v: _View, r: Reading) -> Outcome | None:
    worst, mean = v.cat(r.ss, "accurate", MAX_SLD), v.cat(r.ss, "accurate", MEAN_SLD)
    got = _ratios(worst, mean, (*VS, *S_))
    cases = [(c, f"x{x:.1f}", much_worse(x)) for c, x in got.items()]
    return Outcome(cases, "some") if cases else None


def _is_worst(v: _View, r: Reading) -> Outcome | None:
    """IS's worst-case slowdown: below SS's for VS, at least `SIGNIFICANT` times NS's
    for L and VL."""
    is_ = v.cat(IS, "accurate", MAX_SLD)
    low = _ratios(is_, v.cat(r.ss, "accurate", MAX_SLD), VS)
    high = _ratios(is_, v.cat(NS, "accurate", MAX_SLD), (*L, *VL))
    if not low or not high:
        return None
    cases = [(f"{c} vs SS", _pct(x), better(x)) for c, x in low.items()]
    cases += [(f"{c} vs NS", _pct(x), much_worse(x)) for c, x in high.items()]
    return Outcome(cases, "all")


def _tss_keeps_averages(v: _View, r: Reading) -> Outcome | None:
    """Where SS's average beats NS's, TSS's is within `COMPARABLE` of SS's."""
    if r.tss is None:
        return None
    cases = []
    for col in AVERAGES:
        ns, ss, tss = (v.cat(lab, "accurate", col) for lab in (NS, r.tss_ss, r.tss))
        gained = [c for c, x in _ratios(ss, ns, CATEGORIES).items() if x < 1.0]
        for c, x in _ratios(tss, ss, gained).items():
            cases.append((f"{c} {SHORT_NAMES[col]}", _pct(x), not_worse(x)))
    return Outcome(cases, "all", "TSS vs SS where SS beats NS") if cases else None


def _same_direction(estimate: str, cats: Sequence[str], columns: Sequence[str]) -> Scorer:
    """SS against NS changes each category the same way (better or not) with trace
    estimates (``estimate``: all, well or poorly estimated jobs) as with accurate ones."""

    def score(v: _View, r: Reading) -> Outcome | None:
        cases = []
        for col in columns:
            now = _ratios(v.cat(r.ss, "trace", col, estimate=estimate),
                          v.cat(NS, "trace", col, estimate=estimate), cats)  # fmt: skip
            then = _ratios(v.cat(r.ss, "accurate", col), v.cat(NS, "accurate", col), cats)
            for c in now:
                if c in then:
                    text = f"{_pct(now[c])} ({_pct(then[c])})"
                    cases.append((f"{c} {SHORT_NAMES[col]}", text,
                                  (now[c] < 1.0) == (then[c] < 1.0)))  # fmt: skip
        return Outcome(cases, "most", "SS vs NS, trace (accurate)") if cases else None

    return score


def _short_wide_high(v: _View, r: Reading) -> Outcome | None:
    sld = v.cat(r.ss, "trace", MEAN_SLD)
    if sld is None or sld.isna().all():
        return None
    median = float(sld.median())
    cases = [(c, significant(float(sld[c])), float(sld[c]) > median)
             for c in SHORT_WIDE if math.isfinite(sld[c])]  # fmt: skip
    return Outcome(cases, "all", f"median of the 16: {significant(median)}") if cases else None


def _smaller_gain(column: str, cats: Sequence[str], than: str) -> Scorer:
    """SS's ratio to NS is higher (its gain smaller) with trace estimates than with
    accurate ones (``than="accurate"``), or for poorly than for well estimated jobs
    (``than="well"``)."""

    def score(v: _View, r: Reading) -> Outcome | None:
        def ratio(scenario: str, estimate: str) -> dict[str, float]:
            return _ratios(v.cat(r.ss, scenario, column, estimate=estimate),
                           v.cat(NS, scenario, column, estimate=estimate), cats)  # fmt: skip

        if than == "accurate":
            now, then = ratio("trace", "all"), ratio("accurate", "all")
        else:
            now, then = ratio("trace", "poor"), ratio("trace", "well")
        cases = [(c, f"{_pct(now[c])} ({_pct(then[c])})", now[c] > then[c])
                 for c in now if c in then]  # fmt: skip
        note = "SS vs NS, trace (accurate)" if than == "accurate" else "SS vs NS, poor (well)"
        return Outcome(cases, "all", note) if cases else None

    return score


def _upper(loads: Sequence[float]) -> list[float]:
    """The load factors above the median of ``loads``."""
    if not loads:
        return []
    median = float(np.median(loads))
    return [x for x in loads if x > median]


def _utilization_vs_ns(test: Callable[[float], bool], who: str, higher: bool) -> Scorer:
    """``who``'s utilization over NS's at each load factor (``higher``: the upper
    half only)."""

    def score(v: _View, r: Reading) -> Outcome | None:
        label = r.ss if who == "SS" else IS
        loads = _upper(v.loads) if higher else v.loads
        cases = []
        for load in loads:
            a, b = v.total(label, load, "utilization"), v.total(NS, load, "utilization")
            if math.isfinite(a) and math.isfinite(b) and b > 0:
                cases.append((f"load {load:g}", f"{a:.3f} vs {b:.3f}", test(a / b)))
        return Outcome(cases, "all") if cases else None

    return score


def _saturation(v: _View, r: Reading) -> Outcome | None:
    if len(v.loads) < 2:
        return None
    hi, lo = v.loads[-1], v.loads[-2]
    cases = []
    for name, label in (("NS", NS), ("SS", r.ss)):
        a, b = v.total(label, hi, "utilization"), v.total(label, lo, "utilization")
        if math.isfinite(a) and math.isfinite(b) and b > 0:
            cases.append((name, f"{b:.3f} -> {a:.3f}", a / b <= COMPARABLE))
    return Outcome(cases, "all", f"load {lo:g} -> {hi:g}") if len(cases) == 2 else None


def _gain_grows(v: _View, r: Reading) -> Outcome | None:
    if len(v.loads) < 2:
        return None
    lo, hi = v.loads[0], v.loads[-1]
    cases = []
    for col in AVERAGES:
        first = _ratios(v.cat(r.ss, lo, col, "4"), v.cat(NS, lo, col, "4"), CATEGORIES4)
        last = _ratios(v.cat(r.ss, hi, col, "4"), v.cat(NS, hi, col, "4"), CATEGORIES4)
        for c in first:
            if c in last:
                cases.append((f"{c} {SHORT_NAMES[col]}", f"{_pct(first[c])} -> {_pct(last[c])}",
                              last[c] < first[c]))  # fmt: skip
    return Outcome(cases, "all", f"SS vs NS, load {lo:g} -> {hi:g}") if cases else None


def _per_load(
    a: Callable[[Reading], str | None],
    b: Callable[[Reading], str | None],
    cats: Sequence[str],
    columns: Sequence[str],
    test: Callable[[str, float], bool],
    higher: bool = False,
    note: str = "",
) -> Scorer:
    """Per load factor, category of Table 4.1 and column: r = a / b, holding when
    ``test(category, r)`` (``higher``: the upper half of the loads only)."""

    def score(v: _View, r: Reading) -> Outcome | None:
        la, lb = a(r), b(r)
        cases = []
        for load in _upper(v.loads) if higher else v.loads:
            for col in columns:
                got = _ratios(v.cat(la, load, col, "4"), v.cat(lb, load, col, "4"), cats)
                cases += [(f"load {load:g} {c} {SHORT_NAMES[col]}", _pct(x), test(c, x))
                          for c, x in got.items()]  # fmt: skip
        return Outcome(cases, "all", note) if cases else None

    return score


def _overall_per_load(v: _View, r: Reading) -> Outcome | None:
    cases = []
    for load in v.loads:
        for col in ("mean_bounded_slowdown", "mean_turnaround"):
            ss = v.total(r.ss, load, col)
            for name, label in (("NS", NS), ("IS", IS)):
                other = v.total(label, load, col)
                if math.isfinite(ss) and math.isfinite(other) and other > 0:
                    short = SHORT_NAMES["mean_" + col.split("mean_")[1]]
                    cases.append((f"load {load:g} {short} vs {name}", _pct(ss / other),
                                  much_better(ss / other)))  # fmt: skip
    return Outcome(cases, "all", "SS vs NS and IS, all jobs") if cases else None


def _is_low_utilization(v: _View, r: Reading) -> Outcome | None:
    is_ = [v.total(IS, load, "utilization") for load in v.loads]
    is_ = [x for x in is_ if math.isfinite(x)]
    ns = v.total(NS, "trace", "utilization")
    if not is_ or not math.isfinite(ns):
        return None
    top = max(is_)
    return Outcome([("IS highest", f"{top:.3f} vs NS {ns:.3f}", top < ns)], "all",
                   "IS at any load vs NS at normal load")  # fmt: skip


def _lower_for(short: str) -> Callable[[str, float], bool]:
    """IS better than SS (r = IS / SS < 1) exactly for the categories in ``short``."""
    keep = set(short.split())
    return lambda c, x: (x < 1.0) == (c in keep)


SIG = f"at least {100 * (1 - 1 / SIGNIFICANT):.0f}% lower"
SIG_WORSE = f"at least {100 * (SIGNIFICANT - 1):.0f}% higher"
SLIGHT_B = f"lower by less than {100 * (1 - 1 / SIGNIFICANT):.0f}%"
SLIGHT_W = f"higher by less than {100 * (SIGNIFICANT - 1):.0f}%"
NOT_W = f"at most {100 * (COMPARABLE - 1):.0f}% higher"
COMP = f"within {100 * (COMPARABLE - 1):.0f}%"
OTHER_THAN_VS = tuple(c for c in CATEGORIES if c not in VS)
TSS_BETTER = ("VL W", "VL VW", "L N", "VS Seq", "VS N", "S Seq")


def _claims() -> list[Claim]:
    """The thesis's claims, in its order (module docstring for the words' numbers)."""
    acc = "accurate"
    return [
        # -- chapter 2: the workload and NS -------------------------------------
        Claim("the job mix over the 16 categories is Table 2.2's",
              "section 2.4, Table 2.2 read transposed",
              f"shares in whole percents; each within {MIX_TOLERANCE:g} pp", "", _mix),
        Claim("the job mix over the 4 categories of the load study is Table 4.2's",
              "section 4.2, Table 4.2", f"SN/SW/LN/LW 44/13/30/13%; each within "
              f"{MIX_TOLERANCE:g} pp", "", _mix4),
        Claim("NS's average slowdown per category is Table 2.3's", "section 2.4, Table 2.3",
              f"2.6 (VS Seq) to 34.07 (VS VW); each within a factor {SLOWDOWN_FACTOR:g}",
              "", _table23),
        Claim("NS's overall slowdown is 3.58", "section 2.4",
              f"3.58 (within a factor {SLOWDOWN_FACTOR:g})", "", _overall_sld),
        Claim("NS's utilization under normal load is 0.51 (\"51 percent\")", "section 2.4",
              f"0.51 (within {UTILIZATION_TOLERANCE:g}); estimates not said",
              "", _utilization),
        Claim("NS's highest category slowdowns are very short jobs' (as high as 34)",
              "section 2.4, Table 2.3", "the highest is VS VW, 34.07", "", _worst_is_vs),
        # -- section 3.1 ---------------------------------------------------------
        Claim("a higher SF means fewer suspensions", "section 3.1",
              "suspensions fall from SF 1.5 to 2 to 5", "sf", _fewer_suspensions),
        # -- section 3.4: averages, accurate estimates -----------------------------
        Claim("SS is significantly better than NS for the VS and S categories",
              "section 3.4, Figures 3.1, 3.2", f"significant benefit ({SIG}); slowdown "
              "and turnaround, 8 categories", "ss",
              _versus(_ss, _ns, acc, (*VS, *S_), AVERAGES, much_better)),
        Claim("SS is significantly better than NS for the W and VW categories",
              "section 3.4, Figure 3.1 caption, Figure 3.2", f"significant benefit ({SIG}); "
              "VS, S and L rows (VL: slightly worse, below)", "ss",
              _versus(_ss, _ns, acc, [c for c in WIDE if c not in VL], AVERAGES,
                      much_better)),
        Claim("SS is slightly better than NS for most L categories",
              "section 3.4, Figures 3.1, 3.2", f"slight improvement ({SLIGHT_B}) for most",
              "ss", _versus(_ss, _ns, acc, L, AVERAGES, slightly_better, "most")),
        Claim("SS is slightly worse than NS for the VL categories",
              "section 3.4, Figures 3.1, 3.2", f"slight deterioration ({SLIGHT_W})", "ss",
              _versus(_ss, _ns, acc, VL, AVERAGES, slightly_worse)),
        Claim("VS VW: SS (SF 2) brings the slowdown from 34 under 3", "section 3.4",
              "34 (NS) -> under 3 (SS)", "ss", _vs_vw_under_3),
        Claim("VS VW: SS (SF 2) brings the turnaround time from 4000 s to 600 s",
              "section 3.4", f"4000 s (NS) -> 600 s (SS); each within a factor "
              f"{SLOWDOWN_FACTOR:g}", "ss", _vs_vw_turnaround),
        Claim("a lower SF lowers the VS and S slowdowns and turnaround times", "section 3.4",
              "lower SF, lower values: SF 1.5 < 2 < 5", "sf", _sf_trend((*VS, *S_), True)),
        Claim("a lower SF lowers L's too, less markedly", "section 3.4",
              "same trend, less pronounced than VS and S", "sf", _sf_long),
        Claim("a lower SF raises the VL slowdowns and turnaround times", "section 3.4",
              "opposite trend: SF 1.5 > 2 > 5", "sf", _sf_trend(VL, False)),
        Claim("IS is better than SS for the VS categories", "section 3.4, Figures 3.1, 3.2",
              "IS better for the VS length category", "ss",
              _versus(_is, _ss, acc, VS, AVERAGES, better)),
        Claim("SS is better than IS for every other category",
              "section 3.4, Figures 3.1, 3.2", "IS worse for the other categories", "ss",
              _versus(_ss, _is, acc, OTHER_THAN_VS, AVERAGES, better)),
        Claim("IS's overall slowdown is well below NS's but not below SS's", "section 3.4",
              f"considerably less than NS ({SIG}), not better than SS", "ss", _is_overall),
        Claim("under IS the VW and VL categories get significantly worse than under NS",
              "section 3.4", f"significantly worse ({SIG_WORSE}); 7 categories", "",
              _versus(_is, _ns, acc, sorted(set(WIDE[1::2]) | set(VL), key=CATEGORIES.index),
                      AVERAGES, much_worse)),
        # -- section 3.5: worst cases --------------------------------------------
        Claim("SS's worst cases are much better than NS's for most categories",
              "section 3.5, Figures 3.3, 3.4", f"much better ({SIG}) for most", "ss",
              _versus(_ss, _ns, acc, CATEGORIES, WORST, much_better, "most")),
        Claim("SS's worst cases are at most slightly worse than NS's for the VL categories",
              "section 3.5, Figures 3.3, 3.4", f"slightly worse for some VL categories "
              f"(here: none {SIG_WORSE})", "ss",
              _versus(_ss, _ns, acc, VL, WORST, lambda x: x < SIGNIFICANT)),
        Claim("SS's worst cases are much better than IS's except for the VS categories",
              "section 3.5, Figures 3.3, 3.4 captions", f"much better ({SIG})", "ss",
              _versus(_ss, _is, acc, OTHER_THAN_VS, WORST, much_better)),
        Claim("IS's worst-case slowdowns are low for VS and very high for L and VL",
              "section 3.5, Figure 3.3", f"VS: below SS; L, VL: {SIG_WORSE} than NS", "ss",
              _is_worst),
        Claim("SS's worst-case slowdowns are much higher than its averages for some "
              "short categories", "section 3.5, Figure 3.3",
              f"much higher ({SIG_WORSE}); VS and S", "ss", _max_over_mean),
        # -- section 3.5.2: TSS -------------------------------------------------------
        Claim("TSS improves the worst-case slowdown of VL W, VL VW, L N, VS Seq, VS N "
              "and S Seq", "section 3.5.2, Figure 3.5", "TSS below SS", "tss",
              _versus(_tss, _tss_ss, acc, TSS_BETTER, (MAX_SLD,), better)),
        Claim("TSS does not worsen the other categories' worst-case slowdowns",
              "section 3.5.2, Figure 3.5", f"TSS {NOT_W} than SS", "tss",
              _versus(_tss, _tss_ss, acc, [c for c in CATEGORIES if c not in TSS_BETTER],
                      (MAX_SLD,), not_worse)),
        Claim("TSS improves the worst-case slowdown of the VL categories",
              "section 3.5.2, Figure 3.5 caption", "TSS below SS", "tss",
              _versus(_tss, _tss_ss, acc, VL, (MAX_SLD,), better)),
        Claim("TSS improves the worst-case turnaround time of most categories",
              "section 3.5.2, Figure 3.6", "TSS below SS for most", "tss",
              _versus(_tss, _tss_ss, acc, CATEGORIES, (MAX_TAT,), better, "most")),
        Claim("TSS does not worsen any category's worst-case turnaround time",
              "section 3.5.2, Figure 3.6", f"TSS {NOT_W} than SS, every category", "tss",
              _versus(_tss, _tss_ss, acc, CATEGORIES, (MAX_TAT,), not_worse)),
        Claim("TSS keeps SS's gains in the averages", "section 3.5",
              f"without losing the improvement in the averages (TSS {NOT_W} than SS)",
              "tss", _tss_keeps_averages),
        # -- chapter 4: the trace's estimates -----------------------------------------
        Claim("with the trace's estimates SS improves the average slowdown of most "
              "categories", "chapter 4, Figure 4.1", "SS below NS for most", "ss",
              _versus(_ss, _ns, "trace", CATEGORIES, (MEAN_SLD,), better, "most")),
        Claim("with the trace's estimates SS does not worsen any category's average "
              "slowdown", "chapter 4, Figure 4.1",
              f"SS {NOT_W} than NS, every category", "ss",
              _versus(_ss, _ns, "trace", CATEGORIES, (MEAN_SLD,), not_worse)),
        Claim("the trends with the trace's estimates are those with accurate ones",
              "chapter 4, Figures 4.1, 4.2 captions", "similar trends (SS vs NS: the "
              "same direction) for most", "ss",
              _same_direction("all", CATEGORIES, AVERAGES)),
        Claim("with the trace's estimates the short wide categories have high slowdowns "
              "under SS", "chapter 4, Figure 4.1", "quite high compared to the other "
              "categories (here: above their median)", "ss", _short_wide_high),
        Claim("with the trace's estimates IS is better than SS for the VS categories",
              "chapter 4, Figure 4.1", "IS's slowdown below SS's", "ss",
              _versus(_is, _ss, "trace", VS, (MEAN_SLD,), better)),
        Claim("with the trace's estimates SS is much better than IS for the other "
              "categories", "chapter 4, Figure 4.1",
              f"much better ({SIG})", "ss",
              _versus(_ss, _is, "trace", OTHER_THAN_VS, (MEAN_SLD,), much_better)),
        Claim("with the trace's estimates SS's turnaround gain for the short wide "
              "categories is smaller than with accurate ones", "chapter 4, Figure 4.2",
              "much less improvement (here: less)", "ss",
              _smaller_gain(MEAN_TAT, SHORT_WIDE, "accurate")),
        Claim("SS's higher VS slowdowns come from the poorly estimated jobs",
              "chapter 4, Figures 4.3, 4.4", "SS's gain over NS smaller for poorly than "
              "for well estimated VS jobs", "ss", _smaller_gain(MEAN_SLD, VS, "well")),
        Claim("well-estimated jobs: SS is better than or comparable to IS for VS",
              "chapter 4, Figure 4.3", f"better or comparable (SS {NOT_W})", "ss",
              _versus(_ss, _is, "trace", VS, (MEAN_SLD,), not_worse, estimate="well")),
        Claim("well-estimated jobs: SS outperforms IS in all other categories",
              "chapter 4, Figures 4.3, 4.5", "SS below IS, slowdown and turnaround", "ss",
              _versus(_ss, _is, "trace", OTHER_THAN_VS, AVERAGES, better, estimate="well")),
        Claim("well-estimated jobs: SS's VS turnaround times are comparable to IS's",
              "chapter 4, Figure 4.5", f"comparable ({COMP})", "ss",
              _versus(_ss, _is, "trace", VS, (MEAN_TAT,), comparable, estimate="well")),
        Claim("well-estimated jobs: S, L and VL trends are those with accurate estimates",
              "chapter 4, Figures 4.3, 4.5", "similar (SS vs NS: the same direction) for "
              "most", "ss", _same_direction("well", (*S_, *L, *VL), AVERAGES)),
        Claim("poorly estimated jobs: S, L and VL trends are those with accurate estimates",
              "chapter 4, Figure 4.4", "similar (SS vs NS: the same direction) for most",
              "ss", _same_direction("poor", (*S_, *L, *VL), (MEAN_SLD,))),
        Claim("SS penalizes the poorly estimated short jobs (turnaround)",
              "chapter 4, Figures 4.5, 4.6", "SS's gain over NS for the short wide "
              "categories smaller for poorly than for well estimated jobs", "ss",
              _smaller_gain(MEAN_TAT, SHORT_WIDE, "well")),
        # -- section 4.1: overhead ----------------------------------------------------
        Claim("the suspension overhead does not significantly affect SS",
              "section 4.1, Figures 4.7, 4.8",
              "no significant change (with / without overhead within a factor "
              f"{SIGNIFICANT:g}), every category", "ss", _overhead),
        # -- section 4.2: load ------------------------------------------------------
        Claim("SS's utilization is better than or comparable to NS's at every load",
              "section 4.2, Figure 4.9", f"better or comparable (SS above NS or "
              f"{COMP})", "ss",
              _utilization_vs_ns(lambda x: x >= 1.0 / COMPARABLE, "SS", False)),
        Claim("SS achieves a better utilization than NS at higher loads",
              "section 4.2, Figure 4.9", "SS above NS (loads above the median)", "ss",
              _utilization_vs_ns(lambda x: x > 1.0, "SS", True)),
        Claim("IS's utilization is much lower than NS's", "section 4.2, Figure 4.9",
              f"very low, much worse ({SIG}), every load", "",
              _utilization_vs_ns(much_better, "IS", False)),
        Claim("the machine saturates at load 1.6", "section 4.2, Figure 4.9",
              "no significant increase beyond 1.6 (here: from the second-highest load to "
              f"the highest, {NOT_W})", "ss", _saturation),
        Claim("SS's improvements are more pronounced under high load",
              "section 4.2, Figures 4.10, 4.11", "SS vs NS lower at the highest load than "
              "at normal load, each category", "ss", _gain_grows),
        Claim("SS benefits the short jobs significantly at every load",
              "section 4.2, Figures 4.10, 4.11", f"significant benefit ({SIG}) for SN, SW",
              "ss", _per_load(_ss, _ns, ("SN", "SW"), AVERAGES,
                              lambda c, x: much_better(x))),
        Claim("SS does not worsen the long jobs at any load", "section 4.2, Figures 4.10, "
              "4.11",
              f"LN, LW: SS {NOT_W} than NS", "ss",
              _per_load(_ss, _ns, ("LN", "LW"), AVERAGES, lambda c, x: not_worse(x))),
        Claim("IS beats SS only for SN in turnaround time", "section 4.2, Figure 4.11",
              "IS below SS for SN, not for SW, LN, LW; every load", "ss",
              _per_load(_is, _ss, CATEGORIES4, (MEAN_TAT,), _lower_for("SN"))),
        Claim("IS beats SS only for SN and SW in slowdown", "section 4.2, Figure 4.10",
              "IS below SS for SN and SW, not for LN, LW; every load", "ss",
              _per_load(_is, _ss, CATEGORIES4, (MEAN_SLD,), _lower_for("SN SW"))),
        Claim("IS is much worse for the long jobs", "section 4.2, Figures 4.10, 4.11",
              f"much worse than SS ({SIG_WORSE}) for LN, LW; every load", "ss",
              _per_load(_is, _ss, ("LN", "LW"), AVERAGES, lambda c, x: much_worse(x))),
        Claim("SS is much better than both IS and NS at every load",
              "section 4.2, Figures 4.12, 4.13", f"much better ({SIG}), all jobs", "ss",
              _overall_per_load),
        Claim("even at high utilization SS gives much better response times for all "
              "categories", "section 4.2, Figures 4.12, 4.13",
              f"turnaround {SIG} than NS and than IS, loads above the median", "ss",
              _high_load_all),
        Claim("IS cannot achieve a high utilization", "section 4.2, Figures 4.12, 4.13",
              "IS's highest utilization (any load) below NS's at normal load", "",
              _is_low_utilization),
    ]  # fmt: skip


def _overhead(v: _View, r: Reading) -> Outcome | None:
    """SS with overhead against SS without (trace estimates), each category."""
    cases = []
    for col in AVERAGES:
        got = _ratios(v.cat(r.ss, "overhead", col), v.cat(r.ss, "trace", col), CATEGORIES)
        cases += [(f"{c} {SHORT_NAMES[col]}", _pct(x), not_significant(x))
                  for c, x in got.items()]  # fmt: skip
    return Outcome(cases, "all", "with vs without overhead") if cases else None


def _high_load_all(v: _View, r: Reading) -> Outcome | None:
    cases = []
    for load in _upper(v.loads):
        ss = v.cat(r.ss, load, MEAN_TAT, "4")
        for name, label in (("NS", NS), ("IS", IS)):
            got = _ratios(ss, v.cat(label, load, MEAN_TAT, "4"), CATEGORIES4)
            cases += [(f"load {load:g} {c} vs {name}", _pct(x), much_better(x))
                      for c, x in got.items()]  # fmt: skip
    return Outcome(cases, "all", "SS turnaround") if cases else None


# --------------------------------------------------------------------------- #
# The tables
# --------------------------------------------------------------------------- #

#: What a claim reads (``Claim.uses``), as the ``reads`` column says it.
READS: dict[str, str] = {"": "NS, IS", "ss": "SS sf=2", "tss": "TSS", "sf": "SS sf=1.5/2/5"}
COLUMNS: tuple[str, ...] = ("claim", "where", "paper", "schedsim", "holds", "status")


def _applies(uses: str, r: Reading) -> bool | None:
    """Whether reading ``r`` scores a claim that ``uses`` these runs: None when the
    reading does not define them (the default's cells stand), False when it lacks
    a run the claim needs (``not run``)."""
    if r.name == DEFAULT:
        return True
    if uses == "":
        return None
    if uses == "tss":
        return True if r.tss else None
    if r.ss is None:
        return None
    return bool(r.sf15 and r.sf5) if uses == "sf" else True


def _cells(outcome: Outcome | None) -> tuple[str, str, str]:
    if outcome is None or not outcome.cases:
        return "-", "-", "not run"
    n = len(outcome.cases)
    return outcome.text(), f"{outcome.hits} of {n}", status(outcome.hits, n, outcome.needed())


def claims(overall: pd.DataFrame, cats: pd.DataFrame) -> pd.DataFrame:
    """The thesis's claims (module docstring) scored from the runs' overall values
    (`overall_values`) and per-category ones (`category_values`): `COLUMNS`, then a
    ``schedsim``/``holds``/``status`` group per reading other than the default (named
    ``schedsim [NAME]``...), then ``reads`` (the runs the claim reads). A claim none of
    whose readings has its runs is left out."""
    v = _View(overall, cats)
    order = list(dict.fromkeys([*overall["label"].astype(str), *cats["label"].astype(str)]))
    reads = readings(order)
    rows = []
    for claim in _claims():
        row: dict[str, Any] = {"claim": claim.claim, "where": claim.where, "paper": claim.paper}
        scored = False
        for r in reads:
            applies = _applies(claim.uses, r)
            tag = "" if r.name == DEFAULT else f" [{r.name}]"
            if applies is None:
                cells = ("", "", "")
            elif not applies:
                cells = _cells(None)
            else:
                outcome = claim.score(v, r)
                scored = scored or outcome is not None
                cells = _cells(outcome)
            row.update(dict(zip((f"schedsim{tag}", f"holds{tag}", f"status{tag}"), cells,
                                strict=True)))  # fmt: skip
        row["reads"] = READS[claim.uses]
        if scored:
            rows.append(row)
    extra = [f"{c} [{r.name}]" for r in reads[1:] for c in ("schedsim", "holds", "status")]
    return pd.DataFrame(rows, columns=[*COLUMNS, *extra, "reads"])
