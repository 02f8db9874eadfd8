"""Exact equilibria of small zero-sum games with private types (solver/equilibrium.py)."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import pytest

from solver.equilibrium import Equilibrium, bayesian_game, matrix_game

# Kuhn poker: cards J < Q < K, ante 1, one bet of 1. The first player bets, or checks and then
# folds or calls a bet; the second player answers a bet (call or fold) and a check (bet or check).
FIRST = ("bet", "check-fold", "check-call")
SECOND = [(on_bet, on_check) for on_bet in ("call", "fold") for on_check in ("bet", "check")]


def kuhn(card1: int, card2: int, a1: int, a2: int) -> Fraction:
    """The first player's winnings."""
    showdown = 1 if card1 > card2 else -1
    on_bet, on_check = SECOND[a2]
    if FIRST[a1] == "bet":
        return Fraction(2 * showdown if on_bet == "call" else 1)
    if on_check == "check":
        return Fraction(showdown)
    return Fraction(-1 if FIRST[a1] == "check-fold" else 2 * showdown)


def kuhn_game() -> Equilibrium:
    prior = [[Fraction(1, 6) if c1 != c2 else Fraction(0) for c2 in range(3)] for c1 in range(3)]
    return bayesian_game(prior, len(FIRST), len(SECOND), kuhn)


def best_responses_hold(e: Equilibrium) -> None:
    """No action improves either side: every action played is a best one for its type."""
    for mix, payoffs in zip(e.row, e.row_payoffs, strict=True):
        assert all(payoffs[i] == max(payoffs) for i, p in enumerate(mix) if p)
    for mix, payoffs in zip(e.column, e.column_payoffs, strict=True):
        assert all(payoffs[j] == min(payoffs) for j, p in enumerate(mix) if p)
    assert all(sum(mix) == 1 and min(mix) >= 0 for mix in [*e.row, *e.column])


def test_kuhn_poker_is_worth_minus_one_eighteenth_to_the_first_player() -> None:
    e = kuhn_game()
    assert e.value == Fraction(-1, 18)
    best_responses_hold(e)
    # known facts of every equilibrium: the second player always calls with the king, never
    # with the jack, and bets the king after a check
    king, jack = 2, 0
    assert sum(p for j, p in enumerate(e.column[king]) if SECOND[j][0] == "call") == 1
    assert sum(p for j, p in enumerate(e.column[jack]) if SECOND[j][0] == "call") == 0
    assert sum(p for j, p in enumerate(e.column[king]) if SECOND[j][1] == "bet") == 1


def test_rock_paper_scissors_mixes_evenly() -> None:
    beats = {(0, 2), (1, 0), (2, 1)}
    matrix = [[Fraction(1 if (i, j) in beats else -1 if (j, i) in beats else 0) for j in range(3)] for i in range(3)]
    e = matrix_game(matrix)
    assert e.value == 0 and e.row == [[Fraction(1, 3)] * 3] and e.column == [[Fraction(1, 3)] * 3]


def test_a_dominated_pick_is_never_recommended() -> None:
    """A 2x2 game worked by hand: rows (a, b), columns (c, d), payoffs a: (3, -1), b: (-2, 1).
    The row player mixes p on a: the column player is indifferent when 3p - 2(1 - p) =
    -p + (1 - p), so p = 3/7; the column mixes q on c with 3q - (1 - q) = -2q + (1 - q), q = 2/7;
    the value is 3 * 3/7 * 2/7 - 3/7 * 5/7 - 2 * 4/7 * 2/7 + 4/7 * 5/7 = 1/7."""
    e = matrix_game([[Fraction(3), Fraction(-1)], [Fraction(-2), Fraction(1)]])
    assert e.row == [[Fraction(3, 7), Fraction(4, 7)]] and e.column == [[Fraction(2, 7), Fraction(5, 7)]]
    assert e.value == Fraction(1, 7)
    f = matrix_game([[Fraction(3), Fraction(-1)], [Fraction(-2), Fraction(1)], [Fraction(-3), Fraction(-2)]])
    assert f.row[0][2] == 0 and f.value == Fraction(1, 7)


@pytest.mark.parametrize("seed", range(20))
def test_random_degenerate_bayesian_games_verify(seed: int) -> None:
    """Payoffs in {-1, -1/3, 0, 1/3, 1} (many ties, as in the draft), 3 types each, dealt
    without replacement: the equilibrium found is exact and verified."""
    import random

    rng = random.Random(seed)
    values = [Fraction(-1), Fraction(-1, 3), Fraction(0), Fraction(1, 3), Fraction(1)]
    table = {
        (t1, t2, a1, a2): rng.choice(values)
        for t1, t2 in permutations(range(3), 2)
        for a1 in range(3)
        for a2 in range(3)
    }
    prior = [[Fraction(1, 6) if t1 != t2 else Fraction(0) for t2 in range(3)] for t1 in range(3)]
    e = bayesian_game(prior, 3, 3, lambda t1, t2, a1, a2: table.get((t1, t2, a1, a2), Fraction(0)))
    best_responses_hold(e)
