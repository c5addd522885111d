"""The papers schedsim reproduces or takes a policy from: one table, `PAPERS`.

A pure lookup module (no pandas, no rich): the command line's help, the report's
titles and axes (`schedsim.app.report.quantities`), the figures and the
documentation site's policy catalogue (``docs/_ext/policy_catalogue.py``) all read
it. Keys are author-year, as the packages of `schedsim.papers` are named; ``seed``
is a reproduced paper's number in the project's notes and the code's comments
("seed 000 section 3.2"), empty for the papers the seeds cite.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PAPERS", "REPRODUCED", "Paper"]


@dataclass(frozen=True)
class Paper:
    """A paper: ``str(paper)`` is "Authors Year" (`label`), `long` adds its topic;
    ``reference`` is the full reference and ``used_for`` what else of schedsim comes
    from it, both MyST Markdown (the documentation site's)."""

    authors: str
    year: int
    topic: str
    reference: str
    seed: str = ""
    used_for: str = ""

    def __str__(self) -> str:
        return f"{self.authors} {self.year}"

    @property
    def label(self) -> str:
        """The short form the pages cite: "Authors Year"."""
        return str(self)

    @property
    def long(self) -> str:
        """``Authors Year, topic``: where the topic helps a reader place the paper."""
        return f"{self}, {self.topic}"


PAPERS: dict[str, Paper] = {
    "kettimuthu2003": Paper(
        "Kettimuthu",
        2003,
        "selective preemption",
        "Rajkumar Kettimuthu. *Selective Preemption Strategies for Parallel Job Scheduling*. "
        "Master's thesis, Department of Computer and Information Science, The Ohio State "
        "University, 2003. (A shorter version: R. Kettimuthu, V. Subramani, S. Srinivasan, "
        'T. B. Gopalsamy, D. K. Panda and P. Sadayappan, "Selective Preemption Strategies '
        'for Parallel Job Scheduling", *Proceedings of the 2002 International Conference on '
        "Parallel Processing (ICPP)*, pp. 602-610, 2002.)",
        "000",
    ),
    "lawson2002": Paper(
        "Lawson & Smirni",
        2002,
        "multiple-queue backfilling",
        'Barry G. Lawson and Evgenia Smirni. "Multiple-Queue Backfilling Scheduling with '
        'Priorities and Reservations for Parallel Systems". In *Job Scheduling Strategies '
        "for Parallel Processing* (JSSPP 2002), Lecture Notes in Computer Science 2537, "
        "pp. 72-87, Springer, 2002; also in *ACM SIGMETRICS Performance Evaluation Review* "
        "29(4), pp. 40-47, 2002.",
        "001",
        "the speculative start ({py:class}`~schedsim.model.policy.Start` with a `limit` and "
        '`on_limit="requeue"`), the crashing jobs of the estimate models '
        "({py:mod}`schedsim.workloads.estimates`) and the slowdown ratio R of the reports.",
    ),
    "feitelson2009": Paper(
        "Feitelson & Shmueli",
        2009,
        "daily cycles of activity",
        'Dror G. Feitelson and Edi Shmueli. "A Case for Conservative Workload Modeling: '
        'Parallel Job Scheduling with Daily Cycles of Activity". In *17th IEEE International '
        "Symposium on Modeling, Analysis and Simulation of Computer and Telecommunication "
        "Systems* (MASCOTS 2009), 2009.",
        "002",
    ),
    "zeng2009": Paper(
        "Zeng & Sodan",
        2009,
        "lookahead group matchmaking",
        'Xijie Zeng and Angela Sodan. "Job Scheduling with Lookahead Group Matchmaking for '
        'Time/Space Sharing on Multi-core Parallel Machines". In *Job Scheduling Strategies '
        "for Parallel Processing* (JSSPP 2009), Lecture Notes in Computer Science 5798, "
        "pp. 232-258, Springer, 2009.",
        "003",
        "nodes of several cores and the contention between the jobs that share them "
        "({py:mod}`schedsim.model.contention`), and a job's estimated start and response "
        "time under conservative backfilling "
        "({py:func}`~schedsim.policies.planning.conservative.estimated_response`).",
    ),
    "schwiegelshohn1998": Paper(
        "Schwiegelshohn & Yahyapour",
        1998,
        "preemptive FCFS",
        'Uwe Schwiegelshohn and Ramin Yahyapour. "Analysis of First-Come-First-Serve '
        'Parallel Job Scheduling". In *Proceedings of the 9th Annual ACM-SIAM Symposium on '
        "Discrete Algorithms* (SODA '98), pp. 629-638, 1998.",
        "004",
    ),
    # Where the seeds take a policy from (they cite these).
    "lifka1995": Paper(
        "Lifka",
        1995,
        "EASY backfilling",
        'David A. Lifka. "The ANL/IBM SP Scheduling System". In *Job Scheduling Strategies '
        "for Parallel Processing* (JSSPP 1995), Lecture Notes in Computer Science 949, "
        "pp. 295-303, Springer, 1995.",
    ),
    "mualem2001": Paper(
        "Mu'alem & Feitelson",
        2001,
        "backfilling and user run-time estimates",
        "Ahuva W. Mu'alem and Dror G. Feitelson. \"Utilization, Predictability, Workloads, "
        'and User Runtime Estimates in Scheduling the IBM SP2 with Backfilling". *IEEE '
        "Transactions on Parallel and Distributed Systems* 12(6), pp. 529-543, 2001.",
    ),
    "chiang2002": Paper(
        "Chiang & Vernon",
        2002,
        "production job scheduling",
        'Su-Hui Chiang and Mary K. Vernon. "Production Job Scheduling for Parallel Shared '
        'Memory Systems". In *Proceedings of the International Parallel and Distributed '
        "Processing Symposium* (IPDPS), 2002.",
    ),
    "shmueli2009": Paper(
        "Shmueli & Feitelson",
        2009,
        "simulation with user feedback",
        'Edi Shmueli and Dror G. Feitelson. "On Simulation and Design of Parallel-Systems '
        'Schedulers: Are We Doing the Right Thing?". *IEEE Transactions on Parallel and '
        "Distributed Systems* 20(7), 2009.",
    ),
}


#: The papers schedsim reproduces (a package of `schedsim.papers` each), by seed number.
REPRODUCED: tuple[str, ...] = tuple(k for k, p in PAPERS.items() if p.seed)
