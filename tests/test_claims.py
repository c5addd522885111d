"""The claims vocabulary every paper shares (schedsim.app.claims): the one verdict rule
(its case rules and its tally), the table and its writer, read back with the csv module,
and the readings table."""

from __future__ import annotations

import csv
from pathlib import Path

from schedsim.app import claims as c


def _cases(*holds: bool, weak: tuple[bool, ...] = ()) -> list[c.Case]:
    weak = weak or (False,) * len(holds)
    return [c.Case(f"k{i}", "", h, w) for i, (h, w) in enumerate(zip(holds, weak, strict=True))]


def test_the_table_and_its_files(tmp_path: Path) -> None:
    claim = c.Claim("R > 0 on every trace", "Figure 3(a)", "R > 0", "ratio", "R > 0")
    other = c.Claim("a claim | with a bar", "section 3", "-")
    ours = {claim.key: lambda: _cases(True, False, weak=(True, True)), other.key: list}
    results = c.score([claim, other], ours)
    table = c.claims_table(results, rule=True)
    assert list(table.columns) == [*c.COLUMNS, "rule"]
    assert table["status"].tolist() == ["direction only", "not checked"]
    assert table["schedsim"].tolist() == ["k0 , k1 ", "-"]
    paths = c.write_claims(table, tmp_path, "A paper's claims")
    assert [p.name for p in paths] == ["claims.csv", "claims.md"]
    with (tmp_path / "claims.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows[0]["holds"] == "1 of 2" and rows[1]["status"] == "not checked"
    text = (tmp_path / "claims.md").read_text().splitlines()
    assert text[0] == "# A paper's claims"
    # The reading each claim is checked by follows the paper's value ("-": none stated).
    assert text[-1] == "| a claim \\| with a bar (section 3) | - | - | - | 0 of 0 | not checked |"


# -- the one verdict rule (issue 39) ---------------------------------------------------


def test_a_change_is_reproduced_within_25_percent_of_the_papers() -> None:
    rule = c.change(-35.5)
    # Within 25% of -35.5 is -26.6 to -44.4: -23.4 (the old "factor of 2" passed it) is not.
    assert rule(-30.0) == (True, True) and rule(-44.0) == (True, True)
    assert rule(-23.4) == (False, True)  # direction only
    assert rule(5.0) == (False, False)
    # The paper's value inside our 95% interval over replications reproduces it.
    assert rule(c.Estimate.of([-15.0, -25.0, -50.0])) == (True, True)
    assert rule(c.Estimate(-20.0, -22.0, -18.0)) == (False, True)
    # ... but only when ours goes the paper's way: a mean of the other sign is not.
    assert rule(c.Estimate(5.0, -40.0, 50.0)) == (False, False)
    # A level has no direction: an interval covering the paper's value reproduces it.
    assert c.level(12.0)(c.Estimate(20.0, 10.0, 30.0)) == (True, True)
    case = rule.case("long", c.Estimate.of([-27.8, -45.0, -47.0]), fmt="{:+.1f}", unit="%")
    assert case.verdict == c.REPRODUCED and case.shown.startswith("-39.9% [")


def test_a_level_and_a_verbal_reading() -> None:
    assert c.level(12.0)(4.0) == (False, False)  # "best block size 12", ours 4
    assert c.level(12.0)(10.0) == (True, True)
    # A delay factor of 1.33 against the paper's 1.3, any job run as planned giving 1.33.
    assert c.level(1.3, baseline=1.0)(1.33) == (True, True)
    assert c.level(1.3, baseline=1.0)(1.1) == (False, True)  # effect 0.1 against 0.3
    assert c.level(1.3, baseline=1.0)(0.9) == (False, False)
    assert c.at_least(50.0)(6.9) == (False, True) and c.at_least(50.0)(-1.0) == (False, False)
    assert c.at_most(5.0)(40.0) == (False, False) and c.at_most(5.0)(3.0) == (True, True)
    assert c.between(12.5, 50.0, way=0.0)(60.0) == (False, True)
    assert c.exactly(12)(12) == (True, True) and c.exactly(12)(4) == (False, False)


def test_the_need_tally_and_not_checked() -> None:
    def cases(*verdicts: str) -> list[c.Case]:
        return [c.Case(str(i), "", v == "r", v in "rd") for i, v in enumerate(verdicts)]

    assert c.ALL(cases("r", "r")) == c.REPRODUCED
    assert c.ALL(cases("r", "d")) == c.DIRECTION
    assert c.ALL(cases("r", "n")) == c.NOT_REPRODUCED
    assert c.ALL([]) == c.NOT_CHECKED
    assert c.Need("most")(cases("r", "r", "n")) == c.REPRODUCED
    assert c.Need("most")(cases("r", "d", "n")) == c.DIRECTION
    assert c.Need("some")(cases("n", "d", "n")) == c.DIRECTION
    assert c.Need(2)(cases("r", "r", "n", "n")) == c.REPRODUCED


def test_an_estimate_shows_each_replication_when_their_signs_differ() -> None:
    one = c.Estimate(-23.4)
    assert one.text("{:.1f}", "%") == "-23.4%" and not one.covers(-23.4)
    three = c.Estimate.of([-27.8, 5.0, -40.0])
    assert "(runs -27.8, 5.0, -40.0)" in three.text("{:.1f}")
    assert "(runs" not in c.Estimate.of([-27.8, -45.0, -40.0]).text()


def test_the_readings_table_counts_headline_claims() -> None:
    a = c.Claim("A", "abstract", "-", tally=c.ALL, headline=True)
    b = c.Claim("B", "section 5", "-", tally=c.ALL)
    yes, no = [c.Case("x", "", True, True)], [c.Case("x", "", False, True)]
    table = c.readings_table({
        "text": c.score([a, b], {"A": lambda: no, "B": lambda: yes}),
        "other": c.score([a], {"A": lambda: yes}),
    })  # fmt: skip
    assert table["text"].tolist() == [c.DIRECTION, c.REPRODUCED]
    assert table["other"].tolist() == [c.REPRODUCED, ""]
    text = c.readings_markdown(table)
    assert "**other** (1 of 1)" in text
    assert c.counts(c.score([a, b], {"A": lambda: no, "B": lambda: yes}), headline=True) == {
        c.DIRECTION: 1
    }


def test_the_readings_table_says_when_no_reading_leads() -> None:
    a = c.Claim("A", "abstract", "-", tally=c.ALL, headline=True)
    no = [c.Case("x", "", False, True)]
    table = c.readings_table({"text": c.score([a], {"A": lambda: no}),
                              "other": c.score([a], {"A": lambda: no})})  # fmt: skip
    assert "No reading reproduces a headline claim." in c.readings_markdown(table)
