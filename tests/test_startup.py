"""A command starts in a blink: the heavy libraries are imported where they are used (sympy for
``--why``, the tablebase generator with scipy and networkx to generate, networkx to build a
graph, matplotlib to plot), never to print help, replay a record or open a prompt.

Each check runs in a fresh interpreter (a subprocess), since this test process has imported
everything already. The times are measured by benchmarks/startup.py, not here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("sympy", "scipy", "networkx", "matplotlib", "solver.coup.tablebase.generate")
AT_START = (*HEAVY, "numpy")
"""Starting a command needs none of these; numpy comes with the exact counting of a table of 5
players or more (its big passes), so a replay of one may bring it in."""
ROOT = Path(__file__).resolve().parent.parent
COUP_RECORD = ROOT / "examples" / "five-players-inquisitor.coup"


def loaded_after(code: str, heavy: tuple[str, ...] = HEAVY) -> list[str]:
    """The ``heavy`` modules in ``sys.modules`` after running ``code`` in a fresh interpreter."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps([m for m in {heavy!r} if m in sys.modules]))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    found: list[str] = json.loads(done.stdout.splitlines()[-1])
    return found


@pytest.mark.parametrize("module", ["companion.coup.cli", "companion.spicy.cli", "companion.treasure.cli"])
def test_importing_a_games_command_line_leaves_the_heavy_libraries_out(module: str) -> None:
    assert loaded_after(f"import {module}", AT_START) == []


@pytest.mark.parametrize("module", ["companion.coup.cli", "companion.spicy.cli", "companion.treasure.cli"])
def test_help_leaves_the_heavy_libraries_out(module: str) -> None:
    code = f"from {module} import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass"
    assert loaded_after(code, AT_START) == []


def test_replaying_and_typing_a_coup_record_leaves_the_heavy_libraries_out() -> None:
    code = (
        "import contextlib, io\n"
        "from companion.coup.cli import main\n"
        "from companion.coup.commands import session\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['replay', '--json', {str(COUP_RECORD)!r}]) == 0\n"
        "s = session()\n"
        f"for line in open({str(COUP_RECORD)!r}, encoding='utf-8').read().splitlines():\n"
        "    s.handle(line)\n"
        "s.handle('odds')"
    )
    assert loaded_after(code) == []


def test_asking_why_imports_sympy_then() -> None:
    """The check above can fail: ``odds --why`` does bring sympy in."""
    code = (
        "from solver.counting import at_least_one_why\n"
        "assert at_least_one_why(13, 3, 2)[1] == __import__('fractions').Fraction(11, 26)"
    )
    assert loaded_after(code) == ["sympy"]


def test_building_tables_twice_in_one_process_works_once_the_generator_is_imported() -> None:
    """The generator's module is imported on first use; its name must not shadow the function
    that ``build`` calls (a second build in the same process used to find the module)."""
    code = (
        "import tempfile\n"
        "from pathlib import Path\n"
        "from solver.coup.cards import Variant\n"
        "from solver.coup.tablebase import Family, build\n"
        "family = Family(Variant.AMBASSADOR, (1, 0, 0, 1, 1), court=1)\n"
        "for _ in range(2):\n"
        "    assert [b.family for b in build([family], Path(tempfile.mkdtemp()), installed=False)] == [family]"
    )
    assert "solver.coup.tablebase.generate" in loaded_after(code)
