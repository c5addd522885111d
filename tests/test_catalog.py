"""Shipped traces (schedsim.workloads.catalog)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schedsim.workloads import catalog
from schedsim.workloads.swf import read_header

SWF_LINE = "1 0 -1 100 4 -1 -1 4 200 -1 1 7 3 11 1 2 -1 -1\n"


def test_shipped_names_and_default():
    assert set(catalog.SHIPPED) == {"kth", "ctc", "sdsc-sp2", "lublin256"}
    assert catalog.DEFAULT == "kth"
    assert catalog.DEFAULT in catalog.SHIPPED


@pytest.mark.parametrize("name", sorted(catalog.SHIPPED))
def test_every_shipped_file_resolves_and_is_gzip(name):
    path = catalog.resolve(name)
    assert isinstance(path, Path) and path.is_file()
    assert path.name == catalog.SHIPPED[name]
    assert path.read_bytes()[:2] == b"\x1f\x8b"


def test_resolve_is_case_insensitive():
    assert catalog.resolve("KTH") == catalog.resolve("kth") == catalog.resolve(" Kth ")
    assert catalog.resolve("SDSC-SP2").name == "SDSC-SP2-1998-4.2-cln.swf.gz"


def test_resolve_accepts_existing_paths(tmp_path):
    path = tmp_path / "mine.swf"
    path.write_text(SWF_LINE)
    assert catalog.resolve(path) == path
    assert catalog.resolve(str(path)) == path


def test_shipped_name_wins_over_a_local_file(tmp_path, monkeypatch):
    (tmp_path / "kth").write_text(SWF_LINE)
    monkeypatch.chdir(tmp_path)
    assert catalog.resolve("kth").name == catalog.SHIPPED["kth"]


def test_unknown_name_lists_the_shipped_ones(tmp_path):
    with pytest.raises(ValueError) as info:
        catalog.resolve(tmp_path / "missing.swf")
    text = str(info.value)
    assert "missing.swf" in text
    for name in catalog.SHIPPED:
        assert name in text
    with pytest.raises(ValueError, match="not a shipped trace"):
        catalog.resolve("kth2")


def test_load_shipped_and_path(tmp_path):
    w = catalog.load("lublin256")
    assert len(w) == 10000
    assert w.name == "lublin_256"
    assert w.header.machine_size == 256
    # Every Lublin job lacks a requested time: the reader says so.
    assert [(s.name, s.count) for s in w.cleaning] == [("estimate missing: used run time", 10000)]
    path = tmp_path / "mine.swf"
    path.write_text(SWF_LINE)
    mine = catalog.load(path, name="custom", clean=False)
    assert mine.name == "custom" and len(mine) == 1


def test_describe_uses_each_header():
    described = dict(catalog.describe())
    assert list(described) == list(catalog.SHIPPED)
    for name, text in described.items():
        assert text and "\n" not in text
        header = read_header(catalog.resolve(name))
        assert str(header.machine_size) in text
        for key in ("Computer", "Installation"):
            if key in header.fields:
                assert header.fields[key] in text
    assert "Cornell Theory Center (CTC)" in described["ctc"]
    assert "Swedish Royal Institute of Technology (KTH)" in described["kth"]
    assert "Uri Lublin" in described["lublin256"]
