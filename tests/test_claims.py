"""The claims vocabulary every paper shares (schedsim.app.claims): the verdict
rules (tallies), the case rules, the table and its writer, read back with the csv module."""

from __future__ import annotations

import csv
from pathlib import Path

from schedsim.app import claims as c


def _cases(*holds: bool, weak: tuple[bool, ...] = ()) -> list[c.Case]:
    weak = weak or (False,) * len(holds)
    return [c.Case(f"k{i}", "", h, w) for i, (h, w) in enumerate(zip(holds, weak, strict=True))]


def test_the_tallies() -> None:
    assert c.ALL_OR_ANY([]) == c.NOT_RUN
    assert c.ALL_OR_ANY(_cases(True, True)) == "reproduced"
    assert c.ALL_OR_ANY(_cases(True, False)) == "partly"
    assert c.ALL_OR_ANY(_cases(False, False, weak=(True, False))) == "partly"
    assert c.ALL_OR_ANY(_cases(False, False)) == "not reproduced"
    # At least half, rounded down, at least one: 1 of 3 is partly, 0 of 1 is not.
    assert c.ALL_OR_HALF(_cases(True, False, False)) == "partly"
    assert c.ALL_OR_HALF(_cases(True, False, False, False, False)) == "not reproduced"
    # Every case weakly, or half of them.
    assert c.ALL_OR_WEAK(_cases(False, False, weak=(True, True))) == "partly"
    assert c.ALL_OR_WEAK(_cases(True, False, False, weak=(False, True, False))) == "not reproduced"
    assert c.ALL_OR_HALF_WEAK(_cases(False, False, weak=(True, False))) == "partly"
    assert c.ALL_OR_HALF_WEAK(_cases(False, False, False, weak=(True, False, False))) == (
        "not reproduced"
    )
    # The thesis's words: "most" is more than half; partly at half as many as needed.
    assert c.needed("most")(_cases(True, True, False, False)) == "partly"
    assert c.needed("most")(_cases(True, True, True, False)) == "reproduced"
    assert c.needed("some")(_cases(False, True, False)) == "reproduced"
    assert c.needed(16).verdict(8, 8, 16) == "partly"


def test_the_rules() -> None:
    like = c.same_sign_within(-30.0)
    assert like(-15.0) == (True, True) and like(-14.0) == (False, True)
    assert like(10.0) == (False, False)
    assert c.within(1.3, 0.15, 0.3)(1.5) == (False, True)
    assert c.within_factor(17.5, 2.0, 4.0)(35.0) == (True, True)
    assert c.at_most(-20.0)(-5.0) == (False, True) and c.at_least(5.0)(5.0) == (True, True)
    case = like.case("medium", -40.0, "-40.0%")
    assert (case.name, case.shown, case.holds, case.weak) == ("medium", "-40.0%", True, True)


def test_the_table_and_its_files(tmp_path: Path) -> None:
    claim = c.Claim("R > 0 on every trace", "Figure 3(a)", "R > 0", "ratio", "R > 0")
    other = c.Claim("a claim | with a bar", "section 3", "-")
    results = c.score([claim, other], {claim.key: lambda: _cases(True, False), other.key: list})
    table = c.claims_table(results, rule=True)
    assert list(table.columns) == [*c.COLUMNS, "rule"]
    assert table["status"].tolist() == ["partly", "not run"]
    assert table["schedsim"].tolist() == ["k0 , k1 ", "-"]
    paths = c.write_claims(table, tmp_path, "A paper's claims")
    assert [p.name for p in paths] == ["claims.csv", "claims.md"]
    with (tmp_path / "claims.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows[0]["holds"] == "1 of 2" and rows[1]["status"] == "not run"
    text = (tmp_path / "claims.md").read_text().splitlines()
    assert text[0] == "# A paper's claims"
    assert text[-1] == "| a claim \\| with a bar (section 3) | - | - | 0 of 0 | not run |"
