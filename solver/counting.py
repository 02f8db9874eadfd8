"""Exact counting of copies, shared by the games: the multisets a draw can give with their
chances, the chance that a hand misses every copy of a kind, and that chance's closed form in
binomials (sympy) for people who ask why.

>>> from collections import Counter
>>> [(''.join(d), str(p)) for d, p in draws(tuple("AAB"), 2)]
[('AA', '1/3'), ('AB', '2/3')]
>>> misses(13, 3, 2)             # a hand of 2 from 13 cards holds none of 3 copies
Fraction(15, 26)
>>> at_least_one_why(13, 3, 2)
('1 - C(U - k, h)/C(U, h) with U = 13, k = 3, h = 2: 1 - C(10, 2)/C(13, 2) = 11/26', Fraction(11, 26))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb, prod
from typing import Any, TypeVar

K = TypeVar("K", bound=Hashable)


@lru_cache(maxsize=4096)
def draws(cards: tuple[K, ...], k: int) -> tuple[tuple[tuple[K, ...], Fraction], ...]:
    """Every multiset of ``k`` cards drawn uniformly from the sorted multiset ``cards``, with its
    exact probability (physical cards equally likely), in sorted order."""
    counts = Counter(cards)
    total = comb(len(cards), k)
    outcomes = []
    for drawn in sorted(set(combinations(cards, k))):
        ways = prod(comb(counts[c], m) for c, m in Counter(drawn).items())
        outcomes.append((drawn, Fraction(ways, total)))
    return tuple(outcomes)


def misses(total: int, copies: int, hand: int) -> Fraction:
    """The chance that ``hand`` cards drawn from ``total`` hold none of ``copies`` marked ones:
    C(total - copies, hand) / C(total, hand)."""
    if hand > total:
        return Fraction(0)
    return Fraction(comb(total - copies, hand), comb(total, hand))


@lru_cache(maxsize=1)
def at_least_one() -> tuple[Any, tuple[Any, Any, Any]]:
    """P(a hand of h of U unseen cards holds at least one of k copies), symbolically, with its
    symbols (U, k, h). sympy is imported here, for people who ask why: it is slow to import."""
    import sympy

    u, k, h = sympy.symbols("U k h", integer=True, nonnegative=True)
    return 1 - sympy.binomial(u - k, h) / sympy.binomial(u, h), (u, k, h)


def at_least_one_why(total: int, copies: int, hand: int) -> tuple[str, Fraction]:
    """The closed form of P(a hand of ``hand`` of ``total`` cards holds one of ``copies``), in
    binomials, with the numbers put in, and its exact value (evaluated by sympy)."""
    import sympy

    formula, (u, k, h) = at_least_one()
    exact = sympy.Rational(formula.subs({u: total, k: copies, h: hand}))
    text = (
        f"1 - C(U - k, h)/C(U, h) with U = {total}, k = {copies}, h = {hand}: "
        f"1 - C({total - copies}, {hand})/C({total}, {hand}) = {exact}"
    )
    return text, Fraction(int(exact.p), int(exact.q))
