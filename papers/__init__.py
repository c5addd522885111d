"""The papers schedsim reproduces, one package each, named author-year.

Each package holds the paper's study file(s) (``study.toml``...), its analyses
and claims (small modules named for what they hold) and its page
(``README.md``, also in the documentation site); the paper's notebook is in
``notebooks/papers/``. The packages sit above the application layer: they
import `schedsim.app`, never the reverse. A study's report finds a paper's
analyses by name (``[report] paper = NAME``) through `ANALYSES`, read by
`schedsim.app.study.paper_analyses` without importing the modules it names.

A paper's package names its modules and ``write``; the public names of its modules
(their ``__all__``) are its attributes too (``from schedsim.papers.zeng2009 import rr``),
forwarded by `public_names`, so that each is listed once, where it is defined.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

__all__ = ["ANALYSES", "STUDIES", "public_names"]

#: ``[report] paper = NAME`` -> the module whose ``write(results, out)`` adds that
#: paper's tables, figures and claims to a study's report (returning the table and
#: figure paths and the claims table).
ANALYSES: dict[str, str] = {
    "lawson2002": "schedsim.papers.lawson2002",
    "zeng2009": "schedsim.papers.zeng2009",
    "feitelson2009": "schedsim.papers.feitelson2009",
    "schwiegelshohn1998": "schedsim.papers.schwiegelshohn1998",
    "kettimuthu2003": "schedsim.papers.kettimuthu2003",
    "kettimuthu2003-subset": "schedsim.papers.kettimuthu2003.subset",
}

#: A paper -> its full study with its readings: the study files (in its package, the main
#: one first) that ``schedsim reproduce PAPER`` sweeps and reports, each into
#: ``results/<its study name>``. Left out, each with its own command on its page:
#: feitelson2009's ``study-full.toml`` (the paper's 180 days: some 45 minutes of 2 workers)
#: and kettimuthu2003's ``subset.toml`` (the calibration search that chose the study's
#: workload, not a reading).
STUDIES: dict[str, tuple[str, ...]] = {
    "schwiegelshohn1998": ("study.toml",),
    "lawson2002": ("study.toml",),
    "kettimuthu2003": ("study.toml",),
    "feitelson2009": (
        "study.toml",
        "study-alpha.toml",
        "study-longer.toml",
        "study-night.toml",
        "study-night-alpha.toml",
    ),
    "zeng2009": (
        "study.toml",
        "study-alpha-w2.toml",
        "study-contention.toml",
        "study-ns.toml",
        "study-pairs.toml",
        "study-rounding.toml",
    ),
}


def public_names(package: str, *modules: ModuleType) -> Callable[[str], Any]:
    """A paper package's module ``__getattr__``: a public name (in ``__all__``) of one of
    ``modules``, taken from the first that lists it (a module that re-exports another's
    names lists the same objects); AttributeError naming ``package`` otherwise."""

    def __getattr__(name: str) -> Any:
        for module in modules:
            if name in module.__all__:
                return getattr(module, name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
