"""Bounds on the size-like and time-scaling values of a run configuration, with their reasons.

Each bound is far above what any study of the project runs, so no study is
refused, and low enough that a run given a value within it ends and keeps its
clock where a float still resolves a millisecond: below `MAX_TIME` = 2**43 s
(`schedsim.workloads.swf`, whose reader holds traces to the same bound). A value
beyond one (``--days 1e9``, ``--load-factor 1e-300``) is a typing slip more often
than a study, and is refused with a one-line error naming the key
(`schedsim.app.study.RunConfig`), as ``--nodes`` is by the machine's
`schedsim.model.cluster.MAX_CORES`.
"""

from __future__ import annotations

from schedsim.model.cluster import MAX_CORES
from schedsim.workloads import lublin, models
from schedsim.workloads.swf import MAX_TIME

__all__ = [
    "DAY",
    "LOAD_FACTOR_RANGE",
    "LUBLIN_ALPHA_RANGE",
    "MAX_CORES",
    "MAX_DAYS",
    "MAX_DURATION",
    "MAX_ESTIMATE_FACTOR",
    "MAX_JOBS",
    "MAX_REPLICATIONS",
    "MAX_TIME",
    "MAX_UNIX_START",
    "MAX_USERS",
    "MAX_USER_GAP",
    "MIN_DAYS",
    "OVERHEAD_MAX_MB",
    "OVERHEAD_MIN_RATE",
    "SLOWDOWN_THRESHOLD_RANGE",
]

#: Seconds in a day.
DAY = 86400.0

#: Most jobs a run generates (``jobs``), keeps (``first``) or needs of a trace user
#: (``user_params.min_jobs``): `schedsim.workloads.models.MAX_JOBS`, which says why.
MAX_JOBS = models.MAX_JOBS

#: Most closed-loop users (``users``): 400 times the largest population of
#: Feitelson & Shmueli 2009 (250); each user is a SimPy process with its own streams.
MAX_USERS = 100_000

#: Most simulated days of a closed-loop run (``days``): a century, 200 times the
#: paper's 180 days; its horizon (3.2e9 s) stays far below 2**43 s.
MAX_DAYS = 36_525.0

#: Fewest simulated days of a closed-loop run (``days``): an hour. Users submit only
#: in their working hours and think for minutes between jobs, so a shorter run has
#: next to no jobs to measure; a value below it (``--days 1e-300``) is a slip.
MIN_DAYS = 1 / 24

#: Most replications of a study (``[study] replications``): a hundred times the
#: largest the project runs (30 for a tight interval); every run is one process's work.
MAX_REPLICATIONS = 1000

#: (lowest, highest) load factor (``load_factor``): a thousandfold either way, far
#: beyond any study's (0.6-1.6); stretching a ten-year log a thousandfold keeps its
#: times below 2**43 s (a run whose stretched times would not is refused as well).
LOAD_FACTOR_RANGE = (1e-3, 1e3)

#: Longest lead of a requested reservation (``reservation_lead``), finite job run-time
#: limit (``max_runtime``; inf is no limit) and largest MAX_EST of Tsafrir's estimates
#: (``estimates = "tsafrir:MAX"``), in seconds: a year, longer than any job, estimate
#: or booking in the logs (the longest jobs ran for weeks).
MAX_DURATION = 365 * DAY

#: Largest F of the f-model's estimates (``estimates = "f:F"``, estimate uniform on
#: [run, (1 + F) run]): an hour-long job may then estimate six weeks, beyond any
#: limit a site lets a user ask for.
MAX_ESTIMATE_FACTOR = 1000.0

#: (lowest, highest) Lublin-Feitelson load knob (``lublin_alpha``): half to twice the
#: published shape; `schedsim.workloads.lublin.ALPHA_RANGE`, which says why.
LUBLIN_ALPHA_RANGE = lublin.ALPHA_RANGE

#: (lowest, highest) threshold of Equation 7 (Zeng & Sodan 2009, section 4.8;
#: ``workload_params.max_sl``, ``self_sl2``): Table 4's slowdowns lie in [0.9, 1.8)
#: and their products in [0.81, 3.24), so outside [0.5, 4] every job falls in one case.
SLOWDOWN_THRESHOLD_RANGE = (0.5, 4.0)

#: Longest think time or break of the user model (``user_params.session_gap``,
#: ``max_break``), in seconds: a week. Longer gaps are absences (holidays, users
#: leaving the site), which the population and its daily cycle model instead.
MAX_USER_GAP = 7 * DAY

#: Latest clock origin of a closed-loop run (``user_params.unix_start_time``): the
#: 32-bit Unix time of the SWF headers (February 2106).
MAX_UNIX_START = 2**32

#: Most memory of the suspension-overhead model (``overhead.low_mb``, ``high_mb``), in
#: MB: a terabyte, a thousand times the paper's 1 GB.
OVERHEAD_MAX_MB = 1e6

#: Slowest transfer of the suspension-overhead model (``overhead.rate_mb_s``), in MB/s:
#: a twentieth of the paper's 2 MB/s; at it a terabyte takes 116 days to write.
OVERHEAD_MIN_RATE = 0.1
