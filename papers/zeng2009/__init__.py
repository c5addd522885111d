"""Zeng & Sodan 2009, *Job Scheduling with Lookahead Group Matchmaking for Time/Space
Sharing on Multi-core Parallel Machines* (JSSPP 2009): co-scheduling on multi-core nodes.

Its page is README.md beside this file; its study ``study.toml``. `analyses`: RR, the
utilization, the groups and the delays measured from the runs; `claims`: the paper's
claims scored; `figures`: Figures 6-9; `report`: `write`, the files it adds to a study's
report (``[report] paper = "zeng2009"``), and `readings_of`, the readings x claims table of
several of its studies scored together.
"""

from __future__ import annotations

from schedsim.papers import public_names
from schedsim.papers.zeng2009 import analyses, claims, figures, report
from schedsim.papers.zeng2009.report import write

__all__ = ["analyses", "claims", "figures", "report", "write"]

#: The public names of the modules, as attributes of the package (`public_names`).
__getattr__ = public_names(__name__, analyses, claims, figures, report)
