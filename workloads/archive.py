"""The logs of the Parallel Workloads Archive by short name, downloaded on first use.

`LOGS` is the table: for each log a short name (``hpc2n``, ``llnl-thunder``,
...), the archive's file and folder (its published address is
``https://www.cs.huji.ac.il/labs/parallel/workload/<folder>/<file>``), the
machine, the number of jobs, the donors the archive asks users to
acknowledge, and the file's SHA-256 where schedsim knows it. Where the
archive offers a cleaned version of a log (``-cln``) the table names it; a
few logs have none, and then the table names the archive's latest converted
version. The short name and the archive's own name (``HPC2N-2002-2.2-cln``)
both work, in any case. `schedsim.workloads.catalog` reads the table: a
name that is neither shipped nor in it is an error listing the names.

Download and cache. `fetch` downloads a log with `pooch` the first time it
is used and keeps it in a cache folder: ``pooch.os_cache("schedsim")`` (on
Linux ``~/.cache/schedsim``), or the folder named by the environment
variable ``SCHEDSIM_CACHE``. The archive's address can be replaced with
``SCHEDSIM_ARCHIVE_URL`` (a mirror, or a local server in the tests); the
folder layout below it stays the archive's. A log already in the cache is
read from there without touching the network, so a log copied into the cache
folder by hand (under its archive file name) makes it usable offline.

Checksums. Every use checks the file against a SHA-256:

- *Published in the table* (the logs whose archive file we have seen, byte
  for byte: the shipped KTH, CTC and SDSC SP2 logs and the archive copies of
  HPC2N, LANL CM-5, NASA iPSC, SDSC Blue and SDSC Paragon 1996): the download
  is verified before it is kept, and so is the cached file at every use.
- *Not known* (every other log: the archive publishes no checksums, and
  schedsim has not seen those files): the first download cannot be verified.
  It is kept, its SHA-256 is recorded beside it in ``<file>.sha256``
  (``sha256sum -c`` reads it), and a one-line warning says that it was not
  verified. Every later use is checked against that record, so a file that
  changes or is damaged in the cache is caught: trust on first use, said out
  loud, rather than a check that pretends to more than it knows.

A mismatch is an error (`ChecksumError`, a `ValueError`) on one line. A bad
download is not kept (pooch writes to a temporary file and keeps it only if
the hash matches); a bad cached file is moved aside to ``<file>.bad`` so that
it is never read as good, and the next use downloads the log afresh. A
download that fails (no network, an address that does not answer, HTTP 404)
is a `DownloadError` (an `OSError`) on one line naming the log, the address
tried and what to do: download the file by hand into the cache folder, or
give a path to a copy. The command line turns both into
``schedsim: error: ...``.

Citation. The archive asks that work using its logs cite

    Dror G. Feitelson, Dan Tsafrir and David Krakov, "Experience with using
    the Parallel Workloads Archive", Journal of Parallel and Distributed
    Computing 74(10), pp. 2967-2982, 2014.

and acknowledge each log's donors (named in the ``; Acknowledge:`` line of
the file's header); a few logs also ask for a paper of their own
(`Log.paper`). `Log.citation` is all of it on one line.

Sources. Names, folders, machines and counts come from the archive's pages
and from the headers of the files we have. The job counts of the files we
have were counted in them (`Log.jobs_counted`); the others are the archive's
count for the whole log, before any cleaning, so a cleaned file has fewer.
The addresses of ``sdsc-ds``, ``sharcnet``, ``sharcnet-whale``, ``pik-iplex``,
``lcg``, ``llnl-t3d``, ``lanl-o2k``, ``cea-curie``, ``kit-fh2`` and
``ciemat-euler`` were taken from published download lists rather than from
the archive's own pages, and ``lpc-egee``'s version (1.2) from most of them
(one says 1.3): if one has moved, the download error names the address tried.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "ARCHIVE_CITATION",
    "ARCHIVE_URL",
    "CACHE_VARIABLE",
    "LOGS",
    "URL_VARIABLE",
    "ChecksumError",
    "DownloadError",
    "Log",
    "base_url",
    "cache_dir",
    "cached_path",
    "fetch",
    "is_cached",
    "lookup",
    "sha256",
]

#: The archive's address; its logs are at ``<ARCHIVE_URL><folder>/<file>``.
ARCHIVE_URL = "https://www.cs.huji.ac.il/labs/parallel/workload/"
#: Environment variable replacing `ARCHIVE_URL` (a mirror, a local test server).
URL_VARIABLE = "SCHEDSIM_ARCHIVE_URL"
#: Environment variable naming the cache folder.
CACHE_VARIABLE = "SCHEDSIM_CACHE"

#: The paper the archive asks every user of its logs to cite.
ARCHIVE_CITATION = (
    'Dror G. Feitelson, Dan Tsafrir and David Krakov, "Experience with using the Parallel '
    'Workloads Archive", Journal of Parallel and Distributed Computing 74(10), '
    "pp. 2967-2982, 2014"
)
_ARCHIVE_SHORT = "Feitelson, Tsafrir and Krakov, JPDC 74(10) 2014"

LOGGER = logging.getLogger(__name__)

# Generous: the largest logs are tens of MB, and the archive's server is slow at times.
_TIMEOUT_S = 120


class DownloadError(OSError):
    """A log could not be downloaded (no network, no answer, HTTP error)."""


class ChecksumError(ValueError):
    """A downloaded or cached log does not match its SHA-256."""


@dataclass(frozen=True)
class Log:
    """One log of the Parallel Workloads Archive."""

    #: Short name, lower case (``hpc2n``).
    name: str
    #: The archive's file name (``HPC2N-2002-2.2-cln.swf.gz``).
    file: str
    #: The archive's folder for the log (``l_hpc2n``).
    folder: str
    #: The machine and where it ran.
    machine: str
    #: Processors (cores) of the machine: the header's MaxProcs where we have the file.
    processors: int | None
    #: Jobs: counted in the file if `jobs_counted`, else the archive's count for the log.
    jobs: int | None
    jobs_counted: bool
    #: Whom the archive asks users to acknowledge (None: see the file's header).
    donors: str | None
    #: SHA-256 of the archive's file, where schedsim has seen it (None: unknown).
    sha256: str | None = None
    #: A paper of the log's own that the archive asks users to cite.
    paper: str | None = None

    @property
    def stem(self) -> str:
        """The archive's name for the log: the file name without ``.swf.gz``."""
        return self.file.removesuffix(".gz").removesuffix(".swf")

    @property
    def cleaned(self) -> bool:
        """Whether this is the archive's cleaned version (flurries and anomalies removed)."""
        return "-cln" in self.file

    def url(self, base: str | None = None) -> str:
        """The download address, under `base_url` (or ``base``)."""
        root = base_url() if base is None else base.rstrip("/") + "/"
        return f"{root}{self.folder}/{self.file}"

    @property
    def acknowledgement(self) -> str:
        """The log's own part of the citation: its paper and donors."""
        parts = [self.paper] if self.paper else []
        if self.donors:
            parts.append(f"acknowledge {self.donors}")
        else:
            parts.append("acknowledge the donors in the file's '; Acknowledge:' line")
        return "; ".join(parts)

    @property
    def citation(self) -> str:
        """One line: the archive paper, the log's own paper and its donors."""
        return f"{_ARCHIVE_SHORT}; {self.acknowledgement}"


def _log(
    name: str,
    file: str,
    folder: str,
    machine: str,
    processors: int | None,
    jobs: int | None,
    donors: str | None,
    *,
    sha256: str | None = None,
    paper: str | None = None,
) -> Log:
    # A published checksum means we had the file, so its job count was counted in it.
    return Log(name, file, folder, machine, processors, jobs, sha256 is not None, donors,
               sha256, paper)  # fmt: skip


_MOE_JETTE = "Moe Jette"
_DAS2 = "Hui Li, David Groep and Lex Wolters"

#: Every log of the archive schedsim knows by name, in the archive's order (by year).
LOGS: dict[str, Log] = {
    log.name: log
    for log in (
        _log("nasa-ipsc", "NASA-iPSC-1993-3.1-cln.swf.gz", "l_nasa_ipsc",
             "Intel iPSC/860, NASA Ames", 128, 18_239, "Bill Nitzberg",
             sha256="5589ae9b2fb78e3bf92de097497cf33a91607de1ad54563e43533f7827597f29"),
        _log("lanl-cm5", "LANL-CM5-1994-4.1-cln.swf.gz", "l_lanl_cm5",
             "Thinking Machines CM-5, LANL", 1024, 122_060,
             "Curt Canada",
             sha256="71ff3dfa301b3ee1bd30ebc63c5363b5e8ec488e75f1f9398aa46d485ef23c3c"),
        _log("sdsc-par95", "SDSC-Par-1995-3.1-cln.swf.gz", "l_sdsc_par",
             "Intel Paragon, SDSC, 1995", None, 76_872,
             "Reagan Moore and Allen Downey"),
        _log("sdsc-par", "SDSC-Par-1996-3.1-cln.swf.gz", "l_sdsc_par",
             "Intel Paragon, SDSC, 1996", 400, 32_135,
             "Reagan Moore and Allen Downey",
             sha256="cb1aab02b5e3c34659d1c1d6f73c002d415229c59f40c03fab4e20331abdaff7"),
        _log("ctc", "CTC-SP2-1996-3.1-cln.swf.gz", "l_ctc_sp2",
             "IBM SP2, Cornell Theory Center", 338, 77_222,
             "Dan Dwyer and Steve Hotovy",
             sha256="9fa28ac16c4386fb81b72a91d8bd8888281df2948a9d912769d387c5ee285bb4"),
        _log("kth", "KTH-SP2-1996-2.1-cln.swf.gz", "l_kth_sp2",
             "IBM SP2, KTH Stockholm", 100, 28_476,
             "Lars Malinowsky",
             sha256="3e152f201fd2e96808a735bced6ea6eb0bb07fdc447689cafb0750d87b264c0b"),
        _log("llnl-t3d", "LLNL-T3D-1996-2.swf.gz", "l_llnl_t3d",
             "Cray T3D, LLNL", None, None, None),
        _log("sdsc-sp2", "SDSC-SP2-1998-4.2-cln.swf.gz", "l_sdsc_sp2",
             "IBM SP2, SDSC", 128, 59_715,
             "Victor Hazlewood",
             sha256="e03fe48be50c4ab04d6bb2285296d9c3399e9c1f27ee79b754ad32a14abd9bac"),
        _log("lanl-o2k", "LANL-O2K-1999-2.swf.gz", "l_lanl_o2k",
             "SGI Origin 2000 cluster, LANL", None, None, None),
        _log("osc-clust", "OSC-Clust-2000-3.1-cln.swf.gz", "l_osc",
             "Linux cluster, Ohio Supercomputer Center", None, None, None),
        _log("sdsc-blue", "SDSC-BLUE-2000-4.2-cln.swf.gz", "l_sdsc_blue",
             "IBM SP Blue Horizon, SDSC", 1152, 243_306,
             "Travis Earheart and Nancy Wilkins-Diehr",
             sha256="9aab21f3cfa108f3ecefa52391b384d996dcf4216f920186f47a734646b2c658"),
        _log("sandia-ross", "Sandia-Ross-2001-1.1-cln.swf.gz", "l_sandia_ross",
             "Cplant/Ross cluster, Sandia", None, None,
             "Jon Stearley"),
        _log("hpc2n", "HPC2N-2002-2.2-cln.swf.gz", "l_hpc2n",
             "Linux cluster Seth, HPC2N Umea", 240, 202_871,
             "Ake Sandgren",
             sha256="3c534857d6065cfd9cc35aac8d064c9c17172be7acf336de835006f43a626e64"),
        *(
            _log(f"das2-fs{i}", f"DAS2-fs{i}-2003-1.swf.gz", "l_das2",
                 f"DAS-2 fs{i}, {site}", cpus, jobs, _DAS2)
            for i, site, cpus, jobs in (
                (0, "VU Amsterdam", 144, 225_711),
                (1, "Leiden", 64, 40_315),
                (2, "UvA Amsterdam", 64, 66_429),
                (3, "TU Delft", 64, 66_737),
                (4, "Utrecht", 64, 33_795),
            )
        ),
        _log("sdsc-ds", "SDSC-DS-2004-2.1-cln.swf.gz", "l_sdsc_ds",
             "IBM DataStar, SDSC", None, None, None),
        _log("lpc-egee", "LPC-EGEE-2004-1.2-cln.swf.gz", "l_lpc",
             "LPC cluster, EGEE grid (serial jobs)", 140, 244_821,
             "Emmanuel Medernach"),
        _log("lcg", "LCG-2005-1.swf.gz", "l_lcg", "LHC Computing Grid (LCG)", None, None,
             None),
        _log("sharcnet", "SHARCNET-2005-2.swf.gz", "l_sharcnet",
             "SHARCNET clusters, Ontario", None, None, None),
        _log("sharcnet-whale", "SHARCNET-Whale-2006-2.swf.gz", "l_sharcnet",
             "SHARCNET Whale, Ontario", None, None, None),
        _log("llnl-atlas", "LLNL-Atlas-2006-2.1-cln.swf.gz", "l_llnl_atlas",
             "Linux cluster Atlas, LLNL", 9216, 60_332, _MOE_JETTE),
        _log("llnl-ubgl", "LLNL-uBGL-2006-2.swf.gz", "l_llnl_ubgl",
             "Blue Gene/L uBGL, LLNL", 2048, 112_611, _MOE_JETTE),
        _log("llnl-thunder", "LLNL-Thunder-2007-1.1-cln.swf.gz", "l_llnl_thunder",
             "Linux cluster Thunder, LLNL", 4096, 128_662, _MOE_JETTE),
        _log("ciemat-euler", "CIEMAT-Euler-2008-1.swf.gz", "l_ciemat_euler",
             "Euler cluster, CIEMAT", None, None, None),
        _log("anl-intrepid", "ANL-Intrepid-2009-1.swf.gz", "l_anl_int",
             "Blue Gene/P Intrepid, ANL", 163_840, 68_936,
             "Susan Coghlan and Narayan Desai (converted by Wei Tang)",
             paper="Tang, Lan, Desai, Buettner and Yu, IPDPS 2011, pp. 828-839"),
        _log("metacentrum", "METACENTRUM-2009-2.swf.gz", "l_metacentrum",
             "MetaCentrum grid, Czechia, 2009", 806, None,
             "the Czech National Grid Infrastructure MetaCentrum"),
        _log("pik-iplex", "PIK-IPLEX-2009-1.swf.gz", "l_pik_iplex",
             "IBM iDataPlex, PIK Potsdam",
             None, None, None),
        _log("ricc", "RICC-2010-2.swf.gz", "l_ricc",
             "RICC cluster, RIKEN",
             8192, 447_794, "Motoyoshi Kurokawa"),
        _log("cea-curie", "CEA-Curie-2011-2.1-cln.swf.gz", "l_cea_curie",
             "Curie, CEA France", None, None, None),
        _log("metacentrum2", "METACENTRUM-2013-3.swf.gz", "l_metacentrum2",
             "MetaCentrum grid, Czechia, 2013-15", None, 5_731_100,
             "the Czech National Grid Infrastructure MetaCentrum",
             paper="Klusacek, Toth and Podolnikova, JSSPP 2015"),
        _log("unilu-gaia", "UniLu-Gaia-2014-2.swf.gz", "l_unilu_gaia",
             "Gaia cluster, Univ. Luxembourg", 2004, 51_987, "Joseph Emeras"),
        _log("kit-fh2", "KIT-FH2-2016-1.swf.gz", "l_kit_fh2",
             "ForHLR II cluster, KIT", None, None, None),
    )
}  # fmt: skip

# The archive's own names (file name without .swf.gz), lower case, as aliases.
_STEMS: dict[str, str] = {log.stem.lower(): log.name for log in LOGS.values()}


def lookup(name: str) -> Log | None:
    """The log behind a short name or the archive's name, in any case; None if unknown."""
    # Only bare names: "X.swf.gz" is a file name, and a file of that name must win.
    key = name.strip().lower()
    return LOGS.get(key) or LOGS.get(_STEMS.get(key, ""))


def base_url() -> str:
    """The archive's address: ``$SCHEDSIM_ARCHIVE_URL`` if set, else `ARCHIVE_URL`."""
    return (os.environ.get(URL_VARIABLE) or ARCHIVE_URL).rstrip("/") + "/"


def cache_dir() -> Path:
    """The cache folder: ``$SCHEDSIM_CACHE`` if set, else ``pooch.os_cache("schedsim")``."""
    folder = os.environ.get(CACHE_VARIABLE)
    if folder:
        return Path(folder).expanduser()
    import pooch  # here, not at the top: reading a shipped trace never needs pooch

    return Path(pooch.os_cache("schedsim"))


def cached_path(log: Log) -> Path:
    """Where the log is (or will be) in the cache."""
    return cache_dir() / log.file


def is_cached(log: Log) -> bool:
    """Whether the log's file is in the cache (not checked: `fetch` checks)."""
    return cached_path(log).is_file()


def sha256(path: Path) -> str:
    """Hex SHA-256 of a file, read in chunks (logs are tens of MB)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _record_path(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def _read_record(path: Path) -> str | None:
    """The hash recorded at the first download (``sha256sum`` layout), if any."""
    try:
        text = _record_path(path).read_text().split()
    except OSError:
        return None
    return text[0].lower() if text else None


def _write_record(path: Path, digest: str) -> None:
    record = _record_path(path)
    tmp = record.with_name(f"{record.name}.{os.getpid()}.tmp")  # one per process
    tmp.write_text(f"{digest}  {path.name}\n")
    os.replace(tmp, record)  # atomic: a reader never sees half a record


def _warn_unverified(log: Log, path: Path, digest: str) -> None:
    LOGGER.warning(
        "schedsim: warning: %s: %s was not verified (no published checksum); recorded its "
        "sha256 %s in %s, against which every later use is checked",
        log.name, path, digest[:16], _record_path(path).name,
    )  # fmt: skip


@contextmanager
def _quiet_pooch() -> Iterator[None]:
    # pooch logs a multi-line hint about known_hash on unverified downloads; our own
    # one-line messages say what matters here.
    import pooch

    logger = pooch.get_logger()
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)


def _download(log: Log, url: str, path: Path, expected: str | None) -> None:
    import pooch
    import requests

    folder = path.parent
    by_hand = f"download {url} by hand into {folder}/, or give a path to a copy"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DownloadError(
            f"{log.name}: cannot create the cache folder {folder} ({exc.strerror or exc}); "
            f"set {CACHE_VARIABLE} to a writable folder"
        ) from None
    LOGGER.info("schedsim: downloading %s from %s into %s", log.name, url, folder)
    try:
        with _quiet_pooch():
            pooch.retrieve(
                url,
                known_hash=f"sha256:{expected}" if expected else None,
                fname=path.name,
                path=folder,
                downloader=pooch.HTTPDownloader(timeout=_TIMEOUT_S, progressbar=False),
            )
    except requests.exceptions.HTTPError as exc:
        status = exc.response.status_code if exc.response is not None else "error"
        raise DownloadError(f"{log.name}: {url} answered HTTP {status}; {by_hand}") from None
    except requests.exceptions.Timeout:
        raise DownloadError(f"{log.name}: {url} did not answer in time; {by_hand}") from None
    except requests.exceptions.RequestException:
        raise DownloadError(
            f"{log.name}: cannot download {url} (no connection); {by_hand}"
        ) from None
    except ValueError:
        # pooch checked the hash of the temporary file and deleted it: nothing was kept.
        if expected is not None and _read_record(path) == expected:
            why = f"delete {_record_path(path)} to accept a new version of the log"
        else:
            why = "check the archive's page, or give a path to a copy you trust"
        raise ChecksumError(
            f"{log.name}: the file downloaded from {url} does not match its sha256 "
            f"{expected}, and was not kept (the archive may have changed it: {why})"
        ) from None


def fetch(name: str) -> Path:
    """The cached file of an archive log, downloaded first if needed, checked always.

    Raises `ValueError` for a name not in `LOGS`, `ChecksumError` (a
    ValueError) when the file does not match its SHA-256 (published, or
    recorded at the first download), and `DownloadError` (an OSError) when it
    cannot be downloaded. See the module docstring for the policy.
    """
    log = lookup(name)
    if log is None:
        raise ValueError(f"{name!r} is not a log of the archive ({', '.join(LOGS)})")
    path = cached_path(log)
    url = log.url()
    # A published hash wins over one recorded at a first download.
    expected = log.sha256 or _read_record(path)
    if path.is_file():
        actual = sha256(path)
        if expected is None:
            # Put there by hand, or its record was deleted: trust it now, check it later.
            _write_record(path, actual)
            _warn_unverified(log, path, actual)
            return path
        if actual == expected:
            return path
        bad = path.with_name(path.name + ".bad")
        os.replace(path, bad)
        if log.sha256:
            what, renew = "published", ""
        else:
            what = "recorded"
            renew = f" (to accept a new version of the log, delete {_record_path(path)})"
        raise ChecksumError(
            f"{log.name}: the cached {path} does not match its {what} sha256 {expected} "
            f"(got {actual}); moved it to {bad.name}, and the next use downloads {url} "
            f"afresh{renew}"
        )
    _download(log, url, path, expected)
    if expected is None:
        actual = sha256(path)
        _write_record(path, actual)
        _warn_unverified(log, path, actual)
    return path
