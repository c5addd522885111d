"""Fingerprints of every policy's schedule: proof that a change simulates nothing differently.

Run from the repository root::

    python benchmarks/schedule_hashes.py --out before.json      # before a change
    python benchmarks/schedule_hashes.py --check before.json    # after it: exit 1 on any change
    python benchmarks/schedule_hashes.py --logs kth --policies easy ss --check before.json

Every registered policy runs on three workloads with its default parameters:

- ``kth``: the whole shipped KTH-SP2 log (28,467 jobs, 100 processors);
- ``ctc20k``: the first 20,000 jobs of the shipped CTC-SP2 log (430 processors);
- ``w1``: seed 1's W1 (Zeng & Sodan 2009), 3,000 jobs on 128 nodes of 4 cores with
  Table 4's contention, not killed at their estimates, as seed 003 runs it.

With ``--studies``, it also fingerprints the studies' own runs (issue 41, item 4: the
studies' default runs give the same job tables): for each study file named (by default
every paper's ``study.toml`` and the example studies in ``studies/``), the first run of
each policy in the study's order, as ``schedsim sweep`` would make it (its workload,
transforms, machine and seed). ``--logs`` with no name leaves the three workloads out.

The coscheduling policies (SSP, the G-LOMARC-TS family, Scojo-PECT, CST/CSTWS) run
on W1 only and every other policy on the two logs only (each refuses the other's
machine or makes no sense on it). For each run the job table and the piece log are
hashed column by column (name, dtype, bytes), so two runs match only when every start,
end, node and piece is the same float. ``--check`` compares with a saved file and
prints each difference; a refreshed file is written with ``--out``.

The fingerprints depend on the floating-point arithmetic of the machine; they are
compared on one machine, before and after a change, not across machines.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from schedsim import Simulation
from schedsim.app import registry
from schedsim.app.study import load_study
from schedsim.model.slowdowns import StatisticalContention
from schedsim.workloads import catalog
from schedsim.workloads.multicore import CORES_PER_NODE, NODES, w1
from schedsim.workloads.transforms import first

REPO = Path(__file__).resolve().parent.parent
#: The studies ``--studies`` fingerprints when it names none.
STUDIES = (*sorted(REPO.glob("papers/*/study.toml")), *sorted(REPO.glob("studies/*.toml")))
MULTICORE = ("ssp", "glts", "glts-fbo", "glts-nh", "glts-ns", "scojo", "cst", "cstws")
LOGS = ("kth", "ctc20k", "w1")
W1_JOBS = 3000


def table_hash(frame: pd.DataFrame | None) -> str:
    """SHA-256 over a table's columns in name order: name, dtype and values."""
    if frame is None:
        return "none"
    digest = hashlib.sha256()
    for name in sorted(frame.columns, key=str):
        column = frame[name]
        digest.update(f"{name}:{column.dtype}:".encode())
        values = column.to_numpy()
        if values.dtype == object or not values.dtype.isnative:
            digest.update(repr(values.tolist()).encode())
        else:
            digest.update(np.ascontiguousarray(values).tobytes())
    return digest.hexdigest()[:16]


def runs(log: str, policies: list[str]) -> dict[str, dict[str, Any]]:
    """Each applicable policy's fingerprints on one log."""
    out: dict[str, dict[str, Any]] = {}
    if log == "w1":
        workload = w1(1, n_jobs=W1_JOBS)
        chosen = [p for p in policies if p in MULTICORE]
    else:
        workload = catalog.load("kth") if log == "kth" else first(catalog.load("ctc"), 20_000)
        chosen = [p for p in policies if p not in MULTICORE]
    for name in chosen:
        options: dict[str, Any] = {}
        if log == "w1":
            options = {
                "nodes": NODES,
                "cores_per_node": CORES_PER_NODE,
                "contention": StatisticalContention(1),
                "kill_at_estimate": False,
            }
        result = Simulation(workload, name, **options).run()
        out[name] = {
            "jobs": table_hash(result.jobs),
            "pieces": table_hash(result.pieces),
            "rows": len(result.jobs),
        }
        print(f"{log:7} {name:13} jobs {out[name]['jobs']}  pieces {out[name]['pieces']}",
              flush=True)  # fmt: skip
    return out


def study_runs(path: Path, policies: list[str] | None) -> dict[str, dict[str, Any]]:
    """Fingerprints of the first run of each policy of one study (``policies``: only those)."""
    out: dict[str, dict[str, Any]] = {}
    seen: set[str] = set()
    for run in load_study(path).runs():
        policy = run.config.policy.name
        if policy in seen or (policies is not None and policy not in policies):
            continue
        seen.add(policy)
        result = run.config.simulation().run()
        name = f"{policy} {run.config.run_id()}"
        out[name] = {"jobs": table_hash(result.jobs), "pieces": table_hash(result.pieces),
                     "rows": len(result.jobs)}  # fmt: skip
        print(f"{path.parent.name}/{path.name} {name}: jobs {out[name]['jobs']}  "
              f"pieces {out[name]['pieces']}", flush=True)  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", nargs="*", choices=LOGS, default=list(LOGS))
    parser.add_argument("--studies", nargs="*", type=Path, default=None, metavar="TOML",
                        help="also each study's first run of each policy (default, when no "
                        "file is named: every paper's study.toml and studies/*.toml)")  # fmt: skip
    parser.add_argument("--policies", nargs="+", default=None, help="default: every one")
    parser.add_argument("--out", type=Path, help="write the fingerprints to this JSON file")
    parser.add_argument("--check", type=Path, help="compare with a file written by --out")
    args = parser.parse_args(argv)
    policies = args.policies or registry.names()
    found = {log: runs(log, policies) for log in args.logs}
    if args.studies is not None:
        for path in args.studies or STUDIES:
            key = f"study {path.parent.name}/{path.name}"
            found[key] = study_runs(path, args.policies)
    if args.out:
        args.out.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    if args.check:
        saved = json.loads(args.check.read_text())
        changed = [
            f"{log} {name}: {saved.get(log, {}).get(name)} -> {prints}"
            for log, table in found.items()
            for name, prints in table.items()
            if saved.get(log, {}).get(name) != prints
        ]
        for line in changed:
            print("changed:", line)
        print(f"{sum(map(len, found.values())) - len(changed)} runs identical, "
              f"{len(changed)} changed")  # fmt: skip
        return 1 if changed else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
