"""The exact odds of a claim, as spicy.md ("The probability of a claim") defines them.

The claimant's hand (h cards, just before the play) is uniform over the cards the seat has not
seen. **`honest`: honest when able**: if the hand holds a card true on both traits of a legal
claim (a "legal true" card), the claimant plays one of those, uniformly, and claims what it
is; otherwise they play any card and claim uniformly among the legal claims L. **`random`** is
the claim-blind baseline: the card is uniform over the unseen cards. With U unseen cards, T
legal true ones, T_sn copies of the claim (s, n), A (B) unseen cards outside T true on spice s
(number n)::

    P0 = C(U - T, h) / C(U, h)      H = (1 - P0) T_sn / T      Q = P0 / |L|
    P(both) = H / (H + Q)     P(spice) = (H + Q A / (U - T)) / (H + Q)     (number: B)

Every probability is an exact :class:`~fractions.Fraction`.

>>> from solver.spicy.cards import DECK, Spice
>>> unseen = dict(DECK.counts)  # the seat has seen two chili 10
>>> unseen[Card.of(Spice.CHILI, 10)] = 1
>>> odds = claim_odds(unseen, hand=3, top=Claim(Spice.CHILI, 5), claim=Claim(Spice.CHILI, 10))
>>> odds.random
Chances(spice=Fraction(33, 98), number=Fraction(6, 49), both=Fraction(1, 98))
>>> odds.honest.both
Fraction(293, 1704)
>>> for part in flag(odds).reason.split("; "):
...     print(part)
only 1 chili 10 unseen among 13 cards true on a legal claim
a hand of 3 holds none of the 13 with chance 7055/10864: likely a forced bluff
>>> advise(odds, pile=4).text()
'challenge number: false with chance 3071/4260; right, you win the 4-card pile; wrong, you draw 2'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import IntEnum
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import IllegalMove, ImpossibleTable
from .cards import DECK, Card, CardKind, Deck
from .rules import TROPHIES_TO_WIN, Claim, Draw, Trait, legal_claims, refusal, true_on, true_on_both

if TYPE_CHECKING:
    from .state import State

__all__ = [
    "UNLIKELY_BELOW",
    "Advice",
    "Chances",
    "ClaimOdds",
    "Counts",
    "Flag",
    "Level",
    "advise",
    "claim_counts",
    "claim_odds",
    "closed_form",
    "flag",
    "top_advice",
    "top_counts",
    "top_odds",
    "true_plays",
    "unlikely_reason",
]

UNLIKELY_BELOW = Fraction(1, 4)
"""The default threshold of the ``unlikely`` flag: honest P(both true) below it."""


class Chances(NamedTuple):
    """The chances that the card is true on its claimed spice, on its number, on both."""

    spice: Fraction
    number: Fraction
    both: Fraction

    def of(self, trait: Trait) -> Fraction:
        """The chance for one trait."""
        return self.spice if trait is Trait.SPICE else self.number


class Counts(NamedTuple):
    """The counts of the model, named as in spicy.md."""

    unseen: int  # U: unseen cards in all
    legal_true: int  # T: unseen numbered cards (s', k) with (s', k) a legal claim
    copies: int  # T_sn: unseen copies of the claimed card
    spice_only: int  # A: unseen cards outside T true on the claimed spice
    number_only: int  # B: unseen cards outside T true on the claimed number
    spice_true: int  # S: unseen cards true on the claimed spice
    number_true: int  # N: unseen cards true on the claimed number
    hand: int  # h: the claimant's hand size just before the play
    claims: int  # |L|: the legal claims on the pile


class ClaimOdds(NamedTuple):
    """A claim priced: the counts, the model's terms (P0, H, Q) and both models' chances."""

    claim: Claim
    counts: Counts
    none_true: Fraction  # P0: the chance the hand held no legal true card
    honest_play: Fraction  # H: the chance of this claim made honestly
    bluff_play: Fraction  # Q: the chance of this claim made as a bluff
    honest: Chances
    random: Chances
    deck: Deck

    @property
    def explained(self) -> bool:
        """False when ``honest`` cannot explain the claim (H + Q = 0): a sure bluff, priced as ``random``."""
        return self.honest_play + self.bluff_play > 0


@lru_cache(maxsize=2048)
def _roles(deck: Deck, top: Claim | None, claim: Claim) -> tuple[tuple[Card, bool, bool, bool, bool], ...]:
    """Per card kind of the deck, what it is for ``claim`` on a pile whose top claims ``top``:
    (the card, true on spice, true on number, legal true, the claimed card itself)."""
    legal = frozenset(legal_claims(deck, top))
    rows = []
    for card in deck.kinds:
        legal_true = card.spice is not None and Claim(card.spice, card.number) in legal
        spice, number = true_on(card, Trait.SPICE, claim), true_on(card, Trait.NUMBER, claim)
        rows.append((card, spice, number, legal_true, legal_true and true_on_both(card, claim)))
    return tuple(rows)


def _counts(unseen: Mapping[Card, int], hand: int, top: Claim | None, claim: Claim, deck: Deck) -> Counts:
    total = legal_true = copies = spice_only = number_only = spice_true = number_true = 0
    for card, spice, number, legal, same in _roles(deck, top, claim):
        count = unseen.get(card, 0)
        if not count:
            continue
        total += count
        spice_true += count * spice
        number_true += count * number
        if legal:
            legal_true += count
            copies += count * same
        else:
            spice_only += count * spice
            number_only += count * number
    size = len(legal_claims(deck, top))
    return Counts(total, legal_true, copies, spice_only, number_only, spice_true, number_true, hand, size)


def _check(unseen: Mapping[Card, int], hand: int, deck: Deck) -> None:
    counts = deck.counts
    for card, count in unseen.items():
        copies = counts.get(card, 0)
        if not 0 <= count <= copies:
            raise ImpossibleTable(f"{count} unseen {card}, but the deck has {copies}", input=card.text())
    total = sum(unseen.values())
    if not 1 <= hand <= total:
        raise ImpossibleTable(f"a claimant's hand of {hand} cannot come from {total} unseen cards")


def claim_odds(unseen: Mapping[Card, int], hand: int, top: Claim | None, claim: Claim, deck: Deck = DECK) -> ClaimOdds:
    """Price ``claim``, made from a hand of ``hand`` cards on a pile whose top claims ``top``
    (None: an empty pile), with ``unseen`` the copies of each card kind the seat has not seen.

    Returns both models' chances. Raises :class:`IllegalMove` if the claim is not legal on the
    pile, :class:`ImpossibleTable` if the counts exceed the deck's or the hand the unseen cards.

    >>> from solver.spicy.cards import Spice
    >>> unseen = {Card.of(Spice.CHILI, 1): 1, Card.of(Spice.CHILI, 2): 1, Card.of(Spice.WASABI, 9): 2}
    >>> claim_odds(unseen, 1, None, Claim(Spice.CHILI, 1)).honest.both
    Fraction(9, 11)
    """
    return _priced(claim_counts(unseen, hand, top, claim, deck), claim, deck)


def claim_counts(unseen: Mapping[Card, int], hand: int, top: Claim | None, claim: Claim, deck: Deck = DECK) -> Counts:
    """The counts of spicy.md for ``claim`` (see :func:`claim_odds`, which raises the same
    errors): enough to tell an impossible claim (``spice_true`` or ``number_true`` is 0) or a
    sure bluff (``copies`` is 0) without pricing it.

    >>> from solver.spicy.cards import Spice
    >>> claim_counts(DECK.counts, 6, None, Claim(Spice.CHILI, 2)).legal_true
    27
    """
    why = refusal(deck, top, claim)
    if why is not None:
        raise IllegalMove(f"{claim} cannot be claimed: {why}", input=claim.text())
    _check(unseen, hand, deck)
    return _counts(unseen, hand, top, claim, deck)


@lru_cache(maxsize=4096)
def _priced(c: Counts, claim: Claim, deck: Deck) -> ClaimOdds:
    """The model's terms and both models' chances from the counts (the same counts, the same odds)."""
    u, t, hand = c.unseen, c.legal_true, c.hand
    none_true = Fraction(comb(u - t, hand), comb(u, hand))
    honest = (1 - none_true) * Fraction(c.copies, t) if t else Fraction(0)
    bluff = none_true / c.claims
    rand = Chances(Fraction(c.spice_true, u), Fraction(c.number_true, u), Fraction(c.copies, u))
    if honest + bluff == 0:
        model = rand
    else:
        spice = Fraction(c.spice_only, u - t) if u > t else Fraction(0)
        number = Fraction(c.number_only, u - t) if u > t else Fraction(0)
        whole = honest + bluff
        model = Chances((honest + bluff * spice) / whole, (honest + bluff * number) / whole, honest / whole)
    return ClaimOdds(claim, c, none_true, honest, bluff, model, rand, deck)


# -- flags --------------------------------------------------------------------------------------


class Level(IntEnum):
    """How suspicious a claim is, the worst first."""

    IMPOSSIBLE = 0  # a trait is certainly false
    BLUFF = 1  # it cannot be true on both traits, though each alone may be
    UNLIKELY = 2  # honest P(both true) is below the threshold

    def __repr__(self) -> str:
        return f"Level.{self.name}"

    def __str__(self) -> str:
        return self.name.lower()


class Flag(NamedTuple):
    """A flagged claim: its level, the honest P(both true) (0 for impossible and bluff), the reason."""

    level: Level
    probability: Fraction
    reason: str


_PLURALS = ("ones", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens")


def _numbers(n: int) -> str:
    return _PLURALS[n - 1] if n <= len(_PLURALS) else f"{n}s"


def _cards(n: int) -> str:
    return "card" if n == 1 else "cards"


def _all_of(count: int, what: str, wilds: int, wild_name: str) -> str:
    if wilds == 0:
        return f"all {count} {what} are accounted for"
    extra = f"the {wild_name}" if wilds == 1 else f"the {wilds} {wild_name}s"
    return f"all {count} {what} and {extra} are accounted for"


def flag(odds: ClaimOdds, threshold: Fraction = UNLIKELY_BELOW) -> Flag | None:
    """The flag of a claim by another player, or None: ``impossible`` when a trait is certainly
    false, ``bluff`` when it cannot be true on both traits, ``unlikely`` when honest P(both
    true) is below ``threshold``. The reason names the counts.

    >>> from solver.spicy.cards import DECK, Spice
    >>> unseen = dict(DECK.counts)
    >>> for spice in Spice:
    ...     unseen[Card.of(spice, 7)] = 0
    >>> unseen[Card.parse("wild-number")] = 0
    >>> flag(claim_odds(unseen, 6, None, Claim(Spice.CHILI, 3)))
    >>> print(flag(claim_odds(unseen, 6, Claim(Spice.CHILI, 5), Claim(Spice.CHILI, 7))).reason)
    all 9 sevens and the 5 number wilds are accounted for
    """
    c, claim, deck = odds.counts, odds.claim, odds.deck
    impossible = []
    if c.spice_true == 0:
        impossible.append(_all_of(deck.numbers * deck.copies, f"{claim.spice} cards", deck.wild_spices, "spice wild"))
    if c.number_true == 0:
        impossible.append(_all_of(deck.spices * deck.copies, _numbers(claim.number), deck.wild_numbers, "number wild"))
    if impossible:
        return Flag(Level.IMPOSSIBLE, Fraction(0), "; ".join(impossible))
    if c.copies == 0:
        copies = deck.copies
        gone = f"all {copies} are accounted for" if copies > 1 else "the only one is accounted for"
        return Flag(Level.BLUFF, Fraction(0), f"no {claim} is unseen ({gone}): it cannot be true on both traits")
    both = odds.honest.both
    if both >= threshold:
        return None
    return Flag(Level.UNLIKELY, both, unlikely_reason(odds))


def unlikely_reason(odds: ClaimOdds, show: Callable[[Fraction], str] = str) -> str:
    """Why honest P(both) is low: few copies of the claim among the legal true cards (an honest
    claimant would likely have played another), and the chance the hand held none (a bluff),
    written by ``show`` (exactly by default: the flag's reason in the outputs)."""
    c = odds.counts
    few = "only " if c.copies * c.claims < c.legal_true else ""
    among = f"{few}{c.copies} {odds.claim} unseen among {c.legal_true} {_cards(c.legal_true)} true on a legal claim"
    none = f"a hand of {c.hand} holds none of the {c.legal_true} with chance {show(odds.none_true)}"
    forced = ": likely a forced bluff" if odds.none_true >= Fraction(1, 2) else ""
    return f"{among}; {none}{forced}"


# -- challenge advice -------------------------------------------------------------------------


class Advice(NamedTuple):
    """Which trait to challenge: the one likelier false under ``honest`` (ties: number), that
    chance, and the stake: the pile won when right, the cards drawn when wrong, and on a last
    card the trophy denied or handed over (``ends``: that trophy would end the game)."""

    trait: Trait
    chance: Fraction
    pile: int
    draws: int
    last: bool
    ends: bool

    def text(self, claimant: str = "the claimant", show: Callable[[Fraction], str] = str) -> str:
        """The advice in words, the chance written by ``show`` (exactly by default)."""
        words = f"challenge {self.trait}: false with chance {show(self.chance)}"
        words += f"; right, you win the {self.pile}-card pile"
        if self.last:
            words += f" and deny {claimant} the trophy"
        words += f"; wrong, you draw {self.draws}"
        if self.last:
            words += f" and hand {claimant} the pile and a trophy"
            if self.ends:
                words += ", which ends the game"
        return words


def advise(odds: ClaimOdds, pile: int, last: bool = False, ends: bool = False) -> Advice:
    """The challenge advice on a claim priced by ``odds``, on a pile of ``pile`` cards (the top
    one included); ``last`` for a last card, ``ends`` when its trophy would end the game.

    >>> from solver.spicy.cards import DECK, Spice
    >>> odds = claim_odds(DECK.counts, 6, None, Claim(Spice.PEPPER, 2))
    >>> advise(odds, pile=1).text()
    'challenge number: false with chance 471937/3547775; right, you win the 1-card pile; wrong, you draw 2'
    """
    spice_false = 1 - odds.honest.spice
    number_false = 1 - odds.honest.number
    trait = Trait.SPICE if spice_false > number_false else Trait.NUMBER
    return Advice(trait, max(spice_false, number_false), pile, Draw.LOST_CHALLENGE.count(odds.deck), last, ends)


# -- the seat's own turn ----------------------------------------------------------------------


def true_plays(hand: Iterable[Card], top: Claim | None, deck: Deck = DECK) -> tuple[tuple[Card, Claim], ...]:
    """The cards of ``hand`` that make a legal claim true on both traits now, each with that claim
    (distinct cards, in the canonical order). Only numbered cards can.

    >>> from solver.spicy.cards import Spice
    >>> hand = [Card.parse("chili-9"), Card.parse("chili-4"), Card.parse("wild-number"), Card.parse("wasabi-10")]
    >>> true_plays(hand, Claim(Spice.CHILI, 5))
    ((Card.parse('chili-9'), Claim(Spice.CHILI, 9)),)
    """
    legal = frozenset(legal_claims(deck, top))
    plays = []
    for card in sorted(set(hand)):
        if card.kind is CardKind.NUMBERED and card.spice is not None and Claim(card.spice, card.number) in legal:
            plays.append((card, Claim(card.spice, card.number)))
    return tuple(plays)


# -- from a state -------------------------------------------------------------------------------


def top_odds(state: State) -> ClaimOdds:
    """The odds of the top card of ``state``, a seat's public state: its unseen cards are the
    cards the state does not name. Raises :class:`IllegalMove` when there is no top card and
    :class:`ImpossibleTable` when nothing is unseen (a full-information state)."""
    top = state.top
    if top is None:
        raise IllegalMove("the pile is empty: there is no claim to price")
    return claim_odds(state.unseen(), top.hand, top.follows, top.claim, state.deck)


def top_counts(state: State) -> Counts:
    """The counts of the top card of ``state`` (see :func:`top_odds`, which raises the same errors)."""
    top = state.top
    if top is None:
        raise IllegalMove("the pile is empty: there is no claim to price")
    return claim_counts(state.unseen(), top.hand, top.follows, top.claim, state.deck)


def top_advice(state: State, odds: ClaimOdds | None = None) -> Advice:
    """The challenge advice on the top card of ``state`` (see :func:`top_odds`); ``odds``: the
    top card's odds when already computed."""
    top = state.top
    odds = odds if odds is not None else top_odds(state)
    assert top is not None
    last = not state.hands[top.player]
    ends = last and (
        state.trophies[top.player] + 1 >= TROPHIES_TO_WIN or sum(state.trophies) + 1 >= state.deck.trophies
    )
    return advise(odds, state.pile_size, last, ends)


# -- the closed form ----------------------------------------------------------------------------


def closed_form(trait: Trait | None = None, odds: ClaimOdds | None = None) -> Any:
    """The honest model's P(both true) (or P(``trait`` true)) as a sympy expression in binomials,
    in the symbols U, T, T_sn, A, B, h, L of spicy.md; with ``odds``, those counts put in, left
    unevaluated (``.doit()`` gives the exact value, when T > 0 and U > T).

    >>> from solver.spicy.cards import DECK, Spice
    >>> closed_form()
    T_sn*(1 - binomial(-T + U, h)/binomial(U, h))/(T*(T_sn*(1 - binomial(-T + U, h)/binomial(U, h))/T + ...
    >>> odds = claim_odds(DECK.counts, 6, Claim(Spice.CHILI, 5), Claim(Spice.CHILI, 10))
    >>> closed_form(odds=odds).doit() == odds.honest.both
    True
    """
    import sympy

    u, t, t_sn, a, b, h, size = sympy.symbols("U T T_sn A B h L", integer=True, nonnegative=True)
    none_true = sympy.binomial(u - t, h) / sympy.binomial(u, h)
    honest = (1 - none_true) * t_sn / t
    bluff = none_true / size
    if trait is None:
        expr = honest / (honest + bluff)
    else:
        alone = a if trait is Trait.SPICE else b
        expr = (honest + bluff * alone / (u - t)) / (honest + bluff)
    if odds is None:
        return expr
    c = odds.counts
    values = {
        u: c.unseen,
        t: c.legal_true,
        t_sn: c.copies,
        a: c.spice_only,
        b: c.number_only,
        h: c.hand,
        size: c.claims,
    }
    with sympy.evaluate(False):
        return expr.subs(values)
