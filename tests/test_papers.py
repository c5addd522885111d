"""The papers schedsim reproduces: one table (`schedsim.app.bibliography.PAPERS`), one
package each under `schedsim.papers` with its study files and page, found by name."""

from __future__ import annotations

import importlib
import importlib.resources
import sys
from pathlib import Path

from schedsim.app.bibliography import PAPERS, REPRODUCED
from schedsim.app.study import paper_analyses

REPO = Path(__file__).resolve().parent.parent


def test_every_reproduced_paper_has_its_package_study_and_page() -> None:
    assert set(REPRODUCED) == {"kettimuthu2003", "lawson2002", "feitelson2009", "zeng2009",
                               "schwiegelshohn1998"}  # fmt: skip
    analyses = paper_analyses()
    for key in REPRODUCED:
        package = importlib.resources.files(f"schedsim.papers.{key}")
        assert (package / "study.toml").is_file() and (package / "README.md").is_file(), key
        assert analyses[key] == f"schedsim.papers.{key}"
        assert callable(importlib.import_module(analyses[key]).write)
    # The subset search of Kettimuthu's thesis is a report of its own.
    assert analyses["kettimuthu2003-subset"] == "schedsim.papers.kettimuthu2003.subset"


def test_the_docs_extension_reads_the_one_table() -> None:
    sys.path.insert(0, str(REPO / "docs" / "_ext"))
    try:
        catalogue = importlib.import_module("policy_catalogue")
    finally:
        sys.path.remove(str(REPO / "docs" / "_ext"))
    assert catalogue.PAPERS is PAPERS
    # Every paper a policy entry cites is in the table.
    cited = {key for entry in catalogue.POLICIES.values() for key, _ in entry.source}
    assert cited <= set(PAPERS)
    assert str(PAPERS["kettimuthu2003"]) == PAPERS["kettimuthu2003"].label == "Kettimuthu 2003"
