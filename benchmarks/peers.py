"""schedsim against other Python simulators of batch scheduling, EASY on the same logs.

Run from the repository root, with a Python that has the peer installed::

    python benchmarks/peers.py --accasim-python ../venv-accasim/bin/python
    python benchmarks/peers.py --accasim-python PY --logs kth --first 2000 --repeat 3

Issue 41 asks schedsim to be at least ten times faster than pyss, CQSim and AccaSim
wherever they run. Of the three, only AccaSim is published on the package registries
(PyPI's ``pyss`` is another project, and CQSim is not there), so it is the one this
script runs; pyss and CQSim are installed from their own repositories, out of reach of a
machine that can reach only the registries.

Each log is first *prepared* once, so that both simulators read the same jobs: the
jobs schedsim's reader keeps (`read_swf`, and ``--first``), written as an SWF log whose
requested processors (field 8) and allocated processors (field 5) are the job's size,
whose requested time (field 9) is its estimate, and whose memory fields (7, 10) are
missing, so that AccaSim, which reads them, asks for cores only; the header gives the
log's processors. AccaSim's system file is as many nodes of one core as the log has
processors (``{"groups": {"g0": {"core": 1}}, "resources": {"g0": P}}``), the form of
AccaSim's own example configurations.

Then, in alternating rounds (schedsim, the peer, schedsim, the peer...), each is run as
a whole process on the prepared log, as a user runs it:

- ``schedsim run --workload LOG --policy easy --out DIR`` (every file);
- ``PY benchmarks/accasim_easy.py LOG SYSTEM DIR``: AccaSim's ``EASYBackfilling`` over
  ``FirstFit``, which writes its schedule and statistics files.

and, in the same rounds, the *floor*: ``python -c "import numpy, simpy"``, a process that
imports the two libraries the project builds on (DESIGN.md) and does nothing else. No
simulator made of them can run a log in less, so where a tenth of the peer's time is below
the floor (a peer that is quick on a short log), the tenfold target is out of any such
simulator's reach, and the table says so.

Each figure is the best of ``--repeat`` wall times (default 1: the peers take minutes on
a whole log, and a tenfold margin does not hinge on a few percent), with the CPU time of
the same process beside it (AccaSim's writers run in other threads and processes, so its
wall time can exceed its CPU time). The ratio is the peer's wall time over schedsim's;
the target is at least 10. The peer must report every job dispatched, or its row says so.

Never part of the test run (pytest does not collect ``benchmarks/``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from rich.table import Table

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from logs import LOGS, chosen  # noqa: E402  (the sibling scripts: the same logs as logs.py)
from process import process_environment, schedsim_command  # noqa: E402
from run import (  # noqa: E402
    SHARED_TRACES,
    _json_safe,
    _positive_int,
    environment,
    environment_table,
    make_console,
    resolve_trace,
)

from schedsim.workloads import swf  # noqa: E402
from schedsim.workloads.transforms import first  # noqa: E402

TARGET = 10.0  # the peer's wall time over schedsim's, at least
ACCASIM_DRIVER = HERE / "accasim_easy.py"
#: What every simulator built on the project's libraries pays before it reads a line.
FLOOR = ["-c", "import numpy, simpy"]
#: SWF fields (0-based) the prepared log sets: allocated and requested processors, requested
#: time, used and requested memory.
_ALLOCATED, _USED_MEMORY, _REQUESTED, _REQUESTED_TIME, _REQUESTED_MEMORY = 4, 6, 7, 8, 9


def prepare(trace: Path, cut: int | None, folder: Path) -> dict[str, Any]:
    """Write the log both simulators read, and AccaSim's system file; their paths and sizes."""
    workload = swf.read_swf(trace)
    if cut:
        workload = first(workload, cut)
    processors = workload.header.machine_size
    if not processors:
        raise ValueError(f"{trace}: the header gives no machine size")
    jobs = workload.jobs
    recorded = np.array([j.swf[2] if j.swf is not None else 0.0 for j in jobs])
    fields = swf._job_fields(workload, recorded, np.array([j.run_time for j in jobs]))
    sizes = np.array([j.size for j in jobs], dtype=float)
    fields[:, _ALLOCATED] = fields[:, _REQUESTED] = sizes
    fields[:, _REQUESTED_TIME] = [j.estimate for j in jobs]
    fields[:, _USED_MEMORY] = fields[:, _REQUESTED_MEMORY] = -1.0
    log = folder / "log.swf"
    with log.open("w") as out:
        out.write(f"; MaxNodes: {processors}\n; MaxProcs: {processors}\n")
        for row in fields:
            out.write(" ".join(f"{v:.0f}" for v in row) + "\n")
    system = folder / "system.json"
    system.write_text(json.dumps({"system_name": trace.name, "groups": {"g0": {"core": 1}},
                                  "resources": {"g0": int(processors)}}))  # fmt: skip
    return {"log": log, "system": system, "jobs": len(jobs), "processors": int(processors)}


def timed_process(argv: list[str], out: Path) -> tuple[float, float, str]:
    """Wall and CPU seconds of one process (its children included), and its output."""
    shutil.rmtree(out, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=process_environment())
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def measure_log(
    prepared: dict[str, Any], accasim: str, repeat: int, scratch: Path
) -> dict[str, Any]:
    """Alternating rounds of schedsim and AccaSim on one prepared log: every timing."""
    commands = {
        "schedsim": [*schedsim_command(), "run", "--workload", str(prepared["log"]), "--policy",
                     "easy", "--out", str(scratch / "schedsim"), "--no-progress"],
        "accasim": [accasim, str(ACCASIM_DRIVER), str(prepared["log"]), str(prepared["system"]),
                    str(scratch / "accasim")],
        "floor": [sys.executable, *FLOOR],
    }  # fmt: skip
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    dispatched = None
    for _ in range(repeat):
        for name, argv in commands.items():
            wall, cpu, stdout = timed_process(argv, scratch / name)
            times[name].append((wall, cpu))
            if name == "accasim":
                dispatched = int(stdout.split()[-1]) if stdout.startswith("loaded") else None
    best = {name: min(t) for name, t in times.items()}
    return {"jobs": prepared["jobs"], "processors": prepared["processors"], "best": best,
            "timings": times, "accasim_dispatched": dispatched}  # fmt: skip


def peers_table(measured: dict[str, dict[str, Any]], repeat: int) -> Table:
    table = Table(title=f"EASY as a whole process on the same prepared logs, best of {repeat}")
    for name in ("log", "jobs", "schedsim (s)", "CPU (s)", "AccaSim (s)", "CPU (s)",
                 "AccaSim / schedsim", f">= {TARGET:.0f}x", "floor (s)", "AccaSim / floor",
                 "AccaSim ran every job"):  # fmt: skip
        table.add_column(name, justify="left" if name in ("log",) else "right")
    for label, m in measured.items():
        (ours, ours_cpu), (peer, peer_cpu) = m["best"]["schedsim"], m["best"]["accasim"]
        floor = m["best"]["floor"][0]
        ratio = peer / ours
        verdict = "pass" if ratio >= TARGET else "FAIL"
        if ratio < TARGET and peer / floor < TARGET:
            verdict += " (out of reach)"  # a tenth of the peer's time is below the floor
        table.add_row(
            label, f"{m['jobs']:,}", f"{ours:.2f}", f"{ours_cpu:.2f}", f"{peer:.2f}",
            f"{peer_cpu:.2f}", f"{ratio:.1f}", verdict, f"{floor:.2f}", f"{peer / floor:.1f}",
            "yes" if m["accasim_dispatched"] == m["jobs"] else f"NO ({m['accasim_dispatched']})",
        )  # fmt: skip
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/peers.py", description=__doc__.split("\n")[0])
    known = ", ".join(dict.fromkeys(name for _, name, _ in LOGS))
    parser.add_argument("--accasim-python", default=os.environ.get("SCHEDSIM_ACCASIM_PYTHON"),
                        metavar="PY", help="a Python with AccaSim installed (default: "
                        "$SCHEDSIM_ACCASIM_PYTHON)")  # fmt: skip
    parser.add_argument("--logs", nargs="*", default=None, metavar="LOG",
                        help=f"the logs to time (default: all of {known})")  # fmt: skip
    parser.add_argument("--repeat", type=_positive_int, default=1, metavar="K",
                        help="rounds; each figure is the best of K (default: 1)")  # fmt: skip
    parser.add_argument("--first", type=_positive_int, default=None, metavar="N",
                        help="keep the first N jobs of every log: a smoke run")  # fmt: skip
    parser.add_argument("--traces-dir", type=Path, default=SHARED_TRACES, metavar="DIR")
    parser.add_argument("--json", type=Path, metavar="FILE", help="save the results as JSON")
    args = parser.parse_args(argv)
    console = make_console(160)
    if not args.accasim_python:
        console.print("[red]error:[/red] no peer to run: give --accasim-python (a Python with "
                      "AccaSim installed; benchmarks/README.md says how to make one)")  # fmt: skip
        return 2
    env = environment()
    console.print(environment_table(env))
    measured: dict[str, dict[str, Any]] = {}
    for label, name, cut in chosen(args.logs, args.first):
        try:
            trace = resolve_trace(name, args.traces_dir)
        except ValueError:
            console.print(f"[yellow]{label}: not found (no {args.traces_dir}); skipped[/yellow]")
            continue
        with tempfile.TemporaryDirectory(prefix="schedsim-peers-") as tmp, console.status(label):
            prepared = prepare(trace, cut, Path(tmp))
            measured[label] = m = measure_log(prepared, args.accasim_python, args.repeat, Path(tmp))
        console.log(f"{label}: " + ", ".join(f"{k} {v[0]:.2f} s" for k, v in m["best"].items()))
    console.print(peers_table(measured, args.repeat))
    if args.json is not None:
        doc = {"environment": env, "repeat": args.repeat, "logs": measured}
        args.json.write_text(json.dumps(_json_safe(doc), indent=2, allow_nan=False) + "\n")
        console.print(f"saved {args.json}")
    return 0 if all(m["best"]["accasim"][0] >= TARGET * m["best"]["schedsim"][0]
                    for m in measured.values()) else 1  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
