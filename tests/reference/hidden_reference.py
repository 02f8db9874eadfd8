"""Independent references for the hidden-card value ``V_K`` of a Coup puzzle (tests only).

Written from docs/spec/outputs.md ("Hidden-card values", "Puzzles") and docs/spec/rules.md, with
the rules engine's public API (``State``, ``legal_moves``, ``apply``, ``chance_outcomes``) as the
only source of moves and chance, without reading the project's hidden-card solver, so that the
two readings of the spec can be compared.

* :func:`reference_value`: the K-turn game built explicitly as a tree (:func:`build_game`), solved
  through its sequence form (:mod:`tests.reference.hidden_tree`: HiGHS in floats, then exact
  plans checked by exact best responses).
* :func:`gambit_value` / :func:`gambit_game`: the same tree handed to Gambit
  (:mod:`tests.reference.hidden_gambit`).
* :func:`oracle_value`: the normal form (a pure strategy = an action at each information set)
  solved by double oracle, exactly (:mod:`tests.reference.hidden_oracle`).

The game, as read here
----------------------
* **Players.** The puzzle's two players with face-down cards. Other listed players must have
  none (they are out of the game: their face-up cards count, the deck is the one for the number
  of players listed, turns skip them, and leaves are valued on :meth:`State.heads_up`); the tests
  use such "crowded" puzzles to get games small enough for Gambit. Player 0 of the tree (the
  maximiser) is ``to_move``; payoffs are ``to_move``'s.
* **Prior.** Every hand card of the puzzle counts as ``"?"``. The pool is the deck minus every
  face-up card, minus the ``[court]`` if one is given. The hands (of the sizes listed) are dealt
  uniformly from the pool's physical cards, in seating order; without ``[court]`` the rest of
  the pool is the court, with it the rest is out of play (set aside) and the court is public.
  Deals are grouped by characters (the probability of a character assignment is the number of
  physical deals giving it over the total): identical cards are interchangeable.
* **Turns.** Play starts at ``to_move``'s turn start. A turn begins with an action (forced coups
  included) and lasts until the next turn start; K turns are played. The leaf is the state at the
  start of turn K + 1 (the engine's next ``action`` phase), worth its open-hand value from
  ``to_move``'s side; a game that ends sooner is worth +1 / -1.
* **Observations** (an information set is a player's whole observation sequence, so recall is
  perfect):
  - the deal: each player sees its own hand (by characters); nobody sees the other's hand nor,
    without ``[court]``, the court;
  - every decision move (action with its target, pass, challenge, block with its character,
    show (prove), lose with the card turned face up, examine's shown card, swap, return) is seen
    by both players, except an exchange's keep, seen by the exchanger only (the other sees
    "kept");
  - a draw (the replacement of a proved card, an exchange's draw, an examined target's draw in
    a forced swap) is seen by the drawer; the other sees only "drew".
* **Forced moves** (a single legal move) are no decision nodes; their observations are recorded
  as for any move (a card turned face up is still seen).
* **Chance** is the engine's: its outcomes are already grouped by characters.

``visible=True`` builds the same game with every observation public (both hands, the court, every
draw and keep): a game of perfect information whose value must be ``V_0``.

Open-hand leaf values come from :mod:`tests.reference.exact_game` (``leaves="exact"``, the
default, independent of the project) or from the project's endgame tables
(``leaves="tables"``, :func:`solver.coup.tablebase.probe.value_of`, much faster; both are
cross-checked against each other elsewhere and in the slow tests here).
"""

from __future__ import annotations

import math
import tomllib
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

from solver.coup import State
from solver.coup.cards import Character, Variant, deck, sort_cards
from solver.coup.moves import Move
from solver.coup.rules import Kind
from solver.coup.state import Phase

from .hidden_tree import Tree, solve

__all__ = [
    "Prior",
    "build_game",
    "gambit_game",
    "gambit_value",
    "oracle_value",
    "read_prior",
    "reference_value",
]

Hand = tuple[Character, ...]


# -- the puzzle and its prior ----------------------------------------------------------------------


@dataclass(frozen=True)
class Prior:
    """What a puzzle fixes (names, variant, coins, face-up cards, court or not, to_move, hand
    sizes) and the distribution of the hidden cards: ``deals`` lists ``(hands, rest, p)``."""

    names: tuple[str, ...]
    variant: Variant
    coins: tuple[int, ...]
    face_up: tuple[Hand, ...]
    court: Hand | None
    to_move: int
    sizes: tuple[int, ...]
    deals: tuple[tuple[tuple[Hand, ...], Hand, Fraction], ...] = field(repr=False)

    def state(self, hands: tuple[Hand, ...], rest: Hand) -> State:
        """The turn-start state of one deal."""
        court = self.court if self.court is not None else rest
        return State.position(
            self.names,
            self.variant,
            coins=self.coins,
            hidden=hands,
            face_up=self.face_up,
            court=sort_cards(court),
            to_move=self.to_move,
        )

    @property
    def players(self) -> tuple[int, int]:
        """The two seats with face-down cards (the first is not necessarily to_move)."""
        seats = tuple(i for i, n in enumerate(self.sizes) if n)
        assert len(seats) == 2
        return seats[0], seats[1]


def read_prior(puzzle: str) -> Prior:
    """Read a puzzle (TOML text, or the path of a TOML file) and deal its prior.

    >>> p = read_prior('''to_move = "Alice"
    ... [players.Alice]
    ... coins = 1
    ... hand = ["?"]
    ... face_up = ["duke"]
    ... [players.Bob]
    ... coins = 2
    ... hand = ["?"]
    ... face_up = ["duke"]
    ... [court]
    ... cards = ["duke", "captain", "ambassador"]''')
    >>> len(p.deals), sum(d[2] for d in p.deals)
    (16, Fraction(1, 1))
    """
    text = Path(puzzle).read_text() if "\n" not in puzzle and Path(puzzle).is_file() else puzzle
    data: dict[str, Any] = tomllib.loads(text)
    variant = Variant.parse(str(data.get("variant", "ambassador")))
    players = data["players"]
    names = tuple(players)
    to_move = names.index(data.get("to_move", names[0]))
    coins = tuple(int(players[n].get("coins", 2)) for n in names)
    sizes = tuple(len(players[n].get("hand", [])) for n in names)
    face_up = tuple(sort_cards([Character.parse(w) for w in players[n].get("face_up", [])]) for n in names)
    court = None
    if "court" in data:
        court = sort_cards([Character.parse(w) for w in data["court"]["cards"]])
    if sum(1 for n in sizes if n) != 2:
        raise ValueError("the hidden-card game needs exactly two players with face-down cards")
    pool = Counter(deck(variant, len(names)))
    pool.subtract(Counter(c for up in face_up for c in up))
    if court is not None:
        pool.subtract(Counter(court))
    if any(n < 0 for n in pool.values()):
        raise ValueError("more copies listed than the deck has")
    deals = tuple(_deal(+pool, sizes))
    return Prior(names, variant, coins, face_up, court, to_move, sizes, deals)


def _deal(pool: Counter[Character], sizes: tuple[int, ...]) -> list[tuple[tuple[Hand, ...], Hand, Fraction]]:
    """Every assignment of characters to the hands (each dealt uniformly from the physical cards
    left, in seating order), with the rest of the pool and its exact probability."""
    if not sizes:
        return [((), sort_cards(list(pool.elements())), Fraction(1))]
    size, later = sizes[0], sizes[1:]
    total = sum(pool.values())
    out = []
    for hand in sorted(set(_sub_multisets(pool, size))):
        taken = Counter(hand)
        ways = math.prod(math.comb(pool[c], k) for c, k in taken.items())
        p = Fraction(ways, math.comb(total, size))
        for hands, rest, q in _deal(pool - taken, later):
            out.append(((hand, *hands), rest, p * q))
    return out


def _sub_multisets(pool: Counter[Character], size: int) -> list[Hand]:
    kinds = sorted(c for c, n in pool.items() if n)
    out: list[Hand] = []

    def grow(i: int, left: int, acc: list[Character]) -> None:
        if left == 0:
            out.append(tuple(acc))
            return
        if i == len(kinds):
            return
        for k in range(min(left, pool[kinds[i]]), -1, -1):
            grow(i + 1, left - k, acc + [kinds[i]] * k)

    grow(0, size, [])
    return out


# -- open-hand leaf values ---------------------------------------------------------------------------


class LeafValues:
    """Open-hand values of states with two living players, cached: ``exact`` solves each new state's
    whole graph with :mod:`tests.reference.exact_game` (and keeps every node's value); ``tables``
    asks the project's endgame tables."""

    _shared: ClassVar[dict[State, Fraction]] = {}

    def __init__(self, method: str = "tables") -> None:
        if method not in ("exact", "tables"):
            raise ValueError(f"leaf values come from 'exact' or 'tables', not {method!r}")
        self.method = method
        self.cache = LeafValues._shared if method == "exact" else {}
        self.solved = 0  # graphs solved (exact) or states probed (tables)

    def value(self, state: State, seat: int) -> Fraction:
        """The open-hand value of ``state`` (two living players) for ``seat``, one of them."""
        if len(state.names) > 2:
            living = state.living()
            return self.value(state.heads_up(), living.index(seat))
        value = self.cache.get(state)
        if value is None:
            value = self._solve(state)
        return value if seat == 0 else -value

    def _solve(self, state: State) -> Fraction:
        self.solved += 1
        mover = state.current_player() if state.current_player() >= 0 else state.turn.actor
        if self.method == "tables":
            from solver.coup.tablebase.probe import value_of

            v = value_of(state)
            self.cache[state] = v if mover == 0 else -v
            return self.cache[state]
        from .exact_game import build, solve_graph

        graph = build(state)
        for s, v in zip(graph.states, solve_graph(graph), strict=True):
            self.cache[s] = v if mover == 0 else -v
        return self.cache[state]


# -- the K-turn game ---------------------------------------------------------------------------------


@dataclass
class Game:
    """The tree of a puzzle's K-turn game and what it was built from."""

    tree: Tree
    prior: Prior
    turns: int
    leaves: LeafValues
    leaf_states: int = 0

    def counts(self) -> dict[str, int]:
        return {**self.tree.counts(), "leaf_states": self.leaf_states}


def build_game(puzzle: str, turns: int, leaves: str = "tables", visible: bool = False) -> Game:
    """The K-turn hidden-card game of ``puzzle`` as a :class:`Tree` (see the module docstring)."""
    if turns < 0:
        raise ValueError("K must be at least 0")
    prior = read_prior(puzzle)
    values = LeafValues(leaves)
    builder = _Builder(prior, turns, values, visible)
    outcomes = []
    for hands, rest, p in prior.deals:
        state = prior.state(hands, rest)
        seen: list[tuple[Hashable, ...]] = []
        for seat in prior.players:
            if visible:
                seen.append((("deal", state.hidden, state.court),))
            else:
                seen.append((("deal", state.hidden[seat]),))
        label = "deal " + " | ".join(" ".join(c.name_en for c in h) or "-" for h in hands)
        outcomes.append((label, p, builder.node(state, seen[0], seen[1], 0)))
    builder.tree.chance(outcomes)
    return Game(builder.tree, prior, turns, values, len(builder.leaf_states))


class _Builder:
    def __init__(self, prior: Prior, turns: int, values: LeafValues, visible: bool) -> None:
        self.tree = Tree()
        self.prior = prior
        self.turns = turns
        self.values = values
        self.visible = visible
        self.me = prior.to_move
        self.seats = prior.players  # tree player i is seats[...]: see _player
        self.leaf_states: set[State] = set()

    def _player(self, seat: int) -> int:
        return 0 if seat == self.me else 1

    def _obs(self, seat: int, state: State, move: Move) -> tuple[Hashable, Hashable]:
        """What each of the two players sees of ``move`` played in ``state`` (in the order of
        prior.players)."""
        phase = state.turn.phase
        private: Hashable | None = None
        if phase in (Phase.REDRAW, Phase.EXCHANGE_DRAW, Phase.SWAP_DRAW):
            private, public = ("drew", move.player, move.cards), ("drew", move.player)
        elif move.kind is Kind.KEEP:
            private, public = ("kept", move.cards), ("kept", move.player)
        else:
            return move, move
        if self.visible:
            return private, private
        return tuple(private if s == move.player else public for s in self.seats)  # type: ignore[return-value]

    def node(self, state: State, seen0: tuple[Hashable, ...], seen1: tuple[Hashable, ...], played: int) -> int:
        tree = self.tree
        while True:
            if state.is_terminal():
                return tree.leaf(1 if state.winner() == self.me else -1)
            phase = state.turn.phase
            if phase is Phase.ACTION and played == self.turns:
                self.leaf_states.add(state)
                return tree.leaf(self.values.value(state, self.me))
            if state.is_chance_node():
                outcomes = []
                for move, p in state.chance_outcomes():
                    a, b = self._obs(move.player, state, move)
                    child = self.node(state.apply(move), seen0 + (a,), seen1 + (b,), played)
                    outcomes.append((move.text(state.names), p, child))
                return tree.chance(outcomes)
            moves = state.legal_moves()
            counted = played + (1 if phase is Phase.ACTION else 0)
            if len(moves) == 1:  # forced: no decision, but both still see it
                a, b = self._obs(moves[0].player, state, moves[0])
                state, seen0, seen1, played = state.apply(moves[0]), seen0 + (a,), seen1 + (b,), counted
                continue
            seat = state.current_player()
            children = []
            for move in moves:
                a, b = self._obs(seat, state, move)
                child = self.node(state.apply(move), seen0 + (a,), seen1 + (b,), counted)
                children.append((move.text(state.names), child))
            own = seen0 if seat == self.seats[0] else seen1
            return tree.decision(self._player(seat), own, children)


# -- the three values --------------------------------------------------------------------------------


def reference_value(puzzle: str, turns: int, leaves: str = "tables") -> Fraction:
    """``V_K`` of ``puzzle`` for ``to_move``, by the tree's sequence form solved exactly."""
    return solve(build_game(puzzle, turns, leaves).tree).value


def gambit_game(puzzle: str, turns: int, leaves: str = "tables") -> Any:
    """The K-turn game of ``puzzle`` as a pygambit extensive game (player 1 is ``to_move``)."""
    from .hidden_gambit import to_gambit

    return to_gambit(build_game(puzzle, turns, leaves).tree)


def gambit_value(puzzle: str, turns: int, leaves: str = "tables") -> Fraction:
    """``V_K`` by Gambit's sequence-form LP (rational), read from the normalised profile."""
    from .hidden_gambit import gambit_solve

    return gambit_solve(build_game(puzzle, turns, leaves).tree).value


def oracle_value(puzzle: str, turns: int = 1, leaves: str = "tables") -> Fraction:
    """``V_K`` by double oracle on the normal form, exactly (meant for K = 1)."""
    from .hidden_oracle import double_oracle

    return double_oracle(build_game(puzzle, turns, leaves).tree).value
