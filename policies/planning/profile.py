"""The availability profile: free cores over future time, as the backfilling family plans.

A step function of free cores over future time: ``free[i]`` cores are free
in ``[times[i], times[i+1])`` and the last step lasts forever. Reservations
and running jobs (by their estimates) are subtracted from it; the anchor
point of a job (Kettimuthu 2003, section 2.1.1: "the earliest time at which a
sufficient number of processors are available to run the job for a
duration equal to the user estimated run time") is found by one scan.
`Profile.of_running` builds one from a view's running jobs and `Profile.copy`
gives an independent copy, so a policy can ask "what if" without touching
its own plan (`schedsim.policies.planning.conservative`).

Plain Python lists with `bisect`: profiles hold tens to a few hundred steps,
where list operations beat numpy's per-call overhead.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from typing import Protocol

INF = float("inf")

#: A running job that has outlived its estimate (possible only when jobs are
#: not killed at their estimate) is planned to end at least this long after now.
OVERRUN_GRACE = 1.0


class Planned(Protocol):
    """What planning reads of a running job: its cores and when it is expected to end."""

    @property
    def size(self) -> int: ...

    @property
    def expected_end(self) -> float: ...


def planned_end(expected_end: float, now: float) -> float:
    """When to plan a running job's cores free: at its estimated end, if still ahead.

    A job that has outlived its estimate by ``x`` seconds is planned to run
    ``max(x, OVERRUN_GRACE)`` more: nothing tells when it will end, and
    doubling the guess each time it proves wrong keeps the number of
    re-plans logarithmic in the overrun instead of one per second.
    """
    if expected_end > now:
        return expected_end
    return now + max(now - expected_end, OVERRUN_GRACE)


class Profile:
    """Free cores over time, from ``times[0]`` (the present) on."""

    __slots__ = ("free", "times", "total")

    def __init__(self, now: float, total: int) -> None:
        self.total = total
        self.times: list[float] = [now]
        self.free: list[int] = [total]

    @classmethod
    def of_running(cls, now: float, free: int, running: Iterable[Planned]) -> Profile:
        """The profile the running jobs leave: ``free`` cores now, and each job's cores
        from its planned end on (`planned_end`). Cores held otherwise (suspended jobs
        writing out, say) are not in it: its total is ``free`` plus the running jobs'."""
        # Each job frees its cores at its planned end itself (now + (end - now) can
        # miss it by an ulp, and a profile that frees cores an ulp early starts a job
        # on them): one step per distinct end, built in one sorted sweep.
        ends = sorted((planned_end(j.expected_end, now), j.size) for j in running)
        profile = cls(now, free + sum(size for _, size in ends))
        times, levels = profile.times, profile.free
        levels[0] = free
        for end, size in ends:
            if end == times[-1]:
                levels[-1] += size
            else:
                times.append(end)
                levels.append(levels[-1] + size)
        return profile

    def copy(self) -> Profile:
        """An independent copy (changing one leaves the other as it was)."""
        out = Profile.__new__(Profile)
        out.total = self.total
        out.times = list(self.times)
        out.free = list(self.free)
        return out

    def __repr__(self) -> str:
        steps = ", ".join(f"{t:g}:{f}" for t, f in zip(self.times, self.free, strict=True))
        return f"Profile({steps})"

    def advance(self, now: float) -> None:
        """Forget the past: the profile starts at ``now``."""
        i = bisect_right(self.times, now) - 1
        if i > 0:
            del self.times[:i]
            del self.free[:i]
        self.times[0] = now

    def free_at(self, t: float) -> int:
        return self.free[bisect_right(self.times, t) - 1]

    def min_free(self, start: float, end: float) -> int:
        """The fewest cores free at any time in ``[start, end)`` (``start`` >= the present).

        A job of ``c`` cores fits there, delaying no reservation in the profile,
        exactly when this is at least ``c``.
        """
        times, free = self.times, self.free
        i = max(bisect_right(times, start) - 1, 0)
        low = free[i]
        for j in range(i + 1, len(times)):
            if times[j] >= end:
                break
            if free[j] < low:
                low = free[j]
        return low

    def _split(self, t: float) -> int:
        """Index of a step starting exactly at ``t`` (made if needed; t >= times[0])."""
        times = self.times
        i = bisect_left(times, t)
        if i < len(times) and times[i] == t:
            return i
        times.insert(i, t)
        self.free.insert(i, self.free[i - 1])
        return i

    def add(self, start: float, end: float, cores: int) -> None:
        """Add ``cores`` free cores over ``[start, end)`` (negative to occupy)."""
        if not end > start:
            return
        a = self._split(start)
        b = self._split(end) if end < INF else len(self.times)
        free = self.free
        free[a:b] = [f + cores for f in free[a:b]]
        # Merge equal neighbours at the edges so the profile stays short.
        if b < len(free) and free[b] == free[b - 1]:
            del self.times[b]
            del free[b]
        if a > 0 and free[a] == free[a - 1]:
            del self.times[a]
            del free[a]

    def reserve(self, start: float, duration: float, cores: int) -> None:
        self.add(start, start + duration, -cores)

    def release(self, start: float, duration: float, cores: int) -> None:
        self.add(start, start + duration, cores)

    def earliest(
        self,
        cores: int,
        duration: float,
        after: float | None = None,
        limit: float = INF,
        own: tuple[float, float, int] | None = None,
    ) -> float:
        """The anchor point: earliest ``t >= after`` with ``cores`` free over ``[t, t+duration)``.

        ``limit`` stops the scan: if no anchor exists before ``limit``,
        ``limit`` is returned (used by compression, where a job's current
        reservation is always a valid fallback). ``own`` = ``(start, end,
        cores)`` counts the job's own current reservation as free, so a job
        can be re-anchored without first taking it out of the profile.
        """
        times, free = self.times, self.free
        n = len(times)
        j = 0 if after is None else max(bisect_right(times, after) - 1, 0)
        c = times[j] if after is None else max(after, times[0])
        o_start, o_end, o_cores = own if own is not None else (INF, INF, 0)
        while c < limit:
            avail = free[j] + (o_cores if o_start <= times[j] < o_end else 0)
            seg_end = times[j + 1] if j + 1 < n else INF
            if avail < cores:
                if seg_end == INF:
                    raise ValueError(f"{cores} cores can never be free (machine has {self.total})")
                c = seg_end
            elif seg_end >= c + duration:
                return c
            j += 1
        return limit

    def earliest_before(self, cores: int, duration: float, start: float) -> float:
        """Re-anchor a job reserved at ``start``: the earliest anchor, never after ``start``.

        Used by compression. The job's own reservation ``[start, start +
        duration)`` counts as free, and a window that begins before
        ``start`` ends before the reservation does, so the part of the
        window inside the reservation always fits. A window beginning at
        ``c < start`` therefore fits exactly when the cores are free over
        ``[c, min(c + duration, start))``: the first run of steps with
        enough free cores that lasts ``duration`` or reaches ``start``.
        """
        times, free = self.times, self.free
        k = bisect_left(times, start)
        c = None
        for j in range(k):
            if free[j] >= cores:
                if c is None:
                    c = times[j]
                if j + 1 == k or times[j + 1] >= c + duration:
                    return c
            else:
                c = None
        return start

    def check(self) -> None:
        """Raise if the profile is inconsistent (used by tests)."""
        if any(b <= a for a, b in zip(self.times, self.times[1:], strict=False)):
            raise AssertionError(f"profile times not increasing: {self}")
        if any(f < 0 or f > self.total for f in self.free):
            raise AssertionError(f"profile free cores out of range: {self}")
