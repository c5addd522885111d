"""The documentation site builds with warnings as errors (README, "Documentation").

One build, into a temporary folder, as ``sphinx-build -W --keep-going -b html docs
OUT`` does: docstrings Sphinx cannot parse, broken includes of the README's sections
or a shipped policy missing from the catalogue fail it (the notebooks are executed by
nbmake, not here). It needs the ``docs`` extra and skips without it, except on CI,
which installs it.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from filelock import FileLock

ROOT = Path(__file__).resolve().parent.parent
NEEDED = ("sphinx", "myst_nb", "furo")


def _missing() -> list[str]:
    return [name for name in NEEDED if importlib.util.find_spec(name) is None]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    missing = _missing()
    if missing:
        reason = (f"the docs extra is not installed ({', '.join(missing)} missing): "
                  "pip install -e '.[docs]'")  # fmt: skip
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must build the documentation, but {reason}")
        pytest.skip(reason)
    # Under pytest-xdist each worker that runs a test of this module asks for the site.
    # The build writes autosummary's stubs and the policy pages into docs/ itself, so two
    # builds at once race there (a stub one wrote and the other removed: "stub file not
    # found"). The first worker builds, under a lock on this checkout's docs/_build,
    # into a folder of the whole test run; the others wait and use the same site.
    uid = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if uid:
        shared = tmp_path_factory.getbasetemp().parent / f"docs-{uid}"
        shared.mkdir(exist_ok=True)
    else:
        shared = tmp_path_factory.mktemp("docs")
    out, done = shared / "html", shared / "built"
    lock_dir = ROOT / "docs" / "_build"
    lock_dir.mkdir(exist_ok=True)
    with FileLock(lock_dir / "test-build.lock"):
        if not done.exists():
            # The notebooks are not executed here: nbmake executes every one of them in
            # the same test run (pyproject's addopts), and twice would double their share.
            build = subprocess.run(
                [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                 "-D", "nb_execution_mode=off", str(ROOT / "docs"), str(out)],
                cwd=ROOT, capture_output=True, text=True, timeout=1200,
            )  # fmt: skip
            assert build.returncode == 0, f"sphinx-build failed:\n{build.stderr[-6000:]}"
            done.touch()
    return out


def test_site_builds_with_warnings_as_errors(site: Path) -> None:
    assert (site / "index.html").is_file()
    landing = (site / "index.html").read_text(encoding="utf-8")
    assert "A simulator of parallel-job scheduling" in landing  # the README's, included


def test_every_registered_policy_has_a_page(site: Path) -> None:
    from schedsim.app import registry

    for name in registry.names():
        if registry.get(name).__module__.startswith("schedsim.policies."):
            page = (site / "policies" / f"{name}.html").read_text(encoding="utf-8")
            for key in registry.listed_parameters(name):  # the parameter table
                assert f'<span class="pre">{key}</span>' in page, (name, key)


def test_every_notebook_has_a_page(site: Path) -> None:
    # Rendered here without outputs (the build above does not execute them; nbmake does,
    # and the site's own build, nb_execution_mode = "force" in docs/conf.py).
    notebooks = sorted((ROOT / "notebooks").rglob("*.ipynb"))
    notebooks = [n for n in notebooks if ".ipynb_checkpoints" not in n.parts]
    assert notebooks
    for notebook in notebooks:
        relative = notebook.relative_to(ROOT).with_suffix(".html")
        page = (site / relative).read_text(encoding="utf-8")
        assert "cell_input" in page, f"{relative}: no code cell rendered"


def test_api_reference_covers_the_five_packages(site: Path) -> None:
    for package in ("workloads", "model", "policies", "app", "papers"):
        assert (site / "api" / "generated" / f"schedsim.{package}.html").is_file()
    assert (site / "api" / "generated" / "schedsim.model.view.html").is_file()


def test_every_paper_has_its_page(site: Path) -> None:
    # papers/<paper>/README.md, included by docs/papers/<paper>.md.
    for paper in ("kettimuthu2003", "lawson2002", "feitelson2009", "zeng2009",
                  "schwiegelshohn1998"):  # fmt: skip
        page = (site / "papers" / f"{paper}.html").read_text(encoding="utf-8")
        assert "study.toml" in page, paper
