"""Weighted cards: a card's weight vector over the characters, a place's *state* (its cards'
vectors, sorted, interned as a small int), what happens to a state (a card seen, assumed,
moved, exchanged, swapped), and how many worlds a set of weighted cards makes (the
coefficient of z^unseen in the product of their linear forms): what
:mod:`solver.coup.placements` routes between places.

>>> s = _state([FRESH, FRESH])
>>> ((left, weight),) = _reveal(s, 0, False)  # a duke leaves a hand of two fresh cards
>>> _STATES[left], weight  # the card left: 2 for each other character, 1 for a duke
(((1, 2, 2, 2, 2),), 1)
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from functools import cache, lru_cache
from math import comb, factorial, gcd

from .vectors import Vec, interning, unit  # unit(c): a card known to be the character c

State = tuple[Vec, ...]
"""The weight vectors of the cards in one place, sorted."""
Moves = tuple[tuple[int, int, int], ...]
"""For a pair of places: each (new state of the first, of the second, factor)."""

FRESH: Vec = (1, 1, 1, 1, 1)

_STATES: list[State] = []
sid = interning(_STATES)
"""The interned id of a (sorted) state (an index in ``_STATES``)."""


def normal(vector: Vec) -> tuple[Vec | None, int]:
    """``vector`` divided by its gcd, and the gcd; (None, 0) for the zero vector."""
    g = 0
    for x in vector:
        g = gcd(g, x)
    if g == 0:
        return None, 0
    return (vector if g == 1 else tuple(x // g for x in vector)), g


def _state(cards: list[Vec] | tuple[Vec, ...]) -> int:
    return sid(tuple(sorted(cards)))


def _left_after(v1: Vec, v2: Vec, c: int) -> Vec:
    """The card left in a hand {v1, v2} once a card of character c left it: weight of d =
    P(hand = {c, d}), counting both physical ways when d != c."""
    return tuple(v1[c] * v2[d] + v1[d] * v2[c] if d != c else v1[c] * v2[c] for d in range(5))


@lru_cache(maxsize=1 << 16)
def expand(s: int) -> dict[Vec, int]:
    """The weight of each content (counts per character) of the state ``s``: the product of
    its cards' linear forms, unbounded."""
    return _product(_STATES[s], _UNBOUNDED)


@lru_cache(maxsize=1 << 16)
def is_fresh(s: int) -> bool:
    return all(v == FRESH for v in _STATES[s])


@lru_cache(maxsize=1 << 16)
def _reveal(s: int, c: int, keep: bool) -> tuple[tuple[int, int], ...]:
    """A card of character c leaves the state (``keep``: it stays, known), the rest's weights
    being those of the worlds where the place held one."""
    hand = _STATES[s]
    shown = [unit(c)] if keep else []
    if len(hand) == 1:
        return ((_state(shown), hand[0][c]),) if hand[0][c] else ()
    if len(hand) == 2:
        left, g = normal(_left_after(hand[0], hand[1], c))
        return ((_state([*shown, left]), g),) if left is not None else ()
    # a bigger hand (never at a table: exchanges are atomic): its contents, card by card
    out = []
    for y, w in expand(s).items():
        if y[c]:
            rest = [unit(d) for d in range(5) for _ in range(y[d] - (d == c))]
            out.append((_state([*shown, *rest]), w))
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _assume(s: int, c: int) -> tuple[tuple[int, int, bool], ...]:
    """The state split into the worlds holding no c (False) and those holding one (True,
    one term per first card that is a c)."""
    hand = _STATES[s]
    out: list[tuple[int, int, bool]] = []
    masked = [normal(tuple(x if d != c else 0 for d, x in enumerate(v))) for v in hand]
    none = 1
    for v, g in masked:
        none = none * g if v is not None else 0
    if none:
        out.append((_state([v for v, _ in masked if v is not None]), none, False))
    for j, v in enumerate(hand):
        weight = v[c]
        for vm, g in masked[:j]:
            weight = weight * g if vm is not None else 0
        if weight:
            before = [vm for vm, _ in masked[:j] if vm is not None]
            out.append((_state([*before, unit(c), *hand[j + 1 :]]), weight, True))
    return tuple(out)


def _submultisets(cards: State, k: int) -> list[tuple[tuple[Vec, ...], int]]:
    """Each sub-multiset of ``k`` of ``cards`` with the number of physical ways to choose it."""
    items = sorted(Counter(cards).items())
    out: list[tuple[tuple[Vec, ...], int]] = []

    def rec(i: int, left: int, chosen: tuple[Vec, ...], ways: int) -> None:
        if left == 0:
            out.append((chosen, ways))
            return
        if i == len(items):
            return
        v, m = items[i]
        for t in range(min(m, left), -1, -1):
            rec(i + 1, left - t, chosen + (v,) * t, ways * comb(m, t))

    rec(0, k, (), 1)
    return out


def _without(cards: State, taken: tuple[Vec, ...]) -> list[Vec]:
    rest = list(cards)
    for v in taken:
        rest.remove(v)
    return rest


@lru_cache(maxsize=1 << 16)
def _move(a: int, b: int, k: int) -> Moves:
    source, target = _STATES[a], _STATES[b]
    return tuple((_state(_without(source, t)), _state([*target, *t]), w) for t, w in _submultisets(source, k))


@lru_cache(maxsize=1 << 16)
def _exchange(a: int, b: int, draw: int, back: int) -> Moves:
    out: dict[tuple[int, int], int] = defaultdict(int)
    for court_left, grown, w1 in _move(b, a, draw):
        for hand_left, court_after, w2 in _move(grown, court_left, back):
            out[(hand_left, court_after)] += w1 * w2
    return tuple((x, y, n) for (x, y), n in out.items())


@lru_cache(maxsize=1 << 16)
def _swap(a: int, b: int) -> Moves:
    hand, court = _STATES[a], _STATES[b]
    out: dict[tuple[int, int], int] = defaultdict(int)
    for shown, ways in _submultisets(hand, 1):
        rest = _without(hand, shown)
        for drawn, draws in _submultisets(court, 1):
            out[(_state(rest + list(drawn)), _state(_without(court, drawn) + list(shown)))] += ways * draws
    return tuple((x, y, n) for (x, y), n in out.items())


@lru_cache(maxsize=1 << 16)
def _swap_known(a: int, b: int, c: int) -> Moves:
    card = unit(c)
    hand, court = _STATES[a], _STATES[b]
    if card not in hand:
        return ()
    rest = _without(hand, (card,))
    return tuple(
        (_state(rest + list(drawn)), _state([*_without(court, drawn), card]), draws)
        for drawn, draws in _submultisets(court, 1)
    )


@lru_cache(maxsize=1 << 16)
def _draw_seen(s: int, c: int) -> tuple[tuple[int, int], ...]:
    court = _STATES[s]
    return tuple((_state(_without(court, (v,))), n * v[c]) for v, n in Counter(court).items() if v[c])


@lru_cache(maxsize=1 << 16)
def _add(s: int, c: int) -> int:
    return _state([*_STATES[s], unit(c)])


@cache
def _revealing(c: int, keep: bool) -> Callable[[int], tuple[tuple[int, int], ...]]:
    return lambda s: _reveal(s, c, keep)


@cache
def _adding(c: int) -> Callable[[int], tuple[tuple[int, int], ...]]:
    return lambda s: ((_add(s, c), 1),)


@cache
def _drawing_seen(c: int) -> Callable[[int], tuple[tuple[int, int], ...]]:
    return lambda s: _draw_seen(s, c)


@cache
def _assuming(c: int) -> Callable[[int], tuple[tuple[int, int, bool], ...]]:
    return lambda s: _assume(s, c)


@cache
def _moving(k: int) -> Callable[[int, int], Moves]:
    return lambda a, b: _move(a, b, k)


@cache
def _exchanging(draw: int, back: int) -> Callable[[int, int], Moves]:
    return lambda a, b: _exchange(a, b, draw, back)


@cache
def _swapping_known(c: int) -> Callable[[int, int], Moves]:
    return lambda a, b: _swap_known(a, b, c)


@lru_cache(maxsize=1 << 12)
def _cards_mass(every: int, unseen: Vec) -> int:
    """The total mass of a term whose cards are ``every`` (an id of :func:`_cards`): it does not
    depend on where they are."""
    tagged, fresh = _CARDS[every]
    return _coef(tagged, fresh, unseen, unseen)


_CARDS: list[tuple[tuple[Vec, ...], int]] = []
_card_id = interning(_CARDS)


def _cards(states: Iterable[int]) -> int:
    """The interned id of the cards of ``states`` (ids, in any order) all together: the tagged
    ones (sorted) and how many are fresh."""
    return _sorted_cards(tuple(sorted(states)))


@lru_cache(maxsize=1 << 20)
def _sorted_cards(states: tuple[int, ...]) -> int:
    return _card_id(_tagged(states))


@lru_cache(maxsize=1 << 16)
def _masses(s: int, every: int, unseen: Vec) -> tuple[tuple[Vec, int], ...]:
    """Each content a place in state ``s`` can hold, the cards of a term being ``every`` (an id
    of :func:`_cards`), and the mass of the term's worlds where it does, per unit of its weight."""
    tagged, fresh = _others(every, s)
    out = []
    for y, h in expand(s).items():
        rest = (unseen[0] - y[0], unseen[1] - y[1], unseen[2] - y[2], unseen[3] - y[3], unseen[4] - y[4])
        if min(rest) >= 0:
            c = _coef(tagged, fresh, rest, unseen)
            if c:
                out.append((y, h * c))
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _others(every: int, s: int) -> tuple[tuple[Vec, ...], int]:
    """The cards ``every`` (an id of :func:`_cards`) but those of the state ``s``."""
    tagged, fresh = _CARDS[every]
    mine, mine_fresh = _tagged((s,))
    rest = list(tagged)
    for v in mine:
        rest.remove(v)
    return tuple(rest), fresh - mine_fresh


@lru_cache(maxsize=100_000)
def _tagged(states: tuple[int, ...]) -> tuple[tuple[Vec, ...], int]:
    """The cards of ``states`` that are not fresh (sorted), and how many are."""
    cards = [v for s in states for v in _STATES[s]]
    tagged = tuple(sorted(v for v in cards if v != FRESH))
    return tagged, len(cards) - len(tagged)


@lru_cache(maxsize=200_000)
def _coef(tagged: tuple[Vec, ...], fresh: int, target: Vec, bound: Vec) -> int:
    """Coefficient of z^target in prod over tagged cards of (v . z), times (sum z)^fresh
    (``target`` <= ``bound`` componentwise; the product is computed once per bound)."""
    if sum(target) != len(tagged) + fresh or min(target) < 0:
        return 0
    total = 0
    t0, t1, t2, t3, t4 = target
    top = _FACTORIALS[fresh]
    f = _FACTORIALS
    for (w0, w1, w2, w3, w4), a in _product(tagged, bound).items():
        if w0 <= t0 and w1 <= t1 and w2 <= t2 and w3 <= t3 and w4 <= t4:
            total += a * (top // (f[t0 - w0] * f[t1 - w1] * f[t2 - w2] * f[t3 - w3] * f[t4 - w4]))
    return total


_FACTORIALS = [factorial(n) for n in range(64)]
_UNBOUNDED = (64,) * 5
"""A bound no content reaches."""


@lru_cache(maxsize=20_000)
def _product(tagged: tuple[Vec, ...], bound: Vec) -> dict[Vec, int]:
    """prod over tagged cards of (v . z), as {exponents: coefficient}, exponents <= bound."""
    if not tagged:
        return {(0, 0, 0, 0, 0): 1}
    head = _product(tagged[:-1], bound)
    v = tagged[-1]
    out: dict[Vec, int] = defaultdict(int)
    for w, a in head.items():
        for d in range(5):
            if v[d] and w[d] < bound[d]:
                out[w[:d] + (w[d] + 1,) + w[d + 1 :]] += a * v[d]
    return dict(out)
