"""The licence and the citation file say what pyproject.toml and the package say."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml  # PyYAML: a dependency of dask, which schedsim depends on

import schedsim

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_citation_file_parses_and_matches_the_version() -> None:
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0"
    assert cff["version"] == schedsim.__version__ == _pyproject()["version"]
    assert cff["license"] == _pyproject()["license"] == "MIT"
    assert cff["title"].startswith("schedsim")
    assert cff["authors"] == [{"name": "The schedsim developers"}]
    preferred = cff["preferred-citation"]
    assert preferred["type"] == "software"
    assert preferred["version"] == cff["version"] and preferred["title"] == cff["title"]
    assert preferred["authors"] == cff["authors"]


def test_licence_is_mit_and_declared() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 the schedsim developers" in text
    project = _pyproject()
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
