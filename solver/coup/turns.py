"""The turns of a 2-player Coup position, expanded by the engine, laid out as the game graph
that :mod:`solver.values` solves.

**Turn templates.** Inside a turn, coins matter only through what the actor can afford (3, 7,
10: the costs and the forced coup of the action table) and how much a steal takes (0, 1 or 2);
every other effect of coins is a fixed change (+1, +2, +3, -3, -7, the steal). So the engine
expands one turn once per (cards, actor, those classes), from representative coins, and every
turn start with other coins reuses it, its coins shifted. This is only a cache of the engine's
own answers: ``tests/test_graph.py`` checks it against the engine state by state.

>>> from solver.coup.state import State
>>> g = build(State.from_text(
...     "ambassador Alice:7:D:A Bob:7:A:C court=DDACCKKKBBB aside=- phase=action actor=Alice"))
>>> bool(g.kind[0] == MAX), g.size > 10, g.state(0).coins
(True, True, (7, 7))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..errors import TooLarge, Unsupported
from ..graph import CHANCE, END, MAX, MIN, GameGraph
from .limits import DEFAULT_BUDGET
from .moves import Move
from .rules import ASSASSINATE_COST, COUP_COST, FORCED_COUP_COINS, stolen
from .state import CHANCE_PHASES, Phase, State, Turn

Ints = npt.NDArray[np.int64]

_THRESHOLDS = sorted({ASSASSINATE_COST, COUP_COST, FORCED_COUP_COINS})  # 3, 7, 10


def coin_class(coins: tuple[int, ...], actor: int) -> tuple[int, int]:
    """What a turn's expansion depends on: the actor's affordability bracket and how much a
    steal from the other player takes."""
    mine, other = coins[actor], coins[1 - actor]
    bracket = sum(1 for t in _THRESHOLDS if mine >= t)
    return bracket, stolen(other)


def _representative(coins_class: tuple[int, int], actor: int) -> tuple[int, int]:
    bracket, other = coins_class
    mine = ([0, *_THRESHOLDS])[bracket]
    return (mine, other) if actor == 0 else (other, mine)


@dataclass(repr=False)
class Template:
    """One turn expanded by the engine from representative coins. Node 0 is the turn start;
    ``leaves`` are where the turn can end: (layout, actor, coin change) or a winner."""

    root: State
    states: list[State]  # the turn's states, representative coins
    kind_seat: list[int]  # the seat that decides, or -1 for chance
    start: list[int]
    child: list[int]  # >= 0: a node of this template; < 0: leaf -1 - index
    prob: list[Fraction]
    moves: list[Move]
    leaves: list[tuple[int, int, int, int] | int] = field(default_factory=list)
    # (layout, actor, d0, d1) for the next turn start, or the winning seat for the end
    tails: list[tuple[Move, ...]] = field(default_factory=list)
    # per edge: the forced moves folded into it (compact templates only)

    def __repr__(self) -> str:
        return f"<Template {len(self.states):,} nodes, {len(self.leaves)} leaves, root {self.root.text()!r}>"

    def heights(self) -> npt.NDArray[np.int64]:
        """Per node: the longest run of moves left in the turn (0: every move ends it)."""
        return _heights(self)


def _heights(t: Template) -> npt.NDArray[np.int64]:
    """Per node: the longest run of moves left in the turn (0: every move ends it)."""
    heights = np.zeros(len(t.states), dtype=np.int64)
    for node in _post_order(t):
        children = [c for c in t.child[t.start[node] : t.start[node + 1]] if c >= 0]
        heights[node] = 1 + max(int(heights[c]) for c in children) if children else 0
    return heights


def _post_order(t: Template) -> list[int]:
    """The template's nodes, every node after all its children (it is a DAG: a turn never
    comes back to a state)."""
    order: list[int] = []
    seen = [False] * len(t.states)
    stack = [(0, False)]
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
        elif not seen[node]:
            seen[node] = True
            stack.append((node, True))
            stack.extend((c, False) for c in t.child[t.start[node] : t.start[node + 1]] if c >= 0 and not seen[c])
    return order


def compact(t: Template) -> Template:
    """The same turn with fewer nodes and the same values: a node whose moves (or draws) all
    lead to one place is replaced by that place (a forced loss, a redraw that cannot matter),
    its move (for a draw, the likeliest) kept in the edge's ``tails``; nodes with the same decider and the same
    successors (with the same probabilities) are merged (two exchange draws that offer the
    same keeps). The root stays node 0 and keeps every move."""
    canon: dict[int, _Target] = {}
    tail_of: dict[int, tuple[Move, ...]] = {}
    merged: dict[tuple[object, ...], int] = {}
    nodes: list[tuple[int, list[_Edge]]] = []
    for old in _post_order(t):
        out: dict[tuple[_Target, int], _Edge] = {}
        for e in range(t.start[old], t.start[old + 1]):
            child = t.child[e]
            target: _Target = (True, -1 - child) if child < 0 else canon[child]
            later = () if child < 0 else tail_of.get(child, ())
            edge = _Edge(target, t.prob[e], t.moves[e], (*t.tails[e], *later))
            key = (target, e if old == 0 else -1)
            known = out.get(key)  # the same place twice: add chances, keep the likeliest label
            out[key] = edge if known is None else known.join(edge)
        edges = list(out.values())
        if old != 0 and len(edges) == 1:
            canon[old] = edges[0].target
            tail_of[old] = (edges[0].move, *edges[0].tail)  # a draw that cannot matter: its likeliest outcome
            continue
        chance = t.kind_seat[old] < 0
        signature = (t.kind_seat[old], frozenset((x.target, x.prob) if chance else x.target for x in edges))
        if old != 0 and signature in merged:
            canon[old] = (False, merged[signature])
            continue
        merged[signature] = len(nodes)
        canon[old] = (False, len(nodes))
        nodes.append((old, edges))
    last = len(nodes) - 1  # reverse post-order: the root first, children after parents
    out_t = Template(t.root, [], [], [], [], [], [], t.leaves, [])
    for old, edges in reversed(nodes):
        out_t.states.append(t.states[old])
        out_t.kind_seat.append(t.kind_seat[old])
        out_t.start.append(len(out_t.child))
        for x in edges:
            leaf, index = x.target
            out_t.child.append(-1 - index if leaf else last - index)
            out_t.prob.append(x.prob)
            out_t.moves.append(x.move)
            out_t.tails.append(x.tail)
    out_t.start.append(len(out_t.child))
    return out_t


_Target = tuple[bool, int]
"""Where an edge of a compact template goes: (a leaf?, the leaf's or the new node's index)."""


class _Edge(NamedTuple):
    target: _Target
    prob: Fraction
    move: Move
    tail: tuple[Move, ...]

    def join(self, other: _Edge) -> _Edge:
        """Two edges to one place: their chances add up; the likelier one names it."""
        label = self if self.prob >= other.prob else other
        return label._replace(prob=self.prob + other.prob)


def _layout(state: State) -> tuple[object, ...]:
    return (state.hidden, state.face_up, state.court, state.aside)


def _normalized(state: State) -> State:
    """A state inside a turn, after the action was chosen, with the coins that cannot matter
    any more set to 0: the rest of the turn depends on coins only through how much a steal
    from the other player takes."""
    other = 1 - state.turn.actor
    coins = [0, 0]
    coins[other] = stolen(state.coins[other])
    return state._replace(coins=(coins[0], coins[1]))


def _splice(
    root: State,
    subtrees: dict[State, Template],
    layouts: dict[tuple[object, ...], int],
    layout_states: list[State],
    folded: bool,
) -> Template:
    """One turn: the root's moves, each followed by the (cached) expansion of what comes after
    it, which depends on the coins only through the steal (see :func:`_normalized`); with
    ``folded``, the cached expansions are compact."""
    t = Template(root, [root], [root.turn.decider], [0], [], [], [])
    leaf = _Leaves(t)
    pending: list[tuple[Template, int, int, int]] = []  # subtree, first node, coin shift
    size = 1
    for move in root.legal_moves():
        child = root.apply(move)
        t.prob.append(Fraction(0))
        t.moves.append(move)
        t.tails.append(())
        if child.turn.phase is Phase.OVER or child.turn.phase is Phase.ACTION:
            t.child.append(_leaf_of(root, child, leaf, layouts, layout_states))
            continue
        key = _normalized(child)
        sub = subtrees.get(key)
        if sub is None:
            sub = subtrees[key] = _expand(key, layouts, layout_states)
            if folded:
                sub = subtrees[key] = compact(sub)
        t.child.append(size)
        pending.append((sub, size, child.coins[0] - key.coins[0], child.coins[1] - key.coins[1]))
        size += len(sub.states)
    base = (root.coins[0], root.coins[1])
    for sub, first, d0, d1 in pending:
        for state in sub.states:
            t.states.append(state._replace(coins=(state.coins[0] + d0, state.coins[1] + d1)))
        t.kind_seat.extend(sub.kind_seat)
        offset = len(t.child) - sub.start[0]
        t.start.extend(x + offset for x in sub.start[:-1])
        sub_root = sub.root.coins
        for c in sub.child:
            if c >= 0:
                t.child.append(c + first)
                continue
            spec = sub.leaves[-1 - c]
            if not isinstance(spec, int):  # coin changes from the sub-root, made from the root
                layout, actor, e0, e1 = spec
                spec = (layout, actor, e0 + sub_root[0] + d0 - base[0], e1 + sub_root[1] + d1 - base[1])
            t.child.append(leaf(spec))
        t.prob.extend(sub.prob)
        t.moves.extend(sub.moves)
        t.tails.extend(sub.tails)
    t.start.append(len(t.child))
    return t


class _Leaves:
    """A template's leaves, each listed once: called with a leaf, gives the child reference."""

    def __init__(self, template: Template) -> None:
        self.template = template
        self.index: dict[tuple[int, int, int, int] | int, int] = {}

    def __call__(self, spec: tuple[int, int, int, int] | int) -> int:
        found = self.index.get(spec)
        if found is None:
            found = self.index[spec] = len(self.template.leaves)
            self.template.leaves.append(spec)
        return -1 - found


def _leaf_of(
    root: State,
    child: State,
    leaf: Callable[[tuple[int, int, int, int] | int], int],
    layouts: dict[tuple[object, ...], int],
    layout_states: list[State],
) -> int:
    """The leaf (as a child reference) for a move that ends the turn or the game."""
    if child.turn.phase is Phase.OVER:
        return leaf(int(child.winner() or 0))
    key = _layout(child)
    if key not in layouts:
        layouts[key] = len(layouts)
        layout_states.append(child)
    return leaf((layouts[key], child.turn.actor, child.coins[0] - root.coins[0], child.coins[1] - root.coins[1]))


def _expand(root: State, layouts: dict[tuple[object, ...], int], layout_states: list[State]) -> Template:
    """The engine's expansion from ``root`` until the turn ends (next turn start or the end);
    leaves' coin changes are from ``root``'s coins."""
    index = {root: 0}
    t = Template(root, [root], [], [], [], [], [])
    leaf = _Leaves(t)
    i = 0
    while i < len(t.states):
        s = t.states[i]
        t.start.append(len(t.child))
        if s.turn.phase in CHANCE_PHASES:
            t.kind_seat.append(-1)
            outcomes = s.chance_outcomes()
        else:
            t.kind_seat.append(s.turn.decider)
            outcomes = [(m, Fraction(0)) for m in s.legal_moves()]
        for move, p in outcomes:
            child = s.apply(move)
            if child.turn.phase is Phase.OVER or child.turn.phase is Phase.ACTION:
                t.child.append(_leaf_of(root, child, leaf, layouts, layout_states))
            else:
                j = index.get(child)
                if j is None:
                    j = len(t.states)
                    index[child] = j
                    t.states.append(child)
                t.child.append(j)
            t.prob.append(p)
            t.moves.append(move)
        i += 1
    t.start.append(len(t.child))
    t.tails = [()] * len(t.child)
    return t


@dataclass(repr=False)
class TurnLabels:
    """What the nodes and edges of a Coup graph stand for: each node is an instance of a turn
    template (its coins shifted), each edge one of the template's edges."""

    templates: list[Template]
    start: Ints  # the graph's row starts (to find an edge's node)
    node_template: Ints  # per node: its template (-1 for the ends)
    node_local: Ints  # per node: its index inside the template
    node_shift: npt.NDArray[np.int64]  # per node: coins to add to the template's (2 columns)
    edge_local: Ints  # per edge: its index inside the template's edges

    def __repr__(self) -> str:
        return f"<TurnLabels {len(self.templates):,} templates>"

    @property
    def names(self) -> tuple[str, ...]:
        return self.templates[0].root.names

    def state(self, node: int) -> State:
        """The engine state of ``node`` (rebuilt from its template)."""
        t = int(self.node_template[node])
        s = self.templates[t].states[int(self.node_local[node])]
        d0, d1 = (int(x) for x in self.node_shift[node])
        return s._replace(coins=(s.coins[0] + d0, s.coins[1] + d1))

    def _edge(self, edge: int) -> tuple[Template, int]:
        node = int(np.searchsorted(self.start, edge, side="right") - 1)
        return self.templates[int(self.node_template[node])], int(self.edge_local[edge])

    def move(self, edge: int) -> Move:
        """The move (or chance outcome) of ``edge``."""
        template, local = self._edge(edge)
        return template.moves[local]

    def tail(self, edge: int) -> tuple[Move, ...]:
        """The forced moves folded into ``edge`` (after its own move), in a compact graph."""
        template, local = self._edge(edge)
        return template.tails[local]


def build(root: State, budget: int = DEFAULT_BUDGET, compact: bool = True) -> GameGraph:
    """Every state reachable from ``root`` (a turn start with two players); with ``compact``,
    forced moves folded and equal sub-turn nodes merged (see :func:`compact`). Raises
    :class:`TooLarge` beyond ``budget`` states, :class:`Unsupported` unless two players."""
    return build_many([root], budget, compact)[0]


def build_many(roots: list[State], budget: int = DEFAULT_BUDGET, compact: bool = True) -> tuple[GameGraph, list[int]]:
    """One graph of every state reachable from any of ``roots`` (turn starts of the same
    players, the same seat to move), sharing what they share, and the node of each root
    (the first is node 0). Raises as :func:`build`."""
    for root in roots:
        living = root.living()
        if len(living) != 2 or len(root.names) != 2:
            raise Unsupported(f"the exact solver covers two players; this position has {len(living)} living")
        if root.turn.phase is not Phase.ACTION:
            raise Unsupported("the position must be the start of a turn")
        if root.turn.actor != roots[0].turn.actor or root.names != roots[0].names:
            raise Unsupported("the roots of one graph need the same players and the same seat to move")
    return _Builder(roots[0], budget, compact).build(roots)


class _Builder:
    """Breadth-first over turn starts; each turn from its (cached) template."""

    def __init__(self, root: State, budget: int, compact: bool) -> None:
        self.root = root
        self.budget = budget
        self.compact = compact
        self.subtrees: dict[State, Template] = {}  # what follows an action, coins normalised
        self.maximizer = root.turn.actor
        self.layouts: dict[tuple[object, ...], int] = {_layout(root): 0}
        self.layout_states: list[State] = [root]
        self.templates: list[Template] = []
        self.template_index: dict[tuple[int, int, tuple[int, int]], int] = {}

    def template(self, layout: int, actor: int, coins: tuple[int, int]) -> int:
        cls = coin_class(coins, actor)
        key = (layout, actor, cls)
        found = self.template_index.get(key)
        if found is None:
            base = self.layout_states[layout]
            rep = base._replace(coins=_representative(cls, actor), turn=Turn(Phase.ACTION, actor, actor))
            found = len(self.templates)
            expanded = _splice(rep, self.subtrees, self.layouts, self.layout_states, self.compact)
            self.templates.append(compact(expanded) if self.compact else expanded)
            self.template_index[key] = found
        return found

    def build(self, roots: list[State]) -> tuple[GameGraph, list[int]]:
        starts: dict[tuple[int, int, int, int], int] = {}
        order: list[tuple[int, int, int, int]] = []
        of_start: list[int] = []
        for root in roots:
            key = _layout(root)
            if key not in self.layouts:
                self.layouts[key] = len(self.layouts)
                self.layout_states.append(root)
            first = (self.layouts[key], root.turn.actor, root.coins[0], root.coins[1])
            if first not in starts:
                starts[first] = len(order)
                order.append(first)
        root_starts = [starts[(self.layouts[_layout(r)], r.turn.actor, r.coins[0], r.coins[1])] for r in roots]
        total = 0
        i = 0
        while i < len(order):
            layout, actor, c0, c1 = order[i]
            t = self.template(layout, actor, (c0, c1))
            of_start.append(t)
            total += len(self.templates[t].states)
            if total > self.budget:
                raise TooLarge(f"more than {self.budget:,} positions (the state budget); not solved")
            for leaf in self.templates[t].leaves:
                if isinstance(leaf, int):
                    continue
                nl, na, d0, d1 = leaf
                key = (nl, na, c0 + d0, c1 + d1)
                if key not in starts:
                    starts[key] = len(order)
                    order.append(key)
            i += 1
        graph = self._arrays(order, starts, of_start)
        return graph, [int(graph.turn_start_nodes[i]) for i in root_starts]

    def _arrays(
        self, order: list[tuple[int, int, int, int]], starts: dict[tuple[int, int, int, int], int], of_start: list[int]
    ) -> GameGraph:
        """Lay the turns out template by template (the root's first), all instances of a
        template at once."""
        instance_template = np.array(of_start, dtype=np.int64)
        keys = np.array(order, dtype=np.int64)  # layout, actor, c0, c1 per turn start
        groups = np.argsort(instance_template, kind="stable")
        root_template = instance_template[0]
        groups = np.concatenate(
            (groups[instance_template[groups] == root_template], groups[instance_template[groups] != root_template])
        )
        sizes = np.array([len(t.states) for t in self.templates], dtype=np.int64)[instance_template]
        ordered_sizes = sizes[groups]
        base_in_order = np.concatenate(([0], np.cumsum(ordered_sizes)))
        node_base = np.empty(len(order), dtype=np.int64)
        node_base[groups] = base_in_order[:-1]
        n = int(base_in_order[-1]) + 2
        win_node, loss_node = n - 2, n - 1
        # encode turn-start keys as integers to map leaves to nodes with searchsorted
        code = _encode(keys)
        sorter = np.argsort(code)
        sorted_code = code[sorter]

        kind = np.empty(n, dtype=np.int8)
        terminal = np.zeros(n, dtype=np.int8)
        node_template = np.full(n, -1, dtype=np.int64)
        node_local = np.zeros(n, dtype=np.int64)
        node_shift = np.zeros((n, 2), dtype=np.int64)
        degree = np.zeros(n, dtype=np.int64)
        kind[win_node] = kind[loss_node] = END
        terminal[win_node], terminal[loss_node] = 1, -1
        height = np.zeros(n, dtype=np.int64)
        fractions: dict[Fraction, int] = {}
        edge_parts: list[tuple[Ints, Ints, npt.NDArray[np.float64], Ints, Ints]] = []
        position = 0
        for t, count in _in_order(instance_template[groups]):
            members = groups[position : position + count]
            position += count
            tmpl = self.templates[t]
            size = len(tmpl.states)
            bases = node_base[members]
            nodes = (bases[:, None] + np.arange(size)[None, :]).ravel()
            seats = np.array(tmpl.kind_seat, dtype=np.int64)
            local_kind = np.where(seats < 0, CHANCE, np.where(seats == self.maximizer, MAX, MIN)).astype(np.int8)
            kind[nodes] = np.tile(local_kind, len(members))
            node_template[nodes] = t
            node_local[nodes] = np.tile(np.arange(size), len(members))
            shift = keys[members][:, 2:4] - np.array(tmpl.root.coins, dtype=np.int64)[None, :]
            node_shift[nodes] = np.repeat(shift, size, axis=0)
            degree[nodes] = np.tile(np.diff(np.array(tmpl.start, dtype=np.int64)), len(members))
            height[nodes] = np.tile(tmpl.heights(), len(members))
            leaf_nodes = self._leaf_nodes(tmpl, keys[members], sorted_code, sorter, node_base, win_node, loss_node)
            child = np.array(tmpl.child, dtype=np.int64)
            internal = child >= 0
            targets = np.empty((len(members), len(child)), dtype=np.int64)
            targets[:, internal] = bases[:, None] + child[internal][None, :]
            if (~internal).any():
                targets[:, ~internal] = leaf_nodes[:, -1 - child[~internal]]
            probs = np.tile(np.array([float(p) for p in tmpl.prob]), len(members))
            locals_ = np.tile(np.arange(len(child), dtype=np.int64), len(members))
            codes = np.tile(_chance_codes(tmpl, fractions), len(members))
            edge_parts.append((bases, targets.ravel(), probs, locals_, codes))
        start = np.concatenate(([0], np.cumsum(degree)))
        succ = np.empty(int(start[-1]), dtype=np.int64)
        prob = np.zeros(int(start[-1]), dtype=np.float64)
        edge_local = np.empty(int(start[-1]), dtype=np.int64)
        prob_code = np.full(int(start[-1]), -1, dtype=np.int64)
        for bases, targets, probs, locals_, codes in edge_parts:
            per = len(targets) // len(bases)
            edges = (start[bases][:, None] + np.arange(per)[None, :]).ravel()
            succ[edges] = targets
            prob[edges] = probs
            edge_local[edges] = locals_
            prob_code[edges] = codes
        labels = TurnLabels(self.templates, start, node_template, node_local, node_shift, edge_local)
        return GameGraph(
            kind=kind,
            start=start,
            succ=succ,
            prob=prob,
            terminal=terminal,
            maximizer=self.maximizer,
            fractions=list(fractions),
            prob_code=prob_code,
            height=height,
            turn_start_nodes=np.concatenate((node_base, [win_node, loss_node])),
            labels=labels,
            win_node=win_node,
            loss_node=loss_node,
        )

    def _leaf_nodes(
        self, tmpl: Template, keys: Ints, sorted_code: Ints, sorter: Ints, node_base: Ints, win: int, loss: int
    ) -> Ints:
        """For each instance (row) and leaf (column), the node the turn ends in."""
        out = np.empty((len(keys), len(tmpl.leaves)), dtype=np.int64)
        for k, leaf in enumerate(tmpl.leaves):
            if isinstance(leaf, int):
                out[:, k] = win if leaf == self.maximizer else loss
                continue
            nl, na, d0, d1 = leaf
            wanted = np.column_stack((np.full(len(keys), nl), np.full(len(keys), na), keys[:, 2] + d0, keys[:, 3] + d1))
            found = sorter[np.searchsorted(sorted_code, _encode(wanted))]
            out[:, k] = node_base[found]
        return out


def _chance_codes(t: Template, fractions: dict[Fraction, int]) -> Ints:
    """Per edge of ``t``: the index of its exact probability in ``fractions`` (numbered on
    first sight), -1 for a decision's edge."""
    codes = np.full(len(t.child), -1, dtype=np.int64)
    for node, seat in enumerate(t.kind_seat):
        if seat < 0:
            for e in range(t.start[node], t.start[node + 1]):
                codes[e] = fractions.setdefault(t.prob[e], len(fractions))
    return codes


def _encode(keys: Ints) -> Ints:
    """Turn-start keys (layout, actor, coins, coins) as one integer each (coins < 2**10)."""
    return ((keys[:, 0] * 2 + keys[:, 1]) << 20) | (keys[:, 2] << 10) | keys[:, 3]


def _in_order(templates_in_order: Ints) -> list[tuple[int, int]]:
    """Runs of equal templates: (template, how many)."""
    if len(templates_in_order) == 0:
        return []
    cuts = np.flatnonzero(np.diff(templates_in_order)) + 1
    bounds = np.concatenate(([0], cuts, [len(templates_in_order)]))
    return [(int(templates_in_order[a]), int(b - a)) for a, b in pairwise(bounds)]
