"""The set-up of a tracked table: players, variant, draft, the seat and its cards, coins; and
the prior the counting starts from (a uniform deal, or the 2-player draft).

Functions of a :class:`~companion.coup.table.Table` (its methods call them), kept apart to keep
table.py about play.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING

from solver.coup import Character, Draft, IllegalMove, ImpossibleTable, Phase, State, Variant, deck
from solver.coup.state import Turn

from .beliefs import ASIDE, COURT, Beliefs, Place
from .language import Line, Verb

if TYPE_CHECKING:
    from .table import Table

UNKNOWN = Character.UNKNOWN


def apply_setup(self: Table, line: Line) -> Table:
    """Apply a set-up line (players, variant, draft, me, hand, dealt, pick, coins)."""
    verb = line.verb
    if verb is not Verb.COINS and self.started:
        raise IllegalMove(f"'{line.canonical()}' is a set-up line: the game has started")
    if verb is Verb.PLAYERS:
        if self.names:
            raise IllegalMove("the players are already declared")
        n = len(line.names)
        coins = tuple(1 if n == 2 and i == 0 else 2 for i in range(n))
        return replace(self, names=line.names, coins=coins, setup_lines=frozenset({verb}))
    if not self.names:
        raise IllegalMove("declare the players first: players Alice Bob Carol")
    if verb in self.setup_lines and verb is not Verb.COINS:
        raise IllegalMove(f"{verb.value} is already set")
    table = replace(self, setup_lines=self.setup_lines | {verb})
    if verb is Verb.VARIANT:
        return replace(table, variant=Variant.parse(str(line.value)))
    if verb is Verb.DRAFT:
        if len(self.names) != 2:
            raise IllegalMove("draft is for 2 players only")
        return replace(table, draft=Draft.parse(str(line.value)))
    if verb is Verb.ME:
        return replace(table, me=self.seat(str(line.player)))
    if verb is Verb.COINS:
        return _set_coins(self, line)
    return _my_cards(self, table, line)


def _my_cards(self: Table, table: Table, line: Line) -> Table:
    if self.me is None:
        raise IllegalMove(f"{line.verb.value}: say whose cards first (me NAME)")
    for c in line.cards:
        if c not in self.variant.characters:
            raise IllegalMove(f"there is no {c} in the {self.variant} variant")
    if line.verb is Verb.HAND:
        if self._draft_game():
            raise IllegalMove("with the draft, give the dealt card and the pick (dealt CARD, pick CARD)")
        if len(line.cards) != 2:
            raise IllegalMove("hand names your 2 cards")
        return replace(table, hand=line.cards)
    if not self._draft_game():
        raise IllegalMove(f"{line.verb.value} is for the 2-player draft (draft dealt-first or pick-first)")
    if line.verb is Verb.DEALT:
        if self.draft is Draft.PICK_FIRST and self.pick is None:
            raise IllegalMove("with pick-first, the pick comes before the deal (pick CARD)")
        return replace(table, dealt=line.cards[0])
    if self.draft is Draft.DEALT_FIRST and self.dealt is None:
        raise IllegalMove("with dealt-first, the dealt card comes before the pick (dealt CARD)")
    return replace(table, pick=line.cards[0])


def _set_coins(self: Table, line: Line) -> Table:
    seat = self.seat(str(line.player))
    amount = int(line.value or 0)
    if self.state is None:
        coins = self.coins[:seat] + (amount,) + self.coins[seat + 1 :]
        return replace(self, coins=coins)
    s = self.state
    if s.turn.phase is not Phase.ACTION or self.owed_redraw:
        raise IllegalMove("coins can be corrected only when nothing is owed and no window is open")
    if not s.alive(seat) and amount:
        raise IllegalMove(f"{line.player} is out of the game: no coins")
    coins = s.coins[:seat] + (amount,) + s.coins[seat + 1 :]
    return replace(self, state=s._replace(coins=coins))


def start(self: Table) -> Table:
    """Freeze the set-up: the public engine state and the seat's beliefs."""
    if not self.names:
        raise IllegalMove("declare the players first: players Alice Bob Carol")
    missing = self._missing_setup()
    if missing is not None:
        raise IllegalMove(f"the table waits for {missing}")
    n = len(self.names)
    characters = self.variant.characters
    full = deck(self.variant, n)
    court_size = 3 if self._draft_game() else len(full) - 2 * n
    hidden = tuple(self.my_cards() if seat == self.me else (UNKNOWN, UNKNOWN) for seat in range(n))
    aside: tuple[Character, ...] = ()
    if self._draft_game():
        mine = tuple(c for c in characters if c is not self.pick) if self.me is not None else ()
        aside = mine + (UNKNOWN,) * (8 - len(mine))
    state = State(
        self.names,
        self.variant,
        self.coins,
        hidden,
        tuple(() for _ in range(n)),
        (UNKNOWN,) * court_size,
        tuple(sorted(aside)),
        Turn(Phase.ACTION, 0, 0),
    )
    try:
        state.check()
    except ImpossibleTable as error:
        raise ImpossibleTable(f"impossible set-up: {error}") from error
    beliefs = _prior(self, characters, full, court_size)
    return replace(self, state=state, beliefs=beliefs, free=beliefs, face_up=tuple(() for _ in range(n)))


def _prior(self: Table, characters: tuple[Character, ...], full: tuple[Character, ...], court: int) -> Beliefs:
    n = len(self.names)
    others = tuple(seat for seat in range(n) if seat != self.me)
    if self._draft_game():
        picks = None
        if self.draft_model == "equilibrium":
            from .draft_advice import pick_model

            picks = pick_model(self.variant, self.draft)
        return draft_prior(characters, self.me, self.dealt, picks)
    unseen = list(full)
    for c in self.my_cards():
        unseen.remove(c)
    counts = tuple(unseen.count(c) for c in characters)
    return Beliefs.deal(characters, counts, {seat: 2 for seat in others}, court)


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
