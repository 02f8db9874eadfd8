"""The 2-player draft (rules.md): the open-hand value of every game it can produce, and the
draft itself solved as a zero-sum game of incomplete information.

Each player has a pack of the five characters; a third pack is shuffled and each player is
dealt one of its cards (``deal`` = (first's card, second's card), 20 equally likely ordered
pairs); its other 3 cards are the court. Each player keeps (*picks*) one card of their own
pack. The game then starts open-hand, the first player with 1 coin and to move, the second with
2. ``payoff[(deal, picks)]`` is the first player's value of that game.

The 500 games use only 15 multisets of 7 cards in play (the third pack plus the two picks), so
they are solved as 15 graphs, each holding every deal and both orders of its two picks: the
states they share are solved once.

>>> len(deals(Variant.AMBASSADOR)), len(pick_pairs(Variant.AMBASSADOR))
(20, 15)
>>> opening(Variant.AMBASSADOR, (Character.DUKE, Character.CAPTAIN), (Character.ASSASSIN, Character.DUKE)).text()
'ambassador first:1:DA:- second:2:DK:- court=ACB aside=DACCKKBB phase=action actor=first'
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations_with_replacement, permutations

from ..equilibrium import Equilibrium, bayesian_game, matrix_game
from ..values import solve
from .cards import Character, Variant
from .limits import DEFAULT_BUDGET
from .state import State
from .turns import build_many

NAMES = ("first", "second")
FIRST_COINS, SECOND_COINS = 1, 2

Deal = tuple[Character, Character]
"""(the first player's dealt card, the second's), from the third pack."""
Picks = tuple[Character, Character]
"""(the first player's pick, the second's), each from their own pack."""
Payoffs = dict[tuple[Deal, Picks], Fraction]


def deals(variant: Variant) -> list[Deal]:
    """The 20 ordered deals of two different cards of the third pack (equally likely)."""
    return list(permutations(variant.characters, 2))


def pick_pairs(variant: Variant) -> list[tuple[Character, Character]]:
    """The 15 unordered pairs of picks: each names one multiset of the 7 cards in play."""
    return list(combinations_with_replacement(variant.characters, 2))


def opening(variant: Variant, deal: Deal, picks: Picks) -> State:
    """The open-hand game after the draft: hands dealt card + pick, court the third pack's
    other 3 cards, the 8 discarded pack cards out of play; first player 1 coin, to move."""
    court = tuple(c for c in variant.characters if c not in deal)
    pack = list(variant.characters)
    aside = [c for c in pack if c != picks[0]] + [c for c in pack if c != picks[1]]
    return State.position(
        NAMES,
        variant,
        coins=(FIRST_COINS, SECOND_COINS),
        hidden=((deal[0], picks[0]), (deal[1], picks[1])),
        face_up=((), ()),
        court=court,
        aside=tuple(aside),
        to_move=0,
    )


def solve_pair(
    variant: Variant, pair: tuple[Character, Character], budget: int = DEFAULT_BUDGET
) -> tuple[Payoffs, int]:
    """The first player's value of every game whose picks are ``pair`` (in either order), from
    one graph; and that graph's number of states."""
    orders = {pair, (pair[1], pair[0])}
    games = [(deal, picks) for picks in sorted(orders) for deal in deals(variant)]
    graph, nodes = build_many([opening(variant, d, p) for d, p in games], budget)
    solution = solve(graph)
    return {game: solution.value[node] for game, node in zip(games, nodes, strict=True)}, graph.size


def dealt_first(variant: Variant, table: Payoffs) -> Equilibrium:
    """Complots' order: each player picks knowing only their own dealt card. Types are the
    dealt cards, actions the picks, the deal's chance 1/20 each."""
    chars = variant.characters
    weight = Fraction(1, len(deals(variant)))

    def payoff(t1: int, t2: int, a1: int, a2: int) -> Fraction:
        if t1 == t2:
            return Fraction(0)  # impossible deal: weight 0 below
        return table[((chars[t1], chars[t2]), (chars[a1], chars[a2]))]

    prior = [[weight if t1 != t2 else Fraction(0) for t2 in range(5)] for t1 in range(5)]
    return bayesian_game(prior, 5, 5, payoff)


def pick_first(variant: Variant, table: Payoffs) -> Equilibrium:
    """The English order: both pick before any card is dealt; the payoff of a pair of picks
    is its average over the 20 deals."""
    chars = variant.characters
    every = deals(variant)
    matrix = [[sum((table[(d, (p1, p2))] for d in every), Fraction(0)) / len(every) for p2 in chars] for p1 in chars]
    return matrix_game(matrix)


def games(variant: Variant) -> Iterator[tuple[Deal, Picks]]:
    """The 500 (deal, picks) games, in table order."""
    for deal in deals(variant):
        for p1 in variant.characters:
            for p2 in variant.characters:
                yield deal, (p1, p2)
