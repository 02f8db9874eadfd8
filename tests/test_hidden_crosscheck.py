"""V_K of the smallest Coup endgames (one card each, a fixed court of 3, both variants) against
the independent references of tests/reference/hidden_reference.py, written from outputs.md alone:
the tree's sequence form solved apart, Gambit's sequence-form LP, and the normal form by double
oracle (K = 1). Gambit's rational LP takes minutes on a court of three: those run with -m slow."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from solver.coup.hidden_game import HiddenGame, prior
from solver.coup.puzzle import Puzzle

reference = pytest.importorskip("tests.reference.hidden_reference")
known = pytest.importorskip("tests.reference.test_hidden_reference")

PUZZLES = Path(__file__).parent.parent / "companion" / "coup" / "data" / "puzzles"
ONE_CARD_EACH = {
    "last-contessa": (PUZZLES / "03-last-contessa.toml").read_text(),  # ambassador
    "bluffless-contessa": (PUZZLES / "10-bluffless-contessa.toml").read_text(),  # inquisitor
}
VARIANTS = ["ambassador", "inquisitor"]


def ours(text: str, turns: int) -> Fraction:
    game = HiddenGame(prior(Puzzle.from_mapping(tomllib.loads(text))), turns)
    return game.solve().value


@pytest.mark.parametrize(("variant", "coins", "pool", "v0", "v1"), known.CROWDED, ids=VARIANTS)
def test_v0_and_v1_equal_all_three_references_on_a_crowded_endgame(
    variant: str, coins: tuple[int, int], pool: tuple[str, ...], v0: Fraction, v1: Fraction
) -> None:
    text = known.crowded(variant, coins, pool)
    assert ours(text, 0) == reference.reference_value(text, 0) == v0
    mine = ours(text, 1)
    assert mine == reference.reference_value(text, 1) == reference.oracle_value(text, 1) == v1
    assert mine == reference.gambit_value(text, 1)


@pytest.mark.parametrize(("variant", "v0", "v1"), known.COURT_OF_THREE, ids=VARIANTS)
def test_v1_of_a_court_of_three_equals_the_tree_and_the_double_oracle(variant: str, v0: Fraction, v1: Fraction) -> None:
    text = known.court_of_three(variant)
    assert ours(text, 0) == v0
    assert ours(text, 1) == reference.reference_value(text, 1) == reference.oracle_value(text, 1) == v1


@pytest.mark.parametrize("name", sorted(ONE_CARD_EACH))
def test_v1_of_the_bundled_one_card_endgames_equals_the_references(name: str) -> None:
    text = ONE_CARD_EACH[name]
    assert ours(text, 0) == reference.reference_value(text, 0)
    assert ours(text, 1) == reference.reference_value(text, 1) == reference.oracle_value(text, 1)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "v0", "v1"), known.COURT_OF_THREE, ids=VARIANTS)
def test_v1_of_a_court_of_three_equals_gambit(variant: str, v0: Fraction, v1: Fraction) -> None:
    assert ours(known.court_of_three(variant), 1) == reference.gambit_value(known.court_of_three(variant), 1) == v1


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_v2_of_a_court_of_three_equals_the_tree(variant: str) -> None:
    text = known.court_of_three(variant)
    assert ours(text, 2) == reference.reference_value(text, 2)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "coins", "pool", "v0", "v1"), known.CROWDED, ids=VARIANTS)
def test_v2_of_a_crowded_endgame_equals_all_three_references(
    variant: str, coins: tuple[int, int], pool: tuple[str, ...], v0: Fraction, v1: Fraction
) -> None:
    text = known.crowded(variant, coins, pool)
    assert ours(text, 2) == reference.reference_value(text, 2) == reference.oracle_value(text, 2)
    assert ours(text, 2) == reference.gambit_value(text, 2)
