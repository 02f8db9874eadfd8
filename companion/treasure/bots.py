"""Bots that play Conquêtes et chasse au trésor from their own seat: each keeps its own table (the
tracker, fed the lines its seat would type at a real table, by a
:class:`~companion.treasure.simulate.RecordWriter`) and decides from that table alone, so it never
sees a card or a marker its seat has not seen. Personalities:

- ``greedy``: places the card that gains the most now (its VP plus the change in its
  connected-set score); calls neuro and bids when its best bid is worth at least
  :data:`WORTH_A_CALL` (the exact value from its odds), and as the caller bids its best.
- ``random``: a uniformly random legal move (the baseline).

>>> results = bot_game(["greedy", "random", "random"], seed=3)
>>> len(results), sum(1 for s in results if s.total == max(r.total for r in results)) >= 1
(3, True)

``tresor play`` is :class:`BotTable`: the person holds the first seat against bots, types their
moves as at the table, and the game is kept as the record of their seat.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from solver.errors import GameError, IllegalMove
from solver.treasure import MAX_PLAYERS, MIN_PLAYERS, STANDARD, Deck, Kind, Move, Phase, Score, State, new_game

from ..records import replay
from ..session import YOU, BotGame, Command, Message, check_personality, playing_as, seat_commands, seat_seed
from ..tracked import Waiting
from .advice import Advice, bid_text, placement_text
from .simulate import NAMES, Chooser, RecordWriter, play_game
from .tracker import Table

PERSONALITIES = ("greedy", "random")
WORTH_A_CALL = Fraction(2)
"""The greedy bot calls neuro, and bids in another's round, when a bid is worth at least this."""


@dataclass
class Bot:
    """One seat played by a personality, with the seat's own table."""

    personality: str
    seat: int
    names: tuple[str, ...]
    seed: int = 0
    deck: Deck = STANDARD
    lines: list[str] = field(default_factory=list)
    table: Table = field(init=False)
    writer: RecordWriter = field(init=False)

    def __post_init__(self) -> None:
        check_personality(self.personality, PERSONALITIES)
        self.table = Table.new(self.deck)
        self.writer = RecordWriter(self.names, self.seat, self.lines)

    def observe(self, state: State, move: Move) -> None:
        """Tell the bot's table what its seat sees of ``move`` (played at ``state``)."""
        before = len(self.lines)
        self.writer.write(state, move)
        new = self.lines[before:]
        first = before + 1
        self.table = replay(new, self.table, f"<{self.names[self.seat]}'s table>", first=first)

    def decide(self, moves: Sequence[Move]) -> Move:
        """The bot's move among ``moves`` (its legal moves in the full game), from its table alone."""
        if len(moves) == 1:
            return moves[0]
        if self.personality == "random":
            return moves[random.Random(seat_seed(self.lines, self.seed)).randrange(len(moves))]
        kind = moves[0].kind
        if kind in (Kind.PLACE, Kind.PASS):
            return self._turn(moves)
        if kind is Kind.NEURO:
            return moves[0] if self._best_bid_worth() >= WORTH_A_CALL else moves[1]
        if kind is Kind.BID:
            return self._bid(moves)
        return moves[0]

    def _turn(self, moves: Sequence[Move]) -> Move:
        best = self.table.placement_values()
        if not best:
            return next(m for m in moves if m.kind is Kind.PASS)
        p = best[0]
        return Move(Kind.PLACE, self.seat, card=p.card, row=p.row, col=p.col)

    def _best_bid_worth(self) -> Fraction:
        values = self.table.bid_values()
        return values[0].value if values else Fraction(0)

    def _bid(self, moves: Sequence[Move]) -> Move:
        values = self.table.bid_values()
        must = moves[-1].kind is not Kind.NO_BID
        if not values or (not must and values[0].value < WORTH_A_CALL):
            return moves[-1]
        b = values[0]
        return Move(Kind.BID, self.seat, row=b.row, col=b.col, base=b.base, markers=(b.marker,))


def played_by(bots: Sequence[Bot]) -> Chooser:
    """A chooser that asks the bot of the seat to decide (each seat a bot)."""
    return lambda s, rng: bots[s.current_player()].decide(s.legal_moves())


def bot_game(personalities: list[str], seed: int, deck: Deck = STANDARD) -> tuple[Score, ...]:
    """A game between bots (seat i plays ``personalities[i]``); the final scores."""
    names = NAMES[: len(personalities)]
    bots = [Bot(p, i, names, seed, deck) for i, p in enumerate(personalities)]
    end = play_game(
        names, seed, lambda s, rng: bots[s.current_player()].decide(s.legal_moves()), [b.observe for b in bots], deck
    )
    final = end.final()
    assert final is not None
    return final


def tournament_game(personalities: list[str], seed: int) -> tuple[int, ...]:
    """A game of a tournament (:mod:`companion.tournament`): the seats with the best score (a
    tie shares the win)."""
    scores = [s.total for s in bot_game(personalities, seed)]
    return tuple(seat for seat, total in enumerate(scores) if total == max(scores))


NO_WORDS = ("no", "non", "n")
"""What the person types to let a neuro window or their chance to bid go by."""


@dataclass
class BotTable(BotGame[State, Move, Bot]):
    """``tresor play``: the person holds the first seat (named ``name``, "You" by default)
    against bots; lines in, messages out. The
    game is told in the table's words from the person's seat and kept as its record (``record``);
    their own table (``table``) says the points, deux cartes and the final score as the tracker
    does. They are asked about neuro and about bidding in another's round only when one of their
    bids is worth something (its exact value above 0); else the window goes by."""

    players: int = 4
    seed: int | None = None
    personalities: tuple[str, ...] = ()
    finished: bool = False
    record: list[str] = field(default_factory=list)
    name: str = YOU

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise GameError(f"play with {MIN_PLAYERS} to {MAX_PLAYERS} players")
        if self.personalities and len(self.personalities) != self.players - 1:
            raise GameError(f"{len(self.personalities)} personalities for {self.players - 1} bots")
        self.rng = random.Random(self.seed)
        self.names = (self.name, *NAMES[1 : self.players])
        Table.new().apply_text("game tresor").apply_text(f"players {' '.join(self.names)}")  # a name records hold
        kinds = self.personalities or ("greedy",) * (self.players - 1)
        self.bots = {
            seat: Bot(kinds[seat - 1], seat, self.names, self.rng.randrange(2**31)) for seat in range(1, self.players)
        }
        self.state = new_game(self.names)
        self.writer = RecordWriter(self.names, 0, self.record)
        self.table = Table.new()

    def record_text(self) -> str:
        """The game so far as a record, from the person's seat."""
        return "".join(line + "\n" for line in self.record)

    def history_lines(self) -> list[str]:
        return list(self.record)

    def intro(self) -> list[Message]:
        who = ", ".join(f"{self.names[s]} ({b.personality})" for s, b in self.bots.items())
        rows: list[Message] = [("info", f"You play{playing_as(self.name)} against {who}. Type your moves ('help').")]
        return [*rows, *self._run()]

    hello = (
        "Your moves: 'place 1cn at 0 1', 'pass', 'neuro', 'bid 5 on 0 1 with nature', 'no'. You are asked about "
        "neuro and about others' rounds only when a bid of yours is worth something."
    )

    def own_commands(self) -> list[Command[Any]]:
        from .commands import COMMANDS

        return seat_commands(COMMANDS, lambda game: game.table, ("table", "domain", "odds", "bids", "placements"))

    def moves(self) -> list[str]:
        """The person's legal moves now, as they type them (for completion): ``place 1cn at 0 1``."""
        s = self.state
        if self.finished or s.is_terminal() or s.current_player() != 0:
            return []
        you = f"{self.names[0]} "
        moves = (m for m in s.legal_moves() if m.kind not in (Kind.NO_NEURO, Kind.NO_BID))
        lines = [m.text(self.names).removeprefix(you) for m in moves]
        if any(m.kind in (Kind.NO_NEURO, Kind.NO_BID) for m in s.legal_moves()):
            lines.append("no")
        return lines

    def seat_move(self, text: str) -> Move:
        s = self.state
        if s.is_terminal() or s.current_player() != 0:
            raise IllegalMove("it is not your move")
        words = text.split()
        if words and words[0].lower() in self.commands:
            raise IllegalMove(f"type '{words[0].lower()}' alone: it is a command", input=text)
        if words and words[0].lower() in NO_WORDS and len(words) == 1:
            decline = {Phase.NEURO: Kind.NO_NEURO, Phase.BID: Kind.NO_BID}.get(s.turn.phase)
            if decline is None:
                raise IllegalMove("'no' lets a neuro window or a bid go by: now place a card or pass")
            return Move(decline, 0)
        line = self.table.parse(text)  # as the seat's table reads it: a line without a name is theirs
        if line is None or line.player != self.name:
            raise IllegalMove("type your own move, e.g. 'place 1cn at 0 1' or 'pass'", input=text)
        return self.table.move_of(line)  # the one place a player's line becomes a move

    def play(self, typed: str, move: Move) -> list[Message]:
        said: list[Message] = []
        if move.kind is Kind.BID and self.state.turn.phase is Phase.NEURO:  # the bid suggested: call neuro first
            said = self._apply(Move(Kind.NEURO, 0)) + self._run()
            if self.finished or not self._bidding():
                return [*said, ("error", f"{typed!r} cannot be played now: the table went on")]
            said = said[:-1]  # not asked again: the bid typed is played
        try:
            said += self._apply(move)
        except IllegalMove as error:
            return [*said, ("error", str(error))]
        return said + self._run()

    def _bidding(self) -> bool:
        """The person is to bid in the open round."""
        return self.state.turn.phase is Phase.BID and self.state.current_player() == 0

    def _apply(self, move: Move) -> list[Message]:
        after = self.state.apply(move)  # raises before anyone is told
        before = len(self.record)
        self.writer.write(self.state, move)
        for bot in self.bots.values():
            bot.observe(self.state, move)
        self.state = after
        out: list[Message] = []
        for number, line in enumerate(self.record[before:], start=before + 1):
            self.table, events = self.table.apply_line(line, number)
            out.append(("info" if line.startswith(f"{self.name} ") else "", f"  {line}"))
            out += [event.message() for event in events if not isinstance(event, Advice | Waiting)]
        return out

    def _forced(self) -> Move:
        """The window the person is not asked about goes by."""
        return Move(Kind.NO_NEURO if self.state.turn.phase is Phase.NEURO else Kind.NO_BID, 0)

    def _question(self) -> str | None:
        """What to ask the person now, or None to let a window go by unasked."""
        s, t = self.state, self.state.turn
        if t.phase is Phase.TURN:
            best = self.table.placement_values()
            hint = f" Best: {placement_text(best[0])}." if best else " You cannot place: pass."
            return f"Your turn: {' '.join(str(c) for c in s.hands[0])}.{hint}"
        bids = self.table.bid_values()
        if t.phase is Phase.BID and t.caller == 0:
            return f"You called neuro: bid (best: {bid_text(bids[0])})."
        if bids and bids[0].value > 0:
            question = "Call neuro?" if t.phase is Phase.NEURO else "Bid in this round?"
            return f"{question} Best: {bid_text(bids[0])}. (or 'no')"
        return None
