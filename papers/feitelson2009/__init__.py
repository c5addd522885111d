"""Feitelson & Shmueli 2009, *A Case for Conservative Workload Modeling: Parallel Job
Scheduling with Daily Cycles of Activity* (MASCOTS 2009): CREASY against EASY.

Its page is README.md beside this file; its studies ``study.toml`` (14 days, the readings
the paper leaves open, 3 replications), ``study-full.toml`` (the paper's grid over its 180
days), ``study-alpha.toml`` (alpha beyond 6000), ``study-longer.toml`` (jobs of up to 2
and 4 hours), ``study-night.toml`` (the night claim's nearest reading at 175 and 225
users) and ``study-night-alpha.toml`` (the same with CREASY at alpha 12000, beyond the
paper's 6000). `analyses`: the readings, the gains, the queue by time of day and night by night;
`bound`: the most busy cores any schedule can show at night, which puts the night claim
out of reach against our EASY at 250 users; `claims`: the paper's claims scored under the
one verdict rule; `figures`: Figures 2, 4, 5 and 6 and the load scan; `report`: `write`,
the files it adds to a study's report (``[report] paper = "feitelson2009"``).
"""

from __future__ import annotations

from schedsim.papers import public_names
from schedsim.papers.feitelson2009 import analyses, bound, claims, figures, report
from schedsim.papers.feitelson2009.figures import closed_loop_figures
from schedsim.papers.feitelson2009.report import write

__all__ = ["analyses", "bound", "claims", "closed_loop_figures", "figures", "report", "write"]

#: The public names of the modules, as attributes of the package (`public_names`).
__getattr__ = public_names(__name__, analyses, bound, claims, figures, report)
