"""`coup puzzle`: play a puzzle against the exact solver at the prompt.

The position is told in words; the player types moves in the table language; the solver plays
the other side's best replies (open hands: the solver sees every card, as the puzzle does);
draws from the court are random (seedable). Afterwards each move is judged against the
position's value: a move that lost value is named with the move that kept it.

>>> s = PuzzleSession(Puzzle.from_mapping({"to_move": "Alice", "players": {
...     "Alice": {"coins": 7, "hand": ["duke"], "face_up": ["captain"]},
...     "Bob": {"coins": 1, "hand": ["contessa"], "face_up": ["assassin"]}}}), seed=1)
>>> [text for _, text in s.handle("Alice coup Bob")]
['You: Alice coup Bob', '  Bob lose contessa', 'You win: you kept the value of the position (+1).']
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from pathlib import Path

from solver.coup import Kind, Move, State
from solver.coup.hidden import open_values
from solver.coup.messages import decision
from solver.coup.puzzle import Puzzle
from solver.errors import FileError

from .. import files
from ..figures import value
from ..session import Command, Message, SoloGame
from .language import typed_move

BUDGET = 3_000_000
"""Positions per solve while playing a puzzle (the 2-against-2 ones need about this many)."""


def bundled() -> list[Path]:
    """The puzzles shipped with the package, in order of their numbers."""
    folder = resources.files("companion.coup").joinpath("data", "puzzles")
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith(".toml"))


def load(path: Path) -> tuple[Puzzle, str, int]:
    """The puzzle at ``path``, its story (the first comment line) and its difficulty."""
    text = files.read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise FileError(str(path), f"not a puzzle file: {error}") from None
    story = text.splitlines()[0].lstrip("# ").strip() if text.startswith("#") else ""
    return Puzzle.from_mapping(data), story, int(data.get("difficulty", 0))


@dataclass
class Judged:
    """One of the player's moves and what it did to the position's value (player's side)."""

    number: int
    typed: str
    before: Fraction
    after: Fraction
    best: str


@dataclass
class PuzzleSession(SoloGame[Move]):
    """A puzzle in play: lines in, messages out (no terminal here)."""

    puzzle: Puzzle
    seed: int | None = None
    story: str = ""
    rng: random.Random = field(init=False)
    state: State = field(init=False)
    me: int = field(init=False)
    judged: list[Judged] = field(default_factory=list)
    undo_stack: list[tuple[State, int, int, random.Random]] = field(default_factory=list)
    finished: bool = False
    lines: list[str] = field(default_factory=list)  # the moves so far, in the table's words

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        hypotheses = self.puzzle.hypotheses()
        weights = [float(h.probability) for h in hypotheses]
        self.state = self.rng.choices(hypotheses, weights)[0].state
        self.me = self.puzzle.to_move
        self.value = self._values([self.state])[0]
        names = self.state.names
        self.hello = f"Type your moves as at the table ('{names[self.me]} tax'); the solver plays {names[1 - self.me]}."

    # -- values ----------------------------------------------------------------------------

    def _values(self, states: list[State]) -> list[Fraction]:
        """Exact values from the player's side."""
        return open_values(states, BUDGET, seat=self.me)

    def _best(self, state: State) -> tuple[Move, Fraction]:
        """The best move at a decision and its value from the decider's side."""
        moves = state.legal_moves()
        values = self._values([state.apply(m) for m in moves])
        pick = max if state.current_player() == self.me else min
        best = pick(range(len(moves)), key=lambda i: values[i])  # ties: the engine's order
        sign = 1 if state.current_player() == self.me else -1
        return moves[best], sign * values[best]

    # -- telling -----------------------------------------------------------------------------

    def intro(self) -> list[Message]:
        names = self.state.names
        rows: list[Message] = [("info", self.story)] if self.story else []
        rows.append(("", describe(self.state, self.me)))
        rows.append(("info", f"Type your moves as at the table ('{names[self.me]} tax'); 'hint', 'undo', 'help'."))
        return [*rows, *self._prompt()]

    def _prompt(self) -> list[Message]:
        if self.finished:
            return []
        return [("info", your_move(self.state, self.me))]

    # -- input -------------------------------------------------------------------------------

    def own_commands(self) -> list[Command[PuzzleSession]]:
        return [
            Command("hint", "hint", "the best move now and its value", lambda game, args: game._hint()),
            Command("undo", "undo", "take back your last move (and the replies)", lambda game, args: game._undo()),
            Command("table", "table", "the position now, in words", lambda game, args: game._table()),
            Command("odds", "odds", "the other cards (open hands: all known)", lambda game, args: game._odds()),
        ]

    def history_lines(self) -> list[str]:
        return list(self.lines)

    def seat_move(self, text: str) -> Move:
        other = f"the solver plays {self.state.names[1 - self.me]}"
        return typed_move(text, self.state, self.me, other)

    def play(self, typed: str, move: Move) -> list[Message]:
        self.undo_stack.append((self.state, len(self.judged), len(self.lines), random.Random()))
        self.undo_stack[-1][3].setstate(self.rng.getstate())
        best, before = self._best(self.state)
        after = self._values([self.state.apply(move)])[0]
        names = self.state.names
        self.judged.append(Judged(len(self.judged) + 1, move.text(names), before, after, best.text(names)))
        self.state = self.state.apply(move)
        self.lines.append(move.text(names))
        out: list[Message] = [("", f"You: {move.text(names)}")]
        out += self._until_my_turn()
        return out

    def _until_my_turn(self) -> list[Message]:
        """The solver's replies and the draws, until the player decides or the game ends."""
        out: list[Message] = []
        names = self.state.names
        while not self.state.is_terminal():
            if self.state.is_chance_node():
                move = self.state.sample_chance(self.rng)
                out.append(("info", f"  {move.text(names)}"))
            elif self.state.current_player() == self.me:
                moves = self.state.legal_moves()
                if len(moves) > 1:
                    return [*out, *self._prompt()]
                move = moves[0]  # forced: played for the player
                out.append(("info", f"  (forced) {move.text(names)}"))
            else:
                move, _ = self._best(self.state)
                if move.kind is not Kind.PASS:
                    out.append(("", f"  {move.text(names)}"))
            self.state = self.state.apply(move)
            self.lines.append(move.text(names))
        self.finished = True
        return [*out, *self._verdict()]

    def _verdict(self) -> list[Message]:
        winner = self.state.winner() or 0
        names = self.state.names
        lost = [j for j in self.judged if j.after < j.before]
        result = "You win" if winner == self.me else f"{names[winner]} wins"
        if not lost:
            return [("over", f"{result}: you kept the value of the position ({value(self.value)}).")]
        worth = value(self.value)
        rows: list[Message] = [("over", f"{result}. The position was worth {worth} to you with best play.")]
        for j in lost:
            rows.append(
                (
                    "flag",
                    f"move {j.number}: `{j.typed}` lost value ({value(j.before)} -> {value(j.after)}); "
                    f"`{j.best}` kept {value(j.before)}",
                )
            )
        return rows

    def moves(self) -> list[str]:
        """The player's legal moves now, in the table's words (for completion)."""
        if self.finished or self.state.is_terminal() or self.state.current_player() != self.me:
            return []
        return [m.text(self.state.names) for m in self.state.legal_moves()]

    def _hint(self) -> list[Message]:
        if self.finished or self.state.current_player() != self.me:
            return [("error", "no move to hint at now")]
        best, worth = self._best(self.state)
        return [("info", f"hint: {best.text(self.state.names)} (value {value(worth)})")]

    def _undo(self) -> list[Message]:
        if not self.undo_stack:
            return [("error", "nothing to undo")]
        self.state, count, said, rng = self.undo_stack.pop()
        self.rng = rng
        del self.lines[said:]
        taken = self.judged[count:]
        del self.judged[count:]
        self.finished = False
        return [("info", f"undone: {taken[0].typed}" if taken else "undone"), *self._prompt()]

    def _table(self) -> list[Message]:
        s = self.state
        turn = "the game is over" if s.is_terminal() else f"{s.names[s.current_player()]} to move"
        return [("", describe(s, self.me)), ("", f"{turn}; moves so far: {len(self.lines)}")]

    def _odds(self) -> list[Message]:
        other, names = 1 - self.me, self.state.names
        held = _and([c.article for c in self.state.hidden[other]])
        court = _and([c.article for c in self.state.court])
        return [("", f"Open hands: {names[other]} holds {held} (certain); the court holds {court}.")]


def your_move(state: State, me: int) -> str:
    """What the player (``me``) is to decide, in words.

    >>> s = State.from_text("ambassador Alice:1:D:C Bob:5:B:K court=DDA aside=AACCKKBB phase=challenge actor=Bob "
    ...                     "decider=Alice action=tax")
    >>> your_move(s, 0)
    "Your move (Alice): challenge Bob's tax or pass."
    """
    return f"Your move ({state.names[me]}): {decision(state)}."


def describe(state: State, me: int) -> str:
    """The position in words, from the player's seat."""
    names = state.names
    parts = []
    for seat in (me, 1 - me):
        hidden, shown = state.hidden[seat], state.face_up[seat]
        if seat == me:
            text = f"You are {names[me]}, with {state.coins[me]} coin{'s' * (state.coins[me] != 1)}. "
            text += "You hold " + _and([c.article for c in hidden]) + "."
            if shown:
                text += f" Face up before you: {_and([c.article for c in shown])}."
        else:
            text = f"{names[seat]} has {state.coins[seat]} coin{'s' * (state.coins[seat] != 1)} and "
            text += f"{len(hidden)} card{'s' * (len(hidden) != 1)}: {_and([c.article for c in hidden])}"
            text += f"; face up: {_and([c.article for c in shown])}." if shown else "."
        parts.append(text)
    parts.append(f"The court holds {_and([c.article for c in state.court])}.")
    return " ".join(parts)


def _and(words: list[str]) -> str:
    if not words:
        return "nothing"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
