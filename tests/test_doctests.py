"""The examples in docstrings and in the README run and print what they say; every module of
the two packages has at least one."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import companion
import solver

MODULES = sorted(
    name
    for package in (solver, companion)
    for name in [package.__name__]
    + [m.name for m in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}.")]
)


@pytest.mark.parametrize("name", MODULES)
def test_every_module_has_docstring_examples_and_they_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no docstring example"
    assert result.failed == 0


def test_the_modules_walked_include_each_game_folder() -> None:
    assert "companion.coup.tracker" in MODULES and "solver.coup.engine" in MODULES


def test_readme_examples_run() -> None:
    readme = Path(__file__).resolve().parent.parent / "README.md"
    result = doctest.testfile(str(readme), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
