"""Reading what a report covers: a study directory, or plain run folders.

A sweep writes one directory per study (the sweep engine owns the layout;
this module only reads it)::

    DIR/study.json                   the study definition: its runs, in order
    DIR/runs/<run_id>/config.json    one finished run: its configuration ...
    DIR/runs/<run_id>/summary.json   ... headline numbers and metadata
    DIR/runs/<run_id>/jobs.parquet   ... and the tables of `schedsim.model.results.Result`
    DIR/runs/<run_id>/series.parquet
    DIR/failures/<run_id>.json       a run that raised: its error and traceback

``study.json``'s ``runs`` list is authoritative: a report covers exactly those
runs, whatever else lies in ``runs/`` (results of an earlier definition of the
study are left out). A listed run is *done* when its ``summary.json`` exists,
*failed* when only a failure record does, *missing* otherwise (not run yet,
or the sweep was interrupted).

`read_study` turns a study into DataFrames: ``runs``, one row per run, with
its status, the configuration flattened into columns (policy parameters as
``params.<key>``), every numeric summary entry as a metric column, and the
run's ``wall_time``; and ``failures``, one row per failed run.
``load_factor: null`` means the trace's own load and is read as 1.0, so a
load sweep that includes the unscaled trace plots as one numeric axis.

A *run folder* is what ``schedsim run --out DIR`` (`Result.save`) writes:
``summary.json``, ``jobs.parquet`` and ``series.parquet`` (``jobs.csv`` and
``schedule.swf`` beside them). `read_run_folders` loads several, each named
by its policy when the policies differ, else by its folder's name.
"""

from __future__ import annotations

import json
import math
import numbers
import re
import warnings
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeGuard

import numpy as np
import pandas as pd

from schedsim.app.report import formats
from schedsim.app.report.quantities import SUMMARY_METRICS
from schedsim.app.study import CONFIG_KEYS
from schedsim.model.results import LOADED_FILES, Result

__all__ = [
    "FAILURE_COLUMNS",
    "RUN_COLUMNS",
    "RUN_FOLDER_FILES",
    "STATUSES",
    "StudyData",
    "as_list",
    "folder_kind",
    "known_metrics",
    "load_study_run",
    "metric_column",
    "read_run_folder",
    "read_run_folders",
    "read_study",
    "read_study_json",
    "run_labels",
    "trim",
]

STATUSES: tuple[str, ...] = ("done", "failed", "missing")
#: Columns of ``runs`` that do not come from a run's configuration.
RUN_COLUMNS: tuple[str, ...] = ("id", "label", "replication", "status")
FAILURE_COLUMNS: tuple[str, ...] = ("id", "label", "replication", "error", "traceback", "when")
#: The files of a run folder that `Result.load` reads.
RUN_FOLDER_FILES: tuple[str, ...] = LOADED_FILES


# --------------------------------------------------------------------------- #
# Cells and arguments
# --------------------------------------------------------------------------- #


def _cell(value: Any) -> Any:
    """A configuration value as a DataFrame cell: None as NaN, containers as JSON text
    (so that every cell is hashable and prints on one line)."""
    if value is None:
        return math.nan
    if isinstance(value, (Mapping, list, tuple)):
        return json.dumps(value, sort_keys=True)
    return value


def _flatten(config: Mapping[str, Any]) -> dict[str, Any]:
    """One run's configuration as flat columns: ``{"params": {"sf": 2}}`` -> ``params.sf``.

    Any key holding an object is flattened the same way, so keys a later
    version adds need no code here.
    """
    flat: dict[str, Any] = {}
    for name, value in config.items():
        if isinstance(value, Mapping):
            for sub, v in value.items():
                flat[f"{name}.{sub}"] = _cell(v)
        else:
            flat[str(name)] = _cell(value)
    if "load_factor" in flat and formats.key(flat["load_factor"]) is formats.NA:
        flat["load_factor"] = 1.0  # null: the trace's own load
    return flat


def metric_column(metric: str, config_columns: Collection[str]) -> str:
    """The column of a study's runs table (`read_study`) that holds summary entry ``metric``:
    its own name, or ``summary.<metric>`` where a run or configuration column has that
    name already (``jobs`` and ``days`` are configuration keys too)."""
    taken = metric in RUN_COLUMNS or metric in config_columns or metric == "wall_time"
    return f"summary.{metric}" if taken else metric


def known_metrics(config_columns: Collection[str] = CONFIG_KEYS) -> list[str]:
    """Every metric a study's report can name (``[report] metrics``): the entries of a
    run's summary (`schedsim.model.results.Result.summary`, with those of closed-loop
    runs: `quantities.SUMMARY_METRICS`), by the names of their columns (`metric_column`)."""
    return [metric_column(m, config_columns) for m in SUMMARY_METRICS]


def _is_number(value: Any) -> TypeGuard[float]:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def trim(value: Any) -> int | float:
    """A run's ``warmup``/``cooldown`` as `Result` takes it (null: nothing trimmed)."""
    return 0 if value is None else value


def as_list(value: str | Iterable[str] | None) -> list[str] | None:
    """A name or names (an argument, a study's ``[report]`` entry) as a list; None stays None."""
    if value is None:
        return None
    return [value] if isinstance(value, str) else list(value)


# --------------------------------------------------------------------------- #
# A study directory
# --------------------------------------------------------------------------- #


def read_study_json(path: Path) -> dict[str, Any]:
    """study.json, checked just enough that the rest can rely on its shape."""
    if not path.is_file():
        raise ValueError(f"{path}: no study.json here (not a parameter-study directory?)")
    try:
        doc = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: malformed study.json: {exc}") from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("runs"), list):
        raise ValueError(f"{path}: malformed study.json: expected an object with a 'runs' list")
    if not isinstance(doc.get("report") or {}, dict):
        raise ValueError(f"{path}: malformed study.json: 'report' must be an object")
    seen: set[str] = set()
    for k, run in enumerate(doc["runs"]):
        rid = run.get("id") if isinstance(run, dict) else None
        # Run ids name directories: refuse anything that could leave runs/.
        if not isinstance(rid, str) or not rid or rid in (".", "..") or re.search(r"[/\\]", rid):
            raise ValueError(f"{path}: malformed study.json: run {k} has no usable 'id'")
        if not isinstance(run.get("config", {}), dict):
            raise ValueError(f"{path}: malformed study.json: run {rid!r} config is not an object")
        if rid in seen:
            raise ValueError(f"{path}: malformed study.json: run id {rid!r} appears twice")
        seen.add(rid)
    return doc


def _read_json(path: Path) -> dict[str, Any] | None:
    """A JSON object from ``path``, or None (with a warning) if it cannot be read.

    A report may be made while the sweep is still writing, so one unreadable
    record should not stop it.
    """
    try:
        doc = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        warnings.warn(f"{path}: unreadable, ignored: {exc}", stacklevel=3)
        return None
    if not isinstance(doc, dict):
        warnings.warn(f"{path}: not a JSON object, ignored", stacklevel=3)
        return None
    return doc


def _column_order(configs: Sequence[Mapping[str, Any]]) -> list[str]:
    """Configuration columns: known keys in `CONFIG_KEYS` order, then new ones; the
    columns of an object key (``params.*``) where the key stands, in order of first
    appearance (so a parameter only a later run has does not land at the end)."""
    tops: dict[str, list[str]] = {}
    for config in configs:
        for key, value in config.items():
            columns = tops.setdefault(str(key), [])
            names = [f"{key}.{s}" for s in value] if isinstance(value, Mapping) else [str(key)]
            columns.extend(n for n in names if n not in columns)
    rank = {k: i for i, k in enumerate(CONFIG_KEYS)}
    first = {k: i for i, k in enumerate(tops)}
    ordered = sorted(tops, key=lambda k: (rank.get(k, len(rank)), first[k]))
    return [c for top in ordered for c in tops[top]]


def _read_run(
    directory: Path, rid: str
) -> tuple[str, dict[str, Any] | None, dict[str, Any] | None]:
    """(status, summary.json, failure record) of one run; the latter two None if absent.

    A summary makes a run done even if an older failure record remains
    (the run was retried and succeeded).
    """
    summary_path = directory / "runs" / rid / "summary.json"
    if summary_path.is_file():
        doc = _read_json(summary_path)
        if doc is not None and isinstance(doc.get("summary"), dict):
            return "done", doc, None
        if doc is not None:
            warnings.warn(f"{summary_path}: no 'summary' object, ignored", stacklevel=3)
    failure_path = directory / "failures" / f"{rid}.json"
    if failure_path.is_file():
        return "failed", None, _read_json(failure_path) or {}
    return "missing", None, None


@dataclass
class StudyData:
    """What `read_study` reads: the attributes of `StudyResults` (see there)."""

    name: str
    version: str
    seed: Any
    replications: Any
    report_defaults: dict[str, Any]
    #: Each run's raw configuration: columns turn warmup=500 (a job count)
    #: into 500.0 (which `Result` would read as a fraction).
    configs: dict[str, dict[str, Any]]
    config_columns: list[str]
    metrics: list[str]
    runs: pd.DataFrame
    failures: pd.DataFrame


def read_study(directory: Path, study: Mapping[str, Any]) -> StudyData:
    """Read the runs of ``study`` (the parsed study.json) from ``directory``.

    ``runs`` has one row per run of study.json, in study order: ``id``,
    ``label``, ``replication``, ``status``, the configuration columns, the
    metric columns (every summary entry that is a number, or null, in every
    finished run, in order of first appearance) and ``wall_time``.
    ``failures`` has one row per failed run: ``id``, ``label``,
    ``replication``, ``error`` (one line), ``traceback``, ``when``.
    """
    name = str(study.get("name") or directory.name)
    runs: list[Mapping[str, Any]] = list(study.get("runs") or [])
    configs: dict[str, dict[str, Any]] = {r["id"]: dict(r.get("config") or {}) for r in runs}
    flats = [_flatten(configs[r["id"]]) for r in runs]
    raw_columns = _column_order([configs[r["id"]] for r in runs])
    # A configuration key a later version might name like a run column
    # must not overwrite it.
    renamed = {c: f"config.{c}" for c in raw_columns if c in RUN_COLUMNS}
    config_columns = [renamed.get(c, c) for c in raw_columns]

    rows: list[dict[str, Any]] = []
    summaries: list[dict[str, Any] | None] = []
    failures: list[dict[str, Any]] = []
    for run, flat in zip(runs, flats, strict=True):
        rid = run["id"]
        row: dict[str, Any] = {
            "id": rid,
            "label": str(run.get("label") or rid),
            "replication": _cell(run.get("replication")),
        }
        row["status"], summary_doc, record = _read_run(directory, rid)
        if record is not None:
            failures.append(
                {
                    "id": rid,
                    "label": row["label"],
                    "replication": row["replication"],
                    "error": str(record.get("error") or "unreadable failure record"),
                    "traceback": str(record.get("traceback") or ""),
                    "when": str(record.get("when") or ""),
                }
            )
        row.update({renamed.get(c, c): v for c, v in flat.items()})
        rows.append(row)
        summaries.append(summary_doc)

    # Metrics: every summary entry that is a number (or null) in every
    # finished run, in order of first appearance.
    candidates: dict[str, bool] = {}
    for doc in summaries:
        if doc is None:
            continue
        for key, value in doc["summary"].items():
            numeric = value is None or _is_number(value)
            candidates[key] = candidates.get(key, True) and numeric
    metric_names = {k: metric_column(k, config_columns) for k, ok in candidates.items() if ok}
    metrics = list(metric_names.values())
    for row, doc in zip(rows, summaries, strict=True):
        summary = doc["summary"] if doc is not None else {}
        meta = doc.get("meta") if doc is not None else None
        for key, column in metric_names.items():
            value = summary.get(key)
            row[column] = float(value) if _is_number(value) else math.nan
        wall = meta.get("wall_time") if isinstance(meta, dict) else None
        row["wall_time"] = float(wall) if _is_number(wall) else math.nan

    columns = [*RUN_COLUMNS, *config_columns, *metrics, "wall_time"]
    frame = pd.DataFrame(rows, columns=columns)
    replication = frame["replication"]
    if (
        pd.api.types.is_float_dtype(replication)
        and replication.notna().all()
        and (replication == replication.round()).all()
    ):
        frame["replication"] = replication.astype(np.int64)
    return StudyData(
        name=name,
        version=str(study.get("schedsim_version") or ""),
        seed=study.get("seed"),
        replications=study.get("replications"),
        report_defaults=dict(study.get("report") or {}),
        configs=configs,
        config_columns=config_columns,
        metrics=metrics,
        runs=frame,
        failures=pd.DataFrame(failures, columns=list(FAILURE_COLUMNS)),
    )


def load_study_run(directory: Path, run_id: str) -> Result:
    """The full `Result` of run ``run_id`` of the study in ``directory``; ValueError
    naming the run and its folder if it cannot be read."""
    path = directory / "runs" / run_id
    try:
        return Result.load(path)
    except (OSError, ValueError, KeyError) as exc:
        raise ValueError(f"cannot load run {run_id!r} from {path}: {exc}") from exc


# --------------------------------------------------------------------------- #
# Run folders
# --------------------------------------------------------------------------- #


def folder_kind(path: Path) -> Literal["study", "run"]:
    """``"study"`` for a study directory (study.json), ``"run"`` for a run folder
    (summary.json and jobs.parquet); ValueError naming the folder otherwise."""
    _check_folder(path)
    if (path / "study.json").is_file():
        return "study"
    if (path / "summary.json").is_file() and (path / "jobs.parquet").is_file():
        return "run"
    raise ValueError(
        f"{path}: neither a study directory (no study.json) nor a run folder "
        "(no summary.json and jobs.parquet)"
    )


def _check_folder(path: Path) -> None:
    if not path.exists():
        raise ValueError(f"{path}: no such folder")
    if not path.is_dir():
        raise ValueError(f"{path}: not a folder")


def read_run_folder(path: str | Path) -> Result:
    """The `Result` a run folder holds (`Result.load`); ValueError in one line naming
    the folder and what is missing or unreadable."""
    path = Path(path)
    _check_folder(path)
    missing = [name for name in RUN_FOLDER_FILES if not (path / name).is_file()]
    if missing:
        raise ValueError(f"{path}: not a run folder: no {', '.join(missing)}")
    try:
        doc = json.loads((path / "summary.json").read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: unreadable summary.json: {exc}") from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("meta"), dict):
        raise ValueError(f"{path}: summary.json has no 'meta' object (not a run folder?)")
    try:
        return Result.load(path)
    except Exception as exc:  # pyarrow, json and Result's own checks: all one line
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise ValueError(f"{path}: cannot read the run: {first}") from exc


def _folder_name(path: Path) -> str:
    return path.name or path.resolve().name or str(path)


def run_labels(paths: Sequence[Path], results: Sequence[Result]) -> list[str]:
    """One label per run: the policy names when they differ, else the folders' names
    (their paths as given when names repeat; ``#k`` appended to a folder given twice)."""
    policies = [str(r.meta.get("policy") or "") for r in results]
    if all(policies) and len(set(policies)) == len(policies):
        return policies
    names = [_folder_name(p) for p in paths]
    if len(set(names)) < len(names):
        names = [str(p) for p in paths]
    labels: list[str] = []
    for name in names:
        label, k = name, 1
        while label in labels:
            k += 1
            label = f"{name} #{k}"
        labels.append(label)
    return labels


def read_run_folders(paths: Iterable[str | Path]) -> dict[str, Result]:
    """Several run folders, in order, keyed by `run_labels`."""
    folders = [Path(p) for p in paths]
    if not folders:
        raise ValueError("no run folder given")
    results = [read_run_folder(p) for p in folders]
    return dict(zip(run_labels(folders, results), results, strict=True))
