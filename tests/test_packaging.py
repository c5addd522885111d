"""pyproject.toml installs every package of the source tree under one namespace, `schedsim`."""

from __future__ import annotations

import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_installed() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = config["package-dir"]  # package -> folder
    found = set()
    for package, folder in folders.items():  # the mapped folders do not nest
        root = REPO / folder
        for init in root.rglob("__init__.py"):
            if "__pycache__" not in init.parts:
                found.add(".".join((package, *init.parent.relative_to(root).parts)))
    assert found == set(config["packages"])


def test_no_top_level_package_but_schedsim() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert {p.split(".")[0] for p in config["packages"]} == {"schedsim"}


def test_the_command_and_python_m_run_the_entry_that_freezes_before_exit() -> None:
    # `console_main`, not `main`: see tests/test_collector.py for what it adds.
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"schedsim": "schedsim.app.cli:console_main"}
    assert "sys.exit(console_main())" in (REPO / "schedsim" / "__main__.py").read_text()
