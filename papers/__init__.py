"""The papers schedsim reproduces, one package each, named author-year.

Each package holds the paper's study file(s) (``study.toml``...), its analyses
and claims (small modules named for what they hold) and its page
(``README.md``, also in the documentation site); the paper's notebook is in
``notebooks/papers/``. The packages sit above the application layer: they
import `schedsim.app`, never the reverse. A study's report finds a paper's
analyses by name (``[report] paper = NAME``) through `ANALYSES`, read by
`schedsim.app.study.paper_analyses` without importing the modules it names.
"""

from __future__ import annotations

__all__ = ["ANALYSES"]

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
