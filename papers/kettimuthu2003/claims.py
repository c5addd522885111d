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

The verdict rule is every paper's (`schedsim.app.claims.RULE`). The thesis states
its comparisons in words and bar charts, hardly ever as a number, so each word is read
as a bound on r, a scheme's value over another's (a slowdown, a turnaround time, a
utilization), written in the claim's ``rule`` column and fixed before our numbers were
seen (`schedsim.papers.kettimuthu2003.words` holds the rules):

* **significantly / much** better: r at most 1 / `SIGNIFICANT` (at least 20% lower);
  significantly / much worse, "very high": r at least `SIGNIFICANT` (1.25, the same
  factor the other way); direction only: on the right side of 1;
* **slightly** better: r between 0.8 and 1; slightly worse: between 1 and 1.25 (a
  change, but not a significant one); direction only: the sign alone;
* **comparable**: within a factor `COMPARABLE` (1.1) either way; "better or
  comparable", "without affecting", "does not worsen": r at most 1.1; "does not
  significantly affect": r within a factor 1.25 either way;
* better / worse, improves, an order in SF, "trends similar" (the same side of 1 as
  with accurate estimates): no size said, so reproduced when the order or sign holds;
* a number of the thesis (VS VW's 4000 s and 600 s, "under 3"): within 25% of it
  (`schedsim.app.claims.level`), or the bound it states;
* "saturates at 1.6" (no significant increase beyond it): r = the utilization at the
  thesis's 1.8 over at 1.6 (load factors 1.44 and 1.28), a level within half of the
  12.5% more work offered, either way; direction only: below that rise (`SATURATED`);
* "at higher loads": the load factors above the median of the thesis's series.

**Calibrated rows.** The study's subset (July 1996 at load factor 0.8 on 430 nodes) was
chosen by `schedsim.papers.kettimuthu2003.subset` to fit NS's job mix (Table 2.2), its
slowdowns (Table 2.3, 3.58 overall) and its utilization (0.51); Table 4.2 sums Table
2.2. A fitted value is no evidence: these claims show their cases but are ``not
checked`` (`Calibrated`, the reason in the row). The normal load 0.8 also places the
thesis's loads 1.1-1.8 at 0.88-1.44.

Table 2.2 is read transposed (rows processors, columns run time): as
printed it contradicts Table 4.2, which describes the same jobs, and
transposed it sums to Table 4.2 exactly (kettimuthu2003_subset's docstring
gives the argument). Table 2.3 is read as printed.

Cases and verdicts. A claim is checked on *cases* (a category, a metric, a load
factor...; the ``where`` and ``paper`` columns say which) and needs all of them, most
(more than half) or some (one) as the thesis's words say (`schedsim.app.claims.Need`:
"for the VS categories": all; "for most of the categories": most; "for some short
categories": some). ``holds`` is "k of n" cases reproduced; cases whose runs or jobs
are missing are left out. A claim none of whose runs the study has is left out.
**Headline** claims are those of the abstract and the conclusions (chapter 5): SS's
significant gains in the average and worst-case slowdowns, its better slowdown than
IS for most categories, its benefits with the suspension overhead and with the trace's
estimates, its better utilization under load, and TSS's worst cases with SS's averages.

Readings. A study may also hold other readings of the thesis's SS and TSS,
runs labelled ``SS sf=2`` or ``TSS`` followed by a space and a name (``SS
sf=2 resume=start``, ``TSS averages=running``). Each such name is a
*reading*: the claims on SS at SF 2 or on TSS are scored again with that
reading's runs, in a column group ``schedsim [NAME]``, ``holds [NAME]``,
``status [NAME]`` of ``claims.csv`` (left empty for the claims on neither;
``not checked`` where the reading lacks a run the claim needs). A reading's SS
is ``SS sf=2 NAME`` and its TSS ``TSS NAME``; a reading with a TSS but no
SS of its own sets its TSS against the default SS (a change to TSS alone),
and the trends in SF need ``SS sf=1.5 NAME`` and ``SS sf=5 NAME``. When the report
measured the utilization over the arrival window (`schedsim.papers.kettimuthu2003.load`),
the default and the hold readings are scored again on the claims that read the
utilization with it: the readings ``window=arrivals`` and ``hold=all window=arrivals``.
Section 4.1 does not say which estimates its overhead runs had (it sits in chapter 4, on
the trace's estimates: the default); where the study also ran the overhead with accurate
estimates, each reading whose SS has such runs is scored again on the two overhead claims
from them (``overhead=accurate``, ``hold=all width=formula overhead=accurate``).
``kettimuthu2003-summary.csv`` counts the verdicts per reading over every claim, and
`Scored.results` gives the readings x claims table (a reading's claims on neither with
the default's verdict).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd

from schedsim.app.claims import (
    COLUMNS,
    DIRECTION,
    NOT_CHECKED,
    NOT_REPRODUCED,
    REPRODUCED,
    Claim,
    ClaimResult,
    Need,
    level,
)
from schedsim.model.categories import CATEGORIES, CATEGORIES4
from schedsim.papers.kettimuthu2003.readings import (
    ACCURATE_OVERHEAD,
    ARRIVALS,
    DEFAULT,
    NORMALS,
    Reading,
    normal_name,
    readings,
)
from schedsim.papers.kettimuthu2003.scorers import (
    Scorer,
    _fewer_suspensions,
    _gain_grows,
    _high_load_all,
    _is,
    _is_low_utilization,
    _is_overall,
    _is_worst,
    _load_trends,
    _lower_for,
    _max_over_mean,
    _mix,
    _mix4,
    _ns,
    _overall_per_load,
    _overall_sld,
    _overhead,
    _overhead_benefit,
    _per_load,
    _same_direction,
    _saturation,
    _sf_long,
    _sf_trend,
    _short_wide_high,
    _smaller_gain,
    _ss,
    _table23,
    _tss,
    _tss_keeps_averages,
    _tss_ss,
    _utilization,
    _utilization_vs_ns,
    _versus,
    _vs_vw_turnaround,
    _vs_vw_under_3,
    _worst_is_vs,
)
from schedsim.papers.kettimuthu2003.thesis import (
    THESIS_OVERALL_SLOWDOWN,
    THESIS_UTILIZATION,
)
from schedsim.papers.kettimuthu2003.values import (
    AVERAGES,
    MAX_SLD,
    MAX_TAT,
    MEAN_SLD,
    MEAN_TAT,
    WORST,
    _View,
)
from schedsim.papers.kettimuthu2003.words import (
    ABOVE_1,
    AT_LEAST_COMPARABLE,
    BELOW_SIGNIFICANT,
    BETTER,
    COMP,
    COMPARABLE,
    COMPARABLE_RULE,
    MUCH_BETTER,
    MUCH_WORSE,
    NOT_BETTER,
    NOT_SIGNIFICANT,
    NOT_W,
    NOT_WORSE,
    OTHER_THAN_VS,
    S_,
    SATURATED,
    SHORT_WIDE,
    SIG,
    SIG_WORSE,
    SIGNIFICANT,
    SLIGHT_B,
    SLIGHT_W,
    SLIGHTLY_BETTER,
    SLIGHTLY_WORSE,
    TSS_BETTER,
    UNDER_3,
    VL,
    VS,
    WIDE,
    L,
    better,
    comparable,
    much_better,
    much_worse,
    not_significant,
    not_worse,
    slightly_better,
    slightly_worse,
)

__all__ = [
    "CLAIMS",
    "COLUMNS",
    "COMP",
    "COMPARABLE",
    "FIT",
    "FIT4",
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
    "Calibrated",
    "ClaimResult",
    "L",
    "Scored",
    "Scorer",
    "ThesisClaim",
    "better",
    "claims",
    "comparable",
    "much_better",
    "much_worse",
    "not_significant",
    "not_worse",
    "score_all",
    "slightly_better",
    "slightly_worse",
    "table",
]


#: The verdicts a claim may get, best first (`schedsim.app.claims.RULE`).
STATUSES: tuple[str, ...] = (REPRODUCED, DIRECTION, NOT_REPRODUCED, NOT_CHECKED)
#: Why the baseline's rows are not evidence: the study's subset was chosen to fit them.
FIT = (
    "calibrated, not evidence: the subset (July 1996 at load factor 0.8, 430 nodes) was "
    "chosen by papers/kettimuthu2003/subset.toml to fit Table 2.2, Table 2.3, 3.58 and "
    "0.51"
)
FIT4 = (
    "calibrated, not evidence: Table 4.2 sums Table 2.2, to which the subset was "
    "fitted (papers/kettimuthu2003/subset.toml)"
)
#: The rule of a claim on an order or a sign, which gives no size.
ORDER = "an order (no size said): reproduced when it holds"
SAME_SIDE = "r = SS / NS on the same side of 1 as with accurate estimates (no size said)"


@dataclass(frozen=True)
class Calibrated(Need):
    """The tally of a claim the study was calibrated to: its cases are shown, but a fitted
    value is no evidence, so the claim is ``not checked`` (the reason is its note)."""

    @property
    def text(self) -> str:
        return "not checked: calibrated"

    def verdict(self, hits: int, way: int, n: int) -> str:
        return NOT_CHECKED


@dataclass(frozen=True)
class ThesisClaim:
    """One statement of the thesis: what it says, where, the thesis's value or words, the
    runs it reads (``uses``: "" none of SS at SF 2 or TSS, "ss", "tss" or "sf", the
    trend in SF), its scorer, how many of its cases it needs (``need``: "all", "most" or
    "some", as the thesis's words say), ``rule`` (the numeric reading of each case, the
    ``rule`` column), ``headline`` (a claim of the abstract or the conclusions),
    ``calibrated`` (why a value the study was fitted to is not evidence: the claim is
    then not checked), ``util`` (it reads the utilization: the readings
    ``window=arrivals`` score it again over the arrival window), ``load`` (it reads
    the load series: the reading ``normal=1.0`` scores it again from load factor 1.0)
    and ``overhead`` (it reads the overhead runs: the readings ``overhead=accurate``
    score it again on those made with accurate estimates)."""

    claim: str
    where: str
    paper: str
    uses: str
    score: Scorer = field(compare=False)
    need: str = "all"
    rule: str = ""
    headline: bool = False
    calibrated: str = ""
    util: bool = False
    load: bool = False
    overhead: bool = False

    @property
    def shared(self) -> Claim:
        """The claim in the vocabulary every paper shares."""
        tally = Calibrated(self.need) if self.calibrated else Need(self.need)
        paper = f"{self.paper} [calibrated]" if self.calibrated else self.paper
        return Claim(self.claim, self.where, paper, rule=self.rule, tally=tally,
                     headline=self.headline)  # fmt: skip


_A = "accurate"

#: The thesis's claims, in its order (module docstring for the words' numbers).
CLAIMS: tuple[ThesisClaim, ...] = (
    # -- chapter 2: the workload and NS -------------------------------------
    ThesisClaim("the job mix over the 16 categories is Table 2.2's",
                "section 2.4, Table 2.2 read transposed",
                "shares in whole percents", "", _mix,
                rule="each share within 25% of the thesis's", calibrated=FIT),
    ThesisClaim("the job mix over the 4 categories of the load study is Table 4.2's",
                "section 4.2, Table 4.2", "SN/SW/LN/LW 44/13/30/13%", "", _mix4,
                rule="each share within 25% of the thesis's", calibrated=FIT4),
    ThesisClaim("NS's average slowdown per category is Table 2.3's", "section 2.4, Table 2.3",
                "2.6 (VS Seq) to 34.07 (VS VW)",
                "", _table23,
                rule="each category within 25% of the thesis's", calibrated=FIT),
    ThesisClaim("NS's overall slowdown is 3.58", "section 2.4",
                "3.58", "", _overall_sld,
                rule=level(THESIS_OVERALL_SLOWDOWN).text, calibrated=FIT),
    ThesisClaim("NS's utilization under normal load is 0.51 (\"51 percent\")", "section 2.4",
                "0.51; estimates not said",
                "", _utilization,
                rule=level(THESIS_UTILIZATION).text, calibrated=FIT),
    ThesisClaim("NS's highest category slowdowns are very short jobs' (as high as 34)",
                "section 2.4, Table 2.3", "the highest is VS VW, 34.07", "", _worst_is_vs,
                rule="the highest category is a VS one", calibrated=FIT),
    # -- section 3.1 ---------------------------------------------------------
    ThesisClaim("a higher SF means fewer suspensions", "section 3.1",
                "suspensions fall from SF 1.5 to 2 to 5", "sf", _fewer_suspensions,
                rule=ORDER),
    # -- section 3.4: averages, accurate estimates -----------------------------
    ThesisClaim("SS is significantly better than NS for the VS and S categories",
                "section 3.4, Figures 3.1, 3.2", f"significant benefit ({SIG}); slowdown "
                "and turnaround, 8 categories", "ss",
                _versus(_ss, _ns, _A, (*VS, *S_), AVERAGES, MUCH_BETTER),
                rule=f"r = SS / NS: {MUCH_BETTER.text}", headline=True),
    ThesisClaim("SS is significantly better than NS for the W and VW categories",
                "section 3.4, Figure 3.1 caption, Figure 3.2", f"significant benefit ({SIG}); "
                "VS, S and L rows (VL: slightly worse, below)", "ss",
                _versus(_ss, _ns, _A, [c for c in WIDE if c not in VL], AVERAGES,
                        MUCH_BETTER),
                rule=f"r = SS / NS: {MUCH_BETTER.text}"),
    ThesisClaim("SS is slightly better than NS for most L categories",
                "section 3.4, Figures 3.1, 3.2", f"slight improvement ({SLIGHT_B}) for most",
                "ss", _versus(_ss, _ns, _A, L, AVERAGES, SLIGHTLY_BETTER), "most",
                rule=f"r = SS / NS: {SLIGHTLY_BETTER.text}"),
    ThesisClaim("SS is slightly worse than NS for the VL categories",
                "section 3.4, Figures 3.1, 3.2", f"slight deterioration ({SLIGHT_W})", "ss",
                _versus(_ss, _ns, _A, VL, AVERAGES, SLIGHTLY_WORSE),
                rule=f"r = SS / NS: {SLIGHTLY_WORSE.text}"),
    ThesisClaim("VS VW: SS (SF 2) brings the slowdown from 34 under 3", "section 3.4",
                "34 (NS) -> under 3 (SS)", "ss", _vs_vw_under_3,
                rule=f"SS's slowdown {UNDER_3.text}"),
    ThesisClaim("VS VW: SS (SF 2) brings the turnaround time from 4000 s to 600 s",
                "section 3.4", "4000 s (NS) -> 600 s (SS)", "ss", _vs_vw_turnaround,
                rule="NS within 25% of 4000 s, SS within 25% of 600 s"),
    ThesisClaim("a lower SF lowers the VS and S slowdowns and turnaround times", "section 3.4",
                "lower SF, lower values: SF 1.5 < 2 < 5", "sf", _sf_trend((*VS, *S_), True),
                rule=ORDER),
    ThesisClaim("a lower SF lowers L's too, less markedly", "section 3.4",
                "same trend, less pronounced than VS and S", "sf", _sf_long,
                rule=ORDER + "; less pronounced: mean |ln(SF 5 / SF 1.5)| below VS and S's"),
    ThesisClaim("a lower SF raises the VL slowdowns and turnaround times", "section 3.4",
                "opposite trend: SF 1.5 > 2 > 5", "sf", _sf_trend(VL, False),
                rule=ORDER),
    ThesisClaim("IS is better than SS for the VS categories", "section 3.4, Figures 3.1, 3.2",
                "IS better for the VS length category", "ss",
                _versus(_is, _ss, _A, VS, AVERAGES, BETTER),
                rule=f"r = IS / SS: {BETTER.text}"),
    ThesisClaim("SS is better than IS for every other category",
                "section 3.4, Figures 3.1, 3.2", "IS worse for the other categories", "ss",
                _versus(_ss, _is, _A, OTHER_THAN_VS, AVERAGES, BETTER),
                rule=f"r = SS / IS: {BETTER.text}"),
    ThesisClaim("SS gives a better slowdown than IS for most job categories",
                "chapter 5 (conclusions); section 3.4, Figure 3.1",
                "better slowdown for most job categories", "ss",
                _versus(_ss, _is, _A, CATEGORIES, (MEAN_SLD,), BETTER), "most",
                rule=f"r = SS / IS: {BETTER.text}", headline=True),
    ThesisClaim("IS's overall slowdown is well below NS's but not below SS's", "section 3.4",
                f"considerably less than NS ({SIG}), not better than SS", "ss", _is_overall,
                rule=f"IS / NS {MUCH_BETTER.text}; IS / SS {NOT_BETTER.text}"),
    ThesisClaim("under IS the VW and VL categories get significantly worse than under NS",
                "section 3.4", f"significantly worse ({SIG_WORSE}); 7 categories", "",
                _versus(_is, _ns, _A, sorted(set(WIDE[1::2]) | set(VL), key=CATEGORIES.index),
                        AVERAGES, MUCH_WORSE),
                rule=f"r = IS / NS: {MUCH_WORSE.text}"),
    # -- section 3.5: worst cases --------------------------------------------
    ThesisClaim("SS's worst cases are much better than NS's for most categories",
                "section 3.5, Figures 3.3, 3.4", f"much better ({SIG}) for most", "ss",
                _versus(_ss, _ns, _A, CATEGORIES, WORST, MUCH_BETTER), "most",
                rule=f"r = SS / NS: {MUCH_BETTER.text}", headline=True),
    ThesisClaim("SS's worst cases are at most slightly worse than NS's for the VL categories",
                "section 3.5, Figures 3.3, 3.4", f"slightly worse for some VL categories "
                f"(here: none {SIG_WORSE})", "ss",
                _versus(_ss, _ns, _A, VL, WORST, BELOW_SIGNIFICANT),
                rule=f"r = SS / NS: {BELOW_SIGNIFICANT.text}"),
    ThesisClaim("SS's worst cases are much better than IS's except for the VS categories",
                "section 3.5, Figures 3.3, 3.4 captions", f"much better ({SIG})", "ss",
                _versus(_ss, _is, _A, OTHER_THAN_VS, WORST, MUCH_BETTER),
                rule=f"r = SS / IS: {MUCH_BETTER.text}"),
    ThesisClaim("IS's worst-case slowdowns are low for VS and very high for L and VL",
                "section 3.5, Figure 3.3", f"VS: below SS; L, VL: {SIG_WORSE} than NS", "ss",
                _is_worst,
                rule=f"VS: IS / SS {BETTER.text}; L, VL: IS / NS {MUCH_WORSE.text}"),
    ThesisClaim("SS's worst-case slowdowns are much higher than its averages for some "
                "short categories", "section 3.5, Figure 3.3",
                f"much higher ({SIG_WORSE}); VS and S", "ss", _max_over_mean, "some",
                rule=f"r = worst / average: {MUCH_WORSE.text}"),
    # -- section 3.5.2: TSS -------------------------------------------------------
    ThesisClaim("TSS improves the worst-case slowdown of VL W, VL VW, L N, VS Seq, VS N "
                "and S Seq", "section 3.5.2, Figure 3.5", "TSS below SS", "tss",
                _versus(_tss, _tss_ss, _A, TSS_BETTER, (MAX_SLD,), BETTER),
                rule=f"r = TSS / SS: {BETTER.text}"),
    ThesisClaim("TSS does not worsen the other categories' worst-case slowdowns",
                "section 3.5.2, Figure 3.5", f"TSS {NOT_W} than SS", "tss",
                _versus(_tss, _tss_ss, _A, [c for c in CATEGORIES if c not in TSS_BETTER],
                        (MAX_SLD,), NOT_WORSE),
                rule=f"r = TSS / SS: {NOT_WORSE.text}"),
    ThesisClaim("TSS improves the worst-case slowdown of the VL categories",
                "section 3.5.2, Figure 3.5 caption", "TSS below SS", "tss",
                _versus(_tss, _tss_ss, _A, VL, (MAX_SLD,), BETTER),
                rule=f"r = TSS / SS: {BETTER.text}", headline=True),
    ThesisClaim("TSS improves the worst-case turnaround time of most categories",
                "section 3.5.2, Figure 3.6", "TSS below SS for most", "tss",
                _versus(_tss, _tss_ss, _A, CATEGORIES, (MAX_TAT,), BETTER), "most",
                rule=f"r = TSS / SS: {BETTER.text}"),
    ThesisClaim("TSS does not worsen any category's worst-case turnaround time",
                "section 3.5.2, Figure 3.6", f"TSS {NOT_W} than SS, every category", "tss",
                _versus(_tss, _tss_ss, _A, CATEGORIES, (MAX_TAT,), NOT_WORSE),
                rule=f"r = TSS / SS: {NOT_WORSE.text}"),
    ThesisClaim("TSS keeps SS's gains in the averages", "section 3.5",
                f"without losing the improvement in the averages (TSS {NOT_W} than SS)",
                "tss", _tss_keeps_averages,
                rule=f"r = TSS / SS: {NOT_WORSE.text}", headline=True),
    # -- chapter 4: the trace's estimates -----------------------------------------
    ThesisClaim("with the trace's estimates SS improves the average slowdown of most "
                "categories", "chapter 4, Figure 4.1", "SS below NS for most", "ss",
                _versus(_ss, _ns, "trace", CATEGORIES, (MEAN_SLD,), BETTER), "most",
                rule=f"r = SS / NS: {BETTER.text}", headline=True),
    ThesisClaim("with the trace's estimates SS does not worsen any category's average "
                "slowdown", "chapter 4, Figure 4.1",
                f"SS {NOT_W} than NS, every category", "ss",
                _versus(_ss, _ns, "trace", CATEGORIES, (MEAN_SLD,), NOT_WORSE),
                rule=f"r = SS / NS: {NOT_WORSE.text}"),
    ThesisClaim("the trends with the trace's estimates are those with accurate ones",
                "chapter 4, Figures 4.1, 4.2 captions", "similar trends (SS vs NS: the "
                "same direction) for most", "ss",
                _same_direction("all", CATEGORIES, AVERAGES), "most",
                rule=SAME_SIDE),
    ThesisClaim("with the trace's estimates the short wide categories have high slowdowns "
                "under SS", "chapter 4, Figure 4.1", "quite high compared to the other "
                "categories (here: above their median)", "ss", _short_wide_high,
                rule="above the median of the 16 categories' slowdowns"),
    ThesisClaim("with the trace's estimates IS is better than SS for the VS categories",
                "chapter 4, Figure 4.1", "IS's slowdown below SS's", "ss",
                _versus(_is, _ss, "trace", VS, (MEAN_SLD,), BETTER),
                rule=f"r = IS / SS: {BETTER.text}"),
    ThesisClaim("with the trace's estimates SS is much better than IS for the other "
                "categories", "chapter 4, Figure 4.1",
                f"much better ({SIG})", "ss",
                _versus(_ss, _is, "trace", OTHER_THAN_VS, (MEAN_SLD,), MUCH_BETTER),
                rule=f"r = SS / IS: {MUCH_BETTER.text}"),
    ThesisClaim("with the trace's estimates SS's turnaround gain for the short wide "
                "categories is smaller than with accurate ones", "chapter 4, Figure 4.2",
                "much less improvement (here: less)", "ss",
                _smaller_gain(MEAN_TAT, SHORT_WIDE, "accurate"),
                rule="SS / NS higher with the trace's estimates than with accurate ones"),
    ThesisClaim("SS's higher VS slowdowns come from the poorly estimated jobs",
                "chapter 4, Figures 4.3, 4.4", "SS's gain over NS smaller for poorly than "
                "for well estimated VS jobs", "ss", _smaller_gain(MEAN_SLD, VS, "well"),
                rule="SS / NS higher for poorly than for well estimated jobs"),
    ThesisClaim("well-estimated jobs: SS is better than or comparable to IS for VS",
                "chapter 4, Figure 4.3", f"better or comparable (SS {NOT_W})", "ss",
                _versus(_ss, _is, "trace", VS, (MEAN_SLD,), NOT_WORSE, estimate="well"),
                rule=f"r = SS / IS: {NOT_WORSE.text}"),
    ThesisClaim("well-estimated jobs: SS outperforms IS in all other categories",
                "chapter 4, Figures 4.3, 4.5", "SS below IS, slowdown and turnaround", "ss",
                _versus(_ss, _is, "trace", OTHER_THAN_VS, AVERAGES, BETTER, estimate="well"),
                rule=f"r = SS / IS: {BETTER.text}"),
    ThesisClaim("well-estimated jobs: SS's VS turnaround times are comparable to IS's",
                "chapter 4, Figure 4.5", f"comparable ({COMP})", "ss",
                _versus(_ss, _is, "trace", VS, (MEAN_TAT,), COMPARABLE_RULE, estimate="well"),
                rule=f"r = SS / IS: {COMPARABLE_RULE.text}"),
    ThesisClaim("well-estimated jobs: S, L and VL trends are those with accurate estimates",
                "chapter 4, Figures 4.3, 4.5", "similar (SS vs NS: the same direction) for "
                "most", "ss", _same_direction("well", (*S_, *L, *VL), AVERAGES), "most",
                rule=SAME_SIDE),
    ThesisClaim("poorly estimated jobs: S, L and VL trends are those with accurate estimates",
                "chapter 4, Figure 4.4", "similar (SS vs NS: the same direction) for most",
                "ss", _same_direction("poor", (*S_, *L, *VL), (MEAN_SLD,)), "most",
                rule=SAME_SIDE),
    ThesisClaim("SS penalizes the poorly estimated short jobs (turnaround)",
                "chapter 4, Figures 4.5, 4.6", "SS's gain over NS for the short wide "
                "categories smaller for poorly than for well estimated jobs", "ss",
                _smaller_gain(MEAN_TAT, SHORT_WIDE, "well"),
                rule="SS / NS higher for poorly than for well estimated jobs"),
    # -- section 4.1: overhead ----------------------------------------------------
    ThesisClaim("the suspension overhead does not significantly affect SS",
                "section 4.1, Figures 4.7, 4.8",
                "no significant change (with / without overhead within a factor "
                f"{SIGNIFICANT:g}), every category", "ss", _overhead,
                rule=f"r = with / without overhead: {NOT_SIGNIFICANT.text}", overhead=True),
    ThesisClaim("with the suspension overhead SS is significantly better than NS and IS",
                "chapter 5 (conclusions); section 4.1, Figures 4.7, 4.8",
                "significant benefits over NS and IS even under stringent assumptions about "
                f"the bandwidth to disk ({SIG}: the overall average slowdown)", "ss",
                _overhead_benefit, rule=f"r = SS / NS and SS / IS: {MUCH_BETTER.text}",
                headline=True, overhead=True),
    # -- section 4.2: load ------------------------------------------------------
    ThesisClaim("SS's utilization is better than or comparable to NS's at every load",
                "section 4.2, Figure 4.9", f"better or comparable (SS above NS or "
                f"{COMP})", "ss",
                _utilization_vs_ns(AT_LEAST_COMPARABLE, "SS", False),
                rule=f"r = SS / NS: {AT_LEAST_COMPARABLE.text}", util=True, load=True),
    ThesisClaim("SS achieves a better utilization than NS at higher loads",
                "section 4.2, Figure 4.9", "SS above NS (loads above the median)", "ss",
                _utilization_vs_ns(ABOVE_1, "SS", True),
                rule=f"r = SS / NS: {ABOVE_1.text}", headline=True, util=True, load=True),
    ThesisClaim("IS's utilization is much lower than NS's", "section 4.2, Figure 4.9",
                f"very low, much worse ({SIG}), every load", "",
                _utilization_vs_ns(MUCH_BETTER, "IS", False),
                rule=f"r = IS / NS: {MUCH_BETTER.text}", util=True, load=True),
    ThesisClaim("the machine saturates at load 1.6", "section 4.2, Figure 4.9",
                "no significant increase in the utilization, SS's and NS's, beyond 1.6 (here: "
                "from 1.6 to 1.8, load factors 1.28 to 1.44, 12.5% more work offered: a level "
                "within half that rise, either way)", "ss", _saturation,
                rule=f"r = utilization at 1.8 / at 1.6: {SATURATED.text}", util=True, load=True),
    ThesisClaim("SS's improvements are more pronounced under high load",
                "section 4.2, Figures 4.10, 4.11", "SS vs NS lower at the highest load than "
                "at normal load, each category", "ss", _gain_grows,
                rule="SS / NS lower at the highest load than at the normal load", load=True),
    ThesisClaim("the trends per category under higher loads are those under the normal load",
                "section 4.2, Figures 4.10, 4.11", "similar trends (SS vs NS: the same "
                "direction as at the normal load) for most", "ss", _load_trends, "most",
                rule="r = SS / NS on the same side of 1 as at the normal load (no size said)",
                load=True),
    ThesisClaim("SS benefits the short jobs significantly at every load",
                "section 4.2, Figures 4.10, 4.11", f"significant benefit ({SIG}) for SN, SW",
                "ss", _per_load(_ss, _ns, ("SN", "SW"), AVERAGES,
                                lambda c, x: MUCH_BETTER(x)),
                rule=f"r = SS / NS: {MUCH_BETTER.text}", load=True),
    ThesisClaim("SS does not worsen the long jobs at any load", "section 4.2, Figures 4.10, "
                "4.11",
                f"LN, LW: SS {NOT_W} than NS", "ss",
                _per_load(_ss, _ns, ("LN", "LW"), AVERAGES, lambda c, x: NOT_WORSE(x)),
                rule=f"r = SS / NS: {NOT_WORSE.text}", load=True),
    ThesisClaim("IS beats SS only for SN in turnaround time", "section 4.2, Figure 4.11",
                "IS below SS for SN, not for SW, LN, LW; every load", "ss",
                _per_load(_is, _ss, CATEGORIES4, (MEAN_TAT,), _lower_for("SN")),
                rule="IS / SS below 1 exactly for SN", load=True),
    ThesisClaim("IS beats SS only for SN and SW in slowdown", "section 4.2, Figure 4.10",
                "IS below SS for SN and SW, not for LN, LW; every load", "ss",
                _per_load(_is, _ss, CATEGORIES4, (MEAN_SLD,), _lower_for("SN SW")),
                rule="IS / SS below 1 exactly for SN and SW", load=True),
    ThesisClaim("IS is much worse for the long jobs", "section 4.2, Figures 4.10, 4.11",
                f"much worse than SS ({SIG_WORSE}) for LN, LW; every load", "ss",
                _per_load(_is, _ss, ("LN", "LW"), AVERAGES, lambda c, x: MUCH_WORSE(x)),
                rule=f"r = IS / SS: {MUCH_WORSE.text}", load=True),
    ThesisClaim("SS is much better than both IS and NS at every load",
                "section 4.2, Figures 4.12, 4.13", f"much better ({SIG}), all jobs", "ss",
                _overall_per_load,
                rule=f"r = SS / NS and SS / IS: {MUCH_BETTER.text}", load=True),
    ThesisClaim("even at high utilization SS gives much better response times for all "
                "categories", "section 4.2, Figures 4.12, 4.13",
                f"turnaround {SIG} than NS and than IS, loads above the median", "ss",
                _high_load_all,
                rule=f"r = SS / NS and SS / IS: {MUCH_BETTER.text}", load=True),
    ThesisClaim("IS cannot achieve a high utilization", "section 4.2, Figures 4.12, 4.13",
                "IS's highest utilization (any load) below NS's at normal load", "",
                _is_low_utilization,
                rule="IS's highest utilization below NS's at the normal load", util=True,
                load=True),
)  # fmt: skip


#: What a claim reads (``ThesisClaim.uses``), as the ``reads`` column says it.
READS: dict[str, str] = {"": "NS, IS", "ss": "SS sf=2", "tss": "TSS", "sf": "SS sf=1.5/2/5"}


def _applies(claim: ThesisClaim, r: Reading) -> bool | None:
    """Whether reading ``r`` scores ``claim``: None when the reading does not define its
    runs (the default's result stands; for a ``window=arrivals`` or ``overhead=accurate``
    reading, its base reading's), False when it lacks a run the claim needs (not checked:
    not run)."""
    if r.overhead != "trace":
        return True if claim.overhead else None
    if r.window != "run":
        return True if claim.util else None
    if r.normal is not None:
        return True if claim.load else None
    if r.name == DEFAULT:
        return True
    uses = claim.uses
    if uses == "":
        return None
    if uses == "tss":
        return True if r.tss else None
    if r.ss is None:
        return None
    return bool(r.sf15 and r.sf5) if uses == "sf" else True


@dataclass
class Scored:
    """The claims scored under every reading: ``readings`` (the default first), ``claims``
    (those some reading has runs for) and ``own`` (per reading name, per claim, its
    result, None where the reading does not define the claim's runs; a result without
    cases where it lacks one)."""

    readings: list[Reading]
    claims: list[ThesisClaim]
    own: dict[str, list[ClaimResult | None]]

    def base(self, r: Reading) -> str:
        """The reading whose results ``r`` takes where it defines none."""
        # The last word of its name says what it reads otherwise than its base.
        if r.window != "run":
            suffix = ARRIVALS
        elif r.overhead != "trace":
            suffix = ACCURATE_OVERHEAD
        elif r.normal is not None:
            suffix = normal_name(r.normal)
        else:
            return DEFAULT
        return r.name[: -len(suffix)].strip() or DEFAULT

    def results(self, name: str) -> list[ClaimResult]:
        """Every claim's result under reading ``name``: its own, else its base's."""
        r = next(x for x in self.readings if x.name == name)
        own = self.own[name]
        if name == DEFAULT:
            return [x for x in own if x is not None]
        base = self.results(self.base(r))
        return [x if x is not None else b for x, b in zip(own, base, strict=True)]


def _result(claim: ThesisClaim, found: ClaimResult | None) -> ClaimResult:
    """The scorer's result under the claim (no cases: the runs are missing; a calibrated
    claim's note says why it is not evidence)."""
    if found is None:
        return ClaimResult(claim.shared, [], "not run in this reading")
    note = "; ".join(x for x in (claim.calibrated, found.note) if x)
    return replace(found, claim=claim.shared, note=note)


def score_all(overall: pd.DataFrame, cats: pd.DataFrame) -> Scored:
    """The thesis's claims (module docstring) scored under every reading from the runs'
    overall values (`overall_values`, with ``utilization_arrivals`` where the report
    measured it: then the ``window=arrivals`` readings too) and per-category ones
    (`category_values`)."""
    v = _View(overall, cats)
    order = list(dict.fromkeys([*overall["label"].astype(str), *cats["label"].astype(str)]))
    windows = "utilization_arrivals" in overall and overall["utilization_arrivals"].notna().any()
    normals = {
        x: [label for label in order if len(v.series(x, label)) > 1]
        for x in NORMALS
        if x != v.normal.get("trace")
    }
    accurate = [
        x for x in order if math.isfinite(v.total(x, "overhead, accurate", "mean_bounded_slowdown"))
    ]
    reads = readings(order, windows=bool(windows), normals=normals, accurate_overhead=accurate)
    kept: list[ThesisClaim] = []
    own: dict[str, list[ClaimResult | None]] = {r.name: [] for r in reads}
    for claim in CLAIMS:
        found: dict[str, ClaimResult | None] = {}
        for r in reads:
            applies = _applies(claim, r)
            got = claim.score(v, r) if applies else None
            found[r.name] = None if applies is None else _result(claim, got)
        if any(x is not None and x.cases for x in found.values()):
            kept.append(claim)
            for name, x in found.items():
                own[name].append(x)
    return Scored(reads, kept, own)


def table(scored: Scored) -> pd.DataFrame:
    """The claims table: `COLUMNS` and ``rule`` (the default reading's), a
    ``schedsim``/``holds``/``status`` group per other reading (``schedsim [NAME]``...,
    blank where the reading does not define the claim's runs), ``reads`` (the runs the
    claim reads) and ``headline``."""
    rows = []
    for i, claim in enumerate(scored.claims):
        row: dict[str, Any] = {"claim": claim.claim, "where": claim.where,
                               "paper": claim.shared.paper}  # fmt: skip
        for r in scored.readings:
            x = scored.own[r.name][i]
            tag = "" if r.name == DEFAULT else f" [{r.name}]"
            cells = ("", "", "") if x is None else (x.text(shown=8), x.holds, x.status)
            row.update(dict(zip((f"schedsim{tag}", f"holds{tag}", f"status{tag}"), cells,
                                strict=True)))  # fmt: skip
        row["rule"] = claim.rule
        row["reads"] = READS[claim.uses]
        row["headline"] = claim.headline
        rows.append(row)
    extra = [f"{c} [{r.name}]" for r in scored.readings[1:]
             for c in ("schedsim", "holds", "status")]  # fmt: skip
    return pd.DataFrame(rows, columns=[*COLUMNS, *extra, "rule", "reads", "headline"])


def claims(overall: pd.DataFrame, cats: pd.DataFrame) -> pd.DataFrame:
    """The claims table (`table`) of the claims scored from ``overall`` and ``cats``
    (`score_all`). A claim none of whose readings has its runs is left out."""
    return table(score_all(overall, cats))
