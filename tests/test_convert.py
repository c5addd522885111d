"""``schedsim convert``: a workload written in another format, read back by independent readers."""

from __future__ import annotations

import gzip
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from schedsim.app.cli import main
from schedsim.workloads import catalog
from schedsim.workloads.convert import convert, recorded_schedule
from schedsim.workloads.slurm import read_sacct
from schedsim.workloads.swf import read_swf

SACCT = Path(__file__).parent / "data" / "sacct" / "allocations.txt"


def _swf_lines(path: Path) -> tuple[list[str], list[list[float]]]:
    """Header and job lines of an SWF file, parsed by splitting (no schedsim reader)."""
    raw = path.read_bytes()
    text = (gzip.decompress(raw) if path.name.endswith(".gz") else raw).decode()
    header = [ln for ln in text.splitlines() if ln.startswith(";")]
    rows = [[float(v) for v in ln.split()] for ln in text.splitlines() if ln and ln[0] != ";"]
    return header, rows


@pytest.mark.parametrize("name", ["out.swf", "out.swf.gz"])
def test_sacct_to_swf_keeps_every_field(tmp_path: Path, name: str) -> None:
    w = read_sacct(SACCT)
    out = convert(w, tmp_path / name)
    header, rows = _swf_lines(out)
    assert all(len(r) == 18 for r in rows) and len(rows) == len(w)
    # Every value the reader put in the job's SWF fields is on its line (field 10's
    # fractional KB per core too), the waits and run times being the log's own.
    for job, row in zip(w, rows, strict=True):
        assert job.swf is not None
        assert row == pytest.approx(list(job.swf))
    assert "; Note: converted to SWF by schedsim (the log's own waits and run times)" in header
    assert not any("simulated" in ln for ln in header)
    assert any(
        ln.startswith("; Note: schedsim cleaning: dropped: not ended: 4 jobs") for ln in header
    )
    assert "; Partition: 3 bigmem" in header and "; MaxJobs: 13" in header
    # And schedsim's own reader gives the same jobs back.
    again = read_swf(out)
    assert [(j.submit, j.run_time, j.size, j.estimate) for j in again] == [
        (j.submit, j.run_time, j.size, j.estimate) for j in w
    ]


def test_swf_to_parquet_read_by_pyarrow(tmp_path: Path) -> None:
    w = read_sacct(SACCT)
    out = convert(w, tmp_path / "jobs.parquet")
    table = pq.read_table(out).to_pandas()
    assert len(table) == len(w)
    assert catalog.load(out)[0].run_time == w[0].run_time


def test_recorded_schedule_missing_values_are_nan() -> None:
    w = catalog.load("lublin256")
    sched = recorded_schedule(w)
    assert list(sched.columns) == ["id", "wait", "run", "status"]
    assert len(sched) == len(w)


def test_existing_file_is_kept_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "out.swf"
    out.write_text("mine")
    with pytest.raises(FileExistsError, match="exists"):
        convert(read_sacct(SACCT), out)
    assert out.read_text() == "mine"
    convert(read_sacct(SACCT), out, force=True)
    assert out.read_text().startswith(";")


def test_unknown_ending_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"end it in \.swf, \.swf\.gz, \.parquet, \.json"):
        convert(read_sacct(SACCT), tmp_path / "out.csv")


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ctc.swf"
    assert main(["convert", str(SACCT), str(out)]) == 0
    said = capsys.readouterr().out
    assert "cleaning: dropped: never started: 2 jobs" in said and "wrote" in said
    assert main(["convert", str(SACCT), str(out)]) == 2
    assert "exists" in capsys.readouterr().err
    # A simulation of the Slurm jobs needs the machine, which sacct does not give.
    assert main(["run", "--workload", str(SACCT), "--out", str(tmp_path / "r")]) == 2
    assert "--nodes" in capsys.readouterr().err
    run = ["run", "--workload", str(SACCT), "--nodes", "256", "--no-progress"]
    assert main([*run, "--out", str(tmp_path / "r")]) == 0
