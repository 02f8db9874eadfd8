"""The hidden-card game of K turns (outputs.md, "Hidden-card values"): from a position and a
prior over the hidden cards, two players play K turns each seeing only their own cards and the
public events; then every card is turned face up and the payoff is the open-hand value of the
position reached, from the endgame tables (the result, +-1, if the game ended sooner).

Built from the engine (the only source of moves and chance outcomes) as a game of
:mod:`solver.sequence` and solved exactly by :func:`solver.equilibrium.solve`. The engine's
cards are multisets of characters, so a deal, a draw or a keep is one outcome per *kind* of
card with its exact weight, never one per physical card; leaves of equal positions are valued
once.

>>> from solver.coup.puzzle import Puzzle
>>> p = Puzzle.from_mapping({"to_move": "Alice", "players": {
...     "Alice": {"coins": 3, "hand": ["contessa"], "face_up": ["contessa"]},
...     "Bob": {"coins": 1, "hand": ["ambassador"], "face_up": ["duke"]}},
...     "court": {"cards": ["assassin", "captain", "ambassador"]}})
>>> g = HiddenGame(prior(p), turns=0)
>>> g.solve().value == g.open_value()
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from flint import fmpq

from ..equilibrium import Solution, solve
from ..errors import Unsupported
from ..game import CHANCE
from ..sequence import Observe, Tree, build
from .cards import Character
from .moves import Move
from .puzzle import Hypothesis, Puzzle
from .rules import Kind
from .state import Phase, State
from .tablebase.library import Library
from .tablebase.probe import library_for, open_values

PRIVATE = frozenset({Kind.KEEP})
"""Decisions the other player sees only as having happened (which cards were kept)."""


def prior(puzzle: Puzzle) -> list[Hypothesis]:
    """The prior of outputs.md: every hand card dealt as ``"?"`` (the hands written in the
    puzzle are ignored), with the court (or, with a fixed ``[court]``, the cards out of play)
    the rest. Raises ImpossibleTable as :meth:`Puzzle.hypotheses` does."""
    unknown = tuple(tuple(Character.UNKNOWN for _ in hand) for hand in puzzle.hidden)
    blind = Puzzle(puzzle.names, puzzle.variant, puzzle.coins, unknown, puzzle.face_up, puzzle.court, puzzle.to_move)
    return blind.hypotheses()


class _Node:
    """A history of the K-turn game: the root's deal still to come (``state`` None), or an
    engine state with ``left`` turn starts to go before the leaf."""

    __slots__ = ("game", "left", "state")

    def __init__(self, game: HiddenGame, state: State | None, left: int) -> None:
        self.game = game
        self.state = state
        self.left = left

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Node) and self.state == other.state and self.left == other.left

    def __hash__(self) -> int:
        return hash((self.state, self.left))

    def current_player(self) -> int:
        return CHANCE if self.state is None else self.state.current_player()

    def is_chance_node(self) -> bool:
        return self.state is None or self.state.is_chance_node()

    def is_terminal(self) -> bool:
        return self.state is not None and (self.left == 0 or self.state.turn.phase is Phase.OVER)

    def legal_moves(self) -> Sequence[Any]:
        assert self.state is not None
        return self.state.legal_moves()

    def chance_outcomes(self) -> Sequence[tuple[Any, Fraction]]:
        if self.state is None:
            return [(i, h.probability) for i, h in enumerate(self.game.hypotheses)]
        return self.state.chance_outcomes()

    def apply(self, move: Any) -> _Node:
        if self.state is None:
            return _Node(self.game, self.game.hypotheses[move].state, self.left)
        child = self.state.apply(move)
        return _Node(self.game, child, self.left - 1 if child.turn.phase is Phase.ACTION else self.left)

    def returns(self) -> tuple[fmpq, fmpq]:
        assert self.state is not None
        v = self.game.leaf(self.state)
        return (v, -v)


def observe(node: _Node, move: Any, player: int) -> Hashable:
    """What ``player`` sees of ``move`` (outputs.md, "What each player sees"): the deal, their
    own hand; a draw, the cards if they draw them, else only that someone drew so many; a
    keep, the cards if they keep them, else only that a keep happened; every other move."""
    state = node.state
    if state is None:
        hand: tuple[Character, ...] = node.game.hypotheses[move].state.hidden[player]
        return hand
    seen: Move = move
    if (state.is_chance_node() or seen.kind in PRIVATE) and seen.player != player:
        return (seen.kind, seen.player, len(seen.cards))
    return seen


@dataclass(frozen=True)
class Answer:
    """The K-turn game solved: ``value`` (``V_K``) and ``open_value`` (``V_0``) for the player
    deciding first (``seat``), with the tree and its verified solution."""

    seat: int
    turns: int
    value: Fraction
    open_value: Fraction
    tree: Tree
    solution: Solution
    seconds: float


class HiddenGame:
    """The K-turn game from ``hypotheses`` (the prior: full positions with their probabilities,
    all at the same public point, two players alive), valued open-hand at its leaves from the
    tables of ``library`` (the default library with ``budget``). Raises Unsupported unless two
    players are alive."""

    def __init__(
        self,
        hypotheses: list[Hypothesis],
        turns: int,
        budget: int | None = None,
        library: Library | None = None,
        observe: Observe | None = None,
    ) -> None:
        if not hypotheses:
            raise Unsupported("no position to solve")
        first = hypotheses[0].state
        if len(first.names) != 2:
            hypotheses = [Hypothesis(h.state.heads_up(), h.probability) for h in hypotheses]
        self.hypotheses = hypotheses
        self.turns = turns
        self.observe = globals()["observe"] if observe is None else observe
        self.library = library if library is not None else library_for(budget)
        self.values: dict[State, fmpq] = {}
        root = hypotheses[0].state
        self.starts_turn = root.turn.phase is Phase.ACTION
        decider = root.current_player()
        self.seat = decider if decider >= 0 else root.turn.actor

    def __repr__(self) -> str:
        return f"<HiddenGame {len(self.hypotheses)} hypotheses, {self.turns} turns>"

    def root(self) -> _Node:
        # a root at a turn start is turn 1: its own start does not count
        return _Node(self, None, self.turns)

    def leaf(self, state: State) -> fmpq:
        """The open-hand value of ``state`` for the first seat, from the tables (memoised)."""
        found = self.values.get(state)
        if found is None:
            v = open_values([state], 0, self.library)[0]
            found = self.values[state] = fmpq(v.numerator, v.denominator)
        return found

    def tree(self, tagged: bool = False, limit: int | None = None, tick: Callable[[], None] = lambda: None) -> Tree:
        """The sequence form of the game (with ``tagged``, its payoffs also kept per hypothesis).
        Raises TooLarge past ``limit`` histories; ``tick()`` now and then."""
        return build(self.root(), self.observe, tagged, limit, tick)

    def open_value(self) -> Fraction:
        """``V_0``: the open-hand value averaged over the prior, for :attr:`seat`."""
        total = sum((h.probability * _f(self.leaf(h.state)) for h in self.hypotheses), Fraction(0))
        return total if self.seat == 0 else -total

    def solve(self, tagged: bool = False, limit: int | None = None, tick: Callable[[], None] = lambda: None) -> Answer:
        """Build and solve the game exactly (verified); see :meth:`tree`. Raises NotCertified,
        TooLarge, Unsupported."""
        started = time.perf_counter()
        tree = self.tree(tagged, limit, tick)
        solution = solve(tree)
        sign = 1 if self.seat == 0 else -1
        return Answer(
            self.seat,
            self.turns,
            sign * solution.value,
            self.open_value(),
            tree,
            solution,
            time.perf_counter() - started,
        )


def _f(value: fmpq) -> Fraction:
    return Fraction(int(value.p), int(value.q))


__all__ = ["Answer", "HiddenGame", "Move", "observe", "prior"]
