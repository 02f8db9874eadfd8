"""Exact card-location probabilities from one seat's point of view.

The model (outputs.md, "The probability model"): every card the seat has not seen was dealt
uniformly at random; every unseen draw, kept card and shown card is uniform over the physical
cards; a card seen face up, proved or shown is evidence only that its holder held it.

**Representation.** Under a uniform deal the unseen cards' characters are a uniformly random
arrangement of a known multiset (``unseen``). Every observation is local to one hand of at most
two cards, so after it each card can carry its own *weight vector* over the characters (a fresh
card weighs 1 for every character; a card known to be a duke weighs only the duke; the card
left after a duke was turned up from a hand of two fresh cards weighs 2 for every other
character and 1 for a second duke). A world's weight is the product of its cards' weights, with
the global constraint that the characters add up to ``unseen``. Random moves (draws, kept
cards) are uniform over physical cards, so they only route cards between places: the state is a
sum of *terms*, each a placement of weighted cards (a multiset per place) with an integer
weight. Fresh cards never branch, so the number of terms stays small (a few hundred on long
8-player games) where enumerating the cards' characters would run to millions.

**Marginals.** With the global constraint, a term's mass is the coefficient of z^unseen in
the product of the linear forms (v · z) of its cards; fresh cards contribute a multinomial.
Probabilities are exact fractions.

>>> from solver.coup import Character as C
>>> chars = (C.DUKE, C.ASSASSIN, C.CONTESSA, C.CAPTAIN, C.AMBASSADOR)
>>> b = Beliefs.deal(chars, unseen=(3, 3, 3, 2, 2), hands={1: 2, 2: 2}, court=9)
>>> b.holds(1)[C.CAPTAIN]   # 1 - C(11,2)/C(13,2)
Fraction(23, 78)
>>> b = b.reveal(1, C.DUKE)  # player 1 turns a duke face up
>>> b.holds(1)[C.DUKE]       # the other card is a duke only if both were: 3 / (78 - 45)
Fraction(1, 11)
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial, gcd

from solver.coup import Character, ImpossibleTable

Vec = tuple[int, ...]
"""A card's weight for each of the variant's five characters."""
Place = int
"""A hand (a seat number), :data:`COURT`, or :data:`ASIDE` (the draft's unseen discards)."""
Term = tuple[tuple[Vec, ...], ...]
"""One sorted tuple of card vectors per place, in the order of :attr:`Beliefs.places`."""

COURT: Place = -1
ASIDE: Place = -2
FRESH: Vec = (1, 1, 1, 1, 1)


def known(index: int) -> Vec:
    """The vector of a card known to be the character at ``index``."""
    return tuple(1 if i == index else 0 for i in range(5))


def _normal(vector: Iterable[int]) -> tuple[Vec | None, int]:
    """``vector`` divided by its gcd, and the gcd; (None, 0) for the zero vector."""
    v = tuple(vector)
    g = 0
    for x in v:
        g = gcd(g, x)
    if g == 0:
        return None, 0
    return (v if g == 1 else tuple(x // g for x in v)), g


def _left_after(v1: Vec, v2: Vec, c: int) -> Vec:
    """The vector of the card left in a hand {v1, v2} once a card of character c left it:
    weight of d = P(hand = {c, d}), counting both physical ways when d != c."""
    return tuple(v1[c] * v2[d] + v1[d] * v2[c] if d != c else v1[c] * v2[c] for d in range(5))


class Beliefs:
    """The seat's exact distribution over where the unseen cards are. Immutable: every
    update returns a new object. Raises :class:`ImpossibleTable` when an update leaves no
    possible world."""

    __slots__ = ("_index", "characters", "places", "terms", "unseen")

    def __init__(
        self,
        characters: tuple[Character, ...],
        places: tuple[Place, ...],
        terms: dict[Term, int],
        unseen: tuple[int, ...],
    ) -> None:
        self.characters = characters
        self.places = places
        self.terms = terms
        self.unseen = unseen
        self._index = {p: i for i, p in enumerate(places)}

    def __repr__(self) -> str:
        return f"<Beliefs {len(self.terms)} terms, unseen {dict(zip(self.characters, self.unseen, strict=True))}>"

    # -- construction -------------------------------------------------------------------

    @classmethod
    def deal(
        cls, characters: tuple[Character, ...], unseen: tuple[int, ...], hands: dict[Place, int], court: int
    ) -> Beliefs:
        """Every unseen card dealt uniformly: ``hands`` maps each unseen hand to its size."""
        places = (*sorted(hands), COURT)
        term = tuple((FRESH,) * (hands[p] if p != COURT else court) for p in places)
        beliefs = cls(characters, places, {term: 1}, unseen)
        beliefs._check_sizes()
        return beliefs

    @classmethod
    def routed(
        cls,
        characters: tuple[Character, ...],
        places: tuple[Place, ...],
        placements: Iterable[tuple[dict[Place, list[Character]], int]],
    ) -> Beliefs:
        """Known cards placed at random: each placement (cards per place) with its weight.
        Used for the 2-player draft, where every card in play is known but not where it is."""
        terms: dict[Term, int] = defaultdict(int)
        unseen: tuple[int, ...] | None = None
        for placement, weight in placements:
            term = tuple(tuple(sorted(known(characters.index(c)) for c in placement.get(p, ()))) for p in places)
            terms[term] += weight
            counts = Counter(c for cards in placement.values() for c in cards)
            here = tuple(counts[c] for c in characters)
            if unseen is not None and here != unseen:
                raise ImpossibleTable("placements must place the same cards")
            unseen = here
        assert unseen is not None
        return cls(characters, places, dict(terms), unseen)

    def _check_sizes(self) -> None:
        total = sum(len(cards) for cards in next(iter(self.terms)))
        if total != sum(self.unseen) or min(self.unseen) < 0:
            raise ImpossibleTable(f"{total} unseen cards placed, but {sum(self.unseen)} are unseen")

    # -- helpers -----------------------------------------------------------------------

    def _c(self, character: Character) -> int:
        try:
            return self.characters.index(character)
        except ValueError:
            raise ImpossibleTable(f"there is no {character} in this game") from None

    def _map(
        self, change: Callable[[list[tuple[Vec, ...]], int], Iterator[tuple[list[tuple[Vec, ...]], int]]]
    ) -> dict[Term, int]:
        out: dict[Term, int] = defaultdict(int)
        for term, weight in self.terms.items():
            for places, w in change(list(term), weight):
                if w:
                    out[tuple(tuple(sorted(cards)) for cards in places)] += w
        return dict(out)

    def _with(
        self,
        terms: dict[Term, int],
        unseen: tuple[int, ...] | None = None,
        places: tuple[Place, ...] | None = None,
        why: str = "that cannot happen",
    ) -> Beliefs:
        beliefs = Beliefs(self.characters, places or self.places, terms, unseen or self.unseen)
        if not terms or min(beliefs.unseen) < 0 or beliefs.total() == 0:
            raise ImpossibleTable(why)
        return beliefs

    def size(self, place: Place) -> int:
        """How many cards ``place`` holds."""
        return len(next(iter(self.terms))[self._index[place]])

    # -- observations ---------------------------------------------------------------------

    def reveal(self, place: Place, character: Character, into_court: bool = False) -> Beliefs:
        """A card of ``character`` in ``place`` is turned face up (it leaves the unseen cards),
        or proved and shuffled into the court (``into_court``). Evidence only that ``place``
        held one."""
        c = self._c(character)
        i, court = self._index[place], self._index[COURT]

        def change(term: list[tuple[Vec, ...]], weight: int) -> Iterator[tuple[list[tuple[Vec, ...]], int]]:
            hand = term[i]
            if len(hand) == 1:
                weight *= hand[0][c]
                term[i] = ()
            else:
                left, g = _normal(_left_after(hand[0], hand[1], c))
                if left is None:
                    return
                weight *= g
                term[i] = (left,)
            if into_court:
                term[court] = (*term[court], known(c))
            yield term, weight

        unseen = self.unseen if into_court else _minus(self.unseen, c)
        return self._with(self._map(change), unseen, why=f"no {character} can be there")

    def seen(self, place: Place, character: Character) -> Beliefs:
        """The seat was shown a ``character`` from ``place``, which keeps it."""
        c = self._c(character)
        i = self._index[place]

        def change(term: list[tuple[Vec, ...]], weight: int) -> Iterator[tuple[list[tuple[Vec, ...]], int]]:
            hand = term[i]
            if len(hand) == 1:
                weight *= hand[0][c]
                term[i] = (known(c),)
            else:
                left, g = _normal(_left_after(hand[0], hand[1], c))
                if left is None:
                    return
                weight *= g
                term[i] = (known(c), left)
            yield term, weight

        return self._with(self._map(change), why=f"no {character} can be there")

    def assume_none(self, place: Place, character: Character) -> Beliefs:
        """``place`` holds no ``character`` (the behavioural assumption after a failed proof)."""
        c = self._c(character)
        i = self._index[place]

        def change(term: list[tuple[Vec, ...]], weight: int) -> Iterator[tuple[list[tuple[Vec, ...]], int]]:
            cards = []
            for v in term[i]:
                kept, g = _normal(x if d != c else 0 for d, x in enumerate(v))
                if kept is None:
                    return
                weight *= g
                cards.append(kept)
            term[i] = tuple(cards)
            yield term, weight

        return self._with(self._map(change), why=f"it would hold {character.article}")

    # -- random moves ---------------------------------------------------------------------

    def move_random(self, source: Place, target: Place, count: int = 1) -> Beliefs:
        """``count`` cards chosen uniformly among ``source``'s physical cards go to ``target``."""
        i, j = self._index[source], self._index[target]

        def change(term: list[tuple[Vec, ...]], weight: int) -> Iterator[tuple[list[tuple[Vec, ...]], int]]:
            for taken, ways in _submultisets(term[i], count):
                moved = list(term)
                moved[i] = _remove(term[i], taken)
                moved[j] = term[j] + taken
                yield moved, weight * ways

        return self._with(self._map(change))

    def draw(self, place: Place, count: int = 1) -> Beliefs:
        """``place`` draws ``count`` cards from the court, unseen by the seat."""
        return self.move_random(COURT, place, count)

    def keep_random(self, place: Place, keep: int) -> Beliefs:
        """``place`` keeps ``keep`` of its cards, chosen uniformly, and returns the rest to the court."""
        return self.move_random(place, COURT, self.size(place) - keep)

    def swap_random(self, place: Place) -> Beliefs:
        """``place`` showed one of its cards (uniformly) to someone else, who forced a swap:
        ``place`` draws from the court, then the shown card is shuffled into the court."""
        i, court = self._index[place], self._index[COURT]

        def change(term: list[tuple[Vec, ...]], weight: int) -> Iterator[tuple[list[tuple[Vec, ...]], int]]:
            for shown, ways in _submultisets(term[i], 1):
                rest = _remove(term[i], shown)
                for drawn, draws in _submultisets(term[court], 1):
                    moved = list(term)
                    moved[i] = rest + drawn
                    moved[court] = _remove(term[court], drawn) + shown
                    yield moved, weight * ways * draws

        return self._with(self._map(change))

    def swap_known(self, place: Place, character: Character) -> Beliefs:
        """``place`` showed the seat a ``character`` (see :meth:`seen`) and the seat forced a
        swap: ``place`` draws from the court, then that card is shuffled into the court."""
        card = known(self._c(character))
        i, court = self._index[place], self._index[COURT]

        def change(term: list[tuple[Vec, ...]], weight: int) -> Iterator[tuple[list[tuple[Vec, ...]], int]]:
            rest = _remove(term[i], (card,))
            for drawn, draws in _submultisets(term[court], 1):
                moved = list(term)
                moved[i] = rest + drawn
                moved[court] = _remove(term[court], drawn) + (card,)
                yield moved, weight * draws

        return self._with(self._map(change))

    def observe_draw(self, character: Character) -> Beliefs:
        """The seat drew ``character`` from the court: weighted by the chance of drawing it."""
        c = self._c(character)
        court = self._index[COURT]

        def change(term: list[tuple[Vec, ...]], weight: int) -> Iterator[tuple[list[tuple[Vec, ...]], int]]:
            for v, count in Counter(term[court]).items():
                if v[c]:
                    drawn = list(term)
                    drawn[court] = _remove(term[court], (v,))
                    yield drawn, weight * count * v[c]

        return self._with(self._map(change), _minus(self.unseen, c), why=f"the court holds no {character}")

    def insert(self, character: Character) -> Beliefs:
        """The seat shuffles a known ``character`` into the court."""
        c = self._c(character)
        court = self._index[COURT]

        def change(term: list[tuple[Vec, ...]], weight: int) -> Iterator[tuple[list[tuple[Vec, ...]], int]]:
            term[court] = (*term[court], known(c))
            yield term, weight

        unseen = tuple(n + (1 if k == c else 0) for k, n in enumerate(self.unseen))
        return self._with(self._map(change), unseen)

    def remove_place(self, place: Place) -> Beliefs:
        """Forget an empty place (an eliminated player)."""
        i = self._index[place]
        terms = {term[:i] + term[i + 1 :]: w for term, w in self.terms.items() if not term[i]}
        places = self.places[:i] + self.places[i + 1 :]
        return self._with(terms, places=places)

    # -- questions -------------------------------------------------------------------------

    def total(self) -> int:
        """The total weight of every world (0: no world is possible)."""
        return sum(w * _mass(_tagged(term), self.unseen) for term, w in self.terms.items())

    def contents(self, place: Place) -> dict[tuple[int, ...], Fraction]:
        """The exact distribution of ``place``'s content (counts per character)."""
        i = self._index[place]
        groups: dict[tuple[tuple[Vec, ...], tuple[Vec, ...], int], int] = defaultdict(int)
        for term, w in self.terms.items():
            others = [v for k, cards in enumerate(term) if k != i for v in cards]
            tagged = tuple(sorted(v for v in others if v != FRESH))
            groups[(term[i], tagged, len(others) - len(tagged))] += w
        dist: dict[tuple[int, ...], int] = defaultdict(int)
        for (hand, tagged, fresh), w in groups.items():
            for y, h in _hand_weights(hand).items():
                rest = tuple(u - k for u, k in zip(self.unseen, y, strict=True))
                if min(rest) < 0:
                    continue
                dist[y] += w * h * _coef(tagged, fresh, rest, self.unseen)
        total = sum(dist.values())
        if total == 0:
            raise ImpossibleTable("no world is possible")
        return {y: Fraction(n, total) for y, n in dist.items() if n}

    def joint(self, places: tuple[Place, ...]) -> dict[tuple[tuple[int, ...], ...], Fraction]:
        """The exact joint distribution of the contents of ``places`` (counts per character
        for each), the other places summed over. When ``places`` are all the places, the
        largest one's content is what the others leave (its weight a coefficient, not an
        enumeration of its contents)."""
        index = [self._index[p] for p in places]
        derived = max(range(len(index)), key=lambda k: len(next(iter(self.terms))[index[k]]))
        if set(index) != set(range(len(self.places))) or len(index) < 2:
            derived = -1
        enumerated = [i for k, i in enumerate(index) if k != derived]
        groups: dict[tuple[tuple[tuple[Vec, ...], ...], tuple[Vec, ...], int], int] = defaultdict(int)
        for term, w in self.terms.items():
            others = [v for k, cards in enumerate(term) if k not in enumerated for v in cards]
            tagged = tuple(sorted(v for v in others if v != FRESH))
            groups[(tuple(term[i] for i in enumerated), tagged, len(others) - len(tagged))] += w
        dist: dict[tuple[tuple[int, ...], ...], int] = defaultdict(int)
        for (hands, tagged, fresh), w in groups.items():
            for contents, h in _combinations([_hand_weights(hand) for hand in hands]):
                total = tuple(sum(col) for col in zip(*contents, strict=True)) if contents else (0,) * 5
                rest = tuple(u - k for u, k in zip(self.unseen, total, strict=True))
                if min(rest) < 0:
                    continue
                key = contents if derived < 0 else (*contents[:derived], rest, *contents[derived:])
                dist[key] += w * h * _coef(tagged, fresh, rest, self.unseen)
        grand = sum(dist.values())
        if grand == 0:
            raise ImpossibleTable("no world is possible")
        return {y: Fraction(n, grand) for y, n in dist.items() if n}

    def holds(self, place: Place) -> dict[Character, Fraction]:
        """For each character, the exact probability that ``place`` holds at least one."""
        dist = self.contents(place)
        return {ch: sum((p for y, p in dist.items() if y[c] > 0), Fraction(0)) for c, ch in enumerate(self.characters)}


def _minus(unseen: tuple[int, ...], c: int) -> tuple[int, ...]:
    return tuple(n - (1 if k == c else 0) for k, n in enumerate(unseen))


def _remove(cards: tuple[Vec, ...], taken: tuple[Vec, ...]) -> tuple[Vec, ...]:
    rest = list(cards)
    for v in taken:
        rest.remove(v)
    return tuple(rest)


def _submultisets(cards: tuple[Vec, ...], k: int) -> list[tuple[tuple[Vec, ...], int]]:
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


def _tagged(term: Term) -> tuple[tuple[Vec, ...], int]:
    cards = [v for place in term for v in place]
    tagged = tuple(sorted(v for v in cards if v != FRESH))
    return tagged, len(cards) - len(tagged)


def _mass(tagged_fresh: tuple[tuple[Vec, ...], int], unseen: tuple[int, ...]) -> int:
    tagged, fresh = tagged_fresh
    return _coef(tagged, fresh, unseen, unseen)


def _hand_weights(hand: tuple[Vec, ...]) -> dict[tuple[int, ...], int]:
    """The weight of each content (counts per character) of a hand of weighted cards."""
    dist: dict[tuple[int, ...], int] = {(0, 0, 0, 0, 0): 1}
    for v in hand:
        nxt: dict[tuple[int, ...], int] = defaultdict(int)
        for y, w in dist.items():
            for d in range(5):
                if v[d]:
                    nxt[y[:d] + (y[d] + 1,) + y[d + 1 :]] += w * v[d]
        dist = nxt
    return dict(dist)


@lru_cache(maxsize=200_000)
def _coef(tagged: tuple[Vec, ...], fresh: int, target: tuple[int, ...], bound: tuple[int, ...]) -> int:
    """Coefficient of z^target in prod over tagged cards of (v . z), times (sum z)^fresh
    (``target`` <= ``bound`` componentwise; the product is computed once per bound)."""
    if sum(target) != len(tagged) + fresh or min(target) < 0:
        return 0
    total = 0
    for w, a in _product(tagged, bound).items():
        rest = [t - x for t, x in zip(target, w, strict=True)]
        if min(rest) < 0:
            continue
        total += a * _multinomial(fresh, tuple(rest))
    return total


@lru_cache(maxsize=20_000)
def _product(tagged: tuple[Vec, ...], bound: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """prod over tagged cards of (v . z), as {exponents: coefficient}, exponents <= bound."""
    if not tagged:
        return {(0, 0, 0, 0, 0): 1}
    head = _product(tagged[:-1], bound)
    v = tagged[-1]
    out: dict[tuple[int, ...], int] = defaultdict(int)
    for w, a in head.items():
        for d in range(5):
            if v[d] and w[d] < bound[d]:
                out[w[:d] + (w[d] + 1,) + w[d + 1 :]] += a * v[d]
    return dict(out)


@lru_cache(maxsize=100_000)
def _multinomial(n: int, parts: tuple[int, ...]) -> int:
    result = factorial(n)
    for k in parts:
        result //= factorial(k)
    return result


def _combinations(
    options: list[dict[tuple[int, ...], int]],
) -> Iterator[tuple[tuple[tuple[int, ...], ...], int]]:
    """Every choice of one content per place, with the product of their weights."""
    if not options:
        yield (), 1
        return
    for rest, w in _combinations(options[1:]):
        for y, h in options[0].items():
            yield (y, *rest), h * w
