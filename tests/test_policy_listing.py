"""``schedsim policies`` and the policy catalogue: a whole sentence and a unit for everything.

Every registered policy is described by the whole first paragraph of its class
docstring (a sentence or two, never cut mid-sentence), and every parameter a user
sets is shown with its unit or is known to have none.
"""

from __future__ import annotations

import re

import pytest

from schedsim.app import registry
from schedsim.app.cli import main
from schedsim.app.report.quantities import (
    CONFIG_AXES,
    UNITLESS_PARAMETERS,
    config_unit,
    parameter_unit,
)

NAMES = registry.names()

#: A sentence ends here: a full stop (or ! ?) followed by a space and a capital.
_SENTENCE_END = re.compile(r"[.!?] +(?=[A-Z])")


@pytest.mark.parametrize("name", NAMES)
def test_description_is_one_or_two_whole_sentences(name):
    text = dict(registry.describe())[name]
    assert text, f"{name}: no description"
    assert text[-1] in ".!?", f"{name}: description does not end a sentence: {text!r}"
    assert "\n" not in text
    # The whole first paragraph, not its first line.
    paragraph = registry.get(name).__doc__.strip().split("\n\n")[0]
    assert text == " ".join(paragraph.split())
    sentences = len(_SENTENCE_END.findall(text)) + 1
    assert sentences <= 2, f"{name}: {sentences} sentences in its description: {text!r}"


@pytest.mark.parametrize("name", NAMES)
def test_every_listed_parameter_has_a_unit_or_is_known_unitless(name):
    for key in registry.listed_parameters(name):
        unit = parameter_unit(key)
        assert unit is not None, (
            f"{name}: parameter {key!r} has no unit in quantities.CONFIG_AXES "
            "and is not in quantities.UNITLESS_PARAMETERS"
        )
        if unit == "":  # a pure number: a ratio or count on an axis, or an explicit unitless
            column = f"params.{key}"
            axis_unit = CONFIG_AXES[column][1] if column in CONFIG_AXES else ""
            assert key in UNITLESS_PARAMETERS or axis_unit in ("ratio", "count"), (name, key)


def test_parameter_units_the_reviewer_missed():
    assert parameter_unit("short_slice") == "s"
    assert parameter_unit("switch") == "s"
    assert parameter_unit("short_max") == "s"
    assert parameter_unit("medium_max") == "s"
    assert parameter_unit("matched_longer") == "s"
    assert parameter_unit("boundaries") == "s"
    assert parameter_unit("alpha") == "min^2"  # CREASY: minutes x minutes
    assert parameter_unit("block_size") == "jobs"
    assert parameter_unit("sf") == "" and parameter_unit("order") == ""
    assert parameter_unit("no_such_parameter") is None  # a plug-in's: nothing is made up


def test_unitless_parameters_are_not_also_numbers_with_a_unit():
    for key in UNITLESS_PARAMETERS:
        assert config_unit(f"params.{key}") == "", key


def test_glts_variant_is_accepted_but_not_listed():
    # Each variant is a policy of its own (cst, glts-fbo...): users pick it by name.
    for name in ("glts", "cst", "glts-nh"):
        assert "variant" in registry.parameters(name)
        assert "variant" not in registry.listed_parameters(name)
    assert "variant" not in registry.listed_parameters("scojo")  # never a parameter there
    assert registry.make("glts", {"variant": "cst"}).variant == "cst"  # configurations stay valid


def test_policies_listing_shows_whole_descriptions_and_units(capsys):
    assert main(["policies"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "delays no one." in text  # scojo's sentence, whole
    assert "speculation and reservations." in text  # multiqueue's, whole
    assert "short_slice=600.0 s" in text and "switch=60.0 s" in text
    assert "medium_max=10800.0 s" in text and "matched_longer=3000.0 s" in text
    assert "alpha=6000.0 min^2" in text
    assert "trial='waiting'" in text  # multiqueue's reading of the trial, a choice: no unit
    assert "variant" not in text
