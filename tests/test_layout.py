"""The shape of the house, checked on the code itself (every import statement of every module,
read with ``ast``): ``solver`` imports nothing of ``companion``; what is not about one game
imports no game; a game folder imports no other game's; no module runs far past 600 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("solver", "companion")


def games() -> set[str]:
    """The game folders: sub-packages of either package."""
    return {p.parent.name for package in PACKAGES for p in (ROOT / package).glob("*/__init__.py")}


def modules() -> dict[str, Path]:
    """Every module of the two packages by dotted name."""
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


def imports(name: str, path: Path) -> set[str]:
    """The absolute names of the modules ``path`` (module ``name``) imports, relative imports
    resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return {n for n in found if n.split(".")[0] in PACKAGES}


def game_of(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in games() else None


MODULES = modules()


def test_the_layout_has_the_game_free_core_and_coup() -> None:
    assert {"coup"} <= games()
    assert {"solver.errors", "solver.game", "solver.values", "companion.records", "companion.session"} <= set(MODULES)
    assert all(imports(name, path) is not None for name, path in MODULES.items())


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("solver")))
def test_solver_imports_nothing_of_the_companion(name: str) -> None:
    assert not [m for m in imports(name, MODULES[name]) if m.startswith("companion")]


@pytest.mark.parametrize("name", sorted(n for n in MODULES if game_of(n) is None))
def test_a_game_free_module_imports_no_game(name: str) -> None:
    assert not [m for m in imports(name, MODULES[name]) if game_of(m) is not None]


@pytest.mark.parametrize("name", sorted(n for n in MODULES if game_of(n) is not None))
def test_a_game_folder_imports_no_other_game(name: str) -> None:
    mine = game_of(name)
    assert not [m for m in imports(name, MODULES[name]) if game_of(m) not in (None, mine)]


def test_the_import_reader_sees_a_forbidden_import(tmp_path: Path) -> None:
    """The checks above can fail: a relative import into a game is read as one."""
    path = tmp_path / "records.py"
    path.write_text("from .coup.tracker import Table\nimport companion.coup\n")
    assert {"companion.coup.tracker", "companion.coup"} <= imports("companion.records", path)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_runs_far_past_600_lines(name: str) -> None:
    assert len(MODULES[name].read_text(encoding="utf-8").splitlines()) <= 650
