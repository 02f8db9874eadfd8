"""The full-information game state: immutable, hashable, with a compact text form.

A :class:`State` is a tuple: every face-down card, the court, the coins and the turn in
progress (:class:`Turn`). It is a graph node and a cache key for the solver. The rules that
move it forward live in :mod:`solver.coup.engine`; the methods here (OpenSpiel's shape) delegate
there.

>>> s = State.position(("Alice", "Bob"), Variant.AMBASSADOR, coins=(1, 2),
...                    hidden=((Character.DUKE, Character.CAPTAIN), (Character.ASSASSIN,)),
...                    face_up=((), (Character.CONTESSA,)))
>>> s.text()
'ambassador Alice:1:DK:- Bob:2:A:C court=DDAACCKKBBB aside=- phase=action actor=Alice'
>>> State.from_text(s.text()) == s
True
"""

from __future__ import annotations

import random
from collections import Counter
from enum import IntEnum
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from ..errors import ImpossibleTable, Unsupported
from ..game import current_player, shared_returns
from .cards import MAX_PLAYERS, MIN_PLAYERS, Character, Draft, Variant, copies, deck, sort_cards
from .moves import NOBODY, Move
from .rules import Kind


class Phase(IntEnum):
    """What the game waits for."""

    DEAL = 0  # chance: the deal of 2 cards to each player
    DRAFT_DEAL = 1  # chance: one card of the third pack to each player
    DRAFT_PICK = 2  # `decider` picks a card of their own pack
    ACTION = 3  # the actor takes an action
    CHALLENGE = 4  # `decider` may challenge the actor's claim, or pass
    PROOF = 5  # the challenged claimant (`decider`) proves the claim or loses an influence
    REDRAW = 6  # chance: the claimant draws a replacement for the proved card
    LOSE = 7  # `decider` turns a card face up; then `after`
    BLOCK = 8  # `decider` may block the action, or pass
    BLOCK_CHALLENGE = 9  # `decider` may challenge the block, or pass
    EXCHANGE_DRAW = 10  # chance: the actor draws from the court
    EXCHANGE_KEEP = 11  # the actor keeps cards from hand + `cards` (the drawn ones)
    EXAMINE_SHOW = 12  # the examined target (`decider`) shows a card to the actor
    EXAMINE_DECIDE = 13  # the actor swaps or returns the shown card (`cards`)
    SWAP_DRAW = 14  # chance: the target draws, then the shown card goes into the court
    OVER = 15  # one player is left

    def __repr__(self) -> str:
        return f"Phase.{self.name}"

    def __str__(self) -> str:
        return self.name.lower().replace("_", "-")


CHANCE_PHASES = frozenset({Phase.DEAL, Phase.DRAFT_DEAL, Phase.REDRAW, Phase.EXCHANGE_DRAW, Phase.SWAP_DRAW})
WINDOWS = frozenset({Phase.CHALLENGE, Phase.BLOCK, Phase.BLOCK_CHALLENGE})


class After(IntEnum):
    """What follows a lost influence (phase LOSE)."""

    END_TURN = 0  # the turn ends (the action was cancelled, blocked, or took effect)
    ACTION_GOES_ON = 1  # a challenger lost to a proved action claim: on to the block window / effect

    def __repr__(self) -> str:
        return f"After.{self.name}"

    def __str__(self) -> str:
        return self.name.lower().replace("_", "-")


class Turn(NamedTuple):
    """The turn in progress: the phase and the facts it depends on (seats are numbers)."""

    phase: Phase
    actor: int
    decider: int = NOBODY  # who decides now (any decision phase), or who draws (chance)
    action: Kind | None = None
    target: int = NOBODY
    blocker: int = NOBODY
    block: Character | None = None
    challenger: int = NOBODY
    after: After | None = None
    cards: tuple[Character, ...] = ()  # drawn for an exchange, or shown to an examiner


class State(NamedTuple):
    """A full-information position. Build one with :meth:`position`, :func:`new_game` or
    :meth:`from_text`; move it with :meth:`apply`."""

    names: tuple[str, ...]
    variant: Variant
    coins: tuple[int, ...]
    hidden: tuple[tuple[Character, ...], ...]  # face-down cards per seat, sorted
    face_up: tuple[tuple[Character, ...], ...]  # face-up cards per seat, sorted
    court: tuple[Character, ...]  # sorted
    aside: tuple[Character, ...]  # out of play (the draft's discards), sorted
    turn: Turn

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def position(
        cls,
        names: tuple[str, ...],
        variant: Variant,
        *,
        coins: tuple[int, ...],
        hidden: tuple[tuple[Character, ...], ...],
        face_up: tuple[tuple[Character, ...], ...],
        court: tuple[Character, ...] | None = None,
        aside: tuple[Character, ...] = (),
        to_move: int = 0,
    ) -> State:
        """Return the position at the start of ``to_move``'s turn.

        Without ``court``, the court is the deck minus every card listed; with it (and no
        ``aside``), the cards listed nowhere are out of play, as in the draft. Raises
        :class:`ImpossibleTable` when the cards do not fit the deck or the position is
        not a turn start of a game in progress.
        """
        full = Counter(deck(variant, len(names)))
        listed = Counter(c for cards in (*hidden, *face_up, aside) for c in cards)
        if court is None:
            court = tuple((full - listed).elements())
        elif not aside:
            aside = tuple((full - listed - Counter(court)).elements())
        state = cls(
            tuple(names),
            variant,
            tuple(coins),
            tuple(sort_cards(h) for h in hidden),
            tuple(sort_cards(f) for f in face_up),
            sort_cards(court),
            sort_cards(aside),
            Turn(Phase.ACTION, to_move, to_move),
        )
        state.check()
        if not state.alive(to_move):
            raise ImpossibleTable(f"{names[to_move]} is out of the game and cannot be the player to move")
        if len(state.living()) < 2:
            raise ImpossibleTable("the game is over: fewer than two players have a face-down card")
        return state

    @classmethod
    def from_text(cls, text: str) -> State:
        """Parse the text form written by :meth:`text`. Raises :class:`ParseError`."""
        from .notation import parse_state

        return parse_state(text)

    def text(self) -> str:
        """Return the compact text form; :meth:`from_text` parses it back to an equal state."""
        from .notation import state_text

        return state_text(self)

    def __repr__(self) -> str:
        return f"State.from_text({self.text()!r})"

    # -- derived facts ---------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.names)

    def alive(self, seat: int) -> bool:
        """True while ``seat`` has a face-down card: always during the draft, and for a
        claimant who proved their last card and is drawing its replacement."""
        if self.hidden[seat]:
            return True
        phase = self.turn.phase
        return phase < Phase.ACTION or (phase is Phase.REDRAW and seat == self.turn.decider)

    def living(self) -> tuple[int, ...]:
        """The seats still in the game, in seating order."""
        return tuple(i for i in range(len(self.names)) if self.alive(i))

    def winner(self) -> int | None:
        """The seat that won, once the game is over; else None."""
        if self.turn.phase is not Phase.OVER:
            return None
        return self.living()[0]

    def influence(self, seat: int) -> int:
        """How many face-down cards ``seat`` has."""
        return len(self.hidden[seat])

    def heads_up(self) -> State:
        """The same position with only the two living players' seats: the eliminated players'
        face-up cards set aside (they are out of play either way). A 2-seat state is returned
        unchanged. Of a 7- or 8-player game (20 cards) it gives a 2-seat position with up to 4
        copies of a character, which the endgame tables solve but :meth:`check` refuses.
        Raises :class:`Unsupported` unless exactly two players are alive.

        >>> s = State.from_text("ambassador Alice:0:-:DD Bob:3:A:C Carol:2:K:B "
        ...                     "court=DACCKKBBA aside=- phase=action actor=Bob")
        >>> s.heads_up().text()
        'ambassador Bob:3:A:C Carol:2:K:B court=DAACCKKBB aside=DD phase=action actor=Bob'
        """
        if len(self.names) == 2:
            return self
        living = self.living()
        if len(living) != 2:
            raise Unsupported(f"the exact solver covers two players; {len(living)} are alive")
        seat = {old: new for new, old in enumerate(living)}
        t = self.turn
        turn = t._replace(
            actor=seat.get(t.actor, NOBODY),
            decider=seat.get(t.decider, NOBODY),
            target=seat.get(t.target, NOBODY),
            blocker=seat.get(t.blocker, NOBODY),
            challenger=seat.get(t.challenger, NOBODY),
        )
        dead = tuple(c for old in range(len(self.names)) if old not in seat for c in self.face_up[old])
        return State(
            tuple(self.names[i] for i in living),
            self.variant,
            tuple(self.coins[i] for i in living),
            tuple(self.hidden[i] for i in living),
            tuple(self.face_up[i] for i in living),
            self.court,
            sort_cards((*self.aside, *dead)),
            turn,
        )

    def is_heads_up_turn_start(self) -> bool:
        """True at the start of a turn (the actor to take an action) with exactly two players
        left: the positions the endgame tables answer (after :meth:`heads_up`).

        >>> s = State.from_text("ambassador Alice:0:-:DD Bob:3:A:C Carol:2:K:B "
        ...                     "court=DACCKKBBA aside=- phase=action actor=Bob")
        >>> s.is_heads_up_turn_start()
        True
        >>> new_game(("Alice", "Bob", "Carol")).is_heads_up_turn_start()
        False
        """
        return self.turn.phase is Phase.ACTION and len(self.living()) == 2

    def deck(self) -> tuple[Character, ...]:
        """The deck this game is played with (sorted)."""
        return deck(self.variant, len(self.names))

    def cards_in_limbo(self) -> tuple[Character, ...]:
        """Cards in a hand but neither face down nor in the court: an exchange's drawn cards."""
        return self.turn.cards if self.turn.phase is Phase.EXCHANGE_KEEP else ()

    def check(self) -> None:
        """Raise :class:`ImpossibleTable` unless the cards add up to the deck and coins are >= 0.

        Face-down + face-up + court + set aside (+ an exchange's drawn cards) must be the deck;
        unknown cards (``?``) stand for whatever copies are missing.
        """
        n = len(self.names)
        if not (MIN_PLAYERS <= n <= MAX_PLAYERS) or len({name.lower() for name in self.names}) != n:
            raise ImpossibleTable(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} distinct players, not {self.names}")
        for field in (self.coins, self.hidden, self.face_up):
            if len(field) != n:
                raise ImpossibleTable(f"expected {n} entries, one per player, got {len(field)}")
        for seat, coins in enumerate(self.coins):
            if coins < 0:
                raise ImpossibleTable(f"{self.names[seat]} cannot have {coins} coins")
        for seat in range(n):
            if len(self.hidden[seat]) + len(self.face_up[seat]) > 2:
                raise ImpossibleTable(f"{self.names[seat]} has more than 2 cards")
            if self.coins[seat] and not self.alive(seat):
                raise ImpossibleTable(f"{self.names[seat]} is out of the game and cannot keep {self.coins[seat]} coins")
        everything = Counter(
            c for group in (*self.hidden, *self.face_up, self.court, self.aside, self.cards_in_limbo()) for c in group
        )
        unknown = everything.pop(Character.UNKNOWN, 0)
        full = Counter(self.deck())
        for character, count in everything.items():
            if count > full[character]:
                shown = character.name_en
                raise ImpossibleTable(
                    f"{count} {shown}s in play, but the deck has {full[character]} "
                    f"({'no ' + shown if full[character] == 0 else str(copies(n)) + ' copies'} "
                    f"in the {self.variant} variant with {n} players)"
                )
        total = sum(everything.values()) + unknown
        if total != len(self.deck()):
            raise ImpossibleTable(f"{total} cards are placed, but the deck has {len(self.deck())}")

    def exchange_draws(self) -> int:
        """How many cards an exchange draws now: the variant's number
        (:attr:`~solver.coup.cards.Variant.exchange_draw`), or the whole court if it has fewer."""
        return min(self.variant.exchange_draw, len(self.court))

    # -- OpenSpiel's shape: delegated to the engine -----------------------------------------

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
        """Return the state after ``move``; raises :class:`~solver.errors.IllegalMove`."""
        return _engine.apply(self, move)

    def chance_outcomes(self) -> list[tuple[Move, Fraction]]:
        """At a chance node, every outcome with its exact probability (they sum to 1)."""
        return _engine.chance_outcomes(self)

    def sample_chance(self, rng: random.Random) -> Move:
        """At a chance node, draw one outcome with the probabilities of :meth:`chance_outcomes`."""
        return _engine.sample_chance(self, rng)

    def returns(self) -> tuple[Fraction, ...]:
        """Per seat: +1 for the winner, -1/(n-1) for each other player; zeros before the end."""
        winner = self.winner()
        return shared_returns(len(self.names), () if winner is None else (winner,))


@lru_cache(maxsize=64)
def new_game(names: tuple[str, ...], variant: Variant = Variant.AMBASSADOR, draft: Draft = Draft.DEALT_FIRST) -> State:
    """Return the state before the deal: every card in the court (or, for the 2-player draft,
    the third pack in the court and both players' packs aside), 2 coins each, and 1 coin for
    the first player of a 2-player game. ``draft`` matters only for 2 players.

    >>> new_game(("Alice", "Bob", "Carol")).current_player()
    -1
    """
    n = len(names)
    copies(n)  # raises for a wrong player count
    coins = tuple(1 if n == 2 and seat == 0 else 2 for seat in range(n))
    empty: tuple[tuple[Character, ...], ...] = tuple(() for _ in range(n))
    if n == 2 and draft is not Draft.NONE:
        pack = variant.characters
        phase = Phase.DRAFT_DEAL if draft is Draft.DEALT_FIRST else Phase.DRAFT_PICK
        turn = Turn(phase, 0, 0 if phase is Phase.DRAFT_PICK else NOBODY)
        state = State(tuple(names), variant, coins, empty, empty, pack, sort_cards(pack + pack), turn)
    else:
        state = State(tuple(names), variant, coins, empty, empty, deck(variant, n), (), Turn(Phase.DEAL, 0))
    state.check()
    return state


from . import engine as _engine  # noqa: E402  (the engine needs State defined first)
