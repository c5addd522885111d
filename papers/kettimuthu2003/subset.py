"""Kettimuthu 2003: which "subset of the CTC workload trace" the thesis used, by a search.

The thesis (section 2.4, "Workload Characterization") simulates "a subset
of the CTC workload trace" on "a 430 node IBM SP2" without saying which. It
does give what its No-Suspension baseline (NS: EASY backfilling, FCFS
priority, no preemption, accurate estimates) did on that subset, and a
candidate subset is judged by how close its NS run comes to those numbers:

* Table 2.2, the share of the jobs in each of the 16 categories of Table 2.1
  (`THESIS_MIX`), whole percents;
* Table 2.3, the average bounded slowdown (10 s) of each category
  (`THESIS_SLOWDOWN`), and the text beside it: "The overall slowdown was 3.58";
* section 2.4: "with the standard non-preemptive aggressive backfilling
  strategy, using FCFS as the scheduling priority, the utilization was 51
  percent" (the text gives no other number for it; Figure 4.9's values are
  not in the text);
* Table 4.2, the share of the jobs in the 4 categories of Table 4.1
  (SN/SW/LN/LW 44/13/30/13%): a check that does not depend on how Table 2.2
  is read.

Table 2.2 is printed with its axes swapped. Read as its headers say (rows
run time, columns processors) it disagrees with Table 4.2, which describes
the same jobs: its SW (<= 1 h, > 8 processors) sums to 30% and its LN to
13%, where Table 4.2 has 13% and 30%. Read transposed (rows processors,
columns run time) it sums to Table 4.2 in all four cells, and it matches
the CTC log: VS, S, L and VL sequential jobs are then 14, 8, 13 and 9% of
the jobs, against 13.2, 8.3, 12.5 and 8.5% in July 1996, where as printed
they would be 14, 18, 6 and 2%. Every month of the log is much nearer the
transposed table (13 to 43 percentage points in all) than the printed one
(51 to 77). So `THESIS_MIX` is the transpose of the printed table
(`THESIS_MIX_AS_PRINTED`); the search table keeps the distance to the
printed one too. Table 2.3 is read as printed: its slowdowns fall with run
time, from 2.6-34 below 10 minutes to about 1 beyond 8 hours, as in every
run here (transposed, they would grow with run time).

Each candidate is an NS run of a subset (a month of the log at a load
factor: ``month`` and ``load_factor`` are the only configuration columns a
study for this report may vary), averaged over replications. Its distances
to the thesis (choices, the thesis giving none):

``mix_distance``
    sum over the 16 categories of abs(share - Table 2.2 share), in percentage
    points (0 to 200): the simplest reading of "how different are two
    mixes", and twice the share of the jobs that would have to change
    category to turn one into the other.
``category_distance``
    mean over the categories that have jobs of abs(ln(slowdown / Table 2.3
    slowdown)): a ratio, so that 34 against 17 counts as much as 2 against
    1 (an absolute difference would let the very short wide jobs, slowdowns
    in the tens, outweigh the other 15 categories).
``score`` (smaller is better)
    mix_distance / 200 + abs(ln(utilization / 0.51)) + (abs(ln(slowdown / 3.58)) +
    category_distance) / 2: the thesis makes three statements about its
    subset, the job mix, the utilization and the slowdowns, and each counts
    once, as a relative error (the first term is the share of the jobs in
    the wrong category; the others are log ratios, ln 1.1 = 0.095 for 10%
    off). The overall slowdown and the per-category ones are halves of one
    statement: the overall one is the mix-weighted mean of Table 2.3's, so
    counting both in full would weigh the slowdowns twice (four equal
    terms rank first, on its slowdowns, a month whose job mix is nearly
    twice as far from Table 2.2: `papers/kettimuthu2003/subset.toml` has the
    numbers). The job mix depends on the month alone, the utilization and
    the slowdowns mostly on the load factor: the month is chosen by the mix
    and the per-category slowdowns, the load factor by the utilization and
    the slowdowns.

The chosen subset is the candidate of least score. `claims` sets it against
the thesis with tolerances of this module's choosing: every share within
`MIX_TOLERANCE` percentage points (Table 2.2 rounds to whole percents,
+-0.5, and months differ from each other by up to 10 points in a cell), the
utilization within `UTILIZATION_TOLERANCE`, slowdowns within a factor
`SLOWDOWN_FACTOR`; ``holds`` counts the cases within them. Each claim's
verdict is ``not checked``: the subset was chosen to fit these values, so they
are calibrated, not evidence (the study's claims, `schedsim.papers.kettimuthu2003.claims`,
mark the same rows so).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from schedsim.app.claims import NOT_CHECKED
from schedsim.model.categories import CATEGORIES, CATEGORIES4
from schedsim.papers.kettimuthu2003.thesis import (
    MIX_TOLERANCE,
    SLOWDOWN_FACTOR,
    THESIS_MIX,
    THESIS_MIX4,
    THESIS_MIX_AS_PRINTED,
    THESIS_OVERALL_SLOWDOWN,
    THESIS_SLOWDOWN,
    THESIS_UTILIZATION,
    UTILIZATION_TOLERANCE,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from schedsim.app.report.study_results import StudyResults

__all__ = [
    "UNITS",
    "WHOLE_LOG",
    "candidates",
    "category_distance",
    "category_table",
    "claims",
    "mix_distance",
    "score",
    "search",
    "search_figure",
    "write",
]


#: The search table's columns and their units (CSV headers).
UNITS: dict[str, str] = {
    "jobs": "jobs",
    "mix_distance": "pp",
    "mix_distance_as_printed": "pp",
    "mix4_distance": "pp",
    "utilization": "fraction",
    "mean_bounded_slowdown": "ratio",
    "category_distance": "mean |ln ratio|",
    "score": "dimensionless",
    "share": "%",
    "thesis_share": "%",
    "thesis_share_as_printed": "%",
    "thesis_mean_bounded_slowdown": "ratio",
    "log_ratio": "ln ratio",
}
WHOLE_LOG = "whole log"


# --------------------------------------------------------------------------- #
# Distances and the score
# --------------------------------------------------------------------------- #


def mix_distance(shares: ArrayLike, thesis: ArrayLike = THESIS_MIX) -> float:
    """Sum of abs(share - thesis share) over the categories, in percentage points."""
    a, b = np.asarray(shares, dtype=float), np.asarray(thesis, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"{len(a)} shares against {len(b)} of the thesis")
    return float(np.abs(a - b).sum())


def category_distance(slowdowns: ArrayLike, thesis: ArrayLike = THESIS_SLOWDOWN) -> float:
    """Mean abs(ln(slowdown / thesis slowdown)) over the categories where both are positive
    (a category without jobs is NaN and left out); NaN if there is none."""
    a, b = np.asarray(slowdowns, dtype=float), np.asarray(thesis, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"{len(a)} slowdowns against {len(b)} of the thesis")
    ok = (a > 0) & (b > 0)  # NaN compares False
    return float(np.mean(np.abs(np.log(a[ok] / b[ok])))) if ok.any() else math.nan


def score(mix: float, utilization: float, slowdown: float, categories: float) -> float:
    """The combined score (module docstring): mix / 200 + abs(ln(u / 0.51)) +
    (abs(ln(s / 3.58)) + categories) / 2; smaller is better."""
    slowdowns = abs(math.log(slowdown / THESIS_OVERALL_SLOWDOWN)) + categories
    return mix / 200.0 + abs(math.log(utilization / THESIS_UTILIZATION)) + slowdowns / 2.0


# --------------------------------------------------------------------------- #
# The candidates of a study
# --------------------------------------------------------------------------- #


def _keyed(frame: pd.DataFrame) -> pd.DataFrame:
    """``month`` as text (unset: the whole log) and ``load_factor`` as a number (unset: 1)."""
    out = frame.copy()
    month = out["month"] if "month" in out else pd.Series(None, index=out.index, dtype=object)
    out["month"] = month.astype(object).where(month.notna(), WHOLE_LOG).astype(str)
    load = out["load_factor"] if "load_factor" in out else pd.Series(np.nan, index=out.index)
    out["load_factor"] = load.astype(float).fillna(1.0)
    return out


def candidates(results: StudyResults) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The subsets of a study, averaged over replications: (runs, 16 categories, 4).

    ``runs``: ``month``, ``load_factor``, ``utilization``,
    ``mean_bounded_slowdown`` (a subset's jobs are the sum over its categories). The
    category tables (`StudyResults.category_summary`,
    which classifies the jobs as `Result.category_table` does): ``month``,
    ``load_factor``, ``category``, ``jobs`` and, for the 16 categories,
    ``mean_bounded_slowdown``. ValueError if another configuration column than the
    month and the load factor varies: then a subset would name several runs.
    """
    others = [c for c in results.varying() if c not in ("month", "load_factor")]
    if others:
        raise ValueError(
            f"study {results.name!r}: a subset search compares NS runs that differ only in "
            f"month and load_factor; {', '.join(others)} vary too"
        )
    by = [c for c in ("month", "load_factor") if c in results.runs]
    runs = results.aggregate(["utilization", "mean_bounded_slowdown"], by=by)
    runs = runs.rename(columns=lambda c: c[: -len("_mean")] if c.endswith("_mean") else c)
    runs = _keyed(runs)[["month", "load_factor", "utilization", "mean_bounded_slowdown"]]
    cats16 = results.category_summary("16", None, ["bounded_slowdown"], ["mean"], by=by)
    cats4 = results.category_summary("4", None, ["bounded_slowdown"], [], by=by)
    cats16 = _keyed(cats16)[["month", "load_factor", "category", "jobs", "mean_bounded_slowdown"]]
    cats4 = _keyed(cats4)[["month", "load_factor", "category", "jobs"]]
    return runs.reset_index(drop=True), cats16, cats4


def _shares(cats: pd.DataFrame, labels: Sequence[str]) -> np.ndarray:
    """Percent of the jobs per category (in ``labels`` order) of one subset's rows."""
    jobs = cats.set_index(cats["category"].astype(str))["jobs"].reindex(list(labels))
    counts = np.nan_to_num(jobs.to_numpy(dtype=float))  # a category of no jobs: 0
    total = counts.sum()
    return 100.0 * counts / total if total > 0 else np.full(len(labels), math.nan)


def _slowdowns(cats: pd.DataFrame) -> np.ndarray:
    frame = cats.set_index(cats["category"].astype(str))["mean_bounded_slowdown"]
    return frame.reindex(list(CATEGORIES)).to_numpy(dtype=float)


def search(runs: pd.DataFrame, cats16: pd.DataFrame, cats4: pd.DataFrame) -> pd.DataFrame:
    """The search table: one row per subset (as `candidates` gives them), its distances
    to the thesis and its score, best first, with ``rank`` (1 = chosen) and
    ``chosen``. A subset without a finite score (no jobs, no utilization) comes last."""
    rows: list[dict[str, Any]] = []
    for r in runs.itertuples(index=False):
        here16 = cats16[(cats16["month"] == r.month) & (cats16["load_factor"] == r.load_factor)]
        here4 = cats4[(cats4["month"] == r.month) & (cats4["load_factor"] == r.load_factor)]
        shares = _shares(here16, CATEGORIES)
        mix = mix_distance(shares)
        cat = category_distance(_slowdowns(here16))
        util, bsld = float(r.utilization), float(r.mean_bounded_slowdown)
        finite = all(math.isfinite(v) and v > 0 for v in (util, bsld)) and math.isfinite(mix)
        rows.append(
            {
                "month": r.month,
                "load_factor": float(r.load_factor),
                "jobs": float(here16["jobs"].sum()),
                "mix_distance": mix,
                "mix_distance_as_printed": mix_distance(shares, THESIS_MIX_AS_PRINTED),
                "mix4_distance": mix_distance(_shares(here4, CATEGORIES4), THESIS_MIX4),
                "utilization": util,
                "mean_bounded_slowdown": bsld,
                "category_distance": cat,
                "score": score(mix, util, bsld, cat) if finite else math.nan,
            }
        )
    columns = ["rank", "month", "load_factor", "jobs", "mix_distance", "mix_distance_as_printed",
               "mix4_distance", "utilization", "mean_bounded_slowdown", "category_distance",
               "score", "chosen"]  # fmt: skip
    if not rows:
        return pd.DataFrame(columns=columns)
    table = pd.DataFrame(rows).sort_values(
        ["score", "month", "load_factor"], na_position="last", kind="stable"
    )
    table = table.reset_index(drop=True)
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    table["chosen"] = (table["rank"] == 1) & table["score"].notna()
    return table[columns]


def category_table(
    cats16: pd.DataFrame, cats4: pd.DataFrame, month: str, load_factor: float
) -> pd.DataFrame:
    """One subset beside the thesis, per category: its share of the jobs and mean
    bounded slowdown against Tables 2.2 (read transposed, and as printed) and 2.3,
    the 16 categories and then the 4 of Table 4.2 (no slowdowns there)."""
    here16 = cats16[(cats16["month"] == month) & (cats16["load_factor"] == load_factor)]
    here4 = cats4[(cats4["month"] == month) & (cats4["load_factor"] == load_factor)]
    slow = _slowdowns(here16)
    thesis = np.asarray(THESIS_SLOWDOWN, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_ratio = np.log(slow / thesis)
    table16 = pd.DataFrame(
        {
            "table": "2.2 / 2.3",
            "category": list(CATEGORIES),
            "thesis_share": THESIS_MIX,
            "thesis_share_as_printed": THESIS_MIX_AS_PRINTED,
            "share": _shares(here16, CATEGORIES),
            "thesis_mean_bounded_slowdown": thesis,
            "mean_bounded_slowdown": slow,
            "log_ratio": log_ratio,
        }
    )
    table4 = pd.DataFrame(
        {
            "table": "4.2",
            "category": list(CATEGORIES4),
            "thesis_share": THESIS_MIX4,
            "share": _shares(here4, CATEGORIES4),
        }
    )
    return pd.concat([table16, table4], ignore_index=True)


# --------------------------------------------------------------------------- #
# Claims
# --------------------------------------------------------------------------- #


def _status(hits: int, total: int) -> str:
    """Every claim here is a value the search fits the subset to, so none is evidence
    (`schedsim.app.claims.RULE`: a fitted value cannot count as reproduced): ``not
    checked``; ``holds`` says how close the fit comes."""
    return NOT_CHECKED


def claims(table: pd.DataFrame, per_category: pd.DataFrame) -> pd.DataFrame:
    """The chosen subset (first row of the search ``table``; ``per_category`` its
    `category_table`) against the thesis's numbers, with the module's tolerances."""
    rows: list[dict[str, Any]] = []

    def add(claim: str, where: str, paper: str, schedsim: str, hits: int, total: int) -> None:
        rows.append({"claim": claim, "where": where, "paper": paper,
                     "schedsim": f"calibrated, not evidence: {schedsim}",
                     "holds": f"{hits} of {total}", "status": _status(hits, total)})  # fmt: skip

    chosen = table[table["chosen"]] if "chosen" in table else table.iloc[:0]
    if len(chosen):
        best = chosen.iloc[0]
        name = f"{best['month']} at load factor {best['load_factor']:g}"
        c16 = per_category[per_category["table"] == "2.2 / 2.3"]
        c4 = per_category[per_category["table"] == "4.2"]
        off = (c16["share"] - c16["thesis_share"]).abs()
        worst = c16.loc[off.idxmax()]
        add(f"the job mix of the chosen subset ({name}) is Table 2.2's",
            "section 2.4, Table 2.2 (read transposed)",
            f"16 shares in whole percents; each within {MIX_TOLERANCE:g} pp",
            f"{best['mix_distance']:.1f} pp in all (as printed: "
            f"{best['mix_distance_as_printed']:.1f} pp); farthest {worst['category']} "
            f"{worst['share']:.1f}% against {worst['thesis_share']:.0f}%",
            int((off <= MIX_TOLERANCE).sum()), len(c16))  # fmt: skip
        off4 = (c4["share"] - c4["thesis_share"]).abs()
        add(f"the 4-category mix of {name} is Table 4.2's", "section 4.2, Table 4.2",
            "SN/SW/LN/LW " + "/".join(f"{v:.0f}" for v in THESIS_MIX4) + "%",
            "/".join(f"{v:.1f}" for v in c4["share"]) + "%",
            int((off4 <= MIX_TOLERANCE).sum()), len(c4))  # fmt: skip
        util = float(best["utilization"])
        add(f"NS's utilization on {name}", "section 2.4",
            f"{THESIS_UTILIZATION:.2f} (\"51 percent\"; here: within "
            f"{UTILIZATION_TOLERANCE:g})", f"{util:.3f}",
            int(abs(util - THESIS_UTILIZATION) <= UTILIZATION_TOLERANCE), 1)  # fmt: skip
        bsld = float(best["mean_bounded_slowdown"])
        add(f"NS's overall slowdown on {name}", "section 2.4, beside Table 2.3",
            f"{THESIS_OVERALL_SLOWDOWN:.3g} (here: within a factor {SLOWDOWN_FACTOR:g})",
            f"{bsld:.3g}",
            int(abs(math.log(bsld / THESIS_OVERALL_SLOWDOWN)) <= math.log(SLOWDOWN_FACTOR)),
            1)  # fmt: skip
        ratio = c16["log_ratio"].abs()
        known = ratio.notna()
        far = c16.loc[ratio[known].idxmax()] if known.any() else None
        add(f"NS's slowdown per category on {name}", "section 2.4, Table 2.3",
            f"2.6 (VS Seq) to 34.07 (VS VW); each within a factor {SLOWDOWN_FACTOR:g}",
            f"mean |ln ratio| {best['category_distance']:.3f}"
            + (f"; farthest {far['category']} {far['mean_bounded_slowdown']:.3g} against "
               f"{far['thesis_mean_bounded_slowdown']:.3g}" if far is not None else ""),
            int((ratio[known] <= math.log(SLOWDOWN_FACTOR)).sum()), len(c16))  # fmt: skip
    return pd.DataFrame(rows, columns=["claim", "where", "paper", "schedsim", "holds", "status"])


# --------------------------------------------------------------------------- #
# The figure
# --------------------------------------------------------------------------- #


def _plain_log_axis(axis: Any, ticks: Sequence[float]) -> None:
    """A log axis labelled with plain numbers at ``ticks`` (not powers of ten)."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

    axis.set_major_locator(FixedLocator(list(ticks)))
    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    axis.set_minor_formatter(NullFormatter())


def search_figure(table: pd.DataFrame, per_category: pd.DataFrame) -> Figure:
    """(a) utilization against overall slowdown, a line per month through its load
    factors, the thesis's point and the chosen subset marked; (b) each month's distance
    to Table 2.2, read transposed and as printed; (c) the chosen subset's slowdown per
    category against Table 2.3."""
    from matplotlib import colormaps
    from matplotlib.figure import Figure

    # Margins by hand: a constrained layout draws the figure twice over.
    fig = Figure(figsize=(16, 5.4))
    fig.subplots_adjust(left=0.045, right=0.99, bottom=0.16, top=0.87, wspace=0.22)
    ax_a, ax_b, ax_c = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1.2, 1.0, 1.0]})
    months = sorted(set(table["month"]))
    palette = colormaps["tab20"]
    # Dark shades first (0, 2, ...), then the light ones: up to 20 months apart.
    colors = [palette(i) for i in (*range(0, 20, 2), *range(1, 20, 2))]
    chosen = table[table["chosen"]]
    best = chosen.iloc[0] if len(chosen) else None
    for i, month in enumerate(months):
        line = table[table["month"] == month].sort_values("load_factor")
        mine = best is not None and month == best["month"]
        ax_a.plot(line["utilization"], line["mean_bounded_slowdown"], "-", marker="o",
                  ms=3, lw=2.2 if mine else 1.0, color=colors[i % len(colors)],
                  label=month)  # fmt: skip
    thesis = f"thesis ({THESIS_UTILIZATION:g}, {THESIS_OVERALL_SLOWDOWN:g})"
    ax_a.plot(THESIS_UTILIZATION, THESIS_OVERALL_SLOWDOWN, "k*", ms=16, label=thesis)
    if best is not None:
        ax_a.plot(best["utilization"], best["mean_bounded_slowdown"], "o", ms=14,
                  mfc="none", mec="k", mew=1.5,
                  label=f"chosen: {best['month']} x {best['load_factor']:g}")  # fmt: skip
    ax_a.set_yscale("log")
    ax_a.set_ylim(1.3, 40.0)  # room above the lines for the legend
    _plain_log_axis(ax_a.yaxis, (1.5, 2, 3, 4, 6, 10, 15, 20, 30))
    ax_a.set_xlabel("utilization (fraction)")
    ax_a.set_ylabel("mean bounded slowdown (ratio, log scale)")
    ax_a.set_title("(a) NS per month: load factors from 0.6 (left) to 1.0 (right)", fontsize=10)
    ax_a.grid(alpha=0.3, which="both")
    ax_a.legend(fontsize=7, ncol=3, loc="upper left")

    per_month = table.drop_duplicates("month").set_index("month").reindex(months)
    x = np.arange(len(months))
    ax_b.bar(x - 0.2, per_month["mix_distance"], 0.4, label="Table 2.2 read transposed")
    ax_b.bar(x + 0.2, per_month["mix_distance_as_printed"], 0.4, color="0.7",
             label="Table 2.2 as printed")  # fmt: skip
    ax_b.set_xticks(x, months, rotation=60, fontsize=8)
    ax_b.set_ylabel("job-mix distance: sum over the 16 categories (pp)")
    ax_b.set_title("(b) Each month's job mix against Table 2.2", fontsize=10)
    ax_b.grid(alpha=0.3, axis="y")
    ax_b.legend(fontsize=8, loc="upper left")

    c16 = per_category[per_category["table"] == "2.2 / 2.3"]
    ok = c16["mean_bounded_slowdown"].notna()
    ax_c.loglog(c16.loc[ok, "thesis_mean_bounded_slowdown"], c16.loc[ok, "mean_bounded_slowdown"],
                "o", color="C0")  # fmt: skip
    band = math.log(SLOWDOWN_FACTOR)
    for r in c16[ok].itertuples():
        # The long jobs crowd near 1: only the others, and those off the band, are named.
        if r.thesis_mean_bounded_slowdown >= 2 or abs(r.log_ratio) > band:
            right = r.thesis_mean_bounded_slowdown > 20  # named on its left, inside the axes
            ax_c.annotate(str(r.category), (r.thesis_mean_bounded_slowdown,
                          r.mean_bounded_slowdown), fontsize=8, xytext=(-5 if right else 5, -3),
                          textcoords="offset points", ha="right" if right else "left")  # fmt: skip
    ends = np.array([0.9, 50.0])
    ax_c.plot(ends, ends, "k-", lw=0.8, label="equal")
    for f in (SLOWDOWN_FACTOR, 1 / SLOWDOWN_FACTOR):
        ax_c.plot(ends, ends * f, "k:", lw=0.8)
    ax_c.plot([], [], "k:", lw=0.8, label=f"a factor {SLOWDOWN_FACTOR:g} either way")
    ax_c.plot([], [], " ", label="unnamed: below 2, within the band")
    ax_c.set_xlim(*ends)
    ax_c.set_ylim(*ends)
    for axis in (ax_c.xaxis, ax_c.yaxis):
        _plain_log_axis(axis, (1, 2, 5, 10, 20, 50))
    ax_c.set_xlabel("Table 2.3: mean bounded slowdown (ratio)")
    ax_c.set_ylabel("chosen subset: mean bounded slowdown (ratio)")
    ax_c.set_title("(c) The chosen subset per category against Table 2.3", fontsize=10)
    ax_c.grid(alpha=0.3, which="both")
    ax_c.legend(fontsize=8, loc="upper left")
    fig.suptitle("Which subset of the CTC log is Kettimuthu 2003's? NS (EASY, FCFS, accurate "
                 "estimates) on 430 nodes, per month and load factor")  # fmt: skip
    return fig


# --------------------------------------------------------------------------- #
# The report
# --------------------------------------------------------------------------- #


def _units(column: str) -> str:
    return UNITS.get(column, "")


def write(results: StudyResults, out: Path) -> tuple[list[Path], list[Path], pd.DataFrame]:
    """The search table (``kettimuthu2003-subset-search.csv``, best first), the chosen
    subset per category beside Tables 2.2, 2.3 and 4.2
    (``kettimuthu2003-subset-categories.csv``), the claims (``claims.csv``) and the
    figure (``kettimuthu2003-subset.png``)."""
    from schedsim.app.report.formats import with_units
    from schedsim.app.report.plots import save_figures

    runs, cats16, cats4 = candidates(results)
    table = search(runs, cats16, cats4)
    chosen = table[table["chosen"]]
    if len(chosen):
        best = chosen.iloc[0]
        per_category = category_table(cats16, cats4, str(best["month"]),
                                      float(best["load_factor"]))  # fmt: skip
    else:
        per_category = category_table(cats16.iloc[:0], cats4.iloc[:0], "", math.nan)
    claimed = claims(table, per_category)
    tables: list[Path] = []
    for frame, name in (
        (table, "kettimuthu2003-subset-search.csv"),
        (per_category, "kettimuthu2003-subset-categories.csv"),
    ):
        path = out / name
        with_units(frame, _units).to_csv(path, index=False)
        tables.append(path)
    path = out / "claims.csv"
    claimed.to_csv(path, index=False)
    tables.append(path)
    figures = [("kettimuthu2003-subset", search_figure(table, per_category))] if len(chosen) else []
    return tables, save_figures(figures, out), claimed
