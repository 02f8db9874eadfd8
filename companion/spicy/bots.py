"""Bots that play Spicy from their own seat: each keeps its own table (the tracker, fed only the
lines its seat would type at a real table, :class:`~companion.spicy.simulate.SeatView`) and
decides from it alone, so it never sees a card its seat has not seen; its randomness is seeded
from what its seat has seen. Personalities:

- ``honest``: plays a true card when it holds one (else passes); challenges only impossible
  claims.
- ``bluffer``: plays any card with any legal claim half the time, and always rather than pass;
  challenges one card in ten at random.
- ``challenger``: plays true when it can, else a card true on one trait of the lowest legal
  claim; challenges the trait the exact odds give as likelier false when that chance beats the
  stake (2 cards drawn against the pile won), and a last card more readily.
- ``random``: a uniformly random legal move (the baseline).

Every bot but ``random`` challenges a claim its own table shows impossible (a trait whose every
card it has accounted for).

>>> winners, record = bot_game(["honest", "challenger", "bluffer"], seed=3)
>>> record[:3], winners
(['game spicy', 'players Ana Ben Cleo', 'Ana play pepper 2'], (2,))
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from solver.errors import GameError, IllegalMove
from solver.game import play
from solver.spicy import DECK, CardKind, Deck, Kind, Move, State, Trait, new_game
from solver.spicy.odds import top_advice, top_counts, true_plays
from solver.vocabulary import fold

from ..session import YOU, BotGame, Command, Message, check_personality, playing_as, seat_commands
from ..tracked import Waiting
from .language import Line, Verb
from .simulate import NAMES, SeatView, play_move
from .tracker import Table

PERSONALITIES = ("honest", "bluffer", "challenger", "random")
LAST_CARD_DOUBT = Fraction(1, 5)
"""The challenger challenges a last card false with at least this chance (its trophy is worth 10)."""
MAX_MOVES = 20_000
"""A bot game never lasts this long (World's End comes first): a guard, not a rule."""


@dataclass
class Bot:
    """One seat played by a personality, with the seat's own view of the game."""

    personality: str
    seat: int
    names: tuple[str, ...]
    deck: Deck = DECK
    seed: int = 0
    view: SeatView = field(init=False)

    def __post_init__(self) -> None:
        check_personality(self.personality, PERSONALITIES)
        self.view = SeatView(self.names, self.seat, self.deck, priced=False)

    def __repr__(self) -> str:
        return f"Bot({self.personality!r}, {self.seat}, {self.names!r})"

    def decide(self, moves: Sequence[Move]) -> Move:
        """The bot's move among ``moves`` (the legal moves at its turn), from its table alone."""
        mine = [m for m in moves if m.player == self.seat and m.kind is not Kind.TAKE_BACK]
        rng = random.Random(self.view.seed() ^ self.seed)
        if len(mine) == 1:
            return mine[0]
        if self.personality == "random":
            return mine[rng.randrange(len(mine))]
        s = self.view.table.state
        assert s is not None
        if mine[0].kind is Kind.DECLINE:
            return self._answer(s, mine, rng)
        return self._play(s, mine, rng)

    # -- playing a card ------------------------------------------------------------------------

    def _play(self, s: State, moves: list[Move], rng: random.Random) -> Move:
        hand, top = s.hands[self.seat], s.top_claim()
        true = true_plays(hand, top, self.deck)
        plays = [m for m in moves if m.kind is Kind.PLAY]
        bluff = self.personality == "bluffer" and (not true or rng.random() < 0.5)
        if true and not bluff:
            card, claim = true[rng.randrange(len(true))]
            return Move(Kind.PLAY, self.seat, card=card, claim=claim)
        if self.personality == "bluffer":
            return plays[rng.randrange(len(plays))]
        if self.personality == "challenger":
            return _half_true(plays, rng)
        return next(m for m in moves if m.kind is Kind.PASS)

    # -- answering a top card ------------------------------------------------------------------

    def _answer(self, s: State, moves: list[Move], rng: random.Random) -> Move:
        trait = self._doubt(s, rng)
        if trait is None:
            return moves[0]
        return Move(Kind.CHALLENGE, self.seat, trait=trait)

    def _doubt(self, s: State, rng: random.Random) -> Trait | None:
        """The trait to challenge, or None to let the top card stand."""
        counts = top_counts(s)
        if counts.number_true == 0:
            return Trait.NUMBER
        if counts.spice_true == 0:
            return Trait.SPICE
        if self.personality == "bluffer":
            return Trait(rng.randrange(2)) if rng.random() < 0.1 else None
        if self.personality != "challenger":
            return None
        advice = top_advice(s)
        if advice.last:
            bar = Fraction(0) if advice.ends else LAST_CARD_DOUBT
            return advice.trait if advice.chance > bar else None
        return advice.trait if advice.chance * (advice.pile + advice.draws) > advice.draws else None


def _half_true(plays: list[Move], rng: random.Random) -> Move:
    """A bluff true on one trait if the hand allows (a wild, the pile's spice, a legal number),
    on the lowest legal claim; else any card on the lowest claim."""

    def truths(m: Move) -> int:
        card, claim = m.card, m.claim
        assert card is not None and claim is not None
        if card.kind is not CardKind.NUMBERED:
            return 1
        return int(card.spice == claim.spice) + int(card.number == claim.number)

    lowest = min(m.claim.number for m in plays if m.claim is not None)
    best = max(truths(m) for m in plays)
    options = [m for m in plays if truths(m) == best]
    low = [m for m in options if m.claim is not None and m.claim.number == lowest] or options
    return low[rng.randrange(len(low))]


def bot_game(
    personalities: Sequence[str], seed: int, deck: Deck = DECK, record_seat: int | None = None
) -> tuple[tuple[int, ...], list[str]]:
    """A game between bots (seat i plays ``personalities[i]``): the winning seats (ties share
    the win) and the record kept by ``record_seat`` (None: a spectator's)."""
    names = NAMES[: len(personalities)]
    bots = [Bot(p, i, names, deck, seed) for i, p in enumerate(personalities)]
    views = [bot.view for bot in bots]
    record = views[record_seat] if record_seat is not None else SeatView(names, None, deck)
    if record_seat is None:
        views.append(record)

    def choose(s: State, rng: random.Random) -> Move:
        return bots[s.current_player()].decide(s.legal_moves())

    end, _ = play(new_game(names, deck), choose, random.Random(seed), [view.observe for view in views], MAX_MOVES)
    return end.winners(), record.lines


def tournament_game(personalities: list[str], seed: int) -> tuple[int, ...]:
    """A game of a tournament (:mod:`companion.tournament`): the winning seats (a tie shares
    the win)."""
    return bot_game(personalities, seed)[0]


# -- a game against bots at the prompt ---------------------------------------------------------

DECLINES = frozenset({"no", "non", "decline", "stand", "let-it-stand", "ok"})
"""What the person types to let a top card stand (besides ``pass``)."""


@dataclass
class BotTable(BotGame[State, Move, Bot]):
    """``spicy play``: the person holds seat 0 (named ``name``, "You" by default) against bots;
    lines in, messages out. The game is told in the table's words from the person's seat, with
    the companion's advice, and kept as that seat's record (:attr:`view`)."""

    players: int = 4
    seed: int | None = None
    personalities: tuple[str, ...] = ()
    deck: Deck = DECK
    finished: bool = False
    name: str = YOU

    def __post_init__(self) -> None:
        if not self.deck.min_players <= self.players <= self.deck.max_players:
            raise GameError(f"play with {self.deck.min_players} to {self.deck.max_players} players")
        if self.personalities and len(self.personalities) != self.players - 1:
            raise GameError(f"--bots names {len(self.personalities)} personalities for {self.players - 1} bots")
        self.rng = random.Random(self.seed)
        self.names = (self.name, *NAMES[1 : self.players])
        Table.new(self.deck).apply_text(f"players {' '.join(self.names)}")  # a name the records can hold
        kinds = self.personalities or tuple(self.rng.choice(PERSONALITIES[:3]) for _ in range(self.players - 1))
        self.bots = {s: Bot(kinds[s - 1], s, self.names, self.deck, self.rng.randrange(2**31)) for s in self.seats}
        self.view = SeatView(self.names, 0, self.deck)
        self.view.take_told()  # the set-up lines: the person knows who plays
        self.state = new_game(self.names, self.deck)
        self.hello = f"Your moves: {', '.join(_EXAMPLES)}."

    @property
    def seats(self) -> range:
        return range(1, self.players)

    def record_text(self) -> str:
        """The game so far as a record, from the person's seat."""
        return self.view.table.record()

    def history_lines(self) -> list[str]:
        return list(self.view.lines)

    def intro(self) -> list[Message]:
        who = ", ".join(f"{self.names[s]} ({b.personality})" for s, b in self.bots.items())
        rows: list[Message] = [("info", f"You play{playing_as(self.name)} against {who}. Type your moves ('help').")]
        return [*rows, *self._run()]

    def moves(self) -> list[str]:
        """What the person may type now (for completion)."""
        if self.finished or self.state.is_terminal() or self.state.current_player() != 0:
            return []
        return [_said(m) for m in self.state.legal_moves() if m.player == 0]

    def own_commands(self) -> list[Command[Any]]:
        from .commands import COMMANDS

        return seat_commands(COMMANDS, lambda game: game.view.table, ("table", "odds"))

    def seat_move(self, text: str) -> Move:
        """The person's move ``text`` names, read as their seat's table reads it (a line without
        a name is theirs) and made a move by it (:meth:`~companion.spicy.tracker.Table.resolve`);
        a play typed in a window is returned as is (the card is let stand first). Raises GameError."""
        legal = [m for m in self.state.legal_moves() if m.player == 0 and m.kind is not Kind.TAKE_BACK]
        if not legal:
            raise IllegalMove("it is not your move", input=text)
        window = legal[0].kind is Kind.DECLINE
        if window and fold(text).replace(" ", "-") in DECLINES | {"pass", "passe"}:
            return legal[0]
        table = self.view.table
        line = table.parse(text)
        if line is not None and line.verb is Verb.PASS and line.player is None:  # no last card to let stand here
            line = Line(Verb.PASS, player=self.name)
        move = None
        if line is not None and line.player == self.name and line.verb in (Verb.PLAY, Verb.PASS, Verb.CHALLENGE):
            with contextlib.suppress(IllegalMove):
                move = table.resolve(line)[1]
        if window and move is not None and move.kind is Kind.PLAY:
            return move  # a play typed in a window lets the top card stand first, as at a table
        if move is None or move not in legal:
            options = ", ".join(_said(m) for m in legal[:12]) + (", ..." if len(legal) > 12 else "")
            raise IllegalMove(f"{text.strip()!r} cannot be played now; you may: {options}", input=text)
        return move

    def play(self, typed: str, move: Move) -> list[Message]:
        said: list[Message] = []
        if move not in self.state.legal_moves():  # a play typed in a window: the card is let stand
            said = self._apply(next(m for m in self.state.legal_moves() if m.kind is Kind.DECLINE and m.player == 0))
            said += self._run()
            if self.finished or move not in self.state.legal_moves():
                return [*said, ("error", f"{typed!r} cannot be played now: the table went on")]
            said = said[:-1]  # not asked again: the move typed is played
        return said + self._apply(move) + self._run()

    def _apply(self, move: Move) -> list[Message]:
        self.state = play_move(self.state, move, [self.view, *(b.view for b in self.bots.values())])
        said: list[Message] = []
        for line, events in self.view.take_told():
            said.append(("info" if line.startswith(f"{self.name} ") else "", f"  {line}"))
            said += [
                event.message() for event in events if not isinstance(event, Waiting)
            ]  # the game goes on by itself
        return said

    def _question(self) -> str | None:
        options = self.moves()
        return f"Your move: {_options(options)}. {self._hand()}" if len(options) > 1 else None

    def _forced(self) -> Move:
        return next(m for m in self.state.legal_moves() if m.player == 0)

    def _hand(self) -> str:
        return f"You hold {' '.join(c.text() for c in self.state.hands[0]) or 'nothing'}."


_EXAMPLES = ("'play chili-7 as chili 3'", "'pass'", "'challenge number'", "'let it stand'")


def _said(move: Move) -> str:
    """How the person types ``move``."""
    if move.kind is Kind.PLAY:
        assert move.card is not None and move.claim is not None
        return f"play {move.card} as {move.claim}"
    if move.kind is Kind.CHALLENGE:
        return f"challenge {move.trait}"
    return "let it stand" if move.kind is Kind.DECLINE else str(move.kind)


def _options(options: list[str]) -> str:
    plays = [o for o in options if o.startswith("play ")]
    rest = [o for o in options if not o.startswith("play ")]
    shown = plays[:6] + (["..."] if len(plays) > 6 else [])
    return ", ".join([*shown, *rest])


__all__ = ["PERSONALITIES", "Bot", "BotTable", "bot_game"]
