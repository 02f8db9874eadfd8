"""The examples in docstrings and in the README run and print what they say."""

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
    for name in [package.__name__] + [f"{package.__name__}.{m.name}" for m in pkgutil.iter_modules(package.__path__)]
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_readme_examples_run() -> None:
    readme = Path(__file__).resolve().parent.parent / "README.md"
    result = doctest.testfile(str(readme), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
