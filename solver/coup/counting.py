"""What the tracked seat can know: the exact distribution of the cards it has not seen.

**The model** (outputs.md, "The probability model"): every card the seat has not seen was
dealt uniformly at random; every unseen draw, kept card and shown card is uniform over the
physical cards; a card seen face up, proved or shown is evidence only that its holder held it.
Probabilities are exact fractions. The behavioural assumption about failed proofs is not a
filter but a *mask*: the worlds that break assumption ``i`` carry bit ``1 << i``, and
:class:`Beliefs` answers over the worlds that break none of its ``active`` assumptions, so an
assumption is dropped after the fact by changing ``active``, never by replaying the record.

**The representation, and what a line costs.** The distribution is held one of two ways:

- :mod:`solver.coup.worlds`: a count vector per place that anything singled out (the others
  pooled, their cards a uniform split of what is left), with a mask: the brute force's worlds.
  Physical cards that became exchangeable again collapse into counts, so the worlds never
  exceed **the number of ways to fill the table's places with count vectors under the unseen
  counts** (times the 2**a masks of the a <= players assumptions in force), whatever the
  history: 204 at 3 players, 2,319 at 4, 19,854 at 5, 107,940 at 6 from a fresh deal.
  Tables up to ``START_WORLDS`` worlds (up to 6 players) hold worlds from the deal, and a line
  costs a fixed number of passes over them.
- :mod:`solver.coup.placements`: weighted physical cards routed between places (a card keeps
  what was seen of it as a weight vector; fresh cards never branch): one term for a fresh
  deal, a handful after reveals. At 7-8 players (4.1 and 26.1 million worlds) the table holds
  placements: a term per placement of the cards singled out, so each card singled out (a proof,
  a reveal, the seat's own exchange) that then wanders through the others' exchanges
  multiplies the terms by up to the number of places. After every update, once the table's
  worlds (counted exactly by :func:`~solver.coup.placements.configurations`, times the masks in
  use) are at most ``WORLDS_RATIO`` times the terms, or at most ``WORLDS_BUDGET``, the
  placements become worlds for good (if the conversion's partial worlds stay within its
  effort); so the terms too are bounded by the table, not the history, but at 8 players that
  bound is far beyond a line's budget: a few cards singled out and mixed by 7 players
  exchanging make 10^5-10^6 terms (benchmarks/table.py, the crowd records at 8 players: up to
  3.4 million terms, 0.3-2 s a line, not met).

Only the exact integers grow with the history, by a few bits a line, as the exact fractions
printed must.

>>> from solver.coup import Character as C
>>> chars = (C.DUKE, C.ASSASSIN, C.CONTESSA, C.CAPTAIN, C.AMBASSADOR)
>>> b = Beliefs.deal(chars, unseen=(3, 3, 3, 2, 2), hands={1: 2, 2: 2}, court=9)
>>> b.holds(1)[C.CAPTAIN]   # 1 - C(11,2)/C(13,2)
Fraction(23, 78)
>>> b = b.reveal(1, C.DUKE)  # player 1 turns a duke face up
>>> b.holds(1)[C.DUKE]       # the other card is a duke only if both were: 3 / (78 - 45)
Fraction(1, 11)
>>> b.assume_none(1, C.DUKE, bit=0).holds(1)[C.DUKE], b.assume_none(1, C.DUKE, bit=0).assuming(0).holds(1)[C.DUKE]
(Fraction(0, 1), Fraction(1, 11))
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from ..errors import ImpossibleTable
from . import placements, vectors, weighted, worlds
from .cards import Character
from .placements import FRESH, Placements, configurations
from .vectors import Vec, minus, plus, unit
from .worlds import BULK, Worlds

__all__ = ["ASIDE", "COURT", "FRESH", "Beliefs", "Odds", "Place", "clear_caches"]

Place = int
"""A hand (a seat number), :data:`COURT`, or :data:`ASIDE` (the draft's unseen discards)."""
COURT: Place = -1
ASIDE: Place = -2

WORLDS_RATIO = 4
"""Placements become worlds once those are at most this many times as many (a world costs
several times less than a term held one at a time; about as much as a term held in numpy, from
:data:`~solver.coup.worlds.BULK` terms up, where the ratio is 1)."""
WORLDS_BUDGET = 1_000_000
"""Placements become worlds once those would be at most this many, however few the terms: a
world costs well under 1 us a line (numpy: :mod:`solver.coup.worlds_bulk`), and worlds are
bounded by the table where terms keep growing as the cards singled out wander
(benchmarks/table.py's crowd-7p-s1: 213,000 terms, as worlds from line 28, 180,000-870,000
worlds). Not raised: at 8 players a bigger budget has the placements try conversions that
cannot fit (crowd-8p-s1 at 3 million: 14 million partial worlds for 1.8 million worlds)."""
CONVERSION_EFFORT = 8
"""A conversion to worlds gives up once its partial worlds outnumber the terms this many times,
or twice the worlds it could make (the placements stay: the attempt cost a few lines' updates,
and the next comes only once the terms have doubled). From :data:`~solver.coup.worlds.BULK`
terms up, once they outnumber the terms twice or the budget (crowd-8p-s2 at line 79: 314,000
terms, 902,000 worlds, but 5 million partial worlds on the way: minutes)."""
CHECK_FROM = 24
"""Placements this small are never converted (the check itself costs a pass)."""

START_WORLDS = 150_000
"""Tables whose worlds are at most this many (up to 6 players) start as worlds."""

K = TypeVar("K")


@dataclass(frozen=True)
class Odds:
    """How often a place held a character, per assumption mask: ``(mask, holding, all)``
    masses. Kept with a claim, so that its chance can be recomputed when assumptions drop."""

    masks: tuple[tuple[int, int, int], ...]

    def probability(self, active: int = 0) -> Fraction:
        """The probability over the worlds that break none of the ``active`` assumptions."""
        hold = sum(h for m, h, _ in self.masks if not m & active)
        total = sum(t for m, _, t in self.masks if not m & active)
        if total == 0:
            raise ImpossibleTable("no world is possible")
        return Fraction(hold, total)


class Beliefs:
    """The seat's exact distribution over where the unseen cards are. Immutable: every update
    returns a new object; raises :class:`ImpossibleTable` when it leaves no possible world
    (whatever the assumptions). Questions are answered under the ``active`` assumptions."""

    __slots__ = ("_checked", "_rep", "active", "characters", "places", "sizes", "unseen")

    def __init__(
        self,
        characters: tuple[Character, ...],
        places: tuple[Place, ...],
        sizes: tuple[int, ...],
        unseen: Vec,
        rep: Placements | Worlds,
        active: int = 0,
        checked: int = 0,
    ) -> None:
        self.characters = characters
        self.places = places
        self.sizes = sizes
        self.unseen = unseen
        self.active = active
        self._rep = rep
        self._checked = checked

    def __repr__(self) -> str:
        counts = dict(zip(self.characters, self.unseen, strict=True))
        return f"<Beliefs {len(self._rep)} {self.representation}, unseen {counts}>"

    def __len__(self) -> int:
        """How many terms or worlds hold the distribution."""
        return len(self._rep)

    @property
    def representation(self) -> str:
        """``'placements'`` or ``'worlds'``."""
        return "worlds" if isinstance(self._rep, Worlds) else "placements"

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def deal(
        cls, characters: tuple[Character, ...], unseen: tuple[int, ...], hands: dict[Place, int], court: int
    ) -> Beliefs:
        """Every unseen card dealt uniformly: ``hands`` maps each unseen hand to its size."""
        places = (*sorted(hands), COURT)
        sizes = tuple(hands[p] if p != COURT else court for p in places)
        if sum(sizes) != sum(unseen) or min(unseen) < 0:
            raise ImpossibleTable(f"{sum(sizes)} unseen cards placed, but {sum(unseen)} are unseen")
        rep: Placements | Worlds = Placements.dealt(sizes)
        if configurations(sizes, tuple(unseen)) <= START_WORLDS:
            rep = Worlds.pooled(sizes, tuple(unseen))
        return cls(characters, places, sizes, tuple(unseen), rep)

    @property
    def bulky(self) -> bool:
        """True if the table's worlds may be many enough for the passes in numpy
        (:mod:`solver.coup.worlds_bulk`)."""
        return configurations(self.sizes, self.unseen) >= worlds.BULK

    @classmethod
    def routed(
        cls,
        characters: tuple[Character, ...],
        places: tuple[Place, ...],
        placements: Iterable[tuple[dict[Place, list[Character]], int]],
    ) -> Beliefs:
        """Known cards placed at random: each placement (cards per place) with its weight.
        Used for the 2-player draft, where every card in play is known but not where it is."""
        listed = []
        for placement, weight in placements:
            contents = tuple(_counts(characters, placement.get(p, ())) for p in places)
            listed.append((contents, 0, weight))
        if not listed:
            raise ImpossibleTable("no placement")
        first = listed[0][0]
        if any(_total(c) != _total(first) or _sizes(c) != _sizes(first) for c, _, _ in listed):
            raise ImpossibleTable("placements must place the same cards")
        return cls(characters, places, _sizes(first), _total(first), Worlds.listed(_sizes(first), listed))

    def _c(self, character: Character) -> int:
        try:
            return self.characters.index(character)
        except ValueError:
            raise ImpossibleTable(f"there is no {character} in this game") from None

    def _i(self, place: Place) -> int:
        return self.places.index(place)

    def _with(
        self,
        rep: Placements | Worlds,
        unseen: Vec | None = None,
        sizes: tuple[int, ...] | None = None,
        places: tuple[Place, ...] | None = None,
        why: str = "that cannot happen",
    ) -> Beliefs:
        unseen = self.unseen if unseen is None else unseen
        if min(unseen) < 0:
            raise ImpossibleTable(why)
        checked = self._checked
        if isinstance(rep, Placements):
            rep = rep.pruned(unseen)
            if len(rep) and len(rep) >= max(CHECK_FROM, 2 * checked):
                rep, checked = _maybe_worlds(rep, unseen), len(rep)
        if not len(rep):
            raise ImpossibleTable(why)
        return Beliefs(
            self.characters,
            self.places if places is None else places,
            self.sizes if sizes is None else sizes,
            unseen,
            rep.reduced(),
            self.active,
            checked,
        )

    def size(self, place: Place) -> int:
        """How many cards ``place`` holds."""
        return self.sizes[self._i(place)]

    # -- assumptions ----------------------------------------------------------------------------

    def assuming(self, active: int) -> Beliefs:
        """The same worlds, questions answered under the assumptions of the mask ``active``."""
        return Beliefs(self.characters, self.places, self.sizes, self.unseen, self._rep, active, self._checked)

    def assume_none(self, place: Place, character: Character, bit: int) -> Beliefs:
        """``place`` holds no ``character`` (the behavioural assumption after a failed proof):
        the worlds where it holds one get assumption ``bit`` (an index), made active."""
        c, i = self._c(character), self._i(place)
        flag = 1 << bit
        if isinstance(self._rep, Placements):
            rep: Placements | Worlds = self._rep.assume(i, c, flag)
        else:
            rep = self._rep.tag(i, c, flag)
        return self._with(rep).assuming(self.active | flag)

    def forget(self, bits: int) -> Beliefs:
        """The assumptions of the mask ``bits`` dropped for good (their worlds merge)."""
        rep = self._rep.forget(bits)
        return Beliefs(self.characters, self.places, self.sizes, self.unseen, rep, self.active & ~bits, self._checked)

    # -- observations ---------------------------------------------------------------------------

    def reveal(self, place: Place, character: Character, into_court: bool = False) -> Beliefs:
        """A card of ``character`` in ``place`` is turned face up (it leaves the unseen cards),
        or proved and shuffled into the court (``into_court``). Evidence only that ``place``
        held one."""
        c, i = self._c(character), self._i(place)
        court = self._i(COURT) if into_court else None
        sizes = list(self.sizes)
        sizes[i] -= 1
        if court is not None:
            sizes[court] += 1
        if isinstance(self._rep, Placements):
            rep: Placements | Worlds = self._rep.reveal(i, c, court)
        else:
            rep = self._rep.reveal(i, c)
            if court is not None:
                rep = rep.add(court, unit(c))
        unseen = self.unseen if into_court else minus(self.unseen, unit(c))
        return self._with(rep, unseen, tuple(sizes), why=f"no {character} can be there")

    def seen(self, place: Place, character: Character) -> Beliefs:
        """The seat was shown a ``character`` from ``place``, which keeps it."""
        c, i = self._c(character), self._i(place)
        if isinstance(self._rep, Placements):
            rep: Placements | Worlds = self._rep.seen(i, c)
        else:
            rep = self._rep.seen(i, c)
        return self._with(rep, why=f"no {character} can be there")

    def move_random(self, source: Place, target: Place, count: int = 1) -> Beliefs:
        """``count`` cards chosen uniformly among ``source``'s physical cards go to ``target``."""
        i, j = self._i(source), self._i(target)
        sizes = list(self.sizes)
        sizes[i] -= count
        sizes[j] += count
        return self._with(self._rep.move(i, j, count), sizes=tuple(sizes))

    def draw(self, place: Place, count: int = 1) -> Beliefs:
        """``place`` draws ``count`` cards from the court, unseen by the seat."""
        return self.move_random(COURT, place, count)

    def keep_random(self, place: Place, keep: int) -> Beliefs:
        """``place`` keeps ``keep`` of its cards, chosen uniformly, and returns the rest to the court."""
        return self.move_random(place, COURT, self.size(place) - keep)

    def exchange_random(self, place: Place, draw: int, keep: int) -> Beliefs:
        """``place`` draws ``draw`` cards from the court, keeps ``keep`` of them all, chosen
        uniformly, and returns the rest: :meth:`draw` then :meth:`keep_random`, in one step."""
        i, court = self._i(place), self._i(COURT)
        sizes = list(self.sizes)
        back = sizes[i] + draw - keep
        sizes[i], sizes[court] = keep, sizes[court] - draw + back
        if isinstance(self._rep, Placements):
            rep: Placements | Worlds = self._rep.exchange(i, court, draw, back)
        else:
            rep = self._rep.exchange(i, court, draw, keep)
        return self._with(rep, sizes=tuple(sizes))

    def swap_random(self, place: Place) -> Beliefs:
        """``place`` showed one of its cards (uniformly) to someone else, who forced a swap:
        ``place`` draws from the court, then the shown card is shuffled into the court."""
        return self._with(self._rep.swap_random(self._i(place), self._i(COURT)))

    def swap_known(self, place: Place, character: Character) -> Beliefs:
        """``place`` showed the seat a ``character`` (see :meth:`seen`) and the seat forced a
        swap: ``place`` draws from the court, then that card is shuffled into the court."""
        c = self._c(character)
        return self._with(self._rep.swap_known(self._i(place), self._i(COURT), c))

    def observe_draw(self, *characters: Character) -> Beliefs:
        """The seat drew ``characters`` from the court: weighted by the chance of drawing them."""
        drawn, court = self._counted(characters), self._i(COURT)
        sizes = list(self.sizes)
        sizes[court] -= len(characters)
        unseen = minus(self.unseen, drawn)
        if isinstance(self._rep, Worlds):
            rep: Placements | Worlds = self._rep.draw_seen(court, drawn)
        else:
            rep = self._rep
            for c in characters:
                rep = rep.draw_seen(court, self._c(c))
        names = " and ".join(str(c) for c in characters)
        return self._with(rep, unseen, tuple(sizes), why=f"the court holds no {names}")

    def insert(self, *characters: Character) -> Beliefs:
        """The seat shuffles known ``characters`` into the court."""
        added, court = self._counted(characters), self._i(COURT)
        sizes = list(self.sizes)
        sizes[court] += len(characters)
        if isinstance(self._rep, Worlds):
            rep: Placements | Worlds = self._rep.add(court, added)
        else:
            rep = self._rep
            for c in characters:
                rep = rep.add(court, self._c(c))
        return self._with(rep, plus(self.unseen, added), tuple(sizes))

    def _counted(self, characters: tuple[Character, ...]) -> Vec:
        counts = [0] * 5
        for c in characters:
            counts[self._c(c)] += 1
        return tuple(counts)

    def remove_place(self, place: Place) -> Beliefs:
        """Forget an empty place (an eliminated player)."""
        i = self._i(place)
        sizes, places = self.sizes[:i] + self.sizes[i + 1 :], self.places[:i] + self.places[i + 1 :]
        return self._with(self._rep.remove(i), sizes=sizes, places=places)

    # -- questions ------------------------------------------------------------------------------

    def _active(self, by_mask: dict[int, dict[K, int]]) -> dict[K, int]:
        out: dict[K, int] = defaultdict(int)
        for mask, dist in by_mask.items():
            if not mask & self.active:
                for k, n in dist.items():
                    out[k] += n
        return out

    def _totals(self) -> dict[int, int]:
        return self._rep.totals() if isinstance(self._rep, Worlds) else self._rep.totals(self.unseen)

    def total(self) -> int:
        """The total mass of the worlds under the active assumptions (0: none is possible)."""
        return sum(n for m, n in self._totals().items() if not m & self.active)

    def _contents(self, place: Place) -> dict[int, dict[Vec, int]]:
        i = self._i(place)
        return self._rep.contents(i) if isinstance(self._rep, Worlds) else self._rep.contents(i, self.unseen)

    def contents(self, place: Place) -> dict[tuple[int, ...], Fraction]:
        """The exact distribution of ``place``'s content (counts per character)."""
        return _normalized(self._active(self._contents(place)))

    def joint(self, places: tuple[Place, ...]) -> dict[tuple[tuple[int, ...], ...], Fraction]:
        """The exact joint distribution of the contents of ``places`` (counts per character
        for each), the other places summed over."""
        index = tuple(self._i(p) for p in places)
        by_mask = self._rep.joint(index) if isinstance(self._rep, Worlds) else self._rep.joint(index, self.unseen)
        return _normalized(self._active(by_mask))

    def holds(self, place: Place) -> dict[Character, Fraction]:
        """For each character, the exact probability that ``place`` holds at least one."""
        dist = self.contents(place)
        return {ch: sum((p for y, p in dist.items() if y[c] > 0), Fraction(0)) for c, ch in enumerate(self.characters)}

    def odds(self, place: Place, character: Character) -> Odds:
        """How often ``place`` holds a ``character``, per assumption mask (every mask, whatever
        is active)."""
        c = self._c(character)
        masks = []
        for mask, dist in sorted(self._contents(place).items()):
            masks.append((mask, sum(n for y, n in dist.items() if y[c]), sum(dist.values())))
        return Odds(tuple(masks))

    def exchangeable(self) -> bool:
        """True when nothing singles any unseen card out: the plain uniform deal, where the odds
        have a closed form in binomials."""
        if isinstance(self._rep, Worlds):
            return len(self._rep) == 1 and not any(self._rep.opened)
        (key,) = self._rep.terms if len(self._rep) == 1 else ((1,),)
        return key[0] == 0 and all(v == FRESH for state in Placements.states(key) for v in state)


def _counts(characters: tuple[Character, ...], cards: Iterable[Character]) -> Vec:
    listed = list(cards)
    return tuple(listed.count(c) for c in characters)


def _total(contents: tuple[Vec, ...]) -> Vec:
    total: Vec = (0, 0, 0, 0, 0)
    for y in contents:
        total = plus(total, y)
    return total


def _sizes(contents: tuple[Vec, ...]) -> tuple[int, ...]:
    return tuple(sum(y) for y in contents)


def clear_caches() -> None:
    """Empty the memo caches of the counting (benchmarks time each record from cold)."""
    bulk = [sys.modules.get(f"{__package__}.{name}") for name in ("worlds_bulk", "placements_bulk")]
    for module in (placements, weighted, worlds, vectors, *filter(None, bulk)):
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


def _normalized(masses: dict[K, int]) -> dict[K, Fraction]:
    total = sum(masses.values())
    if total == 0:
        raise ImpossibleTable("no world is possible")
    return {k: Fraction(n, total) for k, n in masses.items() if n}


def _maybe_worlds(rep: Placements, unseen: Vec) -> Placements | Worlds:
    """``rep`` as worlds if the table's worlds (all of them: the places not yet opened would
    be, one exchange after the other) would be at most WORLDS_RATIO times as many, or at most
    WORLDS_BUDGET."""
    if not rep.tagged_places():
        return rep
    sizes = tuple(len(state) for state in Placements.states(rep.first()))
    masks = len(rep.masks())
    bound = configurations(sizes, unseen) * masks
    if len(rep) < BULK:
        ratio, limit = WORLDS_RATIO, max(CONVERSION_EFFORT * len(rep), 2 * bound)
    else:
        ratio, limit = 1, max(2 * len(rep), min(2 * bound, WORLDS_BUDGET))
    if bound > max(ratio * len(rep), WORLDS_BUDGET):
        return rep
    worlds = rep.to_worlds(unseen, limit)
    return rep if worlds is None else worlds
