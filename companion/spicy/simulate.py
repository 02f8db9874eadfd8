"""A full-information game told from one seat's point of view: the lines a person in that seat
would type (nothing the seat cannot see), applied to the seat's own table as they are written.
Bots decide from such a table; the tests and the benchmark write random records with it.

>>> text = random_record(players=3, seed=1, seat=0)
>>> text.splitlines()[:3]
['game spicy', 'players Ana Ben Cleo', 'me Ana']
>>> from companion.spicy.tracker import replay
>>> replay(text).over
True
"""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Sequence
from fractions import Fraction

from solver.game import play
from solver.spicy import DECK, Card, Deck, Kind, Move, Phase, State, new_game
from solver.spicy.odds import UNLIKELY_BELOW

from ..tracked import Event
from .language import Line, Verb
from .tracker import Table

NAMES = ("Ana", "Ben", "Cleo", "Dan", "Eva", "Finn")


class SeatView:
    """Turns the engine's full-information moves into the table lines seat ``seat`` would type
    (None: a spectator), and keeps that seat's :class:`~companion.spicy.tracker.Table` (without
    ``priced``: a bot's table, which prices the top card only when it decides)."""

    def __init__(
        self,
        names: Sequence[str],
        seat: int | None,
        deck: Deck = DECK,
        threshold: Fraction = UNLIKELY_BELOW,
        priced: bool = True,
    ) -> None:
        self.names = tuple(names)
        self.seat = seat
        self.table = Table.new(deck, threshold, priced)
        self.lines: list[str] = []
        self.told: list[tuple[str, tuple[Event, ...]]] = []  # the lines since `take_told()`, with their events
        self._digest = hashlib.blake2b(digest_size=8)
        self._dealt: list[Card] = []
        self._drawing: list[Card] = []  # the seat's draw in progress
        self._since = 0  # cards drawn by other players since the last line
        self.tell(Line(Verb.GAME))
        self.tell(Line(Verb.PLAYERS, names=self.names))
        if seat is not None:
            self.tell(Line(Verb.ME, player=self.names[seat]))

    def __repr__(self) -> str:
        return f"<SeatView {self.names[self.seat] if self.seat is not None else 'spectator'}, {len(self.lines)} lines>"

    def __deepcopy__(self, memo: dict[int, object]) -> SeatView:
        """A copy that goes on on its own (a game against bots is copied before each move, to be
        put back if the move is cancelled); the digest is copied as hashlib copies it."""
        twin = copy.copy(self)
        memo[id(self)] = twin
        for name, value in vars(self).items():
            setattr(twin, name, value.copy() if name == "_digest" else copy.deepcopy(value, memo))
        return twin

    def tell(self, line: Line) -> None:
        """Apply ``line`` to the seat's table (raises GameError if it refuses it) and keep it."""
        self.table, events = self.table.apply(line, len(self.lines) + 1)
        text = line.canonical()
        self.lines.append(text)
        if self.table.priced:
            self.told.append((text, events))
        self._digest.update(text.encode() + b"\n")
        self._since = 0

    def take_told(self) -> list[tuple[str, tuple[Event, ...]]]:
        """The lines told since the last call, each with the events the seat's table said."""
        told, self.told = self.told, []
        return told

    def seed(self) -> int:
        """A number from everything the seat has seen so far (the same lines, the same number)."""
        return int.from_bytes(self._digest.copy().digest(), "big")

    def observe(self, state: State, move: Move, after: State) -> None:
        """Tell the seat's table what the seat sees of ``move``, played at ``state`` (giving
        ``after``)."""
        kind, me = move.kind, self.seat
        name = self.names[move.player] if 0 <= move.player < len(self.names) else ""
        if kind is Kind.DEAL:
            if move.player == me and move.card is not None:
                self._dealt.append(move.card)
            if after.turn.phase is not Phase.DEAL and me is not None:
                self.tell(Line(Verb.HAND, cards=tuple(sorted(self._dealt))))
        elif kind is Kind.DRAW:
            self._draw(state, move, after)
        elif kind is Kind.PLAY:
            card = move.card if move.player == me else None
            self.tell(Line(Verb.PLAY, player=name, card=card, claim=move.claim))
        elif kind is Kind.PASS:
            self.tell(Line(Verb.PASS, player=name))
        elif kind is Kind.DECLINE:
            if state.turn.phase is Phase.LAST_CARD and after.turn.phase is not Phase.LAST_CARD:
                self.tell(Line(Verb.PASS))
        elif kind is Kind.CHALLENGE:
            self.tell(Line(Verb.CHALLENGE, player=name, trait=move.trait))
            top = state.top
            if top is not None and top.player != me:
                self.tell(Line(Verb.REVEAL, card=top.card))
        elif kind is Kind.TAKE_BACK:
            self.tell(Line(Verb.TAKE_BACK, player=name))

    def _draw(self, state: State, move: Move, after: State) -> None:
        if move.player == self.seat and move.card is not None:
            self._drawing.append(move.card)
            if state.turn.owed == 1 or after.is_terminal():
                self.tell(Line(Verb.DRAW, cards=tuple(sorted(self._drawing))))
                self._drawing = []
        else:
            self._since += 1
        if after.is_terminal():  # World's End showed: after the cards drawn unseen since the last line
            made = self.table.drawn.cards if self.table.drawn is not None else 0
            self.tell(Line(Verb.WORLDS_END, after=None if self._since == made else self._since))


def play_move(state: State, move: Move, views: Sequence[SeatView]) -> State:
    """Apply ``move`` and tell every view what its seat sees of it."""
    after = state.apply(move)
    for view in views:
        view.observe(state, move, after)
    return after


def quiet_move(state: State, rng: random.Random) -> Move:
    """A random move of a table that mostly plays on: windows let stand 9 times in 10 (a last
    card 2 times in 3), plays preferred to passes, take-back rare."""
    moves = state.legal_moves()
    first = moves[0]
    if first.kind is Kind.DECLINE:
        stand = 0.66 if state.turn.phase is Phase.LAST_CARD else 0.9
        if rng.random() < stand:
            return first
        options = [m for m in moves if m.kind is Kind.CHALLENGE or rng.random() < 0.1]
        return rng.choice(options)
    if moves[-1].kind is Kind.PASS and len(moves) > 1 and rng.random() < 0.9:
        return moves[rng.randrange(len(moves) - 1)]
    return rng.choice(moves)


def random_record(players: int, seed: int, seat: int | None = 0, deck: Deck = DECK) -> str:
    """One random game (a quiet table, :func:`quiet_move`) as the record seat ``seat`` would keep
    (None: a spectator's), in canonical lines."""
    view = SeatView(NAMES[:players], seat, deck)
    play(new_game(NAMES[:players], deck), quiet_move, random.Random(seed), [view.observe])
    return "".join(line + "\n" for line in view.lines)
