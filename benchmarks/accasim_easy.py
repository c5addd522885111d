"""AccaSim's EASY backfilling on one SWF log: the peer `benchmarks/peers.py` times.

Run by the peer's own Python, never by schedsim's (it imports AccaSim, not schedsim)::

    PYTHON benchmarks/accasim_easy.py LOG.swf SYSTEM.json RESULTS_DIR

It builds the simulator as AccaSim's documentation does ("Basic Implementation":
``Simulator(workload, sys_config, dispatcher)`` with a dispatcher made of a scheduler
and an allocator, then ``start_simulation()``), with its EASY backfilling scheduler
(``EASYBackfilling``) over its first-fit allocator (``FirstFit``), and prints
AccaSim's own count of the jobs it loaded and dispatched, so the benchmark can check
that every job ran. AccaSim 1.1.3 imports ``collections.Mapping``, gone since Python
3.10: it needs a Python of 3.9 or older (`benchmarks/README.md` says how to make one).
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: accasim_easy.py LOG.swf SYSTEM.json RESULTS_DIR", file=sys.stderr)
        return 2
    from accasim.base.allocator_class import FirstFit
    from accasim.base.scheduler_class import EASYBackfilling
    from accasim.base.simulator_class import Simulator

    log, system, results = argv
    dispatcher = EASYBackfilling(FirstFit())
    simulator = Simulator(
        log, system, dispatcher, RESULTS_FOLDER_NAME=results, show_statistics=False
    )
    simulator.start_simulation()
    print(f"loaded {simulator.loaded_jobs} dispatched {simulator.dispatched_jobs}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
