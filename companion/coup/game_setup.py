"""The set-up of a tracked Coup table: players, variant, draft, the seat and its cards, coin
corrections; and, once play starts, the opening position (set up by the rules engine) and the
prior the counting starts from (a uniform deal, or the 2-player draft).

Set-up facts are typed after the fact at a real table: ``dealt`` and ``pick`` are accepted in
either order whatever the draft's order.

>>> s = Setup()
>>> for text in ("players Alice Bob", "draft pick-first", "me Bob", "dealt duke", "pick captain"):
...     s = s.apply(parse_line(text, s.names))
>>> s.missing() is None, s.my_cards()
(True, (Character.DUKE, Character.CAPTAIN))
>>> s.opening().text()
'ambassador Alice:1:??:- Bob:2:DK:- court=??? aside=DACB???? phase=action actor=Alice'
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Literal

from solver.coup import Character, Draft, IllegalMove, ImpossibleTable, State, Variant, deck, new_game
from solver.coup.counting import ASIDE, COURT, Beliefs, Place
from solver.coup.public import opening

from ..tracked import preload
from .language import Line, Verb, parse_line

__all__ = ["DraftModel", "Setup", "draft_prior", "parse_line"]

DraftModel = Literal["uniform", "equilibrium"]
"""How the opponent's draft pick is weighed: uniformly, or by the draft's equilibrium."""


@dataclass(frozen=True)
class Setup:
    """What the set-up lines said. Immutable: :meth:`apply` returns the next set-up."""

    names: tuple[str, ...] = ()
    variant: Variant = Variant.AMBASSADOR
    draft: Draft = Draft.DEALT_FIRST
    me: int | None = None
    hand: tuple[Character, ...] = ()  # the seat's two cards (no draft)
    dealt: Character | None = None  # draft: the seat's card from the third pack
    pick: Character | None = None  # draft: the seat's card from its own pack
    corrections: tuple[tuple[int, int], ...] = ()  # (seat, coins) typed at set-up
    declared: frozenset[Verb] = field(default_factory=frozenset)

    def __repr__(self) -> str:
        return f"<Setup {' '.join(self.names) or 'no players'}, {self.variant}, draft {self.draft}>"

    @property
    def draft_game(self) -> bool:
        """A 2-player game set up with the draft (dealt-first or pick-first)."""
        return len(self.names) == 2 and self.draft is not Draft.NONE

    @property
    def coins(self) -> tuple[int, ...]:
        """Each player's coins before the first action: the rules' (2 each; 1 for the first of
        two players), then the corrections typed."""
        coins = list(new_game(self.names, self.variant, self.draft).coins) if self.names else []
        for seat, amount in self.corrections:
            coins[seat] = amount
        return tuple(coins)

    def seat(self, name: str) -> int:
        return self.names.index(name)

    def my_cards(self) -> tuple[Character, ...]:
        """The seat's cards as typed so far, in character-table order."""
        if self.me is None:
            return ()
        return tuple(sorted(self.hand or tuple(c for c in (self.dealt, self.pick) if c is not None)))

    def missing(self) -> str | None:
        """What the set-up still owes before the first action, in words (None: complete)."""
        if not self.names:
            return "the players (players Alice Bob Carol)"
        if self.me is None:
            return None
        name = self.names[self.me]
        if self.draft_game:
            if self.dealt is None:
                return f"{name}'s dealt card (dealt CARD)"
            if self.pick is None:
                return f"{name}'s pick (pick CARD)"
            return None
        return f"{name}'s cards (hand CARD CARD)" if not self.hand else None

    def apply(self, line: Line) -> Setup:
        """The set-up after ``line`` (players, variant, draft, me, hand, dealt, pick, coins).
        Raises :class:`IllegalMove` with the reason."""
        verb = line.verb
        if verb is Verb.PLAYERS:
            if self.names:
                raise IllegalMove("the players are already declared")
            return replace(self, names=line.names, declared=frozenset({verb}))
        if not self.names:
            raise IllegalMove("declare the players first: players Alice Bob Carol")
        if verb in self.declared and verb is not Verb.COINS:
            raise IllegalMove(f"{verb.value} is already set")
        after = replace(self, declared=self.declared | {verb})
        if verb is Verb.VARIANT:
            return replace(after, variant=Variant.parse(str(line.value)))
        if verb is Verb.DRAFT:
            if len(self.names) != 2:
                raise IllegalMove("draft is for 2 players only")
            return replace(after, draft=Draft.parse(str(line.value)))
        if verb is Verb.ME:
            return replace(after, me=self.seat(str(line.player)))
        if verb is Verb.COINS:
            return replace(after, corrections=(*self.corrections, (self.seat(str(line.player)), int(line.value or 0))))
        return self._my_cards(after, line)

    def _my_cards(self, after: Setup, line: Line) -> Setup:
        if self.me is None:
            raise IllegalMove(f"{line.verb.value}: say whose cards first (me NAME)")
        for c in line.cards:
            if c not in self.variant.characters:
                raise IllegalMove(f"there is no {c} in the {self.variant} variant")
        if line.verb is Verb.HAND:
            if self.draft_game:
                raise IllegalMove("with the draft, give the dealt card and the pick (dealt CARD, pick CARD)")
            if len(line.cards) != 2:
                raise IllegalMove("hand names your 2 cards")
            return replace(after, hand=line.cards)
        if not self.draft_game:
            raise IllegalMove(f"{line.verb.value} is for the 2-player draft (draft dealt-first or pick-first)")
        if line.verb is Verb.DEALT:
            return replace(after, dealt=line.cards[0])
        return replace(after, pick=line.cards[0])

    def lines(self, defaults: bool = False) -> list[Line]:
        """The set-up lines typed, in the canonical order (players, variant, draft, me, the
        seat's cards with ``dealt`` before ``pick``, coins); with ``defaults``, ``variant`` and
        (for 2 players) ``draft`` written even when not typed, as the canonical form has them."""
        if not self.names:
            return []
        out = [Line(Verb.PLAYERS, names=self.names)]
        if defaults or Verb.VARIANT in self.declared:
            out.append(Line(Verb.VARIANT, value=str(self.variant)))
        if len(self.names) == 2 and (defaults or Verb.DRAFT in self.declared):
            out.append(Line(Verb.DRAFT, value=str(self.draft)))
        if self.me is not None:
            out.append(Line(Verb.ME, player=self.names[self.me]))
            if self.hand:
                out.append(Line(Verb.HAND, cards=self.hand))
            out += [Line(v, cards=(c,)) for v, c in ((Verb.DEALT, self.dealt), (Verb.PICK, self.pick)) if c is not None]
        out += [Line(Verb.COINS, player=self.names[seat], value=amount) for seat, amount in self.corrections]
        return out

    # -- once play starts ----------------------------------------------------------------------

    def opening(self) -> State:
        """The public position at the first action: set up and dealt by the rules engine, the
        cards the seat has not seen unknown, the coins corrected. Raises IllegalMove while the
        set-up owes something, ImpossibleTable for an impossible set-up."""
        missing = self.missing()
        if missing is not None:
            raise IllegalMove(f"the table waits for {missing}")
        try:
            state = opening(self.names, self.variant, self.draft, self.me, self.my_cards(), self.dealt)
            state = state._replace(coins=self.coins)
            state.check()
        except ImpossibleTable as error:
            raise ImpossibleTable(f"impossible set-up: {error}") from error
        except IllegalMove as error:
            raise ImpossibleTable(f"impossible set-up: {error}") from error
        return state

    def prior(self, state: State, picks: PickModel | None = None) -> Beliefs:
        """The seat's exact distribution of the unseen cards at the first action: a uniform
        deal, or the draft (opponents' picks uniform, or weighed by ``picks``)."""
        characters = self.variant.characters
        if self.draft_game:
            return draft_prior(characters, self.me, self.dealt, picks)
        unseen = list(deck(self.variant, len(self.names)))
        for c in self.my_cards():
            unseen.remove(c)
        counts = tuple(unseen.count(c) for c in characters)
        others = {seat: 2 for seat in range(len(self.names)) if seat != self.me}
        beliefs = Beliefs.deal(characters, counts, others, len(state.court))
        if beliefs.bulky:
            preload("solver.coup.worlds_bulk")
        return beliefs


PickModel = Callable[[int, Character], dict[Character, Fraction]]
"""The chance that a seat picks each card, given its dealt card."""


def draft_prior(
    characters: tuple[Character, ...], me: int | None, dealt: Character | None, picks: PickModel | None = None
) -> Beliefs:
    """The 2-player draft: dealt cards uniform from the third pack, the court what is left of
    it, discards out of play; picks uniform and independent, or weighed by ``picks``."""
    pack = list(characters)

    def weight(seat: int, t: Character, p: Character) -> Fraction:
        return Fraction(1) if picks is None else picks(seat, t).get(p, Fraction(0))

    placements: list[tuple[dict[Place, list[Character]], Fraction]] = []
    if me is not None:
        assert dealt is not None
        opponent = 1 - me
        third = [c for c in pack if c is not dealt]
        for t in third:
            for p in pack:
                court = [c for c in third if c is not t]
                aside = [c for c in pack if c is not p]
                placements.append(({opponent: [t, p], COURT: court, ASIDE: aside}, weight(opponent, t, p)))
        places: tuple[Place, ...] = (opponent, COURT, ASIDE)
    else:
        for t0, t1 in ((a, b) for a in pack for b in pack if a is not b):
            for p0 in pack:
                for p1 in pack:
                    court = [c for c in pack if c is not t0 and c is not t1]
                    aside = [c for c in pack if c is not p0] + [c for c in pack if c is not p1]
                    w = weight(0, t0, p0) * weight(1, t1, p1)
                    placements.append(({0: [t0, p0], 1: [t1, p1], COURT: court, ASIDE: aside}, w))
        places = (0, 1, COURT, ASIDE)
    scale = math.lcm(*(w.denominator for _, w in placements))
    return Beliefs.routed(characters, places, ((p, int(w * scale)) for p, w in placements if w))
