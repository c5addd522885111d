"""Schwiegelshohn & Yahyapour 1998: the paper's Tables 4-9, as printed."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

__all__ = ["MONTHS", "STRATEGIES", "TABLE2", "TABLES", "PaperTable"]


#: The paper's months (Tables 4-9): the study's ``month`` -> the paper's row name.
MONTHS: dict[str, str] = {
    "1996-07": "Jul 96", "1996-08": "Aug 96", "1996-09": "Sep 96", "1996-10": "Oct 96",
    "1996-11": "Nov 96", "1996-12": "Dec 96", "1997-01": "Jan 97", "1997-02": "Feb 97",
    "1997-03": "Mar 97", "1997-04": "Apr 97", "1997-05": "May 97",
}  # fmt: skip
#: Table 2, "Number of Jobs": per month, the jobs of the month and the percent of them
#: needing at most 256 and at most 128 nodes (as printed, to 0.01%; the paper labels
#: the months of 1997 "96").
TABLE2: dict[str, tuple[int, float, float]] = {
    "1996-07": (7953, 99.75, 99.30), "1996-08": (7302, 99.69, 99.07),
    "1996-09": (6188, 99.87, 98.67), "1996-10": (7288, 99.85, 99.75),
    "1996-11": (7849, 99.90, 99.58), "1996-12": (7900, 99.91, 99.85),
    "1997-01": (7544, 99.92, 99.50), "1997-02": (8188, 99.87, 99.65),
    "1997-03": (6945, 99.83, 99.48), "1997-04": (6118, 99.74, 99.46),
    "1997-05": (5992, 99.87, 99.50),
}  # fmt: skip
#: Table 3's strategies; the policy names that run them.
STRATEGIES: tuple[str, ...] = ("PFCFS1", "PFCFS2", "PFCFS3")


@dataclass(frozen=True)
class PaperTable:
    """One of Tables 4-9: percent changes against FCFS, per month (rows in `MONTHS`
    order) and strategy (columns PFCFS1-3), and the printed Sum row."""

    number: int
    metric: str
    nodes: int
    months: tuple[tuple[float, float, float], ...]
    total: tuple[float, float, float]

    @property
    def name(self) -> str:
        return f"Table {self.number}"

    def frame(self) -> pd.DataFrame:
        """The monthly percents: index the study's months, columns `STRATEGIES`
        (made once per table; not to be changed)."""
        frame = _FRAMES.get(self.number)
        if frame is None:
            frame = pd.DataFrame(list(self.months), index=list(MONTHS), columns=list(STRATEGIES))
            _FRAMES[self.number] = frame
        return frame


_FRAMES: dict[int, pd.DataFrame] = {}


#: Tables 4-9 of the appendix, as printed (percent; negative: better than FCFS).
TABLES: tuple[PaperTable, ...] = (
    PaperTable(4, "makespan", 128, (
        (-3.5, -16.3, 20.0), (-8.3, -22.2, 14.3), (-10.0, -25.4, 8.7), (-4.9, -23.2, 12.2),
        (-18.0, -30.0, 11.2), (-12.5, -22.3, 20.3), (-4.9, -16.9, 16.4), (-4.1, -15.4, 32.3),
        (-5.6, -14.1, 15.4), (-14.3, -26.7, 8.6), (-15.8, -29.2, 3.0),
    ), (-9.5, -22.1, 14.4)),
    PaperTable(5, "weighted_completion_time", 128, (
        (-7.1, -19.7, 13.8), (-6.1, -20.4, 13.2), (-10.9, -25.5, 6.5), (-3.3, -20.9, 11.5),
        (-21.0, -33.4, 5.7), (-15.0, -25.6, 20.7), (-4.6, -13.4, 12.1), (-5.8, -18.3, 25.0),
        (-5.3, -14.2, 16.7), (-11.8, -24.5, 11.8), (-14.0, -28.4, 2.7),
    ), (-9.6, -22.2, 12.3)),
    PaperTable(6, "weighted_flow_time", 128, (
        (-10.4, -30.6, 22.0), (-22.6, -41.9, 2.0), (-15.9, -37.3, 9.4), (-5.2, -32.9, 17.4),
        (-29.7, -47.3, 8.1), (-22.4, -39.1, 31.7), (28.1, 9.6, 63.0), (-8.2, -28.8, 38.3),
        (-8.4, -22.3, 26.2), (-18.4, -38.3, 18.4), (-19.5, -39.5, 3.7),
    ), (-13.6, -33.2, 19.1)),
    PaperTable(7, "makespan", 256, (
        (-5.2, -6.9, 13.3), (-2.4, -9.0, 11.7), (-8.1, -19.6, 18.2), (-23.5, -28.7, -6.5),
        (-0.5, -9.6, 24.2), (-0.6, -5.6, 18.9), (-11.9, -18.7, 12.1), (-8.5, -13.7, 29.6),
        (-2.4, -7.3, 16.1), (-1.6, -8.6, 24.3), (1.4, -9.1, 24.4),
    ), (-6.4, -13.0, 16.2)),
    PaperTable(8, "weighted_completion_time", 256, (
        (-9.3, -11.6, 12.4), (-1.5, -8.1, 8.1), (-9.4, -19.4, 13.8), (0.9, -4.5, 20.7),
        (-0.7, -8.5, 23.1), (0.0, -6.2, 19.5), (-11.2, -15.9, 2.3), (-11.9, -15.1, 7.9),
        (-4.1, -7.5, 11.6), (0.9, -6.2, 22.9), (3.2, -7.2, 24.0),
    ), (-4.2, -10.4, 14.6)),
    PaperTable(9, "weighted_flow_time", 256, (
        (-37.2, -46.8, 49.8), (-6.9, -36.5, 36.9), (-24.9, -51.9, 35.5), (4.7, -22.0, 190.6),
        (-3.2, -31.8, 86.1), (-2.2, -30.1, 81.2), (-30.7, -42.3, 6.9), (-36.2, -47.3, 23.7),
        (-14.4, -28.0, 44.2), (5.3, -41.3, 147.3), (9.8, -22.5, 73.3),
    ), (-16.1, -38.0, 55.6)),
)  # fmt: skip


def _table(metric: str, nodes: int) -> PaperTable:
    return next(t for t in TABLES if t.metric == metric and t.nodes == nodes)
