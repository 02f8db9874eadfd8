"""V_K of the smallest Coup endgames (one card each, a fixed court of 3, both variants) against
the independent references of tests/reference/hidden_reference.py, written from outputs.md alone:
a brute force, Gambit's sequence-form LP, and (K = 1) the normal form by double oracle."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from solver.coup.hidden_game import HiddenGame, prior
from solver.coup.puzzle import Puzzle

reference = pytest.importorskip("tests.reference.hidden_reference")

PUZZLES = Path(__file__).parent.parent / "companion" / "coup" / "data" / "puzzles"
SMALLEST = {
    "ambassador": (PUZZLES / "03-last-contessa.toml").read_text(),
    "inquisitor": (PUZZLES / "10-bluffless-contessa.toml").read_text(),
    "ambassador-race": (PUZZLES / "01-race-to-seven.toml").read_text(),
}


def ours(text: str, turns: int) -> Fraction:
    game = HiddenGame(prior(Puzzle.from_mapping(tomllib.loads(text))), turns)
    return game.solve().value


@pytest.mark.parametrize("turns", [0, 1])
@pytest.mark.parametrize("name", sorted(SMALLEST))
def test_v_k_equals_the_brute_force(name: str, turns: int) -> None:
    text = SMALLEST[name]
    assert ours(text, turns) == reference.reference_value(text, turns)


@pytest.mark.parametrize("name", sorted(SMALLEST))
def test_v_1_equals_gambit_s_lp_and_the_double_oracle(name: str) -> None:
    pytest.importorskip("pygambit")
    text = SMALLEST[name]
    mine = ours(text, 1)
    assert mine == reference.gambit_value(text, 1)
    assert mine == reference.oracle_value(text, 1)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SMALLEST))
def test_v_2_equals_the_brute_force(name: str) -> None:
    text = SMALLEST[name]
    assert ours(text, 2) == reference.reference_value(text, 2)
