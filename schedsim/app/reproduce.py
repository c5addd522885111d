"""A paper's study, read from its results or run small: what the paper notebooks share.

Each notebook in ``notebooks/papers/`` reproduces one paper from its shipped
study file (``papers/<paper>/study.toml``, installed as package data of
``schedsim.papers.<paper>``: `study_file`). When ``schedsim sweep`` has been run, the
results are in ``results/<study name>/`` and the notebook reads them; otherwise
it runs a **reduced** version of the study: the same policies and the same
readings on a small slice of the inputs (fewer jobs, fewer days, one
replication), in a temporary folder, so that it executes in seconds with the
test suite and the documentation build. Its numbers are then not the paper-scale
ones, and `Reproduction.note` says so::

    rep = reproduce("lawson2002/study.toml", base={"first": 1000}, grid={"workload": ["kth"]})
    print(rep.note)
    report = rep.paper_report()     # the paper's report module: tables, figures, claims
    report.claims

`reduce_study` is the reduction alone, `find_root` how the repository (the
folder holding ``studies/``) is found from a notebook's folder, `study_file`
where a paper's study file is, and
`claim_counts` sums up a claims table in one sentence. `paper_studies` lists the
study files of a paper's full study with its readings (``schedsim reproduce PAPER``).
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.resources
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from schedsim.app.claims import NOT_CHECKED
from schedsim.app.claims import STATUSES as VERDICTS
from schedsim.app.report import StudyResults, load_results
from schedsim.app.study import Study, StudyError, load_study
from schedsim.app.sweep import sweep

__all__ = [
    "REDUCED_SUFFIX",
    "PaperReport",
    "Reproduction",
    "claim_counts",
    "find_root",
    "paper_studies",
    "reduce_study",
    "reproduce",
    "study_file",
]

#: Appended to a reduced study's name, so that its runs are never taken for the full study's.
REDUCED_SUFFIX = "-reduced"
#: The statuses of a claims table (the report modules' ``status`` column), in the order told:
#: the verdicts of `schedsim.app.claims`, then a claim the study cannot check.
STATUSES: tuple[str, ...] = (*VERDICTS, NOT_CHECKED)


def find_root(start: str | Path | None = None) -> Path:
    """The nearest folder, from ``start`` (default: the working directory) up, that
    holds ``studies/``: the repository, from a notebook's folder or the root itself."""
    here = (Path.cwd() if start is None else Path(start)).resolve()
    for folder in (here, *here.parents):
        if (folder / "studies").is_dir():
            return folder
    raise FileNotFoundError(f"no studies/ folder in {here} or above it")


def study_file(name: str, root: str | Path | None = None) -> Path:
    """A paper's study file by its name under ``papers/`` (``"lawson2002/study.toml"``):
    ``<root>/papers/<name>`` in a clone (``root``: `find_root`'s, when there is one),
    else the file installed with ``schedsim.papers``. FileNotFoundError naming both places
    when neither has it."""
    try:
        top: Path | None = find_root(root)
    except FileNotFoundError:
        top = None
    if top is not None and (top / "papers" / name).is_file():
        return top / "papers" / name
    # Looked up by name: the papers sit above the application layer (README, Architecture).
    installed = Path(str(importlib.resources.files("schedsim.papers"))) / name
    if installed.is_file():
        return installed
    where = f"{top / 'papers'} or " if top is not None else ""
    raise FileNotFoundError(f"no study file {name!r} in {where}{installed.parent}")


def paper_studies(paper: str, root: str | Path | None = None) -> list[Path]:
    """The study files of ``paper``'s full study with its readings, the main one first
    (`schedsim.papers.STUDIES`, read by name: the papers sit above this layer), each
    where `study_file` finds it. ValueError naming the papers when ``paper`` is none."""
    studies: dict[str, tuple[str, ...]] = importlib.import_module("schedsim.papers").STUDIES
    if paper not in studies:
        raise ValueError(f"no paper {paper!r}: expected one of {', '.join(sorted(studies))}")
    return [study_file(f"{paper}/{name}", root) for name in studies[paper]]


def reduce_study(
    study: Study,
    *,
    base: Mapping[str, Any] | None = None,
    grid: Mapping[str, Sequence[Any]] | None = None,
    keep: Callable[[Mapping[str, Any]], bool] | None = None,
    each_variant: Mapping[str, Any] | None = None,
    replications: int = 1,
) -> Study:
    """``study`` on smaller inputs: ``base`` keys set (``first``, ``days``...), grid
    lists replaced (dotted keys for parameters, ``params.alpha``; a key the study's
    grid does not vary is refused: it would add a dimension, not cut one), only the
    variants for which ``keep(variant)`` is true, ``each_variant`` keys set in each
    of them (``jobs`` goes there when the variants choose a generated workload), and
    ``replications``. The name gets `REDUCED_SUFFIX`; the report defaults stay, so
    the same report reads it. `StudyError` for a reduction the study cannot take."""
    full_grid = study.to_dict()["grid"]  # params tables as dotted keys
    unknown = [k for k in (grid or {}) if k not in full_grid]
    if unknown:
        raise StudyError(f"{study.source}: grid.{unknown[0]}: the study does not vary it")
    variants = [{**v, **(each_variant or {})} for v in study.variants if keep is None or keep(v)]
    if study.variants and not variants:
        raise StudyError(f"{study.source}: the reduction keeps none of the variants")
    return dataclasses.replace(
        study,
        name=study.name + REDUCED_SUFFIX,
        base={**study.base, **(base or {})},
        grid={**full_grid, **(grid or {})},
        variants=variants,
        replications=replications,
    )


def claim_counts(claims: pd.DataFrame) -> str:
    """A claims table in one sentence: ``"14 claims: 3 reproduced, 5 direction only, ..."``."""
    counts = claims["status"].value_counts()
    parts = [f"{counts[s]} {s}" for s in STATUSES if s in counts]
    parts += [f"{n} {s}" for s, n in counts.items() if s not in STATUSES]
    return f"{len(claims)} claims: " + ", ".join(parts)


@dataclass
class PaperReport:
    """What a paper's report module (``schedsim.papers.<paper>``) wrote.

    ``tables``: each CSV read back (its column names carry their units), by file
    name; ``plots``: each figure's PNG, by file stem; ``claims``: the table of the
    paper's claims (``claim``, ``where``, ``paper``, ``schedsim``, ``holds``,
    ``status``); ``directory``: where the files are.
    """

    tables: dict[str, pd.DataFrame]
    plots: dict[str, Path]
    claims: pd.DataFrame
    directory: Path


class Reproduction:
    """A paper's study: its full results when present, else a reduced run of it.

    ``full`` is the shipped study and ``study`` the one that ran (the same, or the
    reduced one when ``reduced``); ``results`` its `StudyResults`; ``directory``
    where they are (for a reduced run a temporary folder, removed with this object);
    ``searched`` the results folders looked in, relative to the repository.
    """

    def __init__(
        self,
        full: Study,
        results: StudyResults,
        study: Study | None = None,
        keep_alive: tempfile.TemporaryDirectory[str] | None = None,
        searched: Sequence[str] = (),
    ) -> None:
        self.full = full
        self.searched = list(searched)
        self.study = full if study is None else study
        self.reduced = study is not None
        self.results = results
        self.directory = results.directory
        self._tmp = keep_alive  # the temporary folder lives as long as this object

    @property
    def note(self) -> str:
        """One paragraph (Markdown): what was read or run, and whether the numbers are
        the study's."""
        counts = ", ".join(f"{v} {k}" for k, v in self.results.counts.items() if v)
        if not self.reduced:
            return (
                f"**Full study.** The results of `{self.full.source}` read from "
                f"`{self.directory}` ({counts}): the numbers below are the study's."
            )
        where = " or ".join(f"`{folder}`" for folder in self.searched) or "results/"
        return (
            f"**Reduced inputs.** No results were found in {where}, so this notebook ran a "
            f"reduced version of `{self.full.source}` "
            f"({len(self.study.runs())} runs against the full study's "
            f"{len(self.full.runs())}; {self.changes()}) in a temporary folder "
            f"({counts}). The numbers below are computed from these reduced inputs: "
            "they are **not** the paper-scale ones. For those, run `schedsim sweep "
            f"{self.full.source}` from the repository and execute this notebook again."
        )

    def changes(self) -> str:
        """What the reduction changed, key by key (`reduce_study`)."""
        out = [
            f"{k} = {v!r}"
            for k, v in self.study.base.items()
            if k not in self.full.base or self.full.base[k] != v
        ]
        full_grid = self.full.to_dict()["grid"]
        out += [
            f"{k} in {v}" for k, v in self.study.to_dict()["grid"].items() if full_grid.get(k) != v
        ]
        if list(self.study.variants) != list(self.full.variants):
            set_ = {k: v for k, v in self.study.variants[0].items() if k != "label"}
            same = {
                k: v
                for k, v in set_.items()
                if all(w.get(k) == v for w in self.study.variants)
                and not any(w.get(k) == v for w in self.full.variants)
            }
            each = "".join(f", {k} = {v!r} in each" for k, v in same.items())
            out.append(f"{len(self.study.variants)} of {len(self.full.variants)} variants{each}")
        if self.study.replications != self.full.replications:
            out.append(f"{self.study.replications} of {self.full.replications} replications")
        return "; ".join(out) or "nothing changed"

    def paper_report(self, paper: str | None = None) -> PaperReport:
        """Run the paper's report module (``paper``, default the study's ``[report]
        paper``) into a temporary folder: a results folder stays as it was."""
        from schedsim.app.report.writing import paper_analysis

        name = paper or self.results.report_defaults.get("paper")
        if not name:
            raise ValueError(f"study {self.full.name!r} names no paper: pass paper=")
        out = self.scratch(f"report-{name}")
        tables, plots, claims = paper_analysis(name).write(self.results, out)
        return PaperReport(
            # CSV files only (a report may write Markdown too); a table with no rows is
            # written as an empty file, which has no columns to read.
            tables={
                p.name: pd.read_csv(p)
                for p in tables
                if p.suffix == ".csv" and p.stat().st_size > 1
            },
            plots={p.stem: p for p in plots if p.suffix == ".png"},
            claims=claims,
            directory=out,
        )

    def scratch(self, name: str) -> Path:
        """A folder ``name`` in this reproduction's temporary folder (made on first use
        when the results are the full study's), for reports and figures."""
        if self._tmp is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="schedsim-report-")
        out = Path(self._tmp.name) / name
        out.mkdir(parents=True, exist_ok=True)
        return out


def reproduce(
    *study_files: str,
    base: Mapping[str, Any] | None = None,
    grid: Mapping[str, Sequence[Any]] | None = None,
    keep: Callable[[Mapping[str, Any]], bool] | None = None,
    each_variant: Mapping[str, Any] | None = None,
    replications: int = 1,
    root: str | Path | None = None,
    workers: int = 0,
) -> Reproduction:
    """Read a paper's study results, or run the study reduced.

    ``study_files`` are names under ``papers/`` (`study_file`: ``"feitelson2009/study.toml"``)
    in order of preference (a study may ship a full and a short version): the first whose
    ``<root>/results/<study name>/`` holds a finished run is read (a partial
    study too: `Reproduction.note` counts its runs). Otherwise the last file is
    reduced (`reduce_study` with ``base``, ``grid``, ``keep``, ``each_variant``
    and ``replications``) and swept into a temporary folder, in this process by
    default (``workers=0``: a pool's start and a trace read per worker cost more
    than small runs). ``root`` defaults to `find_root` of the working directory.
    RuntimeError, with the first error, if a reduced run fails.
    """
    if not study_files:
        raise ValueError("name at least one study file")
    top = find_root(root)
    # Named as from the repository (papers/lawson2002/study.toml), as the notes show them.
    studies = [
        dataclasses.replace(load_study(study_file(name, top)), source=f"papers/{name}")
        for name in study_files
    ]
    for study in studies:
        folder = top / "results" / study.name
        if (folder / "study.json").is_file():
            found = load_results(folder)
            if found.counts.get("done"):
                return Reproduction(study, found)
    searched = [f"results/{study.name}/" for study in studies]
    full = studies[-1]
    small = reduce_study(
        full, base=base, grid=grid, keep=keep, each_variant=each_variant, replications=replications
    )
    tmp = tempfile.TemporaryDirectory(prefix="schedsim-reduced-")
    directory = Path(tmp.name) / small.name
    outcome = sweep(small, directory, workers=workers)
    if outcome.failed:
        label, error = outcome.failed[0]
        raise RuntimeError(
            f"{len(outcome.failed)} reduced runs failed; the first, {label}: {error}"
        )
    return Reproduction(full, load_results(directory), small, keep_alive=tmp, searched=searched)
