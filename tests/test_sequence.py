"""Games with imperfect information in sequence form (solver/sequence.py) and their exact,
verified equilibria (solver/equilibrium.py): Kuhn poker built from OpenSpiel-shaped states,
the verification refusing a perturbed plan."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations

import pytest
from flint import fmpq

from solver.equilibrium import best_response, solve, verify
from solver.errors import NotCertified
from solver.game import CHANCE, TERMINAL
from solver.sequence import build

ENDS = {"pp", "bp", "bb", "pbp", "pbb"}


@dataclass(frozen=True)
class Kuhn:
    """Kuhn poker: cards 0 < 1 < 2, ante 1, one bet of 1; 'p' checks or folds, 'b' bets or calls."""

    cards: tuple[int, int] | None = None
    history: str = ""

    def current_player(self) -> int:
        if self.cards is None:
            return CHANCE
        if self.history in ENDS:
            return TERMINAL
        return len(self.history) % 2

    def is_chance_node(self) -> bool:
        return self.cards is None

    def is_terminal(self) -> bool:
        return self.history in ENDS

    def legal_moves(self) -> list[str]:
        return ["p", "b"]

    def chance_outcomes(self) -> list[tuple[tuple[int, int], Fraction]]:
        return [(deal, Fraction(1, 6)) for deal in permutations(range(3), 2)]

    def apply(self, move: object) -> Kuhn:
        if self.cards is None:
            assert isinstance(move, tuple)
            return Kuhn(move, "")
        assert isinstance(move, str)
        return Kuhn(self.cards, self.history + move)

    def returns(self) -> list[Fraction]:
        assert self.cards is not None
        h = self.history
        if h in ("bp", "pbp"):  # the last bettor takes the ante
            winner = 0 if h == "bp" else 1
            return [Fraction(1 if winner == 0 else -1), Fraction(-1 if winner == 0 else 1)]
        stake = 2 if "b" in h else 1
        sign = 1 if self.cards[0] > self.cards[1] else -1
        return [Fraction(sign * stake), Fraction(-sign * stake)]


def observe(state: Kuhn, move: object, player: int) -> Hashable:
    """Each player sees their own card and every bet or check."""
    if state.cards is None:
        assert isinstance(move, tuple)
        return move[player]
    return move  # type: ignore[return-value]


def test_kuhn_poker_built_from_states_is_worth_minus_one_eighteenth() -> None:
    tree = build(Kuhn(), observe)
    assert tree.infosets == (6, 6) and tree.sequences == (13, 13)
    s = solve(tree)
    assert s.value == Fraction(-1, 18)
    # every equilibrium: the second player calls a bet with the king, never with the jack,
    # and bets the king after a check
    assert s.behaviour(1, tree.find(1, (2, "b"))) == [0, 1]
    assert s.behaviour(1, tree.find(1, (0, "b"))) == [1, 0]
    assert s.behaviour(1, tree.find(1, (2, "p"))) == [0, 1]


def test_the_verification_refuses_a_perturbed_plan() -> None:
    tree = build(Kuhn(), observe)
    s = solve(tree)
    x, y = list(s.plans[0]), list(s.plans[1])
    assert verify(tree, x, y).value == Fraction(-1, 18)
    # the queen facing a bet calls a third of the time: call a little more often
    h = tree.find(1, (1, "b"))
    a, b = tree.actions(1, h)
    assert s.behaviour(1, h) == [Fraction(2, 3), Fraction(1, 3)]
    if y[a] >= fmpq(1, 100):
        y[a], y[b] = y[a] - fmpq(1, 100), y[b] + fmpq(1, 100)
    else:
        y[a], y[b] = y[a] + fmpq(1, 100), y[b] - fmpq(1, 100)
    with pytest.raises(NotCertified):
        verify(tree, x, y)
    # a plan that is no strategy is refused too
    z = list(s.plans[0])
    z[1] += 1
    with pytest.raises(NotCertified):
        verify(tree, z, list(s.plans[1]))


def test_best_responses_bound_the_value_from_both_sides() -> None:
    tree = build(Kuhn(), observe)
    uniform0 = _uniform(tree, 0)
    uniform1 = _uniform(tree, 1)
    above, below = best_response(tree, 0, uniform1)[0], best_response(tree, 1, uniform0)[0]
    assert above > fmpq(-1, 18) > below


def _uniform(tree: object, player: int) -> list[fmpq]:
    from solver.sequence import Tree

    assert isinstance(tree, Tree)
    plan = [fmpq(0)] * tree.sequences[player]
    plan[0] = fmpq(1)
    for h, parent in enumerate(tree.parent[player]):
        for s in tree.actions(player, h):
            plan[s] = plan[parent] / len(tree.moves[player][h])
    return plan
