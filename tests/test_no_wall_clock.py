"""No test times itself: speed is measured in benchmarks/, never asserted in a test.

A wall-clock limit in a test fails by chance on a loaded machine (a CI runner, a
laptop building the docs) and passes by chance on a fast one; the timings live in
``benchmarks/`` (e.g. ``benchmarks/summaries.py``), which report them. This reads
every Python file under ``tests/`` and fails on a call of the clocks a timing
needs. Replacing them (``monkeypatch.setattr(module.time, "perf_counter", ...)``, as
tests/test_benchmarks_smoke.py does to check a benchmark's arithmetic) is no call
and is fine.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

#: The clocks of the ``time`` module a test may not read.
CLOCKS = frozenset(
    {"perf_counter", "time", "process_time", "perf_counter_ns", "time_ns", "process_time_ns"}
)


def clock_calls(source: str) -> list[tuple[int, str]]:
    """(line, name) of every call of a `CLOCKS` function in ``source``: ``time.X()``,
    ``T.X()`` after ``import time as T``, and ``X()`` or ``Y()`` after
    ``from time import X`` or ``from time import X as Y``."""
    tree = ast.parse(source)
    modules, names = set(), {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {a.asname or a.name for a in node.names if a.name == "time"}
        elif isinstance(node, ast.ImportFrom) and node.module == "time":
            names |= {(a.asname or a.name): a.name for a in node.names if a.name in CLOCKS}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in CLOCKS
            and isinstance(func.value, ast.Name)
            and func.value.id in modules
        ):
            found.append((node.lineno, f"{func.value.id}.{func.attr}()"))
        elif isinstance(func, ast.Name) and func.id in names:
            found.append((node.lineno, f"{func.id}() (time.{names[func.id]})"))
    return sorted(found)


def test_no_test_file_reads_a_clock() -> None:
    offenders = [
        f"{path.relative_to(TESTS.parent)}:{line}: {call}"
        for path in sorted(TESTS.rglob("*.py"))
        for line, call in clock_calls(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, "a timing belongs in benchmarks/, not in a test:\n" + "\n".join(offenders)


@pytest.mark.parametrize(
    "source",
    [
        "import time\nt = time.perf_counter()",
        "import time\nt = time.time()",
        "import time\nt = time.process_time()",
        "import time as clock\nt = clock.perf_counter_ns()",
        "from time import perf_counter\nt = perf_counter()",
        "from time import time as now\nt = now()",
        "import time\ndef f():\n    return time.perf_counter() - 1.0",
    ],
)
def test_the_guard_finds_every_spelling(source: str) -> None:
    assert len(clock_calls(source)) == 1


@pytest.mark.parametrize(
    "source",
    [
        'import time\ndef t(monkeypatch):\n    monkeypatch.setattr(time, "perf_counter", f)',
        "import time\ntime.sleep(0)",
        "import time\ndeadline = time.monotonic() + 60  # a safety limit on a wait",
        "def time():\n    return 1\nt = time()",  # not the time module's
        "import other\nt = other.perf_counter()",
    ],
)
def test_the_guard_leaves_other_code_alone(source: str) -> None:
    assert clock_calls(source) == []
