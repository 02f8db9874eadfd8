"""Count vectors (how many of each character a set of cards holds) interned as small ids, and
the kernels of what a move does to them: for the content of a place, or of a pair of places,
each content after the move with the number of physical ways to get there. What
:mod:`solver.coup.worlds` applies to its fields, and :mod:`solver.coup.placements` uses to
open its places.

>>> court = vid((1, 0, 0, 0, 1))            # a court of a duke and an ambassador
>>> [(vec(left), vec(taken), ways) for left, taken, ways in takes(court, 1)]
[((1, 0, 0, 0, 0), (0, 0, 0, 0, 1), 1), ((0, 0, 0, 0, 1), (1, 0, 0, 0, 0), 1)]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable
from functools import cache
from math import comb, factorial
from typing import TypeVar

Vec = tuple[int, ...]
"""A count per character (the variant's five, in the order of the character table)."""
Kernel = tuple[tuple[int, int, int], ...]
"""For a pair of fields: each (new first field, new second field, factor)."""

ID_BITS = 12
"""A count vector's id fits this many bits (a field of a world), its last value kept apart (for
:data:`~solver.coup.worlds.POOLED`)."""

H = TypeVar("H", bound=Hashable)


def interning(values: list[H], limit: int | None = None) -> Callable[[H], int]:
    """A function that returns a value's id: its index in ``values``, where it is appended
    when first seen (ids are small ints, shared by every table; ``values[i]`` reads one back).
    ``limit``: the ids must stay below it (asserted).

    >>> names: list[str] = []
    >>> intern = interning(names)
    >>> intern("duke"), intern("captain"), intern("duke"), names
    (0, 1, 0, ['duke', 'captain'])
    """
    ids: dict[H, int] = {}

    def intern(value: H) -> int:
        found = ids.get(value)
        if found is None:
            found = ids[value] = len(values)
            values.append(value)
            assert limit is None or found < limit, f"more than {limit} interned values"
        return found

    return intern


_VECS: list[Vec] = []
vid = interning(_VECS, limit=(1 << ID_BITS) - 1)
"""The interned id of a count vector (an index in ``_VECS``)."""


def vec(i: int) -> Vec:
    """The count vector of an id."""
    return _VECS[i]


def plus(a: Vec, b: Vec) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4])


def minus(a: Vec, b: Vec) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4])


def unit(c: int) -> Vec:
    return tuple(1 if k == c else 0 for k in range(5))


UNITS = tuple(unit(c) for c in range(5))
"""One card of each character."""


@cache
def multinomial(i: int) -> int:
    """M(v) = |v|! / prod(v_c!) for the vector of id ``i``: the orderings of its cards."""
    v = _VECS[i]
    result = factorial(sum(v))
    for x in v:
        result //= factorial(x)
    return result


@cache
def compositions(total: int, bound: Vec) -> tuple[Vec, ...]:
    """Every count vector of ``total`` cards with no count above ``bound``'s."""
    out: list[Vec] = []

    def rec(k: int, left: int, head: Vec) -> None:
        if k == 4:
            if left <= bound[4]:
                out.append((*head, left))
            return
        for x in range(min(left, bound[k]) + 1):
            rec(k + 1, left - x, (*head, x))

    rec(0, total, ())
    return tuple(out)


@cache
def takes(source: int, k: int) -> Kernel:
    """Each way to take ``k`` physical cards from the content ``source``: (what is left, what
    is taken, the number of physical choices)."""
    v = _VECS[source]
    out = []
    for d in compositions(k, v):
        ways = 1
        for x, y in zip(v, d, strict=True):
            ways *= comb(x, y)
        out.append((vid(minus(v, d)), vid(d), ways))
    return tuple(out)


@cache
def splits(pool: int, size: int) -> Kernel:
    """Each content a pooled place of ``size`` cards may take from the ``pool``: (the pool
    left, the place's content, M(content))."""
    return tuple((left, taken, multinomial(taken)) for left, taken, _ in takes(pool, size))


@cache
def _moves(source: int, target: int, k: int) -> Kernel:
    """``k`` uniform physical cards from ``source`` to ``target``."""
    t = _VECS[target]
    return tuple((left, vid(plus(t, _VECS[taken])), ways) for left, taken, ways in takes(source, k))


@cache
def _exchanges(hand: int, court: int, param: int) -> Kernel:
    """``param >> 8`` uniform court cards drawn, then ``param & 255`` uniform cards of the hand
    so grown returned: (hand, court, ways)."""
    draw, back = param >> 8, param & 255
    out: dict[tuple[int, int], int] = defaultdict(int)
    for court_left, grown, w1 in _moves(court, hand, draw):
        for hand_left, court_after, w2 in _moves(grown, court_left, back):
            out[(hand_left, court_after)] += w1 * w2
    return tuple((a, b, n) for (a, b), n in out.items())


@cache
def _swaps(hand: int, court: int) -> Kernel:
    """A uniform card of ``hand`` is shown; the hand draws a uniform court card; the shown card
    goes into the court."""
    h, c = _VECS[hand], _VECS[court]
    out: dict[tuple[int, int], int] = defaultdict(int)
    for s in range(5):
        if h[s]:
            shown, grown = minus(h, UNITS[s]), plus(c, UNITS[s])  # the hand without it, the court with it
            for d in range(5):
                if c[d]:
                    out[(vid(plus(shown, UNITS[d])), vid(minus(grown, UNITS[d])))] += h[s] * c[d]
    return tuple((a, b, n) for (a, b), n in out.items())


@cache
def _swap_known(hand: int, court: int, card: int) -> Kernel:
    """The hand draws a uniform court card, then its ``card`` (seen) goes into the court."""
    h, c = _VECS[hand], _VECS[court]
    if not h[card]:
        return ()
    rest = minus(h, unit(card))
    return tuple((vid(plus(rest, unit(d))), vid(plus(minus(c, unit(d)), unit(card))), c[d]) for d in range(5) if c[d])


def _taken(a: int, card: int) -> Kernel:
    v = _VECS[a]
    return ((vid(minus(v, unit(card))), 0, 1),) if v[card] else ()


def _holding(a: int, card: int) -> Kernel:
    return ((a, 0, 1),) if _VECS[a][card] else ()


def _drawn(a: int, cards: int) -> Kernel:
    v, d = _VECS[a], _VECS[cards]
    ways = 1
    for x, y in zip(v, d, strict=True):
        ways *= comb(x, y)
    return ((vid(minus(v, d)), 0, ways),) if ways else ()


def _split_seen(pool: int, cards: int) -> Kernel:
    v, d = _VECS[pool], _VECS[cards]
    if any(y > x for x, y in zip(v, d, strict=True)):
        return ()
    return ((vid(minus(v, d)), 0, multinomial(cards)),)


def _added(a: int, cards: int) -> Kernel:
    return ((vid(plus(_VECS[a], _VECS[cards])), 0, 1),)


ONE: dict[str, Callable[[int, int], Kernel]] = {
    "taken": _taken,
    "holding": _holding,
    "draw": _drawn,
    "split_seen": _split_seen,
    "add": _added,
}
"""Kernels on one field: (new field, unused, factor)."""
TWO: dict[str, Callable[[int, int, int], Kernel]] = {
    "split": lambda pool, _, size: splits(pool, size),
    "move": _moves,
    "swap": lambda a, b, _: _swaps(a, b),
    "swap_known": _swap_known,
    "exchange": _exchanges,
}
"""Kernels on two fields: (new first field, new second field, factor)."""
