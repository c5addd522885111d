"""Kettimuthu 2003, *Selective Preemption Strategies for Parallel Job Scheduling* (M.S.
thesis, The Ohio State University): selective suspension (SS, TSS, IS) against no
suspension (NS).

Its page is README.md beside this file; its studies ``study.toml`` (the thesis's
schemes, 46 runs) and ``subset.toml`` (the search for the CTC subset the thesis ran).
`thesis`: the thesis's own numbers; `values`: what the claims read from a study;
`readings`: the other readings of SS and TSS a study may hold; `words`: the thesis's
words made numbers; `scorers`: what the runs give for each claim; `claims`: the thesis's
claims (data) scored; `report`: the claims' tables and `write`, the files the thesis adds to a
study's report (``[report] paper = "kettimuthu2003"``); `subset`: the subset search,
a report of its own (``[report] paper = "kettimuthu2003-subset"``).
"""

from __future__ import annotations

from schedsim.papers import public_names
from schedsim.papers.kettimuthu2003 import claims, readings, report, thesis, values, words
from schedsim.papers.kettimuthu2003.report import write

__all__ = ["claims", "readings", "report", "thesis", "values", "words", "write"]

#: The public names of the modules, as attributes of the package (`public_names`).
__getattr__ = public_names(__name__, claims, readings, report, thesis, values, words)
