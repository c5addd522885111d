"""The console and the figures as a reader sees them (issue 16, item 5).

Piped output keeps every table row on one line; titles and help name the papers
(Kettimuthu 2003, ...), not the project's "seed 000" numbers; confidence intervals
stay within a quantity's range; a study with fewer than 3 replications says so, on
the console and in its figures; every axis of a report's figures names its unit.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from matplotlib.figure import Figure

from schedsim.app.cli import PIPE_WIDTH, main, make_console
from schedsim.app.report import confidence_interval, load_results
from schedsim.app.report.formats import format_value, significant
from schedsim.app.report.quantities import bounds_of, comparison_bounds
from schedsim.app.report.statistics import describe

WARNING = "confidence intervals need at least 3 replications; this study has"


def piped(*argv: str, columns: str | None = None, cwd: Path | None = None) -> str:
    """stdout of ``schedsim ARGV`` through a real pipe (not a terminal), with COLUMNS
    unset or set to ``columns``."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    if columns is not None:
        env["COLUMNS"] = columns
    done = subprocess.run(
        [sys.executable, "-m", "schedsim.app.cli", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        check=True,
    )
    return done.stdout


def table_rows(text: str) -> list[list[str]]:
    """The body rows of every rich table in ``text``: their cells."""
    return [
        [c.strip() for c in line.split("│")[1:-1]]
        for line in text.splitlines()
        if line.startswith("│")
    ]


def assert_unbroken(text: str) -> None:
    """Every table line starts and ends with a border (nothing wrapped into the next
    line), and no cell is cut short with an ellipsis."""
    for line in text.splitlines():
        if line[:1] in "│┃┏┡└":
            assert line.rstrip()[-1] in "│┃┓┩┘", line
        assert "…" not in line, line


# --------------------------------------------------------------------------- #
# 3: no wrapping in piped output
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("columns", [None, "80"])
def test_piped_run_keeps_every_row_on_one_line(tmp_path: Path, columns: str | None) -> None:
    text = piped("run", "--first", "500", "--out", str(tmp_path / "o"), columns=columns)
    assert_unbroken(text)
    rows = table_rows(text)
    # The summary (metric, unit, value) and the category table (category, jobs, and the
    # mean and max of two metrics): every row whole, with all its cells.
    summary = [r for r in rows if len(r) == 3]
    categories = [r for r in rows if len(r) == 6]
    assert len(summary) + len(categories) == len(rows)
    assert [r[0] for r in categories][-1] == "all" and len(categories) == 17
    assert {"jobs", "mean_wait", "utilization"} <= {r[0] for r in summary}
    # Messages and titles, however long, are one line each.
    lines = text.splitlines()
    assert any(line.startswith("  cleaning: dropped: no size:") and "whole log" in line
               for line in lines)  # fmt: skip
    assert any(line.startswith("Per category (Kettimuthu 2003") and "turnaround" in line
               for line in lines)  # fmt: skip
    assert any(line.startswith("wrote ") and "pieces.parquet" in line for line in lines)


@pytest.mark.parametrize("columns", [None, "80"])
def test_piped_listings_keep_every_row_on_one_line(columns: str | None) -> None:
    text = piped("policies", columns=columns)
    assert_unbroken(text)
    rows = {r[0]: r for r in table_rows(text)}
    assert {"easy", "conservative", "ss", "creasy", "pfcfs1"} <= set(rows)
    assert all(len(r) == 3 and r[1] for r in rows.values())  # no continuation lines
    text = piped("workloads", columns=columns)
    lines = text.splitlines()
    assert any(line.lstrip().startswith("kth (default)") and "Lars Malinowsky" in line
               for line in lines)  # fmt: skip


def test_the_console_is_wide_when_not_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    console = make_console()
    assert not console.is_terminal and console.width == PIPE_WIDTH
    assert main(["policies"]) == 0
    assert_unbroken(capsys.readouterr().out)


# --------------------------------------------------------------------------- #
# 1: the papers by name
# --------------------------------------------------------------------------- #


def test_titles_and_listings_name_the_papers(tmp_path: Path, capsys) -> None:
    assert main(["run", "--first", "300", "--out", str(tmp_path / "a")]) == 0
    text = capsys.readouterr().out
    assert "Per category (Kettimuthu 2003, selective preemption, Table 2.1)" in text
    assert main(["run", "--first", "300", "--policy", "fcfs", "--out", str(tmp_path / "b")]) == 0
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b"), "--scheme", "4"]) == 0
    text = capsys.readouterr().out
    assert "Per category (Kettimuthu 2003, selective preemption, Table 4.1)" in text
    assert main(["policies"]) == 0
    rows = {r[0]: r[1] for r in table_rows(capsys.readouterr().out)}
    assert "Feitelson & Shmueli 2009" in rows["creasy"]
    for name in ("pfcfs", "pfcfs1", "pfcfs2", "pfcfs3"):
        assert "Schwiegelshohn & Yahyapour 1998" in rows[name], name
    for name in ("ss", "tss", "is"):
        assert "Kettimuthu 2003" in rows[name], name
    # "seed" is the random seed only: never a paper's number.
    for out in (text, *rows.values()):
        assert not re.search(r"seeds? 00\d", out, re.IGNORECASE)


@pytest.mark.parametrize("command", ["run", "compare", "report", "sweep"])
def test_help_names_papers_not_seed_numbers(command: str, capsys) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert not re.search(r"seeds? 00\d", text, re.IGNORECASE), command
    if command == "run":
        assert "Kettimuthu 2003's model (section 4.1)" in text
        assert "closed-loop users (Feitelson & Shmueli 2009" in text
        assert "random seed" in text
    if command == "report":
        assert "(Lawson & Smirni 2002)" in text and "Schwiegelshohn & Yahyapour 1998" in text


def test_the_comparison_chart_names_the_paper(tmp_path: Path) -> None:
    from schedsim.app.compare import RunComparison

    for policy in ("easy", "fcfs"):
        assert main(["run", "--first", "200", "--policy", policy,
                     "--out", str(tmp_path / policy)]) == 0  # fmt: skip
    fig = RunComparison.load([tmp_path / "easy", tmp_path / "fcfs"]).plot()
    assert "Kettimuthu 2003, selective preemption, Table 2.1" in fig.axes[0].get_xlabel()
    assert fig.axes[0].get_ylabel() == "mean bounded slowdown (ratio)"


# --------------------------------------------------------------------------- #
# 2: units and one number format per quantity
# --------------------------------------------------------------------------- #


def test_one_number_format_per_quantity() -> None:
    assert [significant(v) for v in (1.0, 9.996, 88.7, 4944.68, 0.0345)] == [
        "1.00",
        "10.0",
        "88.7",
        "4,940",
        "0.0345",
    ]
    assert format_value(4944.68, "max_bounded_slowdown") == "4,940"
    assert format_value(4944.68, "bounded_slowdown", "mean") == "4,940"
    assert format_value(12345.6, "mean_wait") == "12,346"  # seconds, whole
    assert format_value(12345.6, "turnaround", "max") == "12,346"
    # A fraction, as summary.json holds it: never scaled to a percentage.
    assert format_value(0.6167, "utilization") == "0.617"
    assert format_value(1.0, "utilization") == "1.000"
    assert format_value(5.607, "mean_queue_length") == "5.61"  # a mean of counts
    assert format_value(2000, "jobs") == "2,000"
    assert format_value(7.0, "suspensions", "count") == "7"
    assert format_value(math.nan, "mean_wait") == "-"


# --------------------------------------------------------------------------- #
# 4: intervals within a quantity's range
# --------------------------------------------------------------------------- #


def test_the_interval_never_crosses_a_slowdowns_bound() -> None:
    sample = [1.0, 1.0, 50.0]
    # Student's t alone: 17.3 ± 70.3, far below 1
    _, t_low, t_high = confidence_interval(sample)
    assert t_low < 0 < 1 < t_high
    mean, low, high = confidence_interval(sample, bounds=bounds_of("mean_bounded_slowdown"))
    assert low >= 1.0 and (low, high) == (1.0, t_high) and low <= mean <= high
    # and in a study: the aggregate table, whatever the metric's statistic
    assert bounds_of("bounded_slowdown", "max") == (1.0, math.inf)
    assert bounds_of("mean_wait") == (0.0, math.inf)
    assert bounds_of("utilization") == (0.0, 1.0)
    assert bounds_of("bounded_slowdown", "count") == (0.0, math.inf)
    assert comparison_bounds("percent", "mean_wait") == (-100.0, math.inf)
    assert comparison_bounds("R", "mean_wait") == (-math.inf, math.inf)


@pytest.mark.parametrize(
    ("metric", "sample"),
    [
        ("mean_bounded_slowdown", [1.0, 1.0, 50.0]),
        ("mean_wait", [0.0, 0.0, 5000.0]),
        ("utilization", [0.97, 0.99, 0.2]),
        ("utilization", [0.01, 0.02, 0.9]),
    ],
)
def test_random_and_skewed_samples_stay_in_range(metric: str, sample: list[float]) -> None:
    low_bound, high_bound = bounds_of(metric)
    rng = np.random.default_rng(16)
    samples = [sample] + [
        list(rng.choice(sample, size=int(rng.integers(2, 6)))) for _ in range(200)
    ]
    for values in samples:
        mean, _, low, high, _ = describe(values, 0.95, (low_bound, high_bound))
        if math.isnan(low):
            continue
        assert low_bound <= low <= mean <= high <= high_bound, values


def test_aggregated_study_intervals_and_bands_stay_in_range(tmp_path: Path) -> None:
    study = small_study(tmp_path, 3, slowdowns=True)
    agg = study.aggregate(["mean_bounded_slowdown", "mean_wait", "utilization"])
    assert (agg["mean_bounded_slowdown_ci_low"] >= 1.0).all()
    assert (agg["mean_wait_ci_low"] >= 0.0).all()
    assert (agg["utilization_ci_low"] >= 0.0).all() and (agg["utilization_ci_high"] <= 1.0).all()
    fig = study.plot("mean_bounded_slowdown", x="load_factor")
    for band in fig.axes[0].collections:
        assert min(v[1] for p in band.get_paths() for v in p.vertices) >= 1.0


# --------------------------------------------------------------------------- #
# 5: too few replications
# --------------------------------------------------------------------------- #


def small_study(tmp_path: Path, replications: int, slowdowns: bool = False):
    """A study directory of EASY and FCFS on 150 KTH jobs at two loads, with estimates
    drawn from the seed (so that replications differ), swept in this process."""
    toml = tmp_path / f"r{replications}.toml"
    toml.write_text(
        f"[study]\nname = 'reps{replications}'\nseed = 5\nreplications = {replications}\n"
        "[base]\nfirst = 150\nestimates = 'f:2'\n"
        "[grid]\npolicy = ['fcfs', 'easy']\nload_factor = [1.0, 2.0]\n"
        "[report]\nmetrics = ['mean_bounded_slowdown', 'mean_wait', 'utilization']\n"
        "baseline = 'fcfs'\ncategories = true\n"
    )
    out = tmp_path / f"study{replications}"
    assert main(["sweep", str(toml), "--out", str(out), "--workers", "0", "--no-progress"]) == 0
    return load_results(out)


@pytest.mark.parametrize("replications", [2, 3])
def test_warning_below_three_replications(tmp_path: Path, capsys, replications: int) -> None:
    toml = tmp_path / "s.toml"
    toml.write_text(
        f"[study]\nname = 's'\nreplications = {replications}\n"
        "[base]\nfirst = 100\nestimates = 'f:2'\n[grid]\npolicy = ['fcfs', 'easy']\n"
        "[report]\nmetrics = ['mean_wait']\n"
    )
    out = tmp_path / "s"
    assert main(["sweep", str(toml), "--out", str(out), "--workers", "0", "--no-progress"]) == 0
    swept = capsys.readouterr().out
    assert main(["report", str(out)]) == 0
    reported = capsys.readouterr().out
    results = load_results(out)
    figure = results.plot("mean_wait")
    title = figure.axes[0].get_title()
    expected = f"{WARNING} {replications}"
    if replications < 3:
        assert f"warning: {expected}" in swept and f"warning: {expected}" in reported
        assert results.replication_warning() == expected and expected in title
    else:
        assert WARNING not in swept and WARNING not in reported and WARNING not in title
        assert results.replication_warning() is None


# --------------------------------------------------------------------------- #
# 6: every axis of the report's figures names its unit
# --------------------------------------------------------------------------- #

UNIT = re.compile(r"\S \((.+)\)$")


class Seen:
    """What a saved figure showed: its axes' labels, its first y label, its title."""

    def __init__(self, fig: Figure) -> None:
        self.labels = axis_labels(fig)
        self.ylabel = fig.axes[0].get_ylabel()
        self.suptitle = fig.get_suptitle()
        self.colorbar = any(ax.get_label() == "<colorbar>" for ax in fig.axes)


def figures_saved(monkeypatch: pytest.MonkeyPatch) -> list[Seen]:
    """What every Figure saved from now on (the report's files) showed, recorded as it
    is saved (the report clears each figure afterwards)."""
    saved: list[Seen] = []
    seen: set[int] = set()
    save = Figure.savefig

    def keep(self: Figure, *args: object, **kwargs: object) -> None:
        if id(self) not in seen:  # a plot saved as PNG and SVG is one figure
            seen.add(id(self))
            saved.append(Seen(self))
        save(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", keep)
    return saved


def axis_labels(fig: Figure) -> list[str]:
    """The labels of every visible axis of ``fig`` (one per colour bar)."""
    labels = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        if ax.get_label() == "<colorbar>":
            labels.append(ax.get_ylabel() or ax.get_xlabel())
        else:
            labels += [ax.get_xlabel(), ax.get_ylabel()]
    return labels


def test_every_axis_of_a_study_report_has_a_unit(tmp_path: Path, monkeypatch) -> None:
    study = small_study(tmp_path, 2)
    saved = figures_saved(monkeypatch)
    written = study.write(x="load_factor")
    assert len(saved) == len({p.stem for p in written["plots"]}) >= 3 + 4
    for fig in saved:
        for label in fig.labels:
            assert UNIT.search(label), label
    ylabels = {fig.ylabel for fig in saved}
    assert {"mean bounded slowdown (ratio)", "mean wait (s)", "utilization (fraction)"} <= ylabels
    assert "max turnaround (s)" in ylabels and "load factor (ratio)" in saved[0].labels
    bars = study.plot("mean_wait")  # a bar per group, no x column
    assert all(UNIT.search(label) for label in axis_labels(bars))


def test_every_axis_of_the_closed_loop_figures_has_a_unit(tmp_path: Path, monkeypatch) -> None:
    toml = tmp_path / "cl.toml"
    toml.write_text(
        "[study]\nname = 'cl'\n[base]\nworkload = 'kth'\npolicy = 'creasy'\nusers = 5\n"
        "days = 1\n[grid]\n'params.alpha' = [0.0, 6000.0]\n"
        "[report]\nmetrics = ['daily_throughput']\nclosed_loop = true\n"
    )
    out = tmp_path / "cl"
    assert main(["sweep", str(toml), "--out", str(out), "--workers", "0", "--no-progress"]) == 0
    saved = figures_saved(monkeypatch)
    written = load_results(out).write()
    names = {p.name for p in written["plots"]}
    assert {"queue-by-time-of-day-cycle.png", "job-maps-cycle.png"} <= names
    assert "daily_throughput-vs-params.alpha.png" in names
    for fig in saved:
        assert fig.labels and all(UNIT.search(label) for label in fig.labels), fig.labels
    assert any("CREASY alpha (min^2)" in fig.labels for fig in saved)
    maps = [fig for fig in saved if fig.colorbar]
    assert len(maps) == 1 and "Feitelson & Shmueli 2009, Figure 6" in maps[0].suptitle
