"""The state of a game of Conquêtes et chasse au trésor: immutable, hashable, with a compact text
form.

A :class:`State` holds every hand, the removed card, the domain, the VP so far, the base cartons
left, every player's unused markers, the bids and the turn in progress. What a viewer has not
seen is :data:`~solver.treasure.cards.UNKNOWN` (another player's card, the removed card) or
:data:`Marker.UNKNOWN` (another player's marker): the same engine then drives a *public* table,
where hand sizes stay exact. The rules that move a state forward live in
:mod:`solver.treasure.engine`; the methods here (OpenSpiel's shape) delegate there.

>>> from solver.treasure.cards import parse_cards
>>> s = State.setup(("Ana", "Ben"), (parse_cards("1cn1ev1ev"), parse_cards("???")), Card.parse("1cv"),
...                 deck=Deck(1, 2, 2), me=0)
>>> s.text()
'tresor deck=1x2x2 Ana:5:1cn1ev1ev:0111NBF Ben:5:???:??????? removed=? domain=0,0:1cv phase=turn mover=Ana'
>>> State.from_text(s.text()) == s
True
"""

from __future__ import annotations

import random
import re
from collections import Counter
from enum import IntEnum
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

from ..errors import ImpossibleTable, Unsupported
from ..game import NOBODY, current_player, shared_returns
from .bids import Bid, unused_markers
from .cards import COPIES, STANDARD, UNKNOWN, Card, Deck, sort_cards
from .domain import Domain
from .moves import Move
from .rules import BASE_CARTONS, DEUX_CARTES, EXTRA_CARD_VP, MARKERS, START_VP, Marker, broken_limit

if TYPE_CHECKING:
    from .score import Score


class Phase(IntEnum):
    """What the game waits for."""

    REMOVE = 0  # chance: the card removed unseen (its twin is the treasure)
    START = 1  # chance: the start card
    DEAL = 2  # chance: the next card of the deal (clockwise from the first player)
    TURN = 3  # `mover` places a card or passes
    NEURO = 4  # after `mover`'s turn, `decider` may call neuro
    BID = 5  # in `caller`'s bidding round, `decider` may bid (the caller must)
    REMOVED = 6  # chance: the game is over, the removed card is shown
    REVEAL = 7  # `decider` reveals the markers of their bids
    BREACH = 8  # the table says whether one of `decider`'s passes under deux cartes was a breach
    OVER = 9  # every score is known

    def __repr__(self) -> str:
        return f"Phase.{self.name}"

    def __str__(self) -> str:
        return self.name.lower()


CHANCE_PHASES = frozenset({Phase.REMOVE, Phase.START, Phase.DEAL, Phase.REMOVED})


class Turn(NamedTuple):
    """The turn in progress: its phase and the seats it depends on."""

    phase: Phase
    mover: int = NOBODY  # whose turn it is (TURN), or who just moved (NEURO, BID)
    decider: int = NOBODY  # who decides now (NEURO, BID, REVEAL, BREACH; the mover in TURN)
    caller: int = NOBODY  # who called neuro (BID)


class State(NamedTuple):
    """A position. Build one with :func:`new_game`, :meth:`setup` or :meth:`from_text`; move it
    with :meth:`apply`. Hands and unused markers are sorted (unknown ones first); ``bids`` are
    in the order they were made; ``removed`` is None before the set-up removes a card."""

    names: tuple[str, ...]
    deck: Deck
    vp: tuple[int, ...]  # VP of play so far: start, extra card, placements, passes, emptying, breaches
    hands: tuple[tuple[Card, ...], ...]
    markers: tuple[tuple[Marker, ...], ...]  # unused markers per seat
    removed: Card | None
    stock: tuple[Card, ...]  # the cards not yet removed, laid or dealt (set-up only)
    domain: Domain
    cartons: tuple[int, ...]  # base cartons left, sorted
    bids: tuple[Bid, ...]
    passes: int  # passes since the last placement
    suspects: tuple[int, ...]  # per seat: passes under deux cartes the engine could not check
    breaches: tuple[int, ...]  # per seat: proven breaches of deux cartes
    turn: Turn

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def setup(
        cls,
        names: tuple[str, ...],
        hands: tuple[tuple[Card, ...], ...],
        start: Card,
        *,
        removed: Card = UNKNOWN,
        deck: Deck = STANDARD,
        me: int | None = None,
    ) -> State:
        """Return the position right after the set-up: ``start`` laid, ``hands`` dealt (unknown
        cards allowed, their sizes those of the deal), +1 VP for every player dealt one card
        more than the fewest, the first player to move. With ``me``, the other players'
        markers are unknown (the table seen from seat ``me``). Raises :class:`ImpossibleTable`
        when the cards do not fit the deck or the hand sizes are not a deal's.
        """
        from .notation import check_names

        check_names(names)
        n = len(names)
        dealt = len(deck.cards()) - 2
        sizes = tuple(dealt // n + (1 if seat < dealt % n else 0) for seat in range(n))
        if tuple(len(h) for h in hands) != sizes:
            raise ImpossibleTable(
                f"{dealt} cards dealt clockwise to {n} players give hands of {', '.join(map(str, sizes))} cards"
            )
        fewest = min(sizes)
        vp = tuple(START_VP + (EXTRA_CARD_VP if size > fewest else 0) for size in sizes)
        markers = tuple(MARKERS if me is None or seat == me else (Marker.UNKNOWN,) * len(MARKERS) for seat in range(n))
        state = cls(
            tuple(names),
            deck,
            vp,
            tuple(sort_cards(h) for h in hands),
            markers,
            removed,
            (),
            Domain.start(start),
            BASE_CARTONS,
            (),
            0,
            (0,) * n,
            (0,) * n,
            Turn(Phase.TURN, 0, 0),
        )
        state.check()
        return state

    @classmethod
    def from_text(cls, text: str) -> State:
        """Parse the text form written by :meth:`text`. Raises :class:`ParseError` for a text it
        cannot read and :class:`ImpossibleTable` for a position no game reaches."""
        from .notation import parse_state

        return parse_state(text)

    def text(self) -> str:
        """Return the compact text form; :meth:`from_text` parses it back to an equal state."""
        from .notation import state_text

        return state_text(self)

    def __repr__(self) -> str:
        return f"State.from_text({self.text()!r})"

    # -- derived facts --------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.names)

    def holders(self) -> tuple[int, ...]:
        """The seats still holding cards, in seating order."""
        return tuple(seat for seat, hand in enumerate(self.hands) if hand)

    def deux_cartes(self) -> bool:
        """True from the moment a player is down to two cards (once the deal is over): every
        player must then place when they can. Hands only shrink, so it never stops."""
        return self.turn.phase > Phase.DEAL and min(len(h) for h in self.hands) <= DEUX_CARTES

    def ended(self) -> bool:
        """True once the building of the domain is over (no more turns nor bids)."""
        return self.turn.phase >= Phase.REMOVED

    def treasure(self) -> Card | None:
        """The treasure's kind (the removed card's), once it is known."""
        return self.removed if self.removed is not None and self.removed.known else None

    def known_cards(self) -> Counter[Card]:
        """How many copies of each kind are known to this state (everything but unknown cards)."""
        cards = [*self.stock, *self.domain.cards()]
        cards.extend(c for hand in self.hands for c in hand)
        if self.removed is not None:
            cards.append(self.removed)
        counts = Counter(cards)
        counts.pop(UNKNOWN, None)
        return counts

    def unseen(self) -> dict[Card, int]:
        """Per kind, the copies not known to this state (the deck less :meth:`known_cards`)."""
        known = self.known_cards()
        return {kind: COPIES - known[kind] for kind in self.deck.kinds() if known[kind] < COPIES}

    def seen_from(self, seat: int) -> State:
        """The public position ``seat`` sees: the other players' cards, their unused markers and
        face-down bid markers, and the removed card (until it is shown) become unknown; hand
        sizes stay. Raises :class:`Unsupported` during the set-up (chance's, unseen)."""
        if self.turn.phase <= Phase.DEAL:
            raise Unsupported("the set-up is unseen: a public position starts after the deal")
        hidden = Marker.UNKNOWN
        hands = tuple(h if i == seat else (UNKNOWN,) * len(h) for i, h in enumerate(self.hands))
        markers = tuple(m if i == seat else (hidden,) * len(m) for i, m in enumerate(self.markers))
        revealed = self.turn.phase > Phase.REVEAL
        bids = tuple(b if b.player == seat or revealed else b._replace(marker=hidden) for b in self.bids)
        removed = self.removed if self.turn.phase > Phase.REMOVED else UNKNOWN
        return self._replace(hands=hands, markers=markers, bids=bids, removed=removed)

    def final(self) -> tuple[Score, ...] | None:
        """Each player's score by part, once the game is over, the removed card shown and every
        bid's marker known; else None. (Breaches may still be added in the BREACH phase.)"""
        from .score import final_scores

        return final_scores(self)

    def winners(self) -> tuple[int, ...]:
        """The seats with the highest total once :meth:`final` is known (several when tied); else ()."""
        from .score import winners

        return winners(self)

    def check(self) -> None:
        """Raise :class:`ImpossibleTable` unless this is a position a game can reach: the cards
        add up to the deck (unknown cards stand for what is missing), the domain is joined and
        within its limits, cartons and markers add up, bids lie on domain cards."""
        from .notation import check_names

        n = len(self.names)
        check_names(self.names)
        for field in (self.vp, self.hands, self.markers, self.suspects, self.breaches):
            if len(field) != n:
                raise ImpossibleTable(f"expected {n} entries, one per player, got {len(field)}")
        self._check_cards()
        self._check_domain()
        self._check_bids()
        self._check_turn()

    def _check_cards(self) -> None:
        deck = self.deck
        for card in self.known_cards():
            if not deck.has(card):
                raise ImpossibleTable(f"there is no {card} in a {deck.text()} deck")
        for card, count in self.known_cards().items():
            if count > COPIES:
                raise ImpossibleTable(f"{count} copies of {card} are in play; the deck has {COPIES}")
        if UNKNOWN in self.stock:
            raise ImpossibleTable("the cards not yet dealt must be known: a game from its start")
        total = len(self.stock) + len(self.domain.tiles) + sum(map(len, self.hands)) + (self.removed is not None)
        if total != len(deck.cards()):
            raise ImpossibleTable(f"{total} cards are in play, but the deck has {len(deck.cards())}")
        if (self.turn.phase > Phase.REMOVE) != (self.removed is not None):
            raise ImpossibleTable("a card is removed at the start of the set-up, and only then")

    def _check_domain(self) -> None:
        d = self.domain
        if self.turn.phase <= Phase.START:
            if d.tiles:
                raise ImpossibleTable("the domain starts after the removal")
            return
        start = d.at(0, 0)
        if start is None or start.owner != NOBODY:
            raise ImpossibleTable("the start card lies at 0 0 and belongs to nobody")
        for t in d.tiles:
            if not t.card.known:
                raise ImpossibleTable(f"the domain card at {t.row} {t.col} must be named")
            if (t.row, t.col) != (0, 0) and not 0 <= t.owner < len(self.names):
                raise ImpossibleTable(f"the domain card at {t.row} {t.col} must belong to a player")
        if not d.connected():
            raise ImpossibleTable("the domain cards must be joined edge to edge")
        limit = broken_limit(d.open_rows(), d.open_columns())
        if limit is not None:
            raise ImpossibleTable(f"the domain has {d.open_rows()} rows and {d.open_columns()} columns: {limit.rule}")

    def _check_bids(self) -> None:
        if Counter(self.cartons) + Counter(b.base for b in self.bids) != Counter(BASE_CARTONS):
            raise ImpossibleTable("the base cartons left and on bids must be the 14 of the game")
        if tuple(sorted(self.cartons)) != self.cartons:
            raise ImpossibleTable("the base cartons left must be sorted")
        for b in self.bids:
            if self.domain.at(b.row, b.col) is None or not 0 <= b.player < len(self.names):
                raise ImpossibleTable(f"a bid lies on {b.row} {b.col}, where there is no domain card")
        for seat, held in enumerate(self.markers):
            used = [b.marker for b in self.bids if b.player == seat]
            if len(held) + len(used) != len(MARKERS) or unused_markers(held, used) is None:
                raise ImpossibleTable(f"{self.names[seat]}'s unused markers and bids are not the 7 markers")
        for seat, (suspect, breach) in enumerate(zip(self.suspects, self.breaches, strict=True)):
            if not 0 <= breach <= suspect:
                raise ImpossibleTable(f"{self.names[seat]} has more breaches than passes under deux cartes")

    def _check_turn(self) -> None:
        t = self.turn
        n = len(self.names)
        for seat in (t.mover, t.decider, t.caller):
            if seat != NOBODY and not 0 <= seat < n:
                raise ImpossibleTable(f"seat {seat} is not at the table")
        if t.phase is Phase.TURN and (t.decider != t.mover or not self.hands[t.mover]):
            raise ImpossibleTable("the player to move must be the decider and hold cards")
        if t.phase in (Phase.NEURO, Phase.BID) and (t.mover == NOBODY or t.decider == NOBODY):
            raise ImpossibleTable(f"a {t.phase} window needs the player who moved and a decider")
        if t.phase is Phase.BID and t.caller == NOBODY:
            raise ImpossibleTable("a bidding round needs its caller")
        if t.phase in (Phase.REVEAL, Phase.BREACH) and t.decider == NOBODY:
            raise ImpossibleTable(f"the {t.phase} phase needs a decider")
        if t.phase > Phase.DEAL and self.stock:
            raise ImpossibleTable("every card is dealt before the first turn")

    # -- OpenSpiel's shape: delegated to the engine -----------------------------------------------

    def current_player(self) -> int:
        """The seat to decide, :data:`~solver.game.CHANCE`, or :data:`~solver.game.TERMINAL`."""
        return current_player(self, self.turn.decider)

    def is_chance_node(self) -> bool:
        return self.turn.phase in CHANCE_PHASES

    def is_terminal(self) -> bool:
        return self.turn.phase is Phase.OVER

    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move (at a chance node: every outcome), in a fixed order."""
        return _engine.legal_moves(self)

    def apply(self, move: Move) -> State:
        """Return the state after ``move``; raises :class:`~solver.errors.IllegalMove` with the
        reason in words."""
        return _engine.apply(self, move)

    def chance_outcomes(self) -> list[tuple[Move, Fraction]]:
        """At a chance node, every outcome with its exact probability (they sum to 1)."""
        return _engine.chance_outcomes(self)

    def sample_chance(self, rng: random.Random) -> Move:
        """At a chance node, one outcome drawn with the probabilities of :meth:`chance_outcomes`."""
        return _engine.sample_chance(self, rng)

    def returns(self) -> tuple[Fraction, ...]:
        """Once the game is over, the winners share +1 and the others -1 (zeros when everybody
        ties, and before the end)."""
        return shared_returns(len(self.names), self.winners() if self.turn.phase is Phase.OVER else ())


NAME = re.compile(r"[^\s:;,=@/?]+")
"""A player's name: one word without the separators of the text form."""


def new_game(names: tuple[str, ...], deck: Deck = STANDARD) -> State:
    """Return the state before the set-up: every card in the stock, 5 VP, 7 markers each and
    the 14 base cartons. Chance then removes a card, lays the start card and deals the rest.

    >>> s = new_game(("Ana", "Ben", "Cleo"))
    >>> s.current_player(), len(s.chance_outcomes()), s.chance_outcomes()[0][1]
    (-1, 27, Fraction(1, 27))
    """
    n = len(names)
    state = State(
        tuple(names),
        deck,
        (START_VP,) * n,
        ((),) * n,
        (MARKERS,) * n,
        None,
        deck.cards(),
        Domain(),
        BASE_CARTONS,
        (),
        0,
        (0,) * n,
        (0,) * n,
        Turn(Phase.REMOVE),
    )
    state.check()
    return state


from . import engine as _engine  # noqa: E402  (the engine needs State defined first)
