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
    import pytest

    pytest.importorskip("sphinx", reason="the docs extra is not installed: pip install '.[docs]'")
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


def test_a_papers_package_forwards_the_public_names_of_its_modules() -> None:
    # Each name is listed once, in its module's __all__, and reachable from the package
    # as before (`schedsim.papers.public_names`): the very object, not a copy.
    import pytest

    for key in REPRODUCED:
        package = importlib.import_module(f"schedsim.papers.{key}")
        modules = [getattr(package, m) for m in package.__all__ if m != "write"
                   and type(getattr(package, m)).__name__ == "module"]  # fmt: skip
        assert modules, key
        for module in modules:
            for name in module.__all__:
                if name in package.__all__:
                    continue  # a submodule (`claims`) keeps its own name
                assert getattr(package, name) is getattr(module, name), (key, name)
        with pytest.raises(AttributeError, match=f"schedsim.papers.{key}.*no_such_name"):
            package.no_such_name  # noqa: B018
    from schedsim.papers.zeng2009 import rr  # imported from the package, as users do

    assert rr.__module__ == "schedsim.papers.zeng2009.analyses"
    assert importlib.import_module("schedsim.papers.feitelson2009").closed_loop_figures
