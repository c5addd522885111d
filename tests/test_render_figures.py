"""scripts/render_figures.py: its documented usage works from any working directory.

The notebooks are not executed here (`render_notebook` is replaced): what is
checked is how the script finds them and names them in its messages.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "render_figures.py"


@pytest.fixture
def script(monkeypatch):
    spec = importlib.util.spec_from_file_location("render_figures_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rendered: list[tuple[Path, Path]] = []

    def render(path: Path, out: Path, timeout: int = 600) -> int:
        if path.stem == "broken":
            raise RuntimeError("a cell failed")
        rendered.append((path, out))
        return 2

    monkeypatch.setattr(module, "render_notebook", render)
    monkeypatch.setattr(module, "readme_figures", lambda out: [])
    module.rendered = rendered
    return module


def _notebooks(root: Path, *names: str) -> None:
    folder = root / "notebooks" / "teaching"
    folder.mkdir(parents=True)
    for name in names:
        (folder / f"{name}.ipynb").write_text("{}")


def test_a_relative_notebooks_folder_as_the_docstring_shows(script, tmp_path, monkeypatch, capsys):
    _notebooks(tmp_path, "demo")
    monkeypatch.chdir(tmp_path)
    code = script.main(["--out", "figs", "--notebooks", "notebooks/teaching"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.splitlines()[0] == "notebooks/teaching/demo.ipynb: 2 figures"
    [(path, where)] = script.rendered
    assert path == Path("notebooks/teaching/demo.ipynb") and where == Path("figs/demo")


def test_a_failing_notebook_is_named_and_the_others_go_on(script, tmp_path, monkeypatch, capsys):
    _notebooks(tmp_path, "broken", "fine")
    monkeypatch.chdir(tmp_path)
    code = script.main(["--out", "figs", "--notebooks", "notebooks/teaching"])
    out, err = capsys.readouterr()
    assert code == 1
    assert err.startswith("notebooks/teaching/broken.ipynb: FAILED")
    assert "notebooks/teaching/fine.ipynb: 2 figures" in out


def test_a_notebook_of_the_checkout_is_named_from_its_root(script, capsys):
    folder = SCRIPT.parent.parent / "notebooks" / "teaching"
    assert script.main(["--out", "unused", "--notebooks", str(folder)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("notebooks/teaching/") and first.endswith(": 2 figures")


def test_a_missing_folder_is_a_one_line_error(script, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert script.main(["--notebooks", "notebooks/teachin"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "render_figures: --notebooks notebooks/teachin: no such folder"
    assert len(err.strip().splitlines()) == 1
