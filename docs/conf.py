"""Sphinx configuration of schedsim's documentation site.

Build it from the repository root (README, "Documentation")::

    pip install -e '.[docs]'
    sphinx-build -W --keep-going -b html docs docs/_build/html

The guides are the README's sections, included by marker (``<!-- docs:NAME -->``
... ``<!-- /docs:NAME -->``), so the README stays their one source. The policy
catalogue is generated from the registry at every build (``_ext/policy_catalogue.py``),
the API reference from the docstrings (autosummary), and the notebooks in
``notebooks/`` (reached through the ``docs/notebooks`` link) are executed.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import sys
from pathlib import Path
from types import ModuleType

import schedsim

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

project = "schedsim"
author = "the schedsim developers"
copyright = "2026, the schedsim developers"
release = schedsim.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "myst_nb",  # Markdown pages (it loads myst_parser) and notebooks
    "policy_catalogue",  # docs/_ext: one page per registered policy
]

# .rst first: autosummary writes its stubs (reStructuredText) with the first suffix.
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "**/.ipynb_checkpoints"]
templates_path = ["_templates"]

# Single backticks in docstrings (`View`, `schedsim.model.policy`) are Python
# cross-references, links where they resolve.
default_role = "py:obj"

# -- HTML ---------------------------------------------------------------------

html_theme = "furo"
html_title = f"schedsim {release}"
html_static_path: list[str] = []
html_show_sourcelink = False

# -- API reference ------------------------------------------------------------

autosummary_generate = True
autosummary_generate_overwrite = True
autodoc_member_order = "bysource"
autodoc_default_options = {"show-inheritance": True}
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
python_use_unqualified_type_names = True
# A module that fails to import (an optional dependency missing) is an autodoc
# warning, so -W fails the build rather than leave its page empty.

PACKAGES = ["schedsim.workloads", "schedsim.model", "schedsim.policies", "schedsim.app"]


def _modules() -> list[ModuleType]:
    """Every public module of the four packages (one that fails to import is left to
    autodoc, which says so)."""
    found, todo = [], list(PACKAGES)
    while todo:
        name = todo.pop()
        try:
            module = importlib.import_module(name)
        except Exception:
            continue
        found.append(module)
        for info in pkgutil.iter_modules(getattr(module, "__path__", [])):
            if not info.name.startswith("_"):
                todo.append(f"{name}.{info.name}")
    return found


def _defines(module: ModuleType, name: str) -> bool:
    """Whether ``name`` is assigned at the top level of the module's source."""
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError, SyntaxError):
        return False
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return True
    return False


def _reexports() -> dict[str, list[dict[str, str]]]:
    """Per module, the names of its ``__all__`` that another schedsim module defines.

    A package (``schedsim.app.report``) or a module (``schedsim.app.plots``) that
    re-exports names lists them with a link to where they are documented, once:
    documenting them twice would make every short reference to them ambiguous.
    """
    modules = _modules()
    out: dict[str, list[dict[str, str]]] = {}
    for module in modules:
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            home = getattr(obj, "__module__", None) if callable(obj) else None
            if home is None:  # data: the module whose source assigns it
                homes = [m.__name__ for m in modules if m is not module
                         and getattr(m, name, None) is obj and _defines(m, name)]  # fmt: skip
                home = homes[0] if len(homes) == 1 else None
            if home is None or home == module.__name__ or not home.startswith("schedsim."):
                continue
            target = f"{home}.{name}"
            if target.startswith(module.__name__ + "."):  # autosummary wants it relative
                target = target[len(module.__name__) + 1 :]
            out.setdefault(module.__name__, []).append({"name": name, "target": target})
    return out


autosummary_context = {"reexports": _reexports()}

# -- MyST and notebooks -------------------------------------------------------

# $...$ and $$...$$ math, which the notebooks use.
myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3

# Committed notebooks carry no outputs: run every one at every build. A cell
# that raises fails the build (-W is not needed for that).
nb_execution_mode = "force"
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_execution_timeout = 600  # seconds per cell; the study notebook sweeps
nb_merge_streams = True
