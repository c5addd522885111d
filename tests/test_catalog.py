"""Workload logs by name (schedsim.workloads.catalog and schedsim.workloads.archive)."""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import logging
import socket
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from schedsim.workloads import archive, catalog
from schedsim.workloads.swf import read_header

SWF_LINE = "1 0 -1 100 4 -1 -1 4 200 -1 1 7 3 11 1 2 -1 -1\n"


def test_shipped_names_and_default():
    assert set(catalog.SHIPPED) == {"kth", "ctc", "sdsc-sp2", "sdsc-par", "lublin256"}
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


# ---- the archive's other logs: table, download on first use, cache, checksums ----------
#
# No test here reaches the network: an autouse fixture points the archive's address at a
# closed port on 127.0.0.1 and the cache at a temporary folder, and the download tests
# serve small generated SWF files from a local HTTP server in a background thread.

REPO = Path(__file__).resolve().parent.parent
#: The archive copies beside the checkout (shared/traces), when there.
SHARED_TRACES = REPO.parent / "shared" / "traces"


def closed_port_url() -> str:
    """An address on this machine where nothing listens: connections are refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/"


@pytest.fixture(autouse=True)
def offline_archive(tmp_path, monkeypatch):
    """Every test: a fresh cache, and an archive address that answers nothing."""
    cache = tmp_path / "cache"
    monkeypatch.setenv(archive.CACHE_VARIABLE, str(cache))
    monkeypatch.setenv(archive.URL_VARIABLE, closed_port_url())
    # requests honours proxy variables; a local server must be reached directly.
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    return cache


def make_swf(jobs: int = 12, procs: int = 8, seed: int = 0) -> bytes:
    """A small valid SWF log, gzip-compressed (mtime 0: the same bytes every time)."""
    lines = ["; Version: 2.2", "; Computer: Test cluster", f"; MaxProcs: {procs}"]
    for i in range(1, jobs + 1):
        size = 1 + (i + seed) % procs
        lines.append(f"{i} {60 * i} -1 {100 + i} {size} -1 -1 {size} 300 -1 1 1 1 1 1 1 -1 -1")
    return gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0)


class Archive:
    """A local stand-in for the archive: files under ``root/<folder>/<file>``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.requests: list[str] = []
        archive_self = self

        class Handler(SimpleHTTPRequestHandler):
            def log_message(self, format, *args):  # quiet; count instead
                archive_self.requests.append(self.path)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=root))
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()

    def put(self, name: str, data: bytes) -> Path:
        log = archive.LOGS[name]
        path = self.root / log.folder / log.file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return path

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


@pytest.fixture
def server(tmp_path, monkeypatch):
    served = Archive(tmp_path / "served")
    monkeypatch.setenv(archive.URL_VARIABLE, served.url)
    yield served
    served.stop()


def pin(monkeypatch, name: str, data: bytes | None) -> None:
    """Give a table entry the checksum of ``data`` (None: no published checksum)."""
    digest = None if data is None else hashlib.sha256(data).hexdigest()
    entry = dataclasses.replace(archive.LOGS[name], sha256=digest)
    monkeypatch.setitem(archive.LOGS, name, entry)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_every_table_entry_has_a_name_an_address_and_a_citation():
    assert len(archive.LOGS) >= 30
    stems = set()
    for name, log in archive.LOGS.items():
        assert name == log.name == name.strip().lower() and " " not in name
        assert log.file.endswith(".swf.gz") and log.folder.startswith("l_")
        assert log.url(archive.ARCHIVE_URL) == (
            f"https://www.cs.huji.ac.il/labs/parallel/workload/{log.folder}/{log.file}"
        )
        assert log.machine
        assert log.citation.startswith("Feitelson, Tsafrir and Krakov, JPDC 74(10) 2014; ")
        assert "\n" not in log.citation
        if log.sha256 is not None:
            assert len(log.sha256) == 64 and int(log.sha256, 16) >= 0
            assert log.jobs_counted  # a file we have seen: its jobs were counted
        stems.add(log.stem.lower())
    assert len(stems) == len(archive.LOGS)
    for name in ("hpc2n", "lanl-cm5", "nasa-ipsc", "sdsc-blue", "sdsc-par", "sandia-ross",
                 "llnl-thunder", "llnl-atlas", "llnl-ubgl", "anl-intrepid", "cea-curie", "ricc",
                 "metacentrum", "pik-iplex", "lpc-egee", "osc-clust", "sdsc-ds", "sharcnet",
                 "kit-fh2"):  # fmt: skip
        assert name in archive.LOGS
    assert archive.LOGS["sdsc-par"].file == "SDSC-Par-1996-3.1-cln.swf.gz"
    assert archive.LOGS["sdsc-par"].folder == "l_sdsc_par"
    assert "Experience with using the Parallel Workloads Archive" in archive.ARCHIVE_CITATION


def test_shipped_files_match_the_table():
    for name, file in catalog.SHIPPED.items():
        if name not in archive.LOGS:
            continue  # lublin256 is the archive's model output, not one of its logs
        log = archive.LOGS[name]
        assert log.file == file
        assert sha(catalog.resolve(name)) == log.sha256


@pytest.mark.skipif(not SHARED_TRACES.is_dir(), reason="no archive copies beside the checkout")
def test_archive_copies_match_the_table():
    by_file = {log.file: log for log in archive.LOGS.values()}
    checked = 0
    for path in sorted(SHARED_TRACES.glob("*.swf.gz")):
        if path.name in by_file:
            assert sha(path) == by_file[path.name].sha256, path.name
            checked += 1
    assert checked >= 8


def test_names_are_the_short_name_or_the_archives_own():
    assert archive.lookup("hpc2n") is archive.LOGS["hpc2n"]
    assert archive.lookup(" HPC2N ") is archive.LOGS["hpc2n"]
    assert archive.lookup("HPC2N-2002-2.2-cln") is archive.LOGS["hpc2n"]
    # A file name is a file name: a local file of that name must not be shadowed.
    assert archive.lookup("HPC2N-2002-2.2-cln.swf.gz") is None
    assert archive.lookup("nope") is None
    assert catalog.names()[: len(catalog.SHIPPED)] == list(catalog.SHIPPED)
    assert set(catalog.names()) == set(catalog.SHIPPED) | set(archive.LOGS)


def test_unknown_name_lists_the_archive_logs_too():
    with pytest.raises(ValueError, match="not a shipped trace") as info:
        catalog.resolve("hpc2m")
    text = str(info.value)
    assert "\n" not in text
    for name in ("kth", "hpc2n", "llnl-thunder"):
        assert name in text


def test_shipped_logs_never_touch_the_network(offline_archive):
    assert catalog.resolve("kth").name == catalog.SHIPPED["kth"]
    assert catalog.resolve("KTH-SP2-1996-2.1-cln") == catalog.resolve("kth")
    assert len(catalog.load("lublin256")) == 10000
    assert not offline_archive.exists()  # nothing was cached, nothing downloaded


def test_cache_folder_and_address_defaults(monkeypatch, tmp_path):
    import pooch

    monkeypatch.delenv(archive.CACHE_VARIABLE)
    monkeypatch.delenv(archive.URL_VARIABLE)
    assert archive.cache_dir() == Path(pooch.os_cache("schedsim"))
    assert archive.base_url() == archive.ARCHIVE_URL
    monkeypatch.setenv(archive.CACHE_VARIABLE, "~/somewhere")
    assert archive.cache_dir() == Path.home() / "somewhere"
    monkeypatch.setenv(archive.URL_VARIABLE, "http://mirror.example/pwa")
    assert (
        archive.LOGS["hpc2n"].url() == "http://mirror.example/pwa/l_hpc2n/HPC2N-2002-2.2-cln.swf.gz"
    )


def test_first_download_is_verified_cached_and_loads(server, offline_archive, monkeypatch):
    data = make_swf()
    pin(monkeypatch, "hpc2n", data)
    server.put("hpc2n", data)
    w = catalog.load("hpc2n")
    assert len(w) == 12 and w.header.machine_size == 8
    cached = offline_archive / "HPC2N-2002-2.2-cln.swf.gz"
    assert cached.read_bytes() == data
    assert server.requests == ["/l_hpc2n/HPC2N-2002-2.2-cln.swf.gz"]
    # A published checksum needs no record, and nothing else is left in the cache.
    assert sorted(p.name for p in offline_archive.iterdir()) == [cached.name]
    # Second use: from the cache, with the server gone.
    server.stop()
    assert catalog.resolve("HPC2N") == cached
    assert len(catalog.load("HPC2N-2002-2.2-cln")) == 12


def test_unverified_first_download_is_recorded_then_checked(server, offline_archive, caplog):
    log = archive.LOGS["llnl-thunder"]
    assert log.sha256 is None  # no published checksum: trust on first use
    data = make_swf(jobs=5)
    server.put("llnl-thunder", data)
    with caplog.at_level(logging.WARNING, logger=archive.__name__):
        path = catalog.resolve("llnl-thunder")
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "\n" not in warnings[0]
    assert "llnl-thunder" in warnings[0] and "not verified" in warnings[0]
    record = offline_archive / (log.file + ".sha256")
    assert record.read_text() == f"{hashlib.sha256(data).hexdigest()}  {log.file}\n"
    # Later uses are checked against the record, silently.
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger=archive.__name__):
        assert catalog.resolve("llnl-thunder") == path
    assert not caplog.records
    # A damaged cached file is caught, moved aside, and never read as good.
    path.write_bytes(make_swf(jobs=6))
    with pytest.raises(archive.ChecksumError) as info:
        catalog.load("llnl-thunder")
    text = str(info.value)
    assert "\n" not in text and "llnl-thunder" in text and "recorded sha256" in text
    assert not path.exists() and path.with_name(path.name + ".bad").exists()
    # The next use downloads afresh, checked against the record.
    assert len(catalog.load("llnl-thunder")) == 5
    assert server.requests == [f"/{log.folder}/{log.file}"] * 2


def test_checksum_failure_keeps_nothing(server, offline_archive, monkeypatch):
    pin(monkeypatch, "hpc2n", make_swf())
    server.put("hpc2n", make_swf(seed=1))  # not the published file
    with pytest.raises(archive.ChecksumError) as info:
        catalog.load("hpc2n")
    text = str(info.value)
    assert "\n" not in text
    assert "hpc2n" in text and server.url in text and "not kept" in text
    assert list(offline_archive.iterdir()) == []  # no file, no temporary left behind


def test_changed_file_under_a_recorded_checksum_is_refused(server, offline_archive):
    server.put("ricc", make_swf())
    catalog.resolve("ricc")
    (offline_archive / archive.LOGS["ricc"].file).unlink()
    server.put("ricc", make_swf(seed=3))  # the archive "changed" the file
    with pytest.raises(archive.ChecksumError, match=r"delete .*RICC-2010-2\.swf\.gz\.sha256"):
        catalog.resolve("ricc")
    assert not (offline_archive / archive.LOGS["ricc"].file).exists()


def test_offline_error_names_the_log_the_address_and_what_to_do(offline_archive):
    url = archive.LOGS["sandia-ross"].url()
    with pytest.raises(OSError) as info:
        catalog.load("sandia-ross")
    text = str(info.value)
    assert isinstance(info.value, archive.DownloadError)
    assert "\n" not in text
    assert text.startswith("sandia-ross: ")
    assert url in text and "no connection" in text
    assert f"by hand into {offline_archive}/" in text and "give a path" in text


def test_stopped_server_and_missing_file_are_download_errors(server, offline_archive):
    with pytest.raises(archive.DownloadError, match="answered HTTP 404"):
        catalog.resolve("kit-fh2")  # the server has no such file
    server.stop()
    with pytest.raises(archive.DownloadError, match="no connection"):
        catalog.resolve("kit-fh2")
    assert list(offline_archive.iterdir()) == []


def test_a_log_copied_into_the_cache_by_hand_works_offline(offline_archive, monkeypatch):
    data = make_swf(jobs=7)
    pin(monkeypatch, "hpc2n", data)
    offline_archive.mkdir()
    (offline_archive / "HPC2N-2002-2.2-cln.swf.gz").write_bytes(data)
    assert len(catalog.load("hpc2n")) == 7


def test_command_line_runs_an_archive_log_and_reports_offline_errors(
    server, tmp_path, capsys, monkeypatch
):
    from schedsim.app.cli import main

    server.put("nasa-ipsc", make_swf(jobs=20, procs=4))
    pin(monkeypatch, "nasa-ipsc", make_swf(jobs=20, procs=4))
    out = tmp_path / "run"
    code = main(["run", "--workload", "nasa-ipsc", "--no-progress", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    assert (out / "jobs.parquet").exists()
    capsys.readouterr()
    server.stop()
    code = main(["run", "--workload", "lanl-cm5", "--out", str(tmp_path / "o2")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("schedsim: error: lanl-cm5: cannot download ")


def test_study_configurations_name_archive_logs(server, monkeypatch):
    from schedsim.app.study import RunConfig, workload_identity

    data = make_swf(jobs=9, procs=4)
    server.put("hpc2n", data)
    pin(monkeypatch, "hpc2n", data)
    assert workload_identity("hpc2n") == "sha256:" + hashlib.sha256(data).hexdigest()
    result = RunConfig(workload="hpc2n", policy="easy").simulation().run()
    assert result.summary()["jobs"] == 9


def test_workloads_listing_shows_shipped_cached_and_downloadable(
    server, offline_archive, capsys, monkeypatch
):
    from schedsim.app.cli import main

    monkeypatch.setenv("COLUMNS", "200")  # one line per log
    data = make_swf()
    server.put("hpc2n", data)
    pin(monkeypatch, "hpc2n", data)
    catalog.resolve("hpc2n")
    assert main(["workloads"]) == 0
    text = capsys.readouterr().out
    rows = {line.split()[0]: line for line in text.splitlines() if line.strip()}
    for name in catalog.names():
        assert name in rows, name
    assert "shipped" in rows["kth"] and "(default)" in rows["kth"]
    assert "Lars Malinowsky" in rows["kth"] and "28,476" in rows["kth"]
    assert "cached" in rows["hpc2n"] and "Ake Sandgren" in rows["hpc2n"]
    assert "downloadable" in rows["llnl-thunder"] and "Moe Jette" in rows["llnl-thunder"]
    assert "128,662*" in rows["llnl-thunder"]
    assert archive.ARCHIVE_CITATION in text
    assert str(offline_archive) in text and archive.CACHE_VARIABLE in text
    assert [e.status for e in catalog.listing() if e.log.name == "hpc2n"] == ["cached"]
