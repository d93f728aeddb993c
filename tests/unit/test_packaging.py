"""What an installed (not editable) pnp carries: pyproject.toml lists its packages and files, and
they must be every package and file pnp reads from its own tree, or `pip install .` gives a tool
without a module, sheet profiles or a scaffold."""
import glob
import tomllib
from pathlib import Path

from generator.layout import template

REPO = Path(__file__).resolve().parents[2]


def _setuptools() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def _not_named(files, root: Path, patterns) -> list[str]:
    """The files under ``root`` that no pattern names, the patterns expanded as setuptools expands
    them (``glob`` with ``recursive=True``: ``*`` stays within a folder, ``**`` goes down)."""
    named = {str(Path(root, hit)) for p in patterns for hit in glob.glob(p, root_dir=root, recursive=True)}
    return [str(f.relative_to(root)) for f in files if f.is_file() and str(f) not in named]


def test_every_package_of_the_source_tree_is_listed():
    found = {str(p.parent.relative_to(REPO)).replace("/", ".") for p in (REPO / "generator").rglob("__init__.py")}
    listed = set(_setuptools()["packages"])
    assert listed - {"generator.builtin_layouts"} == found


def test_the_wheel_carries_every_built_in_profile():
    config = _setuptools()
    assert config["package-dir"] == {"generator.builtin_layouts": "layouts"}
    root = REPO / "layouts"
    profiles = list((root / "profiles").rglob("*.yaml"))
    assert len(profiles) >= 9
    assert _not_named(profiles, root, config["package-data"]["generator.builtin_layouts"]) == []


def test_the_wheel_carries_the_schemas_and_every_scaffold_file():
    root = REPO / "generator"
    files = list((root / "schemas").rglob("*")) + list((root / "scaffold").rglob("*"))
    assert _not_named(files, root, _setuptools()["package-data"]["generator"]) == []


def test_an_installed_pnp_looks_for_its_profiles_in_the_package_when_there_is_no_checkout(tmp_path, monkeypatch):
    fake_package = tmp_path / "site-packages" / "generator"
    (fake_package / "layout").mkdir(parents=True)
    (fake_package / "builtin_layouts").mkdir()
    monkeypatch.setattr(template, "__file__", str(fake_package / "layout" / "template.py"))
    monkeypatch.chdir(tmp_path)
    assert template.layout_search_path(tmp_path / "game") == [fake_package / "builtin_layouts"]


def test_a_checkout_uses_its_own_layouts_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert template.layout_search_path(tmp_path / "game") == [REPO / "layouts"]
