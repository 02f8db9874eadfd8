"""Games of the engine written as records in the table language, from one seat's point of view:
the lines a person at that seat would type, nothing the seat cannot see (the other players' cards
and face-down markers stay unsaid until the end reveals them). Bots are told the game this way,
``tresor play`` keeps its record this way, and the tests and benchmarks make records this way.

>>> text = random_record(players=3, seed=1, me=2)
>>> text.splitlines()[:3]
['game tresor', 'players Ana Ben Cleo', 'me Cleo']
>>> from companion.treasure.tracker import replay
>>> replay(text).final() is not None
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver.game import play
from solver.treasure import STANDARD, Deck, Kind, Marker, Move, Phase, State, new_game
from solver.treasure.cards import sort_cards

NAMES = ("Ana", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana")

Chooser = Callable[[State, random.Random], Move]


class RecordWriter:
    """Turns the moves of a full game into the lines seat ``me`` would type, appended to ``lines``."""

    def __init__(self, names: tuple[str, ...], me: int, lines: list[str]) -> None:
        self.names, self.me, self.lines = names, me, lines

    def __repr__(self) -> str:
        return f"RecordWriter({self.names!r}, {self.me!r}, <{len(self.lines)} lines>)"

    def write(self, state: State, move: Move) -> None:
        """Append the lines ``move`` (played at ``state``, a full game) gives the seat."""
        kind, names = move.kind, self.names
        if kind in (Kind.REMOVE, Kind.START, Kind.DEAL):
            after = state.apply(move)
            if after.turn.phase > Phase.DEAL:
                self._setup(after)
        elif kind in (Kind.PLACE, Kind.PASS, Kind.NEURO, Kind.BREACH):
            self.lines.append(move.text(names))
        elif kind is Kind.BID:
            shown = move if move.player == self.me else move._replace(markers=(Marker.UNKNOWN,))
            self.lines.append(shown.text(names))
        elif kind is Kind.REMOVED:
            self.lines.append(f"removed {move.card}")
            for seat in sorted({b.player for b in state.bids if b.player != self.me}):
                markers = " ".join(str(b.marker) for b in state.bids if b.player == seat)
                self.lines.append(f"{names[seat]} reveal {markers}")

    def _setup(self, s: State) -> None:
        start = s.domain.at(0, 0)
        assert start is not None
        self.lines += [
            "game tresor",
            f"players {' '.join(self.names)}",
            f"me {self.names[self.me]}",
            " ".join(["hand", *(str(c) for c in sort_cards(s.hands[self.me]))]),
            f"start {start.card}",
        ]


@dataclass(frozen=True)
class Style:
    """How randomly simulated players behave: how often someone calls neuro after a turn, how
    often a player bids in a round, how often a player passes when they could place."""

    neuro: float = 0.1
    bid: float = 0.5
    pass_rate: float = 0.05


def random_move(style: Style = Style()) -> Chooser:
    """A chooser of uniformly random legal moves, with the rates of ``style``."""

    def choose(s: State, rng: random.Random) -> Move:
        moves = s.legal_moves()
        phase = s.turn.phase
        if phase is Phase.NEURO:
            return moves[0] if rng.random() < style.neuro else moves[1]
        if phase is Phase.BID:
            bids = [m for m in moves if m.kind is Kind.BID]
            if s.turn.decider == s.turn.caller or rng.random() < style.bid:
                return bids[rng.randrange(len(bids))]
            return moves[-1]
        if phase is Phase.TURN:
            places = [m for m in moves if m.kind is Kind.PLACE]
            if places and (len(places) == len(moves) or rng.random() >= style.pass_rate):
                return places[rng.randrange(len(places))]
        return moves[rng.randrange(len(moves))]

    return choose


Observer = Callable[[State, Move], None]


def play_game(
    names: tuple[str, ...], seed: int, choose: Chooser, observers: Sequence[Observer], deck: Deck = STANDARD
) -> State:
    """Play one full game (chance by its probabilities, decisions by ``choose``), telling each
    observer (a record writer's ``write``, a bot's ``observe``) every move before it is played;
    return the final state."""
    told = [lambda before, move, after, observe=observe: observe(before, move) for observe in observers]
    end, _ = play(new_game(names, deck), choose, random.Random(seed), told)
    return end


def random_record(players: int, seed: int, me: int = 0, deck: Deck = STANDARD, style: Style = Style()) -> str:
    """Play one random game and return its record from seat ``me`` (canonical lines)."""
    lines: list[str] = []
    names = NAMES[:players]
    play_game(names, seed, random_move(style), [RecordWriter(names, me, lines).write], deck)
    return "".join(line + "\n" for line in lines)
