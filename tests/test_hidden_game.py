"""The hidden-card game of K turns (solver/coup/hidden_game.py): V_0 is today's weighted
open-hand value, K = 0 is V_0, with every card visible the K-turn value is the open-hand value
of each deal, and hiding the cards changes the value of a real endgame."""

from __future__ import annotations

import tomllib
from collections.abc import Hashable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from solver.coup.hidden import answer
from solver.coup.hidden_game import HiddenGame, observe, prior
from solver.coup.puzzle import Hypothesis, Puzzle

PUZZLES = Path(__file__).parent.parent / "companion" / "coup" / "data" / "puzzles"


def puzzle(name: str) -> Puzzle:
    return Puzzle.from_mapping(tomllib.loads((PUZZLES / name).read_text()))


def everything(node: Any, move: Any, player: int) -> Hashable:
    """Every player sees the whole position after every move: each node its own information set."""
    return (observe(node, move, player), node.apply(move).state)


@pytest.mark.parametrize("name", ["03-last-contessa.toml", "10-bluffless-contessa.toml", "01-race-to-seven.toml"])
def test_v0_is_the_weighted_open_hand_value_of_the_puzzle_with_every_hand_card_unknown(name: str) -> None:
    p = puzzle(name)
    hypotheses = prior(p)
    expected = answer(hypotheses).value
    game = HiddenGame(hypotheses, turns=0)
    assert game.open_value() == expected
    assert game.solve().value == expected


def test_the_prior_ignores_the_hands_written_in_the_puzzle() -> None:
    p = puzzle("03-last-contessa.toml")
    hypotheses = prior(p)
    assert sum((h.probability for h in hypotheses), Fraction(0)) == 1
    # 12 cards neither face up nor in the court: Alice's card is any of the five kinds
    assert {h.state.hidden[0] for h in hypotheses} == {(c,) for c in p.variant.characters}


@pytest.mark.parametrize("turns", [1, 2])
def test_with_every_card_visible_the_k_turn_value_is_the_open_hand_value_of_each_deal(turns: int) -> None:
    p = puzzle("03-last-contessa.toml")
    for h in prior(p)[:: 3 if turns == 1 else 8]:
        single = [Hypothesis(h.state, Fraction(1))]
        open_hand = HiddenGame(single, 0).open_value()
        assert HiddenGame(single, turns, observe=everything).solve().value == open_hand


def test_hiding_the_cards_changes_the_value_of_the_last_contessa() -> None:
    """Worked once and pinned: Alice's contessa against Bob's ambassador (court fixed), the
    hands dealt from the 12 other cards: one turn of bluffing and doubt is worth less to Alice
    than open hands."""
    hypotheses = prior(puzzle("03-last-contessa.toml"))
    one = HiddenGame(hypotheses, turns=1).solve()
    assert one.open_value == Fraction(91, 135)
    assert one.value == Fraction(29, 45)


def test_the_equilibrium_bluffs_a_duke_that_open_hands_never_claim() -> None:
    """The README's example: Alice's assassin against Bob's unknown card, K = 2. V_K is unique;
    the reported strategy (one equilibrium) taxes without a duke part of the time."""
    from solver.coup.cards import Character
    from solver.coup.hidden_report import report
    from solver.coup.rules import Kind

    p = puzzle("04-duke-against-the-clock.toml")
    game = HiddenGame(prior(p), turns=2)
    solved = game.solve(tagged=True)
    assert (solved.value, solved.open_value) == (Fraction(-724, 1395), Fraction(-2, 3))
    r = report(game, solved, (Character.ASSASSIN,))
    tax = next(m for m in r.strategy if m.kind is Kind.TAX)
    assert r.strategy[tax] > 0 and r.options[tax] == r.value == max(r.options.values())
