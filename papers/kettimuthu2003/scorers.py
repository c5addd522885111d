"""Kettimuthu 2003: the scorers of the thesis's claims.

A scorer reads the values (`_View`) of one reading of SS and TSS (`Reading`) and gives
a claim's cases, each a `Case` (a category, a load..., what the runs give as text,
whether it holds), or None when the runs it needs are missing. `_versus` and
`_per_load` make the scorers of a ratio of two schemes per category (and load); the
others are one claim's each. `schedsim.papers.kettimuthu2003.claims` pairs them with
the claims.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from schedsim.app.claims import Case, Claim, ClaimResult, Rule, level
from schedsim.app.report.formats import significant
from schedsim.model.categories import CATEGORIES, CATEGORIES4
from schedsim.papers.kettimuthu2003.readings import IS, NS, Reading
from schedsim.papers.kettimuthu2003.thesis import (
    THESIS_MIX,
    THESIS_MIX4,
    THESIS_OVERALL_SLOWDOWN,
    THESIS_SLOWDOWN,
    THESIS_UTILIZATION,
)
from schedsim.papers.kettimuthu2003.values import (
    AVERAGES,
    MAX_SLD,
    MEAN_SLD,
    MEAN_TAT,
    SHORT_NAMES,
    _View,
)
from schedsim.papers.kettimuthu2003.words import (
    BETTER,
    MUCH_BETTER,
    MUCH_WORSE,
    NOT_BETTER,
    NOT_SIGNIFICANT,
    NOT_WORSE,
    S_,
    SATURATED,
    SHORT_WIDE,
    UNDER_3,
    VL,
    VS,
    L,
    _num,
    _pct,
    _ratios,
)

#: The claim of a scorer's result until `schedsim.papers.kettimuthu2003.claims.claims`
#: names it.
_UNNAMED = Claim("", "", "")


def _found(cases: Sequence[tuple[str, str, bool | tuple[bool, bool]]], note: str = ""
           ) -> ClaimResult:  # fmt: skip
    """A scorer's result: its cases (name, value as text, outcome) and a note. An outcome
    is a `Rule`'s (reproduced, goes the thesis's way), or a bool for a claim with no size
    (an order, a sign): reproduced exactly when it goes the thesis's way."""
    out = []
    for name, text, ok in cases:
        holds, way = ok if isinstance(ok, tuple) else (ok, ok)
        out.append(Case(name, text, bool(holds), bool(way)))
    return ClaimResult(_UNNAMED, out, note)


#: A claim's scorer: the values and a reading -> its cases (a `ClaimResult` whose claim
#: `schedsim.papers.kettimuthu2003.claims.claims` puts in), None when its runs are missing.
Scorer = Callable[[_View, Reading], "ClaimResult | None"]


def _versus(
    a: Callable[[Reading], str | None],
    b: Callable[[Reading], str | None],
    scenario: str | float,
    cats: Sequence[str],
    columns: Sequence[str],
    test: Rule,
    estimate: str = "all",
) -> Scorer:
    """A scorer: per category and column, r = a / b (labels picked from the reading)
    under ``scenario``, each case tested by ``test`` (a `Rule` on r)."""

    def score(v: _View, r: Reading) -> ClaimResult | None:
        la, lb = a(r), b(r)
        cases = []
        for col in columns:
            got = _ratios(v.cat(la, scenario, col, estimate=estimate),
                          v.cat(lb, scenario, col, estimate=estimate), cats)  # fmt: skip
            suffix = f" {SHORT_NAMES[col]}" if len(columns) > 1 else ""
            cases += [(f"{c}{suffix}", _pct(x), test(x)) for c, x in got.items()]
        return _found(cases) if cases else None

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


def _shares(v: _View, scheme: str, scenarios: tuple[str, str], thesis: Sequence[float]
            ) -> ClaimResult | None:  # fmt: skip
    """NS's job mix over ``scheme``'s categories (from the first of ``scenarios`` that
    has it) against the thesis's shares."""
    jobs = v.cat(NS, scenarios[0], "jobs", scheme=scheme)
    if jobs is None:
        jobs = v.cat(NS, scenarios[1], "jobs", scheme=scheme)
    if jobs is None or not (jobs.fillna(0).sum() > 0):
        return None
    share = 100.0 * jobs.fillna(0) / jobs.fillna(0).sum()
    categories = CATEGORIES if scheme == "16" else CATEGORIES4
    cases = [(c, f"{share[c]:.1f}% ({t:g}%)", level(t)(float(share[c])))
             for c, t in zip(categories, thesis, strict=True)]  # fmt: skip
    return _found(cases)


def _mix(v: _View, r: Reading) -> ClaimResult | None:
    return _shares(v, "16", ("accurate", "trace"), THESIS_MIX)


def _mix4(v: _View, r: Reading) -> ClaimResult | None:
    return _shares(v, "4", ("trace", "accurate"), THESIS_MIX4)


def _table23(v: _View, r: Reading) -> ClaimResult | None:
    sld = v.cat(NS, "accurate", MEAN_SLD)
    if sld is None:
        return None
    thesis = zip(CATEGORIES, THESIS_SLOWDOWN, strict=True)
    cases = [(c, f"{significant(sld[c])} ({t:g})", level(t)(float(sld[c])))
             for c, t in thesis if math.isfinite(sld[c])]  # fmt: skip
    return _found(cases) if cases else None


def _overall_sld(v: _View, r: Reading) -> ClaimResult | None:
    x = v.total(NS, "accurate", "mean_bounded_slowdown")
    if not math.isfinite(x):
        return None
    return _found([("NS", significant(x), level(THESIS_OVERALL_SLOWDOWN)(x))])


def _utilization(v: _View, r: Reading) -> ClaimResult | None:
    cases = []
    for scenario in ("accurate", "trace"):
        u = v.total(NS, scenario, "utilization")
        if math.isfinite(u):
            cases.append((f"{scenario} estimates", f"{u:.3f}",
                          level(THESIS_UTILIZATION)(u)))  # fmt: skip
    return _found(cases) if cases else None


def _worst_is_vs(v: _View, r: Reading) -> ClaimResult | None:
    sld = v.cat(NS, "accurate", MEAN_SLD)
    if sld is None or sld.isna().all():
        return None
    top = str(sld.idxmax())
    return _found([("highest", f"{top} {significant(float(sld.max()))}", top in VS)])


def _fewer_suspensions(v: _View, r: Reading) -> ClaimResult | None:
    cases = []
    for scenario in ("accurate", "trace"):
        n = [v.total(lab, scenario, "suspensions") for lab in (r.sf15, r.ss, r.sf5)]
        if all(math.isfinite(x) for x in n):
            cases.append((scenario, " > ".join(f"{x:,.0f}" for x in n), n[0] > n[1] > n[2]))
    return _found(cases, "SF 1.5, 2, 5") if cases else None


def _sf_trend(cats: Sequence[str], falling: bool) -> Scorer:
    """Lower SF, lower (``falling``) or higher values: the order of SF 1.5, 2 and 5."""

    def score(v: _View, r: Reading) -> ClaimResult | None:
        cases = []
        for col in AVERAGES:
            found = [v.cat(lab, "accurate", col) for lab in (r.sf15, r.ss, r.sf5)]
            vals = [x for x in found if x is not None]  # a list the type checker sees whole
            if len(vals) < len(found):
                return None
            for c in cats:
                a, b, d = (float(x[c]) for x in vals)
                if not all(math.isfinite(y) for y in (a, b, d)):
                    continue
                ok = a < b < d if falling else a > b > d
                text = " / ".join(_num(col, y) for y in (a, b, d))
                cases.append((f"{c} {SHORT_NAMES[col]}", text, ok))
        return _found(cases, "SF 1.5 / 2 / 5") if cases else None

    return score


def _sf_long(v: _View, r: Reading) -> ClaimResult | None:
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
    return _found(cases, "SF 1.5 against SF 5") if cases else None


def _vs_vw_under_3(v: _View, r: Reading) -> ClaimResult | None:
    ns, ss = v.cat(NS, "accurate", MEAN_SLD), v.cat(r.ss, "accurate", MEAN_SLD)
    if ss is None or not math.isfinite(ss["VS VW"]):
        return None
    before = f"NS {significant(float(ns['VS VW']))} -> " if ns is not None else ""
    return _found([("VS VW", before + f"SS {significant(float(ss['VS VW']))}",
                     UNDER_3(float(ss["VS VW"])))])  # fmt: skip


def _vs_vw_turnaround(v: _View, r: Reading) -> ClaimResult | None:
    ns, ss = v.cat(NS, "accurate", MEAN_TAT), v.cat(r.ss, "accurate", MEAN_TAT)
    if ss is None or ns is None:
        return None
    cases = []
    for who, values, thesis in (("NS", ns, 4000.0), ("SS", ss, 600.0)):
        x = float(values["VS VW"])
        if math.isfinite(x):
            cases.append((who, f"{x:,.0f} s", level(thesis)(x)))
    return _found(cases) if cases else None


def _is_overall(v: _View, r: Reading) -> ClaimResult | None:
    ns, ss, is_ = (v.total(lab, "accurate", "mean_bounded_slowdown") for lab in (NS, r.ss, IS))
    cases = []
    if math.isfinite(ns) and math.isfinite(is_) and ns > 0:
        cases.append(("IS vs NS", _pct(is_ / ns), MUCH_BETTER(is_ / ns)))
    if math.isfinite(ss) and math.isfinite(is_) and ss > 0:
        cases.append(("IS vs SS", _pct(is_ / ss), NOT_BETTER(is_ / ss)))
    return _found(cases) if len(cases) == 2 else None


def _max_over_mean(v: _View, r: Reading) -> ClaimResult | None:
    worst, mean = v.cat(r.ss, "accurate", MAX_SLD), v.cat(r.ss, "accurate", MEAN_SLD)
    got = _ratios(worst, mean, (*VS, *S_))
    cases = [(c, f"x{x:.1f}", MUCH_WORSE(x)) for c, x in got.items()]
    return _found(cases) if cases else None


def _is_worst(v: _View, r: Reading) -> ClaimResult | None:
    """IS's worst-case slowdown: below SS's for VS, at least `SIGNIFICANT` times NS's
    for L and VL."""
    is_ = v.cat(IS, "accurate", MAX_SLD)
    low = _ratios(is_, v.cat(r.ss, "accurate", MAX_SLD), VS)
    high = _ratios(is_, v.cat(NS, "accurate", MAX_SLD), (*L, *VL))
    if not low or not high:
        return None
    cases = [(f"{c} vs SS", _pct(x), BETTER(x)) for c, x in low.items()]
    cases += [(f"{c} vs NS", _pct(x), MUCH_WORSE(x)) for c, x in high.items()]
    return _found(cases)


def _tss_keeps_averages(v: _View, r: Reading) -> ClaimResult | None:
    """Where SS's average beats NS's, TSS's is within `COMPARABLE` of SS's."""
    if r.tss is None:
        return None
    cases = []
    for col in AVERAGES:
        ns, ss, tss = (v.cat(lab, "accurate", col) for lab in (NS, r.tss_ss, r.tss))
        gained = [c for c, x in _ratios(ss, ns, CATEGORIES).items() if x < 1.0]
        for c, x in _ratios(tss, ss, gained).items():
            cases.append((f"{c} {SHORT_NAMES[col]}", _pct(x), NOT_WORSE(x)))
    return _found(cases, "TSS vs SS where SS beats NS") if cases else None


def _same_direction(estimate: str, cats: Sequence[str], columns: Sequence[str]) -> Scorer:
    """SS against NS changes each category the same way (better or not) with trace
    estimates (``estimate``: all, well or poorly estimated jobs) as with accurate ones."""

    def score(v: _View, r: Reading) -> ClaimResult | None:
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
        return _found(cases, "SS vs NS, trace (accurate)") if cases else None

    return score


def _short_wide_high(v: _View, r: Reading) -> ClaimResult | None:
    sld = v.cat(r.ss, "trace", MEAN_SLD)
    if sld is None or sld.isna().all():
        return None
    median = float(sld.median())
    cases = [(c, significant(float(sld[c])), float(sld[c]) > median)
             for c in SHORT_WIDE if math.isfinite(sld[c])]  # fmt: skip
    return _found(cases, f"median of the 16: {significant(median)}") if cases else None


def _smaller_gain(column: str, cats: Sequence[str], than: str) -> Scorer:
    """SS's ratio to NS is higher (its gain smaller) with trace estimates than with
    accurate ones (``than="accurate"``), or for poorly than for well estimated jobs
    (``than="well"``)."""

    def score(v: _View, r: Reading) -> ClaimResult | None:
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
        return _found(cases, note) if cases else None

    return score


def _normal(v: _View, r: Reading) -> float:
    """The normal load of the reading's load series: its own, else the study's."""
    return r.normal if r.normal is not None else v.normal.get("trace", 1.0)


def _series(v: _View, r: Reading) -> list[float]:
    """The reading's load series (`_View.series`)."""
    return v.series(_normal(v, r)) if r.normal is not None else v.loads


def _upper(loads: Sequence[float]) -> list[float]:
    """The load factors above the median of ``loads``."""
    if not loads:
        return []
    median = float(np.median(loads))
    return [x for x in loads if x > median]


def _utilization_column(r: Reading) -> str:
    """The utilization a reading reads: over the whole run (``utilization``) or over the
    arrival window (``utilization_arrivals``, `schedsim.papers.kettimuthu2003.load`)."""
    return "utilization" if r.window == "run" else "utilization_arrivals"


def _utilization_vs_ns(test: Rule, who: str, higher: bool) -> Scorer:
    """``who``'s utilization over NS's at each load factor of the thesis's series
    (``higher``: the upper half only), tested by ``test``."""

    def score(v: _View, r: Reading) -> ClaimResult | None:
        label = r.ss if who == "SS" else IS
        column = _utilization_column(r)
        loads = _upper(_series(v, r)) if higher else _series(v, r)
        cases = []
        for load in loads:
            a, b = v.total(label, load, column), v.total(NS, load, column)
            if math.isfinite(a) and math.isfinite(b) and b > 0:
                cases.append((f"load {load:g}", f"{a:.3f} vs {b:.3f}", test(a / b)))
        return _found(cases) if cases else None

    return score


def _saturation(v: _View, r: Reading) -> ClaimResult | None:
    """NS's and SS's utilization at the first load beyond the thesis's series over the
    series' highest (the thesis's 1.6), tested by `SATURATED`."""
    loads, beyond = _series(v, r), v.past(_normal(v, r))
    if not loads or not beyond:
        return None
    top, past = loads[-1], beyond[0]
    column = _utilization_column(r)
    cases = []
    for name, label in (("NS", NS), ("SS", r.ss)):
        a, b = v.total(label, past, column), v.total(label, top, column)
        if math.isfinite(a) and math.isfinite(b) and b > 0:
            cases.append((name, f"{b:.3f} -> {a:.3f} ({_pct(a / b)})", SATURATED(a / b)))
    return _found(cases, f"load {top:g} -> {past:g}") if len(cases) == 2 else None


def _gain_grows(v: _View, r: Reading) -> ClaimResult | None:
    loads = _series(v, r)
    if len(loads) < 2:
        return None
    lo, hi = loads[0], loads[-1]
    cases = []
    for col in AVERAGES:
        first = _ratios(v.cat(r.ss, lo, col, "4"), v.cat(NS, lo, col, "4"), CATEGORIES4)
        last = _ratios(v.cat(r.ss, hi, col, "4"), v.cat(NS, hi, col, "4"), CATEGORIES4)
        for c in first:
            if c in last:
                cases.append((f"{c} {SHORT_NAMES[col]}", f"{_pct(first[c])} -> {_pct(last[c])}",
                              last[c] < first[c]))  # fmt: skip
    return _found(cases, f"SS vs NS, load {lo:g} -> {hi:g}") if cases else None


def _per_load(
    a: Callable[[Reading], str | None],
    b: Callable[[Reading], str | None],
    cats: Sequence[str],
    columns: Sequence[str],
    test: Callable[[str, float], bool | tuple[bool, bool]],
    higher: bool = False,
    note: str = "",
) -> Scorer:
    """Per load factor, category of Table 4.1 and column: r = a / b, holding when
    ``test(category, r)`` (``higher``: the upper half of the loads only)."""

    def score(v: _View, r: Reading) -> ClaimResult | None:
        la, lb = a(r), b(r)
        cases = []
        for load in _upper(_series(v, r)) if higher else _series(v, r):
            for col in columns:
                got = _ratios(v.cat(la, load, col, "4"), v.cat(lb, load, col, "4"), cats)
                cases += [(f"load {load:g} {c} {SHORT_NAMES[col]}", _pct(x), test(c, x))
                          for c, x in got.items()]  # fmt: skip
        return _found(cases, note) if cases else None

    return score


def _overall_per_load(v: _View, r: Reading) -> ClaimResult | None:
    cases = []
    for load in _series(v, r):
        for col in ("mean_bounded_slowdown", "mean_turnaround"):
            ss = v.total(r.ss, load, col)
            for name, label in (("NS", NS), ("IS", IS)):
                other = v.total(label, load, col)
                if math.isfinite(ss) and math.isfinite(other) and other > 0:
                    short = SHORT_NAMES["mean_" + col.split("mean_")[1]]
                    cases.append((f"load {load:g} {short} vs {name}", _pct(ss / other),
                                  MUCH_BETTER(ss / other)))  # fmt: skip
    return _found(cases, "SS vs NS and IS, all jobs") if cases else None


def _is_low_utilization(v: _View, r: Reading) -> ClaimResult | None:
    column = _utilization_column(r)
    is_ = [v.total(IS, load, column) for load in _series(v, r)]
    is_ = [x for x in is_ if math.isfinite(x)]
    ns = v.total(NS, _normal(v, r), column)
    if not is_ or not math.isfinite(ns):
        return None
    top = max(is_)
    return _found([("IS highest", f"{top:.3f} vs NS {ns:.3f}", top < ns)],
                   "IS at any load vs NS at normal load")  # fmt: skip


def _lower_for(short: str) -> Callable[[str, float], bool | tuple[bool, bool]]:
    """IS better than SS (r = IS / SS < 1) exactly for the categories in ``short``."""
    keep = set(short.split())
    return lambda c, x: (x < 1.0) == (c in keep)


def _overhead(v: _View, r: Reading) -> ClaimResult | None:
    """SS with overhead against SS without (the reading's estimates: the trace's by
    default), each category."""
    cases = []
    for col in AVERAGES:
        got = _ratios(
            v.cat(r.ss, r.with_overhead, col), v.cat(r.ss, r.without_overhead, col), CATEGORIES
        )
        cases += [(f"{c} {SHORT_NAMES[col]}", _pct(x), NOT_SIGNIFICANT(x))
                  for c, x in got.items()]  # fmt: skip
    return _found(cases, "with vs without overhead") if cases else None


def _high_load_all(v: _View, r: Reading) -> ClaimResult | None:
    cases = []
    for load in _upper(_series(v, r)):
        ss = v.cat(r.ss, load, MEAN_TAT, "4")
        for name, label in (("NS", NS), ("IS", IS)):
            got = _ratios(ss, v.cat(label, load, MEAN_TAT, "4"), CATEGORIES4)
            cases += [(f"load {load:g} {c} vs {name}", _pct(x), MUCH_BETTER(x))
                      for c, x in got.items()]  # fmt: skip
    return _found(cases, "SS turnaround") if cases else None


def _overhead_benefit(v: _View, r: Reading) -> ClaimResult | None:
    """With the suspension overhead: SS's overall average slowdown over NS's and IS's."""
    ss = v.total(r.ss, r.with_overhead, MEAN_SLD)
    cases = []
    for name, label in (("NS", NS), ("IS", IS)):
        other = v.total(label, r.with_overhead, MEAN_SLD)
        if math.isfinite(ss) and math.isfinite(other) and other > 0:
            cases.append((f"SS vs {name}", _pct(ss / other), MUCH_BETTER(ss / other)))
    return _found(cases, "with the overhead, all jobs") if cases else None


def _load_trends(v: _View, r: Reading) -> ClaimResult | None:
    """SS against NS on the same side of 1 at each higher load as at the normal load,
    per category of Table 4.1, slowdown and turnaround."""
    loads = _series(v, r)
    if len(loads) < 2:
        return None
    cases = []
    for col in AVERAGES:
        first = _ratios(v.cat(r.ss, loads[0], col, "4"), v.cat(NS, loads[0], col, "4"),
                        CATEGORIES4)  # fmt: skip
        for load in loads[1:]:
            now = _ratios(v.cat(r.ss, load, col, "4"), v.cat(NS, load, col, "4"), CATEGORIES4)
            for c in now:
                if c in first:
                    cases.append((f"load {load:g} {c} {SHORT_NAMES[col]}",
                                  f"{_pct(now[c])} ({_pct(first[c])})",
                                  (now[c] < 1.0) == (first[c] < 1.0)))  # fmt: skip
    return _found(cases, f"SS vs NS (at load {loads[0]:g})") if cases else None
