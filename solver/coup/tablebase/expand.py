"""The turns of a family, expanded by the engine once for every coin count.

Inside a turn, after the action is chosen, coins matter only through how much a steal takes
(0, 1 or 2 coins); every other effect of coins is a fixed change. So each state inside a turn is
expanded once, *normalised*: the actor in the first seat with 0 coins, the other with 0 coins
(or, in a steal, what the steal would take), face-up cards and cards out of play cleared (no rule
reads them). Its value is then an array over the 13 × 13 actual coin counts (actor, other), and
every edge carries the coin change the engine made (``dx``, ``dy``). The turn starts of an
arrangement are expanded from one representative coin count per bracket (0, 3, 7, 10: what the
actor can afford) and, for steals, per amount taken; each root edge has the mask of the coin
counts it stands for. A steal's turn is asked from the engine taking 1 coin; taking 0 or 2, its
answers are the same with the coins renamed, and each state there copies the edges of its model
(taking 1) with its coin changes scaled. And the engine reads no more than the decider's hand
(none in the windows and at the action) and the others' only for being alive: what a move does
is asked once per :func:`shape` of the state and reused whatever the other hands (:data:`BLIND`).
This is only a cache of the engine's answers: ``tests/test_tablebase.py`` checks it against the
engine, state by state, and ``tests/test_expand_shapes.py`` the reuse across hands.

Besides the :class:`Edge` lists, every state's edges are kept in flat arrays (:meth:`Expansion.arrays`):
the generator reads a whole family's turns from them with array operations.

>>> from solver.coup.cards import Variant
>>> from solver.coup.tablebase.index import Family
>>> f = Family(Variant.AMBASSADOR, (1, 0, 0, 1, 1), court=1)
>>> e = Expansion(Variant.AMBASSADOR)
>>> roots = e.roots(f, 0)
>>> sorted({str(r.move.kind) for r in roots})
['aid', 'assassinate', 'coup', 'exchange', 'income', 'steal', 'tax']
>>> e.arrays().many.sum() == sum(len(e.edges(n)) for n in range(len(e.states)))
np.True_
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..cards import Character, Variant
from ..moves import Move
from ..rules import STEAL_AMOUNT, Kind, stolen
from ..state import CHANCE_PHASES, Phase, State, Turn
from ..turns import coin_class
from .index import CELLS, COINS, Family, cards_key

MOVER, OTHER, CHANCE = 0, 1, 2
"""Who decides at an inner node: the player whose turn it is, the other player, or chance."""
NODE, START, END = 0, 1, 2
"""What an edge leads to: an inner node, the next turn start (the other player to move), the end."""
BRACKET_COINS = (0, 3, 7, 10)
"""A representative of each coin bracket of the player to move (what they can afford)."""
MODEL_TAKE = 1
"""The amount a steal takes in the turns asked from the engine: those taking 0 or 2 coins are
the same turns, the coins renamed (a count of 0 would not tell what was taken)."""
ZERO = Fraction(0)
BLIND = frozenset({Phase.ACTION, Phase.CHALLENGE, Phase.BLOCK, Phase.BLOCK_CHALLENGE, Phase.EXAMINE_DECIDE})
"""The phases where the engine reads no hand (only who is alive) and changes none: choosing the
action, the challenge and block windows, the inquisitor's swap-or-return. In every other phase
of a turn it reads and changes only the decider's hand (a proof, a redraw, a lost influence, an
exchange's draw and keep, a shown or swapped card) and the court; the others' hands only for
being alive. So what a move does is asked of the engine once per :func:`shape` (the decider's
hand or none, the turn, the coins, who is alive) and reused for every other hand, unchanged."""

Mask = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]


class Edge(NamedTuple):
    """One move or chance outcome. ``target`` is a node id (NODE), a family id with
    ``arrangement`` (START: the next turn, from the other player's side), or the winner
    (END: 0 the player to move, 1 the other). ``dx``/``dy``: the coins it adds to the actor /
    the other; ``prob``: its chance (0 for a decision)."""

    kind: int
    target: int
    arrangement: int
    dx: int
    dy: int
    prob: Fraction
    move: Move


class Root(NamedTuple):
    """A first move of a turn start: an :class:`Edge` and the coin counts (mover, other) where
    the engine offers it."""

    edge: Edge
    mask: Mask

    @property
    def move(self) -> Move:
        return self.edge.move


class Flat(NamedTuple):
    """Every expanded state's edges as arrays: state ``n`` has edges ``first[n]`` to
    ``first[n] + many[n]`` (engine order) of ``kind``/``target``/``arrangement``/``dx``/``dy``,
    and ``prob[e]`` indexes ``Expansion.probabilities``. ``state_kind[n]``: MOVER/OTHER/CHANCE;
    ``take[n]``: the coins a steal in progress takes (0 when none); ``group[n]``: the same
    number for states that differ only in that take (the same hands, court and turn)."""

    first: Ints
    many: Ints
    state_kind: Ints
    take: Ints
    group: Ints
    kind: Ints
    target: Ints
    arrangement: Ints
    dx: Ints
    dy: Ints
    prob: Ints


def _bracket_masks() -> dict[tuple[int, int, bool], Mask]:
    x = np.arange(COINS)[:, None]
    y = np.arange(COINS)[None, :]
    brackets = np.array([coin_class((int(i), 0), 0)[0] for i in range(COINS)])[:, None]
    takes = np.array([stolen(int(i)) for i in range(COINS)])[None, :]
    out = {}
    for bracket in range(len(BRACKET_COINS)):
        for take in range(STEAL_AMOUNT + 1):
            for steal in (False, True):
                where = (brackets == bracket) & ((takes == take) if steal else (y >= 0))
                out[bracket, take, steal] = where & (x >= 0)
    return out


_MASKS = _bracket_masks()
_new = tuple.__new__


class _Step(NamedTuple):
    """The engine's answer to one move, as what changes: what the child is (``kind``, the
    ``winner`` if it is the end), its hands, turn and coins, and the cards the court gained
    (``added``) and lost (``removed``)."""

    kind: int
    winner: int
    hidden: tuple[tuple[Character, ...], ...]
    turn: Turn
    coins: tuple[int, ...]
    added: tuple[Character, ...]
    removed: tuple[Character, ...]


def _step(parent: State, child: State) -> _Step:
    phase = child.turn.phase
    kind = END if phase is Phase.OVER else START if phase is Phase.ACTION else NODE
    winner = int(child.winner() or 0) if kind == END else 0
    if child.court == parent.court:
        return _Step(kind, winner, child.hidden, child.turn, child.coins, (), ())
    after = list(child.court)
    removed = []
    for card in parent.court:
        if card in after:
            after.remove(card)
        else:
            removed.append(card)
    return _Step(kind, winner, child.hidden, child.turn, child.coins, tuple(after), tuple(removed))


def _renamed(step: _Step | None, take: int) -> _Step | None:
    """What a move does inside a steal taking ``take`` coins, from what it does at the
    :data:`MODEL_TAKE`: inside a steal's turn the engine reads coins only to move the amount
    taken (from the other player to the actor) and to clear an eliminated player's, so each
    count it leaves is 0 or the amount taken. None (ask the engine) for any other count."""
    if step is None or not all(c in (0, MODEL_TAKE) for c in step.coins):
        return None
    return step._replace(coins=tuple(take if c == MODEL_TAKE else 0 for c in step.coins))


def shape(s: State) -> tuple[object, ...]:
    """What the engine reads of ``s``, a state inside a turn, to say what each move does (and
    which moves there are): the decider's hand (None in a :data:`BLIND` phase), the turn, the
    coins and who is alive. The court is not in it: only a draw reads the court, and what a
    drawn outcome does (the cards it moves) is the same from every court that holds them."""
    turn = s.turn
    hidden = s.hidden
    return (None if turn.phase in BLIND else hidden[turn.decider], turn, s.coins, tuple(map(bool, hidden)))


def _reader(turn: Turn) -> int:
    """The seat whose hand the engine reads and changes in ``turn``'s phase; -1 for none."""
    return -1 if turn.phase in BLIND else turn.decider


def _others_kept(parent: State, step: _Step, reader: int) -> bool:
    """Whether ``step`` left every hand but the ``reader``'s as it was at ``parent`` (what a
    reused answer relies on: see :data:`BLIND`)."""
    return all(i == reader or h == p for i, (h, p) in enumerate(zip(step.hidden, parent.hidden, strict=True)))


def _with_hands(step: _Step, s: State, reader: int) -> _Step:
    """What ``step``, the engine's answer at a state of the same :func:`shape`, does at ``s``:
    the same, with every hand but the ``reader``'s (unread, unchanged) those of ``s``."""
    hidden = s.hidden if reader < 0 else s.hidden[:reader] + step.hidden[reader : reader + 1] + s.hidden[reader + 1 :]
    if hidden == step.hidden:
        return step
    kind, winner, _, turn, coins, added, removed = step
    return _new(_Step, (kind, winner, hidden, turn, coins, added, removed))


def _court(court: tuple[Character, ...], step: _Step) -> tuple[Character, ...]:
    """The court after ``step`` (the same change as where the engine was asked)."""
    if not step.added and not step.removed:
        return court
    left = list(court)
    for card in step.removed:
        left.remove(card)
    return tuple(sorted(left + list(step.added)))


@dataclass(repr=False)
class Expansion:
    """Every state inside turns that was met, normalised, with its engine moves; shared by the
    families of one variant (a state reached after a lost influence belongs to a smaller family,
    and is expanded once).

    The engine is asked once per move of each :func:`shape` (the decider's hand or none, the
    turn, the coins): what a move does does not depend on the rest of the court (only draws
    read it, and their outcomes are the engine's for each court), nor on the hands the engine
    does not read (:data:`BLIND`), so another arrangement or a family with another court reuses
    the answer, the court changed the same way and the other hands as they are.
    ``tests/test_tablebase.py`` checks this against the engine, family by family."""

    variant: Variant
    states: list[State] = field(default_factory=list)
    kind: list[int] = field(default_factory=list)
    moves: list[list[Move]] = field(default_factory=list)
    index: dict[State, int] = field(default_factory=dict)
    families: list[Family] = field(default_factory=list)
    family_id: dict[Family, int] = field(default_factory=dict)
    probabilities: list[Fraction] = field(default_factory=lambda: [ZERO])
    _roots: dict[tuple[int, int], list[Root]] = field(default_factory=dict)
    _starts: dict[tuple[object, ...], tuple[int, int]] = field(default_factory=dict)
    _steps: dict[tuple[object, ...], dict[Move, _Step]] = field(default_factory=dict)
    _legal: dict[tuple[object, ...], tuple[Move, ...]] = field(default_factory=dict)
    _draws: dict[tuple[object, ...], list[tuple[Move, int]]] = field(default_factory=dict)
    _prob_code: dict[Fraction, int] = field(default_factory=lambda: {ZERO: 0})
    _flat: list[list[int]] = field(default_factory=lambda: [[] for _ in range(6)])
    _first: list[int] = field(default_factory=list)
    _take: list[int] = field(default_factory=list)
    _group: list[int] = field(default_factory=list)
    _groups: dict[tuple[object, ...], int] = field(default_factory=dict)
    _models: set[int] = field(default_factory=set)
    _arrays: Flat | None = None
    _buffers: list[Ints] = field(default_factory=lambda: [np.empty(0, dtype=np.int64) for _ in Flat._fields])

    def __repr__(self) -> str:
        return f"<Expansion {self.variant} {len(self.states):,} inner states, {len(self.families)} families>"

    def fid(self, family: Family) -> int:
        """The number of ``family`` in this expansion (registered on first sight)."""
        found = self.family_id.get(family)
        if found is None:
            found = self.family_id[family] = len(self.families)
            self.families.append(family)
        return found

    def roots(self, family: Family, arrangement: int) -> list[Root]:
        """The first moves of the turn start ``arrangement`` of ``family``, each with its coin mask."""
        key = (self.fid(family), arrangement)
        found = self._roots.get(key)
        if found is None:
            found = self._roots[key] = self._expand_roots(family, arrangement)
        return found

    def edges(self, n: int) -> list[Edge]:
        """The edges of inner state ``n``, in the engine's order."""
        first = self._first[n]
        kind, target, arrangement, dx, dy, prob = (column[first : first + len(self.moves[n])] for column in self._flat)
        return [
            Edge(row[0], row[1], row[2], row[3], row[4], self.probabilities[row[5]], move)
            for row, move in zip(zip(kind, target, arrangement, dx, dy, prob, strict=True), self.moves[n], strict=True)
        ]

    def _expand_roots(self, family: Family, arrangement: int) -> list[Root]:
        where: dict[tuple[object, ...], tuple[Edge, list[tuple[int, int, bool]]]] = {}
        base = family.state(arrangement)
        followed: dict[tuple[Move, int], tuple[int, int, int, int, int]] = {}
        model = base._replace(coins=(BRACKET_COINS[0], MODEL_TAKE))
        for move in self._legal_moves(model):  # the steals' turns first, at the model take
            if move.kind is Kind.STEAL:
                followed[move, MODEL_TAKE] = self._follow(model, self._answer(model, move))
        for bracket, mine in enumerate(BRACKET_COINS):
            for take in range(STEAL_AMOUNT + 1):
                root = base._replace(coins=(mine, take))
                for move in self._legal_moves(root):
                    steal = move.kind is Kind.STEAL
                    if take and not steal:
                        continue
                    # where a move leads does not depend on the bracket (only whether it is
                    # legal does): the engine applies it once per move (and steal amount), at
                    # the first bracket that offers it, not once per bracket
                    found = followed.get((move, take))
                    if found is None:
                        found = followed[move, take] = self._follow(root, self._answer(root, move))
                    key = (move, *found)
                    if key not in where:
                        where[key] = (Edge(found[0], found[1], found[2], found[3], found[4], ZERO, move), [])
                    where[key][1].append((bracket, take, steal))
        out = []
        for edge, brackets in where.values():
            mask = _MASKS[brackets[0]].copy()
            for bracket_key in brackets[1:]:
                mask |= _MASKS[bracket_key]
            out.append(Root(edge, mask))
        return out

    def _legal_moves(self, s: State) -> tuple[Move, ...]:
        """The engine's decisions at ``s`` (once per :func:`shape`)."""
        key = shape(s)
        legal = self._legal.get(key)
        if legal is None:
            legal = self._legal[key] = s.legal_moves()
        return legal

    def _answer(self, s: State, move: Move) -> _Step:
        """What ``move`` does at ``s``, from the engine (once per :func:`shape` and move)."""
        steps = self._steps.setdefault(shape(s), {})
        reader = _reader(s.turn)
        step = steps.get(move)
        if step is None:
            step = _step(s, s.apply(move))
            if not _others_kept(s, step, reader):  # pragma: no cover (no phase does; see BLIND)
                return step
            steps[move] = step
        return _with_hands(step, s, reader)

    def _answers(self, s: State) -> list[tuple[Move, int, _Step]]:
        """The moves of ``s`` (decisions; probability code 0) or its chance outcomes (the
        engine's, for its court, with their probability codes), and what each does, from the
        engine (once per :func:`shape`: see :data:`BLIND`)."""
        turn = s.turn
        key = shape(s)
        steps = self._steps.get(key)
        if steps is None:
            steps = self._steps[key] = {}
        if turn.phase in CHANCE_PHASES:
            draws = self._draws.get((turn.phase, turn.actor, turn.decider, s.court))
            if draws is None:
                draws = self._draws[turn.phase, turn.actor, turn.decider, s.court] = [
                    (move, self._code(p)) for move, p in s.chance_outcomes()
                ]
        else:
            legal = self._legal.get(key)
            if legal is None:
                legal = self._legal[key] = s.legal_moves()
            draws = [(move, 0) for move in legal]
        model = self._steps.get((key[0], turn, (0, MODEL_TAKE), key[3])) if turn.action is Kind.STEAL else None
        reader = _reader(turn)
        out = []
        for move, code in draws:
            step = steps.get(move)
            if step is None:
                step = _renamed(model.get(move), s.coins[1]) if model else None
                if step is None:
                    step = _step(s, s.apply(move))
                    if not _others_kept(s, step, reader):  # pragma: no cover (no phase does; see BLIND)
                        out.append((move, code, step))
                        continue
                steps[move] = step
            out.append((move, code, _with_hands(step, s, reader)))
        return out

    def _code(self, p: Fraction) -> int:
        code = self._prob_code.get(p)
        if code is None:
            code = self._prob_code[p] = len(self.probabilities)
            self.probabilities.append(p)
        return code

    def _follow(self, s: State, step: _Step) -> tuple[int, int, int, int, int]:
        """Where ``step`` from ``s`` leads: (kind, target, arrangement, dx, dy) of its edge,
        expanding a new inner state on first sight."""
        dx, dy = step.coins[0] - s.coins[0], step.coins[1] - s.coins[1]
        if step.kind == END:
            return END, step.winner, 0, dx, dy
        court = _court(s.court, step)
        hidden = step.hidden
        if step.kind == START:  # the other player's turn: their side first
            key = (hidden[1], hidden[0], court)
            found = self._starts.get(key)
            if found is None:
                mover, other = cards_key(self.variant, hidden[1]), cards_key(self.variant, hidden[0])
                places = cards_key(self.variant, court)
                counts = tuple((mover + other + places).count(c) for c in range(5))
                fam = Family(self.variant, counts, len(court))
                found = self._starts[key] = (self.fid(fam), fam.arrangement(mover, other))
            return START, found[0], found[1], dx, dy
        child = _inner(s, step)
        found_node = self.index.get(child)
        if found_node is None:
            found_node = self._new(child)
            self._expand(found_node)
        return NODE, found_node, 0, dx, dy

    def node(self, state: State) -> int:
        """The id of the inner state ``state`` (normalised), expanding it and what follows on
        first sight."""
        key = normalised(state)
        found = self.index.get(key)
        if found is None:
            found = self._new(key)
            self._expand(found)
        return found

    def _expand(self, n: int) -> None:
        """Expand state ``n`` and, depth first, every new state it leads to."""
        pending = [n]
        states, index, columns = self.states, self.index, self._flat
        kinds, targets, arrangements, dxs, dys, probs = columns
        while pending:
            n = pending.pop()
            s = states[n]
            size = len(states)
            self._first[n] = len(kinds)
            if not self._renamed_model(n, s):
                moves = self.moves[n]
                renamable = s.turn.action is Kind.STEAL and s.coins[1] == MODEL_TAKE
                for move, code, step in self._answers(s):
                    moves.append(move)
                    if renamable and not all(c in (0, MODEL_TAKE) for c in step.coins):
                        renamable = False
                    if step.kind == NODE:
                        child = _inner(s, step)
                        found = index.get(child)
                        if found is None:
                            found = self._new(child)
                        kinds.append(NODE)
                        targets.append(found)
                        arrangements.append(0)
                        dxs.append(step.coins[0] - s.coins[0])
                        dys.append(step.coins[1] - s.coins[1])
                    else:
                        kind, target, arrangement, dx, dy = self._follow(s, step)
                        kinds.append(kind)
                        targets.append(target)
                        arrangements.append(arrangement)
                        dxs.append(dx)
                        dys.append(dy)
                    probs.append(code)
                if renamable:
                    self._models.add(n)
            pending.extend(range(size, len(states)))

    def _renamed_model(self, n: int, s: State) -> bool:
        """Give state ``n`` (``s``), inside a steal taking 0 or 2 coins, the edges of the same
        state taking :data:`MODEL_TAKE` (already expanded, every answer renamable: see
        :func:`_renamed`), coins renamed: the same moves, each to the same place or the model
        child's state with the take renamed, every coin change times the take. Returns False
        (nothing done) where there is no such model, or the engine offers other moves."""
        take = s.coins[1]
        turn = s.turn
        if turn.action is not Kind.STEAL or take == MODEL_TAKE:
            return False
        m = self.index.get(_new(State, (*s[:2], (0, MODEL_TAKE), *s[3:])))
        if m is None or m not in self._models:
            return False
        moves = self.moves[m]
        if turn.phase not in CHANCE_PHASES and self._legal_moves(s) != tuple(moves):
            return False
        self.moves[n].extend(moves)
        states, index = self.states, self.index
        kinds, targets, arrangements, dxs, dys, probs = self._flat
        first = self._first[m]
        for j in range(first, first + len(moves)):
            kind, target = kinds[j], targets[j]
            if kind == NODE:
                child = states[target]
                if child.coins[1] == MODEL_TAKE:
                    child = _new(State, (*child[:2], (0, take), *child[3:]))
                    found = index.get(child)
                    target = self._new(child) if found is None else found
            kinds.append(kind)
            targets.append(target)
            arrangements.append(arrangements[j])
            dxs.append(dxs[j] * take)
            dys.append(dys[j] * take)
            probs.append(probs[j])
        return True

    def _new(self, key: State) -> int:
        n = len(self.states)
        self.index[key] = n
        self.states.append(key)
        self.kind.append(CHANCE if key.turn.phase in CHANCE_PHASES else (MOVER if key.turn.decider == 0 else OTHER))
        self.moves.append([])
        self._first.append(0)
        self._take.append(key.coins[1])
        self._group.append(self._groups.setdefault((key.hidden, key.court, key.turn), len(self._groups)))
        return n

    def arrays(self) -> Flat:
        """The flat edge arrays of every state expanded so far. Each call converts only the
        states and edges added since the last (a state's edges never change once expanded):
        the arrays are views of buffers that grow by doubling, read-only, and a view handed
        out earlier keeps what it showed."""
        found = self._arrays
        states, edges = len(self.states), len(self._flat[0])
        if found is not None and len(found.first) == states and len(found.kind) == edges:
            return found
        old_states, old_edges = (0, 0) if found is None else (len(found.first), len(found.kind))
        tails: list[list[int]] = [
            self._first[old_states:],
            [len(m) for m in self.moves[old_states:]],
            self.kind[old_states:],
            self._take[old_states:],
            self._group[old_states:],
            *(column[old_edges:] for column in self._flat),
        ]
        buffers = self._buffers
        views = []
        for i, tail in enumerate(tails):
            used = old_states if i < 5 else old_edges
            buffers[i] = _grown(buffers[i], used, tail)
            view = buffers[i][: used + len(tail)]
            view.flags.writeable = False
            views.append(view)
        found = self._arrays = Flat(*views)
        return found


def _grown(buffer: Ints, used: int, tail: list[int]) -> Ints:
    """``buffer`` (its first ``used`` items kept) with ``tail`` written after them: the same
    buffer, or one twice as large (at least) when it is full."""
    need = used + len(tail)
    if need > len(buffer):
        larger = np.empty(max(need, 2 * len(buffer), 1024), dtype=np.int64)
        larger[:used] = buffer[:used]
        buffer = larger
    buffer[used:need] = tail
    return buffer


def _inner(s: State, step: _Step) -> State:
    """The inner state ``step`` from ``s`` leads to, normalised (see :func:`normalised`)."""
    turn = step.turn
    take = stolen(step.coins[1]) if turn.action is Kind.STEAL else 0
    return _new(State, (s.names, s.variant, (0, take), step.hidden, ((), ()), _court(s.court, step), (), turn))


def normalised(state: State) -> State:
    """A state inside a turn with what no later rule reads cleared: coins (except what a steal
    would take from the other player), face-up cards and cards out of play. The actor must be
    the first seat."""
    turn = state.turn
    if turn.actor != 0:
        raise ValueError("inner states are expanded with the actor in the first seat")
    take = stolen(state.coins[1]) if turn.action is Kind.STEAL else 0
    return _new(State, (state.names, state.variant, (0, take), state.hidden, ((), ()), state.court, (), turn))


__all__ = [
    "CELLS",
    "CHANCE",
    "END",
    "MOVER",
    "NODE",
    "OTHER",
    "START",
    "Edge",
    "Expansion",
    "Flat",
    "Root",
    "normalised",
    "shape",
]
