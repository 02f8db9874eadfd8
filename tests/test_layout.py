"""The shape of the house, checked on the code itself (every import statement of every module,
read with ``ast``): ``solver`` imports nothing of ``companion``; what is not about one game
imports no game; a game folder imports no other game's; the modules of ``companion`` import
one another without a circle; a rule is computed in one place; no module runs far past 600
lines."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
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


def statements(name: str, path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """Every import statement of module ``name`` (at ``path``), wherever it stands (at the top,
    in a function, under ``TYPE_CHECKING``), as (the module it names, relative imports resolved;
    the names taken from it, () for a plain ``import``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, tuple[str, ...]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append((target, tuple(alias.name for alias in node.names)))
    return found


def imports(name: str, path: Path) -> set[str]:
    """The absolute names of the modules ``path`` (module ``name``) imports, relative imports
    resolved (and every name taken from them, as ``module.name``)."""
    found: set[str] = set()
    for target, names in statements(name, path):
        found.add(target)
        found.update(f"{target}.{n}" for n in names)
    return {n for n in found if n.split(".")[0] in PACKAGES}


def game_of(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in games() else None


MODULES = modules()


def test_the_layout_has_the_game_free_core_and_coup() -> None:
    assert {"coup"} <= games()
    assert {"solver.errors", "solver.game", "solver.values", "companion.records", "companion.session"} <= set(MODULES)


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


# -- import circles ---------------------------------------------------------------------------------


def imported_modules(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules among ``known`` that module ``name`` imports: ``from .tracker import Table``
    names ``tracker`` and ``from . import cli`` names ``cli`` (not the package around them);
    ``from solver.coup import Move`` names ``solver.coup``."""

    def module(target: str) -> str:
        while target and target not in known:
            target = target.rpartition(".")[0]
        return target

    found = set()
    for target, names in statements(name, path):
        found.update(module(f"{target}.{n}" if f"{target}.{n}" in known else target) for n in names or ("",))
    return found - {"", name}


def import_graph(paths: dict[str, Path]) -> nx.DiGraph[str]:
    graph: nx.DiGraph[str] = nx.DiGraph()
    graph.add_nodes_from(paths)
    for name, path in paths.items():
        graph.add_edges_from((name, other) for other in imported_modules(name, path, set(paths)))
    return graph


def circles(prefix: str) -> list[frozenset[str]]:
    """Every import circle among the modules whose names start with ``prefix``."""
    graph = import_graph({n: p for n, p in MODULES.items() if n.startswith(prefix)})
    return [frozenset(cycle) for cycle in nx.simple_cycles(graph)]


def test_the_companions_modules_import_one_another_without_a_circle() -> None:
    assert circles("companion.") == []


def test_the_solvers_circles_stay_inside_one_games_folder() -> None:
    """A game's state delegates its OpenSpiel methods to the engine, its text form to the
    notation and its messages' words to messages, which read the state: those circles stay
    inside the game's folder. Across folders there is none."""
    for circle in circles("solver."):
        assert len({game_of(n) for n in circle}) == 1 and None not in {game_of(n) for n in circle}, sorted(circle)


def test_the_circle_finder_sees_a_circle(tmp_path: Path) -> None:
    """The checks above can fail: a function-level import back is a circle."""
    (tmp_path / "a.py").write_text("from .b import f\n")
    (tmp_path / "b.py").write_text("def f():\n    from . import a\n")
    (tmp_path / "c.py").write_text("from .a import x\n")
    paths = {"companion.a": tmp_path / "a.py", "companion.b": tmp_path / "b.py", "companion.c": tmp_path / "c.py"}
    assert [set(c) for c in nx.simple_cycles(import_graph(paths))] == [{"companion.a", "companion.b"}]


# -- a rule computed in one place -----------------------------------------------------------------


def calls_naming(tree: ast.AST, function: str, word: str) -> int:
    """How many calls to a function whose name ends with ``function`` (``min``, ``np.minimum``)
    have an argument that mentions ``word`` (a name or an attribute)."""
    count = 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if not callee.startswith(function):
            continue
        mentioned = {n.id for arg in node.args for n in ast.walk(arg) if isinstance(n, ast.Name)}
        mentioned |= {n.attr for arg in node.args for n in ast.walk(arg) if isinstance(n, ast.Attribute)}
        count += word in mentioned
    return count


def computed_in(function: str, word: str) -> list[str]:
    """The modules that compute ``function(... word ...)``, once per computation."""
    found = []
    for name, path in sorted(MODULES.items()):
        found += [name] * calls_naming(ast.parse(path.read_text(encoding="utf-8")), function, word)
    return found


@pytest.mark.parametrize(
    ("word", "place"),
    [("STEAL_AMOUNT", "solver.coup.rules"), ("exchange_draw", "solver.coup.state")],
)
def test_what_a_steal_takes_and_an_exchanges_draw_are_computed_in_one_place(word: str, place: str) -> None:
    assert computed_in("min", word) == [place]


def test_the_rule_finder_sees_a_restated_rule() -> None:
    """The check above can fail: ``np.minimum(y, STEAL_AMOUNT)`` and ``min(c, s.variant.exchange_draw)``
    count as computing them."""
    tree = ast.parse("a = np.minimum(y, STEAL_AMOUNT)\nb = min(2, s.variant.exchange_draw)\nc = max(1, STEAL_AMOUNT)")
    assert calls_naming(tree, "min", "STEAL_AMOUNT") == 1 and calls_naming(tree, "min", "exchange_draw") == 1
