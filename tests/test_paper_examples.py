"""The backfilling examples of seed 000, section 2.1, as exact schedules.

The thesis illustrates conservative backfilling (Figure 2.1) and aggressive
(EASY) backfilling (Figure 2.2) with pictures that are not in the text; the
workloads below are built to match the paragraphs that describe them. Each
example draws its schedule in a comment, as the paper's figures do:
processors (nodes, by number) up, time to the right, one character per
second unless the chart says otherwise, each job by its letter, ``.`` idle.
The charts are the simulator's own schedules, node placement included
(first fit), printed from the ``nodes``, ``start`` and ``end`` columns.

Every job here runs exactly its estimate (the "anticipated termination
time" is the real one) unless a test says otherwise, so the plans are the
schedules.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from schedsim import Simulation
from schedsim.model.policy import View
from schedsim.model.view import JobView
from schedsim.policies.backfilling import EASY, Conservative
from schedsim.policies.planning.easy import shadow
from schedsim.workloads.job import Job
from schedsim.workloads.workload import Workload


def job(jid: int, submit: float, size: int, estimate: float, run: float | None = None) -> Job:
    """A job that runs ``run`` seconds (default: exactly its estimate)."""
    return Job(jid, float(submit), float(estimate if run is None else run), size, float(estimate))


def starts(jobs: list[Job], cores: int, policy: object) -> dict[int, float]:
    """Start time of every job, by id, when run under ``policy`` on ``cores`` cores."""
    result = Simulation(Workload.from_jobs(jobs, max_procs=cores), policy).run()  # type: ignore[arg-type]
    return dict(zip(result.jobs["id"].tolist(), result.jobs["start"].tolist(), strict=True))


class LoggingConservative(Conservative):
    """Conservative that logs ``(now, job id, reserved start)`` for every reservation."""

    def __init__(self) -> None:
        super().__init__()
        self.now = float("nan")
        self.log: list[tuple[float, int, float]] = []
        self.on_reserve = lambda j, t: self.log.append((self.now, j.id, t))

    def schedule(self, view: View):
        self.now = view.now
        return super().schedule(view)

    def of(self, jid: int) -> list[float]:
        return [t for _, j, t in self.log if j == jid]


class LoggingEASY(EASY):
    """EASY that logs ``(now, head id, shadow)`` after every pass that made a reservation."""

    def __init__(self, order: str = "fcfs") -> None:
        super().__init__(order)  # type: ignore[arg-type]
        self.log: list[tuple[float, int, float]] = []

    def schedule(self, view: View):
        out = super().schedule(view)
        if self.reservation is not None:
            head, when = self.reservation
            self.log.append((view.now, head.id, when))
        return out


# --------------------------------------------------------------------------- #
# Figure 2.1: conservative backfilling
# --------------------------------------------------------------------------- #

# Ten processors. R1 and R2 are running; Q1, Q2, Q3 arrive at t=1, in that order.
#
#      R1 (1): 4 procs, est 10        Q1 (A): 7 procs, est 10
#      R2 (2): 4 procs, est 20        Q2 (B): 9 procs, est 10
#                                     Q3 (C): 2 procs, est 35
#
#   9 |................................................................................
#   8 |..............................BBBBBBBBBB........................................
#   7 |22222222222222222222..........BBBBBBBBBB........................................
#   6 |22222222222222222222AAAAAAAAAABBBBBBBBBB........................................
#   5 |22222222222222222222AAAAAAAAAABBBBBBBBBB........................................
#   4 |22222222222222222222AAAAAAAAAABBBBBBBBBB........................................
#   3 |1111111111..........AAAAAAAAAABBBBBBBBBB........................................
#   2 |1111111111..........AAAAAAAAAABBBBBBBBBB........................................
#   1 |1111111111..........AAAAAAAAAABBBBBBBBBBCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC.....
#   0 |1111111111..........AAAAAAAAAABBBBBBBBBBCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC.....
#     ++---------+---------+---------+---------+---------+---------+---------+---------
#      0         10        20        30        40        50        60        70
#
# "The first job in the queue does not have enough processors to run, so a
# reservation is made for it at the anticipated termination time of the longer
# running job" (Q1 at 20, when R2 ends; at 10 only 6 are free). "The second
# queued job is given a reservation at the anticipated termination time of the
# first queued job" (Q2 at 30). "Although enough processors are available for
# the third queued job to start immediately [2 free at t=1], it would delay the
# second job [Q3 until 36 would leave Q2 only 8 of 10 at 30]; therefore, the
# third job is given a reservation after the second queued job's anticipated
# termination time" (Q3 at 40).
FIGURE_2_1 = [
    job(1, 0, 4, 10),  # R1
    job(2, 0, 4, 20),  # R2
    job(3, 1, 7, 10),  # Q1
    job(4, 1, 9, 10),  # Q2
    job(5, 1, 2, 35),  # Q3
]


def test_figure_2_1_conservative() -> None:
    policy = LoggingConservative()
    assert starts(FIGURE_2_1, 10, policy) == {1: 0.0, 2: 0.0, 3: 20.0, 4: 30.0, 5: 40.0}
    # Each queued job got its reservation on arrival at t=1, and kept it.
    assert [entry for entry in policy.log if entry[1] >= 3] == [
        (1.0, 3, 20.0),
        (1.0, 4, 30.0),
        (1.0, 5, 40.0),
    ]


def test_figure_2_1_under_easy_q3_backfills_and_delays_q2() -> None:
    # The contrast the section draws: EASY protects only the head (Q1, shadow 20,
    # 3 spare processors then). Q3 fits the 2 free processors and the spare ones,
    # so it starts at 1 and holds them until 36, which delays Q2 from 30 to 36.
    #
    #   9 |.CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC............................................
    #   8 |.CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCBBBBBBBBBB..................................
    #   7 |22222222222222222222................BBBBBBBBBB..................................
    #   6 |22222222222222222222AAAAAAAAAA......BBBBBBBBBB..................................
    #     ...                                   (rows 5-1 as row 6)
    #   0 |1111111111..........AAAAAAAAAA......BBBBBBBBBB..................................
    #     ++---------+---------+---------+---------+---------+---------+---------+---------
    #      0         10        20        30        40        50        60        70
    assert starts(FIGURE_2_1, 10, "easy") == {1: 0.0, 2: 0.0, 3: 20.0, 4: 36.0, 5: 1.0}


def test_conservative_backfills_a_job_that_delays_nobody() -> None:
    # Figure 2.1 plus Q4 (2 procs, est 5) arriving at 1: it fits the 2 free
    # processors and ends at 6, before anything is reserved there, so it starts
    # at once and every other reservation is unchanged.
    policy = LoggingConservative()
    got = starts([*FIGURE_2_1, job(6, 1, 2, 5)], 10, policy)
    assert got == {1: 0.0, 2: 0.0, 3: 20.0, 4: 30.0, 5: 40.0, 6: 1.0}
    assert policy.of(6) == [1.0]


# --------------------------------------------------------------------------- #
# Figure 2.2: aggressive (EASY) backfilling
# --------------------------------------------------------------------------- #

# Twelve processors. R1 and R2 are running; at t=1 the queue is Q1..Q4.
#
#      R1 (1): 4 procs, est 10      Q1 (A): 9 procs, est 10   (the head)
#      R2 (2): 4 procs, est 20      Q2 (B): 2 procs, est 50   (long, narrow)
#                                   Q3 (C): 2 procs, est 50   (long, narrow)
#                                   Q4 (D): 2 procs, est 15   (short)
#
#  11 |.DDDDDDDDDDDDDDD.....................................................................
#  10 |.DDDDDDDDDDDDDDD....AAAAAAAAAA.......................................................
#   9 |.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB..................................
#   8 |.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB..................................
#   7 |22222222222222222222AAAAAAAAAA.......................................................
#   6 |22222222222222222222AAAAAAAAAA.......................................................
#   5 |22222222222222222222AAAAAAAAAA.......................................................
#   4 |22222222222222222222AAAAAAAAAA.......................................................
#   3 |1111111111..........AAAAAAAAAA.......................................................
#   2 |1111111111..........AAAAAAAAAA.......................................................
#   1 |1111111111..........AAAAAAAAAACCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC.....
#   0 |1111111111..........AAAAAAAAAACCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC.....
#     ++---------+---------+---------+---------+---------+---------+---------+---------+----
#      0         10        20        30        40        50        60        70        80
#
# Q1 does not fit the 4 free processors; its reservation (shadow time) is 20,
# when R2 ends and 12 are free, leaving 12 - 9 = 3 spare processors then.
# Q2 fits now and runs past 20, but uses only 2 <= 3 spare processors: it
# backfills ("no more nodes than are free at the time the first queued job is
# scheduled to start"). Q3 is the same shape, but only 1 spare processor is
# left, so it would delay Q1: it waits. Q4 fits the 2 free processors and
# ends at 16 <= 20 ("terminate by the time the first queued job is scheduled
# to commence"): it backfills. Q1 starts at its reservation, 20, on the
# processors R1 and R2 freed plus one Q4 freed; Q3 waits for Q1 to end (30),
# as only one processor is left beside Q1 and Q2 until then.
FIGURE_2_2 = [
    job(1, 0, 4, 10),  # R1
    job(2, 0, 4, 20),  # R2
    job(3, 1, 9, 10),  # Q1
    job(4, 1, 2, 50),  # Q2
    job(5, 1, 2, 50),  # Q3
    job(6, 1, 2, 15),  # Q4
]


def test_figure_2_2_easy() -> None:
    policy = LoggingEASY()
    got = starts(FIGURE_2_2, 12, policy)
    assert got == {1: 0.0, 2: 0.0, 3: 20.0, 4: 1.0, 5: 30.0, 6: 1.0}
    # Q1 held the reservation at 20 from its arrival until it started.
    assert [(now, head, when) for now, head, when in policy.log if head == 3] == [
        (1.0, 3, 20.0),
        (10.0, 3, 20.0),
        (16.0, 3, 20.0),
    ]


def test_figure_2_2_under_conservative() -> None:
    # Conservative gives every job a guarantee in arrival order: Q2 fits beside Q1
    # (2 + 9 <= 12 over [20, 30)) and starts at 1; Q3 would leave Q1 only 8 at 20,
    # so it is reserved after Q1; Q4 ends by 16 and starts at 1.
    assert starts(FIGURE_2_2, 12, "conservative") == {
        1: 0.0,
        2: 0.0,
        3: 20.0,
        4: 1.0,
        5: 30.0,
        6: 1.0,
    }


# --------------------------------------------------------------------------- #
# EASY's second rule on its own
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(("width", "expected_start"), [(2, 1.0), (3, 150.0)])
def test_easy_extra_processors_admit_a_long_narrow_job(width: int, expected_start: float) -> None:
    # Eight processors; R (4 procs, est 100) runs. H (6 procs, est 50) arrives at 1:
    # shadow 100, when 8 are free, 8 - 6 = 2 spare. L (est 1000) cannot end before
    # 100, so only the "extra processors" rule can admit it. One character = 5 s.
    #
    #   width 2: L starts at 1 and keeps      width 3: 3 > 2 spare, L would delay
    #   its 2 processors through H's run      H; it waits for H to end, at 150
    #   7 |....................HHHHHHHHHH......     7 |....................................
    #   6 |....................HHHHHHHHHH......     6 |....................................
    #   5 |.LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL     5 |....................HHHHHHHHHH......
    #   4 |.LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL     4 |....................HHHHHHHHHH......
    #   3 |RRRRRRRRRRRRRRRRRRRRHHHHHHHHHH......     3 |RRRRRRRRRRRRRRRRRRRRHHHHHHHHHH......
    #   2 |RRRRRRRRRRRRRRRRRRRRHHHHHHHHHH......     2 |RRRRRRRRRRRRRRRRRRRRHHHHHHHHHHLLLLLL
    #   1 |RRRRRRRRRRRRRRRRRRRRHHHHHHHHHH......     1 |RRRRRRRRRRRRRRRRRRRRHHHHHHHHHHLLLLLL
    #   0 |RRRRRRRRRRRRRRRRRRRRHHHHHHHHHH......     0 |RRRRRRRRRRRRRRRRRRRRHHHHHHHHHHLLLLLL
    #     ++---------+---------+---------+-----       ++---------+---------+---------+-----
    #      0         50        100       150           0         50        100       150
    jobs = [job(1, 0, 4, 100), job(2, 1, 6, 50), job(3, 1, width, 1000)]
    policy = LoggingEASY()
    got = starts(jobs, 8, policy)
    assert got == {1: 0.0, 2: 100.0, 3: expected_start}
    assert policy.log[0] == (1.0, 2, 100.0)


def test_easy_end_before_shadow_admits_a_wide_short_job() -> None:
    # The first rule on its own: with no spare processors at the shadow time
    # (H needs all 8), a job may still use the 4 free ones if it ends by then.
    # One character = 4 s; S is job 3, T job 4.
    #
    #   7 |.SSSSSSSSSSSSSSSSSSSSSSSSHHHHHHHHHHHHH.......
    #   6 |.SSSSSSSSSSSSSSSSSSSSSSSSHHHHHHHHHHHHH.......
    #   5 |.SSSSSSSSSSSSSSSSSSSSSSSSHHHHHHHHHHHHH.......
    #   4 |.SSSSSSSSSSSSSSSSSSSSSSSSHHHHHHHHHHHHH.......
    #   3 |RRRRRRRRRRRRRRRRRRRRRRRRRHHHHHHHHHHHHHTTTTTTT
    #   2 |RRRRRRRRRRRRRRRRRRRRRRRRRHHHHHHHHHHHHHTTTTTTT
    #   1 |RRRRRRRRRRRRRRRRRRRRRRRRRHHHHHHHHHHHHHTTTTTTT
    #   0 |RRRRRRRRRRRRRRRRRRRRRRRRRHHHHHHHHHHHHHTTTTTTT
    #     ++---------+---------+---------+---------+----
    #      0         40        80        120       160
    jobs = [job(1, 0, 4, 100), job(2, 1, 8, 50), job(3, 1, 4, 99), job(4, 1, 4, 100)]
    # Job 3 ends at 100 == shadow: admitted ("by the time", inclusive). Job 4
    # would end at 101: refused, and runs after H.
    assert starts(jobs, 8, "easy") == {1: 0.0, 2: 100.0, 3: 1.0, 4: 150.0}


def _stub(size: int, expected_end: float) -> SimpleNamespace:
    return SimpleNamespace(size=size, expected_end=expected_end)


def test_shadow_counts_every_job_ending_at_the_shadow_time() -> None:
    # Two running jobs end at 10, one at 20; 1 core free. Four cores are needed:
    # at 10, 1 + 2 + 2 = 5 are free, so shadow 10 with 1 spare.
    running = [_stub(2, 20.0), _stub(2, 10.0), _stub(2, 10.0)]
    assert shadow(0.0, 1, running, 4) == (10.0, 1)
    assert shadow(0.0, 1, running, 1) == (0.0, 0)
    assert shadow(0.0, 1, running, 7) == (20.0, 0)


# Regression: shadow() grouped and ordered the running jobs by their raw
# expected_end, while it plans an overrun job (expected_end <= now, possible
# without kill at estimate) to run as long again as it has overrun
# (schedsim.policies.planning.profile.planned_end). Jobs planned at the same instant were not
# all counted, and an overrun job could be taken before a job planned earlier.
def test_shadow_plans_overrun_jobs_by_their_planned_end() -> None:
    # kill_at_estimate=False, now = 30, one core free, two needed.
    # Expected ends 20 (overrun by 10: planned at 40) and 40: both at 40, so
    # 1 + 1 + 1 - 2 = 1 spare core.
    assert shadow(30.0, 1, [_stub(1, 20.0), _stub(1, 40.0)], 2) == (40.0, 1)
    # Expected ends 10 (overrun by 20: planned at 50) and 35: the second frees
    # its core first, so the shadow is 35, not 50.
    assert shadow(30.0, 1, [_stub(1, 10.0), _stub(1, 35.0)], 2) == (35.0, 0)
    # A job overrun by less than OVERRUN_GRACE is planned OVERRUN_GRACE ahead.
    assert shadow(30.0, 0, [_stub(1, 29.5)], 1) == (31.0, 0)


# Regression, the same bug seen from a run: undercounted spare processors
# kept a job from backfilling.
def test_easy_backfills_beside_overrun_jobs() -> None:
    # Three processors, no kill at estimate. Jobs 1 and 2 (1 proc each, estimates
    # 20 and 40) run 60. At 30, H (2 procs) arrives: job 1 has overrun by 10 and is
    # planned to end at 40, as job 2 is: shadow 40 with 1 spare processor, so B
    # (1 proc, est 1000) may use the free one now.
    jobs = [
        job(1, 0, 1, 20, run=60),
        job(2, 0, 1, 40, run=60),
        job(3, 30, 2, 10),
        job(4, 30, 1, 1000),
    ]
    result = Simulation(Workload.from_jobs(jobs, max_procs=3), "easy", kill_at_estimate=False).run()
    assert result.jobs.set_index("id").at[4, "start"] == 30.0


# --------------------------------------------------------------------------- #
# Conservative compression
# --------------------------------------------------------------------------- #

# Ten processors. R1 (1: 6 procs, est 100) actually ends at 10; R2 (2: 4 procs,
# est 50) runs its estimate. At t=1 X (10 procs, est 10) and then Y (4 procs,
# est 40) arrive. One character = 3 s.
#
#   as planned at t=1 (if R1 ran to 100)        after R1 ends early, at t=10
#   9 |22222222222222222YYYYYYYYYYYYY....XXX...     9 |22222222222222222XXX....................
#   8 |22222222222222222YYYYYYYYYYYYY....XXX...     8 |22222222222222222XXX....................
#   7 |22222222222222222YYYYYYYYYYYYY....XXX...     7 |22222222222222222XXX....................
#   6 |22222222222222222YYYYYYYYYYYYY....XXX...     6 |22222222222222222XXX....................
#   5 |1111111111111111111111111111111111XXX...     5 |1111.............XXX....................
#   4 |1111111111111111111111111111111111XXX...     4 |1111.............XXX....................
#   3 |1111111111111111111111111111111111XXX...     3 |1111YYYYYYYYYYYYYXXX....................
#   2 |1111111111111111111111111111111111XXX...     2 |1111YYYYYYYYYYYYYXXX....................
#   1 |1111111111111111111111111111111111XXX...     1 |1111YYYYYYYYYYYYYXXX....................
#   0 |1111111111111111111111111111111111XXX...     0 |1111YYYYYYYYYYYYYXXX....................
#     ++---------+---------+---------+---------       ++---------+---------+---------+---------
#      0         30        60        90                0         30        60        90
#
# X needs the whole machine: reserved at 100. Y fits in R2's place from 50 to
# 90, before X: reserved at 50, *earlier* than X although it arrived later.
# When R1 ends at 10 the reservations are released and re-made in order of
# their start times: Y (50) first moves to 10, into the hole beside R2; then X
# (100) moves to 50, when both R2 and Y are gone. In arrival order instead, X
# would be re-anchored first and could only move to 90 (after Y's old slot).
COMPRESSION = [
    job(1, 0, 6, 100, run=10),  # R1, ends early
    job(2, 0, 4, 50),  # R2
    job(3, 1, 10, 10),  # X
    job(4, 1, 4, 40),  # Y
]


def test_conservative_compression_in_order_of_start_time() -> None:
    policy = LoggingConservative()
    assert starts(COMPRESSION, 10, policy) == {1: 0.0, 2: 0.0, 3: 50.0, 4: 10.0}
    assert policy.log == [
        (0.0, 1, 0.0),
        (0.0, 2, 0.0),
        (1.0, 3, 100.0),
        (1.0, 4, 50.0),
        # Compression at 10: Y (reserved earlier) before X.
        (10.0, 4, 10.0),
        (10.0, 3, 50.0),
    ]


def test_conservative_compression_keeps_place_when_no_hole_fits() -> None:
    # Ten processors. R1 (1: 5 procs, est 100) ends early at 60; R2 (2: 5 procs)
    # runs to 100. Queued at t=1, reserved in arrival order:
    #
    #   A: 10 procs, est 10  -> [100, 110)   needs the whole machine
    #   B:  6 procs, est 30  -> [110, 140)
    #   C:  5 procs, est 50  -> [140, 190)   (4 free beside B)
    #   D:  5 procs, est 40  -> [140, 180)   beside C
    #
    # One character = 5 s.
    #   as planned at t=1 (if R1 ran to 100)   after R1 ends at 60
    #   9 |22222222222222222222AA......DDDDDDDD....     9 |22222222222222222222AA..................
    #   8 |22222222222222222222AA......DDDDDDDD....     8 |22222222222222222222AA..................
    #   7 |22222222222222222222AA......DDDDDDDD....     7 |22222222222222222222AA..................
    #   6 |22222222222222222222AA......DDDDDDDD....     6 |22222222222222222222AA..................
    #   5 |22222222222222222222AABBBBBBDDDDDDDD....     5 |22222222222222222222AABBBBBB............
    #   4 |11111111111111111111AABBBBBBCCCCCCCCCC..     4 |111111111111DDDDDDDDAABBBBBBCCCCCCCCCC..
    #   3 |11111111111111111111AABBBBBBCCCCCCCCCC..     3 |111111111111DDDDDDDDAABBBBBBCCCCCCCCCC..
    #   2 |11111111111111111111AABBBBBBCCCCCCCCCC..     2 |111111111111DDDDDDDDAABBBBBBCCCCCCCCCC..
    #   1 |11111111111111111111AABBBBBBCCCCCCCCCC..     1 |111111111111DDDDDDDDAABBBBBBCCCCCCCCCC..
    #   0 |11111111111111111111AABBBBBBCCCCCCCCCC..     0 |111111111111DDDDDDDDAABBBBBBCCCCCCCCCC..
    #     ++---------+---------+---------+---------       ++---------+---------+---------+---------
    #      0         50        100       150               0         50        100       150
    #
    # At 60 the hole is 5 processors over [60, 100). Released in order of
    # start time: A (10 procs), B (6 procs) and C (5 procs for 50 s, but the
    # hole lasts 40 s) do not fit and keep their places ("in the worst case,
    # the released job would be reinserted in the same position it held
    # previously"); D fits the hole exactly and moves from 140 to 60.
    jobs = [
        job(1, 0, 5, 100, run=60),
        job(2, 0, 5, 100),
        job(3, 1, 10, 10),
        job(4, 1, 6, 30),
        job(5, 1, 5, 50),
        job(6, 1, 5, 40),
    ]
    policy = LoggingConservative()
    assert starts(jobs, 10, policy) == {1: 0.0, 2: 0.0, 3: 100.0, 4: 110.0, 5: 140.0, 6: 60.0}
    assert [policy.of(j) for j in (3, 4, 5, 6)] == [[100.0], [110.0], [140.0], [140.0, 60.0]]


def test_conservative_reservations_attribute_after_arrival() -> None:
    # The `reservations` attribute holds (start, duration, cores) of waiting jobs.
    policy = Conservative()
    seen: dict[int, tuple[float, float, int]] = {}

    def grab(j: JobView, t: float) -> None:
        seen[j.id] = policy.reservations[j.id]

    policy.on_reserve = grab
    starts(FIGURE_2_1, 10, policy)
    assert seen[3] == (20.0, 10.0, 7)
    assert seen[4] == (30.0, 10.0, 9)
    assert seen[5] == (40.0, 35.0, 2)
    assert policy.reservations == {}  # everything started


@pytest.mark.parametrize("policy", ["easy", "conservative"])
def test_overrun_is_replanned_a_logarithmic_number_of_times(policy: str) -> None:
    # One processor, no kill at estimate: job 1 (est 10) runs 10,000 s while job 2
    # waits. Each time job 1 outlives its planned end the plan doubles the guess,
    # so the scheduler makes a few dozen passes, not one per second of overrun.
    jobs = [job(1, 0, 1, 10, run=10_000), job(2, 1, 1, 10)]
    sim = Simulation(Workload.from_jobs(jobs, max_procs=1), policy, kill_at_estimate=False)
    result = sim.run()
    assert result.jobs.set_index("id").at[2, "start"] == 10_000.0
    assert sim.scheduler.passes < 40
