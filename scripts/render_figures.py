"""Render every chart of the notebooks and the README to PNG, to look at them as a reader would.

    python scripts/render_figures.py              # into figures/ (git ignores it)
    python scripts/render_figures.py --out DIR --notebooks notebooks/teaching

Each notebook under ``notebooks/`` is executed in a kernel of its own (the
committed notebooks carry no outputs) and every image it shows is written
as ``DIR/<notebook>/cell<N>-<k>.png``; a notebook that fails is reported and
the others go on (exit status 1 at the end). The README's figures are made
by `readme_figures` and written both into ``DIR/readme/`` and, with
``--update-readme``, into ``docs/images/`` where the README shows them.
"""

from __future__ import annotations

import argparse
import base64
import sys
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def render_notebook(path: Path, out: Path, timeout: int = 600) -> int:
    """Execute ``path`` and write its images into ``out``; the number written."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    NotebookClient(
        notebook, timeout=timeout, kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for number, cell in enumerate(notebook.cells):
        images = [
            o["data"]["image/png"]
            for o in cell.get("outputs", [])
            if "image/png" in o.get("data", {})
        ]
        for k, data in enumerate(images, start=1):
            (out / f"cell{number:02d}-{k}.png").write_bytes(base64.b64decode(data))
            written += 1
    return written


def readme_figures(out: Path) -> list[Path]:
    """The README's figure: selective suspension on the first KTH jobs, one day, 64 nodes."""
    import schedsim
    from schedsim.app import gantt
    from schedsim.workloads.transforms import first

    kth = first(schedsim.load("kth"), 400)
    result = schedsim.Simulation(kth, "ss", nodes=64, wide="drop").run()
    start = float(result.meta["start"])
    fig = gantt.schedule_figure(result, start + 86400, start + 2 * 86400, height=6.5)
    fig.suptitle("Selective suspension on the KTH SP2 log, 64 nodes: the second day")
    out.mkdir(parents=True, exist_ok=True)
    path = out / "gantt-ss-kth.png"
    fig.savefig(path, dpi=90)
    return [path]


def shown(path: Path) -> str:
    """``path`` as a message names it: from the checkout's root when it lies inside it,
    else as given (a relative ``--notebooks`` is relative to the working directory, which
    need not be the checkout's root, and a folder elsewhere has no path from it)."""
    try:
        return str(path.resolve().relative_to(REPO))
    except ValueError:
        return str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "figures")
    parser.add_argument("--notebooks", type=Path, default=REPO / "notebooks")
    parser.add_argument(
        "--update-readme",
        action="store_true",
        help="also write the README's figures into docs/images/",
    )
    args = parser.parse_args(argv)
    if not args.notebooks.is_dir():
        print(f"render_figures: --notebooks {args.notebooks}: no such folder", file=sys.stderr)
        return 2
    failed = []
    for path in sorted(args.notebooks.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        name = path.relative_to(args.notebooks).with_suffix("")
        try:
            count = render_notebook(path, args.out / name)
            print(f"{shown(path)}: {count} figures")
        except Exception:  # report it and go on with the others
            failed.append(path)
            print(f"{shown(path)}: FAILED\n{traceback.format_exc()}", file=sys.stderr)
    for path in readme_figures(args.out / "readme"):
        print(f"README: {path}")
    if args.update_readme:
        for path in readme_figures(REPO / "docs" / "images"):
            print(f"README figure updated: {shown(path)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
