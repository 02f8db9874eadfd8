"""The game state: immutable, hashable, with a compact one-line text form.

A :class:`State` is a tuple: the hands, the draw pile, the pile (the cards under its top card,
and the top card with its claim), the won cards, the trophies, the depth of World's End and the
turn in progress (:class:`Turn`). The rules that move it forward live in
:mod:`solver.spicy.engine`; the methods here (OpenSpiel's shape) delegate there.

The same state serves two views. In a full-information state every card is known and World's
End lies a known number of cards deep (:meth:`Deck.worlds_end_depth`): it shows by itself. In a
*public* state (a seat's view at the table) the cards the viewer does not know are
:data:`~solver.spicy.cards.UNKNOWN`, hands and piles keep their exact sizes, and World's End is
:data:`HIDDEN`: the table reports it (``Move(Kind.WORLDS_END, NOBODY)``).

>>> s = new_game(("Ana", "Ben"))
>>> s.current_player(), len(s.draw)
(-1, 100)
>>> import random
>>> rng = random.Random(1)
>>> while s.turn.phase is Phase.DEAL:
...     s = s.apply(s.sample_chance(rng))
>>> s.turn.phase, [len(h) for h in s.hands], len(s.draw)
(Phase.PLAY, [6, 6], 88)
>>> State.from_text(s.text()) == s
True
"""

from __future__ import annotations

import random
from collections import Counter
from enum import IntEnum
from fractions import Fraction
from itertools import chain
from typing import NamedTuple

from ..errors import ImpossibleTable
from ..game import current_player, shared_returns
from .cards import DECK, UNKNOWN, Card, Deck, sort_cards
from .moves import NOBODY, Move
from .rules import TROPHIES_TO_WIN, Claim, Trait, score

HIDDEN = -1
"""The depth of World's End in a public state: unknown (the table reports when it shows)."""


class Phase(IntEnum):
    """What the game waits for."""

    DEAL = 0  # chance: the next card of the deal (seat after seat, each hand in full)
    PLAY = 1  # `actor` plays a card with a claim, or passes and draws 1
    WINDOW = 2  # `decider` may challenge the open top card or decline; then `actor` plays
    LAST_CARD = 3  # the top card was its player's last: `decider` challenges or declines
    REVEAL = 4  # chance: the challenged top card, unknown to the viewer, is revealed
    DRAW = 5  # chance: `decider` draws one of `owed` cards; then the draws `then`; then `actor`
    OVER = 6  # the game is over (`end` says why)

    def __repr__(self) -> str:
        return f"Phase.{self.name}"

    def __str__(self) -> str:
        return self.name.lower().replace("_", "-")


CHANCE_PHASES = frozenset({Phase.DEAL, Phase.REVEAL, Phase.DRAW})
WINDOWS = frozenset({Phase.WINDOW, Phase.LAST_CARD})


class End(IntEnum):
    """How the game ended."""

    SECOND_TROPHY = 0  # a player took their 2nd trophy: they win alone
    LAST_TROPHY = 1  # the last trophy was taken: the score decides
    WORLDS_END = 2  # World's End showed on top of the draw pile: the score decides

    def __repr__(self) -> str:
        return f"End.{self.name}"

    def __str__(self) -> str:
        return self.name.lower().replace("_", "-")


class Top(NamedTuple):
    """The top card of the pile: who played it, the card, its claim, the player's hand size just
    before the play and the claim it followed (None: it opened the pile), which the odds need,
    and whether it may still be challenged."""

    player: int
    card: Card
    claim: Claim
    hand: int
    follows: Claim | None = None
    open: bool = True


class Turn(NamedTuple):
    """The turn in progress: the phase and the facts it depends on (seats are numbers)."""

    phase: Phase
    actor: int  # whose turn it is: who plays once the window and the draws are over
    decider: int = NOBODY  # the window's decider, or the drawer, or the revealed card's player
    owed: int = 0  # DRAW: cards the decider still draws
    then: tuple[tuple[int, int], ...] = ()  # DRAW: the draws after this one, (seat, cards)
    challenger: int = NOBODY  # REVEAL: who challenged
    trait: Trait | None = None  # REVEAL: what the challenge named
    covered: Top | None = None  # LAST_CARD: the top card the last card covered (for take-back)
    end: End | None = None  # OVER: why


class State(NamedTuple):
    """A position. Build one with :func:`new_game`, :meth:`position` or :meth:`from_text`;
    move it with :meth:`apply`."""

    names: tuple[str, ...]
    deck: Deck
    hands: tuple[tuple[Card, ...], ...]  # per seat, sorted
    draw: tuple[Card, ...]  # the draw pile, sorted: which card comes next is chance's
    pile: tuple[Card, ...]  # the pile's cards under its top card, sorted
    top: Top | None  # the pile's top card (None: no pile)
    won: tuple[tuple[Card, ...], ...]  # per seat, the cards won in challenges, sorted
    trophies: tuple[int, ...]
    worlds_end: int  # how many cards lie under World's End, or HIDDEN
    turn: Turn

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def position(
        cls,
        names: tuple[str, ...],
        hands: tuple[tuple[Card, ...], ...],
        *,
        deck: Deck = DECK,
        pile: tuple[Card, ...] = (),
        top: Top | None = None,
        won: tuple[tuple[Card, ...], ...] | None = None,
        trophies: tuple[int, ...] | None = None,
        draw: tuple[Card, ...] | None = None,
        worlds_end: int | None = None,
        to_move: int = 0,
    ) -> State:
        """Return the position where ``to_move`` is to play (after the top card's window, if it
        is open). Without ``draw``, the draw pile is the rest of the deck; without
        ``worlds_end``, World's End lies at the deck's depth for the player count, or is
        :data:`HIDDEN` when a card is unknown. Raises :class:`ImpossibleTable` when the cards do
        not add up to the deck.

        >>> from solver.spicy.cards import Card
        >>> s = State.position(("Ana", "Ben"), ((Card.parse("chili-1"),), (Card.parse("wasabi-2"),)))
        >>> len(s.draw), s.worlds_end, s.current_player()
        (98, 44, 0)
        """
        n = len(names)
        won = won if won is not None else tuple(() for _ in range(n))
        trophies = trophies if trophies is not None else (0,) * n
        hands = tuple(sort_cards(h) for h in hands)
        won = tuple(sort_cards(w) for w in won)
        pile = sort_cards(pile)
        if draw is None:
            listed = Counter(c for group in (*hands, *won, pile, (top.card,) if top else ()) for c in group)
            if listed[UNKNOWN]:
                raise ImpossibleTable("with unknown cards the draw pile must be given")
            draw = tuple((Counter(deck.cards) - listed).elements())
        unknown = any(not c.is_known for group in (*hands, *won, pile, draw) for c in group)
        if worlds_end is None:
            worlds_end = HIDDEN if unknown or (top is not None and not top.card.is_known) else deck.worlds_end_depth(n)
        state = cls(
            tuple(names),
            deck,
            hands,
            sort_cards(draw),
            pile,
            top,
            won,
            tuple(trophies),
            worlds_end,
            Turn(Phase.PLAY, to_move),
        )
        state = _engine.start_turn(state, to_move)
        state.check()
        return state

    @classmethod
    def from_text(cls, text: str) -> State:
        """Parse the text form written by :meth:`text`. Raises :class:`ParseError`."""
        from .notation import parse_state

        return parse_state(text)

    def text(self) -> str:
        """Return the compact one-line text form; :meth:`from_text` parses it back to an equal state."""
        from .notation import state_text

        return state_text(self)

    def __repr__(self) -> str:
        return f"State.from_text({self.text()!r})"

    # -- derived facts ----------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def pile_size(self) -> int:
        """Cards in the pile, its top card included."""
        return len(self.pile) + (self.top is not None)

    def top_claim(self) -> Claim | None:
        """The claim the next card must follow (None: the pile is empty)."""
        return self.top.claim if self.top is not None else None

    def cards(self) -> tuple[Card, ...]:
        """Every spice card of the state, wherever it is (unknown ones as UNKNOWN), sorted."""
        top = (self.top.card,) if self.top is not None else ()
        return sort_cards([c for group in (*self.hands, self.draw, self.pile, top, *self.won) for c in group])

    def unseen(self) -> Counter[Card]:
        """Per card kind, the copies not named in this state: for a seat's public state, the
        cards the seat has not seen (its ``unseen``). Empty for a full-information state."""
        top = (self.top.card,) if self.top is not None else ()
        named = Counter(chain(*self.hands, self.draw, self.pile, top, *self.won))
        return Counter({card: left for card, copies in self.deck.counts.items() if (left := copies - named[card]) > 0})

    def scores(self) -> tuple[int, ...]:
        """Per seat: +1 per won card, +10 per trophy, -1 per card in hand."""
        return tuple(score(len(self.won[i]), self.trophies[i], len(self.hands[i])) for i in range(len(self.names)))

    def winners(self) -> tuple[int, ...]:
        """The seats that won once the game is over (ties share the win), else ().

        A player who took their 2nd trophy wins alone; otherwise the highest score wins."""
        if self.turn.phase is not Phase.OVER:
            return ()
        if self.turn.end is End.SECOND_TROPHY:
            return tuple(i for i, t in enumerate(self.trophies) if t >= TROPHIES_TO_WIN)
        scores = self.scores()
        best = max(scores)
        return tuple(i for i, points in enumerate(scores) if points == best)

    def check(self) -> None:
        """Raise :class:`ImpossibleTable` unless the cards add up to the deck (unknown cards
        standing for the missing copies), the trophies to at most the deck's, and the turn
        names real seats."""
        n = len(self.names)
        self.deck.check_players(n)
        if len({name.lower() for name in self.names}) != n:
            raise ImpossibleTable(f"the players need distinct names, not {self.names}")
        for field in (self.hands, self.won, self.trophies):
            if len(field) != n:
                raise ImpossibleTable(f"expected {n} entries, one per player, got {len(field)}")
        if min(self.trophies) < 0 or sum(self.trophies) > self.deck.trophies:
            raise ImpossibleTable(f"{sum(self.trophies)} trophies taken, but the game has {self.deck.trophies}")
        cards = Counter(self.cards())
        unknown = cards.pop(UNKNOWN, 0)
        for card, count in cards.items():
            copies = self.deck.copies_of(card)
            if count > copies:
                raise ImpossibleTable(f"{count} {card} in play, but the deck has {copies}")
        if sum(cards.values()) + unknown != self.deck.size:
            raise ImpossibleTable(
                f"{sum(cards.values()) + unknown} cards are placed, but the deck has {self.deck.size}"
            )
        t = self.turn
        seats = (t.actor, t.decider, t.challenger, *(seat for seat, _ in t.then))
        if self.top is not None:
            seats += (self.top.player,)
        if any(not NOBODY <= seat < n for seat in seats):
            raise ImpossibleTable(f"the turn names a seat that is not at the table: {t}")
        if self.worlds_end != HIDDEN and self.worlds_end > len(self.draw):
            raise ImpossibleTable(f"World's End {self.worlds_end} cards deep in a draw pile of {len(self.draw)}")

    # -- OpenSpiel's shape: delegated to the engine -----------------------------------------

    def current_player(self) -> int:
        """The seat to decide, :data:`~solver.game.CHANCE`, or :data:`~solver.game.TERMINAL`: in a
        play phase the player whose turn it is, else the turn's decider."""
        t = self.turn
        return current_player(self, t.actor if t.phase is Phase.PLAY else t.decider)

    def is_chance_node(self) -> bool:
        return self.turn.phase in CHANCE_PHASES

    def is_terminal(self) -> bool:
        return self.turn.phase is Phase.OVER

    def legal_moves(self) -> tuple[Move, ...]:
        """Every move :meth:`apply` accepts, in a fixed order (at a chance node: the outcomes).
        See :func:`solver.spicy.engine.legal_moves`."""
        return _engine.legal_moves(self)

    def apply(self, move: Move) -> State:
        """Return the state after ``move``; raises :class:`~solver.errors.IllegalMove` with the reason."""
        return _engine.apply(self, move)

    def chance_outcomes(self) -> list[tuple[Move, Fraction]]:
        """At a chance node, every outcome with its exact probability (they sum to 1)."""
        return _engine.chance_outcomes(self)

    def sample_chance(self, rng: random.Random) -> Move:
        """At a chance node, draw one outcome with the probabilities of :meth:`chance_outcomes`."""
        return _engine.sample_chance(self, rng)

    def returns(self) -> tuple[Fraction, ...]:
        """Once over: the winners share +1, the others share -1 (all zeros on a full tie); zeros before."""
        return shared_returns(len(self.names), self.winners())


def new_game(names: tuple[str, ...], deck: Deck = DECK, public: bool = False) -> State:
    """Return the state before the deal: every card in the draw pile.

    Full information by default (World's End at the deck's depth for the player count); with
    ``public``, a viewer's game: every card unknown, World's End :data:`HIDDEN`. Raises
    :class:`ImpossibleTable` for a player count the deck does not allow.

    >>> new_game(("Ana", "Ben", "Cleo"), public=True).text()
    'spicy Ana:-:-:0 Ben:-:-:0 Cleo:-:-:0 draw=?*100 worlds-end=? phase=deal actor=Ana'
    """
    n = len(names)
    deck.check_players(n)
    empty: tuple[tuple[Card, ...], ...] = tuple(() for _ in range(n))
    draw = (UNKNOWN,) * deck.size if public else deck.cards
    depth = HIDDEN if public else deck.worlds_end_depth(n)
    state = State(tuple(names), deck, empty, draw, (), None, empty, (0,) * n, depth, Turn(Phase.DEAL, 0))
    state.check()
    return state


from . import engine as _engine  # noqa: E402  (the engine needs State defined first)
