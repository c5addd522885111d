"""The notebooks show a utilization or a share in one unit: a fraction (0-1).

schedsim writes a utilization (and a share of jobs, sessions or reservations) as a
fraction everywhere, on screen and in its files, named ``(fraction)``
(`schedsim.app.report.quantities`). A notebook that multiplies one by 100 or labels it
``(%)`` shows a second unit for the same quantity. This reads the code cells of every
notebook (not executed here: nbmake runs them) for the three ways that happened: a
label in % naming a utilization or share, a utilization or share times 100, and a
utilization written with a % sign in generated text. Percent changes (``gain_pct
(%)``, "+16%") stay in %: they are another quantity.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(
    p for p in (ROOT / "notebooks").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts
)

#: What a utilization or a share is called in the notebooks' code.
_SHARE = r"(?:busy|utili[sz]ation|U_core|U_node|u_core|u_node|share|missed)"
#: (what the rule finds, pattern) per way of showing a fraction in percent.
RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a label in %", re.compile(_SHARE + r"[^\"'\n]*\(%\)")),
    ("times 100", re.compile(r"\b100(?:\.0)?\s*\*[^,\n]*" + _SHARE)),
    ("a utilization with a % sign", re.compile(r"utili[sz]ation[a-z ()-]{0,40}\d+(?:\.\d+)?%")),
)


def percent_uses(source: str) -> list[str]:
    """Every line of ``source`` that shows a utilization or a share in percent, with the
    rule it breaks."""
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        for what, pattern in RULES:
            if pattern.search(line):
                found.append(f"line {number} ({what}): {line.strip()}")
    return found


def test_the_rules_find_what_they_should() -> None:
    # What the notebooks held before utilization was a fraction everywhere.
    for line in (
        'samples["busy (%)"] = 100 * samples["busy_cores"] / result.meta["total_cores"]',
        '"U_core (%)": 100 * result.utilization(),',
        '"sessions ended by a long response (%)": 100 * r.summary()["abort_share"],',
        'util[["workload", "scheduler", "u_node_pct (%)", "u_core_pct (%)"]]',
        'missed.round({"single missed (%)": 1})',
        '"are the baseline (NS\'s overall slowdown 4.31 and utilization 51.5%, against 3.58 "',
        "f\"utilization {100 * ns['utilization (fraction)']:.1f}% (51%)\"",
    ):
        assert percent_uses(line), line
    # Percent changes and fractions pass.
    for line in (
        'per_day = ("easy_jobs_per_day (jobs/day)", "gain_pct (%)")',
        'print(f"CREASY completes {100 * gain:+.0f}% jobs per day against EASY")',
        '"and the core utilization in high-load phases from 0.56 to 0.65 (+16.0%, the paper"',
        '"U_core (fraction)": result.utilization(),',
    ):
        assert not percent_uses(line), line


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_notebook_shows_a_utilization_or_share_in_percent(path: Path) -> None:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found = []
    for index, cell in enumerate(cells, 1):
        if cell["cell_type"] != "code":
            continue  # prose may quote a paper ("51 percent")
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        found += [f"cell {index}, {use}" for use in percent_uses(source)]
    assert not found, f"{path.relative_to(ROOT)}: " + "; ".join(found)
